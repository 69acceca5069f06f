// SPDX-License-Identifier: MIT
/* The grounded set: normalization and bounded memory. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#include "ground/ground.h"
#include "numbers/cardinal.h"
#include "numbers/numlex.h"
#include "test.h"

static const char *key(enum grounding k, const char *text)
{
	static struct buf b;

	CHECK_EQ(ground_key(k, text, strlen(text), &b), 0);
	buf_addc(&b, '\0');
	return b.data + 1; /* past the kind */
}

/* The stop words' precomputed hashes, and the filter made of them, agree with word_hash(). */
TEST(ground_stopword_hashes)
{
	const char *bad = ground_self_check();

	if (bad)
		fprintf(stderr, "  self check: %s\n", bad);
	CHECK(bad == NULL);
}

TEST(ground_keys)
{
	CHECK_STR(key(GROUNDING_URL, "HTTPS://React.DEV:443/Blog/x/#frag"), "https://react.dev/Blog/x");
	CHECK_STR(key(GROUNDING_URL, "http://a.example:80/"), "http://a.example");
	CHECK_STR(key(GROUNDING_URL, "http://a.example:8080/p?q=1"), "http://a.example:8080/p?q=1");
	CHECK_STR(key(GROUNDING_NUMBER, "18.30 %"), "18.3%");
	CHECK_STR(key(GROUNDING_NUMBER, "18.3 percent"), "18.3%");
	CHECK_STR(key(GROUNDING_NUMBER, "1,234.50%"), "1234.5%");
	CHECK_STR(key(GROUNDING_NUMBER, "2.70\xc3\x97"), "2.7x");
	CHECK_STR(key(GROUNDING_NUMBER, "2.7 X"), "2.7x");
	CHECK_STR(key(GROUNDING_NUMBER, "007.0%"), "7%");
	CHECK_STR(key(GROUNDING_CITATION, "According to Dr. Williams et al. (2024)"), "williams|2024");
	CHECK_STR(key(GROUNDING_CITATION, "Williams et al. [2024]"), "williams|2024");
	CHECK_STR(key(GROUNDING_CITATION, "A 2023 study by Johnson and Chen"), "johnson|2023");
	CHECK_STR(key(GROUNDING_CITATION, "as reported by Chen and colleagues"), "chen|");
	CHECK_STR(key(GROUNDING_EXACT, "will ship by May 2027"), "will ship by May 2027");
	/* A '#' before "://" is no fragment: cut there, the key ended before its host. */
	CHECK_STR(key(GROUNDING_URL, "a#b://c"), "a#b://c");
	CHECK_STR(key(GROUNDING_URL, "A#B://C/#x"), "a#b://c");
	CHECK_STR(key(GROUNDING_URL, "http://a.example/p#one#two"), "http://a.example/p");
	CHECK_STR(key(GROUNDING_NUMBER, "0000.50"), "0.5");
	CHECK_STR(key(GROUNDING_NUMBER, "0000"), "0");
	/* Texts without a figure do not all share one key. */
	CHECK_STR(key(GROUNDING_NUMBER, "n/a"), "n/a");
	CHECK_STR(key(GROUNDING_NUMBER, "none"), "none");
	/* A hash whole in either case (its short forms are keyed by the
	 * grounding too: ground_hash_prefixes()); another code as it is. */
	CHECK_STR(key(GROUNDING_CODE, "5A22AC8D3F91"), "5a22ac8d3f91");
	CHECK_STR(key(GROUNDING_CODE, "5a22ac8"), "5a22ac8");
	CHECK_EQ(ground_hash_prefixes("5a22ac8d3f91e0b7c2a4", 20), 6u);
	CHECK_EQ(ground_hash_prefixes("5a22ac8d", 8), 1u);
	CHECK_EQ(ground_hash_prefixes("5a22ac8", 7), 0u);
	CHECK_EQ(ground_hash_prefixes("ELITE15FIT", 10), 0u);
	CHECK_STR(key(GROUNDING_CODE, "ELITE15FIT"), "ELITE15FIT");
	CHECK_STR(key(GROUNDING_CODE, "A1B2C3"), "A1B2C3");
}

/* The codes of a text, "|"-separated, as ground_next_code() finds them one after another. */
static void codes_of(const char *t, bool addresses, char *out, size_t cap)
{
	struct ground_codes cur = {0};
	size_t at = 0, from, len, n = strlen(t), k = 0;

	out[0] = '\0';
	while ((len = ground_next_code(t, n, &cur, addresses, &from)) > 0) {
		CHECK(from >= at && from + len <= n);
		k += (size_t)snprintf(out + k, cap - MIN(k, cap), "%s%.*s", k ? "|" : "", (int)len, t + from);
		at = from + len;
	}
}

/*
 * Codes in text: each run of letters and digits that is one, not inside a
 * URL, an e-mail address or a path (but in what grounds), nor a colour;
 * "_" joins a run.
 */
TEST(ground_codes_in_text)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"Use ELITE15FIT, not ELITEFIT15: order A1B2C3 (or 9977f3f).", "ELITE15FIT|A1B2C3|9977f3f"},
		{"commit 5a22ac8d3f: README", "5a22ac8d3f"},
		{"https://x.com/A1B2C3D4 www.A1B2C3.com a1b2c3d@x.com src/9f8e7d6c/x", ""},
		{"colour #1A2B3C, not #A1B2C3D4E, and #A1B2C3D", "A1B2C3D4E|A1B2C3D"},
		{"var_A1B2C3 A1B2C3_x A1B2C3-B4 SHA256 H5N1", "A1B2C3"},
		{"http://a.example/A1B2C3D4 then A1B2C3D4 and x/A1B2C3D4", "A1B2C3D4"},
		{"", ""},
		{"A1B2C3", "A1B2C3"},
		/* words and digits joined by "_", the digits last */
		{"certificate_7504069, gift_card_123, local_13; not ab_1, a_123, _1234, ab_123x or ab__123",
		 "certificate_7504069|gift_card_123|local_13"},
		/* a hash among words joined by "_" */
		{"eps1.7_clip_2b007cf0ba98.m4v, FUN_004016ba; not FUN_00401b or in_deadbeef_x",
		 "2b007cf0ba98|004016ba"},
	};
	char got[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		codes_of(cases[i].text, false, got, sizeof(got));
		if (strcmp(got, cases[i].want) != 0)
			fprintf(stderr, "  \"%s\": got \"%s\"\n", cases[i].text, got);
		CHECK_STR(got, cases[i].want);
	}
	/* The names read past: "SHA256", "ELITEFIT15" (glued, five or more), not "H5N1". */
	{
		struct ground_codes cur = {0};
		const char *t = "SHA256 ELITEFIT15 H5N1 A1B2C3";
		size_t from;

		CHECK_EQ(ground_next_code(t, strlen(t), &cur, true, &from), 6u);
		CHECK_EQ(cur.names, 2u);
	}
	/* What grounds says its links' codes too. */
	codes_of("https://x.com/A1B2C3D4 a1b2c3d@x.com src/9f8e7d6c/x #1A2B3C", true, got,
		 sizeof(got));
	CHECK_STR(got, "A1B2C3D4|a1b2c3d|9f8e7d6c");
}

/*
 * Codes: capitals and digits turning twice, at least six; hashes of seven
 * hexadecimal digits or more with a digit and a letter; nothing else.
 */
TEST(ground_codes)
{
	static const char *const codes[] = {
		"ELITE15FIT", "A1B2C3", "9977f3f", "5A22AC8", "RTX4090TI", "1080P60",
		"550e8400", "cafe123",
	};
	static const char *const not_codes[] = {
		"SHA256", "FITNESS15", "UA2371", "4WD", "H5N1", "B2B2C", "COVID-19", "deadbeef",
		"2024", "12345678", "a1b2c3", "Elite15Fit", "abc123", "A1B2C3!", "",
		"A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q7R8S9T0U1V2W3X4Y5Z6A7B8C9D0E1F2G3",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		if (!ground_is_code(codes[i], strlen(codes[i])))
			fprintf(stderr, "  %s is a code\n", codes[i]);
		CHECK(ground_is_code(codes[i], strlen(codes[i])));
	}
	for (i = 0; i < ARRAY_SIZE(not_codes); i++) {
		if (ground_is_code(not_codes[i], strlen(not_codes[i])))
			fprintf(stderr, "  %s is no code\n", not_codes[i]);
		CHECK(!ground_is_code(not_codes[i], strlen(not_codes[i])));
	}
}

/* A code put in is remembered until the reset, evicted or not, and by a copy. */
TEST(ground_codes_remembered)
{
	struct ground *g = NULL, *h = NULL;
	struct buf k = {0};
	char other[16];
	size_t i;

	CHECK_EQ(ground_new(&g), 0);
	CHECK_EQ(ground_new(&h), 0);
	if (!g || !h)
		goto out;
	CHECK_EQ(ground_add(g, "plain", 5, 0), 0);
	CHECK(!ground_codes_held(g));
	CHECK_EQ(ground_key(GROUNDING_CODE, "A1B2C3", 6, &k), 0);
	CHECK_EQ(ground_add(g, k.data, k.len, 1), 0);
	CHECK(ground_codes_held(g));
	for (i = 0; i < GROUND_CAP; i++) {
		snprintf(other, sizeof(other), "k%zu", i);
		CHECK_EQ(ground_add(g, other, strlen(other), 2 + i), 0);
	}
	CHECK(!ground_find(g, k.data, k.len, &(uint64_t){0}));
	CHECK(ground_codes_held(g));
	CHECK_EQ(ground_copy(h, g), 0);
	CHECK(ground_codes_held(h));
	ground_reset(g);
	CHECK(!ground_codes_held(g));
	ground_note_codes(g); /* "ELITEFIT15": no code, but it names a thing so */
	CHECK(ground_codes_held(g));
out:
	buf_free(&k);
	ground_free(g);
	ground_free(h);
}

TEST(ground_set_is_bounded)
{
	struct ground *g = NULL;
	uint64_t at = 0;
	char k[32];
	int i;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	for (i = 0; i < GROUND_CAP + 10; i++) {
		snprintf(k, sizeof(k), "item-%d", i);
		CHECK_EQ(ground_add(g, k, strlen(k), (uint64_t)i), 0);
	}
	/* The ten oldest are gone, the rest are there with their first offset. */
	CHECK(!ground_find(g, "item-0", 6, &at));
	CHECK(!ground_find(g, "item-9", 6, &at));
	CHECK(ground_find(g, "item-10", 7, &at));
	CHECK_EQ(at, 10);
	snprintf(k, sizeof(k), "item-%d", GROUND_CAP + 9);
	CHECK(ground_find(g, k, strlen(k), &at));
	CHECK_EQ(ground_evictions(g), 10);
	/* A repeat keeps the first offset and evicts nothing. */
	CHECK_EQ(ground_add(g, "item-10", 7, 999), 0);
	CHECK(ground_find(g, "item-10", 7, &at));
	CHECK_EQ(at, 10);
	CHECK_EQ(ground_evictions(g), 10);
	ground_reset(g);
	CHECK(!ground_find(g, "item-10", 7, &at));
	ground_free(g);
}

/* ---- quantities: the filed search against a walk over every one ---- */

struct ref_item {
	struct quantity q;
	struct ground_context ctx;
	uint64_t at;
};

static bool ref_share(const struct ground_context *a, const struct ground_context *b)
{
	size_t i, j;

	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++)
			if (a->word[i] == b->word[j])
				return true;
	return false;
}

static size_t ref_shared(const struct ground_context *a, const struct ground_context *b)
{
	size_t i, j, k = 0;

	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++)
			if (a->word[i] == b->word[j]) {
				k++;
				break;
			}
	return k;
}

/*
 * A bare figure with decimals is no candidate to be near a whole count of
 * a noun, or swapped with it, unless its words name the noun (ground.h);
 * the words of these tests are small numbers, which name no noun.
 */
static bool ref_other_measure(const struct quantity *a, const struct quantity *g)
{
	return a->kind == QUANTITY_COUNT && !a->items && a->decimals == 0 && !a->words &&
	       g->kind == QUANTITY_NUMBER && g->decimals > 0;
}

/*
 * The swap ground.h describes: among the 128 newest quantities of a's unit
 * (and, for a count of a noun, of bare numbers), the comparable one a does not state
 * that shares the most context words (two at least), then the nearest,
 * then the youngest; where a figure states a (stated), no bare number for
 * a count of a noun (the words of these tests name no noun).
 */
static const struct ref_item *ref_swap(const struct ref_item *v, size_t n, const struct quantity *a,
				       const struct ground_context *ctx, bool stated)
{
	uint64_t units[2] = {a->unit_hash, quantity_unit_hash("number")};
	const struct ref_item *best = NULL;
	size_t best_k = 0, u, i;
	double best_d = INFINITY;

	for (u = 0; u < (a->kind != QUANTITY_COUNT ? 1u : 2u); u++) {
		size_t walked = 0;

		for (i = n; i-- > 0 && walked < 128;) {
			size_t k;
			double d;

			if (v[i].q.unit_hash != units[u])
				continue;
			walked++;
			if (!quantity_comparable(a, &v[i].q) || quantity_states(a, &v[i].q) ||
			    ref_other_measure(a, &v[i].q))
				continue;
			if (stated && u == 1 && !a->items && a->decimals == 0 && !a->words)
				continue;
			k = ref_shared(ctx, &v[i].ctx);
			if (k < 2 || k < best_k)
				continue;
			d = quantity_distance(a, &v[i].q);
			if (k > best_k || d < best_d || (d == best_d && (!best || &v[i] > best))) {
				best = &v[i];
				best_k = k;
				best_d = d;
			}
		}
	}
	return best;
}

