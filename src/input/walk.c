// SPDX-License-Identifier: MIT
/* Folders walked for the files to scan, .gitignore and excludes applied. */
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/util.h"

struct ignore_rule {
	char *pat;
	const char *base; /* the absolute folder of its .gitignore */
	bool neg, dir_only, anchored;
};

struct ignores {
	struct ignore_rule *v;
	size_t n, cap;
	char **bases;
	size_t n_bases, cap_bases;
};

static int load_gitignore(struct ignores *ig, const char *dir)
{
	struct buf path = {0};
	char *data = NULL, *line, *end, *base;
	size_t len;
	int err;

	if (buf_addf(&path, "%s/.gitignore", dir) < 0)
		return -ENOMEM;
	err = read_file_max(path.data, 1 << 20, &data, &len);
	buf_free(&path);
	if (err)
		return err == -ENOMEM ? err : 0; /* none, or unreadable: nothing ignored */
	base = xstrndup(dir, strlen(dir));
	if (!base || grow(&ig->bases, &ig->cap_bases, ig->n_bases + 1, sizeof(char *)) < 0) {
		free(base);
		free(data);
		return -ENOMEM;
	}
	ig->bases[ig->n_bases++] = base;
	for (line = data; line < data + len; line = end + 1) {
		struct ignore_rule r = {.base = base};
		size_t n;

		end = memchr(line, '\n', (size_t)(data + len - line));
		if (!end)
			end = data + len;
		n = (size_t)(end - line);
		while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' '))
			n--;
		if (n == 0 || line[0] == '#')
			continue;
		if (line[0] == '!') {
			r.neg = true;
			line++;
			n--;
		}
		if (n > 0 && line[n - 1] == '/') {
			r.dir_only = true;
			n--;
		}
		if (n > 0 && line[0] == '/') {
			r.anchored = true;
			line++;
			n--;
		}
		if (n == 0)
			continue;
		r.anchored = r.anchored || memchr(line, '/', n);
		r.pat = xstrndup(line, n);
		if (!r.pat || grow(&ig->v, &ig->cap, ig->n + 1, sizeof(*ig->v)) < 0) {
			free(r.pat);
			free(data);
			return -ENOMEM;
		}
		ig->v[ig->n++] = r;
	}
	free(data);
	return 0;
}

static void drop_rules(struct ignores *ig, size_t n)
{
	while (ig->n > n)
		free(ig->v[--ig->n].pat);
}

/* The last rule that matches decides; "**" lets '*' cross folders. */
static bool ignored(const struct ignores *ig, const char *abs, const char *name, bool dir)
{
	bool out = false;
	size_t i;

	for (i = 0; i < ig->n; i++) {
		const struct ignore_rule *r = &ig->v[i];
		size_t bl = strlen(r->base);
		bool m;

		if (r->dir_only && !dir)
			continue;
		if (r->anchored) {
			if (strncmp(abs, r->base, bl) != 0 || abs[bl] != '/')
				continue;
			m = fnmatch(r->pat, abs + bl + 1, strstr(r->pat, "**") ? 0 : FNM_PATHNAME) == 0;
		} else {
			m = fnmatch(r->pat, name, 0) == 0;
		}
		if (m)
			out = !r->neg;
	}
	return out;
}

bool walk_excluded(const struct walk_options *o, const char *path)
{
	size_t i;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	for (i = 0; i < o->n_exclude; i++) {
		const char *p = path;

		for (;;) {
			if (fnmatch(o->exclude[i], p, 0) == 0)
				return true;
			p = strchr(p, '/');
			if (!p)
				break;
			p++;
		}
	}
	return false;
}

