/* SPDX-License-Identifier: MIT */
/*
 * --fix (repair.c): an input repaired with the rules' fix templates, its
 * findings through the program's report (muted while repairs are made),
 * the text given back on standard output, in place, or as a diff.
 */
#ifndef HALLUSCAN_CLI_REPAIR_H
#define HALLUSCAN_CLI_REPAIR_H

#include <stdbool.h>

#include "halluscan.h"

#include "cli.h"
#include "cli/report.h"

struct cli_fix {
	const struct halluscan_rules *rules;
	struct halluscan_scanner *sc; /* its callback is report_finding() on rep */
	struct report *rep;           /* writes to --report (or nowhere) */
	bool diff;                    /* --diff: a unified diff on stdout, nothing rewritten */
	/* which inputs are model output, as scan_one() decides */
	bool model_output_all, model_output_stdin, honour;
};

/*
 * Repairs one input ("-": standard input, its text to standard output).
 * Sets *changed when a repair was made, *failed when the text given back
 * reaches --fail-on, *io_error when the input could not be read or
 * rewritten (said here). Returns 0 or a negative errno that ends the run.
 */
int cli_fix_one(const struct cli_fix *o, const char *name, const char *shown, bool *changed,
		bool *failed, bool *io_error);

#endif
