/* SPDX-License-Identifier: MIT */
/*
 * The number lexer's inside, shared by its four files: the state of a
 * scan, the bytes and words it reads through (inline: every reader calls
 * them), the operands and items it builds, and what the files call of one
 * another. numlex.c scans; shapes.c reads the shapes before an expression;
 * operand.c reads one number with its currency, scale and unit;
 * expression.c reads an operand or a range with the words around it and
 * hands on its items. Not an interface: numlex.h is.
 */
#ifndef HALLUSCAN_LEX_H
#define HALLUSCAN_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * NUMLEX_COUNTED builds the lexer's counting copy (numlex-counted in
 * meson.build) for the test that the scan stays linear, fuzz_numlex and
 * numlex_bench: every byte a reader looks at is counted into examined
 * (numlex_examined()). The program's copy counts nothing: a count per
 * read was a hundredth of a scan. The copy's names are moved aside, so
 * that both link into one test.
 */
#ifdef NUMLEX_COUNTED
#define COUNT(lx, k) ((lx)->examined += (k))
#define lex_read_digits counted_lex_read_digits
#define lex_year_after counted_lex_year_after
#define lex_set_clock counted_lex_set_clock
#define lex_clock_digits counted_lex_clock_digits
#define lex_token_end counted_lex_token_end
#define lex_month_word counted_lex_month_word
#define lex_operand counted_lex_operand
#define lex_names_number counted_lex_names_number
#define lex_name_unit counted_lex_name_unit
#define lex_push counted_lex_push
#define lex_flush counted_lex_flush
#define lex_quantity_of counted_lex_quantity_of
#define lex_operand_items counted_lex_operand_items
#define lex_expression counted_lex_expression
#define lex_phrases_check counted_lex_phrases_check
#define lex_hex_number counted_lex_hex_number
#define lex_version counted_lex_version
#define lex_slashed counted_lex_slashed
#define lex_phone counted_lex_phone
#define lex_street counted_lex_street
#define lex_iso_date counted_lex_iso_date
#define lex_bracket_refs counted_lex_bracket_refs
#define lex_references counted_lex_references
#define lex_named_number counted_lex_named_number
#define lex_hyphen_name counted_lex_hyphen_name
#else
#define COUNT(lx, k) ((void)(lx), (void)(k))
#endif

#include "common/fmath.h"
#include "common/util.h"
#include "numlex.h"
#include "vocab.h"

/* ---- bytes and words ---- */

/* (struct numlex_state, the state of a scan, is numlex.h's: its caller keeps it in a struct numlex) */

#define NUMLEX_NO_CODE SIZE_MAX

static inline bool is_digit(int c)
{
	return (unsigned)(c - '0') < 10;
}

static inline bool is_alpha(int c)
{
	return c >= 0 && (unsigned)((c | 0x20) - 'a') < 26;
}

static inline bool is_upper(int c)
{
	return (unsigned)(c - 'A') < 26;
}

static inline bool is_lower(int c)
{
	return (unsigned)(c - 'a') < 26;
}

static inline bool is_alnum(int c)
{
	return is_digit(c) || is_alpha(c);
}

static inline int lower(int c)
{
	return is_upper(c) ? c + 32 : c;
}

/* The byte at i, or -1 outside the text or the window. Every read is counted (COUNT). */
static inline int B(struct numlex_state *lx, size_t i)
{
	COUNT(lx, 1);
	return i - lx->low < lx->span ? (unsigned char)lx->t[i] : -1;
}

/* Opens the window around an expression that starts at p. */
static inline void window(struct numlex_state *lx, size_t p)
{
	lx->low = p > lx->done + NUMLEX_LOOK ? p - NUMLEX_LOOK : lx->done;
	lx->lim = MIN(lx->n, p + 2 * NUMLEX_LOOK);
	lx->span = lx->lim - lx->low;
}

/* The length of a blank at i (space, tab, no-break or narrow space), or 0. */
static inline size_t blank_at(struct numlex_state *lx, size_t i)
{
	int c = B(lx, i);

	/* (most bytes asked are letters, digits and marks: one test for them) */
	if ((unsigned)(c - '!') < 0xC2 - '!')
		return 0;
	if (c == ' ' || c == '\t')
		return 1;
	if (c == 0xC2 && B(lx, i + 1) == 0xA0)
		return 2;
	if (c == 0xE2 && B(lx, i + 1) == 0x80 && (B(lx, i + 2) == 0xAF || B(lx, i + 2) == 0x89))
		return 3;
	return 0;
}

