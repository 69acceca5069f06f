// SPDX-License-Identifier: MIT
/*
 * The bibliography readers (--bib: BibTeX, CSL-JSON) on any bytes:
 *  - bib_add() keeps entries (returns 0) or refuses the file with -EINVAL
 *    and a message that names it with a line and column ("f.bib:L:C: ...")
 *    or the file alone, keeping nothing of it;
 *  - every kept string is NUL-terminated and free of control bytes where
 *    normalized: a title key and a family name are lowercase words with one
 *    space between them; a year is 0 or in 1000-2999; a DOI starts "10.";
 *  - matching each line of the input, read as model text, against what was
 *    kept gives a verdict and, for a match, an entry of the bibliography:
 *    the one a walk over every entry finds (the first of the titles most
 *    like its own, when at least 0.75 alike), else one with an identifier.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "ground/bib.h"
#include "ground/refs.h"

static void check_words(const char *s, const char *what)
{
	size_t n = strlen(s), i;

	FUZZ_CHECK(n == 0 || (s[0] != ' ' && s[n - 1] != ' '), "%s \"%s\" has blanks at an end", what, s);
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(!(s[i] >= 'A' && s[i] <= 'Z'), "%s \"%s\" is not lowercase", what, s);
		FUZZ_CHECK((unsigned char)s[i] >= 0x20 || (unsigned char)s[i] == 0x1f || s[i] < 0,
			   "%s has a control byte", what);
		FUZZ_CHECK(!(s[i] == ' ' && s[i + 1] == ' '), "%s \"%s\" has two blanks", what, s);
	}
}

/* The entry bib_match() chose (x) is the one a walk over all of them chooses. */
static void walk_check(const struct refs *r, const struct bib *b, const struct ref_entry *e,
		       const char *text, const struct bib_entry *x)
{
	const struct bib_entry *want = NULL;
	struct buf k = {0};
	double best = 0;
	size_t i;

	FUZZ_CHECK(refs_title_key(r, text + e->title.off, e->title.len, &k) == 0 &&
		   buf_addc(&k, '\0') == 0);
	for (i = 0; e->title.len && k.len > 1 && i < bib_count(b); i++) {
		const struct bib_entry *be = bib_at(b, i);
		double sim = be->title_key[0] ? bib_title_similarity(k.data, be->title_key) : 0;

		if (sim > best) {
			best = sim;
			want = be;
		}
	}
	if (want && best >= 0.75)
		FUZZ_CHECK(x == want, "matched \"%s\", the walk \"%s\"", x ? x->title_key : "nothing",
			   want->title_key);
	else
		FUZZ_CHECK(!x || *x->doi || *x->arxiv, "an entry matched by no title nor identifier");
	buf_free(&k);
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
	struct bib *b = NULL;
	struct diag d = {""};
	const char *s = (const char *)data, *end = s + size;
	size_t i, n;
	int err;

	if (!r)
		FUZZ_CHECK(refs_new(fuzz_builtin()->rs, &r, &d) == 0);
	FUZZ_CHECK(bib_new(r, &b) == 0);
	err = bib_add(b, "f.bib", s, size, &d);
	FUZZ_CHECK(err == 0 || err == -EINVAL, "bib_add returned %d", err);
	n = bib_count(b);
	if (err) {
		FUZZ_CHECK(n == 0, "a refused file kept %zu entries", n);
		FUZZ_CHECK(strncmp(d.msg, "f.bib:", 6) == 0, "a message without the file: %s", d.msg);
	} else {
		FUZZ_CHECK(n > 0, "a file taken with no entry");
	}
	for (i = 0; i < n; i++) {
		const struct bib_entry *e = bib_at(b, i);

		FUZZ_CHECK(e->key && e->title && e->title_key && e->author && e->doi && e->arxiv);
		check_words(e->title_key, "title key");
		check_words(e->author, "family name");
		FUZZ_CHECK(e->year == 0 || (e->year >= 1000 && e->year <= 2999), "year %u", e->year);
		FUZZ_CHECK(!*e->doi || strncmp(e->doi, "10.", 3) == 0, "doi \"%s\"", e->doi);
	}
	while (n && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s), k, j;
		struct ref_entry out[REFS_PER_LINE];

		k = refs_parse(r, s, len, 202612, out, REFS_PER_LINE);
		for (j = 0; j < k; j++) {
			const struct bib_entry *x;
			const char *why;
			enum bib_verdict v = bib_match(b, &out[j], s + out[j].from, 0.75, &x, &why);

			FUZZ_CHECK(v == BIB_NONE || v == BIB_MATCH || v == BIB_ALTERED);
			FUZZ_CHECK(v == BIB_NONE || x != NULL, "a verdict without its entry");
			FUZZ_CHECK(why != NULL);
			walk_check(r, b, &out[j], s + out[j].from, x);
		}
		s += len + 1;
	}
	bib_free(b);
	return 0;
}
