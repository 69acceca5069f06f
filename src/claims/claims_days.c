// SPDX-License-Identifier: MIT
/*
 * Days, dates and the clock in a sentence: opening hours and the days they are said of,
 * weekdays and relative dates against the grounded days, years, and times of the clock worked
 * out. (Split from claims.c by scripts/split.py.)
 */
#include "claims.h"
#include "claims_int.h"

#include "common/fmath.h"
#include "ground/attrs.h"
#include "ground/bib.h"
#include "ground/ground.h"
#include "numbers/arith.h"
#include "numbers/numlex.h"
#include "numbers/quantity.h"
#include "wordlists.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#define CLOCK_BEFORE 400

/* Ends the clause of a time's days at a digit, ',', ';', '.', a line break or " and ". */
static size_t clause_after(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (isdigit((unsigned char)p[i]) || p[i] == ',' || p[i] == ';' || p[i] == '.' ||
		    p[i] == '\n')
			return i;
		if (i + 5 <= n && (memcmp(p + i, " and ", 5) == 0 || memcmp(p + i, " but ", 5) == 0))
			return i;
	}
	return n;
}

/*
 * Are p[0, n) only words of the list (any case) and bytes of blanks
 * between them (a UTF-8 byte too, when utf8: an en dash)?
 */
static bool only_words(const char *p, size_t n, const char *const *words, size_t n_words,
		       const char *blanks, bool utf8)
{
	size_t i = 0, k, j;

	while (i < n) {
		if (!isalpha((unsigned char)p[i])) {
			if (!(utf8 && (unsigned char)p[i] >= 0x80) && (!p[i] || !strchr(blanks, p[i])))
				return false;
			i++;
			continue;
		}
		for (k = i; k < n && isalpha((unsigned char)p[k]); k++)
			;
		for (j = 0; j < n_words; j++)
			if (strlen(words[j]) == k - i && strncasecmp(p + i, words[j], k - i) == 0)
				break;
		if (j == n_words)
			return false;
		i = k;
	}
	return true;
}

/* Does [p, p + n) only join two times ("am to", " - ", "pm until")? The
 * words: [time-join] of words/claims.txt, as the other lists of this file. */
static bool joins_times(const char *p, size_t n)
{
	return only_words(p, n, words_time_join, ARRAY_SIZE(words_time_join), " .-", true);
}

/*
 * The days of the week a time is said of: named right after it in its
 * clause ("9am to 5pm on weekdays"), else before it since the last figure
 * or comma ("Monday through Friday from 9am"; "7 days a week" kept whole).
 * Days the rest of the sentence names are its exceptions ("5 pm to 9 pm
 * daily, with extended hours until 10 pm on Fridays"), left out.
 */
/*
 * The length of a clause at p[0, n) that names days and nothing else
 * (", Tuesday through Friday", " Mon - Fri"), up to its end (",", ";",
 * ".", a line's end); 0 when it says anything more.
 */
static size_t days_clause(const char *p, size_t n)
{
	size_t i = 0, k, j;
	bool day = false;

	while (i < n && p[i] != ',' && p[i] != ';' && p[i] != '.' && p[i] != '\n') {
		if (!isalpha((unsigned char)p[i])) {
			/* blanks, "-", "&", an en dash's bytes */
			if (isalnum((unsigned char)p[i]) || ((unsigned char)p[i] < 0x80 && p[i] != ' ' &&
							     p[i] != '\t' && p[i] != '-' && p[i] != '&' &&
							     p[i] != '(' && p[i] != ')'))
				return 0;
			i++;
			continue;
		}
		for (k = i; k < n && isalpha((unsigned char)p[k]); k++)
			;
		if (ground_days(p + i, k - i))
			day = true;
		else {
			for (j = 0; j < ARRAY_SIZE(words_day_join); j++)
				if (strlen(words_day_join[j]) == k - i &&
				    strncasecmp(p + i, words_day_join[j], k - i) == 0)
					break;
			if (j == ARRAY_SIZE(words_day_join))
				return 0;
		}
		i = k;
	}
	return day ? i : 0;
}

/* Are p[0, n) only words that lead to opening hours ("it opens at", "from": [opening])? */
static bool opening_words(const char *p, size_t n)
{
	return only_words(p, n, words_opening, ARRAY_SIZE(words_opening), " \t:", false);
}

