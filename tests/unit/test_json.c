// SPDX-License-Identifier: MIT
/* The JSON reader: structure, escapes, numbers, errors and real corpus records. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/emit.h"
#include "common/json.h"
#include "common/util.h"
#include "test.h"

static struct json_error last_err;

/* Parses a C string; on failure returns NULL and leaves the error in last_err. */
static struct json_value *parse(const char *text)
{
	struct json_value *v = (struct json_value *)1;

	last_err = (struct json_error){0};
	if (json_parse(text, strlen(text), &v, &last_err) < 0) {
		CHECK(v == NULL);
		return NULL;
	}
	CHECK(v != NULL);
	return v;
}

/* Expects text to fail with -EINVAL at offset at, with a message containing what. */
static void bad(const char *text, size_t at, const char *what, int line)
{
	struct json_value *v = NULL;
	char m[512];
	int err;

	last_err = (struct json_error){0};
	err = json_parse(text, strlen(text), &v, &last_err);
	if (err != -EINVAL || v || last_err.offset != at || !last_err.msg ||
	    !strstr(last_err.msg, what)) {
		snprintf(m, sizeof(m), "'%s': got %d at %zu \"%s\", want -EINVAL at %zu \"%s\"",
			 text, err, last_err.offset, last_err.msg ? last_err.msg : "(null)", at, what);
		test_fail(__FILE__, line, m);
	}
	json_free(v);
}
#define BAD(text, at, what) bad(text, at, what, __LINE__)

/* The decoded bytes of a one-string document, compared with want[0, n). */
static bool string_is(const char *text, const char *want, size_t n)
{
	struct json_value *v = parse(text);
	const char *s;
	size_t len = 0;
	bool ok;

	s = json_string(v, &len);
	ok = s && len == n && memcmp(s, want, n) == 0 && s[n] == '\0';
	json_free(v);
	return ok;
}

TEST(json_nested)
{
	struct json_value *v = parse(" {\"a\": [1, {\"b\": [true, false, null]}, \"x\"],\n"
				     "  \"c\": {}, \"d\": [], \"e\": {\"f\": {\"g\": \"deep\"}}}\r\n");
	const struct json_value *a, *b, *m;
	const char *key = "";
	size_t key_len = 0;
	double d = 0;
	bool t = false, f = true;

	CHECK(v != NULL);
	CHECK_EQ(json_type(v), JSON_OBJECT);
	CHECK_EQ(json_object_len(v), 4);
	a = json_get(v, "a");
	CHECK_EQ(json_type(a), JSON_ARRAY);
	CHECK_EQ(json_array_len(a), 3);
	CHECK_EQ(json_number(json_array_at(a, 0), &d), 0);
	CHECK(d == 1);
	b = json_get(json_array_at(a, 1), "b");
	CHECK_EQ(json_array_len(b), 3);
	CHECK_EQ(json_bool(json_array_at(b, 0), &t), 0);
	CHECK_EQ(json_bool(json_array_at(b, 1), &f), 0);
	CHECK(t && !f);
	CHECK_EQ(json_type(json_array_at(b, 2)), JSON_NULL);
	CHECK_STR(json_string(json_array_at(a, 2), NULL), "x");
	CHECK_EQ(json_type(json_get(v, "c")), JSON_OBJECT);
	CHECK_EQ(json_object_len(json_get(v, "c")), 0);
	CHECK_EQ(json_type(json_get(v, "d")), JSON_ARRAY);
	CHECK_EQ(json_array_len(json_get(v, "d")), 0);
	CHECK_STR(json_string(json_get(json_get(json_get(v, "e"), "f"), "g"), NULL), "deep");

	/* Members in text order. */
	m = json_object_at(v, 3, &key, &key_len);
	CHECK(m == json_get(v, "e"));
	CHECK_EQ(key_len, 1);
	CHECK(key[0] == 'e');
	CHECK(json_object_at(v, 4, &key, &key_len) == NULL);

	/* Absent, out of range and wrong-typed lookups say so, and chain. */
	CHECK(json_get(v, "zz") == NULL);
	CHECK(json_get(v, "") == NULL);
	CHECK(json_get(a, "a") == NULL);
	CHECK(json_array_at(a, 3) == NULL);
	CHECK(json_array_at(v, 0) == NULL);
	CHECK_EQ(json_array_len(v), 0);
	CHECK_EQ(json_object_len(a), 0);
	CHECK(json_string(a, NULL) == NULL);
	CHECK_EQ(json_number(json_get(v, "d"), &d), -EINVAL);
	CHECK_EQ(json_bool(NULL, &t), -EINVAL);
	CHECK_EQ(json_type(json_get(json_get(v, "no"), "such")), JSON_NONE);
	CHECK(json_string(json_get(NULL, "x"), NULL) == NULL);
	json_free(v);
	json_free(NULL);
}

