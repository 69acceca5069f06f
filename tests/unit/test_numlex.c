// SPDX-License-Identifier: MIT
/* The number lexer: what it reads from real-looking sentences, and how its kinds compare. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "common/util.h"
#include "numbers/numlex.h"
#include "numbers/quantity.h"
#include "numbers/vocab.h"
#include "test.h"
#include "wordlists.h"

/*
 * The items of a scan to fn, a batch of cap at a time as the library's
 * callers loop, till fn returns non-zero (returned) or the text ends;
 * *code (NUMLEX_CODE) and *examined (the counting copy) where asked.
 */
static int lex_batches(const char *text, size_t n, unsigned opts, size_t cap,
		       int (*fn)(void *, const struct numlex_item *), void *ctx, size_t *code,
		       size_t *examined)
{
	struct numlex lx;
	struct numlex_item *items = malloc(cap * sizeof(*items));
	int k, j, rc = 0;

	CHECK(items != NULL);
	opts |= code ? NUMLEX_CODE : 0;
	k = examined ? numlex_scan_counted(&lx, text, n, opts, items, cap)
		     : numlex_scan(&lx, text, n, opts, items, cap);
	for (;;) {
		if (k < 0) {
			rc = k;
			break;
		}
		for (j = 0; j < k && !rc; j++)
			rc = fn(ctx, &items[j]);
		if (rc || (size_t)k < cap)
			break;
		k = examined ? numlex_resume_counted(&lx, items, cap) : numlex_resume(&lx, items, cap);
	}
	if (code)
		*code = numlex_code(&lx);
	if (examined)
		*examined = numlex_examined(&lx);
	free(items);
	return rc;
}

static int lex_all(const char *text, size_t n, unsigned opts,
		   int (*fn)(void *, const struct numlex_item *), void *ctx)
{
	return lex_batches(text, n, opts, NUMLEX_BATCH, fn, ctx, NULL, NULL);
}

/* Flags, short. */
#define R NUMLEX_RANGE
#define A NUMLEX_APPROX
#define W NUMLEX_WORDS
#define P NUMLEX_PART
#define S NUMLEX_SELF_COUNT
#define L NUMLEX_LIST_MARKER
#define F NUMLEX_REFERENCE
#define X NUMLEX_FIXED_PHRASE
#define V NUMLEX_VERSION
#define C NUMLEX_CITATION
#define I NUMLEX_INLINE_ITEM
#define H NUMLEX_HEX
#define M NUMLEX_IMPLIED
#define UP (NUMLEX_APPROX | NUMLEX_ABOVE)
#define DN (NUMLEX_APPROX | NUMLEX_BELOW)
#define BEFORE NUMLEX_BELOW /* a year's side, no approximation */
#define AFTER NUMLEX_ABOVE

/*
 * One item expected: its part's text and its whole expression's text (NULL:
 * the same), each found in the text at or after the previous item's; the
 * unit, the value in the unit's base, the decimals and the flags.
 */
struct want {
	const char *part, *span, *unit;
	double value;
	int decimals;
	unsigned flags;
};

struct lcase {
	const char *text;
	struct want items[4]; /* up to the first with part NULL; none: no items */
};

#define F_TO_C(f) (((f) - 32) * 5.0 / 9)

