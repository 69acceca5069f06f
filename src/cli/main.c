// SPDX-License-Identifier: MIT
/*
 * halluscan: options, wiring and exit status; with pairs.c the only code
 * that prints messages. It is a client of the library (include/halluscan.h):
 * inputs are read by input/plain.c into a scanner, findings written by
 * output/jsonl.c. Below the API it uses only what the API is not for:
 * eval (eval.c, a measurement with its own loading), --pairs (pairs.c),
 * --export-patterns (the packs listed without compiling them), and the
 * nonce check, which must run before any rule is loaded.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "halluscan.h"

#include "api/api.h"
#include "cli.h"
#include "cli/chain.h"
#include "cli/configfile.h"
#include "cli/repair.h"
#include "cli/report.h"
#include "common/url.h"
#include "config.h"
#include "eval/eval.h"
#include "ground/bib.h"
#include "ground/spans.h"
#include "input/plain.h"
#include "input/walk.h"
#include "output/jsonl.h"

enum {
	OPT_CONTEXT = CHAR_MAX + 1,
	OPT_FAIL_ON,
	OPT_RULES,
	OPT_LINE_BUFFERED,
	OPT_LIST_RULES,
	OPT_CHECK_RULES,
	OPT_EXPORT_PATTERNS,
	OPT_ENGINE,
	OPT_NO_CACHE,
	OPT_SHOW_GROUNDED,
	OPT_SOURCE,
	OPT_PROMPT,
	OPT_BIB,
	OPT_CLAIMS,
	OPT_PAIRS,
	OPT_MAX_UNSUPPORTED,
	OPT_SPAN_NONCE,
	OPT_SHOW_RECOVERY,
	OPT_COLOR,
	OPT_STDIN_NAME,
	OPT_NO_INLINE_IGNORE,
	OPT_INLINE_IGNORE,
	OPT_BASELINE,
	OPT_WRITE_BASELINE,
	OPT_NO_BUILTIN_RULES,
	OPT_SELECT,
	OPT_IGNORE,
	OPT_CONFIG,
	OPT_NO_CONFIG,
	OPT_NO_SKIP_CODE,
	OPT_INPUT,
	OPT_RECORDS,
	OPT_FIELD,
	OPT_SOURCE_FIELD,
	OPT_PROMPT_FIELD,
	OPT_SCRATCHPAD,
	OPT_PRESSURE,
	OPT_QUARANTINE,
	OPT_VERDICT,
	OPT_MIN_SUPPORT,
	OPT_PARTIAL_ALLOWANCE,
	/* --fix (cli/repair.c) */
	OPT_FIX,
	OPT_FIX_DIFF,
	OPT_FIX_REPORT,
};

/*
 * At exit the kernel takes the whole address space back at once: freeing
 * the rules and the scanner piece by piece first was an eighth of the
 * instructions of a 4 KB message (issue 35). Builds with AddressSanitizer
 * (or -DHALLUSCAN_FREE_AT_EXIT=1) still free, so that their checks keep
 * seeing every free path; otherwise the pointers stay in left_at_exit, so
 * that leak checkers (LSan, valgrind) count the memory reachable, not lost.
 */
#ifndef HALLUSCAN_FREE_AT_EXIT
#if defined(__SANITIZE_ADDRESS__)
#define HALLUSCAN_FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define HALLUSCAN_FREE_AT_EXIT 1
#endif
#endif
#endif
#ifndef HALLUSCAN_FREE_AT_EXIT
#define HALLUSCAN_FREE_AT_EXIT 0
#endif

/* volatile: stores that nothing reads must not be optimised away. */
static struct {
	struct halluscan_scanner *volatile sc;
	struct halluscan_rules *volatile rules;
} left_at_exit;

