/* SPDX-License-Identifier: MIT */
/*
 * The plain reader: a file or standard input read in pieces and fed to a
 * scanner, decoded on the way when a byte-order mark names UTF-16 or
 * UTF-32 (decode.h); and a file read in pieces into a scanner's
 * grounding. Neither holds an input whole: memory is the read size.
 *
 * The caller owns struct plain: zero it, and plain_fini() it at the end.
 */
#ifndef HALLUSCAN_INPUT_PLAIN_H
#define HALLUSCAN_INPUT_PLAIN_H

#include <stdbool.h>

#include "halluscan.h"

#include "match/decode.h"

#define PLAIN_READ_SIZE (128 * 1024)

struct plain {
	struct decoder dec;        /* after plain_scan: the input's encoding and replacements */
	/* After plain_scan: an errno that kept the input from being scanned at
	 * all (it cannot be opened; EILSEQ: UTF-16 or UTF-32 without a mark,
	 * dec.guess says which), or one that ended its reading early. */
	int skipped, read_err;
	/* Called with each piece of (decoded) text before the scanner reads it,
	 * when set; a non-zero return ends the input like a feed error. */
	int (*on_text)(void *ctx, const char *text, size_t len);
	void *text_ctx;
	char buf[PLAIN_READ_SIZE];
};

/* Called after each piece that held a line break (for --line-buffered). */
typedef int (*plain_line_fn)(void *ctx);

/*
 * Feeds the input name ("-": standard input) to sc, which the caller then
 * ends (unless p->skipped). Returns 0, or the negative errno of a feed or
 * of on_line, which ends the run; read errors are p->skipped and
 * p->read_err.
 */
int plain_scan(struct plain *p, struct halluscan_scanner *sc, const char *name,
	       plain_line_fn on_line, void *ctx);
/*
 * Adds the file at path to sc's grounding, as it is (no decoding). Returns
 * 0, a negative errno of the scanner, or the positive errno of a file
 * that cannot be read (what was read of it is grounding).
 */
int plain_ground(struct plain *p, struct halluscan_scanner *sc, enum halluscan_grounding kind,
		 const char *path);
void plain_fini(struct plain *p);

#endif
