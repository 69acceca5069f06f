/* SPDX-License-Identifier: MIT */
/*
 * halluscan eval: the detector measured against labelled JSONL records
 * (id, dataset, response, source, spans, has_hallucination): response-level
 * confusion, Wilson intervals and Cohen's kappa, span-level catch rate and
 * finding precision, per dataset, per signal and overall; McNemar's exact
 * test against a second rule set; with sweep, the claims verdict's
 * unsupported-ratio threshold swept from 0 to 1. Claim/passage pair records
 * (claim, passage, label) are judged as --pairs judges them and measured
 * against their labels: a 3x3 agreement table and Cohen's kappa.
 *
 * No function takes ownership of its arguments: the caller owns the options,
 * the strings they point to and every FILE, and closes them.
 */
#ifndef HALLUSCAN_EVAL_H
#define HALLUSCAN_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/util.h"

/* Bytes of response kept on each side of a misjudgment's first finding or span. */
#define EVAL_CONTEXT_BYTES 120
/* Malformed records named in the report; all are counted and written to err. */
#define EVAL_MALFORMED_LISTED 100
/* The sweep's thresholds: t = i / EVAL_SWEEP_STEPS for i = 0 .. EVAL_SWEEP_STEPS. */
#define EVAL_SWEEP_STEPS 20

enum eval_format {
	EVAL_TEXT, /* aligned tables */
	EVAL_JSON, /* one JSON object and a newline */
};

/* The built-in packs loaded once for many runs in one process (below). */
struct eval_cache;

struct eval_options {
	const char *const *files;         /* "-" is standard input */
	size_t n_files;
	const char *const *rules;         /* rule packs; none: the built-in packs */
	size_t n_rules;
	const char *const *compare_rules; /* a second rule set; none: no comparison */
	size_t n_compare_rules;
	const char *const *signals;       /* the signals that count; none: all of them */
	size_t n_signals;
	FILE *misjudgments;               /* false positives and negatives, and pairs whose
	                                     verdict is not their label, as JSONL, or NULL */
	enum eval_format format;
	/*
	 * Sweeps the claims verdict's threshold (--sweep): a record's ratio is
	 * its unsupported claims over its checked ones (supported, partial and
	 * unsupported; 0 when none), predicted positive when ratio > t, for t =
	 * 0, 0.05, ..., 1, over all records together (not per dataset), with the
	 * main rule set and every rule whatever the signals.
	 */
	bool sweep;
	/* Scans under context pressure (--pressure, HALLUSCAN_SCAN_PRESSURE),
	 * both rule sets. */
	bool pressure;
	/*
	 * With no rules: the built-in packs and their scanner are taken from
	 * here and left here for the next run (the same report as a run
	 * without, for less: loading them is most of a small file's run), or
	 * NULL. Runs sharing one cache must not overlap.
	 */
	struct eval_cache *cache;
};

/* An empty cache for eval_options.cache: 0 or -ENOMEM. */
int eval_cache_new(struct eval_cache **out);
void eval_cache_free(struct eval_cache *c);

/*
 * Evaluates every record of every file and writes the report to out.
 * A record needs "response" and "has_hallucination"; "id", "dataset" (else
 * "(none)"), "source" and "spans" may be absent. A record with no "response"
 * but a "claim", "passage" or "label" is a pair: it needs "claim" and
 * "passage" strings and a "label" of supports, partially_supports or
 * does_not_support; "id" may be absent. A file may mix the two kinds. Each
 * malformed record (a line longer than RECORD_MAX, not JSON, a field missing
 * or of the wrong type, a span outside the response or whose text is not the
 * response's bytes, a pair label not one of the three) is counted, reported
 * and named on err as "halluscan: FILE:LINE: reason", and the run goes on;
 * blank lines are not records. Returns 0, or a negative
 * errno with d saying why: a rule pack that does not load, an unknown signal
 * (-EINVAL), an input that cannot be read, or a write error. Nothing is
 * written to out when the run fails.
 */
int eval_run(const struct eval_options *o, FILE *out, FILE *err, struct diag *d);

#endif