static const struct option long_options[] = {
	{"context", required_argument, NULL, OPT_CONTEXT},
	{"fail-on", required_argument, NULL, OPT_FAIL_ON},
	{"rules", required_argument, NULL, OPT_RULES},
	{"line-buffered", no_argument, NULL, OPT_LINE_BUFFERED},
	{"list-rules", no_argument, NULL, OPT_LIST_RULES},
	{"check-rules", no_argument, NULL, OPT_CHECK_RULES},
	{"export-patterns", no_argument, NULL, OPT_EXPORT_PATTERNS},
	{"engine", required_argument, NULL, OPT_ENGINE},
	{"no-cache", no_argument, NULL, OPT_NO_CACHE},
	{"show-grounded", no_argument, NULL, OPT_SHOW_GROUNDED},
	{"source", required_argument, NULL, OPT_SOURCE},
	{"bib", required_argument, NULL, OPT_BIB},
	{"prompt", required_argument, NULL, OPT_PROMPT},
	{"claims", no_argument, NULL, OPT_CLAIMS},
	{"pairs", no_argument, NULL, OPT_PAIRS},
	{"max-unsupported-ratio", required_argument, NULL, OPT_MAX_UNSUPPORTED},
	{"span-nonce", required_argument, NULL, OPT_SPAN_NONCE},
	{"format", required_argument, NULL, 'f'},
	{"show-recovery", no_argument, NULL, OPT_SHOW_RECOVERY},
	{"color", optional_argument, NULL, OPT_COLOR},
	{"stdin-name", required_argument, NULL, OPT_STDIN_NAME},
	{"no-inline-ignore", no_argument, NULL, OPT_NO_INLINE_IGNORE},
	{"inline-ignore", no_argument, NULL, OPT_INLINE_IGNORE},
	{"baseline", required_argument, NULL, OPT_BASELINE},
	{"write-baseline", required_argument, NULL, OPT_WRITE_BASELINE},
	{"no-builtin-rules", no_argument, NULL, OPT_NO_BUILTIN_RULES},
	{"select", required_argument, NULL, OPT_SELECT},
	{"ignore", required_argument, NULL, OPT_IGNORE},
	{"config", required_argument, NULL, OPT_CONFIG},
	{"no-config", no_argument, NULL, OPT_NO_CONFIG},
	{"no-skip-code", no_argument, NULL, OPT_NO_SKIP_CODE},
	{"input", required_argument, NULL, OPT_INPUT},
	{"records", no_argument, NULL, OPT_RECORDS},
	{"field", required_argument, NULL, OPT_FIELD},
	{"source-field", required_argument, NULL, OPT_SOURCE_FIELD},
	{"prompt-field", required_argument, NULL, OPT_PROMPT_FIELD},
	{"scratchpad", required_argument, NULL, OPT_SCRATCHPAD},
	{"pressure", no_argument, NULL, OPT_PRESSURE},
	{"quarantine", no_argument, NULL, OPT_QUARANTINE},
	{"verdict", required_argument, NULL, OPT_VERDICT},
	{"min-support", required_argument, NULL, OPT_MIN_SUPPORT},
	{"partial-allowance", required_argument, NULL, OPT_PARTIAL_ALLOWANCE},
	{"fix", no_argument, NULL, OPT_FIX},
	{"diff", no_argument, NULL, OPT_FIX_DIFF},
	{"report", required_argument, NULL, OPT_FIX_REPORT},
	{"jobs", required_argument, NULL, 'j'},
	{"version", no_argument, NULL, 'V'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static const char usage_text[] =
	"usage: halluscan [-f jsonl|text|sarif|github] [--context NAME]...\n"
	"                 [--fail-on warn|block|never] [--rules PATH]... [--no-builtin-rules]\n"
	"                 [--select LIST] [--ignore LIST] [--config FILE | --no-config]\n"
	"                 [--baseline FILE] [--write-baseline FILE]\n"
	"                 [--no-inline-ignore | --inline-ignore]\n"
	"                 [--no-skip-code] [--show-recovery] [--color[=WHEN]]\n"
	"                 [--stdin-name NAME] [--line-buffered] [--engine hyperscan|pcre2]\n"
	"                 [--source FILE]... [--prompt FILE]... [--bib FILE]...\n"
	"                 [--show-grounded] [--claims]\n"
	"                 [--max-unsupported-ratio R] [--span-nonce S] [--no-cache]\n"
	"                 [--pressure] [--scratchpad FILE] [FILE | DIR]...\n"
	"       halluscan [OPTION]... --quarantine [--verdict FILE] [--min-support R]\n"
	"                 [--partial-allowance R] [FILE]\n"
	"       halluscan [OPTION]... --fix [--diff] [--report FILE] [FILE | DIR]...\n"
	"       halluscan [OPTION]... --input chat [-j N] [FILE]...\n"
	"       halluscan [OPTION]... --records --field NAME [--source-field NAME]\n"
	"                 [--prompt-field NAME] [-j N] [FILE]...\n"
	"       halluscan [OPTION]... --input chat --records [-j N] [FILE]...\n"
	"       halluscan [--rules PATH]... [--fail-on LEVEL] --pairs [FILE]...\n"
	"       halluscan [--rules PATH]... --list-rules | --check-rules | --export-patterns\n"
	"       halluscan eval [--rules PATH]... [--compare-rules PATH]... [--signals LIST]\n"
	"                      [--misjudgments FILE] [--sweep] [--pressure]\n"
	"                      [--format text|json] [FILE]...\n"
	"       halluscan hook claude-code|codex [OPTION]... < PAYLOAD\n"
	"       halluscan -V | --version | -h | --help\n";

static const char help_text[] =
	"Finds the signals of hallucinated content in text written by language models:\n"
	"fabricated URLs, unsourced statistics, fabricated citations and future certainty.\n"
	"Text inside tool-output spans is grounded and not reported. Writes one JSON\n"
	"object per finding and a summary per input (JSONL), or another format. With\n"
	"no FILE, or when FILE is -, reads standard input; a DIR is searched for\n"
	"*.md, *.markdown, *.txt and *.rst files. Options override .halluscan.yaml.\n"
	"\n"
	"  -f, --format FMT    jsonl (default), text (PATH:LINE:COL: SEVERITY: MESSAGE\n"
	"                      [SIGNAL]), sarif (SARIF 2.1.0) or github (annotations)\n"
	"  --show-recovery     text: each finding's recovery on the next line\n"
	"  --color[=WHEN]      text: colour auto (default: on a terminal, unless\n"
	"                      NO_COLOR is set), always or never\n"
	"  --stdin-name NAME   the path standard input's findings carry\n"
	"  --context NAME      escalate the signals NAME cares about to block (repeatable,\n"
	"                      or comma-separated): medical, financial, legal, research,\n"
	"                      user-facing, casual, internal\n"
	"  --fail-on LEVEL     exit 1 when a finding is at or above LEVEL: warn, block\n"
	"                      (default) or never\n"
	"  --rules PATH        add the rule packs of a YAML file or a directory of them\n"
	"                      to the built-in packs (repeatable)\n"
	"  --no-builtin-rules  use only the --rules packs\n"
	"  --select LIST       report only these signals or rule ids (comma-separated,\n"
	"                      repeatable)\n"
	"  --ignore LIST       never report these signals or rule ids\n"
	"  --baseline FILE     drop findings whose fingerprint FILE holds\n"
	"  --write-baseline FILE\n"
	"                      write the fingerprints of the findings reported to FILE\n"
	"                      (and exit 0 unless an error)\n"
	"  --no-inline-ignore  report what halluscan:ignore and halluscan:off cover\n"
	"  --inline-ignore     honour them on standard input too, which under a span\n"
	"                      nonce, --fail-on warn or a context that blocks is\n"
	"                      taken as model output (a directive there is then\n"
	"                      reported as spoofed_directive)\n"
	"  --no-skip-code      report prose signals in Markdown code too\n"
	"  --config FILE       read FILE, not $HALLUSCAN_CONFIG or .halluscan.yaml\n"
	"  --no-config         read no configuration file\n"
	"  --line-buffered     flush the output after every input line\n"
	"  --source FILE       take FILE as grounding, like tool output (repeatable);\n"
	"                      numbers in the text are then checked against it\n"
	"  --prompt FILE       take FILE as what the user said: it grounds as --source\n"
	"                      does (a figure or URL the user gave is not invented),\n"
	"                      and a trigger request in it raises its signals a step\n"
	"  --pressure          detect more aggressively, as when the context is in the\n"
	"                      compact zone or beyond (the rules marked for pressure)\n"
	"  --scratchpad FILE   a skill chain's shared JSON file: with no FILE, scan its\n"
	"                      execution.result; write the findings into its\n"
	"                      hallucination_detector member only (locked, atomic)\n"
	"  --bib FILE          the user's bibliography, BibTeX or CSL-JSON (repeatable):\n"
	"                      a reference it holds is grounded, one it holds altered\n"
	"                      is altered_reference\n"
	"  --claims            also write each sentence as a claim: supported,\n"
	"                      partial, unsupported or unchecked against grounding\n"
	"  --max-unsupported-ratio R\n"
	"                      with --claims, the share of unsupported claims above\n"
	"                      which the input fails (default 0.30)\n"
	"  --pairs             read JSONL {\"id\", \"claim\", \"passage\"} and judge whether\n"
	"                      each passage supports its claim\n"
	"  --show-grounded     also report matches that repeat tool output, marked\n"
	"                      \"grounded\": true\n"
	"  --span-nonce S      accept only tool spans marked <tool_output nonce=\"S\">\n"
	"                      ... </tool_output nonce=\"S\">; any other delimiter is\n"
	"                      the model's, reported as spoofed_span (block); default:\n"
	"                      $HALLUSCAN_SPAN_NONCE\n"
	"  --input chat        read agent transcripts (JSONL): OpenAI Chat Completions,\n"
	"                      Anthropic Messages, OpenAI Responses items, run logs;\n"
	"                      assistant text is scanned, tool results and user and\n"
	"                      system text ground it; tags in assistant text are\n"
	"                      spoofed_span (default: --input text)\n"
	"  --records           write each JSONL line back with a \"halluscan\" member\n"
	"                      (verdict, findings, signals): one line per line\n"
	"  --field NAME        with --records: the string member to scan\n"
	"  --source-field NAME with --records: a member (string or array of strings)\n"
	"                      that grounds the record as a source\n"
	"  --prompt-field NAME with --records: a member that grounds it as the prompt\n"
	"  --quarantine        write the text itself, without each sentence that has a\n"
	"                      finding at or above --fail-on; exit 1 when one is\n"
	"                      dropped or the text is held (see --verdict)\n"
	"  --verdict FILE      with --quarantine: the findings, the summary and a\n"
	"                      \"quarantine\" record (disposition ship, quarantine or\n"
	"                      hold; what was dropped, with SHA-256 hashes) as JSONL\n"
	"  --min-support R     with --quarantine and --claims or --pairs: hold when\n"
	"                      under this share of the claims kept is supported (0.90)\n"
	"  --partial-allowance R\n"
	"                      hold when more than this share is partial (0.05)\n"
	"  -j, --jobs N        with --records or --input chat: records (a batch at a\n"
	"                      time) or files on N threads, output in input order\n"
	"                      (default 1)\n"
	"  --fix               apply each finding's repair (the rules' fix templates):\n"
	"                      standard input to standard output, files rewritten in\n"
	"                      place; exit 1 when anything changed\n"
	"  --diff              with --fix: print a unified diff, rewrite nothing\n"
	"  --report FILE       with --fix: write the repairs and the findings left to FILE\n"
	"  --list-rules        print the loaded rules, one per line, and exit\n"
	"  --check-rules       compile the rules, run every example, and exit\n"
	"  --export-patterns   print each rule's id, signal, flags and regex, and exit\n"
	"  --engine NAME       hyperscan (default where built in) or pcre2\n"
	"  --no-cache          neither read nor write the compiled-rules cache\n"
	"  -V, --version       print the version and exit\n"
	"  -h, --help          print this help and exit\n"
	"\n"
	"Exit status: 0 nothing at or above --fail-on, 1 a finding at or above it,\n"
	"2 usage, I/O or rule error. See halluscan(1).\n";

struct options {
	char **contexts;
	size_t n_contexts;
	char **rules;
	size_t n_rules;
	char **sources;
	size_t n_sources;
	char **prompts;
	size_t n_prompts;
	char **bibs;
	size_t n_bibs;
	enum halluscan_fail_on fail_on;
	bool line_buffered, list_rules, check_rules, export_patterns, no_cache, show_grounded;
	bool claims, pairs, pcre2, chat, records;
	const char *field, *source_field, *prompt_field;
	size_t jobs;
	double max_unsupported;
	const char *span_nonce;   /* NULL: spans as the packs write them */
	const char *nonce_from;   /* where span_nonce came from, for messages */
	/* Issue 13: formats, filters, configuration. A *_set flag says the
	 * command line gave it, which then overrides the configuration file. */
	enum out_format format;
	const char *stdin_name, *baseline, *write_baseline, *config;
	int color;                /* -1 auto, 0 never, 1 always */
	bool show_recovery, no_inline_ignore, inline_ignore, no_builtin, no_config, no_skip_code;
	bool format_set, fail_on_set;
	struct strv select, ignore;
	/* Issue 15: the chain's scratchpad, and detection under context pressure. */
	const char *scratchpad;
	bool pressure;
	/* Issue 34: --quarantine (cli/quarantine.c). */
	struct {
		bool on;
		const char *verdict;
		struct disposition_rule rule;
	} q;
	/* Issue 34: --fix, --diff, --report. */
	bool fix, fix_diff;
	const char *fix_report;
};

static void usage(void)
{
	fputs(usage_text, stderr);
	exit(EXIT_ERROR);
}

static int add_str(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(char *));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[(*n)++] = (char *)s;
	return 0;
}

static void no_empty_item(const char *opt, const char *arg)
{
	if (!cli_list_ok(arg)) {
		cli_warn("%s takes a comma-separated list of names, not \"%s\"", opt, arg);
		usage();
	}
}

static void add_list(const char *opt, const char *arg, struct strv *v)
{
	const char *p = arg;

	no_empty_item(opt, arg);
	v->set = true;
	while (*p) {
		size_t n = strcspn(p, ",");

		if (strv_add(v, p, n) < 0)
			exit(EXIT_ERROR);
		p += n + (p[n] == ',');
	}
}

/* --input chat, --records and their fields go together as the manual says. */
static void check_modes(const struct options *o)
{
	if ((o->field || o->source_field || o->prompt_field) && !o->records) {
		cli_warn("--field, --source-field and --prompt-field go with --records");
		usage();
	}
	if (o->records && !o->chat && !o->field) {
		cli_warn("--records needs --field NAME (or --input chat)");
		usage();
	}
	if (o->chat && (o->field || o->source_field || o->prompt_field)) {
		cli_warn("--input chat finds the text in the transcript: no --field");
		usage();
	}
	if (o->pairs && (o->chat || o->records)) {
		cli_warn("--pairs reads pairs: no --input chat or --records");
		usage();
	}
	if (o->scratchpad && (o->chat || o->records || o->pairs || o->jobs > 1 ||
			      o->list_rules || o->check_rules || o->export_patterns)) {
		cli_warn("--scratchpad goes with text inputs: no --input chat, --records, --pairs, "
			 "-j or rule listings");
		usage();
	}
	if (o->inline_ignore && (o->no_inline_ignore || o->scratchpad || o->chat || o->records)) {
		cli_warn("--inline-ignore honours directives on standard input: not with "
			 "--no-inline-ignore, --scratchpad, --input chat or --records, whose text is "
			 "model output");
		usage();
	}
	if (o->n_bibs && (o->pairs || o->chat || o->records || o->jobs > 1)) {
		cli_warn("--bib goes with text input: not yet with --pairs, --input chat, --records or -j");
		usage();
	}
}

/* --min-support and --partial-allowance: a share from 0 to 1. */
static double share(const char *opt, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= 0 && v <= 1)) {
		cli_warn("%s takes a number from 0 to 1, not \"%s\"", opt, arg);
		usage();
	}
	return v;
}

