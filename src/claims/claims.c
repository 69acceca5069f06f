// SPDX-License-Identifier: MIT
/* Sentence assembly and whole-sentence decisions. */
#include "claims.h"

#include "common/fmath.h"
#include "ground/attrs.h"
#include "ground/bib.h"
#include "ground/ground.h"
#include "numbers/arith.h"
#include "numbers/numlex.h"
#include "numbers/quantity.h"

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
#define CLAIMS_TOTAL_ITEMS 8
/* a derivation of CLAIMS_TOTAL_ITEMS terms of 16 digits, written out */
#define CLAIMS_TOTAL_HOW 256

/* Times of the clock kept for clock_arith(), and how far before a figure they are read. */
#define CLAIMS_CLOCK 8
#define CLOCK_BEFORE 400

struct held {
	size_t rule;
	uint64_t from, to, line, column;
	size_t text_off, text_len;
	bool truncated, dropped, grounded;
	uint64_t grounded_at;
	size_t source_off; /* in text: a near grounded figure, NUL-terminated; 0: none */
	bool checkable;    /* counts towards its sentence's claim */
	bool lexed;        /* a quantity the number lexer found (q, nl_flags) */
	size_t also[CLAIMS_ALSO_MAX]; /* kept rules of other signals on the same text */
	size_t n_also;
	unsigned nl_flags;
	struct quantity q;
	bool after;        /* its rule's unless_after matches after it (once after_pass ran) */
	uint32_t period;   /* the reporting period it is said of (numlex_period_feed()), or 0 */
	uint32_t quarter_year; /* a quarter's year: that quarter-year ("Q3 2019"), or 0 */
	bool compared;     /* ...said as what something is compared with */
	uint64_t expr_from; /* ...where its expression starts ("the third quarter of 2019") */
	bool attr;         /* an attribute check's (attrs.h): grounded when attr_agrees */
	bool attr_agrees;
	bool all_day;      /* "open 24 hours a day", "open 24/7": a time every hour of its days */
	bool week;         /* "open seven days a week": checked only against days' hours */
	unsigned char total; /* CLAIM_TOTAL_*: source is the derivation it differs from */
	bool label;        /* numbers an item of a list run inline ("..., 4. Agence"), or is a
			    * group of a code's ("GB29 NWBK 6016 ..."): no figure */
	bool computed;     /* source is the reply's own arithmetic worked out (arith.h) */
	bool term;         /* a term of arithmetic the sentence writes out (arith.h) */
	bool worked;       /* a result the sentence works out right from grounded terms */
	bool per;          /* a sum of money said as a rate ("€59/day", "€40 per person") */
	bool total_role;   /* ...said as a total ("Total: €300") */
	bool other_role;   /* ...as a charge, a refund or a difference: no item of a total */
};

/*
 * The reply's own figures (the ledger): its sums of money and the bare
 * figures it wrote with decimals or worked out, each grounded (stated by
 * the tools, derived or worked out), in the order said; not the terms of
 * its written arithmetic (their result stands for them). A total, a net,
 * an average or a repeat the reply does not write out is read against
 * them (ledger_derive()). A ring of CLAIMS_LEDGER.
 */
#define CLAIMS_LEDGER 32
#define CLAIMS_LEDGER_HOW 64
struct ledger_fig {
	double v;
	uint64_t unit_hash; /* the figure's unit; a bare figure's is "number" */
	uint64_t at;        /* where the grounding says it (or its first term) */
	bool bare, worked, derived, total;
	bool per; /* a rate, a charge, a refund: no item of a total */
	signed char sign; /* a sign written before it ("-50.0", "+10.0"), or 0 */
	bool in; /* labelled money received ("$10 (received)"): none of what was spent */
	char how[CLAIMS_LEDGER_HOW]; /* for derived: its derivation */
};

/* A range the reply said (its two ends grounded), for range_midpoint(). */
#define CLAIMS_RANGES 4
struct said_range {
	double lo, hi;
	uint64_t unit_hash;
	uint64_t at; /* where the grounding says its low end */
};

/* A number of the sentence being lexed that may number an inline list's item (NUMLEX_INLINE_ITEM). */
struct inline_item {
	double value;
	size_t held; /* its index in held, or SIZE_MAX when it was not held */
};

/*
 * A result the reply worked out in writing (arith.h), for the rest of the
 * reply: one derived from grounded terms grounds the same figure said
 * again ("- **Car Rental**: €298" after "€59 * 2 + €60 * 3 = €298"); one
 * that is wrong, or rests on a wrong one, gives its right value to the
 * sums it is a term of.
 */
#define ARITH_DONE 32
enum { DONE_GROUNDED = 1, DONE_WRONG, DONE_UNGROUNDED };
struct arith_done {
	struct arith_q written, right;
	uint64_t unit_hash;   /* the result's quantity's */
	uint8_t cur;
	uint8_t status;       /* DONE_* */
	uint64_t at;          /* where its first grounded term is grounded */
	char how[ARITH_HOW];  /* for DONE_GROUNDED: the computation */
};

/*
 * A rule's exemption patterns, compiled on first use, and what they have
 * shown about the sentence numbered gen. Every finding of a sentence asks
 * the same questions of it, so each is answered from where the last
 * answer left off: once per sentence (unless_sentence), or in one pass
 * over it (unless_before, unless_after), not once per finding.
 */
struct exemptions {
	bool compiled;
	pcre2_code *before, *after;
	pcre2_code **sentence;
	bool rescan;          /* a pattern uses \G: asked afresh each time */
	size_t after_behind;  /* how far before a start after may look, at least 1 */
	uint64_t gen;
	signed char in_sentence; /* unless_sentence: -1 not asked yet, 0 or 1 */
	bool before_hit;      /* before matched a prefix without reading its end */
	uint64_t before_at;   /* the last prefix end asked about */
	uint64_t before_from; /* no match of before starts before this, whatever the prefix */
	bool after_done;      /* after_pass() has decided the sentence's matches */
};

/* Marks held unread at most (see struct claims). */
#define CLAIMS_LAZY_MARKS 64

/* A list of titles longer than this is judged when it reaches it. */
#define REFS_LIST_MAX 64

struct claims {
	const struct ruleset *rs;
	const struct window *w;
	const struct ground *ground;
	bool show_grounded;
	struct buf key;
	claims_emit_fn fn;
	void *ctx;
	uint64_t start;      /* where the current sentence starts */
	uint64_t max_to;     /* the furthest end of a held match */
	struct held *held;
	size_t n_held, cap_held;
	struct buf text;     /* held matches' text */
	struct exemptions *ex;
	size_t *last_kept;   /* per signal index: position in held, or SIZE_MAX */
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	pcre2_match_context *after_mctx; /* with an offset limit */
	uint64_t gen;        /* the current sentence's number, for struct exemptions */
	uint64_t exempted, repeats;
	claims_claim_fn claim_fn;
	void *claim_ctx;
	bool in_tool;
	bool cutting;        /* the sentence being decided is cut at the cap */
	bool pressure;       /* HALLUSCAN_SCAN_PRESSURE: see enum pressure */
	/* The sums of money the model's text said as the grounding states
	 * them, newest last (a ring): a sum or difference of two is grounded
	 * only with one of these among its terms (ground_derive()). */
	double said[GROUND_DERIVE_SAID];
	size_t n_said;
	/* The times of the clock the model's text said, newest last (a ring):
	 * a start a duration is added to, or the ends of a gap (clock_arith()). */
	struct quantity clock[CLAIMS_CLOCK];
	uint64_t clock_from[CLAIMS_CLOCK];
	size_t n_clock;
	/* The total check (check_total()): the sums of money the answer stated
	 * as an item's (a fare, a price; not as a total, a charge, a refund),
	 * distinct, in order; and the party it said it counts ("2 passengers"),
	 * or 0. */
	double totals[CLAIMS_TOTAL_ITEMS];
	size_t n_totals;
	double rates[CLAIMS_TOTAL_ITEMS]; /* rates over time said ("€59/day"), the newest last */
	uint64_t rates_at[CLAIMS_TOTAL_ITEMS]; /* where the grounding says each */
	size_t n_rates;
	unsigned span; /* the span of the last total over time ("for 4 days": 4) */
	/* Sums of money the answer worked out right from grounded terms since
	 * its last total ("Car rental: €135 (3 days at €45/day)"): a total
	 * said next that is all of them is theirs. */
	double results[CLAIMS_TOTAL_ITEMS];
	size_t n_results;
	uint64_t results_at; /* where the grounding says the first one's first term */
	uint64_t totals_at; /* where the grounding says the last of them */
	unsigned party;
	struct ledger_fig ledger[CLAIMS_LEDGER];
	size_t n_ledger;
	/* The ranges the reply said as the grounding states them ("110.0 -
	 * 200.0"), newest last (a ring): a midpoint said of one is theirs. */
	struct said_range ranges[CLAIMS_RANGES];
	size_t n_ranges;
	/* The arithmetic of the sentence being decided, each held item's
	 * check (decided before the results that rest on them), and the
	 * reply's results so far (a ring). */
	struct arith *ar;
	unsigned char *chk;   /* enum check */
	size_t cap_chk;
	struct arith_done done[ARITH_DONE];
	size_t n_done;
	uint64_t counts[CLAIM_LABELS];
	struct claim_item *items;  /* a claim's checkable items */
	size_t cap_items;
	/* The number checks: the rule each quantity class is reported under
	 * (-1: none), and where their quantities are, counted by line breaks
	 * (claims_line) and code points since the line began. */
	int class_rule[QC_CLASSES];
	bool lex;
	struct held *merge;
	size_t cap_merge;
	/* While lexing: the pattern matches held, and how far they were passed. */
	size_t lex_matches, lex_cur;
	uint64_t lex_max_to;
	/* The periods of the sentence's figures; the held items of its last
	 * figure, [per_first, per_end), which a period after it binds to. */
	struct numlex_periods periods;
	size_t per_first, per_end;
	const char *lex_text; /* the sentence being lexed, lex_len bytes */
	size_t lex_len;
	bool bind_periods;    /* the grounding has a figure said of a period */
	uint64_t line, line_start, col_at, col_cp;
	/* Bibliography entries: the rule of the first trigger on the current
	 * line (SIZE_MAX: none), the line of the last entry or references
	 * heading (lines + 1: none yet), and today, for the plausibility checks. */
	const struct refs *refs;
	size_t ref_rule;
	size_t item_rule[2]; /* ref.numbered and ref.bullet: list items found at a line's start */
	/* ref.year: a line a sentence end marked as maybe holding an entry's
	 * part (". 2015.", '." ', "*. ", "(2019). ", "J. (2019)"), read at its
	 * end if refs_line_cue() agrees */
	size_t cue_rule;
	bool ref_cue;
	bool find_items; /* refs and ref.numbered or ref.bullet: list items are looked for */
	uint64_t ref_line;
	unsigned today;
	/* A list of items that are only titles, held until it ends to judge it
	 * whole: under a references heading (or after an entry), or with two
	 * sure titles, it is a list of references; else names, dishes, quotes. */
	struct claim_item *list;
	size_t n_list, cap_list, list_strong;
	bool list_heading;
	uint64_t list_line;
	struct buf list_text;
	/* Each nested title's "Label: " (refs_item_label(), in list_text) and
	 * whether another nested title of the list shares it: then both are
	 * fields of records ("   - Location: Harbor Room" under each meeting),
	 * neither a title nor counted as a sure one. */
	struct {
		uint32_t at;
		uint8_t len;
		bool field;
		bool nested;
	} list_label[REFS_LIST_MAX];
	/* NUMLEX_INLINE_ITEM numbers of the sentence being lexed, in order; the
	 * last one of an earlier sentence, and its line (UINT64_MAX: none), which
	 * the first of the next continues ("..., 2. Foo, 3." then "Bar, 4."). */
	struct inline_item *inl;
	size_t n_inl, cap_inl;
	double inl_last;
	uint64_t inl_line;
	bool inl_open; /* the sentence goes on past such a number's full stop */
	/* Sentence marks of the current line not read yet: with nothing held
	 * and no claim wanted, a mark only moves where the sentence starts, and
	 * the line's end moves it past them all; they are read only when a
	 * match comes on their line (claims_mark()). */
	struct {
		uint64_t from, to;
	} lazy[CLAIMS_LAZY_MARKS];
	size_t n_lazy;
	const struct bib *bib;
	struct buf bib_source; /* the bibliography entry an altered one differs from */
	/* The attribute check (attrs.h): its rule (SIZE_MAX: none) and lists. */
	size_t attr_rule;
	size_t code_rule;     /* the code check's (grounding: code), or SIZE_MAX */
	const struct attrs *attrs;
	/* The rules' exemptions serialized at build time (db.h), or NULL. */
	const unsigned char *exempt;
	size_t exempt_len;
	bool lex_numbers; /* a number rule exists: the lexer reads sentences */
	/*
	 * A number check's finding on a line not yet read for entries waits
	 * for refs_line(): a figure of an entry (its year, volume, pages) is
	 * the entry's to judge. What comes out after it waits behind it
	 * (findings, claims), so the order is kept. The line last read is
	 * [judged_from, judged_to), its entries ent; dec_end is where the
	 * sentence being decided ends.
	 */
	struct pending *pend;
	size_t pend_head, n_pend, cap_pend; /* those before pend_head went out */
	struct claim_item *pend_items; /* the items of claims held */
	size_t n_pend_items, cap_pend_items;
	struct buf pend_text;
	uint64_t judged_from, judged_to, dec_end;
	struct {
		uint64_t from, to;
		uint64_t title_from, title_to; /* its title, if it has one */
	} ent[REFS_PER_LINE];
	size_t n_ent;
};

/*
 * A finding or a claim held: its bytes in pend_text, from off on, are its
 * text, then a finding's source (NUL-terminated) or a claim's items' texts;
 * a claim's items are pend_items[items_off, items_off + cl.n_items).
 */
struct pending {
	bool is_claim;
	struct claim_item it;
	struct claim cl;
	size_t off, items_off;
};

/* A year in parentheses after an entry's authors starts this near the line's start. */
#define REFS_YEAR_WITHIN 128

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

void claims_set_claim_fn(struct claims *c, claims_claim_fn fn, void *ctx)
{
	c->claim_fn = fn;
	c->claim_ctx = ctx;
}

static void lazy_flush(struct claims *c);

void claims_tool_output(struct claims *c, bool inside)
{
	lazy_flush(c);
	c->in_tool = inside;
}

const uint64_t *claims_counts(const struct claims *c)
{
	return c->counts;
}

/* Words whose trailing period does not end a sentence, lowercase and sorted
 * (abbreviation() searches it at every full stop). */
static const char *const abbreviations[] = {
	"al", "approx", "apr", "aug", "ca", "cf", "co", "corp", "dec", "dept", "dr", "eq", "est",
	"etc", "feb", "fig", "figs", "inc", "jan", "jr", "jul", "jun", "ltd", "mar", "mr", "mrs",
	"ms", "mt", "no", "nos", "nov", "oct", "pp", "prof", "ref", "sep", "sept", "sr", "st",
	"vol", "vs",
};

int claims_new(const struct claims_rules *cr, const struct window *w, const struct ground *g,
	       bool show_grounded, claims_emit_fn fn, void *ctx, struct claims **out)
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
	c->fn = fn;
	c->ctx = ctx;
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
	}
	free(c->list);
	buf_free(&c->list_text);
	buf_free(&c->bib_source);
	free(c->pend);
	free(c->pend_items);
	buf_free(&c->pend_text);
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

enum check {
	CHECK_REPORT,   /* report the match */
	CHECK_GROUNDED, /* it repeats tool output */
	CHECK_SILENT,   /* a number check with nothing to check against */
};

/* True when the number lexer reads the model's sentences: there is grounding. */
static bool lexing(const struct claims *c)
{
	return c->lex && c->ground && ground_active(c->ground) && !c->in_tool;
}

/* Counts the current line's code points up to offset at (never backwards). */
static void count_columns(struct claims *c, uint64_t at)
{
	const char *p;
	size_t n;

	if (c->col_at < c->line_start) {
		c->col_at = c->line_start;
		c->col_cp = 0;
	}
	if (at <= c->col_at)
		return;
	p = window_get(c->w, c->col_at, at, &n);
	c->col_cp += utf8_count(p, n);
	c->col_at = at;
}

/* Ends the clause of a time's days at a digit, ',', ';', '.', a line break or " and ". */
static size_t clause_after(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (isdigit((unsigned char)p[i]) || p[i] == ',' || p[i] == ';' || p[i] == '.' ||
		    p[i] == '\n')
			return i;
		if (i + 5 <= n && (memcmp(p + i, " and ", 5) == 0 || memcmp(p + i, " but ", 5) == 0))
			return i;
	}
	return n;
}

/*
 * Are p[0, n) only words of the list (any case) and bytes of blanks
 * between them (a UTF-8 byte too, when utf8: an en dash)?
 */
static bool only_words(const char *p, size_t n, const char *const *words, size_t n_words,
		       const char *blanks, bool utf8)
{
	size_t i = 0, k, j;

	while (i < n) {
		if (!isalpha((unsigned char)p[i])) {
			if (!(utf8 && (unsigned char)p[i] >= 0x80) && (!p[i] || !strchr(blanks, p[i])))
				return false;
			i++;
			continue;
		}
		for (k = i; k < n && isalpha((unsigned char)p[k]); k++)
			;
		for (j = 0; j < n_words; j++)
			if (strlen(words[j]) == k - i && strncasecmp(p + i, words[j], k - i) == 0)
				break;
		if (j == n_words)
			return false;
		i = k;
	}
	return true;
}

/* Does [p, p + n) only join two times ("am to", " - ", "pm until")? */
static bool joins_times(const char *p, size_t n)
{
	static const char *const words[] = {"am", "pm", "a", "m", "p", "to", "until", "till",
					    "through", "and", "or"};

	return only_words(p, n, words, ARRAY_SIZE(words), " .-", true);
}

/*
 * The days of the week a time is said of: named right after it in its
 * clause ("9am to 5pm on weekdays"), else before it since the last figure
 * or comma ("Monday through Friday from 9am"; "7 days a week" kept whole).
 * Days the rest of the sentence names are its exceptions ("5 pm to 9 pm
 * daily, with extended hours until 10 pm on Fridays"), left out.
 */
/*
 * The length of a clause at p[0, n) that names days and nothing else
 * (", Tuesday through Friday", " Mon - Fri"), up to its end (",", ";",
 * ".", a line's end); 0 when it says anything more.
 */
static size_t days_clause(const char *p, size_t n)
{
	static const char *const joins[] = {"through", "thru", "to", "until", "till", "and", "on",
					    "from", "every", "except"};
	size_t i = 0, k, j;
	bool day = false;

	while (i < n && p[i] != ',' && p[i] != ';' && p[i] != '.' && p[i] != '\n') {
		if (!isalpha((unsigned char)p[i])) {
			/* blanks, "-", "&", an en dash's bytes */
			if (isalnum((unsigned char)p[i]) || ((unsigned char)p[i] < 0x80 && p[i] != ' ' &&
							     p[i] != '\t' && p[i] != '-' && p[i] != '&' &&
							     p[i] != '(' && p[i] != ')'))
				return 0;
			i++;
			continue;
		}
		for (k = i; k < n && isalpha((unsigned char)p[k]); k++)
			;
		if (ground_days(p + i, k - i))
			day = true;
		else {
			for (j = 0; j < ARRAY_SIZE(joins); j++)
				if (strlen(joins[j]) == k - i && strncasecmp(p + i, joins[j], k - i) == 0)
					break;
			if (j == ARRAY_SIZE(joins))
				return 0;
		}
		i = k;
	}
	return day ? i : 0;
}

/* Are p[0, n) only words that lead to opening hours ("it opens at", "from")? */
static bool opening_words(const char *p, size_t n)
{
	static const char *const words[] = {"from", "it", "is", "opens", "open", "closes", "close",
					    "at", "hours", "are", "its", "they", "the", "until", "till"};

	return only_words(p, n, words, ARRAY_SIZE(words), " \t:", false);
}

static unsigned days_said(struct claims *c, const struct held *h, uint64_t end)
{
	const char *p, *a;
	size_t n, na, i, j, k, m;
	unsigned days, rest;

	a = window_get(c->w, h->to, MIN(end, h->to + 160), &na);
	k = clause_after(a, na);
	days = ground_days(a, k);
	rest = ground_days(a + k, na - k);
	/* "from 7 am to 3 pm, Tuesday through Friday": days after a comma,
	 * when the clause there names nothing else */
	if (!days && k < na && a[k] == ',' && (m = days_clause(a + k + 1, na - k - 1))) {
		days = ground_days(a + k + 1, m);
		rest = ground_days(a + k + 1 + m, na - k - 1 - m);
	}
	if (!days) {
		p = window_get(c->w, MAX(c->start, h->from > 160 ? h->from - 160 : 0), h->from, &n);
		for (i = n, j = n; i > 0 && p[i - 1] != ',' && p[i - 1] != ';' && p[i - 1] != '\n'; i--) {
			if (!isdigit((unsigned char)p[i - 1]))
				continue;
			/* "7 days a week from 9am": the digit is the days' */
			if (n - i >= 12 && memcmp(p + i, " days a week", 12) == 0)
				continue;
			/* "from 10:30 am to midnight": past the range's other end */
			if (!joins_times(p + i, j - i))
				break;
			while (i > 1 && (isdigit((unsigned char)p[i - 2]) || p[i - 2] == ':' ||
					 p[i - 2] == '.'))
				i--;
			j = i - 1;
		}
		days = ground_days(p + i, n - i);
		rest = ground_days(a, na);
		/* "open Tuesday through Friday, from 8 am to 3 pm", "On
		 * weekends, it opens at 8": days of the clause before a comma
		 * that says no other figure and no closing, when only such
		 * words lead from the comma to the time (not "with hours
		 * varying between 11am and 10pm") */
		if (!days && i > 0 && p[i - 1] == ',' && opening_words(p + i, n - i)) {
			for (k = i - 1, j = k; j > 0 && p[j - 1] != ',' && p[j - 1] != ';' &&
					       p[j - 1] != '\n' && !isdigit((unsigned char)p[j - 1]);
			     j--)
				;
			if ((j == 0 || !isdigit((unsigned char)p[j - 1])) &&
			    !find_literal(p + j, k - j, "clos", 4) && !find_literal(p + j, k - j, "Clos", 4))
				days = ground_days(p + j, k - j);
		}
	}
	return days & ~rest ? days & ~rest : days;
}

/*
 * A time said as opening hours: "open", "opens", "closes", "hours",
 * "operates" ... among the words before it in its clause, or days said
 * of it ("from 5 pm to 9 pm on weekdays").
 */
static bool opening_time(struct claims *c, const struct held *h, uint64_t end)
{
	static const char *const stems[] = {"open", "clos", "hours", "operat"};
	const char *p;
	size_t n, i, k, e;

	p = window_get(c->w, MAX(c->start, h->from > 64 ? h->from - 64 : 0), h->from, &n);
	for (i = n; i > 0 && p[i - 1] != ',' && p[i - 1] != ';' && p[i - 1] != '\n';) {
		for (e = i; i > 0 && isalpha((unsigned char)p[i - 1]); i--)
			;
		for (k = 0; e > i && k < ARRAY_SIZE(stems); k++)
			if (e - i >= strlen(stems[k]) && strncasecmp(p + i, stems[k], strlen(stems[k])) == 0)
				return true;
		if (e == i)
			i--;
	}
	return days_said(c, h, end) != 0;
}

/*
 * Is a grounded time's text a clock's reading, to the second ("17:30:24"
 * of "2016-03-12 17:30:24", when a review was posted)? Opening hours are
 * never written so. Seconds of 00 are not a reading: a record's scheduled
 * times are written so ("start_time: 2024-06-10 13:00:00").
 */
static bool clock_reading(const char *t)
{
	size_t i = 0, k, d = 0;

	for (k = 0; k < 3; k++) {
		d = i;
		while (isdigit((unsigned char)t[i]))
			i++;
		if (i - d < 1 || i - d > 2)
			return false;
		if (k < 2 && t[i++] != ':')
			return false;
	}
	if (strspn(t + d, "0") == i - d)
		return false;
	return t[i] == '\0' || t[i] == '.' || t[i] == 'Z' || t[i] == '+';
}

/*
 * "a 24-hour format", "the 12-hour clock": a way of writing times, no
 * length of anything. The hours said as 12 or 24, the word after them one
 * that names a clock's notation.
 */
static bool clock_format(struct claims *c, const struct held *h, uint64_t end)
{
	static const char *const words[] = {"format", "formats", "clock", "clocks", "notation",
					    "time", "times", "system", "style", "convention"};
	const char *p;
	size_t n, i = 0, k, j;

	if (quantity_class_of(&h->q) != QC_DURATION || h->q.scale != 3600 ||
	    (h->q.value != 12 * 3600 && h->q.value != 24 * 3600))
		return false;
	p = window_get(c->w, h->to, MIN(end, h->to + 24), &n);
	/* (past "(AM/PM)" or "(HH:MM)" put between: "a 12-hour (AM/PM) format") */
	while (i < n && p[i] == ' ')
		i++;
	if (i < n && p[i] == '(') {
		while (i < n && p[i] != ')')
			i++;
		for (i++; i < n && p[i] == ' '; i++)
			;
	}
	for (k = i; k < n && isalpha((unsigned char)p[k]); k++)
		;
	if (k == i || (k < n && isalnum((unsigned char)p[k])) || (k == n && h->to + n < end))
		return false;
	for (j = 0; j < ARRAY_SIZE(words); j++)
		if (strlen(words[j]) == k - i && strncasecmp(p + i, words[j], k - i) == 0)
			return true;
	return false;
}

/*
 * "open six days a week" where the grounding gives opening hours for six
 * days of the week: the days it counts are those the hours are given of.
 */
