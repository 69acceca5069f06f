// SPDX-License-Identifier: MIT
/*
 * The number check: a sentence's quantities lexed, held with the matches and judged against
 * the grounding (stated, derived, a range, a code, a name). (Split from claims.c by
 * scripts/split.py.)
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

/* Words before a number read as an identifier's ("gift card 1234"). */
#define IDENT_WORDS 3

/*
 * Is the bare number h the digits of an identifier the grounding holds,
 * said with its parts apart: "certificate 7504069" or "certificate
 * #7504069" of a tool's "certificate_7504069", "gift card 1234" of
 * "gift_card_1234"? Never the digits alone.
 */
static bool ident_held(struct claims *c, struct held *h)
{
	uint64_t lo = h->from > c->start + 48 ? h->from - 48 : c->start;
	char key[64 + 24];
	const char *b, *d;
	size_t nb, nd, at, words, k;

	if (!ground_codes_held(c->ground))
		return false;
	b = window_get(c->w, lo, h->from, &nb);
	d = window_get(c->w, h->from, h->to, &nd);
	if (nb != h->from - lo || nd != h->to - h->from || nd > 24)
		return false;
	at = nb;
	if (at && b[at - 1] == '#')
		at--;
	for (words = 0; words < IDENT_WORDS && at && (b[at - 1] == ' ' || b[at - 1] == '_'); words++) {
		size_t end = --at, len;

		while (at && isalpha((unsigned char)b[at - 1]))
			at--;
		len = end - at;
		if (len < 2)
			return false;
		/* the words from here to the number, then its digits */
		for (k = 0; k < nd && isdigit((unsigned char)d[k]); k++)
			;
		if (k != nd || nb - at + nd > sizeof(key))
			return false;
		memcpy(key, b + at, nb - at);
		memcpy(key + (nb - at), d, nd);
		if (ground_ident_key(key, nb - at + nd, &c->key) == 0 &&
		    ground_find(c->ground, c->key.data, c->key.len, &h->grounded_at))
			return true;
	}
	return false;
}

/*
 * A figure the grounding states, where every place that states it says it
 * otherwise: of another period ("$1.30 to $1.40 for Q4 2019" against "for
 * the fourth quarter of 2020"), or as the other side of a bound ("with
 * less than 50 completed" against "over 50"): the figure is right, what
 * is said of it is not. NULL when nothing says it otherwise.
 */
static const struct ground_quantity *said_otherwise(const struct claims *c, const struct held *h)
{
	int bound = h->nl_flags & NUMLEX_ABOVE ? 1 : h->nl_flags & NUMLEX_BELOW ? -1 : 0;

	return h->lexed && (h->period || bound)
		       ? ground_said_otherwise(c->ground, &h->q, h->period, bound)
		       : NULL;
}

/* The place a figure is written to, in its unit's base: 0.1 of "4.7%", 10 of "180". */
static double written_step(const struct quantity *q)
{
	double w = fabs(fmath_round(quantity_written(q))), step = q->scale;
	int i;

	if (q->decimals > 0)
		return step * quantity_step(q->decimals);
	for (i = 0; i < 15 && w >= 10 && fmath_fmod(w, 10) == 0; i++) {
		w /= 10;
		step *= 10;
	}
	return step;
}

/*
 * Is h a hedge of the grounded gq ("over $180 million", "more than 412
 * million euros", "nearly 5%" where the grounding says $181.3 million,
 * 412.8 million euros, 4.7%): an approximation of a count, a bare number
 * or a sum within a tenth of it, written to a coarser place (its rounding:
 * not "approximately $7.60" for "approximately $7.50"), on the side it
 * says ("over" below the figure, "under" above it)?
 */
static bool hedge_of(const struct claims *c, const struct held *h,
		     const struct ground_quantity *gq)
{
	unsigned f = h->nl_flags;
	size_t i;

	if (!gq || !(f & NUMLEX_APPROX) || (f & NUMLEX_RANGE) || h->q.kind > QUANTITY_BASE ||
	    gq->q.kind != h->q.kind || gq->q.unit_hash != h->q.unit_hash ||
	    written_step(&h->q) <= written_step(&gq->q) * (1 + 1e-9) ||
	    quantity_distance(&h->q, &gq->q) > 0.1)
		return false;
	/* Not a figure its sentence states as well: "from at least $7 to
	 * approximately $7.50" hedges no $7.50, it says another figure. */
	for (i = 0; i < c->n_held; i++)
		if (&c->held[i] != h && c->held[i].lexed && quantity_states(&c->held[i].q, &gq->q))
			return false;
	if (f & NUMLEX_ABOVE)
		return gq->q.value >= h->q.value;
	if (f & NUMLEX_BELOW)
		return gq->q.value <= h->q.value;
	return true;
}

/*
 * Reports h against the grounded gq (NULL: against nothing): its text is
 * the finding's source, with how the grounding says it, where that is
 * named. by_day: gq is a day's hours ("the grounded 7:0-21:0 on Monday");
 * otherwise: gq is h's figure said otherwise ("$1.30 in Q4 2020", "4% said
 * of the prior quarter" for "4% sequentially", "at least 50").
 */
static enum check report_against(struct claims *c, struct held *h, const struct ground_quantity *gq,
				 const struct ground_quantity *by_day,
				 const struct ground_quantity *otherwise)
{
	const char *day, *side = "", *joiner = " in ";
	char period[QUANTITY_PERIOD_TEXT] = "";
	size_t off;

	if (!gq)
		return CHECK_REPORT;
	day = gq == by_day ? ground_day_name(gq->days) : NULL;
	if (gq == otherwise && quantity_periods_differ(h->period, gq->ctx.period)) {
		quantity_period_text(gq->ctx.period, period, sizeof(period));
		if (QUANTITY_PERIOD_RELATIVE(gq->ctx.period))
			joiner = " said of ";
	} else if (gq == otherwise) {
		side = gq->ctx.bound > 0 ? "at least " : "at most ";
	}
	h->grounded_at = gq->at;
	off = c->text.len;
	if (buf_adds(&c->text, side) < 0 || buf_add(&c->text, gq->text, strlen(gq->text)) < 0 ||
	    (day && (buf_adds(&c->text, " on ") < 0 || buf_adds(&c->text, day) < 0)) ||
	    (*period && (buf_adds(&c->text, joiner) < 0 || buf_adds(&c->text, period) < 0)) ||
	    buf_addc(&c->text, '\0') < 0)
		return CHECK_REPORT; /* reported as ungrounded: the weaker claim */
	h->source_off = off;
	return CHECK_REPORT;
}

static uint64_t column_of(struct claims *c, uint64_t at);

