// SPDX-License-Identifier: MIT
/* Yes/no attributes of structured records against the answer: see attrs.h. */
#include "attrs.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrs_int.h"
#include "common/util.h"

/* Bytes of a word compared (a longer one is compared by its head). */
#define WORD_MAX 32

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Letters, digits and every byte of a multibyte character. */
static bool word_byte(unsigned char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26 || (unsigned char)(c - '0') < 10 || c >= 0x80;
}

static uint64_t word_hash(const char *w, size_t n)
{
	char b[WORD_MAX];

	return fnv1a64(b, word_stem(w, n, b, sizeof(b)));
}

static uint64_t lower_hash(const char *w, size_t n)
{
	char b[WORD_MAX];
	size_t i, k = MIN(n, (size_t)WORD_MAX);

	for (i = 0; i < k; i++)
		b[i] = lower(w[i]);
	return fnv1a64(b, k);
}

static bool has(const struct hashes *l, uint64_t h)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->h[i] == h)
			return true;
	return false;
}

/* The list's words hashed: stemmed, or (exact) only lowercased. */
static int hashes_of(const struct ruleset *rs, const char *name, struct hashes *out, bool exact)
{
	const struct wordlist *l = ruleset_list(rs, name);
	uint64_t *h;
	size_t i;

	*out = (struct hashes){0};
	if (!l || l->n_words == 0)
		return 0;
	out->h = h = malloc(l->n_words * sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (i = 0; i < l->n_words; i++)
		h[i] = exact ? lower_hash(l->words[i], strlen(l->words[i]))
				  : word_hash(l->words[i], strlen(l->words[i]));
	out->n = l->n_words;
	return 0;
}

/* attr.synonyms: "word=canonical", each side one word. */
static int synonyms_of(const struct ruleset *rs, struct attrs *a, struct diag *d)
{
	const struct wordlist *l = ruleset_list(rs, "attr.synonyms");
	struct syn *syn;
	size_t i;

	if (!l || l->n_words == 0)
		return 0;
	a->syn = syn = malloc(l->n_words * sizeof(*syn));
	if (!syn)
		return -ENOMEM;
	for (i = 0; i < l->n_words; i++) {
		const char *w = l->words[i], *eq = strchr(w, '='), *p;
		bool ok = eq && eq > w && eq[1];

		for (p = w; ok && *p; p++)
			ok = p == eq || word_byte((unsigned char)*p);
		if (!ok)
			return diag_set(d, -EINVAL, "%s:%u:%u: list \"attr.synonyms\": \"%s\" is not "
					"word=canonical", l->at.file, l->at.line, l->at.col, w);
		syn[i] = (struct syn){word_hash(w, (size_t)(eq - w)), word_hash(eq + 1, strlen(eq + 1))};
	}
	a->n_syn = l->n_words;
	return 0;
}

/* The pack's word lists, each into its field: stemmed, or (exact) only lowercased. */
#define LIST(name, member, exact) {name, #member, offsetof(struct attrs, member), exact}
static const struct {
	const char *name;
	const char *member; /* for attrs_write_c() */
	size_t field;
	bool exact;
} lists[] = {
	LIST("attr.generic", generic, false),
	LIST("attr.negations", neg, false),
	LIST("attr.breaks", brk, false),
	LIST("attr.copulas", cop, false),
	LIST("attr.subordinators", sub, false),
	LIST("attr.asserts", asserts, false),
	LIST("attr.subjects", subjects, false),
	LIST("attr.missing", avail, false),
	LIST("attr.conjunctions", conj, false),
	LIST("attr.conditionals", cond, false),
	LIST("attr.yes", yes, true),
	LIST("attr.no", no, true),
	LIST("attr.offers", offers, true),
};
#undef LIST

static struct hashes *list_field(struct attrs *a, size_t i)
{
	return (struct hashes *)(void *)((char *)a + lists[i].field);
}

void attrs_free(struct attrs *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < ARRAY_SIZE(lists); i++)
		free((void *)list_field(a, i)->h);
	free((void *)a->syn);
	free(a);
}

int attrs_new(const struct ruleset *rs, struct attrs **out, struct diag *d)
{
	struct attrs *a;
	size_t r, i;
	int err = 0;

	*out = NULL;
	for (r = 0; r < rs->n_rules && rs->rules[r].grounding != GROUNDING_ATTRIBUTE; r++)
		;
	if (r == rs->n_rules)
		return 0;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(lists) && !err; i++)
		err = hashes_of(rs, lists[i].name, list_field(a, i), lists[i].exact);
	if (!err)
		err = synonyms_of(rs, a, d);
	if (err) {
		attrs_free(a);
		return err;
	}
	*out = a;
	return 0;
}

