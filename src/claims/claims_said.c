// SPDX-License-Identifier: MIT
/*
 * Figures the reply works out in words: a price times the counts its sentence names, a share
 * of a total, an amount updated by a figure, a total under the list it sums, a tool list's
 * total, a range's midpoint, and the sum of the two figures said just before. (Split from
 * claims.c by scripts/split.py.)
 */
#include "claims.h"
#include "claims_int.h"

#include "common/fmath.h"
#include "ground/attrs.h"
#include "ground/bib.h"
#include "ground/ground.h"
#include "numbers/arith.h"
#include "numbers/cardinal.h"
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

/* ---- products, shares and updates of figures the tools or the user give ---- */

/*
 * Whether lit is in p[0, n): memchr() for its first byte, then the rest
 * (glibc's memmem() costs some hundreds of instructions a call on a window
 * this short; these run on every sum of money nothing states).
 */
static bool has_lit(const char *p, size_t n, const char *lit)
{
	size_t l = strlen(lit);
	const char *e = p + n, *q = p;

	while (l && (size_t)(e - q) >= l && (q = memchr(q, lit[0], (size_t)(e - q) - l + 1))) {
		if (memcmp(q + 1, lit + 1, l - 1) == 0)
			return true;
		q++;
	}
	return false;
}

/* How far before a figure its sentence's words are read for a product or a share. */
#define PRODUCT_BEFORE 112

/* (inline: this runs over every byte of the words before a figure) */
static inline bool ascii_alnum(char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* A count of 2 to 9 in words ("two meals"; numbers/cardinal.h); 0 when w[0, k) is none. */
static unsigned count_word(const char *w, size_t k)
{
	return (unsigned)cardinal_word(w, k, 2, 9);
}

/*
 * The counts of 2 to 9 p[0, n) says of a noun ("2 meals", "two meals", "3
 * nights", "a 3-day trip"; "lunch and dinner" is two), leaving out the
 * bytes [skip, skip_to) (the figure itself); at most cap, in order. A
 * digit of another figure ("$30", "5.0", "15") is none. *span: one of
 * them counts days or nights.
 */
static size_t counts_said(const char *p, size_t n, size_t skip, size_t skip_to, unsigned *out,
			  size_t cap, bool *span)
{
	static const char *const pairs[] = {"lunch and dinner", "breakfast and lunch",
					    "breakfast and dinner"};
	size_t i = 0, k = 0, ws, j;

	*span = false;
	while (i < n && k < cap) {
		unsigned v = 0;

		if (i >= skip && i < skip_to) {
			i = skip_to;
			continue;
		}
		if (!ascii_alnum(p[i])) {
			i++;
			continue;
		}
		for (ws = i; i < n && ascii_alnum(p[i]); i++)
			;
		if (i - ws == 1 && isdigit((unsigned char)p[ws]) && p[ws] >= '2' &&
		    !(ws > 0 && strchr("$.,", p[ws - 1])) && !(i < n && strchr(".,", p[i]) && i + 1 < n &&
							      isdigit((unsigned char)p[i + 1])))
			v = (unsigned)(p[ws] - '0');
		else if (i - ws >= 3 && i - ws <= 5)
			v = count_word(p + ws, i - ws);
		/* (the first letter first: one compare for most words) */
		for (j = 0; !v && i - ws >= 5 && j < ARRAY_SIZE(pairs); j++)
			if (tolower((unsigned char)p[ws]) == pairs[j][0] && n - ws >= strlen(pairs[j]) &&
			    strncasecmp(p + ws, pairs[j], strlen(pairs[j])) == 0) {
				out[k++] = 2;
				i = ws + strlen(pairs[j]);
				break;
			}
		/* then a noun: "2 meals", "3-day", not "2," or "2 $" */
		if (!v || i + 1 >= n || !(p[i] == ' ' || p[i] == '-') || !islower((unsigned char)p[i + 1]))
			continue;
		out[k++] = v;
		if ((n - i - 1 >= 3 && strncmp(p + i + 1, "day", 3) == 0) ||
		    (n - i - 1 >= 5 && strncmp(p + i + 1, "night", 5) == 0))
			*span = true;
	}
	return k;
}

/* Whether p[0, n) ties a count to a price: "each", "per", "at", "a day", "/". */
static bool price_tied(const char *p, size_t n)
{
	static const char *const ties[] = {" each", " per ", " at ", " a day", " a night",
					   " apiece", "/day", "/night", "/meal", "/person"};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(ties); k++)
		if (has_lit(p, n, ties[k]))
			return true;
	return false;
}

/*
 * h as factor times a price: a sum of money the grounding states, or a
 * figure the reply has said as money and the grounding states ("$30
 * each" of a tool's "Le Baratin": 30.0); not any bare number (a rating of
 * 5, a count of reviews). To the cent; says how ("2 x 30").
 */
