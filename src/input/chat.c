// SPDX-License-Identifier: MIT
/* Agent transcripts walked as messages: what to scan, what grounds it. */
#include "chat.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/emit.h"

static bool is(const char *s, const char *lit)
{
	return s && strcmp(s, lit) == 0;
}

static bool one_of(const char *s, const char *const *set, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		if (strcmp(s, set[i]) == 0)
			return true;
	return false;
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
	"shell_call", "shell_call_output", "apply_patch_call", "apply_patch_call_output",
	"tool_search_call", "tool_search_output", "compaction",
};

static bool item_type(const char *t)
{
	return one_of(t, item_types, ARRAY_SIZE(item_types));
}

/*
 * Run log lines that hold no message of the conversation: metadata, or a
 * copy of a message another line holds (Claude Code's "result", Codex's
 * event_msg). Any other "type" of a line that is no message is unknown,
 * and an error: it may hold the model's text.
 */
static const char *const event_types[] = {
	/* Claude Code: its session log, and claude -p --output-format stream-json */
	"summary", "custom-title", "file-history-snapshot", "queue-operation", "system",
	"progress", "result", "stream_event",
	/* Codex: its rollout files, and codex exec --json (an item started or
	 * updated is read when it completes) */
	"session_meta", "turn_context", "event_msg", "compacted",
	"thread.started", "turn.started", "turn.completed", "turn.failed", "item.started",
	"item.updated", "error",
};

/*
 * The items of codex exec --json's "item.completed" lines: the agent's
 * message is scanned, a command's or MCP tool's output grounds, the rest
 * (reasoning, file changes, searches, to-do lists, errors) is no text.
 */
static const char *const codex_items[] = {
	"agent_message", "command_execution", "mcp_tool_call", "reasoning", "file_change",
	"web_search", "todo_list", "error",
};

/*
 * What a role's text is, in any case ("Assistant", "AI", Cohere's
 * "CHATBOT"); false for a role the reader does not know. LangChain's
 * message types are roles too ("ai", "human", "AIMessageChunk").
 */
static bool role_kind(const char *role, enum chat_kind *k)
{
	static const struct {
		const char *role;
		enum chat_kind kind;
	} roles[] = {
		{"assistant", CHAT_SCAN}, {"model", CHAT_SCAN}, {"ai", CHAT_SCAN},
		{"bot", CHAT_SCAN}, {"chatbot", CHAT_SCAN}, {"aimessagechunk", CHAT_SCAN},
		{"user", CHAT_PROMPT}, {"system", CHAT_PROMPT}, {"developer", CHAT_PROMPT},
		{"human", CHAT_PROMPT}, {"humanmessagechunk", CHAT_PROMPT},
		{"systemmessagechunk", CHAT_PROMPT},
		{"tool", CHAT_TOOL}, {"function", CHAT_TOOL}, {"ipython", CHAT_TOOL},
		{"toolmessagechunk", CHAT_TOOL}, {"functionmessagechunk", CHAT_TOOL},
	};
	size_t i;

	for (i = 0; role && i < ARRAY_SIZE(roles); i++)
		if (strcasecmp(role, roles[i].role) == 0) {
			*k = roles[i].kind;
			return true;
		}
	return false;
}

/* LangChain's message types, which it writes where others write a role. */
static const char *const lc_types[] = {
	"ai", "human", "system", "tool", "function", "AIMessageChunk", "HumanMessageChunk",
	"SystemMessageChunk", "ToolMessageChunk", "FunctionMessageChunk",
};

/* The role a LangChain constructor's class implies: {"id": [..., "AIMessage"]}. */
static const char *class_role(const struct json_value *id)
{
	static const struct {
		const char *prefix, *role;
	} classes[] = {
		{"AIMessage", "ai"}, {"HumanMessage", "human"}, {"SystemMessage", "system"},
		{"ToolMessage", "tool"}, {"FunctionMessage", "function"},
	};
	size_t n = json_array_len(id), i;
	const char *c = n ? json_string(json_array_at(id, n - 1), NULL) : NULL;

	for (i = 0; c && i < ARRAY_SIZE(classes); i++)
		if (strcmp(c, classes[i].prefix) == 0 ||
		    (strncmp(c, classes[i].prefix, strlen(classes[i].prefix)) == 0 &&
		     strcmp(c + strlen(classes[i].prefix), "Chunk") == 0))
			return classes[i].role;
	return NULL;
}

/* A message as a line or a list holds it: the object its text is in, and its role. */
struct envelope {
	const struct json_value *body;
	const char *role;  /* NULL: none found */
	bool has_role;     /* a "role" member, of any type */
	bool codex_item;   /* body is the item of an "item.completed" line */
};

/*
 * Opens the wrappers a message comes in: a run log's (Claude Code's
 * "message", Codex's "payload"), LangChain's message_to_dict() ("data")
 * and its serializer's constructor ("kwargs").
 */
