// SPDX-License-Identifier: MIT
/*
 * Sentence assembly: matches held until their sentence ends (abbreviations, marks, line
 * breaks), the decisions a whole sentence makes (the checks are the claims_*.c beside it), and
 * one claim and one finding per stretch of text per signal.
 */
#include "claims.h"
#include "claims_int.h"

#include "common/fmath.h"
#include "ground/attrs.h"
#include "ground/bib.h"
#include "ground/ground.h"
#include "match/engine.h"
#include "numbers/arith.h"
#include "numbers/numlex.h"
#include "numbers/quantity.h"
#include "wordlists.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#define EXEMPT_MATCH_LIMIT 100000

static const char *const label_names[CLAIM_LABELS] = {
	[CLAIM_SUPPORTED] = "supported",
	[CLAIM_PARTIAL] = "partial",
	[CLAIM_UNSUPPORTED] = "unsupported",
	[CLAIM_UNCHECKED] = "unchecked",
};

const char *claim_label_name(enum claim_label l)
{
	return label_names[l];
}

void claims_want_claims(struct claims *c, bool on)
{
	c->want_claims = on;
}

static void lazy_flush(struct claims *c);

void claims_tool_output(struct claims *c, bool inside)
{
	lazy_flush(c);
	c->in_tool = inside;
}

void claims_set_ground(struct claims *c, const struct ground *g)
{
	c->ground = g;
}

const uint64_t *claims_counts(const struct claims *c)
{
	return c->counts;
}

int claims_new(const struct claims_rules *cr, const struct window *w, const struct ground *g,
	       bool show_grounded, struct claims **out)
{
	const struct ruleset *rs = cr->rs;
	const struct attrs *attrs = cr->attrs;
	const struct refs *refs = cr->refs;
	struct claims *c = calloc(1, sizeof(*c));
	size_t i, r;

	if (!c)
		return -ENOMEM;
	c->rs = rs;
	c->exempt = cr->exempt;
	c->exempt_len = cr->exempt_len;
	c->w = w;
	c->ground = g;
	c->show_grounded = show_grounded;
	c->ex = calloc(rs->n_rules ? rs->n_rules : 1, sizeof(*c->ex));
	c->last_kept = calloc(rs->n_signals ? rs->n_signals : 1, sizeof(*c->last_kept));
	c->md = pcre2_match_data_create(1, NULL);
	c->mctx = pcre2_match_context_create(NULL);
	c->after_mctx = pcre2_match_context_create(NULL);
	if (!c->ex || !c->last_kept || !c->md || !c->mctx || !c->after_mctx) {
		claims_free(c);
		return -ENOMEM;
	}
	for (i = 0; i < QC_CLASSES; i++)
		c->class_rule[i] = -1;
	for (r = 0; r < rs->n_rules; r++)
		for (i = 0; i < QC_CLASSES; i++)
			if ((rs->rules[r].quantities & (1u << i)) && c->class_rule[i] < 0) {
				c->class_rule[i] = (int)r;
				c->lex = c->lex_numbers = true;
			}
	c->attr_rule = SIZE_MAX;
	for (r = 0; r < rs->n_rules && c->attr_rule == SIZE_MAX; r++)
		if (rs->rules[r].grounding == GROUNDING_ATTRIBUTE) {
			c->attrs = attrs;
			c->attr_rule = r;
			c->lex = true;
		}
	c->code_rule = SIZE_MAX;
	for (r = 0; r < rs->n_rules && c->code_rule == SIZE_MAX; r++)
		if (rs->rules[r].grounding == GROUNDING_CODE) {
			c->code_rule = r;
			c->lex = true;
		}
	pcre2_set_match_limit(c->mctx, EXEMPT_MATCH_LIMIT);
	pcre2_set_match_limit(c->after_mctx, EXEMPT_MATCH_LIMIT);
	for (r = 0; r < rs->n_rules && rs->rules[r].grounding != GROUNDING_REFERENCE; r++)
		;
	if (r < rs->n_rules)
		c->refs = refs;
	c->ref_rule = SIZE_MAX;
	c->ref_line = UINT64_MAX;
	c->inl_line = UINT64_MAX;
	c->item_rule[0] = c->item_rule[1] = c->cue_rule = SIZE_MAX;
	for (r = 0; c->refs && r < rs->n_rules; r++) {
		if (rs->rules[r].grounding != GROUNDING_REFERENCE)
			continue;
		if (strcmp(rs->rules[r].id, "ref.numbered") == 0)
			c->item_rule[0] = r;
		else if (strcmp(rs->rules[r].id, "ref.bullet") == 0)
			c->item_rule[1] = r;
		else if (strcmp(rs->rules[r].id, "ref.year") == 0)
			c->cue_rule = r;
	}
	c->find_items = c->item_rule[0] != SIZE_MAX || c->item_rule[1] != SIZE_MAX;
	c->today = refs_today();
	c->gen = 1;
	*out = c;
	return 0;
}

