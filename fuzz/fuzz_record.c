// SPDX-License-Identifier: MIT
/*
 * The record reader (grounding text: JSON, JSON Lines or text), fed the
 * input whole and in random pieces. The first bytes choose:
 *   byte 0     how often the rest is repeated: 1 + byte % 4 times, or
 *              when its top 3 bits are set 17 + byte % 16 times (long
 *              strings and lines reach the chunk bound with short inputs;
 *              most inputs stay short, to be quick)
 *   bytes 1-4  the seed of the piece sizes
 *   byte 5     the largest piece, 1 + byte bytes
 * Properties:
 *  - the pieces give what the whole gives: every value with its kind,
 *    offset, words, continuation and text, the mode and the counters;
 *  - values come in order of offset; one without escapes is the text's
 *    bytes at its offset, and an escaped one's bytes map into the value
 *    as written ([at, end), which lies in the text); an array's count is
 *    digits, at the array's ']';
 *  - a value is at most RECORD_CHUNK_MAX bytes, a number at most
 *    RECORD_NUMBER_MAX, a literal is what it says; a line has no line
 *    break; only strings and lines continue;
 *  - at most RECORD_WORDS words of at most RECORD_WORD_MAX bytes, none
 *    empty, none with an ASCII capital; record_context() stays in bounds;
 *  - the bytes carried from one piece to the next stay within a chunk, a
 *    number and a key.
 */
#include <string.h>

#include "common/util.h"
#include "fuzz.h"
#include "ground/ground.h"
#include "ground/record.h"

struct run {
	const char *text; /* the whole text, to check offsets against */
	size_t len;
	uint64_t last_at;
	struct buf out;   /* every value, written down */
};

static void check_value(const struct run *r, const struct record_value *v)
{
	struct ground_context ctx;
	size_t i;

	FUZZ_CHECK(v->kind <= RECORD_COUNT);
	FUZZ_CHECK(v->len <= RECORD_CHUNK_MAX, "a value of %zu bytes", v->len);
	FUZZ_CHECK(v->at >= r->last_at, "a value at %llu after one at %llu",
		   (unsigned long long)v->at, (unsigned long long)r->last_at);
	FUZZ_CHECK(v->at <= r->len);
	FUZZ_CHECK(!v->cont || v->kind == RECORD_PROSE || v->kind == RECORD_STRING);
	if (v->n_marks == 0 && v->kind != RECORD_COUNT)
		FUZZ_CHECK(v->at + v->len <= r->len && fuzz_same(r->text + v->at, v->text, v->len),
			   "a value without escapes is not the bytes at its offset %llu",
			   (unsigned long long)v->at);
	FUZZ_CHECK(v->n_marks <= RECORD_MARKS);
	for (i = 0; i < v->n_marks; i++) {
		/* (A mark may stand just past the last byte: a text cut after an escape.) */
		FUZZ_CHECK(v->marks[i].pos <= v->len && v->marks[i].at <= r->len);
		FUZZ_CHECK(i == 0 || (v->marks[i].pos >= v->marks[i - 1].pos &&
				      v->marks[i].at > v->marks[i - 1].at));
	}
	/* The value as written lies in the text; without escapes it is as long as it reads. */
	FUZZ_CHECK(v->end <= r->len && v->end >= v->at + (v->len > 0),
		   "a value written at [%llu, %llu) of %zu bytes", (unsigned long long)v->at,
		   (unsigned long long)v->end, r->len);
	if (v->n_marks == 0 && v->kind != RECORD_STRING && v->kind != RECORD_COUNT)
		FUZZ_CHECK(v->end == v->at + v->len);
	for (i = 0; i < v->len; i++)
		FUZZ_CHECK(record_offset(v, i) >= v->at && record_offset(v, i) < v->end,
			   "byte %zu maps outside the value as written", i);
	switch (v->kind) {
	case RECORD_NUMBER:
		FUZZ_CHECK(v->len > 0 && v->len <= RECORD_NUMBER_MAX);
		break;
	case RECORD_BOOL:
		FUZZ_CHECK((v->len == 4 && memcmp(v->text, "true", 4) == 0) ||
			   (v->len == 5 && memcmp(v->text, "false", 5) == 0));
		break;
	case RECORD_NULL:
		FUZZ_CHECK(v->len == 4 && memcmp(v->text, "null", 4) == 0);
		break;
	case RECORD_PROSE:
		FUZZ_CHECK(!memchr(v->text, '\n', v->len), "a line with a line break");
		break;
	case RECORD_STRING:
		break;
	case RECORD_COUNT:
		FUZZ_CHECK(v->len > 0 && v->len <= 10 && v->n_marks == 0 && !v->cont);
		for (i = 0; i < v->len; i++)
			FUZZ_CHECK(v->text[i] >= '0' && v->text[i] <= '9', "a count that is not digits");
		FUZZ_CHECK(v->end == v->at + 1 && r->text[v->at] == ']', "a count not at its ']'");
		break;
	}
	FUZZ_CHECK(v->n_words <= RECORD_WORDS);
	for (i = 0; i < v->n_words; i++) {
		size_t k = strlen(v->words[i]), j;

		FUZZ_CHECK(k > 0 && k <= RECORD_WORD_MAX, "a word of %zu bytes", k);
		for (j = 0; j < k; j++)
			FUZZ_CHECK(v->words[i][j] < 'A' || v->words[i][j] > 'Z', "a capital in a word");
	}
	record_context(v, v->len / 2, &ctx);
	FUZZ_CHECK(ctx.n <= GROUND_CONTEXT);
	record_context(v, v->len + 1, &ctx);
	FUZZ_CHECK(ctx.n <= GROUND_CONTEXT);
}

