// SPDX-License-Identifier: MIT
/*
 * The number lexer's pass: a text read 64 bytes at a time for the words and digits that may
 * start an item, each read where it starts, the items handed on in batches.
 */
#include "numlex.h"
#include "numlex_int.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/fmath.h"
#include "common/util.h"
#include "lex.h"
#include "vocab.h"
#include "wordlists.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <immintrin.h>
#include <sys/platform/x86.h> /* glibc 2.33 and later */
#define NUMLEX_AVX2 1
#endif
#endif

/* ---- bytes ---- */

/* What the main loop stops at: letters, digits, and "_" or "@" (skipped). */
enum { C_OTHER, C_DIGIT, C_ALPHA, C_SKIP };

#define ROW16(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
static const unsigned char byte_class[256] = {
	ROW16(C_OTHER), ROW16(C_OTHER), ROW16(C_OTHER),                         /* 00-2f */
	C_DIGIT, C_DIGIT, C_DIGIT, C_DIGIT, C_DIGIT, C_DIGIT, C_DIGIT, C_DIGIT, /* 0-7 */
	C_DIGIT, C_DIGIT, C_OTHER, C_OTHER, C_OTHER, C_OTHER, C_OTHER, C_OTHER, /* 8-? */
	C_SKIP, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA,  /* @-G */
	ROW16(C_ALPHA),                                                         /* H-W */
	C_ALPHA, C_ALPHA, C_ALPHA, C_OTHER, C_OTHER, C_OTHER, C_OTHER, C_SKIP,  /* X-_ */
	C_OTHER, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, C_ALPHA, /* `-g */
	ROW16(C_ALPHA),                                                         /* h-w */
	C_ALPHA, C_ALPHA, C_ALPHA, C_OTHER, C_OTHER, C_OTHER, C_OTHER, C_OTHER, /* x-7f */
	ROW16(C_OTHER), ROW16(C_OTHER), ROW16(C_OTHER), ROW16(C_OTHER),         /* 80-bf */
	ROW16(C_OTHER), ROW16(C_OTHER), ROW16(C_OTHER), ROW16(C_OTHER),         /* c0-ff */
};

static const char *masks_check(void);

const char *numlex_self_check(void)
{
	const char *bad = masks_check();

	if (bad)
		return bad;
	bad = lex_phrases_check();
	return bad ? bad : vocab_check();
}

/* ---- the scan ---- */

static bool is_url_byte(int c)
{
	return c > ' ' && c != '"' && c != '\'' && c != '<' && c != '>' && c != '`' && c != 0x7f;
}

/* From i on, a URL's bytes: up to a blank, a quote or an angle bracket. Not windowed. */
static size_t url_end(struct numlex_state *lx, size_t i)
{
	size_t s = i;

	while (i < lx->n && is_url_byte((unsigned char)lx->t[i]))
		i++;
	COUNT(lx, i - s + 1);
	return i;
}

/* An e-mail address whose local part reaches i: the address's end, or 0. */
static size_t email_end(struct numlex_state *lx, size_t i)
{
	int c;

	while ((c = B(lx, i)) == '.' || c == '_' || c == '%' || c == '+' || c == '-' || is_alnum(c))
		i++;
	if (c != '@' || !is_alnum(B(lx, i + 1)))
		return 0;
	for (i++; (c = B(lx, i)) == '.' || c == '-' || is_alnum(c); i++)
		;
	return i;
}

/* The end of a run of letters, digits and "_" from i, not windowed (for skipping). */
static size_t run_end(struct numlex_state *lx, size_t i)
{
	size_t s = i;

	while (i < lx->n && (is_alnum((unsigned char)lx->t[i]) || lx->t[i] == '_'))
		i++;
	COUNT(lx, i - s + 1);
	return i;
}

/*
 * "External_0", "Room_12": a capitalized name, one underscore and a number
 * to its end, as a tool names channels, rooms and slots: an identifier
 * (the name and the digits compared as one, like "TCK-1002"). Lowercase
 * and longer glued runs ("user_42", "test_case_3", "a_1b") are code's
 * names and give nothing. p: the token's start, u: its first underscore,
 * e: its end.
 */
static size_t underscore_name(struct numlex_state *lx, size_t p, size_t u, size_t e)
{
	char unit[QUANTITY_UNIT_MAX];
	struct quantity q;
	double v = 0;
	size_t i;

	if (!is_upper(B(lx, p)) || u - p < 2 || e - u < 2 || e - u > 7)
		return e;
	for (i = p + 1; i < u; i++)
		if (!is_alpha(B(lx, i)))
			return e;
	for (i = u + 1; i < e; i++) {
		if (!is_digit(B(lx, i)))
			return e;
		v = v * 10 + (B(lx, i) - '0');
	}
	if (!lex_name_unit(lx, unit, "ident:", p, u, "#"))
		return e;
	quantity_set(&q, QUANTITY_IDENT, unit, v, 1);
	emit_one(lx, p, e, &q, 0);
	return e;
}

/*
 * A token of letters and digits that starts with a letter: "A320", "H1N1",
 * "COVID19", "Q3", "FY2021", "v2.3.1"; "user_42", "a1b2c3" and other ids give nothing.
 */