TEST(json_strings_and_escapes)
{
	CHECK(string_is("\"\"", "", 0));
	CHECK(string_is("\"plain ascii\"", "plain ascii", 11));
	CHECK(string_is("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t", 8));
	/* \u escapes of 1, 2 and 3 UTF-8 bytes, either case of hex, and NUL. */
	CHECK(string_is("\"\\u0041\\u00e9\\u00E9\\u20ac\"", "A\xc3\xa9\xc3\xa9\xe2\x82\xac", 8));
	CHECK(string_is("\"a\\u0000b\"", "a\0b", 3));
	CHECK(string_is("\"\\u007f\\u0080\\u07ff\\u0800\\uffff\"",
			"\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf", 11));
	/* Surrogate pairs: one 4-byte code point. */
	CHECK(string_is("\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80", 4));
	CHECK(string_is("\"\\uD83D\\uDE00!\"", "\xf0\x9f\x98\x80!", 5));
	CHECK(string_is("\"\\ud800\\udc00\\udbff\\udfff\"", "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", 8));
	/* surrogateescape: a lone \udc80-\udcff is the raw byte. */
	CHECK(string_is("\"\\udcff\"", "\xff", 1));
	CHECK(string_is("\"a\\udc80b\\uDCC3\"", "a\x80" "b\xc3", 4));
	/* Raw UTF-8 (and raw non-UTF-8, documented) passes through; so does DEL. */
	CHECK(string_is("\"caf\xc3\xa9 \xf0\x9f\x98\x80\"", "caf\xc3\xa9 \xf0\x9f\x98\x80", 10));
	CHECK(string_is("\"\xff\x7f\"", "\xff\x7f", 2));
}

/* What emit_json_string() writes, json_parse() reads back byte for byte. */
TEST(json_reads_what_emit_writes)
{
	static const char in[] = "ctl \x01\x1f\x7f nul \0 quote \" bs \\ utf8 \xc3\xa9\xe2\x82\xac"
				 "\xf0\x9f\x98\x80 bad \xff\xc3(\xed\xa0\x80\xf4\x90\x80\x80\xc0\xaf end";
	struct buf b = {0};
	struct json_value *v = NULL;
	struct json_error e;
	const char *s;
	size_t len = 0;

	CHECK_EQ(emit_json_string(&b, in, sizeof(in) - 1), 0);
	CHECK_EQ(json_parse(b.data, b.len, &v, &e), 0);
	s = json_string(v, &len);
	CHECK(s != NULL);
	CHECK_EQ(len, sizeof(in) - 1);
	CHECK(s && memcmp(s, in, sizeof(in) - 1) == 0);
	json_free(v);
	buf_free(&b);
}

