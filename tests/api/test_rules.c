// SPDX-License-Identifier: MIT
/* The public API's rules, driven through libhalluscan.so as a user links it. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api_test.h"

TEST(api_rules_builtin)
{
	struct halluscan_rules *rules = NULL;
	struct halluscan_error err;
	const struct halluscan_rules_info *info;
	const struct halluscan_rule *r;
	size_t i, ex = 0;

	CHECK_EQ(halluscan_rules_open(NULL, &rules, &err), 0);
	if (!rules)
		return;
	CHECK_EQ(err.code, 0);
	CHECK_STR(err.message, "");
	info = halluscan_rules_info(rules);
	CHECK(info->n_rules >= 10);
	CHECK_EQ(strlen(halluscan_rules_digest(rules)), 64);
	CHECK_STR(info->digest, halluscan_rules_digest(rules));
	CHECK_STR(info->engine, HAVE_HYPERSCAN ? "hyperscan" : "pcre2");
	CHECK(info->degraded == NULL);
	CHECK_EQ(info->n_spans, 2);
	/* The listing the program prints with --list-rules. */
	r = halluscan_rules_rule(rules, 0);
	CHECK_STR(r->id, "url.http");
	CHECK_STR(r->signal, "fabricated_url");
	CHECK_EQ(r->severity, HALLUSCAN_WARN);
	CHECK_STR(r->file, "patterns/urls.yaml");
	CHECK(r->line > 0 && r->pattern && strstr(r->pattern, "http"));
	/* The regex of the whole URL, trailing punctuation and all, though
	 * its pack's pattern finds only where a URL starts (extend: url). */
	CHECK(r->pattern && strstr(r->pattern, "|\\\\^.,;:!?*_~\\x00-\\x1f\\x7f]|"));
	for (i = 0; (r = halluscan_rules_rule(rules, i)); i++) {
		ex += r->n_examples;
		/* A number check runs on the lexer, list items and years on
		 * the reference recognizer, an attribute check on the records'
		 * words: on neither engine. */
		unsigned neither = HALLUSCAN_RULE_LEXER | HALLUSCAN_RULE_RECOGNIZER | HALLUSCAN_RULE_RECORDS;

		CHECK_EQ(!!(r->flags & HALLUSCAN_RULE_PCRE2), !HAVE_HYPERSCAN && !(r->flags & neither));
		CHECK_EQ(!!(r->flags & neither), !r->pattern);
		CHECK(__builtin_popcount(r->flags & neither) <= 1);
		if (r->flags & HALLUSCAN_RULE_LEXER)
			CHECK(strncmp(r->id, "number.", 7) == 0);
		if (r->flags & HALLUSCAN_RULE_RECOGNIZER)
			CHECK(strcmp(r->id, "ref.numbered") == 0 || strcmp(r->id, "ref.bullet") == 0 ||
			      strcmp(r->id, "ref.year") == 0);
		if (r->flags & HALLUSCAN_RULE_RECORDS)
			CHECK(strncmp(r->id, "attribute.", 10) == 0);
	}
	CHECK_EQ(i, info->n_rules);
	CHECK_EQ(ex, info->n_examples);
	CHECK(info->n_negative_examples > 0);
	/* The spec's nine trigger requests, each with examples both ways. */
	CHECK_EQ(info->n_triggers, 9);
	CHECK(info->n_trigger_examples >= 9 && info->n_trigger_negative_examples >= 9);
	/* The signals: the packs', then the scanner's own two. */
	CHECK_STR(halluscan_rules_signal(rules, 0), "fabricated_url");
	CHECK_STR(halluscan_rules_signal(rules, info->n_signals - 2), "unterminated_span");
	CHECK_STR(halluscan_rules_signal(rules, info->n_signals - 1), "spoofed_span");
	CHECK(halluscan_rules_signal(rules, info->n_signals) == NULL);
	for (i = 0; halluscan_rules_context(rules, i); i++)
		;
	CHECK_EQ(i, info->n_contexts);
	CHECK(info->n_contexts >= 7);
	halluscan_rules_free(rules);
	halluscan_rules_free(NULL);
}

