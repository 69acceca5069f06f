// SPDX-License-Identifier: MIT
/* Claim/passage pairs on the built-in packs: sentences, quotes, coverage. */
#include <stdlib.h>
#include <time.h>

#include "eval/pairs.h"
#include "scan/db.h"
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

/* Judges claim against passage and checks the label and that the reason says reason. */
static struct pair_verdict expect(struct fixture *fx, const char *claim, const char *passage,
				  enum pair_label label, const char *reason)
{
	char quote[256];
	struct pair_verdict v = judge(fx, claim, passage, quote, sizeof(quote));

	if (v.label != label || !strstr(v.reason, reason))
		printf("  %s: %s (%s)\n", claim, pair_label_name(v.label), v.reason);
	CHECK_EQ(v.label, label);
	CHECK(strstr(v.reason, reason) != NULL);
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

/*
 * A figure of the claim that the passage does not hold makes it
 * does_not_support, not partially_supports: silence on a figure is a
 * failure, and the reason names the figure before any other missing item.
 * Another missing item (a link) leaves the claim partly supported.
 */
TEST(pairs_missing_figure_does_not_support)
{
	static const struct {
		const char *claim, *passage, *reason;
		enum pair_label label;
	} cases[] = {
		{"Costs were $5 million and revenue was $9 million.", "Costs were $5 million.",
		 "not \"$9 million\"", PAIR_DOES_NOT_SUPPORT},
		{"Costs were $5 million (https://example.com/a) and revenue $9 million.",
		 "Costs were $5 million.", "not \"$9 million\"", PAIR_DOES_NOT_SUPPORT},
		/* The number check judges a figure the statistic's exact-text rule
		 * reports too: it knows rounding, and what "around" may cover. */
		{"The margin was 93.2% last year.", "The margin was 93.24% last year.", "",
		 PAIR_SUPPORTS},
		{"Costs were $5 million and the margin will be around 93.2%.",
		 "Costs were $5 million. 92% of staff joined.", "93.2%", PAIR_DOES_NOT_SUPPORT},
		{"Costs were $5 million, as https://example.com/costs shows.", "Costs were $5 million.",
		 "not \"https://example.com/costs\"", PAIR_PARTIALLY_SUPPORTS},
		{"Costs were $5 million.", "In 2023 costs were $5 million.", "", PAIR_SUPPORTS},
	};
	struct fixture fx;
	char quote[256];
	size_t i;

	if (!setup(&fx))
		goto out;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pair_verdict v = judge(&fx, cases[i].claim, cases[i].passage, quote,
					      sizeof(quote));

		CHECK_EQ(v.label, cases[i].label);
		CHECK(strstr(v.reason, cases[i].reason) != NULL);
	}
out:
	teardown(&fx);
}

/*
 * A pair, its verdict, and what it counts: negations, names or directions,
 * and those held (for directions: those reversed).
 */
struct counted_case {
	const char *claim, *passage, *reason;
	enum pair_label label;
	size_t counted, held;
};

enum counted { COUNT_NEGATIONS, COUNT_NAMES, COUNT_DIRECTIONS };

static void judge_counted(struct fixture *fx, const struct counted_case *cases, size_t n,
			  enum counted what)
{
	struct pair_verdict v;
	char quote[256];
	size_t i;

	for (i = 0; i < n; i++) {
		v = judge(fx, cases[i].claim, cases[i].passage, quote, sizeof(quote));
		CHECK_EQ(v.label, cases[i].label);
		CHECK_EQ(what == COUNT_NAMES ? v.names : what == COUNT_DIRECTIONS ? v.directions
										    : v.negations,
			 cases[i].counted);
		CHECK_EQ(what == COUNT_NAMES ? v.names_held
			 : what == COUNT_DIRECTIONS ? v.directions_reversed
						    : v.negations_held,
			 cases[i].held);
		if (!strstr(v.reason, cases[i].reason))
			fprintf(stderr, "  \"%s\": reason \"%s\"\n", cases[i].claim, v.reason);
		CHECK(strstr(v.reason, cases[i].reason) != NULL);
	}
}

