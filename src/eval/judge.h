/* SPDX-License-Identifier: MIT */
/*
 * A pairs judge's state, and what its parts call across: pairs.c the
 * verdict, absence.c absences and contrasts, words.c the words and
 * sentences both read. Inside src/eval/ only; the interface is pairs.h.
 */
#ifndef HALLUSCAN_EVAL_JUDGE_H
#define HALLUSCAN_EVAL_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ruleset;
struct scan;

/* Coverage of the claim's content words at or above which the passage
 * supports it, or partially supports it, when nothing can be checked. */
#define COVER_SUPPORTS 0.80
#define COVER_PARTIAL 0.50
/* Bytes of a word stemmed (a longer word is compared by its head). */
#define STEM_MAX 64
/* The claim's sentences with a negation that are held against the
 * passage (the first ones), and how many of the passage's sentences each is
 * held against: those holding the most of its words. */
#define NEG_SENTENCES 64
#define NEG_NEAREST 3
/* The longest name a reason quotes whole (a longer one by its head). */
#define NAME_QUOTED 256
/* Bytes of a list word's stem kept (a longer word is compared by its head). */
#define LIST_STEM 24
/* The absences of one claim held against the passage (the first ones; a
 * claim sentence past them is judged as any other), and the words of the
 * thing each names that are looked for. */
#define ABSENCES_MAX 16
#define ABSENCE_TOPICS 12
/* How many words before a negation its subject is looked for, and after
 * it the verb, noun or participle. */
#define ABSENCE_BEFORE 5
#define ABSENCE_AFTER 3
/* The most words a comma's contrast sets aside ("ill, not drunk"). */
#define CONTRAST_WORDS 4
/* The numbered parts of a passage ("passage 2: ...") told apart, the claim
 * sentences citing one that are held against it, and the words of each
 * weighed. */
#define SEGMENTS_MAX 64
#define CITED_MAX 8
#define CITED_WORDS 32

/* A distinct content word of the claim, by its stem. */
struct word {
	const char *text; /* its stem, in pairs.stems */
	size_t len, count;
	size_t sentence;  /* the last passage sentence holding it, from 1; 0: none */
	uint64_t negated; /* the negated claim sentences holding it (bits of pairs.negs) */
	const char *said; /* its first place in the claim */
	size_t said_len;
	bool name;        /* somewhere a name: is_name() */
	size_t aside;     /* of count, those a contrast sets aside ("not a fish") */
};

/*
 * A claim sentence with a negation or a word of direction, and the passage
 * sentences nearest it.
 */
struct negated_sentence {
	size_t start, end; /* the sentence, in the claim */
	size_t at, len;    /* its first negation ("not", "n't"), or the direction word */
	uint32_t dir;      /* 0: a negation; else the word's direction marks (direction()) */
	size_t hits;       /* words shared with the passage sentence being read */
	struct {
		size_t hits;   /* words shared (0: none yet) */
		size_t from, to;
		uint32_t says; /* MARK_NEGATION if it holds a negation, and its direction marks */
	} near[NEG_NEAREST]; /* the passage sentences sharing the most, most first */
};

/* A list of the rule packs' words (patterns/pairs.yaml), by their stems. */
struct stems {
	char (*w)[LIST_STEM];
	uint8_t *len;
	uint32_t *classes; /* pairs.absence_kinds: the quantity classes (bits) */
	size_t n;
};

/* The lists, in the order of list_names. */
enum {
	L_SOURCES, L_VERBS, L_NOUNS, L_PASSIVES, L_PASSIVES_WEAK, L_PERSONS, L_UNABLE, L_KINDS,
	L_SKIP, L_BREAKS, L_SUBORDINATORS, L_CONTRASTS, L_UNKNOWN, L_COPULAS, L_AFTER_PASSIVE,
	L_CONTRAST_HELD, L_ABBREVIATIONS, L_LABELS, L_TITLES, L_ADJECTIVES, L_EXACT, L_LISTS,
};

/* How many spellings an abbreviation's word may have ("st=saint|street"). */
#define ABBREV_MAX 128

