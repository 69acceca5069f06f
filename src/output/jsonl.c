// SPDX-License-Identifier: MIT
/* JSONL records of findings, claims and summaries. */
#include "jsonl.h"

#include <errno.h>
#include <string.h>

#include "common/emit.h"

/* ,"k": as one literal and its length: the key and value helpers' key */
#define KEY(k) ",\"" k "\":", sizeof(",\"" k "\":") - 1

/* ,"key":"v" */
static int field_str(struct buf *b, const char *key, size_t klen, const char *v, size_t n)
{
	return buf_add(b, key, klen) ? -ENOMEM : emit_json_string(b, v, n);
}

/* ,"key":"v" for text quoted from the input: a URL's credentials redacted */
static int field_quote(struct buf *b, const char *key, size_t klen, const char *v, size_t n)
{
	return buf_add(b, key, klen) ? -ENOMEM : emit_json_quote(b, v, n);
}

/* "00" to "99": a number's digits are written two to a division */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/*
 * ,"key":v, inline: the key's length is known where it is called, and a
 * finding has four or more numbers (a call to buf_add_u64() and two to
 * memcpy() each cost more than the writing).
 */
static inline int field_u64(struct buf *b, const char *key, size_t klen, uint64_t v)
{
	char d[40] = {0}; /* the digits end at d + 20; 20 bytes from the first are copied */
	size_t i = 20;

	for (; v >= 100; v /= 100) {
		i -= 2;
		memcpy(d + i, digit_pairs + 2 * (v % 100), 2);
	}
	if (v >= 10) {
		i -= 2;
		memcpy(d + i, digit_pairs + 2 * v, 2);
	} else {
		d[--i] = (char)('0' + v);
	}
	if (b->cap - b->len <= klen + 20 && grow(&b->data, &b->cap, b->len + klen + 21, 1) < 0)
		return -ENOMEM;
	memcpy(b->data + b->len, key, klen);
	memcpy(b->data + b->len + klen, d + i, 20);
	b->len += klen + 20 - i;
	b->data[b->len] = '\0';
	return 0;
}

/*
 * The record's start: {"type":"T","path":"P" and where it is in a
 * transcript. HEAD() gives the literal up to the path and its length.
 */
#define HEAD_LIT(type) "{\"type\":\"" type "\",\"path\":"
#define HEAD(type) HEAD_LIT(type), sizeof(HEAD_LIT(type)) - 1

static inline int head(struct jsonl *w, const char *start, size_t n)
{
	struct buf *b = &w->b;

	return buf_add(b, start, n) | emit_json_string(b, w->path, strlen(w->path)) |
	       (w->where ? buf_add(b, w->where, w->where_len) : 0);
}

/* Writes the first n bytes of w->b, whole records, and keeps the rest. */
static void write_out(struct jsonl *w, size_t n)
{
	if (w->err || n == 0)
		return;
	if (fwrite(w->b.data, 1, n, w->f) != n)
		w->err = errno ? errno : EIO;
	if (n < w->b.len)
		memmove(w->b.data, w->b.data + n, w->b.len - n);
	w->b.len -= n;
	w->held = 0;
}

int jsonl_flush(struct jsonl *w)
{
	if (w->err)
		return -w->err;
	if (w->b.len < w->hold) {
		w->held = (uint16_t)w->b.len;
		return 0;
	}
	write_out(w, w->b.len);
	return w->err ? -w->err : 0;
}

int jsonl_sync(struct jsonl *w)
{
	write_out(w, w->held);
	if (fflush(w->f) != 0 && !w->err)
		w->err = errno ? errno : EIO;
	return w->err ? -w->err : 0;
}

void jsonl_fini(struct jsonl *w)
{
	write_out(w, w->held);
	buf_free(&w->b);
}

int jsonl_also(struct buf *b, const struct halluscan_finding *f)
{
	size_t i;
	int err = 0;

	if (f->n_also == 0)
		return 0;
	err |= BUF_LIT(b, ",\"also\":[");
	for (i = 0; i < f->n_also; i++)
		err |= (i ? buf_addc(b, ',') : 0) | emit_json_string(b, f->also[i], strlen(f->also[i]));
	err |= buf_addc(b, ']');
	return err ? -ENOMEM : 0;
}

