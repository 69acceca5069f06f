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

#include "util.h"

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
 * the working folder or the nearest parent, stopping at the repository's
 * root (the folder holding .git). Returns a string the caller frees, or
 * NULL when there is none.
 */
char *config_find(void);
/*
 * Reads the file at path. 0; the positive errno of a file that cannot be
 * read; -EINVAL with d saying "FILE:LINE:COL: ..."; -ENOMEM.
 */
int config_load(struct config *c, const char *path, struct diag *d);
void config_free(struct config *c);
/* Appends s (copied) to v: 0 or -ENOMEM. */
int strv_add(struct strv *v, const char *s, size_t n);
void strv_free(struct strv *v);

#endif
