// SPDX-License-Identifier: MIT
/* halluscan eval's report: the tallies of a run as aligned tables or as JSON. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/emit.h"
#include "common/util.h"
#include "pairs.h"
#include "scan/scan.h"
#include "stats.h"
#include "tally.h"

/* ---- the report ---- */

static int cmp_groups(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	int c = memcmp(x->name, y->name, MIN(x->name_len, y->name_len));

	if (c)
		return c;
	return (x->name_len > y->name_len) - (x->name_len < y->name_len);
}

/* A proportion as "0.123 [0.100, 0.150]", or "n/a" for 0 / 0. */
static void fmt_prop(char *out, size_t n, const struct stats_prop *p)
{
	if (p->n == 0)
		snprintf(out, n, "n/a");
	else
		snprintf(out, n, "%.3f [%.3f, %.3f]", p->p, p->low, p->high);
}

/* Whether a signal row is shown under a group in the tables. */
static bool shown(const struct eval *ev, const struct group *g, size_t k)
{
	return ev->main->counted[k] && (g == &ev->overall || g->cells[1 + k].findings > 0);
}

struct table {
	struct buf *b;
	int label_w, count_w;
};

#define PROP_W 21      /* "0.123 [0.100, 0.150]" */
#define SPAN_COUNT_W 8 /* "findings" */

static int row_response(struct table *t, const char *label, int indent, uint64_t records,
			const struct cell *c)
{
	struct stats_rates rt;
	char s[4][64];

	stats_confusion_rates(&c->cm, &rt);
	fmt_prop(s[0], sizeof(s[0]), &rt.sensitivity);
	fmt_prop(s[1], sizeof(s[1]), &rt.specificity);
	fmt_prop(s[2], sizeof(s[2]), &rt.precision);
	fmt_prop(s[3], sizeof(s[3]), &rt.accuracy);
	return buf_addf(t->b, "%*s%-*s %*llu %*llu %*llu %*llu %*llu  %-*s  %-*s  %-*s  %s\n",
			indent, "", t->label_w - indent, label, t->count_w,
			(unsigned long long)records, t->count_w, (unsigned long long)c->cm.tp,
			t->count_w, (unsigned long long)c->cm.fp, t->count_w,
			(unsigned long long)c->cm.fn, t->count_w, (unsigned long long)c->cm.tn,
			PROP_W, s[0], PROP_W, s[1], PROP_W, s[2], s[3]);
}

static int row_kappa(struct table *t, const char *label, int indent, const struct cell *c)
{
	struct stats_kappa k;

	if (stats_confusion_kappa(&c->cm, &k) < 0)
		return buf_addf(t->b, "%*s%-*s %*llu  %6s  %5s  n/a (chance agreement is 1)\n",
				indent, "", t->label_w - indent, label, t->count_w,
				(unsigned long long)k.n, "n/a", "n/a");
	return buf_addf(t->b, "%*s%-*s %*llu  %6.3f  %5.3f  [%.3f, %.3f]\n", indent, "",
			t->label_w - indent, label, t->count_w, (unsigned long long)k.n, k.kappa,
			k.se, k.low, k.high);
}

static int row_spans(struct table *t, const char *label, int indent, const struct cell *c)
{
	struct stats_prop caught, prec;
	int w = MAX(t->count_w, SPAN_COUNT_W);
	char s[2][64];

	(void)stats_wilson(c->caught, c->spans, &caught);
	(void)stats_wilson(c->on_span, c->findings, &prec);
	fmt_prop(s[0], sizeof(s[0]), &caught);
	fmt_prop(s[1], sizeof(s[1]), &prec);
	return buf_addf(t->b, "%*s%-*s %*llu %*llu  %-*s  %*llu %*llu  %s\n", indent, "",
			t->label_w - indent, label, w, (unsigned long long)c->spans, w,
			(unsigned long long)c->caught, PROP_W, s[0], w,
			(unsigned long long)c->findings, w, (unsigned long long)c->on_span, s[1]);
}

enum table_kind { TABLE_RESPONSE, TABLE_KAPPA, TABLE_SPANS };