void claims_free(struct claims *c)
{
	size_t i, j;

	if (!c)
		return;
	for (i = 0; c->ex && i < c->rs->n_rules; i++) {
		pcre2_code_free(c->ex[i].before);
		pcre2_code_free(c->ex[i].after);
		for (j = 0; c->ex[i].sentence && j < c->rs->rules[i].n_unless_sentence; j++)
			pcre2_code_free(c->ex[i].sentence[j]);
		free(c->ex[i].sentence);
		if (c->ex[i].words) {
			const struct exempt_words *w = c->ex[i].words;

			if (!(w->shared & WORDS_SHARED_BEFORE))
				free(w->before);
			if (!(w->shared & WORDS_SHARED_SENTENCE))
				free(w->sentence);
			if (!(w->shared & WORDS_SHARED_AFTER))
				free(w->after);
			free(c->ex[i].words);
		}
	}
	free(c->list);
	buf_free(&c->list_text);
	buf_free(&c->bib_source);
	free(c->pend);
	free(c->pend_items);
	buf_free(&c->pend_text);
	free(c->out);
	free(c->out_items);
	free(c->hits);
	buf_free(&c->out_text);
	free(c->ex);
	free(c->last_kept);
	free(c->held);
	free(c->ar);
	free(c->chk);
	free(c->merge);
	free(c->inl);
	free(c->items);
	buf_free(&c->text);
	buf_free(&c->key);
	pcre2_match_data_free(c->md);
	pcre2_match_context_free(c->mctx);
	pcre2_match_context_free(c->after_mctx);
	free(c);
}

void claims_reset(struct claims *c)
{
	c->n_held = 0;
	c->text.len = 0;
	c->start = 0;
	c->max_to = 0;
	c->exempted = 0;
	c->repeats = 0;
	c->in_tool = false;
	c->gen++;
	memset(c->counts, 0, sizeof(c->counts));
	c->line = c->line_start = c->col_at = c->col_cp = 0;
	c->ref_rule = SIZE_MAX;
	c->ref_cue = false;
	c->ref_line = UINT64_MAX;
	c->n_list = c->list_strong = 0;
	c->list_text.len = 0;
	c->pend_head = c->n_pend = c->n_pend_items = 0;
	c->pend_text.len = 0;
	c->n_out = c->n_out_items = 0;
	c->out_text.len = 0;
	c->judged_from = c->judged_to = c->dec_end = 0;
	c->n_ent = 0;
	c->n_said = 0;
	c->n_clock = 0;
	c->n_totals = 0;
	c->n_results = 0;
	c->party = 0;
	c->n_rates = 0;
	c->n_inl = 0;
	c->inl_line = UINT64_MAX;
	c->inl_open = false;
	c->n_lazy = 0;
	c->n_done = 0;
	c->n_ledger = 0;
	c->n_ranges = 0;
	c->n_prev = 0;
	c->before.on = false;
}

void claims_pressure(struct claims *c, bool on)
{
	c->pressure = on;
}

uint64_t claims_exempted(const struct claims *c)
{
	return c->exempted;
}

uint64_t claims_repeats(const struct claims *c)
{
	return c->repeats;
}

/*
 * Passes a claim on, behind the findings held before it; one with a figure
 * on a line that may yet be an entry waits for the line too, and one on
 * the line read last loses its entries' figures. items are cl's, c->items.
 */
static int put_claim(struct claims *c, struct claim *cl, struct claim_item *items)
{
	size_t i;

	if (waiting(c))
		return hold_item(c, NULL, cl);
	for (i = 0; c->refs && i < cl->n_items; i++)
		if (number_found(c, &items[i]) && awaits_line(c, &items[i]))
			return hold_item(c, NULL, cl);
	if (c->refs)
		claim_off_entries(c, cl, items);
	return hand_on(c, NULL, cl);
}

