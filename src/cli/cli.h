/* SPDX-License-Identifier: MIT */
/*
 * The program's parts: main.c (options, wiring, exit status) and pairs.c
 * (--pairs). They are the only code that prints messages or exits.
 */
#ifndef HALLUSCAN_CLI_H
#define HALLUSCAN_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "halluscan.h"

#include "output/jsonl.h"
#include "util.h"

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
int cli_pairs(const struct halluscan_rules *rules, const char *const *contexts,
	      size_t n_contexts, char *const *files, size_t n_files, bool fail_never,
	      bool line_buffered, struct jsonl *out);

#endif
