// SPDX-License-Identifier: MIT
/* Claim/passage pairs judged against the passage as grounding. */
#include "pairs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "judge.h"
#include "numbers/numlex.h"
#include "scan/scan.h"

static const char *const list_names[L_LISTS] = {
	"pairs.absence_sources", "pairs.absence_verbs", "pairs.absence_nouns",
	"pairs.absence_passives", "pairs.absence_passives_weak", "pairs.absence_persons",
	"pairs.absence_unable", "pairs.absence_kinds", "pairs.absence_skip",
	"pairs.absence_breaks", "pairs.absence_subordinators", "pairs.contrasts",
	"pairs.absence_unknown", "pairs.absence_copulas", "pairs.absence_after_passive",
	"pairs.contrast_held", "pairs.abbreviations", "pairs.passage_labels",
	"pairs.abbreviations_before_names", "pairs.absence_adjectives", "pairs.absence_exact",
};

static const char *const label_names[] = {
	[PAIR_SUPPORTS] = "supports",
	[PAIR_PARTIALLY_SUPPORTS] = "partially_supports",
	[PAIR_DOES_NOT_SUPPORT] = "does_not_support",
};

const char *pair_label_name(enum pair_label l)
{
	return label_names[l];
}

static int pair_finding(void *ctx, const struct finding *f)
{
	struct pairs *p = ctx;

	if (f->source && !p->have_altered) {
		p->have_altered = true;
		p->altered_at = f->source_at;
		snprintf(p->altered_text, sizeof(p->altered_text), "%.*s", (int)MIN(f->text_len, 60), f->text);
		snprintf(p->altered_source, sizeof(p->altered_source), "%s", f->source);
	}
	p->altered += f->source != NULL;
	return 0;
}

/*
 * Whether item i is a figure's exact-text check (a statistic's rule) over a
 * figure the number check judges too: the number check decides it, for it
 * knows rounding ("93.2%" grounded by "93.24%", which the exact text is not).
 */
static bool judged_as_quantity(const struct pairs *p, const struct claim *cl, size_t i)
{
	const struct claim_item *a = &cl->items[i];
	size_t j;

	if (p->rs->rules[a->rule].grounding != GROUNDING_NUMBER)
		return false;
	for (j = 0; j < cl->n_items; j++)
		if (p->rs->rules[cl->items[j].rule].grounding == GROUNDING_QUANTITY &&
		    cl->items[j].from < a->to && a->from < cl->items[j].to)
			return true;
	return false;
}

static int pair_claim(void *ctx, const struct claim *cl)
{
	struct pairs *p = ctx;
	size_t i;

	for (i = 0; i < cl->n_items; i++) {
		if (judged_as_quantity(p, cl, i))
			continue;
		p->items++;
		if (!cl->items[i].grounded) {
			if (p->rs->rules[cl->items[i].rule].grounding == GROUNDING_QUANTITY &&
			    !p->missing_figure) {
				/* A figure names what is missing before any other item. */
				p->missing_figure = true;
				p->have_missing = false;
			}
			if (!p->have_missing) {
				p->have_missing = true;
				snprintf(p->missing_text, sizeof(p->missing_text), "%.*s",
					 (int)MIN(cl->items[i].text_len, 60), cl->items[i].text);
			}
			continue;
		}
		if (!p->have_grounded) {
			p->have_grounded = true;
			p->first_grounded_at = cl->items[i].grounded_at;
		}
		p->grounded++;
	}
	return 0;
}

static void stems_free(struct stems *l)
{
	free(l->w);
	free(l->len);
	free(l->classes);
	*l = (struct stems){0};
}

/*
 * Reads the list called name into l, each word by its stem (a contrast's
 * phrase and a participle as written, lowercased: "stated" is no "state").
 * A kind is "word=class|class": an unknown class, or a phrase or
 * participle longer than LIST_STEM bytes, is -EINVAL. A ruleset without
 * the list leaves it empty.
 */
static int stems_load(const struct ruleset *rs, size_t which, struct stems *l)
{
	const struct wordlist *wl = ruleset_list(rs, list_names[which]);
	size_t i;

	*l = (struct stems){0};
	if (!wl || wl->n_words == 0)
		return 0;
	l->w = calloc(wl->n_words, sizeof(*l->w));
	l->len = calloc(wl->n_words, sizeof(*l->len));
	l->classes = calloc(wl->n_words, sizeof(*l->classes));
	if (!l->w || !l->len || !l->classes)
		return -ENOMEM;
	for (i = 0; i < wl->n_words; i++) {
		const char *w = wl->words[i],
			   *eq = which == L_KINDS || which == L_ABBREVIATIONS ? strchr(w, '=') : NULL;
		size_t n = eq ? (size_t)(eq - w) : strlen(w), j;

		if (which == L_ABBREVIATIONS && (!eq || n == 0 || eq[1] == '\0'))
			return -EINVAL;
		if (which == L_KINDS) {
			const char *c = eq ? eq + 1 : NULL;

			if (!eq || n == 0)
				return -EINVAL;
			while (c && *c) {
				const char *bar = strchr(c, '|');
				size_t m = bar ? (size_t)(bar - c) : strlen(c);
				char name[24];
				int k;

				if (m == 0 || m >= sizeof(name))
					return -EINVAL;
				memcpy(name, c, m);
				name[m] = '\0';
				if ((k = quantity_class_parse(name)) < 0)
					return -EINVAL;
				l->classes[i] |= 1u << k;
				c = bar ? bar + 1 : NULL;
			}
		}
		if (which == L_CONTRASTS || which == L_PASSIVES || which == L_PASSIVES_WEAK ||
		    which == L_LABELS) {
			/* a phrase cut short would match what it does not say */
			if (n == 0 || n > LIST_STEM)
				return -EINVAL;
			for (j = 0; j < n; j++)
				l->w[i][j] = (char)tolower((unsigned char)w[j]);
			l->len[i] = (uint8_t)n;
		} else {
			l->len[i] = (uint8_t)word_stem(w, n, l->w[i], LIST_STEM);
		}
	}
	l->n = wl->n_words;
	return 0;
}

/*
 * Reads pairs.abbreviations ("ft=fort", "st=saint|street") into a row per
 * spelling; more than ABBREV_MAX rows, or an empty spelling, is -EINVAL.
 */
