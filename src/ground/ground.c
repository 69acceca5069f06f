// SPDX-License-Identifier: MIT
/* The grounded set: normalized items of tool output, bounded, oldest evicted first. */
#include "ground.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/fmath.h"
#include "numbers/numlex.h"

#define BUCKETS 8192 /* a power of two, twice GROUND_CAP */
#define NIL UINT32_MAX
/*
 * Bins split each binary order of magnitude in this many (a power of two).
 * A lookup probes every bin of a tolerance's range (0.25: about an octave)
 * until something near is found, so fewer, fuller bins cost less: 16
 * judged the same candidates as 64 in 3.5% fewer instructions with tool
 * spans in 1% of the text (8: fuller lists cost more than they saved).
 */
#define SUBBINS 16
/* A value range spanning more bins than this is searched by a walk over
 * every quantity instead of bin by bin. */
#define MAX_BINS (8 * SUBBINS)
/* A swapped figure is looked for among this many of the newest quantities
 * of its unit, and must share this many context words with its place. */
#define SWAP_WALK 128
#define SWAP_SHARED 2
/* A year, date, time, temperature, ordinal or name's digits is judged
 * against those of its value and the newest this many of its unit. */
#define LEXED_WALK 32
/* A time said of days is held against the times of those days among this
 * many newest of its unit (a week's opening hours are 14). */
#define DAYS_WALK 256
/* A figure said of a period or as a bound is held against at most this
 * many that state it (ground_said_otherwise()). */
#define OTHERWISE_WALK 64

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

/* Slots of the attributes' index: twice the ring, a power of two. */
#define ATTR_SLOTS (2 * GROUND_ATTR_CAP)
_Static_assert((ATTR_SLOTS & (ATTR_SLOTS - 1)) == 0 && ATTR_SLOTS < 65536, "the index's slots");

struct entry {
	uint64_t hash, at;
	uint32_t next; /* the next entry in its bucket */
	uint16_t len;
	char *key;     /* malloc'ed, len bytes: most keys are far shorter than the cap */
};

/* A place in one doubly linked hash list: the slots around (its head's
 * index is recomputed from the quantity: see lists_of()). */
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

/* Every quantity of its unit, newest first: 16 bytes a slot, apart. */
struct ulink {
	uint64_t unit_hash; /* a copy, as in qlinks */
	struct qlink link;
};

/*
 * The newest SWAP_WALK quantities of one unit, newest first, as its list
 * gives them: the slots, and their contexts' masks. Between two changes to
 * the set every figure of the answer walks the same few units (its own,
 * the bare numbers), and the list's links are a cache miss each; this is
 * one walk kept, read in a row. Taken by the set's epoch and qseq: a
 * quantity put in, or a reset, makes it stale.
 */
#define WALK_MEMOS 16
struct walk_memo {
	uint32_t n;
	uint16_t slot[SWAP_WALK];
	uint64_t mask[SWAP_WALK];
	uint32_t before1[SWAP_WALK], after1[SWAP_WALK];
};

_Static_assert(GROUND_CAP <= 65536, "a slot fits a memo's uint16_t");

/* Which walk a memo holds, apart: the memos' pages are touched only when used. */
struct memo_key {
	uint64_t unit_hash, epoch, qseq, used;
	bool valid;
};

struct walk_memos {
	uint64_t clock;
	struct memo_key key[WALK_MEMOS];
};

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
	uint32_t texts; /* ground_begin_text() calls since the reset */
	uint32_t prompt_text; /* the texts count then of the newest prompt (ground_turn()), 0 none */
	const struct ground *synced_from;
	uint64_t synced_epoch, synced_e, synced_q, synced_a, synced_version;
};

/* Frees the keys of the items held. */
static void free_keys(struct ground *g)
{
	uint32_t i;

	for (i = 0; i < g->count; i++)
		free(g->e[(g->head + i) % GROUND_CAP].key);
}

int ground_new(struct ground **out)
{
	struct ground *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	ground_reset(g);
	*out = g;
	return 0;
}

void ground_free(struct ground *g)
{
	if (!g)
		return;
	if (g->e)
		free_keys(g);
	free(g->e);
	free(g->q);
	free(g->ql);
	free(g->ul);
	free(g->memos);
	free(g->memo);
	free(g->tx);
	free(g->heads);
	free(g->attr);
	free(g->attr_index);
	free(g->groups);
	free(g);
}

static void clear_heads(struct ground *g);
static void groups_clear(struct ground *g);

/* A number for a reset no set has had, on any thread. */
static uint64_t next_epoch(void)
{
	static atomic_uint_fast64_t epochs;

	return (uint64_t)atomic_fetch_add_explicit(&epochs, 1, memory_order_relaxed) + 1;
}

void ground_reset(struct ground *g)
{
	if (g->dirty)
		clear_heads(g);
	free_keys(g);
	g->head = g->count = 0;
	g->qhead = g->qcount = 0;
	g->tx_tail = 0;
	g->qseq = 0;
	g->evictions = 0;
	g->active = false;
	g->periods = false;
	g->reported_mask = 0;
	memset(g->reported, 0, sizeof(g->reported));
	g->days_seen = 0;
	g->codes = false;
	g->turn = 0;
	g->dirty = false;
	g->version++;
	g->epoch = next_epoch();
	g->e_added = 0;
	if (g->acount)
		memset(g->attr_index, 0, ATTR_SLOTS * sizeof(*g->attr_index));
	g->ahead = g->acount = 0;
	g->a_added = 0;
	g->rewritten = UINT64_MAX;
	g->texts = 0;
	g->prompt_text = 0;
	g->synced_from = NULL;
	groups_clear(g);
	g->rel_anchored = g->rel_today = 0;
	g->today_seq = UINT64_MAX;
}

void ground_begin_text(struct ground *g)
{
	g->texts++;
}

/*
 * Makes the rings and the hash heads ready for an item. They are allocated
 * with the first (1.3 MB, six allocations, four of them mmap()s): a set
 * that never holds anything, as in a run with no tool output, costs its
 * struct alone, and a start-up its system calls and page faults (issue 35).
 * The heads come last: a set that has them has the rest.
 */
static int use_heads(struct ground *g)
{
	if (!g->heads) {
		if (!g->e)
			g->e = malloc(GROUND_CAP * sizeof(*g->e));
		if (!g->q)
			g->q = malloc(GROUND_CAP * sizeof(*g->q));
		if (!g->ql)
			g->ql = aligned_alloc(64, GROUND_CAP * sizeof(*g->ql));
		if (!g->ul)
			g->ul = malloc(GROUND_CAP * sizeof(*g->ul));
		if (!g->memos)
			g->memos = calloc(1, sizeof(*g->memos));
		if (!g->memo)
			g->memo = malloc(WALK_MEMOS * sizeof(*g->memo));
		if (!g->e || !g->q || !g->ql || !g->ul || !g->memos || !g->memo)
			return -ENOMEM;
		g->heads = malloc(5 * BUCKETS * sizeof(*g->heads));
		if (!g->heads)
			return -ENOMEM;
		memset(g->heads, 0xff, 5 * BUCKETS * sizeof(*g->heads));
		g->bucket = g->heads;
		g->bins = g->heads + BUCKETS;
		g->vals = g->heads + 2 * BUCKETS;
		g->units = g->heads + 3 * BUCKETS;
		g->writ = g->heads + 4 * BUCKETS;
	}
	g->dirty = true;
	return 0;
}

uint64_t ground_evictions(const struct ground *g)
{
	return g->evictions;
}

static uint32_t *slot_of(struct ground *g, uint64_t hash)
{
	return &g->bucket[hash & (BUCKETS - 1)];
}

static void evict_oldest(struct ground *g)
{
	uint32_t victim = g->head, *p = slot_of(g, g->e[victim].hash);

	while (*p != victim)
		p = &g->e[*p].next;
	*p = g->e[victim].next;
	free(g->e[victim].key);
	g->head = (g->head + 1) % GROUND_CAP;
	g->count--;
	g->evictions++;
}

bool ground_find(const struct ground *g, const char *key, size_t n, uint64_t *at)
{
	uint64_t h;
	uint32_t i;

	if (g->count == 0)
		return false;
	n = MIN(n, GROUND_KEY_MAX);
	h = fnv1a64(key, n);
	for (i = g->bucket[h & (BUCKETS - 1)]; i != NIL; i = g->e[i].next) {
		const struct entry *e = &g->e[i];

		if (e->hash == h && e->len == n && memcmp(e->key, key, n) == 0) {
			*at = e->at;
			return true;
		}
	}
	return false;
}

int ground_add(struct ground *g, const char *key, size_t n, uint64_t at)
{
	uint64_t seen;
	uint32_t i, *slot;
	struct entry *e;

	n = MIN(n, GROUND_KEY_MAX);
	if (n == 0 || ground_find(g, key, n, &seen))
		return 0;
	g->codes |= key[0] == (char)('0' + GROUNDING_CODE);
	if (use_heads(g) < 0)
		return -ENOMEM;
	if (g->count == GROUND_CAP)
		evict_oldest(g);
	i = (g->head + g->count) % GROUND_CAP;
	e = &g->e[i];
	e->key = malloc(n);
	if (!e->key)
		return -ENOMEM;
	e->hash = fnv1a64(key, n);
	e->at = at;
	e->len = (uint16_t)n;
	memcpy(e->key, key, n);
	slot = slot_of(g, e->hash);
	e->next = *slot;
	*slot = i;
	g->count++;
	g->e_added++;
	g->version++;
	return 0;
}

void ground_activate(struct ground *g)
{
	if (!g->active)
		g->version++;
	g->active = true;
}

bool ground_active(const struct ground *g)
{
	return g->active;
}

/*
 * Function words, and the words of figures themselves (every sum says
 * "million", every share "percent"): they tell no two figures apart. Each
 * with its word_hash(), which every context word has computed already:
 * the letters are compared only where a hash is equal (a unit test reads
 * every one through ground_context_of()). In order of hash, for a binary
 * search (ground_self_check() says so).
 */
static const struct {
	const char *word;
	uint8_t len;
	uint32_t hash;
} stopwords[] = {
	{"which", 5, 0x08d2ece2u}, {"with", 4, 0x0c4afe69u}, {"while", 5, 0x0dc628ceu}, {"and", 3, 0x0f29c2a6u},
	{"was", 3, 0x16e2c1f2u}, {"after", 5, 0x1b6e7dc9u}, {"billion", 7, 0x286d9aeau}, {"are", 3, 0x406f344du},
	{"cent", 4, 0x4ce280cfu}, {"million", 7, 0x52719e77u}, {"but", 3, 0x60d56f8cu}, {"per", 3, 0x6b4b8da4u},
	{"percent", 7, 0x75f9fa5au}, {"its", 3, 0x80f867d9u}, {"from", 4, 0x95cd8075u}, {"been", 4, 0xa65b72c3u},
	{"for", 3, 0xacf38390u}, {"about", 5, 0xb323923eu}, {"the", 3, 0xb40eb21cu}, {"were", 4, 0xc7eb512cu},
	{"that", 4, 0xcb18332cu}, {"their", 5, 0xcbfd3c67u}, {"also", 4, 0xcec76752u},
	{"thousand", 8, 0xd18d3a0bu}, {"trillion", 8, 0xd3f12050u}, {"this", 4, 0xda2bd281u},
	{"had", 3, 0xe2befe92u}, {"than", 4, 0xe5185c1au}, {"more", 4, 0xe85541e0u}, {"has", 3, 0xedbf0fe3u},
	{"dollars", 7, 0xf364bd3fu}, {"have", 4, 0xf5ce03fbu},
};

/*
 * The top byte of each stop word's hash, as bits: most words are ruled
 * out by one test (ground_self_check() recomputes it from the list).
 */
static const uint64_t stopword_top[4] = {
	0x000001000840b100ull, 0x0020080100041001ull, 0x0018104000200001ull, 0x00282124040a4880ull,
};

/*
 * Letters of the words of a context are ASCII, whatever locale a program
 * that links the library has set (<ctype.h> would follow it).
 */
static inline bool ascii_alpha(unsigned char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26;
}

static inline bool ascii_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline unsigned char ascii_lower(unsigned char c)
{
	return (unsigned char)(c - 'A') < 26 ? c | 0x20 : c;
}

static inline bool ascii_space(unsigned char c)
{
	return c == ' ' || (unsigned char)(c - '\t') < 5; /* \t \n \v \f \r */
}

/*
 * A context word's hash: FNV-1a over its lowercase letters, a plural's
 * final "s" left off ("stars" is "star": a key says "business_stars", an
 * answer "a 3.5-star rating"). Only past four letters, and not "-ss",
 * "-us" or "-is" ("business", "status", "basis").
 */
static uint32_t word_hash(const char *w, size_t k)
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

/* Is the word w of k letters and hash h a stop word? */
static bool context_stopword(uint32_t h, const char *w, size_t k)
{
	size_t i, lo, hi;

	if (!(stopword_top[h >> 30] >> (h >> 24 & 63) & 1))
		return false;
	for (lo = 0, hi = ARRAY_SIZE(stopwords); lo < hi;) {
		i = lo + (hi - lo) / 2;
		if (stopwords[i].hash < h)
			lo = i + 1;
		else
			hi = i;
	}
	if (lo == ARRAY_SIZE(stopwords) || stopwords[lo].hash != h || stopwords[lo].len != k)
		return false;
	/* w is ASCII letters (its caller's word), the list lowercase */
	for (i = 0; i < k; i++)
		if (ascii_lower((unsigned char)w[i]) != (unsigned char)stopwords[lo].word[i])
			return false;
	return true;
}

/* '.', '!' or '?' (and NUL, as strchr(".!?", c) had it: no sentence runs through one). */
static bool is_terminator(char c)
{
	return c == '.' || c == '!' || c == '?' || c == '\0';
}

/* An empty context: no words, no period, no bound. */
static void context_clear(struct ground_context *ctx)
{
	ctx->n = 0;
	ctx->mask = 0;
	ctx->before1 = ctx->after1 = 0;
	ctx->period = 0;
	ctx->bound = 0;
	ctx->compared = false;
	ctx->quarter_year = 0;
}

/*
 * The content word of the sentence before *p (back to start; before is
 * where the walk began): its hash, *p at its first byte; false at the
 * sentence's start (a line break, or a terminator and a blank) or start.
 * A word never runs through the sentence's start: that is no letter.
 */
static inline bool prev_content_word(const char **pp, const char *start, const char *before,
				     uint32_t *h)
{
	const char *p = *pp, *e;
	size_t k;

	while (p > start) {
		if (p[-1] == '\n' ||
		    (is_terminator(p[-1]) && (p == before || ascii_space((unsigned char)p[0]))))
			break;
		if (!ascii_alpha((unsigned char)p[-1])) {
			p--;
			continue;
		}
		for (e = p; p > start && ascii_alpha((unsigned char)p[-1]); p--)
			;
		k = (size_t)(e - p);
		if (k < 3)
			continue;
		*h = word_hash(p, k);
		if (!context_stopword(*h, p, k)) {
			*pp = p;
			return true;
		}
	}
	*pp = p;
	return false;
}

void ground_context_of(const char *before, size_t n, struct ground_context *ctx)
{
	const char *start = before - MIN(n, 160), *p = before;
	uint32_t last[GROUND_CONTEXT_SIDE], h;
	size_t seen = 0, i;

	context_clear(ctx);
	/* The nearest words tell a figure from the others of its sentence: back
	 * from the figure, word by word, to its sentence's start or the
	 * GROUND_CONTEXT_SIDE-th word that counts (the words before those are
	 * never kept, so they are not read). */
	while (seen < GROUND_CONTEXT_SIDE && prev_content_word(&p, start, before, &h))
		last[seen++] = h; /* newest first */
	if (seen)
		ctx->before1 = last[0];
	for (i = seen; i-- > 0;) {
		ctx->word[ctx->n++] = last[i];
		ctx->mask |= 1ull << (last[i] % 64);
	}
}

/*
 * The next content word of the sentence at *p (before end): its hash, *p
 * past it; false at the sentence's end (a line break, or a terminator and a
 * blank) or the text's.
 */
static inline bool next_content_word(const char **pp, const char *end, uint32_t *h)
{
	const char *p = *pp, *w;
	size_t k;

	while (p < end) {
		while (p < end && !ascii_alpha((unsigned char)*p)) {
			if (*p == '\n' || (is_terminator(*p) && (p + 1 == end || ascii_space((unsigned char)p[1])))) {
				*pp = p;
				return false;
			}
			p++;
		}
		for (w = p; p < end && ascii_alpha((unsigned char)*p); p++)
			;
		k = (size_t)(p - w);
		if (k < 3)
			continue;
		*h = word_hash(w, k);
		if (!context_stopword(*h, w, k)) {
			*pp = p;
			return true;
		}
	}
	*pp = p;
	return false;
}

void ground_context_nearest(const char *before, size_t nb, const char *after, size_t na,
			    struct ground_context *ctx)
{
	const char *start = before - MIN(nb, 160), *p = before, *end = after + MIN(na, 160);
	uint32_t h;

	context_clear(ctx);
	/* Back to the first word that counts, in its sentence (as
	 * ground_context_of() finds it). */
	if (prev_content_word(&p, start, before, &h))
		ctx->before1 = h;
	/* On, to the first that counts before the sentence ends (as ground_context_after()). */
	p = after;
	if (next_content_word(&p, end, &h))
		ctx->after1 = h;
}

static bool next_word(const char **p, const char *end, const char **w, size_t *k);

