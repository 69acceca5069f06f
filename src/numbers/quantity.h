/* SPDX-License-Identifier: MIT */
/*
 * Quantities: the value and unit of a number as written ("$1.2 billion",
 * "fourteen days", "12.6 percent"), so that the same quantity written two
 * ways compares equal and a changed one can be told from a new one.
 * Nothing here allocates.
 */
#ifndef HALLUSCAN_QUANTITY_H
#define HALLUSCAN_QUANTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QUANTITY_UNIT_MAX 24

enum quantity_kind {
	QUANTITY_COUNT,  /* of a noun: "140 employees" */
	QUANTITY_NUMBER, /* a bare number */
	QUANTITY_BASE,   /* money, a share, a time or a quarter: converts into a base unit */
	/*
	 * Kinds the number lexer (numlex.h) adds. Each has units of its own,
	 * named with a colon so that no counted noun can share them, and is
	 * compared only with its own kind (and a bare number, where said):
	 */
	QUANTITY_YEAR,        /* "date:year": the year; a bare number states it. A
				 decade ("the 1990s") is a year of scale 10 whose
				 value is its middle (QUANTITY_DECADE_MID past its
				 first year, the offset): any year of it states it */
	QUANTITY_DATE,        /* "date:day": month * 100 + day; a month alone ("March
				 2024") is month * 100 with scale 100, stated by
				 any day of that month */
	QUANTITY_TIME,        /* "time:clock": minutes since midnight; scale 60 when
				 only the hour is written ("5 pm"), 1/60 with seconds */
	QUANTITY_TEMPERATURE, /* "temp:c": degrees Celsius, a written Fahrenheit
				 figure carrying scale 5/9 and offset -160/9;
				 "temp:deg": degrees of no written scale, stated by
				 a Celsius figure in either scale; a bare number
				 states either */
	QUANTITY_ORDINAL,     /* "ordinal:n": "third", "28th"; a bare number states it */
	QUANTITY_IDENT,       /* "ident:<stem>": the digits of a name ("SARS-CoV-2" is
				 ident:sarscov# 2), "version:<stem>": a version,
				 its parts packed in base 1000 ("1.16.0" is 1016000);
				 QUANTITY_PHONE: a phone number's digits */
};

/*
 * A phone number's unit: its value is its digits ("(415) 555-0100" is
 * 4155550100). Two of as many digits differing in at most
 * QUANTITY_PHONE_NEAR of them are near (one digit changed is another
 * number, named as what it was changed from); any others are unrelated.
 */
#define QUANTITY_PHONE "ident:phone"
#define QUANTITY_PHONE_NEAR 3
/*
 * A street address's house number is an identifier of its street, unit
 * QUANTITY_STREET and the street's name ("ident:st:main" of "1234 Main
 * St"), whose value is the number: another number on that street is
 * another address.
 */
#define QUANTITY_STREET "ident:st:"

struct quantity {
	double value;       /* in the unit's base: dollars, seconds, percent points, items */
	char unit[QUANTITY_UNIT_MAX]; /* "usd", "eur", "gbp", "percent", "seconds", a noun,
					 or "number" for a bare number */
	uint64_t unit_hash; /* of unit: units compare by hash first */
	enum quantity_kind kind;
	int decimals;       /* digits written after the point: the precision claimed */
	double scale;       /* what one written unit is worth in the base (1e9 for "billion") */
	bool words;         /* written in words ("twenty-five") */
	bool items;         /* a JSON array's number of items (QUANTITY_ITEMS, below),
			       or of the days its dated items cover (in seconds) */
	bool years;         /* an ordinal of years, unit "ordinal:years" ("35th anniversary") */
	double offset;      /* value = written * scale + offset: 0 but for Fahrenheit */
	/* A time of the clock written with no am or pm, an hour of one digit
	 * ("6:15"; not "06:15", "11:00" or "18:15", which a 24-hour clock
	 * writes) and not in a range ("7:0-14:0"): it may be said of either
	 * half of the day, and states or is stated by the time twelve hours
	 * on ("evening 6:15" is "6:15 pm"). */
	bool either_half;
};

