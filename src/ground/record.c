// SPDX-License-Identifier: MIT
/* Grounding text read as records (JSON, JSON Lines, key: value text), streamed. */
#include "record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "ground.h"

#define CAP RECORD_CHUNK_MAX
/* Each frame's key holds at most RECORD_WORDS words of the stack. */
#define WSTACK (RECORD_MAX_DEPTH * RECORD_WORDS)
/* A word's room: RECORD_WORD_MAX bytes and their NUL, rounded up. */
#define WORD_SLOT ((RECORD_WORD_MAX + 8) / 8 * 8)
/* Words whose contexts are kept after they leave the key path (a power of 2),
 * two to a set of places (wcache_of()). */
#define WCACHE 64
/* Short keys whose words are kept (a power of 2), and the most words kept of one. */
#define KCACHE 16
#define KEY_KEPT_WORDS 4

/* A key of at most 24 bytes (n, 0: none) and its words as push_words() pushes them. */
struct key_kept {
	uint64_t key[3];
	uint8_t n, nw;
	uint64_t word[KEY_KEPT_WORDS][4];
};

enum mode {
	M_START,	/* nothing but blanks (and a BOM) yet */
	M_JSON,
	M_TEXT,		/* text from the start: key: value lines and prose */
	M_PROSE,	/* after bad JSON: prose lines until one opens JSON */
};

enum state {
	/* Between tokens: what may come next. */
	S_VALUE,		/* a value: at the top, after ':' or an array's ',' */
	S_VALUE_OR_CLOSE,	/* after '[' */
	S_KEY_OR_CLOSE,		/* after '{' */
	S_KEY,			/* after an object's ',' */
	S_COLON,
	S_NEXT,			/* after a member or an item: ',' or the close */
	S_DOC_END,		/* after a top-level value */
	/* Inside a token. */
	S_STRING,
	S_ESC,			/* after '\' */
	S_HEX,			/* in \uXXXX */
	S_LOW_BS,		/* after a high surrogate: '\' of its low half? */
	S_LOW_U,		/* the 'u' of it? */
	S_NUM_START,
	S_NUM_MINUS,
	S_NUM_ZERO,		/* final states: ZERO, INT, FRAC, EXP */
	S_NUM_INT,
	S_NUM_DOT,
	S_NUM_FRAC,
	S_NUM_E,
	S_NUM_ESIGN,
	S_NUM_EXP,
	S_LIT,
};

struct record {
	enum mode mode;
	enum state st;
	enum record_mode rmode;
	bool ended;		/* record_end() ran: the next feed starts a text */
	bool ending;		/* ... and record_next() has yet to read its end */
	bool busy;		/* a piece or the end is fed and not yet read through */
	bool bad;		/* the byte at the cursor is not JSON */
	bool deep;		/* ... because it nests too deep */
	const char *feed;	/* the piece being read and its stream offset */
	uint64_t feed_at;
	const char *p, *end;	/* the piece's cursor and end */
	/* The value record_next() returned last. What would overwrite it
	 * waits for the next call: the rest of a carried string or line,
	 * moved down over the chunk that went out (cut_done()). */
	struct record_value v;
	size_t cut;
	uint64_t off;		/* the stream offset after the last piece */
	unsigned bom;		/* bytes of a BOM skipped */

	/* JSON structure: frame d is an object or an array; the words of
	 * its current key are word[wbase[d], wbase[d + 1] or wtop). */
	unsigned depth;
	bool object[RECORD_MAX_DEPTH];
	uint32_t items[RECORD_MAX_DEPTH]; /* an array frame's items so far */
	uint64_t opened[RECORD_MAX_DEPTH]; /* an array frame's '[' (stream offset) */
	char count[16];		/* an array's items, written for RECORD_COUNT */
	uint16_t wbase[RECORD_MAX_DEPTH];
	uint16_t wtop;
	bool nl;		/* a line break since the last top-level value */

	/* JSON tokens. */
	bool in_key;
	uint32_t hex, high;	/* \uXXXX so far; a high surrogate waiting */
	unsigned nhex;
	const char *lit;
	unsigned lit_len, lpos;
	uint64_t lat;
	uint64_t nat;
	size_t nlen;
	bool nlong;
	char num[RECORD_NUMBER_MAX];
	char key[RECORD_KEY_MAX];
	size_t klen;

	/* The string or line carried: buf[0, blen) from stream offset bat. */
	size_t blen;
	uint64_t bat;
	bool cont;		/* a chunk of it went out */
	struct record_mark marks[RECORD_MARKS]; /* made for each chunk */
	/* Once a string's chunk holds an escape, rawlen[i] is how many bytes
	 * were written for buf[i] (an escape's all on its first byte), so
	 * that the next chunk's offset is exact however many escapes. */
	bool escaped;
	uint64_t esc_at;	/* where the escape being read began */

	/* Text lines. */
	bool line_start;	/* the cursor is in column 0 */
	bool lmid;		/* the line under way was classified */
	enum record_kind lkind;

	struct record_stats stats;
	const char *wptr[WSTACK];
	char word[WSTACK][WORD_SLOT];
	struct record_word_ctx wctx[WSTACK]; /* each slot's, known once read */
	/*
	 * The contexts of words slots held before, by the word (its set of two
	 * places by wcache_of()): the keys of a list's items come again with
	 * each item, each into a slot another key held since. wset: a slot's
	 * word's set there + 1; wkept: what its record_word_ctx held when it
	 * was pushed (wctx_state()), kept again as it leaves if it learned
	 * more. wc_recent: the place of each set used last (the other is the
	 * one given up to a word kept next).
	 */
	char wc_word[WCACHE][WORD_SLOT];
	struct record_word_ctx wc_ctx[WCACHE];
	uint8_t wc_recent[WCACHE / 2];
	uint8_t wset[WSTACK], wkept[WSTACK];
	uint16_t wfresh; /* slots from here on were never pushed to: their wctx, wset and wkept unset */
	struct key_kept kc[KCACHE]; /* short keys' words, by the key (push_words()) */
	/* (past CAP: a code point or two decoded after a cut, before cut_done()) */
	char buf[CAP + 8];
	uint8_t rawlen[CAP + 8];
};

static const char *const literal[] = {"true", "false", "null"};