static int table_group(struct eval *ev, struct table *t, enum table_kind kind,
		       const struct group *g)
{
	const struct ruleset *rs = ev->main->rs;
	int err = 0;
	size_t k;

	for (k = 0; k <= ev->main->n_sig && err == 0; k++) {
		const char *label = k == 0 ? g->shown : scan_signal_name(rs, k - 1);
		int indent = k == 0 ? 0 : 2;

		if (k > 0 && !shown(ev, g, k - 1))
			continue;
		if (kind == TABLE_RESPONSE)
			err = row_response(t, label, indent, g->records, &g->cells[k]);
		else if (kind == TABLE_KAPPA)
			err = row_kappa(t, label, indent, &g->cells[k]);
		else
			err = row_spans(t, label, indent, &g->cells[k]);
	}
	return err;
}

static int table(struct eval *ev, struct table *t, enum table_kind kind)
{
	size_t i;
	int err = table_group(ev, t, kind, &ev->overall);

	for (i = 0; i < ev->n_ds && err == 0; i++)
		err = table_group(ev, t, kind, &ev->ds[i]);
	return err;
}

static int add_list(struct buf *b, const char *const *v, size_t n, const char *none)
{
	size_t i;
	int err = 0;

	if (n == 0)
		return buf_addf(b, "%s", none);
	for (i = 0; i < n; i++) {
		err |= i ? BUF_LIT(b, ", ") : 0;
		err |= buf_add_visible(b, v[i], strlen(v[i]));
	}
	return err;
}

/* The threshold of the best kappa (ties: the lower); -1 when no kappa is defined. */
static int sweep_best(const struct eval *ev, struct stats_kappa *best)
{
	struct stats_kappa k;
	int i, at = -1;

	memset(best, 0, sizeof(*best));
	for (i = 0; i <= EVAL_SWEEP_STEPS; i++)
		if (stats_confusion_kappa(&ev->sweep[i], &k) == 0 &&
		    (at < 0 || k.kappa > best->kappa + 1e-12)) {
			at = i;
			*best = k;
		}
	return at;
}

/* FPR = fp / (fp + tn); -EDOM when no record is negative. */
static int fpr(const struct stats_confusion *c, double *out)
{
	*out = c->fp + c->tn ? (double)c->fp / (double)(c->fp + c->tn) : 0;
	return c->fp + c->tn ? 0 : -EDOM;
}

static int write_sweep_text(struct eval *ev, struct buf *b, int w)
{
	struct stats_kappa best;
	int i, at = sweep_best(ev, &best), err = 0;

	err |= buf_addf(b, "\nClaim-ratio sweep, overall only (all datasets together, not per "
			   "dataset): a record's ratio =\nunsupported / checked claims (supported + "
			   "partial + unsupported; 0 when it has none);\npredicted positive = ratio > t. "
			   "Records with a checked claim: %llu of %llu.\n(halluscan --claims calls a "
			   "response insufficient at ratio > --max-unsupported-ratio, 0.30 by default.)\n"
			   "%5s %*s %*s %*s %*s  %5s  %5s  %6s  %5s  %s\n",
			(unsigned long long)ev->sweep_checked, (unsigned long long)ev->records, "t", w,
			"TP", w, "FP", w, "FN", w, "TN", "TPR", "FPR", "kappa", "SE", "95% CI");
	for (i = 0; i <= EVAL_SWEEP_STEPS; i++) {
		const struct stats_confusion *c = &ev->sweep[i];
		struct stats_rates rt;
		struct stats_kappa k;
		char tpr[16], fp[16], kap[64];
		double x;

		stats_confusion_rates(c, &rt);
		snprintf(tpr, sizeof(tpr), rt.sensitivity.n ? "%.3f" : "n/a", rt.sensitivity.p);
		if (fpr(c, &x) == 0)
			snprintf(fp, sizeof(fp), "%.3f", x);
		else
			snprintf(fp, sizeof(fp), "n/a");
		if (stats_confusion_kappa(c, &k) == 0)
			snprintf(kap, sizeof(kap), "%6.3f  %5.3f  [%.3f, %.3f]", k.kappa, k.se, k.low,
				 k.high);
		else
			snprintf(kap, sizeof(kap), "%6s  %5s  n/a", "n/a", "n/a");
		err |= buf_addf(b, "%5.2f %*llu %*llu %*llu %*llu  %5s  %5s  %s%s\n",
				(double)i / EVAL_SWEEP_STEPS, w, (unsigned long long)c->tp, w,
				(unsigned long long)c->fp, w, (unsigned long long)c->fn, w,
				(unsigned long long)c->tn, tpr, fp, kap, i == at ? "  <- best" : "");
	}
	if (at < 0)
		return err | BUF_LIT(b, "Best kappa: none (kappa is undefined at every threshold)\n");
	return err | buf_addf(b, "Best kappa: %.3f at t = %.2f (ties go to the lower threshold)\n",
			      best.kappa, (double)at / EVAL_SWEEP_STEPS);
}