static void open_envelope(const struct json_value *v, struct envelope *e)
{
	const struct json_value *m, *b;
	const char *type = str(v, "type");

	e->body = v;
	e->role = NULL;
	e->codex_item = false;
	if (is(type, "item.completed") && json_type(m = json_get(v, "item")) == JSON_OBJECT) {
		e->body = m;
		e->has_role = false;
		e->codex_item = true;
		e->role = is(str(m, "type"), "agent_message") ? "assistant" : NULL;
		return;
	}
	if (is(type, "constructor") && json_type(m = json_get(v, "kwargs")) == JSON_OBJECT) {
		e->body = m;
		e->has_role = json_get(m, "role") != NULL;
		e->role = e->has_role ? str(m, "role") : class_role(json_get(v, "id"));
		return;
	}
	if (!json_get(v, "role")) {
		if (json_type(m = json_get(v, "message")) == JSON_OBJECT)
			e->body = m;
		else if (json_type(m = json_get(v, "payload")) == JSON_OBJECT)
			e->body = m;
		else if (one_of(type, lc_types, ARRAY_SIZE(lc_types)) &&
			 json_type(m = json_get(v, "data")) == JSON_OBJECT)
			e->body = m;
	}
	b = e->body;
	e->has_role = json_get(b, "role") != NULL;
	if (e->has_role)
		e->role = str(b, "role");
	/* A LangChain message names its kind in "type"; a Claude Code
	 * "system" line has a "subtype" and is no message. */
	else if (one_of(str(b, "type"), lc_types, ARRAY_SIZE(lc_types)) && json_get(b, "content") &&
		 !json_get(b, "subtype"))
		e->role = str(b, "type");
}

