// SPDX-License-Identifier: MIT
/*
 * A ruleset's binary form, which the program loads without YAML or hashing (written at build
 * time), and the digest of its packs, which ruleset_finish() makes after rules.c's checks.
 * (Split from rules.c by scripts/split.py.)
 */
#include "rules.h"
#include "rules_int.h"

#include "common/sha256.h"
#include "template.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

static void digest_str(struct sha256 *h, const char *s)
{
	/* Length-prefixed so that field boundaries cannot be forged. */
	uint64_t n = s ? strlen(s) + 1 : 0;

	sha256_update(h, &n, sizeof(n));
	if (s)
		sha256_update(h, s, n - 1);
}

static void digest_examples(struct sha256 *h, const struct example *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		digest_str(h, e[i].text);
		digest_str(h, e[i].match);
	}
}

static void compute_digest(const struct ruleset *rs, char out_hex[65])
{
	unsigned char out[32];
	struct sha256 h;
	size_t i, j;

	sha256_init(&h);
	digest_str(&h, "halluscan-ruleset-1");
	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		digest_str(&h, r->id);
		digest_str(&h, r->signal);
		digest_str(&h, r->pattern);
		/* A list compiles otherwise than its alternation written out. */
		for (j = 0; j < r->n_alternatives; j++)
			digest_str(&h, r->alternatives[j]);
		digest_str(&h, r->caseless ? "caseless" : "");
		digest_str(&h, severity_name(r->severity));
		digest_str(&h, r->message);
		digest_str(&h, r->recovery);
		digest_str(&h, r->unless_before);
		digest_str(&h, r->unless_after);
		digest_str(&h, grounding_name(r->grounding));
		for (j = 0; j < QC_CLASSES; j++)
			if (r->quantities & (1u << j))
				digest_str(&h, quantity_class_name((enum quantity_class)j));
		if (r->near.signal) {
			char tol[32];

			snprintf(tol, sizeof(tol), "%.17g", r->near.tolerance);
			digest_str(&h, r->near.signal);
			digest_str(&h, r->near.message);
			digest_str(&h, r->near.recovery);
			digest_str(&h, tol);
			for (j = 0; j < r->near.n_fix; j++)
				digest_str(&h, r->near.fix[j]);
		}
		for (j = 0; j < r->n_fix; j++)
			digest_str(&h, r->fix[j]);
		for (j = 0; j < r->n_unless_sentence; j++)
			digest_str(&h, r->unless_sentence[j]);
		if (r->pressure)
			digest_str(&h, pressure_name(r->pressure));
		if (r->extend)
			digest_str(&h, "extend: url");
		if (r->wake_on) {
			digest_str(&h, "wake_on");
			digest_str(&h, r->wake_on);
		}
		digest_str(&h, "examples");
		digest_examples(&h, r->examples, r->n_examples);
		digest_str(&h, "negatives");
		digest_examples(&h, r->negatives, r->n_negatives);
		if (r->n_fix_examples) {
			digest_str(&h, "fix_examples");
			digest_examples(&h, r->fix_examples, r->n_fix_examples);
		}
	}
	for (i = 0; i < rs->n_spans; i++) {
		digest_str(&h, rs->spans[i].name);
		digest_str(&h, rs->spans[i].open);
		digest_str(&h, rs->spans[i].close);
	}
	for (i = 0; i < rs->n_contexts; i++) {
		digest_str(&h, rs->contexts[i].name);
		for (j = 0; j < rs->contexts[i].n_escalate; j++)
			digest_str(&h, rs->contexts[i].escalate[j]);
	}
	for (i = 0; i < rs->n_triggers; i++) {
		const struct trigger *t = &rs->triggers[i];

		digest_str(&h, "trigger");
		digest_str(&h, t->name);
		digest_str(&h, t->pattern);
		for (j = 0; j < t->n_escalate; j++)
			digest_str(&h, t->escalate[j]);
		digest_examples(&h, t->examples, t->n_examples);
		digest_str(&h, "negatives");
		digest_examples(&h, t->negatives, t->n_negatives);
	}
	/* Absent from a ruleset without lists: its digest is the one it had before lists. */
	for (i = 0; i < rs->n_lists; i++) {
		digest_str(&h, "list");
		digest_str(&h, rs->lists[i].name);
		for (j = 0; j < rs->lists[i].n_words; j++)
			digest_str(&h, rs->lists[i].words[j]);
	}
	sha256_final(&h, out);
	sha256_hex(out, out_hex);
}

