// SPDX-License-Identifier: MIT
/* Runs every registered unit test, or those named on the command line. */
#include <stdlib.h>
#include <sys/stat.h>

#include "test.h"

static struct test tests[256];
static size_t n_tests, n_dropped;
static int failures, skipped, n_skipped;

void test_register(const char *name, void (*fn)(void))
{
	if (n_tests < sizeof(tests) / sizeof(tests[0]))
		tests[n_tests++] = (struct test){name, fn};
	else
		n_dropped++;
}

void test_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "  %s:%d: check failed: %s\n", file, line, what);
	failures++;
}

void test_skip(const char *why)
{
	printf("  skipped: %s\n", why);
	skipped = 1;
}

const char *test_srcdir(void)
{
	const char *d = getenv("TOP_SRCDIR");

	return d ? d : ".";
}

const char *test_shared(void)
{
	static char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/../shared/corpus", test_srcdir());
	return stat(path, &st) == 0 ? path : NULL;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, i;

	size_t k;

	/* A test that could not be registered would pass unseen. */
	if (n_dropped) {
		fprintf(stderr, "%zu tests past the table's %zu: make it larger\n", n_dropped,
			sizeof(tests) / sizeof(tests[0]));
		return 1;
	}
	for (k = 0; k < n_tests; k++) {
		int before = failures;

		if (argc > 1) {
			for (i = 1; i < argc && strcmp(argv[i], tests[k].name) != 0; i++)
				;
			if (i == argc)
				continue;
		}
		skipped = 0;
		printf("%s\n", tests[k].name);
		fflush(stdout);
		tests[k].fn();
		if (failures > before) {
			printf("  FAIL\n");
			failed++;
		} else if (skipped) {
			n_skipped++;
		} else {
			passed++;
		}
	}
	printf("%d passed, %d failed, %d skipped\n", passed, failed, n_skipped);
	return failed ? 1 : 0;
}