/* Issue 34's options, kept together. Returns false for an option not its own. */
static bool quarantine_option(int c, struct options *o)
{
	switch (c) {
	case OPT_QUARANTINE:
		o->q.on = true;
		return true;
	case OPT_VERDICT:
		o->q.verdict = optarg;
		return true;
	case OPT_MIN_SUPPORT:
		o->q.rule.min_support = share("--min-support", optarg);
		return true;
	case OPT_PARTIAL_ALLOWANCE:
		o->q.rule.partial_allowance = share("--partial-allowance", optarg);
		return true;
	default:
		return false;
	}
}

/* --quarantine writes one text: not with what writes something else. */
static void check_quarantine(const struct options *o, int n_inputs)
{
	if (!o->q.on) {
		if (o->q.verdict) {
			cli_warn("--verdict goes with --quarantine");
			usage();
		}
		return;
	}
	if (o->chat || o->records || o->scratchpad || o->jobs > 1 || o->write_baseline ||
	    (o->format_set && o->format != OUT_JSONL)) {
		cli_warn("--quarantine writes the text of one input: not with --input chat, "
			 "--records, --scratchpad, -j, --write-baseline or --format");
		usage();
	}
	if (n_inputs > 1) {
		cli_warn("--quarantine takes one FILE (or standard input)");
		usage();
	}
}

/*
 * --fix rewrites text inputs. A transcript or a record is the harness's
 * log, not a document to rewrite (a hook asks the agent to repair its own
 * reply instead), so they are refused rather than half-done.
 */
static void check_fix(const struct options *o)
{
	if ((o->fix_diff || o->fix_report) && !o->fix) {
		cli_warn("--diff and --report go with --fix");
		usage();
	}
	if (o->fix && o->q.on) {
		cli_warn("--fix repairs a sentence and --quarantine drops it: one or the other");
		usage();
	}
	if (o->fix && (o->chat || o->records || o->pairs || o->scratchpad || o->jobs > 1 ||
		       o->write_baseline || o->list_rules || o->check_rules || o->export_patterns ||
		       o->line_buffered || o->claims)) {
		cli_warn("--fix repairs text files and standard input: not with --input chat, "
			 "--records, --pairs, --scratchpad, -j, --write-baseline, --line-buffered, "
			 "--claims or rule listings");
		usage();
	}
}

