// SPDX-License-Identifier: MIT
/* The number lexer: numbers in text as the quantities they state, in one pass. */
#include "numlex.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/fmath.h"
#include "common/util.h"
#include "vocab.h"
#include "wordlists.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- vocabulary: words/numbers.txt, made into tables at build time (vocab.h) ---- */


/*
 * Idioms with a number in them: the words before it, the number as written,
 * the words after it (compared without case, whole words at both ends).
 */
#define PHRASE(b, n, a) {b, n, a, sizeof(b) - 1, sizeof(n) - 1, sizeof(a) - 1}
static const struct {
	const char *before, *num, *after;
	unsigned char nb, nn, na;
} fixed_phrases[] = {
	PHRASE("", "24", " hours a day"),
	PHRASE("", "24", "/7"),
	PHRASE("", "365", " days a year"),
	PHRASE("", "7", " days a week"),
	PHRASE("", "first", " and foremost"),
	PHRASE("", "first", " of all"),
	PHRASE("", "one", " another"),
	PHRASE("", "one", " at a time"),
	PHRASE("", "one", " by one"),
	PHRASE("", "one", " day"),
	PHRASE("", "one", " of"),
	PHRASE("", "one", " or another"),
	PHRASE("", "one", " or more"),
	PHRASE("", "one", " or two"),
	PHRASE("", "one", " way or another"),
	PHRASE("", "one", "'s"),
	PHRASE("", "second", " to none"),
	PHRASE("", "seven", " days a week"),
	PHRASE("any ", "one", ""),
	PHRASE("at ", "first", ""),
	PHRASE("at ", "one", " point"),
	PHRASE("each ", "one", ""),
	PHRASE("every ", "one", ""),
	PHRASE("in the ", "first", " place"),
	PHRASE("no ", "one", ""),
	PHRASE("on the ", "one", " hand"),
	/* The size of a rating scale or a ratio's base, not a count:
	 * "3.5 out of 5 stars", "8 out of 10 dentists" (the figure before it is
	 * the claim, and is checked). "7 out of 19 deaths" is a count still. */
	PHRASE("out of ", "10", ""),
	PHRASE("out of ", "100", ""),
	PHRASE("out of ", "5", ""),
	PHRASE("out of ", "five", ""),
	PHRASE("out of ", "ten", ""),
	PHRASE("that ", "one", ""),
	PHRASE("the ", "one", ""),
	PHRASE("this ", "one", ""),
	PHRASE("which ", "one", ""),
};

/*
 * Whether some fixed phrase's number is len bytes long and starts with c:
 * most numbers are none of theirs, and the table is then not walked (it
 * was 2% of the instructions with tool spans). numlex_self_check() holds
 * every phrase to it.
 */
static bool phrase_may_start(int c, size_t len)
{
	switch (c) {
	case '1': return len == 2 || len == 3;   /* 10, 100 */
	case '2': return len == 2;               /* 24 */
	case '3': case 'o': case 't': return len == 3; /* 365, one, ten */
	case '5': case '7': return len == 1;
	case 'f': return len == 4 || len == 5;   /* five, first */
	case 's': return len == 5 || len == 6;   /* seven, second */
	default: return false;
	}
}

/*
 * Approximations of two words: the word before the number and the word
 * before that, and the side of a bound they set (NUMLEX_ABOVE, _BELOW).
 */
static const struct {
	const char *w2, *w1;
	unsigned side;
} approx_pairs[] = {
	{"more", "than", NUMLEX_ABOVE}, {"less", "than", NUMLEX_BELOW},
	{"fewer", "than", NUMLEX_BELOW}, {"greater", "than", NUMLEX_ABOVE},
	{"at", "least", NUMLEX_ABOVE}, {"at", "most", NUMLEX_BELOW}, {"up", "to", NUMLEX_BELOW},
	{"close", "to", 0}, {"upwards", "of", NUMLEX_ABOVE}, {"excess", "of", NUMLEX_ABOVE},
	{"as", "many", 0}, {"as", "much", 0}, {"as", "few", 0}, {"as", "little", 0},
	{"just", "over", NUMLEX_ABOVE}, {"just", "under", NUMLEX_BELOW},
	{"well", "over", NUMLEX_ABOVE}, {"an", "estimated", 0},
};

/* ---- bytes and words ---- */

struct lex {
	const char *t;
	size_t n;
	/* The window of the expression being read: [low, lim). low is never
	 * before the end of the previous expression (done). */
	size_t low, lim, done;
	size_t year_end; /* the end of the last expression that gave a year, or 0 */
	/* The last words found before a place: most items ask several times. */
	struct {
		size_t at, low;
		bool dot, found;
		size_t ws, we;
		const struct vword *v;
	} wb[2];
	unsigned wb_next;
	/* The last words looked up, by where they start. */
	struct {
		size_t ws1, we; /* ws + 1: 0 is empty */
		const struct vword *v;
	} vc[4];
	unsigned vc_next;
	unsigned opts;
	numlex_fn fn;
	void *ctx;
	size_t examined;
	int rc;
};

/* What the main loop stops at: letters, digits, and "_" or "@" (skipped). */
enum { C_OTHER, C_DIGIT, C_ALPHA, C_SKIP };

#define ROW16(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
static const unsigned char byte_class[256] = {
	ROW16(C_OTHER), ROW16(C_OTHER), ROW16(C_OTHER),                         /* 00-2f */
	C_DIGIT, C_DIGIT, C_DIGIT, C_DIGIT, C_DIGIT, C_DIGIT, C_DIGIT, C_DIGIT, /* 0-7 */
	C_DIGIT, C_DIGIT, C_OTHER, C_OTHER, C_OTHER, C_OTHER, C_OTHER, C_OTHER, /* 8-? */
	C_SKIP, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA,  /* @-G */
	ROW16(C_ALPHA),                                                         /* H-W */
	C_ALPHA, C_ALPHA, C_ALPHA, C_OTHER, C_OTHER, C_OTHER, C_OTHER, C_SKIP,  /* X-_ */
	C_OTHER, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, /* `-g */
	ROW16(C_ALPHA),                                                         /* h-w */
	C_ALPHA, C_ALPHA, C_ALPHA, C_OTHER, C_OTHER, C_OTHER, C_OTHER, C_OTHER, /* x-7f */
	ROW16(C_OTHER), ROW16(C_OTHER), ROW16(C_OTHER), ROW16(C_OTHER),         /* 80-bf */
	ROW16(C_OTHER), ROW16(C_OTHER), ROW16(C_OTHER), ROW16(C_OTHER),         /* c0-ff */
};

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

/* The byte at i, or -1 outside the text or the window. Every read is counted. */
static inline int B(struct lex *lx, size_t i)
{
	lx->examined++;
	return i >= lx->low && i < lx->lim ? (unsigned char)lx->t[i] : -1;
}

/* Opens the window around an expression that starts at p. */
static void window(struct lex *lx, size_t p)
{
	lx->low = p > lx->done + NUMLEX_LOOK ? p - NUMLEX_LOOK : lx->done;
	lx->lim = MIN(lx->n, p + 2 * NUMLEX_LOOK);
}

/* The length of a blank at i (space, tab, no-break or narrow space), or 0. */
static size_t blank_at(struct lex *lx, size_t i)
{
	int c = B(lx, i);

	if (c == ' ' || c == '\t')
		return 1;
	if (c == 0xC2 && B(lx, i + 1) == 0xA0)
		return 2;
	if (c == 0xE2 && B(lx, i + 1) == 0x80 && (B(lx, i + 2) == 0xAF || B(lx, i + 2) == 0x89))
		return 3;
	return 0;
}

static size_t skip_blanks(struct lex *lx, size_t i)
{
	size_t k;

	while ((k = blank_at(lx, i)))
		i += k;
	return i;
}

/* The blank that ends at i (exclusive): its length, or 0. */
static size_t blank_before(struct lex *lx, size_t i)
{
	int c = B(lx, i - 1);

	if (c == ' ' || c == '\t')
		return 1;
	if (c == 0xA0 && B(lx, i - 2) == 0xC2)
		return 2;
	if ((c == 0xAF || c == 0x89) && B(lx, i - 2) == 0x80 && B(lx, i - 3) == 0xE2)
		return 3;
	return 0;
}

static size_t skip_blanks_back(struct lex *lx, size_t i)
{
	size_t k;

	while ((k = blank_before(lx, i)))
		i -= k;
	return i;
}

/* The end of the run of ASCII letters at i. */
static size_t letters_end(struct lex *lx, size_t i)
{
	while (is_alpha(B(lx, i)))
		i++;
	return i;
}

/* The start of the run of ASCII letters that ends at i. */
static size_t letters_start(struct lex *lx, size_t i)
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

static const char *masks_check(void);

const char *numlex_self_check(void)
{
	const char *bad = masks_check();
	size_t i;

	if (bad)
		return bad;
	for (i = 0; i < ARRAY_SIZE(fixed_phrases); i++)
		if (!phrase_may_start(fixed_phrases[i].num[0], fixed_phrases[i].nn))
			return fixed_phrases[i].num;
	return vocab_check();
}

/* The vocabulary entry of the word [ws, we), remembered for the next few asks. */
static const struct vword *lookup(struct lex *lx, size_t ws, size_t we)
{
	const struct vword *v;
	unsigned k;

	for (k = 0; k < ARRAY_SIZE(lx->vc); k++)
		if (lx->vc[k].ws1 == ws + 1 && lx->vc[k].we == we)
			return lx->vc[k].v;
	v = vocab_find(lx->t + ws, we - ws);
	k = lx->vc_next++ % ARRAY_SIZE(lx->vc);
	lx->vc[k].ws1 = ws + 1;
	lx->vc[k].we = we;
	lx->vc[k].v = v;
	return v;
}

static unsigned roles(const struct word *w)
{
	return w->v ? w->v->roles : 0;
}

/* The word that starts at i, if one does (letters, not glued to digits). */
static bool word_at(struct lex *lx, size_t i, struct word *w)
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

static bool find_word_before(struct lex *lx, size_t i, bool dot, struct word *w);

/* The word before i, across blanks only (and a "." after it when dot). */
static bool word_before(struct lex *lx, size_t i, bool dot, struct word *w)
{
	unsigned k;
	bool found;

	for (k = 0; k < 2; k++)
		if (lx->wb[k].at == i + 1 && lx->wb[k].dot == dot && lx->wb[k].low == lx->low) {
			w->ws = lx->wb[k].ws;
			w->we = lx->wb[k].we;
			w->v = lx->wb[k].v;
			return lx->wb[k].found;
		}
	found = find_word_before(lx, i, dot, w);
	k = lx->wb_next++ & 1;
	lx->wb[k].at = i + 1;
	lx->wb[k].dot = dot;
	lx->wb[k].low = lx->low;
	lx->wb[k].found = found;
	lx->wb[k].ws = w->ws;
	lx->wb[k].we = w->we;
	lx->wb[k].v = w->v;
	return found;
}

