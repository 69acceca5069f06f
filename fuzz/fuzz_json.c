// SPDX-License-Identifier: MIT
/*
 * The JSON reader and the JSON string writer, on any bytes:
 *  - the writer makes valid UTF-8 with no raw control character out of any
 *    bytes, and the reader gives the same bytes back (surrogateescape);
 *  - the reader accepts or refuses with -EINVAL and a place inside the text;
 *  - what it accepts, written out again with the writer, reads back as the
 *    same tree; spans nest inside their parents; json_int agrees with
 *    strtoll(), json_getn finds the last member of a key;
 *  - the strict writers (--records) make UTF-8 a strict reader takes: a
 *    string's invalid bytes become U+FFFD, each counted, the rest kept; a
 *    text the reader accepts is copied byte for byte when nothing is
 *    replaced, and otherwise reads back as the same shape with every
 *    string valid UTF-8 (no lone surrogate escape left);
 *  - url_redact() leaves no userinfo in any "://" authority, keeps text
 *    without '@' as it is, and redacts nothing twice.
 *  - json_scan_object() accepts what json_parse() accepts, with the same
 *    top type and, for an object, the same members' keys and spans, and
 *    refuses what json_parse() refuses for any reason but its limits.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/emit.h"
#include "common/json.h"
#include "common/url.h"
#include "common/util.h"
#include "fuzz.h"

/* Writes s with emit_json_string_utf8: U+FFFD for each invalid byte, counted. */
static void string_strict(const char *s, size_t n, struct buf *b)
{
	struct json_value *v = NULL;
	struct json_error jerr = {0};
	const unsigned char *p = (const unsigned char *)s;
	size_t replaced = 0, bad = 0, i, k, len;
	const char *back;

	for (i = 0; i < n; i += k ? k : 1) {
		k = utf8_char_len(p + i, n - i);
		bad += k == 0;
	}
	b->len = 0;
	FUZZ_CHECK(emit_json_string_utf8(b, s, n, &replaced) == 0);
	FUZZ_CHECK(replaced == bad, "%zu replaced, %zu invalid bytes", replaced, bad);
	FUZZ_CHECK(fuzz_valid_utf8(b->data, b->len) && fuzz_no_control(b->data, b->len));
	FUZZ_CHECK(json_parse(b->data, b->len, &v, &jerr) == 0, "%s", jerr.msg);
	back = json_string(v, &len);
	FUZZ_CHECK(back && fuzz_valid_utf8(back, len), "a strict string read back is not UTF-8");
	FUZZ_CHECK(len == n + 2 * bad, "%zu bytes back from %zu with %zu replaced", len, n, bad);
	if (bad == 0)
		FUZZ_CHECK(n == 0 || memcmp(back, s, n) == 0);
	json_free(v);
}

/* Same types, lengths, keys' count and numbers; every string valid UTF-8 in b. */
static void check_shape(const struct json_value *a, const struct json_value *b)
{
	size_t i, n;
	const char *s;
	double da, db;

	FUZZ_CHECK(json_type(a) == json_type(b), "the strict copy changed a type");
	switch (json_type(a)) {
	case JSON_NUMBER:
		FUZZ_CHECK(json_number(a, &da) == 0 && json_number(b, &db) == 0 && da == db);
		break;
	case JSON_STRING:
		s = json_string(b, &n);
		FUZZ_CHECK(fuzz_valid_utf8(s, n), "a string of the strict copy is not UTF-8");
		break;
	case JSON_ARRAY:
		FUZZ_CHECK(json_array_len(a) == json_array_len(b));
		for (i = 0; i < json_array_len(a); i++)
			check_shape(json_array_at(a, i), json_array_at(b, i));
		break;
	case JSON_OBJECT:
		FUZZ_CHECK(json_object_len(a) == json_object_len(b));
		for (i = 0; i < json_object_len(a); i++) {
			const char *ka, *kb;
			size_t na, nb;
			const struct json_value *ma = json_object_at(a, i, &ka, &na);
			const struct json_value *mb = json_object_at(b, i, &kb, &nb);

			FUZZ_CHECK(fuzz_valid_utf8(kb, nb), "a key of the strict copy is not UTF-8");
			check_shape(ma, mb);
		}
		break;
	default:
		break;
	}
}

