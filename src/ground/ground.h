/* SPDX-License-Identifier: MIT */
/*
 * The grounded set: what tool output said, normalized, so that the same
 * item repeated in agent text is recognised as grounded. Bounded: at most
 * GROUND_CAP items; when full the oldest is evicted (and counted).
 *
 * ground_new() returns a set freed with ground_free().
 */
#ifndef HALLUSCAN_GROUND_H
#define HALLUSCAN_GROUND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util.h"
#include "match/rules.h"
#include "numbers/quantity.h"

#define GROUND_CAP 4096
/* Keys longer than this are cut; a URL that long is compared by its head. */
#define GROUND_KEY_MAX 512

struct ground;

int ground_new(struct ground **out);
void ground_free(struct ground *g);
void ground_reset(struct ground *g);

/* Records key, first seen at offset at (a later sighting keeps the first). */
int ground_add(struct ground *g, const char *key, size_t n, uint64_t at);
/* True when key is held; *at is where it was grounded. */
bool ground_find(const struct ground *g, const char *key, size_t n, uint64_t *at);
uint64_t ground_evictions(const struct ground *g);

/* Whether anything was put in g since its last reset or its making (false for NULL). */
bool ground_changed(const struct ground *g);

/* Marks that grounding exists for this input (a tool span, or a source). */
void ground_activate(struct ground *g);
/* True once a tool span was seen or a source loaded: number checks apply. */
bool ground_active(const struct ground *g);

#define GROUND_CONTEXT 16
#define GROUND_CONTEXT_SIDE 10

/*
 * The words a quantity is said with: hashes of the content words nearest
 * to it in its sentence, at most GROUND_CONTEXT_SIDE before it (160 bytes
 * back) and, with ground_context_after(), as many after it. Function words
 * and the words of figures ("million", "percent") are left out.
 */
struct ground_context {
	uint32_t word[GROUND_CONTEXT];
	size_t n;
	uint64_t mask; /* bit (word % 64) of each word: no bit in common, no word */
	/* The nearest word on each side (a value's innermost key word before
	 * it), or 0: what a figure is most closely said of. */
	uint32_t before1, after1;
	/* The reporting period it is said of (QUANTITY_PERIOD()), or 0: set
	 * by its reader, from numlex_period_feed(); the functions above clear it. */
	uint32_t period;
	/* The side of a bound it is said as: 1 a least ("over 50"), -1 a most
	 * ("up to 30%"), 0 none; set by its reader (NUMLEX_ABOVE, _BELOW). */
	int8_t bound;
	/* Set by its reader on a quarter's year ("the third quarter of 2019"):
	 * that quarter-year (QUANTITY_PERIOD()), and whether it is said as
	 * what something is compared with (numlex_period_compared()). */
	bool compared;
	uint32_t quarter_year;
	/* Of a quantity in a set: the grounding text it was read from (its
	 * set's ground_begin_text() count then, kept by copies), 0 unknown;
	 * set by ground_add_quantity(), whatever the caller's says. */
	uint32_t text;
};

/* The words before a quantity; before points just past the bytes before it. */
void ground_context_of(const char *before, size_t n, struct ground_context *ctx);
/*
 * Adds the content words of a quantity's own text ("stars" of "4.0 stars",
 * which a key such as "business_stars" says too), leaving its nearest
 * words (before1, after1) as they are.
 */
void ground_context_words(const char *text, size_t n, struct ground_context *ctx);

/*
 * What ground_context_of(w + k, k, ctx) finds in one word of a JSON key's
 * path (letters, digits and other bytes, no line break or sentence's end:
 * record.h's words), for less.
 */
void ground_context_key(const char *w, size_t k, struct ground_context *ctx);

/*
 * Only the nearest word on each side (before1, after1; no word list): what
 * ground_context_of() and ground_context_after() would set them to, for
 * less. before points just past the bytes before the quantity, after at
 * the bytes after it.
 */
void ground_context_nearest(const char *before, size_t nb, const char *after, size_t na,
			    struct ground_context *ctx);