static bool price_times(struct claims *c, struct held *h, unsigned factor)
{
	const struct ground_quantity *gq;
	struct quantity r = h->q;
	char how[64], a[32];
	size_t i;

	r.value = h->q.value / factor;
	if (fabs(r.value * 100 - fmath_round(r.value * 100)) > 1e-6)
		return false;
	r.value = fmath_round(r.value * 100) / 100;
	if (!(gq = ground_figure_held(c->ground, &r)))
		return false;
	for (i = 0; i < MIN(c->n_said, (size_t)GROUND_DERIVE_SAID) &&
		    fabs(c->said[i] - r.value) >= 0.005; i++)
		;
	if (quantity_class_of(&gq->q) != QC_MONEY &&
	    !(gq->q.kind == QUANTITY_NUMBER && i < MIN(c->n_said, (size_t)GROUND_DERIVE_SAID)))
		return false;
	total_fig(a, sizeof(a), r.value);
	snprintf(how, sizeof(how), "%u x %s", factor, a);
	return grounded_how(c, h, how, gq->at);
}

/*
 * Whether h is itself said as a price of one ("€50 per meal", "$15 each",
 * "cost per person = €40.0", "an average of $30"): a rate, not a price
 * times a count. ("$50 per day" of two meals a day may be either.)
 */
static bool said_as_rate(struct claims *c, const struct held *h, uint64_t end)
{
	static const char *const after[] = {" per meal", " per person", " per item", "/meal",
					    "/person", " each", " a person", " a meal", " apiece"};
	static const char *const before[] = {"per person", "per meal", "average", "Average",
					     "each", "Each"};
	const char *p;
	size_t n, k;

	p = window_get(c->w, h->to, MIN(end, h->to + 12), &n);
	for (k = 0; k < ARRAY_SIZE(after); k++)
		if (n >= strlen(after[k]) && strncmp(p, after[k], strlen(after[k])) == 0)
			return true;
	p = window_get(c->w, h->from > c->start + 24 ? h->from - 24 : c->start, h->from, &n);
	/* (its own clause: "$25 each, so $50 a day" has its "each" before the comma) */
	for (k = n; k > 0 && !strchr(",;.", p[k - 1]); k--)
		;
	p += k;
	n -= k;
	for (k = 0; k < ARRAY_SIZE(before); k++)
		if (has_lit(p, n, before[k]))
			return true;
	return false;
}

/* (defined below, with the totals under a list) */
static uint64_t line_start_of(const struct claims *c, uint64_t at, uint64_t lo);
static bool item_line(const char *p, size_t n, size_t *indent);
static bool blank_line(const char *p, size_t n);

/* How far back, and over how many lines, a list's heading is sought. */
#define HEADING_BACK 2048
#define HEADING_LINES 16

/*
 * The span of days or nights the heading of h's list says ("### Estimated
 * Cost for a 3-Day Trip (Per Person):" above "- Meals (2 meals per day):
 * $90.0"): h's line is an item of a list, and the first line above it that
 * is neither an item nor blank is a heading ("#") or ends with a colon and
 * says the span (2 to 31). 0 otherwise, or when it is further up than
 * HEADING_LINES lines or HEADING_BACK bytes.
 */
static unsigned heading_span(const struct claims *c, const struct held *h)
{
	uint64_t ls = line_start_of(c, h->from, h->from > 512 ? h->from - 512 : 0), lo;
	const char *p;
	size_t n, ind, m;
	unsigned span = 0;

	if (ls == UINT64_MAX)
		return 0;
	p = window_get(c->w, ls, h->from, &n);
	if (n != h->from - ls || !item_line(p, n, &ind))
		return 0;
	lo = MAX(ls > HEADING_BACK ? ls - HEADING_BACK : 0, c->w->base);
	p = window_get(c->w, lo, ls, &n);
	for (m = 0; n && m < HEADING_LINES; m++) {
		size_t e = n - 1, b;

		for (b = e; b > 0 && p[b - 1] != '\n'; b--)
			;
		if (b == 0 && lo > 0)
			return 0; /* (a line read back only in part) */
		n = b;
		if (blank_line(p + b, e - b) || item_line(p + b, e - b, &ind))
			continue;
		while (e > b && (p[e - 1] == ' ' || p[e - 1] == '*' || p[e - 1] == '\r'))
			e--;
		if (e == b || !(p[b] == '#' || p[e - 1] == ':'))
			return 0;
		return span_in(p + b, e - b, &span) && span >= 2 && span <= 31 ? span : 0;
	}
	return 0;
}

/*
 * A sum of money that is a price times what its sentence counts ("around
 * 60 euros on your two meals at Le Baratin", "lunch and dinner at $30
 * each, $60 a day", "3 nights ... around €720" at €240 a night, "2 meals
 * per day over 3 days: $90.0" at $15): a count of 2 to 9 it says of a
 * noun, or the product of two it says, times a figure the grounding
 * states, to the cent. The sentence must tie the count to a price ("each",
 * "per", "at", "a day") or count days or nights; counts said in another
 * sentence are not read, so a total said alone ("That comes to $96.")
 * gets no factor; but an item of a list under a heading that says a span
 * ("### Cost for a 3-Day Trip:" over "- Car: $180.0", "- Meals (2 meals
 * per day): $90.0") is that span times a price, or times a count it says.
 * Grounded, and says how ("2 x 30").
 */
