/* SPDX-License-Identifier: MIT */
/*
 * What the public API (include/halluscan.h) is made of, for the parts of
 * the program that work below it: `--pairs` judges claim/passage pairs
 * with the rules' database and a policy, `--export-patterns` lists packs
 * without compiling them. Hidden from the shared library's users.
 */
#ifndef HALLUSCAN_API_H
#define HALLUSCAN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "halluscan.h"

#include "claims/policy.h"
#include "common/util.h"
#include "match/engine.h"
#include "match/rules.h"
#include "scan/db.h"

/* Loads and validates the packs options name (NULL: the built-in ones), without compiling. */
int api_load_ruleset(const struct halluscan_rules_options *o, struct ruleset **out,
		     struct diag *d);
/*
 * Takes a reference to rules, dropped by halluscan_rules_free(): what a
 * scanner holds, so that rules freed before it stay until it is freed.
 * Safe on any thread.
 */
struct halluscan_rules *api_rules_ref(const struct halluscan_rules *rules);
/* The compiled rules behind a halluscan_rules, valid as long as it is. */
const struct db *api_rules_db(const struct halluscan_rules *rules);
/*
 * A policy with the named contexts active; -ENOENT for a context rs does
 * not define, d then saying which and listing those it does.
 */
int api_policy_new(const struct ruleset *rs, const char *const *contexts, size_t n,
		   struct policy **out, struct diag *d);
/*
 * Scans sc's next inputs under context pressure or not (as
 * HALLUSCAN_SCAN_PRESSURE): a transcript's context_health may change it
 * between messages. -EBUSY during an input or grounding.
 */
int api_scanner_pressure(struct halluscan_scanner *sc, bool on);
/*
 * The program looked for lit in the input up to clear, and found it at
 * clear with hit (scan_wake_known): ignored during grounding or after a
 * failure.
 */
void api_scanner_wake_known(struct halluscan_scanner *sc, const char *lit, size_t k,
			    uint64_t clear, bool hit);
/*
 * Has fn called with each piece of input sc scans and its line breaks
 * (engine_stream_on_lines); false, and nothing called, where the build
 * does not find them in its pass over the bytes.
 */
bool api_scanner_on_lines(struct halluscan_scanner *sc, engine_lines_fn fn, void *ctx);
/*
 * halluscan_scanner_feed() of bytes read in place (scan_room(),
 * scan_feed_room()): during an input only; api_scanner_room() returns 0
 * otherwise, and where the caller is to read elsewhere and feed.
 */
size_t api_scanner_room(struct halluscan_scanner *sc, char **at, size_t max);
int api_scanner_feed_room(struct halluscan_scanner *sc, size_t len);
/* Copies d into err (when not NULL) and returns code. */
int api_error(struct halluscan_error *err, int code, const struct diag *d);

/*
 * The compiled-rules cache: a database of packs other than the built-in
 * ones, serialized under dir by its key (db_make_key). cache_load()
 * returns NULL for an entry that is missing, stale or damaged;
 * cache_store() is best effort.
 */
struct db *cache_load(const struct ruleset *rs, const char *dir);
void cache_store(const struct db *db, const char *dir);

#endif
