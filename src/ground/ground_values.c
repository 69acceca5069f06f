// SPDX-License-Identifier: MIT
/*
 * What a unit of tool text's values say, read into a grounded set: items and values (JSON,
 * Python dicts, listings), list lengths, dash lines, codes, phone numbers, dates and bare
 * hosts. (Moved from scan's scan_ground.c; ground_unit.c opens and closes it.)
 */
#include "ground_values.h"

#include "common/url.h"
#include "common/window.h"
#include "ground/attrs.h"
#include "ground/ground.h"
#include "ground/record.h"
#include "numbers/numlex.h"
#include "numbers/quantity.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The longest label word taken ("Activity", "Session", "Option"). */
#define LABEL_WORD 24

struct ground_values {
	const struct window *win;   /* the input's recent bytes: the unit's are read there */
	const struct attrs *attrs;  /* NULL without an attribute rule */
	bool codes;  /* a rule checks codes (grounding: code): values are read for them */
	struct buf key;
	/*
	 * The unit's quantities, read by the record reader (values with their
	 * keys) and the number lexer: a span's bytes from rec_at on are read
	 * from the window as they are about to leave it (catch_up), and the
	 * rest when it closes; a source's as they are fed. Into rec_ground.
	 */
	struct record *reader;
	struct ground *rec_ground;
	bool rec_on;
	uint64_t rec_at, rec_base;
	uint64_t rec_seq;            /* the ground's next seq when the text began */
	uint64_t quantities;         /* put in rec_ground since the unit opened */
	/* A run of text lines alike but for a leading number (line_run()). */
	uint64_t run_shape, run_at;
	uint32_t run_n;
	struct ground_context run_ctx; /* its lines' words */
	/* Items of a list in key: value text ("- all_day: false" ... "- all_day:
	 * true"): the first key of the items so far, how many, where (dash_item()). */
	uint64_t dash_key, dash_at;
	uint32_t dash_n;
	bool dash_whole; /* the items began the record's text: one is a list too */
	/* The short values of the item read now (item_value()): at most
	 * ITEM_VALUES, their pairs counted when it ends (item_end()). */
	struct {
		uint64_t field, at;
		uint8_t len;
		char text[GROUND_GROUP_PAIR_VALUE];
	} item[4];
	uint8_t n_item;
	bool item_over; /* it had more: no pairs of it */
	struct ground_context dash_ctx;
	/* Labels numbered from 1 at lines' starts ("Activity 1:" ... "Activity
	 * 4:"): the label's hash, the last number, where 1 was (label_run()). */
	uint64_t lab_word, lab_at;
	uint32_t lab_n;
	bool lab_broken; /* a number out of turn: no list */
	/* a label word that ended a folded YAML line ("Activity\"), its number
	 * on the next ("\ 3: Team Lunch"): its bytes, how many */
	char lab_pend[24];
	uint8_t lab_pend_n;
	bool lab_fold; /* the value read now starts with such a number */
	struct ground_context lab_ctx;
	const struct record_value *rec_value;
	bool phones_only; /* of rec_value (its key names something): its phone numbers only */
	/* A text line that ended with a month's name ("... on June"): the month,
	 * 1-12, else 0, and the offset of its name, for the next line's day. */
	unsigned fold_month;
	uint64_t fold_at;
	/* The periods of the value's figures, and the quantities of its last
	 * figure, [per_mark, per_end) in seq, which a period after it binds to. */
	struct numlex_periods periods;
	uint64_t per_mark, per_end;
};

_Static_assert(LABEL_WORD <= sizeof(((struct ground_values *)0)->lab_pend), "a label word fits");

/* The item of a list in key: value text ends: each pair of its values
 * counted once (ground_group_pair_add()). */
static int item_end(struct ground_values *r)
{
	int err = 0;
	size_t i, j;

	for (i = 0; !r->item_over && i < r->n_item && err == 0; i++)
		for (j = i + 1; j < r->n_item && err == 0; j++)
			if (r->item[i].field != r->item[j].field)
				err = ground_group_pair_add(r->rec_ground, r->item[i].field, r->item[i].text,
							    r->item[i].len, r->item[j].field, r->item[j].text,
							    r->item[j].len, r->item[i].at);
	r->n_item = 0;
	r->item_over = false;
	return err;
}

/* A list of n items with no key, said at at: grounded as an array's length is. */
static int add_list_length(struct ground_values *r, uint32_t n, uint64_t at, const struct ground_context *ctx)
{
	struct quantity q;
	char text[16];
	int len;

	quantity_set_items(&q, NULL, 0, n);
	len = snprintf(text, sizeof(text), "%u", (unsigned)n);
	r->quantities++;
	return ground_add_quantity(r->rec_ground, &q, text, (size_t)len, at, ctx);
}

/* The list of key: value items ends: as many as they are, two or more, a
 * list with no key. */
static int dash_end(struct ground_values *r)
{
	int err = item_end(r);

	if (err == 0 && (r->dash_n >= 2 || (r->dash_n == 1 && r->dash_whole)))
		err = add_list_length(r, r->dash_n, r->dash_at, &r->dash_ctx);
	r->dash_n = 0;
	return err;
}

/* The run of numbered labels ends: 1 to n of them, n >= 2, a list of n with no key. */
static int label_run_end(struct ground_values *r)
{
	int err = 0;

	if (r->lab_n >= 2 && !r->lab_broken)
		err = add_list_length(r, r->lab_n, r->lab_at, &r->lab_ctx);
	r->lab_n = 0;
	r->lab_broken = false;
	return err;
}

/* A key word's tags (key_tags()): that they were asked, and what the word
 * is; KEY_HASHED: its record_word_ctx holds its step of key_hash(). */
enum { KEY_TAGGED = 1, KEY_NAMES = 2, KEY_PHONE = 4, KEY_HASHED = 8 };

/*
 * The tags of a key word: KEY_NAMES, its values name or locate something
 * and count nothing; KEY_PHONE, they are phone numbers
 * (ground_bare_phone()). By length, then the keys of that length a byte at
 * a time, each key's tags beside it: strcmp() read the word afresh for
 * each key (and glibc took a slower path wherever the record's word
 * buffer fell near the end of a page, so that its cost moved with the
 * heap's layout).
 */
