/* SPDX-License-Identifier: MIT */
/*
 * Yes/no attributes of structured records, held against what the answer
 * says of them. A record's true or false (or a string that says yes or no:
 * "True", "no", "free", "none", Python's "u'free'") is an attribute named
 * by the words of its key path, less the pack's generic ones ("attributes",
 * "business", "restaurants"): "BusinessParking": {"validated": false} is
 * named by "parking" and "validated", "RestaurantsTakeOut" by "takeout"
 * (two words one of which is three letters or shorter are also one word:
 * "take out", "take-out", "Wi-Fi"). Words are compared by their stems
 * ("seats" = "seating", "validated" = "validation") and through the pack's
 * synonyms ("atmosphere" = "ambience").
 *
 * In a sentence of the answer that holds every word naming an attribute
 * within six words of its rarest one (at most 16 places of that word are
 * tried, and 512 words read), the attribute is said to be there unless a
 * negation comes before its innermost word in their clause (the pack's
 * clause rules: attrs.c), or a copula and a negation follow them
 * ("WiFi is not available"). Said otherwise than every held attribute of
 * those words says: contradicted. The word lists are the pack's (attr.yes,
 * attr.no, attr.generic, attr.synonyms as "word=canonical", and the clause
 * lists: see patterns/attributes.yaml).
 *
 * attrs_new() returns the lists compiled, freed with attrs_free(); NULL
 * when no pack has an attribute rule.
 */
#ifndef HALLUSCAN_ATTRS_H
#define HALLUSCAN_ATTRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ground.h"
#include "match/rules.h"

/* Words of one sentence looked at, and bytes; the rest of a longer one is not. */
#define ATTRS_TOKENS 512
#define ATTRS_TEXT_MAX (1u << 20)

struct attrs;

/* Returns 0, -ENOMEM, or -EINVAL with d saying which list entry is wrong. */
int attrs_new(const struct ruleset *rs, struct attrs **out, struct diag *d);
void attrs_free(struct attrs *a);
/*
 * Writes a (or NULL) as C data: a definition of "const struct attrs *const
 * name" for a file that includes ground/attrs_int.h. mkdb writes the
 * built-in lists so (issue 35). Returns 0 or -EIO.
 */
int attrs_write_c(const struct attrs *a, FILE *out, const char *name);

/*
 * What a record's value says, as an attribute: false when it says neither
 * yes nor no (a number, a name, null) or its key path names nothing once
 * the generic words are out. words, n: the key path's words, innermost
 * last (struct record_value); is_bool: text is JSON's true or false.
 */
bool attrs_of_value(const struct attrs *a, const char *const *words, size_t n, const char *text,
		    size_t len, bool is_bool, uint64_t at, struct ground_attr *out);

/*
 * An attribute of g the sentence mentions, its words at [from, to):
 * agrees when the sentence says what the record says (or what another
 * record of the same words says: then that record is held), else held is
 * the record it contradicts.
 */
struct attrs_hit {
	size_t from, to;
	const struct ground_attr *held;
	bool agrees;
};

/*
 * Reads the sentence s[0, n) for the attributes g holds, and puts each one
 * it mentions in out, in the order g holds them: one entry per attribute
 * mentioned, so GROUND_ATTR_CAP entries always hold them all. Returns how
 * many it found: more than max when out is too small, and then only the
 * first max are written, which a caller must not take for all of them (it
 * fails instead: a contradiction is never dropped unseen). held points
 * into g, valid while g is unchanged.
 */
size_t attrs_check(const struct attrs *a, const struct ground *g, const char *s, size_t n,
		   struct attrs_hit *out, size_t max);

#endif
