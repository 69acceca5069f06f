// SPDX-License-Identifier: MIT
/*
 * The number lexer on any text. The first bytes choose:
 *   byte 0     bit 0 NUMLEX_LINE_START; bits 1-7: the rest is repeated
 *              1 + (byte >> 1) % 4 times (longer texts from short inputs)
 *   byte 1     stop the scan at this item (0: never)
 * Properties:
 *  - items come in order of from, then part_from; an item's part lies in
 *    its expression and its expression in the text; expressions do not
 *    overlap; only known flags are set, a bound's side on one
 *    approximate figure, a citation's on a lone year;
 *  - each quantity is filled in (finite, a unit and its hash, a scale) and
 *    states itself at distance 0;
 *  - the 64-byte block pass gives what the bytewise reference pass gives,
 *    and numlex_next_glued() the digit a letter touches (and
 *    numlex_next_code_digit() that or a digit after a "_") that a
 *    byte-by-byte search finds, and numlex_code() the first of
 *    those from the scan's own pass;
 *  - linear: the bytes the scan reads stay within 128 a byte of the text;
 *  - a full array is a pause, not a loss: batches of 1 to 40 items give
 *    the items that batches of NUMLEX_BATCH give;
 *  - fed the items, numlex_period_feed() gives periods that are a quarter
 *    and a four-digit year (or the prior year or quarter, and those only to
 *    a figure), binds one only after a figure, and calls a
 *    figure a range's second end only right after its first, and a
 *    quarter-year (compared with or not) only at a quarter's year.
 * The lexer is given a whole text at once, so there is no reading in
 * pieces to compare with. The text is a buffer of exactly its length, so
 * that AddressSanitizer sees a read past it.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "fuzz.h"
#include "numbers/numlex.h"
#include "numbers/quantity.h"

#define NUMLEX_FLAGS                                                                      \
	(NUMLEX_RANGE | NUMLEX_APPROX | NUMLEX_WORDS | NUMLEX_PART | NUMLEX_SELF_COUNT |   \
	 NUMLEX_LIST_MARKER | NUMLEX_REFERENCE | NUMLEX_FIXED_PHRASE | NUMLEX_VERSION |     \
	 NUMLEX_ABOVE | NUMLEX_BELOW | NUMLEX_CITATION | NUMLEX_INLINE_ITEM | NUMLEX_HEX | \
	 NUMLEX_IMPLIED)

struct items {
	struct numlex_item *v;
	size_t n, cap;
	const char *text;
	size_t len;
	struct numlex_periods periods; /* zero: reset */
	size_t figures;                /* figures the periods have been fed */
	int role;                      /* the last item's */
};

