// SPDX-License-Identifier: MIT
/*
 * The built-in packs, from the ruleset that mkdb serialized at build time.
 * Apart from rules.c because mkdb, which writes builtin_rules, links the
 * core library but cannot link what it is generating.
 */
#include "rules.h"

int ruleset_add_builtin(struct ruleset *rs, struct diag *d)
{
	int err;

	if (builtin_rules_len == 0)
		return ruleset_add_builtin_yaml(rs, d);
	err = ruleset_add_builtin_image(rs, builtin_rules, builtin_rules_len,
					&builtin_ruleset_image, &builtin_lists_image, d);
	/* mkdb finished this very ruleset before it wrote it: the ids, signals
	 * and names it checks cannot differ (a load whole, nothing added). Nor can
	 * the word lists it made of them: the db points at them while nothing
	 * else is added (built_checked), and makes its own otherwise. */
	if (err == 0) {
		rs->built_checked = rs->digest_loaded;
		rs->built_lists = true;
		rs->built_refs = builtin_ref_lists;
		rs->built_attrs = builtin_attr_lists;
	}
	return err;
}
