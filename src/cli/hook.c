// SPDX-License-Identifier: MIT
/*
 * halluscan hook claude-code: halluscan as a Claude Code hook
 * (code.claude.com/docs/en/hooks). The harness writes a JSON payload on
 * standard input and reads the answer from the exit status, standard
 * output and standard error:
 *
 *   exit 0, nothing            pass
 *   exit 0, {"decision":"block","reason":R}
 *                              Stop, SubagentStop: the agent goes on with R
 *                              as its instruction; PostToolUse: R is shown
 *                              to the agent beside the tool's result
 *   exit 0, {"systemMessage":M}
 *                              pass, M shown to the user
 *   exit 2, stderr             a blocking error: stderr is fed to the agent
 *   exit 1, stderr             a non-blocking error: the harness goes on
 *
 * Stop and SubagentStop scan the agent's last reply (input/tail.c reads it
 * from the end of the session log), grounded by the tool results and the
 * person's prompts before it; PostToolUse on Write, Edit and MultiEdit
 * scans the document written. Both go through report.c as files do:
 * Markdown code is no prose, and every text is model output (a directive
 * in it is a finding, a tool-span tag a spoofed span).
 *
 * Loops. A block makes the agent try again, and the harness says so with
 * stop_hook_active. A small state file per session (hook_state below) holds
 * how many blocks in a row halluscan gave and a digest of what it blocked
 * for: the same findings (or the same error) a second time in a row, or
 * --max-blocks blocks in a row, let the stop through with a systemMessage
 * that says what is left. Without a place for the state, a stop under
 * stop_hook_active is let through that way at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "halluscan.h"

#include "cli.h"
#include "cli/report.h"
#include "common/emit.h"
#include "common/sha256.h"
#include "config.h"
#include "input/hookin.h"
#include "input/tail.h"

/* The findings a reason lists; the rest are counted. */
#define REASON_LIST_MAX 20
/* A finding's text as a reason quotes it, at most. */
#define REASON_QUOTE_MAX 200
/* A session log is read back this far at most (besides --history). */
#define STOP_READ_MAX ((uint64_t)64 << 20)
/* A written document, read whole, at most. */
#define DOCUMENT_MAX ((size_t)64 << 20)

enum {
	OPT_CONTEXT = CHAR_MAX + 1,
	OPT_FAIL_ON,
	OPT_RULES,
	OPT_NO_BUILTIN_RULES,
	OPT_ENGINE,
	OPT_MAX_BLOCKS,
	OPT_TIME_LIMIT,
	OPT_HISTORY,
	OPT_STATE_DIR,
	OPT_ALL_FILES,
};