/* The first and the last year of a year or a decade. */
static void year_span(const struct quantity *q, double *lo, double *hi)
{
	*lo = quantity_is_decade(q) ? q->value - QUANTITY_DECADE_MID : q->value;
	*hi = quantity_is_decade(q) ? *lo + 9 : *lo;
}

/*
 * True when a is a year or decade said as a side of a bound (flags:
 * NUMLEX_BELOW, "before 1990"; NUMLEX_ABOVE, "after the 1990s") and the
 * year or decade g lies wholly on that side of it.
 */
static bool year_on_side(const struct quantity *g, const struct quantity *a, unsigned flags)
{
	double alo, ahi, glo, ghi;

	if (a->kind != QUANTITY_YEAR || g->kind != QUANTITY_YEAR ||
	    !(flags & (NUMLEX_ABOVE | NUMLEX_BELOW)))
		return false;
	year_span(a, &alo, &ahi);
	year_span(g, &glo, &ghi);
	return flags & NUMLEX_BELOW ? ghi < alo : glo > ahi;
}

/*
 * A quarter's year the grounding has only as what it compares with, and
 * its report on another quarter-year ("results for Q3 2019" of a report on
 * Q3 2020 that compares with Q3 2019): that other, else 0. Unless a
 * figure of the sentence said of it is one the grounding gives of it
 * ("EPS was $0.29 in Q3 2019", where the source compares with "$0.29 in
 * the third quarter of 2019"): the answer then reports the comparison;
 * or one it gives of another period ("$3.69 in Q3 2020" for the source's
 * "$3.69 in Q3 2021"): that figure's finding names the period.
 */
static uint32_t reported_instead(const struct claims *c, const struct held *h, uint64_t *at)
{
	uint32_t other;
	size_t i;

	if (h->q.kind != QUANTITY_YEAR || !h->quarter_year || h->compared)
		return 0;
	other = ground_compared_only(c->ground, h->quarter_year, at);
	for (i = 0; other && i < c->n_held; i++) {
		const struct held *f = &c->held[i];

		if (f != h && f->lexed && f->period == h->quarter_year &&
		    (ground_said_of(c->ground, &f->q, f->period) || said_otherwise(c, f)))
			return 0;
	}
	return other;
}

/*
 * A house number on a street the grounding names nowhere ("2260
 * Middlefield Road" where the tool gives "2200 El Camino Real"): held as
 * the bare number it is, which any figure written the same way grounds,
 * and reported as one (its digits alone) under the bare numbers' rule. A
 * Queens number ("123-04") is no figure of its own and is left alone.
 */
static enum check street_as_number(struct claims *c, struct held *h)
{
	const struct ground_quantity *gq;
	struct quantity b;
	const char *p;
	size_t n, k;

	if (c->class_rule[QC_NUMBER] < 0)
		return CHECK_SILENT;
	p = window_get(c->w, h->from, h->to, &n);
	for (k = 0; k < n && isdigit((unsigned char)p[k]); k++)
		;
	if (k == 0 || (k < n && p[k] == '-'))
		return CHECK_SILENT;
	quantity_set(&b, QUANTITY_NUMBER, "number", h->q.value, 1);
	if ((gq = ground_figure_held(c->ground, &b))) {
		h->grounded_at = gq->at;
		return CHECK_GROUNDED;
	}
	h->rule = (size_t)c->class_rule[QC_NUMBER];
	h->q = b;
	h->to = h->from + k;
	h->text_len = k;
	return CHECK_REPORT;
}

static const struct ground_quantity *range_held(const struct claims *c, const struct held *h)
{
	const struct held *o = range_other(c, h);
	const struct ground_quantity *gq;
	double d;

	/* (times and days, which records give as a start and an end; the ends
	 * of a range of money or shares are no one record's two fields) */
	if (!o || (quantity_class_of(&h->q) != QC_TIME && quantity_class_of(&h->q) != QC_DATE))
		return NULL;
	if ((gq = ground_range_held(c->ground, &h->q, &o->q, 1024)))
		return gq;
	/* "12:00-13:00" of the user's "at 12:00 for one hour": the end is the
	 * start the grounding states plus a length it states */
	if (h > o && h->q.kind == QUANTITY_TIME && o->q.kind == QUANTITY_TIME &&
	    (d = fmath_fmod(h->q.value - o->q.value + 1440, 1440)) >= 1 && d <= 720 && clock_held(c, &o->q))
		return duration_held(c, d);
	return NULL;
}

/*
 * A share said as the fraction it is, to be multiplied by ("19.5%" given,
 * "$1,000.00 x 0.195"): a bare number below 1, with two or more decimals,
 * a term of arithmetic the answer writes out, that is a grounded
 * percentage over 100. (Not any 0.15 of a text that says 15% somewhere.)
 */
static bool percent_as_fraction(struct claims *c, struct held *h, uint64_t end)
{
	const struct ground_quantity *gq;
	struct ground_context none;
	enum ground_verdict vg;
	struct quantity pc;
	double v = h->q.value * 100;

	if (!(h->q.value > 0 && h->q.value < 1) || h->q.decimals < 2 ||
	    fabs(v - fmath_round(v * 1e6) / 1e6) > 1e-9 || !written_term(c, h, end))
		return false;
	v = fmath_round(v * 1e6) / 1e6;
	quantity_set(&pc, QUANTITY_BASE, "percent", v, 1);
	/* (the percentage itself, where a bare 10.0 written the same way is
	 * held first: "amount": 10.0 beside the user's "10%") */
	if ((gq = ground_figure_held(c->ground, &pc)) && gq->q.unit_hash != pc.unit_hash) {
		memset(&none, 0, sizeof(none));
		gq = ground_match_quantity(c->ground, &pc, &none, 0, &vg);
		if (vg != GROUND_STATED)
			gq = NULL;
	}
	if (!gq || gq->q.unit_hash != pc.unit_hash || fabs(gq->q.value - v) > 1e-9)
		return false;
	h->grounded_at = gq->at;
	return true;
}

/*
 * The words on both sides of h in its sentence, gathered on first use
 * (*have): a figure the search can find nothing for never needs them.
 */
static const struct ground_context *context_of(struct claims *c, const struct held *h,
					       uint64_t end, struct ground_context *ctx, bool *have)
{
	const char *p;
	size_t n;

	if (*have)
		return ctx;
	p = window_get(c->w, MAX(c->start, h->from > 160 ? h->from - 160 : 0), h->from, &n);
	ground_context_of(p + n, n, ctx);
	p = window_get(c->w, h->from, h->to, &n);
	ground_context_words(p, n, ctx);
	p = window_get(c->w, h->to, MIN(end, h->to + 160), &n);
	ground_context_after(p, n, ctx);
	*have = true;
	return ctx;
}

