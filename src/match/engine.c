// SPDX-License-Identifier: MIT
/* Hyperscan and PCRE2 behind one streaming interface with one match semantics. */
#include "engine.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "config.h"
#if HAVE_HYPERSCAN
#include <hs.h>

#include "hscompiler.h"
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
/* The sentence-mark scan in AVX2 where the CPU has it, asked of what the
 * dynamic loader found (no cpuid: it traps in a VM, issue 35). */
#include <immintrin.h>
#include <sys/platform/x86.h> /* glibc 2.33 and later */
#define STOPS_AVX2 1
#endif
#endif

/* Reads are cut into pieces of this size so that per-read state stays small. */
#define PIECE 16384
/* A line longer than this is matched in windows that overlap by ENGINE_MAX_MATCH. */
#define LINE_CAP (65536 + ENGINE_MAX_MATCH)
/* The longest subject a PCRE2 match is given: a window and one more piece. */
#define SUBJECT_MAX (LINE_CAP + PIECE)
/* Backtracking bounds for every PCRE2 match. */
#define PCRE2_MATCH_LIMIT 200000
/* Each iteration of a repeated group nests a frame (without JIT) or takes
 * up to 32 bytes of JIT stack (the default 32 KiB ran out after 1 KB of a
 * group repeated per byte). The bounds let a group repeat once per byte of
 * the longest subject; the JIT stack is mapped at its maximum, but only
 * the part a match reaches is ever touched. */
#define PCRE2_DEPTH_LIMIT SUBJECT_MAX
#define JIT_STACK_START (32 * 1024)
#define JIT_STACK_MAX (4 * 1024 * 1024)
/* The longest sentence mark: terminator, 3 closers, 4 blanks, one byte. */
#define MARK_MAX 9
#define NO_MARK ((size_t)-1)
#define DFA_WORKSPACE 2048
#define DFA_OVECTOR 64
/* Bytes past ENGINE_MAX_MATCH that the longest-match search still sees, so
 * that \b or a short lookahead at an end up to ENGINE_MAX_MATCH reads the
 * real next bytes. Fewer than DFA_OVECTOR: the ends past ENGINE_MAX_MATCH
 * cannot crowd the others out of the ovector. */
#define DFA_SLACK 16

#if HAVE_HYPERSCAN
/* 3: two databases, the second of ENGINE_LATE patterns */
static const char MAGIC[8] = "HLSCDB3", IMAGE_MAGIC[8] = "HLSCIM3";
#endif

struct engine {
	size_t n;
	size_t mark;           /* the ENGINE_SENTENCE_MARK pattern, or NO_MARK */
	size_t lines;          /* the ENGINE_LINE_BREAK pattern, or NO_MARK */
	bool *pcre2;           /* per pattern: runs on PCRE2 */
	pcre2_code **code;     /* per pattern, NULL where Hyperscan runs it */
	struct literal *lit;   /* per pattern on PCRE2: what every match starts with */
	size_t n_pcre2;
	size_t n_never;        /* ENGINE_NEVER patterns: no engine runs them */
	pcre2_match_context *mctx;
#if HAVE_HYPERSCAN
	/* [0]: the patterns scanned from the start; [1]: the ENGINE_LATE ones.
	 * NULL where no such pattern runs on Hyperscan. */
	hs_database_t *db[2];
	size_t db_bytes[2];
	bool db_borrowed;      /* images in the caller's buffer: not ours to free */
	char degraded[256];    /* why Hyperscan compiled nothing (all on PCRE2), or "" */
#endif
};

/* The literal bytes every match of a pattern starts with (len 0: none known). */
struct literal {
	char s[15];
	unsigned char len;
};

struct event {
	unsigned id;
	uint64_t from, to;
};

struct events {
	struct event *v;
	size_t n, cap;
};

/* A pattern's candidate matches not yet settled: start -> furthest end, by start. */
struct candidates {
	struct event *v;
	size_t n, cap;
};

#if HAVE_HYPERSCAN
/*
 * Hyperscan may read past the end of the bytes it is given: 5.4's
 * AVX512VBMI Teddy loads 64 bytes of which only 61 need be the buffer's
 * (its first block; up to a mask count less one byte past the end), which
 * faults where a caller's buffer ends at the end of its mapping. It is
 * given the last HS_TAIL bytes of a piece from a copy with HS_TAIL more
 * bytes after them (hs_scan_padded()).
 */
#define HS_TAIL 64
#endif

