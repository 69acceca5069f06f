// SPDX-License-Identifier: MIT
/*
 * --pairs: the words of a claim and of a passage: sentences, words, stems
 * held against the packs' lists, negations and names (judge.h).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "wordlists.h"
#include "judge.h"

static bool after_abbreviation(const struct pairs *p, const char *t, size_t dot);

/*
 * Whether a sentence ends with t[i]: a line break, or a stop before blank
 * space or the end ("$383.3" and "e.g" do not end one), but not the stop of
 * initials after a capitalized word or with blanks between them ("Franklin
 * D. Roosevelt", "J. R. R. Tolkien"; "in I.V. Another" ends one) or of a
 * capitalized abbreviation that comes before a name
 * (pairs.abbreviations_before_names: "Ft. Bragg", "Mt. Hood"; not "Acme
 * Inc. The company"): after_abbreviation().
 */
bool pairs_ends_sentence(const struct pairs *p, const char *t, size_t n, size_t i)
{
	size_t s;

	if (t[i] == '\n')
		return true;
	if (!strchr(".!?", t[i]) || (i + 1 < n && !isspace((unsigned char)t[i + 1])))
		return false;
	if (t[i] != '.' || i == 0 || !isalpha((unsigned char)t[i - 1]))
		return true;
	for (s = i; s > 0 && isalpha((unsigned char)t[s - 1]) && i - s <= LIST_STEM; s--)
		;
	if ((s > 0 && isalnum((unsigned char)t[s - 1])) || !isupper((unsigned char)t[s]))
		return true;
	if (i - s == 1) {
		/* the first of spaced initials: "T. S. Eliot" */
		for (s = i + 1; s < n && (t[s] == ' ' || t[s] == '\t'); s++)
			;
		if (s + 1 < n && isupper((unsigned char)t[s]) && t[s + 1] == '.')
			return false;
	}
	return !after_abbreviation(p, t, i);
}

/*
 * The first sentence at or after offset pos: [*start, *end), its leading
 * blank space skipped, its stop kept and a line break that ends it left
 * out. Returns where the next sentence is looked for: past pos (pos < n),
 * so a loop over the sentences ends whatever the text.
 */
size_t pairs_sentence_next(const struct pairs *p, const char *t, size_t n, size_t pos,
			   size_t *start, size_t *end)
{
	size_t s = pos, e;

	while (s < n && isspace((unsigned char)t[s]))
		s++;
	for (e = s; e < n && !pairs_ends_sentence(p, t, n, e); e++)
		;
	*start = s;
	*end = e < n && t[e] != '\n' ? e + 1 : e;
	/* A line's trailing blank space ("\r" of CRLF) is no part of it. */
	while (*end > s && isspace((unsigned char)t[*end - 1]))
		(*end)--;
	return e < n ? e + 1 : n;
}

/* Whether w[0, k) is one of the n words of list, in any case. */
bool pairs_one_of(const char *w, size_t k, const char *const *list, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (strlen(list[j]) == k && strncasecmp(w, list[j], k) == 0)
			return true;
	return false;
}

/* The words too common to weigh (words/pairs.txt: [stop]). */
static bool stopword(const char *w, size_t k)
{
	return pairs_one_of(w, k, words_pairs_stop, ARRAY_SIZE(words_pairs_stop));
}

/* The next word (a run of letters and digits) of t at or after *i: its length (0: none). */
size_t pairs_next_word(const char *t, size_t n, size_t *i)
{
	size_t k = 0;

	while (*i < n && !isalnum((unsigned char)t[*i]))
		(*i)++;
	while (*i + k < n && isalnum((unsigned char)t[*i + k]))
		k++;
	return k;
}

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
bool pairs_negates(const char *t, size_t n, size_t i, size_t k, bool claim)
{
	size_t next, m;
	char stem[16];

	if (k == 1 && (t[i] | 0x20) == 't')
		return (i >= 2 && t[i - 1] == '\'' && (t[i - 2] | 0x20) == 'n') ||
		       (i >= 4 && memcmp(t + i - 3, "\xE2\x80\x99", 3) == 0 && (t[i - 4] | 0x20) == 'n');
	if (!claim) {
		if (pairs_one_of(t + i, k, words_negation, ARRAY_SIZE(words_negation)) ||
		    pairs_one_of(t + i, k, words_passage_negation,
				 ARRAY_SIZE(words_passage_negation)))
			return true;
		if (k < 3 || k > 12)
			return false;
		m = word_stem(t + i, k, stem, sizeof(stem));
		return pairs_one_of(stem, m, words_negation_stem, ARRAY_SIZE(words_negation_stem));
	}
	if (!pairs_one_of(t + i, k, words_negation, ARRAY_SIZE(words_negation)))
		return false;
	if ((i > 0 && t[i - 1] == '-') || (i + k < n && t[i + k] == '-'))
		return false;
	if (k == 3 && strncasecmp(t + i, "not", 3) == 0) {
		next = i + k;
		m = pairs_next_word(t, n, &next);
		if (pairs_one_of(t + next, m, words_not_so, ARRAY_SIZE(words_not_so)))
			return false;
		if (i >= 3 && strncasecmp(t + i - 3, "or ", 3) == 0 &&
		    (i == 3 || !isalnum((unsigned char)t[i - 4])))
			return false;
	}
	return true;
}

