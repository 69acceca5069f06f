// SPDX-License-Identifier: MIT
/*
 * The grounded set: normalized items of tool output (quantities in bins by value and unit,
 * words of context, attributes), bounded, oldest evicted first; kept in step across turns and
 * merged.
 */
#include "ground.h"
#include "ground_int.h"

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

/* Slots of the attributes' index: twice the ring, a power of two. */
#define ATTR_SLOTS (2 * GROUND_ATTR_CAP)
_Static_assert((ATTR_SLOTS & (ATTR_SLOTS - 1)) == 0 && ATTR_SLOTS < 65536, "the index's slots");

_Static_assert(GROUND_CAP <= 65536, "a slot fits a memo's uint16_t");

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
	g->reset_version = g->version;
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
		if (!g->ul) {
			g->ul = malloc(GROUND_CAP * (sizeof(*g->ul) + sizeof(*g->filed)));
			g->filed = (struct lists *)(void *)(g->ul + GROUND_CAP);
		}
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

bool ground_changed(const struct ground *g)
{
	return g && g->version != g->reset_version;
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
 * every one through ground_context_of()). In order of hash (ground_self_check()
 * says so: no two share one).
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
 * Where each stop word's hash falls: slot (hash x STOP_MUL) >> 26 of 64
 * holds its index + 1 (0: none), and no two share a slot (STOP_MUL was
 * searched for so; ground_self_check() rebuilds the table from the list).
 * A word is a stop word only if the one stop word of its slot has its
 * hash, length and letters: one look-up, where a binary search over the
 * hashes took five steps for the one word in eight that a filter of the
 * hashes' top bytes let through.
 */
#define STOP_MUL 0x2b57490bu

static const uint8_t stop_slot[64] = {
	2, 0, 0, 0, 26, 31, 0, 14, 0, 0, 19, 8, 6, 5, 30, 27, 0, 0, 25, 29, 0, 0,
	15, 0, 0, 0, 21, 9, 11, 28, 0, 0, 0, 0, 0, 13, 3, 4, 0, 0, 23, 0, 20, 0,
	0, 0, 0, 0, 0, 17, 10, 22, 32, 12, 24, 0, 0, 0, 0, 0, 7, 18, 16, 1,
};

static inline unsigned stop_slot_of(uint32_t h)
{
	return (uint32_t)(h * STOP_MUL) >> 26;
}

static inline bool ascii_space(unsigned char c)
{
	return c == ' ' || (unsigned char)(c - '\t') < 5; /* \t \n \v \f \r */
}

/*
 * A context word's word_hash(), for a run of ASCII letters: their lowercase
 * is one OR, where word_hash() tests each byte for a capital.
 */
static inline uint32_t letters_hash(const char *w, size_t k)
{
	uint32_t h = 2166136261u;
	size_t i;

	if (k > 4 && ((unsigned char)w[k - 1] | 0x20) == 's') {
		unsigned char c = (unsigned char)w[k - 2] | 0x20;

		if (c != 's' && c != 'u' && c != 'i')
			k--;
	}
	/* (four letters a load: the same steps, a third fewer instructions) */
	for (i = 0; i + 4 <= k; i += 4) {
		uint32_t x;

		memcpy(&x, w + i, 4);
		x |= 0x20202020u;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		x = __builtin_bswap32(x);
#endif
		h = (h ^ (x & 0xff)) * 16777619u;
		h = (h ^ (x >> 8 & 0xff)) * 16777619u;
		h = (h ^ (x >> 16 & 0xff)) * 16777619u;
		h = (h ^ (x >> 24)) * 16777619u;
	}
	for (; i < k; i++)
		h = (h ^ ((unsigned char)w[i] | 0x20)) * 16777619u;
	return h;
}

