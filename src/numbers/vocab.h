/* SPDX-License-Identifier: MIT */
/*
 * The number lexer's vocabulary: the roles a word plays and the units it
 * names. The words are data (words/numbers.txt); tools/words.c makes them
 * into the tables at build time (wordlists.c and wordlists.h in the build
 * folder: vocab_words[], sorted, with a hash table over them and the
 * trigger filter), so a run parses nothing. tools/words.c includes this
 * header for the names of the roles and units the data file may use.
 */
#ifndef HALLUSCAN_VOCAB_H
#define HALLUSCAN_VOCAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * A section of words/numbers.txt that takes a number after each word, or
 * none; or no section: the role is given by another ([approx-pair]).
 */
#define VOCAB_NUMBER 1
#define VOCAB_WORD 0
#define VOCAB_DERIVED 2

/*
 * What a word can be; a word has every role it plays. Each role is a
 * section of words/numbers.txt: X(role, section, whether it takes a number).
 */
#define VOCAB_ROLES(X) \
	X(CARD, "cardinal", VOCAB_NUMBER)      /* "five", "hundred", "million", "dozen" */ \
	X(ORD, "ordinal", VOCAB_NUMBER)        /* "third", "twentieth" */ \
	X(MONTH, "month", VOCAB_NUMBER)        /* (capitalized in the text): "March", "Sept" */ \
	X(CLOCK, "clock", VOCAB_NUMBER)        /* a time of day, in minutes: "noon" */ \
	X(URL, "url", VOCAB_WORD)              /* "http", "www": the start of a URL */ \
	X(FRACTION, "fraction", VOCAB_WORD)    /* after a cardinal, no count: "half", "thirds" */ \
	X(APPROX, "approx", VOCAB_WORD)        /* before a number: "about", "nearly" */ \
	X(DATING, "dating", VOCAB_WORD)        /* before a year: "in", "since", "mid" */ \
	X(WEAKDATE, "weak-dating", VOCAB_WORD) /* before a year of 1900-2099, no noun after */ \
	X(YEARNOUN, "year-noun", VOCAB_WORD)   /* after a year: "season", "election" */ \
	X(REF, "reference", VOCAB_WORD)        /* before a reference or a label: "Table" */ \
	X(SELF, "self-count", VOCAB_WORD)      /* counted, a count of the text itself: "words" */ \
	X(LISTNOUN, "list-noun", VOCAB_WORD)   /* counted after a cue, likewise: "tips" */ \
	X(CUE, "cue", VOCAB_WORD)              /* of the answer's own list: "these", "top" */ \
	X(PRODUCT, "product", VOCAB_WORD)      /* a name numbered: "Windows 10", "Python 3.11" */ \
	X(VERWORD, "version-word", VOCAB_WORD) /* "version 2.3", "release 4" */ \
	X(STOP, "stop", VOCAB_WORD)            /* never a counted noun: "the", "will" */ \
	X(ADJ, "adjective", VOCAB_WORD)        /* skipped before a counted noun: "new" */ \
	X(ARTICLE, "article", VOCAB_WORD)      /* "a", "an", "the" */ \
	X(CURCODE, "currency-code", VOCAB_WORD) /* a currency code before a figure: "USD 5" */ \
	X(APPROX2, "approx-pair", VOCAB_DERIVED) /* ends a two-word approximation: "than" */ \
	X(YEARWORD, "year-word", VOCAB_WORD)   /* makes the figure after it a year: "FY" */ \
	X(DET, "determiner", VOCAB_WORD)       /* "a 1997 outbreak", "its 2020 revenue" */ \
	X(IMPLIED, "implied", VOCAB_WORD)      /* a duration without a number: "decade" */

#define VOCAB_ROLE_INDEX(name, section, number) RI_##name,
enum { VOCAB_ROLES(VOCAB_ROLE_INDEX) VOCAB_ROLE_COUNT };
#undef VOCAB_ROLE_INDEX
#define VOCAB_ROLE_BIT(name, section, number) R_##name = 1u << RI_##name,
enum { VOCAB_ROLES(VOCAB_ROLE_BIT) };
#undef VOCAB_ROLE_BIT

/* The words that start an item on their own: only these are looked up as the scan passes. */
#define R_TRIGGER (R_CARD | R_ORD | R_CLOCK | R_URL | R_IMPLIED)

/* The units a word can name (the [unit] section): X(unit, its name in the data). */
#define VOCAB_UNITS(X) \
	X(NONE, "") X(PERCENT, "percent") X(CENT, "cent") X(MS, "ms") X(SECOND, "second") \
	X(MINUTE, "minute") X(HOUR, "hour") X(DAY, "day") X(WEEK, "week") \
	X(FORTNIGHT, "fortnight") X(MONTH, "month") X(YEAR, "year") X(DECADE, "decade") \
	X(CENTURY, "century") X(USD, "usd") X(EUR, "eur") X(GBP, "gbp") X(DEGREE, "degree") \
	X(FAHRENHEIT, "fahrenheit") X(CELSIUS, "celsius") X(AM, "am") X(PM, "pm") \
	X(THOUSAND, "thousand") X(MILLION, "million") X(BILLION, "billion") \
	X(TRILLION, "trillion")

#define VOCAB_UNIT_ENUM(name, text) U_##name,
enum { VOCAB_UNITS(VOCAB_UNIT_ENUM) VOCAB_UNIT_COUNT };
#undef VOCAB_UNIT_ENUM

/* Words longer than this are not looked up (tools/words.c refuses them). */
#define VOCAB_MAXLEN 16

