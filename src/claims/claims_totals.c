// SPDX-License-Identifier: MIT
/*
 * Counts and totals: what a sum of money is (a charge, a refund, a rate), a total or a count
 * read against the items and the tools' figures, and the ledger of the reply's own figures
 * that a total, net or average is read against. (Split from claims.c by scripts/split.py.)
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

void total_fig(char *out, size_t n, double v)
{
	const char *dot;
	size_t k;

	/* (fmath_round(), not libm's floor(): the program loads no libm, fmath.h) */
	if (v == fmath_round(v)) {
		snprintf(out, n, "%.0f", v);
		return;
	}
	k = (size_t)snprintf(out, n, "%.6f", v);
	if (k >= n || !(dot = strchr(out, '.')))
		return;
	while (k > (size_t)(dot - out) + 3 && out[k - 1] == '0')
		out[--k] = '\0';
}

/* Words (lower case) that may stand between a counting verb and its figure
 * ("found only 3", "here are the 3": words_count_filler[], words/claims.txt). */
static bool count_filler(const char *w, size_t k)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words_count_filler); i++)
		if (strlen(words_count_filler[i]) == k && memcmp(w, words_count_filler[i], k) == 0)
			return true;
	return false;
}

/* The word (ASCII letters and an apostrophe) that ends at b[at], lower
 * case in w: its length, 0 when there is none or it is too long. */
static size_t word_ending(const char *b, size_t at, char *w, size_t cap, size_t *start)
{
	size_t k = at;

	while (k > 0 && (isalpha((unsigned char)b[k - 1]) || b[k - 1] == '\''))
		k--;
	if (k == at || at - k >= cap)
		return 0;
	for (*start = k; k < at; k++)
		w[k - *start] = (char)tolower((unsigned char)b[k]);
	return at - *start;
}

/*
 * Is the bare figure h said as how many results there are: after a verb
 * of finding ("I found 4", "it returned 4", "I got 4") or "there are",
 * "here are" ("there are 4 such buses", "here are the 3 newest emails"),
 * or before "of them"? Such a figure counts the list a tool returned
 * (ground_newest_list()); any other bare figure is no count of a list.
 */
bool counts_results(struct claims *c, const struct held *h, uint64_t end)
{
	static const char *const verbs[] = {"fetched", "find", "found", "got", "retrieved",
					    "returned", "returns", "there's", "here's"};
	uint64_t lo = h->from > c->start + 40 ? h->from - 40 : c->start;
	char w[16];
	const char *b, *p;
	size_t nb, n, at, k, st, i, fillers = 0;

	if (h->q.decimals != 0 || h->q.scale != 1 || h->q.value < 0)
		return false;
	p = window_get(c->w, h->to, MIN(end, h->to + 9), &n);
	if (n >= 8 && strncasecmp(p, " of them", 8) == 0 && (n == 8 || !isalpha((unsigned char)p[8])))
		return true;
	b = window_get(c->w, lo, h->from, &nb);
	if (nb != h->from - lo)
		return false;
	at = nb;
	for (;;) {
		if (at == 0 || b[at - 1] != ' ')
			return false;
		at--;
		k = word_ending(b, at, w, sizeof(w), &st);
		if (k == 0)
			return false;
		if (count_filler(w, k) && fillers++ < 2) {
			at = st;
			continue;
		}
		break;
	}
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (strlen(verbs[i]) == k && memcmp(w, verbs[i], k) == 0)
			return true;
	/* "there are 4", "here were 4" */
	if (!((k == 3 && memcmp(w, "are", 3) == 0) || (k == 4 && memcmp(w, "were", 4) == 0)))
		return false;
	if (st == 0 || b[st - 1] != ' ')
		return false;
	k = word_ending(b, st - 1, w, sizeof(w), &st);
	return (k == 5 && memcmp(w, "there", 5) == 0) || (k == 4 && memcmp(w, "here", 4) == 0);
}

static const struct {
	const char *w;
	unsigned role;
	bool before_only; /* "comes to $86", "pay $145": a verb before its sum */
} role_words[] = { /* in strcmp() order (claims_self_check()) */
	{"altogether", ROLE_TOTAL, false},
	{"apiece", ROLE_PER, false},
	{"back", ROLE_REFUND, false},
	{"billed", ROLE_CHARGE, false},
	{"charge", ROLE_CHARGE, false},
	{"charged", ROLE_CHARGE, false},
	{"combined", ROLE_TOTAL, false},
	{"comes", ROLE_TOTAL, true},
	{"credited", ROLE_REFUND, false},
	{"difference", ROLE_DIFF, false},
	{"each", ROLE_PER, false},
	{"overall", ROLE_TOTAL, false},
	{"paid", ROLE_CHARGE, false},
	{"pay", ROLE_CHARGE, true},
	{"per", ROLE_PER, false},
	{"processed", ROLE_CHARGE, false},
	{"refund", ROLE_REFUND, false},
	{"refunded", ROLE_REFUND, false},
	{"reimbursed", ROLE_REFUND, false},
	{"total", ROLE_TOTAL, false},
	{"totaling", ROLE_TOTAL, false},
	{"totalling", ROLE_TOTAL, false},
	{"totals", ROLE_TOTAL, false},
};

const char *claims_self_check(void)
{
	size_t k;

	/* role_of_words() searches role_words by halves */
	for (k = 1; k < ARRAY_SIZE(role_words); k++)
		if (strcmp(role_words[k - 1].w, role_words[k].w) >= 0)
			return role_words[k].w;
	return NULL;
}

/* The roles the words of text[0, n) give; at most max words are read;
 * "per" or "each" among the first skip_per words not; after: the words
 * after the sum, where a verb said before one is not its. */
static unsigned role_of_words(const char *text, size_t n, size_t max, size_t skip_per, bool after)
{
	char w[16], prev[16] = "", prev2[16] = "";
	size_t i = 0, k, lo, hi, words = 0;
	unsigned role = 0;

	while (i < n && words < max) {
		size_t len = 0;

		while (i < n && !isalpha((unsigned char)text[i]))
			i++;
		while (i < n && isalpha((unsigned char)text[i])) {
			if (len + 1 < sizeof(w))
				w[len++] = (char)tolower((unsigned char)text[i]);
			i++;
		}
		if (!len)
			break;
		w[len] = '\0';
		words++;
		/* role_words is in order: the one word that can be equal */
		for (lo = 0, hi = ARRAY_SIZE(role_words); lo < hi;) {
			int d;

			k = lo + (hi - lo) / 2;
			d = strcmp(w, role_words[k].w);
			if (d == 0) {
				if (!(role_words[k].role == ROLE_PER && words <= skip_per) &&
				    !(after && role_words[k].before_only))
					role |= role_words[k].role;
				break;
			}
			if (d < 0)
				hi = k;
			else
				lo = k + 1;
		}
		/* "both of you", "the two of us", "you both" (not "two of the
		 * flights", "for both legs": a count of what is priced); words of
		 * two to four letters only */
		if (len <= 4 &&
		    (((strcmp(w, "you") == 0 || strcmp(w, "us") == 0) && strcmp(prev, "of") == 0 &&
		      (strcmp(prev2, "both") == 0 || strcmp(prev2, "two") == 0)) ||
		     (strcmp(w, "both") == 0 && strcmp(prev, "you") == 0)))
			role |= ROLE_TOTAL | ROLE_TWO;
		memcpy(prev2, prev, sizeof(prev));
		memcpy(prev, w, len + 1);
	}
	return role;
}