int attrs_write_c(const struct attrs *a, FILE *out, const char *name)
{
	size_t i, k;

	if (!a) {
		fprintf(out, "const struct attrs *const %s = NULL;\n", name);
		return ferror(out) ? -EIO : 0;
	}
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		const struct hashes *l = list_field((struct attrs *)(uintptr_t)a, i);

		if (l->n == 0)
			continue;
		fprintf(out, "static const uint64_t %s_%s[] = {", name, lists[i].member);
		for (k = 0; k < l->n; k++)
			fprintf(out, "%s0x%016llxu,", k % 4 ? " " : "\n\t", (unsigned long long)l->h[k]);
		fprintf(out, "\n};\n");
	}
	if (a->n_syn) {
		fprintf(out, "static const struct syn %s_syn[] = {", name);
		for (k = 0; k < a->n_syn; k++)
			fprintf(out, "\n\t{0x%016llxu, 0x%016llxu},", (unsigned long long)a->syn[k].from,
				(unsigned long long)a->syn[k].to);
		fprintf(out, "\n};\n");
	}
	fprintf(out, "static const struct attrs %s_data = {\n", name);
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		const struct hashes *l = list_field((struct attrs *)(uintptr_t)a, i);

		if (l->n)
			fprintf(out, "\t.%s = {%s_%s, %zu},\n", lists[i].member, name, lists[i].member,
				l->n);
	}
	if (a->n_syn)
		fprintf(out, "\t.syn = %s_syn, .n_syn = %zu,\n", name, a->n_syn);
	fprintf(out, "};\nconst struct attrs *const %s = &%s_data;\n", name, name);
	return ferror(out) ? -EIO : 0;
}

/*
 * A string that says yes or no, by the lists attr.yes and attr.no, past
 * blanks, quotes and a Python 2 "u" before them: "True", "no", "'none'",
 * "u'free'"; not Python's None, a missing value.
 */
static bool truth_of(const struct attrs *a, const char *t, size_t n, bool is_bool, bool *truth)
{
	uint64_t h;

	if (is_bool) {
		*truth = n == 4 && memcmp(t, "true", 4) == 0;
		return true;
	}
	while (n && (*t == ' ' || *t == '\t'))
		t++, n--;
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
		n--;
	/* Python's None as a value's whole text is no answer but a missing
	 * one, as JSON's null is ("address": "None" of a record with no
	 * address); a quoted 'none' or "u'none'" still says no. */
	if (n == 4 && memcmp(t, "None", 4) == 0)
		return false;
	if (n >= 2 && (*t == 'u' || *t == 'U') && (t[1] == '\'' || t[1] == '"'))
		t++, n--; /* a Python 2 unicode literal written into the record */
	if (n >= 2 && (*t == '\'' || *t == '"') && t[n - 1] == *t)
		t++, n -= 2;
	if (n == 0 || n > WORD_MAX)
		return false;
	h = lower_hash(t, n);
	if (has(&a->yes, h))
		return *truth = true;
	if (has(&a->no, h)) {
		*truth = false;
		return true;
	}
	return false;
}

/* Appends s to the text, printable ASCII only, as far as it fits. */
static size_t text_add(char *out, size_t at, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && at + 1 < GROUND_ATTR_TEXT; i++)
		out[at++] = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f ? s[i] : '?';
	out[at] = '\0';
	return at;
}