/* The claim of the sentence [c->start, end), from the held items' verdicts. */
static int make_claim(struct claims *c, uint64_t end)
{
	struct claim cl = {.start = c->start, .end = end, .cut = c->cutting};
	size_t i, n = 0, grounded = 0;
	const char *s;

	s = window_get(c->w, c->start, end, &cl.text_len);
	/* A claim is what is said: blank space around it is not. */
	while (cl.text_len > 0 && isspace((unsigned char)*s))
		s++, cl.text_len--, cl.start++;
	while (cl.text_len > 0 && isspace((unsigned char)s[cl.text_len - 1]))
		cl.text_len--, cl.end--;
	if (cl.text_len == 0)
		return 0;
	cl.text = s;
	cl.text_len = MIN(cl.text_len, CLAIMS_TEXT_CAP);
	if (grow(&c->items, &c->cap_items, c->n_held ? c->n_held : 1, sizeof(*c->items)) < 0)
		return -ENOMEM;
	for (i = 0; i < c->n_held; i++) {
		const struct held *h = &c->held[i];
		size_t sig = c->rs->rules[h->rule].signal_index, j;

		if (!h->checkable)
			continue;
		/* Two rules of one signal on one stretch of text are one item. */
		for (j = 0; j < n; j++)
			if (h->from < c->items[j].to && c->items[j].from < h->to &&
			    c->rs->rules[c->items[j].rule].signal_index == sig)
				break;
		if (j < n) {
			c->items[j].grounded |= h->grounded;
			continue;
		}
		c->items[n++] = (struct claim_item){
			.rule = h->rule, .from = h->from, .to = h->to, .line = h->line,
			.column = h->column, .text = c->text.data + h->text_off,
			.text_len = h->text_len, .truncated = h->truncated,
			.grounded = h->grounded, .grounded_at = h->grounded_at,
		};
	}
	for (i = 0; i < n; i++)
		grounded += c->items[i].grounded;
	cl.items = c->items;
	cl.n_items = n;
	cl.label = n == 0 ? CLAIM_UNCHECKED
		   : grounded == n ? CLAIM_SUPPORTED
		   : grounded ? CLAIM_PARTIAL : CLAIM_UNSUPPORTED;
	c->counts[cl.label]++;
	return put_claim(c, &cl, c->items);
}

/* Whether a sentence with nothing held still needs deciding: as a claim, or for its numbers. */
static inline bool wants_claim(const struct claims *c)
{
	return (c->want_claims && !c->in_tool) || lexing(c);
}

