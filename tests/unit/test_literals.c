// SPDX-License-Identifier: MIT
/*
 * The words an exemption pattern needs (src/claims/literals.c): what it
 * reads from a pattern, what it gives up on, and, for every exemption
 * pattern of the built-in packs (and each rule's sentence patterns as one
 * set), that no subject PCRE2 matches lacks them, nor a tail of one a word
 * starting in it (random and adversarial subjects made of the pattern's
 * own words).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "claims/literals.h"
#include "common/util.h"
#include "match/rules.h"
#include "test.h"

/* Whether l holds exactly the words of want (NULL-terminated), in any order. */
static bool words_are(const struct literals *l, const char *const *want)
{
	size_t n = 0, i, k;

	for (; want[n]; n++) {
		for (i = 0; i < l->n; i++)
			if (l->len[i] == strlen(want[n]) && memcmp(l->word[i], want[n], l->len[i]) == 0)
				break;
		if (i == l->n)
			return false;
	}
	for (k = 0; k < l->n; k++)
		if (!l->len[k])
			return false;
	return n == l->n;
}

TEST(literals_read)
{
	static struct literals l;

	CHECK_EQ(literals_of("(?i)foo(?:bar|baz)", &l), 0);
	CHECK(words_are(&l, (const char *[]){"foobar", "foobaz", NULL}));
	CHECK_EQ(literals_of("\\bDefaults?[ \\t]*$", &l), 0);
	CHECK(words_are(&l, (const char *[]){"default", "defaults", NULL}));
	/* a run broken by a repeat: the better side (longer shortest word) */
	CHECK_EQ(literals_of("for[ \\t]+(?:example|instance)", &l), 0);
	CHECK(words_are(&l, (const char *[]){"example", "instance", NULL}));
	/* a small class multiplies out; \xHH is a byte */
	CHECK_EQ(literals_of("let[ \\t]us|i\\xE2\\x80\\x99ll", &l), 0);
	CHECK(words_are(&l, (const char *[]){"let us", "let\tus", "i\xE2\x80\x99ll", NULL}));
	/* lookarounds take no text */
	CHECK_EQ(literals_of("(?<=x)abc(?=yz)", &l), 0);
	CHECK(words_are(&l, (const char *[]){"abc", NULL}));
	CHECK(literals_in(&l, "xxABcx", 6));
	CHECK(!literals_in(&l, "xxAB", 4));
	CHECK_EQ(literals_find(&l, "abc abc", 1, 7), 7);

	/* no word of three bytes that every match needs */
	CHECK_EQ(literals_of("abc|d*", &l), -ENOENT);
	CHECK_EQ(literals_of("ab", &l), -ENOENT);
	CHECK_EQ(literals_of("(?:abc)?x", &l), -ENOENT);
	CHECK_EQ(literals_of("[a-z]+", &l), -ENOENT);
	/* constructs it does not take apart: no prefilter rather than a wrong one */
	CHECK_EQ(literals_of("(abc)\\1", &l), -ENOENT);
	CHECK_EQ(literals_of("(?x)a b c", &l), -ENOENT);
	CHECK_EQ(literals_of("\\Qabc\\E", &l), -ENOENT);
	CHECK_EQ(literals_of("abc(*COMMIT)", &l), -ENOENT);
	CHECK_EQ(literals_of("(?<n>abc)", &l), -ENOENT);
	CHECK_EQ(literals_of("abc\\p{L}", &l), -ENOENT);
	CHECK_EQ(literals_of("abc{,3}", &l), -ENOENT);
	CHECK_EQ(literals_of("abc)", &l), -ENOENT);
	CHECK_EQ(literals_of("(abc", &l), -ENOENT);
	CHECK_EQ(literals_of("[abc", &l), -ENOENT);
	CHECK_EQ(literals_of("[[:alpha:]]abc", &l), -ENOENT);
	CHECK_EQ(literals_of("((((((((((((((((((abc))))))))))))))))))", &l), -ENOENT);
}

/* Several patterns' words as one set, and the last word of a subject. */
TEST(literals_any_and_last)
{
	static struct literals l;
	uint32_t cov = 99;
	const char *const three[] = {"(?i)foo(?:bar|baz)", "[a-z]+", "quux"};
	/* "let" and 64 words that hold it: too many, until those go */
	const char *const full[] = {"let", "let[abcd](?:a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p)"};
	const char *const none[] = {"ab", "[a-z]+"};

	CHECK_EQ(literals_of_any(three, 3, &l, &cov), 0);
	CHECK_EQ(cov, 5u);
	CHECK(words_are(&l, (const char *[]){"foobar", "foobaz", "quux", NULL}));
	CHECK_EQ(literals_of_any(full, 2, &l, &cov), 0);
	CHECK_EQ(cov, 3u);
	CHECK(literals_in(&l, "xxLetxx", 7));
	CHECK(!literals_in(&l, "xxlexx", 6));
	CHECK(l.n <= 2);
	CHECK_EQ(literals_of_any(none, 2, &l, &cov), -ENOENT);
	CHECK_EQ(cov, 0u);

	CHECK_EQ(literals_of("abc|defg", &l), 0);
	CHECK_EQ(literals_last(&l, "abc xx abc", 10), 8);
	CHECK_EQ(literals_last(&l, "abc xx DEFG x", 13), 8);
	CHECK_EQ(literals_last(&l, "abc xx def", 10), 1);
	CHECK_EQ(literals_last(&l, "xx ab", 5), 0);
	CHECK_EQ(literals_last(&l, "", 0), 0);
}