static bool find_word_before(struct lex *lx, size_t i, bool dot, struct word *w)
{
	size_t j = skip_blanks_back(lx, i);

	if (dot && B(lx, j - 1) == '.')
		j--;
	if (!is_alpha(B(lx, j - 1)))
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

/* True when [ws, we) spells s (lowercase), without case. */
static bool spells(struct lex *lx, size_t ws, size_t we, const char *s)
{
	size_t i;

	for (i = 0; ws + i < we; i++)
		if (!s[i] || lower(B(lx, ws + i)) != s[i])
			return false;
	return s[i] == '\0';
}

/* True when the text at i reads s (lowercase; letters without case). */
static bool reads(struct lex *lx, size_t i, const char *s)
{
	for (; *s; s++, i++)
		if (lower(B(lx, i)) != (unsigned char)*s)
			return false;
	return true;
}

/* True when the k bytes of text that end at i read s. */
static bool reads_back(struct lex *lx, size_t i, const char *s, size_t k)
{
	return i >= k && reads(lx, i - k, s);
}

/* ---- numbers ---- */

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

static const double pow10_table[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
				     1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/*
 * Digits at p: "1,234,567.89" (a first group of one to three digits, then
 * groups of exactly three). Up to 15 digits the integer they spell is exact
 * in a double, and one division by 10^decimals gives what strtod() gives.
 * False when there are more (x->to is then the end of the run).
 */
static bool read_digits(struct lex *lx, size_t p, struct num *x)
{
	uint64_t m = 0;
	int count = 0, dec = 0, c;
	size_t i = p;

	memset(x, 0, sizeof(*x));
	x->from = p;
	while (is_digit(c = B(lx, i))) {
		m = m * 10 + (uint64_t)(c - '0');
		count++;
		i++;
		if (count > 15) {
			while (is_digit(B(lx, i)) || B(lx, i) == '.' || B(lx, i) == ',')
				i++;
			x->to = i;
			return false;
		}
	}
	while (count <= 15 && B(lx, i) == ',' && is_digit(B(lx, i + 1)) && is_digit(B(lx, i + 2)) &&
	       is_digit(B(lx, i + 3)) && !is_digit(B(lx, i + 4)) && (x->comma || count <= 3)) {
		size_t g;

		for (g = i + 1; g < i + 4; g++)
			m = m * 10 + (uint64_t)(B(lx, g) - '0');
		count += 3;
		i += 4;
		x->comma = true;
	}
	x->idigits = count;
	if (B(lx, i) == '.' && is_digit(B(lx, i + 1))) {
		i++;
		while (is_digit(c = B(lx, i))) {
			m = m * 10 + (uint64_t)(c - '0');
			count++;
			dec++;
			i++;
		}
	}
	x->to = i;
	if (count > 15)
		return false;
	x->v = (double)m / pow10_table[dec];
	x->decimals = dec;
	return true;
}

/* What a cardinal word does in a composition. */
enum wclass { W_NONE, W_A, W_UNIT, W_TEEN, W_TEN, W_HUNDRED, W_SCALE, W_DOZEN };

static enum wclass word_class(const struct vword *v)
{
	if (v->num >= 1000)
		return W_SCALE;
	if (v->num == 100)
		return W_HUNDRED;
	if (v->w[0] == 'd')
		return W_DOZEN;
	if (v->num < 10)
		return W_UNIT;
	return v->num < 20 ? W_TEEN : W_TEN;
}

/*
 * Decimals said in words after a number in words, as transcripts have
 * them: "three point five" (3.5), "one point two five" (a digit word a
 * place), "twelve dot fifty" (12.50: a tens word, or tens and a unit, is
 * two places). Extends x when they follow it; "at one point he" is left.
 */
static void spoken_decimals(struct lex *lx, struct num *x)
{
	struct word w;
	size_t j = skip_blanks(lx, x->to), end = 0;
	double frac = 0, place = 0.1;
	int places = 0;

	if (!word_at(lx, j, &w) || !(spells(lx, w.ws, w.we, "point") || spells(lx, w.ws, w.we, "dot")))
		return;
	j = skip_blanks(lx, w.we);
	while (places < 6 && word_at(lx, j, &w) && w.v && (w.v->roles & R_CARD) && w.v->num < 10 &&
	       word_class(w.v) == W_UNIT) {
		frac += w.v->num * place;
		place /= 10;
		places++;
		end = w.we;
		j = skip_blanks(lx, w.we);
	}
	if (places == 0 && word_at(lx, j, &w) && w.v && (w.v->roles & R_CARD) &&
	    (word_class(w.v) == W_TEN || word_class(w.v) == W_TEEN)) {
		frac = w.v->num / 100.0;
		end = w.we;
		places = 2;
		j = skip_blanks(lx, w.we);
		if (B(lx, j) == '-')
			j = skip_blanks(lx, j + 1);
		if (word_class(w.v) == W_TEN && word_at(lx, j, &w) && w.v && (w.v->roles & R_CARD) &&
		    word_class(w.v) == W_UNIT && w.v->num > 0) {
			frac += w.v->num / 100.0;
			end = w.we;
		}
	}
	if (places == 0)
		return;
	x->v += frac;
	x->decimals = places;
	x->to = end;
}

/*
 * Number words at p: "zero" .. "ninety-nine", "twenty five", "two hundred
 * and forty", "two hundred thousand", "a dozen", "a million", and the
 * ordinals "third", "twenty-first". a_before: an "a" comes first (so
 * "hundred", "thousand", "dozen" may start).
 */
static bool read_words(struct lex *lx, size_t p, bool a_before, struct num *x)
{
	enum wclass last = a_before ? W_A : W_NONE;
	double total = 0, cur = a_before ? 1 : 0, last_scale = INFINITY;
	size_t i = p;
	int nwords = 0;

	memset(x, 0, sizeof(*x));
	x->from = p;
	x->to = p;
	x->words = true;
	while (nwords < 12) {
		struct word w;
		enum wclass k;
		size_t j;

		if (!word_at(lx, i, &w) || !w.v || !(w.v->roles & (R_CARD | R_ORD)))
			break;
		if (!(w.v->roles & R_CARD)) {
			/* An ordinal ends a number: "third", "twenty-first". */
			if (last == W_NONE || (last == W_TEN && w.v->num < 10)) {
				cur += w.v->num;
				x->ordinal = true;
				x->to = w.we;
			}
			break;
		}
		k = word_class(w.v);
		switch (k) {
		case W_UNIT:
			if (w.v->num == 0) {
				if (last != W_NONE)
					goto out;
			} else if (last != W_NONE && last != W_TEN && last != W_HUNDRED && last != W_SCALE) {
				goto out;
			}
			cur += w.v->num;
			break;
		case W_TEEN:
		case W_TEN:
			if (last != W_NONE && last != W_HUNDRED && last != W_SCALE)
				goto out;
			cur += w.v->num;
			break;
		case W_HUNDRED:
			if (last != W_A && last != W_UNIT && last != W_TEEN && last != W_TEN)
				goto out;
			cur *= 100;
			break;
		case W_SCALE:
			if (last == W_NONE || last == W_SCALE || last == W_DOZEN || w.v->num >= last_scale)
				goto out;
			total += cur * w.v->num;
			cur = 0;
			last_scale = w.v->num;
			break;
		case W_DOZEN:
			if (last != W_A && last != W_UNIT && last != W_TEEN)
				goto out;
			cur *= 12;
			break;
		default:
			goto out;
		}
		last = k;
		x->to = w.we;
		nwords++;
		if (k == W_DOZEN || (k == W_UNIT && w.v->num == 0))
			break;
		/* The next word: after "-", blanks, " - " (transcripts write "twenty -
		 * five"), or "and" after a hundred or a scale. */
		j = skip_blanks(lx, w.we);
		if (B(lx, j) == '-')
			j = skip_blanks(lx, j + 1);
		if (j == w.we)
			break;
		if ((last == W_HUNDRED || last == W_SCALE) && reads(lx, j, "and") &&
		    !is_alpha(B(lx, j + 3))) {
			struct word n2;

			if (!word_at(lx, skip_blanks(lx, j + 3), &n2) || !n2.v ||
			    !(n2.v->roles & R_CARD) || n2.v->num >= 100)
				break;
			j = n2.ws;
		}
		i = j;
	}
out:
	if (x->to == p || last == W_A)
		return false;
	if (last == W_NONE && !x->ordinal)
		return false;
	x->v = total + cur;
	if (!x->ordinal && last != W_DOZEN)
		spoken_decimals(lx, x);
	return true;
}

/* ---- operands: one number with its currency, scale and unit ---- */

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

static bool yearish(const struct num *x)
{
	return !x->words && !x->comma && x->decimals == 0 && x->idigits == 4 && x->v >= 1000 &&
	       x->v <= 2999;
}

static bool whole(const struct num *x, double lo, double hi)
{
	return x->decimals == 0 && !x->comma && x->v >= lo && x->v <= hi;
}

/* U+2019, the right single quotation mark, at i. */
static bool right_quote(struct lex *lx, size_t i)
{
	return B(lx, i) == 0xE2 && B(lx, i + 1) == 0x80 && B(lx, i + 2) == 0x99;
}

/* Digits that name a decade with an "s" after them: "1990" of "1990s". */
static bool decade_digits(const struct num *x)
{
	return yearish(x) && fmath_fmod(x->v, 10) == 0;
}

/* "s", "'s" or "’s" at i, a word's end after it: the end, else 0 ("1990s", "1990's"). */
static size_t decade_s(struct lex *lx, size_t i)
{
	size_t k = B(lx, i) == '\'' ? i + 1 : right_quote(lx, i) ? i + 3 : i;

	return lower(B(lx, k)) == 's' && !is_alnum(B(lx, k + 1)) && B(lx, k + 1) != '_' ? k + 1 : 0;
}

/* "am", "pm", "a.m.", "p.m." (any case) at i: U_AM or U_PM, and *end; or 0. */
static int meridiem_at(struct lex *lx, size_t i, size_t *end)
{
	int c = lower(B(lx, i)), m = c == 'a' ? U_AM : c == 'p' ? U_PM : 0;

	if (!m)
		return 0;
	if (lower(B(lx, i + 1)) == 'm' && !is_alnum(B(lx, i + 2))) {
		*end = i + 2;
		return m;
	}
	if (B(lx, i + 1) == '.' && lower(B(lx, i + 2)) == 'm') {
		*end = B(lx, i + 3) == '.' ? i + 4 : i + 3;
		if (is_alnum(B(lx, *end)))
			return 0;
		return m;
	}
	return 0;
}

/* A degree sign at i ("°", "º", "℃", "℉"), then the scale: the unit and *end, or 0. */
static int degrees_at(struct lex *lx, size_t i, size_t *end)
{
	int c = B(lx, i), c1 = B(lx, i + 1), c2 = B(lx, i + 2);
	size_t j;
	struct word w;

	if (c == 0xE2 && c1 == 0x84 && (c2 == 0x83 || c2 == 0x89)) {
		*end = i + 3;
		return c2 == 0x83 ? U_CELSIUS : U_FAHRENHEIT;
	}
	if (c != 0xC2 || (c1 != 0xB0 && c1 != 0xBA))
		return 0;
	j = skip_blanks(lx, i + 2);
	*end = i + 2;
	if ((B(lx, j) == 'F' || B(lx, j) == 'C') && !is_alnum(B(lx, j + 1))) {
		*end = j + 1;
		return B(lx, j) == 'F' ? U_FAHRENHEIT : U_CELSIUS;
	}
	if (word_at(lx, j, &w) && w.v && unit_info[w.v->unit].cls == UC_TEMP && w.v->unit != U_DEGREE) {
		*end = w.we;
		return w.v->unit;
	}
	return U_DEGREE;
}

/* After "degrees": an optional scale ("F", "Celsius"). */
static int degree_scale(struct lex *lx, size_t i, size_t *end)
{
	size_t j = skip_blanks(lx, i);
	struct word w;

	*end = i;
	if ((B(lx, j) == 'F' || B(lx, j) == 'C') && !is_alnum(B(lx, j + 1)) && j > i) {
		*end = j + 1;
		return B(lx, j) == 'F' ? U_FAHRENHEIT : U_CELSIUS;
	}
	if (word_at(lx, j, &w) && w.v && unit_info[w.v->unit].cls == UC_TEMP && w.v->unit != U_DEGREE) {
		*end = w.we;
		return w.v->unit;
	}
	return U_DEGREE;
}

/*
 * A year after a date or a quarter: [","] blanks ["of"] ["fiscal" | "FY"]
 * four digits. Sets o's year and returns its end, or i.
 */
static size_t year_after(struct lex *lx, struct opnd *o, size_t i, bool of)
{
	size_t j = i;
	struct num y;
	struct word w;

	if (B(lx, j) == ',')
		j++;
	j = skip_blanks(lx, j);
	if (of && word_at(lx, j, &w) && spells(lx, w.ws, w.we, "of"))
		j = skip_blanks(lx, w.we);
	if (word_at(lx, j, &w) && spells(lx, w.ws, w.we, "fiscal"))
		j = skip_blanks(lx, w.we);
	if (!is_digit(B(lx, j)) || is_alnum(B(lx, j - 1)) || j == i)
		return i;
	if (!read_digits(lx, j, &y) || !yearish(&y) || is_alnum(B(lx, y.to)) ||
	    (B(lx, y.to) == '.' && is_digit(B(lx, y.to + 1))))
		return i;
	o->year = (int)y.v;
	o->year_from = y.from;
	o->year_to = y.to;
	return y.to;
}

/* Lowercase singular of a counted noun: "employees" -> "employee", "inches" -> "inch". */
static void singular(struct lex *lx, size_t ws, size_t we, char *out)
{
	size_t k = MIN(we - ws, (size_t)QUANTITY_UNIT_MAX - 1), i;

	for (i = 0; i < k; i++)
		out[i] = (char)lower(B(lx, ws + i));
	out[k] = '\0';
	if (k > 4 && strcmp(out + k - 3, "ies") == 0 && strcmp(out, "series") != 0 &&
	    strcmp(out, "species") != 0) {
		strcpy(out + k - 3, "y");
	} else if (k > 4 && (strcmp(out + k - 4, "ches") == 0 || strcmp(out + k - 4, "shes") == 0 ||
			     strcmp(out + k - 4, "sses") == 0 || strcmp(out + k - 3, "xes") == 0)) {
		out[k - 2] = '\0';
	} else if (k > 3 && out[k - 1] == 's' && out[k - 2] != 's' && out[k - 2] != 'u' &&
		   out[k - 2] != 'i') {
		out[k - 1] = '\0';
	}
}

/* A time of day from o's number, written minutes and meridiem; false if none such. */
static bool set_clock(struct opnd *o, int hour, int minute, double second, int prec, int meridiem)
{
	if (meridiem) {
		if (hour < 1 || hour > 12)
			return false;
		hour = hour % 12 + (meridiem == U_PM ? 12 : 0);
	} else if (hour > 24) {
		return false;
	}
	o->kind = K_TIME;
	o->minutes = (hour * 60 + minute) % 1440;
	o->seconds = second;
	o->clock_prec = prec;
	o->meridiem = meridiem;
	return true;
}

/* "17:30", "6:0", "17:30:24" at the number's end: the clock's end, or 0 if no time. */
static size_t clock_digits(struct lex *lx, struct opnd *o, size_t i)
{
	int m1 = B(lx, i + 1), m2 = B(lx, i + 2), minute, prec = 1;
	double second = 0;
	size_t e;

	if (!whole(&o->x, 0, 24) || o->x.idigits > 2 || !is_digit(m1))
		return 0;
	if (is_digit(m2)) {
		minute = (m1 - '0') * 10 + (m2 - '0');
		e = i + 3;
	} else if (m1 == '0') {
		minute = 0; /* "17:0", as some JSON writes it */
		e = i + 2;
	} else {
		return 0;
	}
	if (minute > 59 || is_digit(B(lx, e)))
		return 0;
	if (B(lx, e) == ':' && is_digit(B(lx, e + 1)) && is_digit(B(lx, e + 2)) &&
	    !is_digit(B(lx, e + 3))) {
		second = (B(lx, e + 1) - '0') * 10 + (B(lx, e + 2) - '0');
		if (second > 59)
			return 0;
		prec = 0;
		e += 3;
		if (B(lx, e) == '.' && is_digit(B(lx, e + 1))) /* fractions of a second */
			for (e++; is_digit(B(lx, e)); e++)
				;
	}
	set_clock(o, (int)o->x.v, minute, second, prec, 0);
	return e;
}

/* u as written (len letters at u), low the same in lowercase (NULL: u's letters, lowercase). */
static bool glued_unit(struct lex *lx, size_t u, size_t len, const char *low)
{
	char buf[8];
	size_t i, k;
	bool lowercase = true;

	if (len >= sizeof(buf))
		return false;
	for (k = 0; k < len; k++) {
		lowercase &= is_lower(B(lx, u + k));
		buf[k] = (char)lower(B(lx, u + k));
	}
	if (!low)
		low = buf;
	for (i = 0; i < ARRAY_SIZE(words_glued_units); i++) {
		const char *g = words_glued_units[i];

		if (strlen(g) != len)
			continue;
		for (k = 0; k < len && (lowercase ? lower(g[k]) == low[k] : g[k] == B(lx, u + k)); k++)
			;
		if (k == len)
			return true;
	}
	return false;
}

/* The end of the run of letters, digits and "_" at i. */
static size_t token_end(struct lex *lx, size_t i)
{
	int c;

	while (is_alnum(c = B(lx, i)) || c == '_')
		i++;
	return i;
}

/*
 * Letters glued to the digits just read ("28th", "5pm", "$5M", "1990s", "10x",
 * "3Q21", "5km", "3D"): sets o and returns where the operand goes on.
 */
static size_t glued_letters(struct lex *lx, struct opnd *o, size_t i)
{
	size_t j = letters_end(lx, i), len = j - i, k, end;
	int nxt = B(lx, j), c = B(lx, i);
	bool alone = !is_digit(nxt) && nxt != '_';
	char low[8];
	const struct vword *v;

	if (c == 'Q' && len == 1 && whole(&o->x, 1, 4) && o->x.idigits == 1) {
		/* "3Q", "3Q21", "3Q 2021" */
		o->kind = K_QUARTER;
		o->main_to = j;
		if (is_digit(nxt) && is_digit(B(lx, j + 1)) && !is_alnum(B(lx, j + 2))) {
			o->year = 2000 + (nxt - '0') * 10 + (B(lx, j + 1) - '0');
			o->year_from = j;
			o->year_to = j + 2;
			return j + 2;
		}
		if (!alone)
			return token_end(lx, j);
		return year_after(lx, o, j, true);
	}
	if (!alone || len >= sizeof(low)) {
		o->kind = K_SKIP;
		return token_end(lx, j);
	}
	for (k = 0; k < len; k++)
		low[k] = (char)lower(B(lx, i + k));
	low[len] = '\0';
	if (whole(&o->x, 0, 1e15) && (!strcmp(low, "st") || !strcmp(low, "nd") ||
				       !strcmp(low, "rd") || !strcmp(low, "th"))) {
		o->x.ordinal = true;
		o->x.to = j;
		o->kind = K_ORDINAL;
		return j;
	}
	if (meridiem_at(lx, i, &end)) {
		if (!set_clock(o, whole(&o->x, 0, 24) ? (int)o->x.v : 99, 0, 0, 60, meridiem_at(lx, i, &end)))
			o->kind = K_SKIP;
		return end;
	}
	/* A scale: "$300k", "$1.2B", "5M", "$2bn"; lone "m" and "b" only after a currency. */
	if (len == 1 && (c == 'k' || c == 'K' || c == 'M' || c == 'B' || c == 'T' ||
			 (o->currency && (c == 'm' || c == 'b')))) {
		o->scale = c == 'k' || c == 'K' ? 1e3 : c == 'M' || c == 'm' ? 1e6 : c == 'T' ? 1e12 : 1e9;
		o->scale_written = true;
		return j;
	}
	v = vocab_find(low, len);
	if (v && unit_info[v->unit].cls == UC_SCALE && len > 1) {
		o->scale = unit_info[v->unit].factor;
		o->scale_written = true;
		return j;
	}
	if (!strcmp(low, "s")) {
		/* "1990s", "the '90s": a decade, which any year of it states;
		 * "their 20s", "in the 80s" (an age, a temperature): a span,
		 * no figure. An apostrophe's two digits are the last century's,
		 * but for "'00s" and "'10s" ("'20s" is either). */
		if (o->x.idigits == 2 && whole(&o->x, 0, 90) && fmath_fmod(o->x.v, 10) == 0 &&
		    o->x.v != 20 && o->x.from == o->from &&
		    (B(lx, o->from - 1) == '\'' || right_quote(lx, o->from - 3))) {
			o->x.v += o->x.v >= 30 ? 1900 : 2000;
			o->x.idigits = 4;
			o->from = o->main_from = B(lx, o->from - 1) == '\'' ? o->from - 1 : o->from - 3;
		}
		o->kind = decade_digits(&o->x) ? K_YEAR : K_SKIP;
		o->decade = o->kind == K_YEAR;
		return j;
	}
	if (!strcmp(low, "x")) {
		o->kind = K_COUNT; /* "10x": ten times */
		strcpy(o->noun, "time");
		return j;
	}
	if (v && (unit_info[v->unit].cls == UC_DURATION || unit_info[v->unit].cls == UC_PERCENT)) {
		o->kind = unit_info[v->unit].cls == UC_DURATION ? K_DURATION : K_PERCENT;
		o->unit = v->unit;
		return j;
	}
	if (glued_unit(lx, i, len, low)) {
		o->kind = K_COUNT;
		o->measure = true;
		if (!strcmp(low, "lbs"))
			low[2] = '\0';
		strcpy(o->noun, low);
		return j;
	}
	/* "3D", "5G", "4WD": an identifier; other letters glued to digits are an id. */
	for (k = 0; k < len && is_upper(B(lx, i + k)); k++)
		;
	if (k == len && len <= 3 && whole(&o->x, 0, 999999)) {
		o->kind = K_IDENT;
		memcpy(o->noun, "ident:#", 7);
		memcpy(o->noun + 7, low, len + 1);
		return j;
	}
	o->kind = K_SKIP;
	return j;
}

/*
 * The word w starts "year-over-year", "year on year", "quarter-over-quarter"
 * and the like: what a change is measured against, not a unit.
 */
static bool period_over_period(struct lex *lx, const struct word *w)
{
	struct word over, again;
	size_t i = w->we;

	if (B(lx, i) != '-' && !blank_at(lx, i))
		return false;
	if (!word_at(lx, skip_blanks(lx, i + (B(lx, i) == '-')), &over) ||
	    (!spells(lx, over.ws, over.we, "over") && !spells(lx, over.ws, over.we, "on")))
		return false;
	i = over.we;
	if (B(lx, i) != '-' && !blank_at(lx, i))
		return false;
	if (!word_at(lx, skip_blanks(lx, i + (B(lx, i) == '-')), &again) ||
	    again.we - again.ws != w->we - w->ws)
		return false;
	for (i = 0; i < w->we - w->ws; i++)
		if (lower(B(lx, again.ws + i)) != lower(B(lx, w->ws + i)))
			return false;
	return true;
}

/* An ordinal ("third", "3rd") as a quarter: "third quarter", "3rd-quarter". */
static size_t quarter_after(struct lex *lx, struct opnd *o, size_t i)
{
	size_t j = B(lx, i) == '-' ? i + 1 : skip_blanks(lx, i);
	struct word w;

	/* Any ordinal: a "fifth quarter" is a changed number, and states nothing. */
	if (j == i || !whole(&o->x, 1, 99) || !word_at(lx, j, &w) || !spells(lx, w.ws, w.we, "quarter"))
		return i;
	o->kind = K_QUARTER;
	o->main_to = w.we;
	return year_after(lx, o, w.we, true);
}

/*
 * Is w a month's name as a date writes it: capitalized, or in lower case
 * where a source writes dates so ("on may 30", "30 june")? In lower case
 * a full name only (an abbreviation is too often a word), and "may" or
 * "march", verbs too, only before their day after a word that dates one
 * ("on may 30", not "they may 30"), or after their day with a year ("30
 * may 2019").
 */
static bool month_word(struct lex *lx, const struct word *w, bool before_day)
{
	struct word p;

	if (!(roles(w) & R_MONTH))
		return false;
	if (is_upper(B(lx, w->ws)))
		return true;
	if (!spells(lx, w->ws, w->we, "may") && !spells(lx, w->ws, w->we, "march"))
		return w->we - w->ws >= 4 && !spells(lx, w->ws, w->we, "sept");
	if (!before_day) {
		/* after its day, only with a year after it: "30 may 2019" */
		size_t j = skip_blanks(lx, w->we);

		return j > w->we && is_digit(B(lx, j)) && is_digit(B(lx, j + 1)) &&
		       is_digit(B(lx, j + 2)) && is_digit(B(lx, j + 3)) && !is_alnum(B(lx, j + 4));
	}
	if (!find_word_before(lx, w->ws, false, &p))
		return false;
	return spells(lx, p.ws, p.we, "on") || spells(lx, p.ws, p.we, "by") ||
	       spells(lx, p.ws, p.we, "since") || spells(lx, p.ws, p.we, "until") ||
	       spells(lx, p.ws, p.we, "till") || spells(lx, p.ws, p.we, "from") ||
	       spells(lx, p.ws, p.we, "before") || spells(lx, p.ws, p.we, "after");
}

/* A day ("26", "26th", "twenty-sixth") and a month after it: "26 March", "26th of March". */
static size_t month_after(struct lex *lx, struct opnd *o, size_t i)
{
	size_t j = skip_blanks(lx, i);
	struct word w;

	if (!whole(&o->x, 1, 31) || (o->x.words && !o->x.ordinal) || o->currency)
		return i;
	if (o->x.ordinal && word_at(lx, j, &w) && spells(lx, w.ws, w.we, "of"))
		j = skip_blanks(lx, w.we);
	if (j == i || !word_at(lx, j, &w) || !month_word(lx, &w, false))
		return i;
	o->kind = K_DATE;
	o->month = (int)w.v->num;
	o->day = (int)o->x.v;
	j = w.we;
	if (B(lx, j) == '.' && w.we - w.ws <= 4)
		j++; /* "26 Jan." */
	o->main_to = j;
	return year_after(lx, o, j, false);
}

/* A past form (-ed, not -eed), a present participle (-ing) or an adverb (-ly), by its ending. */
static bool ends_like_verb(struct lex *lx, size_t ws, size_t we)
{
	size_t k = we - ws;
	int c3 = k >= 3 ? lower(B(lx, we - 3)) : 0, c2 = lower(B(lx, we - 2)), c1 = lower(B(lx, we - 1));

	return (k >= 5 && c2 == 'e' && c1 == 'd' && c3 != 'e') ||
	       (k >= 6 && c3 == 'i' && c2 == 'n' && c1 == 'g') || (k >= 5 && c2 == 'l' && c1 == 'y');
}

/*
 * The words after a number: a scale, a unit, a month, a counted noun. Sets o
 * and returns the operand's end.
 */
static size_t after_number(struct lex *lx, struct opnd *o, size_t i)
{
	int round;

	for (round = 0; round < 4; round++) {
		size_t j = skip_blanks(lx, i), end;
		bool hyphen = false;
		struct word w, w2;
		int u, m;

		if (j == i && B(lx, i) == '-' && is_alpha(B(lx, i + 1))) {
			j = i + 1;
			hyphen = true;
		}
		if (B(lx, j) == '%' && !o->x.ordinal) {
			o->kind = K_PERCENT;
			o->unit = U_PERCENT;
			return j + 1;
		}
		if ((u = degrees_at(lx, j, &end)) && !o->x.ordinal) {
			o->kind = K_TEMP;
			o->unit = u;
			return end;
		}
		if (o->x.ordinal) {
			end = quarter_after(lx, o, i);
			if (end == i)
				end = month_after(lx, o, i);
			if (end == i) {
				o->kind = K_ORDINAL;
				/* "the 35th anniversary", "her 21st birthday": years
				 * since, the noun its unit (as "years" of "35 years") */
				o->anniversary = word_at(lx, j, &w) &&
						 (spells(lx, w.ws, w.we, "anniversary") ||
						  spells(lx, w.ws, w.we, "birthday"));
				if (o->anniversary)
					end = w.we;
			}
			return end;
		}
		if (j == i && !hyphen)
			return i;
		if (reads(lx, j, "and a half") && !is_alpha(B(lx, j + 10)) && !o->scale_written) {
			o->x.v += 0.5;
			o->x.decimals = MAX(o->x.decimals, 1);
			i = j + 10;
			continue;
		}
		if (!hyphen && (m = meridiem_at(lx, j, &end))) {
			if (whole(&o->x, 1, 12) && !o->x.words && !o->currency && o->x.idigits <= 2)
				set_clock(o, (int)o->x.v, 0, 0, 60, m);
			return o->kind == K_TIME ? end : i;
		}
		if (!word_at(lx, j, &w))
			return i;
		u = w.v ? w.v->unit : U_NONE;
		if ((spells(lx, w.ws, w.we, "per") && word_at(lx, skip_blanks(lx, w.we), &w2) &&
		     spells(lx, w2.ws, w2.we, "cent")) ||
		    (spells(lx, w.ws, w.we, "percentage") && word_at(lx, skip_blanks(lx, w.we), &w2) &&
		     (spells(lx, w2.ws, w2.we, "point") || spells(lx, w2.ws, w2.we, "points")))) {
			o->kind = K_PERCENT;
			o->unit = U_PERCENT;
			return w2.we;
		}
		switch (unit_info[u].cls) {
		case UC_SCALE:
			/* (words fold their scale: "two million"; not after spoken decimals) */
			if (o->scale_written || (o->x.words && !o->x.decimals) || hyphen)
				return i;
			o->scale = unit_info[u].factor;
			o->scale_written = true;
			i = w.we;
			continue;
		case UC_PERCENT:
			o->kind = K_PERCENT;
			o->unit = U_PERCENT;
			return w.we;
		case UC_DURATION:
			/* "$3.2 billion a year" is money, and "3.2 billion year over
			 * year" a comparison: neither is a time. */
			if (o->currency || period_over_period(lx, &w))
				return i;
			if (u == U_SECOND && (B(lx, w.we) == '-' || blank_at(lx, w.we)) &&
			    word_at(lx, skip_blanks(lx, w.we + (B(lx, w.we) == '-')), &w2) &&
			    (spells(lx, w2.ws, w2.we, "quarter") || spells(lx, w2.ws, w2.we, "half")))
				return i; /* "fiscal 2022 second-quarter": an ordinal, no unit */
			o->kind = K_DURATION;
			o->unit = u;
			return w.we;
		case UC_MONEY:
			if (!o->currency || u == U_CENT)
				o->currency = u;
			o->kind = K_MONEY;
			return w.we;
		case UC_TEMP:
			o->kind = K_TEMP;
			o->unit = u == U_DEGREE ? degree_scale(lx, w.we, &end) : u;
			return u == U_DEGREE ? end : w.we;
		case UC_MERIDIEM: /* handled above */
		default:
			break;
		}
		if (spells(lx, w.ws, w.we, "noon") && whole(&o->x, 12, 12) && !hyphen) {
			set_clock(o, 12, 0, 0, 60, 0);
			return w.we;
		}
		if ((roles(&w) & R_MONTH) && !hyphen) {
			end = month_after(lx, o, i);
			if (end != i)
				return end;
		}
		/* "one third", "two-thirds", "three quarters": a fraction, no count. */
		if (o->x.words && ((roles(&w) & R_FRACTION) ||
				   ((roles(&w) & R_ORD) && w.v->num >= 3 && w.v->num < 20))) {
			o->kind = K_SKIP;
			return w.we;
		}
		if (yearish(&o->x) && !o->currency && !o->scale_written &&
		    ((roles(&w) & R_YEARNOUN) || is_upper(B(lx, w.ws)))) {
			o->yearnoun = roles(&w) & R_YEARNOUN ? 2 : 1;
			return i;
		}
		if (spells(lx, w.ws, w.we, "plus") && hyphen) {
			o->flags |= NUMLEX_APPROX | NUMLEX_ABOVE; /* "50-plus" */
			i = w.we;
			continue;
		}
		/* "12 whole days", "3 more weeks": a duration past one adjective. */
		if ((roles(&w) & R_ADJ) && round < 3 && !hyphen && !o->currency &&
		    word_at(lx, skip_blanks(lx, w.we), &w2) && w2.v &&
		    unit_info[w2.v->unit].cls == UC_DURATION) {
			i = w.we;
			continue;
		}
		/* A counted noun: lowercase, three letters or more, after one adjective at most. */
		if (o->currency)
			return i;
		if ((roles(&w) & R_ADJ) && round < 3 && word_at(lx, skip_blanks(lx, w.we), &w2) &&
		    !(roles(&w2) & (R_STOP | R_ADJ)) && is_lower(B(lx, w2.ws)) && w2.we - w2.ws >= 3 &&
		    !(w2.v && w2.v->unit)) {
			w = w2;
		}
		if (w.we - w.ws == 2 && !hyphen && glued_unit(lx, w.ws, 2, NULL)) {
			/* "76 cm", "5 kg": a measure of two letters */
			o->kind = K_COUNT;
			o->measure = true;
			o->noun[0] = (char)lower(B(lx, w.ws));
			o->noun[1] = (char)lower(B(lx, w.ws + 1));
			o->noun[2] = '\0';
			return w.we;
		}
		if (!is_lower(B(lx, w.ws)) || w.we - w.ws < 3 || w.we - w.ws > 20 ||
		    (roles(&w) & (R_STOP | R_ADJ | R_CARD | R_ORD | R_FRACTION)))
			return i;
		/* "in 2021 increased", "3-based", "2021 remaining", "10 respectively":
		 * a verb or an adverb, no noun ("5-speed", "20 seed" are nouns) */
		if (ends_like_verb(lx, w.ws, w.we))
			return i;
		o->kind = K_COUNT;
		singular(lx, w.ws, w.we, o->noun);
		o->noun_roles = roles(&w);
		if (!(o->noun_roles & (R_SELF | R_LISTNOUN)) && word_at(lx, skip_blanks(lx, w.we), &w2))
			o->noun_roles |= roles(&w2) & (R_SELF | R_LISTNOUN);
		return w.we;
	}
	return i;
}

/* A currency sign or code at i: U_USD, U_EUR, U_GBP and *end (after blanks), or 0. */
static int currency_at(struct lex *lx, size_t i, size_t *end)
{
	int c = B(lx, i), u = 0;
	struct word w;

	if (c == '$') {
		u = U_USD;
		*end = i + 1;
	} else if (c == 0xE2 && B(lx, i + 1) == 0x82 && B(lx, i + 2) == 0xAC) {
		u = U_EUR;
		*end = i + 3;
	} else if (c == 0xC2 && B(lx, i + 1) == 0xA3) {
		u = U_GBP;
		*end = i + 2;
	} else if ((c == 'U' || c == 'u') && lower(B(lx, i + 1)) == 's' && B(lx, i + 2) == '$') {
		u = U_USD;
		*end = i + 3;
	} else if (is_upper(c) && word_at(lx, i, &w) && (roles(&w) & R_CURCODE) &&
		   is_upper(B(lx, w.we - 1)) && blank_at(lx, w.we)) {
		u = w.v->unit;
		*end = w.we;
	}
	if (u)
		*end = skip_blanks(lx, *end);
	return u;
}

/*
 * One operand at p: [currency] number [glued letters] [words]. p is at the
 * currency, the number, or a month before a day (month > 0, set by the caller).
 */
static void operand(struct lex *lx, size_t p, struct opnd *o, int month, size_t num_at)
{
	size_t i = num_at, end;
	int c, m;

	memset(o, 0, sizeof(*o));
	o->from = p;
	o->scale = 1;
	o->kind = K_NONE;
	if (!month && (o->currency = currency_at(lx, p, &end)) && i == p)
		i = end;
	c = B(lx, i);
	if (is_digit(c)) {
		if (!read_digits(lx, i, &o->x)) {
			o->kind = K_SKIP;
			o->to = o->main_to = o->x.to;
			return;
		}
	} else if (is_alpha(c) && !o->currency) {
		struct word w = {0, 0, NULL};
		bool a = false;

		if (word_at(lx, i, &w) && (roles(&w) & R_ARTICLE) && w.we - w.ws == 1) {
			struct word w2;

			/* "a dozen", "a hundred", "a million" */
			if (!word_at(lx, skip_blanks(lx, w.we), &w2) || !(roles(&w2) & R_CARD) ||
			    w2.v->num < 12 || (w2.v->num > 12 && w2.v->num < 100))
				return;
			a = true;
			i = w2.ws;
		}
		if (!read_words(lx, i, a, &o->x))
			return;
		o->x.from = a ? w.ws : o->x.from;
	} else {
		return;
	}
	o->kind = K_NUMBER;
	o->main_from = p;
	i = o->x.to;
	c = B(lx, i);
	if (!o->x.words) {
		if (c == ':' && is_digit(B(lx, i + 1))) {
			end = clock_digits(lx, o, i);
			if (!end && o->x.decimals > 0 && B(lx, i + 1) == '1' && !is_digit(B(lx, i + 2)) &&
			    B(lx, i + 2) != ':' && !(B(lx, i + 2) == '.' && is_digit(B(lx, i + 3)))) {
				/* "11.9:1": a ratio to one (a score or a time has no decimals) */
				o->kind = K_RATIO;
				o->to = o->main_to = i + 2;
				return;
			}
			if (!end) {
				/* "3:1", "16:9": a ratio or a score, not a time */
				o->kind = K_SKIP;
				for (end = i; is_digit(B(lx, end)) || B(lx, end) == ':'; end++)
					;
				o->to = o->main_to = end;
				return;
			}
			i = end;
			end = skip_blanks(lx, i);
			if ((m = meridiem_at(lx, end, &end)) &&
			    !set_clock(o, (int)o->x.v, o->minutes % 60, o->seconds, o->clock_prec, m))
				o->kind = K_SKIP;
			else if (m)
				i = end;
			o->to = o->main_to = i;
			return;
		}
		if (is_alpha(c))
			i = glued_letters(lx, o, i);
		else if (decade_digits(&o->x) && (end = decade_s(lx, i)))
			o->kind = K_YEAR, o->decade = true, i = end; /* "1990's" */
		else if (c == '_')
			o->kind = K_SKIP, i = token_end(lx, i);
		else if (c == '+' && !is_digit(B(lx, i + 1)))
			o->flags |= NUMLEX_APPROX | NUMLEX_ABOVE, i++;
	}
	if (month) {
		/* "March 26", "Jan. 18th", "August twenty-eighth", "March 2024" */
		o->month = month;
		if ((o->kind == K_NUMBER || o->kind == K_ORDINAL) && whole(&o->x, 1, 31) &&
		    o->x.idigits <= 2 && (!o->x.words || o->x.ordinal)) {
			o->kind = K_DATE;
			o->day = (int)o->x.v;
			o->main_to = i;
			o->to = year_after(lx, o, i, false);
			return;
		}
		if (o->kind == K_NUMBER && yearish(&o->x) && !is_alnum(B(lx, i))) {
			o->kind = K_DATE;
			o->day = 0;
			o->main_to = letters_end(lx, p);
			if (B(lx, o->main_to) == '.')
				o->main_to++;
			o->year = (int)o->x.v;
			o->year_from = o->x.from;
			o->year_to = o->x.to;
			o->to = i;
			return;
		}
		o->month = 0;
		o->from = o->main_from = o->x.from;
	}
	if (o->kind == K_NUMBER || o->kind == K_ORDINAL)
		i = after_number(lx, o, i);
	if (o->kind == K_QUARTER || o->kind == K_DATE) {
		if (!o->main_to)
			o->main_to = i;
	} else {
		o->main_to = i;
	}
	if (o->currency && o->kind == K_NUMBER)
		o->kind = K_MONEY;
	o->to = i;
}

/* ---- context: what the words around an expression make of it ---- */

/*
 * Whether a figure at i stands where an author-date citation puts its year:
 * first in parentheses ("Patel (2017)", "(2017)"), or after a comma that
 * follows a name or "et al." inside them ("(Patel, 2017)", "(Rossi et al.,
 * 2017; Patel, 2019)": the window ends at the year before). Such a figure
 * read as a bare number is grounding that any count or sum can be held
 * against ("5x" against a study's "(2017)").
 */
static bool citation_year_at(struct lex *lx, size_t i)
{
	size_t j = skip_blanks_back(lx, i), k;
	int c;

	if (B(lx, j - 1) == '(')
		return true;
	if (B(lx, j - 1) != ',')
		return false;
	j = skip_blanks_back(lx, j - 1);
	if (B(lx, j - 1) == '.' && lower(B(lx, j - 2)) == 'l' && lower(B(lx, j - 3)) == 'a' &&
	    !is_alpha(B(lx, j - 4))) {
		k = j - 3; /* "et al." */
	} else {
		for (k = j; is_alpha(B(lx, k - 1)) && j - k < 32; k--)
			;
		if (k == j || !is_upper(B(lx, k)))
			return false; /* a name is capitalized */
	}
	/* the parenthesis it is inside, on its line, within a few names */
	for (; j - k < 120; k--) {
		c = B(lx, k - 1);
		if (c == '(')
			return true;
		if (c == ')' || c == '\n')
			return false;
		if (c < 0) /* the window starts where the last figure ended: a year of these parentheses? */
			return k == lx->done && lx->year_end && lx->year_end == lx->done;
	}
	return false;
}

/*
 * 4 when the word before i is a determiner ("a", "the", "its": a 1900-2099
 * figure between it and a noun is a year, "a 1997 outbreak"), 3 when it
 * makes a year of what follows ("the year", "FY", "fiscal", "circa"), 2
 * when it dates a year ("in", "since", "March") or i goes on a list of
 * years ("in 2019, 2020 and 2021"), 1 when it does so weakly ("from",
 * "of"), else 0.
 */
static int dating_before(struct lex *lx, size_t i)
{
	struct word w;
	size_t j;

	if (lx->year_end && lx->year_end == lx->done) {
		j = skip_blanks_back(lx, i);
		if (word_before(lx, i, false, &w) &&
		    (spells(lx, w.ws, w.we, "and") || spells(lx, w.ws, w.we, "or")))
			j = skip_blanks_back(lx, w.ws);
		if (B(lx, j - 1) == ',' || B(lx, j - 1) == '&' || B(lx, j - 1) == '/')
			j = skip_blanks_back(lx, j - 1);
		if (j == lx->year_end && j < i)
			return 2;
	}
	if (!word_before(lx, i, false, &w))
		return 0;
	if (roles(&w) & R_YEARWORD)
		return 3;
	if (roles(&w) & R_DET)
		return 4;
	if ((roles(&w) & R_DATING) || ((roles(&w) & R_MONTH) && is_upper(B(lx, w.ws))))
		return 2;
	return roles(&w) & R_WEAKDATE ? 1 : 0;
}

/*
 * Is a negation among the three words before ws ("won't be more than 12",
 * "not over 5", "no more than 50")? A bound said so is the other one, or
 * none: its side is not taken.
 */
static bool negated_before(struct lex *lx, size_t ws)
{
	struct word w;
	int k;

	for (k = 0; k < 3 && word_before(lx, ws, false, &w); k++, ws = w.ws) {
		size_t n = w.we - w.ws;

		if (spells(lx, w.ws, w.we, "not") || spells(lx, w.ws, w.we, "no") ||
		    spells(lx, w.ws, w.we, "never") || spells(lx, w.ws, w.we, "nor") ||
		    (n == 1 && lower(B(lx, w.ws)) == 't' && B(lx, w.ws - 1) == '\'' &&
		     lower(B(lx, w.ws - 2)) == 'n') ||
		    (n == 1 && lower(B(lx, w.ws)) == 't' && B(lx, w.ws - 1) == 0x99 &&
		     B(lx, w.ws - 2) == 0x80 && B(lx, w.ws - 3) == 0xE2 && lower(B(lx, w.ws - 4)) == 'n'))
			return true;
	}
	return false;
}

/*
 * The side of a bound a year at i is said as, where the word before says
 * one: "before 1990", "prior to 1990" (NUMLEX_BELOW), "after 1980", "after
 * the 1990s" (decade: "the" may come between) (NUMLEX_ABOVE); else 0. Not
 * "until", "by" nor "since": an end, a deadline and a start are years of
 * their own.
 */
static unsigned year_side(struct lex *lx, size_t i, bool decade)
{
	struct word w1, w2;

	if (!word_before(lx, i, false, &w1))
		return 0;
	if (decade && spells(lx, w1.ws, w1.we, "the") && !word_before(lx, w1.ws, false, &w1))
		return 0;
	if (spells(lx, w1.ws, w1.we, "before"))
		return NUMLEX_BELOW;
	if (spells(lx, w1.ws, w1.we, "after"))
		return NUMLEX_ABOVE;
	return spells(lx, w1.ws, w1.we, "to") && word_before(lx, w1.ws, false, &w2) &&
			       spells(lx, w2.ws, w2.we, "prior")
		       ? NUMLEX_BELOW
		       : 0;
}

/*
 * The approximation said before i: NUMLEX_APPROX and the side of its bound
 * (NUMLEX_ABOVE or _BELOW, where it sets one: "over", "less than"), or 0.
 * The pair's side wins over its last word's ("just under"); a negated
 * bound has no side.
 */
static unsigned approx_before(struct lex *lx, size_t i)
{
	size_t j = skip_blanks_back(lx, i), k;
	unsigned side = 0;
	struct word w1, w2;

	if (B(lx, j - 1) == '~' || (B(lx, j - 1) == 0x88 && B(lx, j - 2) == 0x89 && B(lx, j - 3) == 0xE2))
		return NUMLEX_APPROX;
	if (!word_before(lx, i, false, &w1))
		return 0;
	if (roles(&w1) & R_APPROX) {
		side = spells(lx, w1.ws, w1.we, "over") ? NUMLEX_ABOVE
		       : spells(lx, w1.ws, w1.we, "under") ? NUMLEX_BELOW : 0;
		if (!side)
			return NUMLEX_APPROX;
	}
	if (!(roles(&w1) & R_APPROX2) || !word_before(lx, w1.ws, false, &w2))
		return side ? NUMLEX_APPROX | side : 0;
	for (k = 0; k < ARRAY_SIZE(approx_pairs); k++)
		if (spells(lx, w1.ws, w1.we, approx_pairs[k].w1) &&
		    spells(lx, w2.ws, w2.we, approx_pairs[k].w2))
			return NUMLEX_APPROX |
			       (approx_pairs[k].side && !negated_before(lx, w2.ws) ? approx_pairs[k].side : 0);
	return side ? NUMLEX_APPROX | (negated_before(lx, w1.ws) ? 0 : side) : 0;
}

/*
 * A word of the answer's own list within three words before i: "here are
 * 5", "these 3", "the following 6", "top 10", "a list of 5", "I'll cover
 * 3", "Below are 4". "share" only right before ("Let me share 7"; "its
 * share rose 5 points" is a claim), "below" and "above" never right before
 * ("fell below 5 points" says less than).
 */
static bool cue_before(struct lex *lx, size_t i)
{
	struct word w;
	int k;

	for (k = 0; k < 3 && word_before(lx, i, false, &w); k++, i = w.ws) {
		if (!(roles(&w) & R_CUE))
			continue;
		if (spells(lx, w.ws, w.we, "share") ? k == 0
		    : spells(lx, w.ws, w.we, "below") || spells(lx, w.ws, w.we, "above") ? k > 0
		    : true)
			return true;
	}
	return false;
}

/*
 * After a counted noun at i, within three words: "below", "above", or the
 * colon that opens a list ("the 5 tips below", "3 key takeaways:", "3
 * things matter:").
 */
static bool cue_after(struct lex *lx, size_t i)
{
	struct word w;
	int k;

	i = skip_blanks(lx, i);
	for (k = 0; k < 3 && B(lx, i) != ':'; k++) {
		if (!word_at(lx, i, &w))
			return false;
		if (spells(lx, w.ws, w.we, "below") || spells(lx, w.ws, w.we, "above"))
			return true;
		i = skip_blanks(lx, w.we);
	}
	return B(lx, i) == ':';
}

/* A line starts before i: blanks, at most one of "-", "*", ">" or a run of "#", blanks. */
static bool line_starts_before(struct lex *lx, size_t i)
{
	size_t j = skip_blanks_back(lx, i);
	int c = B(lx, j - 1);

	if (c == '-' || c == '*' || c == '>') {
		j = skip_blanks_back(lx, j - 1);
	} else if (c == '#') {
		while (B(lx, j - 1) == '#')
			j--;
		j = skip_blanks_back(lx, j);
	}
	if (j == 0)
		return lx->opts & NUMLEX_LINE_START;
	c = B(lx, j - 1);
	return c == '\n' || c == '\r';
}

static bool list_marker(struct lex *lx, const struct opnd *o)
{
	int c = B(lx, o->x.to), c1 = B(lx, o->x.to + 1);

	if (o->kind != K_NUMBER || o->x.words || !whole(&o->x, 0, 999) || o->currency ||
	    o->to != o->x.to || (c != '.' && c != ')'))
		return false;
	if (!(c1 == ' ' || c1 == '\t' || c1 == '\n' || c1 == '\r' || o->x.to + 1 == lx->n))
		return false;
	return line_starts_before(lx, o->x.from);
}

/* NUMLEX_INLINE_ITEM's shape: "N." or "N)" mid-line after a list's separator or a sentence's end. */
static bool inline_item(struct lex *lx, const struct opnd *o)
{
	int c = B(lx, o->x.to), c1 = B(lx, o->x.to + 1);
	size_t j;

	if (o->kind != K_NUMBER || o->x.words || o->x.comma || o->x.decimals || !whole(&o->x, 1, 999) ||
	    o->currency || o->to != o->x.to || o->from != o->x.from || (c != '.' && c != ')'))
		return false;
	if (!(c1 == ' ' || c1 == '\t' || o->x.to + 1 == lx->n))
		return false;
	j = skip_blanks_back(lx, o->x.from);
	if (j == 0)
		return true;
	c = B(lx, j - 1);
	return c == ',' || c == ';' || c == ':' || ((c == '.' || c == '!' || c == '?') && j < o->x.from);
}

static bool fixed_phrase(struct lex *lx, size_t from, size_t to)
{
	char num[8];
	size_t k, len = to - from, i;
	int after = lower(B(lx, to));

	if (len == 0 || len >= sizeof(num))
		return false;
	for (i = 0; i < len; i++)
		num[i] = (char)lower(B(lx, from + i));
	num[len] = '\0';
	if (!phrase_may_start(num[0], len))
		return false;
	for (k = 0; k < ARRAY_SIZE(fixed_phrases); k++) {
		const char *b = fixed_phrases[k].before, *a = fixed_phrases[k].after;
		size_t nb = fixed_phrases[k].nb, na = fixed_phrases[k].na;

		if (len != fixed_phrases[k].nn || num[0] != fixed_phrases[k].num[0] ||
		    memcmp(num, fixed_phrases[k].num, len) != 0 || (na && after != a[0]))
			continue;
		if (!reads(lx, to, a) || (na && is_alpha((unsigned char)a[na - 1]) && is_alpha(B(lx, to + na))) ||
		    (na && is_digit((unsigned char)a[na - 1]) && is_digit(B(lx, to + na))))
			continue;
		if (!reads_back(lx, from, b, nb) || (nb && is_alpha(B(lx, from - nb - 1))))
			continue;
		return true;
	}
	return false;
}

/* A name whose number follows it: "Windows 10", "iPhone 15", "GPT 4", "version 2.3". */
static bool names_number(struct lex *lx, const struct word *w)
{
	size_t k, len = w->we - w->ws, upper = 0;

	if (roles(w) & (R_PRODUCT | R_VERWORD))
		return true;
	for (k = 0; k < len; k++) {
		int c = B(lx, w->ws + k);

		upper += is_upper(c);
		if (k > 0 && is_upper(c) && is_lower(B(lx, w->ws + k - 1)))
			return true; /* "iPhone", "macOS", "PlayStation" */
	}
	return upper == len && len >= 2 && len <= 5 && !w->v;
}

/* An identifier's or a version's unit: prefix, then the lowercase letters of [ws, we), then tail. */
static bool name_unit(struct lex *lx, char *out, const char *prefix, size_t ws, size_t we,
		      const char *tail)
{
	size_t n = strlen(prefix), i;

	memcpy(out, prefix, n);
	for (i = ws; i < we; i++) {
		int c = B(lx, i);

		if (!is_alpha(c))
			continue;
		if (n + 1 >= QUANTITY_UNIT_MAX)
			return false;
		out[n++] = (char)lower(c);
	}
	for (; *tail; tail++) {
		if (n + 1 >= QUANTITY_UNIT_MAX)
			return false;
		out[n++] = *tail;
	}
	out[n] = '\0';
	return true;
}

/* ---- items ---- */

struct out {
	struct numlex_item it[8];
	size_t n;
};

static void push(struct out *out, size_t pf, size_t pt, const struct quantity *q, unsigned flags)
{
	struct numlex_item *it;

	if (out->n == ARRAY_SIZE(out->it))
		return;
	it = &out->it[out->n++];
	it->part_from = pf;
	it->part_to = pt;
	it->q = *q;
	it->flags = flags;
	/* A range of times ("7:0-14:0", "9 to 5") is on one clock as written. */
	if (flags & NUMLEX_RANGE)
		it->q.either_half = false;
}

/* Hands the items of one expression [from, to) to the caller, in order of their parts. */
static int flush(struct lex *lx, struct out *out, size_t from, size_t to)
{
	size_t i, j;

	for (i = 1; i < out->n; i++)
		for (j = i; j > 0 && out->it[j - 1].part_from > out->it[j].part_from; j--) {
			struct numlex_item tmp = out->it[j];

			out->it[j] = out->it[j - 1];
			out->it[j - 1] = tmp;
		}
	for (i = 0; i < out->n && !lx->rc; i++) {
		out->it[i].from = from;
		out->it[i].to = to;
		lx->rc = lx->fn(lx->ctx, &out->it[i]);
	}
	for (i = 0; i < out->n; i++)
		if (out->it[i].q.kind == QUANTITY_YEAR)
			lx->year_end = to;
	out->n = 0;
	if (to > lx->done)
		lx->done = to;
	return lx->rc;
}

/* The quantity of an operand's main part. */
static void quantity_of(const struct opnd *o, struct quantity *q)
{
	double v = o->x.v, f;

	switch (o->kind) {
	case K_COUNT:
		quantity_set(q, QUANTITY_COUNT, o->noun, v * o->scale, o->scale);
		break;
	case K_MONEY:
		f = unit_info[o->currency].factor;
		quantity_set(q, QUANTITY_BASE, unit_info[o->currency].base, v * o->scale * f, o->scale * f);
		break;
	case K_PERCENT:
	case K_DURATION:
		f = unit_info[o->unit].factor;
		quantity_set(q, QUANTITY_BASE, unit_info[o->unit].base, v * o->scale * f, o->scale * f);
		break;
	case K_TIME:
		quantity_set(q, QUANTITY_TIME, "time:clock", o->minutes + o->seconds / 60,
			     o->clock_prec == 60 ? 60 : o->clock_prec == 1 ? 1 : 1.0 / 60);
		q->either_half = !o->meridiem && o->minutes >= 60 && o->minutes < 10 * 60 &&
				 o->x.idigits == 1;
		break;
	case K_TEMP:
		v = o->neg ? -v : v;
		if (o->unit == U_FAHRENHEIT) {
			quantity_set(q, QUANTITY_TEMPERATURE, "temp:c", (v - 32) * 5 / 9, 5.0 / 9);
			q->offset = -160.0 / 9;
		} else {
			quantity_set(q, QUANTITY_TEMPERATURE, o->unit == U_CELSIUS ? "temp:c" : "temp:deg", v, 1);
		}
		break;
	case K_DATE:
		if (o->day)
			quantity_set(q, QUANTITY_DATE, "date:day", o->month * 100 + o->day, 1);
		else
			quantity_set(q, QUANTITY_DATE, "date:day", o->month * 100, 100);
		break;
	case K_YEAR:
		quantity_set_year(q, v, o->decade);
		break;
	case K_QUARTER:
		quantity_set(q, QUANTITY_BASE, "quarter", v, 1);
		break;
	case K_ORDINAL:
		quantity_set(q, QUANTITY_ORDINAL, o->anniversary ? "ordinal:years" : "ordinal:n", v, 1);
		q->years = o->anniversary;
		break;
	case K_IDENT:
		quantity_set(q, QUANTITY_IDENT, o->noun, v, 1);
		break;
	case K_RATIO:
		quantity_set(q, QUANTITY_BASE, "ratio", v, 1);
		break;
	default:
		quantity_set(q, QUANTITY_NUMBER, "number", v * o->scale, o->scale);
		break;
	}
	if (o->kind == K_NUMBER || o->kind == K_COUNT || o->kind == K_MONEY ||
	    o->kind == K_PERCENT || o->kind == K_DURATION || o->kind == K_TEMP || o->kind == K_RATIO)
		q->decimals = o->x.decimals;
	q->words = o->x.words;
}

/* The items of one operand: its main part, and a year written with it. */
static void operand_items(const struct opnd *o, unsigned flags, struct out *out)
{
	struct quantity q;

	if (o->kind == K_NONE || o->kind == K_SKIP)
		return;
	if (o->x.words)
		flags |= NUMLEX_WORDS;
	flags |= o->flags;
	/* A bound's side is one figure's: a range has two, "over" and "under"
	 * together none. */
	if ((flags & NUMLEX_RANGE) || (flags & (NUMLEX_ABOVE | NUMLEX_BELOW)) == (NUMLEX_ABOVE | NUMLEX_BELOW))
		flags &= ~(unsigned)(NUMLEX_ABOVE | NUMLEX_BELOW);
	quantity_of(o, &q);
	if (o->year && (o->kind == K_DATE || o->kind == K_QUARTER)) {
		struct quantity y;

		quantity_set(&y, QUANTITY_YEAR, "date:year", o->year, 1);
		if (!(flags & NUMLEX_RANGE))
			flags |= NUMLEX_PART;
		push(out, o->main_from, o->main_to, &q, flags);
		push(out, o->year_from, o->year_to, &y, (flags & ~(NUMLEX_RANGE | NUMLEX_WORDS)) | NUMLEX_PART);
		return;
	}
	push(out, o->main_from, o->main_to, &q, flags);
}

/* ---- expressions: an operand, or a range of two, with what is around them ---- */

/*
 * Where a range's second operand starts after a ("-", "–", "to", "and" after
 * "between", "or" after a bare figure: *either), or 0. *spaced: a dash with a blank before it, which in lists
 * separates a label from a value ("Month 8 – $26,000").
 */
static size_t range_sep(struct lex *lx, const struct opnd *a, bool between, bool *spaced, bool *either)
{
	size_t i = a->to, j = skip_blanks(lx, i), k;
	int c = B(lx, j);
	struct word w;

	*spaced = *either = false;
	if (c == '-' && B(lx, j + 1) != '-') {
		k = j + 1;
		*spaced = j > i;
	} else if (c == 0xE2 && B(lx, j + 1) == 0x80 && B(lx, j + 2) == 0x93) {
		k = j + 3;
		*spaced = j > i;
	} else if (c == '-' && B(lx, j + 1) == '-' && B(lx, j + 2) != '-' && yearish(&a->x) &&
		   is_digit(B(lx, skip_blanks(lx, j + 2)))) {
		/* "2007 -- 11": a plain-text source's dash between years (what
		 * follows is a range only if it reads as a later year) */
		k = j + 2;
	}
	else if (j > i && lower(c) == 't' && lower(B(lx, j + 1)) == 'o' && blank_at(lx, j + 2))
		k = j + 2;
	else if (j > i && between && reads(lx, j, "and") && blank_at(lx, j + 3))
		k = j + 3;
	else if (j > i && a->kind == K_NUMBER && !a->x.words && whole(&a->x, 0, 999) &&
		 reads(lx, j, "or") && blank_at(lx, j + 2)) {
		/* "2 or 3 days": the unit said once counts both (the caller
		 * keeps it only when the second figure has one) */
		k = j + 2;
		*either = true;
	} else
		return 0;
	k = skip_blanks(lx, k);
	c = B(lx, k);
	if (is_digit(c) || c == '$' || (c == 0xE2 && B(lx, k + 1) == 0x82 && B(lx, k + 2) == 0xAC) ||
	    (c == 0xC2 && B(lx, k + 1) == 0xA3))
		return k;
	if (a->x.words && word_at(lx, k, &w) && (roles(&w) & R_CARD))
		return k;
	if (a->kind == K_DATE && a->day && word_at(lx, k, &w) && (roles(&w) & R_MONTH) &&
	    is_upper(B(lx, w.ws)))
		return k;
	return 0;
}

/* Makes a and b the two ends of one range, sharing what one of them wrote; false if they are not. */
static bool merge(struct opnd *a, struct opnd *b)
{
	if (a->kind <= K_SKIP || b->kind <= K_SKIP || a->kind == K_IDENT || b->kind == K_IDENT ||
	    a->kind == K_QUARTER || b->kind == K_QUARTER || a->year || (b->year && b->kind != K_DATE))
		return false;
	/* A range goes up: "252 - 0.02" is a difference, "from 5% to 3%" a change.
	 * (Times go round the clock; "2019-20" is read as years later.) */
	if (a->kind != K_TIME && b->kind != K_TIME && a->kind != K_DATE &&
	    !(yearish(&a->x) && b->x.idigits == 2) &&
	    b->x.v * (a->scale_written && b->scale_written ? b->scale : 1) <
		    a->x.v * (a->scale_written && b->scale_written ? a->scale : 1))
		return false;
	if (a->kind == K_DATE) {
		if (!a->day)
			return false;
		if ((b->kind == K_NUMBER || b->kind == K_ORDINAL) && whole(&b->x, 1, 31) &&
		    b->x.idigits <= 2 && !b->x.words) {
			b->kind = K_DATE; /* "March 26-28" */
			b->month = a->month;
			b->day = (int)b->x.v;
			return true;
		}
		return b->kind == K_DATE && b->day;
	}
	if (a->kind == K_NUMBER && b->kind == K_TIME && b->meridiem) {
		/* "9-11 am": the hour before takes the meridiem after */
		if (!whole(&a->x, 1, 12) || a->x.words || a->currency || a->x.idigits > 2)
			return false;
		a->kind = K_TIME;
		a->minutes = (int)a->x.v * 60;
		a->clock_prec = 60;
		a->meridiem = 0;
	}
	if (a->kind == K_TIME && b->kind == K_TIME) {
		/* "11 to 2 pm": 11 am; "3-5 pm": 3 pm; "9:30-11 am" */
		if (!a->meridiem && b->meridiem && whole(&a->x, 1, 12)) {
			int minute = a->minutes % 60;

			set_clock(a, (int)a->x.v, minute, a->seconds, a->clock_prec, b->meridiem);
			if (b->meridiem == U_PM && a->minutes > b->minutes)
				set_clock(a, (int)a->x.v, minute, a->seconds, a->clock_prec, U_AM);
		}
		return true;
	}
	if (a->kind == K_NUMBER && !a->currency &&
	    (b->kind == K_MONEY || b->kind == K_PERCENT || b->kind == K_DURATION || b->kind == K_COUNT ||
	     b->kind == K_TEMP)) {
		/* "50-60 inches", "3-5%", "between 4 and 5 minutes" */
		a->kind = b->kind;
		a->unit = b->unit;
		a->currency = b->currency;
		memcpy(a->noun, b->noun, sizeof(a->noun));
		a->noun_roles = b->noun_roles;
		if (!a->scale_written) {
			a->scale = b->scale;
			a->scale_written = b->scale_written;
		}
		return true;
	}
	if ((a->kind == K_MONEY || a->kind == K_PERCENT) && b->kind == K_NUMBER && !b->x.words) {
		/* "$15-25", "$1.2 billion to 1.5" */
		b->kind = a->kind;
		b->unit = a->unit;
		b->currency = a->currency;
		if (!b->scale_written) {
			b->scale = a->scale;
			b->scale_written = a->scale_written;
		} else if (!a->scale_written) {
			a->scale = b->scale; /* "$1.2-1.5 billion" */
			a->scale_written = true;
		}
		return true;
	}
	if (a->kind != b->kind)
		return false;
	if (a->kind == K_MONEY && a->currency != b->currency && a->currency != U_CENT &&
	    b->currency != U_CENT)
		return false;
	if ((a->kind == K_MONEY || a->kind == K_NUMBER) && !a->scale_written && b->scale_written) {
		/* "$1.2-1.5 billion" */
		a->scale = b->scale;
		a->scale_written = true;
	}
	if (a->kind == K_TEMP && a->unit == U_DEGREE)
		a->unit = b->unit; /* "70°-75°F" */
	return true;
}

/*
 * "twelve euros and fifty cents", "5 pounds and 30 pence", "$12 and 50
 * cents": the subunit after "and" joins its unit (12.50 euros, written to
 * the cent); before, it stood apart as a second figure and left the first
 * to be held against "12.50" as another price.
 */
static void money_subunit(struct lex *lx, struct opnd *a)
{
	struct opnd b;
	struct word w;
	size_t j;
	bool fits;

	if (a->kind != K_MONEY || a->scale_written || a->x.decimals || a->to != a->main_to ||
	    (a->currency != U_USD && a->currency != U_EUR && a->currency != U_GBP))
		return;
	j = skip_blanks(lx, a->to);
	if (!word_at(lx, j, &w) || !spells(lx, w.ws, w.we, "and"))
		return;
	j = skip_blanks(lx, w.we);
	if (!is_digit(B(lx, j)) && !is_alpha(B(lx, j)))
		return;
	operand(lx, j, &b, 0, j);
	if (!whole(&b.x, 1, 99) || b.scale_written || b.to != b.main_to)
		return;
	/* cents of a dollar or a euro, pence of a pound, centimes of a euro */
	fits = (b.kind == K_MONEY && b.currency == U_CENT && a->currency != U_GBP) ||
	       (b.kind == K_COUNT && a->currency == U_GBP &&
		(strcmp(b.noun, "pence") == 0 || strcmp(b.noun, "penny") == 0)) ||
	       (b.kind == K_COUNT && a->currency == U_EUR && strcmp(b.noun, "centime") == 0);
	if (!fits)
		return;
	a->x.v += b.x.v / 100;
	a->x.decimals = 2;
	a->to = a->main_to = b.to;
}

/* Makes a bare figure a year when what is around it dates it ("in 2019", "the 2020 season"). */
static bool to_year(struct opnd *o, int dating)
{
	double v = o->x.v;
	bool modern = v >= 1900 && v <= 2099;

	if (o->kind == K_COUNT && yearish(&o->x) && !o->scale_written && !o->measure &&
	    (dating == 3 || ((dating == 4 || dating == 2) && modern))) {
		/* "the year 2000 problem", "a 1997 outbreak", "sales in 2021 grew":
		 * the word after is not counted (a count that large has its comma) */
		o->kind = K_NUMBER;
		o->noun[0] = '\0';
		o->to = o->main_to = o->x.to;
	}
	if (o->kind != K_NUMBER || !yearish(&o->x) || o->scale_written)
		return false;
	if (dating == 2 || dating == 3 || ((dating == 1 || dating == 4) && modern) || o->yearnoun == 2 || (o->yearnoun == 1 && modern)) {
		o->kind = K_YEAR;
		return true;
	}
	return false;
}

/* Years in a range: "2015-2019", "2019-20", "from 2015 to 2019". */
static void range_years(struct opnd *a, struct opnd *b, int dating)
{
	double base = a->x.v - fmath_fmod(a->x.v, 100);
	bool both = a->x.v >= 1900 && b->x.v <= 2099;

	if (a->kind != K_NUMBER || b->kind != K_NUMBER || !yearish(&a->x) || a->scale_written)
		return;
	if (b->x.idigits == 2 && whole(&b->x, 0, 99) && !b->x.words && base + b->x.v > a->x.v) {
		b->x.v += base; /* "2019-20" */
		b->x.idigits = 4;
	}
	if (!yearish(&b->x) || b->x.v <= a->x.v)
		return;
	if (dating || both || a->yearnoun || b->yearnoun || to_year(a, dating) || to_year(b, dating)) {
		a->kind = K_YEAR;
		b->kind = K_YEAR;
	}
}

/* The flags the context gives one operand. */
static unsigned operand_flags(struct lex *lx, const struct opnd *o, size_t from)
{
	unsigned f = 0;

	if (o->kind == K_COUNT && ((o->noun_roles & R_SELF) ||
				   ((o->noun_roles & R_LISTNOUN) && (cue_before(lx, from) || cue_after(lx, o->to)))))
		f |= NUMLEX_SELF_COUNT;
	return f;
}

/*
 * The expression whose number starts at p (a digit, or a number word; an "a"
 * before "dozen", "hundred" and the like). Returns where the scan goes on.
 */
static size_t expression(struct lex *lx, size_t p)
{
	struct opnd a, b;
	struct out out;
	struct word w;
	size_t start = p, j, neg_from = 0;
	int month = 0, dating, c;
	bool range = false, between, spaced, either, cite;
	unsigned f = 0, side;

	out.n = 0; /* (only the count: the items are written before they are read) */
	/* Before the number: a currency sign or code, a minus, a month. */
	if (is_digit(B(lx, p))) {
		j = skip_blanks_back(lx, p);
		c = B(lx, j - 1);
		if (c == '$') {
			start = j - 1;
			if (lower(B(lx, start - 1)) == 's' && lower(B(lx, start - 2)) == 'u' &&
			    !is_alpha(B(lx, start - 3)))
				start -= 2;
			else if (is_alpha(B(lx, start - 1)))
				return p + 1; /* "C$5", "HK$5": a currency we do not know */
		} else if (c == 0xAC && B(lx, j - 2) == 0x82 && B(lx, j - 3) == 0xE2) {
			start = j - 3;
		} else if (c == 0xA3 && B(lx, j - 2) == 0xC2) {
			start = j - 2;
		} else if (word_before(lx, p, false, &w) && (roles(&w) & R_CURCODE) &&
			   is_upper(B(lx, w.we - 1))) {
			start = w.ws;
		} else if ((c == '-' && j == p) ||
			   (c == 0x92 && B(lx, j - 2) == 0x88 && B(lx, j - 3) == 0xE2 && j == p)) {
			neg_from = c == '-' ? j - 1 : j - 3;
			if (is_alnum(B(lx, neg_from - 1)))
				neg_from = 0;
		}
	}
	if (start == p && word_before(lx, p, true, &w) && month_word(lx, &w, true)) {
		month = (int)w.v->num;
		start = w.ws;
	}
	operand(lx, start, &a, month, p);
	if (a.kind == K_NONE)
		return MAX(a.to, p + 1);
	if (a.kind == K_SKIP)
		return MAX(a.to, p + 1);
	if (a.kind == K_TEMP && neg_from) {
		a.neg = true;
		a.from = a.main_from = neg_from;
	}
	money_subunit(lx, &a);
	/* (a citation's year dates weakly: only a modern one, not a count) */
	cite = citation_year_at(lx, a.from);
	dating = cite ? 1 : dating_before(lx, a.from);
	between = word_before(lx, a.from, false, &w) && spells(lx, w.ws, w.we, "between");
	j = range_sep(lx, &a, between, &spaced, &either);
	if (j) {
		struct word mw;

		if (word_at(lx, j, &mw) && (roles(&mw) & R_MONTH)) {
			size_t k = mw.we;

			if (B(lx, k) == '.')
				k++;
			k = skip_blanks(lx, k);
			if (is_digit(B(lx, k)))
				operand(lx, j, &b, (int)mw.v->num, k);
			else
				b.kind = K_NONE;
		} else {
			operand(lx, j, &b, 0, j);
		}
		if (a.kind == K_NUMBER && yearish(&a.x) && b.kind == K_COUNT && b.x.idigits == 2 &&
		    (b.noun_roles & R_YEARNOUN)) {
			/* "2019-20 season": the noun dates the years, it is not counted */
			b.kind = K_NUMBER;
			b.noun[0] = '\0';
			b.yearnoun = 2;
			b.to = b.main_to = b.x.to;
		}
		/* Across a spaced dash, only two figures written alike make a
		 * range; across "or", a bare figure and a duration or count
		 * that gives it its unit ("2 or 3 days", "4 or 5 people"). */
		if (either ? (b.kind == K_DURATION || b.kind == K_COUNT) && !b.x.words
			   : (!spaced || (a.kind == b.kind && a.currency == b.currency)))
			range = merge(&a, &b);
	}
	if (range) {
		range_years(&a, &b, dating);
		if (a.kind == K_YEAR || b.kind == K_YEAR) {
			if (a.kind != K_YEAR || b.kind != K_YEAR)
				range = false;
		}
	}
	if (!range) {
		side = a.kind == K_YEAR || (a.kind == K_NUMBER && yearish(&a.x))
			       ? year_side(lx, a.from, a.decade)
			       : 0;
		/* "prior to 1990": a modern figure after a side is a year */
		if (side && a.kind == K_NUMBER && !a.scale_written && a.x.v >= 1900 && a.x.v <= 2099)
			a.kind = K_YEAR;
		if (to_year(&a, dating) && cite)
			f |= NUMLEX_CITATION;
		f |= approx_before(lx, a.from);
		if (a.kind == K_YEAR && !(f & (NUMLEX_ABOVE | NUMLEX_BELOW)))
			f |= side;
		if (list_marker(lx, &a))
			f |= NUMLEX_LIST_MARKER;
		else if (inline_item(lx, &a))
			f |= NUMLEX_INLINE_ITEM;
		if (fixed_phrase(lx, a.x.from, a.x.to))
			f |= NUMLEX_FIXED_PHRASE;
		operand_items(&a, f | operand_flags(lx, &a, a.from), &out);
		flush(lx, &out, a.from, a.to);
		return MAX(a.to, p + 1);
	}
	if (a.kind == K_DATE && b.kind == K_DATE && !b.year)
		b.to = year_after(lx, &b, b.to, false);
	f = NUMLEX_RANGE;
	if (approx_before(lx, a.from))
		f |= NUMLEX_APPROX; /* no side: a range has two */
	operand_items(&a, f | operand_flags(lx, &b, a.from), &out);
	operand_items(&b, f | operand_flags(lx, &b, a.from), &out);
	flush(lx, &out, a.from, b.to);
	return b.to;
}

/* ---- shapes read before an expression ---- */

/* Parts of a dotted version at i ("1.16.0", "3.11"): packed in base 1000, and its end; 0 parts if none. */
static int read_version(struct lex *lx, size_t i, double *v, size_t *end)
{
	int parts = 0, c;

	*v = 0;
	for (;;) {
		size_t s = i;
		double part = 0;

		while (is_digit(c = B(lx, i)) && i - s < 4)
			part = part * 10 + (c - '0'), i++;
		if (i == s || is_digit(c) || part > 999 || parts == 5)
			return 0;
		*v = *v * 1000 + part;
		parts++;
		if (B(lx, i) != '.' || !is_digit(B(lx, i + 1)))
			break;
		i++;
	}
	*end = i;
	return is_alnum(B(lx, i)) ? 0 : parts;
}

static int emit_one(struct lex *lx, size_t from, size_t to, const struct quantity *q, unsigned flags)
{
	struct out out;

	out.n = 0;
	push(&out, from, to, q, flags);
	return flush(lx, &out, from, to);
}

static int hex_digit(int c)
{
	return is_digit(c) ? c - '0' : (lower(c) >= 'a' && lower(c) <= 'f') ? lower(c) - 'a' + 10 : -1;
}

/*
 * "0x14", "0xffffffff" at p: a bare number of its value (NUMLEX_HEX); its
 * end, or 0 when the digits run on into letters or "_" ("0x1g", "0x1_ff")
 * or hold more than 13 significant ones (no longer exact in a double).
 */
static size_t hex_number(struct lex *lx, size_t p)
{
	struct quantity q;
	size_t i = p + 2, sig = 0;
	double v = 0;
	int d;

	if (B(lx, p) != '0' || lower(B(lx, p + 1)) != 'x')
		return 0;
	for (; (d = hex_digit(B(lx, i))) >= 0; i++) {
		if (i - p > 2 + 24)
			return 0;
		sig += v > 0 || d > 0;
		v = v * 16 + d;
	}
	if (i == p + 2 || sig > 13 || is_alpha(B(lx, i)) || B(lx, i) == '_')
		return 0;
	quantity_set(&q, QUANTITY_NUMBER, "number", v, 1);
	emit_one(lx, p, i, &q, NUMLEX_HEX);
	return i;
}

/* A version at p (after a name when w is not NULL): emits it; its end, or 0. */
static size_t version(struct lex *lx, size_t from, size_t p, const struct word *w, int min_parts)
{
	struct quantity q;
	char unit[QUANTITY_UNIT_MAX];
	double v;
	size_t end;
	int parts = read_version(lx, p, &v, &end);

	if (parts < min_parts)
		return 0;
	if (!name_unit(lx, unit, "version:", w ? w->ws : 0, w ? w->we : 0, ""))
		return 0;
	quantity_set(&q, QUANTITY_IDENT, unit, v, 1);
	emit_one(lx, from, end, &q, NUMLEX_VERSION);
	return end;
}

/* Digits joined by "/": "24/7" is a fixed phrase; fractions, dates, ratios and paths give nothing. */
static size_t slashed(struct lex *lx, size_t p, size_t dend)
{
	size_t e = dend;
	struct quantity q;

	if (B(lx, dend) != '/' || !is_digit(B(lx, dend + 1)))
		return 0;
	if (dend - p == 2 && B(lx, p) == '2' && B(lx, p + 1) == '4' && B(lx, dend + 1) == '7' &&
	    !is_alnum(B(lx, dend + 2)) && B(lx, dend + 2) != '/') {
		quantity_set(&q, QUANTITY_NUMBER, "number", 24, 1);
		emit_one(lx, p, dend + 2, &q, NUMLEX_FIXED_PHRASE);
		return dend + 2;
	}
	while (is_alnum(B(lx, e)) || B(lx, e) == '/')
		e++;
	return e;
}

/*
 * A phone number at p: "555 0100", "555-0100" (not a round range like
 * "500-1000"), "415-555-0100", "(415) 555-0100", "415.555.0100", "+1 415
 * 555 0100", "1-415-555-0100", "+44 20 7946 0958". Its end, or 0. A whole
 * number (ten digits of the North American plan, with or without its
 * country code 1, or an international one after "+") is emitted as an
 * identifier, unit "ident:phone", whose value is its digits (the plan's
 * without the 1): the same number however it is spaced states it, and one
 * digit changed is another number. A local "555-0100" is too little to
 * compare (which area?) and gives nothing.
 */
static size_t phone(struct lex *lx, size_t p)
{
	size_t len[6], n = 0, i = p, end = p, total = 0, from = p, g, ndig, used = 0;
	int sep = 0, c0 = B(lx, p - 1);
	double first = 0, value = 0;
	bool whole = false, drop;
	struct quantity q;

	while (n < ARRAY_SIZE(len)) {
		size_t s = i, k = 0;
		int c;

		while (is_digit(c = B(lx, i)))
			i++;
		len[n++] = i - s;
		total += i - s;
		end = i;
		if (n == 1)
			for (k = s; k < i && k - s < 6; k++)
				first = first * 10 + (B(lx, k) - '0');
		/* One or two separators: " ", "-", ".", ")", "(" */
		for (k = 0; k < 2 && (c = B(lx, i)) && (c == ' ' || c == '-' || c == '.' || c == '(' ||
						      c == ')'); k++, i++)
			if (!sep && c != '(' && c != ')')
				sep = c;
		if (k == 0 || !is_digit(B(lx, i)))
			break;
	}
	if (c0 == '+' && total <= 15 && (n >= 2 ? total >= 8 : total >= 10)) {
		/* "+44 20 7946 0958", "+14155550100" */
		whole = true;
		used = n;
	} else if (n >= 4 && len[0] == 1 && first == 1 && len[1] == 3 && len[2] == 3 &&
		   len[3] == 4 && sep != ' ') {
		/* "1-415-555-0100", "1.415.555.0100"; not "1 415 555 0100", a
		 * list of figures as likely */
		whole = true;
		used = 4;
	} else if (n >= 3 && len[0] == 3 && len[1] == 3 && len[2] == 4) {
		whole = true;
		used = 3;
	} else if (n == 2 && len[0] == 3 && len[1] == 4 && c0 != '.') {
		if (sep == ' ')
			return end;
		if (sep == '-' && (B(lx, end - 4) == '0' || fmath_fmod(first, 10) != 0))
			return end;
		return 0;
	} else {
		return 0;
	}
	if (!whole)
		return end;
	/* Its digits, group by group (at most 15: exact in a double); the
	 * plan's country code is left out, so "+1 415 555 0100" states
	 * "(415) 555-0100". */
	for (g = 0, ndig = 0; g < used; g++)
		ndig += len[g];
	drop = len[0] == 1 && first == 1 && ndig == 11;
	for (i = p, g = 0; g < used; g++) {
		while (!is_digit(B(lx, i)))
			i++;
		for (; is_digit(B(lx, i)); i++)
			if (!(g == 0 && drop))
				value = value * 10 + (B(lx, i) - '0');
	}
	if (n == 1 && ndig == 11 && B(lx, p) == '1')
		value -= 1e10; /* "+14155550100": the plan's, as above */
	if ((c0 == '+' || c0 == '(') && p > lx->done)
		from = p - 1;
	quantity_set(&q, QUANTITY_IDENT, QUANTITY_PHONE, value, 1);
	emit_one(lx, from, i, &q, 0);
	return end;
}

/* The words that end a street's name ("Main Street", "Fifth Ave"): words/numbers.txt [street]. */
static bool street_word(struct lex *lx, size_t ws, size_t we)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words_street); i++)
		if (spells(lx, ws, we, words_street[i]))
			return true;
	return false;
}

