// SPDX-License-Identifier: MIT
/*
 * halluscan eval over a JSONL file of labelled records and pairs, through
 * eval_run() as the program calls it. The first byte chooses the options
 * (bit 0 --sweep, bit 1 text instead of JSON, bit 2 --misjudgments); the
 * rest is the file. Properties:
 *  - eval_run succeeds: a malformed record is counted, never an error;
 *  - every non-blank line is one record, one pair or one malformed line;
 *  - the JSON report reads back as valid UTF-8 JSON, and its tallies add up:
 *    each cell's table sums to its group's records, the datasets' records to
 *    the overall ones, caught and on-span counts stay within their totals,
 *    the pair table sums to the pairs, and the malformed list holds
 *    min(malformed, EVAL_MALFORMED_LISTED) entries;
 *  - the text report and the messages on err are safe on a terminal:
 *    valid UTF-8, no control but line breaks (records' text is escaped);
 *  - the misjudgments file holds one valid JSON line per false positive,
 *    false negative and pair whose verdict is not its label;
 *  - runs share one eval_cache (the built-in packs loaded once: most of a
 *    run's cost otherwise), and every eighth input by its bytes is run
 *    again without it: the same report, messages and misjudgments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/json.h"
#include "common/util.h"
#include "eval/eval.h"
#include "fuzz.h"

static uint64_t u64_at(const struct json_value *v, const char *key)
{
	int64_t i;

	FUZZ_CHECK(json_int(json_get(v, key), &i) == 0 && i >= 0, "\"%s\" is no count", key);
	return (uint64_t)i;
}

/* One detector's cell: its table covers the group's records, its parts their totals. */
static void check_cell(const struct json_value *c, uint64_t records)
{
	const struct json_value *spans = json_get(c, "spans"), *f = json_get(c, "findings");

	FUZZ_CHECK(u64_at(c, "tp") + u64_at(c, "fp") + u64_at(c, "fn") + u64_at(c, "tn") == records,
		   "a confusion table that is not its records");
	FUZZ_CHECK(u64_at(spans, "caught") <= u64_at(spans, "labelled"));
	FUZZ_CHECK(u64_at(f, "on_span") <= u64_at(f, "total"));
	/* A finding makes a predicted positive. */
	FUZZ_CHECK((u64_at(f, "total") > 0) == (u64_at(c, "tp") + u64_at(c, "fp") > 0));
}

static uint64_t check_group(const struct json_value *g)
{
	const struct json_value *any = json_get(g, "any"), *sigs = json_get(g, "signals");
	uint64_t records = u64_at(g, "records"), total = 0;
	size_t i;

	check_cell(any, records);
	for (i = 0; i < json_object_len(sigs); i++) {
		const struct json_value *c = json_object_at(sigs, i, NULL, NULL);

		check_cell(c, records);
		total += u64_at(json_get(c, "findings"), "total");
		/* A record flagged for one signal is flagged for any. */
		FUZZ_CHECK(u64_at(c, "tp") <= u64_at(any, "tp") && u64_at(c, "fp") <= u64_at(any, "fp"));
	}
	/* Every signal counts (no --signals): the findings are the signals' together. */
	FUZZ_CHECK(total == u64_at(json_get(any, "findings"), "total"));
	return records;
}

/* Checks the report; returns the misjudgments it implies. */
static uint64_t check_report(const char *text, size_t len, uint64_t lines)
{
	const struct json_value *overall, *ds, *pairs, *any;
	struct json_value *rep = NULL;
	struct json_error jerr = {0};
	uint64_t records, malformed, n_pairs = 0, sum = 0, wrong_pairs = 0;
	size_t i, j;
	int err;

	FUZZ_CHECK(fuzz_valid_utf8(text, len), "the report is not UTF-8");
	err = json_parse(text, len, &rep, &jerr);
	FUZZ_CHECK(err == 0, "the report is not JSON: %s at %zu", jerr.msg, jerr.offset);
	records = u64_at(rep, "records");
	malformed = u64_at(rep, "malformed");
	pairs = json_get(rep, "pairs");
	if (pairs) {
		const struct json_value *t = json_get(pairs, "table");

		n_pairs = u64_at(pairs, "records");
		FUZZ_CHECK(json_object_len(t) == 3);
		for (i = 0; i < 3; i++) {
			const struct json_value *row = json_object_at(t, i, NULL, NULL);

			FUZZ_CHECK(json_object_len(row) == 3);
			for (j = 0; j < 3; j++) {
				uint64_t k;
				int64_t x;

				FUZZ_CHECK(json_int(json_object_at(row, j, NULL, NULL), &x) == 0 && x >= 0);
				k = (uint64_t)x;
				sum += k;
				wrong_pairs += i != j ? k : 0;
			}
		}
		FUZZ_CHECK(sum == n_pairs, "the pair table sums to %llu of %llu pairs",
			   (unsigned long long)sum, (unsigned long long)n_pairs);
	}
	FUZZ_CHECK(records + n_pairs + malformed == lines,
		   "%llu records, %llu pairs and %llu malformed from %llu lines",
		   (unsigned long long)records, (unsigned long long)n_pairs,
		   (unsigned long long)malformed, (unsigned long long)lines);
	FUZZ_CHECK(json_array_len(json_get(rep, "malformed_records")) ==
		   MIN(malformed, (uint64_t)EVAL_MALFORMED_LISTED));
	overall = json_get(rep, "overall");
	FUZZ_CHECK(check_group(overall) == records);
	ds = json_get(rep, "datasets");
	sum = 0;
	for (i = 0; i < json_object_len(ds); i++)
		sum += check_group(json_object_at(ds, i, NULL, NULL));
	FUZZ_CHECK(sum == records, "the datasets hold %llu of %llu records",
		   (unsigned long long)sum, (unsigned long long)records);
	any = json_get(overall, "any");
	sum = u64_at(any, "fp") + u64_at(any, "fn") + wrong_pairs;
	json_free(rep);
	return sum;
}

