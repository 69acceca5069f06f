// SPDX-License-Identifier: MIT
/* The record reader: JSON, JSON Lines and text, fed whole, byte by byte and in random pieces. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/util.h"
#include "ground/ground.h"
#include "ground/record.h"
#include "test.h"

typedef int (*value_fn)(void *ctx, const struct record_value *v);

/* Gives r a piece (in NULL: the end) and hands fn each value read from it. */
static void feed(struct record *r, const char *in, size_t n, value_fn fn, void *ctx)
{
	const struct record_value *v;

	CHECK_EQ(in ? record_feed(r, in, n) : record_end(r), 0);
	while ((v = record_next(r)))
		CHECK_EQ(fn(ctx, v), 0);
}

/* The text being read, for checking that offsets point at what was said. */
static const char *input;
static size_t input_len;

/*
 * One line per value: kind, '@' offset, the words in brackets, '+' for a
 * chunk that continues, '=' and the text (line breaks, tabs, control bytes
 * and backslashes escaped).
 */
static int collect(void *ctx, const struct record_value *v)
{
	static const char kinds[] = "PSNBZC";
	struct buf *b = ctx;
	size_t i;

	buf_addc(b, kinds[v->kind]);
	buf_addc(b, '@');
	buf_add_u64(b, v->at);
	buf_addc(b, '[');
	for (i = 0; i < v->n_words; i++) {
		if (i)
			buf_addc(b, '.');
		buf_adds(b, v->words[i]);
	}
	buf_addc(b, ']');
	if (v->cont)
		buf_addc(b, '+');
	buf_addc(b, '=');
	for (i = 0; i < v->len; i++) {
		unsigned char c = (unsigned char)v->text[i];

		if (c == '\n')
			BUF_LIT(b, "\\n");
		else if (c == '\r')
			BUF_LIT(b, "\\r");
		else if (c == '\t')
			BUF_LIT(b, "\\t");
		else if (c == '\\')
			BUF_LIT(b, "\\\\");
		else if (c < 0x20)
			buf_addf(b, "\\x%02x", c);
		else
			buf_addc(b, (char)c);
	}
	buf_addc(b, '\n');
	/* Without escapes the text is the stream's bytes at its offset; an
	 * array's count stands at its ']', and says where its '[' is. */
	CHECK(v->kind == RECORD_COUNT ? input && v->opened < v->at && input[v->opened] == '['
				      : v->opened == v->at);
	if (v->kind == RECORD_COUNT)
		CHECK(input && v->at < input_len && input[v->at] == ']' && v->end == v->at + 1);
	else if (v->n_marks == 0 && input &&
		 (v->at + v->len > input_len || memcmp(input + v->at, v->text, v->len) != 0))
		test_fail(__FILE__, __LINE__, "a value without escapes is not the bytes at its offset");
	CHECK(v->n_words <= RECORD_WORDS);
	CHECK(v->len <= RECORD_CHUNK_MAX);
	return 0;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		abort();
	return p;
}

static uint64_t rng = 88172645463325252ull;

static uint64_t next_rand(void)
{
	return test_xorshift(&rng);
}

/* Feeds in[0, n) in pieces (0: whole; 1: byte by byte; else random up to how). */
static char *read_split(struct record *r, const char *in, size_t n, size_t how)
{
	struct buf b = {0};
	size_t i = 0;

	while (i < n) {
		size_t k = how == 0 ? n - i : how == 1 ? 1 : 1 + next_rand() % how;

		k = MIN(k, n - i);
		feed(r, in + i, k, collect, &b);
		i += k;
	}
	feed(r, NULL, 0, collect, &b);
	buf_addc(&b, '\0');
	return b.data;
}

/* ---- pulled between pieces of every size ---- */

/* Every field of each value read, and checks that hold of any read. */
struct described {
	struct buf out;
	uint64_t next_at; /* where a chunk that continues must begin */
	size_t k;         /* the piece size, for the message */
};

static void describe(struct described *d, const struct record_value *v)
{
	char m[160];
	size_t i;

	buf_addf(&d->out, "%d@%llu-%llu<%llu%s[", (int)v->kind, (unsigned long long)v->at,
		 (unsigned long long)v->end, (unsigned long long)v->opened, v->cont ? "+" : "");
	for (i = 0; i < v->n_words; i++)
		buf_addf(&d->out, "%s%s", i ? "." : "", v->words[i]);
	buf_addf(&d->out, "]%zu=", v->len);
	buf_add(&d->out, v->text, v->len);
	for (i = 0; i < v->n_marks; i++)
		buf_addf(&d->out, " %u:%llu", (unsigned)v->marks[i].pos,
			 (unsigned long long)v->marks[i].at);
	buf_addc(&d->out, '\n');
	/* A chunk starts where the one before it ended; a value without
	 * escapes is the stream's bytes at its offset (so a chunk overwritten
	 * before its reader was done with it shows). */
	if (v->cont && v->at != d->next_at) {
		snprintf(m, sizeof(m), "pieces of %zu: a chunk at %llu after one that ended at %llu",
			 d->k, (unsigned long long)v->at, (unsigned long long)d->next_at);
		test_fail(__FILE__, __LINE__, m);
	}
	d->next_at = v->end;
	if (v->kind != RECORD_COUNT && v->n_marks == 0 && input &&
	    (v->at + v->len > input_len || memcmp(input + v->at, v->text, v->len) != 0)) {
		snprintf(m, sizeof(m), "pieces of %zu: the value at %llu is not the bytes there", d->k,
			 (unsigned long long)v->at);
		test_fail(__FILE__, __LINE__, m);
	}
}

/* Reads in[0, n) in pieces of k bytes, each piece's values pulled before the next is fed. */
static char *read_pieces(struct record *r, const char *in, size_t n, size_t k,
			 struct record_stats *stats)
{
	struct described d = {.k = k};
	const struct record_value *v;
	size_t i;

	record_reset(r);
	for (i = 0; i < n; i += k) {
		CHECK_EQ(record_feed(r, in + i, MIN(k, n - i)), 0);
		while ((v = record_next(r)))
			describe(&d, v);
	}
	CHECK_EQ(record_end(r), 0);
	while ((v = record_next(r)))
		describe(&d, v);
	buf_addc(&d.out, '\0');
	*stats = *record_stats(r);
	return d.out.data;
}

/* The next piece size after k for a text of n bytes: every size up to many,
 * then the sizes about the chunk bound and the whole. */
static size_t next_size(size_t k, size_t n, size_t many)
{
	static const size_t big[] = {4095, 4096, RECORD_CHUNK_MAX - 1, RECORD_CHUNK_MAX,
				     RECORD_CHUNK_MAX + 1, 2 * RECORD_CHUNK_MAX + 1};
	size_t i;

	if (k < many && k < n)
		return k + 1;
	for (i = 0; i < ARRAY_SIZE(big); i++)
		if (big[i] > k && big[i] < n)
			return big[i];
	return k < n ? n : 0;
}

/*
 * in[0, n) read in pieces of every size from 1 byte (up to many, then
 * some larger), pulling each piece's values before the next piece: each
 * read gives the values of the whole text fed at once, every field alike
 * (kind, offsets, words, continuation, text, marks), and the same counters.
 * Returns the values of the whole read.
 */