/*
 * What a rule reports a quantity under (a rule's "quantity:" list): money,
 * a percentage, a duration, a quarter, a count of a noun, a bare number, a
 * year, a calendar date, a time of day, a temperature, an ordinal, an
 * identifier's or version's digits, a phone number (an identifier of unit
 * QUANTITY_PHONE).
 */
enum quantity_class {
	QC_MONEY, QC_PERCENT, QC_DURATION, QC_QUARTER, QC_COUNT, QC_NUMBER,
	QC_YEAR, QC_DATE, QC_TIME, QC_TEMPERATURE, QC_ORDINAL, QC_IDENT, QC_PHONE,
	QC_CLASSES,
};

/* "money", "percent", ...: the names a pack writes. */
const char *quantity_class_name(enum quantity_class k);
/* The class named name, or -1. */
int quantity_class_parse(const char *name);
enum quantity_class quantity_class_of(const struct quantity *q);

/*
 * Parses the text of a quantity match. Returns false when the text holds no
 * number this module understands (the match is then not a quantity).
 */
bool quantity_parse(const char *text, size_t n, struct quantity *q);

/*
 * False when the byte before a match shows it is part of something else:
 * a version or a dotted number ("v2.3.1", "1.2.3"), a word ("A320").
 */
bool quantity_follows(int before);

/*
 * A JSON array's number of items, as the grounding holds it: a count whose
 * unit is QUANTITY_ITEMS and then the array's last key words, ':'-separated
 * ("items:results", "items:review:info"). It states a count of one of those
 * nouns only ("3 results", "2 reviews"), never a bare number or another
 * noun's count: an array's length is no figure of anything else. An array
 * with no key ("items:") states a count of any noun ("4 flights" of a
 * search's four results), still never a bare number.
 */
#define QUANTITY_ITEMS "items:"
void quantity_set_items(struct quantity *q, const char *const *words, size_t n_words,
			double count);

/* Is a a whole count of nights ("3 nights")? Such a count is stated by as
 * many days ("3 days", "a 3-day trip": quantity_states()). */
bool quantity_nights(const struct quantity *a);
/*
 * True when the written quantity a states the grounded quantity g: the same
 * unit and the same value once g is rounded to the precision a was written
 * with ("$383 billion" states $383.3 billion; "70%" states 69.8%). A bare
 * number g states any a written with that number ("14 days" for 14).
 */
bool quantity_states(const struct quantity *a, const struct quantity *g);

/*
 * The figures, written in a's units, that can round to the figure of a
 * (money, a share, a duration, a count, a bare number) as
 * quantity_states() rounds: [*lo, *hi] holds every w for which a bare
 * number w, or a quantity of a's unit worth w of a's written units,
 * states a by rounding (a count equal to a states it too: a's own figure
 * is inside). For a search that must miss none of them.
 */
void quantity_rounding_reach(const struct quantity *a, double *lo, double *hi);

/*
 * True when a and g measure the same thing: the same unit, or a counted
 * noun against a bare number ("140 employees" against "employees": 120).
 */
bool quantity_comparable(const struct quantity *a, const struct quantity *g);

/* True for a count of some noun, or a bare number (not money, a share, a time or a date). */
bool quantity_is_count(const struct quantity *q);

#define QUANTITY_DECADE_MID 4.5
/* A year, or the decade that starts at year ("1990" of "the 1990s"). */
void quantity_set_year(struct quantity *q, double year, bool decade);
/* True for a decade ("the 1990s", "the '80s"): a year of scale 10. */
bool quantity_is_decade(const struct quantity *q);

/* |a - g| / |g| for quantities of one unit (infinity when g is 0 and a is not). */
double quantity_distance(const struct quantity *a, const struct quantity *g);

/* The seconds a duration's day and year are worth (a year of 365 days). */
#define QUANTITY_DAY_SECONDS 86400.0
#define QUANTITY_YEAR_SECONDS 31536000.0

