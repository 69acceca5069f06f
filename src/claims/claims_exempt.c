// SPDX-License-Identifier: MIT
/*
 * Exemptions: a rule's unless_sentence/unless_before/unless_after patterns compiled, stored
 * with the ruleset and matched around a held match, and the replies that propose, plan, assess
 * or branch rather than report. (Split from claims.c by scripts/split.py.)
 */
#include "claims.h"
#include "claims_int.h"
#include "literals.h"

#include "common/fmath.h"
#include "ground/attrs.h"
#include "ground/bib.h"
#include "ground/ground.h"
#include "numbers/arith.h"
#include "numbers/numlex.h"
#include "numbers/quantity.h"
#include "wordlists.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* How far back a list item's lines are read for the line that opens them. */
#define PROPOSAL_BACK 2048

/* The longest line taken for an item's title ("Activity 5: Escape Room"). */
#define PROPOSAL_TITLE 80

/* Whether a line (without its break) is a list item's or indented: one under its heading. */
static bool under_heading(const char *l, size_t n)
{
	return n == 0 || l[0] == ' ' || l[0] == '\t' || l[0] == '\r' || l[0] == '-' || l[0] == '+' ||
	       (l[0] == '*' && n > 1 && l[1] == ' ') || isdigit((unsigned char)l[0]);
}

/*
 * Whether a line (without its break) that is no list item's is an item's
 * title: a short line that ends no sentence ("### Activity 5", "**Activity
 * 5: Escape Room**", "Activity 5: Escape Room"). What ends with ":" opens
 * the items: it is no title.
 */
static bool item_title(const char *l, size_t n)
{
	while (n > 0 && (l[n - 1] == ' ' || l[n - 1] == '\r' || l[n - 1] == '*'))
		n--;
	if (n == 0 || n > PROPOSAL_TITLE || strchr(".:!?", l[n - 1]))
		return false;
	return true;
}

/* Words of a line that opens items the answer puts forward as new: its
 * suggestions or proposals, what it will add ("activities to add", "that
 * can be added", "I'll add"), not what it found ("additional hotels").
 * The first two begin words ("suggested", "proposal"); the rest are whole
 * ("to add", not "to address"). */
static const char *const proposing[] = {
	"suggest", "propos", "to add", "be added", "will add", "'ll add", "would add",
	"could add", "can add",
};

#define PROPOSING_STEMS 2

/* Whether l[0, n) says one of proposing[], without case. */
static bool says_proposing(const char *l, size_t n)
{
	size_t i, k, w;

	for (i = 0; i < n; i++) {
		/* (only where one of them can start: s, p, t, b, w, ', c) */
		if (!l[i] || !strchr("sSpPtTbBwW'cC", l[i]))
			continue;
		for (k = 0; k < ARRAY_SIZE(proposing); k++) {
			w = strlen(proposing[k]);
			if (w <= n - i && strncasecmp(l + i, proposing[k], w) == 0 &&
			    (k < PROPOSING_STEMS || i + w == n || !isalpha((unsigned char)l[i + w])))
				return true;
		}
	}
	return false;
}

/*
 * Whether an item's title names a record the grounding holds: "Activity
 * 5: Escape Room" where a tool's text has an "Activity 5" (the file the
 * item was appended to, echoed back). Such an item is no longer new.
 */
static bool title_held(const struct claims *c, const char *l, size_t n)
{
	size_t p, e, k, gap;
	struct quantity q;
	double v;

	for (p = 0; p < n && !isdigit((unsigned char)l[p]); p++)
		;
	for (e = p, v = 0; e < n && e - p < 6 && isdigit((unsigned char)l[e]); e++)
		v = v * 10 + (l[e] - '0');
	if (p == n || (e < n && isalnum((unsigned char)l[e])))
		return false;
	k = quantity_name_before(l, p, &gap);
	return k && quantity_set_name(&q, l + p - gap - k, k, v) && ground_figure_held(c->ground, &q);
}

