/* SPDX-License-Identifier: MIT */
/*
 * What ground.c, ground_judge.c, ground_days.c, ground_keys.c, ground_derive.c share and
 * nothing else includes: the types and macros more than one of them uses, the small helpers
 * they share (inline), and the functions and tables one of them defines for another. Written
 * by scripts/split.py; not an interface.
 */
#ifndef HALLUSCAN_GROUND_GROUND_INT_H
#define HALLUSCAN_GROUND_GROUND_INT_H

#include "common/fmath.h"
#include "ground.h"
#include "numbers/numlex.h"
#include "wordlists.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * The hash heads: 2^GROUND_BUCKET_BITS each, twice GROUND_CAP. How many
 * there are changes speed only, never a verdict: every search over them
 * compares each candidate's full unit hash, value or key, not its bucket.
 * tests/meson.build builds the program with 4 buckets (every list mixes
 * units and values) to hold the findings to that.
 */
#ifndef GROUND_BUCKET_BITS
#define GROUND_BUCKET_BITS 13
#endif
#define BUCKETS (1u << GROUND_BUCKET_BITS)

#define NIL UINT32_MAX

/*
 * Bins split each binary order of magnitude in this many (a power of two).
 * A lookup probes every bin of a tolerance's range (0.25: about an octave)
 * until something near is found, so fewer, fuller bins cost less: 16
 * judged the same candidates as 64 in 3.5% fewer instructions with tool
 * spans in 1% of the text (8: fuller lists cost more than they saved).
 */
#define SUBBINS 16

/* A swapped figure is looked for among this many of the newest quantities
 * of its unit, and must share this many context words with its place. */
#define SWAP_WALK 128

/* A figure said of a period or as a bound is held against at most this
 * many that state it (ground_said_otherwise()). */
#define OTHERWISE_WALK 64

struct entry {
	uint64_t hash, at;
	uint32_t next; /* the next entry in its bucket */
	uint16_t len;
	char *key;     /* malloc'ed, len bytes: most keys are far shorter than the cap */
};

/* A place in one doubly linked hash list: the slots around (its head's
 * index is its slot's in ground.filed). */
struct qlink {
	uint32_t prev, next;
};

/*
 * Where a quantity is filed: its bin (unit and binary order of magnitude)
 * and, for a count or a bare number, its exact value. Lists are doubly
 * linked through ring slots; seq orders the quantities by age. One cache
 * line a slot (the array is aligned to 64 bytes): a walk over a unit's
 * newest (unit_newest()) reads its unit's link in ulinks, then its mask and
 * nearest words here, and most searches go no further.
 */
struct qlinks {
	uint64_t seq;
	int64_t key;       /* of its bin: see bin_key() */
	uint64_t unit_hash; /* a copy, so that a bin's walk stays in these links */
	uint64_t mask;     /* a copy of its context's mask */
	struct qlink bin, val; /* val: only for a count or a bare number */
	struct qlink written;  /* by the figure as written */
	uint32_t before1, after1; /* copies of its context's nearest words */
};

_Static_assert(sizeof(struct qlinks) == 64, "a quantity's links are one cache line");

/*
 * The hash heads a quantity's slot is filed under (ground.filed), kept as
 * it is put in: its eviction and a reset read them, where working them out
 * again read the oldest quantity (most often a cache miss) and hashed its
 * unit and figures four times. val is NO_LIST where it is filed by no value.
 */
struct lists {
	uint16_t bin, unit, written, val;
};

#define NO_LIST UINT16_MAX

_Static_assert(BUCKETS <= NO_LIST, "a head's index, and NO_LIST, in 16 bits");

/* Every quantity of its unit, newest first: 16 bytes a slot, apart. */
struct ulink {
	uint64_t unit_hash; /* a copy, as in qlinks */
	struct qlink link;
};

/*
 * The newest SWAP_WALK quantities of one unit, newest first, as its list
 * gives them: the slots, and their contexts' masks (and each one's seq,
 * for unit_newest() alone). Between two changes to the set every figure
 * of the answer walks the same few units (its own, the bare numbers), and
 * the list's links are a cache miss each; this is one walk kept, read in
 * a row. A reset makes it stale; quantities put in since it was taken are
 * put in front of it when it is next asked for (unit_newest()).
 */