bool words_product(struct claims *c, struct held *h, uint64_t end)
{
	uint64_t lo = h->from > c->start + PRODUCT_BEFORE ? h->from - PRODUCT_BEFORE : c->start;
	unsigned f[4], s;
	size_t n, k, i, j;
	bool span, tied;
	const char *p = window_get(c->w, lo, MIN(end, h->to + 24), &n);

	if (!(h->q.value > 0) || h->q.scale != 1 || n < h->to - lo)
		return false;
	k = counts_said(p, n, (size_t)(h->from - lo), (size_t)(h->to - lo), f, ARRAY_SIZE(f), &span);
	tied = k && (span || price_tied(p, n));
	if (tied && said_as_rate(c, h, end))
		return false;
	for (i = 0; tied && i < k; i++)
		if (price_times(c, h, f[i]))
			return true;
	for (i = 0; tied && i < k; i++)
		for (j = i + 1; j < k; j++)
			if (price_times(c, h, f[i] * f[j]))
				return true;
	/* (the heading last: most sums of money are no item of a list) */
	if (!(s = heading_span(c, h)) || (!tied && said_as_rate(c, h, end)))
		return false;
	if (price_times(c, h, s))
		return true;
	for (i = 0; i < k; i++)
		if (f[i] != s && price_times(c, h, f[i] * s))
			return true;
	return false;
}

/* h as factor times x, a figure the reply derived (at: where its grounding is), to the cent. */
static bool derived_times(struct claims *c, struct held *h, double x, uint64_t at,
			  const unsigned *f, size_t k)
{
	char how[64], a[32];
	size_t i;

	for (i = 0; i < k; i++) {
		if (fabs(x * f[i] - h->q.value) >= 0.005)
			continue;
		total_fig(a, sizeof(a), x);
		snprintf(how, sizeof(how), "%u x %s", f[i], a);
		return grounded_how(c, h, how, at);
	}
	return false;
}

/*
 * A figure that is a count or span its sentence says times a figure the
 * reply derived before it ("an average price of 155.0 per day (midpoint of
 * the price range), the total for 3 days would be approximately 465.0"):
 * one its sentence worked out before it, or a derived one of the ledger,
 * of its unit. The sentence ties the count to a rate or counts days or
 * nights, as words_product() asks; to the cent; says how ("3 x 155").
 */
bool derived_product(struct claims *c, struct held *h, uint64_t end)
{
	uint64_t lo = h->from > c->start + PRODUCT_BEFORE ? h->from - PRODUCT_BEFORE : c->start;
	size_t n, k, i, at = (size_t)(h - c->held);
	unsigned f[4];
	bool span;
	const char *p;

	if (!(h->q.value > 0) || h->q.scale != 1 || (h->nl_flags & NUMLEX_RANGE))
		return false;
	/* (nothing derived before it, the common case: no words read) */
	for (i = 0; i < at && !(c->held[i].lexed && c->held[i].source_off &&
				c->chk[i] == CHECK_GROUNDED); i++)
		;
	if (i == at) {
		for (i = 0; i < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER) && !ledger_at(c, i)->derived; i++)
			;
		if (i == MIN(c->n_ledger, (size_t)CLAIMS_LEDGER))
			return false;
	}
	p = window_get(c->w, lo, MIN(end, h->to + 24), &n);
	if (n < h->to - lo)
		return false;
	k = counts_said(p, n, (size_t)(h->from - lo), (size_t)(h->to - lo), f, ARRAY_SIZE(f), &span);
	if (!k || !(span || price_tied(p, n)))
		return false;
	for (i = 0; i < at; i++) {
		const struct held *o = &c->held[i];

		if (!o->lexed || c->chk[i] != CHECK_GROUNDED || !o->source_off || o->q.scale != 1 ||
		    !(o->q.value > 0) || (o->nl_flags & NUMLEX_RANGE) ||
		    (h->q.kind == QUANTITY_NUMBER ? o->q.kind != QUANTITY_NUMBER
						  : o->q.unit_hash != h->q.unit_hash))
			continue;
		if (derived_times(c, h, o->q.value, o->grounded_at, f, k))
			return true;
	}
	for (i = 0; i < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER); i++) {
		const struct ledger_fig *g = ledger_at(c, i);

		if (g->derived && ledger_unit(g, &h->q) && derived_times(c, h, g->v, g->at, f, k))
			return true;
	}
	return false;
}

/*
 * One's share of a figure the grounding states ("half of the 12.00 total,
 * so 6.00", "Each person's share: 6.00", "split three ways, $40" of a
 * $120 charge for three passengers): said with "half" before it or after
 * it ("6.00 (half of the total)"), the figure times two; said as a share
 * ("share", "split"), times the party the grounding gives, or two where
 * it gives none. ("$40 per person" is a price of one, not a share.) To the cent; says how ("12.00 / 2").
 */