/*
 * A number check: a quantity stated by a grounded one in its context, or
 * anywhere, is grounded; one said where the grounding says another figure
 * of its unit, or near one, is reported as the near signal naming it; one
 * that matches nothing as the rule's signal.
 */
/*
 * A count or an ordinal in words ("two ways", "the first time") is checked
 * only for a repeat (check_quantity()): whether a grounded figure states
 * it. What else is near it or swapped in matters only where a hedge
 * ("about three") or a period may make that one stated.
 */
static bool only_stated(const struct held *h)
{
	return h->q.words && (h->q.kind == QUANTITY_COUNT || h->q.kind == QUANTITY_ORDINAL) &&
	       !(h->nl_flags & NUMLEX_APPROX) && !h->period;
}

enum check check_quantity(struct claims *c, struct held *h, uint64_t end)
{
	const struct rule *r = &c->rs->rules[h->rule];
	const struct ground_quantity *gq, *by_day = NULL, *otherwise = NULL, *said;
	struct ground_context ctx;
	enum ground_verdict v;
	uint32_t reported;
	uint64_t at;
	const char *p;
	size_t n;
	bool money = false, month_only, have_ctx = false;
	size_t results = 0;
	unsigned role = 0;
	const struct held *day;

	/* "open 24 hours a day" where the grounding gives the days their
	 * hours: each day said (every day when none is) must be open from
	 * midnight ("0:0-0:0"); the day the furthest from it is named. */
	if (h->all_day) {
		unsigned days = days_said(c, h, end);

		/* With no day's hours given ("hours": null), only the grounding's
		 * own "open 24/7" says so (scan.c holds it as "time:all-day"). */
		if (!ground_days_held(c->ground))
			return ground_holds_unit(c->ground, quantity_unit_hash("time:all-day"))
				       ? CHECK_GROUNDED
				       : CHECK_REPORT;
		by_day = ground_check_days(c->ground, &h->q, days ? days : GROUND_DAYS_ALL);
		if (!by_day) {
			if ((gq = ground_day_time(c->ground)))
				h->grounded_at = gq->at;
			return CHECK_GROUNDED;
		}
		return report_against(c, h, by_day, by_day, NULL);
	}
	/* "open seven days a week" is checked only against days' hours (as
	 * "open six days a week" is, below), never as a duration of its own. */
	if (h->week && !ground_days_held(c->ground))
		return CHECK_SILENT;
	if (clock_format(c, h, end))
		return CHECK_SILENT;
	/* A citation's year ("Lee and Rossi (2018) showed") likewise, and that
	 * is all: beside the source's "Kim and Rossi (2021) showed" it is
	 * another paper (the citation rules' concern), not a changed year. */
	if (h->nl_flags & NUMLEX_CITATION) {
		if (!(gq = ground_figure_held(c->ground, &h->q)))
			return CHECK_REPORT;
		h->grounded_at = gq->at;
		return CHECK_GROUNDED;
	}
	/* A bare number ("accelerate 11 737 MAX deliveries") is grounded by
	 * any figure written the same way (the newest is where it is)... */
	if (h->q.kind == QUANTITY_NUMBER) {
		const struct ground_quantity *list =
			counts_results(c, h, end) ? ground_newest_list(c->ground) : NULL;

		/* "I found 4": the newest list's length, whatever else says 4... */
		if (list && list->q.value == h->q.value) {
			h->grounded_at = list->at;
			return CHECK_GROUNDED;
		}
		if (!(gq = ground_figure_held(c->ground, &h->q)))
			return ident_held(c, h) || worked_out(c, h) || ledger_bare(c, h, end) ||
				       sum_of_said(c, h, end) ||
					       group_counted(c, h) || percent_as_fraction(c, h, end) ||
					       bracketed_count(c, h) || share_of(c, h, end) ||
					       updated_amount(c, h) || urls_listed(c, h) ||
					       (h->q.decimals > 0 && party_product(c, h, end)) ||
					       derived_product(c, h, end)
				       ? CHECK_GROUNDED : CHECK_REPORT;
		h->grounded_at = gq->at;
		/* ...and not what else says 5, where the list has 4. */
		if (list)
			return report_against(c, h, list, NULL, NULL);
	}
	/* ...unless it is said between the very words, both of them, that the
	 * grounding puts around another bare number and not around its own.
	 * With no unit to go by, the one nearest word on a side is too little;
	 * and a bare figure that may be a year is left alone: "Lee and Rossi
	 * (2018) showed" beside the source's "Kim and Rossi (2021) showed" is
	 * another paper, not a changed year. */
	if (h->q.kind == QUANTITY_NUMBER && h->q.value >= 1900 && h->q.value < 2100 &&
	    h->q.value == floor(h->q.value))
		return CHECK_GROUNDED;
	if (days_a_week_held(c, h, end)) {
		/* where the grounding gives a day its hours, the newest of them */
		if ((gq = ground_day_time(c->ground)))
			h->grounded_at = gq->at;
		return CHECK_GROUNDED;
	}
	/* "500 * 5 = 2500" of the user's "500 per day" and "5 days": a count
	 * the grounding gives, multiplied by; the words around it are the
	 * other term's, no figure swapped for it */
	if (h->q.kind == QUANTITY_NUMBER && h->q.decimals == 0 && h->q.value >= 2 &&
	    h->q.value <= 366 && written_term(c, h, end))
		return CHECK_GROUNDED;
	if (h->q.kind == QUANTITY_NUMBER) {
		const char *b;
		size_t nb;

		b = window_get(c->w, MAX(c->start, h->from > 160 ? h->from - 160 : 0), h->from, &nb);
		p = window_get(c->w, h->to, MIN(end, h->to + 160), &n);
		ground_context_nearest(b + nb, nb, p, n, &ctx);
		have_ctx = true;
		gq = ground_swapped_bare(c->ground, &h->q, &ctx);
		if (!gq)
			gq = otherwise = said_otherwise(c, h);
		if (!gq)
			return CHECK_GROUNDED;
		v = GROUND_SWAPPED;
	} else {
		double tolerance = r->near.signal ? r->near.tolerance : 0;

		/* Nothing the search could find: no need of the words around it. */
		if (ground_nothing_judged(c->ground, &h->q, tolerance)) {
			gq = NULL;
			v = GROUND_NONE;
		} else if (only_stated(h)) {
			gq = ground_stated_quantity(c->ground, &h->q,
						    context_of(c, h, end, &ctx, &have_ctx), &v);
		} else {
			gq = ground_match_quantity(c->ground, &h->q,
						   context_of(c, h, end, &ctx, &have_ctx), tolerance, &v);
		}
		/* "10:00 AM - 11:00 AM": one record's start and end, said together. */
		if (v != GROUND_STATED && (h->nl_flags & NUMLEX_RANGE) && (said = range_held(c, h))) {
			gq = said;
			v = GROUND_STATED;
		}
		/* A new item's date or time, under "Suggested activities:": the
		 * answer's proposal, not a record's date changed; unless the
		 * user's request fixed a day (a time) that it does not keep to,
		 * which is then what it differs from. */
		if (v != GROUND_STATED && (h->q.kind == QUANTITY_DATE || h->q.kind == QUANTITY_TIME) &&
		    proposed(c, h)) {
			if (!(said = ground_prompt_other(c->ground, &h->q)))
				return CHECK_SILENT;
			gq = said;
			v = GROUND_NEAR;
		}
		/* "I found 3 messages" of a list its key calls "emails": a count
		 * of results, whatever the noun, is the newest list's length. */
		if (v != GROUND_STATED && h->q.kind == QUANTITY_COUNT && counts_results(c, h, end) &&
		    (said = ground_newest_list(c->ground)) && said->q.value == h->q.value) {
			gq = said;
			v = GROUND_STATED;
		}
		/* "Charlie: 2 messages", "Alice sent 3 messages": as many items
		 * of the turn's lists say that value of a field. */
		if (v != GROUND_STATED && h->q.kind == QUANTITY_COUNT && !h->q.items &&
		    group_counted(c, h))
			return CHECK_GROUNDED;
		if (v != GROUND_STATED && h->q.kind == QUANTITY_COUNT &&
		    (count_product(c, h) || count_per_span(c, h) || urls_listed(c, h)))
			return CHECK_GROUNDED;
		/* "it ends at 5 PM" of "1 PM" and "4 hours", "1 hour and 30
		 * minutes" from 11:00 to 12:30: worked out from times said */
		if (v != GROUND_STATED &&
		    (h->q.kind == QUANTITY_TIME || quantity_class_of(&h->q) == QC_DURATION) &&
		    !(h->nl_flags & NUMLEX_RANGE) && (clock_arith(c, h) || clock_gap_after(c, h)))
			return CHECK_GROUNDED;
		/* "The event lasts 2 hours" of a record's start and end times */
		if (v != GROUND_STATED && quantity_class_of(&h->q) == QC_DURATION && h->q.scale >= 60 &&
		    !(h->nl_flags & NUMLEX_RANGE)) {
			char how[32];

			if (ground_time_span(c->ground, h->q.value, how, sizeof(how), &h->grounded_at))
				return grounded_how(c, h, how, h->grounded_at);
		}
	}
	/* A sum of money in a total's, a charge's or a refund's role is held
	 * to what the figures make (check_total_stated(), _computed()). */
	money = quantity_class_of(&h->q) == QC_MONEY && h->q.scale == 1 && h->q.value > 0;
	role = money ? money_role(c, h, end) : 0;
	h->total_role = (role & ROLE_TOTAL) && !(role & ROLE_PER);
	h->per = (role & ROLE_PER) || (money && rate_of_time(c, h, end));
	h->other_role = (role & (ROLE_CHARGE | ROLE_REFUND | ROLE_DIFF)) != 0;
	/* a total of the sums the answer worked out since its last total */
	results = money && (role & ROLE_TOTAL) && !(role & ROLE_PER) &&
		  results_total(c, h, c->n_results, false) ? c->n_results : 0;
	if (money && (role & ROLE_TOTAL))
		c->n_results = 0; /* (the sums stay in c->results until this sentence's arithmetic) */
	/* A deadline ("by 2027") or a study's year ("a 2024 study") that
	 * shares no word with the grounding's 2023 is not that 2023 altered:
	 * it is said of something else. */
	if (v == GROUND_NEAR && h->q.kind == QUANTITY_YEAR &&
	    ground_context_shared(context_of(c, h, end, &ctx, &have_ctx), &gq->ctx) == 0 &&
	    year_of_other_role(c, h, end))
		v = GROUND_NONE;
	/* "May 26, 2287" where the tool gives May 26 only as 2024-05-26: that
	 * date, its year changed (whatever else says 2287 or is near it). */
	if (h->q.kind == QUANTITY_YEAR && (day = date_of_year(c, h, &month_only)) && !month_only &&
	    date_year_changed(c, h, day))
		return CHECK_REPORT;
	/* A figure the grounding gives of the very period the answer says it
	 * of ("$2.39 in the third quarter of 2019") is that one, not one said
	 * in its words of another period ("$1.87 in the third quarter of 2020,
	 * down from $2.39 in the third quarter of 2019"). */
	if (v == GROUND_SWAPPED && h->period &&
	    quantity_periods_differ(h->period, gq->ctx.period) &&
	    (said = ground_said_of(c->ground, &h->q, h->period))) {
		gq = said;
		v = GROUND_STATED;
	}
	/* "over $180 million" where the grounding says "$181.3 million" in
	 * those words: that figure hedged, not another swapped in. */
	if ((v == GROUND_SWAPPED || v == GROUND_NEAR) && (h->nl_flags & NUMLEX_APPROX)) {
		const struct ground_quantity *hq = gq;
		struct ground_context none;
		enum ground_verdict vh = v;

		/* (a swap in its words may hide the figure it hedges: "nearly
		 * $182 million, beating the $150 million forecast"; not one the
		 * grounding bounds as well: "at least $7" for "at least $6") */
		if (!hedge_of(c, h, hq) && (!hq || hq->ctx.bound == 0)) {
			memset(&none, 0, sizeof(none));
			hq = ground_match_quantity(c->ground, &h->q, &none, 0.1, &vh);
		}
		if ((vh == GROUND_NEAR || vh == GROUND_SWAPPED) && hedge_of(c, h, hq)) {
			gq = hq;
			v = GROUND_STATED;
		}
	}
	/* A time of opening hours that only a clock's reading states (a
	 * review's "2016-03-12 17:30:24") is stated by nothing. */
	if (h->q.kind == QUANTITY_TIME && v == GROUND_STATED && clock_reading(gq->text) &&
	    opening_time(c, h, end)) {
		gq = NULL;
		v = GROUND_NONE;
	}
	/* A time said of days ("from 7am to 9:30pm on weekdays") is held
	 * against each of those days' hours where the grounding gives them;
	 * unless prose of the grounding says it in the answer's words, two or
	 * more ("a Monday-Friday happy hour which went to 7pm": not the
	 * opening hours). */
	if (h->q.kind == QUANTITY_TIME &&
	    !(v == GROUND_STATED && gq->days == 0 &&
	      ground_context_shared(context_of(c, h, end, &ctx, &have_ctx), &gq->ctx) >= 2)) {
		by_day = ground_check_days(c->ground, &h->q, days_said(c, h, end));
		if (by_day) {
			gq = by_day;
			v = GROUND_SWAPPED;
		}
	}
	/* Four digits counted ("our forecast for 2021 remains") may be the year
	 * the grounding states: either reading grounds them. */
	if (v != GROUND_STATED && h->q.kind == QUANTITY_COUNT && !(h->nl_flags & NUMLEX_RANGE)) {
		uint64_t lo = h->from > c->w->base ? h->from - 1 : h->from;
		const struct ground_quantity *gy;
		enum ground_verdict vy;
		struct quantity y;

		p = window_get(c->w, lo, h->to, &n);
		if (quantity_may_be_year(&h->q, p, n, (size_t)(h->from - lo))) {
			quantity_set(&y, QUANTITY_YEAR, "date:year", h->q.value, 1);
			gy = ground_match_quantity(c->ground, &y, context_of(c, h, end, &ctx, &have_ctx),
						   0, &vy);
			if (vy == GROUND_STATED) {
				gq = gy;
				v = vy;
			}
		}
	}
	if (v == GROUND_STATED && (h->period || (h->nl_flags & (NUMLEX_ABOVE | NUMLEX_BELOW))) &&
	    quantity_written(&gq->q) == quantity_written(&h->q) && (otherwise = said_otherwise(c, h))) {
		gq = otherwise;
		v = GROUND_SWAPPED;
	}
	if (v == GROUND_STATED && (reported = reported_instead(c, h, &at))) {
		char text[QUANTITY_PERIOD_TEXT];
		size_t off = c->text.len;

		/* The period is what differs: reported whole, as a quarter. */
		if (c->class_rule[QC_QUARTER] >= 0 && h->expr_from < h->from) {
			p = window_get(c->w, h->expr_from, MIN(h->to, h->expr_from + CLAIMS_TEXT_CAP), &n);
			if (buf_add(&c->text, p, n) == 0) {
				h->rule = (size_t)c->class_rule[QC_QUARTER];
				h->column = column_of(c, h->expr_from);
				h->from = h->expr_from;
				h->text_off = off;
				h->text_len = n;
				h->truncated = n < h->to - h->from;
			}
			off = c->text.len;
		}
		quantity_period_text(reported, text, sizeof(text));
		h->grounded_at = at;
		if (buf_add(&c->text, text, strlen(text) + 1) == 0)
			h->source_off = off;
		return CHECK_REPORT;
	}
	/* "built before 1990" where the grounding dates it 1985: a year said
	 * as a side of a bound is grounded by one on that side (one of the
	 * other side is what it differs from; itself said as the other side,
	 * "after 1990", is said_otherwise()'s). */
	if ((v == GROUND_NEAR || v == GROUND_SWAPPED) && gq != otherwise &&
	    year_on_side(&gq->q, &h->q, h->nl_flags))
		v = GROUND_STATED;
	if (v == GROUND_STATED) {
		h->grounded_at = gq->at;
		if (h->q.kind == QUANTITY_TIME && (h->nl_flags & NUMLEX_RANGE) &&
		    clock_range_backwards(c, h))
			return CHECK_REPORT;
		/* ("Total Cost for Paris: €1000 (2 days)" at €500 a day: the
		 * figure a tool gives as another price, here a rate times a span) */
		if (money && check_total_stated(c, h, role, gq) == CHECK_REPORT &&
		    !span_product(c, h, end, false) && !words_product(c, h, end))
			return CHECK_REPORT;
		if (quantity_class_of(&h->q) == QC_MONEY)
			c->said[c->n_said++ % GROUND_DERIVE_SAID] = h->q.value;
		/* an item of the answer's own list, for a total said after it (a
		 * rate over time, "€59/day", is no item of a sum) */
		if (money && (rate_of_time(c, h, end) || rate_labelled(c, h))) {
			c->rates_at[c->n_rates % CLAIMS_TOTAL_ITEMS] = gq->at;
			c->rates[c->n_rates++ % CLAIMS_TOTAL_ITEMS] = h->q.value;
		} else if (money && !(role & ~ROLE_PER) && !is_item(c, h->q.value) &&
			   c->n_totals < CLAIMS_TOTAL_ITEMS) {
			c->totals[c->n_totals++] = h->q.value;
			c->totals_at = gq->at;
		}
		return CHECK_GROUNDED;
	}
	/* "May 27th, the day before your meeting on the 28th", "tomorrow (May
	 * 21)": resolved against the day it is said relative to. */
	if (h->q.kind == QUANTITY_DATE && h->q.scale == 1 && relative_date(c, h, end))
		return CHECK_GROUNDED;
	/* "Saturday (May 18th)" where an email of 2024-05-13 says "on Saturday
	 * 18th": the month its weekday and date leave. */
	if (h->q.kind == QUANTITY_DATE && h->q.scale == 1 && weekday_day(c, h, end))
		return CHECK_GROUNDED;
	if (h->q.kind == QUANTITY_DATE && h->q.scale == 1 && upcoming_weekday(c, h, end))
		return CHECK_GROUNDED;
	if (h->q.kind == QUANTITY_DATE && h->q.scale == 1 && (h->nl_flags & NUMLEX_RANGE) &&
	    nights_range(c, h, end))
		return CHECK_GROUNDED;
	/* A count or an ordinal in words ("two ways", "the first time") is
	 * checked only for a repeat. */
	if (h->q.words && (h->q.kind == QUANTITY_COUNT || h->q.kind == QUANTITY_ORDINAL))
		return CHECK_SILENT;
	if (v == GROUND_NONE && h->q.kind == QUANTITY_IDENT &&
	    strncmp(h->q.unit, QUANTITY_STREET, strlen(QUANTITY_STREET)) == 0)
		return street_as_number(c, h);
	/* A phone number is another number, not a changed one, unless it
	 * differs from the grounded one in a digit or few (said in its place
	 * or not); and one matching none of the phone numbers the grounding
	 * gives is reported as ungrounded (with none given, it is silent, as
	 * other names are). */
	if (quantity_class_of(&h->q) == QC_PHONE) {
		if (v == GROUND_SWAPPED && !isfinite(quantity_distance(&h->q, &gq->q)))
			v = GROUND_NONE;
		if (v == GROUND_NONE)
			return ground_holds_unit(c->ground, h->q.unit_hash) ? CHECK_REPORT
									    : CHECK_SILENT;
	}
	/* A year, month, time or temperature is checked where the grounding
	 * says one like it: "A 2023 study", "by March 2027", "at 5 pm"
	 * against tool output that dates nothing claim nothing it could
	 * contradict; but "since 1997" does (since_said), and so does a day
	 * of a month ("from August 28th to September 4th"): a summary's dates
	 * that its source never gives are its own (RAGTruth dev: one more
	 * invented span, no false alarm; times so checked made SummEdits'
	 * false alarms 3 -> 20 of 1,648, in dialogue summaries); not one
	 * ahead of today (date_ahead); and a date's year that nothing gives,
	 * where the grounding gives years ("transactions for March 2285" over
	 * records of 2022): a record's date, not a plan. */
	if (v == GROUND_NONE && h->q.kind > QUANTITY_BASE && !since_said(c, h) &&
	    !(date_of_year(c, h, &month_only) &&
	      ground_holds_unit(c->ground, quantity_unit_hash("date:year"))) &&
	    !(h->q.kind == QUANTITY_DATE && h->q.scale == 1 && !date_ahead(c, h, end)) &&
	    !(h->q.kind == QUANTITY_TIME && ground_holds_unit(c->ground, h->q.unit_hash)))
		return CHECK_SILENT;
	/* "about 60 days" for 66 (near, where no other figure is said as
	 * the answer says this one): what an approximation says; not "around
	 * 93.2%" for 92%, which claims a precision the grounding lacks. */
	if (v == GROUND_NEAR && (h->nl_flags & NUMLEX_APPROX) &&
	    quantity_distance(&h->q, &gq->q) <= 0.1 && h->q.decimals <= gq->q.decimals) {
		h->grounded_at = gq->at;
		return CHECK_GROUNDED;
	}
	/* A sum computed from grounded ones ("$290" of a $145 fare for two
	 * passengers, a difference of fares) is grounded, and says how; not
	 * a range or an approximation, which estimate rather than compute. */
	/* a figure the reply derived before, said again, approximated or not */
	if (money && v != GROUND_SWAPPED && ledger_repeat(c, h))
		return CHECK_GROUNDED;
	/* "around 60 euros on your two meals at Le Baratin" (2 x 30), "Each
	 * person's share: $60" of $120: a price times what its sentence
	 * counts, or one's share of a figure; hedged or not, and where the
	 * grounding says another figure in its words */
	if (money && !(h->nl_flags & NUMLEX_RANGE) &&
	    (share_of(c, h, end) || words_product(c, h, end) || derived_product(c, h, end)))
		return CHECK_GROUNDED;
	/* a range said as the sum of the ranges listed above it, end by end */
	if (money && v != GROUND_SWAPPED && (h->nl_flags & NUMLEX_RANGE) &&
	    !(h->nl_flags & NUMLEX_APPROX) && sum_of_said(c, h, end))
		return CHECK_GROUNDED;
	/* "€110-200 per night x 3 nights = €330-600": each end of a range
	 * a rate times the span its sentence, or the one before, says */
	if (money && v != GROUND_SWAPPED && (h->nl_flags & NUMLEX_RANGE) &&
	    !(h->nl_flags & NUMLEX_APPROX) && span_product(c, h, end, true))
		return CHECK_GROUNDED;
	if (v != GROUND_SWAPPED && !(h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX))) {
		bool short_by = false;
		char how[96];
		size_t off = c->text.len;
		int k = money ? check_total_computed(c, h, role) : -1;

		if (worked_out(c, h))
			return CHECK_GROUNDED;
		if (money && span_product(c, h, end, false))
			return CHECK_GROUNDED;
		if (results && results_total(c, h, results, true))
			return CHECK_GROUNDED;
		/* of the reply's own figures: all it listed, a net of two, a mean */
		if (money && ((role & ROLE_TOTAL) ? !(role & ROLE_PER) &&
						    ledger_total(c, h, k >= 0 ? NULL : &short_by)
						  : ledger_pair(c, h, false) || ledger_average(c, h, end)))
			return CHECK_GROUNDED;
		if (k >= 0)
			return (enum check)k;
		if (short_by)
			return CHECK_REPORT;
		if (ground_derive(c->ground, &h->q, c->said, MIN(c->n_said, (size_t)GROUND_DERIVE_SAID),
				  how, sizeof(how), &h->grounded_at)) {
			if (buf_add(&c->text, how, strlen(how) + 1) == 0)
				h->source_off = off;
			return CHECK_GROUNDED;
		}
		/* a total, sum or average of figures said already, without working */
		if (money && sum_of_said(c, h, end))
			return CHECK_GROUNDED;
	}
	if (money && v != GROUND_SWAPPED && !(h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX)) &&
	    near_items_total(c, h, role, r->near.signal ? r->near.tolerance : 0))
		return CHECK_REPORT;
	return report_against(c, h, gq, by_day, otherwise);
}