static int abbrev_load(struct pairs *p)
{
	const struct wordlist *wl = ruleset_list(p->rs, list_names[L_ABBREVIATIONS]);
	size_t i;

	for (i = 0; wl && i < wl->n_words; i++) {
		const char *w = wl->words[i], *eq = strchr(w, '='), *c;

		for (c = eq + 1; *c;) {
			const char *bar = strchr(c, '|');
			size_t m = bar ? (size_t)(bar - c) : strlen(c);

			if (m == 0 || p->n_abbrev == ABBREV_MAX)
				return -EINVAL;
			p->abbrev[p->n_abbrev].al = (uint8_t)word_stem(w, (size_t)(eq - w),
								       p->abbrev[p->n_abbrev].a, LIST_STEM);
			p->abbrev[p->n_abbrev].fl = (uint8_t)word_stem(c, m, p->abbrev[p->n_abbrev].f,
								       LIST_STEM);
			p->abbrev_first |= 1u << ((p->abbrev[p->n_abbrev].a[0] - 'a') & 31);
			p->abbrev_first |= 1u << ((p->abbrev[p->n_abbrev].f[0] - 'a') & 31);
			p->n_abbrev++;
			c = bar ? bar + 1 : c + m;
		}
	}
	return 0;
}

int pairs_new(const struct db *db, const struct policy *pol, struct pairs **out)
{
	struct pairs *p = calloc(1, sizeof(*p));
	size_t i;
	int err;

	if (!p)
		return -ENOMEM;
	err = scan_new(db, pol, pair_finding, p, &p->sc);
	if (err < 0) {
		free(p);
		return err;
	}
	scan_claims(p->sc, pair_claim, p);
	p->rs = db->rs;
	for (i = 0; i < L_LISTS; i++) {
		err = stems_load(db->rs, i, &p->lists[i]);
		if (err < 0) {
			pairs_free(p);
			return err;
		}
	}
	err = abbrev_load(p);
	if (err < 0) {
		pairs_free(p);
		return err;
	}
	*out = p;
	return 0;
}

void pairs_free(struct pairs *p)
{
	size_t i;

	if (!p)
		return;
	scan_free(p->sc);
	for (i = 0; i < L_LISTS; i++)
		stems_free(&p->lists[i]);
	free(p->words);
	free(p->stems);
	free(p->masked);
	free(p->places);
	free(p);
}

/* The sentence of text around offset at: [*start, *end). */
static void sentence_around(const struct pairs *p, const char *t, size_t n, size_t at, size_t *start, size_t *end)
{
	size_t s = MIN(at, n);

	while (s > 0 && !pairs_ends_sentence(p, t, n, s - 1))
		s--;
	pairs_sentence_next(p, t, n, s, start, end);
}

/*
 * Case-insensitive order of words: by their bytes folded, then by length.
 * Words are ASCII letters and digits, which "| 0x20" folds without
 * confusing any two (digits already have the bit).
 */
static int word_order(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i, n = MIN(an, bn);

	for (i = 0; i < n; i++) {
		unsigned char x = (unsigned char)a[i] | 0x20, y = (unsigned char)b[i] | 0x20;

		if (x != y)
			return x < y ? -1 : 1;
	}
	return (an > bn) - (an < bn);
}

static int cmp_words(const void *x, const void *y)
{
	const struct word *a = x, *b = y;

	return word_order(a->text, a->len, b->text, b->len);
}

/*
 * Words that say which way a thing moved, by stem (word_stem(); irregular
 * forms listed): marks of the side (MARK_UP, MARK_DOWN) and of the pair of
 * opposites they belong to, an up bit and the down bit after it. A claim
 * sentence that says one of a pair ("revenue decreased") where the passage
 * sentences nearest it say its opposite ("revenue increased") and nothing
 * of its side reverses the passage, as an added negation does. The words
 * marked with a side alone ("dropped", "climbed") are such sides said
 * otherwise: in the passage they hold a claim's side, in a claim they are
 * no check (their other senses: "declined to comment", "cut a deal").
 */
enum {
	MARK_NEGATION = 1u << 0,
	MARK_UP = 1u << 1,
	MARK_DOWN = 1u << 2,
};
#define PAIR_BIT(n) (1u << (3 + 2 * (n)))
#define UP(n) (MARK_UP | PAIR_BIT(n))
#define DOWN(n) (MARK_DOWN | (PAIR_BIT(n) << 1))
/* The pairs' up bits and down bits (nine pairs). */
#define PAIRS_UP_BITS (PAIR_BIT(0) | PAIR_BIT(1) | PAIR_BIT(2) | PAIR_BIT(3) | PAIR_BIT(4) | \
		       PAIR_BIT(5) | PAIR_BIT(6) | PAIR_BIT(7) | PAIR_BIT(8))
#define PAIRS_DOWN_BITS (PAIRS_UP_BITS << 1)

static const struct {
	const char *stem;
	uint32_t marks;
} directions[] = {
	/* the pairs */
	{"increas", UP(0)}, {"decreas", DOWN(0)},
	{"rise", UP(1)}, {"ris", UP(1)}, {"rose", UP(1)}, {"risen", UP(1)},
	{"fall", DOWN(1)}, {"fell", DOWN(1)}, {"fallen", DOWN(1)},
	{"gain", UP(2)}, {"profit", UP(3)}, {"loss", DOWN(2) | DOWN(3)},
	{"grow", UP(4)}, {"grew", UP(4)}, {"grown", UP(4)}, {"growth", UP(4)},
	{"shrink", DOWN(4)}, {"shrank", DOWN(4)}, {"shrunk", DOWN(4)},
	{"higher", UP(5)}, {"lower", DOWN(5)},
	{"improv", UP(6)}, {"improvement", UP(6)}, {"worsen", DOWN(6)},
	{"strengthen", UP(7)}, {"weaken", DOWN(7)},
	{"accelerat", UP(8)}, {"decelerat", DOWN(8)},
	/* sides said otherwise */
	{"boost", MARK_UP}, {"climb", MARK_UP}, {"doubl", MARK_UP}, {"exce", MARK_UP},
	{"exceed", MARK_UP}, {"expand", MARK_UP}, {"jump", MARK_UP}, {"rais", MARK_UP},
	{"soar", MARK_UP}, {"stronger", MARK_UP}, {"surg", MARK_UP}, {"tripl", MARK_UP},
	{"up", MARK_UP},
	{"contract", MARK_DOWN}, {"cut", MARK_DOWN}, {"declin", MARK_DOWN}, {"deficit", MARK_DOWN},
	{"dip", MARK_DOWN}, {"dipp", MARK_DOWN}, {"down", MARK_DOWN}, {"drop", MARK_DOWN},
	{"dropp", MARK_DOWN}, {"lost", MARK_DOWN}, {"plung", MARK_DOWN}, {"reduc", MARK_DOWN},
	{"reduct", MARK_DOWN}, {"slid", MARK_DOWN}, {"slip", MARK_DOWN}, {"slipp", MARK_DOWN},
	{"slow", MARK_DOWN}, {"slower", MARK_DOWN}, {"slump", MARK_DOWN}, {"tumbl", MARK_DOWN},
	{"weaker", MARK_DOWN}, {"wors", MARK_DOWN},
};