/*
 * A total "for 4 days" or "for 5 nights": a rate times a span of time, not
 * a fare times the party. Its sentence's words up to the sum and a few
 * after: a number then a day, night, week, month or hour (words_span[],
 * words/claims.txt).
 */
bool span_in(const char *p, size_t n, unsigned *count)
{
	size_t i, k, j;

	for (i = 0; i + 1 < n; i++) {
		if (!isdigit((unsigned char)p[i]) || (i + 1 < n && isdigit((unsigned char)p[i + 1])))
			continue;
		for (j = i + 1; j < n && p[j] == ' '; j++)
			;
		/* ("a 7-day rental") */
		if (j == i + 1 && j < n && p[j] == '-')
			j++;
		if (j == i + 1)
			continue;
		for (k = 0; k < ARRAY_SIZE(words_span); k++) {
			size_t l = strlen(words_span[k]);

			if (j + l <= n && strncasecmp(p + j, words_span[k], l) == 0 &&
			    (j + l == n || !isalpha((unsigned char)p[j + l]))) {
				size_t b = i;

				while (b > 0 && isdigit((unsigned char)p[b - 1]) && i - b < 4)
					b--;
				*count = (unsigned)strtoul(p + b, NULL, 10);
				return true;
			}
		}
	}
	return false;
}

static bool per_span_total(struct claims *c, const struct held *h, uint64_t end, unsigned *count)
{
	uint64_t lo = h->from > c->start + 80 ? h->from - 80 : c->start;
	size_t n;
	const char *p = window_get(c->w, lo, MIN(end, h->to + 24), &n);

	return span_in(p, n, count);
}

/*
 * The span the sentence before this one says ("For a 3-day trip, meals
 * come to $180. The hotel would be between $720 and $1200"): its bytes
 * back from c->start to the end of the one before it, 240 at most.
 */
static bool span_before(struct claims *c, unsigned *count)
{
	uint64_t lo = c->start > 240 ? c->start - 240 : 0;
	size_t n, i;
	const char *p = window_get(c->w, lo, c->start, &n);

	/* past its own end ("... $180.  "), then back to the one before's */
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\n' || p[n - 1] == '.' || p[n - 1] == '!' ||
		     p[n - 1] == '?'))
		n--;
	for (i = n; i > 0; i--)
		if (p[i - 1] == '\n' ||
		    ((p[i - 1] == '.' || p[i - 1] == '!' || p[i - 1] == '?') && p[i] == ' '))
			break;
	return span_in(p + i, n - i, count);
}

/* A rate over time right after h: "€59/day", "£50 per night", "$20 an hour"
 * (words_rate_unit[], words/claims.txt). */
bool rate_of_time(struct claims *c, const struct held *h, uint64_t end)
{
	const char *p;
	size_t n, i = 0, k;

	p = window_get(c->w, h->to, MIN(end, h->to + 12), &n);
	if (i < n && p[i] == '/')
		i++;
	else if (n >= 5 && strncasecmp(p, " per ", 5) == 0)
		i = 5;
	else if (n >= 3 && strncasecmp(p, " a ", 3) == 0)
		i = 3;
	else if (n >= 4 && strncasecmp(p, " an ", 4) == 0)
		i = 4;
	else
		return false;
	for (k = 0; k < ARRAY_SIZE(words_rate_unit); k++) {
		size_t l = strlen(words_rate_unit[k]);

		if (i + l <= n && strncasecmp(p + i, words_rate_unit[k], l) == 0 &&
		    (i + l == n || !isalpha((unsigned char)p[i + l])))
			return true;
	}
	return false;
}

/*
 * "For two, that comes to $170", "for two people": a party of two said
 * with "for two" and no noun of what is counted but a party's
 * (words_claims_party[], words/claims.txt: "for two nights", "for two
 * tickets" are no party). p[0, n): the words before the sum.
 */
static bool for_two_said(const char *p, size_t n)
{
	size_t i, j, k;

	for (i = 0; i + 7 <= n; i++) {
		if (strncasecmp(p + i, "for two", 7) != 0 || (i > 0 && isalpha((unsigned char)p[i - 1])))
			continue;
		j = i + 7;
		if (j == n || p[j] == ',' || p[j] == ':' || p[j] == ';' || p[j] == ')')
			return true;
		if (p[j] != ' ')
			continue;
		for (k = 0; k < ARRAY_SIZE(words_claims_party); k++) {
			size_t l = strlen(words_claims_party[k]);

			if (j + 1 + l <= n && strncasecmp(p + j + 1, words_claims_party[k], l) == 0 &&
			    (j + 1 + l == n || !isalpha((unsigned char)p[j + 1 + l])))
				return true;
		}
	}
	return false;
}

/*
 * A rate over time said as the label right before its figure ("Price per
 * day: $50.0", "**Cost per Night:** $120"): the label's "per" and unit
 * (words_per_label[]), then only blanks, a colon or the asterisks of bold
 * type.
 */
bool rate_labelled(struct claims *c, const struct held *h)
{
	uint64_t lo = h->from > c->start + 24 ? h->from - 24 : c->start;
	const char *p = NULL;
	size_t n = 0, k, l;

	p = window_get(c->w, lo, h->from, &n);
	while (n && (p[n - 1] == ' ' || p[n - 1] == ':' || p[n - 1] == '*'))
		n--;
	for (k = 0; k < ARRAY_SIZE(words_per_label); k++) {
		l = strlen(words_per_label[k]);
		if (n >= l + 5 && strncasecmp(p + n - l, words_per_label[k], l) == 0 &&
		    strncasecmp(p + n - l - 5, " per ", 5) == 0)
			return true;
	}
	return false;
}

/* The role of the sum of money h in its sentence (ROLE_*). */
unsigned money_role(struct claims *c, const struct held *h, uint64_t end)
{
	uint64_t lo = c->start, hi = end;
	const char *p;
	size_t i, n, k, at = (size_t)(h - c->held);
	unsigned before, after;

	/* the nearest sums of money on each side, among the 16 held nearest
	 * (held are in order of from: a sentence of a thousand sums costs no
	 * more per sum than one of two) */
	for (k = 1; k <= 16 && k <= at; k++) {
		const struct held *o = &c->held[at - k];

		if (o->lexed && quantity_class_of(&o->q) == QC_MONEY && o->to <= h->from) {
			lo = MAX(lo, o->to);
			break;
		}
	}
	for (k = 1; k <= 16 && at + k < c->n_held; k++) {
		const struct held *o = &c->held[at + k];

		if (o->lexed && quantity_class_of(&o->q) == QC_MONEY && o->from >= h->to) {
			hi = MIN(hi, o->from);
			break;
		}
	}
	if (h->from - lo > 160)
		lo = h->from - 160;
	p = window_get(c->w, lo, h->from, &n);
	/* ("$375 per passenger and $750 altogether": the per is the one before's) */
	before = role_of_words(p, n, 32, lo > c->start ? 3 : 0, false);
	if ((before & ROLE_TOTAL) && for_two_said(p, n))
		before |= ROLE_TWO;
	p = window_get(c->w, h->to, MIN(hi, h->to + 48), &n);
	/* (words after a comma or colon are the next clause's) */
	for (i = 0; i < n && p[i] != ',' && p[i] != ':' && p[i] != ';'; i++)
		;
	after = role_of_words(p, i, 4, 0, true);
	if (written_term(c, h, end))
		return 0;
	/* ("Total price for 4 days: £200": a rate times days, no party's fare) */
	if ((before | after) & (ROLE_TOTAL | ROLE_CHARGE) && !((before | after) & ROLE_TWO) &&
	    per_span_total(c, h, end, &c->span))
		return (before | after) | ROLE_SPAN;
	return before | after;
}