static int bad(struct chat_error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->why, sizeof(e->why), fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/* What a content part is. */
enum part {
	PART_TEXT,    /* text: *t, *n */
	PART_TOOL,    /* a tool's result held in a message: *tool is its content */
	PART_SKIP,    /* known and not text (a tool call, an image, thinking) */
	PART_UNKNOWN, /* none of these */
};

/* A text field: a string, or the Assistants API's {"value": ...}. */
static bool text_value(const struct json_value *x, const char **t, size_t *n)
{
	*t = json_string(x, n);
	if (!*t)
		*t = json_string(json_get(x, "value"), n);
	return *t != NULL;
}

static bool ends_with(const char *s, const char *lit)
{
	size_t a = strlen(s), b = strlen(lit);

	return a >= b && strcmp(s + a - b, lit) == 0;
}

/*
 * Parts the model writes that are not its reply: tool calls (their
 * arguments are a request to a tool, which checks them), reasoning (never
 * shown to the reader), and media.
 */
static const char *const skipped_types[] = {
	"tool_use", "server_tool_use", "mcp_tool_use", "tool_call", "tool_call_chunk",
	"invalid_tool_call", "server_tool_call", "server_tool_call_chunk", "function_call",
	"thinking", "redacted_thinking", "reasoning",
	"image", "image_url", "image_file", "input_image", "audio", "input_audio", "video",
	"file", "input_file", "document", "container_upload",
};

/* Gemini's parts are untyped: the member they hold says what they are. */
static const char *const gemini_parts[] = {
	"inlineData", "inline_data", "fileData", "file_data", "functionCall", "function_call",
	"functionResponse", "function_response", "executableCode", "executable_code",
	"videoMetadata", "video_metadata", "thoughtSignature", "thought_signature",
};

static enum part part_of(const struct json_value *p, const char **t, size_t *n,
			 const struct json_value **tool)
{
	const struct json_value *x;
	const char *type;
	bool thought = false;
	size_t i;

	*t = json_string(p, n);
	if (*t)
		return PART_TEXT;
	if (json_type(p) != JSON_OBJECT)
		return PART_UNKNOWN;
	type = str(p, "type");
	if (!type) {
		/* A Gemini thought is reasoning, as a thinking block is. */
		if (json_bool(json_get(p, "thought"), &thought) == 0 && thought)
			return PART_SKIP;
		if ((x = json_get(p, "text")))
			return text_value(x, t, n) ? PART_TEXT : PART_UNKNOWN;
		if ((x = json_get(p, "codeExecutionResult")) ||
		    (x = json_get(p, "code_execution_result"))) {
			*tool = json_get(x, "output");
			return PART_TOOL;
		}
		for (i = 0; i < ARRAY_SIZE(gemini_parts); i++)
			if (json_get(p, gemini_parts[i]))
				return PART_SKIP;
		return PART_UNKNOWN;
	}
	if (is(type, "text") || is(type, "input_text") || is(type, "output_text"))
		return text_value(json_get(p, "text"), t, n) ? PART_TEXT : PART_UNKNOWN;
	if (is(type, "refusal"))
		return (*t = json_string(json_get(p, "refusal"), n)) ? PART_TEXT : PART_UNKNOWN;
	/* Anthropic's tool_result, and its server tools' (web_search_tool_result, ...). */
	if (ends_with(type, "tool_result")) {
		*tool = json_get(p, "content");
		return PART_TOOL;
	}
	return one_of(type, skipped_types, ARRAY_SIZE(skipped_types)) ? PART_SKIP : PART_UNKNOWN;
}

/* One message being read. */
struct reading {
	chat_fn fn;
	void *ctx;
	struct buf *scratch; /* the model's parts, joined */
	struct chat_calls *calls;
	struct chat_error *err;
	size_t index;
	const char *role;
	enum chat_kind kind;
	bool any; /* scratch holds a part */
};

static int emit(chat_fn fn, void *ctx, enum chat_kind kind, size_t index, const char *role,
		const char *text, size_t n)
{
	struct chat_part p = {.kind = kind, .message = index, .role = role, .text = text, .len = n};

	return n ? fn(ctx, &p) : 0;
}

/* ---- tool calls and their results ---- */

/* What the calls awaiting results may hold: past it a call is not kept and grounds nothing. */
#define CALLS_MAX ((size_t)4 << 20)
/* How many may await theirs: a new one past it pushes out the oldest
 * (an agent runs a few calls at a time; every result looks through all). */
#define CALLS_PENDING 256

void chat_calls_clear(struct chat_calls *c)
{
	c->b.len = 0;
	c->n = 0;
}

/* The entry at byte at: its id, its text, and where the next starts. */
static size_t call_at(const struct chat_calls *c, size_t at, const char **id, size_t *idn,
		      const char **text, size_t *n)
{
	size_t head[2];

	memcpy(head, c->b.data + at, sizeof(head));
	*idn = head[0];
	*n = head[1];
	*id = c->b.data + at + sizeof(head);
	*text = *id + head[0];
	return at + sizeof(head) + head[0] + head[1];
}

static void call_drop(struct chat_calls *c, size_t at, size_t next)
{
	memmove(c->b.data + at, c->b.data + next, c->b.len - next);
	c->b.len -= next - at;
	c->n--;
}

void chat_calls_free(struct chat_calls *c)
{
	buf_free(&c->b);
}

/* Keeps a call's arguments (text[0, n)) under its id until its result comes. */
static int call_keep(struct chat_calls *c, const char *id, size_t idn, const char *text, size_t n)
{
	size_t head[2] = {idn, n}, len = c ? c->b.len : 0, k, tn;
	const char *ki, *kt;

	if (!c || !id || !idn || !n || c->b.len > CALLS_MAX || n + idn > CALLS_MAX - c->b.len)
		return 0;
	if (buf_add(&c->b, head, sizeof(head)) < 0 || buf_add(&c->b, id, idn) < 0 ||
	    buf_add(&c->b, text, n) < 0) {
		c->b.len = len;
		return -ENOMEM;
	}
	if (++c->n > CALLS_PENDING)
		call_drop(c, 0, call_at(c, 0, &ki, &k, &kt, &tn));
	return 0;
}

/* Each value of v as JSON text, for arguments given as an object: the tool reads them so. */
static int value_text(struct buf *b, const struct json_value *v)
{
	const char *t, *key;
	size_t i, n;
	int64_t k;
	double d;
	bool yes;
	int err = 0;

	switch (json_type(v)) {
	case JSON_STRING:
		t = json_string(v, &n);
		return emit_json_string(b, t, n);
	case JSON_NUMBER:
		if (json_int(v, &k) == 0)
			return buf_addf(b, "%" PRId64, k);
		json_number(v, &d);
		return buf_addf(b, "%.15g", d);
	case JSON_BOOL:
		json_bool(v, &yes);
		return buf_adds(b, yes ? "true" : "false");
	case JSON_ARRAY:
		err = buf_addc(b, '[');
		for (i = 0; i < json_array_len(v) && err >= 0; i++)
			err = (i ? buf_addc(b, ',') : 0) | value_text(b, json_array_at(v, i));
		return err < 0 ? err : buf_addc(b, ']');
	case JSON_OBJECT:
		err = buf_addc(b, '{');
		for (i = 0; i < json_object_len(v) && err >= 0; i++) {
			const struct json_value *m = json_object_at(v, i, &key, &n);

			err = (i ? buf_addc(b, ',') : 0) | emit_json_string(b, key, n) |
			      buf_addc(b, ':') | value_text(b, m);
		}
		return err < 0 ? err : buf_addc(b, '}');
	default:
		return buf_adds(b, "null");
	}
}

/*
 * Keeps the call id with arguments args: a string is kept as written, any
 * other value as JSON text built at the end of scratch (and taken off it).
 */
static int keep_call(struct chat_calls *c, struct buf *scratch, const struct json_value *id,
		     const struct json_value *args)
{
	size_t idn, n, mark = scratch->len;
	const char *i = json_string(id, &idn), *t;
	int err;

	if (!c || !i || !args || json_type(args) == JSON_NULL)
		return 0;
	if ((t = json_string(args, &n)))
		return call_keep(c, i, idn, t, n);
	err = value_text(scratch, args);
	if (err >= 0)
		err = call_keep(c, i, idn, scratch->data + mark, scratch->len - mark);
	scratch->len = mark;
	return err < 0 ? -ENOMEM : 0;
}

/* What a result says of itself when it is a JSON object. */
struct verdict {
	const char *text;
	bool failed;
	bool records; /* it holds a list of records */
};

/* Whether text[0, n) is a JSON array whose first item is an object. */
static bool lists_records(const char *t, size_t n)
{
	size_t i = 0;

	if (!n || t[0] != '[')
		return false;
	for (i = 1; i < n && isspace((unsigned char)t[i]); i++)
		;
	return i < n && t[i] == '{';
}

static bool span_is(const char *t, const struct json_member_span *m, const char *lit)
{
	return m->end - m->start == strlen(lit) && memcmp(t + m->start, lit, m->end - m->start) == 0;
}

/*
 * A member of a result object that says the call failed: an "error" that is
 * not null, false or "", an "is_error" or "isError" true, "success" false,
 * a "status" of "error" or "failed", or a non-zero exit code ("exit_code",
 * "exitCode", "returncode", "return_code", here or in "metadata").
 */
static int verdict_member(void *ctx, const struct json_member_span *m)
{
	static const char *const exits[] = {"exit_code", "exitCode", "returncode", "return_code"};
	struct verdict *v = ctx;
	const char *t = v->text;

	if (is(m->key, "error") || is(m->key, "errors"))
		v->failed |= m->type != JSON_NULL && !span_is(t, m, "false") && !span_is(t, m, "\"\"") &&
			     !span_is(t, m, "[]") && !span_is(t, m, "{}");
	else if (is(m->key, "is_error") || is(m->key, "isError"))
		v->failed |= span_is(t, m, "true");
	else if (is(m->key, "success"))
		v->failed |= span_is(t, m, "false");
	else if (is(m->key, "status"))
		v->failed |= span_is(t, m, "\"error\"") || span_is(t, m, "\"failed\"");
	else if (one_of(m->key, exits, ARRAY_SIZE(exits)))
		v->failed |= m->type == JSON_NUMBER && !span_is(t, m, "0");
	if (m->type == JSON_ARRAY)
		v->records |= lists_records(t + m->start, m->end - m->start);
	else if (is(m->key, "metadata") && m->type == JSON_OBJECT) {
		struct verdict in = {.text = t + m->start};
		enum json_type type;

		if (json_scan_object(t + m->start, m->end - m->start, verdict_member, &in, &type,
				     NULL) == 0)
			v->failed |= in.failed;
	}
	return 0;
}

static bool starts_word(const char *t, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && strncasecmp(t, lit, k) == 0 && (n == k || !isalnum((unsigned char)t[k]));
}

/*
 * Whether a result's text keeps its call's arguments from grounding: it
 * says the call failed (a JSON object with a member verdict_member()
 * names, or a text that opens with "Error" (any case, as a word), a Python
 * traceback, or "Exit code" with a number other than 0), or it lists
 * records (a JSON array of objects, or an object with one as a member):
 * then the call was a question (a search's bounds, a filter) and the
 * records are the answer, which the reply is held to. Nothing else is read
 * as a failure: a result is the tool's.
 */
static bool text_withholds(const char *t, size_t n)
{
	enum json_type type;
	size_t i;

	while (n && isspace((unsigned char)*t))
		t++, n--;
	if (lists_records(t, n))
		return true;
	if (n && *t == '{') {
		struct verdict v = {.text = t};

		return json_scan_object(t, n, verdict_member, &v, &type, NULL) == 0 &&
		       (v.failed || v.records);
	}
	if (starts_word(t, n, "error") || starts_word(t, n, "Traceback (most recent call last)"))
		return true;
	if (!starts_word(t, n, "exit code"))
		return false;
	for (i = 9; i < n && (t[i] == ':' || t[i] == ' '); i++)
		;
	return i < n && isdigit((unsigned char)t[i]) && (t[i] != '0' || (i + 1 < n &&
							 isdigit((unsigned char)t[i + 1])));
}

/*
 * Whether a result (a text, a part or parts) keeps its call's arguments
 * from grounding: its first text decides (text_withholds()).
 */
static bool result_withholds(const struct json_value *v)
{
	const struct json_value *p = json_type(v) == JSON_ARRAY ? json_array_at(v, 0) : v;
	const char *t, *type = str(p, "type");
	size_t n;

	/* A server tool's error is a result of its own type ("web_search_tool_result_error"). */
	if (type && ends_with(type, "_error"))
		return true;
	if (!(t = json_string(p, &n)) && !(t = json_string(json_get(p, "text"), &n)))
		return false;
	return text_withholds(t, n);
}

/*
 * The result of call id has come, in message index: when it did not fail,
 * the call's arguments ground from here on. Either way the call is done.
 */
static int call_done(struct chat_calls *c, const struct json_value *id, bool failed,
		     size_t index, chat_fn fn, void *ctx)
{
	size_t idn, at, next, kn, n;
	const char *i = json_string(id, &idn), *k, *t;
	int err = 0;

	for (at = 0; c && i && at < c->b.len; at = next) {
		next = call_at(c, at, &k, &kn, &t, &n);
		if (kn != idn || memcmp(k, i, idn) != 0)
			continue;
		if (!failed)
			err = emit(fn, ctx, CHAT_TOOL, index, "tool", t, n);
		call_drop(c, at, next);
		break;
	}
	return err;
}

/* Each text of v (a string, a part or an array of parts) as a part of kind; the rest is skipped. */
static int emit_texts(const struct json_value *v, enum chat_kind kind, size_t index,
		      const char *role, chat_fn fn, void *ctx)
{
	const struct json_value *tool;
	const char *t;
	size_t i, n;
	int err = 0;

	if (json_type(v) != JSON_ARRAY)
		return part_of(v, &t, &n, &tool) == PART_TEXT ? emit(fn, ctx, kind, index, role, t, n)
							       : 0;
	for (i = 0; i < json_array_len(v) && !err; i++)
		if (part_of(json_array_at(v, i), &t, &n, &tool) == PART_TEXT)
			err = emit(fn, ctx, kind, index, role, t, n);
	return err;
}

/* One part of a message: the model's text is gathered, the rest emitted. */
static int read_part(struct reading *r, const struct json_value *p, size_t at)
{
	const struct json_value *tool = NULL;
	const char *t, *type;
	size_t n;
	int err;

	switch (part_of(p, &t, &n, &tool)) {
	case PART_TEXT:
		if (r->kind != CHAT_SCAN)
			return emit(r->fn, r->ctx, r->kind, r->index, r->role, t, n);
		/* The model's parts are one text, a line break apart (a sentence
		 * ends there, so parts never run into each other). */
		if ((r->any && buf_addc(r->scratch, '\n') < 0) || buf_add(r->scratch, t, n) < 0)
			return -ENOMEM;
		r->any = true;
		return 0;
	case PART_TOOL:
		err = emit_texts(tool, CHAT_TOOL, r->index, r->role, r->fn, r->ctx);
		if (!err && json_get(p, "tool_use_id")) {
			bool flag = false;

			json_bool(json_get(p, "is_error"), &flag);
			err = call_done(r->calls, json_get(p, "tool_use_id"), flag || result_withholds(tool),
					r->index, r->fn, r->ctx);
		}
		return err;
	case PART_SKIP:
		type = str(p, "type");
		if (is(type, "tool_use") || is(type, "server_tool_use") || is(type, "mcp_tool_use"))
			return keep_call(r->calls, r->scratch, json_get(p, "id"), json_get(p, "input"));
		return 0;
	case PART_UNKNOWN:
		break;
	}
	/* What is not the model's only grounds less when it is not read. */
	if (r->kind != CHAT_SCAN)
		return 0;
	type = str(p, "type");
	if (type)
		return bad(r->err, "message_index %zu (%.40s): content part %zu is of type \"%.40s\", "
			   "which holds no text this reader knows", r->index, r->role, at, type);
	return bad(r->err, "message_index %zu (%.40s): content part %zu is %s with no text this "
		   "reader knows", r->index, r->role, at, json_type_name(json_type(p), "nothing"));
}

/* Where a message keeps its text: the first of these that is there and not null. */
static const struct json_value *content_of(const struct json_value *m)
{
	static const char *const keys[] = {
		"content", /* most APIs */
		"parts",   /* Gemini */
		"text",    /* message-level text */
		"message", /* Cohere's chat history */
	};
	const struct json_value *c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		c = json_get(m, keys[i]);
		if (c && json_type(c) != JSON_NULL)
			return c;
	}
	/* Chat Completions' spoken reply: content null, the words in its transcript. */
	return json_get(json_get(m, "audio"), "transcript");
}

