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
#endif

/*
 * The end of the run of plain bytes that starts at p[i]. A finding's
 * message, recovery and text are mostly such runs, read 16 bytes at a
 * time: a byte is plain when, signed, it lies in (0x1F, 0x7F) and is no
 * quote or backslash. The last few bytes too: the string's last 16 read
 * again, or a short string copied into 16 bytes whose padding (NUL) ends
 * the run, rather than a byte at a time (most strings written are
 * shorter than 16 bytes, or end in a piece of one).
 */
static size_t json_plain_run(const unsigned char *p, size_t i, size_t n)
{
#if defined(__SSE2__)
	unsigned char t[16] = {0};
	const unsigned char *q = t;
	size_t base = 0;
	unsigned m;

	for (; i + 16 <= n; i += 16) {
		m = json_unplain(_mm_loadu_si128((const __m128i *)(const void *)(p + i)));
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
	if (i == n)
		return n;
	if (n >= 16) {
		base = n - 16;
		q = p + base;
	} else {
		memcpy(t, p, n);
	}
	m = json_unplain(_mm_loadu_si128((const __m128i *)(const void *)q)) & (0xFFFFu << (i - base));
	return m ? base + (size_t)__builtin_ctz(m) : n;
#else
	while (i < n && json_plain(p[i]))
		i++;
	return i;
#endif
}

/* With replaced NULL, an invalid byte is \udcXX; otherwise U+FFFD, counted. */
static int json_string(struct buf *b, const char *s, size_t n, size_t *replaced)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;
	int err = buf_add(b, "\"", 1);

	while (i < n && err == 0) {
		unsigned char c = p[i];
		size_t k;
		char esc[7];

		if (json_plain(c)) {
			/* Copy plain ASCII in runs. */
			run = i;
			i = json_plain_run(p, i, n);
			err = buf_add(b, s + run, i - run);
			continue;
		}
		switch (c) {
		case '"': err = buf_add(b, "\\\"", 2); i++; continue;
		case '\\': err = buf_add(b, "\\\\", 2); i++; continue;
		case '\n': err = buf_add(b, "\\n", 2); i++; continue;
		case '\r': err = buf_add(b, "\\r", 2); i++; continue;
		case '\t': err = buf_add(b, "\\t", 2); i++; continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7F) {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			err = buf_add(b, esc, 6);
			i++;
			continue;
		}
		k = utf8_char_len(p + i, n - i);
		if (k > 0) {
			err = buf_add(b, s + i, k);
			i += k;
			continue;
		}
		if (replaced) {
			err = BUF_LIT(b, "\xEF\xBF\xBD");
			++*replaced;
			i++;
			continue;
		}
		/* An invalid byte: a lone low surrogate U+DC80..U+DCFF carries it. */
		err = buf_add(b, "\\udc", 4);
		if (err == 0) {
			esc[0] = hex[c >> 4];
			esc[1] = hex[c & 15];
			err = buf_add(b, esc, 2);
		}
		i++;
	}
	if (err == 0)
		err = buf_add(b, "\"", 1);
	return err;
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