static inline bool is_ws(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static inline bool is_digit(unsigned char c)
{
	return (unsigned)(c - '0') < 10;
}

static inline bool is_upper(unsigned char c)
{
	return (unsigned)(c - 'A') < 26;
}

static inline bool is_lower(unsigned char c)
{
	return (unsigned)(c - 'a') < 26;
}

static inline bool is_alpha(unsigned char c)
{
	return is_upper(c) || is_lower(c);
}

static inline uint64_t off(const struct record *r, const char *q)
{
	return r->feed_at + (uint64_t)(q - r->feed);
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* ---- delivery ---- */

/*
 * The value record_next() returns. Returns 1: the step goes on only as far
 * as it must to leave a state to resume from (nothing that overwrites what
 * the value points to), and every caller returns at once, up to
 * record_next(). In this file a nonzero err is that 1.
 */
static int emit(struct record *r, enum record_kind k, const char *s, size_t n, uint64_t at,
		uint64_t end, bool cont, size_t n_marks)
{
	size_t nw = MIN(r->wtop, RECORD_WORDS);

	r->v = (struct record_value){
		.kind = k, .text = s, .len = n, .at = at, .end = end,
		.words = r->wptr + r->wtop - nw, .n_words = nw, .word_ctx = r->wctx + r->wtop - nw,
		.cont = cont, .marks = r->marks, .n_marks = n_marks,
		.opened = k == RECORD_COUNT ? r->opened[r->depth - 1] : at,
	};
	r->stats.values++;
	return 1;
}

/* A value of n bytes at stream offset at, written as they are (no escapes). */
static int emit_plain(struct record *r, enum record_kind k, const char *s, size_t n,
		      uint64_t at, bool cont)
{
	return emit(r, k, s, n, at, at + n, cont, 0);
}

/*
 * Where a chunk of s[0, n) that cannot grow is cut: after the last sentence
 * end in its second half, else after the last blank there, else before a
 * UTF-8 sequence that n cuts. Never 0.
 */
static size_t cut_point(const char *s, size_t n)
{
	size_t i, blank = 0, half = n / 2;

	for (i = n; i > half && i >= 2; i--) {
		unsigned char c = (unsigned char)s[i - 1];

		if (!is_ws(c))
			continue;
		if (c == '\n' || s[i - 2] == '.' || s[i - 2] == '!' || s[i - 2] == '?')
			return i;
		if (!blank)
			blank = i;
	}
	if (blank)
		return blank;
	for (i = n; i > 0 && i + 3 > n; i--) {
		unsigned char c = (unsigned char)s[i - 1];
		size_t need;

		if ((c & 0xC0) == 0x80)
			continue;
		need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
		return n - (i - 1) < need && i > 1 ? i - 1 : n;
	}
	return n;
}

/* The first i in [from, n) where rawlen[i] is not 1 (an escape), or n. */
static size_t next_escape(const uint8_t *rawlen, size_t from, size_t n)
{
	size_t i = from;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, rawlen + i, 8);
		x ^= ONES;
		if (x)
			return i + (size_t)(__builtin_ctzll(x) >> 3);
	}
#endif
	while (i < n && rawlen[i] == 1)
		i++;
	return i;
}

/*
 * Walks the escapes in the carried string's first n bytes, marking the
 * first max of them (a mark after each), and returns the stream offset
 * of byte n. An escape is a run of bytes that starts with one of other
 * than 1 byte written and goes on with 0s.
 */
static uint64_t walk_escapes(const struct record *r, size_t n, struct record_mark *marks,
			     size_t max, size_t *n_marks)
{
	uint64_t at = r->bat;	/* of byte i */
	size_t i = 0, j, k = 0;

	while (r->escaped && (j = next_escape(r->rawlen, i, n)) < n) {
		at += j - i;
		at += r->rawlen[j];
		for (i = j + 1; i < n && r->rawlen[i] == 0; i++)
			;
		if (k < max)
			marks[k++] = (struct record_mark){(uint32_t)i, at};
	}
	if (n_marks)
		*n_marks = k;
	return at + (n - i);
}

/*
 * The carried string's first n bytes go out, with a mark after each of its
 * first RECORD_MARKS escapes.
 */
static int string_emit(struct record *r, size_t n)
{
	size_t marks;
	uint64_t end = walk_escapes(r, n, r->marks, RECORD_MARKS, &marks);

	return emit(r, RECORD_STRING, r->buf, n, r->bat, end, r->cont, marks);
}

/*
 * The carried string is full and goes on: its head goes out as a chunk,
 * and the rest moves down over it at the resume (cut_done()).
 */
static int string_cut(struct record *r)
{
	size_t c = cut_point(r->buf, r->blen);
	int err = string_emit(r, c);

	r->cut = c;
	r->cont = true;
	r->stats.cuts++;
	return err;
}

/* At the resume after a cut: the carried bytes past it move down. */
static void cut_done(struct record *r)
{
	size_t c = r->cut;

	r->bat = walk_escapes(r, c, NULL, 0, NULL);
	memmove(r->buf, r->buf + c, r->blen - c);
	if (r->escaped)
		memmove(r->rawlen, r->rawlen + c, r->blen - c);
	r->blen -= c;
	r->cut = 0;
}

/* ---- key words ---- */

static bool word_byte(unsigned char c)
{
	return is_alpha(c) || is_digit(c) || c >= 0x80;
}

