// SPDX-License-Identifier: MIT
/* The public API's scanners: findings, summaries, grounding, errors and resets. */
#include <errno.h>
#include <stdlib.h>

#include "api_test.h"

int record_finding(void *ctx, const struct halluscan_finding *f)
{
	struct record *r = ctx;
	int n;

	if (r->len < sizeof(r->brief)) {
		n = snprintf(r->brief + r->len, sizeof(r->brief) - r->len, "%s:%.*s@%llu;", f->signal,
			     (int)f->text_len, f->text, (unsigned long long)f->start);
		r->len += n > 0 ? (size_t)n : 0;
	}
	r->findings++;
	return r->stop_at && (int)r->findings == r->stop_at ? r->stop_with : 0;
}

const struct halluscan_summary *scan_text(struct halluscan_scanner *sc, struct record *r,
					  const char *text, size_t step)
{
	const struct halluscan_summary *sum = NULL;
	size_t len = strlen(text), i = 0;

	r->len = r->findings = r->claims = 0;
	r->brief[0] = '\0';
	while (i < len) {
		size_t n = step && step < len - i ? step : len - i;

		if (halluscan_scanner_feed(sc, text + i, n) < 0)
			return NULL;
		i += n;
	}
	return halluscan_scanner_end(sc, &sum) < 0 ? NULL : sum;
}

static struct halluscan_rules *builtin(void)
{
	struct halluscan_rules *rules = NULL;

	CHECK_EQ(halluscan_rules_open(NULL, &rules, NULL), 0);
	return rules;
}

static const char issue[] = "See https://docs.example.com/x. It grew 73.4%.\n";

TEST(api_scan_findings)
{
	struct halluscan_rules *rules = builtin();
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum;
	struct record r = {0};
	size_t k, step;

	if (!rules)
		return;
	CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &r, &sc, NULL), 0);
	if (!sc)
		goto out;
	/* The same findings however the input is cut. */
	for (step = 0; step < 8; step++) {
		sum = scan_text(sc, &r, issue, step);
		CHECK_STR(r.brief, "fabricated_url:https://docs.example.com/x@4;"
				   "unsourced_statistic:73.4%@40;");
		if (!sum)
			continue;
		CHECK_EQ(sum->bytes, strlen(issue));
		CHECK_EQ(sum->findings, 2);
		CHECK_EQ(sum->verdict, HALLUSCAN_WARN);
		CHECK(!sum->failed); /* fail on block, the default */
		CHECK(sum->claims == NULL);
		CHECK_EQ(sum->n_signals, halluscan_rules_info(rules)->n_signals);
		for (k = 0; k < sum->n_signals; k++)
			CHECK_EQ(sum->signal_counts[k],
				 k < 2 ? 1 : 0); /* fabricated_url, unsourced_statistic */
	}
	/* An empty input is an input: it passes. */
	sum = NULL;
	CHECK_EQ(halluscan_scanner_end(sc, &sum), 0);
	CHECK(sum && sum->bytes == 0 && sum->verdict == HALLUSCAN_PASS && !sum->failed);
out:
	halluscan_scanner_free(sc);
	halluscan_scanner_free(NULL);
	halluscan_rules_free(rules);
}

static int keep_first(void *ctx, const struct halluscan_finding *f)
{
	struct halluscan_finding *out = ctx;

	if (!out->signal) {
		*out = *f;
		/* Valid only during the call: keep what the test looks at. */
		out->text = strndup(f->text, f->text_len);
		out->message = strdup(f->message);
		out->recovery = strdup(f->recovery);
	}
	return 0;
}