/* Adds one word's hash unless held; false when ctx is full. */
static bool context_add(struct ground_context *ctx, uint32_t h)
{
	size_t i;

	if (ctx->n == GROUND_CONTEXT)
		return false;
	for (i = 0; i < ctx->n; i++)
		if (ctx->word[i] == h)
			return true;
	ctx->word[ctx->n++] = h;
	ctx->mask |= 1ull << (h % 64);
	return true;
}

void ground_context_after(const char *after, size_t n, struct ground_context *ctx)
{
	const char *p = after, *end = after + MIN(n, 160);
	size_t added = 0;
	uint32_t h;

	while (ctx->n < GROUND_CONTEXT && added < GROUND_CONTEXT - GROUND_CONTEXT_SIDE &&
	       next_content_word(&p, end, &h)) {
		if (added == 0 && !ctx->after1)
			ctx->after1 = h;
		if (!context_add(ctx, h))
			return;
		added++;
	}
}

void ground_context_words(const char *text, size_t n, struct ground_context *ctx)
{
	const char *p = text, *end = text + n, *w;
	size_t k;

	while (next_word(&p, end, &w, &k)) {
		uint32_t h;

		if (k < 3)
			continue;
		h = word_hash(w, k);
		if (!context_stopword(h, w, k) && !context_add(ctx, h))
			return;
	}
}

const char *ground_self_check(void)
{
	uint64_t top[4] = {0};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stopwords); i++) {
		const char *w = stopwords[i].word;
		uint32_t h = word_hash(w, strlen(w));

		if (h != stopwords[i].hash || strlen(w) != stopwords[i].len ||
		    (i > 0 && h <= stopwords[i - 1].hash))
			return w; /* its hash or length is wrong, or out of order (or a twin's) */
		top[h >> 30] |= 1ull << (h >> 24 & 63);
	}
	if (memcmp(top, stopword_top, sizeof(top)) != 0)
		return "stopword_top";
	/* popcount64 against counting, on every single bit and on mixed words */
	for (i = 0; i < 64 * 64; i++) {
		uint64_t x = (1ull << (i % 64)) | (i < 64 ? 0 : ~0ull << (i / 64) ^ (uint64_t)i * 0x9e3779b97f4a7c15ull);
		size_t bits = 0, b;

		for (b = 0; b < 64; b++)
			bits += x >> b & 1;
		if (popcount64(x) != bits || popcount64(~x) != 64 - bits)
			return "popcount64";
	}
	return popcount64(0) == 0 && popcount64(~0ull) == 64 ? NULL : "popcount64";
}

size_t ground_context_shared(const struct ground_context *a, const struct ground_context *b)
{
	size_t i, j, k = 0;

	if ((a->mask & b->mask) == 0)
		return 0;
	for (i = 0; i < a->n; i++) {
		if (!(b->mask >> (a->word[i] % 64) & 1))
			continue; /* its bit is not in b: nor is it */
		for (j = 0; j < b->n; j++)
			if (a->word[i] == b->word[j]) {
				k++;
				break;
			}
	}
	return k;
}

static bool share_context(const struct ground_context *a, const struct ground_context *b)
{
	size_t i, j;

	/* A word in common sets a bit in common: no bit, no word. */
	if ((a->mask & b->mask) == 0)
		return false;
	for (i = 0; i < a->n; i++) {
		if (!(b->mask >> (a->word[i] % 64) & 1))
			continue;
		for (j = 0; j < b->n; j++)
			if (a->word[i] == b->word[j])
				return true;
	}
	return false;
}

/*
 * The day of the week a grounded figure is said of: its nearest word
 * before it (a value's innermost key: {"Monday": "7:0-21:0"}), else after
 * it, when that names a day. The names' word_hash() values, which a
 * plural shares ("Mondays"); a unit test reads each through a grounded time.
 */
static unsigned day_of_context(const struct ground_context *ctx)
{
	static const struct {
		uint32_t hash;
		int day;
	} names[] = {
		{0x4cfa1739u, 0}, /* monday */
		{0xe99e8241u, 0}, /* mon */
		{0x26285d10u, 1}, /* tuesday */
		{0x9828c985u, 1}, /* tue */
		{0x7e35ee42u, 1}, /* tues */
		{0xc39645d7u, 2}, /* wednesday */
		{0x11d9bfb7u, 2}, /* wed */
		{0x121ee9b7u, 3}, /* thursday */
		{0xa40e98ecu, 3}, /* thu */
		{0xe0fa40bau, 3}, /* thur */
		{0x49b74432u, 4}, /* friday */
		{0xc3d7d148u, 4}, /* fri */
		{0x121cf816u, 5}, /* saturday */
		{0xd61c92d7u, 5}, /* sat */
		{0xa429a0d9u, 6}, /* sunday */
		{0xe04e3f61u, 6}, /* sun */
	};
	uint32_t w[2] = {ctx->before1, ctx->after1};
	size_t i, j;

	for (j = 0; j < 2; j++)
		for (i = 0; w[j] && i < ARRAY_SIZE(names); i++)
			if (names[i].hash == w[j])
				return GROUND_DAY(names[i].day);
	return 0;
}

/* ---- quantities, filed by unit and order of magnitude ---- */

static uint32_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (uint32_t)h & (BUCKETS - 1);
}

/*
 * The bin of value v in a unit: its binary order of magnitude and the top
 * bits of its mantissa, so that keys grow with v. Zero (and what is not
 * finite) has a bin of its own, below every other.
 */
#define ZERO_KEY INT64_MIN

static int64_t bin_key(double v)
{
	double m;
	int e;

	if (v == 0 || !isfinite(v))
		return ZERO_KEY;
	m = fmath_frexp(fabs(v), &e); /* m in [0.5, 1) */
	return (int64_t)e * SUBBINS + (int64_t)((m - 0.5) * 2 * SUBBINS);
}

static uint32_t bin_of(uint64_t unit_hash, int64_t key)
{
	return mix(unit_hash ^ ((uint64_t)key * 0x9e3779b97f4a7c15ull));
}

/* A quarter-year's bit in a set of them (ground.reported_mask). */
static uint64_t period_bit(uint32_t p)
{
	return 1ull << ((p * 0x9e3779b1u) >> 26);
}

static uint32_t val_of(double v)
{
	uint64_t bits;

	v = v == 0 ? 0 : v; /* -0 and 0 are one value */
	memcpy(&bits, &v, sizeof(bits));
	return mix(bits);
}

/* The lists a quantity is filed in. */
enum { BY_BIN, BY_VALUE, BY_UNIT, BY_WRITTEN };

/* Slot i's place in one kind of list. */
static struct qlink *qlink(struct ground *g, uint32_t i, int by)
{
	return by == BY_VALUE ? &g->ql[i].val : by == BY_UNIT ? &g->ul[i].link
	       : by == BY_WRITTEN ? &g->ql[i].written : &g->ql[i].bin;
}

/* Files slot i at the head of list (a hash head's index) of one kind. */
static void link_in(struct ground *g, uint32_t *heads, uint32_t list, uint32_t i, int by)
{
	struct qlink *l = qlink(g, i, by);

	l->prev = NIL;
	l->next = heads[list];
	if (l->next != NIL)
		qlink(g, l->next, by)->prev = i;
	heads[list] = i;
}

static void link_out(struct ground *g, uint32_t *heads, uint32_t list, uint32_t i, int by)
{
	struct qlink *l = qlink(g, i, by);

	if (l->prev != NIL)
		qlink(g, l->prev, by)->next = l->next;
	else
		heads[list] = l->next;
	if (l->next != NIL)
		qlink(g, l->next, by)->prev = l->prev;
}

/* The hash heads slot i is filed under; val is NIL when it is not filed by value. */
struct lists {
	uint32_t bin, unit, written, val;
};

static struct lists lists_of(const struct ground *g, uint32_t i)
{
	const struct quantity *q = &g->q[i].q;
	const struct qlinks *l = &g->ql[i];

	return (struct lists){
		.bin = bin_of(l->unit_hash, l->key),
		.unit = mix(l->unit_hash),
		.written = val_of(quantity_written(q)),
		.val = q->kind != QUANTITY_BASE ? val_of(q->value) : NIL,
	};
}

/*
 * Empties the hash heads: the ones the items use, where they are few (a
 * span's set is reset at every span: 160 KB of heads each time would cost
 * more than its items), else all of them.
 */
static void clear_heads(struct ground *g)
{
	uint32_t i;

	if ((size_t)(g->count + g->qcount) * 8 > BUCKETS) {
		memset(g->heads, 0xff, 5 * BUCKETS * sizeof(*g->heads));
		return;
	}
	for (i = 0; i < g->count; i++)
		*slot_of(g, g->e[(g->head + i) % GROUND_CAP].hash) = NIL;
	for (i = 0; i < g->qcount; i++) {
		struct lists l = lists_of(g, (g->qhead + i) % GROUND_CAP);

		g->bins[l.bin] = NIL;
		g->units[l.unit] = NIL;
		g->writ[l.written] = NIL;
		if (l.val != NIL)
			g->vals[l.val] = NIL;
	}
}

/*
 * The newest SWAP_WALK quantities of a unit, newest first: a walk kept
 * while the set holds the same quantities, else walked anew (in place of
 * the least recently used of WALK_MEMOS). Valid until the next call.
 */
static const struct walk_memo *unit_newest(const struct ground *g, uint64_t unit_hash)
{
	struct walk_memos *ms = g->memos;
	struct memo_key *key, *out = NULL;
	struct walk_memo *m;
	bool out_fresh = true;
	uint32_t i;
	size_t k;

	for (k = 0; k < WALK_MEMOS; k++) {
		bool fresh;

		key = &ms->key[k];
		fresh = key->valid && key->epoch == g->epoch && key->qseq == g->qseq;
		if (fresh && key->unit_hash == unit_hash) {
			key->used = ++ms->clock;
			return &g->memo[k];
		}
		/* (a stale one first, else the least recently used) */
		if (!out || (out_fresh && (!fresh || key->used < out->used))) {
			out = key;
			out_fresh = fresh;
		}
	}
	*out = (struct memo_key){.unit_hash = unit_hash, .epoch = g->epoch, .qseq = g->qseq,
				 .used = ++ms->clock, .valid = true};
	m = &g->memo[out - ms->key];
	m->n = 0;
	for (i = g->units[mix(unit_hash)]; i != NIL && m->n < SWAP_WALK; i = g->ul[i].link.next)
		if (g->ul[i].unit_hash == unit_hash) {
			m->slot[m->n] = (uint16_t)i;
			m->mask[m->n] = g->ql[i].mask;
			m->before1[m->n] = g->ql[i].before1;
			m->after1[m->n++] = g->ql[i].after1;
		}
	return m;
}

/* Does a day's context say it is today's ("Current time: ...", "Today is ...")? */
static bool says_today(const struct ground_context *ctx)
{
	uint32_t today = word_hash("today", 5), current = word_hash("current", 7);
	size_t i;

	for (i = 0; i < ctx->n; i++)
		if (ctx->word[i] == today || ctx->word[i] == current)
			return true;
	return false;
}

/* The most a ring of texts needs: GROUND_CAP texts of GROUND_TEXT_MAX bytes, and room. */
#define TEXT_RING_MAX ((size_t)(GROUND_CAP + 4) * GROUND_TEXT_MAX)

/*
 * Room for need bytes of text at the ring's tail, after the oldest held
 * quantity's text (the ring holds nothing else): at the tail, else at the
 * start, else in a larger ring, the held texts moved to its start in their
 * order (and their quantities pointed at them). NULL: no memory.
 */
static char *text_room(struct ground *g, size_t need)
{
	size_t head, cap, used = 0, k, i;
	char *tx;

	if (g->qcount == 0) {
		g->tx_tail = 0;
		if (need <= g->tx_cap)
			return g->tx;
	} else {
		head = (size_t)(g->q[g->qhead].text - g->tx);
		if (g->tx_tail > head && g->tx_cap - g->tx_tail >= need)
			return g->tx + g->tx_tail;
		if (g->tx_tail > head && need <= head) {
			g->tx_tail = 0;
			return g->tx;
		}
		if (g->tx_tail < head && head - g->tx_tail >= need)
			return g->tx + g->tx_tail;
	}
	for (i = 0; i < g->qcount; i++)
		used += strlen(g->q[(g->qhead + i) % GROUND_CAP].text) + 1;
	/* Half as much again as is held, in steps of 4 KB; never past what the
	 * most texts, each as long as can be, take with room for two more:
	 * there a text always fits at the tail or at the start (at most one
	 * text's room is left unused, where the ring wraps). */
	cap = MIN((used + need + (used + need) / 2 + 4095) & ~(size_t)4095, (size_t)TEXT_RING_MAX);
	cap = MAX(cap, used + need);
	tx = malloc(cap);
	if (!tx)
		return NULL;
	for (i = 0, used = 0; i < g->qcount; i++) {
		struct ground_quantity *gq = &g->q[(g->qhead + i) % GROUND_CAP];

		k = strlen(gq->text) + 1;
		memcpy(tx + used, gq->text, k);
		gq->text = tx + used;
		used += k;
	}
	free(g->tx);
	g->tx = tx;
	g->tx_cap = cap;
	g->tx_tail = used;
	return tx + used;
}

int ground_add_quantity(struct ground *g, const struct quantity *q, const char *text,
			size_t n, uint64_t at, const struct ground_context *ctx)
{
	char copy[GROUND_TEXT_MAX], *t;

	struct ground_quantity *gq;
	struct qlinks *l;
	uint32_t i;

	if (use_heads(g) < 0)
		return -ENOMEM;
	/* (text may be another set's: copied before this ring can move) */
	n = MIN(n, sizeof(copy) - 1);
	memcpy(copy, text, n);
	copy[n] = '\0';
	if (g->qcount == GROUND_CAP) {
		struct lists old = lists_of(g, g->qhead);

		link_out(g, g->bins, old.bin, g->qhead, BY_BIN);
		link_out(g, g->units, old.unit, g->qhead, BY_UNIT);
		link_out(g, g->writ, old.written, g->qhead, BY_WRITTEN);
		if (old.val != NIL)
			link_out(g, g->vals, old.val, g->qhead, BY_VALUE);
		g->qhead = (g->qhead + 1) % GROUND_CAP;
		g->qcount--;
		g->evictions++;
	}
	t = text_room(g, n + 1);
	if (!t)
		return -ENOMEM;
	memcpy(t, copy, n + 1);
	g->tx_tail = (size_t)(t - g->tx) + n + 1;
	i = (g->qhead + g->qcount) % GROUND_CAP;
	gq = &g->q[i];
	gq->text = t;
	gq->q = *q;
	gq->at = at;
	gq->ctx = *ctx;
	gq->ctx.text = g->texts;
	gq->prompt = g->texts && g->texts == g->prompt_text;
	g->periods |= ctx->period != 0;
	if (ctx->quarter_year && !ctx->compared) {
		uint32_t qr = QUANTITY_PERIOD_QUARTER(ctx->quarter_year);

		g->reported_mask |= period_bit(ctx->quarter_year);
		g->reported[0].period = ctx->quarter_year;
		g->reported[0].at = at;
		if (qr >= 1 && qr <= 4) {
			g->reported[qr].period = ctx->quarter_year;
			g->reported[qr].at = at;
		}
	}
	gq->days = day_of_context(ctx);
	if (q->kind == QUANTITY_TIME)
		g->days_seen |= gq->days;
	l = &g->ql[i];
	if (q->kind == QUANTITY_DATE && q->scale == 1 && says_today(ctx))
		g->today_seq = g->qseq;
	l->seq = g->qseq++;
	l->key = bin_key(q->value);
	l->unit_hash = q->unit_hash;
	l->mask = ctx->mask;
	l->before1 = ctx->before1;
	l->after1 = ctx->after1;
	g->ul[i].unit_hash = q->unit_hash;
	link_in(g, g->bins, bin_of(q->unit_hash, l->key), i, BY_BIN);
	link_in(g, g->units, mix(q->unit_hash), i, BY_UNIT);
	link_in(g, g->writ, val_of(quantity_written(q)), i, BY_WRITTEN);
	if (q->kind != QUANTITY_BASE)
		link_in(g, g->vals, val_of(q->value), i, BY_VALUE);
	g->qcount++;
	g->version++;
	return 0;
}

/*
 * The search for what a written quantity stands against. Every candidate
 * is judged as the walk over the whole set in age order judges it, and the
 * winners are chosen by age as that walk would: the oldest that states a
 * (in context, else anywhere), or the nearest within tolerance that does
 * not, the youngest among equals.
 */
struct qsearch {
	const struct ground *g;
	const struct quantity *a;
	const struct ground_context *ctx;
	uint32_t stated[2], near[2]; /* [in context]: slots, or NIL */
	int stated_close;            /* the closest a stating one is said: closeness() */
	/* Of the stating ones said in a prompt: whether there is one, and the
	 * closest one is said and the most words one shares with a's. */
	bool prompt_states;
	int prompt_close;
	size_t prompt_shared;
	double best[2];
	/* The last figure judged, and what it is to a: a set holds the same
	 * figure many times over (a status in every tool result, a field of
	 * every record), and those are judged in a row. */
	const struct quantity *seen;
	bool seen_states, seen_comparable;
	double seen_distance;
	uint32_t noun; /* count_noun() of a */
	bool stated_only; /* only what states a is looked for (ground_stated_quantity()) */
};

/* True when slot i is older than the stated one held in class k (or there is none). */
static bool older_than_stated(const struct qsearch *s, uint64_t seq, int k)
{
	return s->stated[k] == NIL || seq < s->g->ql[s->stated[k]].seq;
}

/* How closely two figures are said: their nearest words, before and after, alike. */
static int closeness(const struct ground_context *a, const struct ground_context *b)
{
	return (a->before1 && a->before1 == b->before1) + (a->after1 && a->after1 == b->after1);
}