/*
 * Is h in a list of items the answer proposes: on a list item's or an
 * indented line, under (past other such lines, items' titles and blank
 * ones) a heading or line of text that puts them forward ("proposing"
 * above) and ends with ":" ("#### Suggested activities:", "Here are two
 * activities to add to the file:")? Not when the title of h's item names
 * a record the grounding holds (title_held()). Read back at most
 * PROPOSAL_BACK bytes, only for a date or time nothing states.
 */
bool proposed(const struct claims *c, const struct held *h)
{
	uint64_t lo = h->from > PROPOSAL_BACK ? h->from - PROPOSAL_BACK : 0;
	const char *p;
	size_t n, e, s, t;
	bool titled = false;

	p = window_get(c->w, lo, h->from, &n);
	if (n != h->from - lo)
		return false;
	/* its own line first: [s, n) */
	for (s = n; s > 0 && p[s - 1] != '\n'; s--)
		;
	if (s == 0 || !under_heading(p + s, n - s))
		return false;
	for (e = s - 1;; e = s - 1) {
		for (s = e; s > 0 && p[s - 1] != '\n'; s--)
			;
		if (s == 0 && lo > 0)
			return false; /* (the line that opens them is out of reach) */
		if (under_heading(p + s, e - s)) {
			;
		} else if (item_title(p + s, e - s)) {
			/* the title of h's own item: the nearest above it */
			if (!titled && title_held(c, p + s, e - s))
				return false;
			titled = true;
		} else {
			break;
		}
		if (s == 0)
			return false;
	}
	for (t = e; t > s && (p[t - 1] == ' ' || p[t - 1] == '*' || p[t - 1] == '\r'); t--)
		;
	return t > s && p[t - 1] == ':' && says_proposing(p + s, t - s);
}

/* How far back the tag a figure is the content of is read. */
#define TAG_BACK 64

/* Whether p[0, n) holds one of the words of a tag's name that say the model
 * grades its own work (words_assessing[], words/claims.txt), without case. */
static bool names_assessment(const char *p, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < ARRAY_SIZE(words_assessing); k++)
			if (strlen(words_assessing[k]) <= n - i &&
			    strncasecmp(p + i, words_assessing[k], strlen(words_assessing[k])) == 0)
				return true;
	return false;
}

/*
 * Is h the whole content of a tag the model writes to grade its own work
 * ("<search_quality_score>4</search_quality_score>", "<confidence>0.8",
 * "<self_evaluation>7/10</self_evaluation>")? A score it gives itself is
 * no figure about the records. Only blanks stand between the opening tag
 * and h, and after h, in its sentence, only a scale ("/10", "out of 5",
 * "%") and the closing tag. A tag whose name says no assessment
 * ("<rating>4.5</rating>" of a hotel) is checked as any figure.
 */
bool self_assessed(const struct claims *c, const struct held *h, uint64_t end)
{
	uint64_t lo = h->from > TAG_BACK ? h->from - TAG_BACK : 0;
	const char *p, *name;
	size_t n, i, k, len;

	p = window_get(c->w, lo, h->from, &n);
	while (n > 0 && isspace((unsigned char)p[n - 1]))
		n--;
	if (n == 0 || p[n - 1] != '>')
		return false;
	for (i = n - 1; i > 0 && (isalnum((unsigned char)p[i - 1]) || p[i - 1] == '_' ||
				  p[i - 1] == '-');
	     i--)
		;
	if (i == 0 || p[i - 1] != '<' || i == n - 1 || !names_assessment(p + i, n - 1 - i))
		return false;
	name = p + i;
	len = n - 1 - i;
	p = window_get(c->w, h->to, MIN(end, h->to + TAG_BACK), &n);
	for (k = 0; k < n && ((p[k] && strchr(" \t\r/%.", p[k])) || isdigit((unsigned char)p[k])); k++)
		;
	if (k + 6 <= n && strncasecmp(p + k, "out of", 6) == 0)
		for (k += 6; k < n && (p[k] == ' ' || isdigit((unsigned char)p[k])); k++)
			;
	/* (the sentence ends at a line break: a closing tag below it is not read) */
	if (k == n)
		return true;
	return k + len + 3 <= n && p[k] == '<' && p[k + 1] == '/' &&
	       memcmp(p + k + 2, name, len) == 0 && p[k + 2 + len] == '>';
}

