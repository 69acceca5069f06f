// SPDX-License-Identifier: MIT
/*
 * JSONL in: --input chat (agent transcripts, input/chat.c) and --records
 * (any JSONL, each line annotated), on one thread or on -j N (jobs.c).
 *
 * Each message is one input of the scanner: its findings' offsets, lines
 * and columns are inside the message's text. Before a conversation the
 * scanner is reset, so nothing of one conversation grounds another; tool
 * results ground, as do user and system text (as the prompt), what comes
 * after them. A record (--records) is a conversation of its own, so lines
 * can be split across processes and threads without changing a byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/api.h"
#include "cli.h"
#include "common/emit.h"
#include "common/json.h"
#include "input/chat.h"
#include "jobs.h"
#include "report.h"
#include "scratchpad.h"

/* A batch of records for -j N: enough to keep the threads busy, small enough to hold. */
#define BATCH_LINES 2048
#define BATCH_BYTES ((size_t)4 << 20)

/*
 * A record's findings held to write its line: past this many bytes of
 * them, the rest are not held but written by scanning the record again
 * once the verdict (the member's first value) has been written. A record
 * as dense in findings as text can be (a URL every 20 bytes: each finding's
 * JSON is ~24 times its text) then peaks at ~2 times its size, not ~50.
 */
#define RECORD_LIST_HOLD ((size_t)1 << 20)
/* The second scan writes its findings in pieces of this size. */
#define RECORD_LIST_PIECE ((size_t)64 << 10)

struct source_text {
	char *text;
	size_t len;
	enum halluscan_grounding kind;
};

/* Several messages' summaries as one conversation's. */
struct agg {
	struct halluscan_summary s;
	uint64_t *counts;      /* per signal */
	uint64_t claims[HALLUSCAN_CLAIM_LABELS];
	size_t messages;
};

struct batch {
	struct buf text;       /* the lines, one after another */
	size_t *off, *len;     /* line i: text.data + off[i], len[i] bytes */
	bool *too_long;
	size_t n, cap;
	uint64_t first;        /* the line number of line 0 */
};

struct stream;

struct worker {
	struct stream *st;
	struct halluscan_scanner *sc;
	struct jsonl out;
	struct buf scratch;    /* a message's text parts, joined */
	struct buf ann;        /* --records: the findings, as a JSON array's items */
	struct buf where;      /* the members that say where a record is */
	struct agg agg;
	struct out_message msg; /* where w->where says, for the other formats */
	size_t n_ann;          /* findings of the record so far */
	size_t listed;         /* of them, in ann when it reached RECORD_LIST_HOLD */
	bool over;             /* ann reached RECORD_LIST_HOLD: the rest come from a rescan */
	bool rescan;           /* the second scan: the first listed were written */
	uint64_t record;       /* the line being read */
	int err;               /* a fatal error seen in a callback */
	char why[256];         /* what is wrong with a record */
	size_t replaced;       /* --records: what of the record became U+FFFD */
	/* For the run's end. */
	size_t malformed;
	size_t replacing;      /* records with something replaced */
	size_t lone;           /* --records: lines that are one message of a conversation */
	uint64_t limit_hits;
	bool failed;
};

struct stream {
	const struct stream_options *o;
	size_t n_signals;
	struct source_text *sources;
	size_t n_sources;
	struct worker *w;      /* o->jobs of them */
	struct jobs *jobs;
	struct batch batch;
	char *const *files;    /* for -j over files */
	const char *name;      /* the input being read */
	uint64_t *unit_line;   /* -j over files: the line each file's run ended on */
	/* Where the run ended on an error that ends it (out of memory). */
	const char *fail_path;
	uint64_t fail_line;
	/* --input chat in text, SARIF or github (one thread): w[0]'s writer. */
	struct report rep;
	bool reporting;
};

/* ---- a conversation's summary ---- */

static void agg_begin(struct agg *a, size_t n_signals)
{
	memset(a->counts, 0, n_signals * sizeof(*a->counts));
	memset(a->claims, 0, sizeof(a->claims));
	a->s = (struct halluscan_summary){.n_signals = n_signals, .signal_counts = a->counts};
	a->messages = 0;
}

static void agg_add(struct agg *a, const struct halluscan_summary *s)
{
	size_t i;

	a->s.bytes += s->bytes;
	a->s.findings += s->findings;
	if (s->verdict > a->s.verdict)
		a->s.verdict = s->verdict;
	for (i = 0; i < a->s.n_signals && i < s->n_signals; i++)
		a->counts[i] += s->signal_counts[i];
	a->s.exempted += s->exempted;
	a->s.grounded += s->grounded;
	a->s.repeats += s->repeats;
	a->s.ground_evictions += s->ground_evictions;
	a->s.spans += s->spans;
	a->s.unterminated_spans += s->unterminated_spans;
	a->s.match_limit_hits += s->match_limit_hits;
	a->s.pressure |= s->pressure;
	if (s->claims) {
		for (i = 0; i < HALLUSCAN_CLAIM_LABELS; i++)
			a->claims[i] += s->claims[i];
		a->s.claims = a->claims;
	}
}

