// SPDX-License-Identifier: MIT
/* SHA-256 (FIPS 180-4), for the ruleset digest and the database cache key. */
#include "sha256.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define SHA256_X86 1
#if defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h> /* glibc 2.33 and later */
#define SHA256_GLIBC_CPU 1
#endif
#endif
#endif

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

#define BSIG0(x) (ror(x, 2) ^ ror(x, 13) ^ ror(x, 22))
#define BSIG1(x) (ror(x, 6) ^ ror(x, 11) ^ ror(x, 25))
#define SSIG0(x) (ror(x, 7) ^ ror(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ror(x, 17) ^ ror(x, 19) ^ ((x) >> 10))
/* Ch and Maj in forms of three and four operations rather than five */
#define CH(e, f, g) ((g) ^ ((e) & ((f) ^ (g))))
#define MAJ(a, b, c) (((a) & (b)) | ((c) & ((a) | (b))))
/*
 * One round with the eight words named in their turn's order rather than
 * moved along: eight rounds in a row bring them back to where they were.
 */
#define ROUND(a, b, c, d, e, f, g, h, i)                                    \
	do {                                                                \
		uint32_t t1_ = (h) + BSIG1(e) + CH(e, f, g) + K[i] + w[i];  \
		(d) += t1_;                                                 \
		(h) = t1_ + BSIG0(a) + MAJ(a, b, c);                        \
	} while (0)

/*
 * The rounds unrolled eight at a time: no word is moved between rounds
 * (about two fifths of the instructions of the loop that moved them,
 * which is what runs where there are no SHA extensions, and under
 * valgrind).
 */
static void block_portable(uint32_t state[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = w[i - 16] + SSIG0(w[i - 15]) + w[i - 7] + SSIG1(w[i - 2]);
	a = state[0]; b = state[1]; c = state[2]; d = state[3];
	e = state[4]; f = state[5]; g = state[6]; h = state[7];
	for (i = 0; i < 64; i += 8) {
		ROUND(a, b, c, d, e, f, g, h, i);
		ROUND(h, a, b, c, d, e, f, g, i + 1);
		ROUND(g, h, a, b, c, d, e, f, i + 2);
		ROUND(f, g, h, a, b, c, d, e, i + 3);
		ROUND(e, f, g, h, a, b, c, d, i + 4);
		ROUND(d, e, f, g, h, a, b, c, i + 5);
		ROUND(c, d, e, f, g, h, a, b, i + 6);
		ROUND(b, c, d, e, f, g, h, a, i + 7);
	}
	state[0] += a; state[1] += b; state[2] += c; state[3] += d;
	state[4] += e; state[5] += f; state[6] += g; state[7] += h;
}

bool sha256_portable_only;

#ifdef SHA256_X86
/*
 * The same block with the x86 SHA extensions (SHA-NI: every AMD Zen, Intel
 * since Ice Lake and Goldmont), about ten times as fast: the state is
 * kept as ABEF and CDGH, four rounds per group of message words, the
 * message schedule by sha256msg1/msg2. A fingerprint hashes two or three
 * blocks per finding.
 */
__attribute__((target("sha,sse4.1,ssse3"))) static void block_shani(uint32_t state[8],
								 const unsigned char *p)
{
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
	__m128i st0, st1, tmp, msg, abef, cdgh, w[4];
	int g;

	tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1); /* CDAB */
	st1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B); /* EFGH */
	st0 = _mm_alignr_epi8(tmp, st1, 8);    /* ABEF */
	st1 = _mm_blend_epi16(st1, tmp, 0xF0); /* CDGH */
	abef = st0;
	cdgh = st1;
	for (g = 0; g < 4; g++)
		w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), swap);
	for (g = 0; g < 16; g++) {
		msg = _mm_add_epi32(w[g % 4], _mm_loadu_si128((const __m128i *)&K[4 * g]));
		st1 = _mm_sha256rnds2_epu32(st1, st0, msg);
		st0 = _mm_sha256rnds2_epu32(st0, st1, _mm_shuffle_epi32(msg, 0x0E));
		/* Words 4(g+1)..: from groups g-3 .. g, the one g-3 held replaced. */
		if (g >= 3 && g < 15) {
			tmp = _mm_sha256msg1_epu32(w[(g - 3) % 4], w[(g - 2) % 4]);
			tmp = _mm_add_epi32(tmp, _mm_alignr_epi8(w[g % 4], w[(g - 1) % 4], 4));
			w[(g + 1) % 4] = _mm_sha256msg2_epu32(tmp, w[g % 4]);
		}
	}
	st0 = _mm_add_epi32(st0, abef);
	st1 = _mm_add_epi32(st1, cdgh);
	tmp = _mm_shuffle_epi32(st0, 0x1B);    /* FEBA */
	st1 = _mm_shuffle_epi32(st1, 0xB1);    /* DCHG */
	st0 = _mm_blend_epi16(tmp, st1, 0xF0); /* DCBA */
	st1 = _mm_alignr_epi8(st1, tmp, 8);    /* HGFE */
	_mm_storeu_si128((__m128i *)&state[0], st0);
	_mm_storeu_si128((__m128i *)&state[4], st1);
}