static const char *const pair_names[] = {"supports", "partially_supports", "does_not_support"};

/* The binary table of the pairs: supports against the other two, rows the label. */
static void pairs_binary(const struct eval *ev, uint64_t t[4])
{
	size_t i, j;

	memset(t, 0, 4 * sizeof(*t));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			t[(i != PAIR_SUPPORTS) * 2 + (j != PAIR_SUPPORTS)] += ev->pair_table[i][j];
}

static int kappa_line(struct buf *b, const char *what, const uint64_t *table, size_t k)
{
	struct stats_kappa kp;

	if (stats_kappa(table, k, &kp) < 0)
		return buf_addf(b, "%s: n/a (n = %llu; chance agreement is 1 or nothing to "
				   "compare)\n", what, (unsigned long long)kp.n);
	return buf_addf(b, "%s: %.3f, SE %.3f, 95%% CI [%.3f, %.3f] (observed agreement %.3f, by "
			   "chance %.3f)\n", what, kp.kappa, kp.se, kp.low, kp.high, kp.po, kp.pe);
}

static int write_pairs_text(struct eval *ev, struct buf *b)
{
	const int lw = 18, cw = 18; /* "partially_supports" */
	uint64_t col[3] = {0}, bin[4];
	size_t i, j;
	int err = 0;

	err |= buf_addf(b, "\nClaim/passage pairs: %llu judged with the rules above (as --pairs "
			   "judges them), overall;\nrows: the label, columns: the verdict\n%-*s",
			(unsigned long long)ev->pairs, lw, "");
	for (j = 0; j < 3; j++)
		err |= buf_addf(b, " %*s", cw, pair_names[j]);
	err |= buf_addf(b, " %*s\n", 7, "total");
	for (i = 0; i < 3; i++) {
		uint64_t row = 0;

		err |= buf_addf(b, "%-*s", lw, pair_names[i]);
		for (j = 0; j < 3; j++) {
			err |= buf_addf(b, " %*llu", cw, (unsigned long long)ev->pair_table[i][j]);
			row += ev->pair_table[i][j];
			col[j] += ev->pair_table[i][j];
		}
		err |= buf_addf(b, " %*llu\n", 7, (unsigned long long)row);
	}
	err |= buf_addf(b, "%-*s", lw, "total");
	for (j = 0; j < 3; j++)
		err |= buf_addf(b, " %*llu", cw, (unsigned long long)col[j]);
	err |= buf_addf(b, " %*llu\n", 7, (unsigned long long)ev->pairs);
	err |= kappa_line(b, "Cohen's kappa, three categories", &ev->pair_table[0][0], 3);

	pairs_binary(ev, bin);
	err |= buf_addf(b, "\nBinary: supports against not (partially_supports and does_not_support "
			   "together)\n%-*s %*s %*s %*s\n", lw, "", cw, "supports", cw, "not", 7,
			"total");
	err |= buf_addf(b, "%-*s %*llu %*llu %*llu\n", lw, "supports", cw,
			(unsigned long long)bin[0], cw, (unsigned long long)bin[1], 7,
			(unsigned long long)(bin[0] + bin[1]));
	err |= buf_addf(b, "%-*s %*llu %*llu %*llu\n", lw, "not", cw, (unsigned long long)bin[2],
			cw, (unsigned long long)bin[3], 7, (unsigned long long)(bin[2] + bin[3]));
	err |= kappa_line(b, "Cohen's kappa, binary", bin, 2);
	return err;
}

