// SPDX-License-Identifier: MIT
/* Agreement statistics: Wilson intervals, kappa, McNemar's exact test, ROC points. */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <string.h>

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
	half = z * sqrt(p * (1 - p) / dn + z2 / (4 * dn * dn)) / denom;
	out->p = p;
	/* Rounding must not push the ends of 0/n and n/n past 0 and 1. */
	out->low = k == 0 ? 0 : fmax(0, center - half);
	out->high = k == n ? 1 : fmin(1, center + half);
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
	out->se = sqrt(out->po * (1 - out->po) / (n * (1 - pe) * (1 - pe)));
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
	double n = (double)b + (double)c, log_top, term = 1, sum = 0;

	if (2 * (double)m >= n) {
		*p = 1; /* b == c, including 0 == 0: P[X <= n/2] >= 1/2 */
		return 0;
	}
	/*
	 * P[X = i] grows with i up to n/2, so the largest term of the tail is
	 * P[X = m]. Sum the others relative to it, walking down with
	 * P[X = i-1] / P[X = i] = i / (n - i + 1), until they stop counting.
	 */
	log_top = lgamma(n + 1) - lgamma((double)m + 1) - lgamma(n - (double)m + 1) - n * log(2);
	for (i = m; ; i--) {
		sum += term;
		if (i == 0 || term < sum * 1e-17)
			break;
		term *= (double)i / (n - (double)i + 1);
	}
	*p = fmin(1, 2 * exp(log_top + log(sum)));
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
