/* SPDX-License-Identifier: MIT */
/* SHA-256 (FIPS 180-4), for the ruleset digest and the database cache key. */
#ifndef HALLUSCAN_SHA256_H
#define HALLUSCAN_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char blk[64];
	size_t n;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *p, size_t n);
/* Writes the 32-byte digest. */
void sha256_final(struct sha256 *s, unsigned char out[32]);
/* The digest of data[0, n) in one call: init, update and final without copying whole blocks. */
void sha256_digest(const void *data, size_t n, unsigned char out[32]);
/* Does this processor hash with the x86 SHA extensions (else portable C)? */
bool sha256_accelerated(void);
/* Set true, hashing takes the portable code (for the tests that compare the two). */
extern bool sha256_portable_only;
/* Writes 64 lowercase hex digits and a NUL. */
void sha256_hex(const unsigned char d[32], char out[65]);

#endif