static const struct lcase cases[] = {
	/* money */
	{"Revenue reached $1.3 billion.", {{"$1.3 billion", NULL, "usd", 1.3e9, 1, 0}}},
	{"It raised the dividend to $0.15 per share.", {{"$0.15", NULL, "usd", 0.15, 2, 0}}},
	{"It costs $40 now.", {{"$40", NULL, "usd", 40, 0, 0}}},
	{"Revenue was $1,200 million, or $1.2B.",
	 {{"$1,200 million", NULL, "usd", 1.2e9, 0, 0}, {"$1.2B", NULL, "usd", 1.2e9, 1, 0}}},
	{"a $300k budget", {{"$300k", NULL, "usd", 3e5, 0, 0}}},
	{"we may lose 5 mln bucks", {{"5 mln bucks", NULL, "usd", 5e6, 0, 0}}},
	{"They may lose 7 million dollars.", {{"7 million dollars", NULL, "usd", 7e6, 0, 0}}},
	{"priced at \xe2\x82\xac" "3.50 each", {{"\xe2\x82\xac" "3.50", NULL, "eur", 3.5, 2, 0}}},
	{"a \xc2\xa3" "2m fine", {{"\xc2\xa3" "2m", NULL, "gbp", 2e6, 0, 0}}},
	{"US$5 billion in aid", {{"US$5 billion", NULL, "usd", 5e9, 0, 0}}},
	{"a USD 5 fee", {{"USD 5", NULL, "usd", 5, 0, 0}}},
	{"a fee of 5 USD", {{"5 USD", NULL, "usd", 5, 0, 0}}},
	{"just 50 cents", {{"50 cents", NULL, "usd", 0.5, 0, 0}}},
	{"a $2bn deal", {{"$2bn", NULL, "usd", 2e9, 0, 0}}},
	{"$15 to $25", {{"$15", "$15 to $25", "usd", 15, 0, R}, {"$25", "$15 to $25", "usd", 25, 0, R}}},
	{"$15-25 a month", {{"$15", "$15-25", "usd", 15, 0, R}, {"25", "$15-25", "usd", 25, 0, R}}},
	{"$1.2-1.5 billion",
	 {{"$1.2", "$1.2-1.5 billion", "usd", 1.2e9, 1, R},
	  {"1.5 billion", "$1.2-1.5 billion", "usd", 1.5e9, 1, R}}},
	{"between $4 and $5 million",
	 {{"$4", "$4 and $5 million", "usd", 4e6, 0, R},
	  {"$5 million", "$4 and $5 million", "usd", 5e6, 0, R}}},
	{"about $5 million", {{"$5 million", NULL, "usd", 5e6, 0, A}}},
	{"C$5 each", {{NULL}}},

	/* percent */
	{"growth of 12.6%", {{"12.6%", NULL, "percent", 12.6, 1, 0}}},
	{"Growth was 13.9 percent.", {{"13.9 percent", NULL, "percent", 13.9, 1, 0}}},
	{"it rose 2 percentage points", {{"2 percentage points", NULL, "percent", 2, 0, 0}}},
	{"5 per cent of voters", {{"5 per cent", NULL, "percent", 5, 0, 0}}},
	{"About 70% use it.", {{"70%", NULL, "percent", 70, 0, A}}},
	{"3-5% growth", {{"3", "3-5%", "percent", 3, 0, R}, {"5%", "3-5%", "percent", 5, 0, R}}},
	{"1-3% now", {{"1", "1-3%", "percent", 1, 0, R}, {"3%", "1-3%", "percent", 3, 0, R}}},
	{"fell from 5% to 3%", {{"5%", NULL, "percent", 5, 0, 0}, {"3%", NULL, "percent", 3, 0, 0}}},
	{"up to 30% off", {{"30%", NULL, "percent", 30, 0, DN}}},
	{"nearly 40 %", {{"40 %", NULL, "percent", 40, 0, A}}},

	/* durations */
	{"within 14 days", {{"14 days", NULL, "seconds", 14 * 86400, 0, 0}}},
	{"you have two weeks", {{"two weeks", NULL, "seconds", 14 * 86400, 0, W}}},
	{"for 12 whole days", {{"12 whole days", NULL, "seconds", 12 * 86400, 0, 0}}},
	{"3 entire weeks", {{"3 entire weeks", NULL, "seconds", 21 * 86400, 0, 0}}},
	{"a 6-month trial", {{"6-month", NULL, "seconds", 6 * 2592000, 0, 0}}},
	{"a 3-month trial", {{"3-month", NULL, "seconds", 3 * 2592000, 0, 0}}},
	{"4-5 minutes", {{"4", "4-5 minutes", "seconds", 240, 0, R}, {"5 minutes", "4-5 minutes", "seconds", 300, 0, R}}},
	{"between 4 and 5 minutes",
	 {{"4", "4 and 5 minutes", "seconds", 240, 0, R},
	  {"5 minutes", "4 and 5 minutes", "seconds", 300, 0, R}}},
	{"latency of 12.5 ms", {{"12.5 ms", NULL, "seconds", 0.0125, 1, 0}}},
	{"after 24 hours", {{"24 hours", NULL, "seconds", 86400, 0, 0}}},
	{"in 3 yrs", {{"3 yrs", NULL, "seconds", 3 * 31536000.0, 0, 0}}},
	{"a 35-minute drive", {{"35-minute", NULL, "seconds", 2100, 0, 0}}},
	{"a three-day event", {{"three-day", NULL, "seconds", 3 * 86400, 0, W}}},
	{"wait 5min", {{"5min", NULL, "seconds", 300, 0, 0}}},
	{"two and a half years", {{"two and a half years", NULL, "seconds", 2.5 * 31536000, 1, W}}},
	{"at least 3 days", {{"3 days", NULL, "seconds", 3 * 86400, 0, UP}}},
	{"~50 ms", {{"50 ms", NULL, "seconds", 0.05, 0, A}}},
	{"six-year term", {{"six-year", NULL, "seconds", 6 * 31536000.0, 0, W}}},

	/* counts */
	{"It employs 140 employees.", {{"140 employees", NULL, "employee", 140, 0, 0}}},
	{"5,231,877 downloads", {{"5,231,877 downloads", NULL, "download", 5231877, 0, 0}}},
	{"2,400 units", {{"2,400 units", NULL, "unit", 2400, 0, 0}}},
	{"then 2,450 units", {{"2,450 units", NULL, "unit", 2450, 0, 0}}},
	{"It had 9 million downloads.", {{"9 million downloads", NULL, "download", 9e6, 0, 0}}},
	{"It has 150 staff.", {{"150 staff", NULL, "staff", 150, 0, 0}}},
	{"50 companies", {{"50 companies", NULL, "company", 50, 0, 0}}},
	{"3 boxes", {{"3 boxes", NULL, "box", 3, 0, 0}}},
	{"50-60 inches", {{"50", "50-60 inches", "inch", 50, 0, R}, {"60 inches", "50-60 inches", "inch", 60, 0, R}}},
	{"not 40 inches", {{"40 inches", NULL, "inch", 40, 0, 0}}},
	{"3 new employees", {{"3 new employees", NULL, "employee", 3, 0, 0}}},
	{"Fifteen passengers", {{"Fifteen passengers", NULL, "passenger", 15, 0, W}}},
	{"five members of the crew", {{"five members", NULL, "member", 5, 0, W}}},
	{"5 crew", {{"5 crew", NULL, "crew", 5, 0, 0}}},
	{"twenty five people", {{"twenty five people", NULL, "people", 25, 0, W}}},
	{"twenty-one guns", {{"twenty-one guns", NULL, "gun", 21, 0, W}}},
	{"they got twenty - five machines", {{"twenty - five machines", NULL, "machine", 25, 0, W}}},
	{"two hundred thousand people", {{"two hundred thousand people", NULL, "people", 2e5, 0, W}}},
	{"a dozen eggs", {{"a dozen eggs", NULL, "egg", 12, 0, W}}},
	{"one hundred and twenty pages", {{"one hundred and twenty pages", NULL, "page", 120, 0, W}}},
	/* decimals said in words (transcripts), and money with its subunit */
	{"it grew three point five percent", {{"three point five percent", NULL, "percent", 3.5, 1, W}}},
	{"one point two five million people",
	 {{"one point two five million people", NULL, "people", 1.25e6, 2, W}}},
	{"it costs twelve dot fifty Euros", {{"twelve dot fifty Euros", NULL, "eur", 12.5, 2, W}}},
	{"at one point he left", {{"one point", NULL, "point", 1, 0, W | X}}},
	{"a five point plan", {{"five point", NULL, "point", 5, 0, W}}},
	{"under twelve Euros and fifty centimes", {{"twelve Euros and fifty centimes", NULL, "eur", 12.5, 2, W | DN}}},
	{"it costs 12 dollars and 50 cents", {{"12 dollars and 50 cents", NULL, "usd", 12.5, 2, 0}}},
	{"$12 and 5 cents", {{"$12 and 5 cents", NULL, "usd", 12.05, 2, 0}}},
	{"5 pounds and 30 pence", {{"5 pounds and 30 pence", NULL, "gbp", 5.3, 2, 0}}},
	{"5 dollars and 3 apples",
	 {{"5 dollars", NULL, "usd", 5, 0, 0}, {"3 apples", NULL, "apple", 3, 0, 0}}},
	{"10 dollars and 150 cents",
	 {{"10 dollars", NULL, "usd", 10, 0, 0}, {"150 cents", NULL, "usd", 1.5, 0, 0}}},
	{"10x faster", {{"10x", NULL, "time", 10, 0, 0}}},
	{"a 5km run", {{"5km", NULL, "km", 5, 0, 0}}},
	{"a 3GB file", {{"3GB", NULL, "gb", 3, 0, 0}}},
	{"3.5 stars", {{"3.5 stars", NULL, "star", 3.5, 1, 0}}},
	{"100+ employees", {{"100+ employees", NULL, "employee", 100, 0, UP}}},
	{"50-plus years", {{"50-plus years", NULL, "seconds", 50 * 31536000.0, 0, UP}}},
	{"one and a half times", {{"one and a half times", NULL, "time", 1.5, 1, W}}},
	{"over 100 people", {{"100 people", NULL, "people", 100, 0, UP}}},
	{"more than 50 staff", {{"50 staff", NULL, "staff", 50, 0, UP}}},
	{"3 to 4 times a week", {{"3", "3 to 4 times", "time", 3, 0, R}, {"4 times", "3 to 4 times", "time", 4, 0, R}}},
	{"a two-story house", {{"two-story", NULL, "story", 2, 0, W}}},
	{"0-76 cm", {{"0", "0-76 cm", "cm", 0, 0, R}, {"76 cm", "0-76 cm", "cm", 76, 0, R}}},
	{"a 5 kg bag", {{"5 kg", NULL, "kg", 5, 0, 0}}},
	{"in 2021 increased 34.6%", {{"2021", NULL, "date:year", 2021, 0, 0}, {"34.6%", NULL, "percent", 34.6, 1, 0}}},
	{"up 10 respectively", {{"10", NULL, "number", 10, 0, 0}}},
	{"a decrease in 2021 despite it", {{"2021", NULL, "date:year", 2021, 0, 0}}},
	{"for 2021 remaining", {{"2021", NULL, "date:year", 2021, 0, 0}}},
	{"a Sims 3-based podcast", {{"3", NULL, "number", 3, 0, 0}}},
	{"a 5-speed gearbox", {{"5-speed", NULL, "speed", 5, 0, 0}}},
	{"Month 8 \xe2\x80\x93 $26,000", {{"8", NULL, "number", 8, 0, 0}, {"$26,000", NULL, "usd", 26000, 0, 0}}},
	{"$24,000 - $26,000",
	 {{"$24,000", "$24,000 - $26,000", "usd", 24000, 0, R}, {"$26,000", "$24,000 - $26,000", "usd", 26000, 0, R}}},
	{"fiscal 2022 second-quarter sales",
	 {{"2022", NULL, "date:year", 2022, 0, 0}, {"second-quarter", NULL, "quarter", 2, 0, W}}},
	/* the side of a bound: none on a range, nor where both are said */
	{"less than 50 completed", {{"50", NULL, "number", 50, 0, DN}}},
	{"fewer than 100 stores", {{"100 stores", NULL, "store", 100, 0, DN}}},
	{"just under 5 minutes", {{"5 minutes", NULL, "seconds", 300, 0, DN}}},
	{"in excess of $5 million", {{"$5 million", NULL, "usd", 5e6, 0, UP}}},
	{"about 60 days", {{"60 days", NULL, "seconds", 60 * 86400, 0, A}}},
	{"up to 5-10 days", {{"5", "5-10 days", "seconds", 5 * 86400, 0, R | A}, {"10 days", "5-10 days", "seconds", 10 * 86400, 0, R | A}}},
	{"under 100+ users", {{"100+ users", NULL, "user", 100, 0, A}}},
	{"it won't be more than twelve Euros", {{"twelve Euros", NULL, "eur", 12, 0, W | A}}},
	{"can\xe2\x80\x99t be over 5 dollars", {{"5 dollars", NULL, "usd", 5, 0, A}}},
	{"no more than 50 people", {{"50 people", NULL, "people", 50, 0, A}}},
	/* an anniversary or a birthday: an ordinal of years, its noun its unit */
	{"On the 35th anniversary of the riots", {{"35th anniversary", NULL, "ordinal:years", 35, 0, 0}}},
	{"her twenty-first birthday party", {{"twenty-first birthday", NULL, "ordinal:years", 21, 0, W}}},
	{"the 3rd floor", {{"3rd", NULL, "ordinal:n", 3, 0, 0}}},
	/* money takes no time unit, nor does a change "year over year" */
	{"rose to $3.2 billion year-over-year", {{"$3.2 billion", NULL, "usd", 3.2e9, 1, 0}}},
	{"a $3 million year", {{"$3 million", NULL, "usd", 3e6, 0, 0}}},
	{"sales of 300 million year on year", {{"300 million", NULL, "number", 3e8, 0, 0}}},
	{"3.2 billion years ago", {{"3.2 billion years", NULL, "seconds", 3.2e9 * 31536000, 1, 0}}},
	{"3 years on year one", {{"3 years", NULL, "seconds", 3 * 31536000.0, 0, 0}, {"one", NULL, "number", 1, 0, W}}},

	/* bare numbers */
	{"The answer is 42.", {{"42", NULL, "number", 42, 0, 0}}},
	{"over 100 -> over 50", {{"100", NULL, "number", 100, 0, UP}, {"50", NULL, "number", 50, 0, UP}}},
	{"scored 3-2", {{"3", NULL, "number", 3, 0, 0}}},
	{"x = 252 - 0.02", {{"252", NULL, "number", 252, 0, 0}, {"0.02", NULL, "number", 0.02, 2, 0}}},
	{"with 12 of them", {{"12", NULL, "number", 12, 0, 0}}},
	{"two hundred thousand", {{"two hundred thousand", NULL, "number", 2e5, 0, W}}},
	{"zero", {{"zero", NULL, "number", 0, 0, W}}},
	{"831 Santa Barbara St", {{"831 Santa Barbara St", NULL, "ident:st:santabarbara", 831, 0, 0}}},
	{"5 million to 1 billion",
	 {{"5 million", "5 million to 1 billion", "number", 5e6, 0, R},
	  {"1 billion", "5 million to 1 billion", "number", 1e9, 0, R}}},

	/* years */
	{"since 1997", {{"1997", NULL, "date:year", 1997, 0, 0}}},
	{"in 2019 the firm grew", {{"2019", NULL, "date:year", 2019, 0, 0}}},
	{"Sales in 2021 grew.", {{"2021", NULL, "date:year", 2021, 0, 0}}},
	{"since 2019 prices rose", {{"2019", NULL, "date:year", 2019, 0, 0}}},
	{"in 2,021 cases", {{"2,021 cases", NULL, "case", 2021, 0, 0}}},
	{"in 2500 cases", {{"2500 cases", NULL, "case", 2500, 0, 0}}},
	{"the 2020 season", {{"2020", NULL, "date:year", 2020, 0, 0}}},
	{"the 2022 World Cup", {{"2022", NULL, "date:year", 2022, 0, 0}}},
	{"2,019 people", {{"2,019 people", NULL, "people", 2019, 0, 0}}},
	{"from 2015 to 2019", {{"2015", "2015 to 2019", "date:year", 2015, 0, R}, {"2019", "2015 to 2019", "date:year", 2019, 0, R}}},
	{"the 2019-20 season", {{"2019", "2019-20", "date:year", 2019, 0, R}, {"20", "2019-20", "date:year", 2020, 0, R}}},
	{"1990-1995", {{"1990", "1990-1995", "date:year", 1990, 0, R}, {"1995", "1990-1995", "date:year", 1995, 0, R}}},
	{"in 2019, 2020 and 2021",
	 {{"2019", NULL, "date:year", 2019, 0, 0}, {"2020", NULL, "date:year", 2020, 0, 0},
	  {"2021", NULL, "date:year", 2021, 0, 0}}},
	{"by mid-2020", {{"mid-2020", NULL, "date:year", 2020, 0, 0}}},
	/* A decade: its middle, at scale 10 (any year of it states it). */
	{"in the 1990s", {{"1990s", NULL, "date:year", 1994.5, 0, 0}}},
	{"in the mid-1990s", {{"mid-1990s", NULL, "date:year", 1994.5, 0, 0}}},
	/* a year that does something is no count of it */
	{"1876 saw the telephone arrive", {{"1876", NULL, "date:year", 1876, 0, 0}}},
	{"2008 marked a turn, and 1969 witnessed the landing",
	 {{"2008", NULL, "date:year", 2008, 0, 0}, {"1969", NULL, "date:year", 1969, 0, 0}}},
	/* a plain-text source's double dash between years */
	{"mayor from 2007 -- 11 before",
	 {{"2007", "2007 -- 11", "date:year", 2007, 0, R}, {"11", "2007 -- 11", "date:year", 2011, 0, R}}},
	{"the 1990 -- 1995 seasons",
	 {{"1990", "1990 -- 1995", "date:year", 1990, 0, R}, {"1995", "1990 -- 1995", "date:year", 1995, 0, R}}},
	{"In 2007 -- 5 people died",
	 {{"2007", NULL, "date:year", 2007, 0, 0}, {"5 people", NULL, "people", 5, 0, 0}}},
	/* dates written in lower case */
	{"opens on may 30 and runs until june 2",
	 {{"may 30", NULL, "date:day", 530, 0, 0}, {"june 2", NULL, "date:day", 602, 0, 0}}},
	{"held on 12 april 2019",
	 {{"12 april", "12 april 2019", "date:day", 412, 0, P}, {"2019", "12 april 2019", "date:year", 2019, 0, P}}},
	{"on march 3 they met", {{"march 3", NULL, "date:day", 303, 0, 0}}},
	{"they may 30 times a day", {{"30 times", NULL, "time", 30, 0, 0}}},
	{"voted on 30 may 2019",
	 {{"30 may", "30 may 2019", "date:day", 530, 0, P}, {"2019", "30 may 2019", "date:year", 2019, 0, P}}},
	{"the 30 may be late", {{"30", NULL, "number", 30, 0, 0}}},
	{"in the 1980's and late-1970\u2019s", {{"1980's", NULL, "date:year", 1984.5, 0, 0},
						  {"late-1970\u2019s", NULL, "date:year", 1974.5, 0, 0}}},
	{"the '90s, the \u201900s, the '10s", {{"'90s", NULL, "date:year", 1994.5, 0, 0},
						   {"\u201900s", NULL, "date:year", 2004.5, 0, 0},
						   {"'10s", NULL, "date:year", 2014.5, 0, 0}}},
	/* A year said as a side of a bound; not "until", "by", "since". */
	{"built before 1990, prior to 1991, pre-1992", {{"1990", NULL, "date:year", 1990, 0, BEFORE},
						       {"1991", NULL, "date:year", 1991, 0, BEFORE},
						       {"pre-1992", NULL, "date:year", 1992, 0, BEFORE}}},
	{"opened after 1980, post-1980, after the 1990s",
	 {{"1980", NULL, "date:year", 1980, 0, AFTER},
	  {"post-1980", NULL, "date:year", 1980, 0, AFTER},
	  {"1990s", NULL, "date:year", 1994.5, 0, AFTER}}},
	{"until 1997, by 2025, since 2019, after the 1990 vote",
	 {{"1997", NULL, "date:year", 1997, 0, 0}, {"2025", NULL, "date:year", 2025, 0, 0},
	  {"2019", NULL, "date:year", 2019, 0, 0}, {"1990", NULL, "date:year", 1990, 0, 0}}},
	/* No decade: an age, a temperature, the ambiguous '20s, no year of "pre-". */
	{"in their 70s, in the 80s, the '20s, pre-1990s, the 1995s, 1990sx", {{NULL}}},
	{"FY2021 results", {{"FY2021", NULL, "date:year", 2021, 0, 0}}},
	{"in fiscal 2021", {{"2021", NULL, "date:year", 2021, 0, 0}}},
	{"It has 2000 employees.", {{"2000 employees", NULL, "employee", 2000, 0, 0}}},
	{"founded in 1850", {{"1850", NULL, "date:year", 1850, 0, 0}}},
	{"a crowd of 1850 people", {{"1850 people", NULL, "people", 1850, 0, 0}}},
	{"a crowd of 1850.", {{"1850", NULL, "number", 1850, 0, 0}}},
	{"the year 2000 problem", {{"2000", NULL, "date:year", 2000, 0, 0}}},
	{"until a 1997 outbreak", {{"1997", NULL, "date:year", 1997, 0, 0}}},
	{"expect its 2020 revenue", {{"2020", NULL, "date:year", 2020, 0, 0}}},
	{"We now expect 2020 revenue", {{"2020", NULL, "date:year", 2020, 0, 0}}},
	{"a 2000 km trip", {{"2000 km", NULL, "km", 2000, 0, 0}}},
	/* an author-date citation's year, first in its parentheses or after a name in them */
	{"Rossi and Patel (2017) showed", {{"2017", NULL, "date:year", 2017, 0, C}}},
	{"as shown (Rossi, 2017)", {{"2017", NULL, "date:year", 2017, 0, C}}},
	{"as shown (Rossi et al., 2017; Patel, 2019)",
	 {{"2017", NULL, "date:year", 2017, 0, C}, {"2019", NULL, "date:year", 2019, 0, C}}},
	{"sales (in 2017) grew", {{"2017", NULL, "date:year", 2017, 0, 0}}},
	/* not: a count in parentheses, a year out of the modern range, no parenthesis, a lowercase word */
	{"Rossi (2017 patients) showed", {{"2017 patients", NULL, "patient", 2017, 0, 0}}},
	{"Rossi (1850) showed", {{"1850", NULL, "number", 1850, 0, 0}}},
	{"Rossi, 2017 showed", {{"2017", NULL, "number", 2017, 0, 0}}},
	{"(with patients, 2017 showed)", {{"2017", NULL, "number", 2017, 0, 0}}},
	{"Rossi) and Patel, 2017 showed", {{"2017", NULL, "number", 2017, 0, 0}}},

	/* dates */
	{"on March 26, 2024",
	 {{"March 26", "March 26, 2024", "date:day", 326, 0, P}, {"2024", "March 26, 2024", "date:year", 2024, 0, P}}},
	{"on the 26th of March", {{"26th of March", NULL, "date:day", 326, 0, 0}}},
	{"Jan. 18", {{"Jan. 18", NULL, "date:day", 118, 0, 0}}},
	{"on Jan. 17 it", {{"Jan. 17", NULL, "date:day", 117, 0, 0}}},
	{"due August 28th", {{"August 28th", NULL, "date:day", 828, 0, 0}}},
	{"26 March 2024",
	 {{"26 March", "26 March 2024", "date:day", 326, 0, P}, {"2024", "26 March 2024", "date:year", 2024, 0, P}}},
	{"in March 2024",
	 {{"March", "March 2024", "date:day", 300, 0, P}, {"2024", "March 2024", "date:year", 2024, 0, P}}},
	{"Sept. 5th, 2019",
	 {{"Sept. 5th", "Sept. 5th, 2019", "date:day", 905, 0, P}, {"2019", "Sept. 5th, 2019", "date:year", 2019, 0, P}}},
	{"March 26-28", {{"March 26", "March 26-28", "date:day", 326, 0, R}, {"28", "March 26-28", "date:day", 328, 0, R}}},
	{"March 26 vs March 20", {{"March 26", NULL, "date:day", 326, 0, 0}, {"March 20", NULL, "date:day", 320, 0, 0}}},
	{"on 2013-09-08.",
	 {{"2013", "2013-09-08", "date:year", 2013, 0, P}, {"09-08", "2013-09-08", "date:day", 908, 0, P}}},
	/* a file name's date is that date, not the range "2024-05" */
	{"the meeting-agenda-2024-05-15.docx file",
	 {{"2024", "2024-05-15", "date:year", 2024, 0, P}, {"05-15", "2024-05-15", "date:day", 515, 0, P}}},
	/* a record's date with a stray blank inside its month or day: that date */
	{"date: 2022-0 3-04\n",
	 {{"2022", "2022-0 3-04", "date:year", 2022, 0, P}, {"0 3-04", "2022-0 3-04", "date:day", 304, 0, P}}},
	{"on 2022-03-0 4.",
	 {{"2022", "2022-03-0 4", "date:year", 2022, 0, P}, {"03-0 4", "2022-03-0 4", "date:day", 304, 0, P}}},
	{"\"2013-09-08 17:30:24\"",
	 {{"2013", "2013-09-08 17:30:24", "date:year", 2013, 0, P},
	  {"09-08", "2013-09-08 17:30:24", "date:day", 908, 0, P},
	  {"17:30:24", "2013-09-08 17:30:24", "time:clock", 17 * 60 + 30 + 24 / 60.0, 0, P}}},
	{"2013-12-18T01:43:07Z",
	 {{"2013", "2013-12-18T01:43:07Z", "date:year", 2013, 0, P},
	  {"12-18", "2013-12-18T01:43:07Z", "date:day", 1218, 0, P},
	  {"01:43:07", "2013-12-18T01:43:07Z", "time:clock", 103 + 7 / 60.0, 0, P}}},
	{"at 2021-08-28T09:01+05:30.",
	 {{"2021", "2021-08-28T09:01+05:30", "date:year", 2021, 0, P},
	  {"08-28", "2021-08-28T09:01+05:30", "date:day", 828, 0, P},
	  {"09:01", "2021-08-28T09:01+05:30", "time:clock", 541, 0, P}}},
	/* A zone cut short at the end of the text ends at its hours (fuzz). */
	{"2021-08-28T09:01-91:0",
	 {{"2021", "2021-08-28T09:01-91", "date:year", 2021, 0, P},
	  {"08-28", "2021-08-28T09:01-91", "date:day", 828, 0, P},
	  {"09:01", "2021-08-28T09:01-91", "time:clock", 541, 0, P}}},
	{"in May", {{NULL}}},
	{"the 31st", {{"31st", NULL, "ordinal:n", 31, 0, 0}}},
	{"on March third", {{"March third", NULL, "date:day", 303, 0, W}}},

	/* times of day */
	{"from 3:00 pm to 9:00 pm",
	 {{"3:00 pm", "3:00 pm to 9:00 pm", "time:clock", 900, 0, R},
	  {"9:00 pm", "3:00 pm to 9:00 pm", "time:clock", 1260, 0, R}}},
	{"open 11 am to 11 pm",
	 {{"11 am", "11 am to 11 pm", "time:clock", 660, 0, R}, {"11 pm", "11 am to 11 pm", "time:clock", 1380, 0, R}}},
	{"\"Monday\": \"11:0-22:0\"",
	 {{"11:0", "11:0-22:0", "time:clock", 660, 0, R}, {"22:0", "11:0-22:0", "time:clock", 1320, 0, R}}},
	{"\"Saturday\": \"7:0-16:0\"",
	 {{"7:0", "7:0-16:0", "time:clock", 420, 0, R}, {"16:0", "7:0-16:0", "time:clock", 960, 0, R}}},
	{"opens at 5 pm", {{"5 pm", NULL, "time:clock", 1020, 0, 0}}},
	{"opens at 17:00", {{"17:00", NULL, "time:clock", 1020, 0, 0}}},
	{"at 5:30 p.m. sharp", {{"5:30 p.m.", NULL, "time:clock", 1050, 0, 0}}},
	{"at 5:30pm", {{"5:30pm", NULL, "time:clock", 1050, 0, 0}}},
	{"at 12 noon", {{"12 noon", NULL, "time:clock", 720, 0, 0}}},
	{"at noon", {{"noon", NULL, "time:clock", 720, 0, W}}},
	{"until midnight", {{"midnight", NULL, "time:clock", 0, 0, W}}},
	{"9-11 am", {{"9", "9-11 am", "time:clock", 540, 0, R}, {"11 am", "9-11 am", "time:clock", 660, 0, R}}},
	{"11 to 2 pm", {{"11", "11 to 2 pm", "time:clock", 660, 0, R}, {"2 pm", "11 to 2 pm", "time:clock", 840, 0, R}}},
	{"at 12 am", {{"12 am", NULL, "time:clock", 0, 0, 0}}},
	{"a 16:9 screen", {{NULL}}},
	/* A ratio to one with decimals; a score or a time has none. */
	{"a debt-to-equity ratio of 11.9:1 by then", {{"11.9:1", NULL, "ratio", 11.9, 1, 0}}},
	{"at 2.5:1.", {{"2.5:1", NULL, "ratio", 2.5, 1, 0}}},
	{"won 3:1 today", {{NULL}}},
	{"1.5:10 and 2.5:1.5", {{NULL}}},

	/* temperatures */
	{"72\xc2\xb0" "F today", {{"72\xc2\xb0" "F", NULL, "temp:c", F_TO_C(72), 0, 0}}},
	{"72 \xc2\xb0" "F today", {{"72 \xc2\xb0" "F", NULL, "temp:c", F_TO_C(72), 0, 0}}},
	{"22 degrees Celsius", {{"22 degrees Celsius", NULL, "temp:c", 22, 0, 0}}},
	{"a high of 90 degrees Fahrenheit", {{"90 degrees Fahrenheit", NULL, "temp:c", F_TO_C(90), 0, 0}}},
	{"about 72 degrees", {{"72 degrees", NULL, "temp:deg", 72, 0, A}}},
	{"Preheat to 180\xc2\xb0" "C/350\xc2\xb0" "F/gas 4.",
	 {{"180\xc2\xb0" "C", NULL, "temp:c", 180, 0, 0}, {"350\xc2\xb0" "F", NULL, "temp:c", F_TO_C(350), 0, 0},
	  {"4", NULL, "number", 4, 0, 0}}},
	{"at -5\xc2\xb0" "C", {{"-5\xc2\xb0" "C", NULL, "temp:c", -5, 0, 0}}},
	{"21.5 \xc2\xb0" "C", {{"21.5 \xc2\xb0" "C", NULL, "temp:c", 21.5, 1, 0}}},
	{"70-75\xc2\xb0" "F",
	 {{"70", "70-75\xc2\xb0" "F", "temp:c", F_TO_C(70), 0, R}, {"75\xc2\xb0" "F", "70-75\xc2\xb0" "F", "temp:c", F_TO_C(75), 0, R}}},
	{"30\xe2\x84\x83", {{"30\xe2\x84\x83", NULL, "temp:c", 30, 0, 0}}},

	/* quarters */
	{"In Q4 sales fell.", {{"Q4", NULL, "quarter", 4, 0, 0}}},
	{"Q3 2021 results",
	 {{"Q3", "Q3 2021", "quarter", 3, 0, P}, {"2021", "Q3 2021", "date:year", 2021, 0, P}}},
	{"4Q results", {{"4Q", NULL, "quarter", 4, 0, 0}}},
	{"in the third quarter", {{"third quarter", NULL, "quarter", 3, 0, W}}},
	{"the fourth quarter of 2021",
	 {{"fourth quarter", "fourth quarter of 2021", "quarter", 4, 0, W | P},
	  {"2021", "fourth quarter of 2021", "date:year", 2021, 0, P}}},
	{"3Q21 sales", {{"3Q", "3Q21", "quarter", 3, 0, P}, {"21", "3Q21", "date:year", 2021, 0, P}}},
	{"the 2nd quarter", {{"2nd quarter", NULL, "quarter", 2, 0, 0}}},
	{"its fifth quarter of 2021",
	 {{"fifth quarter", "fifth quarter of 2021", "quarter", 5, 0, W | P},
	  {"2021", "fifth quarter of 2021", "date:year", 2021, 0, P}}},

	/* ordinals */
	{"the third", {{"third", NULL, "ordinal:n", 3, 0, W}}},
	{"on the 28th", {{"28th", NULL, "ordinal:n", 28, 0, 0}}},
	{"3rd place", {{"3rd", NULL, "ordinal:n", 3, 0, 0}}},
	{"the twenty-first", {{"twenty-first", NULL, "ordinal:n", 21, 0, W}}},
	{"a third of them", {{NULL}}},
	{"two-thirds of them", {{NULL}}},
	{"one third", {{NULL}}},
	{"a second opinion", {{NULL}}},

	/* identifiers */
	{"SARS-CoV-2 spread", {{"SARS-CoV-2", NULL, "ident:sarscov#", 2, 0, 0}}},
	{"COVID-19 cases", {{"COVID-19", NULL, "ident:covid#", 19, 0, 0}}},
	{"covid-19 cases", {{"covid-19", NULL, "ident:covid#", 19, 0, 0}}},
	{"3D printing", {{"3D", NULL, "ident:#d", 3, 0, 0}}},
	{"the A320 jet", {{"A320", NULL, "ident:a#", 320, 0, 0}}},
	{"on Windows 10", {{"Windows 10", NULL, "ident:windows#", 10, 0, 0}}},
	{"the iPhone 15 launch", {{"iPhone 15", NULL, "ident:iphone#", 15, 0, 0}}},
	{"H1N1 flu", {{"H1N1", NULL, "ident:h#n#", 11, 0, 0}}},
	{"the F-35 jet", {{"F-35", NULL, "ident:f#", 35, 0, 0}}},
	{"GPT-4 and GPT 4", {{"GPT-4", NULL, "ident:gpt#", 4, 0, 0}, {"GPT 4", NULL, "ident:gpt#", 4, 0, 0}}},
	{"5G networks", {{"5G", NULL, "ident:#g", 5, 0, 0}}},

	/* counts of the text itself */
	{"a summary in 68 words", {{"68 words", NULL, "word", 68, 0, S}}},
	{"within 84 words", {{"84 words", NULL, "word", 84, 0, S}}},
	{"in 200 words or less", {{"200 words", NULL, "word", 200, 0, S}}},
	{"a 68-word summary", {{"68-word", NULL, "word", 68, 0, S}}},
	{"Here are 5 tips", {{"5 tips", NULL, "tip", 5, 0, S}}},
	{"These 3 steps matter", {{"3 steps", NULL, "step", 3, 0, S}}},
	{"the following 4 options", {{"4 options", NULL, "option", 4, 0, S}}},
	{"Top 10 reasons", {{"10 reasons", NULL, "reason", 10, 0, S}}},
	{"Here are five ways", {{"five ways", NULL, "way", 5, 0, S | W}}},
	{"Here are 5 quick tips", {{"5 quick", NULL, "quick", 5, 0, S}}},
	{"We found 5 tips in it", {{"5 tips", NULL, "tip", 5, 0, 0}}},
	/* the answer's own list, from a cue a few words before or a word or colon after */
	{"Here's a list of 5 tips:", {{"5 tips", NULL, "tip", 5, 0, S}}},
	{"Let me share 7 ideas.", {{"7 ideas", NULL, "idea", 7, 0, S}}},
	{"Below are 4 options to consider.", {{"4 options", NULL, "option", 4, 0, S}}},
	{"The 5 best tips below help.", {{"5 best", NULL, "best", 5, 0, S}}},
	{"There are 3 key takeaways:", {{"3 key takeaways", NULL, "takeaway", 3, 0, S}}},
	{"In short, 3 things matter:", {{"3 things", NULL, "thing", 3, 0, S}}},
	{"The report lists 4 ways to cut costs.", {{"4 ways", NULL, "way", 4, 0, 0}}},
	{"It took 3 steps to fix it, as above.", {{"3 steps", NULL, "step", 3, 0, 0}}},
	{"Its share rose 5 points.", {{"5 points", NULL, "point", 5, 0, 0}}},
	{"The index fell below 5 points.", {{"5 points", NULL, "point", 5, 0, 0}}},
	{"in 3 sentences", {{"3 sentences", NULL, "sentence", 3, 0, S}}},
	{"250 characters", {{"250 characters", NULL, "character", 250, 0, S}}},

	/* list markers */
	{"7. Preheat the grill", {{"7", NULL, "number", 7, 0, L}}},
	{"Mix well.\n4) Stir", {{"4", NULL, "number", 4, 0, L}}},
	{"- 2. Add salt", {{"2", NULL, "number", 2, 0, L}}},
	{"## 3. Results", {{"3", NULL, "number", 3, 0, L}}},
	{"It rose 7. Then it fell.", {{"7", NULL, "number", 7, 0, 0}}},
	/* an item's number mid-line: the shape alone (claims.c reads the run) */
	{"shops: 1. Carto, 2) Globe; 3. Atlas", {{"1", NULL, "number", 1, 0, I}, {"2", NULL, "number", 2, 0, I},
						 {"3", NULL, "number", 3, 0, I}}},
	{"4. Agence Logistique", {{"4", NULL, "number", 4, 0, L}}},
	{"Total: 5. Then, 2.5. Or 0. Or 1,000.", {{"5", NULL, "number", 5, 0, I}, {"2.5", NULL, "number", 2.5, 1, 0},
						  {"0", NULL, "number", 0, 0, 0}, {"1,000", NULL, "number", 1000, 0, 0}}},
	{"7.5 million", {{"7.5 million", NULL, "number", 7.5e6, 1, 0}}},

	/* references */
	{"(Passage 2)", {{"Passage 2", NULL, "number", 2, 0, F}}},
	{"Document 3 says so", {{"Document 3", NULL, "number", 3, 0, F}}},
	{"per Source 1,", {{"Source 1", NULL, "number", 1, 0, F}}},
	{"as noted in [2].", {{"2", NULL, "number", 2, 0, F}}},
	{"see [1, 3]", {{"1", NULL, "number", 1, 0, F}, {"3", NULL, "number", 3, 0, F}}},
	{"Passages 1 and 2 agree", {{"Passages 1", NULL, "number", 1, 0, F}, {"2", NULL, "number", 2, 0, F}}},
	{"Repeat steps 4 through 6", {{"steps 4", NULL, "number", 4, 0, F}, {"6", NULL, "number", 6, 0, F}}},
	{"Repeat steps 4 to 6.", {{"steps 4", NULL, "number", 4, 0, F}, {"6", NULL, "number", 6, 0, F}}},
	{"Method 2 uses a shortcut", {{"Method 2", NULL, "number", 2, 0, F}}},
	{"see Table 2", {{"Table 2", NULL, "number", 2, 0, F}}},
	/* labels of numbered parts, the answer's own or a document's: no figures */
	{"Repeat steps 2-6 for each.", {{"steps 2", NULL, "number", 2, 0, F}, {"6", NULL, "number", 6, 0, F}}},
	{"then go back to step 4", {{"step 4", NULL, "number", 4, 0, F}}},
	/* ...but a line's number points into a tool's output (a traceback, a
	 * listing), which says it: a figure, checked */
	{"the bug is on line 12 of the file", {{"12", NULL, "number", 12, 0, 0}}},
	{"under Section 230 of the act", {{"Section 230", NULL, "number", 230, 0, F}}},
	{"chapters 3 and 4", {{"chapters 3", NULL, "number", 3, 0, F}, {"4", NULL, "number", 4, 0, F}}},
	{"items 2 and 5 are out", {{"items 2", NULL, "number", 2, 0, F}, {"5", NULL, "number", 5, 0, F}}},
	/* ...a figure before the noun still counts */
	{"It takes 5 steps and 3 items.", {{"5 steps", NULL, "step", 5, 0, 0}, {"3 items", NULL, "item", 3, 0, 0}}},

	/* hexadecimal: its value */
	{"while local_10 < 0x10; c ^= 0XaB", {{"0x10", NULL, "number", 16, 0, H}, {"0XaB", NULL, "number", 171, 0, H}}},
	{"at 0x00000000004011d6.", {{"0x00000000004011d6", NULL, "number", 4198870, 0, H}}},
	{"0x1g, 0x1_ff, 0xFFFFFFFFFFFFFFFF, x=0x14", {{NULL}}},

	/* fixed phrases */
	{"open seven days a week", {{"seven days", NULL, "seconds", 7 * 86400, 0, W | X}}},
	{"24/7 support", {{"24/7", NULL, "number", 24, 0, X}}},
	{"24 hours a day", {{"24 hours", NULL, "seconds", 86400, 0, X}}},
	{"one of the best", {{"one", NULL, "number", 1, 0, W | X}}},
	{"No one else came", {{"one", NULL, "number", 1, 0, W | X}}},
	{"at one point", {{"one point", NULL, "point", 1, 0, W | X}}},
	{"one or two", {{"one", NULL, "number", 1, 0, W | X}, {"two", NULL, "number", 2, 0, W}}},
	{"help one another", {{"one", NULL, "number", 1, 0, W | X}}},
	{"One day, we", {{"One day", NULL, "seconds", 86400, 0, W | X}}},
	{"first of all", {{"first", NULL, "ordinal:n", 1, 0, W | X}}},
	{"3.5 out of 5 stars", {{"3.5", NULL, "number", 3.5, 1, 0}, {"5 stars", NULL, "star", 5, 0, X}}},
	{"8 out of ten dentists", {{"8", NULL, "number", 8, 0, 0}, {"ten dentists", NULL, "dentist", 10, 0, W | X}}},
	{"7 out of 19 deaths", {{"7", NULL, "number", 7, 0, 0}, {"19 deaths", NULL, "death", 19, 0, 0}}},
	{"out of 50 stars", {{"50 stars", NULL, "star", 50, 0, 0}}},

	/* versions */
	{"in v2.3.1 notes", {{"v2.3.1", NULL, "version:", 2003001, 0, V}}},
	{"Python 3.11 is out", {{"Python 3.11", NULL, "version:python", 3011, 0, V}}},
	{"bumped to 1.16.0", {{"1.16.0", NULL, "version:", 1016000, 0, V}}},
	{"version 2 is out", {{"version 2", NULL, "version:", 2, 0, V}}},
	{"iOS 17.2 fixed it", {{"iOS 17.2", NULL, "version:ios", 17002, 0, V}}},
	{"host 192.168.1.1", {{"192.168.1.1", NULL, "version:", 192168001001.0, 0, V}}},
	{"GPT-3.5 and v2", {{"GPT-3.5", NULL, "version:gpt", 3005, 0, V}, {"v2", NULL, "version:", 2, 0, V}}},

	/* skipped */
	{"see https://example.com/2019/05/report-42 now", {{NULL}}},
	{"at www.site2.com today", {{NULL}}},
	{"mail bob42@mail.com or Ann.Lee7@x.org", {{NULL}}},
	{"user_42 and _9", {{NULL}}},
	{"test_case_3, B_12, Room_1x", {{NULL}}}, /* (no name: code's, a letter, glued on) */
	{"join External_0 or Room_12", {{"External_0", NULL, "ident:external#", 0, 0, 0},
					{"Room_12", NULL, "ident:room#", 12, 0, 0}}},
	{"id a1b2c3 and 0x1F", {{"0x1F", NULL, "number", 31, 0, H}}}, /* (hex: its value) */
	{"Call 555 0100 now", {{NULL}}},
	{"call 555-0100", {{NULL}}},
	{"1 415 555 0100", {{"1", NULL, "number", 1, 0, 0},
			    {"415 555 0100", NULL, "ident:phone", 4155550100.0, 0, 0}}},

	/* house numbers: identifiers of their street */
	{"at 1234 Main St.", {{"1234 Main St", NULL, "ident:st:main", 1234, 0, 0}}},
	{"at 55 Fifth Avenue", {{"55 Fifth Avenue", NULL, "ident:st:fifth", 55, 0, 0}}},
	{"at 377 Santana Row #1000", {{"377 Santana Row", NULL, "ident:st:santana", 377, 0, 0}}},
	{"at 123-04 Roosevelt Ave", {{"123-04 Roosevelt Ave", NULL, "ident:st:roosevelt", 12304, 0, 0}}},
	{"at 9 Martin Luther King Jr Blvd", {{"9", NULL, "number", 9, 0, 0}}},
	{"at 9 Martin Luther King Blvd", {{"9 Martin Luther King Blvd", NULL, "ident:st:martinlutherki", 9, 0, 0}}},
	{"$12 Main Street", {{"$12", NULL, "usd", 12, 0, 0}}},
	{"12 Street", {{"12", NULL, "number", 12, 0, 0}}},

	/* phone numbers: identifiers of their digits, however spaced */
	{"+1 (415) 555-0100", {{"+1 (415) 555-0100", NULL, "ident:phone", 4155550100.0, 0, 0}}},
	{"call 415-555-0100", {{"415-555-0100", NULL, "ident:phone", 4155550100.0, 0, 0}}},
	{"call (415) 555-0100.", {{"(415) 555-0100", NULL, "ident:phone", 4155550100.0, 0, 0}}},
	{"call 415.555.0100 now", {{"415.555.0100", NULL, "ident:phone", 4155550100.0, 0, 0}}},
	{"call 415 555 0100 now", {{"415 555 0100", NULL, "ident:phone", 4155550100.0, 0, 0}}},
	{"or +1 415 555 0100", {{"+1 415 555 0100", NULL, "ident:phone", 4155550100.0, 0, 0}}},
	{"or 1-415-555-0100", {{"1-415-555-0100", NULL, "ident:phone", 4155550100.0, 0, 0}}},
	{"or +14155550100", {{"+14155550100", NULL, "ident:phone", 4155550100.0, 0, 0}}},
	{"London +44 20 7946 0958", {{"+44 20 7946 0958", NULL, "ident:phone", 442079460958.0, 0, 0}}},
	{"issue #42", {{NULL}}},
	{"open file_v2.txt", {{NULL}}},
	{"on 3/26/2024", {{NULL}}},
	{"add 1/2 cup", {{NULL}}},
	{"C:\\data\\run2", {{NULL}}},
	{"key=42&x=7", {{NULL}}},
	{"999999999999999999 ids", {{NULL}}},

	/* near misses: no number here */
	{"many people came", {{NULL}}},
	{"someone often", {{NULL}}},
	{"hundreds of people", {{NULL}}},
	{"dozens of them", {{NULL}}},
	/* a duration a word implies (claims.c takes them for no claim) */
	{"a couple of days", {{"a couple of days", NULL, "seconds", 2 * 86400, 0, W | M}}},
	{"for each year in the last decade", {{"decade", NULL, "seconds", 10 * 31536000.0, 0, W | M}}},
	{"in a fortnight, half an hour", {{"fortnight", NULL, "seconds", 14 * 86400, 0, W | M},
					  {"half an hour", NULL, "seconds", 1800, 1, W | M}}},
	{"half of them, a happy couple, couple of days, half-hour", {{NULL}}},
	{"An thousand n", {{NULL}}},
	{"an hundred", {{NULL}}},
	{"Ones and tens", {{NULL}}},
	{"the Fifth Avenue", {{"Fifth", NULL, "ordinal:n", 5, 0, W}}},
	{"a 500-1000 range", {{"500", "500-1000 range", "range", 500, 0, R}, {"1000 range", "500-1000 range", "range", 1000, 0, R}}},
	{"500-1000 or 867-5309", {{"500", "500-1000", "number", 500, 0, R}, {"1000", "500-1000", "number", 1000, 0, R}}},
};