unsigned days_said(struct claims *c, const struct held *h, uint64_t end)
{
	const char *p, *a;
	size_t n, na, i, j, k, m;
	unsigned days, rest;

	a = window_get(c->w, h->to, MIN(end, h->to + 160), &na);
	k = clause_after(a, na);
	days = ground_days(a, k);
	rest = ground_days(a + k, na - k);
	/* "from 7 am to 3 pm, Tuesday through Friday": days after a comma,
	 * when the clause there names nothing else */
	if (!days && k < na && a[k] == ',' && (m = days_clause(a + k + 1, na - k - 1))) {
		days = ground_days(a + k + 1, m);
		rest = ground_days(a + k + 1 + m, na - k - 1 - m);
	}
	if (!days) {
		p = window_get(c->w, MAX(c->start, h->from > 160 ? h->from - 160 : 0), h->from, &n);
		for (i = n, j = n; i > 0 && p[i - 1] != ',' && p[i - 1] != ';' && p[i - 1] != '\n'; i--) {
			if (!isdigit((unsigned char)p[i - 1]))
				continue;
			/* "7 days a week from 9am": the digit is the days' */
			if (n - i >= 12 && memcmp(p + i, " days a week", 12) == 0)
				continue;
			/* "from 10:30 am to midnight": past the range's other end */
			if (!joins_times(p + i, j - i))
				break;
			while (i > 1 && (isdigit((unsigned char)p[i - 2]) || p[i - 2] == ':' ||
					 p[i - 2] == '.'))
				i--;
			j = i - 1;
		}
		days = ground_days(p + i, n - i);
		rest = ground_days(a, na);
		/* "open Tuesday through Friday, from 8 am to 3 pm", "On
		 * weekends, it opens at 8": days of the clause before a comma
		 * that says no other figure and no closing, when only such
		 * words lead from the comma to the time (not "with hours
		 * varying between 11am and 10pm") */
		if (!days && i > 0 && p[i - 1] == ',' && opening_words(p + i, n - i)) {
			for (k = i - 1, j = k; j > 0 && p[j - 1] != ',' && p[j - 1] != ';' &&
					       p[j - 1] != '\n' && !isdigit((unsigned char)p[j - 1]);
			     j--)
				;
			if ((j == 0 || !isdigit((unsigned char)p[j - 1])) &&
			    !find_literal(p + j, k - j, "clos", 4) && !find_literal(p + j, k - j, "Clos", 4))
				days = ground_days(p + j, k - j);
		}
	}
	return days & ~rest ? days & ~rest : days;
}

/*
 * A time said as opening hours: "open", "opens", "closes", "hours",
 * "operates" ... among the words before it in its clause, or days said
 * of it ("from 5 pm to 9 pm on weekdays").
 */
bool opening_time(struct claims *c, const struct held *h, uint64_t end)
{
	const char *p;
	size_t n, i, k, e;

	p = window_get(c->w, MAX(c->start, h->from > 64 ? h->from - 64 : 0), h->from, &n);
	for (i = n; i > 0 && p[i - 1] != ',' && p[i - 1] != ';' && p[i - 1] != '\n';) {
		for (e = i; i > 0 && isalpha((unsigned char)p[i - 1]); i--)
			;
		for (k = 0; e > i && k < ARRAY_SIZE(words_hours_stem); k++)
			if (e - i >= strlen(words_hours_stem[k]) &&
			    strncasecmp(p + i, words_hours_stem[k], strlen(words_hours_stem[k])) == 0)
				return true;
		if (e == i)
			i--;
	}
	return days_said(c, h, end) != 0;
}

/*
 * Is a grounded time's text a clock's reading, to the second ("17:30:24"
 * of "2016-03-12 17:30:24", when a review was posted)? Opening hours are
 * never written so. Seconds of 00 are not a reading: a record's scheduled
 * times are written so ("start_time: 2024-06-10 13:00:00").
 */
bool clock_reading(const char *t)
{
	size_t i = 0, k, d = 0;

	for (k = 0; k < 3; k++) {
		d = i;
		while (isdigit((unsigned char)t[i]))
			i++;
		if (i - d < 1 || i - d > 2)
			return false;
		if (k < 2 && t[i++] != ':')
			return false;
	}
	if (strspn(t + d, "0") == i - d)
		return false;
	return t[i] == '\0' || t[i] == '.' || t[i] == 'Z' || t[i] == '+';
}

/*
 * "a 24-hour format", "the 12-hour clock": a way of writing times, no
 * length of anything. The hours said as 12 or 24, the word after them one
 * that names a clock's notation.
 */
bool clock_format(struct claims *c, const struct held *h, uint64_t end)
{
	const char *p;
	size_t n, i = 0, k, j;

	if (quantity_class_of(&h->q) != QC_DURATION || h->q.scale != 3600 ||
	    (h->q.value != 12 * 3600 && h->q.value != 24 * 3600))
		return false;
	p = window_get(c->w, h->to, MIN(end, h->to + 24), &n);
	/* (past "(AM/PM)" or "(HH:MM)" put between: "a 12-hour (AM/PM) format") */
	while (i < n && p[i] == ' ')
		i++;
	if (i < n && p[i] == '(') {
		while (i < n && p[i] != ')')
			i++;
		for (i++; i < n && p[i] == ' '; i++)
			;
	}
	for (k = i; k < n && isalpha((unsigned char)p[k]); k++)
		;
	if (k == i || (k < n && isalnum((unsigned char)p[k])) || (k == n && h->to + n < end))
		return false;
	for (j = 0; j < ARRAY_SIZE(words_clock_format); j++)
		if (strlen(words_clock_format[j]) == k - i &&
		    strncasecmp(p + i, words_clock_format[j], k - i) == 0)
			return true;
	return false;
}

