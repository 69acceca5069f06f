// SPDX-License-Identifier: MIT
/* The end of a Claude Code session log, read backwards: the last reply and its grounding. */
#include "tail.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/json.h"

/* The first read back; each next one is as large as what is held, so copying stays linear. */
#define TAIL_CHUNK ((size_t)64 << 10)

/* The harness's own text as the user: a Stop hook's feedback, in logs that do not mark it isMeta. */
static const char *const harness_prefixes[] = {"Stop hook feedback:", "SubagentStop hook feedback:"};

struct reader {
	const struct tail_options *o;
	struct tail *t;
	struct chat_error *e;
	int fd;
	char *data;          /* file bytes [lo, lo + len) not yet read as lines */
	size_t len;
	uint64_t lo;
	uint64_t floor;      /* nothing before this offset is read (size - max_bytes) */
	struct buf scratch;  /* chat_message()'s */
	/* A line's parts, gathered in order, then added in reverse (the lines come backwards). */
	struct tail_text *parts;
	size_t n_parts, cap_parts;
	struct buf part_text;
	bool meta;           /* the line is the harness's */
	bool reply;          /* the line is read for the reply */
};

/* Reads more of the file before what is held: false when there is no more to read. */
static int read_back(struct reader *r)
{
	size_t want = MAX(r->len, TAIL_CHUNK), got = 0;
	char *d;

	if (r->lo <= r->floor)
		return 0;
	if (want > r->lo - r->floor)
		want = (size_t)(r->lo - r->floor);
	d = malloc(want + r->len + 1);
	if (!d)
		return -ENOMEM;
	while (got < want) {
		ssize_t k = pread(r->fd, d + got, want - got, (off_t)(r->lo - want + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int err = k < 0 ? -errno : -EIO; /* shorter than fstat said: truncated under us */

			free(d);
			return err;
		}
		got += (size_t)k;
	}
	if (r->len)
		memcpy(d + want, r->data, r->len);
	free(r->data);
	r->data = d;
	r->len += want;
	r->lo -= want;
	return 1;
}

static int on_part(void *ctx, const struct chat_part *p)
{
	struct reader *r = ctx;
	struct tail_text *x;

	if (p->kind == CHAT_SCAN && !r->reply)
		return 0;
	if (grow(&r->parts, &r->cap_parts, r->n_parts + 1, sizeof(*r->parts)) < 0)
		return -ENOMEM;
	x = &r->parts[r->n_parts++];
	x->kind = p->kind;
	x->off = r->part_text.len;
	x->len = p->len;
	return buf_add(&r->part_text, p->text, p->len);
}

static bool harness_text(const char *s, size_t n)
{
	size_t i, k;

	/* A block's reason, wherever a harness records it: it quotes the
	 * findings, and must never ground the reply that repairs them. */
	if (find_literal(s, n, TAIL_REASON_MARK, sizeof(TAIL_REASON_MARK) - 1))
		return true;
	for (i = 0; i < ARRAY_SIZE(harness_prefixes); i++) {
		k = strlen(harness_prefixes[i]);
		if (n >= k && memcmp(s, harness_prefixes[i], k) == 0)
			return true;
	}
	return false;
}

/* Adds the line's parts that count (in reverse: the whole list is turned round at the end). */
static int keep_parts(struct reader *r, uint64_t at)
{
	struct tail *t = r->t;
	size_t i;

	for (i = r->n_parts; i-- > 0;) {
		const struct tail_text *p = &r->parts[i];
		struct tail_text *x;

		if (p->kind == CHAT_PROMPT && r->meta)
			continue;
		if (grow(&t->t, &t->cap, t->n + 1, sizeof(*t->t)) < 0)
			return -ENOMEM;
		x = &t->t[t->n++];
		*x = (struct tail_text){.kind = p->kind, .off = t->text.len, .len = p->len, .at = at};
		if (buf_add(&t->text, r->part_text.data + p->off, p->len) < 0)
			return -ENOMEM;
		if (p->kind == CHAT_SCAN)
			t->n_reply++;
	}
	return 0;
}

static int bad_line(struct reader *r, uint64_t at, const char *why)
{
	snprintf(r->e->why, sizeof(r->e->why), "the line at byte %llu: %s",
		 (unsigned long long)at, why);
	return -EBADMSG;
}

/* One line of the log, at file offset at; last: the file's last line, with no newline after it. */
static int read_line(struct reader *r, const char *s, size_t n, uint64_t at, bool last)
{
	const struct tail_options *o = r->o;
	struct tail *t = r->t;
	struct json_value *v = NULL;
	struct json_error je = {0};
	struct chat_error ce = {{0}};
	const char *type;
	bool user, side = false, text = false;
	size_t i;
	int err;

	if (strspn(s, " \t\r") >= n)
		return 0;
	if (!t->reply_bounded && at < o->since)
		t->reply_bounded = true;
	r->reply = !t->reply_bounded;
	/* Before the reply only user lines and tool results are wanted: a
	 * Claude Code line that names neither is not parsed (most of a long
	 * session). A rollout's tool outputs have many names: all are parsed. */
	if (!r->reply && !o->codex && !find_literal(s, n, "\"user\"", 6) &&
	    !find_literal(s, n, "tool_result", 11))
		return 0;
	err = json_parse(s, n, &v, &je);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		char why[160];

		/* The harness may be writing it: it is not there yet. */
		if (last || !r->reply) {
			t->skipped++;
			return 0;
		}
		snprintf(why, sizeof(why), "not JSON: %s at byte %zu of the line", je.msg, je.offset);
		return bad_line(r, at, why);
	}
	type = json_string(json_get(v, "type"), NULL);
	if (o->codex) {
		const struct json_value *item = json_get(v, "payload");
		const char *role = json_string(json_get(item, "role"), NULL);

		/* Events (event_msg) copy what response items hold; instructions
		 * (developer, system) are the harness's. */
		if (!type || strcmp(type, "response_item") != 0 || json_type(item) != JSON_OBJECT ||
		    (role && strcmp(role, "user") != 0 && strcmp(role, "assistant") != 0))
			goto out;
		user = role && strcmp(role, "user") == 0;
	} else {
		user = type && strcmp(type, "user") == 0;
		if (!user && !(type && strcmp(type, "assistant") == 0))
			goto out; /* metadata: summaries, snapshots, progress, system lines */
		json_bool(json_get(v, "isSidechain"), &side);
		if (o->lines != TAIL_ALL && side != (o->lines == TAIL_SIDECHAIN))
			goto out;
	}
	t->messages++;
	r->meta = false;
	json_bool(json_get(v, "isMeta"), &r->meta);
	r->n_parts = 0;
	r->part_text.len = 0;
	/* (read from the end, a call's result comes before its call: the
	 * arguments the agent passed ground nothing here) */
	err = chat_message(v, 0, &r->scratch, NULL, on_part, r, &ce);
	if (err == -EBADMSG) {
		err = 0;
		if (r->reply && !user) {
			err = bad_line(r, at, ce.why);
			goto out;
		}
		t->skipped++;
		r->n_parts = 0;
	}
	if (err)
		goto out;
	for (i = 0; user && i < r->n_parts; i++) {
		const struct tail_text *p = &r->parts[i];

		if (p->kind != CHAT_PROMPT)
			continue;
		text = true;
		if (harness_text(r->part_text.data + p->off, p->len))
			r->meta = true;
	}
	err = keep_parts(r, at);
	if (text) {
		t->reply_bounded = true;
		if (!r->meta)
			t->prompt_found = true;
	}
out:
	json_free(v);
	return err;
}

