/* SPDX-License-Identifier: MIT */
/*
 * Claim/passage pairs (--pairs): does the passage support the claim? The
 * passage is grounding, the claim is scanned against it; the verdict rests
 * on a changed figure, then on a negation the passage's nearest sentences
 * do not make, then on the claim's checkable items (numbers, URLs,
 * citations) where it has any, and otherwise on how many of its content
 * words the passage holds (of all its words when it has no content word),
 * by stem; a name the passage does not give lowers support to partial.
 * What the claim says the passage lacks (an absence: "The passage does not
 * give the date") is judged apart, wrong only where the passage states it;
 * a contrast ("X, not Y") is no negation of X (absence.c, patterns/pairs.yaml).
 * A name's abbreviation is its word ("Ft." and "Fort"), its initial too
 * ("J. R. R. Tolkien"); a claim sentence citing one numbered part of the
 * passage ("According to passage 2") for what only the others state is
 * does_not_support.
 * The cost is linear in the claim and the passage together, times the log
 * of the claim's words.
 *
 * pairs_new() returns an object freed with pairs_free(); it keeps pointers
 * to the db and policy, which must outlive it.
 */
#ifndef HALLUSCAN_PAIRS_H
#define HALLUSCAN_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "claims/policy.h"
#include "common/util.h"
#include "scan/db.h"

enum pair_label {
	PAIR_SUPPORTS,
	PAIR_PARTIALLY_SUPPORTS,
	PAIR_DOES_NOT_SUPPORT,
};

const char *pair_label_name(enum pair_label l);

struct pair_verdict {
	enum pair_label label;
	char reason[512];
	/* The passage span the verdict rests on (empty when none). */
	size_t quote_start, quote_end;
	size_t items, grounded, altered; /* checkable items in the claim */
	bool figure_missing;             /* one not grounded is a figure */
	/* The claim's sentences with a negation held against the passage
	 * sentences nearest them, and those where one of those negates. */
	size_t negations, negations_held;
	/* The claim's direction words ("increased", "lower") held against the
	 * passage sentences nearest them, and those they reverse (which say
	 * the opposite and nothing of the word's side). */
	size_t directions, directions_reversed;
	/* The claim's names (is_name() in words.c), and those the passage holds. */
	size_t names, names_held;
	/* The claim's absences: clauses saying the passage (or the one
	 * answering) lacks something ("The passage does not specify the
	 * date"), judged apart from the rest; and those the passage
	 * contradicts by stating the thing. */
	size_t absences, absences_stated;
	double coverage;                 /* share of the claim's content words (or of all
	                                    its words, when it has none) in the passage */
};

struct pairs;

int pairs_new(const struct db *db, const struct policy *pol, struct pairs **out);
void pairs_free(struct pairs *p);
/* Judges one pair. */
int pairs_judge(struct pairs *p, const char *claim, size_t claim_len, const char *passage,
		size_t passage_len, struct pair_verdict *v);

#endif
