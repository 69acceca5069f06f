// SPDX-License-Identifier: MIT
/*
 * Feeds a file to a scanner in pieces of a given size, through the public
 * API, and prints each finding and the summary one per line (pieces_test.py
 * compares the lines of several piece sizes).
 *   usage: pieces_feed FILE PIECE
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "halluscan.h"

static int on_finding(void *ctx, const struct halluscan_finding *f)
{
	(void)ctx;
	printf("finding %s %s %d %" PRIu64 " %" PRIu64 " %" PRIu64 ":%" PRIu64 " %d %" PRIu64
	       " %s %" PRIu64 " %.*s\n",
	       f->signal, f->rule, (int)f->severity, f->start, f->end, f->line, f->column,
	       f->grounded, f->grounded_at, f->source ? f->source : "-", f->source_at,
	       (int)f->text_len, f->text);
	return 0;
}

int main(int argc, char **argv)
{
	struct halluscan_scanner_options o;
	struct halluscan_rules *rules = NULL;
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *s;
	char *buf = NULL;
	size_t piece, n = 0, cap = 0, i;
	int err = -1;
	FILE *f;

	if (argc != 3 || (piece = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: pieces_feed FILE PIECE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f)
		goto out;
	for (;;) {
		if (n == cap) {
			char *p = realloc(buf, cap = cap ? 2 * cap : 1 << 20);

			if (!p)
				goto out;
			buf = p;
		}
		i = fread(buf + n, 1, cap - n, f);
		if (i == 0)
			break;
		n += i;
	}
	fclose(f);
	halluscan_scanner_options_init(&o);
	o.flags |= HALLUSCAN_SCAN_SHOW_GROUNDED;
	err = halluscan_rules_open(NULL, &rules, NULL);
	if (!err)
		err = halluscan_scanner_new(rules, &o, on_finding, NULL, &sc, NULL);
	for (i = 0; i < n && !err; i += piece)
		err = halluscan_scanner_feed(sc, buf + i, n - i < piece ? n - i : piece);
	if (!err)
		err = halluscan_scanner_end(sc, &s);
	if (!err) {
		printf("summary bytes %" PRIu64 " findings %" PRIu64 " verdict %d grounded %" PRIu64
		       " repeats %" PRIu64 " exempted %" PRIu64 " spans %" PRIu64
		       " ground_evictions %" PRIu64 "\n",
		       s->bytes, s->findings, (int)s->verdict, s->grounded, s->repeats, s->exempted,
		       s->spans, s->ground_evictions);
		for (i = 0; i < s->n_signals; i++)
			printf("signal %zu %" PRIu64 "\n", i, s->signal_counts[i]);
	}
out:
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
	free(buf);
	if (err)
		fprintf(stderr, "pieces_feed: %s: failed (%d)\n", argv[1], err);
	return err ? 2 : 0;
}