/* The verdicts of the whole, as the library decides them for one input. */
static void agg_end(struct agg *a, const struct stream_options *o)
{
	struct halluscan_summary *s = &a->s;
	enum halluscan_severity at;

	if (s->claims) {
		uint64_t sup = a->claims[HALLUSCAN_CLAIM_SUPPORTED];
		uint64_t uns = a->claims[HALLUSCAN_CLAIM_UNSUPPORTED];

		s->claims_checked = sup + a->claims[HALLUSCAN_CLAIM_PARTIAL] + uns;
		s->unsupported_ratio = s->claims_checked ? (double)uns / (double)s->claims_checked : 0;
		s->trust = s->claims_checked ? (double)sup / (double)s->claims_checked : 1;
		s->claims_sufficient = s->unsupported_ratio <= o->so.max_unsupported_ratio;
	}
	s->failed = false;
	if (o->so.fail_on != HALLUSCAN_FAIL_ON_NEVER) {
		at = o->so.fail_on == HALLUSCAN_FAIL_ON_WARN ? HALLUSCAN_WARN : HALLUSCAN_BLOCK;
		s->failed = s->verdict >= at || (s->claims && !s->claims_sufficient);
	}
}

/* ---- findings ---- */

/* A string from a record (a role, a field's name): U+FFFD for what is no UTF-8. */
static int member_str(struct buf *b, const char *key, const char *v, size_t n)
{
	int err = BUF_LIT(b, ",\"") | buf_adds(b, key) | BUF_LIT(b, "\":");

	return err ? -ENOMEM : emit_json_string_utf8(b, v, n, NULL);
}

/* Text quoted from a record: also a URL's credentials redacted. */
static int member_quote(struct buf *b, const char *key, const char *v, size_t n)
{
	int err = BUF_LIT(b, ",\"") | buf_adds(b, key) | BUF_LIT(b, "\":");

	return err ? -ENOMEM : emit_json_quote_utf8(b, v, n, NULL);
}

static int member_u64(struct buf *b, const char *key, uint64_t v)
{
	return BUF_LIT(b, ",\"") | buf_adds(b, key) | BUF_LIT(b, "\":") | buf_add_u64(b, v);
}

/* Writes p straight to the output, after what w->out holds. */
static int out_write(struct worker *w, const void *p, size_t n)
{
	int err = jsonl_flush(&w->out);

	if (err == 0 && n && fwrite(p, 1, n, w->out.f) != n)
		err = w->out.err = errno ? errno : EIO;
	return err > 0 ? -err : err;
}

/* The findings in ann, written and let go. */
static int out_ann(struct worker *w)
{
	int err = out_write(w, w->ann.data, w->ann.len);

	w->ann.len = 0;
	return err;
}

/* A finding inside a record's annotation: the finding record's members
 * but type and path (a record is not a file). */
static int annotate_finding(struct worker *w, const struct halluscan_finding *f)
{
	struct buf *b = &w->ann;
	int err = 0;

	if (w->rescan && w->n_ann < w->listed) {
		w->n_ann++; /* written from the first scan */
		return 0;
	}
	if (w->over && !w->rescan) {
		w->n_ann++;
		return 0;
	}
	err |= buf_adds(b, w->n_ann++ ? ",{\"signal\":" : "{\"signal\":");
	err |= emit_json_string(b, f->signal, strlen(f->signal));
	err |= jsonl_also(b, f);
	if (w->where.len)
		err |= buf_add(b, w->where.data, w->where.len);
	err |= member_str(b, "rule", f->rule, strlen(f->rule));
	err |= BUF_LIT(b, ",\"severity\":\"") | buf_adds(b, halluscan_severity_name(f->severity)) |
	       buf_addc(b, '"');
	if (f->trigger)
		err |= member_str(b, "trigger", f->trigger, strlen(f->trigger));
	err |= member_u64(b, "start", f->start) | member_u64(b, "end", f->end);
	err |= member_u64(b, "line", f->line) | member_u64(b, "column", f->column);
	err |= member_quote(b, "text", f->text, f->text_len);
	if (f->text_truncated)
		err |= BUF_LIT(b, ",\"text_truncated\":true");
	if (f->grounded)
		err |= BUF_LIT(b, ",\"grounded\":true") | member_u64(b, "grounded_at", f->grounded_at);
	if (f->source)
		err |= member_quote(b, "source", f->source, strlen(f->source)) |
		       member_u64(b, "source_at", f->source_at);
	err |= member_quote(b, "message", f->message, strlen(f->message));
	err |= member_quote(b, "recovery", f->recovery, strlen(f->recovery));
	err |= buf_addc(b, '}');
	if (err)
		return -ENOMEM;
	if (w->rescan && b->len >= RECORD_LIST_PIECE)
		return out_ann(w);
	if (!w->rescan && b->len >= RECORD_LIST_HOLD) {
		w->over = true;
		w->listed = w->n_ann;
	}
	return 0;
}

static int stream_finding(void *ctx, const struct halluscan_finding *f)
{
	struct worker *w = ctx;

	if (w->st->o->records)
		return annotate_finding(w, f);
	return w->st->reporting ? report_message_finding(&w->st->rep, f)
				: jsonl_finding(&w->out, f, NULL);
}

