// SPDX-License-Identifier: MIT
/* hsrule: scan a file with one Hyperscan pattern (streaming, start of match) and count its callbacks. */

/*
 * Usage: hsrule [-i] [--native] [--no-som] [--chunk BYTES] REGEX FILE
 *        hsrule [--native] [--no-som] [--chunk BYTES] --all PATTERNS.tsv FILE
 *
 * Compiles REGEX alone (--all: every rule of a `halluscan --export-patterns`
 * file, in one database with hs_compile_multi, with their own "i" flags),
 * the way halluscan compiles its rules:
 * HS_FLAG_SOM_LEFTMOST (plus HS_FLAG_CASELESS with -i), in
 * HS_MODE_STREAM | HS_MODE_SOM_HORIZON_LARGE, for the generic target of the
 * architecture (--native: for this CPU's features instead; --no-som: without
 * start of match, to show what it costs). FILE is mapped
 * and read once before the clock starts; then one stream scans it in writes
 * of --chunk bytes (default 65536), and the callback only counts.
 *
 * Hyperscan reports a match at every possible end offset, so the number of
 * callbacks divided by the number of real (leftmost-longest,
 * non-overlapping) matches tells what an open-ended tail costs.
 *
 * Prints one line:
 *   callbacks N bytes N seconds S mbps X
 * (MB = 10^6 bytes). Exit status 0, or 2 on a usage, file or compile error.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hs.h>

static int on_match(unsigned id, unsigned long long from, unsigned long long to,
		    unsigned flags, void *ctx)
{
	(void)id;
	(void)from;
	(void)to;
	(void)flags;
	++*(unsigned long long *)ctx;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(void)
{
	fprintf(stderr, "usage: hsrule [-i] [--native] [--no-som] [--chunk BYTES] REGEX FILE\n"
			"       hsrule [--native] [--no-som] [--chunk BYTES] --all PATTERNS.tsv FILE\n");
	exit(2);
}

/*
 * Reads an --export-patterns file (id, signal, flags, regex; tab-separated)
 * into exprs/flags. Returns the number of patterns, or 0 on error.
 */
static unsigned load_patterns(const char *path, unsigned base, char ***exprs, unsigned **flags)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned n = 0;
	ssize_t len;

	if (!f) {
		fprintf(stderr, "hsrule: %s: %s\n", path, strerror(errno));
		return 0;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		char *field[4], *p = line;
		int k;

		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		for (k = 0; k < 3 && p; k++) {
			field[k] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (k < 3 || !p) {
			fprintf(stderr, "hsrule: %s: line %u is not id<TAB>signal<TAB>flags<TAB>regex\n",
				path, n + 1);
			exit(2);
		}
		field[3] = p;
		*exprs = realloc(*exprs, (n + 1) * sizeof(**exprs));
		*flags = realloc(*flags, (n + 1) * sizeof(**flags));
		if (!*exprs || !*flags || !((*exprs)[n] = strdup(field[3]))) {
			fprintf(stderr, "hsrule: out of memory\n");
			exit(2);
		}
		(*flags)[n] = base | (strcmp(field[2], "i") == 0 ? HS_FLAG_CASELESS : 0);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	hs_platform_info_t plat = {.tune = HS_TUNE_FAMILY_GENERIC, .cpu_features = 0};
	unsigned flags = HS_FLAG_SOM_LEFTMOST, mode = HS_MODE_STREAM | HS_MODE_SOM_HORIZON_LARGE;
	size_t chunk = 65536, size, off;
	unsigned long long callbacks = 0;
	const char *path, *all = NULL;
	hs_error_t rc;
	hs_compile_error_t *cerr = NULL;
	hs_database_t *db = NULL;
	hs_scratch_t *scratch = NULL;
	hs_stream_t *stream = NULL;
	const char *data;
	struct stat st;
	double t0, t1;
	int i, fd;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "-i") == 0) {
			flags |= HS_FLAG_CASELESS;
		} else if (strcmp(argv[i], "--native") == 0) {
			if (hs_populate_platform(&plat) != HS_SUCCESS) {
				fprintf(stderr, "hsrule: hs_populate_platform failed\n");
				return 2;
			}
		} else if (strcmp(argv[i], "--no-som") == 0) {
			flags &= ~(unsigned)HS_FLAG_SOM_LEFTMOST;
			mode = HS_MODE_STREAM;
		} else if (strcmp(argv[i], "--all") == 0 && i + 1 < argc) {
			all = argv[++i];
		} else if (strcmp(argv[i], "--chunk") == 0 && i + 1 < argc) {
			char *end;

			chunk = strtoul(argv[++i], &end, 10);
			if (*end || chunk == 0 || chunk > (1u << 30))
				usage();
		} else {
			usage();
		}
	}
	if (argc - i != (all ? 1 : 2))
		usage();
	if (all) {
		char **exprs = NULL;
		unsigned *pflags = NULL, *ids, n, k;

		n = load_patterns(all, flags & HS_FLAG_SOM_LEFTMOST, &exprs, &pflags);
		ids = n ? calloc(n, sizeof(*ids)) : NULL;
		if (!ids)
			return 2;
		for (k = 0; k < n; k++)
			ids[k] = k;
		rc = hs_compile_multi((const char *const *)exprs, pflags, ids, n, mode, &plat, &db,
				      &cerr);
		for (k = 0; k < n; k++)
			free(exprs[k]);
		free(exprs);
		free(pflags);
		free(ids);
	} else {
		rc = hs_compile(argv[i++], flags, mode, &plat, &db, &cerr);
	}
	if (rc != HS_SUCCESS) {
		fprintf(stderr, "hsrule: cannot compile: %s (pattern %d)\n",
			cerr ? cerr->message : "?", cerr ? cerr->expression : -1);
		hs_free_compile_error(cerr);
		return 2;
	}
	path = argv[i];
	if (hs_alloc_scratch(db, &scratch) != HS_SUCCESS) {
		fprintf(stderr, "hsrule: hs_alloc_scratch failed\n");
		return 2;
	}

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "hsrule: %s: %s\n", path, strerror(errno));
		return 2;
	}
	size = (size_t)st.st_size;
	data = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0) : "";
	if (data == MAP_FAILED) {
		fprintf(stderr, "hsrule: mmap %s: %s\n", path, strerror(errno));
		return 2;
	}
	close(fd);

	t0 = now();
	if (hs_open_stream(db, 0, &stream) != HS_SUCCESS) {
		fprintf(stderr, "hsrule: hs_open_stream failed\n");
		return 2;
	}
	for (off = 0; off < size; off += chunk) {
		size_t n = size - off < chunk ? size - off : chunk;

		if (hs_scan_stream(stream, data + off, (unsigned)n, 0, scratch, on_match,
				   &callbacks) != HS_SUCCESS) {
			fprintf(stderr, "hsrule: hs_scan_stream failed\n");
			return 2;
		}
	}
	/* Matches that end at the end of the input are reported on close. */
	if (hs_close_stream(stream, scratch, on_match, &callbacks) != HS_SUCCESS) {
		fprintf(stderr, "hsrule: hs_close_stream failed\n");
		return 2;
	}
	t1 = now();

	printf("callbacks %llu bytes %zu seconds %.6f mbps %.1f\n", callbacks, size, t1 - t0,
	       t1 > t0 ? (double)size / 1e6 / (t1 - t0) : 0.0);
	if (size)
		munmap((void *)data, size);
	hs_free_scratch(scratch);
	hs_free_database(db);
	return 0;
}