static void reverse(struct tail *t)
{
	size_t i, j;

	for (i = 0, j = t->n; j-- > i + 1; i++) {
		struct tail_text x = t->t[i];

		t->t[i] = t->t[j];
		t->t[j] = x;
	}
}

static bool done(const struct reader *r, uint64_t line_at)
{
	const struct tail *t = r->t;

	return t->reply_bounded && t->prompt_found && t->size - line_at >= r->o->history;
}

int tail_read(int fd, const struct tail_options *o, struct tail *t, struct chat_error *e)
{
	struct reader r = {.o = o, .t = t, .e = e, .fd = fd};
	struct stat st;
	size_t end;
	bool last = true;
	int err = 0;

	e->why[0] = '\0';
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	t->size = t->from = (uint64_t)st.st_size;
	r.lo = t->size;
	r.floor = o->max_bytes && o->max_bytes < t->size ? t->size - o->max_bytes : 0;
	err = read_back(&r);
	if (err <= 0)
		goto out; /* an empty file: no reply */
	/* A log that ends with a newline has no line after it. */
	end = r.len;
	if (end && r.data[end - 1] == '\n') {
		end--;
		last = false;
	}
	for (;;) {
		const char *nl = end ? memrchr(r.data, '\n', end) : NULL;
		size_t start;

		if (o->expired && o->expired(o->ctx)) {
			err = -ETIMEDOUT;
			break;
		}
		if (!nl && r.lo > r.floor) {
			size_t before = r.len;

			if (end > TAIL_LINE_MAX) {
				/* A line too long to read: the reply's is an error, older ones end the reading. */
				if (!t->reply_bounded)
					err = -EFBIG;
				else
					t->capped = true;
				break;
			}
			err = read_back(&r);
			if (err < 0)
				break;
			end += r.len - before;
			continue;
		}
		if (!nl && r.lo > 0) {
			t->capped = true; /* the line's start lies before max_bytes */
			break;
		}
		start = nl ? (size_t)(nl - r.data) + 1 : 0;
		r.data[end] = '\0';
		t->lines++;
		err = read_line(&r, r.data + start, end - start, r.lo + start, last);
		if (err)
			break;
		last = false;
		t->from = r.lo + start;
		if (!nl || done(&r, t->from))
			break;
		end = start - 1;
		/* What was read as lines is let go, so memory is the longest line and a chunk. */
		r.len = end + 1;
	}
	if (!err && !(t->reply_bounded && t->prompt_found) && r.lo == r.floor && r.floor > 0)
		t->capped = true;
	reverse(t);
out:
	free(r.data);
	free(r.parts);
	buf_free(&r.part_text);
	buf_free(&r.scratch);
	return err < 0 ? err : 0;
}

void tail_free(struct tail *t)
{
	buf_free(&t->text);
	free(t->t);
	memset(t, 0, sizeof(*t));
}