/* xorshift: the same subjects every run */
static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	return test_xorshift(&rng);
}

/* The runs of letters and apostrophes of a pattern: the words it is likely to match. */
static size_t tokens_of(const char *pat, char tok[][32], size_t max)
{
	size_t n = 0, i = 0, k;

	while (pat[i] && n < max) {
		for (k = 0; pat[i + k] && k < 31 &&
			    (((pat[i + k] | 0x20) >= 'a' && (pat[i + k] | 0x20) <= 'z') ||
			     pat[i + k] == '\'');
		     k++)
			;
		if (k >= 2) {
			memcpy(tok[n], pat + i, k);
			tok[n++][k] = '\0';
			i += k;
		} else {
			i++;
		}
	}
	return n;
}

/*
 * Subjects made of the pattern's words, blanks, punctuation, digits,
 * curly apostrophes and random bytes, in random case: whenever PCRE2
 * matches one, literals_in() must find a word in it (in words, or the
 * pattern's own when NULL), and whenever it matches a tail of one as a
 * subject alone, literals_last() a word that starts in that tail. Counts
 * the matches, so that a test that never reaches a match is seen.
 */
static size_t check_words(const char *pat, const struct literals *words, size_t rounds)
{
	static const char *const glue[] = {" ", "\t", " ", ". ", ", ", ": ", "=", "5", "10 ", "\n",
					   "\xE2\x80\x99", "'", "(", ")", "e.g.", "I'll ", "we can ",
					   "default ", "for example, say ", "the ", "up to "};
	static struct literals l;
	static char tok[256][32];
	char s[512];
	size_t n_tok, r, len, matched = 0;
	pcre2_match_data *md;
	PCRE2_SIZE off;
	pcre2_code *code;
	int err;

	code = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
	CHECK(code != NULL);
	if (!code || (!words && literals_of(pat, &l) < 0)) {
		pcre2_code_free(code);
		return 0;
	}
	if (words)
		l = *words;
	md = pcre2_match_data_create_from_pattern(code, NULL);
	n_tok = tokens_of(pat, tok, 256);
	for (r = 0; r < rounds; r++) {
		size_t parts = 1 + next() % 12, p;

		for (len = 0, p = 0; p < parts; p++) {
			uint64_t x = next();
			const char *w = x % 3 == 0 || !n_tok ? glue[(x >> 8) % ARRAY_SIZE(glue)]
							     : tok[(x >> 8) % n_tok];
			size_t k = strlen(w);

			if (len + k + 2 >= sizeof(s))
				break;
			memcpy(s + len, w, k);
			/* random case; now and then a byte dropped or a random one */
			for (size_t j = len; j < len + k; j++)
				if (next() % 4 == 0 && ((s[j] | 0x20) >= 'a' && (s[j] | 0x20) <= 'z'))
					s[j] ^= 0x20;
			len += k;
			if (next() % 16 == 0 && len > 0)
				len--;
			if (next() % 16 == 0)
				s[len++] = (char)(next() & 0xff);
			if (next() % 2)
				s[len++] = ' ';
		}
		if (pcre2_match(code, (PCRE2_SPTR)s, len, 0, 0, md, NULL) >= 0) {
			matched++;
			if (!literals_in(&l, s, len)) {
				fprintf(stderr, "  /%s/ matches \"%.*s\" without its words\n", pat,
					(int)len, s);
				CHECK(!"a match without the words");
			}
		}
		/* a tail, as unless_after reads the rest of a sentence */
		if (len > 0) {
			size_t x = next() % len;

			if (pcre2_match(code, (PCRE2_SPTR)s + x, len - x, 0, 0, md, NULL) >= 0 &&
			    literals_last(&l, s, len) <= x) {
				fprintf(stderr, "  /%s/ matches \"%.*s\" without a word after %zu\n",
					pat, (int)len, s, x);
				CHECK(!"a tail's match without a word in it");
			}
		}
	}
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	return matched;
}

