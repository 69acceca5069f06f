// SPDX-License-Identifier: MIT
/* halluscan eval: the detector measured against labelled JSONL records. */
#include "eval.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "claims/policy.h"
#include "common/emit.h"
#include "common/json.h"
#include "match/rules.h"
#include "pairs.h"
#include "scan/db.h"
#include "scan/scan.h"
#include "stats.h"
#include "tally.h"

/* One finding of a counted signal in the current record. */
struct hit {
	size_t sig;          /* signal index: scan_signal_name() */
	const char *rule_id; /* owned by the ruleset, or a literal */
	uint64_t start, end;
	size_t text_off, text_len; /* in detector.text */
};

/*
 * An interval in a list sorted by start, with reach, the largest end of the
 * intervals from the start of its run up to it: whether one of a run
 * overlaps [a, b) is then one binary search (see any_overlaps).
 */
struct ival {
	uint64_t start, end, reach;
	size_t sig; /* a finding's signal */
};

/* A labelled span, in byte offsets into the response. */
struct labelled_span {
	uint64_t start, end;
	const char *label; /* NULL: none */
	size_t label_len;
};

struct labelled_record {
	const char *id, *dataset, *response, *source; /* id NULL: none */
	size_t id_len, dataset_len, response_len, source_len;
	bool label;
	struct labelled_span *spans; /* in eval.spans */
	size_t n_spans;
	struct ival *span_ix; /* the spans sorted, in eval.span_ix */
};

/* ---- intervals ---- */

static int cmp_ival_start(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

static int cmp_ival_sig(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	if (x->sig != y->sig)
		return (x->sig > y->sig) - (x->sig < y->sig);
	return cmp_ival_start(a, b);
}

/* Sorts v[0, n) with cmp and sets each reach; with by_sig a run is one signal's. */
static void ival_sort(struct ival *v, size_t n, int (*cmp)(const void *, const void *),
		      bool by_sig)
{
	size_t i;

	if (n > 1)
		qsort(v, n, sizeof(*v), cmp);
	for (i = 0; i < n; i++)
		v[i].reach = i > 0 && (!by_sig || v[i - 1].sig == v[i].sig)
				     ? MAX(v[i - 1].reach, v[i].end)
				     : v[i].end;
}

/*
 * Whether an interval of the run v[lo, hi) overlaps [a, b): one with start
 * < b and end > a. Those with start < b are a prefix of the run; the
 * largest end among them is the reach of its last.
 */
static bool any_overlaps(const struct ival *v, size_t lo, size_t hi, uint64_t a, uint64_t b)
{
	size_t first = lo;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].start < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > first && v[lo - 1].reach > a;
}

/* ---- detectors ---- */

static int eval_finding(void *ctx, const struct finding *f)
{
	struct detector *dt = ctx;
	struct hit *h;
	size_t k = f->signal_index;

	size_t i;

	if (f->grounded)
		return 0;
	/* A finding and each signal it carries are hits of their signals. */
	for (i = 0; i <= f->n_also; i++) {
		k = i ? f->also_index[i - 1] : f->signal_index;
		if (!dt->counted[k])
			continue;
		if (grow(&dt->hits, &dt->cap_hits, dt->n_hits + 1, sizeof(*dt->hits)) < 0)
			return -ENOMEM;
		h = &dt->hits[dt->n_hits++];
		*h = (struct hit){
			.sig = k, .rule_id = f->rule_id, .start = f->start, .end = f->end,
			.text_off = dt->text.len, .text_len = f->text_len,
		};
		if (buf_add(&dt->text, f->text, f->text_len) < 0)
			return -ENOMEM;
	}
	return 0;
}

