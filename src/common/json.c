// SPDX-License-Identifier: MIT
/* A JSON reader: recursive descent into a tree held in one arena per parse. */
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct json_member;

struct json_value {
	enum json_type type;
	size_t start, end; /* the value's bytes in the parsed text */
	union {
		bool b;
		struct {
			double d;
			int64_t i;     /* when integral and fits */
			bool integral; /* written without fraction or exponent */
			bool fits;     /* integral and within int64_t */
		} num;
		struct {
			const char *s;
			size_t len;
		} str;
		struct {
			struct json_value *items;
			size_t len;
		} arr;
		struct {
			struct json_member *members;
			size_t len;
		} obj;
	} u;
};

struct json_member {
	const char *key;
	size_t key_len;
	struct json_value value;
};

/* ---- the arena: blocks that are only ever freed together ---- */

struct block;
static void arena_free(struct block *b);

struct block {
	struct block *next;
	size_t used, cap;
	max_align_t data[];
};

struct arena {
	struct block *head;
	size_t next_cap;
};

static void *arena_alloc(struct arena *a, size_t n)
{
	const size_t align = alignof(max_align_t);
	struct block *b = a->head;
	size_t cap;

	if (n > SIZE_MAX - align)
		return NULL;
	n = (n + align - 1) & ~(align - 1);
	if (!b || b->cap - b->used < n) {
		cap = MAX(a->next_cap, n);
		if (cap > PTRDIFF_MAX - sizeof(*b))
			return NULL;
		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->next = a->head;
		b->used = 0;
		b->cap = cap;
		a->head = b;
		if (a->next_cap < SIZE_MAX / 2)
			a->next_cap *= 2;
	}
	b->used += n;
	return (char *)b->data + b->used - n;
}

/* Keeps the newest block, emptied, and frees the rest: the next string
 * reuses it (json_scan_object() needs one decoded string at a time). */
static void arena_rewind(struct arena *a)
{
	if (!a->head)
		return;
	arena_free(a->head->next);
	a->head->next = NULL;
	a->head->used = 0;
}

static void arena_free(struct block *b)
{
	struct block *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
}

/* What json_parse() hands out: the root, inside the arena it owns. */
struct doc {
	struct block *blocks;
	struct json_value root;
};

/* ---- the parser ---- */

struct parser {
	const unsigned char *text, *p, *end;
	struct arena arena;
	/* Children of the open arrays and objects, innermost last. */
	struct json_member *stack;
	size_t top, cap;
	int depth;
	size_t values;
	struct json_error *err;
};

static int fail(struct parser *ps, const unsigned char *at, int ret, const char *msg)
{
	if (ps->err) {
		ps->err->offset = (size_t)(at - ps->text);
		ps->err->msg = msg;
	}
	return ret;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' ||
				   *ps->p == '\t'))
		ps->p++;
}

static char *put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xC0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xE0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*o++ = (char)(0xF0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3F));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	}
	return o;
}

/* Decodes the string whose opening quote is at ps->p. */
static int parse_string(struct parser *ps, const char **out, size_t *out_len)
{
	const unsigned char *open = ps->p, *p = open + 1, *close;
	char *s, *o;
	int cp, lo;

	/* Find the closing quote first: the raw length bounds the decoded one. */
	for (close = p; close < ps->end && *close != '"'; close++)
		if (*close == '\\' && ++close == ps->end)
			break;
	if (close == ps->end)
		return fail(ps, open, -EINVAL, "unterminated string");
	s = arena_alloc(&ps->arena, (size_t)(close - p) + 1);
	if (!s)
		return fail(ps, open, -ENOMEM, "out of memory");
	o = s;
	while (p < close) {
		if (*p >= 0x20 && *p != '\\') {
			*o++ = (char)*p++;
			continue;
		}
		if (*p < 0x20)
			return fail(ps, p, -EINVAL, "control character in string");
		/* A backslash is never the last byte before close (see above). */
		switch (p[1]) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			cp = close - p >= 6 ? hex4(p + 2) : -1;
			if (cp < 0)
				return fail(ps, p, -EINVAL, "invalid \\u escape");
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				lo = close - p >= 12 && p[6] == '\\' && p[7] == 'u' ? hex4(p + 8) : -1;
				if (lo < 0xDC00 || lo > 0xDFFF)
					return fail(ps, p, -EINVAL, "unpaired surrogate");
				o = put_utf8(o, 0x10000 + ((uint32_t)(cp - 0xD800) << 10) +
						    (uint32_t)(lo - 0xDC00));
				p += 12;
				continue;
			}
			if (cp >= 0xDC80 && cp <= 0xDCFF) {
				/* surrogateescape: the byte emit_json_string() could not write */
				*o++ = (char)(cp & 0xFF);
			} else if (cp >= 0xDC00 && cp <= 0xDFFF) {
				return fail(ps, p, -EINVAL, "unpaired surrogate");
			} else {
				o = put_utf8(o, (uint32_t)cp);
			}
			p += 6;
			continue;
		default:
			return fail(ps, p, -EINVAL, "invalid escape");
		}
		p += 2;
	}
	*o = '\0';
	*out = s;
	*out_len = (size_t)(o - s);
	ps->p = close + 1;
	return 0;
}