/* Does the processor have the SHA extensions (and SSSE3, SSE4.1)? Asked once. */
static bool has_shani(void)
{
	static _Atomic int known; /* 0 not asked, 1 no, 2 yes */
	unsigned a, b, c, d;
	int k = known;

	if (k == 0) {
#ifdef SHA256_GLIBC_CPU
		/* What the dynamic loader found at start-up: a cpuid instruction
		 * traps to the hypervisor in a virtual machine, about 2 us each,
		 * and the four here were 1% of a 4 KB message's run (issue 35). */
		bool yes = CPU_FEATURE_ACTIVE(SSSE3) && CPU_FEATURE_ACTIVE(SSE4_1) &&
			   CPU_FEATURE_ACTIVE(SHA);

		(void)a, (void)b, (void)c, (void)d;
#else
		bool yes = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1) &&
			   __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
#endif

		known = k = yes ? 2 : 1;
	}
	return k == 2 && !sha256_portable_only;
}
#endif

static void block(struct sha256 *s, const unsigned char *p)
{
#ifdef SHA256_X86
	if (has_shani()) {
		block_shani(s->h, p);
		return;
	}
#endif
	block_portable(s->h, p);
}

bool sha256_accelerated(void)
{
#ifdef SHA256_X86
	return has_shani();
#else
	return false;
#endif
}

void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->n = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t n)
{
	const unsigned char *p = data;

	s->len += n;
	while (n > 0) {
		size_t k = 64 - s->n < n ? 64 - s->n : n;

		memcpy(s->blk + s->n, p, k);
		s->n += k;
		p += k;
		n -= k;
		if (s->n == 64) {
			block(s, s->blk);
			s->n = 0;
		}
	}
}

void sha256_final(struct sha256 *s, unsigned char out[32])
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, len[8];
	int i;

	sha256_update(s, &pad, 1);
	/* Zeros up to 56 bytes into a block, in at most two copies. */
	if (s->n > 56) {
		memset(s->blk + s->n, 0, 64 - s->n);
		block(s, s->blk);
		s->n = 0;
	}
	memset(s->blk + s->n, 0, 56 - s->n);
	s->n = 56;
	for (i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	memcpy(s->blk + 56, len, 8);
	block(s, s->blk);
	s->n = 0;
	for (i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(s->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)s->h[i];
	}
}

void sha256_digest(const void *data, size_t n, unsigned char out[32])
{
	const unsigned char *p = data;
	struct sha256 s;

	sha256_init(&s);
	s.len = n;
	for (; n >= 64; p += 64, n -= 64)
		block(&s, p);
	memcpy(s.blk, p, n);
	s.n = n;
	sha256_final(&s, out);
}

void sha256_hex(const unsigned char d[32], char out[65])
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[64] = '\0';
}