/*
 * h as factor times a figure the grounding states (a sum of money or a
 * bare number), to the cent: grounded, and says how ("7 x 48").
 */
static bool times_held(struct claims *c, struct held *h, unsigned factor)
{
	const struct ground_quantity *gq;
	struct quantity r = h->q;
	char how[64], a[32];

	r.value = h->q.value / factor;
	if (fabs(r.value * 100 - fmath_round(r.value * 100)) > 1e-6)
		return false;
	r.value = fmath_round(r.value * 100) / 100;
	if (!(gq = ground_figure_held(c->ground, &r)) ||
	    !(gq->q.kind == QUANTITY_NUMBER || quantity_class_of(&gq->q) == QC_MONEY))
		return false;
	total_fig(a, sizeof(a), r.value);
	snprintf(how, sizeof(how), "%u x %s", factor, a);
	grounded_how(c, h, how, gq->at);
	return true;
}

/*
 * A sum of money said for a span of time ("Cost for 3 days: $144",
 * "Price for 4 days: £236 (£59 per day)", "Weekly cost: $336.00"): the
 * span times a rate the grounding states (a money figure, or a bare number
 * the tool gives, "price_per_day": 48.0) grounds it, and says how ("3 x
 * 48"). Only to the cent: a random figure over a span seldom divides into
 * a grounded one.
 */
bool span_product(struct claims *c, struct held *h, uint64_t end, bool before)
{
	unsigned span = 0;
	const char *p;
	size_t n;

	/* "Weekly cost: $364", "a week-long rental", "Total for a week:
	 * $315.00", "$336.00 for a week": seven days, said nearest */
	p = window_get(c->w, h->from > c->start + 24 ? h->from - 24 : c->start, h->from, &n);
	if (week_said(p, n))
		span = 7;
	else if ((p = window_get(c->w, h->to, MIN(end, h->to + 16), &n)) && n >= 5 &&
		 strncasecmp(p, " for ", 5) == 0 && week_said(p + 5, n - 5))
		span = 7;
	else if (!per_span_total(c, h, end, &span) && !(before && span_before(c, &span)))
		return false;
	if (span < 2 || span > 366)
		return false;
	return times_held(c, h, span);
}

/*
 * A price written as a bare number ("Price for 2 people: 300.0") that is
 * the party its sentence says (2 to 9 people, persons, passengers, ...:
 * words_claims_party[], words/claims.txt) times a figure the grounding states (150.0
 * a person): grounded, to the cent, and says how ("2 x 150").
 */
bool party_product(struct claims *c, struct held *h, uint64_t end)
{
	uint64_t lo = h->from > c->start + 80 ? h->from - 80 : c->start;
	size_t n, i, j, k;
	unsigned party = 0;
	const char *p = window_get(c->w, lo, MIN(end, h->to + 24), &n);

	for (i = 0; i + 1 < n && !party; i++) {
		if (!isdigit((unsigned char)p[i]) || isdigit((unsigned char)p[i + 1]) ||
		    (i > 0 && (isdigit((unsigned char)p[i - 1]) || p[i - 1] == '.')) || p[i + 1] != ' ')
			continue;
		for (k = 0, j = i + 2; k < ARRAY_SIZE(words_claims_party); k++) {
			size_t l = strlen(words_claims_party[k]);

			if (j + l <= n && strncasecmp(p + j, words_claims_party[k], l) == 0 &&
			    (j + l == n || !isalpha((unsigned char)p[j + l])))
				party = (unsigned)(p[i] - '0');
		}
	}
	if (party < 2)
		return false;
	return times_held(c, h, party);
}

/*
 * Is h the sum of the n (two or more) sums of money the answer worked out
 * since its last total (c->results)? Only to the cent. With write, its
 * source then says them ("330 + 135 + 180").
 */
bool results_total(struct claims *c, struct held *h, size_t n, bool write)
{
	char how[CLAIMS_TOTAL_HOW], f[32];
	double sum = 0;
	size_t i, k = 0;

	if (n < 2)
		return false;
	for (i = 0; i < n; i++)
		sum += c->results[i];
	if (fabs(sum - h->q.value) >= 0.005)
		return false;
	if (!write)
		return true;
	for (i = 0; i < n && k < sizeof(how); i++) {
		total_fig(f, sizeof(f), c->results[i]);
		k += (size_t)snprintf(how + k, sizeof(how) - k, "%s%s", i ? " + " : "", f);
	}
	grounded_how(c, h, how, c->results_at);
	return true;
}

/* Writes "a + b + c = s" of the answer's items (times party, when 2 or
 * more), cut to n bytes. */

static void items_sum_text(const struct claims *c, unsigned party, char *out, size_t n)
{
	double sum = 0;
	size_t i, k = 0;
	char f[32];

	if (party >= 2)
		k += (size_t)snprintf(out + k, n - k, "(");
	for (i = 0; i < c->n_totals && k < n; i++) {
		total_fig(f, sizeof(f), c->totals[i]);
		k += (size_t)snprintf(out + k, n - k, "%s%s", i ? " + " : "", f);
		sum += c->totals[i];
	}
	if (party >= 2 && k < n) {
		k += (size_t)snprintf(out + k, n - k, ") x %u", party);
		sum *= party;
	}
	total_fig(f, sizeof(f), sum);
	if (k < n)
		snprintf(out + k, n - k, " = %s", f);
}

static double items_sum(const struct claims *c)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < c->n_totals; i++)
		sum += c->totals[i];
	return sum;
}

/* Reports h as a total the figures contradict: how says what they make. */
static enum check report_total(struct claims *c, struct held *h, unsigned kind, const char *how,
			       uint64_t at)
{
	size_t off = c->text.len;

	if (buf_add(&c->text, how, strlen(how) + 1) < 0)
		return CHECK_REPORT;
	h->source_off = off;
	h->grounded_at = at;
	h->total = (unsigned char)kind;
	return CHECK_REPORT;
}

/* The party a total is for: said in its sentence ("for both of you"), by
 * the answer ("2 passengers"), else by the grounding ("passengers": [...]). */
static unsigned party_of(const struct claims *c, unsigned role)
{
	if (role & ROLE_TWO)
		return 2;
	if (role & ROLE_SPAN)
		return 1;
	return c->party ? c->party : ground_party(c->ground);
}

static int total_flow(const struct claims *c, const struct held *h);

static bool received_total(const struct claims *c, const struct held *h);

/*
 * A total that is a rate over time the answer said ("$100 - $180 per
 * night", "$45/day") with no span at all in its sentence ("That comes to
 * $180 in total"): one night's or day's price given as the whole. Quiet
 * where the sentence says one of it ("for one night", "a single day",
 * "1 day"), a party ("for both of you": a room's price for two), or the
 * figure is also an item of the answer's own list. The rates are those
 * rate_of_time() found after a figure the grounding states.
 */