bool attrs_of_value(const struct attrs *a, const char *const *words, size_t n, const char *text,
		    size_t len, bool is_bool, uint64_t at, struct ground_attr *out)
{
	const char *kw[16];
	size_t kl[16], m = 0, k = 0, i, t = 0;
	uint64_t need[16];
	bool truth;

	if (!a || n == 0 || !truth_of(a, text, len, is_bool, &truth))
		return false;
	for (i = 0; i < n && m < ARRAY_SIZE(kw); i++) {
		size_t l = strlen(words[i]);

		if (l && !has(&a->generic, word_hash(words[i], l))) {
			kw[m] = words[i];
			kl[m++] = l;
		}
	}
	/* Two words one of which is short are also one ("take out", "wi fi"). */
	for (i = 0; i < m;) {
		if (i + 1 < m && (kl[i] <= 3 || kl[i + 1] <= 3) && kl[i] + kl[i + 1] <= WORD_MAX) {
			char b[WORD_MAX];

			memcpy(b, kw[i], kl[i]);
			memcpy(b + kl[i], kw[i + 1], kl[i + 1]);
			need[k++] = word_hash(b, kl[i] + kl[i + 1]);
			i += 2;
		} else {
			need[k++] = word_hash(kw[i], kl[i]);
			i++;
		}
	}
	if (k == 0)
		return false;
	*out = (struct ground_attr){.truth = truth, .at = at};
	/* The innermost words name it. */
	out->n_need = (uint8_t)MIN(k, (size_t)GROUND_ATTR_NEED);
	memcpy(out->need, need + k - out->n_need, out->n_need * sizeof(need[0]));
	for (i = 0; i < n; i++) {
		if (i)
			t = text_add(out->text, t, " ", 1);
		t = text_add(out->text, t, words[i], strlen(words[i]));
	}
	t = text_add(out->text, t, ": ", 2);
	text_add(out->text, t, text, len);
	return true;
}

struct tok {
	uint32_t from, to;
	uint64_t h;
	uint32_t first, last; /* the words it spans (a joined one: two) */
	bool brk, sub, neg, cop, asserts, subject, avail, conj;
	bool cond;             /* opens a condition: "if", "unless" */
	bool adverb;           /* ends in "ly": "not currently available" */
	bool capital;          /* begins with an ASCII capital */
	bool blank_before;     /* only blanks between it and the word before */
	bool comma_before;     /* a ',' between them */
	bool scope;            /* a negation in its clause before it */
	bool hypothetical;     /* in a clause a condition opened */
};

/* The canonical hash of a word: its synonym's, else its own. */
static uint64_t canonical(const struct attrs *a, uint64_t h)
{
	size_t i;

	for (i = 0; i < a->n_syn; i++)
		if (a->syn[i].from == h)
			return a->syn[i].to;
	return h;
}

/*
 * Marks each word that a negation before it in its clause covers. A clause
 * ends at a break word ("but", "however") or ';' ':'; a clause a
 * subordinator opened ("While they do not offer WiFi, they ...", "Despite
 * the lack of parking, it ...") ends at its first ','; and a ',' or "and"
 * before a verb that says a thing is there ("..., offers outdoor seating",
 * "and provides parking") or before a subject ("..., and they ...", "...,
 * and Blue Door ...": two capitalised words) starts another. Commas alone
 * do not end it: "does not offer outdoor seating, WiFi, or reservations"
 * negates all three. A clause a condition opened ("If you add insurance,
 * ...", "unless", "whether") is marked hypothetical: it says nothing of
 * the record.
 */
static void mark_scope(struct tok *w, size_t nw)
{
	bool active = false, sub = false, cond = false;
	size_t k;

	for (k = 0; k < nw; k++) {
		struct tok *t = &w[k];
		bool after_and = k > 0 && w[k - 1].conj;
		bool comma = t->comma_before || (after_and && w[k - 1].comma_before);

		if (t->brk) {
			active = false;
			sub = t->sub;
			cond = t->cond;
			t->scope = false;
			continue;
		}
		if (t->comma_before && sub) {
			active = false;
			sub = false;
			cond = false;
		}
		t->hypothetical = cond;
		if ((t->asserts && (comma || after_and)) || (t->subject && comma))
			active = false;
		/* A name of two capitalised words: "..., and Blue Door shows ..." */
		if (comma && t->capital && k + 1 < nw && w[k + 1].capital && w[k + 1].blank_before)
			active = false;
		t->scope = active;
		if (t->neg)
			active = true;
	}
}

/* At w[k], a copula, a negation, maybe an adverb, then a word saying it is missing, or nothing. */
static bool copula_not(const struct tok *w, size_t nw, size_t k)
{
	if (!(k < nw && w[k].blank_before && w[k].cop))
		return false;
	k++;
	if (!(k < nw && w[k].blank_before && w[k].neg))
		return false;
	k++;
	if (k < nw && w[k].blank_before && w[k].adverb)
		k++;
	return k >= nw || !w[k].blank_before || w[k].avail || w[k].brk;
}

/* No verb of presence nor copula before w[at] in its clause: it may be the subject. */
static bool opens_clause(const struct tok *w, size_t at)
{
	size_t k;

	for (k = at; k-- > 0 && !w[k].brk;)
		if (w[k].asserts || w[k].cop)
			return false;
	return true;
}

