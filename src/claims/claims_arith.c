// SPDX-License-Identifier: MIT
/*
 * The reply's own arithmetic: the terms and results a sentence writes out, worked out again
 * from grounded terms (numbers/arith.c reads them). (Split from claims.c by scripts/split.py.)
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

/* Is the byte an operator of written arithmetic ("+", "-", "*", "x", "×", "/", "=")? */
static bool arith_op(const char *p, size_t n)
{
	if (n == 0)
		return false;
	if (strchr("+-*/=", p[0]))
		return true;
	if ((p[0] == 'x' || p[0] == 'X') && (n == 1 || p[1] == ' '))
		return true;
	return n >= 2 && (unsigned char)p[0] == 0xC3 && (unsigned char)p[1] == 0x97; /* × */
}

/*
 * Is h a term of arithmetic the answer writes out ("$50.00 + $1000.00 +
 * $10.00 = $1060.00", "€59 * 2 + €60 * 3")? An operator right after it,
 * or right before it: it is no total, whatever words precede the sum.
 */
bool written_term(struct claims *c, const struct held *h, uint64_t end)
{
	const char *p;
	size_t n, i;

	if (h->nl_flags & NUMLEX_RANGE)
		return false; /* "$100.0 - $180.0": a range, no subtraction */
	p = window_get(c->w, h->to, MIN(end, h->to + 12), &n);
	for (i = 0; i < n && p[i] == ' '; i++)
		;
	if (i < n && p[i] != '=' && arith_op(p + i, n - i)) {
		/* an operand after it: "$50 + $10", not "$48.59 - Water Bottle" */
		i += (unsigned char)p[i] == 0xC3 ? 2 : 1;
		while (i < n && p[i] == ' ')
			i++;
		if (i < n && (isdigit((unsigned char)p[i]) || p[i] == '(' || p[i] == '$' ||
			      (unsigned char)p[i] == 0xC2 || (unsigned char)p[i] == 0xE2))
			return true;
	}
	p = window_get(c->w, h->from > c->start + 8 ? h->from - 8 : c->start, h->from, &n);
	while (n && p[n - 1] == ' ')
		n--;
	/* ("**Total:** €560": the "**" that ends bold type is no product) */
	if (n && strchr("+*/x", p[n - 1]) && (p[n - 1] != 'x' || n == 1 || p[n - 2] == ' ') &&
	    (p[n - 1] != '*' || n == 1 || p[n - 2] != '*'))
		return true;
	if (n >= 2 && (unsigned char)p[n - 2] == 0xC3 && (unsigned char)p[n - 1] == 0x97)
		return true; /* "× 0.0725" */
	/* "-" before it only after a figure: "$60 - $10", not "Hotel - $120" */
	if (n < 2 || p[n - 1] != '-')
		return false;
	for (n--; n && p[n - 1] == ' '; n--)
		;
	return n && isdigit((unsigned char)p[n - 1]);
}

/* Whether a figure of quantity q is the written result d of the reply. */
static bool same_result(const struct arith_done *d, const struct quantity *q)
{
	double v = arith_double(d->written);

	return q->scale == 1 && fabs(q->value - v) <= 1e-9 * MAX(1.0, fabs(v)) &&
	       (d->unit_hash == q->unit_hash || q->kind == QUANTITY_NUMBER ||
		d->unit_hash == quantity_unit_hash("number"));
}

/*
 * A figure the reply worked out earlier from grounded terms, said again
 * (the newest such result): grounded, its computation as the source.
 */
bool worked_out(struct claims *c, struct held *h)
{
	size_t i, k = MIN(c->n_done, (size_t)ARITH_DONE), off = c->text.len;

	for (i = 0; i < k; i++) {
		const struct arith_done *d = &c->done[(c->n_done - 1 - i) % ARITH_DONE];

		if (!same_result(d, &h->q))
			continue;
		if (d->status != DONE_GROUNDED)
			return false;
		if (buf_add(&c->text, d->how, strlen(d->how) + 1) == 0)
			h->source_off = off;
		h->grounded_at = d->at;
		return true;
	}
	return false;
}

/* The held quantity a figure of the sentence is ([from, to) its digits), or -1. */
static long held_of(const struct claims *c, uint64_t from, uint64_t to, struct arith_q v)
{
	size_t i;
	long found = -1;

	for (i = 0; i < c->n_held && c->held[i].from < to; i++) {
		const struct held *h = &c->held[i];

		if (!h->lexed || h->to <= from)
			continue;
		/* the end of a range ("$1,350.00 - $10.00" lexed as one) that is this figure */
		if (found < 0 || fabs(h->q.value - arith_double(v)) < 1e-9)
			found = (long)i;
	}
	return found;
}

/* Classes a term may be of, and a result. */
#define TERM_CLASSES (1u << QC_MONEY | 1u << QC_COUNT | 1u << QC_NUMBER | 1u << QC_PERCENT | \
		      1u << QC_DURATION)