int ruleset_check_digest(const struct ruleset *rs)
{
	char hex[65];

	compute_digest(rs, hex);
	return strcmp(hex, rs->digest) == 0 ? 0 : -EBADMSG;
}

/*
 * The binary form. codec_ruleset() is the one field list, walked both to
 * write and to read, so that the two cannot drift apart; a field added to
 * the structs goes there, with RULES_BLOB_VERSION raised.
 *
 * A u32 is four bytes little-endian, a double its IEEE-754 bits as two
 * u32, a string its length + 1 (0: NULL) and then its bytes and NUL, a where its
 * file's index + 1 in the files table (0: none), line and column. Reading
 * checks each length against the bytes left and each count, enum and index
 * against its range; the first error stops the walk.
 */
#define RULES_BLOB_MAGIC 0x52534c48u /* "HLSR" */

#define RULES_BLOB_VERSION 9u

struct codec {
	bool writing;
	struct buf *out;                   /* writing */
	const unsigned char *at, *end;     /* reading */
	struct ruleset *rs;                /* its files table serves codec_where() */
	char *arena;                       /* reading: where the strings go, */
	size_t arena_used, arena_len;      /* each with its NUL */
	bool lazy;                         /* reading: leave the rules' examples in the data, */
	bool borrow;                       /* and point the strings into it */
	bool trusted;                      /* reading the built-in data: see trusted_string() */
	size_t files_base;                 /* reading: the data's files table in rs->files */
	const unsigned char *data;         /* reading: where the data starts */
	const struct lists_image *lists;   /* reading: the lists decoded already, or NULL */
	size_t *lists_at;                  /* writing: where the lists begin, or NULL */
	int err;
	const char *why;                   /* for -EINVAL */
};

static void codec_fail(struct codec *c, int err, const char *why)
{
	if (c->err == 0) {
		c->err = err;
		c->why = why;
	}
}

static void codec_put(struct codec *c, const void *p, size_t n)
{
	if (c->err == 0 && buf_add(c->out, p, n) < 0)
		codec_fail(c, -ENOMEM, "out of memory");
}

/* The next n bytes read, or NULL after an error or when fewer are left. */
static const unsigned char *codec_take(struct codec *c, size_t n)
{
	const unsigned char *p = c->at;

	if (c->err)
		return NULL;
	if ((size_t)(c->end - c->at) < n) {
		codec_fail(c, -EINVAL, "truncated");
		return NULL;
	}
	c->at += n;
	return p;
}

