// SPDX-License-Identifier: MIT
/*
 * The search: a figure of the reply judged against the grounded quantities (its bin, a range,
 * a near value, its unit, the lexer's flags), and the swap walks that tell a figure said of
 * the wrong thing. (Split from ground.c by scripts/split.py.)
 */
#include "ground.h"
#include "ground_int.h"

#include "common/fmath.h"
#include "numbers/numlex.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A value range spanning more bins than this is searched by a walk over
 * every quantity instead of bin by bin. */
#define MAX_BINS (8 * SUBBINS)

#define SWAP_SHARED 2

/* A year, date, time, temperature, ordinal or name's digits is judged
 * against those of its value and the newest this many of its unit. */
#define LEXED_WALK 32

static bool share_context(const struct ground_context *a, const struct ground_context *b)
{
	size_t i, j;

	/* A word in common sets a bit in common: no bit, no word. */
	if ((a->mask & b->mask) == 0)
		return false;
	for (i = 0; i < a->n; i++) {
		if (!(b->mask >> (a->word[i] % 64) & 1))
			continue;
		for (j = 0; j < b->n; j++)
			if (a->word[i] == b->word[j])
				return true;
	}
	return false;
}

/*
 * The search for what a written quantity stands against. Every candidate
 * is judged as the walk over the whole set in age order judges it, and the
 * winners are chosen by age as that walk would: the oldest that states a
 * (in context, else anywhere), or the nearest within tolerance that does
 * not, the youngest among equals.
 */
struct qsearch {
	const struct ground *g;
	const struct quantity *a;
	const struct ground_context *ctx;
	uint32_t stated[2], near[2]; /* [in context]: slots, or NIL */
	int stated_close;            /* the closest a stating one is said: closeness() */
	/* Of the stating ones said in a prompt: whether there is one, and the
	 * closest one is said and the most words one shares with a's. */
	bool prompt_states;
	int prompt_close;
	size_t prompt_shared;
	double best[2];
	/* The last figure judged, and what it is to a: a set holds the same
	 * figure many times over (a status in every tool result, a field of
	 * every record), and those are judged in a row. */
	const struct quantity *seen;
	bool seen_states, seen_comparable;
	double seen_distance;
	uint32_t noun; /* count_noun() of a */
	bool stated_only; /* only what states a is looked for (ground_stated_quantity()) */
	/* Judge every candidate the bins and lists give, as before the
	 * filters of judge_candidates() and judge_unit() (tests compare). */
	bool unfiltered;
	/* 0, or the slot + 1 where the walk for the oldest of a's value list
	 * that states a and shares no word with it stopped (settle_unshared()). */
	uint32_t resume;
	/* Where judge() also notes the slots that state a (judge_stating_keep()):
	 * room for cap of them, how many, and whether there were more. */
	uint16_t *collect;
	uint32_t collected, cap;
	bool overflow;
};

/* True when slot i is older than the stated one held in class k (or there is none). */
static bool older_than_stated(const struct qsearch *s, uint64_t seq, int k)
{
	return s->stated[k] == NIL || seq < s->g->ql[s->stated[k]].seq;
}

/* How closely two figures are said: their nearest words, before and after, alike. */
static int closeness(const struct ground_context *a, const struct ground_context *b)
{
	return (a->before1 && a->before1 == b->before1) + (a->after1 && a->after1 == b->after1);
}

/*
 * Whether g states a, is comparable with it and how far: asked once for a
 * run of the same figure. Byte for byte the same is the same figure (a copy
 * that differs only in padding is asked again).
 */
static bool same_figure(const struct quantity *a, const struct quantity *b)
{
	/* Eight bytes at a time, inline: memcmp's call was a third of a long walk. */
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	uint64_t u, v, diff = 0;
	size_t i;

	_Static_assert(sizeof(struct quantity) % 8 == 0, "a quantity is whole 8-byte words");
	/* Most figures met in a walk are other values: their first word differs. */
	memcpy(&u, x, 8);
	memcpy(&v, y, 8);
	if (u != v)
		return false;
	/* (unrolled: a run of the same figure compares every word) */
#pragma GCC unroll 16
	for (i = 8; i < sizeof(*a); i += 8) {
		memcpy(&u, x + i, 8);
		memcpy(&v, y + i, 8);
		diff |= u ^ v;
	}
	return diff == 0;
}

static inline __attribute__((always_inline)) void judge_figure(struct qsearch *s,
								const struct quantity *g)
{
	if (s->seen && same_figure(s->seen, g))
		return;
	s->seen = g;
	s->seen_states = quantity_states(s->a, g);
	s->seen_comparable = !s->seen_states && !s->stated_only && quantity_comparable(s->a, g);
	if (s->seen_comparable)
		s->seen_distance = quantity_distance(s->a, g);
}

/*
 * Does a keep the bound gq says ("under 34 euros" a user asked for, 30
 * euros found)? Then gq is a condition a meets, not a figure a changed.
 */
static bool keeps_bound(const struct quantity *a, const struct ground_quantity *gq)
{
	return (gq->ctx.bound < 0 && a->value < gq->q.value) ||
	       (gq->ctx.bound > 0 && a->value > gq->q.value);
}

/*
 * The word a whole count of a noun names ("3 nights": "night", as
 * word_hash() keys the words of a context), or 0 for any other quantity.
 */
static uint32_t count_noun(const struct quantity *a)
{
	if (a->kind != QUANTITY_COUNT || a->items || a->decimals != 0 || a->words)
		return 0;
	return word_hash(a->unit, strnlen(a->unit, sizeof(a->unit)));
}

/* Do gq's words name the noun a count counts (count_noun())? */
static bool names_noun(uint32_t noun, const struct ground_quantity *gq)
{
	size_t i;

	if (!(gq->ctx.mask >> (noun % 64) & 1))
		return false;
	for (i = 0; i < gq->ctx.n; i++)
		if (gq->ctx.word[i] == noun)
			return true;
	return false;
}

/*
 * Is gq a bare figure written with decimals ("rating": 3.9, "4.0") whose
 * words do not name the noun a count (count_noun()) counts? A measure of
 * another thing, which "3 nights" or "5 stars" were not changed from.
 */
static bool other_measure(uint32_t noun, const struct ground_quantity *gq)
{
	return noun && gq->q.kind == QUANTITY_NUMBER && gq->q.decimals != 0 && !names_noun(noun, gq);
}

/*
 * Is one of two dates a month said alone ("spending in March 2022") and
 * the other a day of it ("the transaction from March 7th")? The day is
 * said within the month, not in place of it: no swap.
 */
static bool month_holds(const struct quantity *a, const struct quantity *b)
{
	return a->kind == QUANTITY_DATE && b->kind == QUANTITY_DATE && (a->scale == 100 || b->scale == 100) &&
	       floor(a->value / 100) == floor(b->value / 100);
}

/*
 * What a stating gq tells but its slot: how closely it is said, and what
 * a prompt's is (maxima, so in any order).
 */