/* How far back the line that holds a plan's sentence is read. */
#define BRANCH_BACK 512

/* Whether p[0, n) opens with one of words (each ending in a blank), without case. */
static bool opens_with(const char *p, size_t n, const char *const *words, size_t n_words)
{
	size_t k, w;

	for (k = 0; k < n_words; k++) {
		w = strlen(words[k]);
		if (w <= n && strncasecmp(p, words[k], w) == 0)
			return true;
	}
	return false;
}

/*
 * Is h in a plan for a branch that may never be taken: a sentence in
 * which the agent says what it will do ("I'll return the full 8 hours"),
 * on a line (a plan's step) that opens with the branch's condition ("3.
 * If no events are returned, ...", "Otherwise, ...")? What it would do
 * then is no claim about the records. Counts, durations and bare numbers
 * only, as for offers (patterns/numbers.yaml): a price, date or time there
 * names what a tool said.
 */
bool branch_plan(const struct claims *c, const struct held *h)
{
	static const char *const conditions[] = {"if ", "otherwise", "in case ", "unless "};
	static const char *const future[] = {
		"i'll ", "i will ", "i would ", "i'd ", "we'll ", "we will ", "we would ",
		"i\xE2\x80\x99ll ", "we\xE2\x80\x99ll ",
	};
	uint64_t lo = h->from > BRANCH_BACK ? h->from - BRANCH_BACK : 0;
	const char *p, *nl;
	size_t n, s, i;
	bool says = false;

	if (!(h->q.kind == QUANTITY_COUNT || h->q.kind == QUANTITY_NUMBER ||
	      quantity_class_of(&h->q) == QC_DURATION))
		return false;
	p = window_get(c->w, lo, h->from, &n);
	/* the line's start: memrchr() (a byte at a time it was 1.2% of a
	 * library check with grounding, every figure of a line read back) */
	nl = n ? memrchr(p, '\n', n) : NULL;
	s = nl ? (size_t)(nl - p) + 1 : 0;
	if (s == 0 && (lo > 0 || n != h->from))
		return false; /* (the line's start is out of reach) */
	/* the sentence's own words before h: a first person who will do it */
	for (i = c->start > h->from - n + s ? (size_t)(c->start - (h->from - n)) : s; i < n; i++)
		if (((p[i] | 0x20) == 'i' || (p[i] | 0x20) == 'w') && /* (as all of future[] start) */
		    (i == 0 || !isalpha((unsigned char)p[i - 1])) &&
		    opens_with(p + i, n - i, future, ARRAY_SIZE(future))) {
			says = true;
			break;
		}
	if (!says)
		return false;
	/* the line's opening, past a list marker ("3. ", "- ", "**") */
	while (s < n && (p[s] == ' ' || p[s] == '\t' || p[s] == '-' || p[s] == '*' || p[s] == '>' ||
			 isdigit((unsigned char)p[s]) || ((p[s] == '.' || p[s] == ')') && s > 0 &&
							  isdigit((unsigned char)p[s - 1]))))
		s++;
	return opens_with(p + s, n - s, conditions, ARRAY_SIZE(conditions));
}

static pcre2_code *compile(const char *pat, uint32_t opts, int *errcode, PCRE2_SIZE *off)
{
	return pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, opts, errcode, off, NULL);
}

/* True when pat uses \G, which asserts the search's start offset. */
static bool uses_start_offset(const char *pat)
{
	for (; *pat; pat++) {
		if (*pat != '\\')
			continue;
		if (pat[1] == 'G')
			return true;
		if (pat[1])
			pat++;
	}
	return false;
}

/* A rule's exemption patterns, in the order they are serialized: before, after, sentence. */
static size_t n_exemptions(const struct rule *rule)
{
	return (rule->unless_before != NULL) + (rule->unless_after != NULL) +
	       rule->n_unless_sentence;
}

