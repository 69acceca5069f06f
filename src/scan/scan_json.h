/* SPDX-License-Identifier: MIT */
/*
 * A scan's findings, claims and summary written as JSON lines, as the unit
 * tests and the scan_split fuzz target read them (the program's writer is
 * output/jsonl.c). Functions append to a struct buf the caller owns.
 */
#ifndef HALLUSCAN_SCAN_JSON_H
#define HALLUSCAN_SCAN_JSON_H

#include "common/util.h"
#include "scan.h"

/* One finding as a JSONL record (with the newline). */
int scan_json_finding(struct buf *b, const char *path, const struct finding *f);
/* One claim as a JSONL record (with the newline). */
int scan_json_claim(struct buf *b, const char *path, const struct claim *cl,
		    const struct ruleset *rs);
/* The summary record of one input (with the newline); cv, when not NULL,
 * adds the claims verdict; error, when not NULL, says why the input was
 * not read to its end. */
int scan_json_summary(struct buf *b, const char *path, const struct scan_summary *s,
		      const struct ruleset *rs, const struct claims_verdict *cv, const char *error);

#endif
