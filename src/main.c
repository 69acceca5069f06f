// SPDX-License-Identifier: MIT
/* halluscan: options, wiring and exit status; the only place that prints errors. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "db.h"
#include "decode.h"
#include "emit.h"
#include "eval.h"
#include "json.h"
#include "pairs.h"
#include "policy.h"
#include "rules.h"
#include "scan.h"
#include "sha256.h"
#include "spans.h"

enum exit_status {
	EXIT_PASS = 0,  /* nothing at or above --fail-on */
	EXIT_FAIL = 1,  /* a finding at or above --fail-on */
	EXIT_ERROR = 2, /* usage, I/O or rule error */
};

#define READ_SIZE (128 * 1024)

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
	OPT_CLAIMS,
	OPT_PAIRS,
	OPT_MAX_UNSUPPORTED,
	OPT_SPAN_NONCE,
	OPT_VERSION,
	OPT_HELP,
};

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
	{"claims", no_argument, NULL, OPT_CLAIMS},
	{"pairs", no_argument, NULL, OPT_PAIRS},
	{"max-unsupported-ratio", required_argument, NULL, OPT_MAX_UNSUPPORTED},
	{"span-nonce", required_argument, NULL, OPT_SPAN_NONCE},
	{"version", no_argument, NULL, OPT_VERSION},
	{"help", no_argument, NULL, OPT_HELP},
	{NULL, 0, NULL, 0},
};

static const char usage_text[] =
	"usage: halluscan [--context NAME]... [--fail-on warn|block|never]\n"
	"                 [--rules PATH]... [--line-buffered] [--engine hyperscan|pcre2]\n"
	"                 [--source FILE]... [--show-grounded] [--claims]\n"
	"                 [--max-unsupported-ratio R] [--span-nonce S] [--no-cache]\n"
	"                 [FILE]...\n"
	"       halluscan [--rules PATH]... [--fail-on LEVEL] --pairs [FILE]...\n"
	"       halluscan [--rules PATH]... --list-rules | --check-rules | --export-patterns\n"
	"       halluscan eval [--rules PATH]... [--compare-rules PATH]... [--signals LIST]\n"
	"                      [--misjudgments FILE] [--sweep] [--format text|json] [FILE]...\n"
	"       halluscan --version | --help\n";

static const char help_text[] =
	"Finds the signals of hallucinated content in text written by language models:\n"
	"fabricated URLs, unsourced statistics, fabricated citations and future certainty.\n"
	"Text inside tool-output spans is grounded and not reported. Writes one JSON\n"
	"object per finding and a summary per input (JSONL). With no FILE, or when FILE\n"
	"is -, reads standard input.\n"
	"\n"
	"  --context NAME      escalate the signals NAME cares about to block (repeatable,\n"
	"                      or comma-separated): medical, financial, legal, research,\n"
	"                      user-facing, casual, internal\n"
	"  --fail-on LEVEL     exit 1 when a finding is at or above LEVEL: warn, block\n"
	"                      (default) or never\n"
	"  --rules PATH        load rule packs from a YAML file or a directory of them\n"
	"                      instead of the built-in packs (repeatable)\n"
	"  --line-buffered     flush the output after every input line\n"
	"  --source FILE       take FILE as grounding, like tool output (repeatable);\n"
	"                      numbers in the text are then checked against it\n"
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
	"  --list-rules        print the loaded rules, one per line, and exit\n"
	"  --check-rules       compile the rules, run every example, and exit\n"
	"  --export-patterns   print each rule's id, signal, flags and regex, and exit\n"
	"  --engine NAME       hyperscan (default where built in) or pcre2\n"
	"  --no-cache          neither read nor write the compiled-rules cache\n"
	"  --version           print the version and exit\n"
	"  --help              print this help and exit\n"
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
	enum severity fail_on; /* SEV_NONE: never */
	bool line_buffered, list_rules, check_rules, export_patterns, no_cache, show_grounded;
	bool claims, pairs;
	double max_unsupported;
	const char *span_nonce;   /* NULL: spans as the packs write them */
	const char *nonce_from;   /* where span_nonce came from, for messages */
	enum engine_backend backend;
};