static void parse_options(int argc, char **argv, struct options *o)
{
	int c;

	o->fail_on = HALLUSCAN_FAIL_ON_BLOCK;
	o->max_unsupported = HALLUSCAN_MAX_UNSUPPORTED_RATIO;
	o->color = -1;
	opterr = 0; /* errors are reported here, under the program's name */
	o->jobs = 1;
	o->q.rule = (struct disposition_rule){DISPOSITION_MIN_SUPPORT, DISPOSITION_PARTIAL_ALLOWANCE};
	while ((c = getopt_long(argc, argv, ":f:hVj:", long_options, NULL)) != -1) {
		if (quarantine_option(c, o))
			continue;
		switch (c) {
		case OPT_CONTEXT: {
			char *tok, *save = NULL;

			no_empty_item("--context", optarg);
			for (tok = strtok_r(optarg, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
				if (add_str(&o->contexts, &o->n_contexts, tok) < 0)
					exit(EXIT_ERROR);
			break;
		}
		case OPT_SELECT:
		case OPT_IGNORE:
			add_list(c == OPT_SELECT ? "--select" : "--ignore", optarg,
				 c == OPT_SELECT ? &o->select : &o->ignore);
			break;
		case 'f':
			if (out_format_parse(optarg, &o->format) < 0) {
				cli_warn("--format takes jsonl, text, sarif or github, not \"%s\"", optarg);
				usage();
			}
			o->format_set = true;
			break;
		case OPT_SHOW_RECOVERY:
			o->show_recovery = true;
			break;
		case OPT_COLOR:
			if (!optarg || strcmp(optarg, "always") == 0)
				o->color = 1;
			else if (strcmp(optarg, "never") == 0)
				o->color = 0;
			else if (strcmp(optarg, "auto") == 0)
				o->color = -1;
			else {
				cli_warn("--color takes auto, always or never, not \"%s\"", optarg);
				usage();
			}
			break;
		case OPT_STDIN_NAME:
			o->stdin_name = optarg;
			break;
		case OPT_NO_INLINE_IGNORE:
			o->no_inline_ignore = true;
			break;
		case OPT_INLINE_IGNORE:
			o->inline_ignore = true;
			break;
		case OPT_BASELINE:
			o->baseline = optarg;
			break;
		case OPT_WRITE_BASELINE:
			o->write_baseline = optarg;
			break;
		case OPT_NO_BUILTIN_RULES:
			o->no_builtin = true;
			break;
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_NO_CONFIG:
			o->no_config = true;
			break;
		case OPT_NO_SKIP_CODE:
			o->no_skip_code = true;
			break;
		case OPT_FAIL_ON:
			if (cli_fail_on(optarg) < 0) {
				cli_warn("--fail-on takes warn, block or never, not \"%s\"", optarg);
				usage();
			}
			o->fail_on = (enum halluscan_fail_on)cli_fail_on(optarg);
			o->fail_on_set = true;
			break;
		case OPT_RULES:
			if (add_str(&o->rules, &o->n_rules, optarg) < 0)
				exit(EXIT_ERROR);
			break;
		case OPT_LINE_BUFFERED:
			o->line_buffered = true;
			break;
		case OPT_LIST_RULES:
			o->list_rules = true;
			break;
		case OPT_CHECK_RULES:
			o->check_rules = true;
			break;
		case OPT_EXPORT_PATTERNS:
			o->export_patterns = true;
			break;
		case OPT_ENGINE:
			if (strcmp(optarg, "pcre2") == 0) {
				o->pcre2 = true;
			} else if (strcmp(optarg, "hyperscan") == 0) {
				if (!HAVE_HYPERSCAN) {
					cli_warn("this build has no Hyperscan; --engine pcre2 is the one engine");
					exit(EXIT_ERROR);
				}
				o->pcre2 = false;
			} else {
				cli_warn("--engine takes hyperscan or pcre2, not \"%s\"", optarg);
				usage();
			}
			break;
		case OPT_NO_CACHE:
			o->no_cache = true;
			break;
		case OPT_SHOW_GROUNDED:
			o->show_grounded = true;
			break;
		case OPT_SOURCE:
			if (add_str(&o->sources, &o->n_sources, optarg) < 0)
				exit(EXIT_ERROR);
			break;
		case OPT_PROMPT:
			if (add_str(&o->prompts, &o->n_prompts, optarg) < 0)
				exit(EXIT_ERROR);
			break;
		case OPT_BIB:
			if (add_str(&o->bibs, &o->n_bibs, optarg) < 0)
				exit(EXIT_ERROR);
			break;
		case OPT_CLAIMS:
			o->claims = true;
			break;
		case OPT_PAIRS:
			o->pairs = true;
			break;
		case OPT_MAX_UNSUPPORTED: {
			char *end;

			errno = 0;
			o->max_unsupported = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->max_unsupported >= 0 && o->max_unsupported <= 1)) {
				cli_warn("--max-unsupported-ratio takes a number from 0 to 1, not \"%s\"", optarg);
				usage();
			}
			break;
		}
		case OPT_SPAN_NONCE:
			o->span_nonce = optarg;
			o->nonce_from = "--span-nonce";
			break;
		case OPT_INPUT:
			if (strcmp(optarg, "chat") != 0 && strcmp(optarg, "text") != 0) {
				cli_warn("--input takes text or chat, not \"%s\"", optarg);
				usage();
			}
			o->chat = strcmp(optarg, "chat") == 0;
			break;
		case OPT_RECORDS:
			o->records = true;
			break;
		case OPT_FIELD:
			o->field = optarg;
			break;
		case OPT_SOURCE_FIELD:
			o->source_field = optarg;
			break;
		case OPT_PROMPT_FIELD:
			o->prompt_field = optarg;
			break;
		case OPT_SCRATCHPAD:
			o->scratchpad = optarg;
			break;
		case OPT_PRESSURE:
			o->pressure = true;
			break;
		case OPT_FIX:
			o->fix = true;
			break;
		case OPT_FIX_DIFF:
			o->fix_diff = true;
			break;
		case OPT_FIX_REPORT:
			o->fix_report = optarg;
			break;
		case 'j': {
			char *end;
			long n;

			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || n < 1 || n > 256) {
				cli_warn("-j takes a number of threads from 1 to 256, not \"%s\"", optarg);
				usage();
			}
			o->jobs = (size_t)n;
			break;
		}
		case 'V':
			printf("halluscan %s (%s)\n", halluscan_version(), halluscan_engine_version());
			exit(EXIT_PASS);
		case 'h':
			fputs(usage_text, stdout);
			fputc('\n', stdout);
			fputs(help_text, stdout);
			exit(EXIT_PASS);
		case ':':
			cli_warn("option %s needs an argument", argv[optind - 1]);
			usage();
			break;
		default:
			if (optopt && optopt < CHAR_MAX)
				cli_warn("unknown option -%c", optopt);
			else
				cli_warn("unknown option %s", argv[optind - 1]);
			usage();
		}
	}
	check_modes(o);
	check_quarantine(o, argc - optind);
	check_fix(o);
	if ((o->list_rules || o->check_rules || o->export_patterns) && optind < argc) {
		cli_warn("--list-rules, --check-rules and --export-patterns take no FILE");
		usage();
	}
	/* The option wins; a variable that is set but empty is an error, not
	 * "no nonce": a harness whose nonce went missing must not pass spoofs. */
	if (!o->span_nonce && getenv("HALLUSCAN_SPAN_NONCE")) {
		o->span_nonce = getenv("HALLUSCAN_SPAN_NONCE");
		o->nonce_from = "HALLUSCAN_SPAN_NONCE";
	}
	if (o->span_nonce && spans_check_nonce(o->span_nonce) < 0) {
		/* The value is not echoed: it is meant to stay out of logs the model may see. */
		cli_warn("%s takes %d to %d letters, digits, '.', '_' or '-'", o->nonce_from,
		       SPANS_NONCE_MIN, SPANS_NONCE_MAX);
		exit(EXIT_ERROR);
	}
}

/* ---- output ---- */

static int on_line(void *ctx)
{
	return jsonl_sync(ctx);
}

/* ---- scanning ---- */

/* PCRE2 match limits reached over the run, said once at its end. */
struct limit_hits {
	uint64_t hits;
	size_t inputs;
	const char *name; /* the input, when only one reached one */
};

static void say_limit_hits(const struct limit_hits *lh)
{
	if (lh->inputs == 1)
		cli_warn("%s: a PCRE2 match limit was reached %llu time(s); matches may be missing",
			 lh->name, (unsigned long long)lh->hits);
	else if (lh->inputs > 1)
		cli_warn("a PCRE2 match limit was reached %llu time(s) in %zu inputs; matches may be "
			 "missing", (unsigned long long)lh->hits, lh->inputs);
}