static bool is_digit(const unsigned char *p, const unsigned char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

static int parse_number(struct parser *ps, struct json_value *v)
{
	const unsigned char *s = ps->p, *p = s, *end = ps->end;
	uint64_t mag = 0, limit;
	bool neg = false;
	char tmp[64], *copy = tmp;
	size_t n;

	v->type = JSON_NUMBER;
	v->u.num.integral = true;
	v->u.num.fits = true;
	if (*p == '-') {
		neg = true;
		p++;
	}
	if (!is_digit(p, end))
		return fail(ps, s, -EINVAL, "invalid number");
	if (*p == '0' && is_digit(p + 1, end))
		return fail(ps, s, -EINVAL, "leading zero in number");
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; is_digit(p, end); p++) {
		unsigned d = *p - '0';

		if (mag > (limit - d) / 10)
			v->u.num.fits = false;
		else
			mag = mag * 10 + d;
	}
	if (p < end && *p == '.') {
		v->u.num.integral = false;
		if (!is_digit(++p, end))
			return fail(ps, s, -EINVAL, "invalid number");
		while (is_digit(p, end))
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		v->u.num.integral = false;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (!is_digit(p, end))
			return fail(ps, s, -EINVAL, "invalid number");
		while (is_digit(p, end))
			p++;
	}
	v->u.num.fits &= v->u.num.integral;
	if (v->u.num.fits && neg)
		v->u.num.i = mag > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)mag;
	else if (v->u.num.fits)
		v->u.num.i = (int64_t)mag;
	/* strtod() wants a terminated copy; the text may end right here. */
	n = (size_t)(p - s);
	if (n >= sizeof(tmp)) {
		copy = arena_alloc(&ps->arena, n + 1);
		if (!copy)
			return fail(ps, s, -ENOMEM, "out of memory");
	}
	memcpy(copy, s, n);
	copy[n] = '\0';
	v->u.num.d = strtod(copy, NULL);
	if (isinf(v->u.num.d))
		return fail(ps, s, -EINVAL, "number out of range");
	ps->p = p;
	return 0;
}

static int parse_literal(struct parser *ps, struct json_value *v)
{
	static const struct {
		const char *word;
		size_t len;
		enum json_type type;
		bool b;
	} lits[] = {
		{"true", 4, JSON_BOOL, true},
		{"false", 5, JSON_BOOL, false},
		{"null", 4, JSON_NULL, false},
	};
	size_t i, left = (size_t)(ps->end - ps->p);

	for (i = 0; i < ARRAY_SIZE(lits); i++) {
		if (left >= lits[i].len && memcmp(ps->p, lits[i].word, lits[i].len) == 0) {
			v->type = lits[i].type;
			v->u.b = lits[i].b;
			ps->p += lits[i].len;
			return 0;
		}
	}
	return fail(ps, ps->p, -EINVAL, "expected a value");
}

static int push(struct parser *ps, const char *key, size_t key_len, const struct json_value *v)
{
	if (grow(&ps->stack, &ps->cap, ps->top + 1, sizeof(*ps->stack)) < 0)
		return fail(ps, ps->p, -ENOMEM, "out of memory");
	ps->stack[ps->top++] = (struct json_member){key, key_len, *v};
	return 0;
}