/*
 * A street address's house number at p, digits to dend: "1234 Main St",
 * "55 Fifth Avenue", "377 Santana Row", "123-04 Roosevelt Ave" (a Queens
 * number, its digits read as one). One to three capitalised words name the
 * street, then a word that ends a street's name. Emitted as an identifier
 * of the street, unit "ident:st:<name>" (the name's letters, lowercased,
 * without the "Street" word: "Main St" is "Main Street"), whose value is
 * the house number: another number on the same street is another address.
 * Its end, or 0.
 */
static size_t street(struct lex *lx, size_t p, size_t dend)
{
	char unit[QUANTITY_UNIT_MAX] = QUANTITY_STREET;
	size_t i = dend, u = strlen(QUANTITY_STREET), names, ws, we = 0, k;
	struct quantity q;
	double v = 0;
	int c0 = B(lx, p - 1);

	if (dend - p > 6 || is_alnum(c0) || c0 == '$' || c0 == '.' || c0 == ',' || c0 == '-' ||
	    c0 == '+' || c0 == ':')
		return 0;
	for (k = p; k < dend; k++)
		v = v * 10 + (B(lx, k) - '0');
	if (B(lx, i) == '-') {
		for (k = ++i; is_digit(B(lx, i)) && i - k < 3; i++)
			v = v * 10 + (B(lx, i) - '0');
		if (i - k < 1 || i - k > 2)
			return 0;
	}
	if (B(lx, i) != ' ')
		return 0;
	for (names = 0, i++; names <= 3; names++, i = we + 1) {
		ws = i;
		if (!is_upper(B(lx, ws)))
			return 0;
		we = letters_end(lx, ws);
		if (is_digit(B(lx, we)) || B(lx, we) == '_' || B(lx, we) == '-')
			return 0;
		if (names > 0 && street_word(lx, ws, we))
			break;
		for (k = ws; k < we && u + 1 < sizeof(unit); k++)
			unit[u++] = (char)lower(B(lx, k));
		if (B(lx, we) != ' ')
			return 0;
	}
	if (names == 0 || names > 3)
		return 0;
	unit[u] = '\0';
	quantity_set(&q, QUANTITY_IDENT, unit, v, 1);
	emit_one(lx, p, we, &q, 0);
	return we;
}