static bool days_a_week_held(struct claims *c, const struct held *h, uint64_t end)
{
	static const char *const per[] = {"a week", "per week", "each week", "every week"};
	unsigned held = ground_days_held(c->ground);
	const char *p;
	size_t n, i, k;

	if (!held || strcmp(h->q.unit, "seconds") != 0 || h->q.scale != QUANTITY_DAY_SECONDS ||
	    quantity_written(&h->q) != (double)__builtin_popcount(held))
		return false;
	p = window_get(c->w, h->to, MIN(end, h->to + 16), &n);
	for (i = 0; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	for (k = 0; k < ARRAY_SIZE(per); k++)
		if (n - i >= strlen(per[k]) && strncasecmp(p + i, per[k], strlen(per[k])) == 0 &&
		    (n - i == strlen(per[k]) || !isalpha((unsigned char)p[i + strlen(per[k])])))
			return true;
	return false;
}

/* The year p[0, n) is when it is four digits, else 0 (p is not NUL-terminated). */
static unsigned four_digits(const char *p, size_t n)
{
	unsigned y = 0;
	size_t i;

	if (n != 4)
		return 0;
	for (i = 0; i < 4; i++) {
		if (!isdigit((unsigned char)p[i]))
			return 0;
		y = y * 10 + (unsigned)(p[i] - '0');
	}
	return y;
}

/*
 * A day of a month written with a year after today's ("March 3, 2027",
 * "2027-05-01"; this year, a later month): a date ahead is a plan or a
 * prediction, which future_certainty reads, not a fact a source grounds.
 */
static bool date_ahead(struct claims *c, const struct held *h, uint64_t end)
{
	unsigned year = 0, month = (unsigned)(h->q.value / 100);
	const char *p;
	size_t n, i = 0, k;

	/* "2027-05-01": the year just before the month */
	p = window_get(c->w, h->from > 5 ? h->from - 5 : 0, h->from, &n);
	if (n == 5 && p[4] == '-')
		year = four_digits(p, 4);
	if (!year) {
		/* "March 3, 2027" */
		p = window_get(c->w, h->to, MIN(end, h->to + 8), &n);
		if (i < n && p[i] == ',')
			i++;
		while (i < n && p[i] == ' ' && i < 3)
			i++;
		for (k = i; k < n && isdigit((unsigned char)p[k]); k++)
			;
		year = four_digits(p + i, k - i);
	}
	return year && year * 100 + month > c->today;
}

/*
 * "since 1997", "Since August 2014": the history an answer gives its
 * subject ("in operation since 1997") is a claim of its own, checked
 * whether or not the grounding dates anything.
 */
static bool since_said(struct claims *c, const struct held *h)
{
	uint64_t lo = h->from > 7 ? h->from - 7 : 0;
	const char *p;
	size_t n;

	if (h->q.kind != QUANTITY_YEAR && h->q.kind != QUANTITY_DATE)
		return false;
	p = window_get(c->w, lo, h->from, &n);
	if (n < 6 || n != h->from - lo || strncasecmp(p + n - 6, "since ", 6) != 0)
		return false;
	return n == 6 || !isalpha((unsigned char)p[n - 7]);
}

/* Words before a number read as an identifier's ("gift card 1234"). */
#define IDENT_WORDS 3

/*
 * Is the bare number h the digits of an identifier the grounding holds,
 * said with its parts apart: "certificate 7504069" or "certificate
 * #7504069" of a tool's "certificate_7504069", "gift card 1234" of
 * "gift_card_1234"? Never the digits alone.
 */
static bool ident_held(struct claims *c, struct held *h)
{
	uint64_t lo = h->from > c->start + 48 ? h->from - 48 : c->start;
	char key[64 + 24];
	const char *b, *d;
	size_t nb, nd, at, words, k;

	if (!ground_codes_held(c->ground))
		return false;
	b = window_get(c->w, lo, h->from, &nb);
	d = window_get(c->w, h->from, h->to, &nd);
	if (nb != h->from - lo || nd != h->to - h->from || nd > 24)
		return false;
	at = nb;
	if (at && b[at - 1] == '#')
		at--;
	for (words = 0; words < IDENT_WORDS && at && (b[at - 1] == ' ' || b[at - 1] == '_'); words++) {
		size_t end = --at, len;

		while (at && isalpha((unsigned char)b[at - 1]))
			at--;
		len = end - at;
		if (len < 2)
			return false;
		/* the words from here to the number, then its digits */
		for (k = 0; k < nd && isdigit((unsigned char)d[k]); k++)
			;
		if (k != nd || nb - at + nd > sizeof(key))
			return false;
		memcpy(key, b + at, nb - at);
		memcpy(key + (nb - at), d, nd);
		if (ground_ident_key(key, nb - at + nd, &c->key) == 0 &&
		    ground_find(c->ground, c->key.data, c->key.len, &h->grounded_at))
			return true;
	}
	return false;
}

/* Nouns a year before them dates as a work: "a 2024 study", "2024 surveys". */
static const char *const works[] = {
	"analyses", "analysis", "article", "articles", "audit", "audits", "paper", "papers", "poll",
	"polls", "report", "reports", "review", "reviews", "studies", "study", "survey", "surveys",
};

/*
 * Is the year h said as a deadline ("by 2027") or as the date of a work
 * ("a 2024 study")? Such a year is no event's that the grounding dates.
 */
static bool year_of_other_role(struct claims *c, const struct held *h, uint64_t end)
{
	uint64_t lo = h->from > 3 ? h->from - 3 : 0;
	const char *p;
	size_t n, i, k;

	p = window_get(c->w, lo, h->from, &n);
	if (n == 3 && n == h->from - lo && strncasecmp(p, "by ", 3) == 0 &&
	    (lo == c->w->base || !isalpha((unsigned char)*window_get(c->w, lo - 1, lo, &k))))
		return true;
	p = window_get(c->w, h->to, MIN(end, h->to + 10), &n);
	if (n < 2 || p[0] != ' ')
		return false;
	for (i = 0; i < ARRAY_SIZE(works); i++) {
		k = strlen(works[i]);
		if (n >= k + 1 && strncasecmp(p + 1, works[i], k) == 0 &&
		    (n == k + 1 || !isalpha((unsigned char)p[k + 1])))
			return true;
	}
	return false;
}

/*
 * The day of a month a date's year h is written with ("May 26, 2287",
 * "2287-05-26": the lexer gives the day and its year as parts of one
 * expression), or NULL; *month_only: the month alone ("March 2285").
 */
static const struct held *date_of_year(const struct claims *c, const struct held *h,
				       bool *month_only)
{
	size_t i = (size_t)(h - c->held), k;

	if (h->q.kind != QUANTITY_YEAR || quantity_is_decade(&h->q) || !(h->nl_flags & NUMLEX_PART))
		return NULL;
	/* (held in the order of the text: the year before "05-26" or after "May 26") */
	for (k = i ? i - 1 : i + 1; k <= i + 1 && k < c->n_held; k += 2) {
		const struct held *d = &c->held[k];

		if (d->lexed && d->expr_from == h->expr_from && d->q.kind == QUANTITY_DATE) {
			*month_only = d->q.scale != 1;
			return d;
		}
	}
	return NULL;
}

/*
 * A date's year the grounding gives that day with another year: "May 26,
 * 2287" of a tool's 2024-05-26 is reported as differing from it, the
 * grounding's date named as written ("2024-05-26", "May 26, 2024").
 */
static bool date_year_changed(struct claims *c, struct held *h, const struct held *day)
{
	const struct ground_quantity *y, *date = NULL;
	size_t off = c->text.len;

	y = ground_date_year(c->ground, &day->q, h->q.value, &date);
	if (!y)
		return false;
	h->grounded_at = MIN(y->at, date->at);
	if ((y->at < date->at ? buf_adds(&c->text, y->text) < 0 || buf_addc(&c->text, '-') < 0 ||
					buf_adds(&c->text, date->text) < 0
			      : buf_adds(&c->text, date->text) < 0 || buf_adds(&c->text, ", ") < 0 ||
					buf_adds(&c->text, y->text) < 0) ||
	    buf_addc(&c->text, '\0') < 0)
		return true; /* reported as ungrounded: the weaker claim */
	h->source_off = off;
	return true;
}

/* The year written with the day h ("May 21, 2024", "2024-05-21"), or 0. */
static unsigned year_of_day(const struct claims *c, const struct held *h)
{
	size_t i = (size_t)(h - c->held), k;
	bool month_only;

	for (k = i ? i - 1 : i + 1; k <= i + 1 && k < c->n_held; k += 2)
		if (date_of_year(c, &c->held[k], &month_only) == h)
			return (unsigned)c->held[k].q.value;
	return 0;
}

/* Is md (month x 100 + day) a day the grounding states? Its quantity, or NULL. */
static const struct ground_quantity *day_grounded(struct claims *c, unsigned md)
{
	struct ground_context none = {0};
	const struct ground_quantity *gq;
	enum ground_verdict v;
	struct quantity q;

	quantity_set(&q, QUANTITY_DATE, "date:day", md, 1);
	gq = ground_match_quantity(c->ground, &q, &none, 0, &v);
	return v == GROUND_STATED ? gq : NULL;
}

/*
 * Does an offset of mask (bit k + GROUND_REL_MAX: k days) take the day
 * from (of year, 0 unknown) to the day h says (md, of year y, 0: any)?
 * Then how says so ("05-28 - 1 day") and true.
 */
static bool shifted_to(uint64_t mask, unsigned from, unsigned year, unsigned md, unsigned y,
		       const char *anchor, char *how, size_t n)
{
	int k;

	for (k = -GROUND_REL_MAX; k <= GROUND_REL_MAX; k++) {
		unsigned to, ty;

		if (!(mask >> (k + GROUND_REL_MAX) & 1) ||
		    !ground_shift_day(from, y && !year ? y : year, k, &to, &ty) || to != md ||
		    (y && ty && ty != y))
			continue;
		snprintf(how, n, "%s %c %d day%s", anchor, k < 0 ? '-' : '+', abs(k), abs(k) == 1 ? "" : "s");
		return true;
	}
	return false;
}

/* The days "the 28th" and the like name in p[0, n): 1 to 31 with "st", "nd", "rd" or "th". */
static size_t ordinal_days(const char *p, size_t n, unsigned *out, size_t max)
{
	size_t i, k = 0;

	for (i = 0; i < n && k < max; i++) {
		unsigned v = 0;
		size_t j = i;

		if (!isdigit((unsigned char)p[i]) || (i && isalnum((unsigned char)p[i - 1])))
			continue;
		while (j < n && j < i + 2 && isdigit((unsigned char)p[j]))
			v = v * 10 + (unsigned)(p[j++] - '0');
		if (j + 2 <= n && v >= 1 && v <= 31 &&
		    (strncasecmp(p + j, "st", 2) == 0 || strncasecmp(p + j, "nd", 2) == 0 ||
		     strncasecmp(p + j, "rd", 2) == 0 || strncasecmp(p + j, "th", 2) == 0) &&
		    (j + 2 == n || !isalnum((unsigned char)p[j + 2])))
			out[k++] = v;
		i = j;
	}
	return k;
}

/*
 * h grounded by what the answer worked out, written as how ("7 x 48"),
 * kept as its source (with --show-grounded), at the grounding offset at.
 */
static bool grounded_how(struct claims *c, struct held *h, const char *how, uint64_t at)
{
	size_t off = c->text.len;

	if (buf_add(&c->text, how, strlen(how) + 1) == 0)
		h->source_off = off;
	h->grounded_at = at;
	return true;
}

/*
 * A day the grounding does not state, said relative to one it does:
 * "May 27th, the day before your meeting on the 28th" (a grounded day of
 * its sentence), "tomorrow (May 21)" or a user's "tomorrow" (today: the
 * day the grounding says is today's), a user's "a day before" (the
 * grounding's newest day). Grounded, and how said, when the offset takes
 * one to it.
 */
static bool relative_date(struct claims *c, struct held *h, uint64_t end)
{
	unsigned md = (unsigned)h->q.value, y = year_of_day(c, h), year, days[8];
	uint64_t anchored = 0, today = 0, conv_anchored, conv_today;
	const struct ground_quantity *gq;
	char how[64], anchor[24];
	const char *p;
	size_t n, i, k;
	bool found = false;

	p = window_get(c->w, c->start, end, &n);
	if (n != end - c->start)
		return false;
	ground_relative_of(p, n, &anchored, &today);
	ground_relatives(c->ground, &conv_anchored, &conv_today);
	if (!(anchored | today | conv_anchored | conv_today))
		return false;
	/* from today */
	if ((today | conv_today) && (gq = ground_today(c->ground, &year))) {
		snprintf(anchor, sizeof(anchor), "today %.12s", gq->text);
		found = shifted_to(today | conv_today, (unsigned)gq->q.value, year, md, y, anchor, how,
				   sizeof(how));
		if (found)
			h->grounded_at = gq->at;
	}
	/* from a grounded day said in the sentence: a date, or "the 28th" of its month or the next */
	for (i = 0; !found && anchored && i < c->n_held; i++) {
		const struct held *a = &c->held[i];

		if (a == h || !a->lexed || a->q.kind != QUANTITY_DATE || a->q.scale != 1 ||
		    !(gq = day_grounded(c, (unsigned)a->q.value)))
			continue;
		found = shifted_to(anchored, (unsigned)a->q.value, year_of_day(c, a), md, y, gq->text, how,
				   sizeof(how));
		if (found)
			h->grounded_at = gq->at;
	}
	for (i = 0, k = anchored && !found ? ordinal_days(p, n, days, ARRAY_SIZE(days)) : 0; !found && i < 2 * k; i++) {
		unsigned m = md / 100 + (unsigned)(i % 2), a = (m > 12 ? 1 : m) * 100 + days[i / 2];

		if (a == md || !(gq = day_grounded(c, a)))
			continue;
		found = shifted_to(anchored, a, 0, md, y, gq->text, how, sizeof(how));
		if (found)
			h->grounded_at = gq->at;
	}
	/* from the newest grounded day, by an offset the conversation spoke of */
	if (!found && conv_anchored && (gq = ground_newest_day(c->ground, &year))) {
		found = shifted_to(conv_anchored, (unsigned)gq->q.value, year, md, y, gq->text, how,
				   sizeof(how));
		if (found)
			h->grounded_at = gq->at;
	}
	if (!found)
		return false;
	return grounded_how(c, h, how, h->grounded_at);
}

/*
 * A day said, with its weekday, as the grounding's weekday and day of the
 * month (ground_weekday_day()): "Saturday (May 18th)" of "Saturday 18th".
 * (The answer names the weekday too: a day that only happens to be one the
 * grounding names so is another day.)
 */
static bool weekday_day(struct claims *c, struct held *h, uint64_t end)
{
	const struct ground_quantity *gq;
	const char *p;
	char how[64];
	size_t n;

	p = window_get(c->w, c->start, end, &n);
	if (n != end - c->start)
		return false;
	gq = ground_weekday_day(c->ground, (unsigned)h->q.value, year_of_day(c, h));
	if (!gq || !(ground_days(p, n) & gq->days))
		return false;
	snprintf(how, sizeof(how), "%s %.12s", ground_day_name(gq->days), gq->text);
	return grounded_how(c, h, how, gq->at);
}

/*
 * "The current date is 2024-05-15, so the upcoming Saturday would be
 * 2024-05-18": the first day after a grounded day of its sentence, or
 * after today's, that falls on the weekday the sentence names after
 * "upcoming", "next", "coming", "this" or "following". A year must be
 * known (the day's or its anchor's): the weekday depends on it.
 */
static bool upcoming_weekday(struct claims *c, struct held *h, uint64_t end)
{
	static const char *const lead[] = {"upcoming", "next", "coming", "this", "following"};
	unsigned md = (unsigned)h->q.value, y = year_of_day(c, h), year = 0, names = 0;
	const struct ground_quantity *gq = NULL;
	const char *p;
	char how[64];
	size_t n, i, j, k, w;
	int day = -1;

	p = window_get(c->w, c->start, end, &n);
	if (n != end - c->start)
		return false;
	/* the weekday after one of the lead words: one, and only one, named so */
	for (i = 0; i < n; i = k) {
		while (i < n && !isalpha((unsigned char)p[i]))
			i++;
		for (k = i; k < n && isalpha((unsigned char)p[k]); k++)
			;
		for (j = 0; j < ARRAY_SIZE(lead); j++)
			if (strlen(lead[j]) == k - i && strncasecmp(p + i, lead[j], k - i) == 0)
				break;
		if (j == ARRAY_SIZE(lead) || k >= n || p[k] != ' ')
			continue;
		for (w = k + 1; w < n && isalpha((unsigned char)p[w]); w++)
			;
		unsigned d = ground_days(p + k + 1, w - k - 1);

		if (d && ground_day_name(d)) {
			names |= d;
			for (day = 0; !(d >> day & 1); day++)
				;
		}
	}
	if (day < 0 || !ground_day_name(names))
		return false;
	/* from a grounded day said in the sentence, else from today's */
	for (i = 0; i <= c->n_held; i++) {
		const struct held *a = i < c->n_held ? &c->held[i] : NULL;
		unsigned from, ay, to, ty;
		int shift;

		if (a && (a == h || !a->lexed || a->q.kind != QUANTITY_DATE || a->q.scale != 1 ||
			  !(gq = day_grounded(c, (unsigned)a->q.value))))
			continue;
		if (a) {
			from = (unsigned)a->q.value;
			ay = year_of_day(c, a);
		} else if ((gq = ground_today(c->ground, &ay))) {
			from = (unsigned)gq->q.value;
		} else {
			break;
		}
		year = ay ? ay : y;
		if (!year || (ay && y && ay != y && !(from > md && y == ay + 1)))
			continue;
		for (shift = 1; shift <= 7; shift++)
			if (ground_shift_day(from, year, shift, &to, &ty) && to == md &&
			    (!y || ty == y) && ground_weekday(to, ty) == day) {
				snprintf(how, sizeof(how), "%.12s + %d day%s (%s)", gq->text, shift,
					 shift == 1 ? "" : "s", ground_day_name(names));
				return grounded_how(c, h, how, gq->at);
			}
	}
	return false;
}

/* How many nights "3 nights", "a 3-night stay" says in p[0, n): the last said before p[at], else
 * the first after; 0: none. */
static unsigned nights_said(const char *p, size_t n, size_t at)
{
	unsigned best = 0;
	size_t i = 0, j, dist = SIZE_MAX;

	while (i < n && (i < at || dist == SIZE_MAX)) {
		unsigned v = 0;

		if (!isdigit((unsigned char)p[i]) ||
		    (i > 0 && (isalnum((unsigned char)p[i - 1]) || p[i - 1] == '.'))) {
			i++;
			continue;
		}
		for (j = i; j < n && isdigit((unsigned char)p[j]); j++)
			v = v < 1000 ? v * 10 + (unsigned)(p[j] - '0') : v;
		/* (the nearest before it, "3 nights in Paris (January 1-4)"; else the first after) */
		if (j + 6 <= n && (p[j] == ' ' || p[j] == '-') && strncasecmp(p + j + 1, "night", 5) == 0 &&
		    v > 0 && (i < at || dist == SIZE_MAX)) {
			dist = i;
			best = v;
		}
		i = j;
	}
	return best;
}

static const struct held *range_other(const struct claims *c, const struct held *h);

/*
 * "3 nights in Paris (January 1-4)" where the user's trip starts on the
 * 1st of January: a range of days whose first the grounding states and
 * whose last is as many days on as the nights its clause counts (48
 * bytes before it, 24 after, on its line). The first day must be stated:
 * a range that starts where another the reply worked out ends ("2 nights
 * in London (January 4-6)") is the reply's own plan, checked as before.
 */
static bool nights_range(struct claims *c, struct held *h, uint64_t end)
{
	const struct held *o = range_other(c, h);
	const struct ground_quantity *gq;
	uint64_t lo = MAX(c->start, h->from > 48 ? h->from - 48 : 0);
	unsigned nights, to, ty, y;
	const char *p;
	char how[64];
	size_t n, i;

	if (!o || o > h || o->q.kind != QUANTITY_DATE || o->q.scale != 1 ||
	    !(gq = day_grounded(c, (unsigned)o->q.value)))
		return false;
	p = window_get(c->w, lo, MIN(end, h->to + 24), &n);
	if (n != MIN(end, h->to + 24) - lo)
		return false;
	/* (its line only) */
	for (i = (size_t)(h->from - lo); i > 0 && p[i - 1] != '\n'; i--)
		;
	p += i;
	n -= i;
	lo += i;
	for (i = 0; i < n && p[i] != '\n'; i++)
		;
	nights = nights_said(p, i, (size_t)(h->from - lo));
	y = year_of_day(c, o);
	if (!nights || nights > 60 ||
	    !ground_shift_day((unsigned)o->q.value, y, (int)nights, &to, &ty) || to != (unsigned)h->q.value)
		return false;
	snprintf(how, sizeof(how), "%.12s + %u night%s", gq->text, nights, nights == 1 ? "" : "s");
	return grounded_how(c, h, how, gq->at);
}

/*
 * A figure the grounding states, where every place that states it says it
 * otherwise: of another period ("$1.30 to $1.40 for Q4 2019" against "for
 * the fourth quarter of 2020"), or as the other side of a bound ("with
 * less than 50 completed" against "over 50"): the figure is right, what
 * is said of it is not. NULL when nothing says it otherwise.
 */
static const struct ground_quantity *said_otherwise(const struct claims *c, const struct held *h)
{
	int bound = h->nl_flags & NUMLEX_ABOVE ? 1 : h->nl_flags & NUMLEX_BELOW ? -1 : 0;

	return h->lexed && (h->period || bound)
		       ? ground_said_otherwise(c->ground, &h->q, h->period, bound)
		       : NULL;
}

/* The place a figure is written to, in its unit's base: 0.1 of "4.7%", 10 of "180". */
static double written_step(const struct quantity *q)
{
	double w = fabs(fmath_round(quantity_written(q))), step = q->scale;
	int i;

	if (q->decimals > 0)
		return step * quantity_step(q->decimals);
	for (i = 0; i < 15 && w >= 10 && fmath_fmod(w, 10) == 0; i++) {
		w /= 10;
		step *= 10;
	}
	return step;
}

/*
 * Is h a hedge of the grounded gq ("over $180 million", "more than 412
 * million euros", "nearly 5%" where the grounding says $181.3 million,
 * 412.8 million euros, 4.7%): an approximation of a count, a bare number
 * or a sum within a tenth of it, written to a coarser place (its rounding:
 * not "approximately $7.60" for "approximately $7.50"), on the side it
 * says ("over" below the figure, "under" above it)?
 */
static bool hedge_of(const struct claims *c, const struct held *h,
		     const struct ground_quantity *gq)
{
	unsigned f = h->nl_flags;
	size_t i;

	if (!gq || !(f & NUMLEX_APPROX) || (f & NUMLEX_RANGE) || h->q.kind > QUANTITY_BASE ||
	    gq->q.kind != h->q.kind || gq->q.unit_hash != h->q.unit_hash ||
	    written_step(&h->q) <= written_step(&gq->q) * (1 + 1e-9) ||
	    quantity_distance(&h->q, &gq->q) > 0.1)
		return false;
	/* Not a figure its sentence states as well: "from at least $7 to
	 * approximately $7.50" hedges no $7.50, it says another figure. */
	for (i = 0; i < c->n_held; i++)
		if (&c->held[i] != h && c->held[i].lexed && quantity_states(&c->held[i].q, &gq->q))
			return false;
	if (f & NUMLEX_ABOVE)
		return gq->q.value >= h->q.value;
	if (f & NUMLEX_BELOW)
		return gq->q.value <= h->q.value;
	return true;
}

/*
 * Reports h against the grounded gq (NULL: against nothing): its text is
 * the finding's source, with how the grounding says it, where that is
 * named. by_day: gq is a day's hours ("the grounded 7:0-21:0 on Monday");
 * otherwise: gq is h's figure said otherwise ("$1.30 in Q4 2020", "4% said
 * of the prior quarter" for "4% sequentially", "at least 50").
 */
static enum check report_against(struct claims *c, struct held *h, const struct ground_quantity *gq,
				 const struct ground_quantity *by_day,
				 const struct ground_quantity *otherwise)
{
	const char *day, *side = "", *joiner = " in ";
	char period[QUANTITY_PERIOD_TEXT] = "";
	size_t off;

	if (!gq)
		return CHECK_REPORT;
	day = gq == by_day ? ground_day_name(gq->days) : NULL;
	if (gq == otherwise && quantity_periods_differ(h->period, gq->ctx.period)) {
		quantity_period_text(gq->ctx.period, period, sizeof(period));
		if (QUANTITY_PERIOD_RELATIVE(gq->ctx.period))
			joiner = " said of ";
	} else if (gq == otherwise) {
		side = gq->ctx.bound > 0 ? "at least " : "at most ";
	}
	h->grounded_at = gq->at;
	off = c->text.len;
	if (buf_adds(&c->text, side) < 0 || buf_add(&c->text, gq->text, strlen(gq->text)) < 0 ||
	    (day && (buf_adds(&c->text, " on ") < 0 || buf_adds(&c->text, day) < 0)) ||
	    (*period && (buf_adds(&c->text, joiner) < 0 || buf_adds(&c->text, period) < 0)) ||
	    buf_addc(&c->text, '\0') < 0)
		return CHECK_REPORT; /* reported as ungrounded: the weaker claim */
	h->source_off = off;
	return CHECK_REPORT;
}

static uint64_t column_of(struct claims *c, uint64_t at);

/* The first and the last year of a year or a decade. */
static void year_span(const struct quantity *q, double *lo, double *hi)
{
	*lo = quantity_is_decade(q) ? q->value - QUANTITY_DECADE_MID : q->value;
	*hi = quantity_is_decade(q) ? *lo + 9 : *lo;
}

/*
 * True when a is a year or decade said as a side of a bound (flags:
 * NUMLEX_BELOW, "before 1990"; NUMLEX_ABOVE, "after the 1990s") and the
 * year or decade g lies wholly on that side of it.
 */
static bool year_on_side(const struct quantity *g, const struct quantity *a, unsigned flags)
{
	double alo, ahi, glo, ghi;

	if (a->kind != QUANTITY_YEAR || g->kind != QUANTITY_YEAR ||
	    !(flags & (NUMLEX_ABOVE | NUMLEX_BELOW)))
		return false;
	year_span(a, &alo, &ahi);
	year_span(g, &glo, &ghi);
	return flags & NUMLEX_BELOW ? ghi < alo : glo > ahi;
}

/*
 * A quarter's year the grounding has only as what it compares with, and
 * its report on another quarter-year ("results for Q3 2019" of a report on
 * Q3 2020 that compares with Q3 2019): that other, else 0. Unless a
 * figure of the sentence said of it is one the grounding gives of it
 * ("EPS was $0.29 in Q3 2019", where the source compares with "$0.29 in
 * the third quarter of 2019"): the answer then reports the comparison;
 * or one it gives of another period ("$3.69 in Q3 2020" for the source's
 * "$3.69 in Q3 2021"): that figure's finding names the period.
 */
static uint32_t reported_instead(const struct claims *c, const struct held *h, uint64_t *at)
{
	uint32_t other;
	size_t i;

	if (h->q.kind != QUANTITY_YEAR || !h->quarter_year || h->compared)
		return 0;
	other = ground_compared_only(c->ground, h->quarter_year, at);
	for (i = 0; other && i < c->n_held; i++) {
		const struct held *f = &c->held[i];

		if (f != h && f->lexed && f->period == h->quarter_year &&
		    (ground_said_of(c->ground, &f->q, f->period) || said_otherwise(c, f)))
			return 0;
	}
	return other;
}

/* Words (lower case) that may stand between a counting verb and its figure
 * ("found only 3", "here are the 3"). */
static bool count_filler(const char *w, size_t k)
{
	static const char *const fill[] = {"all", "exactly", "just", "only", "the"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fill); i++)
		if (strlen(fill[i]) == k && memcmp(w, fill[i], k) == 0)
			return true;
	return false;
}

/* The word (ASCII letters and an apostrophe) that ends at b[at], lower
 * case in w: its length, 0 when there is none or it is too long. */
static size_t word_ending(const char *b, size_t at, char *w, size_t cap, size_t *start)
{
	size_t k = at;

	while (k > 0 && (isalpha((unsigned char)b[k - 1]) || b[k - 1] == '\''))
		k--;
	if (k == at || at - k >= cap)
		return 0;
	for (*start = k; k < at; k++)
		w[k - *start] = (char)tolower((unsigned char)b[k]);
	return at - *start;
}

/*
 * Is the bare figure h said as how many results there are: after a verb
 * of finding ("I found 4", "it returned 4", "I got 4") or "there are",
 * "here are" ("there are 4 such buses", "here are the 3 newest emails"),
 * or before "of them"? Such a figure counts the list a tool returned
 * (ground_newest_list()); any other bare figure is no count of a list.
 */
static bool counts_results(struct claims *c, const struct held *h, uint64_t end)
{
	static const char *const verbs[] = {"fetched", "find", "found", "got", "retrieved",
					    "returned", "returns", "there's", "here's"};
	uint64_t lo = h->from > c->start + 40 ? h->from - 40 : c->start;
	char w[16];
	const char *b, *p;
	size_t nb, n, at, k, st, i, fillers = 0;

	if (h->q.decimals != 0 || h->q.scale != 1 || h->q.value < 0)
		return false;
	p = window_get(c->w, h->to, MIN(end, h->to + 9), &n);
	if (n >= 8 && strncasecmp(p, " of them", 8) == 0 && (n == 8 || !isalpha((unsigned char)p[8])))
		return true;
	b = window_get(c->w, lo, h->from, &nb);
	if (nb != h->from - lo)
		return false;
	at = nb;
	for (;;) {
		if (at == 0 || b[at - 1] != ' ')
			return false;
		at--;
		k = word_ending(b, at, w, sizeof(w), &st);
		if (k == 0)
			return false;
		if (count_filler(w, k) && fillers++ < 2) {
			at = st;
			continue;
		}
		break;
	}
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (strlen(verbs[i]) == k && memcmp(w, verbs[i], k) == 0)
			return true;
	/* "there are 4", "here were 4" */
	if (!((k == 3 && memcmp(w, "are", 3) == 0) || (k == 4 && memcmp(w, "were", 4) == 0)))
		return false;
	if (st == 0 || b[st - 1] != ' ')
		return false;
	k = word_ending(b, st - 1, w, sizeof(w), &st);
	return (k == 5 && memcmp(w, "there", 5) == 0) || (k == 4 && memcmp(w, "here", 4) == 0);
}

/*
 * The total check: a sum of money the answer presents as a total, a
 * difference, a charge or a refund is held to what the figures it is
 * computed from make. Agents get the arithmetic wrong on correct tool
 * figures: one passenger's fare given as the total for two, a total that
 * leaves out a leg, "$600 processed" where the tool charged 1,200. Its
 * role is read from the words around it in its sentence, up to the next
 * sum of money on each side: a total ("total", "altogether", "combined",
 * "for both of you"), a charge ("charged", "processed", "you'll pay"), a
 * refund ("refund", "back"), a difference; a figure said per item ("per
 * person", "each") has none.
 */
enum {
	ROLE_TOTAL = 1, ROLE_CHARGE = 2, ROLE_REFUND = 4, ROLE_DIFF = 8, ROLE_PER = 16,
	ROLE_TWO = 32, /* "both of you", "the two of us": a party of two */
	ROLE_SPAN = 64, /* "for 4 days": a total over time, whatever the party */
};

static const struct {
	const char *w;
	unsigned role;
	bool before_only; /* "comes to $86", "pay $145": a verb before its sum */
} role_words[] = { /* in strcmp() order (claims_self_check()) */
	{"altogether", ROLE_TOTAL, false},
	{"apiece", ROLE_PER, false},
	{"back", ROLE_REFUND, false},
	{"billed", ROLE_CHARGE, false},
	{"charge", ROLE_CHARGE, false},
	{"charged", ROLE_CHARGE, false},
	{"combined", ROLE_TOTAL, false},
	{"comes", ROLE_TOTAL, true},
	{"credited", ROLE_REFUND, false},
	{"difference", ROLE_DIFF, false},
	{"each", ROLE_PER, false},
	{"overall", ROLE_TOTAL, false},
	{"paid", ROLE_CHARGE, false},
	{"pay", ROLE_CHARGE, true},
	{"per", ROLE_PER, false},
	{"processed", ROLE_CHARGE, false},
	{"refund", ROLE_REFUND, false},
	{"refunded", ROLE_REFUND, false},
	{"reimbursed", ROLE_REFUND, false},
	{"total", ROLE_TOTAL, false},
	{"totaling", ROLE_TOTAL, false},
	{"totalling", ROLE_TOTAL, false},
	{"totals", ROLE_TOTAL, false},
};