static int stream_claim(void *ctx, const struct halluscan_claim *c)
{
	struct worker *w = ctx;

	/* Claims are records of JSONL only, as for plain text. */
	return w->st->reporting ? 0 : jsonl_claim(&w->out, c);
}

/* ---- conversations ---- */

/* Whether --pressure was given: a conversation starts as it says. */
static bool pressed(const struct worker *w)
{
	return (w->st->o->so.flags & HALLUSCAN_SCAN_PRESSURE) != 0;
}

/*
 * A line's context_health (its own member, or its metadata's): the compact
 * zone or beyond puts the rest of the conversation under pressure, a zone
 * before it takes it off again (unless --pressure), a value that is no
 * zone halluscan knows puts it on.
 */
static int health(struct worker *w, const struct json_value *v)
{
	const struct json_value *h = json_get(v, "context_health");
	enum scratchpad_health k;
	const char *zone;

	if (!h)
		h = json_get(json_get(v, "metadata"), "context_health");
	k = scratchpad_health_value(h, &zone);
	if (k == HEALTH_ABSENT)
		return 0;
	return api_scanner_pressure(w->sc, pressed(w) || k != HEALTH_CALM);
}

/* A new conversation: no grounding but --source files. */
static int conversation_begin(struct worker *w)
{
	struct stream *st = w->st;
	size_t i;
	int err = halluscan_scanner_reset(w->sc, 0);

	if (!err)
		err = api_scanner_pressure(w->sc, pressed(w));
	for (i = 0; i < st->n_sources && !err; i++)
		err = halluscan_scanner_add_grounding(w->sc, st->sources[i].kind,
						      st->sources[i].text, st->sources[i].len);
	agg_begin(&w->agg, st->n_signals);
	w->n_ann = 0;
	w->ann.len = 0;
	w->over = false;
	return err;
}

/* Scans one text as an input; its findings say where through w->where. */
static int scan_text(struct worker *w, const char *text, size_t n)
{
	const struct halluscan_summary *s;
	int err = halluscan_scanner_feed(w->sc, text, n);

	if (err == 0)
		err = halluscan_scanner_end(w->sc, &s);
	if (err)
		return w->err ? w->err : err;
	agg_add(&w->agg, s);
	return 0;
}

/* ,"record":R (transcripts only: a record's place is not its own to say) */
static int set_where(struct worker *w, const struct chat_part *p)
{
	struct buf *b = &w->where;
	int err = 0;

	b->len = 0;
	if (!w->st->o->records)
		err |= member_u64(b, "record", w->record);
	err |= member_u64(b, "message_index", p->message);
	err |= member_str(b, "role", p->role, strlen(p->role));
	w->out.where = b->data;
	w->out.where_len = b->len;
	w->msg = (struct out_message){.record = w->record, .index = p->message, .role = p->role};
	w->out.message = &w->msg;
	return err ? -ENOMEM : 0;
}

static int on_part(void *ctx, const struct chat_part *p)
{
	struct worker *w = ctx;
	int err;

	switch (p->kind) {
	case CHAT_TOOL:
		return halluscan_scanner_add_grounding(w->sc, HALLUSCAN_GROUND_TOOL, p->text, p->len);
	case CHAT_PROMPT:
		return halluscan_scanner_add_grounding(w->sc, HALLUSCAN_GROUND_PROMPT, p->text, p->len);
	case CHAT_SCAN:
		err = set_where(w, p);
		return err ? err : scan_text(w, p->text, p->len);
	}
	return 0;
}

/* Ends a transcript's conversation: its summary, from its first line. */
static int conversation_end(struct worker *w, uint64_t first)
{
	struct buf *b = &w->where;
	const struct halluscan_summary *s = &w->agg.s;
	int err;

	agg_end(&w->agg, w->st->o);
	b->len = 0;
	if (member_u64(b, "record", first) | member_u64(b, "messages", w->agg.messages))
		return -ENOMEM;
	w->out.where = b->data;
	w->out.where_len = b->len;
	w->out.message = NULL;
	/* The other formats have no summaries: the exit status is the verdict. */
	err = w->st->reporting ? 0 : jsonl_summary(&w->out, s, NULL);
	w->out.where = NULL;
	w->limit_hits += s->match_limit_hits;
	if (s->failed)
		w->failed = true;
	return err;
}

/* An error record of a transcript: {"type":"error","path":..,"record":N,"message":..}. */
static int transcript_error(struct worker *w, const char *why)
{
	struct buf *b = &w->out.b;
	int err;

	if (w->st->reporting) {
		w->malformed++;
		if (w->st->o->format == OUT_TEXT)
			cli_warn("%s:%llu: %s", w->out.path, (unsigned long long)w->record, why);
		return report_record_error(&w->st->rep, w->out.path, w->record, why);
	}
	err = BUF_LIT(b, "{\"type\":\"error\",\"path\":") |
		  emit_json_string(b, w->out.path, strlen(w->out.path)) |
		  member_u64(b, "record", w->record) | member_str(b, "message", why, strlen(why)) |
		  BUF_LIT(b, "}\n");

	w->malformed++;
	return err ? -ENOMEM : jsonl_flush(&w->out);
}