static char *check_every_size(const char *in, size_t n, size_t many, int line)
{
	struct record_stats ws, ps;
	struct record *r;
	char *whole;
	size_t k;

	CHECK_EQ(record_new(&r), 0);
	input = in;
	input_len = n;
	whole = read_pieces(r, in, n, n ? n : 1, &ws);
	for (k = 1; k > 0 && k <= n; k = next_size(k, n, many)) {
		char *got = read_pieces(r, in, n, k, &ps);

		if (strcmp(got, whole) != 0 || ps.values != ws.values || ps.cuts != ws.cuts ||
		    ps.records != ws.records || ps.json_errors != ws.json_errors ||
		    ps.too_deep != ws.too_deep || ps.truncated != ws.truncated ||
		    ps.long_numbers != ws.long_numbers) {
			size_t i = 0;
			char m[96];

			while (got[i] && got[i] == whole[i])
				i++;
			while (i > 0 && whole[i - 1] != '\n')
				i--;
			snprintf(m, sizeof(m), "pieces of %zu bytes read otherwise than whole", k);
			test_fail(__FILE__, line, m);
			fprintf(stderr, "whole, from the first difference:\n%.300s\npieces:\n%.300s\n",
				whole + i, got + i);
			free(got);
			break;
		}
		free(got);
	}
	record_free(r);
	input = NULL;
	return whole;
}

static struct record_stats last;
static enum record_mode last_mode;

/*
 * What in gives, checked to be the same whole, byte by byte and in random
 * pieces; the counters of the whole read are left in last.
 */
static char *read_all(const char *in, size_t n)
{
	static const size_t hows[] = {1, 2, 7, 64, 4096};
	struct record *r;
	char *whole;
	size_t i;

	CHECK_EQ(record_new(&r), 0);
	input = in;
	input_len = n;
	whole = read_split(r, in, n, 0);
	last = *record_stats(r);
	last_mode = record_mode(r);
	for (i = 0; i < ARRAY_SIZE(hows); i++) {
		char *split;

		record_reset(r);
		split = read_split(r, in, n, hows[i]);
		if (strcmp(split, whole) != 0) {
			char m[128];

			snprintf(m, sizeof(m), "pieces of up to %zu bytes read otherwise than whole",
				 hows[i]);
			test_fail(__FILE__, __LINE__, m);
			fprintf(stderr, "whole:\n%s\nsplit:\n%s\n", whole, split);
		}
		CHECK_EQ(record_mode(r), last_mode);
		CHECK_EQ(record_stats(r)->values, last.values);
		CHECK_EQ(record_stats(r)->json_errors, last.json_errors);
		free(split);
	}
	record_free(r);
	/* Short texts in pieces of every size; long ones of a few. */
	free(check_every_size(in, n, n <= 1024 ? n : 8, __LINE__));
	input = NULL;
	return whole;
}

static void expect(const char *in, size_t n, const char *want, int line)
{
	char *got = read_all(in, n);

	if (strcmp(got, want) != 0) {
		test_fail(__FILE__, line, "values differ");
		fprintf(stderr, "got:\n%swant:\n%s", got, want);
	}
	free(got);
}
#define EXPECT(in, want) expect(in, strlen(in), want, __LINE__)

TEST(record_business_record)
{
	EXPECT("{\"business_id\": \"x9Kq2\", \"name\": \"Golden Wok\", \"city\": \"Tucson\", "
	       "\"business_stars\": 4.5, \"review_count\": 212, \"is_open\": true, "
	       "\"attributes\": {\"WiFi\": \"free\", \"RestaurantsPriceRange2\": 2, "
	       "\"BusinessParking\": {\"lot\": true, \"valet\": false}}, "
	       "\"hours\": {\"Monday\": \"11:0-22:0\", \"Tuesday\": null}, "
	       "\"review_info\": [{\"review_stars\": 1.0, \"review_date\": \"2013-09-08 17:30:24\", "
	       "\"review_text\": \"Waited 45 minutes.\\nThe soup was cold.\"}, "
	       "{\"review_stars\": 5.0, \"review_date\": \"2019-02-11 09:05:00\", "
	       "\"review_text\": \"Best dumplings in town, 10\\/10!\"}]}",
	       "S@17[business.id]=x9Kq2\n"
	       "S@34[name]=Golden Wok\n"
	       "S@56[city]=Tucson\n"
	       "N@83[business.stars]=4.5\n"
	       "N@104[review.count]=212\n"
	       "B@120[is.open]=true\n"
	       "S@150[attributes.wi.fi]=free\n"
	       "N@183[attributes.restaurants.price.range2]=2\n"
	       "B@213[attributes.business.parking.lot]=true\n"
	       "B@228[attributes.business.parking.valet]=false\n"
	       "S@258[hours.monday]=11:0-22:0\n"
	       "Z@281[hours.tuesday]=null\n"
	       "N@321[review.info.stars]=1.0\n"
	       "S@342[review.info.date]=2013-09-08 17:30:24\n"
	       "S@380[review.info.text]=Waited 45 minutes.\\nThe soup was cold.\n"
	       "N@439[review.info.stars]=5.0\n"
	       "S@460[review.info.date]=2019-02-11 09:05:00\n"
	       "S@498[review.info.text]=Best dumplings in town, 10/10!\n"
	       "C@531[review.info]=2\n");
	CHECK_EQ(last_mode, RECORD_MODE_JSON);
	CHECK_EQ(last.records, 1);
	CHECK_EQ(last.values, 19);
	CHECK_EQ(last.json_errors, 0);
	CHECK_EQ(last.truncated, 0);
}

TEST(record_nesting)
{
	/* Items inherit their array's key; an array's close gives its number
	 * of items (nested arrays and objects are one each); an empty object
	 * says nothing. */
	EXPECT("{\"a\": [1, [2, {\"b\": [true]}], []], \"c\": {}, \"d\": [{}, {\"e\": \"x\"}]}",
	       "N@7[a]=1\n"
	       "N@11[a]=2\n"
	       "B@21[a.b]=true\n"
	       "C@25[a.b]=1\n"
	       "C@27[a]=2\n"
	       "C@31[a]=0\n"
	       "C@32[a]=3\n"
	       "S@61[d.e]=x\n"
	       "C@64[d]=2\n");
	EXPECT("[]", "C@1[]=0\n");
	EXPECT("{}", "");
	/* A key's words replace the last key's; a closed object's go. */
	EXPECT("{\"outer\": {\"x\": 1, \"y\": 2}, \"z\": 3}",
	       "N@16[outer.x]=1\n"
	       "N@24[outer.y]=2\n"
	       "N@33[z]=3\n");
	CHECK_EQ(last.records, 1);
}

