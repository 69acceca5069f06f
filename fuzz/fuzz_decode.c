// SPDX-License-Identifier: MIT
/*
 * The input decoder (byte-order marks, UTF-16 and UTF-32 to UTF-8), fed the
 * input whole and in random pieces. The first bytes choose:
 *   byte 0     a mark put before the rest (0: none; 1-5: UTF-8, UTF-16LE,
 *              UTF-16BE, UTF-32LE, UTF-32BE; others: none)
 *   bytes 1-4  the seed of the piece sizes
 *   byte 5     the largest piece, 1 + byte bytes
 * Properties:
 *  - the pieces give what the whole gives: the same encoding (or the same
 *    refusal), the same bytes out, the same count of U+FFFD written;
 *  - UTF-16 and UTF-32 come out as valid UTF-8, at most 3 bytes for every
 *    2 read; without a U+FFFD written, the output in the input's encoding
 *    is the input after its mark, byte for byte;
 *  - bytes and UTF-8 after a mark pass through, less the mark;
 *  - only input without a mark is refused, with the encoding it looks like.
 */
#include <errno.h>
#include <string.h>

#include "common/util.h"
#include "fuzz.h"
#include "match/decode.h"

static const struct {
	const char *bytes;
	size_t len;
} marks[] = {
	{"", 0}, {"\xEF\xBB\xBF", 3}, {"\xFF\xFE", 2}, {"\xFE\xFF", 2},
	{"\xFF\xFE\x00\x00", 4}, {"\x00\x00\xFE\xFF", 4},
};

struct run {
	int err;                /* 0 or the first error */
	enum decode_encoding enc, guess;
	uint64_t replaced;
	struct buf out;
};

static void decode_run(const unsigned char *p, size_t n, uint32_t seed, uint32_t max_piece,
		       struct run *r)
{
	static struct decoder d; /* its buffer is reused, as the program does */
	struct fuzz_rng rng;
	const char *o;
	size_t len;

	fuzz_rng_seed(&rng, seed);
	decode_init(&d);
	r->err = 0;
	r->out.len = 0;
	while (n > 0 && r->err == 0) {
		size_t k = max_piece ? 1 + fuzz_rng_below(&rng, max_piece) : n;

		k = MIN(k, n);

		r->err = decode_feed(&d, p, k, &o, &len);
		FUZZ_CHECK(r->err == 0 || r->err == -EILSEQ, "decode_feed: %d", r->err);
		if (r->err == 0)
			FUZZ_CHECK(buf_add(&r->out, o, len) == 0);
		p += k;
		n -= k;
	}
	if (r->err == 0) {
		r->err = decode_end(&d, &o, &len);
		FUZZ_CHECK(r->err == 0 || r->err == -EILSEQ, "decode_end: %d", r->err);
		if (r->err == 0)
			FUZZ_CHECK(buf_add(&r->out, o, len) == 0);
	}
	r->enc = d.enc;
	r->guess = d.guess;
	r->replaced = d.replaced;
}

/* The next code point of valid UTF-8 at s[*i]. */
static uint32_t next_cp(const unsigned char *s, size_t *i)
{
	uint32_t c = s[(*i)++];
	size_t k = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;

	c &= k == 0 ? 0x7F : k == 1 ? 0x1F : k == 2 ? 0x0F : 0x07;
	while (k-- > 0)
		c = c << 6 | (s[(*i)++] & 0x3F);
	return c;
}

static void put_unit(struct buf *b, uint32_t u, size_t w, bool le)
{
	unsigned char x[4];
	size_t i;

	for (i = 0; i < w; i++)
		x[le ? i : w - 1 - i] = (unsigned char)(u >> (8 * i));
	FUZZ_CHECK(buf_add(b, x, w) == 0);
}

