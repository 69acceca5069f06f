/* SPDX-License-Identifier: MIT */
/*
 * What claims.c, claims_days.c, claims_totals.c, claims_said.c, claims_arith.c,
 * claims_exempt.c, claims_numbers.c, claims_refs.c share and nothing else includes: the types
 * and macros more than one of them uses, the small helpers they share (inline), and the
 * functions and tables one of them defines for another. Written by scripts/split.py; not an
 * interface.
 */
#ifndef HALLUSCAN_CLAIMS_CLAIMS_INT_H
#define HALLUSCAN_CLAIMS_CLAIMS_INT_H

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
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#define CLAIMS_TOTAL_ITEMS 8

/* a derivation of CLAIMS_TOTAL_ITEMS terms of 16 digits, written out */
#define CLAIMS_TOTAL_HOW 256

/* Times of the clock kept for clock_arith(), and how far before a figure they are read. */
#define CLAIMS_CLOCK 8

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

/* Counts and spans of the sentence before kept for count_product(). */
#define CLAIMS_PREV_COUNTS 4

struct ledger_fig {
	double v;
	uint64_t unit_hash; /* the figure's unit; a bare figure's is "number" */
	uint64_t at;        /* where the grounding says it (or its first term) */
	uint64_t said;      /* where the reply says it */
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
 * The words a rule's exemption patterns cannot match without (literals.h;
 * NULL or n == 0: none known, PCRE2 decides alone): a subject with none of
 * them has no match. Those of the sentence patterns whose bits
 * sentence_cov has are one set. Another rule's with the same patterns are
 * shared (bits of shared), not copied.
 */
struct exempt_words {
	struct literals *before, *sentence, *after;
	uint32_t sentence_cov;
	uint8_t shared;
};

#define WORDS_SHARED_BEFORE 1u
#define WORDS_SHARED_SENTENCE 2u
#define WORDS_SHARED_AFTER 4u

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
	/* the words its patterns need (NULL until read, LIT_AFTER) */
	struct exempt_words *words;
	size_t asked;         /* times asked before they were read */
	uint64_t lit_none_to; /* no word of before's lies whole in [start, lit_none_to) */
	uint64_t lit_at;      /* the end of one that does (0: none found yet) */
};


/* How many items a total said before them may have (and BLOCK_ITEMS below). */
#define BEFORE_ITEMS 16

struct before_total {
	bool on;
	bool below;          /* its own line has ended: the lines read are the list's */
	bool bare;
	uint8_t cur;         /* the total's currency, as arith.h reads it (0: bare) */
	unsigned char blanks; /* blank lines before the list */
	size_t slot;         /* its finding's index in pend */
	size_t rule;
	uint64_t from, to, line, grounded_at;
	uint64_t unit_hash;
	double value;
	size_t indent, n;    /* the items' indent, and how many were read */
	double v[BEFORE_ITEMS];
	char how[CLAIMS_TOTAL_HOW]; /* once grounded: "100 + 10" */
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
	bool want_claims;    /* claims_want_claims() */
	struct attrs_hit *hits; /* the attributes a sentence mentions (attrs_check()) */
	size_t cap_hits;
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
	/* The grounded counts and spans of the last sentence that held figures
	 * ("For 2 meals per day over 3 days, ..."), for a count said as their
	 * product in the next ("... and 6 meals"): count_product(). */
	struct quantity prev_counts[CLAIMS_PREV_COUNTS];
	uint64_t prev_at[CLAIMS_PREV_COUNTS];
	size_t n_prev;
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
	/* The outbox (claims_take()): out[0, n_out), their bytes in out_text,
	 * a claim's items in out_items, as pend keeps them. */
	struct claims_out *out;
	size_t n_out, cap_out;
	struct claim_item *out_items;
	size_t n_out_items, cap_out_items;
	struct buf out_text;
	uint64_t judged_from, judged_to, dec_end;
	struct {
		uint64_t from, to;
		uint64_t title_from, title_to; /* its title, if it has one */
	} ent[REFS_PER_LINE];
	size_t n_ent;
	/*
	 * A total said before the items it sums ("Food: $110 total" over "-
	 * Pizza party: $100" and "- Sushi dinner: $10"; "total spending was
	 * 1,050.00. This includes:" over a list; "$110: $100 for ... and $10
	 * for ..." on its line), which nothing else grounds: its finding waits
	 * in pend (at slot), and what comes after waits behind it, until the
	 * rest of its line and the list below have ended, read a line at a
	 * time as each ends (before_line()): what is decided depends on the
	 * text alone, never on how much a read returned.
	 */
	struct before_total before;
};

