// SPDX-License-Identifier: MIT
/* Agent transcripts walked as messages: what to scan, what grounds it. */
#include "chat.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

static bool is(const char *s, const char *lit)
{
	return s && strcmp(s, lit) == 0;
}

static const char *str(const struct json_value *v, const char *key)
{
	return json_string(json_get(v, key), NULL);
}

/* Responses API items: a line whose "type" is one of these is a message of its conversation. */
static const char *const item_types[] = {
	"message", "function_call", "function_call_output", "custom_tool_call",
	"custom_tool_call_output", "local_shell_call", "local_shell_call_output", "reasoning",
	"web_search_call", "file_search_call", "computer_call", "computer_call_output",
	"mcp_call", "mcp_list_tools", "mcp_approval_request", "mcp_approval_response",
	"image_generation_call", "code_interpreter_call", "item_reference",
};

static bool item_type(const char *t)
{
	size_t i;

	for (i = 0; t && i < ARRAY_SIZE(item_types); i++)
		if (strcmp(t, item_types[i]) == 0)
			return true;
	return false;
}

/* What a role's text is; false for a role we do not know (neither scanned nor grounding). */
static bool role_kind(const char *role, enum chat_kind *k)
{
	static const struct {
		const char *role;
		enum chat_kind kind;
	} roles[] = {
		{"assistant", CHAT_SCAN}, {"model", CHAT_SCAN},
		{"user", CHAT_PROMPT}, {"system", CHAT_PROMPT}, {"developer", CHAT_PROMPT},
		{"human", CHAT_PROMPT},
		{"tool", CHAT_TOOL}, {"function", CHAT_TOOL}, {"ipython", CHAT_TOOL},
	};
	size_t i;

	for (i = 0; role && i < ARRAY_SIZE(roles); i++)
		if (strcmp(role, roles[i].role) == 0) {
			*k = roles[i].kind;
			return true;
		}
	return false;
}

/* A run log's wrapper around a message: Claude Code's "message", Codex's "payload". */
static const struct json_value *unwrap(const struct json_value *v)
{
	const struct json_value *m;

	if (json_get(v, "role"))
		return v;
	m = json_get(v, "message");
	if (json_type(m) == JSON_OBJECT)
		return m;
	m = json_get(v, "payload");
	if (json_type(m) == JSON_OBJECT)
		return m;
	return v;
}

/*
 * The text of a content part: a string, or a text block of any API
 * ("text", "input_text", "output_text", or an untyped {"text"}), or an
 * assistant's refusal. NULL for anything else (images, tool calls,
 * reasoning, tool results, which the caller handles).
 */
static const char *part_text(const struct json_value *p, size_t *n)
{
	const char *t, *type;

	t = json_string(p, n);
	if (t)
		return t;
	type = str(p, "type");
	if (!type || is(type, "text") || is(type, "input_text") || is(type, "output_text"))
		return json_string(json_get(p, "text"), n);
	if (is(type, "refusal"))
		return json_string(json_get(p, "refusal"), n);
	return NULL;
}

static int emit(chat_fn fn, void *ctx, enum chat_kind kind, size_t index, const char *role,
		const char *text, size_t n)
{
	struct chat_part p = {.kind = kind, .message = index, .role = role, .text = text, .len = n};

	return n ? fn(ctx, &p) : 0;
}

/* Each text of v (a string or an array of parts) as a part of kind. */
static int emit_texts(const struct json_value *v, enum chat_kind kind, size_t index,
		      const char *role, chat_fn fn, void *ctx)
{
	const char *t;
	size_t i, n;
	int err;

	t = json_string(v, &n);
	if (t)
		return emit(fn, ctx, kind, index, role, t, n);
	for (i = 0; i < json_array_len(v); i++) {
		const struct json_value *p = json_array_at(v, i);

		t = part_text(p, &n);
		err = t ? emit(fn, ctx, kind, index, role, t, n) : 0;
		if (err)
			return err;
	}
	return 0;
}

/* A Responses item that is no message: a tool's output grounds, the rest is skipped. */
static int walk_item(const struct json_value *m, const char *type, size_t index, chat_fn fn,
		     void *ctx)
{
	size_t i;
	int err = 0;

	if (is(type, "function_call_output") || is(type, "custom_tool_call_output") ||
	    is(type, "local_shell_call_output") || is(type, "mcp_call"))
		return emit_texts(json_get(m, "output"), CHAT_TOOL, index, "tool", fn, ctx);
	if (is(type, "file_search_call")) {
		const struct json_value *r = json_get(m, "results");

		for (i = 0; i < json_array_len(r) && !err; i++)
			err = emit_texts(json_get(json_array_at(r, i), "text"), CHAT_TOOL, index,
					 "tool", fn, ctx);
	} else if (is(type, "code_interpreter_call")) {
		const struct json_value *o = json_get(m, "outputs");

		for (i = 0; i < json_array_len(o) && !err; i++)
			err = emit_texts(json_get(json_array_at(o, i), "logs"), CHAT_TOOL, index,
					 "tool", fn, ctx);
	}
	return err;
}

