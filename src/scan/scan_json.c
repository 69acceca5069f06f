// SPDX-License-Identifier: MIT
/* A scan's findings, claims and summary written as JSON lines (see scan_json.h). */
#include "scan_json.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/emit.h"
#include "config.h"

/* ,"key":"v" */
static int field_str(struct buf *b, const char *key, const char *v, size_t n)
{
	int err = BUF_LIT(b, ",\"") | buf_adds(b, key) | BUF_LIT(b, "\":");

	return err ? -ENOMEM : emit_json_string(b, v, n);
}

/* ,"key":v */
static int field_u64(struct buf *b, const char *key, uint64_t v)
{
	return BUF_LIT(b, ",\"") | buf_adds(b, key) | BUF_LIT(b, "\":") | buf_add_u64(b, v);
}

int scan_json_finding(struct buf *b, const char *path, const struct finding *f)
{
	int err = 0;

	err |= BUF_LIT(b, "{\"type\":\"finding\",\"path\":");
	err |= emit_json_string(b, path, strlen(path));
	err |= field_str(b, "signal", f->signal, strlen(f->signal));
	err |= field_str(b, "rule", f->rule_id, strlen(f->rule_id));
	err |= BUF_LIT(b, ",\"severity\":\"");
	err |= buf_adds(b, severity_name(f->severity));
	err |= buf_addc(b, '"');
	err |= field_u64(b, "start", f->start);
	err |= field_u64(b, "end", f->end);
	err |= field_u64(b, "line", f->line);
	err |= field_u64(b, "column", f->column);
	err |= field_str(b, "text", f->text, f->text_len);
	if (f->text_truncated)
		err |= BUF_LIT(b, ",\"text_truncated\":true");
	if (f->grounded)
		err |= buf_addf(b, ",\"grounded\":true,\"grounded_at\":%llu",
				(unsigned long long)f->grounded_at);
	if (f->source) {
		err |= field_str(b, "source", f->source, strlen(f->source));
		err |= buf_addf(b, ",\"source_at\":%llu", (unsigned long long)f->source_at);
	}
	err |= field_str(b, "message", f->message, strlen(f->message));
	err |= field_str(b, "recovery", f->recovery, strlen(f->recovery));
	err |= BUF_LIT(b, "}\n");
	return err ? -ENOMEM : 0;
}

int scan_json_claim(struct buf *b, const char *path, const struct claim *cl,
		    const struct ruleset *rs)
{
	size_t i;
	int err = 0;

	err |= BUF_LIT(b, "{\"type\":\"claim\",\"path\":");
	err |= emit_json_string(b, path, strlen(path));
	err |= buf_addf(b, ",\"start\":%llu,\"end\":%llu,\"label\":\"%s\"",
			(unsigned long long)cl->start, (unsigned long long)cl->end,
			claim_label_name(cl->label));
	err |= field_str(b, "text", cl->text, cl->text_len);
	err |= BUF_LIT(b, ",\"items\":[");
	for (i = 0; i < cl->n_items; i++) {
		const struct claim_item *it = &cl->items[i];
		const struct rule *r = &rs->rules[it->rule];

		err |= buf_addf(b, "%s{\"rule\":", i ? "," : "");
		err |= emit_json_string(b, r->id, strlen(r->id));
		err |= buf_addf(b, ",\"start\":%llu,\"end\":%llu", (unsigned long long)it->from,
				(unsigned long long)it->to);
		err |= field_str(b, "text", it->text, it->text_len);
		if (it->grounded)
			err |= buf_addf(b, ",\"grounded\":true,\"grounded_at\":%llu}",
					(unsigned long long)it->grounded_at);
		else
			err |= BUF_LIT(b, ",\"grounded\":false}");
	}
	err |= BUF_LIT(b, "]}\n");
	return err ? -ENOMEM : 0;
}

int scan_json_summary(struct buf *b, const char *path, const struct scan_summary *s,
		      const struct ruleset *rs, const struct claims_verdict *cv, const char *error)
{
	size_t i;
	int err = 0;

	err |= BUF_LIT(b, "{\"type\":\"summary\",\"path\":");
	err |= emit_json_string(b, path, strlen(path));
	err |= buf_addf(b, ",\"bytes\":%llu,", (unsigned long long)s->bytes);
	if (s->encoding) {
		err |= BUF_LIT(b, "\"encoding\":");
		err |= emit_json_string(b, s->encoding, strlen(s->encoding));
		err |= buf_addf(b, ",\"replaced\":%llu,", (unsigned long long)s->replaced);
	}
	err |= buf_addf(b, "\"findings\":%llu,\"signals\":{", (unsigned long long)s->findings);
	for (i = 0; i < scan_n_signals(rs); i++)
		err |= buf_addf(b, "%s\"%s\":%llu", i ? "," : "", scan_signal_name(rs, i),
				(unsigned long long)s->signal_counts[i]);
	err |= buf_addc(b, '}');
	err |= buf_addf(b, ",\"verdict\":\"%s\",\"exempted\":%llu,\"grounded\":%llu,"
			"\"repeats\":%llu,\"spans\":%llu,\"unterminated_spans\":%llu",
			severity_name(s->verdict), (unsigned long long)s->exempted,
			(unsigned long long)s->grounded, (unsigned long long)s->repeats,
			(unsigned long long)s->spans, (unsigned long long)s->unterminated_spans);
	if (s->ground_evictions)
		err |= buf_addf(b, ",\"ground_evictions\":%llu",
				(unsigned long long)s->ground_evictions);
	if (cv) {
		err |= BUF_LIT(b, ",\"claims\":{");
		for (i = 0; i < CLAIM_LABELS; i++)
			err |= buf_addf(b, "%s\"%s\":%llu", i ? "," : "", claim_label_name((enum claim_label)i),
					(unsigned long long)s->claims[i]);
		if (cv->checked == 0)
			err |= BUF_LIT(b, "},\"unsupported_ratio\":0.0000,\"trust\":null,"
				       "\"claims_verdict\":\"unchecked\"");
		else
			err |= buf_addf(b, "},\"unsupported_ratio\":%.4f,\"trust\":%.4f,"
					"\"claims_verdict\":\"%s\"", cv->unsupported_ratio, cv->trust,
					cv->sufficient ? "sufficient" : "insufficient");
	}
	if (error) {
		err |= BUF_LIT(b, ",\"error\":");
		err |= emit_json_string(b, error, strlen(error));
	}
	if (s->limit_hits)
		err |= buf_addf(b, ",\"match_limit_hits\":%llu", (unsigned long long)s->limit_hits);
	err |= buf_addf(b, ",\"ruleset\":\"%.16s\",\"version\":\"%s\"}\n", rs->digest,
			HALLUSCAN_VERSION);
	return err ? -ENOMEM : 0;
}
