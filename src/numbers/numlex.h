/* SPDX-License-Identifier: MIT */
/*
 * The number lexer: every number in a text, in one pass, as the quantity it
 * states ("$1.2 billion", "March 26, 2024", "50-60 inches", "5 pm",
 * "SARS-CoV-2", "twenty five", "72 °F"), with what it is when it is no claim
 * about the world (a list marker, a count of the answer's own words, a
 * passage reference, a fixed phrase, a version). Digits inside URLs, e-mail
 * addresses, identifiers glued to "_" or to lowercase letters, and phone
 * numbers give nothing.
 *
 * Nothing here allocates. The scan looks at most NUMLEX_LOOK bytes behind and
 * 2 * NUMLEX_LOOK ahead of the number it reads, so it is linear in the text.
 */
#ifndef HALLUSCAN_NUMLEX_H
#define HALLUSCAN_NUMLEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "quantity.h"

/* The counting copy's names, moved aside (lex.h says why). */
#ifdef NUMLEX_COUNTED
#define numlex_scan counted_numlex_scan
#define numlex_resume counted_numlex_resume
#define numlex_next_glued counted_numlex_next_glued
#define numlex_next_code_digit counted_numlex_next_code_digit
#define numlex_self_check counted_numlex_self_check
#endif

#define NUMLEX_LOOK 64

/* Item flags. */
enum {
	/* One end of a range ("50-60 inches", "$15 to $25", "between 4 and 5
	 * minutes", "11 am to 11 pm", "3-5%"): two items, each with the range's
	 * unit, both spanning the whole range. */
	NUMLEX_RANGE = 1u << 0,
	/* "about", "around", "approximately", "roughly", "nearly", "almost",
	 * "over", "under", "some", "circa", "estimated", "more/less/fewer/greater
	 * than", "at least", "at most", "up to", "close to", "upwards of", "in
	 * excess of", "as many/much/few/little as", "~" or "≈" before, "+" or
	 * "-plus" after ("100+"). */
	NUMLEX_APPROX = 1u << 1,
	/* Written in words ("Fifteen", "twenty five", "a dozen", "third"). */
	NUMLEX_WORDS = 1u << 2,
	/* A part of a compound: a date's day or year, a quarter's year, a date
	 * and time's time (from/to span the compound, part_from/part_to the part). */
	NUMLEX_PART = 1u << 3,

	/* No claims about the world; the caller decides what to do with them: */

	/* A count of the text itself: of words, characters, sentences,
	 * paragraphs, lines or bullets always ("a 68-word summary", "within 84
	 * words"); of tips, steps, ways, reasons, ideas, examples, points,
	 * takeaways, things or options when "here are", "these", "following"
	 * or "top" comes right before the number ("Here are 5 tips", "the top
	 * 10 reasons"). The noun is the first or second word after the number. */
	NUMLEX_SELF_COUNT = 1u << 4,
	/* A number that starts a line (after blanks and one of "-", "*", ">" or a
	 * run of "#") and is followed by "." or ")" and a blank or the end: "7.
	 * Preheat", "4) Stir", "## 3. Results". At most three digits. */
	NUMLEX_LIST_MARKER = 1u << 5,
	/* A pointer into the grounding: "Passage 2", "(Document 3)", "Source 1",
	 * "Passages 1 and 2", "Figure 4", "Table 2", "page 7", "[2]", "[1, 3]". */
	NUMLEX_REFERENCE = 1u << 6,
	/* Part of an idiom from a small table: "seven days a week", "24/7", "24
	 * hours a day", "365 days a year", "one day", "one of", "one or two",
	 * "one another", "no one", "at one point", "one by one", "first of all"... */
	NUMLEX_FIXED_PHRASE = 1u << 7,
	/* A version: three or more dotted parts ("1.16.0", "192.168.0.1"), "v"
	 * and digits ("v2", "v2.3.1"), a decimal after a product's or a
	 * version's name ("Python 3.11", "iOS 17.2", "version 2.3"). Its
	 * quantity is an identifier ("version:python"). */
	NUMLEX_VERSION = 1u << 8,