/*
 * Whether the stop at t[dot] ends an abbreviation that comes before a name
 * (pairs.abbreviations_before_names) written with a capital ("Ft.", "Dept.") or a run of initials after a
 * capitalized word or with blanks between them ("Franklin D.", "J. R. R.";
 * not "U.S." after "the", which may end its sentence).
 */
static bool after_abbreviation(const struct pairs *p, const char *t, size_t dot)
{
	size_t s, b, initials = 0;
	bool spaced = false;

	for (;;) {
		for (s = dot; s > 0 && isalpha((unsigned char)t[s - 1]); s--)
			;
		if (dot - s > 1 && initials == 0)
			return isupper((unsigned char)t[s]) &&
			       (s == 0 || !isalnum((unsigned char)t[s - 1])) &&
			       pairs_word_listed(p, L_TITLES, t + s, dot - s, NULL);
		if (dot - s != 1 || !isupper((unsigned char)t[s]))
			break;
		initials++;
		for (b = s; b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'); b--)
			;
		if (b < 2 || t[b - 1] != '.' || !isalpha((unsigned char)t[b - 2])) {
			/* the word before the run: a capitalized one ("Franklin D.") */
			for (s = b; s > 0 && isalpha((unsigned char)t[s - 1]); s--)
				;
			return (b - s > 1 && isupper((unsigned char)t[s])) || (spaced && initials > 1);
		}
		spaced |= b < s; /* "J. R.", not "I.V." */
		dot = b - 1;
	}
	return false;
}

/*
 * Whether the word t[i, i + k) is a name: a capital first and a lowercase
 * letter in it ("Maria", "McDonald", not "COVID"), two letters or more, in
 * the middle of a sentence (after a letter, digit or comma: "with Maria",
 * not "Maria said" at a sentence's start, nor after a quote or bracket),
 * or after an abbreviation before names with its stop ("Ft. Hood",
 * "Mt. Baker") or after initials ("Franklin D. Roosevelt", "by J. R. R.
 * Tolkien"; not "the U.S. Later"). Not an abbreviation of four letters or
 * fewer with two capitals ("YoY", "PhD"), nor a word a hyphen joins to
 * another ("Wi-Fi").
 */
static bool is_name(const struct pairs *p, const char *t, size_t n, size_t i, size_t k)
{
	size_t j, upper = 0, lower = 0;

	if (k < 2 || !isupper((unsigned char)t[i]))
		return false;
	for (j = i; j < i + k; j++) {
		upper += isupper((unsigned char)t[j]) != 0;
		lower += islower((unsigned char)t[j]) != 0;
	}
	if (lower == 0 || (k <= 4 && upper >= 2))
		return false;
	if ((i > 0 && t[i - 1] == '-') || (i + k < n && t[i + k] == '-'))
		return false; /* a compound: "Wi-Fi", "Sims-based" */
	for (j = i; j > 0 && (t[j - 1] == ' ' || t[j - 1] == '\t'); j--)
		;
	if (j > 1 && j < i && t[j - 1] == '.' && isalpha((unsigned char)t[j - 2]))
		return after_abbreviation(p, t, j - 1);
	return j > 0 && j < i && (isalnum((unsigned char)t[j - 1]) || t[j - 1] == ',');
}

/*
 * Whether the claim (cn bytes) weighs its word claim[i, i + k): a content
 * word or a name, or with all any word; *name: whether it is a name.
 */
bool pairs_weighed(const struct pairs *p, const char *claim, size_t cn, size_t i, size_t k,
		   bool all, bool *name)
{
	*name = is_name(p, claim, cn, i, k);
	return all || *name || (k >= 4 && !stopword(claim + i, k));
}

/*
 * Whether the word w[0, k) is one of list which's, by stem (a participle
 * as written); *classes: a kind's classes.
 */
bool pairs_word_listed(const struct pairs *p, size_t which, const char *w, size_t k,
		       uint32_t *classes)
{
	const struct stems *l = &p->lists[which];
	char s[LIST_STEM];
	size_t m, i;

	if (l->n == 0 || k == 0)
		return false;
	if (which == L_PASSIVES || which == L_PASSIVES_WEAK || which == L_LABELS) {
		for (i = 0; i < l->n; i++)
			if (l->len[i] == k && strncasecmp(l->w[i], w, k) == 0)
				return true;
		return false;
	}
	m = word_stem(w, k, s, sizeof(s));
	for (i = 0; i < l->n; i++)
		if (l->len[i] == m && memcmp(l->w[i], s, m) == 0) {
			if (classes)
				*classes |= l->classes[i];
			return true;
		}
	return false;
}

/* Whether a word of places [from, to) (clipped to [a, b)) is in list which; *at: the first. */
bool pairs_listed_in(const struct pairs *p, const char *t, size_t which, size_t a, size_t b,
		     ptrdiff_t from, ptrdiff_t to, size_t *at)
{
	ptrdiff_t j;

	for (j = MAX(from, (ptrdiff_t)a); j < to && j < (ptrdiff_t)b; j++)
		if (pairs_word_listed(p, which, t + p->places[j].at, p->places[j].len, NULL)) {
			if (at)
				*at = (size_t)j;
			return true;
		}
	return false;
}