/* Where findings go. */
struct output {
	const char *path;
	const struct ruleset *rs;
	struct buf b;
	int err; /* errno of the first write error */
	bool line_buffered;
};

static void warnx_(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* A message on stderr, its file names, ids and quotes with control characters escaped. */
static void warnx_(const char *fmt, ...)
{
	struct buf line = {0};
	va_list ap;
	int err = BUF_LIT(&line, "halluscan: ");

	va_start(ap, fmt);
	err = err ? err : buf_vaddf_visible(&line, fmt, ap);
	va_end(ap);
	err = err ? err : buf_addc(&line, '\n');
	if (err)
		fputs("halluscan: out of memory\n", stderr);
	else
		fwrite(line.data, 1, line.len, stderr);
	buf_free(&line);
}

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

static void parse_options(int argc, char **argv, struct options *o)
{
	int c;

	o->fail_on = SEV_BLOCK;
	o->backend = ENGINE_AUTO;
	o->max_unsupported = 0.30;
	opterr = 0; /* errors are reported here, under the program's name */
	while ((c = getopt_long(argc, argv, ":", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_CONTEXT: {
			char *tok, *save = NULL;

			for (tok = strtok_r(optarg, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
				if (add_str(&o->contexts, &o->n_contexts, tok) < 0)
					exit(EXIT_ERROR);
			break;
		}
		case OPT_FAIL_ON:
			if (strcmp(optarg, "never") == 0)
				o->fail_on = SEV_NONE;
			else if (severity_parse(optarg, &o->fail_on) < 0) {
				warnx_("--fail-on takes warn, block or never, not \"%s\"", optarg);
				usage();
			}
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
				o->backend = ENGINE_PCRE2;
			} else if (strcmp(optarg, "hyperscan") == 0) {
				if (!HAVE_HYPERSCAN) {
					warnx_("this build has no Hyperscan; --engine pcre2 is the one engine");
					exit(EXIT_ERROR);
				}
				o->backend = ENGINE_AUTO;
			} else {
				warnx_("--engine takes hyperscan or pcre2, not \"%s\"", optarg);
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
				warnx_("--max-unsupported-ratio takes a number from 0 to 1, not \"%s\"", optarg);
				usage();
			}
			break;
		}
		case OPT_SPAN_NONCE:
			o->span_nonce = optarg;
			o->nonce_from = "--span-nonce";
			break;
		case OPT_VERSION:
			printf("halluscan %s (%s)\n", HALLUSCAN_VERSION, engine_version());
			exit(EXIT_PASS);
		case OPT_HELP:
			fputs(usage_text, stdout);
			fputc('\n', stdout);
			fputs(help_text, stdout);
			exit(EXIT_PASS);
		case ':':
			warnx_("option %s needs an argument", argv[optind - 1]);
			usage();
			break;
		default:
			warnx_("unknown option %s", argv[optind - 1]);
			usage();
		}
	}
	if ((o->list_rules || o->check_rules || o->export_patterns) && optind < argc) {
		warnx_("--list-rules, --check-rules and --export-patterns take no FILE");
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
		warnx_("%s takes %d to %d letters, digits, '.', '_' or '-'", o->nonce_from,
		       SPANS_NONCE_MIN, SPANS_NONCE_MAX);
		exit(EXIT_ERROR);
	}
}

/* ---- the compiled-rules cache ---- */

static bool cache_dir(char *out, size_t n)
{
	const char *d = getenv("HALLUSCAN_CACHE_DIR"), *x, *h;

	if (d && *d)
		return (size_t)snprintf(out, n, "%s", d) < n;
	x = getenv("XDG_CACHE_HOME");
	if (x && *x)
		return (size_t)snprintf(out, n, "%s/halluscan", x) < n;
	h = getenv("HOME");
	if (h && *h)
		return (size_t)snprintf(out, n, "%s/.cache/halluscan", h) < n;
	return false;
}

static bool cache_file(const char *key, char *out, size_t n)
{
	unsigned char dg[32];
	char hex[65], dir[PATH_MAX];
	struct sha256 h;

	if (!cache_dir(dir, sizeof(dir)))
		return false;
	sha256_init(&h);
	sha256_update(&h, key, strlen(key));
	sha256_final(&h, dg);
	sha256_hex(dg, hex);
	return (size_t)snprintf(out, n, "%s/%.32s.db", dir, hex) < n;
}

static struct db *cache_load(const struct ruleset *rs, const char *path)
{
	struct db *db = NULL;
	struct diag d;
	char *data;
	size_t len;

	if (read_file(path, &data, &len) < 0)
		return NULL;
	/* A stale or damaged cache entry is simply recompiled. */
	if (db_load(rs, (unsigned char *)data, len, &db, &d) < 0)
		db = NULL;
	free(data);
	return db;
}

/* Best effort: a cache that cannot be written costs only start-up time. */
static void cache_store(const struct db *db, const char *path)
{
	unsigned char *data;
	char tmp[PATH_MAX + 128], dir[PATH_MAX + 64];
	size_t len;
	char *slash;
	FILE *f;

	if (db_serialize(db, false, &data, &len) < 0)
		return;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		/* mkdir -p for the last two levels (~/.cache/halluscan). */
		char *up = strrchr(dir, '/');

		if (up) {
			*up = '\0';
			mkdir(dir, 0700);
			*up = '/';
		}
		mkdir(dir, 0700);
	}
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (f) {
		bool ok = fwrite(data, 1, len, f) == len;

		ok = fclose(f) == 0 && ok;
		if (!ok || rename(tmp, path) < 0)
			unlink(tmp);
	}
	free(data);
}

/* ---- loading ---- */

static int load_rules(const struct options *o, struct ruleset **out, struct diag *d)
{
	struct ruleset *rs = ruleset_new();
	size_t i;
	int err = 0;

	if (!rs)
		return -ENOMEM;
	if (o->n_rules == 0)
		err = ruleset_add_builtin(rs, d);
	for (i = 0; i < o->n_rules && err == 0; i++)
		err = ruleset_add_path(rs, o->rules[i], d);
	if (err == 0)
		err = ruleset_finish(rs, d);
	if (err < 0) {
		ruleset_free(rs);
		return err;
	}
	*out = rs;
	return 0;
}

/*
 * The built-in packs load the database serialized at build time; other
 * packs a cached one. Whatever is compiled here has its examples checked
 * first, so a broken pack never reaches the cache.
 */
static int open_db(const struct options *o, const struct ruleset *rs, struct db **out,
		   struct diag *d)
{
	bool builtin = o->n_rules == 0, fresh = o->check_rules;
	char path[PATH_MAX + 64];
	bool use_cache = false;
	struct db *db = NULL;
	int err;

	if (o->backend == ENGINE_AUTO && HAVE_HYPERSCAN && !fresh) {
		if (builtin && builtin_db_len > 0) {
			struct diag ignored;

			if (db_load(rs, builtin_db, builtin_db_len, &db, &ignored) == 0) {
				*out = db;
				return 0;
			}
		}
		if (!builtin && !o->no_cache) {
			char key[sizeof(db->key)];

			db_make_key(rs, key, sizeof(key));
			use_cache = cache_file(key, path, sizeof(path));
			if (use_cache && (db = cache_load(rs, path))) {
				*out = db;
				return 0;
			}
		}
	}
	err = db_compile(rs, o->backend, &db, d);
	if (err < 0)
		return err;
	if (!builtin || fresh) {
		err = scan_check_examples(db, d);
		if (err < 0) {
			db_free(db);
			return err;
		}
	}
	{
		struct engine_info info;

		engine_get_info(db->engine, &info);
		/* Slower, not wrong: say so, and do not cache what a compiler would do better. */
		if (info.degraded) {
			warnx_("%s; the rules run on PCRE2", info.degraded);
			use_cache = false;
		}
	}
	if (use_cache)
		cache_store(db, path);
	*out = db;
	return 0;
}

/* ---- output ---- */

static int flush_output(struct output *out)
{
	if (out->err)
		return -out->err;
	if (out->b.len > 0 && fwrite(out->b.data, 1, out->b.len, stdout) != out->b.len)
		out->err = errno ? errno : EIO;
	out->b.len = 0;
	return out->err ? -out->err : 0;
}

static int on_finding(void *ctx, const struct finding *f)
{
	struct output *out = ctx;

	if (emit_finding(&out->b, out->path, f) < 0)
		return -ENOMEM;
	return flush_output(out);
}

static int on_claim(void *ctx, const struct claim *cl)
{
	struct output *out = ctx;

	if (emit_claim(&out->b, out->path, cl, out->rs) < 0)
		return -ENOMEM;
	return flush_output(out);
}

static int sync_output(struct output *out)
{
	if (fflush(stdout) != 0 && !out->err)
		out->err = errno ? errno : EIO;
	return out->err ? -out->err : 0;
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
		warnx_("%s: a PCRE2 match limit was reached %llu time(s); matches may be missing",
		       lh->name, (unsigned long long)lh->hits);
	else if (lh->inputs > 1)
		warnx_("a PCRE2 match limit was reached %llu time(s) in %zu inputs; matches may be "
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
		warnx_("-: looks like %s without a byte-order mark; convert it first: "
		       "iconv -f %s -t UTF-8 | halluscan", enc, enc);
	else
		warnx_("%s: looks like %s without a byte-order mark; convert it first: "
		       "iconv -f %s -t UTF-8 %s | halluscan", name, enc, enc, name);
}

/*
 * Scans one input, decoded by dec. Returns 0, or a negative errno for an
 * error that ends the run (a write error); *read_err is set for one that
 * ends only this input (EILSEQ: input in UTF-16 or UTF-32 without a mark,
 * said here, and not scanned). The findings found before any error are
 * written.
 */
static int scan_input(struct scan *sc, const struct options *o, const struct ruleset *rs,
		      const char *name, struct output *out, bool *failed, int *read_err,
		      struct limit_hits *lh, struct decoder *dec)
{
	struct claims_verdict cv;
	static char buf[READ_SIZE];
	struct scan_summary sum;
	const char *label = strcmp(name, "-") == 0 ? "-" : name, *text;
	size_t len;
	int fd, err = 0;

	*read_err = 0;
	out->path = label;
	if (strcmp(name, "-") == 0) {
		fd = STDIN_FILENO;
	} else {
		fd = open(name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			*read_err = errno;
			return 0;
		}
	}
	decode_init(dec);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			*read_err = errno;
			break;
		}
		if (n == 0)
			break;
		err = decode_feed(dec, buf, (size_t)n, &text, &len);
		if (err == 0 && len > 0)
			err = scan_feed(sc, text, len);
		if (err)
			break;
		if (out->line_buffered && len > 0 && memchr(text, '\n', len)) {
			err = sync_output(out);
			if (err)
				break;
		}
	}
	if (err == 0) {
		err = decode_end(dec, &text, &len);
		if (err == 0 && len > 0)
			err = scan_feed(sc, text, len);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (err == -EILSEQ) {
		/* Nothing was scanned: the decoder holds the first bytes until it knows. */
		say_encoding(label, dec->guess);
		*read_err = EILSEQ;
		return 0;
	}
	if (err)
		return err; /* a write error or no memory: the run ends */
	err = scan_end(sc, &sum);
	if (err)
		return err;
	sum.encoding = decode_name(dec->enc);
	sum.replaced = dec->replaced;
	if (sum.limit_hits) {
		lh->hits += sum.limit_hits;
		lh->inputs++;
		lh->name = label;
	}
	if (o->claims)
		policy_claims(sum.claims, o->max_unsupported, &cv);
	if (emit_summary(&out->b, label, &sum, rs, o->claims ? &cv : NULL,
			 *read_err ? strerror(*read_err) : NULL) < 0)
		return -ENOMEM;
	err = flush_output(out);
	if (!err)
		err = sync_output(out);
	if (o->fail_on != SEV_NONE &&
	    (sum.verdict >= o->fail_on || (o->claims && !cv.sufficient)))
		*failed = true;
	return err;
}

/*
 * Adds one --source file as grounding, read in pieces: a source of any size
 * costs the scan's window, not its size. *read_err is set when the file
 * cannot be read; a negative errno is any other error.
 */
static int add_source(struct scan *sc, const char *path, int *read_err)
{
	static char buf[READ_SIZE];
	int fd, err, end;

	*read_err = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*read_err = errno;
		return 0;
	}
	err = scan_source_begin(sc);
	while (err == 0) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			*read_err = errno;
		if (n <= 0)
			break;
		err = scan_source_feed(sc, buf, (size_t)n);
	}
	end = scan_source_end(sc);
	close(fd);
	return err ? err : end;
}

