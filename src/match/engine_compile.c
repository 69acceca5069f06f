// SPDX-License-Identifier: MIT
/*
 * An engine built: patterns checked (no empty match, no line break) and compiled for Hyperscan
 * and PCRE2, literals found, and the databases serialized, loaded and described. (Split from
 * engine.c by scripts/split.py.)
 */
#include "engine.h"
#include "engine_int.h"

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#if HAVE_HYPERSCAN
#include <hs.h>

#include "hscompiler.h"
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The longest subject a PCRE2 match is given: a window and one more piece. */
#define SUBJECT_MAX (LINE_CAP + PCRE2_PIECE)

/* Backtracking bounds for every PCRE2 match. */
#define PCRE2_MATCH_LIMIT 200000

/* Each iteration of a repeated group nests a frame (without JIT) or takes
 * up to 32 bytes of JIT stack (the default 32 KiB ran out after 1 KB of a
 * group repeated per byte). The bounds let a group repeat once per byte of
 * the longest subject; the JIT stack is mapped at its maximum, but only
 * the part a match reaches is ever touched. */
#define PCRE2_DEPTH_LIMIT SUBJECT_MAX

#if HAVE_HYPERSCAN
/* 3: two databases, the second of ENGINE_LATE patterns */
static const char MAGIC[8] = "HLSCDB3", IMAGE_MAGIC[8] = "HLSCIM3";
#endif

static int compile_pcre2(const struct engine_pattern *p, pcre2_code **out, struct diag *d)
{
	uint32_t opts = 0;
	PCRE2_SIZE off;
	int errcode;
	pcre2_code *c;

	if (p->flags & ENGINE_CASELESS)
		opts |= PCRE2_CASELESS;
	if (p->flags & ENGINE_LITERAL)
		opts |= PCRE2_LITERAL;
	c = pcre2_compile((PCRE2_SPTR)p->expr, PCRE2_ZERO_TERMINATED, opts, &errcode, &off, NULL);
	if (!c) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(errcode, msg, sizeof(msg));
		return diag_set(d, -EINVAL, "%s at offset %zu", (char *)msg, (size_t)off);
	}
	*out = c;
	return 0;
}

/* True when the pattern matches the empty string somewhere: it would match everywhere. */
static bool matches_empty(pcre2_code *c)
{
	static const char *const probes[] = {"", " ", "a", "\n", "0", "."};
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(c, NULL);
	bool empty = false;
	size_t i;

	if (!md)
		return false;
	for (i = 0; i < ARRAY_SIZE(probes) && !empty; i++) {
		size_t len = strlen(probes[i]), at;

		for (at = 0; at <= len && !empty; at++) {
			int rc = pcre2_match(c, (PCRE2_SPTR)probes[i], len, at, PCRE2_ANCHORED, md, NULL);

			if (rc >= 0) {
				PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

				empty = ov[1] == ov[0];
			}
		}
	}
	pcre2_match_data_free(md);
	return empty;
}

/*
 * True when the regex can match a line break: \s, \n, \v, \R, \x0a,
 * [:space:] or (?s) outside a negated class, or a negated class that does
 * not exclude \n. Matches never span lines, and Hyperscan reports only the
 * leftmost start of a match, so such a pattern would lose matches there.
 */
static const char *matches_line_break(const char *re)
{
	bool in_class = false, negated = false, excludes_nl = false;
	const char *p, *class_start = NULL;

	for (p = re; *p; p++) {
		if (p[0] == '\\' && p[1]) {
			char c = p[1];
			bool nl = c == 's' || c == 'n' || c == 'v' || c == 'R' ||
				  (c == 'x' && (strncmp(p + 2, "0a", 2) == 0 || strncmp(p + 2, "0A", 2) == 0 ||
						strncmp(p + 2, "{a}", 3) == 0 || strncmp(p + 2, "{0a}", 4) == 0));

			if (nl && in_class && negated)
				excludes_nl = true;
			else if (nl)
				return p;
			p++;
			continue;
		}
		if (!in_class) {
			if (p[0] == '[') {
				in_class = true;
				class_start = p;
				negated = p[1] == '^';
				excludes_nl = false;
				p += negated;
				if (p[1] == ']')
					p++; /* a leading ] is a member */
			} else if (p[0] == '(' && p[1] == '?') {
				const char *q;

				for (q = p + 2; *q && strchr("imnsxJU", *q); q++)
					if (*q == 's')
						return p; /* dot matches all */
			}
			continue;
		}
		if (strncmp(p, "[:space:]", 9) == 0) {
			if (!negated)
				return p;
			excludes_nl = true;
			p += 8;
		} else if (p[0] == ']') {
			in_class = false;
			if (negated && !excludes_nl)
				return class_start;
		}
	}
	return NULL;
}

