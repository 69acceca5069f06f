// SPDX-License-Identifier: MIT
/* The whole pipeline on the built-in packs: spans, sentences, positions, splits. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config.h"
#include "ground/spans.h"
#include "scan/db.h"
#include "scan/scan.h"
#include "scan/scan_json.h"
#include "test.h"

struct fixture {
	struct ruleset *rs;
	struct db *db;
	struct policy *pol;
	struct scan *sc;
	struct buf out; /* findings and summary as JSONL */
	struct buf brief; /* "signal:text@start" per finding */
};

static int on_finding(void *ctx, const struct finding *f)
{
	struct fixture *fx = ctx;

	for (size_t i = 0; i < f->n_also; i++)
		buf_addf(&fx->brief, "%s+", f->also[i]);
	buf_addf(&fx->brief, "%s:%.*s@%llu;", f->signal, (int)f->text_len, f->text,
		 (unsigned long long)f->start);
	return scan_json_finding(&fx->out, "-", f);
}

/* The built-in packs, and the pack extra when not NULL. */
static bool setup_with(struct fixture *fx, enum engine_backend be, const char *extra)
{
	struct diag d = {""};

	memset(fx, 0, sizeof(*fx));
	fx->rs = ruleset_new();
	CHECK_EQ(ruleset_add_builtin(fx->rs, &d), 0);
	if (extra)
		CHECK_EQ(ruleset_add_buffer(fx->rs, "extra.yaml", extra, strlen(extra), &d), 0);
	CHECK_EQ(ruleset_finish(fx->rs, &d), 0);
	CHECK_EQ(db_compile(fx->rs, be, &fx->db, &d), 0);
	fx->pol = policy_new(fx->rs);
	if (!fx->db || !fx->pol)
		return false;
	CHECK_EQ(scan_new(fx->db, fx->pol, on_finding, fx, &fx->sc), 0);
	return fx->sc != NULL;
}

static bool setup(struct fixture *fx, enum engine_backend be)
{
	return setup_with(fx, be, NULL);
}

static void teardown(struct fixture *fx)
{
	scan_free(fx->sc);
	policy_free(fx->pol);
	db_free(fx->db);
	ruleset_free(fx->rs);
	buf_free(&fx->out);
	buf_free(&fx->brief);
}

/* Scans text in pieces of at most step bytes (0: whole); returns the brief. */
static const char *scan(struct fixture *fx, const char *text, size_t len, size_t step,
			struct scan_summary *sum)
{
	struct scan_summary local;
	size_t i = 0;

	fx->out.len = fx->brief.len = 0;
	buf_addc(&fx->brief, '\0');
	fx->brief.len = 0;
	while (i < len) {
		size_t n = step && step < len - i ? step : len - i;

		CHECK_EQ(scan_feed(fx->sc, text + i, n), 0);
		i += n;
	}
	CHECK_EQ(scan_end(fx->sc, sum ? sum : &local), 0);
	scan_json_summary(&fx->out, "-", sum ? sum : &local, fx->rs, NULL, NULL);
	return fx->brief.data;
}

#define S(text) text, strlen(text)

TEST(scan_issue_example)
{
	struct fixture fx;
	struct scan_summary sum;

	if (!setup(&fx, ENGINE_AUTO))
		return;
	CHECK_STR(scan(&fx, S("See https://docs.example.com/x. It grew 73.4%.\n"), 0, &sum),
		  "fabricated_url:https://docs.example.com/x@4;unsourced_statistic:73.4%@40;");
	CHECK_EQ(sum.findings, 2);
	CHECK_EQ(sum.verdict, SEV_WARN);
	CHECK_EQ(sum.bytes, 47);
	teardown(&fx);
}

/*
 * Text that ends where readable memory ends: a caller's buffer at the end
 * of a mapping (a file mapped whole, a page the allocator handed out last).
 * Nothing may read past it. Hyperscan 5.4's AVX512VBMI Teddy loads 64 bytes
 * where only 61 are the buffer's, and faulted here on such a machine (found
 * by the scan_split fuzzer); every length and split around that is tried,
 * with an unreadable page right after the text.
 */
TEST(scan_reads_nothing_past_the_text)
{
	static const char text[] =
		"Per https://a.example/q the rate is 12.5% and Smith et al. (2024) say it will "
		"definitely ship by March 2027. Revenue grew 73.4% to $1.2 billion in Q3 2024.\n"
		"- \"A Study of Things\" (2020). Journal of Examples, 12(3), 45-67.\n";
	static const size_t steps[] = {0, 1, 3, 61, 62, 63, 64, 65, 128};
	long page = sysconf(_SC_PAGESIZE);
	struct fixture fx;
	char *map, *end, *at_end;
	size_t len, j;

	if (!setup(&fx, ENGINE_AUTO))
		return;
	map = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED) {
		teardown(&fx);
		return;
	}
	end = map + page;
	CHECK_EQ(mprotect(end, (size_t)page, PROT_NONE), 0);
	for (len = 1; len < sizeof(text); len++) {
		memcpy(end - len, text, len);
		for (j = 0; j < ARRAY_SIZE(steps); j++)
			scan(&fx, end - len, len, steps[j], NULL);
	}
	/* and what it found is what it finds anywhere */
	at_end = strdup(scan(&fx, end - (sizeof(text) - 1), sizeof(text) - 1, 0, NULL));
	CHECK(at_end && strstr(at_end, "unsourced_statistic:73.4%") != NULL);
	if (at_end)
		CHECK_STR(scan(&fx, text, sizeof(text) - 1, 0, NULL), at_end);
	free(at_end);
	munmap(map, 2 * (size_t)page);
	teardown(&fx);
}