TEST(api_scan_finding_fields)
{
	struct halluscan_rules *rules = builtin();
	struct halluscan_scanner *sc = NULL;
	struct halluscan_finding f = {0};
	const char text[] = "Intro.\n\xc3\xa9t\xc3\xa9: see https://x.example/a.\n";

	if (!rules)
		return;
	CHECK_EQ(halluscan_scanner_new(rules, NULL, keep_first, &f, &sc, NULL), 0);
	CHECK_EQ(halluscan_check(sc, text, strlen(text), NULL), 0);
	CHECK_STR(f.signal, "fabricated_url");
	CHECK_EQ(f.signal_index, 0);
	CHECK_STR(f.rule, "url.http");
	CHECK_EQ(f.severity, HALLUSCAN_WARN);
	CHECK_EQ(f.start, 18);
	CHECK_EQ(f.end, 37);
	CHECK_EQ(f.line, 2);
	CHECK_EQ(f.column, 10); /* code points, not bytes */
	CHECK_EQ(f.text_len, 19);
	CHECK_STR(f.text, "https://x.example/a");
	CHECK(strstr(f.message, "x.example") != NULL);
	CHECK(strstr(f.recovery, "URL not verified") != NULL);
	CHECK(!f.text_truncated && !f.grounded && f.source == NULL);
	free((char *)f.text);
	free((char *)f.message);
	free((char *)f.recovery);
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
}

TEST(api_scan_contexts_and_fail_on)
{
	struct halluscan_rules *rules = builtin();
	struct halluscan_scanner_options o;
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum = NULL;
	const char *ctx[] = {"user-facing", "no-such-context"};
	struct halluscan_error err;
	struct record r = {0};

	if (!rules)
		return;
	halluscan_scanner_options_init(&o);
	o.contexts = ctx;
	o.n_contexts = 1;
	CHECK_EQ(halluscan_scanner_new(rules, &o, record_finding, &r, &sc, NULL), 0);
	CHECK_EQ(halluscan_check(sc, issue, strlen(issue), &sum), 1);
	CHECK(sum && sum->verdict == HALLUSCAN_BLOCK && sum->failed);
	halluscan_scanner_free(sc);

	o.n_contexts = 0;
	o.fail_on = HALLUSCAN_FAIL_ON_WARN;
	CHECK_EQ(halluscan_scanner_new(rules, &o, NULL, NULL, &sc, NULL), 0);
	CHECK_EQ(halluscan_check(sc, issue, strlen(issue), &sum), 1);
	CHECK_EQ(halluscan_check(sc, "All fine.\n", 10, &sum), 0);
	halluscan_scanner_free(sc);

	o.contexts = ctx;
	o.n_contexts = 1;
	o.fail_on = HALLUSCAN_FAIL_ON_NEVER;
	CHECK_EQ(halluscan_scanner_new(rules, &o, NULL, NULL, &sc, NULL), 0);
	CHECK_EQ(halluscan_check(sc, issue, strlen(issue), &sum), 0);
	CHECK(sum && sum->verdict == HALLUSCAN_BLOCK && !sum->failed);
	halluscan_scanner_free(sc);

	/* A context the packs do not define: said, with those they do. */
	sc = NULL;
	o.n_contexts = 2;
	CHECK_EQ(halluscan_scanner_new(rules, &o, NULL, NULL, &sc, &err), -ENOENT);
	CHECK(sc == NULL);
	CHECK(strncmp(err.message, "unknown context \"no-such-context\" (the packs define: ", 53) == 0);
	CHECK(strstr(err.message, "user-facing") != NULL);
	/* Options that are not right. */
	halluscan_scanner_options_init(&o);
	o.max_unsupported_ratio = 1.5;
	CHECK_EQ(halluscan_scanner_new(rules, &o, NULL, NULL, &sc, &err), -EINVAL);
	halluscan_scanner_options_init(&o);
	o.fail_on = (enum halluscan_fail_on)7;
	CHECK_EQ(halluscan_scanner_new(rules, &o, NULL, NULL, &sc, &err), -EINVAL);
	halluscan_scanner_options_init(&o);
	o.span_nonce = "short";
	CHECK_EQ(halluscan_scanner_new(rules, &o, NULL, NULL, &sc, &err), -EINVAL);
	CHECK(strstr(err.message, "short") == NULL); /* a nonce stays out of messages */
	o.size = 8;
	CHECK_EQ(halluscan_scanner_new(rules, &o, NULL, NULL, &sc, &err), -EINVAL);
	CHECK(sc == NULL);
	CHECK_EQ(halluscan_scanner_new(NULL, NULL, NULL, NULL, &sc, &err), -EINVAL);
	CHECK_EQ(halluscan_scanner_new(rules, NULL, NULL, NULL, NULL, &err), -EINVAL);
	halluscan_rules_free(rules);
}