static const struct option hook_options[] = {
	{"context", required_argument, NULL, OPT_CONTEXT},
	{"fail-on", required_argument, NULL, OPT_FAIL_ON},
	{"rules", required_argument, NULL, OPT_RULES},
	{"no-builtin-rules", no_argument, NULL, OPT_NO_BUILTIN_RULES},
	{"engine", required_argument, NULL, OPT_ENGINE},
	{"max-blocks", required_argument, NULL, OPT_MAX_BLOCKS},
	{"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
	{"history", required_argument, NULL, OPT_HISTORY},
	{"state-dir", required_argument, NULL, OPT_STATE_DIR},
	{"all-files", no_argument, NULL, OPT_ALL_FILES},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static const char hook_usage[] =
	"usage: halluscan hook claude-code|codex [--context NAME]... [--fail-on warn|block|never]\n"
	"                 [--rules PATH]... [--no-builtin-rules] [--engine hyperscan|pcre2]\n"
	"                 [--max-blocks N] [--time-limit SECONDS] [--history KIB]\n"
	"                 [--state-dir DIR] [--all-files] < PAYLOAD\n";

static const char hook_help[] =
	"Runs as a Claude Code (or Codex) hook: reads the hook's JSON payload on\n"
	"standard input and answers as the hook protocol wants. Stop and SubagentStop:\n"
	"the agent's last reply, grounded by the tool results and prompts of the\n"
	"session log (Codex: its rollout);\n"
	"PostToolUse on Write, Edit or MultiEdit: the document written (*.md,\n"
	"*.markdown, *.txt, *.rst, or any file with --all-files). A finding at or\n"
	"above --fail-on (default warn) blocks with a reason listing each finding\n"
	"and its recovery; a pass writes nothing.\n"
	"\n"
	"  --context NAME      as halluscan's (repeatable)\n"
	"  --fail-on LEVEL     block on findings at or above LEVEL: warn (default),\n"
	"                      block, or never\n"
	"  --rules PATH, --no-builtin-rules, --engine NAME\n"
	"                      as halluscan's\n"
	"  --max-blocks N      let a stop through after N blocks in a row (default 3);\n"
	"                      the same findings twice in a row always are\n"
	"  --time-limit S      give up after S seconds (default 10): an error\n"
	"  --history KIB       ground by at least this much of the log before its end\n"
	"                      too, not only by the last prompt's turn (default 0)\n"
	"  --state-dir DIR     where the per-session state is kept (default:\n"
	"                      $HALLUSCAN_STATE_DIR, $XDG_RUNTIME_DIR/halluscan,\n"
	"                      $XDG_STATE_HOME/halluscan, ~/.local/state/halluscan)\n"
	"  --all-files         PostToolUse: scan any file written, not only documents\n"
	"\n"
	"Exit status (the hook protocol's): 0 pass, or a block or a message on\n"
	"standard output; 2 an error the agent is told (standard error); 1 an event\n"
	"halluscan does not handle (a non-blocking error). See halluscan(1).\n";

struct hook_opts {
	char **contexts, **rules;
	size_t n_contexts, n_rules;
	enum halluscan_fail_on fail_on;
	bool no_builtin, pcre2, all_files;
	unsigned max_blocks;
	unsigned time_limit;
	uint64_t history;
	const char *state_dir;
};

/* A finding kept for the reason. */
struct kept {
	char *signal, *rule, *text, *message, *recovery;
	enum halluscan_severity severity;
	uint64_t line, column;
	size_t input;
	bool truncated;
	unsigned char digest[32];
};

struct run {
	enum hook_harness harness;
	struct hook_opts o;
	struct hook_payload p;
	struct kept *k;
	size_t n, cap;
	size_t input;        /* the input being scanned */
	struct timespec deadline;
	char state_path[PATH_MAX];
	bool have_state_dir;
};

/* ---- the time bound ---- */

static void on_alarm(int sig)
{
	static const char msg[] = "halluscan: hook: the time limit was reached\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to say */
	}
	_exit(EXIT_ERROR);
}

static bool expired(void *ctx)
{
	const struct run *r = ctx;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > r->deadline.tv_sec ||
	       (now.tv_sec == r->deadline.tv_sec && now.tv_nsec >= r->deadline.tv_nsec);
}

/* ---- options ---- */

static void usage(void)
{
	fputs(hook_usage, stderr);
	exit(EXIT_ERROR);
}

static unsigned number(const char *opt, const char *arg, unsigned lo, unsigned hi)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < (long)lo || n > (long)hi) {
		cli_warn("%s takes a number from %u to %u, not \"%s\"", opt, lo, hi, arg);
		usage();
	}
	return (unsigned)n;
}

static void add(char ***v, size_t *n, char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv) {
		cli_warn("out of memory");
		exit(EXIT_ERROR);
	}
	*v = nv;
	nv[(*n)++] = s;
}

