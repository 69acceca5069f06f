// SPDX-License-Identifier: MIT
/*
 * An in-process gate: reads a reply on standard input, grounds it on the
 * --source files, and says "ship" or "hold" with the findings that
 * decided it. Exit status 0 ship, 1 hold, 2 error.
 *
 *	cc gate.c $(pkg-config --cflags --libs halluscan) -o gate
 *	./gate --context user-facing --source policy.txt < reply.txt
 *
 * A service does the same per request: the rules opened once at start-up
 * and shared, a scanner per worker thread, and per reply a reset, its
 * grounding, and halluscan_check().
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* open_memstream */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <halluscan.h>

/* Reads all of f into a new buffer; *len its size. NULL when it cannot. */
static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0, got;
	char *buf = malloc(cap), *bigger;

	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			bigger = realloc(buf, cap *= 2);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	*len = n;
	return buf;
}

/* Each finding as it is decided: what, where, and what to write instead. */
static int note_finding(void *ctx, const struct halluscan_finding *f)
{
	FILE *notes = ctx;

	fprintf(notes, "%s %s at %llu:%llu: %.*s\n  %s\n  instead: %s\n",
		halluscan_severity_name(f->severity), f->signal, (unsigned long long)f->line,
		(unsigned long long)f->column, (int)(f->text_len > 200 ? 200 : f->text_len),
		f->text, f->message, f->recovery);
	return ferror(notes) ? -EIO : 0;
}

static int fail(const char *what, int rc, const struct halluscan_error *err)
{
	fprintf(stderr, "gate: %s%s%s\n", what ? what : "", what ? ": " : "",
		err && err->message[0] ? err->message : halluscan_strerror(rc));
	return 2;
}

int main(int argc, char **argv)
{
	struct halluscan_scanner_options so;
	struct halluscan_rules *rules = NULL;
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum;
	struct halluscan_error err;
	const char **contexts = calloc((size_t)argc, sizeof(char *));
	const char **sources = calloc((size_t)argc, sizeof(char *));
	char *reply = NULL, *text, *notes = NULL;
	size_t n_contexts = 0, n_sources = 0, k, len, notes_len = 0;
	FILE *memo = open_memstream(&notes, &notes_len);
	int status = 2, rc, i;

	if (!contexts || !sources || !memo) {
		status = fail(NULL, -ENOMEM, NULL);
		goto out;
	}
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--context") == 0 && i + 1 < argc) {
			contexts[n_contexts++] = argv[++i];
		} else if (strcmp(argv[i], "--source") == 0 && i + 1 < argc) {
			sources[n_sources++] = argv[++i];
		} else {
			fputs("usage: gate [--context NAME]... [--source FILE]... < REPLY\n", stderr);
			goto out;
		}
	}
	/* Once per process: the built-in packs load in microseconds. */
	rc = halluscan_rules_open(NULL, &rules, &err);
	if (rc < 0) {
		status = fail("rules", rc, &err);
		goto out;
	}
	/* Once per thread; the findings are noted, to follow the verdict. */
	halluscan_scanner_options_init(&so);
	so.contexts = contexts;
	so.n_contexts = n_contexts;
	rc = halluscan_scanner_new(rules, &so, note_finding, memo, &sc, &err);
	if (rc < 0) {
		status = fail(NULL, rc, &err);
		goto out;
	}
	/* Once per reply: what it must keep to, then the reply. */
	for (k = 0; k < n_sources; k++) {
		FILE *f = fopen(sources[k], "rb");

		text = f ? slurp(f, &len) : NULL;
		rc = text ? 0 : -errno;
		if (f)
			fclose(f);
		if (!text) {
			status = fail(sources[k], rc, NULL);
			goto out;
		}
		rc = halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_SOURCE, text, len);
		free(text);
		if (rc < 0) {
			status = fail(sources[k], rc, NULL);
			goto out;
		}
	}
	reply = slurp(stdin, &len);
	if (!reply) {
		status = fail("standard input", -errno, NULL);
		goto out;
	}
	rc = halluscan_check(sc, reply, len, &sum);
	if (rc < 0) {
		status = fail(NULL, rc, NULL);
		goto out;
	}
	fclose(memo);
	memo = NULL;
	printf("%s: %llu finding(s), verdict %s\n%s", rc ? "hold" : "ship",
	       (unsigned long long)sum->findings, halluscan_severity_name(sum->verdict),
	       notes ? notes : "");
	status = fflush(stdout) == 0 ? rc : 2;
out:
	if (memo)
		fclose(memo);
	free(notes);
	free(reply);
	free(contexts);
	free(sources);
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
	return status;
}