static bool rate_as_total(struct claims *c, struct held *h, unsigned role)
{
	static const char *const one[] = {"one", "1", "single"};
	uint64_t lo = h->from > c->start + 80 ? h->from - 80 : c->start;
	char how[CLAIMS_TOTAL_HOW], a[32];
	const char *p;
	size_t i, n, k, r, nr = MIN(c->n_rates, (size_t)CLAIMS_TOTAL_ITEMS);

	if (!(role & ROLE_TOTAL) || (role & (ROLE_PER | ROLE_SPAN | ROLE_TWO)) ||
	    is_item(c, h->q.value))
		return false;
	for (r = 0; r < nr; r++)
		if (fabs(c->rates[r] - h->q.value) < 0.005)
			break;
	if (r == nr)
		return false;
	/* ("for 1 night", "one day"; whole words: not "someone", "$1") */
	p = window_get(c->w, lo, h->from, &n);
	for (i = 0; i < n; i++) {
		if (i > 0 && (isalnum((unsigned char)p[i - 1]) || p[i - 1] == '$' || p[i - 1] == '.'))
			continue;
		for (k = 0; k < ARRAY_SIZE(one); k++) {
			size_t l = strlen(one[k]);

			if (i + l < n && strncasecmp(p + i, one[k], l) == 0 && p[i + l] == ' ')
				return false;
		}
	}
	total_fig(a, sizeof(a), h->q.value);
	snprintf(how, sizeof(how), "the answer gives %s as a rate over time", a);
	report_total(c, h, CLAIM_TOTAL_RATE, how, c->rates_at[r]);
	return true;
}

/*
 * A total for a party of two its own sentence says ("For two, that comes
 * to $170", "for both of you") of the one fare the answer stated, keyed
 * by the grounding as one item's price: anything but the fare times two
 * is wrong, whatever else could make it (90 + 80 with a fare of another
 * bus, a stray "1" of the record). Only where the fare is the one sum of
 * money said before it; quiet where the sentence adds to the fares ("plus
 * a $10 fee", "including taxes", "with bags": words_fare_add[]).
 */
static bool party_fare_total(struct claims *c, struct held *h, unsigned role)
{
	struct quantity item = h->q;
	char how[CLAIMS_TOTAL_HOW], a[32], b[32];
	const char *p;
	size_t n, k;

	if (!(role & ROLE_TWO) || (role & ROLE_PER) || !(role & ROLE_TOTAL) || c->n_totals != 1)
		return false;
	item.value = c->totals[0];
	if (fabs(item.value * 2 - h->q.value) < 0.005 || fabs(item.value - h->q.value) < 0.005 ||
	    c->n_results || !ground_item_price(c->ground, &item))
		return false;
	/* (the fare the only sum of money said before: "$145 out and $132
	 * back, $277 per person and $554 for both of you" sums two legs) */
	for (k = 0; k < MIN(c->n_said, (size_t)GROUND_DERIVE_SAID); k++)
		if (fabs(c->said[k] - item.value) >= 0.005)
			return false;
	p = window_get(c->w, c->start, h->to + 48, &n);
	for (k = 0; k < ARRAY_SIZE(words_fare_add); k++)
		if (memmem(p, n, words_fare_add[k], strlen(words_fare_add[k])))
			return false;
	total_fig(a, sizeof(a), item.value);
	total_fig(b, sizeof(b), item.value * 2);
	snprintf(how, sizeof(how), "2 passengers x %s = %s", a, b);
	report_total(c, h, CLAIM_TOTAL_DIFFERS, how, c->totals_at);
	return true;
}

/*
 * A total stated as a figure the grounding states (gq): one passenger's
 * fare ("price": 145) given as the total, the charge or the payment of a
 * party of two or more; one item of the answer's own list given as their
 * total, or one of its two figures as their difference. CHECK_REPORT with
 * the derivation, or CHECK_GROUNDED.
 */
enum check check_total_stated(struct claims *c, struct held *h, unsigned role,
				     const struct ground_quantity *gq)
{
	char how[CLAIMS_TOTAL_HOW], a[32], b[32];
	unsigned party;

	if ((role & ROLE_PER) || !(role & (ROLE_TOTAL | ROLE_CHARGE | ROLE_DIFF)))
		return CHECK_GROUNDED;
	/* "Total for 4 days: €59" after "€59/day": one day's rate as the total */
	if ((role & ROLE_SPAN) && c->span >= 2) {
		size_t i;

		for (i = 0; i < MIN(c->n_rates, (size_t)CLAIMS_TOTAL_ITEMS); i++)
			if (fabs(c->rates[i] - h->q.value) < 0.005) {
				total_fig(a, sizeof(a), h->q.value);
				total_fig(b, sizeof(b), h->q.value * c->span);
				snprintf(how, sizeof(how), "%u x %s = %s", c->span, a, b);
				return report_total(c, h, CLAIM_TOTAL_RATE, how, c->rates_at[i]);
			}
	}
	if (rate_as_total(c, h, role) || party_fare_total(c, h, role))
		return CHECK_REPORT;
	if ((role & (ROLE_TOTAL | ROLE_CHARGE)) && (party = party_of(c, role)) >= 2 &&
	    ground_item_price(c->ground, &h->q)) {
		total_fig(a, sizeof(a), h->q.value);
		total_fig(b, sizeof(b), h->q.value * party);
		snprintf(how, sizeof(how), "%u passengers x %s = %s", party, a, b);
		return report_total(c, h, CLAIM_TOTAL_FARE, how, gq->at);
	}
	if ((role & ROLE_TOTAL) && c->n_totals >= 2 && is_item(c, h->q.value) &&
	    fabs(items_sum(c) - h->q.value) >= 0.005 &&
	    !(total_flow(c, h) == 2 && received_total(c, h))) {
		items_sum_text(c, 0, how, sizeof(how));
		return report_total(c, h, CLAIM_TOTAL_ITEM, how, gq->at);
	}
	if ((role & ROLE_DIFF) && c->n_totals == 2 && is_item(c, h->q.value)) {
		double hi = MAX(c->totals[0], c->totals[1]), lo = MIN(c->totals[0], c->totals[1]);

		total_fig(a, sizeof(a), hi);
		total_fig(b, sizeof(b), lo);
		snprintf(how, sizeof(how), "%s - %s = ", a, b);
		total_fig(a, sizeof(a), hi - lo);
		strncat(how, a, sizeof(how) - strlen(how) - 1);
		return report_total(c, h, CLAIM_TOTAL_TERM, how, gq->at);
	}
	return CHECK_GROUNDED;
}

/*
 * A total of the one fare the answer stated, for the party: the fare times
 * the party grounds it ("$69" of a $23 fare for 3 travelers); times fewer
 * than the party, it leaves some out ("$46"). Only where the grounding
 * keys the fare as one item's price. -1: neither.
 */