static size_t glued(struct numlex_state *lx, size_t p)
{
	struct quantity q;
	struct opnd o;
	char unit[QUANTITY_UNIT_MAX];
	size_t e = run_end(lx, p), i, d, end, n;
	int runs = 0, digits = 0, c;
	bool upper = false;
	double v = 0;

	window(lx, p);
	if ((e >= lx->lim && e < lx->n) || e - p > 24)
		return e;
	c = B(lx, e);
	if ((c == '@' || c == '.' || c == '-' || c == '+' || c == '%') && (end = email_end(lx, e)))
		return end;
	for (i = p; i < e; i++) {
		c = B(lx, i);
		if (c == '_')
			return underscore_name(lx, p, i, e);
		if (i == p || is_digit(c) != is_digit(B(lx, i - 1)))
			runs++;
		upper |= is_upper(c);
		if (is_digit(c)) {
			v = v * 10 + (c - '0');
			digits++;
		}
	}
	d = letters_end(lx, p);
	n = d - p;
	/* "Q3", "Q3 2021" */
	if (n == 1 && lower(B(lx, p)) == 'q' && e == d + 1 && B(lx, d) >= '1' && B(lx, d) <= '4') {
		memset(&o, 0, sizeof(o));
		o.kind = K_QUARTER;
		o.x.v = B(lx, d) - '0';
		o.main_from = p;
		o.main_to = e;
		end = lex_year_after(lx, &o, e, true);
		{
			struct out out;

			out.n = 0;
			lex_operand_items(&o, 0, &out);
			lex_flush(lx, &out, p, end);
		}
		return end;
	}
	/* "FY2021", "FY21" */
	if (n == 2 && lower(B(lx, p)) == 'f' && lower(B(lx, p + 1)) == 'y' && runs == 2 &&
	    (digits == 4 || digits == 2)) {
		quantity_set(&q, QUANTITY_YEAR, "date:year", digits == 2 ? 2000 + v : v, 1);
		emit_one(lx, p, e, &q, 0);
		return e;
	}
	/* "v2", "v2.3.1" */
	if (n == 1 && lower(B(lx, p)) == 'v' && runs == 2) {
		end = lex_version(lx, p, d, NULL, 1);
		return end ? end : e;
	}
	if (!upper || runs > 4 || digits > 6 || !is_alpha(B(lx, p)))
		return e;
	/* "GPT4.5" */
	if (runs == 2 && B(lx, e) == '.' && is_digit(B(lx, e + 1))) {
		struct word w = {p, d, NULL};

		end = lex_version(lx, p, d, &w, 2);
		return end ? end : e;
	}
	/* The letters, "#" for each run of digits: "A320" is a#, "H1N1" h#n#. */
	memcpy(unit, "ident:", 6);
	for (i = p, n = 6; i < e; i++) {
		c = B(lx, i);
		if (is_digit(c) && is_digit(B(lx, i - 1)) && i > p)
			continue;
		if (n + 1 >= sizeof(unit))
			return e;
		unit[n++] = is_digit(c) ? '#' : (char)lower(c);
	}
	unit[n] = '\0';
	quantity_set(&q, QUANTITY_IDENT, unit, v, 1);
	emit_one(lx, p, e, &q, 0);
	return e;
}

/* The duration unit word at i ("hour", "days"): its U_*, *end its end; U_NONE if none. */
static int duration_word_at(struct numlex_state *lx, size_t i, size_t *end)
{
	struct word w;

	if (!word_at(lx, i, &w) || !w.v || w.v->unit == U_NONE ||
	    unit_info[w.v->unit].cls != UC_DURATION)
		return U_NONE;
	*end = w.we;
	return w.v->unit;
}

/*
 * A duration a word implies, at the word [p, e) of R_IMPLIED: "a decade",
 * "the last decade", "a fortnight", "half an hour", "half a day", "a
 * couple of days" (NUMLEX_IMPLIED). Returns its end, or 0 when the word
 * implies nothing here ("half of them", "a happy couple").
 */
static size_t implied(struct numlex_state *lx, size_t p, size_t e, const struct vword *v)
{
	struct quantity q;
	struct word w;
	size_t from = p, end = e, i;
	double n = 1;
	int unit = v->unit;

	if (v->num == 0 && unit == U_NONE) {
		/* "half a(n) <unit>", "a couple of <units>" */
		bool half = e - p == 4;

		i = skip_blanks(lx, e);
		if (!word_at(lx, i, &w))
			return 0;
		if (half ? !(spells(lx, w.ws, w.we, "a") || spells(lx, w.ws, w.we, "an"))
			 : !spells(lx, w.ws, w.we, "of"))
			return 0;
		if (!half) {
			struct word a;

			if (!word_before(lx, p, false, &a) || !spells(lx, a.ws, a.we, "a"))
				return 0;
			from = a.ws;
		}
		unit = duration_word_at(lx, skip_blanks(lx, w.we), &end);
		if (unit == U_NONE)
			return 0;
		n = half ? 0.5 : 2;
	}
	quantity_set(&q, QUANTITY_BASE, unit_info[unit].base, n * unit_info[unit].factor,
		     unit_info[unit].factor);
	/* "half an hour" is 0.5 of its unit, written to a tenth: with no
	 * decimals it would round to 1 hour and state not even itself */
	q.decimals = n == 0.5;
	q.words = true;
	emit_one(lx, from, end, &q, NUMLEX_WORDS | NUMLEX_IMPLIED);
	return end;
}

/* A word at p; returns its end (or the end of what it starts). */
static size_t at_word(struct numlex_state *lx, size_t p)
{
	const char *t = lx->t;
	size_t e = p + 1, len;
	unsigned h;
	const struct vword *v;
	struct word w;

	while (e < lx->n && byte_class[(unsigned char)t[e]] == C_ALPHA)
		e++;
	COUNT(lx, e - p + 1);
	if (e < lx->n && (is_digit((unsigned char)t[e]) || t[e] == '_'))
		return glued(lx, p);
	len = e - p;
	if (len < TRIG_MIN || len > TRIG_MAX)
		return e;
	h = TRIG_HASH(TRIG_KEY(t[p], t[p + 1], t[p + 2]), len);
	if (!(vocab_triggers[h / 64] >> (h % 64) & 1))
		return e;
	v = vocab_find(t + p, len);
	if (!v || !(v->roles & R_TRIGGER))
		return e;
	window(lx, p);
	if (v->roles & R_URL) {
		if ((len == 3 && B(lx, e) == '.') || (B(lx, e) == ':' && B(lx, e + 1) == '/' && B(lx, e + 2) == '/'))
			return url_end(lx, e);
		return e;
	}
	if (is_alnum(B(lx, p - 1)))
		return e;
	/* Every reader after asks for this word's entry first (lookup()):
	 * it is the one just found, not a second vocab_find(). */
	remember(lx, p, e, v);
	if (v->roles & R_IMPLIED) {
		size_t end = implied(lx, p, e, v);

		if (end || !(v->roles & R_CARD))
			return MAX(end, e);
	}
	if (v->roles & R_CLOCK) {
		struct quantity q;

		quantity_set(&q, QUANTITY_TIME, "time:clock", v->num, 60);
		q.words = true;
		emit_one(lx, p, e, &q, NUMLEX_WORDS);
		return e;
	}
	if (word_before(lx, p, false, &w) && (roles(&w) & R_ARTICLE) && w.we - w.ws <= 2) {
		/* "a third": a fraction; "a second": a moment, or another */
		if (!(v->roles & R_CARD))
			return e;
		if (w.we - w.ws == 1 && (v->num >= 100 || v->num == 12)) {
			size_t end = lex_expression(lx, w.ws); /* "a dozen", "a million" */

			return MAX(end, e);
		}
	}
	return lex_expression(lx, p);
}