/* Compiles a rule's exemption patterns into codes[n_exemptions(rule)], in that order. */
static int compile_codes(const struct rule *rule, pcre2_code **codes)
{
	PCRE2_SIZE off;
	int errcode;
	size_t i, k = 0;

	if (rule->unless_before && !(codes[k++] = compile(rule->unless_before, 0, &errcode, &off)))
		return -EINVAL;
	/* Its searches are bounded by an offset limit, which the start-up
	 * optimizations would scan past to the subject's end (only
	 * backtracking verbs such as (*COMMIT) see them go). */
	if (rule->unless_after &&
	    !(codes[k++] = compile(rule->unless_after, PCRE2_USE_OFFSET_LIMIT | PCRE2_NO_START_OPTIMIZE,
				   &errcode, &off)))
		return -EINVAL;
	for (i = 0; i < rule->n_unless_sentence; i++)
		if (!(codes[k++] = compile(rule->unless_sentence[i], 0, &errcode, &off)))
			return -EINVAL;
	return 0;
}

/*
 * The serialized exemptions (claims_serialize_exemptions()): "HLSX",
 * version 1, the ruleset's digest (64 hex digits), the number of rules,
 * for each rule the offset and length of its codes as
 * pcre2_serialize_encode() writes them (0, 0: none), each at a multiple
 * of 8, all as u32 little-endian.
 */
#define EXEMPT_MAGIC 0x58534c48u /* "HLSX" */

#define EXEMPT_VERSION 1u

#define EXEMPT_HEAD (8 + 64 + 4)

static uint32_t get_u32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int put_u32(struct buf *b, uint32_t v)
{
	unsigned char p[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
			      (unsigned char)(v >> 24)};

	return buf_add(b, p, sizeof(p));
}

int claims_serialize_exemptions(const struct ruleset *rs, struct buf *out)
{
	size_t r, i, table;
	int err = 0;

	err |= put_u32(out, EXEMPT_MAGIC) | put_u32(out, EXEMPT_VERSION) |
	       buf_add(out, rs->digest, 64) | put_u32(out, (uint32_t)rs->n_rules);
	table = out->len;
	for (r = 0; r < rs->n_rules && !err; r++)
		err |= put_u32(out, 0) | put_u32(out, 0);
	for (r = 0; r < rs->n_rules && !err; r++) {
		size_t n = n_exemptions(&rs->rules[r]);
		pcre2_code **codes;
		uint8_t *bytes = NULL;
		PCRE2_SIZE size = 0;

		if (n == 0)
			continue;
		codes = calloc(n, sizeof(*codes));
		if (!codes)
			return -ENOMEM;
		err = compile_codes(&rs->rules[r], codes);
		if (!err && pcre2_serialize_encode((const pcre2_code **)codes, (int32_t)n, &bytes,
						   &size, NULL) != (int32_t)n)
			err = -ENOMEM;
		while (!err && out->len % 8)
			err = buf_addc(out, '\0');
		if (!err) {
			unsigned char *t = (unsigned char *)out->data + table + 8 * r;
			uint32_t at = (uint32_t)out->len, len = (uint32_t)size;

			for (i = 0; i < 4; i++) {
				t[i] = (unsigned char)(at >> (8 * i));
				t[4 + i] = (unsigned char)(len >> (8 * i));
			}
			err = buf_add(out, bytes, size);
		}
		pcre2_serialize_free(bytes);
		for (i = 0; i < n; i++)
			pcre2_code_free(codes[i]);
		free(codes);
	}
	return err ? (err == -EINVAL ? -EINVAL : -ENOMEM) : 0;
}

/*
 * Rule r's codes from the serialized exemptions, when there are any for
 * this ruleset and this PCRE2 (else the caller compiles them): a decode
 * is a copy, where compiling was a tenth of a 4 KB message's run.
 */