static int check_party_total(struct claims *c, struct held *h, unsigned role)
{
	struct quantity item = h->q;
	unsigned party = party_of(c, role), k;
	char how[CLAIMS_TOTAL_HOW], a[32], b[32];

	item.value = c->totals[0];
	if (party < 2 || !ground_item_price(c->ground, &item))
		return -1;
	total_fig(a, sizeof(a), item.value);
	for (k = 2; k <= party; k++) {
		if (fabs(item.value * k - h->q.value) >= 0.005)
			continue;
		if (k == party) {
			snprintf(how, sizeof(how), "%s x %u", a, party);
			grounded_how(c, h, how, c->totals_at);
			return CHECK_GROUNDED;
		}
		total_fig(b, sizeof(b), item.value * party);
		snprintf(how, sizeof(how), "%u passengers x %s = %s", party, a, b);
		return report_total(c, h, CLAIM_TOTAL_DIFFERS, how, c->totals_at);
	}
	return -1;
}

/*
 * A sum of money the grounding does not state, in a role: a total, charge
 * or refund half or twice what the grounding says was one is reported; of
 * the answer's own list of items, their sum (times the party) grounds it,
 * and a total that leaves one of three or more out (or, for a party of two
 * or more, one leg of two) is reported; of one item, check_party_total().
 * -1: none of these (ground_derive() and the near check decide).
 */
int check_total_computed(struct claims *c, struct held *h, unsigned role)
{
	const struct ground_quantity *gq;
	char how[CLAIMS_TOTAL_HOW], a[32];
	unsigned party;
	double sum = items_sum(c), v = h->q.value;
	size_t i;
	char *eq;

	if (!role && c->n_totals < 2)
		return -1;
	/* "€52/day ... total for 4 days: €208": a grounded rate times the span */
	if ((role & ROLE_SPAN) && c->span >= 2)
		for (i = 0; i < MIN(c->n_rates, (size_t)CLAIMS_TOTAL_ITEMS); i++)
			if (fabs(c->rates[i] * c->span - v) < 0.005) {
				total_fig(a, sizeof(a), c->rates[i]);
				snprintf(how, sizeof(how), "%u x %s", c->span, a);
				grounded_how(c, h, how, c->rates_at[i]);
				return CHECK_GROUNDED;
			}
	if (!(role & ROLE_PER) && (role & (ROLE_TOTAL | ROLE_CHARGE | ROLE_REFUND)) &&
	    (gq = ground_charged(c->ground, &h->q))) {
		total_fig(a, sizeof(a), gq->q.value);
		if (role & (ROLE_CHARGE | ROLE_REFUND))
			snprintf(how, sizeof(how), "the %s %s", a,
				 role & ROLE_REFUND ? "refunded" : "charged");
		else
			snprintf(how, sizeof(how), "the total %s", a);
		return report_total(c, h, CLAIM_TOTAL_DIFFERS, how, gq->at);
	}
	if (c->n_totals == 1 && (role & ROLE_TOTAL) && !(role & ROLE_PER)) {
		int r = check_party_total(c, h, role);

		return r < 0 && party_fare_total(c, h, role) ? CHECK_REPORT : r;
	}
	if (c->n_totals < 2)
		return -1;
	party = party_of(c, role);
	if (fabs(sum - v) < 0.005 || (party >= 2 && fabs(sum * party - v) < 0.005)) {
		items_sum_text(c, fabs(sum - v) < 0.005 ? 0 : party, how, sizeof(how));
		if ((eq = strstr(how, " = ")))
			*eq = '\0';
		grounded_how(c, h, how, c->totals_at);
		return CHECK_GROUNDED;
	}
	/* (of two, one left out is one item: with a party of two or more,
	 * "$290" for 2 x $145 where the answer's legs are $145 and $132) */
	if (!(role & ROLE_TOTAL) || (role & ROLE_PER) || c->n_totals < (party >= 2 ? 2 : 3))
		return -1;
	for (i = 0; i < c->n_totals; i++)
		if ((c->n_totals >= 3 && fabs(sum - c->totals[i] - v) < 0.005) ||
		    (party >= 2 && fabs((sum - c->totals[i]) * party - v) < 0.005)) {
			items_sum_text(c, fabs(sum - c->totals[i] - v) < 0.005 ? 0 : party, how,
				       sizeof(how));
			return report_total(c, h, CLAIM_TOTAL_DIFFERS, how, c->totals_at);
		}
	return -1;
}

/* A total that nothing grounds, near what the answer's own list makes
 * (within the rule's tolerance): reported as differing from that. */
bool near_items_total(struct claims *c, struct held *h, unsigned role, double tolerance)
{
	unsigned party;
	double sum = items_sum(c), v = h->q.value;
	char how[CLAIMS_TOTAL_HOW];

	if (!(role & ROLE_TOTAL) || (role & ROLE_PER) || c->n_totals < 2 || !(tolerance > 0))
		return false;
	party = party_of(c, role);
	if (party >= 2 && fabs(sum * party - v) <= tolerance * sum * party)
		sum *= party;
	else if (fabs(sum - v) <= tolerance * sum)
		party = 0;
	else
		return false;
	items_sum_text(c, party, how, sizeof(how));
	report_total(c, h, CLAIM_TOTAL_DIFFERS, how, c->totals_at);
	return true;
}

/* How far before a count its clause is read for the value it counts. */
#define GROUP_BEFORE 80

/*
 * Is the count h (of a noun) as many as the items of the turn's lists that
 * share a field's value, that value said in its clause before it ("**Charlie**:
 * 2 messages", "Alice sent 3 messages")? Its clause: back to its line's
 * start or the figure before it, at most GROUP_BEFORE bytes.
 */
bool group_counted(struct claims *c, struct held *h)
{
	uint64_t lo = MAX(c->start, h->from > GROUP_BEFORE ? h->from - GROUP_BEFORE : 0);
	const char *p, *line;
	size_t n, i, nl;

	/* Only ground_group_said() and ground_group_pair_said() make it true,
	 * and each takes only a group counted h's value times: with none, the
	 * clause before and after the count (every strncasecmp() below) need
	 * not be read. Nothing else here writes to c or h. */
	if (!ground_group_counts(c->ground, h->q.value))
		return false;
	p = window_get(c->w, lo, h->from, &n);
	if (n != h->from - lo)
		return false;
	for (i = n; i > 0 && p[i - 1] != '\n' && !isdigit((unsigned char)p[i - 1]); i--)
		;
	if (ground_group_said(c->ground, p + i, n - i, h->q.value, &h->grounded_at))
		return true;
	/* (its line before it, past figures: the "Charlie" of "Charlie: 2
	 * messages (1 in general") */
	for (i = n; i > 0 && p[i - 1] != '\n'; i--)
		;
	line = p + i;
	nl = n - i;
	/* "1 in private", "(2 from Alice)": the value named after it, in its
	 * clause (to a comma, a bracket, a sentence's or a line's end or the
	 * next figure), after "in", "from" or "by". */
	p = window_get(c->w, h->to, h->to + GROUP_BEFORE, &n);
	for (i = 0; i < n && !strchr("\n,;:.()[]", p[i]) && !isdigit((unsigned char)p[i]); i++)
		;
	/* "4 Chinese restaurants" (a bare figure: the lexer gives a count
	 * no noun past a capital): the value between it and its noun, the
	 * capitalised words right after it, a lowercase word (the noun) next. */
	if (h->q.kind == QUANTITY_NUMBER) {
		size_t a = 0, z = 0, w = 0;

		while (a < i && p[a] == ' ')
			a++;
		for (w = a; w < i && isupper((unsigned char)p[w]);) {
			for (z = w; z < i && p[z] != ' '; z++)
				;
			for (w = z; w < i && p[w] == ' '; w++)
				;
		}
		if (a > 0 && z > a && w > z && w < i && islower((unsigned char)p[w]) &&
		    ground_group_said(c->ground, p + a, z - a, h->q.value, &h->grounded_at))
			return true;
	}
	for (size_t k = 0; k + 4 <= i; k++) {
		size_t w = 0;

		if (k > 0 && isalnum((unsigned char)p[k - 1]))
			continue;
		if (strncasecmp(p + k, "in ", 3) == 0)
			w = 3;
		else if (k + 5 <= i && (strncasecmp(p + k, "from ", 5) == 0))
			w = 5;
		else if (strncasecmp(p + k, "by ", 3) == 0)
			w = 3;
		if (w && (ground_group_said(c->ground, p + k + w, i - k - w, h->q.value,
					    &h->grounded_at) ||
			  ground_group_pair_said(c->ground, line, nl, p + k + w, i - k - w, h->q.value,
						 &h->grounded_at)))
			return true;
	}
	return false;
}

