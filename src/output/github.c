// SPDX-License-Identifier: MIT
/*
 * GitHub Actions workflow commands: each finding an annotation on its
 * file and line. Values are escaped as the runner unescapes them (%, CR
 * and LF; in properties also ':' and ','), and other control characters
 * as a terminal shows them, so no input can start a command of its own.
 */
#include "formats.h"

#include <errno.h>
#include <string.h>

#include "common/url.h"

static int escaped(struct buf *b, const char *s, size_t n, bool property)
{
	struct buf v = {0}, r = {0};
	size_t i;
	/* A URL's credentials are redacted wherever they come from. */
	int err = url_redact(&s, &n, &r);

	err = err ? err : buf_add_visible(&v, s, n);
	buf_free(&r);

	for (i = 0; i < v.len && err == 0; i++) {
		char c = v.data[i];

		if (c == '%')
			err = BUF_LIT(b, "%25");
		else if (property && c == ':')
			err = BUF_LIT(b, "%3A");
		else if (property && c == ',')
			err = BUF_LIT(b, "%2C");
		else
			err = buf_addc(b, c);
	}
	buf_free(&v);
	return err;
}

static size_t code_points(const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += ((unsigned char)s[i] & 0xC0) != 0x80;
	return k;
}

int github_finding(struct jsonl *w, const struct halluscan_finding *f)
{
	struct buf *b = &w->b;
	int err = 0;

	err |= buf_adds(b, f->grounded ? "::notice file="
			 : f->severity >= HALLUSCAN_BLOCK ? "::error file=" : "::warning file=");
	err |= escaped(b, w->path, strlen(w->path), true);
	if (w->message) {
		/* A transcript: the annotation is on the record's line (a column
		 * of the message's text is none of the file's); the title says
		 * which message and where in it. */
		err |= buf_addf(b, ",line=%llu", (unsigned long long)w->message->record);
	} else {
		err |= buf_addf(b, ",line=%llu,col=%llu", (unsigned long long)f->line,
				(unsigned long long)f->column);
		if (!f->text_truncated && !memchr(f->text, '\n', f->text_len))
			err |= buf_addf(b, ",endColumn=%llu",
					(unsigned long long)(f->column +
							     code_points(f->text, f->text_len)));
	}
	err |= BUF_LIT(b, ",title=");
	err |= escaped(b, f->signal, strlen(f->signal), true);
	for (size_t i = 0; i < f->n_also; i++)
		err |= BUF_LIT(b, "%2C") | escaped(b, f->also[i], strlen(f->also[i]), true);
	if (w->message) {
		err |= buf_addf(b, " in message %llu (", (unsigned long long)w->message->index);
		err |= escaped(b, w->message->role, strlen(w->message->role), true);
		err |= buf_addf(b, ") at %llu%%3A%llu", (unsigned long long)f->line,
				(unsigned long long)f->column);
	}
	err |= BUF_LIT(b, "::");
	err |= escaped(b, f->message, strlen(f->message), false);
	err |= buf_addc(b, '\n');
	return err ? -ENOMEM : jsonl_flush(w);
}

int github_error(struct jsonl *w, const char *message)
{
	struct buf *b = &w->b;
	int err = BUF_LIT(b, "::error file=");

	err |= escaped(b, w->path, strlen(w->path), true);
	if (w->message)
		err |= buf_addf(b, ",line=%llu", (unsigned long long)w->message->record);
	err |= BUF_LIT(b, ",title=halluscan::");
	err |= escaped(b, message, strlen(message), false);
	err |= buf_addc(b, '\n');
	return err ? -ENOMEM : jsonl_flush(w);
}