/* What ground_match_quantity() promises, walked oldest first; returns the item's at or -1. */
static long long ref_match(const struct ref_item *v, size_t n, const struct quantity *a,
			   const struct ground_context *ctx, double tolerance, enum ground_verdict *verdict)
{
	const struct ref_item *found[2][2] = {{NULL, NULL}, {NULL, NULL}}, *swap;
	double best[2] = {tolerance, tolerance};
	size_t i;

	for (i = 0; i < n; i++) {
		bool shared = ref_share(ctx, &v[i].ctx);
		double d;

		if (quantity_states(a, &v[i].q)) {
			if (!found[shared][1])
				found[shared][1] = &v[i];
			continue;
		}
		if (!quantity_comparable(a, &v[i].q) || ref_other_measure(a, &v[i].q))
			continue;
		d = quantity_distance(a, &v[i].q);
		if (d <= best[shared]) {
			best[shared] = d;
			found[shared][0] = &v[i];
		}
	}
	*verdict = GROUND_STATED;
	if (found[1][1])
		return (long long)found[1][1]->at;
	swap = ref_swap(v, n, a, ctx, found[0][1] != NULL);
	*verdict = GROUND_SWAPPED;
	if (swap)
		return (long long)swap->at;
	*verdict = GROUND_STATED;
	if (found[0][1])
		return (long long)found[0][1]->at;
	*verdict = GROUND_NEAR;
	if (found[1][0])
		return (long long)found[1][0]->at;
	if (found[0][0])
		return (long long)found[0][0]->at;
	*verdict = GROUND_NONE;
	return -1;
}

static unsigned next_rand(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 16;
}

/* A random quantity as written: few distinct figures, so that many collide. */
static void random_quantity(unsigned *seed, char *buf, size_t cap, struct quantity *q)
{
	static const char *const pre[] = {"", "", "", "$", "\xe2\x82\xac"};
	static const char *const post[] = {"", "", " employees", " staff", " days", " hours", "%",
					    " percent", " billion", " million downloads", " weeks"};
	static const char *const fig[] = {"0", "0.0", "1", "1.0", "1.2", "1.25", "12", "12.6",
					  "13", "14", "15", "120", "125", "150", "383",
					  "383.3", "1,200", "1200", "0.5", "7", "30", "2"};

	do {
		char num[32];
		unsigned r = next_rand(seed);

		/* Half from the list (equal figures), half spread over six orders (bins). */
		if (r % 2)
			snprintf(num, sizeof(num), "%s", fig[(r >> 1) % ARRAY_SIZE(fig)]);
		else
			snprintf(num, sizeof(num), "%u.%0*u", next_rand(seed) % 5000, (int)(r >> 1) % 3 + 1,
				 next_rand(seed) % 1000 % ((r >> 1) % 3 == 0 ? 10 : (r >> 1) % 3 == 1 ? 100 : 1000));
		snprintf(buf, cap, "%s%s%s", pre[next_rand(seed) % ARRAY_SIZE(pre)], num,
			 post[next_rand(seed) % ARRAY_SIZE(post)]);
	} while (!quantity_parse(buf, strlen(buf), q));
}

static void random_context(unsigned *seed, struct ground_context *ctx)
{
	size_t i;

	ctx->n = next_rand(seed) % 4;
	ctx->mask = 0;
	for (i = 0; i < ctx->n; i++) {
		/* words 64 apart share a mask bit: the mask alone must not decide */
		ctx->word[i] = next_rand(seed) % 6 * 64 + next_rand(seed) % 2;
		ctx->mask |= 1ull << (ctx->word[i] % 64);
	}
	ctx->before1 = ctx->after1 = 0; /* no nearest words: no swap by closeness */
	ctx->period = 0;
	ctx->bound = 0;
	ctx->quarter_year = 0;
	ctx->compared = false;
}

TEST(ground_quantities_match_the_walk)
{
	static const double tolerances[] = {0, 0.25, 0.5, 1};
	static struct ref_item ref[GROUND_CAP + 600];
	struct ground *g = NULL;
	unsigned seed = 11;
	size_t n = 0, k, checked = 0, hits = 0;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	/* Past the cap, so that the oldest are evicted as the search runs. */
	for (k = 0; k < GROUND_CAP + 600; k++) {
		char text[64];
		struct ref_item *it = &ref[n];
		size_t j;

		random_quantity(&seed, text, sizeof(text), &it->q);
		random_context(&seed, &it->ctx);
		it->at = k;
		CHECK_EQ(ground_add_quantity(g, &it->q, text, strlen(text), k, &it->ctx), 0);
		n++;
		if (k % 7 != 0)
			continue;
		for (j = 0; j < ARRAY_SIZE(tolerances); j++) {
			const struct ground_quantity *got;
			struct ground_context ctx;
			struct quantity a;
			enum ground_verdict want_states, got_states;
			long long want;
			size_t first = n > GROUND_CAP ? n - GROUND_CAP : 0;

			random_quantity(&seed, text, sizeof(text), &a);
			random_context(&seed, &ctx);
			want = ref_match(ref + first, n - first, &a, &ctx, tolerances[j], &want_states);
			got = ground_match_quantity(g, &a, &ctx, tolerances[j], &got_states);
			checked++;
			hits += want >= 0;
			if ((got ? (long long)got->at : -1) != want || (want >= 0 && got_states != want_states)) {
				fprintf(stderr, "  \"%s\" at tolerance %.2f: want %lld (%d), got %lld (%d)\n",
					text, tolerances[j], want, want_states, got ? (long long)got->at : -1,
					got_states);
				CHECK(!"the filed search differs from the walk");
				k = GROUND_CAP + 600;
				break;
			}
		}
	}
	/* The queries must mostly find something, or the test proves little. */
	CHECK(hits > checked / 2);
	ground_free(g);
}

/* A context of the given words (no nearest words). */
static struct ground_context words_ctx(uint32_t a, uint32_t b)
{
	struct ground_context c = {.word = {a, b}, .n = 2};

	c.mask = 1ull << (a % 64) | 1ull << (b % 64);
	return c;
}

/*
 * The walks of a unit's newest quantities the searches keep are brought up
 * to date as quantities are put in, not walked anew: each, whenever asked
 * for, is what a walk of the unit's list gives (ground_unit_newest_walks()).
 * Over runs of one unit longer than a walk, more units than walks kept,
 * thrice the ring's quantities (so that the oldest are evicted, from walks
 * kept too), and resets.
 */
TEST(ground_unit_walks_brought_up_to_date)
{
	static const char *const units[] = {
		"km", "kg", "number", "percent", "usd", "eur", "hours", "days", "mb", "gb",
		"stars", "reviews", "people", "miles", "ms", "s", "years", "items", "rooms", "pages",
	};
	struct ground *g = NULL;
	uint64_t state = 0x2545f4914f6cdd1dull;
	size_t step, bad = 0, asked = 0;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	for (step = 0; step < 3 * GROUND_CAP;) {
		size_t burst = test_xorshift(&state) % 4 == 0 ? 130 + test_xorshift(&state) % 200
							       : test_xorshift(&state) % 8;
		size_t u = test_xorshift(&state) % ARRAY_SIZE(units), k;
		struct quantity q;

		for (k = 0; k < burst; k++, step++) {
			struct ground_context c = words_ctx((uint32_t)test_xorshift(&state),
							    (uint32_t)test_xorshift(&state));

			/* (mostly the burst's unit, now and then another) */
			quantity_set(&q, QUANTITY_BASE,
				     units[test_xorshift(&state) % 5 ? u : test_xorshift(&state) % ARRAY_SIZE(units)],
				     (double)(test_xorshift(&state) % 1000), 1);
			c.before1 = (uint32_t)test_xorshift(&state);
			CHECK_EQ(ground_add_quantity(g, &q, "1", 1, step, &c), 0);
		}
		for (k = test_xorshift(&state) % 8; k > 0; k--, asked++)
			bad += !ground_unit_newest_walks(
				g, quantity_unit_hash(units[test_xorshift(&state) % ARRAY_SIZE(units)]));
		if (test_xorshift(&state) % 200 == 0)
			ground_reset(g);
	}
	CHECK(asked > 300);
	CHECK_EQ(bad, 0);
	ground_free(g);
}

/*
 * A swap is looked for among the newest of a unit, and an evicted figure is
 * none. "50 employees" is evicted, its ring slot taken by a bare 60 said in
 * its words, which 128 newer bare numbers then push out of the numbers'
 * walk: "55 employees" in those words has no swap; with another 60 among
 * the newest numbers, that 60 is its swap.
 */
TEST(ground_swap_walk_skips_the_evicted)
{
	struct ground_context shared = words_ctx(1001, 2002), other = words_ctx(3003, 4004);
	struct ground *g = NULL;
	struct quantity q;
	enum ground_verdict v;
	const struct ground_quantity *got;
	size_t k;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	CHECK(quantity_parse("50 employees", 12, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "50 employees", 12, 0, &shared), 0);
	for (k = 1; k < GROUND_CAP; k++) {
		CHECK(quantity_parse("7%", 2, &q));
		CHECK_EQ(ground_add_quantity(g, &q, "7%", 2, k, &other), 0);
	}
	CHECK(quantity_parse("60", 2, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "60", 2, GROUND_CAP, &shared), 0); /* evicts the 50 */
	for (k = 0; k < 128; k++) {
		CHECK(quantity_parse("9", 1, &q));
		CHECK_EQ(ground_add_quantity(g, &q, "9", 1, GROUND_CAP + 1 + k, &other), 0);
	}
	CHECK(quantity_parse("55 employees", 12, &q));
	got = ground_match_quantity(g, &q, &shared, 0, &v);
	CHECK(got == NULL);
	CHECK_EQ(v, GROUND_NONE);
	/* and with the 60 among the newest numbers, it is the swap */
	CHECK(quantity_parse("60", 2, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "60", 2, 2 * GROUND_CAP, &shared), 0);
	CHECK(quantity_parse("55 employees", 12, &q));
	got = ground_match_quantity(g, &q, &shared, 0, &v);
	CHECK(got && got->at == 2 * GROUND_CAP);
	CHECK_EQ(v, GROUND_SWAPPED);
	ground_free(g);
}

/*
 * A count of a noun that a grounded figure states ("16 iterations" of a
 * loop's bound, said in other words) is no swap of a bare figure said in
 * two of its words ("my random number was 4") unless that figure's words
 * name its noun; one unstated still is.
 */
TEST(ground_stated_count_swaps_only_its_noun)
{
	static const char *const says = "the random number for";
	struct ground_context ctx, loop, user, named;
	struct ground *g = NULL;
	struct quantity q;
	enum ground_verdict v;
	const struct ground_quantity *got;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	ground_context_of(says + strlen(says), strlen(says), &ctx);
	loop = words_ctx(3003, 4004);
	ground_context_of("my random number was" + 20, 20, &user);
	CHECK(quantity_parse("16", 2, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "16", 2, 1, &loop), 0);
	CHECK(quantity_parse("4", 1, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "4", 1, 2, &user), 0);
	CHECK(quantity_parse("16 iterations", 13, &q));
	got = ground_match_quantity(g, &q, &ctx, 0, &v);
	CHECK(got && got->at == 1);
	CHECK_EQ(v, GROUND_STATED);
	/* unstated, the 4 is what it was changed from */
	CHECK(quantity_parse("14 iterations", 13, &q));
	got = ground_match_quantity(g, &q, &ctx, 0, &v);
	CHECK(got && got->at == 2);
	CHECK_EQ(v, GROUND_SWAPPED);
	/* a bare figure whose words name the iterations is a swap still */
	ground_context_of("random number of iterations" + 27, 27, &named);
	CHECK(quantity_parse("3", 1, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "3", 1, 3, &named), 0);
	CHECK(quantity_parse("16 iterations", 13, &q));
	got = ground_match_quantity(g, &q, &ctx, 0, &v);
	CHECK(got && got->at == 3);
	CHECK_EQ(v, GROUND_SWAPPED);
	ground_free(g);
}

/*
 * The walk over a unit's newest is kept while the set holds the same
 * quantities (ground.c's walk_memo), and never past a change: a bare 60
 * said in the words of "55 employees" is its swap while it is among the
 * 128 newest numbers, asked after every number put in (and twice: the
 * second walk is the kept one), and none from the 129th on. After a reset
 * the same count of quantities, put in another order, is another walk.
 */
TEST(ground_swap_walk_kept_only_while_unchanged)
{
	struct ground_context shared = words_ctx(1001, 2002), other = words_ctx(3003, 4004);
	struct ground *g = NULL;
	struct quantity q, a;
	enum ground_verdict v;
	const struct ground_quantity *got;
	size_t k, r;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	CHECK(quantity_parse("55 employees", 12, &a));
	CHECK(quantity_parse("60", 2, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "60", 2, 0, &shared), 0);
	for (k = 1; k <= 128; k++) {
		CHECK(quantity_parse("9", 1, &q));
		CHECK_EQ(ground_add_quantity(g, &q, "9", 1, k, &other), 0);
		for (r = 0; r < 2; r++) {
			got = ground_match_quantity(g, &a, &shared, 0, &v);
			if (k < 128) {
				CHECK(got && got->at == 0);
				CHECK_EQ(v, GROUND_SWAPPED);
			} else {
				CHECK(got == NULL);
				CHECK_EQ(v, GROUND_NONE);
			}
		}
	}
	/* 9 then 60, asked; reset; 60 then 9: the same slots and count, another walk */
	ground_reset(g);
	CHECK(quantity_parse("9", 1, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "9", 1, 0, &other), 0);
	CHECK(quantity_parse("60", 2, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "60", 2, 1, &shared), 0);
	got = ground_match_quantity(g, &a, &shared, 0, &v);
	CHECK(got && got->at == 1);
	CHECK_EQ(v, GROUND_SWAPPED);
	ground_reset(g);
	CHECK(quantity_parse("60", 2, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "60", 2, 10, &shared), 0);
	CHECK(quantity_parse("9", 1, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "9", 1, 11, &other), 0);
	got = ground_match_quantity(g, &a, &shared, 0, &v);
	CHECK(got && got->at == 10);
	CHECK_EQ(v, GROUND_SWAPPED);
	ground_free(g);
}