/*
 * A claim sentence with a negation is held against the passage sentences
 * that share the most of its words (three at most): one of them must
 * negate too, else the claim says the opposite of what the passage may
 * say. A negation far from the claim's words holds nothing; compounds
 * ("no-fee"), "not only" and "whether or not" negate nothing; a passage's
 * chat forms ("dont") and a typographic apostrophe count.
 */
TEST(pairs_negation_held_by_nearest_sentences)
{
	static const struct counted_case cases[] = {
		{"The Bank of Japan said it would not conduct emergency bond buying.",
		 "The Bank of Japan said on Wednesday it would conduct emergency bond buying. "
		 "Markets did not react.",
		 "the claim says \"would not conduct\"", PAIR_DOES_NOT_SUPPORT, 1, 0},
		{"The council did not approve the budget in May.",
		 "The council met in May. The budget came up late. The council did not approve the budget.",
		 "", PAIR_SUPPORTS, 1, 1},
		{"The council did not approve the budget.",
		 "The council approved the budget in May. Nobody came to the picnic.",
		 "\"did not approve\"", PAIR_DOES_NOT_SUPPORT, 1, 0},
		{"The firm doesn\xE2\x80\x99t sell cars to dealers.", "The firm does not sell cars to dealers.",
		 "", PAIR_SUPPORTS, 1, 1},
		{"The firm doesn't sell cars to dealers.", "The firm sells cars to dealers.",
		 "\"firm doesn't sell\"", PAIR_DOES_NOT_SUPPORT, 1, 0},
		{"Maggie doesn't need to restart her computer.",
		 "Maggie: i dont need to restart my computer\nTom: ok", "", PAIR_SUPPORTS, 1, 1},
		{"Anchor is a no-fee podcast hosting service.",
		 "Anchor is a podcast hosting service that charges nothing.", "", PAIR_SUPPORTS, 0, 0},
		{"The plan not only cuts costs but also raises quality.",
		 "The plan cuts costs and raises quality.", "", PAIR_SUPPORTS, 0, 0},
		{"The report asks whether or not prices will fall.",
		 "The report asks whether prices will fall.", "", PAIR_SUPPORTS, 0, 0},
		{"The talks are not just about trade and tariffs.",
		 "The talks are about trade and tariffs.", "75%", PAIR_PARTIALLY_SUPPORTS, 0, 0},
		/* a passage negates by sense ("refused") and a record by its false */
		{"The witness did not cooperate with the police.",
		 "The witness refused to cooperate with the police.", "", PAIR_SUPPORTS, 1, 1},
		{"The cafe does not offer outdoor seating.",
		 "{\"name\": \"Cafe\", \"OutdoorSeating\": false, \"offer\": \"cafe\"}", "",
		 PAIR_SUPPORTS, 1, 1},
		/* no word in common: the coverage speaks, not the negation */
		{"Winter is not warm.", "Apples grow on trees.", "0%", PAIR_DOES_NOT_SUPPORT, 0, 0},
		/* a changed figure is named first */
		{"Sales did not grow and margins were 12%.", "Sales grew while margins were 10%.",
		 "the claim says 12%", PAIR_DOES_NOT_SUPPORT, 1, 0},
		/* inflection: "increased" and "increases", "sharply" and "sharp" */
		{"Prices increased sharply in March.", "Price increases were sharp in March.", "",
		 PAIR_SUPPORTS, 0, 0},
	};
	struct fixture fx;
	struct buf many = {0};
	struct pair_verdict v;
	size_t i;

	if (!setup(&fx))
		goto out;
	judge_counted(&fx, cases, ARRAY_SIZE(cases), COUNT_NEGATIONS);
	/* The first 64 negated sentences are held against the passage. */
	for (i = 0; i < 70; i++)
		buf_addf(&many, "The cat did not eat fish. ");
	CHECK_EQ(pairs_judge(fx.pj, many.data, many.len, "The cat ate fish.", 17, &v), 0);
	CHECK_EQ(v.negations, 64);
	CHECK_EQ(v.negations_held, 0);
	CHECK_EQ(v.label, PAIR_DOES_NOT_SUPPORT);
out:
	buf_free(&many);
	teardown(&fx);
}

