// SPDX-License-Identifier: MIT
/*
 * The bibliography recognizer (src/ground/refs.c) on any bytes, each line of the
 * input read as a line of model text:
 *  - at most max entries, each inside the line, in order, not overlapping;
 *    every field inside its entry; a year, when found, in 1450-2099;
 *  - only the problem bits that exist, and an entry of style "id" holds a
 *    DOI or an arXiv id and nothing else;
 *  - the keys are those of refs_key_next(), each with its kind tag, and a
 *    title's key has no double, leading or trailing space; at most three
 *    an entry, and 0 once they are given;
 *  - refs_segment_key_next() gives keys of the same form, at most two a
 *    byte of the line, and ends; refs_heading() reads any bytes without fault;
 *  - refs_line_cue() says what the trigger patterns it replaced say: the
 *    same alternation, matched by PCRE2; refs_paren_year() finds only
 *    lines that alternation matches.
 * The first byte is how many entries a line may give (1-8).
 */
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "common/util.h"
#include "fuzz.h"
#include "ground/refs.h"

/* The forms patterns/references.yaml had as patterns before refs_line_cue(). */
static const char cue_re[] =
	"\\[\\d{1,3}\\][ \\t]|(?:[-*+]|\\xE2\\x80\\xA2)[ \\t]{1,4}(?:\"|\\xE2\\x80\\x9C)|"
	"\\.[ \\t](?:1[5-9]|20)\\d\\d[.;]|[.,](?:\"|\\xE2\\x80\\x9D)[ \\t]|\\*\\.[ \\t]|"
	"\\((?:1[5-9]|20)\\d\\d[a-z]?[),]";

static bool cue_by_regex(const char *s, size_t n)
{
	static pcre2_code *re;
	static pcre2_match_data *md;
	int rc;

	if (!re) {
		int err;
		PCRE2_SIZE off;

		re = pcre2_compile((PCRE2_SPTR)cue_re, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
		FUZZ_CHECK(re != NULL, "the cue regex does not compile (at %zu)", (size_t)off);
		md = pcre2_match_data_create_from_pattern(re, NULL);
		FUZZ_CHECK(md != NULL);
	}
	rc = pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, md, NULL);
	FUZZ_CHECK(rc >= 0 || rc == PCRE2_ERROR_NOMATCH, "pcre2_match: %d", rc);
	return rc >= 0;
}

static void check_key(const struct buf *k)
{
	const char *key = k->data;
	size_t n = k->len;

	FUZZ_CHECK(n >= 6 && memcmp(key, "ref\x1f", 4) == 0 && strchr("tda", key[4]) && key[5] == ':',
		   "a key without its tag");
	if (key[4] == 't') {
		FUZZ_CHECK(n > 6, "an empty title key");
		FUZZ_CHECK(key[6] != ' ' && key[n - 1] != ' ' && !memmem(key, n, "  ", 2),
			   "a title key with stray blanks: \"%.*s\"", (int)n, key);
	}
}

/* Every key of the entry e, checked; at most three, then none. */
static void check_entry_keys(const struct refs *r, const struct ref_entry *e, const char *text,
			     struct buf *k)
{
	unsigned at = 0, got = 0;
	int rc;

	while ((rc = refs_key_next(r, e, text, &at, k)) > 0 && ++got <= 3)
		check_key(k);
	FUZZ_CHECK(rc == 0 && got <= 3, "refs_key_next: %d after %u keys", rc, got);
	FUZZ_CHECK(refs_key_next(r, e, text, &at, k) == 0, "a key after the last");
}

/* Every key of a line's parts, checked: at most two a byte, then none. */
static void check_segment_keys(const struct refs *r, const char *s, size_t n, struct buf *k)
{
	struct refs_segments parts = {0};
	size_t got = 0;
	int rc;

	while ((rc = refs_segment_key_next(r, s, n, &parts, k)) > 0 && ++got <= 2 * n)
		check_key(k);
	FUZZ_CHECK(rc == 0 && got <= 2 * n, "refs_segment_key_next: %d after %zu keys", rc, got);
	FUZZ_CHECK(refs_segment_key_next(r, s, n, &parts, k) == 0, "a key after the last");
}