struct engine_stream {
	const struct engine *e;
	uint64_t offset;       /* bytes fed so far */
	uint64_t *last_end;    /* per pattern: end of its last final match */
	struct events finals;  /* final, not yet delivered */
	struct events marks;   /* sentence marks, final and in order, not yet delivered */
	uint64_t limit_hits;
	int error;             /* an allocation failure inside a callback */
	/* Sentence marks: where the next may start, and the undecided tail of the last piece. */
	uint64_t mark_from, line_from; /* line breaks before line_from are recorded */
	unsigned char mark_tail[MARK_MAX];
	size_t mark_tail_len;
	bool woken;            /* engine_stream_wake() was called */
	bool resort;           /* matches were added while delivering */
	bool ending;           /* in engine_stream_end() */
#if HAVE_HYPERSCAN
	hs_stream_t *hs[2];    /* as e->db: [1] opened when woken */
	uint64_t late_base;    /* stream offset of hs[1]'s first byte */
	uint64_t late_from;    /* hs[1]'s reports that start before this are dropped */
	hs_scratch_t *scratch;
	bool late_scratch;     /* scratch has room for db[1] too */
	struct candidates *cand; /* per pattern */
	struct events raw;     /* this piece's reports */
	struct events merged;  /* room to merge the two streams' reports */
	uint64_t *nl;          /* this piece's line breaks */
	size_t n_nl, cap_nl;
	uint64_t prev_nl;      /* 1 + offset of the last line break before this piece, 0: none */
	engine_lines_fn lines_fn; /* engine_stream_on_lines() */
	void *lines_ctx;
	char hs_tail[2 * HS_TAIL]; /* a piece's last bytes, with room to read past them */
#endif
	/* The current line, for the patterns on PCRE2. */
	char *line;
	size_t line_len, line_cap;
	uint64_t line_base;    /* stream offset of line[0] */
	size_t *resume;        /* per pattern: where its next search starts, in line */
	pcre2_match_data *md;
	pcre2_match_data *dfa_md;
	int *dfa_ws;
	/* The engine's limits with this stream's JIT stack: a stack serves one
	 * thread at a time, and streams may run on several. */
	pcre2_match_context *mctx;
	pcre2_jit_stack *jit_stack;
};

static int push(struct events *ev, unsigned id, uint64_t from, uint64_t to)
{
	if (grow(&ev->v, &ev->cap, ev->n + 1, sizeof(*ev->v)) < 0)
		return -ENOMEM;
	ev->v[ev->n++] = (struct event){.id = id, .from = from, .to = to};
	return 0;
}

static char version[128];

static void make_version(void)
{
	char p[64];

	pcre2_config(PCRE2_CONFIG_VERSION, p);
#if HAVE_HYPERSCAN
	snprintf(version, sizeof(version), "hyperscan %s; pcre2 %s", hs_version(), p);
#else
	snprintf(version, sizeof(version), "pcre2 %s", p);
#endif
}

const char *engine_version(void)
{
	/* Once: threads of a library's user may open rules (and ask) at once. */
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, make_version);
	return version;
}

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

/* ---- streams ---- */

void engine_stream_free(struct engine_stream *s)
{
	if (!s)
		return;
#if HAVE_HYPERSCAN
	for (int k = 0; k < 2; k++)
		if (s->hs[k])
			hs_close_stream(s->hs[k], s->scratch, NULL, NULL);
	hs_free_scratch(s->scratch);
	if (s->cand)
		for (size_t i = 0; i < s->e->n; i++)
			free(s->cand[i].v);
	free(s->cand);
	free(s->raw.v);
	free(s->merged.v);
	free(s->nl);
#endif
	free(s->last_end);
	free(s->finals.v);
	free(s->marks.v);
	free(s->line);
	free(s->resume);
	pcre2_match_data_free(s->md);
	pcre2_match_data_free(s->dfa_md);
	free(s->dfa_ws);
	pcre2_match_context_free(s->mctx);
	pcre2_jit_stack_free(s->jit_stack);
	free(s);
}

static int stream_open(struct engine_stream *s)
{
	const struct engine *e = s->e;

	s->offset = 0;
	s->finals.n = 0;
	s->marks.n = 0;
	s->mark_from = 0;
	s->line_from = 0;
	s->mark_tail_len = 0;
	s->line_len = 0;
	s->line_base = 0;
	s->error = 0;
	s->woken = s->resort = s->ending = false;
	memset(s->last_end, 0, e->n * sizeof(*s->last_end));
	if (s->resume)
		memset(s->resume, 0, e->n * sizeof(*s->resume));
#if HAVE_HYPERSCAN
	for (size_t i = 0; i < e->n; i++)
		s->cand[i].n = 0;
	s->prev_nl = 0;
	if (s->hs[1])
		hs_close_stream(s->hs[1], s->scratch, NULL, NULL);
	s->hs[1] = NULL;
	if (e->db[0] && hs_open_stream(e->db[0], 0, &s->hs[0]) != HS_SUCCESS)
		return -ENOMEM;
#endif
	return 0;
}