/*
 * The two digits of a date's month or day at i: the position after them
 * and *v, or 0. Where *stray, they may have one blank between them (a
 * tool's "2022-0 3-04", a record typed by hand): read as the date a reader
 * takes it for, once a date (*stray cleared).
 */
static size_t date_digits(struct lex *lx, size_t i, int *v, bool *stray)
{
	if (!is_digit(B(lx, i)))
		return 0;
	if (is_digit(B(lx, i + 1))) {
		*v = (B(lx, i) - '0') * 10 + (B(lx, i + 1) - '0');
		return i + 2;
	}
	if (!*stray || B(lx, i + 1) != ' ' || !is_digit(B(lx, i + 2)) || is_digit(B(lx, i + 3)))
		return 0;
	*stray = false;
	*v = (B(lx, i) - '0') * 10 + (B(lx, i + 2) - '0');
	return i + 3;
}

/* "2013-09-08", "2013-09-08T17:30:24Z", "2013-09-08 17:30": a year, a day and a time. */
static size_t iso_date(struct lex *lx, size_t p)
{
	struct out out;
	struct opnd t;
	struct quantity q;
	size_t i = p, e;
	int k, year = 0, month, day;
	bool stray = true;

	out.n = 0;
	for (k = 0; k < 4; k++)
		if (!is_digit(B(lx, i + k)))
			return 0;
		else
			year = year * 10 + (B(lx, i + k) - '0');
	if (B(lx, i + 4) != '-' || !(e = date_digits(lx, i + 5, &month, &stray)) || B(lx, e) != '-' ||
	    !(e = date_digits(lx, e + 1, &day, &stray)) || (is_alnum(B(lx, e)) && B(lx, e) != 'T'))
		return 0;
	if (year < 1000 || year > 2999 || month < 1 || month > 12 || day < 1 || day > 31)
		return 0;
	quantity_set(&q, QUANTITY_YEAR, "date:year", year, 1);
	push(&out, p, p + 4, &q, NUMLEX_PART);
	quantity_set(&q, QUANTITY_DATE, "date:day", month * 100 + day, 1);
	push(&out, p + 5, e, &q, NUMLEX_PART);
	if ((B(lx, e) == 'T' || B(lx, e) == ' ') && is_digit(B(lx, e + 1)) && is_digit(B(lx, e + 2)) &&
	    B(lx, e + 3) == ':') {
		size_t te;

		memset(&t, 0, sizeof(t));
		if (read_digits(lx, e + 1, &t.x) && (te = clock_digits(lx, &t, t.x.to))) {
			quantity_of(&t, &q);
			push(&out, e + 1, te, &q, NUMLEX_PART);
			e = te;
			if (B(lx, e) == 'Z')
				e++;
			else if ((B(lx, e) == '+' || B(lx, e) == '-') && is_digit(B(lx, e + 1)) &&
				 is_digit(B(lx, e + 2)))
				/* "+05:30" or "+05"; a "+05:3" leaves ":3" outside. */
				e += B(lx, e + 3) == ':' && is_digit(B(lx, e + 4)) &&
						     is_digit(B(lx, e + 5))
					     ? 6
					     : 3;
		}
	}
	flush(lx, &out, p, e);
	return e;
}