/*
 * The capitalised word right before the bare number at from ("Prisma 6",
 * "Toby 3632", "Route 66", "ID: 7"), whose digits the number is: its
 * length, its bytes at *name, the bytes from its start to the number in
 * *span; 0 when there is none.
 */
static size_t name_before(const struct claims *c, uint64_t from, const char **name, size_t *span)
{
	size_t n, k, gap;
	const char *s = window_get(c->w, c->start, from, &n);

	k = quantity_name_before(s, n, &gap);
	if (k) {
		*name = s + n - gap - k;
		*span = k + gap;
	}
	return k;
}

/* True when [from, to) overlaps a pattern match held (asked in order of from). */
static bool in_match(struct claims *c, uint64_t from, uint64_t to)
{
	while (c->lex_cur < c->lex_matches && c->held[c->lex_cur].from < to) {
		c->lex_max_to = MAX(c->lex_max_to, c->held[c->lex_cur].to);
		c->lex_cur++;
	}
	return c->lex_max_to > from;
}

/*
 * "open 24 hours a day", "open 24/7", "open seven days a week": the length
 * of the phrase that starts at from (the lexer's fixed phrase, from to),
 * when "open" is one of the three words right before it; else 0. *week:
 * it counts the days, not the hours. A claim of when a place is open,
 * which opening hours can deny; "24/7 support" is no such claim.
 */
