// SPDX-License-Identifier: MIT
/* The grounded set: normalization and bounded memory. */
#include <stdlib.h>

#include "ground.h"
#include "test.h"

static const char *key(enum grounding k, const char *text)
{
	static struct buf b;

	CHECK_EQ(ground_key(k, text, strlen(text), &b), 0);
	buf_addc(&b, '\0');
	return b.data + 1; /* past the kind */
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

/* What ground_match_quantity() promises, walked oldest first; returns the item's at or -1. */
static long long ref_match(const struct ref_item *v, size_t n, const struct quantity *a,
			   const struct ground_context *ctx, double tolerance, bool *states)
{
	const struct ref_item *found[2][2] = {{NULL, NULL}, {NULL, NULL}};
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
		if (!quantity_comparable(a, &v[i].q))
			continue;
		d = quantity_distance(a, &v[i].q);
		if (d <= best[shared]) {
			best[shared] = d;
			found[shared][0] = &v[i];
		}
	}
	*states = found[1][1] || (!found[1][0] && found[0][1]);
	if (found[1][1])
		return (long long)found[1][1]->at;
	if (found[1][0])
		return (long long)found[1][0]->at;
	if (found[0][1])
		return (long long)found[0][1]->at;
	return found[0][0] ? (long long)found[0][0]->at : -1;
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
			bool want_states, got_states;
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