TEST(json_numbers)
{
	struct json_value *v = parse("[-0, 1e3, 0.1, 9007199254740993, 9223372036854775807,"
				     " -9223372036854775808, 9223372036854775808, 1.5e-400,"
				     " 12345678901234567890123, -12.5E+2, 0 ]");
	const struct json_value *n;
	int64_t i = 0;
	double d = 0;
	size_t start, end;

	CHECK(v != NULL);
	CHECK_EQ(json_array_len(v), 11);
	/* -0: integral, a negative zero double. */
	n = json_array_at(v, 0);
	CHECK_EQ(json_number(n, &d), 0);
	CHECK(d == 0 && signbit(d));
	CHECK_EQ(json_int(n, &i), 0);
	CHECK_EQ(i, 0);
	/* 1e3 is 1000 but written with an exponent: not an integer literal. */
	n = json_array_at(v, 1);
	CHECK_EQ(json_number(n, &d), 0);
	CHECK(d == 1000);
	CHECK_EQ(json_int(n, &i), -EINVAL);
	/* 0.1 is the nearest double, as strtod gives it. */
	CHECK_EQ(json_number(json_array_at(v, 2), &d), 0);
	CHECK(d == 0.1);
	CHECK_EQ(json_int(json_array_at(v, 2), &i), -EINVAL);
	/* Past 2^53 the double rounds, json_int does not. */
	n = json_array_at(v, 3);
	CHECK_EQ(json_number(n, &d), 0);
	CHECK(d == 9007199254740992.0);
	CHECK_EQ(json_int(n, &i), 0);
	CHECK(i == INT64_C(9007199254740993));
	CHECK_EQ(json_int(json_array_at(v, 4), &i), 0);
	CHECK(i == INT64_MAX);
	CHECK_EQ(json_int(json_array_at(v, 5), &i), 0);
	CHECK(i == INT64_MIN);
	/* One past INT64_MAX, and far past: a double still, not an int64_t. */
	n = json_array_at(v, 6);
	CHECK_EQ(json_int(n, &i), -ERANGE);
	CHECK_EQ(json_number(n, &d), 0);
	CHECK(d == 9223372036854775808.0);
	CHECK_EQ(json_int(json_array_at(v, 8), &i), -ERANGE);
	CHECK_EQ(json_number(json_array_at(v, 8), &d), 0);
	CHECK(fabs(d - 1.2345678901234568e22) < 1e7);
	/* Underflow is 0, not an error. */
	CHECK_EQ(json_number(json_array_at(v, 7), &d), 0);
	CHECK(d == 0);
	CHECK_EQ(json_number(json_array_at(v, 9), &d), 0);
	CHECK(d == -1250);
	/* The span is the number as written. */
	json_span(json_array_at(v, 9), &start, &end);
	CHECK_EQ(start, 132);
	CHECK_EQ(end, 140);
	CHECK_EQ(json_int(json_array_at(v, 10), &i), 0);
	CHECK_EQ(json_int(NULL, &i), -EINVAL);
	json_free(v);

	/* A top-level number ends where the text does, terminated or not. */
	{
		static const char digits[] = {'4', '2', '7'};
		struct json_error e;

		CHECK_EQ(json_parse(digits, 2, &v, &e), 0);
		CHECK_EQ(json_int(v, &i), 0);
		CHECK_EQ(i, 42);
		json_free(v);
	}
}

TEST(json_keys)
{
	struct json_value *v = parse("{\"k\": 1, \"a\\u0000b\": 2, \"k\": 3, \"\": 4, \"\\u00e9\": 5}");
	int64_t i = 0;

	CHECK(v != NULL);
	/* A duplicate key: the last wins, as in Python and jq; both are kept. */
	CHECK_EQ(json_int(json_get(v, "k"), &i), 0);
	CHECK_EQ(i, 3);
	CHECK_EQ(json_object_len(v), 5);
	/* Keys are decoded, and may hold NUL. */
	CHECK_EQ(json_int(json_getn(v, "a\0b", 3), &i), 0);
	CHECK_EQ(i, 2);
	CHECK(json_get(v, "a") == NULL);
	CHECK_EQ(json_int(json_get(v, ""), &i), 0);
	CHECK_EQ(i, 4);
	CHECK_EQ(json_int(json_get(v, "\xc3\xa9"), &i), 0);
	CHECK_EQ(i, 5);
	json_free(v);
}

