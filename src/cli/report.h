/* SPDX-License-Identifier: MIT */
/*
 * What the program does with each finding between the scanner and a
 * writer: gives it a fingerprint, drops what --select/--ignore leave out,
 * holds it until its line has been read whole, then drops it when a
 * directive on that line, Markdown code or the baseline covers it
 * (counting it as suppressed), and writes the rest in the chosen format.
 *
 * Directives are honoured (inline_ignore) in what a person edits; model
 * output (model_output) honours none, and a directive written there is a
 * finding of its own (signal spoofed_directive, patterns/directives.yaml).
 * Where they are honoured, that rule's findings are the person's
 * directives: not reported, they confirm the directives read, so that one
 * inside a tool span (the tool's data, never an instruction) covers
 * nothing; a finding waits for the directives of its line to be confirmed.
 * Each input's summary is recounted from what was written.
 *
 * The caller owns struct report: zero it, set the fields above "private",
 * report_start() it, report_input() each input, and report_fini() it.
 */
#ifndef HALLUSCAN_CLI_REPORT_H
#define HALLUSCAN_CLI_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "halluscan.h"

#include "cli/baseline.h"
#include "cli/quarantine.h"
#include "match/prescan.h"
#include "output/formats.h"
#include "output/jsonl.h"

/* The signal of a directive in model output (patterns/directives.yaml). */
#define SIGNAL_DIRECTIVE "spoofed_directive"

struct report {
	struct jsonl *out;
	const struct halluscan_rules *rules;
	enum out_format format;
	struct text_style style;
	enum halluscan_fail_on fail_on;
	bool inline_ignore, skip_code;
	bool model_output; /* directives are findings (then inline_ignore is false) */
	/* Signals or rule ids: only these (none: all), and never these. */
	const char *const *select, *const *ignore;
	size_t n_select, n_ignore;
	const struct baseline *baseline;  /* drop what it holds, or NULL */
	struct baseline *write_baseline;  /* record what is reported, or NULL */
	bool line_buffered;
	const char *config;               /* the configuration file applied, or NULL (SARIF) */
	/* Called with each finding counted and written (not the grounded
	 * ones), and the path it is about, when set: --scratchpad's lists. */
	int (*tap)(void *ctx, const char *path, const struct halluscan_finding *f);
	void *tap_ctx;
	/* The scanner that reads the text after report_text(), or NULL: told
	 * where the input's first directive is, which it need not look for. */
	struct halluscan_scanner *scanner;
	/* --quarantine: told the text, the sentences and the findings counted
	 * (report_sentence() is then the claim callback), or NULL; claims:
	 * the claims' records are written too. */
	struct quarantine *quarantine;
	bool claims;
	/* --fix's rounds: findings are decided and tapped, nothing is written
	 * or counted over the run (the report is of the text given back). */
	bool mute;

	/* private */
	struct prescan ps;
	struct sarif sarif;
	const char **sarif_ids;
	size_t n_sarif_ids;
	char **errors;
	size_t n_errors, cap_errors;
	struct held *held;
	size_t n_held, cap_held, first_held;
	struct fp_count *keys;
	size_t n_keys, cap_keys;
	uint64_t *counts;
	unsigned char *prose;     /* by signal index: in_code()'s */
	size_t n_signals;
	struct buf redacted; /* a finding's text, a URL's credentials redacted */
	struct buf norm;     /* and normalized, for its key and fingerprint */
	struct buf quarantine_record;
	uint64_t findings, sup_inline, sup_baseline, sup_code;
	size_t directive_signal;  /* spoofed_directive's index, or SIZE_MAX */
	uint64_t seen_to;         /* the scanner's findings have reached this offset */
	uint64_t lines_due;       /* text looked at, its lines not yet read (report_lines) */
	uint64_t wait_for;        /* with waiting, the first finding held waits for the */
	bool waiting;             /* directive here to be confirmed or passed */
	bool scanned;             /* the input has been scanned to its end */
	enum halluscan_severity verdict;
	char cwd[4096];
	/* over the run, for the line on stderr */
	uint64_t total_findings, total_warn, total_block, total_suppressed;
	uint64_t total_sup_inline, total_sup_baseline, total_sup_code;
	size_t inputs, inputs_with_findings;
};

/* Checks --select and --ignore names, starts the output. 0, -ENOENT (d says which), -ENOMEM. */
int report_start(struct report *r, struct diag *d);
/* Starts an input, whose findings carry path. */
void report_input(struct report *r, const char *path);
/* The input's text, before the scanner reads it (plain.h's on_text). */
int report_text(void *ctx, const char *text, size_t len);
/* The input's text has all been read: what is held is decided. */
int report_text_end(struct report *r);
/* The scanner's callbacks. */
int report_finding(void *ctx, const struct halluscan_finding *f);
int report_claim(void *ctx, const struct halluscan_claim *c);
/* The claim callback under --quarantine. */
int report_sentence(void *ctx, const struct halluscan_claim *c);
/*
 * Ends the input: its summary, recounted (in JSONL), and *failed set
 * when it reached fail_on. 0 or a negative errno.
 */
int report_summary(struct report *r, const struct halluscan_summary *s,
		   const struct jsonl_input *how, bool *failed);
/* An input that could not be read: an error record (the program says it on stderr too). */
int report_error(struct report *r, const char *path, const char *message);
/*
 * --input chat's findings (report_input() per file): no directive, code
 * span, filter or baseline applies (a transcript is model output, and the
 * formats write what JSONL does); each is fingerprinted, counted and
 * written, w->out->message saying which message it is in.
 */
int report_message_finding(struct report *r, const struct halluscan_finding *f);
/* A transcript's line that could not be read, in the format's way (text: nothing). */
int report_record_error(struct report *r, const char *path, uint64_t record, const char *message);
/* Ends the output; for text and github, the count on stderr. */
int report_finish(struct report *r);
void report_fini(struct report *r);

#endif
