// SPDX-License-Identifier: MIT
/*
 * The words an exemption pattern cannot match without (literals.h).
 *
 * The pattern is read as PCRE2 reads it, for the part of its syntax the
 * packs use; anything else (a back reference, \Q, a verb, (?x), a
 * conditional, \p) gives the pattern no prefilter, so a construct misread
 * can cost speed but never an answer. Each part of it gets a set of words:
 * exact (the part matches one of them and nothing else) or required (each
 * of its matches contains one). A run of exact parts multiplies out
 * ("default" + "s"? = default, defaults); a part that is not exact (a
 * class of many bytes, a repeat) ends the run, and the sequence keeps the
 * best set it met (longest shortest word). A branch of an alternation
 * that needs no word leaves the alternation needing none.
 */
#include "literals.h"

#include "common/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
/* literals_find() in AVX2 blocks where the CPU has it (as find_literal()). */
#include <immintrin.h>
#include <sys/platform/x86.h> /* glibc 2.33 and later */
#define LITERALS_AVX2 1
#endif
#endif

/* Groups nested deeper than this give up (the packs nest four). */
#define LIT_DEPTH 16

/* A set of words: exact, or required (each match contains one). */
struct set {
	bool exact;
	size_t n;
	unsigned char len[LITERALS_MAX];
	unsigned char w[LITERALS_MAX][LITERALS_LEN];
};

struct parse {
	const char *p;
	bool fail; /* a construct not taken apart: no prefilter */
	/* each depth's sets (four for a sequence, one for an alternation),
	 * made once and used again by the groups that follow */
	struct set *pool[LIT_DEPTH + 1][5];
};

/* Set k of depth d's pool, made on first use (NULL: no memory). */
static struct set *pooled(struct parse *ps, int d, int k)
{
	if (!ps->pool[d][k])
		ps->pool[d][k] = malloc(sizeof(struct set));
	return ps->pool[d][k];
}

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* A word's first two bytes (folded) as a bit of literals.pair. */
#define PAIR(a, b) ((((size_t)(a) << 4) ^ (size_t)(b)) & 4095)

/* The set {""}: exact (a zero-width part) or required (a part that needs nothing). */
static void empty(struct set *s, bool exact)
{
	s->exact = exact;
	s->n = 1;
	s->len[0] = 0;
}

static bool has(const struct set *s, const unsigned char *w, size_t len)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->len[i] == len && memcmp(s->w[i], w, len) == 0)
			return true;
	return false;
}

/* Adds a word once; false when it does not fit. */
static bool add(struct set *s, const unsigned char *w, size_t len)
{
	if (has(s, w, len))
		return true;
	if (s->n == LITERALS_MAX || len > LITERALS_LEN)
		return false;
	memcpy(s->w[s->n], w, len);
	s->len[s->n++] = (unsigned char)len;
	return true;
}

/* The shortest word's length: how much a required set says (0: nothing). */
static size_t score(const struct set *s)
{
	size_t i, m = SIZE_MAX;

	for (i = 0; i < s->n; i++)
		if (s->len[i] < m)
			m = s->len[i];
	return s->n ? m : 0;
}

/* Whether required set a says more than b. */
static bool better(const struct set *a, const struct set *b)
{
	size_t sa = score(a), sb = score(b);

	return sa > sb || (sa == sb && sa > 0 && a->n < b->n);
}

/* *out = a x b (each word of a followed by each of b); false when it does not fit. */
static bool cross(const struct set *a, const struct set *b, struct set *out)
{
	unsigned char w[2 * LITERALS_LEN];
	size_t i, j;

	out->exact = true;
	out->n = 0;
	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++) {
			if (a->len[i] + b->len[j] > LITERALS_LEN)
				return false;
			memcpy(w, a->w[i], a->len[i]);
			memcpy(w + a->len[i], b->w[j], b->len[j]);
			if (!add(out, w, a->len[i] + b->len[j]))
				return false;
		}
	return true;
}

static void alternation(struct parse *ps, struct set *out, int depth);