/* "[2]", "[1, 3]", "[1-3]": references, each number its own item. Its end, or 0. */
static size_t bracket_refs(struct lex *lx, size_t p)
{
	struct quantity q;
	struct num x;
	size_t i = p;

	/* Read to "]" first: nothing is emitted unless the brackets close. */
	while (is_digit(B(lx, i)) || B(lx, i) == ',' || B(lx, i) == ' ' || B(lx, i) == '-')
		i++;
	if (B(lx, i) != ']' || i - p > 32)
		return 0;
	for (i = p; B(lx, i) != ']';) {
		if (!is_digit(B(lx, i))) {
			i++;
			continue;
		}
		if (!read_digits(lx, i, &x))
			return x.to;
		quantity_set(&q, QUANTITY_NUMBER, "number", x.v, 1);
		if (emit_one(lx, x.from, x.to, &q, NUMLEX_REFERENCE))
			return x.to;
		i = x.to;
	}
	return i + 1;
}

/* "Passage 2", "Passages 1 and 2", "Table 3-4": references. ws: the noun's start. */
static size_t references(struct lex *lx, size_t ws, size_t p)
{
	struct quantity q;
	struct num x;
	size_t from = ws, i = p;
	int k;

	for (k = 0; k < 8; k++) {
		size_t j;
		struct word w;

		if (!read_digits(lx, i, &x) || !whole(&x, 0, 1e6))
			return MAX(x.to, p + 1);
		quantity_set(&q, QUANTITY_NUMBER, "number", x.v, 1);
		if (emit_one(lx, from, x.to, &q, NUMLEX_REFERENCE))
			return x.to;
		i = x.to;
		j = B(lx, i) == ',' ? i + 1 : i;
		j = skip_blanks(lx, j);
		/* ("steps 4 through 6", "steps 4 to 6": the run's end too) */
		if (word_at(lx, j, &w) && (spells(lx, w.ws, w.we, "and") || spells(lx, w.ws, w.we, "or") ||
					   spells(lx, w.ws, w.we, "through") || spells(lx, w.ws, w.we, "thru") ||
					   spells(lx, w.ws, w.we, "to")))
			j = skip_blanks(lx, w.we);
		else if (B(lx, j) == '&' || B(lx, j) == '-')
			j = skip_blanks(lx, j + 1);
		if (j == i || !is_digit(B(lx, j)) || is_alnum(B(lx, j - 1)))
			break;
		i = from = j;
	}
	return i;
}

