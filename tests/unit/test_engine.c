// SPDX-License-Identifier: MIT
/* The engine: one match semantics for Hyperscan and PCRE2, whatever the reads. */
#include <errno.h>
#include <stdlib.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "config.h"
#include "match/engine.h"
#include "test.h"

struct ev {
	unsigned id;
	uint64_t from, to;
};

struct evs {
	struct ev v[32768];
	size_t n;
	uint64_t last_from;
	bool out_of_order;
};

static int collect(void *ctx, unsigned id, uint64_t from, uint64_t to)
{
	struct evs *e = ctx;

	if (from < e->last_from)
		e->out_of_order = true;
	e->last_from = from;
	if (e->n < sizeof(e->v) / sizeof(e->v[0]))
		e->v[e->n++] = (struct ev){id, from, to};
	return 0;
}

enum split { WHOLE, BYTES, RANDOM };

/* Scans text fed as split says; events land in out. */
static void run(const struct engine *e, const char *text, size_t len, enum split how,
		unsigned seed, struct evs *out)
{
	struct engine_stream *s = NULL;
	size_t i = 0;

	memset(out, 0, sizeof(*out));
	CHECK_EQ(engine_stream_new(e, &s), 0);
	if (!s)
		return;
	while (i < len) {
		size_t n = len - i;

		if (how == BYTES)
			n = 1;
		else if (how == RANDOM) {
			seed = seed * 1103515245u + 12345u;
			n = 1 + (seed >> 16) % 97;
			if (n > len - i)
				n = len - i;
		}
		CHECK_EQ(engine_stream_feed(s, text + i, n, collect, out), 0);
		i += n;
	}
	CHECK_EQ(engine_stream_end(s, collect, out), 0);
	CHECK(!out->out_of_order);
	engine_stream_free(s);
}

static bool same(const struct evs *a, const struct evs *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->v[i].id != b->v[i].id || a->v[i].from != b->v[i].from || a->v[i].to != b->v[i].to)
			return false;
	return true;
}

static void dump(const char *label, const struct evs *a)
{
	size_t i;

	fprintf(stderr, "  %s:", label);
	for (i = 0; i < a->n; i++)
		fprintf(stderr, " %u@%llu-%llu", a->v[i].id, (unsigned long long)a->v[i].from,
			(unsigned long long)a->v[i].to);
	fprintf(stderr, "\n");
}

/* Overlapping alternatives: the merge must give their alternation's matches. */
static const char *const alts[] = {"\\d{1,3} [a-z]{3,4}", "\\d{2,9}", "ab[a-z]"};

static const struct engine_pattern pats[] = {
	{"<tool_output>", ENGINE_LITERAL, NULL, 0},
	{"https?://[a-z0-9](?:[^\\s<>\"()]|\\([^\\s<>\"()]*\\))*(?:[^\\s<>\"().,;:!?]|\\([^\\s<>\"()]*\\))", ENGINE_CASELESS, NULL, 0},
	{"\\b\\d{1,3}\\.\\d{1,6}[ \\t]{0,2}%", 0, NULL, 0},
	{"[Ww]ill[ \\t](?:definitely|certainly)\\b", 0, NULL, 0},
	{"ab|abcd|bcdef", 0, NULL, 0},
	{"x[a-z ]*y", 0, NULL, 0},
	/* A later report reaches further from an earlier start: "5", then "5,231,877". */
	{"\\b(?:\\d{1,3}(?:,\\d{3}){1,5}|\\d{1,15})(?:[ \\t][a-z]{3,20}\\b)?", 0, NULL, 0},
	{"(?:\\d{1,3} [a-z]{3,4})|(?:\\d{2,9})|(?:ab[a-z])", 0, alts, ARRAY_SIZE(alts)},
};

static const char *const inputs[] = {
	"See https://docs.example.com/x. It grew 73.4%.\n",
	"URL https://en.wikipedia.org/wiki/Foo_(bar). and (https://a.example/b) end\n",
	"abcdef abcd ab bcdefg\nxx yy x\ny xay\n",
	"<tool_output>https://t.example/a</tool_output> It will certainly rise 12.5 % and 7.25%",
	"no newline at the end https://example.com/tail",
	"\n\n\nWILL certainly? Will certainly! https://X.COM/A?b=(c)\n",
	"multi\xc3\xa9 byte 1.5% \xff\xfe invalid https://e.example/\xe2\x80\x94 dash\n",
	"It had 5,231,877 downloads, 1,2 and 12,345,678,901,234 or 7 cats\n",
};