/*
 * The arguments of a call whose result is in the same item, and no error:
 * they ground now (a string as written, anything else as JSON text built
 * at the end of scratch).
 */
static int ground_args(const struct json_value *args, struct buf *scratch, size_t index,
		       chat_fn fn, void *ctx)
{
	size_t n, mark = scratch->len;
	const char *t = json_string(args, &n);
	int err;

	if (t)
		return emit(fn, ctx, CHAT_TOOL, index, "tool", t, n);
	if (!args || json_type(args) == JSON_NULL)
		return 0;
	err = value_text(scratch, args) < 0 ? -ENOMEM : 0;
	if (!err)
		err = emit(fn, ctx, CHAT_TOOL, index, "tool", scratch->data + mark, scratch->len - mark);
	scratch->len = mark;
	return err;
}

/* No error member, or a null one. */
static bool no_error(const struct json_value *m)
{
	return json_type(json_get(m, "error")) <= JSON_NULL;
}

/*
 * A Responses item that is no message: a tool's output grounds, and so do
 * the arguments of a call the tool answered without an error; the rest is
 * skipped.
 */
static int walk_item(const struct json_value *m, const char *type, size_t index,
		     struct buf *scratch, struct chat_calls *calls, chat_fn fn, void *ctx)
{
	const struct json_value *out = json_get(m, "output");
	int64_t code = -1;
	size_t i;
	int err = 0;

