/* SPDX-License-Identifier: MIT */
/*
 * The transcript reader: a parsed JSONL line of an agent transcript walked
 * as messages, each part of a message said to be the model's text (to
 * scan), tool output (grounding) or what the user or system said (prompt
 * grounding). It reads OpenAI Chat Completions messages (and legacy
 * completions' choices), Anthropic Messages, OpenAI Responses items, the
 * Assistants API's thread messages, Gemini's contents and candidates,
 * LangChain's serialized messages, agent run logs that wrap one of those
 * in {"type": ..., "message"|"payload": {...}}, codex exec --json's
 * completed items, and ATIF trajectories (Harbor's Agent Trajectory
 * Interchange Format: {"schema_version": "ATIF-v1.x", "agent": {...},
 * "steps": [...]}, one per line); it knows nothing of scanners.
 *
 * It fails closed: a part of the model's message it cannot read (content
 * of an unknown type, a number, a role it does not know, a line of an
 * unknown type) is an error, never a message read as empty. What is not
 * the model's (a user's image, a tool's binary output) is skipped: left
 * unread it only grounds less.
 *
 * Structure decides what a text is, never the text: a tool result is
 * grounding because of where it sits, and tags an assistant wrote are
 * part of its text.
 *
 * Nothing here keeps a pointer past its call; the texts a callback gets
 * point into the tree or into the caller's scratch buffer.
 */
#ifndef HALLUSCAN_INPUT_CHAT_H
#define HALLUSCAN_INPUT_CHAT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/json.h"
#include "common/util.h"

enum chat_kind {
	CHAT_SCAN,   /* the model's text: assistant (or "model") messages */
	CHAT_TOOL,   /* a tool's result: tool/function messages, tool_result blocks,
	                function_call_output items */
	CHAT_PROMPT, /* system, developer and user text */
};

/* Why a line cannot be read, when a call returns CHAT_INVALID or -EBADMSG. */
struct chat_error {
	char why[256];
};

struct chat_part {
	enum chat_kind kind;
	size_t message;    /* the message's index in its conversation, 0-based */
	const char *role;  /* as written ("assistant"), or "tool" for a result item */
	const char *text;  /* not NUL-terminated */
	size_t len;
};

/* Called for each part in order; a nonzero return stops the walk and is returned. */
typedef int (*chat_fn)(void *ctx, const struct chat_part *p);

enum chat_line {
	CHAT_CONVERSATION, /* a whole conversation: messages, input/output, choices */
	CHAT_MESSAGE,      /* one message or item (*msg: unwrapped from a run log's wrapper) */
	CHAT_EVENT,        /* a run log line that holds no message (metadata, summaries) */
	CHAT_INVALID,      /* none of these, or a line of an unknown type: e->why says so */
};

/* What the parsed line v is; for a message, *msg is what chat_message() walks. */
enum chat_line chat_classify(const struct json_value *v, const struct json_value **msg,
			     struct chat_error *e);

/*
 * Walks a conversation line: top-level instructions or system text as
 * prompt, then an ATIF trajectory's steps, then each message of
 * "messages", "contents", "input" and
 * "output" (in that order, indexed across them), then each choice's
 * message (or a legacy completion's text), then each Gemini candidate;
 * a tool call's arguments ground as struct chat_calls says. The text parts
 * of one scanned message are joined with a line break in *scratch, and
 * given as one part. *n_messages gets the number of messages (items
 * included) walked. Returns 0, what fn returned, -ENOMEM, or -EBADMSG
 * (e->why says which message and why) for a message it cannot read; the
 * walk stops there.
 */
int chat_conversation(const struct json_value *v, struct buf *scratch, chat_fn fn, void *ctx,
		      size_t *n_messages, struct chat_error *e);

/*
 * The model's tool calls of one conversation that await their results.
 * A call's arguments are what the model asked for; they ground what
 * follows (as tool output, from the result's message on) only once the
 * tool has answered that call without an error: then the tool has taken
 * them. A call with no result, or one the tool refused, grounds nothing;
 * so does one pushed out by newer calls (256 await their results at most).
 * Zero-initialised is empty; chat_calls_clear() empties it for the next
 * conversation and chat_calls_free() frees it.
 */
struct chat_calls {
	struct buf b; /* entries: id length, text length, id, text */
	size_t n;     /* entries */
};

void chat_calls_clear(struct chat_calls *c);
void chat_calls_free(struct chat_calls *c);

/*
 * Walks one message (or a wrapper of one) with the given index; returns as
 * chat_conversation(). calls holds the conversation's calls across
 * messages (NULL: no call's arguments ground).
 */
int chat_message(const struct json_value *m, size_t index, struct buf *scratch,
		 struct chat_calls *calls, chat_fn fn, void *ctx, struct chat_error *e);

/*
 * The conversation a message line belongs to, when it says: the raw JSON
 * of its "conversation", "conversation_id", "session_id", "sessionId" or
 * "thread_id" member (into *from, *to of the line's text). False when it
 * has none. A per-message "id" is no conversation key: Responses items and
 * Anthropic messages each carry their own.
 */
bool chat_conversation_key(const struct json_value *line, size_t *from, size_t *to);

#endif
