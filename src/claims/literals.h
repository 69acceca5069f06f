/* SPDX-License-Identifier: MIT */
/*
 * The words an exemption pattern cannot match without: a set such that
 * every match of the pattern contains one of them (ASCII case folded),
 * read from the pattern itself when the rule's exemptions are compiled.
 * A subject holding none of them has no match, so PCRE2 is not asked:
 * a cheap search decides most sentences, with the same answers.
 */
#ifndef HALLUSCAN_LITERALS_H
#define HALLUSCAN_LITERALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* At most this many words, each at most LITERALS_LEN bytes. */
#define LITERALS_MAX 64
#define LITERALS_LEN 32

struct literals {
	size_t n;
	size_t longest;
	unsigned char len[LITERALS_MAX];
	unsigned char word[LITERALS_MAX][LITERALS_LEN]; /* ASCII letters in lower case */
	/* words starting with byte b (case folded): at[b] .. at[b] + count[b] - 1 */
	unsigned char at[256], count[256];
	/* the pairs of bytes words start with (folded, hashed to 4096 bits):
	 * a common first letter is passed over unless the next one fits */
	unsigned char pair[512];
	/* the bytes that can start a word, and those that can be its second
	 * and third, as nibble tables (bit h % 8 of lo[b % 16] for a byte b
	 * whose high nibble is h): literals_find()'s vector blocks */
	unsigned char first_lo[16], second_lo[16], third_lo[16];
};

/*
 * Fills *l with the words every match of pat needs one of and returns 0;
 * -ENOENT when no such set of words of at least 3 bytes could be read
 * (a construct it does not take apart, a branch that needs no word, more
 * words than fit): then the pattern has no prefilter.
 */
int literals_of(const char *pat, struct literals *l);

/*
 * The same for any of pats[0, n) (the first 32): words such that every
 * match of each pattern i whose bit *covered has contains one of them
 * (where they would not fit, a word that holds another is left out: text
 * with one has the other). -ENOENT when no pattern is covered.
 */
int literals_of_any(const char *const *pats, size_t n, struct literals *l, uint32_t *covered);

/* Whether s[0, n) holds one of l's words (ASCII case folded). */
bool literals_in(const struct literals *l, const char *s, size_t n);

/*
 * The end of the first of l's words found whole within s[from, n), as an
 * offset into s, or 0 when there is none.
 */
size_t literals_find(const struct literals *l, const char *s, size_t from, size_t n);

/* literals_find() a byte at a time: the reference its vector blocks are tested against. */
size_t literals_find_bytewise(const struct literals *l, const char *s, size_t from, size_t n);

/* One past the start of the last of l's words found whole within s[0, n), or 0 when there is none. */
size_t literals_last(const struct literals *l, const char *s, size_t n);

#endif