/* How far after a count of addresses they are read (urls_listed()). */
#define URLS_AFTER 400

/*
 * "There are 2 URLs: www.a.example and www.b.example", "2 links:" then a
 * list of them: a count of web addresses (its word "URL", "link" or
 * "website": words_url_noun[]) that is as many as the distinct addresses the answer writes
 * right after it (URLS_AFTER bytes, to a blank line). Each address is
 * checked on its own (fabricated_url); the count is of what it lists.
 */
bool urls_listed(struct claims *c, const struct held *h)
{
	const char *p, *seen[20];
	size_t n, i, k, j, len[20], found = 0;
	double v = h->q.value;

	if (v < 1 || v > 20 || v != floor(v))
		return false;
	p = window_get(c->w, h->to, h->to + URLS_AFTER, &n);
	for (i = 0; i < n && p[i] == ' '; i++)
		;
	for (k = i; k < n && isalpha((unsigned char)p[k]); k++)
		;
	for (j = 0; j < ARRAY_SIZE(words_url_noun); j++)
		if (strlen(words_url_noun[j]) == k - i &&
		    strncasecmp(p + i, words_url_noun[j], k - i) == 0)
			break;
	if (i == 0 || j == ARRAY_SIZE(words_url_noun))
		return false;
	for (i = k; i + 4 < n && !(p[i] == '\n' && p[i + 1] == '\n'); i++) {
		size_t e, f;

		if (i > k && (isalnum((unsigned char)p[i - 1]) || p[i - 1] == '/' || p[i - 1] == '.'))
			continue;
		if (strncasecmp(p + i, "http://", 7) == 0 || strncasecmp(p + i, "https://", 8) == 0)
			e = i + (p[i + 4] == ':' ? 7 : 8);
		else if (strncasecmp(p + i, "www.", 4) == 0)
			e = i;
		else
			continue;
		if (strncasecmp(p + e, "www.", 4) == 0)
			e += 4;
		for (f = e; f < n && !isspace((unsigned char)p[f]) && !strchr(",;)]>\"'", p[f]); f++)
			;
		while (f > e && p[f - 1] == '.')
			f--;
		if (f == e || f == n)
			return false; /* (an address cut off where the window ends) */
		for (j = 0; j < found; j++)
			if (len[j] == f - e && strncasecmp(seen[j], p + e, f - e) == 0)
				break;
		if (j == found) {
			if (found == ARRAY_SIZE(seen))
				return false;
			seen[found] = p + e;
			len[found++] = f - e;
		}
		i = f - 1;
	}
	return found == (size_t)v;
}

/* A bare figure the reply quoted rather than worked out (a "rating of 4.4"). */
static bool ledger_quoted(const struct ledger_fig *e)
{
	return e->bare && !e->worked && !e->derived;
}

/*
 * What the total h's words before it say it counts: 1 money spent
 * ("Total spent", "spending"), 2 money received ("Total received"), or 0
 * (words_spent[], words_received[]: words/claims.txt).
 */
static int total_flow(const struct claims *c, const struct held *h)
{
	uint64_t from = h->from > c->start + 48 ? h->from - 48 : c->start;
	char low[49];
	const char *p;
	size_t n, i;
	int flow = 0;

	p = window_get(c->w, from, h->from, &n);
	for (i = 0; i < n && i < 48; i++)
		low[i] = (char)tolower((unsigned char)p[i]);
	low[i] = '\0';
	for (i = 0; i < ARRAY_SIZE(words_spent); i++)
		if (strstr(low, words_spent[i]))
			flow |= 1;
	for (i = 0; i < ARRAY_SIZE(words_received); i++)
		if (strstr(low, words_received[i]))
			flow |= 2;
	return flow == 3 ? 0 : flow;
}

/*
 * Whether the total h ("Total received: $10") is the sum of the figures the
 * reply labelled received since its last total (past the totals said just
 * before it), one or more.
 */
static bool received_total(const struct claims *c, const struct held *h)
{
	size_t k, n = MIN(c->n_ledger, (size_t)CLAIMS_LEDGER), m = 0, seen = 0;
	double sum = 0;

	for (k = 0; k < n; k++) {
		const struct ledger_fig *e = ledger_at(c, k);

		if (!ledger_unit(e, &h->q))
			continue;
		if (e->total && seen)
			break;
		if (e->per || e->total)
			continue;
		seen++;
		if (e->in) {
			sum += e->v;
			m++;
		}
	}
	if (k == n && c->n_ledger > CLAIMS_LEDGER)
		return false;
	return m >= 1 && fabs(sum - h->q.value) < 0.005;
}

/*
 * Whether the ledger's figure e is a part of a total taken as s: 0 all of
 * them, 1 those written with "-", 2 with "+", 3 all but the bare figures
 * the reply quoted ("- Hotel: 270 (3 nights x 90)" ... "Total: 420", past
 * a "rating of 4.4"), 4 all but those labelled received where the total
 * says it is spent, 5 those labelled received alone where it says it is
 * received ("- Sushi dinner: $10 (received)" ... "Total spent: $1350",
 * "Total received: $10").
 */
static bool ledger_part(const struct ledger_fig *e, int s, int flow)
{
	switch (s) {
	case 0: return true;
	case 1: return e->sign == -1;
	case 2: return e->sign == 1;
	case 3: return !ledger_quoted(e);
	case 4: return flow == 1 && !e->in;
	default: return flow == 2 && e->in;
	}
}

/*
 * A total (h) that is every figure the reply listed since its last total,
 * two or more, rates left out ("- London: €300 (2 nights) ... - Paris:
 * €324 ... Total: €4,204"), or all it wrote with one sign ("-50.0",
 * "-1000.0", "+10.0": spending of 1050.0): not a part of them, which leaves
 * one out: with short_by, one that is all of three or more but one is
 * reported as differing from their sum (*short_by set). Only where the
 * ring holds them all; to the cent.
 */
