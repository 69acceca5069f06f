// SPDX-License-Identifier: MIT
/*
 * --fix: each input repaired with the rules' fix templates (fix.h), the
 * findings going through the same filters as a scan's (code, directives,
 * --select, --ignore, the baseline: report.c), muted while the repairs are
 * made and written, for the text given back, to --report. Standard input's
 * text goes to standard output; a file is rewritten in place, atomically,
 * or with --diff shown as a unified diff.
 */
#include "cli/repair.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/api.h"
#include "claims/fix.h"
#include "common/emit.h"
#include "common/url.h"
#include "input/plain.h"
#include "match/decode.h"

/* What one input costs in memory at most: it is held whole, with its repaired copy. */
#define FIX_MAX_BYTES ((size_t)64 << 20)

struct fix_ctx {
	const struct cli_fix *o;
	const char *shown;
	struct fix_list *list;
	bool failed;
};

static int collect(void *ctx, const char *path, const struct halluscan_finding *f)
{
	struct fix_ctx *c = ctx;

	(void)path;
	return fix_list_add(c->list, api_rules_db(c->o->rules)->rs, f->start, f->end, f->rule,
			    f->signal, f->source, f->also, f->n_also);
}

/* text whole through the scanner and the report's filters. */
static int scan_through(const struct cli_fix *o, const char *shown, const char *text, size_t len,
			bool *failed)
{
	struct report *rep = o->rep;
	const struct halluscan_summary *sum;
	struct jsonl_input how = {0};
	size_t at, n;
	int err = 0;

	report_input(rep, shown);
	rep->scanner = o->sc;
	for (at = 0; at < len && err == 0; at += n) {
		n = MIN(len - at, (size_t)PLAIN_READ_SIZE);
		err = report_text(rep, text + at, n);
		err = err ? err : halluscan_scanner_feed(o->sc, text + at, n);
	}
	err = err ? err : report_text_end(rep);
	err = err ? err : halluscan_scanner_end(o->sc, &sum);
	err = err ? err : report_summary(rep, sum, &how, failed);
	if (err)
		halluscan_scanner_reset(o->sc, HALLUSCAN_RESET_KEEP_GROUNDING);
	return err;
}

/* A fix round's scan: muted, the findings collected into list. */
static int fix_scan(struct fix_ctx *c, const char *text, size_t len, struct fix_list *list)
{
	struct report *rep = c->o->rep;
	int (*tap)(void *, const char *, const struct halluscan_finding *) = rep->tap;
	void *tap_ctx = rep->tap_ctx;
	bool failed;
	int err;

	c->list = list;
	rep->mute = true;
	rep->tap = collect;
	rep->tap_ctx = c;
	err = scan_through(c->o, c->shown, text, len, &failed);
	rep->mute = false;
	rep->tap = tap;
	rep->tap_ctx = tap_ctx;
	return err;
}

/* The repairs as records of the report (JSONL): offsets are the input's as read. */
static int write_edits(struct jsonl *out, const char *shown, const char *in,
		       const struct fix_result *res)
{
	struct buf *b = &out->b, tmp = {0}, tmp2 = {0};
	size_t i;
	int err = 0;

	for (i = 0; i < res->n_edits && err == 0; i++) {
		const struct fix_edit *e = &res->edits[i];
		/* A URL's credentials stay out of the report, as in every finding. */
		const char *t = in + e->start, *w = e->with;
		size_t tn = (size_t)(e->end - e->start), wn = e->with_len;

		if (url_redact(&t, &tn, &tmp) < 0 || url_redact(&w, &wn, &tmp2) < 0) {
			err = -ENOMEM;
			break;
		}

		err |= BUF_LIT(b, "{\"type\":\"fix\",\"path\":");
		err |= emit_json_string(b, shown, strlen(shown));
		err |= BUF_LIT(b, ",\"signal\":") | emit_json_string(b, e->signal, strlen(e->signal));
		err |= BUF_LIT(b, ",\"rule\":") | emit_json_string(b, e->rule, strlen(e->rule));
		err |= buf_addf(b, ",\"start\":%llu,\"end\":%llu,\"text\":",
				(unsigned long long)e->start, (unsigned long long)e->end);
		err |= emit_json_string(b, t, tn);
		err |= BUF_LIT(b, ",\"fixed\":") | emit_json_string(b, w, wn);
		err |= e->reverted ? BUF_LIT(b, ",\"applied\":false}\n") : BUF_LIT(b, ",\"applied\":true}\n");
		err = err ? -ENOMEM : jsonl_flush(out);
	}
	buf_free(&tmp);
	buf_free(&tmp2);
	return err;
}

/*
 * Reads one input whole: standard input, or a regular file that is not a
 * symbolic link (a link is never followed: rewriting it would replace the
 * link, or a file outside the tree). 0, or a positive errno with *why.
 */