TEST(record_key_words)
{
	/* camelCase, acronyms, separators, digits; case folded. */
	EXPECT("{\"reviewCount\": 1, \"HTTPServerURL\": 2, \"user_id-v2.name here\": 3, "
	       "\"utf8Name\": 4, \"ALLCAPS\": 5, \"__x__\": 6, \"\": 7, \"caf\\u00e9Menu\": 8}",
	       "N@16[review.count]=1\n"
	       "N@36[http.server.url]=2\n"
	       "N@63[user.id.v2.name.here]=3\n"
	       "N@78[utf8.name]=4\n"
	       "N@92[allcaps]=5\n"
	       "N@104[x]=6\n"
	       "N@111[]=7\n"
	       "N@131[caf\xc3\xa9.menu]=8\n");
	/* A repeated word is said once; the innermost RECORD_WORDS are kept. */
	EXPECT("{\"stars\": {\"stars_count\": 1}, \"a_b_c_d_e_f_g_h_i_j\": 2}",
	       "N@26[stars.count]=1\n"
	       "N@53[c.d.e.f.g.h.i.j]=2\n");
	/* A long word is cut to RECORD_WORD_MAX bytes. */
	EXPECT("{\"abcdefghijklmnopqrstuvwxyzabc\": 1}",
	       "N@34[abcdefghijklmnopqrstuvwx]=1\n");
}

/* A word's tags as the test below sets them: of its bytes alone, never 0. */
static uint8_t word_tag(const char *w)
{
	uint32_t h = 2166136261u;

	for (; *w; w++)
		h = (h ^ (unsigned char)*w) * 16777619u;
	return (uint8_t)(h % 255 + 1);
}

struct tag_check {
	size_t values, kept, bad;
	uint64_t state;
};

/* Each word's tags, when the reader hands them back, are its own; else set. */
static int check_tags(void *ctx, const struct record_value *v)
{
	struct tag_check *c = ctx;
	struct ground_context gc;
	size_t i;

	c->values++;
	if (!v->word_ctx)
		return -EINVAL;
	for (i = 0; i < v->n_words; i++) {
		struct record_word_ctx *w = &v->word_ctx[i];

		/* (hash_in as a step's start that differs with the word's place:
		 * a step kept is the word's own, from its own start) */
		if (w->tags) {
			c->kept++;
			if (w->tags != word_tag(v->words[i]) || w->hash_out != w->tags * 7u + w->hash_in)
				c->bad++;
			w->hash_in = i;
			w->hash_out = w->tags * 7u + i;
		} else {
			w->tags = word_tag(v->words[i]);
			w->hash_in = i;
			w->hash_out = w->tags * 7u + i;
		}
	}
	/* (a word's tags are kept as it leaves when its content words were read) */
	if (test_xorshift(&c->state) % 3)
		record_context(v, 0, &gc);
	return 0;
}

/*
 * The caller's tags of a key word (record_word_ctx) come back only with
 * that word: lists of items whose keys (more than the reader keeps) come
 * again in another order, in random pieces.
 */
TEST(record_word_tags_follow_the_word)
{
	static const char *const keys[] = {"phone", "fax", "zip", "name", "revenue", "reported",
					   "growth", "employees", "url", "id", "telephone", "cell",
					   "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l",
					   "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x",
					   "y", "z", "postal code", "userId", "item_id", "Mobile"};
	struct tag_check c = {.state = 0x9e3779b97f4a7c15ull};
	struct record *r;
	struct buf in = {0};
	size_t item, k, i, n;

	CHECK_EQ(record_new(&r), 0);
	buf_adds(&in, "{\"results\": [");
	for (item = 0; item < 300; item++) {
		buf_adds(&in, item ? ", {" : "{");
		n = 1 + test_xorshift(&c.state) % 8;
		for (k = 0; k < n; k++) {
			const char *key = keys[test_xorshift(&c.state) % ARRAY_SIZE(keys)];

			if (k)
				buf_adds(&in, ", ");
			buf_addc(&in, '"');
			buf_adds(&in, key);
			buf_adds(&in, test_xorshift(&c.state) % 4 ? "\": 1" : "\": {\"home\": \"x\"}");
		}
		buf_addc(&in, '}');
	}
	buf_adds(&in, "]}");
	for (i = 0; i < in.len; i += k) {
		k = 1 + test_xorshift(&c.state) % 64;
		feed(r, in.data + i, MIN(k, in.len - i), check_tags, &c);
	}
	feed(r, NULL, 0, check_tags, &c);
	CHECK(c.values > 300);
	CHECK(c.kept > c.values / 2);
	CHECK_EQ(c.bad, 0);
	buf_free(&in);
	record_free(r);
}

TEST(record_deep_key_path)
{
	char in[1024];
	size_t n = 0, i;

	/* 64 objects deep: the innermost 8 keys' words. */
	for (i = 0; i < RECORD_MAX_DEPTH; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "{\"k%zu\": ", i);
	n += (size_t)snprintf(in + n, sizeof(in) - n, "7");
	for (i = 0; i < RECORD_MAX_DEPTH; i++)
		in[n++] = '}';
	in[n] = '\0';
	{
		char want[128];

		snprintf(want, sizeof(want), "N@%zu[k56.k57.k58.k59.k60.k61.k62.k63]=7\n",
			 (size_t)(strrchr(in, '7') - in));
		EXPECT(in, want);
	}
	CHECK_EQ(last.too_deep, 0);
	CHECK_EQ(last.records, 1);
}

TEST(record_escapes)
{
	EXPECT("[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u0041\\u00e9\\u20ac\", \"\\ud83d\\ude00\", "
	       "\"\\ud800x\", \"\\udc00\", \"\\ud800\\u0041\", \"\\ud800\\ud83d\\ude00\", "
	       "\"a\\qb\", \"\\u12G\", \"\\ud800\\n\", \"\\ud800\"]",
	       "S@2[]=\"\\\\/\\x08\\x0c\\n\\r\\t\n"
	       "S@22[]=A\xc3\xa9\xe2\x82\xac\n"
	       "S@44[]=\xf0\x9f\x98\x80\n"
	       "S@60[]=\xef\xbf\xbdx\n"
	       "S@71[]=\xef\xbf\xbd\n"
	       "S@81[]=\xef\xbf\xbd" "A\n"
	       "S@97[]=\xef\xbf\xbd\xf0\x9f\x98\x80\n"
	       "S@119[]=a\xef\xbf\xbd" "b\n"
	       "S@127[]=\xef\xbf\xbdG\n"
	       "S@136[]=\xef\xbf\xbd\\n\n"
	       "S@148[]=\xef\xbf\xbd\n"
	       "C@155[]=11\n");
	CHECK_EQ(last.json_errors, 0);
	/* Upper-case hex; an escaped quote does not end the string. */
	EXPECT("[\"\\u00C9t\\u00E9 \\\"ok\\\"\"]", "S@2[]=\xc3\x89t\xc3\xa9 \"ok\"\nC@23[]=1\n");
}

/* The first value read, kept past its callback. */
struct kept {
	struct record_value v;
	struct record_mark marks[RECORD_MARKS];
	char text[64];
	size_t calls;
};

static int keep_first(void *ctx, const struct record_value *v)
{
	struct kept *k = ctx;

	if (k->calls++ == 0 && v->len <= sizeof(k->text)) {
		k->v = *v;
		memcpy(k->text, v->text, v->len);
		memcpy(k->marks, v->marks, v->n_marks * sizeof(*v->marks));
		k->v.text = k->text;
		k->v.marks = k->marks;
		k->v.words = NULL;
		k->v.n_words = 0;
	}
	return 0;
}