static int write_text(struct eval *ev, struct buf *b)
{
	const struct eval_options *o = ev->o;
	struct table t = {.b = b, .label_w = 7, .count_w = 5};
	uint64_t most = ev->overall.cells[0].spans;
	size_t i, k;
	int err = 0, sw;

	for (i = 0; i < ev->n_ds; i++)
		t.label_w = MAX(t.label_w, (int)strlen(ev->ds[i].shown));
	for (k = 0; k < ev->main->n_sig; k++)
		if (ev->main->counted[k])
			t.label_w = MAX(t.label_w, 2 + (int)strlen(scan_signal_name(ev->main->rs, k)));
	most = MAX(most, ev->records);
	most = MAX(most, ev->overall.cells[0].findings);
	for (; most >= 100000; most /= 10)
		t.count_w++;
	sw = MAX(t.count_w, SPAN_COUNT_W);

	err |= buf_addf(b, "halluscan eval: %llu records, ", (unsigned long long)ev->records);
	if (ev->pairs)
		err |= buf_addf(b, "%llu claim/passage pairs, ", (unsigned long long)ev->pairs);
	err |= buf_addf(b, "%llu malformed, from %zu file(s)\n", (unsigned long long)ev->malformed,
			o->n_files);
	err |= BUF_LIT(b, "rules: ");
	err |= add_list(b, o->rules, o->n_rules, "built-in packs");
	err |= buf_addf(b, " (ruleset %.12s); signals counted: ", ev->main->rs->digest);
	err |= add_list(b, o->signals, o->n_signals, "all");
	err |= BUF_LIT(b, "\nIntervals are 95% Wilson score intervals. Under a dataset, only the signals "
			  "with a finding in it are listed.\n");
	if (ev->records == 0 && ev->pairs > 0)
		goto pairs;

	err |= buf_addf(b, "\nResponse level: predicted positive = at least one finding "
			   "(a signal's row: a finding of that signal)\n%-*s %*s %*s %*s %*s %*s  "
			   "%-*s  %-*s  %-*s  %s\n",
			t.label_w, "", t.count_w, "n", t.count_w, "TP", t.count_w, "FP", t.count_w,
			"FN", t.count_w, "TN", PROP_W, "sensitivity", PROP_W, "specificity", PROP_W,
			"precision", "accuracy");
	err |= table(ev, &t, TABLE_RESPONSE);

	err |= buf_addf(b, "\nAgreement with the labels: Cohen's kappa, 95%% CI = kappa +/- 1.96 SE "
			   "(SE: Cohen 1960 large-sample)\n%-*s %*s  %6s  %5s  %s\n",
			t.label_w, "", t.count_w, "n", "kappa", "SE", "95% CI");
	err |= table(ev, &t, TABLE_KAPPA);

	err |= buf_addf(b, "\nSpan level: a labelled span is caught when a finding overlaps it "
			   "(byte offsets, [start, end));\nfinding precision = findings overlapping a "
			   "labelled span / all findings\n%-*s %*s %*s  %-*s  %*s %*s  %s\n",
			t.label_w, "", sw, "spans", sw, "caught", PROP_W, "caught rate", sw,
			"findings", sw, "on span", "finding precision");
	err |= table(ev, &t, TABLE_SPANS);

	if (ev->compare) {
		double p;

		(void)stats_mcnemar_exact(ev->mc_b, ev->mc_c, &p);
		err |= BUF_LIT(b, "\nCompared with --compare-rules ");
		err |= add_list(b, o->compare_rules, o->n_compare_rules, "");
		err |= buf_addf(b, " (ruleset %.12s), overall, predicted positive = at least one "
				   "finding\n%-*s %*s %*s %*s %*s %*s  %-*s  %-*s  %-*s  %s\n",
				ev->cmp.rs->digest, t.label_w, "", t.count_w, "n", t.count_w, "TP",
				t.count_w, "FP", t.count_w, "FN", t.count_w, "TN", PROP_W,
				"sensitivity", PROP_W, "specificity", PROP_W, "precision", "accuracy");
		err |= row_response(&t, "first", 0, ev->records, &ev->overall.cells[0]);
		err |= row_response(&t, "second", 0, ev->records, &ev->cmp_any);
		err |= buf_addf(b, "McNemar's exact test on response-level correctness: b = %llu "
				   "(right with the first set only), c = %llu (right with the second "
				   "only), p = %.3g\n",
				(unsigned long long)ev->mc_b, (unsigned long long)ev->mc_c, p);
	}
	if (o->sweep)
		err |= write_sweep_text(ev, b, t.count_w);
pairs:
	if (ev->pairs)
		err |= write_pairs_text(ev, b);
	if (ev->malformed) {
		err |= buf_addf(b, "\nMalformed records: %llu (not evaluated)\n",
				(unsigned long long)ev->malformed);
		for (i = 0; i < ev->n_notes; i++) {
			const struct malformed *m = &ev->notes[i];

			err |= BUF_LIT(b, "  ");
			err |= buf_add_visible(b, m->file, strlen(m->file));
			err |= buf_addf(b, ":%llu: ", (unsigned long long)m->line);
			err |= buf_add_visible(b, m->reason, strlen(m->reason));
			err |= buf_addc(b, '\n');
		}
		if (ev->malformed > ev->n_notes)
			err |= buf_addf(b, "  ... and %llu more (all are named on stderr)\n",
					(unsigned long long)(ev->malformed - ev->n_notes));
	}
	return err ? -ENOMEM : 0;
}