/* Digits at p (not glued to letters before them); returns where the scan goes on. */
/* Does a degree sign and its scale end at i ("°C", "ºF", "℃")? Read past the window. */
static bool after_degrees(const struct numlex_state *lx, size_t i)
{
	const unsigned char *t = (const unsigned char *)lx->t;

	if (i >= 3 && (t[i - 1] == 'C' || t[i - 1] == 'F') && t[i - 3] == 0xC2 &&
	    (t[i - 2] == 0xB0 || t[i - 2] == 0xBA))
		return true;
	return i >= 3 && t[i - 3] == 0xE2 && t[i - 2] == 0x84 && (t[i - 1] == 0x83 || t[i - 1] == 0x89);
}

static size_t at_digit(struct numlex_state *lx, size_t p)
{
	size_t dend, end;
	int c0, c1;
	struct word w;

	window(lx, p);
	/* What the digits are glued to, read past the window: adjacency, not context. */
	c0 = p > 0 ? (unsigned char)lx->t[p - 1] : -1;
	c1 = p > 1 ? (unsigned char)lx->t[p - 2] : -1;
	for (dend = p; is_digit(B(lx, dend)); dend++)
		;
	if (dend == lx->lim && dend < lx->n)
		return run_end(lx, p); /* a run of digits longer than the window */
	/* Part of a path, an anchor, an address, a key or a glued run; not
	 * a temperature's other scale ("180°C/350°F"). */
	if ((c0 == '/' && !after_degrees(lx, p - 1)) || c0 == '\\' || c0 == '#' || c0 == '@' ||
	    c0 == '=' || c0 == '&' ||
	    c0 == '^' || c0 == '_' || ((c0 == '.' || c0 == ':') && is_alnum(c1)) ||
	    (c0 == '-' && is_digit(c1)))
		return run_end(lx, p);
	if (dend == p + 1 && (B(lx, dend) == 'x' || B(lx, dend) == 'X') && (end = lex_hex_number(lx, p)))
		return end;
	if ((B(lx, dend) == '@' || B(lx, dend) == '.' || B(lx, dend) == '_' || B(lx, dend) == '+' ||
	     B(lx, dend) == '-') &&
	    (end = email_end(lx, dend)))
		return end;
	if (c0 == '-' && is_alpha(c1))
		return lex_hyphen_name(lx, p);
	c1 = B(lx, dend);
	if (c0 == '[' && (end = lex_bracket_refs(lx, p)))
		return end;
	/* The shapes below start with what each needs after the first digits. */
	if (((c1 == ' ' && is_upper(B(lx, dend + 1))) || (c1 == '-' && is_digit(B(lx, dend + 1)))) &&
	    (end = lex_street(lx, p, dend)))
		return end;
	if ((dend - p == 3 || c0 == '+' || (dend - p == 1 && B(lx, p) == '1' && (c1 == '-' || c1 == '.'))) &&
	    (end = lex_phone(lx, p)))
		return end;
	if (dend - p == 4 && c1 == '-' && (end = lex_iso_date(lx, p)))
		return end;
	if (c1 == '.' && is_digit(B(lx, dend + 1)) && (end = lex_version(lx, p, p, NULL, 3)))
		return end;
	if (c1 == '/' && (end = lex_slashed(lx, p, dend)))
		return end;
	if (word_before(lx, p, false, &w) && w.we == skip_blanks_back(lx, p) && w.we < p) {
		/* (five digits or more name a thing, "item 4410298834": no label) */
		if ((roles(&w) & R_REF) && dend - p < 5)
			return lex_references(lx, w.ws, p);
		if (!(roles(&w) & (R_MONTH | R_CURCODE)) && lex_names_number(lx, &w) &&
		    (end = lex_named_number(lx, &w, p)))
			return end;
	}
	return lex_expression(lx, p);
}

/* ---- the main pass: 64 bytes at a time ---- */

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* The high bit of each byte of x that is nonzero. */
static inline uint64_t swar_nonzero(uint64_t x)
{
	return (((x & ~HIGHS) + ~HIGHS) | x) & HIGHS;
}

/* The high bit of each byte of x, ASCII, in [lo, hi] (hi < 0x7f). */
static inline uint64_t swar_between(uint64_t x, unsigned lo, unsigned hi)
{
	uint64_t t = x & ~HIGHS;

	return (t + ONES * (0x80 - lo)) & ~(t + ONES * (0x7f - hi)) & ~x & HIGHS;
}

/* The 8 high bits of x, gathered into a byte: bit i from byte i. */
static inline uint64_t swar_pack(uint64_t m)
{
	return ((m >> 7) * 0x0102040810204080ull) >> 56;
}

/*
 * Of the 64 bytes at s, bit i: s[i] is an ASCII letter (*L), a digit (*D),
 * "_" or "@" (*S). Only the first chunks * 16 bytes are read: the rest are
 * a padded copy's blanks, which are none of these (a short sentence is
 * one block, mostly padding).
 */