TEST(scan_tool_spans)
{
	struct fixture fx;
	struct scan_summary sum;

	if (!setup(&fx, ENGINE_AUTO))
		return;
	CHECK_STR(scan(&fx, S("<tool_output>https://a.example/x 73.4%</tool_output> ok https://b.example/\n"), 0, &sum),
		  "fabricated_url:https://b.example/@56;");
	CHECK_EQ(sum.grounded, 3); /* the URL, the statistic and its quantity */
	CHECK_EQ(sum.spans, 1);
	/* A span split at every byte, and delimiters of another pair inside a span;
	 * with tool output seen, 2.5% is checked against 1.5% and matches nothing:
	 * one finding, carrying both signals, each counted. */
	CHECK_STR(scan(&fx, S("a <tool_result>x </tool_output> https://in.example/ 1.5%</tool_result> 2.5%\n"), 1, &sum),
		  "ungrounded_number+unsourced_statistic:2.5%@71;");
	CHECK_EQ(sum.findings, 1);
	CHECK_EQ(sum.signal_counts[ruleset_signal_index(fx.rs, "ungrounded_number")], 1);
	CHECK_EQ(sum.signal_counts[ruleset_signal_index(fx.rs, "unsourced_statistic")], 1);
	/* A stray closer is text; matches after it are reported. */
	CHECK_STR(scan(&fx, S("</tool_output> It rose 9.5%.\n"), 3, &sum), "unsourced_statistic:9.5%@23;");
	CHECK_EQ(sum.spans, 0);
	/* Without a nonce, a delimiter with attributes is no delimiter: text, as ever. */
	CHECK_STR(scan(&fx, S("<tool_output id=\"1\">https://a.example/</tool_output>\n"), 1, &sum),
		  "fabricated_url:https://a.example/@20;");
	CHECK_EQ(sum.spans, 0);
	teardown(&fx);
}

/*
 * A span left open vouches for nothing: what follows its opener is the
 * model's text, reported after what came before and before the
 * unterminated_span finding, and it grounds nothing, not even its own repeats.
 */
TEST(scan_unterminated_span)
{
	struct fixture fx;
	struct scan_summary sum;
	const char *text = "Intro 1.5%.\nline two <tool_output>https://x.example/ 7.5%\nmore\n";
	const char *twice = "<tool_result>\nSee https://a.example/x.\nAgain https://a.example/x. It grew 4.5%.\n";

	if (!setup(&fx, ENGINE_AUTO))
		return;
	/* The URL cites a source for 7.5% in its sentence, as in any model text. */
	CHECK_STR(scan(&fx, text, strlen(text), 0, &sum),
		  "unsourced_statistic:1.5%@6;fabricated_url:https://x.example/@34;"
		  "unterminated_span:<tool_output>@21;");
	CHECK_EQ(sum.unterminated_spans, 1);
	CHECK_EQ(sum.grounded, 0);
	CHECK_EQ(sum.exempted, 1);
	CHECK_EQ(sum.signal_counts[fx.rs->n_signals], 1);
	CHECK(strstr(fx.out.data, "\"line\":2,\"column\":10") != NULL);
	CHECK(strstr(fx.out.data, "\"end\":63") != NULL);
	CHECK(strstr(fx.out.data, "its 2 match(es) were checked as the model's text") != NULL);
	/* No context could block: it warns. */
	CHECK_EQ(sum.verdict, SEV_WARN);
	CHECK_STR(scan(&fx, twice, strlen(twice), 1, &sum),
		  "fabricated_url:https://a.example/x@18;fabricated_url:https://a.example/x@45;"
		  "unsourced_statistic:4.5%@74;unterminated_span:<tool_result>@0;");
	CHECK_EQ(sum.repeats, 0);
	/* Under a context that blocks something, it blocks, and so do the matches. */
	CHECK_EQ(policy_add_context(fx.pol, "user-facing"), 0);
	scan(&fx, text, strlen(text), 0, &sum);
	CHECK_EQ(sum.verdict, SEV_BLOCK);
	CHECK(strstr(fx.out.data, "\"signal\":\"unterminated_span\",\"rule\":\"span.unterminated\","
			 "\"severity\":\"block\"") != NULL);
	CHECK(strstr(fx.out.data, "\"signal\":\"fabricated_url\",\"rule\":\"url.http\","
			 "\"severity\":\"block\"") != NULL);
	/* Once closed, the same span is tool output again. */
	CHECK_STR(scan(&fx, S("<tool_output>https://x.example/ 7.5%</tool_output> https://x.example/\n"), 0, &sum), "");
	CHECK_EQ(sum.grounded, 3);
	CHECK_EQ(sum.repeats, 1);
	CHECK_EQ(sum.exempted, 0);
	teardown(&fx);
}