const char *claims_self_check(void)
{
	size_t k;

	/* role_of_words() searches role_words by halves */
	for (k = 1; k < ARRAY_SIZE(role_words); k++)
		if (strcmp(role_words[k - 1].w, role_words[k].w) >= 0)
			return role_words[k].w;
	return NULL;
}

/* The roles the words of text[0, n) give; at most max words are read;
 * "per" or "each" among the first skip_per words not; after: the words
 * after the sum, where a verb said before one is not its. */
static unsigned role_of_words(const char *text, size_t n, size_t max, size_t skip_per, bool after)
{
	char w[16], prev[16] = "", prev2[16] = "";
	size_t i = 0, k, lo, hi, words = 0;
	unsigned role = 0;

	while (i < n && words < max) {
		size_t len = 0;

		while (i < n && !isalpha((unsigned char)text[i]))
			i++;
		while (i < n && isalpha((unsigned char)text[i])) {
			if (len + 1 < sizeof(w))
				w[len++] = (char)tolower((unsigned char)text[i]);
			i++;
		}
		if (!len)
			break;
		w[len] = '\0';
		words++;
		/* role_words is in order: the one word that can be equal */
		for (lo = 0, hi = ARRAY_SIZE(role_words); lo < hi;) {
			int d;

			k = lo + (hi - lo) / 2;
			d = strcmp(w, role_words[k].w);
			if (d == 0) {
				if (!(role_words[k].role == ROLE_PER && words <= skip_per) &&
				    !(after && role_words[k].before_only))
					role |= role_words[k].role;
				break;
			}
			if (d < 0)
				hi = k;
			else
				lo = k + 1;
		}
		/* "both of you", "the two of us", "you both" (not "two of the
		 * flights", "for both legs": a count of what is priced); words of
		 * two to four letters only */
		if (len <= 4 &&
		    (((strcmp(w, "you") == 0 || strcmp(w, "us") == 0) && strcmp(prev, "of") == 0 &&
		      (strcmp(prev2, "both") == 0 || strcmp(prev2, "two") == 0)) ||
		     (strcmp(w, "both") == 0 && strcmp(prev, "you") == 0)))
			role |= ROLE_TOTAL | ROLE_TWO;
		memcpy(prev2, prev, sizeof(prev));
		memcpy(prev, w, len + 1);
	}
	return role;
}

/* Is the byte an operator of written arithmetic ("+", "-", "*", "x", "×", "/", "=")? */
static bool arith_op(const char *p, size_t n)
{
	if (n == 0)
		return false;
	if (strchr("+-*/=", p[0]))
		return true;
	if ((p[0] == 'x' || p[0] == 'X') && (n == 1 || p[1] == ' '))
		return true;
	return n >= 2 && (unsigned char)p[0] == 0xC3 && (unsigned char)p[1] == 0x97; /* × */
}

/*
 * Is h a term of arithmetic the answer writes out ("$50.00 + $1000.00 +
 * $10.00 = $1060.00", "€59 * 2 + €60 * 3")? An operator right after it,
 * or right before it: it is no total, whatever words precede the sum.
 */
static bool written_term(struct claims *c, const struct held *h, uint64_t end)
{
	const char *p;
	size_t n, i;

	if (h->nl_flags & NUMLEX_RANGE)
		return false; /* "$100.0 - $180.0": a range, no subtraction */
	p = window_get(c->w, h->to, MIN(end, h->to + 12), &n);
	for (i = 0; i < n && p[i] == ' '; i++)
		;
	if (i < n && p[i] != '=' && arith_op(p + i, n - i)) {
		/* an operand after it: "$50 + $10", not "$48.59 - Water Bottle" */
		i += (unsigned char)p[i] == 0xC3 ? 2 : 1;
		while (i < n && p[i] == ' ')
			i++;
		if (i < n && (isdigit((unsigned char)p[i]) || p[i] == '(' || p[i] == '$' ||
			      (unsigned char)p[i] == 0xC2 || (unsigned char)p[i] == 0xE2))
			return true;
	}
	p = window_get(c->w, h->from > c->start + 8 ? h->from - 8 : c->start, h->from, &n);
	while (n && p[n - 1] == ' ')
		n--;
	/* ("**Total:** €560": the "**" that ends bold type is no product) */
	if (n && strchr("+*/x", p[n - 1]) && (p[n - 1] != 'x' || n == 1 || p[n - 2] == ' ') &&
	    (p[n - 1] != '*' || n == 1 || p[n - 2] != '*'))
		return true;
	if (n >= 2 && (unsigned char)p[n - 2] == 0xC3 && (unsigned char)p[n - 1] == 0x97)
		return true; /* "× 0.0725" */
	/* "-" before it only after a figure: "$60 - $10", not "Hotel - $120" */
	if (n < 2 || p[n - 1] != '-')
		return false;
	for (n--; n && p[n - 1] == ' '; n--)
		;
	return n && isdigit((unsigned char)p[n - 1]);
}

/*
 * A total "for 4 days" or "for 5 nights": a rate times a span of time, not
 * a fare times the party. Its sentence's words up to the sum and a few
 * after: a number then a day, night, week, month or hour.
 */
static bool span_in(const char *p, size_t n, unsigned *count)
{
	static const char *const spans[] = {"day", "days", "night", "nights", "week", "weeks",
					    "month", "months", "hour", "hours"};
	size_t i, k, j;

	for (i = 0; i + 1 < n; i++) {
		if (!isdigit((unsigned char)p[i]) || (i + 1 < n && isdigit((unsigned char)p[i + 1])))
			continue;
		for (j = i + 1; j < n && p[j] == ' '; j++)
			;
		/* ("a 7-day rental") */
		if (j == i + 1 && j < n && p[j] == '-')
			j++;
		if (j == i + 1)
			continue;
		for (k = 0; k < ARRAY_SIZE(spans); k++) {
			size_t l = strlen(spans[k]);

			if (j + l <= n && strncasecmp(p + j, spans[k], l) == 0 &&
			    (j + l == n || !isalpha((unsigned char)p[j + l]))) {
				size_t b = i;

				while (b > 0 && isdigit((unsigned char)p[b - 1]) && i - b < 4)
					b--;
				*count = (unsigned)strtoul(p + b, NULL, 10);
				return true;
			}
		}
	}
	return false;
}

static bool per_span_total(struct claims *c, const struct held *h, uint64_t end, unsigned *count)
{
	uint64_t lo = h->from > c->start + 80 ? h->from - 80 : c->start;
	size_t n;
	const char *p = window_get(c->w, lo, MIN(end, h->to + 24), &n);

	return span_in(p, n, count);
}

/*
 * The span the sentence before this one says ("For a 3-day trip, meals
 * come to $180. The hotel would be between $720 and $1200"): its bytes
 * back from c->start to the end of the one before it, 240 at most.
 */
static bool span_before(struct claims *c, unsigned *count)
{
	uint64_t lo = c->start > 240 ? c->start - 240 : 0;
	size_t n, i;
	const char *p = window_get(c->w, lo, c->start, &n);

	/* past its own end ("... $180.  "), then back to the one before's */
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\n' || p[n - 1] == '.' || p[n - 1] == '!' ||
		     p[n - 1] == '?'))
		n--;
	for (i = n; i > 0; i--)
		if (p[i - 1] == '\n' ||
		    ((p[i - 1] == '.' || p[i - 1] == '!' || p[i - 1] == '?') && p[i] == ' '))
			break;
	return span_in(p + i, n - i, count);
}

/* A rate over time right after h: "€59/day", "£50 per night", "$20 an hour". */
static bool rate_of_time(struct claims *c, const struct held *h, uint64_t end)
{
	static const char *const units[] = {"day", "night", "hour", "hr", "week", "month", "mo"};
	const char *p;
	size_t n, i = 0, k;

	p = window_get(c->w, h->to, MIN(end, h->to + 12), &n);
	if (i < n && p[i] == '/')
		i++;
	else if (n >= 5 && strncasecmp(p, " per ", 5) == 0)
		i = 5;
	else if (n >= 3 && strncasecmp(p, " a ", 3) == 0)
		i = 3;
	else if (n >= 4 && strncasecmp(p, " an ", 4) == 0)
		i = 4;
	else
		return false;
	for (k = 0; k < ARRAY_SIZE(units); k++) {
		size_t l = strlen(units[k]);

		if (i + l <= n && strncasecmp(p + i, units[k], l) == 0 &&
		    (i + l == n || !isalpha((unsigned char)p[i + l])))
			return true;
	}
	return false;
}

/* The role of the sum of money h in its sentence (ROLE_*). */
static unsigned money_role(struct claims *c, const struct held *h, uint64_t end)
{
	uint64_t lo = c->start, hi = end;
	const char *p;
	size_t i, n, k, at = (size_t)(h - c->held);
	unsigned before, after;

	/* the nearest sums of money on each side, among the 16 held nearest
	 * (held are in order of from: a sentence of a thousand sums costs no
	 * more per sum than one of two) */
	for (k = 1; k <= 16 && k <= at; k++) {
		const struct held *o = &c->held[at - k];

		if (o->lexed && quantity_class_of(&o->q) == QC_MONEY && o->to <= h->from) {
			lo = MAX(lo, o->to);
			break;
		}
	}
	for (k = 1; k <= 16 && at + k < c->n_held; k++) {
		const struct held *o = &c->held[at + k];

		if (o->lexed && quantity_class_of(&o->q) == QC_MONEY && o->from >= h->to) {
			hi = MIN(hi, o->from);
			break;
		}
	}
	if (h->from - lo > 160)
		lo = h->from - 160;
	p = window_get(c->w, lo, h->from, &n);
	/* ("$375 per passenger and $750 altogether": the per is the one before's) */
	before = role_of_words(p, n, 32, lo > c->start ? 3 : 0, false);
	p = window_get(c->w, h->to, MIN(hi, h->to + 48), &n);
	/* (words after a comma or colon are the next clause's) */
	for (i = 0; i < n && p[i] != ',' && p[i] != ':' && p[i] != ';'; i++)
		;
	after = role_of_words(p, i, 4, 0, true);
	if (written_term(c, h, end))
		return 0;
	/* ("Total price for 4 days: £200": a rate times days, no party's fare) */
	if ((before | after) & (ROLE_TOTAL | ROLE_CHARGE) && !((before | after) & ROLE_TWO) &&
	    per_span_total(c, h, end, &c->span))
		return (before | after) | ROLE_SPAN;
	return before | after;
}

/* A figure as a derivation writes it: to the cent where it has cents. */
static void total_fig(char *out, size_t n, double v)
{
	snprintf(out, n, v == floor(v) ? "%.0f" : "%.2f", v);
}

/* Is a week said in p[0, n) ("weekly", "a week", "the week", "week-long")? */
static bool week_said(const char *p, size_t n)
{
	static const char *const weeks[] = {"eekly", "eek-long", "a week", "the week", "one week",
					    "per week"};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(weeks); k++) {
		const char *w = memmem(p, n, weeks[k], strlen(weeks[k]));
		size_t at = w ? (size_t)(w - p) + strlen(weeks[k]) : 0;

		/* ("a weekend" is no week; "weekly", "week-long" are whole) */
		if (w && (at == n || !isalpha((unsigned char)p[at]) || weeks[k][0] == 'e'))
			return true;
	}
	return false;
}

/*
 * h as factor times a figure the grounding states (a sum of money or a
 * bare number), to the cent: grounded, and says how ("7 x 48").
 */
static bool times_held(struct claims *c, struct held *h, unsigned factor)
{
	const struct ground_quantity *gq;
	struct quantity r = h->q;
	char how[64], a[32];

	r.value = h->q.value / factor;
	if (fabs(r.value * 100 - fmath_round(r.value * 100)) > 1e-6)
		return false;
	r.value = fmath_round(r.value * 100) / 100;
	if (!(gq = ground_figure_held(c->ground, &r)) ||
	    !(gq->q.kind == QUANTITY_NUMBER || quantity_class_of(&gq->q) == QC_MONEY))
		return false;
	total_fig(a, sizeof(a), r.value);
	snprintf(how, sizeof(how), "%u x %s", factor, a);
	grounded_how(c, h, how, gq->at);
	return true;
}

/*
 * A sum of money said for a span of time ("Cost for 3 days: $144",
 * "Price for 4 days: £236 (£59 per day)", "Weekly cost: $336.00"): the
 * span times a rate the grounding states (a money figure, or a bare number
 * the tool gives, "price_per_day": 48.0) grounds it, and says how ("3 x
 * 48"). Only to the cent: a random figure over a span seldom divides into
 * a grounded one.
 */
static bool span_product(struct claims *c, struct held *h, uint64_t end, bool before)
{
	unsigned span = 0;
	const char *p;
	size_t n;

	/* "Weekly cost: $364", "a week-long rental", "Total for a week:
	 * $315.00", "$336.00 for a week": seven days, said nearest */
	p = window_get(c->w, h->from > c->start + 24 ? h->from - 24 : c->start, h->from, &n);
	if (week_said(p, n))
		span = 7;
	else if ((p = window_get(c->w, h->to, MIN(end, h->to + 16), &n)) && n >= 5 &&
		 strncasecmp(p, " for ", 5) == 0 && week_said(p + 5, n - 5))
		span = 7;
	else if (!per_span_total(c, h, end, &span) && !(before && span_before(c, &span)))
		return false;
	if (span < 2 || span > 366)
		return false;
	return times_held(c, h, span);
}

/*
 * A price written as a bare number ("Price for 2 people: 300.0") that is
 * the party its sentence says (2 to 20 people, persons, passengers,
 * guests, adults, travelers) times a figure the grounding states (150.0
 * a person): grounded, to the cent, and says how ("2 x 150").
 */
static bool party_product(struct claims *c, struct held *h, uint64_t end)
{
	static const char *const whos[] = {"people", "persons", "passengers", "guests", "adults",
					   "travelers", "travellers"};
	uint64_t lo = h->from > c->start + 80 ? h->from - 80 : c->start;
	size_t n, i, j, k;
	unsigned party = 0;
	const char *p = window_get(c->w, lo, MIN(end, h->to + 24), &n);

	for (i = 0; i + 1 < n && !party; i++) {
		if (!isdigit((unsigned char)p[i]) || isdigit((unsigned char)p[i + 1]) ||
		    (i > 0 && (isdigit((unsigned char)p[i - 1]) || p[i - 1] == '.')) || p[i + 1] != ' ')
			continue;
		for (k = 0, j = i + 2; k < ARRAY_SIZE(whos); k++) {
			size_t l = strlen(whos[k]);

			if (j + l <= n && strncasecmp(p + j, whos[k], l) == 0 &&
			    (j + l == n || !isalpha((unsigned char)p[j + l])))
				party = (unsigned)(p[i] - '0');
		}
	}
	if (party < 2)
		return false;
	return times_held(c, h, party);
}

/*
 * Is h the sum of the n (two or more) sums of money the answer worked out
 * since its last total (c->results)? Only to the cent. With write, its
 * source then says them ("330 + 135 + 180").
 */
static bool results_total(struct claims *c, struct held *h, size_t n, bool write)
{
	char how[CLAIMS_TOTAL_HOW], f[32];
	double sum = 0;
	size_t i, k = 0;

	if (n < 2)
		return false;
	for (i = 0; i < n; i++)
		sum += c->results[i];
	if (fabs(sum - h->q.value) >= 0.005)
		return false;
	if (!write)
		return true;
	for (i = 0; i < n && k < sizeof(how); i++) {
		total_fig(f, sizeof(f), c->results[i]);
		k += (size_t)snprintf(how + k, sizeof(how) - k, "%s%s", i ? " + " : "", f);
	}
	grounded_how(c, h, how, c->results_at);
	return true;
}

/* Writes "a + b + c = s" of the answer's items (times party, when 2 or
 * more), cut to n bytes. */

static void items_sum_text(const struct claims *c, unsigned party, char *out, size_t n)
{
	double sum = 0;
	size_t i, k = 0;
	char f[32];

	if (party >= 2)
		k += (size_t)snprintf(out + k, n - k, "(");
	for (i = 0; i < c->n_totals && k < n; i++) {
		total_fig(f, sizeof(f), c->totals[i]);
		k += (size_t)snprintf(out + k, n - k, "%s%s", i ? " + " : "", f);
		sum += c->totals[i];
	}
	if (party >= 2 && k < n) {
		k += (size_t)snprintf(out + k, n - k, ") x %u", party);
		sum *= party;
	}
	total_fig(f, sizeof(f), sum);
	if (k < n)
		snprintf(out + k, n - k, " = %s", f);
}

static double items_sum(const struct claims *c)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < c->n_totals; i++)
		sum += c->totals[i];
	return sum;
}

static bool is_item(const struct claims *c, double v)
{
	size_t i;

	for (i = 0; i < c->n_totals; i++)
		if (fabs(c->totals[i] - v) < 0.005)
			return true;
	return false;
}

/* Reports h as a total the figures contradict: how says what they make. */
static enum check report_total(struct claims *c, struct held *h, unsigned kind, const char *how,
			       uint64_t at)
{
	size_t off = c->text.len;

	if (buf_add(&c->text, how, strlen(how) + 1) < 0)
		return CHECK_REPORT;
	h->source_off = off;
	h->grounded_at = at;
	h->total = (unsigned char)kind;
	return CHECK_REPORT;
}

/* The party a total is for: said in its sentence ("for both of you"), by
 * the answer ("2 passengers"), else by the grounding ("passengers": [...]). */
static unsigned party_of(const struct claims *c, unsigned role)
{
	if (role & ROLE_TWO)
		return 2;
	if (role & ROLE_SPAN)
		return 1;
	return c->party ? c->party : ground_party(c->ground);
}

static int total_flow(const struct claims *c, const struct held *h);
static bool received_total(const struct claims *c, const struct held *h);

/*
 * A total stated as a figure the grounding states (gq): one passenger's
 * fare ("price": 145) given as the total, the charge or the payment of a
 * party of two or more; one item of the answer's own list given as their
 * total, or one of its two figures as their difference. CHECK_REPORT with
 * the derivation, or CHECK_GROUNDED.
 */
static enum check check_total_stated(struct claims *c, struct held *h, unsigned role,
				     const struct ground_quantity *gq)
{
	char how[CLAIMS_TOTAL_HOW], a[32], b[32];
	unsigned party;

	if ((role & ROLE_PER) || !(role & (ROLE_TOTAL | ROLE_CHARGE | ROLE_DIFF)))
		return CHECK_GROUNDED;
	/* "Total for 4 days: €59" after "€59/day": one day's rate as the total */
	if ((role & ROLE_SPAN) && c->span >= 2) {
		size_t i;

		for (i = 0; i < MIN(c->n_rates, (size_t)CLAIMS_TOTAL_ITEMS); i++)
			if (fabs(c->rates[i] - h->q.value) < 0.005) {
				total_fig(a, sizeof(a), h->q.value);
				total_fig(b, sizeof(b), h->q.value * c->span);
				snprintf(how, sizeof(how), "%u x %s = %s", c->span, a, b);
				return report_total(c, h, CLAIM_TOTAL_RATE, how, c->rates_at[i]);
			}
	}
	if ((role & (ROLE_TOTAL | ROLE_CHARGE)) && (party = party_of(c, role)) >= 2 &&
	    ground_item_price(c->ground, &h->q)) {
		total_fig(a, sizeof(a), h->q.value);
		total_fig(b, sizeof(b), h->q.value * party);
		snprintf(how, sizeof(how), "%u passengers x %s = %s", party, a, b);
		return report_total(c, h, CLAIM_TOTAL_FARE, how, gq->at);
	}
	if ((role & ROLE_TOTAL) && c->n_totals >= 2 && is_item(c, h->q.value) &&
	    fabs(items_sum(c) - h->q.value) >= 0.005 &&
	    !(total_flow(c, h) == 2 && received_total(c, h))) {
		items_sum_text(c, 0, how, sizeof(how));
		return report_total(c, h, CLAIM_TOTAL_ITEM, how, gq->at);
	}
	if ((role & ROLE_DIFF) && c->n_totals == 2 && is_item(c, h->q.value)) {
		double hi = MAX(c->totals[0], c->totals[1]), lo = MIN(c->totals[0], c->totals[1]);

		total_fig(a, sizeof(a), hi);
		total_fig(b, sizeof(b), lo);
		snprintf(how, sizeof(how), "%s - %s = ", a, b);
		total_fig(a, sizeof(a), hi - lo);
		strncat(how, a, sizeof(how) - strlen(how) - 1);
		return report_total(c, h, CLAIM_TOTAL_TERM, how, gq->at);
	}
	return CHECK_GROUNDED;
}

/*
 * A total of the one fare the answer stated, for the party: the fare times
 * the party grounds it ("$69" of a $23 fare for 3 travelers); times fewer
 * than the party, it leaves some out ("$46"). Only where the grounding
 * keys the fare as one item's price. -1: neither.
 */
static int check_party_total(struct claims *c, struct held *h, unsigned role)
{
	struct quantity item = h->q;
	unsigned party = party_of(c, role), k;
	char how[CLAIMS_TOTAL_HOW], a[32], b[32];

	item.value = c->totals[0];
	if (party < 2 || !ground_item_price(c->ground, &item))
		return -1;
	total_fig(a, sizeof(a), item.value);
	for (k = 2; k <= party; k++) {
		if (fabs(item.value * k - h->q.value) >= 0.005)
			continue;
		if (k == party) {
			snprintf(how, sizeof(how), "%s x %u", a, party);
			grounded_how(c, h, how, c->totals_at);
			return CHECK_GROUNDED;
		}
		total_fig(b, sizeof(b), item.value * party);
		snprintf(how, sizeof(how), "%u passengers x %s = %s", party, a, b);
		return report_total(c, h, CLAIM_TOTAL_DIFFERS, how, c->totals_at);
	}
	return -1;
}

/*
 * A sum of money the grounding does not state, in a role: a total, charge
 * or refund half or twice what the grounding says was one is reported; of
 * the answer's own list of items, their sum (times the party) grounds it,
 * and a total that leaves one of three or more out (or, for a party of two
 * or more, one leg of two) is reported; of one item, check_party_total().
 * -1: none of these (ground_derive() and the near check decide).
 */
static int check_total_computed(struct claims *c, struct held *h, unsigned role)
{
	const struct ground_quantity *gq;
	char how[CLAIMS_TOTAL_HOW], a[32];
	unsigned party;
	double sum = items_sum(c), v = h->q.value;
	size_t i;
	char *eq;

	if (!role && c->n_totals < 2)
		return -1;
	/* "€52/day ... total for 4 days: €208": a grounded rate times the span */
	if ((role & ROLE_SPAN) && c->span >= 2)
		for (i = 0; i < MIN(c->n_rates, (size_t)CLAIMS_TOTAL_ITEMS); i++)
			if (fabs(c->rates[i] * c->span - v) < 0.005) {
				total_fig(a, sizeof(a), c->rates[i]);
				snprintf(how, sizeof(how), "%u x %s", c->span, a);
				grounded_how(c, h, how, c->rates_at[i]);
				return CHECK_GROUNDED;
			}
	if (!(role & ROLE_PER) && (role & (ROLE_TOTAL | ROLE_CHARGE | ROLE_REFUND)) &&
	    (gq = ground_charged(c->ground, &h->q))) {
		total_fig(a, sizeof(a), gq->q.value);
		if (role & (ROLE_CHARGE | ROLE_REFUND))
			snprintf(how, sizeof(how), "the %s %s", a,
				 role & ROLE_REFUND ? "refunded" : "charged");
		else
			snprintf(how, sizeof(how), "the total %s", a);
		return report_total(c, h, CLAIM_TOTAL_DIFFERS, how, gq->at);
	}
	if (c->n_totals == 1 && (role & ROLE_TOTAL) && !(role & ROLE_PER))
		return check_party_total(c, h, role);
	if (c->n_totals < 2)
		return -1;
	party = party_of(c, role);
	if (fabs(sum - v) < 0.005 || (party >= 2 && fabs(sum * party - v) < 0.005)) {
		items_sum_text(c, fabs(sum - v) < 0.005 ? 0 : party, how, sizeof(how));
		if ((eq = strstr(how, " = ")))
			*eq = '\0';
		grounded_how(c, h, how, c->totals_at);
		return CHECK_GROUNDED;
	}
	/* (of two, one left out is one item: with a party of two or more,
	 * "$290" for 2 x $145 where the answer's legs are $145 and $132) */
	if (!(role & ROLE_TOTAL) || (role & ROLE_PER) || c->n_totals < (party >= 2 ? 2 : 3))
		return -1;
	for (i = 0; i < c->n_totals; i++)
		if ((c->n_totals >= 3 && fabs(sum - c->totals[i] - v) < 0.005) ||
		    (party >= 2 && fabs((sum - c->totals[i]) * party - v) < 0.005)) {
			items_sum_text(c, fabs(sum - c->totals[i] - v) < 0.005 ? 0 : party, how,
				       sizeof(how));
			return report_total(c, h, CLAIM_TOTAL_DIFFERS, how, c->totals_at);
		}
	return -1;
}

/* A total that nothing grounds, near what the answer's own list makes
 * (within the rule's tolerance): reported as differing from that. */
static bool near_items_total(struct claims *c, struct held *h, unsigned role, double tolerance)
{
	unsigned party;
	double sum = items_sum(c), v = h->q.value;
	char how[CLAIMS_TOTAL_HOW];

	if (!(role & ROLE_TOTAL) || (role & ROLE_PER) || c->n_totals < 2 || !(tolerance > 0))
		return false;
	party = party_of(c, role);
	if (party >= 2 && fabs(sum * party - v) <= tolerance * sum * party)
		sum *= party;
	else if (fabs(sum - v) <= tolerance * sum)
		party = 0;
	else
		return false;
	items_sum_text(c, party, how, sizeof(how));
	report_total(c, h, CLAIM_TOTAL_DIFFERS, how, c->totals_at);
	return true;
}

/* How far before a count its clause is read for the value it counts. */
#define GROUP_BEFORE 80

/*
 * Is the count h (of a noun) as many as the items of the turn's lists that
 * share a field's value, that value said in its clause before it ("**Charlie**:
 * 2 messages", "Alice sent 3 messages")? Its clause: back to its line's
 * start or the figure before it, at most GROUP_BEFORE bytes.
 */
static bool group_counted(struct claims *c, struct held *h)
{
	uint64_t lo = MAX(c->start, h->from > GROUP_BEFORE ? h->from - GROUP_BEFORE : 0);
	const char *p, *line;
	size_t n, i, nl;

	p = window_get(c->w, lo, h->from, &n);
	if (n != h->from - lo)
		return false;
	for (i = n; i > 0 && p[i - 1] != '\n' && !isdigit((unsigned char)p[i - 1]); i--)
		;
	if (ground_group_said(c->ground, p + i, n - i, h->q.value, &h->grounded_at))
		return true;
	/* (its line before it, past figures: the "Charlie" of "Charlie: 2
	 * messages (1 in general") */
	for (i = n; i > 0 && p[i - 1] != '\n'; i--)
		;
	line = p + i;
	nl = n - i;
	/* "1 in private", "(2 from Alice)": the value named after it, in its
	 * clause (to a comma, a bracket, a sentence's or a line's end or the
	 * next figure), after "in", "from" or "by". */
	p = window_get(c->w, h->to, h->to + GROUP_BEFORE, &n);
	for (i = 0; i < n && !strchr("\n,;:.()[]", p[i]) && !isdigit((unsigned char)p[i]); i++)
		;
	/* "4 Chinese restaurants" (a bare figure: the lexer gives a count
	 * no noun past a capital): the value between it and its noun, the
	 * capitalised words right after it, a lowercase word (the noun) next. */
	if (h->q.kind == QUANTITY_NUMBER) {
		size_t a = 0, z = 0, w = 0;

		while (a < i && p[a] == ' ')
			a++;
		for (w = a; w < i && isupper((unsigned char)p[w]);) {
			for (z = w; z < i && p[z] != ' '; z++)
				;
			for (w = z; w < i && p[w] == ' '; w++)
				;
		}
		if (a > 0 && z > a && w > z && w < i && islower((unsigned char)p[w]) &&
		    ground_group_said(c->ground, p + a, z - a, h->q.value, &h->grounded_at))
			return true;
	}
	for (size_t k = 0; k + 4 <= i; k++) {
		size_t w = 0;

		if (k > 0 && isalnum((unsigned char)p[k - 1]))
			continue;
		if (strncasecmp(p + k, "in ", 3) == 0)
			w = 3;
		else if (k + 5 <= i && (strncasecmp(p + k, "from ", 5) == 0))
			w = 5;
		else if (strncasecmp(p + k, "by ", 3) == 0)
			w = 3;
		if (w && (ground_group_said(c->ground, p + k + w, i - k - w, h->q.value,
					    &h->grounded_at) ||
			  ground_group_pair_said(c->ground, line, nl, p + k + w, i - k - w, h->q.value,
						 &h->grounded_at)))
			return true;
	}
	return false;
}

/* How far after a count of addresses they are read (urls_listed()). */
#define URLS_AFTER 400

/*
 * "There are 2 URLs: www.a.example and www.b.example", "2 links:" then a
 * list of them: a count of web addresses (its word "URL", "link" or
 * "website") that is as many as the distinct addresses the answer writes
 * right after it (URLS_AFTER bytes, to a blank line). Each address is
 * checked on its own (fabricated_url); the count is of what it lists.
 */
