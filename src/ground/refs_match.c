// SPDX-License-Identifier: MIT
/*
 * The matcher's side of references: where a list's entry starts, its label, its cue and its
 * parenthesized year, and the keys a title and an entry's fields are matched by. (Split from
 * refs.c by scripts/split.py.)
 */
#include "refs.h"
#include "refs_int.h"

#include "common/url.h"

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

/* A heading or an introduction of a list of references: "References", "## Further reading", "Here are some books:". */
static bool heading(const struct refs *r, const char *s, size_t b, size_t e)
{
	bool colon;
	size_t i;

	trim(s, &b, &e, "#*_");
	colon = e > b && s[e - 1] == ':';
	trim(s, &b, &e, "#*_:");
	if (e <= b || e - b > 200)
		return false;
	if (in_words(&r->headings, s + b, e - b))
		return true;
	if (!colon)
		return false;
	for (i = 0; i < r->headings.n; i++) {
		const char *h = words_at(&r->headings, i);
		size_t k = strlen(h), at = b;

		while ((at = find_ci(s, at, e, h)) < e) {
			if ((at == b || !is_alpha(s[at - 1])) && (at + k == e || !is_alpha(s[at + k])))
				return true;
			at++;
		}
	}
	return false;
}

/* The bytes of a capitalised word after its capital: ASCII letters, ' and -. */
static const unsigned char word_byte[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
	/* 0x80-0xFF: 0 */
};

/* "Word" or "Word-Word": a capital, then up to 20 letters, apostrophes and hyphens; its end, or 0. */
static size_t cap_word(const char *s, size_t i, size_t n)
{
	size_t k;

	size_t lim = MIN(n, i + 22);

	if (i >= n || !is_upper(s[i]))
		return 0;
	for (k = i + 1; k < lim && word_byte[(unsigned char)s[k]]; k++)
		;
	return k;
}

/* "[1] " at s[i]: IEEE's numbering, with up to three digits. */
static bool bracket_number(const char *s, size_t i, size_t n)
{
	size_t d = 0;

	if (i >= n || s[i] != '[')
		return false;
	for (i++; i < n && is_digit(s[i]) && d < 4; i++)
		d++;
	return d >= 1 && d <= 3 && i + 1 < n && s[i] == ']' && (s[i + 1] == ' ' || s[i + 1] == '\t');
}

/* A bullet ("-", "*", "+", "•") at s[i], up to four blanks, and a quote ('"', “). */
static bool bullet_quote(const char *s, size_t i, size_t n)
{
	size_t k = 0;

	if (i < n && (s[i] == '-' || s[i] == '*' || s[i] == '+'))
		i++;
	else if (i + 2 < n && s[i] == (char)0xE2 && s[i + 1] == (char)0x80 && s[i + 2] == (char)0xA2)
		i += 3;
	else
		return false;
	for (; i < n && (s[i] == ' ' || s[i] == '\t') && k < 4; i++)
		k++;
	return k > 0 && i < n &&
	       (s[i] == '"' || (i + 2 < n && s[i] == (char)0xE2 && s[i + 1] == (char)0x80 && s[i + 2] == (char)0x9C));
}

/* After the '.' or ',' at s[i], a closing quote ('"', ”) and a blank: '." ', ',” '. */
static bool quote_closes(const char *s, size_t i, size_t n)
{
	if (i + 2 < n && s[i + 1] == '"')
		return s[i + 2] == ' ' || s[i + 2] == '\t';
	return i + 4 < n && s[i + 1] == (char)0xE2 && s[i + 2] == (char)0x80 && s[i + 3] == (char)0x9D &&
	       (s[i + 4] == ' ' || s[i + 4] == '\t');
}

/* Four digits of a year from 1500 to 2099 at s[i] (the caller knows they are there to read). */
static bool year_digits(const char *s, size_t i)
{
	return ((s[i] == '1' && s[i + 1] >= '5' && s[i + 1] <= '9') || (s[i] == '2' && s[i + 1] == '0')) &&
	       is_digit(s[i + 2]) && is_digit(s[i + 3]);
}