/* Input that is UTF-16 or UTF-32 without a byte-order mark: say how to convert it. */
static void say_encoding(const char *name, enum decode_encoding guess)
{
	char enc[16];
	size_t i;

	snprintf(enc, sizeof(enc), "%s", decode_name(guess));
	for (i = 0; enc[i]; i++)
		enc[i] = (char)toupper((unsigned char)enc[i]);
	if (strcmp(name, "-") == 0)
		cli_warn("-: looks like %s without a byte-order mark; convert it first: "
			 "iconv -f %s -t UTF-8 | halluscan", enc, enc);
	else
		cli_warn("%s: looks like %s without a byte-order mark; convert it first: "
			 "iconv -f %s -t UTF-8 %s | halluscan", name, enc, enc, name);
}

/* Which inputs are model output (stdin_is_model_output()), and whether directives are honoured elsewhere. */
struct model_output {
	bool all, stdin, honour;
};

/*
 * Scans one input and writes its summary. Returns 0, or a negative errno
 * for an error that ends the run (a write error); an input that could not
 * be read, or only in part, is said here and sets *io_error. The findings
 * found before any error are written. shown is the path its findings
 * carry.
 */
static int scan_one(struct halluscan_scanner *sc, struct plain *in, const char *name,
		    const char *shown, struct report *rep, const struct model_output *mo,
		    bool line_buffered, bool *failed, bool *io_error, struct limit_hits *lh)
{
	const struct halluscan_summary *sum;
	struct jsonl_input how;
	bool fail = false;
	int err;

	rep->model_output = mo->all || (mo->stdin && strcmp(name, "-") == 0);
	rep->inline_ignore = mo->honour && !rep->model_output;
	report_input(rep, shown);
	rep->scanner = sc;
	in->on_text = report_text;
	in->text_ctx = rep;
	err = plain_scan(in, sc, name, line_buffered ? on_line : NULL, rep->out);
	if (err)
		return err; /* a write error or no memory: the run ends */
	if (in->skipped) {
		char msg[128];

		if (in->skipped == EILSEQ) {
			say_encoding(shown, in->dec.guess);
			snprintf(msg, sizeof(msg), "looks like %s without a byte-order mark",
				 decode_name(in->dec.guess));
		} else {
			cli_warn("%s: %s", shown, strerror(in->skipped));
			snprintf(msg, sizeof(msg), "%s", strerror(in->skipped));
		}
		*io_error = true;
		return report_error(rep, shown, msg);
	}
	err = report_text_end(rep);
	err = err ? err : halluscan_scanner_end(sc, &sum);
	if (err)
		return err;
	if (in->read_err && sum->bytes == 0) {
		/* Nothing was read (a folder given as a file, say): as one that cannot be opened. */
		cli_warn("%s: %s", shown, strerror(in->read_err));
		*io_error = true;
		return report_error(rep, shown, strerror(in->read_err));
	}
	if (sum->match_limit_hits) {
		lh->hits += sum->match_limit_hits;
		lh->inputs++;
		lh->name = shown;
	}
	how = (struct jsonl_input){
		.encoding = decode_name(in->dec.enc), .replaced = in->dec.replaced,
		.error = in->read_err ? strerror(in->read_err) : NULL,
	};
	err = report_summary(rep, sum, &how, &fail);
	if (fail)
		*failed = true;
	if (in->read_err) {
		cli_warn("%s: %s", shown, strerror(in->read_err));
		*io_error = true;
	}
	return err;
}

/*
 * Scans text held in memory (a scratchpad's execution.result) as one
 * input, as scan_one() scans a file. Returns 0 or a negative errno.
 */
static int scan_text(struct halluscan_scanner *sc, const char *text, size_t len,
		     const char *shown, struct report *rep, bool *failed)
{
	const struct halluscan_summary *sum;
	struct jsonl_input how = {0};
	size_t at, n;
	bool fail = false;
	int err = 0;

	/* The chain's step: what the agent produced. */
	rep->model_output = true;
	rep->inline_ignore = false;
	report_input(rep, shown);
	for (at = 0; at < len && err == 0; at += n) {
		n = MIN(len - at, (size_t)PLAIN_READ_SIZE);
		err = report_text(rep, text + at, n);
		err = err ? err : halluscan_scanner_feed(sc, text + at, n);
	}
	err = err ? err : report_text_end(rep);
	err = err ? err : halluscan_scanner_end(sc, &sum);
	err = err ? err : report_summary(rep, sum, &how, &fail);
	if (fail)
		*failed = true;
	return err;
}

/* ---- transcripts and records ---- */

/* --input chat (any format) and --records (JSONL) in stream.c. */
static int run_stream(const struct options *o, const struct halluscan_rules *rules,
		      char *const *files, size_t n_files, const char *config)
{
	struct stream_options st = {
		.chat = o->chat, .records = o->records, .field = o->field,
		.source_field = o->source_field, .prompt_field = o->prompt_field,
		.jobs = o->jobs, .line_buffered = o->line_buffered, .rules = rules,
		.sources = o->sources, .n_sources = o->n_sources,
		.prompts = o->prompts, .n_prompts = o->n_prompts,
		.format = o->format, .config = config,
		.style = {.color = o->color == 1 || (o->color == -1 && isatty(STDOUT_FILENO) &&
						      !(getenv("NO_COLOR") && *getenv("NO_COLOR"))),
			  .show_recovery = o->show_recovery},
	};
	char nonce[32];

	if (!o->chat && !o->records) {
		cli_warn("-j runs --records or --input chat on threads; for text files, "
			 "run one process per file (xargs -P)");
		return EXIT_ERROR;
	}
	if (o->records && o->format != OUT_JSONL) {
		cli_warn("--records writes JSONL only (each line comes back annotated)");
		return EXIT_ERROR;
	}
	if (o->baseline || o->write_baseline) {
		cli_warn("--input chat and --records take no baselines");
		return EXIT_ERROR;
	}
	/* The other formats of a transcript are written on one thread (SARIF is one log). */
	if (o->format != OUT_JSONL)
		st.jobs = 1;
	halluscan_scanner_options_init(&st.so);
	st.so.contexts = (const char *const *)o->contexts;
	st.so.n_contexts = o->n_contexts;
	st.so.fail_on = o->fail_on;
	st.so.span_nonce = o->span_nonce;
	st.so.max_unsupported_ratio = o->max_unsupported;
	st.so.flags = (o->show_grounded ? HALLUSCAN_SCAN_SHOW_GROUNDED : 0) |
		      (o->claims ? HALLUSCAN_SCAN_CLAIMS : 0) |
		      (o->pressure ? HALLUSCAN_SCAN_PRESSURE : 0);
	if (o->chat && !o->span_nonce) {
		if (cli_fresh_nonce(nonce, sizeof(nonce)) < 0) {
			cli_warn("no random nonce: %s", strerror(errno));
			return EXIT_ERROR;
		}
		st.so.span_nonce = nonce;
	}
	return cli_stream(&st, files, n_files, stdout);
}

/* ---- the rules ---- */

/* A human reads this: a pack's file name is shown with its controls escaped. */
static int list_rules(const struct halluscan_rules *rules)
{
	const struct halluscan_rule *r;
	struct buf b = {0};
	size_t i;
	int err = 0;

	for (i = 0; (r = halluscan_rules_rule(rules, i)) && err == 0; i++) {
		b.len = 0;
		err |= buf_add_visible(&b, r->id, strlen(r->id));
		err |= buf_addc(&b, '\t');
		err |= buf_add_visible(&b, r->signal, strlen(r->signal));
		err |= buf_addf(&b, "\t%s\t%s\t", halluscan_severity_name(r->severity),
				r->flags & HALLUSCAN_RULE_LEXER ? "lexer"
				: r->flags & HALLUSCAN_RULE_RECOGNIZER ? "recognizer"
				: r->flags & HALLUSCAN_RULE_RECORDS ? "records"
				: r->flags & HALLUSCAN_RULE_PCRE2 ? "pcre2" : "hyperscan");
		err |= buf_add_visible(&b, r->file, strlen(r->file));
		err |= buf_addf(&b, ":%u\n", r->line);
		if (!err)
			fwrite(b.data, 1, b.len, stdout);
	}
	buf_free(&b);
	return err ? -ENOMEM : 0;
}

