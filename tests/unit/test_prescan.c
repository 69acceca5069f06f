// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "input/prescan.h"
#include "test.h"

/*
 * A directive at every offset of a line, behind decoys that share its first
 * and last bytes nine apart ("hxxxxxxxx:"), read whole and in pieces of
 * every size up to 70: the search tests 64 starts at a time, then the rest.
 */
TEST(prescan_directive_at_any_offset)
{
	static const char decoy[] = "hxxxxxxxx: halluscan halluscan;h-------:";
	char text[512];
	size_t k, piece;

	for (k = 0; k < 200; k++) {
		size_t n = 0, i;

		for (i = 0; i < k; i++)
			text[n++] = decoy[i % (sizeof(decoy) - 1)];
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "halluscan:off\nprose\nhalluscan:on\n");
		for (piece = 1; piece <= 70; piece += piece < 16 ? 1 : 9) {
			struct prescan p;

			memset(&p, 0, sizeof(p));
			p.directives = true;
			prescan_begin(&p);
			for (i = 0; i < n; i += piece)
				CHECK_EQ(prescan_feed(&p, text + i, n - i < piece ? n - i : piece), 0);
			CHECK_EQ(prescan_end(&p), 0);
			CHECK_EQ(p.n_off, 1);
			if (p.n_off == 1) {
				CHECK_EQ(p.off_ranges[0].start, k);
				CHECK(p.off_ranges[0].end > k + 14 && p.off_ranges[0].end <= n);
			}
			prescan_fini(&p);
		}
	}
}

/* A line of decoys alone holds no directive. */
TEST(prescan_decoys_are_no_directive)
{
	static const char decoy[] = "hxxxxxxxx: halluscan;HALLUSCAN:off halluscan :off\n";
	char *text = malloc(64 * 1024);
	size_t n = 0;
	struct prescan p;

	CHECK(text != NULL);
	if (!text)
		return;
	while (n + sizeof(decoy) < 64 * 1024) {
		memcpy(text + n, decoy, sizeof(decoy) - 1);
		n += sizeof(decoy) - 1;
	}
	memset(&p, 0, sizeof(p));
	p.directives = true;
	prescan_begin(&p);
	CHECK_EQ(prescan_feed(&p, text, n), 0);
	CHECK_EQ(prescan_end(&p), 0);
	CHECK_EQ(p.n_off, 0);
	CHECK_EQ(p.n_ignores, 0);
	prescan_fini(&p);
	free(text);
}
