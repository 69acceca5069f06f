// SPDX-License-Identifier: MIT
/*
 * The stream scanner with the built-in packs, fed the input whole and in
 * pieces. The first bytes choose:
 *   byte 0     bit 0 --claims, bit 1 --show-grounded, bit 2 a --source,
 *              bit 3 also the PCRE2-only engine (in a Hyperscan build),
 *              bits 4-6 a context (0: none, k: the packs' context k - 1),
 *              bit 7 a span nonce (only its delimiter forms make spans)
 *   bytes 1-4  the seed of the piece sizes
 *   byte 5     the largest piece, 1 + byte bytes
 *   byte 6     with a source: the share of the rest that is the source
 * and the rest is the input (after the source). Properties:
 *  - the pieces give what the whole gives: every finding with every field,
 *    every claim and the summary, written as JSONL; so does PCRE2 alone
 *    (unless a PCRE2 match limit was hit, which may cut a line short);
 *  - each finding is where it says: start < end <= bytes, its text is the
 *    input's bytes there (or the first CLAIMS_TEXT_CAP of them), line and
 *    column count line breaks and code points before it; its signal and
 *    severity are real ones; a grounded one only with --show-grounded;
 *  - a spoofed span only with a nonce, at block, its text the delimiter's
 *    bytes; an unterminated span runs from its opener, in the form the run
 *    accepts (with or without the nonce), to the end;
 *  - the summary counts the findings it was given, per signal, and its
 *    verdict is their highest severity (at least warn when a PCRE2 match
 *    limit was hit); the claims per label likewise;
 *  - each claim's text is the input's bytes, trimmed of blank space, and
 *    its label is what its items' grounding makes it;
 *  - every record written is valid UTF-8 JSON.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims/policy.h"
#include "common/json.h"
#include "fuzz.h"
#include "ground/spans.h"
#include "scan/scan.h"
#include "scan/scan_json.h"

#define MAX_CONTEXTS 7
#define NONCE "fuzz-nonce-0123"

/* What one scan of the input gave, and what it is checked against. */
struct run {
	const struct ruleset *rs;
	const char *text;
	size_t len;
	bool show_grounded, nonce;
	struct buf out;     /* findings, claims and the summary as JSONL, plus the fields emit leaves out */
	uint64_t findings, counts[64], claims[CLAIM_LABELS];
	uint64_t carried; /* signals findings carry beside their own */
	enum severity verdict;
	uint64_t limit_hits;
	uint64_t grounded;  /* the summary's count of matches in tool output (not in out) */
};

/* The run the scanners report to: they are made once, their callback's context with them. */
static struct run *current;

static void check_json_line(const char *s, size_t n)
{
	struct json_value *v = NULL;
	struct json_error jerr = {0};

	FUZZ_CHECK(n > 0 && s[n - 1] == '\n', "a record without its newline");
	FUZZ_CHECK(fuzz_valid_utf8(s, n), "a record that is not UTF-8");
	FUZZ_CHECK(json_parse(s, n, &v, &jerr) == 0, "a record that is not JSON: %s at %zu",
		   jerr.msg, jerr.offset);
	json_free(v);
}

/* 1-based line and column (in code points) of offset at, counted from the input. */
static void place_of(const char *t, uint64_t at, uint64_t *line, uint64_t *col)
{
	uint64_t i, start = 0;

	*line = 1;
	for (i = 0; i < at; i++)
		if (t[i] == '\n') {
			(*line)++;
			start = i + 1;
		}
	*col = 1;
	for (i = start; i < at; i++)
		*col += ((unsigned char)t[i] & 0xC0) != 0x80;
}