/* A context of words whose nearest are before1 and after1 (0: none on that side). */
static struct ground_context near_ctx(const uint32_t *w, size_t n, uint32_t before1, uint32_t after1)
{
	struct ground_context c = {.n = n, .before1 = before1, .after1 = after1};
	size_t i;

	for (i = 0; i < n; i++) {
		c.word[i] = w[i];
		c.mask |= 1ull << (w[i] % 64);
	}
	return c;
}

/*
 * Stated in a shared context, "$946 million" is still a swap where another
 * figure of its unit is said between the very words the answer puts around
 * it ("income was $946 million" of "income was $971 million ..., compared
 * with $946 million"); a swap said between other words leaves it stated.
 * Asked before and after each figure is put in: the walk kept for the first
 * question is not the set's after the second figure.
 */
TEST(ground_swap_between_the_nearest_words)
{
	static const uint32_t answer_w[] = {1010, 2020, 3030}, stating_w[] = {1010, 3030},
			      swap_w[] = {1010, 2020, 4040};
	struct ground_context answer = near_ctx(answer_w, 3, 1010, 2020);
	struct ground_context stating = near_ctx(stating_w, 2, 3030, 0);
	struct ground_context swap_near = near_ctx(swap_w, 3, 1010, 2020);
	struct ground_context swap_far = near_ctx(swap_w, 3, 1010, 4040);
	struct ground *g = NULL;
	struct quantity q, a;
	enum ground_verdict v;
	const struct ground_quantity *got;
	size_t r;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	CHECK(quantity_parse("$946 million", 12, &a));
	CHECK_EQ(ground_add_quantity(g, &a, "$946 million", 12, 1, &stating), 0);
	/* (twice: the second asks the kept walk) */
	for (r = 0; r < 2; r++) {
		got = ground_match_quantity(g, &a, &answer, 0.25, &v);
		CHECK(got && got->at == 1);
		CHECK_EQ(v, GROUND_STATED);
	}
	CHECK(quantity_parse("$971 million", 12, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "$971 million", 12, 2, &swap_far), 0);
	for (r = 0; r < 2; r++) {
		got = ground_match_quantity(g, &a, &answer, 0.25, &v);
		CHECK(got && got->at == 1);
		CHECK_EQ(v, GROUND_STATED);
	}
	CHECK_EQ(ground_add_quantity(g, &q, "$971 million", 12, 3, &swap_near), 0);
	for (r = 0; r < 2; r++) {
		got = ground_match_quantity(g, &a, &answer, 0.25, &v);
		CHECK(got && got->at == 3);
		CHECK_EQ(v, GROUND_SWAPPED);
	}
	ground_free(g);
}

/*
 * A quantity's text is kept in its set's ring of texts: of every length
 * (cut to GROUND_TEXT_MAX - 1), through evictions, the ring's wrapping and
 * growing, a reset and a copy, each held one reads as it was written.
 */
TEST(ground_texts_through_the_ring)
{
	struct ground_context none = {0};
	struct ground *g = NULL, *copy = NULL;
	const struct ground_quantity *gq;
	struct quantity q;
	char text[80], want[80];
	size_t k, round, len;
	bool ok = true;

	CHECK_EQ(ground_new(&g), 0);
	CHECK_EQ(ground_new(&copy), 0);
	if (!g || !copy)
		goto out;
	for (round = 0; round < 2; round++) {
		ground_reset(g);
		/* lengths that change with k (short runs, then long ones), past the cap twice */
		for (k = 0; k < 3 * GROUND_CAP; k++) {
			len = (size_t)snprintf(text, sizeof(text), "%zu %.*s", k, (int)((k / 500 + k * 7) % 70),
					       "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz");
			quantity_set(&q, QUANTITY_NUMBER, "number", (double)k, 1);
			CHECK_EQ(ground_add_quantity(g, &q, text, len, k, &none), 0);
		}
		CHECK_EQ(ground_copy(copy, g), 0);
		for (k = 2 * GROUND_CAP; k < 3 * GROUND_CAP; k++) {
			len = (size_t)snprintf(want, sizeof(want), "%zu %.*s", k, (int)((k / 500 + k * 7) % 70),
					       "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz");
			want[MIN(len, (size_t)GROUND_TEXT_MAX - 1)] = '\0';
			quantity_set(&q, QUANTITY_NUMBER, "number", (double)k, 1);
			gq = ground_figure_held(g, &q);
			ok &= gq && gq->at == k && strcmp(gq->text, want) == 0;
			gq = ground_figure_held(copy, &q);
			ok &= gq && gq->at == k && strcmp(gq->text, want) == 0;
		}
		CHECK(ok);
		/* the evicted are gone */
		quantity_set(&q, QUANTITY_NUMBER, "number", (double)(2 * GROUND_CAP - 1), 1);
		CHECK(ground_figure_held(g, &q) == NULL);
	}
out:
	ground_free(copy);
	ground_free(g);
}

/* Figures are read to the same double strtod() reads, on its fast path and off it. */
TEST(quantity_values_are_strtod)
{
	static const char *const figures[] = {
		"0.1", "0.3", "1,234.5678", "383.3", "69.8", "12.6", "0.000001", "7.25",
		"999999999999999", "123456789012345.6", "1,000,000,000.01", "3.14159265",
		"42", "0.5", "100.10",
	};
	unsigned seed = 3;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(figures) + 2000; i++) {
		char text[64], plain[64];
		struct quantity q;
		size_t j, k = 0;

		if (i < ARRAY_SIZE(figures))
			snprintf(text, sizeof(text), "%s", figures[i]);
		else
			snprintf(text, sizeof(text), "%u.%u", next_rand(&seed) * 7919u % 100000u,
				 next_rand(&seed) % 100000u);
		for (j = 0; text[j]; j++)
			if (text[j] != ',')
				plain[k++] = text[j];
		plain[k] = '\0';
		CHECK(quantity_parse(text, strlen(text), &q));
		if (q.value != strtod(plain, NULL)) {
			fprintf(stderr, "  %s: %.17g, strtod %.17g\n", text, q.value, strtod(plain, NULL));
			CHECK(!"a figure reads otherwise than strtod reads it");
			break;
		}
	}
}

/* ---- every key builder and the quantity parser, on any bytes ---- */

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#define PIECE(s) {s, sizeof(s) - 1}
/* What the builders look for, and bytes that start or end a UTF-8 sequence. */
static const struct {
	const char *s;
	size_t n;
} pieces[] = {
	PIECE("#"), PIECE(":"), PIECE("/"), PIECE("."), PIECE(","), PIECE("://"), PIECE("http"),
	PIECE("HTTPS"), PIECE(":80"), PIECE(":443"), PIECE("?"), PIECE("$"), PIECE("%"), PIECE(" "),
	PIECE("\t"), PIECE("-"), PIECE("0"), PIECE("00"), PIECE("7"), PIECE("1,234"), PIECE(".5"),
	PIECE("2024"), PIECE("x"), PIECE("X"), PIECE("p"), PIECE("\xc3\x97"), PIECE("\xe2\x82\xac"),
	PIECE("\xc2\xa3"), PIECE("US$"), PIECE("percent"), PIECE("billion"), PIECE("k"), PIECE("B"),
	PIECE("twenty"), PIECE("one"), PIECE("Q3"), PIECE("third quarter"), PIECE("days"),
	PIECE("employees"), PIECE("et al."), PIECE("According to"), PIECE("Smith"), PIECE("'"),
	PIECE("("), PIECE(")"), PIECE("\xc3"), PIECE("\xe2\x82"), PIECE("\xf0"), PIECE("\x80"),
	PIECE("\xff"), PIECE("\0"), PIECE("\n"), PIECE("!"),
};

/* One byte of "#:/.,$", a digit or a UTF-8 lead byte. */
static char adversarial_byte(uint64_t *seed)
{
	static const char some[] = "#:/.,$%-? 0123456789";
	uint64_t r = xorshift(seed);

	if (r % 3 == 0)
		return (char)(0xc0 + (r >> 8) % 0x40);
	return some[(r >> 8) % (sizeof(some) - 1)];
}

/* Fills b with n bytes of one of four kinds; returns n. */
static size_t random_text(uint64_t *seed, int kind, char *b, size_t n)
{
	size_t i = 0, k;

	switch (kind) {
	case 0: /* any byte */
		for (i = 0; i < n; i++)
			b[i] = (char)xorshift(seed);
		break;
	case 1:
		for (i = 0; i < n; i++)
			b[i] = adversarial_byte(seed);
		break;
	case 2: /* pieces end to end, the last one cut */
		while (i < n) {
			k = xorshift(seed) % ARRAY_SIZE(pieces);
			memcpy(b + i, pieces[k].s, MIN(pieces[k].n, n - i));
			i += MIN(pieces[k].n, n - i);
		}
		break;
	default: /* one piece over and over */
		k = xorshift(seed) % ARRAY_SIZE(pieces);
		for (; i < n; i++)
			b[i] = pieces[k].s[i % pieces[k].n];
		break;
	}
	return n;
}

/* Runs every builder on t[0..n); t is a heap block of exactly n bytes, so a read past it shows. */
static void keys_hold(struct ground *g, struct buf *b, struct buf *again, const char *t, size_t n,
		      uint64_t *seed)
{
	struct ground_context ctx, before_ctx;
	struct quantity q;
	enum ground_verdict verdict;
	size_t i, cut = n ? xorshift(seed) % (n + 1) : 0;
	uint64_t at;
	int k;

	for (k = GROUNDING_EXACT; k <= GROUNDING_QUANTITY; k++) {
		CHECK_EQ(ground_key((enum grounding)k, t, n, b), 0);
		CHECK_EQ(ground_key((enum grounding)k, t, n, again), 0);
		/* The kind, then at most the text and one byte ('%' for "p"). */
		if (b->len < 1 || b->len > n + 2 || b->data[0] != '0' + k || b->len != again->len ||
		    memcmp(b->data, again->data, b->len) != 0) {
			fprintf(stderr, "  kind %d, %zu bytes: a key of %zu bytes\n", k, n, b->len);
			CHECK(!"a key builder went wrong");
			return;
		}
		if (b->len > 1) {
			CHECK_EQ(ground_add(g, b->data, b->len, n), 0);
			CHECK(ground_find(g, b->data, b->len, &at));
		}
	}
	ground_context_of(t + n, n, &ctx);
	CHECK(ctx.n <= GROUND_CONTEXT);
	for (i = 0; i < ctx.n; i++)
		CHECK(ctx.mask & 1ull << (ctx.word[i] % 64));
	{
		/* A key path's word read for less: what ground_context_of() reads. */
		struct ground_context key;

		ground_context_key(t, n, &key);
		CHECK(key.n == ctx.n && key.mask == ctx.mask && key.before1 == ctx.before1 &&
		      key.after1 == ctx.after1 && memcmp(key.word, ctx.word, ctx.n * sizeof(*ctx.word)) == 0);
	}
	ground_context_of(t + cut, cut, &before_ctx);
	CHECK(before_ctx.n <= GROUND_CONTEXT);
	{
		/* The nearest words alone, as the full contexts find them. */
		struct ground_context full = before_ctx, nearest;

		ground_context_after(t + cut, n - cut, &full);
		ground_context_nearest(t + cut, cut, t + cut, n - cut, &nearest);
		CHECK(nearest.before1 == full.before1 && nearest.after1 == full.after1);
	}
	if (!quantity_parse(t, n, &q))
		return;
	CHECK(strnlen(q.unit, sizeof(q.unit)) < sizeof(q.unit));
	CHECK(q.unit_hash == quantity_unit_hash(q.unit));
	CHECK(q.kind == QUANTITY_COUNT || q.kind == QUANTITY_NUMBER || q.kind == QUANTITY_BASE);
	CHECK(q.decimals >= 0 && q.decimals < 64);
	CHECK(q.scale > 0 && isfinite(q.scale));
	CHECK(!isnan(q.value) && q.value >= 0);
	CHECK_EQ(ground_add_quantity(g, &q, t, n, n, &ctx), 0);
	ground_match_quantity(g, &q, &before_ctx, 0.5, &verdict);
	ground_match_quantity(g, &q, &ctx, 0, &verdict);
}

TEST(ground_keys_on_any_bytes)
{
	struct buf b = {0}, again = {0};
	struct ground *g = NULL;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t n, runs = 0, parsed = 0;
	int kind, round;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	for (round = 0; round < 3; round++) {
		for (n = 0; n <= 600; n++) {
			for (kind = 0; kind < 4; kind++) {
				/* malloc(0) may be NULL: the builders take no pointer then too. */
				char *t = malloc(n);
				struct quantity q;

				if (n && !t) {
					CHECK(!"out of memory");
					goto out;
				}
				random_text(&seed, kind, t, n);
				keys_hold(g, &b, &again, t, n, &seed);
				parsed += quantity_parse(t, n, &q);
				runs++;
				free(t);
			}
		}
	}
	/* The texts must reach the parsers' paths, or the test proves little. */
	CHECK_EQ(runs, 3 * 601 * 4);
	CHECK(parsed > runs / 10);
out:
	buf_free(&b);
	buf_free(&again);
	ground_free(g);
}

/*
 * Long runs of one piece: each builder's work grows with the text, no
 * faster. (Dropping leading zeros one move per zero took 24 s for 1 MiB of
 * them, four times as long per doubling; here it would take minutes.)
 */
TEST(ground_keys_on_long_runs)
{
	static const char *const runs[] = {"0", "://", "#", "1,", "A ", "00.", "$0", "/"};
	const size_t n = 4 << 20;
	struct buf b = {0};
	char *t = malloc(n);
	size_t i, j;

	if (!t) {
		CHECK(!"out of memory");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		size_t k = strlen(runs[i]);
		struct quantity q;
		int kind;

		for (j = 0; j < n; j++)
			t[j] = runs[i][j % k];
		for (kind = GROUNDING_EXACT; kind <= GROUNDING_QUANTITY; kind++) {
			CHECK_EQ(ground_key((enum grounding)kind, t, n, &b), 0);
			CHECK(b.len >= 1 && b.len <= n + 2);
		}
		quantity_parse(t, n, &q);
	}
	/* Four million zeros are the figure 0. */
	memset(t, '0', n);
	CHECK_EQ(ground_key(GROUNDING_NUMBER, t, n, &b), 0);
	CHECK(b.len == 2 && b.data[1] == '0');
	free(t);
	buf_free(&b);
}

