/* SPDX-License-Identifier: MIT */
/*
 * The bounded window of recent input bytes from which matched text and
 * sentences are read: bytes [base, base + len) of the stream. The owner
 * appends; readers ask for a range and get the part still held.
 */
#ifndef HALLUSCAN_WINDOW_H
#define HALLUSCAN_WINDOW_H

#include <stddef.h>
#include <stdint.h>

struct window {
	char *data;
	size_t len, cap;
	uint64_t base;
};

/* Clamps [from, to) to the bytes held; returns a pointer to them and sets *n. */
static inline const char *window_get(const struct window *w, uint64_t from, uint64_t to, size_t *n)
{
	uint64_t end = w->base + w->len;

	if (from < w->base)
		from = w->base;
	if (to > end)
		to = end;
	if (to <= from) {
		*n = 0;
		return w->data ? w->data + (w->len) : "";
	}
	*n = (size_t)(to - from);
	return w->data + (from - w->base);
}

#endif