bool ledger_total(struct claims *c, struct held *h, bool *short_by)
{
	char how[CLAIMS_TOTAL_HOW], f[32];
	size_t k, n = MIN(c->n_ledger, (size_t)CLAIMS_LEDGER), len = 0, first = 0;
	size_t m[6] = {0, 0, 0, 0, 0, 0};
	double sum[6] = {0, 0, 0, 0, 0, 0};
	int s, pick = -1, flow = total_flow(c, h);

	for (k = 0; k < n; k++) {
		const struct ledger_fig *e = ledger_at(c, k);

		if (!ledger_unit(e, &h->q))
			continue;
		/* (past the totals said just before one of the other flow:
		 * "Total spent: $1350", then "Total received: $10") */
		if (e->total && !(flow && m[0] == 0))
			break;
		if (e->per || e->total)
			continue;
		/* [0] all of them, [1] those written with "-", [2] with "+",
		 * [3] all but the bare figures it quoted ("- Hotel: 270 (3
		 * nights x 90)" ... "Total: 420", past a "rating of 4.4") */
		for (s = 0; s < 6; s++)
			if (ledger_part(e, s, flow)) {
				sum[s] += e->v;
				m[s]++;
			}
		first = k;
	}
	if (k == n && c->n_ledger > CLAIMS_LEDGER)
		return false;
	for (s = 0; s < 6 && pick < 0; s++)
		if (m[s] >= (s == 5 ? 1u : 2u) && fabs(sum[s] - h->q.value) < 0.005)
			pick = s;
	if (pick < 0 && m[0] >= 3 && short_by)
		for (k = 0; k <= first && !*short_by; k++) {
			const struct ledger_fig *e = ledger_at(c, k);

			*short_by = ledger_unit(e, &h->q) && !e->per && !e->total &&
				    fabs(sum[0] - e->v - h->q.value) < 0.005;
		}
	if (pick < 0 && !(short_by && *short_by))
		return false;
	how[0] = '\0';
	for (k = first + 1; k-- > 0 && len < sizeof(how);) {
		const struct ledger_fig *e = ledger_at(c, k);

		if (!ledger_unit(e, &h->q) || e->per || e->total || !ledger_part(e, pick < 0 ? 0 : pick, flow))
			continue;
		total_fig(f, sizeof(f), e->v);
		len += (size_t)snprintf(how + len, sizeof(how) - len, "%s%s", len ? " + " : "", f);
	}
	if (pick >= 0)
		return grounded_how(c, h, how, ledger_at(c, first)->at);
	/* one left out: what they all make */
	total_fig(f, sizeof(f), sum[0]);
	if (len < sizeof(how))
		snprintf(how + len, sizeof(how) - len, " = %s", f);
	report_total(c, h, CLAIM_TOTAL_DIFFERS, how, ledger_at(c, first)->at);
	return false;
}

/*
 * h, said as no total, as the sum or the difference of two figures of the
 * ledger ("Net spending: €1,340.00" after totals of €1,350.00 and
 * €10.00): one of them derived (two the tools state are ground_derive()'s,
 * with what the reply said), or, for a bare figure said as a difference,
 * any two. (A total of two of three it listed leaves one out.)
 */
bool ledger_pair(struct claims *c, struct held *h, bool bare)
{
	size_t i, j, n = MIN(c->n_ledger, (size_t)CLAIMS_LEDGER);
	char how[CLAIMS_LEDGER_HOW + 8], a[32], b[32];

	for (i = 0; i < n; i++) {
		const struct ledger_fig *p = ledger_at(c, i);

		if (!ledger_unit(p, &h->q))
			continue;
		for (j = i + 1; j < n; j++) {
			const struct ledger_fig *q = ledger_at(c, j);
			double hi = MAX(p->v, q->v), lo = MIN(p->v, q->v);

			if (!ledger_unit(q, &h->q) || !(bare || p->derived || q->derived))
				continue;
			if (fabs(p->v + q->v - h->q.value) < 0.005) {
				total_fig(a, sizeof(a), q->v);
				total_fig(b, sizeof(b), p->v);
				snprintf(how, sizeof(how), "%s + %s", a, b);
			} else if (fabs(hi - lo - h->q.value) < 0.005) {
				total_fig(a, sizeof(a), hi);
				total_fig(b, sizeof(b), lo);
				snprintf(how, sizeof(how), "%s - %s", a, b);
			} else {
				continue;
			}
			return grounded_how(c, h, how, q->at);
		}
	}
	return false;
}

#define LEDGER_AVG_AFTER 16

#define LEDGER_AVG_TERMS 4

/*
 * h said as an average ("€37.5 average", "an average of $31") of two to
 * LEDGER_AVG_TERMS figures the reply listed one after the other ("- House
 * of Sushi: €40 ... - Home Kitchen: €35"): grounded by their mean, to the
 * cent.
 */
bool ledger_average(struct claims *c, struct held *h, uint64_t end)
{
	size_t idx[LEDGER_AVG_TERMS];
	size_t k, m, i, n, nb, len, terms;
	const char *p;
	char how[CLAIMS_LEDGER_HOW + 16], f[32];
	bool said = false;

	p = window_get(c->w, h->from > c->start + LEDGER_AVG_BEFORE ? h->from - LEDGER_AVG_BEFORE
								      : c->start, h->from, &nb);
	for (i = 0; i + 6 <= nb && !said; i++)
		said = strncasecmp(p + i, "averag", 6) == 0;
	p = window_get(c->w, h->to, MIN(end, h->to + LEDGER_AVG_AFTER), &n);
	for (i = 0; i + 6 <= n && !said; i++)
		said = strncasecmp(p + i, "averag", 6) == 0;
	if (!said)
		return false;
	/* the newest first: each run of m figures of h's unit that ends at k */
	for (k = 0; k < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER); k++) {
		double sum = 0;

		if (!ledger_unit(ledger_at(c, k), &h->q))
			continue;
		for (i = k, m = 0; i < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER) && m < LEDGER_AVG_TERMS;
		     i++) {
			const struct ledger_fig *e = ledger_at(c, i);

			if (!ledger_unit(e, &h->q))
				continue;
			sum += e->v;
			idx[m++] = i;
			if (m < 2 || fabs(sum / (double)m - h->q.value) >= 0.005)
				continue;
			terms = m;
			len = (size_t)snprintf(how, sizeof(how), "(");
			while (m-- > 0 && len < sizeof(how)) {
				total_fig(f, sizeof(f), ledger_at(c, idx[m])->v);
				len += (size_t)snprintf(how + len, sizeof(how) - len, "%s%s", f,
							m ? " + " : "");
			}
			if (len < sizeof(how))
				snprintf(how + len, sizeof(how) - len, ") / %zu", terms);
			return grounded_how(c, h, how, e->at);
		}
	}
	return false;
}

/*
 * A count that is the product of two the reply said before it, both
 * grounded: one of its noun, the other a count or a span of whole days
 * ("2 meals/day for 3 days (6 meals total)", "2 meals x 2 people"); each
 * said before it in its sentence or in the sentence before that held
 * figures ("For 2 meals per day over 3 days, ... This includes the hotel
 * for 3 days and 6 meals").
 */
static const struct quantity *count_term(const struct claims *c, size_t at, size_t i,
					  uint64_t *grounded_at)
{
	if (i < at) {
		const struct held *a = &c->held[i];

		if (!a->lexed || c->chk[i] != CHECK_GROUNDED)
			return NULL;
		*grounded_at = a->grounded_at;
		return &a->q;
	}
	*grounded_at = c->prev_at[i - at];
	return &c->prev_counts[i - at];
}