/* x with its ASCII capitals in lower case, eight bytes at once. */
static inline uint64_t fold8(uint64_t x)
{
	uint64_t low7 = x & ~HIGHS;
	uint64_t above_z = low7 + ONES * (0x7F - 'Z'), from_a = low7 + ONES * (0x80 - 'A');

	return x | ((from_a ^ above_z) & ~x & HIGHS) >> 2;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BYTE_SHIFT(i) (8 * (7 - (i) % 8))
#else
#define BYTE_SHIFT(i) (8 * ((i) % 8))
#endif

_Static_assert(WORD_SLOT == 32, "fold_word() builds a slot in four words");

/*
 * The set of places of a word's context kept, by its slot's first sixteen
 * bytes (most words' all): places 2 x set and 2 x set + 1. Two a set: a
 * list's items' keys that fell on one place gave each other up at every
 * item (two of nine keys of a source's items did, and were read again
 * each time).
 */
static inline size_t wcache_of(uint64_t y0, uint64_t y1)
{
	_Static_assert((WCACHE & (WCACHE - 1)) == 0 && WCACHE >= 2, "a power of 2");
	return (size_t)(((y0 ^ (y1 * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull) >> 59) &
	       (WCACHE / 2 - 1);
}

/* What a word's record_word_ctx holds: its context or not, and the caller's tags. */
static inline uint8_t wctx_state(const struct record_word_ctx *c)
{
	return (uint8_t)(c->tags | (c->known ? 0x80 : 0));
}

/*
 * Does place j of the cache keep the folded word t (four words)? (A place
 * that keeps none has ~0 for its fourth word, which no folded word has:
 * fold_word().) Most words that differ do in their first eight bytes.
 */
static inline bool wcache_holds(const struct record *r, size_t j, const uint64_t t[4])
{
	uint64_t y0, y1, y2, y3;

	memcpy(&y0, r->wc_word[j], 8);
	if (y0 != t[0])
		return false;
	memcpy(&y1, r->wc_word[j] + 8, 8);
	memcpy(&y2, r->wc_word[j] + 16, 8);
	memcpy(&y3, r->wc_word[j] + 24, 8);
	return ((y1 ^ t[1]) | (y2 ^ t[2]) | (y3 ^ t[3])) == 0;
}

/* The place of set that keeps the folded word t, or WCACHE. */
static inline size_t wcache_find(const struct record *r, size_t set, const uint64_t t[4])
{
	return wcache_holds(r, 2 * set, t) ? 2 * set : wcache_holds(r, 2 * set + 1, t) ? 2 * set + 1 : WCACHE;
}

/* A word w[0, k) (k > 0) as its slot holds it: cut, zero-padded, folded; four words. */
static void fold_word(const char *w, size_t k, uint64_t t[4])
{
	uint64_t t0 = 0, t1 = 0, t2 = 0;
	size_t i;

	if (k > RECORD_WORD_MAX) {
		k = RECORD_WORD_MAX;
		/* Not into a UTF-8 sequence: w[k] is the first byte left out. */
		while (k + 3 > RECORD_WORD_MAX && ((unsigned char)w[k] & 0xC0) == 0x80)
			k--;
	}
	/* A zero-padded slot, folded and compared eight bytes at a time, built
	 * in registers (bytes stored and read back as words would stall). */
	for (i = 0; i < k; i++) {
		uint64_t b = (uint64_t)(unsigned char)w[i] << BYTE_SHIFT(i);

		if (i < 8)
			t0 |= b;
		else if (i < 16)
			t1 |= b;
		else
			t2 |= b;
	}
	t[0] = fold8(t0);
	t[1] = fold8(t1);
	t[2] = fold8(t2);
	t[3] = 0;
}

/* Pushes a folded word (fold_word()), unless one of the path's last words is the same. */
static void push_folded(struct record *r, const uint64_t t[4])
{
	uint64_t y0, y1, y2, y3;
	size_t j, set;

	if (r->wtop == WSTACK)
		return;
	for (j = r->wtop > RECORD_WORDS ? r->wtop - RECORD_WORDS : 0; j < r->wtop; j++) {
		const char *o = r->word[j];

		memcpy(&y0, o, 8);
		memcpy(&y1, o + 8, 8);
		memcpy(&y2, o + 16, 8);
		memcpy(&y3, o + 24, 8);
		if (((y0 ^ t[0]) | (y1 ^ t[1]) | (y2 ^ t[2]) | (y3 ^ t[3])) == 0)
			return;
	}
	/*
	 * A word's context is read from its bytes alone (record_context(),
	 * ground_context_key()), and so are its tags: a slot's word that
	 * learned either while it held the slot is kept by its bytes as it
	 * leaves the slot, and a word's are taken where the same bytes were
	 * kept, as they would be found again.
	 */
	if (r->wtop < r->wfresh && wctx_state(&r->wctx[r->wtop]) != r->wkept[r->wtop]) {
		uint64_t o[4];

		/* (into its own place if one keeps it still, else the one used
		 * less lately) */
		set = r->wset[r->wtop] - 1u;
		memcpy(o, r->word[r->wtop], WORD_SLOT);
		if ((j = wcache_find(r, set, o)) == WCACHE)
			j = 2 * set + !r->wc_recent[set];
		memcpy(r->wc_word[j], r->word[r->wtop], WORD_SLOT);
		r->wc_ctx[j] = r->wctx[r->wtop];
		r->wc_recent[set] = (uint8_t)(j - 2 * set);
	}
	/* Word by word, as they are read back. */
	memcpy(r->word[r->wtop], t, WORD_SLOT);
	set = wcache_of(t[0], t[1]);
	if ((j = wcache_find(r, set, t)) < WCACHE) {
		r->wctx[r->wtop] = r->wc_ctx[j];
		r->wc_recent[set] = (uint8_t)(j - 2 * set);
	} else {
		r->wctx[r->wtop].known = false;
		r->wctx[r->wtop].tags = 0;
	}
	r->wset[r->wtop] = (uint8_t)(set + 1);
	r->wkept[r->wtop] = wctx_state(&r->wctx[r->wtop]);
	r->wtop++;
	r->wfresh = MAX(r->wfresh, r->wtop);
}

/* The place of a key kept (kcache_of()), by its bytes as three words and its length. */
static inline size_t kcache_of(uint64_t k0, uint64_t k1, uint64_t k2, size_t n)
{
	_Static_assert((KCACHE & (KCACHE - 1)) == 0, "a power of 2");
	return (size_t)((((k0 ^ (k1 * 0x9e3779b97f4a7c15ull) ^ (k2 * 0xc2b2ae3d27d4eb4full)) + n) *
			 0xff51afd7ed558ccdull) >> 60) &
	       (KCACHE - 1);
}

/*
 * Pushes the last RECORD_WORDS words of key s[0, n) (n <= RECORD_KEY_MAX).
 * A key's words are its bytes' alone: a short key's, folded, are kept by
 * its bytes (the keys of a list's items come again with each item) and
 * pushed from there as they would be found again.
 */
static void push_words(struct record *r, const char *s, size_t n)
{
	uint8_t from[RECORD_KEY_MAX], to[RECORD_KEY_MAX];
	size_t nw = 0, i = 0, k, first;
	struct key_kept *e = NULL;
	uint64_t kb[3] = {0, 0, 0}, t[4];

	if (n > 0 && n <= sizeof(kb)) {
		memcpy(kb, s, n);
		e = &r->kc[kcache_of(kb[0], kb[1], kb[2], n)];
		if (e->n == n && e->key[0] == kb[0] && e->key[1] == kb[1] && e->key[2] == kb[2]) {
			for (k = 0; k < e->nw; k++)
				push_folded(r, e->word[k]);
			return;
		}
	}
	while (i < n) {
		while (i < n && !word_byte((unsigned char)s[i]))
			i++;
		if (i == n)
			break;
		from[nw] = (uint8_t)i;
		for (i++; i < n && word_byte((unsigned char)s[i]); i++) {
			unsigned char c = (unsigned char)s[i], b = (unsigned char)s[i - 1];

			/* camelCase, HTTPServer, caféMenu: a hump starts a word */
			if (is_upper(c) && (is_lower(b) || is_digit(b) || b >= 0x80 ||
					    (is_upper(b) && i + 1 < n && is_lower((unsigned char)s[i + 1]))))
				break;
		}
		to[nw++] = (uint8_t)i;
	}
	first = nw > RECORD_WORDS ? nw - RECORD_WORDS : 0;
	/* (kept when its words fit; n 0 marks a place empty) */
	if (e && nw - first <= KEY_KEPT_WORDS) {
		e->n = (uint8_t)n;
		memcpy(e->key, kb, sizeof(kb));
		e->nw = (uint8_t)(nw - first);
	} else {
		e = NULL;
	}
	for (k = first; k < nw; k++) {
		fold_word(s + from[k], (size_t)(to[k] - from[k]), t);
		if (e)
			memcpy(e->word[k - first], t, sizeof(t));
		push_folded(r, t);
	}
}

/* ---- JSON ---- */

/* The first '"', '\' or control character in [p, end), or end. */
static const char *string_scan(const char *p, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - p >= 8) {
		uint64_t x, q, b, t;

		memcpy(&x, p, 8);
		q = x ^ (ONES * '"');
		b = x ^ (ONES * '\\');
		/* A zero byte in q or b, a byte below 0x20 in x: the lowest flag is exact. */
		t = (((q - ONES) & ~q) | ((b - ONES) & ~b) | ((x - ONES * 0x20) & ~x)) & HIGHS;
		if (t)
			return p + (__builtin_ctzll(t) >> 3);
		p += 8;
	}
#endif
	while (p < end && (unsigned char)*p >= 0x20 && *p != '"' && *p != '\\')
		p++;
	return p;
}

static void value_done(struct record *r)
{
	if (r->depth) {
		r->st = S_NEXT;
		return;
	}
	r->st = S_DOC_END;
	r->nl = false;
	r->stats.records++;
}

/*
 * Adds the plain string bytes [*qp, *qp + n): to the key (cut at
 * RECORD_KEY_MAX) or to the value. *qp goes past what was added: all of
 * it, but where a chunk goes out (the rest is read again at the resume).
 */
static int string_add(struct record *r, const char **qp, size_t n)
{
	const char *s = *qp;

	if (r->in_key) {
		size_t k = MIN(n, RECORD_KEY_MAX - r->klen);

		memcpy(r->key + r->klen, s, k);
		r->klen += k;
		*qp = s + n;
		return 0;
	}
	while (n > 0) {
		size_t room = CAP - r->blen, k;

		if (room == 0) {
			*qp = s;
			return string_cut(r);
		}
		k = MIN(n, room);
		memcpy(r->buf + r->blen, s, k);
		if (r->escaped)
			memset(r->rawlen + r->blen, 1, k);
		r->blen += k;
		s += k;
		n -= k;
	}
	*qp = s;
	return 0;
}

/*
 * Adds code point cp, decoded from an escape that ends before stream offset
 * after. Where a chunk goes out first, cp is added past it all the same
 * (buf has room past CAP), to move down with the rest at the resume.
 */
static int string_cp(struct record *r, uint32_t cp, uint64_t after)
{
	char u[4];
	size_t k;
	int err = 0;

	if (cp < 0x80) {
		u[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3F));
		k = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		k = 3;
	} else {
		u[0] = (char)(0xF0 | cp >> 18);
		u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		k = 4;
	}
	if (r->in_key) {
		if (r->klen + k <= RECORD_KEY_MAX) {
			memcpy(r->key + r->klen, u, k);
			r->klen += k;
		}
		return 0;
	}
	/* (less a cut this step made: a second code point never cuts again) */
	if (r->blen - r->cut + k > CAP)
		err = string_cut(r);
	if (!r->escaped) {
		memset(r->rawlen, 1, r->blen);
		r->escaped = true;
	}
	memcpy(r->buf + r->blen, u, k);
	memset(r->rawlen + r->blen, 0, k);
	r->rawlen[r->blen] = (uint8_t)MIN(after - r->esc_at, 255);
	r->esc_at = after;
	r->blen += k;
	return err;
}

static void string_clear(struct record *r)
{
	r->blen = 0;
	r->cont = false;
	r->high = 0;
	r->escaped = false;
}

/* The closing quote: a key gives its frame's words, a value goes out. */
static int string_done(struct record *r)
{
	int err;

	if (r->in_key) {
		r->wtop = r->wbase[r->depth - 1];
		push_words(r, r->key, r->klen);
		r->klen = 0;
		r->st = S_COLON;
		return 0;
	}
	err = string_emit(r, r->blen);
	string_clear(r);
	value_done(r);
	return err;
}

/* The opening quote at q: a string read whole here goes out without a copy. */
static int string_open(struct record *r, const char **qp, const char *end, bool key)
{
	const char *s = *qp + 1, *e = string_scan(s, end);
	int err;

	r->in_key = key;
	if (e < end && *e == '"') {
		if (key) {
			r->wtop = r->wbase[r->depth - 1];
			push_words(r, s, MIN((size_t)(e - s), RECORD_KEY_MAX));
			r->st = S_COLON;
			*qp = e + 1;
			return 0;
		}
		if ((size_t)(e - s) <= CAP) {
			*qp = e + 1;
			err = emit_plain(r, RECORD_STRING, s, (size_t)(e - s), off(r, s), false);
			value_done(r);
			return err;
		}
	}
	r->klen = 0;
	string_clear(r);
	r->bat = off(r, s);
	r->st = S_STRING;
	*qp = s;
	return string_add(r, qp, (size_t)(e - s));
}

static int string_run(struct record *r, const char **qp, const char *end)
{
	const char *q = string_scan(*qp, end);
	int err = string_add(r, qp, (size_t)(q - *qp));

	if (err || q == end)
		return err;
	if (*q == '"') {
		*qp = q + 1;
		return string_done(r);
	}
	if (*q == '\\') {
		r->esc_at = off(r, q);
		*qp = q + 1;
		r->st = S_ESC;
		return 0;
	}
	r->bad = true; /* a control character */
	return 0;
}

static int escape_run(struct record *r, const char **qp)
{
	const char *q = *qp;
	uint32_t cp;

	switch (*q) {
	case '"': case '\\': case '/':
		cp = (unsigned char)*q;
		break;
	case 'b': cp = '\b'; break;
	case 'f': cp = '\f'; break;
	case 'n': cp = '\n'; break;
	case 'r': cp = '\r'; break;
	case 't': cp = '\t'; break;
	case 'u':
		r->st = S_HEX;
		r->nhex = 0;
		r->hex = 0;
		*qp = q + 1;
		return 0;
	default:
		cp = 0xFFFD;
		break;
	}
	r->st = S_STRING;
	*qp = q + 1;
	return string_cp(r, cp, off(r, q + 1));
}

static int hexval(unsigned char c)
{
	if (is_digit(c))
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* \uXXXX and the low half a high surrogate waits for. */
static int unicode_run(struct record *r, const char **qp, const char *end)
{
	const char *q = *qp;
	uint32_t cp;
	int err = 0;

	if (r->st == S_LOW_BS || r->st == S_LOW_U) {
		bool bs = r->st == S_LOW_BS;

		if (*q == (bs ? '\\' : 'u')) {
			r->st = bs ? S_LOW_U : S_HEX;
			r->nhex = 0;
			r->hex = 0;
			*qp = q + 1;
			return 0;
		}
		/* A lone high surrogate; the byte is read again (as content, or
		 * as the escape after the backslash). Its U+FFFD ends before that
		 * backslash, which belongs to the next escape: an escape of one
		 * raw byte written as three would map past the text. */
		r->high = 0;
		r->st = bs ? S_STRING : S_ESC;
		return string_cp(r, 0xFFFD, off(r, q) - (bs ? 0 : 1));
	}
	for (; q < end && r->nhex < 4; q++, r->nhex++) {
		int h = hexval((unsigned char)*q);

		if (h < 0) {
			/* A short \u: U+FFFD, then the byte is content. */
			*qp = q;
			r->st = S_STRING;
			if (r->high) {
				r->high = 0;
				err = string_cp(r, 0xFFFD, off(r, q));
			}
			/* (even after a chunk went out: the step ends whole) */
			return string_cp(r, 0xFFFD, off(r, q)) | err;
		}
		r->hex = r->hex << 4 | (uint32_t)h;
	}
	*qp = q;
	if (r->nhex < 4)
		return 0;
	cp = r->hex;
	if (r->high) {
		if (cp >= 0xDC00 && cp <= 0xDFFF) {
			cp = 0x10000 + ((r->high - 0xD800) << 10) + (cp - 0xDC00);
			r->high = 0;
			r->st = S_STRING;
			return string_cp(r, cp, off(r, q));
		}
		r->high = 0;
		err = string_cp(r, 0xFFFD, off(r, q));
	}
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		r->high = cp;
		r->st = S_LOW_BS;
		return err;
	}
	r->st = S_STRING;
	return string_cp(r, cp >= 0xDC00 && cp <= 0xDFFF ? 0xFFFD : cp, off(r, q)) | err;
}

static void number_add(struct record *r, const char *s, size_t n)
{
	if (r->nlong || r->nlen + n > RECORD_NUMBER_MAX) {
		r->nlong = true;
		return;
	}
	memcpy(r->num + r->nlen, s, n);
	r->nlen += n;
}

/* The number ends before the byte at q; s is where this piece's part began. */
static int number_done(struct record *r, const char *s, const char *q)
{
	const char *text = s;
	size_t n = (size_t)(q - s);
	int err = 0;

	if (r->nlen) {
		number_add(r, s, n);
		text = r->num;
		n = r->nlen;
	} else if (n > RECORD_NUMBER_MAX) {
		r->nlong = true;
	}
	if (r->nlong)
		r->stats.long_numbers++;
	else
		err = emit_plain(r, RECORD_NUMBER, text, n, r->nat, false);
	r->nlen = 0;
	r->nlong = false;
	value_done(r);
	return err;
}

static bool number_final(enum state st)
{
	return st == S_NUM_ZERO || st == S_NUM_INT || st == S_NUM_FRAC || st == S_NUM_EXP;
}

static int number_run(struct record *r, const char **qp, const char *end)
{
	const char *s = *qp, *q = s;
	enum state st = r->st;

	for (; q < end; q++) {
		unsigned char c = (unsigned char)*q;

		switch (st) {
		case S_NUM_START:
			st = c == '-' ? S_NUM_MINUS : c == '0' ? S_NUM_ZERO : S_NUM_INT;
			continue;
		case S_NUM_MINUS:
			if (!is_digit(c))
				goto bad;
			st = c == '0' ? S_NUM_ZERO : S_NUM_INT;
			continue;
		case S_NUM_INT:
			if (is_digit(c))
				continue;
			/* fall through */
		case S_NUM_ZERO:
			if (c == '.')
				st = S_NUM_DOT;
			else if (c == 'e' || c == 'E')
				st = S_NUM_E;
			else if (is_digit(c))
				goto bad; /* a leading zero */
			else
				goto done;
			continue;
		case S_NUM_DOT:
			if (!is_digit(c))
				goto bad;
			st = S_NUM_FRAC;
			continue;
		case S_NUM_FRAC:
			if (is_digit(c))
				continue;
			if (c != 'e' && c != 'E')
				goto done;
			st = S_NUM_E;
			continue;
		case S_NUM_E:
			if (c == '+' || c == '-')
				st = S_NUM_ESIGN;
			else if (is_digit(c))
				st = S_NUM_EXP;
			else
				goto bad;
			continue;
		case S_NUM_ESIGN:
			if (!is_digit(c))
				goto bad;
			st = S_NUM_EXP;
			continue;
		case S_NUM_EXP:
			if (is_digit(c))
				continue;
			goto done;
		default:
			goto bad;
		}
	}
	/* The piece ends inside the number. */
	number_add(r, s, (size_t)(q - s));
	r->st = st;
	*qp = q;
	return 0;
done:
	*qp = q;
	return number_done(r, s, q);
bad:
	r->st = st;
	r->nlen = 0;
	r->nlong = false;
	r->bad = true;
	*qp = q;
	return 0;
}

static void literal_run(struct record *r, const char **qp, const char *end)
{
	const char *q = *qp;

	for (; q < end && r->lpos < r->lit_len; q++, r->lpos++)
		if (*q != r->lit[r->lpos]) {
			r->bad = true;
			break;
		}
	*qp = q;
}

/* The first byte of a value at q. */
static int value_start(struct record *r, const char **qp, const char *end)
{
	const char *q = *qp;
	unsigned char c = (unsigned char)*q;

	if (r->depth && !r->object[r->depth - 1] && r->items[r->depth - 1] < UINT32_MAX)
		r->items[r->depth - 1]++;
	switch (c) {
	case '{':
	case '[':
		if (r->depth == RECORD_MAX_DEPTH) {
			r->deep = r->bad = true;
			return 0;
		}
		r->object[r->depth] = c == '{';
		r->items[r->depth] = 0;
		r->opened[r->depth] = off(r, q);
		r->wbase[r->depth] = r->wtop;
		r->depth++;
		r->st = c == '{' ? S_KEY_OR_CLOSE : S_VALUE_OR_CLOSE;
		*qp = q + 1;
		return 0;
	case '"':
		return string_open(r, qp, end, false);
	case 't':
	case 'f':
	case 'n':
		r->lit = literal[c == 't' ? 0 : c == 'f' ? 1 : 2];
		r->lit_len = (unsigned)strlen(r->lit);
		r->lpos = 1;
		r->lat = off(r, q);
		r->st = S_LIT;
		*qp = q + 1;
		return 0;
	default:
		if (c != '-' && !is_digit(c)) {
			r->bad = true;
			return 0;
		}
		r->nat = off(r, q);
		r->nlen = 0;
		r->nlong = false;
		r->st = S_NUM_START;
		return 0;
	}
}

static bool starts_value(unsigned char c)
{
	return c == '{' || c == '[' || c == '"' || c == 't' || c == 'f' || c == 'n' || c == '-' ||
	       is_digit(c);
}

/*
 * Closes the frame whose closing byte is at *qp. An array's close delivers
 * its number of items ("3 results" where a tool returned three), with the
 * words its items have.
 */
static int close_frame(struct record *r, const char **qp)
{
	int err = 0;

	if (!r->object[r->depth - 1]) {
		uint64_t at = off(r, *qp);
		int n = snprintf(r->count, sizeof(r->count), "%u", (unsigned)r->items[r->depth - 1]);

		err = emit(r, RECORD_COUNT, r->count, (size_t)n, at, at + 1, false, 0);
	}
	r->depth--;
	r->wtop = r->wbase[r->depth];
	*qp += 1;
	value_done(r);
	return err;
}

/* Between tokens: blanks, then one structural byte or the start of a token. */
static int structural(struct record *r, const char **qp, const char *end)
{
	const char *q = *qp;
	unsigned char c;
	bool obj;

	while (q < end && is_ws((unsigned char)*q)) {
		r->nl |= *q == '\n';
		q++;
	}
	*qp = q;
	if (q == end)
		return 0;
	c = (unsigned char)*q;
	obj = r->depth && r->object[r->depth - 1];
	switch (r->st) {
	case S_DOC_END:
		if (!starts_value(c))
			break;
		if (r->nl)
			r->rmode = RECORD_MODE_JSONL;
		return value_start(r, qp, end);
	case S_VALUE_OR_CLOSE:
		if (c == ']')
			return close_frame(r, qp);
		/* fall through */
	case S_VALUE:
		return value_start(r, qp, end);
	case S_KEY_OR_CLOSE:
		if (c == '}')
			return close_frame(r, qp);
		/* fall through */
	case S_KEY:
		if (c != '"')
			break;
		return string_open(r, qp, end, true);
	case S_COLON:
		if (c != ':')
			break;
		r->st = S_VALUE;
		*qp = q + 1;
		return 0;
	case S_NEXT:
		if (c == ',') {
			r->st = obj ? S_KEY : S_VALUE;
			*qp = q + 1;
			return 0;
		}
		if (c == (obj ? '}' : ']'))
			return close_frame(r, qp);
		break;
	default:
		break;
	}
	r->bad = true;
	return 0;
}

static bool in_string(enum state st)
{
	return st == S_STRING || st == S_ESC || st == S_HEX || st == S_LOW_BS || st == S_LOW_U;
}

static void json_clear(struct record *r)
{
	r->st = S_VALUE;
	r->depth = 0;
	r->wtop = 0;
	r->klen = r->nlen = 0;
	r->nlong = false;
	r->bad = r->deep = false;
	string_clear(r);
}

/* Bad JSON at the cursor: what the string held goes out, then prose. */
static int json_fail(struct record *r)
{
	int err = 0;

	if (r->deep)
		r->stats.too_deep++;
	else
		r->stats.json_errors++;
	if (in_string(r->st) && !r->in_key && (r->blen || r->cont))
		err = string_emit(r, r->blen);
	json_clear(r);
	r->mode = M_PROSE;
	r->line_start = false;
	r->lmid = false;
	return err;
}

static int json_run(struct record *r, const char **qp, const char *end)
{
	int err = 0;

	while (*qp < end && !err && !r->bad) {
		switch (r->st) {
		case S_STRING:
			err = string_run(r, qp, end);
			break;
		case S_ESC:
			err = escape_run(r, qp);
			break;
		case S_HEX:
		case S_LOW_BS:
		case S_LOW_U:
			err = unicode_run(r, qp, end);
			break;
		case S_NUM_START:
		case S_NUM_MINUS:
		case S_NUM_ZERO:
		case S_NUM_INT:
		case S_NUM_DOT:
		case S_NUM_FRAC:
		case S_NUM_E:
		case S_NUM_ESIGN:
		case S_NUM_EXP:
			err = number_run(r, qp, end);
			break;
		case S_LIT:
			literal_run(r, qp, end);
			if (!r->bad && r->lpos == r->lit_len) {
				err = emit_plain(r, r->lit[0] == 'n' ? RECORD_NULL : RECORD_BOOL,
						 r->lit, r->lit_len, r->lat, false);
				value_done(r);
			}
			break;
		default:
			err = structural(r, qp, end);
			break;
		}
	}
	if (!err && r->bad)
		err = json_fail(r);
	return err;
}

/* ---- text lines ---- */

/* A "Key: value" line: the value's start, and the key's words pushed; else 0. */
static size_t keyed(struct record *r, const char *s, size_t n)
{
	size_t i = 0, k0, k1;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i + 1 < n && (s[i] == '-' || s[i] == '*') && s[i + 1] == ' ')
		for (i += 2; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
			;
	k0 = i;
	if (i == n || !is_alpha((unsigned char)s[i]))
		return 0;
	for (; i < n && i - k0 <= RECORD_TEXT_KEY_MAX; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!is_alpha(c) && !is_digit(c) && c != ' ' && c != '_' && c != '-' && c != '.')
			break;
		/* A figure of its own is a sentence's, not a key's: "Refunds within
		 * 14 days: https://..." says 14 days ("Q3", "COVID-19" stay keys). */
		if (is_digit(c) && s[i - 1] == ' ')
			return 0;
	}
	if (i == n || i - k0 > RECORD_TEXT_KEY_MAX)
		return 0;
	for (k1 = i; s[k1 - 1] == ' '; k1--)
		;
	if (s[i] == ':') {
		if (i + 1 == n || (s[i + 1] != ' ' && s[i + 1] != '\t'))
			return 0;
	} else if (s[i] != '=') {
		return 0;
	}
	for (i++; i < n && is_ws((unsigned char)s[i]); i++)
		;
	if (i == n)
		return 0;
	r->wtop = 0;
	push_words(r, s + k0, k1 - k0);
	return i;
}

