/* SPDX-License-Identifier: MIT */
/*
 * Tool-output spans: the state machine driven by delimiter matches, which
 * arrive in order of offset. A span opens at its opener and closes at the
 * first closer of the same pair; other delimiters inside it are data.
 * The caller owns struct spans and zeroes it (spans_reset) per input.
 */
#ifndef HALLUSCAN_SPANS_H
#define HALLUSCAN_SPANS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct spans {
	bool open;
	size_t pair;          /* the open span's delimiter pair */
	uint64_t open_from;   /* where the open span's opener starts */
	uint64_t open_to;     /* where it ends */
	uint64_t closed_to;   /* end of the last closer */
	uint64_t n_spans;     /* spans opened in this input */
};

enum span_change {
	SPAN_SAME,
	SPAN_OPENED,
	SPAN_CLOSED,
};

void spans_reset(struct spans *s);
/* Feeds one delimiter match; says whether it opened or closed a span. */
enum span_change spans_delimiter(struct spans *s, size_t pair, bool opener,
				 uint64_t from, uint64_t to);
/* True when a match starting at from is tool output (spans and their delimiters). */
bool spans_grounded(const struct spans *s, uint64_t from);

#endif
