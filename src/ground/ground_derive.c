// SPDX-License-Identifier: MIT
/*
 * Derivations: a total, a product or a share worked out from the tools' figures, and the
 * items, parties and spans of time a sum of money is said of. (Split from ground.c by
 * scripts/split.py.)
 */
#include "ground.h"
#include "ground_int.h"

#include "common/fmath.h"
#include "numbers/numlex.h"
#include "wordlists.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- figures computed from grounded ones ---- */

/* Distinct figures tried as terms (of the answer's unit, then bare ones),
 * read among the DERIVE_WALK newest of each unit. */
#define DERIVE_TERMS 8

#define DERIVE_BARE 4

#define DERIVE_WALK 64

/* Counts tried as factors (2 to DERIVE_FACTOR_MAX), read among the
 * DERIVE_RING newest quantities. */
#define DERIVE_FACTORS 4

#define DERIVE_FACTOR_MAX 9

#define DERIVE_RING 256

struct derive_term {
	double v;
	unsigned times; /* how often it is said, to two: a sum may take it twice */
	uint64_t at;    /* where it is said last */
};

/* Adds the distinct positive figures of unit, newest first, to t[n, cap):
 * one of another unit already there is not added again. */
static size_t derive_terms(const struct ground *g, uint64_t unit, bool money_only,
			   struct derive_term *t, size_t n, size_t cap)
{
	uint32_t i, walked = 0;
	size_t k, first = n;

	for (i = g->units[mix(unit)]; i != NIL && walked < DERIVE_WALK; i = g->ul[i].link.next) {
		double v = g->q[i].q.value;

		if (g->ul[i].unit_hash != unit)
			continue;
		walked++;
		if (!(v > 0 && v < 1e12) || (money_only && !said_as_money(&g->q[i].ctx)))
			continue;
		for (k = 0; k < n && t[k].v != v; k++)
			;
		if (k < n) {
			/* (said again in this unit; "$100" and a JSON 100 may be one figure) */
			if (k >= first)
				t[k].times = 2;
		}
		else if (n < cap)
			t[n++] = (struct derive_term){v, 1, g->q[i].at};
	}
	return n;
}

/* The counts of 2 to DERIVE_FACTOR_MAX the grounding gives ("2 passengers",
 * a JSON array of two), newest first; how many in f. */
static size_t derive_factors(const struct ground *g, unsigned *f)
{
	size_t n = 0, k;
	uint32_t j;

	for (j = 0; j < MIN(g->qcount, (uint32_t)DERIVE_RING) && n < DERIVE_FACTORS; j++) {
		const struct quantity *q = &g->q[(g->qhead + g->qcount - 1 - j) % GROUND_CAP].q;

		if (q->kind != QUANTITY_COUNT || q->value < 2 || q->value > DERIVE_FACTOR_MAX ||
		    q->value != floor(q->value))
			continue;
		for (k = 0; k < n && f[k] != (unsigned)q->value; k++)
			;
		if (k == n)
			f[n++] = (unsigned)q->value;
	}
	return n;
}

/*
 * Is want p op q ("+" or "-"; q NULL: p alone), or that times one of the
 * counts f? Writes how it is.
 */
static bool derived_as(double want, const struct derive_term *p, char op,
		       const struct derive_term *q, const unsigned *f, size_t nf, char *how, size_t n)
{
	double v = !q ? p->v : op == '+' ? p->v + q->v : p->v - q->v;
	char x[32], y[32];
	size_t k;

	fig(x, sizeof(x), p->v);
	if (q)
		fig(y, sizeof(y), q->v);
	if (q && to_the_cent(v, want))
		return snprintf(how, n, "%s %c %s", x, op, y), true;
	for (k = 0; k < nf; k++) {
		if (!to_the_cent(v * f[k], want))
			continue;
		if (q)
			snprintf(how, n, "(%s %c %s) x %u", x, op, y, f[k]);
		else
			snprintf(how, n, "%s x %u", x, f[k]);
		return true;
	}
	return false;
}

static bool said_of(const double *said, size_t n_said, double v)
{
	size_t i;

	for (i = 0; i < n_said; i++)
		if (said[i] == v)
			return true;
	return false;
}