/* Is the word w of k letters and hash h a stop word? */
static inline bool context_stopword(uint32_t h, const char *w, size_t k)
{
	unsigned s = stop_slot[stop_slot_of(h)];
	size_t i;

	if (!s || stopwords[s - 1].hash != h || stopwords[s - 1].len != k)
		return false;
	/* w is ASCII letters (its caller's word), the list lowercase */
	for (i = 0; i < k; i++)
		if (((unsigned char)w[i] | 0x20) != (unsigned char)stopwords[s - 1].word[i])
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
		unsigned char c = (unsigned char)p[-1];

		/* (a letter first: most bytes are, and no letter ends a sentence) */
		if (ascii_alpha(c)) {
			for (e = p--; p > start && ascii_alpha((unsigned char)p[-1]); p--)
				;
			k = (size_t)(e - p);
			if (k < 3)
				continue;
			*h = letters_hash(p, k);
			if (!context_stopword(*h, p, k)) {
				*pp = p;
				return true;
			}
			continue;
		}
		if (c == '\n' || (is_terminator((char)c) && (p == before || ascii_space((unsigned char)p[0]))))
			break;
		p--;
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

void ground_context_key(const char *w, size_t k, struct ground_context *ctx)
{
	const char *p = w, *end = w + k, *from;
	uint32_t h;

	/* (anything else is read as ground_context_of() reads it) */
	if (k > 160) {
		ground_context_of(w + k, k, ctx);
		return;
	}
	context_clear(ctx);
	while (p < end) {
		unsigned char c = (unsigned char)*p;

		if (!ascii_alpha(c)) {
			if (c == '\n' || is_terminator((char)c)) {
				ground_context_of(w + k, k, ctx);
				return;
			}
			p++;
			continue;
		}
		for (from = p; p < end && ascii_alpha((unsigned char)*p); p++)
			;
		if (p - from < 3)
			continue;
		h = letters_hash(from, (size_t)(p - from));
		if (context_stopword(h, from, (size_t)(p - from)))
			continue;
		/* (the nearest GROUND_CONTEXT_SIDE: the oldest gives way) */
		if (ctx->n == GROUND_CONTEXT_SIDE) {
			memmove(ctx->word, ctx->word + 1, (GROUND_CONTEXT_SIDE - 1) * sizeof(*ctx->word));
			ctx->n--;
		}
		ctx->word[ctx->n++] = h;
		ctx->before1 = h;
	}
	for (k = 0; k < ctx->n; k++)
		ctx->mask |= 1ull << (ctx->word[k] % 64);
}

/*
 * The next content word of the sentence at *p (before end): its hash, *p
 * past it; false at the sentence's end (a line break, or a terminator and a
 * blank) or the text's.
 */
static inline bool next_content_word(const char **pp, const char *end, uint32_t *h)
{
	const char *p = *pp, *w;
	uint32_t x, before_last;
	unsigned char c;
	size_t k;

	while (p < end) {
		c = (unsigned char)*p;
		if (!ascii_alpha(c)) {
			if (c == '\n' || (is_terminator((char)c) && (p + 1 == end || ascii_space((unsigned char)p[1])))) {
				*pp = p;
				return false;
			}
			p++;
			continue;
		}
		/* The word and its letters_hash() in one pass: the hash before
		 * its last letter is the one a plural's "s" left off has. */
		w = p;
		x = before_last = 2166136261u;
		do {
			before_last = x;
			x = (x ^ (c | 0x20)) * 16777619u;
		} while (++p < end && ascii_alpha(c = (unsigned char)*p));
		k = (size_t)(p - w);
		if (k < 3)
			continue;
		if (k > 4 && ((unsigned char)p[-1] | 0x20) == 's') {
			c = (unsigned char)p[-2] | 0x20;
			if (c != 's' && c != 'u' && c != 'i')
				x = before_last;
		}
		*h = x;
		if (!context_stopword(x, w, k)) {
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

/* Adds one word's hash unless held; false when ctx is full. */
static bool context_add(struct ground_context *ctx, uint32_t h)
{
	size_t i;

	if (ctx->n == GROUND_CONTEXT)
		return false;
	/* (a word held has its bit in the mask) */
	if (ctx->mask >> (h % 64) & 1)
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
		h = letters_hash(w, k);
		if (!context_stopword(h, w, k) && !context_add(ctx, h))
			return;
	}
}

const char *ground_self_check(void)
{
	uint8_t slot[ARRAY_SIZE(stop_slot)] = {0};
	size_t i;

	_Static_assert(ARRAY_SIZE(stopwords) < 256, "a stop word's index + 1 fits a slot");
	for (i = 0; i < ARRAY_SIZE(stopwords); i++) {
		const char *w = stopwords[i].word;
		uint32_t h = word_hash(w, strlen(w));

		if (h != stopwords[i].hash || strlen(w) != stopwords[i].len ||
		    (i > 0 && h <= stopwords[i - 1].hash) || slot[stop_slot_of(h)])
			return w; /* its hash or length is wrong, or out of order (or a twin's), or its slot taken */
		slot[stop_slot_of(h)] = (uint8_t)(i + 1);
	}
	if (memcmp(slot, stop_slot, sizeof(slot)) != 0)
		return "stop_slot";
	if (quantity_unit_hash("number") != BARE_UNIT_HASH)
		return "BARE_UNIT_HASH";
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
#if defined(__SSE2__)
	{
		/* b's words four to a compare, the places past b->n left out of
		 * what they say: each of a's is held or not, as one by one */
		const __m128i *bw = (const __m128i *)(const void *)b->word;
		__m128i w0 = _mm_loadu_si128(bw), w1 = _mm_loadu_si128(bw + 1),
			w2 = _mm_loadu_si128(bw + 2), w3 = _mm_loadu_si128(bw + 3);
		unsigned held = b->n >= 16 ? 0xffffu : (1u << b->n) - 1;

		_Static_assert(GROUND_CONTEXT == 16, "a context's words are four compares");
		(void)j;
		for (i = 0; i < a->n; i++) {
			__m128i x;
			unsigned m;

			if (!(b->mask >> (a->word[i] % 64) & 1))
				continue; /* its bit is not in b: nor is it */
			x = _mm_set1_epi32((int)a->word[i]);
			m = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(
				_mm_packs_epi32(_mm_cmpeq_epi32(w0, x), _mm_cmpeq_epi32(w1, x)),
				_mm_packs_epi32(_mm_cmpeq_epi32(w2, x), _mm_cmpeq_epi32(w3, x))));
			k += (m & held) != 0;
		}
	}
#else
	for (i = 0; i < a->n; i++) {
		if (!(b->mask >> (a->word[i] % 64) & 1))
			continue; /* its bit is not in b: nor is it */
		for (j = 0; j < b->n; j++)
			if (a->word[i] == b->word[j]) {
				k++;
				break;
			}
	}
#endif
	return k;
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
	/* The names' bits (hash % 64), as a context's mask has them: most
	 * figures are said of no day, and are told so by one test. */
	static _Atomic uint64_t name_bits;
	uint64_t bits = atomic_load_explicit(&name_bits, memory_order_relaxed);
	uint32_t w[2] = {ctx->before1, ctx->after1};
	size_t i, j;

	if (!bits) {
		for (i = 0; i < ARRAY_SIZE(names); i++)
			bits |= 1ull << (names[i].hash % 64);
		atomic_store_explicit(&name_bits, bits, memory_order_relaxed);
	}
	if (!(bits >> (w[0] % 64) & 1) && !(bits >> (w[1] % 64) & 1))
		return 0;
	for (j = 0; j < 2; j++)
		for (i = 0; w[j] && i < ARRAY_SIZE(names); i++)
			if (names[i].hash == w[j])
				return GROUND_DAY(names[i].day);
	return 0;
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
		struct lists l = g->filed[(g->qhead + i) % GROUND_CAP];

		g->bins[l.bin] = NIL;
		g->units[l.unit] = NIL;
		g->writ[l.written] = NIL;
		if (l.val != NO_LIST)
			g->vals[l.val] = NIL;
	}
}

/* Puts slot i of the set at place k of memo m. */
static inline void memo_put(const struct ground *g, struct walk_memo *m, size_t k, uint32_t i)
{
	m->slot[k] = (uint16_t)i;
	m->mask[k] = g->ql[i].mask;
	m->any |= g->ql[i].mask;
	m->before1[k] = g->ql[i].before1;
	m->after1[k] = g->ql[i].after1;
	m->seq[k] = g->ql[i].seq;
}

/*
 * Brings memo m of a unit, the newest SWAP_WALK of its quantities when the
 * set's qseq was since, up to the set as it is: what a walk of its list
 * now gives. The list is newest first, and only two things change it: a
 * quantity put in goes to its front (with a seq of since or more), and
 * the oldest of the whole set is evicted, from its end. So the walk now
 * gives the unit's quantities put in since (read from the list's front up
 * to the first older one), then the memo's, less those evicted since (a
 * run at its end: their seq is below the oldest held; a slot put in again
 * is among the new ones), to SWAP_WALK in all. Had the memo fewer than
 * SWAP_WALK, it held the whole list then; had it SWAP_WALK, what the list
 * held after them is older, evicted before any of them. A quantity's
 * mask and nearest words never change while it is held (they are set as
 * it is put in). ground_unit_newest_walks() holds this to a walk.
 */
static void memo_bring_up(const struct ground *g, struct walk_memo *m, uint64_t unit_hash,
			  uint64_t since)
{
	uint64_t oldest = g->qseq - g->qcount;
	uint16_t fresh[SWAP_WALK];
	size_t d = 0, keep, k;
	uint32_t i;

	for (i = g->units[mix(unit_hash)]; i != NIL && d < SWAP_WALK; i = g->ul[i].link.next) {
		if (g->ul[i].unit_hash != unit_hash)
			continue;
		if (g->ql[i].seq < since)
			break;
		fresh[d++] = (uint16_t)i;
	}
	for (keep = m->n; keep > 0 && m->seq[keep - 1] < oldest; keep--)
		;
	keep = MIN(keep, SWAP_WALK - d);
	if (d && keep) {
		memmove(m->slot + d, m->slot, keep * sizeof(*m->slot));
		memmove(m->mask + d, m->mask, keep * sizeof(*m->mask));
		memmove(m->before1 + d, m->before1, keep * sizeof(*m->before1));
		memmove(m->after1 + d, m->after1, keep * sizeof(*m->after1));
		memmove(m->seq + d, m->seq, keep * sizeof(*m->seq));
	}
	for (k = 0; k < d; k++)
		memo_put(g, m, k, fresh[k]);
	m->n = (uint32_t)(d + keep);
}

/*
 * The newest SWAP_WALK quantities of a unit, newest first: a walk kept
 * since the set's reset and brought up to date (memo_bring_up()), else
 * walked anew (in place of the least recently used of WALK_MEMOS). Valid
 * until the next call.
 */
const struct walk_memo *unit_newest(const struct ground *g, uint64_t unit_hash)
{
	struct walk_memos *ms = g->memos;
	struct walk_memo *m;
	uint32_t i;
	size_t k, out;

	if (ms->epoch != g->epoch) {
		ms->live = 0;
		ms->epoch = g->epoch;
	}
	for (k = 0; k < WALK_MEMOS; k++)
		if (ms->unit_hash[k] == unit_hash && (ms->live >> k & 1)) {
			ms->used[k] = ++ms->clock;
			if (ms->qseq[k] != g->qseq) {
				memo_bring_up(g, &g->memo[k], unit_hash, ms->qseq[k]);
				ms->qseq[k] = g->qseq;
			}
			return &g->memo[k];
		}
	/* (a stale one first, else the least recently used) */
	if (ms->live != (uint32_t)((1ull << WALK_MEMOS) - 1)) {
		out = (size_t)__builtin_ctz(~ms->live);
	} else {
		for (out = 0, k = 1; k < WALK_MEMOS; k++)
			if (ms->used[k] < ms->used[out])
				out = k;
	}
	ms->live |= 1u << out;
	ms->unit_hash[out] = unit_hash;
	ms->used[out] = ++ms->clock;
	ms->qseq[out] = g->qseq;
	m = &g->memo[out];
	m->n = 0;
	m->any = 0;
	for (i = g->units[mix(unit_hash)]; i != NIL && m->n < SWAP_WALK; i = g->ul[i].link.next)
		if (g->ul[i].unit_hash == unit_hash)
			memo_put(g, m, m->n++, i);
	return m;
}

bool ground_unit_newest_walks(const struct ground *g, uint64_t unit_hash)
{
	const struct walk_memo *m;
	uint32_t i;
	size_t k = 0;

	if (!g->memos || !g->qcount)
		return true;
	m = unit_newest(g, unit_hash);
	for (i = g->units[mix(unit_hash)]; i != NIL && k < SWAP_WALK; i = g->ul[i].link.next) {
		if (g->ul[i].unit_hash != unit_hash)
			continue;
		if (k >= m->n || m->slot[k] != i || m->mask[k] != g->ql[i].mask ||
		    (m->mask[k] & ~m->any) != 0 ||
		    m->before1[k] != g->ql[i].before1 || m->after1[k] != g->ql[i].after1 ||
		    m->seq[k] != g->ql[i].seq)
			return false;
		k++;
	}
	return k == m->n;
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
	struct lists *f;
	uint32_t i;

	if (use_heads(g) < 0)
		return -ENOMEM;
	/* (text may be another set's: copied before this ring can move) */
	n = MIN(n, sizeof(copy) - 1);
	memcpy(copy, text, n);
	copy[n] = '\0';
	if (g->qcount == GROUND_CAP) {
		struct lists old = g->filed[g->qhead];

		link_out(g, g->bins, old.bin, g->qhead, BY_BIN);
		link_out(g, g->units, old.unit, g->qhead, BY_UNIT);
		link_out(g, g->writ, old.written, g->qhead, BY_WRITTEN);
		if (old.val != NO_LIST)
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
	f = &g->filed[i];
	f->bin = (uint16_t)bin_of(q->unit_hash, l->key);
	f->unit = (uint16_t)mix(q->unit_hash);
	f->written = (uint16_t)written_list(q->unit_hash, quantity_written(q));
	f->val = q->kind != QUANTITY_BASE ? (uint16_t)value_list(q->kind, q->unit_hash, q->value) : NO_LIST;
	link_in(g, g->bins, f->bin, i, BY_BIN);
	link_in(g, g->units, f->unit, i, BY_UNIT);
	link_in(g, g->writ, f->written, i, BY_WRITTEN);
	if (f->val != NO_LIST)
		link_in(g, g->vals, f->val, i, BY_VALUE);
	g->qcount++;
	g->version++;
	return 0;
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

const struct ground_quantity *ground_said_of(const struct ground *g, const struct quantity *a,
					     uint32_t period)
{
	double w = quantity_written(a);
	uint32_t i, bare, other, seen = 0;

	if (g->qcount == 0)
		return NULL;
	written_heads(g, w, &bare, &other);
	while ((i = written_newer(g, &bare, &other)) != NIL) {
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

void ground_turn(struct ground *g)
{
	g->turn = g->qseq;
	g->prompt_text = g->texts;
	groups_clear(g);
}

static void groups_clear(struct ground *g)
{
	if (g->n_groups)
		memset(g->group_index, 0, GROUP_SLOTS * sizeof(*g->group_index));
	g->n_groups = 0;
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