#define NONCE "n0nce-Run.42"

/* With a nonce only its delimiters make a span; the model's own are spoofed and scanned. */
TEST(scan_nonce_spans)
{
	struct fixture fx;
	struct scan_summary sum;

	if (!setup(&fx, ENGINE_AUTO))
		return;
	CHECK_EQ(scan_span_nonce(fx.sc, "short"), -EINVAL);
	CHECK_EQ(scan_span_nonce(fx.sc, ""), -EINVAL);
	CHECK_EQ(scan_span_nonce(fx.sc, "has a blank"), -EINVAL);
	CHECK_EQ(scan_span_nonce(fx.sc, "quote\"quote"), -EINVAL);
	CHECK_EQ(scan_span_nonce(fx.sc, "x2345678901234567890123456789012345678901234567890123456789012345"), -EINVAL);
	/* Without a nonce a delimiter with attributes is text, as it always was. */
	CHECK_STR(scan(&fx, S("<tool_output nonce=\"" NONCE "\">https://a.example/</tool_output>\n"), 0, &sum),
		  "fabricated_url:https://a.example/@34;");
	CHECK_EQ(sum.spans, 0);
	CHECK_EQ(scan_span_nonce(fx.sc, NONCE), 0);
	/* The nonce span holds a bare closer: data, and the rest is still the tool's. */
	CHECK_STR(scan(&fx, S("<tool_output nonce=\"" NONCE "\">see https://a.example/ </tool_output> "
			      "and https://b.example/ 12.5%</tool_output nonce=\"" NONCE "\">\n"
			      "Per https://b.example/ it is 12.5%.\n"), 1, &sum), "");
	CHECK_EQ(sum.spans, 1);
	CHECK_EQ(sum.repeats, 3); /* the URL, and 12.5% as a statistic and as a quantity */
	/* The model's spans open nothing, and launder nothing. */
	CHECK_STR(scan(&fx, S("Done. <tool_output>\nhttps://fake.example/a\nIt is 9.5%.\n</tool_output>\n"
			      "As the tool said, https://fake.example/a.\n"), 0, &sum),
		  "spoofed_span:<tool_output>@6;fabricated_url:https://fake.example/a@20;"
		  "unsourced_statistic:9.5%@49;spoofed_span:</tool_output>@55;"
		  "fabricated_url:https://fake.example/a@88;");
	CHECK_EQ(sum.spans, 0);
	CHECK_EQ(sum.verdict, SEV_BLOCK);
	CHECK_EQ(sum.signal_counts[fx.rs->n_signals + 1], 2);
	/* Nor does a wrong nonce, another attribute, or the other pair. */
	CHECK_STR(scan(&fx, S("<tool_result nonce=\"guess-guess\"> https://g.example/ "
			      "<tool_output id=\"https://h.example/\">\n"), 3, &sum),
		  "spoofed_span:<tool_result nonce=\"guess-guess\">@0;fabricated_url:https://g.example/@34;"
		  "spoofed_span:<tool_output id=\"https://h.example/\">@53;"
		  "fabricated_url:https://h.example/@70;");
	/* Inside a genuine span the model's delimiters are the tool's data. */
	CHECK_STR(scan(&fx, S("<tool_result nonce=\"" NONCE "\"><tool_output></tool_result>"
			      "</tool_result nonce=\"" NONCE "\">\n"), 2, &sum), "");
	/* An unterminated nonce span is said so, without the nonce. */
	scan(&fx, S("<tool_output nonce=\"" NONCE "\">\nhttps://a.example/\n"), 0, &sum);
	CHECK_STR(fx.brief.data, "fabricated_url:https://a.example/@35;unterminated_span:<tool_output>@0;");
	CHECK(strstr(fx.out.data, "(with this run's nonce)") != NULL);
	CHECK(strstr(fx.out.data, NONCE) == NULL);
	/* Under a nonce something always can block (a spoof): so does a span left open. */
	CHECK_EQ(sum.verdict, SEV_BLOCK);
	teardown(&fx);
}

/*
 * A pack's own delimiters take the nonce the same way: before a closing
 * bracket, or after a delimiter that has none.
 */
