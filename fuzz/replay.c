// SPDX-License-Identifier: MIT
/*
 * Runs a fuzz target over saved inputs without libFuzzer, so that every
 * build's test suite replays the corpora and reproducers:
 *   replay PATH...
 * A PATH is a file or a folder of them (hidden files skipped, in name
 * order); a missing folder is noted and skipped (fuzz/repro/<target> may
 * not exist yet). A failed property aborts, which fails the test; no input
 * at all is an error too, so that a wrong path cannot pass unnoticed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/util.h"
#include "fuzz.h"

/* Defined by the targets that need set-up before the first input. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path)
{
	char *data;
	size_t len;
	uint8_t *copy;
	int err;

	err = read_file(path, &data, &len);
	if (err < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(-err));
		return err;
	}
	/* A buffer of exactly the input's size, as libFuzzer gives: reading
	 * one byte past it is caught by AddressSanitizer. */
	copy = malloc(len ? len : 1);
	if (!copy) {
		free(data);
		return -ENOMEM;
	}
	memcpy(copy, data, len);
	free(data);
	printf("replay: %s (%zu bytes)\n", path, len);
	fflush(stdout);
	LLVMFuzzerTestOneInput(copy, len);
	free(copy);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *path, size_t *count)
{
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *dir = opendir(path);
	int err = 0;

	if (!dir) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (grow(&names, &cap, n + 1, sizeof(*names)) < 0 ||
		    asprintf(&names[n], "%s/%s", path, de->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(dir);
	if (err == 0 && n > 1)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n && err == 0; i++) {
		err = run_file(names[i]);
		*count += err == 0;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return err;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	struct stat st;
	int i, err = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc && err == 0; i++) {
		if (stat(argv[i], &st) < 0) {
			printf("replay: %s: none\n", argv[i]);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			err = run_dir(argv[i], &count);
		} else {
			err = run_file(argv[i]);
			count += err == 0;
		}
	}
	if (err == 0 && count == 0) {
		fprintf(stderr, "replay: no input in any PATH\n");
		return 1;
	}
	printf("replay: %zu input(s), every property held\n", count);
	return err ? 1 : 0;
}
