// SPDX-License-Identifier: MIT
/* The input decoder: marks, UTF-16/32 to UTF-8 split anywhere, markless UTF-16 refused. */
#include <errno.h>
#include <stdlib.h>

#include "match/decode.h"
#include "test.h"

enum split { WHOLE, BYTES, RANDOM };

/* Code points as code units of e (with its mark when bom), appended to b. */
static void encode(struct buf *b, enum decode_encoding e, bool bom, const uint32_t *cp, size_t n)
{
	bool le = e == DECODE_UTF16LE || e == DECODE_UTF32LE;
	size_t i;

	if (bom)
		encode(b, e, false, (const uint32_t[]){0xFEFF}, 1);
	for (i = 0; i < n; i++) {
		uint32_t u[2] = {cp[i], 0};
		size_t k = 1, j;

		if ((e == DECODE_UTF16LE || e == DECODE_UTF16BE) && cp[i] >= 0x10000 && cp[i] <= 0x10FFFF) {
			u[0] = 0xD800 + ((cp[i] - 0x10000) >> 10);
			u[1] = 0xDC00 + ((cp[i] - 0x10000) & 0x3FF);
			k = 2;
		}
		for (j = 0; j < k; j++) {
			unsigned char x[4];

			if (e == DECODE_UTF16LE || e == DECODE_UTF16BE) {
				x[0] = (unsigned char)(le ? u[j] : u[j] >> 8);
				x[1] = (unsigned char)(le ? u[j] >> 8 : u[j]);
				buf_add(b, x, 2);
			} else {
				x[le ? 0 : 3] = (unsigned char)u[j];
				x[le ? 1 : 2] = (unsigned char)(u[j] >> 8);
				x[le ? 2 : 1] = (unsigned char)(u[j] >> 16);
				x[le ? 3 : 0] = (unsigned char)(u[j] >> 24);
				buf_add(b, x, 4);
			}
		}
	}
}

/* Decodes in[0, n) fed as split says into out; returns decode_feed/end's first error. */
static int run(const char *in, size_t n, enum split how, unsigned seed, struct buf *out,
	       struct decoder *d)
{
	const char *o;
	size_t i = 0, len;
	int err;

	decode_init(d);
	out->len = 0;
	while (i < n) {
		size_t k = n - i;

		if (how == BYTES)
			k = 1;
		else if (how == RANDOM) {
			seed = seed * 1103515245u + 12345u;
			k = MIN(n - i, 1 + (seed >> 16) % 7);
		}
		err = decode_feed(d, in + i, k, &o, &len);
		if (err < 0)
			return err;
		buf_add(out, o, len);
		i += k;
	}
	err = decode_end(d, &o, &len);
	if (err == 0)
		buf_add(out, o, len);
	return err;
}

/* Decodes in every split; each must give want (and count replaced). */
static void check_decodes(const char *in, size_t n, const char *want, size_t want_len,
			  enum decode_encoding enc, uint64_t replaced)
{
	struct decoder d = {0};
	struct buf out = {0};
	unsigned seed;

	for (seed = 0; seed < 40; seed++) {
		enum split how = seed == 0 ? WHOLE : seed == 1 ? BYTES : RANDOM;

		CHECK_EQ(run(in, n, how, seed, &out, &d), 0);
		CHECK_EQ(d.enc, enc);
		CHECK_EQ(d.replaced, replaced);
		if (out.len != want_len || (want_len && memcmp(out.data, want, want_len) != 0)) {
			fprintf(stderr, "  split %d (seed %u): got %zu bytes, want %zu\n", how, seed,
				out.len, want_len);
			CHECK(!"decoded text differs");
			break;
		}
	}
	decode_free(&d);
	buf_free(&out);
}

/* ASCII, Latin-1, a BMP character, an astral one, NUL and a line break. */
static const uint32_t text[] = {'S', 'e', 'e', ' ', 0xE9, 0x2014, 0x1F600, ' ', 0x10FFFF, 0, 'h',
				 't', 't', 'p', 's', ':', '/', '/', 'x', '.', 'e', 'x', 'a', 'm',
				 'p', 'l', 'e', '/', ' ', '7', '3', '.', '4', '%', '\n'};
static const char text_utf8[] = "See \xc3\xa9\xe2\x80\x94\xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf"
				"\0https://x.example/ 73.4%\n";

TEST(decode_marked_utf16_utf32_split_anywhere)
{
	static const enum decode_encoding encs[] = {DECODE_UTF16LE, DECODE_UTF16BE, DECODE_UTF32LE,
						     DECODE_UTF32BE};
	static const char *const names[] = {"utf-16le", "utf-16be", "utf-32le", "utf-32be"};
	struct buf in = {0};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(encs); i++) {
		in.len = 0;
		encode(&in, encs[i], true, text, ARRAY_SIZE(text));
		check_decodes(in.data, in.len, text_utf8, sizeof(text_utf8) - 1, encs[i], 0);
		CHECK_STR(decode_name(encs[i]), names[i]);
	}
	buf_free(&in);
}