/* Whether one of refs_line_cue()'s forms starts at s[i]. */
static bool cue_at(const char *s, size_t i, size_t n)
{
	switch (s[i]) {
	case '[':
		return bracket_number(s, i, n);
	case '-': case '+': case (char)0xE2:
		return bullet_quote(s, i, n);
	case '*':
		return bullet_quote(s, i, n) ||
		       (i + 2 < n && s[i + 1] == '.' && (s[i + 2] == ' ' || s[i + 2] == '\t'));
	case '(':
		/* "(2019)", "(2019a)", "(2019, May 3)" */
		if (i + 5 < n && year_digits(s, i + 1)) {
			size_t k = i + 5;

			k += is_lower(s[k]) && k + 1 < n;
			return s[k] == ')' || s[k] == ',';
		}
		return false;
	case '.':
		/* ". 2015." and ". 2002;" */
		if (i + 6 < n && (s[i + 1] == ' ' || s[i + 1] == '\t') && year_digits(s, i + 2) &&
		    (s[i + 6] == '.' || s[i + 6] == ';'))
			return true;
		return quote_closes(s, i, n);
	case ',':
		return quote_closes(s, i, n);
	default:
		return false;
	}
}

/*
 * Every line of tool output is asked, so the bytes a form can start with
 * ('[', '-', '+', '*', '.', ',', '(' and the lead byte of "•") are found 16
 * at a time, and only those are looked at.
 */
/* The bytes cue_at() can say yes at: a byte of the line's tail not among them is passed. */
static const unsigned char cue_lead[256] = {
	['['] = 1, ['-'] = 1, ['+'] = 1, ['*'] = 1, ['.'] = 1, [','] = 1, ['('] = 1, [0xE2] = 1,
};

static inline unsigned cue_bits(const char *p)
{
#if defined(__SSE2__)
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i m = _mm_or_si128(
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('[')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('-'))),
				     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('+')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('*')))),
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8(','))),
				     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xE2)),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('(')))));

	return (unsigned)_mm_movemask_epi8(m);
#else
	(void)p;
	return 0;
#endif
}

bool refs_line_cue(const char *s, size_t n)
{
	size_t i = 0;

#if defined(__SSE2__)
	unsigned bits;

	for (; i + 16 <= n; i += 16)
		for (bits = cue_bits(s + i); bits; bits &= bits - 1)
			if (cue_at(s, i + (size_t)__builtin_ctz(bits), n))
				return true;
	/* The tail of a line of 16 bytes or more: its last 16, less those read. */
	if (i < n && n >= 16) {
		for (bits = cue_bits(s + n - 16) & (0xFFFFu << (i - (n - 16))); bits; bits &= bits - 1)
			if (cue_at(s, n - 16 + (size_t)__builtin_ctz(bits), n))
				return true;
		return false;
	}
#endif
	for (; i < n; i++)
		if (cue_lead[(unsigned char)s[i]] && cue_at(s, i, n))
			return true;
	return false;
}

/*
 * Whether s opens as authors may: a capital and up to 15 more bytes without
 * a blank or comma ("Smith", "Müller"), maybe a comma, a blank, and then a
 * capital ("Smith J", "Smith, J.", "World Health"), "(" ("OECD (2021)"),
 * "&", "and " or "et ". Few lines of prose do; they are spared the look for
 * a year. Every line that opens with a capital is asked, so the first
 * word's end is found 16 bytes at once.
 */
static bool names_start(const char *s, size_t n)
{
	size_t i = 1;

	if (n < 8 || !is_upper(s[0]))
		return false;
#if defined(__SSE2__)
	if (n >= 17) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + 1));
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8(','))));

		if (!m)
			return false;
		i += (size_t)__builtin_ctz(m);
	} else
#endif
	{
		while (i < n && i < 17 && s[i] != ' ' && s[i] != ',')
			i++;
		if (i == 17)
			return false; /* as above: no blank or comma in s[1, 17) */
	}
	if (i < n && s[i] == ',')
		i++;
	if (i + 4 >= n || s[i] != ' ')
		return false;
	i++;
	return is_upper(s[i]) || s[i] == '(' || s[i] == '&' || memcmp(s + i, "and ", 4) == 0 ||
	       memcmp(s + i, "et ", 3) == 0;
}

bool refs_paren_year(const char *s, size_t n)
{
	const char *p;

	if (!names_start(s, n))
		return false;
	for (p = memchr(s, '(', n); p; p = memchr(p + 1, '(', n - (size_t)(p + 1 - s)))
		if (cue_at(s, (size_t)(p - s), n))
			return true;
	return false;
}