static unsigned key_word_tags(const char *w)
{
#define N KEY_NAMES
#define P KEY_PHONE
	static const char *const by_len[10] = {
		[2] = "id",
		[3] = "doi" "ean" "fax" "ids" "key" "lat" "lng" "lon" "sha" "sku" "tel" "upc" "zip",
		[4] = "cell" "code" "guid" "hash" "isbn" "issn" "uuid",
		[5] = "phone",
		[6] = "mobile" "postal",
		[7] = "zipcode",
		[8] = "latitude" "postcode",
		[9] = "longitude" "telephone",
	};
	static const unsigned char tags[10][13] = {
		[2] = {N},
		[3] = {N, N, N | P, N, N, N, N, N, N, N, N | P, N, N},
		[4] = {P, N, N, N, N, N, N},
		[5] = {N | P},
		[6] = {P, N},
		[7] = {N},
		[8] = {N, N},
		[9] = {N, N | P},
	};
	static const unsigned char count[10] = {[2] = 1, [3] = 13, [4] = 7, [5] = 1, [6] = 2,
						[7] = 1, [8] = 2, [9] = 2};
	/* By length, the first letters of its keys (bit c - 'a'). */
#define F(c) (1u << ((c) - 'a'))
	static const uint32_t firsts[10] = {
		[2] = F('i'),
		[3] = F('d') | F('e') | F('f') | F('i') | F('k') | F('l') | F('s') | F('t') | F('u') | F('z'),
		[4] = F('c') | F('g') | F('h') | F('i') | F('u'),
		[5] = F('p'), [6] = F('m') | F('p'), [7] = F('z'), [8] = F('l') | F('p'), [9] = F('l') | F('t'),
	};
#undef F
#undef N
#undef P
	size_t n, i, j;
	const char *k;

	/* (firsts holds the first letters of the keys of each length: a word
	 * whose first byte is not among them is none of them) */
	for (n = 0; n < 10 && w[n]; n++)
		;
	if (n == 10 || (unsigned)(w[0] - 'a') >= 26 || !(firsts[n] >> (w[0] - 'a') & 1))
		return KEY_TAGGED;
	for (i = 0, k = by_len[n]; i < count[n]; i++, k += n) {
		for (j = 0; j < n && k[j] == w[j]; j++)
			;
		if (j == n)
			return KEY_TAGGED | tags[n][i];
	}
	return KEY_TAGGED;
}

/*
 * The tags of v's key word i, asked once per word on the path:
 * key_word_tags() reads the word's bytes and nothing else, and the reader
 * hands back a word's record_word_ctx (its tags with it) only beside
 * those same bytes (it compares every byte of the word's slot first, and
 * a word it does not find comes with no tags), so the tags read back are
 * the ones the word would be given afresh.
 */
static inline unsigned key_tags(const struct record_value *v, size_t i)
{
	struct record_word_ctx *c = v->word_ctx ? &v->word_ctx[i] : NULL;
	unsigned t;

	if (c && (c->tags & KEY_TAGGED))
		return c->tags;
	t = key_word_tags(v->words[i]);
	if (c)
		c->tags |= (uint8_t)t;
	return t;
}

/*
 * FNV-1a over v's key words' bytes one after another, from h. A word's
 * step (the hash it leaves from the hash it was given) is a function of
 * its bytes and that hash alone, kept in its record_word_ctx beside the
 * hash it was given (kept by the word's bytes as key_tags() says): taken
 * again only when the hash given is the same, so it is the step afresh.
 * Every value of a list's items' keys (and every item of an array) hashes
 * its path anew, from the same words and the same start.
 */
static inline uint64_t key_hash(const struct record_value *v, uint64_t h)
{
	size_t i;

	for (i = 0; i < v->n_words; i++) {
		struct record_word_ctx *c = v->word_ctx ? &v->word_ctx[i] : NULL;
		uint64_t in = h;

		if (c && (c->tags & KEY_HASHED) && c->hash_in == h) {
			h = c->hash_out;
			continue;
		}
		for (const char *w = v->words[i]; *w; w++)
			h = (h ^ (unsigned char)*w) * 0x100000001b3ull;
		if (c) {
			c->hash_in = in;
			c->hash_out = h;
			c->tags |= KEY_HASHED;
		}
	}
	return h;
}

/*
 * "of this month", "of the month", "this month", "next month" at t[0, n)
 * (after blanks): the day an ordinal before it names is of a month the
 * text leaves to the calendar ("the 10th of this month").
 */
static bool month_left_open(const char *t, size_t n)
{
	static const char *const tails[] = {"of this month", "of the month", "of next month",
					    "this month", "next month"};
	size_t i = 0, k, m;

	while (i < n && (t[i] == ' ' || t[i] == '\t'))
		i++;
	for (k = 0; k < ARRAY_SIZE(tails); k++) {
		m = strlen(tails[k]);
		if (n - i >= m && strncasecmp(t + i, tails[k], m) == 0 &&
		    (n - i == m || !isalnum((unsigned char)t[i + m])))
			return true;
	}
	return false;
}

/*
 * " of 3" at t[0, n) after a name's number ("Method 1 of 3", "Part 2 of
 * 4"): how many the name numbers (2 to 12), else 0.
 */
static unsigned name_of_many(const char *t, size_t n)
{
	size_t i = 0;
	unsigned m = 0;

	while (i < n && t[i] == ' ')
		i++;
	if (n - i < 4 || strncasecmp(t + i, "of ", 3) != 0)
		return 0;
	for (i += 3; i < n && t[i] == ' '; i++)
		;
	for (; i < n && isdigit((unsigned char)t[i]) && m < 100; i++)
		m = m * 10 + (unsigned)(t[i] - '0');
	if (i < n && isalnum((unsigned char)t[i]))
		return 0;
	return m >= 2 && m <= 12 ? m : 0;
}

/* Does t[0, n) start with "24/7" or "24 hours a day"? */
static bool all_day_phrase(const char *t, size_t n)
{
	return (n >= 4 && memcmp(t, "24/7", 4) == 0) ||
	       (n >= 14 && strncasecmp(t, "24 hours a day", 14) == 0);
}

/* A quantity of a tool span or source: grounded, said with its key and sentence. */
/*
 * Whether it is the number of a listed line: whole digits that start a
 * line of the value, then ':' and no digit ("7:    print(x)", "12:"), as
 * an editor or `nl`-like tool numbers the lines of a file it shows.
 */
static bool listing_line_number(const struct record_value *v, const struct numlex_item *it)
{
	size_t f = it->part_from, t = it->part_to;

	if (it->q.kind != QUANTITY_NUMBER || it->flags || it->q.decimals || t >= v->len ||
	    v->text[t] != ':' || (t + 1 < v->len && isdigit((unsigned char)v->text[t + 1])))
		return false;
	return f == 0 ? !v->cont : v->text[f - 1] == '\n';
}

/* The bits a hexadecimal mask of ones keeps ("0xff": 8), or 0 when t[0, n)
 * is no such mask of two digits or more. */
static unsigned hex_mask_bits(const char *t, size_t n)
{
	size_t i;

	if (n < 4 || t[0] != '0' || (t[1] | 0x20) != 'x')
		return 0;
	for (i = 2; i < n; i++)
		if ((t[i] | 0x20) != 'f')
			return 0;
	return (unsigned)(4 * (n - 2));
}

static unsigned numbered_label(const char *t, size_t n, uint64_t *word);

/*
 * Whether it is the number of a numbered label at a line's start
 * ("Activity 3: Team Lunch", label_run()): the label's, not a figure of
 * three things; the name with it ("Activity 3") is still said.
 */
static bool label_number(const struct ground_values *r, const struct record_value *v,
			 const struct numlex_item *it)
{
	const char *t = v->text;
	size_t f = it->part_from, b;
	uint64_t word;

	if (it->q.kind != QUANTITY_NUMBER || it->q.decimals || it->q.value < 1 || it->q.value > 99 ||
	    it->part_to >= v->len || t[it->part_to] != ':')
		return false;
	/* "\ 3:" that a folded YAML line starts with */
	for (b = 0; b < f && t[b] == ' '; b++)
		;
	if (r->lab_fold && b + 2 == f && t[b] == '\\' && t[b + 1] == ' ')
		return true;
	if (f < 3 || t[f - 1] != ' ')
		return false;
	for (b = f - 1; b > 0 && isalpha((unsigned char)t[b - 1]); b--)
		;
	if (numbered_label(t + b, v->len - b, &word) != (unsigned)it->q.value)
		return false;
	while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
		b--;
	return b == 0 ? !v->cont : t[b - 1] == '\n' || (b >= 2 && t[b - 1] == 'n' && t[b - 2] == '\\');
}