static size_t open_phrase(struct claims *c, uint64_t from, uint64_t to, bool *week)
{
	static const struct {
		const char *num, *tail;
		bool week;
	} phrases[] = {
		{"24", " hours a day", false}, {"24", "/7", false},
		{"7", " days a week", true}, {"seven", " days a week", true},
	};
	const char *p;
	size_t n, i, k, m = 0;

	p = window_get(c->w, from, to + 16, &n);
	for (k = 0; k < ARRAY_SIZE(phrases); k++) {
		size_t a = strlen(phrases[k].num), b = strlen(phrases[k].tail);

		if (n >= a + b && strncasecmp(p, phrases[k].num, a) == 0 &&
		    strncasecmp(p + a, phrases[k].tail, b) == 0) {
			m = a + b;
			*week = phrases[k].week;
			break;
		}
	}
	if (m == 0)
		return 0;
	n = m;
	p = window_get(c->w, MAX(c->start, from > 32 ? from - 32 : 0), from, &i);
	/* "open" among the three words right before ("open 24/7", "open for
	 * business 24 hours a day"), nothing but blanks between them */
	for (k = 0; k < 3; k++) {
		size_t e;

		while (i > 0 && (p[i - 1] == ' ' || p[i - 1] == '\t'))
			i--;
		for (e = i; i > 0 && isalpha((unsigned char)p[i - 1]); i--)
			;
		if (e == i)
			return 0;
		if (e - i == 4 && strncasecmp(p + i, "open", 4) == 0)
			return n;
	}
	return 0;
}

