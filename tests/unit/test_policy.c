// SPDX-License-Identifier: MIT
/* Recovery templates and context escalation. */
#include <errno.h>

#include "claims/policy.h"
#include "test.h"

static const char *render(const char *tmpl, const char *text)
{
	static struct buf b;

	CHECK_EQ(policy_render(tmpl, text, strlen(text), "$1.2 billion", &b), 0);
	return b.data;
}

TEST(policy_templates)
{
	const char *bad = NULL;

	CHECK_STR(render("see {host}", "https://Docs.Example.COM:8080/x?y"), "see docs.example.com");
	CHECK_STR(render("{round}", "73.4%"), "about 73%");
	CHECK_STR(render("{round}", "94.2 %"), "about 94%");
	CHECK_STR(render("{round}", "2.7x"), "about 3x");
	CHECK_STR(render("{round}", "0.4%"), "under 1%");
	CHECK_STR(render("{round}", "1,234.5%"), "about 1235%");
	CHECK_STR(render("{round}", "12.6 percent"), "about 13 percent");
	/* A figure no long holds is shown as written, not cast past its range. */
	CHECK_STR(render("{round}", "123456789012345678901234567890.5%"), "123456789012345678901234567890.5%");
	CHECK_STR(render("{round}", "999999999999999%"), "about 999999999999999%");
	CHECK_STR(render("{hedged}", "will definitely"), "may");
	CHECK_STR(render("{hedged}", "will certainly launch the iPhone 18 by September 2026"),
		  "may launch the iPhone 18 by September 2026");
	CHECK_STR(render("{hedged}", "will ship by January 2027"), "is expected to ship by January 2027");
	CHECK_STR(render("{hedged}", "is guaranteed to"), "is expected to");
	CHECK_STR(render("{text} {{x}} {nope} }", "t"), "t {x} {nope} }");
	CHECK_STR(render("", "t"), "");
	CHECK_STR(render("{text} vs {source}", "$1.3 billion"), "$1.3 billion vs $1.2 billion");
	CHECK_EQ(policy_check_template("a {text} {{b}}", &bad), 0);
	CHECK_EQ(policy_check_template("a {txt}", &bad), -EINVAL);
	CHECK_STR(bad, "{txt}");
}

TEST(policy_contexts)
{
	struct ruleset *rs = ruleset_new();
	struct policy *p;
	struct diag d;
	size_t i;

	CHECK_EQ(ruleset_add_builtin(rs, &d), 0);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	p = policy_new(rs);
	for (i = 0; i < rs->n_rules; i++)
		CHECK_EQ(policy_severity(p, &rs->rules[i], rs->rules[i].signal_index), SEV_WARN);
	CHECK_EQ(policy_add_context(p, "casual"), 0);
	CHECK_EQ(policy_add_context(p, "nonesuch"), -ENOENT);
	CHECK_EQ(policy_add_context(p, "medical"), 0);
	for (i = 0; i < rs->n_rules; i++) {
		bool stat = strcmp(rs->rules[i].signal, "unsourced_statistic") == 0 ||
			    strcmp(rs->rules[i].signal, "ungrounded_number") == 0 ||
			    strcmp(rs->rules[i].signal, "altered_number") == 0 ||
			    /* every context that blocks, blocks a directive in model output */
			    strcmp(rs->rules[i].signal, "spoofed_directive") == 0;

		CHECK_EQ(policy_severity(p, &rs->rules[i], rs->rules[i].signal_index), stat ? SEV_BLOCK : SEV_WARN);
	}
	policy_free(p);
	ruleset_free(rs);
}

/* Seed 002's disposition, rule by rule (issue 34). */
TEST(policy_disposition_rule)
{
	const struct disposition_rule r = {DISPOSITION_MIN_SUPPORT, DISPOSITION_PARTIAL_ALLOWANCE};
	const char *why = NULL;

	/* Nothing judged, nothing failing: ship. */
	CHECK_EQ(policy_disposition(&r, &(struct disposition_counts){0}, &why), DISPOSITION_SHIP);
	/* 95 supports, 5 partial: at the allowance, ship. */
	CHECK_EQ(policy_disposition(&r, &(struct disposition_counts){.total = 100, .supports = 95,
		 .partial = 5}, &why), DISPOSITION_SHIP);
	/* 6% partial: above it, hold, failures or not. */
	CHECK_EQ(policy_disposition(&r, &(struct disposition_counts){.total = 100, .supports = 94,
		 .partial = 6}, &why), DISPOSITION_HOLD);
	CHECK_STR(why, "partial support above the allowance");
	CHECK_EQ(policy_disposition(&r, &(struct disposition_counts){.total = 100, .supports = 88,
		 .partial = 6, .fails = 6}, &why), DISPOSITION_HOLD);
	/* The seed's first batch: 91% supports, 3% partial, 6% fail: the fails go. */
	CHECK_EQ(policy_disposition(&r, &(struct disposition_counts){.total = 100, .supports = 91,
		 .partial = 3, .fails = 6}, &why), DISPOSITION_QUARANTINE);
	CHECK_STR(why, "failing claims dropped");
	/* What would ship under the threshold (judged otherwise, --claims): hold. */
	CHECK_EQ(policy_disposition(&r, &(struct disposition_counts){.total = 10, .supports = 8,
		 .fails = 1}, &why), DISPOSITION_HOLD);
	CHECK_STR(why, "support rate below the threshold");
	/* Only failures counted (text without --claims): quarantine. */
	CHECK_EQ(policy_disposition(&r, &(struct disposition_counts){.total = 2, .fails = 2}, &why),
		 DISPOSITION_QUARANTINE);
	/* A failure that could not be dropped holds, whatever else. */
	CHECK_EQ(policy_disposition(&r, &(struct disposition_counts){.total = 1, .supports = 1,
		 .stuck = 1}, &why), DISPOSITION_HOLD);
	CHECK_STR(disposition_name(DISPOSITION_QUARANTINE), "quarantine");
}
