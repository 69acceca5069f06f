// SPDX-License-Identifier: MIT
/*
 * --fix (src/claims/fix.c) on any text, with the built-in packs' templates and
 * with a template the input writes (its first line):
 *  - a template either fails the check or renders; a rendered repair
 *    covers its match, stays inside the text and holds no line break
 *    but those of the match it copies;
 *  - a fix run ends (in at most FIX_ROUNDS scans) and its text is the
 *    input with the applied repairs in place, byte for byte elsewhere;
 *    edits are sorted and do not overlap; a text given back unchanged
 *    when it gave up;
 *  - the diff of the repairs names every changed line of the input.
 */
#include <stdlib.h>
#include <string.h>

#include "claims/fix.h"
#include "claims/policy.h"
#include "common/util.h"
#include "fuzz.h"
#include "scan/scan.h"

struct probe {
	const struct ruleset *rs;
	struct scan *sc;
	struct fix_list *list;
};

static int on_finding(void *ctx, const struct finding *f)
{
	struct probe *p = ctx;

	if (f->grounded)
		return 0;
	return fix_list_add(p->list, p->rs, f->start, f->end, f->rule_id, f->signal, f->source,
			    f->also, f->n_also);
}

static int scan_all(struct probe *p, const char *text, size_t len, struct fix_list *list)
{
	struct scan_summary sum;
	int err;

	FUZZ_CHECK(list->n == 0, "a round's list not empty");
	p->list = list;
	err = scan_feed(p->sc, text, len);
	return err ? err : scan_end(p->sc, &sum);
}

static void one_template(const char *tmpl, const char *doc, size_t len, struct fuzz_in *in)
{
	const char *bad, *t[1] = {tmpl};
	struct buf with = {0};
	int k;

	if (template_check(tmpl, &bad) < 0) {
		FUZZ_CHECK(bad >= tmpl && bad < tmpl + strlen(tmpl));
		return;
	}
	for (k = 0; k < 8 && len > 0; k++) {
		uint64_t start = fuzz_u32(in) % len, end = start + 1 + fuzz_u32(in) % (len - start);
		uint64_t from = 0, to = 0;
		int rc = template_render(t, 1, doc, len, start, end, k & 1 ? "$1.2 billion" : NULL, &with,
				    &from, &to);

		FUZZ_CHECK(rc == 0 || rc == 1, "rc %d", rc);
		if (rc == 1) {
			FUZZ_CHECK(from <= start && to >= end && to <= len);
			/* A line break comes from the match ({text}, {may}), never the template. */
			FUZZ_CHECK(!memchr(with.data, '\n', with.len) ||
				   memchr(doc + start, '\n', (size_t)(end - start)));
		}
	}
	buf_free(&with);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct db *db = fuzz_builtin();
	struct probe p = {.rs = db->rs};
	struct fix_result res;
	struct fix_run fr;
	struct fix_list *found;
	const char *t;
	size_t tn, rounds = 0;
	int rc;
	struct policy *pol;
	struct buf rebuilt = {0}, diff = {0};
	const char *nl = memchr(data, '\n', size);
	char *tmpl = NULL;
	const char *doc = (const char *)data;
	struct fuzz_in in = {data, size};
	uint64_t at = 0;
	size_t i, len = size;

	if (nl && !memchr(data, '\0', (size_t)(nl - (const char *)data))) {
		tmpl = xstrndup((const char *)data, (size_t)(nl - (const char *)data));
		FUZZ_CHECK(tmpl != NULL);
		one_template(tmpl, nl + 1, size - (size_t)(nl + 1 - (const char *)data), &in);
		free(tmpl);
	}
	pol = policy_new(db->rs);
	FUZZ_CHECK(pol != NULL);
	FUZZ_CHECK(scan_new(db, pol, on_finding, &p, &p.sc) == 0);
	fix_begin(&fr, doc, len, &res);
	while ((rc = fix_next(&fr, &t, &tn, &found)) > 0) {
		FUZZ_CHECK(++rounds <= FIX_ROUNDS, "more than FIX_ROUNDS scans");
		FUZZ_CHECK(scan_all(&p, t, tn, found) == 0);
	}
	FUZZ_CHECK(rc == 0, "fix_next: %d", rc);
	FUZZ_CHECK(fix_next(&fr, &t, &tn, &found) == 0, "a step after the last");
	fix_end(&fr);
	for (i = 0; i < res.n_edits; i++) {
		const struct fix_edit *e = &res.edits[i];

		FUZZ_CHECK(e->start < e->end && e->end <= len);
		FUZZ_CHECK(i == 0 || res.edits[i - 1].end <= e->start, "edits overlap");
		FUZZ_CHECK(!res.gave_up || e->reverted);
		FUZZ_CHECK(buf_add(&rebuilt, doc + at, (size_t)(e->start - at)) == 0);
		if (e->reverted)
			FUZZ_CHECK(buf_add(&rebuilt, doc + e->start, (size_t)(e->end - e->start)) == 0);
		else
			FUZZ_CHECK(buf_add(&rebuilt, e->with, e->with_len) == 0);
		at = e->end;
	}
	FUZZ_CHECK(buf_add(&rebuilt, doc + at, len - at) == 0);
	FUZZ_CHECK(rebuilt.len == res.out.len && fuzz_same(rebuilt.data, res.out.data, rebuilt.len),
		   "the text given back is not the input with its repairs");
	FUZZ_CHECK(fix_diff("x", doc, len, &res, &diff) == 0);
	for (i = 0; i < res.n_edits; i++)
		if (!res.edits[i].reverted)
			FUZZ_CHECK(diff.len > 0, "a repair the diff does not show");
	buf_free(&rebuilt);
	buf_free(&diff);
	fix_result_free(&res);
	scan_free(p.sc);
	policy_free(pol);
	return 0;
}