static inline __attribute__((always_inline)) void judge_said(struct qsearch *s,
							      const struct ground_quantity *gq)
{
	/* (only where the answer's figure has a nearest word, and until one
	 * stating figure has both: all the swap rule asks) */
	if (s->stated_close < 2 && (s->ctx->before1 || s->ctx->after1))
		s->stated_close = MAX(s->stated_close, closeness(s->ctx, &gq->ctx));
	if (gq->prompt) {
		s->prompt_states = true;
		s->prompt_close = MAX(s->prompt_close, closeness(s->ctx, &gq->ctx));
		s->prompt_shared = MAX(s->prompt_shared, ground_context_shared(s->ctx, &gq->ctx));
	}
}

static void judge(struct qsearch *s, uint32_t i)
{
	const struct ground *g = s->g;
	const struct ground_quantity *gq = &g->q[i];
	uint64_t seq = g->ql[i].seq;
	bool shared;
	double d;

	judge_figure(s, &gq->q);
	/* The context is compared only where the verdict can change with it. */
	if (s->seen_states) {
		if (s->collect) {
			if (s->collected < s->cap)
				s->collect[s->collected++] = (uint16_t)i;
			else
				s->overflow = true;
		}
		judge_said(s, gq);
		if (!older_than_stated(s, seq, 0) && !older_than_stated(s, seq, 1))
			return;
		shared = share_context(s->ctx, &gq->ctx);
		if (older_than_stated(s, seq, shared))
			s->stated[shared] = i;
		return;
	}
	if (!s->seen_comparable)
		return;
	d = s->seen_distance;
	if (d > s->best[0] && d > s->best[1])
		return;
	if (keeps_bound(s->a, gq) || other_measure(s->noun, gq) || month_holds(s->a, &gq->q))
		return;
	shared = share_context(s->ctx, &gq->ctx);
	if (d < s->best[shared] ||
	    (d == s->best[shared] && (s->near[shared] == NIL || seq > g->ql[s->near[shared]].seq))) {
		s->best[shared] = d;
		s->near[shared] = i;
	}
}

/* Judges the quantities of bin key k of one unit, of the bin list from head. */
static inline __attribute__((always_inline)) void judge_bin_from(struct qsearch *s, uint32_t head,
								  uint64_t unit_hash, int64_t k)
{
	const struct ground *g = s->g;
	uint32_t i;

	for (i = head; i != NIL; i = g->ql[i].bin.next)
		if (g->ql[i].key == k && g->ql[i].unit_hash == unit_hash)
			judge(s, i);
}

/* Judges the quantities of bin key k of one unit. */
static inline __attribute__((always_inline)) void judge_bin(struct qsearch *s, uint64_t unit_hash,
							     int64_t k)
{
	judge_bin_from(s, s->g->bins[bin_of(unit_hash, k)], unit_hash, k);
}

/*
 * Judges the quantities of bin key k of one unit whose value lies in [lo,
 * hi]: a bin is a sixteenth of an octave, and a range's end bins hold
 * values past its ends, which judge_range()'s callers know cannot change
 * the verdict (judge_candidates()).
 */
static inline __attribute__((always_inline)) void judge_bin_within(struct qsearch *s,
								    uint64_t unit_hash, int64_t k,
								    double lo, double hi)
{
	const struct ground *g = s->g;
	uint32_t i;

	for (i = g->bins[bin_of(unit_hash, k)]; i != NIL; i = g->ql[i].bin.next)
		if (g->ql[i].key == k && g->ql[i].unit_hash == unit_hash &&
		    (s->unfiltered || (g->q[i].q.value >= lo && g->q[i].q.value <= hi)))
			judge(s, i);
}

/*
 * Judges the quantities of one unit whose value lies in [lo, hi] (those
 * outside it, the caller knows, cannot change the verdict); false: too wide.
 */
static bool judge_range(struct qsearch *s, uint64_t unit_hash, double lo, double hi)
{
	int64_t k, from, to;

	if (!(lo <= hi))
		return true;
	if (lo <= 0) {
		if (hi < 0)
			return false; /* no quantity is negative; let the walk say so */
		lo = 0;
	}
	from = bin_key(lo);
	to = bin_key(hi);
	if (from == ZERO_KEY && to != ZERO_KEY)
		return false; /* from zero up: every bin below hi */
	if (from != ZERO_KEY && (!isfinite(hi) || to - from > MAX_BINS))
		return false;
	for (k = from;; k++) {
		judge_bin_within(s, unit_hash, k, lo, hi);
		if (k == to)
			break;
	}
	return true;
}

/* The least value bin key k holds (k is not ZERO_KEY). */
static double bin_low(int64_t k)
{
	int64_t e = k >= 0 ? k / SUBBINS : -((-k + SUBBINS - 1) / SUBBINS);
	int64_t sub = k - e * SUBBINS;

	double m = 0.5 + (double)sub / (2.0 * SUBBINS);
	uint64_t bits;
	double p;

	/* 2^e from its bits where it is a normal number (judge_near asks for
	 * every bin it passes, and ldexp costs a call through libm). */
	if (e < -1022 || e > 1023)
		return fmath_ldexp(m, (int)e);
	bits = (uint64_t)(e + 1023) << 52;
	memcpy(&p, &bits, sizeof(p));
	return m * p;
}

/*
 * Judges the quantities of one unit within tolerance of v > 0, from v's
 * bin outwards: a side stops at the first bin that cannot hold anything
 * nearer than the best found so far. False: the range is too wide.
 *
 * Nine in ten bins a side steps to have an empty list (1 MiB of 1%
 * spans), and a side asks its bound only at a bin whose list holds
 * something: judging an empty bin changes nothing, and where the bound
 * stops a side at bin k it stops it at every bin past k (bin_low() grows
 * with k, and so does the distance bound, while best only falls, so worst
 * does), so the same bins are judged, in the same steps. A unit the set
 * holds none of (every figure ground_nothing_judged() asks for)
 * has nothing in any bin: no bin is read. (An unfiltered search walks as
 * before, for the tests that compare.)
 */
static bool judge_near(struct qsearch *s, uint64_t unit_hash, double v, double tolerance)
{
	const struct ground *g = s->g;
	double lo = v / (1 + tolerance), hi = v / (1 - tolerance);
	int64_t from, to, mid, up, down;
	uint32_t head;

	lo -= lo * 1e-9;
	hi += hi * 1e-9;
	from = bin_key(lo);
	to = bin_key(hi);
	if (from == ZERO_KEY || !isfinite(hi) || to - from > MAX_BINS)
		return false;
	if (!s->unfiltered && !ground_holds_unit(g, unit_hash))
		return true;
	mid = bin_key(v);
	judge_bin(s, unit_hash, mid);
	for (up = mid + 1, down = mid - 1; up <= to || down >= from;) {
		/* (with a margin for rounding: a tie at a bin's edge is still judged) */
		double worst = MAX(s->best[0], s->best[1]) * (1 + 1e-9) + 1e-12;

		/* Above v the distance grows with g: a bin is no nearer than its least value. */
		if (up <= to) {
			if ((head = g->bins[bin_of(unit_hash, up)]) == NIL && !s->unfiltered)
				up++;
			else if (1 - v / bin_low(up) <= worst)
				judge_bin_from(s, head, unit_hash, up++);
			else
				up = to + 1;
		}
		/* Below v it shrinks with g: no nearer than the next bin's least value. */
		if (down >= from) {
			if ((head = g->bins[bin_of(unit_hash, down)]) == NIL && !s->unfiltered)
				down--;
			else if (v / bin_low(down + 1) - 1 <= worst)
				judge_bin_from(s, head, unit_hash, down--);
			else
				down = from - 1;
		}
	}
	return true;
}

