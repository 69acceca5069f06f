// SPDX-License-Identifier: MIT
/*
 * Arithmetic worked out and said back: exact rationals, a chain evaluated from its figures,
 * whether a written result states a value at its precision, and the working written out in
 * words. (Split from arith.c by scripts/split.py.)
 */
#include "arith.h"
#include "arith_int.h"

#include "common/util.h"

#include <stdio.h>
#include <string.h>

static bool q_add(struct arith_q a, struct arith_q b, bool sub, struct arith_q *out)
{
	int64_t g = gcd64(a.d, b.d), x, y, d;

	if (sub) {
		if (b.n == INT64_MIN)
			return false;
		b.n = -b.n;
	}
	/* a.n * (b.d / g) + b.n * (a.d / g), over a.d / g * b.d */
	if (__builtin_mul_overflow(a.n, b.d / g, &x) || __builtin_mul_overflow(b.n, a.d / g, &y) ||
	    __builtin_add_overflow(x, y, &x) || __builtin_mul_overflow(a.d / g, b.d, &d))
		return false;
	return q_make(x, d, out);
}

static bool q_mul(struct arith_q a, struct arith_q b, bool div, struct arith_q *out)
{
	int64_t g1, g2, n, d;

	if (div) {
		if (b.n == 0)
			return false;
		if (!q_make(b.d, b.n, &b))
			return false;
	}
	g1 = gcd64(a.n, b.d);
	g2 = gcd64(b.n, a.d);
	if (__builtin_mul_overflow(a.n / g1, b.n / g2, &n) ||
	    __builtin_mul_overflow(a.d / g2, b.d / g1, &d))
		return false;
	return q_make(n, d, out);
}

double arith_double(struct arith_q value)
{
	return (double)value.n / (double)value.d;
}

/* value rounded to decimals places, half away from zero; false on overflow. */
static bool q_round(struct arith_q v, unsigned decimals, struct arith_q *out)
{
	int64_t p = pow10s[decimals], x, q, r;
	bool neg = v.n < 0;

	if (__builtin_mul_overflow(neg ? -v.n : v.n, p, &x))
		return false;
	q = x / v.d;
	r = x % v.d;
	/* r / d >= 1/2 */
	if (r >= v.d - r)
		q++;
	return q_make(neg ? -q : q, p, out);
}

bool arith_states(struct arith_q written, unsigned decimals, struct arith_q value, bool rounds,
		  bool approx)
{
	struct arith_q r, diff, tol;

	if (q_cmp(written, value) == 0)
		return true;
	if (decimals > DEC_DIGITS)
		return false;
	if ((rounds || decimals >= 2) && q_round(value, decimals, &r) && q_cmp(written, r) == 0)
		return true;
	if (!approx || !q_add(written, value, true, &diff))
		return false;
	if (diff.n < 0)
		diff.n = -diff.n;
	/* within 1% of the value, or half the written precision */
	if (q_mul(value, (struct arith_q){1, 100}, false, &tol)) {
		if (tol.n < 0)
			tol.n = -tol.n;
		if (q_cmp(diff, tol) <= 0)
			return true;
	}
	return q_cmp(diff, (struct arith_q){1, 2 * pow10s[decimals]}) <= 0;
}

/* --- working out -------------------------------------------------------- */

static int prec(int k)
{
	return k == ARITH_TOK_ADD || k == ARITH_TOK_SUB ? 1 : k == ARITH_TOK_MUL || k == ARITH_TOK_DIV ? 2 : 0;
}

static bool apply(struct arith_q *vals, size_t *nv, int op)
{
	struct arith_q x, y;

	if (*nv < 2)
		return false;
	y = vals[--*nv];
	x = vals[*nv - 1];
	if (op == ARITH_TOK_ADD || op == ARITH_TOK_SUB)
		return q_add(x, y, op == ARITH_TOK_SUB, &vals[*nv - 1]);
	return q_mul(x, y, op == ARITH_TOK_DIV, &vals[*nv - 1]);
}

bool arith_eval(const struct arith *a, const struct arith_rel *rel, const struct arith_q *v,
		struct arith_q *out)
{
	struct arith_q vals[ARITH_TOKS];
	uint8_t ops[ARITH_TOKS];
	size_t nv = 0, no = 0, i;

