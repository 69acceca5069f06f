// SPDX-License-Identifier: MIT
/* Rule packs: what loads, and what is refused with file:line:col. */
#include <errno.h>
#include <stdlib.h>

#include "claims/claims.h"
#include "ground/attrs_int.h"
#include "ground/refs_int.h"
#include "match/rules.h"
#include "scan/db.h"
#include "scan/scan.h"
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
	CHECK_EQ(rs->n_signals, 10); /* the four, ungrounded_number, altered_number, fabricated_reference, altered_reference, contradicted_attribute, spoofed_directive */
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

/* ---- the serialized ruleset ---- */

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_strings(char *const *a, size_t na, char *const *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (!same_str(a[i], b[i]))
			return false;
	return true;
}

/* Same place; b's file must be a string of its own ruleset's table. */
static bool same_where(struct where a, struct where b, const struct ruleset *rs_b)
{
	size_t i;

	for (i = 0; b.file && i < rs_b->n_files; i++)
		if (rs_b->files[i] == b.file)
			break;
	return a.line == b.line && a.col == b.col && same_str(a.file, b.file) &&
	       (!b.file || i < rs_b->n_files);
}

static bool same_examples(const struct example *a, size_t na, const struct example *b, size_t nb,
			  const struct ruleset *rs_b)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (!same_str(a[i].text, b[i].text) || !same_str(a[i].match, b[i].match) ||
		    !same_where(a[i].at, b[i].at, rs_b))
			return false;
	return true;
}

static bool same_rule(const struct rule *a, const struct rule *b, const struct ruleset *rs_b)
{
	return same_str(a->id, b->id) && same_str(a->signal, b->signal) &&
	       same_str(a->pattern, b->pattern) &&
	       same_strings(a->alternatives, a->n_alternatives, b->alternatives, b->n_alternatives) &&
	       a->caseless == b->caseless && a->severity == b->severity &&
	       same_str(a->message, b->message) && same_str(a->recovery, b->recovery) &&
	       same_strings(a->unless_sentence, a->n_unless_sentence, b->unless_sentence,
			    b->n_unless_sentence) &&
	       same_str(a->unless_before, b->unless_before) &&
	       same_str(a->unless_after, b->unless_after) && a->grounding == b->grounding &&
	       same_str(a->near.signal, b->near.signal) && same_str(a->near.message, b->near.message) &&
	       same_str(a->near.recovery, b->near.recovery) && a->near.tolerance == b->near.tolerance &&
	       a->near.signal_index == b->near.signal_index &&
	       same_examples(a->examples, a->n_examples, b->examples, b->n_examples, rs_b) &&
	       same_examples(a->negatives, a->n_negatives, b->negatives, b->n_negatives, rs_b) &&
	       same_where(a->at, b->at, rs_b) && same_where(a->pattern_at, b->pattern_at, rs_b) &&
	       a->signal_index == b->signal_index;
}

/* Loads blob into a new ruleset and finishes it; NULL when either fails. */
static struct ruleset *load_blob(const void *blob, size_t len)
{
	struct ruleset *rs = ruleset_new();
	struct diag d = {""};

	if (ruleset_add_serialized(rs, blob, len, &d) < 0 || ruleset_finish(rs, &d) < 0) {
		fprintf(stderr, "  %s\n", d.msg);
		ruleset_free(rs);
		return NULL;
	}
	return rs;
}

static struct ruleset *load_builtin_yaml(void)
{
	struct ruleset *rs = ruleset_new();
	struct diag d = {""};

	if (ruleset_add_builtin_yaml(rs, &d) < 0 || ruleset_finish(rs, &d) < 0) {
		fprintf(stderr, "  %s\n", d.msg);
		ruleset_free(rs);
		return NULL;
	}
	return rs;
}

/* The built-in packs, serialized and loaded back, are the same in every field. */
TEST(rules_serialized_round_trip)
{
	struct ruleset *a = load_builtin_yaml(), *b = NULL;
	struct buf blob = {0}, again = {0};
	bool alternatives = false, match = false, escalate = false, near = false;
	size_t i;

	CHECK(a != NULL);
	if (!a)
		return;
	CHECK_EQ(ruleset_serialize(a, &blob), 0);
	b = load_blob(blob.data, blob.len);
	CHECK(b != NULL);
	if (!b)
		goto out;
	CHECK_STR(b->digest, a->digest);
	CHECK(b->digest_loaded); /* kept, not recomputed... */
	CHECK_EQ(ruleset_check_digest(b), 0); /* ...and still right */
	CHECK_EQ(ruleset_serialize(b, &again), 0);
	CHECK_EQ(again.len, blob.len);
	CHECK(again.len == blob.len && memcmp(again.data, blob.data, blob.len) == 0);
	/* What the build embedded is what these packs serialize to. */
	CHECK_EQ(builtin_rules_len, blob.len);
	CHECK(builtin_rules_len == blob.len && memcmp(builtin_rules, blob.data, blob.len) == 0);

	CHECK(same_strings(a->files, a->n_files, b->files, b->n_files));
	CHECK(same_strings(a->signals, a->n_signals, b->signals, b->n_signals));
	CHECK_EQ(b->n_rules, a->n_rules);
	for (i = 0; i < a->n_rules && i < b->n_rules; i++) {
		const struct rule *ra = &a->rules[i], *rb = &b->rules[i];

		if (!same_rule(ra, rb, b)) {
			fprintf(stderr, "  rule %s differs\n", ra->id);
			CHECK(!"a rule differs after the round trip");
		}
		if (ra->n_alternatives > 0 && !alternatives) {
			alternatives = true;
			CHECK_STR(rb->alternatives[ra->n_alternatives - 1],
				  ra->alternatives[ra->n_alternatives - 1]);
			CHECK(rb->alternatives[0] != ra->alternatives[0]); /* a copy */
		}
		if (ra->n_examples > 0 && ra->examples[0].match && !match) {
			match = true;
			CHECK_STR(rb->examples[0].match, ra->examples[0].match);
			CHECK_EQ(rb->examples[0].at.line, ra->examples[0].at.line);
			CHECK_EQ(rb->examples[0].at.col, ra->examples[0].at.col);
			CHECK_STR(rb->examples[0].at.file, ra->examples[0].at.file);
		}
		if (ra->near.signal && !near) {
			near = true;
			CHECK(rb->near.tolerance == ra->near.tolerance);
			CHECK_STR(b->signals[rb->near.signal_index], ra->near.signal);
		}
	}
	/* The built-in packs have each kind, so the loop above checked them. */
	CHECK(alternatives && match && near);
	CHECK_EQ(b->n_spans, a->n_spans);
	for (i = 0; i < a->n_spans && i < b->n_spans; i++) {
		CHECK_STR(b->spans[i].name, a->spans[i].name);
		CHECK_STR(b->spans[i].open, a->spans[i].open);
		CHECK_STR(b->spans[i].close, a->spans[i].close);
		CHECK(same_where(a->spans[i].at, b->spans[i].at, b));
	}
	CHECK_EQ(b->n_contexts, a->n_contexts);
	for (i = 0; i < a->n_contexts && i < b->n_contexts; i++) {
		const struct context *ca = &a->contexts[i], *cb = &b->contexts[i];

		CHECK_STR(cb->name, ca->name);
		CHECK(same_str(cb->description, ca->description));
		CHECK(same_strings(ca->escalate, ca->n_escalate, cb->escalate, cb->n_escalate));
		CHECK(same_where(ca->at, cb->at, b));
		escalate |= ca->n_escalate > 0;
	}
	CHECK(escalate);
	CHECK_STR(ruleset_context(b, "medical")->escalate[0], ruleset_context(a, "medical")->escalate[0]);
	/* The kept digest is checked against content, not against itself. */
	b->rules[0].message[0] ^= 1;
	CHECK_EQ(ruleset_check_digest(b), -EBADMSG);
out:
	buf_free(&blob);
	buf_free(&again);
	ruleset_free(a);
	ruleset_free(b);
}