/* url_redact() on any bytes. */
static void redact(const char *s, size_t n)
{
	struct buf t1 = {0}, t2 = {0};
	const char *r = s, *r2, *p;
	size_t rn = n, rn2;

	FUZZ_CHECK(url_redact(&r, &rn, &t1) == 0);
	if (!memchr(s, '@', n))
		FUZZ_CHECK(r == s && rn == n, "text without '@' was changed");
	/* No authority keeps a userinfo but the mark. */
	for (p = r; (p = memmem(p, (size_t)(r + rn - p), "://", 3)); p += 3) {
		const char *a = p + 3, *at = NULL, *q;

		for (q = a; q < r + rn && (unsigned char)*q > 0x20 && *q != 0x7F && !strchr("/?#\"'<>\\", *q); q++)
			if (*q == '@')
				at = q;
		FUZZ_CHECK(!at || at == a || (at - a == (ptrdiff_t)strlen(URL_REDACTED) &&
					       memcmp(a, URL_REDACTED, at - a) == 0),
			   "a userinfo is left: \"%.*s\"", (int)(q - a), a);
	}
	r2 = r;
	rn2 = rn;
	FUZZ_CHECK(url_redact(&r2, &rn2, &t2) == 0);
	FUZZ_CHECK(rn2 == rn && memcmp(r2, r, rn) == 0, "redacting twice changed the text");
	buf_free(&t1);
	buf_free(&t2);
}

/* Writes s with emit_json_string and checks what the reader makes of it. */
static void string_round_trip(const char *s, size_t n, struct buf *b)
{
	struct json_value *v = NULL;
	struct json_error jerr = {0};
	const char *back;
	size_t len;
	int err;

	b->len = 0;
	FUZZ_CHECK(emit_json_string(b, s, n) == 0);
	FUZZ_CHECK(b->len >= 2 && b->data[0] == '"' && b->data[b->len - 1] == '"');
	FUZZ_CHECK(fuzz_valid_utf8(b->data, b->len), "the writer made invalid UTF-8");
	FUZZ_CHECK(fuzz_no_control(b->data, b->len), "the writer left a control character");
	err = json_parse(b->data, b->len, &v, &jerr);
	FUZZ_CHECK(err == 0, "the reader refuses the writer's string at %zu: %s", jerr.offset,
		   jerr.msg);
	back = json_string(v, &len);
	FUZZ_CHECK(back != NULL && len == n && (n == 0 || memcmp(back, s, n) == 0),
		   "the string did not come back as its %zu bytes", n);
	FUZZ_CHECK(back[len] == '\0');
	json_free(v);
}

/* Writes v back as JSON: strings with the writer, numbers as written. */
static void write_value(const struct json_value *v, const char *text, struct buf *b)
{
	size_t i, n, start, end;
	const char *s, *key;

	switch (json_type(v)) {
	case JSON_NULL:
		FUZZ_CHECK(BUF_LIT(b, "null") == 0);
		break;
	case JSON_BOOL: {
		bool t;

		FUZZ_CHECK(json_bool(v, &t) == 0);
		FUZZ_CHECK((t ? BUF_LIT(b, "true") : BUF_LIT(b, "false")) == 0);
		break;
	}
	case JSON_NUMBER:
		json_span(v, &start, &end);
		FUZZ_CHECK(buf_add(b, text + start, end - start) == 0);
		break;
	case JSON_STRING:
		s = json_string(v, &n);
		FUZZ_CHECK(emit_json_string(b, s, n) == 0);
		break;
	case JSON_ARRAY:
		FUZZ_CHECK(buf_addc(b, '[') == 0);
		for (i = 0; i < json_array_len(v); i++) {
			if (i)
				FUZZ_CHECK(buf_addc(b, ',') == 0);
			write_value(json_array_at(v, i), text, b);
		}
		FUZZ_CHECK(buf_addc(b, ']') == 0);
		break;
	case JSON_OBJECT:
		FUZZ_CHECK(buf_addc(b, '{') == 0);
		for (i = 0; i < json_object_len(v); i++) {
			const struct json_value *m = json_object_at(v, i, &key, &n);

			if (i)
				FUZZ_CHECK(buf_addc(b, ',') == 0);
			FUZZ_CHECK(emit_json_string(b, key, n) == 0 && buf_addc(b, ':') == 0);
			write_value(m, text, b);
		}
		FUZZ_CHECK(buf_addc(b, '}') == 0);
		break;
	default:
		FUZZ_CHECK(0, "a value of no type in a parsed tree");
	}
}