TEST(record_offsets_in_strings)
{
	/* a " b é c \n d: decoded bytes 0, 2, 5, 7 stand at 7, 10, 17, 20. */
	const char *in = "{\"k\": \"a\\\"b\\u00e9c\\nd\"}";
	struct kept k = {0};
	struct record *r;

	CHECK_EQ(record_new(&r), 0);
	feed(r, in, strlen(in), keep_first, &k);
	feed(r, NULL, 0, keep_first, &k);
	CHECK_EQ(k.calls, 1);
	CHECK_EQ(k.v.len, 8);
	CHECK(memcmp(k.v.text, "a\"b\xc3\xa9" "c\nd", 8) == 0);
	CHECK_EQ(k.v.n_marks, 3);
	CHECK_EQ(record_offset(&k.v, 0), 7);
	CHECK_EQ(record_offset(&k.v, 2), 10);
	CHECK_EQ(record_offset(&k.v, 5), 17);
	CHECK_EQ(record_offset(&k.v, 7), 20);
	/* Without escapes: at + i. */
	k = (struct kept){0};
	in = "[\"plain\"]";
	feed(r, in, strlen(in), keep_first, &k);
	feed(r, NULL, 0, keep_first, &k);
	CHECK_EQ(k.v.n_marks, 0);
	CHECK_EQ(record_offset(&k.v, 4), 2 + 4);
	record_free(r);
}

TEST(record_numbers)
{
	char in[256], want[512];
	char nines[RECORD_NUMBER_MAX + 2];

	memset(nines, '9', sizeof(nines) - 1);
	nines[sizeof(nines) - 1] = '\0';
	snprintf(in, sizeof(in),
		 "[0, -0, 12, -12.5, 1e10, 1E+2, 2.5e-3, -0.0e0, 123456789012345678901234567890, "
		 "%s, 7]", nines);
	snprintf(want, sizeof(want),
		 "N@1[]=0\nN@4[]=-0\nN@8[]=12\nN@12[]=-12.5\nN@19[]=1e10\nN@25[]=1E+2\n"
		 "N@31[]=2.5e-3\nN@39[]=-0.0e0\nN@47[]=123456789012345678901234567890\n"
		 "N@%zu[]=7\nC@%zu[]=11\n", strlen(in) - 2, strlen(in) - 1);
	EXPECT(in, want);
	CHECK_EQ(last.long_numbers, 1);
	CHECK_EQ(last.json_errors, 0);
	/* A number ends at the first byte that cannot continue it. */
	EXPECT("[1,2]", "N@1[]=1\nN@3[]=2\nC@4[]=2\n");
	EXPECT("{\"a\":-1.5e+3}", "N@5[a]=-1.5e+3\n");
	/* Not numbers: the rest of the line is prose. */
	EXPECT("[01]", "P@2[]=1]\n");
	CHECK_EQ(last.json_errors, 1);
	EXPECT("[1.]", "P@3[]=]\n");
	EXPECT("[-]", "P@2[]=]\n");
	EXPECT("[.5]", "P@1[]=.5]\n");
	EXPECT("[1.5e]", "P@5[]=]\n");
	EXPECT("[+1]", "P@1[]=+1]\n");
	/* A number that the end cuts off is whole if it could end there. */
	EXPECT("[12", "N@1[]=12\n");
	CHECK_EQ(last.truncated, 1);
	EXPECT("[12.", "");
	CHECK_EQ(last.truncated, 1);
}

TEST(record_literals)
{
	EXPECT("[true,false,null]", "B@1[]=true\nB@6[]=false\nZ@12[]=null\nC@16[]=3\n");
	EXPECT("[tru]", "P@4[]=]\n");
	CHECK_EQ(last.json_errors, 1);
	EXPECT("[nul", "");
	CHECK_EQ(last.truncated, 1);
}

TEST(record_json_lines)
{
	/* A bad record costs its own line: the next one starts JSON again. */
	EXPECT("{\"id\": 1, \"stars\": 4}\n{\"id\": 2, \"stars\": oops}\n{\"id\": 3, \"stars\": 5}\n",
	       "N@7[id]=1\nN@19[stars]=4\n"
	       "N@29[id]=2\nP@41[]=oops}\n"
	       "N@54[id]=3\nN@66[stars]=5\n");
	CHECK_EQ(last_mode, RECORD_MODE_JSONL);
	CHECK_EQ(last.records, 2);
	CHECK_EQ(last.json_errors, 1);
	/* Scalars on their own lines, and CRLF. */
	EXPECT("[1]\r\n2\r\n\"x\"\r\n", "N@1[]=1\nC@2[]=1\nN@5[]=2\nS@9[]=x\n");
	CHECK_EQ(last_mode, RECORD_MODE_JSONL);
	CHECK_EQ(last.records, 3);
	/* Values on one line follow one another: still one line. */
	EXPECT("{\"a\":1}{\"a\":2}", "N@5[a]=1\nN@12[a]=2\n");
	CHECK_EQ(last_mode, RECORD_MODE_JSON);
	CHECK_EQ(last.records, 2);
}

TEST(record_bad_json_part_way)
{
	/* From the bad byte on, prose; an indented '{' stays prose, one in column 0 is JSON. */
	EXPECT("{\"name\": \"Golden Wok\", \"stars\": 4.5 \"city\": \"Tucson\"}\n"
	       "It is open late.\n  {\"x\": 1}\n{\"y\": 2}",
	       "S@10[name]=Golden Wok\n"
	       "N@32[stars]=4.5\n"
	       "P@36[]=\"city\": \"Tucson\"}\n"
	       "P@54[]=It is open late.\n"
	       "P@71[]=  {\"x\": 1}\n"
	       "N@88[y]=2\n");
	CHECK_EQ(last.json_errors, 1);
	CHECK_EQ(last.records, 1);
	/* A string cut by a raw line break goes out as far as it went. */
	EXPECT("{\"a\": \"abc\ndef\"}\nok", "S@7[a]=abc\nP@11[]=def\"}\nP@17[]=ok\n");
	CHECK_EQ(last.json_errors, 1);
	/* A key never goes out, even cut. */
	EXPECT("{\"ab\ncd\": 1}", "P@5[]=cd\": 1}\n");
	/* Text after the document. */
	EXPECT("{\"a\": 1}\nDone: 2 rows.", "N@6[a]=1\nP@9[]=Done: 2 rows.\n");
	/* Python's repr is not JSON: all prose, nothing lost. */
	EXPECT("{'stars': 4.5}", "P@1[]='stars': 4.5}\n");
	/* The end inside a string: what it held. */
	EXPECT("{\"a\": \"abc", "S@7[a]=abc\n");
	CHECK_EQ(last.truncated, 1);
	CHECK_EQ(last.json_errors, 0);
}