/* Decides the held matches of the sentence [start, end) and starts the next at next. */
static int decide(struct claims *c, uint64_t end, uint64_t next)
{
	size_t i;
	int err = 0;

	c->dec_end = end;
	/* A line longer than an entry can be holds none: what waits for it goes out. */
	if (ready(c) && end > c->line_start + REFS_LINE_MAX) {
		err = release(c, ready(c));
		if (err)
			return err;
	}
	err = lex_sentence(c, end);
	if (err)
		return err;
	if (grow(&c->chk, &c->cap_chk, c->n_held ? c->n_held : 1, sizeof(*c->chk)) < 0)
		return -ENOMEM;
	/* Each item's check first: the results the sentence works out rest on its terms'. */
	for (i = 0; i < c->n_held; i++) {
		struct held *h = &c->held[i];

		c->chk[i] = h->label ? CHECK_SILENT
			    : h->lexed ? check_quantity(c, h, end)
			    : h->attr ? (h->attr_agrees ? CHECK_GROUNDED : CHECK_REPORT)
			    : grounded(c, h) ? CHECK_GROUNDED : CHECK_REPORT;
		if (c->chk[i] == CHECK_REPORT && h->lexed && (self_assessed(c, h, end) || branch_plan(c, h)))
			c->chk[i] = CHECK_SILENT;
		clock_keep(c, h);
	}
	if (c->n_held && lexing(c) && end > c->start) {
		err = arith_sentence(c, end);
		if (err)
			return err;
	}
	for (i = 0; i < c->n_held; i++)
		ledger_add(c, &c->held[i], (enum check)c->chk[i]);
	ranges_keep(c);
	counts_keep(c);
	/* "60 euros for meals (30 euros x 2 meals), so 440 euros are left":
	 * a sum of money the sentence's own working grounds only now may be
	 * a term of one after it, a budget less it */
	for (i = c->n_ledger ? first_worked(c) + 1 : c->n_held; i < c->n_held; i++) {
		struct held *h = &c->held[i];

		if (c->chk[i] == CHECK_REPORT && h->lexed && !h->label &&
		    quantity_class_of(&h->q) == QC_MONEY &&
		    !(h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX)) && ledger_pair(c, h, false)) {
			c->chk[i] = CHECK_GROUNDED;
			ledger_add(c, h, CHECK_GROUNDED);
		}
	}
	for (i = 0; i < c->rs->n_signals; i++)
		c->last_kept[i] = SIZE_MAX;
	for (i = 0; i < c->n_held; i++) {
		struct held *h = &c->held[i];
		size_t sig = c->rs->rules[h->rule].signal_index;
		size_t k = c->last_kept[sig];
		enum check chk = (enum check)c->chk[i];

		if (chk == CHECK_SILENT) {
			h->dropped = true;
			continue;
		}
		h->checkable = true;
		if (chk == CHECK_GROUNDED) {
			c->repeats++;
			h->grounded = true;
			h->dropped = !c->show_grounded;
			continue;
		}
		if (exempt(c, h, end)) {
			h->dropped = true;
			c->exempted++;
			continue;
		}
		/* One finding per stretch of text per signal: the leftmost, then longest. */
		if (k != SIZE_MAX && h->from < c->held[k].to) {
			if (h->from == c->held[k].from && h->to > c->held[k].to) {
				c->held[k].dropped = true;
				c->last_kept[sig] = i;
			} else {
				h->dropped = true;
			}
			continue;
		}
		c->last_kept[sig] = i;
	}
	/* One finding per stretch of text: the signals of other rules that found
	 * exactly the same text ride on the first (a pattern's, at a tie). */
	for (i = 0; i < c->n_held; i++) {
		struct held *h = &c->held[i];
		size_t j;

		if (h->dropped)
			continue;
		for (j = i + 1; j < c->n_held && c->held[j].from == h->from; j++) {
			struct held *o = &c->held[j];

			if (o->dropped || o->to != h->to || o->grounded != h->grounded ||
			    h->n_also == CLAIMS_ALSO_MAX ||
			    c->rs->rules[o->rule].signal_index == c->rs->rules[h->rule].signal_index)
				continue;
			/* A number check that names a grounded figure leads: its finding
			 * says what the text differs from. */
			if (!h->source_off && o->source_off) {
				struct held t = *h;

				*h = *o;
				*o = t;
				memcpy(h->also, o->also, sizeof(h->also));
				h->n_also = o->n_also;
			}
			h->also[h->n_also++] = o->rule;
			o->dropped = true;
		}
	}
	for (i = 0; i < c->n_held && err == 0; i++) {
		const struct held *h = &c->held[i];
		struct claim_item it = {
			.rule = h->rule, .from = h->from, .to = h->to, .line = h->line,
			.column = h->column, .text = c->text.data + h->text_off,
			.text_len = h->text_len, .truncated = h->truncated,
			.grounded = h->grounded, .grounded_at = h->grounded_at,
			.source = h->source_off ? c->text.data + h->source_off : NULL,
			.total = h->total, .n_also = h->n_also, .computed = h->computed,
		};

		memcpy(it.also, h->also, sizeof(it.also));
		if (h->dropped)
			continue;
		/* a total said before its items waits for them (before_line()) */
		err = h->lexed && !c->before.on && before_total(c, h, end) ? before_hold(c, &it)
									       : put(c, &it);
	}
	if (err == 0 && c->want_claims && !c->in_tool)
		err = make_claim(c, end);
	c->n_held = 0;
	c->text.len = 0;
	c->start = next;
	c->max_to = next;
	c->gen++;
	c->inl_open = false;
	return err;
}

/*
 * Where a sentence too long to hold is cut, so that no figure is split (the
 * number lexer reads each part alone): after the last run of blanks in the
 * cap's last 256 bytes whose word before is no figure, else before the last
 * mark that starts none ("$" after ","), else at the cap. It depends on the
 * text alone, not on how far an engine has read.
 */
static uint64_t cap_cut(const struct claims *c)
{
	uint64_t cap = c->start + CLAIMS_SENTENCE_CAP;
	const char *s;
	size_t n, i;

	s = window_get(c->w, cap - 256, cap, &n);
	if (n < 256)
		return cap;
	for (i = n; i > 1; i--)
		if ((s[i - 1] == ' ' || s[i - 1] == '\t') && s[i - 2] != ' ' && s[i - 2] != '\t' &&
		    ((!isdigit((unsigned char)s[i - 2]) && s[i - 2] != ',') ||
		     (i < n && isdigit((unsigned char)s[i]))))
			return cap - (n - i);
	for (i = n - 1; i > 0; i--)
		if (!isalnum((unsigned char)s[i - 1]) && s[i - 1] != '.' && (s[i - 1] & 0x80) == 0 &&
		    !isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != ',' && (s[i] & 0x80) == 0)
			return cap - (n - i);
	return cap;
}