/* "7" or "4-Hour": a number a title may hold after its first word ("The 4-Hour Workweek"); its end, or 0. */
static size_t number_word(const char *s, size_t i, size_t n)
{
	size_t k = i;

	while (k < n && k - i < 4 && is_digit(s[k]))
		k++;
	if (k == i || k - i > 3)
		return 0;
	if (k < n && s[k] == '-')
		return cap_word(s, k + 1, n);
	return k < n && s[k] == ' ' ? k : 0;
}

int refs_item_start(const char *s, size_t n, bool in_list)
{
	size_t i = 0, d = 0, k;
	int kind;

	n = MIN(n, 64);
	for (k = MIN(n, 8); i < k && (s[i] == ' ' || s[i] == '\t');)
		i++;
	if (bracket_number(s, i, n))
		return 1;
	if (i < n && is_digit(s[i])) {
		for (; i < n && is_digit(s[i]) && d < 4; i++)
			d++;
		if (d > 3 || i >= n || (s[i] != '.' && s[i] != ')'))
			return 0;
		i++;
		kind = 1;
	} else if (i < n && (s[i] == '-' || s[i] == '*' || s[i] == '+')) {
		i++;
		kind = 2;
	} else if (i + 2 < n && s[i] == (char)0xE2 && s[i + 1] == (char)0x80 && s[i + 2] == (char)0xA2) {
		i += 3;
		kind = 2;
	} else {
		return 0;
	}
	for (k = 0; i < n && (s[i] == ' ' || s[i] == '\t') && k < 4; i++)
		k++;
	if (k == 0 || i >= n)
		return 0;
	if (s[i] == '"' || (i + 2 < n && s[i] == (char)0xE2 && s[i + 1] == (char)0x80 && s[i + 2] == (char)0x9C))
		return kind;
	if (s[i] == '*' || s[i] == '_')
		i += i + 1 < n && s[i + 1] == '*' ? 2 : 1;
	if (in_list)
		return i < n && is_upper(s[i]) ? kind : 0;
	/* Word Word, Word of Word */
	if (!(k = cap_word(s, i, n)) || k >= n || s[k] != ' ')
		return 0;
	i = k + 1;
	if (i < n && is_lower(s[i])) {
		for (k = i; k < n && is_lower(s[k]) && k - i < 5; k++)
			;
		if (k - i > 4 || k >= n || s[k] != ' ')
			return 0;
		i = k + 1;
	}
	return cap_word(s, i, n) || number_word(s, i, n) ? kind : 0;
}

bool refs_item_maybe(const struct refs *r, const char *s, size_t n)
{
	size_t b = 0, e = n;
	const char *p;

	if (n > REFS_LINE_MAX)
		return false;
	trim(s, &b, &e, "");
	/* "[1] " numbers entries and nothing else: refs_parse decides. */
	if (bracket_number(s, b, e))
		return true;
	if (!skip_marker(s, &b, e) || b >= e)
		return false;
	/* A quoted title, or an entry with "(2020)" or "2002;12" (Vancouver):
	 * refs_parse decides. (Ids are found by their own trigger.) */
	if (s[b] == '"' || s[b] == (char)0xE2)
		return true;
	for (p = memchr(s + b, '(', e - b); p; p = memchr(p + 1, '(', (size_t)(s + e - p - 1)))
		if (s + e - p > 5 && is_digit(p[1]) &&
		    year_at(s, (size_t)(p + 1 - s), b, e))
			return true;
	for (p = memchr(s + b, ';', e - b); p; p = memchr(p + 1, ';', (size_t)(s + e - p - 1)))
		if (p - s >= (ptrdiff_t)b + 4 && year_at(s, (size_t)(p - 4 - s), b, e))
			return true;
	return title_item(r, s, b, e, false) != 0;
}

