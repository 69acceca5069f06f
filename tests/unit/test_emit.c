// SPDX-License-Identifier: MIT
/* JSON strings: always valid UTF-8, nothing dropped. */
#include "emit.h"
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