/*
 * A reporting period ("Q3 2020", "the third quarter", "fiscal 2021"): a
 * year (0: not said) and a quarter (1-4, 0: not said) in one word; 0 is no
 * period. Or one said relative to the period reported on, with no year:
 * QUANTITY_PERIOD_PRIOR_YEAR ("in the prior year", "a year ago", "year
 * over year") or QUANTITY_PERIOD_PRIOR_QUARTER ("in the prior quarter",
 * "sequentially"), quarters 5 and 6. See numlex_period_feed().
 */
#define QUANTITY_PERIOD(year, quarter) ((uint32_t)(year) << 3 | (uint32_t)(quarter))
#define QUANTITY_PERIOD_YEAR(p) ((p) >> 3)
#define QUANTITY_PERIOD_QUARTER(p) ((p) & 7)
#define QUANTITY_PERIOD_PRIOR_YEAR QUANTITY_PERIOD(0, 5)
#define QUANTITY_PERIOD_PRIOR_QUARTER QUANTITY_PERIOD(0, 6)
/* True for a period said relative to the one reported on. */
#define QUANTITY_PERIOD_RELATIVE(p) (QUANTITY_PERIOD_QUARTER(p) > 4)
/*
 * True when both are periods and they cannot be the same: years or
 * quarters both said and unlike; of the relative ones, only the prior year
 * and the prior quarter (the one reported on is unknown: "the prior year"
 * may be 2020).
 */
bool quantity_periods_differ(uint32_t a, uint32_t b);
/* "Q3 2020", "Q3", "2020", "the prior quarter" into out; "" for no period. */
#define QUANTITY_PERIOD_TEXT 24
void quantity_period_text(uint32_t p, char *out, size_t n);

/* The unit_hash of a unit name ("number" for a bare number). */
uint64_t quantity_unit_hash(const char *unit);

/* True when a and g have the same unit. */
bool quantity_same_unit(const struct quantity *a, const struct quantity *g);

/* 10^-decimals: the smallest step of a figure written with that many decimals. */
double quantity_step(int decimals);

/* The figure as written: (value - offset) / scale ("72 °F" is 72, "$1.2 billion" 1.2). */
double quantity_written(const struct quantity *q);

/* The value in q's base of the figure w written in q's unit: w * scale + offset. */
double quantity_base(const struct quantity *q, double w);

/*
 * The values a grounded quantity of a's unit must lie in, [*lo, *hi], to be
 * within tolerance of a by quantity_distance(): relative for the old kinds
 * and ordinals, and for the new kinds whatever their distance is (years and
 * days apart, minutes round the clock, degrees). Infinite bounds say "look
 * at every value": an identifier of another value is always near (any other
 * digits of the same name are a changed name), and "temp:deg" is compared
 * with "temp:c" too, a unit apart.
 */
void quantity_near_range(const struct quantity *a, double tolerance, double *lo, double *hi);

/* Fills q for the new kinds: unit (and its hash), kind, value, scale; decimals 0. */
void quantity_set(struct quantity *q, enum quantity_kind kind, const char *unit, double value,
		  double scale);
/*
 * A figure after a name ("Toby 3632", "Route 66", "Apollo 11"): the name's
 * digits, as the lexer has them for "Windows 11" (unit "ident:<letters>#").
 * name is the name's bytes; false when it is too long for a unit.
 */
bool quantity_set_name(struct quantity *q, const char *name, size_t n, double value);
/*
 * The capitalised word that ends one blank before t[p] ("Toby 3632"), or
 * an id's label before its digits ("ID: 7", "id #7", "ID 7"): its length,
 * or 0; the bytes between it and t[p] in *gap.
 */
size_t quantity_name_before(const char *t, size_t p, size_t *gap);
/*
 * A count or bare number that may be a year as well: four digits of
 * 1900-2099 standing alone at t[p] ("for 2021 remains", where "remains" is
 * counted; not "$2021", "2021.5", "2,021").
 */
bool quantity_may_be_year(const struct quantity *q, const char *t, size_t n, size_t p);

#endif
