// SPDX-License-Identifier: MIT
/* Arithmetic written out in a sentence: what is read, worked out, and refused. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/util.h"
#include "numbers/arith.h"
#include "test.h"

static struct arith a;

/*
 * The results of text, one a line: "<result> <- <how> = <value> ok|wrong",
 * the value written like the result.
 */
static const char *results(const char *text)
{
	static char out[4096];
	size_t n = strlen(text), r, i, len = 0;

	out[0] = '\0';
	r = arith_scan(text, n, &a);
	for (i = 0; i < r && len < sizeof(out) - 256; i++) {
		const struct arith_rel *rel = &a.rel[i];
		const struct arith_fig *f = &a.fig[rel->result];
		char how[ARITH_HOW], val[48];

		arith_how(&a, rel, text, NULL, how, sizeof(how));
		arith_format(&a, f, text, rel->value, val, sizeof(val));
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%.*s <- %s = %s %s",
					i ? "\n" : "", (int)(f->to - f->from), text + f->from, how,
					val, rel->holds ? "ok" : "wrong");
	}
	return out;
}

TEST(arith_reads_products_sums_and_chains)
{
	CHECK_STR(results("- Room: $95.0 * 4 = $380.0 (lowest rate)"), "$380.0 <- $95.0 x 4 = $380.0 ok");
	CHECK_STR(results("4 nights x €120 = €480"), "€480 <- 4 x €120 = €480 ok");
	CHECK_STR(results("Bikes: 2 bikes × 3 days × $15 = $90"), "$90 <- 2 x 3 x $15 = $90 ok");
	CHECK_STR(results("Sum: 130 + 75 + 45 = 250 EUR"), "250 EUR <- 130 + 75 + 45 = 250 EUR ok");
	CHECK_STR(results("**Total:** $410.0 (Hotel) + $96.0 (Tours) = $506.0"),
		  "$506.0 <- $410.0 + $96.0 = $506.0 ok");
	/* parentheses, and a chain whose second side's parts are the first's */
	CHECK_STR(results("Food: (25 + 35) * 2 * 4 + (15 + 20) * 2 * 2 = €480 + €200 = €680"),
		  "€480 <- (25 + 35) x 2 x 4 = €480 ok\n"
		  "€200 <- (15 + 20) x 2 x 2 = €140 wrong\n"
		  "€680 <- €480 + €200 = €680 ok");
	/* a difference, with thousands separators kept in the value */
	CHECK_STR(results("Net: $2,450.00 - $35.00 = $2,415.00"),
		  "$2,415.00 <- $2,450.00 - $35.00 = $2,415.00 ok");
	/* the result first, its expression in parentheses */
	CHECK_STR(results("New amount: 1450.00 (1400.00 + 50.00)"),
		  "1450.00 <- 1400.00 + 50.00 = 1450.00 ok");
	CHECK_STR(results("Hotel: €440 (4 nights at €110/night)"), "€440 <- 4 x €110 = €440 ok");
	CHECK_STR(results("- Rome: €180 (3 days × 2 meals × €30 average)"),
		  "€180 <- 3 x 2 x €30 = €180 ok");
	CHECK_STR(results("Stay: 4 nights at maximum 90 EUR per night = 360 EUR"),
		  "360 EUR <- 4 x 90 EUR = 360 EUR ok");
	CHECK_STR(results("Price: $330 = $110 x 3"), "$330 <- $110 x 3 = $330 ok");
	/* "at" a price of one unit with no currency: "per night", "/night", "each" */
	CHECK_STR(results("- Hotel: 3 nights at 180 per night = 540"), "540 <- 3 x 180 = 540 ok");
	CHECK_STR(results("- Hotel: 3 nights at 180 per night = 560"), "560 <- 3 x 180 = 540 wrong");
	CHECK_STR(results("Meals: 6 meals at 12 each = 72"), "72 <- 6 x 12 = 72 ok");
	/* ...and the words that name the price before it */
	CHECK_STR(results("Car: 3 days at the lowest rate of 35 per day = 105"), "105 <- 3 x 35 = 105 ok");
	CHECK_STR(results("2 nights at a price of $95 = $190"), "$190 <- 2 x $95 = $190 ok");
	/* ...and the name of the place before it, "at" again */
	CHECK_STR(results("3 nights at Lac Hotel at 240 per night = 740"), "740 <- 3 x 240 = 720 wrong");
	CHECK_STR(results("2 meals at Café Rosé at the lowest price of €15 = €30"),
		  "€30 <- 2 x €15 = €30 ok");
	CHECK_STR(results("3 nights at Lac Hotel = 740"), "");
	CHECK_STR(results("3 nights at A B C D E at 240 per night = 720"), "");
	/* a figure with no unit price is no price: "at" joins nothing */
	CHECK_STR(results("3 nights at the Ritz = 720"), "");
	CHECK_STR(results("I met 3 friends at 10 = 30"), "");
	CHECK_STR(results("3 nights at a cost of 240 = 720"), "");
	/* a whole equation in parentheses */
	CHECK_STR(results("Lac Hotel (2 nights at the maximum price of 330.0/night = 660.0)"),
		  "660.0 <- 2 x 330.0 = 660.0 ok");
	CHECK_STR(results("((20 + 30) * 2 = 100)"), "100 <- (20 + 30) x 2 = 100 ok");
	/* a star escaped for Markdown */
	CHECK_STR(results("Restaurant: 22 \\* 2 meals/day \\* 4 days = 176"), "176 <- 22 x 2 x 4 = 176 ok");
	CHECK_STR(results("Hotel: 150 (cheapest room) \\* 4 days = 610"), "610 <- 150 x 4 = 600 wrong");
	CHECK_STR(results("a \\ 4 = 4"), "");
	/* inside a parenthesis opened before the expression */
	CHECK_STR(results("for 2 nights (Maximum cost: 2 × 250 = 500)"), "500 <- 2 x 250 = 500 ok");
	/* a list item's dash is no minus */
	CHECK_STR(results("  - 3 meals per day * 2 people * 4 days = 24 meals"),
		  "24 <- 3 x 2 x 4 = 24 ok");
	/* words for the operators and the result */
	CHECK_STR(results("That is 60 times 3, which comes to 180."), "");
	CHECK_STR(results("60 times 3 comes to 180"), "180 <- 60 x 3 = 180 ok");
	CHECK_STR(results("$600 divided by 4 is $150 per person"), "$150 <- $600 / 4 = $150 ok");
	CHECK_STR(results("$600 split between 4 people is $150 each"), "$150 <- $600 / 4 = $150 ok");
	CHECK_STR(results("$600 / 4 = $160 per person"), "$160 <- $600 / 4 = $150 wrong");
	CHECK_STR(results("80 plus 45 equals 125"), "125 <- 80 + 45 = 125 ok");
}

