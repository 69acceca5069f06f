/* SPDX-License-Identifier: MIT */
/*
 * Grounding a unit of tool text: a tool span's content, or a source, read
 * whole into a grounded set (ground.h). The scan hands it the unit's bytes
 * and is told nothing back but errors and counts: what its values say
 * (ground_values.h), its matches' keys and its reference lines are this
 * module's to find and to put in a set, in the order the unit says them.
 *
 * ground_unit_new() returns a unit reader freed with ground_unit_free(). It
 * keeps the window, attrs and refs pointers, which must outlive it, and
 * reads the window (the input's recent bytes, common/window.h) only for
 * bytes of the unit it has been given. It owns the sets it fills: the
 * input's, the sources', and an open span's; the caller never touches a
 * set but through the one claims judge by (ground_unit_judged()).
 * A unit goes open -> bytes, matches and lines -> close, one at a time.
 */
#ifndef HALLUSCAN_GROUND_UNIT_H
#define HALLUSCAN_GROUND_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/window.h"
#include "ground/attrs.h"
#include "ground/ground.h"
#include "ground/refs.h"

struct ground_unit;

/*
 * refs: the reference rules (NULL: none); codes: a rule checks codes
 * (GROUNDING_CODE), so values are read for them. Returns 0 or -ENOMEM.
 */
int ground_unit_new(const struct window *win, const struct attrs *attrs, const struct refs *refs,
		    bool codes, struct ground_unit **out);
void ground_unit_free(struct ground_unit *u);
/* The reference rules from now on (a --bib's, where the db had none). */
void ground_unit_refs(struct ground_unit *u, const struct refs *refs);

/*
 * The set claims judge the input by, the unit's (valid until it is freed):
 * the input's, or, until the input first writes to it, the sources' set
 * itself (the same items, read in place). It changes only at
 * ground_unit_input() and ground_unit_close_span(): the caller asks again
 * after those.
 */
const struct ground *ground_unit_judged(const struct ground_unit *u);
/*
 * A new input starts: no unit is open, and its set is empty, or, where
 * sources were given, what they hold: made from them when a span of the
 * input closes (ground_unit_close_span()), read in place until then.
 */
void ground_unit_input(struct ground_unit *u);

/*
 * A tool span's content starts at offset at. Until it closes, its bytes
 * are read from the window (catch_up) into a set of its own, and its
 * matches and lines decided early (ground_unit_match(), _line_end()) into
 * another: neither grounds the input yet, for the span may be left open.
 */
int ground_unit_open_span(struct ground_unit *u, uint64_t at);
/*
 * The unit's bytes up to offset to, read from the window (a span's, fed as
 * they are about to leave it). On an error the unit reads no more.
 */
int ground_unit_catch_up(struct ground_unit *u, uint64_t to);
/*
 * The span closes at offset to: its bytes up to there, what its reader
 * still held, the lists it was in the middle of; then its set and what
 * was decided early go into the input's, in that order (the input's made
 * from the sources' first where they were read in place, so that
 * ground_unit_judged() changes). Its matches and lines not yet given go
 * into the input's set directly, until
 * ground_unit_span_done() makes the input's set active (number checks
 * apply).
 */
int ground_unit_close_span(struct ground_unit *u, uint64_t to);
void ground_unit_span_done(struct ground_unit *u);

/*
 * A source (--source, halluscan_scanner_add_grounding()) starts at offset
 * 0: a new text in the sources' set, which seeds each input's from now on.
 * Its bytes are fed (ground_unit_feed()), not read from the window.
 */
int ground_unit_open_source(struct ground_unit *u);
int ground_unit_feed(struct ground_unit *u, const char *p, size_t n);
/*
 * The source ends at offset to, and its last line with it; a run of lines
 * alike that ends it is counted as a list, as at a span's end.
 */
int ground_unit_close_source(struct ground_unit *u, uint64_t to);
/* The source just closed says again what one of the turn's said: its group items are taken back. */
void ground_unit_unsay(struct ground_unit *u);
/* A turn begins (ground_turn() of the sources'). */
void ground_unit_turn(struct ground_unit *u);
/* No more sources: inputs start empty again (the set is kept, emptied). */
void ground_unit_clear_sources(struct ground_unit *u);

/*
 * A rule's match at [from, to) in the open unit, grounded as kind says (a
 * reference: the entries of its line), and a line of it that ends at at
 * (a line break, or the closer), read for references where it holds a
 * reference form (refs_line_cue()). Both read only the unit's bytes, never
 * the model's text beside a span, into the set the unit's state says
 * (above); between units they do nothing.
 */
int ground_unit_match(struct ground_unit *u, enum grounding kind, uint64_t from, uint64_t to);
int ground_unit_line_end(struct ground_unit *u, uint64_t at);

/* The unit is dropped unread (an input ended with its span open). */
void ground_unit_stop(struct ground_unit *u);
/* The quantities the last unit put in its set: what it grounded besides matches. */
uint64_t ground_unit_quantities(const struct ground_unit *u);
/* Items the input's set evicted (0 while the sources' set is read in place, as for a copy). */
uint64_t ground_unit_evictions(const struct ground_unit *u);

#endif