bool ground_derive(const struct ground *g, const struct quantity *a, const double *said,
		   size_t n_said, char *how, size_t n, uint64_t *at)
{
	struct derive_term t[DERIVE_TERMS + DERIVE_BARE];
	unsigned f[DERIVE_FACTORS];
	size_t nt, nf, i, j;

	if (!g->units || !g->qcount || quantity_class_of(a) != QC_MONEY || !(a->value > 0) ||
	    a->scale != 1)
		return false;
	nt = derive_terms(g, a->unit_hash, false, t, 0, DERIVE_TERMS);
	nt = derive_terms(g, quantity_unit_hash("number"), true, t, nt, nt + DERIVE_BARE);
	nf = derive_factors(g, f);
	for (i = 0; i < nt; i++) {
		*at = t[i].at;
		if (derived_as(a->value, &t[i], 0, NULL, f, nf, how, n))
			return true;
		for (j = i; j < nt; j++) {
			const struct derive_term *hi = t[j].v > t[i].v ? &t[j] : &t[i];

			if ((j == i && t[i].times < 2) ||
			    !(said_of(said, n_said, t[i].v) || said_of(said, n_said, t[j].v)))
				continue;
			if (derived_as(a->value, &t[i], '+', &t[j], f, nf, how, n) ||
			    (j > i && derived_as(a->value, hi, '-', hi == &t[i] ? &t[j] : &t[i], f, nf,
						 how, n)))
				return true;
		}
	}
	return false;
}

/*
 * The total check (claims.c): what the grounding says a stated total is.
 * The words that key a figure as one item's price (words_item) and those
 * that key it as a sum already (words_sum); a payment's (words_payment);
 * the nouns a party is counted in (words_party): words/ground.txt.
 * Whether a figure's context says one of the words w[0, nw).
 */
static bool ctx_says(const struct ground_context *ctx, const char *const *w, size_t nw)
{
	size_t i, k;

	for (i = 0; i < ctx->n; i++)
		for (k = 0; k < nw; k++)
			if (ctx->word[i] == word_hash(w[k], strlen(w[k])))
				return true;
	return false;
}

/* How far apart a record's start and end are read, in bytes of grounding. */
#define SPAN_NEAR 512

bool ground_time_span(const struct ground *g, double seconds, char *how, size_t n, uint64_t *at)
{
	const struct ground_quantity *t[DERIVE_TERMS * 2];
	uint64_t clock = quantity_unit_hash("time:clock");
	uint32_t i, walked = 0;
	size_t nt = 0, k;

	if (!g->units || !g->qcount || !(seconds > 0) || seconds > 86400)
		return false;
	for (i = g->units[mix(clock)]; i != NIL && walked < DERIVE_WALK && nt < ARRAY_SIZE(t);
	     i = g->ul[i].link.next) {
		if (g->ul[i].unit_hash != clock)
			continue;
		walked++;
		t[nt++] = &g->q[i];
	}
	/* newest first: two times said one after the other, near, of a start and an end */
	for (k = 0; k + 1 < nt; k++) {
		const struct ground_quantity *a = t[k], *b = t[k + 1];
		double d = fabs(a->q.value - b->q.value) * 60;
		uint64_t gap = a->at > b->at ? a->at - b->at : b->at - a->at;
		char x[16], y[16];

		if (gap > SPAN_NEAR || fabs(d - seconds) >= 1)
			continue;
		if (!((ctx_says(&a->ctx, words_start, ARRAY_SIZE(words_start)) &&
		       ctx_says(&b->ctx, words_end, ARRAY_SIZE(words_end))) ||
		      (ctx_says(&b->ctx, words_start, ARRAY_SIZE(words_start)) &&
		       ctx_says(&a->ctx, words_end, ARRAY_SIZE(words_end)))))
			continue;
		snprintf(x, sizeof(x), "%02d:%02d", (int)MAX(a->q.value, b->q.value) / 60,
			 (int)MAX(a->q.value, b->q.value) % 60);
		snprintf(y, sizeof(y), "%02d:%02d", (int)MIN(a->q.value, b->q.value) / 60,
			 (int)MIN(a->q.value, b->q.value) % 60);
		snprintf(how, n, "%s - %s", x, y);
		*at = MIN(a->at, b->at);
		return true;
	}
	return false;
}