/* A line, or a chunk of one (eol: its end), at stream offset at. */
static int line_out(struct record *r, const char *s, size_t n, uint64_t at, bool eol)
{
	size_t i = 0, j;
	bool go;
	int err = 0;

	if (!r->lmid) {
		r->lkind = RECORD_PROSE;
		r->wtop = 0;
		if (r->mode == M_TEXT && (i = keyed(r, s, n)) > 0)
			r->lkind = RECORD_STRING;
	}
	if (eol) {
		while (n > i && (s[n - 1] == '\r' ||
				 (r->lkind == RECORD_STRING && (s[n - 1] == ' ' || s[n - 1] == '\t'))))
			n--;
	}
	for (j = i; j < n && is_ws((unsigned char)s[j]); j++)
		;
	/* A blank line (or blank start of one) says nothing. */
	go = r->cont ? n > i : j < n;
	if (go)
		err = emit_plain(r, r->lkind, s + i, n - i, at + i, r->cont);
	r->lmid = !eol;
	r->cont = !eol && (r->cont || go);
	return err;
}

/* The carried line is full and goes on: its head goes out (unless blank). */
static int line_cut(struct record *r)
{
	size_t c = cut_point(r->buf, r->blen);
	int err = line_out(r, r->buf, c, r->bat, false);

	r->cut = c;
	r->stats.cuts++;
	if (!err)
		cut_done(r);
	return err;
}

