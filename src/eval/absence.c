// SPDX-License-Identifier: MIT
/*
 * --pairs: what the claim says the passage lacks (its absences: "The
 * passage does not give the date"), and its contrasts ("X, not Y"), read
 * from the claim and held against what the passage states (pairs.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/util.h"
#include "judge.h"
#include "numbers/numlex.h"
#include "wordlists.h"

/* The first word at or after byte i of t[0, e), its length in *k (0: none). */
static size_t word_at(const char *t, size_t e, size_t i, size_t *k)
{
	*k = pairs_next_word(t, e, &i);
	return i;
}

/* How many words t[s, e) holds, counted up to most. */
static size_t words_upto(const char *t, size_t s, size_t e, size_t most)
{
	size_t n = 0, k;

	while (n < most && (k = pairs_next_word(t, e, &s)) > 0) {
		n++;
		s += k;
	}
	return n;
}

/*
 * Where the clause holding byte at of the sentence [s, e) starts: after the
 * last ";" or "(" before it, or at a break word (pairs.absence_breaks) right
 * after the last comma before it that has one ("Tickets cost $45, but the
 * passage does not say", "..., with no mention of"); else at the
 * sentence's start: a comma of a list ("parking, seating, or WiFi is not
 * available") opens no clause. (What is left before it is judged as the
 * rest of the claim, unless it says nothing else: absence_leftover().)
 */
static size_t clause_start(const struct pairs *p, const char *t, size_t s, size_t at)
{
	size_t i, w, k;

	for (i = at; i > s; i--) {
		if (t[i - 1] == ';' || t[i - 1] == '(')
			return i;
		if (t[i - 1] == ',') {
			w = word_at(t, at, i, &k);
			if (k && pairs_word_listed(p, L_BREAKS, t + w, k, NULL))
				return w;
		}
	}
	return s;
}

/*
 * Where the clause holding byte at ends: at the first ";" or bracket after it, or at a
 * comma that a break word follows, or (sub: the clause opens with a
 * subordinator) at the first comma; else at the sentence's end e, before
 * its stop (which keeps the sentence apart from the next one once the
 * clause is blanked).
 */
static size_t clause_end(const struct pairs *p, const char *t, size_t e, size_t at, bool sub,
			 bool any_comma)
{
	size_t i, w, k;

	for (i = at; i < e; i++) {
		if (t[i] == ';' || t[i] == '(' || t[i] == ')')
			return i;
		if (t[i] == ',') {
			if (sub || any_comma)
				return i;
			w = word_at(t, e, i + 1, &k);
			if (k && pairs_word_listed(p, L_BREAKS, t + w, k, NULL))
				return i;
		}
	}
	return e > at && strchr(".!?", t[e - 1]) ? e - 1 : e;
}

/*
 * The first of places [a, j] in the clause of place j (after a ",", ";" or
 * "("), looked for among the ABSENCE_BEFORE places before j: what the
 * source is looked for in, so that every negation costs the same.
 */
static size_t clause_first(const struct pairs *p, const char *t, size_t a, size_t j)
{
	size_t i, x;

	a = MAX(a, j > ABSENCE_BEFORE ? j - ABSENCE_BEFORE : 0);
	for (i = j; i > a; i--)
		for (x = p->places[i - 1].at + p->places[i - 1].len; x < p->places[i].at; x++)
			if (t[x] == ',' || t[x] == ';' || t[x] == '(')
				return i;
	return a;
}

/*
 * Whether the word at places[j] opens an absence in the sentence of places
 * [a, b): a negation (or an "unable", a "nothing") with a source before it
 * in its clause and a verb of telling, a noun of information or a participle after it
 * ("The passage doesn't specify", "the text makes no mention", "the article
 * says nothing"); a person before it and a verb of knowing after ("I don't
 * know", "we could not find"; "have" only with a noun of information or a
 * source after: "I don't have information"); a "no" before a noun of
 * information, opening the sentence or after a copula ("there is no
 * mention of", "with no mention of"; not "the agent provides no
 * information"); a participle of telling after a negation other than "no"
 * ("is not stated"), ending the clause or before a word of
 * pairs.absence_after_passive ("not stated in the text"; not "not
 * available discounts"), and when the participle also says a thing of the
 * world ("not available") only beside a source or a noun of information;
 * an "unable" that opens its sentence, before a verb ("Unable to answer";
 * not "says she is unable to provide"); "not possible to" or "not able to"
 * and a verb.
 */
