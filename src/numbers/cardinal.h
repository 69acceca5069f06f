/* SPDX-License-Identifier: MIT */
/*
 * A cardinal in words for the stages after the lexer that count in words
 * ("in three days", "two meals"): read from the lexer's vocabulary
 * ([cardinal] of words/numbers.txt), so a word added there counts here too.
 */
#ifndef HALLUSCAN_CARDINAL_H
#define HALLUSCAN_CARDINAL_H

#include <stddef.h>
#include <stdint.h>

#include "numbers/vocab.h"
#include "wordlists.h"

/*
 * The value of w[0, len), in any case, when it is a cardinal of lo to hi
 * (lo >= 1); else 0. The trigger filter first: every cardinal is in it,
 * and one test of it turns most words away before the search.
 */
static inline int cardinal_word(const char *w, size_t len, int lo, int hi)
{
	const struct vword *v;
	uint32_t h;

	if (len < TRIG_MIN || len > TRIG_MAX)
		return 0;
	h = TRIG_HASH(TRIG_KEY(w[0], w[1], w[2]), len);
	if (!(vocab_triggers[h / 64] >> (h % 64) & 1))
		return 0;
	v = vocab_find(w, len);
	if (!v || !(v->roles & R_CARD) || v->num < lo || v->num > hi)
		return 0;
	return (int)v->num;
}

#endif