#define WALK_MEMOS 16

struct walk_memo {
	uint32_t n;
	/* Every bit of the masks put in since the walk was taken anew: those
	 * of its slots, and of slots it held before (find_swap()'s bound). */
	uint64_t any;
	uint16_t slot[SWAP_WALK];
	uint64_t mask[SWAP_WALK];
	uint32_t before1[SWAP_WALK], after1[SWAP_WALK];
	uint64_t seq[SWAP_WALK];
};

/*
 * Which walk each memo holds, apart (the memos' pages are touched only when
 * used): the unit of each, which of them are of the set since its reset
 * (taken when it had this epoch), and the set's qseq when each was last
 * brought up to date.
 */
/*
 * What states a figure, kept (ground_judge.c, judge_stating_keep()): for up to
 * STATING_FIGURES figures of the answer (byte for byte), the slots of the
 * set as it was at epoch and qseq that state it, in slot[];
 * n is UINT32_MAX where the search for them ran too wide (match() walks
 * every quantity then). A set holds the same quantities between two tool
 * results while an answer's figures are judged against it, and an answer
 * says its figures more than once. A figure is kept at its hash's place
 * (one kept there before is dropped); slot[] has room for what one search
 * can give (two ranges of the cap). 39 KiB a set, with its walks (calloc:
 * a page is taken when used).
 */
#define STATING_FIGURES 256
#define STATING_SLOTS (2 * GROUND_CAP)

struct stating_memo {
	uint64_t epoch, qseq;
	uint32_t used; /* of slot[] */
	uint64_t held[STATING_FIGURES / 64]; /* bit k: fig[k] is of the set as it is */
	struct stating_figure {
		struct quantity a;
		uint32_t from, n;
		/* How often it was asked for again; whether slot[from...] is
		 * oldest first (put so then). */
		uint32_t asked;
		bool sorted;
	} fig[STATING_FIGURES];
	uint16_t slot[STATING_SLOTS];
};

_Static_assert(GROUND_CAP <= 65536, "a slot in a stating memo's uint16_t");

struct walk_memos {
	uint64_t clock;
	uint64_t epoch;
	uint32_t live; /* bit k: memo k is of the set since its reset */
	uint64_t unit_hash[WALK_MEMOS], used[WALK_MEMOS], qseq[WALK_MEMOS];
	struct stating_memo stating; /* (with these, which ground.c allocates and frees) */
	/* ground_days_stated()'s answers for the set at days_epoch and
	 * days_qseq: bit d of known, asked; of stated, GROUND_STATED. */
	uint64_t days_epoch, days_qseq, days_known, days_stated;
};

_Static_assert(WALK_MEMOS <= 32, "a memo's bit in live");