	if (is(type, "function_call") || is(type, "custom_tool_call"))
		return keep_call(calls, scratch, json_get(m, "call_id"),
				 json_get(m, is(type, "function_call") ? "arguments" : "input"));
	if (is(type, "local_shell_call") || is(type, "shell_call"))
		return keep_call(calls, scratch, json_get(m, "call_id"), json_get(m, "action"));
	if (is(type, "function_call_output") || is(type, "custom_tool_call_output") ||
	    is(type, "local_shell_call_output")) {
		err = emit_texts(out, CHAT_TOOL, index, "tool", fn, ctx);
		return err ? err : call_done(calls, json_get(m, "call_id"), result_withholds(out), index,
					     fn, ctx);
	}
	if (is(type, "mcp_call")) { /* the call and its result in one item */
		err = emit_texts(out, CHAT_TOOL, index, "tool", fn, ctx);
		if (!err && out && no_error(m) && !result_withholds(out))
			err = ground_args(json_get(m, "arguments"), scratch, index, fn, ctx);
		return err;
	}
	if (is(type, "command_execution")) { /* codex exec */
		err = emit_texts(json_get(m, "aggregated_output"), CHAT_TOOL, index, "tool", fn, ctx);
		if (!err && json_int(json_get(m, "exit_code"), &code) == 0 && code == 0)
			err = ground_args(json_get(m, "command"), scratch, index, fn, ctx);
		return err;
	}
	if (is(type, "mcp_tool_call")) {
		const struct json_value *res = json_get(m, "result");

		err = emit_texts(json_get(res, "content"), CHAT_TOOL, index, "tool", fn, ctx);
		if (!err && res && json_type(res) != JSON_NULL && no_error(m) &&
		    !is(str(m, "status"), "failed") && !json_get(res, "isError") &&
		    !result_withholds(json_get(res, "content")))
			err = ground_args(json_get(m, "arguments"), scratch, index, fn, ctx);
		return err;
	}
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

/* A message; one with no role has role dflt (Gemini's contents), or none when NULL. */
static int read_message(const struct json_value *m, size_t index, struct buf *scratch,
			struct chat_calls *calls, chat_fn fn, void *ctx, struct chat_error *e,
			const char *dflt)
{
	struct reading r = {.fn = fn, .ctx = ctx, .scratch = scratch, .calls = calls, .err = e,
			    .index = index};
	const struct json_value *content, *calls_of;
	struct envelope env;
	const char *t, *type;
	bool flag = false;
	size_t i, n;
	int err = 0;

	/* A compaction summary (Claude Code's, on a user line) is the model's
	 * own account of what came before: it grounds nothing, and it is no
	 * reply to the reader either. */
	if (json_bool(json_get(m, "isCompactSummary"), &flag) == 0 && flag)
		return 0;
	open_envelope(m, &env);
	type = str(env.body, "type");
	if (!env.has_role && !env.role && dflt && json_type(m) == JSON_OBJECT && !type)
		env.role = dflt;
	if (!env.has_role && !env.role) {
		if (item_type(type) || (env.codex_item && one_of(type, codex_items, ARRAY_SIZE(codex_items))))
			return walk_item(env.body, type, index, scratch, calls, fn, ctx);
		if (json_type(m) != JSON_OBJECT)
			return bad(e, "message_index %zu is %s, not a message", index,
				   json_type_name(json_type(m), "nothing"));
		if (type)
			return bad(e, "message_index %zu is of type \"%.40s\", which this reader "
				   "does not know", index, type);
		return bad(e, "message_index %zu has no role", index);
	}
	if (!env.role)
		return bad(e, "message_index %zu: its role is %s, not a string", index,
			   json_type_name(json_type(json_get(env.body, "role")), "nothing"));
	if (!role_kind(env.role, &r.kind))
		return bad(e, "message_index %zu: role \"%.40s\" is not one this reader knows",
			   index, env.role);
	r.role = env.role;
	content = content_of(env.body);
	/* The model's calls (Chat Completions' and LangChain's "tool_calls"):
	 * kept until their results say whether the tool took them. */
	calls_of = json_get(env.body, "tool_calls");
	for (i = 0; r.kind == CHAT_SCAN && i < json_array_len(calls_of) && !err; i++) {
		const struct json_value *c = json_array_at(calls_of, i);
		const struct json_value *args = json_get(json_get(c, "function"), "arguments");

		err = keep_call(calls, scratch, json_get(c, "id"), args ? args : json_get(c, "args"));
	}
	if (err)
		return err;
	t = json_string(content, &n);
	if (t)
		err = emit(fn, ctx, r.kind, index, r.role, t, n);
	/* A tool message answers a call (LangChain's says "status": "error"). */
	if (!err && r.kind == CHAT_TOOL && json_get(env.body, "tool_call_id")) {
		flag = false;
		json_bool(json_get(env.body, "is_error"), &flag);
		err = call_done(calls, json_get(env.body, "tool_call_id"),
				flag || is(str(env.body, "status"), "error") || result_withholds(content),
				index, fn, ctx);
	}
	if (t || err)
		return err;
	scratch->len = 0;
	switch (json_type(content)) {
	case JSON_NONE:
		break; /* no text: a call of tools only */
	case JSON_ARRAY:
		for (i = 0; i < json_array_len(content) && !err; i++)
			err = read_part(&r, json_array_at(content, i), i);
		break;
	case JSON_OBJECT:
		err = read_part(&r, content, 0); /* a lone part */
		break;
	default:
		if (r.kind == CHAT_SCAN)
			err = bad(e, "message_index %zu (%.40s): its content is %s, not text", index,
				  r.role, json_type_name(json_type(content), "nothing"));
	}
	if (err || r.kind != CHAT_SCAN)
		return err;
	return emit(fn, ctx, CHAT_SCAN, index, r.role, scratch->data, scratch->len);
}

int chat_message(const struct json_value *m, size_t index, struct buf *scratch,
		 struct chat_calls *calls, chat_fn fn, void *ctx, struct chat_error *e)
{
	return read_message(m, index, scratch, calls, fn, ctx, e, NULL);
}

/* Each message of an array (or a bare string, a Responses request's user input). */
static int walk_list(const struct json_value *list, size_t *index, struct buf *scratch,
		     struct chat_calls *calls, chat_fn fn, void *ctx, struct chat_error *e,
		     const char *dflt)
{
	size_t i;
	int err;

	if (json_string(list, NULL))
		return emit_texts(list, CHAT_PROMPT, (*index)++, "user", fn, ctx);
	for (i = 0; i < json_array_len(list); i++) {
		err = read_message(json_array_at(list, i), (*index)++, scratch, calls, fn, ctx, e,
				   dflt);
		if (err)
			return err;
	}
	return 0;
}

/* A choice of a completion: its message, or the legacy completion's text. */
static int walk_choice(const struct json_value *c, size_t index, struct buf *scratch,
		       struct chat_calls *calls, chat_fn fn, void *ctx, struct chat_error *e)
{
	const struct json_value *m = json_get(c, "message");
	const char *t;
	size_t n;