static int read_input(const char *name, char **data, size_t *len, struct stat *st,
		      const char **why)
{
	int fd, err;

	*why = NULL;
	if (strcmp(name, "-") == 0) {
		err = read_fd_max(STDIN_FILENO, FIX_MAX_BYTES + 1, data, len);
	} else {
		if (lstat(name, st) != 0)
			return errno;
		if (S_ISLNK(st->st_mode)) {
			*why = "a symbolic link: not repaired (name the file it points to)";
			return EINVAL;
		}
		if (!S_ISREG(st->st_mode)) {
			*why = "not a regular file: not repaired";
			return EINVAL;
		}
		fd = open(name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return errno;
		err = read_fd_max(fd, FIX_MAX_BYTES + 1, data, len);
		close(fd);
	}
	if (err == 0 && *len > FIX_MAX_BYTES) {
		*why = "larger than 64 MiB: not repaired";
		return EFBIG;
	}
	return err < 0 ? -err : 0;
}

/* How many bytes of a UTF-8 mark to keep aside, or -1: not text --fix can rewrite byte for byte. */
static long text_head(const char *data, size_t len)
{
	static struct decoder d; /* its head is 1 KiB; its buffer is kept between calls */
	const char *o, *o2;
	size_t n = 0, n2 = 0;
	long head = -1;
	int err;

	decode_init(&d);
	err = decode_feed(&d, data, len, &o, &n);
	if (err == 0)
		err = decode_end(&d, &o2, &n2);
	if (err == 0 && d.replaced == 0) {
		if (d.enc == DECODE_BYTES || d.enc == DECODE_PENDING)
			head = 0;
		else if (d.enc == DECODE_UTF8_BOM && len >= 3)
			head = 3;
	}
	decode_free(&d);
	d = (struct decoder){0};
	return head;
}

int cli_fix_one(const struct cli_fix *o, const char *name, const char *shown, bool *changed,
		bool *failed, bool *io_error)
{
	struct fix_ctx c = {.o = o, .shown = shown};
	struct fix_run fr;
	struct fix_list *found;
	const char *t;
	size_t tn;
	struct fix_result res = {0};
	struct buf diff = {0};
	struct stat st = {0};
	const char *why, *body;
	char *data = NULL;
	size_t len = 0, i, applied = 0, reverted = 0;
	long head;
	bool stdin_in = strcmp(name, "-") == 0, fail = false;
	int err;

	o->rep->model_output = o->model_output_all || (o->model_output_stdin && stdin_in);
	o->rep->inline_ignore = o->honour && !o->rep->model_output;
	err = read_input(name, &data, &len, &st, &why);
	if (err) {
		cli_warn("%s: %s", shown, why ? why : strerror(err));
		*io_error = true;
		err = report_error(o->rep, shown, why ? why : strerror(err));
		goto out;
	}
	head = text_head(data, len);
	if (head < 0) {
		why = "not UTF-8 text (a byte-order mark of UTF-16 or UTF-32, or bytes that are no "
		      "character): not repaired";
		cli_warn("%s: %s", shown, why);
		*io_error = true;
		err = report_error(o->rep, shown, why);
		goto out;
	}
	body = data + head;
	fix_begin(&fr, body, len - (size_t)head, &res);
	while ((err = fix_next(&fr, &t, &tn, &found)) > 0 && (err = fix_scan(&c, t, tn, found)) == 0)
		;
	fix_end(&fr);
	if (err)
		goto out;
	for (i = 0; i < res.n_edits; i++) {
		applied += !res.edits[i].reverted;
		reverted += res.edits[i].reverted;
	}
	if (o->rep->format == OUT_JSONL) {
		o->rep->out->path = shown;
		err = write_edits(o->rep->out, shown, body, &res);
		if (err)
			goto out;
	}
	/* The report is of the text given back. */
	err = scan_through(o, shown, res.out.data, res.out.len, &fail);
	if (err)
		goto out;
	if (fail)
		*failed = true;
	if (res.gave_up)
		cli_warn("%s: the repairs did not settle in %d rounds: left as it was", shown,
			 FIX_ROUNDS);
	else if (reverted)
		cli_warn("%s: %zu repair%s taken back: the repaired text was itself a finding", shown,
			 reverted, reverted == 1 ? "" : "s");
	if (applied)
		*changed = true;
	if (o->diff) {
		if (applied) {
			err = fix_diff(shown, body, len - (size_t)head, &res, &diff);
			if (err == 0 && fwrite(diff.data, 1, diff.len, stdout) != diff.len)
				err = -errno;
		}
	} else if (stdin_in) {
		if ((head && fwrite(data, 1, (size_t)head, stdout) != (size_t)head) ||
		    fwrite(res.out.data, 1, res.out.len, stdout) != res.out.len)
			err = -errno;
	} else if (applied) {
		struct buf whole = {0};

		err = buf_add(&whole, data, (size_t)head);
		err = err ? err : buf_add(&whole, res.out.data, res.out.len);
		err = err ? -ENOMEM
			  : cli_replace_file(name, &st, whole.data ? whole.data : "", whole.len, true);
		buf_free(&whole);
		if (err > 0) {
			cli_warn("%s: not rewritten: %s", shown,
				 err == EAGAIN ? "it changed while it was repaired" : strerror(err));
			*io_error = true;
			err = 0;
		}
	}
	if (err == 0 && applied && !o->diff)
		cli_warn("%s: %zu repair%s", shown, applied, applied == 1 ? "" : "s");
out:
	buf_free(&diff);
	fix_result_free(&res);
	free(data);
	return err;
}