/*
 * Whether g states a, is comparable with it and how far: asked once for a
 * run of the same figure. Byte for byte the same is the same figure (a copy
 * that differs only in padding is asked again).
 */
static bool same_figure(const struct quantity *a, const struct quantity *b)
{
	/* Eight bytes at a time, inline: memcmp's call was a third of a long walk. */
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	uint64_t u, v, diff = 0;
	size_t i;

	_Static_assert(sizeof(struct quantity) % 8 == 0, "a quantity is whole 8-byte words");
	/* Most figures met in a walk are other values: their first word differs. */
	memcpy(&u, x, 8);
	memcpy(&v, y, 8);
	if (u != v)
		return false;
	for (i = 8; i < sizeof(*a); i += 8) {
		memcpy(&u, x + i, 8);
		memcpy(&v, y + i, 8);
		diff |= u ^ v;
	}
	return diff == 0;
}

static void judge_figure(struct qsearch *s, const struct quantity *g)
{
	if (s->seen && same_figure(s->seen, g))
		return;
	s->seen = g;
	s->seen_states = quantity_states(s->a, g);
	s->seen_comparable = !s->seen_states && !s->stated_only && quantity_comparable(s->a, g);
	if (s->seen_comparable)
		s->seen_distance = quantity_distance(s->a, g);
}

/*
 * Does a keep the bound gq says ("under 34 euros" a user asked for, 30
 * euros found)? Then gq is a condition a meets, not a figure a changed.
 */
static bool keeps_bound(const struct quantity *a, const struct ground_quantity *gq)
{
	return (gq->ctx.bound < 0 && a->value < gq->q.value) ||
	       (gq->ctx.bound > 0 && a->value > gq->q.value);
}

/*
 * The word a whole count of a noun names ("3 nights": "night", as
 * word_hash() keys the words of a context), or 0 for any other quantity.
 */
static uint32_t count_noun(const struct quantity *a)
{
	if (a->kind != QUANTITY_COUNT || a->items || a->decimals != 0 || a->words)
		return 0;
	return word_hash(a->unit, strnlen(a->unit, sizeof(a->unit)));
}

/* Do gq's words name the noun a count counts (count_noun())? */
static bool names_noun(uint32_t noun, const struct ground_quantity *gq)
{
	size_t i;

	if (!(gq->ctx.mask >> (noun % 64) & 1))
		return false;
	for (i = 0; i < gq->ctx.n; i++)
		if (gq->ctx.word[i] == noun)
			return true;
	return false;
}

/*
 * Is gq a bare figure written with decimals ("rating": 3.9, "4.0") whose
 * words do not name the noun a count (count_noun()) counts? A measure of
 * another thing, which "3 nights" or "5 stars" were not changed from.
 */
static bool other_measure(uint32_t noun, const struct ground_quantity *gq)
{
	return noun && gq->q.kind == QUANTITY_NUMBER && gq->q.decimals != 0 && !names_noun(noun, gq);
}

/*
 * Is one of two dates a month said alone ("spending in March 2022") and
 * the other a day of it ("the transaction from March 7th")? The day is
 * said within the month, not in place of it: no swap.
 */
static bool month_holds(const struct quantity *a, const struct quantity *b)
{
	return a->kind == QUANTITY_DATE && b->kind == QUANTITY_DATE && (a->scale == 100 || b->scale == 100) &&
	       floor(a->value / 100) == floor(b->value / 100);
}

static void judge(struct qsearch *s, uint32_t i)
{
	const struct ground *g = s->g;
	const struct ground_quantity *gq = &g->q[i];
	uint64_t seq = g->ql[i].seq;
	bool shared;
	double d;

	judge_figure(s, &gq->q);
	/* The context is compared only where the verdict can change with it. */
	if (s->seen_states) {
		/* (only where the answer's figure has a nearest word, and until one
		 * stating figure has both: all the swap rule asks) */
		if (s->stated_close < 2 && (s->ctx->before1 || s->ctx->after1))
			s->stated_close = MAX(s->stated_close, closeness(s->ctx, &gq->ctx));
		if (gq->prompt) {
			s->prompt_states = true;
			s->prompt_close = MAX(s->prompt_close, closeness(s->ctx, &gq->ctx));
			s->prompt_shared = MAX(s->prompt_shared, ground_context_shared(s->ctx, &gq->ctx));
		}
		if (!older_than_stated(s, seq, 0) && !older_than_stated(s, seq, 1))
			return;
		shared = share_context(s->ctx, &gq->ctx);
		if (older_than_stated(s, seq, shared))
			s->stated[shared] = i;
		return;
	}
	if (!s->seen_comparable)
		return;
	d = s->seen_distance;
	if (d > s->best[0] && d > s->best[1])
		return;
	if (keeps_bound(s->a, gq) || other_measure(s->noun, gq) || month_holds(s->a, &gq->q))
		return;
	shared = share_context(s->ctx, &gq->ctx);
	if (d < s->best[shared] ||
	    (d == s->best[shared] && (s->near[shared] == NIL || seq > g->ql[s->near[shared]].seq))) {
		s->best[shared] = d;
		s->near[shared] = i;
	}
}

/* Judges the quantities of bin key k of one unit. */
static void judge_bin(struct qsearch *s, uint64_t unit_hash, int64_t k)
{
	const struct ground *g = s->g;
	uint32_t i;

	for (i = g->bins[bin_of(unit_hash, k)]; i != NIL; i = g->ql[i].bin.next)
		if (g->ql[i].key == k && g->ql[i].unit_hash == unit_hash)
			judge(s, i);
}

/* Judges the quantities of one unit whose value may lie in [lo, hi]; false: too wide. */
static bool judge_range(struct qsearch *s, uint64_t unit_hash, double lo, double hi)
{
	int64_t k, from, to;

	if (!(lo <= hi))
		return true;
	if (lo <= 0) {
		if (hi < 0)
			return false; /* no quantity is negative; let the walk say so */
		lo = 0;
	}
	from = bin_key(lo);
	to = bin_key(hi);
	if (from == ZERO_KEY && to != ZERO_KEY)
		return false; /* from zero up: every bin below hi */
	if (from != ZERO_KEY && (!isfinite(hi) || to - from > MAX_BINS))
		return false;
	for (k = from;; k++) {
		judge_bin(s, unit_hash, k);
		if (k == to)
			break;
	}
	return true;
}

/* The least value bin key k holds (k is not ZERO_KEY). */
static double bin_low(int64_t k)
{
	int64_t e = k >= 0 ? k / SUBBINS : -((-k + SUBBINS - 1) / SUBBINS);
	int64_t sub = k - e * SUBBINS;

	double m = 0.5 + (double)sub / (2.0 * SUBBINS);
	uint64_t bits;
	double p;

	/* 2^e from its bits where it is a normal number (judge_near asks for
	 * every bin it passes, and ldexp costs a call through libm). */
	if (e < -1022 || e > 1023)
		return fmath_ldexp(m, (int)e);
	bits = (uint64_t)(e + 1023) << 52;
	memcpy(&p, &bits, sizeof(p));
	return m * p;
}

/*
 * Judges the quantities of one unit within tolerance of v > 0, from v's
 * bin outwards: a side stops at the first bin that cannot hold anything
 * nearer than the best found so far. False: the range is too wide.
 */
static bool judge_near(struct qsearch *s, uint64_t unit_hash, double v, double tolerance)
{
	double lo = v / (1 + tolerance), hi = v / (1 - tolerance);
	int64_t from, to, mid, up, down;

	lo -= lo * 1e-9;
	hi += hi * 1e-9;
	from = bin_key(lo);
	to = bin_key(hi);
	if (from == ZERO_KEY || !isfinite(hi) || to - from > MAX_BINS)
		return false;
	mid = bin_key(v);
	judge_bin(s, unit_hash, mid);
	for (up = mid + 1, down = mid - 1; up <= to || down >= from;) {
		/* (with a margin for rounding: a tie at a bin's edge is still judged) */
		double worst = MAX(s->best[0], s->best[1]) * (1 + 1e-9) + 1e-12;

		/* Above v the distance grows with g: a bin is no nearer than its least value. */
		if (up <= to && 1 - v / bin_low(up) <= worst)
			judge_bin(s, unit_hash, up++);
		else
			up = to + 1;
		/* Below v it shrinks with g: no nearer than the next bin's least value. */
		if (down >= from && v / bin_low(down + 1) - 1 <= worst)
			judge_bin(s, unit_hash, down--);
		else
			down = from - 1;
	}
	return true;
}

/*
 * Judges every quantity that can state a or be near it, found through the
 * bins; false when a range is too wide for that (the caller walks all).
 */
static bool judge_candidates(struct qsearch *s, double tolerance)
{
	const struct quantity *a = s->a;
	double u = quantity_step(a->decimals), t = a->value / a->scale;
	/* Rounding is decided within u * 1e-6 + 1e-12: widen the ranges past it. */
	double slack = u * 1e-6 + 1e-12, lo, hi;
	uint64_t num = quantity_unit_hash("number");
	uint32_t i;

	/* Same unit, stating: g / scale rounds to t. */
	lo = (t - u / 2 - slack) * a->scale;
	hi = (t + u / 2 + slack) * a->scale;
	lo -= fabs(lo) * 1e-9;
	hi += fabs(hi) * 1e-9;
	if (!judge_range(s, a->unit_hash, lo, hi))
		return false;
	/* A bare number, stating: g rounds to t (unscaled, so also for a bare a). */
	lo = t - u / 2 - slack;
	hi = t + u / 2 + slack;
	lo -= fabs(lo) * 1e-9;
	hi += fabs(hi) * 1e-9;
	if (!judge_range(s, num, lo, hi))
		return false;
	/* A count of another noun with the same figure states it. */
	if (a->kind != QUANTITY_BASE)
		for (i = s->g->vals[val_of(a->value)]; i != NIL; i = s->g->ql[i].val.next)
			if (s->g->q[i].q.value == a->value)
				judge(s, i);
	/* "3 nights": "3 days" states it. */
	if (quantity_nights(a) &&
	    !judge_range(s, quantity_unit_hash("seconds"), a->value * QUANTITY_DAY_SECONDS,
			 a->value * QUANTITY_DAY_SECONDS))
		return false;
	/* "40 years": "the 40th anniversary" states it. */
	if (a->scale == QUANTITY_YEAR_SECONDS && a->unit_hash == quantity_unit_hash("seconds"))
		for (i = s->g->vals[val_of(t)]; i != NIL; i = s->g->ql[i].val.next)
			if (s->g->q[i].q.years)
				judge(s, i);
	/* Stated in a shared context: nothing near can win over it. */
	if (s->stated[1] != NIL || s->stated_only)
		return true;
	/* Near: |a - g| <= tolerance * g, of the same unit or a bare number for a count. */
	if (tolerance > 0) {
		if (tolerance >= 1 || a->value < 0)
			return false;
		if (a->value == 0)
			return judge_range(s, a->unit_hash, 0, 0) &&
			       (a->kind == QUANTITY_BASE || judge_range(s, num, 0, 0));
		if (!judge_near(s, a->unit_hash, a->value, tolerance))
			return false;
		if (a->kind != QUANTITY_BASE && a->unit_hash != num &&
		    !judge_near(s, num, a->value, tolerance))
			return false;
	} else if (a->value == 0) {
		/* Only an equal value is near at tolerance 0. */
		if (!judge_range(s, a->unit_hash, 0, 0) ||
		    (a->kind != QUANTITY_BASE && !judge_range(s, num, 0, 0)))
			return false;
	} else {
		if (!judge_range(s, a->unit_hash, a->value, a->value) ||
		    (a->kind != QUANTITY_BASE && !judge_range(s, num, a->value, a->value)))
			return false;
	}
	return true;
}

/*
 * Judges the LEXED_WALK newest quantities of one unit, but for those of
 * a's unit and value: judge_lexed() judged them already (by value), and a
 * second judgement changes nothing.
 */
static void judge_unit(struct qsearch *s, uint64_t unit_hash)
{
	const struct ground *g = s->g;
	const struct walk_memo *m = unit_newest(g, unit_hash);
	uint32_t i, w;

	for (w = 0; w < m->n && w < LEXED_WALK; w++) {
		i = m->slot[w];
		if (unit_hash != s->a->unit_hash || g->q[i].q.value != s->a->value ||
		    g->q[i].q.kind == QUANTITY_BASE)
			judge(s, i);
	}
}

/*
 * Judges what can state or be near a quantity of the lexer's kinds: those
 * of its unit (both scales for a temperature), and for a year, an ordinal
 * or a temperature the bare numbers that state it (quantity.h).
 */
static void judge_lexed(struct qsearch *s)
{
	const struct quantity *a = s->a;
	const struct ground *g = s->g;
	uint64_t number = quantity_unit_hash("number");
	uint32_t i;

	/* Those of its value, however old ("2019" among years: the stating ones),
	 * then the newest of its unit (a month stating a day, near ones). */
	for (i = g->vals[val_of(a->value)]; i != NIL; i = g->ql[i].val.next)
		if (g->ql[i].unit_hash == a->unit_hash)
			judge(s, i);
	if (a->kind == QUANTITY_TEMPERATURE) {
		judge_unit(s, quantity_unit_hash("temp:c"));
		judge_unit(s, quantity_unit_hash("temp:deg"));
	} else {
		judge_unit(s, a->unit_hash);
	}
	/* "35th anniversary": the durations written "35 years" state it. */
	if (a->years) {
		uint64_t seconds = quantity_unit_hash("seconds");

		for (i = g->writ[val_of(quantity_written(a))]; i != NIL; i = g->ql[i].written.next)
			if (g->ql[i].unit_hash == seconds)
				judge(s, i);
	}
	if (a->kind != QUANTITY_YEAR && a->kind != QUANTITY_ORDINAL && a->kind != QUANTITY_TEMPERATURE)
		return;
	for (i = g->writ[val_of(quantity_written(a))]; i != NIL; i = g->ql[i].written.next)
		if (g->ql[i].unit_hash == number)
			judge(s, i);
	/* A Fahrenheit figure is stated by a bare number in either scale. */
	if (a->kind == QUANTITY_TEMPERATURE)
		for (i = g->writ[val_of(a->value)]; i != NIL; i = g->ql[i].written.next)
			if (g->ql[i].unit_hash == number)
				judge(s, i);
}

/*
 * A figure stated elsewhere but said where the grounding says another
 * figure of its unit: the best such candidate among the SWAP_WALK newest
 * quantities of a's unit (and of bare numbers, for a count of a noun),
 * sharing at least SWAP_SHARED context words; most words shared, then
 * nearest, then youngest. None said in a grounding text before since
 * (a ground_begin_text() count; 0: any). Where a grounded figure states a
 * (stated), a count of a noun was changed from no bare figure whose words
 * do not name the noun: "16 iterations" of a tool's "0x10" is no "4" of
 * the user's "my random number was 4" changed.
 */
static uint32_t find_swap(const struct ground *g, const struct quantity *a,
			  const struct ground_context *ctx, uint32_t since, bool stated)
{
	uint64_t units[2] = {a->unit_hash, quantity_unit_hash("number")}, dup = 0;
	uint32_t best = NIL, noun = count_noun(a), w;
	size_t best_k = 0, u, j;
	double best_d = INFINITY;
	uint8_t per_bit[64] = {0};

	/* How many of ctx's words fall on each bit of its mask: a slot's mask
	 * then bounds the words it can share (below) from its links alone. */
	for (j = 0; j < ctx->n; j++)
		if (per_bit[ctx->word[j] % 64]++)
			dup |= 1ull << (ctx->word[j] % 64);
	for (u = 0; u < (a->kind != QUANTITY_COUNT ? 1u : 2u); u++) {
		const struct walk_memo *m = unit_newest(g, units[u]);

		for (w = 0; w < m->n; w++) {
			const struct ground_quantity *gq;
			uint32_t i = m->slot[w];
			uint64_t common = ctx->mask & m->mask[w], d2;
			size_t k;
			double d;

			/* The context first: most share too little. A word in common
			 * is a bit in common, so these bits (each as many times as
			 * ctx has words on it) bound the words shared; most slots
			 * are ruled out here, without reading their quantity. */
			if (!common)
				continue; /* no word in common: k would be 0 */
			k = popcount64(common);
			for (d2 = dup & common; d2; d2 &= d2 - 1)
				k += per_bit[__builtin_ctzll(d2)] - 1u;
			if (k < SWAP_SHARED || k < best_k)
				continue;
			gq = &g->q[i];
			/* (said in a text before since: what a later one says stands) */
			if (since && gq->ctx.text && gq->ctx.text < since)
				continue;
			k = ground_context_shared(ctx, &gq->ctx);
			if (k < SWAP_SHARED || k < best_k)
				continue;
			if (!quantity_comparable(a, &gq->q) || keeps_bound(a, gq) ||
			    other_measure(noun, gq) || month_holds(a, &gq->q) ||
			    (stated && u == 1 && noun && !names_noun(noun, gq)))
				continue;
			/* Whether it would win, before the dearer question whether
			 * it states a (then it is no swap): most lose here. */
			d = quantity_distance(a, &gq->q);
			if (k == best_k && (d > best_d || (d == best_d && best != NIL &&
							   g->ql[i].seq < g->ql[best].seq)))
				continue;
			if (quantity_states(a, &gq->q))
				continue;
			if (k > best_k || d < best_d ||
			    (d == best_d && (best == NIL || g->ql[i].seq > g->ql[best].seq))) {
				best = i;
				best_k = k;
				best_d = d;
			}
		}
	}
	return best;
}