int claims_advance(struct claims *c, uint64_t pos)
{
	int err;

	/* A cut reads the start of the sentence: the marks before it first. */
	if (c->n_lazy > 0 && pos >= c->start + CLAIMS_SENTENCE_CAP)
		lazy_flush(c);

	if (c->n_held == 0 && !wants_claim(c) && pos >= c->start + CLAIMS_SENTENCE_CAP) {
		/* Nothing to decide: jump to the cut that the loop would reach. */
		c->start += (pos - c->start) / CLAIMS_SENTENCE_CAP * CLAIMS_SENTENCE_CAP;
		return 0;
	}
	while (pos >= c->start + CLAIMS_SENTENCE_CAP) {
		uint64_t cut = cap_cut(c);

		/* A match that reaches over the cut keeps its sentence going. */
		if (c->max_to > cut)
			cut = c->max_to;
		c->cutting = true;
		err = decide(c, cut, cut);
		c->cutting = false;
		if (err)
			return err;
	}
	return 0;
}

int claims_add(struct claims *c, size_t rule, uint64_t from, uint64_t to,
	       uint64_t line, uint64_t column)
{
	struct held *h;
	const char *s;
	size_t n;
	int err;

	/* A trigger: its line is read for entries when it ends (refs_line). */
	if (c->rs->rules[rule].grounding == GROUNDING_REFERENCE) {
		if (c->ref_rule == SIZE_MAX)
			c->ref_rule = rule;
		return 0;
	}

	lazy_flush(c);
	err = claims_advance(c, from);
	if (err)
		return err;
	if (grow(&c->held, &c->cap_held, c->n_held + 1, sizeof(*c->held)) < 0)
		return -ENOMEM;
	s = window_get(c->w, from, MIN(to, from + CLAIMS_TEXT_CAP), &n);
	h = &c->held[c->n_held];
	*h = (struct held){
		.rule = rule, .from = from, .to = to, .line = line, .column = column,
		.text_off = c->text.len, .text_len = n,
		.truncated = n < to - from,
	};
	if (buf_add(&c->text, s, n) < 0)
		return -ENOMEM;
	c->n_held++;
	if (to > c->max_to)
		c->max_to = to;
	return 0;
}

/* strcmp() for a word of at most 16 letters, inline: bsearch() called it
 * through a pointer at every full stop (2% of the time on plain text). */
static int word_cmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/*
 * Is the lowercase word one of the words whose trailing period does not end
 * a sentence (words_abbreviations[], words/claims.txt, sorted by the
 * build)? A binary search.
 */
