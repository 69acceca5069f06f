/* SPDX-License-Identifier: MIT */
/*
 * What the fuzz targets share. Each target defines LLVMFuzzerTestOneInput()
 * and checks properties with FUZZ_CHECK, which aborts: libFuzzer then saves
 * the input, and the replay program (replay.c) fails its test.
 *
 * fuzz_builtin() and fuzz_builtin_pcre2() return objects that live until
 * the process exits; nothing else here keeps a pointer.
 */
#ifndef HALLUSCAN_FUZZ_H
#define HALLUSCAN_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/rules.h"
#include "scan/db.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

void fuzz_fail(const char *file, int line, const char *what, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));

/*
 * Aborts with the condition, and the message when one is given (a format
 * string literal and its arguments), when cond is false.
 */
#define FUZZ_CHECK(cond, ...)                                                  \
	do {                                                                   \
		if (!(cond))                                                   \
			fuzz_fail(__FILE__, __LINE__, #cond, ": " __VA_ARGS__); \
	} while (0)

/*
 * The input as a source of choices: bytes are taken from the front, and
 * past the end every take gives 0, so that any input is a valid one.
 */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

uint8_t fuzz_u8(struct fuzz_in *in);
uint32_t fuzz_u32(struct fuzz_in *in);

/* A small deterministic generator (xorshift32), seeded from the input. */
struct fuzz_rng {
	uint32_t s;
};

void fuzz_rng_seed(struct fuzz_rng *r, uint32_t seed);
/* A value in [0, n) (n > 0). */
uint32_t fuzz_rng_below(struct fuzz_rng *r, uint32_t n);

/*
 * The built-in packs, finished and compiled for the default backend
 * (Hyperscan where it is built in), and compiled for PCRE2 alone (NULL in
 * a build without Hyperscan, where the first is already PCRE2).
 */
const struct db *fuzz_builtin(void);
const struct db *fuzz_builtin_pcre2(void);

/* memcmp(a, b, n) == 0, where n may be 0 and a or b then NULL (an empty buffer). */
bool fuzz_same(const void *a, const void *b, size_t n);

/* True when s[0, n) is valid UTF-8 (RFC 3629: no overlong forms, no surrogates). */
bool fuzz_valid_utf8(const char *s, size_t n);

/* True when s[0, n) holds no byte below 0x20: one JSONL line is one record. */
bool fuzz_no_control(const char *s, size_t n);

/*
 * True when s[0, n) is safe to print on a terminal: valid UTF-8 with no
 * control character but line breaks (no other C0, no DEL, no C1).
 */
bool fuzz_terminal_safe(const char *s, size_t n);

#endif