static int json_num(struct buf *b, double x)
{
	return isfinite(x) ? buf_addf(b, "%.6g", x) : BUF_LIT(b, "null");
}

static int json_prop(struct buf *b, const char *key, const struct stats_prop *p)
{
	int err = buf_addf(b, "\"%s\":{\"k\":%llu,\"n\":%llu,\"p\":", key, (unsigned long long)p->k,
			   (unsigned long long)p->n);

	if (p->n == 0)
		return err | BUF_LIT(b, "null,\"low\":null,\"high\":null}");
	err |= json_num(b, p->p);
	err |= BUF_LIT(b, ",\"low\":");
	err |= json_num(b, p->low);
	err |= BUF_LIT(b, ",\"high\":");
	err |= json_num(b, p->high);
	return err | buf_addc(b, '}');
}

/* A kappa as an object, or null when it is undefined (rc < 0). */
static int json_kappa(struct buf *b, int rc, const struct stats_kappa *k)
{
	int err = 0;

	if (rc < 0)
		return BUF_LIT(b, "null");
	err |= BUF_LIT(b, "{\"kappa\":");
	err |= json_num(b, k->kappa);
	err |= BUF_LIT(b, ",\"se\":");
	err |= json_num(b, k->se);
	err |= BUF_LIT(b, ",\"low\":");
	err |= json_num(b, k->low);
	err |= BUF_LIT(b, ",\"high\":");
	err |= json_num(b, k->high);
	err |= BUF_LIT(b, ",\"po\":");
	err |= json_num(b, k->po);
	err |= BUF_LIT(b, ",\"pe\":");
	err |= json_num(b, k->pe);
	return err | buf_addc(b, '}');
}

static int json_cell(struct buf *b, const struct cell *c)
{
	struct stats_rates rt;
	struct stats_kappa k;
	struct stats_prop p;
	int err;

	stats_confusion_rates(&c->cm, &rt);
	err = buf_addf(b, "{\"tp\":%llu,\"fp\":%llu,\"fn\":%llu,\"tn\":%llu,",
		       (unsigned long long)c->cm.tp, (unsigned long long)c->cm.fp,
		       (unsigned long long)c->cm.fn, (unsigned long long)c->cm.tn);
	err |= json_prop(b, "sensitivity", &rt.sensitivity);
	err |= buf_addc(b, ',');
	err |= json_prop(b, "specificity", &rt.specificity);
	err |= buf_addc(b, ',');
	err |= json_prop(b, "precision", &rt.precision);
	err |= buf_addc(b, ',');
	err |= json_prop(b, "accuracy", &rt.accuracy);
	err |= BUF_LIT(b, ",\"kappa\":");
	err |= json_kappa(b, stats_confusion_kappa(&c->cm, &k), &k);
	(void)stats_wilson(c->caught, c->spans, &p);
	err |= buf_addf(b, ",\"spans\":{\"labelled\":%llu,\"caught\":%llu,",
			(unsigned long long)c->spans, (unsigned long long)c->caught);
	err |= json_prop(b, "rate", &p);
	(void)stats_wilson(c->on_span, c->findings, &p);
	err |= buf_addf(b, "},\"findings\":{\"total\":%llu,\"on_span\":%llu,",
			(unsigned long long)c->findings, (unsigned long long)c->on_span);
	err |= json_prop(b, "precision", &p);
	return err | BUF_LIT(b, "}}");
}