/* The quantifier after an atom, if any: sets *lo (and *hi, SIZE_MAX: none). */
static bool quantifier(struct parse *ps, size_t *lo, size_t *hi)
{
	const char *p = ps->p;
	char *e;

	if (*p == '?' || *p == '*' || *p == '+') {
		*lo = *p == '+';
		*hi = *p == '?' ? 1 : SIZE_MAX;
		p++;
	} else if (*p == '{') {
		if (p[1] < '0' || p[1] > '9') {
			ps->fail = true; /* ("{,n}" and a literal "{" alike) */
			return false;
		}
		*lo = strtoul(p + 1, &e, 10);
		if (*e == '}') {
			*hi = *lo;
		} else if (*e == ',' && e[1] == '}') {
			*hi = SIZE_MAX;
			e++;
		} else if (*e == ',' && e[1] >= '0' && e[1] <= '9') {
			*hi = strtoul(e + 1, &e, 10);
			if (*e != '}') {
				ps->fail = true;
				return false;
			}
		} else {
			ps->fail = true;
			return false;
		}
		p = e + 1;
	} else {
		return false;
	}
	if (*p == '?' || *p == '+') /* lazy, possessive: the same text */
		p++;
	ps->p = p;
	return true;
}

/* A class "[...]" (ps->p past the "["): exact when it holds at most four bytes. */
static void class(struct parse *ps, struct set *out)
{
	unsigned char bytes[256] = {0};
	const char *p = ps->p;
	bool negated = false, wide = false, first = true;
	int c;
	size_t i, k, distinct = 0;

	if (*p == '^') {
		negated = true;
		p++;
	}
	for (;; first = false) {
		if (!*p) {
			ps->fail = true;
			return;
		}
		if (*p == ']' && !first)
			break;
		if (*p == '[' && p[1] == ':') {
			ps->fail = true; /* (a POSIX class) */
			return;
		}
		if (*p == '\\') {
			p++;
			switch (*p) {
			case 't': c = '\t'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 'f': c = '\f'; break;
			case 'e': c = 0x1b; break;
			case 'a': c = 7; break;
			case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
			case 'h': case 'H': case 'v': case 'V':
				wide = true;
				c = -1;
				break;
			case 'x':
				if (strchr("0123456789abcdefABCDEF", p[1]) && p[1] &&
				    strchr("0123456789abcdefABCDEF", p[2]) && p[2]) {
					char hex[3] = {p[1], p[2], 0};

					c = (int)strtoul(hex, NULL, 16);
					p += 2;
					break;
				}
				ps->fail = true;
				return;
			default:
				if (!*p || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
				    (*p >= 'A' && *p <= 'Z')) {
					ps->fail = true;
					return;
				}
				c = (unsigned char)*p;
			}
			p++;
		} else {
			c = (unsigned char)*p++;
		}
		if (c < 0)
			continue; /* (\d, \s, \w: wide already) */
		/* a range: c-hi */
		if (*p == '-' && p[1] && p[1] != ']') {
			int hi;

			p++;
			if (*p == '\\' || *p == '[') {
				ps->fail = true;
				return;
			}
			hi = (unsigned char)*p++;
			if (hi < c) {
				ps->fail = true;
				return;
			}
			for (k = (size_t)c; k <= (size_t)hi; k++) {
				distinct += !bytes[fold((unsigned char)k)];
				bytes[fold((unsigned char)k)] = 1;
			}
			continue;
		}
		distinct += !bytes[fold((unsigned char)c)];
		bytes[fold((unsigned char)c)] = 1;
	}
	ps->p = p + 1;
	if (negated || wide || distinct > 4 || distinct == 0) {
		empty(out, false);
		return;
	}
	out->exact = true;
	out->n = 0;
	for (i = 0; i < 256; i++)
		if (bytes[i]) {
			unsigned char b = (unsigned char)i;

			add(out, &b, 1);
		}
}

