// SPDX-License-Identifier: MIT
/* The grounded set: normalization and bounded memory. */
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
