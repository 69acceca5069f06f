// SPDX-License-Identifier: MIT
/* The public rules: packs loaded, compiled (or loaded compiled) and described. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "common/url.h"
#include "config.h"
#include "scan/scan.h"

struct halluscan_rules {
	/* The caller's reference and one per scanner made from them: whichever
	 * is dropped last frees them, so any order of frees is safe (a Python
	 * interpreter finalizes a module's objects in no order at exit). */
	atomic_size_t refs;
	struct ruleset *rs;
	struct db *db;
	struct halluscan_rules_info info;
	struct halluscan_rule *rules; /* info.n_rules of them */
};

/* The options as this library knows them: a caller's older, smaller struct is
 * read up to its size (none is smaller yet: this is the first). */
static int rules_options(const struct halluscan_rules_options *in,
			 struct halluscan_rules_options *o, struct diag *d)
{
	halluscan_rules_options_init(o);
	if (!in)
		return 0;
	if (in->size < sizeof(*o))
		return diag_set(d, -EINVAL, "halluscan_rules_options: size %zu, expected %zu "
				"(set it with halluscan_rules_options_init())", in->size, sizeof(*o));
	memcpy(o, in, sizeof(*o));
	if ((o->n_paths && !o->paths) || (o->n_packs && !o->packs))
		return diag_set(d, -EINVAL, "halluscan_rules_options: a count without its array");
	return 0;
}

int api_error(struct halluscan_error *err, int code, const struct diag *d)
{
	if (err) {
		err->code = code;
		snprintf(err->message, sizeof(err->message), "%s", code && d ? d->msg : "");
	}
	return code;
}

int api_load_ruleset(const struct halluscan_rules_options *in, struct ruleset **out,
		     struct diag *d)
{
	struct halluscan_rules_options o;
	struct ruleset *rs = NULL;
	size_t i;
	int err;

	err = rules_options(in, &o, d);
	if (err < 0)
		return err;
	rs = ruleset_new();
	if (!rs)
		return -ENOMEM;
	if ((o.n_paths == 0 && o.n_packs == 0) || (o.flags & HALLUSCAN_RULES_BUILTIN))
		err = ruleset_add_builtin(rs, d);
	for (i = 0; i < o.n_paths && err == 0; i++)
		err = ruleset_add_path(rs, o.paths[i], d);
	for (i = 0; i < o.n_packs && err == 0; i++) {
		const struct halluscan_pack *p = &o.packs[i];

		err = ruleset_add_buffer(rs, p->name ? p->name : "(pack)", p->data, p->len, d);
	}
	if (err == 0)
		err = ruleset_finish(rs, d);
	if (err < 0) {
		ruleset_free(rs);
		return err;
	}
	*out = rs;
	return 0;
}

/* The built-in rules' exemption patterns, compiled when the program was built. */
static void use_builtin_exemptions(struct db *db)
{
	if (builtin_exempt_len > 0) {
		db->exempt = builtin_exempt;
		db->exempt_len = builtin_exempt_len;
	}
}

/*
 * The built-in packs use the database serialized at build time, other
 * packs a cached one. Whatever is compiled here (*compiled) has its
 * examples run first, so that a broken pack never reaches the cache.
 */
static int open_db(const struct halluscan_rules_options *o, const struct ruleset *rs,
		   struct db **out, bool *compiled, struct diag *d)
{
	bool builtin = o->n_paths == 0 && o->n_packs == 0, fresh = o->flags & HALLUSCAN_RULES_CHECK;
	bool pcre2 = o->flags & HALLUSCAN_RULES_PCRE2;
	bool use_cache = !builtin && o->cache_dir && !pcre2 && HAVE_HYPERSCAN && !fresh;
	struct db *db = NULL;
	int err;