int engine_stream_new(const struct engine *e, struct engine_stream **out)
{
	struct engine_stream *s = calloc(1, sizeof(*s));
	size_t n = e->n ? e->n : 1;

	if (!s)
		return -ENOMEM;
	s->e = e;
	s->last_end = calloc(n, sizeof(*s->last_end));
	if (!s->last_end)
		goto nomem;
	if (e->n_pcre2) {
		s->resume = calloc(n, sizeof(*s->resume));
		s->md = pcre2_match_data_create(1, NULL);
		s->dfa_md = pcre2_match_data_create(DFA_OVECTOR, NULL);
		s->dfa_ws = malloc(DFA_WORKSPACE * sizeof(int));
		s->mctx = pcre2_match_context_copy(e->mctx);
		s->jit_stack = pcre2_jit_stack_create(JIT_STACK_START, JIT_STACK_MAX, NULL);
		if (!s->resume || !s->md || !s->dfa_md || !s->dfa_ws || !s->mctx || !s->jit_stack)
			goto nomem;
		pcre2_jit_stack_assign(s->mctx, NULL, s->jit_stack);
	}
#if HAVE_HYPERSCAN
	s->cand = calloc(n, sizeof(*s->cand));
	if (!s->cand)
		goto nomem;
	/* The late database's share is added when it wakes: hs_alloc_scratch()
	 * checksums the whole database, a start-up cost most runs never need. */
	if (e->db[0] && hs_alloc_scratch(e->db[0], &s->scratch) != HS_SUCCESS)
		goto nomem;
#endif
	if (stream_open(s) < 0)
		goto nomem;
	*out = s;
	return 0;
nomem:
	engine_stream_free(s);
	return -ENOMEM;
}

static int cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

/*
 * Sorts events that mostly come in order already (Hyperscan reports by end,
 * a few late): an insertion sort, which is linear on such input, handing
 * over to qsort when the input turns out to be far from sorted.
 */
static void sort_events(struct event *v, size_t n, int (*cmp)(const void *, const void *))
{
	size_t i, moves = 0, budget = 8 * n + 64;

	for (i = 1; i < n; i++) {
		struct event x = v[i];
		size_t j = i;

		while (j > 0 && cmp(&v[j - 1], &x) > 0) {
			v[j] = v[j - 1];
			j--;
			if (++moves > budget) {
				v[j] = x;
				qsort(v, n, sizeof(*v), cmp);
				return;
			}
		}
		v[j] = x;
	}
}

static int finalize(struct engine_stream *s, unsigned id, uint64_t from, uint64_t to)
{
	s->last_end[id] = to;
	return push(&s->finals, id, from, to);
}

/* ---- sentence marks: a byte scan for ENGINE_SENTENCE_MARK_RE ---- */

#define MARK_UNDECIDED (-1)

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

static bool is_closer(unsigned char c)
{
	return c == '"' || c == '\'' || c == ')' || c == ']';
}

/*
 * The length of the mark starting with the terminator d[p], 0 when there
 * is none, or MARK_UNDECIDED when d[0, n) ends too soon to tell. A start
 * has at most one match: the closers and the blanks are taken whole,
 * because what follows each run cannot be one of its bytes.
 */
static int mark_at(const unsigned char *d, size_t n, size_t p)
{
	size_t q = p + 1, k;

	for (k = 0; k < 3 && q < n && is_closer(d[q]); k++)
		q++;
	if (q == n)
		return MARK_UNDECIDED;
	for (k = 0; k < 4 && q < n && is_blank(d[q]); k++)
		q++;
	if (k == 0)
		return 0;
	if (q == n)
		return MARK_UNDECIDED;
	if (is_blank(d[q]) || d[q] == '\r' || d[q] == '\n')
		return 0;
	return (int)(q + 1 - p);
}

static bool is_stop(unsigned char c)
{
	return c == '.' || c == '!' || c == '?' || c == '\n';
}

/*
 * Bit k set where d[k] is '.', '!', '?' or a line break, for k < n (at most
 * 64): one pass over a block, whose stops are then taken from the mask
 * (most blocks hold one or two), instead of a search from each stop.
 */
#if defined(__SSE2__)
/* stops_in() of 16 bytes, as bits 0-15. */
static inline uint64_t stops16(const unsigned char *d)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)d);
	__m128i hit = _mm_or_si128(
		_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')), _mm_cmpeq_epi8(v, _mm_set1_epi8('!'))),
		_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))));

	return (unsigned)_mm_movemask_epi8(hit);
}
#endif

#ifdef STOPS_AVX2
/* stops_in() of 64 bytes in two AVX2 loads, where the baseline x86-64 build has SSE2's four. */
__attribute__((target("avx2"))) static uint64_t stops64_avx2(const unsigned char *d)
{
	const __m256i dot = _mm256_set1_epi8('.'), bang = _mm256_set1_epi8('!');
	const __m256i ask = _mm256_set1_epi8('?'), nl = _mm256_set1_epi8('\n');
	__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)d);
	__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(d + 32));
	__m256i ha = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(a, dot), _mm256_cmpeq_epi8(a, bang)),
				     _mm256_or_si256(_mm256_cmpeq_epi8(a, ask), _mm256_cmpeq_epi8(a, nl)));
	__m256i hb = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(b, dot), _mm256_cmpeq_epi8(b, bang)),
				     _mm256_or_si256(_mm256_cmpeq_epi8(b, ask), _mm256_cmpeq_epi8(b, nl)));

	return (uint64_t)(unsigned)_mm256_movemask_epi8(ha) |
	       (uint64_t)(unsigned)_mm256_movemask_epi8(hb) << 32;
}
#endif