/* The lines eval reads as records: all but those of blank space only. */
static uint64_t count_records(const char *buf, size_t len)
{
	bool blank = true;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		char c = buf[i];

		if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
			blank = false;
		if (c == '\n' || i + 1 == len) {
			n += !blank;
			blank = true;
		}
	}
	return n;
}

/* Every eighth input, chosen by its bytes (so a reproducer is run again). */
static bool sample(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	return (h & 7) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct eval_cache *cache;
	static int fd = -1;
	static char path[64];
	struct fuzz_in in = {data, size};
	uint8_t opt = fuzz_u8(&in);
	const char *files[1] = {path};
	struct eval_options o = {
		.files = files, .n_files = 1,
		.sweep = opt & 1,
		.format = opt & 2 ? EVAL_TEXT : EVAL_JSON,
	};
	char *out = NULL, *err_text = NULL, *mis = NULL;
	size_t out_len = 0, err_len = 0, mis_len = 0;
	FILE *out_f, *err_f, *mis_f = NULL;
	struct diag d = {""};
	uint64_t lines, want_mis = 0;
	int err;

	if (fd < 0) {
		/* A file only in memory, opened by name as eval opens its inputs. */
		fd = memfd_create("fuzz-eval", 0);
		FUZZ_CHECK(fd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	FUZZ_CHECK(ftruncate(fd, 0) == 0);
	FUZZ_CHECK(pwrite(fd, in.p, in.n, 0) == (ssize_t)in.n);
	lines = count_records((const char *)in.p, in.n);

	out_f = open_memstream(&out, &out_len);
	err_f = open_memstream(&err_text, &err_len);
	FUZZ_CHECK(out_f && err_f);
	if (opt & 4) {
		mis_f = open_memstream(&mis, &mis_len);
		FUZZ_CHECK(mis_f != NULL);
		o.misjudgments = mis_f;
	}
	if (!cache)
		FUZZ_CHECK(eval_cache_new(&cache) == 0);
	o.cache = cache;
	err = eval_run(&o, out_f, err_f, &d);
	FUZZ_CHECK(err == 0, "eval_run: %d: %s", err, d.msg);
	fclose(out_f);
	fclose(err_f);
	if (mis_f)
		fclose(mis_f);
	if (sample(data, size)) {
		char *out2 = NULL, *err2 = NULL, *mis2 = NULL;
		size_t out2_len = 0, err2_len = 0, mis2_len = 0;
		FILE *out2_f = open_memstream(&out2, &out2_len), *err2_f = open_memstream(&err2, &err2_len);

		FUZZ_CHECK(out2_f && err2_f);
		o.cache = NULL;
		if (opt & 4) {
			o.misjudgments = open_memstream(&mis2, &mis2_len);
			FUZZ_CHECK(o.misjudgments != NULL);
		}
		FUZZ_CHECK(eval_run(&o, out2_f, err2_f, &d) == 0, "eval_run without the cache: %s", d.msg);
		fclose(out2_f);
		fclose(err2_f);
		if (o.misjudgments)
			fclose(o.misjudgments);
		FUZZ_CHECK(out2_len == out_len && memcmp(out2, out, out_len) == 0,
			   "the cache changed the report");
		FUZZ_CHECK(err2_len == err_len && memcmp(err2, err_text, err_len) == 0,
			   "the cache changed the messages");
		FUZZ_CHECK(mis2_len == mis_len && (mis_len == 0 || memcmp(mis2, mis, mis_len) == 0),
			   "the cache changed the misjudgments");
		free(out2);
		free(err2);
		free(mis2);
	}
	if (o.format == EVAL_JSON) {
		want_mis = check_report(out, out_len, lines);
	} else {
		FUZZ_CHECK(out_len > 0, "an empty text report");
		/* Text is for a terminal: what the records wrote is escaped. */
		FUZZ_CHECK(fuzz_terminal_safe(out, out_len), "the text report holds a control");
	}
	FUZZ_CHECK(fuzz_terminal_safe(err_text, err_len), "a message holds a control: %.*s",
		   (int)MIN(err_len, 400), err_text);
	if (mis_f) {
		const char *p = mis, *end = mis + mis_len;
		uint64_t n = 0;

		while (p < end) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			struct json_value *v = NULL;

			FUZZ_CHECK(eol != NULL, "a misjudgment line without its newline");
			FUZZ_CHECK(fuzz_valid_utf8(p, (size_t)(eol - p)));
			FUZZ_CHECK(json_parse(p, (size_t)(eol - p), &v, NULL) == 0,
				   "a misjudgment line is not JSON");
			json_free(v);
			n++;
			p = eol + 1;
		}
		if (o.format == EVAL_JSON)
			FUZZ_CHECK(n == want_mis, "%llu misjudgment lines, the report says %llu",
				   (unsigned long long)n, (unsigned long long)want_mis);
	}
	free(out);
	free(err_text);
	free(mis);
	return 0;
}

/*
 * One run over a record and a pair before the first input fills the cache
 * (the built-in packs compiled, the pair judge made): seconds that counted
 * inside the first input ran past libFuzzer's per-input timeout on a busy
 * machine.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char warm[] =
		"\0{\"id\":\"r\",\"response\":\"It grew 73.4%.\",\"has_hallucination\":true}\n"
		"{\"id\":\"p\",\"claim\":\"It is red.\",\"passage\":\"It is red.\"}\n";

	(void)argc;
	(void)argv;
	return LLVMFuzzerTestOneInput((const uint8_t *)warm, sizeof(warm) - 1);
}