/* The same rules give the same digest however they are loaded. */
TEST(api_rules_digest_and_check)
{
	struct halluscan_rules_options o;
	struct halluscan_rules *a = NULL, *b = NULL;

	CHECK_EQ(halluscan_rules_open(NULL, &a, NULL), 0);
	halluscan_rules_options_init(&o);
	o.flags = HALLUSCAN_RULES_CHECK; /* compiled afresh, every example run */
	CHECK_EQ(halluscan_rules_open(&o, &b, NULL), 0);
	if (a && b)
		CHECK_STR(halluscan_rules_digest(a), halluscan_rules_digest(b));
	halluscan_rules_free(a);
	halluscan_rules_free(b);
}

TEST(api_rules_pcre2)
{
	struct halluscan_rules_options o;
	struct halluscan_rules *rules = NULL;
	const struct halluscan_rule *r;
	size_t i;

	halluscan_rules_options_init(&o);
	o.flags = HALLUSCAN_RULES_PCRE2;
	CHECK_EQ(halluscan_rules_open(&o, &rules, NULL), 0);
	if (!rules)
		return;
	CHECK_STR(halluscan_rules_info(rules)->engine, "pcre2");
	for (i = 0; (r = halluscan_rules_rule(rules, i)); i++)
		CHECK(r->flags & (HALLUSCAN_RULE_PCRE2 | HALLUSCAN_RULE_LEXER | HALLUSCAN_RULE_RECOGNIZER |
				  HALLUSCAN_RULE_RECORDS));
	halluscan_rules_free(rules);
}

/* A pack in memory: alone, or beside the built-in packs. */
TEST(api_rules_pack_in_memory)
{
	struct halluscan_pack pack = {"todo.yaml", TODO_PACK, strlen(TODO_PACK)};
	struct halluscan_rules_options o;
	struct halluscan_rules *rules = NULL;
	const struct halluscan_rules_info *info;

	halluscan_rules_options_init(&o);
	o.packs = &pack;
	o.n_packs = 1;
	CHECK_EQ(halluscan_rules_open(&o, &rules, NULL), 0);
	if (!rules)
		return;
	info = halluscan_rules_info(rules);
	CHECK_EQ(info->n_rules, 1);
	CHECK_STR(halluscan_rules_rule(rules, 0)->id, "todo.marker");
	CHECK_STR(halluscan_rules_rule(rules, 0)->file, "todo.yaml");
	CHECK_EQ(halluscan_rules_rule(rules, 0)->severity, HALLUSCAN_BLOCK);
	CHECK_EQ(info->n_signals, 3); /* unfinished, unterminated_span, spoofed_span */
	CHECK_EQ(info->n_contexts, 0);
	halluscan_rules_free(rules);

	o.flags = HALLUSCAN_RULES_BUILTIN;
	CHECK_EQ(halluscan_rules_open(&o, &rules, NULL), 0);
	if (!rules)
		return;
	info = halluscan_rules_info(rules);
	CHECK(info->n_rules > 10);
	CHECK_STR(halluscan_rules_rule(rules, info->n_rules - 1)->id, "todo.marker");
	halluscan_rules_free(rules);
}

