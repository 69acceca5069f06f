// SPDX-License-Identifier: MIT
/* Claim/passage pairs on the built-in packs: sentences, quotes, coverage. */
#include <stdlib.h>

#include "db.h"
#include "pairs.h"
#include "test.h"

struct fixture {
	struct ruleset *rs;
	struct db *db;
	struct policy *pol;
	struct pairs *pj;
};

static bool setup(struct fixture *fx)
{
	struct diag d = {""};

	memset(fx, 0, sizeof(*fx));
	fx->rs = ruleset_new();
	CHECK_EQ(ruleset_add_builtin(fx->rs, &d), 0);
	CHECK_EQ(ruleset_finish(fx->rs, &d), 0);
	CHECK_EQ(db_compile(fx->rs, ENGINE_AUTO, &fx->db, &d), 0);
	fx->pol = fx->db ? policy_new(fx->rs) : NULL;
	if (!fx->pol)
		return false;
	CHECK_EQ(pairs_new(fx->db, fx->pol, &fx->pj), 0);
	return fx->pj != NULL;
}

static void teardown(struct fixture *fx)
{
	pairs_free(fx->pj);
	policy_free(fx->pol);
	db_free(fx->db);
	ruleset_free(fx->rs);
}

/* Judges claim against passage; quote receives the quoted passage text. */
static struct pair_verdict judge(struct fixture *fx, const char *claim, const char *passage,
				 char *quote, size_t n)
{
	struct pair_verdict v;

	memset(&v, 0, sizeof(v));
	CHECK_EQ(pairs_judge(fx->pj, claim, strlen(claim), passage, strlen(passage), &v), 0);
	CHECK(v.quote_start <= v.quote_end && v.quote_end <= strlen(passage));
	snprintf(quote, n, "%.*s", (int)(v.quote_end - v.quote_start), passage + v.quote_start);
	return v;
}

/*
 * A line break after a line with no stop (a heading, a list item, "a:",
 * CRLF, a trailing break) ends a sentence; the next one is found after it.
 * Each of these once looped for ever.
 */
TEST(pairs_line_breaks_end_sentences)
{
	static const struct {
		const char *claim, *passage, *quote;
		enum pair_label label;
	} cases[] = {
		{"x.", "a\nb", "", PAIR_DOES_NOT_SUPPORT},
		{"x.", "a:\nb", "", PAIR_DOES_NOT_SUPPORT},
		{"The launch is planned.", "# Launch plan\nThe launch is planned for spring.",
		 "The launch is planned for spring.", PAIR_SUPPORTS},
		{"Bring water and boots.", "Bring:\n- water\n- boots\n", "Bring:", PAIR_SUPPORTS},
		{"Prices rose sharply.", "Prices rose.\r\nThen they fell sharply\r\n",
		 "Prices rose.", PAIR_SUPPORTS},
		{"They fell sharply.", "Prices rose.\r\nThen they fell sharply\r\n",
		 "Then they fell sharply", PAIR_SUPPORTS},
		{"The sky is blue.", "The sky is blue.\n", "The sky is blue.", PAIR_SUPPORTS},
		{"Nothing here.", "\n\n\r\n", "", PAIR_DOES_NOT_SUPPORT},
		{"Nothing here.", "", "", PAIR_DOES_NOT_SUPPORT},
		{"Revenue was $12 million.", "Results\nRevenue: $12 million\nCosts fell",
		 "Revenue: $12 million", PAIR_SUPPORTS},
	};
	struct fixture fx;
	char quote[256];
	size_t i;

	if (!setup(&fx))
		goto out;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pair_verdict v = judge(&fx, cases[i].claim, cases[i].passage, quote,
					      sizeof(quote));

		CHECK_STR(quote, cases[i].quote);
		CHECK_EQ(v.label, cases[i].label);
	}
out:
	teardown(&fx);
}
