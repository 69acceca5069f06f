/* SPDX-License-Identifier: MIT */
/*
 * The writers besides JSONL: text for a person at a terminal, SARIF 2.1.0
 * for code scanning, GitHub workflow commands for annotations. Like the
 * JSONL writer they see findings, never the scanner, and append to the
 * same struct jsonl stream (its buffer, file and first write error).
 */
#ifndef HALLUSCAN_OUTPUT_FORMATS_H
#define HALLUSCAN_OUTPUT_FORMATS_H

#include <stdbool.h>
#include <stddef.h>

#include "halluscan.h"

#include "output/jsonl.h"

enum out_format {
	OUT_JSONL,
	OUT_TEXT,
	OUT_SARIF,
	OUT_GITHUB,
};

/* "jsonl", "text", "sarif" or "github": 0, or -EINVAL. */
int out_format_parse(const char *name, enum out_format *out);

/* ---- text: PATH:LINE:COL: SEVERITY: MESSAGE [SIGNAL] ---- */
/* (in a transcript, w->message: PATH:RECORD: message INDEX (ROLE) LINE:COL: ...) */

struct text_style {
	bool color;         /* ANSI colours */
	bool show_recovery; /* the recovery on the next line, indented */
};

int text_finding(struct jsonl *w, const struct text_style *st,
		 const struct halluscan_finding *f);

/* ---- GitHub workflow commands ---- */

/*
 * ::warning file=PATH,line=L,col=C,endColumn=E,title=SIGNAL::MESSAGE (::error for block);
 * in a transcript (w->message) ::warning file=PATH,line=RECORD,title=SIGNAL in message
 * INDEX (ROLE) at L:C::MESSAGE.
 */
int github_finding(struct jsonl *w, const struct halluscan_finding *f);
/* ::error file=PATH::MESSAGE, for an input that could not be read (,line=RECORD in a transcript). */
int github_error(struct jsonl *w, const char *message);

/* ---- SARIF 2.1.0: one run, written as the findings come ---- */

struct sarif_rule {
	const char *id, *signal;
	const char *description; /* shortDescription */
	const char *help;        /* the recovery */
	enum halluscan_severity level;
};

/* The log being written; zero it and set cwd (or leave it NULL). */
struct sarif {
	const char *cwd; /* the absolute working folder relative paths are under (%SRCROOT%) */
	const char *config; /* the configuration file applied, or NULL */
	size_t results;
};

/*
 * Starts the log: the tool and its rules (which results index), the
 * configuration file as an artifact, then opens the results.
 */
int sarif_begin(struct jsonl *w, struct sarif *s, const struct sarif_rule *rules,
		size_t n_rules);
/* One result; w->path is its file, rule_index its rule in sarif_begin()'s list. */
int sarif_result(struct jsonl *w, struct sarif *s, const struct halluscan_finding *f,
		 size_t rule_index, const char *fingerprint);
/*
 * Ends the log: an invocation with a notification per message (errors),
 * and a note naming the configuration file.
 */
int sarif_end(struct jsonl *w, struct sarif *s, const char *const *errors, size_t n_errors);

#endif
