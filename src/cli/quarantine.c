// SPDX-License-Identifier: MIT
/* --quarantine: whole sentences dropped from the text, and the record of why. */
#include "quarantine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/emit.h"
#include "output/jsonl.h"

/* A piece of a sentence (cut: the next piece goes on with it). */
struct qsent {
	uint64_t start, end;
	bool cut;
	int label;
};

/* A finding at or above drop_at, until its sentence is decided. */
struct qfind {
	uint64_t start, end;
	enum halluscan_severity severity;
	bool code;
	char *rule, *signal;
};

/* The worst first: what a sentence of several pieces is labelled. */
static int worse(int a, int b)
{
	static const int rank[HALLUSCAN_CLAIM_LABELS] = {
		[HALLUSCAN_CLAIM_UNCHECKED] = 0, [HALLUSCAN_CLAIM_SUPPORTED] = 1,
		[HALLUSCAN_CLAIM_PARTIAL] = 2, [HALLUSCAN_CLAIM_UNSUPPORTED] = 3,
	};

	if (a < 0)
		return b;
	return rank[b] > rank[a] ? b : a;
}

void quarantine_begin(struct quarantine *q)
{
	size_t i;

	q->held.len = q->skip = 0;
	q->held_at = q->fed = 0;
	q->overflow = q->skip_blanks = false;
	q->n_sent = q->sent_head = 0;
	for (i = 0; i < q->n_find; i++) {
		free(q->find[i].rule);
		free(q->find[i].signal);
	}
	q->n_find = 0;
	q->dropped.len = q->stuck.len = 0;
	q->n = (struct disposition_counts){0};
	q->sentences = q->bytes_out = 0;
	q->group_label = -1;
	q->err = 0;
	sha256_init(&q->in_hash);
	sha256_init(&q->out_hash);
}

static int put(struct quarantine *q, const char *p, size_t n)
{
	if (n == 0)
		return 0;
	sha256_update(&q->out_hash, p, n);
	q->bytes_out += n;
	if (fwrite(p, 1, n, q->text) != n && !q->err)
		q->err = errno ? errno : EIO;
	return q->err ? -q->err : 0;
}

static const char *sev_name(enum halluscan_severity s)
{
	return halluscan_severity_name(s);
}

/* Writes a record built in b to the output as it is decided: nothing grows with the input. */
static int record(struct quarantine *q, struct buf *b)
{
	int err = buf_add(&q->out->b, b->data, b->len);

	b->len = 0;
	return err ? -ENOMEM : jsonl_flush(q->out);
}

/* A failure that cannot be dropped: a "stuck" record. */
static int stuck(struct quarantine *q, const struct qfind *f, uint64_t start, uint64_t end,
		 const char *why)
{
	struct buf *b = &q->stuck;
	int err = 0;

	q->n.stuck++;
	b->len = 0;
	err |= BUF_LIT(b, "{\"type\":\"stuck\",\"path\":");
	err |= emit_json_string(b, q->out->path, strlen(q->out->path));
	err |= BUF_LIT(b, ",\"start\":") | buf_add_u64(b, start);
	err |= BUF_LIT(b, ",\"end\":") | buf_add_u64(b, end);
	if (f) {
		err |= BUF_LIT(b, ",\"rule\":") | emit_json_string(b, f->rule, strlen(f->rule));
		err |= BUF_LIT(b, ",\"signal\":") | emit_json_string(b, f->signal, strlen(f->signal));
		err |= buf_addf(b, ",\"severity\":\"%s\"", sev_name(f->severity));
	}
	err |= BUF_LIT(b, ",\"why\":") | emit_json_string(b, why, strlen(why));
	err |= BUF_LIT(b, "}\n");
	return err ? -ENOMEM : record(q, b);
}

static void forget(struct quarantine *q, size_t i)
{
	free(q->find[i].rule);
	free(q->find[i].signal);
	memmove(q->find + i, q->find + i + 1, (q->n_find - i - 1) * sizeof(*q->find));
	q->n_find--;
}

/* Past the window: the input is held, and nothing more of it is written. */
static int overflow(struct quarantine *q)
{
	size_t i;
	int err;

	err = stuck(q, NULL, q->held_at, q->fed, "more than the window (1 MiB) of text waited "
		    "for its sentence to be decided: a sentence or tool span too long to hold");
	q->overflow = true;
	q->held_at = q->fed;
	q->held.len = q->skip = 0;
	q->n_sent = q->sent_head = 0;
	for (i = q->n_find; i > 0; i--)
		forget(q, i - 1);
	return err;
}

