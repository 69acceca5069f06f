/* SPDX-License-Identifier: MIT */
/*
 * A compiled rule set: the ruleset's rules, span delimiters and the
 * internal sentence pattern as one engine. Pattern ids: span delimiters
 * first (opener 2k, closer 2k+1 of pair k, each in every form that
 * spans_pattern() finds), then the sentence mark, the line break, then the
 * rules in order.
 *
 * db_compile() and db_load() return a db freed with db_free(); it keeps a
 * pointer to the ruleset, which must outlive it.
 */
#ifndef HALLUSCAN_DB_H
#define HALLUSCAN_DB_H

#include <stdbool.h>
#include <stddef.h>

#include "match/engine.h"
#include "match/rules.h"

struct db {
	const struct ruleset *rs;
	struct engine *engine;
	struct engine_pattern *pats;
	size_t n_pats;
	struct buf *span_exprs; /* the delimiters' regexes, which pats point into */
	size_t sentence_id;   /* id of the sentence mark */
	size_t line_id;       /* id of the line break */
	size_t first_rule_id; /* id of rule 0 */
	char key[160];        /* ruleset digest and engine version */
	/* The word lists the attribute and reference checks read (NULL: no such
	 * rule), made once here, not by every scanner and its claims twice. */
	const struct attrs *attrs;
	const struct refs *refs;
	struct attrs *own_attrs; /* attrs when made here: not the built-in lists */
	struct refs *own_refs;
	/* The rules' exemption patterns as claims_serialize_exemptions() wrote
	 * them at build time (the built-in rules: builtin_exempt), or NULL:
	 * the claims compile them. */
	const unsigned char *exempt;
	size_t exempt_len;
};

/* Compiles; checks every rule's pattern (d names file:line:col) and exemptions. */
int db_compile(const struct ruleset *rs, enum engine_backend be, struct db **out, struct diag *d);
/* Compiles rules checked already: the built-in ones, which mkdb checked at build time. */
int db_compile_checked(const struct ruleset *rs, enum engine_backend be, struct db **out,
		       struct diag *d);
/* Loads a database that db_serialize() wrote for the same ruleset; -ESTALE if not. */
int db_load(const struct ruleset *rs, const unsigned char *buf, size_t len, struct db **out,
	    struct diag *d);
/* image: see engine_serialize(). */
int db_serialize(const struct db *db, bool image, unsigned char **buf, size_t *len);
/* The key a serialized database is stored under: ruleset digest and engine versions. */
void db_make_key(const struct ruleset *rs, char *out, size_t n);
void db_free(struct db *db);

/* The database of the built-in packs, serialized at build time as an image
 * (aligned to ENGINE_IMAGE_ALIGN; len 0: none). */
extern const unsigned char builtin_db[];
extern const size_t builtin_db_len;
/* Their exemption patterns, compiled and serialized at build time (len 0: none). */
extern const unsigned char builtin_exempt[];
extern const size_t builtin_exempt_len;

#endif
