// SPDX-License-Identifier: MIT
/*
 * A unit of tool text (a tool span's content, a source) read into the grounded sets this
 * file owns: the scan's one interface to grounding (ground_unit.h). Its values are
 * ground_values.c's; its matches and reference lines are keyed here.
 */
#include "ground_unit.h"
#include "ground_values.h"

#include "common/window.h"
#include "ground/ground.h"
#include "ground/refs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What a unit is, and so where its matches and lines go (target()). */
enum unit_kind {
	UNIT_NONE,
	UNIT_SPAN,   /* a span open: its events decided early go to held */
	UNIT_CLOSED, /* the span closed: the rest of its events go to input */
	UNIT_SOURCE, /* a source: all of it goes to sources */
};

struct ground_unit {
	/*
	 * The sets, all owned here: the input's, which claims judge against;
	 * the sources', which seeds each input's (made at the first source);
	 * an open span's own, merged into the input's when it closes; and
	 * what the span's events decided early (while it was open) ground,
	 * merged after it, in the order they have when none is decided early,
	 * so that the input's order (and what it evicts) does not hang on
	 * where the reads cut the input. The last two are made when first needed.
	 */
	struct ground *input, *sources, *span, *held;
	bool have_sources; /* sources holds some: kept allocated when cleared */
	bool stale;        /* input is to be made from sources before it is written */
	enum unit_kind kind;
	uint64_t line_at;  /* where the unit's current line starts (ground_unit_line_end()) */
	const struct window *win;   /* the input's recent bytes: the unit's are read there */
	struct buf key;
	/* Bibliography entries in the unit (NULL: no reference rules, no
	 * --bib), and the line last read for them, not to read it twice. */
	const struct refs *refs;
	uint64_t ref_line_start;
	struct ground *ref_ground;
	/* The unit's bytes: [lo, hi), hi UINT64_MAX until it closes. What a
	 * line or a match is read for never reaches past them. */
	uint64_t lo, hi;
	struct ground_values *values; /* its values, read into the set it opened on */
};

/* Whether p[0, n) holds an escaped line break, "\\n" (memchr finds the backslashes). */
static bool escaped_break(const char *p, size_t n)
{
	const char *q = p;

	while ((q = memchr(q, '\\', n - (size_t)(q - p))) && q + 1 < p + n) {
		if (q[1] == 'n')
			return true;
		q += 2;
	}
	return false;
}

/*
 * The line [start, end) of tool output or a source, read as if in a list of
 * references: its entries ground their titles, DOIs and arXiv ids, and its
 * parts their titles (refs_segment_key_next()). At most REFS_LINE_MAX bytes are
 * read, and never outside the unit (lo, hi): the model's text beside a span
 * on its line grounds nothing. With cued, the line is read only when it
 * holds a form the triggers leave to refs_line_cue() ("[1] ", ". 2015.",
 * '," ' and the like). (Inlined: it runs at every line end of a tool's
 * output, which most leave at once.)
 */
static inline __attribute__((always_inline)) int read_line(struct ground_unit *u, struct ground *g,
							    uint64_t start, uint64_t end, bool cued)
{
	struct ref_entry out[REFS_PER_LINE];
	struct refs_segments parts = {0};
	const char *p;
	size_t n, i, k;
	int rc;

	start = MAX(start, u->lo);
	end = MIN(end, u->hi);
	/* (a line begun before the window holds is far longer than an entry) */
	if (end <= start || start < u->win->base || (start == u->ref_line_start && u->ref_ground == g))
		return 0;
	p = window_get(u->win, start, MIN(end, start + REFS_LINE_MAX), &n);
	/* A serialized string's escaped line breaks ("\\n") part it as lines of their own would. */
	if (n == 0 || (cued && !refs_line_cue(p, n) && !escaped_break(p, n)))
		return 0;
	u->ref_line_start = start;
	u->ref_ground = g;
	k = refs_parse(u->refs, p, n, refs_today(), out, ARRAY_SIZE(out));
	for (i = 0; i < k; i++) {
		unsigned at = 0;

		while ((rc = refs_key_next(u->refs, &out[i], p + out[i].from, &at, &u->key)) > 0)
			if ((rc = ground_add(g, u->key.data, u->key.len, start)) < 0)
				return rc;
		if (rc < 0)
			return rc;
	}
	while ((rc = refs_segment_key_next(u->refs, p, n, &parts, &u->key)) > 0)
		if ((rc = ground_add(g, u->key.data, u->key.len, start)) < 0)
			return rc;
	return rc;
}