/*
 * A finding or a claim held: its bytes in pend_text, from off on, are its
 * text, then a finding's source (NUL-terminated) or a claim's items' texts;
 * a claim's items are pend_items[items_off, items_off + cl.n_items).
 */
struct pending {
	bool is_claim;
	bool drop;     /* a total said before its items, grounded: not passed on */
	bool how;      /* ...passed on grounded (--show-grounded): its source is before.how */
	struct claim_item it;
	struct claim cl;
	size_t off, items_off;
};

enum check {
	CHECK_REPORT,   /* report the match */
	CHECK_GROUNDED, /* it repeats tool output */
	CHECK_SILENT,   /* a number check with nothing to check against */
};

static const struct held *range_other(const struct claims *c, const struct held *h);

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

/* How near an average's word is read: before the figure, and after it. */
#define LEDGER_AVG_BEFORE 24

/* Words that say a figure is a total. */
static const char *const total_words[] = {"total", "altogether", "combined", "in all"};

unsigned days_said(struct claims *c, const struct held *h, uint64_t end);
bool opening_time(struct claims *c, const struct held *h, uint64_t end);
bool clock_reading(const char *t);
bool clock_format(struct claims *c, const struct held *h, uint64_t end);
bool days_a_week_held(struct claims *c, const struct held *h, uint64_t end);
bool date_ahead(struct claims *c, const struct held *h, uint64_t end);
bool year_of_other_role(struct claims *c, const struct held *h, uint64_t end);
const struct held *date_of_year(const struct claims *c, const struct held *h,
				       bool *month_only);
bool date_year_changed(struct claims *c, struct held *h, const struct held *day);
bool relative_date(struct claims *c, struct held *h, uint64_t end);
bool weekday_day(struct claims *c, struct held *h, uint64_t end);
bool upcoming_weekday(struct claims *c, struct held *h, uint64_t end);
bool nights_range(struct claims *c, struct held *h, uint64_t end);
bool clock_range_backwards(struct claims *c, struct held *h);
bool counts_results(struct claims *c, const struct held *h, uint64_t end);
bool written_term(struct claims *c, const struct held *h, uint64_t end);
bool rate_of_time(struct claims *c, const struct held *h, uint64_t end);
bool rate_labelled(struct claims *c, const struct held *h);
unsigned money_role(struct claims *c, const struct held *h, uint64_t end);
bool week_said(const char *p, size_t n);
bool span_product(struct claims *c, struct held *h, uint64_t end, bool before);
bool party_product(struct claims *c, struct held *h, uint64_t end);
bool results_total(struct claims *c, struct held *h, size_t n, bool write);
enum check check_total_stated(struct claims *c, struct held *h, unsigned role,
				     const struct ground_quantity *gq);