static int ground_item(struct ground_values *r, const struct numlex_item *it)
{
	const struct record_value *v = r->rec_value;
	struct ground_context gc;
	size_t from, to;
	uint32_t period;
	int err, role;

	/* "$3.69 in the third quarter of 2021": the figure's quantities, added
	 * before its period was read, are said of it. */
	role = numlex_period_feed(&r->periods, v->text, v->len, it, &period);
	if (role == NUMLEX_PERIOD_BINDS)
		ground_set_period(r->rec_ground, r->per_mark, r->per_end, period);
	else if (role == NUMLEX_PERIOD_FIGURE)
		r->per_mark = ground_next_seq(r->rec_ground);
	/* "open 24/7", "24 hours a day": held under a unit of its own, which
	 * grounds an answer's saying so where no day's hours are given
	 * (claims.c); no time of the clock. */
	if ((it->flags & NUMLEX_FIXED_PHRASE) && !r->phones_only &&
	    all_day_phrase(v->text + it->from, v->len - it->from)) {
		struct quantity q;

		quantity_set(&q, QUANTITY_TIME, "time:all-day", 0, 1);
		record_context(v, it->from, &gc);
		r->quantities++;
		err = ground_add_quantity(r->rec_ground, &q, v->text + it->from, it->to - it->from,
					  r->rec_base + record_offset(v, it->from), &gc);
		if (err < 0)
			return err;
	}
	/* A list's numbering, a passage's, "24/7": they state nothing. */
	if ((it->flags & NUMLEX_NOT_CLAIM) ||
	    (r->phones_only && quantity_class_of(&it->q) != QC_PHONE))
		return 0;
	from = it->flags & NUMLEX_RANGE ? it->from : it->part_from;
	to = it->flags & NUMLEX_RANGE ? it->to : it->part_to;
	record_context(v, from, &gc);
	ground_context_words(v->text + from, to - from, &gc);
	ground_context_after(v->text + to, v->len - to, &gc);
	/* "7:    print(...)", a line of a file an agent's tool lists: the
	 * line's number, said of no word of the code on it (else "17 random
	 * numbers" about that code reads as its "7" changed); grounded as said. */
	if (listing_line_number(v, it)) {
		gc.n = 0;
		gc.mask = 0;
		gc.before1 = gc.after1 = 0;
	}
	if (role == NUMLEX_PERIOD_FIGURE || role == NUMLEX_PERIOD_SAME)
		gc.period = period;
	gc.quarter_year = r->periods.quarter_year;
	gc.compared = r->periods.quarter_year_compared;
	gc.bound = it->flags & NUMLEX_ABOVE ? 1 : it->flags & NUMLEX_BELOW ? -1 : 0;
	r->quantities++;
	err = label_number(r, v, it) ? 0
				     : ground_add_quantity(r->rec_ground, &it->q, v->text + from,
							   to - from, r->rec_base + record_offset(v, from),
							   &gc);
	if (err == 0 && it->q.kind == QUANTITY_NUMBER && !it->q.words) {
		/* A figure after a name ("Toby 3632"): the name's digits too, as the
		 * model's text has them (claims.c). */
		size_t gap, k = quantity_name_before(v->text, it->part_from, &gap);
		size_t b = it->part_from - gap - k;
		struct quantity q;

		if (k && quantity_set_name(&q, v->text + b, k, it->q.value))
			err = ground_add_quantity(r->rec_ground, &q, v->text + b, it->part_to - b,
						  r->rec_base + record_offset(v, b), &gc);
		/* "Method 1 of 3": the others of the three are named too (an
		 * answer's "Method 2" is one of them, not Method 1 changed). */
		if (k && err == 0) {
			unsigned of = name_of_many(v->text + it->part_to, v->len - it->part_to), m;

			for (m = 1; err == 0 && m <= of; m++)
				if (m != it->q.value && quantity_set_name(&q, v->text + b, k, m))
					err = ground_add_quantity(r->rec_ground, &q, v->text + b,
								  it->part_to - b,
								  r->rec_base + record_offset(v, b), &gc);
		}
	}
	/* "0xffffffffffff", a mask of ones: the bits it keeps ("cut to 48
	 * bits"), four a digit, as a reader of the code counts them. */
	if (err == 0 && (it->flags & NUMLEX_HEX)) {
		unsigned bits = hex_mask_bits(v->text + it->part_from, it->part_to - it->part_from);
		struct quantity q;

		if (bits) {
			quantity_set(&q, QUANTITY_COUNT, "bit", bits, 1);
			err = ground_add_quantity(r->rec_ground, &q, v->text + from, to - from,
						  r->rec_base + record_offset(v, from), &gc);
		}
	}
	/* "the 10th of this month": that day of a month no one named here (a
	 * transcript may not say today's date); any month's 10th is taken for
	 * it, so the answer's "March 10th" is the day the user gave. */
	if (err == 0 && it->q.kind == QUANTITY_ORDINAL && !it->q.years && it->q.value >= 1 &&
	    it->q.value <= 31 && it->q.value == (int)it->q.value &&
	    month_left_open(v->text + it->to, v->len - it->to)) {
		struct quantity d;
		int m;

		for (m = 1; err == 0 && m <= 12; m++) {
			quantity_set(&d, QUANTITY_DATE, "date:day", m * 100 + it->q.value, 1);
			err = ground_add_quantity(r->rec_ground, &d, v->text + from, to - from,
						  r->rec_base + record_offset(v, from), &gc);
		}
	}
	/* Four digits the lexer counted ("our forecast for 2021 remains") are a
	 * year too: an answer's year is then held against it. */
	if (err == 0 && !(it->flags & NUMLEX_RANGE) &&
	    quantity_may_be_year(&it->q, v->text, v->len, it->part_from)) {
		struct quantity y;

		quantity_set(&y, QUANTITY_YEAR, "date:year", it->q.value, 1);
		err = ground_add_quantity(r->rec_ground, &y, v->text + it->part_from, 4,
					  r->rec_base + record_offset(v, it->part_from), &gc);
	}
	if (role == NUMLEX_PERIOD_FIGURE || role == NUMLEX_PERIOD_SAME)
		r->per_end = ground_next_seq(r->rec_ground);
	return err;
}

/*
 * A JSON array's number of items ("results": three of them), held as a
 * count of what its key names: "3 results" is then grounded, "3" alone or
 * "3 servers" is not (quantity.h). An array with no key (a tool's whole
 * result, a list of flights) is a count of whatever the answer calls its
 * items: "I found 4 flights" of a search that returned four.
 */