/* A NUL after a sum is no scale letter: "$5" then NUL is five dollars, not five billion. */
TEST(quantity_nul_is_no_scale)
{
	struct quantity q;

	CHECK(quantity_parse("$5\0", 3, &q));
	CHECK_STR(q.unit, "usd");
	CHECK(q.value == 5);
	CHECK(quantity_parse("$5B", 3, &q));
	CHECK(q.value == 5e9);
}

/* A figure states itself however many steps of its precision it holds
 * (fuzz/repro/keys: cents past 2^52 steps came back 1.5e-8 off). */
TEST(quantity_states_itself_at_any_magnitude)
{
	static const char *const figures[] = {
		"$98,765,432.10", "$255555555555.55", "$2555555555555.55", "12345678.9 percent",
		"$1,234,567.89", "0.000001", "999999999999999 employees", "$1.2 billion",
		"123456789012345.6", "$9,999,999,999,999.99999999",
		/* (2^48 to 2^52 steps: where a nudge of 4 ulp reaches half a step) */
		"$555555533000000", "$1,000,000,000,000,000", "2814749767106.56 percent",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(figures); i++) {
		struct quantity q;

		CHECK(quantity_parse(figures[i], strlen(figures[i]), &q));
		if (!quantity_states(&q, &q)) {
			fprintf(stderr, "  %s\n", figures[i]);
			CHECK(!"a figure does not state itself");
		}
	}
}

/*
 * ground_context_shared() compares four of b's words at a time: it counts
 * what a word-by-word reading counts (each of a's words held by b, a
 * repeat in a counted again), and never a word past b's count, whatever
 * that place holds. Words 64 apart, so that the masks let most through.
 */
TEST(ground_context_shared_counts_word_by_word)
{
	uint64_t state = 0x51ed2701u;
	size_t iter, bad = 0;

	for (iter = 0; iter < 20000; iter++) {
		struct ground_context a, b;
		size_t i, j, want = 0;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.n = test_xorshift(&state) % (GROUND_CONTEXT + 1);
		b.n = test_xorshift(&state) % (GROUND_CONTEXT + 1);
		for (i = 0; i < GROUND_CONTEXT; i++) {
			a.word[i] = (uint32_t)(test_xorshift(&state) % 6 * 64 + 7);
			b.word[i] = (uint32_t)(test_xorshift(&state) % 6 * 64 + 7);
		}
		for (i = 0; i < a.n; i++)
			a.mask |= 1ull << (a.word[i] % 64);
		for (i = 0; i < b.n; i++)
			b.mask |= 1ull << (b.word[i] % 64);
		for (i = 0; i < a.n; i++)
			for (j = 0; j < b.n; j++)
				if (a.word[i] == b.word[j]) {
					want++;
					break;
				}
		bad += ground_context_shared(&a, &b) != want;
	}
	CHECK_EQ(bad, 0);
}

TEST(context_leaves_out_every_stop_word)
{
	/* The list in ground.c, each in two spellings: its hash there must be
	 * its word's, or the word would be a context word here. */
	static const char *const words[] = {
		"about", "after", "also", "and", "are", "been", "billion", "but", "cent",
		"dollars", "for", "from", "had", "has", "have", "its", "million", "more",
		"percent", "per", "than", "that", "the", "their", "thousand", "this",
		"trillion", "was", "were", "which", "while", "with",
	};
	static const char one[] = "apples", two[] = "apples thee";
	struct ground_context ctx, apples;
	char text[64], upper[64];
	size_t i, k;

	ground_context_of(one + 6, 6, &apples);
	CHECK_EQ(apples.n, 1);
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		snprintf(text, sizeof(text), "apples %s", words[i]);
		ground_context_of(text + strlen(text), strlen(text), &ctx);
		CHECK_EQ(ctx.n, 1);
		CHECK_EQ(ctx.word[0], apples.word[0]);
		for (k = 0; text[k]; k++)
			upper[k] = (char)toupper((unsigned char)text[k]);
		upper[k] = '\0';
		ground_context_of(upper + k, k, &ctx);
		CHECK_EQ(ctx.n, 1);
		ctx = (struct ground_context){0};
		ground_context_after(text + 7, strlen(text) - 7, &ctx);
		CHECK_EQ(ctx.n, 0);
	}
	/* Not a stop word: a word of the same length and first letter. */
	ground_context_of(two + 11, 11, &ctx);
	CHECK_EQ(ctx.n, 2);
}

TEST(ground_days_read_from_text)
{
	static const struct {
		const char *text;
		unsigned days;
	} cases[] = {
		{"on Monday", 0x01},
		{"Mondays", 0x01},
		{"Mon", 0x01},
		{"Tues and Thur", 0x02 | 0x08},
		{"Monday through Friday", 0x1f},
		{"Monday to Sunday", 0x7f},
		{"Mon-Fri", 0x1f},
		{"Friday \xe2\x80\x93 Sunday", 0x70},
		{"Saturday until Tuesday", 0x20 | 0x40 | 0x01 | 0x02},
		{"on weekdays", 0x1f},
		{"on weekends", 0x60},
		{"daily", 0x7f},
		{"every day", 0x7f},
		{"open 7 days a week from", 0x7f},
		{"seven days a week", 0x7f},
		{"five days a week", 0},
		{"17 days a week", 0},
		{"one day", 0},
		{"monsoon season", 0},
		{"to Friday", 0x10},
		{"daily except Mondays", 0x7e},
		{"every day excluding Saturday and Sunday", 0x1f},
		{"except Monday", 0},
		{"", 0},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned got = ground_days(cases[i].text, strlen(cases[i].text));

		if (got != cases[i].days)
			fprintf(stderr, "  \"%s\": days 0x%x, not 0x%x\n", cases[i].text, got,
				cases[i].days);
		CHECK_EQ(got, cases[i].days);
	}
	CHECK_STR(ground_day_name(GROUND_DAY(2)), "Wednesday");
	CHECK(ground_day_name(0x03) == NULL);
}

TEST(ground_times_of_days)
{
	/* Every name a day's hours are filed under, as a JSON key would give it. */
	static const struct {
		const char *key;
		int day;
	} keys[] = {
		{"Monday", 0}, {"mondays", 0}, {"Mon", 0}, {"Tuesday", 1}, {"Tuesdays", 1},
		{"Tue", 1}, {"Tues", 1}, {"Wednesday", 2}, {"Wednesdays", 2}, {"Wed", 2},
		{"Thursday", 3}, {"Thursdays", 3}, {"Thu", 3}, {"Thur", 3}, {"Thurs", 3},
		{"Friday", 4}, {"Fridays", 4}, {"Fri", 4}, {"Saturday", 5}, {"Saturdays", 5},
		{"Sat", 5}, {"Sunday", 6}, {"Sundays", 6}, {"Sun", 6},
	};
	struct ground *g = NULL;
	struct ground_context ctx;
	struct quantity open, close, said;
	size_t i;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	quantity_set(&open, QUANTITY_TIME, "time:clock", 9 * 60, 60);
	quantity_set(&close, QUANTITY_TIME, "time:clock", 17 * 60, 60);
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct ground_quantity *d;

		ground_reset(g);
		ground_context_of(keys[i].key + strlen(keys[i].key), strlen(keys[i].key), &ctx);
		CHECK_EQ(ground_add_quantity(g, &open, "9:0", 3, 0, &ctx), 0);
		CHECK_EQ(ground_add_quantity(g, &close, "17:0", 4, 4, &ctx), 0);
		/* 5 pm that day is said; 6 pm is not, and names the day's nearest time. */
		CHECK(ground_check_days(g, &close, GROUND_DAY(keys[i].day)) == NULL);
		quantity_set(&said, QUANTITY_TIME, "time:clock", 18 * 60, 60);
		d = ground_check_days(g, &said, GROUND_DAY(keys[i].day));
		CHECK(d != NULL && d->days == GROUND_DAY(keys[i].day) && d->q.value == 17 * 60);
		/* Another day's hours are not known: nothing to contradict. */
		CHECK(ground_check_days(g, &said, GROUND_DAY((keys[i].day + 1) % 7)) == NULL);
	}
	ground_free(g);
}

/*
 * A JSON array's number of items states a count of what its key names,
 * singular or plural, and nothing else: not a bare number, not another
 * noun's count, not another number of them.
 */
TEST(quantity_items_state_only_their_nouns)
{
	static const char *const results[] = {"search", "results"};
	static const char *const reviews[] = {"business", "review", "info"};
	static const char *const matches[] = {"matches"};
	static const struct {
		const char *const *words;
		size_t n_words;
		double count;
		const char *said;
		bool states;
	} cases[] = {
		{results, 2, 3, "3 results", true},
		{results, 2, 3, "4 results", false},
		{results, 2, 3, "3 servers", false},
		{results, 2, 3, "3", false},
		{reviews, 3, 2, "2 reviews", true},
		{reviews, 3, 2, "2 businesses", false}, /* (the last two key words only) */
		{matches, 1, 4, "4 matches", true},
		{matches, 1, 1, "1 match", true},
		/* an array with no key: a count of whatever its items are called */
		{NULL, 0, 4, "4 flights", true},
		{NULL, 0, 4, "5 flights", false},
		{NULL, 0, 4, "4", false},
	};
	struct quantity a, g;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		quantity_set_items(&g, cases[i].words, cases[i].n_words, cases[i].count);
		CHECK(g.items && g.kind == QUANTITY_COUNT && g.value == cases[i].count);
		CHECK(quantity_parse(cases[i].said, strlen(cases[i].said), &a));
		if (quantity_states(&a, &g) != cases[i].states)
			fprintf(stderr, "  %s against %s\n", cases[i].said, g.unit);
		CHECK(quantity_states(&a, &g) == cases[i].states);
	}
}

TEST(quantity_rounding_stays_near)
{
	/* Rounding to the written precision states a figure only within 5%. */
	static const struct {
		const char *said, *source;
		bool states;
	} cases[] = {
		{"$383 billion", "$383.3 billion", true},
		{"70%", "69.8%", true},
		{"$1.2 billion", "$1,160 million", true},
		{"$2 billion", "$1.8 billion", false},
		{"5%", "4.6%", false},
		{"20%", "19.5%", true},
		/* A half rounds away from zero, also where binary falls a hair
		 * short of it (1.65 / 0.1 = 16.499999999999996). */
		{"$1.7 billion", "$1.65 billion", true},
		{"$1.6 billion", "$1.65 billion", false},
		{"$2.68", "$2.675", true},
		{"$2.67", "$2.675", false},
		{"12.3%", "12.25%", true},
		{"12.2%", "12.25%", false},
	};
	struct quantity a, g;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		CHECK(quantity_parse(cases[i].said, strlen(cases[i].said), &a));
		CHECK(quantity_parse(cases[i].source, strlen(cases[i].source), &g));
		if (quantity_states(&a, &g) != cases[i].states)
			fprintf(stderr, "  %s for %s\n", cases[i].said, cases[i].source);
		CHECK(quantity_states(&a, &g) == cases[i].states);
	}
}

/*
 * Periods set after the quantities were added reach only those still held
 * (the oldest evicted keep nothing); a figure said otherwise by every one
 * that states it is found, one a single stating quantity says alike is not.
 */
TEST(ground_periods_and_bounds_said_otherwise)
{
	struct ground *g = NULL;
	struct ground_context ctx;
	struct quantity five, fifty;
	const struct ground_quantity *got;
	uint64_t first, mark;
	uint32_t q4 = QUANTITY_PERIOD(2020, 4), q3 = QUANTITY_PERIOD(2019, 3);
	size_t i;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	quantity_set(&five, QUANTITY_BASE, "usd", 5, 1);
	quantity_set(&fifty, QUANTITY_NUMBER, "number", 50, 1);
	ground_context_of("EPS" + 3, 3, &ctx);
	CHECK(!ground_has_periods(g));
	/* More than the set holds: "$7" fills it, three "$5" evict the oldest
	 * (the ring has wrapped); a period over all of them, evicted ones
	 * included, reaches the three. */
	first = ground_next_seq(g);
	quantity_set(&fifty, QUANTITY_BASE, "usd", 7, 1);
	for (i = 0; i < GROUND_CAP; i++)
		CHECK_EQ(ground_add_quantity(g, &fifty, "$7", 2, i, &ctx), 0);
	for (i = 0; i < 3; i++)
		CHECK_EQ(ground_add_quantity(g, &five, "$5", 2, GROUND_CAP + i, &ctx), 0);
	mark = ground_next_seq(g);
	CHECK_EQ(mark - first, (uint64_t)GROUND_CAP + 3);
	CHECK(ground_said_otherwise(g, &five, q3, 0) == NULL);
	ground_set_period(g, first, mark, q4);
	CHECK(ground_has_periods(g));
	got = ground_said_otherwise(g, &five, q3, 0);
	CHECK(got != NULL && got->at == GROUND_CAP + 2 && got->ctx.period == q4);
	/* 64 at most are read: too many said alike to decide on. */
	CHECK(ground_said_otherwise(g, &fifty, q3, 0) == NULL);
	quantity_set(&fifty, QUANTITY_NUMBER, "number", 50, 1);

	ground_reset(g);
	CHECK(!ground_has_periods(g));
	first = ground_next_seq(g);
	for (i = 0; i < 3; i++)
		CHECK_EQ(ground_add_quantity(g, &five, "$5", 2, 10 * i, &ctx), 0);
	ground_set_period(g, first, ground_next_seq(g), q4);
	got = ground_said_otherwise(g, &five, q3, 0);
	CHECK(got != NULL && got->at == 20 && got->ctx.period == q4); /* the newest */
	CHECK(ground_said_otherwise(g, &five, QUANTITY_PERIOD(2020, 0), 0) == NULL);
	CHECK(ground_said_otherwise(g, &five, 0, 0) == NULL);
	/* One more "$5" said of no period: nothing is said otherwise. */
	CHECK_EQ(ground_add_quantity(g, &five, "$5", 2, 40, &ctx), 0);
	CHECK(ground_said_otherwise(g, &five, q3, 0) == NULL);

	/* Bounds: "over 50" grounds "less than 50" as the other side only. */
	ground_reset(g);
	ctx.bound = 1;
	CHECK_EQ(ground_add_quantity(g, &fifty, "50", 2, 0, &ctx), 0);
	got = ground_said_otherwise(g, &fifty, 0, -1);
	CHECK(got != NULL && got->ctx.bound == 1);
	CHECK(ground_said_otherwise(g, &fifty, 0, 1) == NULL);
	ctx.bound = 0;
	CHECK_EQ(ground_add_quantity(g, &fifty, "50", 2, 5, &ctx), 0);
	CHECK(ground_said_otherwise(g, &fifty, 0, -1) == NULL);
	ground_free(g);
}