/* For other tools (grep -P, ripgrep, Python re): id, signal, flags ("i" or
 * "-"), then the regex, tab-separated. The packs are not compiled for it. */
static int export_patterns(const struct ruleset *rs)
{
	size_t i;

	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		/* A number check has no pattern to export: the lexer finds its quantities.
		 * A URL's pattern finds its start only: the regex of its whole match. */
		if (r->pattern)
			printf("%s\t%s\t%s\t%s\n", r->id, r->signal, r->caseless ? "i" : "-",
			       r->extend == EXTEND_URL ? URL_REGEX : r->pattern);
	}
	return 0;
}

static int check_rules(const struct halluscan_rules *rules)
{
	const struct halluscan_rules_info *info = halluscan_rules_info(rules);

	printf("%zu rules, %zu spans, %zu contexts, %zu triggers: %zu examples and %zu negative "
	       "examples pass\n", info->n_rules, info->n_spans, info->n_contexts, info->n_triggers,
	       info->n_examples + info->n_trigger_examples,
	       info->n_negative_examples + info->n_trigger_negative_examples);
	return 0;
}

/* Ends a listing: what stdout could not take is an error. */
static int end_listing(int err)
{
	if (err == 0 && fflush(stdout) == 0)
		return EXIT_PASS;
	cli_warn("write error: %s", strerror(err ? -err : errno));
	return EXIT_ERROR;
}

/* The configuration file fills what the command line left unsaid. */
static int apply_config(struct options *o, struct config *cfg, struct diag *d)
{
	char *path = NULL;
	size_t i;
	int err;

	if (o->no_config)
		return 0;
	if (o->config)
		path = xstrndup(o->config, strlen(o->config));
	else if ((err = config_find(&path, d)) < 0)
		return err;
	if (!path)
		return o->config ? -ENOMEM : 0;
	/* The one device that is read: the usual way to say "none" by a path. */
	if (strcmp(path, "/dev/null") == 0) {
		free(path);
		return 0;
	}
	err = config_load(cfg, path, d);
	if (err > 0)
		err = diag_set(d, -err, "%s: %s", path, strerror(err));
	free(path);
	if (err < 0)
		return err;
	/* Once, before anything is scanned: a file that changes what the gate
	 * passes is never applied unsaid (SARIF's invocation records it too). */
	cli_warn("using configuration %s", cfg->path);
	if (cfg->context.set && o->n_contexts == 0)
		for (i = 0; i < cfg->context.n; i++)
			if (add_str(&o->contexts, &o->n_contexts, cfg->context.v[i]) < 0)
				return -ENOMEM;
	if (cfg->rules.set)
		for (i = 0; i < cfg->rules.n; i++)
			if (add_str(&o->rules, &o->n_rules, cfg->rules.v[i]) < 0)
				return -ENOMEM;
	if (cfg->fail_on && !o->fail_on_set)
		o->fail_on = strcmp(cfg->fail_on, "warn") == 0	   ? HALLUSCAN_FAIL_ON_WARN
			     : strcmp(cfg->fail_on, "never") == 0 ? HALLUSCAN_FAIL_ON_NEVER
								    : HALLUSCAN_FAIL_ON_BLOCK;
	if (cfg->format && !o->format_set)
		out_format_parse(cfg->format, &o->format);
	if (!o->select.set)
		o->select = cfg->select, cfg->select = (struct strv){0};
	if (!o->ignore.set)
		o->ignore = cfg->ignore, cfg->ignore = (struct strv){0};
	if (cfg->skip_code == 0 && !o->no_skip_code)
		o->no_skip_code = true;
	return 0;
}

/* ---- model output ---- */

/*
 * Is standard input model output, whose inline directives are not honoured
 * but reported? It is when the run gates it: under a span nonce (a
 * harness), with --fail-on warn, or under a context that blocks a signal.
 * A --scratchpad run's inputs all are. Files named on the command line (the
 * pre-commit and docs use) are what a person edits, as is plain standard
 * input, or any with --inline-ignore. --input chat and --records never
 * honour directives (stream.c), nor does the library.
 */
static bool stdin_is_model_output(const struct options *o, const struct halluscan_rules *rules)
{
	const struct ruleset *rs = api_rules_db(rules)->rs;
	size_t i, k;

	if (o->inline_ignore)
		return false;
	if (o->span_nonce || o->fail_on == HALLUSCAN_FAIL_ON_WARN)
		return true;
	for (i = 0; i < o->n_contexts; i++)
		for (k = 0; k < rs->n_contexts; k++)
			if (strcmp(o->contexts[i], rs->contexts[k].name) == 0 &&
			    rs->contexts[k].n_escalate > 0)
				return true;
	return false;
}

/* ---- the chain's scratchpad ---- */

/*
 * Locks and reads --scratchpad; its context_health may put the run under
 * pressure. Returns 0, a positive errno (said here), or a negative one with
 * d set: a file that is not a scratchpad is left as it is.
 */
static int open_scratchpad(struct chain *c, struct options *o, struct diag *d)
{
	int err = chain_open(c, o->scratchpad, d);

	if (err > 0) {
		cli_warn("%s: %s", o->scratchpad,
			 err == ETIMEDOUT ? "locked by another writer for too long" : strerror(err));
		return err;
	}
	if (err < 0)
		return err;
	if (c->sp.health == HEALTH_UNKNOWN)
		cli_warn("%s: context_health %s%s%s is no zone halluscan knows: taken as the compact "
			 "zone (--pressure)", o->scratchpad, c->sp.zone ? "\"" : "",
			 c->sp.zone ? c->sp.zone : "(not a string)", c->sp.zone ? "\"" : "");
	if (c->sp.health == HEALTH_PRESSURE || c->sp.health == HEALTH_UNKNOWN)
		o->pressure = true;
	c->pressure = o->pressure;
	return 0;
}

/* Writes the run's member, or why it failed. Returns true when it could not. */
static bool commit_scratchpad(struct chain *c, const char *error)
{
	int err = chain_commit(c, error);

	if (err)
		cli_warn("%s: not updated: %s", c->path ? c->path : "scratchpad", strerror(err));
	return err != 0;
}

/* The suffixes a folder is searched for. */
static const char *const suffixes[] = {".md", ".markdown", ".txt", ".rst"};

/*
 * The inputs the arguments name: files and "-" as given, folders walked.
 * Returns 0 or -ENOMEM; a folder that cannot be read is said and sets *io_error.
 */
