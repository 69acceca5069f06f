/* SPDX-License-Identifier: MIT */
/*
 * --fix: the spec's recoveries applied to the text. A rule's `fix:`
 * templates (the packs under patterns/) say what replaces its match; fix_run()
 * replaces every finding it can, scans the result again, takes back a
 * repair that is itself a finding (and repairs what a repair uncovered),
 * in a bounded number of rounds. The bytes outside the repairs are never
 * touched but for a link's markup around a URL ([text](URL), <URL>) and
 * a comma a template takes ({drop_comma}).
 */
#ifndef HALLUSCAN_FIX_H
#define HALLUSCAN_FIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util.h"
#include "match/rules.h"
#include "match/template.h"

/* Rounds of scan-and-repair at most; past them the text is left as it was. */
#define FIX_ROUNDS 4

#define FIX_ALSO_MAX 3

/* A finding as fix_run() needs it: where, and which rule's templates. */
struct fix_found {
	uint64_t start, end;
	const char *const *tmpl; /* the rule's fix templates (NULL: none) */
	size_t n_tmpl;
	char *source;            /* owned copy of the finding's source, or NULL */
	const char *rule, *signal; /* the ruleset's strings */
	const char *also[FIX_ALSO_MAX]; /* other signals on the same text (the ruleset's) */
	size_t n_also;
};

struct fix_list {
	struct fix_found *v;
	size_t n, cap;
};

/* One repair, in offsets of the input. */
struct fix_edit {
	uint64_t start, end;     /* the bytes replaced */
	char *with;              /* what replaces them (NUL-terminated) */
	size_t with_len;
	const char *rule, *signal;
	/* The signals besides signal the finding had: a repair still found
	 * for them ("approximately 90%" still ungrounded, as "94.2%" was) is
	 * no worse, and stays; one found for any other is taken back. */
	const char *also[FIX_ALSO_MAX];
	size_t n_also;
	/* What made it, for the next template when this one is itself a
	 * finding: the templates, the one used, the match in the input. */
	const char *const *tmpl;
	size_t n_tmpl, used;
	uint64_t mstart, mend;
	char *source;
	bool reverted;           /* the repair was itself a finding: taken back */
};

struct fix_result {
	struct buf out;          /* the text repaired (the input when nothing changed) */
	struct fix_edit *edits;  /* by start; applied and reverted */
	size_t n_edits, cap_edits;
	bool gave_up;            /* FIX_ROUNDS did not settle: out is the input */
};

/* Scans text whole into list (emptied first): the findings to repair. 0 or -errno. */
typedef int (*fix_scan_fn)(void *ctx, const char *text, size_t len, struct fix_list *list);

/* The templates of a finding's rule and signal (a near signal has its own). */
void fix_templates(const struct ruleset *rs, const char *rule, const char *signal,
		   const char *const **tmpl, size_t *n);
/* Adds a finding to list (source copied). 0 or -ENOMEM. */
int fix_list_add(struct fix_list *list, const struct ruleset *rs, uint64_t start, uint64_t end,
		 const char *rule, const char *signal, const char *source,
		 const char *const *also, size_t n_also);
void fix_list_clear(struct fix_list *list);
void fix_list_free(struct fix_list *list);

/* Repairs text (see above). 0 or a negative errno; res is the caller's to fix_result_free(). */
int fix_run(const char *text, size_t len, fix_scan_fn scan, void *ctx, struct fix_result *res);
void fix_result_free(struct fix_result *res);

/*
 * A unified diff of the repairs (3 lines of context) under the name path,
 * appended to out. 0 or -ENOMEM.
 */
int fix_diff(const char *path, const char *in, size_t len, const struct fix_result *res,
	     struct buf *out);

#endif