TEST(record_too_deep)
{
	char in[512], want[2048];
	size_t n = 0, i;

	/* RECORD_MAX_DEPTH arrays nest... */
	for (i = 0; i < RECORD_MAX_DEPTH; i++)
		in[n++] = '[';
	in[n++] = '1';
	for (i = 0; i < RECORD_MAX_DEPTH; i++)
		in[n++] = ']';
	in[n] = '\0';
	/* (and each closes with its one item, from the innermost out) */
	n = (size_t)snprintf(want, sizeof(want), "N@%d[]=1\n", RECORD_MAX_DEPTH);
	for (i = 0; i < RECORD_MAX_DEPTH; i++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, "C@%zu[]=1\n",
				      (size_t)RECORD_MAX_DEPTH + 1 + i);
	EXPECT(in, want);
	CHECK_EQ(last.too_deep, 0);
	CHECK_EQ(last.json_errors, 0);
	/* ... one more does not: the rest of the line is prose. */
	n = 0;
	for (i = 0; i <= RECORD_MAX_DEPTH; i++)
		in[n++] = '[';
	memcpy(in + n, "1]\nmore\n[2]", 12);
	snprintf(want, sizeof(want), "P@%d[]=[1]\nP@%d[]=more\nN@%d[]=2\nC@%d[]=1\n",
		 RECORD_MAX_DEPTH, RECORD_MAX_DEPTH + 4, RECORD_MAX_DEPTH + 10, RECORD_MAX_DEPTH + 11);
	EXPECT(in, want);
	CHECK_EQ(last.too_deep, 1);
	CHECK_EQ(last.json_errors, 0);
}

TEST(record_text_lines)
{
	EXPECT("Name: Golden Wok\nRating = 4.5 stars\n\n  - Price range: $$\n"
	       "See https://example.com for more.\nMeeting at 10:30 today.\n"
	       "http://example.com/x\nNote:\nThis sentence is prose. It has 2 parts.\n"
	       "A key that is far too long to be a key at all here: value\n   \n"
	       "Total_count.v2 = 17\r\n",
	       "S@6[name]=Golden Wok\n"
	       "S@26[rating]=4.5 stars\n"
	       "S@54[price.range]=$$\n"
	       "P@57[]=See https://example.com for more.\n"
	       "P@91[]=Meeting at 10:30 today.\n"
	       "P@115[]=http://example.com/x\n"
	       "P@136[]=Note:\n"
	       "P@142[]=This sentence is prose. It has 2 parts.\n"
	       "P@182[]=A key that is far too long to be a key at all here: value\n"
	       "S@261[total.count.v2]=17\n");
	CHECK_EQ(last_mode, RECORD_MODE_TEXT);
	/* The last line needs no line break; leading blank lines are skipped. */
	EXPECT("\n\n  Stars: 4.5", "S@11[stars]=4.5\n");
	/* A '{' later in text is text. */
	EXPECT("Result:\n{\"a\": 1}", "P@0[]=Result:\n" "P@8[]={\"a\": 1}\n");
	/* A 40-byte key is a key (a word said again counts once); a 41-byte one is not. */
	EXPECT("abcdefghij abcdefghij abcdefghij abcdefg: 1\n"
	       "abcdefghij abcdefghij abcdefghij abcdefgh: 2\n",
	       "S@42[abcdefghij.abcdefg]=1\n"
	       "P@44[]=abcdefghij abcdefghij abcdefghij abcdefgh: 2\n");
}

TEST(record_start)
{
	EXPECT("", "");
	CHECK_EQ(last_mode, RECORD_MODE_NONE);
	EXPECT(" \n\t\r\n", "");
	CHECK_EQ(last_mode, RECORD_MODE_NONE);
	/* A BOM and blanks before the document. */
	EXPECT("\xef\xbb\xbf  \n{\"a\": 1}", "N@12[a]=1\n");
	CHECK_EQ(last_mode, RECORD_MODE_JSON);
	EXPECT("\xef\xbb\xbfWord", "P@3[]=Word\n");
	/* A top-level string or number is text. */
	EXPECT("\"quoted\"", "P@0[]=\"quoted\"\n");
	EXPECT("42 apples", "P@0[]=42 apples\n");
}

/* A long value: its chunks put back together, each checked. */
struct chunks {
	struct buf all;
	size_t n, max;
	uint64_t next_at;
	bool ok, exact;
	enum record_kind kind;
	const char *first_word;
};

static int on_chunk(void *ctx, const struct record_value *v)
{
	struct chunks *c = ctx;

	if (v->kind == RECORD_COUNT && c->kind != RECORD_COUNT)
		return 0; /* the array around the value: "1" at its ']' */
	if (v->kind != c->kind || v->cont != (c->n > 0) ||
	    (c->n > 0 && c->exact && v->at != c->next_at) ||
	    (c->first_word && (v->n_words == 0 || strcmp(v->words[0], c->first_word) != 0)))
		c->ok = false;
	buf_add(&c->all, v->text, v->len);
	c->n++;
	c->max = MAX(c->max, v->len);
	c->next_at = v->at + v->len;
	c->exact = v->n_marks == 0;
	return 0;
}

/* Reads in whole and in random pieces; the chunks must rebuild want[0, n). */
static void long_value(const char *in, size_t in_len, const char *want, size_t n,
		       enum record_kind kind, const char *word, size_t chunks, int line)
{
	size_t how;

	for (how = 0; how < 3; how++) {
		struct chunks c = {.ok = true, .kind = kind, .first_word = word};
		struct record *r;
		size_t i = 0;

		CHECK_EQ(record_new(&r), 0);
		while (i < in_len) {
			size_t k = how == 0 ? in_len : how == 1 ? 1 + next_rand() % 5000 : 100000;

			k = MIN(k, in_len - i);
			feed(r, in + i, k, on_chunk, &c);
			i += k;
		}
		feed(r, NULL, 0, on_chunk, &c);
		if (!c.ok || c.all.len != n || memcmp(c.all.data, want, n) != 0 ||
		    c.max > RECORD_CHUNK_MAX || (chunks && c.n != chunks))
			test_fail(__FILE__, line, "a long value's chunks");
		CHECK(record_stats(r)->carry_high <= RECORD_CHUNK_MAX);
		CHECK_EQ(record_stats(r)->cuts, c.n - 1);
		buf_free(&c.all);
		record_free(r);
	}
}

static void check_sentence_cuts(const char *in, size_t n)
{
	struct record *r;
	struct buf b = {0};
	size_t i, lines = 0;

	CHECK_EQ(record_new(&r), 0);
	input = in;
	input_len = n;
	feed(r, in, n, collect, &b);
	feed(r, NULL, 0, collect, &b);
	input = NULL;
	/* Every chunk but the last ends with a sentence: ". " before the line's end. */
	for (i = 0; i < b.len; i++)
		if (b.data[i] == '\n') {
			lines++;
			if (i + 1 < b.len)
				CHECK(i >= 2 && b.data[i - 2] == '.' && b.data[i - 1] == ' ');
		}
	CHECK(lines >= 3);
	buf_free(&b);
	record_free(r);
}

