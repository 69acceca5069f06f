// SPDX-License-Identifier: MIT
/* Rule packs: what loads, and what is refused with file:line:col. */
#include <errno.h>
#include <stdlib.h>

#include "db.h"
#include "rules.h"
#include "scan.h"
#include "test.h"

static const char good[] =
	"rules:\n"
	"  - id: t.url\n"
	"    signal: fabricated_url\n"
	"    severity: warn\n"
	"    pattern: 'https?://\\S+'\n"
	"    message: m {host}\n"
	"    recovery: r\n"
	"    examples: ['see https://x.example/a']\n"
	"    negative_examples: ['no url']\n"
	"spans:\n"
	"  - {name: t, open: '<t>', close: '</t>'}\n"
	"contexts:\n"
	"  - {name: web, escalate: [fabricated_url]}\n";

/* Loads text as pack "p.yaml"; returns the error and leaves the message in d. */
static int load(const char *text, struct diag *d, struct ruleset **out)
{
	struct ruleset *rs = ruleset_new();
	int err;

	err = ruleset_add_buffer(rs, "p.yaml", text, strlen(text), d);
	if (err == 0)
		err = ruleset_finish(rs, d);
	if (out && err == 0)
		*out = rs;
	else
		ruleset_free(rs);
	return err;
}

/* The pack with one line replaced (or removed when with is ""). */
static char *edit(const char *line, const char *with)
{
	static char out[4096];
	const char *at = strstr(good, line);
	size_t k;

	if (!at)
		return NULL;
	k = (size_t)(at - good);
	snprintf(out, sizeof(out), "%.*s%s%s", (int)k, good, with, at + strlen(line));
	return out;
}

TEST(rules_load_good_pack)
{
	struct ruleset *rs = NULL;
	struct diag d = {""};

	CHECK_EQ(load(good, &d, &rs), 0);
	if (!rs)
		return;
	CHECK_EQ(rs->n_rules, 1);
	CHECK_STR(rs->rules[0].id, "t.url");
	CHECK_EQ(rs->rules[0].severity, SEV_WARN);
	CHECK_EQ(rs->rules[0].at.line, 2);
	CHECK_EQ(rs->rules[0].at.col, 5);
	CHECK_EQ(rs->n_spans, 1);
	CHECK_STR(rs->spans[0].close, "</t>");
	CHECK_EQ(rs->n_contexts, 1);
	CHECK_EQ(rs->n_signals, 1);
	CHECK_EQ(strlen(rs->digest), 64);
	ruleset_free(rs);
}

/* The digest follows content, not layout. */
TEST(rules_digest)
{
	struct ruleset *a = NULL, *b = NULL, *c = NULL;
	struct diag d;

	CHECK_EQ(load(good, &d, &a), 0);
	CHECK_EQ(load(edit("    recovery: r\n", "    recovery: 'r'   # same\n"), &d, &b), 0);
	CHECK_EQ(load(edit("    recovery: r\n", "    recovery: s\n"), &d, &c), 0);
	if (a && b && c) {
		CHECK_STR(a->digest, b->digest);
		CHECK(strcmp(a->digest, c->digest) != 0);
	}
	ruleset_free(a);
	ruleset_free(b);
	ruleset_free(c);
}

