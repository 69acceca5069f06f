// SPDX-License-Identifier: MIT
/*
 * Findings as a person reads them, in the form compilers use and editors
 * jump to: PATH:LINE:COL: SEVERITY: MESSAGE [SIGNAL]; in a transcript
 * PATH:RECORD: message INDEX (ROLE) LINE:COL: SEVERITY: .... Everything quoted
 * from the input is escaped: no input drives the terminal.
 */
#include "formats.h"

#include <errno.h>
#include <string.h>

#include "common/url.h"

#define BOLD "\033[1m"
#define RED "\033[1;31m"
#define YELLOW "\033[33m"
#define DIM "\033[2m"
#define RESET "\033[0m"

int out_format_parse(const char *name, enum out_format *out)
{
	static const char *const names[] = {"jsonl", "text", "sarif", "github"};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0) {
			*out = (enum out_format)i;
			return 0;
		}
	return -EINVAL;
}

/* Text quoted from the input: a URL's credentials redacted, then made visible. */
static int quoted(struct buf *b, const char *s)
{
	struct buf r = {0};
	size_t n = strlen(s);
	int err = url_redact(&s, &n, &r);

	err = err ? err : buf_add_visible(b, s, n);
	buf_free(&r);
	return err;
}

int text_finding(struct jsonl *w, const struct text_style *st,
		 const struct halluscan_finding *f)
{
	struct buf *b = &w->b;
	bool block = f->severity >= HALLUSCAN_BLOCK;
	int err = 0;

	err |= st->color ? BUF_LIT(b, BOLD) : 0;
	err |= buf_add_visible(b, w->path, strlen(w->path));
	if (w->message) {
		/* A transcript: the line is the record's (where an editor jumps),
		 * then the message and the place inside its text. */
		err |= buf_addf(b, ":%llu:", (unsigned long long)w->message->record);
		err |= st->color ? BUF_LIT(b, RESET) : 0;
		err |= buf_addf(b, " message %llu (", (unsigned long long)w->message->index);
		err |= buf_add_visible(b, w->message->role, strlen(w->message->role));
		err |= buf_addf(b, ") %llu:%llu:", (unsigned long long)f->line,
				(unsigned long long)f->column);
	} else {
		err |= buf_addf(b, ":%llu:%llu:", (unsigned long long)f->line,
				(unsigned long long)f->column);
		err |= st->color ? BUF_LIT(b, RESET) : 0;
	}
	err |= buf_addc(b, ' ');
	err |= st->color ? buf_adds(b, f->grounded ? DIM : block ? RED : YELLOW) : 0;
	err |= buf_adds(b, f->grounded ? "grounded" : halluscan_severity_name(f->severity));
	err |= st->color ? BUF_LIT(b, RESET) : 0;
	err |= BUF_LIT(b, ": ");
	err |= quoted(b, f->message);
	err |= st->color ? BUF_LIT(b, " " DIM "[") : BUF_LIT(b, " [");
	err |= buf_add_visible(b, f->signal, strlen(f->signal));
	for (size_t i = 0; i < f->n_also; i++)
		err |= buf_addc(b, ',') | buf_add_visible(b, f->also[i], strlen(f->also[i]));
	if (f->trigger)
		err |= BUF_LIT(b, "; trigger: ") | buf_add_visible(b, f->trigger, strlen(f->trigger));
	err |= st->color ? BUF_LIT(b, "]" RESET "\n") : BUF_LIT(b, "]\n");
	if (st->show_recovery) {
		err |= BUF_LIT(b, "    ");
		err |= quoted(b, f->recovery);
		err |= buf_addc(b, '\n');
	}
	return err ? -ENOMEM : jsonl_flush(w);
}