static inline void codec_u32(struct codec *c, uint32_t *v)
{
	const unsigned char *p;

	if (c->writing) {
		unsigned char b[4] = {(unsigned char)*v, (unsigned char)(*v >> 8),
				      (unsigned char)(*v >> 16), (unsigned char)(*v >> 24)};

		codec_put(c, b, sizeof(b));
		return;
	}
	/* Reading: inline, as it is asked for every field of every rule. */
	if (c->err == 0 && c->end - c->at >= 4) {
		p = c->at;
		c->at += 4;
		*v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		return;
	}
	p = codec_take(c, 4);
	if (p)
		*v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Bools and enums: stored only when reading, and only when at most max. */
#define CODEC_ENUM(c, field, max)                                              \
	do {                                                                   \
		uint32_t v_ = (uint32_t)(field);                               \
		codec_u32((c), &v_);                                           \
		if (!(c)->writing && (c)->err == 0) {                          \
			if (v_ > (uint32_t)(max))                              \
				codec_fail((c), -EINVAL, "value out of range"); \
			else                                                   \
				(field) = v_;                                  \
		}                                                              \
	} while (0)

static void codec_unsigned(struct codec *c, unsigned *v)
{
	uint32_t u = *v;

	codec_u32(c, &u);
	if (!c->writing)
		*v = u;
}

static void codec_double(struct codec *c, double *v)
{
	uint64_t bits;
	uint32_t lo, hi;

	memcpy(&bits, v, sizeof(bits));
	lo = (uint32_t)bits;
	hi = (uint32_t)(bits >> 32);
	codec_u32(c, &lo);
	codec_u32(c, &hi);
	if (!c->writing) {
		bits = (uint64_t)hi << 32 | lo;
		memcpy(v, &bits, sizeof(bits));
	}
}

/*
 * A count of items that each take at least a byte, so that reading can
 * refuse one larger than the bytes left before it allocates for it.
 */
static void codec_count(struct codec *c, size_t *n)
{
	uint32_t v = (uint32_t)*n;

	if (c->writing && *n > UINT32_MAX)
		codec_fail(c, -EINVAL, "too many items");
	codec_u32(c, &v);
	if (c->writing || c->err)
		return;
	if (v > (size_t)(c->end - c->at))
		codec_fail(c, -EINVAL, "count past the end");
	else
		*n = v;
}

/*
 * A string of the built-in data, where it lies. mkdb read that data back
 * through every check of codec_string() before it wrote it into the
 * program (check_round_trip()), and the unit tests read it so; here the
 * lengths and the closing NUL are still checked, so that nothing is read
 * outside the data, but no string is searched for a NUL inside it: that
 * search, a call for each of the 1,300 strings, and the general path were
 * half of the decoding, a seventh of a 4 KB message's instructions.
 */
static void trusted_string(struct codec *c, char **s, bool required)
{
	const unsigned char *p = c->at;
	uint32_t n;

	if (c->err || c->end - p < 4) {
		codec_fail(c, -EINVAL, "truncated");
		return;
	}
	n = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	p += 4;
	if (n == 0) {
		c->at = p;
		if (required)
			codec_fail(c, -EINVAL, "a required string is missing");
		return;
	}
	if ((size_t)(c->end - p) < n) {
		codec_fail(c, -EINVAL, "truncated");
		return;
	}
	if (p[n - 1] != '\0') {
		codec_fail(c, -EINVAL, "a string holds a NUL or lacks its own");
		return;
	}
	*s = (char *)(uintptr_t)p;
	c->at = p + n;
}

static void general_string(struct codec *c, char **s, bool required)
{
	size_t len = c->writing && *s ? strlen(*s) : 0;
	uint32_t n = c->writing && *s ? (uint32_t)len + 1 : 0;
	const unsigned char *p;

	if (c->writing && len >= UINT32_MAX)
		codec_fail(c, -EINVAL, "string too long");
	codec_u32(c, &n);
	if (n == 0) {
		if (required)
			codec_fail(c, -EINVAL, "a required string is missing");
		return;
	}
	if (c->writing) {
		codec_put(c, *s, n); /* with its NUL */
		return;
	}
	p = codec_take(c, n);
	if (!p)
		return;
	if (p[n - 1] != '\0' || memchr(p, '\0', n - 1)) {
		codec_fail(c, -EINVAL, "a string holds a NUL or lacks its own");
		return;
	}
	/* Data that outlives the ruleset holds the string as it is. */
	if (c->borrow) {
		*s = (char *)(uintptr_t)p;
		return;
	}
	/* The arena has room: a string of n bytes took n + 4 of the input. */
	if (c->arena && c->arena_len - c->arena_used >= n) {
		*s = c->arena + c->arena_used;
		memcpy(*s, p, n);
		c->arena_used += n;
		return;
	}
	*s = xstrndup((const char *)p, n - 1);
	if (!*s)
		codec_fail(c, -ENOMEM, "out of memory");
}

/* required: NULL is refused both ways, so a reader need not check for it. */
static inline void codec_string(struct codec *c, char **s, bool required)
{
	if (c->trusted)
		trusted_string(c, s, required);
	else
		general_string(c, s, required);
}

static void codec_str(struct codec *c, char **s)
{
	codec_string(c, s, true);
}

static void codec_opt_str(struct codec *c, char **s)
{
	codec_string(c, s, false);
}

/* For codec_array() of strings. */
static void codec_str_v(struct codec *c, void *s)
{
	codec_str(c, s);
}

/*
 * An array of *n items of elem bytes, each walked by fn. Reading allocates
 * it zeroed and sets *n first, so that ruleset_free() frees a partial read.
 */
static void codec_array(struct codec *c, void *arr, size_t *n, size_t elem,
			void (*fn)(struct codec *, void *))
{
	char **base = arr;
	size_t i;

	codec_count(c, n);
	if (!c->writing && c->err == 0 && *n > 0) {
		*base = calloc(*n, elem);
		if (!*base) {
			*n = 0;
			codec_fail(c, -ENOMEM, "out of memory");
		}
	}
	/* The built-in word lists: a thousand strings, without a call each. */
	if (c->trusted && fn == codec_str_v) {
		for (i = 0; i < *n && c->err == 0; i++)
			trusted_string(c, (char **)(void *)(*base + i * elem), true);
		return;
	}
	for (i = 0; i < *n && c->err == 0; i++)
		fn(c, *base + i * elem);
}

static void codec_where(struct codec *c, struct where *w)
{
	const struct ruleset *rs = c->rs;
	uint32_t file = 0;
	size_t i;

	if (c->writing && w->file) {
		for (i = 0; i < rs->n_files && rs->files[i] != w->file; i++)
			;
		if (i == rs->n_files)
			codec_fail(c, -EINVAL, "a location outside the files table");
		file = (uint32_t)i + 1;
	}
	codec_u32(c, &file);
	codec_unsigned(c, &w->line);
	codec_unsigned(c, &w->col);
	if (c->writing || c->err || file == 0)
		return;
	if (file > rs->n_files - c->files_base)
		codec_fail(c, -EINVAL, "a location outside the files table");
	else
		w->file = rs->files[c->files_base + file - 1];
}

static void codec_example(struct codec *c, void *p)
{
	struct example *e = p;

	codec_str(c, &e->text);
	codec_opt_str(c, &e->match);
	codec_where(c, &e->at);
}

static void codec_example_arrays(struct codec *c, struct rule *r)
{
	codec_array(c, &r->examples, &r->n_examples, sizeof(struct example), codec_example);
	codec_array(c, &r->negatives, &r->n_negatives, sizeof(struct example), codec_example);
	codec_array(c, &r->fix_examples, &r->n_fix_examples, sizeof(struct example), codec_example);
}

/*
 * Decodes a rule's lazy examples into its arrays, their strings as parent
 * reads strings (its arena, or borrowed), and leaves nothing lazy. The
 * strings of a failed decode are freed by what holds them (str_free()).
 */
static int decode_lazy(const struct ruleset *rs, struct rule *r, struct codec *parent)
{
	struct codec c = {.at = r->lazy.at, .end = r->lazy.at + r->lazy.len,
			  .rs = (struct ruleset *)rs, .arena = parent->arena,
			  .arena_used = parent->arena_used, .arena_len = parent->arena_len,
			  .borrow = parent->borrow, .files_base = r->lazy.files_base};

	codec_example_arrays(&c, r);
	if (c.err == 0 && (c.at != c.end || r->n_examples != r->lazy.n[0] ||
			   r->n_negatives != r->lazy.n[1] || r->n_fix_examples != r->lazy.n[2]))
		codec_fail(&c, -EINVAL, "examples other than their counts");
	if (c.err) {
		free_example_arrays(rs, r);
		return c.err;
	}
	parent->arena_used = c.arena_used;
	memset(&r->lazy, 0, sizeof(r->lazy));
	return 0;
}

/*
 * A rule's examples: their three counts, their bytes' length, then the
 * three arrays, so that a reader that keeps the data (c->lazy) skips them
 * at the cost of a length (a start-up decoded them for nothing: a fifth
 * of the built-in rules' bytes, issue 35).
 */
static void codec_rule_examples(struct codec *c, struct rule *r)
{
	uint32_t n[3], len = 0;
	const unsigned char *p;
	size_t at, i;

	if (c->writing && r->lazy.at) {
		/* Undecoded: decoded aside, so that its locations name this
		 * ruleset's files table, which need not be the data's. */
		struct rule tmp = *r;
		struct codec how = {.borrow = true}; /* lazy: the data outlives rs */
		int err = decode_lazy(c->rs, &tmp, &how);

		if (err < 0) {
			codec_fail(c, err, "damaged examples");
			return;
		}
		codec_rule_examples(c, &tmp);
		free_example_arrays(c->rs, &tmp);
		return;
	}
	if (c->writing) {
		size_t v[3] = {r->n_examples, r->n_negatives, r->n_fix_examples};

		for (i = 0; i < 3; i++)
			codec_count(c, &v[i]);
		at = c->out->len;
		codec_u32(c, &len);
		codec_example_arrays(c, r);
		if (c->err == 0) {
			len = (uint32_t)(c->out->len - at - 4);
			for (i = 0; i < 4; i++)
				((unsigned char *)c->out->data)[at + i] = (unsigned char)(len >> (8 * i));
		}
		return;
	}
	for (i = 0; i < 3; i++) {
		size_t v = 0;

		codec_count(c, &v);
		n[i] = (uint32_t)v;
	}
	codec_u32(c, &len);
	p = codec_take(c, len);
	if (!p)
		return;
	r->lazy.at = p;
	r->lazy.len = len;
	r->lazy.files_base = c->files_base;
	for (i = 0; i < 3; i++)
		r->lazy.n[i] = n[i];
	if (c->lazy) {
		c->rs->examples_pending = true;
		return;
	}
	{
		int err = decode_lazy(c->rs, r, c);

		if (err < 0)
			codec_fail(c, err, "damaged examples");
	}
}

static void codec_near(struct codec *c, struct near *nr)
{
	codec_opt_str(c, &nr->signal);
	if (!nr->signal)
		return; /* no second verdict: the rest is unset */
	codec_str(c, &nr->message);
	codec_str(c, &nr->recovery);
	codec_double(c, &nr->tolerance);
	codec_array(c, &nr->fix, &nr->n_fix, sizeof(char *), codec_str_v);
}

static void codec_rule(struct codec *c, void *p)
{
	struct rule *r = p;

	codec_str(c, &r->id);
	codec_str(c, &r->signal);
	codec_opt_str(c, &r->pattern);
	CODEC_ENUM(c, r->quantities, (1u << QC_CLASSES) - 1);
	codec_array(c, &r->alternatives, &r->n_alternatives, sizeof(char *), codec_str_v);
	CODEC_ENUM(c, r->caseless, 1);
	CODEC_ENUM(c, r->severity, SEV_BLOCK);
	codec_str(c, &r->message);
	codec_str(c, &r->recovery);
	codec_array(c, &r->fix, &r->n_fix, sizeof(char *), codec_str_v);
	codec_array(c, &r->unless_sentence, &r->n_unless_sentence, sizeof(char *), codec_str_v);
	codec_opt_str(c, &r->unless_before);
	codec_opt_str(c, &r->unless_after);
	CODEC_ENUM(c, r->grounding, ARRAY_SIZE(grounding_names) - 1);
	codec_near(c, &r->near);
	CODEC_ENUM(c, r->pressure, PRESSURE_ONLY);
	CODEC_ENUM(c, r->extend, EXTEND_URL);
	codec_opt_str(c, &r->wake_on);
	codec_rule_examples(c, r);
	codec_where(c, &r->at);
	codec_where(c, &r->pattern_at);
}

static void codec_span(struct codec *c, void *p)
{
	struct span_delim *s = p;

	codec_str(c, &s->name);
	codec_str(c, &s->open);
	codec_str(c, &s->close);
	codec_where(c, &s->at);
}

static void codec_context(struct codec *c, void *p)
{
	struct context *x = p;

	codec_str(c, &x->name);
	codec_opt_str(c, &x->description);
	codec_array(c, &x->escalate, &x->n_escalate, sizeof(char *), codec_str_v);
	codec_where(c, &x->at);
}

static void codec_trigger(struct codec *c, void *p)
{
	struct trigger *t = p;

	codec_str(c, &t->name);
	codec_opt_str(c, &t->description);
	codec_str(c, &t->pattern);
	codec_array(c, &t->escalate, &t->n_escalate, sizeof(char *), codec_str_v);
	codec_array(c, &t->examples, &t->n_examples, sizeof(struct example), codec_example);
	codec_array(c, &t->negatives, &t->n_negatives, sizeof(struct example), codec_example);
	codec_where(c, &t->at);
	codec_where(c, &t->pattern_at);
}

static void codec_wordlist(struct codec *c, void *p)
{
	struct wordlist *l = p;

	codec_str(c, &l->name);
	codec_array(c, &l->words, &l->n_words, sizeof(char *), codec_str_v);
	codec_where(c, &l->at);
}

static void codec_digest(struct codec *c, char digest[65])
{
	const unsigned char *p;

	if (c->writing) {
		codec_put(c, digest, 64);
		return;
	}
	p = codec_take(c, 64);
	if (!p)
		return;
	memcpy(digest, p, 64);
	digest[64] = '\0';
	if (strspn(digest, "0123456789abcdef") != 64)
		codec_fail(c, -EINVAL, "a damaged digest");
}

/*
 * The lists from mkdb's image of them (struct lists_image), where the data
 * holds them: their table copied, since a pack added later grows it; the
 * words' array used in place, an arena of its own so that ruleset_free()
 * leaves it. The image must stand where the walk has come to, with as many
 * lists; then the walk goes on past them.
 */
static void lists_from_image(struct codec *c, struct ruleset *rs)
{
	const struct lists_image *im = c->lists;
	const unsigned char *p = c->at;
	struct wordlist *copy;

	if (c->err)
		return;
	if (p != c->data + im->at || c->end - p < 4 || im->end > (size_t)(c->end - c->data) ||
	    im->end < im->at ||
	    (p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24) != im->n_lists) {
		codec_fail(c, -EINVAL, "the lists' image is not of this data");
		return;
	}
	if (im->n_lists) {
		if (grow(&rs->arenas, &rs->cap_arenas, rs->n_arenas + 1,
			 sizeof(struct rules_arena)) < 0 ||
		    !(copy = malloc(im->n_lists * sizeof(*copy)))) {
			codec_fail(c, -ENOMEM, "out of memory");
			return;
		}
		memcpy(copy, im->lists, im->n_lists * sizeof(*copy));
		rs->arenas[rs->n_arenas++] = (struct rules_arena){
			(char *)(uintptr_t)im->words, im->n_words * sizeof(*im->words), true};
		rs->lists = copy;
		rs->n_lists = im->n_lists;
	}
	c->at = c->data + im->end;
}

static void codec_ruleset(struct codec *c, struct ruleset *rs)
{
	uint32_t magic = RULES_BLOB_MAGIC, version = RULES_BLOB_VERSION;

	codec_u32(c, &magic);
	if (c->err == 0 && magic != RULES_BLOB_MAGIC)
		codec_fail(c, -EINVAL, "not a serialized ruleset");
	codec_u32(c, &version);
	if (c->err == 0 && version != RULES_BLOB_VERSION)
		codec_fail(c, -EINVAL, "another version of the format");
	/* Files first: every location after them points into the table. */
	codec_array(c, &rs->files, &rs->n_files, sizeof(char *), codec_str_v);
	codec_array(c, &rs->rules, &rs->n_rules, sizeof(struct rule), codec_rule);
	codec_array(c, &rs->spans, &rs->n_spans, sizeof(struct span_delim), codec_span);
	codec_array(c, &rs->contexts, &rs->n_contexts, sizeof(struct context), codec_context);
	codec_array(c, &rs->triggers, &rs->n_triggers, sizeof(struct trigger), codec_trigger);
	if (c->writing && c->lists_at)
		*c->lists_at = c->out->len;
	if (!c->writing && c->lists)
		lists_from_image(c, rs);
	else
		codec_array(c, &rs->lists, &rs->n_lists, sizeof(struct wordlist), codec_wordlist);
	codec_digest(c, rs->digest);
}

int ruleset_serialize(const struct ruleset *rs, struct buf *out)
{
	return ruleset_serialize_at(rs, out, NULL);
}

int ruleset_serialize_at(const struct ruleset *rs, struct buf *out, size_t *lists_at)
{
	/* Writing reads the ruleset and never stores into it. */
	struct codec c = {.writing = true, .out = out, .rs = (struct ruleset *)rs,
			  .lists_at = lists_at};

	if (strlen(rs->digest) != 64)
		return -EINVAL; /* not finished */
	codec_ruleset(&c, c.rs);
	return c.err;
}

/*
 * Moves n items of src's array to the end of dst's, which has room for
 * them, or, when dst holds none, hands src's block over (decoded exactly
 * *src_n long): the built-in rules are not copied at each start (issue 35).
 */
static void move_items(void *dst, size_t *n, size_t *cap, void *src, size_t *src_n, size_t elem)
{
	void **d = dst, **s = src;

	if (*n == 0 && *src_n > 0) {
		free(*d);
		*d = *s;
		*s = NULL;
		*cap = *src_n;
	} else if (*src_n) {
		memcpy((char *)*d + *n * elem, *s, *src_n * elem);
	}
	*n += *src_n;
	*src_n = 0;
}

/* Room in dst for what move_items() adds, where it copies. */
static int room(void *dst, size_t n, size_t *cap, size_t src_n, size_t elem)
{
	return n == 0 ? 0 : grow(dst, cap, n + src_n, elem);
}

/*
 * Appends src's content to rs. Room is made for all of it first, so that
 * on -ENOMEM nothing has moved; where.file pointers stay valid since the
 * strings of the files table move with it, not their bytes.
 */
static int ruleset_take(struct ruleset *rs, struct ruleset *src)
{
	if (room(&rs->files, rs->n_files, &rs->cap_files, src->n_files, sizeof(char *)) < 0 ||
	    room(&rs->rules, rs->n_rules, &rs->cap_rules, src->n_rules, sizeof(struct rule)) < 0 ||
	    room(&rs->spans, rs->n_spans, &rs->cap_spans, src->n_spans,
		 sizeof(struct span_delim)) < 0 ||
	    room(&rs->contexts, rs->n_contexts, &rs->cap_contexts, src->n_contexts,
		 sizeof(struct context)) < 0 ||
	    room(&rs->triggers, rs->n_triggers, &rs->cap_triggers, src->n_triggers,
		 sizeof(struct trigger)) < 0 ||
	    room(&rs->lists, rs->n_lists, &rs->cap_lists, src->n_lists,
		 sizeof(struct wordlist)) < 0 ||
	    room(&rs->arenas, rs->n_arenas, &rs->cap_arenas, src->n_arenas,
		 sizeof(struct rules_arena)) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < src->n_rules; i++)
		if (src->rules[i].lazy.at)
			src->rules[i].lazy.files_base += rs->n_files;
	rs->examples_pending |= src->examples_pending;
	move_items(&rs->files, &rs->n_files, &rs->cap_files, &src->files, &src->n_files,
		   sizeof(char *));
	move_items(&rs->rules, &rs->n_rules, &rs->cap_rules, &src->rules, &src->n_rules,
		   sizeof(struct rule));
	move_items(&rs->spans, &rs->n_spans, &rs->cap_spans, &src->spans, &src->n_spans,
		   sizeof(struct span_delim));
	move_items(&rs->contexts, &rs->n_contexts, &rs->cap_contexts, &src->contexts,
		   &src->n_contexts, sizeof(struct context));
	move_items(&rs->triggers, &rs->n_triggers, &rs->cap_triggers, &src->triggers,
		   &src->n_triggers, sizeof(struct trigger));
	move_items(&rs->lists, &rs->n_lists, &rs->cap_lists, &src->lists, &src->n_lists,
		   sizeof(struct wordlist));
	move_items(&rs->arenas, &rs->n_arenas, &rs->cap_arenas, &src->arenas, &src->n_arenas,
		   sizeof(struct rules_arena));
	return 0;
}

static int add_serialized(struct ruleset *rs, const void *data, size_t len, bool lazy,
			  bool trusted, const struct lists_image *lists, struct diag *d)
{
	bool whole = rs->n_files == 0 && rs->n_rules == 0 && rs->n_spans == 0 &&
		     rs->n_contexts == 0 && rs->n_triggers == 0 && rs->n_lists == 0;
	struct ruleset *tmp = ruleset_new();
	struct codec c = {.at = data, .end = (const unsigned char *)data + len, .rs = tmp,
			  .lazy = lazy, .trusted = trusted, .data = data, .lists = lists};
	int err;

	if (!tmp)
		return -ENOMEM;
	/*
	 * The strings go to one block, not a malloc() each: the built-in
	 * rules' thousand strings were a tenth of a 4 KB message's
	 * instructions (issue 35). No string outgrows it (see codec_string()).
	 */
	if (lazy) {
		/* Or none: the strings stay in data, NUL and all. */
		if (grow(&tmp->arenas, &tmp->cap_arenas, 1, sizeof(struct rules_arena)) < 0) {
			ruleset_free(tmp);
			return -ENOMEM;
		}
		tmp->arenas[tmp->n_arenas++] =
			(struct rules_arena){(char *)(uintptr_t)data, len, true};
		c.borrow = true;
	} else if (len > 0 &&
		   grow(&tmp->arenas, &tmp->cap_arenas, 1, sizeof(struct rules_arena)) == 0 &&
		   (c.arena = malloc(len))) {
		c.arena_len = len;
		tmp->arenas[tmp->n_arenas++] = (struct rules_arena){c.arena, len, false};
	}
	codec_ruleset(&c, tmp);
	if (c.err == 0 && c.at != c.end)
		codec_fail(&c, -EINVAL, "bytes after the end");
	err = c.err;
	if (err == -EINVAL)
		err = diag_set(d, err, "serialized ruleset: %s", c.why);
	if (err == 0)
		err = ruleset_take(rs, tmp);
	if (err == 0) {
		/* Anything added before or after: ruleset_finish() hashes it all. */
		rs->digest_loaded = whole;
		rs->built_checked = false; /* ruleset_add_builtin() says when */
		if (whole)
			memcpy(rs->digest, tmp->digest, sizeof(rs->digest));
	}
	ruleset_free(tmp);
	return err;
}

int ruleset_add_serialized(struct ruleset *rs, const void *data, size_t len, struct diag *d)
{
	return add_serialized(rs, data, len, false, false, NULL, d);
}

int ruleset_add_serialized_static(struct ruleset *rs, const void *data, size_t len,
				  struct diag *d)
{
	return add_serialized(rs, data, len, true, false, NULL, d);
}

int ruleset_add_serialized_builtin(struct ruleset *rs, const void *data, size_t len,
				   const struct lists_image *lists, struct diag *d)
{
	return add_serialized(rs, data, len, true, true, lists, d);
}

/* *dst a copy of n items of elem bytes (NULL for none); -ENOMEM. */
static int copy_table(void *dst, const void *src, size_t n, size_t elem)
{
	void **d = dst;

	*d = NULL;
	if (n == 0)
		return 0;
	*d = malloc(n * elem);
	if (!*d)
		return -ENOMEM;
	memcpy(*d, src, n * elem);
	return 0;
}

/* Data that outlives rs, which ruleset_free() leaves (str_free()). */
static int borrow(struct ruleset *rs, const void *data, size_t len)
{
	if (len == 0)
		return 0;
	if (grow(&rs->arenas, &rs->cap_arenas, rs->n_arenas + 1, sizeof(struct rules_arena)) < 0)
		return -ENOMEM;
	rs->arenas[rs->n_arenas++] = (struct rules_arena){(char *)(uintptr_t)data, len, true};
	return 0;
}

/*
 * The tables copied, each count set with its table, so that
 * ruleset_free() frees what a failure leaves; the rest borrowed.
 */
static int from_image(struct ruleset *t, const void *data, size_t len,
		      const struct ruleset_image *im, const struct lists_image *li)
{
	size_t i;

#define TAKE(field, n_field, cap_field, src, n)                                        \
	do {                                                                          \
		if (copy_table(&t->field, (src), (n), sizeof(*t->field)) < 0)         \
			return -ENOMEM;                                               \
		t->n_field = t->cap_field = (n);                                      \
	} while (0)
	if (borrow(t, data, len) < 0 || borrow(t, im->strv, im->n_strv * sizeof(*im->strv)) < 0 ||
	    borrow(t, im->examples, im->n_examples * sizeof(*im->examples)) < 0 ||
	    borrow(t, li->words, li->n_words * sizeof(*li->words)) < 0)
		return -ENOMEM;
	TAKE(files, n_files, cap_files, im->files, im->n_files);
	TAKE(rules, n_rules, cap_rules, im->rules, im->n_rules);
	TAKE(spans, n_spans, cap_spans, im->spans, im->n_spans);
	TAKE(contexts, n_contexts, cap_contexts, im->contexts, im->n_contexts);
	TAKE(triggers, n_triggers, cap_triggers, im->triggers, im->n_triggers);
	TAKE(lists, n_lists, cap_lists, li->lists, li->n_lists);
	TAKE(signals, n_signals, cap_signals, im->signals, im->n_signals);
#undef TAKE
	for (i = 0; i < t->n_rules; i++)
		t->examples_pending |= t->rules[i].lazy.at != NULL;
	memcpy(t->digest, im->digest, sizeof(t->digest));
	t->digest[64] = '\0';
	return 0;
}

int ruleset_add_builtin_image(struct ruleset *rs, const void *data, size_t len,
			      const struct ruleset_image *image, const struct lists_image *lists,
			      struct diag *d)
{
	bool whole = rs->n_files == 0 && rs->n_rules == 0 && rs->n_spans == 0 &&
		     rs->n_contexts == 0 && rs->n_triggers == 0 && rs->n_lists == 0;
	struct ruleset *tmp;
	int err;

	if (!whole || !image || !lists)
		return add_serialized(rs, data, len, true, true, lists, d);
	tmp = ruleset_new();
	if (!tmp)
		return -ENOMEM;
	err = from_image(tmp, data, len, image, lists);
	if (err == 0)
		err = ruleset_take(rs, tmp);
	if (err == 0) {
		/* ruleset_take() leaves signals, which ruleset_finish() makes. */
		free(rs->signals);
		rs->signals = tmp->signals;
		rs->n_signals = tmp->n_signals;
		rs->cap_signals = tmp->cap_signals;
		tmp->signals = NULL;
		tmp->n_signals = tmp->cap_signals = 0;
		rs->digest_loaded = true;
		rs->built_checked = false; /* ruleset_add_builtin() says when */
		memcpy(rs->digest, tmp->digest, sizeof(rs->digest));
	}
	ruleset_free(tmp);
	return err;
}

int ruleset_load_examples(struct ruleset *rs)
{
	struct codec how = {.borrow = true}; /* lazy: the data outlives rs */
	size_t i;
	int err = 0;

	if (!rs->examples_pending)
		return 0;
	for (i = 0; i < rs->n_rules && err == 0; i++)
		if (rs->rules[i].lazy.at)
			err = decode_lazy(rs, &rs->rules[i], &how);
	if (err == 0)
		rs->examples_pending = false;
	return err;
}

int ruleset_finish(struct ruleset *rs, struct diag *d)
{
	int err = ruleset_check(rs, d);

	/* A start-up cost worth skipping: the build hashed the same content. */
	if (err == 0 && !rs->digest_loaded) {
		err = ruleset_load_examples(rs);
		if (err < 0)
			return diag_set(d, err, "serialized ruleset: damaged examples");
		compute_digest(rs, rs->digest);
	}
	return err;
}