	*compiled = false;
	if (!pcre2 && HAVE_HYPERSCAN && !fresh) {
		if (builtin && builtin_db_len > 0) {
			struct diag ignored;

			if (db_load(rs, builtin_db, builtin_db_len, &db, &ignored) == 0) {
				use_builtin_exemptions(db);
				*out = db;
				return 0;
			}
		}
		if (use_cache && (db = cache_load(rs, o->cache_dir))) {
			*out = db;
			return 0;
		}
	}
	/* The built-in rules were checked when mkdb built them: compiling each
	 * pattern and exemption twice was a third of a PCRE2 start-up (issue 35). */
	err = (builtin && !fresh ? db_compile_checked : db_compile)(
		rs, pcre2 ? ENGINE_PCRE2 : ENGINE_AUTO, &db, d);
	if (err < 0)
		return err;
	*compiled = true;
	if (builtin && !fresh)
		use_builtin_exemptions(db);
	if (!builtin || fresh) {
		err = scan_check_examples(db, d);
		if (err < 0) {
			db_free(db);
			return err;
		}
	}
	/* Slower, not wrong; but what a compiler would do better is not cached. */
	if (use_cache) {
		struct engine_info info;

		engine_get_info(db->engine, &info);
		if (!info.degraded)
			cache_store(db, o->cache_dir);
	}
	*out = db;
	return 0;
}

/* What the rules are, said once at open: getters then only read. */
static int describe(struct halluscan_rules *r, bool compiled)
{
	const struct ruleset *rs = r->rs;
	struct halluscan_rules_info *info = &r->info;
	size_t i, on_pcre2 = 0, on_lexer = 0;

	info->digest = rs->digest;
	info->n_rules = rs->n_rules;
	info->n_signals = scan_n_signals(rs);
	info->n_contexts = rs->n_contexts;
	info->n_spans = rs->n_spans;
	r->rules = calloc(rs->n_rules ? rs->n_rules : 1, sizeof(*r->rules));
	if (!r->rules)
		return -ENOMEM;
	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *x = &rs->rules[i];
		struct halluscan_rule *y = &r->rules[i];
		bool pcre2 = engine_is_pcre2(r->db->engine, r->db->first_rule_id + i);

		*y = (struct halluscan_rule){
			.id = x->id, .signal = x->signal,
			/* A URL's pattern finds its start: the regex of the whole match. */
			.pattern = x->extend == EXTEND_URL ? URL_REGEX : x->pattern,
			.severity = (enum halluscan_severity)x->severity,
			.flags = (x->caseless ? HALLUSCAN_RULE_CASELESS : 0) |
				 (pcre2 ? HALLUSCAN_RULE_PCRE2 : 0) |
				 (x->quantities || x->grounding == GROUNDING_CODE ? HALLUSCAN_RULE_LEXER
										     : 0) |
				 (x->grounding == GROUNDING_ATTRIBUTE ? HALLUSCAN_RULE_RECORDS
				  : !x->pattern && !x->quantities && x->grounding != GROUNDING_CODE
					  ? HALLUSCAN_RULE_RECOGNIZER
					  : 0),
			.file = x->at.file, .line = x->at.line,
			.n_examples = rule_n_examples(x, 0), .n_negative_examples = rule_n_examples(x, 1),
		};
		on_pcre2 += pcre2;
		on_lexer += !x->pattern; /* the lexer's, or the recognizer's: on neither engine */
		info->n_examples += rule_n_examples(x, 0);
		info->n_negative_examples += rule_n_examples(x, 1);
	}
	for (i = 0; i < rs->n_triggers; i++) {
		info->n_trigger_examples += rs->triggers[i].n_examples;
		info->n_trigger_negative_examples += rs->triggers[i].n_negatives;
	}
	info->n_triggers = rs->n_triggers;
	/* Number checks run on the lexer, whatever the engine. */
	info->engine = on_pcre2 == rs->n_rules - on_lexer ? "pcre2"
		       : on_pcre2 ? "hyperscan+pcre2" : "hyperscan";
	/* Asking the engine costs a scratch allocation, which checksums the
	 * database (a fifth of a run's start-up): only a database compiled
	 * here can have been degraded, never one loaded. */
	if (compiled) {
		struct engine_info ei;

		engine_get_info(r->db->engine, &ei);
		info->degraded = ei.degraded;
	}
	return 0;
}