/*
 * A quarter-year the grounding only compares with ("up from $0.29 in the
 * third quarter of 2019") is found while it reports on another, and named
 * by that other (of the same quarter where there is one); once it is
 * reported on, even by a quantity since evicted, never. A figure said of
 * a period exactly is found by it.
 */
TEST(ground_quarter_compared_only)
{
	struct ground *g = NULL;
	struct ground_context ctx;
	struct quantity y19, y20, eps, seven;
	uint32_t q3_19 = QUANTITY_PERIOD(2019, 3), q3_20 = QUANTITY_PERIOD(2020, 3);
	uint32_t q2_20 = QUANTITY_PERIOD(2020, 2);
	uint64_t at = 0;
	size_t i;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	quantity_set(&y19, QUANTITY_YEAR, "date:year", 2019, 1);
	quantity_set(&y20, QUANTITY_YEAR, "date:year", 2020, 1);
	CHECK(quantity_parse("$0.29", 5, &eps));
	ground_context_of("EPS" + 3, 3, &ctx);
	CHECK(!ground_has_periods(g));
	/* compared with only, nothing reported on: nothing to say */
	ctx.quarter_year = q3_19;
	ctx.compared = true;
	CHECK_EQ(ground_add_quantity(g, &y19, "2019", 4, 10, &ctx), 0);
	CHECK(!ground_has_periods(g));
	CHECK_EQ(ground_compared_only(g, q3_19, &at), 0u);
	/* a report on Q2 2020, then on Q3 2020: the same quarter is named */
	ctx.quarter_year = q2_20;
	ctx.compared = false;
	CHECK_EQ(ground_add_quantity(g, &y20, "2020", 4, 20, &ctx), 0);
	CHECK(ground_has_periods(g));
	CHECK_EQ(ground_compared_only(g, q3_19, &at), q2_20);
	CHECK_EQ(at, 20u);
	ctx.quarter_year = q3_20;
	CHECK_EQ(ground_add_quantity(g, &y20, "2020", 4, 30, &ctx), 0);
	ctx.quarter_year = q2_20;
	CHECK_EQ(ground_add_quantity(g, &y20, "2020", 4, 40, &ctx), 0);
	CHECK_EQ(ground_compared_only(g, q3_19, &at), q3_20);
	CHECK_EQ(at, 30u);
	/* what is reported on, a quarter-year never said, a year alone: nothing */
	CHECK_EQ(ground_compared_only(g, q3_20, &at), 0u);
	CHECK_EQ(ground_compared_only(g, QUANTITY_PERIOD(2018, 3), &at), 0u);
	CHECK_EQ(ground_compared_only(g, QUANTITY_PERIOD(2019, 0), &at), 0u);
	/* the figure of the comparison, said of Q3 2019 */
	ctx.quarter_year = 0;
	ctx.period = q3_19;
	CHECK_EQ(ground_add_quantity(g, &eps, "$0.29", 5, 50, &ctx), 0);
	CHECK(ground_said_of(g, &eps, q3_19) != NULL && ground_said_of(g, &eps, q3_19)->at == 50);
	CHECK(ground_said_of(g, &eps, q3_20) == NULL);
	CHECK(quantity_parse("$0.30", 5, &seven));
	CHECK(ground_said_of(g, &seven, q3_19) == NULL);
	/* Q3 2019 reported on once, the year then evicted by 4,096 others: the
	 * report is remembered, the comparison is no longer alone. */
	ctx.period = 0;
	ctx.quarter_year = q3_19;
	ctx.compared = false;
	CHECK_EQ(ground_add_quantity(g, &y19, "2019", 4, 60, &ctx), 0);
	ctx.quarter_year = 0;
	quantity_set(&seven, QUANTITY_BASE, "usd", 7, 1);
	for (i = 0; i < GROUND_CAP; i++)
		CHECK_EQ(ground_add_quantity(g, &seven, "$7", 2, 100 + i, &ctx), 0);
	ctx.quarter_year = q3_19;
	ctx.compared = true;
	CHECK_EQ(ground_add_quantity(g, &y19, "2019", 4, 9000, &ctx), 0);
	CHECK_EQ(ground_compared_only(g, q3_19, &at), 0u);
	ground_reset(g);
	CHECK(!ground_has_periods(g));
	CHECK_EQ(ground_add_quantity(g, &y19, "2019", 4, 10, &ctx), 0);
	CHECK_EQ(ground_compared_only(g, q3_19, &at), 0u);
	ground_free(g);
}

/* The newest quantities put in the sources: asked for again by name. */
static struct quantity last_q[16];
static size_t n_last;

/* dst and ref answer alike: every key src held, and queries of every kind. */
static bool same_answers(const struct ground *dst, const struct ground *ref, unsigned *seed)
{
	static const double tolerances[] = {0, 0.25};
	bool same = ground_active(dst) == ground_active(ref) &&
		    ground_has_periods(dst) == ground_has_periods(ref) &&
		    ground_days_held(dst) == ground_days_held(ref) &&
		    ground_codes_held(dst) == ground_codes_held(ref) &&
		    ground_evictions(dst) == ground_evictions(ref);
	size_t k, j;

	for (k = 0; k < 600 && same; k++) {
		char key[16];
		uint64_t at_d = 0, at_r = 0;
		bool in_d, in_r;

		snprintf(key, sizeof(key), "k%zu", k * 11 % 6000);
		in_d = ground_find(dst, key, strlen(key), &at_d);
		in_r = ground_find(ref, key, strlen(key), &at_r);
		same = in_d == in_r && at_d == at_r;
	}
	for (k = 0; k < 120 + ARRAY_SIZE(last_q) && same; k++) {
		char text[64];
		struct ground_context ctx;
		struct quantity a;

		random_quantity(seed, text, sizeof(text), &a);
		random_context(seed, &ctx);
		if (k >= 120) {
			if (k - 120 >= MIN(n_last, ARRAY_SIZE(last_q)))
				break;
			a = last_q[k - 120]; /* one the sources said: its period counts */
		}
		for (j = 0; j < ARRAY_SIZE(tolerances) && same; j++) {
			enum ground_verdict vd, vr;
			const struct ground_quantity *d = ground_match_quantity(dst, &a, &ctx, tolerances[j], &vd);
			const struct ground_quantity *r = ground_match_quantity(ref, &a, &ctx, tolerances[j], &vr);

			same = vd == vr && (d ? (long long)d->at : -1) == (r ? (long long)r->at : -1) &&
			       (!d || strcmp(d->text, r->text) == 0);
		}
		if (same) {
			const struct ground_quantity *d, *r;

			d = ground_said_otherwise(dst, &a, QUANTITY_PERIOD(2019, 3), 0);
			r = ground_said_otherwise(ref, &a, QUANTITY_PERIOD(2019, 3), 0);
			same = (d ? (long long)d->at : -1) == (r ? (long long)r->at : -1);
		}
	}
	/* The quarter-years reported on and compared with (add_one()). */
	for (k = 0; k < 8 && same; k++) {
		uint32_t p = QUANTITY_PERIOD(2019 + k / 4, k % 4 + 1);
		uint64_t at_d = 0, at_r = 0;

		same = ground_compared_only(dst, p, &at_d) == ground_compared_only(ref, p, &at_r) &&
		       at_d == at_r;
	}
	return same;
}

/* Puts a key and a quantity in g, as a tool message's line would. */
static void add_one(struct ground *g, unsigned *seed, uint64_t *at)
{
	struct ground_context ctx;
	struct quantity q;
	char text[64], key[16];

	snprintf(key, sizeof(key), "k%u", next_rand(seed) % 6000);
	/* now and then a code's key, or a name of letters and digits */
	if (next_rand(seed) % 300 == 0)
		snprintf(key, sizeof(key), "%cA1B2C%u", '0' + GROUNDING_CODE, next_rand(seed) % 10);
	if (next_rand(seed) % 300 == 0)
		ground_note_codes(g);
	CHECK_EQ(ground_add(g, key, strlen(key), (*at)++), 0);
	random_quantity(seed, text, sizeof(text), &q);
	random_context(seed, &ctx);
	/* Now and then a quarter's year, reported on or compared with. */
	if (next_rand(seed) % 5 == 0) {
		unsigned y = 2019 + next_rand(seed) % 2;

		quantity_set(&q, QUANTITY_YEAR, "date:year", y, 1);
		snprintf(text, sizeof(text), "%u", y);
		ctx.quarter_year = QUANTITY_PERIOD(y, 1 + next_rand(seed) % 4);
		ctx.compared = next_rand(seed) % 3 != 0;
	}
	CHECK_EQ(ground_add_quantity(g, &q, text, strlen(text), (*at)++, &ctx), 0);
	last_q[n_last++ % ARRAY_SIZE(last_q)] = q;
}

/*
 * A set kept in sync with the sources (a tool message at a time, the
 * reply's own tool spans added between) answers as a fresh copy would:
 * through the cap, periods set on what a message said, resets, and a
 * changed copy (which must be copied whole).
 */
TEST(ground_sync_is_a_copy)
{
	struct ground *src = NULL, *dst = NULL, *ref = NULL;
	unsigned seed = 5, newest = 0, whole = 0;
	uint64_t at = 0;
	size_t round, k;

	CHECK_EQ(ground_new(&src), 0);
	CHECK_EQ(ground_new(&dst), 0);
	CHECK_EQ(ground_new(&ref), 0);
	if (!src || !dst || !ref)
		goto out;
	for (round = 0; round < 160; round++) {
		unsigned r = next_rand(&seed), n = r % 7 == 0 ? 900 : r % 60;
		uint64_t first = ground_next_seq(src);
		char text[64];
		struct ground_context ctx;
		struct quantity q;
		int got;

		if (r % 41 == 0)
			ground_reset(src);
		if (r % 3)
			ground_activate(src);
		/* A tool message: keys (some said before) and quantities. */
		for (k = 0; k < n; k++)
			add_one(src, &seed, &at);
		/* Its figures said of a quarter; rarely, older ones too (a whole copy). */
		if (r % 5 == 1)
			ground_set_period(src, r % 25 == 1 && first > 3 ? first - 3 : first,
					  ground_next_seq(src), QUANTITY_PERIOD(2020, 4));
		got = ground_sync(dst, src);
		CHECK(got >= 0);
		newest += got == 1;
		whole += got == 0;
		CHECK_EQ(ground_copy(ref, src), 0);
		if (!same_answers(dst, ref, &seed)) {
			fprintf(stderr, "  round %zu (%s): the synced set answers otherwise\n", round,
				got == 1 ? "newest" : "whole");
			CHECK(!"ground_sync differs from ground_copy");
			break;
		}
		/* The reply's own tool span grounds the rest of the reply only. */
		if (r % 4 == 0) {
			random_quantity(&seed, text, sizeof(text), &q);
			random_context(&seed, &ctx);
			CHECK_EQ(ground_add_quantity(dst, &q, text, strlen(text), at++, &ctx), 0);
		}
	}
	/* Both ways were taken, often. */
	CHECK(newest > 60 && whole > 20);
	/* Grown past what it holds since the sync, or reset and grown past
	 * where it was: the counts alone would pass either. */
	for (round = 0; round < 3; round++) {
		CHECK(ground_sync(dst, src) >= 0);
		if (round == 0) {
			/* more new items than the set holds, few quantities */
			for (k = 0; k < GROUND_CAP + 100; k++) {
				char key[24];

				snprintf(key, sizeof(key), "new%zu", k);
				CHECK_EQ(ground_add(src, key, strlen(key), at++), 0);
			}
		} else if (round == 1) {
			for (k = 0; k < GROUND_CAP + 100; k++)
				add_one(src, &seed, &at);
		} else {
			ground_reset(src);
			for (k = 0; k < 100; k++)
				add_one(src, &seed, &at);
			CHECK_EQ(ground_sync(dst, src), 0);
			ground_reset(src);
			for (k = 0; k < 150; k++)
				add_one(src, &seed, &at);
		}
		CHECK_EQ(ground_sync(dst, src), 0);
		CHECK_EQ(ground_copy(ref, src), 0);
		CHECK(same_answers(dst, ref, &seed));
	}
out:
	ground_free(src);
	ground_free(dst);
	ground_free(ref);
}

/*
 * The attributes' ring and its index: the newest GROUND_ATTR_CAP held, a
 * duplicate of a held one not added, one of an evicted one added again,
 * through many evictions (the index's deletions shift probes back).
 */