static int ground_items(struct ground_values *r, const struct record_value *v)
{
	struct ground_context gc;
	struct quantity q;
	double n = strtod(v->text, NULL);
	char text[24];
	int err;

	quantity_set_items(&q, v->words, v->n_words, n);
	record_context(v, 0, &gc);
	r->quantities++;
	err = ground_add_quantity(r->rec_ground, &q, v->text, v->len, r->rec_base + v->at, &gc);
	/* Items each dated a day after another (a forecast): as many days
	 * ("the next three days"). */
	if (err == 0 && n >= 2 && n <= GROUND_DAY_RUN_MAX &&
	    ground_day_run(r->rec_ground, r->rec_seq, r->rec_base + v->opened) == (unsigned)n) {
		quantity_set(&q, QUANTITY_BASE, "seconds", n * QUANTITY_DAY_SECONDS,
			     QUANTITY_DAY_SECONDS);
		q.items = true; /* no bare figure: a length is no figure of anything else */
		snprintf(text, sizeof(text), "%u days", (unsigned)n);
		err = ground_add_quantity(r->rec_ground, &q, text, strlen(text), r->rec_base + v->at,
					  &gc);
	}
	return err;
}

/* Lines alike that make a list: at least this many. */
#define LINE_RUN_MIN 3

#define ITEM_VALUES 4

/* A short value of a field of the item read now. */
static void item_value(struct ground_values *r, uint64_t field, const struct record_value *v)
{
	if (v->len < 2 || v->len > GROUND_GROUP_PAIR_VALUE)
		return;
	if (r->n_item == ITEM_VALUES) {
		r->item_over = true;
		return;
	}
	r->item[r->n_item].field = field;
	r->item[r->n_item].at = r->rec_base + v->at;
	r->item[r->n_item].len = (uint8_t)v->len;
	memcpy(r->item[r->n_item].text, v->text, v->len);
	r->n_item++;
}

/* The run of lines alike ends: as many as they are, a list with no key. */
static int line_run_end(struct ground_values *r)
{
	int err = 0;

	if (r->run_n >= LINE_RUN_MIN)
		err = add_list_length(r, r->run_n, r->run_at, &r->run_ctx);
	r->run_n = 0;
	return err;
}

/*
 * A command's output that repeats a line ("[0] Got random number: 4",
 * "[1] Got random number: 4", ...) lists its lines: lines of text alike
 * but for a leading number ("[3]", "3.", "3)", "3:") count as the items
 * of a list ("16 times", "it printed 16"), as an array's do.
 */
static int line_run(struct ground_values *r, const struct record_value *v)
{
	const char *p = v->text, *end = v->text + v->len;
	uint64_t h = 1469598103934665603ull;
	size_t i;

	if (v->cont)
		return line_run_end(r);
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && (*p == '[' || *p == '#')) {
		const char *d = p + 1;

		while (d < end && *d >= '0' && *d <= '9')
			d++;
		if (d > p + 1 && (*p == '#' || (d < end && *d == ']')))
			p = d + (*p == '[');
	} else if (p < end && *p >= '0' && *p <= '9') {
		const char *d = p;

		while (d < end && *d >= '0' && *d <= '9')
			d++;
		if (d < end && (*d == '.' || *d == ')' || *d == ':') && d + 1 < end && d[1] == ' ')
			p = d + 1;
	}
	for (i = 0; i < v->n_words; i++)
		for (const char *w = v->words[i]; *w; w++)
			h = (h ^ (unsigned char)*w) * 1099511628211ull;
	h = (h ^ 0xff) * 1099511628211ull;
	/* (eight bytes a step: lines alike hash alike however it is done, and
	 * this reads every line of text a tool gives) */
	for (; end - p >= 8; p += 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		h = (h ^ w) * 1099511628211ull;
		h ^= h >> 29;
	}
	for (; p < end; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	if (r->run_n > 0 && h == r->run_shape) {
		/* (its words are the first line's: read once, when it is a run) */
		if (r->run_n == 1)
			record_context(v, v->len, &r->run_ctx);
		if (r->run_n < UINT32_MAX)
			r->run_n++;
		return 0;
	}
	if (line_run_end(r) < 0)
		return -ENOMEM;
	r->run_shape = h;
	r->run_at = r->rec_base + v->at;
	r->run_n = 1;
	return 0;
}

/*
 * A label and its number at a line's start of t[0, n) ("Activity 3:"): the
 * number (1 to 99) and the word's hash; 0 when there is none.
 */
static unsigned numbered_label(const char *t, size_t n, uint64_t *word)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned num = 0;
	size_t i = 0, d;

	if (n < 4 || t[0] < 'A' || t[0] > 'Z')
		return 0;
	for (; i < n && i <= LABEL_WORD && isalpha((unsigned char)t[i]); i++)
		h = (h ^ (unsigned char)(t[i] | 0x20)) * 0x100000001b3ull;
	if (i < 2 || i > LABEL_WORD || i + 2 >= n || t[i] != ' ')
		return 0;
	for (d = ++i; i < n && i < d + 2 && isdigit((unsigned char)t[i]); i++)
		num = num * 10 + (unsigned)(t[i] - '0');
	if (i == d || i >= n || t[i] != ':')
		return 0;
	*word = h;
	return num;
}

/*
 * Labels numbered 1, 2, ... at lines' starts ("Activity 1: Problem-Solving
 * Workshop", its fields, "Activity 2: ...") name the items of a list, as
 * many as the last number ("4 team-building activities" of a document
 * whose labels run to "Activity 4"): a line's start is the value's, or
 * past a line break in it, written or escaped ("\n", as a YAML or JSON
 * string keeps it). Another number of that label ("Activity 3" after
 * "Activity 1") drops the list; another label is let be.
 */
static int label_run(struct ground_values *r, const struct record_value *v)
{
	const char *t = v->text, *end = v->text + v->len;
	size_t off = 0;

	char fold[LABEL_WORD + 8];
	size_t pend = r->lab_pend_n;
	const char *nl = NULL, *bn = NULL; /* the next line break, and escaped one */

	r->lab_pend_n = 0;
	r->lab_fold = false;
	for (;;) {
		const char *p = t + off, *w;
		uint64_t word;
		unsigned num;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		/* a label folded over two lines of YAML: "Activity\" then "\ 3:" */
		if (off == 0 && pend && end - p >= 4 && p[0] == '\\' && p[1] == ' ') {
			size_t k = MIN((size_t)(end - p) - 2, sizeof(fold) - pend - 1);

			memcpy(fold, r->lab_pend, pend);
			fold[pend] = ' ';
			memcpy(fold + pend + 1, p + 2, k);
			num = numbered_label(fold, pend + 1 + k, &word);
			r->lab_fold = num > 0;
		} else {
			num = numbered_label(p, (size_t)(end - p), &word);
		}
		for (w = p; w < end && isalpha((unsigned char)*w); w++)
			;
		if (w - p >= 2 && w - p <= LABEL_WORD && *p >= 'A' && *p <= 'Z' &&
		    (w == end || (w + 1 == end && *w == '\\'))) {
			memcpy(r->lab_pend, p, (size_t)(w - p));
			r->lab_pend_n = (uint8_t)(w - p);
		}
		if (num == 1) {
			int err = label_run_end(r);

			if (err < 0)
				return err;
			r->lab_word = word;
			r->lab_n = 1;
			r->lab_at = r->rec_base + v->at + (uint64_t)(p - t);
			record_context(v, 0, &r->lab_ctx);
		} else if (num > 1 && r->lab_n > 0 && word == r->lab_word) {
			if (num == r->lab_n + 1 && r->lab_n < 99)
				r->lab_n++;
			else
				r->lab_broken = true;
		}
		/* the next line's start: past a line break, or an escaped one
		 * (each found once, by memchr, however many lines there are) */
		if ((!nl || nl < p) && !(nl = memchr(p, '\n', (size_t)(end - p))))
			nl = end;
		while (!bn || bn < p || (bn < end && !(bn + 1 < end && bn[1] == 'n'))) {
			const char *from = !bn || bn < p ? p : bn + 1;

			if (from >= end || !(bn = memchr(from, '\\', (size_t)(end - from))))
				bn = end;
		}
		p = MIN(nl, bn);
		if (p == end)
			return 0;
		off = (size_t)(p - t) + (*p == '\n' ? 1 : 2);
	}
}

