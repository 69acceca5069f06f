// SPDX-License-Identifier: MIT
/* JSON strings: always valid UTF-8, nothing dropped. */
#include <stdio.h>
#include <string.h>

#include "common/emit.h"
#include "test.h"

static const char *json(const char *s, size_t n)
{
	static struct buf b;

	b.len = 0;
	CHECK_EQ(emit_json_string(&b, s, n), 0);
	return b.data;
}

TEST(emit_json_escapes)
{
	CHECK_STR(json("plain", 5), "\"plain\"");
	CHECK_STR(json("q\"b\\s/", 6), "\"q\\\"b\\\\s/\"");
	CHECK_STR(json("a\nb\rc\td", 7), "\"a\\nb\\rc\\td\"");
	CHECK_STR(json("\x01\x1f\x7f", 3), "\"\\u0001\\u001f\\u007f\"");
	CHECK_STR(json("a\0b", 3), "\"a\\u0000b\"");
	CHECK_STR(json("", 0), "\"\"");
}

TEST(emit_json_utf8)
{
	/* Valid sequences pass through: é, —, 😀. */
	CHECK_STR(json("\xc3\xa9\xe2\x80\x94\xf0\x9f\x98\x80", 9), "\"\xc3\xa9\xe2\x80\x94\xf0\x9f\x98\x80\"");
	/* Invalid bytes become lone surrogates, one per byte. */
	CHECK_STR(json("a\xff" "b", 3), "\"a\\udcffb\"");
	CHECK_STR(json("\xc3", 1), "\"\\udcc3\"");                 /* truncated */
	CHECK_STR(json("\xc0\xaf", 2), "\"\\udcc0\\udcaf\"");      /* overlong */
	CHECK_STR(json("\xed\xa0\x80", 3), "\"\\udced\\udca0\\udc80\""); /* a surrogate */
	CHECK_STR(json("\xf4\x90\x80\x80", 4), "\"\\udcf4\\udc90\\udc80\\udc80\""); /* > U+10FFFF */
	CHECK_STR(json("\xe2\x80", 2), "\"\\udce2\\udc80\"");
}

/*
 * Plain runs are read 16 bytes at a time, and their last bytes with the
 * string's last 16 (or a short string's copy): every byte value, at every
 * offset of a run of plain text of every length up to 40, is written as
 * it is alone (its own escape or itself) between the run's two parts.
 */
TEST(emit_json_every_byte_at_every_offset)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz0123456789 ~!@";
	char in[64], want[128], alone[16];
	unsigned c;
	size_t k, n;

	for (c = 0; c < 256; c++) {
		char one = (char)c;

		snprintf(alone, sizeof(alone), "%s", json(&one, 1));
		/* alone is "X" with its quotes: the middle is what c becomes */
		alone[strlen(alone) - 1] = '\0';
		for (n = 0; n <= 40; n++)
			for (k = 0; k <= n; k++) {
				memcpy(in, plain, k);
				in[k] = one;
				memcpy(in + k + 1, plain + k, n - k);
				snprintf(want, sizeof(want), "\"%.*s%s%.*s\"", (int)k, plain,
					 alone + 1, (int)(n - k), plain + k);
				CHECK_STR(json(in, n + 1), want);
			}
	}
}

/* Numbers are written without printf: the edges, and a sweep against it. */
TEST(emit_numbers)
{
	static const uint64_t edges[] = {0, 9, 10, 99, 100, 4294967295u, 4294967296u,
					 18446744073709551615u};
	struct buf b = {0};
	char want[32];
	uint64_t v = 1;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(edges) + 60; i++, v = v * 3 + 1) {
		uint64_t x = i < ARRAY_SIZE(edges) ? edges[i] : v;

		b.len = 0;
		CHECK_EQ(buf_add_u64(&b, x), 0);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)x);
		CHECK_EQ(b.len, strlen(want));
		CHECK(b.data && memcmp(b.data, want, b.len) == 0);
	}
	buf_free(&b);
}