bool count_product(struct claims *c, struct held *h)
{
	size_t at = (size_t)(h - c->held), i, j, all = at + c->n_prev;
	char how[64], x[32];
	uint64_t a_at, b_at;

	for (i = 0; i < all; i++) {
		const struct quantity *a = count_term(c, at, i, &a_at);

		if (!a || a->kind != QUANTITY_COUNT || a->unit_hash != h->q.unit_hash || !(a->value >= 1))
			continue;
		for (j = 0; j < all; j++) {
			const struct quantity *b = count_term(c, at, j, &b_at);
			double k;

			if (j == i || !b)
				continue;
			k = b->value;
			if (quantity_class_of(b) == QC_DURATION)
				k /= QUANTITY_DAY_SECONDS;
			else if (b->kind != QUANTITY_COUNT)
				continue;
			if (k < 2 || k > 366 || k != floor(k) || a->value * k != h->q.value)
				continue;
			total_fig(x, sizeof(x), a->value);
			snprintf(how, sizeof(how), "%s x %.0f", x, k);
			return grounded_how(c, h, how, a_at);
		}
	}
	return false;
}

/* Keeps the grounded counts and spans of days of the sentence decided, when it held figures. */
void counts_keep(struct claims *c)
{
	size_t i, n = 0;
	bool figures = false;

	for (i = 0; i < c->n_held; i++) {
		const struct held *h = &c->held[i];

		if (!h->lexed || h->label)
			continue;
		figures = true;
		if (c->chk[i] != CHECK_GROUNDED || n == CLAIMS_PREV_COUNTS ||
		    !(h->q.kind == QUANTITY_COUNT || quantity_class_of(&h->q) == QC_DURATION))
			continue;
		c->prev_counts[n] = h->q;
		c->prev_at[n++] = h->grounded_at;
	}
	if (figures)
		c->n_prev = n;
}

/*
 * A whole count that is a count of its noun per day times a span of days,
 * both of which the grounding states ("6 meals" of the user's "two meals
 * a day" and "3-day trip"): the span 2 to 31 days, the count per day one
 * or more, exact.
 */
bool count_per_span(struct claims *c, struct held *h)
{
	const struct ground_context none = {0};
	const struct ground_quantity *gk;
	struct quantity k;
	enum ground_verdict vk;
	char how[64];
	unsigned days;

	if (h->q.items || h->q.decimals || !(h->q.value >= 2 && h->q.value <= 1000) ||
	    h->q.value != floor(h->q.value))
		return false;
	/* (a whole value of 2 to 1,000 is exact as an unsigned, and fmod() is
	 * exact: the same remainder, for one division, not a long one) */
	for (days = 2; days <= 31; days++) {
		if ((unsigned)h->q.value % days != 0)
			continue;
		k = h->q;
		k.value = h->q.value / days;
		/* (the span's search, once a state of the set: ground_days_stated()) */
		if (!ground_days_stated(c->ground, days) ||
		    !(gk = ground_match_quantity(c->ground, &k, &none, 0, &vk)) || vk != GROUND_STATED ||
		    gk->q.kind != QUANTITY_COUNT || gk->q.unit_hash != h->q.unit_hash)
			continue;
		snprintf(how, sizeof(how), "%.0f x %u", k.value, days);
		return grounded_how(c, h, how, gk->at);
	}
	return false;
}

/*
 * A bare whole number in brackets right after a noun ("the fewest messages
 * (0)", "Reviews (4)"): as many of that noun, so grounded as that count
 * is ("0 messages" of a channel's empty list).
 */
bool bracketed_count(struct claims *c, struct held *h)
{
	struct ground_context none = {0};
	char noun[QUANTITY_UNIT_MAX];
	enum ground_verdict v;
	struct quantity q;
	const struct ground_quantity *gq;
	const char *p;
	size_t n, i, k;

	if (h->q.value < 0 || h->q.value != floor(h->q.value) || h->q.decimals || h->from < 4)
		return false;
	p = window_get(c->w, h->to, h->to + 1, &n);
	if (n != 1 || p[0] != ')')
		return false;
	p = window_get(c->w, h->from > 40 ? h->from - 40 : 0, h->from, &n);
	if (n < 4 || p[n - 1] != '(' || p[n - 2] != ' ')
		return false;
	for (i = n - 2; i > 0 && isalpha((unsigned char)p[i - 1]); i--)
		;
	k = n - 2 - i;
	if (k < 3 || k >= sizeof(noun) || (i > 0 && !isspace((unsigned char)p[i - 1])))
		return false;
	for (size_t j = 0; j < k; j++)
		noun[j] = (char)tolower((unsigned char)p[i + j]);
	noun[k] = '\0';
	/* (singular, as a count's noun is: "messages" -> "message") */
	if (k > 4 && strcmp(noun + k - 3, "ies") == 0)
		strcpy(noun + k - 3, "y");
	else if (k > 3 && noun[k - 1] == 's' && noun[k - 2] != 's' && noun[k - 2] != 'u' && noun[k - 2] != 'i')
		noun[k - 1] = '\0';
	quantity_set(&q, QUANTITY_COUNT, noun, h->q.value, 1);
	gq = ground_match_quantity(c->ground, &q, &none, 0, &v);
	if (v != GROUND_STATED)
		return false;
	h->grounded_at = gq->at;
	return true;
}

/* Whether the figure h is labelled money received right after it ("$10 (received)"). */
static bool received_after(const struct claims *c, const struct held *h)
{
	static const char *const labels[] = {"(received)", "(incoming)", "(credit)", "(refund)"};
	const char *p;
	size_t n, i, l;

	p = window_get(c->w, h->to, MIN(c->dec_end, h->to + 16), &n);
	while (n && (*p == ' ' || *p == '*')) {
		p++;
		n--;
	}
	for (i = 0; i < ARRAY_SIZE(labels); i++)
		if (n >= (l = strlen(labels[i])) && strncasecmp(p, labels[i], l) == 0)
			return true;
	return false;
}

/* Adds h, checked chk, to the ledger when it is one of the reply's figures. */
void ledger_add(struct claims *c, const struct held *h, enum check chk)
{
	struct ledger_fig *f;
	bool bare = h->q.kind == QUANTITY_NUMBER;

	if (!h->lexed || chk != CHECK_GROUNDED || h->term || h->q.scale != 1 ||
	    !(h->q.value > 0 && h->q.value < 1e12) ||
	    /* (a range's ends are no figures, but where each is worked out) */
	    ((h->nl_flags & NUMLEX_RANGE) && !h->source_off) ||
	    !(quantity_class_of(&h->q) == QC_MONEY || (bare && (h->q.decimals > 0 || h->worked))))
		return;
	f = &c->ledger[c->n_ledger++ % CLAIMS_LEDGER];
	*f = (struct ledger_fig){.v = h->q.value, .unit_hash = h->q.unit_hash,
				 .at = h->grounded_at, .said = h->from, .bare = bare, .worked = h->worked,
				 .derived = h->source_off != 0, .per = h->per || h->other_role,
				 .total = h->total_role};
	if (f->derived)
		snprintf(f->how, sizeof(f->how), "%s", c->text.data + h->source_off);
	if (h->from > c->start) {
		const char *p;
		size_t n;

		p = window_get(c->w, h->from - 1, h->from, &n);
		f->sign = n == 1 && *p == '-' ? -1 : n == 1 && *p == '+' ? 1 : 0;
	}
	f->in = received_after(c, h);
}