/* The direction marks of the word t[i, i + k), or 0. */
static uint32_t direction(const char *t, size_t i, size_t k)
{
	char stem[16];
	size_t m, j;

	if (k < 2 || k > 12)
		return 0;
	m = word_stem(t + i, k, stem, sizeof(stem));
	for (j = 0; j < ARRAY_SIZE(directions); j++)
		if (directions[j].stem[0] == stem[0] && strlen(directions[j].stem) == m &&
		    memcmp(directions[j].stem, stem, m) == 0)
			return directions[j].marks;
	return 0;
}

/*
 * The marks of a claim's word that is checked as a direction: one of a
 * pair, standing alone ("lower-income" is a compound, not a fall), or 0.
 */
static uint32_t claim_direction(const char *t, size_t n, size_t i, size_t k)
{
	uint32_t d = direction(t, i, k);

	if (!(d & (PAIRS_UP_BITS | PAIRS_DOWN_BITS)))
		return 0;
	if ((i > 0 && t[i - 1] == '-') || (i + k < n && t[i + k] == '-'))
		return 0;
	return d;
}

/* The opposites of a claim word's marks: the other word of each of its pairs. */
static uint32_t opposite(uint32_t d)
{
	return ((d & PAIRS_UP_BITS) << 1) | ((d & PAIRS_DOWN_BITS) >> 1);
}

/*
 * Collects the claim's content words (four letters or more, not function
 * words) and names, or with all every word, by their stems, sorted, each
 * once with its count; *total counts them all, *shortest is the shortest
 * stem (a passage word shorter than that has no stem among them).
 */
static int claim_words(struct pairs *p, const char *claim, size_t cn, bool all, size_t *total,
		       size_t *shortest)
{
	size_t i = 0, j, k;
	bool name;

	p->n_words = 0;
	*total = 0;
	*shortest = SIZE_MAX;
	if (grow(&p->stems, &p->cap_stems, MAX(cn, (size_t)1), 1) < 0)
		return -ENOMEM;
	while ((k = pairs_next_word(claim, cn, &i)) > 0) {
		if (pairs_weighed(p, claim, cn, i, k, all, &name)) {
			if (grow(&p->words, &p->cap_words, p->n_words + 1, sizeof(*p->words)) < 0)
				return -ENOMEM;
			/* (a stem is no longer than its word: each has its own bytes) */
			p->words[p->n_words++] = (struct word){
				.text = p->stems + i, .len = word_stem(claim + i, k, p->stems + i, STEM_MAX),
				.count = 1, .said = claim + i, .said_len = k, .name = name,
				.aside = pairs_set_aside_at(p, i),
			};
			*shortest = MIN(*shortest, p->words[p->n_words - 1].len);
			(*total)++;
		}
		i += k;
	}
	if (p->n_words > 1)
		qsort(p->words, p->n_words, sizeof(*p->words), cmp_words);
	for (i = j = 0; i < p->n_words; i++) {
		struct word *w = &p->words[j - (j > 0)];

		if (j > 0 && cmp_words(w, &p->words[i]) == 0) {
			w->count++;
			w->aside += p->words[i].aside;
			w->name |= p->words[i].name;
			if (p->words[i].said < w->said) {
				w->said = p->words[i].said;
				w->said_len = p->words[i].said_len;
			}
		} else {
			p->words[j++] = p->words[i];
		}
	}
	p->n_words = j;
	return 0;
}

/* The claim's word whose stem is s[0, k), or NULL. */
static struct word *find_stem(struct pairs *p, const char *s, size_t k)
{
	size_t lo = 0, hi = p->n_words;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = word_order(s, k, p->words[mid].text, p->words[mid].len);

