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
};

struct quantity {
	double value;       /* in the unit's base: dollars, seconds, percent points, items */
	char unit[QUANTITY_UNIT_MAX]; /* "usd", "eur", "gbp", "percent", "seconds", a noun,
					 or "number" for a bare number */
	uint64_t unit_hash; /* of unit: units compare by hash first */
	enum quantity_kind kind;
	int decimals;       /* digits written after the point: the precision claimed */
	double scale;       /* what one written unit is worth in the base (1e9 for "billion") */
	bool words;         /* written in words ("twenty-five") */
};

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
 * True when the written quantity a states the grounded quantity g: the same
 * unit and the same value once g is rounded to the precision a was written
 * with ("$383 billion" states $383.3 billion; "70%" states 69.8%). A bare
 * number g states any a written with that number ("14 days" for 14).
 */
bool quantity_states(const struct quantity *a, const struct quantity *g);

/*
 * True when a and g measure the same thing: the same unit, or a counted
 * noun against a bare number ("140 employees" against "employees": 120).
 */
bool quantity_comparable(const struct quantity *a, const struct quantity *g);

/* True for a count of some noun, or a bare number (not money, a share, a time or a date). */
bool quantity_is_count(const struct quantity *q);

/* |a - g| / |g| for quantities of one unit (infinity when g is 0 and a is not). */
double quantity_distance(const struct quantity *a, const struct quantity *g);

/* The unit_hash of a unit name ("number" for a bare number). */
uint64_t quantity_unit_hash(const char *unit);

/* True when a and g have the same unit. */
bool quantity_same_unit(const struct quantity *a, const struct quantity *g);

/* 10^-decimals: the smallest step of a figure written with that many decimals. */
double quantity_step(int decimals);

#endif
