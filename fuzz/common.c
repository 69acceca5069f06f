// SPDX-License-Identifier: MIT
/* What the fuzz targets share: checks, choices from the input, the built-in packs. */
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

void fuzz_fail(const char *file, int line, const char *what, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: property failed: %s", file, line, what);
	/* fmt is ": " and the caller's message, if it gave one. */
	if (strcmp(fmt, ": ") != 0) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
	/* abort(), not exit(): libFuzzer saves the input and the sanitizers
	 * print the stack. */
	abort();
}

uint8_t fuzz_u8(struct fuzz_in *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

uint32_t fuzz_u32(struct fuzz_in *in)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v = v << 8 | fuzz_u8(in);
	return v;
}

void fuzz_rng_seed(struct fuzz_rng *r, uint32_t seed)
{
	/* xorshift32 never leaves 0. */
	r->s = seed ? seed : 0x9e3779b9u;
}

uint32_t fuzz_rng_below(struct fuzz_rng *r, uint32_t n)
{
	uint32_t x = r->s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	r->s = x;
	return x % n;
}

static const struct db *load_builtin(enum engine_backend be)
{
	struct ruleset *rs = ruleset_new();
	struct diag d = {""};
	struct db *db = NULL;

	FUZZ_CHECK(rs != NULL);
	FUZZ_CHECK(ruleset_add_builtin(rs, &d) == 0, "%s", d.msg);
	FUZZ_CHECK(ruleset_finish(rs, &d) == 0, "%s", d.msg);
	FUZZ_CHECK(db_compile(rs, be, &db, &d) == 0, "%s", d.msg);
	/* Kept for the life of the process, with the ruleset it points to. */
	return db;
}

const struct db *fuzz_builtin(void)
{
	static const struct db *db;

	if (!db)
		db = load_builtin(ENGINE_AUTO);
	return db;
}

const struct db *fuzz_builtin_pcre2(void)
{
	static const struct db *db;

	if (!HAVE_HYPERSCAN)
		return NULL;
	if (!db)
		db = load_builtin(ENGINE_PCRE2);
	return db;
}

bool fuzz_same(const void *a, const void *b, size_t n)
{
	return n == 0 || memcmp(a, b, n) == 0;
}

/*
 * Written from RFC 3629's table of well-formed sequences, not from the
 * writer's decoder, so that the two do not share a mistake.
 */
bool fuzz_valid_utf8(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned char c = p[i];
		unsigned char lo = 0x80, hi = 0xBF;
		size_t k, j;

		if (c <= 0x7F) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			k = 1;
		else if (c == 0xE0)
			k = 2, lo = 0xA0;
		else if (c == 0xED)
			k = 2, hi = 0x9F;
		else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
			k = 2;
		else if (c == 0xF0)
			k = 3, lo = 0x90;
		else if (c >= 0xF1 && c <= 0xF3)
			k = 3;
		else if (c == 0xF4)
			k = 3, hi = 0x8F;
		else
			return false;
		if (n - i - 1 < k)
			return false;
		/* Only the second byte has the narrower range. */
		for (j = 1; j <= k; j++) {
			if (p[i + j] < (j == 1 ? lo : 0x80) || p[i + j] > (j == 1 ? hi : 0xBF))
				return false;
		}
		i += k + 1;
	}
	return true;
}

bool fuzz_no_control(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20)
			return false;
	return true;
}

bool fuzz_terminal_safe(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	if (!fuzz_valid_utf8(s, n))
		return false;
	for (i = 0; i < n; i++) {
		if ((p[i] < 0x20 && p[i] != '\n') || p[i] == 0x7f)
			return false;
		/* U+0080..U+009F: C2 80..C2 9F (CSI is U+009B). */
		if (p[i] == 0xc2 && i + 1 < n && p[i + 1] <= 0x9f)
			return false;
	}
	return true;
}