int check_total_computed(struct claims *c, struct held *h, unsigned role);
bool near_items_total(struct claims *c, struct held *h, unsigned role, double tolerance);
bool group_counted(struct claims *c, struct held *h);
bool urls_listed(struct claims *c, const struct held *h);
bool worked_out(struct claims *c, struct held *h);
bool ledger_total(struct claims *c, struct held *h, bool *short_by);
bool ledger_pair(struct claims *c, struct held *h, bool bare);
bool ledger_average(struct claims *c, struct held *h, uint64_t end);
bool count_product(struct claims *c, struct held *h);
void counts_keep(struct claims *c);
bool count_per_span(struct claims *c, struct held *h);
bool proposed(const struct claims *c, const struct held *h);
bool self_assessed(const struct claims *c, const struct held *h, uint64_t end);
bool branch_plan(const struct claims *c, const struct held *h);
bool clock_held(const struct claims *c, const struct quantity *t);
bool clock_gap_after(struct claims *c, const struct held *h);
bool clock_arith(struct claims *c, struct held *h);
bool bracketed_count(struct claims *c, struct held *h);
bool words_product(struct claims *c, struct held *h, uint64_t end);
bool derived_product(struct claims *c, struct held *h, uint64_t end);
bool span_in(const char *p, size_t n, unsigned *count);
bool share_of(struct claims *c, struct held *h, uint64_t end);
bool updated_amount(struct claims *c, struct held *h);
bool says_word(const char *p, size_t n, const char *const *words, size_t nw);
bool block_total(struct claims *c, struct held *h, uint64_t end);
void ranges_keep(struct claims *c);
bool range_midpoint(struct claims *c, struct held *h, uint64_t end);
bool last_two_sum(struct claims *c, struct held *h);
enum check check_quantity(struct claims *c, struct held *h, uint64_t end);
int lex_sentence(struct claims *c, uint64_t end);
bool exempt(struct claims *c, const struct held *h, uint64_t end);
bool off_entries(const struct claims *c, struct claim_item *it);
void claim_off_entries(struct claims *c, struct claim *cl, struct claim_item *items);
int release(struct claims *c, size_t k);
int hold_item(struct claims *c, const struct claim_item *it, const struct claim *cl);
int hand_on(struct claims *c, const struct claim_item *it, const struct claim *cl);
int arith_sentence(struct claims *c, uint64_t end);
void ledger_add(struct claims *c, const struct held *h, enum check chk);
int refs_list_end(struct claims *c);
bool before_total(struct claims *c, const struct held *h, uint64_t end);
int before_hold(struct claims *c, const struct claim_item *it);
int before_line(struct claims *c, uint64_t at, bool last);

/* True when the number lexer reads the model's sentences: there is grounding. */
static inline bool lexing(const struct claims *c)
{
	return c->lex && c->ground && ground_active(c->ground) && !c->in_tool;
}

/* Counts the current line's code points up to offset at (never backwards). */
static inline void count_columns(struct claims *c, uint64_t at)
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

/*
 * "since 1997", "Since August 2014": the history an answer gives its
 * subject ("in operation since 1997") is a claim of its own, checked
 * whether or not the grounding dates anything.
 */
static inline bool since_said(struct claims *c, const struct held *h)
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

/*
 * h grounded by what the answer worked out, written as how ("7 x 48"),
 * kept as its source (with --show-grounded), at the grounding offset at.
 */
static inline bool grounded_how(struct claims *c, struct held *h, const char *how, uint64_t at)
{
	size_t off = c->text.len;

	if (buf_add(&c->text, how, strlen(how) + 1) == 0)
		h->source_off = off;
	h->grounded_at = at;
	return true;
}

/*
 * A figure as a derivation writes it: whole, or to the cent at least and
 * to as many decimals as it has (a term of 0.125 is no 0.12: the working
 * said must add up).
 */
void total_fig(char *out, size_t n, double v);

static inline bool is_item(const struct claims *c, double v)
{
	size_t i;

	for (i = 0; i < c->n_totals; i++)
		if (fabs(c->totals[i] - v) < 0.005)
			return true;
	return false;
}

/* The ledger's k-th newest figure. */
static inline const struct ledger_fig *ledger_at(const struct claims *c, size_t k)
{
	return &c->ledger[(c->n_ledger - 1 - k) % CLAIMS_LEDGER];
}