/*
 * A claim's word of direction ("decreased", "rose", "lower") is held
 * against the passage sentences that share the most of its sentence's
 * words: where they say its opposite ("increased") and nothing of its side
 * (any word of it: "fell" holds "decreased"), the claim reverses the
 * passage. A negated sentence is the negation's to judge; a compound
 * ("lower-income") and a word of another sense ("declined to comment")
 * are no direction; a sentence of the passage that says both sides holds.
 */
TEST(pairs_direction_reversed_by_nearest_sentences)
{
	static const struct counted_case cases[] = {
		{"Net interest income decreased 4% from the prior quarter.",
		 "Net interest income increased 4% from the prior quarter, driven by loan growth.",
		 "the claim says \"decreased\" where the passage sentences nearest it say \"increased\"",
		 PAIR_DOES_NOT_SUPPORT, 1, 1},
		{"Shares of the retailer rose after the results.",
		 "Shares of the retailer fell after the results. Analysts were surprised.",
		 "the claim says \"rose\" where the passage sentences nearest it say \"fell\"",
		 PAIR_DOES_NOT_SUPPORT, 1, 1},
		{"The company reported a quarterly loss on weak demand.",
		 "The company reported a quarterly profit on weak demand.",
		 "the claim says \"loss\" where the passage sentences nearest it say \"profit\"",
		 PAIR_DOES_NOT_SUPPORT, 1, 1},
		/* the side said otherwise holds it */
		{"Quarterly revenue decreased on weaker chip demand.",
		 "Quarterly revenue dropped on weaker chip demand, while costs increased.", "",
		 PAIR_SUPPORTS, 1, 0},
		{"Unemployment fell in March.", "Unemployment fell in March and rose in April.", "",
		 PAIR_SUPPORTS, 1, 0},
		/* nothing of either side: coverage speaks */
		{"Exports grew in the second half.", "Exports in the second half were steady.", "",
		 PAIR_SUPPORTS, 1, 0},
		/* negated: the negation's */
		{"Revenue did not increase in the quarter.", "Revenue decreased in the quarter.",
		 "the claim says \"did not increase\"", PAIR_DOES_NOT_SUPPORT, 0, 0},
		/* a compound, another sense */
		{"The lower-income households moved to the suburbs.",
		 "The households with higher incomes moved to the suburbs.", "", PAIR_SUPPORTS, 0, 0},
		{"The ministry declined to comment on the higher tariffs.",
		 "The ministry declined to comment on the higher tariffs.", "", PAIR_SUPPORTS, 1, 0},
		/* no word in common with the passage: no check */
		{"Prices increased.", "Apples grow on trees.", "0%", PAIR_DOES_NOT_SUPPORT, 0, 0},
		/* a changed figure is named first */
		{"Margins decreased to 12%.", "Margins increased to 10%.", "the claim says 12%",
		 PAIR_DOES_NOT_SUPPORT, 1, 1},
	};
	struct fixture fx;

	if (!setup(&fx))
		goto out;
	judge_counted(&fx, cases, ARRAY_SIZE(cases), COUNT_DIRECTIONS);
out:
	teardown(&fx);
}

/*
 * A name of the claim (a capitalised word with a lowercase letter, in the
 * middle of a sentence) that the passage never gives makes what the rest
 * supports only partly supported, as a missing link does: entity swaps are
 * a summary's commonest invention, but a model also names what a record
 * abbreviates ("California" for "CA"). A sentence's first word, an acronym,
 * a short abbreviation with two capitals and a hyphen compound are not
 * names; the passage may give one in any case, possessive or plural.
 */