static void parse_error(const struct json_error *je, char *msg, size_t n)
{
	snprintf(msg, n, "not JSON: %s at byte %zu", je->msg, je->offset);
}

static void too_long(size_t len, char *msg, size_t n)
{
	snprintf(msg, n, "the line is %zu bytes, longer than the %zu MiB a record may be", len,
		 RECORD_MAX >> 20);
}

/* The state of a transcript read message by message. */
struct convo {
	bool open;
	uint64_t first;        /* its first line */
	struct buf key;        /* the conversation key of its last keyed line */
	bool keyed;
	struct chat_calls calls; /* its tool calls awaiting their results */
};

static int convo_close(struct worker *w, struct convo *c)
{
	if (!c->open)
		return 0;
	c->open = false;
	c->keyed = false;
	chat_calls_clear(&c->calls);
	return conversation_end(w, c->first);
}

/* One line of a transcript (--input chat without --records). */
static int transcript_line(struct worker *w, struct convo *c, const char *line, size_t n,
			   bool long_line)
{
	const struct json_value *msg;
	struct json_value *v = NULL;
	struct json_error je;
	struct chat_error ce;
	char text[160];
	size_t kf, kt;
	int err = 0;

	if (long_line) {
		too_long(n, text, sizeof(text));
		return transcript_error(w, text);
	}
	if (strspn(line, " \t\r") == n)
		return convo_close(w, c); /* a blank line ends a conversation */
	err = json_parse(line, n, &v, &je);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		parse_error(&je, text, sizeof(text));
		return transcript_error(w, text);
	}
	switch (chat_classify(v, &msg, &ce)) {
	case CHAT_CONVERSATION:
		err = convo_close(w, c);
		if (!err)
			err = conversation_begin(w);
		if (!err)
			err = health(w, v);
		if (!err)
			err = chat_conversation(v, &w->scratch, on_part, w, &w->agg.messages, &ce);
		/* A line with an unreadable message gets no summary: a verdict
		 * on part of it would read as one on all of it. The error takes
		 * its place, after the findings of the messages before. */
		if (err == -EBADMSG)
			err = transcript_error(w, ce.why);
		else if (!err)
			err = conversation_end(w, w->record);
		break;
	case CHAT_MESSAGE:
		if (chat_conversation_key(v, &kf, &kt)) {
			if (c->open && c->keyed &&
			    (c->key.len != kt - kf || memcmp(c->key.data, line + kf, kt - kf) != 0))
				err = convo_close(w, c);
			c->key.len = 0;
			if (!err && buf_add(&c->key, line + kf, kt - kf) < 0)
				err = -ENOMEM;
			c->keyed = true;
		}
		if (!err && !c->open) {
			err = conversation_begin(w);
			c->open = true;
			c->first = w->record;
		}
		if (!err)
			err = health(w, v);
		if (!err)
			err = chat_message(msg, w->agg.messages++, &w->scratch, &c->calls, on_part, w,
					   &ce);
		if (err == -EBADMSG)
			err = transcript_error(w, ce.why);
		break;
	case CHAT_EVENT:
		/* A line of no message may still say how the context is. */
		if (c->open)
			err = health(w, v);
		break;
	case CHAT_INVALID:
		err = transcript_error(w, ce.why);
		break;
	}
	json_free(v);
	return err;
}

static int open_input(const char *name)
{
	return strcmp(name, "-") == 0 ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
}

/*
 * A transcript file: conversations and their findings. Returns 0, the
 * positive errno of a file that could not be read (what was read of it
 * is written), or a negative errno that ends the run.
 */
static int transcript_file(struct worker *w, const char *name)
{
	struct convo c = {0};
	struct lines *lines = NULL;
	const char *line;
	size_t n;
	bool long_line;
	int fd, rc = 0, err;

	w->out.path = name;
	w->record = 0;
	if (w->st->reporting)
		report_input(&w->st->rep, name);
	fd = open_input(name);
	if (fd < 0)
		return errno;
	err = lines_new(fd, RECORD_MAX, &lines);
	while (err == 0 && (rc = lines_next(lines, &line, &n, &long_line)) > 0) {
		w->record++;
		err = transcript_line(w, &c, line, n, long_line);
		w->out.where = NULL;
		w->out.message = NULL;
		if (!err && w->st->o->line_buffered)
			err = jsonl_sync(&w->out);
	}
	if (err == 0 && rc == -ENOMEM) {
		w->record++; /* the line that could not be held */
		err = rc;
	}
	if (err == 0)
		err = convo_close(w, &c);
	lines_free(lines);
	buf_free(&c.key);
	chat_calls_free(&c.calls);
	if (fd != STDIN_FILENO)
		close(fd);
	if (err == 0 && rc < 0)
		return -rc;
	return err;
}

/* ---- records ---- */

/* ,"replaced":N when something of the record became U+FFFD */
static int replaced(struct worker *w, struct buf *b)
{
	if (!w->replaced)
		return 0;
	w->replacing++;
	return member_u64(b, "replaced", w->replaced);
}

/*
 * A line that is not a JSON object comes back inside one, never dropped,
 * as a string a strict reader takes: what is no UTF-8 becomes U+FFFD.
 */