/* "Windows 10", "iPhone 15", "Python 3.11", "version 2": an identifier or a version. */
static size_t named_number(struct lex *lx, const struct word *w, size_t p)
{
	struct quantity q;
	struct num x;
	char unit[QUANTITY_UNIT_MAX];
	size_t end;

	if (B(lx, p) == '0' && is_digit(B(lx, p + 1)))
		return 0;
	if ((end = version(lx, w->ws, p, (roles(w) & R_VERWORD) ? NULL : w, 2)))
		return end;
	if (!read_digits(lx, p, &x) || !whole(&x, 0, 999999) || is_alpha(B(lx, x.to)))
		return 0;
	if (roles(w) & R_VERWORD) {
		quantity_set(&q, QUANTITY_IDENT, "version:", x.v, 1);
		emit_one(lx, w->ws, x.to, &q, NUMLEX_VERSION);
		return x.to;
	}
	if (!name_unit(lx, unit, "ident:", w->ws, w->we, "#"))
		return 0;
	quantity_set(&q, QUANTITY_IDENT, unit, x.v, 1);
	emit_one(lx, w->ws, x.to, &q, 0);
	return x.to;
}

static size_t iso_date(struct lex *lx, size_t p);

/* "COVID-19", "SARS-CoV-2", "F-35", "mid-2020": digits after letters and a hyphen at p - 1. */
static size_t hyphen_name(struct lex *lx, size_t p)
{
	struct quantity q;
	struct num x;
	char unit[QUANTITY_UNIT_MAX];
	size_t cs = p - 1, k, end;
	const struct vword *v = NULL;
	bool upper = false, one_word = true;
	struct word w;

	while (is_alpha(B(lx, cs - 1)) || (B(lx, cs - 1) == '-' && is_alpha(B(lx, cs - 2)))) {
		cs--;
		if (p - 1 - cs > 24)
			return expression(lx, p);
	}
	if (is_alnum(B(lx, cs - 1)) || B(lx, cs - 1) == '_' ||
	    (cs == lx->low && cs > 0 && is_alpha((unsigned char)lx->t[cs - 1])))
		return expression(lx, p);
	for (k = cs; k < p - 1; k++) {
		upper |= is_upper(B(lx, k));
		one_word &= B(lx, k) != '-';
	}
	if (one_word)
		v = vocab_find(lx->t + cs, p - 1 - cs);
	/* "meeting-agenda-2024-05-15.docx": a name's date is a date, as
	 * "2024-05-08_notes.docx" is; not the range "2024-05" */
	if (B(lx, p + 4) == '-' && (end = iso_date(lx, p)))
		return end;
	if (!read_digits(lx, p, &x))
		return MAX(x.to, p + 1);
	if (v && (v->roles & R_DATING) && yearish(&x)) {
		/* "mid-2020", "pre-1990"; "mid-1990s", "late-1990's": its decade
		 * (not "pre-1990s": no year of it) */
		end = decade_digits(&x) && strcmp(v->w, "pre") && strcmp(v->w, "post")
			      ? decade_s(lx, x.to)
			      : 0;
		if (!end && is_alpha(B(lx, x.to)))
			return token_end(lx, x.to);
		quantity_set_year(&q, x.v, end != 0);
		/* "pre-1990", "post-2000": a side of a bound, as "before 1990" */
		emit_one(lx, cs, end ? end : x.to, &q,
			 end ? 0
			 : !strcmp(v->w, "pre") ? NUMLEX_BELOW
			 : !strcmp(v->w, "post") ? NUMLEX_ABOVE : 0);
		return end ? end : x.to;
	}
	if (!upper && !(v && (v->roles & R_PRODUCT)))
		return expression(lx, p);
	w.ws = cs;
	w.we = p - 1;
	w.v = v;
	if ((end = version(lx, cs, p, &w, 2)))
		return end;
	if (!whole(&x, 0, 999999) || x.comma || is_alpha(B(lx, x.to)) ||
	    !name_unit(lx, unit, "ident:", cs, p - 1, "#"))
		return token_end(lx, x.to);
	quantity_set(&q, QUANTITY_IDENT, unit, x.v, 1);
	emit_one(lx, cs, x.to, &q, 0);
	return x.to;
}