TEST(pairs_names_the_passage_does_not_give)
{
	static const struct counted_case cases[] = {
		{"The account manager wrote to Jessica about the new software.",
		 "The account manager wrote to Maria about the new software.",
		 "the passage does not name \"Jessica\"", PAIR_PARTIALLY_SUPPORTS, 1, 0},
		/* the coverage or the items decide first; the name only lowers support */
		{"The outbreak began in Thailand that spring.", "The outbreak began in Hong Kong that spring.",
		 "75%", PAIR_PARTIALLY_SUPPORTS, 1, 0},
		{"Jessica got $5 million from Stellar.", "Maria got $9 million from Stellar.",
		 "the claim says $5 million", PAIR_DOES_NOT_SUPPORT, 1, 1},
		{"The record lists Santa Barbara, California, as the city.",
		 "{\"city\": \"Santa Barbara\", \"state\": \"CA\", \"record\": \"lists\"}",
		 "the passage does not name \"California\"", PAIR_PARTIALLY_SUPPORTS, 3, 2},
		{"Maria sent the offer.", "The offer was sent.", "", PAIR_PARTIALLY_SUPPORTS, 0, 0},
		{"Revenue rose YoY at the PhD program.", "Revenue rose year over year at the program.",
		 "", PAIR_SUPPORTS, 0, 0},
		{"The team met with Maria's manager.", "the team met with maria and her manager", "",
		 PAIR_SUPPORTS, 1, 1},
		{"Cases of COVID rose in the city.", "Cases of covid rose in the city.", "",
		 PAIR_SUPPORTS, 0, 0},
		{"The deal was signed by Kim and Lee.", "Kim and Lee signed the deal.", "", PAIR_SUPPORTS,
		 2, 2},
		/* a compound is no name */
		{"The cafe offers free Wi-Fi to guests.", "The cafe offers free WiFi to guests.", "",
		 PAIR_SUPPORTS, 0, 0},
	};
	struct fixture fx;

	if (setup(&fx))
		judge_counted(&fx, cases, ARRAY_SIZE(cases), COUNT_NAMES);
	teardown(&fx);
}

/* Appends n bytes of sentences of ten distinct words, starting at word w. */
static size_t add_prose(struct buf *b, size_t n, size_t w)
{
	size_t end = b->len + n;

	while (b->len < end) {
		char word[16];
		size_t k, x = w++;

		for (k = 0; k < 5; k++, x /= 26)
			word[k] = (char)('a' + x % 26);
		word[k] = '\0';
		buf_addf(b, "%s%s", word, w % 10 == 0 ? ". " : " ");
	}
	return w;
}

/* CPU time of judging the pair, the least of five runs of four judgements. */
static double judge_cost(struct fixture *fx, const struct buf *claim, const struct buf *passage)
{
	double best = 1e30;
	int run, i;

	for (run = 0; run < 5; run++) {
		struct timespec a, b;
		struct pair_verdict v;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
		for (i = 0; i < 4; i++)
			CHECK_EQ(pairs_judge(fx->pj, claim->data, claim->len, passage->data,
					     passage->len, &v), 0);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
		best = MIN(best, (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec));
	}
	return best;
}

/* Claim and passage of about size bytes, for the cost series below. */
typedef void (*make_pair_fn)(struct buf *claim, struct buf *passage, size_t size);

/*
 * The cost series shared by the linear tests: 8, 32 and 128 KiB, each
 * size keeping its least time over three attempts (a busy machine can slow
 * one size) before the ratios are taken: 8x at most for 4x the size, 64x
 * for 16x.
 */