static int parse_value(struct parser *ps, struct json_value *v);

/* Parses the array or object whose bracket is at ps->p. */
static int parse_container(struct parser *ps, struct json_value *v)
{
	bool object = *ps->p == '{';
	unsigned char close = object ? '}' : ']';
	const unsigned char *comma = NULL;
	size_t mark = ps->top, n, i;
	struct json_value item;
	const char *key = NULL;
	size_t key_len = 0;
	int err;

	if (++ps->depth > JSON_MAX_DEPTH)
		return fail(ps, ps->p, -EINVAL, "nesting deeper than 64");
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close)
		goto closed;
	for (;;) {
		skip_ws(ps);
		if (comma && ps->p < ps->end && *ps->p == close)
			return fail(ps, comma, -EINVAL, "trailing comma");
		if (object) {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, ps->p, -EINVAL, "expected a string key");
			err = parse_string(ps, &key, &key_len);
			if (err < 0)
				return err;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, ps->p, -EINVAL, "expected ':'");
			ps->p++;
		}
		/* Into a local: the recursion may move ps->stack. */
		err = parse_value(ps, &item);
		if (err < 0)
			return err;
		err = push(ps, key, key_len, &item);
		if (err < 0)
			return err;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			comma = ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close)
			break;
		return fail(ps, ps->p, -EINVAL, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
closed:
	ps->p++;
	ps->depth--;
	n = ps->top - mark;
	v->type = object ? JSON_OBJECT : JSON_ARRAY;
	if (object) {
		v->u.obj.len = n;
		v->u.obj.members = NULL;
		if (n) {
			v->u.obj.members = arena_alloc(&ps->arena, n * sizeof(struct json_member));
			if (!v->u.obj.members)
				return fail(ps, ps->p, -ENOMEM, "out of memory");
			memcpy(v->u.obj.members, ps->stack + mark, n * sizeof(struct json_member));
		}
	} else {
		v->u.arr.len = n;
		v->u.arr.items = NULL;
		if (n) {
			v->u.arr.items = arena_alloc(&ps->arena, n * sizeof(struct json_value));
			if (!v->u.arr.items)
				return fail(ps, ps->p, -ENOMEM, "out of memory");
			for (i = 0; i < n; i++)
				v->u.arr.items[i] = ps->stack[mark + i].value;
		}
	}
	ps->top = mark;
	return 0;
}

static int parse_value(struct parser *ps, struct json_value *v)
{
	int err;

	skip_ws(ps);
	memset(v, 0, sizeof(*v));
	if (ps->p >= ps->end)
		return fail(ps, ps->p, -EINVAL, "expected a value");
	if (++ps->values > JSON_MAX_VALUES)
		return fail(ps, ps->p, -EINVAL, "more than 1000000 values");
	v->start = (size_t)(ps->p - ps->text);
	switch (*ps->p) {
	case '{':
	case '[':
		err = parse_container(ps, v);
		break;
	case '"':
		v->type = JSON_STRING;
		err = parse_string(ps, &v->u.str.s, &v->u.str.len);
		break;
	case '-':
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		err = parse_number(ps, v);
		break;
	default:
		err = parse_literal(ps, v);
		break;
	}
	v->end = (size_t)(ps->p - ps->text);
	return err;
}

int json_parse(const char *text, size_t len, struct json_value **out,
	       struct json_error *err)
{
	struct parser ps = {
		.text = (const unsigned char *)text,
		.p = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
		/* Decoded strings never outgrow the text: one block fits most records. */
		.arena.next_cap = len < SIZE_MAX / 2 ? MAX(len + len / 2, (size_t)4096) : len,
		.err = err,
	};
	struct doc *d;
	int ret;

	*out = NULL;
	d = arena_alloc(&ps.arena, sizeof(*d));
	if (!d) {
		ret = fail(&ps, ps.p, -ENOMEM, "out of memory");
		goto out;
	}
	ret = parse_value(&ps, &d->root);
	if (ret < 0)
		goto out;
	skip_ws(&ps);
	if (ps.p < ps.end) {
		ret = fail(&ps, ps.p, -EINVAL, "trailing characters after the value");
		goto out;
	}
	d->blocks = ps.arena.head;
	ps.arena.head = NULL;
	*out = &d->root;
out:
	arena_free(ps.arena.head);
	free(ps.stack);
	return ret;
}

