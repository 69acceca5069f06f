/* SPDX-License-Identifier: MIT */
/*
 * --quarantine: an input's text passed on without the sentences that carry
 * a finding at or above --fail-on (seed 002: "Quarantine means the claim
 * does not appear in the shipped output at all, not that it appears with a
 * warning badge"), and a record of what was dropped, with SHA-256 hashes,
 * for audit; the document's disposition (ship, quarantine, hold) is
 * policy_disposition()'s.
 *
 * Each dropped sentence and each failure that cannot be dropped is a
 * record written to out as soon as it is decided ("dropped", "stuck");
 * the input's "quarantine" record sums them up.
 *
 * A sentence is the scanner's (HALLUSCAN_SCAN_SENTENCES): it is held until
 * the findings up to its end are decided, then written whole or dropped
 * whole; every other byte is written as it was read. Pieces of a sentence
 * the scanner cut at its cap are held together. At most QUARANTINE_WINDOW
 * bytes wait: past that the input is held (fails closed) and nothing more
 * of it is written.
 *
 * The caller owns struct quarantine: zero it, set the fields above
 * "private", quarantine_begin() each input, quarantine_fini() it.
 */
#ifndef HALLUSCAN_CLI_QUARANTINE_H
#define HALLUSCAN_CLI_QUARANTINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "halluscan.h"

#include "claims/policy.h"
#include "common/sha256.h"
#include "common/util.h"

#define QUARANTINE_WINDOW (1024 * 1024)

struct qsent;
struct qfind;
struct jsonl;

struct quarantine {
	FILE *text;                       /* where the text goes */
	enum halluscan_fail_on drop_at;   /* a finding at or above it drops its sentence */
	bool labels;                      /* count the claims' labels (--claims) */
	struct disposition_rule rule;
	bool line_buffered;
	/* Where the "dropped" and "stuck" records go as they are decided
	 * (its path names the input). */
	struct jsonl *out;

	/* private */
	struct buf held;       /* from its byte skip on, the bytes from offset held_at */
	size_t skip;           /* on, not yet written (skip: consumed, moved out lazily) */
	uint64_t held_at, fed;
	bool overflow, skip_blanks;
	struct qsent *sent;
	size_t sent_head, n_sent, cap_sent; /* those before sent_head are decided */
	struct qfind *find;
	size_t n_find, cap_find;
	struct buf dropped, stuck; /* a record being built */
	struct disposition_counts n;
	uint64_t sentences, bytes_out;
	int group_label;       /* the worst label of the sentence's pieces so far */
	struct sha256 in_hash, out_hash;
	int err;               /* the errno of a write error */
};

void quarantine_begin(struct quarantine *q);
/* The input's next bytes, before the scanner reads them. 0 or -ENOMEM. */
int quarantine_text(struct quarantine *q, const char *text, size_t len);
/* A finding counted; code: it lies in Markdown code. 0 or -ENOMEM. */
int quarantine_finding(struct quarantine *q, const struct halluscan_finding *f, bool code);
/* A sentence of the scanner's. 0 or -ENOMEM. */
int quarantine_sentence(struct quarantine *q, const struct halluscan_claim *c);
/* Writes what is decided: every finding starting before bound has been. 0 or -errno. */
int quarantine_advance(struct quarantine *q, uint64_t bound);
/*
 * Ends the input: writes the rest of its text, and appends its record to
 * rec (with the newline): {"type":"quarantine", ...}. *d is its disposition.
 * 0 or a negative errno (a write error of the text: q->err).
 */
int quarantine_end(struct quarantine *q, const char *path, struct buf *out, enum disposition *d);
void quarantine_fini(struct quarantine *q);

#endif