struct got {
	struct numlex_item it[16];
	size_t n;
};

static int collect(void *ctx, const struct numlex_item *it)
{
	struct got *g = ctx;

	if (g->n < ARRAY_SIZE(g->it))
		g->it[g->n] = *it;
	g->n++;
	return 0;
}

static void report(const char *text, const struct got *g, const char *why)
{
	size_t i;

	fprintf(stderr, "  \"%s\": %s; got %zu:\n", text, why, g->n);
	for (i = 0; i < g->n && i < ARRAY_SIZE(g->it); i++) {
		const struct numlex_item *it = &g->it[i];

		fprintf(stderr, "    \"%.*s\" in \"%.*s\" %s %.10g dec %d flags %#x\n",
			(int)(it->part_to - it->part_from), text + it->part_from,
			(int)(it->to - it->from), text + it->from, it->q.unit, it->q.value, it->q.decimals,
			it->flags);
	}
}

static bool near_value(double a, double b)
{
	return fabs(a - b) <= 1e-9 * MAX(1, fabs(b));
}

TEST(numlex_cases)
{
	size_t c, failed = 0;

	CHECK(ARRAY_SIZE(cases) >= 150);
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		const struct lcase *k = &cases[c];
		const char *text = k->text;
		struct got g = {.n = 0};
		size_t i, nwant = 0, at = 0, span_at = 0;
		const char *why = NULL;

		while (nwant < ARRAY_SIZE(k->items) && k->items[nwant].part)
			nwant++;
		lex_all(text, strlen(text), NUMLEX_LINE_START, collect, &g);
		if (g.n != nwant)
			why = "a different number of items";
		for (i = 0; !why && i < nwant; i++) {
			const struct want *w = &k->items[i];
			const struct numlex_item *it = &g.it[i];
			const char *span = w->span ? w->span : w->part;
			/* A part starts after the one before; a span where the one before does, or after. */
			const char *pf = strstr(text + at + (i > 0), w->part), *sf = strstr(text + span_at, span);

			if (!pf || !sf) {
				why = "(the case names text it does not have)";
				break;
			}
			if (it->part_from != (size_t)(pf - text) || it->part_to != it->part_from + strlen(w->part))
				why = "a part elsewhere";
			else if (it->from != (size_t)(sf - text) || it->to != it->from + strlen(span))
				why = "a span elsewhere";
			else if (strcmp(it->q.unit, w->unit) != 0 ||
				 it->q.unit_hash != quantity_unit_hash(w->unit))
				why = "another unit";
			else if (!near_value(it->q.value, w->value))
				why = "another value";
			else if (it->q.decimals != w->decimals)
				why = "other decimals";
			else if (it->flags != w->flags)
				why = "other flags";
			at = (size_t)(pf - text);
			span_at = (size_t)(sf - text);
		}
		if (why) {
			report(text, &g, why);
			failed++;
		}
	}
	CHECK_EQ(failed, 0);
}