/* Whether the ledger's figure f may be a term of the figure q: a sum of
 * money of q's unit or a bare figure the reply worked out, for money; a
 * bare one, for a bare figure. */
static inline bool ledger_unit(const struct ledger_fig *f, const struct quantity *q)
{
	if (q->kind == QUANTITY_NUMBER)
		return f->bare;
	return f->unit_hash == q->unit_hash || (f->bare && f->worked);
}

/* A figure the reply derived earlier, said again ("approximately $336.00"
 * after "Weekly cost: $336.00", 7 x 48): grounded as that was. */
static inline bool ledger_repeat(struct claims *c, struct held *h)
{
	size_t k;

	for (k = 0; k < MIN(c->n_ledger, (size_t)CLAIMS_LEDGER); k++) {
		const struct ledger_fig *f = ledger_at(c, k);

		if (f->derived && ledger_unit(f, &h->q) && fabs(f->v - h->q.value) < 0.005)
			return grounded_how(c, h, f->how, f->at);
	}
	return false;
}

/*
 * The bare figure h, which nothing grounds, as the reply's own: a figure it
 * derived said again, or said as a total or a difference ("Your total
 * spending was 1050.0"), the sum or difference of two it listed, or all
 * it listed since its last total; said as an average, their mean.
 */
static inline bool ledger_bare(struct claims *c, struct held *h, uint64_t end)
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

/* The grounded duration of the given minutes ("4 hours", "a 1-hour event"), or NULL. */
static inline const struct ground_quantity *duration_held(const struct claims *c, double minutes)
{
	const struct ground_quantity *gq;
	struct quantity d;

	quantity_set(&d, QUANTITY_BASE, "seconds", minutes * 60,
		     fmath_fmod(minutes, 60) == 0 ? 3600 : 60);
	gq = ground_figure_held(c->ground, &d);
	return gq && gq->q.unit_hash == d.unit_hash && gq->q.value == d.value ? gq : NULL;
}

/* Keeps the time of the clock h said for clock_arith(). */
static inline void clock_keep(struct claims *c, const struct held *h)
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
static inline const struct held *range_other(const struct claims *c, const struct held *h)
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