TEST(scan_nonce_pack_delimiters)
{
	static const char pack[] =
		"spans:\n"
		"  - {name: bracket, open: \"[TOOL]\", close: \"[/TOOL]\"}\n"
		"  - {name: word, open: \"BEGIN-TOOL\", close: \"END-TOOL\"}\n";
	struct fixture fx;
	struct scan_summary sum;
	struct buf form = {0};

	CHECK_EQ(spans_nonce_form("[TOOL]", NONCE, &form), 0);
	CHECK_STR(form.data, "[TOOL nonce=\"" NONCE "\"]");
	CHECK_EQ(spans_nonce_form("BEGIN-TOOL", NONCE, &form), 0);
	CHECK_STR(form.data, "BEGIN-TOOL nonce=\"" NONCE "\"");
	buf_free(&form);
	if (!setup_with(&fx, ENGINE_AUTO, pack))
		return;
	CHECK_STR(scan(&fx, S("[TOOL]https://a.example/[/TOOL] BEGIN-TOOL https://b.example/ END-TOOL\n"), 0, &sum), "");
	CHECK_EQ(sum.spans, 2);
	CHECK_EQ(scan_span_nonce(fx.sc, NONCE), 0);
	CHECK_STR(scan(&fx, S("[TOOL nonce=\"" NONCE "\"]https://a.example/[/TOOL nonce=\"" NONCE "\"] "
			      "BEGIN-TOOL nonce=\"" NONCE "\" https://b.example/ END-TOOL nonce=\"" NONCE "\"\n"),
			    1, &sum), "");
	CHECK_EQ(sum.spans, 2);
	CHECK_STR(scan(&fx, S("[TOOL]https://a.example/ BEGIN-TOOL nonce=\"x1234567\" b\n"), 0, &sum),
		  "spoofed_span:[TOOL]@0;fabricated_url:https://a.example/@6;"
		  "spoofed_span:BEGIN-TOOL nonce=\"x1234567\"@25;");
	teardown(&fx);
}

/* Drops the unterminated_span finding from a JSONL output. */
static char *without_unterminated(const char *out)
{
	char *copy = strdup(out), *line;

	line = strstr(copy, "{\"type\":\"finding\",\"path\":\"-\",\"signal\":\"unterminated_span\"");
	if (line)
		memmove(line, strchr(line, '\n') + 1, strlen(strchr(line, '\n') + 1) + 1);
	return copy;
}

/*
 * What a span left open reports is what the same text reports as the
 * model's: offsets, lines and columns (code points, on lines short and
 * longer than the window), however the input is split.
 */
TEST(scan_unterminated_is_agent_text)
{
	size_t len = 900 << 10, i, k;
	char *text = malloc(len), *open_out, *agent_out;
	struct fixture fx;
	static const size_t steps[] = {0, 1, 4093, 65536};

	if (!text || !setup(&fx, ENGINE_AUTO)) {
		free(text);
		return;
	}
	/* A short line, then one line of 900 KiB, with matches and two-byte characters along it. */
	k = (size_t)snprintf(text, len, "<tool_output>\n\xc3\xa9 https://a.example/ \xc3\xa9 It will definitely work.\n");
	for (i = k; i < len - 1; i++)
		text[i] = "caf\xc3\xa9 and more "[(i - k) % 15];
	for (i = k + 1000; i + 100 < len; i += 70001)
		memcpy(text + i, " https://b.example/ ", 20);
	text[len - 1] = '\n';
	for (k = 0; k < ARRAY_SIZE(steps); k++) {
		memcpy(text, "<tool_output>", 13);
		scan(&fx, text, len, steps[k], NULL);
		open_out = without_unterminated(fx.out.data);
		CHECK(strstr(fx.out.data, "\"column\":3,\"text\":\"https://a.example/\"") != NULL);
		memcpy(text, "<tool_outpuX>", 13);
		scan(&fx, text, len, steps[k], NULL);
		agent_out = strdup(fx.out.data);
		/* The summaries differ in their span counts only. */
		*strstr(open_out, "{\"type\":\"summary\"") = '\0';
		*strstr(agent_out, "{\"type\":\"summary\"") = '\0';
		CHECK(strlen(agent_out) > 2000);
		if (strcmp(open_out, agent_out) != 0) {
			fprintf(stderr, "  step %zu:\n%s---\n%s", steps[k], open_out, agent_out);
			CHECK(!"an open span reports otherwise than agent text");
		}
		free(open_out);
		free(agent_out);
	}
	teardown(&fx);
	free(text);
}

/* Spans longer than the window and than the events held: the same answers. */
TEST(scan_long_spans)
{
	size_t len = 3 << 20, n;
	char *text = malloc(len + 200);
	struct scan_summary sum;
	struct fixture fx;
	const char *open = "<tool_output>\n";
	const char *line = "Item https://a.example/x costs $12.50 and grew 3.5%.\n";
	const char *close = "</tool_output>\nBuy at https://a.example/x now.\n";

	if (!text || !setup(&fx, ENGINE_AUTO)) {
		free(text);
		return;
	}
	memcpy(text, open, strlen(open));
	for (n = strlen(open); n + strlen(line) < len; n += strlen(line))
		memcpy(text + n, line, strlen(line));
	/* Left open: every line is the model's, listed up to the cap and counted past it. */
	scan(&fx, text, n, 65536, &sum);
	CHECK_EQ(sum.findings, 1024 + 1);
	CHECK_EQ(sum.grounded, 0);
	CHECK(strstr(fx.out.data, "finding(s) past the first 1024 in it are not listed") != NULL);
	CHECK(strstr(fx.brief.data, "fabricated_url:https://a.example/x@19;") == fx.brief.data);
	CHECK(strstr(fx.brief.data, ";unterminated_span:<tool_output>@0;") != NULL);
	/* Closed: nothing in it is reported, and it grounds the repeat after it
	 * from its first line on (decided early, then set aside). */
	memcpy(text + n, close, strlen(close));
	CHECK_EQ(scan_show_grounded(fx.sc, true), 0);
	scan(&fx, text, n + strlen(close), 65536, &sum);
	CHECK_EQ(sum.findings, 0);
	CHECK_EQ(sum.repeats, 1);
	CHECK_EQ(sum.exempted, 0);
	CHECK(strstr(fx.out.data, "\"grounded\":true,\"grounded_at\":19,") != NULL);
	CHECK(strstr(fx.brief.data, "fabricated_url:https://a.example/x@") == fx.brief.data);
	CHECK(strchr(fx.brief.data, ';') == fx.brief.data + strlen(fx.brief.data) - 1);
	teardown(&fx);
	free(text);
}