static int on_item(void *ctx, const struct numlex_item *it)
{
	struct items *l = ctx;
	const struct numlex_item *prev = l->n ? &l->v[l->n - 1] : NULL;
	uint32_t period, year;
	int role;

	FUZZ_CHECK(it->from <= it->part_from && it->part_from < it->part_to &&
		   it->part_to <= it->to && it->to <= l->len,
		   "an item [%zu, %zu) of [%zu, %zu) in %zu bytes", it->part_from, it->part_to,
		   it->from, it->to, l->len);
	if (prev && it->from == prev->from && it->to == prev->to)
		FUZZ_CHECK(it->part_from >= prev->part_from, "the parts of an expression out of order");
	else if (prev)
		FUZZ_CHECK(it->from >= prev->to, "[%zu, %zu) overlaps [%zu, %zu)", it->from, it->to,
			   prev->from, prev->to);
	FUZZ_CHECK((it->flags & ~(unsigned)NUMLEX_FLAGS) == 0, "unknown flags %#x", it->flags);
	/* A bound's side: one of them, on an approximation or a year, never on a range. */
	if (it->flags & (NUMLEX_ABOVE | NUMLEX_BELOW))
		FUZZ_CHECK(((it->flags & NUMLEX_APPROX) || it->q.kind == QUANTITY_YEAR) &&
			   !(it->flags & NUMLEX_RANGE) &&
			   (it->flags & (NUMLEX_ABOVE | NUMLEX_BELOW)) != (NUMLEX_ABOVE | NUMLEX_BELOW),
			   "a bound's side on flags %#x", it->flags);
	/* A citation's year: a lone year, no range. */
	if (it->flags & NUMLEX_CITATION)
		FUZZ_CHECK(it->q.kind == QUANTITY_YEAR && !(it->flags & NUMLEX_RANGE),
			   "a citation's flag on kind %d, flags %#x", (int)it->q.kind, it->flags);
	/* An inline item's number is no list marker, and a hexadecimal one a whole bare number. */
	FUZZ_CHECK((it->flags & (NUMLEX_INLINE_ITEM | NUMLEX_LIST_MARKER)) !=
			   (NUMLEX_INLINE_ITEM | NUMLEX_LIST_MARKER),
		   "an inline item and a list marker at once");
	if (it->flags & NUMLEX_HEX)
		FUZZ_CHECK(it->q.kind == QUANTITY_NUMBER && it->q.value == floor(it->q.value) &&
			   it->q.value >= 0 && it->q.value < 4503599627370496.0,
			   "a hexadecimal number of %g", it->q.value);
	FUZZ_CHECK(isfinite(it->q.value) && isfinite(it->q.offset) && isfinite(it->q.scale) &&
		   it->q.scale != 0, "a quantity not filled in");
	FUZZ_CHECK(memchr(it->q.unit, '\0', sizeof(it->q.unit)) && it->q.unit[0] &&
		   it->q.unit_hash == quantity_unit_hash(it->q.unit), "a unit not filled in");
	FUZZ_CHECK(quantity_states(&it->q, &it->q), "\"%.*s\" (%g %s) does not state itself",
		   (int)(it->part_to - it->part_from), l->text + it->part_from, it->q.value,
		   it->q.unit);
	FUZZ_CHECK(quantity_distance(&it->q, &it->q) == 0);
	/* A period binds to a figure before it; a range's second end follows its first. */
	role = numlex_period_feed(&l->periods, l->text, l->len, it, &period);
	FUZZ_CHECK(role >= NUMLEX_PERIOD_OTHER && role <= NUMLEX_PERIOD_BINDS);
	year = QUANTITY_PERIOD_YEAR(period);
	FUZZ_CHECK((QUANTITY_PERIOD_QUARTER(period) <= 4 &&
		    (year == 0 || (year >= 1000 && year <= 9999))) ||
			   period == QUANTITY_PERIOD_PRIOR_YEAR ||
			   period == QUANTITY_PERIOD_PRIOR_QUARTER,
		   "period %#x", (unsigned)period);
	/* The prior year or quarter is said after a figure, of it alone. */
	if (QUANTITY_PERIOD_RELATIVE(period))
		FUZZ_CHECK(role == NUMLEX_PERIOD_FIGURE || role == NUMLEX_PERIOD_SAME,
			   "the prior period on role %d", role);
	/* A quarter-year is completed by its year, and is a quarter's and a year's. */
	if (l->periods.quarter_year)
		FUZZ_CHECK(it->q.kind == QUANTITY_YEAR &&
			   QUANTITY_PERIOD_QUARTER(l->periods.quarter_year) >= 1 &&
			   QUANTITY_PERIOD_QUARTER(l->periods.quarter_year) <= 4 &&
			   QUANTITY_PERIOD_YEAR(l->periods.quarter_year) == (uint32_t)it->q.value,
			   "quarter-year %#x on kind %d", (unsigned)l->periods.quarter_year,
			   (int)it->q.kind);
	else
		FUZZ_CHECK(!l->periods.quarter_year_compared, "compared with no quarter-year");
	if (role == NUMLEX_PERIOD_BINDS)
		FUZZ_CHECK(l->figures > 0, "a period binds with no figure before it");
	if (role == NUMLEX_PERIOD_SAME)
		FUZZ_CHECK(prev && prev->from == it->from &&
			   (l->role == NUMLEX_PERIOD_FIGURE || l->role == NUMLEX_PERIOD_SAME),
			   "a range's second end after no first");
	if (role == NUMLEX_PERIOD_FIGURE || role == NUMLEX_PERIOD_SAME)
		l->figures++;
	l->role = role;
	FUZZ_CHECK(grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)) == 0);
	l->v[l->n++] = *it;
	return 0;
}

/*
 * Every item of text to on_item(), a batch of cap at a time as the
 * library's callers loop (the counting copy's with examined): 0, or the
 * scan's error. *code: where a code may be.
 */
static int lex_batches(const char *text, size_t len, unsigned opts, size_t cap, struct items *l,
		       size_t *code, size_t *examined)
{
	static struct numlex_item *items;
	static size_t have;
	struct numlex lx;
	int k, j;

	if (have < cap) {
		FUZZ_CHECK(grow(&items, &have, cap, sizeof(*items)) == 0);
		have = cap;
	}
	opts |= NUMLEX_CODE;
	k = examined ? numlex_scan_counted(&lx, text, len, opts, items, cap)
		     : numlex_scan(&lx, text, len, opts, items, cap);
	for (;;) {
		if (k < 0)
			return k;
		for (j = 0; j < k && l; j++)
			on_item(l, &items[j]);
		if ((size_t)k < cap)
			break;
		k = examined ? numlex_resume_counted(&lx, items, cap) : numlex_resume(&lx, items, cap);
	}
	*code = numlex_code(&lx);
	if (examined)
		*examined = numlex_examined(&lx);
	return 0;
}

