// SPDX-License-Identifier: MIT
/* numlex_bench: the number lexer's throughput over files, best of N runs in CPU time. */

/*
 * Usage: numlex_bench [--repeats N] FILE...
 *
 * For each file: bytes, items, bytes read per byte of text, and the best
 * of N runs in MB/s of process CPU time (a shared machine's wall clock says
 * more about its neighbours than about the code).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "numbers/numlex.h"

/* The items of text, a batch at a time as the library's callers read them; *examined from the counting copy. */
static size_t count(const char *text, size_t n, size_t *examined)
{
	static struct numlex_item items[NUMLEX_BATCH];
	struct numlex lx;
	size_t total = 0;
	int k;

	k = examined ? numlex_scan_counted(&lx, text, n, NUMLEX_LINE_START, items, NUMLEX_BATCH)
		     : numlex_scan(&lx, text, n, NUMLEX_LINE_START, items, NUMLEX_BATCH);
	for (;;) {
		if (k > 0)
			total += (size_t)k;
		if (k < NUMLEX_BATCH)
			break;
		k = examined ? numlex_resume_counted(&lx, items, NUMLEX_BATCH)
			     : numlex_resume(&lx, items, NUMLEX_BATCH);
	}
	if (examined)
		*examined = numlex_examined(&lx);
	return total;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)len + 1)) && fread(buf, 1, (size_t)len, f) == (size_t)len) {
		*n = (size_t)len;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	int repeats = 5, i = 1, r;

	if (argc > 2 && strcmp(argv[1], "--repeats") == 0) {
		repeats = atoi(argv[2]);
		i = 3;
	}
	if (i >= argc || repeats < 1) {
		fprintf(stderr, "usage: numlex_bench [--repeats N] FILE...\n");
		return 2;
	}
	printf("| input | bytes | items | reads/byte | MB/s (best of %d) |\n|---|---|---|---|---|\n",
	       repeats);
	for (; i < argc; i++) {
		size_t n, items = 0, examined = 0;
		double best = 1e300;
		char *text = slurp(argv[i], &n);

		if (!text) {
			fprintf(stderr, "numlex_bench: %s: %s\n", argv[i], strerror(errno ? errno : EIO));
			return 2;
		}
		/* The reads from the counting copy; the time from the program's, which counts nothing. */
		items = count(text, n, &examined);
		for (r = 0; r < repeats; r++) {
			double t0 = cpu_seconds(), t;

			items = count(text, n, NULL);
			t = cpu_seconds() - t0;
			if (t < best)
				best = t;
		}
		printf("| %s | %zu | %zu | %.2f | %.0f |\n", argv[i], n, items, (double)examined / (double)n,
		       (double)n / best / 1e6);
		free(text);
	}
	return 0;
}
