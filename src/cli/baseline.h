/* SPDX-License-Identifier: MIT */
/*
 * Baselines: the fingerprints of findings a person has reviewed and
 * accepted (--baseline), and the writing of a new one (--write-baseline).
 * The file is JSONL, one finding a line, diff-friendly:
 * {"fingerprint":"<16 hex>","path":"...","rule":"...","text":"..."};
 * only the fingerprint is read back. A fingerprint holds no line number,
 * so a baseline survives edits above what it accepts.
 *
 * The caller owns struct baseline: zero it, and baseline_fini() it.
 */
#ifndef HALLUSCAN_CLI_BASELINE_H
#define HALLUSCAN_CLI_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "halluscan.h"

#include "common/util.h"

#define FINGERPRINT_LEN 16
/*
 * The largest baseline read: about 400,000 accepted findings. A larger
 * file, or one that never ends (/dev/zero, a pipe left open), is refused
 * after this many bytes, not read until memory runs out.
 */
#define BASELINE_MAX_BYTES ((size_t)64 << 20)

struct baseline {
	char (*fps)[FINGERPRINT_LEN + 1]; /* sorted after baseline_load() */
	size_t n, cap;
	struct buf records; /* what baseline_write() writes */
};

/*
 * Reads the fingerprints of the file at path. 0; the positive errno of a
 * file that cannot be read; or -EINVAL with d saying "FILE:LINE: ..." or
 * "FILE: larger than ..." (BASELINE_MAX_BYTES).
 */
int baseline_load(struct baseline *b, const char *path, struct diag *d);
bool baseline_has(const struct baseline *b, const char *fp);
/* Adds a finding of path to what baseline_write() will write. */
int baseline_add(struct baseline *b, const char *fp, const char *path,
		 const struct halluscan_finding *f);
/* Writes the records added, replacing the file: 0 or a positive errno. */
int baseline_write(struct baseline *b, const char *path);
void baseline_fini(struct baseline *b);

/*
 * The fingerprint of a finding: the first 16 hex digits of the SHA-256 of
 * its rule, its text normalized (blanks collapsed, ASCII lowercased), its
 * path (without "./") and index, its occurrence among findings of the same
 * rule and normalized text in that input.
 */
void fingerprint(const char *rule, const char *text, size_t len, const char *path,
		 unsigned long long index, char out[FINGERPRINT_LEN + 1]);
/* The key that indexes count: a hash of the rule and the normalized text. */
unsigned long long fingerprint_key(const char *rule, const char *text, size_t len);
/*
 * Text normalized once for both (a finding's key as it comes, its
 * fingerprint when it is written): fingerprint_normalize() writes it to
 * out (room for len bytes) and returns its length; the other two take it
 * so and give what fingerprint() and fingerprint_key() give of the text.
 */
size_t fingerprint_normalize(const char *text, size_t len, char *out);
void fingerprint_normalized(const char *rule, const char *norm, size_t n, const char *path,
			    unsigned long long index, char out[FINGERPRINT_LEN + 1]);
unsigned long long fingerprint_key_normalized(const char *rule, const char *norm, size_t n);

#endif