/* ---- the scan ---- */

static bool is_url_byte(int c)
{
	return c > ' ' && c != '"' && c != '\'' && c != '<' && c != '>' && c != '`' && c != 0x7f;
}

/* From i on, a URL's bytes: up to a blank, a quote or an angle bracket. Not windowed. */
static size_t url_end(struct lex *lx, size_t i)
{
	size_t s = i;

	while (i < lx->n && is_url_byte((unsigned char)lx->t[i]))
		i++;
	lx->examined += i - s + 1;
	return i;
}

/* An e-mail address whose local part reaches i: the address's end, or 0. */
static size_t email_end(struct lex *lx, size_t i)
{
	int c;

	while ((c = B(lx, i)) == '.' || c == '_' || c == '%' || c == '+' || c == '-' || is_alnum(c))
		i++;
	if (c != '@' || !is_alnum(B(lx, i + 1)))
		return 0;
	for (i++; (c = B(lx, i)) == '.' || c == '-' || is_alnum(c); i++)
		;
	return i;
}

/* The end of a run of letters, digits and "_" from i, not windowed (for skipping). */
static size_t run_end(struct lex *lx, size_t i)
{
	size_t s = i;

	while (i < lx->n && (is_alnum((unsigned char)lx->t[i]) || lx->t[i] == '_'))
		i++;
	lx->examined += i - s + 1;
	return i;
}

/*
 * "External_0", "Room_12": a capitalized name, one underscore and a number
 * to its end, as a tool names channels, rooms and slots: an identifier
 * (the name and the digits compared as one, like "TCK-1002"). Lowercase
 * and longer glued runs ("user_42", "test_case_3", "a_1b") are code's
 * names and give nothing. p: the token's start, u: its first underscore,
 * e: its end.
 */
static size_t underscore_name(struct lex *lx, size_t p, size_t u, size_t e)
{
	char unit[QUANTITY_UNIT_MAX];
	struct quantity q;
	double v = 0;
	size_t i;

	if (!is_upper(B(lx, p)) || u - p < 2 || e - u < 2 || e - u > 7)
		return e;
	for (i = p + 1; i < u; i++)
		if (!is_alpha(B(lx, i)))
			return e;
	for (i = u + 1; i < e; i++) {
		if (!is_digit(B(lx, i)))
			return e;
		v = v * 10 + (B(lx, i) - '0');
	}
	if (!name_unit(lx, unit, "ident:", p, u, "#"))
		return e;
	quantity_set(&q, QUANTITY_IDENT, unit, v, 1);
	emit_one(lx, p, e, &q, 0);
	return e;
}

/*
 * A token of letters and digits that starts with a letter: "A320", "H1N1",
 * "COVID19", "Q3", "FY2021", "v2.3.1"; "user_42", "a1b2c3" and other ids give nothing.
 */
static size_t glued(struct lex *lx, size_t p)
{
	struct quantity q;
	struct opnd o;
	char unit[QUANTITY_UNIT_MAX];
	size_t e = run_end(lx, p), i, d, end, n;
	int runs = 0, digits = 0, c;
	bool upper = false;
	double v = 0;

	window(lx, p);
	if ((e >= lx->lim && e < lx->n) || e - p > 24)
		return e;
	c = B(lx, e);
	if ((c == '@' || c == '.' || c == '-' || c == '+' || c == '%') && (end = email_end(lx, e)))
		return end;
	for (i = p; i < e; i++) {
		c = B(lx, i);
		if (c == '_')
			return underscore_name(lx, p, i, e);
		if (i == p || is_digit(c) != is_digit(B(lx, i - 1)))
			runs++;
		upper |= is_upper(c);
		if (is_digit(c)) {
			v = v * 10 + (c - '0');
			digits++;
		}
	}
	d = letters_end(lx, p);
	n = d - p;
	/* "Q3", "Q3 2021" */
	if (n == 1 && lower(B(lx, p)) == 'q' && e == d + 1 && B(lx, d) >= '1' && B(lx, d) <= '4') {
		memset(&o, 0, sizeof(o));
		o.kind = K_QUARTER;
		o.x.v = B(lx, d) - '0';
		o.main_from = p;
		o.main_to = e;
		end = year_after(lx, &o, e, true);
		{
			struct out out;

			out.n = 0;
			operand_items(&o, 0, &out);
			flush(lx, &out, p, end);
		}
		return end;
	}
	/* "FY2021", "FY21" */
	if (n == 2 && lower(B(lx, p)) == 'f' && lower(B(lx, p + 1)) == 'y' && runs == 2 &&
	    (digits == 4 || digits == 2)) {
		quantity_set(&q, QUANTITY_YEAR, "date:year", digits == 2 ? 2000 + v : v, 1);
		emit_one(lx, p, e, &q, 0);
		return e;
	}
	/* "v2", "v2.3.1" */
	if (n == 1 && lower(B(lx, p)) == 'v' && runs == 2) {
		end = version(lx, p, d, NULL, 1);
		return end ? end : e;
	}
	if (!upper || runs > 4 || digits > 6 || !is_alpha(B(lx, p)))
		return e;
	/* "GPT4.5" */
	if (runs == 2 && B(lx, e) == '.' && is_digit(B(lx, e + 1))) {
		struct word w = {p, d, NULL};

		end = version(lx, p, d, &w, 2);
		return end ? end : e;
	}
	/* The letters, "#" for each run of digits: "A320" is a#, "H1N1" h#n#. */
	memcpy(unit, "ident:", 6);
	for (i = p, n = 6; i < e; i++) {
		c = B(lx, i);
		if (is_digit(c) && is_digit(B(lx, i - 1)) && i > p)
			continue;
		if (n + 1 >= sizeof(unit))
			return e;
		unit[n++] = is_digit(c) ? '#' : (char)lower(c);
	}
	unit[n] = '\0';
	quantity_set(&q, QUANTITY_IDENT, unit, v, 1);
	emit_one(lx, p, e, &q, 0);
	return e;
}

/* The duration unit word at i ("hour", "days"): its U_*, *end its end; U_NONE if none. */
static int duration_word_at(struct lex *lx, size_t i, size_t *end)
{
	struct word w;

	if (!word_at(lx, i, &w) || !w.v || w.v->unit == U_NONE ||
	    unit_info[w.v->unit].cls != UC_DURATION)
		return U_NONE;
	*end = w.we;
	return w.v->unit;
}

/*
 * A duration a word implies, at the word [p, e) of R_IMPLIED: "a decade",
 * "the last decade", "a fortnight", "half an hour", "half a day", "a
 * couple of days" (NUMLEX_IMPLIED). Returns its end, or 0 when the word
 * implies nothing here ("half of them", "a happy couple").
 */
static size_t implied(struct lex *lx, size_t p, size_t e, const struct vword *v)
{
	struct quantity q;
	struct word w;
	size_t from = p, end = e, i;
	double n = 1;
	int unit = v->unit;

	if (v->num == 0 && unit == U_NONE) {
		/* "half a(n) <unit>", "a couple of <units>" */
		bool half = e - p == 4;

		i = skip_blanks(lx, e);
		if (!word_at(lx, i, &w))
			return 0;
		if (half ? !(spells(lx, w.ws, w.we, "a") || spells(lx, w.ws, w.we, "an"))
			 : !spells(lx, w.ws, w.we, "of"))
			return 0;
		if (!half) {
			struct word a;

			if (!word_before(lx, p, false, &a) || !spells(lx, a.ws, a.we, "a"))
				return 0;
			from = a.ws;
		}
		unit = duration_word_at(lx, skip_blanks(lx, w.we), &end);
		if (unit == U_NONE)
			return 0;
		n = half ? 0.5 : 2;
	}
	quantity_set(&q, QUANTITY_BASE, unit_info[unit].base, n * unit_info[unit].factor,
		     unit_info[unit].factor);
	q.words = true;
	emit_one(lx, from, end, &q, NUMLEX_WORDS | NUMLEX_IMPLIED);
	return end;
}

/* A word at p; returns its end (or the end of what it starts). */
static size_t at_word(struct lex *lx, size_t p)
{
	const char *t = lx->t;
	size_t e = p + 1, len;
	unsigned h;
	const struct vword *v;
	struct word w;

	while (e < lx->n && byte_class[(unsigned char)t[e]] == C_ALPHA)
		e++;
	lx->examined += e - p + 1;
	if (e < lx->n && (is_digit((unsigned char)t[e]) || t[e] == '_'))
		return glued(lx, p);
	len = e - p;
	if (len < TRIG_MIN || len > TRIG_MAX)
		return e;
	h = TRIG_HASH(TRIG_KEY(t[p], t[p + 1], t[p + 2]), len);
	if (!(vocab_triggers[h / 64] >> (h % 64) & 1))
		return e;
	v = vocab_find(t + p, len);
	if (!v || !(v->roles & R_TRIGGER))
		return e;
	window(lx, p);
	if (v->roles & R_URL) {
		if ((len == 3 && B(lx, e) == '.') || (B(lx, e) == ':' && B(lx, e + 1) == '/' && B(lx, e + 2) == '/'))
			return url_end(lx, e);
		return e;
	}
	if (is_alnum(B(lx, p - 1)))
		return e;
	if (v->roles & R_IMPLIED) {
		size_t end = implied(lx, p, e, v);

		if (end || !(v->roles & R_CARD))
			return MAX(end, e);
	}
	if (v->roles & R_CLOCK) {
		struct quantity q;

		quantity_set(&q, QUANTITY_TIME, "time:clock", v->num, 60);
		q.words = true;
		emit_one(lx, p, e, &q, NUMLEX_WORDS);
		return e;
	}
	if (word_before(lx, p, false, &w) && (roles(&w) & R_ARTICLE) && w.we - w.ws <= 2) {
		/* "a third": a fraction; "a second": a moment, or another */
		if (!(v->roles & R_CARD))
			return e;
		if (w.we - w.ws == 1 && (v->num >= 100 || v->num == 12)) {
			size_t end = expression(lx, w.ws); /* "a dozen", "a million" */

			return MAX(end, e);
		}
	}
	return expression(lx, p);
}