TEST(record_long_values)
{
	size_t n = 40000, i;
	char *s = xmalloc(n + 1), *in = xmalloc(n + 64);
	size_t k;

	/* Sentences: cut after one. */
	for (i = 0; i < n; i++)
		s[i] = "Sentence number 0000 is here. "[i % 30];
	k = (size_t)sprintf(in, "{\"review_text\": \"%.*s\"}", (int)n, s);
	long_value(in, k, s, n, RECORD_STRING, "review", 0, __LINE__);
	check_sentence_cuts(in, k);
	/* No blank: cut at the bound, 16384 + 16384 + 7232. */
	memset(s, 'x', n);
	k = (size_t)sprintf(in, "{\"review_text\": \"%.*s\"}", (int)n, s);
	long_value(in, k, s, n, RECORD_STRING, "review", 3, __LINE__);
	/* Three-byte characters: never cut inside one. */
	for (i = 0; i + 3 <= n; i += 3)
		memcpy(s + i, "\xe2\x82\xac", 3);
	n = i;
	k = (size_t)sprintf(in, "[\"%.*s\"]", (int)n, s);
	long_value(in, k, s, n, RECORD_STRING, NULL, 0, __LINE__);
	/* Escapes in a long string: decoded across cuts. */
	{
		struct buf esc = {0}, dec = {0};

		for (i = 0; i < 5000; i++) {
			BUF_LIT(&esc, "caf\\u00e9 \\\"bar\\\"\\n");
			BUF_LIT(&dec, "caf\xc3\xa9 \"bar\"\n");
		}
		BUF_LIT(&esc, "\"]");
		memmove(esc.data + 2, esc.data, esc.len - 2);
		memcpy(esc.data, "[\"", 2);
		long_value(esc.data, esc.len, dec.data, dec.len, RECORD_STRING, NULL, 0, __LINE__);
		buf_free(&esc);
		buf_free(&dec);
	}
	free(s);
	free(in);
}

TEST(record_long_lines)
{
	size_t n = 50000, i, k;
	char *s = xmalloc(n + 1), *in = xmalloc(n + 64);

	for (i = 0; i < n; i++)
		s[i] = "Prose goes on and on. "[i % 22];
	/* A prose line, then a keyed one; the text after them. */
	k = (size_t)sprintf(in, "%.*s", (int)n, s);
	long_value(in, k, s, n, RECORD_PROSE, NULL, 0, __LINE__);
	check_sentence_cuts(in, k);
	k = (size_t)sprintf(in, "Summary: %.*s", (int)n, s);
	long_value(in, k, s, n, RECORD_STRING, "summary", 0, __LINE__);
	/* After bad JSON too. */
	k = (size_t)sprintf(in, "[x%.*s", (int)n, s);
	{
		char *want = xmalloc(n + 2);

		want[0] = 'x';
		memcpy(want + 1, s, n);
		long_value(in, k, want, n + 1, RECORD_PROSE, NULL, 0, __LINE__);
		free(want);
	}
	free(s);
	free(in);
}

static bool same_words(const struct ground_context *a, const struct ground_context *b)
{
	size_t i, j;

	if (a->n != b->n || a->mask != b->mask)
		return false;
	for (i = 0; i < a->n; i++) {
		for (j = 0; j < b->n && b->word[j] != a->word[i]; j++)
			;
		if (j == b->n)
			return false;
	}
	return true;
}

/* The context of prose text said before a quantity. */
static void prose_context(const char *text, struct ground_context *ctx)
{
	ground_context_of(text + strlen(text), strlen(text), ctx);
}

TEST(record_context_like_prose)
{
	const char *words[] = {"review", "info", "stars"};
	const char *short_words[] = {"is", "the", "open2day"};
	struct record_value v = {.kind = RECORD_NUMBER, .text = "4.5", .len = 3,
				 .words = words, .n_words = 3};
	struct ground_context got, want;

	/* Key words hash as the same words said in prose. */
	record_context(&v, 0, &got);
	prose_context("review info stars ", &want);
	CHECK_EQ(got.n, 3);
	CHECK(same_words(&got, &want));
	/* Short and stop words count for nothing; digits end a word, as in prose. */
	v.words = short_words;
	record_context(&v, 0, &got);
	prose_context("is the open2day ", &want);
	CHECK_EQ(got.n, 2);
	CHECK(same_words(&got, &want));
	/* A string: its key's words, then the prose before the quantity. */
	v = (struct record_value){.kind = RECORD_STRING, .text = "Waited 45 minutes. Review 3 stars",
				  .len = 33, .words = words, .n_words = 3};
	record_context(&v, 7, &got);
	prose_context("review info stars waited ", &want);
	CHECK(same_words(&got, &want));
	/* A new sentence starts the prose part again; a repeated word is one. */
	record_context(&v, 26, &got);
	prose_context("review info stars ", &want);
	CHECK(same_words(&got, &want));
	/* Prose alone is what ground_context_of() gives. */
	v = (struct record_value){.kind = RECORD_PROSE, .text = "The rating rose to 4.5 stars",
				  .len = 28};
	record_context(&v, 19, &got);
	prose_context("The rating rose to ", &want);
	CHECK(same_words(&got, &want));
	CHECK_EQ(got.n, 2);
	/* At most GROUND_CONTEXT words. */
	{
		const char *many[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot",
				      "golf", "hotel"};

		v = (struct record_value){.kind = RECORD_STRING,
					  .text = "india juliet kilo lima mike november oscar papa 1",
					  .len = 49, .words = many, .n_words = 8};
		record_context(&v, 48, &got);
		CHECK_EQ(got.n, GROUND_CONTEXT);
	}
}

/* Contexts from a real read: "business_stars": 4.5 shares a word with "4.5 stars". */
static int on_context(void *ctx, const struct record_value *v)
{
	struct ground_context *out = ctx;

	if (v->kind == RECORD_NUMBER)
		record_context(v, 0, out);
	return 0;
}

TEST(record_context_of_a_read)
{
	const char *in = "{\"business_stars\": 4.5}";
	struct ground_context got, want;
	struct record *r;

	CHECK_EQ(record_new(&r), 0);
	feed(r, in, strlen(in), on_context, &got);
	feed(r, NULL, 0, on_context, &got);
	prose_context("The business has ", &want);
	CHECK_EQ(got.n, 2);
	CHECK(got.mask & want.mask);
	CHECK(got.word[0] == want.word[0] || got.word[1] == want.word[0]);
	record_free(r);
}

TEST(record_stop_part_way_and_reuse)
{
	struct record *r;
	struct buf b = {0};
	const struct record_value *v;

	CHECK_EQ(record_new(&r), 0);
	/* Two values pulled of three: nothing more is taken until the piece
	 * is read through, or the text abandoned. */
	CHECK_EQ(record_feed(r, "[1, 2, 3]", 9), 0);
	CHECK((v = record_next(r)) != NULL && v->len == 1 && v->text[0] == '1');
	CHECK((v = record_next(r)) != NULL && v->len == 1 && v->text[0] == '2');
	CHECK_EQ(record_feed(r, "4]", 2), -EBUSY);
	CHECK_EQ(record_end(r), -EBUSY);
	CHECK_EQ(record_stats(r)->values, 2);
	/* After record_end() a new text starts at offset 0, in its own mode. */
	record_reset(r);
	feed(r, "{\"a\": [1", 8, collect, &b);
	feed(r, NULL, 0, collect, &b);
	CHECK_EQ(record_mode(r), RECORD_MODE_JSON);
	feed(r, "k: v\n", 5, collect, &b);
	CHECK_EQ(record_mode(r), RECORD_MODE_TEXT);
	feed(r, NULL, 0, collect, &b);
	buf_addc(&b, '\0');
	CHECK_STR(b.data, "N@7[a]=1\nS@3[k]=v\n");
	CHECK_EQ(record_stats(r)->truncated, 1);
	buf_free(&b);
	record_free(r);
}