	/* With NUMLEX_APPROX, the side of a bound: a least ("over", "more
	 * than", "greater than", "at least", "upwards of", "in excess of", "+"
	 * or "-plus" after) or a most ("under", "less than", "fewer than", "at
	 * most", "up to"). On a year, without it: "after 1980", "post-1980";
	 * "before 1990", "prior to 1990", "pre-1990". Not on a range. */
	NUMLEX_ABOVE = 1u << 9,
	NUMLEX_BELOW = 1u << 10,
	/* A year where an author-date citation puts it: first in parentheses
	 * ("Patel (2017)") or after a name in them ("(Patel et al., 2017)"). A
	 * claim (the year a study appeared), but it dates the study, not the
	 * figures around it: no reporting period (numlex_period_feed()). */
	NUMLEX_CITATION = 1u << 11,
	/* A number that may number an item of a list run inline, mid-line:
	 * digits alone (1 to 999), then "." or ")" and a blank or the end, after
	 * ",", ";", ":", a sentence's end or at the text's start ("..., 4.
	 * Agence", "plan: 1. Search"). Not a list marker by itself ("Total: 5.
	 * Then" says five): a caller that sees a run of them counting up by
	 * one takes them for the list's numbering (claims.c). Not set with
	 * NUMLEX_LIST_MARKER. */
	NUMLEX_INLINE_ITEM = 1u << 12,
	/* Hexadecimal, "0x" and up to 13 significant digits ("0x14",
	 * "0x00000000004011d6"): a bare number of its value, so that a tool's
	 * "0x14" and an answer's "20" are the same figure, and back. */
	NUMLEX_HEX = 1u << 13,
	/* A duration a word implies, with no number: "a decade", "the last
	 * decade", "a fortnight", "half an hour", "a couple of days" (with
	 * NUMLEX_WORDS). What a user or a tool said so grounds the figure ("10
	 * years" for "the last decade"); said by the answer it is loose talk,
	 * which a caller may take for no claim (claims.c does). */
	NUMLEX_IMPLIED = 1u << 14,
};

/* The flags of items that are no claim about the world. */
#define NUMLEX_NOT_CLAIM \
	(NUMLEX_SELF_COUNT | NUMLEX_LIST_MARKER | NUMLEX_REFERENCE | NUMLEX_FIXED_PHRASE | \
	 NUMLEX_VERSION)

/* Scan options. */
enum {
	NUMLEX_LINE_START = 1u << 0, /* text[0] starts a line (for list markers) */
	NUMLEX_BYTEWISE = 1u << 1,   /* the reference pass, a byte at a time (for tests:
					the same items, slower) */
	NUMLEX_CODE = 1u << 2,       /* find where a code may be too (numlex_code()) */
};

struct numlex_item {
	/* Byte offsets into the text scanned, end exclusive: the whole expression
	 * ("$1.2 billion", "March 26, 2024", "50-60 inches", "Q3 2021"). Items of
	 * one expression share them and come one after another. */
	size_t from, to;
	/* This item's own bytes: "2024" of "March 26, 2024", "50" of "50-60
	 * inches", "March 26" of it; the same as from/to for a lone number. */
	size_t part_from, part_to;
	struct quantity q; /* see quantity.h for the kinds and units */
	unsigned flags;    /* NUMLEX_* */
};

/*
 * A scan hands its items on in batches: numlex_scan() fills the caller's
 * array and returns how many, pausing when it is full, and
 * numlex_resume() goes on where it stopped. NUMLEX_BATCH is an array that
 * most texts do not fill (a sentence has a few items; a tool's long value
 * pauses now and then, which costs a copy of the state). NUMLEX_STEP_MAX:
 * the most items one step of the scan gives (a bracket's 16 references; an
 * expression's 8); those past the caller's array wait in struct numlex for
 * the next call.
 */
#define NUMLEX_BATCH 32
#define NUMLEX_STEP_MAX 16

struct vword;
struct numlex;

/*
 * The state of one scan's pass (numlex.c and its readers; no caller reads
 * it). numlex_scan() sets each field: one added here is set there too.
 */
