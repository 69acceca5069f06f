/* SPDX-License-Identifier: MIT */
/*
 * What a run of halluscan eval keeps (eval.c): the detectors, the records
 * read, and the tallies per dataset and signal that report.c writes. Inside
 * src/eval/ only; the interface is eval.h.
 */
#ifndef HALLUSCAN_EVAL_TALLY_H
#define HALLUSCAN_EVAL_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "claims/claims.h"
#include "common/util.h"
#include "eval.h"
#include "stats.h"

#define NO_SIGNAL SIZE_MAX /* a cell of any signal */

struct hit;
struct ival;
struct labelled_span;

/* A rule set ready to scan, and what it found in the current record. */
struct detector {
	struct ruleset *rs;
	struct db *db;
	struct policy *pol;
	struct scan *sc; /* reused for records without a source */
	bool *counted;   /* per signal, unterminated_span last */
	size_t n_sig;    /* scan_n_signals(rs) */
	struct hit *hits;
	size_t n_hits, cap_hits;
	/* The hits as intervals: all by start, and by signal then start, the
	 * signal k's run from sig_at[k] to sig_at[k + 1]. */
	struct ival *by_start, *by_sig;
	size_t *sig_at;
	size_t cap_by_start, cap_by_sig;
	struct buf text;
	uint64_t claims[CLAIM_LABELS]; /* the current record's claims (with scan_claims) */
};

/* One detector's tallies against the labels. */
struct cell {
	struct stats_confusion cm;
	uint64_t spans, caught;      /* labelled spans, and those a finding overlaps */
	uint64_t findings, on_span;  /* findings, and those overlapping a labelled span */
};

struct group {
	char *name;
	size_t name_len;
	char *shown; /* name for the text report, its controls escaped */
	uint64_t records;
	struct cell *cells; /* [0] any signal, [1 + k] signal k */
};

struct malformed {
	const char *file;
	uint64_t line;
	char *reason;
};

struct eval {
	const struct eval_options *o;
	FILE *err;
	struct diag *d;
	struct detector own, cmp;
	struct detector *main; /* own, or the cache's */
	bool compare;
	struct group overall;
	struct group *ds;
	size_t n_ds, cap_ds;
	uint64_t records, malformed;
	struct malformed *notes; /* the first EVAL_MALFORMED_LISTED */
	size_t n_notes;
	struct cell cmp_any;     /* the second rule set, overall */
	uint64_t mc_b, mc_c;     /* right only with the first set, only with the second */
	struct labelled_span *spans;
	struct ival *span_ix;
	size_t cap_spans, cap_span_ix;
	struct buf mis;
	/* --sweep: overall, at t = i / EVAL_SWEEP_STEPS; records with a checked claim. */
	struct stats_confusion sweep[EVAL_SWEEP_STEPS + 1];
	uint64_t sweep_checked;
	/* Pairs: judged with the main rule set; rows the label, columns the verdict. */
	struct pairs *pj;
	uint64_t pairs, pair_table[3][3];
};

/*
 * Writes the report of a run that read every record (ev->o->format: text
 * tables or one JSON object) to b, the datasets sorted by name. Returns 0
 * or -ENOMEM.
 */
int eval_report(struct eval *ev, struct buf *b);

#endif