static void check_linear(make_pair_fn make)
{
	static const size_t sizes[] = {8 << 10, 32 << 10, 128 << 10};
	struct buf claim = {0}, passage = {0};
	double t[3] = {1e30, 1e30, 1e30};
	struct fixture fx;
	size_t i, attempt;

	if (!setup(&fx))
		goto out;
	for (attempt = 0; attempt < 3; attempt++) {
		for (i = 0; i < 3; i++) {
			claim.len = passage.len = 0;
			make(&claim, &passage, sizes[i]);
			t[i] = MIN(t[i], judge_cost(&fx, &claim, &passage));
		}
		if (t[1] <= 8 * t[0] && t[2] <= 64 * t[0])
			break;
	}
	printf("  %.2f ms, %.2f ms, %.2f ms: %.2fx, %.2fx\n", 1e3 * t[0], 1e3 * t[1], 1e3 * t[2],
	       t[1] / t[0], t[2] / t[0]);
	CHECK(t[1] <= 8 * t[0]);
	CHECK(t[2] <= 64 * t[0]);
out:
	buf_free(&claim);
	buf_free(&passage);
	teardown(&fx);
}

/* Half the claim's words are in the passage, half are not. */
static void prose_pair(struct buf *claim, struct buf *passage, size_t size)
{
	add_prose(passage, size, 0);
	add_prose(claim, size / 2, size / 12);
	add_prose(claim, size / 2, 1000000);
}

/*
 * Judging grows as (claim + passage) x log(claim words), near linear: each
 * size is four times the one before, so that the cost's growth stands well
 * apart from a quadratic one (claim words x passage bytes, as once: 16x and
 * 256x). The bounds sit halfway, geometrically, between linear and
 * quadratic: 8x for 4x the size, 64x for 16x. Steps of 2x left too little
 * room: the log factor and the cache (the claim's words leave L1 at these
 * sizes) made 2x cost 2.8-3.5x against a bound of 3, and CI failed on it.
 * Measured here 5.1x and 22x. CPU time, the least of five runs.
 */
TEST(pairs_cost_is_linear)
{
	check_linear(prose_pair);
}

/*
 * A claim with nothing checkable and no content word is weighed on all its
 * words: the same sentence supports itself; a claim with no word at all
 * is not supported by anything.
 */
TEST(pairs_short_words)
{
	static const struct {
		const char *claim, *passage;
		enum pair_label label;
		double coverage;
	} cases[] = {
		{"It is red.", "It is red.", PAIR_SUPPORTS, 1},
		{"it is RED", "Today it is red.", PAIR_SUPPORTS, 1},
		{"It is red.", "It is blue.", PAIR_PARTIALLY_SUPPORTS, 2.0 / 3},
		{"It is red.", "The sky is big.", PAIR_DOES_NOT_SUPPORT, 1.0 / 3},
		/* One content word decides alone: short words are not counted beside it. */
		{"It is blue.", "The sky is blue.", PAIR_SUPPORTS, 1},
		{"It is green.", "It is red.", PAIR_DOES_NOT_SUPPORT, 0},
		{"!!", "It is red.", PAIR_DOES_NOT_SUPPORT, 0},
		{"", "It is red.", PAIR_DOES_NOT_SUPPORT, 0},
	};
	struct fixture fx;
	char quote[256];
	size_t i;

	if (!setup(&fx))
		goto out;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pair_verdict v = judge(&fx, cases[i].claim, cases[i].passage, quote,
					      sizeof(quote));

		CHECK_EQ(v.label, cases[i].label);
		CHECK(v.coverage > cases[i].coverage - 1e-9 && v.coverage < cases[i].coverage + 1e-9);
		CHECK_EQ(v.items, 0);
	}
	judge(&fx, "It is red.", "It is red.", quote, sizeof(quote));
	CHECK_STR(quote, "It is red.");
out:
	teardown(&fx);
}

/*
 * An absence (a clause saying the passage, or the one answering, lacks
 * something) is judged apart: supported when the passage does not state the
 * thing, does_not_support when it does (its words, and a quantity of the
 * kind named); the rest of the claim is judged as any claim. A negation
 * that says a thing of the world is no absence.
 */