/* Every getter on v, against what the text and the other getters say. */
static void check_value(const struct json_value *v, const char *text, size_t lo, size_t hi,
			int depth, struct buf *scratch)
{
	size_t start, end, i, n, k;
	const char *key, *s;
	int64_t iv;
	double d;

	FUZZ_CHECK(depth <= JSON_MAX_DEPTH, "a tree deeper than JSON_MAX_DEPTH");
	json_span(v, &start, &end);
	FUZZ_CHECK(lo <= start && start < end && end <= hi, "span [%zu, %zu) outside [%zu, %zu)",
		   start, end, lo, hi);
	switch (json_type(v)) {
	case JSON_NUMBER: {
		char tmp[512], *copy = end - start < sizeof(tmp) ? tmp : malloc(end - start + 1);
		bool integral = true;
		long long want;
		char *stop;

		FUZZ_CHECK(copy != NULL);
		memcpy(copy, text + start, end - start);
		copy[end - start] = '\0';
		FUZZ_CHECK(json_number(v, &d) == 0 && isfinite(d));
		FUZZ_CHECK(d == strtod(copy, &stop) && *stop == '\0', "\"%.40s\"", copy);
		integral = strpbrk(copy, ".eE") == NULL;
		errno = 0;
		want = strtoll(copy, &stop, 10);
		if (!integral)
			FUZZ_CHECK(json_int(v, &iv) == -EINVAL, "\"%.40s\" is no integer", copy);
		else if (errno == ERANGE)
			FUZZ_CHECK(json_int(v, &iv) == -ERANGE, "\"%.40s\" does not fit", copy);
		else
			FUZZ_CHECK(json_int(v, &iv) == 0 && iv == want, "\"%.40s\"", copy);
		if (copy != tmp)
			free(copy);
		break;
	}
	case JSON_STRING:
		s = json_string(v, &n);
		FUZZ_CHECK(s != NULL && text[start] == '"' && text[end - 1] == '"');
		/* A decoded string is never longer than its text. */
		FUZZ_CHECK(n <= end - start - 2);
		string_round_trip(s, n, scratch);
		break;
	case JSON_ARRAY:
		FUZZ_CHECK(text[start] == '[' && text[end - 1] == ']');
		n = json_array_len(v);
		FUZZ_CHECK(json_array_at(v, n) == NULL);
		for (i = 0; i < n; i++)
			check_value(json_array_at(v, i), text, start + 1, end - 1, depth + 1, scratch);
		break;
	case JSON_OBJECT:
		FUZZ_CHECK(text[start] == '{' && text[end - 1] == '}');
		n = json_object_len(v);
		FUZZ_CHECK(json_object_at(v, n, NULL, NULL) == NULL);
		for (i = 0; i < n; i++) {
			const struct json_value *m = json_object_at(v, i, &key, &k), *last = m;
			size_t j, kj;
			const char *kk;

			FUZZ_CHECK(key != NULL && key[k] == '\0');
			string_round_trip(key, k, scratch);
			for (j = i + 1; j < n; j++) {
				const struct json_value *mj = json_object_at(v, j, &kk, &kj);

				if (kj == k && memcmp(kk, key, k) == 0)
					last = mj;
			}
			FUZZ_CHECK(json_getn(v, key, k) == last, "json_getn is not the last member");
			check_value(m, text, start + 1, end - 1, depth + 1, scratch);
		}
		break;
	case JSON_NULL:
	case JSON_BOOL:
		break;
	default:
		FUZZ_CHECK(0, "a value of no type in a parsed tree");
	}
}

/* Two trees hold the same values, keys and order. */
static void check_same(const struct json_value *a, const struct json_value *b)
{
	size_t i, na, nb, ka, kb;
	const char *sa, *sb;
	double da, db;
	bool ba, bb;

	FUZZ_CHECK(json_type(a) == json_type(b), "types differ after writing and reading");
	switch (json_type(a)) {
	case JSON_BOOL:
		FUZZ_CHECK(json_bool(a, &ba) == 0 && json_bool(b, &bb) == 0 && ba == bb);
		break;
	case JSON_NUMBER:
		FUZZ_CHECK(json_number(a, &da) == 0 && json_number(b, &db) == 0);
		FUZZ_CHECK(da == db && signbit(da) == signbit(db));
		break;
	case JSON_STRING:
		sa = json_string(a, &na);
		sb = json_string(b, &nb);
		FUZZ_CHECK(na == nb && memcmp(sa, sb, na) == 0);
		break;
	case JSON_ARRAY:
		FUZZ_CHECK(json_array_len(a) == json_array_len(b));
		for (i = 0; i < json_array_len(a); i++)
			check_same(json_array_at(a, i), json_array_at(b, i));
		break;
	case JSON_OBJECT:
		FUZZ_CHECK(json_object_len(a) == json_object_len(b));
		for (i = 0; i < json_object_len(a); i++) {
			const struct json_value *ma = json_object_at(a, i, &sa, &ka);
			const struct json_value *mb = json_object_at(b, i, &sb, &kb);

			FUZZ_CHECK(ka == kb && memcmp(sa, sb, ka) == 0);
			check_same(ma, mb);
		}
		break;
	default:
		break;
	}
}