/* ---- comparisons of the new kinds ---- */

static struct quantity q_of(const char *text)
{
	struct got g = {.n = 0};

	lex_all(text, strlen(text), 0, collect, &g);
	if (g.n == 0) {
		struct quantity none;

		fprintf(stderr, "  no item in \"%s\"\n", text);
		CHECK(!"a comparison case reads no item");
		quantity_set(&none, QUANTITY_NUMBER, "none", NAN, 1);
		return none;
	}
	return g.it[0].q;
}

/* The item of text whose part reads part. */
static struct quantity q_part(const char *text, const char *part)
{
	struct got g = {.n = 0};
	size_t i;

	lex_all(text, strlen(text), 0, collect, &g);
	for (i = 0; i < g.n && i < ARRAY_SIZE(g.it); i++)
		if (g.it[i].part_to - g.it[i].part_from == strlen(part) &&
		    memcmp(text + g.it[i].part_from, part, strlen(part)) == 0)
			return g.it[i].q;
	fprintf(stderr, "  no part \"%s\" in \"%s\"\n", part, text);
	CHECK(!"a comparison case names a part not read");
	return q_of(text);
}

static const struct {
	const char *answer, *grounded;
	bool states, comparable;
	double distance; /* NAN: not checked */
} comparisons[] = {
	/* times: "5 pm" = "17:00"; an hour is stated by a minute that rounds to it */
	{"at 5 pm", "at 17:00", true, true, 0},
	{"at 5 pm", "\"Friday\": \"17:0\"", true, true, 0},
	{"at 5 pm", "at 17:05", true, true, 5 / 720.0},
	{"at 5:30 pm", "at 17:30", true, true, 0},
	{"at 5:30 pm", "at 5 pm", false, true, 30 / 720.0},
	{"at 11 pm", "at 22:00", false, true, 60 / 720.0},
	{"at 11:30 pm", "at 0:30", false, true, 60 / 720.0},
	{"at noon", "at 12:00", true, true, 0},
	{"at 3 pm", "on March 3", false, false, NAN},
	/* dates: a month-day states the same month-day; a month alone is stated by any of its days */
	{"on March 26", "on March 26, 2024", true, true, 0},
	{"on March 26", "on 26 March", true, true, 0},
	{"on March 26", "on March 20", false, true, 6 / 120.0},
	{"on Jan. 18", "on Jan. 17", false, true, 1 / 120.0},
	{"on Feb. 1", "on Jan. 31", false, true, 1 / 120.0},
	{"in March 2024", "on March 26, 2024", true, true, 0},
	{"on March 26", "in March 2024", false, true, 0},
	{"in April 2024", "on March 26, 2024", false, true, 30 / 120.0},
	{"on March 26", "326 people", false, false, NAN},
	/* years: a year states only its year; a bare number states it */
	{"in 2019", "since 2019", true, true, 0},
	{"in 2019", "in 2020", false, true, 1 / 40.0},
	{"in 2019", "\"year\": 2019", true, true, 0},
	{"in 2019", "2,019 people", false, false, NAN},
	{"in 2019", "for 2019 days", false, false, NAN},
	/* decades: any year of one states it, from its first to its last; a
	 * decade states a decade, never a year (the answer's is more precise) */
	{"in the 1990s", "in 1990", true, true, 4.5 / 40},
	{"in the 1990s", "in 1999", true, true, 4.5 / 40},
	{"in the 1990s", "since 2000", false, true, 5.5 / 40},
	{"in the 1990s", "in 1989", false, true, 5.5 / 40},
	{"in the 1990s", "\"year\": 1994", true, true, 0.5 / 40},
	{"in the 1990s", "\"year\": 2001", false, true, NAN},
	{"in the 1990s", "\"count\": 199", false, true, NAN},
	{"in the '90s", "the mid-1990s", true, true, 0},
	{"in the 1980s", "in the 1990s", false, true, 10 / 40.0},
	{"in 1994", "in the 1990s", false, true, 0.5 / 40},
	{"in the 1990s", "1994 people", false, false, NAN},
	/* temperatures: the grounded value in the answer's unit, at its precision */
	{"72\xc2\xb0" "F", "22.2 \xc2\xb0" "C", true, true, 0.0222 / 40},
	{"72\xc2\xb0" "F", "22 \xc2\xb0" "C", true, true, (F_TO_C(72) - 22) / 40}, /* 71.6 F */
	{"72\xc2\xb0" "F", "21.5 \xc2\xb0" "C", false, true, (F_TO_C(72) - 21.5) / 40}, /* 70.7 F */
	{"22 \xc2\xb0" "C", "72\xc2\xb0" "F", true, true, NAN},
	{"72 degrees", "22.2 \xc2\xb0" "C", true, true, NAN},
	{"72 degrees", "72 \xc2\xb0" "F", true, true, NAN},
	{"22 degrees", "72 \xc2\xb0" "F", true, true, NAN},
	{"75\xc2\xb0" "F", "72\xc2\xb0" "F", false, true, (F_TO_C(75) - F_TO_C(72)) / 40},
	{"72\xc2\xb0" "F", "\"temp_f\": 72", true, true, 0},
	{"72\xc2\xb0" "F", "72 inches", false, false, NAN},
	/* a conversion between scales, as a recipe rounds it; not a fever for 37 C */
	{"175\xc2\xb0" "C", "350\xc2\xb0" "F", true, true, NAN},
	{"350 degrees F", "180\xc2\xb0" "C", true, true, NAN},
	{"400\xc2\xb0" "F", "200 degrees Celsius", true, true, NAN},
	{"190\xc2\xb0" "C", "350\xc2\xb0" "F", false, true, NAN},
	{"99\xc2\xb0" "F", "37\xc2\xb0" "C", true, true, NAN},
	{"100\xc2\xb0" "F", "37\xc2\xb0" "C", false, true, NAN},
	/* identifiers: only the same name, and then any other digits are near */
	{"SARS-CoV-2", "SARS-CoV-2", true, true, 0},
	{"SARS-CoV-4", "SARS-CoV-2", false, true, NAN},
	{"COVID-19", "covid-19", true, true, 0},
	{"3D", "4D", false, true, NAN},
	{"Windows 11", "Windows 10", false, true, NAN},
	{"Windows 10", "iPhone 10", false, false, NAN},
	{"Windows 10", "10 windows", false, false, NAN},
	{"A320", "\"model\": 320", false, false, NAN},
	/* ordinals */
	{"the 31st", "the 30th", false, true, 1 / 30.0},
	{"the third", "the 3rd", true, true, 0},
	{"the third", "rank: 3", true, true, 0},
	/* quarters (an existing kind), "3Q" and "Q3" alike */
	{"3Q results", "in Q3", true, true, 0},
	{"the third quarter", "Q3", true, true, 0},
	{"Q4", "Q3", false, true, 1 / 3.0},
	/* number words in the grounding */
	{"5 crew", "five members of the crew", true, false, NAN}, /* a figure in common */
	{"15 passengers", "Fifteen passengers", true, true, 0},
	{"25 people", "twenty five people", true, true, 0},
	{"12 eggs", "a dozen eggs", true, true, 0},
	{"14 days", "two weeks", true, true, 0},
	{"200,000 people", "two hundred thousand people", true, true, 0},
	{"12.50 Euros", "twelve Euros and fifty centimes", true, true, 0},
	{"12.50 Euros", "twelve dot fifty Euros", true, true, 0},
	{"12 Euros", "twelve dot fifty Euros", false, true, 0.04}, /* 12.50 rounds to 13 */
	{"12.75 Euros", "twelve dot fifty Euros", false, true, 0.25 / 12.5},
	/* hyphenated units, ranges end by end, counts */
	{"a 6-month trial", "a 3-month trial", false, true, 1},
	{"a 6-month trial", "six months", true, true, 0},
	{"a 68-word summary", "within 68 words", true, true, 0},
	{"2,450 units", "2,400 units", false, true, 50 / 2400.0},
	{"over 100 people", "over 50 people", false, true, 1},
};