static void parse_options(int argc, char **argv, struct hook_opts *o)
{
	int c;

	o->fail_on = HALLUSCAN_FAIL_ON_WARN;
	o->max_blocks = 3;
	o->time_limit = 10;
	o->history = 0;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", hook_options, NULL)) != -1) {
		switch (c) {
		case OPT_CONTEXT: {
			char *tok, *save = NULL;

			if (!cli_list_ok(optarg)) {
				cli_warn("--context takes a comma-separated list of names, not \"%s\"",
					 optarg);
				usage();
			}
			for (tok = strtok_r(optarg, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
				add(&o->contexts, &o->n_contexts, tok);
			break;
		}
		case OPT_FAIL_ON:
			if (cli_fail_on(optarg) < 0) {
				cli_warn("--fail-on takes warn, block or never, not \"%s\"", optarg);
				usage();
			}
			o->fail_on = (enum halluscan_fail_on)cli_fail_on(optarg);
			break;
		case OPT_RULES:
			add(&o->rules, &o->n_rules, optarg);
			break;
		case OPT_NO_BUILTIN_RULES:
			o->no_builtin = true;
			break;
		case OPT_ENGINE:
			if (strcmp(optarg, "pcre2") == 0)
				o->pcre2 = true;
			else if (strcmp(optarg, "hyperscan") != 0 || !HAVE_HYPERSCAN) {
				cli_warn("--engine takes %s, not \"%s\"",
					 HAVE_HYPERSCAN ? "hyperscan or pcre2" : "pcre2", optarg);
				usage();
			}
			break;
		case OPT_MAX_BLOCKS:
			o->max_blocks = number("--max-blocks", optarg, 1, 100);
			break;
		case OPT_TIME_LIMIT:
			o->time_limit = number("--time-limit", optarg, 1, 3600);
			break;
		case OPT_HISTORY:
			o->history = (uint64_t)number("--history", optarg, 0, 1 << 20) << 10;
			break;
		case OPT_STATE_DIR:
			if (!*optarg) {
				cli_warn("--state-dir takes a folder, not \"\"");
				usage();
			}
			o->state_dir = optarg;
			break;
		case OPT_ALL_FILES:
			o->all_files = true;
			break;
		case 'h':
			fputs(hook_usage, stdout);
			fputc('\n', stdout);
			fputs(hook_help, stdout);
			exit(EXIT_PASS);
		case ':':
			cli_warn("option %s needs an argument", argv[optind - 1]);
			usage();
			break;
		default:
			cli_warn("unknown option %s", argv[optind - 1]);
			usage();
		}
	}
	if (o->no_builtin && o->n_rules == 0) {
		cli_warn("--no-builtin-rules needs --rules");
		usage();
	}
}

/* ---- the per-session state ---- */

/* mkdir -p for the last two levels at most (~/.local/state/halluscan), private. */
static int make_dir(const char *path)
{
	char tmp[PATH_MAX];
	char *slash;
	int i;

	if (mkdir(path, 0700) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT || snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -errno;
	for (i = 0; i < 2; i++) {
		slash = strrchr(tmp, '/');
		if (!slash || slash == tmp)
			return -ENOENT;
		*slash = '\0';
		if (mkdir(tmp, 0700) == 0 || errno == EEXIST)
			break;
	}
	/* Create back down what was missing. */
	while (strlen(tmp) < strlen(path)) {
		tmp[strlen(tmp)] = '/';
		if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
			return -errno;
	}
	return 0;
}

/*
 * Where this session's state lives: a file named by a digest of the
 * session (and subagent) id in the first state folder that can be made.
 */
static void state_locate(struct run *r)
{
	const char *env;
	char dir[PATH_MAX] = "";
	unsigned char d[32];
	char hex[65];
	struct sha256 s;

	if (!r->p.session_id)
		return;
	if (r->o.state_dir)
		snprintf(dir, sizeof(dir), "%s", r->o.state_dir);
	else if ((env = getenv("HALLUSCAN_STATE_DIR")) && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else if ((env = getenv("XDG_RUNTIME_DIR")) && *env)
		snprintf(dir, sizeof(dir), "%s/halluscan", env);
	else if ((env = getenv("XDG_STATE_HOME")) && *env)
		snprintf(dir, sizeof(dir), "%s/halluscan", env);
	else if ((env = getenv("HOME")) && *env)
		snprintf(dir, sizeof(dir), "%s/.local/state/halluscan", env);
	if (!dir[0] || make_dir(dir) < 0)
		return;
	sha256_init(&s);
	sha256_update(&s, r->p.session_id, strlen(r->p.session_id) + 1);
	if (r->p.agent_id)
		sha256_update(&s, r->p.agent_id, strlen(r->p.agent_id));
	sha256_final(&s, d);
	sha256_hex(d, hex);
	if ((size_t)snprintf(r->state_path, sizeof(r->state_path), "%s/hook-%.32s", dir, hex) <
	    sizeof(r->state_path))
		r->have_state_dir = true;
}

struct hook_state {
	bool valid;
	unsigned blocks;     /* blocks in a row */
	uint64_t size;       /* the log's size at the last block */
	char digest[65];     /* of what it blocked for */
};

static void state_load(const struct run *r, struct hook_state *st)
{
	char line[256];
	FILE *f;

	memset(st, 0, sizeof(*st));
	if (!r->have_state_dir)
		return;
	f = fopen(r->state_path, "re");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) &&
	    sscanf(line, "halluscan-hook 1 %u %llu %64[0-9a-f]", &st->blocks,
		   (unsigned long long *)&st->size, st->digest) == 3 &&
	    strlen(st->digest) == 64)
		st->valid = true;
	fclose(f);
}

/* Replaces the state whole (a temporary file renamed over it). Returns 0 or a negative errno. */
static int state_save(const struct run *r, const struct hook_state *st)
{
	char tmp[PATH_MAX + 32];
	int fd, err = 0;
	FILE *f;

	if (!r->have_state_dir)
		return -ENOENT;
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", r->state_path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		unlink(tmp);
		return err;
	}
	fprintf(f, "halluscan-hook 1 %u %llu %s\n", st->blocks, (unsigned long long)st->size,
		st->digest);
	if (fclose(f) != 0)
		err = -errno;
	if (!err && rename(tmp, r->state_path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static void state_clear(const struct run *r)
{
	if (r->have_state_dir)
		unlink(r->state_path);
}

/* ---- answers ---- */

/* Writes {"KEY":TEXT} (and "decision":"block" first for a block) on stdout. */
static int answer(const char *key, const char *text, size_t n, bool block)
{
	struct buf b = {0};
	int err = buf_addc(&b, '{');

	if (block)
		err |= BUF_LIT(&b, "\"decision\":\"block\",");
	err |= buf_addc(&b, '"') | buf_adds(&b, key) | BUF_LIT(&b, "\":");
	err |= emit_json_string_utf8(&b, text, n, NULL);
	err |= BUF_LIT(&b, "}\n");
	if (!err && (fwrite(b.data, 1, b.len, stdout) != b.len || fflush(stdout) != 0))
		err = -EIO;
	buf_free(&b);
	if (err) {
		cli_warn("hook: the answer could not be written");
		return EXIT_ERROR;
	}
	return EXIT_PASS;
}

/*
 * A stop blocked a second time for the same thing, or too often: let
 * through, said to the user (systemMessage) and on stderr.
 */
static int let_through(const struct run *r, const char *what)
{
	struct buf m = {0};
	int status;

	state_clear(r);
	if (buf_addf(&m, "halluscan: the stop was let through after %s; the reply is not repaired",
		     what) < 0) {
		cli_warn("out of memory");
		return EXIT_ERROR;
	}
	fprintf(stderr, "%s\n", m.data);
	status = answer("systemMessage", m.data, m.len, false);
	buf_free(&m);
	return status;
}

static void digest_text(const char *s, size_t n, char hex[65])
{
	unsigned char d[32];
	struct sha256 h;

	sha256_init(&h);
	sha256_update(&h, s, n);
	sha256_final(&h, d);
	sha256_hex(d, hex);
}

/*
 * A stop to block for digest (what the block is for): blocked, or let
 * through when the loop rules say so. block() writes the block itself.
 */
static int stop_decision(struct run *r, const char *digest, uint64_t size,
			 int (*block)(struct run *r, void *ctx), void *ctx, const char *what)
{
	struct hook_state st;
	char said[160];
	int err;

	state_load(r, &st);
	if (!r->p.stop_hook_active)
		st.blocks = 0; /* a new stop: nothing before counts */
	else if (!r->have_state_dir) {
		snprintf(said, sizeof(said), "a block (no state folder to tell a repeat): %s", what);
		return let_through(r, said);
	} else if (st.valid && strcmp(st.digest, digest) == 0) {
		snprintf(said, sizeof(said), "the same %s twice in a row", what);
		return let_through(r, said);
	} else if (st.valid && st.blocks >= r->o.max_blocks) {
		snprintf(said, sizeof(said), "%u blocks in a row (--max-blocks); still %s",
			 st.blocks, what);
		return let_through(r, said);
	}
	st.blocks = (st.valid && r->p.stop_hook_active ? st.blocks : 0) + 1;
	st.size = size;
	snprintf(st.digest, sizeof(st.digest), "%s", digest);
	err = state_save(r, &st);
	if (err)
		cli_warn("hook: %s: %s (a repeat will not be told)", r->state_path,
			 strerror(-err));
	return block(r, ctx);
}

/* ---- findings ---- */

static int tap(void *ctx, const char *path, const struct halluscan_finding *f)
{
	struct run *r = ctx;
	struct kept *k;
	struct sha256 h;
	size_t n = MIN(f->text_len, (size_t)REASON_QUOTE_MAX);

	(void)path;
	if (r->o.fail_on == HALLUSCAN_FAIL_ON_NEVER ||
	    (r->o.fail_on == HALLUSCAN_FAIL_ON_BLOCK && f->severity < HALLUSCAN_BLOCK))
		return 0;
	if (grow(&r->k, &r->cap, r->n + 1, sizeof(*r->k)) < 0)
		return -ENOMEM;
	/* A quote cut in a UTF-8 sequence ends before it. */
	while (n < f->text_len && n > 0 && ((unsigned char)f->text[n] & 0xC0) == 0x80)
		n--;
	k = &r->k[r->n];
	*k = (struct kept){
		.signal = xstrndup(f->signal, strlen(f->signal)),
		.rule = xstrndup(f->rule, strlen(f->rule)),
		.text = xstrndup(f->text, n),
		.message = xstrndup(f->message, strlen(f->message)),
		.recovery = xstrndup(f->recovery, strlen(f->recovery)),
		.severity = f->severity, .line = f->line, .column = f->column,
		.input = r->input, .truncated = n < f->text_len || f->text_truncated,
	};
	r->n++;
	if (!k->signal || !k->rule || !k->text || !k->message || !k->recovery)
		return -ENOMEM;
	/* What a finding is, for "the same findings": its rule and text, not where. */
	sha256_init(&h);
	sha256_update(&h, f->rule, strlen(f->rule) + 1);
	sha256_update(&h, f->text, f->text_len);
	sha256_final(&h, k->digest);
	return 0;
}

static int cmp_digest(const void *a, const void *b)
{
	return memcmp(a, b, 32);
}

/* The findings' digest, in any order: a reply rewritten around them keeps it. */
static int findings_digest(const struct run *r, char hex[65])
{
	unsigned char (*d)[32] = calloc(r->n ? r->n : 1, 32);
	unsigned char out[32];
	struct sha256 h;
	size_t i;

	if (!d)
		return -ENOMEM;
	for (i = 0; i < r->n; i++)
		memcpy(d[i], r->k[i].digest, 32);
	qsort(d, r->n, 32, cmp_digest);
	sha256_init(&h);
	sha256_update(&h, "findings", 8);
	sha256_update(&h, d, r->n * 32);
	sha256_final(&h, out);
	sha256_hex(out, hex);
	free(d);
	return 0;
}

static void kept_free(struct run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->k[i].signal);
		free(r->k[i].rule);
		free(r->k[i].text);
		free(r->k[i].message);
		free(r->k[i].recovery);
	}
	free(r->k);
}

/* The block's reason: each finding with what to do instead. */
static int reason(const struct run *r, struct buf *b, const char *where, bool document)
{
	size_t i;
	int err = 0;

	err |= buf_addf(b, TAIL_REASON_MARK " %zu signal%s in %s. %s\n",
			r->n, r->n == 1 ? "" : "s", where,
			document ? "Edit the file so that none remains; for each, do what its "
				   "recovery says:"
				 : "Before you finish, rewrite your reply so that none remains; "
				   "for each, do what its recovery says (verify with a tool, or "
				   "remove or hedge the claim):");
	for (i = 0; i < r->n && i < REASON_LIST_MAX; i++) {
		const struct kept *k = &r->k[i];

		err |= buf_addf(b, "%zu. ", i + 1);
		if (document)
			err |= buf_addf(b, "line %llu, column %llu: ", (unsigned long long)k->line,
					(unsigned long long)k->column);
		err |= buf_addf(b, "%s (%s) \"%s%s\": %s\n   Recovery: %s\n", k->signal,
				halluscan_severity_name(k->severity), k->text,
				k->truncated ? "..." : "", k->message, k->recovery);
	}
	if (r->n > REASON_LIST_MAX)
		err |= buf_addf(b, "... and %zu more.\n", r->n - REASON_LIST_MAX);
	return err ? -ENOMEM : 0;
}

/* ---- scanning ---- */

struct scan {
	struct halluscan_rules *rules;
	struct halluscan_scanner *sc;
	struct report rep;
	struct jsonl out;
	FILE *null;
};

static int scan_open(struct run *r, struct scan *s, struct diag *d)
{
	struct halluscan_rules_options ro;
	struct halluscan_scanner_options so;
	struct halluscan_error herr = {0};
	char nonce[32], cache[PATH_MAX];
	int err;

	halluscan_rules_options_init(&ro);
	ro.paths = (const char *const *)r->o.rules;
	ro.n_paths = r->o.n_rules;
	ro.flags = (r->o.pcre2 ? HALLUSCAN_RULES_PCRE2 : 0) |
		   (r->o.n_rules && !r->o.no_builtin ? HALLUSCAN_RULES_BUILTIN : 0);
	ro.cache_dir = cli_cache_dir(cache, sizeof(cache));
	err = halluscan_rules_open(&ro, &s->rules, &herr);
	if (err < 0)
		return diag_set(d, err, "%s", herr.message);
	/* The reports are not wanted: the findings come through the tap. */
	s->null = fopen("/dev/null", "we");
	if (!s->null)
		return diag_set(d, -errno, "/dev/null: %s", strerror(errno));
	s->out = (struct jsonl){.f = s->null, .rules = s->rules, .path = "-"};
	s->rep = (struct report){
		.out = &s->out, .rules = s->rules, .format = OUT_JSONL, .fail_on = r->o.fail_on,
		.skip_code = true, .model_output = true, .tap = tap, .tap_ctx = r,
	};
	err = report_start(&s->rep, d);
	if (err < 0)
		return err;
	/* A nonce no one has seen: a tool-span tag the agent wrote opens nothing. */
	err = cli_fresh_nonce(nonce, sizeof(nonce));
	if (err < 0)
		return diag_set(d, err, "no random nonce: %s", strerror(-err));
	halluscan_scanner_options_init(&so);
	so.contexts = (const char *const *)r->o.contexts;
	so.n_contexts = r->o.n_contexts;
	so.fail_on = r->o.fail_on;
	so.span_nonce = nonce;
	err = halluscan_scanner_new(s->rules, &so, report_finding, &s->rep, &s->sc, &herr);
	if (err < 0)
		return diag_set(d, err, "%s", herr.message);
	return 0;
}

static void scan_close(struct scan *s)
{
	halluscan_scanner_free(s->sc);
	report_fini(&s->rep);
	jsonl_fini(&s->out);
	if (s->null)
		fclose(s->null);
	halluscan_rules_free(s->rules);
}

/* Scans one text as an input. Returns 0 or a negative errno. */
static int scan_text(struct run *r, struct scan *s, const char *name, const char *text,
		     size_t len)
{
	const struct halluscan_summary *sum;
	struct jsonl_input how = {0};
	bool fail = false;
	size_t at, n;
	int err = 0;

	report_input(&s->rep, name);
	for (at = 0; at < len && err == 0; at += n) {
		n = MIN(len - at, (size_t)128 << 10);
		err = report_text(&s->rep, text + at, n);
		err = err ? err : halluscan_scanner_feed(s->sc, text + at, n);
		if (!err && expired(r))
			err = -ETIMEDOUT;
	}
	err = err ? err : report_text_end(&s->rep);
	err = err ? err : halluscan_scanner_end(s->sc, &sum);
	err = err ? err : report_summary(&s->rep, sum, &how, &fail);
	r->input++;
	return err;
}

/* ---- Stop and SubagentStop ---- */

static int block_reply(struct run *r, void *ctx)
{
	struct buf b = {0};
	int status;

	(void)ctx;
	if (reason(r, &b, "your last reply", false) < 0) {
		cli_warn("out of memory");
		return EXIT_ERROR;
	}
	status = answer("reason", b.data, b.len, true);
	buf_free(&b);
	return status;
}

static int block_error(struct run *r, void *ctx)
{
	(void)r;
	cli_warn("hook: %s", (const char *)ctx);
	return EXIT_ERROR;
}

/* An error at a stop: exit 2 (the agent is told), under the same loop rules as findings. */
static int stop_error(struct run *r, const char *msg)
{
	char digest[65];
	struct buf what = {0};
	int status;

	digest_text(msg, strlen(msg), digest);
	if (buf_addf(&what, "error (%s)", msg) < 0)
		return EXIT_ERROR;
	status = stop_decision(r, digest, 0, block_error, (void *)msg, what.data);
	buf_free(&what);
	return status;
}

static int hook_stop(struct run *r)
{
	struct tail_options to = {.history = r->o.history, .max_bytes = r->o.history + STOP_READ_MAX,
				  .expired = expired, .ctx = r};
	struct tail t = {0};
	struct chat_error ce;
	struct scan s = {0};
	struct hook_state st;
	struct diag d = {""};
	char digest[65], msg[512];
	bool seen = false;
	size_t i;
	int fd, err, status = EXIT_ERROR;

	state_load(r, &st);
	/* After a block of ours, the reply is what came after it. */
	if (r->p.stop_hook_active && st.valid)
		to.since = st.size;
	/* A subagent in the session's own log: its lines are the sidechain. */
	to.lines = r->p.own_transcript			   ? TAIL_ALL
		   : r->p.event == HOOK_SUBAGENT_STOP ? TAIL_SIDECHAIN
						      : TAIL_MAIN;
	to.codex = r->harness == HOOK_CODEX;
	/* Codex without a rollout: its copy of the reply, with nothing to ground it. */
	if (!r->p.transcript_path)
		goto scan;
	fd = open(r->p.transcript_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(msg, sizeof(msg), "%s: %s (the transcript cannot be read, so the reply "
			 "is not checked)", r->p.transcript_path, strerror(errno));
		return stop_error(r, msg);
	}
	err = tail_read(fd, &to, &t, &ce);
	close(fd);
	if (to.since > t.size)
		to.since = 0; /* a log shorter than at the block is another one: nothing holds */
	if (err) {
		snprintf(msg, sizeof(msg), "%s: %s", r->p.transcript_path,
			 err == -EBADMSG    ? ce.why
			 : err == -EINVAL   ? "not a regular file"
			 : err == -EFBIG    ? "a line of the last reply is too long to read"
			 : err == -ETIMEDOUT ? "the time limit was reached reading it"
					     : strerror(-err));
		status = stop_error(r, msg);
		goto out;
	}
	/* A log of another format (or of no message yet) holds no reply to pass. */
	if (!err && t.size && !t.messages)
		err = -ENOMSG;
	/* Where the reply starts was not reached: what was not read is not checked. */
	if (!err && t.capped && !t.reply_bounded)
		err = -E2BIG;
	if (err) {
		snprintf(msg, sizeof(msg), "%s: %s", r->p.transcript_path,
			 err == -ENOMSG ? (to.codex ? "no line of it is a Codex response item "
						      "of the user or the assistant"
						    : "no line of it is a Claude Code user or "
						      "assistant message")
					: "the last reply starts further back than halluscan reads");
		status = stop_error(r, msg);
		goto out;
	}
	if (t.capped)
		cli_warn("hook: %s: only its last %llu bytes were read; what grounds the reply "
			 "before them was not", r->p.transcript_path,
			 (unsigned long long)(t.size - t.from));
scan:
	err = scan_open(r, &s, &d);
	if (err < 0) {
		snprintf(msg, sizeof(msg), "%s", d.msg[0] ? d.msg : strerror(-err));
		status = stop_error(r, msg);
		goto out;
	}
	for (i = 0; i < t.n && !err; i++) {
		const struct tail_text *x = &t.t[i];

		if (x->kind != CHAT_SCAN)
			err = halluscan_scanner_add_grounding(s.sc,
							      x->kind == CHAT_TOOL
								      ? HALLUSCAN_GROUND_TOOL
								      : HALLUSCAN_GROUND_PROMPT,
							      t.text.data + x->off, x->len);
	}
	for (i = 0; i < t.n && !err; i++) {
		const struct tail_text *x = &t.t[i];

		if (x->kind != CHAT_SCAN)
			continue;
		if (r->p.last_message && r->p.last_message_len &&
		    find_literal(t.text.data + x->off, x->len, r->p.last_message,
				 r->p.last_message_len))
			seen = true;
		err = scan_text(r, &s, "reply", t.text.data + x->off, x->len);
	}
	/* The harness's copy of the last message, when its log lags behind. */
	if (!err && r->p.last_message && r->p.last_message_len && !seen)
		err = scan_text(r, &s, "reply", r->p.last_message, r->p.last_message_len);
	if (err) {
		snprintf(msg, sizeof(msg), "%s", err == -ETIMEDOUT ? "the time limit was reached "
			 "scanning the reply" : strerror(-err));
		status = stop_error(r, msg);
		goto out;
	}
	/* Blocked, the agent stopped again without a word: what was blocked stands. */
	if (to.since && !t.n_reply && !(r->p.last_message && r->p.last_message_len)) {
		status = let_through(r, "a block, with no new reply");
		goto out;
	}
	if (r->n == 0) {
		state_clear(r);
		status = EXIT_PASS;
		goto out;
	}
	if (findings_digest(r, digest) < 0) {
		cli_warn("out of memory");
		goto out;
	}
	snprintf(msg, sizeof(msg), "%zu finding%s", r->n, r->n == 1 ? "" : "s");
	status = stop_decision(r, digest, t.size, block_reply, NULL, msg);
out:
	scan_close(&s);
	tail_free(&t);
	return status;
}

/* ---- PostToolUse ---- */

static bool is_document(const char *path)
{
	static const char *const suffixes[] = {".md", ".markdown", ".txt", ".rst"};
	size_t n = strlen(path), i, k;

	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		k = strlen(suffixes[i]);
		if (n > k && strcmp(path + n - k, suffixes[i]) == 0)
			return true;
	}
	return false;
}