struct seen {
	const struct json_value *root; /* NULL: json_parse() did not read it */
	size_t i;
};

static int see(void *ctx, const struct json_member_span *m)
{
	struct seen *sn = ctx;
	const char *key;
	size_t len, s, e;
	const struct json_value *v;

	FUZZ_CHECK(m->key && m->key[m->key_len] == '\0' && m->start < m->end);
	if (sn->root) {
		v = json_object_at(sn->root, sn->i, &key, &len);
		FUZZ_CHECK(v, "json_scan_object found more members");
		json_span(v, &s, &e);
		FUZZ_CHECK(len == m->key_len && memcmp(key, m->key, len) == 0 &&
			   json_type(v) == m->type && s == m->start && e == m->end,
			   "member %zu scanned otherwise", sn->i);
	}
	sn->i++;
	return 0;
}

static void check_scan(const char *text, size_t size, const struct json_value *root,
		       const struct json_error *perr)
{
	struct seen sn = {root, 0};
	struct json_error jerr = {0};
	enum json_type type;
	int err = json_scan_object(text, size, see, &sn, &type, &jerr);

	FUZZ_CHECK(err == 0 || err == -EINVAL, "json_scan_object returned %d", err);
	if (err < 0)
		FUZZ_CHECK(jerr.msg && jerr.offset <= size);
	if (root) {
		FUZZ_CHECK(err == 0, "json_scan_object refuses what json_parse reads: %s", jerr.msg);
		FUZZ_CHECK(type == json_type(root) && sn.i == json_object_len(root));
	} else if (strcmp(perr->msg, "nesting deeper than 64") != 0 &&
		   strcmp(perr->msg, "more than 1000000 values") != 0) {
		FUZZ_CHECK(err == -EINVAL, "json_scan_object reads what json_parse refuses: %s",
			   perr->msg);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct json_value *root = NULL, *again = NULL;
	struct json_error jerr = {0};
	struct buf out = {0}, scratch = {0};
	int err;

	/* Any bytes at all, as a string. */
	string_round_trip(text, size, &scratch);
	string_strict(text, size, &scratch);
	redact(text, size);

	err = json_parse(text, size, &root, &jerr);
	FUZZ_CHECK(err == 0 || err == -EINVAL, "json_parse returned %d", err);
	check_scan(text, size, root, &jerr);
	if (err < 0) {
		FUZZ_CHECK(root == NULL && jerr.msg != NULL && jerr.offset <= size,
			   "a refusal must say where, inside the text");
		goto out;
	}
	check_value(root, text, 0, size, 0, &scratch);
	write_value(root, text, &out);
	FUZZ_CHECK(fuzz_valid_utf8(out.data, out.len), "the tree written out is not UTF-8");
	err = json_parse(out.data, out.len, &again, &jerr);
	FUZZ_CHECK(err == 0, "the tree written out does not read back: %s at %zu", jerr.msg,
		   jerr.offset);
	check_same(root, again);
	json_free(again);
	again = NULL;
	/* The strict copy of the text (--records echoes a record this way). */
	{
		size_t replaced = 0;

		out.len = 0;
		FUZZ_CHECK(emit_json_text_utf8(&out, text, size, &replaced) == 0);
		FUZZ_CHECK(fuzz_valid_utf8(out.data, out.len), "the strict copy is not UTF-8");
		if (replaced == 0)
			FUZZ_CHECK(out.len == size && memcmp(out.data, text, size) == 0,
				   "nothing replaced, yet the copy differs");
		err = json_parse(out.data, out.len, &again, &jerr);
		FUZZ_CHECK(err == 0, "the strict copy does not read back: %s at %zu", jerr.msg,
			   jerr.offset);
		check_shape(root, again);
	}
out:
	json_free(root);
	json_free(again);
	buf_free(&out);
	buf_free(&scratch);
	return 0;
}