static bool absence_opens(const struct pairs *p, const char *t, size_t n, size_t a, size_t b,
			  size_t j)
{
	const struct place *w = &p->places[j];
	ptrdiff_t J = (ptrdiff_t)j;
	bool neg = pairs_negates(t, n, w->at, w->len, true), other, no, src, person;
	size_t v = 0;

	other = pairs_word_listed(p, L_UNABLE, t + w->at, w->len, NULL);
	/* "The passage is silent on the cost": a source, a copula, the adjective */
	if (!neg && !other && j > a && pairs_word_listed(p, L_ADJECTIVES, t + w->at, w->len, NULL) &&
	    pairs_word_listed(p, L_COPULAS, t + p->places[j - 1].at, p->places[j - 1].len, NULL) &&
	    pairs_listed_in(p, t, L_SOURCES, clause_first(p, t, a, j), b, J - ABSENCE_BEFORE, J, NULL))
		return true;
	if (!neg && !other)
		return false;
	no = (w->len == 2 && strncasecmp(t + w->at, "no", 2) == 0) ||
	     (other && w->len == 7 && strncasecmp(t + w->at, "nothing", 7) == 0);
	/* the source is the clause's: "Based on the data, the shop does not
	 * offer WiFi" says a thing of the shop */
	src = pairs_listed_in(p, t, L_SOURCES, clause_first(p, t, a, j), b, J - ABSENCE_BEFORE, J, NULL);
	person = pairs_listed_in(p, t, L_PERSONS, a, b, J - 3, J, NULL);
	if (src && (pairs_listed_in(p, t, L_VERBS, a, b, J + 1, J + 1 + ABSENCE_AFTER, NULL) ||
		    pairs_listed_in(p, t, L_NOUNS, a, b, J + 1, J + 1 + ABSENCE_AFTER, NULL) ||
		    pairs_listed_in(p, t, L_PASSIVES, a, b, J + 1, J + 1 + ABSENCE_AFTER, NULL) ||
		    pairs_listed_in(p, t, L_PASSIVES_WEAK, a, b, J + 1, J + 1 + ABSENCE_AFTER, NULL) ||
		    (no && pairs_listed_in(p, t, L_VERBS, a, b, J - 2, J, NULL))))
		return true;
	if (person && pairs_listed_in(p, t, L_VERBS, a, b, J + 1, J + 1 + ABSENCE_AFTER, &v)) {
		const struct place *x = &p->places[v];

		if (!(x->len == 4 && strncasecmp(t + x->at, "have", 4) == 0))
			return true;
		if (pairs_listed_in(p, t, L_NOUNS, a, b, (ptrdiff_t)v + 1, (ptrdiff_t)v + 5, NULL) ||
		    pairs_listed_in(p, t, L_SOURCES, a, b, (ptrdiff_t)v + 1, (ptrdiff_t)v + 5, NULL))
			return true;
	}
	if (no && neg && pairs_listed_in(p, t, L_NOUNS, a, b, J + 1, J + 3, NULL) &&
	    (j == a || pairs_listed_in(p, t, L_COPULAS, a, b, J - 2, J, NULL)))
		return true;
	if (neg && !no && pairs_listed_in(p, t, L_PASSIVES, a, b, J + 1, J + 3, &v) &&
	    (v + 1 >= b || pairs_word_listed(p, L_AFTER_PASSIVE, t + p->places[v + 1].at,
				       p->places[v + 1].len, NULL)))
		return true;
	if (neg && !no && pairs_listed_in(p, t, L_PASSIVES_WEAK, a, b, J + 1, J + 3, &v) &&
	    (v + 1 >= b || pairs_word_listed(p, L_AFTER_PASSIVE, t + p->places[v + 1].at,
				       p->places[v + 1].len, NULL)) &&
	    (pairs_listed_in(p, t, L_SOURCES, a, b, (ptrdiff_t)a, (ptrdiff_t)b, NULL) ||
	     pairs_listed_in(p, t, L_NOUNS, a, b, (ptrdiff_t)a, (ptrdiff_t)b, NULL)))
		return true;
	if (other && !no && j == a && pairs_listed_in(p, t, L_VERBS, a, b, J + 1, J + 1 + ABSENCE_AFTER, NULL))
		return true;
	if (neg && j + 1 < b) {
		const struct place *x = &p->places[j + 1];

		if (((x->len == 8 && strncasecmp(t + x->at, "possible", 8) == 0) ||
		     (x->len == 4 && strncasecmp(t + x->at, "able", 4) == 0)) &&
		    pairs_listed_in(p, t, L_VERBS, a, b, J + 2, J + 4, NULL))
			return true;
	}
	return false;
}