/*
 * Holds a quantity the lexer found in the sentence being decided. (Out of
 * line: inlined into lex_sentence()'s loop it cost 0.02% more.)
 */
static __attribute__((noinline)) int hold_lexed(struct claims *c, const struct numlex_item *it)
{
	const char *s, *name;
	struct held *h;
	uint64_t base = c->start, from, to;
	struct quantity q = it->q;
	uint32_t period;
	int rule, role;
	size_t n, k = 0, span = 0;
	bool all_day = false, week = false;

	/* "$1.30 to $1.40 for Q4 2019": the figure held before its period
	 * was read is said of it. */
	role = c->bind_periods
		       ? numlex_period_feed(&c->periods, c->lex_text, c->lex_len, it, &period)
		       : NUMLEX_PERIOD_OTHER;
	if (role == NUMLEX_PERIOD_BINDS)
		for (n = c->per_first; n < c->per_end; n++)
			c->held[n].period = period;
	else if (role == NUMLEX_PERIOD_FIGURE)
		c->per_first = c->per_end = c->n_held;
	if (it->flags & NUMLEX_INLINE_ITEM) {
		if (grow(&c->inl, &c->cap_inl, c->n_inl + 1, sizeof(*c->inl)) < 0)
			return -ENOMEM;
		c->inl[c->n_inl++] = (struct inline_item){it->q.value, SIZE_MAX};
	}
	if ((it->flags & NUMLEX_FIXED_PHRASE) && (k = open_phrase(c, base + it->from, base + it->to, &week))) {
		/* a time of every hour of its days, or the count of its days:
		 * held against their hours */
		all_day = !week;
		if (all_day)
			quantity_set(&q, QUANTITY_TIME, "time:clock", 0, 1);
	} else if (it->flags & (NUMLEX_NOT_CLAIM | NUMLEX_IMPLIED)) {
		/* (and "over the last decade": loose talk, not a figure) */
		return 0;
	}
	/* A bare number in words ("one of them") claims nothing, nor one inside
	 * a match, nor a citation's year there ("et al. (2024)" is the
	 * citation's). One after a name is the name's digits: compared where
	 * the grounding names the same thing ("Toby 6362" against "Toby
	 * 3632"), as "Windows 11" is. */
	if ((it->flags & NUMLEX_CITATION) && in_match(c, base + it->from, base + it->to))
		return 0;
	if (q.kind == QUANTITY_NUMBER &&
	    (q.words || in_match(c, base + it->from, base + it->to) ||
	     ((k = name_before(c, base + it->from, &name, &span)) &&
	      !quantity_set_name(&q, name, k, q.value))))
		return 0;
	/* "for 2 passengers": the party a total of the answer is for */
	if (q.kind == QUANTITY_COUNT && !q.words && q.value >= 2 && q.value <= 9 &&
	    ground_party_noun(&q))
		c->party = (unsigned)q.value;
	rule = c->class_rule[quantity_class_of(&q)];
	if (rule < 0)
		return 0;
	/* A range is reported whole; a date's year or a quarter's, as its part;
	 * a name's digits with the name. */
	from = base + ((it->flags & NUMLEX_RANGE) ? it->from : it->part_from) -
	       (k && !all_day && !week ? span : 0);
	to = all_day ? base + it->from + k : base + ((it->flags & NUMLEX_RANGE) ? it->to : it->part_to);
	if (grow(&c->held, &c->cap_held, c->n_held + 1, sizeof(*c->held)) < 0)
		return -ENOMEM;
	s = window_get(c->w, from, MIN(to, from + CLAIMS_TEXT_CAP), &n);
	h = &c->held[c->n_held];
	count_columns(c, from);
	*h = (struct held){
		.rule = (size_t)rule, .from = from, .to = to, .line = c->line + 1,
		.column = c->col_cp + 1, .text_off = c->text.len, .text_len = n,
		.truncated = n < to - from, .lexed = true, .nl_flags = it->flags, .q = q,
		.period = role == NUMLEX_PERIOD_FIGURE || role == NUMLEX_PERIOD_SAME ? period : 0,
		.quarter_year = c->bind_periods ? c->periods.quarter_year : 0,
		.compared = c->bind_periods && c->periods.quarter_year_compared,
		.expr_from = base + it->from,
		.all_day = all_day, .week = week,
	};
	if (buf_add(&c->text, s, n) < 0)
		return -ENOMEM;
	if (it->flags & NUMLEX_INLINE_ITEM)
		c->inl[c->n_inl - 1].held = c->n_held;
	c->n_held++;
	if (role == NUMLEX_PERIOD_FIGURE || role == NUMLEX_PERIOD_SAME)
		c->per_end = c->n_held;
	return 0;
}

