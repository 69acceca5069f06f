// SPDX-License-Identifier: MIT
/* The attribute check: what a record's value names, and the clause rules of a sentence. */
#include <stdlib.h>

#include "ground/attrs.h"
#include "ground/record.h"
#include "test.h"

struct ctx {
	const struct attrs *a;
	struct ground *g;
	char found[512]; /* "text=source;" per attribute said otherwise */
	size_t agreed;   /* attributes said as a record says */
	const char *s;
};

static void on_value(struct ctx *c, const struct record_value *v)
{
	struct ground_attr ga;

	if ((v->kind == RECORD_BOOL || v->kind == RECORD_STRING) &&
	    attrs_of_value(c->a, v->words, v->n_words, v->text, v->len, v->kind == RECORD_BOOL, v->at,
			   &ga))
		CHECK_EQ(ground_add_attr(c->g, &ga), 0);
}

static void on_found(struct ctx *c, const struct attrs_hit *hit)
{
	size_t n = strlen(c->found);

	if (hit->agrees) {
		c->agreed++;
		return;
	}
	snprintf(c->found + n, sizeof(c->found) - n, "%.*s=%s;", (int)(hit->to - hit->from),
		 c->s + hit->from, hit->held->text);
}

static struct attrs *builtin_attrs(struct ruleset **rs)
{
	struct attrs *a = NULL;
	struct diag d = {""};

	*rs = ruleset_new();
	CHECK_EQ(ruleset_add_builtin(*rs, &d), 0);
	CHECK_EQ(ruleset_finish(*rs, &d), 0);
	CHECK_EQ(attrs_new(*rs, &a, &d), 0);
	CHECK(a != NULL);
	return a;
}

static struct ctx c;

/* How many attributes the last check() found said as a record says. */
static size_t c_agreed(void)
{
	return c.agreed;
}

/* The findings of sentence s against the record: "" for none. */
static const char *check(const struct attrs *a, const char *record, const char *s)
{
	struct attrs_hit hit[GROUND_ATTR_CAP];
	struct record *rec = NULL;
	const struct record_value *v;
	size_t n, i;

	c.a = a;
	c.found[0] = '\0';
	c.agreed = 0;
	c.s = s;
	if (!c.g)
		CHECK_EQ(ground_new(&c.g), 0);
	ground_reset(c.g);
	CHECK_EQ(record_new(&rec), 0);
	CHECK_EQ(record_feed(rec, record, strlen(record)), 0);
	while ((v = record_next(rec)))
		on_value(&c, v);
	CHECK_EQ(record_end(rec), 0);
	while ((v = record_next(rec)))
		on_value(&c, v);
	record_free(rec);
	n = attrs_check(a, c.g, s, strlen(s), hit, ARRAY_SIZE(hit));
	CHECK(n <= ARRAY_SIZE(hit));
	for (i = 0; i < n; i++)
		on_found(&c, &hit[i]);
	return c.found;
}

/* What a value says and how its key names it. */
TEST(attrs_values)
{
	static const char *const path[] = {"attributes", "restaurants", "take", "out"};
	static const char *const parking[] = {"attributes", "business", "parking", "validated"};
	static const char *const generic[] = {"attributes", "name"};
	struct ruleset *rs;
	struct attrs *a = builtin_attrs(&rs);
	struct ground_attr ga;

	CHECK(attrs_of_value(a, path, 4, "true", 4, true, 7, &ga));
	CHECK(ga.truth && ga.n_need == 1 && ga.at == 7); /* "take out": one word, "takeout" */
	CHECK_STR(ga.text, "attributes restaurants take out: true");
	CHECK(attrs_of_value(a, parking, 4, " u'False' ", 10, false, 0, &ga));
	CHECK(!ga.truth && ga.n_need == 2);
	CHECK(attrs_of_value(a, parking, 4, "free", 4, false, 0, &ga) && ga.truth);
	CHECK(attrs_of_value(a, parking, 4, "'none'", 6, false, 0, &ga) && !ga.truth);
	/* Neither yes nor no, or a key that names nothing. */
	CHECK(!attrs_of_value(a, parking, 4, "quiet", 5, false, 0, &ga));
	CHECK(!attrs_of_value(a, parking, 4, "2", 1, false, 0, &ga));
	CHECK(!attrs_of_value(a, parking, 4, "", 0, false, 0, &ga));
	CHECK(!attrs_of_value(a, generic, 2, "no", 2, false, 0, &ga));
	CHECK(!attrs_of_value(NULL, parking, 4, "true", 4, true, 0, &ga));
	attrs_free(a);
	ruleset_free(rs);
}