struct numlex_state {
	const char *t;
	size_t n;
	/* The window of the expression being read: [low, lim). low is never
	 * before the end of the previous expression (done). */
	size_t low, lim, done;
	size_t span; /* lim - low: B() tests i - low < span, one compare */
	size_t year_end; /* the end of the last expression that gave a year, or 0 */
	/* The last words found before a place: most items ask several times. */
	struct {
		size_t at, low;
		bool dot, either, found; /* either: dot changed nothing */
		size_t ws, we;
		const struct vword *v;
	} wb[2];
	unsigned wb_next;
	/* The last words found at a place (word_at()). */
	struct {
		size_t at, low, lim; /* SIZE_MAX: empty (a word found is below lim) */
		size_t we;
		const struct vword *v;
	} wa[2];
	unsigned wa_next;
	/* The last words looked up, by where they start. */
	struct {
		size_t ws1, we; /* ws + 1: 0 is empty */
		const struct vword *v;
	} vc[4];
	unsigned vc_next;
	unsigned opts;
	size_t p; /* where the pass goes on */
	/* The batch being filled, the caller's array: count of cap; what
	 * does not fit goes to kept's held. */
	struct numlex_item *items;
	size_t count, cap;
	struct numlex *kept;
	/* Every byte read, in the counting copy (lex.h) only. */
	size_t examined;
	/* Where a code may be (NUMLEX_CODE): the first digit a letter
	 * touches or a "_" comes before, SIZE_MAX till one is found;
	 * [0, code_to) is looked through. */
	size_t code, code_to;
	int rc; /* 0; 1 once the caller's array is full; or an error */
	bool avx2; /* the scan's blocks in AVX2 (numlex.c) */
};

/*
 * One scan of one text, kept by the caller between batches, so that a full
 * array is a pause, not a loss: the pass's state as the batch that paused
 * left it (the window, the words before a place and the last words looked
 * up, where it goes on, the code search), and the items of its last step
 * that did not fit. Read no field: numlex_scan() and numlex_resume() set
 * them.
 */
struct numlex {
	struct numlex_state s;
	struct numlex_item held[NUMLEX_STEP_MAX];
	/* What numlex_resume() has to give: 0 nothing (set as a scan ends
	 * with room to spare), 1 the pass paused before the text's end, 2
	 * held items only; held_from and held_to are set as an array fills. */
	uint8_t more;
	uint8_t held_from, held_to;
};

/*
 * Scans text[0..n) (opts: NUMLEX_*), lx a new scan whatever it held: puts
 * its items in order of from (then part_from) in items[0..cap), and
 * returns how many. Fewer than cap: the text is done. cap: the array
 * filled, which pauses the scan, and numlex_resume() gives what follows,
 * till a call gives fewer (0 when the text ended right there). Expressions
 * do not overlap: one's from is at or after the previous one's to, across
 * batches too. The items' offsets are into the text, which must stay as it
 * is till the scan ends; nothing of it is copied. NUMLEX_BATCH items are
 * enough for most texts. -EOVERFLOW if one step had more than
 * NUMLEX_STEP_MAX items past the array (never: lex_hold() says why); the
 * scan ends there.
 *
 * With NUMLEX_CODE, numlex_code() tells where a code may be once the scan
 * is done.
 */
int numlex_scan(struct numlex *lx, const char *text, size_t n, unsigned opts,
		struct numlex_item *items, size_t cap);

/*
 * The next items of a scan that numlex_scan() or numlex_resume() paused
 * (gave cap items), into items[0..cap) (any cap): how many, as
 * numlex_scan(). A cap of 0 is -EINVAL, here and at numlex_scan()'s first
 * item.
 */
int numlex_resume(struct numlex *lx, struct numlex_item *items, size_t cap);

/*
 * The same, counting into numlex_examined() every byte the scan reads,
 * lookbehind and lookahead included (for the test that the scan stays
 * linear). Only in the lexer's counting copy (numlex-counted in
 * meson.build; lex.h), which the tests, fuzz_numlex and numlex_bench link:
 * the program's counts nothing.
 */
int numlex_scan_counted(struct numlex *lx, const char *text, size_t n, unsigned opts,
			struct numlex_item *items, size_t cap);
int numlex_resume_counted(struct numlex *lx, struct numlex_item *items, size_t cap);

static inline size_t numlex_examined(const struct numlex *lx)
{
	return lx->s.examined;
}

/*
 * Once the scan is done (a call gave fewer than cap), where a code
 * may be, with NUMLEX_CODE: numlex_next_code_digit(text, 0, n), n when no
 * digit of the text has a letter beside it or a "_" before it
 * (ground_next_code() finds nothing then); 0 without it.
 */