int quarantine_text(struct quarantine *q, const char *text, size_t len)
{
	sha256_update(&q->in_hash, text, len);
	q->fed += len;
	if (q->overflow) {
		q->held_at = q->fed;
		return 0;
	}
	if (q->held.len - q->skip + len > QUARANTINE_WINDOW)
		return overflow(q);
	/* What was consumed goes once per read, not once per sentence. */
	if (q->skip) {
		memmove(q->held.data, q->held.data + q->skip, q->held.len - q->skip);
		q->held.len -= q->skip;
		q->skip = 0;
	}
	return buf_add(&q->held, text, len) < 0 ? -ENOMEM : 0;
}

int quarantine_finding(struct quarantine *q, const struct halluscan_finding *f, bool code)
{
	enum halluscan_severity at = q->drop_at == HALLUSCAN_FAIL_ON_WARN ? HALLUSCAN_WARN
									  : HALLUSCAN_BLOCK;
	struct qfind *n;

	if (q->drop_at == HALLUSCAN_FAIL_ON_NEVER || f->grounded || f->severity < at ||
	    q->overflow)
		return 0;
	if (grow(&q->find, &q->cap_find, q->n_find + 1, sizeof(*q->find)) < 0)
		return -ENOMEM;
	n = &q->find[q->n_find];
	*n = (struct qfind){.start = f->start, .end = f->end, .severity = f->severity,
			    .code = code, .rule = xstrndup(f->rule, strlen(f->rule)),
			    .signal = xstrndup(f->signal, strlen(f->signal))};
	if (!n->rule || !n->signal) {
		free(n->rule);
		free(n->signal);
		return -ENOMEM;
	}
	q->n_find++;
	return 0;
}

int quarantine_sentence(struct quarantine *q, const struct halluscan_claim *c)
{
	if (q->overflow)
		return 0;
	if (q->sent_head && q->n_sent == q->cap_sent) {
		memmove(q->sent, q->sent + q->sent_head, (q->n_sent - q->sent_head) * sizeof(*q->sent));
		q->n_sent -= q->sent_head;
		q->sent_head = 0;
	}
	if (grow(&q->sent, &q->cap_sent, q->n_sent + 1, sizeof(*q->sent)) < 0)
		return -ENOMEM;
	q->sent[q->n_sent++] = (struct qsent){.start = c->start, .end = c->end, .cut = c->cut,
					      .label = (int)c->label};
	return 0;
}

/* Writes the held bytes up to offset to, the blanks after a dropped sentence skipped. */
static int write_gap(struct quarantine *q, uint64_t to)
{
	const char *p = q->held.data + q->skip;
	size_t n = (size_t)(to - q->held_at), i = 0;

	if (q->skip_blanks) {
		while (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i < n)
			q->skip_blanks = false;
	}
	return put(q, p + i, n - i);
}

/* Lets go of the held bytes before offset to. */
static void consume(struct quarantine *q, uint64_t to)
{
	q->skip += (size_t)(to - q->held_at);
	q->held_at = to;
}

/* The sentence of pieces sent[sent_head..last]: written whole, or dropped whole. */
static int decide(struct quarantine *q, size_t last)
{
	uint64_t start = q->sent[q->sent_head].start, end = q->sent[last].end;
	struct buf *b = &q->dropped;
	size_t i, found = 0;
	int label = -1, err = 0;
	const char *sent;

	for (i = q->sent_head; i <= last; i++)
		label = worse(label, q->sent[i].label);
	q->sentences++;
	err = write_gap(q, start);
	consume(q, start);
	sent = q->held.data + q->skip;
	for (i = 0; i < q->n_find && err == 0;) {
		struct qfind *f = &q->find[i];

		if (f->start >= end) {
			i++;
			continue;
		}
		if (f->start < start)
			err = stuck(q, f, f->start, f->end, "outside any sentence (a tool span, "
				    "a delimiter, or white space)");
		else if (f->code)
			err = stuck(q, f, f->start, f->end, "in Markdown code, which is never cut");
		else {
			if (found++ == 0) {
				unsigned char h[32];
				char hex[65];
				struct sha256 s;

				sha256_init(&s);
				sha256_update(&s, sent, (size_t)(end - start));
				sha256_final(&s, h);
				sha256_hex(h, hex);
				b->len = 0;
				err |= BUF_LIT(b, "{\"type\":\"dropped\",\"path\":");
				err |= emit_json_string(b, q->out->path, strlen(q->out->path));
				err |= BUF_LIT(b, ",\"start\":") | buf_add_u64(b, start);
				err |= BUF_LIT(b, ",\"end\":") | buf_add_u64(b, end);
				err |= buf_addf(b, ",\"claim_sha256\":\"%s\",\"passage_sha256\":null", hex);
				err |= BUF_LIT(b, ",\"claim\":");
				err |= emit_json_quote(b, sent, (size_t)(end - start));
				err |= BUF_LIT(b, ",\"findings\":[");
			} else {
				err |= BUF_LIT(b, ",");
			}
			err |= BUF_LIT(b, "{\"rule\":") | emit_json_string(b, f->rule, strlen(f->rule));
			err |= BUF_LIT(b, ",\"signal\":") |
			       emit_json_string(b, f->signal, strlen(f->signal));
			err |= buf_addf(b, ",\"severity\":\"%s\",\"start\":", sev_name(f->severity));
			err |= buf_add_u64(b, f->start) | BUF_LIT(b, ",\"end\":") | buf_add_u64(b, f->end);
			err |= BUF_LIT(b, "}");
			err = err ? -ENOMEM : 0;
		}
		forget(q, i);
	}
	if (err)
		return err < 0 ? err : -ENOMEM;
	if (found) {
		if (BUF_LIT(b, "]}\n") < 0)
			return -ENOMEM;
		err = record(q, b);
		if (err)
			return err;
		q->n.fails++;
		q->n.total++;
		q->skip_blanks = true;
	} else {
		err = put(q, sent, (size_t)(end - start));
		/* Only the blanks right after a dropped sentence go with it. */
		q->skip_blanks = false;
		if (q->labels && label >= 0 && label != HALLUSCAN_CLAIM_UNCHECKED) {
			q->n.total++;
			q->n.supports += label == HALLUSCAN_CLAIM_SUPPORTED;
			q->n.partial += label == HALLUSCAN_CLAIM_PARTIAL;
		}
	}
	consume(q, end);
	q->sent_head = last + 1;
	if (q->sent_head == q->n_sent)
		q->n_sent = q->sent_head = 0;
	return err;
}

