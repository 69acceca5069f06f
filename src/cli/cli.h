/* SPDX-License-Identifier: MIT */
/*
 * The program's parts: main.c (options, wiring, exit status) calls the
 * others (pairs.c --pairs, stream.c --input chat and --records, hook.c,
 * repair.c --fix, chain.c); what they all use, main.c too, is common.c's.
 * They are the only code that prints messages or exits.
 */
#ifndef HALLUSCAN_CLI_H
#define HALLUSCAN_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "halluscan.h"

#include "claims/policy.h"

#include "common/util.h"
#include "output/formats.h"
#include "output/jsonl.h"

enum exit_status {
	EXIT_PASS = 0,  /* nothing at or above --fail-on */
	EXIT_FAIL = 1,  /* a finding at or above --fail-on */
	EXIT_ERROR = 2, /* usage, I/O or rule error */
};

/* "halluscan: <message>" on stderr, what it formats with control characters escaped. */
void cli_warn(const char *fmt, ...) PRINTF_LIKE(1, 2);

/*
 * --pairs: judges the claim/passage pairs of each file (none: standard
 * input) and writes a record per line and a summary per file to out.
 * Returns the exit status; messages are said here.
 */
/*
 * --pairs --quarantine: each input line whose pair the passage supports
 * (or partially) is written to text as it was read; one it does not
 * support is dropped and listed, with its hashes, in a "quarantine" record
 * after the summary, which gives the disposition under rule.
 */
struct pairs_quarantine {
	FILE *text;
	struct disposition_rule rule;
	bool drop;                 /* false under --fail-on never: every line is kept */
};

/* pq: NULL, or --quarantine's. */
int cli_pairs(const struct halluscan_rules *rules, const char *const *contexts,
	      size_t n_contexts, char *const *files, size_t n_files, bool fail_never,
	      bool line_buffered, struct jsonl *out, const struct pairs_quarantine *pq);

/* --input chat and --records (stream.c): what to read and how. */
struct stream_options {
	bool chat;                 /* --input chat: agent transcripts */
	bool records;              /* --records: each line annotated */
	const char *field;         /* --field: the member to scan (records of text) */
	const char *source_field;  /* --source-field, or NULL */
	const char *prompt_field;  /* --prompt-field, or NULL */
	size_t jobs;               /* -j: threads, at least 1 */
	bool line_buffered;
	const struct halluscan_rules *rules;
	struct halluscan_scanner_options so; /* every thread's scanner's (callbacks are stream.c's) */
	char *const *sources;      /* --source files: grounding of every conversation or record */
	size_t n_sources;
	char *const *prompts;      /* --prompt files: the same, as what the user said */
	size_t n_prompts;
	/* --input chat: the format (--records writes JSONL), text's style, and
	 * the configuration file applied (SARIF names it). */
	enum out_format format;
	struct text_style style;
	const char *config;
};

/*
 * Reads files (none: standard input) as transcripts or records and writes
 * to f. Returns the exit status; messages are said here.
 */
int cli_stream(const struct stream_options *o, char *const *files, size_t n_files, FILE *f);

/*
 * A random span nonce of 24 letters and digits into out (n >= 25): 0, or a
 * negative errno when no randomness could be had.
 */
int cli_fresh_nonce(char *out, size_t n);
/* Writes all n bytes of p to fd, past EINTR: 0, or the errno of the failure. */
int cli_write_all(int fd, const char *p, size_t n);
struct stat;
/*
 * Replaces path with data (replace.c): a temporary file beside it with the
 * mode (and the owner where we may) of st, synced, renamed over it, the
 * folder synced. With if_unchanged, a path that is no longer the file st
 * describes (replaced, a link now, written since) is left alone: EAGAIN.
 * Returns 0 or a positive errno.
 */
int cli_replace_file(const char *path, const struct stat *st, const char *data, size_t len,
		     bool if_unchanged);
/* Is arg a comma-separated list with no empty item ("a,b"; not "", "a,", ",,")? */
bool cli_list_ok(const char *arg);
/* --fail-on's word (warn, block, never) as its level; -1 for any other. */
int cli_fail_on(const char *word);

/* Where compiled --rules packs are cached (out, n bytes), or NULL for nowhere. */
const char *cli_cache_dir(char *out, size_t n);

/*
 * halluscan hook HARNESS (hook.c): answers a harness's hook payload on
 * standard input. Returns the exit status the harness's protocol wants;
 * messages are said there.
 */
int hook_main(int argc, char **argv);

/*
 * halluscan eval [OPTION]... [FILE]... (eval.c): argv[0] is "eval". Prints
 * the report on stdout and errors as "halluscan: ..." on stderr. Returns
 * the exit status: 0 success, 2 usage or I/O error.
 */
int eval_main(int argc, char **argv);

#endif