/*
 * Judges every quantity that can state a, found through the bins, as the
 * first half of judge_candidates() (judge_near_ones() the second); false
 * when a range is too wide for that (the caller walks all).
 *
 * Which candidates can change the verdict, and so which each search gives
 * judge() (a is money, a share, a duration, a count or a bare number; the
 * verdict is the same in any order over any superset of these, every
 * choice in judge() being a max, an oldest or a youngest among equals):
 * - one that states a: a bare number g, or one of a's unit, only where
 *   g (in a's written units) rounds to a's figure and is not moved past
 *   ROUNDING_REL (quantity_rounding_reach()), or equals a (a count of a
 *   noun); a count of another noun only at a's very value; a duration of
 *   days for "3 nights", a duration of years for "40 years" only at theirs.
 *   Nothing else states a: another unit with no conversion, a lexer's kind
 *   (a date, a year: quantity_states() asks them of their own kind only).
 * - one that is near: comparable (a's unit; a bare number, unless a is
 *   money, a share or a duration) and within tolerance, |a - g| <= t * g,
 *   which judge_near() finds bin by bin; at tolerance 0 only a's value.
 *   Near ones count only where nothing states a (match() returns a near
 *   one last) and more than stating ones are looked for: then
 *   judge_near() runs after the stating searches. So the stating ranges
 *   need hold only what can state a: what else of a's unit is there is
 *   near or nothing, and found (or not needed) below.
 * - the value list of a's figure holds the counts and bare numbers of
 *   that value (value_list()): of those, a's unit was judged in the first
 *   range, a bare number of a figure at scale 1 in the second. A lexer's
 *   kind, filed by its unit, neither states nor is comparable with a count
 *   or a bare number: an unfiltered search passes those by as well.
 */
static bool judge_stating_ranges(struct qsearch *s)
{
	const struct quantity *a = s->a;
	double u = quantity_step(a->decimals), t = a->value / a->scale;
	/* Rounding is decided within u * 1e-6 + 1e-12: widen the ranges past it. */
	double slack = u * 1e-6 + 1e-12, lo, hi, reach_lo, reach_hi;
	uint64_t num = quantity_unit_hash("number");
	uint32_t i;

	quantity_rounding_reach(a, &reach_lo, &reach_hi);
	/* Same unit, stating: g / scale rounds to t. */
	lo = t - u / 2 - slack;
	hi = t + u / 2 + slack;
	if (!s->unfiltered) {
		lo = MAX(lo, reach_lo);
		hi = MIN(hi, reach_hi);
	}
	lo *= a->scale;
	hi *= a->scale;
	lo -= fabs(lo) * 1e-9;
	hi += fabs(hi) * 1e-9;
	if (!judge_range(s, a->unit_hash, lo, hi))
		return false;
	/* A bare number, stating: g rounds to t (unscaled, so also for a bare a). */
	lo = t - u / 2 - slack;
	hi = t + u / 2 + slack;
	if (!s->unfiltered) {
		lo = MAX(lo, reach_lo);
		hi = MIN(hi, reach_hi);
	}
	lo -= fabs(lo) * 1e-9;
	hi += fabs(hi) * 1e-9;
	if (!judge_range(s, num, lo, hi))
		return false;
	/* A count of another noun with the same figure states it. */
	if (a->kind != QUANTITY_BASE)
		for (i = s->g->vals[val_of(a->value)]; i != NIL; i = s->g->ql[i].val.next)
			if (s->g->q[i].q.value == a->value &&
			    (s->unfiltered ||
			     (s->g->ql[i].unit_hash != a->unit_hash && s->g->q[i].q.kind <= QUANTITY_BASE &&
			      (a->scale != 1 || s->g->ql[i].unit_hash != num))))
				judge(s, i);
	/* "3 nights": "3 days" states it. */
	if (quantity_nights(a) &&
	    !judge_range(s, quantity_unit_hash("seconds"), a->value * QUANTITY_DAY_SECONDS,
			 a->value * QUANTITY_DAY_SECONDS))
		return false;
	/* "40 years": "the 40th anniversary" states it (an ordinal of years,
	 * filed by its unit, "ordinal:years": value_list()). */
	if (a->scale == QUANTITY_YEAR_SECONDS && a->unit_hash == quantity_unit_hash("seconds"))
		for (i = s->g->vals[unit_val_of(quantity_unit_hash("ordinal:years"), t)]; i != NIL;
		     i = s->g->ql[i].val.next)
			if (s->g->q[i].q.years && s->g->q[i].q.value == t)
				judge(s, i);
	return true;
}

/* Judges what is near a, of its unit or a bare number for a count (judge_candidates()). */
static bool judge_near_ones(struct qsearch *s, double tolerance)
{
	const struct quantity *a = s->a;
	uint64_t num = quantity_unit_hash("number");

	/* Near: |a - g| <= tolerance * g, of the same unit or a bare number for a count. */
	if (tolerance > 0) {
		if (tolerance >= 1 || a->value < 0)
			return false;
		if (a->value == 0)
			return judge_range(s, a->unit_hash, 0, 0) &&
			       (a->kind == QUANTITY_BASE || judge_range(s, num, 0, 0));
		if (!judge_near(s, a->unit_hash, a->value, tolerance))
			return false;
		if (a->kind != QUANTITY_BASE && a->unit_hash != num &&
		    !judge_near(s, num, a->value, tolerance))
			return false;
	} else if (a->value == 0) {
		/* Only an equal value is near at tolerance 0. */
		if (!judge_range(s, a->unit_hash, 0, 0) ||
		    (a->kind != QUANTITY_BASE && !judge_range(s, num, 0, 0)))
			return false;
	} else {
		if (!judge_range(s, a->unit_hash, a->value, a->value) ||
		    (a->kind != QUANTITY_BASE && !judge_range(s, num, a->value, a->value)))
			return false;
	}
	return true;
}

/* Heap order of slots by age: is slot[x] younger than slot[y]? */
static bool younger(const struct ground *g, const uint16_t *slot, size_t x, size_t y)
{
	return g->ql[slot[x]].seq > g->ql[slot[y]].seq;
}

static void sift(const struct ground *g, uint16_t *slot, size_t at, size_t n)
{
	size_t c;
	uint16_t t;

	while ((c = 2 * at + 1) < n) {
		if (c + 1 < n && younger(g, slot, c + 1, c))
			c++;
		if (!younger(g, slot, c, at))
			return;
		t = slot[at];
		slot[at] = slot[c];
		slot[c] = t;
		at = c;
	}
}

/*
 * Puts n slots oldest first. The searches' lists are newest first, so a
 * figure found in one list (most are) is put in order by turning it round;
 * else a heap sort (no room needed, n log n at worst).
 */
