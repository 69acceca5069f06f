// SPDX-License-Identifier: MIT
/*
 * The directive and Markdown reader (src/match/prescan.c) on any text, as
 * the program reads an input a line ahead of the scanner:
 *  - read whole and in pieces of a size the input chooses, it finds the
 *    same directives, ignores and code ranges;
 *  - with confirm, every directive confirmed and the input all scanned,
 *    every finding offset is covered exactly as without confirm; with none
 *    confirmed, none is covered; an answer is -1 only before seen_to
 *    passes the directive it names in *wait.
 * The first byte chooses the piece size, the rest is the text.
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "fuzz.h"
#include "match/prescan.h"

static void read_all(struct prescan *p, const char *text, size_t n, size_t piece, bool confirm)
{
	memset(p, 0, sizeof(*p));
	p->directives = p->code = true;
	p->confirm = confirm;
	prescan_begin(p);
	for (size_t i = 0; i < n; i += piece)
		FUZZ_CHECK(prescan_feed(p, text + i, n - i < piece ? n - i : piece) == 0);
	FUZZ_CHECK(prescan_end(p) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prescan whole, split, none, all;
	const char *text = (const char *)data + (size > 0);
	size_t n = size > 0 ? size - 1 : 0, piece = size > 0 ? 1 + data[0] % 97 : 1;
	static const char *const names[] = {"fabricated_url", "url.http", "x"};

	uint64_t line = 1;

	/* Past 64 KiB a line read whole is read in place, and split only in part. */
	if (n >= PRESCAN_LINE_MAX)
		return 0;
	read_all(&whole, text, n, n ? n : 1, false);
	read_all(&split, text, n, piece, false);
	FUZZ_CHECK(whole.n_off == split.n_off && whole.n_ignores == split.n_ignores &&
		   whole.n_code == split.n_code, "%zu/%zu offs, %zu/%zu ignores, %zu/%zu code",
		   whole.n_off, split.n_off, whole.n_ignores, split.n_ignores, whole.n_code,
		   split.n_code);
	for (size_t i = 0; i < whole.n_off && i < split.n_off; i++)
		FUZZ_CHECK(whole.off_ranges[i].start == split.off_ranges[i].start &&
			   whole.off_ranges[i].end == split.off_ranges[i].end);
	for (size_t i = 0; i < whole.n_ignores && i < split.n_ignores; i++) {
		const char *a = whole.ignores[i].names, *b = split.ignores[i].names;

		FUZZ_CHECK(whole.ignores[i].line == split.ignores[i].line &&
			   whole.ignores[i].at == split.ignores[i].at);
		FUZZ_CHECK((!a && !b) || (a && b && strcmp(a, b) == 0));
	}
	for (size_t i = 0; i < whole.n_code && i < split.n_code; i++)
		FUZZ_CHECK(whole.code_ranges[i].start == split.code_ranges[i].start &&
			   whole.code_ranges[i].end == split.code_ranges[i].end);

	/* The first directive, for the scanner's wake, wherever the pieces cut. */
	{
		const char *first = find_literal(text, n, PRESCAN_DIRECTIVE, PRESCAN_DIRECTIVE_LEN);
		uint64_t at = first ? (uint64_t)(first - text) : n >= 9 ? n - 9 : 0;

		FUZZ_CHECK(whole.dir_hit == !!first && whole.dir_clear == at,
			   "whole: %d at %llu, not %d at %llu", whole.dir_hit,
			   (unsigned long long)whole.dir_clear, !!first, (unsigned long long)at);
		FUZZ_CHECK(split.dir_hit == !!first && split.dir_clear == at,
			   "pieces of %zu: %d at %llu, not %d at %llu", piece, split.dir_hit,
			   (unsigned long long)split.dir_clear, !!first, (unsigned long long)at);
	}

	/* With confirm: every "halluscan:" confirmed, or none. */
	read_all(&none, text, n, piece, true);
	read_all(&all, text, n, piece, true);
	for (size_t i = 0; i + 10 <= n; i++)
		if (memcmp(text + i, "halluscan:", 10) == 0)
			FUZZ_CHECK(prescan_confirm(&all, i) == 0);
	for (size_t at = 0, counted = 0; at < n; at += 1 + at % 7) {
		const char *signal = names[at % 3];
		uint64_t wait = UINT64_MAX, w2 = UINT64_MAX;
		int want, got, pending;

		/* The line of at, counted as the scanner counts it (1-based). */
		for (; counted < at; counted++)
			line += text[counted] == '\n';
		want = prescan_ignored(&whole, at, line, signal, "url.http", UINT64_MAX, &wait);
		got = prescan_ignored(&all, at, line, signal, "url.http", UINT64_MAX, &wait);
		FUZZ_CHECK(want == 0 || want == 1, "%d", want);
		FUZZ_CHECK(got == want, "at %zu: %d, not %d", at, got, want);
		FUZZ_CHECK(prescan_ignored(&none, at, line, signal, "url.http", UINT64_MAX, &wait) == 0);
		/* Not yet scanned past at: -1 names a directive at or after it. */
		pending = prescan_ignored(&none, at, line, signal, "url.http", at, &w2);
		FUZZ_CHECK(pending == 0 || (pending == -1 && w2 >= at && w2 < n), "%d %llu", pending,
			   (unsigned long long)w2);
	}
	prescan_fini(&whole);
	prescan_fini(&split);
	prescan_fini(&none);
	prescan_fini(&all);
	return 0;
}