/* Words a list of subjects may run through before its verb. */
#define LIST_WORDS 16

/*
 * Is the attribute whose innermost word is w[inner] and whose words end at
 * w[last] said not to be there? A negation before it in its clause, or
 * after its words (up to three words between: "garage parking and valet
 * services"), a copula and a negation, then (past an adverb) a word that
 * says it is missing or nothing: "WiFi is not currently available", "valet
 * services are not provided", "WiFi unavailable"; or it is one of a list of
 * subjects such a copula and negation end (below).
 */
static bool negated(const struct tok *w, size_t nw, size_t inner, size_t last)
{
	size_t k = last + 1, skipped;

	if (w[inner].scope)
		return true;
	for (skipped = 0; skipped < 3 && k < nw && w[k].blank_before && !w[k].cop && !w[k].neg &&
			  !w[k].brk;
	     skipped++)
		k++;
	if (k < nw && w[k].blank_before && w[k].neg && !w[k].cop)
		return skipped == 0; /* "WiFi unavailable" */
	if (copula_not(w, nw, k))
		return true;
	/*
	 * One of a list of subjects the copula's negation covers: "street
	 * parking, lot parking, and valet services are not provided". Only
	 * where nothing before it in its clause makes it an object ("offers
	 * outdoor seating, and reservations are not accepted").
	 */
	if (!opens_clause(w, inner))
		return false;
	for (k = last + 1; k < nw && k <= last + LIST_WORDS; k++) {
		if (w[k].brk || w[k].asserts || w[k].neg)
			return false;
		if (w[k].cop)
			return copula_not(w, nw, k);
	}
	return false;
}

/* How many words apart t is from word at. */
static size_t apart(const struct tok *t, size_t at)
{
	return t->first > at ? t->first - at : t->last < at ? at - t->last : 0;
}

/*
 * The nearest word (of w, or joined pair of j, which is in order of its
 * first word) of hash h within dist words of word at: only that window is
 * read.
 */
static const struct tok *near_word(const struct tok *w, size_t nw, const struct tok *j, size_t nj,
				   uint64_t h, size_t at, size_t dist)
{
	const struct tok *best = NULL;
	size_t i, lo = at > dist + 1 ? at - dist - 1 : 0, hi = MIN(nw, at + dist + 1), b, e;

	for (i = lo; i < hi; i++)
		if (w[i].h == h && !w[i].brk && apart(&w[i], at) <= dist &&
		    (!best || apart(&w[i], at) < apart(best, at)))
			best = &w[i];
	/* The first pair whose first word is at lo or after. */
	for (b = 0, e = nj; b < e;) {
		size_t m = b + (e - b) / 2;

		if (j[m].first < lo)
			b = m + 1;
		else
			e = m;
	}
	for (i = b; i < nj && j[i].first < hi; i++)
		if (j[i].h == h && apart(&j[i], at) <= dist && (!best || apart(&j[i], at) < apart(best, at)))
			best = &j[i];
	return best;
}

/* The other words of ga this near its rarest one make one mention of it. */
#define NEAR_WORDS 6

/*
 * Places of an attribute's rarest word tried for a mention, in one
 * sentence: a bound on the work a sentence that repeats a word can make.
 */
#define MENTION_TRIES 16

/* How many words or pairs of hash h the sentence holds, counted to at most cap. */
static size_t count_word(const struct tok *w, size_t nw, const struct tok *j, size_t nj, uint64_t h,
			 size_t cap)
{
	size_t i, c = 0;

	for (i = 0; i < nw && c < cap; i++)
		c += w[i].h == h && !w[i].brk;
	for (i = 0; i < nj && c < cap; i++)
		c += j[i].h == h;
	return c;
}

/* The k-th (from 0) word or pair of hash h, or NULL. */
static const struct tok *nth_word(const struct tok *w, size_t nw, const struct tok *j, size_t nj,
				  uint64_t h, size_t k)
{
	size_t i;

	for (i = 0; i < nw; i++)
		if (w[i].h == h && !w[i].brk && k-- == 0)
			return &w[i];
	for (i = 0; i < nj; i++)
		if (j[i].h == h && k-- == 0)
			return &j[i];
	return NULL;
}