/* A quantity tool output or a source stated, with its text as written. */
struct ground_quantity {
	struct quantity q;
	uint64_t at;
	struct ground_context ctx;
	unsigned days; /* the one day of the week it is said of (GROUND_DAY), or 0 */
	/* Said in a prompt (a text ground_turn() began: what the user or the
	 * system said), not in a tool's result; a copy keeps it. */
	bool prompt;
	/* As written, at most GROUND_TEXT_MAX - 1 bytes, NUL-terminated: kept
	 * in its set's text ring (valid while the quantity is held, as the
	 * pointer to it is). */
	const char *text;
};

#define GROUND_TEXT_MAX 48

/* Days of the week as bits: Monday is bit 0, Sunday bit 6. */
#define GROUND_DAY(d) (1u << (d))
#define GROUND_DAYS_ALL 0x7fu

/*
 * The days of the week that text names: "Monday", "Mon", "Mondays",
 * "Monday through Friday" (also "to", "until", "-", wrapping round the
 * week), "weekdays", "weekends", "daily", "every day", "7 days a week";
 * those after "except" or "excluding" are left out ("daily except Monday").
 */
unsigned ground_days(const char *text, size_t n);
/* "Monday" for GROUND_DAY(0) ...; NULL unless days is one day. */
const char *ground_day_name(unsigned days);

/*
 * The days of the week the grounding gives times of (GROUND_DAY bits), as
 * an opening-hours record does, since the last reset: "open six days a
 * week" counts them.
 */
unsigned ground_days_held(const struct ground *g);
/* True when a quantity of the unit (quantity_unit_hash()) is held. */
bool ground_holds_unit(const struct ground *g, uint64_t unit_hash);
/* The newest time said of a day (among the newest DAYS_WALK times), or NULL. */
const struct ground_quantity *ground_day_time(const struct ground *g);

/*
 * A time of day said of days (ground_days()): for each of them that the
 * grounding gives times of (an opening-hours record: {"Monday": "7:0-21:0"},
 * "Monday: 9am-5pm"), one of that day's times must state it. Returns that
 * day's nearest time where none does, else NULL (nothing to contradict).
 */
const struct ground_quantity *ground_check_days(const struct ground *g,
						const struct quantity *a, unsigned days);

/*
 * A new grounding text (a message, a tool's result) starts: the quantities
 * added from here on are said in it, after those before (ground_context's
 * text). A later text that states a figure outranks an earlier one that
 * says another (ground_match_quantity()).
 */
void ground_begin_text(struct ground *g);

/* Records a quantity (bounded like the items; the oldest is evicted). */
int ground_add_quantity(struct ground *g, const struct quantity *q, const char *text,
			size_t n, uint64_t at, const struct ground_context *ctx);

/*
 * Adds to ctx the content words after a quantity, up to the end of its
 * sentence (at most 160 bytes, until ctx holds GROUND_CONTEXT words): with
 * ground_context_of(), the words on both sides of it. after points just
 * past the quantity.
 */
void ground_context_after(const char *after, size_t n, struct ground_context *ctx);
/* NULL, or the stop word whose precomputed hash or slot is wrong (or
 * "stop_slot" when the slots' table is not the list's), or "popcount64"
 * when the bit count disagrees with counting. */
const char *ground_self_check(void);
/* How many of a's words b holds. */
size_t ground_context_shared(const struct ground_context *a, const struct ground_context *b);

enum ground_verdict {
	GROUND_NONE,    /* nothing of its unit near, nor said in its context */
	GROUND_STATED,  /* a grounded quantity states it */
	GROUND_SWAPPED, /* said where the grounding says another figure of its unit */
	GROUND_NEAR,    /* a grounded one of its unit within tolerance, not equal */
};

/*
 * For a bare number of the answer that the grounding holds (above): the
 * newest other bare number the grounding says between the very words, both
 * of them, that the answer puts around this one, when none of its own
 * figure is said between them; NULL otherwise. "build over 50 stores, with
 * over 100 completed" where the source builds 100 and completes 50.
 */