TEST(literals_sound_on_builtin_exemptions)
{
	struct diag d = {""};
	struct ruleset *rs = ruleset_new();
	size_t i, j, with = 0, matched = 0, with_any = 0, matched_any = 0;
	uint32_t cov;

	CHECK_EQ(ruleset_add_builtin(rs, &d), 0);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];
		static struct literals l;

		for (j = 0; j < r->n_unless_sentence + 2; j++) {
			const char *pat = j < r->n_unless_sentence ? r->unless_sentence[j]
					  : j == r->n_unless_sentence ? r->unless_before
								      : r->unless_after;

			if (!pat)
				continue;
			with += literals_of(pat, &l) == 0;
			matched += check_words(pat, NULL, 3000);
		}
		/* the sentence patterns' words as one set (claims_exempt.c) */
		if (r->n_unless_sentence &&
		    literals_of_any((const char *const *)r->unless_sentence, r->n_unless_sentence,
				    &l, &cov) == 0) {
			with_any++;
			for (j = 0; j < r->n_unless_sentence && j < 32; j++)
				if (cov >> j & 1)
					matched_any += check_words(r->unless_sentence[j], &l, 1000);
		}
	}
	/* the packs' patterns give words, and the subjects reach matches */
	CHECK(with >= 5);
	CHECK(matched >= 500);
	CHECK(with_any >= 5);
	CHECK(matched_any >= 100);
	ruleset_free(rs);
}

/* The same on patterns written to catch a careless reading: options, classes, nesting. */
TEST(literals_sound_on_adversarial_patterns)
{
	static const char *const pats[] = {
		"(?i)(?:\\bfor[ \\t]+(?:example|instance)|\\be\\.g\\.)[\\s,:]+(?:if|say)\\b[^.?!\\n]*$",
		"(?i)(?:\\bdefaults?(?:[ \\t]+(?:value|limit))?(?:[ \\t]+(?:is|of|to))?[ \\t]*[=:]?|"
		"\\b(?:i(?:'|\\xE2\\x80\\x99)(?:ll|d)|let me)[ \\t](?:[^.?!\\n]{0,60}?[ \\t])?"
		"(?:fetch|get)\\b[^.?!\\n]{0,40}?\\b(?:next|top))[ \\t]*$",
		"(?-i:Up)[ \\t]?(?i)TO\\b",
		"(?:the|a)[ \\t]+(?>default|example)s?+",
		"x?y?(?:defaultz|exam(?:ple)?)",
		"[Dd][Ee][Ff]ault|[]e]xample|[^a]bc?def",
		"(?s:.)?let(?:'|\\x27)s[ \\t]{1,3}say",
	};
	size_t i, matched = 0;

	for (i = 0; i < ARRAY_SIZE(pats); i++)
		matched += check_words(pats[i], NULL, 4000);
	CHECK(matched >= 100);
}

/*
 * literals_find() (its vector blocks where the CPU has them) against
 * literals_find_bytewise() on generated word sets and subjects: the same
 * end, from every kind of start, on subjects of every length around the
 * blocks' 34 bytes. The words mix letters (read in either case), digits,
 * blanks, punctuation and bytes past 0x7f (whose high nibble shares a
 * table bit with one below 0x80).
 */
TEST(literals_find_blocks_as_bytewise)
{
	static const char alpha[] = "aerstlnAERSTc0 -'\x01\x8e\xc3\xe2";
	static struct literals l;
	char pat[1024], s[400];
	size_t set, r, found = 0, late = 0;

	for (set = 0; set < 300; set++) {
		size_t words = 1 + next() % 24, w, len = 0;

		for (w = 0; w < words; w++) {
			size_t k = 3 + next() % 6, c;

			if (w)
				pat[len++] = '|';
			for (c = 0; c < k; c++) {
				unsigned char b = (unsigned char)alpha[next() % (sizeof(alpha) - 1)];

				/* a digit, blank, '-' or ''' stand for themselves; the rest as \xHH */
				if ((b | 0x20) >= 'a' && (b | 0x20) <= 'z')
					pat[len++] = (char)b;
				else
					len += (size_t)snprintf(pat + len, 5, "\\x%02x", b);
			}
		}
		pat[len] = '\0';
		if (literals_of(pat, &l) != 0)
			continue;
		for (r = 0; r < 200; r++) {
			size_t n = 0, from, want, got;

			for (size_t cap = next() % 300; n < cap;) {
				uint64_t x = next();

				if (x % 4 == 0) { /* a word of the set, in random case, maybe cut short */
					size_t k = (x >> 8) % l.n, m = l.len[k] - ((x >> 16) % 5 == 0);

					for (size_t j = 0; j < m && n < sizeof(s); j++)
						s[n++] = (char)(l.word[k][j] ^ ((next() & 1) && l.word[k][j] >= 'a' &&
										 l.word[k][j] <= 'z' ? 0x20 : 0));
				} else if (x % 4 == 1) {
					s[n++] = alpha[(x >> 8) % (sizeof(alpha) - 1)];
				} else {
					s[n++] = (char)(x >> 8);
				}
			}
			from = next() % 4 ? next() % (n + 1) : 0;
			want = literals_find_bytewise(&l, s, from, n);
			got = literals_find(&l, s, from, n);
			if (got != want)
				fprintf(stderr, "  /%s/ from %zu of %zu bytes: %zu, bytewise %zu\n", pat,
					from, n, got, want);
			CHECK_EQ(got, want);
			found += want != 0;
			late += want + 2 >= n && want >= 33;
		}
	}
	/* (the subjects reach words, and words at the end of long ones) */
	CHECK(found > 10000);
	CHECK(late > 100);
}