static int check_expr(const struct engine_pattern *p, struct diag *d)
{
	const char *nl;
	pcre2_code *c;
	bool empty;
	int err;

	err = compile_pcre2(p, &c, d);
	if (err < 0)
		return err;
	nl = p->flags & ENGINE_LITERAL ? NULL : matches_line_break(p->expr);
	if (nl) {
		pcre2_code_free(c);
		return diag_set(d, -EINVAL, "the pattern can match a line break at \"%.12s\" "
				"(matches never span lines: use [ \\t], or put \\n in negated classes)", nl);
	}
	empty = matches_empty(c);
	pcre2_code_free(c);
	if (empty)
		return diag_set(d, -EINVAL, "the pattern can match the empty string");
	return 0;
}

int engine_check_pattern(const struct engine_pattern *p, struct diag *d)
{
	size_t i;
	int err;

	if (p->flags & ENGINE_NEVER)
		return 0;
	/* The one pattern that matches a line break: the engine's own. */
	if (p->flags & ENGINE_LINE_BREAK)
		return strcmp(p->expr, "\n") == 0 ? 0
		       : diag_set(d, -EINVAL, "a line-break pattern must be \"\\n\"");

	/* Each alternative alone, so that Hyperscan gets sound expressions. */
	for (i = 0; i < p->n_alts; i++) {
		struct engine_pattern one = {p->alts[i], p->flags, NULL, 0};
		struct diag why;

		err = check_expr(&one, &why);
		if (err < 0)
			return diag_set(d, err, "alternative %zu: %s", i + 1, why.msg);
	}
	return check_expr(p, d);
}

void engine_free(struct engine *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->n; i++)
		pcre2_code_free(e->code ? e->code[i] : NULL);
	free(e->code);
	free(e->lit);
	free(e->pcre2);
	pcre2_match_context_free(e->mctx);
#if HAVE_HYPERSCAN
	if (!e->db_borrowed) {
		hs_free_database(e->db[0]);
		hs_free_database(e->db[1]);
	}
#endif
	free(e);
}

