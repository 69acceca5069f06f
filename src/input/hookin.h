/* SPDX-License-Identifier: MIT */
/*
 * A Claude Code hook's payload: the JSON object the harness writes on the
 * hook's standard input (code.claude.com/docs/en/hooks, "Hook input"). Only
 * what halluscan acts on is read; the rest of the object is ignored, as the
 * protocol adds members over time.
 *
 * hook_payload_parse() fills a struct whose strings point into the parsed
 * tree it keeps; hook_payload_free() frees it. It fails closed on what it
 * acts on: a member it needs that is absent or of another type, or a path
 * that holds a NUL byte, is an error that says which, never a default.
 */
#ifndef HALLUSCAN_INPUT_HOOKIN_H
#define HALLUSCAN_INPUT_HOOKIN_H

#include <stdbool.h>
#include <stddef.h>

#include "common/json.h"

/* The payload's size at most: a last_assistant_message of a long reply fits many times. */
#define HOOK_PAYLOAD_MAX ((size_t)16 << 20)

enum hook_event {
	HOOK_STOP,          /* the main agent finished its turn */
	HOOK_SUBAGENT_STOP, /* a subagent (the Task tool's) finished */
	HOOK_POST_TOOL_USE, /* a tool ran */
	HOOK_OTHER,         /* an event halluscan does not handle */
};

/* The harness whose payload it is: their Stop payloads differ in what may be null. */
enum hook_harness {
	HOOK_CLAUDE_CODE, /* code.claude.com/docs/en/hooks */
	HOOK_CODEX,       /* openai/codex, codex-rs/hooks/schema: transcript_path may be
			     null, last_assistant_message is always sent (maybe null) */
};

struct hook_payload {
	struct json_value *root;
	enum hook_event event;
	const char *event_name;      /* hook_event_name as sent */
	const char *session_id;      /* or NULL */
	const char *agent_id;        /* SubagentStop's, or NULL */
	const char *cwd;             /* or NULL */
	/* Stop and SubagentStop: the session's JSONL, or the subagent's own
	 * (agent_transcript_path) when the payload names one; NULL only when
	 * Codex sends none. */
	const char *transcript_path;
	bool own_transcript;         /* SubagentStop: transcript_path is the subagent's own */
	bool stop_hook_active;       /* the agent goes on because a Stop hook blocked */
	const char *last_message;    /* last_assistant_message when a string, else NULL */
	size_t last_message_len;
	const char *tool_name;       /* PostToolUse */
	const char *file_path;       /* PostToolUse on Write, Edit, MultiEdit: tool_input.file_path */
};

/* Is tool one whose tool_input.file_path names a file it wrote? */
bool hook_writes_file(const char *tool);

/*
 * Parses text[0, len), a payload of harness h, into *p. Returns 0; -EBADMSG with why[0, n) saying
 * what is wrong (not JSON, no hook_event_name, a member of the wrong type);
 * or -ENOMEM. On failure *p holds nothing to free.
 */
int hook_payload_parse(const char *text, size_t len, enum hook_harness h, struct hook_payload *p,
		       char *why, size_t n);
void hook_payload_free(struct hook_payload *p);

#endif