#if defined(__SSE2__)
static void block_masks(const char *s, unsigned chunks, uint64_t *L, uint64_t *D, uint64_t *S)
{
	const __m128i lower = _mm_set1_epi8(0x20), a1 = _mm_set1_epi8('a' - 1),
		      z1 = _mm_set1_epi8('z' + 1), d1 = _mm_set1_epi8('0' - 1),
		      d2 = _mm_set1_epi8('9' + 1), us = _mm_set1_epi8('_'), at = _mm_set1_epi8('@');
	uint64_t l = 0, d = 0, k = 0;
	int i;

	/* Bytes of 0x80 and up are negative: no letter, no digit. */
	for (i = 0; i < (int)chunks; i++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i));
		__m128i y = _mm_or_si128(x, lower);

		l |= (uint64_t)(unsigned)_mm_movemask_epi8(
			     _mm_and_si128(_mm_cmpgt_epi8(y, a1), _mm_cmplt_epi8(y, z1))) << (16 * i);
		d |= (uint64_t)(unsigned)_mm_movemask_epi8(
			     _mm_and_si128(_mm_cmpgt_epi8(x, d1), _mm_cmplt_epi8(x, d2))) << (16 * i);
		k |= (uint64_t)(unsigned)_mm_movemask_epi8(
			     _mm_or_si128(_mm_cmpeq_epi8(x, us), _mm_cmpeq_epi8(x, at))) << (16 * i);
	}
	*L = l;
	*D = d;
	*S = k;
}
#endif

/* The same without SIMD: eight bytes at a time in a 64-bit word. */
static void swar_block_masks(const char *s, unsigned chunks, uint64_t *L, uint64_t *D,
			     uint64_t *S)
{
	uint64_t l = 0, d = 0, k = 0, x;
	int i;

	for (i = 0; i < 2 * (int)chunks; i++) {
		memcpy(&x, s + 8 * i, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		x = __builtin_bswap64(x);
#endif
		l |= swar_pack(swar_between(x | ONES * 0x20, 'a', 'z')) << (8 * i);
		d |= swar_pack(swar_between(x, '0', '9')) << (8 * i);
		k |= swar_pack((~swar_nonzero(x ^ (ONES * '_')) | ~swar_nonzero(x ^ (ONES * '@'))) &
			       HIGHS) << (8 * i);
	}
	*L = l;
	*D = d;
	*S = k;
}

#if !defined(__SSE2__)
#define block_masks swar_block_masks
#endif

#ifdef NUMLEX_AVX2
/*
 * Bit i: the three bytes at s + i may start a trigger word
 * (vocab_prefix_buckets()), read from s[i, i + 3): byte by byte, for the
 * checks.
 */
static uint64_t prefix_bits(const char *s)
{
	uint64_t p = 0;
	unsigned i;

	for (i = 0; i < 64; i++)
		p |= (uint64_t)(vocab_prefix_buckets(vocab_prefix_nibbles, s + i) != 0) << i;
	return p;
}

/*
 * masks_avx2()'s constants, 32 bytes of each. Read through a pointer the
 * compiler cannot see into (avx2_consts(), asked anew by each half), they
 * are operands of the instructions that use them: seen, GCC built each in
 * registers (three instructions apiece) on every block, and kept them
 * there for both halves at the cost of spilling others.
 */
#define AVX2_ROW(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, \
		    x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
enum { K_FOLD, K_LETTER, K_NOT_LETTER, K_DIGIT, K_NOT_DIGIT, K_UNDERSCORE, K_AT, K_LOW4, AVX2_CONSTS };
static const char avx2_k[AVX2_CONSTS][32] __attribute__((aligned(32))) = {
	/* A letter with its 0x20 bit set, plus 128 - 'a', is one of the 26
	 * least bytes, signed; a digit plus 128 - '0' one of the 10 least:
	 * greater than the bound, it is none (bytes of 0x80 and up wrap
	 * past it too). */
	{AVX2_ROW(0x20)}, {AVX2_ROW(128 - 'a')}, {AVX2_ROW(-128 + 25)}, {AVX2_ROW(128 - '0')},
	{AVX2_ROW(-128 + 9)}, {AVX2_ROW('_')}, {AVX2_ROW('@')}, {AVX2_ROW(0x0f)},
};

static inline __attribute__((always_inline)) const __m256i *avx2_consts(void)
{
	const __m256i *k = (const __m256i *)(const void *)avx2_k;

	__asm__("" : "+r"(k));
	return k;
}

/* The buckets of the 32 bytes c (their 0x20 bit set) at one place of a prefix. */
static inline __attribute__((always_inline, target("avx2"))) __m256i
prefix_place(const __m256i *k, __m256i c, __m256i lo, __m256i hi)
{
	return _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(c, k[K_LOW4])),
				_mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(c, 4), k[K_LOW4])));
}

/* The tables of the three places of a prefix, in both lanes. */
struct prefix_tables {
	__m256i lo0, hi0, lo1, hi1, lo2, hi2;
};

/*
 * One half of masks_avx2(): 32-bit masks of the 32 bytes at s, L and D
 * inverted (a bit for each byte that is no letter, no digit).
 */
static inline __attribute__((always_inline, target("avx2"))) void
masks_half(const char *s, const struct prefix_tables *pt, uint32_t *nl, uint32_t *nd, uint32_t *sp,
	   uint32_t *np)
{
	const __m256i *k = avx2_consts();
	__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)s);
	__m256i y = _mm256_or_si256(x, k[K_FOLD]);
	/* (the low nibble is the same with the 0x20 bit set or not) */
	__m256i x1 = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(const void *)(s + 1)), k[K_FOLD]);
	__m256i x2 = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(const void *)(s + 2)), k[K_FOLD]);
	__m256i m = _mm256_and_si256(_mm256_and_si256(prefix_place(k, y, pt->lo0, pt->hi0),
						      prefix_place(k, x1, pt->lo1, pt->hi1)),
				     prefix_place(k, x2, pt->lo2, pt->hi2));

	/* Bytes of 0x80 and up are in no bucket (the tables have nothing
	 * past a high nibble of 7). */
	*nl = (uint32_t)_mm256_movemask_epi8(
		_mm256_cmpgt_epi8(_mm256_add_epi8(y, k[K_LETTER]), k[K_NOT_LETTER]));
	*nd = (uint32_t)_mm256_movemask_epi8(
		_mm256_cmpgt_epi8(_mm256_add_epi8(x, k[K_DIGIT]), k[K_NOT_DIGIT]));
	*sp = (uint32_t)_mm256_movemask_epi8(
		_mm256_or_si256(_mm256_cmpeq_epi8(x, k[K_UNDERSCORE]), _mm256_cmpeq_epi8(x, k[K_AT])));
	*np = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, _mm256_setzero_si256()));
}