/*
 * "open six days a week" where the grounding gives opening hours for six
 * days of the week: the days it counts are those the hours are given of.
 */
bool days_a_week_held(struct claims *c, const struct held *h, uint64_t end)
{
	static const char *const per[] = {"a week", "per week", "each week", "every week"};
	unsigned held = ground_days_held(c->ground);
	const char *p;
	size_t n, i, k;

	if (!held || strcmp(h->q.unit, "seconds") != 0 || h->q.scale != QUANTITY_DAY_SECONDS ||
	    quantity_written(&h->q) != (double)__builtin_popcount(held))
		return false;
	p = window_get(c->w, h->to, MIN(end, h->to + 16), &n);
	for (i = 0; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	for (k = 0; k < ARRAY_SIZE(per); k++)
		if (n - i >= strlen(per[k]) && strncasecmp(p + i, per[k], strlen(per[k])) == 0 &&
		    (n - i == strlen(per[k]) || !isalpha((unsigned char)p[i + strlen(per[k])])))
			return true;
	return false;
}

/* The year p[0, n) is when it is four digits, else 0 (p is not NUL-terminated). */
static unsigned four_digits(const char *p, size_t n)
{
	unsigned y = 0;
	size_t i;

	if (n != 4)
		return 0;
	for (i = 0; i < 4; i++) {
		if (!isdigit((unsigned char)p[i]))
			return 0;
		y = y * 10 + (unsigned)(p[i] - '0');
	}
	return y;
}

/*
 * A day of a month written with a year after today's ("March 3, 2027",
 * "2027-05-01"; this year, a later month): a date ahead is a plan or a
 * prediction, which future_certainty reads, not a fact a source grounds.
 */
bool date_ahead(struct claims *c, const struct held *h, uint64_t end)
{
	unsigned year = 0, month = (unsigned)(h->q.value / 100);
	const char *p;
	size_t n, i = 0, k;

	/* "2027-05-01": the year just before the month */
	p = window_get(c->w, h->from > 5 ? h->from - 5 : 0, h->from, &n);
	if (n == 5 && p[4] == '-')
		year = four_digits(p, 4);
	if (!year) {
		/* "March 3, 2027" */
		p = window_get(c->w, h->to, MIN(end, h->to + 8), &n);
		if (i < n && p[i] == ',')
			i++;
		while (i < n && p[i] == ' ' && i < 3)
			i++;
		for (k = i; k < n && isdigit((unsigned char)p[k]); k++)
			;
		year = four_digits(p + i, k - i);
	}
	return year && year * 100 + month > c->today;
}

/*
 * Is the year h said as a deadline ("by 2027") or as the date of a work
 * ("a 2024 study", "2024 surveys": words_works[], words/claims.txt)? Such
 * a year is no event's that the grounding dates.
 */
bool year_of_other_role(struct claims *c, const struct held *h, uint64_t end)
{
	uint64_t lo = h->from > 3 ? h->from - 3 : 0;
	const char *p;
	size_t n, i, k;

	p = window_get(c->w, lo, h->from, &n);
	if (n == 3 && n == h->from - lo && strncasecmp(p, "by ", 3) == 0 &&
	    (lo == c->w->base || !isalpha((unsigned char)*window_get(c->w, lo - 1, lo, &k))))
		return true;
	p = window_get(c->w, h->to, MIN(end, h->to + 10), &n);
	if (n < 2 || p[0] != ' ')
		return false;
	for (i = 0; i < ARRAY_SIZE(words_works); i++) {
		k = strlen(words_works[i]);
		if (n >= k + 1 && strncasecmp(p + 1, words_works[i], k) == 0 &&
		    (n == k + 1 || !isalpha((unsigned char)p[k + 1])))
			return true;
	}
	return false;
}

/*
 * The day of a month a date's year h is written with ("May 26, 2287",
 * "2287-05-26": the lexer gives the day and its year as parts of one
 * expression), or NULL; *month_only: the month alone ("March 2285").
 */
const struct held *date_of_year(const struct claims *c, const struct held *h,
				       bool *month_only)
{
	size_t i = (size_t)(h - c->held), k;

	if (h->q.kind != QUANTITY_YEAR || quantity_is_decade(&h->q) || !(h->nl_flags & NUMLEX_PART))
		return NULL;
	/* (held in the order of the text: the year before "05-26" or after "May 26") */
	for (k = i ? i - 1 : i + 1; k <= i + 1 && k < c->n_held; k += 2) {
		const struct held *d = &c->held[k];

		if (d->lexed && d->expr_from == h->expr_from && d->q.kind == QUANTITY_DATE) {
			*month_only = d->q.scale != 1;
			return d;
		}
	}
	return NULL;
}

/*
 * A date's year the grounding gives that day with another year: "May 26,
 * 2287" of a tool's 2024-05-26 is reported as differing from it, the
 * grounding's date named as written ("2024-05-26", "May 26, 2024").
 */
bool date_year_changed(struct claims *c, struct held *h, const struct held *day)
{
	const struct ground_quantity *y, *date = NULL;
	size_t off = c->text.len;

	y = ground_date_year(c->ground, &day->q, h->q.value, &date);
	if (!y)
		return false;
	h->grounded_at = MIN(y->at, date->at);
	if ((y->at < date->at ? buf_adds(&c->text, y->text) < 0 || buf_addc(&c->text, '-') < 0 ||
					buf_adds(&c->text, date->text) < 0
			      : buf_adds(&c->text, date->text) < 0 || buf_adds(&c->text, ", ") < 0 ||
					buf_adds(&c->text, y->text) < 0) ||
	    buf_addc(&c->text, '\0') < 0)
		return true; /* reported as ungrounded: the weaker claim */
	h->source_off = off;
	return true;
}

/* The year written with the day h ("May 21, 2024", "2024-05-21"), or 0. */
static unsigned year_of_day(const struct claims *c, const struct held *h)
{
	size_t i = (size_t)(h - c->held), k;
	bool month_only;

	for (k = i ? i - 1 : i + 1; k <= i + 1 && k < c->n_held; k += 2)
		if (date_of_year(c, &c->held[k], &month_only) == h)
			return (unsigned)c->held[k].q.value;
	return 0;
}

/* Is md (month x 100 + day) a day the grounding states? Its quantity, or NULL. */
static const struct ground_quantity *day_grounded(struct claims *c, unsigned md)
{
	struct ground_context none = {0};
	const struct ground_quantity *gq;
	enum ground_verdict v;
	struct quantity q;

	quantity_set(&q, QUANTITY_DATE, "date:day", md, 1);
	gq = ground_match_quantity(c->ground, &q, &none, 0, &v);
	return v == GROUND_STATED ? gq : NULL;
}

/*
 * Does an offset of mask (bit k + GROUND_REL_MAX: k days) take the day
 * from (of year, 0 unknown) to the day h says (md, of year y, 0: any)?
 * Then how says so ("05-28 - 1 day") and true.
 */
static bool shifted_to(uint64_t mask, unsigned from, unsigned year, unsigned md, unsigned y,
		       const char *anchor, char *how, size_t n)
{
	int k;

	for (k = -GROUND_REL_MAX; k <= GROUND_REL_MAX; k++) {
		unsigned to, ty;

		if (!(mask >> (k + GROUND_REL_MAX) & 1) ||
		    !ground_shift_day(from, y && !year ? y : year, k, &to, &ty) || to != md ||
		    (y && ty && ty != y))
			continue;
		snprintf(how, n, "%s %c %d day%s", anchor, k < 0 ? '-' : '+', abs(k), abs(k) == 1 ? "" : "s");
		return true;
	}
	return false;
}

/* The days "the 28th" and the like name in p[0, n): 1 to 31 with "st", "nd", "rd" or "th". */
static size_t ordinal_days(const char *p, size_t n, unsigned *out, size_t max)
{
	size_t i, k = 0;

	for (i = 0; i < n && k < max; i++) {
		unsigned v = 0;
		size_t j = i;

		if (!isdigit((unsigned char)p[i]) || (i && isalnum((unsigned char)p[i - 1])))
			continue;
		while (j < n && j < i + 2 && isdigit((unsigned char)p[j]))
			v = v * 10 + (unsigned)(p[j++] - '0');
		if (j + 2 <= n && v >= 1 && v <= 31 &&
		    (strncasecmp(p + j, "st", 2) == 0 || strncasecmp(p + j, "nd", 2) == 0 ||
		     strncasecmp(p + j, "rd", 2) == 0 || strncasecmp(p + j, "th", 2) == 0) &&
		    (j + 2 == n || !isalnum((unsigned char)p[j + 2])))
			out[k++] = v;
		i = j;
	}
	return k;
}

/*
 * A day the grounding does not state, said relative to one it does:
 * "May 27th, the day before your meeting on the 28th" (a grounded day of
 * its sentence), "tomorrow (May 21)" or a user's "tomorrow" (today: the
 * day the grounding says is today's), a user's "a day before" (the
 * grounding's newest day). Grounded, and how said, when the offset takes
 * one to it.
 */
bool relative_date(struct claims *c, struct held *h, uint64_t end)
{
	unsigned md = (unsigned)h->q.value, y = year_of_day(c, h), year, days[8];
	uint64_t anchored = 0, today = 0, conv_anchored, conv_today;
	const struct ground_quantity *gq;
	char how[64], anchor[24];
	const char *p;
	size_t n, i, k;
	bool found = false;

	p = window_get(c->w, c->start, end, &n);
	if (n != end - c->start)
		return false;
	ground_relative_of(p, n, &anchored, &today);
	ground_relatives(c->ground, &conv_anchored, &conv_today);
	if (!(anchored | today | conv_anchored | conv_today))
		return false;
	/* from today */
	if ((today | conv_today) && (gq = ground_today(c->ground, &year))) {
		snprintf(anchor, sizeof(anchor), "today %.12s", gq->text);
		found = shifted_to(today | conv_today, (unsigned)gq->q.value, year, md, y, anchor, how,
				   sizeof(how));
		if (found)
			h->grounded_at = gq->at;
	}
	/* from a grounded day said in the sentence: a date, or "the 28th" of its month or the next */
	for (i = 0; !found && anchored && i < c->n_held; i++) {
		const struct held *a = &c->held[i];

		if (a == h || !a->lexed || a->q.kind != QUANTITY_DATE || a->q.scale != 1 ||
		    !(gq = day_grounded(c, (unsigned)a->q.value)))
			continue;
		found = shifted_to(anchored, (unsigned)a->q.value, year_of_day(c, a), md, y, gq->text, how,
				   sizeof(how));
		if (found)
			h->grounded_at = gq->at;
	}
	for (i = 0, k = anchored && !found ? ordinal_days(p, n, days, ARRAY_SIZE(days)) : 0; !found && i < 2 * k; i++) {
		unsigned m = md / 100 + (unsigned)(i % 2), a = (m > 12 ? 1 : m) * 100 + days[i / 2];

		if (a == md || !(gq = day_grounded(c, a)))
			continue;
		found = shifted_to(anchored, a, 0, md, y, gq->text, how, sizeof(how));
		if (found)
			h->grounded_at = gq->at;
	}
	/* from the newest grounded day, by an offset the conversation spoke of */
	if (!found && conv_anchored && (gq = ground_newest_day(c->ground, &year))) {
		found = shifted_to(conv_anchored, (unsigned)gq->q.value, year, md, y, gq->text, how,
				   sizeof(how));
		if (found)
			h->grounded_at = gq->at;
	}
	if (!found)
		return false;
	return grounded_how(c, h, how, h->grounded_at);
}

/*
 * A day said, with its weekday, as the grounding's weekday and day of the
 * month (ground_weekday_day()): "Saturday (May 18th)" of "Saturday 18th".
 * (The answer names the weekday too: a day that only happens to be one the
 * grounding names so is another day.)
 */
bool weekday_day(struct claims *c, struct held *h, uint64_t end)
{
	const struct ground_quantity *gq;
	const char *p;
	char how[64];
	size_t n;

	p = window_get(c->w, c->start, end, &n);
	if (n != end - c->start)
		return false;
	gq = ground_weekday_day(c->ground, (unsigned)h->q.value, year_of_day(c, h));
	if (!gq || !(ground_days(p, n) & gq->days))
		return false;
	snprintf(how, sizeof(how), "%s %.12s", ground_day_name(gq->days), gq->text);
	return grounded_how(c, h, how, gq->at);
}

/*
 * "The current date is 2024-05-15, so the upcoming Saturday would be
 * 2024-05-18": the first day after a grounded day of its sentence, or
 * after today's, that falls on the weekday the sentence names after
 * "upcoming", "next", "coming", "this" or "following" (words_weekday_lead[],
 * words/claims.txt). A year must be
 * known (the day's or its anchor's): the weekday depends on it.
 */
bool upcoming_weekday(struct claims *c, struct held *h, uint64_t end)
{
	unsigned md = (unsigned)h->q.value, y = year_of_day(c, h), year = 0, names = 0;
	const struct ground_quantity *gq = NULL;
	const char *p;
	char how[64];
	size_t n, i, j, k, w;
	int day = -1;

	p = window_get(c->w, c->start, end, &n);
	if (n != end - c->start)
		return false;
	/* the weekday after one of the lead words: one, and only one, named so */
	for (i = 0; i < n; i = k) {
		while (i < n && !isalpha((unsigned char)p[i]))
			i++;
		for (k = i; k < n && isalpha((unsigned char)p[k]); k++)
			;
		for (j = 0; j < ARRAY_SIZE(words_weekday_lead); j++)
			if (strlen(words_weekday_lead[j]) == k - i &&
			    strncasecmp(p + i, words_weekday_lead[j], k - i) == 0)
				break;
		if (j == ARRAY_SIZE(words_weekday_lead) || k >= n || p[k] != ' ')
			continue;
		for (w = k + 1; w < n && isalpha((unsigned char)p[w]); w++)
			;
		unsigned d = ground_days(p + k + 1, w - k - 1);

		if (d && ground_day_name(d)) {
			names |= d;
			for (day = 0; !(d >> day & 1); day++)
				;
		}
	}
	if (day < 0 || !ground_day_name(names))
		return false;
	/* from a grounded day said in the sentence, else from today's */
	for (i = 0; i <= c->n_held; i++) {
		const struct held *a = i < c->n_held ? &c->held[i] : NULL;
		unsigned from, ay, to, ty;
		int shift;

		if (a && (a == h || !a->lexed || a->q.kind != QUANTITY_DATE || a->q.scale != 1 ||
			  !(gq = day_grounded(c, (unsigned)a->q.value))))
			continue;
		if (a) {
			from = (unsigned)a->q.value;
			ay = year_of_day(c, a);
		} else if ((gq = ground_today(c->ground, &ay))) {
			from = (unsigned)gq->q.value;
		} else {
			break;
		}
		year = ay ? ay : y;
		if (!year || (ay && y && ay != y && !(from > md && y == ay + 1)))
			continue;
		for (shift = 1; shift <= 7; shift++)
			if (ground_shift_day(from, year, shift, &to, &ty) && to == md &&
			    (!y || ty == y) && ground_weekday(to, ty) == day) {
				snprintf(how, sizeof(how), "%.12s + %d day%s (%s)", gq->text, shift,
					 shift == 1 ? "" : "s", ground_day_name(names));
				return grounded_how(c, h, how, gq->at);
			}
	}
	return false;
}

/* How many nights "3 nights", "a 3-night stay" says in p[0, n): the last said before p[at], else
 * the first after; 0: none. */
static unsigned nights_said(const char *p, size_t n, size_t at)
{
	unsigned best = 0;
	size_t i = 0, j, dist = SIZE_MAX;

	while (i < n && (i < at || dist == SIZE_MAX)) {
		unsigned v = 0;

		if (!isdigit((unsigned char)p[i]) ||
		    (i > 0 && (isalnum((unsigned char)p[i - 1]) || p[i - 1] == '.'))) {
			i++;
			continue;
		}
		for (j = i; j < n && isdigit((unsigned char)p[j]); j++)
			v = v < 1000 ? v * 10 + (unsigned)(p[j] - '0') : v;
		/* (the nearest before it, "3 nights in Paris (January 1-4)"; else the first after) */
		if (j + 6 <= n && (p[j] == ' ' || p[j] == '-') && strncasecmp(p + j + 1, "night", 5) == 0 &&
		    v > 0 && (i < at || dist == SIZE_MAX)) {
			dist = i;
			best = v;
		}
		i = j;
	}
	return best;
}

/*
 * "3 nights in Paris (January 1-4)" where the user's trip starts on the
 * 1st of January: a range of days whose first the grounding states and
 * whose last is as many days on as the nights its clause counts (48
 * bytes before it, 24 after, on its line). The first day must be stated:
 * a range that starts where another the reply worked out ends ("2 nights
 * in London (January 4-6)") is the reply's own plan, checked as before.
 */
bool nights_range(struct claims *c, struct held *h, uint64_t end)
{
	const struct held *o = range_other(c, h);
	const struct ground_quantity *gq;
	uint64_t lo = MAX(c->start, h->from > 48 ? h->from - 48 : 0);
	unsigned nights, to, ty, y;
	const char *p;
	char how[64];
	size_t n, i;

	if (!o || o > h || o->q.kind != QUANTITY_DATE || o->q.scale != 1 ||
	    !(gq = day_grounded(c, (unsigned)o->q.value)))
		return false;
	p = window_get(c->w, lo, MIN(end, h->to + 24), &n);
	if (n != MIN(end, h->to + 24) - lo)
		return false;
	/* (its line only) */
	for (i = (size_t)(h->from - lo); i > 0 && p[i - 1] != '\n'; i--)
		;
	p += i;
	n -= i;
	lo += i;
	for (i = 0; i < n && p[i] != '\n'; i++)
		;
	nights = nights_said(p, i, (size_t)(h->from - lo));
	y = year_of_day(c, o);
	if (!nights || nights > 60 ||
	    !ground_shift_day((unsigned)o->q.value, y, (int)nights, &to, &ty) || to != (unsigned)h->q.value)
		return false;
	snprintf(how, sizeof(how), "%.12s + %u night%s", gq->text, nights, nights == 1 ? "" : "s");
	return grounded_how(c, h, how, gq->at);
}

/*
 * A range of clock times that ends when it starts, or an hour or few
 * before it ("2:00 PM - 2:00 PM", "12:00-11:00"): whatever grounds each
 * end, they are no one event's start and end; agents write it when they
 * take one end from another record or slip an hour. Said of the end (h,
 * the second of the two held). A range across midnight ("10 PM - 2 AM",
 * "22:00-06:00") ends more than six hours "before" it starts and is none.
 * (A record of no length, a reminder from 21:00 to 21:00, said as the tool
 * gives it is reported too: ground_range_held() pairs any two neighbours
 * in either order, which would let the plants through; 1 of 145 records
 * of the agent corpus has one.) Reported with the two ends said.
 */
bool clock_range_backwards(struct claims *c, struct held *h)
{
	const struct held *o = range_other(c, h);
	char how[64];
	double s, e;
	size_t off = c->text.len;

	if (!o || o > h || o->q.kind != QUANTITY_TIME || h->q.kind != QUANTITY_TIME)
		return false;
	s = o->q.value;
	e = h->q.value;
	if (!(e <= s && s - e <= 360))
		return false;
	snprintf(how, sizeof(how), "it starts at %02u:%02u and ends at %02u:%02u",
		 (unsigned)s / 60 % 24, (unsigned)s % 60, (unsigned)e / 60 % 24, (unsigned)e % 60);
	if (buf_add(&c->text, how, strlen(how) + 1) == 0)
		h->source_off = off;
	h->total = CLAIM_TIME_BACKWARDS;
	return true;
}

/* Is a week said in p[0, n) ("weekly", "a week", "the week", "week-long")? */
bool week_said(const char *p, size_t n)
{
	static const char *const weeks[] = {"eekly", "eek-long", "a week", "the week", "one week",
					    "per week"};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(weeks); k++) {
		const char *w = memmem(p, n, weeks[k], strlen(weeks[k]));
		size_t at = w ? (size_t)(w - p) + strlen(weeks[k]) : 0;

		/* ("a weekend" is no week; "weekly", "week-long" are whole) */
		if (w && (at == n || !isalpha((unsigned char)p[at]) || weeks[k][0] == 'e'))
			return true;
	}
	return false;
}

