/* SPDX-License-Identifier: MIT */
/*
 * A streaming reader of grounding text (a tool span's content, a source
 * file): it finds the values the text states and the key each is said
 * with, so that "business_stars": 4.5 is a 4.5 said with "business stars".
 *
 * record_new() returns a reader freed with record_free(). The bytes of one
 * text are given to record_feed() in pieces of any size, then record_end();
 * after each, record_next() returns the values read, one a call, in the
 * order of the text, until it returns NULL:
 *
 *	record_feed(r, piece, n);
 *	while ((v = record_next(r)))
 *		...;
 *
 * After record_end()'s NULL the reader is ready for the next text. A value
 * points into the reader (its text into the piece or the reader's buffer,
 * its words and their word_ctx into its key stack): it is valid until the
 * next call on the reader, and the piece must stay until record_next()
 * returns NULL. Memory is fixed at record_new(): nothing is allocated per
 * value, and at most RECORD_CHUNK_MAX bytes of a value (plus a number and a
 * key) are carried from one piece to the next.
 *
 * The mode is decided from the first non-blank bytes (a UTF-8 BOM is
 * skipped):
 *  - '{' or '[': JSON. Top-level values may follow one another (JSON Lines,
 *    concatenated JSON). Keys are not values. An object member's value
 *    carries the words of its key path; an array's items inherit the
 *    array's key, and its close delivers its number of items
 *    (RECORD_COUNT). Strings are decoded to UTF-8: every RFC 8259 escape,
 *    surrogate pairs joined; an invalid escape or a lone surrogate becomes
 *    U+FFFD. At the first byte that is not JSON (or that nests deeper than
 *    RECORD_MAX_DEPTH) the rest of its line is prose, and so is every later
 *    line, until a line that begins (in column 0) with '{' or '[', where
 *    JSON resumes: a bad JSON Lines record costs only its own line. A
 *    string begun before the error is delivered first, as far as it went.
 *    Counted in record_stats.
 *  - Anything else: text, line by line. A line shaped "Key: value" or
 *    "Key = value" (optionally indented, optionally after a "- " or "* "
 *    bullet; the key up to RECORD_TEXT_KEY_MAX letters, digits, spaces,
 *    '_', '-', '.', starting with a letter; ':' followed by a blank, so that
 *    neither "https://" nor "10:30" is one; the value not empty) is a
 *    RECORD_STRING with the key's words. Any other line that is not blank
 *    is RECORD_PROSE. Lines are delivered without their line break (nor a
 *    '\r' before it).
 *
 * A string or line longer than RECORD_CHUNK_MAX is delivered in chunks (all
 * but the first with cont set), each cut after the last sentence end (".",
 * "!" or "?" and a blank, or a line break) in its second half, else after
 * its last blank there, else at a UTF-8 boundary. Every chunk boundary
 * depends on the text alone: the same text gives the same values
 * however it is cut into pieces.
 */
#ifndef HALLUSCAN_RECORD_H
#define HALLUSCAN_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most bytes of one value (or line) held before a chunk is cut. */
#define RECORD_CHUNK_MAX 16384
/* Arrays and objects nested deeper than this: the rest of the line is prose. */
#define RECORD_MAX_DEPTH 64
/* A value carries at most this many words of its key path (the innermost),
 * each cut to RECORD_WORD_MAX bytes. */
#define RECORD_WORDS 8
#define RECORD_WORD_MAX 24
/* Bytes of a JSON key read for its words; the rest is skipped. */
#define RECORD_KEY_MAX 128
/* Bytes of a text line's key. */
#define RECORD_TEXT_KEY_MAX 40
/* A JSON number longer than this is skipped (and counted). */
#define RECORD_NUMBER_MAX 64
/* Escapes remembered per chunk for record_offset(). */
#define RECORD_MARKS 64

struct record;
struct ground_context; /* ground.h */

enum record_kind {
	RECORD_PROSE,	/* a line of text (or part of one), in text mode or after bad JSON */
	RECORD_STRING,	/* a JSON string decoded, or a text line's value */
	RECORD_NUMBER,	/* a JSON number as written */
	RECORD_BOOL,	/* "true" or "false" */
	RECORD_NULL,	/* "null" */
	/* A JSON array's number of items, at its ']' (at, end = at + 1); the
	 * text is the count in decimal, not the bytes there; the words are
	 * the array's key's, as its items have them. */
	RECORD_COUNT,
};

/* In a decoded string, byte pos comes from the stream byte at (after an escape). */
struct record_mark {
	uint32_t pos;
	uint64_t at;
};