/*
 * block_masks() of the 64 bytes at s in AVX2, two loads where SSE2 takes
 * four (one where the second half is a padded copy's blanks: halves 1),
 * and with them *P, prefix_bits(): the nibble tables of the trigger words'
 * prefixes looked up 32 bytes at once (vpshufb), at the bytes from s,
 * s + 1 and s + 2, a place kept where one bucket holds all three (none
 * kept in a half not read). 32 * halves + 2 bytes at s are read.
 */
static inline __attribute__((always_inline, target("avx2"))) void
masks_avx2(const char *s, unsigned halves, uint64_t *L, uint64_t *D, uint64_t *S, uint64_t *P)
{
#define NIBBLES(j, h) \
	_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)vocab_prefix_nibbles[j][h]))
	const struct prefix_tables pt = {
		NIBBLES(0, 0), NIBBLES(0, 1), NIBBLES(1, 0), NIBBLES(1, 1), NIBBLES(2, 0), NIBBLES(2, 1),
	};
#undef NIBBLES
	uint32_t l0, d0, s0, p0, l1 = ~0u, d1 = ~0u, s1 = 0, p1 = ~0u;

	masks_half(s, &pt, &l0, &d0, &s0, &p0);
	if (halves > 1)
		masks_half(s + 32, &pt, &l1, &d1, &s1, &p1);
	*L = ~(l0 | (uint64_t)l1 << 32);
	*D = ~(d0 | (uint64_t)d1 << 32);
	*S = s0 | (uint64_t)s1 << 32;
	*P = ~(p0 | (uint64_t)p1 << 32);
}

/* The same as a function of its own, for masks_check(). */
__attribute__((target("avx2"), noinline)) static void block_masks_avx2(const char *s, unsigned halves,
									uint64_t *L, uint64_t *D,
									uint64_t *S, uint64_t *P)
{
	masks_avx2(s, halves, L, D, S, P);
}
#endif

/* Whether the 64 bytes at s hold a digit: block_masks()'s D alone, for less. */
static inline bool block_has_digit(const char *s, unsigned chunks)
{
#if defined(__SSE2__)
	const __m128i d1 = _mm_set1_epi8('0' - 1), d2 = _mm_set1_epi8('9' + 1);
	__m128i any = _mm_setzero_si128();
	int i;

	for (i = 0; i < (int)chunks; i++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i));

		any = _mm_or_si128(any, _mm_and_si128(_mm_cmpgt_epi8(x, d1), _mm_cmplt_epi8(x, d2)));
	}
	return _mm_movemask_epi8(any) != 0;
#else
	uint64_t x, d = 0;
	int i;

	for (i = 0; i < 2 * (int)chunks; i++) {
		memcpy(&x, s + 8 * i, 8);
		d |= swar_between(x, '0', '9');
	}
	return d != 0;
#endif
}

/* The 16-byte chunks of a block that hold some of rem bytes of text (4: all of it). */
static inline unsigned chunks_of(size_t rem)
{
	return rem >= 64 ? 4 : (unsigned)(rem + 15) / 16;
}

/*
 * The digits of the 64 bytes at b (text[i, i + 64), or fewer at its end:
 * a blank-padded copy) that a letter touches, as bits; the byte before the
 * block is text's own, the one after it too where there is one.
 */
static uint64_t glued_bits(const char *b, const char *t, size_t i, size_t n, uint64_t *D,
			   uint64_t *S)
{
	uint64_t L, g;

	block_masks(b, chunks_of(n - i), &L, D, S);
	g = *D & (L << 1 | L >> 1);
	if ((*D & 1) && i > 0 && byte_class[(unsigned char)t[i - 1]] == C_ALPHA)
		g |= 1;
	if ((*D >> 63) && i + 64 < n && byte_class[(unsigned char)t[i + 64]] == C_ALPHA)
		g |= 1ull << 63;
	return g;
}

size_t numlex_next_glued(const char *t, size_t i, size_t n)
{
	uint64_t g, D, S; /* (glued_bits()'s masks, not needed here) */

	for (; i + 64 <= n; i += 64)
		if ((g = glued_bits(t + i, t, i, n, &D, &S)))
			return i + (size_t)__builtin_ctzll(g);
	/* The tail, blank-padded to a block (a sentence is often all tail). */
	if (i < n) {
		char pad[64];

		memset(pad, ' ', sizeof(pad));
		memcpy(pad, t + i, n - i);
		if ((g = glued_bits(pad, t, i, n, &D, &S)))
			return i + (size_t)__builtin_ctzll(g);
	}
	return n;
}

size_t numlex_next_code_digit(const char *t, size_t i, size_t n)
{
	size_t from = i;

	for (; i < n; i += 64) {
		char pad[64];
		const char *b = t + i;
		uint64_t D, S, g, c;

		if (n - i < 64) {
			/* The tail, blank-padded to a block, as numlex_next_glued(). */
			memset(pad, ' ', sizeof(pad));
			memcpy(pad, t + i, n - i);
			b = pad;
		}
		/* (no digit, nothing below: most blocks of prose) */
		if (!block_has_digit(b, chunks_of(n - i)))
			continue;
		g = glued_bits(b, t, i, n, &D, &S);
		/* and a digit after "_" or "@" (S; the "@"s told apart below, by
		 * the byte), the byte before the block included past the first */
		c = g | (D & S << 1);
		if (i > from && (D & 1) && t[i - 1] == '_')
			c |= 1;
		for (; c; c &= c - 1) {
			unsigned j = (unsigned)__builtin_ctzll(c);

			/* (bit 0 not glued is the byte before's "_", checked above) */
			if ((g >> j & 1) || j == 0 || b[j - 1] == '_')
				return i + j;
		}
	}
	return n;
}