TEST(api_rules_errors)
{
	struct halluscan_pack pack = {"broken.yaml", BROKEN_PACK, strlen(BROKEN_PACK)};
	const char *missing = "/nonexistent/pack.yaml";
	struct halluscan_rules_options o;
	struct halluscan_rules *rules = NULL;
	struct halluscan_error err;

	halluscan_rules_options_init(&o);
	o.packs = &pack;
	o.n_packs = 1;
	CHECK_EQ(halluscan_rules_open(&o, &rules, &err), -EINVAL);
	CHECK(rules == NULL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK_STR(err.message, "broken.yaml:6:5: unknown key \"mesage\" in a rule");

	halluscan_rules_options_init(&o);
	o.paths = &missing;
	o.n_paths = 1;
	CHECK(halluscan_rules_open(&o, &rules, &err) < 0);
	CHECK(strstr(err.message, missing) != NULL);

	/* A failing example is refused, naming it. */
	pack = (struct halluscan_pack){"bad-example.yaml", BAD_EXAMPLE_PACK, strlen(BAD_EXAMPLE_PACK)};
	halluscan_rules_options_init(&o);
	o.packs = &pack;
	o.n_packs = 1;
	CHECK_EQ(halluscan_rules_open(&o, &rules, &err), -EINVAL);
	CHECK_STR(err.message, "bad-example.yaml:8:16: rule \"x.y\": example does not match: "
			       "\"no url here\"");

	/* An options struct that was not set up, and a count without its array. */
	memset(&o, 0, sizeof(o));
	CHECK_EQ(halluscan_rules_open(&o, &rules, &err), -EINVAL);
	CHECK(strstr(err.message, "halluscan_rules_options_init") != NULL);
	halluscan_rules_options_init(&o);
	o.n_paths = 1;
	CHECK_EQ(halluscan_rules_open(&o, &rules, NULL), -EINVAL);
	CHECK(rules == NULL);
	CHECK_EQ(halluscan_rules_open(NULL, NULL, &err), -EINVAL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK_STR(err.message, "");
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Packs are compiled once into the cache, then loaded from it; a damaged entry is recompiled. */
TEST(api_rules_cache)
{
	struct halluscan_pack pack = {"todo.yaml", TODO_PACK, strlen(TODO_PACK)};
	struct halluscan_rules_options o;
	struct halluscan_rules *a = NULL, *b = NULL;
	char dir[] = "/tmp/halluscan-api-cache-XXXXXX", sub[64], cmd[128];

	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	snprintf(sub, sizeof(sub), "%s/halluscan", dir);
	halluscan_rules_options_init(&o);
	o.packs = &pack;
	o.n_packs = 1;
	o.cache_dir = sub; /* made, with its parent when missing */
	CHECK_EQ(halluscan_rules_open(&o, &a, NULL), 0);
	CHECK_EQ(count_entries(sub), HAVE_HYPERSCAN ? 1 : 0);
	CHECK_EQ(halluscan_rules_open(&o, &b, NULL), 0);
	if (a && b)
		CHECK_STR(halluscan_rules_digest(a), halluscan_rules_digest(b));
	halluscan_rules_free(b);
	b = NULL;
	if (HAVE_HYPERSCAN) {
		snprintf(cmd, sizeof(cmd), "for f in %s/*.db; do printf garbage > \"$f\"; done", sub);
		CHECK_EQ(system(cmd), 0);
		CHECK_EQ(halluscan_rules_open(&o, &b, NULL), 0);
		CHECK(b != NULL);
	}
	halluscan_rules_free(a);
	halluscan_rules_free(b);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ(system(cmd), 0);
}

TEST(api_names)
{
	CHECK_STR(halluscan_version(), HALLUSCAN_VERSION);
	CHECK(strstr(halluscan_engine_version(), "pcre2 ") != NULL);
	CHECK_EQ(!!strstr(halluscan_engine_version(), "hyperscan "), HAVE_HYPERSCAN);
	CHECK_STR(halluscan_severity_name(HALLUSCAN_PASS), "pass");
	CHECK_STR(halluscan_severity_name(HALLUSCAN_WARN), "warn");
	CHECK_STR(halluscan_severity_name(HALLUSCAN_BLOCK), "block");
	CHECK_STR(halluscan_claim_label_name(HALLUSCAN_CLAIM_SUPPORTED), "supported");
	CHECK_STR(halluscan_claim_label_name(HALLUSCAN_CLAIM_UNCHECKED), "unchecked");
	CHECK_STR(halluscan_claim_label_name(HALLUSCAN_CLAIM_LABELS), "unknown");
	CHECK_STR(halluscan_strerror(0), "success");
	CHECK_STR(halluscan_strerror(-ENOMEM), "out of memory");
	CHECK(strstr(halluscan_strerror(-EBADFD), "reset") != NULL);
	CHECK(strstr(halluscan_strerror(-ECANCELED), "callback") != NULL);
	CHECK_STR(halluscan_strerror(-EACCES), "Permission denied");
	CHECK_STR(halluscan_strerror(1), "unknown error");
	CHECK_STR(halluscan_strerror(-100000), "unknown error");
}
