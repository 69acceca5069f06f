// SPDX-License-Identifier: MIT
/* Statistics: every expected value is worked out by hand (or with exact Python) below. */
#include <errno.h>
#include <math.h>

#include "eval/stats.h"
#include "test.h"

#define CHECK_NEAR(a, b, tol)                                                  \
	do {                                                                   \
		double a_ = (a), b_ = (b);                                     \
		if (!(fabs(a_ - b_) < (tol))) {                                \
			char m_[256];                                          \
			snprintf(m_, sizeof(m_), "%s ~ %s (%.10g != %.10g)", #a, #b, a_, b_); \
			test_fail(__FILE__, __LINE__, m_);                     \
		}                                                              \
	} while (0)
#define CHECK_4(a, b) CHECK_NEAR(a, b, 1e-4)

TEST(stats_wilson_interval)
{
	struct stats_prop w;

	/*
	 * 8/10, z = 1.959964, z² = 3.841459:
	 *   p = 0.8, denom = 1 + z²/n = 1.3841459
	 *   center = (p + z²/2n) / denom = (0.8 + 0.1920729) / 1.3841459 = 0.7167402
	 *   half = z · sqrt(p(1-p)/n + z²/4n²) / denom
	 *        = 1.959964 · sqrt(0.016 + 0.0096036) / 1.3841459
	 *        = 1.959964 · 0.1600113 / 1.3841459 = 0.2265777
	 *   [0.7167402 - 0.2265777, 0.7167402 + 0.2265777] = [0.4902, 0.9433]
	 */
	CHECK_EQ(stats_wilson(8, 10, &w), 0);
	CHECK_EQ(w.k, 8);
	CHECK_EQ(w.n, 10);
	CHECK_4(w.p, 0.8);
	CHECK_4(w.low, 0.4902);
	CHECK_4(w.high, 0.9433);

	/*
	 * 0/10: center = half = (z²/2n) / denom = 0.1920729 / 1.3841459 = 0.1387664,
	 * since sqrt(z²/4n²) = z/2n; so [0, 0.2775328], with low exactly 0.
	 */
	CHECK_EQ(stats_wilson(0, 10, &w), 0);
	CHECK(w.low == 0);
	CHECK_4(w.high, 0.2775);
	/* 10/10 mirrors it: [1 - 0.2775328, 1], with high exactly 1. */
	CHECK_EQ(stats_wilson(10, 10, &w), 0);
	CHECK_4(w.low, 0.7225);
	CHECK(w.high == 1);

	/* n = 0 is undefined, and all zeros; k > n is a caller's error. */
	CHECK_EQ(stats_wilson(0, 0, &w), -EDOM);
	CHECK(w.p == 0 && w.low == 0 && w.high == 0);
	CHECK_EQ(stats_wilson(3, 2, &w), -EINVAL);
}

TEST(stats_confusion_2x2)
{
	const struct stats_confusion c = {.tp = 20, .fp = 5, .fn = 10, .tn = 15};
	struct stats_rates r;
	struct stats_kappa k;

	stats_confusion_rates(&c, &r);
	/* sensitivity 20/30, specificity 15/20, precision 20/25, accuracy 35/50 */
	CHECK_EQ(r.sensitivity.k, 20);
	CHECK_EQ(r.sensitivity.n, 30);
	CHECK_4(r.sensitivity.p, 0.6667);
	CHECK_4(r.specificity.p, 0.75);
	CHECK_4(r.precision.p, 0.8);
	CHECK_EQ(r.accuracy.n, 50);
	CHECK_4(r.accuracy.p, 0.70);

	/*
	 * n = 50; reference positive tp + fn = 30, negative fp + tn = 20;
	 * detector positive tp + fp = 25, negative fn + tn = 25.
	 *   po = (20 + 15) / 50 = 0.70
	 *   pe = (30·25 + 20·25) / 50² = (750 + 500) / 2500 = 0.50
	 *   kappa = (0.70 - 0.50) / (1 - 0.50) = 0.40
	 *   se = sqrt(0.70 · 0.30 / (50 · 0.50²)) = sqrt(0.21 / 12.5) = sqrt(0.0168) = 0.129615
	 *   0.40 ± 1.959964 · 0.129615 = 0.40 ± 0.254040 = [0.1460, 0.6540]
	 */
	CHECK_EQ(stats_confusion_kappa(&c, &k), 0);
	CHECK_EQ(k.n, 50);
	CHECK_4(k.po, 0.70);
	CHECK_4(k.pe, 0.50);
	CHECK_4(k.kappa, 0.40);
	CHECK_4(k.se, 0.129615);
	CHECK_4(k.low, 0.1460);
	CHECK_4(k.high, 0.6540);
}

TEST(stats_confusion_edges)
{
	const struct stats_confusion all_neg = {.tn = 7};
	const struct stats_confusion perfect = {.tp = 5, .tn = 5};
	const struct stats_confusion empty = {0};
	struct stats_rates r;
	struct stats_kappa k;

	/* No positives anywhere: sensitivity and precision are undefined (0/0). */
	stats_confusion_rates(&all_neg, &r);
	CHECK_EQ(r.sensitivity.n, 0);
	CHECK(r.sensitivity.p == 0 && r.sensitivity.high == 0);
	CHECK_EQ(r.precision.n, 0);
	CHECK_4(r.specificity.p, 1);
	/* Both raters used one category only: pe = 1, kappa is undefined. */
	CHECK_EQ(stats_confusion_kappa(&all_neg, &k), -EDOM);
	CHECK_4(k.po, 1);
	CHECK_4(k.pe, 1);
	CHECK(k.kappa == 0);
	/* Perfect agreement: po = 1, pe = 0.5, kappa = 1, se = 0. */
	CHECK_EQ(stats_confusion_kappa(&perfect, &k), 0);
	CHECK_4(k.kappa, 1);
	CHECK_4(k.se, 0);
	CHECK_EQ(stats_confusion_kappa(&empty, &k), -EDOM);
	CHECK_EQ(stats_kappa(NULL, 0, &k), -EINVAL);
}

TEST(stats_kappa_3x3)
{
	/*
	 * Rows the human, columns the judge; supports, partially_supports,
	 * does_not_support:
	 *         S   P   D  | row
	 *   S    20   3   2  |  25
	 *   P     4   8   3  |  15
	 *   D     1   2   7  |  10
	 *   col  25  13  12  |  50
	 *   po = (20 + 8 + 7) / 50 = 0.70
	 *   pe = (25·25 + 15·13 + 10·12) / 50² = (625 + 195 + 120) / 2500 = 0.376
	 *   kappa = (0.70 - 0.376) / (1 - 0.376) = 0.324 / 0.624 = 0.519231
	 *   se = sqrt(0.21 / (50 · 0.624²)) = sqrt(0.21 / 19.4688) = 0.103858
	 *   0.519231 ± 1.959964 · 0.103858 = [0.3157, 0.7228]
	 */
	const uint64_t t[9] = {20, 3, 2, 4, 8, 3, 1, 2, 7};
	struct stats_kappa k;

	CHECK_EQ(stats_kappa(t, 3, &k), 0);
	CHECK_EQ(k.n, 50);
	CHECK_4(k.po, 0.70);
	CHECK_4(k.pe, 0.376);
	CHECK_4(k.kappa, 0.519231);
	CHECK_4(k.se, 0.103858);
	CHECK_4(k.low, 0.3157);
	CHECK_4(k.high, 0.7228);
}

TEST(stats_mcnemar)
{
	double p = -1;

	/* b = 1, c = 9: n = 10, P[X <= 1] = (C(10,0) + C(10,1)) / 2^10 = 11/1024;
	 * p = 2 · 11/1024 = 0.021484375. */
	CHECK_EQ(stats_mcnemar_exact(1, 9, &p), 0);
	CHECK_NEAR(p, 0.021484375, 1e-12);
	CHECK_EQ(stats_mcnemar_exact(9, 1, &p), 0);
	CHECK_NEAR(p, 0.021484375, 1e-12);
	/* The faithfulness-judge case: 4 discordant pairs, all one way: 2 · 1/16. */
	CHECK_EQ(stats_mcnemar_exact(0, 4, &p), 0);
	CHECK_NEAR(p, 0.125, 1e-12);
	/* No discordant pairs, or as many each way: no evidence, p = 1. */
	CHECK_EQ(stats_mcnemar_exact(0, 0, &p), 0);
	CHECK(p == 1);
	CHECK_EQ(stats_mcnemar_exact(7, 7, &p), 0);
	CHECK(p == 1);
	/* b = 5, c = 6: 2 · P[X <= 5], X ~ Bin(11, 1/2) = 2 · 1024/2048 = 1, not more. */
	CHECK_EQ(stats_mcnemar_exact(5, 6, &p), 0);
	CHECK_NEAR(p, 1, 1e-12);
	/*
	 * Large cases against exact integer arithmetic in python3:
	 *   from math import comb; from fractions import Fraction
	 *   n = b + c; float(Fraction(2 * sum(comb(n, i) for i in range(min(b, c) + 1)), 2**n))
	 * b=480, c=520: 0.21744829320414094
	 * b=49500, c=50500: 0.0015823598788515956
	 * b=49000, c=51000: 2.5887160383468979e-10 (checked to 1e-6 relative)
	 * b=0, c=2000: 2^-1999, which underflows to 0 in a double
	 */
	CHECK_EQ(stats_mcnemar_exact(480, 520, &p), 0);
	CHECK_NEAR(p, 0.21744829320414094, 1e-9);
	CHECK_EQ(stats_mcnemar_exact(50500, 49500, &p), 0);
	CHECK_NEAR(p, 0.0015823598788515956, 1e-9);
	CHECK_EQ(stats_mcnemar_exact(49000, 51000, &p), 0);
	CHECK_NEAR(p / 2.5887160383468979e-10, 1, 1e-6);
	CHECK_EQ(stats_mcnemar_exact(0, 2000, &p), 0);
	CHECK(p >= 0 && p < 1e-300);
}

TEST(stats_roc)
{
	/*
	 * At t = 0.5, positive when score >= 0.5:
	 *   labels   1    1    1    0    0    0    0    1
	 *   scores  0.9  0.5  0.2  0.7  0.1  0.4  NaN  0.6
	 *   called   +    +    -    +    -    -    -    +
	 * tp = 3 (0.9, 0.5, 0.6), fn = 1 (0.2), fp = 1 (0.7), tn = 3:
	 * tpr = 3/4, fpr = 1/4.
	 */
	const double s[8] = {0.9, 0.5, 0.2, 0.7, 0.1, 0.4, NAN, 0.6};
	const bool l[8] = {true, true, true, false, false, false, false, true};
	struct stats_confusion c;
	double fpr, tpr;

	stats_confusion_at(s, l, 8, 0.5, &c);
	CHECK_EQ(c.tp, 3);
	CHECK_EQ(c.fn, 1);
	CHECK_EQ(c.fp, 1);
	CHECK_EQ(c.tn, 3);
	CHECK_EQ(stats_roc_point(s, l, 8, 0.5, &fpr, &tpr), 0);
	CHECK_4(fpr, 0.25);
	CHECK_4(tpr, 0.75);
	/* Below every score: all called positive, (1, 1) — but NaN stays negative. */
	CHECK_EQ(stats_roc_point(s, l, 8, -INFINITY, &fpr, &tpr), 0);
	CHECK_4(fpr, 0.75);
	CHECK_4(tpr, 1);
	/* Above every score: (0, 0). */
	CHECK_EQ(stats_roc_point(s, l, 8, 2, &fpr, &tpr), 0);
	CHECK(fpr == 0 && tpr == 0);
	/* Only positives: fpr is undefined. */
	CHECK_EQ(stats_roc_point(s, l, 3, 0.5, &fpr, &tpr), -EDOM);
	CHECK(fpr == 0);
	CHECK_4(tpr, 2.0 / 3);
}