static bool in_list(const char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* Which signals count: all, or those named. */
static void count_signals(struct detector *dt, const char *const *signals, size_t n_signals)
{
	size_t i;

	for (i = 0; i < dt->n_sig; i++)
		dt->counted[i] = n_signals == 0 || in_list(signals, n_signals,
							   scan_signal_name(dt->rs, i));
}

/*
 * Loads packs like the filter: the built-in ones from the database
 * serialized at build time (compiled when there is none), others compiled
 * with their examples checked, so a broken pack is an error here too.
 */
static int detector_open(struct detector *dt, const char *const *paths, size_t n_paths,
			 const char *const *signals, size_t n_signals, struct diag *d)
{
	struct diag ignored;
	size_t i;
	int err = 0;

	dt->rs = ruleset_new();
	if (!dt->rs)
		return -ENOMEM;
	if (n_paths == 0)
		err = ruleset_add_builtin(dt->rs, d);
	for (i = 0; i < n_paths && err == 0; i++)
		err = ruleset_add_path(dt->rs, paths[i], d);
	if (err == 0)
		err = ruleset_finish(dt->rs, d);
	if (err < 0)
		return err;
	/* A database that does not load (another engine version) is compiled. */
	if (n_paths == 0 && builtin_db_len > 0 &&
	    db_load(dt->rs, builtin_db, builtin_db_len, &dt->db, &ignored) < 0)
		dt->db = NULL;
	if (!dt->db) {
		err = db_compile(dt->rs, ENGINE_AUTO, &dt->db, d);
		if (err == 0 && n_paths > 0)
			err = scan_check_examples(dt->db, d);
		if (err < 0)
			return err;
	}
	dt->pol = policy_new(dt->rs);
	dt->n_sig = scan_n_signals(dt->rs);
	dt->counted = calloc(dt->n_sig, sizeof(*dt->counted));
	dt->sig_at = calloc(dt->n_sig + 1, sizeof(*dt->sig_at));
	if (!dt->pol || !dt->counted || !dt->sig_at)
		return -ENOMEM;
	count_signals(dt, signals, n_signals);
	return scan_new(dt->db, dt->pol, eval_finding, dt, &dt->sc);
}

static void detector_close(struct detector *dt)
{
	scan_free(dt->sc);
	policy_free(dt->pol);
	db_free(dt->db);
	ruleset_free(dt->rs);
	free(dt->counted);
	free(dt->hits);
	free(dt->by_start);
	free(dt->by_sig);
	free(dt->sig_at);
	buf_free(&dt->text);
	memset(dt, 0, sizeof(*dt));
}

/* The built-in packs loaded, kept between runs (eval.h). */
struct eval_cache {
	struct detector dt; /* open when dt.rs is set */
	bool pressure; /* what dt's scanner was set up for (claims are set per run) */
	struct pairs *pj;
};

int eval_cache_new(struct eval_cache **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void eval_cache_free(struct eval_cache *c)
{
	if (!c)
		return;
	pairs_free(c->pj);
	detector_close(&c->dt);
	free(c);
}

/* Sorts the current record's hits for the tallies: by start, and by signal. */
static int detector_index(struct detector *dt)
{
	size_t i, k;

	if (grow(&dt->by_start, &dt->cap_by_start, dt->n_hits, sizeof(*dt->by_start)) < 0 ||
	    grow(&dt->by_sig, &dt->cap_by_sig, dt->n_hits, sizeof(*dt->by_sig)) < 0)
		return -ENOMEM;
	for (i = 0; i < dt->n_hits; i++)
		dt->by_start[i] = dt->by_sig[i] = (struct ival){
			.start = dt->hits[i].start, .end = dt->hits[i].end, .sig = dt->hits[i].sig,
		};
	ival_sort(dt->by_start, dt->n_hits, cmp_ival_start, false);
	ival_sort(dt->by_sig, dt->n_hits, cmp_ival_sig, true);
	for (k = 0, i = 0; k <= dt->n_sig; k++) {
		while (i < dt->n_hits && dt->by_sig[i].sig < k)
			i++;
		dt->sig_at[k] = i;
	}
	return 0;
}

/* Scans one response, with its source (if any) as its only grounding. */
static int detector_scan(struct detector *dt, const struct labelled_record *r)
{
	struct scan_summary sum;
	int err = 0;

	dt->n_hits = 0;
	dt->text.len = 0;
	scan_clear_sources(dt->sc);
	if (r->source_len > 0)
		err = scan_add_source(dt->sc, r->source, r->source_len);
	if (err == 0)
		err = scan_feed(dt->sc, r->response, r->response_len);
	if (err == 0)
		err = scan_end(dt->sc, &sum);
	if (err == 0)
		memcpy(dt->claims, sum.claims, sizeof(dt->claims));
	return err ? err : detector_index(dt);
}

/* Claims are only counted (the scan's summary holds the counts). */
static int eval_claim(void *ctx, const struct claim *cl)
{
	(void)ctx;
	(void)cl;
	return 0;
}

/* ---- tallies ---- */

/* Sorts the record's spans for the tallies. */
static int index_spans(struct eval *ev, struct labelled_record *r)
{
	size_t j;

	if (grow(&ev->span_ix, &ev->cap_span_ix, r->n_spans, sizeof(*ev->span_ix)) < 0)
		return -ENOMEM;
	r->span_ix = ev->span_ix;
	for (j = 0; j < r->n_spans; j++)
		r->span_ix[j] = (struct ival){.start = r->spans[j].start, .end = r->spans[j].end};
	ival_sort(r->span_ix, r->n_spans, cmp_ival_start, false);
	return 0;
}

/*
 * Adds one record to c, counting the findings of signal sig (NO_SIGNAL:
 * any). A finding is on a span, and a span caught, when the two overlap;
 * each test is a binary search in the other side's sorted intervals, so a
 * record costs (findings + spans) x log, not findings x spans.
 */
static void tally(struct cell *c, const struct detector *dt, size_t sig, const struct labelled_record *r)
{
	const struct ival *h = sig == NO_SIGNAL ? dt->by_start : dt->by_sig;
	size_t lo = sig == NO_SIGNAL ? 0 : dt->sig_at[sig];
	size_t hi = sig == NO_SIGNAL ? dt->n_hits : dt->sig_at[sig + 1];
	bool predicted = hi > lo;
	size_t i, j;

	for (i = lo; i < hi; i++) {
		c->findings++;
		c->on_span += any_overlaps(r->span_ix, 0, r->n_spans, h[i].start, h[i].end);
	}
	for (j = 0; j < r->n_spans; j++) {
		c->spans++;
		c->caught += any_overlaps(h, lo, hi, r->spans[j].start, r->spans[j].end);
	}
	if (predicted && r->label)
		c->cm.tp++;
	else if (predicted)
		c->cm.fp++;
	else if (r->label)
		c->cm.fn++;
	else
		c->cm.tn++;
}

static void tally_group(struct group *g, const struct detector *dt, const struct labelled_record *r)
{
	size_t k;

	g->records++;
	tally(&g->cells[0], dt, NO_SIGNAL, r);
	for (k = 0; k < dt->n_sig; k++)
		if (dt->counted[k])
			tally(&g->cells[1 + k], dt, k, r);
}

/*
 * Adds one record to the sweep: its ratio u / c (unsupported over checked
 * claims) is above t = i / EVAL_SWEEP_STEPS when u * EVAL_SWEEP_STEPS > i * c,
 * compared in integers so that a ratio equal to a threshold is not above it.
 * A record with no checked claim (c = 0) is never above.
 */
static void tally_sweep(struct eval *ev, const struct labelled_record *r)
{
	const uint64_t *n = ev->main->claims;
	uint64_t u = n[CLAIM_UNSUPPORTED], c = n[CLAIM_SUPPORTED] + n[CLAIM_PARTIAL] + u;
	uint64_t i;

	ev->sweep_checked += c > 0;
	for (i = 0; i <= EVAL_SWEEP_STEPS; i++) {
		struct stats_confusion *cm = &ev->sweep[i];
		bool predicted = u * EVAL_SWEEP_STEPS > i * c;

		if (predicted && r->label)
			cm->tp++;
		else if (predicted)
			cm->fp++;
		else if (r->label)
			cm->fn++;
		else
			cm->tn++;
	}
}

static int group_init(struct group *g, const char *name, size_t len, size_t n_sig)
{
	struct buf shown = {0};

	memset(g, 0, sizeof(*g));
	g->name = xstrndup(name, len);
	g->name_len = len;
	g->cells = calloc(n_sig + 1, sizeof(*g->cells));
	if (buf_add_visible(&shown, name, len) < 0 || buf_addc(&shown, '\0') < 0) {
		buf_free(&shown);
		return -ENOMEM;
	}
	g->shown = shown.data;
	return g->name && g->cells ? 0 : -ENOMEM;
}

static struct group *dataset_group(struct eval *ev, const char *name, size_t len)
{
	struct group *g;
	size_t i;

	for (i = 0; i < ev->n_ds; i++)
		if (ev->ds[i].name_len == len && memcmp(ev->ds[i].name, name, len) == 0)
			return &ev->ds[i];
	if (grow(&ev->ds, &ev->cap_ds, ev->n_ds + 1, sizeof(*ev->ds)) < 0)
		return NULL;
	g = &ev->ds[ev->n_ds++];
	if (group_init(g, name, len, ev->main->n_sig) < 0)
		return NULL;
	return g;
}

/* ---- records ---- */

/* Checks an optional string member; *s NULL when absent. Returns a reason or NULL. */
static const char *get_string(const struct json_value *rec, const char *key, bool required,
			      const char **s, size_t *len, char *why, size_t n)
{
	const struct json_value *v = json_get(rec, key);

	*s = NULL;
	*len = 0;
	if (!v) {
		if (!required)
			return NULL;
		snprintf(why, n, "missing \"%s\"", key);
		return why;
	}
	*s = json_string(v, len);
	if (!*s) {
		snprintf(why, n, "\"%s\" is not a string", key);
		return why;
	}
	return NULL;
}

/* Fills r from a parsed record: 0, 1 when it is malformed (why says how), or -ENOMEM. */
static int parse_record(struct eval *ev, const struct json_value *rec, struct labelled_record *r,
			char *why, size_t n)
{
	const struct json_value *spans;
	size_t i;

	memset(r, 0, sizeof(*r));
	if (json_type(rec) != JSON_OBJECT) {
		snprintf(why, n, "not a JSON object");
		return 1;
	}
	if (get_string(rec, "id", false, &r->id, &r->id_len, why, n) ||
	    get_string(rec, "dataset", false, &r->dataset, &r->dataset_len, why, n) ||
	    get_string(rec, "response", true, &r->response, &r->response_len, why, n) ||
	    get_string(rec, "source", false, &r->source, &r->source_len, why, n))
		return 1;
	if (!r->dataset) {
		r->dataset = "(none)";
		r->dataset_len = strlen(r->dataset);
	}
	if (!json_get(rec, "has_hallucination")) {
		snprintf(why, n, "missing \"has_hallucination\"");
		return 1;
	}
	if (json_bool(json_get(rec, "has_hallucination"), &r->label) < 0) {
		snprintf(why, n, "\"has_hallucination\" is not true or false");
		return 1;
	}
	spans = json_get(rec, "spans");
	if (spans && json_type(spans) != JSON_ARRAY) {
		snprintf(why, n, "\"spans\" is not an array");
		return 1;
	}
	r->n_spans = json_array_len(spans);
	if (grow(&ev->spans, &ev->cap_spans, r->n_spans, sizeof(*ev->spans)) < 0)
		return -ENOMEM;
	r->spans = ev->spans;
	for (i = 0; i < r->n_spans; i++) {
		const struct json_value *sp = json_array_at(spans, i);
		const char *text;
		int64_t a, b;
		size_t tl;

		if (json_type(sp) != JSON_OBJECT) {
			snprintf(why, n, "spans[%zu] is not an object", i);
			return 1;
		}
		if (json_int(json_get(sp, "byte_start"), &a) < 0 ||
		    json_int(json_get(sp, "byte_end"), &b) < 0) {
			snprintf(why, n, "spans[%zu]: \"byte_start\" and \"byte_end\" must be integers",
				 i);
			return 1;
		}
		if (a < 0 || b < a || (uint64_t)b > r->response_len) {
			snprintf(why, n, "spans[%zu]: [%lld, %lld) is not within the response's %zu bytes",
				 i, (long long)a, (long long)b, r->response_len);
			return 1;
		}
		r->spans[i] = (struct labelled_span){.start = (uint64_t)a, .end = (uint64_t)b};
		if (json_get(sp, "text")) {
			text = json_string(json_get(sp, "text"), &tl);
			/* Catches code-point offsets taken for byte offsets. */
			if (!text || tl != (size_t)(b - a) ||
			    memcmp(text, r->response + a, tl) != 0) {
				snprintf(why, n, "spans[%zu]: \"text\" is not the response's bytes [%lld, %lld)",
					 i, (long long)a, (long long)b);
				return 1;
			}
		}
		if (json_get(sp, "label")) {
			r->spans[i].label = json_string(json_get(sp, "label"), &r->spans[i].label_len);
			if (!r->spans[i].label) {
				snprintf(why, n, "spans[%zu]: \"label\" is not a string", i);
				return 1;
			}
		}
	}
	return 0;
}

/*
 * "halluscan: " and a message on f, its file names, ids and record text
 * with control characters escaped (buf_add_visible).
 */
static void warn_to(FILE *f, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void warn_to(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_line(f, fmt, ap);
	va_end(ap);
}

static int note_malformed(struct eval *ev, const char *file, uint64_t line, const char *why)
{
	struct malformed *m;

	ev->malformed++;
	warn_to(ev->err, "%s:%llu: %s", file, (unsigned long long)line, why);
	if (ev->n_notes >= EVAL_MALFORMED_LISTED)
		return 0;
	m = &ev->notes[ev->n_notes];
	m->reason = strdup(why);
	if (!m->reason)
		return -ENOMEM;
	m->file = file;
	m->line = line;
	ev->n_notes++;
	return 0;
}

/* ---- misjudgments ---- */

/* The response around [at, end), widened to whole UTF-8 characters. */
static void context_range(const struct labelled_record *r, uint64_t at, uint64_t end, size_t *from,
			  size_t *to)
{
	const unsigned char *s = (const unsigned char *)r->response;
	size_t n = r->response_len;

	*from = at > EVAL_CONTEXT_BYTES ? (size_t)at - EVAL_CONTEXT_BYTES : 0;
	*to = end + EVAL_CONTEXT_BYTES < n ? (size_t)end + EVAL_CONTEXT_BYTES : n;
	while (*from > 0 && (s[*from] & 0xC0) == 0x80)
		(*from)--;
	while (*to < n && (s[*to] & 0xC0) == 0x80)
		(*to)++;
}

/* Writes the line in ev->mis to the misjudgments file. */
static int write_mis(struct eval *ev)
{
	struct buf *b = &ev->mis;

	errno = 0;
	if (fwrite(b->data, 1, b->len, ev->o->misjudgments) != b->len)
		return diag_set(ev->d, -EIO, "misjudgments: write error: %s", strerror(errno));
	return 0;
}

static int write_misjudgment(struct eval *ev, const struct labelled_record *r, const char *file,
			     uint64_t line)
{
	const struct detector *dt = ev->main;
	struct buf *b = &ev->mis;
	bool fp = dt->n_hits > 0;
	uint64_t at = 0, end = 0;
	size_t i, from, to;
	int err = 0;

	if (fp) {
		at = dt->hits[0].start;
		end = dt->hits[0].end;
		for (i = 1; i < dt->n_hits; i++)
			if (dt->hits[i].start < at) {
				at = dt->hits[i].start;
				end = dt->hits[i].end;
			}
	} else if (r->n_spans > 0) {
		at = r->spans[0].start;
		end = r->spans[0].end;
		for (i = 1; i < r->n_spans; i++)
			if (r->spans[i].start < at) {
				at = r->spans[i].start;
				end = r->spans[i].end;
			}
	}
	context_range(r, at, end, &from, &to);
	b->len = 0;
	err |= BUF_LIT(b, "{\"id\":");
	err |= r->id ? emit_json_string(b, r->id, r->id_len) : BUF_LIT(b, "null");
	err |= BUF_LIT(b, ",\"dataset\":");
	err |= emit_json_string(b, r->dataset, r->dataset_len);
	err |= BUF_LIT(b, ",\"file\":");
	err |= emit_json_string(b, file, strlen(file));
	err |= buf_addf(b, ",\"line\":%llu,\"kind\":\"%s\",\"context\":", (unsigned long long)line,
			fp ? "false_positive" : "false_negative");
	err |= emit_json_string(b, r->response + from, to - from);
	err |= buf_addf(b, ",\"context_start\":%zu,\"findings\":[", from);
	for (i = 0; i < dt->n_hits; i++) {
		const struct hit *h = &dt->hits[i];
		const char *sig = scan_signal_name(dt->rs, h->sig);

		err |= buf_addf(b, "%s{\"signal\":", i ? "," : "");
		err |= emit_json_string(b, sig, strlen(sig));
		err |= BUF_LIT(b, ",\"rule\":");
		err |= emit_json_string(b, h->rule_id, strlen(h->rule_id));
		err |= buf_addf(b, ",\"start\":%llu,\"end\":%llu,\"text\":",
				(unsigned long long)h->start, (unsigned long long)h->end);
		err |= emit_json_string(b, h->text_len ? dt->text.data + h->text_off : "",
					h->text_len);
		err |= buf_addc(b, '}');
	}
	err |= BUF_LIT(b, "],\"spans\":[");
	for (i = 0; i < r->n_spans; i++) {
		const struct labelled_span *s = &r->spans[i];

		err |= buf_addf(b, "%s{\"byte_start\":%llu,\"byte_end\":%llu,\"text\":", i ? "," : "",
				(unsigned long long)s->start, (unsigned long long)s->end);
		err |= emit_json_string(b, r->response + s->start, (size_t)(s->end - s->start));
		err |= BUF_LIT(b, ",\"label\":");
		err |= s->label ? emit_json_string(b, s->label, s->label_len) : BUF_LIT(b, "null");
		err |= buf_addc(b, '}');
	}
	err |= BUF_LIT(b, "]}\n");
	return err ? -ENOMEM : write_mis(ev);
}

/* ---- pairs ---- */

/* A record is a pair when it has no response and a pair's field. */
static bool is_pair(const struct json_value *rec)
{
	return json_type(rec) == JSON_OBJECT && !json_get(rec, "response") &&
	       (json_get(rec, "claim") || json_get(rec, "passage") || json_get(rec, "label"));
}

/* A pair whose verdict is not its label, as one misjudgment line. */
static int write_pair_misjudgment(struct eval *ev, const char *file, uint64_t line,
				  const char *id, size_t id_len, const char *claim,
				  size_t claim_len, const char *passage, enum pair_label label,
				  const struct pair_verdict *v)
{
	struct buf *b = &ev->mis;
	int err = 0;

	b->len = 0;
	err |= BUF_LIT(b, "{\"id\":");
	err |= id ? emit_json_string(b, id, id_len) : BUF_LIT(b, "null");
	err |= BUF_LIT(b, ",\"file\":");
	err |= emit_json_string(b, file, strlen(file));
	err |= buf_addf(b, ",\"line\":%llu,\"kind\":\"pair\",\"label\":\"%s\",\"verdict\":\"%s\","
			   "\"reason\":",
			(unsigned long long)line, pair_label_name(label), pair_label_name(v->label));
	err |= emit_json_string(b, v->reason, strlen(v->reason));
	err |= BUF_LIT(b, ",\"claim\":");
	err |= emit_json_string(b, claim, claim_len);
	err |= BUF_LIT(b, ",\"quote\":");
	err |= emit_json_string(b, passage + v->quote_start, v->quote_end - v->quote_start);
	err |= BUF_LIT(b, "}\n");
	return err ? -ENOMEM : write_mis(ev);
}

/* Judges one pair record: 0 (a malformed one is noted), or a negative errno. */
static int eval_pair(struct eval *ev, const struct json_value *rec, const char *file,
		     uint64_t line)
{
	const char *id, *claim, *passage, *label;
	size_t id_len, claim_len, passage_len, label_len;
	struct pair_verdict v;
	enum pair_label want;
	char why[256];
	int err;

	if (get_string(rec, "id", false, &id, &id_len, why, sizeof(why)) ||
	    get_string(rec, "claim", true, &claim, &claim_len, why, sizeof(why)) ||
	    get_string(rec, "passage", true, &passage, &passage_len, why, sizeof(why)) ||
	    get_string(rec, "label", true, &label, &label_len, why, sizeof(why)))
		return note_malformed(ev, file, line, why);
	for (want = PAIR_SUPPORTS; want <= PAIR_DOES_NOT_SUPPORT; want++)
		if (strlen(pair_label_name(want)) == label_len &&
		    memcmp(pair_label_name(want), label, label_len) == 0)
			break;
	if (want > PAIR_DOES_NOT_SUPPORT) {
		snprintf(why, sizeof(why), "\"label\" is \"%.*s\"%s, not supports, "
			 "partially_supports or does_not_support", (int)MIN(label_len, 40), label,
			 label_len > 40 ? "..." : "");
		return note_malformed(ev, file, line, why);
	}
	if (!ev->pj) {
		err = pairs_new(ev->main->db, ev->main->pol, &ev->pj);
		if (err < 0)
			return err;
	}
	err = pairs_judge(ev->pj, claim, claim_len, passage, passage_len, &v);
	if (err < 0)
		return err;
	ev->pairs++;
	ev->pair_table[want][v.label]++;
	if (ev->o->misjudgments && v.label != want)
		return write_pair_misjudgment(ev, file, line, id, id_len, claim, claim_len, passage,
					      want, &v);
	return 0;
}

/* ---- one line ---- */

static int eval_line(struct eval *ev, const char *file, uint64_t line, const char *text,
		     size_t len)
{
	struct json_value *rec = NULL;
	struct json_error jerr = {0};
	struct labelled_record r;
	struct group *g;
	char why[256];
	bool right1, right2;
	int err;

	err = json_parse(text, len, &rec, &jerr);
	if (err == -EINVAL) {
		snprintf(why, sizeof(why), "invalid JSON at byte %zu: %s", jerr.offset,
			 jerr.msg ? jerr.msg : "?");
		return note_malformed(ev, file, line, why);
	}
	if (err < 0)
		return err;
	if (is_pair(rec)) {
		err = eval_pair(ev, rec, file, line);
		goto out;
	}
	err = parse_record(ev, rec, &r, why, sizeof(why));
	if (err != 0) {
		if (err > 0)
			err = note_malformed(ev, file, line, why);
		goto out;
	}
	err = index_spans(ev, &r);
	if (err < 0)
		goto out;
	err = detector_scan(ev->main, &r);
	if (err < 0)
		goto out;
	g = dataset_group(ev, r.dataset, r.dataset_len);
	if (!g) {
		err = -ENOMEM;
		goto out;
	}
	ev->records++;
	tally_group(&ev->overall, ev->main, &r);
	tally_group(g, ev->main, &r);
	if (ev->o->sweep)
		tally_sweep(ev, &r);
	if (ev->o->misjudgments && (ev->main->n_hits > 0) != r.label) {
		err = write_misjudgment(ev, &r, file, line);
		if (err < 0)
			goto out;
	}
	if (ev->compare) {
		err = detector_scan(&ev->cmp, &r);
		if (err < 0)
			goto out;
		tally(&ev->cmp_any, &ev->cmp, NO_SIGNAL, &r);
		right1 = (ev->main->n_hits > 0) == r.label;
		right2 = (ev->cmp.n_hits > 0) == r.label;
		ev->mc_b += right1 && !right2;
		ev->mc_c += !right1 && right2;
	}
out:
	json_free(rec);
	return err;
}

static bool blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return false;
	return true;
}

static int eval_file(struct eval *ev, const char *path)
{
	bool is_stdin = strcmp(path, "-") == 0, too_long;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	struct lines *lines = NULL;
	uint64_t lineno = 0;
	const char *line;
	size_t n;
	int rc = 0, err;

	if (fd < 0)
		return diag_set(ev->d, -errno, "%s: %s", path, strerror(errno));
	err = lines_new(fd, RECORD_MAX, &lines);
	while (err == 0 && (rc = lines_next(lines, &line, &n, &too_long)) > 0) {
		char why[128];

		lineno++;
		if (too_long) {
			snprintf(why, sizeof(why), "the line is %zu bytes, longer than the %zu MiB a "
				 "record may be", n, RECORD_MAX >> 20);
			err = note_malformed(ev, path, lineno, why);
		} else if (!blank(line, n)) {
			err = eval_line(ev, path, lineno, line, n);
		}
	}
	if (err == 0 && rc < 0)
		err = diag_set(ev->d, rc, "%s: %s", path, strerror(-rc));
	else if (err == -ENOMEM)
		diag_set(ev->d, err, "out of memory");
	else if (err < 0 && !ev->d->msg[0])
		diag_set(ev->d, err, "%s:%llu: %s", path, (unsigned long long)lineno,
			 strerror(-err));
	lines_free(lines);
	if (!is_stdin)
		close(fd);
	return err;
}

/* ---- the run ---- */

/* Every --signals name must be one a rule set reports. */
static int check_signals(struct eval *ev)
{
	const struct eval_options *o = ev->o;
	size_t i, k;

	for (i = 0; i < o->n_signals; i++) {
		bool known = strcmp(o->signals[i], SIGNAL_UNTERMINATED) == 0 ||
			     strcmp(o->signals[i], SIGNAL_SPOOFED) == 0 ||
			     ruleset_signal_index(ev->main->rs, o->signals[i]) >= 0 ||
			     (ev->compare && ruleset_signal_index(ev->cmp.rs, o->signals[i]) >= 0);
		struct buf names = {0};

		if (known)
			continue;
		for (k = 0; k < ev->main->n_sig; k++)
			buf_addf(&names, "%s%s", k ? ", " : "", scan_signal_name(ev->main->rs, k));
		diag_set(ev->d, -EINVAL, "unknown signal \"%s\" (the rules report: %s)",
			 o->signals[i], names.data ? names.data : "none");
		buf_free(&names);
		return -EINVAL;
	}
	return 0;
}

int eval_run(const struct eval_options *o, FILE *out, FILE *err_out, struct diag *d)
{
	struct eval ev = {.o = o, .err = err_out, .d = d};
	struct eval_cache *cache = NULL;
	struct buf b = {0};
	size_t i;
	int err;

	d->msg[0] = '\0';
	ev.notes = calloc(EVAL_MALFORMED_LISTED, sizeof(*ev.notes));
	if (!ev.notes) {
		err = -ENOMEM;
		goto out;
	}
	/* The cache's scanner when it was set up alike: a scanner starts
	 * every record afresh (scan_clear_sources), so a run on it reports
	 * what a run on a new one would. */
	cache = o->n_rules == 0 ? o->cache : NULL;
	if (cache && cache->dt.rs && cache->pressure != o->pressure) {
		pairs_free(cache->pj);
		cache->pj = NULL;
		detector_close(&cache->dt);
	}
	ev.main = cache ? &cache->dt : &ev.own;
	if (cache && cache->dt.rs) {
		count_signals(ev.main, o->signals, o->n_signals);
		ev.pj = cache->pj;
		cache->pj = NULL;
		err = 0;
	} else {
		err = detector_open(ev.main, o->rules, o->n_rules, o->signals, o->n_signals, d);
		if (err == 0)
			scan_pressure(ev.main->sc, o->pressure);
		if (cache)
			cache->pressure = o->pressure;
	}
	/* Claims add reports; the findings stay the same. Set each run: a
	 * cached scanner may have had them on for the last. */
	if (err == 0)
		scan_claims(ev.main->sc, o->sweep ? eval_claim : NULL, NULL);
	if (err == 0 && o->n_compare_rules > 0) {
		ev.compare = true;
		err = detector_open(&ev.cmp, o->compare_rules, o->n_compare_rules, o->signals,
				    o->n_signals, d);
		if (err == 0)
			scan_pressure(ev.cmp.sc, o->pressure);
	}
	if (err == 0)
		err = check_signals(&ev);
	if (err == 0)
		err = group_init(&ev.overall, "overall", strlen("overall"), ev.main->n_sig);
	if (err < 0)
		goto out;
	for (i = 0; i < o->n_files; i++) {
		err = eval_file(&ev, o->files[i]);
		if (err < 0)
			goto out;
	}
	err = eval_report(&ev, &b);
	if (err < 0)
		goto out;
	errno = 0;
	if (fwrite(b.data, 1, b.len, out) != b.len || fflush(out) != 0) {
		err = diag_set(d, errno ? -errno : -EIO, "write error: %s",
			       strerror(errno ? errno : EIO));
		goto out;
	}
	if (o->misjudgments && fflush(o->misjudgments) != 0)
		err = diag_set(d, errno ? -errno : -EIO, "misjudgments: write error: %s",
			       strerror(errno ? errno : EIO));
out:
	if (err == -ENOMEM)
		diag_set(d, err, "out of memory");
	else if (err < 0 && !d->msg[0])
		diag_set(d, err, "%s", strerror(-err));
	if (cache && err == 0) {
		cache->pj = ev.pj; /* kept, with the detector */
	} else {
		pairs_free(ev.pj);
		if (ev.main)
			detector_close(ev.main);
	}
	detector_close(&ev.cmp);
	free(ev.overall.name);
	free(ev.overall.shown);
	free(ev.overall.cells);
	for (i = 0; i < ev.n_ds; i++) {
		free(ev.ds[i].name);
		free(ev.ds[i].shown);
		free(ev.ds[i].cells);
	}
	free(ev.ds);
	for (i = 0; ev.notes && i < ev.n_notes; i++)
		free(ev.notes[i].reason);
	free(ev.notes);
	free(ev.spans);
	free(ev.span_ix);
	buf_free(&ev.mis);
	buf_free(&b);
	return err;
}
