/* SPDX-License-Identifier: MIT */
/* What the API tests share: packs, and a scanner that records what it reports. */
#ifndef HALLUSCAN_API_TEST_H
#define HALLUSCAN_API_TEST_H

#include <stdio.h>
#include <string.h>

#include "halluscan.h"

#include "config.h"
#include "test.h"

/* A pack of one rule that blocks, and a span pair of its own. */
#define TODO_PACK                                                              \
	"rules:\n"                                                             \
	"  - id: todo.marker\n"                                                \
	"    signal: unfinished\n"                                             \
	"    severity: block\n"                                                \
	"    pattern: \"\\\\bTODO\\\\b\"\n"                                    \
	"    message: \"unfinished text: {text}\"\n"                           \
	"    recovery: finish it\n"                                            \
	"    examples: [\"a TODO here\"]\n"                                    \
	"    negative_examples: [\"TODOS\", \"todo\"]\n"                       \
	"spans:\n"                                                             \
	"  - {name: quote, open: \"<q>\", close: \"</q>\"}\n"

#define BROKEN_PACK                                                            \
	"rules:\n"                                                             \
	"  - id: x.y\n"                                                        \
	"    signal: fabricated_url\n"                                         \
	"    severity: warn\n"                                                 \
	"    pattern: \"https?://\\\\S+\"\n"                                   \
	"    mesage: m\n"

#define BAD_EXAMPLE_PACK                                                       \
	"rules:\n"                                                             \
	"  - id: x.y\n"                                                        \
	"    signal: fabricated_url\n"                                         \
	"    severity: warn\n"                                                 \
	"    pattern: \"https?://[^\\\\s]+\"\n"                                \
	"    message: m\n"                                                     \
	"    recovery: r\n"                                                    \
	"    examples: [\"no url here\"]\n"                                   \
	"    negative_examples: []\n"

/* What a scanner reported: "signal:text@start;" per finding, and counts. */
struct record {
	char brief[8192];
	size_t len, findings, claims;
	int stop_at;  /* stop (return stop_with) at this finding, counting from 1; 0: never */
	int stop_with;
};

int record_finding(void *ctx, const struct halluscan_finding *f);
/* Scans text whole (step 0) or in pieces of step bytes; the summary, or NULL on an error. */
const struct halluscan_summary *scan_text(struct halluscan_scanner *sc, struct record *r,
					  const char *text, size_t step);

#endif