static inline size_t numlex_code(const struct numlex *lx)
{
	return lx->s.code;
}

/*
 * The reporting period each figure of a text is said of, bound as its items
 * come: the period right after the figure, joined by words alone ("$3.69 in
 * the third quarter of 2021", "$1.30 to $1.40 for Q4 2020", "$5bn in sales
 * by 2023"; no digit, comma or sentence end between), else the period
 * before it in its sentence with no other figure between ("Third quarter
 * 2020 earnings were $0.34"). A period a figure is compared with binds to
 * nothing ("5% from 2019", "compared to the third quarter of 2019"), nor a
 * date's year. A period is a quarter, a year, or a quarter's year:
 * QUANTITY_PERIOD() of quantity.h; or the prior year or quarter, said
 * within four words after the figure ("$1.67 billion in the prior year",
 * "up 5% year over year", "grew 3% sequentially"), which a quarter or year
 * after it still binds over.
 *
 * Feed numlex_period_feed() every item of one scan in order, with
 * the text scanned (n bytes). It returns what the item is to its figures:
 *  NUMLEX_PERIOD_FIGURE  a figure (money, a percentage, a count, a bare
 *                        number, a duration): *period is the period bound
 *                        before it, or 0;
 *  NUMLEX_PERIOD_SAME    the second end of a range: the same figure, the
 *                        first end's period;
 *  NUMLEX_PERIOD_BINDS   a period (or a quarter's year) that binds to the
 *                        last figure: *period is that figure's period now,
 *                        whole so far ("Q4", then "Q4 2019" at its year);
 *  NUMLEX_PERIOD_OTHER   anything else.
 */
struct numlex_periods {
	size_t last_from;     /* the previous item's expression */
	bool any;
	size_t fig_from, fig_to; /* the last figure */
	bool fig_open;        /* no item since that ends it */
	uint32_t fig_period_before; /* the period bound before it */
	uint32_t period;      /* the last period */
	size_t per_from, per_to;
	bool per_fresh;       /* no figure since it, and not bound after one */
	bool per_base;        /* said as what is compared with */
	bool per_bound;       /* bound to the figure before it */
	/* The quarter-year the item fed completed ("Q3 2019", "the third
	 * quarter of 2019": at its year), else 0; and whether it is said as
	 * what something is compared with, read further back than a figure's
	 * binding reads (numlex_period_compared()). */
	uint32_t quarter_year;
	bool quarter_year_compared;
};

enum { NUMLEX_PERIOD_OTHER, NUMLEX_PERIOD_FIGURE, NUMLEX_PERIOD_SAME, NUMLEX_PERIOD_BINDS };

void numlex_periods_reset(struct numlex_periods *b);
/*
 * Is the period starting at text[from] said as what something is compared
 * with, anywhere in the ten words before it in its sentence ("up 17% from
 * $0.29 in the third quarter of 2019", "compared to $0.16 last quarter and
 * $0.29 in the third quarter of 2019")? Not whether a figure is said of it
 * ("$0.29" is): whether it is what the sentence reports on.
 */
bool numlex_period_compared(const char *text, size_t from);
int numlex_period_feed(struct numlex_periods *b, const char *text, size_t n,
		       const struct numlex_item *it, uint32_t *period);

/*
 * The first digit of text[i, n) with an ASCII letter right before or right
 * after it ("A1", "9f", "15FIT"), else n: where a code may be
 * (ground_next_code()); 64 bytes at a time, as the lexer's own pass.
 */
size_t numlex_next_glued(const char *text, size_t i, size_t n);
/*
 * The first digit of text[i, n) that numlex_next_glued() finds, or that
 * follows a "_" at or after i ("req_886c4"), whichever is first, else n: in
 * one pass of 64 bytes at a time (ground_next_code()).
 */
size_t numlex_next_code_digit(const char *text, size_t i, size_t n);

/*
 * For the tests: the vocabulary tables made from words/numbers.txt are
 * what the lexer assumes (sorted, indexed, every trigger in the filter:
 * vocab_check()), the fixed phrases pass their pre-check, and the byte
 * masks of the main pass agree with the byte classes. NULL, or what is
 * wrong (a word, or a parenthesized name).
 */
const char *numlex_self_check(void);

#endif