static int record_error(struct worker *w, const char *why, const char *line, size_t n,
			bool has_line)
{
	struct buf *b = &w->out.b, in = {0};
	int err = 0;

	w->replaced = 0;
	if (has_line)
		err |= emit_json_string_utf8(&in, line, n, &w->replaced);
	err |= BUF_LIT(b, "{\"halluscan\":{\"error\":") | emit_json_string_utf8(b, why, strlen(why), NULL);
	err |= replaced(w, b);
	if (has_line)
		err |= BUF_LIT(b, "},\"input\":") | buf_add(b, in.data, in.len) | BUF_LIT(b, "}\n");
	else
		err |= BUF_LIT(b, "}}\n");
	buf_free(&in);
	w->malformed++;
	return err ? -ENOMEM : 0;
}

/* Grounding from a record's member: a string or an array of strings. */
static int ground_member(struct worker *w, const struct json_value *v, enum halluscan_grounding kind)
{
	const char *t;
	size_t i, n;
	int err = 0;

	if ((t = json_string(v, &n)))
		return halluscan_scanner_add_grounding(w->sc, kind, t, n);
	for (i = 0; i < json_array_len(v) && !err; i++)
		if ((t = json_string(json_array_at(v, i), &n)))
			err = halluscan_scanner_add_grounding(w->sc, kind, t, n);
	return err;
}

/* The "halluscan" member's value up to its findings: {"verdict":V,"findings":[ */
static int annotation_head(struct worker *w, struct buf *b)
{
	agg_end(&w->agg, w->st->o);
	return BUF_LIT(b, "{\"verdict\":\"") |
	       buf_adds(b, halluscan_severity_name(w->agg.s.verdict)) |
	       BUF_LIT(b, "\",\"findings\":[") ? -ENOMEM : 0;
}

/* The rest, after the findings: counts. */
static int annotation_tail(struct worker *w, struct buf *b)
{
	const struct stream_options *o = w->st->o;
	const struct halluscan_summary *s = &w->agg.s;
	size_t i;
	bool first = true;
	int err = 0;

	agg_end(&w->agg, o);
	err |= BUF_LIT(b, "],\"signals\":{");
	for (i = 0; i < s->n_signals; i++) {
		if (!s->signal_counts[i])
			continue;
		err |= buf_addf(b, "%s\"%s\":%llu", first ? "" : ",",
				halluscan_rules_signal(o->rules, i),
				(unsigned long long)s->signal_counts[i]);
		first = false;
	}
	err |= buf_addc(b, '}');
	if (o->chat)
		err |= member_u64(b, "messages", w->agg.messages);
	if (s->claims)
		err |= buf_addf(b, ",\"unsupported_ratio\":%.4f,\"claims_verdict\":\"%s\"",
				s->unsupported_ratio,
				s->claims_sufficient ? "sufficient" : "insufficient");
	if (s->match_limit_hits)
		err |= member_u64(b, "match_limit_hits", s->match_limit_hits);
	err |= replaced(w, b);
	err |= buf_addf(b, ",\"ruleset\":\"%.16s\"}", halluscan_rules_digest(o->rules));
	w->limit_hits += s->match_limit_hits;
	if (s->failed)
		w->failed = true;
	return err ? -ENOMEM : 0;
}

/* What a record holds to scan: a conversation, or a field and its grounding. */
static int record_scan(struct worker *w, const struct json_value *v, const char **why)
{
	const struct stream_options *o = w->st->o;
	const struct json_value *msg;
	struct chat_error ce;
	const char *text;
	size_t n;
	int err;

	err = health(w, v);
	if (err)
		return err;
	if (o->chat) {
		switch (chat_classify(v, &msg, &ce)) {
		case CHAT_CONVERSATION:
			err = chat_conversation(v, &w->scratch, on_part, w, &w->agg.messages, &ce);
			break;
		case CHAT_MESSAGE:
			/* One message of a log written a message a line: what grounds
			 * it is on other lines, so it is never scanned alone. */
			w->lone++;
			snprintf(w->why, sizeof(w->why), "one message of a conversation logged a "
				 "message per line: its grounding is on other lines, so --records "
				 "cannot scan it alone; read the log without --records");
			*why = w->why;
			return 0;
		case CHAT_EVENT:
			return 0;
		case CHAT_INVALID:
		default:
			err = -EBADMSG;
		}
		if (err != -EBADMSG)
			return err;
		snprintf(w->why, sizeof(w->why), "%s", ce.why);
		*why = w->why;
		return 0;
	}
	text = json_string(json_get(v, o->field), &n);
	if (!text) {
		snprintf(w->why, sizeof(w->why), "no string \"%.200s\" member (--field)", o->field);
		*why = w->why;
		return 0;
	}
	err = o->source_field ? ground_member(w, json_get(v, o->source_field),
					      HALLUSCAN_GROUND_SOURCE) : 0;
	if (!err && o->prompt_field)
		err = ground_member(w, json_get(v, o->prompt_field), HALLUSCAN_GROUND_PROMPT);
	w->where.len = 0;
	return err ? err : scan_text(w, text, n);
}

