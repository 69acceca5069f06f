// SPDX-License-Identifier: MIT
/*
 * Days and dates in the grounding: the days and hours a tool gives, weekdays, relative dates
 * ("in 3 days"), today, and the year a date is of. (Split from ground.c by scripts/split.py.)
 */
#include "ground.h"
#include "ground_int.h"

#include "common/fmath.h"
#include "numbers/cardinal.h"
#include "numbers/numlex.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A time said of days is held against the times of those days among this
 * many newest of its unit (a week's opening hours are 14). */
#define DAYS_WALK 256

/* ---- days of the week ---- */

/* The day a word names (0 Monday .. 6 Sunday), or -1. */
static int day_word(const char *w, size_t k)
{
	static const char *const names[7] = {
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	};
	char low[12];
	size_t i;
	int d;

	if (k < 3 || k > 10)
		return -1;
	for (i = 0; i < k; i++)
		low[i] = (char)tolower((unsigned char)w[i]);
	if (low[k - 1] == 's' && k > 6)
		k--; /* "Mondays" */
	for (d = 0; d < 7; d++) {
		size_t full = strlen(names[d]);

		/* The name, or its first three or four letters ("Mon", "Tues", "Thur"). */
		if (k == full ? memcmp(low, names[d], k) == 0
			      : (k == 3 || (k == 4 && d != 0 && d != 4 && d != 6)) &&
				    memcmp(low, names[d], k) == 0)
			return d;
	}
	return -1;
}

static bool is_word(const char *w, size_t k, const char *lit)
{
	return strlen(lit) == k && strncasecmp(w, lit, k) == 0;
}

/* A '-', en or em dash at p, after blanks: "Mon-Fri", "Friday – Sunday". */
static bool dash_at(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p < end && (*p == '-' || (end - p >= 3 && (unsigned char)p[0] == 0xE2 &&
					 (unsigned char)p[1] == 0x80 &&
					 ((unsigned char)p[2] == 0x93 || (unsigned char)p[2] == 0x94)));
}

/* Is "7 " or "seven " just before w (within text)? For "7 days a week". */
static bool seven_before(const char *text, const char *w)
{
	const char *q = w;

	while (q > text && q[-1] == ' ')
		q--;
	if (q > text && q[-1] == '7')
		return q - 1 == text || !isdigit((unsigned char)q[-2]);
	return q - text >= 5 && strncasecmp(q - 5, "seven", 5) == 0 &&
	       (q - 5 == text || !isalpha((unsigned char)q[-6]));
}

unsigned ground_days(const char *text, size_t n)
{
	const char *p = text, *end = text + n, *w, *prev = NULL, *prev2 = NULL;
	unsigned days = 0, said = 0;
	bool excepting = false;
	size_t k, prev_k = 0, prev2_k = 0;
	int from = -1; /* a day before "through", "to", "-": a range's first */

	while (next_word(&p, end, &w, &k)) {
		int d = day_word(w, k);

		/* "daily except Mondays": the days after it are left out */
		if (is_word(w, k, "except") || is_word(w, k, "excluding")) {
			said |= days;
			days = 0;
			from = -1;
			excepting = true;
			continue;
		}

		if (d >= 0) {
			if (from >= 0) {
				int i;

				for (i = from; i != d; i = (i + 1) % 7)
					days |= GROUND_DAY(i);
			}
			days |= GROUND_DAY(d);
			/* A range goes on: "Monday through Friday", "Mon-Fri". */
			from = -1;
			if (dash_at(p, end))
				from = d;
			else {
				const char *q = p, *w2;
				size_t k2;

				if (next_word(&q, end, &w2, &k2) &&
				    (is_word(w2, k2, "through") || is_word(w2, k2, "thru") ||
				     is_word(w2, k2, "to") || is_word(w2, k2, "until") ||
				     is_word(w2, k2, "till"))) {
					from = d;
					p = q;
				}
			}
		} else {
			from = -1;
			if (is_word(w, k, "weekdays") || is_word(w, k, "weekday"))
				days |= 0x1fu;
			else if (is_word(w, k, "weekends") || is_word(w, k, "weekend"))
				days |= GROUND_DAY(5) | GROUND_DAY(6);
			else if (is_word(w, k, "daily") || is_word(w, k, "everyday") ||
				 (is_word(w, k, "day") && prev && is_word(prev, prev_k, "every")) ||
				 (is_word(w, k, "week") && prev && is_word(prev, prev_k, "a") &&
				  prev2 && is_word(prev2, prev2_k, "days") && seven_before(text, prev2)))
				days |= GROUND_DAYS_ALL;
		}
		prev2 = prev;
		prev2_k = prev_k;
		prev = w;
		prev_k = k;
	}
	return excepting ? said & ~days : days;
}

const char *ground_day_name(unsigned days)
{
	static const char *const names[7] = {
		"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
	};
	int d;

	for (d = 0; d < 7; d++)
		if (days == GROUND_DAY(d))
			return names[d];
	return NULL;
}

/* Past "0:0", "00:00" (and blanks around it) at t, or NULL. */
static const char *zero_clock(const char *t)
{
	int k;

	while (*t == ' ')
		t++;
	for (k = 0; *t == '0' && k < 2; k++)
		t++;
	if (k == 0 || *t++ != ':')
		return NULL;
	for (k = 0; *t == '0' && k < 2; k++)
		t++;
	if (k == 0)
		return NULL;
	while (*t == ' ')
		t++;
	return t;
}

/*
 * Is gq a day's hours of "0:0-0:0" (also "00:00-00:00")? An hours record
 * writes so a day it is closed or does not know, not one open all day:
 * it states no time of that day.
 */
static bool closed_day(const struct ground_quantity *gq)
{
	const char *t;

	if (!gq->days || gq->q.kind != QUANTITY_TIME || gq->q.value != 0)
		return false;
	t = zero_clock(gq->text);
	if (!t || *t != '-')
		return false;
	t = zero_clock(t + 1);
	return t && *t == '\0';
}

const struct ground_quantity *ground_check_days(const struct ground *g,
						const struct quantity *a, unsigned days)
{
	const struct ground_quantity *nearest[7] = {NULL}, *worst = NULL;
	double best[7], worst_d = -1;
	unsigned known = 0, stated = 0; /* days with times, and those stating a */
	uint32_t i, walked = 0;
	int d;

	if (g->qcount == 0)
		return NULL;
	for (d = 0; d < 7; d++)
		best[d] = INFINITY;
	/* One walk for all the days asked: each of its times is a day's. */
	for (i = g->units[mix(a->unit_hash)]; i != NIL && walked < DAYS_WALK && stated != days;
	     i = g->ul[i].link.next) {
		const struct ground_quantity *gq = &g->q[i];
		double dist;

		if (g->ul[i].unit_hash != a->unit_hash)
			continue;
		walked++;
		if (!(gq->days & days) || (gq->days & stated))
			continue;
		d = __builtin_ctz(gq->days);
		known |= gq->days;
		if (!closed_day(gq) && quantity_states(a, &gq->q)) {
			stated |= gq->days;
			continue;
		}
		dist = quantity_distance(a, &gq->q);
		if (dist < best[d]) {
			best[d] = dist;
			nearest[d] = gq;
		}
	}
	/* The day said furthest from the answer is the one named. */
	for (d = 0; d < 7; d++)
		if ((known & ~stated & GROUND_DAY(d)) && best[d] > worst_d) {
			worst = nearest[d];
			worst_d = best[d];
		}
	return worst;
}

unsigned ground_days_held(const struct ground *g)
{
	return g->days_seen;
}

const struct ground_quantity *ground_day_time(const struct ground *g)
{
	uint64_t clock = quantity_unit_hash("time:clock");
	uint32_t i, walked = 0;

	if (g->qcount == 0)
		return NULL;
	for (i = g->units[mix(clock)]; i != NIL && walked < DAYS_WALK; i = g->ul[i].link.next) {
		if (g->ul[i].unit_hash != clock)
			continue;
		walked++;
		if (g->q[i].days)
			return &g->q[i];
	}
	return NULL;
}

/* ---- days said relative to another, or to today ---- */

/*
 * A count of days or weeks a word says: "a", "the", a cardinal of 1 to 10
 * ("one" ... "ten", [cardinal] of words/numbers.txt), or 1 to 31 in
 * digits; else 0.
 */
static int rel_count(const char *w, size_t k)
{
	size_t i;
	int v = 0;

	if (k && ascii_digit((unsigned char)w[0])) {
		for (i = 0; i < k && i < 3; i++) {
			if (!ascii_digit((unsigned char)w[i]))
				return 0;
			v = v * 10 + (w[i] - '0');
		}
		return i == k && v >= 1 && v <= GROUND_REL_MAX ? v : 0;
	}
	if ((k == 1 && ascii_lower((unsigned char)w[0]) == 'a') || (k == 2 && strncasecmp(w, "an", 2) == 0) ||
	    (k == 3 && strncasecmp(w, "the", 3) == 0))
		return 1;
	return cardinal_word(w, k, 1, 10);
}

/* Days in a unit word ("day", "days": 1; "week", "weeks": 7), else 0. */
static int rel_unit(const char *w, size_t k)
{
	if ((k == 3 || (k == 4 && ascii_lower((unsigned char)w[3]) == 's')) && strncasecmp(w, "day", 3) == 0)
		return 1;
	if ((k == 4 || (k == 5 && ascii_lower((unsigned char)w[4]) == 's')) && strncasecmp(w, "week", 4) == 0)
		return 7;
	return 0;
}

static bool rel_is(const char *w, size_t k, const char *lit)
{
	return strlen(lit) == k && strncasecmp(w, lit, k) == 0;
}

static void rel_set(uint64_t *mask, int days)
{
	if (days >= -GROUND_REL_MAX && days <= GROUND_REL_MAX)
		*mask |= 1ull << (days + GROUND_REL_MAX);
}

/* The next word or run of digits of t[*i, n): its start and length; false at the end. */
static bool rel_token(const char *t, size_t n, size_t *i, const char **w, size_t *k)
{
	size_t j = *i;

	while (j < n && !ascii_alpha((unsigned char)t[j]) && !ascii_digit((unsigned char)t[j]))
		j++;
	if (j == n)
		return false;
	*w = t + j;
	if (ascii_digit((unsigned char)t[j]))
		while (j < n && ascii_digit((unsigned char)t[j]))
			j++;
	else
		while (j < n && ascii_alpha((unsigned char)t[j]))
			j++;
	*k = (size_t)(t + j - *w);
	*i = j;
	return true;
}

/* Do the k letters at w spell lit (lowercase, n letters), in any case? */
static inline bool letters_are(const char *w, size_t k, const char *lit, size_t n)
{
	size_t i;

	if (k != n)
		return false;
	for (i = 0; i < k; i++)
		if (((unsigned char)w[i] | 0x20) != (unsigned char)lit[i])
			return false;
	return true;
}

/*
 * Is the run of k letters at w a word that ends one of the phrases
 * ground_relative_of() reads? Every phrase rel_phrase() reads ends in one
 * ("tomorrow", "yesterday", "today", "ago", rel_unit()'s "day", "days",
 * "week", "weeks", "before", "earlier", "prior", "after", "later"): no
 * other word sets an offset, so no other is read further.
 */
static bool rel_ends(const char *w, size_t k)
{
	switch ((unsigned char)w[0] | 0x20) {
	case 't':
		return letters_are(w, k, "tomorrow", 8) || letters_are(w, k, "today", 5);
	case 'y':
		return letters_are(w, k, "yesterday", 9);
	case 'a':
		return letters_are(w, k, "ago", 3) || letters_are(w, k, "after", 5);
	case 'd':
		return letters_are(w, k, "day", 3) || letters_are(w, k, "days", 4);
	case 'w':
		return letters_are(w, k, "week", 4) || letters_are(w, k, "weeks", 5);
	case 'b':
		return letters_are(w, k, "before", 6);
	case 'e':
		return letters_are(w, k, "earlier", 7);
	case 'p':
		return letters_are(w, k, "prior", 5);
	case 'l':
		return letters_are(w, k, "later", 5);
	default:
		return false;
	}
}

/* 0 a byte between tokens, 1 a letter, 2 a digit (ASCII, as rel_token() reads them) */
static const uint8_t rel_cls[256] = {
	['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2,
	['5'] = 2, ['6'] = 2, ['7'] = 2, ['8'] = 2, ['9'] = 2,
#define L(c) [c] = 1, [(c) + 32] = 1
	L('A'), L('B'), L('C'), L('D'), L('E'), L('F'), L('G'), L('H'), L('I'),
	L('J'), L('K'), L('L'), L('M'), L('N'), L('O'), L('P'), L('Q'), L('R'),
	L('S'), L('T'), L('U'), L('V'), L('W'), L('X'), L('Y'), L('Z'),
#undef L
};

/*
 * The phrase that the letters t[s, e) may end (rel_ends() said so),
 * read with the three tokens before them: runs of letters or of digits,
 * each as long as it goes (so that read back from s they are the very
 * tokens a reading from the text's start gives), "" for those before the
 * text's start.
 */
static void rel_phrase(const char *t, size_t n, size_t s, size_t e, uint64_t *anchored,
		       uint64_t *today)
{
	const char *w[4]; /* w[3] the phrase's last word */
	size_t k[4], j = s, from;
	unsigned char c;
	int m, unit, cnt;

	w[3] = t + s;
	k[3] = e - s;
	for (m = 2; m >= 0; m--) {
		while (j > 0 && !rel_cls[(unsigned char)t[j - 1]])
			j--;
		if (j == 0) {
			w[m] = "";
			k[m] = 0;
			continue;
		}
		c = rel_cls[(unsigned char)t[j - 1]];
		for (from = j; j > 0 && rel_cls[(unsigned char)t[j - 1]] == c; j--)
			;
		w[m] = t + j;
		k[m] = from - j;
	}
	if (rel_is(w[3], k[3], "tomorrow") || rel_is(w[3], k[3], "yesterday")) {
		int sign = rel_is(w[3], k[3], "tomorrow") ? 1 : -1;

		/* "the day after tomorrow", "the day before yesterday" */
		rel_set(today, rel_is(w[1], k[1], "day") &&
					(rel_is(w[2], k[2], "after") || rel_is(w[2], k[2], "before"))
				       ? 2 * sign
				       : sign);
	} else if (rel_is(w[3], k[3], "today")) {
		rel_set(today, 0);
	} else if (rel_is(w[3], k[3], "ago") && (unit = rel_unit(w[2], k[2])) &&
		   (cnt = rel_count(w[1], k[1]))) {
		rel_set(today, -cnt * unit); /* "3 days ago" */
	} else if ((unit = rel_unit(w[3], k[3])) && (cnt = rel_count(w[2], k[2])) &&
		   rel_is(w[1], k[1], "in") && !rel_is(w[2], k[2], "the")) {
		rel_set(today, cnt * unit); /* "in 3 days", "in a week" */
	} else if ((rel_is(w[3], k[3], "before") || rel_is(w[3], k[3], "earlier") ||
		    rel_is(w[3], k[3], "prior") || rel_is(w[3], k[3], "after") ||
		    rel_is(w[3], k[3], "later")) &&
		   (unit = rel_unit(w[2], k[2])) && (cnt = rel_count(w[1], k[1])) &&
		   /* (not "the days before": no count of them) */
		   !(rel_is(w[1], k[1], "the") && ascii_lower((unsigned char)w[2][k[2] - 1]) == 's')) {
		size_t at = e;
		const char *nw;
		size_t nk;

		/* (the day before yesterday: said at "yesterday") */
		if (unit == 1 && cnt == 1 && rel_token(t, n, &at, &nw, &nk) &&
		    (rel_is(nw, nk, "yesterday") || rel_is(nw, nk, "tomorrow")))
			return;
		rel_set(anchored, (rel_is(w[3], k[3], "after") || rel_is(w[3], k[3], "later") ? 1 : -1) *
					  cnt * unit); /* "the day before", "two weeks later" */
	} else if (rel_is(w[3], k[3], "day") &&
		   (rel_is(w[2], k[2], "next") || rel_is(w[2], k[2], "following"))) {
		rel_set(anchored, 1);
	} else if (rel_is(w[3], k[3], "day") &&
		   (rel_is(w[2], k[2], "previous") || rel_is(w[2], k[2], "prior"))) {
		rel_set(anchored, -1);
	}
}

void ground_relative_of(const char *t, size_t n, uint64_t *anchored, uint64_t *today)
{
	/* The first letters of the words that end a phrase (rel_ends()). */
#define FIRST(c) (1u << ((c) - 'a'))
	const uint32_t firsts = FIRST('t') | FIRST('y') | FIRST('a') | FIRST('d') | FIRST('w') |
				FIRST('b') | FIRST('e') | FIRST('p') | FIRST('l');
#undef FIRST
	uint64_t carry = 0, L, starts, rest;
	size_t base, s, e;
	char pad[64];

	/*
	 * Only a run of letters can end a phrase, and most are ruled out by
	 * their first letter, the rest but the words that end one by their
	 * letters (rel_ends()): they are found by the letters' bits,
	 * 64 bytes at a time, and the tokens before one read back from it
	 * (rel_phrase()), where a reading token by token cost a table look-up
	 * a byte (ground_relative_days_read_either_way holds the two alike).
	 */
	for (base = 0; base < n; base += 64) {
		const char *b = t + base;

		if (n - base < 64) {
			memset(pad, 0, sizeof(pad)); /* (no letter) */
			memcpy(pad, b, n - base);
			b = pad;
		}
		L = letters64(b);
		starts = L & ~(L << 1 | carry);
		carry = L >> 63;
		for (; starts; starts &= starts - 1) {
			unsigned j = (unsigned)__builtin_ctzll(starts);

			if (!(firsts >> (((unsigned char)b[j] | 0x20) - 'a') & 1))
				continue;
			s = base + j;
			/* (a run to the block's end goes on in the text) */
			rest = ~L >> j;
			if (rest)
				e = s + (size_t)__builtin_ctzll(rest);
			else
				for (e = base + 64; e < n && ascii_alpha((unsigned char)t[e]); e++)
					;
			if (rel_ends(t + s, e - s))
				rel_phrase(t, n, s, e, anchored, today);
		}
	}
}

void ground_note_relative(struct ground *g, const char *text, size_t n)
{
	ground_relative_of(text, n, &g->rel_anchored, &g->rel_today);
}

void ground_relatives(const struct ground *g, uint64_t *anchored, uint64_t *today)
{
	*anchored = g->rel_anchored;
	*today = g->rel_today;
}

bool ground_shift_day(unsigned md, unsigned year, int days, unsigned *out_md, unsigned *out_year)
{
	unsigned m = md / 100, d = md % 100, m2, d2;
	int64_t y = year ? year : 2023, y2; /* (no year: one that is not a leap year) */

	if (m < 1 || m > 12 || d < 1 || d > 31 || year > 9999)
		return false;
	civil_of(civil_days(y, m, d) + days, &y2, &m2, &d2);
	*out_md = m2 * 100 + d2;
	*out_year = year ? (unsigned)y2 : 0;
	return true;
}

/* The year written with the grounded day in slot i, or 0. */
static unsigned year_of_slot(const struct ground *g, uint32_t i);

const struct ground_quantity *ground_today(const struct ground *g, unsigned *year)
{
	uint64_t first;
	uint32_t i;

	if (g->qcount == 0 || g->today_seq == UINT64_MAX)
		return NULL;
	first = g->ql[g->qhead].seq;
	if (g->today_seq < first || g->today_seq >= first + g->qcount)
		return NULL; /* evicted */
	i = (uint32_t)((g->qhead + (g->today_seq - first)) % GROUND_CAP);
	*year = year_of_slot(g, i);
	return &g->q[i];
}

const struct ground_quantity *ground_newest_day(const struct ground *g, unsigned *year)
{
	uint64_t day = quantity_unit_hash("date:day");
	uint32_t i;

	if (g->qcount == 0)
		return NULL;
	for (i = g->units[mix(day)]; i != NIL; i = g->ul[i].link.next)
		if (g->ul[i].unit_hash == day && g->q[i].q.scale == 1 && g->q[i].q.kind == QUANTITY_DATE) {
			*year = year_of_slot(g, i);
			return &g->q[i];
		}
	return NULL;
}

/* The most dates of one day ground_date_year() reads. */
#define DATE_YEAR_WALK 64

/*
 * Is a dated day (gd of year, month x 100 + day) within WEEKDAY_REACH
 * days of md, of that year or the next or the one before, which falls on
 * weekday day (0 Monday)? That year then.
 */
#define WEEKDAY_REACH 31

static unsigned weekday_year(unsigned gd, unsigned year, unsigned md, int day)
{
	int64_t from = civil_days(year, gd / 100, gd % 100);
	int dy;

	for (dy = -1; dy <= 1; dy++) {
		int64_t z = civil_days((int64_t)year + dy, md / 100, md % 100);
		unsigned m, d;
		int64_t y;

		/* (the 31st of a month that has none is no day) */
		civil_of(z, &y, &m, &d);
		if (m * 100 + d != md)
			continue;
		if (z - from >= -WEEKDAY_REACH && z - from <= WEEKDAY_REACH && ((z % 7 + 7 + 3) % 7) == day)
			return (unsigned)y;
	}
	return 0;
}

const struct ground_quantity *ground_weekday_day(const struct ground *g, unsigned md, unsigned y)
{
	uint64_t units[2] = {quantity_unit_hash("ordinal:n"), quantity_unit_hash("number")};
	uint64_t day_unit = quantity_unit_hash("date:day");
	uint32_t j, dates;
	size_t u, k;

	if (g->qcount == 0 || md % 100 < 1 || md % 100 > 31 || md / 100 < 1 || md / 100 > 12)
		return NULL;
	for (u = 0; u < 2; u++) {
		const struct walk_memo *m = unit_newest(g, units[u]);

		for (k = 0; k < m->n; k++) {
			const struct ground_quantity *gq = &g->q[m->slot[k]];

			if (gq->q.value != md % 100 || __builtin_popcount(gq->days) != 1)
				continue;
			for (j = g->units[mix(day_unit)], dates = 0; j != NIL && dates < DATE_YEAR_WALK;
			     j = g->ul[j].link.next) {
				unsigned year, at;

				if (g->ul[j].unit_hash != day_unit || g->q[j].q.kind != QUANTITY_DATE ||
				    g->q[j].q.scale != 1)
					continue;
				dates++;
				if (!(year = year_of_slot(g, j)))
					continue;
				at = weekday_year((unsigned)g->q[j].q.value, year, md, __builtin_ctz(gq->days));
				if (at && (!y || at == y))
					return gq;
			}
		}
	}
	return NULL;
}

/* How far apart a date's day and its year are written: "2024-05-26" (5),
 * "May 26, 2024" (8), "26 May 2024". */
#define DATE_YEAR_GAP 16

/* The year written with the grounded date in slot i (the quantity put in
 * just before or after it, near it), or NIL. */
static uint32_t year_beside(const struct ground *g, uint32_t i)
{
	uint64_t seq = g->ql[i].seq, first = g->ql[g->qhead].seq;
	int d;

	for (d = -1; d <= 1; d += 2) {
		uint32_t j = (i + GROUND_CAP + (uint32_t)d) % GROUND_CAP;
		const struct ground_quantity *y = &g->q[j];

		if ((d < 0 && seq == first) || (d > 0 && seq + 1 >= first + g->qcount))
			continue;
		if (y->q.kind == QUANTITY_YEAR && !quantity_is_decade(&y->q) &&
		    (y->at > g->q[i].at ? y->at - g->q[i].at : g->q[i].at - y->at) <= DATE_YEAR_GAP)
			return j;
	}
	return NIL;
}

static unsigned year_of_slot(const struct ground *g, uint32_t i)
{
	uint32_t y = year_beside(g, i);

	return y == NIL ? 0 : (unsigned)g->q[y].q.value;
}

const struct ground_quantity *ground_date_year(const struct ground *g, const struct quantity *day,
					       double year, const struct ground_quantity **date)
{
	const struct ground_quantity *found = NULL;
	uint32_t i, y, walked = 0;

	if (g->qcount == 0 || day->kind != QUANTITY_DATE || day->scale != 1)
		return NULL;
	for (i = g->vals[unit_val_of(day->unit_hash, day->value)]; i != NIL && walked < DATE_YEAR_WALK;
	     i = g->ql[i].val.next) {
		if (g->ql[i].unit_hash != day->unit_hash || g->q[i].q.value != day->value)
			continue;
		walked++;
		y = year_beside(g, i);
		/* That day said without a year, or with this one: nothing differs. */
		if (y == NIL || g->q[y].q.value == year)
			return NULL;
		/* (the list is newest first) */
		if (!found) {
			found = &g->q[y];
			*date = &g->q[i];
		}
	}
	return found;
}

const struct ground_quantity *ground_newest_list(const struct ground *g)
{
	uint32_t j;

	/* From the newest back to the turn's start (asked only of a figure
	 * said as a count of results, so the walk is rare). */
	for (j = 0; j < g->qcount; j++) {
		uint32_t i = (g->qhead + g->qcount - 1 - j) % GROUND_CAP;
		const struct ground_quantity *gq = &g->q[i];

		if (g->ql[i].seq < g->turn)
			return NULL;
		if (gq->q.items && gq->q.kind == QUANTITY_COUNT)
			return gq;
	}
	return NULL;
}

/* The most quantities ground_day_run() reads: a month of days, each with
 * a few figures. */
#define DAY_RUN_WALK 256

unsigned ground_day_run(const struct ground *g, uint64_t seq_from, uint64_t at_from)
{
	static const uint16_t before[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
	uint16_t day[GROUND_DAY_RUN_MAX];
	unsigned n = 0, gaps = 0, i, j;

	for (j = 0; j < g->qcount; j++) {
		uint32_t k = (g->qhead + g->qcount - 1 - j) % GROUND_CAP;
		const struct quantity *q = &g->q[k].q;
		int month, dom;

		if (g->ql[k].seq < seq_from || g->q[k].at < at_from)
			break;
		if (j == DAY_RUN_WALK)
			return 0;
		if (q->kind != QUANTITY_DATE || q->scale != 1)
			continue;
		month = (int)(q->value / 100);
		dom = (int)q->value % 100;
		if (n == GROUND_DAY_RUN_MAX || month < 1 || month > 12 || dom < 1 || dom > 31)
			return 0;
		day[n++] = (uint16_t)(before[month - 1] + dom);
	}
	if (n < 2)
		return 0;
	/* Sorted (a month at most), each the day after the one before; the
	 * year may turn once in between (December 31st, January 1st). */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && day[j - 1] > day[j]; j--) {
			uint16_t t = day[j];

			day[j] = day[j - 1];
			day[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		gaps += (day[(i + 1) % n] + 365 - day[i]) % 365 != 1;
	return gaps == 1 ? n : 0;
}