struct ground {
	struct entry *e;      /* a ring: e[head] is the oldest */
	uint32_t head, count;
	/* Hash heads (items, quantity bins, quantity values), allocated with
	 * the first item: a run with no tool output never touches them. */
	uint32_t *heads, *bucket, *bins, *vals, *units, *writ;
	bool dirty;
	struct ground_quantity *q; /* a ring of quantities, likewise */
	struct qlinks *ql;    /* per ring slot */
	struct ulink *ul;     /* per ring slot */
	struct lists *filed;  /* per ring slot (after ul, in its allocation) */
	/* Walks kept (unit_newest()): written by searches of a const set, so
	 * that a set is searched by one thread at a time. */
	struct walk_memos *memos;
	struct walk_memo *memo; /* WALK_MEMOS of them, left uninitialized until used */
	uint32_t qhead, qcount;
	/* The quantities' texts, in the order of the ring, each NUL-terminated:
	 * a ring of bytes from the oldest held quantity's text to tx_tail,
	 * grown (and compacted) when full. Most texts are a few bytes: a
	 * slot of GROUND_TEXT_MAX each cost 192 KB a set. */
	char *tx;
	size_t tx_cap, tx_tail;
	uint64_t qseq;        /* the next quantity's seq */
	uint64_t evictions;
	struct ground_attr *attr; /* a ring of GROUND_ATTR_CAP, allocated with the first */
	uint16_t *attr_index; /* ATTR_SLOTS: a ring slot + 1 by its attribute's hash, 0 empty */
	uint32_t ahead, acount;
	uint64_t a_added;     /* attributes put in since the reset */
	bool active;
	bool periods; /* a quantity said of a period was added since the last reset */
	/* The quarter-years reported on (not compared with) since then: a bit
	 * of each by its hash, and the newest of each quarter ([0]: of all). */
	uint64_t reported_mask;
	struct {
		uint32_t period;
		uint64_t at;
	} reported[5];
	unsigned days_seen; /* the days of the week times were said of since then */
	bool codes;         /* a code put in, or ground_note_codes(), since then */
	uint64_t turn;      /* the seq of the turn's first quantity (ground_turn()) */
	/* The turn's field values and how many items say each (ground_group_add()):
	 * allocated with the first, GROUND_GROUP_CAP of them; index: a slot + 1
	 * by the value's hash, 0 empty. */
	struct ground_group *groups;
	uint16_t *group_index;
	uint32_t n_groups;
	/* Days said relative to another date ("the day before", "a week
	 * later") and to today ("tomorrow", "in 3 days") since the reset: bit
	 * (offset + GROUND_REL_MAX) of each; and the seq of the newest day said
	 * as today's ("Current time: 2023-09-11 09:00:00"), or UINT64_MAX. */
	uint64_t rel_anchored, rel_today;
	uint64_t today_seq;
	/*
	 * For ground_sync(). version changes with every change to the set;
	 * epoch with every reset, to a number no other set had (a set freed
	 * and another made at its address is not taken for it); e_added counts the items put in since the
	 * reset (qseq counts the quantities); rewritten is the oldest seq
	 * whose period was set since the last sync from this set (UINT64_MAX:
	 * none). A copy remembers, of its source, where it was taken.
	 */
	uint64_t version, epoch, e_added, rewritten;
	uint64_t reset_version;     /* version right after the last reset: ground_changed() */
	uint32_t texts; /* ground_begin_text() calls since the reset */
	uint32_t prompt_text; /* the texts count then of the newest prompt (ground_turn()), 0 none */
	const struct ground *synced_from;
	uint64_t synced_epoch, synced_e, synced_q, synced_a, synced_version;
};

static bool next_word(const char **p, const char *end, const char **w, size_t *k);

/*
 * The bin of value v in a unit: its binary order of magnitude and the top
 * bits of its mantissa, so that keys grow with v. Zero (and what is not
 * finite) has a bin of its own, below every other.
 */
#define ZERO_KEY INT64_MIN

/* Slots of the groups' index: twice the cap, a power of two. */
#define GROUP_SLOTS (2 * GROUND_GROUP_CAP)

_Static_assert((GROUP_SLOTS & (GROUP_SLOTS - 1)) == 0 && GROUP_SLOTS < 65536, "the groups' slots");

struct ground_group {
	uint64_t hash; /* of the field and the value, lowercased */
	uint64_t at;   /* where the value was first said */
	uint32_t count;
	uint32_t text, text_count; /* the text (g->texts) that last counted it, and how many */
	uint8_t len;
	/* 0, or of a pair of values one item says (ground_group_pair_add()):
	 * where the second starts, after a NUL that ends the first */
	uint8_t split;
	char value[GROUND_GROUP_VALUE];
};

const struct walk_memo *unit_newest(const struct ground *g, uint64_t unit_hash);
int group_add(struct ground *g, uint64_t h, const char *value, size_t n, uint64_t at,
		     uint32_t count, uint8_t split);

/*
 * Bits set in x. The generic x86-64 target has no POPCNT instruction, and
 * there __builtin_popcountll is a call into libgcc (21 instructions and the
 * call, per slot of the swap walk); this is 12, inline.
 */