/* Lines count from 1; columns count code points, not bytes. */
TEST(scan_positions)
{
	struct fixture fx;

	if (!setup(&fx, ENGINE_AUTO))
		return;
	scan(&fx, S("first\n\xc3\xa9t\xc3\xa9 \xe2\x80\x94 https://x.example/\nz 2.5%"), 0, NULL);
	CHECK(strstr(fx.out.data, "\"start\":16,\"end\":34,\"line\":2,\"column\":7") != NULL);
	CHECK(strstr(fx.out.data, "\"start\":37,\"end\":41,\"line\":3,\"column\":3") != NULL);
	teardown(&fx);
}

/* A source cited anywhere in the statistic's own sentence exempts it. */
TEST(scan_sentence_exemptions)
{
	struct fixture fx;
	struct scan_summary sum;

	if (!setup(&fx, ENGINE_AUTO))
		return;
	CHECK_STR(scan(&fx, S("Adoption is 73.4% among firms (Source: 2024 Stack Overflow Survey).\n"), 0, &sum), "");
	CHECK_EQ(sum.exempted, 1);
	CHECK_STR(scan(&fx, S("Adoption is 73.4% among firms. (Source: 2024 survey.)\n"), 0, NULL),
		  "unsourced_statistic:73.4%@12;");
	CHECK_STR(scan(&fx, S("Dr. Smith says 12.5% of e.g. cats agree [4].\n"), 0, NULL), "");
	/* The first and last of the abbreviations, and a word between them that is none. */
	CHECK_STR(scan(&fx, S("So Lee [4] et al. 12.5% agree.\n"), 0, NULL), "");
	CHECK_STR(scan(&fx, S("Lee [4] vs. Kim: 12.5% agree.\n"), 0, NULL), "");
	CHECK_STR(scan(&fx, S("Lee [4] won. Kim: 12.5% agree.\n"), 0, NULL),
		  "unsourced_statistic:12.5%@18;");
	CHECK_STR(scan(&fx, S("It is 12.5%.\nSource: a survey\n"), 0, NULL), "unsourced_statistic:12.5%@6;");
	/* The hedge before a dated release leaves it alone; a sentence later it does not. */
	CHECK_STR(scan(&fx, S("If it passes, v2 will ship in May 2027.\n"), 0, NULL), "");
	CHECK_STR(scan(&fx, S("It might pass. V2 will ship in May 2027.\n"), 0, NULL),
		  "future_certainty:will ship in May 2027@18;");
	teardown(&fx);
}

/* One finding per stretch of text per signal: the longest at the leftmost start. */
TEST(scan_one_finding_per_stretch)
{
	struct fixture fx;

	if (!setup(&fx, ENGINE_AUTO))
		return;
	CHECK_STR(scan(&fx, S("According to Dr. Williams et al. (2024), it works.\n"), 0, NULL),
		  "fabricated_citation:According to Dr. Williams et al. (2024)@0;");
	CHECK_STR(scan(&fx, S("GPT-5 will definitely be released in March 2027.\n"), 0, NULL),
		  "future_certainty:will definitely be released in March 2027@6;");
	teardown(&fx);
}

#define ENTRY(lit) {lit, sizeof(lit) - 1}

static const struct {
	const char *s;
	size_t n;
} corpus[] = {
	ENTRY("# Setup\n\nAccording to Smith et al. (2023), 41.5% of teams use it. See https://docs.example.com/a_(b).\n"
	"<tool_output>\nresults: https://real.example/x 12.5%\n</tool_output>\n"
	"- It will certainly ship by March 2027.\n- A 2024 study by Lee and Park found 2.5x gains [2].\n"),
	ENTRY("\xef\xbb\xbf" "BOM and \xff bad bytes \x00 NUL 1.25% https://x.example/\xc3\xa9\n\n\n"),
	ENTRY("no trailing newline <tool_result>open https://u.example/"),
	ENTRY("Prices are guaranteed to rise. e.g. Mr. Jones. This is 3.3% U.S. growth. As shown by Kumar (2022), yes."),
};

