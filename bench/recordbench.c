// SPDX-License-Identifier: MIT
/*
 * The record reader's throughput: JSON Lines business records, pretty
 * JSON, prose and key: value text, made in memory, read in 64 KiB pieces
 * by a loop that only counts the values; timed in CPU time (the best of the
 * repeats), so that other work on the machine counts less. Usage:
 * recordbench [MB] [repeats].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/util.h"
#include "ground/record.h"

struct count {
	unsigned long long values, bytes;
};

/* Counts the values of the piece (or the end) just given. */
static void pull(struct record *r, struct count *c)
{
	const struct record_value *v;

	while ((v = record_next(r))) {
		c->values++;
		c->bytes += v->len;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char review[] =
	"We came here for a birthday dinner with 8 people. The brisket was tender, the "
	"sides were fresh, and the staff kept our drinks full. Prices went up about 15% "
	"since last year, but portions are large. Parking is tight on weekends.";

static int make(struct buf *b, size_t size, int kind)
{
	unsigned long long i;

	for (i = 0; b->len < size; i++) {
		int err;

		switch (kind) {
		case 0: /* JSON Lines records */
			err = buf_addf(b, "{\"business_id\": \"b%08llu\", \"name\": \"Shop %llu\", "
				       "\"city\": \"Tucson\", \"business_stars\": %.1f, "
				       "\"review_count\": %llu, \"is_open\": true, \"attributes\": "
				       "{\"WiFi\": \"free\", \"RestaurantsPriceRange2\": 2}, "
				       "\"hours\": {\"Monday\": \"11:0-22:0\", \"Tuesday\": null}, "
				       "\"review_info\": [{\"review_stars\": 4.0, \"review_date\": "
				       "\"2013-09-08 17:30:24\", \"review_text\": \"%s\\n\\nWould "
				       "come again.\"}]}\n",
				       i, i, 1.0 + (double)(i % 9) / 2, i * 7 % 1000, review);
			break;
		case 1: /* one pretty-printed document */
			err = buf_addf(b, "%s  {\n    \"id\": %llu,\n    \"score\": %.2f,\n"
				       "    \"tags\": [\"a\", \"b\"],\n    \"note\": \"%s\"\n  }",
				       i ? ",\n" : "[\n", i, (double)(i % 1000) / 7, review);
			break;
		case 2: /* prose */
			err = buf_addf(b, "%s Line %llu.\n", review, i);
			break;
		default: /* key: value text */
			err = buf_addf(b, "Name: Shop %llu\nRating: %.1f stars\nSummary: %s\n\n", i,
				       (double)(i % 9) / 2, review);
			break;
		}
		if (err < 0)
			return err;
	}
	if (kind == 1)
		return BUF_LIT(b, "\n]\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const names[] = {"JSON Lines records", "pretty JSON", "prose",
					    "key: value text"};
	size_t mb = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 64;
	int repeats = argc > 2 ? atoi(argv[2]) : 3, kind;
	struct record *r;

	if (record_new(&r) < 0)
		return 1;
	printf("%-20s %10s %8s %12s %10s\n", "input", "MB", "MB/s", "values", "ns/byte");
	for (kind = 0; kind < 4; kind++) {
		struct buf b = {0};
		double best = 1e30;
		struct count c = {0};
		int k;

		if (make(&b, mb << 20, kind) < 0)
			return 1;
		for (k = 0; k < repeats; k++) {
			double t = now();
			size_t i;

			c = (struct count){0};
			record_reset(r);
			for (i = 0; i < b.len; i += 65536) {
				if (record_feed(r, b.data + i, MIN((size_t)65536, b.len - i)))
					return 1;
				pull(r, &c);
			}
			if (record_end(r))
				return 1;
			pull(r, &c);
			t = now() - t;
			if (t < best)
				best = t;
		}
		printf("%-20s %10.1f %8.0f %12llu %10.2f\n", names[kind], (double)b.len / 1e6,
		       (double)b.len / 1e6 / best, c.values, best * 1e9 / (double)b.len);
		if (record_stats(r)->json_errors)
			printf("  (%llu JSON errors)\n",
			       (unsigned long long)record_stats(r)->json_errors);
		buf_free(&b);
	}
	record_free(r);
	return 0;
}