static bool same_item(const struct numlex_item *a, const struct numlex_item *b)
{
	return a->from == b->from && a->to == b->to && a->part_from == b->part_from &&
	       a->part_to == b->part_to && a->flags == b->flags && a->q.kind == b->q.kind &&
	       strcmp(a->q.unit, b->q.unit) == 0 && a->q.value == b->q.value &&
	       a->q.decimals == b->q.decimals && a->q.scale == b->q.scale &&
	       a->q.offset == b->q.offset && a->q.words == b->q.words;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct items blocks, bytes;
	struct fuzz_in in = {data, size};
	uint8_t opt = fuzz_u8(&in), stop = fuzz_u8(&in);
	unsigned opts = opt & 1 ? NUMLEX_LINE_START : 0;
	size_t times = 1 + (size_t)(opt >> 1) % 4, len = in.n * times, examined = 0, i, code[2];
	char *text = malloc(len ? len : 1);
	int rc;

	FUZZ_CHECK(text != NULL);
	for (i = 0; i < times; i++)
		memcpy(text + i * in.n, in.p, in.n);

	blocks = (struct items){.v = blocks.v, .cap = blocks.cap, .text = text, .len = len};
	rc = lex_batches(text, len, opts, NUMLEX_BATCH, &blocks, &code[0], &examined);
	FUZZ_CHECK(rc == 0);
	FUZZ_CHECK(examined <= 128 * len + 1024 && examined >= len, "%zu bytes read for %zu",
		   examined, len);

	bytes = (struct items){.v = bytes.v, .cap = bytes.cap, .text = text, .len = len};
	FUZZ_CHECK(lex_batches(text, len, opts | NUMLEX_BYTEWISE, NUMLEX_BATCH, &bytes, &code[1],
				NULL) == 0);
	FUZZ_CHECK(blocks.n == bytes.n, "%zu items by blocks, %zu by bytes", blocks.n, bytes.n);
	for (i = 0; i < blocks.n; i++)
		FUZZ_CHECK(same_item(&blocks.v[i], &bytes.v[i]),
			   "item %zu: [%zu, %zu) %s by blocks, [%zu, %zu) %s by bytes", i,
			   blocks.v[i].part_from, blocks.v[i].part_to, blocks.v[i].q.unit,
			   bytes.v[i].part_from, bytes.v[i].part_to, bytes.v[i].q.unit);

	/* Digits glued to letters, found by blocks from every start, as byte by byte. */
	for (i = 0; i <= len && i < 4 * (size_t)(stop + 1); i += 1 + stop % 7) {
		size_t want = i, got = numlex_next_glued(text, i, len);

		while (want < len &&
		       !((unsigned char)(text[want] - '0') <= 9 &&
			 ((want > 0 && isalpha((unsigned char)text[want - 1])) ||
			  (want + 1 < len && isalpha((unsigned char)text[want + 1])))))
			want++;
		FUZZ_CHECK(got == want, "the glued digit from %zu: %zu, byte by byte %zu", i, got, want);
	}

	/* The same, or a digit after a "_" at or after the start, in one pass. */
	for (i = 0; i <= len && i < 4 * (size_t)(stop + 1); i += 1 + stop % 5) {
		size_t want = i, got = numlex_next_code_digit(text, i, len);

		while (want < len &&
		       !((unsigned char)(text[want] - '0') <= 9 &&
			 ((want > 0 && isalpha((unsigned char)text[want - 1])) ||
			  (want + 1 < len && isalpha((unsigned char)text[want + 1])) ||
			  (want > i && text[want - 1] == '_'))))
			want++;
		FUZZ_CHECK(got == want, "the code digit from %zu: %zu, byte by byte %zu", i, got, want);
	}

	/* Where a code may be, found by the scan's own pass as by the search. */
	{
		size_t want = numlex_next_code_digit(text, 0, len);

		FUZZ_CHECK(code[0] == want && code[1] == want,
			   "the code digit by the scan: %zu, bytewise %zu, by the search %zu", code[0],
			   code[1], want);
	}

	/* Paused anywhere: batches of 1 to 40 give the same items, and the same code digit. */
	if (blocks.n > 0) {
		size_t cap = 1 + (size_t)stop % 40;

		bytes = (struct items){.v = bytes.v, .cap = bytes.cap, .text = text, .len = len};
		rc = lex_batches(text, len, opts, cap, &bytes, &code[1], NULL);
		FUZZ_CHECK(rc == 0 && bytes.n == blocks.n && code[1] == code[0],
			   "batches of %zu: %d, %zu items for %zu", cap, rc, bytes.n, blocks.n);
		for (i = 0; i < blocks.n; i++)
			FUZZ_CHECK(same_item(&blocks.v[i], &bytes.v[i]), "item %zu paused elsewhere", i);
	}
	free(text);
	return 0;
}