/* An escape (ps->p past the "\"). */
static void escape(struct parse *ps, struct set *out)
{
	unsigned char c;
	const char *p = ps->p;

	switch (*p) {
	case 'b': case 'B': case 'A': case 'z': case 'Z':
		empty(out, true);
		ps->p = p + 1;
		return;
	case 'd': case 'D': case 's': case 'S': case 'w': case 'W': case 'h': case 'H':
	case 'v': case 'V': case 'N': case 'R': case 'X':
		if (*p == 'N' && p[1] == '{')
			break;
		empty(out, false);
		ps->p = p + 1;
		return;
	case 't': c = '\t'; goto one;
	case 'n': c = '\n'; goto one;
	case 'r': c = '\r'; goto one;
	case 'f': c = '\f'; goto one;
	case 'e': c = 0x1b; goto one;
	case 'a': c = 7; goto one;
	case 'x':
		if (p[1] && p[2] && strchr("0123456789abcdefABCDEF", p[1]) &&
		    strchr("0123456789abcdefABCDEF", p[2])) {
			char hex[3] = {p[1], p[2], 0};

			c = (unsigned char)strtoul(hex, NULL, 16);
			p += 2;
			goto one;
		}
		break;
	default:
		if (*p && !((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
			    (*p >= 'A' && *p <= 'Z'))) {
			c = (unsigned char)*p;
			goto one;
		}
	}
	ps->fail = true; /* \G, \K, \Q, \p, a back reference, \x{...}, ... */
	return;
one:
	c = fold(c);
	out->exact = true;
	out->n = 0;
	add(out, &c, 1);
	ps->p = p + 1;
}

/* A group (ps->p past the "("), up to and past its ")". */
static void group(struct parse *ps, struct set *out, int depth)
{
	const char *p = ps->p;
	bool assertion = false;

	if (*p == '?') {
		p++;
		if (*p == ':' || *p == '>' || *p == '|') {
			p++;
		} else if (*p == '=' || *p == '!') {
			assertion = true;
			p++;
		} else if (*p == '<' && (p[1] == '=' || p[1] == '!')) {
			assertion = true;
			p += 2;
		} else {
			/* option letters: case does not matter to a case-folded
			 * search, nor multiline or dotall to what we read; not x */
			while (*p && strchr("imsnJU-", *p))
				p++;
			if (*p == ')' && p != ps->p + 1) {
				ps->p = p + 1;
				empty(out, true);
				return;
			}
			if (*p != ':' || p == ps->p + 1) {
				ps->fail = true; /* names, conditions, recursion, (?x), (?#...) */
				return;
			}
			p++;
		}
	} else if (*p == '*') {
		ps->fail = true; /* a verb */
		return;
	}
	ps->p = p;
	alternation(ps, out, depth + 1);
	if (ps->fail)
		return;
	if (*ps->p != ')') {
		ps->fail = true;
		return;
	}
	ps->p++;
	if (assertion)
		empty(out, true); /* it reads, but takes no text */
}

/* One atom with its quantifier. */
static void item(struct parse *ps, struct set *out, int depth)
{
	size_t lo, hi;
	unsigned char c;
	char at = *ps->p;

	switch (at) {
	case '(':
		ps->p++;
		group(ps, out, depth);
		break;
	case '[':
		ps->p++;
		class(ps, out);
		break;
	case '\\':
		ps->p++;
		escape(ps, out);
		break;
	case '.':
		ps->p++;
		empty(out, false);
		break;
	case '^':
	case '$':
		ps->p++;
		empty(out, true);
		break;
	case '*': case '+': case '?': case '{':
		ps->fail = true;
		return;
	default:
		c = fold((unsigned char)at);
		out->exact = true;
		out->n = 0;
		add(out, &c, 1);
		ps->p++;
	}
	if (ps->fail || !quantifier(ps, &lo, &hi))
		return;
	if (lo == 1 && hi == 1)
		return;
	if (lo == 0 && hi == 1 && out->exact) {
		unsigned char none = 0;

		if (!add(out, &none, 0))
			empty(out, false);
		return;
	}
	if (lo == 0) {
		empty(out, false);
		return;
	}
	out->exact = false; /* at least once: each match holds one of its words */
}

/* A sequence of items, up to "|", ")" or the end. */
static void sequence(struct parse *ps, struct set *out, int depth)
{
	struct set *run, *x, *best, *tmp;
	bool exact = true;
	size_t i;

	/* four sets, swapped rather than copied (each is 2 KB) */
	run = pooled(ps, depth, 0);
	x = pooled(ps, depth, 1);
	best = pooled(ps, depth, 2);
	tmp = pooled(ps, depth, 3);
	if (!run || !x || !best || !tmp) {
		ps->fail = true;
		return;
	}
	empty(run, true);
	empty(best, false);
	while (*ps->p && *ps->p != '|' && *ps->p != ')') {
		item(ps, x, depth);
		if (ps->fail)
			return;
		if (x->exact && cross(run, x, tmp)) {
			struct set *t = run;

			run = tmp;
			tmp = t;
			continue;
		}
		/* the run so far is a word every match holds */
		exact = false;
		run->exact = false;
		if (better(run, best)) {
			struct set *t = best;

			best = run;
			run = t;
		}
		if (x->exact) {
			struct set *t = run;

			run = x;
			x = t;
			continue;
		}
		if (better(x, best)) {
			struct set *t = best;

			best = x;
			x = t;
		}
		empty(run, true);
	}
	if (!exact) {
		run->exact = false;
		if (!better(run, best))
			run = best;
	}
	/* (only the words in use are copied) */
	out->exact = run->exact;
	out->n = run->n;
	memcpy(out->len, run->len, run->n);
	for (i = 0; i < run->n; i++)
		memcpy(out->w[i], run->w[i], run->len[i]);
}

/* Branches separated by "|", up to ")" or the end. */
static void alternation(struct parse *ps, struct set *out, int depth)
{
	struct set *x;
	bool first = true, none = false;
	size_t i;

	if (depth > LIT_DEPTH || !(x = pooled(ps, depth, 4))) {
		ps->fail = true;
		return;
	}
	for (;;) {
		sequence(ps, first ? out : x, depth);
		if (ps->fail)
			break;
		if (!first) {
			if (out->exact && !x->exact)
				out->exact = false;
			if (!out->exact && score(x) == 0)
				none = true;
			for (i = 0; i < x->n && !none; i++)
				if (!add(out, x->w[i], x->len[i]))
					none = true;
		}
		first = false;
		if (*ps->p != '|')
			break;
		ps->p++;
	}
	if (!ps->fail && !out->exact && (none || score(out) == 0))
		empty(out, false);
}

/* Reads pat's words into *s (past LIT_DEPTH's pools); -ENOENT, -ENOMEM as literals_of(). */
static int read_set(const char *pat, struct set *s)
{
	struct parse ps = {pat, false, {{NULL}}};
	size_t i, k;

	alternation(&ps, s, 0);
	for (i = 0; i <= LIT_DEPTH; i++)
		for (k = 0; k < 5; k++)
			free(ps.pool[i][k]);
	if (!ps.fail && *ps.p)
		ps.fail = true; /* an unmatched ")" */
	if (!ps.fail && score(s) < 3)
		ps.fail = true;
	return ps.fail ? -ENOENT : 0;
}

/* Whether v[0, m) lies within w[0, n). */
static bool within(const unsigned char *v, size_t m, const unsigned char *w, size_t n)
{
	size_t j;

	for (j = 0; j + m <= n; j++)
		if (w[j] == v[0] && memcmp(w + j, v, m) == 0)
			return true;
	return false;
}

/*
 * Leaves out of a required set the words that hold another of its words
 * (text with one has the other): it requires what it did, with fewer.
 */
static void least(struct set *s)
{
	size_t i, j, k;

	for (i = k = 0; i < s->n; i++) {
		for (j = 0; j < s->n; j++)
			if (j != i && s->len[j] <= s->len[i] &&
			    within(s->w[j], s->len[j], s->w[i], s->len[i]) &&
			    (s->len[j] < s->len[i] || j < i))
				break;
		if (j < s->n)
			continue;
		if (k != i) {
			memcpy(s->w[k], s->w[i], s->len[i]);
			s->len[k] = s->len[i];
		}
		k++;
	}
	s->n = k;
}

/* Fills *l with s's words. */
static void tables(struct literals *l, const struct set *s)
{
	unsigned char fill[256] = {0};
	size_t i, b, k;

	memset(l, 0, sizeof(*l));
	/* by first byte, for literals_find(): a counting sort */
	for (i = 0; i < s->n; i++)
		l->count[s->w[i][0]]++;
	for (b = 0, k = 0; b < 256; k += l->count[b], b++)
		l->at[b] = (unsigned char)k;
	for (i = 0; i < s->n; i++) {
		size_t to = l->at[s->w[i][0]] + fill[s->w[i][0]]++;

		memcpy(l->word[to], s->w[i], s->len[i]);
		l->len[to] = s->len[i];
		if (s->len[i] > l->longest)
			l->longest = s->len[i];
		l->pair[PAIR(s->w[i][0], s->w[i][1]) / 8] |=
			(unsigned char)(1u << (PAIR(s->w[i][0], s->w[i][1]) % 8));
	}
	l->n = s->n;
	/* an upper-case letter starts what its lower case does */
	for (b = 'a'; b <= 'z'; b++) {
		l->at[b - 32] = l->at[b];
		l->count[b - 32] = l->count[b];
	}
	/* the nibble tables: every byte b with count[b], and every byte that
	 * folds to a word's second (third), or all of them when a word is
	 * shorter */
	for (b = 0; b < 256; b++)
		if (l->count[b])
			l->first_lo[b % 16] |= (unsigned char)(1u << (b / 16 % 8));
	for (i = 0; i < s->n; i++)
		for (size_t at = 1; at < 3; at++) {
			unsigned char *lo = at == 1 ? l->second_lo : l->third_lo;

			b = s->len[i] <= at ? 256 : s->w[i][at];
			if (b == 256)
				memset(lo, 0xff, 16);
			else
				for (k = 0; k < 2; k++, b = b >= 'a' && b <= 'z' ? b - 32 : b)
					lo[b % 16] |= (unsigned char)(1u << (b / 16 % 8));
		}
}

int literals_of(const char *pat, struct literals *l)
{
	return literals_of_any(&pat, 1, l, NULL);
}

int literals_of_any(const char *const *pats, size_t n, struct literals *l, uint32_t *covered)
{
	struct set *all = malloc(sizeof(*all)), *s = malloc(sizeof(*s));
	uint32_t got = 0;
	size_t i, k;
	int err = 0;

	if (!all || !s) {
		err = -ENOMEM;
		goto out;
	}
	all->exact = false;
	all->n = 0;
	for (i = 0; i < n && i < 32; i++) {
		err = read_set(pats[i], s);
		if (err == -ENOENT)
			continue;
		if (err)
			goto out;
		for (k = 0; k < s->n; k++)
			if (!add(all, s->w[k], s->len[k])) {
				/* full: room made by the words that say no more */
				least(all);
				if (!add(all, s->w[k], s->len[k]))
					break;
			}
		/* (a pattern whose words do not fit is not covered; what was
		 * added of them costs the others nothing but a look) */
		if (k == s->n)
			got |= 1u << i;
	}
	err = got ? 0 : -ENOENT;
	if (err == 0)
		tables(l, all);
out:
	free(all);
	free(s);
	if (covered)
		*covered = err ? 0 : got;
	return err;
}

/*
 * The length of a word of l that starts at u[i] (case folded), or 0: its first
 * two letters are taken as a pair, then each word of that first letter.
 */
static inline size_t word_here(const struct literals *l, const unsigned char *u, size_t i, size_t n)
{
	size_t k, j, end;

	if (!l->count[u[i]] || i + 1 == n)
		return 0;
	k = PAIR(fold(u[i]), fold(u[i + 1]));
	if (!(l->pair[k / 8] & (1u << (k % 8))))
		return 0;
	for (k = l->at[u[i]], end = k + l->count[u[i]]; k < end; k++) {
		if (l->len[k] > n - i)
			continue;
		for (j = 1; j < l->len[k] && fold(u[i + j]) == l->word[k][j]; j++)
			;
		if (j == l->len[k])
			return j;
	}
	return 0;
}

size_t literals_find_bytewise(const struct literals *l, const char *s, size_t from, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, j;

	for (i = from; i < n; i++)
		if ((j = word_here(l, u, i, n)) != 0)
			return i + j;
	return 0;
}

#ifdef LITERALS_AVX2
/* x's bytes in lo's set (lo a nibble table, hi each high nibble's bit) as its non-zero bytes. */
static inline __attribute__((always_inline, target("avx2"))) __m256i in_set(__m256i x, __m256i lo,
									     __m256i hi)
{
	const __m256i low4 = _mm256_set1_epi8(0x0f);

	return _mm256_and_si256(
		_mm256_shuffle_epi8(lo, _mm256_and_si256(x, low4)),
		_mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(x, 4), low4)));
}