static inline size_t skip_blanks(struct numlex_state *lx, size_t i)
{
	size_t k;

	while ((k = blank_at(lx, i)))
		i += k;
	return i;
}

/* The blank that ends at i (exclusive): its length, or 0. */
static inline size_t blank_before(struct numlex_state *lx, size_t i)
{
	int c = B(lx, i - 1);

	if ((unsigned)(c - '!') < 0x89 - '!')
		return 0;
	if (c == ' ' || c == '\t')
		return 1;
	if (c == 0xA0 && B(lx, i - 2) == 0xC2)
		return 2;
	if ((c == 0xAF || c == 0x89) && B(lx, i - 2) == 0x80 && B(lx, i - 3) == 0xE2)
		return 3;
	return 0;
}

static inline size_t skip_blanks_back(struct numlex_state *lx, size_t i)
{
	size_t k;

	while ((k = blank_before(lx, i)))
		i -= k;
	return i;
}

/* The end of the run of ASCII letters at i. */
static inline size_t letters_end(struct numlex_state *lx, size_t i)
{
	while (is_alpha(B(lx, i)))
		i++;
	return i;
}

/* The start of the run of ASCII letters that ends at i. */
static inline size_t letters_start(struct numlex_state *lx, size_t i)
{
	while (is_alpha(B(lx, i - 1)))
		i--;
	return i;
}

/* A whole word at [ws, we): letters not glued to other letters or digits. */
struct word {
	size_t ws, we;
	const struct vword *v; /* its vocabulary entry, or NULL */
};

/* Remembers v, vocab_find() of the word [ws, we), for lookup(). */
static inline void remember(struct numlex_state *lx, size_t ws, size_t we, const struct vword *v)
{
	unsigned k = lx->vc_next++ % ARRAY_SIZE(lx->vc);

	lx->vc[k].ws1 = ws + 1;
	lx->vc[k].we = we;
	lx->vc[k].v = v;
}

/* The vocabulary entry of the word [ws, we), remembered for the next few asks. */
static inline const struct vword *lookup(struct numlex_state *lx, size_t ws, size_t we)
{
	const struct vword *v;
	unsigned k;

	for (k = 0; k < ARRAY_SIZE(lx->vc); k++)
		if (lx->vc[k].ws1 == ws + 1 && lx->vc[k].we == we)
			return lx->vc[k].v;
	v = vocab_find(lx->t + ws, we - ws);
	remember(lx, ws, we, v);
	return v;
}

static inline unsigned roles(const struct word *w)
{
	return w->v ? w->v->roles : 0;
}

/* The word that starts at i, if one does (letters, not glued to digits). */
static inline bool find_word_at(struct numlex_state *lx, size_t i, struct word *w)
{
	int c;

	if (!is_alpha(B(lx, i)) || is_alnum(B(lx, i - 1)))
		return false;
	w->ws = i;
	w->we = letters_end(lx, i);
	c = B(lx, w->we);
	if (is_digit(c) || c == '_')
		return false;
	if (w->we == lx->lim && w->we < lx->n && is_alpha((unsigned char)lx->t[w->we]))
		return false; /* cut by the window */
	w->v = lookup(lx, w->ws, w->we);
	return true;
}

/*
 * find_word_at(), remembered: an operand asks of its number word and of
 * the word after it five times or more (the article, read_words(),
 * spoken_decimals(), after_number()'s rounds, month_after(), the quarter
 * and the anniversary). The answer is the text's at i through the window
 * [low, lim) (B()), so a word found is kept with both and read again only
 * where all three match; one not found is looked at again (cheaply: it
 * leaves w as find_word_at() does, which some callers read).
 */
static inline bool word_at(struct numlex_state *lx, size_t i, struct word *w)
{
	unsigned k;

	for (k = 0; k < ARRAY_SIZE(lx->wa); k++)
		if (lx->wa[k].at == i && lx->wa[k].low == lx->low && lx->wa[k].lim == lx->lim) {
			w->ws = i;
			w->we = lx->wa[k].we;
			w->v = lx->wa[k].v;
			return true;
		}
	if (!find_word_at(lx, i, w))
		return false;
	k = lx->wa_next++ % ARRAY_SIZE(lx->wa);
	lx->wa[k].at = i;
	lx->wa[k].low = lx->low;
	lx->wa[k].lim = lx->lim;
	lx->wa[k].we = w->we;
	lx->wa[k].v = w->v;
	return true;
}

static inline bool word_before_dot(struct numlex_state *lx, size_t i, bool dot, struct word *w,
				   bool *either);