/*
 * Whether any of the quantities find_swap() walks for a is said between
 * the words ctx has nearest to it (those it has, need of them:
 * closeness()): where none is, no swap it finds is said there.
 */
static bool swap_may_be_close(const struct ground *g, const struct quantity *a,
			      const struct ground_context *ctx)
{
	uint64_t units[2] = {a->unit_hash, quantity_unit_hash("number")};
	size_t u;
	uint32_t w;

	for (u = 0; u < (a->kind != QUANTITY_COUNT ? 1u : 2u); u++) {
		const struct walk_memo *m = unit_newest(g, units[u]);

		for (w = 0; w < m->n; w++)
			if ((!ctx->before1 || m->before1[w] == ctx->before1) &&
			    (!ctx->after1 || m->after1[w] == ctx->after1))
				return true;
	}
	return false;
}

/*
 * Whether quantity slot i was said in a text before since and no text
 * from since on says its figure again: the newer texts left it behind
 * (the user moved the trip from the 8th to the 9th, and the newest
 * search has only the 9th). One they still say ("pickup" the 9th,
 * "dropoff" the 12th) is still there to be confused with.
 */
static bool superseded(const struct ground *g, uint32_t i, uint32_t since)
{
	const struct quantity *b = &g->q[i].q;
	const struct walk_memo *m;
	uint32_t j, w;

	if (!g->q[i].ctx.text || g->q[i].ctx.text >= since)
		return false;
	/* Its unit's quantities, newest first: those of the texts since. */
	m = unit_newest(g, b->unit_hash);
	for (w = 0; w < m->n; w++) {
		j = m->slot[w];
		if (g->q[j].ctx.text && g->q[j].ctx.text < since)
			break;
		if (quantity_states(b, &g->q[j].q))
			return false;
	}
	return w < SWAP_WALK;
}

/*
 * The user (or the system) said a's figure in this conversation: the
 * answer that repeats it has it from them. A record's other figure said
 * where the answer says it ("Start time: 2024-05-16 10:00" of the event the
 * user asked for "on 2024-05-16 at 10:00", beside a record's "start_time:
 * 2024-05-15 15:00:00") is a swap only when the answer ties a to it more
 * than to any prompt that states a: said between the very words it is said
 * between, or sharing more words with it than the bare two a swap needs
 * and than with the prompt ("your dentist appointment starts at 10:00"
 * where the user guessed 10:00 and the calendar's dentist appointment
 * starts at 15:00). Another figure of the prompts is one where the words
 * tie a to it as the swap rules say, unless the prompt that states a
 * shares more words with the answer ("the Introductory meeting from May
 * 15th" where the user named the follow-up's 19th and the introductory
 * meeting's 15th); the user who picks the car up on the 4th and returns
 * it on the 9th has said which is which.
 */
static bool swap_outranks_prompt(const struct qsearch *s, uint32_t i)
{
	const struct ground_context *c = &s->g->q[i].ctx;

	if (!s->prompt_states)
		return true;
	if (s->g->q[i].prompt)
		return ground_context_shared(s->ctx, c) >= s->prompt_shared;
	if (closeness(s->ctx, c) == 2 && s->prompt_close < 2)
		return true;
	return ground_context_shared(s->ctx, c) > MAX(s->prompt_shared, (size_t)SWAP_SHARED);
}

static const struct ground_quantity *match(const struct ground *g, const struct quantity *a,
					  const struct ground_context *ctx, double tolerance,
					  enum ground_verdict *v, bool stated_only)
{
	struct qsearch s = {
		.g = g, .a = a, .ctx = ctx,
		.stated = {NIL, NIL}, .near = {NIL, NIL}, .best = {tolerance, tolerance},
		.noun = count_noun(a), .stated_only = stated_only,
	};
	uint32_t i;

	*v = GROUND_NONE;
	if (g->qcount == 0)
		return NULL;
	/* The kinds the number lexer adds compare by rules of their own (days
	 * round the year, minutes round the clock): every quantity of their
	 * unit is judged, and the bare numbers written as they are. */
	if (a->kind > QUANTITY_BASE) {
		judge_lexed(&s);
	} else if (!judge_candidates(&s, tolerance)) {
		s = (struct qsearch){
			.g = g, .a = a, .ctx = ctx,
			.stated = {NIL, NIL}, .near = {NIL, NIL}, .best = {tolerance, tolerance},
			.noun = s.noun, .stated_only = stated_only,
		};
		for (i = 0; i < g->qcount; i++)
			judge(&s, (g->qhead + i) % GROUND_CAP);
	}
	/* Nothing states it: whatever is swapped or near, it is not stated. */
	if (stated_only && s.stated[0] == NIL && s.stated[1] == NIL)
		return NULL;
	/* Stated where the same things are said: grounded, unless another
	 * figure (a swap, below) is said between the very words the answer
	 * puts around this one (the one word it has at a sentence's end:
	 * "income was $946 million." where the source says "income was $971
	 * million ..., compared with $946 million"), and no stating one is. */
	*v = GROUND_STATED;
	if (s.stated[1] != NIL) {
		/* (at a sentence's end or start, the one nearest word it has) */
		int need = closeness(ctx, ctx);

		if (need > 0 && s.stated_close < need) {
			/* (not one the texts since the newest stating one left
			 * behind: the user asked of the 15th and the 19th, and the
			 * newest results, of the 19th, state it) */
			uint32_t since = g->q[s.stated[1]].ctx.text;

			if (s.stated[0] != NIL)
				since = MAX(since, g->q[s.stated[0]].ctx.text);
			i = swap_may_be_close(g, a, ctx) ? find_swap(g, a, ctx, 0, true) : NIL;
			if (i != NIL && closeness(ctx, &g->q[i].ctx) == need && !superseded(g, i, since) &&
			    swap_outranks_prompt(&s, i)) {
				*v = GROUND_SWAPPED;
				return &g->q[i];
			}
		}
		return &g->q[s.stated[1]];
	}
	/* Said where the grounding says another figure: changed on the way,
	 * unless a later text states it (the user moved the trip to the 9th
	 * and the newest search holds 2019-03-09): what was said last of a
	 * thing stands, not what an earlier message said of it. */
	i = find_swap(g, a, ctx, 0, s.stated[0] != NIL);
	/* "3 nights" of the user's "3-day trip": the stay's span is what its
	 * nights are counted from, not a figure said near the hotel's words
	 * (its "Rating: 5.0", beside a name like "Good Night") */
	if (i != NIL && s.stated[0] != NIL && quantity_nights(a) &&
	    g->q[s.stated[0]].q.kind == QUANTITY_BASE &&
	    g->q[s.stated[0]].q.scale == QUANTITY_DAY_SECONDS)
		i = NIL;
	if (i != NIL && s.stated[0] != NIL && superseded(g, i, g->q[s.stated[0]].ctx.text))
		i = find_swap(g, a, ctx, g->q[s.stated[0]].ctx.text, true);
	if (i != NIL && !swap_outranks_prompt(&s, i))
		i = NIL;
	*v = GROUND_SWAPPED;
	if (i != NIL)
		return &g->q[i];
	/* Stated anywhere: grounded, whatever else is near. */
	*v = GROUND_STATED;
	if (s.stated[0] != NIL)
		return &g->q[s.stated[0]];
	/* A near one only counts within tolerance (best starts there). */
	*v = GROUND_NEAR;
	if (s.near[1] != NIL)
		return &g->q[s.near[1]];
	if (s.near[0] != NIL)
		return &g->q[s.near[0]];
	*v = GROUND_NONE;
	return NULL;
}

const struct ground_quantity *ground_match_quantity(const struct ground *g,
						    const struct quantity *a,
						    const struct ground_context *ctx,
						    double tolerance, enum ground_verdict *v)
{
	return match(g, a, ctx, tolerance, v, false);
}

const struct ground_quantity *ground_stated_quantity(const struct ground *g,
						     const struct quantity *a,
						     const struct ground_context *ctx,
						     enum ground_verdict *v)
{
	const struct ground_quantity *gq = match(g, a, ctx, 0, v, true);

	if (*v == GROUND_STATED)
		return gq;
	*v = GROUND_NONE;
	return NULL;
}

/* ---- days of the week ---- */

/* The day a word names (0 Monday .. 6 Sunday), or -1. */
static int day_word(const char *w, size_t k)
{
	static const char *const names[7] = {
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	};
	char low[12];
	size_t i;
	int d;

	if (k < 3 || k > 10)
		return -1;
	for (i = 0; i < k; i++)
		low[i] = (char)tolower((unsigned char)w[i]);
	if (low[k - 1] == 's' && k > 6)
		k--; /* "Mondays" */
	for (d = 0; d < 7; d++) {
		size_t full = strlen(names[d]);

		/* The name, or its first three or four letters ("Mon", "Tues", "Thur"). */
		if (k == full ? memcmp(low, names[d], k) == 0
			      : (k == 3 || (k == 4 && d != 0 && d != 4 && d != 6)) &&
				    memcmp(low, names[d], k) == 0)
			return d;
	}
	return -1;
}

static bool is_word(const char *w, size_t k, const char *lit)
{
	return strlen(lit) == k && strncasecmp(w, lit, k) == 0;
}

/* The next word of [p, end) at or after p: its start and length; false at the end. */
static bool next_word(const char **p, const char *end, const char **w, size_t *k)
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

/* A '-', en or em dash at p, after blanks: "Mon-Fri", "Friday – Sunday". */
static bool dash_at(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p < end && (*p == '-' || (end - p >= 3 && (unsigned char)p[0] == 0xE2 &&
					 (unsigned char)p[1] == 0x80 &&
					 ((unsigned char)p[2] == 0x93 || (unsigned char)p[2] == 0x94)));
}

/* Is "7 " or "seven " just before w (within text)? For "7 days a week". */
static bool seven_before(const char *text, const char *w)
{
	const char *q = w;

	while (q > text && q[-1] == ' ')
		q--;
	if (q > text && q[-1] == '7')
		return q - 1 == text || !isdigit((unsigned char)q[-2]);
	return q - text >= 5 && strncasecmp(q - 5, "seven", 5) == 0 &&
	       (q - 5 == text || !isalpha((unsigned char)q[-6]));
}

unsigned ground_days(const char *text, size_t n)
{
	const char *p = text, *end = text + n, *w, *prev = NULL, *prev2 = NULL;
	unsigned days = 0, said = 0;
	bool excepting = false;
	size_t k, prev_k = 0, prev2_k = 0;
	int from = -1; /* a day before "through", "to", "-": a range's first */

	while (next_word(&p, end, &w, &k)) {
		int d = day_word(w, k);

		/* "daily except Mondays": the days after it are left out */
		if (is_word(w, k, "except") || is_word(w, k, "excluding")) {
			said |= days;
			days = 0;
			from = -1;
			excepting = true;
			continue;
		}

		if (d >= 0) {
			if (from >= 0) {
				int i;

				for (i = from; i != d; i = (i + 1) % 7)
					days |= GROUND_DAY(i);
			}
			days |= GROUND_DAY(d);
			/* A range goes on: "Monday through Friday", "Mon-Fri". */
			from = -1;
			if (dash_at(p, end))
				from = d;
			else {
				const char *q = p, *w2;
				size_t k2;

				if (next_word(&q, end, &w2, &k2) &&
				    (is_word(w2, k2, "through") || is_word(w2, k2, "thru") ||
				     is_word(w2, k2, "to") || is_word(w2, k2, "until") ||
				     is_word(w2, k2, "till"))) {
					from = d;
					p = q;
				}
			}
		} else {
			from = -1;
			if (is_word(w, k, "weekdays") || is_word(w, k, "weekday"))
				days |= 0x1fu;
			else if (is_word(w, k, "weekends") || is_word(w, k, "weekend"))
				days |= GROUND_DAY(5) | GROUND_DAY(6);
			else if (is_word(w, k, "daily") || is_word(w, k, "everyday") ||
				 (is_word(w, k, "day") && prev && is_word(prev, prev_k, "every")) ||
				 (is_word(w, k, "week") && prev && is_word(prev, prev_k, "a") &&
				  prev2 && is_word(prev2, prev2_k, "days") && seven_before(text, prev2)))
				days |= GROUND_DAYS_ALL;
		}
		prev2 = prev;
		prev2_k = prev_k;
		prev = w;
		prev_k = k;
	}
	return excepting ? said & ~days : days;
}

const char *ground_day_name(unsigned days)
{
	static const char *const names[7] = {
		"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
	};
	int d;

	for (d = 0; d < 7; d++)
		if (days == GROUND_DAY(d))
			return names[d];
	return NULL;
}

/* Past "0:0", "00:00" (and blanks around it) at t, or NULL. */
static const char *zero_clock(const char *t)
{
	int k;

	while (*t == ' ')
		t++;
	for (k = 0; *t == '0' && k < 2; k++)
		t++;
	if (k == 0 || *t++ != ':')
		return NULL;
	for (k = 0; *t == '0' && k < 2; k++)
		t++;
	if (k == 0)
		return NULL;
	while (*t == ' ')
		t++;
	return t;
}

/*
 * Is gq a day's hours of "0:0-0:0" (also "00:00-00:00")? An hours record
 * writes so a day it is closed or does not know, not one open all day:
 * it states no time of that day.
 */
static bool closed_day(const struct ground_quantity *gq)
{
	const char *t;

	if (!gq->days || gq->q.kind != QUANTITY_TIME || gq->q.value != 0)
		return false;
	t = zero_clock(gq->text);
	if (!t || *t != '-')
		return false;
	t = zero_clock(t + 1);
	return t && *t == '\0';
}

const struct ground_quantity *ground_check_days(const struct ground *g,
						const struct quantity *a, unsigned days)
{
	const struct ground_quantity *nearest[7] = {NULL}, *worst = NULL;
	double best[7], worst_d = -1;
	unsigned known = 0, stated = 0; /* days with times, and those stating a */
	uint32_t i, walked = 0;
	int d;

	if (g->qcount == 0)
		return NULL;
	for (d = 0; d < 7; d++)
		best[d] = INFINITY;
	/* One walk for all the days asked: each of its times is a day's. */
	for (i = g->units[mix(a->unit_hash)]; i != NIL && walked < DAYS_WALK && stated != days;
	     i = g->ul[i].link.next) {
		const struct ground_quantity *gq = &g->q[i];
		double dist;

		if (g->ul[i].unit_hash != a->unit_hash)
			continue;
		walked++;
		if (!(gq->days & days) || (gq->days & stated))
			continue;
		d = __builtin_ctz(gq->days);
		known |= gq->days;
		if (!closed_day(gq) && quantity_states(a, &gq->q)) {
			stated |= gq->days;
			continue;
		}
		dist = quantity_distance(a, &gq->q);
		if (dist < best[d]) {
			best[d] = dist;
			nearest[d] = gq;
		}
	}
	/* The day said furthest from the answer is the one named. */
	for (d = 0; d < 7; d++)
		if ((known & ~stated & GROUND_DAY(d)) && best[d] > worst_d) {
			worst = nearest[d];
			worst_d = best[d];
		}
	return worst;
}

const struct ground_quantity *ground_swapped_bare(const struct ground *g, const struct quantity *a,
						 const struct ground_context *ctx)
{
	uint64_t number = quantity_unit_hash("number"), need;
	double w = quantity_written(a);
	const struct walk_memo *m;
	uint32_t i, k;

	if (g->qcount == 0 || !ctx->before1 || !ctx->after1)
		return NULL;
	/* (the two words are context words: a slot whose mask lacks their
	 * bits has neither, and its quantity is not read) */
	need = (1ull << (ctx->before1 % 64)) | (1ull << (ctx->after1 % 64));
	/* Its own figure between those words, however written: no swap. */
	for (i = g->writ[val_of(w)]; i != NIL; i = g->ql[i].written.next)
		if (quantity_written(&g->q[i].q) == w && g->q[i].ctx.before1 == ctx->before1 &&
		    g->q[i].ctx.after1 == ctx->after1)
			return NULL;
	/* The newest other bare number between them. */
	m = unit_newest(g, number);
	for (k = 0; k < m->n; k++) {
		i = m->slot[k];
		if ((m->mask[k] & need) == need && g->q[i].ctx.before1 == ctx->before1 &&
		    g->q[i].ctx.after1 == ctx->after1 && g->q[i].q.value != a->value)
			return &g->q[i];
	}
	return NULL;
}

uint64_t ground_next_seq(const struct ground *g)
{
	return g->qseq;
}

void ground_set_period(struct ground *g, uint64_t from, uint64_t to, uint32_t period)
{
	uint64_t oldest = g->qseq - g->qcount, s;

	from = MAX(from, oldest);
	for (s = from; s < to && s < g->qseq; s++)
		g->q[(g->qhead + (uint32_t)(s - oldest)) % GROUND_CAP].ctx.period = period;
	if (from < to && from < g->qseq) {
		g->rewritten = MIN(g->rewritten, from);
		g->version++;
	}
	g->periods |= period != 0;
}

bool ground_has_periods(const struct ground *g)
{
	return g->periods || g->reported_mask;
}

uint32_t ground_compared_only(const struct ground *g, uint32_t quarter_year, uint64_t *at)
{
	uint32_t qr = QUANTITY_PERIOD_QUARTER(quarter_year), year = QUANTITY_PERIOD_YEAR(quarter_year);
	uint32_t i, seen = 0, pick;
	bool compared = false;

	if (!g->reported_mask || (g->reported_mask & period_bit(quarter_year)) || qr < 1 || qr > 4 ||
	    !year || g->qcount == 0)
		return 0;
	for (i = g->vals[val_of(year)]; i != NIL; i = g->ql[i].val.next) {
		const struct ground_quantity *gq = &g->q[i];

		if (gq->q.kind != QUANTITY_YEAR || gq->q.value != year)
			continue;
		if (++seen > OTHERWISE_WALK)
			return 0;
		compared |= gq->ctx.quarter_year == quarter_year;
	}
	if (!compared)
		return 0;
	pick = g->reported[qr].period ? qr : 0;
	*at = g->reported[pick].at;
	return g->reported[pick].period;
}

