/* SPDX-License-Identifier: MIT */
/*
 * What scan.c, scan_ground.c share and nothing else includes: the types and macros more than
 * one of them uses, the small helpers they share (inline), and the functions and tables one of
 * them defines for another. Written by scripts/split.py; not an interface.
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
	struct ground *ground;
	struct ground *sources;     /* --source grounding, seeding ground per input */
	bool have_sources;          /* sources holds some: kept allocated when cleared */
	bool source_mode;           /* scanning a source: every match grounds */
	/* The source read now: a hash of its first SOURCE_HASHED bytes, and
	 * its length; and those of the turn's sources before (a ring), to
	 * know a text said again (scan_source_end()). */
	uint64_t src_hash, src_len;
	struct { uint64_t hash, len; } src_seen[16];
	uint32_t n_src_seen;
	uint64_t ground_lo, ground_hi; /* what a reference line read as grounding may span */
	uint64_t source_line;          /* where the source's current line starts */
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
	struct buf key;
	struct spans spans;
	struct window win;
	/*
	 * An open span's content is the tool's when the span closes, and the
	 * model's when the input ends first: nothing vouched for it. Its events
	 * wait undecided (hold). Those decided early (too many, or their bytes
	 * leaving the window) have their findings kept aside (defer) and what
	 * they would ground set aside (span_ground), until the span's fate is known.
	 * What the events decided early ground is kept apart from what the record
	 * reader puts in span_ground (held_ground): at the close it goes in after
	 * the reader's and before the events still held, the order it has when
	 * none was decided early, so the grounded set's order (and what it
	 * evicts) does not hang on where the reads cut the input.
	 */
	struct held_event *hold;
	size_t n_hold, cap_hold;
	struct ground *span_ground;
	struct ground *held_ground;
	uint64_t held_line_from;    /* where the line after those decided early begins */
	bool deferring;             /* findings go to defer, not out */
	struct deferred *defer;
	size_t n_defer, cap_defer;
	struct buf defer_text;
	uint64_t defer_over;        /* findings past the caps, only counted */
	uint64_t span_matches;      /* rule matches in the open span */
	uint64_t span_quantities;   /* quantities read in it */
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
	bool ground_stale;          /* ground is to be made from sources first */
	enum severity verdict;
	struct buf msg, rec, tmp;
	/*
	 * The quantities of a tool span's content or a source, read by the
	 * record reader (values with their keys) and the number lexer: the
	 * span's bytes from rec_at on are fed to it as they are about to leave
	 * the window, and the rest when it closes. Into rec_ground: the
	 * sources, or span_ground until the span closes.
	 */
	struct record *reader;
	/* Bibliography entries in tool output and sources (NULL: no reference
	 * rules), and the line last read for them, not to read it twice. */
	const struct refs *refs;    /* the db's, or own_refs for --bib */
	struct refs *own_refs;
	const struct attrs *attrs; /* NULL without an attribute rule */
	struct bib *bib;            /* --bib, or NULL */
	uint64_t ref_line_start;
	struct ground *ref_ground;
	struct ground *rec_ground;
	bool codes;           /* a rule checks codes (grounding: code): values are read for them */
	bool rec_on;
	uint64_t rec_at, rec_base;
	uint64_t rec_seq;            /* the ground's next seq when the text began */
	/* A run of text lines alike but for a leading number (line_run()). */
	uint64_t run_shape, run_at;
	uint32_t run_n;
	struct ground_context run_ctx; /* its lines' words */
	/* Items of a list in key: value text ("- all_day: false" ... "- all_day:
	 * true"): the first key of the items so far, how many, where (dash_item()). */
	uint64_t dash_key, dash_at;
	uint32_t dash_n;
	bool dash_whole; /* the items began the record's text: one is a list too */
	/* The short values of the item read now (item_value()): at most
	 * ITEM_VALUES, their pairs counted when it ends (item_end()). */
	struct {
		uint64_t field, at;
		uint8_t len;
		char text[GROUND_GROUP_PAIR_VALUE];
	} item[4];
	uint8_t n_item;
	bool item_over; /* it had more: no pairs of it */
	struct ground_context dash_ctx;
	/* Labels numbered from 1 at lines' starts ("Activity 1:" ... "Activity
	 * 4:"): the label's hash, the last number, where 1 was (label_run()). */
	uint64_t lab_word, lab_at;
	uint32_t lab_n;
	bool lab_broken; /* a number out of turn: no list */
	/* a label word that ended a folded YAML line ("Activity\"), its number
	 * on the next ("\ 3: Team Lunch"): its bytes, how many */
	char lab_pend[24];
	uint8_t lab_pend_n;
	bool lab_fold; /* the value read now starts with such a number */
	struct ground_context lab_ctx;
	const struct record_value *rec_value;
	bool phones_only; /* of rec_value (its key names something): its phone numbers only */
	/* A text line that ended with a month's name ("... on June"): the month,
	 * 1-12, else 0, and the offset of its name, for the next line's day. */
	unsigned fold_month;
	uint64_t fold_at;
	/* The periods of the value's figures, and the quantities of its last
	 * figure, [per_mark, per_end) in seq, which a period after it binds to. */
	struct numlex_periods periods;
	uint64_t per_mark, per_end;
};