static uint64_t stops_in(const unsigned char *d, size_t n, bool avx2)
{
	uint64_t m = 0;
	size_t k;

#ifdef STOPS_AVX2
	if (n == 64 && avx2)
		return stops64_avx2(d);
#else
	(void)avx2;
#endif
#if defined(__SSE2__)
	if (n == 64)
		return stops16(d) | stops16(d + 16) << 16 | stops16(d + 32) << 32 | stops16(d + 48) << 48;
#endif
	for (k = 0; k < n; k++)
		m |= (uint64_t)is_stop(d[k]) << k;
	return m;
}

/*
 * Finds the marks that start in d[from, n), d[0] being at stream offset
 * base, leftmost first and each after the last, and the line breaks not
 * yet recorded. Returns where the first undecided start is (n when none),
 * or -ENOMEM. Nothing after an undecided start is a line break: only
 * closers and blanks follow it to the end.
 */
static long long marks_in(struct engine_stream *s, const unsigned char *d, size_t n, size_t from,
			  uint64_t base)
{
	const struct engine *e = s->e;
#ifdef STOPS_AVX2
	const bool avx2 = CPU_FEATURE_ACTIVE(AVX2);
#else
	const bool avx2 = false;
#endif
	size_t p = from;

	if (s->mark_from > base + p)
		p = (size_t)(s->mark_from - base);
	while (p < n) {
		size_t at = p, k = MIN(n - p, 64);
		uint64_t m = stops_in(d + at, k, avx2);

		/* Each stop is at most one event of each list: room for them all. */
		if (m && (grow(&s->marks.v, &s->marks.cap, s->marks.n + 64, sizeof(*s->marks.v)) < 0
#if HAVE_HYPERSCAN
			  || grow(&s->nl, &s->cap_nl, s->n_nl + 64, sizeof(*s->nl)) < 0
#endif
			  ))
			return -ENOMEM;
		p = at + k;
		while (m) {
			size_t q = at + (size_t)__builtin_ctzll(m);
			int len;

			m &= m - 1;
			if (d[q] == '\n') {
				if (base + q >= s->line_from) {
					if (e->lines != NO_MARK)
						s->marks.v[s->marks.n++] = (struct event){
							.id = (unsigned)e->lines, .from = base + q, .to = base + q + 1};
#if HAVE_HYPERSCAN
					/* The piece's line breaks, for Hyperscan's reports too. */
					s->nl[s->n_nl++] = base + q;
#endif
					s->line_from = base + q + 1;
				}
				continue;
			}
			len = e->mark == NO_MARK ? 0 : mark_at(d, n, q);
			if (len == MARK_UNDECIDED)
				return (long long)q;
			if (len == 0)
				continue;
			s->marks.v[s->marks.n++] = (struct event){
				.id = (unsigned)e->mark, .from = base + q, .to = base + q + (size_t)len};
			s->mark_from = base + q + (size_t)len;
			/* The mark's bytes start nothing: go on after it. */
			if (q + (size_t)len >= p) {
				p = q + (size_t)len;
				break;
			}
			m &= ~(uint64_t)0 << (q + (size_t)len - at);
		}
	}
	return (long long)n;
}

/*
 * Scans the next piece for marks and line breaks; the stream offset is
 * still the piece's start.
 */
static int marks_feed(struct engine_stream *s, const char *buf, size_t len)
{
	const unsigned char *d = (const unsigned char *)buf;
	long long u;

	if (s->mark_tail_len > 0) {
		/* Starts in the tail, with enough of this piece to decide them. */
		unsigned char joined[2 * MARK_MAX];
		size_t t = s->mark_tail_len, k = len < MARK_MAX ? len : MARK_MAX;

		memcpy(joined, s->mark_tail, t);
		memcpy(joined + t, d, k);
		u = marks_in(s, joined, t + k, 0, s->offset - t);
		if (u < 0)
			return (int)u;
		s->mark_tail_len = 0;
		if ((size_t)u < t || ((size_t)u < t + k && k == len)) {
			/* Still undecided: this whole (short) piece joins the tail. */
			s->mark_tail_len = t + k - (size_t)u;
			memmove(s->mark_tail, joined + u, s->mark_tail_len);
			return 0;
		}
	}
	u = marks_in(s, d, len, 0, s->offset);
	if (u < 0)
		return (int)u;
	s->mark_tail_len = len - (size_t)u;
	memcpy(s->mark_tail, d + u, s->mark_tail_len);
	return 0;
}

/* ---- PCRE2: one line at a time ---- */

/*
 * The end of the longest match of pattern c anchored at start that is at
 * most ENGINE_MAX_MATCH long (Hyperscan drops longer reports, so it keeps
 * that one), or 0 when there is none. first_end is the backtracking
 * match's end, which stands where DFA cannot run the pattern.
 */