bool share_of(struct claims *c, struct held *h, uint64_t end)
{
	static const char *const shares[] = {"share", "split"};
	uint64_t lo = h->from > c->start + 80 ? h->from - 80 : c->start;
	const struct ground_quantity *gq;
	struct quantity r;
	unsigned f = 0;
	char how[64], a[32];
	const char *p, *q;
	size_t n, m, k;

	if (!(h->q.value > 0) || h->q.scale != 1 || (h->nl_flags & NUMLEX_RANGE))
		return false;
	p = window_get(c->w, lo, h->from, &n);
	q = window_get(c->w, h->to, MIN(end, h->to + 24), &m);
	if (has_lit(p, n, "half") || has_lit(p, n, "Half") ||
	    (m && has_lit(q, MIN(m, (size_t)12), "(half")))
		f = 2;
	for (k = 0; !f && k < ARRAY_SIZE(shares); k++)
		if (has_lit(p, n, shares[k]) ||
		    (m && q[0] == ' ' && m > 1 + strlen(shares[k]) &&
		     strncmp(q + 1, shares[k], strlen(shares[k])) == 0)) {
			f = ground_party(c->ground);
			f = f >= 2 ? f : 2;
		}
	if (!f)
		return false;
	r = h->q;
	r.value = fmath_round(h->q.value * f * 100) / 100;
	if (!(gq = ground_figure_held(c->ground, &r)) ||
	    !(gq->q.kind == QUANTITY_NUMBER || quantity_class_of(&gq->q) == QC_MONEY))
		return false;
	total_fig(a, sizeof(a), r.value);
	snprintf(how, sizeof(how), "%s / %u", a, f);
	return grounded_how(c, h, how, gq->at);
}

/* How many figures an update's two terms are sought among. */
#define UPDATE_TERMS 16

/*
 * A bare amount said as what another becomes ("so the new amount should be
 * 1200.0", "needs to be updated to 1200.0" after "increased by 100.00" and
 * "for 1100.0"): the sum or the difference of two bare figures with
 * decimals the reply said grounded, in sentences before (its ledger) or in
 * its own before it. Only with such words before it in its sentence; to
 * the cent; says how ("1100 + 100").
 */
bool updated_amount(struct claims *c, struct held *h)
{
	/* (each holds "new " or "d to": see below) */
	static const char *const updates[] = {"new amount", "new total", "new rent", "new price",
					      "updated to", "increased to", "raised to",
					      "adjusted to", "changed to", "decreased to",
					      "reduced to"};
	uint64_t lo = h->from > c->start + 80 ? h->from - 80 : c->start;
	double t[UPDATE_TERMS];
	uint64_t t_at[UPDATE_TERMS];
	size_t n, k, i, j, nt = 0, at = (size_t)(h - c->held);
	char how[80], x[32], y[32];
	const char *p;

	if (h->q.scale != 1 || !(h->q.value > 0) || (h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX)))
		return false;
	p = window_get(c->w, lo, h->from, &n);
	/* Each of updates[] holds "new " or "d to": where the words before
	 * hold neither, none of them (two searches, not eleven). */
	if (!has_lit(p, n, "new ") && !has_lit(p, n, "d to"))
		return false;
	for (k = 0; k < ARRAY_SIZE(updates) && !has_lit(p, n, updates[k]); k++)
		;
	if (k == ARRAY_SIZE(updates))
		return false;
	for (i = 0; i < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER) && nt < UPDATE_TERMS / 2; i++)
		if (ledger_at(c, i)->bare) {
			t_at[nt] = ledger_at(c, i)->at;
			t[nt++] = ledger_at(c, i)->v;
		}
	for (i = 0; i < at && nt < UPDATE_TERMS; i++)
		if (c->held[i].lexed && c->chk[i] == CHECK_GROUNDED &&
		    c->held[i].q.kind == QUANTITY_NUMBER && c->held[i].q.decimals > 0 &&
		    c->held[i].q.scale == 1 && c->held[i].q.value > 0) {
			t_at[nt] = c->held[i].grounded_at;
			t[nt++] = c->held[i].q.value;
		}
	for (i = 0; i < nt; i++)
		for (j = i + 1; j < nt; j++) {
			double hi = MAX(t[i], t[j]), lo2 = MIN(t[i], t[j]);
			char op;

			if (fabs(hi + lo2 - h->q.value) < 0.005)
				op = '+';
			else if (fabs(hi - lo2 - h->q.value) < 0.005)
				op = '-';
			else
				continue;
			total_fig(x, sizeof(x), hi);
			total_fig(y, sizeof(y), lo2);
			snprintf(how, sizeof(how), "%s %c %s", x, op, y);
			return grounded_how(c, h, how, MIN(t_at[i], t_at[j]));
		}
	return false;
}

/*
 * Totals, sums and averages of figures the reply already states or the
 * tools gave, said without their working (issue 36): all the items of
 * the list right above a total ("- Hotel: €720", "- Car: €180 (€60 per
 * day)", "- Meals: €180", then "Total: €1080"; ranges end by end), all
 * the amounts one list of the newest tool result gives ("Total spent:
 * 1360.0"), the midpoint of a range the reply said ("an average of 155.0
 * (midpoint of 110.0 - 200.0)"), and the sum of the two figures it said
 * last ("increased by 100.00 ... is 1100.0, so the new amount is
 * 1200.0"). Each is one sum, never a search over parts of one: a total
 * that leaves an item out, or is off by one, is no such sum.
 */
#define BLOCK_BACK 2048

#define BLOCK_ITEMS 16

#define BLOCK_LINE 512

/* Where the line that holds offset at starts, lo at the earliest (the
 * start of the input, or of what the window holds); UINT64_MAX when it
 * starts before lo. */
static uint64_t line_start_of(const struct claims *c, uint64_t at, uint64_t lo)
{
	const char *p;
	size_t n;

	const char *nl;

	lo = MAX(lo, c->w->base);
	p = window_get(c->w, lo, at, &n);
	nl = n ? memrchr(p, '\n', n) : NULL;
	return nl ? lo + (uint64_t)(nl - p) + 1 : lo == 0 ? 0 : UINT64_MAX;
}