void json_free(struct json_value *root)
{
	if (root)
		arena_free(((struct doc *)((char *)root - offsetof(struct doc, root)))->blocks);
}

/* ---- getters ---- */

enum json_type json_type(const struct json_value *v)
{
	return v ? v->type : JSON_NONE;
}

const char *json_type_name(enum json_type t, const char *none)
{
	switch (t) {
	case JSON_NULL: return "null";
	case JSON_BOOL: return "a boolean";
	case JSON_NUMBER: return "a number";
	case JSON_STRING: return "a string";
	case JSON_ARRAY: return "an array";
	case JSON_OBJECT: return "an object";
	default: return none;
	}
}

void json_span(const struct json_value *v, size_t *start, size_t *end)
{
	*start = v ? v->start : 0;
	*end = v ? v->end : 0;
}

const struct json_value *json_getn(const struct json_value *v, const char *key, size_t n)
{
	size_t i;

	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (i = v->u.obj.len; i-- > 0;) {
		const struct json_member *m = &v->u.obj.members[i];

		if (m->key_len == n && memcmp(m->key, key, n) == 0)
			return &m->value;
	}
	return NULL;
}

const struct json_value *json_get(const struct json_value *v, const char *key)
{
	return json_getn(v, key, strlen(key));
}

const char *json_string(const struct json_value *v, size_t *len)
{
	if (!v || v->type != JSON_STRING)
		return NULL;
	if (len)
		*len = v->u.str.len;
	return v->u.str.s;
}

int json_number(const struct json_value *v, double *d)
{
	if (!v || v->type != JSON_NUMBER)
		return -EINVAL;
	*d = v->u.num.d;
	return 0;
}

int json_int(const struct json_value *v, int64_t *i)
{
	if (!v || v->type != JSON_NUMBER || !v->u.num.integral)
		return -EINVAL;
	if (!v->u.num.fits)
		return -ERANGE;
	*i = v->u.num.i;
	return 0;
}

int json_bool(const struct json_value *v, bool *b)
{
	if (!v || v->type != JSON_BOOL)
		return -EINVAL;
	*b = v->u.b;
	return 0;
}

size_t json_array_len(const struct json_value *v)
{
	return v && v->type == JSON_ARRAY ? v->u.arr.len : 0;
}

const struct json_value *json_array_at(const struct json_value *v, size_t i)
{
	return i < json_array_len(v) ? &v->u.arr.items[i] : NULL;
}

size_t json_object_len(const struct json_value *v)
{
	return v && v->type == JSON_OBJECT ? v->u.obj.len : 0;
}

const struct json_value *json_object_at(const struct json_value *v, size_t i,
					const char **key, size_t *key_len)
{
	const struct json_member *m;

	if (i >= json_object_len(v))
		return NULL;
	m = &v->u.obj.members[i];
	if (key)
		*key = m->key;
	if (key_len)
		*key_len = m->key_len;
	return &m->value;
}

/* ---- the tree-less scan ---- */

/* The open containers, one bit each (1: an object), innermost last. */
struct kinds {
	unsigned char *bits;
	size_t cap, depth;
};

static int kinds_push(struct kinds *k, bool object)
{
	size_t byte = k->depth / 8;

	if (grow(&k->bits, &k->cap, byte + 1, 1) < 0)
		return -ENOMEM;
	if (object)
		k->bits[byte] |= (unsigned char)(1u << (k->depth % 8));
	else
		k->bits[byte] &= (unsigned char)~(1u << (k->depth % 8));
	k->depth++;
	return 0;
}

static bool kinds_object(const struct kinds *k)
{
	size_t d = k->depth - 1;

	return k->bits[d / 8] >> (d % 8) & 1;
}

static enum json_type type_at(unsigned char c)
{
	switch (c) {
	case '{': return JSON_OBJECT;
	case '[': return JSON_ARRAY;
	case '"': return JSON_STRING;
	case 't': case 'f': return JSON_BOOL;
	case 'n': return JSON_NULL;
	default: return JSON_NUMBER;
	}
}