static const char policy[] = "Refunds within 14 days; members save 10%.\n";
static const char reply[] = "You have 30 days to return it and save 12%.\n";
static const char checked[] = "altered_number:30 days@9;altered_number:12%@39;";

TEST(api_scan_grounding)
{
	static const enum halluscan_grounding kinds[] = {
		HALLUSCAN_GROUND_TOOL, HALLUSCAN_GROUND_SOURCE, HALLUSCAN_GROUND_PROMPT,
	};
	struct halluscan_rules *rules = builtin();
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum;
	struct record r = {0};
	size_t k, i;

	if (!rules)
		return;
	CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &r, &sc, NULL), 0);
	if (!sc)
		goto out;
	/* Without grounding there is nothing to check numbers against. */
	scan_text(sc, &r, reply, 0);
	CHECK_STR(r.brief, "");
	for (k = 0; k < 3; k++) {
		CHECK_EQ(halluscan_scanner_reset(sc, 0), 0);
		CHECK_EQ(halluscan_scanner_add_grounding(sc, kinds[k], policy, strlen(policy)), 0);
		sum = scan_text(sc, &r, reply, 0);
		CHECK_STR(r.brief, checked);
		CHECK(sum && sum->verdict == HALLUSCAN_WARN);
		/* It grounds every later input... */
		scan_text(sc, &r, reply, 5);
		CHECK_STR(r.brief, checked);
		/* ...and a repeat of it is grounded. */
		scan_text(sc, &r, "Members save 10% on returns within 14 days.\n", 0);
		CHECK_STR(r.brief, "");
	}
	/* In pieces, as a reader of a large file adds it. */
	CHECK_EQ(halluscan_scanner_reset(sc, 0), 0);
	CHECK_EQ(halluscan_scanner_grounding_begin(sc, HALLUSCAN_GROUND_SOURCE), 0);
	for (i = 0; i < strlen(policy); i++)
		CHECK_EQ(halluscan_scanner_grounding_feed(sc, policy + i, 1), 0);
	CHECK_EQ(halluscan_scanner_grounding_end(sc), 0);
	scan_text(sc, &r, reply, 0);
	CHECK_STR(r.brief, checked);
	/* A reset that keeps the grounding, and one that does not. */
	CHECK_EQ(halluscan_scanner_reset(sc, HALLUSCAN_RESET_KEEP_GROUNDING), 0);
	scan_text(sc, &r, reply, 0);
	CHECK_STR(r.brief, checked);
	CHECK_EQ(halluscan_scanner_reset(sc, 0), 0);
	scan_text(sc, &r, reply, 0);
	CHECK_STR(r.brief, "");
	/* Grounding goes between inputs; an input between groundings. */
	CHECK_EQ(halluscan_scanner_feed(sc, "Some", 4), 0);
	CHECK_EQ(halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_TOOL, policy, 5), -EBUSY);
	CHECK_EQ(halluscan_scanner_end(sc, NULL), 0);
	CHECK_EQ(halluscan_scanner_grounding_begin(sc, HALLUSCAN_GROUND_TOOL), 0);
	CHECK_EQ(halluscan_scanner_feed(sc, "x", 1), -EBUSY);
	CHECK_EQ(halluscan_scanner_end(sc, NULL), -EBUSY);
	CHECK_EQ(halluscan_check(sc, "x", 1, NULL), -EBUSY);
	CHECK_EQ(halluscan_scanner_grounding_end(sc), 0);
	CHECK_EQ(halluscan_scanner_grounding_end(sc), -EINVAL);
	CHECK_EQ(halluscan_scanner_grounding_feed(sc, "x", 1), -EINVAL);
	CHECK_EQ(halluscan_scanner_grounding_begin(sc, (enum halluscan_grounding)9), -EINVAL);
