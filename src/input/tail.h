/* SPDX-License-Identifier: MIT */
/*
 * The end of a Claude Code session log (its JSONL transcript), read from
 * the end backwards: the agent's last reply and the grounding it needs, at
 * a cost that does not grow with the session.
 *
 * In that log a line of "type" "user" or "assistant" wraps a message
 * (input/chat.c reads it); every other type is metadata. The reply is the
 * assistant text after the last user line that holds text (not only
 * tool_result blocks): a person's prompt, or a line the harness wrote as
 * the user, such as a Stop hook's feedback ("isMeta": true). The grounding
 * is the tool results and the person's text (not the harness's) from the
 * last person's prompt on, and at least `history` bytes of the log before
 * the end: whole lines, read back until both are covered.
 *
 * It fails closed on the reply: a line of the reply that is not JSON, or
 * an assistant message input/chat.c cannot read, is an error. Before the
 * reply a line that cannot be read only grounds less, and is counted.
 *
 * The caller owns struct tail: zero it, tail_read() once, tail_free().
 * Texts are copies, valid until tail_free().
 */
#ifndef HALLUSCAN_INPUT_TAIL_H
#define HALLUSCAN_INPUT_TAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util.h"
#include "input/chat.h"

/*
 * The words every block's reason starts with (cli/hook.c): a user text that
 * holds them is the harness's, whatever else marks it.
 */
#define TAIL_REASON_MARK "halluscan (a hallucination check) found"

/* A line of the log longer than this is not read (RECORD_MAX as elsewhere). */
#define TAIL_LINE_MAX RECORD_MAX

struct tail_options {
	/* Which lines: all of them (a subagent's own log, whose lines all say
	 * "isSidechain": true), those of the main agent (no "isSidechain": true),
	 * or those of a subagent in the session's log ("isSidechain": true). */
	enum { TAIL_ALL, TAIL_MAIN, TAIL_SIDECHAIN } lines;
	/* A Codex rollout, not a Claude Code log: its messages and tool
	 * results are "response_item" lines; "lines" does not apply. */
	bool codex;
	/* A line that starts before this offset is no part of the reply: what
	 * was written before a Stop hook blocked (0: none). */
	uint64_t since;
	/* Grounding: at least this many bytes before the end, in whole lines. */
	uint64_t history;
	/* Read no more than this many bytes back; what lies before is not read. */
	uint64_t max_bytes;
	/* Called between lines; true ends the reading with -ETIMEDOUT. */
	bool (*expired)(void *ctx);
	void *ctx;
};

struct tail_text {
	enum chat_kind kind; /* CHAT_SCAN: the reply's; CHAT_TOOL, CHAT_PROMPT: grounding */
	size_t off, len;     /* in struct tail's text */
	uint64_t at;         /* the file offset of its line */
};

struct tail {
	struct buf text;
	struct tail_text *t;  /* in the file's order */
	size_t n, cap;
	size_t n_reply;       /* of them CHAT_SCAN */
	uint64_t size;        /* the file's size when read */
	uint64_t from;        /* the first byte read */
	bool reply_bounded;   /* a user text line (or since) starts the reply */
	bool prompt_found;    /* the last person's prompt is in what was read */
	bool capped;          /* max_bytes ended the reading before both were found */
	size_t skipped;       /* grounding lines that could not be read */
	size_t lines;         /* lines read */
	size_t messages;      /* of them user or assistant lines (of the lines chosen) */
};

/*
 * Reads the regular file open at fd from its end into *t. Returns 0;
 * -EBADMSG with e->why saying which line (by byte offset) and why; -EFBIG
 * for a line of the reply longer than TAIL_LINE_MAX; -ETIMEDOUT; -ENOMEM;
 * or the negative errno of a read.
 */
int tail_read(int fd, const struct tail_options *o, struct tail *t, struct chat_error *e);
void tail_free(struct tail *t);

#endif