const struct ground_quantity *ground_swapped_bare(const struct ground *g, const struct quantity *a,
						 const struct ground_context *ctx);

/*
 * What the written quantity a, said with context ctx, stands against, in
 * this order:
 *  1. a grounded quantity it states, said in a shared context (one content
 *     word in common): GROUND_STATED; unless no stating one has all of a's
 *     nearest words (before1, after1: the one it has at a sentence's end)
 *     and the swap of 2. below has exactly them: GROUND_SWAPPED ("income
 *     was $946 million." where the source says "income was $971 million
 *     ..., compared with $946 million");
 *  2. a grounded quantity of its unit that it does not state, said in a
 *     context sharing two or more words with a's (among the 128 newest of
 *     its unit; the most words, then the nearest): GROUND_SWAPPED, a figure
 *     moved from one place to another; not, for a count of a noun that 3.
 *     grounds, a bare figure whose words do not name the noun;
 *  3. one it states anywhere: GROUND_STATED;
 *     (a year, date, time, temperature, ordinal or name's digits is held
 *     against those of its unit and value, the 32 newest of its unit, and
 *     the bare numbers that state it);
 *  4. the nearest of its unit within tolerance, in a shared context first:
 *     GROUND_NEAR;
 *  5. else NULL and GROUND_NONE.
 * In 2. and 4., a bound that a keeps is no candidate ("under 34 euros" a
 * user asked for, 30 euros said): a meets it, it did not change it; nor,
 * for a whole count of a noun ("3 nights"), a bare figure written with
 * decimals whose words do not name that noun ("rating": 3.9): a measure
 * of another thing.
 * The pointer is valid until the set changes.
 */
const struct ground_quantity *ground_match_quantity(const struct ground *g,
						    const struct quantity *a,
						    const struct ground_context *ctx,
						    double tolerance, enum ground_verdict *v);
/*
 * What ground_match_quantity() returns where its verdict is GROUND_STATED,
 * for less: a check that asks only whether a is stated skips the search
 * for near figures, and for a swapped one where nothing states a. Where
 * the verdict would be another, NULL and GROUND_NONE.
 */
const struct ground_quantity *ground_stated_quantity(const struct ground *g,
						     const struct quantity *a,
						     const struct ground_context *ctx,
						     enum ground_verdict *v);
/*
 * Whether ground_match_quantity() of a duration of days days (at day
 * scale, as quantity_set(..., "seconds", days * QUANTITY_DAY_SECONDS,
 * QUANTITY_DAY_SECONDS) makes it), with no context and tolerance 0, is
 * GROUND_STATED; days 1 to 63 are kept for the set as it is.
 */
bool ground_days_stated(const struct ground *g, unsigned days);
/*
 * Whether the walk of a unit's newest quantities the searches keep (and
 * bring up to date as quantities are put in) is, once asked for, what a
 * walk of its list gives now. For tests.
 */
bool ground_unit_newest_walks(const struct ground *g, uint64_t unit_hash);

/*
 * ground_match_quantity() (stated_only false) or ground_stated_quantity()
 * (true) with every candidate the bins and lists give judged, as before the
 * searches left out those that cannot change the verdict: the same answer,
 * slower. For tests that hold the searches to that.
 */
const struct ground_quantity *ground_match_unfiltered(const struct ground *g, const struct quantity *a,
						      const struct ground_context *ctx, double tolerance,
						      enum ground_verdict *v, bool stated_only);
/*
 * True when ground_match_quantity() at tolerance (and ground_stated_quantity())
 * finds nothing for a whatever its context (GROUND_NONE), asked without one:
 * a's unit holds nothing, and no bare number the search would judge states
 * a or is near it. The caller then need not gather a's context. False where
 * unsure (a count, a temperature, a range too wide to search by bins).
 */
bool ground_nothing_judged(const struct ground *g, const struct quantity *a, double tolerance);
/*
 * True when a code (ground_is_code(), keyed as GROUNDING_CODE) was put in
 * since the reset, evicted or not, or ground_note_codes() said the
 * grounding names things so ("ELITEFIT15"): an answer's codes are checked
 * only then, as its years are against years.
 */