static bool wanted(const struct walk_options *o, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < o->n_suffixes; i++) {
		size_t k = strlen(o->suffixes[i]);

		if (n > k && strcmp(name + n - k, o->suffixes[i]) == 0)
			return true;
	}
	return false;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int walk(const char *shown, const char *abs, struct ignores *ig,
		const struct walk_options *o, char ***paths, size_t *n, char **bad)
{
	struct dirent **ents = NULL;
	size_t mark = ig->n;
	int k, i, err;

	err = load_gitignore(ig, abs);
	if (err)
		return err;
	k = scandir(abs, &ents, NULL, by_name);
	if (k < 0) {
		err = errno;
		*bad = xstrndup(shown, strlen(shown));
		drop_rules(ig, mark);
		return err;
	}
	for (i = 0; i < k; i++) {
		const char *name = ents[i]->d_name;
		struct buf cs = {0}, ca = {0};
		struct stat st;
		bool dir;

		if (err || name[0] == '.')
			goto next;
		if (buf_addf(&cs, "%s%s%s", shown, shown[strlen(shown) - 1] == '/' ? "" : "/", name) < 0 ||
		    buf_addf(&ca, "%s/%s", strcmp(abs, "/") ? abs : "", name) < 0) {
			err = -ENOMEM;
			goto next;
		}
		if (lstat(ca.data, &st) != 0)
			goto next;
		/* No link is followed, to a file or a folder, as ripgrep and gitleaks
		 * walk: a link may lead out of the tree (a key, /etc/shadow, whose
		 * text a finding would quote) or round in a loop. A file it names
		 * inside the tree is found under its own name. */
		if (S_ISLNK(st.st_mode))
			goto next;
		dir = S_ISDIR(st.st_mode);
		if (ignored(ig, ca.data, name, dir) || walk_excluded(o, cs.data))
			goto next;
		if (dir) {
			err = walk(cs.data, ca.data, ig, o, paths, n, bad);
		} else if (S_ISREG(st.st_mode) && wanted(o, name)) {
			if (grow(paths, &(size_t){*n}, *n + 1, sizeof(char *)) < 0) {
				err = -ENOMEM;
				goto next;
			}
			(*paths)[(*n)++] = cs.data;
			cs.data = NULL;
		}
next:
		buf_free(&cs);
		buf_free(&ca);
		free(ents[i]);
	}
	free(ents);
	drop_rules(ig, mark);
	return err;
}

int walk_dir(const char *dir, const struct walk_options *o, char ***paths, size_t *n, char **bad)
{
	struct ignores ig = {0};
	char abs[PATH_MAX], top[PATH_MAX];
	char *chain[64];
	size_t depth = 0, i;
	bool in_repo = false;
	int err = 0;

	if (!realpath(dir, abs)) {
		err = errno;
		*bad = xstrndup(dir, strlen(dir));
		return err;
	}
	/* The .gitignore files above the folder, up to the repository root;
	 * outside a repository, none. */
	snprintf(top, sizeof(top), "%s", abs);
	while (err == 0) {
		struct buf git = {0};
		struct stat st;
		char *slash;

		if (buf_addf(&git, "%s/.git", strcmp(top, "/") ? top : "") < 0)
			return -ENOMEM;
		in_repo = stat(git.data, &st) == 0;
		buf_free(&git);
		if (in_repo || strcmp(top, "/") == 0)
			break;
		slash = strrchr(top, '/');
		if (slash == top)
			top[1] = '\0';
		else
			*slash = '\0';
		if (depth < ARRAY_SIZE(chain) && !(chain[depth++] = xstrndup(top, strlen(top))))
			err = -ENOMEM;
	}
	if (!in_repo)
		while (depth > 0)
			free(chain[--depth]);
	for (i = depth; i > 0 && err == 0; i--)
		err = load_gitignore(&ig, chain[i - 1]);
	for (i = 0; i < depth; i++)
		free(chain[i]);
	if (err == 0)
		err = walk(dir, abs, &ig, o, paths, n, bad);
	drop_rules(&ig, 0);
	for (i = 0; i < ig.n_bases; i++)
		free(ig.bases[i]);
	free(ig.bases);
	free(ig.v);
	return err;
}