/* Is p[0, n) a list item ("- ", "* ", "+ ", "1. ", "2) ")? Its indent in *indent. */
static bool item_line(const char *p, size_t n, size_t *indent)
{
	size_t i = 0, d;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	*indent = i;
	if (i + 1 < n && (p[i] == '-' || p[i] == '*' || p[i] == '+') && p[i + 1] == ' ')
		return true;
	for (d = i; d < n && d - i < 3 && isdigit((unsigned char)p[d]); d++)
		;
	return d > i && d + 1 < n && (p[d] == '.' || p[d] == ')') && p[d + 1] == ' ';
}

static bool blank_line(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)p[i]))
			return false;
	return true;
}

/* Is a figure of a a term of written arithmetic (its result stands for it)? */
static bool arith_term(const struct arith *a, size_t f)
{
	size_t r, t;

	for (r = 0; r < a->n_rel; r++)
		for (t = 0; t < a->rel[r].n_toks; t++)
			if (a->rel[r].toks[t].kind == ARITH_TOK_FIG && a->rel[r].toks[t].fig == f)
				return true;
	return false;
}

/* Is the text between two figures a range's dash or "to"? */
static bool range_gap(const char *p, size_t n)
{
	while (n && *p == ' ') {
		p++;
		n--;
	}
	while (n && p[n - 1] == ' ')
		n--;
	return (n == 1 && *p == '-') || (n == 3 && memcmp(p, "\xe2\x80\x93", 3) == 0) ||
	       (n == 2 && memcmp(p, "to", 2) == 0);
}

/*
 * The figures of line p[0, n) of currency cur (0: bare) that may be its
 * sum: not rates ("€60 per day", "€30 each"), percentages, counts of
 * units ("3 nights") nor terms of its written working. One, or two a
 * range joins: *lo and *hi. False otherwise (none, or more than that).
 */
static bool item_sum(const char *p, size_t n, uint8_t cur, struct arith *a, double *lo, double *hi)
{
	size_t f, k = 0, idx[2] = {0, 0};

	arith_scan(p, n, a);
	for (f = 0; f < a->n_fig; f++) {
		const struct arith_fig *x = &a->fig[f];

		if (x->cur != cur || x->rate || x->percent || x->units || arith_term(a, f))
			continue;
		if (k == 2)
			return false;
		idx[k++] = f;
	}
	if (k == 0)
		return false;
	*lo = *hi = arith_double(a->fig[idx[0]].v);
	if (k == 1)
		return true;
	if (!range_gap(p + a->fig[idx[0]].to, a->fig[idx[1]].from - a->fig[idx[0]].to))
		return false;
	*hi = arith_double(a->fig[idx[1]].v);
	return *hi > *lo;
}

/* Is one of words (lowercase) said in p[0, n), in any case? Asked of every
 * figure nothing else grounds: one pass, a word compared only where its
 * first letter is. */
bool says_word(const char *p, size_t n, const char *const *words, size_t nw)
{
	uint32_t first = 0;
	size_t i, k;

	for (k = 0; k < nw; k++)
		first |= 1u << ((unsigned)(words[k][0] - 'a') & 31);
	for (i = 0; i < n; i++) {
		unsigned ch = (unsigned)((p[i] | 0x20) - 'a');

		if (ch >= 26 || !(first >> ch & 1))
			continue;
		for (k = 0; k < nw; k++)
			if (ch == (unsigned)(words[k][0] - 'a') && i + 1 < n &&
			    (p[i + 1] | 0x20) == words[k][1] && strlen(words[k]) <= n - i &&
			    strncasecmp(p + i, words[k], strlen(words[k])) == 0)
				return true;
	}
	return false;
}

/*
 * Is v (of currency cur) a result the reply worked out in writing wrong, or
 * from terms nothing grounds ("Assume €300 per night ... = €1650")? A sum
 * resting on it is no sum of what the tools gave.
 */
static bool done_badly(const struct claims *c, double v, uint8_t cur)
{
	size_t k;

	for (k = 0; k < MIN(c->n_done, (size_t)ARITH_DONE); k++) {
		const struct arith_done *d = &c->done[(c->n_done - 1 - k) % ARITH_DONE];

		if (d->cur == cur && d->status != DONE_GROUNDED &&
		    fabs(arith_double(d->written) - v) < 0.005)
			return true;
	}
	return false;
}

/*
 * h, the first figure of a line that says a total ("**Total Minimum
 * Cost**: €1080", "Total: $990.0 - $1470.0"), no item of a list itself,
 * as the sum of the list right above that line: each of its two or more items (at one indent)
 * states one figure of h's currency or one range (item_sum()), and they
 * make h, end by end for a range.
 */