bool ground_codes_held(const struct ground *g);
void ground_note_codes(struct ground *g);
/* The seq the next quantity added gets: quantities [from, next) are those added since. */
uint64_t ground_next_seq(const struct ground *g);
/* Sets the period of the quantities added as seqs [from, to) that are still held. */
void ground_set_period(struct ground *g, uint64_t from, uint64_t to, uint32_t period);
/* True when a quantity held, or one since evicted, was said of a period: an
 * answer's periods matter only then. */
bool ground_has_periods(const struct ground *g);

/*
 * A quarter-year the grounding says only as what something is compared
 * with ("up 17% from $0.29 in the third quarter of 2019"), in every place
 * still held, and never, since the reset, as what it reports on, while it
 * reports on another: that other (the newest of the same quarter, else
 * the newest), with where it was said in *at. 0 otherwise: the answer that
 * reports on it says what the grounding does not ("results for Q3 2019"
 * of a report on Q3 2020).
 */
uint32_t ground_compared_only(const struct ground *g, uint32_t quarter_year, uint64_t *at);
/*
 * A grounded quantity written as a and said of period exactly ("$0.29 in
 * the third quarter of 2019"); where more than 64 are written as a, the
 * 65th (too many to tell: taken as said); else NULL.
 */
const struct ground_quantity *ground_said_of(const struct ground *g, const struct quantity *a,
					     uint32_t period);

/*
 * For a figure of the answer that grounded quantities written the same way
 * state, said of a period (QUANTITY_PERIOD(), or 0) or as one side of a
 * bound (1, -1, or 0): the newest of them when every one (the newest 64 at
 * most) says it otherwise, of a period that differs
 * (quantity_periods_differ()) or as the other side of a bound: "$1.30 to
 * $1.40 for Q4 2019" where the source gives them for the fourth quarter of
 * 2020, "with less than 50 completed" where it says "over 50". NULL
 * otherwise. A bare number is held against every quantity written as it is
 * (at its scale, where it has one: ground_figure_held()).
 */
const struct ground_quantity *ground_said_otherwise(const struct ground *g, const struct quantity *a,
						   uint32_t period, int bound);
/*
 * The newest grounded quantity written with a's figure ("$7", "7 days", 7
 * for a bare 7; for a figure with a scale, "71 million", at that scale),
 * else the newest bare number of the same value ("71,000,000" for "71
 * million"); NULL when there is none.
 */
const struct ground_quantity *ground_figure_held(const struct ground *g, const struct quantity *a);

/*
 * The newest grounded quantity that states lo or hi, next in its unit's
 * order to one that states the other, within `within` bytes: a range
 * "10:00 - 11:00" said of one record's start and end. NULL when none.
 */
const struct ground_quantity *ground_range_held(const struct ground *g, const struct quantity *lo,
						const struct quantity *hi, uint64_t within);

/*
 * Days said relative to another date or to today. ground_relative_of()
 * reads text for them and sets, in *anchored, bit (offset +
 * GROUND_REL_MAX) of each offset from another date it says ("the day
 * before" -1, "the next day", "the following day", "a day later" +1, "two
 * weeks later" +14, "3 days earlier" -3), and in *today each from today
 * ("today" 0, "tomorrow" +1, "yesterday" -1, "the day after tomorrow" +2,
 * "in 3 days" +3, "a week ago" -7); offsets past GROUND_REL_MAX days are
 * left out. ground_note_relative() adds what a grounding text says to the
 * set's (kept since the reset, taken by a copy or sync, added by a
 * merge); ground_relatives() gives them.
 */
#define GROUND_REL_MAX 31
void ground_relative_of(const char *text, size_t n, uint64_t *anchored, uint64_t *today);
void ground_note_relative(struct ground *g, const char *text, size_t n);
void ground_relatives(const struct ground *g, uint64_t *anchored, uint64_t *today);
/*
 * The date days after (before, when negative) a day of a month md (month
 * x 100 + day) of year (0: unknown, taken as a year that is not a leap
 * year, and *out_year 0); false when md is no date.
 */
