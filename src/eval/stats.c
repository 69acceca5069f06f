// SPDX-License-Identifier: MIT
/* Agreement statistics: Wilson intervals, kappa, McNemar's exact test, ROC points. */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "common/fmath.h"

int stats_wilson(uint64_t k, uint64_t n, struct stats_prop *out)
{
	const double z = STATS_Z95, z2 = z * z;
	double p, dn, denom, center, half;

	memset(out, 0, sizeof(*out));
	out->k = k;
	out->n = n;
	if (k > n)
		return -EINVAL;
	if (n == 0)
		return -EDOM;
	dn = (double)n;
	p = (double)k / dn;
	denom = 1 + z2 / dn;
	center = (p + z2 / (2 * dn)) / denom;
	half = z * fmath_sqrt(p * (1 - p) / dn + z2 / (4 * dn * dn)) / denom;
	out->p = p;
	/* Rounding must not push the ends of 0/n and n/n past 0 and 1. */
	out->low = k == 0 ? 0 : center - half > 0 ? center - half : 0;
	out->high = k == n ? 1 : center + half < 1 ? center + half : 1;
	return 0;
}

void stats_confusion_rates(const struct stats_confusion *c, struct stats_rates *out)
{
	/* -EDOM leaves an empty rate all 0, which is what stats.h promises. */
	(void)stats_wilson(c->tp, c->tp + c->fn, &out->sensitivity);
	(void)stats_wilson(c->tn, c->tn + c->fp, &out->specificity);
	(void)stats_wilson(c->tp, c->tp + c->fp, &out->precision);
	(void)stats_wilson(c->tp + c->tn, c->tp + c->fp + c->fn + c->tn, &out->accuracy);
}

int stats_kappa(const uint64_t *table, size_t k, struct stats_kappa *out)
{
	double n, agree = 0, pe = 0, row, col;
	size_t i, j;

	memset(out, 0, sizeof(*out));
	if (k == 0)
		return -EINVAL;
	for (i = 0; i < k * k; i++)
		out->n += table[i];
	if (out->n == 0)
		return -EDOM;
	n = (double)out->n;
	for (i = 0; i < k; i++) {
		row = col = 0;
		for (j = 0; j < k; j++) {
			row += (double)table[i * k + j];
			col += (double)table[j * k + i];
		}
		agree += (double)table[i * k + i];
		pe += (row / n) * (col / n);
	}
	out->po = agree / n;
	out->pe = pe;
	if (pe >= 1)
		return -EDOM;
	out->kappa = (out->po - pe) / (1 - pe);
	out->se = fmath_sqrt(out->po * (1 - out->po) / (n * (1 - pe) * (1 - pe)));
	out->low = out->kappa - STATS_Z95 * out->se;
	out->high = out->kappa + STATS_Z95 * out->se;
	return 0;
}

int stats_confusion_kappa(const struct stats_confusion *c, struct stats_kappa *out)
{
	/* Rows are the reference, columns the detector; positive first. */
	const uint64_t table[4] = {c->tp, c->fn, c->fp, c->tn};

	return stats_kappa(table, 2, out);
}

int stats_mcnemar_exact(uint64_t b, uint64_t c, double *p)
{
	uint64_t m = b < c ? b : c, i;
	double n = (double)b + (double)c, top = 1, term = 1, sum = 0;
	int64_t e = 0;

	if (2 * (double)m >= n) {
		*p = 1; /* b == c, including 0 == 0: P[X <= n/2] >= 1/2 */
		return 0;
	}
	/*
	 * P[X = m] = C(n, m) / 2^n, as top 2^e: C(n, m) as the product of
	 * (n - m + i) / i for i from 1 to m, each factor at least 1 (m < n/2),
	 * kept in range by whole powers of two, then 2^-n, which alone
	 * underflows past n = 1074. (It was lgamma() in log space; libm is not
	 * linked, fmath.h. The product takes m steps, fewer than the records
	 * that counted b and c, and its relative error is at most about m
	 * times 2^-53, 1e-10 at m = 1e6 against lgamma()'s 1e-9.)
	 */
	for (i = 1; i <= m; i++) {
		top *= (n - (double)m + (double)i) / (double)i;
		if (top > 0x1p512) {
			top *= 0x1p-512;
			e += 512;
		}
	}
	e -= n < 0x1p62 ? (int64_t)n : INT64_C(1) << 62; /* (2^-2^62 is 0 all the same) */
	/*
	 * P[X = i] grows with i up to n/2, so the largest term of the tail is
	 * P[X = m]. Sum the others relative to it, walking down with
	 * P[X = i-1] / P[X = i] = i / (n - i + 1), until they stop counting.
	 */
	for (i = m; ; i--) {
		sum += term;
		if (i == 0 || term < sum * 1e-17)
			break;
		term *= (double)i / (n - (double)i + 1);
	}
	/* 2 top sum 2^e, and e may be below any int: 0 there. */
	*p = e < -3000 ? 0 : fmath_ldexp(2 * top * sum, (int)e);
	if (*p > 1)
		*p = 1;
	return 0;
}

void stats_confusion_at(const double *scores, const bool *labels, size_t n, double t,
			struct stats_confusion *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		bool called = scores[i] >= t;

		if (labels[i] && called)
			out->tp++;
		else if (labels[i])
			out->fn++;
		else if (called)
			out->fp++;
		else
			out->tn++;
	}
}

int stats_roc_point(const double *scores, const bool *labels, size_t n, double t,
		    double *fpr, double *tpr)
{
	struct stats_confusion c;
	int ret = 0;

	stats_confusion_at(scores, labels, n, t, &c);
	*fpr = *tpr = 0;
	if (c.fp + c.tn)
		*fpr = (double)c.fp / (double)(c.fp + c.tn);
	else
		ret = -EDOM;
	if (c.tp + c.fn)
		*tpr = (double)c.tp / (double)(c.tp + c.fn);
	else
		ret = -EDOM;
	return ret;
}