static int engine_alloc(size_t n, struct engine **out)
{
	struct engine *e = calloc(1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	e->n = n;
	e->mark = NO_MARK;
	e->lines = NO_MARK;
	e->pcre2 = calloc(n ? n : 1, sizeof(*e->pcre2));
	e->code = calloc(n ? n : 1, sizeof(*e->code));
	e->lit = calloc(n ? n : 1, sizeof(*e->lit));
	e->mctx = pcre2_match_context_create(NULL);
	if (!e->pcre2 || !e->code || !e->lit || !e->mctx) {
		engine_free(e);
		return -ENOMEM;
	}
	pcre2_set_match_limit(e->mctx, PCRE2_MATCH_LIMIT);
	pcre2_set_depth_limit(e->mctx, PCRE2_DEPTH_LIMIT);
	*out = e;
	return 0;
}

/*
 * The literal a case-sensitive pattern starts with ("halluscan:" of
 * "halluscan:(?:ignore|off|on)\\b"), when every match must: letters,
 * digits, ':' and '_' up to the first other byte, less the last when a
 * quantifier follows it, and none at all when the pattern has an
 * alternation outside its groups. Only 4 bytes or more are kept.
 */
static struct literal literal_of(const struct engine_pattern *p)
{
	struct literal l = {{0}, 0};
	const char *re = p->expr;
	size_t n = 0, depth = 0;
	bool in_class = false;

	if (!re || (p->flags & ENGINE_CASELESS) || p->n_alts)
		return l;
	while (n < sizeof(l.s) && (isalnum((unsigned char)re[n]) || re[n] == ':' || re[n] == '_'))
		n++;
	if (re[n] == '?' || re[n] == '*' || re[n] == '+' || re[n] == '{')
		n = n ? n - 1 : 0;
	for (const char *q = re; *q; q++) {
		if (*q == '\\' && q[1])
			q++;
		else if (in_class)
			in_class = *q != ']';
		else if (*q == '[')
			in_class = true;
		else if (*q == '(')
			depth++;
		else if (*q == ')' && depth)
			depth--;
		else if (*q == '|' && depth == 0)
			return l;
	}
	if (n >= 4) {
		memcpy(l.s, re, n);
		l.len = (unsigned char)n;
	}
	return l;
}

/* Compiles the PCRE2 side of the patterns marked e->pcre2[i]. */
static int finish_pcre2(struct engine *e, const struct engine_pattern *pats, struct diag *d)
{
	size_t i;
	int err;

	e->n_pcre2 = e->n_never = 0;
	for (i = 0; i < e->n; i++) {
		if (pats[i].flags & ENGINE_SENTENCE_MARK) {
			e->mark = i;
			e->pcre2[i] = false;
		}
		if (pats[i].flags & ENGINE_LINE_BREAK) {
			e->lines = i;
			e->pcre2[i] = false;
		}
		if (pats[i].flags & ENGINE_NEVER) {
			e->pcre2[i] = false;
			e->n_never++;
		}
		if (!e->pcre2[i])
			continue;
		err = compile_pcre2(&pats[i], &e->code[i], d);
		if (err < 0)
			return err;
		e->lit[i] = literal_of(&pats[i]);
		/* JIT is an optimisation: where it is unavailable the interpreter runs. */
		pcre2_jit_compile(e->code[i], PCRE2_JIT_COMPLETE);
		e->n_pcre2++;
	}
	return 0;
}

#if HAVE_HYPERSCAN
/* Hyperscan syntax for a pattern; literals become \xHH escapes. */
static char *hs_expr(const struct engine_pattern *p)
{
	const unsigned char *s = (const unsigned char *)p->expr;
	size_t n = strlen(p->expr), i;
	char *out;

	if (!(p->flags & ENGINE_LITERAL))
		return strdup(p->expr);
	out = malloc(4 * n + 1);
	if (!out)
		return NULL;
	for (i = 0; i < n; i++)
		snprintf(out + 4 * i, 5, "\\x%02x", s[i]);
	return out;
}

/* The Hyperscan expressions of the patterns: one per pattern, or one per alternative. */
struct hs_exprs {
	char **expr;
	unsigned *owner; /* the pattern each expression reports as */
	size_t n;
};

static void hs_exprs_free(struct hs_exprs *x)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		free(x->expr[i]);
	free(x->expr);
	free(x->owner);
}

static int hs_exprs_make(const struct engine_pattern *pats, size_t n, struct hs_exprs *x)
{
	size_t i, j, m = 0;

	for (i = 0; i < n; i++)
		m += pats[i].n_alts ? pats[i].n_alts : 1;
	x->n = 0;
	x->expr = calloc(m ? m : 1, sizeof(*x->expr));
	x->owner = calloc(m ? m : 1, sizeof(*x->owner));
	if (!x->expr || !x->owner)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (pats[i].flags & (ENGINE_SENTENCE_MARK | ENGINE_LINE_BREAK | ENGINE_NEVER))
			continue;
		for (j = 0; j < (pats[i].n_alts ? pats[i].n_alts : 1); j++) {
			struct engine_pattern one = pats[i];

			if (pats[i].n_alts)
				one.expr = pats[i].alts[j];
			x->expr[x->n] = hs_expr(&one);
			if (!x->expr[x->n])
				return -ENOMEM;
			x->owner[x->n++] = (unsigned)i;
		}
	}
	return 0;
}

