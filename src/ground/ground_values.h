/* SPDX-License-Identifier: MIT */
/*
 * The values of a unit of tool text (ground_unit.h): the record reader
 * (record.h) finds them, and each is read for what it grounds (the number
 * lexer's quantities with their keys' words, list lengths, dash lines,
 * numbered labels, codes, phone numbers, dates, bare hosts), put in the
 * set the unit opened on, in the order the text says them.
 *
 * ground_values_new() returns a reader freed with ground_values_free(); it
 * keeps the window and attrs pointers, which must outlive it, and reads the
 * window only for bytes of the unit it was given. It owns no set.
 */
#ifndef HALLUSCAN_GROUND_VALUES_H
#define HALLUSCAN_GROUND_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/window.h"
#include "ground/attrs.h"
#include "ground/ground.h"

struct ground_values;

/* codes: values are read for codes too (a rule checks them). Returns 0 or -ENOMEM. */
int ground_values_new(const struct window *win, const struct attrs *attrs, bool codes,
		      struct ground_values **out);
void ground_values_free(struct ground_values *r);
/* A unit's text starts at offset at, read into g; its quantities are counted afresh. */
void ground_values_open(struct ground_values *r, struct ground *g, uint64_t at);
/* Its next bytes, given (a source's). */
int ground_values_feed(struct ground_values *r, const char *p, size_t n);
/* Its bytes up to offset to, read from the window (a span's). On an error it reads no more. */
int ground_values_catch_up(struct ground_values *r, uint64_t to);
/*
 * The text ends at offset to: what the reader still held, and the lists it
 * was in the middle of, a run of lines alike among them (a source's as a
 * span's: the same text grounds the same counts either way).
 */
int ground_values_close(struct ground_values *r, uint64_t to);
/* The text is dropped unread. */
void ground_values_stop(struct ground_values *r);
/* The quantities put in the set since it opened. */
uint64_t ground_values_quantities(const struct ground_values *r);

#endif