/* How far back a text value's line is read for its start. */
#define DASH_LINE 64

/* The key of items with none ("- Alice"); a key's FNV hash is 1 by a chance of 2^-64. */
#define DASH_BARE 1u

/* The key of a labelled list, one item a line ("Hotel Names: Good Night\nLuxury Palace"). */
#define DASH_LABEL 2u

/* The longest line taken for an item of a labelled list. */
#define DASH_LABEL_ITEM 64

/* Whether [t, t + n) may be one item of a labelled list: a short line, no field, no sentence. */
static bool label_item(const char *t, size_t n)
{
	return n > 0 && n <= DASH_LABEL_ITEM && t[0] != ' ' && t[0] != '\t' && t[0] != '-' &&
	       !memchr(t, ':', n) && t[n - 1] != '.' && t[n - 1] != ',';
}

/*
 * A list in key: value text, as YAML writes records ("- all_day: false",
 * its other fields indented under it, then "- all_day: false" again): the
 * items are the lines at a line's start that open with "- " and the same
 * key; a line at the start that does not ends them. Counted as an array's
 * items are ("You have 3 appointments" of three events).
 */
static int dash_item(struct ground_values *r, const struct record_value *v)
{
	uint64_t at = r->rec_base + v->at, lo = at > r->rec_base + DASH_LINE ? at - DASH_LINE : r->rec_base;
	uint64_t key = 0xcbf29ce484222325ull;
	const char *p;
	size_t n, i, k;

	if (v->cont)
		return 0;
	p = window_get(r->win, lo, at, &n);
	if (n != at - lo)
		return 0;
	for (i = n; i > 0 && p[i - 1] != '\n'; i--)
		;
	if (i == 0 && lo > r->rec_base)
		return 0; /* (a line longer than read: no item's start) */
	/*
	 * A result that is a label and then one item a line ("Hotel Names: Le
	 * Marais Boutique", "Good Night", "Luxury Palace"): as many items as
	 * lines, when the result ends with them; any other line drops the list.
	 */
	if (r->dash_n > 0 && r->dash_key == DASH_LABEL) {
		if (i == n && v->kind == RECORD_PROSE && label_item(v->text, v->len)) {
			if (r->dash_n < UINT32_MAX)
				r->dash_n++;
			return 0;
		}
		r->dash_n = 0;
	}
	if (i < n && lo + i == r->rec_base && v->kind == RECORD_STRING && p[i] != '-' &&
	    p[i] != '*' && p[i] != ' ' && p[i] != '\t' && n >= 2 && p[n - 2] == ':' && p[n - 1] == ' ' &&
	    label_item(v->text, v->len)) {
		if (dash_end(r) < 0)
			return -ENOMEM;
		r->dash_key = DASH_LABEL;
		r->dash_at = at;
		r->dash_n = 1;
		r->dash_whole = false;
		record_context(v, 0, &r->dash_ctx);
		return 0;
	}
	/* A line that is a whole item ("- Alice", as a YAML list of names
	 * is written): items with no key. The result's whole text a list of
	 * them, one is a list of one ("1 member"). */
	if (i == n && v->kind == RECORD_PROSE && v->len >= 3 && v->text[0] == '-' &&
	    v->text[1] == ' ' && v->text[2] != ' ' && !memchr(v->text, ':', v->len)) {
		if (r->dash_n > 0 && r->dash_key == DASH_BARE) {
			if (r->dash_n < UINT32_MAX)
				r->dash_n++;
			return 0;
		}
		r->dash_whole = false;
		if (dash_end(r) < 0)
			return -ENOMEM;
		r->dash_key = DASH_BARE;
		r->dash_at = at;
		r->dash_n = 1;
		r->dash_whole = v->at == 0;
		record_context(v, 0, &r->dash_ctx);
		return 0;
	}
	r->dash_whole = false;
	if (i == n) /* a line with no key: prose ends the items, unless indented */
		return v->len && v->text[0] != ' ' && v->text[0] != '\t' ? dash_end(r) : 0;
	if (p[i] == ' ' || p[i] == '\t')
		return 0; /* a field of the item, indented */
	if (n - i < 4 || p[i] != '-' || p[i + 1] != ' ')
		return dash_end(r);
	for (k = i + 2; k < n && p[k] != ':'; k++)
		key = (key ^ (unsigned char)p[k]) * 0x100000001b3ull;
	if (k == n || k == i + 2)
		return dash_end(r);
	if (r->dash_n > 0 && key == r->dash_key) {
		if (r->dash_n < UINT32_MAX)
			r->dash_n++;
		return item_end(r);
	}
	if (dash_end(r) < 0)
		return -ENOMEM;
	r->dash_key = key;
	r->dash_at = at;
	r->dash_n = 1;
	record_context(v, 0, &r->dash_ctx);
	return 0;
}

/* The codes a value holds ("ELITEFIT15", "5a22ac8d3f"): grounded as said. */
static int ground_codes(struct ground_values *r, const struct record_value *v)
{
	struct ground_codes cur = {.want_names = true};
	size_t from, len;

	while ((len = ground_next_code(v->text, v->len, &cur, true, &from)) > 0) {
		size_t k, shorts = cur.is_name ? 0 : ground_hash_prefixes(v->text + from, len);
		int err = 0;

		/* the code, and a hash's short forms ("5a22ac8" of a long one) */
		for (k = 0; err == 0 && k <= shorts; k++) {
			size_t n = k < shorts ? GROUND_HASH_SHORT_MIN + k : len;

			err = ground_code_key(&cur, v->text + from, n, &r->key);
			if (err == 0)
				err = ground_add(r->rec_ground, r->key.data, r->key.len,
						 r->rec_base + record_offset(v, from));
		}
		if (err < 0)
			return err;
	}
	if (cur.names) {
		ground_note_codes(r->rec_ground);
	}
	return 0;
}

/* Does t[0, n) hold digits only, at least least of them (and at most 20)? */
static bool digits_only(const char *t, size_t n, size_t least)
{
	size_t i;

	if (n < least || n > 20)
		return false;
	for (i = 0; i < n; i++)
		if (t[i] < '0' || t[i] > '9')
			return false;
	return true;
}

/*
 * A number under an id-like key ("id": 7, "user_id": "42"): the digits of
 * that key's name, as "ID 7", "ID: 7" or "id #7" say them (the name
 * quantities of claims.c), never a figure.
 */
static int ground_id_digits(struct ground_values *r, const struct record_value *v)
{
	const char *w = v->words[v->n_words - 1], *t = v->text;
	struct ground_context gc;
	struct quantity q;
	size_t n = v->len, at = 0;

	/* A YAML text line quotes it: "id_: '0'" */
	if (n >= 3 && (t[0] == '\'' || t[0] == '"') && t[n - 1] == t[0]) {
		at = 1;
		n -= 2;
	}
	if (!digits_only(t + at, n, 1) || !quantity_set_name(&q, w, strlen(w), strtod(t + at, NULL)))
		return 0;
	record_context(v, 0, &gc);
	r->quantities++;
	return ground_add_quantity(r->rec_ground, &q, t + at, n, r->rec_base + record_offset(v, at), &gc);
}