#define RESULT_CLASSES (1u << QC_MONEY | 1u << QC_COUNT | 1u << QC_NUMBER)

/*
 * Whether the i-th token of r is a divisor 2 written bare ("12.00 / 2 =
 * 6.00", "split between 2"): halving, which the working itself says; no
 * figure a tool or the user must give (the share of one of two).
 */
static bool halving(const struct arith *a, const struct arith_rel *r, size_t i)
{
	const struct arith_fig *f = &a->fig[r->toks[i].fig];

	return i > 0 && r->toks[i - 1].kind == ARITH_TOK_DIV && f->v.n == 2 && f->v.d == 1 &&
	       !f->cur && !f->percent && !f->units && !f->decimals &&
	       (i + 1 == r->n_toks || r->toks[i + 1].kind != ARITH_TOK_MUL);
}

/* Sets h to report its result as worked out: source "<how> is <value>". */
static void report_worked(struct claims *c, struct held *h, unsigned char *chk, const char *how,
			  const char *value)
{
	size_t off = c->text.len;

	if (buf_adds(&c->text, how) < 0 || buf_adds(&c->text, " is ") < 0 ||
	    buf_adds(&c->text, value) < 0 || buf_addc(&c->text, '\0') < 0) {
		c->text.len = off;
		return;
	}
	h->source_off = off;
	h->computed = true;
	h->grounded = false;
	*chk = CHECK_REPORT;
}

/*
 * The arithmetic the sentence [c->start, end) writes out (arith.h), over
 * the checks its held quantities got: a result whose working is wrong is
 * reported with the right value ("(20 + 30) x 2 x 3 is €300", not €500),
 * as is one that rests on a result worked wrong before it; a right one
 * whose terms are all grounded (or worked out from grounded ones) is
 * grounded, its computation the source; a right one on a term nothing
 * grounds is not reported apart from that term. The terms keep their own
 * checks.
 */