static int line_run(struct record *r, const char **qp, const char *end)
{
	const char *q = *qp;
	int err = 0;

	while (q < end && !err) {
		size_t avail = (size_t)(end - q);
		const char *nl;

		if (r->blen > 0) {
			size_t room = CAP - r->blen;

			nl = memchr(q, '\n', MIN(avail, room + 1));
			if (nl) {
				memcpy(r->buf + r->blen, q, (size_t)(nl - q));
				r->blen += (size_t)(nl - q);
				err = line_out(r, r->buf, r->blen, r->bat, true);
				r->blen = 0;
				r->line_start = true;
				q = nl + 1;
			} else if (avail > room) {
				memcpy(r->buf + r->blen, q, room);
				r->blen = CAP;
				q += room;
				err = line_cut(r);
			} else {
				memcpy(r->buf + r->blen, q, avail);
				r->blen += avail;
				q = end;
			}
			continue;
		}
		if (r->mode == M_PROSE && r->line_start && (*q == '{' || *q == '[')) {
			/* JSON again, from the top (a JSON Lines record after a bad one). */
			r->mode = M_JSON;
			r->rmode = RECORD_MODE_JSONL;
			json_clear(r);
			break;
		}
		r->line_start = false;
		nl = memchr(q, '\n', MIN(avail, (size_t)CAP + 1));
		if (nl) {
			err = line_out(r, q, (size_t)(nl - q), off(r, q), true);
			r->line_start = true;
			q = nl + 1;
		} else if (avail > CAP) {
			size_t c = cut_point(q, CAP);

			err = line_out(r, q, c, off(r, q), false);
			r->stats.cuts++;
			q += c;
		} else {
			memcpy(r->buf, q, avail);
			r->blen = avail;
			r->bat = off(r, q);
			q = end;
		}
	}
	*qp = q;
	return err;
}