/* The words of the thing an absence [x->start, x->end) names, and its kinds. */
static void absence_topics(const struct pairs *p, const char *t, size_t n, size_t a, size_t b,
			   struct absence *x)
{
	static const size_t vocab[] = {
		L_SOURCES, L_VERBS, L_NOUNS, L_PASSIVES, L_PASSIVES_WEAK, L_PERSONS, L_UNABLE,
		L_SKIP, L_BREAKS, L_SUBORDINATORS, L_ADJECTIVES,
	};
	size_t j, i, m;

	for (j = a; j < b; j++) {
		const struct place *w = &p->places[j];
		char s[LIST_STEM];
		bool skip = false, name;

		if (w->at < x->start || w->at >= x->end)
			continue;
		x->exact |= pairs_word_listed(p, L_EXACT, t + w->at, w->len, NULL);
		if (pairs_word_listed(p, L_KINDS, t + w->at, w->len, &x->classes) ||
		    pairs_negates(t, n, w->at, w->len, true) || !pairs_weighed(p, t, n, w->at, w->len, false, &name))
			continue;
		for (i = 0; i < ARRAY_SIZE(vocab) && !skip; i++)
			skip = pairs_word_listed(p, vocab[i], t + w->at, w->len, NULL);
		if (skip || x->n_topics == ABSENCE_TOPICS)
			continue;
		m = word_stem(t + w->at, w->len, s, sizeof(s));
		for (i = 0; i < x->n_topics && !skip; i++)
			skip = x->topic_len[i] == m && memcmp(x->topic[i], s, m) == 0;
		if (skip)
			continue;
		memcpy(x->topic[x->n_topics], s, m);
		x->topic_len[x->n_topics++] = (uint8_t)m;
	}
}

/*
 * Blanks the whole sentence [s, e) of places [a, b) (but its stop) when
 * what its absences left is only words of theirs ("Based on the passage,",
 * "However,"): they say nothing else.
 */
static void absence_leftover(struct pairs *p, const char *t, size_t n, size_t a, size_t b,
			     size_t s, size_t e)
{
	static const size_t vocab[] = {
		L_SOURCES, L_VERBS, L_NOUNS, L_PERSONS, L_UNABLE, L_SKIP, L_BREAKS,
		L_SUBORDINATORS, L_ADJECTIVES,
	};
	size_t j, i;
	bool name, other = false;

	for (j = a; j < b && !other; j++) {
		const struct place *w = &p->places[j];

		if (p->masked[w->at] == ' ' || !pairs_weighed(p, t, n, w->at, w->len, false, &name))
			continue;
		other = true;
		for (i = 0; i < ARRAY_SIZE(vocab) && other; i++)
			other = !pairs_word_listed(p, vocab[i], t + w->at, w->len, NULL);
	}
	if (!other)
		memset(p->masked + s, ' ', (e > s && strchr(".!?", t[e - 1]) ? e - 1 : e) - s);
}