/* The longest label word taken ("Activity", "Session", "Option"). */
#define LABEL_WORD 24

_Static_assert(LABEL_WORD <= sizeof(((struct scan *)0)->lab_pend), "a label word fits");

int on_ground_value(void *ctx, const struct record_value *v);
int reader_end(struct scan *s, uint64_t to);

/* The item of a list in key: value text ends: each pair of its values
 * counted once (ground_group_pair_add()). */
static inline int item_end(struct scan *s)
{
	int err = 0;
	size_t i, j;

	for (i = 0; !s->item_over && i < s->n_item && err == 0; i++)
		for (j = i + 1; j < s->n_item && err == 0; j++)
			if (s->item[i].field != s->item[j].field)
				err = ground_group_pair_add(s->rec_ground, s->item[i].field, s->item[i].text,
							    s->item[i].len, s->item[j].field, s->item[j].text,
							    s->item[j].len, s->item[i].at);
	s->n_item = 0;
	s->item_over = false;
	return err;
}

/* A list of n items with no key, said at at: grounded as an array's length is. */
static inline int add_list_length(struct scan *s, uint32_t n, uint64_t at, const struct ground_context *ctx)
{
	struct quantity q;
	char text[16];
	int len;

	quantity_set_items(&q, NULL, 0, n);
	len = snprintf(text, sizeof(text), "%u", (unsigned)n);
	if (s->rec_ground == s->span_ground)
		s->span_quantities++;
	return ground_add_quantity(s->rec_ground, &q, text, (size_t)len, at, ctx);
}

/* The list of key: value items ends: as many as they are, two or more, a
 * list with no key. */
static inline int dash_end(struct scan *s)
{
	int err = item_end(s);

	if (err == 0 && (s->dash_n >= 2 || (s->dash_n == 1 && s->dash_whole)))
		err = add_list_length(s, s->dash_n, s->dash_at, &s->dash_ctx);
	s->dash_n = 0;
	return err;
}

/* The run of numbered labels ends: 1 to n of them, n >= 2, a list of n with no key. */
static inline int label_run_end(struct scan *s)
{
	int err = 0;

	if (s->lab_n >= 2 && !s->lab_broken)
		err = add_list_length(s, s->lab_n, s->lab_at, &s->lab_ctx);
	s->lab_n = 0;
	s->lab_broken = false;
	return err;
}

/* Starts reading a span's content (at offset at) or a source into g. */
static inline void reader_begin(struct scan *s, struct ground *g, uint64_t at)
{
	record_reset(s->reader);
	s->rec_ground = g;
	s->rec_on = true;
	s->rec_at = s->rec_base = at;
	s->rec_seq = ground_next_seq(g);
	s->run_n = 0;
	s->dash_n = 0;
	s->lab_n = 0;
	s->lab_pend_n = 0;
	s->n_item = 0;
	s->item_over = false;
	s->fold_month = 0;
}

/* Feeds the reader the open span's bytes up to offset to (still in the window). */
static inline int reader_catch_up(struct scan *s, uint64_t to)
{
	const char *p;
	size_t n;
	int err;

	if (!s->rec_on || to <= s->rec_at)
		return 0;
	p = window_get(&s->win, s->rec_at, to, &n);
	s->rec_at = to;
	err = record_feed(s->reader, p, n, on_ground_value, s);
	if (err)
		s->rec_on = false;
	return err;
}

#endif
