/* SPDX-License-Identifier: MIT */
/*
 * Statistics for measuring a detector against human labels: proportions
 * with Wilson intervals, 2x2 rates, Cohen's kappa, McNemar's exact test and
 * ROC points. All intervals are two-sided 95%.
 *
 * Nothing here allocates or keeps a pointer: the caller owns every argument
 * and every result struct.
 */
#ifndef HALLUSCAN_STATS_H
#define HALLUSCAN_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The 97.5th percentile of the standard normal: the z of a 95% interval. */
#define STATS_Z95 1.959963984540054

/* A proportion k / n and its 95% Wilson score interval [low, high]. */
struct stats_prop {
	uint64_t k, n;
	double p, low, high;
};

/*
 * Fills *out for k / n, with the Wilson score interval
 *   (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n).
 * Returns 0; -EDOM when n is 0 (p, low and high are then 0); -EINVAL when
 * k > n.
 */
int stats_wilson(uint64_t k, uint64_t n, struct stats_prop *out);

/* A 2x2 table of a detector against a reference (the human label). */
struct stats_confusion {
	uint64_t tp; /* both say positive */
	uint64_t fp; /* the detector says positive, the reference negative */
	uint64_t fn; /* the detector says negative, the reference positive */
	uint64_t tn; /* both say negative */
};

/* Each rate with its Wilson interval; one with n == 0 is undefined (all 0). */
struct stats_rates {
	struct stats_prop sensitivity; /* tp / (tp + fn), recall, TPR */
	struct stats_prop specificity; /* tn / (tn + fp), 1 - FPR */
	struct stats_prop precision;   /* tp / (tp + fp), PPV */
	struct stats_prop accuracy;    /* (tp + tn) / n, raw agreement */
};

void stats_confusion_rates(const struct stats_confusion *c, struct stats_rates *out);

/*
 * Cohen's kappa, (po - pe) / (1 - pe), with po the observed agreement and pe
 * the agreement expected by chance from the two raters' marginals.
 *
 * se is Cohen's (1960) approximate large-sample standard error,
 *   se = sqrt(po (1 - po) / (n (1 - pe)²)),
 * not the longer Fleiss, Cohen & Everitt (1969) asymptotic variance; the
 * two differ by a few percent (0.1296 against 0.1270 for the 2x2 table in
 * tests/unit/test_stats.c).
 * [low, high] is kappa ± STATS_Z95 · se, not clamped to [-1, 1].
 */
struct stats_kappa {
	uint64_t n;
	double po, pe, kappa, se, low, high;
};

/*
 * Kappa for a k x k table of counts, row-major: table[i * k + j] counts items
 * the first rater put in category i and the second in category j.
 * Returns 0; -EINVAL when k is 0; -EDOM when kappa is undefined: n is 0, or
 * pe is 1 (both raters used one and the same single category). On -EDOM,
 * n, po and pe are still filled where defined and the rest is 0.
 */
int stats_kappa(const uint64_t *table, size_t k, struct stats_kappa *out);
/* The same for a 2x2 table. */
int stats_confusion_kappa(const struct stats_confusion *c, struct stats_kappa *out);

/*
 * McNemar's exact test of paired outcomes, from the discordant counts b and
 * c: the two-sided p = min(1, 2 P[X <= min(b, c)]), X ~ Binomial(b + c, 1/2),
 * summed in log space from lgamma(): the relative error grows with
 * (b + c) log(b + c), about 1e-11 at b + c = 1e5 and 1e-9 at 1e6.
 * b = c = 0 gives p = 1. Returns 0.
 */
int stats_mcnemar_exact(uint64_t b, uint64_t c, double *p);

/*
 * The 2x2 table of a scored detector at threshold t: an item is called
 * positive when scores[i] >= t (a NaN score is never positive); labels[i]
 * is the reference.
 */
void stats_confusion_at(const double *scores, const bool *labels, size_t n, double t,
			struct stats_confusion *out);
/*
 * The ROC point at threshold t: *fpr = fp / (fp + tn), *tpr = tp / (tp + fn).
 * Returns 0, or -EDOM when the labels hold no positive or no negative (the
 * undefined rate is then 0).
 */
int stats_roc_point(const double *scores, const bool *labels, size_t n, double t,
		    double *fpr, double *tpr);

#endif