static int hook_post_tool_use(struct run *r)
{
	struct scan s = {0};
	struct diag d = {""};
	struct stat st;
	struct buf b = {0}, where = {0};
	char path[PATH_MAX];
	char *data = NULL;
	size_t len = 0;
	int fd, err, status = EXIT_ERROR;

	if (!hook_writes_file(r->p.tool_name))
		return EXIT_PASS; /* no document was written */
	if (r->p.file_path[0] != '/' && r->p.cwd)
		err = snprintf(path, sizeof(path), "%s/%s", r->p.cwd, r->p.file_path);
	else
		err = snprintf(path, sizeof(path), "%s", r->p.file_path);
	if (err < 0 || (size_t)err >= sizeof(path)) {
		cli_warn("hook: %s: the path is too long", r->p.file_path);
		return EXIT_ERROR;
	}
	if (!r->o.all_files && !is_document(path))
		return EXIT_PASS;
	/* Not blocking on a FIFO: only a regular file is read. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		cli_warn("hook: %s: %s (the file written is not checked)", path,
			 fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return EXIT_ERROR;
	}
	err = read_fd_max(fd, DOCUMENT_MAX + 1, &data, &len);
	close(fd);
	if (err == 0 && len > DOCUMENT_MAX)
		err = -EFBIG;
	if (err < 0) {
		cli_warn("hook: %s: %s (the file written is not checked)", path, strerror(-err));
		goto out;
	}
	err = scan_open(r, &s, &d);
	if (!err)
		err = scan_text(r, &s, path, data, len);
	if (err) {
		cli_warn("hook: %s", d.msg[0] ? d.msg : strerror(-err));
		goto out;
	}
	if (r->n == 0) {
		status = EXIT_PASS;
		goto out;
	}
	if (buf_addf(&where, "%s, which you just wrote", r->p.file_path) < 0 ||
	    reason(r, &b, where.data, true) < 0) {
		cli_warn("out of memory");
		goto out;
	}
	status = answer("reason", b.data, b.len, true);
out:
	scan_close(&s);
	free(data);
	buf_free(&b);
	buf_free(&where);
	return status;
}

/* ---- the program ---- */

int hook_main(int argc, char **argv)
{
	struct run r = {0};
	char *payload = NULL;
	size_t len = 0;
	char why[256];
	int err, status = EXIT_ERROR;

	if (argc >= 2 && strcmp(argv[1], "codex") == 0)
		r.harness = HOOK_CODEX;
	else if (argc < 2 || strcmp(argv[1], "claude-code") != 0) {
		if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
			fputs(hook_usage, stdout);
			fputc('\n', stdout);
			fputs(hook_help, stdout);
			return EXIT_PASS;
		}
		cli_warn("hook takes the harness it speaks to: claude-code or codex%s%s%s",
			 argc >= 2 ? ", not \"" : "", argc >= 2 ? argv[1] : "", argc >= 2 ? "\"" : "");
		usage();
	}
	parse_options(argc - 1, argv + 1, &r.o);
	if (optind < argc - 1) {
		cli_warn("hook %s reads its payload on standard input: no FILE", argv[1]);
		usage();
	}
	signal(SIGPIPE, SIG_IGN);
	/* The bound holds whatever hangs; the checks between lines end it first, as an error. */
	signal(SIGALRM, on_alarm);
	alarm(r.o.time_limit + 1);
	clock_gettime(CLOCK_MONOTONIC, &r.deadline);
	r.deadline.tv_sec += r.o.time_limit;

	err = read_fd_max(STDIN_FILENO, HOOK_PAYLOAD_MAX + 1, &payload, &len);
	if (err == 0 && len > HOOK_PAYLOAD_MAX)
		err = -EFBIG;
	if (err < 0) {
		cli_warn("hook: the payload cannot be read: %s", strerror(-err));
		goto out;
	}
	err = hook_payload_parse(payload, len, r.harness, &r.p, why, sizeof(why));
	if (err == -ENOMEM) {
		cli_warn("out of memory");
		goto out;
	}
	if (err < 0) {
		cli_warn("hook: %s", why);
		goto out;
	}
	switch (r.p.event) {
	case HOOK_STOP:
	case HOOK_SUBAGENT_STOP:
		state_locate(&r);
		status = hook_stop(&r);
		break;
	case HOOK_POST_TOOL_USE:
		status = hook_post_tool_use(&r);
		break;
	case HOOK_OTHER:
	default:
		/* Blocking an event halluscan does not read (a prompt, a tool call)
		 * would stop the session for nothing it checked. */
		cli_warn("hook: %s is no event halluscan handles (Stop, SubagentStop, PostToolUse)",
			 r.p.event_name);
		status = EXIT_FAIL;
		break;
	}
out:
	hook_payload_free(&r.p);
	kept_free(&r);
	free(payload);
	free(r.o.contexts);
	free(r.o.rules);
	return status;
}