static int list_inputs(char **args, size_t n_args, const struct config *cfg, struct strv *out,
		       bool *io_error)
{
	struct walk_options wo = {
		.suffixes = suffixes, .n_suffixes = ARRAY_SIZE(suffixes),
		.exclude = (const char *const *)cfg->exclude.v, .n_exclude = cfg->exclude.n,
	};
	size_t i, k;
	int err = 0;

	if (n_args == 0)
		return strv_add(out, "-", 1);
	for (i = 0; i < n_args && err == 0; i++) {
		struct stat st;
		char **found = NULL, *bad = NULL;
		size_t n = 0;

		if (strcmp(args[i], "-") == 0 || stat(args[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			if (strcmp(args[i], "-") == 0 || !walk_excluded(&wo, args[i]))
				err = strv_add(out, args[i], strlen(args[i]));
			continue;
		}
		err = walk_dir(args[i], &wo, &found, &n, &bad);
		if (err > 0) {
			cli_warn("%s: %s", bad ? bad : args[i], strerror(err));
			*io_error = true;
			err = 0;
		}
		for (k = 0; k < n; k++) {
			if (err == 0)
				err = strv_add(out, found[k], strlen(found[k]));
			free(found[k]);
		}
		free(found);
		free(bad);
	}
	return err;
}

int main(int argc, char **argv)
{
	struct halluscan_rules_options ro;
	struct halluscan_scanner_options so;
	struct halluscan_rules *rules = NULL;
	struct halluscan_scanner *sc = NULL;
	struct halluscan_error herr = {0};
	const struct halluscan_rules_info *info;
	static struct plain in;
	static char out_buf[64 << 10];
	struct options o = {0};
	struct config cfg = {0};
	struct jsonl out = {.f = stdout};
	struct report rep = {0};
	struct baseline base = {0}, wbase = {0};
	struct strv inputs = {0};
	struct limit_hits lh = {0};
	struct diag d = {""};
	struct chain chain = {.fd = -1};
	struct quarantine quar = {0};
	FILE *verdict = NULL;
	const char *chain_error = NULL;
	char cache[PATH_MAX];
	struct model_output mo;
	bool failed = false, io_error = false, fixed = false;
	int status = EXIT_ERROR, err;
	size_t k;

	/*
	 * A file-size limit (ulimit -f) reached is a write error (EFBIG) with
	 * a message and the temporary file removed, not a silent death that
	 * leaves it behind.
	 */
	signal(SIGXFSZ, SIG_IGN);
	if (argc > 1 && strcmp(argv[1], "eval") == 0)
		return eval_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "hook") == 0)
		return hook_main(argc - 1, argv + 1);
	/* A closed pipe is a write error with a message, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Findings reach a pipe or a file in 64 KiB writes, not stdio's 4 KiB:
	 * into a pipe each write woke the reader, and the context switches
	 * cost more than the writing (a 64 MB corpus's 10 MB of findings:
	 * 2,500 switches). --line-buffered flushes each line itself, and
	 * every exit path flushes: nothing found is held back. (glibc takes
	 * the size only with a buffer.)
	 */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, out_buf, _IOFBF, sizeof(out_buf));
	parse_options(argc, argv, &o);
	err = apply_config(&o, &cfg, &d);
	if (err < 0)
		goto fail;
	if (o.no_builtin && o.n_rules == 0) {
		cli_warn("--no-builtin-rules needs --rules");
		usage();
	}
	if (o.pairs && o.format != OUT_JSONL) {
		cli_warn("--pairs writes JSONL only");
		usage();
	}
	if (o.scratchpad) {
		err = open_scratchpad(&chain, &o, &d);
		if (err > 0)
			goto out;
		if (err < 0)
			goto fail;
	}

	halluscan_rules_options_init(&ro);
	ro.paths = (const char *const *)o.rules;
	ro.n_paths = o.n_rules;
	ro.flags = (o.pcre2 ? HALLUSCAN_RULES_PCRE2 : 0) | (o.check_rules ? HALLUSCAN_RULES_CHECK : 0) |
		   (o.n_rules && !o.no_builtin ? HALLUSCAN_RULES_BUILTIN : 0);
	ro.cache_dir = o.no_cache ? NULL : cli_cache_dir(cache, sizeof(cache));
	if (o.export_patterns) {
		struct ruleset *rs;

		err = api_load_ruleset(&ro, &rs, &d);
		if (err < 0)
			goto fail;
		status = end_listing(export_patterns(rs));
		ruleset_free(rs);
		goto out;
	}
	err = halluscan_rules_open(&ro, &rules, &herr);
	if (err < 0) {
		snprintf(d.msg, sizeof(d.msg), "%s", herr.message);
		goto fail;
	}
	info = halluscan_rules_info(rules);
	/* Slower, not wrong: say so. */
	if (info->degraded)
		cli_warn("%s; the rules run on PCRE2", info->degraded);
	if (o.list_rules || o.check_rules) {
		status = end_listing(o.list_rules ? list_rules(rules) : check_rules(rules));
		goto out;
	}
	out.rules = rules;
	if (o.pairs) {
		struct pairs_quarantine pq = {.text = stdout, .rule = o.q.rule,
					      .drop = o.fail_on != HALLUSCAN_FAIL_ON_NEVER};

		if (o.q.on && !(out.f = verdict = fopen(o.q.verdict ? o.q.verdict : "/dev/null", "w"))) {
			err = -errno;
			snprintf(d.msg, sizeof(d.msg), "%s: %s", o.q.verdict ? o.q.verdict : "/dev/null",
				 strerror(errno));
			goto fail;
		}
		status = cli_pairs(rules, (const char *const *)o.contexts, o.n_contexts,
				   argv + optind, (size_t)(argc - optind),
				   o.fail_on == HALLUSCAN_FAIL_ON_NEVER, o.line_buffered, &out,
				   o.q.on ? &pq : NULL);
		goto out;
	}
	if (o.chat || o.records || o.jobs > 1) {
		status = run_stream(&o, rules, argv + optind, (size_t)(argc - optind), cfg.path);
		goto out;
	}
	if (o.baseline) {
		err = baseline_load(&base, o.baseline, &d);
		if (err > 0) {
			snprintf(d.msg, sizeof(d.msg), "%s: %s", o.baseline, strerror(err));
			err = -err;
			goto fail;
		}
		if (err < 0)
			goto fail;
	}

	rep = (struct report){
		.out = &out, .rules = rules, .format = o.format, .fail_on = o.fail_on,
		.style = {.color = o.color == 1 || (o.color == -1 && isatty(STDOUT_FILENO) &&
						     !(getenv("NO_COLOR") && *getenv("NO_COLOR"))),
			  .show_recovery = o.show_recovery},
		.inline_ignore = !o.no_inline_ignore, .skip_code = !o.no_skip_code,
		.select = (const char *const *)o.select.v, .n_select = o.select.n,
		.ignore = (const char *const *)o.ignore.v, .n_ignore = o.ignore.n,
		.baseline = o.baseline ? &base : NULL, .write_baseline = o.write_baseline ? &wbase : NULL,
		.line_buffered = o.line_buffered, .config = cfg.path,
		.tap = o.scratchpad ? chain_finding : NULL, .tap_ctx = &chain,
	};
	if (o.q.on) {
		/* The text goes to standard output; the findings, the summary and
		 * the record of what was dropped to --verdict (or nowhere). */
		verdict = fopen(o.q.verdict ? o.q.verdict : "/dev/null", "w");
		if (!verdict) {
			err = -errno;
			snprintf(d.msg, sizeof(d.msg), "%s: %s", o.q.verdict ? o.q.verdict : "/dev/null",
				 strerror(errno));
			goto fail;
		}
		out.f = verdict;
		quar = (struct quarantine){.text = stdout, .drop_at = o.fail_on, .labels = o.claims,
					   .rule = o.q.rule, .line_buffered = o.line_buffered,
					   .out = &out};
		rep.quarantine = &quar;
		rep.claims = o.claims;
	}
	if (o.fix) {
		/* --fix's findings go to --report, never among the text on stdout. */
		/* /dev/stderr is the stream itself: opened anew, it would write over the messages. */
		if (o.fix_report && strcmp(o.fix_report, "/dev/stderr") == 0)
			out.f = fdopen(dup(STDERR_FILENO), "w");
		else
			out.f = fopen(o.fix_report ? o.fix_report : "/dev/null", "w");
		if (!out.f) {
			err = -errno;
			snprintf(d.msg, sizeof(d.msg), "%s: %s", o.fix_report ? o.fix_report : "/dev/null",
				 strerror(-err));
			goto fail;
		}
	}
	/* Records to a pipe or a file go to stdio JSONL_HOLD bytes at a time
	 * (jsonl.h): nothing else writes to stdout meanwhile, and each input's
	 * summary syncs. A terminal, or --line-buffered, has each as it is made. */
	if (out.f == stdout && !o.line_buffered && !isatty(STDOUT_FILENO))
		out.hold = JSONL_HOLD;
	err = report_start(&rep, &d);
	if (err < 0)
		goto fail;
	mo = (struct model_output){.all = o.scratchpad != NULL,
				   .stdin = stdin_is_model_output(&o, rules),
				   .honour = !o.no_inline_ignore};
	halluscan_scanner_options_init(&so);
	so.contexts = (const char *const *)o.contexts;
	so.n_contexts = o.n_contexts;
	so.fail_on = o.fail_on;
	so.span_nonce = o.span_nonce;
	so.max_unsupported_ratio = o.max_unsupported;
	so.flags = (o.show_grounded ? HALLUSCAN_SCAN_SHOW_GROUNDED : 0) |
		   (o.claims ? HALLUSCAN_SCAN_CLAIMS : 0) |
		   (o.pressure ? HALLUSCAN_SCAN_PRESSURE : 0);
	so.on_claim = o.q.on ? report_sentence : report_claim;
	if (o.q.on)
		so.flags |= HALLUSCAN_SCAN_SENTENCES;
	err = halluscan_scanner_new(rules, &so, report_finding, &rep, &sc, &herr);
	if (err < 0) {
		snprintf(d.msg, sizeof(d.msg), "%s", herr.message);
		goto fail;
	}
	for (k = 0; k < o.n_sources + o.n_prompts; k++) {
		bool prompt = k >= o.n_sources;
		const char *path = prompt ? o.prompts[k - o.n_sources] : o.sources[k];

		err = plain_ground(&in, sc, prompt ? HALLUSCAN_GROUND_PROMPT : HALLUSCAN_GROUND_SOURCE,
				   path);
		if (err > 0) {
			snprintf(d.msg, sizeof(d.msg), "%s: %s", path, strerror(err));
			err = -err;
			goto fail;
		}
		if (err < 0)
			goto fail;
	}

	for (k = 0; k < o.n_bibs; k++) {
		char *data = NULL;
		size_t len = 0;

		err = read_file_max(o.bibs[k], BIB_MAX_BYTES + 1, &data, &len);
		if (err < 0 && err != -ENOMEM) {
			snprintf(d.msg, sizeof(d.msg), "%s: %s", o.bibs[k], strerror(-err));
			goto fail;
		}
		if (err == 0)
			err = halluscan_scanner_add_bibliography(sc, o.bibs[k], data, len, &herr);
		free(data);
		if (err == -EINVAL) {
			snprintf(d.msg, sizeof(d.msg), "%s", herr.message);
			goto fail;
		}
		if (err < 0)
			goto fail;
	}
	if (o.scratchpad && optind == argc) {
		/* The chain's step: what the agent produced, not standard input. */
		if (!chain.sp.result) {
			snprintf(d.msg, sizeof(d.msg), "%s: %s", o.scratchpad, chain.sp.result_problem);
			err = -EINVAL;
			goto fail;
		}
		err = scan_text(sc, chain.sp.result, chain.sp.result_len, "execution.result", &rep,
				&failed);
		if (err) {
			if (out.err)
				snprintf(d.msg, sizeof(d.msg), "write error: %s", strerror(out.err));
			else
				d.msg[0] = '\0'; /* fail: says err */
			goto fail;
		}
	}
	err = o.scratchpad && optind == argc
		      ? 0
		      : list_inputs(argv + optind, (size_t)(argc - optind), &cfg, &inputs, &io_error);
	if (err < 0)
		goto fail;
	if (o.q.on && inputs.n > 1) {
		snprintf(d.msg, sizeof(d.msg), "--quarantine takes one FILE, not a folder of %zu",
			 inputs.n);
		err = -EINVAL;
		goto fail;
	}
	for (k = 0; k < inputs.n; k++) {
		const char *name = inputs.v[k];
		const char *shown = strcmp(name, "-") == 0 && o.stdin_name ? o.stdin_name : name;

		if (o.fix) {
			struct cli_fix fx = {.rules = rules, .sc = sc, .rep = &rep, .diff = o.fix_diff,
					     .model_output_all = mo.all,
					     .model_output_stdin = mo.stdin, .honour = mo.honour};

			err = cli_fix_one(&fx, name, shown, &fixed, &failed, &io_error);
		} else {
			err = scan_one(sc, &in, name, shown, &rep, &mo, o.line_buffered, &failed,
				       &io_error, &lh);
		}
		if (err) {
			if (out.err)
				snprintf(d.msg, sizeof(d.msg), "write error: %s", strerror(out.err));
			else
				snprintf(d.msg, sizeof(d.msg), "%s: %s", shown, strerror(-err));
			goto fail;
		}
	}
	err = report_finish(&rep);
	if (err == 0)
		err = jsonl_sync(&out);
	if (err == 0 && o.fix && (fflush(stdout) != 0 || fclose(out.f) != 0))
		err = -errno;
	if (o.fix)
		out.f = stdout; /* closed, or to be left as it is */
	if (err) {
		snprintf(d.msg, sizeof(d.msg), "write error: %s", strerror(out.err ? out.err : -err));
		goto fail;
	}
	say_limit_hits(&lh);
	if (o.write_baseline) {
		err = baseline_write(&wbase, o.write_baseline);
		if (err) {
			snprintf(d.msg, sizeof(d.msg), "%s: %s", o.write_baseline, strerror(err));
			err = -err;
			goto fail;
		}
		/* The findings are accepted: only an error fails the run. */
		failed = false;
	}
	if (io_error)
		chain_error = "an input could not be read (see the summaries)";
	if (io_error)
		status = EXIT_ERROR;
	else if (failed || fixed)
		status = EXIT_FAIL;
	else
		status = EXIT_PASS;
	goto out;