out:
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
}

/*
 * A tool span in an input grounds the rest of that input only: each input
 * is checked against the sources as they are, and then what its own spans
 * said, however often a span added to the input's set before (the sources'
 * set is read in place until a span adds to the input's).
 */
TEST(api_scan_span_after_sources)
{
	static const char spanned[] = "<tool_output>Returns: 30 days; save 12%.</tool_output>\n"
				      "You have 30 days to return it and save 12%.\n";
	static const char repeat[] = "Members save 10% on returns within 14 days.\n";
	static const char ship[] = "Shipping takes 5 days.\n";
	struct halluscan_rules *rules = builtin();
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum;
	struct record r = {0};
	size_t k;

	if (!rules)
		return;
	CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &r, &sc, NULL), 0);
	if (!sc)
		goto out;
	CHECK_EQ(halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_SOURCE, policy, strlen(policy)), 0);
	for (k = 0; k < 2; k++) {
		sum = scan_text(sc, &r, spanned, 0);
		CHECK_STR(r.brief, "");
		CHECK(sum && sum->spans == 1 && sum->grounded > 0);
		scan_text(sc, &r, reply, 0);
		CHECK_STR(r.brief, checked);
		scan_text(sc, &r, repeat, 0);
		CHECK_STR(r.brief, "");
	}
	/* Sources added after an input whose span added to its set. */
	CHECK_EQ(halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_SOURCE, ship, strlen(ship)), 0);
	scan_text(sc, &r, "Shipping takes 6 days; members save 10% within 14 days.\n", 0);
	CHECK_STR(r.brief, "altered_number:6 days@15;");
	scan_text(sc, &r, spanned, 0);
	CHECK_STR(r.brief, "");
	scan_text(sc, &r, "Shipping takes 5 days and you have 30 days.\n", 0);
	CHECK_STR(r.brief, "altered_number:30 days@35;");
	/* A reset drops the sources; the spans' figures were never among them. */
	CHECK_EQ(halluscan_scanner_reset(sc, 0), 0);
	scan_text(sc, &r, spanned, 0);
	CHECK_STR(r.brief, "");
	scan_text(sc, &r, reply, 0);
	CHECK_STR(r.brief, "");
out:
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
}

/*
 * Rules freed before their scanners (as a Python interpreter may finalize
 * them at exit): the scanners go on scanning, checking against a JSON
 * source, and the last one freed frees the rules. On either engine; ASan
 * in the sanitizer build sees any read of freed rules.
 */
TEST(api_scan_rules_freed_first)
{
	static const char json[] = "{\"plan\": \"basic\", \"price\": \"$10\", \"seats\": 3}\n";
	static const char priced[] = "The plan costs $12 and has 3 seats.\n";
	static const unsigned engines[] = {0, HALLUSCAN_RULES_PCRE2};
	struct halluscan_rules_options o;
	size_t e;

	for (e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
		struct halluscan_scanner *a = NULL, *b = NULL, *idle = NULL;
		struct halluscan_rules *rules = NULL;
		const struct halluscan_summary *sum;
		struct record ra = {0}, rb = {0};

		halluscan_rules_options_init(&o);
		o.flags = engines[e];
		CHECK_EQ(halluscan_rules_open(&o, &rules, NULL), 0);
		if (!rules)
			continue;
		CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &ra, &a, NULL), 0);
		CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &rb, &b, NULL), 0);
		CHECK_EQ(halluscan_scanner_new(rules, NULL, NULL, NULL, &idle, NULL), 0);
		if (!a || !b || !idle)
			goto next;
		CHECK_EQ(halluscan_scanner_add_grounding(a, HALLUSCAN_GROUND_SOURCE, json,
							 strlen(json)), 0);
		CHECK_STR(scan_text(a, &ra, priced, 0) ? ra.brief : "error",
			  "altered_number:$12@15;");
		halluscan_rules_free(rules);
		rules = NULL;
		/* A scanner that never scanned, freed first after the rules. */
		halluscan_scanner_free(idle);
		idle = NULL;
		/* The same findings after the caller let go of the rules, in
		 * pieces and whole, through a reset and new grounding. */
		sum = scan_text(a, &ra, priced, 3);
		CHECK_STR(ra.brief, "altered_number:$12@15;");
		CHECK(sum && sum->n_signals > 2 && sum->verdict == HALLUSCAN_WARN);
		CHECK_EQ(halluscan_check(a, priced, strlen(priced), &sum), 0);
		CHECK_EQ(halluscan_scanner_reset(a, 0), 0);
		CHECK_EQ(halluscan_scanner_add_grounding(a, HALLUSCAN_GROUND_TOOL, policy,
							 strlen(policy)), 0);
		scan_text(a, &ra, reply, 0);
		CHECK_STR(ra.brief, checked);
		halluscan_scanner_free(a);
		a = NULL;
		/* The last scanner holds them alone, and frees them. */
		scan_text(b, &rb, issue, 0);
		CHECK_STR(rb.brief, "fabricated_url:https://docs.example.com/x@4;"
				    "unsourced_statistic:73.4%@40;");
