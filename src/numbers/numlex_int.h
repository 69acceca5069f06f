/* SPDX-License-Identifier: MIT */
/*
 * What numlex.c, shapes.c share and nothing else includes: the types and macros more than one
 * of them uses, the small helpers they share (inline), and the functions and tables one of
 * them defines for another. Written by scripts/split.py; not an interface.
 */
#ifndef HALLUSCAN_NUMBERS_NUMLEX_INT_H
#define HALLUSCAN_NUMBERS_NUMLEX_INT_H

#include "common/fmath.h"
#include "common/util.h"
#include "lex.h"
#include "numlex.h"
#include "vocab.h"
#include "wordlists.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

size_t lex_hex_number(struct numlex_state *lx, size_t p);
size_t lex_version(struct numlex_state *lx, size_t from, size_t p, const struct word *w, int min_parts);
size_t lex_slashed(struct numlex_state *lx, size_t p, size_t dend);
size_t lex_phone(struct numlex_state *lx, size_t p);
size_t lex_street(struct numlex_state *lx, size_t p, size_t dend);
size_t lex_iso_date(struct numlex_state *lx, size_t p);
size_t lex_bracket_refs(struct numlex_state *lx, size_t p);
size_t lex_references(struct numlex_state *lx, size_t ws, size_t p);
size_t lex_named_number(struct numlex_state *lx, const struct word *w, size_t p);
size_t lex_hyphen_name(struct numlex_state *lx, size_t p);

static inline void emit_one(struct numlex_state *lx, size_t from, size_t to, const struct quantity *q, unsigned flags)
{
	struct out out;

	out.n = 0;
	lex_push(&out, from, to, q, flags);
	lex_flush(lx, &out, from, to);
}

#endif