/*
 * Is the grounded quantity at slot i a's figure as written (w, its written
 * value): a bare number's at its scale, where it has one, and no count of
 * items; another quantity's of its unit, stating it?
 */
static bool written_as(const struct ground *g, uint32_t i, const struct quantity *a, double w)
{
	const struct ground_quantity *gq = &g->q[i];

	if (quantity_written(&gq->q) != w)
		return false;
	return a->kind == QUANTITY_NUMBER ? (a->scale == 1 || gq->q.scale == a->scale) && !gq->q.items
					  : g->ql[i].unit_hash == a->unit_hash && quantity_states(a, &gq->q);
}

const struct ground_quantity *ground_said_of(const struct ground *g, const struct quantity *a,
					     uint32_t period)
{
	double w = quantity_written(a);
	uint32_t i, seen = 0;

	if (g->qcount == 0)
		return NULL;
	for (i = g->writ[val_of(w)]; i != NIL; i = g->ql[i].written.next) {
		const struct ground_quantity *gq = &g->q[i];

		if (!written_as(g, i, a, w))
			continue;
		if (++seen > OTHERWISE_WALK || gq->ctx.period == period)
			return gq;
	}
	return NULL;
}

bool ground_codes_held(const struct ground *g)
{
	return g->codes;
}

void ground_note_codes(struct ground *g)
{
	if (!g->codes)
		g->version++;
	g->codes = true;
}

unsigned ground_days_held(const struct ground *g)
{
	return g->days_seen;
}

bool ground_holds_unit(const struct ground *g, uint64_t unit_hash)
{
	uint32_t i;

	if (!g->units || !g->qcount)
		return false;
	for (i = g->units[mix(unit_hash)]; i != NIL; i = g->ul[i].link.next)
		if (g->ul[i].unit_hash == unit_hash)
			return true;
	return false;
}

const struct ground_quantity *ground_day_time(const struct ground *g)
{
	uint64_t clock = quantity_unit_hash("time:clock");
	uint32_t i, walked = 0;

	if (g->qcount == 0)
		return NULL;
	for (i = g->units[mix(clock)]; i != NIL && walked < DAYS_WALK; i = g->ul[i].link.next) {
		if (g->ul[i].unit_hash != clock)
			continue;
		walked++;
		if (g->q[i].days)
			return &g->q[i];
	}
	return NULL;
}

/* Is the grounded gq a's figure said otherwise: of another period, the other side of a bound? */
static bool says_otherwise(const struct ground_quantity *gq, uint32_t period, int bound)
{
	return quantity_periods_differ(period, gq->ctx.period) || (bound && gq->ctx.bound == -bound);
}

const struct ground_quantity *ground_said_otherwise(const struct ground *g, const struct quantity *a,
						   uint32_t period, int bound)
{
	double w = quantity_written(a);
	const struct ground_quantity *found = NULL;
	uint32_t i, seen = 0;

	if ((!period && !bound) || g->qcount == 0)
		return NULL;
	for (i = g->writ[val_of(w)]; i != NIL; i = g->ql[i].written.next) {
		const struct ground_quantity *gq = &g->q[i];

		if (!written_as(g, i, a, w))
			continue;
		/* One that says it as a does, or too many to read: nothing to report. */
		if (++seen > OTHERWISE_WALK || !says_otherwise(gq, period, bound))
			return NULL;
		if (!found || g->ql[i].seq > g->ql[found - g->q].seq)
			found = gq;
	}
	return found;
}

const struct ground_quantity *ground_figure_held(const struct ground *g, const struct quantity *a)
{
	double w = quantity_written(a);
	uint32_t i;

	if (g->qcount == 0)
		return NULL;
	/* Written the same way, at a's scale where a has one ("71 million") */
	for (i = g->writ[val_of(w)]; i != NIL; i = g->ql[i].written.next)
		if (quantity_written(&g->q[i].q) == w && (a->scale == 1 || g->q[i].q.scale == a->scale) &&
		    !g->q[i].q.items)
			return &g->q[i];
	/* or a bare number of the same value written otherwise ("71,000,000"). */
	for (i = g->vals[val_of(a->value)]; i != NIL; i = g->ql[i].val.next)
		if (g->q[i].q.kind == QUANTITY_NUMBER && g->q[i].q.value == a->value)
			return &g->q[i];
	return NULL;
}

/*
 * A range's two ends said together as one record's ("start_time: ...
 * 10:00:00" beside "end_time: ... 11:00:00"): the newest quantity of lo's
 * unit that states one end whose neighbour in that unit's order (the
 * quantity said just before or after it, nothing of the unit between)
 * states the other, within `within` bytes of it; NULL when none does among
 * the SWAP_WALK newest. The pair is one record's by being adjacent: a
 * start of one record and the end of another have the first's end or the
 * other's start between them, unless the records are each other's
 * neighbours in the text and written end first.
 */
const struct ground_quantity *ground_range_held(const struct ground *g, const struct quantity *lo,
						const struct quantity *hi, uint64_t within)
{
	const struct walk_memo *m;
	uint32_t i, prev = NIL, w;

	if (g->qcount == 0)
		return NULL;
	m = unit_newest(g, lo->unit_hash);
	for (w = 0; w < m->n; w++) {
		i = m->slot[w];
		if (prev != NIL) {
			const struct ground_quantity *a = &g->q[prev], *b = &g->q[i];
			uint64_t d = a->at > b->at ? a->at - b->at : b->at - a->at;

			if (d <= within && ((quantity_states(lo, &a->q) && quantity_states(hi, &b->q)) ||
					    (quantity_states(hi, &a->q) && quantity_states(lo, &b->q))))
				return a;
		}
		prev = i;
	}
	return NULL;
}

/* ---- days said relative to another, or to today ---- */

/* A count of days or weeks a word says: "a", "the", "one" ... "ten", or 1 to 31 in digits; else 0. */
static int rel_count(const char *w, size_t k)
{
	static const char *const words[] = {"one", "two", "three", "four", "five", "six", "seven",
					    "eight", "nine", "ten"};
	size_t i;
	int v = 0;

	if (k && ascii_digit((unsigned char)w[0])) {
		for (i = 0; i < k && i < 3; i++) {
			if (!ascii_digit((unsigned char)w[i]))
				return 0;
			v = v * 10 + (w[i] - '0');
		}
		return i == k && v >= 1 && v <= GROUND_REL_MAX ? v : 0;
	}
	if ((k == 1 && ascii_lower((unsigned char)w[0]) == 'a') || (k == 2 && strncasecmp(w, "an", 2) == 0) ||
	    (k == 3 && strncasecmp(w, "the", 3) == 0))
		return 1;
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == k && strncasecmp(w, words[i], k) == 0)
			return (int)i + 1;
	return 0;
}

/* Days in a unit word ("day", "days": 1; "week", "weeks": 7), else 0. */
static int rel_unit(const char *w, size_t k)
{
	if ((k == 3 || (k == 4 && ascii_lower((unsigned char)w[3]) == 's')) && strncasecmp(w, "day", 3) == 0)
		return 1;
	if ((k == 4 || (k == 5 && ascii_lower((unsigned char)w[4]) == 's')) && strncasecmp(w, "week", 4) == 0)
		return 7;
	return 0;
}

static bool rel_is(const char *w, size_t k, const char *lit)
{
	return strlen(lit) == k && strncasecmp(w, lit, k) == 0;
}

static void rel_set(uint64_t *mask, int days)
{
	if (days >= -GROUND_REL_MAX && days <= GROUND_REL_MAX)
		*mask |= 1ull << (days + GROUND_REL_MAX);
}

/* The next word or run of digits of t[*i, n): its start and length; false at the end. */
static bool rel_token(const char *t, size_t n, size_t *i, const char **w, size_t *k)
{
	size_t j = *i;

	while (j < n && !ascii_alpha((unsigned char)t[j]) && !ascii_digit((unsigned char)t[j]))
		j++;
	if (j == n)
		return false;
	*w = t + j;
	if (ascii_digit((unsigned char)t[j]))
		while (j < n && ascii_digit((unsigned char)t[j]))
			j++;
	else
		while (j < n && ascii_alpha((unsigned char)t[j]))
			j++;
	*k = (size_t)(t + j - *w);
	*i = j;
	return true;
}

/*
 * Can a word of k letters end one of the phrases ground_relative_of()
 * reads ("tomorrow", "ago", "days", "later"...)? By its first letter and
 * length: most words of a tool's text are ruled out here, before the
 * dozen comparisons (a tenth of the time with tool spans in 40% of it).
 */
static bool rel_may_end(const char *w, size_t k)
{
	switch (ascii_lower((unsigned char)w[0])) {
	case 't': /* tomorrow, today */
		return k == 8 || k == 5;
	case 'y': /* yesterday */
		return k == 9;
	case 'a': /* ago, after */
		return k == 3 || k == 5;
	case 'd': /* day, days */
		return k == 3 || k == 4;
	case 'w': /* week, weeks */
		return k == 4 || k == 5;
	case 'b': /* before */
		return k == 6;
	case 'e': /* earlier */
		return k == 7;
	case 'p': /* prior */
	case 'l': /* later */
		return k == 5;
	default:
		return false;
	}
}

void ground_relative_of(const char *t, size_t n, uint64_t *anchored, uint64_t *today)
{
	/* 0 a byte between tokens, 1 a letter, 2 a digit (ASCII, as rel_token() reads them) */
	static const uint8_t cls[256] = {
		['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2,
		['5'] = 2, ['6'] = 2, ['7'] = 2, ['8'] = 2, ['9'] = 2,
#define L(c) [c] = 1, [(c) + 32] = 1
		L('A'), L('B'), L('C'), L('D'), L('E'), L('F'), L('G'), L('H'), L('I'),
		L('J'), L('K'), L('L'), L('M'), L('N'), L('O'), L('P'), L('Q'), L('R'),
		L('S'), L('T'), L('U'), L('V'), L('W'), L('X'), L('Y'), L('Z'),
#undef L
	};
	const char *w[4], *rw[4]; /* the last four tokens, w[3] the newest; rw a ring of them */
	size_t k[4], rk[4], i = 0, count = 0, j, from;
	unsigned char c;
	int unit, cnt;

	for (;;) {
		/* rel_token()'s next token, at the cost of a table look-up a byte */
		while (i < n && !cls[(unsigned char)t[i]])
			i++;
		if (i == n)
			break;
		c = cls[(unsigned char)t[i]];
		for (from = i++; i < n && cls[(unsigned char)t[i]] == c; i++)
			;
		rw[count % 4] = t + from;
		rk[count % 4] = i - from;
		count++;
		if (!rel_may_end(t + from, i - from))
			continue;
		/* the tokens before it (none: "", as at the text's start) */
		for (j = 0; j < 4; j++) {
			w[j] = count + j >= 4 ? rw[(count + j - 4) % 4] : "";
			k[j] = count + j >= 4 ? rk[(count + j - 4) % 4] : 0;
		}
		if (rel_is(w[3], k[3], "tomorrow") || rel_is(w[3], k[3], "yesterday")) {
			int sign = rel_is(w[3], k[3], "tomorrow") ? 1 : -1;

			/* "the day after tomorrow", "the day before yesterday" */
			rel_set(today, rel_is(w[1], k[1], "day") &&
						(rel_is(w[2], k[2], "after") || rel_is(w[2], k[2], "before"))
					       ? 2 * sign
					       : sign);
		} else if (rel_is(w[3], k[3], "today")) {
			rel_set(today, 0);
		} else if (rel_is(w[3], k[3], "ago") && (unit = rel_unit(w[2], k[2])) &&
			   (cnt = rel_count(w[1], k[1]))) {
			rel_set(today, -cnt * unit); /* "3 days ago" */
		} else if ((unit = rel_unit(w[3], k[3])) && (cnt = rel_count(w[2], k[2])) &&
			   rel_is(w[1], k[1], "in") && !rel_is(w[2], k[2], "the")) {
			rel_set(today, cnt * unit); /* "in 3 days", "in a week" */
		} else if ((rel_is(w[3], k[3], "before") || rel_is(w[3], k[3], "earlier") ||
			    rel_is(w[3], k[3], "prior") || rel_is(w[3], k[3], "after") ||
			    rel_is(w[3], k[3], "later")) &&
			   (unit = rel_unit(w[2], k[2])) && (cnt = rel_count(w[1], k[1])) &&
			   /* (not "the days before": no count of them) */
			   !(rel_is(w[1], k[1], "the") && ascii_lower((unsigned char)w[2][k[2] - 1]) == 's')) {
			size_t at = i;
			const char *nw;
			size_t nk;

			/* (the day before yesterday: said at "yesterday") */
			if (unit == 1 && cnt == 1 && rel_token(t, n, &at, &nw, &nk) &&
			    (rel_is(nw, nk, "yesterday") || rel_is(nw, nk, "tomorrow")))
				continue;
			rel_set(anchored, (rel_is(w[3], k[3], "after") || rel_is(w[3], k[3], "later") ? 1 : -1) *
						  cnt * unit); /* "the day before", "two weeks later" */
		} else if (rel_is(w[3], k[3], "day") &&
			   (rel_is(w[2], k[2], "next") || rel_is(w[2], k[2], "following"))) {
			rel_set(anchored, 1);
		} else if (rel_is(w[3], k[3], "day") &&
			   (rel_is(w[2], k[2], "previous") || rel_is(w[2], k[2], "prior"))) {
			rel_set(anchored, -1);
		}
	}
}

void ground_note_relative(struct ground *g, const char *text, size_t n)
{
	ground_relative_of(text, n, &g->rel_anchored, &g->rel_today);
}

void ground_relatives(const struct ground *g, uint64_t *anchored, uint64_t *today)
{
	*anchored = g->rel_anchored;
	*today = g->rel_today;
}

/* Days since 1970-01-01 of a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
static int64_t civil_days(int64_t y, unsigned m, unsigned d)
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
static void civil_of(int64_t z, int64_t *y, unsigned *m, unsigned *d)
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

bool ground_shift_day(unsigned md, unsigned year, int days, unsigned *out_md, unsigned *out_year)
{
	unsigned m = md / 100, d = md % 100, m2, d2;
	int64_t y = year ? year : 2023, y2; /* (no year: one that is not a leap year) */

	if (m < 1 || m > 12 || d < 1 || d > 31 || year > 9999)
		return false;
	civil_of(civil_days(y, m, d) + days, &y2, &m2, &d2);
	*out_md = m2 * 100 + d2;
	*out_year = year ? (unsigned)y2 : 0;
	return true;
}

int ground_weekday(unsigned md, unsigned year)
{
	unsigned m = md / 100, d = md % 100, m2, d2;
	int64_t z, y2;

	if (m < 1 || m > 12 || d < 1 || d > 31 || year < 1 || year > 9999)
		return -1;
	z = civil_days(year, m, d);
	civil_of(z, &y2, &m2, &d2);
	if (m2 != m || d2 != d)
		return -1; /* the 31st of a month that has none */
	return (int)((z % 7 + 7 + 3) % 7); /* (1970-01-01 was a Thursday) */
}

/* The year written with the grounded day in slot i, or 0. */
static unsigned year_of_slot(const struct ground *g, uint32_t i);

const struct ground_quantity *ground_today(const struct ground *g, unsigned *year)
{
	uint64_t first;
	uint32_t i;

	if (g->qcount == 0 || g->today_seq == UINT64_MAX)
		return NULL;
	first = g->ql[g->qhead].seq;
	if (g->today_seq < first || g->today_seq >= first + g->qcount)
		return NULL; /* evicted */
	i = (uint32_t)((g->qhead + (g->today_seq - first)) % GROUND_CAP);
	*year = year_of_slot(g, i);
	return &g->q[i];
}

const struct ground_quantity *ground_newest_day(const struct ground *g, unsigned *year)
{
	uint64_t day = quantity_unit_hash("date:day");
	uint32_t i;

	if (g->qcount == 0)
		return NULL;
	for (i = g->units[mix(day)]; i != NIL; i = g->ul[i].link.next)
		if (g->ul[i].unit_hash == day && g->q[i].q.scale == 1 && g->q[i].q.kind == QUANTITY_DATE) {
			*year = year_of_slot(g, i);
			return &g->q[i];
		}
	return NULL;
}

/* The most dates of one day ground_date_year() reads. */
#define DATE_YEAR_WALK 64

/*
 * Is a dated day (gd of year, month x 100 + day) within WEEKDAY_REACH
 * days of md, of that year or the next or the one before, which falls on
 * weekday day (0 Monday)? That year then.
 */
#define WEEKDAY_REACH 31
static unsigned weekday_year(unsigned gd, unsigned year, unsigned md, int day)
{
	int64_t from = civil_days(year, gd / 100, gd % 100);
	int dy;

	for (dy = -1; dy <= 1; dy++) {
		int64_t z = civil_days((int64_t)year + dy, md / 100, md % 100);
		unsigned m, d;
		int64_t y;

		/* (the 31st of a month that has none is no day) */
		civil_of(z, &y, &m, &d);
		if (m * 100 + d != md)
			continue;
		if (z - from >= -WEEKDAY_REACH && z - from <= WEEKDAY_REACH && ((z % 7 + 7 + 3) % 7) == day)
			return (unsigned)y;
	}
	return 0;
}

