// SPDX-License-Identifier: MIT
/* halluscan eval on hand-made labelled records, and on a slice of a real corpus. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "eval.h"
#include "json.h"
#include "test.h"
#include "util.h"

/* Writes text to a new temporary file; path receives its name. */
static bool write_temp(char *path, size_t n, const char *text, size_t len)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, n, "%s/halluscan-eval-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return false;
	CHECK(write(fd, text, len) == (ssize_t)len);
	close(fd);
	return true;
}

/* The whole contents of f, NUL-terminated (the caller frees it). */
static char *slurp(FILE *f, size_t *len)
{
	struct buf b = {0};
	char tmp[4096];
	size_t n;

	rewind(f);
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		buf_add(&b, tmp, n);
	buf_addc(&b, '\0');
	*len = b.len - 1;
	return b.data;
}

/* The value at a dotted path ("overall.any.tp"); NULL when absent. */
static const struct json_value *at(const struct json_value *v, const char *path)
{
	char key[128];

	while (v && *path) {
		size_t n = strcspn(path, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		v = json_get(v, key);
		path += n + (path[n] == '.');
	}
	return v;
}

static long long num(const struct json_value *v, const char *path)
{
	int64_t i;

	if (json_int(at(v, path), &i) < 0) {
		char m[256];

		snprintf(m, sizeof(m), "%s is not an integer", path);
		test_fail(__FILE__, __LINE__, m);
		return -1;
	}
	return i;
}

static double real(const struct json_value *v, const char *path)
{
	double d = -1;

	CHECK(json_number(at(v, path), &d) == 0);
	return d;
}

static const char *str(const struct json_value *v, const char *path)
{
	size_t n;

	return json_string(at(v, path), &n);
}

/* A run's report parsed, what it wrote to err, and its misjudgments. */
struct run {
	int status;
	struct json_value *report;
	char *err, *mis;
	char *out; /* the report's text */
};

static void run_free(struct run *r)
{
	json_free(r->report);
	free(r->err);
	free(r->mis);
	free(r->out);
}

/* Runs eval_run on o (with --format json) over the JSONL text. */
static struct run run_eval(struct eval_options o, const char *jsonl)
{
	struct run r = {0};
	char path[4096];
	const char *files[] = {path};
	FILE *out = tmpfile(), *err = tmpfile(), *mis = tmpfile();
	struct diag d = {""};
	size_t n;

	CHECK(out && err && mis);
	if (!out || !err || !mis || !write_temp(path, sizeof(path), jsonl, strlen(jsonl))) {
		r.status = -EIO;
		goto out;
	}
	o.files = files;
	o.n_files = 1;
	o.format = EVAL_JSON;
	o.misjudgments = mis;
	r.status = eval_run(&o, out, err, &d);
	if (r.status < 0)
		fprintf(stderr, "  eval_run: %s\n", d.msg);
	CHECK_EQ(r.status, 0);
	unlink(path);
	r.out = slurp(out, &n);
	if (r.status == 0)
		CHECK_EQ(json_parse(r.out, n, &r.report, NULL), 0);
	r.err = slurp(err, &n);
	r.mis = slurp(mis, &n);
out:
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	if (mis)
		fclose(mis);
	return r;
}

/*
 * A hallucinated record with a URL inside its span (TP), a clean one (TN),
 * a clean one with a decimal percentage (FP), a hallucinated one with no
 * signal (FN); a blank line; then four malformed lines.
 */
static const char four[] =
	"{\"id\":\"r1\",\"dataset\":\"a\",\"source\":\"\","
	"\"response\":\"See https://docs.example.com/guide for details.\","
	"\"spans\":[{\"byte_start\":4,\"byte_end\":34,\"text\":\"https://docs.example.com/guide\","
	"\"label\":\"fabricated\"}],\"has_hallucination\":true}\n"
	"{\"id\":\"r2\",\"dataset\":\"a\",\"response\":\"The sky is blue.\",\"spans\":[],"
	"\"has_hallucination\":false}\n"
	"\n"
	"{\"id\":\"r3\",\"dataset\":\"b\",\"response\":\"Revenue grew 12.5% last year.\","
	"\"spans\":[],\"has_hallucination\":false}\n"
	"{\"id\":\"r4\",\"dataset\":\"b\",\"response\":\"Paris is the capital of Germany.\","
	"\"spans\":[{\"byte_start\":24,\"byte_end\":31,\"text\":\"Germany\",\"label\":\"wrong\"}],"
	"\"has_hallucination\":true}\n"
	"{\"id\":\"bad1\", nope}\n"
	"{\"id\":\"bad2\",\"dataset\":\"a\",\"has_hallucination\":true}\n"
	"{\"id\":\"bad3\",\"dataset\":\"a\",\"response\":5,\"has_hallucination\":false}\n"
	"{\"id\":\"bad4\",\"dataset\":\"a\",\"response\":\"short\",\"spans\":[{\"byte_start\":2,"
	"\"byte_end\":9}],\"has_hallucination\":true}\n";

TEST(eval_counts)
{
	struct run r = run_eval((struct eval_options){0}, four);
	const struct json_value *j = r.report;

	if (!j) {
		run_free(&r);
		return;
	}
	CHECK_EQ(num(j, "records"), 4);
	CHECK_EQ(num(j, "malformed"), 4);
	CHECK_EQ(json_array_len(at(j, "malformed_records")), 4);
	CHECK_EQ(num(json_array_at(at(j, "malformed_records"), 0), "line"), 6);
	CHECK_STR(str(json_array_at(at(j, "malformed_records"), 1), "reason"),
		  "missing \"response\"");
	CHECK_STR(str(json_array_at(at(j, "malformed_records"), 2), "reason"),
		  "\"response\" is not a string");
	CHECK(strstr(str(json_array_at(at(j, "malformed_records"), 3), "reason"),
		     "not within the response") != NULL);
	/* Each malformed record is named on err, with its line. */
	CHECK(strstr(r.err, ":6: invalid JSON") != NULL);
	CHECK(strstr(r.err, ":7: missing \"response\"") != NULL);
	CHECK(strstr(r.err, ":9: spans[0]") != NULL);
	CHECK_STR(str(j, "kappa_se"), "Cohen 1960 large-sample");

	/* Response level, overall. */
	CHECK_EQ(num(j, "overall.records"), 4);
	CHECK_EQ(num(j, "overall.any.tp"), 1);
	CHECK_EQ(num(j, "overall.any.fp"), 1);
	CHECK_EQ(num(j, "overall.any.fn"), 1);
	CHECK_EQ(num(j, "overall.any.tn"), 1);
	CHECK_EQ(num(j, "overall.any.sensitivity.k"), 1);
	CHECK_EQ(num(j, "overall.any.sensitivity.n"), 2);
	CHECK_EQ(num(j, "overall.any.precision.n"), 2);
	CHECK_EQ(num(j, "overall.any.accuracy.k"), 2);
	CHECK_EQ(num(j, "overall.any.accuracy.n"), 4);
	CHECK(real(j, "overall.any.accuracy.low") < 0.5 && real(j, "overall.any.accuracy.high") > 0.5);
	/* po = pe = 0.5: kappa 0, se sqrt(.25 / (4 * .25)) = 0.5. */
	CHECK(fabs(real(j, "overall.any.kappa.kappa")) < 1e-9);
	CHECK(fabs(real(j, "overall.any.kappa.se") - 0.5) < 1e-6);
	/* Span level: the URL's span is caught, Germany's is not; one of the
	 * two findings is on a span. */
	CHECK_EQ(num(j, "overall.any.spans.labelled"), 2);
	CHECK_EQ(num(j, "overall.any.spans.caught"), 1);
	CHECK_EQ(num(j, "overall.any.findings.total"), 2);
	CHECK_EQ(num(j, "overall.any.findings.on_span"), 1);
	CHECK(fabs(real(j, "overall.any.findings.precision.p") - 0.5) < 1e-9);

	/* Per signal. */
	CHECK_EQ(num(j, "overall.signals.fabricated_url.tp"), 1);
	CHECK_EQ(num(j, "overall.signals.fabricated_url.fp"), 0);
	CHECK_EQ(num(j, "overall.signals.fabricated_url.fn"), 1);
	CHECK_EQ(num(j, "overall.signals.fabricated_url.tn"), 2);
	CHECK_EQ(num(j, "overall.signals.fabricated_url.spans.caught"), 1);
	CHECK_EQ(num(j, "overall.signals.fabricated_url.findings.on_span"), 1);
	CHECK_EQ(num(j, "overall.signals.unsourced_statistic.tp"), 0);
	CHECK_EQ(num(j, "overall.signals.unsourced_statistic.fp"), 1);
	CHECK_EQ(num(j, "overall.signals.unsourced_statistic.fn"), 2);
	CHECK_EQ(num(j, "overall.signals.unsourced_statistic.tn"), 1);
	CHECK_EQ(num(j, "overall.signals.unsourced_statistic.findings.on_span"), 0);
	CHECK(at(j, "overall.signals.unsourced_statistic.precision.p") != NULL);
	CHECK_EQ(json_type(at(j, "overall.signals.future_certainty.precision.p")), JSON_NULL);
	CHECK_EQ(num(j, "overall.signals.unterminated_span.tn"), 2);

	/* Per dataset. */
	CHECK_EQ(json_object_len(at(j, "datasets")), 2);
	CHECK_EQ(num(j, "datasets.a.records"), 2);
	CHECK_EQ(num(j, "datasets.a.any.tp"), 1);
	CHECK_EQ(num(j, "datasets.a.any.tn"), 1);
	CHECK_EQ(num(j, "datasets.a.any.fp") + num(j, "datasets.a.any.fn"), 0);
	CHECK_EQ(num(j, "datasets.a.any.spans.caught"), 1);
	CHECK_EQ(num(j, "datasets.b.records"), 2);
	CHECK_EQ(num(j, "datasets.b.any.fp"), 1);
	CHECK_EQ(num(j, "datasets.b.any.fn"), 1);
	CHECK_EQ(num(j, "datasets.b.any.spans.labelled"), 1);
	CHECK_EQ(num(j, "datasets.b.any.spans.caught"), 0);
	CHECK_EQ(num(j, "datasets.b.signals.unsourced_statistic.fp"), 1);

	/* Misjudgments: r3 a false positive, r4 a false negative. */
	CHECK(r.mis != NULL);
	if (r.mis) {
		char *nl = strchr(r.mis, '\n');
		struct json_value *m1 = NULL, *m2 = NULL;

		CHECK(nl != NULL);
		if (nl) {
			CHECK_EQ(json_parse(r.mis, (size_t)(nl - r.mis), &m1, NULL), 0);
			CHECK_EQ(json_parse(nl + 1, strlen(nl + 1), &m2, NULL), 0);
		}
		CHECK_STR(str(m1, "id"), "r3");
		CHECK_STR(str(m1, "kind"), "false_positive");
		CHECK_STR(str(m1, "dataset"), "b");
		CHECK_STR(str(m1, "context"), "Revenue grew 12.5% last year.");
		CHECK_EQ(json_array_len(at(m1, "findings")), 1);
		CHECK_STR(str(json_array_at(at(m1, "findings"), 0), "signal"), "unsourced_statistic");
		CHECK_STR(str(json_array_at(at(m1, "findings"), 0), "text"), "12.5%");
		CHECK_EQ(num(json_array_at(at(m1, "findings"), 0), "start"), 13);
		CHECK_EQ(num(json_array_at(at(m1, "findings"), 0), "end"), 18);
		CHECK(str(json_array_at(at(m1, "findings"), 0), "rule") != NULL);
		CHECK_EQ(json_array_len(at(m1, "spans")), 0);
		CHECK_STR(str(m2, "id"), "r4");
		CHECK_STR(str(m2, "kind"), "false_negative");
		CHECK_EQ(json_array_len(at(m2, "findings")), 0);
		CHECK_EQ(json_array_len(at(m2, "spans")), 1);
		CHECK_STR(str(json_array_at(at(m2, "spans"), 0), "text"), "Germany");
		CHECK_STR(str(m2, "context"), "Paris is the capital of Germany.");
		CHECK(strchr(nl ? nl + 1 : "", '\n') == strrchr(r.mis, '\n')); /* two lines */
		json_free(m1);
		json_free(m2);
	}
	run_free(&r);
}

/* --signals: only the listed signals count, everywhere. */
TEST(eval_signals)
{
	static const char *const sigs[] = {"fabricated_url"};
	struct run r = run_eval((struct eval_options){.signals = sigs, .n_signals = 1}, four);
	const struct json_value *j = r.report;

	if (!j) {
		run_free(&r);
		return;
	}
	CHECK_EQ(num(j, "overall.any.tp"), 1);
	CHECK_EQ(num(j, "overall.any.fp"), 0);
	CHECK_EQ(num(j, "overall.any.fn"), 1);
	CHECK_EQ(num(j, "overall.any.tn"), 2);
	CHECK_EQ(num(j, "overall.any.findings.total"), 1);
	CHECK_EQ(json_object_len(at(j, "overall.signals")), 1);
	CHECK_EQ(json_array_len(at(j, "signals")), 1);
	/* Only r4 is misjudged now. */
	CHECK(strstr(r.mis, "\"r3\"") == NULL);
	CHECK(strstr(r.mis, "\"r4\"") != NULL);
	run_free(&r);
}

/* A record's source grounds that record only. */
TEST(eval_sources_do_not_leak)
{
	static const char recs[] =
		"{\"id\":\"s1\",\"dataset\":\"d\",\"source\":\"Revenue was $1.2 billion.\","
		"\"response\":\"Revenue was $1.3 billion.\",\"has_hallucination\":false}\n"
		"{\"id\":\"s2\",\"dataset\":\"d\",\"source\":\"Costs were $5 million.\","
		"\"response\":\"Revenue was $1.3 billion.\",\"has_hallucination\":false}\n"
		"{\"id\":\"s3\",\"dataset\":\"d\",\"response\":\"Revenue was $1.3 billion.\","
		"\"has_hallucination\":false}\n";
	struct run r = run_eval((struct eval_options){0}, recs);
	const struct json_value *j = r.report;

	if (!j) {
		run_free(&r);
		return;
	}
	CHECK_EQ(num(j, "overall.any.fp"), 2);
	CHECK_EQ(num(j, "overall.any.tn"), 1);
	CHECK_EQ(num(j, "overall.signals.altered_number.fp"), 1);
	CHECK_EQ(num(j, "overall.signals.ungrounded_number.fp"), 1);
	CHECK(strstr(r.mis, "\"id\":\"s1\"") != NULL);
	CHECK(strstr(r.mis, "\"signal\":\"altered_number\"") != NULL);
	CHECK(strstr(r.mis, "\"signal\":\"ungrounded_number\"") != NULL);
	CHECK(strstr(r.mis, "\"id\":\"s3\"") == NULL);
	run_free(&r);
}

/* A second rule set with only the URL rules: right on r3, where the first is wrong. */
TEST(eval_compare_rules)
{
	char urls[4096];
	const char *cmp[] = {urls};
	struct run r;
	const struct json_value *j;

	snprintf(urls, sizeof(urls), "%s/patterns/urls.yaml", test_srcdir());
	r = run_eval((struct eval_options){.compare_rules = cmp, .n_compare_rules = 1}, four);
	j = r.report;
	if (!j) {
		run_free(&r);
		return;
	}
	CHECK_EQ(num(j, "compare.mcnemar.b"), 0);
	CHECK_EQ(num(j, "compare.mcnemar.c"), 1);
	CHECK(fabs(real(j, "compare.mcnemar.p") - 1.0) < 1e-9);
	CHECK_EQ(num(j, "compare.first.fp"), 1);
	CHECK_EQ(num(j, "compare.second.tp"), 1);
	CHECK_EQ(num(j, "compare.second.fp"), 0);
	CHECK_EQ(num(j, "compare.second.fn"), 1);
	CHECK_EQ(num(j, "compare.second.tn"), 2);
	run_free(&r);
}

/* The table names the same counts. */
TEST(eval_text_table)
{
	struct eval_options o = {0};
	char path[4096];
	const char *files[] = {path};
	FILE *out = tmpfile(), *err = tmpfile();
	struct diag d = {""};
	char *text = NULL;
	size_t n;

	CHECK(out && err);
	if (!out || !err || !write_temp(path, sizeof(path), four, strlen(four)))
		goto out;
	o.files = files;
	o.n_files = 1;
	CHECK_EQ(eval_run(&o, out, err, &d), 0);
	unlink(path);
	text = slurp(out, &n);
	CHECK(strstr(text, "4 records, 4 malformed") != NULL);
	CHECK(strstr(text, "SE: Cohen 1960 large-sample") != NULL);
	CHECK(strstr(text, "0.500 [0.150, 0.850]") != NULL); /* accuracy 2/4 */
	CHECK(strstr(text, "\n  fabricated_url ") != NULL);
out:
	free(text);
	if (out)
		fclose(out);
	if (err)
		fclose(err);
}

/* Errors: nothing is written, the diagnostic names the cause. */
TEST(eval_errors)
{
	static const char *const missing[] = {"/nonexistent/halluscan-eval.jsonl"};
	static const char *const bogus[] = {"no_such_signal"};
	struct eval_options o = {.files = missing, .n_files = 1};
	FILE *out = tmpfile();
	struct diag d = {""};
	char *argv_format[] = {"eval", "--format", "xml", NULL};
	char *argv_missing[] = {"eval", "/nonexistent/halluscan-eval.jsonl", NULL};
	size_t n;
	char *text;

	CHECK(out != NULL);
	if (!out)
		return;
	CHECK_EQ(eval_run(&o, out, stderr, &d), -ENOENT);
	CHECK(strstr(d.msg, "/nonexistent/halluscan-eval.jsonl") != NULL);
	o.signals = bogus;
	o.n_signals = 1;
	CHECK_EQ(eval_run(&o, out, stderr, &d), -EINVAL);
	CHECK(strstr(d.msg, "no_such_signal") != NULL);
	text = slurp(out, &n);
	CHECK_EQ(n, 0);
	free(text);
	fclose(out);
	CHECK_EQ(eval_main(3, argv_format), 2);
	CHECK_EQ(eval_main(2, argv_missing), 2);
}

/* The first 300 records of a real corpus: every record lands in the matrix. */
TEST(eval_corpus_slice)
{
	const char *shared = test_shared();
	char path[4096];
	struct buf slice = {0};
	struct run r;
	const struct json_value *j;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	int lines = 0;

	if (!shared) {
		test_skip("no ../shared/corpus");
		return;
	}
	snprintf(path, sizeof(path), "%s/halueval_general.jsonl", shared);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	while (lines < 300 && getline(&line, &cap, f) > 0) {
		buf_add(&slice, line, strlen(line));
		lines++;
	}
	free(line);
	fclose(f);
	CHECK_EQ(lines, 300);
	r = run_eval((struct eval_options){0}, slice.data ? slice.data : "");
	buf_free(&slice);
	j = r.report;
	if (!j) {
		run_free(&r);
		return;
	}
	CHECK_EQ(num(j, "malformed"), 0);
	CHECK_EQ(num(j, "records"), 300);
	CHECK_EQ(num(j, "overall.any.tp") + num(j, "overall.any.fp") + num(j, "overall.any.fn") +
			 num(j, "overall.any.tn"),
		 300);
	CHECK_EQ(num(j, "datasets.halueval_general.records"), 300);
	CHECK_EQ(num(j, "datasets.halueval_general.any.tp") +
			 num(j, "datasets.halueval_general.any.fp") +
			 num(j, "datasets.halueval_general.any.fn") +
			 num(j, "datasets.halueval_general.any.tn"),
		 300);
	CHECK(num(j, "overall.any.findings.on_span") <= num(j, "overall.any.findings.total"));
	run_free(&r);
}