TEST(numlex_comparisons)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(comparisons); i++) {
		struct quantity a = q_of(comparisons[i].answer), g = q_of(comparisons[i].grounded);
		bool states = quantity_states(&a, &g), comparable = quantity_comparable(&a, &g);
		double d = quantity_distance(&a, &g);

		if (states != comparisons[i].states || comparable != comparisons[i].comparable ||
		    (!isnan(comparisons[i].distance) && fabs(d - comparisons[i].distance) > 1e-6)) {
			fprintf(stderr, "  \"%s\" against \"%s\": states %d comparable %d distance %g\n",
				comparisons[i].answer, comparisons[i].grounded, states, comparable, d);
			CHECK(!"a comparison other than expected");
		}
	}
}

/* Range ends compare end by end: nothing special. */
TEST(numlex_ranges_compare_end_by_end)
{
	struct quantity a1 = q_part("3-5% growth", "3"), a2 = q_part("3-5% growth", "5%");
	struct quantity g1 = q_part("1-3% growth", "1"), g2 = q_part("1-3% growth", "3%");
	struct quantity i50 = q_part("50-60 inches", "50"), i40 = q_of("40 inches");

	CHECK(quantity_states(&a1, &g2)); /* 3 is the source's upper end */
	CHECK(!quantity_states(&a2, &g1) && !quantity_states(&a2, &g2));
	CHECK(quantity_comparable(&a2, &g2));
	CHECK(fabs(quantity_distance(&a2, &g2) - 2 / 3.0) < 1e-9);
	CHECK(!quantity_states(&i50, &i40) && quantity_comparable(&i50, &i40));
	CHECK(fabs(quantity_distance(&i50, &i40) - 0.25) < 1e-9);
}

