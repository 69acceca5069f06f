/* SPDX-License-Identifier: MIT */
/*
 * The recovery templates of the packs' `fix:` keys: text with placeholders
 * ({approx}, {may}, {source}, {topic}, {link_text}, {text}, {drop_comma})
 * that a finding's match fills in. Checked when a pack loads (rules.c),
 * rendered by --fix (fix.c); they know nothing of rules or scans.
 */
#ifndef HALLUSCAN_TEMPLATE_H
#define HALLUSCAN_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

#include "common/util.h"

/*
 * What one finding's templates make of doc[start, end): the first
 * template all of whose placeholders apply, into with; *from and *to the
 * bytes it replaces (the match, widened over a link's markup or a comma).
 * Returns 1 when one applies, 0 when none does, or -ENOMEM.
 */
int template_render(const char *const *tmpl, size_t n, const char *doc, size_t len,
		    uint64_t start, uint64_t end, const char *source, struct buf *with,
		    uint64_t *from, uint64_t *to);
/* The same from template first on; *used says which applied. */
int template_render_from(const char *const *tmpl, size_t first, size_t n, const char *doc,
			 size_t len, uint64_t start, uint64_t end, const char *source,
			 struct buf *with, uint64_t *from, uint64_t *to, size_t *used);

/*
 * The placeholder at t (just after '{') among a table of n entries of
 * stride bytes each whose first member is its name (const char *): its
 * index, with *len the bytes of "{name}"; -1 when none is. (Both kinds of
 * template use it: a pack's fix: and a message's, policy.c.)
 */
int template_placeholder(const char *t, const void *table, size_t n, size_t stride, size_t *len);

/*
 * -EINVAL when tmpl has a brace that opens no placeholder of the table (as
 * template_placeholder() reads it; "{{" and "}}" are literal braces), with
 * *bad pointing at it; 0 otherwise.
 */
int template_check_names(const char *tmpl, const void *table, size_t n, size_t stride,
			 const char **bad);

/* -EINVAL when tmpl names a placeholder a fix does not know; *bad points at it. */
int template_check(const char *tmpl, const char **bad);

#endif