/* A claim's word: its place. */
struct place {
	size_t at, len;
};

/* A clause of the claim that says the passage (or the one answering) lacks something. */
struct absence {
	size_t start, end;     /* the clause, in the claim */
	uint32_t classes;      /* the kinds of thing it names (quantity classes, bits) */
	bool exact;            /* it asks for the exact thing ("the exact date"): a weekday is none */
	size_t n_topics;       /* the words that name the thing, by stem */
	char topic[ABSENCE_TOPICS][LIST_STEM];
	uint8_t topic_len[ABSENCE_TOPICS];
};

/* A list of topics (stems) to look for in a passage sentence. */
struct topics {
	const char (*w)[LIST_STEM];
	const uint8_t *len;
	size_t n;
};

/*
 * A contrast: "murder instead of manslaughter", "ill, not drunk". Its
 * negation is no negation of its clause; the passage contradicts it where
 * it says what the contrast sets aside and not what it asserts.
 */
struct contrast {
	size_t at, len; /* its first word ("not", "instead") */
	size_t end;     /* the end of what it sets aside */
	size_t n_set_aside, n_asserted;
	bool qualified; /* what it sets aside is another thing's ("the tracks of the old line") */
	char set_aside[ABSENCE_TOPICS][LIST_STEM], asserted[ABSENCE_TOPICS][LIST_STEM];
	uint8_t set_aside_len[ABSENCE_TOPICS], asserted_len[ABSENCE_TOPICS];
};

/* What a claim with nothing checkable is weighed on. */
enum claim_words {
	WORDS_CONTENT, /* its content words */
	WORDS_ALL,     /* it has none: all its words */
	WORDS_NONE,    /* it has no word at all */
};

struct pairs {
	struct scan *sc;
	struct word *words; /* the current claim's, sorted */
	size_t n_words, cap_words;
	/* What the scan of one claim found. */
	size_t items, grounded, altered;
	uint64_t first_grounded_at, altered_at;
	bool have_grounded, have_altered;
	char altered_text[64], altered_source[64];
	char missing_text[64]; /* the first checkable item the passage does not hold */
	bool have_missing;
	bool missing_figure; /* and one of them is a number check's */
	const struct ruleset *rs;
	char *stems; /* the claim's words stemmed, each at its own offset */
	size_t cap_stems;
	struct negated_sentence negs[NEG_SENTENCES];
	size_t n_negs;
	size_t n_dirs; /* of them, directions */
	struct stems lists[L_LISTS];
	char *masked; /* the claim, its absences blanked */
	size_t cap_masked;
	struct place *places; /* the claim's words */
	size_t n_places, cap_places;
	struct absence absences[ABSENCES_MAX];
	size_t n_absences;
	struct contrast contrasts[ABSENCES_MAX];
	size_t n_contrasts;
	/* pairs.abbreviations, a row per spelling: an abbreviation and the
	 * word it stands for, by their stems ("ft" and "fort"). */
	struct {
		char a[LIST_STEM], f[LIST_STEM];
		uint8_t al, fl;
	} abbrev[ABBREV_MAX];
	size_t n_abbrev;
	uint32_t abbrev_first; /* the first letters of both sides, as bits of 'a'..'z' */
	/* The passage's numbered parts: where each begins (its label) and
	 * where its text does; each ends where the next begins. */
	struct {
		unsigned num;
		size_t word;       /* its label, by its place in pairs.passage_labels */
		size_t label, text;
	} seg[SEGMENTS_MAX];
	size_t n_seg;
};

/*
 * Whether the passage states what absence x says it lacks: a sentence of
 * it holds the words that name the thing and, where the absence names a
 * kind (a date, a price, a number), a quantity of that kind. An absence
 * that names neither ("I don't know") is never stated.
 */
bool pairs_absence_stated(const struct pairs *p, const char *passage, size_t pn,
			  const struct absence *x, size_t *from, size_t *to);

/*
 * Finds the claim's absences (absence_opens()), the first ABSENCES_MAX,
 * and blanks them in p->masked, a copy of the claim: what is left is what
 * the claim says of the world. Records its contrasts (pairs.contrasts),
 * the first ABSENCES_MAX outside absences.
 */
