// SPDX-License-Identifier: MIT
/* The input's encoding: byte-order marks, UTF-16/32 to UTF-8, UTF-16 without a mark refused. */
#include "decode.h"

#include <errno.h>
#include <string.h>

static const struct {
	const unsigned char bytes[4];
	size_t len;
	enum decode_encoding enc;
} marks[] = {
	/* UTF-32LE first: its mark begins with UTF-16LE's. */
	{{0xFF, 0xFE, 0x00, 0x00}, 4, DECODE_UTF32LE},
	{{0x00, 0x00, 0xFE, 0xFF}, 4, DECODE_UTF32BE},
	{{0xEF, 0xBB, 0xBF}, 3, DECODE_UTF8_BOM},
	{{0xFF, 0xFE}, 2, DECODE_UTF16LE},
	{{0xFE, 0xFF}, 2, DECODE_UTF16BE},
};

void decode_init(struct decoder *d)
{
	struct buf keep = d->out;

	memset(d, 0, sizeof(*d));
	d->out = keep;
	d->out.len = 0;
	d->enc = DECODE_PENDING;
	d->guess = DECODE_BYTES;
}

void decode_free(struct decoder *d)
{
	buf_free(&d->out);
}

const char *decode_name(enum decode_encoding e)
{
	switch (e) {
	case DECODE_UTF8_BOM:
		return "utf-8";
	case DECODE_UTF16LE:
		return "utf-16le";
	case DECODE_UTF16BE:
		return "utf-16be";
	case DECODE_UTF32LE:
		return "utf-32le";
	case DECODE_UTF32BE:
		return "utf-32be";
	default:
		return NULL;
	}
}

/*
 * The mark that h[0, n) begins with, DECODE_PENDING while h could still
 * become one (more bytes needed and not at the end), else DECODE_BYTES.
 * *skip gets the mark's length.
 */
static enum decode_encoding find_mark(const unsigned char *h, size_t n, bool end, size_t *skip)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		size_t k = MIN(n, marks[i].len);

		if (memcmp(h, marks[i].bytes, k) != 0)
			continue;
		if (k < marks[i].len && !end)
			return DECODE_PENDING; /* FF FE could still be FF FE 00 00 */
		if (k == marks[i].len) {
			*skip = k;
			return marks[i].enc;
		}
	}
	*skip = 0;
	return DECODE_BYTES;
}

/*
 * What markless h[0, n) looks like from where its NULs fall: text in
 * UTF-16 has one in every other byte for each ASCII character, UTF-32 in
 * three of four, and neither fits text in UTF-8, which has none. Half of
 * a column NUL and few NULs elsewhere decides: other text (an em dash, a
 * curly quote) or binary bytes do not move the NULs so much.
 */
static enum decode_encoding sniff(const unsigned char *h, size_t n)
{
	size_t nul[4] = {0}, all[4] = {0}, i;

#define HEAVY(r) (2 * nul[r] >= all[r] && all[r] > 0)
#define LIGHT(r) (8 * nul[r] <= all[r])
	for (i = 0; i < n; i++) {
		all[i % 4]++;
		nul[i % 4] += h[i] == 0;
	}
	if (HEAVY(2) && HEAVY(3) && LIGHT(0))
		return DECODE_UTF32LE;
	if (HEAVY(0) && HEAVY(1) && LIGHT(3) && n >= 4)
		return DECODE_UTF32BE;
	if (2 * (nul[1] + nul[3]) >= all[1] + all[3] && all[1] > 0 &&
	    8 * (nul[0] + nul[2]) <= all[0] + all[2])
		return DECODE_UTF16LE;
	if (2 * (nul[0] + nul[2]) >= all[0] + all[2] && all[0] > 0 &&
	    8 * (nul[1] + nul[3]) <= all[1] + all[3] && n >= 2)
		return DECODE_UTF16BE;
#undef HEAVY
#undef LIGHT
	return DECODE_BYTES;
}

/* Room for units more code units: UTF-8 takes at most 4 bytes for one (a
 * pair of UTF-16 units makes 4, a unit after an unpaired high surrogate 6). */
static int reserve(struct decoder *d, size_t units)
{
	return grow(&d->out.data, &d->out.cap, d->out.len + 4 * (units + 2), 1);
}