/* Both mask builders against byte_class, for every byte value in every lane. */
static const char *masks_check(void)
{
	char buf[64 + 3]; /* (prefix_bits() and the AVX2 masks read 66 bytes) */
	unsigned b, i, c;

	memset(buf, ' ', sizeof(buf));
	/* (and each count of chunks, the bytes after them a padded copy's blanks) */
	for (b = 0; b < 256; b += 64) {
		for (i = 0; i < 64; i++) {
			for (c = 1; c <= 4; c++) {
				uint64_t l[3], d[3], k[3];
				unsigned j;

				for (j = 0; j < 64; j++)
					buf[j] = j < 16 * c ? (char)(b + (i + j) % 64) : ' ';
				swar_block_masks(buf, 4, &l[0], &d[0], &k[0]);
				swar_block_masks(buf, c, &l[2], &d[2], &k[2]);
				block_masks(buf, c, &l[1], &d[1], &k[1]);
				for (j = 0; j < 64; j++) {
					unsigned cls = byte_class[(unsigned char)buf[j]];

					if ((l[0] >> j & 1) != (cls == C_ALPHA) ||
					    (d[0] >> j & 1) != (cls == C_DIGIT) ||
					    (k[0] >> j & 1) != (cls == C_SKIP))
						return "(the portable byte masks)";
				}
				if (l[0] != l[2] || d[0] != d[2] || k[0] != k[2])
					return "(the portable byte masks, by chunks)";
				if (l[0] != l[1] || d[0] != d[1] || k[0] != k[1])
					return "(the SIMD byte masks)";
				if (block_has_digit(buf, c) != (d[0] != 0))
					return "(the digit test)";
#ifdef NUMLEX_AVX2
				if (CPU_FEATURE_ACTIVE(AVX2)) {
					uint64_t p;

					block_masks_avx2(buf, c > 2 ? 2 : 1, &l[1], &d[1], &k[1], &p);
					if (l[0] != l[1] || d[0] != d[1] || k[0] != k[1])
						return "(the AVX2 byte masks)";
					if (p != (prefix_bits(buf) & (c > 2 ? ~0ull : 0xffffffffull)))
						return "(the AVX2 prefix filter)";
				}
#endif
			}
		}
	}
#ifdef NUMLEX_AVX2
	/* every trigger word in every lane, either case, beside other words */
	if (CPU_FEATURE_ACTIVE(AVX2)) {
		for (b = 0; b < ARRAY_SIZE(vocab_words); b++) {
			const struct vword *v = &vocab_words[b];

			if (!(v->roles & R_TRIGGER))
				continue;
			for (i = 0; i < 64; i++) {
				uint64_t l, d, k, p;

				memset(buf, 'e', sizeof(buf));
				for (c = 0; c < v->len && i + c < sizeof(buf); c++)
					buf[i + c] = (char)(i % 2 ? v->w[c] - 'a' + 'A' : v->w[c]);
				block_masks_avx2(buf, 2, &l, &d, &k, &p);
				if (p != prefix_bits(buf) || (i + 3 <= 64 && !(p >> i & 1)))
					return "(the AVX2 prefix filter, a trigger word)";
			}
		}
	}
#endif
	/* one digit in any lane, among letters and bytes past 0x7f */
	for (i = 0; i <= 64; i++) {
		for (b = 0; b < 64; b++)
			buf[b] = (char)(b % 2 ? 'z' : 0xb9);
		if (i < 64)
			buf[i] = (char)('0' + i % 10);
		if (block_has_digit(buf, 4) != (i < 64))
			return "(the digit test)";
	}
	return NULL;
}

/* One step of the main pass at p, byte by byte: where it goes on. */
static size_t step(struct numlex_state *lx, size_t p)
{
	const char *t = lx->t;
	size_t n = lx->n, s = p;

	switch (byte_class[(unsigned char)t[p]]) {
	case C_ALPHA:
		if (p > 0 && is_alpha((unsigned char)t[p - 1])) {
			/* the rest of a word already passed */
			while (p < n && byte_class[(unsigned char)t[p]] == C_ALPHA)
				p++;
			break;
		}
		return at_word(lx, p);
	case C_DIGIT:
		return at_digit(lx, p);
	case C_SKIP:
		/* the rest of an id, or an e-mail address's domain */
		for (p++; p < n && (is_alnum((unsigned char)t[p]) || t[p] == '_' || t[p] == '.' ||
				    t[p] == '-'); p++)
			;
		break;
	default:
		for (p++; p < n && byte_class[(unsigned char)t[p]] == C_OTHER; p++)
			;
		break;
	}
	COUNT(lx, p - s + 1);
	return p;
}

/* Is the digit at i where a code may be: a letter beside it, or a "_" before it? */
static inline bool code_digit_at(const char *t, size_t i, size_t n)
{
	return byte_class[(unsigned char)t[i]] == C_DIGIT &&
	       ((i > 0 && (byte_class[(unsigned char)t[i - 1]] == C_ALPHA || t[i - 1] == '_')) ||
		(i + 1 < n && byte_class[(unsigned char)t[i + 1]] == C_ALPHA));
}

/* The bytes up to e that no block looked through, a byte at a time (a step's long skip, a short text). */
static void code_gap(struct numlex_state *lx, size_t e)
{
	size_t i;

	for (i = lx->code_to; i < e; i++)
		if (code_digit_at(lx->t, i, lx->n)) {
			lx->code = i;
			break;
		}
	COUNT(lx, i - lx->code_to);
	lx->code_to = i;
}

/*
 * The code digits of the block at p (m of its bytes are text's; b: them,
 * or their padded copy), from the masks the pass made of it anyway: a
 * digit with a letter beside it, or after a "_" (S holds "@"s too: told
 * apart by the byte). The bytes on the block's sides are text's own.
 */
static inline void code_block(struct numlex_state *lx, size_t p, const char *b, size_t m, uint64_t L,
			      uint64_t D, uint64_t S)
{
	const char *t = lx->t;
	uint64_t g, u;

	if (p > lx->code_to) {
		code_gap(lx, p);
		if (lx->code != NUMLEX_NO_CODE)
			return;
	}
	if (D) {
		g = D & (L << 1 | L >> 1);
		if ((D & 1) && p > 0 &&
		    (byte_class[(unsigned char)t[p - 1]] == C_ALPHA || t[p - 1] == '_'))
			g |= 1;
		if ((D >> 63) && p + 64 < lx->n && byte_class[(unsigned char)t[p + 64]] == C_ALPHA)
			g |= 1ull << 63;
		/* (only a "_" before the first glued digit can come first) */
		for (u = D & S << 1 & (g ? (g & -g) - 1 : ~0ull); u; u &= u - 1)
			if (b[__builtin_ctzll(u) - 1] == '_') {
				g |= u & -u;
				break;
			}
		if (g) {
			lx->code = p + (size_t)__builtin_ctzll(g);
			return;
		}
	}
	/* (a block starts past the last one's start: never behind its end) */
	lx->code_to = p + m;
}

