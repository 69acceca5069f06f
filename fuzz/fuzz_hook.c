// SPDX-License-Identifier: MIT
/*
 * The hook's readers of outside input: the payload (src/input/hookin.c) and
 * the end of a session log (src/input/tail.c). The first byte chooses:
 *  - even: the byte after it chooses the harness (odd: Codex), and the
 *    rest is a payload. It is read or refused with a reason,
 *    never half: a payload read names its event, a stop's transcript is a
 *    non-empty path without a NUL (or, for Codex only, none), a
 *    file-writing tool's file_path too;
 *  - odd: the byte after it sets the options (which lines, a since offset,
 *    history, max_bytes, a Codex rollout), and the rest is a session log
 *    in a file. It is
 *    read or refused with a reason; what is read lies in the file, in its
 *    order, from where the reading started, and the reply's texts are
 *    counted; reading it again gives the same texts.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "input/hookin.h"
#include "input/tail.h"

static void payload(const uint8_t *data, size_t size)
{
	struct hook_payload p;
	char why[128];
	int err;

	memset(why, 0x55, sizeof(why));
	enum hook_harness h = size && data[0] % 2 ? HOOK_CODEX : HOOK_CLAUDE_CODE;

	if (size) {
		data++;
		size--;
	}
	err = hook_payload_parse((const char *)data, size, h, &p, why, sizeof(why));
	FUZZ_CHECK(err == 0 || err == -EBADMSG || err == -ENOMEM, "parse: %d", err);
	if (err == -EBADMSG) {
		size_t n = strnlen(why, sizeof(why));

		FUZZ_CHECK(n > 0 && n < sizeof(why));
		FUZZ_CHECK(p.root == NULL);
		return;
	}
	if (err)
		return;
	FUZZ_CHECK(p.event_name != NULL);
	FUZZ_CHECK(p.event >= HOOK_STOP && p.event <= HOOK_OTHER);
	if (p.event == HOOK_STOP || p.event == HOOK_SUBAGENT_STOP) {
		FUZZ_CHECK(h == HOOK_CODEX || p.transcript_path);
		FUZZ_CHECK(!p.transcript_path || (*p.transcript_path &&
						  strlen(p.transcript_path) > 0));
		FUZZ_CHECK(!p.last_message || strlen(p.last_message) <= p.last_message_len);
		FUZZ_CHECK(!p.own_transcript || p.event == HOOK_SUBAGENT_STOP);
	}
	if (p.event == HOOK_POST_TOOL_USE) {
		FUZZ_CHECK(p.tool_name != NULL);
		FUZZ_CHECK(!hook_writes_file(p.tool_name) || (p.file_path && *p.file_path));
	}
	hook_payload_free(&p);
	FUZZ_CHECK(p.root == NULL);
}

static int read_log(int fd, const struct tail_options *o, struct tail *t)
{
	struct chat_error e;
	int err;

	memset(&e, 0x55, sizeof(e));
	err = tail_read(fd, o, t, &e);
	FUZZ_CHECK(err == 0 || err == -EBADMSG || err == -EFBIG || err == -ENOMEM,
		   "tail_read: %d", err);
	if (err == -EBADMSG) {
		size_t n = strnlen(e.why, sizeof(e.why));

		FUZZ_CHECK(n > 0 && n < sizeof(e.why));
	}
	return err;
}

static void session_log(const uint8_t *data, size_t size)
{
	struct tail t = {0}, again = {0};
	struct tail_options o = {0};
	uint8_t opt = size ? data[0] : 0;
	size_t i, reply = 0;
	int fd, err;

	if (size) {
		data++;
		size--;
	}
	o.lines = opt % 3 == 0 ? TAIL_ALL : opt % 3 == 1 ? TAIL_MAIN : TAIL_SIDECHAIN;
	o.since = (opt & 0x08) ? size / 2 : 0;
	o.history = (opt & 0x10) ? size / 3 : 0;
	o.max_bytes = (opt & 0x20) ? size / 2 + 1 : 0;
	o.codex = (opt & 0x40) != 0;
	fd = memfd_create("log", MFD_CLOEXEC);
	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(size == 0 || write(fd, data, size) == (ssize_t)size);
	err = read_log(fd, &o, &t);
	if (err == 0) {
		FUZZ_CHECK(t.size == size);
		FUZZ_CHECK(t.from <= t.size);
		FUZZ_CHECK(!o.max_bytes || t.size - t.from <= o.max_bytes);
		for (i = 0; i < t.n; i++) {
			const struct tail_text *x = &t.t[i];

			FUZZ_CHECK(x->kind == CHAT_SCAN || x->kind == CHAT_TOOL ||
				   x->kind == CHAT_PROMPT);
			FUZZ_CHECK(x->off <= t.text.len && x->len <= t.text.len - x->off);
			FUZZ_CHECK(x->len > 0);
			FUZZ_CHECK(x->at >= t.from && x->at < t.size, "at %llu of [%llu, %llu)",
				   (unsigned long long)x->at, (unsigned long long)t.from,
				   (unsigned long long)t.size);
			FUZZ_CHECK(i == 0 || t.t[i - 1].at <= x->at);
			FUZZ_CHECK(x->kind != CHAT_SCAN || x->at >= o.since);
			reply += x->kind == CHAT_SCAN;
		}
		FUZZ_CHECK(reply == t.n_reply);
		/* The same file read again: the same texts. */
		FUZZ_CHECK(read_log(fd, &o, &again) == 0);
		FUZZ_CHECK(again.n == t.n && again.text.len == t.text.len);
		FUZZ_CHECK(fuzz_same(again.text.data, t.text.data, t.text.len));
	}
	tail_free(&t);
	tail_free(&again);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] % 2 == 0)
		payload(data + 1, size - 1);
	else
		session_log(data + 1, size - 1);
	return 0;
}