/*
 * The numbers of a list run inline ("... 3. Hotel X, 4. Agence Y, 5. ...")
 * among the sentence's NUMLEX_INLINE_ITEM numbers: each one more than the
 * one before it (on its line, in this sentence or the last one that had
 * any) or one less than the one after it. They are labels: "Total: 5."
 * alone still says five.
 */
static void label_inline_items(struct claims *c)
{
	double prev = c->inl_line == c->line ? c->inl_last : -1;
	size_t k;

	for (k = 0; k < c->n_inl; k++) {
		double v = c->inl[k].value;

		if ((v == prev + 1 || (k + 1 < c->n_inl && c->inl[k + 1].value == v + 1)) &&
		    c->inl[k].held != SIZE_MAX)
			c->held[c->inl[k].held].label = true;
		prev = v;
	}
	if (c->n_inl > 0) {
		c->inl_last = prev;
		c->inl_line = c->line;
	}
	c->n_inl = 0;
}

/*
 * The column of offset at: counted on from the last column asked for, or,
 * for an offset before it (attrs_check() reports in the order of the
 * records, after the lexer counted the sentence's figures), counted from
 * the line's start again.
 */
static uint64_t column_of(struct claims *c, uint64_t at)
{
	const char *p;
	size_t n;

	if (c->col_at < c->line_start || at >= c->col_at) {
		count_columns(c, at);
		return c->col_cp + 1;
	}
	p = window_get(c->w, c->line_start, at, &n);
	return utf8_count(p, n) + 1;
}