/* ---- a large input, in bounded memory ---- */

struct tally {
	uint64_t numbers, strings, prose, other, bytes;
	uint64_t last_at;
	bool ordered;
};

static int on_tally(void *ctx, const struct record_value *v)
{
	struct tally *t = ctx;

	if (v->kind == RECORD_NUMBER)
		t->numbers++;
	else if (v->kind == RECORD_STRING)
		t->strings++;
	else if (v->kind == RECORD_PROSE)
		t->prose++;
	else
		t->other++;
	t->bytes += v->len;
	if (v->at < t->last_at)
		t->ordered = false;
	t->last_at = v->at;
	return 0;
}

/* Feeds b in pieces of 65536 bytes as it fills, keeping the remainder. */
static void feed_out(struct record *r, struct buf *b, struct tally *t, bool all)
{
	size_t i = 0;

	while (b->len - i >= 65536 || (all && i < b->len)) {
		size_t k = MIN((size_t)65536, b->len - i);

		feed(r, b->data + i, k, on_tally, t);
		i += k;
	}
	memmove(b->data, b->data + i, b->len - i);
	b->len -= i;
}

TEST(record_large_input_bounded)
{
	const size_t target = 50u << 20;
	struct tally t = {.ordered = true};
	struct record *r;
	struct buf b = {0};
	uint64_t records = 0, fed = 0, long_len = 0;
	size_t i;

	CHECK_EQ(record_new(&r), 0);
	/* 50 MB of JSON Lines business records, and one review 3 MB long, made
	 * as they are fed: the test holds no more than a piece either. */
	while (fed < target) {
		size_t before = b.len;

		buf_addf(&b, "{\"business_id\": \"b%06llu\", \"name\": \"Shop %llu\", "
			 "\"business_stars\": %.1f, \"review_count\": %llu, \"is_open\": %s, "
			 "\"hours\": {\"Monday\": \"9:0-17:0\", \"Sunday\": null}, "
			 "\"review_info\": [{\"review_stars\": 4.0, "
			 "\"review_date\": \"2014-05-0%llu 10:11:12\", \"review_text\": \"",
			 (unsigned long long)records, (unsigned long long)records,
			 1.0 + (double)(records % 9) / 2, (unsigned long long)(records * 7 % 1000),
			 records % 2 ? "true" : "false", (unsigned long long)(records % 9 + 1));
		if (records == 1000) {
			for (i = 0; i < (3u << 20) / 32; i++) {
				BUF_LIT(&b, "Great food, slow service\\n ok. ");
				feed_out(r, &b, &t, false);
			}
			long_len = (3u << 20) / 32 * 30; /* decoded */
		} else {
			BUF_LIT(&b, "Friendly staff. Would come again in 2 weeks.");
		}
		BUF_LIT(&b, "\"}]}\n");
		fed += b.len - before;
		records++;
		feed_out(r, &b, &t, false);
	}
	feed_out(r, &b, &t, true);
	feed(r, NULL, 0, on_tally, &t);
	CHECK_EQ(record_stats(r)->records, records);
	CHECK_EQ(record_stats(r)->json_errors, 0);
	CHECK_EQ(record_mode(r), RECORD_MODE_JSONL);
	CHECK_EQ(t.numbers, records * 3);
	CHECK_EQ(t.other, records * 3); /* is_open, Sunday's null, review_info's count */
	CHECK(t.strings > records * 5);
	CHECK_EQ(t.prose, 0);
	CHECK(t.ordered);
	CHECK(long_len > 2900000);
	/* The carried bytes stay under one chunk (plus a key or a number). */
	CHECK(record_stats(r)->carry_high <= RECORD_CHUNK_MAX);
	CHECK(record_stats(r)->cuts >= long_len / RECORD_CHUNK_MAX);
	buf_free(&b);
	record_free(r);
}

/* Around the chunk bound: strings and lines of RECORD_CHUNK_MAX +- 2 with
 * every kind of ending, read alike however split. */
TEST(record_chunk_bound_edges)
{
	static const char *const json_tails[] = {"\"]", "\\u20ac\"]", "\\n\"]", "\xe2\x82\xac\"]",
						  "\\ud83d\\ude00x\"]", "\\ud83d"};
	static const char *const text_tails[] = {"\n", "\r\n", "", "\xe2\x82\xac\nnext", ". \n",
						  "x"};
	const size_t cap = RECORD_CHUNK_MAX;
	char *in = xmalloc(cap + 64), *got;
	size_t len, t, n;

	for (len = cap - 3; len <= cap + 2; len++) {
		for (t = 0; t < ARRAY_SIZE(json_tails); t++) {
			memcpy(in, "[\"", 2);
			memset(in + 2, 'a', len);
			n = 2 + len + (size_t)sprintf(in + 2 + len, "%s", json_tails[t]);
			got = read_all(in, n);
			CHECK(last.carry_high <= cap);
			free(got);
		}
		for (t = 0; t < ARRAY_SIZE(text_tails); t++) {
			memset(in, 'b', len);
			in[len / 3] = ' ';
			n = len + (size_t)sprintf(in + len, "%s", text_tails[t]);
			got = read_all(in, n);
			CHECK(last.carry_high <= cap);
			free(got);
		}
	}
	free(in);
}

/* Random JSON-like bytes: whatever they are, every split reads them alike
 * (and the sanitizers watch the state machine). */
TEST(record_random_inputs_split_alike)
{
	static const char *const atoms[] = {
		"{", "}", "[", "]", "\"", "\\", "\\u", "d83d", "\\ude00", "00e9", ":", ",", " ",
		"\n", "\r\n", "12", "-", ".", "e", "+", "0", "true", "fal", "null", "key", "Stars",
		"_", "a: b", "x = 1", "\t", "\xe2\x82\xac", "\xef\xbb\xbf", "\x01", ". ",
	};
	struct buf b = {0};
	int round;

	for (round = 0; round < 300; round++) {
		size_t atoms_n = 1 + next_rand() % 60, i;
		char *got;

		b.len = 0;
		/* Half start as JSON, some as text. */
		if (round % 3)
			buf_addc(&b, round % 2 ? '{' : '[');
		for (i = 0; i < atoms_n; i++)
			buf_adds(&b, atoms[next_rand() % ARRAY_SIZE(atoms)]);
		got = read_all(b.data, b.len);
		free(got);
	}
	buf_free(&b);
}

/* Chunk offsets of a long string of escapes: each chunk's at is exact. */
struct esc_chunks {
	uint64_t start, decoded;
	size_t n;
	bool ok;
};

