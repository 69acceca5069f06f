/* SPDX-License-Identifier: MIT */
/*
 * What arith.c, arith_eval.c share and nothing else includes: the types and macros more than
 * one of them uses, the small helpers they share (inline), and the functions and tables one of
 * them defines for another. Written by scripts/split.py; not an interface.
 */
#ifndef HALLUSCAN_NUMBERS_ARITH_INT_H
#define HALLUSCAN_NUMBERS_ARITH_INT_H

#include "arith.h"
#include "common/util.h"

#include <stdio.h>
#include <string.h>

#define DEC_DIGITS 6

static const int64_t pow10s[] = {1, 10, 100, 1000, 10000, 100000, 1000000};

/* --- exact values ------------------------------------------------------- */

static inline int64_t gcd64(int64_t a, int64_t b)
{
	if (a < 0)
		a = a == INT64_MIN ? 0 : -a;
	while (b) {
		int64_t t = a % b;

		a = b;
		b = t;
	}
	return a ? a : 1;
}

static inline bool q_make(int64_t n, int64_t d, struct arith_q *out)
{
	int64_t g;

	if (d == 0 || n == INT64_MIN || d == INT64_MIN)
		return false;
	if (d < 0) {
		n = -n;
		d = -d;
	}
	g = gcd64(n, d);
	out->n = n / g;
	out->d = d / g;
	return true;
}

static inline int q_cmp(struct arith_q a, struct arith_q b)
{
	/* Compared as long doubles: exact for the equal case below, where it is
	 * asked (n and d in lowest terms: equal values have equal n and d). */
	long double x, y;

	if (a.n == b.n && a.d == b.d)
		return 0;
	x = (long double)a.n * b.d;
	y = (long double)b.n * a.d;
	return x < y ? -1 : x > y ? 1 : (a.n < b.n ? -1 : 1);
}

static inline bool is_op(int k)
{
	return k == ARITH_TOK_ADD || k == ARITH_TOK_SUB || k == ARITH_TOK_MUL || k == ARITH_TOK_DIV;
}

#endif