/* ---- --pairs ---- */

static void hex_digest(const char *s, size_t n, char out[65])
{
	unsigned char d[32];
	struct sha256 h;

	sha256_init(&h);
	sha256_update(&h, s, n);
	sha256_final(&h, d);
	sha256_hex(d, out);
}

/* One verdict record; id is the id's JSON (see pair_id). */
static int emit_pair(struct buf *b, const char *path, size_t line, const char *id, size_t id_len,
		     const char *claim, size_t cn, const char *passage, size_t pn,
		     const struct pair_verdict *v, const struct ruleset *rs)
{
	char hc[65], hp[65];
	int err = 0;

	hex_digest(claim, cn, hc);
	hex_digest(passage, pn, hp);
	err |= BUF_LIT(b, "{\"type\":\"pair\",\"path\":");
	err |= emit_json_string(b, path, strlen(path));
	err |= buf_addf(b, ",\"line\":%zu,\"id\":", line);
	err |= buf_add(b, id, id_len);
	err |= buf_addf(b, ",\"verdict\":\"%s\",\"reason\":", pair_label_name(v->label));
	err |= emit_json_string(b, v->reason, strlen(v->reason));
	err |= buf_addf(b, ",\"quote\":{\"start\":%zu,\"end\":%zu,\"text\":", v->quote_start, v->quote_end);
	err |= emit_json_string(b, passage + v->quote_start, v->quote_end - v->quote_start);
	err |= buf_addf(b, "},\"items\":%zu,\"grounded\":%zu,\"altered\":%zu,\"coverage\":%.3f,"
			"\"claim_sha256\":\"%s\",\"passage_sha256\":\"%s\",\"ruleset\":\"%.16s\","
			"\"version\":\"%s\"}\n",
			v->items, v->grounded, v->altered, v->coverage, hc, hp, rs->digest, HALLUSCAN_VERSION);
	return err ? -ENOMEM : 0;
}