/* Every input gives the same matches whole, byte by byte and at random splits. */
static void check_splits(enum engine_backend be)
{
	struct engine *e = NULL;
	struct diag d;
	static struct evs whole, part;
	size_t i;
	unsigned seed;

	CHECK_EQ(engine_compile(pats, ARRAY_SIZE(pats), be, &e, &d), 0);
	if (!e)
		return;
	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		size_t len = strlen(inputs[i]);

		run(e, inputs[i], len, WHOLE, 0, &whole);
		CHECK(whole.n > 0);
		run(e, inputs[i], len, BYTES, 0, &part);
		if (!same(&whole, &part)) {
			dump("whole", &whole);
			dump("bytes", &part);
			CHECK(!"byte-by-byte feed differs");
		}
		for (seed = 1; seed < 40; seed++) {
			run(e, inputs[i], len, RANDOM, seed, &part);
			if (!same(&whole, &part)) {
				dump("whole", &whole);
				dump("random", &part);
				CHECK(!"random split differs");
				break;
			}
		}
	}
	engine_free(e);
}

TEST(engine_split_invariance_hyperscan)
{
	check_splits(ENGINE_AUTO);
}

TEST(engine_split_invariance_pcre2)
{
	check_splits(ENGINE_PCRE2);
}

/* Hyperscan and PCRE2 agree on every input. */
TEST(engine_backends_agree)
{
	struct engine *hs = NULL, *pc = NULL;
	static struct evs a, b;
	struct diag d;
	size_t i;

	CHECK_EQ(engine_compile(pats, ARRAY_SIZE(pats), ENGINE_AUTO, &hs, &d), 0);
	CHECK_EQ(engine_compile(pats, ARRAY_SIZE(pats), ENGINE_PCRE2, &pc, &d), 0);
	if (!hs || !pc)
		return;
	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		run(hs, inputs[i], strlen(inputs[i]), WHOLE, 0, &a);
		run(pc, inputs[i], strlen(inputs[i]), WHOLE, 0, &b);
		if (!same(&a, &b)) {
			dump("hyperscan", &a);
			dump("pcre2", &b);
			CHECK(!"backends differ");
		}
	}
	engine_free(hs);
	engine_free(pc);
}

/* A URL is one match, whole; overlapping alternatives give the leftmost-longest. */
TEST(engine_leftmost_longest)
{
	struct engine *e = NULL;
	static struct evs out;
	struct diag d;

	/* The first six patterns: the number pattern would add matches here. */
	CHECK_EQ(engine_compile(pats, 6, ENGINE_AUTO, &e, &d), 0);
	if (!e)
		return;
	run(e, inputs[0], strlen(inputs[0]), BYTES, 0, &out);
	CHECK_EQ(out.n, 2);
	CHECK_EQ(out.v[0].id, 1);
	CHECK_EQ(out.v[0].from, 4);
	CHECK_EQ(out.v[0].to, 30);
	CHECK_EQ(out.v[1].id, 2);
	CHECK_EQ(out.v[1].from, 40);
	CHECK_EQ(out.v[1].to, 45);
	/* "abcdef abcd ab bcdefg": abcd at 0, abcd at 7, ab at 12, bcdef at 15. */
	run(e, inputs[2], strlen(inputs[2]), WHOLE, 0, &out);
	CHECK_EQ(out.v[0].id, 4);
	CHECK(out.n >= 4);
	CHECK_EQ(out.v[0].from, 0);
	CHECK_EQ(out.v[0].to, 4);
	CHECK_EQ(out.v[1].from, 7);
	CHECK_EQ(out.v[1].to, 11);
	CHECK_EQ(out.v[2].from, 12);
	CHECK_EQ(out.v[2].to, 14);
	CHECK_EQ(out.v[3].from, 15);
	CHECK_EQ(out.v[3].to, 20);
	engine_free(e);
	/* The number: one match, whole, although Hyperscan first reports "5". */
	CHECK_EQ(engine_compile(pats, ARRAY_SIZE(pats), ENGINE_AUTO, &e, &d), 0);
	run(e, inputs[7], strlen(inputs[7]), BYTES, 0, &out);
	CHECK(out.n >= 1 && out.v[0].id == 6 && out.v[0].from == 7 && out.v[0].to == 26);
	engine_free(e);
}