static void oldest_first(const struct ground *g, uint16_t *slot, size_t n)
{
	size_t k;
	uint16_t t;

	for (k = 1; k < n && g->ql[slot[k]].seq <= g->ql[slot[k - 1]].seq; k++)
		;
	if (k >= n) {
		for (k = 0; k < n / 2; k++) {
			t = slot[k];
			slot[k] = slot[n - 1 - k];
			slot[n - 1 - k] = t;
		}
		return;
	}
	for (k = n / 2; k-- > 0;)
		sift(g, slot, k, n);
	for (k = n; k-- > 1;) {
		t = slot[0];
		slot[0] = slot[k];
		slot[k] = t;
		sift(g, slot, 0, k);
	}
}

/* Where a figure is kept in a stating memo: a hash of what most tells figures apart. */
static size_t stating_index(const struct quantity *a)
{
	uint64_t v;

	memcpy(&v, &a->value, sizeof(v));
	v ^= a->unit_hash ^ ((uint64_t)a->decimals << 32) ^ ((uint64_t)a->kind << 40);
	v *= 0x9e3779b97f4a7c15ull;
	/* (the product's top byte: its low ones mix less, and 16 MiB of 1%
	 * spans took 0.5% more instructions with bits 32-39) */
	_Static_assert(STATING_FIGURES == 256, "a figure's place is a byte");
	return (size_t)(v >> 56);
}

/* A figure asked for this many times again in one state of the set has
 * its stating slots put oldest first (spans-40 at 4 MiB: 3 costs nothing,
 * 2 0.07%, 1 0.3%; spans-1 gains the same with each). */
#define STATING_SORT_AFTER 3

/*
 * The slots that state a, as judge_stating_ranges() found them, where the
 * set holds the quantities it held then (walk_memos.stating), put oldest
 * first when asked for STATING_SORT_AFTER times again (a set that changes
 * between most searches would sort lists it reads once); else NULL.
 */
static const struct stating_figure *stating_kept(const struct qsearch *s)
{
	const struct ground *g = s->g;
	struct stating_memo *m = &g->memos->stating;
	size_t k = stating_index(s->a);
	struct stating_figure *f = &m->fig[k];

	if (m->epoch != g->epoch || m->qseq != g->qseq) {
		m->epoch = g->epoch;
		m->qseq = g->qseq;
		m->used = 0;
		memset(m->held, 0, sizeof(m->held));
		return NULL;
	}
	if (!(m->held[k / 64] >> (k % 64) & 1) || !same_figure(&f->a, s->a))
		return NULL;
	if (!f->sorted && f->n != UINT32_MAX && ++f->asked >= STATING_SORT_AFTER) {
		oldest_first(g, &m->slot[f->from], f->n);
		f->sorted = true;
	}
	return f;
}

/*
 * judge_stating_ranges(), keeping what it finds states a for the next
 * search of a's figure in the same set (stating_kept()).
 */
static bool judge_stating_keep(struct qsearch *s)
{
	struct stating_memo *m = &s->g->memos->stating;
	size_t k = stating_index(s->a);
	struct stating_figure *f = &m->fig[k];
	bool wide;

	s->collect = &m->slot[m->used];
	s->cap = STATING_SLOTS - m->used;
	s->collected = 0;
	s->overflow = false;
	wide = !judge_stating_ranges(s);
	s->collect = NULL;
	if (s->overflow) {
		/* (no room: this state's memo starts again, for the figures after) */
		m->used = 0;
		memset(m->held, 0, sizeof(m->held));
		return !wide;
	}
	f->a = *s->a;
	f->from = m->used;
	f->n = wide ? UINT32_MAX : s->collected;
	f->asked = 0;
	f->sorted = false;
	m->held[k / 64] |= 1ull << (k % 64);
	m->used += wide ? 0 : s->collected;
	return !wide;
}

/*
 * What judge() does with every quantity that states a, for f's slots.
 * Oldest first, the oldest that shares a word with a and the oldest that
 * does not are each the first of its kind. Once both are found, stated[1]
 * is held, and match() reads what else judge_said() gathers (how closely
 * a stating one is said, the prompts') only to look for a swap where
 * stated_close is below closeness(ctx, ctx): the walk stops once it is not.
 */
static void judge_stating(struct qsearch *s, const struct stating_figure *f)
{
	const struct ground *g = s->g;
	const struct ground_context *ctx = s->ctx;
	const uint16_t *slot = &g->memos->stating.slot[f->from];
	bool found[2] = {false, false}, shared;
	int need = closeness(ctx, ctx);
	uint32_t k, i;

	if (!f->sorted) {
		/* (in any order, as judge() takes them) */
		for (k = 0; k < f->n; k++) {
			i = slot[k];
			judge_said(s, &g->q[i]);
			if (!older_than_stated(s, g->ql[i].seq, 0) && !older_than_stated(s, g->ql[i].seq, 1))
				continue;
			shared = share_context(ctx, &g->q[i].ctx);
			if (older_than_stated(s, g->ql[i].seq, shared))
				s->stated[shared] = i;
		}
		return;
	}
	for (k = 0; k < f->n; k++) {
		i = slot[k];
		if (found[0] && found[1] && s->stated_close >= need)
			break;
		judge_said(s, &g->q[i]);
		if (found[0] && found[1])
			continue;
		shared = share_context(ctx, &g->q[i].ctx);
		if (!found[shared]) {
			found[shared] = true;
			s->stated[shared] = i;
		}
	}
}

/*
 * Judges every quantity that can state a or be near it (the comment above
 * judge_stating_ranges() says which). What states a is kept for the next
 * search of a's figure in the same set, and read from there: an answer
 * says its figures more than once, and between two tool results its
 * figures are all judged against one set (with tool output in 1% of the
 * sentences, 345 searches a state of the set, 61% of them of a figure
 * already asked for in it).
 */
static bool judge_candidates(struct qsearch *s, double tolerance)
{
	const struct stating_figure *f = s->unfiltered ? NULL : stating_kept(s);

	if (f) {
		if (f->n == UINT32_MAX)
			return false;
		judge_stating(s, f);
	} else if (!(s->unfiltered ? judge_stating_ranges(s) : judge_stating_keep(s))) {
		return false;
	}
	/* Stated: nothing near can win over it (match() takes a near one
	 * only where nothing states a), nor was one asked for. */
	if (s->stated[0] != NIL || s->stated[1] != NIL || s->stated_only)
		return true;
	return judge_near_ones(s, tolerance);
}

/*
 * Judges the LEXED_WALK newest quantities of one unit, but for those of
 * a's unit and value: judge_lexed() judged them already (by value), and a
 * second judgement changes nothing.
 */
static void judge_unit(struct qsearch *s, uint64_t unit_hash)
{
	const struct ground *g = s->g;
	const struct quantity *a = s->a;
	const struct walk_memo *m = unit_newest(g, unit_hash);
	/* The values of a's unit that can state a: rounds_to() takes the
	 * figure in a's written units within half a step of a's (not for a
	 * time, which one twelve hours on may state, or a temperature, which
	 * converts: every one of those is judged). */
	bool reach = !s->unfiltered && a->kind != QUANTITY_TIME && a->kind != QUANTITY_TEMPERATURE &&
		     unit_hash == a->unit_hash;
	double lo = -INFINITY, hi = INFINITY;
	uint32_t i, w;

	if (reach) {
		double u = quantity_step(a->decimals), x = quantity_written(a);
		double slack = u * 1e-6 + 1e-12;

		lo = quantity_base(a, x - u / 2 - slack);
		hi = quantity_base(a, x + u / 2 + slack);
		lo -= fabs(lo) * 1e-9 + 1e-12;
		hi += fabs(hi) * 1e-9 + 1e-12;
	}
	for (w = 0; w < m->n && w < LEXED_WALK; w++) {
		i = m->slot[w];
		/* Where a near one cannot count (something states a, or only
		 * stating ones are looked for), only one that states a can
		 * change the verdict. */
		if (reach && (s->stated[0] != NIL || s->stated[1] != NIL || s->stated_only) &&
		    g->q[i].q.kind == a->kind &&
		    !(g->q[i].q.value >= lo && g->q[i].q.value <= hi))
			continue;
		if (unit_hash != a->unit_hash || g->q[i].q.value != a->value ||
		    g->q[i].q.kind == QUANTITY_BASE)
			judge(s, i);
	}
}