static int json_group(struct eval *ev, struct buf *b, const struct group *g)
{
	const struct ruleset *rs = ev->main->rs;
	bool first = true;
	size_t k;
	int err;

	err = buf_addf(b, "{\"records\":%llu,\"any\":", (unsigned long long)g->records);
	err |= json_cell(b, &g->cells[0]);
	err |= BUF_LIT(b, ",\"signals\":{");
	for (k = 0; k < ev->main->n_sig; k++) {
		const char *name = scan_signal_name(rs, k);

		if (!ev->main->counted[k])
			continue;
		err |= first ? 0 : buf_addc(b, ',');
		first = false;
		err |= emit_json_string(b, name, strlen(name));
		err |= buf_addc(b, ':');
		err |= json_cell(b, &g->cells[1 + k]);
	}
	return err | BUF_LIT(b, "}}");
}

static int json_strings(struct buf *b, const char *const *v, size_t n)
{
	size_t i;
	int err = buf_addc(b, '[');

	for (i = 0; i < n; i++) {
		err |= i ? buf_addc(b, ',') : 0;
		err |= emit_json_string(b, v[i], strlen(v[i]));
	}
	return err | buf_addc(b, ']');
}

static int json_sweep(struct eval *ev, struct buf *b)
{
	struct stats_kappa k;
	int i, at = sweep_best(ev, &k), err = 0;

	err |= buf_addf(b, ",\"sweep\":{\"scope\":\"overall\",\"ratio\":\"unsupported / (supported + "
			   "partial + unsupported) claims, 0 when none\",\"positive\":\"ratio > t\","
			   "\"records\":%llu,\"records_checked\":%llu,\"thresholds\":[",
			(unsigned long long)ev->records, (unsigned long long)ev->sweep_checked);
	for (i = 0; i <= EVAL_SWEEP_STEPS; i++) {
		const struct stats_confusion *c = &ev->sweep[i];
		struct stats_rates rt;
		struct stats_kappa tk;
		double x;

		stats_confusion_rates(c, &rt);
		err |= buf_addf(b, "%s{\"t\":%.2f,\"tp\":%llu,\"fp\":%llu,\"fn\":%llu,\"tn\":%llu,"
				   "\"tpr\":",
				i ? "," : "", (double)i / EVAL_SWEEP_STEPS, (unsigned long long)c->tp,
				(unsigned long long)c->fp, (unsigned long long)c->fn,
				(unsigned long long)c->tn);
		err |= rt.sensitivity.n ? json_num(b, rt.sensitivity.p) : BUF_LIT(b, "null");
		err |= BUF_LIT(b, ",\"fpr\":");
		err |= fpr(c, &x) == 0 ? json_num(b, x) : BUF_LIT(b, "null");
		err |= BUF_LIT(b, ",\"kappa\":");
		err |= json_kappa(b, stats_confusion_kappa(c, &tk), &tk);
		err |= buf_addc(b, '}');
	}
	err |= BUF_LIT(b, "],\"best\":");
	if (at < 0)
		return err | BUF_LIT(b, "null}");
	err |= buf_addf(b, "{\"t\":%.2f,\"kappa\":", (double)at / EVAL_SWEEP_STEPS);
	err |= json_kappa(b, 0, &k);
	return err | BUF_LIT(b, "}}");
}

/* A table as {"row": {"column": n, ...}, ...}. */
static int json_table(struct buf *b, const uint64_t *t, const char *const *names, size_t k)
{
	size_t i, j;
	int err = buf_addc(b, '{');

	for (i = 0; i < k; i++) {
		err |= buf_addf(b, "%s\"%s\":{", i ? "," : "", names[i]);
		for (j = 0; j < k; j++)
			err |= buf_addf(b, "%s\"%s\":%llu", j ? "," : "", names[j],
					(unsigned long long)t[i * k + j]);
		err |= buf_addc(b, '}');
	}
	return err | buf_addc(b, '}');
}