/*
 * The same grammar as parse_value(), without recursion: a loop over the
 * bytes with the open containers' kinds on a bit stack, so that nesting
 * costs a bit a level and no value is kept.
 */
int json_scan_object(const char *text, size_t len, json_member_fn fn, void *ctx,
		     enum json_type *type, struct json_error *err)
{
	struct parser ps = {
		.text = (const unsigned char *)text,
		.p = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
		.arena.next_cap = 4096,
		.err = err,
	};
	struct kinds k = {0};
	struct json_member_span m = {0};
	struct json_value scalar;
	char *key = NULL;
	size_t key_cap = 0;
	const unsigned char *comma;
	bool in_member = false;
	const char *s;
	size_t n;
	int ret = 0;

	*type = JSON_NONE;
	skip_ws(&ps);
	if (ps.p < ps.end)
		*type = type_at(*ps.p);
value:
	skip_ws(&ps);
	if (ps.p >= ps.end) {
		ret = fail(&ps, ps.p, -EINVAL, "expected a value");
		goto out;
	}
	if (k.depth == 1 && *type == JSON_OBJECT) {
		in_member = true;
		m.type = type_at(*ps.p);
		m.start = (size_t)(ps.p - ps.text);
	}
	if (*ps.p == '{' || *ps.p == '[') {
		bool object = *ps.p == '{';

		ret = kinds_push(&k, object);
		if (ret < 0) {
			ret = fail(&ps, ps.p, ret, "out of memory");
			goto out;
		}
		ps.p++;
		skip_ws(&ps);
		if (ps.p < ps.end && *ps.p == (object ? '}' : ']')) {
			k.depth--;
			ps.p++;
			goto done;
		}
		if (object)
			goto key;
		goto value;
	}
	arena_rewind(&ps.arena);
	if (*ps.p == '"')
		ret = parse_string(&ps, &s, &n);
	else if (*ps.p == '-' || (*ps.p >= '0' && *ps.p <= '9'))
		ret = parse_number(&ps, &scalar);
	else
		ret = parse_literal(&ps, &scalar);
	if (ret < 0)
		goto out;
done:
	/* A value ended; k.depth containers are still open around it. */
	if (k.depth == 1 && in_member) {
		in_member = false;
		m.end = (size_t)(ps.p - ps.text);
		ret = fn(ctx, &m);
		if (ret < 0)
			goto out;
	}
	if (k.depth == 0) {
		skip_ws(&ps);
		if (ps.p < ps.end)
			ret = fail(&ps, ps.p, -EINVAL, "trailing characters after the value");
		goto out;
	}
	skip_ws(&ps);
	if (ps.p < ps.end && *ps.p == ',') {
		comma = ps.p++;
		skip_ws(&ps);
		if (ps.p < ps.end && *ps.p == (kinds_object(&k) ? '}' : ']')) {
			ret = fail(&ps, comma, -EINVAL, "trailing comma");
			goto out;
		}
		if (kinds_object(&k))
			goto key;
		goto value;
	}
	if (ps.p < ps.end && *ps.p == (kinds_object(&k) ? '}' : ']')) {
		k.depth--;
		ps.p++;
		goto done;
	}
	ret = fail(&ps, ps.p, -EINVAL,
		   kinds_object(&k) ? "expected ',' or '}'" : "expected ',' or ']'");
	goto out;
key:
	if (ps.p >= ps.end || *ps.p != '"') {
		ret = fail(&ps, ps.p, -EINVAL, "expected a string key");
		goto out;
	}
	arena_rewind(&ps.arena);
	ret = parse_string(&ps, &s, &n);
	if (ret < 0)
		goto out;
	if (k.depth == 1) {
		/* Kept past the value's strings, which reuse the arena. */
		if (grow(&key, &key_cap, n + 1, 1) < 0) {
			ret = fail(&ps, ps.p, -ENOMEM, "out of memory");
			goto out;
		}
		memcpy(key, s, n + 1);
		m.key = key;
		m.key_len = n;
	}
	skip_ws(&ps);
	if (ps.p >= ps.end || *ps.p != ':') {
		ret = fail(&ps, ps.p, -EINVAL, "expected ':'");
		goto out;
	}
	ps.p++;
	goto value;
out:
	arena_free(ps.arena.head);
	free(k.bits);
	free(key);
	return ret;
}