/* Adds the stem of the word t[i, i + k) to a topic list of at most ABSENCE_TOPICS. */
static void topic_add(char (*topic)[LIST_STEM], uint8_t *len, size_t *n, const char *w, size_t k)
{
	char s[LIST_STEM];
	size_t m = word_stem(w, k, s, sizeof(s)), i;

	for (i = 0; i < *n; i++)
		if (len[i] == m && memcmp(topic[i], s, m) == 0)
			return;
	if (*n == ABSENCE_TOPICS)
		return;
	memcpy(topic[*n], s, m);
	len[(*n)++] = (uint8_t)m;
}

/*
 * Whether a contrast weighs the claim's word t[i, i + k): a content word or
 * a name, or a word of three letters that is not a function word ("by car,
 * not by train", "tea rather than gas").
 */
static bool contrast_word(const struct pairs *p, const char *t, size_t n, size_t i, size_t k)
{
	bool name;

	if (pairs_weighed(p, t, n, i, k, false, &name))
		return true;
	return k == 3 && isalpha((unsigned char)t[i]) && isalpha((unsigned char)t[i + 1]) &&
	       isalpha((unsigned char)t[i + 2]) &&
	       !pairs_one_of(t + i, k, words_function, ARRAY_SIZE(words_function));
}

/*
 * Records the contrast whose phrase is places [j, jj) of the sentence that
 * starts at place a, what it sets aside ending at byte end: its content
 * words, and the last content word before the phrase that is not one of
 * them (what it asserts in its place: "murder" of "murder instead of
 * manslaughter", "month" of "last month, not last year").
 */
static void contrast_add(struct pairs *p, const char *t, size_t n, size_t a, size_t j,
			 size_t jj, size_t end)
{
	struct contrast *c = &p->contrasts[p->n_contrasts++];
	size_t i, first = 0;
	bool name, phrase_ended = false;

	memset(c, 0, sizeof(*c));
	c->at = p->places[j].at;
	c->len = p->places[j].len;
	c->end = end;
	for (i = jj; i < p->n_places && p->places[i].at < end; i++) {
		const struct place *w = &p->places[i];

		/* "of" in its noun phrase: "the arches of the old bridge", not
		 * "the Standard plan and quotes a premium of $50" */
		if (w->len == 2 && strncasecmp(t + w->at, "of", 2) == 0 && !phrase_ended)
			c->qualified = true;
		phrase_ended |= i - jj >= CONTRAST_WORDS + 2 ||
				pairs_one_of(t + w->at, w->len, words_phrase_end, ARRAY_SIZE(words_phrase_end));
		if (contrast_word(p, t, n, w->at, w->len)) {
			if (c->n_set_aside == 0)
				first = i;
			topic_add(c->set_aside, c->set_aside_len, &c->n_set_aside, t + w->at, w->len);
		}
	}
	/* a verb set aside ("rather than leasing it"): the verb before it,
	 * the word before an article ("bought the building") */
	if (c->n_set_aside && p->places[first].len > 5 &&
	    strncasecmp(t + p->places[first].at + p->places[first].len - 3, "ing", 3) == 0)
		for (i = j; i > a + 1 && c->n_asserted == 0; i--) {
			const struct place *w = &p->places[i - 2], *x = &p->places[i - 1];

			if (pairs_one_of(t + x->at, x->len, words_determiner, ARRAY_SIZE(words_determiner)) &&
			    contrast_word(p, t, n, w->at, w->len))
				topic_add(c->asserted, c->asserted_len, &c->n_asserted, t + w->at, w->len);
		}
	for (i = j; i > a && c->n_asserted == 0; i--) {
		const struct place *w = &p->places[i - 1];
		struct topics aside = {c->set_aside, c->set_aside_len, c->n_set_aside};

		if (contrast_word(p, t, n, w->at, w->len) && !pairs_topics_held(&aside, t + w->at, w->len))
			topic_add(c->asserted, c->asserted_len, &c->n_asserted, t + w->at, w->len);
	}
	(void)name;
}

/*
 * Finds the claim's absences (absence_opens()), the first ABSENCES_MAX,
 * and blanks them in p->masked, a copy of the claim: what is left is what
 * the claim says of the world. Records its contrasts (pairs.contrasts),
 * the first ABSENCES_MAX outside absences.
 */
