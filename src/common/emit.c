// SPDX-License-Identifier: MIT
/* JSON strings written: escaped, valid UTF-8, credentials redacted. */
#include "emit.h"

#include <errno.h>
#include <string.h>

#include "url.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Whether c is copied as it is: printable ASCII other than '"' and '\\'. */
static bool json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
}

#if defined(__SSE2__)
/* The bytes of v that are not plain, as a mask of 16 bits. */
static unsigned json_unplain(__m128i v)
{
	const __m128i lo = _mm_set1_epi8(0x1F), hi = _mm_set1_epi8(0x7F);
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	__m128i ok = _mm_and_si128(_mm_cmpgt_epi8(v, lo), _mm_cmplt_epi8(v, hi));
	__m128i bad = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash));

	return (~(unsigned)_mm_movemask_epi8(ok) & 0xFFFFu) | (unsigned)_mm_movemask_epi8(bad);
}

/*
 * The plain bytes at the start of p[0, r), stored at o: r when all are.
 * A block of 16 is stored whole; fewer, as two overlapping halves (8 to
 * 15 bytes) or quarters (4 to 7), loaded without a copy into a padded
 * buffer: most strings written are shorter than 16 bytes, or end in a
 * piece of one. Bytes stored past the plain ones are written over by the
 * escape that follows. Below 4 bytes, SIZE_MAX: the caller goes a byte at
 * a time.
 */
static size_t plain_block(char *o, const unsigned char *p, size_t r)
{
	unsigned m;

	if (r >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

		_mm_storeu_si128((__m128i *)(void *)o, v);
		m = json_unplain(v);
		return m ? (size_t)__builtin_ctz(m) : 16;
	}
	if (r >= 8) {
		uint64_t a, z;

		memcpy(&a, p, 8);
		memcpy(&z, p + r - 8, 8);
		memcpy(o, &a, 8);
		memcpy(o + r - 8, &z, 8);
		m = json_unplain(_mm_set_epi64x((long long)z, (long long)a));
		/* Bits 8 to 15 are bytes r - 8 to r - 1; the first 8 bits come first. */
		return !m ? r : (m & 0xFFu) ? (size_t)__builtin_ctz(m)
					    : r - 8 + (size_t)__builtin_ctz(m >> 8);
	}
	if (r >= 4) {
		uint32_t a, z;

		memcpy(&a, p, 4);
		memcpy(&z, p + r - 4, 4);
		memcpy(o, &a, 4);
		memcpy(o + r - 4, &z, 4);
		m = json_unplain(_mm_set_epi32(0, 0, (int)z, (int)a)) & 0xFFu;
		return !m ? r : (m & 0xFu) ? (size_t)__builtin_ctz(m)
					   : r - 4 + (size_t)__builtin_ctz(m >> 4);
	}
	return SIZE_MAX;
}
#endif

/* Input bytes escaped per reservation of the output's room. */
#define ESCAPE_CHUNK 4096

/*
 * Writes p[0, n) escaped at o and returns the end. o has room for 6n + 16
 * bytes: any byte may become six (\u00XX, \udcXX), and a block's store
 * may reach 16 bytes past where the output stands. With replaced NULL,
 * an invalid byte is \udcXX; otherwise U+FFFD, counted.
 */
static char *escape(char *o, const unsigned char *p, size_t n, size_t *replaced)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, k;

	for (;;) {
		unsigned char c;

#if defined(__SSE2__)
		while ((k = plain_block(o, p + i, n - i)) != SIZE_MAX) {
			i += k;
			o += k;
			if (i == n)
				return o;
			if (k < 16)
				break;
		}
		if (k == SIZE_MAX)
#endif
		{
			while (i < n && json_plain(p[i]))
				*o++ = (char)p[i++];
			if (i == n)
				return o;
		}
		c = p[i];
		switch (c) {
		case '"': memcpy(o, "\\\"", 2); o += 2; i++; continue;
		case '\\': memcpy(o, "\\\\", 2); o += 2; i++; continue;
		case '\n': memcpy(o, "\\n", 2); o += 2; i++; continue;
		case '\r': memcpy(o, "\\r", 2); o += 2; i++; continue;
		case '\t': memcpy(o, "\\t", 2); o += 2; i++; continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7F) {
			memcpy(o, "\\u00", 4);
			o[4] = hex[c >> 4];
			o[5] = hex[c & 15];
			o += 6;
			i++;
			continue;
		}
		k = utf8_char_len(p + i, n - i);
		if (k > 0) {
			while (k--)
				*o++ = (char)p[i++];
			continue;
		}
		if (replaced) {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
			++*replaced;
		} else {
			/* An invalid byte: a lone low surrogate U+DC80..U+DCFF carries it. */
			memcpy(o, "\\udc", 4);
			o[4] = hex[c >> 4];
			o[5] = hex[c & 15];
			o += 6;
		}
		i++;
	}
}