/* Is one of words said in the n bytes before h in its sentence, or right after it? */
static inline bool word_near(const struct claims *c, const struct held *h, uint64_t end, size_t before,
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

/*
 * h said as a total ("Total amount spent: 1360.0") of every amount one
 * list of the newest tool result gives (ground_list_total()).
 */
static inline bool tool_list_total(struct claims *c, struct held *h)
{
	char how[CLAIMS_TOTAL_HOW];
	uint64_t at;

	if ((h->nl_flags & (NUMLEX_RANGE | NUMLEX_APPROX)) ||
	    !ground_list_total(c->ground, &h->q, how, sizeof(how), &at))
		return false;
	return grounded_how(c, h, how, at);
}

/* The sums above, for a figure nothing else grounds. */
static inline bool sum_of_said(struct claims *c, struct held *h, uint64_t end)
{
	if (h->q.scale != 1 || !(h->q.value > 0) ||
	    !(quantity_class_of(&h->q) == QC_MONEY || h->q.kind == QUANTITY_NUMBER))
		return false;
	/* (said as a total: of a list; else a midpoint, or of two) */
	if (word_near(c, h, end, 48, 16, total_words, ARRAY_SIZE(total_words)))
		return block_total(c, h, end) || tool_list_total(c, h);
	return range_midpoint(c, h, end) || last_two_sum(c, h);
}

/* True when the held match repeats an item of earlier tool output. */
static inline bool grounded(struct claims *c, struct held *h)
{
	enum grounding k = c->rs->rules[h->rule].grounding;

	if (!c->ground || k == GROUNDING_NONE || k == GROUNDING_QUANTITY ||
	    k == GROUNDING_ATTRIBUTE || h->truncated)
		return false;
	if (ground_key(k, c->text.data + h->text_off, h->text_len, &c->key) < 0)
		return false;
	return ground_find(c->ground, c->key.data, c->key.len, &h->grounded_at);
}

static inline bool found(struct claims *c, pcre2_code *code, const char *s, size_t n)
{
	/* A pattern that hits its match limit exempts nothing. */
	return code && pcre2_match(code, (PCRE2_SPTR)s, n, 0, 0, c->md, c->mctx) >= 0;
}

/* True when rule r is a number check (grounding: quantity). */
static inline bool number_rule(const struct claims *c, size_t r)
{
	return c->rs->rules[r].grounding == GROUNDING_QUANTITY;
}

/* True when such a number check found the finding's text, alone or with other rules. */
static inline bool number_found(const struct claims *c, const struct claim_item *it)
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
static inline bool awaits_line(const struct claims *c, const struct claim_item *it)
{
	return c->refs && it->from >= c->line_start && it->from >= c->judged_to &&
	       c->dec_end <= c->line_start + REFS_LINE_MAX;
}

/* The findings and claims held: pend[pend_head, n_pend). */
static inline size_t waiting(const struct claims *c)
{
	return c->n_pend - c->pend_head;
}

/* Those of them that may go out now: all before a total that waits for its items. */
static inline size_t ready(const struct claims *c)
{
	return c->before.on ? c->before.slot - c->pend_head : waiting(c);
}

/* A year in parentheses after an entry's authors starts this near the line's start. */
#define REFS_YEAR_WITHIN 128
/*
 * What a line's first byte says to the recognizer: OPENS_ITEM, it may be a
 * list item (a bullet, a digit, "[", the lead byte of "•", or a blank: an
 * indented one); OPENS_NAME, a capital, it may open with authors; 0,
 * neither. A table (claims_refs.c): every line ends here.
 */
enum { OPENS_ITEM = 1, OPENS_NAME = 2 };
extern const unsigned char refs_line_opens[256];
int refs_read_line(struct claims *c, uint64_t end);

/*
 * The current line ends at offset end: its entries, when it may hold any,
 * are read (refs_read_line()), and what waited for it goes out. Inline:
 * every line ends here, and nearly every one with nothing to read.
 */
static inline __attribute__((always_inline)) int refs_line(struct claims *c, uint64_t end)
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
		} else if (refs_line_opens[(unsigned char)s[0]] == OPENS_ITEM) {
			if (c->find_items &&
			    refs_item_start(s, n, c->ref_line != UINT64_MAX && c->ref_line + 2 >= c->line))
				err = refs_read_line(c, end);
		} else if (refs_line_opens[(unsigned char)s[0]] == OPENS_NAME && c->cue_rule != SIZE_MAX &&
			   refs_paren_year(s, n)) {
			c->ref_cue = true;
			err = refs_read_line(c, end);
		}
	}
	/* (nothing held back, the common case: release() would only clear) */
	rerr = c->n_pend && ready(c) ? release(c, ready(c)) : 0;
	return err ? err : rerr;
}

/*
 * Passes a finding on: a number check's waits while its line may yet be
 * an entry (and everything after it waits behind it); one inside an entry
 * of the line read last loses the number checks.
 */
static inline int put(struct claims *c, const struct claim_item *it)
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
	return waiting(c) ? hold_item(c, it, NULL) : hand_on(c, it, NULL);
}

/* The first held of the sentence that is a sum of money its written
 * working grounded (arith_sentence()), or n_held. */
static inline size_t first_worked(const struct claims *c)
{
	size_t k;

	for (k = 0; k < c->n_held; k++)
		if (c->chk[k] == CHECK_GROUNDED && c->held[k].worked &&
		    quantity_class_of(&c->held[k].q) == QC_MONEY)
			break;
	return k;
}

#endif