static int json_pairs(struct eval *ev, struct buf *b)
{
	static const char *const bin_names[] = {"supports", "not"};
	struct stats_kappa k;
	struct stats_prop agree;
	uint64_t bin[4];
	int err = 0;

	(void)stats_wilson(ev->pair_table[0][0] + ev->pair_table[1][1] + ev->pair_table[2][2],
			   ev->pairs, &agree);
	err |= buf_addf(b, ",\"pairs\":{\"records\":%llu,\"rows\":\"label\",\"columns\":\"verdict\","
			   "\"table\":", (unsigned long long)ev->pairs);
	err |= json_table(b, &ev->pair_table[0][0], pair_names, 3);
	err |= buf_addc(b, ',');
	err |= json_prop(b, "agreement", &agree);
	err |= BUF_LIT(b, ",\"kappa\":");
	err |= json_kappa(b, stats_kappa(&ev->pair_table[0][0], 3, &k), &k);
	pairs_binary(ev, bin);
	err |= BUF_LIT(b, ",\"binary\":{\"table\":");
	err |= json_table(b, bin, bin_names, 2);
	err |= BUF_LIT(b, ",\"kappa\":");
	err |= json_kappa(b, stats_kappa(bin, 2, &k), &k);
	return err | BUF_LIT(b, "}}");
}

static int write_json(struct eval *ev, struct buf *b)
{
	const struct eval_options *o = ev->o;
	const struct ruleset *rs = ev->main->rs;
	bool first = true;
	size_t i, k;
	int err;

	err = buf_addf(b, "{\"records\":%llu,\"malformed\":%llu,\"malformed_records\":[",
		       (unsigned long long)ev->records, (unsigned long long)ev->malformed);
	for (i = 0; i < ev->n_notes; i++) {
		err |= buf_addf(b, "%s{\"file\":", i ? "," : "");
		err |= emit_json_string(b, ev->notes[i].file, strlen(ev->notes[i].file));
		err |= buf_addf(b, ",\"line\":%llu,\"reason\":", (unsigned long long)ev->notes[i].line);
		err |= emit_json_string(b, ev->notes[i].reason, strlen(ev->notes[i].reason));
		err |= buf_addc(b, '}');
	}
	err |= BUF_LIT(b, "],\"files\":");
	err |= json_strings(b, o->files, o->n_files);
	err |= BUF_LIT(b, ",\"rules\":");
	err |= json_strings(b, o->rules, o->n_rules);
	err |= buf_addf(b, ",\"ruleset\":\"%s\",\"signals\":[", rs->digest);
	for (k = 0; k < ev->main->n_sig; k++) {
		const char *name = scan_signal_name(rs, k);

		if (!ev->main->counted[k])
			continue;
		err |= first ? 0 : buf_addc(b, ',');
		first = false;
		err |= emit_json_string(b, name, strlen(name));
	}
	err |= BUF_LIT(b, "],\"intervals\":\"95% Wilson\",\"kappa_se\":\"Cohen 1960 large-sample\","
			  "\"overall\":");
	err |= json_group(ev, b, &ev->overall);
	err |= BUF_LIT(b, ",\"datasets\":{");
	for (i = 0; i < ev->n_ds; i++) {
		err |= i ? buf_addc(b, ',') : 0;
		err |= emit_json_string(b, ev->ds[i].name, ev->ds[i].name_len);
		err |= buf_addc(b, ':');
		err |= json_group(ev, b, &ev->ds[i]);
	}
	err |= buf_addc(b, '}');
	if (ev->compare) {
		double p;

		(void)stats_mcnemar_exact(ev->mc_b, ev->mc_c, &p);
		err |= BUF_LIT(b, ",\"compare\":{\"rules\":");
		err |= json_strings(b, o->compare_rules, o->n_compare_rules);
		err |= buf_addf(b, ",\"ruleset\":\"%s\",\"first\":", ev->cmp.rs->digest);
		err |= json_cell(b, &ev->overall.cells[0]);
		err |= BUF_LIT(b, ",\"second\":");
		err |= json_cell(b, &ev->cmp_any);
		err |= buf_addf(b, ",\"mcnemar\":{\"b\":%llu,\"c\":%llu,\"p\":",
				(unsigned long long)ev->mc_b, (unsigned long long)ev->mc_c);
		err |= json_num(b, p);
		err |= BUF_LIT(b, "}}");
	}
	if (o->sweep)
		err |= json_sweep(ev, b);
	if (ev->pairs)
		err |= json_pairs(ev, b);
	err |= BUF_LIT(b, "}\n");
	return err ? -ENOMEM : 0;
}

int eval_report(struct eval *ev, struct buf *b)
{
	if (ev->n_ds > 1) /* ev->ds is NULL when no record has a response */
		qsort(ev->ds, ev->n_ds, sizeof(*ev->ds), cmp_groups);
	return ev->o->format == EVAL_JSON ? write_json(ev, b) : write_text(ev, b);
}