/* A line that is not a pair: an error record naming it; the run goes on. */
static int emit_bad_pair(struct buf *b, const char *path, size_t line, const char *why)
{
	int err = 0;

	err |= BUF_LIT(b, "{\"type\":\"error\",\"path\":");
	err |= emit_json_string(b, path, strlen(path));
	err |= buf_addf(b, ",\"line\":%zu,\"message\":", line);
	err |= emit_json_string(b, why, strlen(why));
	err |= BUF_LIT(b, "}\n");
	return err ? -ENOMEM : 0;
}

/*
 * The JSON written for a record's id into out: a string re-encoded (our
 * writer's output is valid UTF-8 with every control escaped, whatever the
 * input held), a number, true, false or null as the input wrote it (their
 * grammar is ASCII), an absent id as null. Returns 0, 1 when the id is an
 * array or object, or -ENOMEM.
 */
static int pair_id(const struct json_value *id, const char *line, struct buf *out)
{
	size_t is, ie, n;
	const char *str;

	out->len = 0;
	switch (json_type(id)) {
	case JSON_NONE:
		return BUF_LIT(out, "null");
	case JSON_STRING:
		str = json_string(id, &n);
		return emit_json_string(out, str, n);
	case JSON_ARRAY:
	case JSON_OBJECT:
		return 1;
	default:
		json_span(id, &is, &ie);
		return buf_add(out, line + is, ie - is);
	}
}

