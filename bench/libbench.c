// SPDX-License-Identifier: MIT
/*
 * The gate's cost: one reply through a warm scanner (halluscan_check, the
 * rules opened and the scanner made once, as in a service), beside a
 * process per reply (the program spawned on the same reply, as from a
 * shell) and /bin/true for scale. Median, p99, mean and best, in
 * microseconds; the ratio of the medians. --only runs one row of the
 * library's and nothing else, for a profiler (valgrind --tool=callgrind):
 * warm (no source), source (the source given once) or each (its own
 * source with each reply).
 *
 *	libbench REPLY HALLUSCAN [--source FILE] [--iterations N] [--spawns N]
 *		 [--only warm|source|each]
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "halluscan.h"

extern char **environ;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stats {
	double median, p99, mean, best;
};

static struct stats summarize(double *t, size_t n)
{
	struct stats s = {0};
	size_t i;

	qsort(t, n, sizeof(*t), cmp_double);
	for (i = 0; i < n; i++)
		s.mean += t[i] / (double)n;
	s.median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	s.p99 = t[(size_t)((double)(n - 1) * 0.99 + 0.5)];
	s.best = t[0];
	return s;
}

static void row(const char *what, size_t n, struct stats s)
{
	printf("%-34s %7zu %10.1f %10.1f %10.1f %10.1f\n", what, n, s.median, s.p99, s.mean, s.best);
}

static int count(void *ctx, const struct halluscan_finding *f)
{
	(void)f;
	++*(size_t *)ctx;
	return 0;
}

/* One reply; with each, its own source (reset, the source, then the reply). */
static int check_one(struct halluscan_scanner *sc, const char *reply, size_t len,
		     const char *source, size_t source_len, int each)
{
	int rc = 0;

	if (each) {
		rc = halluscan_scanner_reset(sc, 0);
		if (rc == 0)
			rc = halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_SOURCE, source,
							     source_len);
	}
	return rc < 0 ? rc : halluscan_check(sc, reply, len, NULL);
}

/*
 * A warm scanner: n checks of the reply, after a warm-up; NULL source: no
 * grounding. each: the source is given again with every reply, as a
 * service whose requests bring their own passages does; else once.
 */
static int checks(const struct halluscan_rules *rules, const char *reply, size_t len,
		  const char *source, size_t source_len, int each, size_t n, double *t,
		  size_t *found)
{
	struct halluscan_scanner *sc = NULL;
	size_t i, per = 0;
	int rc;

	rc = halluscan_scanner_new(rules, NULL, count, &per, &sc, NULL);
	if (rc == 0 && source && !each)
		rc = halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_SOURCE, source, source_len);
	for (i = 0; i < n / 10 + 10 && rc >= 0; i++)
		rc = check_one(sc, reply, len, source, source_len, each);
	for (i = 0; i < n && rc >= 0; i++) {
		double t0 = now_us();

		per = 0;
		rc = check_one(sc, reply, len, source, source_len, each);
		t[i] = now_us() - t0;
	}
	*found = per;
	halluscan_scanner_free(sc);
	return rc < 0 ? rc : 0;
}