/*
 * A phone number a record gives as digits alone under a key that names one
 * ("phone": "4155550100", "fax": 14155550100, "+442079460958"): the lexer
 * reads bare digits as a figure; the key says they are a number to dial,
 * grounded as the lexer grounds a spaced one (numlex.c, phone()).
 */
static int ground_bare_phone(struct ground_values *r, const struct record_value *v)
{
	struct ground_context gc;
	struct quantity q;
	double value = 0;
	size_t i, k, digits;
	bool named = false;

	if (v->cont || v->len < 10 || v->len > 16)
		return 0;
	/* (any word of the path: "phone": {"home": ...}) */
	for (i = 0; i < v->n_words && !named; i++)
		named = key_tags(v, i) & KEY_PHONE;
	if (!named)
		return 0;
	k = v->text[0] == '+';
	for (i = k; i < v->len; i++) {
		if (v->text[i] < '0' || v->text[i] > '9')
			return 0;
		value = value * 10 + (v->text[i] - '0');
	}
	digits = v->len - k;
	if (digits < 10 || digits > 15)
		return 0;
	if (digits == 11 && v->text[k] == '1')
		value -= 1e10; /* the North American plan's country code */
	quantity_set(&q, QUANTITY_IDENT, QUANTITY_PHONE, value, 1);
	record_context(v, 0, &gc);
	r->quantities++;
	return ground_add_quantity(r->rec_ground, &q, v->text, v->len, r->rec_base + v->at, &gc);
}

/*
 * A span said with "a" ("for a day") at v->text[from, to): grounded as the
 * quantities of one ("1 day") are.
 */
static int said_span(struct ground_values *r, const struct record_value *v, size_t from, size_t to,
		     const char *one)
{
	struct numlex lx;
	struct numlex_item items[NUMLEX_BATCH];
	struct ground_context gc;
	size_t n = strlen(one);
	int k, j, err = 0;

	for (k = numlex_scan(&lx, one, n, 0, items, NUMLEX_BATCH);;
	     k = numlex_resume(&lx, items, NUMLEX_BATCH)) {
		for (j = 0; j < k && !err; j++) {
			record_context(v, from, &gc);
			ground_context_words(v->text + from, to - from, &gc);
			r->quantities++;
			err = ground_add_quantity(r->rec_ground, &items[j].q, v->text + from, to - from,
						  r->rec_base + record_offset(v, from), &gc);
		}
		if (k < 0)
			err = k;
		if (err || k < NUMLEX_BATCH)
			break;
	}
	return err;
}

/*
 * "to stay for a day", "a week-long rental", "for an hour": a span said
 * with "a", which the lexer reads as no figure (most "a day"s are none:
 * "twice a day", "a day before"). After "for", or before "-long" or
 * " long", it is one of its unit, grounded as "1 day" is: "your one-day
 * stay", "a 7-day rental" repeat it.
 */
static int ground_spans_said(struct ground_values *r, const struct record_value *v)
{
	static const char *const units[] = {"day", "week", "night", "hour", "month", "year"};
	static const char *const one[] = {"1 day", "1 week", "1 night", "1 hour", "1 month", "1 year"};
	const char *t = v->text, *p;
	size_t n = v->len, i, m, k, w;
	int err = 0;

	/* Where "a" or "an" stands after "for" or before a "long": found from
	 * the "r" of "for" and the "g" of "long" (memchr), not byte by byte. */
	for (p = t; err == 0 && (p = memchr(p, 'r', (size_t)(t + n - p))); p++) {
		i = (size_t)(p - t) + 2; /* the "a" */
		if (i + 1 >= n || t[i - 1] != ' ' || (t[i] | 0x20) != 'a' || i < 4 ||
		    strncasecmp(t + i - 4, "fo", 2) != 0 || (i > 4 && isalpha((unsigned char)t[i - 5])))
			continue;
		k = i + 1 + (i + 1 < n && t[i + 1] == 'n');
		if (k >= n || t[k] != ' ')
			continue;
		k++;
		for (m = 0; m < ARRAY_SIZE(units); m++) {
			w = strlen(units[m]);
			if (k + w <= n && strncasecmp(t + k, units[m], w) == 0 &&
			    (k + w == n || !isalpha((unsigned char)t[k + w])))
				break;
		}
		if (m < ARRAY_SIZE(units))
			err = said_span(r, v, i, k + w, one[m]);
	}
	for (p = t; err == 0 && (p = memchr(p, 'g', (size_t)(t + n - p))); p++) {
		size_t e = (size_t)(p - t); /* the '-' or ' ' before "long", once found */

		if (e < 8 || memcmp(t + e - 3, "lon", 3) != 0)
			continue;
		e -= 4;
		if (t[e] != '-' && t[e] != ' ')
			continue;
		for (m = 0; m < ARRAY_SIZE(units); m++) {
			w = strlen(units[m]);
			if (e >= w + 2 && strncasecmp(t + e - w, units[m], w) == 0 && t[e - w - 1] == ' ')
				break;
		}
		if (m == ARRAY_SIZE(units))
			continue;
		k = e - w - 1; /* the blank before the unit */
		if (k >= 1 && (t[k - 1] | 0x20) == 'a' && (k == 1 || t[k - 2] == ' '))
			i = k - 1;
		else if (k >= 2 && (t[k - 2] | 0x20) == 'a' && t[k - 1] == 'n' && (k == 2 || t[k - 3] == ' '))
			i = k - 2;
		else
			continue;
		err = said_span(r, v, i, e, one[m]);
	}
	return err;
}

static const char *const fold_months[] = {"January", "February", "March", "April", "May", "June",
					  "July", "August", "September", "October", "November",
					  "December"};

_Static_assert(ARRAY_SIZE(fold_months) == 12, "twelve months");

/* The lengths of fold_months[]' names. */
static const unsigned char fold_month_len[] = {7, 8, 5, 5, 3, 4, 4, 6, 9, 7, 8, 8};

/*
 * The month (1-12) whose full name ends t[0, n) after a blank, else 0. A
 * name holds no blank, so the one that ends t after a blank is all of the
 * last word (after the last blank): only the names of that word's length
 * (3 to 9) are compared with it, where each of the twelve was, for every
 * line of text a tool gives.
 */
static unsigned month_at_end(const char *t, size_t n)
{
	size_t m, i;

	while (n > 0 && t[n - 1] == ' ')
		n--;
	for (i = n; i > 0 && n - i < 10 && t[i - 1] != ' '; i--)
		;
	if (i == 0 || t[i - 1] != ' ')
		return 0;
	for (m = 0; m < ARRAY_SIZE(fold_months); m++)
		if (fold_month_len[m] == n - i && strncasecmp(t + i, fold_months[m], n - i) == 0)
			return (unsigned)m + 1;
	return 0;
}