		if (c == 0)
			return &p->words[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The claim's word with the stem of w[0, k), or NULL. */
static struct word *find_word(struct pairs *p, const char *w, size_t k)
{
	char s[STEM_MAX];

	k = word_stem(w, k, s, sizeof(s));
	return find_stem(p, s, k);
}

/* Adds a claim sentence [s, e) to check, its word at [at, at + len) (dir: direction()). */
static void check_add(struct pairs *p, size_t s, size_t e, size_t at, size_t len, uint32_t dir)
{
	p->negs[p->n_negs++] = (struct negated_sentence){.start = s, .end = e, .at = at, .len = len,
							 .dir = dir};
	p->n_dirs += dir != 0;
}

/*
 * Finds the claim's sentences with a negation, and the direction words of
 * those without one (one for each of its pairs: the negation reverses a
 * direction, "did not increase"), the first NEG_SENTENCES in all
 * (p->n_negs is 0 before), and marks the words of each sentence in the
 * table, for coverage() to find the passage sentences that share the most
 * of them.
 */
static void claim_negations(struct pairs *p, const char *claim, size_t cn, bool all)
{
	size_t at = 0, s, e, i, k, first;
	uint64_t bits;

	p->n_dirs = 0;
	while (at < cn && p->n_negs < NEG_SENTENCES) {
		uint32_t seen = 0, d;
		struct word *w;
		bool name;

		at = pairs_sentence_next(p, claim, cn, at, &s, &e);
		first = p->n_negs;
		/* a contrast's "not" ("ill, not drunk") negates what it sets aside, not the sentence */
		for (i = s; (k = pairs_next_word(claim, e, &i)) > 0 &&
			    (!pairs_negates(claim, cn, i, k, true) || pairs_contrast_at(p, i));
		     i += k)
			;
		if (k > 0) {
			check_add(p, s, e, i, k, 0);
		} else {
			for (i = s; (k = pairs_next_word(claim, e, &i)) > 0 && p->n_negs < NEG_SENTENCES; i += k)
				if ((d = claim_direction(claim, cn, i, k)) &&
				    (d & ~seen & (PAIRS_UP_BITS | PAIRS_DOWN_BITS))) {
					seen |= d;
					check_add(p, s, e, i, k, d);
				}
		}
		if (p->n_negs == first)
			continue;
		bits = (p->n_negs == 64 ? ~0ull : (1ull << p->n_negs) - 1) & ~((1ull << first) - 1);
		for (i = s; (k = pairs_next_word(claim, e, &i)) > 0; i += k)
			if (pairs_weighed(p, claim, cn, i, k, all, &name) && (w = find_word(p, claim + i, k)))
				w->negated |= bits;
	}
}

/* A passage sentence [s, e) shares g->hits words with g: kept when among the nearest. */
static void nearest_add(struct negated_sentence *g, size_t s, size_t e, uint32_t says)
{
	size_t j = NEG_NEAREST;

	/* after those sharing as many: the first of equals stays first */
	while (j > 0 && g->near[j - 1].hits < g->hits)
		j--;
	if (j == NEG_NEAREST)
		return;
	memmove(g->near + j + 1, g->near + j, (NEG_NEAREST - 1 - j) * sizeof(*g->near));
	g->near[j].hits = g->hits;
	g->near[j].from = s;
	g->near[j].to = e;
	g->near[j].says = says;
}

/*
 * The passage's sentence numbered sentence holds the claim's word w (or
 * NULL): a word counts once per sentence, as often as the claim says it.
 */
static void word_seen(struct pairs *p, struct word *w, size_t sentence, size_t *found,
		      size_t *hits, uint64_t *touched)
{
	uint64_t m;

	if (!w || w->sentence == sentence)
		return;
	if (w->sentence == 0)
		*found += w->count;
	w->sentence = sentence;
	*hits += w->count;
	for (m = w->negated; m; m &= m - 1)
		p->negs[__builtin_ctzll(m)].hits++;
	*touched |= w->negated;
}

/*
 * The passage's capitalized word w[0, k) holds the claim's capitalized
 * words it abbreviates or spells out (pairs.abbreviations: "Fort" and "Ft",
 * "St" and "Saint" or "Street").
 */
static void abbrev_seen(struct pairs *p, const char *w, size_t k, size_t sentence, size_t *found,
			size_t *hits, uint64_t *touched)
{
	char s[LIST_STEM];
	size_t m = word_stem(w, k, s, sizeof(s)), i;

	for (i = 0; i < p->n_abbrev; i++) {
		struct word *x = NULL;

		if (p->abbrev[i].al == m && memcmp(p->abbrev[i].a, s, m) == 0)
			x = find_stem(p, p->abbrev[i].f, p->abbrev[i].fl);
		else if (p->abbrev[i].fl == m && memcmp(p->abbrev[i].f, s, m) == 0)
			x = find_stem(p, p->abbrev[i].a, p->abbrev[i].al);
		if (x && isupper((unsigned char)x->said[0]))
			word_seen(p, x, sentence, found, hits, touched);
	}
}

/*
 * Whether the passage writes the surname passage[at, at + k) after initials
 * ("J. R. R. Tolkien", "F.D. Roosevelt") of which one is the letter c.
 */
static bool initial_before(const char *passage, size_t at, char c)
{
	size_t b = at, s;

	for (;;) {
		while (b > 0 && (passage[b - 1] == ' ' || passage[b - 1] == '\t'))
			b--;
		if (b < 2 || passage[b - 1] != '.' || !isupper((unsigned char)passage[b - 2]) ||
		    (b > 2 && isalnum((unsigned char)passage[b - 3])))
			return false;
		s = b - 2;
		if (passage[s] == c)
			return true;
		b = s;
	}
}

/*
 * The claim's names the passage never gives that it gives by their initial
 * ("John Ronald Reuel Tolkien" of "J. R. R. Tolkien"): the name is in a run
 * of capitalized words of the claim ending in a word the passage holds (the
 * surname), and the passage writes that word after initials, one of them
 * the name's first letter. They count as held, in sentence mark (found).
 * At most ABSENCE_TOPICS names are looked for, each in one pass over the
 * passage.
 */
static void initials_held(struct pairs *p, const char *claim, size_t cn, const char *passage,
			  size_t pn, size_t mark, size_t *found)
{
	size_t wi, tried = 0;

	for (wi = 0; wi < p->n_words && tried < ABSENCE_TOPICS; wi++) {
		struct word *w = &p->words[wi], *last;
		size_t i = (size_t)(w->said - claim) + w->said_len, k, lk = 0, li = 0;
		const char *at, *end = passage + pn;

		if (!w->name || w->sentence != 0)
			continue;
		tried++;
		/* the run: capitalized words and initials, blanks and stops between */
		while (i < cn) {
			size_t j = i;

			while (j < cn && (claim[j] == ' ' || claim[j] == '.'))
				j++;
			if (j == i || j == cn || !isupper((unsigned char)claim[j]))
				break;
			for (k = 0; j + k < cn && isalpha((unsigned char)claim[j + k]); k++)
				;
			li = j;
			lk = k;
			i = j + k;
		}
		if (lk < 2 || !(last = find_word(p, claim + li, lk)) || last->sentence == 0 ||
		    last->sentence == mark)
			continue;
		for (at = passage; (at = find_literal(at, (size_t)(end - at), claim + li, lk)) != NULL;
		     at += lk) {
			size_t o = (size_t)(at - passage);

			if ((o + lk < pn && isalnum((unsigned char)passage[o + lk])) ||
			    !initial_before(passage, o, w->said[0]))
				continue;
			*found += w->count;
			w->sentence = mark;
			break;
		}
	}
}

/*
 * The share of the claim's content words that the passage holds, and the
 * passage sentence that holds the most of them (the first of equals). A
 * claim with no content word ("It is red.") is weighed on all its words,
 * *words says which (or that it has none): short words alone are no
 * evidence against it. Words are compared by their stems ("rose" and
 * "roses"). For each of the claim's negated sentences, the passage
 * sentences that share the most of its words, and whether they negate.
 * One pass over the passage; each of its words is looked up in the
 * claim's, sorted: a sorted table rather than a hash, so that no input
 * makes the lookups degrade. The cost is (claim + passage) x log(claim
 * words), and at most NEG_SENTENCES more per passage word.
 */
static int coverage(struct pairs *p, const char *claim, size_t cn, const char *passage,
		    size_t pn, enum claim_words *words, double *share, size_t *best_start,
		    size_t *best_end)
{
	size_t total, found = 0, best = 0, sentence = 0, at, s, e, shortest, wi;
	int err;

	*share = 0;
	*best_start = *best_end = 0;
	*words = WORDS_CONTENT;
	p->n_negs = 0;
	err = claim_words(p, claim, cn, false, &total, &shortest);
	if (err == 0 && total == 0) {
		*words = WORDS_ALL;
		err = claim_words(p, claim, cn, true, &total, &shortest);
	}
	if (err == 0 && total == 0)
		*words = WORDS_NONE;
	if (err < 0 || total == 0)
		return err;
	claim_negations(p, claim, cn, *words == WORDS_ALL);
	for (at = 0; at < pn;) {
		size_t hits = 0, i, k;
		uint64_t touched = 0, m;
		uint32_t says = 0;

		at = pairs_sentence_next(p, passage, pn, at, &s, &e);
		sentence++;
		for (i = s; (k = pairs_next_word(passage, e, &i)) > 0; i += k) {
			struct word *w;

			if (p->n_negs > p->n_dirs && !(says & MARK_NEGATION) &&
			    pairs_negates(passage, pn, i, k, false))
				says |= MARK_NEGATION;
			if (p->n_dirs)
				says |= direction(passage, i, k);
			w = k >= shortest ? find_word(p, passage + i, k) : NULL;
			word_seen(p, w, sentence, &found, &hits, &touched);
			/* "Fort" for the claim's "Ft." and the other way round */
			if (p->n_abbrev && k <= LIST_STEM && isupper((unsigned char)passage[i]) &&
			    (p->abbrev_first >> ((passage[i] | 0x20) - 'a') & 1))
				abbrev_seen(p, passage + i, k, sentence, &found, &hits, &touched);
		}
		if (hits > best) {
			best = hits;
			*best_start = s;
			*best_end = e;
		}
		for (m = touched; m; m &= m - 1) {
			struct negated_sentence *g = &p->negs[__builtin_ctzll(m)];

			nearest_add(g, s, e, says);
			g->hits = 0;
		}
	}
	/* "John Ronald Reuel Tolkien" of a passage's "J. R. R. Tolkien" */
	initials_held(p, claim, cn, passage, pn, sentence + 1, &found);
	/* What a contrast sets aside and the passage never says is not the
	 * claim's to support ("a mammal, not a fish" of a passage silent on fish). */
	for (wi = 0, shortest = total; wi < p->n_words; wi++)
		if (p->words[wi].sentence == 0)
			shortest -= MIN(p->words[wi].aside, shortest);
	*share = (double)found / (double)(shortest ? shortest : total);
	return 0;
}

/*
 * The first negated claim sentence that the passage does not hold: it
 * shares words with some passage sentence, and none of the NEG_NEAREST
 * sharing the most negates. Counts those checked and held into v.
 */
static const struct negated_sentence *negation_unheld(const struct pairs *p, struct pair_verdict *v)
{
	const struct negated_sentence *first = NULL;
	size_t i, j;

	for (i = 0; i < p->n_negs; i++) {
		const struct negated_sentence *g = &p->negs[i];
		bool held = false;

		if (g->dir || g->near[0].hits == 0)
			continue; /* no word in common: the coverage speaks for it */
		v->negations++;
		for (j = 0; j < NEG_NEAREST && g->near[j].hits > 0; j++)
			held |= (g->near[j].says & MARK_NEGATION) != 0;
		v->negations_held += held;
		if (!held && !first)
			first = g;
	}
	return first;
}

/*
 * The first direction word of the claim whose passage sentences nearest
 * it say its opposite and nothing of its side, or NULL; *near: the first
 * of them saying the opposite. Counts the directions checked (those whose
 * sentence shares words with the passage) and those reversed into v.
 */
static const struct negated_sentence *direction_reversed(const struct pairs *p,
							 struct pair_verdict *v, size_t *near)
{
	const struct negated_sentence *first = NULL;
	size_t i, j;

	for (i = 0; i < p->n_negs; i++) {
		const struct negated_sentence *g = &p->negs[i];
		uint32_t side = g->dir & (MARK_UP | MARK_DOWN), says = 0;
		size_t opp = NEG_NEAREST;

		if (!g->dir || g->near[0].hits == 0)
			continue;
		v->directions++;
		for (j = 0; j < NEG_NEAREST && g->near[j].hits > 0; j++) {
			says |= g->near[j].says;
			if (opp == NEG_NEAREST && (g->near[j].says & opposite(g->dir)))
				opp = j;
		}
		if ((says & side) || opp == NEG_NEAREST)
			continue;
		v->directions_reversed++;
		if (!first) {
			first = g;
			*near = opp;
		}
	}
	return first;
}

/* The first word of passage[s, e) with any of the marks m: *at, its length (0: none). */
static size_t direction_word(const char *passage, size_t s, size_t e, uint32_t m, size_t *at)
{
	size_t i, k;

	for (i = s; (k = pairs_next_word(passage, e, &i)) > 0; i += k)
		if (direction(passage, i, k) & m) {
			*at = i;
			return k;
		}
	return 0;
}

/*
 * The claim's first name (by its place) that no passage sentence holds,
 * or NULL. Counts the names and those held into v.
 */
static const struct word *name_missing(const struct pairs *p, struct pair_verdict *v)
{
	const struct word *first = NULL;
	size_t i;

	for (i = 0; i < p->n_words; i++) {
		const struct word *w = &p->words[i];

		if (!w->name)
			continue;
		v->names++;
		v->names_held += w->sentence != 0;
		if (w->sentence == 0 && (!first || w->said < first->said))
			first = w;
	}
	return first;
}

/* "does not offer": the words around the negation at g, at most 60 bytes of the claim. */
static void negation_text(const char *claim, const struct negated_sentence *g, char *out, size_t n)
{
	size_t from = g->at, to = g->at + g->len, i, k;

	/* "n't": from the word it ends */
	if (g->len == 1)
		while (from > g->start && isalnum((unsigned char)claim[from - 1]) == 0)
			from--;
	while (from > g->start && isalnum((unsigned char)claim[from - 1]))
		from--;
	/* the word before and the word after */
	i = from;
	while (i > g->start && !isalnum((unsigned char)claim[i - 1]))
		i--;
	while (i > g->start && isalnum((unsigned char)claim[i - 1]))
		i--;
	if (to - i <= 60)
		from = i;
	i = to;
	if ((k = pairs_next_word(claim, g->end, &i)) > 0 && i + k - from <= 60)
		to = i + k;
	/* (a word of any length before an "n't": its tail) */
	if (to - from >= n)
		from = to - (n - 1);
	snprintf(out, n, "%.*s", (int)(to - from), claim + from);
}

/*
 * The number n (1 to 999) of a label word of pairs.passage_labels at
 * t[i, i + k) ("passage 2", "Document 3"): its byte after, or 0 when there
 * is none there. The label is the word as listed (no plural); *label, its
 * place in the list.
 */
static size_t label_number(const struct pairs *p, const char *t, size_t n, size_t i, size_t k,
			   unsigned *num, size_t *label)
{
	const struct stems *l = &p->lists[L_LABELS];
	size_t j, d;

	for (j = 0; j < l->n; j++)
		if (l->len[j] == k && strncasecmp(l->w[j], t + i, k) == 0)
			break;
	if (j == l->n)
		return 0;
	*label = j;
	for (j = i + k; j < n && (t[j] == ' ' || t[j] == '\t' || t[j] == '#'); j++)
		;
	if (j == i + k && !(j < n && isdigit((unsigned char)t[j])))
		return 0;
	for (d = 0, *num = 0; j + d < n && d < 4 && isdigit((unsigned char)t[j + d]); d++)
		*num = *num * 10 + (unsigned)(t[j + d] - '0');
	if (d == 0 || d > 3 || (j + d < n && isalnum((unsigned char)t[j + d])) || *num == 0)
		return 0;
	return j + d;
}

/*
 * Finds the passage's numbered parts: a line (or the passage) that opens
 * with a label and its number, then ":", ".", ")", "]" or the line's end
 * ("passage 1:...", "Document 2.", "[Source 3]"). Fewer than two is none.
 */
static void passage_segments(struct pairs *p, const char *t, size_t n)
{
	size_t i = 0;

	p->n_seg = 0;
	if (p->lists[L_LABELS].n == 0)
		return;
	while (i < n && p->n_seg < SEGMENTS_MAX) {
		size_t j = i, k, after, word = 0;
		unsigned num;

		while (j < n && (t[j] == ' ' || t[j] == '\t' || t[j] == '[' || t[j] == '#' ||
				 t[j] == '*'))
			j++;
		for (k = 0; j + k < n && isalpha((unsigned char)t[j + k]); k++)
			;
		after = k ? label_number(p, t, n, j, k, &num, &word) : 0;
		if (after && (after == n || strchr(":.)]\r\n", t[after]))) {
			p->seg[p->n_seg].num = num;
			p->seg[p->n_seg].word = word;
			p->seg[p->n_seg].label = i;
			p->seg[p->n_seg].text = after < n && t[after] != '\n' ? after + 1 : after;
			p->n_seg++;
		}
		while (i < n && t[i] != '\n')
			i++;
		i++;
	}
	if (p->n_seg < 2)
		p->n_seg = 0;
}

/* The part of the label word and number num: its index, or SIZE_MAX. */
static size_t segment_of(const struct pairs *p, size_t word, unsigned num)
{
	size_t i;

	for (i = 0; i < p->n_seg; i++)
		if (p->seg[i].num == num && p->seg[i].word == word)
			return i;
	return SIZE_MAX;
}

/* Whether the passage's parts are labelled with the word of pairs.passage_labels at word. */
static bool segments_labelled(const struct pairs *p, size_t word)
{
	size_t i;

	for (i = 0; i < p->n_seg; i++)
		if (p->seg[i].word == word)
			return true;
	return false;
}

/* Where part i ends: where the next begins, or the passage's end. */
static size_t segment_end(const struct pairs *p, size_t i, size_t pn)
{
	return i + 1 < p->n_seg ? p->seg[i + 1].label : pn;
}

/*
 * The one part the claim sentence [s, e) cites ("According to passage 2"),
 * its label word in *word and number in *num, or false: none, or two
 * ("passages 1 and 2", "passage 1 and passage 3"), or a number joined to
 * another ("passage 1 and 2", "passage 1-2").
 */
static bool sentence_cites(const struct pairs *p, const char *t, size_t s, size_t e,
			   size_t *word, unsigned *num)
{
	size_t i = s, k, after, j, w;
	unsigned n;
	bool one = false;

	while ((k = pairs_next_word(t, e, &i)) > 0) {
		if ((after = label_number(p, t, e, i, k, &n, &w)) == 0) {
			i += k;
			continue;
		}
		for (j = after; j < e && (t[j] == ' ' || t[j] == ',' || t[j] == '-' || t[j] == '&'); j++)
			;
		if ((j < e && isdigit((unsigned char)t[j])) ||
		    (j + 4 < e && (strncasecmp(t + j, "and ", 4) == 0 ||
				   strncasecmp(t + j, "or ", 3) == 0) &&
		     (isdigit((unsigned char)t[j + 4]) || isdigit((unsigned char)t[j + 3]))))
			return false;
		if (one && (n != *num || w != *word))
			return false;
		one = true;
		*num = n;
		*word = w;
		i = after;
	}
	return one;
}

/* A claim sentence's word weighed for its citation, by stem. */
struct cited_word {
	char w[LIST_STEM];
	uint8_t len;
	bool in_cited, in_others;
};

static int cmp_cited(const void *x, const void *y)
{
	const struct cited_word *a = x, *b = y;

	return word_order(a->w, a->len, b->w, b->len);
}

/*
 * How many of the items of the claim sentence [s, e) the passage's parts
 * ground: the part at index ci alone (*cited), and the others together
 * (*others); *items counts them.
 */
static int cited_items(struct pairs *p, const char *claim, size_t s, size_t e,
		       const char *passage, size_t pn, size_t ci, size_t *items, size_t *cited,
		       size_t *others)
{
	struct scan_summary sum;
	size_t round, i;
	int err = 0;

	for (round = 0; round < 2 && !err; round++) {
		p->items = p->grounded = p->altered = 0;
		p->have_grounded = p->have_altered = p->have_missing = p->missing_figure = false;
		scan_clear_sources(p->sc);
		for (i = 0; i < p->n_seg && !err; i++)
			if ((i == ci) == (round == 0))
				err = scan_add_source(p->sc, passage + p->seg[i].text,
						      segment_end(p, i, pn) - p->seg[i].text);
		if (!err)
			err = scan_feed(p->sc, claim + s, e - s);
		if (!err)
			err = scan_end(p->sc, &sum);
		*(round == 0 ? cited : others) = p->grounded;
		*items = p->items;
	}
	return err;
}

/*
 * Whether the claim sentence [s, e), citing the part at index ci, is
 * supported by the other parts and not by it: they ground all its items
 * and it does not, or they hold 80% of its words (content words, but the
 * labels, sources and verbs of telling: "passage", "states") and it less
 * than half. *from, *to: the passage sentence of the others holding the
 * most of its words.
 */
static int misattributed(struct pairs *p, const char *claim, size_t cn, size_t s, size_t e,
			 const char *passage, size_t pn, size_t ci, bool *wrong, size_t *from,
			 size_t *to)
{
	struct cited_word cw[CITED_WORDS];
	size_t n = 0, i, k, items = 0, g_cited = 0, g_others = 0, held_c = 0, held_o = 0, at,
	       best = 0, seg = 0;
	bool name;
	int err;

	*wrong = false;
	for (i = s; (k = pairs_next_word(claim, e, &i)) > 0 && n < CITED_WORDS; i += k) {
		unsigned num;
		size_t w;

		if (!pairs_weighed(p, claim, cn, i, k, false, &name) || isdigit((unsigned char)claim[i]) ||
		    label_number(p, claim, e, i, k, &num, &w) || pairs_word_listed(p, L_LABELS, claim + i, k, NULL) ||
		    pairs_word_listed(p, L_SOURCES, claim + i, k, NULL) || pairs_word_listed(p, L_VERBS, claim + i, k, NULL))
			continue;
		cw[n].len = (uint8_t)word_stem(claim + i, k, cw[n].w, LIST_STEM);
		cw[n].in_cited = cw[n].in_others = false;
		n++;
	}
	if (n > 1)
		qsort(cw, n, sizeof(*cw), cmp_cited);
	for (i = k = 0; i < n; i++)
		if (k == 0 || cmp_cited(&cw[k - 1], &cw[i]) != 0)
			cw[k++] = cw[i];
	n = k;
	for (at = p->seg[0].text; at < pn;) {
		size_t ss, se, hits = 0, j;

		at = pairs_sentence_next(p, passage, pn, at, &ss, &se);
		while (seg + 1 < p->n_seg && ss >= p->seg[seg + 1].label)
			seg++;
		for (j = ss; (k = pairs_next_word(passage, se, &j)) > 0; j += k) {
			struct cited_word key, *hit;

			key.len = (uint8_t)word_stem(passage + j, k, key.w, LIST_STEM);
			hit = n ? bsearch(&key, cw, n, sizeof(*cw), cmp_cited) : NULL;
			if (!hit)
				continue;
			if (seg == ci) {
				held_c += !hit->in_cited;
				hit->in_cited = true;
			} else {
				held_o += !hit->in_others;
				hit->in_others = true;
				hits++;
			}
		}
		if (hits > best) {
			best = hits;
			*from = ss;
			*to = se;
		}
	}
	err = cited_items(p, claim, s, e, passage, pn, ci, &items, &g_cited, &g_others);
	if (err)
		return err;
	*wrong = (items > 0 && g_others == items && g_cited < items) ||
		 (n > 0 && (double)held_c < COVER_PARTIAL * (double)n &&
		  (double)held_o >= COVER_SUPPORTS * (double)n);
	return 0;
}

int pairs_judge(struct pairs *p, const char *claim, size_t claim_len, const char *passage,
		size_t passage_len, struct pair_verdict *v)
{
	struct scan_summary sum;
	const struct negated_sentence *neg, *dir;
	const struct word *name;
	const struct absence *stated = NULL;
	const struct contrast *reversed = NULL;
	size_t dir_near = 0, st_from = 0, st_to = 0, rv_from = 0, rv_to = 0, i;
	enum claim_words words;
	size_t qs, qe;
	const char *original = claim;
	int err;

	memset(v, 0, sizeof(*v));
	p->items = p->grounded = p->altered = 0;
	p->have_grounded = p->have_altered = p->have_missing = p->missing_figure = false;
	scan_clear_sources(p->sc);
	/* What the claim says the passage lacks is judged apart: the rest,
	 * the claim with it blanked, is what it says of the world. */
	err = pairs_claim_absences(p, claim, claim_len);
	if (err)
		return err;
	v->absences = p->n_absences;
	for (i = 0; i < p->n_absences; i++) {
		size_t f, t;

		if (!pairs_absence_stated(p, passage, passage_len, &p->absences[i], &f, &t))
			continue;
		v->absences_stated++;
		if (!stated) {
			stated = &p->absences[i];
			st_from = f;
			st_to = t;
		}
	}
	for (i = 0; i < p->n_contrasts && !reversed; i++)
		if (pairs_contrast_reversed(p, passage, passage_len, &p->contrasts[i], &rv_from, &rv_to))
			reversed = &p->contrasts[i];
	claim = p->masked;
	err = scan_add_source(p->sc, passage, passage_len);
	if (!err)
		err = scan_feed(p->sc, claim, claim_len);
	if (!err)
		err = scan_end(p->sc, &sum);
	if (err)
		return err;
	v->items = p->items;
	v->grounded = p->grounded;
	v->altered = p->altered;
	err = coverage(p, claim, claim_len, passage, passage_len, &words, &v->coverage,
		       &qs, &qe);
	if (err)
		return err;
	neg = negation_unheld(p, v);
	dir = direction_reversed(p, v, &dir_near);
	name = name_missing(p, v);
	v->figure_missing = p->missing_figure;
	if (p->have_altered) {
		v->label = PAIR_DOES_NOT_SUPPORT;
		sentence_around(p, passage, passage_len, (size_t)p->altered_at, &v->quote_start, &v->quote_end);
		snprintf(v->reason, sizeof(v->reason), "the claim says %s where the passage says %s",
			 p->altered_text, p->altered_source);
	} else if (stated) {
		/* A claim that the passage lacks what it states is the error. */
		v->label = PAIR_DOES_NOT_SUPPORT;
		v->quote_start = st_from;
		v->quote_end = st_to;
		snprintf(v->reason, sizeof(v->reason),
			 "the claim says the passage lacks what it states: \"%.*s\"",
			 (int)MIN(stated->end - stated->start, (size_t)120), original + stated->start);
	} else if (reversed) {
		/* "murder instead of manslaughter" where the passage says
		 * manslaughter: the claim sets aside what the passage says. */
		v->label = PAIR_DOES_NOT_SUPPORT;
		v->quote_start = rv_from;
		v->quote_end = rv_to;
		snprintf(v->reason, sizeof(v->reason),
			 "the claim sets aside \"%.*s\" where the passage says it",
			 (int)MIN(reversed->end - reversed->at, (size_t)120), original + reversed->at);
	} else if (neg) {
		/* A negation the passage does not make is the claim's own: it
		 * says the opposite of what the passage may say, as a changed
		 * figure does. Quoted: the passage sentence nearest it. */
		char said[64];

		negation_text(claim, neg, said, sizeof(said));
		v->label = PAIR_DOES_NOT_SUPPORT;
		v->quote_start = neg->near[0].from;
		v->quote_end = neg->near[0].to;
		snprintf(v->reason, sizeof(v->reason),
			 "the claim says \"%s\" where the passage sentences nearest it hold no negation",
			 said);
	} else if (dir) {
		/* A direction the passage reverses ("decreased" where it says
		 * "increased", and nothing of a fall) is the claim's own, as an
		 * added negation is. Quoted: the passage sentence saying the
		 * opposite. */
		size_t from = 0, len;

		v->label = PAIR_DOES_NOT_SUPPORT;
		v->quote_start = dir->near[dir_near].from;
		v->quote_end = dir->near[dir_near].to;
		len = direction_word(passage, v->quote_start, v->quote_end, opposite(dir->dir), &from);
		snprintf(v->reason, sizeof(v->reason),
			 "the claim says \"%.*s\" where the passage sentences nearest it say \"%.*s\"",
			 (int)MIN(dir->len, (size_t)60), claim + dir->at, (int)MIN(len, (size_t)60),
			 passage + from);
	} else if (p->items > 0) {
		/* A figure of the claim that the passage does not hold is not
		 * partly supported: it is the claim's own. */
		v->label = p->grounded == p->items ? PAIR_SUPPORTS
			   : p->grounded && !p->missing_figure ? PAIR_PARTIALLY_SUPPORTS
			   : PAIR_DOES_NOT_SUPPORT;
		if (p->have_grounded)
			sentence_around(p, passage, passage_len, (size_t)p->first_grounded_at,
					&v->quote_start, &v->quote_end);
		if (p->have_missing)
			snprintf(v->reason, sizeof(v->reason),
				 "%zu of the claim's %zu checkable item(s) %s in the passage; not \"%s\"",
				 p->grounded, p->items, p->grounded == 1 ? "is" : "are", p->missing_text);
		else
			snprintf(v->reason, sizeof(v->reason),
				 "%zu of the claim's %zu checkable item(s) %s in the passage",
				 p->grounded, p->items, p->grounded == 1 ? "is" : "are");
	} else if (words == WORDS_NONE && p->n_absences > 0) {
		/* Only what the passage lacks, and it lacks it: nothing the
		 * passage could contradict, and the claim is right about it. */
		v->label = PAIR_SUPPORTS;
		snprintf(v->reason, sizeof(v->reason),
			 "the claim only says what the passage does not state, and it does not: \"%.*s\"",
			 (int)MIN(p->absences[0].end - p->absences[0].start, (size_t)120),
			 original + p->absences[0].start);
	} else if (words == WORDS_NONE) {
		/* Nothing to support is not support: the gate fails closed. */
		v->label = PAIR_DOES_NOT_SUPPORT;
		snprintf(v->reason, sizeof(v->reason), "nothing checkable and no word in the claim");
	} else {
		v->label = v->coverage >= COVER_SUPPORTS ? PAIR_SUPPORTS
			   : v->coverage >= COVER_PARTIAL ? PAIR_PARTIALLY_SUPPORTS : PAIR_DOES_NOT_SUPPORT;
		snprintf(v->reason, sizeof(v->reason),
			 words == WORDS_CONTENT
				 ? "nothing checkable; the passage holds %.0f%% of the claim's content words"
				 : "nothing checkable and no content word; the passage holds %.0f%% of "
				   "the claim's words",
			 100 * v->coverage);
	}
	/* A name the passage never gives is the claim's own, as a missing link
	 * is: what the rest supports, it supports only in part ("California"
	 * for a record's "CA" is a name too: no worse than partly). */
	if (name && !p->have_altered && !stated && !reversed && !neg && !dir) {
		size_t r = v->label == PAIR_SUPPORTS ? 0 : strlen(v->reason);

		if (v->label == PAIR_SUPPORTS)
			v->label = PAIR_PARTIALLY_SUPPORTS;
		snprintf(v->reason + r, sizeof(v->reason) - r, "%sthe passage does not name \"%.*s\"",
			 r ? "; " : "", (int)MIN(name->said_len, (size_t)NAME_QUOTED), name->said);
	}
	/* A sentence citing one part of the passage ("According to passage 2")
	 * for what the other parts state and it does not names the wrong
	 * source: the reader who checks that part finds nothing. */
	if (v->label != PAIR_DOES_NOT_SUPPORT) {
		size_t at = 0, s = 0, e = 0, cited = 0, from = 0, to = 0, word = 0;
		unsigned num = 0;
		bool wrong = false, absent = false;

		passage_segments(p, passage, passage_len);
		while (p->n_seg && at < claim_len && cited < CITED_MAX && !wrong) {
			size_t ci;

			at = pairs_sentence_next(p, claim, claim_len, at, &s, &e);
			/* (parts labelled otherwise are not the ones cited: "Article 2"
			 * of a passage in documents) */
			if (!sentence_cites(p, claim, s, e, &word, &num) || !segments_labelled(p, word))
				continue;
			cited++;
			if ((ci = segment_of(p, word, num)) == SIZE_MAX) {
				/* "passage 3" of a passage in two parts */
				absent = wrong = true;
				break;
			}
			err = misattributed(p, claim, claim_len, s, e, passage, passage_len, ci, &wrong,
					    &from, &to);
			if (err)
				return err;
		}
		if (absent) {
			v->label = PAIR_DOES_NOT_SUPPORT;
			snprintf(v->reason, sizeof(v->reason),
				 "the claim cites part %u of the passage for \"%.*s\": the passage has no such part",
				 num, (int)MIN(e - s, (size_t)120), original + s);
		} else if (wrong) {
			v->label = PAIR_DOES_NOT_SUPPORT;
			v->quote_start = from;
			v->quote_end = to;
			snprintf(v->reason, sizeof(v->reason),
				 "the claim cites part %u of the passage for \"%.*s\": another part states it, "
				 "part %u does not",
				 num, (int)MIN(e - s, (size_t)120), original + s, num);
		}
	}
	/* Without a grounded item to quote, the sentence closest to the claim. */
	if (v->quote_end == v->quote_start) {
		v->quote_start = qs;
		v->quote_end = qe;
	}
	return 0;
}