/*
 * A record whose findings passed RECORD_LIST_HOLD: what the line holds up
 * to the findings is written, then those listed, then the rest from a
 * second scan, which finds the same findings in the same order (a record
 * is a conversation of its own: the scanner starts afresh).
 */
static int record_stream(struct worker *w, const struct json_value *v, const char **why)
{
	size_t listed = w->listed;
	int err = out_ann(w);

	if (!err)
		err = conversation_begin(w);
	if (!err) {
		w->rescan = true;
		w->listed = listed;
		err = record_scan(w, v, why);
		w->rescan = false;
	}
	return err ? err : out_ann(w);
}

/*
 * One record: the same line with a "halluscan" member added before its
 * last brace. The line is copied byte for byte but for what a strict
 * reader refuses (bytes that are no UTF-8, lone surrogate escapes): they
 * become U+FFFD, counted in the member's "replaced".
 */
static int record_line(struct worker *w, const char *line, size_t n, bool long_line)
{
	struct buf *b = &w->out.b;
	struct json_value *v = NULL;
	struct json_error je;
	const char *why = NULL;
	char msg[160];
	size_t start, end;
	int err;

	if (long_line) {
		too_long(n, msg, sizeof(msg));
		return record_error(w, msg, NULL, 0, false);
	}
	if (strspn(line, " \t\r") == n)
		return buf_add(b, line, n) | buf_addc(b, '\n') ? -ENOMEM : 0;
	err = json_parse(line, n, &v, &je);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		parse_error(&je, msg, sizeof(msg));
		return record_error(w, msg, line, n, true);
	}
	if (json_type(v) != JSON_OBJECT) {
		json_free(v);
		return record_error(w, "a record must be a JSON object", line, n, true);
	}
	err = conversation_begin(w);
	if (!err)
		err = record_scan(w, v, &why);
	if (err == 0) {
		json_span(v, &start, &end);
		if (why)
			w->malformed++;
		/* The record's line is copied strictly into the output (it is
		 * written out before the findings when they are too many to hold:
		 * record_stream()), then the member. */
		w->replaced = 0;
		if (emit_json_text_utf8(b, line, end - 1, &w->replaced) |
		    (json_object_len(v) ? buf_addc(b, ',') : 0) | BUF_LIT(b, "\"halluscan\":"))
			err = -ENOMEM;
		if (!err && why &&
		    (BUF_LIT(b, "{\"error\":") | emit_json_string_utf8(b, why, strlen(why), NULL) |
		     replaced(w, b) | buf_addc(b, '}')))
			err = -ENOMEM;
		if (!err && !why)
			err = annotation_head(w, b);
		if (!err && !why && w->over)
			err = record_stream(w, v, &why);
		else if (!err && !why && buf_add(b, w->ann.data, w->ann.len))
			err = -ENOMEM;
		if (!err && !why)
			err = annotation_tail(w, b);
		/* (after the value only whitespace: json_parse() said so) */
		if (err == 0 && (buf_addc(b, '}') | buf_add(b, line + end, n - end) | buf_addc(b, '\n')))
			err = -ENOMEM;
	}
	json_free(v);
	return err;
}

static int batch_unit(void *worker, size_t i)
{
	struct worker *w = worker;
	struct batch *bt = &w->st->batch;
	int err;

	w->record = bt->first + i;
	err = record_line(w, bt->text.data + bt->off[i], bt->len[i], bt->too_long[i]);

	return err ? err : jsonl_flush(&w->out);
}

static int batch_add(struct batch *bt, const char *line, size_t n, bool long_line)
{
	if (bt->n == bt->cap) {
		size_t cap = bt->cap ? 2 * bt->cap : 256;
		size_t *off = realloc(bt->off, cap * sizeof(*off));
		size_t *len = off ? realloc(bt->len, cap * sizeof(*len)) : NULL;
		bool *tl = len ? realloc(bt->too_long, cap * sizeof(*tl)) : NULL;

		if (off)
			bt->off = off;
		if (len)
			bt->len = len;
		if (!tl)
			return -ENOMEM;
		bt->too_long = tl;
		bt->cap = cap;
	}
	bt->off[bt->n] = bt->text.len;
	bt->len[bt->n] = n;
	bt->too_long[bt->n] = long_line;
	if (!long_line && buf_add(&bt->text, line, n) < 0)
		return -ENOMEM;
	bt->n++;
	return 0;
}

static int batch_run(struct stream *st, FILE *f)
{
	struct batch *bt = &st->batch;
	int *rc = calloc(bt->n ? bt->n : 1, sizeof(*rc));
	size_t i;
	int err;

	if (!rc)
		return -ENOMEM;
	err = jobs_run(st->jobs, bt->n, f, rc);
	for (i = 0; i < bt->n && !err; i++) {
		err = rc[i];
		if (err) {
			st->fail_path = st->name;
			st->fail_line = bt->first + i;
		}
	}
	free(rc);
	bt->first += bt->n;
	bt->n = 0;
	bt->text.len = 0;
	if (!err && st->o->line_buffered && fflush(f) != 0)
		err = -errno;
	return err;
}