/* The dates of text[0, n), the month's name and the next line's first bytes read together: at at. */
static int fold_days(struct ground_values *r, const struct record_value *v, uint64_t at,
		     const char *text, size_t n)
{
	struct numlex lx;
	struct numlex_item items[NUMLEX_BATCH];
	struct ground_context gc;
	int k, j, err = 0;

	for (k = numlex_scan(&lx, text, n, 0, items, NUMLEX_BATCH);;
	     k = numlex_resume(&lx, items, NUMLEX_BATCH)) {
		for (j = 0; j < k && !err; j++) {
			const struct numlex_item *it = &items[j];

			if (quantity_class_of(&it->q) != QC_DATE)
				continue;
			record_context(v, 0, &gc);
			r->quantities++;
			err = ground_add_quantity(r->rec_ground, &it->q, text + it->from, it->to - it->from,
						  at, &gc);
		}
		if (k < 0)
			err = k;
		if (err || k < NUMLEX_BATCH)
			break;
	}
	return err;
}

/*
 * A date a folded line of YAML text splits ("... on June\n    10th 2024 at
 * 1 PM"): the reader gives each line alone, so the month ends one and the
 * day opens the next. The month's name and the next line's first bytes
 * are read together for the date they make (dates only).
 */
static int ground_folded_date(struct ground_values *r, const struct record_value *v)
{
	unsigned month = r->fold_month;
	char buf[64];
	size_t i = 0, k, n;

	r->fold_month = 0;
	if (v->cont || (v->kind != RECORD_PROSE && v->kind != RECORD_STRING))
		return 0;
	if (month) {
		while (i < v->len && v->text[i] == ' ')
			i++;
		if (v->kind == RECORD_PROSE && i < v->len && v->text[i] >= '1' && v->text[i] <= '9') {
			int err;

			k = strlen(fold_months[month - 1]);
			memcpy(buf, fold_months[month - 1], k);
			buf[k++] = ' ';
			n = MIN(v->len - i, sizeof(buf) - k);
			memcpy(buf + k, v->text + i, n);
			if ((err = fold_days(r, v, r->fold_at, buf, k + n)) < 0)
				return err;
		}
	}
	if ((r->fold_month = month_at_end(v->text, v->len)))
		r->fold_at = r->rec_base + record_offset(v, v->len);
	return 0;
}

/* The most pairs of one Python dict line counted (group_dict()). */
#define DICT_PAIRS 64

/* A quoted string from t[i] ('...' or "...", "\\" escaping): its end after the close, or 0. */
static size_t py_string(const char *t, size_t i, size_t n, size_t *b, size_t *e)
{
	char q = t[i];

	if (q != '\'' && q != '"')
		return 0;
	for (*b = ++i; i < n && t[i] != q; i++)
		if (t[i] == '\\')
			i++;
	if (i >= n)
		return 0;
	*e = i;
	return i + 1;
}

/*
 * A line that is a flat Python dict of names to strings, as a tool prints
 * one ("{'New Asiaway': 'Chinese', 'Royal Panda': 'Chinese', 'Le Baratin':
 * 'French'}"; JSON reads it as prose): its values are one field's, counted
 * by value ("4 Chinese restaurants"), when the whole line is such pairs.
 */
static int group_dict(struct ground_values *r, const struct record_value *v)
{
	const char *t = v->text;
	size_t n = v->len, i = 0, k = 0, b, e, vb[DICT_PAIRS], ve[DICT_PAIRS];
	uint64_t field = 0x7d1c7a5e11d1c7ull ^ (r->rec_base + v->at);
	int err = 0;

	while (i < n && (t[i] == ' ' || t[i] == '{'))
		i++;
	while (i < n && k < DICT_PAIRS) {
		if (!(i = py_string(t, i, n, &b, &e)))
			return 0;
		while (i < n && t[i] == ' ')
			i++;
		if (i >= n || t[i++] != ':')
			return 0;
		while (i < n && t[i] == ' ')
			i++;
		if (i >= n || !(i = py_string(t, i, n, &vb[k], &ve[k])))
			return 0;
		k++;
		while (i < n && t[i] == ' ')
			i++;
		if (i < n && t[i] == '}') {
			i++;
			break;
		}
		if (i >= n || t[i++] != ',')
			return 0;
		while (i < n && t[i] == ' ')
			i++;
	}
	while (i < n && (t[i] == ' ' || t[i] == '\r'))
		i++;
	if (i != n || k < 2)
		return 0;
	for (i = 0; i < k && err == 0; i++)
		if (ve[i] - vb[i] <= GROUND_GROUP_VALUE)
			err = ground_group_add(r->rec_ground, field, t + vb[i], ve[i] - vb[i],
					       r->rec_base + record_offset(v, vb[i]));
	return err;
}

/* The longest bare address read ("www." and on). */
#define BARE_URL_MAX 256

/*
 * A bare address a user or a tool gives ("Read www.informations.com."):
 * grounded as the URL a reply writes for it, that host with "http://" or
 * "https://" (and the path given, if any). A word that starts "www.",
 * after no letter, digit, '.', '/' or '@', with a dot past "www."; what
 * else a reply adds (another host, a path) is no repeat.
 */
static int ground_bare_hosts(struct ground_values *r, const struct record_value *v)
{
	static const char *const schemes[] = {"http://", "https://"};
	char url[8 + BARE_URL_MAX];
	const char *t = v->text, *w;
	size_t n = v->len, at = 0, k, len, i;
	int err;

	/* (memchr, not memmem: most values are short, and memmem's set-up
	 * costs more than their scan) */
	while (at + 8 <= n && (w = memchr(t + at, 'w', n - at - 7))) {
		size_t from = (size_t)(w - t);

		at = from + 1;
		if (memcmp(w, "www.", 4) != 0)
			continue;
		at = from + 4;
		if (from > 0 && (isalnum((unsigned char)t[from - 1]) || t[from - 1] == '.' ||
				 t[from - 1] == '/' || t[from - 1] == '@' || t[from - 1] == '-'))
			continue;
		for (k = 0; k < ARRAY_SIZE(schemes); k++) {
			size_t sl = strlen(schemes[k]);

			len = MIN(n - from, (size_t)BARE_URL_MAX);
			memcpy(url, schemes[k], sl);
			memcpy(url + sl, t + from, len);
			len = url_end(url, sl + len);
			/* a host with a dot past "www." ("www.x.com", not "www.x") */
			for (i = sl + 4; i < len && url[i] != '/' && url[i] != '.'; i++)
				;
			if (len <= sl + 4 || i >= len || url[i] != '.' || i == sl + 4)
				break;
			if (ground_key(GROUNDING_URL, url, len, &r->key) < 0)
				return -ENOMEM;
			err = ground_add(r->rec_ground, r->key.data, r->key.len,
					 r->rec_base + record_offset(v, from));
			if (err < 0)
				return err;
			at = from + (len - sl);
		}
	}
	return 0;
}

/*
 * The quantities the lexer reads in a value, grounded (ground_item()).
 * Inlined into on_ground_value(), its one caller: a call of its own (GCC
 * leaves it out of line for its frame) cost about 30 instructions a value.
 */
static inline __attribute__((always_inline)) int ground_lexed(struct ground_values *r,
							      const struct record_value *v)
{
	struct numlex lx;
	struct numlex_item items[NUMLEX_BATCH];
	int k, j, err = 0;

	for (k = numlex_scan(&lx, v->text, v->len, v->cont ? 0 : NUMLEX_LINE_START, items,
			     NUMLEX_BATCH);;
	     k = numlex_resume(&lx, items, NUMLEX_BATCH)) {
		for (j = 0; j < k && !err; j++)
			err = ground_item(r, &items[j]);
		if (k < NUMLEX_BATCH || err)
			break;
	}
	return k < 0 ? k : err;
}

