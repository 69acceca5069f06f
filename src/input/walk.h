/* SPDX-License-Identifier: MIT */
/*
 * Folders named as inputs: the files under them to scan, in a stable
 * order (depth first, the entries of each folder by name compared
 * bytewise). Symbolic links are not followed, to files or folders (a
 * folder named as the input is read through a link). Hidden files and
 * folders (a name starting with '.') are skipped, as are paths a .gitignore ignores (in the folder
 * walked, its parents up to the repository root, and every folder below;
 * patterns with *, ?, [...], a leading or inner '/' anchoring, a trailing
 * '/' for folders only, '!' to include again, '**' for any folders) and
 * paths an exclude glob matches. A file is kept when its name ends with
 * one of the suffixes.
 */
#ifndef HALLUSCAN_INPUT_WALK_H
#define HALLUSCAN_INPUT_WALK_H

#include <stdbool.h>
#include <stddef.h>

struct walk_options {
	const char *const *suffixes; /* ".md", ... */
	size_t n_suffixes;
	const char *const *exclude;  /* globs, matched against the path and each of its tails */
	size_t n_exclude;
};

/*
 * Appends the files under dir to *paths (n of them; each a string the
 * caller frees, as the array). Returns 0, -ENOMEM, or the positive errno
 * of a folder that cannot be read (*bad then names it: the caller frees it).
 */
int walk_dir(const char *dir, const struct walk_options *o, char ***paths, size_t *n,
	     char **bad);
/* Does an exclude glob match path (or a tail of it after a '/')? */
bool walk_excluded(const struct walk_options *o, const char *path);

#endif