int chat_message(const struct json_value *m, size_t index, struct buf *scratch, chat_fn fn,
		 void *ctx)
{
	const struct json_value *content;
	const char *role, *t;
	enum chat_kind kind;
	size_t i, n;
	bool any = false;
	int err;

	m = unwrap(m);
	role = str(m, "role");
	if (!role)
		return item_type(str(m, "type")) ? walk_item(m, str(m, "type"), index, fn, ctx) : 0;
	if (!role_kind(role, &kind))
		return 0;
	content = json_get(m, "content");
	if (!content)
		content = json_get(m, "parts"); /* Gemini */
	if (kind != CHAT_SCAN) {
		if (json_string(content, NULL))
			return emit_texts(content, kind, index, role, fn, ctx);
		for (i = 0; i < json_array_len(content); i++) {
			const struct json_value *p = json_array_at(content, i);

			if (is(str(p, "type"), "tool_result"))
				err = emit_texts(json_get(p, "content"), CHAT_TOOL, index, role, fn, ctx);
			else if ((t = part_text(p, &n)))
				err = emit(fn, ctx, kind, index, role, t, n);
			else
				err = 0;
			if (err)
				return err;
		}
		return 0;
	}
	/* The model's text: its parts are one text, a line break apart (a
	 * sentence ends there, so parts never run into each other). */
	t = json_string(content, &n);
	if (t)
		return emit(fn, ctx, CHAT_SCAN, index, role, t, n);
	scratch->len = 0;
	for (i = 0; i < json_array_len(content); i++) {
		t = part_text(json_array_at(content, i), &n);
		if (!t)
			continue;
		if ((any && buf_addc(scratch, '\n') < 0) || buf_add(scratch, t, n) < 0)
			return -ENOMEM;
		any = true;
	}
	return emit(fn, ctx, CHAT_SCAN, index, role, scratch->data, scratch->len);
}

/* Each message of an array (or a bare string, a Responses request's user input). */
static int walk_list(const struct json_value *list, size_t *index, struct buf *scratch,
		     chat_fn fn, void *ctx)
{
	size_t i;
	int err;

	if (json_string(list, NULL))
		return emit_texts(list, CHAT_PROMPT, (*index)++, "user", fn, ctx);
	for (i = 0; i < json_array_len(list); i++) {
		err = chat_message(json_array_at(list, i), (*index)++, scratch, fn, ctx);
		if (err)
			return err;
	}
	return 0;
}

int chat_conversation(const struct json_value *v, struct buf *scratch, chat_fn fn, void *ctx,
		      size_t *n_messages)
{
	const struct json_value *choices = json_get(v, "choices");
	size_t index = 0, i;
	int err;

	/* Instructions are no message of the list: they get no index. */
	err = emit_texts(json_get(v, "instructions"), CHAT_PROMPT, SIZE_MAX, "system", fn, ctx);
	if (!err)
		err = emit_texts(json_get(v, "system"), CHAT_PROMPT, SIZE_MAX, "system", fn, ctx);
	if (!err)
		err = walk_list(json_get(v, "messages"), &index, scratch, fn, ctx);
	if (!err)
		err = walk_list(json_get(v, "input"), &index, scratch, fn, ctx);
	if (!err && json_type(json_get(v, "output")) == JSON_ARRAY)
		err = walk_list(json_get(v, "output"), &index, scratch, fn, ctx);
	for (i = 0; !err && i < json_array_len(choices); i++)
		err = chat_message(json_get(json_array_at(choices, i), "message"), index++, scratch,
				   fn, ctx);
	*n_messages = index;
	return err;
}

enum chat_line chat_classify(const struct json_value *v, const struct json_value **msg,
			     const char **why)
{
	const struct json_value *m, *in = json_get(v, "input");

	*msg = NULL;
	*why = NULL;
	if (json_type(v) != JSON_OBJECT) {
		*why = "a transcript line must be a JSON object";
		return CHAT_INVALID;
	}
	if (json_type(json_get(v, "messages")) == JSON_ARRAY ||
	    json_type(json_get(v, "output")) == JSON_ARRAY ||
	    json_type(json_get(v, "choices")) == JSON_ARRAY ||
	    (!json_get(v, "type") && (json_type(in) == JSON_ARRAY || json_type(in) == JSON_STRING)))
		return CHAT_CONVERSATION;
	m = unwrap(v);
	if (json_type(json_get(m, "role")) == JSON_STRING || item_type(str(m, "type"))) {
		*msg = m;
		return CHAT_MESSAGE;
	}
	if (json_type(json_get(v, "type")) == JSON_STRING)
		return CHAT_EVENT;
	*why = "not a chat message or conversation (no \"messages\", \"input\", \"output\", "
	       "\"role\" or \"type\")";
	return CHAT_INVALID;
}

bool chat_conversation_key(const struct json_value *line, size_t *from, size_t *to)
{
	static const char *const keys[] = {
		"conversation", "conversation_id", "session_id", "sessionId", "thread_id",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct json_value *k = json_get(line, keys[i]);

		if (k) {
			json_span(k, from, to);
			return true;
		}
	}
	return false;
}