int pairs_claim_absences(struct pairs *p, const char *t, size_t n);

/* Whether the claim's word at byte at opens one of its contrasts. */
bool pairs_contrast_at(const struct pairs *p, size_t at);

/*
 * Whether the passage says what contrast c sets aside, and nothing of
 * what the claim asserts in its place ("pleaded guilty to murder instead of
 * manslaughter" where the passage says "pleaded guilty to manslaughter").
 */
bool pairs_contrast_reversed(const struct pairs *p, const char *passage, size_t pn,
			     const struct contrast *c, size_t *from, size_t *to);

/* Whether the claim's word at byte at is in what one of its contrasts sets aside. */
bool pairs_set_aside_at(const struct pairs *p, size_t at);

/* Bits of the topics the passage word w[0, k) is (same_head()). */
uint32_t pairs_topics_held(const struct topics *tp, const char *w, size_t k);

/* Whether a word of places [from, to) (clipped to [a, b)) is in list which; *at: the first. */
bool pairs_listed_in(const struct pairs *p, const char *t, size_t which, size_t a, size_t b,
		     ptrdiff_t from, ptrdiff_t to, size_t *at);

/*
 * Whether the word t[i, i + k) of a text of n bytes negates: "not", "no",
 * "never", "none", "nor", "neither", "without", "cannot", or the "t" of
 * "n't" ("doesn't", also with a typographic apostrophe). In a claim not
 * when a hyphen joins it to another word ("no-fee", "never-before-seen":
 * a compound, not a negated statement), nor in "not only", "not just",
 * "not merely", "not simply" and "or not" ("whether or not"). In a passage
 * also "nobody", "nothing", "nowhere", the contractions written without
 * their apostrophe ("dont", "isnt": chat transcripts), a record's "false",
 * and the words that negate by their sense, by stem ("refused", "failed",
 * "lacks", "unavailable", "cancelled": a model's "did not cooperate" for
 * "refused to cooperate"), hyphen or not.
 */
bool pairs_negates(const char *t, size_t n, size_t i, size_t k, bool claim);

/*
 * Whether a sentence ends with t[i]: a line break, or a stop before blank
 * space or the end ("$383.3" and "e.g" do not end one), but not the stop of
 * initials after a capitalized word or with blanks between them ("Franklin
 * D. Roosevelt", "J. R. R. Tolkien"; "in I.V. Another" ends one) or of a
 * capitalized abbreviation that comes before a name
 * (pairs.abbreviations_before_names: "Ft. Bragg", "Mt. Hood"; not "Acme
 * Inc. The company"): after_abbreviation().
 */
bool pairs_ends_sentence(const struct pairs *p, const char *t, size_t n, size_t i);

/* The next word (a run of letters and digits) of t at or after *i: its length (0: none). */
size_t pairs_next_word(const char *t, size_t n, size_t *i);

/* Whether w[0, k) is one of the n words of list, in any case. */
bool pairs_one_of(const char *w, size_t k, const char *const *list, size_t n);

/*
 * The first sentence at or after offset pos: [*start, *end), its leading
 * blank space skipped, its stop kept and a line break that ends it left
 * out. Returns where the next sentence is looked for: past pos (pos < n),
 * so a loop over the sentences ends whatever the text.
 */
size_t pairs_sentence_next(const struct pairs *p, const char *t, size_t n, size_t pos,
			   size_t *start, size_t *end);

/*
 * Whether the claim (cn bytes) weighs its word claim[i, i + k): a content
 * word or a name, or with all any word; *name: whether it is a name.
 */
bool pairs_weighed(const struct pairs *p, const char *claim, size_t cn, size_t i, size_t k,
		   bool all, bool *name);

/*
 * Whether the word w[0, k) is one of list which's, by stem (a participle
 * as written); *classes: a kind's classes.
 */
bool pairs_word_listed(const struct pairs *p, size_t which, const char *w, size_t k,
		       uint32_t *classes);

#endif
