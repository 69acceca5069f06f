/* SPDX-License-Identifier: MIT */
/*
 * Grounding a unit of tool text: a tool span's content, or a source, read
 * whole into a grounded set (ground.h). The scan hands it the unit's bytes
 * and is told nothing back but errors: the record reader (record.h), the
 * number lexer's quantities of each value, list lengths, dash lines, codes,
 * phone numbers, dates and bare hosts are this module's to find and to put
 * in the set, in the order the unit says them.
 *
 * ground_unit_new() returns a unit reader freed with ground_unit_free(). It
 * keeps the window pointer (the input's recent bytes, common/window.h) and
 * the attrs pointer, which must outlive it, and reads the window only for
 * bytes of the unit it has been given; it owns none of the sets it fills.
 * A unit goes open -> bytes (feed or catch_up) -> close, one at a time.
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
/* The reference rules from now on (a --bib's, where the db had none). */
void ground_unit_refs(struct ground_unit *u, const struct refs *refs);
void ground_unit_free(struct ground_unit *u);

/*
 * A unit starts at stream offset at (a span's content after its opener, a
 * source at 0): what it says goes into g, until it closes. Forgets any unit
 * left open, and starts counting its quantities afresh.
 */
void ground_unit_open(struct ground_unit *u, struct ground *g, uint64_t at);
/* The unit's next bytes, given here and not read from the window (a source). */
int ground_unit_feed(struct ground_unit *u, const char *p, size_t n);
/*
 * The unit's bytes up to offset to, read from the window (a span's, fed as
 * they are about to leave it). On an error the unit reads no more.
 */
int ground_unit_catch_up(struct ground_unit *u, uint64_t to);
/*
 * The unit ends at offset to: its bytes up to there (catch_up), what its
 * reader still held, and the lists it was in the middle of. With lines
 * false (a source) a run of lines alike that ends it is not counted as a
 * list, as a span's is. Its matches and lines may still be given (below).
 */
int ground_unit_close(struct ground_unit *u, uint64_t to, bool lines);
/*
 * A rule's match at [from, to) in the unit, grounded as kind says (a
 * reference: the entries of its line); the key of its text goes into g.
 */
int ground_unit_match(struct ground_unit *u, struct ground *g, enum grounding kind, uint64_t from,
		      uint64_t to);
/*
 * A line [start, end) of the unit that holds a reference form
 * (refs_line_cue()): its entries' titles, DOIs and ids go into g. Both
 * read only the unit's bytes, never the model's text beside a span.
 */
int ground_unit_line(struct ground_unit *u, struct ground *g, uint64_t start, uint64_t end);
/* The unit is dropped unread (an input ended with its span open, or a reset). */
void ground_unit_stop(struct ground_unit *u);
/* Whether a unit is open and still read. */
bool ground_unit_reading(const struct ground_unit *u);
/* The quantities the unit put in its set since it opened: what it grounded besides matches. */
uint64_t ground_unit_quantities(const struct ground_unit *u);

#endif