/*
 * The starts among u[0, 32) (it reads u[32] and u[33]) whose byte is in
 * t[0]'s set, the next in t[1]'s and the one after in t[2]'s, as bits. A
 * high nibble h and h + 8 share a bit: the sets are larger than l's bytes,
 * never smaller.
 */
static inline __attribute__((always_inline, target("avx2"))) uint32_t starts(const unsigned char *u,
									     const __m256i t[3],
									     __m256i hi)
{
	const __m256i zero = _mm256_setzero_si256();
	__m256i a = in_set(_mm256_loadu_si256((const __m256i *)(const void *)u), t[0], hi);
	__m256i b = in_set(_mm256_loadu_si256((const __m256i *)(const void *)(u + 1)), t[1], hi);
	__m256i c = in_set(_mm256_loadu_si256((const __m256i *)(const void *)(u + 2)), t[2], hi);

	return ~(uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
		_mm256_or_si256(_mm256_cmpeq_epi8(a, zero), _mm256_cmpeq_epi8(b, zero)),
		_mm256_cmpeq_epi8(c, zero)));
}

/*
 * literals_find()'s blocks of 32 starts, from *from while a block's next byte
 * is in s: the end of the first word, or 0 with *from where they stopped.
 * The last block may overlap the one before; its starts below *from were
 * searched already and are masked off.
 */