/*
 * Compiles the expressions of the patterns that are (late) or are not
 * ENGINE_LATE into one database; when Hyperscan rejects an expression, its
 * whole pattern goes to PCRE2 and the rest is compiled again. A database
 * is compiled for the generic target so that a serialized one loads on
 * any CPU of the architecture. Reports carry the pattern's index as id.
 */
static int compile_set(struct engine *e, const struct engine_pattern *pats,
		       const struct hs_exprs *x, bool late, const struct hscompiler *hc,
		       struct diag *d)
{
	hs_platform_info_t plat = {.tune = HS_TUNE_FAMILY_GENERIC, .cpu_features = 0};
	hs_compile_error_t *cerr = NULL;
	const char **ex = calloc(x->n ? x->n : 1, sizeof(*ex));
	unsigned *flags = calloc(x->n ? x->n : 1, sizeof(*flags));
	unsigned *ids = calloc(x->n ? x->n : 1, sizeof(*ids));
	size_t i, k;
	int err = 0;

	if (!ex || !flags || !ids) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		hs_error_t rc;

		k = 0;
		for (i = 0; i < x->n; i++) {
			unsigned o = x->owner[i];

			if (e->pcre2[o] || !(pats[o].flags & ENGINE_LATE) != !late)
				continue;
			ex[k] = x->expr[i];
			flags[k] = HS_FLAG_SOM_LEFTMOST;
			if (pats[o].flags & ENGINE_CASELESS)
				flags[k] |= HS_FLAG_CASELESS;
			ids[k] = o;
			k++;
		}
		if (k == 0)
			break;
		rc = hc->compile_multi(ex, flags, ids, (unsigned)k,
				       HS_MODE_STREAM | HS_MODE_SOM_HORIZON_LARGE, &plat, &e->db[late],
				       &cerr);
		if (rc == HS_SUCCESS)
			break;
		if (cerr->expression < 0) {
			err = diag_set(d, -EINVAL, "hyperscan: %s", cerr->message);
			goto out;
		}
		/* expression is the index in this call's arrays. */
		e->pcre2[ids[cerr->expression]] = true;
		hc->free_compile_error(cerr);
		cerr = NULL;
	}
	if (e->db[late])
		hs_database_size(e->db[late], &e->db_bytes[late]);
out:
	if (cerr)
		hc->free_compile_error(cerr);
	free(ex);
	free(flags);
	free(ids);
	return err;
}

static int compile_hs(struct engine *e, const struct engine_pattern *pats, struct diag *d)
{
	struct hs_exprs x = {0};
	const struct hscompiler *hc;
	struct diag why;
	size_t i;
	int err;

	/* Without the compiler library every pattern still runs, on PCRE2. */
	hc = hscompiler_get(&why);
	if (!hc) {
		snprintf(e->degraded, sizeof(e->degraded), "%.240s", why.msg);
		for (i = 0; i < e->n; i++)
			e->pcre2[i] = true;
		return 0;
	}
	err = hs_exprs_make(pats, e->n, &x);
	if (err == 0)
		err = compile_set(e, pats, &x, false, hc, d);
	if (err == 0)
		err = compile_set(e, pats, &x, true, hc, d);
	hs_exprs_free(&x);
	return err;
}
#endif

int engine_compile(const struct engine_pattern *pats, size_t n, enum engine_backend be,
		   struct engine **out, struct diag *d)
{
	struct engine *e = NULL;
	size_t i;
	int err;

	err = engine_alloc(n, &e);
	if (err < 0)
		return err;
	/* Every pattern must be valid PCRE2 and non-empty, whatever runs it. */
	for (i = 0; i < n; i++) {
		err = engine_check_pattern(&pats[i], d);
		if (err < 0)
			goto fail;
	}
#if HAVE_HYPERSCAN
	if (be == ENGINE_AUTO) {
		err = compile_hs(e, pats, d);
		if (err < 0)
			goto fail;
	} else
#endif
	{
		for (i = 0; i < n; i++)
			e->pcre2[i] = true;
	}
	err = finish_pcre2(e, pats, d);
	if (err < 0)
		goto fail;
	*out = e;
	return 0;
fail:
	engine_free(e);
	return err;
}

