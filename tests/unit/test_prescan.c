// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "match/prescan.h"
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

/*
 * With confirm, a directive counts once the scanner confirms it (found as
 * the model's text, outside every tool span): an off confirmed and an on
 * not (a tool's) leave the rest off; an ignore of the line not yet passed
 * is pending (-1, and where), one passed unconfirmed covers nothing.
 */
TEST(prescan_confirmed_directives)
{
	static const char text[] =
		"a <!-- halluscan:off -->\n"           /* line 1, off at 7 */
		"b <t>halluscan:on</t>\n"              /* line 2, on at 30: the tool's */
		"c x halluscan:ignore\n"               /* line 3, ignore at 51 */
		"d y halluscan:ignore z\n";            /* line 4, ignore at 72 */
	struct prescan p;
	uint64_t wait = 0;

	memset(&p, 0, sizeof(p));
	p.directives = true;
	p.confirm = true;
	prescan_begin(&p);
	CHECK_EQ(prescan_feed(&p, text, sizeof(text) - 1), 0);
	CHECK_EQ(prescan_end(&p), 0);
	CHECK_EQ(p.n_ignores, 2);
	CHECK_EQ(p.ignores[0].at, 51);
	CHECK_EQ(p.ignores[1].at, 72);
	/* Nothing confirmed yet: a finding before the off is not covered. */
	CHECK_EQ(prescan_ignored(&p, 2, 1, "s", "r", 2, &wait), 0);
	CHECK_EQ(prescan_confirm(&p, 7), 0);
	CHECK_EQ(prescan_ignored(&p, 26, 2, "s", "r", 26, &wait), 1);
	/* The on at 30 was never confirmed: still off on line 3. */
	CHECK_EQ(prescan_ignored(&p, 49, 3, "s", "r", 49, &wait), 1);
	prescan_fini(&p);

	/* Ignores alone: pending until passed or confirmed. */
	memset(&p, 0, sizeof(p));
	p.directives = true;
	p.confirm = true;
	prescan_begin(&p);
	CHECK_EQ(prescan_feed(&p, text + 47, sizeof(text) - 1 - 47), 0);
	CHECK_EQ(prescan_end(&p), 0);
	/* "x" at 2 of line 1, its ignore at 4: pending. */
	CHECK_EQ(prescan_ignored(&p, 2, 1, "s", "r", 2, &wait), -1);
	CHECK_EQ(wait, 4);
	/* Passed unconfirmed (inside a span): covers nothing. */
	CHECK_EQ(prescan_ignored(&p, 2, 1, "s", "r", 5, &wait), 0);
	/* Line 2's names z, confirmed: it covers z, not another. */
	CHECK_EQ(prescan_confirm(&p, 25), 0);
	CHECK_EQ(prescan_ignored(&p, 23, 2, "s", "r", 23, &wait), 0);
	CHECK_EQ(prescan_ignored(&p, 23, 2, "z", "r", 23, &wait), 1);
	CHECK_EQ(prescan_ignored(&p, 23, 2, "q", "r", 23, &wait), 0);
	prescan_fini(&p);
}

/*
 * Markdown code found the same whatever the pieces: a whole text takes the
 * fast paths of prescan_feed() (prose lines, the lines of a fence that
 * cannot close it), the same text a byte at a time takes every line through
 * the line buffer and code_line(). Random texts of lines that open, close,
 * almost close and fill fences, indented code, lists, blanks, CRLF.
 */
TEST(prescan_code_same_in_any_pieces)
{
	static const char *const lines[] = {
		"```", "```py", "  ```", "   ```", "    ```", "\t```", "~~~", "~~~~", " ~~~",
		"````", "```` ", "``` x `", "`a` b", "``x`` y `", "", " ", "\r", "  \r", "\t",
		"- item", "1. item", "    code", "\tcode", "prose.", "  prose", "      {",
		"\t\tx", "`", "``", "~", "-", "12", "``` ", "~~~\r", "```\r",
	};
	unsigned seed = 11;
	char text[2048];
	size_t t;

	for (t = 0; t < 4000; t++) {
		struct prescan p[3];
		size_t n = 0, nl, i, k, h;

		seed = seed * 1103515245u + 12345u;
		nl = 1 + (seed >> 16) % 40;
		for (i = 0; i < nl; i++) {
			const char *l;

			seed = seed * 1103515245u + 12345u;
			l = lines[(seed >> 16) % ARRAY_SIZE(lines)];
			if (n + strlen(l) + 1 >= sizeof(text))
				break;
			memcpy(text + n, l, strlen(l));
			n += strlen(l);
			/* the last line ends with or without a line break */
			if (i + 1 < nl || (seed >> 8) % 2)
				text[n++] = '\n';
		}
		for (h = 0; h < 3; h++) {
			memset(&p[h], 0, sizeof(p[h]));
			p[h].code = p[h].directives = true;
			prescan_begin(&p[h]);
			for (i = 0; i < n; i += k) {
				/* whole, a byte at a time, random pieces */
				seed = seed * 1103515245u + 12345u;
				k = h == 0 ? n : h == 1 ? 1 : 1 + (seed >> 16) % 90;
				k = k < n - i ? k : n - i;
				CHECK_EQ(prescan_feed(&p[h], text + i, k), 0);
			}
			CHECK_EQ(prescan_end(&p[h]), 0);
		}
		for (h = 1; h < 3; h++) {
			bool same = p[h].n_code == p[0].n_code;

			for (i = 0; same && i < p[0].n_code; i++)
				same = p[h].code_ranges[i].start == p[0].code_ranges[i].start &&
				       p[h].code_ranges[i].end == p[0].code_ranges[i].end;
			if (!same) {
				fprintf(stderr, "  text \"%.*s\" pieces %zu\n", (int)n, text, h);
				CHECK(!"code ranges differ with the pieces");
				t = SIZE_MAX - 1;
			}
		}
		for (h = 0; h < 3; h++)
			prescan_fini(&p[h]);
	}
}

