// SPDX-License-Identifier: MIT
/* url_end() against the regex it stands for, on generated and hostile text. */
#include <stdint.h>
#include <stdlib.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "common/url.h"
#include "match/engine.h"
#include "test.h"

/* url.http's pattern before it took extend: url (patterns/urls.yaml). */
static const char URL_RE[] =
	"https?://[a-z0-9](?:[^\\s<>\"'`()\\[\\]{}|\\\\^\\x00-\\x1f\\x7f]*"
	"\\([^\\s<>\"'`()\\[\\]{}\\x00-\\x1f\\x7f]*\\))*"
	"[^\\s<>\"'`()\\[\\]{}|\\\\^\\x00-\\x1f\\x7f]*"
	"(?:[^\\s<>\"'`()\\[\\]{}|\\\\^.,;:!?*_~\\x00-\\x1f\\x7f]|"
	"\\([^\\s<>\"'`()\\[\\]{}\\x00-\\x1f\\x7f]*\\))";

struct oracle {
	pcre2_code *c;
	pcre2_match_data *md;
	int ws[4096];
};

static bool oracle_new(struct oracle *o)
{
	int ec;
	PCRE2_SIZE off;

	o->c = pcre2_compile((PCRE2_SPTR)URL_RE, PCRE2_ZERO_TERMINATED, PCRE2_CASELESS, &ec, &off,
			     NULL);
	CHECK(o->c != NULL);
	o->md = o->c ? pcre2_match_data_create(64, NULL) : NULL;
	return o->md != NULL;
}

static void oracle_free(struct oracle *o)
{
	pcre2_match_data_free(o->md);
	pcre2_code_free(o->c);
}

/* The longest match of the regex anchored at s[0], within s[0, n), or 0. */
static size_t oracle_end(struct oracle *o, const char *s, size_t n)
{
	int rc = pcre2_dfa_match(o->c, (PCRE2_SPTR)s, n, 0, PCRE2_ANCHORED, o->md, NULL, o->ws,
				 sizeof(o->ws) / sizeof(o->ws[0]));

	CHECK(rc >= 0 || rc == PCRE2_ERROR_NOMATCH);
	/* DFA lists the longest match first. */
	return rc >= 0 ? pcre2_get_ovector_pointer(o->md)[1] : 0;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;

static unsigned next(unsigned n)
{
	return (unsigned)(test_xorshift(&rng) % n);
}

/* Bytes that decide where a URL ends, weighted toward those. */
static const char ALPHABET[] =
	"aZ09-/.%@#&=?:;,!*_~()()[]{}<>\"'`|\\^ \t\n\r\v\f\x01\x7f\x80\xc3\xa9\xe2\x80\x99hHtTpPsS";
static const char *const PIECES[] = {"http://", "https://", "HTTPS://", "hTtP://", "http:/", "https:",
				     "://", "(", ")", "(a)", "_(b)", "](", "http://a", "https://x.y/",
				     "%E2%80%99", "xn--bcher-kva.example", "\xe4\xbe\x8b.\xe6\xb5\x8b"};

static size_t make(char *s, size_t cap)
{
	size_t n = 0, want = 1 + next((unsigned)cap - 16);

	while (n < want) {
		if (next(3) == 0) {
			const char *p = PIECES[next(sizeof(PIECES) / sizeof(PIECES[0]))];
			size_t k = strlen(p);

			if (n + k > cap)
				break;
			memcpy(s + n, p, k);
			n += k;
		} else {
			s[n++] = ALPHABET[next(sizeof(ALPHABET) - 1)];
		}
	}
	return n;
}

/* At every start of many generated strings, url_end() is the regex's longest match. */
TEST(url_end_is_the_regex)
{
	struct oracle o;
	char s[96];
	size_t i, at, n, bad = 0;

	if (!oracle_new(&o))
		return;
	for (i = 0; i < 40000 && bad < 5; i++) {
		n = make(s, sizeof(s));
		for (at = 0; at < n; at++) {
			size_t want = oracle_end(&o, s + at, n - at), got = url_end(s + at, n - at);

			if (want != got && bad++ < 5) {
				fprintf(stderr, "  \"%.*s\" at %zu: regex %zu, url_end %zu\n", (int)n, s,
					at, want, got);
				CHECK(!"url_end differs from the regex");
			}
		}
	}
	oracle_free(&o);
}

/* The shapes the rule's examples and its comment name, one by one. */
TEST(url_end_shapes)
{
	static const struct {
		const char *s;
		size_t len;
	} cases[] = {
		{"https://en.wikipedia.org/wiki/Python_(programming_language).", 59},
		{"https://a.example/x_(y)_(z)", 27},
		{"https://a.example/x_(y", 19},
		{"(see https://a.example/b)", 0},
		{"https://a.example/b)", 19},
		{"[t](https://a.example/b).", 0},
		{"https://a.example/b**!", 19},
		{"https://a.example/b~_~", 19},
		{"HTTP://Example.COM/Index.html", 29},
		{"https://a.example/%E2%80%99x\"", 28},
		{"https://\xe4\xbe\x8b.example", 0},
		{"https://x\xe4\xbe\x8b.\xe6\xb5\x8b", 16},
		{"https://a|b", 0},
		{"https://a(|\\^)", 14},
		{"https://a.", 0},
		{"https://", 0},
		{"http://ab", 9},
		{"ftp://ab", 0},
	};
	struct oracle o;
	size_t i;

	/* What --export-patterns gives other tools is the same language. */
	CHECK_STR(URL_REGEX, URL_RE);
	if (!oracle_new(&o))
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i].s;

		CHECK_EQ(url_end(s, strlen(s)), cases[i].len);
		CHECK_EQ(oracle_end(&o, s, strlen(s)), cases[i].len);
	}
	oracle_free(&o);
}

/*
 * 1 MiB of URL characters, groups and schemes after one scheme: within the
 * engine's longest match (the caller's bound) url_end() is the regex's,
 * however the bound cuts a group, a run of punctuation or a second scheme.
 */
TEST(url_end_hostile)
{
	static const char *const fills[] = {"a", "a.", ".", "(a)", "(a", "a(|", "https://b.", "%2F_",
					    "\xe2\x80\x99"};
	size_t len = 1 << 20, f, i, cut;
	char *s = malloc(len);
	struct oracle o;

	if (!s || !oracle_new(&o)) {
		free(s);
		return;
	}
	for (f = 0; f < sizeof(fills) / sizeof(fills[0]); f++) {
		size_t k = strlen(fills[f]);

		memcpy(s, "https://a", 9);
		for (i = 9; i < len; i++)
			s[i] = fills[f][(i - 9) % k];
		for (cut = ENGINE_MAX_MATCH - 12; cut <= ENGINE_MAX_MATCH; cut++)
			CHECK_EQ(url_end(s, cut), oracle_end(&o, s, cut));
		/* The whole MiB: linear, and still the regex's. */
		CHECK_EQ(url_end(s, len), oracle_end(&o, s, len));
	}
	oracle_free(&o);
	free(s);
}