/* Calls fn on each figure of a's unit, then each bare one said as money,
 * newest first, DERIVE_WALK of each at most; stops when fn says so. */
static const struct ground_quantity *money_walk(const struct ground *g, uint64_t unit,
						bool (*fn)(const struct ground_quantity *, void *),
						void *arg)
{
	uint64_t units[2] = {unit, quantity_unit_hash("number")};
	uint32_t i, walked;
	size_t u;

	if (!g->units || !g->qcount)
		return NULL;
	for (u = 0; u < 2; u++)
		for (walked = 0, i = g->units[mix(units[u])]; i != NIL && walked < DERIVE_WALK;
		     i = g->ul[i].link.next) {
			if (g->ul[i].unit_hash != units[u])
				continue;
			walked++;
			if ((u == 0 || said_as_money(&g->q[i].ctx)) && fn(&g->q[i], arg))
				return &g->q[i];
		}
	return NULL;
}

struct item_search {
	double v;
	unsigned items, sums;
};

static bool count_keys(const struct ground_quantity *gq, void *arg)
{
	struct item_search *s = arg;

	if (!to_the_cent(gq->q.value, s->v))
		return false;
	if (ctx_says(&gq->ctx, words_sum, ARRAY_SIZE(words_sum)))
		s->sums++;
	else if (ctx_says(&gq->ctx, words_item, ARRAY_SIZE(words_item)))
		s->items++;
	return false;
}

bool ground_item_price(const struct ground *g, const struct quantity *a)
{
	struct item_search s = {a->value, 0, 0};

	money_walk(g, a->unit_hash, count_keys, &s);
	return s.items > 0 && s.sums == 0;
}

bool ground_party_noun(const struct quantity *q)
{
	const char *u = q->items ? strrchr(q->unit, ':') + 1 : q->unit;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(words_party); k++)
		if (strcmp(u, words_party[k]) == 0)
			return true;
	return false;
}

unsigned ground_party(const struct ground *g)
{
	uint32_t j;

	for (j = 0; j < MIN(g->qcount, (uint32_t)DERIVE_RING); j++) {
		const struct ground_quantity *gq = &g->q[(g->qhead + g->qcount - 1 - j) % GROUND_CAP];
		const struct quantity *q = &gq->q;

		if (q->value < 1 || q->value > DERIVE_FACTOR_MAX || q->value != floor(q->value))
			continue;
		if ((q->kind == QUANTITY_COUNT && ground_party_noun(q)) ||
		    (q->kind == QUANTITY_NUMBER && ctx_says(&gq->ctx, words_party, ARRAY_SIZE(words_party))))
			return (unsigned)q->value;
	}
	return 0;
}

struct charged_search {
	double v;
	const struct ground_quantity *hit;
	unsigned same;
};

static bool halved_or_doubled(const struct ground_quantity *gq, void *arg)
{
	struct charged_search *s = arg;

	if (!ctx_says(&gq->ctx, words_sum, ARRAY_SIZE(words_sum)) || !(gq->q.value > 0))
		return false;
	/* (a payment said again, not a record's total said again by a
	 * search and then a booking) */
	if (s->hit && to_the_cent(gq->q.value, s->hit->q.value) && gq->at != s->hit->at &&
	    ctx_says(&gq->ctx, words_payment, ARRAY_SIZE(words_payment)))
		s->same++;
	if (!s->hit && (to_the_cent(gq->q.value * 2, s->v) || to_the_cent(gq->q.value / 2, s->v)))
		s->hit = gq;
	return false;
}

const struct ground_quantity *ground_charged(const struct ground *g, const struct quantity *a)
{
	struct charged_search s = {a->value, NULL, 0};

	if (quantity_class_of(a) != QC_MONEY || a->scale != 1 || !(a->value > 0))
		return NULL;
	money_walk(g, a->unit_hash, halved_or_doubled, &s);
	/* two payments of 600 make a charge of 1200: doubled is then no error */
	return s.same ? NULL : s.hit;
}