/*
 * Judges what can state or be near a quantity of the lexer's kinds: those
 * of its unit (both scales for a temperature), and for a year, an ordinal
 * or a temperature the bare numbers that state it (quantity.h).
 */
static void judge_lexed(struct qsearch *s)
{
	const struct quantity *a = s->a;
	const struct ground *g = s->g;
	uint64_t number = quantity_unit_hash("number");
	double w = quantity_written(a);
	uint32_t i;

	/* Those of its value, however old ("2019" among years: the stating ones),
	 * then the newest of its unit (a month stating a day, near ones). A
	 * list holds every value that hashes to its bucket: each is asked its
	 * value, or an old figure of another would be judged (and found near)
	 * where its hash happens to collide with a's, 1 in 8,192. */
	{
		/* (in locals: judge() is a call, after which fields would be read
		 * again; a list of one value holds tens of a figure said often) */
		const struct qlinks *ql = g->ql;
		const struct ground_quantity *q = g->q;
		uint64_t unit = a->unit_hash;
		double v = a->value;

		uint32_t oldest = NIL;
		bool found[2] = {false, false};

		if (s->unfiltered) {
			for (i = g->vals[unit_val_of(unit, v)]; i != NIL; i = ql[i].val.next)
				if (ql[i].unit_hash == unit && q[i].q.value == v)
					judge(s, i);
		} else {
			/*
			 * A figure said many times (a year in every record) is
			 * tens of entries here, and judge() compared each one's
			 * words with a's: each states a and is older than the
			 * last, so each took a slot. The slots are the oldest
			 * stating one that shares a word with a (stated[1]) and
			 * the oldest that does not (stated[0]): a minimum by seq
			 * each, the same in any order and in parts. A list is
			 * newest first (ground_add_quantity() puts the newest at
			 * its head, and eviction only unlinks), so walked back
			 * from its oldest stating entry the first of each class
			 * is its oldest. Once one shares, the rest can change only
			 * stated[0] while stated[1] is held, which match() reads
			 * for the swap rule's text alone, and that asks for it
			 * only where a swap is found close: settle_unshared()
			 * then finishes the walk (its minimum taken with what
			 * later searches put in stated[0], as any order gives).
			 * The rest judge() does (closeness, prompts, near ones)
			 * is maxima and nearest-youngest: every entry still gets
			 * it, newest first, here.
			 */
			for (i = g->vals[unit_val_of(unit, v)]; i != NIL; i = ql[i].val.next) {
				if (ql[i].unit_hash != unit || q[i].q.value != v)
					continue;
				judge_figure(s, &q[i].q);
				if (!s->seen_states) {
					judge(s, i);
					continue;
				}
				judge_said(s, &q[i]);
				oldest = i;
			}
			/* Then from the oldest up. */
			for (i = oldest; i != NIL; i = ql[i].val.prev) {
				bool shared;

				if (ql[i].unit_hash != unit || q[i].q.value != v)
					continue;
				judge_figure(s, &q[i].q);
				if (!s->seen_states)
					continue;
				shared = share_context(s->ctx, &q[i].ctx);
				if (found[shared])
					continue;
				found[shared] = true;
				if (older_than_stated(s, ql[i].seq, shared))
					s->stated[shared] = i;
				if (shared) {
					if (!found[0] && ql[i].val.prev != NIL)
						s->resume = ql[i].val.prev + 1;
					break;
				}
			}
		}
	}
	if (a->kind == QUANTITY_TEMPERATURE) {
		judge_unit(s, quantity_unit_hash("temp:c"));
		judge_unit(s, quantity_unit_hash("temp:deg"));
	} else {
		judge_unit(s, a->unit_hash);
	}
	/* "35th anniversary": the durations written "35 years" state it. */
	if (a->years) {
		uint64_t seconds = quantity_unit_hash("seconds");

		for (i = g->writ[written_list(seconds, w)]; i != NIL; i = g->ql[i].written.next)
			if (g->ql[i].unit_hash == seconds && quantity_written(&g->q[i].q) == w)
				judge(s, i);
	}
	if (a->kind != QUANTITY_YEAR && a->kind != QUANTITY_ORDINAL && a->kind != QUANTITY_TEMPERATURE)
		return;
	for (i = g->writ[written_list(number, w)]; i != NIL; i = g->ql[i].written.next)
		if (g->ql[i].unit_hash == number && quantity_written(&g->q[i].q) == w)
			judge(s, i);
	/* A Fahrenheit figure is stated by a bare number in either scale. */
	if (a->kind == QUANTITY_TEMPERATURE)
		for (i = g->writ[written_list(number, a->value)]; i != NIL; i = g->ql[i].written.next)
			if (g->ql[i].unit_hash == number && quantity_written(&g->q[i].q) == a->value)
				judge(s, i);
}

/*
 * A figure stated elsewhere but said where the grounding says another
 * figure of its unit: the best such candidate among the SWAP_WALK newest
 * quantities of a's unit (and of bare numbers, for a count of a noun),
 * sharing at least SWAP_SHARED context words; most words shared, then
 * nearest, then youngest. None said in a grounding text before since
 * (a ground_begin_text() count; 0: any). Where a grounded figure states a
 * (stated), a count of a noun was changed from no bare figure whose words
 * do not name the noun: "16 iterations" of a tool's "0x10" is no "4" of
 * the user's "my random number was 4" changed.
 */