next:
		halluscan_scanner_free(idle);
		halluscan_scanner_free(a);
		halluscan_scanner_free(b);
		halluscan_rules_free(rules);
	}
}

/* A callback that stops: the scanner says why, and a reset makes it as new. */
TEST(api_scan_stop_and_reset)
{
	struct halluscan_rules *rules = builtin();
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum;
	const char text[] = "A https://a.example/1 b.\nIt grew 73.4%. See https://c.example/3.\n";
	struct record r = {0}, fresh = {0};

	if (!rules)
		return;
	CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &r, &sc, NULL), 0);
	if (!sc)
		goto out;
	scan_text(sc, &r, text, 0);
	fresh = r;
	CHECK_EQ(fresh.findings, 3);
	/* A positive value stops with -ECANCELED, a negative one is returned as it is. */
	r.stop_at = 1;
	r.stop_with = 1;
	r.len = r.findings = 0;
	CHECK_EQ(halluscan_scanner_feed(sc, text, strlen(text)), -ECANCELED);
	CHECK_EQ(r.findings, 1);
	CHECK_EQ(halluscan_scanner_feed(sc, text, 1), -EBADFD);
	CHECK_EQ(halluscan_scanner_end(sc, NULL), -EBADFD);
	CHECK_EQ(halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_TOOL, "x", 1), -EBADFD);
	CHECK_EQ(halluscan_check(sc, text, 3, NULL), -EBADFD);
	CHECK_EQ(halluscan_scanner_reset(sc, HALLUSCAN_RESET_KEEP_GROUNDING), 0);
	r.stop_at = 0;
	sum = scan_text(sc, &r, text, 0);
	CHECK_STR(r.brief, fresh.brief);
	CHECK(sum && sum->bytes == strlen(text) && sum->findings == 3);
	/* Stopped at the end, by the second finding of the last sentence. */
	r.len = r.findings = 0;
	r.stop_at = 3;
	r.stop_with = -EPIPE;
	CHECK_EQ(halluscan_scanner_feed(sc, text, strlen(text) - 1), 0);
	CHECK_EQ(halluscan_scanner_end(sc, NULL), -EPIPE);
	/* A gate's check drops the input itself and is ready for the next. */
	r.len = r.findings = 0;
	r.stop_at = 1;
	r.stop_with = 1;
	CHECK_EQ(halluscan_scanner_reset(sc, 0), 0);
	CHECK_EQ(halluscan_check(sc, text, strlen(text), &sum), -ECANCELED);
	r.stop_at = 0;
	r.len = r.findings = 0;
	CHECK_EQ(halluscan_check(sc, text, strlen(text), &sum), 0);
	CHECK_STR(r.brief, fresh.brief);
	/* A reset in the middle of an input, or of grounding. */
	CHECK_EQ(halluscan_scanner_feed(sc, "See https://half.example/", 25), 0);
	CHECK_EQ(halluscan_scanner_reset(sc, 0), 0);
	CHECK_EQ(halluscan_scanner_grounding_begin(sc, HALLUSCAN_GROUND_TOOL), 0);
	CHECK_EQ(halluscan_scanner_grounding_feed(sc, "https://a.example/1", 19), 0);
	CHECK_EQ(halluscan_scanner_reset(sc, 0), 0);
	r.len = r.findings = 0;
	sum = scan_text(sc, &r, text, 0);
	CHECK_STR(r.brief, fresh.brief);
	CHECK(sum && sum->bytes == strlen(text));