/*
 * The word before i, across blanks only (and a "." after it when dot).
 * Kept with its place and window; an answer found without a "." before
 * the blanks is the same with dot or without, and kept for both (a digit
 * asks without one, then its expression with one: "Jan. 5").
 */
static inline bool word_before(struct numlex_state *lx, size_t i, bool dot, struct word *w)
{
	unsigned k;
	bool found, either;

	for (k = 0; k < 2; k++)
		if (lx->wb[k].at == i + 1 && (lx->wb[k].dot == dot || lx->wb[k].either) &&
		    lx->wb[k].low == lx->low) {
			w->ws = lx->wb[k].ws;
			w->we = lx->wb[k].we;
			w->v = lx->wb[k].v;
			return lx->wb[k].found;
		}
	found = word_before_dot(lx, i, dot, w, &either);
	k = lx->wb_next++ & 1;
	lx->wb[k].at = i + 1;
	lx->wb[k].dot = dot;
	lx->wb[k].either = either;
	lx->wb[k].low = lx->low;
	lx->wb[k].found = found;
	lx->wb[k].ws = w->ws;
	lx->wb[k].we = w->we;
	lx->wb[k].v = w->v;
	return found;
}

/*
 * find_word_before(), and *either: no "." ends the blanks before i, so
 * that dot changes nothing (j below is the same either way, and all after
 * it reads from j).
 */
static inline bool word_before_dot(struct numlex_state *lx, size_t i, bool dot, struct word *w,
				   bool *either)
{
	size_t j = skip_blanks_back(lx, i);
	int c = B(lx, j - 1);

	*either = c != '.';
	if (dot && c == '.')
		c = B(lx, --j - 1);
	if (!is_alpha(c))
		return false;
	w->we = j;
	w->ws = letters_start(lx, j);
	/* Cut by the window: not a whole word. */
	if (w->ws == lx->low && w->ws > 0 && is_alpha((unsigned char)lx->t[w->ws - 1]))
		return false;
	if (is_digit(B(lx, w->ws - 1)) || B(lx, w->ws - 1) == '_')
		return false;
	w->v = lookup(lx, w->ws, w->we);
	return true;
}

static inline bool find_word_before(struct numlex_state *lx, size_t i, bool dot, struct word *w)
{
	bool either;

	return word_before_dot(lx, i, dot, w, &either);
}

/*
 * True when [ws, we) spells s (lowercase), without case. Most calls name a
 * word of another length: where s is a literal, its length, known when
 * compiled, turns them away before a byte is read.
 */
static inline bool spells(struct numlex_state *lx, size_t ws, size_t we, const char *s)
{
	size_t i;

	if (__builtin_constant_p(__builtin_strlen(s)) && we - ws != __builtin_strlen(s))
		return false;
	for (i = 0; ws + i < we; i++)
		if (!s[i] || lower(B(lx, ws + i)) != s[i])
			return false;
	return s[i] == '\0';
}

/* True when the text at i reads s (lowercase; letters without case). */
static inline bool reads(struct numlex_state *lx, size_t i, const char *s)
{
	for (; *s; s++, i++)
		if (lower(B(lx, i)) != (unsigned char)*s)
			return false;
	return true;
}

/* True when the k bytes of text that end at i read s. */
static inline bool reads_back(struct numlex_state *lx, size_t i, const char *s, size_t k)
{
	return i >= k && reads(lx, i - k, s);
}

/* A number as written, in digits or in words. */
struct num {
	size_t from, to;
	double v;
	int decimals;
	int idigits;   /* digits before the point */
	bool comma;    /* thousands separators */
	bool words;
	bool ordinal;  /* "third", "twenty-first" */
};

enum okind {
	K_NONE,     /* nothing here */
	K_SKIP,     /* read, and no item: a decade, a fraction, a glued id */
	K_NUMBER, K_COUNT, K_MONEY, K_PERCENT, K_DURATION, K_TIME, K_TEMP, K_DATE, K_YEAR,
	K_QUARTER, K_ORDINAL, K_IDENT, K_RATIO,
};