/* A pattern that could match a line break is refused: matches never span lines. */
TEST(engine_refuses_line_breaks)
{
	static const char *const bad[] = {
		"x[a-z \\n]*y", "a\\s+b", "[^)]+", "x\\Ry", "(?s)a.b", "(?is:a.b)", "a[[:space:]]b",
		"a\\x0ab", "a\\vb",
	};
	static const char *const good[] = {
		"x[a-z \\t]*y", "[^\\s<>]+", "[^)\\n]+", "[^[:space:]]+", "a\\.b", "[]a]b", "\\\\s",
		"(?i)abc", "a.b",
	};
	struct engine_pattern p = {NULL, 0, NULL, 0};
	struct diag d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		p.expr = bad[i];
		CHECK_EQ(engine_check_pattern(&p, &d), -EINVAL);
		if (!strstr(d.msg, "line break"))
			fprintf(stderr, "  %s: %s\n", bad[i], d.msg);
	}
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		p.expr = good[i];
		if (engine_check_pattern(&p, &d) != 0) {
			fprintf(stderr, "  %s: %s\n", good[i], d.msg);
			CHECK(!"a pattern that cannot match a line break was refused");
		}
	}
	/* Literals are bytes, not regexes. */
	p = (struct engine_pattern){"\\s", ENGINE_LITERAL, NULL, 0};
	CHECK_EQ(engine_check_pattern(&p, &d), 0);
}

/* Matches stop at line ends whatever the reads, in both engines. */
TEST(engine_lines)
{
	static const struct engine_pattern p[] = {{"x[a-z \\t]*y", 0, NULL, 0}, {"b[^\\n]*", 0, NULL, 0}};
	const char *text = "ax b\ncy xay\nbb\n";
	struct engine *e = NULL;
	static struct evs a, b;
	struct diag d;

	CHECK_EQ(engine_compile(p, 2, ENGINE_AUTO, &e, &d), 0);
	if (!e)
		return;
	run(e, text, strlen(text), BYTES, 0, &a);
	CHECK_EQ(a.n, 3);
	CHECK_EQ(a.v[0].from, 3);  /* b to the line end */
	CHECK_EQ(a.v[0].to, 4);
	CHECK_EQ(a.v[1].from, 8);  /* xay */
	CHECK_EQ(a.v[1].to, 11);
	CHECK_EQ(a.v[2].from, 12); /* bb */
	CHECK_EQ(a.v[2].to, 14);
	engine_free(e);
	CHECK_EQ(engine_compile(p, 2, ENGINE_PCRE2, &e, &d), 0);
	run(e, text, strlen(text), WHOLE, 0, &b);
	CHECK(same(&a, &b));
	engine_free(e);
}

/* A lookbehind is refused by Hyperscan and runs on PCRE2 beside the rest. */
TEST(engine_per_pattern_fallback)
{
	static const struct engine_pattern p[] = {
		{"cat", 0, NULL, 0},
		{"(?<=big )dog", 0, NULL, 0},
		{"dog", 0, NULL, 0},
	};
	const char *text = "a big dog and a small dog, a cat\n";
	struct engine *e = NULL;
	struct engine_info info;
	static struct evs a, b;
	struct diag d;

	CHECK_EQ(engine_compile(p, 3, ENGINE_AUTO, &e, &d), 0);
	if (!e)
		return;
	engine_get_info(e, &info);
	if (HAVE_HYPERSCAN) {
		CHECK(!engine_is_pcre2(e, 0));
		CHECK(engine_is_pcre2(e, 1));
		CHECK(!engine_is_pcre2(e, 2));
		CHECK_STR(info.backend, "hyperscan+pcre2");
		CHECK_EQ(info.n_pcre2, 1);
	}
	run(e, text, strlen(text), WHOLE, 0, &a);
	CHECK_EQ(a.n, 4); /* dog@6 (both), dog@22, cat@29 */
	CHECK_EQ(a.v[0].id, 1);
	CHECK_EQ(a.v[0].from, 6);
	CHECK_EQ(a.v[1].id, 2);
	CHECK_EQ(a.v[1].from, 6);
	CHECK_EQ(a.v[2].from, 22);
	CHECK_EQ(a.v[3].id, 0);
	run(e, text, strlen(text), BYTES, 0, &b);
	CHECK(same(&a, &b));
	engine_free(e);
}