out:
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
}

struct claims_seen {
	size_t n, items, grounded;
	char labels[256];
};

static int record_claim(void *ctx, const struct halluscan_claim *c)
{
	struct claims_seen *s = ctx;
	size_t i;

	s->n++;
	strncat(s->labels, halluscan_claim_label_name(c->label), sizeof(s->labels) - strlen(s->labels) - 2);
	strcat(s->labels, ";");
	for (i = 0; i < c->n_items; i++) {
		s->items++;
		s->grounded += c->items[i]->grounded;
		CHECK(c->items[i]->rule && c->items[i]->start < c->items[i]->end);
		CHECK(c->items[i]->end <= c->end && c->items[i]->start >= c->start);
	}
	return 0;
}

/* Sentences with their offsets, for HALLUSCAN_SCAN_SENTENCES. */
struct sentences_seen {
	uint64_t start[8], end[8];
	bool cut[8];
	size_t n, n_cut, total;
};

static int record_sentence(void *ctx, const struct halluscan_claim *c)
{
	struct sentences_seen *s = ctx;

	if (s->n < 8) {
		s->start[s->n] = c->start;
		s->end[s->n] = c->end;
		s->cut[s->n++] = c->cut;
	}
	s->total++;
	s->n_cut += c->cut;
	return 0;
}

/* Issue 34: where each sentence is, without the claims' verdict. */
TEST(api_scan_sentences)
{
	struct halluscan_rules *rules = builtin();
	struct halluscan_scanner_options o;
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum = NULL;
	struct sentences_seen seen = {0};
	const char text[] = "See https://a.example/x now. It grew 73.4%.\nDone.\n";
	char *big = NULL;
	size_t i;

	if (!rules)
		return;
	halluscan_scanner_options_init(&o);
	o.flags = HALLUSCAN_SCAN_SENTENCES;
	o.on_claim = record_sentence;
	CHECK_EQ(halluscan_scanner_new(rules, &o, NULL, &seen, &sc, NULL), 0);
	if (!sc)
		goto out;
	/* Every claim unsupported, yet nothing fails: no claims verdict. */
	CHECK_EQ(halluscan_check(sc, text, strlen(text), &sum), 0);
	CHECK_EQ(seen.n, 3);
	CHECK(seen.start[0] == 0 && seen.end[0] == 28);
	CHECK(seen.start[1] == 29 && seen.end[1] == 43);
	CHECK(seen.start[2] == 44 && seen.end[2] == 49);
	CHECK(!seen.cut[0] && !seen.cut[1] && !seen.cut[2]);
	CHECK(sum && sum->claims == NULL && sum->claims_checked == 0);
	/* A sentence past the 16 KiB cap may come in pieces (where the engine
	 * reports a match past the cap: Hyperscan here, not PCRE2), all but the
	 * last cut; together they are the sentence. */
	big = malloc(40001);
	if (!big)
		goto out;
	for (i = 0; i < 40000; i++)
		big[i] = i % 5 == 4 ? ' ' : 'w';
	big[39999] = '.';
	big[40000] = '\0';
	seen = (struct sentences_seen){0};
	CHECK_EQ(halluscan_check(sc, big, 40000, &sum), 0);
	CHECK(seen.total >= 1);
	CHECK_EQ(seen.n_cut, seen.total - 1);
	CHECK(seen.total <= 8 && seen.n == seen.total && !seen.cut[seen.n - 1]);
	CHECK(seen.start[0] == 0 && seen.end[seen.n - 1] == 40000);
	for (i = 1; i < seen.n; i++)
		CHECK(seen.start[i] >= seen.end[i - 1]);
out:
	free(big);
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
}