const struct ground_quantity *ground_weekday_day(const struct ground *g, unsigned md, unsigned y)
{
	uint64_t units[2] = {quantity_unit_hash("ordinal:n"), quantity_unit_hash("number")};
	uint64_t day_unit = quantity_unit_hash("date:day");
	uint32_t j, dates;
	size_t u, k;

	if (g->qcount == 0 || md % 100 < 1 || md % 100 > 31 || md / 100 < 1 || md / 100 > 12)
		return NULL;
	for (u = 0; u < 2; u++) {
		const struct walk_memo *m = unit_newest(g, units[u]);

		for (k = 0; k < m->n; k++) {
			const struct ground_quantity *gq = &g->q[m->slot[k]];

			if (gq->q.value != md % 100 || __builtin_popcount(gq->days) != 1)
				continue;
			for (j = g->units[mix(day_unit)], dates = 0; j != NIL && dates < DATE_YEAR_WALK;
			     j = g->ul[j].link.next) {
				unsigned year, at;

				if (g->ul[j].unit_hash != day_unit || g->q[j].q.kind != QUANTITY_DATE ||
				    g->q[j].q.scale != 1)
					continue;
				dates++;
				if (!(year = year_of_slot(g, j)))
					continue;
				at = weekday_year((unsigned)g->q[j].q.value, year, md, __builtin_ctz(gq->days));
				if (at && (!y || at == y))
					return gq;
			}
		}
	}
	return NULL;
}

/* How far apart a date's day and its year are written: "2024-05-26" (5),
 * "May 26, 2024" (8), "26 May 2024". */
#define DATE_YEAR_GAP 16

/* The year written with the grounded date in slot i (the quantity put in
 * just before or after it, near it), or NIL. */
static uint32_t year_beside(const struct ground *g, uint32_t i)
{
	uint64_t seq = g->ql[i].seq, first = g->ql[g->qhead].seq;
	int d;

	for (d = -1; d <= 1; d += 2) {
		uint32_t j = (i + GROUND_CAP + (uint32_t)d) % GROUND_CAP;
		const struct ground_quantity *y = &g->q[j];

		if ((d < 0 && seq == first) || (d > 0 && seq + 1 >= first + g->qcount))
			continue;
		if (y->q.kind == QUANTITY_YEAR && !quantity_is_decade(&y->q) &&
		    (y->at > g->q[i].at ? y->at - g->q[i].at : g->q[i].at - y->at) <= DATE_YEAR_GAP)
			return j;
	}
	return NIL;
}

static unsigned year_of_slot(const struct ground *g, uint32_t i)
{
	uint32_t y = year_beside(g, i);

	return y == NIL ? 0 : (unsigned)g->q[y].q.value;
}

const struct ground_quantity *ground_date_year(const struct ground *g, const struct quantity *day,
					       double year, const struct ground_quantity **date)
{
	const struct ground_quantity *found = NULL;
	uint32_t i, y, walked = 0;

	if (g->qcount == 0 || day->kind != QUANTITY_DATE || day->scale != 1)
		return NULL;
	for (i = g->vals[val_of(day->value)]; i != NIL && walked < DATE_YEAR_WALK;
	     i = g->ql[i].val.next) {
		if (g->ql[i].unit_hash != day->unit_hash || g->q[i].q.value != day->value)
			continue;
		walked++;
		y = year_beside(g, i);
		/* That day said without a year, or with this one: nothing differs. */
		if (y == NIL || g->q[y].q.value == year)
			return NULL;
		/* (the list is newest first) */
		if (!found) {
			found = &g->q[y];
			*date = &g->q[i];
		}
	}
	return found;
}

const struct ground_quantity *ground_newest_list(const struct ground *g)
{
	uint32_t j;

	/* From the newest back to the turn's start (asked only of a figure
	 * said as a count of results, so the walk is rare). */
	for (j = 0; j < g->qcount; j++) {
		uint32_t i = (g->qhead + g->qcount - 1 - j) % GROUND_CAP;
		const struct ground_quantity *gq = &g->q[i];

		if (g->ql[i].seq < g->turn)
			return NULL;
		if (gq->q.items && gq->q.kind == QUANTITY_COUNT)
			return gq;
	}
	return NULL;
}

const struct ground_quantity *ground_prompt_other(const struct ground *g, const struct quantity *a)
{
	uint32_t j;

	for (j = 0; j < g->qcount; j++) {
		uint32_t i = (g->qhead + g->qcount - 1 - j) % GROUND_CAP;
		const struct ground_quantity *gq = &g->q[i];

		if (g->ql[i].seq < g->turn)
			return NULL;
		if (!gq->prompt || gq->q.kind != a->kind)
			continue;
		/* (either way: a month, "in June", holds each of its days; an
		 * hour, "at 3 pm", each of its minutes) */
		if (quantity_states(a, &gq->q) || quantity_states(&gq->q, a))
			continue;
		return gq;
	}
	return NULL;
}

/* The most quantities ground_day_run() reads: a month of days, each with
 * a few figures. */
#define DAY_RUN_WALK 256

unsigned ground_day_run(const struct ground *g, uint64_t seq_from, uint64_t at_from)
{
	static const uint16_t before[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
	uint16_t day[GROUND_DAY_RUN_MAX];
	unsigned n = 0, gaps = 0, i, j;

	for (j = 0; j < g->qcount; j++) {
		uint32_t k = (g->qhead + g->qcount - 1 - j) % GROUND_CAP;
		const struct quantity *q = &g->q[k].q;
		int month, dom;

		if (g->ql[k].seq < seq_from || g->q[k].at < at_from)
			break;
		if (j == DAY_RUN_WALK)
			return 0;
		if (q->kind != QUANTITY_DATE || q->scale != 1)
			continue;
		month = (int)(q->value / 100);
		dom = (int)q->value % 100;
		if (n == GROUND_DAY_RUN_MAX || month < 1 || month > 12 || dom < 1 || dom > 31)
			return 0;
		day[n++] = (uint16_t)(before[month - 1] + dom);
	}
	if (n < 2)
		return 0;
	/* Sorted (a month at most), each the day after the one before; the
	 * year may turn once in between (December 31st, January 1st). */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && day[j - 1] > day[j]; j--) {
			uint16_t t = day[j];

			day[j] = day[j - 1];
			day[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		gaps += (day[(i + 1) % n] + 365 - day[i]) % 365 != 1;
	return gaps == 1 ? n : 0;
}

void ground_turn(struct ground *g)
{
	g->turn = g->qseq;
	g->prompt_text = g->texts;
	groups_clear(g);
}

/* ---- values that items of a list share ---- */

static bool code_byte(unsigned char c);

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

static void groups_clear(struct ground *g)
{
	if (g->n_groups)
		memset(g->group_index, 0, GROUP_SLOTS * sizeof(*g->group_index));
	g->n_groups = 0;
}

static int groups_alloc(struct ground *g)
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

static uint64_t group_hash(uint64_t field, const char *value, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ (field * 0x9e3779b97f4a7c15ull);
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ ascii_lower((unsigned char)value[i])) * 0x100000001b3ull;
	return h;
}

/* Adds count items to the group of hash h (group_hash()) and value (n <= GROUND_GROUP_VALUE;
 * split: a pair's, as struct ground_group holds it). */
static int group_add(struct ground *g, uint64_t h, const char *value, size_t n, uint64_t at,
		     uint32_t count, uint8_t split)
{
	uint32_t slot = (uint32_t)(h ^ h >> 32) & (GROUP_SLOTS - 1);
	struct ground_group *gr;
	int err = groups_alloc(g);

	if (err)
		return err;
	for (; g->group_index[slot]; slot = (slot + 1) & (GROUP_SLOTS - 1)) {
		gr = &g->groups[g->group_index[slot] - 1];
		if (gr->hash == h && gr->len == n && gr->split == split &&
		    strncasecmp(gr->value, value, n) == 0) {
			gr->count = count > UINT32_MAX - gr->count ? UINT32_MAX : gr->count + count;
			if (gr->text != g->texts) {
				gr->text = g->texts;
				gr->text_count = 0;
			}
			gr->text_count = count > UINT32_MAX - gr->text_count ? UINT32_MAX
									    : gr->text_count + count;
			return 0;
		}
	}
	/* Full: a value first said past the cap counts nothing (nor a pair
	 * past half of it: the values alone keep the other half). */
	if (g->n_groups == GROUND_GROUP_CAP || (split && g->n_groups >= GROUND_GROUP_CAP / 2))
		return 0;
	gr = &g->groups[g->n_groups++];
	*gr = (struct ground_group){.hash = h, .at = at, .count = count, .text = g->texts,
				    .text_count = count, .len = (uint8_t)n, .split = split};
	memcpy(gr->value, value, n);
	g->group_index[slot] = (uint16_t)g->n_groups;
	return 0;
}

int ground_group_add(struct ground *g, uint64_t field, const char *value, size_t n, uint64_t at)
{
	size_t i;
	bool letter = false;

	if (n < 2 || n > GROUND_GROUP_VALUE)
		return 0;
	for (i = 0; i < n; i++)
		letter |= ascii_alpha((unsigned char)value[i]);
	return letter ? group_add(g, group_hash(field, value, n), value, n, at, 1, 0) : 0;
}

/* Whether value[0, n) is 2 to max bytes with a letter among them. */
static bool group_value(const char *value, size_t n, size_t max)
{
	size_t i;

	if (n < 2 || n > max)
		return false;
	for (i = 0; i < n; i++)
		if (ascii_alpha((unsigned char)value[i]))
			return true;
	return false;
}

int ground_group_pair_add(struct ground *g, uint64_t field_a, const char *a, size_t na,
			  uint64_t field_b, const char *b, size_t nb, uint64_t at)
{
	char value[GROUND_GROUP_VALUE];
	uint64_t h;

	if (!group_value(a, na, GROUND_GROUP_PAIR_VALUE) || !group_value(b, nb, GROUND_GROUP_PAIR_VALUE))
		return 0;
	memcpy(value, a, na);
	value[na] = '\0';
	memcpy(value + na + 1, b, nb);
	h = group_hash(field_a * 31 + field_b, value, na + 1 + nb);
	return group_add(g, h, value, na + 1 + nb, at, 1, (uint8_t)(na + 1));
}

void ground_groups_unsay(struct ground *g)
{
	uint32_t i;

	for (i = 0; i < g->n_groups; i++) {
		struct ground_group *gr = &g->groups[i];

		if (gr->text == g->texts) {
			gr->count -= MIN(gr->count, gr->text_count);
			gr->text_count = 0;
		}
	}
}

/* Is value[0, len) said in text[0, n) as words of their own, in any case? */
static bool said_as_words(const char *text, size_t n, const char *value, size_t len)
{
	size_t i;

	for (i = 0; i + len <= n; i++)
		if (strncasecmp(text + i, value, len) == 0 &&
		    (i == 0 || !code_byte((unsigned char)text[i - 1])) &&
		    (i + len == n || !code_byte((unsigned char)text[i + len])))
			return true;
	return false;
}

bool ground_group_said(const struct ground *g, const char *before, size_t n, double count,
		       uint64_t *at)
{
	uint32_t i;

	if (count < 1 || count != floor(count))
		return false;
	for (i = 0; i < g->n_groups; i++) {
		const struct ground_group *gr = &g->groups[i];

		if (gr->count == count && !gr->split && said_as_words(before, n, gr->value, gr->len)) {
			*at = gr->at;
			return true;
		}
	}
	return false;
}

bool ground_group_pair_said(const struct ground *g, const char *line, size_t nl, const char *after,
			    size_t na, double count, uint64_t *at)
{
	uint32_t i;

	if (count < 1 || count != floor(count))
		return false;
	for (i = 0; i < g->n_groups; i++) {
		const struct ground_group *gr = &g->groups[i];
		const char *a = gr->value, *b = gr->value + gr->split;
		size_t la = gr->split ? gr->split - 1u : 0, lb = gr->len - gr->split;

		if (!gr->split || gr->count != count)
			continue;
		if ((said_as_words(line, nl, a, la) && said_as_words(after, na, b, lb)) ||
		    (said_as_words(line, nl, b, lb) && said_as_words(after, na, a, la))) {
			*at = gr->at;
			return true;
		}
	}
	return false;
}

/* dst's groups and relative days become src's (copy), or gain them (merge). */
static int groups_take(struct ground *dst, const struct ground *src, bool copy)
{
	uint32_t i;
	int err;

	if (copy) {
		groups_clear(dst);
		dst->rel_anchored = src->rel_anchored;
		dst->rel_today = src->rel_today;
	} else {
		dst->rel_anchored |= src->rel_anchored;
		dst->rel_today |= src->rel_today;
	}
	if (!src->n_groups)
		return 0;
	if (copy) {
		if ((err = groups_alloc(dst)) < 0)
			return err;
		memcpy(dst->groups, src->groups, src->n_groups * sizeof(*src->groups));
		memcpy(dst->group_index, src->group_index, GROUP_SLOTS * sizeof(*src->group_index));
		dst->n_groups = src->n_groups;
		return 0;
	}
	for (i = 0; i < src->n_groups; i++) {
		const struct ground_group *gr = &src->groups[i];

		err = group_add(dst, gr->hash, gr->value, gr->len, gr->at, gr->count, gr->split);
		if (err < 0)
			return err;
	}
	return 0;
}

/* dst's turn starts where src's does: its newest quantities are src's. */
static void turn_of(struct ground *dst, const struct ground *src)
{
	dst->turn = dst->qseq - MIN(src->qseq - src->turn, dst->qseq);
}

int ground_copy(struct ground *dst, const struct ground *src)
{
	int err;

	ground_reset(dst);
	dst->active = src->active;
	err = ground_merge(dst, src);
	turn_of(dst, src);
	dst->evictions = 0;
	/* What src saw since its reset, evicted or not: as a sync keeps them. */
	dst->periods = src->periods;
	dst->reported_mask = src->reported_mask;
	memcpy(dst->reported, src->reported, sizeof(dst->reported));
	dst->days_seen = src->days_seen;
	dst->codes = src->codes;
	if (err == 0)
		err = groups_take(dst, src, true);
	return err;
}

static bool same_attr(const struct ground_attr *a, const struct ground_attr *b)
{
	return a->truth == b->truth && a->n_need == b->n_need &&
	       memcmp(a->need, b->need, a->n_need * sizeof(a->need[0])) == 0;
}

/* Where an attribute's hash puts it in the index (linear probing from there). */
static uint32_t attr_home(const struct ground_attr *a)
{
	uint64_t h = a->truth ? 0x9e3779b97f4a7c15ull : 0;
	uint8_t k;

	for (k = 0; k < a->n_need; k++)
		h = (h ^ a->need[k]) * 0xff51afd7ed558ccdull;
	return (uint32_t)(h >> 40) & (ATTR_SLOTS - 1);
}

/* Takes ring slot r out of the index, shifting back what probed past it. */
static void attr_unindex(struct ground *g, uint32_t r)
{
	uint32_t i = attr_home(&g->attr[r]), j, k;

	while (g->attr_index[i] != r + 1)
		i = (i + 1) & (ATTR_SLOTS - 1);
	for (j = i;;) {
		j = (j + 1) & (ATTR_SLOTS - 1);
		if (!g->attr_index[j])
			break;
		k = attr_home(&g->attr[g->attr_index[j] - 1]);
		/* An entry at j whose home is not in (i, j] may fill the hole at i. */
		if (i <= j ? (k <= i || k > j) : (k <= i && k > j)) {
			g->attr_index[i] = g->attr_index[j];
			i = j;
		}
	}
	g->attr_index[i] = 0;
}

int ground_add_attr(struct ground *g, const struct ground_attr *a)
{
	uint32_t i, r;

	if (a->n_need == 0 || a->n_need > GROUND_ATTR_NEED)
		return 0;
	if (!g->attr) {
		g->attr = malloc(GROUND_ATTR_CAP * sizeof(*g->attr));
		g->attr_index = calloc(ATTR_SLOTS, sizeof(*g->attr_index));
		if (!g->attr || !g->attr_index) {
			free(g->attr);
			free(g->attr_index);
			g->attr = NULL;
			g->attr_index = NULL;
			return -ENOMEM;
		}
	}
	/* A list of records says the same yes/no in each: held once. */
	for (i = attr_home(a); g->attr_index[i]; i = (i + 1) & (ATTR_SLOTS - 1))
		if (same_attr(&g->attr[g->attr_index[i] - 1], a))
			return 0;
	if (g->acount == GROUND_ATTR_CAP) {
		attr_unindex(g, g->ahead);
		g->ahead = (g->ahead + 1) % GROUND_ATTR_CAP;
		g->acount--;
		g->evictions++;
		/* (the hole may have moved: probe again for a free slot) */
		for (i = attr_home(a); g->attr_index[i]; i = (i + 1) & (ATTR_SLOTS - 1))
			;
	}
	r = (g->ahead + g->acount) % GROUND_ATTR_CAP;
	g->attr[r] = *a;
	g->attr_index[i] = (uint16_t)(r + 1);
	g->acount++;
	g->a_added++;
	g->version++;
	return 0;
}

size_t ground_attr_count(const struct ground *g)
{
	return g->acount;
}

const struct ground_attr *ground_attr_at(const struct ground *g, size_t i)
{
	return &g->attr[(g->ahead + (uint32_t)i) % GROUND_ATTR_CAP];
}

/* Adds src's newest ne items, nq quantities and na attributes to dst, oldest first. */
static int merge_newest(struct ground *dst, const struct ground *src, uint32_t ne, uint32_t nq,
			uint32_t na)
{
	uint32_t i;
	int err;

	for (i = src->acount - na; i < src->acount; i++) {
		err = ground_add_attr(dst, ground_attr_at(src, i));
		if (err < 0)
			return err;
	}

	for (i = src->count - ne; i < src->count; i++) {
		const struct entry *e = &src->e[(src->head + i) % GROUND_CAP];

		err = ground_add(dst, e->key, e->len, e->at);
		if (err < 0)
			return err;
	}
	for (i = src->qcount - nq; i < src->qcount; i++) {
		const struct ground_quantity *q = &src->q[(src->qhead + i) % GROUND_CAP];

		err = ground_add_quantity(dst, &q->q, q->text, strlen(q->text), q->at, &q->ctx);
		if (err < 0)
			return err;
		/* (a copy says the text it was said in where src was read) */
		dst->q[(dst->qhead + dst->qcount - 1) % GROUND_CAP].ctx.text = q->ctx.text;
		dst->q[(dst->qhead + dst->qcount - 1) % GROUND_CAP].prompt = q->prompt;
	}
	return 0;
}

int ground_merge(struct ground *dst, const struct ground *src)
{
	int err = merge_newest(dst, src, src->count, src->qcount, src->acount);

	if (err == 0)
		err = groups_take(dst, src, false);
	if (err == 0) {
		dst->evictions += src->evictions;
		dst->codes |= src->codes;
	}
	return err;
}

int ground_sync(struct ground *dst, struct ground *src)
{
	uint64_t ne = src->e_added - dst->synced_e, nq = src->qseq - dst->synced_q;
	uint64_t na = src->a_added - dst->synced_a;
	bool newest = false;
	int err;

	/*
	 * dst is src's copy as last synced, untouched since, and src has only
	 * grown (no reset, no period set on what dst holds) by no more than
	 * it holds: putting in src's newest is what a copy would do. Adding
	 * to a full set evicts its oldest, as src did.
	 */
	if (dst->synced_from == src && dst->synced_epoch == src->epoch &&
	    dst->synced_version == dst->version && ne <= src->count && nq <= src->qcount &&
	    na <= src->acount &&
	    (src->rewritten == UINT64_MAX || src->rewritten >= dst->synced_q)) {
		newest = true;
		err = merge_newest(dst, src, (uint32_t)ne, (uint32_t)nq, (uint32_t)na);
		if (err == 0)
			err = groups_take(dst, src, true); /* (the turn's, as src counts them now) */
		if (src->active)
			ground_activate(dst); /* (a set is only activated; reset clears it) */
		dst->codes |= src->codes; /* (said since the reset, as a copy keeps it) */
		dst->evictions = 0;
	} else {
		err = ground_copy(dst, src);
	}
	if (err < 0) {
		ground_reset(dst);
		return err;
	}
	turn_of(dst, src);
	src->rewritten = UINT64_MAX;
	dst->synced_from = src;
	dst->synced_epoch = src->epoch;
	dst->synced_e = src->e_added;
	dst->synced_q = src->qseq;
	dst->synced_a = src->a_added;
	dst->synced_version = dst->version;
	return newest;
}

/* ---- normalization ---- */

static int url_key(const char *t, size_t n, struct buf *out)
{
	const char *end = t + n, *scheme_end = memmem(t, n, "://", 3), *host, *host_end, *p;
	int err = 0;
	size_t k;

	if (!scheme_end)
		return buf_add(out, t, n);
	host = scheme_end + 3;
	/* The fragment never reaches the server. It is looked for past the
	 * scheme only: a '#' before "://" cut there would end the URL before
	 * its host ("a#b://c"). */
	p = memchr(host, '#', (size_t)(end - host));
	if (p)
		end = p;
	for (p = t; p < scheme_end; p++)
		err |= buf_addc(out, (char)tolower((unsigned char)*p));
	err |= BUF_LIT(out, "://");
	/* (Not strchr("/?", c): that finds the terminator for a NUL byte.) */
	for (host_end = host; host_end < end && *host_end != '/' && *host_end != '?'; host_end++)
		;
	k = (size_t)(host_end - host);
	/* The scheme's default port is no port. */
	if ((k > 3 && scheme_end - t == 4 && memcmp(host_end - 3, ":80", 3) == 0) ||
	    (k > 4 && scheme_end - t == 5 && memcmp(host_end - 4, ":443", 4) == 0))
		k -= scheme_end - t == 4 ? 3 : 4;
	for (p = host; p < host + k; p++)
		err |= buf_addc(out, (char)tolower((unsigned char)*p));
	/* A path of "/" and none are the same page; so are "/a/" and "/a". */
	while (end > host_end && end[-1] == '/')
		end--;
	err |= buf_add(out, host_end, (size_t)(end - host_end));
	return err ? -ENOMEM : 0;
}

/* "18.30 %" -> "18.3%", "1,234.5 percent" -> "1234.5%", "2.7 X" -> "2.7x". */
static int number_key(const char *t, size_t n, struct buf *out)
{
	size_t i = 0, j, dot = SIZE_MAX, start, z;
	int err = 0;
	char unit;

	while (i < n && !isdigit((unsigned char)t[i]))
		i++;
	/* No figure to normalize: the text is its own key, so that two texts
	 * without a digit never share the empty one. */
	if (i == n)
		return buf_add(out, t, n);
	start = out->len;
	for (j = i; j < n && (isdigit((unsigned char)t[j]) || t[j] == ',' || t[j] == '.'); j++) {
		if (t[j] == ',')
			continue;
		if (t[j] == '.')
			dot = out->len;
		err |= buf_addc(out, t[j]);
	}
	if (err)
		return -ENOMEM;
	if (dot != SIZE_MAX) {
		while (out->len > dot + 1 && out->data[out->len - 1] == '0')
			out->len--;
		if (out->len == dot + 1)
			out->len--; /* "12." -> "12" */
	}
	/* Leading zeros but the one before a point go in one move, not one
	 * move per zero: a match of many zeros stays linear. */
	for (z = start; z + 1 < out->len && out->data[z] == '0' && out->data[z + 1] != '.'; z++)
		;
	if (z > start) {
		memmove(out->data + start, out->data + z, out->len - z);
		out->len -= z - start;
	}
	while (j < n && (t[j] == ' ' || t[j] == '\t'))
		j++;
	unit = j < n ? (char)tolower((unsigned char)t[j]) : '\0';
	if (unit == 'p' || unit == '%')
		return buf_addc(out, '%');
	if (unit == 'x' || (j + 1 < n && (unsigned char)t[j] == 0xC3 && (unsigned char)t[j + 1] == 0x97))
		return buf_addc(out, 'x');
	return buf_add(out, t + j, n - j);
}

/* Words that start a citation phrase but are no one's name. */
static bool is_name(const char *w, size_t k)
{
	static const char *const not_names[] = {
		"According", "As", "A", "An", "Dr", "Prof", "Professor", "And", "The",
	};
	size_t i;

	if (k < 2 || !isupper((unsigned char)w[0]))
		return false;
	for (i = 0; i < ARRAY_SIZE(not_names); i++)
		if (strlen(not_names[i]) == k && strncmp(w, not_names[i], k) == 0)
			return false;
	return true;
}

/* "According to Dr. Williams et al. (2024)" -> "williams|2024". */
static int citation_key(const char *t, size_t n, struct buf *out)
{
	const char *name = NULL, *year = NULL;
	size_t name_len = 0, i = 0, k;
	int err = 0;

	while (i < n) {
		while (i < n && !isalnum((unsigned char)t[i]) && (unsigned char)t[i] < 0x80)
			i++;
		for (k = i; k < n && (isalnum((unsigned char)t[k]) || (unsigned char)t[k] >= 0x80 ||
				      t[k] == '\'' || t[k] == '-'); k++)
			;
		if (k == i) {
			i++;
			continue;
		}
		if (!name && is_name(t + i, k - i)) {
			name = t + i;
			name_len = k - i;
		} else if (!year && k - i == 4 && isdigit((unsigned char)t[i]) &&
			   (t[i] == '1' || t[i] == '2')) {
			year = t + i;
		}
		i = k;
	}
	if (!name)
		return buf_add(out, t, n);
	for (k = 0; k < name_len; k++)
		err |= buf_addc(out, (char)tolower((unsigned char)name[k]));
	err |= buf_addc(out, '|');
	if (year)
		err |= buf_add(out, year, 4);
	return err ? -ENOMEM : 0;
}

static bool is_hex_digit(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* All hexadecimal digits, seven or more, with a decimal digit and a letter among them. */
static bool is_hash(const char *t, size_t n)
{
	bool digit = false, letter = false;
	size_t i;

	if (n < 7)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];

		if (!is_hex_digit(c))
			return false;
		digit |= c <= '9';
		letter |= c > '9';
	}
	return digit && letter;
}