static size_t longest_at(struct engine_stream *s, pcre2_code *c, const char *subj,
			 size_t len, size_t start, size_t first_end)
{
	size_t best = first_end - start <= ENGINE_MAX_MATCH ? first_end : 0;
	size_t n = MIN(len, start + ENGINE_MAX_MATCH + DFA_SLACK);
	int rc, i;

	/* A shorter subject bounds the work, and leaves at most DFA_SLACK
	 * ends too long to keep: the longest that fit are among those listed. */
	rc = pcre2_dfa_match(c, (PCRE2_SPTR)subj, n, start, PCRE2_ANCHORED, s->dfa_md,
			     s->mctx, s->dfa_ws, DFA_WORKSPACE);
	if (rc == 0)
		rc = DFA_OVECTOR; /* more ends than room: the longest come first */
	if (rc > 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->dfa_md);

		for (i = 0; i < rc; i++) {
			size_t end = ov[2 * i + 1];

			if (end - start <= ENGINE_MAX_MATCH && end > best)
				best = end;
		}
	}
	return best;
}

/*
 * Matches every PCRE2 pattern over line[0, len) from its resume point and
 * keeps the matches that start before limit (window coordinates).
 */
static int scan_line(struct engine_stream *s, size_t len, size_t limit)
{
	const struct engine *e = s->e;
	size_t i;
	int err;

	for (i = 0; i < e->n; i++) {
		size_t pos = s->resume[i];

		if (!e->pcre2[i])
			continue;
		/* A line without the literal a pattern starts with holds no match:
		 * one search, not a call of pcre2_match (which costs more than
		 * the search on the short lines of prose). */
		if (e->lit[i].len && pos < len &&
		    !find_literal(s->line + pos, len - pos, e->lit[i].s, e->lit[i].len))
			continue;
		while (pos < limit) {
			PCRE2_SIZE *ov;
			size_t from, to;
			int rc;

			rc = pcre2_match(e->code[i], (PCRE2_SPTR)s->line, len, pos, 0, s->md, s->mctx);
			if (rc == PCRE2_ERROR_NOMATCH)
				break;
			if (rc < 0) {
				/* A limit: where the search stopped is unknown, so the
				 * rest of this window is skipped for this pattern, and
				 * counted so that the caller can say so. */
				s->limit_hits++;
				pos = len;
				break;
			}
			ov = pcre2_get_ovector_pointer(s->md);
			from = ov[0];
			if (from >= limit)
				break;
			to = longest_at(s, e->code[i], s->line, len, from, ov[1]);
			if (to > from) {
				err = finalize(s, (unsigned)i, s->line_base + from, s->line_base + to);
				if (err < 0)
					return err;
				pos = to;
			} else {
				/* Every end is too far (or the match is empty, which
				 * compiling refuses): Hyperscan drops the ends whose
				 * leftmost start this is, up to the furthest. */
				pos = MAX(ov[1], from + 1);
			}
		}
		s->resume[i] = pos;
	}
	return 0;
}

/* Drops line[0, k) after it has been matched. */
static void line_consume(struct engine_stream *s, size_t k)
{
	size_t i;

	memmove(s->line, s->line + k, s->line_len - k);
	s->line_len -= k;
	s->line_base += k;
	for (i = 0; i < s->e->n; i++)
		s->resume[i] = s->resume[i] > k ? s->resume[i] - k : 0;
}

static int pcre2_feed(struct engine_stream *s, const char *buf, size_t len)
{
	int err;

	while (len > 0) {
		const char *nl = memchr(buf, '\n', len);
		size_t take = nl ? (size_t)(nl - buf) + 1 : len;

		if (grow(&s->line, &s->line_cap, s->line_len + take, 1) < 0)
			return -ENOMEM;
		memcpy(s->line + s->line_len, buf, take);
		s->line_len += take;
		buf += take;
		len -= take;
		if (nl) {
			err = scan_line(s, s->line_len, s->line_len);
			if (err < 0)
				return err;
			memset(s->resume, 0, s->e->n * sizeof(*s->resume));
			line_consume(s, s->line_len);
		} else if (s->line_len > LINE_CAP) {
			/* A long line: settle what starts in all but the last
			 * ENGINE_MAX_MATCH bytes, which may still grow. */
			size_t cut = s->line_len - ENGINE_MAX_MATCH;

			err = scan_line(s, s->line_len, cut);
			if (err < 0)
				return err;
			line_consume(s, cut);
		}
	}
	return 0;
}

/* ---- Hyperscan: reports merged into leftmost-longest matches ---- */

#if HAVE_HYPERSCAN
static int on_hs_match(unsigned id, unsigned long long from, unsigned long long to,
		       unsigned flags, void *ctx)
{
	struct engine_stream *s = ctx;

	(void)flags;
	if (push(&s->raw, id, from, to) < 0) {
		s->error = -ENOMEM;
		return 1; /* stop scanning */
	}
	return 0;
}

/* A report of the late stream: offsets from its first byte; early ones dropped. */
static int on_hs_late(unsigned id, unsigned long long from, unsigned long long to,
		      unsigned flags, void *ctx)
{
	struct engine_stream *s = ctx;

	from += s->late_base;
	to += s->late_base;
	if (from < s->late_from)
		return 0;
	return on_hs_match(id, from, to, flags, ctx);
}