TEST(pairs_absences_judged_apart)
{
	static const struct {
		const char *claim, *passage, *quote;
		enum pair_label label;
		size_t absences, stated;
	} cases[] = {
		{"The passage doesn't specify the exact date of the merger.",
		 "Acme agreed to merge with Beta Corp. The boards approved the deal.", "",
		 PAIR_SUPPORTS, 1, 0},
		{"The passage doesn't specify the exact date of the merger.",
		 "Acme agreed to merge with Beta Corp on March 3, 2021. The boards approved it.",
		 "Acme agreed to merge with Beta Corp on March 3, 2021.", PAIR_DOES_NOT_SUPPORT, 1, 1},
		/* a bare year states a date ("does" names no part of the thing) */
		{"The passage does not say when the museum was founded.",
		 "The museum was founded in 1998.", "The museum was founded in 1998.",
		 PAIR_DOES_NOT_SUPPORT, 1, 1},
		/* a record's hours state them; a null does not */
		{"The data does not give the hours.",
		 "{\"name\": \"Cafe Rio\", \"hours\": {\"Monday\": \"9:00-17:00\"}}",
		 "{\"name\": \"Cafe Rio\", \"hours\": {\"Monday\": \"9:00-17:00\"}}",
		 PAIR_DOES_NOT_SUPPORT, 1, 1},
		{"The data does not give the hours.",
		 "{\"name\": \"Cafe Rio\", \"hours\": null}", "", PAIR_SUPPORTS, 1, 0},
		/* a sentence that names the thing but no date does not state it */
		{"The passage does not say when the merger closes.",
		 "The merger was approved by both boards.", "", PAIR_SUPPORTS, 1, 0},
		{"I don't have information about the price of the tickets.",
		 "The concert is at the Riverside Arena. Doors open at 7 pm.", "", PAIR_SUPPORTS, 1, 0},
		{"I don't have information about the price of the tickets.",
		 "The concert is at the Riverside Arena. Tickets cost $45 each.",
		 "Tickets cost $45 each.", PAIR_DOES_NOT_SUPPORT, 1, 1},
		{"No details are provided about the side effects of the drug.",
		 "Common side effects of the drug include nausea.",
		 "Common side effects of the drug include nausea.", PAIR_DOES_NOT_SUPPORT, 1, 1},
		/* the passage that says it is not known agrees */
		{"No details are provided about the side effects of the drug.",
		 "The side effects of the drug remain unknown.", "", PAIR_SUPPORTS, 1, 0},
		{"The number of employees is not stated in the text.",
		 "The company makes pumps in Ohio.", "", PAIR_SUPPORTS, 1, 0},
		{"There is no mention of how long the warranty lasts.",
		 "The vacuum comes with two filters.", "", PAIR_SUPPORTS, 1, 0},
		{"Unable to answer based on the given passages.", "The vacuum comes with two filters.",
		 "", PAIR_SUPPORTS, 1, 0},
		{"Based on the passage, I do not know who won.", "Results come on Friday.", "",
		 PAIR_SUPPORTS, 1, 0},
		/* the rest of the claim is judged: a changed figure still counts */
		{"Tickets cost $50, but the passage does not say when the doors open.",
		 "Tickets for the show cost $45.", "Tickets for the show cost $45.",
		 PAIR_DOES_NOT_SUPPORT, 1, 0},
		{"Tickets cost $45, but the passage does not say when the doors open.",
		 "Tickets for the show cost $45.", "Tickets for the show cost $45.", PAIR_SUPPORTS, 1,
		 0},
		/* no absences: the world, not the passage */
		{"WiFi is not available at the restaurant.", "The restaurant offers free WiFi.",
		 "The restaurant offers free WiFi.", PAIR_DOES_NOT_SUPPORT, 0, 0},
		{"Based on the data, the shop does not offer WiFi.", "The shop offers free WiFi.",
		 "The shop offers free WiFi.", PAIR_DOES_NOT_SUPPORT, 0, 0},
		{"The agent provides no information on the discount.",
		 "The agent explains the discount in full.", "The agent explains the discount in full.",
		 PAIR_DOES_NOT_SUPPORT, 0, 0},
		{"The shop sells no available discounts.", "The shop sells discounts.",
		 "The shop sells discounts.", PAIR_DOES_NOT_SUPPORT, 0, 0},
		{"The petition says she is unable to provide for herself.",
		 "The petition describes her illness.", "", PAIR_DOES_NOT_SUPPORT, 0, 0},
	};
	struct fixture fx;
	char quote[256];
	size_t i;

	if (!setup(&fx))
		goto out;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pair_verdict v = judge(&fx, cases[i].claim, cases[i].passage, quote,
					      sizeof(quote));

		if (v.label != cases[i].label || v.absences != cases[i].absences)
			printf("  %s: %s (%s)\n", cases[i].claim, pair_label_name(v.label), v.reason);
		CHECK_EQ(v.label, cases[i].label);
		CHECK_EQ(v.absences, cases[i].absences);
		CHECK_EQ(v.absences_stated, cases[i].stated);
		if (cases[i].quote[0])
			CHECK_STR(quote, cases[i].quote);
	}