bool block_total(struct claims *c, struct held *h, uint64_t end)
{
	const struct held *o = (h->nl_flags & NUMLEX_RANGE) ? range_other(c, h) : NULL;
	uint64_t ls = line_start_of(c, h->from, h->from > BLOCK_LINE ? h->from - BLOCK_LINE : 0);
	uint64_t lo = MAX(ls != UINT64_MAX && ls > BLOCK_BACK ? ls - BLOCK_BACK : 0, c->w->base);
	struct arith a;
	const char *p, *t;
	size_t n, i, m = 0, indent = SIZE_MAX, ind, len, nt;
	double tot_lo, tot_hi, sum_lo = 0, sum_hi = 0, x, y, want_lo, want_hi;
	char how[CLAIMS_TOTAL_HOW], f[32];
	bool said = false, range = false, high;
	uint8_t cur = 0;

	if (h->q.scale != 1 || ((h->nl_flags & NUMLEX_RANGE) && !o) || ls == UINT64_MAX)
		return false;
	/* the total's line: a total word, no figure before h */
	t = window_get(c->w, ls, MIN(end, h->to), &nt);
	if (nt < h->to - ls)
		return false;
	said = says_word(t, h->from - ls, total_words, 1);
	for (i = 0; i < h->from - ls; i++)
		if (isdigit((unsigned char)t[i]))
			return false;
	/* (a total that is the list's own last item, "- Total: €300", is
	 * ledger_total()'s, which reads it against every figure listed) */
	if (!said || item_line(t, nt, &ind))
		return false;
	arith_scan(t, nt, &a);
	for (i = 0; i < a.n_fig && ls + a.fig[i].to <= h->from; i++)
		;
	if (i == a.n_fig || ls + a.fig[i].from != h->from)
		return false;
	cur = a.fig[i].cur;
	tot_lo = tot_hi = arith_double(a.fig[i].v);
	if (o) {
		if (i + 1 >= a.n_fig || ls + a.fig[i + 1].to != h->to)
			return false;
		tot_hi = arith_double(a.fig[i + 1].v);
	}
	/* the items above, newest first */
	p = window_get(c->w, lo, ls, &n);
	while (n && m < BLOCK_ITEMS) {
		size_t e = n, b;

		/* p[b, e) is the line before; e is past its '\n' */
		e = n - 1;
		for (b = e; b > 0 && p[b - 1] != '\n'; b--)
			;
		if (b == 0 && lo > 0)
			return false; /* (a line read back only in part) */
		n = b;
		if (blank_line(p + b, e - b)) {
			if (m)
				break;
			continue;
		}
		if (!item_line(p + b, e - b, &ind)) {
			if (!m)
				return false;
			break;
		}
		if (indent == SIZE_MAX)
			indent = ind;
		if (ind != indent)
			return false;
		if (!item_sum(p + b, e - b, cur, &a, &x, &y) || done_badly(c, x, cur) ||
		    done_badly(c, y, cur))
			return false;
		range |= y != x;
		sum_lo += x;
		sum_hi += y;
		m++;
	}
	if (m < 2 || m == BLOCK_ITEMS || (range && !o))
		return false;
	want_lo = o ? tot_lo : h->q.value;
	want_hi = o ? tot_hi : h->q.value;
	if (fabs(sum_lo - want_lo) >= 0.005 || fabs(sum_hi - want_hi) >= 0.005)
		return false;
	/* how: this end's terms, in the list's order (read again, oldest first) */
	high = o && h->q.value == tot_hi;
	len = 0;
	how[0] = '\0';
	p = window_get(c->w, lo, ls, &n);
	{
		size_t e = n, b, k = 0;
		double v[BLOCK_ITEMS];

		while (k < m) {
			e = n - 1;
			for (b = e; b > 0 && p[b - 1] != '\n'; b--)
				;
			n = b;
			if (blank_line(p + b, e - b))
				continue;
			item_sum(p + b, e - b, cur, &a, &x, &y);
			v[k++] = high ? y : x;
		}
		while (k-- > 0 && len < sizeof(how)) {
			total_fig(f, sizeof(f), v[k]);
			len += (size_t)snprintf(how + len, sizeof(how) - len, "%s%s", len ? " + " : "", f);
		}
	}
	return grounded_how(c, h, how, h->grounded_at);
}

/* Keeps the ranges of the sentence the grounding states, each end (range_midpoint()). */
void ranges_keep(struct claims *c)
{
	size_t i;

	for (i = 0; i + 1 < c->n_held; i++) {
		const struct held *h = &c->held[i], *o = &c->held[i + 1];
		struct said_range *r;

		if (!h->lexed || !(h->nl_flags & NUMLEX_RANGE) || range_other(c, h) != o ||
		    c->chk[i] != CHECK_GROUNDED || c->chk[i + 1] != CHECK_GROUNDED ||
		    h->q.unit_hash != o->q.unit_hash || h->q.scale != 1 || o->q.scale != 1 ||
		    !(quantity_class_of(&h->q) == QC_MONEY || h->q.kind == QUANTITY_NUMBER))
			continue;
		r = &c->ranges[c->n_ranges++ % CLAIMS_RANGES];
		*r = (struct said_range){MIN(h->q.value, o->q.value), MAX(h->q.value, o->q.value),
					 h->q.unit_hash, h->grounded_at};
		i++;
	}
}

/*
 * h said as an average or a midpoint ("an average price of 155.0 per day
 * (midpoint of the price range)") of a range the reply said as the
 * grounding states it ("110.0 - 200.0"), one of its CLAIMS_RANGES newest:
 * their mean, to the cent.
 */
