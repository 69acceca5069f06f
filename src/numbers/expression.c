// SPDX-License-Identifier: MIT
/*
 * The number lexer's expressions: an operand, or a range of two, with what
 * the words around them make of them (a year, an approximation, a list
 * marker, a count of the text itself, a fixed phrase), handed on as items.
 */
#include "lex.h"

#include <errno.h>
#include <math.h>

#include "common/fmath.h"
#include "wordlists.h"

/* ---- idioms (the two-word approximations are data: words/numbers.txt, [approx-pair]) ---- */

/*
 * Idioms with a number in them: the words before it, the number as written,
 * the words after it (compared without case, whole words at both ends).
 * Kept in sets by their number: an expression's number picks its set by
 * its first letter and length (phrase_set()), and only that set is tried
 * (most numbers have none; walking the whole table, a memcmp() a phrase
 * for "one", was 2.4% of the instructions with 1% tool spans).
 */
struct phrase {
	const char *before, *after;
	unsigned char nb, na;
};
#define BEFORE(b) {b, "", sizeof(b) - 1, 0}
#define AFTER(a) {"", a, 0, sizeof(a) - 1}
#define AROUND(b, a) {b, a, sizeof(b) - 1, sizeof(a) - 1}

static const struct phrase p_24[] = {AFTER(" hours a day"), AFTER("/7")};
static const struct phrase p_365[] = {AFTER(" days a year")};
static const struct phrase p_7[] = {AFTER(" days a week")};
static const struct phrase p_seven[] = {AFTER(" days a week")};
static const struct phrase p_first[] = {AFTER(" and foremost"), AFTER(" of all"), BEFORE("at "),
					AROUND("in the ", " place")};
static const struct phrase p_one[] = {
	AFTER(" another"), AFTER(" at a time"), AFTER(" by one"), AFTER(" day"), AFTER(" of"),
	AFTER(" or another"), AFTER(" or more"), AFTER(" or two"), AFTER(" way or another"),
	AFTER("'s"), BEFORE("any "), AROUND("at ", " point"), BEFORE("each "), BEFORE("every "),
	BEFORE("no "), AROUND("on the ", " hand"), BEFORE("that "), BEFORE("the "), BEFORE("this "),
	BEFORE("which "),
};
static const struct phrase p_second[] = {AFTER(" to none")};
/* The size of a rating scale or a ratio's base, not a count: "3.5 out of
 * 5 stars", "8 out of 10 dentists" (the figure before it is the claim, and
 * is checked). "7 out of 19 deaths" is a count still. */
static const struct phrase p_out_of[] = {BEFORE("out of ")};

enum { S_10, S_100, S_24, S_365, S_5, S_7, S_FIRST, S_FIVE, S_ONE, S_SECOND, S_SEVEN, S_TEN, S_COUNT };
#define SET(id, num, p) [id] = {num, p, sizeof(num) - 1, ARRAY_SIZE(p)}
static const struct phrase_set {
	const char *num;
	const struct phrase *p;
	unsigned char nn, np;
} phrase_sets[S_COUNT] = {
	SET(S_10, "10", p_out_of), SET(S_100, "100", p_out_of), SET(S_24, "24", p_24),
	SET(S_365, "365", p_365), SET(S_5, "5", p_out_of), SET(S_7, "7", p_7),
	SET(S_FIRST, "first", p_first), SET(S_FIVE, "five", p_out_of), SET(S_ONE, "one", p_one),
	SET(S_SECOND, "second", p_second), SET(S_SEVEN, "seven", p_seven), SET(S_TEN, "ten", p_out_of),
};

/*
 * The set of the phrases whose number is len bytes long and starts with c
 * (lowercase), or NULL: no two sets' numbers share both, so it is the only
 * set the number can be in. lex_phrases_check() holds every set to it.
 */