/* A reference trigger at from in tool output or a source: its line is read. */
static int read_reference(struct ground_unit *u, struct ground *g, uint64_t from)
{
	uint64_t lo = from > REFS_LINE_MAX ? from - REFS_LINE_MAX : 0, start;
	const char *p, *nl;
	size_t n, i;

	p = window_get(u->win, lo, from, &n);
	for (i = n; i > 0 && p[i - 1] != '\n'; i--)
		;
	start = from - (n - i);
	p = window_get(u->win, start, start + REFS_LINE_MAX, &n);
	nl = memchr(p, '\n', n);
	return read_line(u, g, start, nl ? start + (uint64_t)(nl - p) : start + n, false);
}

/*
 * The set a match or line of the unit goes into: held (made now if need
 * be) while its span is open, input once it closed, sources for a source;
 * NULL between units.
 */
static int target(struct ground_unit *u, struct ground **g)
{
	int err = 0;

	switch (u->kind) {
	case UNIT_SPAN:
		if (!u->held)
			err = ground_new(&u->held);
		*g = u->held;
		break;
	case UNIT_CLOSED:
		/* (close_span made the input's own: own_input()) */
		*g = u->input;
		break;
	case UNIT_SOURCE:
		*g = u->sources;
		break;
	default:
		*g = NULL;
	}
	return err;
}

int ground_unit_match(struct ground_unit *u, enum grounding kind, uint64_t from, uint64_t to)
{
	struct ground *g;
	const char *text;
	size_t n;
	int err;

	if (kind == GROUNDING_NONE)
		return 0;
	if ((err = target(u, &g)) < 0 || !g)
		return err;
	if (kind == GROUNDING_REFERENCE)
		return u->refs ? read_reference(u, g, from) : 0;
	text = window_get(u->win, from, MIN(to, from + GROUND_KEY_MAX), &n);
	if (ground_key(kind, text, n, &u->key) < 0)
		return -ENOMEM;
	return ground_add(g, u->key.data, u->key.len, from);
}

int ground_unit_line_end(struct ground_unit *u, uint64_t at)
{
	uint64_t start = u->line_at;
	struct ground *g;
	int err;

	u->line_at = at + 1;
	if (!u->refs)
		return 0;
	if ((err = target(u, &g)) < 0 || !g)
		return err;
	return read_line(u, g, start, at, true);
}

void ground_unit_refs(struct ground_unit *u, const struct refs *refs)
{
	u->refs = refs;
}

int ground_unit_new(const struct window *win, const struct attrs *attrs, const struct refs *refs,
		    bool codes, struct ground_unit **out)
{
	struct ground_unit *u = calloc(1, sizeof(*u));
	int err;

	if (!u)
		return -ENOMEM;
	u->win = win;
	u->refs = refs;
	u->hi = UINT64_MAX;
	u->ref_line_start = UINT64_MAX;
	err = ground_new(&u->input);
	if (err == 0)
		err = ground_values_new(win, attrs, codes, &u->values);
	if (err < 0) {
		ground_unit_free(u);
		return err;
	}
	*out = u;
	return 0;
}

void ground_unit_free(struct ground_unit *u)
{
	if (!u)
		return;
	ground_values_free(u->values);
	ground_free(u->input);
	ground_free(u->sources);
	ground_free(u->span);
	ground_free(u->held);
	buf_free(&u->key);
	free(u);
}

/* A unit starts at offset at: read into g (its quantities counted afresh). */
static void unit_open(struct ground_unit *u, struct ground *g, uint64_t at)
{
	ground_values_open(u->values, g, at);
	u->lo = u->line_at = at;
	u->hi = UINT64_MAX;
	u->ref_line_start = UINT64_MAX;
	u->ref_ground = NULL;
}

int ground_unit_feed(struct ground_unit *u, const char *p, size_t n)
{
	return ground_values_feed(u->values, p, n);
}

int ground_unit_catch_up(struct ground_unit *u, uint64_t to)
{
	return ground_values_catch_up(u->values, to);
}

