// SPDX-License-Identifier: MIT
/*
 * halluscan eval's command line: its options, its help, and its messages;
 * the measuring is the library's (eval/eval.h).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/util.h"
#include "eval/eval.h"

enum {
	OPT_RULES = CHAR_MAX + 1,
	OPT_COMPARE_RULES,
	OPT_SIGNALS,
	OPT_MISJUDGMENTS,
	OPT_FORMAT,
	OPT_SWEEP,
	OPT_PRESSURE,
	OPT_HELP,
};

static const struct option eval_long_options[] = {
	{"rules", required_argument, NULL, OPT_RULES},
	{"compare-rules", required_argument, NULL, OPT_COMPARE_RULES},
	{"signals", required_argument, NULL, OPT_SIGNALS},
	{"misjudgments", required_argument, NULL, OPT_MISJUDGMENTS},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"sweep", no_argument, NULL, OPT_SWEEP},
	{"pressure", no_argument, NULL, OPT_PRESSURE},
	{"help", no_argument, NULL, OPT_HELP},
	{NULL, 0, NULL, 0},
};

static const char eval_usage[] =
	"usage: halluscan eval [--rules PATH]... [--signals NAME[,NAME]...]\n"
	"                      [--misjudgments FILE] [--compare-rules PATH]...\n"
	"                      [--sweep] [--pressure] [--format text|json] [FILE]...\n";

static const char eval_help[] =
	"Measures the detector against labelled JSONL records (id, dataset, response,\n"
	"source, spans with byte_start/byte_end, has_hallucination): sensitivity,\n"
	"specificity, precision and accuracy with 95% Wilson intervals, Cohen's kappa,\n"
	"the share of labelled spans a finding overlaps and the share of findings on a\n"
	"labelled span; overall, per dataset and per signal. A record's source is its\n"
	"grounding. With no FILE, or when FILE is -, reads standard input.\n"
	"\n"
	"A record with claim, passage and label (supports, partially_supports or\n"
	"does_not_support) instead of a response is a pair: it is judged as --pairs\n"
	"judges it, and the verdicts are set against the labels in a 3x3 table with\n"
	"Cohen's kappa, three-way and binary (supports against the other two). A\n"
	"file may mix the two kinds.\n"
	"\n"
	"  --rules PATH          rule packs instead of the built-in ones (repeatable)\n"
	"  --signals NAME,...    count only findings of these signals (repeatable)\n"
	"  --misjudgments FILE   write each false positive and false negative, and each\n"
	"                        pair whose verdict is not its label, as JSONL\n"
	"  --compare-rules PATH  also run a second rule set and compare the two with\n"
	"                        McNemar's exact test (repeatable)\n"
	"  --sweep               also sweep the claims verdict's threshold: a record's\n"
	"                        ratio is unsupported / checked claims, predicted\n"
	"                        positive when ratio > t, for t = 0, 0.05, ..., 1;\n"
	"                        overall only, with the best kappa\n"
	"  --pressure            scan as under context pressure (halluscan --pressure)\n"
	"  --format FORMAT       text (aligned tables, the default) or json\n"
	"  --help                print this help and exit\n"
	"\n"
	"Malformed records are counted and named on stderr; the run goes on.\n"
	"Exit status: 0 success, 2 usage or I/O error.\n";

static int add_arg(const char ***v, size_t *n, const char *s)
{
	const char **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[(*n)++] = s;
	return 0;
}

int eval_main(int argc, char **argv)
{
	static const char *const stdin_only[] = {"-"};
	struct eval_options o = {.format = EVAL_TEXT};
	const char **rules = NULL, **cmp = NULL, **sigs = NULL;
	const char *mis_path = NULL;
	struct diag d = {""};
	int status = 2, c, err = 0;

	signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error with a message */
	optind = 0;               /* GNU: start afresh, whatever parsed argv before */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", eval_long_options, NULL)) != -1 && err == 0) {
		switch (c) {
		case OPT_RULES:
			err = add_arg(&rules, &o.n_rules, optarg);
			break;
		case OPT_COMPARE_RULES:
			err = add_arg(&cmp, &o.n_compare_rules, optarg);
			break;
		case OPT_SIGNALS: {
			char *tok, *save = NULL;

			for (tok = strtok_r(optarg, ",", &save); tok && err == 0;
			     tok = strtok_r(NULL, ",", &save))
				err = add_arg(&sigs, &o.n_signals, tok);
			break;
		}
		case OPT_MISJUDGMENTS:
			mis_path = optarg;
			break;
		case OPT_SWEEP:
			o.sweep = true;
			break;
		case OPT_PRESSURE:
			o.pressure = true;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "json") == 0) {
				o.format = EVAL_JSON;
			} else if (strcmp(optarg, "text") == 0) {
				o.format = EVAL_TEXT;
			} else {
				cli_warn("--format takes text or json, not \"%s\"", optarg);
				fputs(eval_usage, stderr);
				goto out;
			}
			break;
		case OPT_HELP:
			fputs(eval_usage, stdout);
			fputc('\n', stdout);
			fputs(eval_help, stdout);
			status = fflush(stdout) == 0 ? 0 : 2;
			goto out;
		case ':':
			cli_warn("option %s needs an argument", argv[optind - 1]);
			fputs(eval_usage, stderr);
			goto out;
		default:
			cli_warn("unknown option %s", argv[optind - 1]);
			fputs(eval_usage, stderr);
			goto out;
		}
	}
	if (err < 0) {
		fputs("halluscan: out of memory\n", stderr);
		goto out;
	}
	o.rules = rules;
	o.compare_rules = cmp;
	o.signals = sigs;
	if (optind < argc) {
		o.files = (const char *const *)(argv + optind);
		o.n_files = (size_t)(argc - optind);
	} else {
		o.files = stdin_only;
		o.n_files = 1;
	}
	if (mis_path) {
		o.misjudgments = fopen(mis_path, "w");
		if (!o.misjudgments) {
			cli_warn("%s: %s", mis_path, strerror(errno));
			goto out;
		}
	}
	err = eval_run(&o, stdout, stderr, &d);
	if (o.misjudgments && fclose(o.misjudgments) != 0 && err == 0)
		err = diag_set(&d, -errno, "%s: %s", mis_path, strerror(errno));
	if (err < 0)
		cli_warn("%s", d.msg);
	else
		status = 0;
out:
	free(rules);
	free(cmp);
	free(sigs);
	return status;
}