size_t refs_item_label(const char *s, size_t n, size_t *at)
{
	size_t b = 0, i, words = 0;

	while (b < n && (s[b] == '*' || s[b] == '_'))
		b++;
	if (b >= n || !is_upper(s[b]))
		return 0;
	for (i = b; i < n && i - b <= 40; i++) {
		if (s[i] == ':') {
			size_t e = i;

			while (e > b && (s[e - 1] == '*' || s[e - 1] == '_'))
				e--;
			if (e == b || is_space(s[e - 1]) || i + 1 >= n || !is_space(s[i + 1]))
				return 0;
			*at = b;
			return e - b;
		}
		if (is_space(s[i])) {
			if (is_space(s[i - 1]))
				return 0;
		} else if (is_alpha(s[i]) || s[i] == '-' || s[i] == '\'' || s[i] == '/') {
			if (i == b || is_space(s[i - 1]))
				if (++words > 4)
					return 0;
		} else if (s[i] != '*' && s[i] != '_') {
			return 0;
		}
	}
	return 0;
}

bool refs_field_label(const struct refs *r, const char *label, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t w = i;

		while (i < n && is_alpha(label[i]))
			i++;
		if (i > w && in_words(&r->fields, label + w, i - w))
			return true;
		while (i < n && !is_alpha(label[i]))
			i++;
	}
	return false;
}

bool refs_heading(const struct refs *r, const char *line, size_t n)
{
	return n <= REFS_LINE_MAX && heading(r, line, 0, n);
}

/* ---- keys ---- */

/* ASCII for the Latin-1 and Latin Extended-A letters (U+00C0-U+017F), by code point - 0xC0. */
static const char fold[] = "AAAAAAACEEEEIIIIDNOOOOO OUUUUYTsaaaaaaaceeeeiiiidnooooo ouuuuyty"
			   "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiJjJjKkkLlLlLlL"
			   "lLlNnNnNnnNnOoOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";

/* The key's byte for an ASCII byte: a letter lowered, a digit; 0 for the rest (a separator). */
static const char key_ascii[128] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 0, 0, 0, 0, 0, 0,
	0, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o',
	'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 0, 0, 0, 0, 0,
	0, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o',
	'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 0, 0, 0, 0, 0,
};

/*
 * Whether the word w[0, n) of a key is a stop word: in_words() without its
 * lowering, since a key's bytes are lowered already (ASCII letters and
 * digits, and bytes from 0x80 that lower() keeps), and asked only of the
 * stop words of its length whose first byte it shares.
 */
static inline bool stop_word(const struct words *l, const char *w, size_t n)
{
	size_t i;

	if (n >= ARRAY_SIZE(l->first) - 1 || !(l->first[n] & word_first_bit(w[0])))
		return false;
	for (i = l->at[n]; i < l->at[n + 1]; i++)
		if (memcmp(words_at(l, i), w, n) == 0)
			return true;
	return false;
}

/*
 * Each byte read writes at most one byte (a letter or digit its own, a
 * Latin letter's two bytes one, a separator at most the one space that
 * ends a word, other letters their own bytes), so room for n is made once
 * and the bytes written straight in; a run of ASCII letters and digits is
 * copied in one loop.
 */
int refs_title_key(const struct refs *r, const char *t, size_t n, struct buf *out)
{
	size_t i = 0, k, word;
	char *o;

	if (n >= out->cap - out->len) {
		/* Room for n bytes and the NUL (buf_add_grow() makes it; its copy is dropped). */
		int err = buf_add_grow(out, t, n);

		if (err)
			return err;
		out->len -= n;
	}
	o = out->data;
	k = word = out->len;
	while (i < n) {
		unsigned char c = (unsigned char)t[i];
		char a;

		if (c < 0x80) {
			if ((a = key_ascii[c])) {
				do
					o[k++] = a;
				while (++i < n && (unsigned char)t[i] < 0x80 && (a = key_ascii[(unsigned char)t[i]]));
				continue;
			}
			i++;
		} else if ((c == 0xC3 || c == 0xC4 || c == 0xC5) && i + 1 < n &&
			   ((unsigned char)t[i + 1] & 0xC0) == 0x80) {
			unsigned cp = ((c & 0x1Fu) << 6) | ((unsigned char)t[i + 1] & 0x3Fu);

			i += 2;
			a = cp >= 0xC0 && cp - 0xC0 < sizeof(fold) - 1 ? lower(fold[cp - 0xC0]) : 0;
			if (a && a != ' ') {
				o[k++] = a;
				continue;
			}
		} else {
			/* Other letters stay as they are; general punctuation (U+2000-206F) separates. */
			size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2, len;

			/* A lead byte takes only the continuation bytes that follow it. */
			for (len = 1; len < want && i + len < n && ((unsigned char)t[i + len] & 0xC0) == 0x80; len++)
				;
			if (!(c == 0xE2 && i + 1 < n && ((unsigned char)t[i + 1] & 0xFC) == 0x80)) {
				memcpy(o + k, t + i, len);
				k += len;
				i += len;
				continue;
			}
			i += len;
		}
		/* A word ended: a stop word is taken back out. */
		if (r && k > word && stop_word(&r->stop, o + word, k - word))
			k = word;
		if (k > word)
			o[k++] = ' ';
		word = k;
	}
	if (r && k > word && stop_word(&r->stop, o + word, k - word))
		k = word;
	while (k > 0 && o[k - 1] == ' ')
		k--;
	out->len = k;
	if (o)
		o[k] = '\0';
	return 0;
}