/* ,"reference":{...}: a bibliography entry's fields, those it has. */
static int reference(struct buf *b, const struct halluscan_reference *r)
{
	const struct {
		const char *key;
		size_t klen;
		const char *v;
		size_t n;
	} f[] = {
		{KEY("title"), r->title, r->title_len},   {KEY("authors"), r->authors, r->authors_len},
		{KEY("venue"), r->venue, r->venue_len},   {KEY("doi"), r->doi, r->doi_len},
		{KEY("arxiv"), r->arxiv, r->arxiv_len},   {KEY("isbn"), r->isbn, r->isbn_len},
		{KEY("url"), r->url, r->url_len},
	};
	const char *p;
	size_t i, k = 0;
	int err = 0;

	err |= BUF_LIT(b, ",\"reference\":{\"style\":") | emit_json_string(b, r->style, strlen(r->style));
	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (f[i].v)
			err |= field_quote(b, f[i].key, f[i].klen, f[i].v, f[i].n);
	if (r->year)
		err |= field_u64(b, KEY("year"), r->year);
	if (r->problems) {
		err |= BUF_LIT(b, ",\"problems\":[");
		for (i = 0; (p = halluscan_reference_problem((unsigned)i)); i++)
			if (r->problems & (1u << i))
				err |= (k++ ? buf_addc(b, ',') : 0) | emit_json_string(b, p, strlen(p));
		err |= buf_addc(b, ']');
	}
	err |= buf_addc(b, '}');
	return err ? -ENOMEM : 0;
}

int jsonl_finding(struct jsonl *w, const struct halluscan_finding *f, const char *fingerprint)
{
	struct buf *b = &w->b;
	int err = 0;

	err |= head(w, HEAD("finding"));
	err |= field_str(b, KEY("signal"), f->signal, strlen(f->signal));
	err |= jsonl_also(b, f);
	err |= field_str(b, KEY("rule"), f->rule, strlen(f->rule));
	err |= BUF_LIT(b, ",\"severity\":\"");
	err |= buf_adds(b, halluscan_severity_name(f->severity)) | BUF_LIT(b, "\"");
	if (f->trigger)
		err |= field_str(b, KEY("trigger"), f->trigger, strlen(f->trigger));
	err |= field_u64(b, KEY("start"), f->start);
	err |= field_u64(b, KEY("end"), f->end);
	err |= field_u64(b, KEY("line"), f->line);
	err |= field_u64(b, KEY("column"), f->column);
	err |= field_quote(b, KEY("text"), f->text, f->text_len);
	if (f->text_truncated)
		err |= BUF_LIT(b, ",\"text_truncated\":true");
	if (f->grounded)
		err |= BUF_LIT(b, ",\"grounded\":true") | field_u64(b, KEY("grounded_at"), f->grounded_at);
	if (f->source)
		err |= field_quote(b, KEY("source"), f->source, strlen(f->source)) |
		       field_u64(b, KEY("source_at"), f->source_at);
	if (f->reference)
		err |= reference(b, f->reference);
	if (fingerprint)
		err |= field_str(b, KEY("fingerprint"), fingerprint, strlen(fingerprint));
	err |= field_quote(b, KEY("message"), f->message, strlen(f->message));
	err |= field_quote(b, KEY("recovery"), f->recovery, strlen(f->recovery));
	err |= BUF_LIT(b, "}\n");
	return err ? -ENOMEM : jsonl_flush(w);
}

int jsonl_claim(struct jsonl *w, const struct halluscan_claim *c)
{
	int err = jsonl_claim_add(w, c);

	return err ? err : jsonl_flush(w);
}