/* The parts of a compound compare as the same parts written alone. */
TEST(numlex_parts_compare_alone)
{
	struct quantity d = q_part("on 2013-09-08 17:30:00", "09-08");
	struct quantity y = q_part("on 2013-09-08 17:30:00", "2013");
	struct quantity t = q_part("on 2013-09-08 17:30:00", "17:30:00");
	struct quantity s24 = q_part("on 2013-09-08 17:30:24", "17:30:24");
	struct quantity sept = q_of("on September 8"), year = q_of("since 2013"), half = q_of("at 5:30 pm");

	CHECK(quantity_states(&sept, &d) && quantity_states(&d, &sept));
	CHECK(quantity_states(&year, &y));
	/* 17:30:00 and 5:30 pm state each other (":00" claims nothing more);
	 * 17:30:24 states 5:30 pm to the minute, and is not stated by it */
	CHECK(quantity_states(&half, &t) && quantity_states(&t, &half));
	CHECK(quantity_states(&half, &s24) && !quantity_states(&s24, &half));
}

/* The range a search by unit must cover holds every value within tolerance. */
TEST(numlex_near_range_covers_the_distance)
{
	static const char *const answers[] = {
		"in 2019", "on March 26", "on Jan. 3", "on Dec. 30", "in March 2024", "at 5 pm",
		"at 0:30", "at 23:50", "72\xc2\xb0" "F", "the 31st", "140 employees", "$1.2 billion",
		"12.6%",
	};
	unsigned seed = 7;
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(answers); i++) {
		struct quantity a = q_of(answers[i]);
		double lo, hi;

		quantity_near_range(&a, 0.25, &lo, &hi);
		CHECK(lo <= a.value && a.value <= hi);
		for (k = 0; k < 2000; k++) {
			struct quantity g = a;

			seed = seed * 1103515245u + 12345u;
			g.value = a.value * (0.2 + (seed >> 8) % 1600 / 1000.0) + ((seed >> 4) % 7) - 3;
			if (a.kind == QUANTITY_DATE) {
				g.value = (double)(1 + (seed >> 8) % 12) * 100 + (seed >> 12) % 29 * (g.scale == 100 ? 0 : 1);
				g.scale = (seed >> 20) % 4 == 0 ? 100 : 1;
				if (g.scale == 100)
					g.value = floor(g.value / 100) * 100;
			}
			if (quantity_distance(&a, &g) <= 0.25 && (g.value < lo || g.value > hi)) {
				fprintf(stderr, "  %s: %g is near, outside [%g, %g]\n", answers[i], g.value, lo, hi);
				CHECK(!"a near value outside the near range");
				break;
			}
		}
	}
}

/* ---- properties ---- */

struct order {
	const char *text;
	size_t n, last_from, last_part, last_to, items;
	bool bad;
	const char *why;
};

static int check_order(void *ctx, const struct numlex_item *it)
{
	struct order *o = ctx;

	o->items++;
	if (it->from > it->to || it->part_from > it->part_to || it->to > o->n || it->part_from < it->from ||
	    it->part_to > it->to || it->part_from == it->part_to)
		o->why = "an item out of its bounds";
	else if (it->from < o->last_from)
		o->why = "items out of order";
	else if (it->from == o->last_from && it->to == o->last_to && it->part_from < o->last_part)
		o->why = "the parts of an expression out of order";
	else if (it->from != o->last_from && it->from < o->last_to)
		o->why = "expressions that overlap";
	else if (!isfinite(it->q.value) || it->q.unit[0] == '\0' ||
		 it->q.unit_hash != quantity_unit_hash(it->q.unit) || it->q.scale == 0)
		o->why = "a quantity not filled in";
	if (o->why)
		o->bad = true;
	o->last_from = it->from;
	o->last_to = it->to;
	o->last_part = it->part_from;
	return 0;
}

static const char *const pieces[] = {
	"$", "\xe2\x82\xac", "\xc2\xa3", "US$", "USD ", "1", "2", "7", "12", "24", "365", "2019", "1997",
	"2,400", "1.5", "0.02", "3:00", "17:0", "12", ".", ",", "-", "\xe2\x80\x93", "/", ":", "%", "+",
	"~", "@", "_", "#", "[", "]", "(", ")", " ", "  ", "\n", "\t", "\xc2\xa0", "\xc2\xb0", "F", "C",
	"am", "pm", "a.m.", "p.m.", " to ", " and ", "between ", "from ", "about ", "more than ",
	"up to ", "here are ", "these ", "top ", "the following ", "in ", "since ", "the ", "a ",
	"March ", "Jan. ", "Sept", "26", "26th", "of ", "Q3", "3Q", "third ", "quarter", "FY", "mid-",
	"v", "Python ", "Windows ", "iPhone", "COVID-", "SARS-CoV-", "A", "D", "x", "k", "M", "B",
	"billion", "million", "thousand", "hundred", "dozen", "and a half", "one", "two", "twenty",
	"five", "-five", "first", "second", "noon", "midnight", "degrees ", "Celsius", "Fahrenheit",
	"percent", "per cent", "percentage points", "days", "weeks", "-month", "hours", "minutes",
	"years", "words", "tips", "employees", "people", "season", "Passage ", "Document ", "Table ",
	"seven days a week", "24/7", "one of", "no one", "out of ", "http://", "https://", "www.", "a1b2",
	"user_", "555 0100", "+1 (415) ", "2013-09-08", "T17:30:24Z", "1.16.0", "\xef\xbf\xbd",
	"\xe2\x84\x83",
};

static unsigned next(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

/* Items come in order, inside the text and their expressions, and never overlap; no input crashes. */
TEST(numlex_property_random)
{
	static char buf[4096];
	unsigned seed = 12345;
	size_t round, total = 0;

	for (round = 0; round < 4000; round++) {
		size_t n = 0, len = next(&seed) % sizeof(buf), i;
		struct order o = {.text = buf};
		unsigned opts = next(&seed) % 2 ? NUMLEX_LINE_START : 0;

		if (round % 4 == 0) {
			for (i = 0; i < len; i++)
				buf[i] = (char)(next(&seed) % 7 == 0 ? (int)(next(&seed) % 256)
								     : " 0123456789$%-.,:/apmAPM\n"[next(&seed) % 26]);
			n = len;
		} else {
			while (n < len) {
				const char *pc = pieces[next(&seed) % ARRAY_SIZE(pieces)];
				size_t k = strlen(pc);

				if (n + k > len)
					break;
				memcpy(buf + n, pc, k);
				n += k;
			}
		}
		o.n = n;
		/* Exactly n bytes, no terminator: the scan must not read past them. */
		{
			char *copy = malloc(n ? n : 1);

			memcpy(copy, buf, n);
			o.text = copy;
			lex_all(copy, n, opts | (round % 3 == 0 ? NUMLEX_BYTEWISE : 0), check_order, &o);
			free(copy);
		}
		total += o.items;
		if (o.bad) {
			fprintf(stderr, "  round %zu: %s\n", round, o.why);
			CHECK(!"a property of the item stream broken");
			break;
		}
	}
	CHECK(total > 10000); /* the pieces make items: the test looked at some */
}

struct list {
	struct numlex_item *it;
	size_t n, cap;
};

static int append(void *ctx, const struct numlex_item *it)
{
	struct list *l = ctx;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->it = realloc(l->it, l->cap * sizeof(*it));
	}
	l->it[l->n++] = *it;
	return 0;
}

static bool same_items(const struct list *a, const struct list *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->it[i].from != b->it[i].from || a->it[i].to != b->it[i].to ||
		    a->it[i].part_from != b->it[i].part_from || a->it[i].part_to != b->it[i].part_to ||
		    a->it[i].flags != b->it[i].flags || strcmp(a->it[i].q.unit, b->it[i].q.unit) != 0 ||
		    a->it[i].q.value != b->it[i].q.value || a->it[i].q.decimals != b->it[i].q.decimals)
			return false;
	return true;
}

/*
 * The block pass and the byte-at-a-time pass on buf[0, n): how many items
 * the blocks gave, or -1 (said, with the round) when the two differ.
 */
static long passes_agree(const char *buf, size_t n, size_t round)
{
	struct list a = {0}, b = {0};
	long items = -1;

	lex_all(buf, n, 0, append, &a);
	lex_all(buf, n, NUMLEX_BYTEWISE, append, &b);
	if (same_items(&a, &b))
		items = (long)a.n;
	else
		fprintf(stderr, "  round %zu: %zu items by blocks, %zu by bytes\n", round, a.n, b.n);
	free(a.it);
	free(b.it);
	return items;
}

/* The 64-byte block pass gives what the byte-at-a-time pass gives, wherever the blocks fall. */
TEST(numlex_block_pass_is_the_bytewise_pass)
{
	static char buf[3000];
	unsigned seed = 99;
	size_t round;

	for (round = 0; round < 600; round++) {
		size_t n = 0, len = 64 + next(&seed) % (sizeof(buf) - 64);

		while (n < len) {
			const char *pc = next(&seed) % 3 ? "word " : pieces[next(&seed) % ARRAY_SIZE(pieces)];
			size_t k = MIN(strlen(pc), len - n);

			/* Words of every length, so that they end at every place in a block. */
			if (pc[0] == 'w')
				k = MIN(1 + next(&seed) % 14, len - n);
			memcpy(buf + n, pc[0] == 'w' ? "tentwentythirdfive" + next(&seed) % 4 : pc, k);
			n += k;
			if (n < len && next(&seed) % 2)
				buf[n++] = ' ';
		}
		if (passes_agree(buf, n, round) < 0) {
			CHECK(!"the block pass and the bytewise pass disagree");
			break;
		}
	}
}

/*
 * Words the trigger filter lets through that start no trigger word (its
 * hash's collisions: "tnq", "Kofa"), which the AVX2 blocks skip by their
 * first three letters, among trigger words, digits and words of every
 * length: the blocks give what the bytewise pass, which looks each one up,
 * gives.
 */
TEST(numlex_block_pass_skips_filter_collisions)
{
	static char buf[4000];
	static char words[400][12];
	size_t nw = 0, round;
	unsigned seed = 7;

	/* (the filter as numlex.c's at_word() asks it) */
	while (nw < ARRAY_SIZE(words)) {
		size_t len = TRIG_MIN + next(&seed) % (TRIG_MAX - TRIG_MIN + 1), k;
		char *w = words[nw];
		unsigned h;

		for (k = 0; k < len; k++)
			w[k] = (char)((next(&seed) % 4 ? 'a' : 'A') + next(&seed) % 26);
		w[len] = '\0';
		h = TRIG_HASH(TRIG_KEY(w[0], w[1], w[2]), len);
		if (vocab_triggers[h / 64] >> (h % 64) & 1)
			nw++;
	}
	for (round = 0; round < 400; round++) {
		long items;
		size_t n = 0, len = 64 + next(&seed) % (sizeof(buf) - 64);

		while (n < len) {
			unsigned r = next(&seed) % 8;
			const char *pc = r < 5 ? words[next(&seed) % nw]
					 : r == 5 ? "one first twenty thousand"
					 : r == 6 ? pieces[next(&seed) % ARRAY_SIZE(pieces)] : "the models";
			size_t k = MIN(strlen(pc), len - n);

			memcpy(buf + n, pc, k);
			n += k;
			if (n < len)
				buf[n++] = next(&seed) % 5 ? ' ' : ",.;-\n"[next(&seed) % 5];
		}
		items = passes_agree(buf, n, round);
		if (items < 0) {
			CHECK(!"the block pass and the bytewise pass disagree");
			break;
		}
		CHECK(round > 0 || items > 0);
	}
}