int pairs_claim_absences(struct pairs *p, const char *t, size_t n)
{
	size_t at = 0, s, e, a, b, j, k, c, i = 0;

	p->n_absences = 0;
	p->n_contrasts = 0;
	p->n_places = 0;
	if (grow(&p->masked, &p->cap_masked, MAX(n, (size_t)1), 1) < 0)
		return -ENOMEM;
	memcpy(p->masked, t, n);
	if (p->lists[L_SOURCES].n == 0 && p->lists[L_CONTRASTS].n == 0)
		return 0;
	while ((k = pairs_next_word(t, n, &i)) > 0) {
		if (grow(&p->places, &p->cap_places, p->n_places + 1, sizeof(*p->places)) < 0)
			return -ENOMEM;
		p->places[p->n_places++] = (struct place){i, k};
		i += k;
	}
	for (a = 0; at < n;) {
		at = pairs_sentence_next(p, t, n, at, &s, &e);
		while (a < p->n_places && p->places[a].at < s)
			a++;
		for (b = a; b < p->n_places && p->places[b].at < e; b++)
			;
		for (j = a; j < b; j++) {
			const struct place *w = &p->places[j];
			struct absence *x;
			size_t cs, fw, fk;

			if (p->masked[w->at] == ' ' || p->n_absences == ABSENCES_MAX ||
			    !absence_opens(p, t, n, a, b, j))
				continue;
			x = &p->absences[p->n_absences++];
			memset(x, 0, sizeof(*x));
			cs = clause_start(p, t, s, w->at);
			while (cs < w->at && isspace((unsigned char)t[cs]))
				cs++;
			fw = word_at(t, e, cs, &fk);
			/* "While the gallery holds 120 models, the passage does not
			 * say ...": the subordinate clause before the comma is the
			 * claim's own */
			if (fk && pairs_word_listed(p, L_SUBORDINATORS, t + fw, fk, NULL)) {
				size_t comma = w->at;

				while (comma > cs && t[comma - 1] != ',')
					comma--;
				if (comma > cs) {
					cs = comma;
					while (cs < w->at && isspace((unsigned char)t[cs]))
						cs++;
					fw = word_at(t, e, cs, &fk);
				}
			}
			x->start = cs;
			x->end = clause_end(p, t, e, w->at, fk && pairs_word_listed(p, L_SUBORDINATORS, t + fw, fk, NULL),
					    false);
			absence_topics(p, t, n, a, b, x);
			memset(p->masked + x->start, ' ', x->end - x->start);
			absence_leftover(p, t, n, a, b, s, e);
		}
		for (j = a; j < b; j++) {
			const struct place *w = &p->places[j];

			/* (past the first ABSENCES_MAX, a contrast's "not" is a negation again) */
			if (p->masked[w->at] == ' ' || p->n_contrasts == ABSENCES_MAX)
				continue;
			for (c = 0; c < p->lists[L_CONTRASTS].n; c++) {
				const char *ph = p->lists[L_CONTRASTS].w[c];
				size_t pl = p->lists[L_CONTRASTS].len[c], q = 0, jj = j, end, nx;
				bool comma = pl > 0 && ph[0] == ',';

				if (comma) {
					size_t z = w->at;

					while (z > s && (t[z - 1] == ' ' || t[z - 1] == '\t'))
						z--;
					if (z == s || t[z - 1] != ',')
						continue;
					q = 1;
				}
				/* each word of the phrase, in turn */
				while (q < pl && jj < b) {
					size_t wl;

					while (q < pl && ph[q] == ' ')
						q++;
					for (wl = 0; q + wl < pl && ph[q + wl] != ' '; wl++)
						;
					if (wl != p->places[jj].len ||
					    strncasecmp(t + p->places[jj].at, ph + q, wl) != 0)
						break;
					q += wl;
					jj++;
				}
				if (q < pl || jj == j)
					continue;
				/* not "..., not only X but Y" (no negation), nor a hyphen's "not-for-profit" */
				nx = p->places[jj - 1].at + p->places[jj - 1].len;
				if (nx < n && t[nx] == '-')
					continue;
				if (comma && !pairs_negates(t, n, w->at, w->len, true))
					continue;
				end = clause_end(p, t, e, nx, false, true);
				/* ", not" sets aside a short phrase ("ill, not drunk", "a
				 * mammal, not a fish"); before a verb's "-ing" or a clause
				 * ("..., not providing coverage at ...") it negates */
				if (comma && (words_upto(t, nx, end, CONTRAST_WORDS + 1) > CONTRAST_WORDS ||
					      (jj < b && p->places[jj].len > 4 &&
					       strncasecmp(t + p->places[jj].at + p->places[jj].len - 3,
							   "ing", 3) == 0)))
					continue;
				contrast_add(p, t, n, a, j, jj, end);
				break;
			}
		}
		a = b;
	}
	return 0;
}