int refs_key_next(const struct refs *r, const struct ref_entry *e, const char *text,
		  unsigned *at, struct buf *key)
{
	size_t i, n;
	int err;

	switch (*at) {
	case 0: /* the normalized title, when it keeps a letter or digit */
		*at = 1;
		if (e->title.len) {
			key->len = 0;
			err = buf_add(key, "ref\x1ft:", 6);
			if (!err)
				err = refs_title_key(r, text + e->title.off, e->title.len, key);
			if (err)
				return err;
			if (key->len > 6)
				return 1;
		}
		/* fall through */
	case 1:
		*at = 2;
		if (e->doi.len) {
			key->len = 0;
			err = buf_add(key, "ref\x1f" "d:", 6);
			for (i = 0; !err && i < e->doi.len; i++)
				err = buf_addc(key, lower(text[e->doi.off + i]));
			return err ? err : 1;
		}
		/* fall through */
	case 2:
		*at = 3;
		if (e->arxiv.len) {
			n = e->arxiv.len;
			/* Any version of a paper is the paper: "2101.00001v2" is "2101.00001". */
			for (i = n; i > 0 && is_digit(text[e->arxiv.off + i - 1]); i--)
				;
			if (i > 1 && i < n && text[e->arxiv.off + i - 1] == 'v')
				n = i - 1;
			key->len = 0;
			err = buf_add(key, "ref\x1f" "a:", 6);
			for (i = 0; !err && i < n; i++)
				err = buf_addc(key, lower(text[e->arxiv.off + i]));
			return err ? err : 1;
		}
		/* fall through */
	default:
		return 0;
	}
}

/*
 * True at a mark that ends a part of a line of tool output: ". ", quotes, " - ", " | ", tabs;
 * an escaped line break or tab ("\\n" of a serialized string: its lines are parts), and a
 * single quote that no letter stands on both sides of (a Python repr's string, not "Dora's").
 */
static size_t part_break(const char *s, size_t i, size_t n)
{
	if (s[i] == '"' || s[i] == '\t' || s[i] == '|' || s[i] == '[' || s[i] == ']')
		return 1;
	if (s[i] == '\\' && i + 1 < n && (s[i + 1] == 'n' || s[i + 1] == 't' || s[i + 1] == 'r'))
		return 2;
	if (s[i] == '\'' && !(i > 0 && is_alpha(s[i - 1]) && i + 1 < n && is_alpha(s[i + 1])))
		return 1;
	if ((s[i] == '.' || s[i] == '?' || s[i] == '!') && (i + 1 == n || s[i + 1] == ' '))
		return 1;
	if (s[i] == ' ' && i + 2 < n && (s[i + 1] == '-' || s[i + 1] == '|') && s[i + 2] == ' ')
		return 3;
	if (i + 2 < n && s[i] == (char)0xE2 && s[i + 1] == (char)0x80 &&
	    ((unsigned char)s[i + 2] >= 0x93 && (unsigned char)s[i + 2] <= 0x9D))
		return 3; /* dashes and curly quotes */
	return 0;
}

/*
 * Where the next part break at or after from is (n when none), its length
 * in *brk. Only the bytes a break can start with are asked part_break(),
 * found 16 at a time: a blank breaks only before "- " or "| ", so the '-'
 * or '|' after it is the byte looked for, and the break is taken from the
 * blank before it when that blank is in the part ([from, ...)), as a scan
 * from from would have met it first.
 */