/*
 * An attribute the sentence mentions (attrs_check()): held as a finding
 * when it says otherwise than the record, as a repeat of it when not.
 */
static int hold_attr(struct claims *c, const struct attrs_hit *hit)
{
	size_t from = hit->from, to = hit->to;
	const struct ground_attr *ga = hit->held;
	bool agrees = hit->agrees;
	uint64_t at = c->start + from;
	const char *s;
	struct held *h;
	size_t n;

	if (grow(&c->held, &c->cap_held, c->n_held + 1, sizeof(*c->held)) < 0)
		return -ENOMEM;
	s = c->lex_text + from;
	n = MIN(to - from, (size_t)CLAIMS_TEXT_CAP);
	h = &c->held[c->n_held];
	*h = (struct held){
		.rule = c->attr_rule, .from = at, .to = c->start + to, .line = c->line + 1,
		.column = column_of(c, at), .text_off = c->text.len, .text_len = n,
		.grounded_at = ga->at, .attr = true, .attr_agrees = agrees,
	};
	if (buf_add(&c->text, s, n) < 0)
		return -ENOMEM;
	if (agrees) {
		c->n_held++;
		return 0;
	}
	h->source_off = c->text.len;
	if (buf_add(&c->text, ga->text, strlen(ga->text) + 1) < 0)
		return -ENOMEM;
	c->n_held++;
	return 0;
}

/*
 * Merges two runs of held items, each in order of offset, [lo, mid) and
 * [mid, n_held), into one (the first's first at a tie): linear, however
 * many a hostile sentence holds.
 */
static int merge_held(struct claims *c, size_t lo, size_t mid)
{
	size_t hi = c->n_held, i, a, b;

	if (mid == lo || mid == hi)
		return 0;
	if (grow(&c->merge, &c->cap_merge, hi - lo, sizeof(*c->merge)) < 0)
		return -ENOMEM;
	memcpy(c->merge, c->held + lo, (hi - lo) * sizeof(*c->held));
	for (i = lo, a = 0, b = mid - lo; i < hi; i++)
		c->held[i] = b == hi - lo || (a < mid - lo && c->merge[a].from <= c->merge[b].from)
				     ? c->merge[a++] : c->merge[b++];
	return 0;
}

/* Holds the code at [from, to) of the sentence being lexed (ground_next_code()). */
static int hold_code(struct claims *c, size_t from, size_t to)
{
	uint64_t at = c->start + from;
	struct held *h;

	if (grow(&c->held, &c->cap_held, c->n_held + 1, sizeof(*c->held)) < 0)
		return -ENOMEM;
	h = &c->held[c->n_held];
	*h = (struct held){
		.rule = c->code_rule, .from = at, .to = c->start + to, .line = c->line + 1,
		.column = column_of(c, at), .text_off = c->text.len, .text_len = to - from,
	};
	if (buf_add(&c->text, c->lex_text + from, to - from) < 0)
		return -ENOMEM;
	c->n_held++;
	return 0;
}

/*
 * Finds the quantities of the sentence [c->start, end) and holds them with
 * the matches, in order of offset. Only where something can ground them
 * and the text is the model's.
 */
int lex_sentence(struct claims *c, uint64_t end)
{
	size_t n, first = c->n_held, i, a, code = 0;
	const char *s;
	int err;

	if (!lexing(c) || end <= c->start)
		return 0;
	s = window_get(c->w, c->start, end, &n);
	if (n < end - c->start)
		return 0; /* (never: a sentence is decided long before it leaves the window) */
	c->lex_matches = first;
	c->lex_cur = 0;
	c->lex_max_to = 0;
	c->lex_text = s;
	c->lex_len = n;
	/* Periods matter where the grounding says a figure of one. */
	c->bind_periods = ground_has_periods(c->ground);
	if (c->bind_periods)
		numlex_periods_reset(&c->periods);
	c->per_first = c->per_end = c->n_held;
	c->n_inl = 0;
	/* (the pass finds where a code may be too: most sentences have none) */
	err = 0;
	if (c->lex_numbers) {
		struct numlex lx;
		struct numlex_item items[NUMLEX_BATCH];
		unsigned opts = NUMLEX_CODE | (c->start == c->line_start ? NUMLEX_LINE_START : 0);
		int k, j;

		k = numlex_scan(&lx, s, n, opts, items, NUMLEX_BATCH);
		for (;;) {
			for (j = 0; j < k && !err; j++)
				err = hold_lexed(c, &items[j]);
			if (k < NUMLEX_BATCH || err)
				break;
			k = numlex_resume(&lx, items, NUMLEX_BATCH);
		}
		if (k < 0)
			err = k;
		code = numlex_code(&lx);
	}
	if (!err)
		label_inline_items(c);
	if (!err && c->attrs && ground_attr_count(c->ground) > 0) {
		size_t na = ground_attr_count(c->ground), k = c->n_held, m = 0, j;

		/* One per attribute the set holds, so na entries hold them all;
		 * were there more, fail, not drop. */
		if (grow(&c->hits, &c->cap_hits, na, sizeof(*c->hits)) < 0)
			err = -ENOMEM;
		else if ((m = attrs_check(c->attrs, c->ground, s, n, c->hits, na)) > na)
			err = -EOVERFLOW;
		for (j = 0; j < m && !err; j++)
			err = hold_attr(c, &c->hits[j]);
		/* In order of offset with the quantities (a few, after them). */
		for (i = k; !err && i < c->n_held; i++) {
			struct held h = c->held[i];

			for (a = i; a > first && c->held[a - 1].from > h.from; a--)
				c->held[a] = c->held[a - 1];
			c->held[a] = h;
		}
	}
	/* Codes ("ELITE15FIT", "9977f3f"), where the grounding names things
	 * with letters and digits too (ground_codes_held()): the lexer reads
	 * no figure in them, and tells where one may start (none in most
	 * sentences: no digit with a letter beside it or a "_" before it). */
	if (!err && code < n && c->code_rule != SIZE_MAX && ground_codes_held(c->ground)) {
		struct ground_codes cur = {0};
		size_t k = c->n_held, len, from;

		while (!err && (len = ground_next_code(s, n, &cur, false, &from)) > 0) {
			err = hold_code(c, from, from + len);
			/* the groups of an IBAN written in fours ("GB29 NWBK 6016
			 * ..."): the code's characters, no figures of their own */
			for (i = first; !err && memchr(s + from, ' ', len) && i < k; i++)
				if (c->held[i].lexed && c->held[i].from < c->start + from + len &&
				    c->held[i].to > c->start + from)
					c->held[i].label = true;
		}
		if (!err)
			err = merge_held(c, first, k);
	}
	if (err)
		return err;
	/* Two runs in order of offset: merged, the patterns' first at a tie. */
	return merge_held(c, 0, first);
}