static bool decode_codes(const struct claims *c, size_t r, pcre2_code **codes, size_t n)
{
	const unsigned char *b = c->exempt, *p;
	uint32_t at, len;

	if (!b || c->exempt_len < EXEMPT_HEAD || get_u32(b) != EXEMPT_MAGIC ||
	    get_u32(b + 4) != EXEMPT_VERSION || memcmp(b + 8, c->rs->digest, 64) != 0 ||
	    get_u32(b + 72) != c->rs->n_rules ||
	    (c->exempt_len - EXEMPT_HEAD) / 8 < c->rs->n_rules)
		return false;
	p = b + EXEMPT_HEAD + 8 * r;
	at = get_u32(p);
	len = get_u32(p + 4);
	if (len == 0 || at % 8 || at > c->exempt_len || len > c->exempt_len - at ||
	    pcre2_serialize_get_number_of_codes(b + at) != (int32_t)n)
		return false;
	return pcre2_serialize_decode(codes, (int32_t)n, b + at, NULL) == (int32_t)n;
}

static int compile_exemptions(struct claims *c, size_t r)
{
	const struct rule *rule = &c->rs->rules[r];
	struct exemptions *ex = &c->ex[r];
	size_t i, k = 0, n = n_exemptions(rule);
	pcre2_code **codes;
	int err = 0;

	ex->compiled = true;
	if (n == 0)
		return 0;
	codes = calloc(n, sizeof(*codes));
	if (rule->n_unless_sentence)
		ex->sentence = calloc(rule->n_unless_sentence, sizeof(*ex->sentence));
	if (!codes || (rule->n_unless_sentence && !ex->sentence)) {
		free(codes);
		return -ENOMEM;
	}
	if (!decode_codes(c, r, codes, n))
		err = compile_codes(rule, codes);
	/* Owned by ex from here, freed by claims_free() even on error. */
	if (rule->unless_before)
		ex->before = codes[k++];
	if (rule->unless_after)
		ex->after = codes[k++];
	for (i = 0; i < rule->n_unless_sentence; i++)
		ex->sentence[i] = codes[k++];
	free(codes);
	if (err < 0)
		return err;
	if (ex->after) {
		uint32_t behind = 0;

		pcre2_pattern_info(ex->after, PCRE2_INFO_MAXLOOKBEHIND, &behind);
		/* At least 1: ^ holds only at the subject's first byte. */
		ex->after_behind = MAX(behind, 1);
	}
	ex->rescan = (rule->unless_before && uses_start_offset(rule->unless_before)) ||
		     (rule->unless_after && uses_start_offset(rule->unless_after));
	return 0;
}

int claims_check_rules(const struct ruleset *rs, struct diag *d)
{
	struct attrs *attrs;
	struct refs *refs;
	size_t i, j;
	int err;

	err = refs_new(rs, &refs, d);
	if (err < 0)
		return err;
	refs_free(refs);
	err = attrs_new(rs, &attrs, d);
	if (err < 0)
		return err;
	attrs_free(attrs);

	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		/* Without a pattern, only what the recognizer finds itself reports under it. */
		if (r->grounding == GROUNDING_REFERENCE && !r->pattern &&
		    strcmp(r->id, "ref.numbered") != 0 && strcmp(r->id, "ref.bullet") != 0 &&
		    strcmp(r->id, "ref.year") != 0)
			return diag_set(d, -EINVAL, "%s:%u:%u: rule \"%s\" needs \"pattern\": of the "
					"reference rules only ref.numbered and ref.bullet (list items, "
					"read at a line's start) and ref.year (years the recognizer "
					"finds where sentences end) do without one", r->at.file,
					r->at.line, r->at.col, r->id);
		for (j = 0; j < r->n_unless_sentence + 2; j++) {
			const char *pat = j < r->n_unless_sentence ? r->unless_sentence[j]
					  : j == r->n_unless_sentence ? r->unless_before
								      : r->unless_after;
			PCRE2_UCHAR msg[256];
			PCRE2_SIZE off;
			pcre2_code *code;
			int errcode;

			if (!pat)
				continue;
			code = compile(pat, 0, &errcode, &off);
			if (code) {
				pcre2_code_free(code);
				continue;
			}
			pcre2_get_error_message(errcode, msg, sizeof(msg));
			return diag_set(d, -EINVAL, "%s:%u:%u: rule \"%s\": exemption /%s/: %s at offset %zu",
					r->at.file, r->at.line, r->at.col, r->id, pat, (char *)msg,
					(size_t)off);
		}
	}
	return 0;
}

