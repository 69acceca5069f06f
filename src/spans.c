// SPDX-License-Identifier: MIT
/* Tool-output spans across reads: a state machine on delimiter matches. */
#include "spans.h"

#include <string.h>

void spans_reset(struct spans *s)
{
	memset(s, 0, sizeof(*s));
}

enum span_change spans_delimiter(struct spans *s, size_t pair, bool opener,
				 uint64_t from, uint64_t to)
{
	if (!s->open) {
		if (!opener)
			return SPAN_SAME; /* a closer with no span open is text */
		s->open = true;
		s->pair = pair;
		s->open_from = from;
		s->open_to = to;
		s->n_spans++;
		return SPAN_OPENED;
	}
	if (opener || pair != s->pair)
		return SPAN_SAME; /* delimiters inside a span are its data */
	s->open = false;
	s->closed_to = to;
	return SPAN_CLOSED;
}

bool spans_grounded(const struct spans *s, uint64_t from)
{
	/* Matches arrive in order of start, so an open span began before from. */
	return s->open || from < s->closed_to;
}