TEST(arith_reads_named_parts_and_workings)
{
	/* a figure, then its parts with what each is for */
	CHECK_STR(results("* Groceries: 75.5 (Market run: 50.5, Bakery: 25.0)"),
		  "75.5 <- 50.5 + 25.0 = 75.5 ok");
	CHECK_STR(results("Least cost: roughly €765 (€285 for the hotel + €480 for meals)."),
		  "€765 <- €285 + €480 = €765 ok");
	/* a part with a count beside its sum of money: the sum of money */
	CHECK_STR(results("€765 (€285 for 3 nights + €480 for 12 meals)"),
		  "€765 <- €285 + €480 = €765 ok");
	/* figures of no currency beside each other: which is the part is not said */
	CHECK_STR(results("€765 (3 nights 285 + 12 meals 480)"), "");
	/* written with "+": a sum, wrong as written; a list may name a few of many */
	CHECK_STR(results("Least cost: €795 (€285 for the hotel + €480 for meals)."),
		  "€795 <- €285 + €480 = €765 wrong");
	CHECK_STR(results("* Groceries: 80.5 (Market run: 50.5, Bakery: 25.0)"), "");
	/* no names: result_first()'s; an operator, a share, a nested list: not parts */
	CHECK_STR(results("New amount: 1450.00 (1400.00 + 50.00)"),
		  "1450.00 <- 1400.00 + 50.00 = 1450.00 ok");
	CHECK_STR(results("Food: 120 (lunch: 3 x 20, dinner: 60)"), "");
	CHECK_STR(results("Fee: 30 (service: 10%, card: 20)"), "");
	CHECK_STR(results("Fee: 30 (service (net): 10, card: 20)"), "");
	/* a part with no figure, or one alone: no sum */
	CHECK_STR(results("Food: 120 (lunch and dinner: 120)"), "");
	/* each figure of a sum beside its working, then the sum */
	CHECK_STR(results("€285 (95 x 3) + €480 (40.0 x 2 x 2 x 3) = €765"),
		  "€285 <- 95 x 3 = €285 ok\n"
		  "€480 <- 40.0 x 2 x 2 x 3 = €480 ok\n"
		  "€765 <- €285 + €480 = €765 ok");
	CHECK_STR(results("€285 (95 x 3) + €490 (40.0 x 2 x 2 x 3) = €775"),
		  "€285 <- 95 x 3 = €285 ok\n"
		  "€490 <- 40.0 x 2 x 2 x 3 = €480 wrong\n"
		  "€775 <- €285 + €490 = €775 ok");
	/* a remark in parentheses after a result ends its chain there */
	CHECK_STR(results("Meals (3 days x 2 meals x €30) = €180  (it's not cash-only)"),
		  "€180 <- (3 x 2 x €30) = €180 ok");
}