/*
 * A rule's exemptions are asked this often before the words its patterns
 * need are read from them (a few hundred thousand instructions for the
 * longest): a short input is decided by PCRE2 alone, as before, and a
 * long one pays for the reading many times over.
 */
#define LIT_AFTER 32

/*
 * A sentence is searched for its sentence patterns' words only when it
 * is at most this long for each pattern they stand for: the search costs
 * by the byte, and a failing PCRE2 call about the same whatever the
 * length (measured: a pattern anchored at the sentence's start fails at
 * its first word).
 */
#define LIT_SENTENCE 64

static bool same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

static bool same_sentence(const struct rule *a, const struct rule *b)
{
	size_t i;

	if (a->n_unless_sentence != b->n_unless_sentence)
		return false;
	for (i = 0; i < a->n_unless_sentence; i++)
		if (!same(a->unless_sentence[i], b->unless_sentence[i]))
			return false;
	return true;
}

/*
 * The packs give many rules the same patterns (YAML anchors): their words
 * are read once, for the first rule that asks, and the others share them.
 */
static void share_words(struct claims *c, size_t r, struct exempt_words *w)
{
	const struct rule *rule = &c->rs->rules[r];
	size_t k;

	for (k = 0; k < c->rs->n_rules; k++) {
		const struct rule *o = &c->rs->rules[k];
		const struct exempt_words *x = c->ex[k].words;

		if (k == r || !x)
			continue;
		if (!w->before && x->before && same(o->unless_before, rule->unless_before)) {
			w->before = x->before;
			w->shared |= WORDS_SHARED_BEFORE;
		}
		if (!w->sentence && x->sentence && same_sentence(o, rule)) {
			w->sentence = x->sentence;
			w->sentence_cov = x->sentence_cov;
			w->shared |= WORDS_SHARED_SENTENCE;
		}
		if (!w->after && x->after && same(o->unless_after, rule->unless_after)) {
			w->after = x->after;
			w->shared |= WORDS_SHARED_AFTER;
		}
	}
}

/*
 * Reads the words rule r's exemption patterns need (struct exempt_words;
 * none known, or no memory for them: PCRE2 alone decides, as before).
 * For unless_before, only where it is not anchored: it runs on every
 * growing prefix of a sentence, unanchored, and ends at the prefix's end,
 * where PCRE2 finds no byte a match requires and tries every byte its
 * start bitmap admits (with (?i), a d, e, i, l or w). An anchored one
 * ("^...") PCRE2 tries at one place, and the others have a first or a
 * required byte it looks for itself: a search for the words costs them
 * more than it saves (measured). unless_sentence and unless_after are
 * asked once a sentence and once a match, where a call of PCRE2 costs
 * more than a search of a short sentence for their words (measured too,
 * LIT_SENTENCE): all of a rule's sentence patterns with one search.
 */
static void read_words(struct claims *c, size_t r)
{
	const struct rule *rule = &c->rs->rules[r];
	struct exemptions *ex = &c->ex[r];
	struct exempt_words *w = calloc(1, sizeof(*w));
	uint32_t opts = 0;

	if (!w)
		return;
	share_words(c, r, w);
	if (ex->before && !w->before) {
		pcre2_pattern_info(ex->before, PCRE2_INFO_ALLOPTIONS, &opts);
		w->before = calloc(1, sizeof(*w->before));
		if (w->before &&
		    ((opts & PCRE2_ANCHORED) || literals_of(rule->unless_before, w->before) < 0))
			w->before->n = 0;
	}
	if (rule->n_unless_sentence && !w->sentence) {
		w->sentence = calloc(1, sizeof(*w->sentence));
		if (w->sentence &&
		    literals_of_any((const char *const *)rule->unless_sentence,
				    rule->n_unless_sentence, w->sentence, &w->sentence_cov) < 0)
			w->sentence->n = 0;
	}
	if (ex->after && !w->after) {
		w->after = calloc(1, sizeof(*w->after));
		if (w->after && literals_of(rule->unless_after, w->after) < 0)
			w->after->n = 0;
	}
	ex->words = w;
}

