// SPDX-License-Identifier: MIT
/*
 * The reporting periods of a text's figures (numlex_period_feed()): which
 * year or quarter a figure is said of, from the items of the number lexer
 * and the words around them (words/numbers.txt: [compared-with],
 * [compared-skip]).
 */
#include "numlex.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/util.h"
#include "wordlists.h"

static int lower_ascii(int c)
{
	return (unsigned)(c - 'A') < 26 ? c + 32 : c;
}

static bool is_digit_ascii(int c)
{
	return (unsigned)(c - '0') < 10;
}

void numlex_periods_reset(struct numlex_periods *b)
{
	*b = (struct numlex_periods){0};
}

static bool ascii_letter(unsigned char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26;
}

/*
 * The word before text[i], across blanks: its start at *ws, its end at
 * *we; false when there is none (anything but a letter or a blank comes
 * first, or the word runs back past lo or 32 bytes).
 */
static bool period_word_before(const char *text, size_t i, size_t lo, size_t *ws, size_t *we)
{
	size_t stop = MAX(i > 32 ? i - 32 : 0, lo), j;

	while (i > stop && (text[i - 1] == ' ' || text[i - 1] == '\t'))
		i--;
	for (j = i; j > stop && ascii_letter((unsigned char)text[j - 1]); j--)
		;
	if (j == i || (j == stop && j > 0 && ascii_letter((unsigned char)text[j - 1])))
		return false;
	*ws = j;
	*we = i;
	return true;
}

static bool period_word_is(const char *w, size_t k, const char *s)
{
	size_t i;

	if (strlen(s) != k)
		return false;
	for (i = 0; i < k; i++)
		if ((w[i] | 0x20) != s[i])
			return false;
	return true;
}

/* A word that says what follows is compared with ([compared-with]). */
static bool period_base_word(const char *w, size_t k)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words_compared_with); i++)
		if (period_word_is(w, k, words_compared_with[i]))
			return true;
	return false;
}

/*
 * Is the period starting at text[from] what something is compared with
 * ("from 2019", "versus Q3", "compared to the third quarter", "than in
 * 2019")? The words before it are read back (no further than lo), past
 * "the", "to", "with", "in" ([compared-skip]).
 */
static bool period_is_base(const char *text, size_t from, size_t lo)
{
	size_t end = from, k, words;

	for (words = 0; words < 4; words++) {
		size_t w, we, i;
		bool skipped = false;

		if (!period_word_before(text, end, lo, &w, &we))
			return false;
		k = we - w;
		if (period_base_word(text + w, k))
			return true;
		for (i = 0; i < ARRAY_SIZE(words_compared_skip); i++)
			skipped |= period_word_is(text + w, k, words_compared_skip[i]);
		if (!skipped)
			return false;
		end = w;
	}
	return false;
}

/*
 * A period said relative to the one reported on, right after a figure at
 * most four words on, none of which says what it is compared with ("$1.67
 * billion in the prior year", "$0.29 a year ago", "up 5% year over year",
 * "grew 3% sequentially"; not "$0.34 compared to last year", whose figure
 * is of the period reported on): QUANTITY_PERIOD_PRIOR_YEAR or _QUARTER,
 * else 0. text[from, n) follows the figure.
 */