TEST(arith_reads_averages)
{
	CHECK_STR(results("The average of $90, $110 and $160 is $120."),
		  "$120 <- average of $90, $110 and $160 = $120 ok");
	CHECK_STR(results("the average nightly price of 45.0 and 52.0 is €48.5"),
		  "€48.5 <- average of 45.0 and 52.0 = €48.5 ok");
	CHECK_STR(results("The mean of 10, 20, and 40 is 25"), "25 <- average of 10, 20 and 40 = 23.3333 wrong");
	/* one figure is no average */
	CHECK_STR(results("The average of $90 is $90"), "");
}

TEST(arith_works_exactly)
{
	/* decimal, not binary: 0.1 + 0.2 is 0.3 */
	CHECK_STR(results("0.1 + 0.2 = 0.3"), "0.3 <- 0.1 + 0.2 = 0.3 ok");
	CHECK_STR(results("$19.99 × 3 = $59.97"), "$59.97 <- $19.99 x 3 = $59.97 ok");
	CHECK_STR(results("$39.99 × 3 = $120"), "$120 <- $39.99 x 3 = $119.97 wrong");
	/* a division rounds to what is written; cents round too */
	CHECK_STR(results("$100 / 3 = $33.33"), "$33.33 <- $100 / 3 = $33.3333 ok");
	CHECK_STR(results("$100 / 3 = $33"), "$33 <- $100 / 3 = $33.3333 ok");
	CHECK_STR(results("$100 / 3 = $34"), "$34 <- $100 / 3 = $33.3333 wrong");
	CHECK_STR(results("$12.99 x 1.5 = $19.49"), "$19.49 <- $12.99 x 1.5 = $19.485 ok");
	/* "about": within 1% */
	CHECK_STR(results("$1,000 / 7 is about $143"), "$143 <- $1,000 / 7 = $142.8571 ok");
	CHECK_STR(results("3 x 7 is about 20"), "20 <- 3 x 7 = 21 wrong");
	CHECK_STR(results("3 x 7 ≈ 21"), "21 <- 3 x 7 = 21 ok");
	/* a share of a sum */
	CHECK_STR(results("$240 * 15% = $36"), "$36 <- $240 x 15% = $36 ok");
	CHECK_STR(results("A tip of 18% of $85.00 comes to $15.30"),
		  "$15.30 <- 18% x $85.00 = $15.30 ok");
	CHECK_STR(results("20% of $150 is $25"), "$25 <- 20% x $150 = $30 wrong");
	/* "of" after no share joins nothing */
	CHECK_STR(results("3 of 4 = 0.75"), "");
	CHECK(arith_states((struct arith_q){1, 3}, 2, (struct arith_q){1, 3}, false, false));
	CHECK(arith_states((struct arith_q){33, 100}, 2, (struct arith_q){1, 3}, false, false));
	CHECK(!arith_states((struct arith_q){3, 10}, 1, (struct arith_q){1, 3}, false, false));
}