/* The content words of one word of a key path (ground_context_key()). */
struct record_word_ctx {
	uint32_t word[8];
	uint8_t n;
	bool known;
	/* The caller's answers about the word's bytes alone (ground_values.c's
	 * key tags, and a hash's step over the word: from hash_in, hash_out):
	 * tags 0 until it sets them; 0 for a word new to the path, and kept
	 * with the content words by the word's bytes. */
	uint8_t tags;
	uint64_t hash_in, hash_out;
};

struct record_value {
	enum record_kind kind;
	/* Not NUL-terminated. Raw bytes of a JSON string pass as they are,
	 * not checked as UTF-8. */
	const char *text;
	size_t len;
	/*
	 * The stream offset of the value's first byte: a string's first byte
	 * after its opening quote, a chunk's first byte (exact however many
	 * escapes came before it), a text value's first byte after "Key: ".
	 * Offsets count from the first byte fed since record_new() or the
	 * last record_end().
	 */
	uint64_t at;
	/* The stream offset just past the value's last byte as written (its
	 * escapes whole): at + len where nothing was escaped. */
	uint64_t end;
	/* The key path's words: ASCII case-folded, split at every byte that is
	 * not a letter, digit or non-ASCII byte and at camelCase humps, a word
	 * repeated from the path's last words left out, innermost last. */
	const char *const *words;
	size_t n_words;
	/* Beside each word, its content words as record_context() reads them:
	 * the reader's cache, which record_context() fills in place the first
	 * time a word is read and which stays while the word is on the path
	 * (every value under a key shares it), and is kept by the word's bytes
	 * once it leaves (a list's items' keys come again); NULL: read each
	 * time. Its tags are the caller's to fill the same way. */
	struct record_word_ctx *word_ctx;
	bool cont;		/* continues the value returned before it */
	/* RECORD_COUNT: the stream offset of the array's '[' (its items are
	 * the values delivered from there); else at. */
	uint64_t opened;
	/* Where escapes changed the length (see record_offset()). */
	const struct record_mark *marks;
	size_t n_marks;
};

enum record_mode {
	RECORD_MODE_NONE,	/* nothing but blanks yet */
	RECORD_MODE_JSON,	/* one JSON value so far */
	RECORD_MODE_JSONL,	/* JSON values on several lines */
	RECORD_MODE_TEXT,
};

/* Cumulative since record_new() or record_reset(). */
struct record_stats {
	uint64_t values;	/* values returned */
	uint64_t records;	/* top-level JSON values completed */
	uint64_t json_errors;	/* JSON gone bad: from the bad byte, the rest of its line went as prose */
	uint64_t too_deep;	/* nesting past RECORD_MAX_DEPTH: the same */
	uint64_t truncated;	/* texts that ended inside a JSON value */
	uint64_t long_numbers;	/* numbers longer than RECORD_NUMBER_MAX, skipped */
	uint64_t cuts;		/* chunks cut from strings and lines too long to hold */
	size_t carry_high;	/* the most bytes ever carried from one piece to the next */
};

/* Returns 0 or -ENOMEM. */
int record_new(struct record **out);
void record_free(struct record *r);
/* Forgets the text under way and zeroes the counters. */
void record_reset(struct record *r);

/*
 * Gives the next len bytes of the text, for record_next() to read. Returns
 * 0, or -EBUSY while the piece before (or the end) is not read through
 * (record_next() has not returned NULL): nothing is taken then. A caller
 * that stops reading part way abandons the text (record_reset()).
 */
int record_feed(struct record *r, const void *buf, size_t len);
/*
 * Ends the text: record_next() then returns what was pending (a line
 * without its line break, a string or number cut off by the end), and
 * its NULL leaves the reader ready for the next text. Returns as
 * record_feed().
 */
int record_end(struct record *r);
/*
 * The next value of what was fed, or NULL when the piece (or the end) is
 * read through. Valid until the next call on r.
 */
const struct record_value *record_next(struct record *r);

/* The mode of the text under way (or the one just ended). */
enum record_mode record_mode(const struct record *r);
const struct record_stats *record_stats(const struct record *r);

/*
 * The stream offset of v->text[i]. Exact for a byte written as it is
 * (not decoded from an escape) before the chunk's RECORD_MARKS-th escape;
 * a byte an escape gave maps into (or just after) that escape; past the
 * last mark of a chunk with more escapes than marks it is off by what the
 * unmarked escapes changed, and never at or past v->end (an escape is
 * mostly longer than what it decodes to, but a bad byte or a bad "\u"
 * decodes to U+FFFD, three bytes for one or two).
 */
uint64_t record_offset(const struct record_value *v, size_t i);

/*
 * The context of a quantity at v->text[pos], in the form of
 * ground_context_of(): the content words of v's key path, then (for prose
 * and strings) those ground_context_of() finds before pos in v->text, each
 * word once, at most GROUND_CONTEXT.
 */
void record_context(const struct record_value *v, size_t pos, struct ground_context *ctx);

#endif