/*
 * Judges every pair of one input. *bad counts malformed lines, *fails
 * pairs that the passage does not support. With --line-buffered each
 * record is written as soon as its line is judged.
 */
static int pairs_input(struct pairs *pj, const struct ruleset *rs, const char *name,
		       struct output *out, size_t *bad, size_t *fails, int *read_err)
{
	size_t counts[3] = {0}, line_no = 0, malformed = 0, n;
	struct buf idj = {0};
	struct lines *lines = NULL;
	const char *label = name, *line;
	bool too_long;
	int fd, rc = 0, err = 0;

	*read_err = 0;
	fd = strcmp(name, "-") == 0 ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*read_err = errno;
		return 0;
	}
	err = lines_new(fd, RECORD_MAX, &lines);
	while (err == 0 && (rc = lines_next(lines, &line, &n, &too_long)) > 0) {
		const struct json_value *claim, *passage;
		struct json_value *rec = NULL;
		struct json_error jerr;
		struct pair_verdict v;
		const char *c, *p, *why = NULL;
		size_t cn = 0, pn = 0;
		char msg[160];

		line_no++;
		if (too_long) {
			snprintf(msg, sizeof(msg), "the line is %zu bytes, longer than the %zu MiB "
				 "a record may be", n, RECORD_MAX >> 20);
			why = msg;
		} else if (strspn(line, " \t\r") == n) {
			continue; /* a blank line is no record */
		} else if (json_parse(line, n, &rec, &jerr) < 0) {
			snprintf(msg, sizeof(msg), "not JSON: %s at byte %zu", jerr.msg, jerr.offset);
			why = msg;
		} else {
			int id = pair_id(json_get(rec, "id"), line, &idj);

			claim = json_get(rec, "claim");
			passage = json_get(rec, "passage");
			c = json_string(claim, &cn);
			p = json_string(passage, &pn);
			if (id < 0)
				err = id;
			else if (!c || !p)
				why = "a pair needs \"claim\" and \"passage\" strings";
			else if (id > 0)
				why = "\"id\" must be a string, a number, true, false or null";
		}
		if (err == 0 && why) {
			malformed++;
			err = emit_bad_pair(&out->b, label, line_no, why);
		} else if (err == 0) {
			err = pairs_judge(pj, c, cn, p, pn, &v);
			if (!err) {
				counts[v.label]++;
				err = emit_pair(&out->b, label, line_no, idj.data, idj.len, c, cn, p,
						pn, &v, rs);
			}
		}
		json_free(rec);
		if (!err)
			err = flush_output(out);
		if (!err && out->line_buffered)
			err = sync_output(out);
	}
	if (err == 0 && rc < 0)
		*read_err = -rc;
	lines_free(lines);
	buf_free(&idj);
	if (fd != STDIN_FILENO)
		close(fd);
	if (err)
		return err;
	err = BUF_LIT(&out->b, "{\"type\":\"summary\",\"path\":") |
	      emit_json_string(&out->b, label, strlen(label)) |
	      buf_addf(&out->b, ",\"pairs\":%zu,\"supports\":%zu,\"partially_supports\":%zu,"
		       "\"does_not_support\":%zu,\"malformed\":%zu,\"ruleset\":\"%.16s\",\"version\":\"%s\"}\n",
		       counts[0] + counts[1] + counts[2], counts[PAIR_SUPPORTS],
		       counts[PAIR_PARTIALLY_SUPPORTS], counts[PAIR_DOES_NOT_SUPPORT], malformed,
		       rs->digest, HALLUSCAN_VERSION);
	if (err)
		return -ENOMEM;
	*bad += malformed;
	*fails += counts[PAIR_DOES_NOT_SUPPORT];
	err = flush_output(out);
	return err ? err : sync_output(out);
}