	if (m)
		return chat_message(m, index, scratch, calls, fn, ctx, e);
	if ((t = json_string(json_get(c, "text"), &n)))
		return emit(fn, ctx, CHAT_SCAN, index, "assistant", t, n);
	/* A streamed chunk holds a piece of a reply: pieces are no sentences. */
	if (json_get(c, "delta"))
		return bad(e, "message_index %zu: a streamed chunk's \"delta\" is a piece of a "
			   "reply; join the stream into one message first", index);
	return bad(e, "message_index %zu: a choice with no \"message\" or \"text\"", index);
}

/* The text of a system prompt: a string, parts, or Gemini's {"parts": [...]}. */
static int emit_system(const struct json_value *v, chat_fn fn, void *ctx)
{
	if (json_type(v) == JSON_OBJECT && json_get(v, "parts"))
		v = json_get(v, "parts");
	/* Instructions are no message of the list: they get no index. */
	return emit_texts(v, CHAT_PROMPT, SIZE_MAX, "system", fn, ctx);
}

/*
 * An ATIF trajectory's steps (Harbor's RFC 0001, "Agent Trajectory
 * Interchange Format", v1.x): a system or user step's message is the
 * prompt, an agent step's message the model's text (its reasoning_content
 * and tool_calls are not), and the observation results of any step are
 * tool output, read after the step's message they answer.
 */
static int walk_atif(const struct json_value *v, size_t *index, struct buf *scratch, chat_fn fn,
		     void *ctx, struct chat_error *e)
{
	const struct json_value *steps = json_get(v, "steps");
	const char *version = str(v, "schema_version");
	size_t i, k;
	int err = 0;

	if (json_get(v, "schema_version") && (!version || strncmp(version, "ATIF-v1.", 8) != 0))
		return bad(e, "schema_version %s%.40s%s is not an ATIF version this reader knows "
			   "(ATIF-v1.x)", version ? "\"" : "", version ? version : "(not a string)",
			   version ? "\"" : "");
	for (i = 0; i < json_array_len(steps) && !err; i++, (*index)++) {
		const struct json_value *step = json_array_at(steps, i), *m, *res;
		const char *source = str(step, "source");
		struct reading r = {.fn = fn, .ctx = ctx, .scratch = scratch, .err = e,
				    .index = *index};

		if (json_type(step) != JSON_OBJECT)
			return bad(e, "step %zu is %s, not a step", i, json_type_name(json_type(step), "nothing"));
		if (is(source, "agent"))
			r.kind = CHAT_SCAN, r.role = "agent";
		else if (is(source, "user") || is(source, "system"))
			r.kind = CHAT_PROMPT, r.role = source;
		else
			return bad(e, "step %zu: source %s%.40s%s is not system, user or agent", i,
				   source ? "\"" : "", source ? source : "(not a string)",
				   source ? "\"" : "");
		m = json_get(step, "message");
		scratch->len = 0;
		if (json_string(m, NULL)) {
			const char *t = json_string(m, &k);

			err = emit(fn, ctx, r.kind, r.index, r.role, t, k);
		} else if (json_type(m) == JSON_ARRAY) {
			/* Content parts, as a message of the Messages API holds them. */
			for (k = 0; k < json_array_len(m) && !err; k++)
				err = read_part(&r, json_array_at(m, k), k);
			if (!err && r.kind == CHAT_SCAN)
				err = emit(fn, ctx, CHAT_SCAN, r.index, r.role, scratch->data, scratch->len);
		} else if (m && json_type(m) != JSON_NULL && r.kind == CHAT_SCAN) {
			err = bad(e, "step %zu (agent): its message is %s, not text", i,
				  json_type_name(json_type(m), "nothing"));
		}
		res = json_get(json_get(step, "observation"), "results");
		for (k = 0; k < json_array_len(res) && !err; k++)
			err = emit_texts(json_get(json_array_at(res, k), "content"), CHAT_TOOL, r.index,
					 "tool", fn, ctx);
	}
	return err;
}

int chat_conversation(const struct json_value *v, struct buf *scratch, chat_fn fn, void *ctx,
		      size_t *n_messages, struct chat_error *e)
{
	/* Gemini's contents default to the user's: a request's text with no role is its prompt. */
	static const struct {
		const char *key, *dflt;
	} lists[] = {{"messages", NULL}, {"contents", "user"}, {"input", NULL}};
	const struct json_value *choices = json_get(v, "choices");
	const struct json_value *candidates = json_get(v, "candidates");
	struct chat_calls calls = {0};
	size_t index = 0, i;
	int err;

	err = emit_system(json_get(v, "instructions"), fn, ctx);
	if (!err)
		err = emit_system(json_get(v, "system"), fn, ctx);
	if (!err)
		err = emit_system(json_get(v, "systemInstruction"), fn, ctx);
	if (!err)
		err = emit_system(json_get(v, "system_instruction"), fn, ctx);
	if (!err && json_type(json_get(v, "steps")) == JSON_ARRAY &&
	    json_type(json_get(v, "agent")) == JSON_OBJECT)
		err = walk_atif(v, &index, scratch, fn, ctx, e);
	for (i = 0; !err && i < ARRAY_SIZE(lists); i++)
		err = walk_list(json_get(v, lists[i].key), &index, scratch, &calls, fn, ctx, e,
				lists[i].dflt);
	if (!err && json_type(json_get(v, "output")) == JSON_ARRAY)
		err = walk_list(json_get(v, "output"), &index, scratch, &calls, fn, ctx, e, NULL);
	for (i = 0; !err && i < json_array_len(choices); i++)
		err = walk_choice(json_array_at(choices, i), index++, scratch, &calls, fn, ctx, e);
	/* Gemini's reply: each candidate's content is a message (none when it was blocked). */
	for (i = 0; !err && i < json_array_len(candidates); i++) {
		const struct json_value *c = json_get(json_array_at(candidates, i), "content");

		err = c ? read_message(c, index, scratch, &calls, fn, ctx, e, "model") : 0;
		index++;
	}
	chat_calls_free(&calls);
	*n_messages = index;
	return err;
}

enum chat_line chat_classify(const struct json_value *v, const struct json_value **msg,
			     struct chat_error *e)
{
	const struct json_value *in = json_get(v, "input");
	struct envelope env;
	const char *type = str(v, "type");

