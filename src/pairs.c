// SPDX-License-Identifier: MIT
/* Claim/passage pairs judged against the passage as grounding. */
#include "pairs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scan.h"

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

/* A distinct content word of the claim, by its stem. */
struct word {
	const char *text; /* its stem, in pairs.stems */
	size_t len, count;
	size_t sentence;  /* the last passage sentence holding it, from 1; 0: none */
	uint64_t negated; /* the negated claim sentences holding it (bits of pairs.negs) */
	const char *said; /* its first place in the claim */
	size_t said_len;
	bool name;        /* somewhere a name: is_name() */
};

/*
 * A claim sentence with a negation or a word of direction, and the passage
 * sentences nearest it.
 */
struct negated {
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
	struct negated negs[NEG_SENTENCES];
	size_t n_negs;
	size_t n_dirs; /* of them, directions */
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

static int on_finding(void *ctx, const struct finding *f)
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

static int on_claim(void *ctx, const struct claim *cl)
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

int pairs_new(const struct db *db, const struct policy *pol, struct pairs **out)
{
	struct pairs *p = calloc(1, sizeof(*p));
	int err;

	if (!p)
		return -ENOMEM;
	err = scan_new(db, pol, on_finding, p, &p->sc);
	if (err < 0) {
		free(p);
		return err;
	}
	scan_claims(p->sc, on_claim, p);
	p->rs = db->rs;
	*out = p;
	return 0;
}

void pairs_free(struct pairs *p)
{
	if (!p)
		return;
	scan_free(p->sc);
	free(p->words);
	free(p->stems);
	free(p);
}

/* Whether a sentence ends with t[i]: a line break, or a stop before blank
 * space or the end ("$383.3" and "e.g" do not end one). */
static bool ends_sentence(const char *t, size_t n, size_t i)
{
	return t[i] == '\n' ||
	       (strchr(".!?", t[i]) && (i + 1 == n || isspace((unsigned char)t[i + 1])));
}

/*
 * The first sentence at or after offset pos: [*start, *end), its leading
 * blank space skipped, its stop kept and a line break that ends it left
 * out. Returns where the next sentence is looked for: past pos (pos < n),
 * so a loop over the sentences ends whatever the text.
 */
static size_t sentence_next(const char *t, size_t n, size_t pos, size_t *start, size_t *end)
{
	size_t s = pos, e;

	while (s < n && isspace((unsigned char)t[s]))
		s++;
	for (e = s; e < n && !ends_sentence(t, n, e); e++)
		;
	*start = s;
	*end = e < n && t[e] != '\n' ? e + 1 : e;
	/* A line's trailing blank space ("\r" of CRLF) is no part of it. */
	while (*end > s && isspace((unsigned char)t[*end - 1]))
		(*end)--;
	return e < n ? e + 1 : n;
}

/* The sentence of text around offset at: [*start, *end). */
static void sentence_around(const char *t, size_t n, size_t at, size_t *start, size_t *end)
{
	size_t s = MIN(at, n);

	while (s > 0 && !ends_sentence(t, n, s - 1))
		s--;
	sentence_next(t, n, s, start, end);
}

/* Whether w[0, k) is one of the n words of list, in any case. */
static bool one_of(const char *w, size_t k, const char *const *list, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (strlen(list[j]) == k && strncasecmp(w, list[j], k) == 0)
			return true;
	return false;
}

static bool stopword(const char *w, size_t k)
{
	static const char *const words[] = {
		"about", "after", "also", "been", "being", "from", "have", "into", "more", "that",
		"their", "them", "then", "there", "these", "they", "this", "those", "were", "what",
		"when", "which", "while", "will", "with", "would", "your",
		/* negations, which negates() weighs; "doesn" of "doesn't" */
		"aren", "cannot", "couldn", "didn", "doesn", "hadn", "hasn", "haven", "neither",
		"never", "none", "shouldn", "wasn", "weren", "without", "wouldn",
	};

	return one_of(w, k, words, ARRAY_SIZE(words));
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

/* The next word (a run of letters and digits) of t at or after *i: its length (0: none). */
static size_t next_word(const char *t, size_t n, size_t *i)
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
static bool negates(const char *t, size_t n, size_t i, size_t k, bool claim)
{
	static const char *const words[] = {
		"not", "no", "never", "none", "nor", "neither", "without", "cannot",
	};
	static const char *const passage_words[] = {
		"false", "nobody", "nothing", "nowhere", "dont", "doesnt", "didnt", "isnt", "wasnt",
		"arent", "werent", "cant", "wont", "couldnt", "shouldnt", "wouldnt", "havent", "hasnt",
		"hadnt", "aint",
	};
	static const char *const sense[] = {
		"absent", "ban", "bann", "cancel", "cancell", "declin", "deni", "deny", "fail",
		"lack", "prohibit", "refus", "reject", "stop", "stopp", "unabl", "unavailabl",
	};
	static const char *const not_so[] = {"only", "just", "merely", "simply"};
	size_t next, m;
	char stem[16];

	if (k == 1 && (t[i] | 0x20) == 't')
		return (i >= 2 && t[i - 1] == '\'' && (t[i - 2] | 0x20) == 'n') ||
		       (i >= 4 && memcmp(t + i - 3, "\xE2\x80\x99", 3) == 0 && (t[i - 4] | 0x20) == 'n');
	if (!claim) {
		if (one_of(t + i, k, words, ARRAY_SIZE(words)) ||
		    one_of(t + i, k, passage_words, ARRAY_SIZE(passage_words)))
			return true;
		if (k < 3 || k > 12)
			return false;
		m = word_stem(t + i, k, stem, sizeof(stem));
		return one_of(stem, m, sense, ARRAY_SIZE(sense));
	}
	if (!one_of(t + i, k, words, ARRAY_SIZE(words)))
		return false;
	if ((i > 0 && t[i - 1] == '-') || (i + k < n && t[i + k] == '-'))
		return false;
	if (k == 3 && strncasecmp(t + i, "not", 3) == 0) {
		next = i + k;
		m = next_word(t, n, &next);
		if (one_of(t + next, m, not_so, ARRAY_SIZE(not_so)))
			return false;
		if (i >= 3 && strncasecmp(t + i - 3, "or ", 3) == 0 &&
		    (i == 3 || !isalnum((unsigned char)t[i - 4])))
			return false;
	}
	return true;
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
 * Whether the word t[i, i + k) is a name: a capital first and a lowercase
 * letter in it ("Maria", "McDonald", not "COVID"), two letters or more, in
 * the middle of a sentence (after a letter, digit or comma: "with Maria",
 * not "Maria said" at a sentence's start, nor after a quote or bracket).
 * Not an abbreviation of four letters or fewer with two capitals ("YoY",
 * "PhD"), nor a word a hyphen joins to another ("Wi-Fi").
 */
static bool is_name(const char *t, size_t n, size_t i, size_t k)
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
	return j > 0 && j < i && (isalnum((unsigned char)t[j - 1]) || t[j - 1] == ',');
}

/*
 * Whether the claim (cn bytes) weighs its word claim[i, i + k): a content
 * word or a name, or with all any word; *name: whether it is a name.
 */
static bool weighed(const char *claim, size_t cn, size_t i, size_t k, bool all, bool *name)
{
	*name = is_name(claim, cn, i, k);
	return all || *name || (k >= 4 && !stopword(claim + i, k));
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
	while ((k = next_word(claim, cn, &i)) > 0) {
		if (weighed(claim, cn, i, k, all, &name)) {
			if (grow(&p->words, &p->cap_words, p->n_words + 1, sizeof(*p->words)) < 0)
				return -ENOMEM;
			/* (a stem is no longer than its word: each has its own bytes) */
			p->words[p->n_words++] = (struct word){
				.text = p->stems + i, .len = word_stem(claim + i, k, p->stems + i, STEM_MAX),
				.count = 1, .said = claim + i, .said_len = k, .name = name,
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

/* The claim's word with the stem of w[0, k), or NULL. */
static struct word *find_word(struct pairs *p, const char *w, size_t k)
{
	char s[STEM_MAX];
	size_t lo = 0, hi = p->n_words;

	k = word_stem(w, k, s, sizeof(s));
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

/* Adds a claim sentence [s, e) to check, its word at [at, at + len) (dir: direction()). */
static void check_add(struct pairs *p, size_t s, size_t e, size_t at, size_t len, uint32_t dir)
{
	p->negs[p->n_negs++] = (struct negated){.start = s, .end = e, .at = at, .len = len, .dir = dir};
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

		at = sentence_next(claim, cn, at, &s, &e);
		first = p->n_negs;
		for (i = s; (k = next_word(claim, e, &i)) > 0 && !negates(claim, cn, i, k, true); i += k)
			;
		if (k > 0) {
			check_add(p, s, e, i, k, 0);
		} else {
			for (i = s; (k = next_word(claim, e, &i)) > 0 && p->n_negs < NEG_SENTENCES; i += k)
				if ((d = claim_direction(claim, cn, i, k)) &&
				    (d & ~seen & (PAIRS_UP_BITS | PAIRS_DOWN_BITS))) {
					seen |= d;
					check_add(p, s, e, i, k, d);
				}
		}
		if (p->n_negs == first)
			continue;
		bits = (p->n_negs == 64 ? ~0ull : (1ull << p->n_negs) - 1) & ~((1ull << first) - 1);
		for (i = s; (k = next_word(claim, e, &i)) > 0; i += k)
			if (weighed(claim, cn, i, k, all, &name) && (w = find_word(p, claim + i, k)))
				w->negated |= bits;
	}
}

/* A passage sentence [s, e) shares g->hits words with g: kept when among the nearest. */
static void nearest_add(struct negated *g, size_t s, size_t e, uint32_t says)
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
	size_t total, found = 0, best = 0, sentence = 0, at, s, e, shortest;
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

		at = sentence_next(passage, pn, at, &s, &e);
		sentence++;
		for (i = s; (k = next_word(passage, e, &i)) > 0; i += k) {
			struct word *w;

			if (p->n_negs > p->n_dirs && !(says & MARK_NEGATION) &&
			    negates(passage, pn, i, k, false))
				says |= MARK_NEGATION;
			if (p->n_dirs)
				says |= direction(passage, i, k);
			w = k >= shortest ? find_word(p, passage + i, k) : NULL;
			/* A word counts once per sentence, as often as the claim says it. */
			if (!w || w->sentence == sentence)
				continue;
			if (w->sentence == 0)
				found += w->count;
			w->sentence = sentence;
			hits += w->count;
			for (m = w->negated; m; m &= m - 1)
				p->negs[__builtin_ctzll(m)].hits++;
			touched |= w->negated;
		}
		if (hits > best) {
			best = hits;
			*best_start = s;
			*best_end = e;
		}
		for (m = touched; m; m &= m - 1) {
			struct negated *g = &p->negs[__builtin_ctzll(m)];

			nearest_add(g, s, e, says);
			g->hits = 0;
		}
	}
	*share = (double)found / (double)total;
	return 0;
}

/*
 * The first negated claim sentence that the passage does not hold: it
 * shares words with some passage sentence, and none of the NEG_NEAREST
 * sharing the most negates. Counts those checked and held into v.
 */
static const struct negated *negation_unheld(const struct pairs *p, struct pair_verdict *v)
{
	const struct negated *first = NULL;
	size_t i, j;

	for (i = 0; i < p->n_negs; i++) {
		const struct negated *g = &p->negs[i];
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
static const struct negated *direction_reversed(const struct pairs *p, struct pair_verdict *v,
						size_t *near)
{
	const struct negated *first = NULL;
	size_t i, j;

	for (i = 0; i < p->n_negs; i++) {
		const struct negated *g = &p->negs[i];
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

	for (i = s; (k = next_word(passage, e, &i)) > 0; i += k)
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
static void negation_text(const char *claim, const struct negated *g, char *out, size_t n)
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
	if ((k = next_word(claim, g->end, &i)) > 0 && i + k - from <= 60)
		to = i + k;
	/* (a word of any length before an "n't": its tail) */
	if (to - from >= n)
		from = to - (n - 1);
	snprintf(out, n, "%.*s", (int)(to - from), claim + from);
}

int pairs_judge(struct pairs *p, const char *claim, size_t claim_len, const char *passage,
		size_t passage_len, struct pair_verdict *v)
{
	struct scan_summary sum;
	const struct negated *neg, *dir;
	const struct word *name;
	size_t dir_near = 0;
	enum claim_words words;
	size_t qs, qe;
	int err;

	memset(v, 0, sizeof(*v));
	p->items = p->grounded = p->altered = 0;
	p->have_grounded = p->have_altered = p->have_missing = p->missing_figure = false;
	scan_clear_sources(p->sc);
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
		sentence_around(passage, passage_len, (size_t)p->altered_at, &v->quote_start, &v->quote_end);
		snprintf(v->reason, sizeof(v->reason), "the claim says %s where the passage says %s",
			 p->altered_text, p->altered_source);
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
			sentence_around(passage, passage_len, (size_t)p->first_grounded_at,
					&v->quote_start, &v->quote_end);
		if (p->have_missing)
			snprintf(v->reason, sizeof(v->reason),
				 "%zu of the claim's %zu checkable item(s) %s in the passage; not \"%s\"",
				 p->grounded, p->items, p->grounded == 1 ? "is" : "are", p->missing_text);
		else
			snprintf(v->reason, sizeof(v->reason),
				 "%zu of the claim's %zu checkable item(s) %s in the passage",
				 p->grounded, p->items, p->grounded == 1 ? "is" : "are");
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
	if (name && !p->have_altered && !neg && !dir) {
		size_t r = v->label == PAIR_SUPPORTS ? 0 : strlen(v->reason);

		if (v->label == PAIR_SUPPORTS)
			v->label = PAIR_PARTIALLY_SUPPORTS;
		snprintf(v->reason + r, sizeof(v->reason) - r, "%sthe passage does not name \"%.*s\"",
			 r ? "; " : "", (int)MIN(name->said_len, (size_t)NAME_QUOTED), name->said);
	}
	/* Without a grounded item to quote, the sentence closest to the claim. */
	if (v->quote_end == v->quote_start) {
		v->quote_start = qs;
		v->quote_end = qe;
	}
	return 0;
}