/* The program's built-in ruleset is the YAML's, digest included. */
TEST(rules_builtin_is_serialized)
{
	struct ruleset *a = load_builtin_yaml(), *b = ruleset_new();
	struct diag d = {""};

	struct ruleset *c = ruleset_new();
	struct buf again = {0};
	size_t i;

	CHECK_EQ(ruleset_add_builtin(b, &d), 0);
	CHECK_EQ(ruleset_finish(b, &d), 0);
	CHECK(builtin_rules_len > 0);
	CHECK(b->digest_loaded);
	if (a) {
		CHECK_STR(b->digest, a->digest);
		CHECK_EQ(b->n_rules, a->n_rules);
		CHECK(same_strings(a->signals, a->n_signals, b->signals, b->n_signals));
		/* The image's signal indexes are the ones ruleset_finish() makes. */
		for (i = 0; i < a->n_rules && i < b->n_rules; i++) {
			CHECK_EQ(b->rules[i].signal_index, a->rules[i].signal_index);
			if (a->rules[i].near.signal)
				CHECK_EQ(b->rules[i].near.signal_index, a->rules[i].near.signal_index);
		}
		/* The lists come from mkdb's image of them (issue 35): the same
		 * words, hashed to the same digest, written back the same. */
		CHECK(b->n_lists > 0 && b->n_lists == a->n_lists);
		for (i = 0; i < a->n_lists && i < b->n_lists; i++) {
			CHECK_STR(b->lists[i].name, a->lists[i].name);
			CHECK(same_strings(a->lists[i].words, a->lists[i].n_words, b->lists[i].words,
					   b->lists[i].n_words));
			CHECK(same_where(a->lists[i].at, b->lists[i].at, b));
		}
	}
	CHECK_EQ(ruleset_load_examples(b), 0); /* the digest hashes them too */
	CHECK_EQ(ruleset_check_digest(b), 0);
	CHECK_EQ(ruleset_serialize(b, &again), 0);
	CHECK(again.len == builtin_rules_len &&
	      memcmp(again.data, builtin_rules, builtin_rules_len) == 0);
	/* An image that is not of the data is refused, nothing loaded. */
	{
		struct lists_image other = builtin_lists_image;

		other.at += 4;
		CHECK_EQ(ruleset_add_serialized_builtin(c, builtin_rules, builtin_rules_len, &other, &d),
			 -EINVAL);
		CHECK(c->n_rules == 0 && c->n_lists == 0);
		other = builtin_lists_image;
		other.n_lists--;
		CHECK_EQ(ruleset_add_serialized_builtin(c, builtin_rules, builtin_rules_len, &other, &d),
			 -EINVAL);
		CHECK(c->n_rules == 0 && c->n_lists == 0);
	}
	buf_free(&again);
	ruleset_free(a);
	ruleset_free(b);
	ruleset_free(c);
}

/*
 * The word lists the attribute and reference rules read are the db's,
 * made once for every scanner from it (issue 35); a ruleset without such
 * rules has none.
 */
TEST(rules_db_lists_once)
{
	struct ruleset *rs = ruleset_new(), *plain = ruleset_new();
	struct db *db = NULL, *db2 = NULL;
	struct diag d = {""};

	CHECK_EQ(ruleset_add_builtin(rs, &d), 0);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	CHECK_EQ(db_compile_checked(rs, ENGINE_PCRE2, &db, &d), 0);
	CHECK(db && db->attrs != NULL && db->refs != NULL);
	CHECK_EQ(ruleset_add_buffer(plain, "p.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_finish(plain, &d), 0);
	CHECK_EQ(db_compile(plain, ENGINE_PCRE2, &db2, &d), 0);
	CHECK(db2 && db2->attrs == NULL && db2->refs == NULL);
	db_free(db);
	db_free(db2);
	ruleset_free(rs);
	ruleset_free(plain);
}

static bool same_hashes(const struct hashes *a, const struct hashes *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->h, b->h, a->n * sizeof(*a->h)) == 0);
}

static bool same_words(const struct words *a, const struct words *b)
{
	size_t i;

	if (a->n != b->n || memcmp(a->at, b->at, sizeof(a->at)) != 0)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->len[i] != b->len[i] || strcmp(words_at(a, i), words_at(b, i)) != 0)
			return false;
	return true;
}

/*
 * The built-in rules' word lists are made by the build (mkdb) and pointed
 * at, not made at each start (issue 35): they are the lists a run makes of
 * the packs' YAML, field by field; with a pack beside the built-in rules
 * the db makes its own.
 */