/* A pattern may be a list of alternatives: the rule's regex is their alternation. */
TEST(rules_pattern_alternatives)
{
	struct ruleset *a = NULL, *b = NULL;
	struct db *db = NULL;
	struct diag d = {""};

	CHECK_EQ(load(edit("    pattern: 'https?://\\S+'\n",
			   "    pattern:\n      - 'https?://\\S+'\n      - 'ftp://\\S+'\n"), &d, &a), 0);
	CHECK_EQ(load(edit("    pattern: 'https?://\\S+'\n", "    pattern: '(?:https?://\\S+)|(?:ftp://\\S+)'\n"),
		      &d, &b), 0);
	if (!a || !b)
		goto out;
	CHECK_EQ(a->rules[0].n_alternatives, 2);
	CHECK_STR(a->rules[0].alternatives[1], "ftp://\\S+");
	CHECK_STR(a->rules[0].pattern, b->rules[0].pattern);
	CHECK_EQ(b->rules[0].n_alternatives, 0);
	/* Same regex, compiled otherwise: a cached database must not serve both. */
	CHECK(strcmp(a->digest, b->digest) != 0);
	CHECK_EQ(db_compile(a, ENGINE_AUTO, &db, &d), 0);
	if (db)
		CHECK_EQ(scan_check_examples(db, &d), 0);
out:
	db_free(db);
	ruleset_free(a);
	ruleset_free(b);
}

static void refused(const char *text, const char *where, const char *what)
{
	struct diag d = {""};

	if (!text) {
		CHECK(!"edit() found no such line");
		return;
	}
	CHECK_EQ(load(text, &d, NULL), -EINVAL);
	if (strncmp(d.msg, where, strlen(where)) != 0 || !strstr(d.msg, what)) {
		fprintf(stderr, "  got: %s\n  want: %s ... %s\n", d.msg, where, what);
		CHECK(!"wrong diagnostic");
	}
}

TEST(rules_refuse_with_location)
{
	refused("rules: [\n", "p.yaml:2:1:", "");
	refused(edit("    severity: warn\n", "    severity: high\n"), "p.yaml:4:15:", "warn or block");
	refused(edit("    severity: warn\n", "    sevrity: warn\n"), "p.yaml:4:5:", "unknown key \"sevrity\"");
	refused(edit("    message: m {host}\n", ""), "p.yaml:2:5:", "needs \"message\"");
	refused(edit("    negative_examples: ['no url']\n", ""), "p.yaml:2:5:", "needs \"negative_examples\"");
	refused(edit("  - id: t.url\n", "  - id: T URL\n"), "p.yaml:2:9:", "may hold only");
	refused(edit("    examples: ['see https://x.example/a']\n", "    examples: see\n"), "p.yaml:8:15:", "must be a list");
	refused(edit("  - {name: web, escalate: [fabricated_url]}\n",
		     "  - {name: web, escalate: [fabricated_urls]}\n"),
		"p.yaml:13:5:", "unknown signal \"fabricated_urls\"");
	refused(edit("spans:\n", "spanz:\n"), "p.yaml:10:1:", "unknown key \"spanz\"");
	refused(edit("  - {name: t, open: '<t>', close: '</t>'}\n", "  - {name: t, open: '<t>'}\n"),
		"p.yaml:11:5:", "needs name, open and close");
	refused(edit("    pattern: 'https?://\\S+'\n", "    pattern: []\n"), "p.yaml:5:14:",
		"must not be an empty list");
	refused(edit("    pattern: 'https?://\\S+'\n", "    pattern: [{a: b}]\n"), "p.yaml:5:15:", "");
	refused("", "p.yaml:", "empty rule pack");
	refused("rules: []\n", "no rules loaded", "");
	refused("a: 1\n---\nb: 2\n", "p.yaml:1:1:", "unknown key");
}

