/* SPDX-License-Identifier: MIT */
/*
 * What refs.c, refs_ids.c, refs_match.c share and nothing else includes: the types and macros
 * more than one of them uses, the small helpers they share (inline), and the functions and
 * tables one of them defines for another. Written by scripts/split.py; not an interface,
 * except to the built-in lists that mkdb writes as C data (refs_write_c(), issue 35).
 */
#ifndef HALLUSCAN_GROUND_REFS_INT_H
#define HALLUSCAN_GROUND_REFS_INT_H

#include "common/url.h"
#include "refs.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A list of words from the packs, lowercased, with their lengths (this
 * is asked of every word of every candidate line); absent: empty. */
struct words {
	const uint32_t *off; /* each word's place in block: word i is block + off[i] */
	const size_t *len;
	size_t n;
	size_t at[34]; /* sorted by length: the words of length k are [at[k], at[k + 1]) */
	/* The first bytes of the words of length k, word_first_bit() of each:
	 * most words of a title start with no stop word's letter. */
	uint32_t first[34];
	const char *block;   /* the words' bytes, each lower-cased with its NUL */
};

/* Offsets, not pointers: the built-in lists are constant data that the
 * loader need not relocate (refs_write_c()). */
static inline const char *words_at(const struct words *l, size_t i)
{
	return l->block + l->off[i];
}

struct refs {
	struct words stop, particles, headings, not_titles, hosts, fields;
	/* The arXiv eras: new-style ids start at first (YYMM); their number
	 * has 5 digits from width5 on, 4 before; old-style ids (archive/YYMMNNN)
	 * run from old_first to old_last. */
	unsigned first, width5, old_first, old_last;
};

/* Fills the ids of the entry's text [b, e) and their problems. */
/* Which ids [b, e) may hold, in one pass: most lines hold none, and each finder is a pass. */
enum { MAY_DOI = 1, MAY_ARXIV = 2, MAY_ISBN = 4, MAY_URL = 8 };

size_t find_ci(const char *s, size_t from, size_t end, const char *lit);
unsigned find_year(const char *s, size_t b, size_t e, const struct ref_span *skip,
			  size_t n_skip, size_t *at, size_t *paren);
bool record_value(const char *s, size_t b, size_t e);
int title_shaped(const struct refs *r, const char *s, size_t b, size_t e, bool quoted);
bool skip_marker(const char *s, size_t *b, size_t e);
unsigned may_hold(const char *s, size_t b, size_t e);
void find_ids(const struct refs *r, const char *s, size_t b, size_t e, unsigned today,
		     unsigned may, struct ref_entry *en);
size_t prose_ids(const struct refs *r, const char *s, size_t n, unsigned today,
			struct ref_entry *out, size_t max);

/* ---- characters ---- */

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static inline bool is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static inline bool is_alpha(char c)
{
	return is_upper(c) || is_lower(c) || (unsigned char)c >= 0x80;
}

static inline bool is_alnum(char c)
{
	return is_alpha(c) || is_digit(c);
}

static inline bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static inline char lower(char c)
{
	return is_upper(c) ? (char)(c - 'A' + 'a') : c;
}

/* True when s[at..] starts with lit, ignoring ASCII case, before end. */
static inline bool at_ci(const char *s, size_t at, size_t end, const char *lit)
{
	size_t k = strlen(lit);

	return end >= at + k && strncasecmp(s + at, lit, k) == 0;
}

#if defined(__SSE2__)
/*
 * Of the 16 offsets from s + i, a bit for each where a, b start with bit
 * 0x20 set on both sides: every place the pair starts in either case, and
 * some others (the caller confirms). Reads s[i, i + 17).
 */
static inline unsigned pair_bits(const char *s, size_t i, char a, char b)
{
	const __m128i low = _mm_set1_epi8(0x20);
	__m128i v0 = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + i)), low);
	__m128i v1 = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + i + 1)), low);

	return (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(v0, _mm_set1_epi8((char)(a | 0x20))),
							 _mm_cmpeq_epi8(v1, _mm_set1_epi8((char)(b | 0x20)))));
}
#endif

/*
 * The first offset p in [i, e - 1) where s[p], s[p + 1] may be a, b (as
 * pair_bits: a superset, for the caller to confirm), or e. Lines are read
 * whole for several words and ids, 16 bytes at a time.
 */
static inline size_t next_pair(const char *s, size_t i, size_t e, char a, char b)
{
#if defined(__SSE2__)
	for (; i + 17 <= e; i += 16) {
		unsigned m = pair_bits(s, i, a, b);

		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	for (; i + 1 < e; i++)
		if ((s[i] | 0x20) == (a | 0x20) && (s[i + 1] | 0x20) == (b | 0x20))
			return i;
	return e;
}

/* A first byte's bit in words.first: a-z one each, any other byte bit 31. */
static inline uint32_t word_first_bit(char c)
{
	unsigned k = (unsigned char)c - 'a';

	return k < 26 ? 1u << k : 1u << 31;
}

static inline bool in_words(const struct words *l, const char *w, size_t n)
{
	char low[32];
	size_t i;

	if (n == 0 || n > sizeof(low) || l->n == 0 || l->at[n] == l->at[n + 1])
		return false;
	for (i = 0; i < n; i++)
		low[i] = lower(w[i]);
	for (i = l->at[n]; i < l->at[n + 1]; i++) {
		const char *x = words_at(l, i);

		if (x[0] == low[0] && memcmp(x, low, n) == 0)
			return true;
	}
	return false;
}

/* Trims blanks and the marks in set from both ends of [*b, *e). */
static inline void trim(const char *s, size_t *b, size_t *e, const char *set)
{
	while (*b < *e && (is_space(s[*b]) || strchr(set, s[*b])))
		(*b)++;
	while (*e > *b && (is_space(s[*e - 1]) || strchr(set, s[*e - 1])))
		(*e)--;
}

static inline struct ref_span span(size_t from, size_t to)
{
	return (struct ref_span){(uint32_t)from, (uint32_t)(to - from)};
}

/* A year 1450-2099 at i, not part of a longer number. */
static inline unsigned year_at(const char *s, size_t i, size_t b, size_t e)
{
	unsigned y;

	if (i + 4 > e || (i > b && (is_digit(s[i - 1]) || s[i - 1] == '.' || s[i - 1] == '/')) ||
	    (i + 4 < e && (is_digit(s[i + 4]) || (s[i + 4] == '.' && i + 5 < e && is_digit(s[i + 5])))))
		return 0;
	if (!is_digit(s[i]) || !is_digit(s[i + 1]) || !is_digit(s[i + 2]) || !is_digit(s[i + 3]))
		return 0;
	y = (unsigned)((s[i] - '0') * 1000 + (s[i + 1] - '0') * 100 + (s[i + 2] - '0') * 10 + s[i + 3] - '0');
	return y >= 1450 && y <= 2099 ? y : 0;
}

/*
 * Whether the list item [b, e) is a title, as title_shaped() says, unless
 * it states a record's values (an itinerary, an order line, a passenger),
 * asked only of what has a title's shape: most items have none.
 */
static inline int title_item(const struct refs *r, const char *s, size_t b, size_t e, bool quoted)
{
	int kind;

	trim(s, &b, &e, "*_");
	if (e - b < 4 || e - b > 300 || s[e - 1] == ':')
		return 0;
	kind = title_shaped(r, s, b, e, quoted);
	return kind && record_value(s, b, e) ? 0 : kind;
}

#endif