static uint32_t find_swap(const struct ground *g, const struct quantity *a,
			  const struct ground_context *ctx, uint32_t since, bool stated, bool unfiltered)
{
	uint64_t units[2] = {a->unit_hash, quantity_unit_hash("number")}, dup = 0;
	uint32_t best = NIL, noun = count_noun(a), w;
	size_t best_k = 0, u, j;
	double best_d = INFINITY;
	uint8_t per_bit[64] = {0};

	/* How many of ctx's words fall on each bit of its mask: a slot's mask
	 * then bounds the words it can share (below) from its links alone. */
	for (j = 0; j < ctx->n; j++)
		if (per_bit[ctx->word[j] % 64]++)
			dup |= 1ull << (ctx->word[j] % 64);
	for (u = 0; u < (a->kind != QUANTITY_COUNT ? 1u : 2u); u++) {
		const struct walk_memo *m = unit_newest(g, units[u]);
		uint64_t any = ctx->mask & m->any, dd;
		size_t bound = popcount64(any);

		/* Every slot's bits are among m->any's, so the bound below, of
		 * ctx's bits in m->any, is no less than any slot's (it grows with
		 * the bits): under SWAP_SHARED no slot shares enough, and the walk
		 * would take none. A walk of a set's records, keyed alike, has
		 * few bits in all (the library's reply against a JSON source: 95%
		 * of its walks). */
		for (dd = dup & any; dd; dd &= dd - 1)
			bound += per_bit[__builtin_ctzll(dd)] - 1u;
		if (bound < SWAP_SHARED && !unfiltered)
			continue;
		for (w = 0; w < m->n; w++) {
			const struct ground_quantity *gq;
			uint32_t i = m->slot[w];
			uint64_t common = ctx->mask & m->mask[w], d2;
			size_t k;
			double d;

			/* The context first: most share too little. A word in common
			 * is a bit in common, so these bits (each as many times as
			 * ctx has words on it) bound the words shared; most slots
			 * are ruled out here, without reading their quantity. */
			if (!common)
				continue; /* no word in common: k would be 0 */
			k = popcount64(common);
			for (d2 = dup & common; d2; d2 &= d2 - 1)
				k += per_bit[__builtin_ctzll(d2)] - 1u;
			if (k < SWAP_SHARED || k < best_k)
				continue;
			gq = &g->q[i];
			/* (said in a text before since: what a later one says stands) */
			if (since && gq->ctx.text && gq->ctx.text < since)
				continue;
			k = ground_context_shared(ctx, &gq->ctx);
			if (k < SWAP_SHARED || k < best_k)
				continue;
			if (!quantity_comparable(a, &gq->q) || keeps_bound(a, gq) ||
			    other_measure(noun, gq) || month_holds(a, &gq->q) ||
			    (stated && u == 1 && noun && !names_noun(noun, gq)))
				continue;
			/* Whether it would win, before the dearer question whether
			 * it states a (then it is no swap): most lose here. */
			d = quantity_distance(a, &gq->q);
			if (k == best_k && (d > best_d || (d == best_d && best != NIL &&
							   g->ql[i].seq < g->ql[best].seq)))
				continue;
			if (quantity_states(a, &gq->q))
				continue;
			if (k > best_k || d < best_d ||
			    (d == best_d && (best == NIL || g->ql[i].seq > g->ql[best].seq))) {
				best = i;
				best_k = k;
				best_d = d;
			}
		}
	}
	return best;
}

/*
 * Whether any of the quantities find_swap() walks for a is said between
 * the words ctx has nearest to it (those it has, need of them:
 * closeness()): where none is, no swap it finds is said there.
 */
static bool swap_may_be_close(const struct ground *g, const struct quantity *a,
			      const struct ground_context *ctx)
{
	uint64_t units[2] = {a->unit_hash, quantity_unit_hash("number")};
	size_t u;
	uint32_t w;

	for (u = 0; u < (a->kind != QUANTITY_COUNT ? 1u : 2u); u++) {
		const struct walk_memo *m = unit_newest(g, units[u]);

		for (w = 0; w < m->n; w++)
			if ((!ctx->before1 || m->before1[w] == ctx->before1) &&
			    (!ctx->after1 || m->after1[w] == ctx->after1))
				return true;
	}
	return false;
}

/*
 * Whether quantity slot i was said in a text before since and no text
 * from since on says its figure again: the newer texts left it behind
 * (the user moved the trip from the 8th to the 9th, and the newest
 * search has only the 9th). One they still say ("pickup" the 9th,
 * "dropoff" the 12th) is still there to be confused with.
 */
static bool superseded(const struct ground *g, uint32_t i, uint32_t since)
{
	const struct quantity *b = &g->q[i].q;
	const struct walk_memo *m;
	uint32_t j, w;

	if (!g->q[i].ctx.text || g->q[i].ctx.text >= since)
		return false;
	/* Its unit's quantities, newest first: those of the texts since. */
	m = unit_newest(g, b->unit_hash);
	for (w = 0; w < m->n; w++) {
		j = m->slot[w];
		if (g->q[j].ctx.text && g->q[j].ctx.text < since)
			break;
		if (quantity_states(b, &g->q[j].q))
			return false;
	}
	return w < SWAP_WALK;
}

/*
 * The user (or the system) said a's figure in this conversation: the
 * answer that repeats it has it from them. A record's other figure said
 * where the answer says it ("Start time: 2024-05-16 10:00" of the event the
 * user asked for "on 2024-05-16 at 10:00", beside a record's "start_time:
 * 2024-05-15 15:00:00") is a swap only when the answer ties a to it more
 * than to any prompt that states a: said between the very words it is said
 * between, or sharing more words with it than the bare two a swap needs
 * and than with the prompt ("your dentist appointment starts at 10:00"
 * where the user guessed 10:00 and the calendar's dentist appointment
 * starts at 15:00). Another figure of the prompts is one where the words
 * tie a to it as the swap rules say, unless the prompt that states a
 * shares more words with the answer ("the Introductory meeting from May
 * 15th" where the user named the follow-up's 19th and the introductory
 * meeting's 15th); the user who picks the car up on the 4th and returns
 * it on the 9th has said which is which.
 */
static bool swap_outranks_prompt(const struct qsearch *s, uint32_t i)
{
	const struct ground_context *c = &s->g->q[i].ctx;

	if (!s->prompt_states)
		return true;
	if (s->g->q[i].prompt)
		return ground_context_shared(s->ctx, c) >= s->prompt_shared;
	if (closeness(s->ctx, c) == 2 && s->prompt_close < 2)
		return true;
	return ground_context_shared(s->ctx, c) > MAX(s->prompt_shared, (size_t)SWAP_SHARED);
}

/*
 * Finishes the walk judge_lexed() left: the oldest that states a and
 * shares no word with it, of a's value list, newer than the oldest that
 * does share (stated[0] is the oldest such of every search since).
 */
static void settle_unshared(struct qsearch *s)
{
	const struct ground *g = s->g;
	uint32_t i;

	for (i = s->resume - 1; s->resume && i != NIL; i = g->ql[i].val.prev) {
		if (g->ql[i].unit_hash != s->a->unit_hash || g->q[i].q.value != s->a->value)
			continue;
		judge_figure(s, &g->q[i].q);
		if (s->seen_states && !share_context(s->ctx, &g->q[i].ctx)) {
			if (older_than_stated(s, g->ql[i].seq, 0))
				s->stated[0] = i;
			break;
		}
	}
	s->resume = 0;
}

/* The text since which a swap is looked for where a stating one shares a's words (match()). */
static uint32_t stated_since(struct qsearch *s)
{
	uint32_t since;

	settle_unshared(s);
	since = s->g->q[s->stated[1]].ctx.text;
	if (s->stated[0] != NIL)
		since = MAX(since, s->g->q[s->stated[0]].ctx.text);
	return since;
}

static const struct ground_quantity *match(const struct ground *g, const struct quantity *a,
					  const struct ground_context *ctx, double tolerance,
					  enum ground_verdict *v, bool stated_only, bool unfiltered)
{
	struct qsearch s = {
		.g = g, .a = a, .ctx = ctx,
		.stated = {NIL, NIL}, .near = {NIL, NIL}, .best = {tolerance, tolerance},
		.noun = count_noun(a), .stated_only = stated_only, .unfiltered = unfiltered,
	};
	uint32_t i;