/* The same output, byte for byte, however the input is split; and from both engines. */
TEST(scan_split_invariance)
{
	struct fixture hs, pc;
	size_t i, step;
	static const size_t steps[] = {1, 2, 3, 7, 13, 64};

	if (!setup(&hs, ENGINE_AUTO) || !setup(&pc, ENGINE_PCRE2))
		return;
	for (i = 0; i < ARRAY_SIZE(corpus); i++) {
		size_t len = corpus[i].n;
		char *whole;

		scan(&hs, corpus[i].s, len, 0, NULL);
		whole = strdup(hs.out.data);
		CHECK(strstr(whole, "\"type\":\"finding\"") != NULL);
		for (step = 0; step < ARRAY_SIZE(steps); step++) {
			scan(&hs, corpus[i].s, len, steps[step], NULL);
			if (strcmp(whole, hs.out.data) != 0) {
				fprintf(stderr, "  input %zu step %zu:\n%s---\n%s", i, steps[step], whole, hs.out.data);
				CHECK(!"hyperscan output depends on the split");
			}
			scan(&pc, corpus[i].s, len, steps[step], NULL);
			if (strcmp(whole, pc.out.data) != 0) {
				fprintf(stderr, "  input %zu step %zu:\n%s---\n%s", i, steps[step], whole, pc.out.data);
				CHECK(!"pcre2 output differs");
			}
		}
		free(whole);
	}
	teardown(&hs);
	teardown(&pc);
}

static const struct {
	const char *s;
	size_t n;
} nonce_corpus[] = {
	ENTRY("Intro 1.5%. <tool_output nonce=\"" NONCE "\">\nresults: https://real.example/x 12.5% "
	      "</tool_output> more https://more.example/\n</tool_output nonce=\"" NONCE "\">\n"
	      "As found, https://real.example/x grew 12.5%. <tool_result>https://fake.example/</tool_result>\n"
	      "<tool_output nonce=\"wrong-nonce\">It will certainly ship by March 2027.\n"),
	ENTRY("<tool_output>a</tool_result nonce=\"" NONCE "\"><tool_result nonce=\"" NONCE "\"><tool_result "
	      "nonce=\"" NONCE "\">x</tool_output nonce=\"" NONCE "\"> https://in.example/ 2.5%\n"
	      "A 2024 study by Lee and Park found 2.5x gains https://in.example/"),
};

/* With a nonce too: the same output however the input is split, and from both engines. */
TEST(scan_nonce_split_invariance)
{
	struct fixture hs, pc;
	size_t i, step;
	static const size_t steps[] = {1, 2, 3, 5, 11, 64};

	if (!setup(&hs, ENGINE_AUTO) || !setup(&pc, ENGINE_PCRE2))
		return;
	CHECK_EQ(scan_span_nonce(hs.sc, NONCE), 0);
	CHECK_EQ(scan_span_nonce(pc.sc, NONCE), 0);
	for (i = 0; i < ARRAY_SIZE(nonce_corpus); i++) {
		size_t len = nonce_corpus[i].n;
		char *whole;

		scan(&hs, nonce_corpus[i].s, len, 0, NULL);
		whole = strdup(hs.out.data);
		CHECK(strstr(whole, "\"signal\":\"spoofed_span\"") != NULL);
		CHECK(strstr(whole, "\"spans\":1,") != NULL);
		for (step = 0; step < ARRAY_SIZE(steps); step++) {
			scan(&hs, nonce_corpus[i].s, len, steps[step], NULL);
			if (strcmp(whole, hs.out.data) != 0) {
				fprintf(stderr, "  input %zu step %zu:\n%s---\n%s", i, steps[step], whole, hs.out.data);
				CHECK(!"hyperscan output depends on the split");
			}
			scan(&pc, nonce_corpus[i].s, len, steps[step], NULL);
			if (strcmp(whole, pc.out.data) != 0) {
				fprintf(stderr, "  input %zu step %zu:\n%s---\n%s", i, steps[step], whole, pc.out.data);
				CHECK(!"pcre2 output differs");
			}
		}
		free(whole);
	}
	teardown(&hs);
	teardown(&pc);
}

/* A long line with no break is scanned in bounded memory, to its end. */
TEST(scan_long_line)
{
	size_t len = 6 << 20, i;
	char *text = malloc(len);
	struct scan_summary sum;
	struct fixture fx;

	if (!text || !setup(&fx, ENGINE_AUTO)) {
		free(text);
		return;
	}
	for (i = 0; i < len; i++)
		text[i] = "lorem ipsum dolor "[i % 18];
	memcpy(text + 100, " 73.4% ", 7);
	memcpy(text + len - 30, "https://end.example/z", 21);
	scan(&fx, text, len, 100000, &sum);
	CHECK_EQ(sum.bytes, len);
	CHECK_EQ(sum.findings, 2);
	CHECK(strstr(fx.brief.data, "unsourced_statistic:73.4%@101;") != NULL);
	CHECK(strstr(fx.brief.data, "https://end.example/z") != NULL);
	teardown(&fx);
	free(text);
}

/*
 * A file read in 128 KiB pieces goes in place, read after read: a full
 * window drops its oldest bytes in scan_room() instead of sending the read
 * through scan_feed()'s copy (one read in four did), and the findings are
 * those of one scan_feed() of the whole.
 */