/* The clause rules, sentence by sentence. */
TEST(attrs_clauses)
{
	static const char rec[] =
		"{\"attributes\": {\"OutdoorSeating\": false, \"WiFi\": \"free\", \"RestaurantsTakeOut\": true,"
		" \"RestaurantsReservations\": \"False\", \"HasTV\": true,"
		" \"BusinessParking\": {\"garage\": false, \"street\": true, \"validated\": false},"
		" \"Ambience\": {\"casual\": true, \"trendy\": false}}}";
	static const struct {
		const char *s, *want;
	} cases[] = {
		/* said, and the record says no */
		{"It has outdoor seating.", "outdoor seating=attributes outdoor seating: false;"},
		{"Patio seating is offered.", "Patio seating=attributes outdoor seating: false;"},
		{"A trendy vibe.", "trendy vibe=attributes ambience trendy: false;"},
		{"They take reservations.", "reservations=attributes restaurants reservations: False;"},
		/* said to be missing, and the record says yes */
		{"WiFi is not available.", "WiFi=attributes wi fi: free;"},
		{"WiFi is not currently available.", "WiFi=attributes wi fi: free;"},
		{"Wi-Fi unavailable here.", "Wi-Fi=attributes wi fi: free;"},
		{"It does not offer take-out.", "take-out=attributes restaurants take out: true;"},
		{"No TV, no outdoor seating.", "TV=attributes has tv: true;"},
		{"They lack a casual atmosphere.", "casual atmosphere=attributes ambience casual: true;"},
		/* agreeing with the record */
		{"It does not offer outdoor seating, WiFi, or reservations.",
		 "WiFi=attributes wi fi: free;"}, /* one negation covers the list: WiFi too */
		{"It offers free WiFi and takeout.", ""},
		{"There is no validated parking.", ""},
		{"Street parking is available, but validated parking is not.", ""},
		/* clauses the negation does not reach */
		{"While it does not take reservations, it offers takeout.", ""},
		{"Despite the lack of outdoor seating, the TV is popular.", ""},
		{"It has no outdoor seating, and it offers takeout.", ""},
		{"It has no outdoor seating, offers takeout and has a TV.", ""},
		{"It has no outdoor seating, and Blue Door shows games on its TV.", ""},
		{"Garage parking and validated parking are not provided.", ""},
		/* a negation that says something else of it */
		{"The street parking is not particularly scenic.", ""},
		/* words apart, or missing: no mention */
		{"The parking on the street corner was busy, they said, and validated.", ""},
		{"It is on State Street.", ""},
		{"Outdoor dining.", ""},
		/* a field's label: its value says yes or no */
		{"- Outdoor seating: No", ""},
		{"- Outdoor seating: yes", "Outdoor seating=attributes outdoor seating: false;"},
		{"WiFi: not available", "WiFi=attributes wi fi: free;"},
		{"Takeout: available.", ""},
		{"Takeout: none", "Takeout=attributes restaurants take out: true;"},
		{"Outdoor seating: $30 a table", ""}, /* a value, no yes or no */
		/* what would be, or what is asked: not a claim about the record */
		{"Would you like outdoor seating?", ""},
		{"Do they have outdoor seating (or a patio)?", ""},
		{"If you want outdoor seating, ask at the door.", ""},
		{"Ask whether outdoor seating is offered.", ""},
		{"Unless WiFi is down, you can work there.", ""},
		{"If you want takeout, note that it has outdoor seating.",
		 "outdoor seating=attributes outdoor seating: false;"}, /* after the condition */
	};
	struct ruleset *rs;
	struct attrs *a = builtin_attrs(&rs);
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = check(a, rec, cases[i].s);

		if (strcmp(got, cases[i].want) != 0)
			fprintf(stderr, "  \"%s\": got \"%s\", want \"%s\"\n", cases[i].s, got, cases[i].want);
		CHECK_STR(got, cases[i].want);
	}
	/* Agreeing: one mention each, "takeout" and "parking"+"street" (not "validated"). */
	CHECK_STR(check(a, rec, "It offers takeout and street parking."), "");
	CHECK_EQ(c_agreed(), 2);
	/* Two records that disagree: either answer is grounded by one of them. */
	CHECK_STR(check(a, "[{\"OutdoorSeating\": true}, {\"OutdoorSeating\": false}]",
			"Both have outdoor seating."), "");
	CHECK_EQ(c_agreed(), 1);
	/* Many attributes of one innermost word, a sentence repeating it: each is
	 * found by its rarer word, past more places of "widget" than are tried. */
	{
		char r2[2048], s2[1024];
		size_t k, at = 0, n = 0;

		at += (size_t)snprintf(r2 + at, sizeof(r2) - at, "{\"attributes\": {");
		for (k = 1; k <= 40; k++)
			at += (size_t)snprintf(r2 + at, sizeof(r2) - at, "%s\"Gear%zuWidget\": %s",
					       k > 1 ? ", " : "", k, k == 33 ? "true" : "false");
		snprintf(r2 + at, sizeof(r2) - at, "}}");
		for (k = 0; k < 30; k++)
			n += (size_t)snprintf(s2 + n, sizeof(s2) - n, "widget ");
		snprintf(s2 + n, sizeof(s2) - n, "and no gear33 widget, but a gear7 widget.");
		/* (in the records' order; "Gear7Widget" is "gear7" and "widget") */
		CHECK_STR(check(a, r2, s2), "gear7 widget=attributes gear7 widget: false;"
					     "gear33 widget=attributes gear33 widget: true;");
		/* Too small an array: told how many there are, and only its own written. */
		{
			struct attrs_hit few[2] = {{0}, {.from = 7777}};

			CHECK_EQ(attrs_check(a, c.g, s2, strlen(s2), few, 1), 2);
			CHECK(few[0].held != NULL && few[1].from == 7777);
			CHECK_EQ(attrs_check(a, c.g, s2, strlen(s2), NULL, 0), 2);
		}
	}
	/* A text record's "Key: value" lines. */
	CHECK_STR(check(a, "WiFi: no\nTakeOut: yes\n", "They offer WiFi."), "WiFi=wi fi: no;");
	attrs_free(a);
	ruleset_free(rs);
}