	*v = GROUND_NONE;
	if (g->qcount == 0)
		return NULL;
	/* The kinds the number lexer adds compare by rules of their own (days
	 * round the year, minutes round the clock): every quantity of their
	 * unit is judged, and the bare numbers written as they are. */
	if (a->kind > QUANTITY_BASE) {
		judge_lexed(&s);
	} else if (!judge_candidates(&s, tolerance)) {
		s = (struct qsearch){
			.g = g, .a = a, .ctx = ctx,
			.stated = {NIL, NIL}, .near = {NIL, NIL}, .best = {tolerance, tolerance},
			.noun = s.noun, .stated_only = stated_only, .unfiltered = unfiltered,
		};
		for (i = 0; i < g->qcount; i++)
			judge(&s, (g->qhead + i) % GROUND_CAP);
	}
	/* Nothing states it: whatever is swapped or near, it is not stated. */
	if (stated_only && s.stated[0] == NIL && s.stated[1] == NIL)
		return NULL;
	/* Stated where the same things are said: grounded, unless another
	 * figure (a swap, below) is said between the very words the answer
	 * puts around this one (the one word it has at a sentence's end:
	 * "income was $946 million." where the source says "income was $971
	 * million ..., compared with $946 million"), and no stating one is. */
	*v = GROUND_STATED;
	if (s.stated[1] != NIL) {
		/* (at a sentence's end or start, the one nearest word it has) */
		int need = closeness(ctx, ctx);

		if (need > 0 && s.stated_close < need) {
			/* (not one the texts since the newest stating one left
			 * behind: the user asked of the 15th and the 19th, and the
			 * newest results, of the 19th, state it) */
			i = swap_may_be_close(g, a, ctx) ? find_swap(g, a, ctx, 0, true, unfiltered) : NIL;
			if (i != NIL && closeness(ctx, &g->q[i].ctx) == need &&
			    !superseded(g, i, stated_since(&s)) && swap_outranks_prompt(&s, i)) {
				*v = GROUND_SWAPPED;
				return &g->q[i];
			}
		}
		return &g->q[s.stated[1]];
	}
	/* Said where the grounding says another figure: changed on the way,
	 * unless a later text states it (the user moved the trip to the 9th
	 * and the newest search holds 2019-03-09): what was said last of a
	 * thing stands, not what an earlier message said of it. */
	i = find_swap(g, a, ctx, 0, s.stated[0] != NIL, unfiltered);
	/* "3 nights" of the user's "3-day trip": the stay's span is what its
	 * nights are counted from, not a figure said near the hotel's words
	 * (its "Rating: 5.0", beside a name like "Good Night") */
	if (i != NIL && s.stated[0] != NIL && quantity_nights(a) &&
	    g->q[s.stated[0]].q.kind == QUANTITY_BASE &&
	    g->q[s.stated[0]].q.scale == QUANTITY_DAY_SECONDS)
		i = NIL;
	if (i != NIL && s.stated[0] != NIL && superseded(g, i, g->q[s.stated[0]].ctx.text))
		i = find_swap(g, a, ctx, g->q[s.stated[0]].ctx.text, true, unfiltered);
	if (i != NIL && !swap_outranks_prompt(&s, i))
		i = NIL;
	*v = GROUND_SWAPPED;
	if (i != NIL)
		return &g->q[i];
	/* Stated anywhere: grounded, whatever else is near. */
	*v = GROUND_STATED;
	if (s.stated[0] != NIL)
		return &g->q[s.stated[0]];
	/* A near one only counts within tolerance (best starts there). */
	*v = GROUND_NEAR;
	if (s.near[1] != NIL)
		return &g->q[s.near[1]];
	if (s.near[0] != NIL)
		return &g->q[s.near[0]];
	*v = GROUND_NONE;
	return NULL;
}

const struct ground_quantity *ground_match_quantity(const struct ground *g,
						    const struct quantity *a,
						    const struct ground_context *ctx,
						    double tolerance, enum ground_verdict *v)
{
	return match(g, a, ctx, tolerance, v, false, false);
}

const struct ground_quantity *ground_match_unfiltered(const struct ground *g, const struct quantity *a,
						      const struct ground_context *ctx, double tolerance,
						      enum ground_verdict *v, bool stated_only)
{
	const struct ground_quantity *gq = match(g, a, ctx, tolerance, v, stated_only, true);

	if (stated_only && *v != GROUND_STATED) {
		*v = GROUND_NONE;
		return NULL;
	}
	return gq;
}

const struct ground_quantity *ground_stated_quantity(const struct ground *g,
						     const struct quantity *a,
						     const struct ground_context *ctx,
						     enum ground_verdict *v)
{
	const struct ground_quantity *gq = match(g, a, ctx, 0, v, true, false);

	if (*v == GROUND_STATED)
		return gq;
	*v = GROUND_NONE;
	return NULL;
}

/*
 * A check of a count per day (claims' count_per_span()) asks whether the
 * set states each span of days that divides the count, for every count of
 * the answer; between two changes to the set the answer is the same (the
 * searches read nothing that a set keeps while its epoch and qseq stay:
 * what ground_set_period() rewrites in place, a period, match() does not
 * read), so it is asked once a state and span.
 */
bool ground_days_stated(const struct ground *g, unsigned days)
{
	static const struct ground_context none;
	struct walk_memos *ms;
	enum ground_verdict v;
	struct quantity d;

	if (g->qcount == 0)
		return false; /* (match() finds nothing in an empty set) */
	ms = g->memos;
	if (ms->days_epoch != g->epoch || ms->days_qseq != g->qseq) {
		ms->days_epoch = g->epoch;
		ms->days_qseq = g->qseq;
		ms->days_known = ms->days_stated = 0;
	}
	if (days >= 1 && days < 64 && (ms->days_known >> days & 1))
		return ms->days_stated >> days & 1;
	quantity_set(&d, QUANTITY_BASE, "seconds", days * QUANTITY_DAY_SECONDS, QUANTITY_DAY_SECONDS);
	if (!match(g, &d, &none, 0, &v, false, false))
		v = GROUND_NONE;
	if (days >= 1 && days < 64) {
		ms->days_known |= 1ull << days;
		if (v == GROUND_STATED)
			ms->days_stated |= 1ull << days;
	}
	return v == GROUND_STATED;
}

/*
 * Whether match() finds nothing for a, whatever its context, where a's
 * unit holds nothing (then find_swap() walks nothing: a count, which it
 * also walks the bare numbers for, is not asked). A lexer's kind: none of
 * the bare numbers (durations, for a->years) judge_lexed() judges is
 * written as a is. Another: judge_candidates() with no context judges
 * none that states a or is near it; which ones it judges, and whether
 * each states or is near, does not hang on the context, only which of
 * two slots it fills.
 */