bool ground_shift_day(unsigned md, unsigned year, int days, unsigned *out_md, unsigned *out_year);
/* The weekday (0 Monday to 6 Sunday) of md (month x 100 + day) of year; -1 when no such date. */
int ground_weekday(unsigned md, unsigned year);
/*
 * The newest day of a month the grounding says as today's (its words
 * "today" or "current": "Current time: 2023-09-11 09:00:00", "Today is
 * May 20, 2024"), with the year written beside it in *year (0: none);
 * NULL when there is none (or it was evicted).
 */
const struct ground_quantity *ground_today(const struct ground *g, unsigned *year);
/*
 * A day of a month said as a weekday and a day of the month alone ("at 8
 * AM on Saturday 18th" in an email): the quantity that says it, when md
 * (month x 100 + day, of year y; 0: any) is that day of the month within
 * 31 days of a date the grounding gives with its year (the email's
 * timestamp, 2024-05-13) and falls on that weekday (2024-05-18 is a
 * Saturday); else NULL. The weekday and the nearby date pin the month the
 * text left out.
 */
const struct ground_quantity *ground_weekday_day(const struct ground *g, unsigned md, unsigned y);
/* The newest day of a month the grounding holds, its year in *year (0: none); or NULL. */
const struct ground_quantity *ground_newest_day(const struct ground *g, unsigned *year);
/*
 * For a day of a month (QUANTITY_DATE at scale 1) said with a year: the
 * year the grounding writes beside that day ("2024-05-26", "May 26,
 * 2024"), the newest, when every place that gives the day (the 64 newest)
 * gives it with a year and none with this one; the date in *date. NULL
 * otherwise: "May 26, 2287" of a tool's 2024-05-26 is that date with its
 * year changed.
 */
const struct ground_quantity *ground_date_year(const struct ground *g, const struct quantity *day,
					       double year, const struct ground_quantity **date);
/*
 * The number of items of the newest JSON array (or run of lines alike)
 * the grounding holds since the turn began (ground_turn(); the last one
 * closed: a tool's result list closes after the lists inside its items,
 * so it is that list); NULL when there is none. What "I found 4" and
 * "there are 4" count, where a bare figure says how many results there
 * are: only this one list, so that a wrong count is not grounded by the
 * length of some other list, nor of one a tool returned before the user
 * last spoke.
 */
const struct ground_quantity *ground_newest_list(const struct ground *g);
/*
 * A figure of a's kind (a day, a time of the clock) that the prompt which
 * began the turn said (ground_turn(): the user's request) and that a does
 * not keep to: another day (a month holds the days in it), another time;
 * NULL when the prompt said none. A new item the answer proposes is free
 * in what the request leaves open, not in what it fixed ("add a lunch on
 * June 14" proposed for the 15th). Walks the turn back: asked rarely.
 */
const struct ground_quantity *ground_prompt_other(const struct ground *g, const struct quantity *a);
/*
 * The days a list of dated items covers: of the quantities put in since
 * seq seq_from, at offset at_from or later (a JSON array's items), the
 * days of a month (QUANTITY_DATE) when they are two or more, at most
 * GROUND_DAY_RUN_MAX, each said once and each the day after another (a
 * forecast of three days: "the next three days"); else 0.
 */
#define GROUND_DAY_RUN_MAX 31
unsigned ground_day_run(const struct ground *g, uint64_t seq_from, uint64_t at_from);
/* A turn begins (a user's or system message): what comes after it is the
 * turn's (ground_newest_list(), the groups below); a copy or sync keeps
 * where it began. */
void ground_turn(struct ground *g);

