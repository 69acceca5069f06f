// SPDX-License-Identifier: MIT
/*
 * The few functions of libm the library used, without libm: loading it
 * cost every run of the program about 20 us of its start (the loader maps
 * and relocates it and looks every symbol up in it too; issue 35). Each
 * here gives the same double as glibc's for every argument, because each
 * is exact (fmod, frexp, ldexp, round: the result is representable, or is
 * rounded once, as IEEE 754 and C define them) or correctly rounded by the
 * processor (sqrt); tests/unit/test_util.c holds them to libm's on
 * special and random arguments. Functions that are not exact (pow, log10,
 * lgamma) are not here: their callers were written not to need them.
 */
#ifndef HALLUSCAN_FMATH_H
#define HALLUSCAN_FMATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline uint64_t fmath_bits(double x)
{
	uint64_t b;

	memcpy(&b, &x, sizeof(b));
	return b;
}

static inline double fmath_double(uint64_t b)
{
	double x;

	memcpy(&x, &b, sizeof(x));
	return x;
}

/* round(): half away from zero. Below 2^52 the cast truncates exactly and
 * x - t is the exact fraction; from 2^52 up (and inf, NaN) x is whole. */
static inline double fmath_round(double x)
{
	double a = fabs(x), t;

	if (!(a < 0x1p52))
		return x;
	t = (double)(int64_t)a;
	if (a - t >= 0.5)
		t += 1;
	return copysign(t, x);
}

/* sqrt(): one instruction where there is SSE2, correctly rounded as libm's. */
static inline double fmath_sqrt(double x)
{
#if defined(__SSE2__)
	return _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd(x)));
#else
	return sqrt(x);
#endif
}

/* frexp(): x = m 2^e with |m| in [0.5, 1); 0, inf and NaN as they are, e 0. */
static inline double fmath_frexp(double x, int *e)
{
	uint64_t b = fmath_bits(x);
	int ex = (int)(b >> 52 & 0x7ff), shift = 0;

	if (ex == 0x7ff || (b << 1) == 0) {
		*e = 0;
		return x;
	}
	if (ex == 0) { /* subnormal: made normal by an exact scaling */
		b = fmath_bits(x * 0x1p64);
		ex = (int)(b >> 52 & 0x7ff);
		shift = 64;
	}
	*e = ex - 1022 - shift;
	return fmath_double((b & 0x800fffffffffffffull) | 0x3feull << 52);
}

/*
 * ldexp(): x 2^n rounded once. Past the normal range the scaling is done in
 * steps that are exact, the last one kept below 2^-53 so that a subnormal
 * result is rounded only once (as musl's scalbn()).
 */
static inline double fmath_ldexp(double x, int n)
{
	double y = x;

	if (n > 1023) {
		y *= 0x1p1023;
		n -= 1023;
		if (n > 1023) {
			y *= 0x1p1023;
			n -= 1023;
			if (n > 1023)
				n = 1023;
		}
	} else if (n < -1022) {
		y *= 0x1p-1022 * 0x1p53;
		n += 1022 - 53;
		if (n < -1022) {
			y *= 0x1p-1022 * 0x1p53;
			n += 1022 - 53;
			if (n < -1022)
				n = -1022;
		}
	}
	return y * fmath_double((uint64_t)(0x3ff + n) << 52);
}

/*
 * fmod(): x - n y for the whole n that leaves |r| < |y|, with x's sign:
 * exact, computed on the integer significands by long division (as
 * musl's). y 0 or NaN, x inf or NaN: NaN.
 */
static inline double fmath_fmod(double x, double y)
{
	uint64_t ux = fmath_bits(x), uy = fmath_bits(y), i;
	int ex = (int)(ux >> 52 & 0x7ff), ey = (int)(uy >> 52 & 0x7ff);
	uint64_t sx = ux >> 63 << 63;

	if ((uy << 1) == 0 || isnan(y) || ex == 0x7ff)
		return (x * y) / (x * y);
	if ((ux << 1) <= (uy << 1))
		return (ux << 1) == (uy << 1) ? 0 * x : x;
	/* The significands, subnormals made normal, with their exponents. */
	if (ex == 0) {
		for (i = ux << 12; i >> 63 == 0; ex--, i <<= 1)
			;
		ux <<= -ex + 1;
	} else {
		ux &= UINT64_MAX >> 12;
		ux |= 1ull << 52;
	}
	if (ey == 0) {
		for (i = uy << 12; i >> 63 == 0; ey--, i <<= 1)
			;
		uy <<= -ey + 1;
	} else {
		uy &= UINT64_MAX >> 12;
		uy |= 1ull << 52;
	}
	for (; ex > ey; ex--) {
		i = ux - uy;
		if (i >> 63 == 0) {
			if (i == 0)
				return 0 * x;
			ux = i;
		}
		ux <<= 1;
	}
	i = ux - uy;
	if (i >> 63 == 0) {
		if (i == 0)
			return 0 * x;
		ux = i;
	}
	for (; ux >> 52 == 0; ux <<= 1, ex--)
		;
	if (ex > 0) {
		ux -= 1ull << 52;
		ux |= (uint64_t)ex << 52;
	} else {
		ux >>= -ex + 1;
	}
	return fmath_double(ux | sx);
}

#endif