static inline size_t popcount64(uint64_t x)
{
#if defined(__POPCNT__)
	return (size_t)__builtin_popcountll(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (size_t)((x * 0x0101010101010101ull) >> 56);
#endif
}

/*
 * Letters of the words of a context are ASCII, whatever locale a program
 * that links the library has set (<ctype.h> would follow it).
 */
static inline bool ascii_alpha(unsigned char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26;
}

/*
 * The ASCII letters of the 64 bytes at s, as bits (bit i for s[i]): what
 * ascii_alpha() says of each, in a few instructions a block. A byte of
 * 0x80 and up is negative to the signed compares: no letter, as there.
 */
static inline uint64_t letters64(const char *s)
{
#if defined(__SSE2__)
	const __m128i lower = _mm_set1_epi8(0x20), a1 = _mm_set1_epi8('a' - 1),
		      z1 = _mm_set1_epi8('z' + 1);
	uint64_t m = 0;
	int i;

	for (i = 0; i < 4; i++) {
		__m128i y = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i)), lower);

		m |= (uint64_t)(unsigned)_mm_movemask_epi8(
			     _mm_and_si128(_mm_cmpgt_epi8(y, a1), _mm_cmplt_epi8(y, z1))) << (16 * i);
	}
	return m;
#else
	uint64_t m = 0;
	int i;

	for (i = 0; i < 64; i++)
		m |= (uint64_t)ascii_alpha((unsigned char)s[i]) << i;
	return m;
#endif
}

static inline bool ascii_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline unsigned char ascii_lower(unsigned char c)
{
	return (unsigned char)(c - 'A') < 26 ? c | 0x20 : c;
}

/*
 * A context word's hash: FNV-1a over its lowercase letters, a plural's
 * final "s" left off ("stars" is "star": a key says "business_stars", an
 * answer "a 3.5-star rating"). Only past four letters, and not "-ss",
 * "-us" or "-is" ("business", "status", "basis").
 */
static inline uint32_t word_hash(const char *w, size_t k)
{
	uint32_t h = 2166136261u;
	size_t i;

	if (k > 4 && ascii_lower((unsigned char)w[k - 1]) == 's') {
		unsigned char c = ascii_lower((unsigned char)w[k - 2]);

		if (c != 's' && c != 'u' && c != 'i')
			k--;
	}

	for (i = 0; i < k; i++)
		h = (h ^ ascii_lower((unsigned char)w[i])) * 16777619u;
	return h;
}

/* ---- quantities, filed by unit and order of magnitude ---- */

static inline uint32_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (uint32_t)h & (BUCKETS - 1);
}

static inline int64_t bin_key(double v)
{
	double m;
	int e;

	if (v == 0 || !isfinite(v))
		return ZERO_KEY;
	m = fmath_frexp(fabs(v), &e); /* m in [0.5, 1) */
	return (int64_t)e * SUBBINS + (int64_t)((m - 0.5) * 2 * SUBBINS);
}

static inline uint32_t bin_of(uint64_t unit_hash, int64_t key)
{
	return mix(unit_hash ^ ((uint64_t)key * 0x9e3779b97f4a7c15ull));
}

/* A quarter-year's bit in a set of them (ground.reported_mask). */
static inline uint64_t period_bit(uint32_t p)
{
	return 1ull << ((p * 0x9e3779b1u) >> 26);
}

static inline uint64_t value_bits(double v)
{
	uint64_t bits;

	v = v == 0 ? 0 : v; /* -0 and 0 are one value */
	memcpy(&bits, &v, sizeof(bits));
	return bits;
}

static inline uint32_t val_of(double v)
{
	return mix(value_bits(v));
}

static inline uint32_t unit_val_of(uint64_t unit_hash, double v)
{
	return mix(unit_hash ^ value_bits(v));
}

/* quantity_unit_hash("number"), which ground_self_check() asks for. */
#define BARE_UNIT_HASH 0x8031a80d73f6ebe0ull

/*
 * The list of ground.vals a quantity is filed in, or NIL (a base unit's:
 * none). A count's or a bare number's is its value's: a count of another
 * noun, or a bare number, of a's figure states a (judge_stating_ranges()).
 * A lexer's kind's is its unit's and value's: it is judged only against
 * its own unit (judge_lexed()), and half the entries of the list of its
 * value alone were of another (with 1% tool spans, 16 MiB: counts and bare
 * numbers, two in five), each a cache miss. Every search still compares
 * each entry's unit, value or kind, so the two kinds of list may share a
 * head (as any two values may).
 */
static inline uint32_t value_list(enum quantity_kind kind, uint64_t unit_hash, double v)
{
	return kind > QUANTITY_BASE ? unit_val_of(unit_hash, v) : kind < QUANTITY_BASE ? val_of(v) : NIL;
}