TEST(rules_db_lists_built)
{
	struct ruleset *rs = ruleset_new(), *yaml = load_builtin_yaml(), *more = ruleset_new();
	struct db *db = NULL, *fresh = NULL, *db3 = NULL;
	struct diag d = {""};

	CHECK(yaml != NULL);
	CHECK_EQ(ruleset_add_builtin(rs, &d), 0);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	CHECK_EQ(db_compile_checked(rs, ENGINE_PCRE2, &db, &d), 0);
	CHECK_EQ(db_compile_checked(yaml, ENGINE_PCRE2, &fresh, &d), 0);
	CHECK(db && fresh && builtin_ref_lists && builtin_attr_lists);
	CHECK(db->refs == builtin_ref_lists && db->attrs == builtin_attr_lists);
	CHECK(!db->own_refs && !db->own_attrs && fresh->own_refs && fresh->own_attrs);
	if (db && fresh && db->refs && db->attrs && fresh->refs && fresh->attrs) {
		const struct refs *a = db->refs, *b = fresh->refs;
		const struct attrs *x = db->attrs, *y = fresh->attrs;

		CHECK(same_words(&a->stop, &b->stop) && same_words(&a->particles, &b->particles) &&
		      same_words(&a->headings, &b->headings) &&
		      same_words(&a->not_titles, &b->not_titles) &&
		      same_words(&a->hosts, &b->hosts) && same_words(&a->fields, &b->fields));
		CHECK(a->stop.n > 0 && a->hosts.n > 0);
		CHECK(a->first == b->first && a->width5 == b->width5 &&
		      a->old_first == b->old_first && a->old_last == b->old_last);
		CHECK(same_hashes(&x->generic, &y->generic) && same_hashes(&x->neg, &y->neg) &&
		      same_hashes(&x->brk, &y->brk) && same_hashes(&x->sub, &y->sub) &&
		      same_hashes(&x->cop, &y->cop) && same_hashes(&x->asserts, &y->asserts) &&
		      same_hashes(&x->subjects, &y->subjects) && same_hashes(&x->avail, &y->avail) &&
		      same_hashes(&x->conj, &y->conj) && same_hashes(&x->cond, &y->cond) &&
		      same_hashes(&x->yes, &y->yes) && same_hashes(&x->no, &y->no) &&
		      same_hashes(&x->offers, &y->offers));
		CHECK(x->generic.n > 0 && x->n_syn > 0 && x->n_syn == y->n_syn &&
		      memcmp(x->syn, y->syn, x->n_syn * sizeof(*x->syn)) == 0);
	}
	CHECK_EQ(ruleset_add_builtin(more, &d), 0);
	CHECK_EQ(ruleset_add_buffer(more, "p.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_finish(more, &d), 0);
	/* Every rule's index names its signal, the pack's after the image's. */
	for (size_t i = 0; i < more->n_rules; i++)
		CHECK_STR(more->signals[more->rules[i].signal_index], more->rules[i].signal);
	CHECK_EQ(db_compile(more, ENGINE_PCRE2, &db3, &d), 0);
	CHECK(db3 && db3->own_refs && db3->own_attrs && db3->refs == db3->own_refs &&
	      db3->attrs == db3->own_attrs);
	db_free(db);
	db_free(fresh);
	db_free(db3);
	ruleset_free(rs);
	ruleset_free(yaml);
	ruleset_free(more);
}

/*
 * The program's own rules, loaded whole, are not checked again by
 * ruleset_finish() (mkdb checked them: issue 35); with anything beside
 * them, everything is checked, their ids against the rest too.
 */
TEST(rules_builtin_checked_once)
{
	struct ruleset *rs = ruleset_new(), *twice = ruleset_new(), *after = ruleset_new();
	struct diag d = {""};
	const char *pack;

	CHECK_EQ(ruleset_add_builtin(rs, &d), 0);
	CHECK(rs->built_checked);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	CHECK_EQ(rs->n_signals, 10);

	CHECK_EQ(ruleset_add_builtin(twice, &d), 0);
	CHECK_EQ(ruleset_add_builtin(twice, &d), 0);
	CHECK(!twice->built_checked);
	CHECK_EQ(ruleset_finish(twice, &d), -EINVAL);
	CHECK(strstr(d.msg, "is already defined") != NULL);

	CHECK_EQ(ruleset_add_builtin(after, &d), 0);
	pack = edit("  - id: t.url\n", "  - id: url.http\n");
	CHECK(pack != NULL);
	CHECK_EQ(ruleset_add_buffer(after, "p.yaml", pack ? pack : "", pack ? strlen(pack) : 0, &d),
		 0);
	CHECK(!after->built_checked);
	CHECK_EQ(ruleset_finish(after, &d), -EINVAL); /* url.http twice */
	CHECK(strstr(d.msg, "rule id \"url.http\" is already defined") != NULL);
	ruleset_free(rs);
	ruleset_free(twice);
	ruleset_free(after);
}

/*
 * The built-in rules' exemption patterns come compiled with the program
 * (issue 35): the build's are what the claims would compile, and the
 * examples (whose negatives lean on the exemptions) pass with them, with
 * a damaged copy (the claims compile instead), and with none.
 */
TEST(rules_builtin_exemptions_serialized)
{
	struct ruleset *rs = ruleset_new();
	struct buf again = {0};
	unsigned char *bad = NULL;
	struct db *db = NULL;
	struct diag d = {""};

	CHECK_EQ(ruleset_add_builtin(rs, &d), 0);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	CHECK(builtin_exempt_len > 1000);
	CHECK_EQ(claims_serialize_exemptions(rs, &again), 0);
	CHECK(again.len == builtin_exempt_len &&
	      memcmp(again.data, builtin_exempt, builtin_exempt_len) == 0);
	CHECK_EQ(db_compile_checked(rs, ENGINE_PCRE2, &db, &d), 0);
	if (db) {
		db->exempt = builtin_exempt;
		db->exempt_len = builtin_exempt_len;
		CHECK_EQ(scan_check_examples(db, &d), 0);
		bad = malloc(builtin_exempt_len);
		if (bad) {
			memcpy(bad, builtin_exempt, builtin_exempt_len);
			bad[8] ^= 1; /* the digest: another ruleset's */
			db->exempt = bad;
			CHECK_EQ(scan_check_examples(db, &d), 0);
		}
		db->exempt = NULL;
		db->exempt_len = 0;
		CHECK_EQ(scan_check_examples(db, &d), 0);
	}
	if (d.msg[0])
		fprintf(stderr, "  %s\n", d.msg);
	free(bad);
	buf_free(&again);
	db_free(db);
	ruleset_free(rs);
}

/* Anything added beside a serialized ruleset is hashed with it, as from YAML. */
TEST(rules_serialized_with_more)
{
	struct ruleset *yaml = ruleset_new(), *after = ruleset_new(), *before = ruleset_new();
	struct diag d = {""};

	CHECK_EQ(ruleset_add_builtin_yaml(yaml, &d), 0);
	CHECK_EQ(ruleset_add_buffer(yaml, "p.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_finish(yaml, &d), 0);

	CHECK_EQ(ruleset_add_serialized(after, builtin_rules, builtin_rules_len, &d), 0);
	CHECK_EQ(ruleset_add_buffer(after, "p.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_finish(after, &d), 0);
	CHECK(!after->digest_loaded);
	CHECK_STR(after->digest, yaml->digest);

	/* Appended to a pack: the pack's locations and the blob's both hold. */
	CHECK_EQ(ruleset_add_buffer(before, "p.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_add_serialized(before, builtin_rules, builtin_rules_len, &d), 0);
	CHECK_EQ(ruleset_finish(before, &d), 0);
	CHECK(!before->digest_loaded);
	CHECK(strcmp(before->digest, yaml->digest) != 0); /* other order */
	CHECK_EQ(before->n_rules, yaml->n_rules);
	CHECK_EQ(before->n_files, yaml->n_files);
	if (before->n_rules == yaml->n_rules) {
		CHECK_STR(before->rules[0].at.file, "p.yaml");
		CHECK_STR(before->rules[0].id, yaml->rules[yaml->n_rules - 1].id);
		CHECK_STR(before->rules[1].id, yaml->rules[0].id);
		CHECK(same_where(yaml->rules[0].at, before->rules[1].at, before));
	}
	ruleset_free(yaml);
	ruleset_free(after);
	ruleset_free(before);
}

/*
 * A serialized ruleset's strings share one block per load (issue 35): two
 * loads and a pack in one ruleset keep every string whole, and freeing it
 * frees each block once and each of the pack's strings (ASan in build-san).
 */
TEST(rules_serialized_twice_with_pack)
{
	struct ruleset *one = ruleset_new(), *rs = ruleset_new();
	struct diag d = {""};
	size_t i, n;

	CHECK_EQ(ruleset_add_serialized(one, builtin_rules, builtin_rules_len, &d), 0);
	n = one->n_rules;
	CHECK_EQ(ruleset_add_serialized(rs, builtin_rules, builtin_rules_len, &d), 0);
	CHECK_EQ(ruleset_add_buffer(rs, "p.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_add_serialized(rs, builtin_rules, builtin_rules_len, &d), 0);
	CHECK_EQ(rs->n_arenas, 2);
	CHECK(rs->n_rules > 2 * n);
	for (i = 0; i < n && rs->n_rules > 2 * n; i++) {
		CHECK_STR(rs->rules[i].id, one->rules[i].id);
		CHECK_STR(rs->rules[rs->n_rules - n + i].message, one->rules[i].message);
	}
	CHECK_STR(rs->rules[n].at.file, "p.yaml");
	ruleset_free(one);
	ruleset_free(rs);
}

/*
 * The built-in rules' examples stay in the program's data until a check
 * needs them (issue 35): a start-up decodes none, counts them all, and
 * decoded they are the YAML's, whatever was loaded before them; written
 * out again undecoded, the ruleset is the same bytes.
 */
TEST(rules_builtin_examples_lazy)
{
	struct ruleset *yaml = load_builtin_yaml(), *rs = ruleset_new(), *mixed = ruleset_new();
	struct ruleset *eager = ruleset_new();
	struct buf again = {0};
	struct diag d = {""};
	size_t i, pending = 0, same = 0;

	if (!yaml || !rs || !mixed || !eager) {
		CHECK(!"out of memory");
		goto out;
	}
	CHECK_EQ(ruleset_add_builtin(rs, &d), 0);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	CHECK(rs->digest_loaded);
	CHECK_STR(rs->digest, yaml->digest);
	CHECK_EQ(rs->n_rules, yaml->n_rules);
	for (i = 0; i < rs->n_rules && rs->n_rules == yaml->n_rules; i++) {
		const struct rule *r = &rs->rules[i], *y = &yaml->rules[i];

		pending += r->examples == NULL && r->negatives == NULL && r->n_examples == 0 &&
			   r->n_negatives == 0 && y->n_examples + y->n_negatives > 0;
		CHECK_EQ(rule_n_examples(r, 0), y->n_examples);
		CHECK_EQ(rule_n_examples(r, 1), y->n_negatives);
		CHECK_EQ(rule_n_examples(r, 2), y->n_fix_examples);
	}
	CHECK_EQ(pending, yaml->n_rules);
	CHECK_EQ(ruleset_serialize(rs, &again), 0);
	CHECK(again.len == builtin_rules_len && memcmp(again.data, builtin_rules, again.len) == 0);
	CHECK_EQ(ruleset_load_examples(rs), 0);
	CHECK_EQ(ruleset_load_examples(rs), 0); /* once */
	for (i = 0; i < rs->n_rules && rs->n_rules == yaml->n_rules; i++) {
		const struct rule *r = &rs->rules[i], *y = &yaml->rules[i];

		same += same_rule(y, r, rs) && rule_n_examples(r, 0) == r->n_examples &&
			same_examples(y->fix_examples, y->n_fix_examples, r->fix_examples,
				      r->n_fix_examples, rs);
	}
	CHECK_EQ(same, yaml->n_rules);

	/* After a pack: the locations name the blob's files, not the pack's. */
	CHECK_EQ(ruleset_add_buffer(mixed, "p.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_add_builtin(mixed, &d), 0);
	CHECK_EQ(ruleset_finish(mixed, &d), 0);
	CHECK_EQ(ruleset_add_buffer(eager, "p.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_add_serialized(eager, builtin_rules, builtin_rules_len, &d), 0);
	CHECK_EQ(ruleset_finish(eager, &d), 0);
	CHECK_STR(mixed->digest, eager->digest);
	CHECK_EQ(mixed->n_rules, yaml->n_rules + 1);
	for (i = 0, same = 0; i < yaml->n_rules && mixed->n_rules == yaml->n_rules + 1; i++)
		same += same_rule(&yaml->rules[i], &mixed->rules[i + 1], mixed);
	CHECK_EQ(same, yaml->n_rules);
out:
	buf_free(&again);
	ruleset_free(yaml);
	ruleset_free(rs);
	ruleset_free(mixed);
	ruleset_free(eager);
}

/* Refused with -EINVAL and a reason, leaving the ruleset as it was. */
static void blob_refused(const void *blob, size_t len, const char *why)
{
	struct ruleset *rs = ruleset_new();
	struct diag d = {""};

	CHECK_EQ(ruleset_add_serialized(rs, blob, len, &d), -EINVAL);
	CHECK(strncmp(d.msg, "serialized ruleset: ", 20) == 0);
	if (why && !strstr(d.msg, why)) {
		fprintf(stderr, "  got: %s\n  want: %s (length %zu)\n", d.msg, why, len);
		CHECK(!"wrong diagnostic");
	}
	CHECK_EQ(rs->n_rules + rs->n_files + rs->n_spans + rs->n_contexts, 0);
	ruleset_free(rs);
}

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

TEST(rules_serialized_refused)
{
	size_t len = builtin_rules_len, cut[] = {0, 3, 4, 7, 8, 11, 12, len / 3, len / 2,
						  len - 65, len - 64, len - 1};
	unsigned char *blob = malloc(len + 1);
	struct ruleset *rs;
	struct diag d;
	size_t i;

	if (!blob || len < 200) {
		CHECK(!"no built-in serialized ruleset");
		free(blob);
		return;
	}
	memcpy(blob, builtin_rules, len);
	for (i = 0; i < ARRAY_SIZE(cut); i++)
		blob_refused(blob, cut[i], NULL);
	for (i = 12; i < len; i += 211) /* cut everywhere, roughly */
		blob_refused(blob, i, NULL);
	blob_refused(blob, len - 1, "truncated");

	blob[len] = 0;
	blob_refused(blob, len + 1, "bytes after the end");

	blob[4] ^= 1; /* the version */
	blob_refused(blob, len, "another version");
	blob[4] ^= 1;
	blob[0] ^= 0xff;
	blob_refused(blob, len, "not a serialized ruleset");
	blob[0] ^= 0xff;
	put_u32(blob + 8, 0xffffffff); /* the number of files */
	blob_refused(blob, len, "count past the end");
	memcpy(blob, builtin_rules, len);
	blob[len - 1] = 'x'; /* the digest's last hex digit */
	blob_refused(blob, len, "digest");
	memcpy(blob, builtin_rules, len);

	/* Undamaged, it loads: what the checks above refused was the damage. */
	rs = ruleset_new();
	CHECK_EQ(ruleset_add_serialized(rs, blob, len, &d), 0);
	ruleset_free(rs);

	/*
	 * Any byte damaged: refused, or loaded as other content; never read
	 * out of bounds (ASan is the judge in build-san).
	 */
	for (i = 0; i < len; i += 37) {
		blob[i] ^= 0x5a;
		rs = ruleset_new();
		if (ruleset_add_serialized(rs, blob, len, &d) == 0)
			ruleset_finish(rs, &d);
		ruleset_free(rs);
		blob[i] ^= 0x5a;
	}
	free(blob);
}

TEST(rules_serialize_needs_finish)
{
	struct ruleset *rs = ruleset_new();
	struct buf out = {0};
	struct diag d = {""};

	CHECK_EQ(ruleset_add_buffer(rs, "p.yaml", good, strlen(good), &d), 0);
	CHECK_EQ(ruleset_serialize(rs, &out), -EINVAL);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	CHECK_EQ(ruleset_serialize(rs, &out), 0);
	CHECK(out.len > 8);
	buf_free(&out);
	ruleset_free(rs);
}

/* ---- every refusal of a pack, and what it leaves behind ---- */

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LEAKED() __lsan_do_recoverable_leak_check()
#else
#define LEAKED() 0
#endif

/* A complete rule, lines 1-9; a case adds lines from line 10. */
#define RULE_ID "rules:\n  - id: a\n"
#define RULE_REST                                                              \
	"    pattern: x\n    severity: warn\n    message: m\n    recovery: r\n" \
	"    examples: [x]\n    negative_examples: [y]\n"
#define RULE RULE_ID "    signal: s\n" RULE_REST
#define QRULE RULE "    grounding: quantity\n" /* near goes on line 11 */
#define SPAN(s) RULE "spans:\n  - " s "\n"       /* the span on line 11 */
#define CONTEXT(s) RULE "contexts:\n  - " s "\n" /* the context on line 11 */
#define TRIGGER(s) RULE "triggers:\n  - " s "\n" /* the trigger on line 11 */
#define TRIGGER_OK "{name: t, pattern: p, escalate: [s], examples: [p], negative_examples: [q]}"

static const struct {
	const char *yaml;
	const char *want;
} broken_packs[] = {
	/* get_string, get_nonempty, get_bool */
	{RULE "    unless_before: [x]\n", "p.yaml:10:20: \"unless_before\" must be a string"},
	{RULE "    unless_before: \"a\\0b\"\n", "p.yaml:10:20: \"unless_before\" contains a NUL character"},
	{RULE "    unless_before: ''\n", "p.yaml:10:20: \"unless_before\" must not be empty"},
	{RULE "    caseless: [x]\n", "p.yaml:10:15: \"caseless\" must be true or false"},
	{RULE "    caseless: maybe\n", "p.yaml:10:15: \"caseless\" must be true or false"},
	/* get_string_list, get_alternatives */
	{RULE "    unless_sentence: {a: b}\n", "p.yaml:10:22: \"unless_sentence\" must be a list of strings"},
	{RULE "    unless_sentence: [a, '']\n", "p.yaml:10:26: \"unless_sentence\" must not be empty"},
	{RULE "    unless_sentence: ''\n", "p.yaml:10:22: \"unless_sentence\" must not be empty"},
	{RULE "    unless_sentence: [a, [b]]\n", "p.yaml:10:26: \"unless_sentence\" must be a string"},
	{RULE_ID "    pattern: []\n", "p.yaml:3:14: \"pattern\" must not be an empty list"},
	{RULE_ID "    pattern: [a, '']\n", "p.yaml:3:18: \"pattern\" must not be empty"},
	/* get_examples */
	{RULE_ID "    examples: x\n", "p.yaml:3:15: \"examples\" must be a list"},
	{RULE_ID "    examples: [[x]]\n", "p.yaml:3:16: each of \"examples\" must be a string or {text, match}"},
	{RULE_ID "    examples: [a, '']\n", "p.yaml:3:19: \"examples\" must not be empty"},
	{RULE_ID "    examples: [{text: a, [k]: v}]\n", "p.yaml:3:26: keys must be strings"},
	{RULE_ID "    examples: [{text: a, tex: b}]\n", "p.yaml:3:26: unknown or repeated key \"tex\" in an example"},
	{RULE_ID "    examples: [{text: a, text: b}]\n", "p.yaml:3:26: unknown or repeated key \"text\" in an example"},
	{RULE_ID "    examples: [{match: a}]\n", "p.yaml:3:16: an example needs \"text\""},
	{RULE_ID "    examples: [{text: a, match: ''}]\n", "p.yaml:3:33: \"match\" must not be empty"},
	/* parse_near */
	{QRULE "    near: x\n", "p.yaml:11:11: \"near\" must be a mapping of signal, tolerance, message and recovery"},
	{QRULE "    near: {tolerance: 0.5, [k]: v}\n", "p.yaml:11:28: keys must be strings"},
	{QRULE "    near: {tolerance: 0.5, tol: 1}\n", "p.yaml:11:28: unknown key \"tol\" in \"near\""},
	{QRULE "    near: {tolerance: 0.5, tolerance: 1}\n", "p.yaml:11:28: key \"tolerance\" given twice"},
	{QRULE "    near: {signal: t, signal: u}\n", "p.yaml:11:23: key \"signal\" given twice"},
	{QRULE "    near: {signal: t, tolerance: 2}\n",
	 "p.yaml:11:34: tolerance must be a number above 0 and at most 1, not \"2\""},
	{QRULE "    near: {signal: t, tolerance: 0.5x}\n",
	 "p.yaml:11:34: tolerance must be a number above 0 and at most 1, not \"0.5x\""},
	{QRULE "    near: {tolerance: ''}\n", "p.yaml:11:23: \"tolerance\" must not be empty"},
	{QRULE "    near: {signal: t, tolerance: 0.5}\n",
	 "p.yaml:11:11: \"near\" needs signal, tolerance, message and recovery"},
	{RULE "    near: {signal: t, tolerance: 0.5, message: m, recovery: r}\n",
	 "p.yaml:2:5: rule \"a\": \"near\" goes with grounding: quantity"},
	/* parse_rule */
	{"rules: [x]\n", "p.yaml:1:9: a rule must be a mapping"},
	{RULE "    [k]: v\n", "p.yaml:10:5: keys must be strings"},
	{RULE "    severity: block\n", "p.yaml:10:5: key \"severity\" given twice"},
	{RULE "    id: b\n", "p.yaml:10:5: key \"id\" given twice"},
	{RULE "    examples: [z]\n", "p.yaml:10:5: key \"examples\" given twice"},
	{RULE "    negative_examples: [z]\n", "p.yaml:10:5: key \"negative_examples\" given twice"},
	{QRULE "    near: {signal: t, tolerance: 0.5, message: m, recovery: r}\n    near: {signal: u}\n",
	 "p.yaml:12:5: key \"near\" given twice"},
	{"rules:\n  - id: A\n", "p.yaml:2:9: rule id \"A\" may hold only a-z, 0-9, '.', '_' and '-'"},
	{RULE_ID "    signal: S\n", "p.yaml:3:13: signal \"S\" may hold only a-z and '_'"},
	{RULE_ID "    severity: high\n", "p.yaml:3:15: severity must be warn or block, not \"high\""},
	{RULE "    grounding: [url]\n", "p.yaml:10:16: grounding must be exact, url, number, citation, quantity, reference or none"},
	{RULE "    grounding: fuzzy\n",
	 "p.yaml:10:16: grounding must be exact, url, number, citation, quantity, reference or none, not \"fuzzy\""},
	{RULE "    description: [x]\n", "p.yaml:10:18: \"description\" must be a string"},
	{RULE "    sevrity: warn\n", "p.yaml:10:5: unknown key \"sevrity\" in a rule"},
	{"rules:\n  - signal: s\n", "p.yaml:2:5: a rule needs \"id\""},
	{RULE_ID RULE_REST, "p.yaml:2:5: rule \"a\" needs \"signal\""},
	{RULE_ID "    signal: s\n    severity: warn\n", "p.yaml:2:5: rule \"a\" needs \"pattern\""},
	{RULE_ID "    signal: s\n    pattern: x\n", "p.yaml:2:5: rule \"a\" needs \"severity\""},
	{RULE_ID "    signal: s\n    pattern: x\n    severity: warn\n", "p.yaml:2:5: rule \"a\" needs \"message\""},
	{RULE_ID "    signal: s\n    pattern: x\n    severity: warn\n    message: m\n",
	 "p.yaml:2:5: rule \"a\" needs \"recovery\""},
	{RULE_ID "    signal: s\n    pattern: x\n    severity: warn\n    message: m\n    recovery: r\n",
	 "p.yaml:2:5: rule \"a\" needs \"examples\""},
	{RULE_ID "    signal: s\n    pattern: x\n    severity: warn\n    message: m\n    recovery: r\n"
		 "    examples: [x]\n",
	 "p.yaml:2:5: rule \"a\" needs \"negative_examples\""},
	/* parse_span */
	{SPAN("x"), "p.yaml:11:5: a span must be a mapping of name, open and close"},
	{SPAN("{name: t, [k]: v}"), "p.yaml:11:15: keys must be strings"},
	{SPAN("{name: t, opn: x}"), "p.yaml:11:15: unknown key \"opn\" in a span"},
	{SPAN("{name: t, name: u}"), "p.yaml:11:15: key \"name\" given twice"},
	{SPAN("{name: t, open: \"a\\nb\"}"), "p.yaml:11:21: a span delimiter may not hold a line break"},
	{SPAN("{name: t, open: ''}"), "p.yaml:11:21: \"open\" must not be empty"},
	{SPAN("{name: t, open: '<t>'}"), "p.yaml:11:5: a span needs name, open and close"},
	/* parse_context */
	{CONTEXT("x"), "p.yaml:11:5: a context must be a mapping of name and escalate"},
	{CONTEXT("{name: c, [k]: v}"), "p.yaml:11:15: keys must be strings"},
	{CONTEXT("{name: c, name: d}"), "p.yaml:11:15: unknown or repeated key \"name\" in a context"},
	{CONTEXT("{name: c, escalate: [s, '']}"), "p.yaml:11:29: \"escalate\" must not be empty"},
	{CONTEXT("{name: c, escalate: x, escalate: s}"),
	 "p.yaml:11:28: unknown or repeated key \"escalate\" in a context"},
	{CONTEXT("{escalate: [s]}"), "p.yaml:11:5: a context needs \"name\""},
	/* parse_list, parse_pack */
	{"rules: x\n", "p.yaml:1:8: \"rules\" must be a list"},
	{"spans: x\n", "p.yaml:1:8: \"spans\" must be a list"},
	{"contexts: x\n", "p.yaml:1:11: \"contexts\" must be a list"},
	{"", "p.yaml: empty rule pack"},
	{"# nothing\n", "p.yaml: empty rule pack"},
	{"[rules]\n", "p.yaml:1:1: a rule pack must be a mapping with rules, spans, contexts or triggers"},
	{"[k]: v\n", "p.yaml:1:1: keys must be strings"},
	{"rule: []\n", "p.yaml:1:1: unknown key \"rule\" (a pack holds rules, spans, contexts, "
	 "triggers and lists)"},
	/* ruleset_add_buffer: the YAML itself */
	{"rules: [\n", "p.yaml:2:1: did not find expected node content while parsing a flow node"},
	{RULE "    message: *m\n", "p.yaml:10:14: found undefined alias"},
	{"a: &x 1\nb: &x 2\n", "p.yaml:2:4: anchor \"x\" is already defined at p.yaml:1:4"},
	{"a: &a [*a]\n", "p.yaml:1:8: alias \"a\" names a node that holds it"},
	{"a: &a {b: [*a]}\n", "p.yaml:1:12: alias \"a\" names a node that holds it"},
	{"description: &a x\n" RULE "---\nb: *a\n", "p.yaml:12:4: found undefined alias"},
	{RULE "---\nrules: [\n", "p.yaml:12:1: did not find expected node content"},
	{RULE "---\nrules: []\n", "p.yaml:11:1: a rule pack holds one YAML document"},
	/* ruleset_finish */
	{"rules: []\n", "no rules loaded"},
	{RULE "  - id: a\n", "p.yaml:10:5: rule \"a\" needs \"signal\""},
	{RULE "  - id: a\n    signal: s\n" RULE_REST, "p.yaml:10:5: rule id \"a\" is already defined at p.yaml:2:5"},
	{SPAN("{name: t, open: '<t>', close: '</t>'}\n  - {name: u, open: '<t>', close: '</u>'}"),
	 "p.yaml:12:5: span opener \"<t>\" is already defined"},
	{CONTEXT("{name: c, escalate: [s]}\n  - {name: c}"), "p.yaml:12:5: context \"c\" is already defined"},
	{CONTEXT("{name: c, escalate: [t]}"), "p.yaml:11:5: context \"c\" escalates unknown signal \"t\""},
	/* parse_trigger, and its checks in ruleset_finish */
	{TRIGGER("x"), "p.yaml:11:5: a trigger must be a mapping of name, pattern, escalate and examples"},
	{TRIGGER("{name: T}"), "p.yaml:11:12: trigger name \"T\" may hold only a-z, 0-9, '_' and '-'"},
	{TRIGGER("{name: t, pat: p}"), "p.yaml:11:15: unknown or repeated key \"pat\" in a trigger"},
	{TRIGGER("{pattern: p}"), "p.yaml:11:5: a trigger needs \"name\""},
	{TRIGGER("{name: t, pattern: p, escalate: [s], examples: [p]}"),
	 "p.yaml:11:5: trigger \"t\" needs pattern, escalate, examples and negative_examples"},
	{TRIGGER("{name: t, pattern: [], escalate: [s]}"), "p.yaml:11:24: \"pattern\" must not be an empty list"},
	{TRIGGER(TRIGGER_OK "\n  - " TRIGGER_OK), "p.yaml:12:5: trigger \"t\" is already defined"},
	{TRIGGER("{name: t, pattern: p, escalate: [z], examples: [p], negative_examples: [q]}"),
	 "p.yaml:11:5: trigger \"t\" escalates unknown signal \"z\""},
	/* a rule's pressure */
	{RULE "    pressure: maybe\n", "p.yaml:10:15: pressure must be strict (no exemptions under pressure) or only"},
	{RULE "    pressure: strict\n", "p.yaml:2:5: rule \"a\": pressure: strict turns exemptions off, and it has none"},
	{RULE "    pressure: only\n    pressure: only\n", "p.yaml:11:5: key \"pressure\" given twice"},
};

/*
 * Loads a broken pack: false unless it is refused with a message that
 * starts with want and (under ASan) frees every byte it allocated.
 */
static bool refused_clean(const char *name, const char *yaml, size_t len, const char *want)
{
	struct ruleset *rs = ruleset_new();
	struct diag d = {""};
	bool ok = true;
	int err;

	if (!rs) {
		CHECK(!"out of memory");
		return false;
	}
	err = ruleset_add_buffer(rs, "p.yaml", yaml, len, &d);
	if (err == 0)
		err = ruleset_finish(rs, &d);
	ruleset_free(rs);
	if (err != -EINVAL || strncmp(d.msg, want, strlen(want)) != 0) {
		fprintf(stderr, "  %s: got %d \"%s\"\n  want \"%s\"\n", name, err, d.msg, want);
		CHECK(!"a broken pack refused otherwise");
		ok = false;
	}
	if (LEAKED()) {
		fprintf(stderr, "  %s leaked\n", name);
		CHECK(!"a refused pack leaked");
		ok = false;
	}
	return ok;
}

/* One broken pack for each message the loader can give. */
TEST(rules_refused_packs_leak_nothing)
{
	char name[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(broken_packs); i++) {
		snprintf(name, sizeof(name), "case %zu", i);
		/* After a leak every later check would report it again. */
		if (!refused_clean(name, broken_packs[i].yaml, strlen(broken_packs[i].yaml),
				   broken_packs[i].want))
			break;
	}
}

/* Appends s n times, then tail. */
static void add_times(struct buf *b, const char *s, size_t n, const char *tail)
{
	size_t i;

	for (i = 0; i < n; i++)
		CHECK_EQ(buf_adds(b, s), 0);
	CHECK_EQ(buf_adds(b, tail), 0);
}

/* A rule, anchored &r, whose unless_sentence names *a k times (its list on line 12). */
static void add_anchored_rule(struct buf *b, size_t k)
{
	buf_adds(b, "rules:\n  - &r\n    id: a\n    signal: s\n    pattern: x\n    severity: warn\n"
		    "    message: m\n    recovery: r\n    examples: [x]\n    negative_examples: [y]\n"
		    "    unless_sentence: [");
	add_times(b, "*a, ", k - 1, "*a]\n");
}

/*
 * Packs made to cost: each is refused at the event that passes a limit,
 * with its place, before the document or the rules are built from it.
 * (Before the limits the first made 236 MB of copies of its 76 KB, and
 * 100k levels of '[' took libyaml 22 s.)
 */
TEST(rules_refuse_bombs)
{
	struct buf b = {0};
	size_t i;

	/* 4,000 aliases of a 60 KB scalar: 69 of them pass 4 MiB of text. */
	buf_adds(&b, "description: &a '");
	add_times(&b, "a", 60000, "'\nrules:\n  - id: x\n    unless_sentence: [");
	add_times(&b, "*a, ", 3999, "*a]\n");
	refused_clean("aliases of a large scalar", b.data, b.len,
		      "p.yaml:4:295: a rule pack may hold at most 4194304 bytes of text, an alias counted as what it names");
	/* Aliases of a rule that holds aliases: 50 * 2,000 bytes per rule, 41 rules pass 4 MiB. */
	b.len = 0;
	buf_adds(&b, "description: &a '");
	add_times(&b, "x", 2000, "'\n");
	add_anchored_rule(&b, 50);
	add_times(&b, "  - *r\n", 60, "");
	refused_clean("aliases of aliases", b.data, b.len,
		      "p.yaml:53:5: a rule pack may hold at most 4194304 bytes of text");
	/* The 101st alias, however small. */
	b.len = 0;
	buf_adds(&b, "description: [&a x, ");
	add_times(&b, "*a, ", 200, "*a]\n");
	refused_clean("many aliases", b.data, b.len, "p.yaml:1:421: a rule pack may hold at most 100 aliases");
	/* The 101st anchor. */
	b.len = 0;
	buf_adds(&b, "description: [");
	for (i = 0; i < 200; i++)
		buf_addf(&b, "&a%03zu x, ", i);
	buf_adds(&b, "x]\n");
	refused_clean("many anchors", b.data, b.len, "p.yaml:1:915: a rule pack may hold at most 100 anchors");
	/* 100,000 levels of '[': the 65th level (the pack's mapping is the first). */
	b.len = 0;
	buf_adds(&b, "rules: ");
	add_times(&b, "[", 100000, "");
	add_times(&b, "]", 100000, "\n");
	refused_clean("deep nesting", b.data, b.len, "p.yaml:1:71: a rule pack may nest at most 64 levels");
	/* The 100,001st node. */
	b.len = 0;
	buf_adds(&b, "description: [");
	add_times(&b, "a,", 150000, "a]\nrules: []\n");
	refused_clean("many nodes", b.data, b.len,
		      "p.yaml:1:200009: a rule pack may hold at most 100000 nodes, an alias counted as what it names");
	/* One byte past 1 MiB, placed where that byte is. */
	b.len = 0;
	buf_adds(&b, "description: d\n");
	while (b.len <= PACK_MAX_BYTES)
		buf_adds(&b, "# xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
	refused_clean("a large pack", b.data, PACK_MAX_BYTES + 1, "p.yaml:13109:2: a rule pack may be at most 1048576 bytes");
	buf_free(&b);
}

/* A pack at every limit loads: they leave room, and are not off by one. */
TEST(rules_limits_leave_room)
{
	struct ruleset *rs = NULL;
	struct buf b = {0};
	struct diag d = {""};
	size_t i;

	/* 100 anchors, 100 aliases, 64 levels, a valid rule. */
	buf_adds(&b, "description: [");
	for (i = 0; i < PACK_MAX_ANCHORS; i++)
		buf_addf(&b, "&a%zu x, *a%zu, ", i, i);
	add_times(&b, "[", PACK_MAX_DEPTH - 2, "");
	add_times(&b, "]", PACK_MAX_DEPTH - 2, "]\n");
	buf_adds(&b, RULE);
	CHECK_EQ(load(b.data, &d, &rs), 0);
	if (d.msg[0])
		fprintf(stderr, "  %s\n", d.msg);
	if (rs)
		CHECK_EQ(rs->n_rules, 1);
	ruleset_free(rs);
	rs = NULL;
	/* Exactly 1 MiB, 100,000 nodes. */
	b.len = 0;
	buf_adds(&b, RULE "description: [");
	add_times(&b, "a,", PACK_MAX_NODES - 25, "a]\n"); /* the rule has 22, description 2 */
	while (b.len < PACK_MAX_BYTES)
		buf_addc(&b, b.len + 1 == PACK_MAX_BYTES ? '\n' : '#');
	CHECK_EQ(b.len, PACK_MAX_BYTES);
	CHECK_EQ(load(b.data, &d, &rs), 0);
	if (d.msg[0])
		fprintf(stderr, "  %s\n", d.msg);
	ruleset_free(rs);
	buf_free(&b);
}

/*
 * extend: url: the pattern finds a URL's start and the match runs to its
 * end (url_end()); the examples hold that end, on both engines. Without
 * extend the start alone is the match. Another value, or no pattern to
 * find the starts, is refused.
 */
static char *url_pack(const char *how)
{
	static char text[4096];
	static const char with[] =
		"    pattern: 'https?://[a-z0-9]'\n%s"
		"    examples:\n"
		"      - {text: 'see https://x.example/a_(b).', match: 'https://x.example/a_(b)'}\n"
		"      - {text: '[t](http://y.example/c?d=e).', match: 'http://y.example/c?d=e'}\n";
	char lines[512];
	const char *p = edit("    pattern: 'https?://\\S+'\n", "");

	snprintf(lines, sizeof(lines), with, how);
	snprintf(text, sizeof(text), "%s", p ? p : "");
	p = strstr(text, "    examples: ['see https://x.example/a']\n");
	if (!p)
		return NULL;
	{
		char tail[4096];

		snprintf(tail, sizeof(tail), "%s", p + strlen("    examples: ['see https://x.example/a']\n"));
		snprintf(text + (p - text), sizeof(text) - (size_t)(p - text), "%s%s", lines, tail);
	}
	return text;
}

TEST(rules_extend_url)
{
	struct ruleset *a = NULL, *b = NULL;
	struct db *db = NULL;
	struct diag d = {""};
	const char *t;

	t = url_pack("    extend: url\n");
	CHECK(t != NULL);
	if (!t || load(t, &d, &a) != 0) {
		fprintf(stderr, "  %s\n", d.msg);
		CHECK(!"the pack with extend: url is refused");
		goto out;
	}
	CHECK_EQ(a->rules[0].extend, EXTEND_URL);
	for (int be = 0; be < 2; be++) {
		CHECK_EQ(db_compile(a, be ? ENGINE_PCRE2 : ENGINE_AUTO, &db, &d), 0);
		if (db)
			CHECK_EQ(scan_check_examples(db, &d), 0);
		db_free(db);
		db = NULL;
	}
	CHECK_EQ(load(url_pack(""), &d, &b), 0);
	if (b) {
		CHECK(strcmp(a->digest, b->digest) != 0);
		CHECK_EQ(db_compile(b, ENGINE_AUTO, &db, &d), 0);
		if (db)
			CHECK(scan_check_examples(db, &d) != 0);
	}
	refused(edit("    severity: warn\n", "    severity: warn\n    extend: uri\n"), "p.yaml:5:13:",
		"extend must be url");
	refused(edit("    pattern: 'https?://\\S+'\n", "    grounding: reference\n    extend: url\n"),
		"p.yaml:2:5:", "\"extend\" needs a \"pattern\"");
out:
	db_free(db);
	ruleset_free(a);
	ruleset_free(b);
}