TEST(api_scan_claims)
{
	struct halluscan_rules *rules = builtin();
	struct halluscan_scanner_options o;
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum = NULL;
	struct claims_seen seen = {0};
	const char text[] = "Members save 10%. You have 30 days. Thanks for asking.\n";

	if (!rules)
		return;
	halluscan_scanner_options_init(&o);
	o.flags = HALLUSCAN_SCAN_CLAIMS;
	o.on_claim = record_claim;
	CHECK_EQ(halluscan_scanner_new(rules, &o, NULL, &seen, &sc, NULL), 0);
	if (!sc)
		goto out;
	CHECK_EQ(halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_SOURCE, policy, strlen(policy)), 0);
	/* One of two checked claims unsupported: above 0.30, so it fails. */
	CHECK_EQ(halluscan_check(sc, text, strlen(text), &sum), 1);
	CHECK_STR(seen.labels, "supported;unsupported;unchecked;");
	CHECK_EQ(seen.items, 2);
	CHECK_EQ(seen.grounded, 1);
	if (sum) {
		CHECK(sum->claims != NULL);
		CHECK_EQ(sum->claims[HALLUSCAN_CLAIM_SUPPORTED], 1);
		CHECK_EQ(sum->claims[HALLUSCAN_CLAIM_UNSUPPORTED], 1);
		CHECK_EQ(sum->claims[HALLUSCAN_CLAIM_UNCHECKED], 1);
		CHECK_EQ(sum->claims_checked, 2);
		CHECK(sum->unsupported_ratio == 0.5 && sum->trust == 0.5);
		CHECK(!sum->claims_sufficient && sum->failed);
		CHECK_EQ(sum->verdict, HALLUSCAN_WARN);
	}
	halluscan_scanner_free(sc);
	/* Without a callback claims are still judged; the ratio is the caller's. */
	o.on_claim = NULL;
	o.max_unsupported_ratio = 0.5;
	CHECK_EQ(halluscan_scanner_new(rules, &o, NULL, NULL, &sc, NULL), 0);
	CHECK_EQ(halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_SOURCE, policy, strlen(policy)), 0);
	CHECK_EQ(halluscan_check(sc, text, strlen(text), &sum), 0);
	CHECK(sum && sum->claims_sufficient && sum->claims[HALLUSCAN_CLAIM_UNSUPPORTED] == 1);
out:
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
}

TEST(api_scan_spans_and_nonce)
{
	struct halluscan_rules *rules = builtin();
	struct halluscan_scanner_options o;
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum = NULL;
	struct record r = {0};
	const char spoof[] = "x <tool_output>https://a.example/</tool_output> https://b.example/y\n";
	const char genuine[] = "<tool_output nonce=\"abcdefgh12\">https://a.example/</tool_output "
			       "nonce=\"abcdefgh12\"> https://a.example/ again\n";

	if (!rules)
		return;
	halluscan_scanner_options_init(&o);
	o.span_nonce = "abcdefgh12";
	CHECK_EQ(halluscan_scanner_new(rules, &o, record_finding, &r, &sc, NULL), 0);
	if (!sc)
		goto out;
	sum = scan_text(sc, &r, spoof, 0);
	CHECK_STR(r.brief, "spoofed_span:<tool_output>@2;fabricated_url:https://a.example/@15;"
			   "spoofed_span:</tool_output>@33;fabricated_url:https://b.example/y@48;");
	CHECK(sum && sum->verdict == HALLUSCAN_BLOCK && sum->failed);
	sum = scan_text(sc, &r, genuine, 0);
	CHECK_STR(r.brief, ""); /* the tool's URL, and the model's repeat of it */
	CHECK(sum && sum->spans == 1 && sum->repeats == 1 && sum->grounded == 1);
	halluscan_scanner_free(sc);
	/* With show_grounded the repeat is shown, marked, and not counted. */
	halluscan_scanner_options_init(&o);
	o.flags = HALLUSCAN_SCAN_SHOW_GROUNDED;
	CHECK_EQ(halluscan_scanner_new(rules, &o, record_finding, &r, &sc, NULL), 0);
	sum = scan_text(sc, &r, "<tool_output>https://a.example/</tool_output> https://a.example/\n", 0);
	CHECK_STR(r.brief, "fabricated_url:https://a.example/@46;");
	CHECK(sum && sum->findings == 0 && sum->verdict == HALLUSCAN_PASS);
	/* A span left open is reported, after what it held. */
	sum = scan_text(sc, &r, "<tool_output>https://a.example/ cut off", 0);
	CHECK_STR(r.brief, "fabricated_url:https://a.example/@13;unterminated_span:<tool_output>@0;");
	CHECK(sum && sum->unterminated_spans == 1);
out:
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
}