/* Writes code point cp as UTF-8 (U+FFFD, counted, for one that is no character). */
static void put(struct decoder *d, uint32_t cp)
{
	unsigned char *u = (unsigned char *)d->out.data + d->out.len;

	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
		cp = 0xFFFD;
		d->replaced++;
	}
	if (cp < 0x80) {
		u[0] = (unsigned char)cp;
		d->out.len += 1;
	} else if (cp < 0x800) {
		u[0] = (unsigned char)(0xC0 | cp >> 6);
		u[1] = (unsigned char)(0x80 | (cp & 0x3F));
		d->out.len += 2;
	} else if (cp < 0x10000) {
		u[0] = (unsigned char)(0xE0 | cp >> 12);
		u[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		u[2] = (unsigned char)(0x80 | (cp & 0x3F));
		d->out.len += 3;
	} else {
		u[0] = (unsigned char)(0xF0 | cp >> 18);
		u[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
		u[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		u[3] = (unsigned char)(0x80 | (cp & 0x3F));
		d->out.len += 4;
	}
}

/* One UTF-16 code unit: pairs surrogates, replaces those left alone. */
static void put16(struct decoder *d, uint32_t u)
{
	if (d->high) {
		uint32_t hi = d->high;

		d->high = 0;
		if (u >= 0xDC00 && u <= 0xDFFF) {
			put(d, 0x10000 + ((hi - 0xD800) << 10) + (u - 0xDC00));
			return;
		}
		put(d, hi); /* unpaired: U+FFFD */
	}
	if (u >= 0xD800 && u <= 0xDBFF)
		d->high = u;
	else
		put(d, u);
}

/* Transcodes p[0, n) in d->enc, after the bytes of a unit cut by the last read. */
static int transcode(struct decoder *d, const unsigned char *p, size_t n)
{
	size_t w = d->enc == DECODE_UTF16LE || d->enc == DECODE_UTF16BE ? 2 : 4;
	bool le = d->enc == DECODE_UTF16LE || d->enc == DECODE_UTF32LE;

	if (reserve(d, (d->unit_len + n) / w) < 0)
		return -ENOMEM;
	while (n > 0) {
		const unsigned char *u;
		uint32_t v;

		if (d->unit_len > 0 || n < w) {
			size_t k = MIN(w - d->unit_len, n);

			memcpy(d->unit + d->unit_len, p, k);
			d->unit_len += k;
			p += k;
			n -= k;
			if (d->unit_len < w)
				break;
			u = d->unit;
			d->unit_len = 0;
		} else {
			u = p;
			p += w;
			n -= w;
		}
		if (w == 2) {
			v = le ? (uint32_t)u[0] | (uint32_t)u[1] << 8 : (uint32_t)u[0] << 8 | u[1];
			put16(d, v);
		} else {
			v = le ? (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 |
					 (uint32_t)u[3] << 24
			       : (uint32_t)u[0] << 24 | (uint32_t)u[1] << 16 | (uint32_t)u[2] << 8 | u[3];
			put(d, v);
		}
	}
	return 0;
}

/* Decides the encoding from the held bytes (end: no more will come); 1 while undecided. */
static int decide(struct decoder *d, bool end)
{
	size_t skip, settle;
	const unsigned char *nl;
	enum decode_encoding e = find_mark(d->head, d->head_len, end, &skip);
	int err;

	if (e == DECODE_PENDING)
		return 1;
	if (e == DECODE_BYTES) {
		/*
		 * The first four bytes, or the first line if shorter, settle it:
		 * without a NUL they are bytes at once, so that a live stream's
		 * first line is not held back; with one, DECODE_SNIFF bytes (or
		 * all there are) are judged. The bytes decide, never where a
		 * read happened to end.
		 */
		nl = memchr(d->head, '\n', MIN(d->head_len, 4));
		settle = nl ? (size_t)(nl - d->head) + 1 : 4;
		if (d->head_len < settle && !end)
			return 1;
		if (memchr(d->head, 0, MIN(settle, d->head_len))) {
			if (d->head_len < DECODE_SNIFF && !end)
				return 1;
			d->guess = sniff(d->head, d->head_len);
			if (d->guess != DECODE_BYTES)
				return -EILSEQ;
		}
	}
	d->enc = e;
	d->out.len = 0;
	if (e == DECODE_BYTES || e == DECODE_UTF8_BOM)
		err = buf_add(&d->out, d->head + skip, d->head_len - skip);
	else
		err = transcode(d, d->head + skip, d->head_len - skip);
	d->head_len = 0;
	return err;
}

int decode_feed(struct decoder *d, const void *in, size_t n, const char **out, size_t *len)
{
	const unsigned char *p = in;
	int err;

	*out = NULL;
	*len = 0;
	if (d->enc == DECODE_BYTES || d->enc == DECODE_UTF8_BOM) {
		*out = in;
		*len = n;
		return 0;
	}
	if (d->enc == DECODE_PENDING) {
		size_t held = d->head_len, k = MIN(n, DECODE_SNIFF - d->head_len);

		memcpy(d->head + d->head_len, p, k);
		d->head_len += k;
		p += k;
		n -= k;
		err = decide(d, false);
		if (err != 0)
			return err < 0 ? err : 0;
		/* Decided: what was held is in out; the rest follows it. Where
		 * all of it came with this call, that is in itself, past a byte
		 * order mark: the first read is not copied (a read's worth of
		 * memory, 132 KB, kept written for the whole run: issue 35). */
		if ((d->enc == DECODE_BYTES || d->enc == DECODE_UTF8_BOM) && held == 0) {
			*out = (const char *)in + (k - d->out.len);
			*len = d->out.len + n;
			return 0;
		}
		if (d->enc == DECODE_BYTES || d->enc == DECODE_UTF8_BOM)
			err = buf_add(&d->out, p, n);
		else
			err = transcode(d, p, n);
	} else {
		d->out.len = 0;
		err = transcode(d, p, n);
	}
	if (err < 0)
		return err;
	*out = d->out.data;
	*len = d->out.len;
	return 0;
}

int decode_end(struct decoder *d, const char **out, size_t *len)
{
	int err;

	*out = NULL;
	*len = 0;
	d->out.len = 0;
	if (d->enc == DECODE_PENDING) {
		err = decide(d, true);
		if (err < 0)
			return err;
	}
	/* A high surrogate with no low one, and a unit cut off by the end. */
	if ((d->unit_len > 0 || d->high) && reserve(d, 2) < 0)
		return -ENOMEM;
	if (d->high) {
		put(d, d->high);
		d->high = 0;
	}
	if (d->unit_len > 0) {
		put(d, 0xD800);
		d->unit_len = 0;
	}
	*out = d->out.data;
	*len = d->out.len;
	return 0;
}