/* Alternatives compiled apart give their alternation's leftmost-longest matches. */
TEST(engine_alternatives)
{
	const char *text = "x 12345 cats abz 7 dogs 12 cats\n";
	static const struct { uint64_t from, to; } want[] = {{2, 7}, {13, 16}, {17, 23}, {24, 31}};
	static const enum engine_backend be[] = {ENGINE_AUTO, ENGINE_PCRE2};
	struct engine *e = NULL;
	static struct evs out;
	struct diag d;
	size_t i, k;

	for (k = 0; k < ARRAY_SIZE(be); k++) {
		CHECK_EQ(engine_compile(&pats[ARRAY_SIZE(pats) - 1], 1, be[k], &e, &d), 0);
		if (!e)
			return;
		CHECK(!HAVE_HYPERSCAN || be[k] == ENGINE_PCRE2 || !engine_is_pcre2(e, 0));
		run(e, text, strlen(text), BYTES, 0, &out);
		CHECK_EQ(out.n, ARRAY_SIZE(want));
		for (i = 0; i < out.n && i < ARRAY_SIZE(want); i++) {
			CHECK_EQ(out.v[i].from, want[i].from);
			CHECK_EQ(out.v[i].to, want[i].to);
		}
		engine_free(e);
	}
}

/*
 * The sentence-mark scan has exactly the matches of its regex, run by
 * PCRE2 over the whole text (a start has at most one match, so PCRE2's
 * leftmost-first is the leftmost-longest), and the line breaks come in
 * order among them: random texts over the bytes that matter, read whole,
 * byte by byte and in random pieces.
 */