static bool urls_listed(struct claims *c, const struct held *h)
{
	static const char *const nouns[] = {"url", "urls", "link", "links", "website", "websites"};
	const char *p, *seen[20];
	size_t n, i, k, j, len[20], found = 0;
	double v = h->q.value;

	if (v < 1 || v > 20 || v != floor(v))
		return false;
	p = window_get(c->w, h->to, h->to + URLS_AFTER, &n);
	for (i = 0; i < n && p[i] == ' '; i++)
		;
	for (k = i; k < n && isalpha((unsigned char)p[k]); k++)
		;
	for (j = 0; j < ARRAY_SIZE(nouns); j++)
		if (strlen(nouns[j]) == k - i && strncasecmp(p + i, nouns[j], k - i) == 0)
			break;
	if (i == 0 || j == ARRAY_SIZE(nouns))
		return false;
	for (i = k; i + 4 < n && !(p[i] == '\n' && p[i + 1] == '\n'); i++) {
		size_t e, f;

		if (i > k && (isalnum((unsigned char)p[i - 1]) || p[i - 1] == '/' || p[i - 1] == '.'))
			continue;
		if (strncasecmp(p + i, "http://", 7) == 0 || strncasecmp(p + i, "https://", 8) == 0)
			e = i + (p[i + 4] == ':' ? 7 : 8);
		else if (strncasecmp(p + i, "www.", 4) == 0)
			e = i;
		else
			continue;
		if (strncasecmp(p + e, "www.", 4) == 0)
			e += 4;
		for (f = e; f < n && !isspace((unsigned char)p[f]) && !strchr(",;)]>\"'", p[f]); f++)
			;
		while (f > e && p[f - 1] == '.')
			f--;
		if (f == e || f == n)
			return false; /* (an address cut off where the window ends) */
		for (j = 0; j < found; j++)
			if (len[j] == f - e && strncasecmp(seen[j], p + e, f - e) == 0)
				break;
		if (j == found) {
			if (found == ARRAY_SIZE(seen))
				return false;
			seen[found] = p + e;
			len[found++] = f - e;
		}
		i = f - 1;
	}
	return found == (size_t)v;
}

/*
 * A house number on a street the grounding names nowhere ("2260
 * Middlefield Road" where the tool gives "2200 El Camino Real"): held as
 * the bare number it is, which any figure written the same way grounds,
 * and reported as one (its digits alone) under the bare numbers' rule. A
 * Queens number ("123-04") is no figure of its own and is left alone.
 */
static enum check street_as_number(struct claims *c, struct held *h)
{
	const struct ground_quantity *gq;
	struct quantity b;
	const char *p;
	size_t n, k;

	if (c->class_rule[QC_NUMBER] < 0)
		return CHECK_SILENT;
	p = window_get(c->w, h->from, h->to, &n);
	for (k = 0; k < n && isdigit((unsigned char)p[k]); k++)
		;
	if (k == 0 || (k < n && p[k] == '-'))
		return CHECK_SILENT;
	quantity_set(&b, QUANTITY_NUMBER, "number", h->q.value, 1);
	if ((gq = ground_figure_held(c->ground, &b))) {
		h->grounded_at = gq->at;
		return CHECK_GROUNDED;
	}
	h->rule = (size_t)c->class_rule[QC_NUMBER];
	h->q = b;
	h->to = h->from + k;
	h->text_len = k;
	return CHECK_REPORT;
}

/* Whether a figure of quantity q is the written result d of the reply. */
static bool same_result(const struct arith_done *d, const struct quantity *q)
{
	double v = arith_double(d->written);

	return q->scale == 1 && fabs(q->value - v) <= 1e-9 * MAX(1.0, fabs(v)) &&
	       (d->unit_hash == q->unit_hash || q->kind == QUANTITY_NUMBER ||
		d->unit_hash == quantity_unit_hash("number"));
}

/*
 * A figure the reply worked out earlier from grounded terms, said again
 * (the newest such result): grounded, its computation as the source.
 */
static bool worked_out(struct claims *c, struct held *h)
{
	size_t i, k = MIN(c->n_done, (size_t)ARITH_DONE), off = c->text.len;

	for (i = 0; i < k; i++) {
		const struct arith_done *d = &c->done[(c->n_done - 1 - i) % ARITH_DONE];

		if (!same_result(d, &h->q))
			continue;
		if (d->status != DONE_GROUNDED)
			return false;
		if (buf_add(&c->text, d->how, strlen(d->how) + 1) == 0)
			h->source_off = off;
		h->grounded_at = d->at;
		return true;
	}
	return false;
}

/* The ledger's k-th newest figure. */
static const struct ledger_fig *ledger_at(const struct claims *c, size_t k)
{
	return &c->ledger[(c->n_ledger - 1 - k) % CLAIMS_LEDGER];
}

/* Whether the ledger's figure f may be a term of the figure q: a sum of
 * money of q's unit or a bare figure the reply worked out, for money; a
 * bare one, for a bare figure. */
static bool ledger_unit(const struct ledger_fig *f, const struct quantity *q)
{
	if (q->kind == QUANTITY_NUMBER)
		return f->bare;
	return f->unit_hash == q->unit_hash || (f->bare && f->worked);
}

/* A figure the reply derived earlier, said again ("approximately $336.00"
 * after "Weekly cost: $336.00", 7 x 48): grounded as that was. */
static bool ledger_repeat(struct claims *c, struct held *h)
{
	size_t k;

	for (k = 0; k < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER); k++) {
		const struct ledger_fig *f = ledger_at(c, k);

		if (f->derived && ledger_unit(f, &h->q) && fabs(f->v - h->q.value) < 0.005)
			return grounded_how(c, h, f->how, f->at);
	}
	return false;
}

/* A bare figure the reply quoted rather than worked out (a "rating of 4.4"). */
static bool ledger_quoted(const struct ledger_fig *e)
{
	return e->bare && !e->worked && !e->derived;
}

/*
 * What the total h's words before it say it counts: 1 money spent
 * ("Total spent", "spending"), 2 money received ("Total received"), or 0.
 */
static int total_flow(const struct claims *c, const struct held *h)
{
	static const char *const spent[] = {"spent", "spending", "expenses"};
	static const char *const recv[] = {"received", "income", "incoming"};
	uint64_t from = h->from > c->start + 48 ? h->from - 48 : c->start;
	char low[49];
	const char *p;
	size_t n, i;
	int flow = 0;

	p = window_get(c->w, from, h->from, &n);
	for (i = 0; i < n && i < 48; i++)
		low[i] = (char)tolower((unsigned char)p[i]);
	low[i] = '\0';
	for (i = 0; i < ARRAY_SIZE(spent); i++)
		if (strstr(low, spent[i]))
			flow |= 1;
	for (i = 0; i < ARRAY_SIZE(recv); i++)
		if (strstr(low, recv[i]))
			flow |= 2;
	return flow == 3 ? 0 : flow;
}

/*
 * Whether the total h ("Total received: $10") is the sum of the figures the
 * reply labelled received since its last total (past the totals said just
 * before it), one or more.
 */
static bool received_total(const struct claims *c, const struct held *h)
{
	size_t k, n = MIN(c->n_ledger, (size_t)CLAIMS_LEDGER), m = 0, seen = 0;
	double sum = 0;

	for (k = 0; k < n; k++) {
		const struct ledger_fig *e = ledger_at(c, k);

		if (!ledger_unit(e, &h->q))
			continue;
		if (e->total && seen)
			break;
		if (e->per || e->total)
			continue;
		seen++;
		if (e->in) {
			sum += e->v;
			m++;
		}
	}
	if (k == n && c->n_ledger > CLAIMS_LEDGER)
		return false;
	return m >= 1 && fabs(sum - h->q.value) < 0.005;
}

/*
 * Whether the ledger's figure e is a part of a total taken as s: 0 all of
 * them, 1 those written with "-", 2 with "+", 3 all but the bare figures
 * the reply quoted ("- Hotel: 270 (3 nights x 90)" ... "Total: 420", past
 * a "rating of 4.4"), 4 all but those labelled received where the total
 * says it is spent, 5 those labelled received alone where it says it is
 * received ("- Sushi dinner: $10 (received)" ... "Total spent: $1350",
 * "Total received: $10").
 */
static bool ledger_part(const struct ledger_fig *e, int s, int flow)
{
	switch (s) {
	case 0: return true;
	case 1: return e->sign == -1;
	case 2: return e->sign == 1;
	case 3: return !ledger_quoted(e);
	case 4: return flow == 1 && !e->in;
	default: return flow == 2 && e->in;
	}
}

/*
 * A total (h) that is every figure the reply listed since its last total,
 * two or more, rates left out ("- London: €300 (2 nights) ... - Paris:
 * €324 ... Total: €4,204"), or all it wrote with one sign ("-50.0",
 * "-1000.0", "+10.0": spending of 1050.0): not a part of them, which leaves
 * one out: with short_by, one that is all of three or more but one is
 * reported as differing from their sum (*short_by set). Only where the
 * ring holds them all; to the cent.
 */
static bool ledger_total(struct claims *c, struct held *h, bool *short_by)
{
	char how[CLAIMS_TOTAL_HOW], f[32];
	size_t k, n = MIN(c->n_ledger, (size_t)CLAIMS_LEDGER), len = 0, first = 0;
	size_t m[6] = {0, 0, 0, 0, 0, 0};
	double sum[6] = {0, 0, 0, 0, 0, 0};
	int s, pick = -1, flow = total_flow(c, h);

	for (k = 0; k < n; k++) {
		const struct ledger_fig *e = ledger_at(c, k);

		if (!ledger_unit(e, &h->q))
			continue;
		/* (past the totals said just before one of the other flow:
		 * "Total spent: $1350", then "Total received: $10") */
		if (e->total && !(flow && m[0] == 0))
			break;
		if (e->per || e->total)
			continue;
		/* [0] all of them, [1] those written with "-", [2] with "+",
		 * [3] all but the bare figures it quoted ("- Hotel: 270 (3
		 * nights x 90)" ... "Total: 420", past a "rating of 4.4") */
		for (s = 0; s < 6; s++)
			if (ledger_part(e, s, flow)) {
				sum[s] += e->v;
				m[s]++;
			}
		first = k;
	}
	if (k == n && c->n_ledger > CLAIMS_LEDGER)
		return false;
	for (s = 0; s < 6 && pick < 0; s++)
		if (m[s] >= (s == 5 ? 1u : 2u) && fabs(sum[s] - h->q.value) < 0.005)
			pick = s;
	if (pick < 0 && m[0] >= 3 && short_by)
		for (k = 0; k <= first && !*short_by; k++) {
			const struct ledger_fig *e = ledger_at(c, k);

			*short_by = ledger_unit(e, &h->q) && !e->per && !e->total &&
				    fabs(sum[0] - e->v - h->q.value) < 0.005;
		}
	if (pick < 0 && !(short_by && *short_by))
		return false;
	how[0] = '\0';
	for (k = first + 1; k-- > 0 && len < sizeof(how);) {
		const struct ledger_fig *e = ledger_at(c, k);

		if (!ledger_unit(e, &h->q) || e->per || e->total || !ledger_part(e, pick < 0 ? 0 : pick, flow))
			continue;
		total_fig(f, sizeof(f), e->v);
		len += (size_t)snprintf(how + len, sizeof(how) - len, "%s%s", len ? " + " : "", f);
	}
	if (pick >= 0)
		return grounded_how(c, h, how, ledger_at(c, first)->at);
	/* one left out: what they all make */
	total_fig(f, sizeof(f), sum[0]);
	if (len < sizeof(how))
		snprintf(how + len, sizeof(how) - len, " = %s", f);
	report_total(c, h, CLAIM_TOTAL_DIFFERS, how, ledger_at(c, first)->at);
	return false;
}

/*
 * h, said as no total, as the sum or the difference of two figures of the
 * ledger ("Net spending: €1,340.00" after totals of €1,350.00 and
 * €10.00): one of them derived (two the tools state are ground_derive()'s,
 * with what the reply said), or, for a bare figure said as a difference,
 * any two. (A total of two of three it listed leaves one out.)
 */
static bool ledger_pair(struct claims *c, struct held *h, bool bare)
{
	size_t i, j, n = MIN(c->n_ledger, (size_t)CLAIMS_LEDGER);
	char how[CLAIMS_LEDGER_HOW + 8], a[32], b[32];

	for (i = 0; i < n; i++) {
		const struct ledger_fig *p = ledger_at(c, i);

		if (!ledger_unit(p, &h->q))
			continue;
		for (j = i + 1; j < n; j++) {
			const struct ledger_fig *q = ledger_at(c, j);
			double hi = MAX(p->v, q->v), lo = MIN(p->v, q->v);

			if (!ledger_unit(q, &h->q) || !(bare || p->derived || q->derived))
				continue;
			if (fabs(p->v + q->v - h->q.value) < 0.005) {
				total_fig(a, sizeof(a), q->v);
				total_fig(b, sizeof(b), p->v);
				snprintf(how, sizeof(how), "%s + %s", a, b);
			} else if (fabs(hi - lo - h->q.value) < 0.005) {
				total_fig(a, sizeof(a), hi);
				total_fig(b, sizeof(b), lo);
				snprintf(how, sizeof(how), "%s - %s", a, b);
			} else {
				continue;
			}
			return grounded_how(c, h, how, q->at);
		}
	}
	return false;
}

/* How near an average's word is read: before the figure, and after it. */
#define LEDGER_AVG_BEFORE 24
#define LEDGER_AVG_AFTER 16
#define LEDGER_AVG_TERMS 4

/*
 * h said as an average ("€37.5 average", "an average of $31") of two to
 * LEDGER_AVG_TERMS figures the reply listed one after the other ("- House
 * of Sushi: €40 ... - Home Kitchen: €35"): grounded by their mean, to the
 * cent.
 */
static bool ledger_average(struct claims *c, struct held *h, uint64_t end)
{
	size_t idx[LEDGER_AVG_TERMS];
	size_t k, m, i, n, nb, len, terms;
	const char *p;
	char how[CLAIMS_LEDGER_HOW + 16], f[32];
	bool said = false;

	p = window_get(c->w, h->from > c->start + LEDGER_AVG_BEFORE ? h->from - LEDGER_AVG_BEFORE
								      : c->start, h->from, &nb);
	for (i = 0; i + 6 <= nb && !said; i++)
		said = strncasecmp(p + i, "averag", 6) == 0;
	p = window_get(c->w, h->to, MIN(end, h->to + LEDGER_AVG_AFTER), &n);
	for (i = 0; i + 6 <= n && !said; i++)
		said = strncasecmp(p + i, "averag", 6) == 0;
	if (!said)
		return false;
	/* the newest first: each run of m figures of h's unit that ends at k */
	for (k = 0; k < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER); k++) {
		double sum = 0;

		if (!ledger_unit(ledger_at(c, k), &h->q))
			continue;
		for (i = k, m = 0; i < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER) && m < LEDGER_AVG_TERMS;
		     i++) {
			const struct ledger_fig *e = ledger_at(c, i);

			if (!ledger_unit(e, &h->q))
				continue;
			sum += e->v;
			idx[m++] = i;
			if (m < 2 || fabs(sum / (double)m - h->q.value) >= 0.005)
				continue;
			terms = m;
			len = (size_t)snprintf(how, sizeof(how), "(");
			while (m-- > 0 && len < sizeof(how)) {
				total_fig(f, sizeof(f), ledger_at(c, idx[m])->v);
				len += (size_t)snprintf(how + len, sizeof(how) - len, "%s%s", f,
							m ? " + " : "");
			}
			if (len < sizeof(how))
				snprintf(how + len, sizeof(how) - len, ") / %zu", terms);
			return grounded_how(c, h, how, e->at);
		}
	}
	return false;
}

/*
 * The bare figure h, which nothing grounds, as the reply's own: a figure it
 * derived said again, or said as a total or a difference ("Your total
 * spending was 1050.0"), the sum or difference of two it listed, or all
 * it listed since its last total; said as an average, their mean.
 */
static bool ledger_bare(struct claims *c, struct held *h, uint64_t end)
{
	unsigned role;

	if (!c->n_ledger || h->q.scale != 1 || !(h->q.value > 0) ||
	    (h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX)))
		return false;
	if (ledger_repeat(c, h) || ledger_average(c, h, end))
		return true;
	role = money_role(c, h, end);
	if (role & ROLE_PER)
		return false;
	return (role & ROLE_TOTAL) ? ledger_total(c, h, NULL) : (role & ROLE_DIFF) && ledger_pair(c, h, true);
}

/*
 * A count that is the product of two the sentence said before it, both
 * grounded: one of its noun, the other a count or a span of whole days
 * ("2 meals/day for 3 days (6 meals total)", "2 meals x 2 people").
 */
static bool count_product(struct claims *c, struct held *h)
{
	size_t at = (size_t)(h - c->held), i, j;
	char how[64], x[32];

	for (i = 0; i < at; i++) {
		const struct held *a = &c->held[i];

		if (!a->lexed || c->chk[i] != CHECK_GROUNDED || a->q.kind != QUANTITY_COUNT ||
		    a->q.unit_hash != h->q.unit_hash || !(a->q.value >= 1))
			continue;
		for (j = 0; j < at; j++) {
			const struct held *b = &c->held[j];
			double k = b->q.value;

			if (j == i || !b->lexed || c->chk[j] != CHECK_GROUNDED)
				continue;
			if (quantity_class_of(&b->q) == QC_DURATION)
				k /= QUANTITY_DAY_SECONDS;
			else if (b->q.kind != QUANTITY_COUNT)
				continue;
			if (k < 2 || k > 366 || k != floor(k) || a->q.value * k != h->q.value)
				continue;
			total_fig(x, sizeof(x), a->q.value);
			snprintf(how, sizeof(how), "%s x %.0f", x, k);
			return grounded_how(c, h, how, a->grounded_at);
		}
	}
	return false;
}

/*
 * A whole count that is a count of its noun per day times a span of days,
 * both of which the grounding states ("6 meals" of the user's "two meals
 * a day" and "3-day trip"): the span 2 to 31 days, the count per day one
 * or more, exact.
 */
static bool count_per_span(struct claims *c, struct held *h)
{
	const struct ground_context none = {0};
	const struct ground_quantity *gk, *gd;
	struct quantity k, d;
	enum ground_verdict vk, vd;
	char how[64];
	unsigned days;

	if (h->q.items || h->q.decimals || !(h->q.value >= 2 && h->q.value <= 1000) ||
	    h->q.value != floor(h->q.value))
		return false;
	for (days = 2; days <= 31; days++) {
		if (fmath_fmod(h->q.value, days) != 0)
			continue;
		k = h->q;
		k.value = h->q.value / days;
		quantity_set(&d, QUANTITY_BASE, "seconds", days * QUANTITY_DAY_SECONDS,
			     QUANTITY_DAY_SECONDS);
		if (!(gd = ground_match_quantity(c->ground, &d, &none, 0, &vd)) || vd != GROUND_STATED ||
		    !(gk = ground_match_quantity(c->ground, &k, &none, 0, &vk)) || vk != GROUND_STATED ||
		    gk->q.kind != QUANTITY_COUNT || gk->q.unit_hash != h->q.unit_hash)
			continue;
		snprintf(how, sizeof(how), "%.0f x %u", k.value, days);
		return grounded_how(c, h, how, gk->at);
	}
	return false;
}

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
static bool proposed(const struct claims *c, const struct held *h)
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

/* Words of a tag's name that say the model grades its own work. */
static const char *const assessing[] = {
	"quality", "confidence", "certainty", "self", "assess", "evaluat", "reflect",
};

/* Whether p[0, n) holds one of the words of assessing[], without case. */
static bool names_assessment(const char *p, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < ARRAY_SIZE(assessing); k++)
			if (strlen(assessing[k]) <= n - i &&
			    strncasecmp(p + i, assessing[k], strlen(assessing[k])) == 0)
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
static bool self_assessed(const struct claims *c, const struct held *h, uint64_t end)
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
static bool branch_plan(const struct claims *c, const struct held *h)
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

/* Is the time of the clock t one the grounding states, in any writing of
 * it ("13:00", "13:00:00", "1 PM")? */
static bool clock_held(const struct claims *c, const struct quantity *t)
{
	static const double scales[] = {1, 1.0 / 60, 60};
	const struct ground_quantity *gq;
	struct quantity m;
	size_t k;

	if ((gq = ground_figure_held(c->ground, t)) && gq->q.kind == QUANTITY_TIME &&
	    gq->q.value == t->value)
		return true;
	for (k = 0; k < ARRAY_SIZE(scales); k++) {
		if (scales[k] == 60 && fmath_fmod(t->value, 60) != 0)
			continue;
		quantity_set(&m, QUANTITY_TIME, "time:clock", t->value, scales[k]);
		if ((gq = ground_figure_held(c->ground, &m)) && gq->q.kind == QUANTITY_TIME &&
		    gq->q.value == t->value)
			return true;
	}
	return false;
}

/* The grounded duration of the given minutes ("4 hours", "a 1-hour event"), or NULL. */
static const struct ground_quantity *duration_held(const struct claims *c, double minutes)
{
	const struct ground_quantity *gq;
	struct quantity d;

	quantity_set(&d, QUANTITY_BASE, "seconds", minutes * 60,
		     fmath_fmod(minutes, 60) == 0 ? 3600 : 60);
	gq = ground_figure_held(c->ground, &d);
	return gq && gq->q.unit_hash == d.unit_hash && gq->q.value == d.value ? gq : NULL;
}

/*
 * The hours of a length said in two parts, right before its minutes
 * ("1 hour and ", "2 hours ", "12 hours and "): p[0, n) ends where the
 * minutes begin. 0 when it is not such a part.
 */
static unsigned hours_before(const char *p, size_t n)
{
	size_t e = n, d;
	unsigned v = 0, k = 1;

	if (e >= 5 && memcmp(p + e - 5, " and ", 5) == 0)
		e -= 4;
	if (e < 1 || p[--e] != ' ')
		return 0;
	if (e >= 5 && memcmp(p + e - 5, "hours", 5) == 0)
		e -= 5;
	else if (e >= 4 && memcmp(p + e - 4, "hour", 4) == 0)
		e -= 4;
	else
		return 0;
	if (e < 2 || p[--e] != ' ')
		return 0;
	for (d = 0; e > 0 && d < 2 && isdigit((unsigned char)p[e - 1]); d++, k *= 10)
		v += k * (unsigned)(p[--e] - '0');
	if (d == 0 || (e > 0 && (isalnum((unsigned char)p[e - 1]) || p[e - 1] == '.')))
		return 0;
	return v;
}

/*
 * The minutes of a length said in two parts, right after its hours
 * (" and 30 minutes", " 30 minutes", " 30 minute gap"): p[0, n) starts
 * where the hours end. 0 when it is not such a part.
 */
static unsigned minutes_after(const char *p, size_t n)
{
	size_t i = 0;
	unsigned v = 0, d;

	if (n >= 5 && memcmp(p, " and ", 5) == 0)
		i = 5;
	else if (n >= 1 && p[0] == ' ')
		i = 1;
	else
		return 0;
	for (d = 0; i < n && d < 3 && isdigit((unsigned char)p[i]); d++, i++)
		v = v * 10 + (unsigned)(p[i] - '0');
	if (d == 0 || v == 0 || v >= 60 || i + 7 > n || memcmp(p + i, " minute", 7) != 0)
		return 0;
	return v;
}

/*
 * The length in minutes h says, for a gap between two times: a duration
 * (its two parts joined: "1 hour and 30 minutes", each part held alone),
 * or a clock's "01:30" written as a length; -1 when it is neither.
 */
static double length_minutes(struct claims *c, const struct held *h)
{
	double len = -1;
	const char *p;
	size_t np;

	if (h->q.kind == QUANTITY_TIME) {
		/* "01:30": a length, as HH:MM writes it */
		p = window_get(c->w, h->from, h->to, &np);
		if (np >= 5 && p[0] == '0' && h->q.scale == 1 && h->q.value < 720)
			len = h->q.value;
	} else if (quantity_class_of(&h->q) == QC_DURATION && h->q.unit_hash == quantity_unit_hash("seconds") &&
		   h->q.value >= 60 && h->q.value <= 720 * 60) {
		len = h->q.value / 60;
		/* "1 hour and 30 minutes", "1 hour 30 minutes": one length said
		 * in two parts, each held alone; the other part joins it */
		p = window_get(c->w, h->from > c->start + 16 ? h->from - 16 : c->start, h->from, &np);
		if (fmath_fmod(len, 60) != 0)
			len += 60 * (double)hours_before(p, np);
		p = window_get(c->w, h->to, h->to + 16, &np);
		if (fmath_fmod(len, 60) == 0)
			len += (double)minutes_after(p, np);
	}
	return len;
}

/* How far after a length its times are read (clock_gap_after()). */
#define GAP_AFTER 200
/* The most times read there. */
#define GAP_TIMES 6

/*
 * "You have 01:30 (1 hour and 30 minutes) of free time. Your meeting ends
 * at 11:00 and the lunch starts at 12:30": a length said before the two
 * times it is the gap between, in the text after it (GAP_AFTER bytes, to
 * a blank line), each "HH:MM" a time the grounding states. Only to the
 * minute, up to 12 hours, as clock_arith() reads those said before.
 */
static bool clock_gap_after(struct claims *c, const struct held *h)
{
	double len = length_minutes(c, h), t[GAP_TIMES];
	const char *p;
	size_t n, i, k = 0, a, b;

	if (len < 1 || len != floor(len))
		return false;
	p = window_get(c->w, h->to, h->to + GAP_AFTER, &n);
	for (i = 0; i + 1 < n && !(p[i] == '\n' && p[i + 1] == '\n'); i++)
		;
	n = MIN(n, i + 1);
	for (i = 0; i + 4 <= n && k < GAP_TIMES; i++) {
		unsigned hh = 0, mm;
		struct quantity q;
		size_t j = i;

		if (!isdigit((unsigned char)p[i]) || (i > 0 && (isalnum((unsigned char)p[i - 1]) ||
								 p[i - 1] == ':' || p[i - 1] == '.')))
			continue;
		for (; j < n && j < i + 2 && isdigit((unsigned char)p[j]); j++)
			hh = hh * 10 + (unsigned)(p[j] - '0');
		if (j + 3 > n || p[j] != ':' || !isdigit((unsigned char)p[j + 1]) ||
		    !isdigit((unsigned char)p[j + 2]) || (j + 3 < n && isdigit((unsigned char)p[j + 3])))
			continue;
		mm = (unsigned)(p[j + 1] - '0') * 10 + (unsigned)(p[j + 2] - '0');
		if (hh > 23 || mm > 59)
			continue;
		quantity_set(&q, QUANTITY_TIME, "time:clock", hh * 60 + mm, 1);
		if (clock_held(c, &q))
			t[k++] = hh * 60 + mm;
		i = j + 2;
	}
	for (a = 0; a < k; a++)
		for (b = 0; b < k; b++)
			if (t[b] - t[a] == len)
				return true;
	return false;
}

/*
 * Time worked out from times the text said before (the newest CLAIMS_CLOCK
 * within CLOCK_BEFORE bytes), each a time the grounding states: a time
 * that is one of them plus a duration the grounding states ("1 PM" and the
 * user's "4 hours": "it ends at 5 PM"), or a length (a duration, or one
 * written as a clock's "01:30") that is the gap between two of them ("ends
 * at 11:00", "lunch at 12:30": "1 hour and 30 minutes"). Only to the
 * minute, up to 12 hours.
 */
static bool clock_arith(struct claims *c, struct held *h)
{
	size_t i, j, n = MIN(c->n_clock, (size_t)CLAIMS_CLOCK);
	double len;

	if (h->q.kind == QUANTITY_TIME) {
		for (i = 0; i < n; i++) {
			const struct quantity *t = &c->clock[i];
			const struct ground_quantity *gq;
			double d = fmath_fmod(h->q.value - t->value + 1440, 1440);

			if (c->clock_from[i] + CLOCK_BEFORE < h->from || d < 1 || d > 720 ||
			    !(gq = duration_held(c, d)) || !clock_held(c, t))
				continue;
			h->grounded_at = gq->at;
			return true;
		}
	}
	len = length_minutes(c, h);
	if (len < 1 || len != floor(len))
		return false;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (c->clock[j].value - c->clock[i].value == len &&
			    c->clock_from[i] + CLOCK_BEFORE >= h->from &&
			    c->clock_from[j] + CLOCK_BEFORE >= h->from && clock_held(c, &c->clock[i]) &&
			    clock_held(c, &c->clock[j]))
				return true;
	return false;
}

/* Keeps the time of the clock h said for clock_arith(). */
static void clock_keep(struct claims *c, const struct held *h)
{
	if (h->lexed && h->q.kind == QUANTITY_TIME) {
		c->clock[c->n_clock % CLAIMS_CLOCK] = h->q;
		c->clock_from[c->n_clock++ % CLAIMS_CLOCK] = h->from;
	}
}

/*
 * For one end of a range of times or days (its two ends are held side by
 * side, spanning the same bytes), the grounded quantity that says the two
 * ends as one record's start and end (ground_range_held(), 1024 bytes
 * apart at most); NULL otherwise.
 */