TEST(ground_attr_ring)
{
	struct ground *g = NULL;
	struct ground_attr a = {.n_need = 2};
	uint64_t added = 0;
	size_t i, round;

	CHECK_EQ(ground_new(&g), 0);
	for (round = 0; round < 4; round++)
		for (i = 0; i < 3 * GROUND_ATTR_CAP; i++) {
			/* few distinct first words: long probe runs in the index */
			a.need[0] = i % 7;
			a.need[1] = i / 7 + round * 100000;
			a.truth = i % 3 == 0;
			CHECK_EQ(ground_add_attr(g, &a), 0);
			added++;
			CHECK_EQ(ground_add_attr(g, &a), 0); /* held: not again */
		}
	CHECK_EQ(ground_attr_count(g), GROUND_ATTR_CAP);
	CHECK_EQ(ground_evictions(g), added - GROUND_ATTR_CAP);
	/* The newest are held, oldest first; each of them again adds nothing. */
	for (i = 0; i < GROUND_ATTR_CAP; i++) {
		const struct ground_attr *h = ground_attr_at(g, i);
		size_t k = 2 * GROUND_ATTR_CAP + i;

		CHECK(h->need[0] == k % 7 && h->need[1] == k / 7 + 300000);
		a = *h;
		CHECK_EQ(ground_add_attr(g, &a), 0);
	}
	CHECK_EQ(ground_evictions(g), added - GROUND_ATTR_CAP);
	/* An evicted one comes back, evicting the oldest. */
	a.need[0] = 0;
	a.need[1] = 300000;
	a.truth = true;
	CHECK_EQ(ground_add_attr(g, &a), 0);
	CHECK_EQ(ground_evictions(g), added - GROUND_ATTR_CAP + 1);
	ground_reset(g);
	CHECK_EQ(ground_attr_count(g), 0);
	CHECK_EQ(ground_add_attr(g, &a), 0);
	CHECK_EQ(ground_attr_count(g), 1);
	ground_free(g);
}

/* A sum of money computed from grounded ones: each way, and what is not one. */
TEST(ground_derive_sums)
{
	static const struct {
		const char *want, *how; /* how: NULL when it is no derivation */
	} cases[] = {
		{"$290", "145 x 2"},         /* a fare times the passengers */
		{"$277", "145 + 132"},       /* two legs (the newest first) */
		{"$13", "145 - 132"},        /* a difference of fares */
		{"$554", "(145 + 132) x 2"}, /* two legs for two passengers */
		{"$26", "(145 - 132) x 2"},  /* a difference for two passengers */
		{"$264.50", "132.25 x 2"},
		{"$264.25", "132.25 + 132"},
		{"$264.49", NULL},           /* 132.25 x 2 is 264.50: to the cent */
		{"$435", NULL},              /* 145 x 3: no count of 3 is given */
		{"$300", NULL},
		{"$10", NULL},               /* 5 x 2: a rating is no sum of money */
		{"$150", NULL},              /* 145 + 5 likewise */
		{"$1.45 million", NULL},     /* a scale: never */
		{"45%", NULL},               /* money only */
	};
	static const char price[] = "the economy price is ", stars[] = "review stars ";
	/* what the answer said before: a sum or difference takes one of them */
	static const double said[] = {145, 132.25, 100};
	struct ground_context none = {0}, money, rating;
	struct ground *g = NULL;
	struct quantity q;
	char how[64];
	uint64_t at = 0;
	size_t i;

	ground_context_of(price + strlen(price), strlen(price), &money);
	ground_context_of(stars + strlen(stars), strlen(stars), &rating);
	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	CHECK(quantity_parse("$132.25", 7, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "$132.25", 7, 5, &none), 0);
	CHECK(quantity_parse("132", 3, &q)); /* a JSON value: a bare number said as a price */
	CHECK_EQ(ground_add_quantity(g, &q, "132", 3, 10, &money), 0);
	CHECK(quantity_parse("5", 1, &q)); /* a bare number of no money: no term */
	CHECK_EQ(ground_add_quantity(g, &q, "5", 1, 12, &rating), 0);
	CHECK(quantity_parse("$145", 4, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "$145", 4, 20, &none), 0);
	CHECK(quantity_parse("2 passengers", 12, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "2 passengers", 12, 30, &none), 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool got;

		CHECK(quantity_parse(cases[i].want, strlen(cases[i].want), &q));
		got = ground_derive(g, &q, said, ARRAY_SIZE(said), how, sizeof(how), &at);
		if (got != (cases[i].how != NULL) || (got && strcmp(how, cases[i].how) != 0))
			fprintf(stderr, "  %s: got %s\n", cases[i].want, got ? how : "none");
		CHECK_EQ(got, cases[i].how != NULL);
		if (got && cases[i].how)
			CHECK_STR(how, cases[i].how);
	}
	/* Of two figures the answer never said, no sum; a product needs none. */
	CHECK(quantity_parse("$277", 4, &q));
	CHECK(!ground_derive(g, &q, said + 1, 1, how, sizeof(how), &at));
	CHECK(quantity_parse("$290", 4, &q));
	CHECK(ground_derive(g, &q, NULL, 0, how, sizeof(how), &at));
	/* A figure said once is not taken twice; said twice, it is. */
	ground_reset(g);
	CHECK(quantity_parse("$100", 4, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "$100", 4, 0, &none), 0);
	CHECK(quantity_parse("$200", 4, &q));
	CHECK(!ground_derive(g, &q, said, ARRAY_SIZE(said), how, sizeof(how), &at));
	CHECK(quantity_parse("100", 3, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "100", 3, 40, &money), 0);
	CHECK(quantity_parse("$200", 4, &q));
	CHECK(!ground_derive(g, &q, said, ARRAY_SIZE(said), how, sizeof(how), &at)); /* of another unit: still once */
	CHECK(quantity_parse("$100", 4, &q));
	CHECK_EQ(ground_add_quantity(g, &q, "$100", 4, 50, &none), 0);
	CHECK(quantity_parse("$200", 4, &q));
	CHECK(ground_derive(g, &q, said, ARRAY_SIZE(said), how, sizeof(how), &at));
	CHECK_STR(how, "100 + 100");
	CHECK_EQ(at, 50);
	ground_free(g);
}

/* An identifier's parts said apart key as the identifier joined by "_". */
TEST(ground_ident_keys)
{
	struct buf a = {0}, b = {0};

	CHECK(ground_is_underscored("certificate_7504069", 19));
	CHECK(!ground_is_underscored("certificate7504069", 18));
	CHECK_EQ(ground_key(GROUNDING_CODE, "Certificate_7504069", 19, &a), 0);
	CHECK_EQ(ground_ident_key("certificate #7504069", 20, &b), 0);
	CHECK_EQ(a.len, b.len);
	CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
	CHECK_EQ(ground_ident_key("gift card 123", 13, &b), 0);
	CHECK_EQ(ground_key(GROUNDING_CODE, "gift_card_123", 13, &a), 0);
	CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
	buf_free(&a);
	buf_free(&b);
}

/* Puts a day of a month (QUANTITY_DATE, month * 100 + day) in at offset at. */
static void add_day(struct ground *g, int month, int day, uint64_t at)
{
	struct ground_context none = {0};
	struct quantity q;

	quantity_set(&q, QUANTITY_DATE, "date:day", month * 100 + day, 1);
	CHECK_EQ(ground_add_quantity(g, &q, "day", 3, at, &none), 0);
}

/* Days each the day after another, across a month's and a year's end;
 * not with one said twice or one missing, nor what came before from. */
TEST(ground_days_running)
{
	struct ground *g = NULL;
	struct ground_context none = {0};
	struct quantity q;
	uint64_t seq;

	CHECK_EQ(ground_new(&g), 0);
	if (!g)
		return;
	add_day(g, 3, 1, 5); /* before the list */
	seq = ground_next_seq(g);
	add_day(g, 12, 31, 20);
	quantity_set(&q, QUANTITY_NUMBER, "number", 7, 1); /* a high of 7 */
	CHECK_EQ(ground_add_quantity(g, &q, "7", 1, 25, &none), 0);
	add_day(g, 1, 1, 30);
	add_day(g, 12, 30, 40);
	CHECK_EQ(ground_day_run(g, seq, 10), 3u);
	CHECK_EQ(ground_day_run(g, 0, 0), 0u);   /* March 1st too */
	CHECK_EQ(ground_day_run(g, seq, 30), 0u); /* from offset 30: Jan 1st, Dec 30th */
	CHECK_EQ(ground_day_run(g, seq, 20), 3u);
	add_day(g, 1, 2, 50);
	CHECK_EQ(ground_day_run(g, seq, 10), 4u);
	CHECK_EQ(ground_day_run(g, seq, 30), 0u); /* Jan 1st, 2nd and Dec 30th */
	add_day(g, 1, 2, 60);
	CHECK_EQ(ground_day_run(g, seq, 10), 0u); /* January 2nd twice */
	ground_free(g);
}

/* The newest list of the turn: none from before it began, in a copy too. */
TEST(ground_list_of_the_turn)
{
	struct ground *g = NULL, *copy = NULL;
	struct ground_context none = {0};
	struct quantity q;
	const struct ground_quantity *l;

	CHECK_EQ(ground_new(&g), 0);
	CHECK_EQ(ground_new(&copy), 0);
	if (!g || !copy)
		goto out;
	quantity_set_items(&q, NULL, 0, 4);
	CHECK_EQ(ground_add_quantity(g, &q, "4", 1, 10, &none), 0);
	quantity_set(&q, QUANTITY_NUMBER, "number", 9, 1);
	CHECK_EQ(ground_add_quantity(g, &q, "9", 1, 11, &none), 0);
	l = ground_newest_list(g);
	CHECK(l && l->q.value == 4);
	ground_turn(g);
	CHECK(ground_newest_list(g) == NULL);
	CHECK(ground_sync(copy, g) >= 0);
	CHECK(ground_newest_list(copy) == NULL);
	quantity_set_items(&q, NULL, 0, 2);
	CHECK_EQ(ground_add_quantity(g, &q, "2", 1, 12, &none), 0);
	CHECK(ground_sync(copy, g) >= 0); /* the newest put in */
	l = ground_newest_list(copy);
	CHECK(l && l->q.value == 2);
	CHECK_EQ(ground_copy(copy, g), 0);
	l = ground_newest_list(copy);
	CHECK(l && l->q.value == 2);
	ground_turn(g);
	CHECK_EQ(ground_copy(copy, g), 0);
	CHECK(ground_newest_list(copy) == NULL);
out:
	ground_free(copy);
	ground_free(g);
}

TEST(ground_groups_of_a_field)
{
	static const char line[] = "Dana: 2 messages";
	struct ground *g = NULL, *copy = NULL, *more = NULL;
	uint64_t at = 0, sender = 7, recipient = 8;
	char value[GROUND_GROUP_VALUE + 8];
	size_t i;

	CHECK_EQ(ground_new(&g), 0);
	CHECK_EQ(ground_new(&copy), 0);
	CHECK_EQ(ground_new(&more), 0);
	if (!g || !copy || !more)
		goto out;
	CHECK_EQ(ground_group_add(g, sender, "Dana", 4, 10), 0);
	CHECK_EQ(ground_group_add(g, sender, "Omar", 4, 20), 0);
	CHECK_EQ(ground_group_add(g, sender, "DANA", 4, 30), 0); /* without case */
	CHECK_EQ(ground_group_add(g, recipient, "Dana", 4, 40), 0); /* another field */
	CHECK(ground_group_said(g, line, 6, 2, &at) && at == 10);
	CHECK(ground_group_said(g, "Dana sent ", 10, 1, &at) && at == 40);
	CHECK(!ground_group_said(g, line, 6, 3, &at));
	CHECK(!ground_group_said(g, "Danae: ", 7, 2, &at)); /* words of their own */
	CHECK(!ground_group_said(g, "Omar: ", 6, 2, &at));
	/* a copy and a sync take the counts, a merge adds them */
	CHECK(ground_sync(copy, g) >= 0);
	CHECK(ground_group_said(copy, line, 6, 2, &at));
	CHECK_EQ(ground_group_add(g, sender, "Omar", 4, 50), 0);
	CHECK(ground_sync(copy, g) >= 0);
	CHECK(ground_group_said(copy, "Omar: ", 6, 2, &at) && at == 20);
	CHECK_EQ(ground_merge(more, g), 0);
	CHECK_EQ(ground_merge(more, g), 0);
	CHECK(ground_group_said(more, line, 6, 4, &at));
	/* a new turn counts afresh */
	ground_turn(g);
	CHECK(!ground_group_said(g, line, 6, 2, &at));
	CHECK_EQ(ground_copy(copy, g), 0);
	CHECK(!ground_group_said(copy, line, 6, 2, &at));
	/* no figure alone, nothing too long, and no more than the cap */
	CHECK_EQ(ground_group_add(g, sender, "42", 2, 60), 0);
	CHECK(!ground_group_said(g, "42 ", 3, 1, &at));
	memset(value, 'a', sizeof(value));
	CHECK_EQ(ground_group_add(g, sender, value, GROUND_GROUP_VALUE + 1, 70), 0);
	CHECK(!ground_group_said(g, value, sizeof(value), 1, &at));
	for (i = 0; i < GROUND_GROUP_CAP + 10; i++) {
		char v[16];
		int n = snprintf(v, sizeof(v), "user%zu", i);

		CHECK_EQ(ground_group_add(g, sender, v, (size_t)n, 100 + i), 0);
	}
	CHECK(ground_group_said(g, "user0 ", 6, 1, &at));
	CHECK(!ground_group_said(g, "user300 ", 8, 1, &at));
out:
	ground_free(more);
	ground_free(copy);
	ground_free(g);
}