/* The break a byte at s[at] of a part from from gives (its length in *brk, 0 for none), and where it starts. */
static inline size_t break_at(const char *s, size_t from, size_t at, size_t n, size_t *brk)
{
	if ((s[at] == '-' || s[at] == '|') && at > from && s[at - 1] == ' ' && at + 1 < n && s[at + 1] == ' ') {
		*brk = 3;
		return at - 1;
	}
	*brk = part_break(s, at, n);
	return at;
}

static size_t next_break(const char *s, size_t from, size_t n, size_t *brk)
{
	size_t i = from;

#if defined(__SSE2__)
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i m = _mm_or_si128(
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))),
				     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('|')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('-')))),
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('\''))),
				     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xE2)),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
		/* '[' 0x5B, '\\' 0x5C and ']' 0x5D; '!' 0x21 and '?' 0x3F */
		m = _mm_or_si128(m, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('[')),
							      _mm_cmpeq_epi8(v, _mm_set1_epi8(']'))),
						 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('!')),
							      _mm_cmpeq_epi8(v, _mm_set1_epi8('?')))));
		for (unsigned bits = (unsigned)_mm_movemask_epi8(m); bits; bits &= bits - 1) {
			size_t at = break_at(s, from, i + (size_t)__builtin_ctz(bits), n, brk);

			if (*brk)
				return at;
		}
	}
#endif
	for (; i < n; i++) {
		size_t at;

		if (s[i] == ' ')
			continue; /* its break, if any, is found at the '-' or '|' after it */
		at = break_at(s, from, i, n, brk);
		if (*brk)
			return at;
	}
	*brk = 0;
	return n;
}

/*
 * Where the value of a part "Label: value" of at most eight words before
 * ": " starts ("Bike shops in Lyon: Rhone Cycles" names "Rhone Cycles"),
 * or 0 when the part [from, to) is none.
 */
static size_t label_value(const char *line, size_t from, size_t to)
{
	const char *c = line + from, *end = line + to;
	size_t i, spaces = 0;

	while ((c = memchr(c, ':', (size_t)(end - c))) && c + 1 < end && c[1] != ' ')
		c++;
	if (!c || c + 1 >= end)
		return 0;
	for (i = from; line + i < c; i++)
		if (line[i] == ' ' && i > from && line[i - 1] != ' ' && ++spaces > 7)
			return 0;
	return (size_t)(c - line) + 2;
}

/*
 * A part's title key is its label's key and its value's key joined by a
 * blank (": " ends a word, and a key's words are each one's own), so the
 * part is normalized once: its value's key is the tail of the part's from
 * it->value, handed out from key on the next call. A part whose key has no
 * blank has a value whose key has none either: both ground nothing.
 */
int refs_segment_key_next(const struct refs *r, const char *line, size_t n,
			  struct refs_segments *it, struct buf *key)
{
	size_t v;
	int rc;

	if (n > REFS_LINE_MAX)
		return 0;
	for (;;) {
		if (it->label) {
			/* The part's title key was handed out: its "Label: value" next. */
			it->label = false;
			it->from = it->to + (it->brk ? it->brk : 1);
			if (it->value) {
				size_t tail = key->len - it->value;

				memmove(key->data + 6, key->data + it->value, tail);
				key->len = 6 + tail;
				key->data[key->len] = '\0';
				it->value = 0;
				if (memchr(key->data + 6, ' ', tail))
					return 1;
			}
		}
		if (it->from >= n)
			return 0;
		/* The next part: up to its break, or the line's end. */
		it->to = next_break(line, it->from, n, &it->brk);
		key->len = 0;
		rc = buf_add(key, "ref\x1ft:", 6);
		v = label_value(line, it->from, it->to);
		if (!rc && v) {
			rc = refs_title_key(r, line + it->from, v - it->from, key);
			if (!rc && key->len > 6)
				rc = buf_add(key, " ", 1);
			it->value = key->len;
			if (!rc)
				rc = refs_title_key(r, line + v, it->to - v, key);
			/* A value without a key: refs_title_key() trimmed the blank before it. */
			if (key->len <= it->value)
				it->value = 0;
		} else if (!rc) {
			rc = refs_title_key(r, line + it->from, it->to - it->from, key);
		}
		if (rc)
			return rc;
		if (memchr(key->data + 6, ' ', key->len - 6)) {
			it->label = true;
			return 1;
		}
		it->from = it->to + (it->brk ? it->brk : 1);
		it->value = 0;
	}
}