/*
 * The unit's reading ends at offset to, a source's as a span's: the lists
 * it was in the middle of are counted, a run of lines alike among them.
 */
static int unit_close(struct ground_unit *u, uint64_t to)
{
	u->hi = to;
	return ground_values_close(u->values, to);
}

void ground_unit_stop(struct ground_unit *u)
{
	u->kind = UNIT_NONE;
	ground_values_stop(u->values);
	u->lo = 0;
	u->hi = UINT64_MAX;
	u->ref_line_start = UINT64_MAX;
	u->ref_ground = NULL;
}

uint64_t ground_unit_quantities(const struct ground_unit *u)
{
	return ground_values_quantities(u->values);
}

const struct ground *ground_unit_judged(const struct ground_unit *u)
{
	return u->stale ? u->sources : u->input;
}

void ground_unit_input(struct ground_unit *u)
{
	if (ground_changed(u->span))
		ground_reset(u->span);
	if (ground_changed(u->held))
		ground_reset(u->held);
	ground_unit_stop(u);
	/* Sources ground the whole input: number checks run from its start,
	 * against the sources' set itself until the input first writes to its
	 * own (own_input()): most inputs have no span, and a copy per input
	 * cost a reply checked with its own tool answer 9% more. */
	u->stale = u->have_sources;
	if (!u->have_sources)
		ground_reset(u->input);
}

/*
 * The input's set made from the sources' as they are, before the input
 * first writes to it: every write to it follows a span's close, which
 * calls this (its merges, its events after the close: target(), and
 * ground_unit_span_done()'s activation). The sources do not change during
 * an input (a source is fed between inputs, and its end starts the next),
 * so claims judged by the sources' own until now saw the same items in the
 * same order; a run of inputs between two sources syncs only what they
 * gained (ground_sync()).
 */
static int own_input(struct ground_unit *u)
{
	if (!u->stale)
		return 0;
	u->stale = false;
	return MIN(ground_sync(u->input, u->sources), 0);
}

int ground_unit_open_span(struct ground_unit *u, uint64_t at)
{
	int err = u->span ? 0 : ground_new(&u->span);

	if (err)
		return err;
	u->kind = UNIT_SPAN;
	unit_open(u, u->span, at);
	return 0;
}

int ground_unit_close_span(struct ground_unit *u, uint64_t to)
{
	int err = unit_close(u, to), e = own_input(u);

	err = err ? err : e;

	/* What it said grounds the rest of the input, in the order it was said. */
	if (!err && ground_changed(u->span)) {
		err = ground_merge(u->input, u->span);
		ground_reset(u->span);
	}
	if (!err && ground_changed(u->held)) {
		err = ground_merge(u->input, u->held);
		ground_reset(u->held);
	}
	u->kind = UNIT_CLOSED;
	return err;
}

void ground_unit_span_done(struct ground_unit *u)
{
	u->kind = UNIT_NONE;
	ground_activate(u->input);
}

int ground_unit_open_source(struct ground_unit *u)
{
	int err = u->sources ? 0 : ground_new(&u->sources);

	if (err < 0)
		return err;
	ground_activate(u->sources);
	ground_begin_text(u->sources);
	u->have_sources = true;
	u->kind = UNIT_SOURCE;
	unit_open(u, u->sources, 0);
	return 0;
}

int ground_unit_close_source(struct ground_unit *u, uint64_t to)
{
	int err = unit_close(u, to);

	/* The last line, when no line break ends it. */
	return err ? err : ground_unit_line_end(u, to);
}

void ground_unit_unsay(struct ground_unit *u)
{
	ground_groups_unsay(u->sources);
}

void ground_unit_turn(struct ground_unit *u)
{
	if (u->sources)
		ground_turn(u->sources);
}

void ground_unit_clear_sources(struct ground_unit *u)
{
	/* Kept for the next sources: a caller that sets them per message
	 * would otherwise allocate and fault in a megabyte each time. */
	if (u->sources)
		ground_reset(u->sources);
	u->have_sources = false;
}

uint64_t ground_unit_evictions(const struct ground_unit *u)
{
	/* (read in place, the sources' set evicted nothing in this input, as a copy would not) */
	return u->stale ? 0 : ground_evictions(u->input);
}
