// SPDX-License-Identifier: MIT
/* A ruleset compiled into one engine, serialized for fast start-up. */
#include "db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims/claims.h"
#include "claims/policy.h"
#include "ground/attrs.h"
#include "ground/refs.h"
#include "ground/spans.h"

/*
 * What the database holds beyond the ruleset: a database cached by a build
 * that compiled the delimiters otherwise (once, as bare literals) has the
 * same ruleset digest and must not load.
 */
#define DB_FORMAT "spans-attr"

void db_make_key(const struct ruleset *rs, char *out, size_t n)
{
	snprintf(out, n, "%s %s %s", rs->digest, engine_version(), DB_FORMAT);
}

void db_free(struct db *db)
{
	if (!db)
		return;
	engine_free(db->engine);
	attrs_free(db->own_attrs);
	refs_free(db->own_refs);
	for (size_t i = 0; db->span_exprs && i < 2 * db->rs->n_spans; i++)
		buf_free(&db->span_exprs[i]);
	free(db->span_exprs);
	free(db->pats);
	free(db);
}

/*
 * A number check has no pattern: the number lexer finds its quantities
 * (scan.c); ref.numbered, ref.bullet and ref.year may have none either:
 * the reference recognizer finds their list items at a line's start and
 * their years where sentences end (claims.c). A rule for context pressure alone is in the late database,
 * scanned only once woken (scan.c wakes it under pressure, and only then:
 * it is all the late database holds): without pressure its patterns cost
 * nothing, where scanning them along to drop
 * their matches took plain text from 1,100 to 720 MB/s in Hyperscan.
 */
static struct engine_pattern rule_pattern(const struct rule *r)
{
	unsigned flags = (r->caseless ? ENGINE_CASELESS : 0u) |
			 (r->quantities || !r->pattern ? ENGINE_NEVER : 0u) |
			 (r->pressure == PRESSURE_ONLY || r->wake_on ? ENGINE_LATE : 0u);

	return (struct engine_pattern){r->pattern, flags, (const char *const *)r->alternatives,
				       r->n_alternatives};
}

/*
 * The word lists of the rules that read them (claims_check_rules() said why
 * one fails). The built-in rules' own, loaded whole, were made by the build
 * (mkdb) from the same lists: hashing and sorting their words was a ninth
 * of a 4 KB message's instructions (issue 35). Anything added to them, and
 * any other pack, has its lists made here, a bad entry refused.
 */
static int db_lists(struct db *db)
{
	const struct ruleset *rs = db->rs;
	bool attr = false, ref = false;
	struct diag d;
	size_t r;
	int err;

	for (r = 0; r < rs->n_rules; r++) {
		attr |= rs->rules[r].grounding == GROUNDING_ATTRIBUTE;
		ref |= rs->rules[r].grounding == GROUNDING_REFERENCE;
	}
	if (rs->built_checked && rs->built_lists && (!attr || rs->built_attrs) &&
	    (!ref || rs->built_refs)) {
		db->attrs = attr ? rs->built_attrs : NULL;
		db->refs = ref ? rs->built_refs : NULL;
		return 0;
	}
	err = attrs_new(rs, &db->own_attrs, &d);
	db->attrs = db->own_attrs;
	if (err == 0 && ref) {
		err = refs_new(rs, &db->own_refs, &d);
		db->refs = db->own_refs;
	}
	return err;
}

static int db_alloc(const struct ruleset *rs, struct db **out)
{
	struct db *db = calloc(1, sizeof(*db));
	size_t i, k = 0;
	int err;

	if (!db)
		return -ENOMEM;
	db->rs = rs;
	db->n_pats = 2 * rs->n_spans + 2 + rs->n_rules;
	db->pats = calloc(db->n_pats, sizeof(*db->pats));
	db->span_exprs = calloc(rs->n_spans ? 2 * rs->n_spans : 1, sizeof(*db->span_exprs));
	if (!db->pats || !db->span_exprs) {
		db_free(db);
		return -ENOMEM;
	}
	/* A delimiter is matched with any attributes; scan decides which form counts. */
	for (i = 0; i < 2 * rs->n_spans; i++) {
		struct buf *x = &db->span_exprs[i];

		if (spans_pattern(i % 2 ? rs->spans[i / 2].close : rs->spans[i / 2].open, x) < 0) {
			db_free(db);
			return -ENOMEM;
		}
		db->pats[k++] = (struct engine_pattern){x->data, 0, NULL, 0};
	}
	db->sentence_id = k;
	db->pats[k++] = (struct engine_pattern){ENGINE_SENTENCE_MARK_RE, ENGINE_SENTENCE_MARK,
							 NULL, 0};
	db->line_id = k;
	db->pats[k++] = (struct engine_pattern){"\n", ENGINE_LINE_BREAK, NULL, 0};
	db->first_rule_id = k;
	for (i = 0; i < rs->n_rules; i++)
		db->pats[k++] = rule_pattern(&rs->rules[i]);
	db_make_key(rs, db->key, sizeof(db->key));
	err = db_lists(db);
	if (err < 0) {
		db_free(db);
		return err;
	}
	*out = db;
	return 0;
}

/* Checks what the engine does not: patterns located in their packs, templates. */
static int check_rules(const struct ruleset *rs, struct diag *d)
{
	struct diag why;
	size_t i, j;
	int err;

	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];
		struct engine_pattern p = rule_pattern(r);
		const char *tmpl[4] = {r->message, r->recovery, r->near.message, r->near.recovery}, *bad;

		err = engine_check_pattern(&p, &why);
		if (err < 0)
			return diag_set(d, err, "%s:%u:%u: rule \"%s\": pattern: %s", r->pattern_at.file,
					r->pattern_at.line, r->pattern_at.col, r->id, why.msg);
		for (j = 0; j < 4; j++)
			if (tmpl[j] && policy_check_template(tmpl[j], &bad) < 0)
				return diag_set(d, -EINVAL, "%s:%u:%u: rule \"%s\": unknown placeholder at \"%.20s\"",
						r->at.file, r->at.line, r->at.col, r->id, bad);
	}
	return claims_check_rules(rs, d);
}

int db_compile(const struct ruleset *rs, enum engine_backend be, struct db **out, struct diag *d)
{
	int err = check_rules(rs, d);

	return err < 0 ? err : db_compile_checked(rs, be, out, d);
}

int db_compile_checked(const struct ruleset *rs, enum engine_backend be, struct db **out,
		       struct diag *d)
{
	struct db *db;
	int err;

	err = db_alloc(rs, &db);
	if (err < 0)
		return err;
	err = engine_compile(db->pats, db->n_pats, be, &db->engine, d);
	if (err < 0) {
		db_free(db);
		return err;
	}
	*out = db;
	return 0;
}

int db_load(const struct ruleset *rs, const unsigned char *buf, size_t len, struct db **out,
	    struct diag *d)
{
	struct db *db;
	int err;

	err = db_alloc(rs, &db);
	if (err < 0)
		return err;
	err = engine_load(buf, len, db->key, db->pats, db->n_pats, &db->engine, d);
	if (err < 0) {
		db_free(db);
		return err;
	}
	*out = db;
	return 0;
}

int db_serialize(const struct db *db, bool image, unsigned char **buf, size_t *len)
{
	return engine_serialize(db->engine, db->key, image, buf, len);
}
