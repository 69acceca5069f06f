/* SPDX-License-Identifier: MIT */
/*
 * --fix: the spec's recoveries applied to the text. A rule's `fix:`
 * templates (the packs under patterns/) say what replaces its match; a fix
 * run replaces every finding it can, has the result scanned again, takes back a
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

/* A finding as a fix run needs it: where, and which rule's templates. */
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


/* The templates of a finding's rule and signal (a near signal has its own). */
void fix_templates(const struct ruleset *rs, const char *rule, const char *signal,
		   const char *const **tmpl, size_t *n);
/* Adds a finding to list (source copied). 0 or -ENOMEM. */
int fix_list_add(struct fix_list *list, const struct ruleset *rs, uint64_t start, uint64_t end,
		 const char *rule, const char *signal, const char *source,
		 const char *const *also, size_t n_also);
void fix_list_clear(struct fix_list *list);
void fix_list_free(struct fix_list *list);

/*
 * A repair of a text, round by round: the caller scans each round's text
 * and hands back what it found, so the repair needs no scanner of its own
 * (it stands below the scan). Read no field; fix_begin() sets them.
 */
struct fix_run {
	const char *text;
	size_t len;
	struct fix_result *res;
	struct fix_list found;   /* the findings of the text of the round, the caller's to fill */
	struct fix_edit *pending;
	size_t cap_pending;
	uint64_t *tpos, *tlen, *olen;
	size_t cap_tpos, cap_tlen, cap_olen;
	struct fix_orig *orig;   /* the first round's findings: where, and by which rule */
	size_t n_orig, cap_orig;
	size_t round;
	bool scanned;            /* found is the scan of the text fix_next() gave last */
	bool changed;
};

/* Starts a repair of text[0, len) into res (the caller's to fix_result_free()). */
void fix_begin(struct fix_run *fr, const char *text, size_t len, struct fix_result *res);

/*
 * The next step: 1 when there is a text to scan (*out, *out_len: the
 * input with the repairs so far; valid until the next call), whose
 * findings the caller adds to *found (empty) with fix_list_add() before it
 * calls again; 0 when the repair is done (res->out the text repaired, or
 * the input when FIX_ROUNDS did not settle it); or a negative errno, which
 * ends it. At most FIX_ROUNDS texts to scan.
 */
int fix_next(struct fix_run *fr, const char **out, size_t *out_len, struct fix_list **found);

/* Frees what the run held (not res). */
void fix_end(struct fix_run *fr);
void fix_result_free(struct fix_result *res);

/*
 * A unified diff of the repairs (3 lines of context) under the name path,
 * appended to out. 0 or -ENOMEM.
 */
int fix_diff(const char *path, const char *in, size_t len, const struct fix_result *res,
	     struct buf *out);

#endif