/* {"a":{"a":...1}}, depth objects deep, into b. */
static void nest_objects(struct buf *b, int depth)
{
	int i, err = 0;

	b->len = 0;
	for (i = 0; i < depth; i++)
		err |= BUF_LIT(b, "{\"a\":");
	err |= buf_addc(b, '1');
	for (i = 0; i < depth; i++)
		err |= buf_addc(b, '}');
	CHECK_EQ(err, 0);
}

/* An array of n zeros: n + 1 values. */
static void values(struct buf *b, size_t n)
{
	size_t i;
	int err = 0;

	b->len = 0;
	err |= buf_addc(b, '[');
	for (i = 0; i < n; i++)
		err |= buf_add(b, ",0" + !i, 2 - !i);
	err |= buf_addc(b, ']');
	CHECK_EQ(err, 0);
}

TEST(json_errors)
{
	char deep[2 * (JSON_MAX_DEPTH + 1) + 1];
	struct buf objs = {0};
	struct json_value *v;
	int i;

	BAD("", 0, "expected a value");
	BAD("  \n", 3, "expected a value");
	/* Unterminated: reported at the opening quote; a final backslash too. */
	BAD("{\"a\": \"abc", 6, "unterminated string");
	BAD("\"abc\\", 0, "unterminated string");
	BAD("\"abc\\\"", 0, "unterminated string");
	BAD("[1, 2", 5, "expected ',' or ']'");
	BAD("{\"a\": 1", 7, "expected ',' or '}'");
	/* Trailing commas: at the comma. */
	BAD("[1,2,]", 4, "trailing comma");
	BAD("{\"a\":1 , }", 7, "trailing comma");
	BAD("[,]", 1, "expected a value");
	/* Bad escapes: at the backslash. */
	BAD("\"ab\\x\"", 3, "invalid escape");
	BAD("\"\\'\"", 1, "invalid escape");
	BAD("\"\\u12\"", 1, "invalid \\u escape");
	BAD("\"\\u12G4\"", 1, "invalid \\u escape");
	/* Lone surrogates, other than the surrogateescape range. */
	BAD("\"\\ud83d\"", 1, "unpaired surrogate");
	BAD("\"x\\ud83dx\"", 2, "unpaired surrogate");
	BAD("\"\\ud83d\\u0041\"", 1, "unpaired surrogate");
	BAD("\"\\ud83d\\ud83d\"", 1, "unpaired surrogate");
	BAD("\"\\ude00\"", 1, "unpaired surrogate");
	BAD("\"\\udc7f\"", 1, "unpaired surrogate");
	BAD("\"\\udd00\"", 1, "unpaired surrogate");
	/* Raw control characters must be escaped. */
	BAD("\"a\tb\"", 2, "control character");
	BAD("[\"\n\"]", 2, "control character");
	BAD("\"\x1f\"", 1, "control character");
	/* Trailing garbage. */
	BAD("{} x", 3, "trailing characters");
	BAD("1 2", 2, "trailing characters");
	BAD("{\"a\":1}}", 7, "trailing characters");
	BAD("truex", 4, "trailing characters");
	/* Structure. */
	BAD("{\"a\" 1}", 5, "expected ':'");
	BAD("{1: 2}", 1, "expected a string key");
	BAD("{\"a\": }", 6, "expected a value");
	BAD("[1 2]", 3, "expected ',' or ']'");
	BAD("[tru]", 1, "expected a value");
	BAD("nul", 0, "expected a value");
	BAD("NaN", 0, "expected a value");
	BAD("'a'", 0, "expected a value");
	/* Numbers. */
	BAD("01", 0, "leading zero");
	BAD("-", 0, "invalid number");
	BAD("[-a]", 1, "invalid number");
	BAD("1.", 0, "invalid number");
	BAD("1.e5", 0, "invalid number");
	BAD("1e", 0, "invalid number");
	BAD("1e+", 0, "invalid number");
	BAD(".5", 0, "expected a value");
	BAD("+1", 0, "expected a value");
	BAD("-Infinity", 0, "invalid number");
	BAD("1e999", 0, "out of range");
	BAD("[-1e400]", 1, "out of range");

	/* Values: JSON_MAX_VALUES parse (the array and its items), one more does not. */
	values(&objs, JSON_MAX_VALUES - 1);
	v = parse(objs.data);
	CHECK(v != NULL);
	CHECK_EQ(json_array_len(v), JSON_MAX_VALUES - 1);
	json_free(v);
	values(&objs, JSON_MAX_VALUES);
	BAD(objs.data, 1 + 2 * (size_t)(JSON_MAX_VALUES - 1), "more than 1000000 values");

	/* Depth: JSON_MAX_DEPTH nested arrays parse, one more does not. */
	for (i = 0; i < JSON_MAX_DEPTH; i++) {
		deep[i] = '[';
		deep[2 * JSON_MAX_DEPTH - 1 - i] = ']';
	}
	deep[2 * JSON_MAX_DEPTH] = '\0';
	v = parse(deep);
	CHECK(v != NULL);
	json_free(v);
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	BAD(deep, JSON_MAX_DEPTH, "nesting deeper than 64");
	/* Objects count the same: {"a":{"a":...1}} fails at the 65th brace. */
	nest_objects(&objs, JSON_MAX_DEPTH);
	v = parse(objs.data);
	CHECK(v != NULL);
	json_free(v);
	nest_objects(&objs, JSON_MAX_DEPTH + 1);
	BAD(objs.data, 5 * JSON_MAX_DEPTH, "nesting deeper than 64");
	buf_free(&objs);
}