/* UTF-8 (valid) in the encoding e, into b. */
static void encode(const struct buf *utf8, enum decode_encoding e, struct buf *b)
{
	bool le = e == DECODE_UTF16LE || e == DECODE_UTF32LE;
	size_t w = e == DECODE_UTF16LE || e == DECODE_UTF16BE ? 2 : 4, i = 0;

	b->len = 0;
	while (i < utf8->len) {
		uint32_t c = next_cp((const unsigned char *)utf8->data, &i);

		if (w == 2 && c >= 0x10000) {
			put_unit(b, 0xD800 + ((c - 0x10000) >> 10), 2, le);
			put_unit(b, 0xDC00 + ((c - 0x10000) & 0x3FF), 2, le);
		} else {
			put_unit(b, c, w, le);
		}
	}
}

static const char *name(enum decode_encoding e)
{
	return decode_name(e) ? decode_name(e) : e == DECODE_BYTES ? "bytes" : "pending";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct buf text, back;
	static struct run whole, split;
	struct fuzz_in in = {data, size};
	uint8_t mark = fuzz_u8(&in);
	uint32_t seed = fuzz_u32(&in), max_piece = 1u + fuzz_u8(&in);
	size_t skip = 0;

	if (mark >= ARRAY_SIZE(marks))
		mark = 0;
	text.len = 0;
	FUZZ_CHECK(buf_add(&text, marks[mark].bytes, marks[mark].len) == 0 &&
		   buf_add(&text, in.p, in.n) == 0 &&
		   grow(&text.data, &text.cap, text.len + 1, 1) == 0); /* never NULL */

	decode_run((const unsigned char *)text.data, text.len, seed, 0, &whole);
	decode_run((const unsigned char *)text.data, text.len, seed, max_piece, &split);
	FUZZ_CHECK(whole.err == split.err, "whole: %d, in pieces: %d", whole.err, split.err);
	FUZZ_CHECK(whole.enc == split.enc, "whole: %s, in pieces: %s", name(whole.enc),
		   name(split.enc));
	if (whole.err) {
		/* Refused: no mark, and it looks like UTF-16 or UTF-32. */
		FUZZ_CHECK(whole.enc == DECODE_PENDING && whole.guess >= DECODE_UTF16LE);
		FUZZ_CHECK(whole.guess == split.guess);
		return 0;
	}
	FUZZ_CHECK(whole.out.len == split.out.len &&
		   fuzz_same(whole.out.data, split.out.data, whole.out.len),
		   "the pieces' %zu bytes out are not the whole's %zu", split.out.len, whole.out.len);
	FUZZ_CHECK(whole.replaced == split.replaced);

	switch (whole.enc) {
	case DECODE_UTF8_BOM:
		skip = 3;
		/* fall through */
	case DECODE_BYTES:
		FUZZ_CHECK(whole.replaced == 0);
		FUZZ_CHECK(whole.out.len == text.len - skip &&
			   fuzz_same(whole.out.data, text.data + skip, whole.out.len),
			   "bytes did not pass through");
		break;
	case DECODE_UTF16LE:
	case DECODE_UTF16BE:
	case DECODE_UTF32LE:
	case DECODE_UTF32BE:
		skip = whole.enc <= DECODE_UTF16BE ? 2 : 4;
		FUZZ_CHECK(fuzz_valid_utf8(whole.out.data, whole.out.len), "%s made invalid UTF-8",
			   name(whole.enc));
		FUZZ_CHECK(2 * whole.out.len <= 3 * (text.len - skip) + 6,
			   "%zu bytes of %s made %zu", text.len - skip, name(whole.enc), whole.out.len);
		if (whole.replaced == 0) {
			encode(&whole.out, whole.enc, &back);
			FUZZ_CHECK(back.len == text.len - skip &&
				   fuzz_same(back.data, text.data + skip, back.len),
				   "%s does not come back from its UTF-8", name(whole.enc));
		}
		break;
	default:
		FUZZ_CHECK(0, "undecided at the end: %s", name(whole.enc));
	}
	return 0;
}