bool ground_nothing_judged(const struct ground *g, const struct quantity *a, double tolerance)
{
	static const struct ground_context none;
	bool bare = a->kind == QUANTITY_YEAR || a->kind == QUANTITY_ORDINAL;
	uint64_t number, seconds;
	double w;
	uint32_t i;

	if (g->qcount == 0)
		return true;
	/* (first what a set with figures of a's unit, most of them, answers at once) */
	if (a->kind == QUANTITY_COUNT || a->kind == QUANTITY_TEMPERATURE ||
	    ground_holds_unit(g, a->unit_hash))
		return false;
	if (a->kind <= QUANTITY_BASE) {
		struct qsearch s = {
			.g = g, .a = a, .ctx = &none,
			.stated = {NIL, NIL}, .near = {NIL, NIL}, .best = {tolerance, tolerance},
			.noun = count_noun(a),
		};

		return judge_candidates(&s, tolerance) && s.stated[0] == NIL && s.stated[1] == NIL &&
		       s.near[0] == NIL && s.near[1] == NIL;
	}
	if (!bare && !a->years)
		return true;
	number = quantity_unit_hash("number");
	seconds = quantity_unit_hash("seconds");
	w = quantity_written(a);
	/* (the bare numbers are filed apart: written_list()) */
	if (bare)
		for (i = g->writ[written_list(number, w)]; i != NIL; i = g->ql[i].written.next)
			if (g->ql[i].unit_hash == number && quantity_written(&g->q[i].q) == w)
				return false;
	if (a->years)
		for (i = g->writ[written_list(seconds, w)]; i != NIL; i = g->ql[i].written.next)
			if (g->ql[i].unit_hash == seconds && quantity_written(&g->q[i].q) == w)
				return false;
	return true;
}

const struct ground_quantity *ground_swapped_bare(const struct ground *g, const struct quantity *a,
						 const struct ground_context *ctx)
{
	uint64_t number = quantity_unit_hash("number"), need;
	double w = quantity_written(a);
	const struct walk_memo *m;
	uint32_t i, k, bare, other;

	if (g->qcount == 0 || !ctx->before1 || !ctx->after1)
		return NULL;
	/* (the two words are context words: a slot whose mask lacks their
	 * bits has neither, and its quantity is not read) */
	need = (1ull << (ctx->before1 % 64)) | (1ull << (ctx->after1 % 64));
	/* Its own figure between those words, however written: no swap. */
	written_heads(g, w, &bare, &other);
	while ((i = written_newer(g, &bare, &other)) != NIL)
		if (quantity_written(&g->q[i].q) == w && g->q[i].ctx.before1 == ctx->before1 &&
		    g->q[i].ctx.after1 == ctx->after1)
			return NULL;
	/* The newest other bare number between them. */
	m = unit_newest(g, number);
	for (k = 0; k < m->n; k++) {
		i = m->slot[k];
		if ((m->mask[k] & need) == need && g->q[i].ctx.before1 == ctx->before1 &&
		    g->q[i].ctx.after1 == ctx->after1 && g->q[i].q.value != a->value)
			return &g->q[i];
	}
	return NULL;
}

uint32_t ground_compared_only(const struct ground *g, uint32_t quarter_year, uint64_t *at)
{
	uint32_t qr = QUANTITY_PERIOD_QUARTER(quarter_year), year = QUANTITY_PERIOD_YEAR(quarter_year);
	uint32_t i, seen = 0, pick;
	bool compared = false;

	if (!g->reported_mask || (g->reported_mask & period_bit(quarter_year)) || qr < 1 || qr > 4 ||
	    !year || g->qcount == 0)
		return 0;
	/* (a year is filed by its unit, "date:year", and value: value_list()) */
	for (i = g->vals[unit_val_of(quantity_unit_hash("date:year"), year)]; i != NIL; i = g->ql[i].val.next) {
		const struct ground_quantity *gq = &g->q[i];

		if (gq->q.kind != QUANTITY_YEAR || gq->q.value != year)
			continue;
		if (++seen > OTHERWISE_WALK)
			return 0;
		compared |= gq->ctx.quarter_year == quarter_year;
	}
	if (!compared)
		return 0;
	pick = g->reported[qr].period ? qr : 0;
	*at = g->reported[pick].at;
	return g->reported[pick].period;
}

/* Is the grounded gq a's figure said otherwise: of another period, the other side of a bound? */
static bool says_otherwise(const struct ground_quantity *gq, uint32_t period, int bound)
{
	return quantity_periods_differ(period, gq->ctx.period) || (bound && gq->ctx.bound == -bound);
}

const struct ground_quantity *ground_said_otherwise(const struct ground *g, const struct quantity *a,
						   uint32_t period, int bound)
{
	double w = quantity_written(a);
	const struct ground_quantity *found = NULL;
	uint32_t i, bare, other, seen = 0;

	if ((!period && !bound) || g->qcount == 0)
		return NULL;
	written_heads(g, w, &bare, &other);
	while ((i = written_newer(g, &bare, &other)) != NIL) {
		const struct ground_quantity *gq = &g->q[i];

		if (!written_as(g, i, a, w))
			continue;
		/* One that says it as a does, or too many to read: nothing to report. */
		if (++seen > OTHERWISE_WALK || !says_otherwise(gq, period, bound))
			return NULL;
		if (!found || g->ql[i].seq > g->ql[found - g->q].seq)
			found = gq;
	}
	return found;
}

const struct ground_quantity *ground_figure_held(const struct ground *g, const struct quantity *a)
{
	double w = quantity_written(a);
	uint32_t i, bare, other;

	if (g->qcount == 0)
		return NULL;
	/* Written the same way, at a's scale where a has one ("71 million") */
	written_heads(g, w, &bare, &other);
	while ((i = written_newer(g, &bare, &other)) != NIL)
		if (quantity_written(&g->q[i].q) == w && (a->scale == 1 || g->q[i].q.scale == a->scale) &&
		    !g->q[i].q.items)
			return &g->q[i];
	/* or a bare number of the same value written otherwise ("71,000,000"). */
	for (i = g->vals[val_of(a->value)]; i != NIL; i = g->ql[i].val.next)
		if (g->q[i].q.kind == QUANTITY_NUMBER && g->q[i].q.value == a->value)
			return &g->q[i];
	return NULL;
}

/*
 * A range's two ends said together as one record's ("start_time: ...
 * 10:00:00" beside "end_time: ... 11:00:00"): the newest quantity of lo's
 * unit that states one end whose neighbour in that unit's order (the
 * quantity said just before or after it, nothing of the unit between)
 * states the other, within `within` bytes of it; NULL when none does among
 * the SWAP_WALK newest. The pair is one record's by being adjacent: a
 * start of one record and the end of another have the first's end or the
 * other's start between them, unless the records are each other's
 * neighbours in the text and written end first.
 */
const struct ground_quantity *ground_range_held(const struct ground *g, const struct quantity *lo,
						const struct quantity *hi, uint64_t within)
{
	const struct walk_memo *m;
	uint32_t i, prev = NIL, w;

	if (g->qcount == 0)
		return NULL;
	m = unit_newest(g, lo->unit_hash);
	for (w = 0; w < m->n; w++) {
		i = m->slot[w];
		if (prev != NIL) {
			const struct ground_quantity *a = &g->q[prev], *b = &g->q[i];
			uint64_t d = a->at > b->at ? a->at - b->at : b->at - a->at;

			if (d <= within && ((quantity_states(lo, &a->q) && quantity_states(hi, &b->q)) ||
					    (quantity_states(hi, &a->q) && quantity_states(lo, &b->q))))
				return a;
		}
		prev = i;
	}
	return NULL;
}