/* n runs of argv with the reply on stdin and stdout to /dev/null. */
static int spawns(char *const argv[], const char *reply_path, size_t n, double *t)
{
	posix_spawn_file_actions_t fa;
	size_t i;
	int rc = 0;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, reply_path, O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	for (i = 0; i < n + 5 && rc == 0; i++) {
		double t0 = now_us();
		pid_t pid;
		int status;

		rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
		if (rc == 0 && waitpid(pid, &status, 0) < 0)
			rc = errno;
		/* The first runs warm the page cache; they are not counted. */
		if (i >= 5)
			t[i - 5] = now_us() - t0;
	}
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

int main(int argc, char **argv)
{
	const char *reply_path, *program, *source_path = NULL, *only = NULL;
	size_t iterations = 10000, n_spawns = 300, len, source_len = 0, found = 0, i;
	struct halluscan_rules *rules = NULL;
	struct halluscan_scanner *sc = NULL;
	char *reply, *source = NULL;
	struct stats lib, ground = {0}, proc, truth;
	double *t, t0, open_us, new_us;
	int rc;

	if (argc < 3) {
		fputs("usage: libbench REPLY HALLUSCAN [--source FILE] [--iterations N] [--spawns N]\n",
		      stderr);
		return 2;
	}
	reply_path = argv[1];
	program = argv[2];
	for (i = 3; i + 1 < (size_t)argc; i += 2) {
		if (strcmp(argv[i], "--source") == 0)
			source_path = argv[i + 1];
		else if (strcmp(argv[i], "--iterations") == 0)
			iterations = strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--spawns") == 0)
			n_spawns = strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--only") == 0)
			only = argv[i + 1];
	}
	if (only && (strcmp(only, "warm") != 0 || source_path) && (strcmp(only, "source") != 0 ||
	    !source_path) && (strcmp(only, "each") != 0 || !source_path)) {
		fputs("libbench: --only takes warm (without --source), source or each (with it)\n",
		      stderr);
		return 2;
	}
	reply = slurp(reply_path, &len);
	if (source_path)
		source = slurp(source_path, &source_len);
	t = calloc(iterations > n_spawns ? iterations : n_spawns, sizeof(*t));
	if (!reply || (source_path && !source) || !t || iterations == 0 || n_spawns == 0) {
		fprintf(stderr, "libbench: cannot read the reply or source, or no iterations\n");
		return 2;
	}

	t0 = now_us();
	rc = halluscan_rules_open(NULL, &rules, NULL);
	open_us = now_us() - t0;
	t0 = now_us();
	if (rc == 0)
		rc = halluscan_scanner_new(rules, NULL, NULL, NULL, &sc, NULL);
	new_us = now_us() - t0;
	halluscan_scanner_free(sc);
	if (rc == 0 && only) {
		rc = checks(rules, reply, len, source, source_len, strcmp(only, "each") == 0,
			    iterations, t, &found);
		if (rc == 0)
			row(only, iterations, summarize(t, iterations));
	} else if (rc == 0) {
		rc = checks(rules, reply, len, NULL, 0, 0, iterations, t, &found);
	}
	if (rc < 0) {
		fprintf(stderr, "libbench: %s\n", halluscan_strerror(rc));
		return 2;
	}
	if (only)
		goto out;
	printf("A %zu-byte reply, %zu finding(s); %s (%s)\n", len, found, halluscan_version(),
	       halluscan_engine_version());
	printf("open the built-in rules: %.1f us; make a scanner: %.1f us (once per thread)\n\n",
	       open_us, new_us);
	printf("%-34s %7s %10s %10s %10s %10s\n", "per reply, microseconds", "runs", "median", "p99",
	       "mean", "best");
	lib = summarize(t, iterations);
	row("library: warm scanner", iterations, lib);
	if (source) {
		rc = checks(rules, reply, len, source, source_len, 0, iterations, t, &found);
		if (rc < 0) {
			fprintf(stderr, "libbench: %s\n", halluscan_strerror(rc));
			return 2;
		}
		ground = summarize(t, iterations);
		row("library: warm, with a source", iterations, ground);
		rc = checks(rules, reply, len, source, source_len, 1, iterations, t, &found);
		if (rc < 0) {
			fprintf(stderr, "libbench: %s\n", halluscan_strerror(rc));
			return 2;
		}
		row("library: its own source per reply", iterations, summarize(t, iterations));
	}
	rc = spawns((char *[]){(char *)program, NULL}, reply_path, n_spawns, t);
	if (rc) {
		fprintf(stderr, "libbench: %s: %s\n", program, strerror(rc));
		return 2;
	}
	proc = summarize(t, n_spawns);
	row("process per reply (halluscan)", n_spawns, proc);
	rc = spawns((char *[]){"/bin/true", NULL}, reply_path, n_spawns, t);
	truth = summarize(t, rc ? 1 : n_spawns);
	if (!rc)
		row("process per reply (/bin/true)", n_spawns, truth);
	printf("\nprocess per reply / warm scanner, medians: %.0fx\n", proc.median / lib.median);
out:
	halluscan_rules_free(rules);
	free(reply);
	free(source);
	free(t);
	return 0;
}