/* Real records: the fields the evaluation reads, and spans that index the response. */
TEST(json_corpus_summedits)
{
	const char *dir = test_shared();
	char path[4096], *text = NULL, *line, *nl;
	size_t len = 0, n_lines = 0, n_spans = 0, i;
	int err;

	if (!dir) {
		test_skip("no shared corpus");
		return;
	}
	snprintf(path, sizeof(path), "%s/summedits.jsonl", dir);
	err = read_file(path, &text, &len);
	if (err < 0) {
		test_skip("no summedits.jsonl");
		return;
	}
	for (line = text; n_lines < 200 && line < text + len; line = nl + 1) {
		struct json_value *rec = NULL;
		const struct json_value *spans;
		struct json_error e = {0};
		const char *resp;
		size_t resp_len = 0;
		bool hallucinated;

		nl = memchr(line, '\n', (size_t)(text + len - line));
		if (!nl)
			nl = text + len;
		n_lines++;
		err = json_parse(line, (size_t)(nl - line), &rec, &e);
		if (err < 0) {
			char m[256];

			snprintf(m, sizeof(m), "line %zu: %s at %zu", n_lines, e.msg, e.offset);
			test_fail(__FILE__, __LINE__, m);
			continue;
		}
		resp = json_string(json_get(rec, "response"), &resp_len);
		spans = json_get(rec, "spans");
		CHECK(resp != NULL);
		CHECK(json_string(json_get(rec, "id"), NULL) != NULL);
		CHECK_EQ(json_type(spans), JSON_ARRAY);
		CHECK_EQ(json_bool(json_get(rec, "has_hallucination"), &hallucinated), 0);
		for (i = 0; resp && i < json_array_len(spans); i++) {
			const struct json_value *s = json_array_at(spans, i);
			size_t t_len = 0;
			const char *t = json_string(json_get(s, "text"), &t_len);
			int64_t from = -1, to = -1;

			n_spans++;
			CHECK_EQ(json_int(json_get(s, "byte_start"), &from), 0);
			CHECK_EQ(json_int(json_get(s, "byte_end"), &to), 0);
			CHECK(t && from >= 0 && from <= to && (size_t)to <= resp_len &&
			      (size_t)(to - from) == t_len && memcmp(resp + from, t, t_len) == 0);
		}
		json_free(rec);
	}
	CHECK_EQ(n_lines, 200);
	CHECK(n_spans > 0);
	free(text);
}