/* On the real responses too, when the shared corpus is there. */
TEST(numlex_block_pass_on_the_corpus)
{
	const char *dir = test_shared();
	char path[4096], *text;
	FILE *f;
	long n;
	struct list a = {0}, b = {0};

	if (!dir) {
		test_skip("no ../shared/corpus");
		return;
	}
	snprintf(path, sizeof(path), "%s/ragtruth_dev.jsonl", dir);
	f = fopen(path, "rb");
	if (!f) {
		test_skip("no ragtruth_dev.jsonl");
		return;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n);
	CHECK(fread(text, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	lex_all(text, (size_t)n, NUMLEX_LINE_START, append, &a);
	lex_all(text, (size_t)n, NUMLEX_LINE_START | NUMLEX_BYTEWISE, append, &b);
	CHECK(a.n > 1000);
	CHECK(same_items(&a, &b));
	free(a.it);
	free(b.it);
	free(text);
}

static int count_items(void *ctx, const struct numlex_item *it)
{
	(void)it;
	++*(size_t *)ctx;
	return 0;
}

/*
 * Linear time: the bytes the scan reads (every block of 64, every look
 * behind and ahead; NUMLEX_SHOW_READS=1 prints them) stay within a constant
 * factor of the text on the inputs that make it look around most: numbers
 * every other byte, long words, long digit runs, unclosed brackets, dates
 * and ranges back to back.
 */
TEST(numlex_linear_time)
{
	static const char *const units[] = {
		"1 ", "1-", "9 9 ", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, ",
		"March 26-28, 2024 ", "between 4 and 5 minutes ", "$1.2-1.5 billion ", "12345678901234567890",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ",
		"one two three four five six seven eight nine ten ", "2019, ", "Passages 1 and ",
		"-", "a-", "A-B-C-", "COVID-19 ", "11:0-22:0 ", "2013-09-08 17:30:24 ", "Q3 2021 ",
	};
	size_t u;

	for (u = 0; u < ARRAY_SIZE(units); u++) {
		size_t sizes[2] = {1 << 12, 1 << 16}, per[2], s;

		for (s = 0; s < 2; s++) {
			size_t n = sizes[s], k = strlen(units[u]), i, examined = 0, items = 0;
			char *t = malloc(n);

			for (i = 0; i < n; i++)
				t[i] = units[u][i % k];
			lex_batches(t, n, NUMLEX_LINE_START, NUMLEX_BATCH, count_items, &items, NULL, &examined);
			per[s] = examined / n;
			if (getenv("NUMLEX_SHOW_READS"))
				fprintf(stderr, "  %-50.50s %zu reads a byte, %zu items\n", units[u], per[s], items);
			free(t);
			/* every byte is read at least once: the copy counts (lex.h) */
			CHECK(examined >= n);
			/* 54 at most when this was written: a number every other byte */
			if (examined > 128 * n) {
				fprintf(stderr, "  \"%s\" repeated: %zu bytes read for %zu\n", units[u], examined, n);
				CHECK(!"the scan reads more than 128 bytes a byte");
			}
		}
		/* Sixteen times the text, about the same reads per byte. */
		CHECK(per[1] <= per[0] + 2);
	}
}

TEST(numlex_vocabulary_and_masks)
{
	const char *bad = numlex_self_check();

	if (bad)
		fprintf(stderr, "  self check: %s\n", bad);
	CHECK(bad == NULL);
}

/* The items of a scan, kept whole, in order. */
struct kept {
	struct numlex_item *v;
	size_t n, cap;
};

static int keep(void *ctx, const struct numlex_item *it)
{
	struct kept *k = ctx;

	if (grow(&k->v, &k->cap, k->n + 1, sizeof(*k->v)) < 0)
		return -ENOMEM;
	k->v[k->n++] = *it;
	return 0;
}

/* Every field of two items the same (not their padding). */
static bool same_item(const struct numlex_item *a, const struct numlex_item *b)
{
	return a->from == b->from && a->to == b->to && a->part_from == b->part_from &&
	       a->part_to == b->part_to && a->flags == b->flags && a->q.kind == b->q.kind &&
	       strcmp(a->q.unit, b->q.unit) == 0 && a->q.unit_hash == b->q.unit_hash &&
	       a->q.value == b->q.value && a->q.decimals == b->q.decimals &&
	       a->q.scale == b->q.scale && a->q.offset == b->q.offset && a->q.words == b->q.words &&
	       a->q.items == b->q.items && a->q.years == b->q.years &&
	       a->q.either_half == b->q.either_half;
}

/*
 * Sentences for the pauses: every reader, and steps of many items (a
 * bracket's 16 references, a label's 8, a range's and a date's parts), and
 * numbers right at the end of the step before ("[1]2 apples", "Q3'21 4"),
 * where a resume a byte off reads something else.
 */
static const char *const pause_sentences[] = {
	"[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] ",
	"[1]2 apples and [3]4 pears. ",
	"Passages 1, 2, 3, 4, 5, 6, 7 and 8 say so. ",
	"March 26-28, 2024 ",
	"between 4 and 5 minutes, ",
	"$1.2-1.5 billion in Q3 2021; ",
	"twenty five people, a dozen eggs and half an hour. ",
	"about 7 pm to 11 pm. ",
	"Here are 5 tips:\n1. Stir\n2) Bake\n",
	"2013-09-08 17:30:24 and 2013-09-09T08:00Z. ",
	"Python 3.11 and v2.3.1 on 192.168.0.1, 0x1F. ",
	"Call +1 555 123 4567 or 212-555-0100. ",
	"A320 and H1N1 and FY2021, Q4 2019. ",
	"24/7 and 1/2 cup, 3:2 odds. ",
	"It rose 17% from $0.29 in the third quarter of 2019. ",
	"Patel (2017) found 5x more. ",
	"In the 1990s, 50-60 inches, 72 \xc2\xb0""F, ~100+. ",
	"COVID-19 and SARS-CoV-2 in mid-2020. ",
	"1 Main Street, 10 Downing St. ",
	"user_42 and req_886c4 at foo@ex4mple.com, https://x.io/a1. ",
	"five", "5", "", "7. ", "one of 3,000,000 and 1,234.56. ",
};

/* The items of text read a batch of cap at a time; 0, or the scan's error. *calls: the calls made. */
static int batches_of(const char *t, size_t n, size_t cap, struct kept *out, size_t *code,
		      size_t *calls)
{
	struct numlex_item *items = malloc(cap * sizeof(*items));
	struct numlex lx;
	int k;

	CHECK(items != NULL);
	k = numlex_scan(&lx, t, n, NUMLEX_LINE_START | NUMLEX_CODE, items, cap);
	for (*calls = 1;; ++*calls) {
		for (size_t j = 0; k > 0 && j < (size_t)k; j++)
			CHECK_EQ(keep(out, &items[j]), 0);
		if (k < 0 || (size_t)k < cap)
			break;
		k = numlex_resume(&lx, items, cap);
	}
	*code = numlex_code(&lx);
	free(items);
	return k < 0 ? k : 0;
}

/*
 * A full array is a pause, not a loss: the sentences above, alone and run
 * together in many orders, read a batch of every size from 1 to 41
 * (NUMLEX_BATCH among them) give the items and the code digit of one batch that holds
 * them all, byte for byte, wherever the pauses fall, a step's items split
 * over calls included; each call but the last fills its array, and the
 * last gives fewer (0 when the text ended with a full one).
 */
TEST(numlex_batches_pause_and_resume)
{
	size_t n = 0, s, r, cap, i;
	uint64_t seed = 7;
	char *t = malloc(1 << 15);
	struct kept whole = {0}, parts = {0};
	struct numlex_item one[1];
	struct numlex lx;

	CHECK(t != NULL);
	/* Each sentence once, then at random till the text is 16 KiB or so. */
	for (r = 0; n < (1 << 14); r++) {
		const char *u;

		if (r < ARRAY_SIZE(pause_sentences)) {
			u = pause_sentences[r];
		} else {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			u = pause_sentences[(seed >> 33) % ARRAY_SIZE(pause_sentences)];
		}
		memcpy(t + n, u, strlen(u));
		n += strlen(u);
	}
	/* The whole text, and a few of its starts (so that pauses fall elsewhere in the steps). */
	for (s = 0; s < 6; s++) {
		size_t len = s == 0 ? n : 200 + 997 * s, code[2], calls;

		whole.n = 0;
		CHECK_EQ(batches_of(t, len, 1 << 16, &whole, &code[0], &calls), 0);
		CHECK_EQ(calls, 1);
		CHECK(whole.n > 40);
		CHECK_EQ(code[0], numlex_next_code_digit(t, 0, len));
		for (cap = 1; cap <= 41; cap++) {
			parts.n = 0;
			code[1] = 0;
			CHECK_EQ(batches_of(t, len, cap, &parts, &code[1], &calls), 0);
			if (parts.n != whole.n)
				fprintf(stderr, "  %zu bytes, batches of %zu: %zu items for %zu\n", len, cap,
					parts.n, whole.n);
			CHECK_EQ(parts.n, whole.n);
			for (i = 0; i < whole.n && i < parts.n; i++)
				if (!same_item(&parts.v[i], &whole.v[i])) {
					fprintf(stderr, "  %zu bytes, batches of %zu: item %zu differs\n", len,
						cap, i);
					break;
				}
			CHECK_EQ(i, whole.n);
			CHECK_EQ(code[1], code[0]);
			/* every call full but the last, which is not */
			CHECK_EQ(calls, parts.n / cap + 1);
		}
	}
	/* Each sentence alone, in batches of 1, 2 and 3. */
	for (r = 0; r < ARRAY_SIZE(pause_sentences); r++) {
		const char *u = pause_sentences[r];
		size_t code[2], calls;

		whole.n = 0;
		CHECK_EQ(batches_of(u, strlen(u), 1 << 16, &whole, &code[0], &calls), 0);
		for (cap = 1; cap <= 3; cap++) {
			parts.n = 0;
			CHECK_EQ(batches_of(u, strlen(u), cap, &parts, &code[1], &calls), 0);
			CHECK_EQ(parts.n, whole.n);
			for (i = 0; i < whole.n && i < parts.n; i++)
				CHECK(same_item(&parts.v[i], &whole.v[i]));
			CHECK_EQ(code[1], code[0]);
		}
	}
	free(whole.v);
	free(parts.v);
	free(t);
	/* No array: an error, not a scan that never ends. */
	CHECK_EQ(numlex_scan(&lx, "1 2 3", 5, 0, one, 0), -EINVAL);
	CHECK_EQ(numlex_scan(&lx, "no figure", 9, 0, one, 0), 0);
	CHECK_EQ(numlex_resume(&lx, one, 0), -EINVAL);
}

/* Each figure's period as the binder leaves it, "Q3 2020" and so on, "-" for none, one after another. */
struct periods_got {
	struct numlex_periods b;
	const char *text;
	uint32_t period[16];
	size_t n, first, end; /* the last figure's entries */
};

static int feed_periods(void *ctx, const struct numlex_item *it)
{
	struct periods_got *g = ctx;
	uint32_t p;
	size_t i;

	switch (numlex_period_feed(&g->b, g->text, strlen(g->text), it, &p)) {
	case NUMLEX_PERIOD_FIGURE:
		g->first = g->n;
		/* fall through */
	case NUMLEX_PERIOD_SAME:
		if (g->n < ARRAY_SIZE(g->period))
			g->period[g->n++] = p;
		g->end = g->n;
		break;
	case NUMLEX_PERIOD_BINDS:
		for (i = g->first; i < g->end; i++)
			g->period[i] = p;
		break;
	default:
		break;
	}
	return 0;
}

/*
 * A figure is said of the period right after it, joined by words alone,
 * else of the one before it in its sentence with no figure between; never
 * of one it is compared with, of a span of periods, or of a date's year.
 */
TEST(numlex_periods_bind_to_figures)
{
	static const struct {
		const char *text, *want;
	} binds[] = {
		{"EPS in the range of $1.30 to $1.40 for Q4 2019.", "Q4 2019,Q4 2019"},
		{"GAAP EPS were $3.69 in the third quarter of 2021, improved from $2.75 in the "
		 "third quarter of 2020.", "Q3 2021,Q3 2020"},
		{"Third quarter 2020 earnings were $0.34 per share.", "Q3 2020"},
		{"For the third quarter of 2020 net income was $120.9 million, or $1.87 a share.",
		 "Q3 2020,-"},
		{"It guided for $5bn in sales by 2023.", "2023"},
		{"Sales of $5M in FY2021; 3Q20 sales were $2M.", "2021,Q3 2020"},
		/* what a figure is compared with */
		{"Revenue grew 5% from 2019 to $3M.", "-,-"},
		{"Compared to the third quarter of 2019, revenue grew to $5M.", "-"},
		{"EPS of $1.87 versus Q3 2019.", "-"},
		/* spans of periods; a date's year; words, a comma or a sentence end between */
		{"250,000 deaths per year between 2030 and 2050.", "-"},
		{"Sales of $5M in 2019-2020 and $2 in Q3 and Q4 2020.", "-,-"},
		{"Sales were $5M on March 26, 2020.", "-"},
		{"Revenue was $5M, while in Q3 2019 it was lower.", "-"},
		{"In Q3 2020. Revenue was $5M.", "-"},
		{"Revenue was $5M in Q3 2020, up from $4M.", "Q3 2020,-"},
		{"We sold 300 units in 2019.", "2019"},
		/* a citation's year dates the study, not the figures beside it */
		{"A survey (Okafor et al., 2019) of 312 engineers.", "-"},
		{"Rossi and Patel (2017) found 40% fewer errors.", "-"},
		{"We sold 300 units (Rossi, 2017).", "-"},
		/* the prior year or quarter, said within four words after a figure */
		{"Sales of $1.7 billion to $1.8 billion compared with $1.67 billion in the prior "
		 "year.", "-,-,the prior year"},
		{"EPS was $0.34, up from $0.29 a year ago; revenue grew 5% sequentially, 12% "
		 "year-over-year and 3% in the linked quarter.",
		 "-,the prior year,the prior quarter,the prior year,the prior quarter"},
		{"Net income of $5M for the year-ago quarter and $4M last quarter's.",
		 "the prior year,the prior quarter"},
		/* not: what the figure is compared with, five words on, a comma
		 * between, a word glued on; and a quarter after it binds over it */
		{"EPS was $0.34 compared to last year.", "-"},
		{"Revenue of $5M grew over the prior year.", "-"},
		{"Revenue was $5M as was reported in the prior year.", "-"},
		{"Revenue was $5M, as in the prior year.", "-"},
		{"Revenue was $5M lastyear and $4M in the prior years.", "-,-"},
		{"Revenue was $5M in the prior year Q3 2020.", "Q3 2020"},
	};
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(binds); i++) {
		struct periods_got g = {.text = binds[i].text};
		char got[256] = "", one[QUANTITY_PERIOD_TEXT];

		numlex_periods_reset(&g.b);
		CHECK_EQ(lex_all(g.text, strlen(g.text), 0, feed_periods, &g), 0);
		for (k = 0; k < g.n; k++) {
			quantity_period_text(g.period[k], one, sizeof(one));
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", k ? "," : "",
				 *one ? one : "-");
		}
		if (strcmp(got, binds[i].want) != 0)
			fprintf(stderr, "  \"%s\": got %s, want %s\n", binds[i].text, got, binds[i].want);
		CHECK_STR(got, binds[i].want);
	}
}