int jsonl_claim_add(struct jsonl *w, const struct halluscan_claim *c)
{
	struct buf *b = &w->b;
	size_t i;
	int err = 0;

	err |= head(w, HEAD("claim"));
	err |= field_u64(b, KEY("start"), c->start) | field_u64(b, KEY("end"), c->end);
	err |= BUF_LIT(b, ",\"label\":\"") | buf_adds(b, halluscan_claim_label_name(c->label)) |
	       buf_addc(b, '"');
	err |= field_quote(b, KEY("text"), c->text, c->text_len);
	err |= BUF_LIT(b, ",\"items\":[");
	for (i = 0; i < c->n_items; i++) {
		const struct halluscan_claim_item *it = c->items[i];

		err |= buf_adds(b, i ? ",{\"rule\":" : "{\"rule\":");
		err |= emit_json_string(b, it->rule, strlen(it->rule));
		err |= field_u64(b, KEY("start"), it->start) | field_u64(b, KEY("end"), it->end);
		err |= field_quote(b, KEY("text"), it->text, it->text_len);
		if (it->grounded)
			err |= BUF_LIT(b, ",\"grounded\":true") |
			       field_u64(b, KEY("grounded_at"), it->grounded_at) | buf_addc(b, '}');
		else
			err |= BUF_LIT(b, ",\"grounded\":false}");
	}
	err |= BUF_LIT(b, "]}\n");
	return err ? -ENOMEM : 0;
}

int jsonl_summary(struct jsonl *w, const struct halluscan_summary *s,
		  const struct jsonl_input *in)
{
	struct buf *b = &w->b;
	size_t i;
	int err = 0;

	err |= head(w, HEAD("summary"));
	err |= field_u64(b, KEY("bytes"), s->bytes);
	if (in && in->encoding)
		err |= field_str(b, KEY("encoding"), in->encoding, strlen(in->encoding)) |
		       field_u64(b, KEY("replaced"), in->replaced);
	err |= field_u64(b, KEY("findings"), s->findings);
	err |= BUF_LIT(b, ",\"signals\":{");
	for (i = 0; i < s->n_signals; i++)
		err |= buf_addf(b, "%s\"%s\":%llu", i ? "," : "",
				halluscan_rules_signal(w->rules, i),
				(unsigned long long)s->signal_counts[i]);
	err |= buf_addc(b, '}');
	err |= buf_addf(b, ",\"verdict\":\"%s\"", halluscan_severity_name(s->verdict));
	err |= field_u64(b, KEY("exempted"), s->exempted) | field_u64(b, KEY("grounded"), s->grounded) |
	       field_u64(b, KEY("repeats"), s->repeats) | field_u64(b, KEY("spans"), s->spans) |
	       field_u64(b, KEY("unterminated_spans"), s->unterminated_spans);
	if (s->ground_evictions)
		err |= field_u64(b, KEY("ground_evictions"), s->ground_evictions);
	if (s->pressure)
		err |= BUF_LIT(b, ",\"pressure\":true");
	if (in && (in->suppressed_inline || in->suppressed_baseline || in->suppressed_code))
		err |= buf_addf(b, ",\"suppressed\":{\"inline\":%llu,\"baseline\":%llu,\"code\":%llu}",
				(unsigned long long)in->suppressed_inline,
				(unsigned long long)in->suppressed_baseline,
				(unsigned long long)in->suppressed_code);
	if (s->claims) {
		err |= BUF_LIT(b, ",\"claims\":{");
		for (i = 0; i < HALLUSCAN_CLAIM_LABELS; i++)
			err |= buf_addf(b, "%s\"%s\":%llu", i ? "," : "",
					halluscan_claim_label_name((enum halluscan_claim_label)i),
					(unsigned long long)s->claims[i]);
		/* Nothing checked: no trust figure, and the verdict says why. */
		if (s->claims_checked == 0)
			err |= BUF_LIT(b, "},\"unsupported_ratio\":0.0000,\"trust\":null,"
				       "\"claims_verdict\":\"unchecked\"");
		else
			err |= buf_addf(b, "},\"unsupported_ratio\":%.4f,\"trust\":%.4f,"
					"\"claims_verdict\":\"%s\"", s->unsupported_ratio, s->trust,
					s->claims_sufficient ? "sufficient" : "insufficient");
	}
	if (in && in->error)
		err |= field_str(b, KEY("error"), in->error, strlen(in->error));
	if (s->match_limit_hits)
		err |= field_u64(b, KEY("match_limit_hits"), s->match_limit_hits);
	err |= buf_addf(b, ",\"ruleset\":\"%.16s\",\"version\":\"%s\"}\n",
			halluscan_rules_digest(w->rules), halluscan_version());
	return err ? -ENOMEM : jsonl_flush(w);
}