/*
 * Items of a list that share a field's value: "sender": "Charlie" in two
 * messages of a channel's (or of two channels' read in one turn) makes
 * "Charlie: 2 messages". ground_group_add() counts one item saying value
 * (2 to GROUND_GROUP_VALUE bytes, a letter among them; compared without
 * case) under a field (a hash of its key's words); at most
 * GROUND_GROUP_CAP values a turn (one first said past that counts
 * nothing). A copy or sync takes the source's counts, a merge adds them.
 * ground_group_said(): whether a value counted exactly count times is said
 * as words of their own in before[0, n) (what precedes a count in its
 * clause); *at where it was first said.
 */
#define GROUND_GROUP_CAP 256
#define GROUND_GROUP_VALUE 40
int ground_group_add(struct ground *g, uint64_t field, const char *value, size_t n, uint64_t at);
bool ground_group_said(const struct ground *g, const char *before, size_t n, double count,
		       uint64_t *at);
/*
 * Items that say two values of their fields together ("sender": "Charlie"
 * and "recipient": "general" in one message of a list in YAML's key: value
 * form): "Charlie: 2 messages (1 in general, 1 in private)". The caller
 * gives each pair of an item's values (2 to GROUND_GROUP_PAIR_VALUE bytes,
 * a letter among them) once; pairs fill at most half of the turn's
 * GROUND_GROUP_CAP. ground_group_pair_said(): whether a pair counted
 * exactly count times has one value said in line[0, nl) (the count's line
 * before it) and the other in after[0, na) (what it is counted "in").
 */
#define GROUND_GROUP_PAIR_VALUE 19
int ground_group_pair_add(struct ground *g, uint64_t field_a, const char *a, size_t na,
			  uint64_t field_b, const char *b, size_t nb, uint64_t at);
bool ground_group_pair_said(const struct ground *g, const char *line, size_t nl, const char *after,
			    size_t na, double count, uint64_t *at);
/*
 * Whether a group or a pair of the turn (ground_group_add(), _pair_add())
 * is counted exactly count times: with none, ground_group_said() and
 * ground_group_pair_said() are false for that count, whatever the text.
 */
bool ground_group_counts(const struct ground *g, double count);
/*
 * The text read now (since ground_begin_text()) says again what a text of
 * the turn said before (a tool called twice returns the same messages):
 * the items it counted in the groups are taken back, so that the same
 * records are not counted twice.
 */
void ground_groups_unsay(struct ground *g);

/*
 * A sum of money the grounding does not state, computed from figures it
 * does, as agents compute totals, fares and refunds: one times a count the
 * grounding gives (2 to 9: "2 passengers", a JSON array of two), the sum or
 * the difference of two, or such a sum or difference times a count. A sum
 * or difference only where one of its terms is among said[0, n_said), the
 * figures the answer itself has stated (a total it computes from fares it
 * names; not one that two figures it never named happen to make). The
 * terms are the 8 newest distinct figures of a's unit and the 4 newest bare
 * ones said as money (a JSON value whose keys say "price", "amount",
 * "fare", "total"..., or prose with such a word before it); a figure said
 * twice in its unit may be taken twice. Exact to the cent; a figure with a
 * scale ("$1.2 million") is never derived. On true, how holds the
 * derivation ("145 x 2", "(145 + 132) x 2", "(132 - 110) x 2"), cut to n
 * bytes, and *at where its first term is said.
 */
#define GROUND_DERIVE_SAID 16
bool ground_derive(const struct ground *g, const struct quantity *a, const double *said,
		   size_t n_said, char *how, size_t n, uint64_t *at);
/*
 * A total that is every figure one list of the newest tool result gives
 * under one key ("amount: 100.0" ... "amount: 10.0" of five transactions:
 * 1360.0), two or more, in a's unit or bare and said as money (for a bare
 * a, sums of money too); read in the newest two grounding texts (a tool
 * call's arguments may follow its result), GROUND_LIST_WALK quantities at
 * most. One sum a key, never a part of a list: a total that
 * leaves an item out is no such sum. Exact to the cent. On true, how
 * holds the sum ("100 + 200 + 50 + 1000 + 10"), cut to n bytes, and *at
 * where its first term is said.
 */
#define GROUND_LIST_WALK 256
bool ground_list_total(const struct ground *g, const struct quantity *a, char *how, size_t n,
		       uint64_t *at);