/* ---- the reader ---- */

/* Blanks and a BOM, then the first byte decides. */
static void start_run(struct record *r, const char **qp, const char *end)
{
	static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
	const char *q = *qp;

	for (; q < end; q++) {
		unsigned char c = (unsigned char)*q;

		if (r->bom < 3 && off(r, q) == r->bom && c == bom[r->bom]) {
			r->bom++;
			continue;
		}
		if (is_ws(c))
			continue;
		if (c == '{' || c == '[') {
			r->mode = M_JSON;
			r->rmode = RECORD_MODE_JSON;
			json_clear(r);
		} else {
			r->mode = M_TEXT;
			r->rmode = RECORD_MODE_TEXT;
		}
		break;
	}
	*qp = q;
}

/* Ready for a new text (the counters and the mode just read stay). */
static void restart(struct record *r)
{
	json_clear(r);
	r->cut = 0;
	r->ending = r->busy = false;
	r->p = r->end = NULL;
	r->mode = M_START;
	r->off = 0;
	r->bom = 0;
	r->nl = false;
	r->line_start = true;
	r->lmid = false;
}

int record_new(struct record **out)
{
	struct record *r = malloc(sizeof(*r));
	size_t i;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	for (i = 0; i < WSTACK; i++)
		r->wptr[i] = r->word[i];
	r->wfresh = 0;
	/* (no place keeps a word: fold_word()'s fourth word is 0) */
	memset(r->wc_word, 0xff, sizeof(r->wc_word));
	memset(r->wc_recent, 0, sizeof(r->wc_recent));
	for (i = 0; i < KCACHE; i++)
		r->kc[i].n = 0;
	record_reset(r);
	*out = r;
	return 0;
}