TEST(rules_refuse_duplicate_id)
{
	struct ruleset *rs = ruleset_new();
	struct diag d = {""};

	CHECK_EQ(ruleset_add_buffer(rs, "a.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_add_buffer(rs, "b.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_finish(rs, &d), -EINVAL);
	CHECK(strstr(d.msg, "b.yaml:2:5: rule id \"t.url\" is already defined at a.yaml:2:5") != NULL);
	ruleset_free(rs);
}

/*
 * Compiling locates a bad pattern or exemption at its line; with
 * at_examples the pack compiles and its examples, run through the real
 * pipeline, are what is refused.
 */
static void refused_when_compiled(const char *text, bool at_examples, const char *want)
{
	struct ruleset *rs = NULL;
	struct db *db = NULL;
	struct diag d = {""};
	int err;

	CHECK_EQ(load(text, &d, &rs), 0);
	if (!rs)
		return;
	err = db_compile(rs, ENGINE_AUTO, &db, &d);
	if (at_examples) {
		CHECK_EQ(err, 0);
		err = db ? scan_check_examples(db, &d) : 0;
	}
	CHECK_EQ(err, -EINVAL);
	if (!strstr(d.msg, want)) {
		fprintf(stderr, "  got: %s\n  want: %s\n", d.msg, want);
		CHECK(!"wrong diagnostic");
	}
	db_free(db);
	ruleset_free(rs);
}

static void compile_refused(const char *text, const char *want)
{
	refused_when_compiled(text, false, want);
}

static void examples_refused(const char *text, const char *want)
{
	refused_when_compiled(text, true, want);
}

TEST(rules_refuse_bad_patterns)
{
	compile_refused(edit("    pattern: 'https?://\\S+'\n", "    pattern: 'https?://(\\S+'\n"),
			"p.yaml:5:14: rule \"t.url\": pattern: missing closing parenthesis");
	compile_refused(edit("    pattern: 'https?://\\S+'\n", "    pattern: 'x*'\n"),
			"p.yaml:5:14: rule \"t.url\": pattern: the pattern can match the empty string");
	compile_refused(edit("    pattern: 'https?://\\S+'\n", "    pattern: ['https?://\\S+', 'x?']\n"),
			"p.yaml:5:14: rule \"t.url\": pattern: alternative 2: the pattern can match the empty string");
	compile_refused(edit("    recovery: r\n", "    recovery: 'r {hots}'\n"),
			"p.yaml:2:5: rule \"t.url\": unknown placeholder at \"{hots}\"");
	compile_refused(edit("    recovery: r\n", "    recovery: r\n    unless_sentence: ['(x']\n"),
			"p.yaml:2:5: rule \"t.url\": exemption /(x/: missing closing parenthesis");
}

TEST(rules_refuse_failing_examples)
{
	examples_refused(edit("    examples: ['see https://x.example/a']\n", "    examples: ['no link here']\n"),
			 "p.yaml:8:16: rule \"t.url\": example does not match: \"no link here\"");
	examples_refused(edit("    negative_examples: ['no url']\n",
			      "    negative_examples: ['http://y.example']\n"),
			 "p.yaml:9:25: rule \"t.url\": negative example matches \"http://y.example\"");
	examples_refused(edit("    examples: ['see https://x.example/a']\n",
			      "    examples: [{text: 'see https://x.example/a', match: 'https://x.example'}]\n"),
			 "rule \"t.url\": example matches \"https://x.example/a\", not \"https://x.example\"");
	/* Inside a tool span an example is grounded, so it does not match. */
	examples_refused(edit("    examples: ['see https://x.example/a']\n",
			      "    examples: ['<t>see https://x.example/a</t>']\n"),
			 "example does not match");
}

/* The built-in packs load, compile and pass their own examples. */
TEST(rules_builtin_packs)
{
	struct ruleset *rs = ruleset_new();
	struct db *db = NULL;
	struct diag d = {""};

	CHECK_EQ(ruleset_add_builtin(rs, &d), 0);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	CHECK_EQ(rs->n_signals, 6); /* the four, ungrounded_number, altered_number */
	CHECK(ruleset_context(rs, "medical") != NULL);
	CHECK(ruleset_context(rs, "user-facing") != NULL);
	CHECK_EQ(db_compile(rs, ENGINE_PCRE2, &db, &d), 0);
	if (db)
		CHECK_EQ(scan_check_examples(db, &d), 0);
	if (d.msg[0])
		fprintf(stderr, "  %s\n", d.msg);
	db_free(db);
	ruleset_free(rs);
}