static int on_esc_chunk(void *ctx, const struct record_value *v)
{
	struct esc_chunks *c = ctx;

	if (v->kind == RECORD_COUNT)
		return 0; /* the array around the string */
	/* "\u00e9\u00e9. " is 14 bytes written, 6 decoded; cuts fall after ". ". */
	if (c->decoded % 6 != 0 || v->at != c->start + c->decoded / 6 * 14)
		c->ok = false;
	/* And inside a chunk, the first escapes map exactly. */
	if (v->len >= 12 && (record_offset(v, 6) != v->at + 14 || record_offset(v, 2) != v->at + 6))
		c->ok = false;
	c->decoded += v->len;
	c->n++;
	return 0;
}

TEST(record_escaped_chunks_do_not_drift)
{
	struct buf in = {0};
	struct esc_chunks c = {.start = 2, .ok = true};
	struct record *r;
	size_t i;

	BUF_LIT(&in, "[\"");
	for (i = 0; i < 20000; i++)
		BUF_LIT(&in, "\\u00e9\\u00e9. ");
	BUF_LIT(&in, "\"]");
	CHECK_EQ(record_new(&r), 0);
	for (i = 0; i < in.len; i += 777)
		feed(r, in.data + i, MIN((size_t)777, in.len - i), on_esc_chunk, &c);
	feed(r, NULL, 0, on_esc_chunk, &c);
	CHECK(c.ok);
	CHECK(c.n >= 120000 / RECORD_CHUNK_MAX);
	CHECK_EQ(c.decoded, 120000);
	buf_free(&in);
	record_free(r);
}

/* ---- long values pulled between pieces ---- */

/* The texts of the strings in[0, n) gives (fed whole), joined. */
static void joined_strings(const char *in, size_t n, struct buf *out)
{
	const struct record_value *v;
	struct record *r;

	CHECK_EQ(record_new(&r), 0);
	CHECK_EQ(record_feed(r, in, n), 0);
	while ((v = record_next(r)))
		if (v->kind == RECORD_STRING)
			buf_add(out, v->text, v->len);
	CHECK_EQ(record_end(r), 0);
	while ((v = record_next(r)))
		if (v->kind == RECORD_STRING)
			buf_add(out, v->text, v->len);
	record_free(r);
}

TEST(record_long_values_in_pieces_of_every_size)
{
	struct buf in = {0};
	size_t i;

	/* Nested keys around a long string with escapes (cut in chunks after
	 * sentences), values after it, then a second record. */
	BUF_LIT(&in, "{\"business\": {\"name\": \"Golden Wok\", \"reviewInfo\": [{\"review_text\": \"");
	for (i = 0; i < 900; i++)
		buf_addf(&in, "Sentence %04zu is here.\\n Caf\\u00e9 \\\"ok\\\" \\ud83d\\ude00. ", i);
	BUF_LIT(&in, "\", \"stars\": 4.5}], \"tags\": [\"a\", \"b\"]}, \"count\": 12}\n{\"next\": \"x\"}\n");
	free(check_every_size(in.data, in.len, 256, __LINE__));
	/* Key: value text: a long value, a line of blanks longer than a chunk
	 * (its blank chunks say nothing), a long line without a blank. */
	in.len = 0;
	BUF_LIT(&in, "Name: Golden Wok\nSummary: ");
	for (i = 0; i < 800; i++)
		buf_addf(&in, "Line %zu goes on. ", i);
	BUF_LIT(&in, "\n");
	for (i = 0; i < 20000; i++)
		buf_addc(&in, ' ');
	BUF_LIT(&in, "end\n  - Price range: $$\r\nA prose line ");
	for (i = 0; i < 18000; i++)
		buf_addc(&in, 'x');
	BUF_LIT(&in, "\nTotal = 17");
	free(check_every_size(in.data, in.len, 256, __LINE__));
	/* A long string that a raw line break makes bad JSON: its chunks, what
	 * it held, then prose, then JSON again. */
	in.len = 0;
	BUF_LIT(&in, "{\"a\": \"");
	for (i = 0; i < 1500; i++)
		buf_addf(&in, "Word %zu. ", i);
	BUF_LIT(&in, "\nmore prose\n{\"b\": 2}");
	free(check_every_size(in.data, in.len, 256, __LINE__));
	/* A string with no blank, cut at the bound, in an array with a number. */
	in.len = 0;
	BUF_LIT(&in, "[\"");
	for (i = 0; i < 40000; i++)
		buf_addc(&in, (char)('a' + i % 26));
	BUF_LIT(&in, "\", 7]");
	free(check_every_size(in.data, in.len, 256, __LINE__));
	buf_free(&in);
}

/*
 * Escapes where a chunk is cut: the code points a step decodes (one, or
 * two where a high surrogate is left alone) all follow the chunk that went
 * out, as the same escapes give them in a string too short to cut; also
 * where the text ends just after them, inside the string.
 */
TEST(record_escapes_at_the_chunk_bound)
{
	static const char *const tails[] = {
		"\\ud800\\u12G", "\\ud800\\u0041", "\\ud800\\ud83d\\ude00", "\\ud83d\\ude00",
		"\\u00e9\\u20ac", "\\ud800x", "\\ud800\\n", "\\n\\t\\\"",
	};
	const size_t cap = RECORD_CHUNK_MAX;
	struct buf in = {0}, want = {0}, got = {0};
	size_t len, t, form;

	for (t = 0; t < ARRAY_SIZE(tails); t++) {
		struct buf tail = {0};

		/* What the escapes decode to, read where nothing is cut. */
		in.len = 0;
		buf_addf(&in, "[\"%s\"]", tails[t]);
		joined_strings(in.data, in.len, &tail);
		for (len = cap - 8; len <= cap + 2; len++) {
			/* A sentence end three quarters in (the rest moves down
			 * after the cut) or none (cut at the bound); the string
			 * closed, or the text ending just after the escapes. */
			for (form = 0; form < 4; form++) {
				bool blank = form & 1, cut_off = form & 2;

				in.len = want.len = got.len = 0;
				BUF_LIT(&in, "[\"");
				for (size_t i = 0; i < len; i++)
					buf_addc(&want, blank && i == len * 3 / 4 ? ' ' :
							blank && i + 1 == len * 3 / 4 ? '.' : 'a');
				buf_add(&in, want.data, want.len);
				buf_adds(&in, tails[t]);
				buf_add(&want, tail.data, tail.len);
				if (!cut_off) {
					BUF_LIT(&in, "z\", 7]");
					buf_addc(&want, 'z');
				}
				joined_strings(in.data, in.len, &got);
				if (got.len != want.len || memcmp(got.data, want.data, got.len) != 0) {
					char m[128];

					snprintf(m, sizeof(m), "tail %s after %zu bytes: decoded otherwise when cut",
						 tails[t], len);
					test_fail(__FILE__, __LINE__, m);
				}
				free(check_every_size(in.data, in.len, 4, __LINE__));
			}
		}
		buf_free(&tail);
	}
	buf_free(&in);
	buf_free(&want);
	buf_free(&got);
}