void record_free(struct record *r)
{
	free(r);
}

void record_reset(struct record *r)
{
	restart(r);
	r->ended = false;
	r->rmode = RECORD_MODE_NONE;
	r->stats = (struct record_stats){0};
}

static void note_carry(struct record *r)
{
	size_t carried = r->blen + r->nlen + r->klen;

	if (carried > r->stats.carry_high)
		r->stats.carry_high = carried;
}

int record_feed(struct record *r, const void *buf, size_t len)
{
	if (r->busy)
		return -EBUSY;
	if (r->ended) {
		r->ended = false;
		r->rmode = RECORD_MODE_NONE;
	}
	r->busy = true;
	r->feed = r->p = buf;
	r->end = len ? r->p + len : r->p;
	r->feed_at = r->off;
	r->off += len;
	return 0;
}

int record_end(struct record *r)
{
	if (r->busy)
		return -EBUSY;
	if (r->ended) {
		r->ended = false;
		r->rmode = RECORD_MODE_NONE;
	}
	r->busy = r->ending = true;
	r->feed = NULL;
	r->feed_at = r->off;
	return 0;
}

/* The end of the text: what was pending goes out. */
static int end_run(struct record *r)
{
	int err = 0;

	if (r->mode == M_JSON) {
		bool open = r->depth > 0;

		if (in_string(r->st)) {
			open = true;
			if (!r->in_key && (r->blen || r->cont))
				err = string_emit(r, r->blen);
		} else if (number_final(r->st)) {
			err = number_done(r, r->num, r->num); /* all of it is in num */
			open = r->depth > 0;
		} else if (r->st >= S_NUM_START) {
			open = true;
		}
		if (open)
			r->stats.truncated++;
	} else if (r->mode != M_START && (r->blen || r->lmid)) {
		err = line_out(r, r->buf, r->blen, r->bat, true);
	}
	/* (nothing here overwrites the value) */
	restart(r);
	r->ended = true;
	return err;
}