TEST(arith_refuses_what_is_no_sum)
{
	/* times, dates, ranges, versions, phone numbers, codes */
	CHECK_STR(results("from 10:00 - 13:00 on 2024-05-26 for 10-20 people, v1.2.3"), "");
	CHECK_STR(results("Call +1 555 0100 or 3/4 of them, 4WD x 2 = 8"), "");
	/* a scale word: "$1.2 million" is not worked as 1.2 */
	CHECK_STR(results("$1.2 million + $300,000 = $1.5 million"), "");
	/* two currencies: a conversion, not worked here */
	CHECK_STR(results("€100 + $20 = €120"), "");
	CHECK_STR(results("£59 × 4 = €236"), "");
	/* a percentage added: a share of what, not a number */
	CHECK_STR(results("$100 + 10% = $110"), "");
	/* division by zero, an overflow, a figure too long */
	CHECK_STR(results("$100 / 0 = $5"), "");
	CHECK_STR(results("999999999999 * 999999999999 * 999999999999 = 1"), "");
	CHECK_STR(results("99999999999999999 + 1 = 2"), "");
	CHECK_STR(results("1.1234567 + 1 = 2"), "");
	/* no operator: nothing worked out */
	CHECK_STR(results("$95 = $95, and 3 is 3"), "");
	/* an operator with nothing on a side */
	CHECK_STR(results("+ 5 = 5 and 5 * = 5 and (5 + 5 = 10"), "");
	/* a result of a share is said otherwise */
	CHECK_STR(results("30 / 200 = 15%"), "");
}

TEST(arith_stays_bounded)
{
	size_t n = 1 << 20, i;
	char *s = malloc(n + 1);
	clock_t t0;

	CHECK(s != NULL);
	if (!s)
		return;
	/* "1+1+1+..." a megabyte long: more terms than an expression holds */
	for (i = 0; i + 1 < n; i += 2)
		memcpy(s + i, "1+", 2);
	memcpy(s + n - 5, "1 = 9", 5);
	s[n] = '\0';
	t0 = clock();
	CHECK_EQ(arith_scan(s, n, &a), 0);
	CHECK(a.n_fig <= ARITH_FIGS);
	/* "((((((...": deeper than ARITH_DEPTH */
	memset(s, '(', n);
	memcpy(s + n - 9, "1 + 1 = 2", 9);
	CHECK_EQ(arith_scan(s, n, &a), 0);
	memcpy(s, "((((((1 + 1)))))) * 2 = 4", 26);
	CHECK_EQ(arith_scan(s, 26, &a), 0);
	CHECK_STR(results("(((1 + 1))) * 2 = 4"), "4 <- (((1 + 1))) x 2 = 4 ok");
	/* figures past ARITH_FIGS are not read; results past ARITH_RELS neither */
	for (i = 0; i + 10 < n; i += 10)
		memcpy(s + i, "1 + 1 = 2 ", 10);
	s[i] = '\0';
	CHECK_EQ(arith_scan(s, i, &a), ARITH_RELS);
	CHECK(a.n_fig == ARITH_FIGS);
	/* linear: the megabytes above in well under a second each */
	CHECK((double)(clock() - t0) / CLOCKS_PER_SEC < 2.0);
	free(s);
}