static bool abbreviation(const char *word)
{
	size_t lo = 0, hi = ARRAY_SIZE(words_abbreviations);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = word_cmp(word, words_abbreviations[mid]);

		if (c == 0)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

static size_t longest_abbreviation(void)
{
	/* Computed on first use: the same value for every caller. Scanners on
	 * several threads may compute it at once; atomic, so that is no race. */
	static atomic_size_t longest;
	size_t i, m = atomic_load_explicit(&longest, memory_order_relaxed);

	if (m == 0) {
		for (i = 0; i < ARRAY_SIZE(words_abbreviations); i++)
			m = MAX(m, strlen(words_abbreviations[i]));
		atomic_store_explicit(&longest, m, memory_order_relaxed);
	}
	return m;
}

static bool is_abbreviation(const struct claims *c, uint64_t dot)
{
	uint64_t lo = dot > 16 ? dot - 16 : 0;
	const char *s;
	size_t n, k = 0, i;
	char word[17];

	s = window_get(c->w, lo, dot, &n);
	while (k < n && isalpha((unsigned char)s[n - 1 - k]))
		k++;
	if (k == 0 || k >= sizeof(word))
		return false;
	if (k == 1) {
		/* "e.g.", "i.e.", "U.S.": a letter after a period; "J. Smith": a
		 * capital standing alone. Not the last letter of a path ("/x."). */
		char before = n >= 2 ? s[n - 2] : ' ';

		return before == '.' ||
		       (isupper((unsigned char)s[n - 1]) && (before == ' ' || before == '(' || before == '\t'));
	}
	/* Most sentences end in words longer than any abbreviation. */
	if (k > longest_abbreviation())
		return false;
	for (i = 0; i < k; i++)
		word[i] = (char)tolower((unsigned char)s[n - k + i]);
	word[k] = '\0';
	return abbreviation(word);
}

/*
 * Whether a sentence end (s: the byte before it, then the mark) may close
 * a part of an entry: ". 2015" (a year after a full stop), '." ' (a quoted
 * title), "*. " (a book's emphasis), "). " (an author-date year: "(2019).
 * Title") or ". (" (the year after the authors' initials: "Smith, J.
 * (2019) Title"). Its line is then asked refs_line_cue() when it ends: the
 * engine stops at every sentence end anyway, so these forms cost plain
 * text nothing where Hyperscan patterns for them cost every byte.
 */
static inline __attribute__((always_inline)) bool refs_mark_cue(const char *s, size_t n)
{
	/* s[0] is the byte before the mark, s[1] its first */
	if (n < 4 || s[1] != '.')
		return false;
	return (s[2] == '"' && (s[3] == ' ' || s[3] == '\t')) || s[0] == '*' || s[0] == ')' ||
	       s[n - 1] == '1' || s[n - 1] == '2' || s[n - 1] == '(';
}

/*
 * The full stop at dot ends "N." mid-line, after ",", ";" or ":" or at the
 * start of a sentence that began mid-line: maybe an item number of a list
 * run inline (NUMLEX_INLINE_ITEM), which ends no sentence, so that its
 * item, and the next item's number, are read with it ("agencies: 1. EKVF,
 * 2. ACT"). Once one went on so, a sentence end before a digit goes on
 * too, and "N." after it is another ("plan: 1. Search. 2. Check.").
 */
static bool inline_item_dot(const struct claims *c, uint64_t dot)
{
	uint64_t lo = dot > 12 ? dot - 12 : 0;
	const char *s;
	size_t n, k = 0, i;

	if (lo < c->start)
		lo = c->start;
	s = window_get(c->w, lo, dot, &n);
	if (n < dot - lo)
		return false;
	while (k < n && k < 4 && isdigit((unsigned char)s[n - 1 - k]))
		k++;
	if (k == 0 || k > 3 || (k == 1 && s[n - 1] == '0'))
		return false;
	if (dot - k == c->start)
		return c->start > c->line_start;
	for (i = n - k; i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'); i--)
		;
	return i < n - k && i > 0 &&
	       (s[i - 1] == ',' || s[i - 1] == ';' || s[i - 1] == ':' ||
		(c->inl_open && (s[i - 1] == '.' || s[i - 1] == '!' || s[i - 1] == '?')));
}

/*
 * What the mark [from, to) does to the sentence: ends it (deciding what it
 * holds), or not. deferred: the mark waited unread (claims_mark()), with
 * nothing held, no claim wanted and no cut due then, as is still so.
 */
static int mark_sentence(struct claims *c, uint64_t from, uint64_t to, bool deferred)
{
	const char *s;
	size_t n;
	int err;

	s = window_get(c->w, from, to, &n);
	if (!deferred) {
		err = claims_advance(c, from);
		if (err)
			return err;
	}
	if (from < c->max_to || from < c->start)
		return 0; /* inside a match: "Smith et al. (2024)" */
	if (n == 0)
		return 0;
	/* The next sentence starts with a capital, digit or mark, not a lowercase word. */
	if (islower((unsigned char)s[n - 1]))
		return 0;
	if (s[0] == '.' && is_abbreviation(c, from))
		return 0;
	if (s[0] == '.' && n > 1 && (s[1] == ' ' || s[1] == '\t') &&
	    ((c->inl_open && isdigit((unsigned char)s[n - 1])) || inline_item_dot(c, from))) {
		c->inl_open = true;
		return 0;
	}
	if (deferred || (c->n_held == 0 && !wants_claim(c))) {
		c->start = to - 1;
		c->inl_open = false;
		return 0;
	}
	return decide(c, to - 1, to - 1);
}

/* Reads the marks that waited, in order, as if each had been read as it came. */
static void lazy_flush(struct claims *c)
{
	size_t i, n = c->n_lazy;

	c->n_lazy = 0;
	for (i = 0; i < n; i++)
		(void)mark_sentence(c, c->lazy[i].from, c->lazy[i].to, true); /* (cannot fail) */
}

/* claims_mark(), inline in claims_marks(); wants: wants_claim(c) */
static inline __attribute__((always_inline)) int mark_event(struct claims *c, uint64_t from,
							      uint64_t to, bool wants)
{
	const char *s;
	size_t n;
	bool before;

	/* The mark and the byte before it (when the window holds it), for the
	 * reference reader's cue, which every mark is asked for as it comes. */
	before = from > c->w->base;
	s = window_get(c->w, from - before, to, &n);
	if (n == 0)
		before = false;
	if (before && !c->ref_cue && c->cue_rule != SIZE_MAX && !c->in_tool && refs_mark_cue(s, n))
		c->ref_cue = true;
	/*
	 * With nothing held and no claim wanted, a mark only moves the start
	 * of the sentence, and the line's end moves it past every mark of the
	 * line: most marks are never read. They wait until a match comes on
	 * their line (claims_add()) or anything else needs the start. No cut
	 * is due before from (the start only grows as they are read), so
	 * claims_advance() would do nothing here.
	 */
	if (c->n_held == 0 && !wants && from < c->start + CLAIMS_SENTENCE_CAP) {
		if (c->n_lazy == CLAIMS_LAZY_MARKS)
			lazy_flush(c);
		c->lazy[c->n_lazy].from = from;
		c->lazy[c->n_lazy].to = to;
		c->n_lazy++;
		return 0;
	}
	lazy_flush(c);
	return mark_sentence(c, from, to, false);
}

int claims_mark(struct claims *c, uint64_t from, uint64_t to)
{
	return mark_event(c, from, to, wants_claim(c));
}

/* Ends the sentence at offset at. */
static int break_sentence(struct claims *c, uint64_t at)
{
	if (at < c->max_to)
		at = c->max_to;
	if (c->n_held == 0 && (!wants_claim(c) || at <= c->start)) {
		if (at > c->start)
			c->start = at;
		c->inl_open = false;
		return 0;
	}
	return decide(c, at, at);
}

int claims_break(struct claims *c, uint64_t at)
{
	/* A tool span or the end of input ends the line, and any list of titles. */
	int err;

	lazy_flush(c);
	err = refs_line(c, at);

	if (err == 0)
		err = refs_list_end(c);
	if (err == 0)
		err = break_sentence(c, at);
	/* (the last line ends, and with it any list a total waits for) */
	return err == 0 && c->before.on ? before_line(c, at, true) : err;
}

/* claims_line(), inline in claims_marks(); wants: wants_claim(c) */
static inline __attribute__((always_inline)) int line_event(struct claims *c, uint64_t at,
							      bool wants)
{
	bool idle;
	int err = 0;

	err = refs_line(c, at - 1);
	/* A line under a total that waits for its items: read before the
	 * line's own sentence is decided, so that a figure said again there
	 * finds the total grounded. */
	if (err == 0 && c->before.on && c->line != c->before.line)
		err = before_line(c, at, false);
	/* The marks that waited: the line's end starts the next sentence past
	 * them all (each is before the line break), unless something is to be
	 * decided up to here. */
	idle = c->n_held == 0 && !wants;
	if (idle)
		c->n_lazy = 0;
	lazy_flush(c);
	/* A line break inside a closed tool span, passed on after its text was decided. */
	if (err == 0 && idle && at > c->start) {
		/* break_sentence() with nothing to decide, nearly every line */
		c->start = MAX(at, c->max_to);
		c->inl_open = false;
	} else if (err == 0 && (at > c->start || c->n_held > 0)) {
		err = break_sentence(c, at);
	}
	/* the line of a total that waits for its items, when it ends */
	if (err == 0 && c->before.on && c->line == c->before.line)
		err = before_line(c, at, false);
	c->line++;
	c->line_start = at;
	return err;
}

int claims_line(struct claims *c, uint64_t at)
{
	return line_event(c, at, wants_claim(c));
}

/*
 * Nothing held, nothing waiting to go out (no total for its items either),
 * and no trigger, cue or list of titles on the line: with no claim wanted
 * too, a line's end then only asks whether the line opens as an entry and
 * moves the sentence's start past it, and a mark is only asked for a cue
 * (it waits unread, and the line's end drops it). Nearly every line of prose.
 */
static inline bool quiet(const struct claims *c)
{
	return c->n_held == 0 && c->n_pend == 0 && !c->before.on && c->ref_rule == SIZE_MAX &&
	       c->n_list == 0 && !c->ref_cue;
}

/*
 * line_event() and mark_event() of the events v[i, n) as long as the
 * claims are quiet (quiet(), and no claim wanted), with what they change
 * kept in locals. A line whose first bytes open an entry, a mark that is a
 * reference cue (its line is read when it ends), a mark past the sentence
 * cap and one the held marks have no room for are left to them. Returns
 * the first event not taken; *k counts the lines.
 */
static size_t quiet_run(struct claims *c, const struct engine_event *v, size_t i, size_t n,
			unsigned line_id, size_t *k)
{
	const struct window *w = c->w;
	const struct engine_event *const first = v + i, *const v_end = v + n, *e = first;
	const char *const data = w->data;
	const uint64_t base = w->base, held_end = w->base + w->len, max_to = c->max_to;
	/* What refs_line() reads a line for by its first byte, and whether marks are asked for cues. */
	const bool cues = c->cue_rule != SIZE_MAX && !c->in_tool, refs = c->refs && !c->in_tool;
	const unsigned char opens_read = (refs && c->find_items ? OPENS_ITEM : 0) |
					 (refs && cues ? OPENS_NAME : 0);
	/* refs_item_start()'s in_list: a line before this one is near the last entry */
	const uint64_t near_entry = c->ref_line != UINT64_MAX ? c->ref_line + 3 : 0;
	uint64_t line = c->line, line_start = c->line_start, start = c->start;
	size_t lazy = c->n_lazy, fresh;

	for (; e < v_end; e++) {
		if (e->id == line_id) {
			const uint64_t end = e->from, to = MIN(end, line_start + REFS_YEAR_WITHIN);

			/* refs_line(): the line's first bytes, as it reads them */
			if (opens_read && end > line_start && line_start >= base && to <= held_end) {
				const char *s = data + (line_start - base);
				unsigned char opens = opens_read & refs_line_opens[(unsigned char)s[0]];

				if (opens == OPENS_ITEM && refs_item_start(s, to - line_start, line < near_entry))
					break;
				if (opens == OPENS_NAME && refs_paren_year(s, to - line_start))
					break;
			}
			/* the marks held unread go: the line's end starts the next sentence past them */
			lazy = 0;
			if (end >= start)
				start = MAX(end + 1, max_to);
			line_start = end + 1;
			line++;
		} else {
			/* mark_event(): the mark and the byte before it, for a cue */
			const uint64_t to = MIN(e->to, held_end);

			if (e->from >= start + CLAIMS_SENTENCE_CAP || lazy == CLAIMS_LAZY_MARKS ||
			    (cues && e->from > base && to >= e->from &&
			     refs_mark_cue(data + (e->from - 1 - base), to - e->from + 1)))
				break;
			lazy++;
		}
	}
	i = (size_t)(e - v);
	/* The marks read since the last line's end (all of the run's events since). */
	fresh = line != c->line ? lazy : lazy - c->n_lazy;
	if (line != c->line) {
		const struct engine_event *last = e - fresh - 1, *prev = last;

		/* what refs_line() of the last line set: the line, from the break before it */
		while (prev > first && (--prev)->id != line_id)
			;
		c->judged_from = prev < last && prev->id == line_id ? prev->from + 1 : c->line_start;
		c->judged_to = last->from;
		c->n_ent = 0;
		/* (the sentence's start moved exactly when a line's end cleared inl_open) */
		if (start != c->start)
			c->inl_open = false;
		c->start = start;
		c->n_lazy = 0;
		*k += line - c->line;
		c->line = line;
		c->line_start = line_start;
	}
	/* They wait, as mark_event() left them. */
	for (; fresh > 0; fresh--) {
		c->lazy[c->n_lazy].from = v[i - fresh].from;
		c->lazy[c->n_lazy].to = v[i - fresh].to;
		c->n_lazy++;
	}
	return i;
}

/* line_event() or mark_event() of e; k counts the lines. */
static inline __attribute__((always_inline)) int one_event(struct claims *c,
							     const struct engine_event *e,
							     unsigned line_id, bool wants, size_t *k)
{
	if (e->id == line_id) {
		(*k)++;
		return line_event(c, e->from + 1, wants);
	}
	return mark_event(c, e->from, e->to, wants);
}

int claims_marks(struct claims *c, const struct engine_event *v, size_t n, unsigned line_id,
		 size_t *taken, size_t *lines)
{
	size_t i = 0, k = 0;
	int err = 0;

	/*
	 * Whether a claim is wanted, once a run: what it rests on is not the
	 * events' to change. The claims' ground is const to them, and the
	 * claims, the tool-output flag and the lexer are set by the scan
	 * between calls. Wanted, the claims are never quiet.
	 */
	if (wants_claim(c)) {
		while (i < n && err == 0)
			err = one_event(c, &v[i++], line_id, true, &k);
	} else {
		while (i < n && err == 0) {
			if (quiet(c) && (i = quiet_run(c, v, i, n, line_id, &k)) == n)
				break;
			err = one_event(c, &v[i++], line_id, false, &k);
		}
	}
	*taken = i;
	*lines = k;
	return err;
}

void claims_keep_columns(struct claims *c, uint64_t at)
{
	lazy_flush(c); /* while the window still holds their bytes */
	if (at > c->line_start)
		count_columns(c, at);
}