const struct record_value *record_next(struct record *r)
{
	const char *p = r->p, *end = r->end;
	int err = 0;

	/* What the value returned last held off (string_cut(), line_cut()). */
	if (r->cut)
		cut_done(r);
	while (p < end && !err) {
		switch (r->mode) {
		case M_START:
			start_run(r, &p, end);
			break;
		case M_JSON:
			err = json_run(r, &p, end);
			break;
		default:
			err = line_run(r, &p, end);
			break;
		}
	}
	r->p = p;
	if (err)
		return &r->v;
	if (r->ending) {
		if (end_run(r))
			return &r->v; /* (and the reader is ready: busy is false) */
	} else if (r->busy) {
		note_carry(r);
	}
	r->busy = false;
	r->p = r->end = NULL;
	return NULL;
}

enum record_mode record_mode(const struct record *r)
{
	return r->rmode;
}

const struct record_stats *record_stats(const struct record *r)
{
	return &r->stats;
}

uint64_t record_offset(const struct record_value *v, size_t i)
{
	uint64_t at = v->at;
	size_t base = 0, k;

	for (k = 0; k < v->n_marks && v->marks[k].pos <= i; k++) {
		at = v->marks[k].at;
		base = v->marks[k].pos;
	}
	at += i - base;
	/* Past the marks, unmarked escapes that lengthened the text would
	 * carry it past the value's end. */
	return at < v->end || v->end <= v->at ? at : v->end - 1;
}

/*
 * Adds the words w[0, n) that ctx lacks, while there is room. A word whose
 * bit is not in ctx->mask is not held (ground.h): most are added on that
 * one test, where each was compared with every word held.
 */
static void context_merge(struct ground_context *ctx, const uint32_t *w, size_t n)
{
	size_t i, j;

	for (i = 0; i < n && ctx->n < GROUND_CONTEXT; i++) {
		if (ctx->mask >> (w[i] % 64) & 1) {
			for (j = 0; j < ctx->n && ctx->word[j] != w[i]; j++)
				;
			if (j < ctx->n)
				continue;
		}
		ctx->word[ctx->n++] = w[i];
		ctx->mask |= 1ull << (w[i] % 64);
	}
}

void record_context(const struct record_value *v, size_t pos, struct ground_context *ctx)
{
	struct ground_context w;
	size_t i;

	ctx->n = 0;
	ctx->mask = 0;
	ctx->before1 = ctx->after1 = 0;
	ctx->period = 0;
	ctx->bound = 0;
	ctx->compared = false;
	ctx->quarter_year = 0;
	/* Each word alone as ground_context_of() reads it: the same words, stop
	 * words and hashes as prose; the innermost first, should room run out. */
	for (i = v->n_words; i-- > 0;) {
		struct record_word_ctx *c = v->word_ctx ? &v->word_ctx[i] : NULL;
		const uint32_t *words;
		size_t n;

		/* (a key's words are read once while it is on the path: every
		 * value under it has them, merged from where they are kept) */
		if (c && c->known) {
			words = c->word;
			n = c->n;
		} else {
			ground_context_key(v->words[i], strlen(v->words[i]), &w);
			if (c && w.n <= ARRAY_SIZE(c->word)) {
				c->n = (uint8_t)w.n;
				memcpy(c->word, w.word, w.n * sizeof(*w.word));
				c->known = true;
			}
			words = w.word;
			n = w.n;
		}
		context_merge(ctx, words, n);
		/* the innermost key's last word (ground_context_key()'s before1) */
		if (!ctx->before1 && n)
			ctx->before1 = words[n - 1];
	}
	if ((v->kind == RECORD_PROSE || v->kind == RECORD_STRING) && pos > 0) {
		pos = MIN(pos, v->len);
		ground_context_of(v->text + pos, pos, &w);
		context_merge(ctx, w.word, w.n);
		if (w.before1)
			ctx->before1 = w.before1; /* the value's own words are nearer */
	}
}