fail:
	if (err == -ENOMEM && !d.msg[0])
		cli_warn("out of memory");
	else
		cli_warn("%s", d.msg[0] ? d.msg : strerror(-err));
	chain_error = err == -ENOMEM && !d.msg[0] ? "out of memory" : d.msg[0] ? d.msg : strerror(-err);
out:
	/* Every failed run says so in the member, never with a verdict "pass". */
	if (status == EXIT_ERROR && !chain_error)
		chain_error = "the scan did not finish (see the standard error)";
	chain.sup_inline = rep.total_sup_inline;
	chain.sup_baseline = rep.total_sup_baseline;
	chain.sup_code = rep.total_sup_code;
	if (chain.parsed && commit_scratchpad(&chain, status == EXIT_ERROR ? chain_error : NULL))
		status = EXIT_ERROR;
	plain_fini(&in);
	if (HALLUSCAN_FREE_AT_EXIT)
		halluscan_scanner_free(sc);
	else
		left_at_exit.sc = sc;
	report_fini(&rep);
	if (HALLUSCAN_FREE_AT_EXIT)
		halluscan_rules_free(rules);
	else
		left_at_exit.rules = rules;
	jsonl_fini(&out);
	quarantine_fini(&quar);
	if (verdict && fclose(verdict) != 0 && status != EXIT_ERROR) {
		cli_warn("%s: %s", o.q.verdict, strerror(errno));
		status = EXIT_ERROR;
	}
	baseline_fini(&base);
	baseline_fini(&wbase);
	config_free(&cfg);
	strv_free(&inputs);
	strv_free(&o.select);
	strv_free(&o.ignore);
	free(o.contexts);
	free(o.rules);
	free(o.sources);
	free(o.prompts);
	chain_close(&chain);
	free(o.bibs);
	return status;
}