	*msg = NULL;
	e->why[0] = '\0';
	if (json_type(v) != JSON_OBJECT) {
		bad(e, "a transcript line must be a JSON object");
		return CHAT_INVALID;
	}
	if (json_type(json_get(v, "messages")) == JSON_ARRAY ||
	    json_type(json_get(v, "output")) == JSON_ARRAY ||
	    json_type(json_get(v, "choices")) == JSON_ARRAY ||
	    json_type(json_get(v, "contents")) == JSON_ARRAY ||
	    json_type(json_get(v, "candidates")) == JSON_ARRAY ||
	    /* An ATIF trajectory: its steps, under its agent. */
	    (json_type(json_get(v, "steps")) == JSON_ARRAY &&
	     json_type(json_get(v, "agent")) == JSON_OBJECT) ||
	    (!type && (json_type(in) == JSON_ARRAY || json_type(in) == JSON_STRING)))
		return CHAT_CONVERSATION;
	open_envelope(v, &env);
	if (env.has_role || env.role || item_type(str(env.body, "type")) || env.codex_item) {
		*msg = v;
		return CHAT_MESSAGE;
	}
	if (one_of(type, event_types, ARRAY_SIZE(event_types)))
		return CHAT_EVENT;
	if (type)
		bad(e, "a line of type \"%.40s\", which this reader does not know (it may hold "
		    "the model's text)", type);
	else
		bad(e, "not a chat message or conversation (no \"messages\", \"contents\", "
		    "\"input\", \"output\", \"choices\", \"role\" or \"type\")");
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