__attribute__((target("avx2"))) static size_t find_avx2(const struct literals *l,
							 const unsigned char *u, size_t *from,
							 size_t n)
{
	const __m256i hi = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64,
					    -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32,
					    64, -128);
	const __m256i t[3] = {
		_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)l->first_lo)),
		_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)l->second_lo)),
		_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)l->third_lo)),
	};
	size_t i = *from, b, j;
	uint32_t m;

	for (; i + 34 <= n; i += 32)
		for (m = starts(u + i, t, hi); m; m &= m - 1)
			if ((j = word_here(l, u, i + (size_t)__builtin_ctz(m), n)) != 0)
				return i + (size_t)__builtin_ctz(m) + j;
	/* (here n - 34 < i, and i < n - 2 leaves 1 to 31 starts searched) */
	if (i + 2 < n) {
		b = n - 34;
		for (m = starts(u + b, t, hi) & (~0u << (i - b)); m; m &= m - 1)
			if ((j = word_here(l, u, b + (size_t)__builtin_ctz(m), n)) != 0)
				return b + (size_t)__builtin_ctz(m) + j;
		i = n - 2;
	}
	*from = i;
	return 0;
}
#endif

/*
 * The same answer as literals_find_bytewise(), which asks word_here() at
 * every start in order and returns at the first that is not 0. The blocks
 * ask it at the starts of their bits, in the same order, and skip only
 * starts where it is 0: word_here() is not 0 at i only when count[u[i]] is
 * (so u[i] is in first_lo's set, made of every b with count[b]) and one
 * of l's words lies whole at u + i, case folded: u[i + 1] folds to its
 * second byte, so is that byte or its upper case, in second_lo's set, and
 * u[i + 2] to its third, in third_lo's (each a set of all bytes when some
 * word is shorter). The blocks read no byte past s: the starts n - 2 and
 * n - 1 are left to the loop.
 */
size_t literals_find(const struct literals *l, const char *s, size_t from, size_t n)
{
#ifdef LITERALS_AVX2
	if (from + 34 <= n && cpu_avx2()) {
		size_t e = find_avx2(l, (const unsigned char *)s, &from, n);

		if (e)
			return e;
	}
#endif
	return literals_find_bytewise(l, s, from, n);
}

bool literals_in(const struct literals *l, const char *s, size_t n)
{
	return literals_find(l, s, 0, n) != 0;
}

size_t literals_last(const struct literals *l, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i;

	for (i = n; i-- > 0;)
		if (word_here(l, u, i, n))
			return i + 1;
	return 0;
}