static const struct held *range_other(const struct claims *c, const struct held *h)
{
	size_t i = (size_t)(h - c->held);

	if (i + 1 < c->n_held && c->held[i + 1].from == h->from && c->held[i + 1].to == h->to &&
	    (c->held[i + 1].nl_flags & NUMLEX_RANGE))
		return &c->held[i + 1];
	if (i > 0 && c->held[i - 1].from == h->from && c->held[i - 1].to == h->to &&
	    (c->held[i - 1].nl_flags & NUMLEX_RANGE))
		return &c->held[i - 1];
	return NULL;
}

static const struct ground_quantity *range_held(const struct claims *c, const struct held *h)
{
	const struct held *o = range_other(c, h);
	const struct ground_quantity *gq;
	double d;

	/* (times and days, which records give as a start and an end; the ends
	 * of a range of money or shares are no one record's two fields) */
	if (!o || (quantity_class_of(&h->q) != QC_TIME && quantity_class_of(&h->q) != QC_DATE))
		return NULL;
	if ((gq = ground_range_held(c->ground, &h->q, &o->q, 1024)))
		return gq;
	/* "12:00-13:00" of the user's "at 12:00 for one hour": the end is the
	 * start the grounding states plus a length it states */
	if (h > o && h->q.kind == QUANTITY_TIME && o->q.kind == QUANTITY_TIME &&
	    (d = fmath_fmod(h->q.value - o->q.value + 1440, 1440)) >= 1 && d <= 720 && clock_held(c, &o->q))
		return duration_held(c, d);
	return NULL;
}

/*
 * A bare whole number in brackets right after a noun ("the fewest messages
 * (0)", "Reviews (4)"): as many of that noun, so grounded as that count
 * is ("0 messages" of a channel's empty list).
 */
static bool bracketed_count(struct claims *c, struct held *h)
{
	struct ground_context none = {0};
	char noun[QUANTITY_UNIT_MAX];
	enum ground_verdict v;
	struct quantity q;
	const struct ground_quantity *gq;
	const char *p;
	size_t n, i, k;

	if (h->q.value < 0 || h->q.value != floor(h->q.value) || h->q.decimals || h->from < 4)
		return false;
	p = window_get(c->w, h->to, h->to + 1, &n);
	if (n != 1 || p[0] != ')')
		return false;
	p = window_get(c->w, h->from > 40 ? h->from - 40 : 0, h->from, &n);
	if (n < 4 || p[n - 1] != '(' || p[n - 2] != ' ')
		return false;
	for (i = n - 2; i > 0 && isalpha((unsigned char)p[i - 1]); i--)
		;
	k = n - 2 - i;
	if (k < 3 || k >= sizeof(noun) || (i > 0 && !isspace((unsigned char)p[i - 1])))
		return false;
	for (size_t j = 0; j < k; j++)
		noun[j] = (char)tolower((unsigned char)p[i + j]);
	noun[k] = '\0';
	/* (singular, as a count's noun is: "messages" -> "message") */
	if (k > 4 && strcmp(noun + k - 3, "ies") == 0)
		strcpy(noun + k - 3, "y");
	else if (k > 3 && noun[k - 1] == 's' && noun[k - 2] != 's' && noun[k - 2] != 'u' && noun[k - 2] != 'i')
		noun[k - 1] = '\0';
	quantity_set(&q, QUANTITY_COUNT, noun, h->q.value, 1);
	gq = ground_match_quantity(c->ground, &q, &none, 0, &v);
	if (v != GROUND_STATED)
		return false;
	h->grounded_at = gq->at;
	return true;
}

/*
 * A share said as the fraction it is, to be multiplied by ("19.5%" given,
 * "$1,000.00 x 0.195"): a bare number below 1, with two or more decimals,
 * a term of arithmetic the answer writes out, that is a grounded
 * percentage over 100. (Not any 0.15 of a text that says 15% somewhere.)
 */
static bool percent_as_fraction(struct claims *c, struct held *h, uint64_t end)
{
	const struct ground_quantity *gq;
	struct ground_context none;
	enum ground_verdict vg;
	struct quantity pc;
	double v = h->q.value * 100;

	if (!(h->q.value > 0 && h->q.value < 1) || h->q.decimals < 2 ||
	    fabs(v - fmath_round(v * 1e6) / 1e6) > 1e-9 || !written_term(c, h, end))
		return false;
	v = fmath_round(v * 1e6) / 1e6;
	quantity_set(&pc, QUANTITY_BASE, "percent", v, 1);
	/* (the percentage itself, where a bare 10.0 written the same way is
	 * held first: "amount": 10.0 beside the user's "10%") */
	if ((gq = ground_figure_held(c->ground, &pc)) && gq->q.unit_hash != pc.unit_hash) {
		memset(&none, 0, sizeof(none));
		gq = ground_match_quantity(c->ground, &pc, &none, 0, &vg);
		if (vg != GROUND_STATED)
			gq = NULL;
	}
	if (!gq || gq->q.unit_hash != pc.unit_hash || fabs(gq->q.value - v) > 1e-9)
		return false;
	h->grounded_at = gq->at;
	return true;
}

/* ---- products, shares and updates of figures the tools or the user give ---- */

/*
 * Whether lit is in p[0, n): memchr() for its first byte, then the rest
 * (glibc's memmem() costs some hundreds of instructions a call on a window
 * this short; these run on every sum of money nothing states).
 */
static bool has_lit(const char *p, size_t n, const char *lit)
{
	size_t l = strlen(lit);
	const char *e = p + n, *q = p;

	while (l && (size_t)(e - q) >= l && (q = memchr(q, lit[0], (size_t)(e - q) - l + 1))) {
		if (memcmp(q + 1, lit + 1, l - 1) == 0)
			return true;
		q++;
	}
	return false;
}

/* How far before a figure its sentence's words are read for a product or a share. */
#define PRODUCT_BEFORE 112

/* (inline: this runs over every byte of the words before a figure) */
static inline bool ascii_alnum(char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* A count of 2 to 9 in words ("two meals"); 0 when w[0, k) is none. */
static unsigned count_word(const char *w, size_t k)
{
	static const char *const words[] = {"two", "three", "four", "five", "six", "seven",
					    "eight", "nine"};
	size_t i;
	int c0 = tolower((unsigned char)w[0]);

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (c0 == words[i][0] && k == strlen(words[i]) && strncasecmp(w, words[i], k) == 0)
			return (unsigned)i + 2;
	return 0;
}

/*
 * The counts of 2 to 9 p[0, n) says of a noun ("2 meals", "two meals", "3
 * nights", "a 3-day trip"; "lunch and dinner" is two), leaving out the
 * bytes [skip, skip_to) (the figure itself); at most cap, in order. A
 * digit of another figure ("$30", "5.0", "15") is none. *span: one of
 * them counts days or nights.
 */
static size_t counts_said(const char *p, size_t n, size_t skip, size_t skip_to, unsigned *out,
			  size_t cap, bool *span)
{
	static const char *const pairs[] = {"lunch and dinner", "breakfast and lunch",
					    "breakfast and dinner"};
	size_t i = 0, k = 0, ws, j;

	*span = false;
	while (i < n && k < cap) {
		unsigned v = 0;

		if (i >= skip && i < skip_to) {
			i = skip_to;
			continue;
		}
		if (!ascii_alnum(p[i])) {
			i++;
			continue;
		}
		for (ws = i; i < n && ascii_alnum(p[i]); i++)
			;
		if (i - ws == 1 && isdigit((unsigned char)p[ws]) && p[ws] >= '2' &&
		    !(ws > 0 && strchr("$.,", p[ws - 1])) && !(i < n && strchr(".,", p[i]) && i + 1 < n &&
							      isdigit((unsigned char)p[i + 1])))
			v = (unsigned)(p[ws] - '0');
		else if (i - ws >= 3 && i - ws <= 5)
			v = count_word(p + ws, i - ws);
		/* (the first letter first: one compare for most words) */
		for (j = 0; !v && i - ws >= 5 && j < ARRAY_SIZE(pairs); j++)
			if (tolower((unsigned char)p[ws]) == pairs[j][0] && n - ws >= strlen(pairs[j]) &&
			    strncasecmp(p + ws, pairs[j], strlen(pairs[j])) == 0) {
				out[k++] = 2;
				i = ws + strlen(pairs[j]);
				break;
			}
		/* then a noun: "2 meals", "3-day", not "2," or "2 $" */
		if (!v || i + 1 >= n || !(p[i] == ' ' || p[i] == '-') || !islower((unsigned char)p[i + 1]))
			continue;
		out[k++] = v;
		if ((n - i - 1 >= 3 && strncmp(p + i + 1, "day", 3) == 0) ||
		    (n - i - 1 >= 5 && strncmp(p + i + 1, "night", 5) == 0))
			*span = true;
	}
	return k;
}

/* Whether p[0, n) ties a count to a price: "each", "per", "at", "a day", "/". */
static bool price_tied(const char *p, size_t n)
{
	static const char *const ties[] = {" each", " per ", " at ", " a day", " a night",
					   " apiece", "/day", "/night", "/meal", "/person"};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(ties); k++)
		if (has_lit(p, n, ties[k]))
			return true;
	return false;
}

/*
 * h as factor times a price: a sum of money the grounding states, or a
 * figure the reply has said as money and the grounding states ("$30
 * each" of a tool's "Le Baratin": 30.0); not any bare number (a rating of
 * 5, a count of reviews). To the cent; says how ("2 x 30").
 */
static bool price_times(struct claims *c, struct held *h, unsigned factor)
{
	const struct ground_quantity *gq;
	struct quantity r = h->q;
	char how[64], a[32];
	size_t i;

	r.value = h->q.value / factor;
	if (fabs(r.value * 100 - fmath_round(r.value * 100)) > 1e-6)
		return false;
	r.value = fmath_round(r.value * 100) / 100;
	if (!(gq = ground_figure_held(c->ground, &r)))
		return false;
	for (i = 0; i < MIN(c->n_said, (size_t)GROUND_DERIVE_SAID) &&
		    fabs(c->said[i] - r.value) >= 0.005; i++)
		;
	if (quantity_class_of(&gq->q) != QC_MONEY &&
	    !(gq->q.kind == QUANTITY_NUMBER && i < MIN(c->n_said, (size_t)GROUND_DERIVE_SAID)))
		return false;
	total_fig(a, sizeof(a), r.value);
	snprintf(how, sizeof(how), "%u x %s", factor, a);
	return grounded_how(c, h, how, gq->at);
}

/*
 * Whether h is itself said as a price of one ("€50 per meal", "$15 each",
 * "cost per person = €40.0", "an average of $30"): a rate, not a price
 * times a count. ("$50 per day" of two meals a day may be either.)
 */
static bool said_as_rate(struct claims *c, const struct held *h, uint64_t end)
{
	static const char *const after[] = {" per meal", " per person", " per item", "/meal",
					    "/person", " each", " a person", " a meal", " apiece"};
	static const char *const before[] = {"per person", "per meal", "average", "Average",
					     "each", "Each"};
	const char *p;
	size_t n, k;

	p = window_get(c->w, h->to, MIN(end, h->to + 12), &n);
	for (k = 0; k < ARRAY_SIZE(after); k++)
		if (n >= strlen(after[k]) && strncmp(p, after[k], strlen(after[k])) == 0)
			return true;
	p = window_get(c->w, h->from > c->start + 24 ? h->from - 24 : c->start, h->from, &n);
	/* (its own clause: "$25 each, so $50 a day" has its "each" before the comma) */
	for (k = n; k > 0 && !strchr(",;.", p[k - 1]); k--)
		;
	p += k;
	n -= k;
	for (k = 0; k < ARRAY_SIZE(before); k++)
		if (has_lit(p, n, before[k]))
			return true;
	return false;
}

/*
 * A sum of money that is a price times what its sentence counts ("around
 * 60 euros on your two meals at Le Baratin", "lunch and dinner at $30
 * each, $60 a day", "3 nights ... around €720" at €240 a night, "2 meals
 * per day over 3 days: $90.0" at $15): a count of 2 to 9 it says of a
 * noun, or the product of two it says, times a figure the grounding
 * states, to the cent. The sentence must tie the count to a price ("each",
 * "per", "at", "a day") or count days or nights; counts said in another
 * sentence are not read, so a total said alone ("That comes to $96.")
 * gets no factor. Grounded, and says how ("2 x 30").
 */
static bool words_product(struct claims *c, struct held *h, uint64_t end)
{
	uint64_t lo = h->from > c->start + PRODUCT_BEFORE ? h->from - PRODUCT_BEFORE : c->start;
	unsigned f[4];
	size_t n, k, i, j;
	bool span;
	const char *p = window_get(c->w, lo, MIN(end, h->to + 24), &n);

	if (!(h->q.value > 0) || h->q.scale != 1 || n < h->to - lo)
		return false;
	k = counts_said(p, n, (size_t)(h->from - lo), (size_t)(h->to - lo), f, ARRAY_SIZE(f), &span);
	if (!k || !(span || price_tied(p, n)) || said_as_rate(c, h, end))
		return false;
	for (i = 0; i < k; i++)
		if (price_times(c, h, f[i]))
			return true;
	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++)
			if (price_times(c, h, f[i] * f[j]))
				return true;
	return false;
}

/*
 * One's share of a figure the grounding states ("half of the 12.00 total,
 * so 6.00", "Each person's share: 6.00", "split three ways, $40" of a
 * $120 charge for three passengers): said with "half" before it or after
 * it ("6.00 (half of the total)"), the figure times two; said as a share
 * ("share", "split"), times the party the grounding gives, or two where
 * it gives none. ("$40 per person" is a price of one, not a share.) To the cent; says how ("12.00 / 2").
 */
static bool share_of(struct claims *c, struct held *h, uint64_t end)
{
	static const char *const shares[] = {"share", "split"};
	uint64_t lo = h->from > c->start + 80 ? h->from - 80 : c->start;
	const struct ground_quantity *gq;
	struct quantity r;
	unsigned f = 0;
	char how[64], a[32];
	const char *p, *q;
	size_t n, m, k;

	if (!(h->q.value > 0) || h->q.scale != 1 || (h->nl_flags & NUMLEX_RANGE))
		return false;
	p = window_get(c->w, lo, h->from, &n);
	q = window_get(c->w, h->to, MIN(end, h->to + 24), &m);
	if (has_lit(p, n, "half") || has_lit(p, n, "Half") ||
	    (m && has_lit(q, MIN(m, (size_t)12), "(half")))
		f = 2;
	for (k = 0; !f && k < ARRAY_SIZE(shares); k++)
		if (has_lit(p, n, shares[k]) ||
		    (m && q[0] == ' ' && m > 1 + strlen(shares[k]) &&
		     strncmp(q + 1, shares[k], strlen(shares[k])) == 0)) {
			f = ground_party(c->ground);
			f = f >= 2 ? f : 2;
		}
	if (!f)
		return false;
	r = h->q;
	r.value = fmath_round(h->q.value * f * 100) / 100;
	if (!(gq = ground_figure_held(c->ground, &r)) ||
	    !(gq->q.kind == QUANTITY_NUMBER || quantity_class_of(&gq->q) == QC_MONEY))
		return false;
	total_fig(a, sizeof(a), r.value);
	snprintf(how, sizeof(how), "%s / %u", a, f);
	return grounded_how(c, h, how, gq->at);
}

/* How many figures an update's two terms are sought among. */
#define UPDATE_TERMS 16

/*
 * A bare amount said as what another becomes ("so the new amount should be
 * 1200.0", "needs to be updated to 1200.0" after "increased by 100.00" and
 * "for 1100.0"): the sum or the difference of two bare figures with
 * decimals the reply said grounded, in sentences before (its ledger) or in
 * its own before it. Only with such words before it in its sentence; to
 * the cent; says how ("1100 + 100").
 */
static bool updated_amount(struct claims *c, struct held *h, uint64_t end)
{
	static const char *const updates[] = {"new amount", "new total", "new rent", "new price",
					      "updated to", "increased to", "raised to",
					      "adjusted to", "changed to", "decreased to",
					      "reduced to"};
	uint64_t lo = h->from > c->start + 80 ? h->from - 80 : c->start;
	double t[UPDATE_TERMS];
	uint64_t t_at[UPDATE_TERMS];
	size_t n, k, i, j, nt = 0, at = (size_t)(h - c->held);
	char how[80], x[32], y[32];
	const char *p;

	(void)end;
	if (h->q.scale != 1 || !(h->q.value > 0) || (h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX)))
		return false;
	p = window_get(c->w, lo, h->from, &n);
	for (k = 0; k < ARRAY_SIZE(updates) && !has_lit(p, n, updates[k]); k++)
		;
	if (k == ARRAY_SIZE(updates))
		return false;
	for (i = 0; i < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER) && nt < UPDATE_TERMS / 2; i++)
		if (ledger_at(c, i)->bare) {
			t_at[nt] = ledger_at(c, i)->at;
			t[nt++] = ledger_at(c, i)->v;
		}
	for (i = 0; i < at && nt < UPDATE_TERMS; i++)
		if (c->held[i].lexed && c->chk[i] == CHECK_GROUNDED &&
		    c->held[i].q.kind == QUANTITY_NUMBER && c->held[i].q.decimals > 0 &&
		    c->held[i].q.scale == 1 && c->held[i].q.value > 0) {
			t_at[nt] = c->held[i].grounded_at;
			t[nt++] = c->held[i].q.value;
		}
	for (i = 0; i < nt; i++)
		for (j = i + 1; j < nt; j++) {
			double hi = MAX(t[i], t[j]), lo2 = MIN(t[i], t[j]);
			char op;

			if (fabs(hi + lo2 - h->q.value) < 0.005)
				op = '+';
			else if (fabs(hi - lo2 - h->q.value) < 0.005)
				op = '-';
			else
				continue;
			total_fig(x, sizeof(x), hi);
			total_fig(y, sizeof(y), lo2);
			snprintf(how, sizeof(how), "%s %c %s", x, op, y);
			return grounded_how(c, h, how, MIN(t_at[i], t_at[j]));
		}
	return false;
}

/*
 * A number check: a quantity stated by a grounded one in its context, or
 * anywhere, is grounded; one said where the grounding says another figure
 * of its unit, or near one, is reported as the near signal naming it; one
 * that matches nothing as the rule's signal.
 */
/*
 * A count or an ordinal in words ("two ways", "the first time") is checked
 * only for a repeat (check_quantity()): whether a grounded figure states
 * it. What else is near it or swapped in matters only where a hedge
 * ("about three") or a period may make that one stated.
 */
static bool only_stated(const struct held *h)
{
	return h->q.words && (h->q.kind == QUANTITY_COUNT || h->q.kind == QUANTITY_ORDINAL) &&
	       !(h->nl_flags & NUMLEX_APPROX) && !h->period;
}

/*
 * Totals, sums and averages of figures the reply already states or the
 * tools gave, said without their working (issue 36): all the items of
 * the list right above a total ("- Hotel: €720", "- Car: €180 (€60 per
 * day)", "- Meals: €180", then "Total: €1080"; ranges end by end), all
 * the amounts one list of the newest tool result gives ("Total spent:
 * 1360.0"), the midpoint of a range the reply said ("an average of 155.0
 * (midpoint of 110.0 - 200.0)"), and the sum of the two figures it said
 * last ("increased by 100.00 ... is 1100.0, so the new amount is
 * 1200.0"). Each is one sum, never a search over parts of one: a total
 * that leaves an item out, or is off by one, is no such sum.
 */
#define BLOCK_BACK 2048
#define BLOCK_ITEMS 16
#define BLOCK_LINE 512

/* A term as the sums below write it (total_fig()'s form, without libm's
 * floor(), which the program does not load: fmath.h). */
static void sum_fig(char *out, size_t n, double v)
{
	snprintf(out, n, v == fmath_round(v) ? "%.0f" : "%.2f", v);
}

/* Where the line that holds offset at starts, lo at the earliest (the
 * start of the input, or of what the window holds); UINT64_MAX when it
 * starts before lo. */
static uint64_t line_start_of(const struct claims *c, uint64_t at, uint64_t lo)
{
	const char *p;
	size_t n;

	const char *nl;

	lo = MAX(lo, c->w->base);
	p = window_get(c->w, lo, at, &n);
	nl = n ? memrchr(p, '\n', n) : NULL;
	return nl ? lo + (uint64_t)(nl - p) + 1 : lo == 0 ? 0 : UINT64_MAX;
}

/* Is p[0, n) a list item ("- ", "* ", "+ ", "1. ", "2) ")? Its indent in *indent. */
static bool item_line(const char *p, size_t n, size_t *indent)
{
	size_t i = 0, d;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	*indent = i;
	if (i + 1 < n && (p[i] == '-' || p[i] == '*' || p[i] == '+') && p[i + 1] == ' ')
		return true;
	for (d = i; d < n && d - i < 3 && isdigit((unsigned char)p[d]); d++)
		;
	return d > i && d + 1 < n && (p[d] == '.' || p[d] == ')') && p[d + 1] == ' ';
}

static bool blank_line(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)p[i]))
			return false;
	return true;
}

/* Is a figure of a a term of written arithmetic (its result stands for it)? */
static bool arith_term(const struct arith *a, size_t f)
{
	size_t r, t;

	for (r = 0; r < a->n_rel; r++)
		for (t = 0; t < a->rel[r].n_toks; t++)
			if (a->rel[r].toks[t].kind == ARITH_TOK_FIG && a->rel[r].toks[t].fig == f)
				return true;
	return false;
}

/* Is the text between two figures a range's dash or "to"? */
static bool range_gap(const char *p, size_t n)
{
	while (n && *p == ' ') {
		p++;
		n--;
	}
	while (n && p[n - 1] == ' ')
		n--;
	return (n == 1 && *p == '-') || (n == 3 && memcmp(p, "\xe2\x80\x93", 3) == 0) ||
	       (n == 2 && memcmp(p, "to", 2) == 0);
}

/*
 * The figures of line p[0, n) of currency cur (0: bare) that may be its
 * sum: not rates ("€60 per day", "€30 each"), percentages, counts of
 * units ("3 nights") nor terms of its written working. One, or two a
 * range joins: *lo and *hi. False otherwise (none, or more than that).
 */
static bool item_sum(const char *p, size_t n, uint8_t cur, struct arith *a, double *lo, double *hi)
{
	size_t f, k = 0, idx[2] = {0, 0};

	arith_scan(p, n, a);
	for (f = 0; f < a->n_fig; f++) {
		const struct arith_fig *x = &a->fig[f];

		if (x->cur != cur || x->rate || x->percent || x->units || arith_term(a, f))
			continue;
		if (k == 2)
			return false;
		idx[k++] = f;
	}
	if (k == 0)
		return false;
	*lo = *hi = arith_double(a->fig[idx[0]].v);
	if (k == 1)
		return true;
	if (!range_gap(p + a->fig[idx[0]].to, a->fig[idx[1]].from - a->fig[idx[0]].to))
		return false;
	*hi = arith_double(a->fig[idx[1]].v);
	return *hi > *lo;
}

/* Is one of words (lowercase) said in p[0, n), in any case? Asked of every
 * figure nothing else grounds: one pass, a word compared only where its
 * first letter is. */
static bool says_word(const char *p, size_t n, const char *const *words, size_t nw)
{
	uint32_t first = 0;
	size_t i, k;

	for (k = 0; k < nw; k++)
		first |= 1u << ((unsigned)(words[k][0] - 'a') & 31);
	for (i = 0; i < n; i++) {
		unsigned ch = (unsigned)((p[i] | 0x20) - 'a');

		if (ch >= 26 || !(first >> ch & 1))
			continue;
		for (k = 0; k < nw; k++)
			if (ch == (unsigned)(words[k][0] - 'a') && i + 1 < n &&
			    (p[i + 1] | 0x20) == words[k][1] && strlen(words[k]) <= n - i &&
			    strncasecmp(p + i, words[k], strlen(words[k])) == 0)
				return true;
	}
	return false;
}

/* Is one of words said in the n bytes before h in its sentence, or right after it? */
static bool word_near(const struct claims *c, const struct held *h, uint64_t end, size_t before,
		      size_t after, const char *const *words, size_t nw)
{
	const char *p;
	size_t n;

	p = window_get(c->w, h->from > c->start + before ? h->from - before : c->start, h->from, &n);
	if (says_word(p, n, words, nw))
		return true;
	p = window_get(c->w, h->to, MIN(end, h->to + after), &n);
	return says_word(p, n, words, nw);
}

/* Words that say a figure is a total. */
static const char *const total_words[] = {"total", "altogether", "combined", "in all"};

/*
 * Is v (of currency cur) a result the reply worked out in writing wrong, or
 * from terms nothing grounds ("Assume €300 per night ... = €1650")? A sum
 * resting on it is no sum of what the tools gave.
 */
static bool done_badly(const struct claims *c, double v, uint8_t cur)
{
	size_t k;

	for (k = 0; k < MIN(c->n_done, (size_t)ARITH_DONE); k++) {
		const struct arith_done *d = &c->done[(c->n_done - 1 - k) % ARITH_DONE];

		if (d->cur == cur && d->status != DONE_GROUNDED &&
		    fabs(arith_double(d->written) - v) < 0.005)
			return true;
	}
	return false;
}

/*
 * h, the first figure of a line that says a total ("**Total Minimum
 * Cost**: €1080", "Total: $990.0 - $1470.0"), no item of a list itself,
 * as the sum of the list right above that line: each of its two or more items (at one indent)
 * states one figure of h's currency or one range (item_sum()), and they
 * make h, end by end for a range.
 */
static bool block_total(struct claims *c, struct held *h, uint64_t end)
{
	const struct held *o = (h->nl_flags & NUMLEX_RANGE) ? range_other(c, h) : NULL;
	uint64_t ls = line_start_of(c, h->from, h->from > BLOCK_LINE ? h->from - BLOCK_LINE : 0);
	uint64_t lo = MAX(ls != UINT64_MAX && ls > BLOCK_BACK ? ls - BLOCK_BACK : 0, c->w->base);
	struct arith a;
	const char *p, *t;
	size_t n, i, m = 0, indent = SIZE_MAX, ind, len, nt;
	double tot_lo, tot_hi, sum_lo = 0, sum_hi = 0, x, y, want_lo, want_hi;
	char how[CLAIMS_TOTAL_HOW], f[32];
	bool said = false, range = false, high;
	uint8_t cur = 0;

	if (h->q.scale != 1 || ((h->nl_flags & NUMLEX_RANGE) && !o) || ls == UINT64_MAX)
		return false;
	/* the total's line: a total word, no figure before h */
	t = window_get(c->w, ls, MIN(end, h->to), &nt);
	if (nt < h->to - ls)
		return false;
	said = says_word(t, h->from - ls, total_words, 1);
	for (i = 0; i < h->from - ls; i++)
		if (isdigit((unsigned char)t[i]))
			return false;
	/* (a total that is the list's own last item, "- Total: €300", is
	 * ledger_total()'s, which reads it against every figure listed) */
	if (!said || item_line(t, nt, &ind))
		return false;
	arith_scan(t, nt, &a);
	for (i = 0; i < a.n_fig && ls + a.fig[i].to <= h->from; i++)
		;
	if (i == a.n_fig || ls + a.fig[i].from != h->from)
		return false;
	cur = a.fig[i].cur;
	tot_lo = tot_hi = arith_double(a.fig[i].v);
	if (o) {
		if (i + 1 >= a.n_fig || ls + a.fig[i + 1].to != h->to)
			return false;
		tot_hi = arith_double(a.fig[i + 1].v);
	}
	/* the items above, newest first */
	p = window_get(c->w, lo, ls, &n);
	while (n && m < BLOCK_ITEMS) {
		size_t e = n, b;

		/* p[b, e) is the line before; e is past its '\n' */
		e = n - 1;
		for (b = e; b > 0 && p[b - 1] != '\n'; b--)
			;
		if (b == 0 && lo > 0)
			return false; /* (a line read back only in part) */
		n = b;
		if (blank_line(p + b, e - b)) {
			if (m)
				break;
			continue;
		}
		if (!item_line(p + b, e - b, &ind)) {
			if (!m)
				return false;
			break;
		}
		if (indent == SIZE_MAX)
			indent = ind;
		if (ind != indent)
			return false;
		if (!item_sum(p + b, e - b, cur, &a, &x, &y) || done_badly(c, x, cur) ||
		    done_badly(c, y, cur))
			return false;
		range |= y != x;
		sum_lo += x;
		sum_hi += y;
		m++;
	}
	if (m < 2 || m == BLOCK_ITEMS || (range && !o))
		return false;
	want_lo = o ? tot_lo : h->q.value;
	want_hi = o ? tot_hi : h->q.value;
	if (fabs(sum_lo - want_lo) >= 0.005 || fabs(sum_hi - want_hi) >= 0.005)
		return false;
	/* how: this end's terms, in the list's order (read again, oldest first) */
	high = o && h->q.value == tot_hi;
	len = 0;
	how[0] = '\0';
	p = window_get(c->w, lo, ls, &n);
	{
		size_t e = n, b, k = 0;
		double v[BLOCK_ITEMS];

		while (k < m) {
			e = n - 1;
			for (b = e; b > 0 && p[b - 1] != '\n'; b--)
				;
			n = b;
			if (blank_line(p + b, e - b))
				continue;
			item_sum(p + b, e - b, cur, &a, &x, &y);
			v[k++] = high ? y : x;
		}
		while (k-- > 0 && len < sizeof(how)) {
			sum_fig(f, sizeof(f), v[k]);
			len += (size_t)snprintf(how + len, sizeof(how) - len, "%s%s", len ? " + " : "", f);
		}
	}
	return grounded_how(c, h, how, h->grounded_at);
}