/* Makes ex's answers those of the current sentence. */
static void sentence_state(struct claims *c, struct exemptions *ex)
{
	if (ex->gen == c->gen)
		return;
	ex->gen = c->gen;
	ex->in_sentence = -1;
	ex->before_hit = false;
	ex->before_at = 0;
	ex->before_from = 0;
	ex->after_done = false;
	ex->lit_none_to = 0;
	ex->lit_at = 0;
}

/*
 * Whether unless_before can match the subject s[0, n) that ends at offset
 * at: whether it holds one of the words the pattern needs. Asked with
 * growing prefixes of a sentence, it reads each byte about once: what
 * held no word up to lit_none_to is read again only where a word could
 * straddle that end. A prefix with none has no match, so PCRE2 is not
 * asked; its state (before_from) is left as it was, which only makes the
 * next search start earlier, with the same answer.
 */
static bool before_may(struct claims *c, struct exemptions *ex, const char *s, size_t n,
		       uint64_t at)
{
	const struct literals *l = ex->words ? ex->words->before : NULL;
	uint64_t base = at - n;
	size_t from, e;

	if (!l || l->n == 0)
		return true;
	if (base != c->start) /* (the window holds less than the sentence) */
		return literals_in(l, s, n);
	if (ex->lit_at && at >= ex->lit_at)
		return true;
	if (at <= ex->lit_none_to)
		return false;
	from = ex->lit_none_to >= base + l->longest ? (size_t)(ex->lit_none_to - base) -
							      (l->longest - 1)
						    : 0;
	e = literals_find(l, s, from, n);
	if (e) {
		ex->lit_at = base + e;
		return true;
	}
	ex->lit_none_to = at;
	return false;
}

/*
 * Whether unless_before matches the sentence before offset at, as the
 * subject [c->start, at) alone. Asked with offsets that do not decrease,
 * each prefix is searched only from where the last one left off, so a
 * sentence costs one pass where the pattern's attempts are short (as in
 * the built-in packs). PCRE2_PARTIAL_HARD tells what a longer prefix can
 * change: a complete match never read the subject's end, so every longer
 * prefix has it too; a start that failed before reaching the end fails in
 * every longer prefix; only a partial match, one that reached the end ($,
 * \b, or bytes still to come), is asked again without it, and its start is
 * where the next prefix is searched from.
 */
static bool before_matches(struct claims *c, struct exemptions *ex, uint64_t at)
{
	const char *s;
	PCRE2_SIZE *ov;
	uint64_t base;
	size_t n, from;
	int rc;

	if (ex->rescan || at < ex->before_at) {
		s = window_get(c->w, c->start, at, &n);
		return before_may(c, ex, s, n, at) && found(c, ex->before, s, n);
	}
	ex->before_at = at;
	if (ex->before_hit)
		return true;
	s = window_get(c->w, c->start, at, &n);
	if (!before_may(c, ex, s, n, at))
		return false;
	base = at - n;
	from = ex->before_from > base ? (size_t)(ex->before_from - base) : 0;
	rc = pcre2_match(ex->before, (PCRE2_SPTR)s, n, from, PCRE2_PARTIAL_HARD, c->md, c->mctx);
	if (rc >= 0) {
		ex->before_hit = true;
		return true;
	}
	if (rc == PCRE2_ERROR_NOMATCH) {
		ex->before_from = at;
		return false;
	}
	if (rc != PCRE2_ERROR_PARTIAL)
		return false; /* the match limit: exempts nothing, as found() */
	ov = pcre2_get_ovector_pointer(c->md);
	ex->before_from = base + ov[0];
	return pcre2_match(ex->before, (PCRE2_SPTR)s, n, ov[0], 0, c->md, c->mctx) >= 0;
}

/* Searches [at, end) for unless_after starting at offsets [lo, hi] of it (hi: SIZE_MAX, no bound). */
static bool after_search(struct claims *c, struct exemptions *ex, uint64_t at, uint64_t end,
			 size_t lo, size_t hi)
{
	const char *s;
	size_t n;

	s = window_get(c->w, at, end, &n);
	if (lo > n)
		return false;
	pcre2_set_offset_limit(c->after_mctx, hi == SIZE_MAX ? PCRE2_UNSET : (PCRE2_SIZE)hi);
	return pcre2_match(ex->after, (PCRE2_SPTR)s, n, lo, 0, c->md, c->after_mctx) >= 0;
}