/* Is the time of the clock t one the grounding states, in any writing of
 * it ("13:00", "13:00:00", "1 PM")? */
bool clock_held(const struct claims *c, const struct quantity *t)
{
	static const double scales[] = {1, 1.0 / 60, 60};
	const struct ground_quantity *gq;
	struct quantity m;
	size_t k;

	if ((gq = ground_figure_held(c->ground, t)) && gq->q.kind == QUANTITY_TIME &&
	    gq->q.value == t->value)
		return true;
	for (k = 0; k < ARRAY_SIZE(scales); k++) {
		if (scales[k] == 60 && fmath_fmod(t->value, 60) != 0)
			continue;
		quantity_set(&m, QUANTITY_TIME, "time:clock", t->value, scales[k]);
		if ((gq = ground_figure_held(c->ground, &m)) && gq->q.kind == QUANTITY_TIME &&
		    gq->q.value == t->value)
			return true;
	}
	return false;
}

/*
 * The hours of a length said in two parts, right before its minutes
 * ("1 hour and ", "2 hours ", "12 hours and "): p[0, n) ends where the
 * minutes begin. 0 when it is not such a part.
 */
static unsigned hours_before(const char *p, size_t n)
{
	size_t e = n, d;
	unsigned v = 0, k = 1;

	if (e >= 5 && memcmp(p + e - 5, " and ", 5) == 0)
		e -= 4;
	if (e < 1 || p[--e] != ' ')
		return 0;
	if (e >= 5 && memcmp(p + e - 5, "hours", 5) == 0)
		e -= 5;
	else if (e >= 4 && memcmp(p + e - 4, "hour", 4) == 0)
		e -= 4;
	else
		return 0;
	if (e < 2 || p[--e] != ' ')
		return 0;
	for (d = 0; e > 0 && d < 2 && isdigit((unsigned char)p[e - 1]); d++, k *= 10)
		v += k * (unsigned)(p[--e] - '0');
	if (d == 0 || (e > 0 && (isalnum((unsigned char)p[e - 1]) || p[e - 1] == '.')))
		return 0;
	return v;
}