static inline __attribute__((always_inline)) int on_ground_value(struct ground_values *r,
								    const struct record_value *v)
{
	struct ground_attr ga;
	uint64_t field = 0; /* a short string value's field (its key's hash), else 0 */

	/* A yes or a no a record states of something its key names. */
	if ((v->kind == RECORD_BOOL || (v->kind == RECORD_STRING && !v->cont && v->len <= 16)) &&
	    attrs_of_value(r->attrs, v->words, v->n_words, v->text, v->len, v->kind == RECORD_BOOL,
			   r->rec_base + v->at, &ga)) {
		int err;

		err = ground_add_attr(r->rec_ground, &ga);
		if (err < 0 || v->kind == RECORD_BOOL)
			return err;
	}
	/* "a day before", "tomorrow": the days from another date or from
	 * today a user or a tool spoke of, against which a reply's dates are
	 * resolved. */
	if ((v->kind == RECORD_PROSE || v->kind == RECORD_STRING) && v->len >= 3) {
		int err;

		ground_note_relative(r->rec_ground, v->text, v->len);
		if ((err = ground_spans_said(r, v)) < 0)
			return err;
	}
	/* A field's value, counted: items of a list that share it ("sender":
	 * "Charlie" twice) are what "Charlie: 2 messages" counts. */
	if (v->kind == RECORD_STRING && !v->cont && v->n_words > 0 && v->len <= GROUND_GROUP_VALUE) {
		int err;

		field = key_hash(v, 0xcbf29ce484222325ull);
		err = ground_group_add(r->rec_ground, field, v->text, v->len, r->rec_base + v->at);
		if (err < 0)
			return err;
	}
	if (v->kind == RECORD_PROSE && !v->cont && v->len >= 12 && memchr("{'\"", v->text[0], 3)) {
		int err = group_dict(r, v);

		if (err < 0)
			return err;
	}
	if ((v->kind == RECORD_PROSE || v->kind == RECORD_STRING) &&
	    record_mode(r->reader) == RECORD_MODE_TEXT) {
		int err = line_run(r, v);

		if (err == 0)
			err = dash_item(r, v);
		/* (and the item's values together: "1 in general" of Charlie's) */
		if (err == 0 && field && r->dash_n > 0)
			item_value(r, field, v);
		if (err < 0 || (err = ground_folded_date(r, v)) < 0)
			return err;
	} else {
		r->fold_month = 0;
	}
	if (v->kind == RECORD_PROSE || v->kind == RECORD_STRING) {
		int err = label_run(r, v);

		if (err < 0)
			return err;
	}
	if (v->kind == RECORD_BOOL || v->kind == RECORD_NULL || v->len == 0)
		return 0;
	if (v->kind == RECORD_COUNT)
		return ground_items(r, v);
	if (r->codes && (v->kind == RECORD_STRING || v->kind == RECORD_PROSE)) {
		int err = ground_codes(r, v);

		if (err < 0)
			return err;
	}
	if ((v->kind == RECORD_STRING || v->kind == RECORD_PROSE) && v->len >= 8) {
		int err = ground_bare_hosts(r, v);

		if (err < 0)
			return err;
	}
	if (v->kind == RECORD_STRING || v->kind == RECORD_NUMBER) {
		int err = ground_bare_phone(r, v);

		if (err < 0)
			return err;
	}
	/* A value that names or locates something ("zip", "phone", "id")
	 * counts nothing: only the phone numbers it may hold are grounded,
	 * and its digits alone as the key's name's ("ID: 7"). An id of five
	 * digits or more and nothing else ("item_id": "9612497925") is said
	 * as a number too ("item 9612497925"), and grounded as one: no count
	 * or price has that many digits by coincidence. */
	r->phones_only = false;
	if (v->n_words > 0 && (key_tags(v, v->n_words - 1) & KEY_NAMES)) {
		int err = ground_id_digits(r, v);

		if (err < 0)
			return err;
		r->phones_only = !digits_only(v->text, v->len, 5);
	}
	r->rec_value = v;
	numlex_periods_reset(&r->periods);
	r->per_mark = r->per_end = ground_next_seq(r->rec_ground);
	return ground_lexed(r, v);
}

int ground_values_new(const struct window *win, const struct attrs *attrs, bool codes,
		      struct ground_values **out)
{
	struct ground_values *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	r->win = win;
	r->attrs = attrs;
	r->codes = codes;
	err = record_new(&r->reader);
	if (err < 0) {
		free(r);
		return err;
	}
	*out = r;
	return 0;
}

void ground_values_free(struct ground_values *r)
{
	if (!r)
		return;
	record_free(r->reader);
	buf_free(&r->key);
	free(r);
}

void ground_values_open(struct ground_values *r, struct ground *g, uint64_t at)
{
	record_reset(r->reader);
	r->rec_ground = g;
	r->rec_on = true;
	r->rec_at = r->rec_base = at;
	r->rec_seq = ground_next_seq(g);
	r->quantities = 0;
	r->run_n = 0;
	r->dash_n = 0;
	r->lab_n = 0;
	r->lab_pend_n = 0;
	r->n_item = 0;
	r->item_over = false;
	r->fold_month = 0;
}

/*
 * Value v and those after it. (One copy for read_values()' three callers:
 * on_ground_value() is called from here alone, so it is inlined into the
 * loop, and a value costs no call.)
 */
static __attribute__((noinline)) int read_values_from(struct ground_values *r,
						      const struct record_value *v)
{
	struct record *rd = r->reader;
	int err;

	do {
		if ((err = on_ground_value(r, v)) != 0)
			return err;
	} while ((v = record_next(rd)));
	return 0;
}

/* The values of what the reader was given last (a piece or the end): often none. */
static inline int read_values(struct ground_values *r)
{
	const struct record_value *v = record_next(r->reader);

	return v ? read_values_from(r, v) : 0;
}

int ground_values_feed(struct ground_values *r, const char *p, size_t n)
{
	int err;

	r->rec_at += n;
	if (!r->rec_on)
		return 0;
	err = record_feed(r->reader, p, n);
	return err ? err : read_values(r);
}

int ground_values_catch_up(struct ground_values *r, uint64_t to)
{
	const char *p;
	size_t n;
	int err;

	if (!r->rec_on || to <= r->rec_at)
		return 0;
	p = window_get(r->win, r->rec_at, to, &n);
	r->rec_at = to;
	err = record_feed(r->reader, p, n);
	if (!err)
		err = read_values(r);
	if (err)
		r->rec_on = false;
	return err;
}

int ground_values_close(struct ground_values *r, uint64_t to)
{
	int err = ground_values_catch_up(r, to);

	if (!err && r->rec_on)
		err = record_end(r->reader);
	if (!err && r->rec_on)
		err = read_values(r);
	if (!err && r->rec_on)
		err = line_run_end(r);
	if (!err && r->rec_on)
		err = dash_end(r);
	if (!err && r->rec_on)
		err = label_run_end(r);
	r->run_n = 0;
	r->dash_n = 0;
	r->rec_on = false;
	return err;
}

void ground_values_stop(struct ground_values *r)
{
	r->rec_on = false;
	record_reset(r->reader);
}

uint64_t ground_values_quantities(const struct ground_values *r)
{
	return r->quantities;
}