static int cmp_raw(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/*
 * Records one Hyperscan report (the leftmost start for one end) as a
 * candidate of its pattern. lastnl is 1 + the offset of the last line break
 * before the report's final byte (0: none). Nothing is settled here: a
 * later report can still reach further from an earlier start ("5" then
 * "5,231,877"), so candidates wait until no report can change them.
 */
static int merge(struct engine_stream *s, const struct event *r, uint64_t lastnl)
{
	struct candidates *c = &s->cand[r->id];
	size_t lo, hi;

	if (r->to - r->from > ENGINE_MAX_MATCH)
		return 0;
	if (lastnl > r->from)
		return 0; /* crosses a line break */
	if (r->from < s->last_end[r->id])
		return 0; /* overlaps a match already settled */
	/* Most reports extend the newest candidate. */
	if (c->n > 0 && c->v[c->n - 1].from == r->from) {
		if (r->to > c->v[c->n - 1].to)
			c->v[c->n - 1].to = r->to;
		return 0;
	}
	lo = 0;
	hi = c->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->v[mid].from < r->from)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->n && c->v[lo].from == r->from) {
		if (r->to > c->v[lo].to)
			c->v[lo].to = r->to;
		return 0;
	}
	if (grow(&c->v, &c->cap, c->n + 1, sizeof(*c->v)) < 0)
		return -ENOMEM;
	memmove(c->v + lo + 1, c->v + lo, (c->n - lo) * sizeof(*c->v));
	c->v[lo] = *r;
	c->n++;
	return 0;
}

/* Sorts raw[0, mid) and raw[mid, n) apart (each mostly in order), then merges them. */
static int merge_runs(struct engine_stream *s, size_t mid)
{
	struct events *r = &s->raw, *m = &s->merged;
	size_t i = 0, j = mid, k = 0;

	sort_events(r->v, mid, cmp_raw);
	sort_events(r->v + mid, r->n - mid, cmp_raw);
	if (grow(&m->v, &m->cap, r->n, sizeof(*m->v)) < 0)
		return -ENOMEM;
	while (i < mid || j < r->n) {
		if (j == r->n || (i < mid && cmp_raw(&r->v[i], &r->v[j]) <= 0))
			m->v[k++] = r->v[i++];
		else
			m->v[k++] = r->v[j++];
	}
	/* The merged array becomes the reports; the old one the next room. */
	{
		struct events t = *m;

		m->v = r->v;
		m->cap = r->cap;
		r->v = t.v;
		r->cap = t.cap;
	}
	return 0;
}

/*
 * hs_scan_stream() of buf that reads nothing past its end (HS_TAIL): all
 * but its last HS_TAIL bytes in place (what is read past them is still
 * buf's), those from a copy. A stream reports the same whatever its pieces.
 */
static hs_error_t hs_scan_padded(struct engine_stream *s, hs_stream_t *st, const char *buf,
				 size_t len, match_event_handler cb)
{
	hs_error_t rc;

	if (len > HS_TAIL) {
		rc = hs_scan_stream(st, buf, (unsigned)(len - HS_TAIL), 0, s->scratch, cb, s);
		if (rc != HS_SUCCESS)
			return rc;
		buf += len - HS_TAIL;
		len = HS_TAIL;
	}
	if (len > 0)
		memcpy(s->hs_tail, buf, len);
	memset(s->hs_tail + len, 0, HS_TAIL);
	return hs_scan_stream(st, s->hs_tail, (unsigned)len, 0, s->scratch, cb, s);
}

/*
 * Scans buf, the input from offset base, with the open streams among
 * hs[first..last] (close: ends them instead) and records the reports as
 * candidates. prev_nl must be where buf's first line starts; nl_known:
 * the byte scan has put buf's line breaks in s->nl already.
 */
static int hs_run(struct engine_stream *s, const char *buf, size_t len, uint64_t base, bool close,
		  int first, int last, bool nl_known)
{
	size_t i, k = 0, run[2] = {0, 0};
	int w, err;

	s->raw.n = 0;
	if (!nl_known)
		s->n_nl = 0;
	for (i = 0; i < len && !nl_known;) {
		const char *nl = memchr(buf + i, '\n', len - i);

		if (!nl)
			break;
		if (grow(&s->nl, &s->cap_nl, s->n_nl + 1, sizeof(*s->nl)) < 0)
			return -ENOMEM;
		i = (size_t)(nl - buf);
		s->nl[s->n_nl++] = base + i;
		i++;
	}
	for (w = first; w <= last; w++) {
		match_event_handler cb = w == 0 ? on_hs_match : on_hs_late;
		hs_error_t rc;

		run[w] = s->raw.n;
		if (!s->hs[w])
			continue;
		if (close) {
			rc = hs_close_stream(s->hs[w], s->scratch, cb, s);
			s->hs[w] = NULL;
		} else {
			rc = hs_scan_padded(s, s->hs[w], buf, len, cb);
		}
		if (s->error)
			return s->error;
		if (rc != HS_SUCCESS)
			return -EIO;
	}
	/* Each stream's reports come mostly in order: sort each, then merge the two. */
	if (first == 0 && last == 1 && run[1] > 0 && run[1] < s->raw.n) {
		err = merge_runs(s, run[1]);
		if (err < 0)
			return err;
	} else {
		sort_events(s->raw.v, s->raw.n, cmp_raw);
	}
	for (i = 0; i < s->raw.n; i++) {
		const struct event *r = &s->raw.v[i];
		uint64_t lastnl = s->prev_nl;

		/* Line breaks strictly before the report's last byte. */
		while (k < s->n_nl && s->nl[k] + 1 < r->to)
			k++;
		if (k > 0)
			lastnl = s->nl[k - 1] + 1;
		err = merge(s, r, lastnl);
		if (err < 0)
			return err;
	}
	if (s->n_nl > 0)
		s->prev_nl = s->nl[s->n_nl - 1] + 1;
	return 0;
}