out:
	teardown(&fx);
}

/*
 * A contrast ("X, not Y", "X instead of Y", "X rather than Y") is no
 * negation of X: the negation check skips it. The passage contradicts it
 * where it says Y and not X. A comma's "not" before a verb's "-ing", or
 * before a long clause, still negates.
 */
TEST(pairs_contrast_is_no_negation)
{
	static const struct {
		const char *claim, *passage;
		enum pair_label label;
		size_t negations;
		const char *reason;
	} cases[] = {
		{"The blue whale is a mammal, not a fish.",
		 "The blue whale is a marine mammal. It breathes air, unlike a fish.", PAIR_SUPPORTS, 0,
		 "nothing checkable"},
		{"The blue whale is a fish, not a mammal.", "The blue whale is a marine mammal.",
		 PAIR_DOES_NOT_SUPPORT, 0, "sets aside \"not a mammal\""},
		{"He pleaded guilty to murder instead of manslaughter.",
		 "He pleaded guilty to manslaughter.", PAIR_DOES_NOT_SUPPORT, 0,
		 "sets aside \"instead of manslaughter\""},
		{"He pleaded guilty to manslaughter instead of murder.",
		 "He pleaded guilty to manslaughter.", PAIR_SUPPORTS, 0, "nothing checkable"},
		{"The firm chose to lease the building rather than buy it.",
		 "The firm chose to lease the building.", PAIR_SUPPORTS, 0, "nothing checkable"},
		{"He said he was ill, not drunk.", "He said: I was ill, not drunk.", PAIR_SUPPORTS, 0,
		 "nothing checkable"},
		/* still negations */
		{"The agent calls the client, not providing any prices at all.",
		 "The agent calls the client, providing prices.", PAIR_DOES_NOT_SUPPORT, 1,
		 "hold no negation"},
		{"The council did not approve the bike lane.", "The council approved the bike lane.",
		 PAIR_DOES_NOT_SUPPORT, 1, "hold no negation"},
		{"The plan cuts costs, not only raising quality.", "The plan cuts costs and raises quality.",
		 PAIR_SUPPORTS, 0, "nothing checkable"},
	};
	struct fixture fx;
	size_t i;

	if (!setup(&fx))
		goto out;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pair_verdict v = expect(&fx, cases[i].claim, cases[i].passage, cases[i].label,
					       cases[i].reason);

		CHECK_EQ(v.negations, cases[i].negations);
	}
out:
	teardown(&fx);
}

/* A claim of nothing but negations, sources and contrasts. */
static void absence_pair(struct buf *claim, struct buf *passage, size_t size)
{
	static const char unit[] = "the passage does not say rather than it the text no mention ";

	add_prose(passage, size, 0);
	while (claim->len < size)
		buf_add(claim, unit, sizeof(unit) - 1);
}

/*
 * Absences and contrasts cost the same per word whatever the claim: a
 * claim that is one sentence of nothing but negations, sources and
 * contrasts (every negation opens a look around it, every contrast its
 * clause) grows linearly, as pairs_cost_is_linear measures.
 */
TEST(pairs_absence_cost_is_linear)
{
	check_linear(absence_pair);
}