/*
 * Decides unless_after for the held matches of rule r from index first on:
 * whether it matches [h->to, end) as a subject alone. A rule's matches do
 * not overlap, so their ends rise with their starts; they are taken last
 * first. A match that starts after_behind bytes or more into one subject
 * reads nothing before it, so every earlier subject has it as well: each
 * subject is searched for such a start only up to where the next one's
 * search began, and for the others (which read the subject's start) only
 * in its first after_behind bytes.
 */
static void after_pass(struct claims *c, struct exemptions *ex, size_t r, size_t first,
		       uint64_t end)
{
	const struct literals *l = ex->words ? ex->words->after : NULL;
	size_t behind = ex->after_behind, i, n, k;
	uint64_t next = UINT64_MAX; /* the end of the last match decided */
	uint64_t words_to = UINT64_MAX; /* no word of after's starts at or past this */
	bool everywhere = false;    /* a start that every earlier subject repeats */
	const char *s;

	if (l && l->n) {
		/* Every subject is a tail of this one: a subject that starts
		 * past the last word in it has none, and no match. */
		s = window_get(c->w, c->held[first].to, end, &n);
		k = literals_last(l, s, n);
		words_to = k ? MAX(c->held[first].to, c->w->base) + k : 0;
	}
	for (i = c->n_held; i-- > first;) {
		struct held *h = &c->held[i];

		if (h->rule != r)
			continue;
		if (!everywhere && MAX(h->to, c->w->base) >= words_to) {
			/* (nor does any later start, as bounded below, lie in a match) */
			h->after = false;
			next = h->to;
			continue;
		}
		if (ex->rescan) {
			h->after = after_search(c, ex, h->to, end, 0, SIZE_MAX);
			continue;
		}
		if (!everywhere)
			everywhere = after_search(c, ex, h->to, end, behind,
						  next == UINT64_MAX || next < h->to
							  ? SIZE_MAX
							  : (size_t)(next - h->to) + behind);
		h->after = everywhere || after_search(c, ex, h->to, end, 0, behind - 1);
		next = h->to;
	}
	ex->after_done = true;
}

bool exempt(struct claims *c, const struct held *h, uint64_t end)
{
	const struct rule *r = &c->rs->rules[h->rule];
	struct exemptions *ex = &c->ex[h->rule];
	const char *s;
	size_t n, i;

	if (!r->unless_before && !r->unless_after && !r->n_unless_sentence)
		return false;
	if (c->pressure && r->pressure == PRESSURE_STRICT)
		return false;
	if (!ex->compiled && compile_exemptions(c, h->rule) < 0)
		return false; /* claims_check_rules() refused such packs */
	if (!ex->words && ex->asked++ == LIT_AFTER)
		read_words(c, h->rule);
	sentence_state(c, ex);
	if (ex->before && before_matches(c, ex, h->from))
		return true;
	if (ex->after) {
		if (!ex->after_done)
			after_pass(c, ex, h->rule, (size_t)(h - c->held), end);
		if (h->after)
			return true;
	}
	if (ex->in_sentence < 0) {
		uint32_t none = 0; /* the patterns the sentence has no word of */

		s = window_get(c->w, c->start, end, &n);
		if (ex->words && ex->words->sentence && ex->words->sentence->n &&
		    n <= LIT_SENTENCE * (size_t)__builtin_popcount(ex->words->sentence_cov) &&
		    !literals_in(ex->words->sentence, s, n))
			none = ex->words->sentence_cov;
		ex->in_sentence = 0;
		for (i = 0; i < r->n_unless_sentence && !ex->in_sentence; i++)
			if (i >= 32 || !(none >> i & 1))
				ex->in_sentence = found(c, ex->sentence[i], s, n);
	}
	return ex->in_sentence;
}
