// SPDX-License-Identifier: MIT
/* A Claude Code hook's payload, read for what halluscan acts on. */
#include "hookin.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int bad(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/*
 * The string member key of v into *out: 0; or -EBADMSG when it is of
 * another type, or absent and required, or holds a NUL byte and is a path
 * (a path cut at a NUL would name another file).
 */
static int member(const struct json_value *v, const char *key, bool required, bool path,
		  const char **out, size_t *len, char *why, size_t n)
{
	const struct json_value *m = json_get(v, key);
	size_t k = 0;

	*out = NULL;
	if (!m && !required)
		return 0;
	*out = json_string(m, &k);
	if (!*out)
		return bad(why, n, "the payload's \"%s\" is %s, not a string", key,
			   json_type_name(json_type(m), "absent"));
	if (path && (k == 0 || strlen(*out) != k))
		return bad(why, n, "the payload's \"%s\" is %s", key,
			   k ? "a path with a NUL byte in it" : "empty");
	if (len)
		*len = k;
	return 0;
}

bool hook_writes_file(const char *tool)
{
	return tool && (strcmp(tool, "Write") == 0 || strcmp(tool, "Edit") == 0 ||
			strcmp(tool, "MultiEdit") == 0);
}

int hook_payload_parse(const char *text, size_t len, enum hook_harness h, struct hook_payload *p,
		       char *why, size_t n)
{
	const struct json_value *v, *m;
	struct json_error je = {0};
	const char *agent_path = NULL;
	int err;

	memset(p, 0, sizeof(*p));
	err = json_parse(text, len, &p->root, &je);
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		return bad(why, n, "the payload is not JSON: %s at byte %zu", je.msg, je.offset);
	v = p->root;
	if (json_type(v) != JSON_OBJECT) {
		err = bad(why, n, "the payload is %s, not a JSON object", json_type_name(json_type(v), "absent"));
		goto fail;
	}
	err = member(v, "hook_event_name", true, false, &p->event_name, NULL, why, n);
	if (err)
		goto fail;
	p->event = strcmp(p->event_name, "Stop") == 0		? HOOK_STOP
		   : strcmp(p->event_name, "SubagentStop") == 0 ? HOOK_SUBAGENT_STOP
		   : strcmp(p->event_name, "PostToolUse") == 0	? HOOK_POST_TOOL_USE
								: HOOK_OTHER;
	if ((err = member(v, "session_id", false, false, &p->session_id, NULL, why, n)) ||
	    (err = member(v, "cwd", false, true, &p->cwd, NULL, why, n)))
		goto fail;
	switch (p->event) {
	case HOOK_STOP:
	case HOOK_SUBAGENT_STOP:
		/* Absent is false, as the protocol's first stop sends it; any
		 * other type is no answer to "did a hook block already?". */
		m = json_get(v, "stop_hook_active");
		if (m && json_bool(m, &p->stop_hook_active) < 0) {
			err = bad(why, n, "the payload's \"stop_hook_active\" is %s, not a boolean",
				  json_type_name(json_type(m), "absent"));
			goto fail;
		}
		/* Codex sends null when it keeps no rollout; Claude Code always a path. */
		m = json_get(v, "transcript_path");
		if (!(h == HOOK_CODEX && json_type(m) == JSON_NULL) &&
		    (err = member(v, "transcript_path", true, true, &p->transcript_path, NULL, why,
				  n)))
			goto fail;
		m = json_get(v, "last_assistant_message");
		if (json_type(m) == JSON_STRING)
			p->last_message = json_string(m, &p->last_message_len);
		else if (m && json_type(m) != JSON_NULL) {
			err = bad(why, n, "the payload's \"last_assistant_message\" is %s, not a string",
				  json_type_name(json_type(m), "absent"));
			goto fail;
		}
		if (p->event == HOOK_SUBAGENT_STOP) {
			if ((err = member(v, "agent_id", false, false, &p->agent_id, NULL, why, n)))
				goto fail;
			m = json_get(v, "agent_transcript_path");
			if (m && json_type(m) != JSON_NULL &&
			    (err = member(v, "agent_transcript_path", true, true, &agent_path, NULL,
					  why, n)))
				goto fail;
			if (agent_path) {
				p->transcript_path = agent_path;
				p->own_transcript = true;
			}
		}
		break;
	case HOOK_POST_TOOL_USE:
		if ((err = member(v, "tool_name", true, false, &p->tool_name, NULL, why, n)))
			goto fail;
		if (!hook_writes_file(p->tool_name))
			break;
		m = json_get(v, "tool_input");
		if (json_type(m) != JSON_OBJECT) {
			err = bad(why, n, "the payload's \"tool_input\" is %s, not an object",
				  json_type_name(json_type(m), "absent"));
			goto fail;
		}
		if ((err = member(m, "file_path", true, true, &p->file_path, NULL, why, n)))
			goto fail;
		break;
	case HOOK_OTHER:
		break;
	}
	return 0;
fail:
	json_free(p->root);
	memset(p, 0, sizeof(*p));
	return err;
}

void hook_payload_free(struct hook_payload *p)
{
	json_free(p->root);
	memset(p, 0, sizeof(*p));
}