/*
 * A passage in 64 numbered parts, each with abbreviations and initials,
 * and a claim of sentences citing parts, with abbreviations and names
 * written as initials in the passage.
 */
static void citation_pair(struct buf *claim, struct buf *passage, size_t size)
{
	static const char unit[] = "According to passage 2, Ft. Bragg and John Ronald Smith hold "
				   "45 units at Mt. Hood. ";
	size_t part = 1, w = 0;

	while (passage->len < size) {
		buf_addf(passage, "passage %zu: Fort Bragg and J. R. Smith hold 45 units. ", part);
		w = add_prose(passage, size / 64, w);
		buf_add(passage, "\n", 1);
		part = part % 64 + 1;
	}
	while (claim->len < size)
		buf_add(claim, unit, sizeof(unit) - 1);
}

/*
 * Citations, abbreviations and initials cost a bounded amount per word:
 * the first 8 citing sentences are held against the parts, each in a pass
 * over the passage, and the first 12 names missing looked for as initials.
 */
TEST(pairs_citation_cost_is_linear)
{
	check_linear(citation_pair);
}

/* The verdicts of citations, abbreviations and initials, on short pairs. */
TEST(pairs_citations_and_abbreviations)
{
	static const struct {
		const char *claim, *passage, *reason;
		enum pair_label label;
	} cases[] = {
		{"According to passage 2, the dam is 90 meters tall.",
		 "passage 1: The dam is 90 meters tall.\npassage 2: The lake is 12 km long.",
		 "the claim cites part 2 of the passage", PAIR_DOES_NOT_SUPPORT},
		{"According to passage 1, the dam is 90 meters tall.",
		 "passage 1: The dam is 90 meters tall.\npassage 2: The lake is 12 km long.", "",
		 PAIR_SUPPORTS},
		{"Passage 4 says the dam is 90 meters tall.",
		 "passage 1: The dam is 90 meters tall.\npassage 2: The lake is 12 km long.",
		 "the passage has no such part", PAIR_DOES_NOT_SUPPORT},
		/* one part is no parts: nothing to tell apart */
		{"According to passage 2, the dam is 90 meters tall.",
		 "passage 1: The dam is 90 meters tall.", "", PAIR_SUPPORTS},
		{"The troops left Ft. Bragg.", "The troops left Fort Bragg in May.", "", PAIR_SUPPORTS},
		{"The troops left Fort Bragg.", "The troops left Ft. Bragg in May.", "", PAIR_SUPPORTS},
		/* a lowercase "ft" is no Fort */
		{"The troops left Fort Bragg.", "The troops left the 6 ft wall of Bragg.", "Fort",
		 PAIR_PARTIALLY_SUPPORTS},
		{"It was written by Herbert George Wells.", "It was written by H. G. Wells.", "",
		 PAIR_SUPPORTS},
		{"It was written by Henry James Wells.", "It was written by H. G. Wells.", "James",
		 PAIR_PARTIALLY_SUPPORTS},
		/* parts labelled otherwise are not the ones cited */
		{"According to passage 2, the dam is 90 meters tall.",
		 "document 1: The dam is 90 meters tall.\ndocument 2: The lake is 12 km long.", "",
		 PAIR_SUPPORTS},
		/* initials that end a sentence: "Another" opens the next one */
		{"The bakery shop moved its ovens to I.V. Another bakery customer was unhappy "
		 "about the moved ovens.",
		 "The bakery shop moved its ovens to I.V. One bakery customer was unhappy about the "
		 "moved ovens.", "", PAIR_SUPPORTS},
		/* a name after a title's stop */
		{"The clinic is run by Dr. Okafor.", "The clinic is run by Dr. Adeyemi.", "Okafor",
		 PAIR_PARTIALLY_SUPPORTS},
	};
	struct fixture fx;
	size_t i;

	if (!setup(&fx))
		goto out;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		expect(&fx, cases[i].claim, cases[i].passage, cases[i].label, cases[i].reason);
out:
	teardown(&fx);
}