static int list_rules(const struct db *db)
{
	const struct ruleset *rs = db->rs;
	size_t i;

	struct buf b = {0};
	int err = 0;

	/* A human reads this: a pack's file name is shown with its controls escaped. */
	for (i = 0; i < rs->n_rules && err == 0; i++) {
		const struct rule *r = &rs->rules[i];

		b.len = 0;
		err |= buf_add_visible(&b, r->id, strlen(r->id));
		err |= buf_addc(&b, '\t');
		err |= buf_add_visible(&b, r->signal, strlen(r->signal));
		err |= buf_addf(&b, "\t%s\t%s\t", severity_name(r->severity),
				engine_is_pcre2(db->engine, db->first_rule_id + i) ? "pcre2" : "hyperscan");
		err |= buf_add_visible(&b, r->at.file, strlen(r->at.file));
		err |= buf_addf(&b, ":%u\n", r->at.line);
		if (!err)
			fwrite(b.data, 1, b.len, stdout);
	}
	buf_free(&b);
	return err ? -ENOMEM : 0;
}

/* For other tools (grep -P, ripgrep, Python re): id, signal, flags ("i" or
 * "-"), then the regex, tab-separated. */
static int export_patterns(const struct ruleset *rs)
{
	size_t i;

	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		printf("%s\t%s\t%s\t%s\n", r->id, r->signal, r->caseless ? "i" : "-", r->pattern);
	}
	return 0;
}