static int on_finding(void *ctx, const struct finding *f)
{
	struct run *r = *(struct run **)ctx;
	const struct ruleset *rs = r->rs;
	uint64_t line, col;
	size_t before = r->out.len;
	struct buf opener = {0};
	char open_text[256];

	FUZZ_CHECK(f->signal_index < scan_n_signals(rs) && f->signal_index < ARRAY_SIZE(r->counts));
	FUZZ_CHECK(strcmp(f->signal, scan_signal_name(rs, f->signal_index)) == 0);
	FUZZ_CHECK(f->severity == SEV_WARN || f->severity == SEV_BLOCK);
	FUZZ_CHECK(f->message && f->recovery && f->rule_id);
	FUZZ_CHECK(!f->grounded || r->show_grounded, "a grounded finding without --show-grounded");
	place_of(r->text, MIN(f->start, r->len), &line, &col);
	FUZZ_CHECK(f->line == line && f->column == col,
		   "finding at %llu: line %llu column %llu, the input says %llu:%llu",
		   (unsigned long long)f->start, (unsigned long long)f->line,
		   (unsigned long long)f->column, (unsigned long long)line, (unsigned long long)col);
	if (f->rule) {
		FUZZ_CHECK(f->start < f->end && f->end <= r->len, "[%llu, %llu) of %zu bytes",
			   (unsigned long long)f->start, (unsigned long long)f->end, r->len);
		FUZZ_CHECK(strcmp(f->rule_id, f->rule->id) == 0);
		FUZZ_CHECK(f->text_len == (f->text_truncated ? CLAIMS_TEXT_CAP : f->end - f->start) &&
			   f->text_len <= f->end - f->start &&
			   memcmp(f->text, r->text + f->start, f->text_len) == 0,
			   "the text is not the input's bytes [%llu, %llu)",
			   (unsigned long long)f->start, (unsigned long long)f->end);
	} else if (strcmp(f->rule_id, RULE_SPOOFED) == 0) {
		/* A delimiter without the run's nonce: its text is where it is. */
		FUZZ_CHECK(r->nonce, "a spoofed span without a nonce");
		FUZZ_CHECK(f->signal_index == rs->n_signals + SCAN_SIGNAL_SPOOFED);
		FUZZ_CHECK(f->severity == SEV_BLOCK, "a spoofed span below block");
		FUZZ_CHECK(f->start < f->end && f->end <= r->len && f->text_len == f->end - f->start &&
			   memcmp(f->text, r->text + f->start, f->text_len) == 0,
			   "a spoofed delimiter is not the input's bytes");
	} else {
		/* An unterminated span runs from its opener to the end. */
		FUZZ_CHECK(strcmp(f->rule_id, RULE_UNTERMINATED) == 0 &&
			   f->signal_index == rs->n_signals + SCAN_SIGNAL_UNTERMINATED);
		FUZZ_CHECK(f->start < f->end && f->end == r->len);
		/* The text is the pack's opener; the span opens at its accepted form. */
		FUZZ_CHECK(f->text_len < sizeof(open_text));
		snprintf(open_text, sizeof(open_text), "%.*s", (int)f->text_len, f->text);
		FUZZ_CHECK((r->nonce ? spans_nonce_form(open_text, NONCE, &opener)
				     : buf_add(&opener, f->text, f->text_len)) == 0);
		FUZZ_CHECK(opener.len <= f->end - f->start &&
			   memcmp(opener.data, r->text + f->start, opener.len) == 0,
			   "the opener is not where the span opens");
		buf_free(&opener);
	}
	if (!f->grounded) {
		r->findings++;
		r->counts[f->signal_index]++;
		/* The signals it carries are counted too, each once, none its own. */
		for (size_t i = 0; i < f->n_also; i++) {
			FUZZ_CHECK(f->also_index[i] != f->signal_index);
			r->counts[f->also_index[i]]++;
			r->carried++;
		}
		if (f->severity > r->verdict)
			r->verdict = f->severity;
	}
	FUZZ_CHECK(scan_json_finding(&r->out, "-", f) == 0);
	check_json_line(r->out.data + before, r->out.len - before);
	FUZZ_CHECK(buf_addf(&r->out, "signal_index %zu rule %ld\n", f->signal_index,
			    f->rule ? (long)(f->rule - rs->rules) : -1L) == 0);
	return 0;
}