/* A file of records, line for line. Returns as transcript_file(). */
static int records_file(struct stream *st, const char *name, FILE *f)
{
	struct worker *w = &st->w[0];
	struct lines *lines = NULL;
	const char *line;
	size_t n;
	bool long_line;
	uint64_t lineno = 0;
	int fd, rc = 0, err;

	fd = open_input(name);
	if (fd < 0)
		return errno;
	st->name = name;
	st->batch.first = 1;
	err = lines_new(fd, RECORD_MAX, &lines);
	while (err == 0 && (rc = lines_next(lines, &line, &n, &long_line)) > 0) {
		lineno++;
		if (!st->jobs) {
			w->record = lineno;
			err = record_line(w, line, n, long_line);
			if (!err)
				err = jsonl_flush(&w->out);
			if (!err && st->o->line_buffered)
				err = jsonl_sync(&w->out);
			continue;
		}
		err = batch_add(&st->batch, line, n, long_line);
		if (err == -ENOMEM) {
			rc = err;
			err = 0;
			lineno--;
			break;
		}
		if (!err && (st->batch.n >= BATCH_LINES || st->batch.text.len >= BATCH_BYTES))
			err = batch_run(st, f);
	}
	/* The lines before one that could not be held are done and written. */
	if (!err && st->jobs && st->batch.n)
		err = batch_run(st, f);
	if (err == 0 && rc == -ENOMEM) {
		/* The line that could not be held ends the run; those before it are written. */
		err = rc;
		st->fail_path = name;
		st->fail_line = lineno + 1;
	} else if (err < 0 && !st->jobs) {
		st->fail_path = name;
		st->fail_line = lineno;
	}
	lines_free(lines);
	if (fd != STDIN_FILENO)
		close(fd);
	if (err == 0 && rc < 0)
		return -rc;
	return err;
}

static int file_unit(void *worker, size_t i)
{
	struct worker *w = worker;
	int err = transcript_file(w, w->st->files[i]);

	if (!err)
		err = jsonl_flush(&w->out);
	w->st->unit_line[i] = w->record;
	return err;
}

/* ---- the run ---- */

static int load_sources(struct stream *st)
{
	const struct stream_options *o = st->o;
	size_t i;

	st->sources = calloc(o->n_sources + o->n_prompts + 1, sizeof(*st->sources));
	if (!st->sources)
		return -ENOMEM;
	for (i = 0; i < o->n_sources + o->n_prompts; i++) {
		bool prompt = i >= o->n_sources;
		const char *path = prompt ? o->prompts[i - o->n_sources] : o->sources[i];
		int err = read_file(path, &st->sources[i].text, &st->sources[i].len);

		if (err < 0) {
			cli_warn("%s: %s", path, strerror(-err));
			return 1;
		}
		st->sources[i].kind = prompt ? HALLUSCAN_GROUND_PROMPT : HALLUSCAN_GROUND_SOURCE;
		st->n_sources++;
	}
	return 0;
}

static int workers_new(struct stream *st, FILE *f)
{
	const struct stream_options *o = st->o;
	struct halluscan_scanner_options so = o->so;
	struct halluscan_error herr = {0};
	void **ws;
	size_t i;
	int err = 0, cerr;

	st->w = calloc(o->jobs, sizeof(*st->w));
	if (!st->w)
		return -ENOMEM;
	so.on_claim = o->records ? NULL : stream_claim;
	for (i = 0; i < o->jobs && !err; i++) {
		struct worker *w = &st->w[i];

		w->st = st;
		w->out = (struct jsonl){.f = f, .rules = o->rules, .path = "-"};
		w->agg.counts = calloc(st->n_signals, sizeof(*w->agg.counts));
		if (!w->agg.counts)
			return -ENOMEM;
		err = halluscan_scanner_new(o->rules, &so, stream_finding, w, &w->sc, &herr);
		if (err < 0)
			cli_warn("%s", herr.message[0] ? herr.message : strerror(-err));
	}
	if (err < 0 || o->jobs == 1)
		return err < 0 ? 1 : 0;
	ws = calloc(o->jobs, sizeof(*ws));
	if (!ws)
		return -ENOMEM;
	for (i = 0; i < o->jobs; i++)
		ws[i] = &st->w[i];
	err = jobs_new(o->jobs, ws, o->records ? batch_unit : file_unit, &st->jobs, &cerr);
	free(ws);
	if (err == 0 && cerr)
		cli_warn("-j %zu: %zu thread(s) could not be created (%s); running on %zu",
			 o->jobs, o->jobs - jobs_threads(st->jobs), strerror(cerr),
			 jobs_threads(st->jobs));
	for (i = 0; err == 0 && i < jobs_threads(st->jobs); i++)
		st->w[i].out.f = jobs_stream(st->jobs, i);
	return err;
}

static void stream_free(struct stream *st)
{
	size_t i;

	jobs_free(st->jobs);
	for (i = 0; st->w && i < st->o->jobs; i++) {
		struct worker *w = &st->w[i];

		halluscan_scanner_free(w->sc);
		jsonl_fini(&w->out);
		buf_free(&w->scratch);
		buf_free(&w->ann);
		buf_free(&w->where);
		free(w->agg.counts);
	}
	free(st->w);
	for (i = 0; i < st->n_sources; i++)
		free(st->sources[i].text);
	free(st->sources);
	free(st->unit_line);
	free(st->batch.text.data);
	free(st->batch.off);
	free(st->batch.len);
	free(st->batch.too_long);
}

