/* SPDX-License-Identifier: MIT */
/*
 * The scan's state, apart from scan.c (written by scripts/split.py when scan.c was cut in
 * two; the grounding half is ground/ground_unit.c now). Not an interface.
 */
#ifndef HALLUSCAN_SCAN_SCAN_INT_H
#define HALLUSCAN_SCAN_SCAN_INT_H

#include "claims/claims.h"
#include "claims/fix.h"
#include "common/url.h"
#include "common/window.h"
#include "ground/attrs.h"
#include "ground/bib.h"
#include "ground/ground.h"
#include "ground/ground_unit.h"
#include "ground/record.h"
#include "ground/refs.h"
#include "ground/spans.h"
#include "match/engine.h"
#include "match/triggers.h"
#include "numbers/numlex.h"
#include "numbers/quantity.h"
#include "scan.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct held_event {
	uint64_t from, to, line, line_start, column;
	unsigned id;
};

/* A finding of an open span decided as the model's text; text and source in defer_text. */
struct deferred {
	struct claim_item it;
	size_t text_off, source_off;
};

struct scan {
	const struct db *db;
	uint64_t *ext_end;          /* per rule with extend: where its last match ended */
	const struct ruleset *rs;
	const struct policy *pol;
	scan_finding_fn fn;
	void *ctx;
	struct engine_stream *es;
	struct claims *claims;
	bool source_mode;           /* scanning a source: every match grounds */
	/* The source read now: a hash of its first SOURCE_HASHED bytes, and
	 * its length; and those of the turn's sources before (a ring), to
	 * know a text said again (scan_source_end()). */
	uint64_t src_hash, src_len;
	struct { uint64_t hash, len; } src_seen[16];
	uint32_t n_src_seen;
	bool pressure;              /* HALLUSCAN_SCAN_PRESSURE */
	/* The literal that wakes the late database (a rule's wake_on), or
	 * NULL: none, or rules that differ, which then run from the start. */
	const char *wake;
	size_t wake_len;
	bool woken;                 /* this input's late database is awake */
	/* The literal starts nowhere in the input before wake_clear (looked
	 * for here, or by the caller: scan_wake_known), and with wake_hit it
	 * starts there. */
	uint64_t wake_clear;
	bool wake_hit;
	claims_claim_fn claim_fn;   /* --claims */
	void *claim_ctx;
	struct spans spans;
	struct window win;
	/*
	 * An open span's content is the tool's when the span closes, and the
	 * model's when the input ends first: nothing vouched for it. Its events
	 * wait undecided (hold). Those decided early (too many, or their bytes
	 * leaving the window) have their findings kept aside (defer), and what
	 * they would ground the unit sets aside (ground_unit.h), until the
	 * span's fate is known.
	 */
	struct held_event *hold;
	size_t n_hold, cap_hold;
	bool deferring;             /* findings go to defer, not out */
	struct deferred *defer;
	size_t n_defer, cap_defer;
	struct buf defer_text;
	uint64_t defer_over;        /* findings past the caps, only counted */
	uint64_t span_matches;      /* rule matches in the open span */
	uint64_t exempted_at_open, repeats_at_open; /* the claims' counts then */
	uint64_t tool_exempted, tool_repeats; /* of those, counted in closed spans */
	/* The cursor: lines up to offset cur, the current line starting at
	 * line_start. Columns are counted only where a match needs one: the
	 * line's code points in [line_start, col_at) are col_cp. */
	uint64_t cur, line, line_start, col_at, col_cp;
	uint64_t open_line, open_column; /* where the open span began */
	uint64_t bytes, findings, grounded;
	uint64_t limit_hits_before; /* the engine's count when this input began */
	uint64_t *counts;
	bool ended;                 /* the last summary is still readable */
	int pending;                /* an error of reset(), returned by the next call */
	enum severity verdict;
	struct buf msg, rec, tmp;
	/* Reads a tool span's content or a source into a set (ground_unit.h). */
	struct ground_unit *unit;
	/* Bibliography entries in tool output and sources (NULL: no reference
	 * rules): the unit reads them (ground_unit_refs()). */
	const struct refs *refs;    /* the db's, or own_refs for --bib */
	struct refs *own_refs;
	struct bib *bib;            /* --bib, or NULL */
};

#endif