static int hs_piece(struct engine_stream *s, const char *buf, size_t len, bool close,
		    bool nl_known)
{
	return hs_run(s, buf, len, s->offset, close, 0, 1, nl_known);
}

/*
 * Where no report can still change a candidate: a match is at most
 * ENGINE_MAX_MATCH long and never crosses a line break, so nothing still to
 * come starts before this offset.
 */
static uint64_t hs_settled(const struct engine_stream *s)
{
	uint64_t reach = s->offset > ENGINE_MAX_MATCH ? s->offset - ENGINE_MAX_MATCH : 0;

	return MAX(reach, s->prev_nl);
}

/*
 * Settles candidates that start before the settled offset (all of them at
 * the end): leftmost first, each to its furthest end, dropping those that
 * start inside a match already taken.
 */
static int hs_settle(struct engine_stream *s, bool all)
{
	uint64_t upto = all ? UINT64_MAX : hs_settled(s);
	size_t i, k;
	int err;

	for (i = 0; i < s->e->n; i++) {
		struct candidates *c = &s->cand[i];

		for (k = 0; k < c->n && c->v[k].from < upto; k++) {
			if (c->v[k].from < s->last_end[i])
				continue;
			err = finalize(s, (unsigned)i, c->v[k].from, c->v[k].to);
			if (err < 0)
				return err;
		}
		if (k > 0) {
			memmove(c->v, c->v + k, (c->n - k) * sizeof(*c->v));
			c->n -= k;
		}
	}
	return 0;
}
#endif

uint64_t engine_stream_watermark(const struct engine_stream *s)
{
	uint64_t wm = s->offset;

#if HAVE_HYPERSCAN
	/* Candidates left after settling all start at or after this. */
	if (s->hs[0] || s->hs[1])
		wm = hs_settled(s);
#endif
	if (s->e->n_pcre2 && s->line_base < wm)
		wm = s->line_base;
	return wm;
}

uint64_t engine_stream_offset(const struct engine_stream *s)
{
	return s->offset;
}

uint64_t engine_stream_limit_hits(const struct engine_stream *s)
{
	return s->limit_hits;
}

/* Drops the first k events of ev. */
static void consume(struct events *ev, size_t k)
{
	if (k == 0)
		return; /* also: v may still be NULL, and memmove(NULL, ...) is undefined */
	memmove(ev->v, ev->v + k, (ev->n - k) * sizeof(*ev->v));
	ev->n -= k;
}

/*
 * The callback woke the late patterns: their matches join the finals in
 * order. The events delivered so far (f's first *i, the marks' first *j)
 * are consumed, and the walk starts again at the front.
 */
static void resort(struct engine_stream *s, size_t *i, size_t *j)
{
	s->resort = false;
	consume(&s->finals, *i);
	consume(&s->marks, *j);
	*i = *j = 0;
	sort_events(s->finals.v, s->finals.n, cmp_event);
}

/*
 * Delivers the final matches that start before the watermark, in order:
 * the patterns' (sorted here) merged with the sentence marks (in order
 * already, and the most numerous).
 */
static int deliver(struct engine_stream *s, uint64_t wm, engine_match_fn cb, void *ctx)
{
	struct events *f = &s->finals, *m = &s->marks;
	size_t i = 0, j = 0;
	int err = 0;

	sort_events(f->v, f->n, cmp_event);
	while (err == 0) {
		bool take_f = i < f->n && f->v[i].from < wm;
		bool take_m;
		const struct event *ev;

		/* The marks before the next match, the most numerous by far, in a
		 * run (a match at the same offset is ordered below). */
		if (j < m->n && m->v[j].from < (take_f ? f->v[i].from : wm)) {
			uint64_t lim = take_f ? f->v[i].from : wm;

			do {
				ev = &m->v[j++];
				err = cb(ctx, ev->id, ev->from, ev->to);
			} while (err == 0 && !s->resort && j < m->n && m->v[j].from < lim);
			if (s->resort)
				resort(s, &i, &j);
			continue;
		}
		take_m = j < m->n && m->v[j].from < wm;

		if (take_f && take_m)
			take_m = cmp_event(&m->v[j], &f->v[i]) < 0;
		if (take_m)
			ev = &m->v[j++];
		else if (take_f)
			ev = &f->v[i++];
		else
			break;
		err = cb(ctx, ev->id, ev->from, ev->to);
		if (s->resort)
			resort(s, &i, &j);
	}
	consume(f, i);
	consume(m, j);
	return err;
}