/* User rules in a scanner: their own span pair, a rule at block. */
TEST(api_scan_user_pack)
{
	struct halluscan_pack pack = {"todo.yaml", TODO_PACK, strlen(TODO_PACK)};
	struct halluscan_rules_options ro;
	struct halluscan_rules *rules = NULL;
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum = NULL;
	struct record r = {0};

	halluscan_rules_options_init(&ro);
	ro.packs = &pack;
	ro.n_packs = 1;
	CHECK_EQ(halluscan_rules_open(&ro, &rules, NULL), 0);
	if (!rules)
		return;
	CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &r, &sc, NULL), 0);
	sum = scan_text(sc, &r, "First TODO. <q>TODO inside</q> https://not.a.rule/ TODO\n", 3);
	CHECK_STR(r.brief, "unfinished:TODO@6;"); /* one finding of a signal per sentence */
	CHECK(sum && sum->failed && sum->verdict == HALLUSCAN_BLOCK && sum->n_signals == 3);
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
}

/* halluscan_fix(): the recoveries applied, the caller's findings those of the text given back. */
TEST(api_fix)
{
	static const char text[] = "See https://docs.python.org/3/library/asyncio-task.html. "
				    "According to Smith, it grew 73.4%.\r\n"
				    "It will definitely ship by May 2027. Revenue was $1.3 billion.\r\n";
	struct halluscan_rules *rules = builtin();
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum = NULL;
	struct record r = {0};
	const char *out = NULL;
	size_t len = 0;

	if (!rules)
		return;
	CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &r, &sc, NULL), 0);
	if (!sc)
		goto out;
	CHECK_EQ(halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_TOOL,
						 "Revenue was $1.2 billion.", 25), 0);
	CHECK_EQ(halluscan_fix(sc, text, strlen(text), &out, &len, &sum), 5);
	CHECK_STR(out, "See Search for: python library asyncio task. Research in this area suggests "
		       "that it grew approximately 70%.\r\nIt may ship by May 2027. Revenue was $1.2 "
		       "billion.\r\n");
	CHECK_EQ(len, strlen(out));
	/* Under grounding "approximately 70%" is as ungrounded as "73.4%" was: no worse, kept. */
	CHECK(sum && sum->findings == 1 && sum->verdict == HALLUSCAN_WARN);
	CHECK_STR(r.brief, "ungrounded_number:70%@103;");
	/* Nothing to repair: the text as it came, its finding left (no template fits). */
	r.findings = 0;
	CHECK_EQ(halluscan_fix(sc, "Plain words.\n", 13, &out, &len, NULL), 0);
	CHECK_STR(out, "Plain words.\n");
	CHECK_EQ(halluscan_fix(sc, "", 0, &out, &len, &sum), 0);
	CHECK_EQ(len, 0);
	CHECK_EQ(halluscan_fix(sc, NULL, 1, &out, &len, NULL), -EINVAL);
	/* Not during an input. */
	CHECK_EQ(halluscan_scanner_feed(sc, "x", 1), 0);
	CHECK_EQ(halluscan_fix(sc, "x", 1, &out, &len, NULL), -EBUSY);
out:
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
}