/*
 * The minutes of a length said in two parts, right after its hours
 * (" and 30 minutes", " 30 minutes", " 30 minute gap"): p[0, n) starts
 * where the hours end. 0 when it is not such a part.
 */
static unsigned minutes_after(const char *p, size_t n)
{
	size_t i = 0;
	unsigned v = 0, d;

	if (n >= 5 && memcmp(p, " and ", 5) == 0)
		i = 5;
	else if (n >= 1 && p[0] == ' ')
		i = 1;
	else
		return 0;
	for (d = 0; i < n && d < 3 && isdigit((unsigned char)p[i]); d++, i++)
		v = v * 10 + (unsigned)(p[i] - '0');
	if (d == 0 || v == 0 || v >= 60 || i + 7 > n || memcmp(p + i, " minute", 7) != 0)
		return 0;
	return v;
}

/*
 * The length in minutes h says, for a gap between two times: a duration
 * (its two parts joined: "1 hour and 30 minutes", each part held alone),
 * or a clock's "01:30" written as a length; -1 when it is neither.
 */
static double length_minutes(struct claims *c, const struct held *h)
{
	double len = -1;
	const char *p;
	size_t np;

	if (h->q.kind == QUANTITY_TIME) {
		/* "01:30": a length, as HH:MM writes it */
		p = window_get(c->w, h->from, h->to, &np);
		if (np >= 5 && p[0] == '0' && h->q.scale == 1 && h->q.value < 720)
			len = h->q.value;
	} else if (quantity_class_of(&h->q) == QC_DURATION && h->q.unit_hash == quantity_unit_hash("seconds") &&
		   h->q.value >= 60 && h->q.value <= 720 * 60) {
		len = h->q.value / 60;
		/* "1 hour and 30 minutes", "1 hour 30 minutes": one length said
		 * in two parts, each held alone; the other part joins it */
		p = window_get(c->w, h->from > c->start + 16 ? h->from - 16 : c->start, h->from, &np);
		if (fmath_fmod(len, 60) != 0)
			len += 60 * (double)hours_before(p, np);
		p = window_get(c->w, h->to, h->to + 16, &np);
		if (fmath_fmod(len, 60) == 0)
			len += (double)minutes_after(p, np);
	}
	return len;
}