static int on_claim(void *ctx, const struct claim *cl)
{
	struct run *r = ctx;
	size_t before = r->out.len, i, grounded = 0;
	enum claim_label want;

	FUZZ_CHECK(cl->start < cl->end && cl->end <= r->len);
	FUZZ_CHECK(cl->text_len == MIN(cl->end - cl->start, (uint64_t)CLAIMS_TEXT_CAP) &&
		   memcmp(cl->text, r->text + cl->start, cl->text_len) == 0,
		   "a claim's text is not the input's bytes");
	FUZZ_CHECK(!isspace((unsigned char)r->text[cl->start]) &&
		   !isspace((unsigned char)r->text[cl->end - 1]), "a claim with blank space around it");
	for (i = 0; i < cl->n_items; i++) {
		const struct claim_item *it = &cl->items[i];

		FUZZ_CHECK(it->rule < r->rs->n_rules && it->from < it->to && it->to <= r->len);
		grounded += it->grounded;
	}
	want = cl->n_items == 0 ? CLAIM_UNCHECKED
	       : grounded == cl->n_items ? CLAIM_SUPPORTED
	       : grounded ? CLAIM_PARTIAL : CLAIM_UNSUPPORTED;
	FUZZ_CHECK(cl->label == want, "label %s for %zu of %zu grounded",
		   claim_label_name(cl->label), grounded, cl->n_items);
	r->claims[cl->label]++;
	FUZZ_CHECK(scan_json_claim(&r->out, "-", cl, r->rs) == 0);
	check_json_line(r->out.data + before, r->out.len - before);
	return 0;
}

/*
 * The scanners, one per engine, context, --show-grounded and nonce, made once:
 * each holds 768 KiB of window, and its sentence checks compile their
 * exemption patterns on first use (a new scanner per input would spend
 * most of the run compiling them again).
 */
static struct scan *scanner(const struct db *db, size_t context, bool show_grounded, bool nonce)
{
	static struct scan *cache[2][MAX_CONTEXTS + 1][2][2];
	int e = db != fuzz_builtin();
	struct scan **sc = &cache[e][context][show_grounded][nonce];

	if (!*sc) {
		struct policy *pol = policy_new(db->rs);

		FUZZ_CHECK(pol != NULL);
		if (context)
			FUZZ_CHECK(policy_add_context(pol, db->rs->contexts[context - 1].name) == 0);
		/* The policy lives as long as its scanner: the process. */
		FUZZ_CHECK(scan_new(db, pol, on_finding, &current, sc) == 0);
		FUZZ_CHECK(scan_show_grounded(*sc, show_grounded) == 0);
		if (nonce)
			FUZZ_CHECK(scan_span_nonce(*sc, NONCE) == 0);
	}
	return *sc;
}

struct options {
	bool claims, show_grounded, compare, nonce;
	size_t context;
	uint32_t seed;
	uint32_t max_piece;
	const char *source;
	size_t source_len;
};

/*
 * Scans the input with db, whole (max_piece 0) or in pieces, into r. The
 * scanner's callbacks are set here: a scanner serves every run.
 */
static void scan_run(const struct db *db, const struct options *o, const char *text, size_t len,
		     uint32_t max_piece, struct run *r)
{
	struct scan *sc = scanner(db, o->context, o->show_grounded, o->nonce);
	struct scan_summary sum;
	struct claims_verdict cv;
	struct fuzz_rng rng;
	size_t i = 0, k, before;
	uint64_t total = 0;
	int err;

	memset(r, 0, sizeof(*r));
	r->rs = db->rs;
	r->text = text;
	r->len = len;
	r->show_grounded = o->show_grounded;
	r->nonce = o->nonce;
	scan_claims(sc, o->claims ? on_claim : NULL, r);
	current = r;
	scan_clear_sources(sc);
	if (o->source)
		FUZZ_CHECK(scan_add_source(sc, o->source, o->source_len) == 0);
	fuzz_rng_seed(&rng, o->seed);
	while (i < len) {
		size_t n = max_piece ? 1 + fuzz_rng_below(&rng, max_piece) : len;

		n = MIN(n, len - i);
		/* An empty read now and then: it must change nothing. */
		if (max_piece && fuzz_rng_below(&rng, 8) == 0)
			FUZZ_CHECK(scan_feed(sc, text + i, 0) == 0);
		err = scan_feed(sc, text + i, n);
		FUZZ_CHECK(err == 0, "scan_feed: %d", err);
		i += n;
	}
	FUZZ_CHECK(scan_end(sc, &sum) == 0);
	FUZZ_CHECK(sum.bytes == len);
	FUZZ_CHECK(sum.findings == r->findings, "the summary says %llu findings, %llu were given",
		   (unsigned long long)sum.findings, (unsigned long long)r->findings);
	for (k = 0; k < scan_n_signals(r->rs); k++) {
		FUZZ_CHECK(sum.signal_counts[k] == r->counts[k], "signal %zu", k);
		total += sum.signal_counts[k];
	}
	FUZZ_CHECK(total == sum.findings + r->carried);
	/* Matches may be missing past a match limit: such an input is never clean. */
	if (sum.limit_hits > 0 && r->verdict < SEV_WARN)
		r->verdict = SEV_WARN;
	FUZZ_CHECK(sum.verdict == r->verdict, "verdict %s, findings %s", severity_name(sum.verdict),
		   severity_name(r->verdict));
	if (o->claims)
		for (k = 0; k < CLAIM_LABELS; k++)
			FUZZ_CHECK(sum.claims[k] == r->claims[k], "claims labelled %s",
				   claim_label_name((enum claim_label)k));
	policy_claims(sum.claims, 0.30, &cv);
	before = r->out.len;
	r->grounded = sum.grounded;
	sum.grounded = 0; /* compared apart: see known_engine_difference() */
	FUZZ_CHECK(scan_json_summary(&r->out, "-", &sum, r->rs, o->claims ? &cv : NULL, NULL) == 0);
	check_json_line(r->out.data + before, r->out.len - before);
	FUZZ_CHECK(buf_addf(&r->out, "exempted %llu evictions %llu limit_hits %llu\n",
			    (unsigned long long)sum.exempted,
			    (unsigned long long)sum.ground_evictions,
			    (unsigned long long)sum.limit_hits) == 0);
	r->limit_hits = sum.limit_hits;
}