/* Digits at p (not glued to letters before them); returns where the scan goes on. */
/* Does a degree sign and its scale end at i ("°C", "ºF", "℃")? Read past the window. */
static bool after_degrees(const struct lex *lx, size_t i)
{
	const unsigned char *t = (const unsigned char *)lx->t;

	if (i >= 3 && (t[i - 1] == 'C' || t[i - 1] == 'F') && t[i - 3] == 0xC2 &&
	    (t[i - 2] == 0xB0 || t[i - 2] == 0xBA))
		return true;
	return i >= 3 && t[i - 3] == 0xE2 && t[i - 2] == 0x84 && (t[i - 1] == 0x83 || t[i - 1] == 0x89);
}

static size_t at_digit(struct lex *lx, size_t p)
{
	size_t dend, end;
	int c0, c1;
	struct word w;

	window(lx, p);
	/* What the digits are glued to, read past the window: adjacency, not context. */
	c0 = p > 0 ? (unsigned char)lx->t[p - 1] : -1;
	c1 = p > 1 ? (unsigned char)lx->t[p - 2] : -1;
	for (dend = p; is_digit(B(lx, dend)); dend++)
		;
	if (dend == lx->lim && dend < lx->n)
		return run_end(lx, p); /* a run of digits longer than the window */
	/* Part of a path, an anchor, an address, a key or a glued run; not
	 * a temperature's other scale ("180°C/350°F"). */
	if ((c0 == '/' && !after_degrees(lx, p - 1)) || c0 == '\\' || c0 == '#' || c0 == '@' ||
	    c0 == '=' || c0 == '&' ||
	    c0 == '^' || c0 == '_' || ((c0 == '.' || c0 == ':') && is_alnum(c1)) ||
	    (c0 == '-' && is_digit(c1)))
		return run_end(lx, p);
	if (dend == p + 1 && (B(lx, dend) == 'x' || B(lx, dend) == 'X') && (end = hex_number(lx, p)))
		return end;
	if ((B(lx, dend) == '@' || B(lx, dend) == '.' || B(lx, dend) == '_' || B(lx, dend) == '+' ||
	     B(lx, dend) == '-') &&
	    (end = email_end(lx, dend)))
		return end;
	if (c0 == '-' && is_alpha(c1))
		return hyphen_name(lx, p);
	c1 = B(lx, dend);
	if (c0 == '[' && (end = bracket_refs(lx, p)))
		return end;
	/* The shapes below start with what each needs after the first digits. */
	if (((c1 == ' ' && is_upper(B(lx, dend + 1))) || (c1 == '-' && is_digit(B(lx, dend + 1)))) &&
	    (end = street(lx, p, dend)))
		return end;
	if ((dend - p == 3 || c0 == '+' || (dend - p == 1 && B(lx, p) == '1' && (c1 == '-' || c1 == '.'))) &&
	    (end = phone(lx, p)))
		return end;
	if (dend - p == 4 && c1 == '-' && (end = iso_date(lx, p)))
		return end;
	if (c1 == '.' && is_digit(B(lx, dend + 1)) && (end = version(lx, p, p, NULL, 3)))
		return end;
	if (c1 == '/' && (end = slashed(lx, p, dend)))
		return end;
	if (word_before(lx, p, false, &w) && w.we == skip_blanks_back(lx, p) && w.we < p) {
		/* (five digits or more name a thing, "item 4410298834": no label) */
		if ((roles(&w) & R_REF) && dend - p < 5)
			return references(lx, w.ws, p);
		if (!(roles(&w) & (R_MONTH | R_CURCODE)) && names_number(lx, &w) &&
		    (end = named_number(lx, &w, p)))
			return end;
	}
	return expression(lx, p);
}

/* ---- the main pass: 64 bytes at a time ---- */

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* The high bit of each byte of x that is nonzero. */
static inline uint64_t swar_nonzero(uint64_t x)
{
	return (((x & ~HIGHS) + ~HIGHS) | x) & HIGHS;
}

/* The high bit of each byte of x, ASCII, in [lo, hi] (hi < 0x7f). */
static inline uint64_t swar_between(uint64_t x, unsigned lo, unsigned hi)
{
	uint64_t t = x & ~HIGHS;

	return (t + ONES * (0x80 - lo)) & ~(t + ONES * (0x7f - hi)) & ~x & HIGHS;
}

/* The 8 high bits of x, gathered into a byte: bit i from byte i. */
static inline uint64_t swar_pack(uint64_t m)
{
	return ((m >> 7) * 0x0102040810204080ull) >> 56;
}

/* Of the 64 bytes at s, bit i: s[i] is an ASCII letter (*L), a digit (*D), "_" or "@" (*S). */
#if defined(__SSE2__)
static void block_masks(const char *s, uint64_t *L, uint64_t *D, uint64_t *S)
{
	const __m128i lower = _mm_set1_epi8(0x20), a1 = _mm_set1_epi8('a' - 1),
		      z1 = _mm_set1_epi8('z' + 1), d1 = _mm_set1_epi8('0' - 1),
		      d2 = _mm_set1_epi8('9' + 1), us = _mm_set1_epi8('_'), at = _mm_set1_epi8('@');
	uint64_t l = 0, d = 0, k = 0;
	int i;

	/* Bytes of 0x80 and up are negative: no letter, no digit. */
	for (i = 0; i < 4; i++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i));
		__m128i y = _mm_or_si128(x, lower);

		l |= (uint64_t)(unsigned)_mm_movemask_epi8(
			     _mm_and_si128(_mm_cmpgt_epi8(y, a1), _mm_cmplt_epi8(y, z1))) << (16 * i);
		d |= (uint64_t)(unsigned)_mm_movemask_epi8(
			     _mm_and_si128(_mm_cmpgt_epi8(x, d1), _mm_cmplt_epi8(x, d2))) << (16 * i);
		k |= (uint64_t)(unsigned)_mm_movemask_epi8(
			     _mm_or_si128(_mm_cmpeq_epi8(x, us), _mm_cmpeq_epi8(x, at))) << (16 * i);
	}
	*L = l;
	*D = d;
	*S = k;
}
#endif

/* The same without SIMD: eight bytes at a time in a 64-bit word. */
static void swar_block_masks(const char *s, uint64_t *L, uint64_t *D, uint64_t *S)
{
	uint64_t l = 0, d = 0, k = 0, x;
	int i;

	for (i = 0; i < 8; i++) {
		memcpy(&x, s + 8 * i, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		x = __builtin_bswap64(x);
#endif
		l |= swar_pack(swar_between(x | ONES * 0x20, 'a', 'z')) << (8 * i);
		d |= swar_pack(swar_between(x, '0', '9')) << (8 * i);
		k |= swar_pack((~swar_nonzero(x ^ (ONES * '_')) | ~swar_nonzero(x ^ (ONES * '@'))) &
			       HIGHS) << (8 * i);
	}
	*L = l;
	*D = d;
	*S = k;
}

#if !defined(__SSE2__)
#define block_masks swar_block_masks
#endif

/* Whether the 64 bytes at s hold a digit: block_masks()'s D alone, for less. */
static inline bool block_has_digit(const char *s)
{
#if defined(__SSE2__)
	const __m128i d1 = _mm_set1_epi8('0' - 1), d2 = _mm_set1_epi8('9' + 1);
	__m128i any = _mm_setzero_si128();
	int i;

	for (i = 0; i < 4; i++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i));

		any = _mm_or_si128(any, _mm_and_si128(_mm_cmpgt_epi8(x, d1), _mm_cmplt_epi8(x, d2)));
	}
	return _mm_movemask_epi8(any) != 0;
#else
	uint64_t x, d = 0;
	int i;

	for (i = 0; i < 8; i++) {
		memcpy(&x, s + 8 * i, 8);
		d |= swar_between(x, '0', '9');
	}
	return d != 0;
#endif
}

/*
 * The digits of the 64 bytes at b (text[i, i + 64), or fewer at its end:
 * a blank-padded copy) that a letter touches, as bits; the byte before the
 * block is text's own, the one after it too where there is one.
 */
static uint64_t glued_bits(const char *b, const char *t, size_t i, size_t n, uint64_t *D,
			   uint64_t *S)
{
	uint64_t L, g;

	block_masks(b, &L, D, S);
	g = *D & (L << 1 | L >> 1);
	if ((*D & 1) && i > 0 && byte_class[(unsigned char)t[i - 1]] == C_ALPHA)
		g |= 1;
	if ((*D >> 63) && i + 64 < n && byte_class[(unsigned char)t[i + 64]] == C_ALPHA)
		g |= 1ull << 63;
	return g;
}

size_t numlex_next_glued(const char *t, size_t i, size_t n)
{
	uint64_t g, D, S; /* (glued_bits()'s masks, not needed here) */

	for (; i + 64 <= n; i += 64)
		if ((g = glued_bits(t + i, t, i, n, &D, &S)))
			return i + (size_t)__builtin_ctzll(g);
	/* The tail, blank-padded to a block (a sentence is often all tail). */
	if (i < n) {
		char pad[64];

		memset(pad, ' ', sizeof(pad));
		memcpy(pad, t + i, n - i);
		if ((g = glued_bits(pad, t, i, n, &D, &S)))
			return i + (size_t)__builtin_ctzll(g);
	}
	return n;
}

size_t numlex_next_code_digit(const char *t, size_t i, size_t n)
{
	size_t from = i;

	for (; i < n; i += 64) {
		char pad[64];
		const char *b = t + i;
		uint64_t D, S, g, c;

		if (n - i < 64) {
			/* The tail, blank-padded to a block, as numlex_next_glued(). */
			memset(pad, ' ', sizeof(pad));
			memcpy(pad, t + i, n - i);
			b = pad;
		}
		/* (no digit, nothing below: most blocks of prose) */
		if (!block_has_digit(b))
			continue;
		g = glued_bits(b, t, i, n, &D, &S);
		/* and a digit after "_" or "@" (S; the "@"s told apart below, by
		 * the byte), the byte before the block included past the first */
		c = g | (D & S << 1);
		if (i > from && (D & 1) && t[i - 1] == '_')
			c |= 1;
		for (; c; c &= c - 1) {
			unsigned j = (unsigned)__builtin_ctzll(c);

			/* (bit 0 not glued is the byte before's "_", checked above) */
			if ((g >> j & 1) || j == 0 || b[j - 1] == '_')
				return i + j;
		}
	}
	return n;
}

/* Both mask builders against byte_class, for every byte value in every lane. */
static const char *masks_check(void)
{
	char buf[64];
	unsigned b, i;

	for (b = 0; b < 256; b += 64) {
		for (i = 0; i < 64; i++) {
			uint64_t l[2], d[2], k[2];
			unsigned j;

			for (j = 0; j < 64; j++)
				buf[j] = (char)(b + (i + j) % 64);
			swar_block_masks(buf, &l[0], &d[0], &k[0]);
			block_masks(buf, &l[1], &d[1], &k[1]);
			for (j = 0; j < 64; j++) {
				unsigned c = byte_class[(unsigned char)buf[j]];

				if ((l[0] >> j & 1) != (c == C_ALPHA) || (d[0] >> j & 1) != (c == C_DIGIT) ||
				    (k[0] >> j & 1) != (c == C_SKIP))
					return "(the portable byte masks)";
			}
			if (l[0] != l[1] || d[0] != d[1] || k[0] != k[1])
				return "(the SIMD byte masks)";
			if (block_has_digit(buf) != (d[0] != 0))
				return "(the digit test)";
		}
	}
	/* one digit in any lane, among letters and bytes past 0x7f */
	for (i = 0; i <= 64; i++) {
		for (b = 0; b < 64; b++)
			buf[b] = (char)(b % 2 ? 'z' : 0xb9);
		if (i < 64)
			buf[i] = (char)('0' + i % 10);
		if (block_has_digit(buf) != (i < 64))
			return "(the digit test)";
	}
	return NULL;
}

/* One step of the main pass at p, byte by byte: where it goes on. */
static size_t step(struct lex *lx, size_t p)
{
	const char *t = lx->t;
	size_t n = lx->n, s = p;

	switch (byte_class[(unsigned char)t[p]]) {
	case C_ALPHA:
		if (p > 0 && is_alpha((unsigned char)t[p - 1])) {
			/* the rest of a word already passed */
			while (p < n && byte_class[(unsigned char)t[p]] == C_ALPHA)
				p++;
			break;
		}
		return at_word(lx, p);
	case C_DIGIT:
		return at_digit(lx, p);
	case C_SKIP:
		/* the rest of an id, or an e-mail address's domain */
		for (p++; p < n && (is_alnum((unsigned char)t[p]) || t[p] == '_' || t[p] == '.' ||
				    t[p] == '-'); p++)
			;
		break;
	default:
		for (p++; p < n && byte_class[(unsigned char)t[p]] == C_OTHER; p++)
			;
		break;
	}
	lx->examined += p - s + 1;
	return p;
}

/* Fewer bytes than this left go a step at a time: block()'s padded copy costs more. */
#define BLOCK_MIN 16

/*
 * 64 bytes at p at once (fewer at the end of the text): the words that start there are tested against the
 * trigger filter from bit masks, with no branch per byte. Returns where the
 * pass goes on: past the block, or at what needs a closer look (a trigger
 * word, a word glued to digits, a word that runs past the block, a digit,
 * "_" or "@"), which step() then takes.
 */
static size_t block(struct lex *lx, size_t p, bool *closer)
{
	const char *t = lx->t + p;
	size_t rem = lx->n - p;
	uint64_t L, D, S, W, special;
	uint32_t key;
	unsigned first;
	bool joined = p > 0 && is_alpha((unsigned char)t[-1]);
	char pad[64 + sizeof(key)];

	/*
	 * Fewer than 64 bytes left (a short sentence, or the end of one): a
	 * copy padded with blanks, which are no letter, digit or mark and end
	 * a word as the end of the text does.
	 */
	if (rem < 64) {
		memset(pad, ' ', sizeof(pad));
		memcpy(pad, t, rem);
		t = pad;
	}
	block_masks(t, &L, &D, &S);
	lx->examined += rem < 64 ? rem : 64;
	special = D | S;
	first = special ? (unsigned)__builtin_ctzll(special) : 64;
	W = L & ~((L << 1) | (uint64_t)joined);
	if (first < 64)
		W &= (1ull << first) - 1;
	*closer = true;
	while (W) {
		unsigned s = (unsigned)__builtin_ctzll(W), e, len, h;
		uint64_t rest = ~L >> s;

		W &= W - 1;
		if (!rest) {
			/* Runs past the block: the next block starts with it. */
			*closer = s == 0;
			return p + s;
		}
		e = s + (unsigned)__builtin_ctzll(rest);
		if (special >> e & 1)
			return p + s; /* glued to digits or "_": "A320", "user_42" (or an "@") */
		len = e - s;
		if (s > 60) {
			*closer = false; /* too near the end to load four bytes: */
			return p + s;    /* the next block starts with it */
		}
		/* No branch on the length: short words hash too, and fail it. */
		memcpy(&key, t + s, sizeof(key));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		key = __builtin_bswap32(key);
#endif
		h = TRIG_HASH(key & 0x1f1f1f, len);
		if (vocab_triggers[h / 64] >> (h % 64) & (len - TRIG_MIN <= TRIG_MAX - TRIG_MIN))
			return p + s;
	}
	if (first < 64)
		return p + first;
	*closer = false;
	return p + (rem < 64 ? rem : 64);
}

int numlex_scan_counted(const char *text, size_t n, unsigned opts, numlex_fn fn, void *ctx,
			size_t *examined)
{
	struct lex lx = {.t = text, .n = n, .opts = opts, .fn = fn, .ctx = ctx};
	size_t p = 0;
	bool closer;

	/* Every read is counted: a block's 64 bytes, a step's run, each byte a reader looks at. */
	while (p < n && !lx.rc) {
		size_t q;

		if (n - p >= BLOCK_MIN && !(opts & NUMLEX_BYTEWISE)) {
			p = block(&lx, p, &closer);
			if (!closer)
				continue;
		}
		/* Every step goes forward, whatever a reader returns. */
		q = step(&lx, p);
		p = q > p ? q : p + 1;
	}
	if (examined)
		*examined = lx.examined;
	return lx.rc;
}

int numlex_scan(const char *text, size_t n, unsigned opts, numlex_fn fn, void *ctx)
{
	return numlex_scan_counted(text, n, opts, fn, ctx, NULL);
}