	if (rel->n_toks == 0 || rel->n_toks > ARITH_TOKS)
		return false;
	if (rel->toks[0].kind == ARITH_TOK_AVG) {
		struct arith_q sum = {0, 1};

		for (i = 1; i < rel->n_toks; i++) {
			uint8_t f = rel->toks[i].fig;

			if (rel->toks[i].kind != ARITH_TOK_FIG || f >= a->n_fig ||
			    !q_add(sum, v ? v[f] : a->fig[f].v, false, &sum))
				return false;
		}
		return rel->n_toks > 1 &&
		       q_mul(sum, (struct arith_q){(int64_t)(rel->n_toks - 1), 1}, true, out);
	}
	for (i = 0; i < rel->n_toks; i++) {
		int k = rel->toks[i].kind;

		if (k == ARITH_TOK_FIG) {
			uint8_t f = rel->toks[i].fig;

			if (f >= a->n_fig || nv == ARITH_TOKS)
				return false;
			vals[nv++] = v ? v[f] : a->fig[f].v;
		} else if (k == ARITH_TOK_LP) {
			if (no == ARITH_TOKS)
				return false;
			ops[no++] = (uint8_t)k;
		} else if (k == ARITH_TOK_RP) {
			while (no > 0 && ops[no - 1] != ARITH_TOK_LP)
				if (!apply(vals, &nv, ops[--no]))
					return false;
			if (no == 0)
				return false;
			no--;
		} else if (is_op(k)) {
			while (no > 0 && prec(ops[no - 1]) >= prec(k))
				if (!apply(vals, &nv, ops[--no]))
					return false;
			if (no == ARITH_TOKS)
				return false;
			ops[no++] = (uint8_t)k;
		} else {
			return false;
		}
	}
	while (no > 0)
		if (ops[no - 1] == ARITH_TOK_LP || !apply(vals, &nv, ops[--no]))
			return false;
	if (nv != 1)
		return false;
	*out = vals[0];
	return true;
}

/* --- writing ------------------------------------------------------------ */

struct out {
	char *p;
	size_t n, len;
	bool cut;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->cut)
		return;
	/* room for "..." and the NUL */
	if (o->len + n + 4 > o->n) {
		if (o->n >= 4) {
			memcpy(o->p + MIN(o->len, o->n - 4), "...", 3);
			o->len = MIN(o->len, o->n - 4) + 3;
		}
		o->cut = true;
		return;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* value in decimals places at least, at most 4 (rounded), no exponent. */
static void put_value(struct out *o, struct arith_q v, unsigned decimals, bool commas)
{
	char buf[48];
	struct arith_q r;
	unsigned dec = decimals;
	int64_t ip, fp;
	bool neg;

	while (dec < 4 && q_round(v, dec, &r) && q_cmp(r, v) != 0)
		dec++;
	if (dec > DEC_DIGITS || !q_round(v, dec, &r)) {
		snprintf(buf, sizeof(buf), "%.4f", arith_double(v));
		puts_(o, buf);
		return;
	}
	/* r = x / 10^dec, exactly */
	neg = r.n < 0;
	fp = (neg ? -r.n : r.n) * (pow10s[dec] / r.d);
	ip = fp / pow10s[dec];
	fp %= pow10s[dec];
	if (neg)
		puts_(o, "-");
	snprintf(buf, sizeof(buf), "%lld", (long long)ip);
	for (size_t k = 0, l = strlen(buf); k < l; k++) {
		put(o, buf + k, 1);
		if (commas && (l - k - 1) % 3 == 0 && k + 1 < l)
			puts_(o, ",");
	}
	if (dec) {
		snprintf(buf, sizeof(buf), ".%0*lld", (int)dec, (long long)fp);
		puts_(o, buf);
	}
}

static void put_fig(struct out *o, const struct arith_fig *f, const char *text,
		    const struct arith_q *v)
{
	if (!v || q_cmp(*v, f->v) == 0) {
		put(o, text + f->from, f->to - f->from);
		return;
	}
	put(o, text + f->from, f->num_from - f->from);
	put_value(o, *v, f->decimals, f->commas);
	put(o, text + f->num_to, f->to - f->num_to);
}

size_t arith_how(const struct arith *a, const struct arith_rel *rel, const char *text,
		 const struct arith_q *v, char *out, size_t n)
{
	struct out o = {out, n, 0, false};
	size_t i;
	bool avg = rel->n_toks && rel->toks[0].kind == ARITH_TOK_AVG;

	if (n == 0)
		return 0;
	if (avg)
		puts_(&o, "average of ");
	for (i = avg; i < rel->n_toks; i++) {
		const struct arith_tok *t = &rel->toks[i];

		switch (t->kind) {
		case ARITH_TOK_FIG:
			if (avg && i > 1)
				puts_(&o, i + 1 == rel->n_toks ? " and " : ", ");
			if (t->fig < a->n_fig)
				put_fig(&o, &a->fig[t->fig], text, v ? &v[t->fig] : NULL);
			break;
		case ARITH_TOK_ADD: puts_(&o, " + "); break;
		case ARITH_TOK_SUB: puts_(&o, " - "); break;
		case ARITH_TOK_MUL: puts_(&o, " x "); break;
		case ARITH_TOK_DIV: puts_(&o, " / "); break;
		case ARITH_TOK_LP: puts_(&o, "("); break;
		case ARITH_TOK_RP: puts_(&o, ")"); break;
		default: break;
		}
	}
	out[MIN(o.len, n - 1)] = '\0';
	return MIN(o.len, n - 1);
}

size_t arith_format(const struct arith *a, const struct arith_fig *fig, const char *text,
		    struct arith_q value, char *out, size_t n)
{
	struct out o = {out, n, 0, false};

	(void)a;
	if (n == 0)
		return 0;
	put(&o, text + fig->from, fig->num_from - fig->from);
	put_value(&o, value, fig->decimals, fig->commas);
	put(&o, text + fig->num_to, fig->to - fig->num_to);
	out[MIN(o.len, n - 1)] = '\0';
	return MIN(o.len, n - 1);
}
