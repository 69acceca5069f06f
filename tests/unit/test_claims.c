// SPDX-License-Identifier: MIT
/* Sentence exemptions: answered in one pass per sentence, as if asked afresh per match. */
#include <stdlib.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "scan/db.h"
#include "scan/scan.h"
#include "test.h"

/*
 * Exemptions that read the edges of the text they are tried on: \b, $ and
 * lookarounds there, ^, \G, a match that a longer prefix could extend, a
 * lookbehind that the subject's start cuts off. Each rule matches "q" and
 * a digit, under a signal of its own, so that no finding hides another.
 */
static const char *const befores[] = {
	"\\bab\\b", "=[ \\t]*$", "(?<=a)b", "b(?=x)", "ab|b$", "a[^z]*z", "\\Bb", "(?:^|x)a",
	"\\Ga", "(?<![ab])x\\b", "zz", "(?<=ab)x", "x(?=..q)",
};
static const char *const afters[] = {
	"^[ \\t]*\\d", "\\bab\\b", "b$", "(?<=x)a", "\\bq", "a.*z", "(?<=\\d)b", "\\Ga", "(?<!a)b",
	"x\\b", "zz", "(?<!\\d )x", "(?<=\\d..)a",
};
static const char *const sentences[] = {"zz", "a\\d\\d", "(?<=b)x$"};

#define N_RULES (ARRAY_SIZE(befores) + ARRAY_SIZE(afters) + ARRAY_SIZE(sentences))

static struct buf brief;

static int on_finding(void *ctx, const struct finding *f)
{
	size_t i;

	(void)ctx;
	/* The rules of the signals a finding carries (found on the same text):
	 * rule i has signal "s" followed by 'a' + i / 26 and 'a' + i % 26. */
	for (i = 0; i < f->n_also; i++)
		buf_addf(&brief, "r%d@%llu;", (f->also[i][1] - 'a') * 26 + (f->also[i][2] - 'a'),
			 (unsigned long long)f->start);
	return buf_addf(&brief, "%s@%llu;", f->rule_id, (unsigned long long)f->start);
}

static void yaml_rule(struct buf *y, size_t i, const char *key, const char *pat)
{
	buf_addf(y, "  - id: r%zu\n    signal: s%c%c\n    severity: warn\n    grounding: none\n"
		    "    pattern: 'q\\d'\n    %s: '%s'\n    message: m\n    recovery: r\n"
		    "    examples: ['q1']\n    negative_examples: ['q']\n", i, (char)('a' + i / 26),
		 (char)('a' + i % 26), key, pat);
}

/* Whether pat matches s[0, n), compiled and matched afresh. */
static bool naive(const char *pat, const char *s, size_t n)
{
	pcre2_code *c;
	pcre2_match_data *md;
	PCRE2_SIZE off;
	int ec, rc;

	c = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, 0, &ec, &off, NULL);
	md = pcre2_match_data_create(1, NULL);
	rc = c && md ? pcre2_match(c, (PCRE2_SPTR)s, n, 0, 0, md, NULL) : -1;
	pcre2_match_data_free(md);
	pcre2_code_free(c);
	return rc >= 0;
}