static const struct phrase_set *phrase_set(int c, size_t len)
{
	int k;

	switch (c) {
	case '1': k = len == 2 ? S_10 : len == 3 ? S_100 : -1; break;
	case '2': k = len == 2 ? S_24 : -1; break;
	case '3': k = len == 3 ? S_365 : -1; break;
	case '5': k = len == 1 ? S_5 : -1; break;
	case '7': k = len == 1 ? S_7 : -1; break;
	case 'f': k = len == 4 ? S_FIVE : len == 5 ? S_FIRST : -1; break;
	case 'o': k = len == 3 ? S_ONE : -1; break;
	case 's': k = len == 5 ? S_SEVEN : len == 6 ? S_SECOND : -1; break;
	case 't': k = len == 3 ? S_TEN : -1; break;
	default: k = -1; break;
	}
	return k < 0 ? NULL : &phrase_sets[k];
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
static bool citation_year_at(struct numlex_state *lx, size_t i)
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
static int dating_before(struct numlex_state *lx, size_t i)
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
static bool negated_before(struct numlex_state *lx, size_t ws)
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
static unsigned year_side(struct numlex_state *lx, size_t i, bool decade)
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
static unsigned approx_before(struct numlex_state *lx, size_t i)
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
	for (k = 0; k < ARRAY_SIZE(vocab_approx_pairs); k++)
		if (spells(lx, w1.ws, w1.we, vocab_approx_pairs[k].w1) &&
		    spells(lx, w2.ws, w2.we, vocab_approx_pairs[k].w2))
			return NUMLEX_APPROX |
			       (vocab_approx_pairs[k].side && !negated_before(lx, w2.ws) ? vocab_approx_pairs[k].side : 0);
	return side ? NUMLEX_APPROX | (negated_before(lx, w1.ws) ? 0 : side) : 0;
}

/*
 * A word of the answer's own list within three words before i: "here are
 * 5", "these 3", "the following 6", "top 10", "a list of 5", "I'll cover
 * 3", "Below are 4". "share" only right before ("Let me share 7"; "its
 * share rose 5 points" is a claim), "below" and "above" never right before
 * ("fell below 5 points" says less than).
 */
static bool cue_before(struct numlex_state *lx, size_t i)
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
static bool cue_after(struct numlex_state *lx, size_t i)
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
static bool line_starts_before(struct numlex_state *lx, size_t i)
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

static bool list_marker(struct numlex_state *lx, const struct opnd *o)
{
	int c, c1;

	/* (the operand first: most are no bare number, and need no byte read) */
	if (o->kind != K_NUMBER || o->x.words || !whole(&o->x, 0, 999) || o->currency ||
	    o->to != o->x.to)
		return false;
	c = B(lx, o->x.to);
	c1 = B(lx, o->x.to + 1);
	if (c != '.' && c != ')')
		return false;
	if (!(c1 == ' ' || c1 == '\t' || c1 == '\n' || c1 == '\r' || o->x.to + 1 == lx->n))
		return false;
	return line_starts_before(lx, o->x.from);
}

/* NUMLEX_INLINE_ITEM's shape: "N." or "N)" mid-line after a list's separator or a sentence's end. */
static bool inline_item(struct numlex_state *lx, const struct opnd *o)
{
	int c, c1;
	size_t j;

	if (o->kind != K_NUMBER || o->x.words || o->x.comma || o->x.decimals || !whole(&o->x, 1, 999) ||
	    o->currency || o->to != o->x.to || o->from != o->x.from)
		return false;
	c = B(lx, o->x.to);
	c1 = B(lx, o->x.to + 1);
	if (c != '.' && c != ')')
		return false;
	if (!(c1 == ' ' || c1 == '\t' || o->x.to + 1 == lx->n))
		return false;
	j = skip_blanks_back(lx, o->x.from);
	if (j == 0)
		return true;
	c = B(lx, j - 1);
	return c == ',' || c == ';' || c == ':' || ((c == '.' || c == '!' || c == '?') && j < o->x.from);
}