static void on_value(struct run *r, const struct record_value *v)
{
	size_t i;

	check_value(r, v);
	r->last_at = v->at;
	FUZZ_CHECK(buf_addf(&r->out, "%d@%llu%s[", (int)v->kind, (unsigned long long)v->at,
			    v->cont ? "+" : "") == 0);
	for (i = 0; i < v->n_words; i++)
		FUZZ_CHECK(buf_adds(&r->out, v->words[i]) == 0 && buf_addc(&r->out, '.') == 0);
	FUZZ_CHECK(buf_addf(&r->out, "]%zu=", v->len) == 0 && buf_add(&r->out, v->text, v->len) == 0);
	for (i = 0; i < v->n_marks; i++)
		FUZZ_CHECK(buf_addf(&r->out, " %u:%llu", (unsigned)v->marks[i].pos,
				    (unsigned long long)v->marks[i].at) == 0);
	FUZZ_CHECK(buf_addc(&r->out, '\n') == 0);
}

/* The values of the piece (or the end) just given. */
static void pull(struct record *rd, struct run *r)
{
	const struct record_value *v;

	while ((v = record_next(rd)))
		on_value(r, v);
}

static void read_run(struct record *rd, const char *text, size_t len, uint32_t seed,
		     uint32_t max_piece, struct run *r)
{
	struct fuzz_rng rng;
	size_t i = 0;

	fuzz_rng_seed(&rng, seed);
	r->text = text;
	r->len = len;
	r->last_at = 0;
	r->out.len = 0;
	record_reset(rd);
	while (i < len) {
		size_t k = max_piece ? 1 + fuzz_rng_below(&rng, max_piece) : len - i;

		k = MIN(k, len - i);
		FUZZ_CHECK(record_feed(rd, text + i, k) == 0);
		pull(rd, r);
		i += k;
	}
	FUZZ_CHECK(record_end(rd) == 0);
	pull(rd, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct record *rd;
	static struct buf text;
	static struct run whole, split;
	struct fuzz_in in = {data, size};
	uint8_t rep = fuzz_u8(&in);
	size_t times = (rep & 0xe0) == 0xe0 ? 17 + rep % 16 : 1 + rep % 4, i;
	uint32_t seed = fuzz_u32(&in), max_piece = 1u + fuzz_u8(&in);
	struct record_stats a, b;
	enum record_mode mode;

	if (!rd)
		FUZZ_CHECK(record_new(&rd) == 0);
	text.len = 0;
	for (i = 0; i < times; i++)
		FUZZ_CHECK(buf_add(&text, in.p, in.n) == 0);
	FUZZ_CHECK(grow(&text.data, &text.cap, text.len + 1, 1) == 0); /* never NULL */

	read_run(rd, text.data, text.len, seed, 0, &whole);
	a = *record_stats(rd);
	mode = record_mode(rd);
	read_run(rd, text.data, text.len, seed, max_piece, &split);
	b = *record_stats(rd);
	FUZZ_CHECK(record_mode(rd) == mode);
	FUZZ_CHECK(a.values == b.values && a.records == b.records && a.json_errors == b.json_errors &&
		   a.too_deep == b.too_deep && a.truncated == b.truncated &&
		   a.long_numbers == b.long_numbers && a.cuts == b.cuts,
		   "the pieces' counters are not the whole's");
	if (whole.out.len != split.out.len || !fuzz_same(whole.out.data, split.out.data, whole.out.len)) {
		size_t k = 0;

		while (k < whole.out.len && k < split.out.len && whole.out.data[k] == split.out.data[k])
			k++;
		while (k > 0 && whole.out.data[k - 1] != '\n')
			k--;
		FUZZ_CHECK(0, "pieces of up to %u bytes read otherwise, from:\n%.*s\nvs.\n%.*s",
			   (unsigned)max_piece, (int)MIN(whole.out.len - k, 300), whole.out.data + k,
			   (int)MIN(split.out.len - k, 300), split.out.data + k);
	}
	FUZZ_CHECK(a.carry_high <= RECORD_CHUNK_MAX + RECORD_NUMBER_MAX + RECORD_KEY_MAX &&
		   b.carry_high <= RECORD_CHUNK_MAX + RECORD_NUMBER_MAX + RECORD_KEY_MAX,
		   "%zu and %zu bytes carried", a.carry_high, b.carry_high);
	return 0;
}