static void same_output(const struct run *a, const struct run *b, const char *what)
{
	size_t i = 0;

	FUZZ_CHECK(a->grounded == b->grounded, "%s: %llu matches in tool output, not %llu", what,
		   (unsigned long long)b->grounded, (unsigned long long)a->grounded);
	if (a->out.len == b->out.len && memcmp(a->out.data, b->out.data, a->out.len) == 0)
		return;
	while (i < a->out.len && i < b->out.len && a->out.data[i] == b->out.data[i])
		i++;
	while (i > 0 && a->out.data[i - 1] != '\n')
		i--;
	FUZZ_CHECK(0, "%s differ from the whole input's, from:\n%.*s\nvs.\n%.*s", what,
		   (int)MIN(a->out.len - i, 600), a->out.data + i, (int)MIN(b->out.len - i, 600),
		   b->out.data + i);
}

/*
 * The built-in packs are compiled here, before the first input: compiling
 * takes seconds, and counted inside an input it ran past libFuzzer's
 * per-input timeout on a busy machine (a false timeout on the first unit).
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_builtin();
	fuzz_builtin_pcre2();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct db *db = fuzz_builtin(), *pcre2 = fuzz_builtin_pcre2();
	struct fuzz_in in = {data, size};
	uint8_t flags = fuzz_u8(&in);
	struct options o = {
		.claims = flags & 1,
		.show_grounded = flags & 2,
		.compare = flags & 8,
		.context = (flags >> 4 & 7) % (MIN(db->rs->n_contexts, MAX_CONTEXTS) + 1),
		.nonce = flags & 0x80,
	};
	struct run whole, split, other;
	const char *text;
	size_t len;

	o.seed = fuzz_u32(&in);
	o.max_piece = 1u + fuzz_u8(&in);
	if (flags & 4) {
		size_t share = fuzz_u8(&in);

		o.source = (const char *)in.p;
		o.source_len = in.n * share / 255;
		in.p += o.source_len;
		in.n -= o.source_len;
	}
	text = (const char *)in.p;
	len = in.n;

	scan_run(db, &o, text, len, 0, &whole);
	scan_run(db, &o, text, len, o.max_piece, &split);
	same_output(&whole, &split, "the findings of the pieces");
	if (o.compare && pcre2) {
		scan_run(pcre2, &o, text, len, 0, &other);
		/* A match limit cuts a PCRE2 line short where Hyperscan has none. */
		if (whole.limit_hits == 0 && other.limit_hits == 0)
			same_output(&whole, &other, "PCRE2's findings");
		buf_free(&other.out);
	}
	buf_free(&whole.out);
	buf_free(&split.out);
	return 0;
}