static void check_span(const struct ref_entry *e, struct ref_span sp, const char *what)
{
	FUZZ_CHECK(sp.len == 0 || (uint64_t)sp.off + sp.len <= (uint64_t)(e->to - e->from),
		   "the %s [%u, +%u) outside its entry of %u bytes", what, sp.off, sp.len,
		   e->to - e->from);
}

static void check_line(const struct refs *r, const char *s, size_t n, size_t max)
{
	struct ref_entry out[REFS_PER_LINE];
	size_t k = refs_parse(r, s, n, 202612, out, max), i;
	struct buf key = {0};
	uint32_t last = 0;

	FUZZ_CHECK(k <= max);
	for (i = 0; i < k; i++) {
		const struct ref_entry *e = &out[i];

		FUZZ_CHECK(e->style > REF_STYLE_NONE && e->style < REF_STYLES);
		FUZZ_CHECK(e->from < e->to && e->to <= n && e->from >= last, "entry %zu at [%u, %u) of %zu",
			   i, e->from, e->to, n);
		last = e->to;
		check_span(e, e->title, "title");
		check_span(e, e->authors, "authors");
		check_span(e, e->venue, "venue");
		check_span(e, e->doi, "doi");
		check_span(e, e->arxiv, "arxiv");
		check_span(e, e->isbn, "isbn");
		check_span(e, e->url, "url");
		FUZZ_CHECK(e->year == 0 || (e->year >= 1450 && e->year <= 2099), "year %u", e->year);
		FUZZ_CHECK(e->problems < (1u << REF_PROBLEMS));
		if (e->style == REF_STYLE_ID)
			FUZZ_CHECK((e->doi.len > 0) != (e->arxiv.len > 0) && !e->title.len && !e->authors.len,
				   "an id entry holds one id");
		check_entry_keys(r, e, s + e->from, &key);
	}
	check_segment_keys(r, s, n, &key);
	(void)refs_heading(r, s, n);
	/* A line that opens as an item in general does so inside a list too. */
	k = (size_t)refs_item_start(s, n, false);
	FUZZ_CHECK(k <= 2 && (k == 0 || (size_t)refs_item_start(s, n, true) == k));
	(void)refs_item_maybe(r, s, n);
	/* A label lies inside the line, opens with a capital and ends before ": ". */
	{
		size_t at = 0, len = refs_item_label(s, n, &at), j;

		if (len) {
			FUZZ_CHECK(at + len < n && s[at] >= 'A' && s[at] <= 'Z', "label at %zu+%zu of %zu",
				   at, len, n);
			for (j = at + len; j < n && (s[j] == '*' || s[j] == '_'); j++)
				;
			FUZZ_CHECK(j + 1 < n && s[j] == ':' && memchr(" \t\r\f\v", s[j + 1], 5),
				   "label \"%.*s\" not before \": \"", (int)MIN(len, 60), s + at);
		}
	}
	/* Any bytes may be asked whether they name a reference's field. */
	(void)refs_field_label(r, s, n);
	FUZZ_CHECK(refs_line_cue(s, n) == cue_by_regex(s, n), "refs_line_cue(\"%.*s\") is %d",
		   (int)MIN(n, 200), s, refs_line_cue(s, n));
	/* A year at a line's start is one of those forms. */
	FUZZ_CHECK(!refs_paren_year(s, n) || cue_by_regex(s, n), "refs_paren_year(\"%.*s\") with no cue",
		   (int)MIN(n, 200), s);	buf_free(&key);
}

/* The built-in packs before the first input, outside its timeout. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_builtin();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct refs *r;
	struct fuzz_in in = {data, size};
	size_t max = fuzz_u8(&in) % REFS_PER_LINE + 1;
	const char *s = (const char *)in.p, *end = s + in.n;

	if (!r) {
		struct diag d;

		FUZZ_CHECK(refs_new(fuzz_builtin()->rs, &r, &d) == 0);
	}
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		check_line(r, s, n, max);
		s += n + 1;
	}
	return 0;
}
