/* SPDX-License-Identifier: MIT */
/*
 * Policy: a finding's severity under the active contexts, the verdict of an
 * input, the exit status, and the recovery text made specific to a match.
 * policy_new() returns an object freed with policy_free(); it keeps a
 * pointer to the ruleset, which must outlive it.
 */
#ifndef HALLUSCAN_POLICY_H
#define HALLUSCAN_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "claims.h"
#include "common/util.h"
#include "match/rules.h"

struct policy;

struct policy *policy_new(const struct ruleset *rs);
void policy_free(struct policy *p);
/* Activates a context by name: -ENOENT when the packs define none such. */
int policy_add_context(struct policy *p, const char *name);
/* The severity of a finding of rule r reported under signal (r's own, or its near signal). */
/* The severity of rule r's finding under signal (an index in the ruleset's signals). */
enum severity policy_severity(const struct policy *p, const struct rule *r, size_t signal);
/*
 * Trigger requests: policy_raise() makes t's signals one step more severe
 * (until policy_lower()); policy_severity_why() is policy_severity() with
 * that step, and sets *trigger to the name of the trigger that took it
 * (else leaves it alone).
 */
void policy_raise(struct policy *p, const struct trigger *t);
void policy_lower(struct policy *p);
enum severity policy_severity_why(const struct policy *p, const struct rule *r, size_t signal,
				  const char **trigger);
/* True when some finding could be block: an escalated signal, or a rule that blocks itself. */
bool policy_can_block(const struct policy *p);

/*
 * The claims verdict of an input (--claims): the share of checked claims
 * that are unsupported against max_ratio (the finscope critic's 0.30), and
 * the trust score, supported claims over checked claims (NAN when none
 * was checked: no figure, and the verdict "unchecked").
 */
struct claims_verdict {
	uint64_t checked;
	double unsupported_ratio, trust;
	bool sufficient;
};

void policy_claims(const uint64_t counts[CLAIM_LABELS], double max_ratio,
		   struct claims_verdict *out);

/*
 * Seed 002's disposition of a document (--quarantine), decided by rule so
 * that it can run unattended: "ship a document if supports is at or above
 * your threshold and does not support is zero; hold it if partial exceeds
 * a small allowance; quarantine it if any does not support verdict
 * stands". Quarantine drops the failing claims ("the claim does not appear
 * in the shipped output at all") and ships the rest; hold ships nothing
 * until a person looks. In order:
 *   hold        a failure that cannot be dropped (stuck > 0);
 *   hold        partial / total > partial_allowance;
 *   hold        supports / (total - fails) < min_support: what would ship
 *               falls short of the threshold;
 *   quarantine  fails > 0 (they are dropped);
 *   ship        otherwise (nothing judged: ship).
 * total is every claim judged (supports, partial, fails and those judged
 * otherwise); *why says the rule that decided, in words.
 */
enum disposition { DISPOSITION_SHIP, DISPOSITION_QUARANTINE, DISPOSITION_HOLD };

struct disposition_rule {
	double min_support;       /* seed 002's "90% supports threshold" */
	double partial_allowance; /* its "small allowance" */
};

#define DISPOSITION_MIN_SUPPORT 0.90
#define DISPOSITION_PARTIAL_ALLOWANCE 0.05

struct disposition_counts {
	uint64_t total, supports, partial, fails, stuck;
};

enum disposition policy_disposition(const struct disposition_rule *rule,
				    const struct disposition_counts *n, const char **why);
/* "ship", "quarantine" or "hold". */
const char *disposition_name(enum disposition d);

/*
 * Expands a message or recovery template for one match into out (reset
 * first). Placeholders: {text} the match, {host} a URL's host, {round} a
 * number rounded ("about 73%"), {hedged} the match with its certainty
 * hedged ("may"), {source} the grounded figure a number check compared
 * with (source may be NULL: "?"), {{ and }} literal braces. Unknown
 * placeholders stay as written (the rule check rejects them).
 */
int policy_render(const char *tmpl, const char *text, size_t len, const char *source,
		  struct buf *out);
/* -EINVAL when tmpl names an unknown placeholder; *bad points at it. */
int policy_check_template(const char *tmpl, const char **bad);

#endif