TEST(arith_how_and_format)
{
	const char *t = "(20 + 30) * 2 * 3 = €500";
	struct arith_q v[ARITH_FIGS];
	char how[ARITH_HOW], val[48];
	size_t i;

	CHECK_EQ(arith_scan(t, strlen(t), &a), 1);
	for (i = 0; i < a.n_fig; i++)
		v[i] = a.fig[i].v;
	v[1] = (struct arith_q){45, 1};
	arith_how(&a, &a.rel[0], t, v, how, sizeof(how));
	CHECK_STR(how, "(20 + 45) x 2 x 3");
	CHECK(arith_eval(&a, &a.rel[0], v, &v[0]));
	CHECK_EQ(v[0].n, 390);
	arith_format(&a, &a.fig[a.rel[0].result], t, (struct arith_q){1234567, 100}, val, sizeof(val));
	CHECK_STR(val, "€12345.67");
	/* cut with "..." */
	arith_how(&a, &a.rel[0], t, NULL, how, 10);
	CHECK_STR(how, "(20 + ...");
	CHECK(strlen(how) < 10);
}

TEST(arith_may_hold_is_cheap_and_right)
{
	CHECK(arith_may_hold("$110 * 3 = $330", 15));
	CHECK(arith_may_hold("3 nights x 120", 14));
	CHECK(arith_may_hold("the average of 5 and 7 is 6", 27));
	CHECK(!arith_may_hold("The hotel costs $110 per night.", 31));
	CHECK(!arith_may_hold("no figures + here = none", 24));
	CHECK(!arith_may_hold("", 0));
}

/* The 16-byte chunks against the bytes, each form at every place across a chunk's edge. */
TEST(arith_may_hold_chunks_match_bytes)
{
	static const char *const forms[] = {
		"$110 * 3 = $330", "3 nights x 120", "3 X 4", "the average of 5 and 7", "mean 4, 6",
		"4 at 5", "2 plus 2", "9 minus 3", "8 divided by 2", "6 split 3", "5 times 2",
		"10 (5 + 5)", "10 (5", "7 - 2", "7 / 2", "7-2", "3 \xc3\x97 4", "8 \xc3\xb7 2",
		"2 \xc2\xb7 3", "9 \xe2\x88\x92 4", "\xe2\x89\x88 5 or 6", "50% of 20", "a@b 4",
		"Times 3 Plus 4", "xtimes 3 4", "at3 4", "1.5, 2.5; 3:4", "caf\xc3\xa9 5 \xc3",
	};
	char buf[96];
	size_t f, off, k, n;

	for (f = 0; f < sizeof(forms) / sizeof(forms[0]); f++)
		for (off = 0; off < 40; off++) {
			/* filler of letters that start no operator word, then the form, then filler */
			for (k = 0; k < off; k++)
				buf[k] = (char)(k % 7 == 6 ? ' ' : "bcefghijklnoqruvwyz"[k % 19]);
			n = strlen(forms[f]);
			memcpy(buf + off, forms[f], n);
			memcpy(buf + off + n, " and go on", 10);
			for (k = off + n + 10; k > 0; k--)
				if (arith_may_hold(buf, k) != arith_may_hold_bytewise(buf, k)) {
					fprintf(stderr, "form %zu at %zu, %zu bytes\n", f, off, k);
					CHECK(false);
					return;
				}
		}
	CHECK(arith_may_hold_bytewise("$110 * 3 = $330", 15));
	CHECK(!arith_may_hold_bytewise("The hotel costs $110 per night.", 31));
}