_Static_assert(TRIG_MIN >= 3, "block() leaves out words of two letters unasked");

/*
 * Whether the word of len letters at b + s (four bytes readable there) may
 * start an item: the trigger filter, from its first three letters and its
 * length. No branch on the length: short words hash too, and fail it.
 */
static inline bool may_trigger(const char *b, unsigned s, unsigned len)
{
	uint32_t key;
	unsigned h;

	memcpy(&key, b + s, sizeof(key));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	key = __builtin_bswap32(key);
#endif
	h = TRIG_HASH(key & 0x1f1f1f, len);
	return vocab_triggers[h / 64] >> (h % 64) & (len - TRIG_MIN <= TRIG_MAX - TRIG_MIN);
}

/* What block() makes its masks with: block_masks() and P, or the AVX2 build's. */
typedef void masks_fn(const char *t, size_t rem, uint64_t *L, uint64_t *D, uint64_t *S, uint64_t *P);

/* Fewer bytes than this left go a step at a time: block()'s padded copy costs more. */
#define BLOCK_MIN 16

/*
 * 64 bytes at p at once (fewer at the end of the text): the words that start there are tested against the
 * trigger filter from bit masks, with no branch per byte. Returns where the
 * pass goes on: past the block, or at what needs a closer look (a trigger
 * word, a word glued to digits, a word that runs past the block, a digit,
 * "_" or "@"), which step() then takes.
 */
static inline __attribute__((always_inline)) size_t block(struct numlex_state *lx, size_t p,
							   bool *closer, masks_fn *masks)
{
	const char *t = lx->t + p;
	size_t rem = lx->n - p;
	uint64_t L, D, S, W, special, late, P = ~0ull;
	unsigned first;
	bool joined = p > 0 && is_alpha((unsigned char)t[-1]);
	char pad[64 + sizeof(uint32_t)];

	/*
	 * Fewer than 66 bytes left (a short sentence, or the end of one; the
	 * AVX2 masks read two past the block): a copy padded with blanks,
	 * which are no letter, digit or mark and end a word as the end of the
	 * text does. The bytes go in as two or three pieces of a fixed size
	 * that overlap (rem is BLOCK_MIN or more): memcpy() of rem bytes was
	 * a call.
	 */
	if (rem < 64 + 2) {
		memset(pad, ' ', sizeof(pad));
		if (rem >= 32) {
			memcpy(pad, t, 32);
			if (rem > 64)
				memcpy(pad + 32, t + 32, 32);
			memcpy(pad + rem - 32, t + rem - 32, 32);
		} else {
			memcpy(pad, t, 16);
			memcpy(pad + rem - 16, t + rem - 16, 16);
		}
		t = pad;
	}
	masks(t, rem, &L, &D, &S, &P);
	COUNT(lx, rem < 64 ? rem : 64);
	if (lx->code == NUMLEX_NO_CODE)
		code_block(lx, p, t, rem < 64 ? rem : 64, L, D, S);
	special = D | S;
	first = special ? (unsigned)__builtin_ctzll(special) : 64;
	W = L & ~((L << 1) | (uint64_t)joined);
	if (first < 64)
		W &= (1ull << first) - 1;
	*closer = true;
	/*
	 * A word that another follows in W ends inside the block and before
	 * its first special byte (W stops there): it neither runs past the
	 * block nor is glued to digits, and only the filter is asked of it, if
	 * it starts where four bytes can be loaded (s <= 60): so not at all
	 * when it is shorter than any trigger (TRIG_MIN is 3 or more,
	 * tools/words.c sees to it: three letters from its start). The last
	 * word and those too near the end (late) then go in order with every
	 * check.
	 */
	late = W & (~0ull << 61);
	if (W)
		late |= 1ull << (63 - __builtin_clzll(W));
	/*
	 * P (AVX2 only; all ones else) keeps the words whose first three
	 * letters start a trigger word: the filter is asked of those alone.
	 * One it would have let through that is no trigger word went to
	 * at_word(), which looked it up and returned its end: nothing else.
	 * Skipped here, the pass goes on in this block instead of in one from
	 * that end; where blocks start changes nothing (what they leave out
	 * at_word() and step() leave too, and the code digit is the first in
	 * the text however the blocks cover it), as the filter's own
	 * false hits move them already.
	 */
	for (W &= ~late & L >> 1 & L >> 2 & P; W; W &= W - 1) {
		unsigned s = (unsigned)__builtin_ctzll(W);

		if (may_trigger(t, s, (unsigned)__builtin_ctzll(~L >> s)))
			return p + s;
	}
	for (; late; late &= late - 1) {
		unsigned s = (unsigned)__builtin_ctzll(late), e;
		uint64_t rest = ~L >> s;

		if (!rest) {
			/* Runs past the block: the next block starts with it. */
			*closer = s == 0;
			return p + s;
		}
		e = s + (unsigned)__builtin_ctzll(rest);
		if (special >> e & 1)
			return p + s; /* glued to digits or "_": "A320", "user_42" (or an "@") */
		if (s > 60) {
			*closer = false; /* too near the end to load four bytes: */
			return p + s;    /* the next block starts with it */
		}
		if (may_trigger(t, s, e - s))
			return p + s;
	}
	if (first < 64)
		return p + first;
	*closer = false;
	return p + (rem < 64 ? rem : 64);
}

#ifdef NUMLEX_AVX2
static inline __attribute__((always_inline, target("avx2"))) void
block_masks_of_avx2(const char *t, size_t rem, uint64_t *L, uint64_t *D, uint64_t *S, uint64_t *P)
{
	masks_avx2(t, rem <= 32 ? 1 : 2, L, D, S, P);
}

/*
 * block() built for AVX2, its masks inline: as a call of its own, the
 * masks stored and read back, they were a block's dearest part (a
 * function built for AVX2 cannot be inline in one that is not).
 */
static __attribute__((target("avx2"), noinline)) size_t block_avx2(struct numlex_state *lx, size_t p,
								     bool *closer)
{
	return block(lx, p, closer, block_masks_of_avx2);
}
#endif