static uint32_t relative_after(const char *text, size_t n, size_t from)
{
#define REL(s, quarter) {s, sizeof(s) - 1, quarter}
	static const struct {
		const char *s;
		size_t len;
		bool quarter;
	} phrases[] = {
		REL("prior year", false), REL("prior-year", false), REL("prior fiscal year", false),
		REL("previous year", false), REL("preceding year", false), REL("last year", false),
		REL("year ago", false), REL("year-ago", false), REL("year earlier", false),
		REL("year-earlier", false), REL("year over year", false),
		REL("year-over-year", false), REL("yoy", false), REL("same quarter last year", false),
		REL("same period last year", false), REL("prior quarter", true),
		REL("prior-quarter", true), REL("previous quarter", true),
		REL("preceding quarter", true), REL("last quarter", true), REL("linked quarter", true),
		REL("sequential quarter", true), REL("sequentially", true),
		REL("quarter over quarter", true), REL("quarter-over-quarter", true),
		REL("quarter ago", true), REL("quarter earlier", true),
	};
#undef REL
	size_t i = from, lim = MIN(n, from + 64), words, k, j;
	int first, after;

	/* Every phrase has a "y" or a "q", which most runs of words after a
	 * figure, up to a comma or a sentence's end, lack: one pass rules
	 * those out. */
	for (j = from; j < lim; j++) {
		unsigned char b = (unsigned char)text[j];

		if (ascii_letter(b)) {
			if ((b | 0x20) == 'y' || (b | 0x20) == 'q')
				break;
		} else if (b != ' ' && b != '\t' && b != '-' && b != '\'') {
			return 0;
		}
	}
	if (j == lim)
		return 0;
	for (words = 0; words <= 4; words++) {
		while (i < lim && (text[i] == ' ' || text[i] == '\t'))
			i++;
		/* (every phrase starts with one of five letters) */
		first = i < lim ? lower_ascii((unsigned char)text[i]) : 0;
		if (!first || !strchr("plysq", first))
			k = ARRAY_SIZE(phrases);
		else
			k = 0;
		for (; k < ARRAY_SIZE(phrases); k++) {
			size_t len = phrases[k].len;

			if (len > lim - i || phrases[k].s[0] != first)
				continue;
			for (j = 0; j < len && lower_ascii((unsigned char)text[i + j]) == phrases[k].s[j]; j++)
				;
			after = i + len < n ? (unsigned char)text[i + len] : ' ';
			if (j == len && !ascii_letter((unsigned char)after) && !is_digit_ascii(after))
				return phrases[k].quarter ? QUANTITY_PERIOD_PRIOR_QUARTER
							  : QUANTITY_PERIOD_PRIOR_YEAR;
		}
		for (j = i; j < lim && (ascii_letter((unsigned char)text[j]) ||
					((text[j] == '-' || text[j] == '\'') && j > i)); j++)
			;
		/* a word that ends at a blank, and not one of comparison */
		if (j == i || words == 4 || (j < n && text[j] != ' ' && text[j] != '\t') ||
		    period_base_word(text + i, j - i))
			return 0;
		i = j;
	}
	return 0;
}

static bool period_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool numlex_period_compared(const char *text, size_t from)
{
	size_t lo = from > 160 ? from - 160 : 0, i = from, words;

	for (words = 0; words < 10; words++) {
		size_t s, e, a, z;
		unsigned char last;

		while (i > lo && (text[i - 1] == ' ' || text[i - 1] == '\t'))
			i--;
		if (i == lo || text[i - 1] == '\n' || text[i - 1] == '\r')
			return false;
		e = i;
		while (i > lo && !period_blank((unsigned char)text[i - 1]))
			i--;
		if (i == lo && lo > 0)
			return false; /* a word cut by the 160 bytes: no further */
		s = i;
		/* its letters: "(from", "vs.", "compared," */
		for (a = s; a < e && !ascii_letter((unsigned char)text[a]); a++)
			;
		for (z = a; z < e && ascii_letter((unsigned char)text[z]); z++)
			;
		if (z > a && period_base_word(text + a, z - a))
			return true;
		/* a sentence ended before the period ("2020. Q3 2019") */
		last = (unsigned char)text[e - 1];
		if (last == '.' || last == ';' || last == '!' || last == '?')
			return false;
	}
	return false;
}

/*
 * May the text between a figure and a period after it join them? Words
 * alone, at most 40 bytes: no digit, comma, bracket or sentence end.
 */
static bool period_gap_joins(const char *text, size_t from, size_t to)
{
	size_t i;

	if (to < from || to - from > 40)
		return false;
	for (i = from; i < to; i++) {
		unsigned char c = (unsigned char)text[i];

		if (!ascii_letter(c) && c != ' ' && c != '-' && c != '\'')
			return false;
	}
	return true;
}

/*
 * May a period before a figure be its own? The text between stays in one
 * sentence, at most 120 bytes: no line break, ';' or sentence end.
 */
static bool period_gap_same_sentence(const char *text, size_t from, size_t to)
{
	size_t i;

	if (to < from || to - from > 120)
		return false;
	for (i = from; i < to; i++)
		if (text[i] == '\n' || text[i] == ';' || text[i] == '.' || text[i] == '!' ||
		    text[i] == '?')
			return false;
	return true;
}