struct opnd {
	size_t from, to;       /* all of it: "$1.2 billion", "March 26, 2024" */
	size_t main_from, main_to; /* without a year written with it */
	struct num x;
	enum okind kind;
	int unit;              /* U_* of a percent, a duration, a temperature */
	int currency;          /* U_USD, U_EUR, U_GBP, U_CENT */
	double scale;          /* written: 1e9 for "billion" */
	bool scale_written;
	char noun[QUANTITY_UNIT_MAX]; /* a counted noun, or an identifier's unit */
	unsigned noun_roles;   /* of the counted noun and the word after it */
	int minutes, clock_prec; /* a time: minutes since midnight; 60 hour, 1 minute, 0 second */
	double seconds;
	int meridiem;          /* 0, or U_AM / U_PM */
	int month, day;        /* a date; day 0: the month alone */
	int year;              /* a year written with a date or a quarter, or 0 */
	size_t year_from, year_to;
	int yearnoun;          /* follows: 2 a dating noun ("season"), 1 a capitalized word */
	bool measure;          /* counted in a unit of measure ("5 kg", "5km"), not a noun */
	bool neg;              /* a minus sign before (read for temperatures only) */
	bool anniversary;      /* an ordinal of years: "35th anniversary", "21st birthday" */
	bool decade;           /* a year read as its decade: "1990s", "1990's", "'90s" */
	unsigned flags;        /* NUMLEX_APPROX from "100+" */
};

static inline bool yearish(const struct num *x)
{
	return !x->words && !x->comma && x->decimals == 0 && x->idigits == 4 && x->v >= 1000 &&
	       x->v <= 2999;
}

static inline bool whole(const struct num *x, double lo, double hi)
{
	return x->decimals == 0 && !x->comma && x->v >= lo && x->v <= hi;
}

/* U+2019, the right single quotation mark, at i. */
static inline bool right_quote(struct numlex_state *lx, size_t i)
{
	return B(lx, i) == 0xE2 && B(lx, i + 1) == 0x80 && B(lx, i + 2) == 0x99;
}

/* Digits that name a decade with an "s" after them: "1990" of "1990s". */
static inline bool decade_digits(const struct num *x)
{
	return yearish(x) && fmath_fmod(x->v, 10) == 0;
}

/* "s", "'s" or "’s" at i, a word's end after it: the end, else 0 ("1990s", "1990's"). */
static inline size_t decade_s(struct numlex_state *lx, size_t i)
{
	size_t k = B(lx, i) == '\'' ? i + 1 : right_quote(lx, i) ? i + 3 : i;

	return lower(B(lx, k)) == 's' && !is_alnum(B(lx, k + 1)) && B(lx, k + 1) != '_' ? k + 1 : 0;
}

struct out {
	struct numlex_item it[8];
	size_t n;
};

/* ---- what the files call of one another ---- */

/* operand.c */
/* Digits at p ("1,234,567.89") into x; false past 15 digits. */
bool lex_read_digits(struct numlex_state *lx, size_t p, struct num *x);
/* A year after a date or a quarter at i: sets o's; its end, or i. */
size_t lex_year_after(struct numlex_state *lx, struct opnd *o, size_t i, bool of);
/* A time of day from o's number, written minutes and meridiem; false if none such. */
bool lex_set_clock(struct opnd *o, int hour, int minute, double second, int prec, int meridiem);
/* "17:30", "17:30:24" at the number's end: the clock's end, or 0. */
size_t lex_clock_digits(struct numlex_state *lx, struct opnd *o, size_t i);
/* The end of the run of letters, digits and "_" at i. */
size_t lex_token_end(struct numlex_state *lx, size_t i);
/* Whether w is a month where it stands (before or after its day). */
bool lex_month_word(struct numlex_state *lx, const struct word *w, bool before_day);
/* One operand at p: [currency] number [glued letters] [words]. */
void lex_operand(struct numlex_state *lx, size_t p, struct opnd *o, int month, size_t num_at);

/* expression.c */
/* A name whose number follows it: "Windows 10", "version 2.3". */
bool lex_names_number(struct numlex_state *lx, const struct word *w);
/* An identifier's or a version's unit: prefix, the lowercase letters of [ws, we), tail. */
bool lex_name_unit(struct numlex_state *lx, char *out, const char *prefix, size_t ws, size_t we,
		   const char *tail);
/* Adds an item of [pf, pt) to out. */
void lex_push(struct out *out, size_t pf, size_t pt, const struct quantity *q, unsigned flags);
/* Puts the items of one expression [from, to) in the caller's array, in order of their parts (a
 * full one pauses the pass: rc 1; an error sets rc below 0). */
void lex_flush(struct numlex_state *lx, struct out *out, size_t from, size_t to);
/* The quantity of an operand's main part. */
void lex_quantity_of(const struct opnd *o, struct quantity *q);
/* The items of one operand: its main part, and a year written with it. */
void lex_operand_items(const struct opnd *o, unsigned flags, struct out *out);
/* The expression whose number starts at p; where the scan goes on. */
size_t lex_expression(struct numlex_state *lx, size_t p);
/* The fixed phrases held to phrase_may_start(): NULL, or the first that is not. */
const char *lex_phrases_check(void);

#endif