/*
 * A word of the vocabulary, lowercase. The word is held in the entry, not
 * pointed at: a pointer in a static PIE is relocated at every start, and
 * the table's 600 were five written pages of a 4 KB message's run (issue
 * 35); the entry is as large either way.
 */
struct vword {
	char w[VOCAB_MAXLEN + 1];
	unsigned char len;
	unsigned char unit;
	unsigned roles;
	double num; /* a cardinal's or ordinal's value, a month's number, a clock word's minutes */
};

/*
 * An approximation of two words ([approx-pair]): the word before the
 * number (R_APPROX2), the word before that, and the side of a bound they
 * set (NUMLEX_ABOVE, NUMLEX_BELOW, or 0). Held in place, as a vword's.
 */
struct vocab_pair {
	char w2[VOCAB_MAXLEN + 1], w1[VOCAB_MAXLEN + 1];
	unsigned side;
};

/*
 * The lookup: a table of VOCAB_SLOTS slots, each 0 or a word's index + 1,
 * probed from vocab_hash()'s slot on (the next one after a taken slot that
 * is another word's). At most half full: most words of a text are none of the
 * vocabulary's and stop at the first empty slot. Each byte is hashed with
 * its 0x20 bit set, so that the text's case does not matter (the words are
 * a-z, and a byte that equals one with the bit set is that letter in one
 * case or the other).
 *
 * A word is read as two pieces that cover it, loaded whole: its first and
 * its last eight bytes (four, under eight letters; the first, middle and
 * last bytes under four), never a byte outside it. vocab_find() compares
 * the same pieces: a byte at a time, hashing and comparing cost a word of
 * six letters some 80 instructions (the lexer asks of most words it reads).
 */
#define VOCAB_SLOTS 2048

#define VOCAB_FOLD8 0x2020202020202020ull

/* The n bytes at w (at most eight) as a number, the first the lowest, on any machine. */
static inline uint64_t vocab_piece(const char *w, size_t n)
{
	uint64_t x = 0;

	memcpy(&x, w, n);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x) >> (64 - 8 * n);
#endif
	return x;
}

/* The two pieces of w[0, len) (len 1 to VOCAB_MAXLEN), each byte's 0x20 bit set. */
static inline void vocab_pieces(const char *w, size_t len, uint64_t *a, uint64_t *b)
{
	if (len >= 8) {
		*a = vocab_piece(w, 8) | VOCAB_FOLD8;
		*b = vocab_piece(w + len - 8, 8) | VOCAB_FOLD8;
	} else if (len >= 4) {
		*a = vocab_piece(w, 4) | (VOCAB_FOLD8 >> 32);
		*b = vocab_piece(w + len - 4, 4) | (VOCAB_FOLD8 >> 32);
	} else {
		*a = ((uint64_t)(unsigned char)w[0] | (uint64_t)(unsigned char)w[len / 2] << 8 |
		      (uint64_t)(unsigned char)w[len - 1] << 16) | 0x202020;
		*b = 0;
	}
}

static inline uint32_t vocab_hash(const char *w, size_t len)
{
	uint64_t a, b, h;

	vocab_pieces(w, len, &a, &b);
	h = (a * 0x9e3779b97f4a7c15ull ^ b) * 0xc2b2ae3d27d4eb4full + len;
	h ^= h >> 29;
	return (uint32_t)(h * 0x165667b19e3779f9ull >> 53) & (VOCAB_SLOTS - 1);
}

/*
 * The trigger filter: a bit per hash of a trigger word's first three
 * letters (the low five bits of each: no case) and its length. Every word
 * the scan passes costs one test of it; one in a hundred English words
 * passes and is looked up.
 */
#define TRIG_BITS 2048
#define TRIG_KEY(c0, c1, c2) \
	(((uint32_t)(c0) & 31) | ((uint32_t)(c1) & 31) << 8 | ((uint32_t)(c2) & 31) << 16)
#define TRIG_HASH(key, len) ((uint32_t)((key) * 0x008a05a7u + (uint32_t)(len) * 0xb2221a59u) >> 21)

/*
 * Before it, where the scan reads 32 bytes at once (numlex.c): the
 * trigger words' first three letters, in eight buckets, as nibble tables
 * (tools/words.c, vocab_prefix_nibbles[place][0 low, 1 high][nibble]):
 * the buckets a letter at that place may be in are those of its low
 * nibble and of its high one (its 0x20 bit set: no case). Three letters
 * that start a trigger word share a bucket at all three places; most
 * other words' do not.
 */
static inline unsigned vocab_prefix_buckets(const uint8_t nib[3][2][16], const char *w)
{
	unsigned m = 0xff, k, c;

	for (k = 0; k < 3; k++) {
		c = (unsigned char)w[k] | 0x20;
		m &= nib[k][0][c & 15] & nib[k][1][c >> 4];
	}
	return m;
}

enum unit_class { UC_NONE, UC_PERCENT, UC_DURATION, UC_MONEY, UC_TEMP, UC_MERIDIEM, UC_SCALE };

/* What each unit is: its class, its quantity's unit and one of it in that unit. */
struct unit_info {
	enum unit_class cls;
	const char *base;
	double factor;
};
extern const struct unit_info unit_info[VOCAB_UNIT_COUNT];

/* The entry of the word w[0, len) in any case, or NULL. */
const struct vword *vocab_find(const char *w, size_t len);

/*
 * Holds the generated tables to what the lexer assumes of them (sorted,
 * every word found by its hash, every trigger in the filter): NULL, or the
 * first word that is not.
 */
const char *vocab_check(void);

#endif