bool range_midpoint(struct claims *c, struct held *h, uint64_t end)
{
	static const char *const words[] = {"averag", "midpoint", "mid-point", "middle"};
	char how[80], a[32], b[32];
	size_t k;

	if (!c->n_ranges || (h->nl_flags & NUMLEX_RANGE) ||
	    !word_near(c, h, end, LEDGER_AVG_BEFORE, 48, words, ARRAY_SIZE(words)))
		return false;
	for (k = 0; k < MIN(c->n_ranges, (size_t)CLAIMS_RANGES); k++) {
		const struct said_range *r = &c->ranges[(c->n_ranges - 1 - k) % CLAIMS_RANGES];

		if (r->unit_hash != h->q.unit_hash || fabs((r->lo + r->hi) / 2 - h->q.value) >= 0.005)
			continue;
		total_fig(a, sizeof(a), r->lo);
		total_fig(b, sizeof(b), r->hi);
		snprintf(how, sizeof(how), "(%s + %s) / 2", a, b);
		return grounded_how(c, h, how, r->at);
	}
	return false;
}

/*
 * How far before h's sentence the ledger's figures of last_two_sum() may
 * have been said: about a sentence. The ledger lives as long as the text
 * (a whole stream in plain mode), and two figures said pages before are
 * no working of h: "0.40" twice, 500 KB back, made a 0.8 of its own.
 */
#define LAST_TWO_REACH 320

/*
 * h said as what two figures come to ("increased by 100.00 ... is for
 * 1100.0, so the new amount should be 1200.0"): the sum of the two the
 * reply said last, in its sentence or the one before (its ledger's two
 * newest of h's unit, said at most LAST_TWO_REACH bytes before its
 * sentence, no rate, charge or total among them).
 */
bool last_two_sum(struct claims *c, struct held *h)
{
	double v[2];
	uint64_t at = 0;
	size_t m = 0, k, i = (size_t)(h - c->held);
	char how[CLAIMS_LEDGER_HOW + 8], a[32], b[32];

	/* (never said as a total, sum_of_said(): a total is all a list's
	 * items, never its last two, ledger_total()) */
	if (h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX))
		return false;
	/* those of its own sentence before it first (decided already), then the ledger's */
	while (i-- > 0 && m < 2) {
		const struct held *o = &c->held[i];

		if (!o->lexed || o->term || c->chk[i] != CHECK_GROUNDED || o->q.scale != 1 ||
		    (o->nl_flags & NUMLEX_RANGE) || o->per || o->other_role || o->total_role ||
		    !(o->q.value > 0))
			continue;
		if (h->q.kind == QUANTITY_NUMBER ? o->q.kind != QUANTITY_NUMBER || !o->q.decimals
						 : o->q.unit_hash != h->q.unit_hash)
			continue;
		v[m++] = o->q.value;
		at = o->grounded_at;
	}
	for (k = 0; m < 2 && k < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER); k++) {
		const struct ledger_fig *p = ledger_at(c, k);

		if (!ledger_unit(p, &h->q) || p->per || p->total ||
		    p->said + LAST_TWO_REACH < c->start)
			break;
		v[m++] = p->v;
		at = p->at;
	}
	if (m < 2 || fabs(v[0] + v[1] - h->q.value) >= 0.005)
		return false;
	total_fig(a, sizeof(a), v[1]);
	total_fig(b, sizeof(b), v[0]);
	snprintf(how, sizeof(how), "%s + %s", a, b);
	return grounded_how(c, h, how, at);
}

/* ---- a total said before the items it sums ---- */

/*
 * Whether the finding of h, about to go out, is a total that may be the
 * sum of what is said after it: a sum of money or a bare figure said as a
 * total ("Food: $110 total", "your total spending was 1,050.00"), not a
 * range or an approximation, with no derivation named and no other rule on
 * its text. Its currency is read from its own text.
 */
bool before_total(struct claims *c, const struct held *h, uint64_t end)
{
	struct arith a;
	const char *p;
	size_t n;

	if (!h->lexed || h->grounded || h->label || h->n_also || h->total || !lexing(c) ||
	    !number_rule(c, h->rule) || h->q.scale != 1 || !(h->q.value > 0 && h->q.value < 1e12) ||
	    (h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX)) ||
	    !(quantity_class_of(&h->q) == QC_MONEY || h->q.kind == QUANTITY_NUMBER) ||
	    !word_near(c, h, end, 48, 16, total_words, ARRAY_SIZE(total_words)))
		return false;
	p = window_get(c->w, h->from, h->to, &n);
	if (n != h->to - h->from || arith_scan(p, n, &a) != 0 || a.n_fig != 1 ||
	    (a.fig[0].cur != 0) != (h->q.kind != QUANTITY_NUMBER))
		return false;
	c->before = (struct before_total){
		.bare = h->q.kind == QUANTITY_NUMBER, .cur = a.fig[0].cur, .rule = h->rule,
		.from = h->from, .to = h->to, .line = c->line, .grounded_at = h->grounded_at,
		.unit_hash = h->q.unit_hash, .value = h->q.value, .indent = SIZE_MAX,
	};
	return true;
}