/*
 * Finds the first mention of ga: a place of its rarest word (of its first
 * MENTION_TRIES) with its other words within NEAR_WORDS words. Its span,
 * the innermost word's index (inner) and the last word's (last) out.
 */
static bool mention(const struct tok *w, size_t nw, const struct tok *j, size_t nj,
		    const struct ground_attr *ga, size_t *from, size_t *to, size_t *inner, size_t *last)
{
	size_t n = ga->n_need, anchor = n - 1, least = SIZE_MAX, k, tries;

	/* The rarest word anchors the search ("feature43" among many "widget"). */
	for (k = n; k-- > 0;) {
		size_t c = count_word(w, nw, j, nj, ga->need[k], MENTION_TRIES + 1);

		if (c == 0)
			return false;
		if (c < least) {
			least = c;
			anchor = k;
		}
	}
	for (tries = 0; tries < MIN(least, (size_t)MENTION_TRIES); tries++) {
		const struct tok *t = nth_word(w, nw, j, nj, ga->need[anchor], tries);

		if (!t)
			return false;
		*from = t->from;
		*to = t->to;
		*last = t->last;
		*inner = t->first;
		for (k = 0; k < n; k++) {
			const struct tok *o = k == anchor ? t
					      : near_word(w, nw, j, nj, ga->need[k], t->first, NEAR_WORDS);

			if (!o)
				break;
			*from = MIN(*from, (size_t)o->from);
			*to = MAX(*to, (size_t)o->to);
			*last = MAX(*last, (size_t)o->last);
			if (k == n - 1)
				*inner = o->first;
		}
		if (k == n)
			return true;
	}
	return false;
}

/* Does the sentence ask (its last mark, past closing quotes and brackets, a '?')? */
static bool question(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r' ||
		     s[n - 1] == '"' || s[n - 1] == '\'' || s[n - 1] == ')' || s[n - 1] == '*' ||
		     s[n - 1] == '_'))
		n--;
	return n && s[n - 1] == '?';
}

/*
 * Does the clause of w[at] offer or price the attribute ("You can add
 * travel insurance", "Travel insurance costs $30", "Insurance would cover
 * ...")? attr.offers, as written. Read only for a mention, so the words of
 * most sentences are never hashed twice.
 */
static bool offered(const struct attrs *a, const char *s, const struct tok *w, size_t nw, size_t at)
{
	size_t b = at, e = at;

	if (a->offers.n == 0)
		return false;
	while (b > 0 && !w[b - 1].brk)
		b--;
	while (e + 1 < nw && !w[e + 1].brk)
		e++;
	for (; b <= e; b++)
		if (w[b].to - w[b].from <= WORD_MAX &&
		    has(&a->offers, lower_hash(s + w[b].from, w[b].to - w[b].from)))
			return true;
	return false;
}

enum label { NOT_LABEL, LABEL_YES, LABEL_NO, LABEL_OTHER };

/*
 * The attribute's words as a field's label, "Insurance: No", "WiFi: free",
 * "Parking: not available": what follows the ':' is its value, said as the
 * record says a value (attr.yes, attr.no; a negation or a word that says
 * it is there). A label of any other value ("Insurance: $30 per person")
 * says no yes or no.
 */
static enum label label_of(const struct attrs *a, const char *s, const struct tok *w, size_t nw,
			   size_t last)
{
	const struct tok *v;
	uint64_t h;

	if (last + 2 >= nw || !w[last + 1].brk || s[w[last + 1].from] != ':')
		return NOT_LABEL;
	v = &w[last + 2];
	if (v->to - v->from > WORD_MAX)
		return LABEL_OTHER;
	h = lower_hash(s + v->from, v->to - v->from);
	if (has(&a->no, h) || v->neg)
		return LABEL_NO;
	if (has(&a->yes, h) || v->avail)
		return LABEL_YES;
	return LABEL_OTHER;
}

size_t attrs_check(const struct attrs *a, const struct ground *g, const char *s, size_t n,
		   struct attrs_hit *out, size_t max)
{
	struct tok w[ATTRS_TOKENS], j[ATTRS_TOKENS];
	size_t na = a && g ? ground_attr_count(g) : 0, nw = 0, nj = 0, i, x, k = 0;
	uint64_t mask = 0;
	bool blank = true, comma = false;