int engine_stream_wake(struct engine_stream *s, const char *bytes, size_t n, uint64_t at,
		       uint64_t from)
{
	int err = 0;

	if (s->woken)
		return 0;
#if HAVE_HYPERSCAN
	if (!s->e->db[1]) {
		s->woken = true;
		return 0;
	}
	if (at + n != s->offset || from < at)
		return -EINVAL;
	/* Once per stream: hs_alloc_scratch() checksums the database each time
	 * (with grounding, the stream wakes at the start of every input). */
	if (!s->late_scratch && hs_alloc_scratch(s->e->db[1], &s->scratch) != HS_SUCCESS)
		return -ENOMEM;
	s->late_scratch = true;
	if (hs_open_stream(s->e->db[1], 0, &s->hs[1]) != HS_SUCCESS)
		return -ENOMEM;
	s->woken = true;
	s->late_base = at;
	s->late_from = from;
	if (n > 0 || s->ending) {
		/* Catch up on bytes already read: their lines start at at. */
		uint64_t prev_nl = s->prev_nl;

		s->prev_nl = at;
		err = hs_run(s, bytes, n, at, false, 1, 1, false);
		if (err == 0 && s->ending)
			err = hs_run(s, NULL, 0, s->offset, true, 1, 1, false);
		s->prev_nl = MAX(prev_nl, s->prev_nl);
		if (err == 0)
			err = hs_settle(s, s->ending);
		s->resort = true;
	}
#else
	(void)bytes;
	(void)n;
	(void)at;
	(void)from;
	s->woken = true;
#endif
	return err;
}

int engine_stream_feed(struct engine_stream *s, const char *buf, size_t len,
		       engine_match_fn cb, void *ctx)
{
	int err;

	while (len > 0) {
		size_t n = len < PIECE ? len : PIECE;
		bool scanned = s->e->mark != NO_MARK || s->e->lines != NO_MARK;

		/* First the byte scan: it finds the piece's line breaks for all. */
#if HAVE_HYPERSCAN
		s->n_nl = 0;
#endif
		if (scanned) {
			err = marks_feed(s, buf, n);
			if (err < 0)
				return err;
		}
#if HAVE_HYPERSCAN
		if (scanned && s->lines_fn) {
			err = s->lines_fn(s->lines_ctx, buf, n, s->offset, s->nl, s->n_nl);
			if (err)
				return err;
		}
#endif
#if HAVE_HYPERSCAN
		if (s->hs[0] || s->hs[1]) {
			err = hs_piece(s, buf, n, false, scanned);
			if (err < 0)
				return err;
		}
#endif
		if (s->e->n_pcre2) {
			err = pcre2_feed(s, buf, n);
			if (err < 0)
				return err;
		}
		s->offset += n;
#if HAVE_HYPERSCAN
		err = hs_settle(s, false);
		if (err < 0)
			return err;
#endif
		err = deliver(s, engine_stream_watermark(s), cb, ctx);
		if (err)
			return err;
		buf += n;
		len -= n;
	}
	return 0;
}

bool engine_stream_on_lines(struct engine_stream *s, engine_lines_fn fn, void *ctx)
{
#if HAVE_HYPERSCAN
	if (s->e->mark == NO_MARK && s->e->lines == NO_MARK)
		return false;
	s->lines_fn = fn;
	s->lines_ctx = ctx;
	return true;
#else
	(void)s, (void)fn, (void)ctx;
	return false;
#endif
}

int engine_stream_reset(struct engine_stream *s)
{
#if HAVE_HYPERSCAN
	/* Without a callback Hyperscan reports nothing. */
	if (s->hs[0])
		hs_close_stream(s->hs[0], s->scratch, NULL, NULL);
	s->hs[0] = NULL;
#endif
	return stream_open(s);
}

int engine_stream_end(struct engine_stream *s, engine_match_fn cb, void *ctx)
{
	int err = 0;

	s->ending = true;
#if HAVE_HYPERSCAN
	if (s->hs[0] || s->hs[1]) {
		err = hs_piece(s, NULL, 0, true, false);
		if (err < 0)
			return err;
	}
	err = hs_settle(s, true);
	if (err < 0)
		return err;
#endif
	if (s->e->n_pcre2 && s->line_len > 0) {
		err = scan_line(s, s->line_len, s->line_len);
		if (err < 0)
			return err;
		line_consume(s, s->line_len);
	}
	err = deliver(s, UINT64_MAX, cb, ctx);
	if (err)
		return err;
	return stream_open(s);
}