/*
 * Whether two stems name the same thing: equal, or the shorter one (four
 * letters or more) begins the other, which is at most three letters longer
 * ("merg" of "merge" and "merger", which the stemmer leaves apart).
 */
static bool same_head(const char *a, size_t an, const char *b, size_t bn)
{
	if (an > bn) {
		const char *t = a;
		size_t tn = an;

		a = b, an = bn, b = t, bn = tn;
	}
	return an == bn ? memcmp(a, b, an) == 0 : an >= 4 && bn - an <= 3 && memcmp(a, b, an) == 0;
}

/* The classes of the quantities of a passage sentence, as they are read. */
struct classes_seen {
	const char *text;
	size_t n;
	uint32_t bits;
};

/*
 * Adds the class of a quantity to the bits; a count or bare number that
 * may be a year ("founded in 1998") is a year too.
 */
static void add_class(struct classes_seen *c, const struct numlex_item *it)
{
	enum quantity_class k = quantity_class_of(&it->q);

	if (it->flags & NUMLEX_NOT_CLAIM)
		return;
	c->bits |= 1u << k;
	if ((k == QC_NUMBER || k == QC_COUNT) &&
	    quantity_may_be_year(&it->q, c->text, c->n, it->part_from))
		c->bits |= 1u << QC_YEAR;
}

/* The classes of the quantities of text[0, n) (add_class()). */
static uint32_t classes_in(const char *text, size_t n)
{
	struct classes_seen found = {text, n, 0};
	struct numlex lx;
	struct numlex_item items[NUMLEX_BATCH];
	int k, j;

	/* (an error, never seen, leaves the classes so far, as the scan
	 * stopped before) */
	for (k = numlex_scan(&lx, text, n, 0, items, NUMLEX_BATCH);;
	     k = numlex_resume(&lx, items, NUMLEX_BATCH)) {
		for (j = 0; j < k; j++)
			add_class(&found, &items[j]);
		if (k < NUMLEX_BATCH)
			break;
	}
	return found.bits;
}

/* Bits of the topics the passage word w[0, k) is (same_head()). */
uint32_t pairs_topics_held(const struct topics *tp, const char *w, size_t k)
{
	char st[LIST_STEM];
	size_t m, j;
	uint32_t bits = 0;

	if (tp->n == 0)
		return 0;
	m = word_stem(w, k, st, sizeof(st));
	for (j = 0; j < tp->n; j++)
		if (same_head(tp->w[j], tp->len[j], st, m))
			bits |= 1u << j;
	return bits;
}

/* Whether w[0, k) names a day of the week or a month, capitalized ("on Thursday", "in May"). */
static bool day_or_month(const char *w, size_t k)
{
	static const char *const names[] = {
		"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
		"January", "February", "March", "April", "May", "June", "July", "August",
		"September", "October", "November", "December",
	};
	size_t j;

	if (k < 3 || !isupper((unsigned char)w[0]))
		return false;
	for (j = 0; j < ARRAY_SIZE(names); j++)
		if (strlen(names[j]) == k && memcmp(names[j], w, k) == 0)
			return true;
	return false;
}