/* The quarter-year an item completes, and whether it is what is compared with. */
struct quarters_got {
	struct numlex_periods b;
	const char *text;
	char got[256];
};

static int feed_quarters(void *ctx, const struct numlex_item *it)
{
	struct quarters_got *g = ctx;
	uint32_t p;
	char one[16];
	size_t n = strlen(g->got);

	numlex_period_feed(&g->b, g->text, strlen(g->text), it, &p);
	if (g->b.quarter_year) {
		quantity_period_text(g->b.quarter_year, one, sizeof(one));
		snprintf(g->got + n, sizeof(g->got) - n, "%s%s%s", n ? "," : "", one,
			 g->b.quarter_year_compared ? " compared" : "");
	}
	return 0;
}

/*
 * A quarter's year is reported on unless one of the words of comparison
 * comes within the ten words before it in its sentence: further back than
 * a figure's binding looks (the figure of a comparison is said of its
 * period; the period is still what is compared with).
 */
TEST(numlex_quarter_years_compared)
{
	static const struct {
		const char *text, *want;
	} quarters[] = {
		{"Third quarter 2020 earnings were $0.34 per share.", "Q3 2020"},
		{"EPS was $0.34, up 17% from $0.29 in the third quarter of 2019.", "Q3 2019 compared"},
		{"EPS was $0.34 compared to $0.16 last quarter and $0.29 in the third quarter of 2019.",
		 "Q3 2019 compared"},
		{"An 800 basis point improvement compared to the third quarter of 2019.",
		 "Q3 2019 compared"},
		{"Sales for Q3 2020 rose vs. Q3 2019, and in Q4 2020 they fell.",
		 "Q3 2020,Q3 2019 compared,Q4 2020 compared"},
		{"Up 5% from last year. Q3 2019 was the record.", "Q3 2019"},
		{"Results for Q3 2019 were strong.", "Q3 2019"},
		{"The company's EPS for the third quarter of 2019 increased by 17%.", "Q3 2019"},
		/* a year alone, or a quarter alone, is no quarter-year */
		{"Revenue grew from 2019 to 2020 and from Q3 to Q4.", ""},
		/* more than ten words back */
		{"From the start we said that revenue in the first two years would be lower in Q3 "
		 "2019.", "Q3 2019"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(quarters); i++) {
		struct quarters_got g = {.text = quarters[i].text};

		numlex_periods_reset(&g.b);
		CHECK_EQ(lex_all(g.text, strlen(g.text), 0, feed_quarters, &g), 0);
		if (strcmp(g.got, quarters[i].want) != 0)
			fprintf(stderr, "  \"%s\": got \"%s\", want \"%s\"\n", g.text, g.got,
				quarters[i].want);
		CHECK_STR(g.got, quarters[i].want);
	}
	CHECK(!numlex_period_compared("from", 0));
	CHECK(numlex_period_compared("from Q3", 5));
	CHECK(!numlex_period_compared("from.\nQ3", 6));
}

/*
 * The first digit a letter touches, from every start, as a byte-by-byte
 * search finds it: across the 64-byte blocks and their edges, in a tail.
 */
TEST(numlex_next_glued_digit)
{
	char t[300];
	size_t n, i, k, want;
	unsigned seed = 7;

	for (k = 0; k < 400; k++) {
		n = 1 + (seed = seed * 1103515245u + 12345u) % sizeof(t);
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly blanks and digits, now and then a letter */
			t[i] = "   0123456789 .,$%A"[(seed >> 16) % 19];
			if ((seed >> 8) % 97 == 0)
				t[i] = 'f';
		}
		for (i = 0; i <= n; i += 1 + k % 13) {
			for (want = i; want < n; want++)
				if (isdigit((unsigned char)t[want]) &&
				    ((want > 0 && isalpha((unsigned char)t[want - 1])) ||
				     (want + 1 < n && isalpha((unsigned char)t[want + 1]))))
					break;
			if (numlex_next_glued(t, i, n) != want)
				fprintf(stderr, "  from %zu of %zu: %zu, want %zu\n", i, n,
					numlex_next_glued(t, i, n), want);
			CHECK_EQ(numlex_next_glued(t, i, n), want);
		}
	}
	CHECK_EQ(numlex_next_glued("A1", 1, 2), 1u); /* the letter before the start counts */
	CHECK_EQ(numlex_next_glued("12 34", 0, 5), 5u);
}

/*
 * The scan's own finding of where a code may be is numlex_next_code_digit()'s
 * from 0, as a byte-by-byte search finds it: in blocks, across their edges,
 * past what a step skips (a URL, an e-mail address, a word that runs on),
 * in a text too short for a block, and in the bytewise pass.
 */
TEST(numlex_scan_finds_the_first_code_digit)
{
	static const char *const parts[] = {
		" ", "  ", "the ", "five ", "12 ", "3.5 ", ", ", "\n", "x", "A", "_", "@", "-",
		"https://example.com/a/b ", "user@mail.io ", "www.site.org/p ", "__", "\xc2\xa0",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "March 26, 2024 ", "one ", "9", "7",
	};
	static const unsigned opts[] = {0, NUMLEX_LINE_START, NUMLEX_BYTEWISE};
	char t[400];
	size_t n, i, k, want, got;
	unsigned seed = 11, o;

	for (k = 0; k < 3000; k++) {
		size_t len = (seed = seed * 1103515245u + 12345u) % 300;

		for (n = 0; n < len;) {
			const char *pc;

			seed = seed * 1103515245u + 12345u;
			pc = parts[(seed >> 16) % ARRAY_SIZE(parts)];
			for (i = 0; pc[i] && n < sizeof(t); i++)
				t[n++] = pc[i];
		}
		for (want = 0; want < n; want++)
			if (isdigit((unsigned char)t[want]) &&
			    ((want > 0 && (isalpha((unsigned char)t[want - 1]) || t[want - 1] == '_')) ||
			     (want + 1 < n && isalpha((unsigned char)t[want + 1]))))
				break;
		CHECK_EQ(numlex_next_code_digit(t, 0, n), want);
		for (o = 0; o < ARRAY_SIZE(opts); o++) {
			got = SIZE_MAX;
			CHECK_EQ(lex_batches(t, n, opts[o], NUMLEX_BATCH, count_items, &(size_t){0}, &got, NULL), 0);
			if (got != want)
				fprintf(stderr, "  \"%.*s\" (opts %u): %zu, want %zu\n", (int)n, t, opts[o],
					got, want);
			CHECK_EQ(got, want);
		}
	}
	got = SIZE_MAX;
	CHECK_EQ(lex_batches("", 0, 0, NUMLEX_BATCH, count_items, &(size_t){0}, &got, NULL), 0);
	CHECK_EQ(got, 0u);
	CHECK_EQ(lex_batches("room_12", 7, 0, NUMLEX_BATCH, count_items, &(size_t){0}, &got, NULL), 0);
	CHECK_EQ(got, 5u);
	CHECK_EQ(lex_batches("12 apples, 3 pears", 18, 0, NUMLEX_BATCH, count_items, &(size_t){0}, &got, NULL), 0);
	CHECK_EQ(got, 18u);
}

/* Periods differ only where both say a year, or both a quarter, and those differ. */
TEST(numlex_periods_differ)
{
	CHECK(quantity_periods_differ(QUANTITY_PERIOD(2019, 4), QUANTITY_PERIOD(2020, 4)));
	CHECK(quantity_periods_differ(QUANTITY_PERIOD(2020, 3), QUANTITY_PERIOD(2020, 4)));
	CHECK(quantity_periods_differ(QUANTITY_PERIOD(0, 3), QUANTITY_PERIOD(2020, 4)));
	CHECK(!quantity_periods_differ(QUANTITY_PERIOD(0, 3), QUANTITY_PERIOD(2020, 3)));
	CHECK(!quantity_periods_differ(QUANTITY_PERIOD(2020, 0), QUANTITY_PERIOD(2020, 3)));
	CHECK(!quantity_periods_differ(0, QUANTITY_PERIOD(2020, 3)));
	CHECK(!quantity_periods_differ(QUANTITY_PERIOD(2020, 3), 0));
	/* the prior year and the prior quarter differ from each other only:
	 * the period reported on, which they are relative to, is unknown */
	CHECK(quantity_periods_differ(QUANTITY_PERIOD_PRIOR_YEAR, QUANTITY_PERIOD_PRIOR_QUARTER));
	CHECK(!quantity_periods_differ(QUANTITY_PERIOD_PRIOR_YEAR, QUANTITY_PERIOD_PRIOR_YEAR));
	CHECK(!quantity_periods_differ(QUANTITY_PERIOD_PRIOR_YEAR, QUANTITY_PERIOD(2020, 0)));
	CHECK(!quantity_periods_differ(QUANTITY_PERIOD(2020, 2), QUANTITY_PERIOD_PRIOR_QUARTER));
	CHECK(!quantity_periods_differ(QUANTITY_PERIOD(0, 4), QUANTITY_PERIOD_PRIOR_YEAR));
	CHECK(!quantity_periods_differ(0, QUANTITY_PERIOD_PRIOR_QUARTER));
}