int cli_stream(const struct stream_options *o, char *const *files, size_t n_files, FILE *f)
{
	struct stream st = {.o = o, .files = files};
	static char dash[] = "-";
	char *const std_in[] = {dash};
	size_t malformed = 0, replacing = 0, lone = 0, i;
	uint64_t hits = 0;
	bool io_error = false, failed = false;
	int *rc = NULL, err, status = EXIT_ERROR;

	while (halluscan_rules_signal(o->rules, st.n_signals))
		st.n_signals++;
	if (n_files == 0) {
		files = st.files = std_in;
		n_files = 1;
	}
	err = load_sources(&st);
	if (err == 0)
		err = workers_new(&st, f);
	if (err == 0 && !o->records && o->format != OUT_JSONL) {
		/* One thread (main.c sees to it): SARIF is one log. */
		struct diag d = {0};

		st.rep = (struct report){.out = &st.w[0].out, .rules = o->rules,
					 .format = o->format, .style = o->style,
					 .fail_on = o->so.fail_on, .model_output = true,
					 .config = o->config};
		st.reporting = true;
		err = report_start(&st.rep, &d);
	}
	if (err == 0) {
		rc = calloc(n_files, sizeof(*rc));
		st.unit_line = calloc(n_files, sizeof(*st.unit_line));
		if (!rc || !st.unit_line)
			err = -ENOMEM;
	}
	if (err < 0)
		cli_warn("%s", strerror(-err)); /* before any input: nothing to say where */
	if (err)
		goto out;
	if (!o->records && st.jobs && n_files > 1) {
		err = jobs_run(st.jobs, n_files, f, rc);
		for (i = 0; i < n_files && !err && !st.fail_path; i++) {
			if (rc[i] < 0) {
				st.fail_path = files[i];
				st.fail_line = st.unit_line[i];
			}
		}
	} else {
		/* One stream: written as it is read, by the calling thread. */
		if (!o->records)
			st.w[0].out.f = f;
		for (i = 0; i < n_files && err >= 0; i++) {
			rc[i] = o->records ? records_file(&st, files[i], f)
					   : transcript_file(&st.w[0], files[i]);
			if (rc[i] == 0)
				rc[i] = jsonl_flush(&st.w[0].out);
			if (rc[i] < 0 && !o->records && !st.fail_path) {
				st.fail_path = files[i];
				st.fail_line = st.w[0].record;
			}
			if (rc[i] < 0)
				err = rc[i];
		}
	}
	for (i = 0; i < n_files && err >= 0; i++) {
		if (rc[i] > 0) {
			cli_warn("%s: %s", files[i], strerror(rc[i]));
			io_error = true;
			if (st.reporting)
				err = report_error(&st.rep, files[i], strerror(rc[i]));
		} else if (rc[i] < 0) {
			err = rc[i];
		}
	}
	if (st.reporting && err >= 0)
		err = report_finish(&st.rep);
	/* What came before an error is written, whatever the error. */
	if (fflush(f) != 0 && err == 0)
		err = -errno;
	if (err == -ENOMEM && st.fail_path) {
		cli_warn("%s:%llu: out of memory; the output stops before this line",
			 st.fail_path, (unsigned long long)st.fail_line);
		goto out;
	}
	if (err < 0) {
		cli_warn("%s%s", err == -ENOMEM ? "" : "write error: ", strerror(-err));
		goto out;
	}
	for (i = 0; i < o->jobs; i++) {
		lone += st.w[i].lone;
		malformed += st.w[i].malformed;
		replacing += st.w[i].replacing;
		hits += st.w[i].limit_hits;
		failed |= st.w[i].failed;
	}
	if (hits)
		cli_warn("a PCRE2 match limit was reached %llu time(s); matches may be missing",
			 (unsigned long long)hits);
	if (replacing)
		cli_warn("%zu record(s) held bytes that are not UTF-8 or lone surrogate escapes, "
			 "written as U+FFFD; see the \"replaced\" members", replacing);
	if (lone)
		cli_warn("%zu line(s) are single messages of a conversation logged a message per "
			 "line (a run log); --records scans each line alone, which would report "
			 "what a tool said on another line as invented: run halluscan --input chat "
			 "without --records on such a log", lone);
	if (malformed)
		cli_warn("%zu malformed line(s)%s", malformed,
			 o->records ? "; see the error members"
			 : o->format == OUT_JSONL ? "; see the error records"
			 : o->format == OUT_SARIF ? "; see the log's toolExecutionNotifications"
			 : o->format == OUT_GITHUB ? "; see the error annotations" : "");
	status = io_error || malformed ? EXIT_ERROR : failed ? EXIT_FAIL : EXIT_PASS;
out:
	if (err > 0)
		status = EXIT_ERROR;
	free(rc);
	if (st.reporting)
		report_fini(&st.rep);
	stream_free(&st);
	return status;
}