int quarantine_advance(struct quarantine *q, uint64_t bound)
{
	int err = 0;

	while (!q->overflow && err == 0) {
		size_t last;

		for (last = q->sent_head; last < q->n_sent && q->sent[last].cut; last++)
			;
		if (last == q->n_sent) {
			if (bound != UINT64_MAX || q->n_sent == q->sent_head)
				break;
			last = q->n_sent - 1; /* the input ended inside a cut sentence */
		}
		if (q->sent[last].end > bound)
			break;
		err = decide(q, last);
	}
	if (err == 0 && q->line_buffered && fflush(q->text) != 0)
		err = -(q->err = errno);
	return err;
}

int quarantine_end(struct quarantine *q, const char *path, struct buf *b, enum disposition *d)
{
	unsigned char h[32];
	char in[65], out[65];
	const char *why;
	int err = quarantine_advance(q, UINT64_MAX);
	size_t i;

	if (err == 0 && !q->overflow) {
		err = write_gap(q, q->fed);
		consume(q, q->fed);
	}
	for (i = 0; i < q->n_find && err == 0; i++)
		err = stuck(q, &q->find[i], q->find[i].start, q->find[i].end,
			    "outside any sentence (a tool span, a delimiter, or white space)");
	while (q->n_find)
		forget(q, q->n_find - 1);
	if (err == 0 && fflush(q->text) != 0)
		err = -(q->err = errno);
	if (err)
		return err;
	*d = policy_disposition(&q->rule, &q->n, &why);
	sha256_final(&q->in_hash, h);
	sha256_hex(h, in);
	sha256_final(&q->out_hash, h);
	sha256_hex(h, out);
	err |= BUF_LIT(b, "{\"type\":\"quarantine\",\"path\":") | emit_json_string(b, path, strlen(path));
	err |= buf_addf(b, ",\"disposition\":\"%s\",\"why\":\"%s\"", disposition_name(*d), why);
	err |= buf_addf(b, ",\"rule\":{\"drop_at\":\"%s\",\"min_support\":%g,\"partial_allowance\":%g}",
			q->drop_at == HALLUSCAN_FAIL_ON_WARN ? "warn"
			: q->drop_at == HALLUSCAN_FAIL_ON_NEVER ? "never" : "block",
			q->rule.min_support, q->rule.partial_allowance);
	err |= BUF_LIT(b, ",\"sentences\":") | buf_add_u64(b, q->sentences);
	err |= buf_addf(b, ",\"claims\":{\"total\":%llu,\"supports\":%llu,\"partial\":%llu,"
			"\"fails\":%llu,\"stuck\":%llu}", (unsigned long long)q->n.total,
			(unsigned long long)q->n.supports, (unsigned long long)q->n.partial,
			(unsigned long long)q->n.fails, (unsigned long long)q->n.stuck);
	err |= BUF_LIT(b, ",\"bytes_in\":") | buf_add_u64(b, q->fed);
	err |= BUF_LIT(b, ",\"bytes_out\":") | buf_add_u64(b, q->bytes_out);
	err |= buf_addf(b, ",\"input_sha256\":\"%s\",\"output_sha256\":\"%s\"", in, out);
	err |= BUF_LIT(b, "}\n");
	return err ? -ENOMEM : 0;
}

void quarantine_fini(struct quarantine *q)
{
	while (q->n_find)
		forget(q, q->n_find - 1);
	free(q->find);
	free(q->sent);
	buf_free(&q->held);
	buf_free(&q->dropped);
	buf_free(&q->stuck);
}