/*
 * A duration of seconds (a day at most) that is the time between two times
 * of day the grounding says one after the other, within 512 bytes, one
 * keyed as a start ("start_time", "from", "begins") and the other as an
 * end ("end_time", "until"): an event's length ("2 hours" of 19:00 to
 * 21:00), among the 64 newest times. On true, how holds "21:00 - 19:00",
 * cut to n bytes, and *at where the first is said.
 */
bool ground_time_span(const struct ground *g, double seconds, char *how, size_t n, uint64_t *at);
/*
 * For a total the answer states (claims.c): whether every figure of a's
 * value the grounding holds, in a's unit or bare and said as money, is
 * keyed as one item's price ("price", "fare") and none as a sum already
 * ("total", "amount", "charged", "refund"...), one at least.
 */
bool ground_item_price(const struct ground *g, const struct quantity *a);
/*
 * The newest count of 1 to 9 of a party the grounding gives ("passengers":
 * an array of two; "passengers": "1"; "2 adults"), among the 256 newest
 * quantities; 0 when there is none.
 */
unsigned ground_party(const struct ground *g);
/* Whether a count's noun is a party's ("passengers", "adults", "people"). */
bool ground_party_noun(const struct quantity *q);
/*
 * A figure the grounding keys as a sum already (a charge, a refund, an
 * amount paid) that a is half or twice of, the newest; NULL when there is
 * none, or when a payment of that figure ("amount", "paid") is said twice
 * (two charges of 600 make 1200; a total a search and then a booking both
 * give is one).
 */
const struct ground_quantity *ground_charged(const struct ground *g, const struct quantity *a);
/*
 * A yes/no a structured record states ("OutdoorSeating": false, "WiFi":
 * "free"): the words its key path is named by in prose (attrs.h), what it
 * says, where, and its key and value as text for a finding. At most
 * GROUND_ATTR_CAP are held, the oldest evicted; one already held (the same
 * words, the same answer) is not added again.
 */
#define GROUND_ATTR_CAP 256
#define GROUND_ATTR_NEED 3
#define GROUND_ATTR_TEXT 64
struct ground_attr {
	uint64_t need[GROUND_ATTR_NEED]; /* word hashes, all of which name it */
	uint8_t n_need;
	bool truth;
	uint64_t at;
	char text[GROUND_ATTR_TEXT]; /* "business parking validated: false" */
};

int ground_add_attr(struct ground *g, const struct ground_attr *a);
size_t ground_attr_count(const struct ground *g);
/* The i-th held, oldest first (i < ground_attr_count()). */
const struct ground_attr *ground_attr_at(const struct ground *g, size_t i);

/* Copies what src holds into dst (the sources' set seeds each input's). */
int ground_copy(struct ground *dst, const struct ground *src);
/* Adds what src holds to dst, oldest first, and src's evictions to dst's. */
int ground_merge(struct ground *dst, const struct ground *src);
/*
 * Makes dst what ground_copy(dst, src) would, in the time of what src
 * gained since the last sync where dst was not changed in between (the
 * sources' set, grown by a tool message at a time, seeds each message's:
 * a copy each time cost the whole set). Returns 1 when only what src
 * gained was put in, 0 after a whole copy; on an error (< 0) dst is left
 * empty. Only one set is kept in sync with a source.
 */
int ground_sync(struct ground *dst, struct ground *src);

/*
 * Is text an identifier a character of which cannot change without naming
 * another thing: a code of capitals and digits, at least six, that turns
 * from one to the other twice ("ELITE15FIT", "A1B2C3"; not "SHA256",
 * "4WD", "H5N1"), or a hexadecimal hash of seven or more with a digit and
 * a letter ("5a22ac8"; not "deadbeef", "2024")?
 */