TEST(ground_relative_days)
{
	static const struct {
		const char *text;
		int anchored, today; /* one offset each, or 99 for none */
	} cases[] = {
		{"Prepare on May 27th, the day before the review.", -1, 99},
		{"a day before her birthday", -1, 99},
		{"Two weeks later we meet.", 14, 99},
		{"3 days earlier", -3, 99},
		{"The next day, and the following day", 1, 99},
		{"on the previous day", -1, 99},
		{"see you tomorrow", 99, 1},
		{"the day after tomorrow", 99, 2},
		{"the day before yesterday", 99, -2},
		{"in 3 days", 99, 3},
		{"in a week", 99, 7},
		{"a week ago", 99, -7},
		{"today (May 20)", 99, 0},
		{"40 days later", 99, 99},
		{"in the days before", 99, 99},
		{"3 days", 99, 99},
		/* (the words that end a phrase, in any case: read by first letter and length) */
		{"Two Days After the launch", 2, 99},
		{"the prior day", -1, 99},
		{"YESTERDAY", 99, -1},
		{"Four WEEKS AGO", 99, -28},
		/* tokens of letters and of digits, apart however they touch */
		{"3days ago", 99, -3},
		{"\xc3\x9cn\xc3\xaf" "code 2 weeks later", 14, 99},
		{"ago", 99, 99},
		{"day before", 99, 99},
	};
	struct ground *g = NULL, *copy = NULL;
	uint64_t anchored, today;
	unsigned md, y;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		anchored = today = 0;
		ground_relative_of(cases[i].text, strlen(cases[i].text), &anchored, &today);
		if (anchored != (cases[i].anchored == 99 ? 0 : 1ull << (cases[i].anchored + GROUND_REL_MAX)) ||
		    today != (cases[i].today == 99 ? 0 : 1ull << (cases[i].today + GROUND_REL_MAX))) {
			fprintf(stderr, "  \"%s\": %#llx %#llx\n", cases[i].text, (unsigned long long)anchored,
				(unsigned long long)today);
			CHECK(!"the offsets said");
		}
	}
	/* over a month's end, a year's end and a leap day */
	CHECK(ground_shift_day(301, 2024, -1, &md, &y) && md == 229 && y == 2024);
	CHECK(ground_shift_day(301, 0, -1, &md, &y) && md == 228 && y == 0);
	CHECK(ground_shift_day(1231, 2023, 1, &md, &y) && md == 101 && y == 2024);
	CHECK(ground_shift_day(528, 0, -7, &md, &y) && md == 521);
	CHECK(!ground_shift_day(1301, 2024, 1, &md, &y));
	/* the set keeps what its texts said; a copy takes it, a merge adds it */
	CHECK_EQ(ground_new(&g), 0);
	CHECK_EQ(ground_new(&copy), 0);
	if (!g || !copy)
		goto out;
	ground_note_relative(g, "tomorrow", 8);
	ground_note_relative(copy, "a day before", 12);
	CHECK_EQ(ground_merge(copy, g), 0);
	ground_relatives(copy, &anchored, &today);
	CHECK(anchored == 1ull << (GROUND_REL_MAX - 1) && today == 1ull << (GROUND_REL_MAX + 1));
	CHECK_EQ(ground_copy(copy, g), 0);
	ground_relatives(copy, &anchored, &today);
	CHECK(anchored == 0 && today == 1ull << (GROUND_REL_MAX + 1));
out:
	ground_free(copy);
	ground_free(g);
}

/* ---- ground_relative_of() as it read token by token before it read the letters' bits ---- */

static unsigned char ref_lower(unsigned char c)
{
	return (unsigned char)(c - 'A') < 26 ? c | 0x20 : c;
}

static bool ref_alpha(unsigned char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26;
}

static bool ref_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int ref_rel_count(const char *w, size_t k)
{
	size_t i;
	int v = 0;

	if (k && ref_digit((unsigned char)w[0])) {
		for (i = 0; i < k && i < 3; i++) {
			if (!ref_digit((unsigned char)w[i]))
				return 0;
			v = v * 10 + (w[i] - '0');
		}
		return i == k && v >= 1 && v <= GROUND_REL_MAX ? v : 0;
	}
	if ((k == 1 && ref_lower((unsigned char)w[0]) == 'a') || (k == 2 && strncasecmp(w, "an", 2) == 0) ||
	    (k == 3 && strncasecmp(w, "the", 3) == 0))
		return 1;
	return cardinal_word(w, k, 1, 10);
}

/* Days in a unit word ("day", "days": 1; "week", "weeks": 7), else 0. */
static int ref_rel_unit(const char *w, size_t k)
{
	if ((k == 3 || (k == 4 && ref_lower((unsigned char)w[3]) == 's')) && strncasecmp(w, "day", 3) == 0)
		return 1;
	if ((k == 4 || (k == 5 && ref_lower((unsigned char)w[4]) == 's')) && strncasecmp(w, "week", 4) == 0)
		return 7;
	return 0;
}

static bool ref_rel_is(const char *w, size_t k, const char *lit)
{
	return strlen(lit) == k && strncasecmp(w, lit, k) == 0;
}

static void ref_rel_set(uint64_t *mask, int days)
{
	if (days >= -GROUND_REL_MAX && days <= GROUND_REL_MAX)
		*mask |= 1ull << (days + GROUND_REL_MAX);
}