/* Keeps the ranges of the sentence the grounding states, each end (range_midpoint()). */
static void ranges_keep(struct claims *c)
{
	size_t i;

	for (i = 0; i + 1 < c->n_held; i++) {
		const struct held *h = &c->held[i], *o = &c->held[i + 1];
		struct said_range *r;

		if (!h->lexed || !(h->nl_flags & NUMLEX_RANGE) || range_other(c, h) != o ||
		    c->chk[i] != CHECK_GROUNDED || c->chk[i + 1] != CHECK_GROUNDED ||
		    h->q.unit_hash != o->q.unit_hash || h->q.scale != 1 || o->q.scale != 1 ||
		    !(quantity_class_of(&h->q) == QC_MONEY || h->q.kind == QUANTITY_NUMBER))
			continue;
		r = &c->ranges[c->n_ranges++ % CLAIMS_RANGES];
		*r = (struct said_range){MIN(h->q.value, o->q.value), MAX(h->q.value, o->q.value),
					 h->q.unit_hash, h->grounded_at};
		i++;
	}
}

/*
 * h said as an average or a midpoint ("an average price of 155.0 per day
 * (midpoint of the price range)") of a range the reply said as the
 * grounding states it ("110.0 - 200.0"), one of its CLAIMS_RANGES newest:
 * their mean, to the cent.
 */
static bool range_midpoint(struct claims *c, struct held *h, uint64_t end)
{
	static const char *const words[] = {"averag", "midpoint", "mid-point", "middle"};
	char how[80], a[32], b[32];
	size_t k;

	if (!c->n_ranges || (h->nl_flags & NUMLEX_RANGE) ||
	    !word_near(c, h, end, LEDGER_AVG_BEFORE, 48, words, ARRAY_SIZE(words)))
		return false;
	for (k = 0; k < MIN(c->n_ranges, (size_t)CLAIMS_RANGES); k++) {
		const struct said_range *r = &c->ranges[(c->n_ranges - 1 - k) % CLAIMS_RANGES];

		if (r->unit_hash != h->q.unit_hash || fabs((r->lo + r->hi) / 2 - h->q.value) >= 0.005)
			continue;
		sum_fig(a, sizeof(a), r->lo);
		sum_fig(b, sizeof(b), r->hi);
		snprintf(how, sizeof(how), "(%s + %s) / 2", a, b);
		return grounded_how(c, h, how, r->at);
	}
	return false;
}

/*
 * h said as a total ("Total amount spent: 1360.0") of every amount one
 * list of the newest tool result gives (ground_list_total()).
 */
static bool tool_list_total(struct claims *c, struct held *h)
{
	char how[CLAIMS_TOTAL_HOW];
	uint64_t at;

	if ((h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX)) ||
	    !ground_list_total(c->ground, &h->q, how, sizeof(how), &at))
		return false;
	return grounded_how(c, h, how, at);
}

/*
 * h said as what two figures come to ("increased by 100.00 ... is for
 * 1100.0, so the new amount should be 1200.0"): the sum of the two the
 * reply said last, in its sentence or the one before (its ledger's two
 * newest of h's unit, no rate, charge or total among them).
 */
static bool last_two_sum(struct claims *c, struct held *h)
{
	double v[2];
	uint64_t at = 0;
	size_t m = 0, k, i = (size_t)(h - c->held);
	char how[CLAIMS_LEDGER_HOW + 8], a[32], b[32];

	/* (never said as a total, sum_of_said(): a total is all a list's
	 * items, never its last two, ledger_total()) */
	if (h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX))
		return false;
	/* those of its own sentence before it first (decided already), then the ledger's */
	while (i-- > 0 && m < 2) {
		const struct held *o = &c->held[i];

		if (!o->lexed || o->term || c->chk[i] != CHECK_GROUNDED || o->q.scale != 1 ||
		    (o->nl_flags & NUMLEX_RANGE) || o->per || o->other_role || o->total_role ||
		    !(o->q.value > 0))
			continue;
		if (h->q.kind == QUANTITY_NUMBER ? o->q.kind != QUANTITY_NUMBER || !o->q.decimals
						 : o->q.unit_hash != h->q.unit_hash)
			continue;
		v[m++] = o->q.value;
		at = o->grounded_at;
	}
	for (k = 0; m < 2 && k < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER); k++) {
		const struct ledger_fig *p = ledger_at(c, k);

		if (!ledger_unit(p, &h->q) || p->per || p->total)
			break;
		v[m++] = p->v;
		at = p->at;
	}
	if (m < 2 || fabs(v[0] + v[1] - h->q.value) >= 0.005)
		return false;
	sum_fig(a, sizeof(a), v[1]);
	sum_fig(b, sizeof(b), v[0]);
	snprintf(how, sizeof(how), "%s + %s", a, b);
	return grounded_how(c, h, how, at);
}

/* The sums above, for a figure nothing else grounds. */
static bool sum_of_said(struct claims *c, struct held *h, uint64_t end)
{
	if (h->q.scale != 1 || !(h->q.value > 0) ||
	    !(quantity_class_of(&h->q) == QC_MONEY || h->q.kind == QUANTITY_NUMBER))
		return false;
	/* (said as a total: of a list; else a midpoint, or of two) */
	if (word_near(c, h, end, 48, 16, total_words, ARRAY_SIZE(total_words)))
		return block_total(c, h, end) || tool_list_total(c, h);
	return range_midpoint(c, h, end) || last_two_sum(c, h);
}

static enum check check_quantity(struct claims *c, struct held *h, uint64_t end)
{
	const struct rule *r = &c->rs->rules[h->rule];
	const struct ground_quantity *gq, *by_day = NULL, *otherwise = NULL, *said;
	struct ground_context ctx;
	enum ground_verdict v;
	uint32_t reported;
	uint64_t at;
	const char *p;
	size_t n;
	bool money = false, month_only;
	size_t results = 0;
	unsigned role = 0;
	const struct held *day;

	/* "open 24 hours a day" where the grounding gives the days their
	 * hours: each day said (every day when none is) must be open from
	 * midnight ("0:0-0:0"); the day the furthest from it is named. */
	if (h->all_day) {
		unsigned days = days_said(c, h, end);

		/* With no day's hours given ("hours": null), only the grounding's
		 * own "open 24/7" says so (scan.c holds it as "time:all-day"). */
		if (!ground_days_held(c->ground))
			return ground_holds_unit(c->ground, quantity_unit_hash("time:all-day"))
				       ? CHECK_GROUNDED
				       : CHECK_REPORT;
		by_day = ground_check_days(c->ground, &h->q, days ? days : GROUND_DAYS_ALL);
		if (!by_day) {
			if ((gq = ground_day_time(c->ground)))
				h->grounded_at = gq->at;
			return CHECK_GROUNDED;
		}
		return report_against(c, h, by_day, by_day, NULL);
	}
	/* "open seven days a week" is checked only against days' hours (as
	 * "open six days a week" is, below), never as a duration of its own. */
	if (h->week && !ground_days_held(c->ground))
		return CHECK_SILENT;
	if (clock_format(c, h, end))
		return CHECK_SILENT;
	/* A citation's year ("Lee and Rossi (2018) showed") likewise, and that
	 * is all: beside the source's "Kim and Rossi (2021) showed" it is
	 * another paper (the citation rules' concern), not a changed year. */
	if (h->nl_flags & NUMLEX_CITATION) {
		if (!(gq = ground_figure_held(c->ground, &h->q)))
			return CHECK_REPORT;
		h->grounded_at = gq->at;
		return CHECK_GROUNDED;
	}
	/* A bare number ("accelerate 11 737 MAX deliveries") is grounded by
	 * any figure written the same way (the newest is where it is)... */
	if (h->q.kind == QUANTITY_NUMBER) {
		const struct ground_quantity *list =
			counts_results(c, h, end) ? ground_newest_list(c->ground) : NULL;

		/* "I found 4": the newest list's length, whatever else says 4... */
		if (list && list->q.value == h->q.value) {
			h->grounded_at = list->at;
			return CHECK_GROUNDED;
		}
		if (!(gq = ground_figure_held(c->ground, &h->q)))
			return ident_held(c, h) || worked_out(c, h) || ledger_bare(c, h, end) ||
				       sum_of_said(c, h, end) ||
					       group_counted(c, h) || percent_as_fraction(c, h, end) ||
					       bracketed_count(c, h) || share_of(c, h, end) ||
					       updated_amount(c, h, end) || urls_listed(c, h) ||
					       (h->q.decimals > 0 && party_product(c, h, end))
				       ? CHECK_GROUNDED : CHECK_REPORT;
		h->grounded_at = gq->at;
		/* ...and not what else says 5, where the list has 4. */
		if (list)
			return report_against(c, h, list, NULL, NULL);
	}
	/* ...unless it is said between the very words, both of them, that the
	 * grounding puts around another bare number and not around its own.
	 * With no unit to go by, the one nearest word on a side is too little;
	 * and a bare figure that may be a year is left alone: "Lee and Rossi
	 * (2018) showed" beside the source's "Kim and Rossi (2021) showed" is
	 * another paper, not a changed year. */
	if (h->q.kind == QUANTITY_NUMBER && h->q.value >= 1900 && h->q.value < 2100 &&
	    h->q.value == floor(h->q.value))
		return CHECK_GROUNDED;
	if (days_a_week_held(c, h, end)) {
		/* where the grounding gives a day its hours, the newest of them */
		if ((gq = ground_day_time(c->ground)))
			h->grounded_at = gq->at;
		return CHECK_GROUNDED;
	}
	/* "500 * 5 = 2500" of the user's "500 per day" and "5 days": a count
	 * the grounding gives, multiplied by; the words around it are the
	 * other term's, no figure swapped for it */
	if (h->q.kind == QUANTITY_NUMBER && h->q.decimals == 0 && h->q.value >= 2 &&
	    h->q.value <= 366 && written_term(c, h, end))
		return CHECK_GROUNDED;
	if (h->q.kind == QUANTITY_NUMBER) {
		const char *b;
		size_t nb;

		b = window_get(c->w, MAX(c->start, h->from > 160 ? h->from - 160 : 0), h->from, &nb);
		p = window_get(c->w, h->to, MIN(end, h->to + 160), &n);
		ground_context_nearest(b + nb, nb, p, n, &ctx);
		gq = ground_swapped_bare(c->ground, &h->q, &ctx);
		if (!gq)
			gq = otherwise = said_otherwise(c, h);
		if (!gq)
			return CHECK_GROUNDED;
		v = GROUND_SWAPPED;
	} else {
		/* The words on both sides of it in its sentence. */
		p = window_get(c->w, MAX(c->start, h->from > 160 ? h->from - 160 : 0), h->from, &n);
		ground_context_of(p + n, n, &ctx);
		p = window_get(c->w, h->from, h->to, &n);
		ground_context_words(p, n, &ctx);
		p = window_get(c->w, h->to, MIN(end, h->to + 160), &n);
		ground_context_after(p, n, &ctx);
		gq = only_stated(h) ? ground_stated_quantity(c->ground, &h->q, &ctx, &v)
				    : ground_match_quantity(c->ground, &h->q, &ctx,
							    r->near.signal ? r->near.tolerance : 0, &v);
		/* "10:00 AM - 11:00 AM": one record's start and end, said together. */
		if (v != GROUND_STATED && (h->nl_flags & NUMLEX_RANGE) && (said = range_held(c, h))) {
			gq = said;
			v = GROUND_STATED;
		}
		/* A new item's date or time, under "Suggested activities:": the
		 * answer's proposal, not a record's date changed; unless the
		 * user's request fixed a day (a time) that it does not keep to,
		 * which is then what it differs from. */
		if (v != GROUND_STATED && (h->q.kind == QUANTITY_DATE || h->q.kind == QUANTITY_TIME) &&
		    proposed(c, h)) {
			if (!(said = ground_prompt_other(c->ground, &h->q)))
				return CHECK_SILENT;
			gq = said;
			v = GROUND_NEAR;
		}
		/* "I found 3 messages" of a list its key calls "emails": a count
		 * of results, whatever the noun, is the newest list's length. */
		if (v != GROUND_STATED && h->q.kind == QUANTITY_COUNT && counts_results(c, h, end) &&
		    (said = ground_newest_list(c->ground)) && said->q.value == h->q.value) {
			gq = said;
			v = GROUND_STATED;
		}
		/* "Charlie: 2 messages", "Alice sent 3 messages": as many items
		 * of the turn's lists say that value of a field. */
		if (v != GROUND_STATED && h->q.kind == QUANTITY_COUNT && !h->q.items &&
		    group_counted(c, h))
			return CHECK_GROUNDED;
		if (v != GROUND_STATED && h->q.kind == QUANTITY_COUNT &&
		    (count_product(c, h) || count_per_span(c, h) || urls_listed(c, h)))
			return CHECK_GROUNDED;
		/* "it ends at 5 PM" of "1 PM" and "4 hours", "1 hour and 30
		 * minutes" from 11:00 to 12:30: worked out from times said */
		if (v != GROUND_STATED &&
		    (h->q.kind == QUANTITY_TIME || quantity_class_of(&h->q) == QC_DURATION) &&
		    !(h->nl_flags & NUMLEX_RANGE) && (clock_arith(c, h) || clock_gap_after(c, h)))
			return CHECK_GROUNDED;
		/* "The event lasts 2 hours" of a record's start and end times */
		if (v != GROUND_STATED && quantity_class_of(&h->q) == QC_DURATION && h->q.scale >= 60 &&
		    !(h->nl_flags & NUMLEX_RANGE)) {
			char how[32];

			if (ground_time_span(c->ground, h->q.value, how, sizeof(how), &h->grounded_at))
				return grounded_how(c, h, how, h->grounded_at);
		}
	}
	/* A sum of money in a total's, a charge's or a refund's role is held
	 * to what the figures make (check_total_stated(), _computed()). */
	money = quantity_class_of(&h->q) == QC_MONEY && h->q.scale == 1 && h->q.value > 0;
	role = money ? money_role(c, h, end) : 0;
	h->total_role = (role & ROLE_TOTAL) && !(role & ROLE_PER);
	h->per = (role & ROLE_PER) || (money && rate_of_time(c, h, end));
	h->other_role = (role & (ROLE_CHARGE | ROLE_REFUND | ROLE_DIFF)) != 0;
	/* a total of the sums the answer worked out since its last total */
	results = money && (role & ROLE_TOTAL) && !(role & ROLE_PER) &&
		  results_total(c, h, c->n_results, false) ? c->n_results : 0;
	if (money && (role & ROLE_TOTAL))
		c->n_results = 0; /* (the sums stay in c->results until this sentence's arithmetic) */
	/* A deadline ("by 2027") or a study's year ("a 2024 study") that
	 * shares no word with the grounding's 2023 is not that 2023 altered:
	 * it is said of something else. */
	if (v == GROUND_NEAR && h->q.kind == QUANTITY_YEAR && ground_context_shared(&ctx, &gq->ctx) == 0 &&
	    year_of_other_role(c, h, end))
		v = GROUND_NONE;
	/* "May 26, 2287" where the tool gives May 26 only as 2024-05-26: that
	 * date, its year changed (whatever else says 2287 or is near it). */
	if (h->q.kind == QUANTITY_YEAR && (day = date_of_year(c, h, &month_only)) && !month_only &&
	    date_year_changed(c, h, day))
		return CHECK_REPORT;
	/* A figure the grounding gives of the very period the answer says it
	 * of ("$2.39 in the third quarter of 2019") is that one, not one said
	 * in its words of another period ("$1.87 in the third quarter of 2020,
	 * down from $2.39 in the third quarter of 2019"). */
	if (v == GROUND_SWAPPED && h->period &&
	    quantity_periods_differ(h->period, gq->ctx.period) &&
	    (said = ground_said_of(c->ground, &h->q, h->period))) {
		gq = said;
		v = GROUND_STATED;
	}
	/* "over $180 million" where the grounding says "$181.3 million" in
	 * those words: that figure hedged, not another swapped in. */
	if ((v == GROUND_SWAPPED || v == GROUND_NEAR) && (h->nl_flags & NUMLEX_APPROX)) {
		const struct ground_quantity *hq = gq;
		struct ground_context none;
		enum ground_verdict vh = v;

		/* (a swap in its words may hide the figure it hedges: "nearly
		 * $182 million, beating the $150 million forecast"; not one the
		 * grounding bounds as well: "at least $7" for "at least $6") */
		if (!hedge_of(c, h, hq) && (!hq || hq->ctx.bound == 0)) {
			memset(&none, 0, sizeof(none));
			hq = ground_match_quantity(c->ground, &h->q, &none, 0.1, &vh);
		}
		if ((vh == GROUND_NEAR || vh == GROUND_SWAPPED) && hedge_of(c, h, hq)) {
			gq = hq;
			v = GROUND_STATED;
		}
	}
	/* A time of opening hours that only a clock's reading states (a
	 * review's "2016-03-12 17:30:24") is stated by nothing. */
	if (h->q.kind == QUANTITY_TIME && v == GROUND_STATED && clock_reading(gq->text) &&
	    opening_time(c, h, end)) {
		gq = NULL;
		v = GROUND_NONE;
	}
	/* A time said of days ("from 7am to 9:30pm on weekdays") is held
	 * against each of those days' hours where the grounding gives them;
	 * unless prose of the grounding says it in the answer's words, two or
	 * more ("a Monday-Friday happy hour which went to 7pm": not the
	 * opening hours). */
	if (h->q.kind == QUANTITY_TIME &&
	    !(v == GROUND_STATED && gq->days == 0 && ground_context_shared(&ctx, &gq->ctx) >= 2)) {
		by_day = ground_check_days(c->ground, &h->q, days_said(c, h, end));
		if (by_day) {
			gq = by_day;
			v = GROUND_SWAPPED;
		}
	}
	/* Four digits counted ("our forecast for 2021 remains") may be the year
	 * the grounding states: either reading grounds them. */
	if (v != GROUND_STATED && h->q.kind == QUANTITY_COUNT && !(h->nl_flags & NUMLEX_RANGE)) {
		uint64_t lo = h->from > c->w->base ? h->from - 1 : h->from;
		const struct ground_quantity *gy;
		enum ground_verdict vy;
		struct quantity y;

		p = window_get(c->w, lo, h->to, &n);
		if (quantity_may_be_year(&h->q, p, n, (size_t)(h->from - lo))) {
			quantity_set(&y, QUANTITY_YEAR, "date:year", h->q.value, 1);
			gy = ground_match_quantity(c->ground, &y, &ctx, 0, &vy);
			if (vy == GROUND_STATED) {
				gq = gy;
				v = vy;
			}
		}
	}
	if (v == GROUND_STATED && (h->period || (h->nl_flags & (NUMLEX_ABOVE | NUMLEX_BELOW))) &&
	    quantity_written(&gq->q) == quantity_written(&h->q) && (otherwise = said_otherwise(c, h))) {
		gq = otherwise;
		v = GROUND_SWAPPED;
	}
	if (v == GROUND_STATED && (reported = reported_instead(c, h, &at))) {
		char text[QUANTITY_PERIOD_TEXT];
		size_t off = c->text.len;

		/* The period is what differs: reported whole, as a quarter. */
		if (c->class_rule[QC_QUARTER] >= 0 && h->expr_from < h->from) {
			p = window_get(c->w, h->expr_from, MIN(h->to, h->expr_from + CLAIMS_TEXT_CAP), &n);
			if (buf_add(&c->text, p, n) == 0) {
				h->rule = (size_t)c->class_rule[QC_QUARTER];
				h->column = column_of(c, h->expr_from);
				h->from = h->expr_from;
				h->text_off = off;
				h->text_len = n;
				h->truncated = n < h->to - h->from;
			}
			off = c->text.len;
		}
		quantity_period_text(reported, text, sizeof(text));
		h->grounded_at = at;
		if (buf_add(&c->text, text, strlen(text) + 1) == 0)
			h->source_off = off;
		return CHECK_REPORT;
	}
	/* "built before 1990" where the grounding dates it 1985: a year said
	 * as a side of a bound is grounded by one on that side (one of the
	 * other side is what it differs from; itself said as the other side,
	 * "after 1990", is said_otherwise()'s). */
	if ((v == GROUND_NEAR || v == GROUND_SWAPPED) && gq != otherwise &&
	    year_on_side(&gq->q, &h->q, h->nl_flags))
		v = GROUND_STATED;
	if (v == GROUND_STATED) {
		h->grounded_at = gq->at;
		/* ("Total Cost for Paris: €1000 (2 days)" at €500 a day: the
		 * figure a tool gives as another price, here a rate times a span) */
		if (money && check_total_stated(c, h, role, gq) == CHECK_REPORT &&
		    !span_product(c, h, end, false) && !words_product(c, h, end))
			return CHECK_REPORT;
		if (quantity_class_of(&h->q) == QC_MONEY)
			c->said[c->n_said++ % GROUND_DERIVE_SAID] = h->q.value;
		/* an item of the answer's own list, for a total said after it (a
		 * rate over time, "€59/day", is no item of a sum) */
		if (money && rate_of_time(c, h, end)) {
			c->rates_at[c->n_rates % CLAIMS_TOTAL_ITEMS] = gq->at;
			c->rates[c->n_rates++ % CLAIMS_TOTAL_ITEMS] = h->q.value;
		} else if (money && !(role & ~ROLE_PER) && !is_item(c, h->q.value) &&
			   c->n_totals < CLAIMS_TOTAL_ITEMS) {
			c->totals[c->n_totals++] = h->q.value;
			c->totals_at = gq->at;
		}
		return CHECK_GROUNDED;
	}
	/* "May 27th, the day before your meeting on the 28th", "tomorrow (May
	 * 21)": resolved against the day it is said relative to. */
	if (h->q.kind == QUANTITY_DATE && h->q.scale == 1 && relative_date(c, h, end))
		return CHECK_GROUNDED;
	/* "Saturday (May 18th)" where an email of 2024-05-13 says "on Saturday
	 * 18th": the month its weekday and date leave. */
	if (h->q.kind == QUANTITY_DATE && h->q.scale == 1 && weekday_day(c, h, end))
		return CHECK_GROUNDED;
	if (h->q.kind == QUANTITY_DATE && h->q.scale == 1 && upcoming_weekday(c, h, end))
		return CHECK_GROUNDED;
	if (h->q.kind == QUANTITY_DATE && h->q.scale == 1 && (h->nl_flags & NUMLEX_RANGE) &&
	    nights_range(c, h, end))
		return CHECK_GROUNDED;
	/* A count or an ordinal in words ("two ways", "the first time") is
	 * checked only for a repeat. */
	if (h->q.words && (h->q.kind == QUANTITY_COUNT || h->q.kind == QUANTITY_ORDINAL))
		return CHECK_SILENT;
	if (v == GROUND_NONE && h->q.kind == QUANTITY_IDENT &&
	    strncmp(h->q.unit, QUANTITY_STREET, strlen(QUANTITY_STREET)) == 0)
		return street_as_number(c, h);
	/* A phone number is another number, not a changed one, unless it
	 * differs from the grounded one in a digit or few (said in its place
	 * or not); and one matching none of the phone numbers the grounding
	 * gives is reported as ungrounded (with none given, it is silent, as
	 * other names are). */
	if (quantity_class_of(&h->q) == QC_PHONE) {
		if (v == GROUND_SWAPPED && !isfinite(quantity_distance(&h->q, &gq->q)))
			v = GROUND_NONE;
		if (v == GROUND_NONE)
			return ground_holds_unit(c->ground, h->q.unit_hash) ? CHECK_REPORT
									    : CHECK_SILENT;
	}
	/* A year, month, time or temperature is checked where the grounding
	 * says one like it: "A 2023 study", "by March 2027", "at 5 pm"
	 * against tool output that dates nothing claim nothing it could
	 * contradict; but "since 1997" does (since_said), and so does a day
	 * of a month ("from August 28th to September 4th"): a summary's dates
	 * that its source never gives are its own (RAGTruth dev: one more
	 * invented span, no false alarm; times so checked made SummEdits'
	 * false alarms 3 -> 20 of 1,648, in dialogue summaries); not one
	 * ahead of today (date_ahead); and a date's year that nothing gives,
	 * where the grounding gives years ("transactions for March 2285" over
	 * records of 2022): a record's date, not a plan. */
	if (v == GROUND_NONE && h->q.kind > QUANTITY_BASE && !since_said(c, h) &&
	    !(date_of_year(c, h, &month_only) &&
	      ground_holds_unit(c->ground, quantity_unit_hash("date:year"))) &&
	    !(h->q.kind == QUANTITY_DATE && h->q.scale == 1 && !date_ahead(c, h, end)) &&
	    !(h->q.kind == QUANTITY_TIME && ground_holds_unit(c->ground, h->q.unit_hash)))
		return CHECK_SILENT;
	/* "about 60 days" for 66 (near, where no other figure is said as
	 * the answer says this one): what an approximation says; not "around
	 * 93.2%" for 92%, which claims a precision the grounding lacks. */
	if (v == GROUND_NEAR && (h->nl_flags & NUMLEX_APPROX) &&
	    quantity_distance(&h->q, &gq->q) <= 0.1 && h->q.decimals <= gq->q.decimals) {
		h->grounded_at = gq->at;
		return CHECK_GROUNDED;
	}
	/* A sum computed from grounded ones ("$290" of a $145 fare for two
	 * passengers, a difference of fares) is grounded, and says how; not
	 * a range or an approximation, which estimate rather than compute. */
	/* a figure the reply derived before, said again, approximated or not */
	if (money && v != GROUND_SWAPPED && ledger_repeat(c, h))
		return CHECK_GROUNDED;
	/* "around 60 euros on your two meals at Le Baratin" (2 x 30), "Each
	 * person's share: $60" of $120: a price times what its sentence
	 * counts, or one's share of a figure; hedged or not, and where the
	 * grounding says another figure in its words */
	if (money && !(h->nl_flags & NUMLEX_RANGE) && (share_of(c, h, end) || words_product(c, h, end)))
		return CHECK_GROUNDED;
	/* a range said as the sum of the ranges listed above it, end by end */
	if (money && v != GROUND_SWAPPED && (h->nl_flags & NUMLEX_RANGE) &&
	    !(h->nl_flags & NUMLEX_APPROX) && sum_of_said(c, h, end))
		return CHECK_GROUNDED;
	/* "€110-200 per night x 3 nights = €330-600": each end of a range
	 * a rate times the span its sentence, or the one before, says */
	if (money && v != GROUND_SWAPPED && (h->nl_flags & NUMLEX_RANGE) &&
	    !(h->nl_flags & NUMLEX_APPROX) && span_product(c, h, end, true))
		return CHECK_GROUNDED;
	if (v != GROUND_SWAPPED && !(h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX))) {
		bool short_by = false;
		char how[96];
		size_t off = c->text.len;
		int k = money ? check_total_computed(c, h, role) : -1;

		if (worked_out(c, h))
			return CHECK_GROUNDED;
		if (money && span_product(c, h, end, false))
			return CHECK_GROUNDED;
		if (results && results_total(c, h, results, true))
			return CHECK_GROUNDED;
		/* of the reply's own figures: all it listed, a net of two, a mean */
		if (money && ((role & ROLE_TOTAL) ? !(role & ROLE_PER) &&
						    ledger_total(c, h, k >= 0 ? NULL : &short_by)
						  : ledger_pair(c, h, false) || ledger_average(c, h, end)))
			return CHECK_GROUNDED;
		if (k >= 0)
			return (enum check)k;
		if (short_by)
			return CHECK_REPORT;
		if (ground_derive(c->ground, &h->q, c->said, MIN(c->n_said, (size_t)GROUND_DERIVE_SAID),
				  how, sizeof(how), &h->grounded_at)) {
			if (buf_add(&c->text, how, strlen(how) + 1) == 0)
				h->source_off = off;
			return CHECK_GROUNDED;
		}
		/* a total, sum or average of figures said already, without working */
		if (money && sum_of_said(c, h, end))
			return CHECK_GROUNDED;
	}
	if (money && v != GROUND_SWAPPED && !(h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX)) &&
	    near_items_total(c, h, role, r->near.signal ? r->near.tolerance : 0))
		return CHECK_REPORT;
	return report_against(c, h, gq, by_day, otherwise);
}

/*
 * The capitalised word right before the bare number at from ("Prisma 6",
 * "Toby 3632", "Route 66", "ID: 7"), whose digits the number is: its
 * length, its bytes at *name, the bytes from its start to the number in
 * *span; 0 when there is none.
 */
static size_t name_before(const struct claims *c, uint64_t from, const char **name, size_t *span)
{
	size_t n, k, gap;
	const char *s = window_get(c->w, c->start, from, &n);

	k = quantity_name_before(s, n, &gap);
	if (k) {
		*name = s + n - gap - k;
		*span = k + gap;
	}
	return k;
}

/* True when [from, to) overlaps a pattern match held (asked in order of from). */
static bool in_match(struct claims *c, uint64_t from, uint64_t to)
{
	while (c->lex_cur < c->lex_matches && c->held[c->lex_cur].from < to) {
		c->lex_max_to = MAX(c->lex_max_to, c->held[c->lex_cur].to);
		c->lex_cur++;
	}
	return c->lex_max_to > from;
}