	/* A question or an offer ("Would you like travel insurance?") claims nothing. */
	if (na == 0 || n == 0 || question(s, n))
		return 0;
	n = MIN(n, (size_t)ATTRS_TEXT_MAX); /* (offsets are 32-bit; a sentence is far shorter) */
	for (i = 0; i < n && nw < ATTRS_TOKENS;) {
		size_t e;
		uint64_t h;

		if (!word_byte((unsigned char)s[i])) {
			if (s[i] == ';' || s[i] == ':') {
				w[nw] = (struct tok){.from = (uint32_t)i, .to = (uint32_t)i + 1, .brk = true};
				w[nw].first = w[nw].last = (uint32_t)nw;
				nw++;
			}
			blank &= s[i] == ' ' || s[i] == '\t';
			comma |= s[i] == ',';
			i++;
			continue;
		}
		for (e = i; e < n && word_byte((unsigned char)s[e]); e++)
			;
		h = word_hash(s + i, e - i);
		w[nw] = (struct tok){
			.from = (uint32_t)i, .to = (uint32_t)e, .h = canonical(a, h),
			.first = (uint32_t)nw, .last = (uint32_t)nw,
			.cond = has(&a->cond, h),
			.brk = has(&a->brk, h) || has(&a->sub, h) || has(&a->cond, h),
			.sub = has(&a->sub, h) || has(&a->cond, h), .neg = has(&a->neg, h),
			.cop = has(&a->cop, h), .asserts = has(&a->asserts, h),
			.subject = has(&a->subjects, h), .avail = has(&a->avail, h),
			.conj = has(&a->conj, h), .blank_before = blank, .comma_before = comma,
			.adverb = e - i > 4 && lower(s[e - 2]) == 'l' && lower(s[e - 1]) == 'y',
			.capital = s[i] >= 'A' && s[i] <= 'Z',
		};
		/* "take-out": the first half of a compound is no verb. */
		if (e < n && s[e] == '-')
			w[nw].asserts = false;
		nw++;
		blank = true;
		comma = false;
		i = e;
	}
	mark_scope(w, nw);
	/* Two words, one of them short, with a blank or '-' between: also one. */
	for (i = 0; i + 1 < nw; i++) {
		const struct tok *p = &w[i], *q = &w[i + 1];
		size_t lp = p->to - p->from, lq = q->to - q->from;
		char b[WORD_MAX];

		if (p->brk || q->brk || q->from != p->to + 1 || (s[p->to] != ' ' && s[p->to] != '-') ||
		    (lp > 3 && lq > 3) || lp + lq > WORD_MAX)
			continue;
		memcpy(b, s + p->from, lp);
		memcpy(b + lp, s + q->from, lq);
		j[nj++] = (struct tok){.from = p->from, .to = q->to, .h = canonical(a, word_hash(b, lp + lq)),
				       .first = (uint32_t)i, .last = (uint32_t)i + 1};
	}
	/* Bit (hash % 64) of every word and pair: most attributes are not in a sentence. */
	for (i = 0; i < nw; i++)
		mask |= w[i].brk ? 0 : 1ull << (w[i].h & 63);
	for (i = 0; i < nj; i++)
		mask |= 1ull << (j[i].h & 63);
	for (i = 0; i < na; i++) {
		const struct ground_attr *ga = ground_attr_at(g, i);
		size_t from, to, inner, last;
		bool said, agreed = false;
		enum label label;

		if (!(mask >> (ga->need[0] & 63) & 1) || !(mask >> (ga->need[ga->n_need - 1] & 63) & 1) ||
		    !mention(w, nw, j, nj, ga, &from, &to, &inner, &last) || w[inner].hypothetical)
			continue;
		label = label_of(a, s, w, nw, last);
		if (label == LABEL_OTHER || (label == NOT_LABEL && offered(a, s, w, nw, inner)))
			continue;
		said = label == NOT_LABEL ? !negated(w, nw, inner, last) : label == LABEL_YES;
		if (said == ga->truth) {
			if (k < max)
				out[k] = (struct attrs_hit){from, to, ga, true};
			k++;
			continue;
		}
		/* Another record's attribute of the same words that says so grounds it. */
		for (x = 0; x < na && !agreed; x++) {
			const struct ground_attr *o = ground_attr_at(g, x);

			agreed = o->truth == said && o->n_need == ga->n_need &&
				 memcmp(o->need, ga->need, ga->n_need * sizeof(ga->need[0])) == 0;
		}
		if (agreed)
			continue;
		if (k < max)
			out[k] = (struct attrs_hit){from, to, ga, false};
		k++;
	}
	return k;
}