TEST(decode_replaces_what_is_no_character)
{
	struct buf in = {0};

	/* UTF-16LE: a high surrogate before a letter, a lone low one, a high one
	 * at the end, then a byte cut off by the end. */
	in.len = 0;
	encode(&in, DECODE_UTF16LE, true,
	       (const uint32_t[]){'a', 0xD83D, 'b', 0xDE00, 'c', 0xD83D, 0xDE00, 0xDBFF}, 8);
	buf_addc(&in, 'x');
	check_decodes(in.data, in.len, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xf0\x9f\x98\x80"
		      "\xef\xbf\xbd\xef\xbf\xbd", 19, DECODE_UTF16LE, 4);
	/* UTF-32BE: past U+10FFFF, a surrogate, then three bytes of a unit. */
	in.len = 0;
	encode(&in, DECODE_UTF32BE, true, (const uint32_t[]){'a', 0x110000, 0xDC00, 'b'}, 4);
	buf_add(&in, "\0\0\0", 3);
	check_decodes(in.data, in.len, "a\xef\xbf\xbd\xef\xbf\xbd" "b\xef\xbf\xbd", 11,
		      DECODE_UTF32BE, 3);
	/* A mark alone, and the start of one that is not. */
	check_decodes("\xff\xfe", 2, "", 0, DECODE_UTF16LE, 0);
	check_decodes("\xff\xfe\0\0", 4, "", 0, DECODE_UTF32LE, 0);
	check_decodes("\xef\xbb", 2, "\xef\xbb", 2, DECODE_BYTES, 0);
	check_decodes("", 0, "", 0, DECODE_BYTES, 0);
	buf_free(&in);
}

TEST(decode_passes_utf8_and_bytes_through)
{
	static const char bin[] = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f"
				  "binary, then text 73.4%\n";
	struct decoder d = {0};
	const char *o;
	size_t len;
	char big[4096];

	check_decodes(text_utf8, sizeof(text_utf8) - 1, text_utf8, sizeof(text_utf8) - 1,
		      DECODE_BYTES, 0);
	check_decodes("\xef\xbb\xbfSee 73.4%\n", 13, "See 73.4%\n", 10, DECODE_UTF8_BOM, 0);
	check_decodes(bin, sizeof(bin) - 1, bin, sizeof(bin) - 1, DECODE_BYTES, 0);
	CHECK(decode_name(DECODE_BYTES) == NULL);
	/* Once decided, reads pass through without a copy. */
	memset(big, 'a', sizeof(big));
	decode_init(&d);
	CHECK_EQ(decode_feed(&d, big, 10, &o, &len), 0);
	CHECK_EQ(len, 10);
	CHECK_EQ(decode_feed(&d, big, sizeof(big), &o, &len), 0);
	CHECK(o == big && len == sizeof(big));
	/* A short first line is not held back: a live stream's gate needs it. */
	decode_init(&d);
	CHECK_EQ(decode_feed(&d, "ok\n", 3, &o, &len), 0);
	CHECK_EQ(len, 3);
	decode_free(&d);
}

TEST(decode_refuses_markless_utf16_and_utf32)
{
	static const enum decode_encoding encs[] = {DECODE_UTF16LE, DECODE_UTF16BE, DECODE_UTF32LE,
						     DECODE_UTF32BE};
	struct decoder d = {0};
	struct buf in = {0}, out = {0};
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(encs); i++) {
		/* Short (decided at the end) and long (decided after DECODE_SNIFF). */
		for (k = 1; k <= 100; k += 99) {
			size_t j;

			in.len = 0;
			for (j = 0; j < k; j++)
				encode(&in, encs[i], false, text, ARRAY_SIZE(text));
			CHECK_EQ(run(in.data, in.len, RANDOM, (unsigned)k, &out, &d), -EILSEQ);
			CHECK_EQ(d.guess, encs[i]);
			CHECK_EQ(out.len, 0); /* nothing passed on before the refusal */
		}
	}
	/* Other characters than ASCII do not hide it: one in four here. */
	in.len = 0;
	for (i = 0; i < 200; i++)
		encode(&in, DECODE_UTF16LE, false, (const uint32_t[]){'a', 'b', 'c', 0x2019}, 4);
	CHECK_EQ(run(in.data, in.len, WHOLE, 0, &out, &d), -EILSEQ);
	CHECK_EQ(d.guess, DECODE_UTF16LE);
	decode_free(&d);
	buf_free(&in);
	buf_free(&out);
}

/*
 * Markless input is judged on its bytes, not on where reads end: the first
 * four bytes (or the first line, if shorter) without a NUL make it bytes
 * however much follows in one read, and NULs only later do not refuse it
 * (found by fuzz/fuzz_decode.c: whole it was refused, in pieces passed).
 */
TEST(decode_decides_on_bytes_not_reads)
{
	struct buf in = {0};
	size_t i;

	buf_add(&in, "abcd\n", 5);
	for (i = 0; i < 40; i++)
		encode(&in, DECODE_UTF16LE, false, (const uint32_t[]){'x'}, 1);
	check_decodes(in.data, in.len, in.data, in.len, DECODE_BYTES, 0);
	in.len = 0;
	buf_add(&in, "a\n", 2);
	for (i = 0; i < 40; i++)
		encode(&in, DECODE_UTF32BE, false, (const uint32_t[]){'x'}, 1);
	check_decodes(in.data, in.len, in.data, in.len, DECODE_BYTES, 0);
	buf_free(&in);
}