/* The next word or run of digits of t[*i, n): its start and length; false at the end. */
static bool ref_rel_token(const char *t, size_t n, size_t *i, const char **w, size_t *k)
{
	size_t j = *i;

	while (j < n && !ref_alpha((unsigned char)t[j]) && !ref_digit((unsigned char)t[j]))
		j++;
	if (j == n)
		return false;
	*w = t + j;
	if (ref_digit((unsigned char)t[j]))
		while (j < n && ref_digit((unsigned char)t[j]))
			j++;
	else
		while (j < n && ref_alpha((unsigned char)t[j]))
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
static bool ref_rel_may_end(const char *w, size_t k)
{
	switch (ref_lower((unsigned char)w[0])) {
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

static void ref_relative_of(const char *t, size_t n, uint64_t *anchored, uint64_t *today)
{
	/* 0 a byte between tokens, 1 a letter, 2 a digit (ASCII, as ref_rel_token() reads them) */
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
		/* ref_rel_token()'s next token, at the cost of a table look-up a byte */
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
		if (!ref_rel_may_end(t + from, i - from))
			continue;
		/* the tokens before it (none: "", as at the text's start) */
		for (j = 0; j < 4; j++) {
			w[j] = count + j >= 4 ? rw[(count + j - 4) % 4] : "";
			k[j] = count + j >= 4 ? rk[(count + j - 4) % 4] : 0;
		}
		if (ref_rel_is(w[3], k[3], "tomorrow") || ref_rel_is(w[3], k[3], "yesterday")) {
			int sign = ref_rel_is(w[3], k[3], "tomorrow") ? 1 : -1;

			/* "the day after tomorrow", "the day before yesterday" */
			ref_rel_set(today, ref_rel_is(w[1], k[1], "day") &&
						(ref_rel_is(w[2], k[2], "after") || ref_rel_is(w[2], k[2], "before"))
					       ? 2 * sign
					       : sign);
		} else if (ref_rel_is(w[3], k[3], "today")) {
			ref_rel_set(today, 0);
		} else if (ref_rel_is(w[3], k[3], "ago") && (unit = ref_rel_unit(w[2], k[2])) &&
			   (cnt = ref_rel_count(w[1], k[1]))) {
			ref_rel_set(today, -cnt * unit); /* "3 days ago" */
		} else if ((unit = ref_rel_unit(w[3], k[3])) && (cnt = ref_rel_count(w[2], k[2])) &&
			   ref_rel_is(w[1], k[1], "in") && !ref_rel_is(w[2], k[2], "the")) {
			ref_rel_set(today, cnt * unit); /* "in 3 days", "in a week" */
		} else if ((ref_rel_is(w[3], k[3], "before") || ref_rel_is(w[3], k[3], "earlier") ||
			    ref_rel_is(w[3], k[3], "prior") || ref_rel_is(w[3], k[3], "after") ||
			    ref_rel_is(w[3], k[3], "later")) &&
			   (unit = ref_rel_unit(w[2], k[2])) && (cnt = ref_rel_count(w[1], k[1])) &&
			   /* (not "the days before": no count of them) */
			   !(ref_rel_is(w[1], k[1], "the") && ref_lower((unsigned char)w[2][k[2] - 1]) == 's')) {
			size_t at = i;
			const char *nw;
			size_t nk;

			/* (the day before yesterday: said at "yesterday") */
			if (unit == 1 && cnt == 1 && ref_rel_token(t, n, &at, &nw, &nk) &&
			    (ref_rel_is(nw, nk, "yesterday") || ref_rel_is(nw, nk, "tomorrow")))
				continue;
			ref_rel_set(anchored, (ref_rel_is(w[3], k[3], "after") || ref_rel_is(w[3], k[3], "later") ? 1 : -1) *
						  cnt * unit); /* "the day before", "two weeks later" */
		} else if (ref_rel_is(w[3], k[3], "day") &&
			   (ref_rel_is(w[2], k[2], "next") || ref_rel_is(w[2], k[2], "following"))) {
			ref_rel_set(anchored, 1);
		} else if (ref_rel_is(w[3], k[3], "day") &&
			   (ref_rel_is(w[2], k[2], "previous") || ref_rel_is(w[2], k[2], "prior"))) {
			ref_rel_set(anchored, -1);
		}
	}
}

/*
 * ground_relative_of() finds a phrase's last word by the letters' bits, 64
 * bytes at a time, and reads the tokens before it backwards: the offsets
 * it says are those of a reading token by token from the start (the old
 * one, above), on texts of the phrases' words, counts, other words, digits
 * glued to letters, bytes of 0x80 and up and blocks' edges at every place.
 */
TEST(ground_relative_days_read_either_way)
{
	static const char *const words[] = {
		"the", "a", "an", "in", "day", "days", "Day", "week", "weeks", "WEEK", "ago", "Ago",
		"before", "after", "earlier", "prior", "later", "tomorrow", "Tomorrow", "yesterday",
		"today", "TODAY", "next", "following", "previous", "one", "two", "Three", "ten", "3",
		"31", "32", "7", "004", "daysx", "dayz", "to", "was", "we", "by", "later2", "todays",
		"la", "tomorrowx", "\xc3\xa9t\xc3\xa9", "x", "be", "period", "weekly",
	};
	static const char *const gaps[] = {
		" ", "  ", ", ", ". ", "-", "\n", "", "\xe2\x80\x94", "(", "\t", "0", "_",
	};
	uint64_t state = 0x9e3779b97f4a7c15ull;
	char text[600];
	size_t iter, n, i, bad = 0;

	for (iter = 0; iter < 40000; iter++) {
		uint64_t a1 = 0, t1 = 0, a2 = 0, t2 = 0;
		size_t pad = test_xorshift(&state) % 80, count = test_xorshift(&state) % 24;

		/* (a run of filler first, so that the phrase falls at any byte of a block) */
		for (n = 0; n < pad; n++)
			text[n] = "ab c9\xc3"[test_xorshift(&state) % 6];
		for (i = 0; i < count; i++) {
			const char *w = words[test_xorshift(&state) % ARRAY_SIZE(words)];
			const char *g = gaps[test_xorshift(&state) % ARRAY_SIZE(gaps)];

			if (n + strlen(w) + strlen(g) >= sizeof(text))
				break;
			memcpy(text + n, w, strlen(w));
			n += strlen(w);
			memcpy(text + n, g, strlen(g));
			n += strlen(g);
		}
		/* (and at random, the text cut short anywhere: a word at its very end) */
		if (n && test_xorshift(&state) % 4 == 0)
			n -= test_xorshift(&state) % n;
		ground_relative_of(text, n, &a1, &t1);
		ref_relative_of(text, n, &a2, &t2);
		if (a1 != a2 || t1 != t2) {
			if (bad++ < 3)
				fprintf(stderr, "  \"%.*s\": %#llx %#llx, token by token %#llx %#llx\n",
					(int)n, text, (unsigned long long)a1, (unsigned long long)t1,
					(unsigned long long)a2, (unsigned long long)t2);
		}
	}
	/* bytes at random, all 256 of them */
	for (iter = 0; iter < 2000; iter++) {
		uint64_t a1 = 0, t1 = 0, a2 = 0, t2 = 0;

		n = test_xorshift(&state) % 300;
		for (i = 0; i < n; i++)
			text[i] = (char)test_xorshift(&state);
		ground_relative_of(text, n, &a1, &t1);
		ref_relative_of(text, n, &a2, &t2);
		bad += a1 != a2 || t1 != t2;
	}
	CHECK_EQ(bad, 0);
}

/* The quantities the number lexer reads in a text, for the test below. */
struct lexed_pool {
	struct quantity q[96];
	size_t n;
};

static int pool_add(void *ctx, const struct numlex_item *it)
{
	struct lexed_pool *p = ctx;

	if (p->n < ARRAY_SIZE(p->q))
		p->q[p->n++] = it->q;
	return 0;
}

/* Every item of text to pool_add(), a batch at a time: 0, or what it returned. */
static int pool_lex(const char *text, void *pool)
{
	struct numlex lx;
	struct numlex_item items[NUMLEX_BATCH];
	int k, j, rc = 0;

	for (k = numlex_scan(&lx, text, strlen(text), 0, items, NUMLEX_BATCH);;
	     k = numlex_resume(&lx, items, NUMLEX_BATCH)) {
		if (k < 0)
			return k;
		for (j = 0; j < k && !rc; j++)
			rc = pool_add(pool, &items[j]);
		if (rc || k < NUMLEX_BATCH)
			return rc;
	}
	return rc;
}

/* A context of words 64 apart (so that masks collide), and nearest words, at random. */
static void random_near_context(uint64_t *state, struct ground_context *ctx)
{
	size_t i;

	memset(ctx, 0, sizeof(*ctx));
	ctx->n = test_xorshift(state) % 4;
	for (i = 0; i < ctx->n; i++) {
		ctx->word[i] = (uint32_t)(test_xorshift(state) % 4 * 64 + test_xorshift(state) % 2 + 1);
		ctx->mask |= 1ull << (ctx->word[i] % 64);
	}
	if (ctx->n && test_xorshift(state) % 2)
		ctx->before1 = ctx->word[0];
	if (ctx->n > 1 && test_xorshift(state) % 2)
		ctx->after1 = ctx->word[1];
}

/*
 * A context of one to six words of twelve, on bits of their own but for
 * a few that share one: enough words in common, and enough apart, for the
 * swap walk's bounds (find_swap()) to take some slots and rule out others.
 */
static void random_wide_context(uint64_t *state, struct ground_context *ctx)
{
	size_t n = 1 + test_xorshift(state) % 6, i, k;

	memset(ctx, 0, sizeof(*ctx));
	for (i = 0; i < n; i++) {
		uint32_t w = (uint32_t)(test_xorshift(state) % 12) * 37 + 3;

		for (k = 0; k < ctx->n && ctx->word[k] != w; k++)
			;
		if (k < ctx->n)
			continue;
		ctx->word[ctx->n++] = w;
		ctx->mask |= 1ull << (w % 64);
	}
	if (test_xorshift(state) % 2)
		ctx->before1 = ctx->word[0];
	if (ctx->n > 1 && test_xorshift(state) % 2)
		ctx->after1 = ctx->word[1];
}

/*
 * ground_nothing_judged() stands for the search itself: the claims check
 * gathers no context for a figure it says the search finds nothing for,
 * and takes that nothing as the search's verdict. So wherever it says so,
 * ground_match_quantity() at that tolerance, and ground_stated_quantity(),
 * find nothing in any context; over small sets of figures read from
 * sentences (every kind the lexer reads: years, decades, dates, times,
 * ordinals in words and "35th anniversary", names' digits, phone numbers,
 * money, shares, durations, counts) and bare numbers, so that a unit is
 * often missing, and the bare numbers that state a year or an ordinal are
 * there or not.
 */
TEST(ground_nothing_judged_is_what_the_search_finds)
{
	static const char *const sentences[] = {
		"The first meeting is on March 26, 2024 at 10:00 AM, the second at 2 PM.",
		"It opened in 1997, grew in the 1990s and moved in 2019.",
		"Pick the third option on May 3rd and ticket TX-4411 from Gate 12.",
		"Call 415-555-0100 or visit 1234 Main Street for the 35th anniversary.",
		"Two hotels, three days, 45 minutes and one night in total.",
		"It costs $1,200 or 15% more, 12 employees, 0.5 percent and 7 days.",
		"The fourth flight leaves at 7:45 pm and lands at 21:00 on June 1.",
		"Revenue was $4.2 billion in Q3 2023, up 7%, and 72 degrees Fahrenheit.",
		"Windows 11, iPhone 15 and Route 66 ship in the first week of 2024.",
	};
	static const char *const bare[] = {"1", "2", "3", "7", "12", "14", "35", "45",
					   "1997", "2024", "1.2", "0.5", "1200"};
	static struct lexed_pool pool;
	static const double tolerances[] = {0, 0.25};
	uint64_t state = 35;
	size_t i, k, trial, nothing = 0, found = 0, lexer_kind = 0, other_kind = 0;

	pool.n = 0;
	for (i = 0; i < ARRAY_SIZE(sentences); i++)
		CHECK_EQ(pool_lex(sentences[i], &pool), 0);
	/* (as a tool's JSON gives them: a bare number of the value written) */
	for (i = 0; i < ARRAY_SIZE(bare) && pool.n < ARRAY_SIZE(pool.q); i++)
		if (!quantity_parse(bare[i], strlen(bare[i]), &pool.q[pool.n]) ||
		    pool.q[pool.n].kind != QUANTITY_NUMBER)
			quantity_set(&pool.q[pool.n++], QUANTITY_NUMBER, "number", strtod(bare[i], NULL), 1);
		else
			pool.n++;
	CHECK(pool.n > 40);
	for (trial = 0; trial < 300; trial++) {
		struct ground *g = NULL;
		size_t m = test_xorshift(&state) % 10;

		CHECK_EQ(ground_new(&g), 0);
		if (!g)
			return;
		for (k = 0; k < m; k++) {
			const struct quantity *q = &pool.q[test_xorshift(&state) % pool.n];
			struct ground_context ctx;

			random_near_context(&state, &ctx);
			CHECK_EQ(ground_add_quantity(g, q, "x", 1, k, &ctx), 0);
		}
		for (i = 0; i < pool.n; i++) {
			const struct quantity *a = &pool.q[i];

			for (k = 0; k < ARRAY_SIZE(tolerances); k++) {
				const struct ground_quantity *gq;
				struct ground_context ctx;
				enum ground_verdict v;
				size_t j;

				if (!ground_nothing_judged(g, a, tolerances[k])) {
					random_near_context(&state, &ctx);
					found += ground_match_quantity(g, a, &ctx, tolerances[k], &v) != NULL;
					continue;
				}
				nothing++;
				if (a->kind > QUANTITY_BASE)
					lexer_kind++;
				else
					other_kind++;
				for (j = 0; j < 4; j++) {
					random_near_context(&state, &ctx);
					gq = ground_match_quantity(g, a, &ctx, tolerances[k], &v);
					if (gq || v != GROUND_NONE) {
						fprintf(stderr, "  kind %d, unit %s, value %g, tolerance %.2f: "
							"the search found \"%s\" (%d)\n", a->kind, a->unit,
							a->value, tolerances[k], gq ? gq->text : "", v);
						CHECK(!"the search finds what ground_nothing_judged() denies");
						ground_free(g);
						return;
					}
					CHECK(ground_stated_quantity(g, a, &ctx, &v) == NULL);
				}
			}
		}
		ground_free(g);
	}
	/* Both answers often, and the shortcut taken for both families of kinds. */
	CHECK(nothing > 1000 && found > 1000);
	CHECK(lexer_kind > 200 && other_kind > 200);
}

/*
 * The searches give judge() only the candidates that can change a
 * figure's verdict (ground_judge.c, judge_candidates()): the values a
 * rounding can reach, not every value of a bin; of the value list, what
 * the ranges did not judge; of a lexer's unit, once a near one cannot
 * count, what can state. ground_match_unfiltered() judges every candidate
 * the bins and lists give, as the searches did before; both answer alike
 * for every figure, at tolerances 0 and above, matched or only stated,
 * over sets of figures on the edges of those reaches (3 and 2.85, 3.15,
 * 3.5; 3 million and 3000000), of every kind the lexer reads, in contexts
 * that share words, nearest words and prompts at random; and over sets
 * where a few of the lexer's figures are said many times (judge_lexed()
 * walks a value list for the oldest that shares a word and the oldest
 * that does not, and leaves the latter to match()'s swap rule), up to and
 * past the set's cap; and asked again after a few more are put in (the
 * searches keep what states each figure while the set holds the same
 * quantities, judge_candidates(): each figure is asked six times a round,
 * so that what is kept is read, in the order it was found and oldest first);
 * and a span of days, as ground_days_stated() keeps its answer a state. In
 * every third trial the contexts are wider (random_wide_context()), for
 * the swap walk's bounds.
 */
TEST(ground_search_filters_change_no_verdict)
{
	static const char *const sentences[] = {
		"The first meeting is on March 26, 2024 at 10:00 AM, the second at 2 PM.",
		"It opened in 1997, grew in the 1990s and moved in 2019 and in 2024.",
		"Pick the third option on May 3rd and ticket TX-4411 from Gate 12.",
		"Call 415-555-0100 or visit 1234 Main Street for the 35th anniversary.",
		"The fourth flight leaves at 7:45 pm and lands at 21:00 on June 1.",
		"It is 72 degrees Fahrenheit, 22 C, and on March 3 at 6:15 in 2023.",
		"Windows 11, iPhone 15 and Route 66 ship in the first week of 2024.",
	};
	static const char *const written[] = {
		"3", "3.0", "2.85", "2.86", "2.9", "3.1", "3.15", "3.149", "3.151", "2.5", "3.5",
		"3.49", "0.3", "0.31", "0.29", "12", "12.6", "11.5", "12.4", "12.5", "1200", "1,200",
		"3 million", "3000000", "2.9 million", "3 million downloads", "3 million employees", "3.1 million", "3 nights", "3 days",
		"3 employees", "3 staff", "3.0 staff", "40 years", "$3", "$3.15", "$2.9", "3%",
		"2.9%", "3.2 percent", "15%", "$12.50", "$1.2 billion", "1.25 billion", "1.2",
		"7 days", "2 hours", "120 minutes", "0", "0.0", "2024", "1997", "35", "22",
		"72", "1", "2", "45", "66",
	};
	static struct lexed_pool pool;
	static struct quantity q[96 + ARRAY_SIZE(written)];
	static const double tolerances[] = {0, 0.1, 0.25};
	size_t seen_verdicts[GROUND_NEAR + 1];
	void (*context_of_trial)(uint64_t *, struct ground_context *);
	uint64_t state = 36;
	size_t n = 0, i, k, trial, round, more, asked = 0, found = 0, days_stated = 0;

	memset(seen_verdicts, 0, sizeof(seen_verdicts));
	pool.n = 0;
	for (i = 0; i < ARRAY_SIZE(sentences); i++)
		CHECK_EQ(pool_lex(sentences[i], &pool), 0);
	for (i = 0; i < pool.n; i++)
		q[n++] = pool.q[i];
	for (i = 0; i < ARRAY_SIZE(written); i++)
		if (quantity_parse(written[i], strlen(written[i]), &q[n]))
			n++;
	CHECK(pool.n > 25 && n > 80);
	for (trial = 0; trial < 260; trial++) {
		struct ground *g = NULL;
		size_t m = test_xorshift(&state) % 80;
		/* From trial 200 on, a few of the lexer's figures (years, dates,
		 * times) said many times over, each with words shared or not, in
		 * prompts and later texts; the last trials past the set's cap, so
		 * that the oldest are evicted. */
		size_t few[4], nfew = trial >= 200 ? 1 + test_xorshift(&state) % 4 : 0;

		if (nfew) {
			m = trial >= 256 ? GROUND_CAP + test_xorshift(&state) % 600 : 40 + test_xorshift(&state) % 200;
			/* (in every other trial, of every figure: money, counts, bare
			 * numbers said many times, in prompts and after them) */
			for (k = 0; k < nfew; k++)
				few[k] = test_xorshift(&state) % (trial % 2 ? n : pool.n);
		}
		/* (wide contexts in every third trial: the swap walk's bounds) */
		context_of_trial = trial % 3 == 1 ? random_wide_context : random_near_context;
		CHECK_EQ(ground_new(&g), 0);
		if (!g)
			return;
		for (k = 0; k < m; k++) {
			const struct quantity *add = &q[nfew && test_xorshift(&state) % 8 ? few[test_xorshift(&state) % nfew]
									  : test_xorshift(&state) % n];
			struct ground_context ctx;

			/* (texts and turns now and then: prompts, and later texts) */
			if (test_xorshift(&state) % 8 == 0) {
				if (test_xorshift(&state) % 3 == 0)
					ground_turn(g);
				ground_begin_text(g);
			}
			context_of_trial(&state, &ctx);
			CHECK_EQ(ground_add_quantity(g, add, "x", 1, k, &ctx), 0);
		}
		for (round = 0; round < 2; round++) {
			/* (then a few more put in, of the figures asked and others, past
			 * the cap in the last trials: what the searches kept of the set
			 * before, the stating slots of each figure, is of another set) */
			more = round ? 1 + test_xorshift(&state) % 4 : 0;
			for (k = 0; k < more; k++) {
				const struct quantity *add = &q[nfew && test_xorshift(&state) % 2 ? few[test_xorshift(&state) % nfew]
											: test_xorshift(&state) % n];
				struct ground_context ctx;

				context_of_trial(&state, &ctx);
				CHECK_EQ(ground_add_quantity(g, add, "y", 1, m + k, &ctx), 0);
			}
			/* A span of days asked of the set as it is (ground_days_stated()
			 * keeps each answer while the set holds the same quantities):
			 * the search's own answer, asked twice, and after more are put in. */
			for (k = 0; k < 2 * 66; k++) {
				static const struct ground_context none;
				unsigned days = (unsigned)(k % 66);
				enum ground_verdict dv;
				struct quantity d;
				bool want;

				quantity_set(&d, QUANTITY_BASE, "seconds", days * QUANTITY_DAY_SECONDS,
					     QUANTITY_DAY_SECONDS);
				want = ground_match_unfiltered(g, &d, &none, 0, &dv, false) && dv == GROUND_STATED;
				days_stated += want;
				if (ground_days_stated(g, days) != want) {
					fprintf(stderr, "  %u days: want %d\n", days, want);
					CHECK(!"a span of days kept changes its verdict");
				}
			}
			for (i = 0; i < n; i++) {
				for (k = 0; k < ARRAY_SIZE(tolerances); k++) {
					const struct ground_quantity *want, *got;
					enum ground_verdict wv, gv;
					struct ground_context ctx;
					int stated;

					context_of_trial(&state, &ctx);
					for (stated = 0; stated < 2; stated++) {
						want = ground_match_unfiltered(g, &q[i], &ctx, stated ? 0 : tolerances[k],
									       &wv, stated);
						got = stated ? ground_stated_quantity(g, &q[i], &ctx, &gv)
							     : ground_match_quantity(g, &q[i], &ctx, tolerances[k], &gv);
						asked++;
						found += want != NULL;
						if (wv <= GROUND_NEAR)
							seen_verdicts[wv]++;
						if (want != got || wv != gv) {
							fprintf(stderr, "  kind %d, unit %s, value %g, tolerance %.2f%s: "
								"want \"%s\" (%d), got \"%s\" (%d)\n", q[i].kind, q[i].unit,
								q[i].value, tolerances[k], stated ? ", stated" : "",
								want ? want->text : "", wv, got ? got->text : "", gv);
							CHECK(!"a filtered search changes a verdict");
							ground_free(g);
							return;
						}
					}
				}
			}
		}
		ground_free(g);
	}
	/* Every verdict, often enough for the filters to have been on trial. */
	CHECK(found > asked / 4);
	CHECK(days_stated > 100);
	for (i = 0; i <= GROUND_NEAR; i++)
		CHECK(seen_verdicts[i] > 100);
}