static bool upper_byte(unsigned char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool upper_or_digit(unsigned char c)
{
	return upper_byte(c) || (c >= '0' && c <= '9');
}


/* Most and least characters of an IBAN (ISO 13616: Norway's 15 to Saint Lucia's 32, with room). */
#define IBAN_MIN 15
#define IBAN_MAX 34

/*
 * The length of an IBAN at the start of t[0, n): two capitals, two check
 * digits, then capitals and digits, IBAN_MIN to IBAN_MAX in all, written
 * together ("GB29NWBK60161331926819") or in groups of four after a blank
 * each, the last of one to four ("GB29 NWBK 6016 1331 9268 19"); 0 when
 * there is none. Nothing but its end is looked at past IBAN_MAX + 8 bytes.
 */
static size_t iban_at(const char *t, size_t n)
{
	size_t i = 4, chars = 4, g;

	if (n < IBAN_MIN || !upper_byte((unsigned char)t[0]) || !upper_byte((unsigned char)t[1]) ||
	    !ascii_digit((unsigned char)t[2]) || !ascii_digit((unsigned char)t[3]))
		return 0;
	if (upper_or_digit((unsigned char)t[i])) {
		while (i < n && upper_or_digit((unsigned char)t[i]))
			i++;
		return i >= IBAN_MIN && i <= IBAN_MAX && (i == n || !code_byte((unsigned char)t[i])) ? i : 0;
	}
	while (i + 1 < n && t[i] == ' ' && upper_or_digit((unsigned char)t[i + 1])) {
		for (g = 0; g < 4 && i + 1 + g < n && upper_or_digit((unsigned char)t[i + 1 + g]); g++)
			;
		/* a longer word, or one glued to lower case, is no group */
		if ((i + 1 + g < n && code_byte((unsigned char)t[i + 1 + g])) || chars + g > IBAN_MAX)
			break;
		chars += g;
		i += 1 + g;
		if (g < 4)
			break;
	}
	return chars >= IBAN_MIN && i > 4 ? i : 0;
}

bool ground_is_iban(const char *t, size_t n)
{
	return n >= IBAN_MIN && n <= IBAN_MAX + IBAN_MAX / 4 && iban_at(t, n) == n;
}

bool ground_is_code(const char *t, size_t n)
{
	size_t i, turns = 0;
	bool lower = false;

	/* an IBAN, its check digits after its country: "CH9300762011623852957" */
	if (n <= IBAN_MAX && !memchr(t, ' ', n) && ground_is_iban(t, n))
		return true;
	if (n < 6 || n > 64)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];

		if (c >= 'a' && c <= 'z')
			lower = true;
		else if (!(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9'))
			return false;
		if (i > 0 && ((c >= '0' && c <= '9') != (t[i - 1] >= '0' && t[i - 1] <= '9')))
			turns++;
	}
	/* a hash, in either case; else capitals and digits, turning twice */
	if (is_hash(t, n))
		return true;
	return !lower && turns >= 2;
}

static bool code_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static bool blank_byte(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Does the word text[ws, we) hold an address or a path? */
static bool word_is_address(const char *t, size_t ws, size_t we)
{
	size_t i;

	if (we - ws >= 4 && strncasecmp(t + ws, "www.", 4) == 0)
		return true;
	for (i = ws; i < we; i++)
		if (t[i] == '@' || t[i] == '/')
			return true; /* "://" has one too */
	return false;
}

size_t ground_next_code(const char *t, size_t n, struct ground_codes *cur, bool addresses,
			size_t *start)
{
	size_t i = cur->at;

	cur->is_name = false;
	while (i < n) {
		size_t d, a, b, k, m;
		bool ident, name = false;

		/* a digit with a letter or "_" beside it: perhaps a code's */
		d = numlex_next_code_digit(t, i, n);
		if (d == n)
			break;
		/* the run of letters, digits and "_" around it, read once */
		for (a = d; a > cur->at && (code_byte((unsigned char)t[a - 1]) || t[a - 1] == '_'); a--)
			;
		for (b = d; b < n && (code_byte((unsigned char)t[b]) || t[b] == '_'); b++)
			;
		i = b;
		k = b - a;
		ident = k <= 64 && ground_is_underscored(t + a, k);
		/* an IBAN in groups of four ("GB29 NWBK 6016 ..."): one code, blanks and all */
		if (k == 4 && (m = iban_at(t + a, n - a)) > k) {
			i = b = a + m;
			k = m;
			ident = true;
		}
		if (!ident && k >= 7 && memchr(t + a, '_', k)) {
			/* a hash among words joined by "_" ("clip_2b007cf0ba98"): that part */
			size_t sa = a, sb;

			for (; sa < b; sa = sb + 1) {
				for (sb = sa; sb < b && t[sb] != '_'; sb++)
					;
				if (sb - sa <= 64 && is_hash(t + sa, sb - sa))
					break;
			}
			if (sa >= b)
				continue;
			a = sa;
			b = sb;
			k = b - a;
		}
		if (!ident && (k < 5 || k > 64 || memchr(t + a, '_', k)))
			continue;
		if (!ident &&
		    ((a > 0 && t[a - 1] == '#' && (k == 6 || k == 8)) || !ground_is_code(t + a, k))) {
			cur->names++;
			if (!cur->want_names)
				continue;
			name = true;
		}
		if (!addresses) {
			/* its word (between blanks), read once for all its codes */
			if (a >= cur->word_end) {
				size_t ws = a, we = b;

				while (ws > cur->word_end && !blank_byte((unsigned char)t[ws - 1]))
					ws--;
				while (we < n && !blank_byte((unsigned char)t[we]))
					we++;
				cur->word_end = we;
				cur->word_address = word_is_address(t, ws, we);
			}
			if (cur->word_address) {
				i = cur->word_end;
				continue;
			}
		}
		*start = a;
		cur->at = b;
		cur->is_name = name;
		return k;
	}
	cur->at = n;
	return 0;
}

int ground_code_key(const struct ground_codes *cur, const char *t, size_t n, struct buf *out)
{
	return cur->is_name ? ground_ident_key(t, n, out) : ground_key(GROUNDING_CODE, t, n, out);
}

bool ground_is_underscored(const char *t, size_t n)
{
	size_t i = 0, letters = 0, digits;

	for (;;) {
		size_t w = i;

		while (i < n && ascii_alpha((unsigned char)t[i]))
			i++;
		if (i == w || i == n || t[i] != '_')
			return false;
		letters += i - w;
		i++;
		if (i < n && ascii_digit((unsigned char)t[i]))
			break;
	}
	for (digits = 0; i < n && ascii_digit((unsigned char)t[i]); i++)
		digits++;
	return i == n && letters >= 2 && digits >= 2;
}

/*
 * An identifier's key as a reader compares it, whatever joins its parts:
 * its letters lowercased and its digits, "_", blanks and "#" left out
 * ("certificate_7504069" is "certificate 7504069" is "certificate
 * #7504069").
 */
int ground_ident_key(const char *t, size_t n, struct buf *out)
{
	size_t i;

	out->len = 0;
	if (buf_addc(out, (char)('0' + GROUNDING_CODE)) < 0)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if ((ascii_alpha((unsigned char)t[i]) || ascii_digit((unsigned char)t[i])) &&
		    buf_addc(out, (char)ascii_lower((unsigned char)t[i])) < 0)
			return -ENOMEM;
	return 0;
}

/* A code's key: a hash lowercased; another code as it is. */
static int code_key(const char *t, size_t n, struct buf *out)
{
	size_t i;

	/* an IBAN without its blanks: every character of it, grouped or not */
	if (ground_is_iban(t, n)) {
		for (i = 0; i < n; i++)
			if (t[i] != ' ' && buf_addc(out, t[i]) < 0)
				return -ENOMEM;
		return 0;
	}
	if (ground_is_underscored(t, n)) {
		for (i = 0; i < n; i++)
			if (t[i] != '_' && buf_addc(out, (char)ascii_lower((unsigned char)t[i])) < 0)
				return -ENOMEM;
		return 0;
	}
	/* (all hexadecimal: a hash, or a short form of one, which may lack a
	 * digit or a letter) */
	for (i = 0; i < n && is_hex_digit((unsigned char)t[i]); i++)
		;
	if (i < n || n < GROUND_HASH_SHORT_MIN)
		return buf_add(out, t, n);
	for (i = 0; i < n; i++)
		if (buf_addc(out, (char)((unsigned char)t[i] | (t[i] > '9' ? 0x20 : 0))) < 0)
			return -ENOMEM;
	return 0;
}

size_t ground_hash_prefixes(const char *t, size_t n)
{
	if (!is_hash(t, n) || n <= GROUND_HASH_SHORT_MIN)
		return 0;
	return MIN(n - 1, (size_t)GROUND_HASH_SHORT_MAX) - GROUND_HASH_SHORT_MIN + 1;
}

int ground_key(enum grounding k, const char *text, size_t n, struct buf *out)
{
	out->len = 0;
	if (grow(&out->data, &out->cap, 1, 1) < 0)
		return -ENOMEM;
	out->data[0] = '\0';
	/* Items of different kinds never ground each other. */
	if (buf_addc(out, (char)('0' + k)) < 0)
		return -ENOMEM;
	/* Every kind keys an empty text as nothing (and it may come without a pointer). */
	if (n == 0)
		return 0;
	switch (k) {
	case GROUNDING_URL:
		return url_key(text, n, out);
	case GROUNDING_NUMBER:
		return number_key(text, n, out);
	case GROUNDING_CITATION:
		return citation_key(text, n, out);
	case GROUNDING_CODE:
		return code_key(text, n, out);
	case GROUNDING_NONE:
		return 0;
	default:
		return buf_add(out, text, n);
	}
}

/* ---- figures computed from grounded ones ---- */

/* Distinct figures tried as terms (of the answer's unit, then bare ones),
 * read among the DERIVE_WALK newest of each unit. */
#define DERIVE_TERMS 8
#define DERIVE_BARE 4
#define DERIVE_WALK 64
/* Counts tried as factors (2 to DERIVE_FACTOR_MAX), read among the
 * DERIVE_RING newest quantities. */
#define DERIVE_FACTORS 4
#define DERIVE_FACTOR_MAX 9
#define DERIVE_RING 256

/*
 * Words that say a bare figure is a sum of money: a JSON value's keys
 * ("price": 145, "prices": {"economy": 132}, "amount") or the words before
 * it in prose. Without one, a bare figure (a count of reviews, a rating) is
 * no term: "$15" is not 5 x 3 of a record's stars and counts.
 */
static const char *const money_words[] = {
	"amount", "balance", "charge", "charged", "cost", "credit", "deposit", "fare", "fee",
	"paid", "payment", "price", "refund", "refunded", "subtotal", "tax", "total",
};

static bool said_as_money(const struct ground_context *ctx)
{
	size_t i, k;

	for (i = 0; i < ctx->n; i++)
		for (k = 0; k < ARRAY_SIZE(money_words); k++)
			if (ctx->word[i] == word_hash(money_words[k], strlen(money_words[k])))
				return true;
	return false;
}

struct derive_term {
	double v;
	unsigned times; /* how often it is said, to two: a sum may take it twice */
	uint64_t at;    /* where it is said last */
};

/* Adds the distinct positive figures of unit, newest first, to t[n, cap):
 * one of another unit already there is not added again. */
static size_t derive_terms(const struct ground *g, uint64_t unit, bool money_only,
			   struct derive_term *t, size_t n, size_t cap)
{
	uint32_t i, walked = 0;
	size_t k, first = n;

	for (i = g->units[mix(unit)]; i != NIL && walked < DERIVE_WALK; i = g->ul[i].link.next) {
		double v = g->q[i].q.value;

		if (g->ul[i].unit_hash != unit)
			continue;
		walked++;
		if (!(v > 0 && v < 1e12) || (money_only && !said_as_money(&g->q[i].ctx)))
			continue;
		for (k = 0; k < n && t[k].v != v; k++)
			;
		if (k < n) {
			/* (said again in this unit; "$100" and a JSON 100 may be one figure) */
			if (k >= first)
				t[k].times = 2;
		}
		else if (n < cap)
			t[n++] = (struct derive_term){v, 1, g->q[i].at};
	}
	return n;
}

/* The counts of 2 to DERIVE_FACTOR_MAX the grounding gives ("2 passengers",
 * a JSON array of two), newest first; how many in f. */
static size_t derive_factors(const struct ground *g, unsigned *f)
{
	size_t n = 0, k;
	uint32_t j;

	for (j = 0; j < MIN(g->qcount, (uint32_t)DERIVE_RING) && n < DERIVE_FACTORS; j++) {
		const struct quantity *q = &g->q[(g->qhead + g->qcount - 1 - j) % GROUND_CAP].q;

		if (q->kind != QUANTITY_COUNT || q->value < 2 || q->value > DERIVE_FACTOR_MAX ||
		    q->value != floor(q->value))
			continue;
		for (k = 0; k < n && f[k] != (unsigned)q->value; k++)
			;
		if (k == n)
			f[n++] = (unsigned)q->value;
	}
	return n;
}

/* A figure as a derivation writes it: to the cent where it has cents. */
static void fig(char *out, size_t n, double v)
{
	snprintf(out, n, v == floor(v) ? "%.0f" : "%.2f", v);
}

static bool to_the_cent(double v, double want)
{
	return fabs(v - want) < 0.005;
}

/*
 * Is want p op q ("+" or "-"; q NULL: p alone), or that times one of the
 * counts f? Writes how it is.
 */
static bool derived_as(double want, const struct derive_term *p, char op,
		       const struct derive_term *q, const unsigned *f, size_t nf, char *how, size_t n)
{
	double v = !q ? p->v : op == '+' ? p->v + q->v : p->v - q->v;
	char x[32], y[32];
	size_t k;

	fig(x, sizeof(x), p->v);
	if (q)
		fig(y, sizeof(y), q->v);
	if (q && to_the_cent(v, want))
		return snprintf(how, n, "%s %c %s", x, op, y), true;
	for (k = 0; k < nf; k++) {
		if (!to_the_cent(v * f[k], want))
			continue;
		if (q)
			snprintf(how, n, "(%s %c %s) x %u", x, op, y, f[k]);
		else
			snprintf(how, n, "%s x %u", x, f[k]);
		return true;
	}
	return false;
}

static bool said_of(const double *said, size_t n_said, double v)
{
	size_t i;

	for (i = 0; i < n_said; i++)
		if (said[i] == v)
			return true;
	return false;
}

bool ground_derive(const struct ground *g, const struct quantity *a, const double *said,
		   size_t n_said, char *how, size_t n, uint64_t *at)
{
	struct derive_term t[DERIVE_TERMS + DERIVE_BARE];
	unsigned f[DERIVE_FACTORS];
	size_t nt, nf, i, j;

	if (!g->units || !g->qcount || quantity_class_of(a) != QC_MONEY || !(a->value > 0) ||
	    a->scale != 1)
		return false;
	nt = derive_terms(g, a->unit_hash, false, t, 0, DERIVE_TERMS);
	nt = derive_terms(g, quantity_unit_hash("number"), true, t, nt, nt + DERIVE_BARE);
	nf = derive_factors(g, f);
	for (i = 0; i < nt; i++) {
		*at = t[i].at;
		if (derived_as(a->value, &t[i], 0, NULL, f, nf, how, n))
			return true;
		for (j = i; j < nt; j++) {
			const struct derive_term *hi = t[j].v > t[i].v ? &t[j] : &t[i];

			if ((j == i && t[i].times < 2) ||
			    !(said_of(said, n_said, t[i].v) || said_of(said, n_said, t[j].v)))
				continue;
			if (derived_as(a->value, &t[i], '+', &t[j], f, nf, how, n) ||
			    (j > i && derived_as(a->value, hi, '-', hi == &t[i] ? &t[j] : &t[i], f, nf,
						 how, n)))
				return true;
		}
	}
	return false;
}

/* Keys of one tool result's list read for a total: more are not read. */
#define LIST_KEYS 4

struct list_key {
	uint32_t key;   /* the nearest word before the figures (ctx.before1) */
	uint32_t text;  /* the grounding text they are read from */
	unsigned count;
	double sum;
	uint32_t first; /* the oldest term's slot */
};

bool ground_list_total(const struct ground *g, const struct quantity *a, char *how, size_t n,
		       uint64_t *at)
{
	struct list_key k[LIST_KEYS];
	size_t nk = 0, i, len;
	uint64_t bare = quantity_unit_hash("number");
	uint32_t text = 0, j, texts = 0;
	bool money = quantity_class_of(a) == QC_MONEY;

	if (!g->qcount || !(a->value > 0) || a->scale != 1 ||
	    !(money || a->kind == QUANTITY_NUMBER))
		return false;
	/* the newest tool result's quantities, newest first (one text) */
	for (j = 0; j < MIN(g->qcount, (uint32_t)GROUND_LIST_WALK); j++) {
		uint32_t s = (g->qhead + g->qcount - 1 - j) % GROUND_CAP;
		const struct ground_quantity *gq = &g->q[s];
		double v = gq->q.value;
		bool of_unit;

		if (gq->prompt)
			continue;
		/* (the newest two texts: a tool call's arguments, echoed as
		 * grounding, may follow its result) */
		if (!gq->ctx.text)
			break;
		if (gq->ctx.text != text) {
			if (texts == 2)
				break;
			text = gq->ctx.text;
			texts++;
		}
		of_unit = gq->q.unit_hash == a->unit_hash ||
			  (gq->q.unit_hash == bare && gq->q.kind == QUANTITY_NUMBER &&
			   said_as_money(&gq->ctx)) ||
			  (!money && quantity_class_of(&gq->q) == QC_MONEY);
		if (!of_unit || !gq->ctx.before1 || !(v > 0 && v < 1e12) || gq->q.scale != 1)
			continue;
		for (i = 0; i < nk && !(k[i].key == gq->ctx.before1 && k[i].text == text); i++)
			;
		if (i == nk) {
			if (nk == LIST_KEYS)
				continue;
			k[nk++] = (struct list_key){gq->ctx.before1, text, 0, 0, s};
		}
		k[i].count++;
		k[i].sum += v;
		k[i].first = s;
	}
	for (i = 0; i < nk; i++) {
		if (k[i].count < 2 || !to_the_cent(k[i].sum, a->value))
			continue;
		/* how: the terms oldest first, as the list gives them */
		len = 0;
		if (n)
			how[0] = '\0';
		for (j = k[i].first;; j = (j + 1) % GROUND_CAP) {
			const struct ground_quantity *gq = &g->q[j];
			char f[32];

			if (gq->ctx.text == k[i].text && gq->ctx.before1 == k[i].key && !gq->prompt &&
			    (gq->q.unit_hash == a->unit_hash ||
			     (gq->q.unit_hash == bare && gq->q.kind == QUANTITY_NUMBER &&
			      said_as_money(&gq->ctx)) ||
			     (!money && quantity_class_of(&gq->q) == QC_MONEY)) &&
			    gq->q.value > 0 && gq->q.value < 1e12 && gq->q.scale == 1 && len < n) {
				fig(f, sizeof(f), gq->q.value);
				len += (size_t)snprintf(how + len, n - len, "%s%s", len ? " + " : "", f);
			}
			if (j == (g->qhead + g->qcount - 1) % GROUND_CAP)
				break;
		}
		*at = g->q[k[i].first].at;
		return true;
	}
	return false;
}

/*
 * The total check (claims.c): what the grounding says a stated total is.
 * The words that key a figure as one item's price, and those that key it
 * as a sum already (a charge, a refund, a total): "price": 145 in a
 * flight is one passenger's fare; "amount": 1200 in a payment is what was
 * charged.
 */
static const char *const item_words[] = {"fare", "fares", "price", "prices", "rate"};
static const char *const sum_words[] = {
	"amount", "balance", "charge", "charged", "paid", "payment", "refund", "refunded",
	"subtotal", "sum", "total",
};
/* Words of a payment: two of one figure are two payments. */
static const char *const payment_words[] = {"amount", "charge", "charged", "paid", "payment"};
/* Nouns a party is counted in ("passengers": [..two..], "2 passengers"). */
static const char *const party_words[] = {
	"adult", "adults", "guest", "guests", "passenger", "passengers", "people", "person",
	"persons", "traveler", "travelers", "traveller", "travellers",
};

static bool ctx_says(const struct ground_context *ctx, const char *const *w, size_t nw)
{
	size_t i, k;

	for (i = 0; i < ctx->n; i++)
		for (k = 0; k < nw; k++)
			if (ctx->word[i] == word_hash(w[k], strlen(w[k])))
				return true;
	return false;
}

/* Words that key a time as a start, and as an end ("start_time", "ends"). */
static const char *const start_words[] = {"begin", "begins", "from", "start", "starts"};
static const char *const end_words[] = {"end", "ends", "finish", "finishes", "until"};
/* How far apart a record's start and end are read, in bytes of grounding. */
#define SPAN_NEAR 512

bool ground_time_span(const struct ground *g, double seconds, char *how, size_t n, uint64_t *at)
{
	const struct ground_quantity *t[DERIVE_TERMS * 2];
	uint64_t clock = quantity_unit_hash("time:clock");
	uint32_t i, walked = 0;
	size_t nt = 0, k;

	if (!g->units || !g->qcount || !(seconds > 0) || seconds > 86400)
		return false;
	for (i = g->units[mix(clock)]; i != NIL && walked < DERIVE_WALK && nt < ARRAY_SIZE(t);
	     i = g->ul[i].link.next) {
		if (g->ul[i].unit_hash != clock)
			continue;
		walked++;
		t[nt++] = &g->q[i];
	}
	/* newest first: two times said one after the other, near, of a start and an end */
	for (k = 0; k + 1 < nt; k++) {
		const struct ground_quantity *a = t[k], *b = t[k + 1];
		double d = fabs(a->q.value - b->q.value) * 60;
		uint64_t gap = a->at > b->at ? a->at - b->at : b->at - a->at;
		char x[16], y[16];

		if (gap > SPAN_NEAR || fabs(d - seconds) >= 1)
			continue;
		if (!((ctx_says(&a->ctx, start_words, ARRAY_SIZE(start_words)) &&
		       ctx_says(&b->ctx, end_words, ARRAY_SIZE(end_words))) ||
		      (ctx_says(&b->ctx, start_words, ARRAY_SIZE(start_words)) &&
		       ctx_says(&a->ctx, end_words, ARRAY_SIZE(end_words)))))
			continue;
		snprintf(x, sizeof(x), "%02d:%02d", (int)MAX(a->q.value, b->q.value) / 60,
			 (int)MAX(a->q.value, b->q.value) % 60);
		snprintf(y, sizeof(y), "%02d:%02d", (int)MIN(a->q.value, b->q.value) / 60,
			 (int)MIN(a->q.value, b->q.value) % 60);
		snprintf(how, n, "%s - %s", x, y);
		*at = MIN(a->at, b->at);
		return true;
	}
	return false;
}

/* Calls fn on each figure of a's unit, then each bare one said as money,
 * newest first, DERIVE_WALK of each at most; stops when fn says so. */
static const struct ground_quantity *money_walk(const struct ground *g, uint64_t unit,
						bool (*fn)(const struct ground_quantity *, void *),
						void *arg)
{
	uint64_t units[2] = {unit, quantity_unit_hash("number")};
	uint32_t i, walked;
	size_t u;

	if (!g->units || !g->qcount)
		return NULL;
	for (u = 0; u < 2; u++)
		for (walked = 0, i = g->units[mix(units[u])]; i != NIL && walked < DERIVE_WALK;
		     i = g->ul[i].link.next) {
			if (g->ul[i].unit_hash != units[u])
				continue;
			walked++;
			if ((u == 0 || said_as_money(&g->q[i].ctx)) && fn(&g->q[i], arg))
				return &g->q[i];
		}
	return NULL;
}

struct item_search {
	double v;
	unsigned items, sums;
};

static bool count_keys(const struct ground_quantity *gq, void *arg)
{
	struct item_search *s = arg;

	if (!to_the_cent(gq->q.value, s->v))
		return false;
	if (ctx_says(&gq->ctx, sum_words, ARRAY_SIZE(sum_words)))
		s->sums++;
	else if (ctx_says(&gq->ctx, item_words, ARRAY_SIZE(item_words)))
		s->items++;
	return false;
}

bool ground_item_price(const struct ground *g, const struct quantity *a)
{
	struct item_search s = {a->value, 0, 0};

	money_walk(g, a->unit_hash, count_keys, &s);
	return s.items > 0 && s.sums == 0;
}

bool ground_party_noun(const struct quantity *q)
{
	const char *u = q->items ? strrchr(q->unit, ':') + 1 : q->unit;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(party_words); k++)
		if (strcmp(u, party_words[k]) == 0)
			return true;
	return false;
}

unsigned ground_party(const struct ground *g)
{
	uint32_t j;

	for (j = 0; j < MIN(g->qcount, (uint32_t)DERIVE_RING); j++) {
		const struct ground_quantity *gq = &g->q[(g->qhead + g->qcount - 1 - j) % GROUND_CAP];
		const struct quantity *q = &gq->q;

		if (q->value < 1 || q->value > DERIVE_FACTOR_MAX || q->value != floor(q->value))
			continue;
		if ((q->kind == QUANTITY_COUNT && ground_party_noun(q)) ||
		    (q->kind == QUANTITY_NUMBER && ctx_says(&gq->ctx, party_words, ARRAY_SIZE(party_words))))
			return (unsigned)q->value;
	}
	return 0;
}

struct charged_search {
	double v;
	const struct ground_quantity *hit;
	unsigned same;
};

static bool halved_or_doubled(const struct ground_quantity *gq, void *arg)
{
	struct charged_search *s = arg;

	if (!ctx_says(&gq->ctx, sum_words, ARRAY_SIZE(sum_words)) || !(gq->q.value > 0))
		return false;
	/* (a payment said again, not a record's total said again by a
	 * search and then a booking) */
	if (s->hit && to_the_cent(gq->q.value, s->hit->q.value) && gq->at != s->hit->at &&
	    ctx_says(&gq->ctx, payment_words, ARRAY_SIZE(payment_words)))
		s->same++;
	if (!s->hit && (to_the_cent(gq->q.value * 2, s->v) || to_the_cent(gq->q.value / 2, s->v)))
		s->hit = gq;
	return false;
}

const struct ground_quantity *ground_charged(const struct ground *g, const struct quantity *a)
{
	struct charged_search s = {a->value, NULL, 0};

	if (quantity_class_of(a) != QC_MONEY || a->scale != 1 || !(a->value > 0))
		return NULL;
	money_walk(g, a->unit_hash, halved_or_doubled, &s);
	/* two payments of 600 make a charge of 1200: doubled is then no error */
	return s.same ? NULL : s.hit;
}
