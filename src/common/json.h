/* SPDX-License-Identifier: MIT */
/*
 * A JSON reader for JSONL records: one text in, one read-only tree out.
 *
 * json_parse() returns a tree the caller frees with json_free() on that
 * root; every value, key and string in it lives until then and is owned by
 * the tree. Getters return pointers into the tree; none takes ownership of
 * its arguments, and every getter accepts NULL (and then reports "absent"),
 * so lookups chain: json_string(json_get(rec, "response"), &n).
 *
 * What it accepts is RFC 8259 with these choices:
 *  - Strings are decoded to UTF-8 and carry a length (\u0000 is a NUL
 *    byte); they are also NUL-terminated for convenience.
 *  - Raw bytes >= 0x80 in strings are copied as they are, not checked as
 *    UTF-8: our corpora are valid UTF-8 and our writer (emit.h) only writes
 *    valid UTF-8.
 *  - \uD800-\uDBFF must be followed by \uDC00-\uDFFF (one code point). A
 *    lone \uDC80-\uDCFF decodes to the single byte 0x80-0xFF, undoing the
 *    "surrogateescape" of emit_json_string(); any other lone surrogate is
 *    an error.
 *  - Unescaped control characters (< 0x20) in strings are an error.
 *  - Nesting deeper than JSON_MAX_DEPTH arrays and objects is an error, and
 *    so is a text of more than JSON_MAX_VALUES values (members and items
 *    count, each key with its value once): a value costs ~100 bytes of tree,
 *    so a text of tiny values would take fifty times its size without it.
 *  - A number too large for a double is an error; one too small becomes 0.
 *    Conversion uses strtod(), so LC_NUMERIC must be "C" (halluscan never
 *    calls setlocale()).
 *  - An object keeps duplicate keys; json_get() finds the last, as Python
 *    and jq do.
 *  - Whitespace may surround the value; anything else after it is an error.
 */
#ifndef HALLUSCAN_JSON_H
#define HALLUSCAN_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 64
/* Far above a labelled record (177 values at most in our corpora): ~100 MB of tree. */
#define JSON_MAX_VALUES 1000000

enum json_type {
	JSON_NONE,	/* no value: the getter was given NULL */
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json_value;

/* Where parsing stopped and why; msg is a static string. */
struct json_error {
	size_t offset; /* bytes from the start of the text */
	const char *msg;
};

/*
 * Parses text[0, len) (it need not be NUL-terminated) into *out.
 * Returns 0, -EINVAL for text that is not one JSON value, or -ENOMEM;
 * on failure *out is NULL and err, when not NULL, says where and why.
 */
int json_parse(const char *text, size_t len, struct json_value **out,
	       struct json_error *err);
/* Frees a whole tree; root must be what json_parse() returned (or NULL). */
void json_free(struct json_value *root);

enum json_type json_type(const struct json_value *v);
/* A type as a message says it ("a string", "an object"); none for JSON_NONE. */
const char *json_type_name(enum json_type t, const char *none);
/* The value's bytes in the parsed text: text[*start, *end). */
void json_span(const struct json_value *v, size_t *start, size_t *end);

/* The member named key, or NULL when v is not an object or has no such key. */
const struct json_value *json_get(const struct json_value *v, const char *key);
/* The same, for a key of n bytes that may contain NUL. */
const struct json_value *json_getn(const struct json_value *v, const char *key, size_t n);

/* The decoded string (NUL-terminated, *len bytes), or NULL when v is not a string. */
const char *json_string(const struct json_value *v, size_t *len);
/* Returns 0, or -EINVAL when v is not a number. */
int json_number(const struct json_value *v, double *d);
/*
 * For a number written as an integer (no fraction, no exponent), its exact
 * value, also past 2^53. Returns 0, -EINVAL when v is not such a number,
 * or -ERANGE when it does not fit in int64_t.
 */
int json_int(const struct json_value *v, int64_t *i);
/* Returns 0, or -EINVAL when v is not true or false. */
int json_bool(const struct json_value *v, bool *b);

/* Arrays: the length (0 when v is not an array) and the i-th item (or NULL). */
size_t json_array_len(const struct json_value *v);
const struct json_value *json_array_at(const struct json_value *v, size_t i);

/* Objects in text order: the length (0 when v is not an object) and the
 * i-th member's value (or NULL), its key and the key's length. */
size_t json_object_len(const struct json_value *v);
const struct json_value *json_object_at(const struct json_value *v, size_t i,
					const char **key, size_t *key_len);

/* A member of the object json_scan_object() reads. */
struct json_member_span {
	const char *key;      /* decoded, NUL-terminated; valid during the call only */
	size_t key_len;
	enum json_type type;  /* the value's */
	size_t start, end;    /* the value's bytes: text[start, end) */
};
typedef int (*json_member_fn)(void *ctx, const struct json_member_span *m);

/*
 * Checks text[0, len) as json_parse() does, but with no limit on depth or
 * values and no tree: memory is a bit per level of nesting and the longest
 * string. *type is set to the top value's type (JSON_NONE for none); when
 * that is an object, fn is called for each of its members in text order
 * (before the text is known to be valid: a caller uses what it saw only
 * when this returns 0). Returns 0, -EINVAL (err says where and why),
 * -ENOMEM, or what fn returned when negative (the scan stops there).
 */
int json_scan_object(const char *text, size_t len, json_member_fn fn, void *ctx,
		     enum json_type *type, struct json_error *err);

#endif