static int check_rules(const struct db *db)
{
	const struct ruleset *rs = db->rs;
	size_t i, ex = 0, neg = 0;

	for (i = 0; i < rs->n_rules; i++) {
		ex += rs->rules[i].n_examples;
		neg += rs->rules[i].n_negatives;
	}
	printf("%zu rules, %zu spans, %zu contexts: %zu examples and %zu negative examples pass\n",
	       rs->n_rules, rs->n_spans, rs->n_contexts, ex, neg);
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = {0};
	struct output out = {0};
	struct ruleset *rs = NULL;
	struct policy *pol = NULL;
	struct scan *sc = NULL;
	struct db *db = NULL;
	bool failed = false;
	int status = EXIT_ERROR, err, i;
	bool io_error = false;
	struct diag d = {""};
	struct limit_hits lh = {0};
	struct decoder dec = {0};
	size_t k;

	if (argc > 1 && strcmp(argv[1], "eval") == 0)
		return eval_main(argc - 1, argv + 1);
	/* A closed pipe is a write error with a message, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	parse_options(argc, argv, &o);
	out.line_buffered = o.line_buffered;

	err = load_rules(&o, &rs, &d);
	if (err < 0)
		goto fail;
	if (o.export_patterns) {
		export_patterns(rs);
		status = fflush(stdout) == 0 ? EXIT_PASS : EXIT_ERROR;
		if (status != EXIT_PASS)
			warnx_("write error: %s", strerror(errno));
		goto out;
	}
	err = open_db(&o, rs, &db, &d);
	if (err < 0)
		goto fail;
	if (o.list_rules || o.check_rules) {
		status = (o.list_rules ? list_rules(db) : check_rules(db)) == 0 &&
				 fflush(stdout) == 0 ? EXIT_PASS : EXIT_ERROR;
		if (status != EXIT_PASS)
			warnx_("write error: %s", strerror(errno));
		goto out;
	}
	pol = policy_new(rs);
	if (!pol) {
		err = -ENOMEM;
		goto fail;
	}
	for (k = 0; k < o.n_contexts; k++) {
		if (policy_add_context(pol, o.contexts[k]) < 0) {
			struct buf names = {0};

			for (size_t j = 0; j < rs->n_contexts; j++)
				buf_addf(&names, "%s%s", j ? ", " : "", rs->contexts[j].name);
			warnx_("unknown context \"%s\" (the packs define: %s)", o.contexts[k],
			       names.data ? names.data : "none");
			buf_free(&names);
			goto out;
		}
	}
	out.rs = rs;
	if (o.pairs) {
		struct pairs *pj = NULL;
		size_t bad = 0, fails = 0;

		err = pairs_new(db, pol, &pj);
		if (err < 0)
			goto fail;
		for (i = optind; i < argc || (i == optind && optind == argc); i++) {
			const char *name = i < argc ? argv[i] : "-";
			int read_err;

			out.path = name;
			err = pairs_input(pj, rs, name, &out, &bad, &fails, &read_err);
			if (read_err) {
				warnx_("%s: %s", name, strerror(read_err));
				io_error = true;
			}
			if (err)
				break;
		}
		pairs_free(pj);
		if (err) {
			warnx_(out.err ? "write error: %s" : "%s", strerror(out.err ? out.err : -err));
			goto out;
		}
		if (bad)
			warnx_("%zu malformed line(s); see the error records", bad);
		status = io_error || bad ? EXIT_ERROR
			 : o.fail_on != SEV_NONE && fails ? EXIT_FAIL : EXIT_PASS;
		goto out;
	}
	err = scan_new(db, pol, on_finding, &out, &sc);
	if (err == 0 && o.span_nonce)
		err = scan_span_nonce(sc, o.span_nonce);
	if (err == 0 && o.show_grounded)
		err = scan_show_grounded(sc, true);
	if (err == 0 && o.claims)
		scan_claims(sc, on_claim, &out);
	if (err < 0)
		goto fail;
	for (k = 0; k < o.n_sources; k++) {
		int read_err;

		err = add_source(sc, o.sources[k], &read_err);
		if (read_err) {
			warnx_("%s: %s", o.sources[k], strerror(read_err));
			goto out;
		}
		if (err < 0)
			goto fail;
	}

	for (i = optind; i < argc || (i == optind && optind == argc); i++) {
		const char *name = i < argc ? argv[i] : "-";
		int read_err;

		err = scan_input(sc, &o, rs, name, &out, &failed, &read_err, &lh, &dec);
		if (read_err) {
			if (read_err != EILSEQ) /* else scan_input named the encoding */
				warnx_("%s: %s", name, strerror(read_err));
			io_error = true;
		}
		if (err) {
			if (out.err)
				warnx_("write error: %s", strerror(out.err));
			else
				warnx_("%s: %s", name, strerror(-err));
			goto out;
		}
	}
	say_limit_hits(&lh);
	if (io_error)
		status = EXIT_ERROR;
	else if (failed)
		status = EXIT_FAIL;
	else
		status = EXIT_PASS;
	goto out;
fail:
	if (err == -ENOMEM)
		warnx_("out of memory");
	else
		warnx_("%s", d.msg[0] ? d.msg : strerror(-err));
out:
	decode_free(&dec);
	scan_free(sc);
	policy_free(pol);
	db_free(db);
	ruleset_free(rs);
	buf_free(&out.b);
	free(o.contexts);
	free(o.rules);
	free(o.sources);
	return status;
}