static inline __attribute__((always_inline)) void block_masks_of(const char *t, size_t rem, uint64_t *L,
								  uint64_t *D, uint64_t *S, uint64_t *P)
{
	block_masks(t, chunks_of(rem), L, D, S);
	*P = ~0ull;
}

/* The code search's end, once the pass has read the whole text. */
static inline void code_end(struct numlex_state *lx, size_t n)
{
	if (lx->code == NUMLEX_NO_CODE) {
		if (lx->code_to < n)
			code_gap(lx, n);
		if (lx->code == NUMLEX_NO_CODE)
			lx->code = n;
	}
}

/*
 * Where a pass stopped with rc set: an error ends the scan; a full array
 * before the text's end is a pause (the pass's state kept); at the end,
 * the scan is done. The call's return.
 */
static __attribute__((noinline)) int stopped(struct numlex *kept, struct numlex_state *lx, size_t p)
{
	if (lx->rc < 0) {
		kept->more = 0;
		return lx->rc;
	}
	if (p < lx->n) {
		lx->p = p;
		lx->rc = 0;
		kept->s = *lx;
		kept->more = 1;
		return (int)lx->count;
	}
	kept->more = kept->held_from < kept->held_to ? 2 : 0;
	code_end(lx, lx->n);
	kept->s.code = lx->code;
	kept->s.examined = lx->examined;
	return (int)lx->count;
}

/* (an opts bit of numlex_resume()'s call: the pass goes on from kept's state) */
#define RESUMED (1u << 31)

int numlex_scan(struct numlex *kept, const char *text, size_t n, unsigned opts,
		struct numlex_item *items, size_t cap)
{
	/*
	 * The pass runs on a copy in this frame, put in kept only at a pause:
	 * with kept's in its place, GCC inlined neither at_word() nor glued()
	 * into the loop (the frame grew past its large-stack-frame-growth)
	 * and spans-1 cost 0.5% more. One loop for a new scan and a resumed
	 * one, for the same reason.
	 */
	struct numlex_state lx;
	size_t p = 0;
	bool closer;
	unsigned k;

	if (!(opts & RESUMED) && n < BLOCK_MIN) {
		/*
		 * A short text where no item can start (no letter, digit, "_"
		 * or "@": a line's end, a fence's "```", a ")"): no item, and
		 * no code (no digit). A quarter of spans-1's texts are a line's
		 * end alone, each a whole scan's setting up.
		 */
		for (k = 0; k < n && byte_class[(unsigned char)text[k]] == C_OTHER; k++)
			;
		if (k == n) {
			kept->more = 0;
			kept->s.code = opts & NUMLEX_CODE ? n : 0;
#ifdef NUMLEX_COUNTED
			kept->s.examined = n;
#endif
			return 0;
		}
	}
	if (!(opts & RESUMED)) {
		/*
		 * Every field but the caches' entries, which are read only
		 * where their key (at, ws1) matches and 0 (word_at()'s:
		 * SIZE_MAX) never does: zeroing all of it was a tenth of a
		 * short sentence's scan.
		 */
		lx.t = text;
		lx.n = n;
		lx.low = lx.lim = lx.span = lx.done = lx.year_end = 0;
		for (k = 0; k < ARRAY_SIZE(lx.wb); k++)
			lx.wb[k].at = 0;
		lx.wb_next = 0;
		for (k = 0; k < ARRAY_SIZE(lx.wa); k++)
			lx.wa[k].at = SIZE_MAX;
		lx.wa_next = 0;
		for (k = 0; k < ARRAY_SIZE(lx.vc); k++)
			lx.vc[k].ws1 = 0;
		lx.vc_next = 0;
		lx.opts = opts;
		lx.examined = 0;
#ifdef NUMLEX_AVX2
		lx.avx2 = cpu_avx2();
#else
		lx.avx2 = false;
#endif
		/* (a code digit at 0 is no search at all) */
		lx.code = opts & NUMLEX_CODE ? NUMLEX_NO_CODE : 0;
		lx.code_to = 0;
		lx.count = 0;
	} else {
		/* (numlex_resume() put the held items in, count of them) */
		lx = kept->s;
		p = lx.p;
		n = lx.n;
		opts = lx.opts;
	}
	lx.items = items;
	lx.cap = cap;
	lx.kept = kept;
	lx.rc = 0;

	/* Every read is counted: a block's 64 bytes, a step's run, each byte a reader looks at. */
	while (p < n && !lx.rc) {
		size_t q;

		if (n - p >= BLOCK_MIN && !(opts & NUMLEX_BYTEWISE)) {
#ifdef NUMLEX_AVX2
			if (lx.avx2)
				p = block_avx2(&lx, p, &closer);
			else
#endif
				p = block(&lx, p, &closer, block_masks_of);
			if (!closer)
				continue;
		}
		/* Every step goes forward, whatever a reader returns. */
		q = step(&lx, p);
		p = q > p ? q : p + 1;
	}
	if (lx.rc)
		return stopped(kept, &lx, p);
	kept->more = 0;
	code_end(&lx, n);
	kept->s.code = lx.code;
#ifdef NUMLEX_COUNTED
	kept->s.examined = lx.examined;
#endif
	return (int)lx.count;
}

int numlex_resume(struct numlex *kept, struct numlex_item *items, size_t cap)
{
	size_t k = 0;

	if (cap == 0)
		return -EINVAL;
	if (!kept->more)
		return 0;
	/* The last step's items that did not fit come first. */
	while (k < cap && kept->held_from < kept->held_to)
		items[k++] = kept->held[kept->held_from++];
	if (kept->held_from < kept->held_to)
		return (int)k;
	if (kept->more == 2)
		kept->more = 0;
	if (!kept->more || k == cap)
		return (int)k;
	kept->s.count = k;
	return numlex_scan(kept, NULL, 0, RESUMED, items, cap);
}

#ifdef NUMLEX_COUNTED
int numlex_scan_counted(struct numlex *lx, const char *text, size_t n, unsigned opts,
			struct numlex_item *items, size_t cap)
{
	return numlex_scan(lx, text, n, opts, items, cap);
}

int numlex_resume_counted(struct numlex *lx, struct numlex_item *items, size_t cap)
{
	return numlex_resume(lx, items, cap);
}
#endif
