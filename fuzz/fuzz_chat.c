// SPDX-License-Identifier: MIT
/*
 * The transcript reader (src/input/chat.c) on any JSON line, as
 * --input chat reads one:
 *  - every line is classified; a conversation or a message is walked to
 *    the end (or to what the callback stops, or to a message it cannot
 *    read), never crashing, and an invalid line or an unreadable message
 *    says why;
 *  - each part's kind is one of the three, its role is set, its text is
 *    readable to its length, its message indexes never go back (top-level
 *    text has none), and a conversation counts every message it walked;
 *  - a stop asked by the callback is what the walk returns;
 *  - the conversation key, when there is one, lies inside the line.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "fuzz.h"
#include "input/chat.h"

struct walk {
	const char *line;
	size_t len;
	const struct buf *scratch;
	size_t parts, stop_at, last_message, in_scratch;
	unsigned sum;
	bool any;
};

/* True when [p, p + n) lies in [base, base + len). */
static bool inside(const char *p, size_t n, const char *base, size_t len)
{
	return base && p >= base && n <= len && (size_t)(p - base) <= len - n;
}

static int on_part(void *ctx, const struct chat_part *p)
{
	struct walk *w = ctx;

	FUZZ_CHECK(p->kind == CHAT_SCAN || p->kind == CHAT_TOOL || p->kind == CHAT_PROMPT,
		   "kind %d", (int)p->kind);
	FUZZ_CHECK(p->role != NULL);
	FUZZ_CHECK(p->len == 0 || p->text != NULL);
	/* A text of the tree (a decoded JSON string) or of the scratch buffer:
	 * every byte is read, for the sanitizers to see it is there. */
	for (size_t i = 0; i < p->len; i++)
		w->sum += (unsigned char)p->text[i];
	if (inside(p->text, p->len, w->scratch->data, w->scratch->len))
		w->in_scratch++;
	/* Top-level text (instructions, a system prompt) is no message: SIZE_MAX. */
	if (p->message != SIZE_MAX) {
		FUZZ_CHECK(!w->any || p->message >= w->last_message, "message %zu after %zu",
			   p->message, w->last_message);
		w->any = true;
		w->last_message = p->message;
	}
	return ++w->parts == w->stop_at ? -ECANCELED : 0;
}

/* A reason was written: a NUL-terminated, non-empty string inside the buffer. */
static bool said_why(const struct chat_error *e)
{
	size_t n = strnlen(e->why, sizeof(e->why));

	return n > 0 && n < sizeof(e->why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *)data;
	const struct json_value *msg = NULL;
	struct json_value *v = NULL;
	struct json_error jerr = {0};
	struct buf scratch = {0};
	struct chat_calls calls = {0};
	struct chat_error ce;
	size_t n_messages = 0, from, to, stop;
	int err;

	if (size == 0)
		return 0;
	/* The last byte chooses where the callback stops the walk (0: never). */
	stop = data[size - 1] % 8;
	size--;
	if (json_parse(line, size, &v, &jerr) != 0) {
		FUZZ_CHECK(jerr.offset <= size);
		return 0;
	}
	for (int pass = 0; pass < 2; pass++) {
		struct walk w = {.line = line, .len = size, .scratch = &scratch,
				 .stop_at = pass ? stop : 0};

		memset(&ce, 0x55, sizeof(ce));
		switch (chat_classify(v, &msg, &ce)) {
		case CHAT_CONVERSATION:
			err = chat_conversation(v, &scratch, on_part, &w, &n_messages, &ce);
			FUZZ_CHECK(err == 0 || err == -ECANCELED || err == -EBADMSG, "walk: %d", err);
			FUZZ_CHECK(err != -EBADMSG || said_why(&ce));
			FUZZ_CHECK(err == -ECANCELED ? w.parts == stop : true);
			FUZZ_CHECK(err != 0 || !w.any || w.last_message < n_messages,
				   "message %zu of %zu", w.last_message, n_messages);
			break;
		case CHAT_MESSAGE:
			FUZZ_CHECK(msg != NULL);
			err = chat_message(msg, 7, &scratch, &calls, on_part, &w, &ce);
			FUZZ_CHECK(err == 0 || err == -ECANCELED || err == -EBADMSG, "walk: %d", err);
			FUZZ_CHECK(err != -EBADMSG || said_why(&ce));
			FUZZ_CHECK(!w.any || w.last_message == 7);
			break;
		case CHAT_EVENT:
			break;
		case CHAT_INVALID:
			FUZZ_CHECK(said_why(&ce));
			break;
		default:
			FUZZ_CHECK(!"an unknown line kind");
		}
	}
	if (chat_conversation_key(v, &from, &to))
		FUZZ_CHECK(from < to && to <= size, "key at [%zu, %zu) of %zu", from, to, size);
	json_free(v);
	buf_free(&scratch);
	chat_calls_free(&calls);
	return 0;
}