TEST(scan_room_takes_every_read)
{
	static const char line[] = "Revenue grew 12.5% in 2024, as https://line.example/q says.\n";
	size_t len = 3 << 20, i, fed, in_place = 0, copied = 0;
	char *text = malloc(len), *whole;
	struct scan_summary sum;
	struct fixture fx;

	if (!text || !setup(&fx, ENGINE_AUTO)) {
		free(text);
		return;
	}
	for (i = 0; i < len; i++)
		text[i] = line[i % (sizeof(line) - 1)];
	scan(&fx, text, len, 0, NULL);
	whole = strdup(fx.out.data);
	fx.out.len = fx.brief.len = 0;
	/* The first bytes start the input through scan_feed(), as plain.c does. */
	CHECK_EQ(scan_feed(fx.sc, text, 4096), 0);
	for (fed = 4096; fed < len;) {
		size_t want = MIN((size_t)128 * 1024, len - fed);
		char *at = NULL;
		size_t room = scan_room(fx.sc, &at, 128 * 1024);

		if (room >= want) {
			memcpy(at, text + fed, want);
			CHECK_EQ(scan_feed_room(fx.sc, want), 0);
			in_place++;
		} else {
			CHECK_EQ(scan_feed(fx.sc, text + fed, want), 0);
			copied++;
		}
		fed += want;
	}
	CHECK_EQ(scan_end(fx.sc, &sum), 0);
	scan_json_summary(&fx.out, "-", &sum, fx.rs, NULL, NULL);
	CHECK_EQ(copied, 0);
	CHECK_EQ(in_place, (len - 4096 + 128 * 1024 - 1) / (128 * 1024));
	CHECK(strcmp(whole, fx.out.data) == 0);
	free(whole);
	teardown(&fx);
	free(text);
}

/*
 * An entry's figures wait for its line to end and are then dropped; past
 * CLAIMS_HOLD_MAX the oldest go out as they are, in order, whatever the
 * pieces the input comes in. 701 figures on one entry line: the oldest
 * 445 go out (more than stay held, so the queue is compacted too), then
 * the entry, then the next line's number.
 */
TEST(scan_entry_numbers_held)
{
	static const size_t steps[] = {0, 1, 7, 4096};
	enum { FIGURES = 700 };
	size_t out_n = FIGURES + 1 - CLAIMS_HOLD_MAX, i, step;
	struct buf text = {0}, want = {0};
	struct scan_summary sum;
	struct fixture fx;
	size_t at;

	if (!setup(&fx, ENGINE_AUTO))
		return;
	buf_adds(&text, "<tool_output>Accuracy was 94.2% in 2023.</tool_output>\nReferences\n"
			"1. Smith, J. (2019). Counts of ");
	for (i = 0; i < FIGURES; i++) {
		at = text.len;
		buf_addf(&text, "%s%zu", i ? ", " : "", 100 + i);
		if (i)
			at += 2;
		/* the first out is the year, then the figures in order */
		if (i + 1 < out_n)
			buf_addf(&want, "ungrounded_number:%zu@%zu;", 100 + i, at);
	}
	buf_adds(&text, " in practice. Journal of Counting, 12(3), 45-67.\nIt reached 91.3%.\n");
	CHECK(text.len < 4096 + 80);
	for (step = 0; step < ARRAY_SIZE(steps); step++) {
		const char *b = scan(&fx, text.data, text.len, steps[step], &sum), *p;
		size_t n = 0;

		/* The year first, then the figures, then the entry and the next line. */
		p = strstr(b, ":2019@");
		CHECK(p != NULL && strchr(b, ';') > p);
		p = p ? strchr(p, ';') + 1 : b;
		CHECK(strncmp(p, want.data, want.len) == 0);
		CHECK(strncmp(p + want.len, "fabricated_reference:", 21) == 0);
		CHECK(strstr(p + want.len, "altered_number:91.3%@") != NULL);
		for (p = b; (p = strstr(p, "_number:")) != NULL; p++)
			n++;
		CHECK_EQ(n, out_n + 1);
		CHECK_EQ(sum.findings, out_n + 2);
	}
	buf_free(&text);
	buf_free(&want);
	teardown(&fx);
}

/*
 * A total said before the items it sums waits for them: the rest of its
 * line and the list below are read as each line ends, so what is decided,
 * and the order the findings go out in, is the same whatever pieces the
 * input comes in. Grounded when the items make it (and a restatement
 * later with it); a total the items do not make is reported, before the
 * findings that waited behind it.
 */