/* Holds the finding it of the total before_total() took: it waits in pend. */
int before_hold(struct claims *c, const struct claim_item *it)
{
	int err;

	err = hold_item(c, it, NULL);
	/* (held unless it could not be: then it went out, after all held) */
	if (err == 0 && waiting(c) && !c->pend[c->n_pend - 1].is_claim &&
	    c->pend[c->n_pend - 1].it.from == it->from && c->pend[c->n_pend - 1].it.to == it->to) {
		c->before.slot = c->n_pend - 1;
		c->before.on = true;
	}
	return err;
}

/* The held claim the waiting total is an item of, grounded with it and labelled again. */
static void before_claim(struct claims *c)
{
	size_t i, j, grounded;

	for (i = c->before.slot + 1; i < c->n_pend; i++) {
		struct pending *p = &c->pend[i];
		struct claim_item *items = c->pend_items + p->items_off;
		enum claim_label was;

		if (!p->is_claim || c->before.from < p->cl.start || c->before.from >= p->cl.end)
			continue;
		for (j = 0, grounded = 0; j < p->cl.n_items; j++) {
			if (items[j].from == c->before.from && items[j].to == c->before.to) {
				items[j].grounded = true;
				items[j].grounded_at = c->before.grounded_at;
			}
			grounded += items[j].grounded;
		}
		was = p->cl.label;
		p->cl.label = grounded == p->cl.n_items ? CLAIM_SUPPORTED
			      : grounded ? CLAIM_PARTIAL : CLAIM_UNSUPPORTED;
		c->counts[was]--;
		c->counts[p->cl.label]++;
		return;
	}
}

/*
 * Decides the waiting total: grounded when two or more items were read
 * and they make it, to the cent; either way it goes out (or, grounded and
 * not shown, is dropped), with all that waited behind it, in order. A
 * grounded one joins the ledger as a derived total, so that a figure said
 * again later ("$110 on food") is grounded as it is.
 */
static int before_decide(struct claims *c)
{
	struct before_total *b = &c->before;
	struct pending *p = &c->pend[b->slot];
	double sum = 0;
	size_t i, len = 0;
	char f[32];

	for (i = 0; i < b->n; i++)
		sum += b->v[i];
	if (b->n >= 2 && fabs(sum - b->value) < 0.005) {
		for (i = 0; i < b->n && len < sizeof(b->how); i++) {
			total_fig(f, sizeof(f), b->v[i]);
			len += (size_t)snprintf(b->how + len, sizeof(b->how) - len, "%s%s",
						len ? " + " : "", f);
		}
		p->it.grounded = true;
		p->it.grounded_at = b->grounded_at;
		p->drop = !c->show_grounded;
		p->how = c->show_grounded;
		c->repeats++;
		before_claim(c);
		{
			struct ledger_fig *g = &c->ledger[c->n_ledger++ % CLAIMS_LEDGER];

			*g = (struct ledger_fig){.v = b->value, .unit_hash = b->unit_hash,
						 .at = b->grounded_at, .bare = b->bare,
						 .derived = true, .total = true};
			snprintf(g->how, sizeof(g->how), "%.*s", (int)sizeof(g->how) - 1, b->how);
		}
	}
	b->on = false;
	/* (its finding goes out now, while before.how still names its items) */
	return release(c, waiting(c));
}

/*
 * A line has ended ([line_start, at), or up to at - 1 before a line
 * break), last: the input or the model's text ends with it. The total's
 * own line: the figures after the total on it are its items, when two or
 * more ("$110: $100 for the pizza and $10 for sushi"), else none may be
 * and the list below is read. A line below: a blank line before the list
 * (one at most), an item of the list (one figure of the total's currency,
 * or bare; at one indent; BEFORE_ITEMS at most), or its end (a blank line
 * or any other line after items).
 */
int before_line(struct claims *c, uint64_t at, bool last)
{
	struct before_total *b = &c->before;
	struct arith a;
	uint64_t from, to = at;
	const char *p;
	size_t n, i, ind, k;
	bool done = false;
	double x, y;

	if (!last && to > c->line_start)
		to--; /* (the line break) */
	from = b->below ? c->line_start : b->to;
	p = window_get(c->w, from, to, &n);
	if (to < from || n != to - from || n > BLOCK_LINE) {
		b->n = 0;
		done = true;
	} else if (!b->below) {
		/* the rest of the total's own line */
		arith_scan(p, n, &a);
		for (i = 0, k = 0; i < a.n_fig && k <= BEFORE_ITEMS; i++) {
			const struct arith_fig *g = &a.fig[i];

			if (g->cur != b->cur || g->rate || g->percent || g->units || arith_term(&a, i))
				continue;
			if (k < BEFORE_ITEMS)
				b->v[k] = arith_double(g->v);
			k++;
		}
		b->below = true;
		if (k) {
			b->n = k >= 2 && k <= BEFORE_ITEMS ? k : 0;
			done = true;
		}
	} else if (blank_line(p, n)) {
		done = b->n > 0 || ++b->blanks > 1;
	} else if (!item_line(p, n, &ind)) {
		done = true;
	} else if ((b->indent != SIZE_MAX && ind != b->indent) || b->n == BEFORE_ITEMS ||
		   !item_sum(p, n, b->cur, &a, &x, &y) || x != y || done_badly(c, x, b->cur)) {
		b->n = 0;
		done = true;
	} else {
		b->indent = ind;
		b->v[b->n++] = x;
	}
	return done || last ? before_decide(c) : 0;
}
