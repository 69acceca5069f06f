/* SPDX-License-Identifier: MIT */
/*
 * The configuration file, .halluscan.yaml: a YAML mapping of
 *   context: NAME or [NAME, ...]      fail_on: warn|block|never
 *   format: jsonl|text|sarif|github   rules: [PATH, ...] (added packs)
 *   select: [NAME, ...]  ignore: [NAME, ...]  (signals or rule ids)
 *   exclude: [GLOB, ...]              skip_code: true|false
 * Paths in it are relative to its folder. Options given on the command
 * line replace what it says for the same key.
 *
 * The caller owns struct config: zero it, and config_free() it.
 */
#ifndef HALLUSCAN_CLI_CONFIGFILE_H
#define HALLUSCAN_CLI_CONFIGFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/util.h"

struct strv {
	char **v;
	size_t n;
	bool set; /* the key was given */
};

struct config {
	char *path;  /* the file read, or NULL */
	struct strv context, rules, select, ignore, exclude;
	char *fail_on, *format; /* NULL: not given */
	int skip_code;          /* -1: not given */
};

/*
 * Where the configuration is: $HALLUSCAN_CONFIG, else .halluscan.yaml in
 * the working folder or a parent, no higher than the first of them that
 * holds .git (the repository's root) or is $HOME; with neither, in the
 * working folder only. The climb stops below a folder anyone may write
 * (/tmp): what lies there is no one's project. Any entry of that name
 * is the one found, whatever it is (config_load() refuses what is not a
 * file). *out is NULL when there is none, else a string the caller
 * frees. 0; -EPERM (d says why) for one in a folder anyone may write, or
 * an error (d says which) where the search could not look; -ENOMEM.
 */
int config_find(char **out, struct diag *d);
/*
 * Reads the file at path: a regular file (or a link to one) of at most
 * 64 KiB; a FIFO, a device or a folder is refused unread. 0; the positive
 * errno of a file that cannot be opened; -EINVAL with d saying
 * "FILE:LINE:COL: ..." or what the file is; -ENOMEM.
 */
int config_load(struct config *c, const char *path, struct diag *d);
void config_free(struct config *c);
/* Appends s (copied) to v: 0 or -ENOMEM. */
int strv_add(struct strv *v, const char *s, size_t n);
void strv_free(struct strv *v);

#endif