/*
 * The serialized form: MAGIC, key length and key, n, one byte per pattern
 * (1: PCRE2), then for each of the two Hyperscan databases its length and
 * bytes as hs_serialize_database() writes them. An image has IMAGE_MAGIC,
 * and after each length zero bytes up to a multiple of ENGINE_IMAGE_ALIGN,
 * then the database as hs_deserialize_database_at() lays it out at an
 * address so aligned (the layout depends only on the address modulo 64).
 */

#if HAVE_HYPERSCAN
static int put_db(const struct hscompiler *hc, struct buf *b, const hs_database_t *hdb,
		  bool image)
{
	char *db = NULL, *mem = NULL;
	size_t dblen = 0, memlen = 0;
	uint64_t v;
	int err = 0;

	if (hdb && hc->serialize_database(hdb, &db, &dblen) != HS_SUCCESS)
		return -ENOMEM;
	if (image && db) {
		if (hc->serialized_database_size(db, dblen, &memlen) != HS_SUCCESS ||
		    posix_memalign((void **)&mem, ENGINE_IMAGE_ALIGN, memlen) != 0 ||
		    hc->deserialize_database_at(db, dblen, (hs_database_t *)(void *)mem) !=
			    HS_SUCCESS) {
			free(db);
			free(mem);
			return -ENOMEM;
		}
		free(db);
		db = mem;
		dblen = memlen;
	}
	v = dblen;
	err |= buf_add(b, &v, sizeof(v));
	while (image && b->len % ENGINE_IMAGE_ALIGN != 0)
		err |= buf_addc(b, 0);
	err |= buf_add(b, db, dblen);
	free(db);
	return err ? -ENOMEM : 0;
}

/*
 * Reads one database at *pp: an image is used where it lies (aligned, and
 * valid to the library: magic, version, platform), else deserialized.
 * Returns false when it is damaged.
 */
static bool get_db(const unsigned char *buf, const unsigned char **pp, const unsigned char *end,
		   bool image, struct engine *e, int which)
{
	const unsigned char *p = *pp;
	uint64_t v;

	if ((size_t)(end - p) < sizeof(v))
		return false;
	memcpy(&v, p, sizeof(v));
	p += sizeof(v);
	while (image && (size_t)(p - buf) % ENGINE_IMAGE_ALIGN != 0 && p < end)
		p++;
	if ((uint64_t)(end - p) < v)
		return false;
	if (v > 0 && image) {
		if ((uintptr_t)p % ENGINE_IMAGE_ALIGN != 0 ||
		    hs_database_size((const hs_database_t *)(const void *)p, &e->db_bytes[which]) !=
			    HS_SUCCESS ||
		    e->db_bytes[which] != v)
			return false;
		e->db[which] = (hs_database_t *)(uintptr_t)p;
		e->db_borrowed = true;
	} else if (v > 0) {
		if (hs_deserialize_database((const char *)p, v, &e->db[which]) != HS_SUCCESS)
			return false;
		hs_database_size(e->db[which], &e->db_bytes[which]);
	}
	*pp = p + v;
	return true;
}
#endif

int engine_serialize(const struct engine *e, const char *key, bool image, unsigned char **buf,
		     size_t *len)
{
#if HAVE_HYPERSCAN
	/* A database is written out after it was compiled: the compiler is loaded. */
	const struct hscompiler *hc = hscompiler_get(NULL);
	struct buf b = {0};
	size_t i;
	uint64_t v;
	int err = 0;

	if (!hc)
		return -ENOTSUP;
	err |= buf_add(&b, image ? IMAGE_MAGIC : MAGIC, sizeof(MAGIC));
	v = strlen(key);
	err |= buf_add(&b, &v, sizeof(v));
	err |= buf_add(&b, key, strlen(key));
	v = e->n;
	err |= buf_add(&b, &v, sizeof(v));
	for (i = 0; i < e->n; i++)
		err |= buf_addc(&b, e->pcre2[i] ? 1 : 0);
	if (err || put_db(hc, &b, e->db[0], image) < 0 || put_db(hc, &b, e->db[1], image) < 0) {
		buf_free(&b);
		return -ENOMEM;
	}
	*buf = (unsigned char *)b.data;
	*len = b.len;
	return 0;
#else
	(void)e;
	(void)key;
	(void)image;
	(void)buf;
	(void)len;
	return -ENOTSUP;
#endif
}