static bool fixed_phrase(struct numlex_state *lx, size_t from, size_t to)
{
	const struct phrase_set *set = phrase_set(lower(B(lx, from)), to - from);
	size_t k;
	int after, after2, before;

	if (!set || !reads(lx, from, set->num))
		return false;
	/* (the two bytes after the number and the one before its blank:
	 * tested first, they turn away most phrases of "one" without a walk) */
	after = lower(B(lx, to));
	after2 = lower(B(lx, to + 1));
	before = lower(B(lx, from - 2));
	for (k = 0; k < set->np; k++) {
		const char *b = set->p[k].before, *a = set->p[k].after;
		size_t nb = set->p[k].nb, na = set->p[k].na;

		if ((na && after != a[0]) || (na >= 2 && after2 != a[1]) ||
		    (nb >= 2 && before != b[nb - 2]))
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
bool lex_names_number(struct numlex_state *lx, const struct word *w)
{
	size_t k, len = w->we - w->ws, upper = 0;
	int c, before = -1;

	if (roles(w) & (R_PRODUCT | R_VERWORD))
		return true;
	/* (each letter read once, the one before it kept) */
	for (k = 0; k < len; k++, before = c) {
		c = B(lx, w->ws + k);
		if (!is_upper(c))
			continue;
		if (is_lower(before))
			return true; /* "iPhone", "macOS", "PlayStation" */
		upper++;
	}
	return upper == len && len >= 2 && len <= 5 && !w->v;
}

/* An identifier's or a version's unit: prefix, then the lowercase letters of [ws, we), then tail. */
bool lex_name_unit(struct numlex_state *lx, char *out, const char *prefix, size_t ws, size_t we,
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

void lex_push(struct out *out, size_t pf, size_t pt, const struct quantity *q, unsigned flags)
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

/*
 * An item past the caller's array: held in kept for the next batch. A step
 * gives at most NUMLEX_STEP_MAX items: each reader's items are of one
 * struct out (lex_flush() once), or a bracket's references (one a number
 * of at most 32 bytes between "[" and "]": 16), or a label's (references()
 * reads 8 at most); and a step begins only with room in the array, so one
 * step's held items always fit. An error all the same, never a drop.
 */
static __attribute__((noinline, cold)) void lex_hold(struct numlex_state *lx,
						     const struct numlex_item *it)
{
	struct numlex *kept = lx->kept;

	if (lx->cap == 0) {
		lx->rc = -EINVAL; /* (no array: no pause could give it) */
		return;
	}
	if (kept->held_to == NUMLEX_STEP_MAX) {
		lx->rc = -EOVERFLOW;
		return;
	}
	kept->held[kept->held_to++] = *it;
}

_Static_assert(sizeof(((struct out *)0)->it) / sizeof(struct numlex_item) <= NUMLEX_STEP_MAX,
	       "one expression's items are one step's");

/*
 * Puts the items of one expression [from, to) in the caller's array, in
 * order of their parts; a full array pauses the pass after this step
 * (rc 1; an error, lex_hold()'s, is below 0).
 */
void lex_flush(struct numlex_state *lx, struct out *out, size_t from, size_t to)
{
	size_t i, j;

	for (i = 1; i < out->n; i++)
		for (j = i; j > 0 && out->it[j - 1].part_from > out->it[j].part_from; j--) {
			struct numlex_item tmp = out->it[j];

			out->it[j] = out->it[j - 1];
			out->it[j - 1] = tmp;
		}
	for (i = 0; i < out->n; i++) {
		out->it[i].from = from;
		out->it[i].to = to;
		if (lx->count < lx->cap) {
			lx->items[lx->count++] = out->it[i];
			/* (no error before: lex_hold() comes after) */
			if (lx->count == lx->cap) {
				lx->rc = 1;
				lx->kept->held_from = lx->kept->held_to = 0;
			}
		} else {
			lex_hold(lx, &out->it[i]);
		}
	}
	for (i = 0; i < out->n; i++)
		if (out->it[i].q.kind == QUANTITY_YEAR)
			lx->year_end = to;
	out->n = 0;
	if (to > lx->done)
		lx->done = to;
}

/* The quantity of an operand's main part. */
void lex_quantity_of(const struct opnd *o, struct quantity *q)
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
void lex_operand_items(const struct opnd *o, unsigned flags, struct out *out)
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
	lex_quantity_of(o, &q);
	if (o->year && (o->kind == K_DATE || o->kind == K_QUARTER)) {
		struct quantity y;

		quantity_set(&y, QUANTITY_YEAR, "date:year", o->year, 1);
		if (!(flags & NUMLEX_RANGE))
			flags |= NUMLEX_PART;
		lex_push(out, o->main_from, o->main_to, &q, flags);
		lex_push(out, o->year_from, o->year_to, &y, (flags & ~(NUMLEX_RANGE | NUMLEX_WORDS)) | NUMLEX_PART);
		return;
	}
	lex_push(out, o->main_from, o->main_to, &q, flags);
}

/* ---- expressions: an operand, or a range of two, with what is around them ---- */

/*
 * Where a range's second operand starts after a ("-", "–", "to", "and" after
 * "between", "or" after a bare figure: *either), or 0. *spaced: a dash with a blank before it, which in lists
 * separates a label from a value ("Month 8 – $26,000").
 */
static size_t range_sep(struct numlex_state *lx, const struct opnd *a, bool between, bool *spaced, bool *either)
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

			lex_set_clock(a, (int)a->x.v, minute, a->seconds, a->clock_prec, b->meridiem);
			if (b->meridiem == U_PM && a->minutes > b->minutes)
				lex_set_clock(a, (int)a->x.v, minute, a->seconds, a->clock_prec, U_AM);
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
static void money_subunit(struct numlex_state *lx, struct opnd *a)
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
	lex_operand(lx, j, &b, 0, j);
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
static unsigned operand_flags(struct numlex_state *lx, const struct opnd *o, size_t from)
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
size_t lex_expression(struct numlex_state *lx, size_t p)
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
	if (start == p && word_before(lx, p, true, &w) && lex_month_word(lx, &w, true)) {
		month = (int)w.v->num;
		start = w.ws;
	}
	lex_operand(lx, start, &a, month, p);
	if (a.kind == K_NONE)
		return MAX(a.to, p + 1);
	if (a.kind == K_SKIP)
		return MAX(a.to, p + 1);
	if (a.kind == K_TEMP && neg_from) {
		a.neg = true;
		a.from = a.main_from = neg_from;
	}
	money_subunit(lx, &a);
	/*
	 * (a citation's year dates weakly: only a modern one, not a count)
	 * What dates a figure makes a year only of four digits that may be one
	 * (to_year() and range_years() ask yearish() of the first figure
	 * before all else): of any other, both are left unread.
	 */
	cite = false;
	dating = 0;
	if (yearish(&a.x)) {
		cite = citation_year_at(lx, a.from);
		dating = cite ? 1 : dating_before(lx, a.from);
	}
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
				lex_operand(lx, j, &b, (int)mw.v->num, k);
			else
				b.kind = K_NONE;
		} else {
			lex_operand(lx, j, &b, 0, j);
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
		lex_operand_items(&a, f | operand_flags(lx, &a, a.from), &out);
		lex_flush(lx, &out, a.from, a.to);
		return MAX(a.to, p + 1);
	}
	if (a.kind == K_DATE && b.kind == K_DATE && !b.year)
		b.to = lex_year_after(lx, &b, b.to, false);
	f = NUMLEX_RANGE;
	if (approx_before(lx, a.from))
		f |= NUMLEX_APPROX; /* no side: a range has two */
	lex_operand_items(&a, f | operand_flags(lx, &b, a.from), &out);
	lex_operand_items(&b, f | operand_flags(lx, &b, a.from), &out);
	lex_flush(lx, &out, a.from, b.to);
	return b.to;
}

const char *lex_phrases_check(void)
{
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(phrase_sets); i++) {
		const struct phrase_set *set = &phrase_sets[i];

		if (!set->num || set->nn != strlen(set->num) || phrase_set(set->num[0], set->nn) != set)
			return set->num ? set->num : "(a set without its number)";
		for (k = 0; k < set->np; k++)
			if (set->p[k].nb != strlen(set->p[k].before) ||
			    set->p[k].na != strlen(set->p[k].after) || set->p[k].nb + set->p[k].na == 0)
				return set->num;
	}
	return NULL;
}