/* How far after a length its times are read (clock_gap_after()). */
#define GAP_AFTER 200

/* The most times read there. */
#define GAP_TIMES 6

/*
 * "You have 01:30 (1 hour and 30 minutes) of free time. Your meeting ends
 * at 11:00 and the lunch starts at 12:30": a length said before the two
 * times it is the gap between, in the text after it (GAP_AFTER bytes, to
 * a blank line), each "HH:MM" a time the grounding states. Only to the
 * minute, up to 12 hours, as clock_arith() reads those said before.
 */
bool clock_gap_after(struct claims *c, const struct held *h)
{
	double len = length_minutes(c, h), t[GAP_TIMES];
	const char *p;
	size_t n, i, k = 0, a, b;

	if (len < 1 || len != floor(len))
		return false;
	p = window_get(c->w, h->to, h->to + GAP_AFTER, &n);
	for (i = 0; i + 1 < n && !(p[i] == '\n' && p[i + 1] == '\n'); i++)
		;
	n = MIN(n, i + 1);
	for (i = 0; i + 4 <= n && k < GAP_TIMES; i++) {
		unsigned hh = 0, mm;
		struct quantity q;
		size_t j = i;

		if (!isdigit((unsigned char)p[i]) || (i > 0 && (isalnum((unsigned char)p[i - 1]) ||
								 p[i - 1] == ':' || p[i - 1] == '.')))
			continue;
		for (; j < n && j < i + 2 && isdigit((unsigned char)p[j]); j++)
			hh = hh * 10 + (unsigned)(p[j] - '0');
		if (j + 3 > n || p[j] != ':' || !isdigit((unsigned char)p[j + 1]) ||
		    !isdigit((unsigned char)p[j + 2]) || (j + 3 < n && isdigit((unsigned char)p[j + 3])))
			continue;
		mm = (unsigned)(p[j + 1] - '0') * 10 + (unsigned)(p[j + 2] - '0');
		if (hh > 23 || mm > 59)
			continue;
		quantity_set(&q, QUANTITY_TIME, "time:clock", hh * 60 + mm, 1);
		if (clock_held(c, &q))
			t[k++] = hh * 60 + mm;
		i = j + 2;
	}
	for (a = 0; a < k; a++)
		for (b = 0; b < k; b++)
			if (t[b] - t[a] == len)
				return true;
	return false;
}