TEST(engine_sentence_marks_are_the_regex)
{
	static const char alphabet[] = ".!?\"')] \t\n\raB1(";
	static const struct engine_pattern mark[] = {
		{ENGINE_SENTENCE_MARK_RE, ENGINE_SENTENCE_MARK, NULL, 0},
		{"\n", ENGINE_LINE_BREAK, NULL, 0},
	};
	static const enum engine_backend be[] = {ENGINE_AUTO, ENGINE_PCRE2};
	static struct evs want, got;
	struct engine *e[2] = {NULL, NULL};
	pcre2_match_data *md;
	pcre2_code *re;
	unsigned seed = 7;
	char text[256];
	struct diag d;
	size_t k, i, t;
	PCRE2_SIZE off;
	int errcode;

	re = pcre2_compile((PCRE2_SPTR)ENGINE_SENTENCE_MARK_RE, PCRE2_ZERO_TERMINATED, 0, &errcode,
			   &off, NULL);
	md = re ? pcre2_match_data_create_from_pattern(re, NULL) : NULL;
	CHECK(md != NULL);
	for (k = 0; k < 2; k++)
		CHECK_EQ(engine_compile(mark, ARRAY_SIZE(mark), be[k], &e[k], &d), 0);
	for (t = 0; t < 3000 && md && e[0] && e[1]; t++) {
		size_t len;

		seed = seed * 1103515245u + 12345u;
		len = (seed >> 16) % sizeof(text);
		for (i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			text[i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		memset(&want, 0, sizeof(want));
		for (off = 0, i = 0; off < len || i < len;) {
			PCRE2_SIZE *ov = NULL;

			if (off < len && pcre2_match(re, (PCRE2_SPTR)text, len, off, 0, md, NULL) >= 0)
				ov = pcre2_get_ovector_pointer(md);
			else
				off = len;
			/* Line breaks before the next mark (a mark never holds one). */
			for (; i < len && (!ov || i < ov[0]); i++)
				if (text[i] == '\n')
					want.v[want.n++] = (struct ev){1, i, i + 1};
			if (!ov)
				continue;
			want.v[want.n++] = (struct ev){0, ov[0], ov[1]};
			off = i = ov[1];
		}
		for (k = 0; k < 2; k++) {
			static const enum split how[] = {WHOLE, BYTES, RANDOM};
			size_t h;

			for (h = 0; h < ARRAY_SIZE(how); h++) {
				run(e[k], text, len, how[h], seed, &got);
				if (!same(&want, &got)) {
					fprintf(stderr, "  text \"%.*s\" backend %zu split %zu\n", (int)len,
						text, k, h);
					dump("regex", &want);
					dump("scan", &got);
					CHECK(!"the sentence-mark scan differs from its regex");
					t = SIZE_MAX - 1;
					break;
				}
			}
		}
	}
	for (k = 0; k < 2; k++)
		engine_free(e[k]);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
}

/*
 * The mark of the stop at t[i] by the regex's own reading, or 0: up to
 * three closers, one to four blanks, then a byte that is none of blank, CR
 * or LF (taking the runs whole loses no match: what follows each run
 * cannot be one of its bytes).
 */
static size_t mark_by_hand(const unsigned char *t, size_t n, size_t i)
{
	size_t j = i + 1, closers = 0, blanks = 0;

	if (t[i] != '.' && t[i] != '!' && t[i] != '?')
		return 0;
	while (j < n && closers < 3 && (t[j] == '"' || t[j] == '\'' || t[j] == ')' || t[j] == ']'))
		j++, closers++;
	while (j < n && blanks < 4 && (t[j] == ' ' || t[j] == '\t'))
		j++, blanks++;
	if (blanks == 0 || j == n || t[j] == ' ' || t[j] == '\t' || t[j] == '\r' || t[j] == '\n')
		return 0;
	return j + 1 - i;
}

/*
 * The sentence-mark scan against a reading by hand, fed in pieces of every
 * size from 1 to 130 bytes and whole: random texts thick with stops,
 * closers, blanks, CR and LF (and bytes that share a half-byte with them),
 * so that marks meet the ends of pieces and of 64-byte blocks every way. Each
 * mark and line break in order, with its length; with marks alone and line
 * breaks alone too; with AVX2 and without.
 */
TEST(engine_marks_in_pieces)
{
	static const char alphabet[] = ".!?.!?\"')]\"')]  \t \t \n\n\r\r"
				       "aB1(-/*>PRWY\x00\x0e\x2d\x5d\x7f\xae\xa0\xa9\xff";
	static const struct engine_pattern both[] = {
		{ENGINE_SENTENCE_MARK_RE, ENGINE_SENTENCE_MARK, NULL, 0},
		{"\n", ENGINE_LINE_BREAK, NULL, 0},
	};
	static struct evs want, got;
	struct engine *e[3] = {NULL, NULL, NULL};
	uint64_t seed = 35;
	unsigned char text[700];
	int avx2 = util_avx2;
	struct diag d;
	size_t k, i, t, piece;

	CHECK_EQ(engine_compile(both, 2, ENGINE_AUTO, &e[0], &d), 0);
	CHECK_EQ(engine_compile(both, 1, ENGINE_AUTO, &e[1], &d), 0);
	CHECK_EQ(engine_compile(both + 1, 1, ENGINE_AUTO, &e[2], &d), 0);
	for (t = 0; t < 48 && e[0] && e[1] && e[2]; t++) {
		size_t len = 130 + test_xorshift(&seed) % (sizeof(text) - 130);

		for (i = 0; i < len; i++)
			text[i] = (unsigned char)alphabet[test_xorshift(&seed) % (sizeof(alphabet) - 1)];
		/* Every other text without AVX2: the scan's portable blocks. */
		util_avx2 = t % 2 ? 1 : avx2;
		for (k = 0; k < 3; k++) {
			/* want: the reading by hand, less what this engine has no pattern for */
			memset(&want, 0, sizeof(want));
			for (i = 0; i < len; i++) {
				size_t m = k == 2 ? 0 : mark_by_hand(text, len, i);

				if (text[i] == '\n' && k != 1)
					want.v[want.n++] = (struct ev){k == 2 ? 0 : 1, i, i + 1};
				if (m) {
					want.v[want.n++] = (struct ev){0, i, i + m};
					i += m - 1;
				}
			}
			for (piece = 1; piece <= 131; piece++) {
				struct engine_stream *s = NULL;
				size_t step = piece == 131 ? len : piece;

				memset(&got, 0, sizeof(got));
				CHECK_EQ(engine_stream_new(e[k], &s), 0);
				if (!s)
					break;
				for (i = 0; i < len; i += step)
					CHECK_EQ(engine_stream_feed(s, (const char *)text + i, MIN(step, len - i),
								    collect, &got), 0);
				CHECK_EQ(engine_stream_end(s, collect, &got), 0);
				engine_stream_free(s);
				if (!same(&want, &got)) {
					fprintf(stderr, "  text %zu (%zu bytes), engine %zu, pieces of %zu\n", t,
						len, k, step);
					dump("by hand", &want);
					dump("scan", &got);
					CHECK(!"the sentence-mark scan differs in pieces");
					t = SIZE_MAX - 1;
					k = 3;
					break;
				}
			}
		}
	}
	util_avx2 = avx2;
	for (k = 0; k < 3; k++)
		engine_free(e[k]);
}

/*
 * Late patterns: woken from the callback at a trigger's match, with the
 * bytes from the trigger's line start, they report exactly what an engine
 * scanning them all along reports from the trigger on, whatever the reads.
 */
struct late_run {
	struct evs *out;
	struct engine_stream *s;
	const char *text;
	uint64_t line_start, woken_at;
	bool wake;
	int err;
};

static int late_collect(void *ctx, unsigned id, uint64_t from, uint64_t to)
{
	struct late_run *r = ctx;

	if (id == 1) /* the line break */
		r->line_start = to;
	if (r->wake && id == 0 && r->woken_at == UINT64_MAX) {
		uint64_t scanned = engine_stream_offset(r->s);

		r->woken_at = from;
		r->err = engine_stream_wake(r->s, r->text + r->line_start,
					    (size_t)(scanned - r->line_start), r->line_start, from);
	}
	return collect(r->out, id, from, to);
}

static void run_late(const struct engine *e, const char *text, enum split how, unsigned seed,
		     bool wake, struct evs *out, uint64_t *woken_at)
{
	struct late_run r = {.out = out, .text = text, .woken_at = UINT64_MAX, .wake = wake};
	size_t len = strlen(text), i = 0;

	memset(out, 0, sizeof(*out));
	CHECK_EQ(engine_stream_new(e, &r.s), 0);
	if (!r.s)
		return;
	while (i < len) {
		size_t n = len - i;

		if (how == BYTES)
			n = 1;
		else if (how == RANDOM) {
			seed = seed * 1103515245u + 12345u;
			n = MIN(len - i, 1 + (seed >> 16) % 97);
		}
		CHECK_EQ(engine_stream_feed(r.s, text + i, n, late_collect, &r), 0);
		i += n;
	}
	CHECK_EQ(engine_stream_end(r.s, late_collect, &r), 0);
	CHECK_EQ(r.err, 0);
	CHECK(!out->out_of_order);
	*woken_at = r.woken_at;
	engine_stream_free(r.s);
}

TEST(engine_late_patterns)
{
	static const char *const texts[] = {
		"12 cats and 7 dogs\nmore 55 here <t> 88 birds, 9 and 1,234 items\n3 more\n",
		"no trigger 5 6 7\n",
		"<t>1 2 3",
		"pre 44 <t>",
		"x 1,2\n\n  9,999 <t> 10 <t> 11 apples\nend 5",
	};
	struct engine_pattern lp[] = {
		{"<t>", ENGINE_LITERAL, NULL, 0},
		{"\n", ENGINE_LINE_BREAK, NULL, 0},
		{"\\b(?:\\d{1,3}(?:,\\d{3}){1,5}|\\d{1,15})(?:[ \\t][a-z]{3,20}\\b)?", ENGINE_LATE, NULL, 0},
		{"[a-z]+s\\b", 0, NULL, 0},
	};
	static const enum split how[] = {WHOLE, BYTES, RANDOM};
	static struct evs all, got;
	struct engine *late = NULL, *always = NULL;
	struct diag d;
	size_t t, h, i, k;

	CHECK_EQ(engine_compile(lp, ARRAY_SIZE(lp), ENGINE_AUTO, &late, &d), 0);
	lp[2].flags = 0;
	CHECK_EQ(engine_compile(lp, ARRAY_SIZE(lp), ENGINE_AUTO, &always, &d), 0);
	if (!late || !always)
		return;
	CHECK(!HAVE_HYPERSCAN || !engine_is_pcre2(late, 2));
	for (t = 0; t < ARRAY_SIZE(texts); t++) {
		uint64_t woken_at = UINT64_MAX, ignored;

		run_late(always, texts[t], WHOLE, 0, false, &all, &ignored);
		for (h = 0; h < ARRAY_SIZE(how); h++) {
			run_late(late, texts[t], how[h], (unsigned)(t + 1), true, &got, &woken_at);
			/* want: everything, but the late pattern only from the trigger on
			 * (on PCRE2 it runs all along) */
			for (i = k = 0; i < all.n; i++) {
				const struct ev *w = &all.v[i];

				if (w->id == 2 && w->from < woken_at && !engine_is_pcre2(late, 2))
					continue;
				if (k >= got.n || got.v[k].id != w->id || got.v[k].from != w->from ||
				    got.v[k].to != w->to)
					break;
				k++;
			}
			if (i != all.n || k != got.n) {
				fprintf(stderr, "  text %zu split %zu, woken at %lld\n", t, h,
					woken_at == UINT64_MAX ? -1LL : (long long)woken_at);
				dump("always", &all);
				dump("late", &got);
				CHECK(!"late patterns differ from patterns scanned all along");
			}
		}
	}
	engine_free(late);
	engine_free(always);
}

/* Each alternative is checked alone, and named when it is wrong. */
TEST(engine_refuses_bad_alternatives)
{
	static const char *const empty[] = {"ab", "c?"}, *const unbalanced[] = {"a)", "(?:b"};
	struct engine_pattern p = {"(?:ab)|(?:c?)", 0, empty, 2};
	struct diag d;

	CHECK_EQ(engine_check_pattern(&p, &d), -EINVAL);
	CHECK(strstr(d.msg, "alternative 2: ") && strstr(d.msg, "empty string"));
	/* Joined, "(?:a))|(?:(?:b)" is as wrong as its parts; each part alone is caught first. */
	p = (struct engine_pattern){"(?:a))|(?:(?:b)", 0, unbalanced, 2};
	CHECK_EQ(engine_check_pattern(&p, &d), -EINVAL);
	CHECK(strstr(d.msg, "alternative 1: ") != NULL);
}

TEST(engine_refuses_bad_patterns)
{
	static const struct engine_pattern empty = {"a*", 0, NULL, 0}, broken = {"(unclosed", 0, NULL, 0};
	struct engine *e = NULL;
	struct diag d;

	CHECK_EQ(engine_check_pattern(&empty, &d), -EINVAL);
	CHECK(strstr(d.msg, "empty string") != NULL);
	CHECK_EQ(engine_check_pattern(&broken, &d), -EINVAL);
	CHECK(strstr(d.msg, "offset") != NULL);
	CHECK_EQ(engine_compile(&broken, 1, ENGINE_AUTO, &e, &d), -EINVAL);
	CHECK(e == NULL);
}

TEST(engine_serialize_roundtrip)
{
	struct engine *e = NULL, *back = NULL;
	unsigned char *buf = NULL, *img = NULL, *aligned = NULL;
	static struct evs a, b;
	size_t len = 0, ilen = 0;
	struct diag d;

	if (!HAVE_HYPERSCAN) {
		test_skip("no Hyperscan in this build");
		return;
	}
	CHECK_EQ(engine_compile(pats, ARRAY_SIZE(pats), ENGINE_AUTO, &e, &d), 0);
	CHECK_EQ(engine_serialize(e, "key-1", false, &buf, &len), 0);
	CHECK_EQ(engine_load(buf, len, "key-1", pats, ARRAY_SIZE(pats), &back, &d), 0);
	if (back) {
		run(e, inputs[1], strlen(inputs[1]), WHOLE, 0, &a);
		run(back, inputs[1], strlen(inputs[1]), RANDOM, 7, &b);
		CHECK(same(&a, &b));
		engine_free(back);
	}
	CHECK_EQ(engine_load(buf, len, "key-2", pats, ARRAY_SIZE(pats), &back, &d), -ESTALE);
	CHECK_EQ(engine_load(buf, len - 9, "key-1", pats, ARRAY_SIZE(pats), &back, &d), -ESTALE);
	buf[len - 5] ^= 0x55;
	CHECK_EQ(engine_load(buf, 3, "key-1", pats, ARRAY_SIZE(pats), &back, &d), -ESTALE);

	/* An image is used in place where it is aligned, and refused where it is not. */
	CHECK_EQ(engine_serialize(e, "key-1", true, &img, &ilen), 0);
	CHECK_EQ(posix_memalign((void **)&aligned, ENGINE_IMAGE_ALIGN, ilen + 1), 0);
	if (img && aligned) {
		memcpy(aligned, img, ilen);
		CHECK_EQ(engine_load(aligned, ilen, "key-1", pats, ARRAY_SIZE(pats), &back, &d), 0);
		if (back) {
			run(back, inputs[1], strlen(inputs[1]), RANDOM, 9, &b);
			CHECK(same(&a, &b));
			engine_free(back); /* must not free the caller's buffer */
		}
		CHECK_EQ(engine_load(aligned, ilen, "key-2", pats, ARRAY_SIZE(pats), &back, &d), -ESTALE);
		memmove(aligned + 1, aligned, ilen);
		CHECK_EQ(engine_load(aligned + 1, ilen, "key-1", pats, ARRAY_SIZE(pats), &back, &d),
			 -ESTALE);
	}
	free(aligned);
	free(img);
	free(buf);
	engine_free(e);
}

/* Catastrophic backtracking stops at the match limit and is counted. */
TEST(engine_pcre2_match_limit)
{
	static const struct engine_pattern p[] = {{"(a|aa)+\\d", 0, NULL, 0}, {"zz", 0, NULL, 0}};
	static char text[20000];
	struct engine_stream *s = NULL;
	struct engine *e = NULL;
	static struct evs out;
	struct diag d;

	memset(text, 'a', sizeof(text) - 8);
	memcpy(text + sizeof(text) - 8, "b zz\n", 6);
	CHECK_EQ(engine_compile(p, 2, ENGINE_PCRE2, &e, &d), 0);
	if (!e)
		return;
	memset(&out, 0, sizeof(out));
	CHECK_EQ(engine_stream_new(e, &s), 0);
	CHECK_EQ(engine_stream_feed(s, text, strlen(text), collect, &out), 0);
	CHECK_EQ(engine_stream_end(s, collect, &out), 0);
	CHECK(engine_stream_limit_hits(s) >= 1);
	CHECK_EQ(out.n, 1); /* zz is still found */
	engine_stream_free(s);
	engine_free(e);
}

/* A line longer than the PCRE2 window gives what Hyperscan gives. */
TEST(engine_long_line)
{
	size_t len = 300000, i;
	char *text = malloc(len + 1);
	struct engine *hs = NULL, *pc = NULL;
	static struct evs a, b;
	struct diag d;

	if (!text)
		return;
	for (i = 0; i < len; i++)
		text[i] = "abcdefgh xy 12.5% "[i % 18];
	memcpy(text + 70000, "https://long.example/", 21);
	text[len] = '\0';
	CHECK_EQ(engine_compile(pats, ARRAY_SIZE(pats), ENGINE_AUTO, &hs, &d), 0);
	CHECK_EQ(engine_compile(pats, ARRAY_SIZE(pats), ENGINE_PCRE2, &pc, &d), 0);
	if (hs && pc) {
		run(hs, text, len, RANDOM, 3, &a);
		run(pc, text, len, RANDOM, 5, &b);
		CHECK(a.n > 1000);
		CHECK(same(&a, &b));
	}
	engine_free(hs);
	engine_free(pc);
	free(text);
}

/*
 * Long runs inside one line: a group repeated per byte over a window's
 * worth of dots stays within the JIT stack (the match after it is found),
 * and a match longer than ENGINE_MAX_MATCH is cut to its longest end within
 * it, as Hyperscan cuts it, on both backends.
 */
TEST(engine_pcre2_long_runs)
{
	static const char *const tails[] = {".", "b", "(b)", "(b).,"};
	size_t len = 80000, i, k;
	char *text = malloc(len + 64);
	struct engine *hs = NULL, *pc = NULL;
	static struct evs a, b;
	struct diag d;

	CHECK_EQ(engine_compile(pats, 2, ENGINE_AUTO, &hs, &d), 0);
	CHECK_EQ(engine_compile(pats, 2, ENGINE_PCRE2, &pc, &d), 0);
	for (k = 0; text && hs && pc && k < ARRAY_SIZE(tails); k++) {
		struct engine_stream *s = NULL;
		size_t n = strlen(tails[k]);

		memcpy(text, "https://a", 9);
		for (i = 9; i + n <= len; i += n)
			memcpy(text + i, tails[k], n);
		i += (size_t)sprintf(text + i, " https://b.example/x\n");
		run(hs, text, i, RANDOM, 7, &a);
		run(pc, text, i, RANDOM, 9, &b);
		if (!same(&a, &b)) {
			dump("hyperscan", &a);
			dump("pcre2", &b);
			CHECK(!"backends differ on a long run");
		}
		CHECK(b.n >= 1 && b.v[b.n - 1].to == i - 1); /* the URL after the run */
		if (k > 0) /* a run that can end a URL: cut at ENGINE_MAX_MATCH */
			CHECK(b.n == 2 && b.v[0].from == 0 && b.v[0].to > ENGINE_MAX_MATCH - 8 &&
			      b.v[0].to <= ENGINE_MAX_MATCH);
		CHECK_EQ(engine_stream_new(pc, &s), 0);
		if (!s)
			break;
		engine_stream_feed(s, text, i, collect, &b);
		engine_stream_end(s, collect, &b);
		CHECK_EQ(engine_stream_limit_hits(s), 0);
		engine_stream_free(s);
	}
	engine_free(hs);
	engine_free(pc);
	free(text);
}