/* The findings that asking each exemption afresh for each match gives. */
static void expected(const char *text, struct buf *out)
{
	const char *line = text, *p;

	for (; *line; line = p + 1) {
		p = strchr(line, '\n');
		for (const char *q = line; q + 1 < p; q++) {
			size_t from = (size_t)(q - line), to = from + 2, end = (size_t)(p + 1 - line), k;

			if (q[0] != 'q' || q[1] < '0' || q[1] > '9')
				continue;
			for (k = 0; k < N_RULES; k++) {
				bool ex;

				if (k < ARRAY_SIZE(befores))
					ex = naive(befores[k], line, from);
				else if (k < ARRAY_SIZE(befores) + ARRAY_SIZE(afters))
					ex = naive(afters[k - ARRAY_SIZE(befores)], line + to, end - to);
				else
					ex = naive(sentences[k - ARRAY_SIZE(befores) - ARRAY_SIZE(afters)],
						   line, end);
				if (!ex)
					buf_addf(out, "r%zu@%zu;", k, (size_t)(q - text));
			}
		}
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The findings as a sorted list: the pipeline orders rules by id, not by name. */
static void sorted(char *s)
{
	char *v[4096], *tok, *save = NULL;
	size_t n = 0, i, len = strlen(s);
	char *copy = malloc(len + 1);

	if (!copy)
		return;
	memcpy(copy, s, len + 1);
	for (tok = strtok_r(copy, ";", &save); tok && n < ARRAY_SIZE(v); tok = strtok_r(NULL, ";", &save))
		v[n++] = tok;
	qsort(v, n, sizeof(v[0]), cmp_str);
	s[0] = '\0';
	for (i = 0; i < n; i++) {
		strcat(s, v[i]);
		strcat(s, ";");
	}
	free(copy);
}

/* The total check's role words are in the order role_of_words() searches them by. */
TEST(claims_role_words_in_order)
{
	const char *bad = claims_self_check();

	if (bad)
		fprintf(stderr, "  out of order: %s\n", bad);
	CHECK(bad == NULL);
}

TEST(claims_exemptions_as_if_asked_afresh)
{
	static const char alphabet[] = "qqq1122   ==aabbzzx\t";
	struct buf yaml = {0}, want = {0};
	struct ruleset *rs = ruleset_new();
	struct policy *pol = NULL;
	struct scan *sc = NULL;
	struct db *db = NULL;
	struct diag d = {""};
	unsigned seed = 1;
	char text[4096];
	size_t i, k, trial;

	buf_addf(&yaml, "rules:\n");
	for (i = 0; i < ARRAY_SIZE(befores); i++)
		yaml_rule(&yaml, i, "unless_before", befores[i]);
	for (k = 0; k < ARRAY_SIZE(afters); k++, i++)
		yaml_rule(&yaml, i, "unless_after", afters[k]);
	for (k = 0; k < ARRAY_SIZE(sentences); k++, i++)
		yaml_rule(&yaml, i, "unless_sentence", sentences[k]);
	CHECK_EQ(ruleset_add_buffer(rs, "p.yaml", yaml.data, yaml.len, &d), 0);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	CHECK_EQ(db_compile(rs, ENGINE_AUTO, &db, &d), 0);
	pol = db ? policy_new(rs) : NULL;
	if (pol)
		CHECK_EQ(scan_new(db, pol, on_finding, NULL, &sc), 0);
	for (trial = 0; sc && trial < 300; trial++) {
		struct scan_summary sum;
		size_t len = 0;

		/* A few lines (sentences), each with several matches. */
		while (len < 40 + trial % 200) {
			seed = seed * 1103515245u + 12345u;
			text[len++] = (seed >> 16) % 23 == 0 ? '\n' : alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		text[len++] = '\n';
		text[len] = '\0';
		brief.len = want.len = 0;
		buf_addc(&brief, '\0');
		buf_addc(&want, '\0');
		brief.len = want.len = 0;
		CHECK_EQ(scan_feed(sc, text, len), 0);
		CHECK_EQ(scan_end(sc, &sum), 0);
		expected(text, &want);
		if (!brief.data || !want.data)
			break;
		sorted(brief.data);
		sorted(want.data);
		if (strcmp(brief.data, want.data) != 0) {
			fprintf(stderr, "  text: \"%s\"\n  got:  %s\n  want: %s\n", text, brief.data,
				want.data);
			CHECK(!"exemptions differ from asking afresh");
			break;
		}
	}
	scan_free(sc);
	policy_free(pol);
	db_free(db);
	ruleset_free(rs);
	buf_free(&yaml);
	buf_free(&want);
	buf_free(&brief);
}