/*
 * s[0, n) as a quoted JSON string, escaped in place in b: its room
 * reserved once a chunk rather than checked at each piece. A chunk ends
 * before a UTF-8 sequence that would cross it, which is then judged whole.
 */
static int json_string(struct buf *b, const char *s, size_t n, size_t *replaced)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;
	char *o;

	do {
		k = n;
		if (k > ESCAPE_CHUNK) {
			k = ESCAPE_CHUNK;
			for (size_t j = 0; j < 3 && (p[k] & 0xC0) == 0x80; j++)
				if ((p[k - j - 1] & 0xC0) != 0x80) {
					k -= j + 1;
					break;
				}
		}
		if (grow(&b->data, &b->cap, b->len + 6 * k + 16 + 3, 1) < 0)
			return -ENOMEM;
		o = b->data + b->len;
		if ((const char *)p == s)
			*o++ = '"';
		o = escape(o, p, k, replaced);
		b->len = (size_t)(o - b->data);
		p += k;
		n -= k;
	} while (n > 0);
	b->data[b->len++] = '"';
	b->data[b->len] = '\0';
	return 0;
}

int emit_json_string(struct buf *b, const char *s, size_t n)
{
	return json_string(b, s, n, NULL);
}

int emit_json_string_utf8(struct buf *b, const char *s, size_t n, size_t *replaced)
{
	size_t dummy = 0;

	return json_string(b, s, n, replaced ? replaced : &dummy);
}

int emit_json_quote(struct buf *b, const char *s, size_t n)
{
	struct buf tmp = {0};
	int err;

	/* (url_redact()'s own first look, without its call and tmp's free) */
	if (!memchr(s, '@', n))
		return emit_json_string(b, s, n);
	err = url_redact(&s, &n, &tmp);

	if (err == 0)
		err = emit_json_string(b, s, n);
	buf_free(&tmp);
	return err;
}

int emit_json_quote_utf8(struct buf *b, const char *s, size_t n, size_t *replaced)
{
	struct buf tmp = {0};
	int err = url_redact(&s, &n, &tmp);

	if (err == 0)
		err = emit_json_string_utf8(b, s, n, replaced);
	buf_free(&tmp);
	return err;
}

int emit_json_text_utf8(struct buf *b, const char *t, size_t n, size_t *replaced)
{
	const unsigned char *p = (const unsigned char *)t;
	size_t i = 0, run = 0, k;
	int cp, lo, err = 0;

	while (i < n && err == 0) {
#if defined(__SSE2__)
		/* Records are mostly ASCII without escapes: 16 such bytes at a time. */
		for (; i + 16 <= n; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			unsigned m = (unsigned)_mm_movemask_epi8(v) |
				     (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));

			if (m) {
				i += (size_t)__builtin_ctz(m);
				break;
			}
		}
		if (i == n)
			break;
#endif
		if (p[i] < 0x80 && p[i] != '\\') {
			i++;
			continue;
		}
		if (p[i] == '\\') {
			if (n - i < 6 || p[i + 1] != 'u' || (cp = hex4(p + i + 2)) < 0xD800 ||
			    cp > 0xDFFF) {
				i += MIN((size_t)2, n - i); /* any other escape: as it is */
				continue;
			}
			lo = cp <= 0xDBFF && n - i >= 12 && p[i + 6] == '\\' && p[i + 7] == 'u'
				     ? hex4(p + i + 8) : -1;
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				i += 12; /* a pair: one character */
				continue;
			}
			/* A lone surrogate, \udcXX of surrogateescape among them. */
			err = buf_add(b, t + run, i - run) | BUF_LIT(b, "\\ufffd");
			++*replaced;
			i += 6;
			run = i;
			continue;
		}
		k = utf8_char_len(p + i, n - i);
		if (k > 0) {
			i += k;
			continue;
		}
		err = buf_add(b, t + run, i - run) | BUF_LIT(b, "\xEF\xBF\xBD");
		++*replaced;
		run = ++i;
	}
	if (err == 0)
		err = buf_add(b, t + run, n - run);
	return err ? -ENOMEM : 0;
}