/*
 * "open 24 hours a day", "open 24/7", "open seven days a week": the length
 * of the phrase that starts at from (the lexer's fixed phrase, from to),
 * when "open" is one of the three words right before it; else 0. *week:
 * it counts the days, not the hours. A claim of when a place is open,
 * which opening hours can deny; "24/7 support" is no such claim.
 */
static size_t open_phrase(struct claims *c, uint64_t from, uint64_t to, bool *week)
{
	static const struct {
		const char *num, *tail;
		bool week;
	} phrases[] = {
		{"24", " hours a day", false}, {"24", "/7", false},
		{"7", " days a week", true}, {"seven", " days a week", true},
	};
	const char *p;
	size_t n, i, k, m = 0;

	p = window_get(c->w, from, to + 16, &n);
	for (k = 0; k < ARRAY_SIZE(phrases); k++) {
		size_t a = strlen(phrases[k].num), b = strlen(phrases[k].tail);

		if (n >= a + b && strncasecmp(p, phrases[k].num, a) == 0 &&
		    strncasecmp(p + a, phrases[k].tail, b) == 0) {
			m = a + b;
			*week = phrases[k].week;
			break;
		}
	}
	if (m == 0)
		return 0;
	n = m;
	p = window_get(c->w, MAX(c->start, from > 32 ? from - 32 : 0), from, &i);
	/* "open" among the three words right before ("open 24/7", "open for
	 * business 24 hours a day"), nothing but blanks between them */
	for (k = 0; k < 3; k++) {
		size_t e;

		while (i > 0 && (p[i - 1] == ' ' || p[i - 1] == '\t'))
			i--;
		for (e = i; i > 0 && isalpha((unsigned char)p[i - 1]); i--)
			;
		if (e == i)
			return 0;
		if (e - i == 4 && strncasecmp(p + i, "open", 4) == 0)
			return n;
	}
	return 0;
}

/* Holds a quantity the lexer found in the sentence being decided. */
static int on_lexed(void *ctx, const struct numlex_item *it)
{
	struct claims *c = ctx;
	const char *s, *name;
	struct held *h;
	uint64_t base = c->start, from, to;
	struct quantity q = it->q;
	uint32_t period;
	int rule, role;
	size_t n, k = 0, span = 0;
	bool all_day = false, week = false;

	/* "$1.30 to $1.40 for Q4 2019": the figure held before its period
	 * was read is said of it. */
	role = c->bind_periods
		       ? numlex_period_feed(&c->periods, c->lex_text, c->lex_len, it, &period)
		       : NUMLEX_PERIOD_OTHER;
	if (role == NUMLEX_PERIOD_BINDS)
		for (n = c->per_first; n < c->per_end; n++)
			c->held[n].period = period;
	else if (role == NUMLEX_PERIOD_FIGURE)
		c->per_first = c->per_end = c->n_held;
	if (it->flags & NUMLEX_INLINE_ITEM) {
		if (grow(&c->inl, &c->cap_inl, c->n_inl + 1, sizeof(*c->inl)) < 0)
			return -ENOMEM;
		c->inl[c->n_inl++] = (struct inline_item){it->q.value, SIZE_MAX};
	}
	if ((it->flags & NUMLEX_FIXED_PHRASE) && (k = open_phrase(c, base + it->from, base + it->to, &week))) {
		/* a time of every hour of its days, or the count of its days:
		 * held against their hours */
		all_day = !week;
		if (all_day)
			quantity_set(&q, QUANTITY_TIME, "time:clock", 0, 1);
	} else if (it->flags & (NUMLEX_NOT_CLAIM | NUMLEX_IMPLIED)) {
		/* (and "over the last decade": loose talk, not a figure) */
		return 0;
	}
	/* A bare number in words ("one of them") claims nothing, nor one inside
	 * a match, nor a citation's year there ("et al. (2024)" is the
	 * citation's). One after a name is the name's digits: compared where
	 * the grounding names the same thing ("Toby 6362" against "Toby
	 * 3632"), as "Windows 11" is. */
	if ((it->flags & NUMLEX_CITATION) && in_match(c, base + it->from, base + it->to))
		return 0;
	if (q.kind == QUANTITY_NUMBER &&
	    (q.words || in_match(c, base + it->from, base + it->to) ||
	     ((k = name_before(c, base + it->from, &name, &span)) &&
	      !quantity_set_name(&q, name, k, q.value))))
		return 0;
	/* "for 2 passengers": the party a total of the answer is for */
	if (q.kind == QUANTITY_COUNT && !q.words && q.value >= 2 && q.value <= 9 &&
	    ground_party_noun(&q))
		c->party = (unsigned)q.value;
	rule = c->class_rule[quantity_class_of(&q)];
	if (rule < 0)
		return 0;
	/* A range is reported whole; a date's year or a quarter's, as its part;
	 * a name's digits with the name. */
	from = base + ((it->flags & NUMLEX_RANGE) ? it->from : it->part_from) -
	       (k && !all_day && !week ? span : 0);
	to = all_day ? base + it->from + k : base + ((it->flags & NUMLEX_RANGE) ? it->to : it->part_to);
	if (grow(&c->held, &c->cap_held, c->n_held + 1, sizeof(*c->held)) < 0)
		return -ENOMEM;
	s = window_get(c->w, from, MIN(to, from + CLAIMS_TEXT_CAP), &n);
	h = &c->held[c->n_held];
	count_columns(c, from);
	*h = (struct held){
		.rule = (size_t)rule, .from = from, .to = to, .line = c->line + 1,
		.column = c->col_cp + 1, .text_off = c->text.len, .text_len = n,
		.truncated = n < to - from, .lexed = true, .nl_flags = it->flags, .q = q,
		.period = role == NUMLEX_PERIOD_FIGURE || role == NUMLEX_PERIOD_SAME ? period : 0,
		.quarter_year = c->bind_periods ? c->periods.quarter_year : 0,
		.compared = c->bind_periods && c->periods.quarter_year_compared,
		.expr_from = base + it->from,
		.all_day = all_day, .week = week,
	};
	if (buf_add(&c->text, s, n) < 0)
		return -ENOMEM;
	if (it->flags & NUMLEX_INLINE_ITEM)
		c->inl[c->n_inl - 1].held = c->n_held;
	c->n_held++;
	if (role == NUMLEX_PERIOD_FIGURE || role == NUMLEX_PERIOD_SAME)
		c->per_end = c->n_held;
	return 0;
}

/*
 * The numbers of a list run inline ("... 3. Hotel X, 4. Agence Y, 5. ...")
 * among the sentence's NUMLEX_INLINE_ITEM numbers: each one more than the
 * one before it (on its line, in this sentence or the last one that had
 * any) or one less than the one after it. They are labels: "Total: 5."
 * alone still says five.
 */
static void label_inline_items(struct claims *c)
{
	double prev = c->inl_line == c->line ? c->inl_last : -1;
	size_t k;

	for (k = 0; k < c->n_inl; k++) {
		double v = c->inl[k].value;

		if ((v == prev + 1 || (k + 1 < c->n_inl && c->inl[k + 1].value == v + 1)) &&
		    c->inl[k].held != SIZE_MAX)
			c->held[c->inl[k].held].label = true;
		prev = v;
	}
	if (c->n_inl > 0) {
		c->inl_last = prev;
		c->inl_line = c->line;
	}
	c->n_inl = 0;
}

/*
 * The column of offset at: counted on from the last column asked for, or,
 * for an offset before it (attrs_check() reports in the order of the
 * records, after the lexer counted the sentence's figures), counted from
 * the line's start again.
 */
static uint64_t column_of(struct claims *c, uint64_t at)
{
	const char *p;
	size_t n;

	if (c->col_at < c->line_start || at >= c->col_at) {
		count_columns(c, at);
		return c->col_cp + 1;
	}
	p = window_get(c->w, c->line_start, at, &n);
	return utf8_count(p, n) + 1;
}

/*
 * An attribute the sentence mentions (attrs_check()): held as a finding
 * when it says otherwise than the record, as a repeat of it when not.
 */
static int on_attr(void *ctx, size_t from, size_t to, const struct ground_attr *ga, bool agrees)
{
	struct claims *c = ctx;
	uint64_t at = c->start + from;
	const char *s;
	struct held *h;
	size_t n;

	if (grow(&c->held, &c->cap_held, c->n_held + 1, sizeof(*c->held)) < 0)
		return -ENOMEM;
	s = c->lex_text + from;
	n = MIN(to - from, (size_t)CLAIMS_TEXT_CAP);
	h = &c->held[c->n_held];
	*h = (struct held){
		.rule = c->attr_rule, .from = at, .to = c->start + to, .line = c->line + 1,
		.column = column_of(c, at), .text_off = c->text.len, .text_len = n,
		.grounded_at = ga->at, .attr = true, .attr_agrees = agrees,
	};
	if (buf_add(&c->text, s, n) < 0)
		return -ENOMEM;
	if (agrees) {
		c->n_held++;
		return 0;
	}
	h->source_off = c->text.len;
	if (buf_add(&c->text, ga->text, strlen(ga->text) + 1) < 0)
		return -ENOMEM;
	c->n_held++;
	return 0;
}

/*
 * Merges two runs of held items, each in order of offset, [lo, mid) and
 * [mid, n_held), into one (the first's first at a tie): linear, however
 * many a hostile sentence holds.
 */
static int merge_held(struct claims *c, size_t lo, size_t mid)
{
	size_t hi = c->n_held, i, a, b;

	if (mid == lo || mid == hi)
		return 0;
	if (grow(&c->merge, &c->cap_merge, hi - lo, sizeof(*c->merge)) < 0)
		return -ENOMEM;
	memcpy(c->merge, c->held + lo, (hi - lo) * sizeof(*c->held));
	for (i = lo, a = 0, b = mid - lo; i < hi; i++)
		c->held[i] = b == hi - lo || (a < mid - lo && c->merge[a].from <= c->merge[b].from)
				     ? c->merge[a++] : c->merge[b++];
	return 0;
}

/* Holds the code at [from, to) of the sentence being lexed (ground_next_code()). */
static int hold_code(struct claims *c, size_t from, size_t to)
{
	uint64_t at = c->start + from;
	struct held *h;

	if (grow(&c->held, &c->cap_held, c->n_held + 1, sizeof(*c->held)) < 0)
		return -ENOMEM;
	h = &c->held[c->n_held];
	*h = (struct held){
		.rule = c->code_rule, .from = at, .to = c->start + to, .line = c->line + 1,
		.column = column_of(c, at), .text_off = c->text.len, .text_len = to - from,
	};
	if (buf_add(&c->text, c->lex_text + from, to - from) < 0)
		return -ENOMEM;
	c->n_held++;
	return 0;
}

/*
 * Finds the quantities of the sentence [c->start, end) and holds them with
 * the matches, in order of offset. Only where something can ground them
 * and the text is the model's.
 */
static int lex_sentence(struct claims *c, uint64_t end)
{
	size_t n, first = c->n_held, i, a;
	const char *s;
	int err;

	if (!lexing(c) || end <= c->start)
		return 0;
	s = window_get(c->w, c->start, end, &n);
	if (n < end - c->start)
		return 0; /* (never: a sentence is decided long before it leaves the window) */
	c->lex_matches = first;
	c->lex_cur = 0;
	c->lex_max_to = 0;
	c->lex_text = s;
	c->lex_len = n;
	/* Periods matter where the grounding says a figure of one. */
	c->bind_periods = ground_has_periods(c->ground);
	if (c->bind_periods)
		numlex_periods_reset(&c->periods);
	c->per_first = c->per_end = c->n_held;
	c->n_inl = 0;
	err = c->lex_numbers ? numlex_scan(s, n, c->start == c->line_start ? NUMLEX_LINE_START : 0,
					   on_lexed, c)
			     : 0;
	if (!err)
		label_inline_items(c);
	if (!err && c->attrs && ground_attr_count(c->ground) > 0) {
		size_t k = c->n_held;

		err = attrs_check(c->attrs, c->ground, s, n, on_attr, c);
		/* In order of offset with the quantities (a few, after them). */
		for (i = k; !err && i < c->n_held; i++) {
			struct held h = c->held[i];

			for (a = i; a > first && c->held[a - 1].from > h.from; a--)
				c->held[a] = c->held[a - 1];
			c->held[a] = h;
		}
	}
	/* Codes ("ELITE15FIT", "9977f3f"), where the grounding names things
	 * with letters and digits too (ground_codes_held()): the lexer reads
	 * no figure in them. */
	if (!err && c->code_rule != SIZE_MAX && ground_codes_held(c->ground)) {
		struct ground_codes cur = {0};
		size_t k = c->n_held, len, from;

		while (!err && (len = ground_next_code(s, n, &cur, false, &from)) > 0) {
			err = hold_code(c, from, from + len);
			/* the groups of an IBAN written in fours ("GB29 NWBK 6016
			 * ..."): the code's characters, no figures of their own */
			for (i = first; !err && memchr(s + from, ' ', len) && i < k; i++)
				if (c->held[i].lexed && c->held[i].from < c->start + from + len &&
				    c->held[i].to > c->start + from)
					c->held[i].label = true;
		}
		if (!err)
			err = merge_held(c, first, k);
	}
	if (err)
		return err;
	/* Two runs in order of offset: merged, the patterns' first at a tie. */
	return merge_held(c, 0, first);
}

/* True when the held match repeats an item of earlier tool output. */
static bool grounded(struct claims *c, struct held *h)
{
	enum grounding k = c->rs->rules[h->rule].grounding;

	if (!c->ground || k == GROUNDING_NONE || k == GROUNDING_QUANTITY ||
	    k == GROUNDING_ATTRIBUTE || h->truncated)
		return false;
	if (ground_key(k, c->text.data + h->text_off, h->text_len, &c->key) < 0)
		return false;
	return ground_find(c->ground, c->key.data, c->key.len, &h->grounded_at);
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

static bool found(struct claims *c, pcre2_code *code, const char *s, size_t n)
{
	/* A pattern that hits its match limit exempts nothing. */
	return code && pcre2_match(code, (PCRE2_SPTR)s, n, 0, 0, c->md, c->mctx) >= 0;
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
		return found(c, ex->before, s, n);
	}
	ex->before_at = at;
	if (ex->before_hit)
		return true;
	s = window_get(c->w, c->start, at, &n);
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
	size_t behind = ex->after_behind, i;
	uint64_t next = UINT64_MAX; /* the end of the last match decided */
	bool everywhere = false;    /* a start that every earlier subject repeats */

	for (i = c->n_held; i-- > first;) {
		struct held *h = &c->held[i];

		if (h->rule != r)
			continue;
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

static bool exempt(struct claims *c, const struct held *h, uint64_t end)
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
		s = window_get(c->w, c->start, end, &n);
		ex->in_sentence = 0;
		for (i = 0; i < r->n_unless_sentence && !ex->in_sentence; i++)
			ex->in_sentence = found(c, ex->sentence[i], s, n);
	}
	return ex->in_sentence;
}

/* True when rule r is a number check (grounding: quantity). */
static bool number_rule(const struct claims *c, size_t r)
{
	return c->rs->rules[r].grounding == GROUNDING_QUANTITY;
}

/*
 * True when rule r checks figures an entry is made of: its year, date,
 * volume, issue, pages, edition and ids (bare numbers, years, dates,
 * ordinals, identifiers).
 */
static bool entry_figure_rule(const struct claims *c, size_t r)
{
	const unsigned entry = 1u << QC_NUMBER | 1u << QC_YEAR | 1u << QC_DATE |
			       1u << QC_ORDINAL | 1u << QC_IDENT;
	const struct rule *rule = &c->rs->rules[r];

	return number_rule(c, r) && rule->quantities != 0 && !(rule->quantities & ~entry);
}

/* True when such a number check found the finding's text, alone or with other rules. */
static bool number_found(const struct claims *c, const struct claim_item *it)
{
	size_t i;

	if (number_rule(c, it->rule))
		return true;
	for (i = 0; i < it->n_also; i++)
		if (number_rule(c, it->also[i]))
			return true;
	return false;
}

/*
 * True when a number check's finding is on the current line, not read for
 * entries yet, and the line may still be one (REFS_LINE_MAX bytes at most).
 */
static bool awaits_line(const struct claims *c, const struct claim_item *it)
{
	return c->refs && it->from >= c->line_start && it->from >= c->judged_to &&
	       c->dec_end <= c->line_start + REFS_LINE_MAX;
}

/*
 * Takes the number checks off a finding inside an entry of the line read
 * last: its figures are the entry's (its year, volume, pages), which the
 * entry's own checks judge. False when no other rule found the text (it
 * is dropped); else the finding is what the other rules alone make of it.
 */
static bool off_entries(const struct claims *c, struct claim_item *it)
{
	size_t keep[CLAIMS_ALSO_MAX], n = 0, i;
	bool in_title;

	if (it->from < c->judged_from || it->to > c->judged_to)
		return true;
	for (i = 0; i < c->n_ent; i++)
		if (it->from >= c->ent[i].from && it->to <= c->ent[i].to)
			break;
	if (i == c->n_ent)
		return true;
	/*
	 * In its title every figure is the entry's ("Training ImageNet in 1
	 * hour"). Elsewhere only those an entry is made of: a sum, a
	 * percentage, a count or a duration is a figure about the world, and
	 * the recognizer may take a whole line for an entry ("Garcia, M.
	 * (2021). Forecasting demand. It says 13.1% growth."), where an
	 * altered figure must still stop a gate that blocks it.
	 */
	in_title = it->from >= c->ent[i].title_from && it->to <= c->ent[i].title_to;
	for (i = 0; i < it->n_also; i++)
		if (!number_rule(c, it->also[i]) ||
		    (!in_title && !entry_figure_rule(c, it->also[i])))
			keep[n++] = it->also[i];
	if (number_rule(c, it->rule) && (in_title || entry_figure_rule(c, it->rule))) {
		if (n == 0)
			return false;
		/* A near figure is a number check's: unless the rule that leads now
		 * is one too, it has none. */
		it->rule = keep[0];
		if (!number_rule(c, it->rule))
			it->source = NULL;
		memmove(keep, keep + 1, --n * sizeof(*keep));
	}
	memcpy(it->also, keep, n * sizeof(*keep));
	it->n_also = n;
	return true;
}

/*
 * Takes off a claim's items the figures of an entry of the line read last
 * (as off_entries() takes them off findings), and labels it again from the
 * items left: a bibliography entry's year and pages claim nothing about
 * the world, and must not count against the answer's trust.
 */
static void claim_off_entries(struct claims *c, struct claim *cl, struct claim_item *items)
{
	size_t j, n = 0, grounded = 0;
	enum claim_label was = cl->label;

	for (j = 0; j < cl->n_items; j++) {
		struct claim_item t = items[j];

		if (number_found(c, &t) && !off_entries(c, &t))
			continue;
		items[n++] = items[j];
		grounded += items[j].grounded;
	}
	if (n == cl->n_items)
		return;
	cl->n_items = n;
	cl->items = n ? items : NULL;
	cl->label = n == 0 ? CLAIM_UNCHECKED
		    : grounded == n ? CLAIM_SUPPORTED
		    : grounded ? CLAIM_PARTIAL : CLAIM_UNSUPPORTED;
	c->counts[was]--;
	c->counts[cl->label]++;
}

/* The findings and claims held: pend[pend_head, n_pend). */
static size_t waiting(const struct claims *c)
{
	return c->n_pend - c->pend_head;
}

/* The bytes they hold: their texts, and claims' items. */
static size_t waiting_bytes(const struct claims *c)
{
	const struct pending *p = &c->pend[c->pend_head];

	if (!waiting(c))
		return 0;
	return c->pend_text.len - p->off + (c->n_pend_items - p->items_off) * sizeof(*c->pend_items);
}

/*
 * Passes on the k oldest findings and claims held, in order (a number
 * check's finding inside an entry of the line read last taken off it).
 * Those passed on are moved out once they are as many as those left, so
 * each is moved at most once on average. After an error the rest are
 * dropped, as claims_reset() would.
 */
static int release(struct claims *c, size_t k)
{
	size_t i, j, head, shift, ishift;
	int err = 0;

	for (i = c->pend_head; i < c->pend_head + k && err == 0; i++) {
		struct pending *p = &c->pend[i];
		const char *t = c->pend_text.data ? c->pend_text.data + p->off : "";

		if (p->is_claim) {
			struct claim_item *items = p->cl.n_items ? c->pend_items + p->items_off : NULL;
			size_t at = p->cl.text_len;

			for (j = 0; j < p->cl.n_items; j++) {
				items[j].text = t + at;
				at += items[j].text_len;
			}
			p->cl.text = t;
			p->cl.items = items;
			claim_off_entries(c, &p->cl, items);
			err = c->claim_fn(c->claim_ctx, &p->cl);
			continue;
		}
		p->it.text = t;
		if (p->it.source)
			p->it.source = t + p->it.text_len;
		if (!number_found(c, &p->it) || off_entries(c, &p->it))
			err = c->fn(c->ctx, &p->it);
	}
	c->pend_head += k;
	if (err || c->pend_head == c->n_pend) {
		c->n_pend = c->pend_head = c->n_pend_items = 0;
		c->pend_text.len = 0;
		return err;
	}
	if (c->pend_head < waiting(c))
		return 0;
	head = c->pend_head;
	shift = c->pend[head].off;
	ishift = c->pend[head].items_off;
	memmove(c->pend, c->pend + head, (c->n_pend - head) * sizeof(*c->pend));
	c->n_pend -= head;
	c->pend_head = 0;
	/* (A buffer never grown is NULL: not even an empty move of it.) */
	if (c->pend_text.len)
		memmove(c->pend_text.data, c->pend_text.data + shift, c->pend_text.len - shift);
	c->pend_text.len -= shift;
	if (c->n_pend_items)
		memmove(c->pend_items, c->pend_items + ishift,
			(c->n_pend_items - ishift) * sizeof(*c->pend_items));
	c->n_pend_items -= ishift;
	for (i = 0; i < c->n_pend; i++) {
		c->pend[i].off -= shift;
		c->pend[i].items_off -= ishift;
	}
	return 0;
}

/*
 * Holds a finding (cl NULL) or a claim behind those held, copying its
 * text. At the caps the oldest go out first; one that cannot be held
 * (too large, or no memory) goes out now, after all those held: nothing
 * is lost, and the order is kept.
 */
static int hold_item(struct claims *c, const struct claim_item *it, const struct claim *cl)
{
	size_t n_items = cl ? cl->n_items : 0, len, cost, off, i;
	struct pending *p;
	int err;

	if (cl) {
		len = cl->text_len;
		for (i = 0; i < n_items; i++)
			len += cl->items[i].text_len;
	} else {
		len = it->text_len + (it->source ? strlen(it->source) + 1 : 0);
	}
	cost = len + n_items * sizeof(*c->pend_items);
	while (waiting(c) &&
	       (waiting(c) == CLAIMS_HOLD_MAX || waiting_bytes(c) + cost > CLAIMS_HOLD_BYTES)) {
		err = release(c, 1);
		if (err)
			return err;
	}
	off = c->pend_text.len;
	if (cost > CLAIMS_HOLD_BYTES ||
	    grow(&c->pend, &c->cap_pend, c->n_pend + 1, sizeof(*c->pend)) < 0 ||
	    grow(&c->pend_items, &c->cap_pend_items, c->n_pend_items + n_items,
		 sizeof(*c->pend_items)) < 0)
		goto now;
	p = &c->pend[c->n_pend];
	*p = (struct pending){.is_claim = cl != NULL, .off = off, .items_off = c->n_pend_items};
	if (cl) {
		p->cl = *cl;
		if (buf_add(&c->pend_text, cl->text, cl->text_len) < 0)
			goto undo;
		for (i = 0; i < n_items; i++)
			if (buf_add(&c->pend_text, cl->items[i].text, cl->items[i].text_len) < 0)
				goto undo;
		if (n_items)
			memcpy(c->pend_items + c->n_pend_items, cl->items, n_items * sizeof(*cl->items));
		c->n_pend_items += n_items;
	} else {
		p->it = *it;
		if (buf_add(&c->pend_text, it->text, it->text_len) < 0 ||
		    (it->source && buf_add(&c->pend_text, it->source, strlen(it->source) + 1) < 0))
			goto undo;
	}
	c->n_pend++;
	return 0;
undo:
	c->pend_text.len = off;
now:
	err = release(c, waiting(c));
	if (err)
		return err;
	return cl ? c->claim_fn(c->claim_ctx, cl) : c->fn(c->ctx, it);
}

/*
 * Passes a finding on: a number check's waits while its line may yet be
 * an entry (and everything after it waits behind it); one inside an entry
 * of the line read last loses the number checks.
 */
static int put(struct claims *c, const struct claim_item *it)
{
	struct claim_item t;

	if (c->refs && number_found(c, it)) {
		if (awaits_line(c, it))
			return hold_item(c, it, NULL);
		t = *it;
		if (!off_entries(c, &t))
			return 0;
		it = &t;
	}
	return waiting(c) ? hold_item(c, it, NULL) : c->fn(c->ctx, it);
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
	return c->claim_fn(c->claim_ctx, cl);
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
	return (c->claim_fn && !c->in_tool) || lexing(c);
}

/* The held quantity a figure of the sentence is ([from, to) its digits), or -1. */
static long held_of(const struct claims *c, uint64_t from, uint64_t to, struct arith_q v)
{
	size_t i;
	long found = -1;

	for (i = 0; i < c->n_held && c->held[i].from < to; i++) {
		const struct held *h = &c->held[i];

		if (!h->lexed || h->to <= from)
			continue;
		/* the end of a range ("$1,350.00 - $10.00" lexed as one) that is this figure */
		if (found < 0 || fabs(h->q.value - arith_double(v)) < 1e-9)
			found = (long)i;
	}
	return found;
}

/* Classes a term may be of, and a result. */
#define TERM_CLASSES (1u << QC_MONEY | 1u << QC_COUNT | 1u << QC_NUMBER | 1u << QC_PERCENT | \
		      1u << QC_DURATION)
#define RESULT_CLASSES (1u << QC_MONEY | 1u << QC_COUNT | 1u << QC_NUMBER)

/*
 * Whether the i-th token of r is a divisor 2 written bare ("12.00 / 2 =
 * 6.00", "split between 2"): halving, which the working itself says; no
 * figure a tool or the user must give (the share of one of two).
 */
static bool halving(const struct arith *a, const struct arith_rel *r, size_t i)
{
	const struct arith_fig *f = &a->fig[r->toks[i].fig];

	return i > 0 && r->toks[i - 1].kind == ARITH_TOK_DIV && f->v.n == 2 && f->v.d == 1 &&
	       !f->cur && !f->percent && !f->units && !f->decimals &&
	       (i + 1 == r->n_toks || r->toks[i + 1].kind != ARITH_TOK_MUL);
}

/* Sets h to report its result as worked out: source "<how> is <value>". */
static void report_worked(struct claims *c, struct held *h, unsigned char *chk, const char *how,
			  const char *value)
{
	size_t off = c->text.len;

	if (buf_adds(&c->text, how) < 0 || buf_adds(&c->text, " is ") < 0 ||
	    buf_adds(&c->text, value) < 0 || buf_addc(&c->text, '\0') < 0) {
		c->text.len = off;
		return;
	}
	h->source_off = off;
	h->computed = true;
	h->grounded = false;
	*chk = CHECK_REPORT;
}

/*
 * The arithmetic the sentence [c->start, end) writes out (arith.h), over
 * the checks its held quantities got: a result whose working is wrong is
 * reported with the right value ("(20 + 30) x 2 x 3 is €300", not €500),
 * as is one that rests on a result worked wrong before it; a right one
 * whose terms are all grounded (or worked out from grounded ones) is
 * grounded, its computation the source; a right one on a term nothing
 * grounds is not reported apart from that term. The terms keep their own
 * checks.
 */