bool ground_is_code(const char *text, size_t n);
/*
 * Is text an IBAN: two capitals, two check digits, then capitals and
 * digits, 15 to 34 in all, written together ("CH9300762011623852957", a
 * code) or in groups of four after a blank each, the last of one to four
 * ("GB29 NWBK 6016 1331 9268 19")? ground_next_code() gives either whole,
 * and its key (GROUNDING_CODE) is its characters without the blanks: one
 * changed character names another account.
 */
bool ground_is_iban(const char *text, size_t n);
/*
 * Is text an identifier of words and digits joined by "_", the digits last
 * ("certificate_7504069", "gift_card_1234", "local_13"): two letters or
 * more, two digits or more? ground_next_code() gives these too, and a
 * hash among such words ("FUN_004016ba", "clip_2b007cf0ba98"); its key
 * (ground_key(), GROUNDING_CODE) is ground_ident_key()'s of its parts.
 */
bool ground_is_underscored(const char *text, size_t n);
/*
 * The key of an identifier said with its parts apart ("certificate
 * 7504069", "certificate #7504069"): its letters, lowercased, and digits
 * under GROUNDING_CODE, as the grounding keys "certificate_7504069".
 */
int ground_ident_key(const char *text, size_t n, struct buf *out);
/*
 * A hash is said whole or by its first GROUND_HASH_SHORT_MIN to
 * GROUND_HASH_SHORT_MAX digits ("5a22ac8", "5a22ac8d3f91" of
 * "5a22ac8d3f91e0b7c2a4"): the grounding holds those too. How many such
 * short forms text[0, n) has besides itself, the first of
 * GROUND_HASH_SHORT_MIN digits and each one longer (0: it is no hash, or
 * too short to have one). One said longer than that is compared whole, so
 * that a digit changed anywhere is another hash.
 */
#define GROUND_HASH_SHORT_MIN 7
#define GROUND_HASH_SHORT_MAX 12
size_t ground_hash_prefixes(const char *text, size_t n);
/* Where ground_next_code() is in a text: zeroed to start at its beginning. */
struct ground_codes {
	size_t at;          /* the next byte to read */
	size_t word_end;    /* the end of the last word looked at (between blanks)... */
	bool word_address;  /* ...and whether it holds an address */
	size_t names;       /* runs read past that glue letters and digits, five to 64
			       of them ("ELITEFIT15", "SHA256"), but are no code */
	bool want_names;    /* set by the caller: give those runs too... */
	bool is_name;       /* ...and this says the last one given is one */
};

/*
 * The next code (ground_is_code(), ground_is_iban()) of text[0, n) after
 * cur: a run of letters and digits with neither on its sides ("_" joins a
 * run), that is one, or an IBAN in groups; its length, its start in *start; 0 when there is none. Not a colour
 * ("#1A2B3C"), nor, unless addresses (what grounds: a code in a link is
 * said), one in a word (between blanks) that holds "@", "/" or "www."
 * (URLs, e-mail addresses, paths: the URL check's). Linear over all the
 * calls: each byte is read a bounded number of times.
 */
size_t ground_next_code(const char *text, size_t n, struct ground_codes *cur, bool addresses,
			size_t *start);
/*
 * The key of what ground_next_code() gave: a code's (ground_key()), or a
 * name's (cur->is_name: "HZN330", "#W4418207"), whose letters are compared
 * without case and whose "#" is left out (ground_ident_key()).
 */
int ground_code_key(const struct ground_codes *cur, const char *text, size_t n, struct buf *out);
/*
 * The key under which a match of kind k is compared (reset into out; a
 * quantity compares through ground_match_quantity, its key is its text):
 *  GROUNDING_URL      scheme and host lowercased, default port, fragment
 *                     and trailing slash dropped
 *  GROUNDING_NUMBER   value and unit: "18.3 %" = "18.30 percent" = "18.3%"
 *  GROUNDING_CITATION first author's surname and year: "Smith|2024"
 *  GROUNDING_CODE     a hash lowercased (ground_hash_prefixes())
 *                     ("5A22AC8" = "5a22ac8d3f"); another code as it is
 *  GROUNDING_EXACT    the text itself
 */
int ground_key(enum grounding k, const char *text, size_t n, struct buf *out);

#endif