int engine_load(const unsigned char *buf, size_t len, const char *key,
		const struct engine_pattern *pats, size_t n, struct engine **out, struct diag *d)
{
#if HAVE_HYPERSCAN
	const unsigned char *p = buf, *end = buf + len;
	struct engine *e = NULL;
	bool image;
	uint64_t v;
	size_t i;
	int err;

#define TAKE(dst, k)                                                           \
	do {                                                                   \
		if ((size_t)(end - p) < (k))                                   \
			goto stale;                                            \
		memcpy((dst), p, (k));                                         \
		p += (k);                                                      \
	} while (0)
	if (len < sizeof(MAGIC) ||
	    (memcmp(buf, MAGIC, sizeof(MAGIC)) != 0 && memcmp(buf, IMAGE_MAGIC, sizeof(MAGIC)) != 0))
		return diag_set(d, -ESTALE, "not a halluscan database");
	image = memcmp(buf, IMAGE_MAGIC, sizeof(MAGIC)) == 0;
	p += sizeof(MAGIC);
	TAKE(&v, sizeof(v));
	if (v != strlen(key) || (size_t)(end - p) < v || memcmp(p, key, v) != 0)
		return diag_set(d, -ESTALE, "the database was built for other rules");
	p += v;
	TAKE(&v, sizeof(v));
	if (v != n)
		goto stale;
	err = engine_alloc(n, &e);
	if (err < 0)
		return err;
	for (i = 0; i < n; i++) {
		unsigned char c;

		TAKE(&c, 1);
		e->pcre2[i] = c != 0;
	}
#undef TAKE
	if (!get_db(buf, &p, end, image, e, 0) || !get_db(buf, &p, end, image, e, 1) || p != end)
		goto stale;
	err = finish_pcre2(e, pats, d);
	if (err < 0) {
		engine_free(e);
		return err;
	}
	*out = e;
	return 0;
stale:
	engine_free(e);
	return diag_set(d, -ESTALE, "the database is damaged or was built for another CPU or library");
#else
	(void)buf;
	(void)len;
	(void)key;
	(void)pats;
	(void)n;
	(void)out;
	return diag_set(d, -ENOTSUP, "this build has no Hyperscan");
#endif
}

void engine_get_info(const struct engine *e, struct engine_info *info)
{
	memset(info, 0, sizeof(*info));
	info->n_patterns = e->n;
	info->n_pcre2 = e->n_pcre2;
	info->backend = e->n_pcre2 == e->n - e->n_never - (e->mark != NO_MARK) - (e->lines != NO_MARK)
				? "pcre2"
			: e->n_pcre2 ? "hyperscan+pcre2" : "hyperscan";
#if HAVE_HYPERSCAN
	info->degraded = e->degraded[0] ? e->degraded : NULL;
#endif
#if HAVE_HYPERSCAN
	/* Asked of databases compiled here (api/rules.c): the compiler is loaded. */
	const struct hscompiler *hc = hscompiler_get(NULL);
	hs_scratch_t *s = NULL;
	int k;

	for (k = 0; k < 2; k++) {
		size_t n = 0;

		if (!e->db[k])
			continue;
		info->db_bytes += e->db_bytes[k];
		if (hc)
			hc->stream_size(e->db[k], &n);
		info->stream_bytes += n;
		if (hs_alloc_scratch(e->db[k], &s) != HS_SUCCESS)
			s = NULL;
	}
	if (s) {
		hs_scratch_size(s, &info->scratch_bytes);
		hs_free_scratch(s);
	}
#endif
}

bool engine_is_pcre2(const struct engine *e, size_t id)
{
	return id < e->n && e->pcre2[id];
}