static int arith_sentence(struct claims *c, uint64_t end)
{
	struct arith_q right[ARITH_FIGS];
	long hi[ARITH_FIGS];
	uint8_t st[ARITH_FIGS];
	const char *s;
	struct arith *a;
	size_t n, i, j, k;

	uint64_t lo = UINT64_MAX, hi_to = 0;
	size_t figs = 0;

	/* Two figures the lexer read, and an operator from a little before the
	 * first to the last: else nothing to work out (most sentences). */
	for (i = 0; i < c->n_held; i++)
		if (c->held[i].lexed) {
			figs++;
			lo = MIN(lo, c->held[i].from);
			hi_to = MAX(hi_to, c->held[i].to);
		}
	if (figs < 2)
		return 0;
	lo = lo > c->start + 64 ? lo - 64 : c->start;
	s = window_get(c->w, lo, hi_to, &n);
	if (n < hi_to - lo || !arith_may_hold(s, n))
		return 0;
	s = window_get(c->w, c->start, end, &n);
	if (n < end - c->start)
		return 0;
	if (!c->ar && !(c->ar = malloc(sizeof(*c->ar))))
		return -ENOMEM;
	a = c->ar;
	if (arith_scan(s, n, a) == 0)
		return 0;
	for (i = 0; i < a->n_fig; i++) {
		const struct arith_fig *f = &a->fig[i];

		hi[i] = held_of(c, c->start + f->num_from, c->start + f->num_to, f->v);
		right[i] = f->v;
		st[i] = hi[i] >= 0 && c->chk[hi[i]] == CHECK_GROUNDED ? DONE_GROUNDED : DONE_UNGROUNDED;
		/* a figure worked out earlier in the reply: grounded, or its right value */
		for (k = 0; hi[i] >= 0 && k < MIN(c->n_done, (size_t)ARITH_DONE); k++) {
			const struct arith_done *d = &c->done[(c->n_done - 1 - k) % ARITH_DONE];

			if (!same_result(d, &c->held[hi[i]].q))
				continue;
			if (d->status == DONE_WRONG) {
				right[i] = d->right;
				st[i] = DONE_WRONG;
			} else if (d->status == DONE_GROUNDED) {
				st[i] = DONE_GROUNDED;
			}
			break;
		}
	}
	for (j = 0; j < a->n_rel; j++) {
		const struct arith_rel *r = &a->rel[j];
		const struct arith_fig *rf = &a->fig[r->result];
		struct held *h;
		struct arith_q worked;
		bool grounded = true, classes = true, on_wrong = false;
		uint64_t at = UINT64_MAX;
		char how[ARITH_HOW], value[48];
		struct arith_done *d;

		if (hi[r->result] < 0)
			continue;
		h = &c->held[hi[r->result]];
		if (!(RESULT_CLASSES & 1u << quantity_class_of(&h->q)))
			continue;
		for (i = 0; i < r->n_toks; i++) {
			uint8_t f = r->toks[i].fig;

			if (r->toks[i].kind != ARITH_TOK_FIG)
				continue;
			if (hi[f] >= 0 && !(TERM_CLASSES & 1u << quantity_class_of(&c->held[hi[f]].q)))
				classes = false;
			grounded &= st[f] == DONE_GROUNDED || halving(a, r, i);
			on_wrong |= st[f] == DONE_WRONG;
			if (at == UINT64_MAX && st[f] == DONE_GROUNDED)
				at = c->held[hi[f]].grounded_at;
		}
		if (!classes || !arith_eval(a, r, right, &worked))
			continue;
		for (i = 0; i < r->n_toks; i++)
			if (r->toks[i].kind == ARITH_TOK_FIG && hi[r->toks[i].fig] >= 0 &&
			    r->toks[i].fig != r->result)
				c->held[hi[r->toks[i].fig]].term = true;
		d = &c->done[c->n_done++ % ARITH_DONE];
		*d = (struct arith_done){.written = rf->v, .right = worked,
					 .unit_hash = h->q.unit_hash, .cur = rf->cur,
					 .at = at == UINT64_MAX ? h->grounded_at : at};
		if (!r->holds) {
			/* worked wrong: with the right value of each term */
			arith_how(a, r, s, on_wrong ? right : NULL, how, sizeof(how));
			arith_format(a, rf, s, on_wrong ? worked : r->value, value, sizeof(value));
			report_worked(c, h, &c->chk[hi[r->result]], how, value);
			h->grounded_at = d->at;
			d->status = st[r->result] = DONE_WRONG;
			right[r->result] = d->right = on_wrong ? worked : r->value;
		} else if (on_wrong && !arith_states(rf->v, rf->decimals, worked, r->rounds, r->approx)) {
			/* right as written, on a term worked wrong before */
			arith_how(a, r, s, right, how, sizeof(how));
			arith_format(a, rf, s, worked, value, sizeof(value));
			report_worked(c, h, &c->chk[hi[r->result]], how, value);
			h->grounded_at = d->at;
			d->status = st[r->result] = DONE_WRONG;
			right[r->result] = worked;
		} else if (grounded) {
			size_t off = c->text.len;

			/* the working written, rather than one found (not a figure the tools state) */
			arith_how(a, r, s, NULL, d->how, sizeof(d->how));
			if (c->chk[hi[r->result]] != CHECK_GROUNDED || h->source_off) {
				if (buf_add(&c->text, d->how, strlen(d->how) + 1) == 0)
					h->source_off = off;
				h->grounded_at = d->at;
				c->chk[hi[r->result]] = CHECK_GROUNDED;
			}
			d->status = st[r->result] = DONE_GROUNDED;
			h->worked = true;
			/* the halving's 2 is the working's own, grounded with it */
			for (i = 0; i < r->n_toks; i++)
				if (r->toks[i].kind == ARITH_TOK_FIG && hi[r->toks[i].fig] >= 0 &&
				    halving(a, r, i) && c->chk[hi[r->toks[i].fig]] == CHECK_REPORT) {
					struct held *o = &c->held[hi[r->toks[i].fig]];

					c->chk[hi[r->toks[i].fig]] = CHECK_GROUNDED;
					o->grounded_at = d->at;
					o->source_off = h->source_off;
				}
			if (quantity_class_of(&h->q) == QC_MONEY && h->q.scale == 1 &&
			    c->n_results < CLAIMS_TOTAL_ITEMS) {
				if (c->n_results == 0)
					c->results_at = d->at;
				c->results[c->n_results++] = h->q.value;
			}
		} else {
			/* on a term nothing grounds: that term is the finding */
			if (c->chk[hi[r->result]] == CHECK_REPORT)
				c->chk[hi[r->result]] = CHECK_SILENT;
			d->status = st[r->result] = c->chk[hi[r->result]] == CHECK_GROUNDED
							    ? DONE_GROUNDED : DONE_UNGROUNDED;
			if (d->status == DONE_GROUNDED)
				arith_how(a, r, s, NULL, d->how, sizeof(d->how));
		}
		/* the result said again later in the sentence, as a term ("is $31
		 * a person, so $31 x 2 x 4"): what the result is */
		for (i = r->result + 1; i < a->n_fig; i++) {
			struct held *o;

			if (hi[i] < 0 || hi[i] == hi[r->result] || st[i] != DONE_UNGROUNDED ||
			    !same_result(d, &c->held[hi[i]].q) || a->fig[i].cur != rf->cur)
				continue;
			o = &c->held[hi[i]];
			st[i] = d->status;
			right[i] = d->right;
			if (d->status == DONE_GROUNDED && c->chk[hi[i]] == CHECK_REPORT) {
				size_t off = c->text.len;

				if (buf_add(&c->text, d->how, strlen(d->how) + 1) == 0)
					o->source_off = off;
				o->grounded_at = d->at;
				c->chk[hi[i]] = CHECK_GROUNDED;
			}
		}
	}
	return 0;
}

/* Whether the figure h is labelled money received right after it ("$10 (received)"). */
static bool received_after(const struct claims *c, const struct held *h)
{
	static const char *const labels[] = {"(received)", "(incoming)", "(credit)", "(refund)"};
	const char *p;
	size_t n, i, l;

	p = window_get(c->w, h->to, MIN(c->dec_end, h->to + 16), &n);
	while (n && (*p == ' ' || *p == '*')) {
		p++;
		n--;
	}
	for (i = 0; i < ARRAY_SIZE(labels); i++)
		if (n >= (l = strlen(labels[i])) && strncasecmp(p, labels[i], l) == 0)
			return true;
	return false;
}

/* Adds h, checked chk, to the ledger when it is one of the reply's figures. */
static void ledger_add(struct claims *c, const struct held *h, enum check chk)
{
	struct ledger_fig *f;
	bool bare = h->q.kind == QUANTITY_NUMBER;

	if (!h->lexed || chk != CHECK_GROUNDED || h->term || h->q.scale != 1 ||
	    !(h->q.value > 0 && h->q.value < 1e12) ||
	    /* (a range's ends are no figures, but where each is worked out) */
	    ((h->nl_flags & NUMLEX_RANGE) && !h->source_off) ||
	    !(quantity_class_of(&h->q) == QC_MONEY || (bare && (h->q.decimals > 0 || h->worked))))
		return;
	f = &c->ledger[c->n_ledger++ % CLAIMS_LEDGER];
	*f = (struct ledger_fig){.v = h->q.value, .unit_hash = h->q.unit_hash,
				 .at = h->grounded_at, .bare = bare, .worked = h->worked,
				 .derived = h->source_off != 0, .per = h->per || h->other_role,
				 .total = h->total_role};
	if (f->derived)
		snprintf(f->how, sizeof(f->how), "%s", c->text.data + h->source_off);
	if (h->from > c->start) {
		const char *p;
		size_t n;

		p = window_get(c->w, h->from - 1, h->from, &n);
		f->sign = n == 1 && *p == '-' ? -1 : n == 1 && *p == '+' ? 1 : 0;
	}
	f->in = received_after(c, h);
}

/* The first held of the sentence that is a sum of money its written
 * working grounded (arith_sentence()), or n_held. */
static size_t first_worked(const struct claims *c)
{
	size_t k;

	for (k = 0; k < c->n_held; k++)
		if (c->chk[k] == CHECK_GROUNDED && c->held[k].worked &&
		    quantity_class_of(&c->held[k].q) == QC_MONEY)
			break;
	return k;
}

/* Decides the held matches of the sentence [start, end) and starts the next at next. */
static int decide(struct claims *c, uint64_t end, uint64_t next)
{
	size_t i;
	int err = 0;

	c->dec_end = end;
	/* A line longer than an entry can be holds none: what waits for it goes out. */
	if (waiting(c) && end > c->line_start + REFS_LINE_MAX) {
		err = release(c, waiting(c));
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
		if (!h->dropped)
			err = put(c, &it);
	}
	if (err == 0 && c->claim_fn && !c->in_tool)
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

/* Called for each key of an entry: stops at the first that tool output holds. */
struct ref_ground {
	const struct ground *g;
	uint64_t at;
};

static int ref_key_held(void *ctx, const char *key, size_t len)
{
	struct ref_ground *rg = ctx;

	return ground_find(rg->g, key, len, &rg->at) ? 1 : 0;
}

/*
 * True when the line before the current one (or the one before that, past
 * a blank line) was an entry or heads a list of references.
 */
static bool refs_in_list(struct claims *c)
{
	uint64_t end = c->line_start; /* just after the previous line's break */
	size_t k;

	for (k = 1; k <= 2 && end > 0; k++) {
		uint64_t from = end - 1 > REFS_LINE_MAX ? end - 1 - REFS_LINE_MAX : 0;
		const char *s;
		size_t n, i, j;

		if (c->ref_line != UINT64_MAX && c->ref_line + k == c->line)
			return true;
		/* That line is [from + i, end - 1). */
		s = window_get(c->w, from, end - 1, &n);
		if (n != end - 1 - from)
			return false;
		for (i = n; i > 0 && s[i - 1] != '\n'; i--)
			;
		if (i == 0 && from > 0)
			return false; /* too long to be a heading */
		if (refs_heading(c->refs, s + i, n - i))
			return true;
		for (j = i; j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r'); j++)
			;
		if (j < n)
			return false; /* text that is neither an entry nor a heading */
		end = from + i;
	}
	return false;
}

void claims_set_bib(struct claims *c, const struct bib *b)
{
	c->bib = b;
}

/* The bibliography's verdict on an entry: grounded (true), or altered (it->source set). */
static int refs_bib(struct claims *c, struct claim_item *it, bool *held)
{
	const struct rule *r = &c->rs->rules[it->rule];
	const struct bib_entry *x;
	const char *why;
	/* A title within the near tolerance (in words) is the bibliography's;
	 * a rule without near matches titles exactly. */
	double min = r->near.signal ? 1.0 - r->near.tolerance : 1.0;

	*held = false;
	switch (bib_match(c->bib, &it->ref, it->text, min, &x, &why)) {
	case BIB_MATCH:
		*held = true;
		return 0;
	case BIB_ALTERED:
		if (!r->near.signal)
			return 0; /* the pack has no signal for it: reported as unverified */
		c->bib_source.len = 0;
		if (buf_addf(&c->bib_source, "%s%s\"%s\"", x->key, *x->key ? ": " : "", x->title) < 0 ||
		    (x->year && buf_addf(&c->bib_source, " (%u)", x->year) < 0) ||
		    buf_addf(&c->bib_source, ", with %s", why) < 0)
			return -ENOMEM;
		it->source = c->bib_source.data;
		return 0;
	default:
		return 0;
	}
}

/*
 * Does a bare title of a list name a record a tool returned, by a code or
 * a name of letters and digits of it that the tool output holds ("Flight
 * HZN330: PHX to DFW, Basic Economy", "Order #W4418207: 3 items")?
 * An itinerary, an order's lines: a reference's title carries no such code.
 */
static bool names_record(struct claims *c, const struct claim_item *it, uint64_t *at)
{
	struct ground_codes cur = {.want_names = true};
	size_t from, len;

	if (it->ref.style != REF_STYLE_TITLE_LIST || !ground_codes_held(c->ground))
		return false;
	while ((len = ground_next_code(it->text, it->text_len, &cur, false, &from)) > 0)
		if (ground_code_key(&cur, it->text + from, len, &c->key) == 0 &&
		    ground_find(c->ground, c->key.data, c->key.len, at))
			return true;
	return false;
}

/* Reports an entry that nothing grounds (or, with show_grounded, marked grounded). */
static int refs_report(struct claims *c, struct claim_item *it)
{
	struct ref_ground rg = {c->ground, 0};
	bool held = false;
	int err;

	if (c->ground && (refs_keys(c->refs, &it->ref, it->text, ref_key_held, &rg) > 0 ||
			  names_record(c, it, &rg.at))) {
		held = true;
	} else if (bib_count(c->bib)) {
		err = refs_bib(c, it, &held);
		if (err)
			return err;
	}
	if (held) {
		c->repeats++;
		if (!c->show_grounded)
			return 0;
		it->grounded = true;
		it->grounded_at = rg.at;
	}
	return put(c, it);
}

/*
 * A sure title of the list's n whose nested items are fields of records
 * (labels they share with other nested items: refs_list_field()), and no
 * field a reference has ("Publisher:", "Year:"), is the name of a record
 * (a meeting, an activity the agent proposes, with its "Location:" and
 * "Date:"), and no longer counts as a sure title.
 */
static void refs_list_records(struct claims *c, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i = j) {
		bool field = false, ref = false;

		for (j = i + 1; j < n && c->list_label[j].nested; j++) {
			if (!c->list_label[j].len)
				continue;
			field |= c->list_label[j].field;
			ref |= refs_field_label(c->refs, c->list_text.data + c->list_label[j].at,
						c->list_label[j].len);
		}
		if (field && !ref && !c->list_label[i].nested && !c->list_label[i].field &&
		    c->list[i].ref.strong && c->list_strong > 0)
			c->list_strong--;
	}
}

/* The list of titles ended: reports its items when it is a list of references. */
static int refs_list_end(struct claims *c)
{
	size_t i, n = c->n_list;
	int err = 0;

	c->n_list = 0;
	refs_list_records(c, n);
	if (n == 0 || !(c->list_heading || c->list_strong >= 2))
		goto out;
	c->ref_line = c->list_line;
	for (i = 0; i < n && err == 0; i++) {
		struct claim_item it = c->list[i];

		if (c->list_label[i].field)
			continue;
		it.text = c->list_text.data + (size_t)(uintptr_t)it.text;
		err = refs_report(c, &it);
	}
out:
	c->list_strong = 0;
	c->list_text.len = 0;
	return err;
}

/* [from, to) of the line being read is an entry, its title [title_from, title_to). */
static void refs_entry(struct claims *c, uint64_t from, uint64_t to, uint64_t title_from,
		       uint64_t title_to)
{
	if (c->n_ent < ARRAY_SIZE(c->ent)) {
		c->ent[c->n_ent].from = from;
		c->ent[c->n_ent].to = to;
		c->ent[c->n_ent].title_from = title_from;
		c->ent[c->n_ent++].title_to = title_to;
	}
}

/*
 * Whether tool output names the value of a "Label: value" item (value: what
 * follows the label, from its ":"), as a title part of it: "Recommended
 * Restaurant: New Asiaway" after a tool listed New Asiaway is a field of a
 * summary naming a record, not a title with its subtitle.
 */
static bool refs_value_held(struct claims *c, const char *v, size_t n)
{
	uint64_t at;
	size_t i = 0;

	if (!c->ground)
		return false;
	while (i < n && (v[i] == ':' || v[i] == '*' || v[i] == '_' || v[i] == ' '))
		i++;
	c->key.len = 0;
	if (i == n || buf_add(&c->key, "ref\x1ft:", 6) < 0 ||
	    refs_title_key(c->refs, v + i, n - i, &c->key) < 0 || !memchr(c->key.data + 6, ' ', c->key.len - 6))
		return false;
	return ground_find(c->ground, c->key.data, c->key.len, &at);
}

/*
 * Whether the nested title just held (the list's last) opens with a label
 * an earlier nested title of the list has: then both are the fields of
 * records ("1. Design Review / - Location: Harbor Room / 2. Budget Planning
 * / - Location: North Wing"), and neither counts as a sure title.
 */
static bool refs_list_field(struct claims *c, bool nested)
{
	size_t k = c->n_list - 1, i, at = 0, len;
	const char *t = c->list_text.data + (size_t)(uintptr_t)c->list[k].text;
	bool shared = false;

	c->list_label[k].len = 0;
	c->list_label[k].field = false;
	c->list_label[k].nested = nested;
	if (!(len = refs_item_label(t, c->list[k].text_len, &at)))
		return false;
	c->list_label[k].at = (uint32_t)((size_t)(uintptr_t)c->list[k].text + at);
	c->list_label[k].len = (uint8_t)len;
	if (refs_value_held(c, t + at + len, c->list[k].text_len - at - len)) {
		c->list_label[k].field = true;
		return true;
	}
	if (!nested)
		return false;
	for (i = 0; i < k; i++) {
		if (c->list_label[i].len != len ||
		    strncasecmp(c->list_text.data + c->list_label[i].at,
				c->list_text.data + c->list_label[k].at, len) != 0)
			continue;
		if (!c->list_label[i].field) {
			c->list_label[i].field = true;
			c->list_strong -= c->list[i].ref.strong;
		}
		shared = true;
	}
	c->list_label[k].field = shared;
	return shared;
}

/* Holds a title item of a list (its text copied; its offset in list_text stands in it.text). */
static int refs_list_add(struct claims *c, struct claim_item *it, bool nested)
{
	size_t off = c->list_text.len;

	if (c->n_list == 0)
		c->list_heading = refs_in_list(c);
	if (grow(&c->list, &c->cap_list, c->n_list + 1, sizeof(*c->list)) < 0 ||
	    buf_add(&c->list_text, it->text, it->text_len) < 0)
		return -ENOMEM;
	it->text = (const char *)(uintptr_t)off;
	c->list[c->n_list++] = *it;
	c->list_line = c->line;
	if (refs_list_field(c, nested))
		return c->n_list == REFS_LIST_MAX ? refs_list_end(c) : 0;
	c->list_strong += it->ref.strong;
	/*
	 * A list already known to be references (under a heading, or with two
	 * sure titles) has this title as an entry: its figures are dropped with
	 * the others'. An item before that is not known to be one when its line
	 * ends, and numbers are not held across lines (--line-buffered writes a
	 * line's findings when it ends): its figures are checked.
	 */
	if (c->list_heading || c->list_strong >= 2)
		refs_entry(c, it->from, it->to, it->from, it->to); /* a title and nothing else */
	return c->n_list == REFS_LIST_MAX ? refs_list_end(c) : 0;
}

/*
 * True when [from, to) holds something other than blanks, and is not an
 * item of a list (which the triggers may pass by: "5. E-learning and
 * blended ..." opens with one capital word, and stays in its list).
 */
static bool has_text(const struct claims *c, uint64_t from, uint64_t to)
{
	const char *s;
	size_t n, i;

	s = window_get(c->w, from, to, &n);
	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			break;
	if (i == n)
		return n < to - from; /* a line too long to hold is text */
	if (strchr("-*+[", s[i]) || (s[i] >= '0' && s[i] <= '9'))
		return false;
	return !(i + 2 < n && s[i] == (char)0xE2 && s[i + 1] == (char)0x80 && s[i + 2] == (char)0xA2);
}

/*
 * What a line's first byte says to the recognizer: OPENS_ITEM, it may be a
 * list item (a bullet, a digit, "[", the lead byte of "•", or a blank: an
 * indented one); OPENS_NAME, a capital, it may open with authors; 0,
 * neither. A table: every line ends here.
 */
enum { OPENS_ITEM = 1, OPENS_NAME = 2 };
static const unsigned char line_opens[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
	0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static bool may_open_item(char c)
{
	return line_opens[(unsigned char)c] == OPENS_ITEM;
}

/* Whether the line [line_start, end) opens as a list item. */
static int refs_item_kind(const struct claims *c, uint64_t end)
{
	const char *s;
	size_t n;

	s = window_get(c->w, c->line_start, MIN(end, c->line_start + 64), &n);
	if (n == 0 || !may_open_item(s[0]))
		return 0;
	return refs_item_start(s, n, c->n_list > 0 || (c->ref_line != UINT64_MAX && c->ref_line + 2 >= c->line));
}

/*
 * The current line ends at offset end: when a trigger was on it, read it
 * for entries and report those that nothing grounds. Items that are only
 * titles wait for the end of their list.
 */
static int refs_read_line(struct claims *c, uint64_t end)
{
	struct ref_entry out[REFS_PER_LINE];
	size_t rule = c->ref_rule, trigger = c->ref_rule, n, k, i;
	const char *s;
	bool cue;
	int err = 0;

	cue = c->ref_cue;
	c->ref_rule = SIZE_MAX;
	c->ref_cue = false;
	if (!c->refs || c->in_tool) {
		c->n_list = c->list_strong = 0;
		c->list_text.len = 0;
		return 0;
	}
	/*
	 * A sentence end's cue, as a trigger would have been; it outranks an
	 * id's trigger: "Lee, K. (2019). Title. https://doi.org/10.1/x" is an
	 * author-date entry (ref.year), as when its year was a pattern that
	 * fired first. An id in prose stays the trigger's (below).
	 */
	if (rule != c->cue_rule && cue && c->cue_rule != SIZE_MAX && end > c->line_start &&
	    end - c->line_start <= REFS_LINE_MAX) {
		s = window_get(c->w, c->line_start, end, &n);
		if (n == end - c->line_start && refs_line_cue(s, n))
			rule = c->cue_rule;
	}
	if (rule == SIZE_MAX && end > c->line_start && c->find_items) {
		/* A list item no pattern marked: its first bytes tell. */
		int kind = refs_item_kind(c, end);

		if (kind) {
			s = window_get(c->w, c->line_start, end, &n);
			if (n != end - c->line_start || !refs_item_maybe(c->refs, s, n))
				kind = 0;
		}
		if (kind) {
			/* its own rule, or the other when a pack has only one */
			rule = c->item_rule[kind - 1];
			if (rule == SIZE_MAX)
				rule = c->item_rule[kind == 1 ? 1 : 0];
		}
	}
	if (rule == SIZE_MAX || end <= c->line_start || end - c->line_start > REFS_LINE_MAX)
		return c->n_list && has_text(c, c->line_start, end) ? refs_list_end(c) : 0;
	s = window_get(c->w, c->line_start, end, &n);
	if (n != end - c->line_start)
		return refs_list_end(c);
	k = refs_parse(c->refs, s, n, c->today, out, ARRAY_SIZE(out));
	if (k == 1 && out[0].style == REF_STYLE_TITLE_LIST) {
		struct claim_item it = {
			.rule = rule, .from = c->line_start + out[0].from,
			.to = c->line_start + out[0].to, .line = c->line + 1,
			.column = utf8_count(s, out[0].from) + 1, .text = s + out[0].from,
			.text_len = out[0].to - out[0].from, .ref = out[0],
		};

		return refs_list_add(c, &it, s[0] == ' ' || s[0] == '\t');
	}
	if (c->n_list && (k > 0 || has_text(c, c->line_start, end)))
		err = refs_list_end(c);
	if (k == 1 && out[0].style != REF_STYLE_ID)
		c->ref_line = c->line;
	/* An id in prose is no entry of the line: the numbers around it are the prose's. */
	for (i = 0; i < k; i++)
		if (out[i].style != REF_STYLE_ID) {
			uint64_t from = c->line_start + out[i].from;
			uint64_t title = from + out[i].title.off;

			refs_entry(c, from, c->line_start + out[i].to, title,
				   out[i].title.len ? title + out[i].title.len : title);
		}
	for (i = 0; i < k && err == 0; i++) {
		const struct ref_entry *e = &out[i];
		struct claim_item it = {
			.rule = e->style == REF_STYLE_ID && trigger != SIZE_MAX ? trigger : rule,
			.from = c->line_start + e->from, .to = c->line_start + e->to,
			.line = c->line + 1, .column = utf8_count(s, e->from) + 1,
			.text = s + e->from, .text_len = e->to - e->from, .ref = *e,
		};

		err = refs_report(c, &it);
	}
	return err;
}

/*
 * Reads the line [line_start, end) for entries, then passes on what waited
 * for it: a number check's finding inside an entry loses the number checks
 * (off_entries), the rest go out as they came.
 */
static int refs_line(struct claims *c, uint64_t end)
{
	const char *s;
	size_t n;
	int err = 0, rerr;

	c->n_ent = 0;
	c->judged_from = c->line_start;
	c->judged_to = end;
	if (c->ref_rule != SIZE_MAX || c->n_list > 0 || c->ref_cue) {
		err = refs_read_line(c, end);
	} else if (c->refs && !c->in_tool && end > c->line_start) {
		/*
		 * Most lines have nothing for the recognizer, and most of the
		 * rest open with a blank, a bullet or a digit and are still no
		 * item of a list of titles ("- **Setup:** ...", indented code),
		 * or with a capital and are prose: their first bytes tell,
		 * without the line reader. A line that opens as authors do is
		 * looked at for a year in parentheses: "Smith J (2020) Title.
		 * Journal" has no sentence end beside its year to cue it.
		 */
		uint64_t to = MIN(end, c->line_start + REFS_YEAR_WITHIN);

		s = window_get(c->w, c->line_start, to, &n);
		if (n != to - c->line_start) {
			/* (a line begun before the window holds: far longer than an entry) */
		} else if (line_opens[(unsigned char)s[0]] == OPENS_ITEM) {
			if (c->find_items &&
			    refs_item_start(s, n, c->ref_line != UINT64_MAX && c->ref_line + 2 >= c->line))
				err = refs_read_line(c, end);
		} else if (line_opens[(unsigned char)s[0]] == OPENS_NAME && c->cue_rule != SIZE_MAX &&
			   refs_paren_year(s, n)) {
			c->ref_cue = true;
			err = refs_read_line(c, end);
		}
	}
	/* (nothing held back, the common case: release() would only clear) */
	rerr = c->n_pend ? release(c, waiting(c)) : 0;
	return err ? err : rerr;
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

/* Is the lowercase word one of abbreviations[]? A binary search. */
static bool abbreviation(const char *word)
{
	size_t lo = 0, hi = ARRAY_SIZE(abbreviations);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = word_cmp(word, abbreviations[mid]);

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
		for (i = 0; i < ARRAY_SIZE(abbreviations); i++)
			m = MAX(m, strlen(abbreviations[i]));
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
 * A sentence end (s: the byte before it, then the mark) that may close a
 * part of an entry: ". 2015" (a year after a full stop), '." ' (a quoted
 * title), "*. " (a book's emphasis), "). " (an author-date year: "(2019).
 * Title") or ". (" (the year after the authors' initials: "Smith, J.
 * (2019) Title"). Its line is then asked refs_line_cue() when it ends: the
 * engine stops at every sentence end anyway, so these forms cost plain
 * text nothing where Hyperscan patterns for them cost every byte.
 */
static void refs_mark_cue(struct claims *c, const char *s, size_t n)
{
	/* s[0] is the byte before the mark, s[1] its first */
	if (n < 4 || s[1] != '.')
		return;
	if ((s[2] == '"' && (s[3] == ' ' || s[3] == '\t')) || s[0] == '*' || s[0] == ')' ||
	    s[n - 1] == '1' || s[n - 1] == '2' || s[n - 1] == '(')
		c->ref_cue = true;
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

int claims_mark(struct claims *c, uint64_t from, uint64_t to)
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
	if (before && !c->ref_cue && c->cue_rule != SIZE_MAX && !c->in_tool)
		refs_mark_cue(c, s, n);
	/*
	 * With nothing held and no claim wanted, a mark only moves the start
	 * of the sentence, and the line's end moves it past every mark of the
	 * line: most marks are never read. They wait until a match comes on
	 * their line (claims_add()) or anything else needs the start. No cut
	 * is due before from (the start only grows as they are read), so
	 * claims_advance() would do nothing here.
	 */
	if (c->n_held == 0 && !wants_claim(c) && from < c->start + CLAIMS_SENTENCE_CAP) {
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
	return err ? err : break_sentence(c, at);
}

int claims_line(struct claims *c, uint64_t at)
{
	bool idle;
	int err = 0;

	err = refs_line(c, at - 1);
	/* The marks that waited: the line's end starts the next sentence past
	 * them all (each is before the line break), unless something is to be
	 * decided up to here. */
	idle = c->n_held == 0 && !wants_claim(c);
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
	c->line++;
	c->line_start = at;
	return err;
}

void claims_keep_columns(struct claims *c, uint64_t at)
{
	lazy_flush(c); /* while the window still holds their bytes */
	if (at > c->line_start)
		count_columns(c, at);
}