/* p and q found the same: code, directives, lines, the first directive. */
static bool prescan_same(const struct prescan *p, const struct prescan *q)
{
	size_t i;

	if (p->n_code != q->n_code || p->n_off != q->n_off || p->n_ignores != q->n_ignores ||
	    p->n_marks != q->n_marks || p->lines_done != q->lines_done ||
	    p->dir_clear != q->dir_clear || p->dir_hit != q->dir_hit || p->off != q->off)
		return false;
	for (i = 0; i < p->n_code; i++)
		if (p->code_ranges[i].start != q->code_ranges[i].start ||
		    p->code_ranges[i].end != q->code_ranges[i].end)
			return false;
	for (i = 0; i < p->n_ignores; i++)
		if (p->ignores[i].at != q->ignores[i].at || p->ignores[i].line != q->ignores[i].line ||
		    !p->ignores[i].names != !q->ignores[i].names ||
		    (p->ignores[i].names && strcmp(p->ignores[i].names, q->ignores[i].names) != 0))
			return false;
	for (i = 0; i < p->n_marks; i++)
		if (p->marks[i].at != q->marks[i].at || p->marks[i].on != q->marks[i].on)
			return false;
	return true;
}

/*
 * prescan_look() and prescan_lines() (the line breaks given, as the
 * scanner's byte scan finds them) read what prescan_feed() reads: the same
 * code, directives and lines, whatever the looks and the pieces the
 * scanner cuts them into, directives across both, and of a line longer
 * than the line buffer its first PRESCAN_LINE_MAX bytes (in place as in
 * pieces: a directive past them counts nowhere). The stream offsets of the
 * line breaks need not start at 0 (a scanner's stream counts its own bytes).
 */
TEST(prescan_lines_same_as_feed)
{
	static const char *const lines[] = {
		"```", "```py", "   ```", "    ```", "~~~", "````", "``` x `", "`a` b", "``x`` y `",
		"", " ", "\r", "\t", "- item", "1. item", "    code", "\tcode", "prose.", "  prose",
		"x <!-- halluscan:off -->", "halluscan:on", "y halluscan:ignore a, b", "halluscan:ignore",
		"`halluscan:off` z", "halluscan:", "hallu", "scan:off", "w halluscan:onward",
	};
	unsigned seed = 7;
	static char text[PRESCAN_LINE_MAX + 4096];
	uint64_t nl[4096];
	size_t t;

	for (t = 0; t < 3000; t++) {
		struct prescan a, b, c;
		size_t n = 0, nlines, i, at, look, k, m;
		uint64_t base;

		seed = seed * 1103515245u + 12345u;
		nlines = 1 + (seed >> 16) % 40;
		for (i = 0; i < nlines; i++) {
			const char *l;

			seed = seed * 1103515245u + 12345u;
			l = lines[(seed >> 16) % ARRAY_SIZE(lines)];
			if (t % 100 == 99 && i == 1) {
				/* a line longer than the buffer, a directive past it */
				memset(text + n, 'q', PRESCAN_LINE_MAX + 10);
				n += PRESCAN_LINE_MAX + 10;
				l = " halluscan:off";
			}
			memcpy(text + n, l, strlen(l));
			n += strlen(l);
			if (i + 1 < nlines || (seed >> 8) % 2)
				text[n++] = '\n';
		}
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		memset(&c, 0, sizeof(c));
		a.code = b.code = c.code = a.directives = b.directives = c.directives = true;
		a.confirm = b.confirm = c.confirm = (t % 2) == 0;
		prescan_begin(&a);
		prescan_begin(&b);
		prescan_begin(&c);
		CHECK_EQ(prescan_feed(&a, text, n), 0);
		CHECK_EQ(prescan_end(&a), 0);
		base = (seed >> 4) % 1000;
		for (at = 0; at < n; at += look) {
			seed = seed * 1103515245u + 12345u;
			look = t % 3 == 0 ? n : 1 + (seed >> 16) % 120;
			look = look < n - at ? look : n - at;
			CHECK_EQ(prescan_look(&b, text + at, look), 0);
			for (i = at; i < at + look; i += k) {
				seed = seed * 1103515245u + 12345u;
				k = 1 + (seed >> 16) % 70;
				k = k < at + look - i ? k : at + look - i;
				m = 0;
				for (size_t j = i; j < i + k; j++)
					if (text[j] == '\n')
						nl[m++] = base + j;
				CHECK_EQ(prescan_lines(&b, text + i, k, base + i, nl, m), 0);
				CHECK_EQ(prescan_feed(&c, text + i, k), 0);
			}
		}
		CHECK_EQ(prescan_end(&b), 0);
		CHECK_EQ(prescan_end(&c), 0);
		if (!prescan_same(&c, &b) || !prescan_same(&a, &b)) {
			fprintf(stderr, "  case %zu, %zu bytes\n", t, n);
			CHECK(!"prescan_lines() read otherwise than prescan_feed()");
			t = SIZE_MAX - 1;
		}
		prescan_fini(&a);
		prescan_fini(&b);
		prescan_fini(&c);
	}
}