/*
 * The list of ground.writ a figure written w of a unit is in: a bare
 * number's by its unit and figure, apart; any other's by the figure. A
 * lexer's kind looks for the bare numbers written as it is, which were one
 * entry in twelve of the list of its figure; a search for every unit's
 * takes both lists (written_newer()).
 */
static inline uint32_t written_list(uint64_t unit_hash, double w)
{
	return unit_hash == BARE_UNIT_HASH ? unit_val_of(unit_hash, w) : val_of(w);
}

/*
 * The heads of the two lists of figures written w: the bare numbers' and
 * the others' (NIL where the two are one list: they share a head).
 */
static inline void written_heads(const struct ground *g, double w, uint32_t *bare, uint32_t *other)
{
	uint32_t b = written_list(BARE_UNIT_HASH, w), o = val_of(w);

	*bare = g->writ[b];
	*other = b != o ? g->writ[o] : NIL;
}

/*
 * Of the heads of the two lists of figures written w (written_heads()),
 * the newer, which it takes from its list (NIL: both are empty). So the
 * two are walked as the one list of every figure written w, newest first,
 * that they were before they were apart.
 */
static inline uint32_t written_newer(const struct ground *g, uint32_t *i, uint32_t *j)
{
	uint32_t k;

	if (*i != NIL && (*j == NIL || g->ql[*i].seq > g->ql[*j].seq)) {
		k = *i;
		*i = g->ql[k].written.next;
	} else {
		k = *j;
		if (k != NIL)
			*j = g->ql[k].written.next;
	}
	return k;
}

/* The next word of [p, end) at or after p: its start and length; false at the end. */
static inline bool next_word(const char **p, const char *end, const char **w, size_t *k)
{
	const char *q = *p;

	while (q < end && !ascii_alpha((unsigned char)*q))
		q++;
	if (q == end)
		return false;
	*w = q;
	while (q < end && ascii_alpha((unsigned char)*q))
		q++;
	*k = (size_t)(q - *w);
	*p = q;
	return true;
}

/*
 * Is the grounded quantity at slot i a's figure as written (w, its written
 * value): a bare number's at its scale, where it has one, and no count of
 * items; another quantity's of its unit, stating it?
 */
static inline bool written_as(const struct ground *g, uint32_t i, const struct quantity *a, double w)
{
	const struct ground_quantity *gq = &g->q[i];

	if (quantity_written(&gq->q) != w)
		return false;
	return a->kind == QUANTITY_NUMBER ? (a->scale == 1 || gq->q.scale == a->scale) && !gq->q.items
					  : g->ql[i].unit_hash == a->unit_hash && quantity_states(a, &gq->q);
}

/* Days since 1970-01-01 of a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
static inline int64_t civil_days(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* The date of a count of days since 1970-01-01 (civil_from_days). */
static inline void civil_of(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t era;
	unsigned doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static inline int groups_alloc(struct ground *g)
{
	if (g->groups)
		return 0;
	/* (one block: the index after the groups) */
	g->groups = malloc(GROUND_GROUP_CAP * sizeof(*g->groups) + GROUP_SLOTS * sizeof(uint16_t));
	if (!g->groups)
		return -ENOMEM;
	g->group_index = (uint16_t *)(g->groups + GROUND_GROUP_CAP);
	memset(g->group_index, 0, GROUP_SLOTS * sizeof(*g->group_index));
	return 0;
}

/*
 * Whether a figure's keys or the words before it say it is a sum of money
 * (words_money[], words/ground.txt: "price": 145, "amount"). Without one,
 * a bare figure (a count of reviews, a rating) is no term: "$15" is not
 * 5 x 3 of a record's stars and counts.
 */
static inline bool said_as_money(const struct ground_context *ctx)
{
	size_t i, k;

	for (i = 0; i < ctx->n; i++)
		for (k = 0; k < ARRAY_SIZE(words_money); k++)
			if (ctx->word[i] == word_hash(words_money[k], strlen(words_money[k])))
				return true;
	return false;
}

/* A figure as a derivation writes it: to the cent where it has cents. */
static inline void fig(char *out, size_t n, double v)
{
	snprintf(out, n, v == floor(v) ? "%.0f" : "%.2f", v);
}

static inline bool to_the_cent(double v, double want)
{
	return fabs(v - want) < 0.005;
}

#endif