int arith_sentence(struct claims *c, uint64_t end)
{
	struct arith_q right[ARITH_FIGS];
	long hi[ARITH_FIGS];
	uint8_t st[ARITH_FIGS];
	const char *s;
	struct arith *a;
	size_t n, i, j, k;

	uint64_t lo = UINT64_MAX, hi_to = 0;
	size_t figs = 0;

	/* Two figures the lexer read, and an operator from a little before the
	 * first to the last: else nothing to work out (most sentences). */
	for (i = 0; i < c->n_held; i++)
		if (c->held[i].lexed) {
			figs++;
			lo = MIN(lo, c->held[i].from);
			hi_to = MAX(hi_to, c->held[i].to);
		}
	if (figs < 2)
		return 0;
	lo = lo > c->start + 64 ? lo - 64 : c->start;
	s = window_get(c->w, lo, hi_to, &n);
	if (n < hi_to - lo || !arith_may_hold(s, n))
		return 0;
	s = window_get(c->w, c->start, end, &n);
	if (n < end - c->start)
		return 0;
	if (!c->ar && !(c->ar = malloc(sizeof(*c->ar))))
		return -ENOMEM;
	a = c->ar;
	if (arith_scan(s, n, a) == 0)
		return 0;
	for (i = 0; i < a->n_fig; i++) {
		const struct arith_fig *f = &a->fig[i];

		hi[i] = held_of(c, c->start + f->num_from, c->start + f->num_to, f->v);
		right[i] = f->v;
		st[i] = hi[i] >= 0 && c->chk[hi[i]] == CHECK_GROUNDED ? DONE_GROUNDED : DONE_UNGROUNDED;
		/* a figure worked out earlier in the reply: grounded, or its right value */
		for (k = 0; hi[i] >= 0 && k < MIN(c->n_done, (size_t)ARITH_DONE); k++) {
			const struct arith_done *d = &c->done[(c->n_done - 1 - k) % ARITH_DONE];

			if (!same_result(d, &c->held[hi[i]].q))
				continue;
			if (d->status == DONE_WRONG) {
				right[i] = d->right;
				st[i] = DONE_WRONG;
			} else if (d->status == DONE_GROUNDED) {
				st[i] = DONE_GROUNDED;
			}
			break;
		}
	}
	for (j = 0; j < a->n_rel; j++) {
		const struct arith_rel *r = &a->rel[j];
		const struct arith_fig *rf = &a->fig[r->result];
		struct held *h;
		struct arith_q worked;
		bool grounded = true, classes = true, on_wrong = false;
		uint64_t at = UINT64_MAX;
		char how[ARITH_HOW], value[48];
		struct arith_done *d;

		if (hi[r->result] < 0)
			continue;
		h = &c->held[hi[r->result]];
		if (!(RESULT_CLASSES & 1u << quantity_class_of(&h->q)))
			continue;
		for (i = 0; i < r->n_toks; i++) {
			uint8_t f = r->toks[i].fig;

			if (r->toks[i].kind != ARITH_TOK_FIG)
				continue;
			if (hi[f] >= 0 && !(TERM_CLASSES & 1u << quantity_class_of(&c->held[hi[f]].q)))
				classes = false;
			grounded &= st[f] == DONE_GROUNDED || halving(a, r, i);
			on_wrong |= st[f] == DONE_WRONG;
			if (at == UINT64_MAX && st[f] == DONE_GROUNDED)
				at = c->held[hi[f]].grounded_at;
		}
		if (!classes || !arith_eval(a, r, right, &worked))
			continue;
		for (i = 0; i < r->n_toks; i++)
			if (r->toks[i].kind == ARITH_TOK_FIG && hi[r->toks[i].fig] >= 0 &&
			    r->toks[i].fig != r->result)
				c->held[hi[r->toks[i].fig]].term = true;
		d = &c->done[c->n_done++ % ARITH_DONE];
		*d = (struct arith_done){.written = rf->v, .right = worked,
					 .unit_hash = h->q.unit_hash, .cur = rf->cur,
					 .at = at == UINT64_MAX ? h->grounded_at : at};
		if (!r->holds) {
			/* worked wrong: with the right value of each term */
			arith_how(a, r, s, on_wrong ? right : NULL, how, sizeof(how));
			arith_format(a, rf, s, on_wrong ? worked : r->value, value, sizeof(value));
			report_worked(c, h, &c->chk[hi[r->result]], how, value);
			h->grounded_at = d->at;
			d->status = st[r->result] = DONE_WRONG;
			right[r->result] = d->right = on_wrong ? worked : r->value;
		} else if (on_wrong && !arith_states(rf->v, rf->decimals, worked, r->rounds, r->approx)) {
			/* right as written, on a term worked wrong before */
			arith_how(a, r, s, right, how, sizeof(how));
			arith_format(a, rf, s, worked, value, sizeof(value));
			report_worked(c, h, &c->chk[hi[r->result]], how, value);
			h->grounded_at = d->at;
			d->status = st[r->result] = DONE_WRONG;
			right[r->result] = worked;
		} else if (grounded) {
			size_t off = c->text.len;

			/* the working written, rather than one found (not a figure the tools state) */
			arith_how(a, r, s, NULL, d->how, sizeof(d->how));
			if (c->chk[hi[r->result]] != CHECK_GROUNDED || h->source_off) {
				if (buf_add(&c->text, d->how, strlen(d->how) + 1) == 0)
					h->source_off = off;
				h->grounded_at = d->at;
				c->chk[hi[r->result]] = CHECK_GROUNDED;
			}
			d->status = st[r->result] = DONE_GROUNDED;
			h->worked = true;
			/* the halving's 2 is the working's own, grounded with it */
			for (i = 0; i < r->n_toks; i++)
				if (r->toks[i].kind == ARITH_TOK_FIG && hi[r->toks[i].fig] >= 0 &&
				    halving(a, r, i) && c->chk[hi[r->toks[i].fig]] == CHECK_REPORT) {
					struct held *o = &c->held[hi[r->toks[i].fig]];

					c->chk[hi[r->toks[i].fig]] = CHECK_GROUNDED;
					o->grounded_at = d->at;
					o->source_off = h->source_off;
				}
			if (quantity_class_of(&h->q) == QC_MONEY && h->q.scale == 1 &&
			    c->n_results < CLAIMS_TOTAL_ITEMS) {
				if (c->n_results == 0)
					c->results_at = d->at;
				c->results[c->n_results++] = h->q.value;
			}
		} else {
			/* on a term nothing grounds: that term is the finding */
			if (c->chk[hi[r->result]] == CHECK_REPORT)
				c->chk[hi[r->result]] = CHECK_SILENT;
			d->status = st[r->result] = c->chk[hi[r->result]] == CHECK_GROUNDED
							    ? DONE_GROUNDED : DONE_UNGROUNDED;
			if (d->status == DONE_GROUNDED)
				arith_how(a, r, s, NULL, d->how, sizeof(d->how));
		}
		/* the result said again later in the sentence, as a term ("is $31
		 * a person, so $31 x 2 x 4"): what the result is */
		for (i = r->result + 1; i < a->n_fig; i++) {
			struct held *o;

			if (hi[i] < 0 || hi[i] == hi[r->result] || st[i] != DONE_UNGROUNDED ||
			    !same_result(d, &c->held[hi[i]].q) || a->fig[i].cur != rf->cur)
				continue;
			o = &c->held[hi[i]];
			st[i] = d->status;
			right[i] = d->right;
			if (d->status == DONE_GROUNDED && c->chk[hi[i]] == CHECK_REPORT) {
				size_t off = c->text.len;

				if (buf_add(&c->text, d->how, strlen(d->how) + 1) == 0)
					o->source_off = off;
				o->grounded_at = d->at;
				c->chk[hi[i]] = CHECK_GROUNDED;
			}
		}
	}
	return 0;
}