/*
 * Time worked out from times the text said before (the newest CLAIMS_CLOCK
 * within CLOCK_BEFORE bytes), each a time the grounding states: a time
 * that is one of them plus a duration the grounding states ("1 PM" and the
 * user's "4 hours": "it ends at 5 PM"), or a length (a duration, or one
 * written as a clock's "01:30") that is the gap between two of them ("ends
 * at 11:00", "lunch at 12:30": "1 hour and 30 minutes"). Only to the
 * minute, up to 12 hours.
 */
bool clock_arith(struct claims *c, struct held *h)
{
	size_t i, j, n = MIN(c->n_clock, (size_t)CLAIMS_CLOCK);
	double len;

	if (h->q.kind == QUANTITY_TIME) {
		for (i = 0; i < n; i++) {
			const struct quantity *t = &c->clock[i];
			const struct ground_quantity *gq;
			double d = fmath_fmod(h->q.value - t->value + 1440, 1440);

			if (c->clock_from[i] + CLOCK_BEFORE < h->from || d < 1 || d > 720 ||
			    !(gq = duration_held(c, d)) || !clock_held(c, t))
				continue;
			h->grounded_at = gq->at;
			return true;
		}
	}
	len = length_minutes(c, h);
	if (len < 1 || len != floor(len))
		return false;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (c->clock[j].value - c->clock[i].value == len &&
			    c->clock_from[i] + CLOCK_BEFORE >= h->from &&
			    c->clock_from[j] + CLOCK_BEFORE >= h->from && clock_held(c, &c->clock[i]) &&
			    clock_held(c, &c->clock[j]))
				return true;
	return false;
}