TEST(scan_total_before_items)
{
	static const size_t steps[] = {0, 1, 2, 3, 5, 7, 13, 64};
	static const char *const totals[] = {"41.75", "43.75"};
	static const char *const wants[] = {
		"ungrounded_number+unsourced_statistic:73.4%@255;",
		"ungrounded_number:$43.75@167;ungrounded_number+unsourced_statistic:73.4%@255;"
		"ungrounded_number:$43.75@287;",
	};
	struct fixture fx;
	struct buf text = {0};
	char *whole;
	size_t t, k;

	if (!setup(&fx, ENGINE_AUTO))
		return;
	for (t = 0; t < ARRAY_SIZE(totals); t++) {
		text.len = 0;
		buf_addf(&text,
			 "<tool_output>{\"payments\": [{\"amount\": 18.0, \"subject\": \"Cinema\"}, "
			 "{\"amount\": 23.75, \"subject\": \"Taxi\"}, {\"amount\": 42.5, "
			 "\"subject\": \"Market\"}]}</tool_output>\nOutings: $%s total\n- Cinema: "
			 "$18.00\n- Taxi: $23.75\n\nGroceries cost $42.50 and the report says 73.4%% "
			 "of it was fresh.\nOverall: $%s on outings.\n",
			 totals[t], totals[t]);
		CHECK_STR(scan(&fx, text.data, text.len, 0, NULL), wants[t]);
		whole = strdup(fx.out.data);
		for (k = 0; whole && k < ARRAY_SIZE(steps); k++) {
			scan(&fx, text.data, text.len, steps[k], NULL);
			CHECK_STR(fx.out.data, whole);
		}
		free(whole);
	}
	buf_free(&text);
	teardown(&fx);
}

/* Scans text with both engines in pieces of each step; every output must be the first. */
static void agree_on_splits(struct fixture *hs, struct fixture *pc, const char *text, size_t len,
			    const size_t *steps, size_t n_steps, const char *what)
{
	char *whole;
	size_t k;

	scan(hs, text, len, 0, NULL);
	whole = strdup(hs->out.data);
	for (k = 0; k < n_steps; k++) {
		scan(hs, text, len, steps[k], NULL);
		if (strcmp(whole, hs->out.data) != 0) {
			fprintf(stderr, "  %s, step %zu: hyperscan output depends on the split\n", what,
				steps[k]);
			CHECK(!"hyperscan output depends on the split");
		}
		scan(pc, text, len, steps[k], NULL);
		if (strcmp(whole, pc->out.data) != 0) {
			fprintf(stderr, "  %s, step %zu: pcre2 differs:\n%s---\n%s", what, steps[k], whole,
				pc->out.data);
			CHECK(!"pcre2 output differs");
		}
	}
	free(whole);
}

/*
 * A URL read in two pieces, cut anywhere in it, at the scanner's and the
 * engine's read sizes: its end is found where the whole input finds it,
 * by both engines. Its end is decided when its line ends, or once
 * ENGINE_MAX_MATCH bytes have followed its start.
 */
TEST(scan_url_across_reads)
{
	static const char url[] = "https://cut.example/wiki/A_(b)_c?d=%E2%80%99";
	static const size_t starts[] = {16384, 65536, 2 * 65536};
	struct fixture hs, pc;
	size_t len = 3 * 65536, s, k, u = sizeof(url) - 1;
	char *text = malloc(len + 1), want[128];

	if (!text || !setup(&hs, ENGINE_AUTO) || !setup(&pc, ENGINE_PCRE2)) {
		free(text);
		return;
	}
	for (s = 0; s < ARRAY_SIZE(starts); s++) {
		for (k = 0; k <= u; k += 3) {
			size_t at = starts[s] - k, steps[] = {starts[s], 16384, 65536, 4093};
			size_t i;

			for (i = 0; i < len; i++)
				text[i] = "lorem ipsum dolor "[i % 18];
			memcpy(text + at - 1, " ", 1);
			memcpy(text + at, url, u);
			memcpy(text + at + u, "). Next", 7);
			/* The line ends right after the URL, or 8 KiB later. */
			text[at + u + (k % 2 ? 2 : ENGINE_MAX_MATCH + 100)] = '\n';
			agree_on_splits(&hs, &pc, text, len, steps, ARRAY_SIZE(steps), "url across reads");
			snprintf(want, sizeof(want), "fabricated_url:%s@%zu;", url, at);
			CHECK(strstr(hs.brief.data, want) != NULL);
		}
	}
	teardown(&hs);
	teardown(&pc);
	free(text);
}

/*
 * A line of 1 MiB of URL characters with a scheme every few bytes: each
 * URL is cut at ENGINE_MAX_MATCH and the next starts at the first scheme
 * after the cut, on both engines and however the line is read (before
 * extend: url, Hyperscan kept the first cut URL only).
 */
TEST(scan_url_hostile_line)
{
	static const char fill[] = "b.(c)https://d";
	static const size_t steps[] = {65536, 100000, 8191};
	struct fixture hs, pc;
	size_t len = 1 << 20, i;
	char *text = malloc(len);
	struct scan_summary sum;

	if (!text || !setup(&hs, ENGINE_AUTO) || !setup(&pc, ENGINE_PCRE2)) {
		free(text);
		return;
	}
	memcpy(text, "https://a", 9);
	for (i = 9; i < len; i++)
		text[i] = fill[(i - 9) % (sizeof(fill) - 1)];
	agree_on_splits(&hs, &pc, text, len, steps, ARRAY_SIZE(steps), "hostile url line");
	scan(&hs, text, len, 0, &sum);
	/* One URL per ENGINE_MAX_MATCH bytes, give or take the last. */
	CHECK(sum.findings >= len / ENGINE_MAX_MATCH);
	CHECK(strncmp(hs.brief.data, "fabricated_url:https://a", 24) == 0);
	teardown(&hs);
	teardown(&pc);
	free(text);
}