int numlex_period_feed(struct numlex_periods *b, const char *text, size_t n,
		       const struct numlex_item *it, uint32_t *period)
{
	const struct quantity *q = &it->q;
	bool same = b->any && it->from == b->last_from;
	bool quarter = q->kind == QUANTITY_BASE && q->unit[0] == 'q' && strcmp(q->unit, "quarter") == 0;
	uint32_t rel;

	b->any = true;
	b->last_from = it->from;
	b->quarter_year = 0;
	b->quarter_year_compared = false;
	*period = 0;
	if (it->flags & (NUMLEX_NOT_CLAIM | NUMLEX_CITATION)) {
		b->fig_open = false;
		return NUMLEX_PERIOD_OTHER;
	}
	/* (a decade is no period: "sales in the 1990s" are of ten years) */
	if (quarter || (q->kind == QUANTITY_YEAR && !quantity_is_decade(q))) {
		bool was_bound;

		/* "between 2030 and 2050", "2019-2020", "Q3 and Q4" (below): a
		 * span of periods, none of which its figure is said of alone. */
		if (it->flags & NUMLEX_RANGE) {
			b->period = 0;
			b->per_bound = b->per_fresh = false;
			b->fig_open = false;
			return NUMLEX_PERIOD_OTHER;
		}
		if (q->kind == QUANTITY_YEAR && same) {
			/* A quarter's year ("Q4 2019", "third quarter of 2020"); a
			 * date's is no period. */
			if (!b->period || b->per_from != it->from || QUANTITY_PERIOD_YEAR(b->period) ||
			    q->value < 1000 || q->value > 9999) {
				b->fig_open = false;
				return NUMLEX_PERIOD_OTHER;
			}
			b->period |= QUANTITY_PERIOD((uint32_t)q->value, 0);
			*period = b->period;
			b->quarter_year = b->period;
			b->quarter_year_compared = numlex_period_compared(text, b->per_from);
			return b->per_bound ? NUMLEX_PERIOD_BINDS : NUMLEX_PERIOD_OTHER;
		}
		if ((quarter && (q->value < 1 || q->value > 4)) ||
		    (!quarter && (q->value < 1000 || q->value > 9999))) {
			b->fig_open = false;
			return NUMLEX_PERIOD_OTHER;
		}
		if (b->period && it->from >= b->per_to && it->from - b->per_to <= 12 &&
		    period_gap_joins(text, b->per_to, it->from)) {
			bool unbind = b->per_bound;

			b->period = 0;
			b->per_bound = b->per_fresh = false;
			b->fig_open = false;
			return unbind ? NUMLEX_PERIOD_BINDS : NUMLEX_PERIOD_OTHER;
		}
		b->period = quarter ? QUANTITY_PERIOD(0, (uint32_t)q->value)
				    : QUANTITY_PERIOD((uint32_t)q->value, 0);
		b->per_from = it->from;
		b->per_to = it->to;
		b->per_base = period_is_base(text, it->from, b->fig_open ? b->fig_to : 0);
		was_bound = b->fig_open && !b->per_base && period_gap_joins(text, b->fig_to, it->from);
		b->per_bound = was_bound;
		b->per_fresh = !was_bound;
		b->fig_open = false;
		*period = b->period;
		return was_bound ? NUMLEX_PERIOD_BINDS : NUMLEX_PERIOD_OTHER;
	}
	if (q->kind == QUANTITY_DATE || q->kind == QUANTITY_TIME || q->kind == QUANTITY_ORDINAL ||
	    q->kind == QUANTITY_IDENT || q->kind == QUANTITY_TEMPERATURE || q->kind == QUANTITY_YEAR) {
		b->fig_open = false;
		return NUMLEX_PERIOD_OTHER;
	}
	/* A figure. The second end of a range is the first's. */
	if (same && b->fig_open && b->fig_from == it->from) {
		*period = b->fig_period_before;
		return NUMLEX_PERIOD_SAME;
	}
	b->fig_from = it->from;
	b->fig_to = it->to;
	b->fig_open = true;
	b->fig_period_before = 0;
	if (b->period && b->per_fresh && !b->per_base && it->from >= b->per_to &&
	    period_gap_same_sentence(text, b->per_to, it->from))
		b->fig_period_before = b->period;
	/* One said relative to the period reported on, right after it, is
	 * nearer (a quarter or year after it binds later, over both). */
	if (it->to <= n && (rel = relative_after(text, n, it->to)))
		b->fig_period_before = rel;
	b->per_fresh = false;
	*period = b->fig_period_before;
	return NUMLEX_PERIOD_FIGURE;
}
