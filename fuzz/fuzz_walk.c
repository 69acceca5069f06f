// SPDX-License-Identifier: MIT
/*
 * The folder walker (src/input/walk.c) on any .gitignore: a person's
 * repository is outside input, and `halluscan docs/` reads every
 * .gitignore on the way. The input is the root's .gitignore, then after a
 * NUL byte the one in doc/, then after another an exclude glob; they are
 * written into a fixed tree (made once per process, with a .git folder so
 * that no .gitignore above it is read) and the tree is walked.
 *  - the walk succeeds, and what it keeps is the full listing's files in
 *    the full listing's order, some left out (never one made up or moved);
 *  - walking again gives the same;
 *  - a last "*" in the root's file leaves nothing; a last "!*" in both
 *    leaves every file no exclude glob takes;
 *  - a rule for folders only that names no folder ("*.md/") changes
 *    nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "fuzz.h"
#include "input/walk.h"

static char root[64];

/* The tree's files, folders made for them: nine .md files are listed, never .hidden.md. */
static const char *const files[] = {
	"a.md", "b.txt", "build/f.md", "doc/.hidden.md", "doc/c.md", "doc/sub/d.md",
	"doc/sub/e.md", "q?.md", "star*.md", "x y.md", "[z].md",
};

static void put(const char *rel, const void *data, size_t n)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	FUZZ_CHECK(fd >= 0, "open %s: %s", path, strerror(errno));
	FUZZ_CHECK(n == 0 || write(fd, data, n) == (ssize_t)n, "write %s", path);
	close(fd);
}

static void folder(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FUZZ_CHECK(mkdir(path, 0755) == 0 || errno == EEXIST, "mkdir %s", path);
}

static void remove_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz-walk: could not remove %s\n", root);
}

static void make_tree(void)
{
	size_t i;

	/* In memory where the system has it: every input writes and walks
	 * the tree six times, and on a disk the writes were most of the time. */
	snprintf(root, sizeof(root), "/dev/shm/halluscan-fuzz-walk-XXXXXX");
	if (!mkdtemp(root)) {
		snprintf(root, sizeof(root), "/tmp/halluscan-fuzz-walk-XXXXXX");
		FUZZ_CHECK(mkdtemp(root) != NULL, "mkdtemp: %s", strerror(errno));
	}
	atexit(remove_tree);
	folder(".git");
	folder("build");
	folder("doc");
	folder("doc/sub");
	for (i = 0; i < ARRAY_SIZE(files); i++)
		put(files[i], "x\n", 2);
}

struct listing {
	char **v;
	size_t n;
};

static void drop(struct listing *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct listing){0};
}

static struct listing walk_now(const char *glob)
{
	static const char *const suffixes[] = {".md"};
	const char *exclude[1] = {glob};
	struct walk_options o = {suffixes, 1, exclude, glob ? 1 : 0};
	struct listing l = {0};
	char *bad = NULL;
	int err = walk_dir(root, &o, &l.v, &l.n, &bad);

	FUZZ_CHECK(err == 0, "walk_dir: %d (%s)", err, bad ? bad : "");
	return l;
}

static bool same(const struct listing *a, const struct listing *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return false;
	return true;
}

/* Is a the full listing with some entries left out, in its order? */
static bool subsequence(const struct listing *a, const struct listing *full)
{
	size_t i = 0, j;

	for (j = 0; j < full->n && i < a->n; j++)
		if (strcmp(a->v[i], full->v[j]) == 0)
			i++;
	return i == a->n;
}

/*
 * Does the glob take path, or a folder on its way below the root? The
 * walker asks of each folder before it enters it.
 */
static bool excluded(const char *glob, const char *path)
{
	struct walk_options o = {.exclude = (const char *const *)&glob, .n_exclude = 1};
	char *copy, *slash;
	bool out = false;

	if (!glob)
		return false;
	copy = xstrndup(path, strlen(path));
	FUZZ_CHECK(copy != NULL);
	for (slash = copy + strlen(copy); slash > copy + strlen(root); ) {
		*slash = '\0';
		out = out || walk_excluded(&o, copy);
		while (--slash > copy && *slash != '/')
			;
	}
	free(copy);
	return out;
}

/* Writes both .gitignore files, each followed by its tail. */
static void ignores(const uint8_t *top, size_t n_top, const uint8_t *doc, size_t n_doc,
		    const char *top_tail, const char *doc_tail)
{
	struct buf b = {0};

	FUZZ_CHECK(buf_add(&b, top, n_top) == 0 && buf_add(&b, top_tail, strlen(top_tail)) == 0);
	put(".gitignore", b.data, b.len);
	b.len = 0;
	FUZZ_CHECK(buf_add(&b, doc, n_doc) == 0 && buf_add(&b, doc_tail, strlen(doc_tail)) == 0);
	put("doc/.gitignore", b.data, b.len);
	buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *doc, *end = data + size, *cut;
	size_t n_top, n_doc;
	char *glob = NULL;
	struct listing full, got, again, none, all, dir_rule;
	size_t i, kept = 0;

	if (!root[0])
		make_tree();
	cut = memchr(data, 0, size);
	n_top = cut ? (size_t)(cut - data) : size;
	doc = cut ? cut + 1 : end;
	cut = memchr(doc, 0, (size_t)(end - doc));
	n_doc = (size_t)((cut ? cut : end) - doc);
	if (cut)
		glob = xstrndup((const char *)cut + 1, (size_t)(end - cut - 1));

	ignores((const uint8_t *)"", 0, (const uint8_t *)"", 0, "", "");
	full = walk_now(NULL);
	FUZZ_CHECK(full.n == 9, "the tree lists %zu .md files", full.n);

	ignores(data, n_top, doc, n_doc, "", "");
	got = walk_now(glob);
	FUZZ_CHECK(subsequence(&got, &full), "kept a file out of the listing or its order");
	again = walk_now(glob);
	FUZZ_CHECK(same(&got, &again), "a second walk differs");

	ignores(data, n_top, doc, n_doc, "\n*.md/\n", "\n*.md/\n");
	dir_rule = walk_now(glob);
	FUZZ_CHECK(same(&got, &dir_rule), "a folders-only rule changed what files are kept");

	ignores(data, n_top, doc, n_doc, "\n*\n", "");
	none = walk_now(glob);
	FUZZ_CHECK(none.n == 0, "a last \"*\" left %zu files", none.n);

	ignores(data, n_top, doc, n_doc, "\n!*\n", "\n!*\n");
	all = walk_now(glob);
	for (i = 0; i < full.n; i++)
		kept += !excluded(glob, full.v[i]);
	FUZZ_CHECK(all.n == kept, "a last \"!*\" kept %zu of %zu files", all.n, kept);

	drop(&full);
	drop(&got);
	drop(&again);
	drop(&dir_rule);
	drop(&none);
	drop(&all);
	free(glob);
	return 0;
}