int halluscan_rules_open(const struct halluscan_rules_options *options,
			 struct halluscan_rules **out, struct halluscan_error *error)
{
	struct halluscan_rules_options o;
	struct halluscan_rules *r = NULL;
	struct diag d = {""};
	bool compiled;
	int err;

	if (!out)
		return api_error(error, -EINVAL, NULL);
	err = rules_options(options, &o, &d);
	if (err < 0)
		goto out;
	r = calloc(1, sizeof(*r));
	if (!r) {
		err = -ENOMEM;
		goto out;
	}
	atomic_init(&r->refs, 1);
	err = api_load_ruleset(&o, &r->rs, &d);
	if (err < 0)
		goto out;
	err = open_db(&o, r->rs, &r->db, &compiled, &d);
	if (err < 0)
		goto out;
	err = describe(r, compiled);
out:
	if (err < 0) {
		halluscan_rules_free(r);
		return api_error(error, err, &d);
	}
	*out = r;
	return api_error(error, 0, NULL);
}

struct halluscan_rules *api_rules_ref(const struct halluscan_rules *cr)
{
	/* The count is bookkeeping, not the rules' content, which stays read-only:
	 * the rules were allocated writable by halluscan_rules_open(). */
	struct halluscan_rules *r = (struct halluscan_rules *)cr;

	atomic_fetch_add_explicit(&r->refs, 1, memory_order_relaxed);
	return r;
}

void halluscan_rules_free(struct halluscan_rules *r)
{
	/* Release: this thread's last reads of the rules happen before another
	 * thread, dropping the last reference, frees them (acquire). */
	if (!r || atomic_fetch_sub_explicit(&r->refs, 1, memory_order_acq_rel) != 1)
		return;
	db_free(r->db);
	ruleset_free(r->rs);
	free(r->rules);
	free(r);
}

const char *halluscan_rules_digest(const struct halluscan_rules *r)
{
	return r->rs->digest;
}

const struct halluscan_rules_info *halluscan_rules_info(const struct halluscan_rules *r)
{
	return &r->info;
}

const struct halluscan_rule *halluscan_rules_rule(const struct halluscan_rules *r, size_t i)
{
	return i < r->info.n_rules ? &r->rules[i] : NULL;
}

const char *halluscan_rules_signal(const struct halluscan_rules *r, size_t i)
{
	return i < r->info.n_signals ? scan_signal_name(r->rs, i) : NULL;
}

const char *halluscan_rules_context(const struct halluscan_rules *r, size_t i)
{
	return i < r->rs->n_contexts ? r->rs->contexts[i].name : NULL;
}

const struct db *api_rules_db(const struct halluscan_rules *r)
{
	return r->db;
}

int api_policy_new(const struct ruleset *rs, const char *const *contexts, size_t n,
		   struct policy **out, struct diag *d)
{
	struct policy *pol = policy_new(rs);
	struct buf names = {0};
	size_t i, j;
	int err = 0;

	if (!pol)
		return -ENOMEM;
	for (i = 0; i < n && err == 0; i++) {
		if (policy_add_context(pol, contexts[i]) == 0)
			continue;
		for (j = 0; j < rs->n_contexts && err == 0; j++)
			err = buf_addf(&names, "%s%s", j ? ", " : "", rs->contexts[j].name);
		if (err == 0)
			err = diag_set(d, -ENOENT, "unknown context \"%s\" (the packs define: %s)",
				       contexts[i], names.data ? names.data : "none");
	}
	buf_free(&names);
	if (err < 0) {
		policy_free(pol);
		return err;
	}
	*out = pol;
	return 0;
}