/*
 * The first passage sentence without a negation (or a word of the list
 * also: pairs.absence_unknown, "remains a mystery"; pairs.contrast_held,
 * "unlike a fish") that holds the topics of
 * want (all of up to three, three quarters of more) and none of avoid's,
 * and, when classes is not 0, a quantity of one of those classes: true
 * and *from, *to. Nothing to look for is never found.
 */
static bool passage_states(const struct pairs *p, const char *passage, size_t pn,
			   const struct topics *want, const struct topics *avoid, uint32_t classes,
			   bool days, size_t also, size_t *from, size_t *to)
{
	/* with a kind, its quantity is the statement and two thirds of the
	 * words name its thing ("when crews reopened the road": "crews reopened
	 * one lane on Thursday") */
	size_t need = want->n <= 3 && !classes ? want->n
		      : want->n <= 2       ? want->n
		      : classes            ? (2 * want->n + 2) / 3
					   : (3 * want->n + 3) / 4,
	       at, s, e;

	if (want->n == 0 && classes == 0)
		return false;
	for (at = 0; at < pn;) {
		size_t i, k;
		uint32_t seen = 0;
		bool neg = false, day = false;

		at = pairs_sentence_next(p, passage, pn, at, &s, &e);
		for (i = s; (k = pairs_next_word(passage, e, &i)) > 0 && !neg; i += k) {
			/* "costs $35 for patients without insurance" says the cost */
			neg = (pairs_negates(passage, pn, i, k, false) &&
			       !(k == 7 && strncasecmp(passage + i, "without", 7) == 0)) ||
			      pairs_word_listed(p, also, passage + i, k, NULL) ||
			      pairs_topics_held(avoid, passage + i, k) != 0;
			seen |= pairs_topics_held(want, passage + i, k);
			day |= days && (classes & (1u << QC_DATE)) && day_or_month(passage + i, k);
		}
		if (neg || (size_t)__builtin_popcount(seen) < need)
			continue;
		if (classes && !day) {
			if (!(classes_in(passage + s, e - s) & classes))
				continue;
		}
		*from = s;
		*to = e;
		return true;
	}
	return false;
}

/*
 * Whether the passage states what absence x says it lacks: a sentence of
 * it holds the words that name the thing and, where the absence names a
 * kind (a date, a price, a number), a quantity of that kind. An absence
 * that names neither ("I don't know") is never stated.
 */
bool pairs_absence_stated(const struct pairs *p, const char *passage, size_t pn,
			  const struct absence *x, size_t *from, size_t *to)
{
	struct topics want = {x->topic, x->topic_len, x->n_topics}, none = {0};

	return passage_states(p, passage, pn, &want, &none, x->classes, !x->exact, L_UNKNOWN, from,
			      to);
}

/*
 * Whether the passage says what contrast c sets aside, and nothing of
 * what the claim asserts in its place ("pleaded guilty to murder instead of
 * manslaughter" where the passage says "pleaded guilty to manslaughter").
 */
bool pairs_contrast_reversed(const struct pairs *p, const char *passage, size_t pn,
			     const struct contrast *c, size_t *from, size_t *to)
{
	struct topics want = {c->set_aside, c->set_aside_len, c->n_set_aside};
	struct topics avoid = {c->asserted, c->asserted_len, c->n_asserted};

	/* "runs underground, as opposed to the tracks of the old line" sets
	 * another thing beside it, which the passage may well describe */
	return want.n > 0 && !c->qualified &&
	       passage_states(p, passage, pn, &want, &avoid, 0, false, L_CONTRAST_HELD, from, to);
}

/* Whether the claim's word at byte at is in what one of its contrasts sets aside. */
bool pairs_set_aside_at(const struct pairs *p, size_t at)
{
	size_t i;

	for (i = 0; i < p->n_contrasts; i++)
		if (p->contrasts[i].at <= at && at < p->contrasts[i].end)
			return true;
	return false;
}

/* Whether the claim's word at byte at opens one of its contrasts. */
bool pairs_contrast_at(const struct pairs *p, size_t at)
{
	size_t i;

	for (i = 0; i < p->n_contrasts; i++)
		if (p->contrasts[i].at == at)
			return true;
	return false;
}
