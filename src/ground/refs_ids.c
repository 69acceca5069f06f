// SPDX-License-Identifier: MIT
/*
 * Identifiers in a reference: the DOIs, arXiv ids, ISBNs, URLs and years found in its text.
 * (Split from refs.c by scripts/split.py.)
 */
#include "refs.h"
#include "refs_int.h"

#include "common/url.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The first offset in [i, e) of a digit, or e: a line's years are looked for 16 bytes at a time. */
static size_t next_digit(const char *s, size_t i, size_t e)
{
#if defined(__SSE2__)
	for (; i + 16 <= e; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		/* signed: the bytes of UTF-8 sequences are below '0' */
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
									 _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1))));

		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	for (; i < e; i++)
		if (is_digit(s[i]))
			return i;
	return e;
}

/* ---- ids: DOI, arXiv, ISBN, URL ---- */

/* The end of an id or URL that starts at i: up to a blank or a mark that ends prose. */
static size_t token_end(const char *s, size_t i, size_t end)
{
	size_t j = i, open = 0;

	while (j < end && !is_space(s[j]) && s[j] != '"' && s[j] != '<' && s[j] != '>' &&
	       !(s[j] == (char)0xE2 && j + 1 < end && s[j + 1] == (char)0x80)) {
		if (s[j] == '(')
			open++;
		else if (s[j] == ')' && open == 0)
			break;
		else if (s[j] == ')')
			open--;
		j++;
	}
	while (j > i && strchr(".,;:]}*_'", s[j - 1]))
		j--;
	return j;
}

/* True when "doi" (as in "doi:", "DOI ", "doi.org/") comes just before offset i. */
static bool after_doi_word(const char *s, size_t b, size_t i)
{
	size_t k = i;

	while (k > b && (is_space(s[k - 1]) || s[k - 1] == ':' || s[k - 1] == '/'))
		k--;
	if (k >= b + 7 && strncasecmp(s + k - 7, "doi.org", 7) == 0)
		return true;
	return k >= b + 3 && strncasecmp(s + k - 3, "doi", 3) == 0 && (k == b + 3 || !is_alnum(s[k - 4]));
}

/* Whether s[i, i + k) is lit (k bytes), ASCII case ignored. */
static bool same_ci(const char *s, size_t i, const char *lit, size_t k)
{
	size_t j;

	for (j = 0; j < k; j++)
		if (lower(s[i + j]) != lower(lit[j]))
			return false;
	return true;
}

/* The first offset in [from, end) where lit starts, ASCII case ignored, or end. */
size_t find_ci(const char *s, size_t from, size_t end, const char *lit)
{
	size_t k = strlen(lit);

	if (k == 0)
		return from;
	if (from + k > end)
		return end;
	if (k == 1) {
		for (; from < end; from++)
			if (lower(s[from]) == lower(lit[0]))
				return from;
		return end;
	}
	for (from = next_pair(s, from, end, lit[0], lit[1]); from + k <= end;
	     from = next_pair(s, from + 1, end, lit[0], lit[1]))
		if (same_ci(s, from, lit, k))
			return from;
	return end;
}

/*
 * A DOI: "10." at a word start, digits, "/" and a suffix; or "doi:" before
 * something that is not one (a malformed prefix). *bad: the prefix is not
 * 10. and 4-9 digits.
 */
static bool find_doi(const char *s, size_t b, size_t e, struct ref_span *out, bool *bad)
{
	size_t i, j, digits;

	for (i = next_pair(s, b, e, '1', '0'); i + 4 < e; i = next_pair(s, i + 1, e, '1', '0')) {
		if (s[i] != '1' || s[i + 1] != '0' || s[i + 2] != '.' || (i > b && is_alnum(s[i - 1])) ||
		    (i > b && s[i - 1] == '.'))
			continue;
		for (j = i + 3, digits = 0; j < e && is_digit(s[j]); j++)
			digits++;
		while (j + 1 < e && s[j] == '.' && is_digit(s[j + 1])) /* a sub-prefix: 10.1000.10 */
			for (j++; j < e && is_digit(s[j]); j++)
				;
		if (digits == 0 || j + 1 >= e || s[j] != '/' || is_space(s[j + 1]))
			continue;
		/* "10.5/2" is arithmetic unless a "doi" says it is meant as a DOI. */
		if ((digits < 4 || digits > 9) && !after_doi_word(s, b, i))
			continue;
		*out = span(i, token_end(s, i, e));
		*bad = digits < 4 || digits > 9;
		return true;
	}
	/* "doi:" or "DOI " before something else: a prefix that is no DOI's. */
	i = find_ci(s, b, e, "doi:");
	if (i < e && (i == b || !is_alnum(s[i - 1]))) {
		for (j = i + 4; j < e && is_space(s[j]); j++)
			;
		if (j < e && !is_space(s[j])) {
			*out = span(j, token_end(s, j, e));
			*bad = out->len > 0;
			return out->len > 0;
		}
	}
	return false;
}

/* YYMM of arXiv's old ids, as a comparable number (9108 -> 199108). */
static unsigned old_yymm(unsigned yymm)
{
	return (yymm / 100 >= 91 ? 190000 : 200000) + yymm;
}

/*
 * An arXiv id after "arXiv:", "arXiv " or "arxiv.org/abs/" (or /pdf/):
 * YYMM.NNNN(N) or archive/YYMMNNN, with an optional version. Its date and
 * width are checked against the eras and today.
 */
static bool find_arxiv(const struct refs *r, const char *s, size_t b, size_t e, unsigned today,
		       struct ref_span *out, unsigned *problems_out)
{
	size_t i = b, j, k, digits;

	for (;;) {
		i = find_ci(s, i, e, "arxiv");
		if (i == e)
			return false;
		j = i + 5;
		if (at_ci(s, j, e, ".org/abs/") || at_ci(s, j, e, ".org/pdf/"))
			j += 9;
		else if (j < e && (s[j] == ':' || s[j] == ' '))
			j++;
		else {
			i = j;
			continue;
		}
		while (j < e && s[j] == ' ')
			j++;
		/* "arXiv preprint arXiv:2101.00001": the id is after the second. */
		if (at_ci(s, j, e, "arxiv")) {
			i = j;
			continue;
		}
		k = j;
		for (digits = 0; k < e && is_digit(s[k]); k++)
			digits++;
		if (digits == 4 && k < e && s[k] == '.') {
			unsigned yymm = (unsigned)atoi((char[5]){s[j], s[j + 1], s[j + 2], s[j + 3], 0});
			size_t width = 0;

			for (k++; k < e && is_digit(s[k]); k++)
				width++;
			if (width < 1)
				return false;
			if (yymm % 100 < 1 || yymm % 100 > 12 || yymm < r->first)
				*problems_out |= 1u << REF_ARXIV_MONTH;
			else if (200000 + yymm > today)
				*problems_out |= 1u << REF_ARXIV_FUTURE;
			else if (width != (yymm >= r->width5 ? 5u : 4u))
				*problems_out |= 1u << REF_ARXIV_WIDTH;
		} else if (digits == 0 && k < e && is_lower(s[k])) {
			/* archive(.XX)/YYMMNNN */
			while (k < e && (is_lower(s[k]) || s[k] == '-' || s[k] == '.' || is_upper(s[k])))
				k++;
			if (k >= e || s[k] != '/')
				return false;
			for (k++, digits = 0; k < e && is_digit(s[k]); k++)
				digits++;
			if (digits != 7)
				return false;
			{
				const char *d = s + k - 7;
				unsigned yymm = (unsigned)atoi((char[5]){d[0], d[1], d[2], d[3], 0});

				if (yymm % 100 < 1 || yymm % 100 > 12 ||
				    old_yymm(yymm) < old_yymm(r->old_first) ||
				    old_yymm(yymm) > old_yymm(r->old_last))
					*problems_out |= 1u << REF_ARXIV_MONTH;
			}
		} else {
			i = j;
			continue;
		}
		if (k + 1 < e && s[k] == 'v' && is_digit(s[k + 1]))
			for (k++; k < e && is_digit(s[k]); k++)
				;
		*out = span(j, k);
		return true;
	}
}

/* "ISBN", "ISBN-13:", ... and 10 or 13 digits (the last may be X) with hyphens or blanks. */
static bool find_isbn(const char *s, size_t b, size_t e, struct ref_span *out, bool *bad)
{
	size_t i = find_ci(s, b, e, "isbn"), j, last, n = 0;
	int d[13];

	if (i == e || (i > b && is_alnum(s[i - 1])))
		return false;
	j = i + 4;
	if (at_ci(s, j, e, "-10") || at_ci(s, j, e, "-13"))
		j += 3;
	while (j < e && (s[j] == ':' || is_space(s[j])))
		j++;
	if (j == e || !is_digit(s[j]))
		return false;
	for (last = j; j < e && (is_digit(s[j]) || s[j] == '-' || s[j] == ' ' ||
				 ((s[j] == 'X' || s[j] == 'x') && n == 9)); j++) {
		if (s[j] == '-' || s[j] == ' ')
			continue;
		if (n == 13) {
			n++;
			break;
		}
		d[n++] = is_digit(s[j]) ? s[j] - '0' : 10;
		last = j + 1;
	}
	*out = span(i, last);
	if (n == 10) {
		int sum = 0, k;

		for (k = 0; k < 10; k++)
			sum += (10 - k) * d[k];
		*bad = sum % 11 != 0;
	} else if (n == 13) {
		int sum = 0, k;

		for (k = 0; k < 13; k++)
			sum += d[k] * (k % 2 ? 3 : 1);
		*bad = d[12] == 10 || sum % 10 != 0;
	} else {
		*bad = true;
	}
	return true;
}

/* True when host (n bytes) is a placeholder: listed, under a listed one, or in a listed TLD (".test"). */
static bool placeholder_host(const struct refs *r, const char *host, size_t n)
{
	size_t i;

	for (i = 0; i < r->hosts.n; i++) {
		const char *h = words_at(&r->hosts, i);
		size_t k = strlen(h);

		if (h[0] == '.') {
			if (n > k && strncasecmp(host + n - k, h, k) == 0)
				return true;
		} else if ((n == k || (n > k && host[n - k - 1] == '.')) &&
			   strncasecmp(host + n - k, h, k) == 0) {
			return true;
		}
	}
	return false;
}

static bool find_url(const struct refs *r, const char *s, size_t b, size_t e, struct ref_span *out,
		     bool *placeholder)
{
	size_t i = find_ci(s, b, e, "http"), h, hf, he;

	for (; i < e; i = find_ci(s, i + 4, e, "http")) {
		if (at_ci(s, i, e, "http://"))
			h = i + 7;
		else if (at_ci(s, i, e, "https://"))
			h = i + 8;
		else
			continue;
		*out = span(i, token_end(s, i, e));
		url_host(s + h, i + out->len - h, &hf, &he);
		*placeholder = he > hf && placeholder_host(r, s + h + hf, he - hf);
		return true;
	}
	return false;
}

/* ---- years, names, titles ---- */

static bool outside(const struct ref_span *skip, size_t n, size_t i)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (skip[k].len && i >= skip[k].off && i < skip[k].off + skip[k].len)
			return false;
	return true;
}

/*
 * The publication year: the first in parentheses ("(2020)", "(2020, May
 * 3)", "(2020a)"), else the last one, outside the ids; *paren its "(".
 */
unsigned find_year(const char *s, size_t b, size_t e, const struct ref_span *skip,
			  size_t n_skip, size_t *at, size_t *paren)
{
	unsigned y, last = 0;
	size_t i;

	*paren = e;
	for (i = next_digit(s, b, e); i + 4 <= e; i = next_digit(s, i + 1, e)) {
		if (!outside(skip, n_skip, i) || !(y = year_at(s, i, b, e)))
			continue;
		if (i > b && s[i - 1] == '(' && i + 4 < e &&
		    (s[i + 4] == ')' || s[i + 4] == ',' || (is_lower(s[i + 4]) && i + 5 < e && s[i + 5] == ')'))) {
			*at = i;
			*paren = i - 1;
			return y;
		}
		last = y;
		*at = i;
	}
	return last;
}

/* What may start at s[i] (reads s[i, i + 3)). */
static unsigned may_at(const char *s, size_t i)
{
	switch (s[i]) {
	case '1':
		return s[i + 1] == '0' && s[i + 2] == '.' ? MAY_DOI : 0;
	case 'd': case 'D':
		return lower(s[i + 1]) == 'o' && lower(s[i + 2]) == 'i' ? MAY_DOI : 0;
	case 'a': case 'A':
		return lower(s[i + 1]) == 'r' && lower(s[i + 2]) == 'x' ? MAY_ARXIV : 0;
	case 'i': case 'I':
		return lower(s[i + 1]) == 's' && lower(s[i + 2]) == 'b' ? MAY_ISBN : 0;
	case 'h': case 'H':
		return lower(s[i + 1]) == 't' && lower(s[i + 2]) == 't' ? MAY_URL : 0;
	default:
		return 0;
	}
}

/* The ids' first two bytes ("10", "do", "ar", "is", "ht") are found 16 at a time. */
unsigned may_hold(const char *s, size_t b, size_t e)
{
	unsigned m = 0;
	size_t i = b;

#if defined(__SSE2__)
	for (; i + 18 <= e; i += 16) {
		unsigned bits = pair_bits(s, i, '1', '0') | pair_bits(s, i, 'd', 'o') |
				pair_bits(s, i, 'a', 'r') | pair_bits(s, i, 'i', 's') |
				pair_bits(s, i, 'h', 't');

		for (; bits; bits &= bits - 1)
			m |= may_at(s, i + (size_t)__builtin_ctz(bits));
	}
#endif
	for (; i + 2 < e; i++)
		m |= may_at(s, i);
	return m;
}

void find_ids(const struct refs *r, const char *s, size_t b, size_t e, unsigned today,
		     unsigned may, struct ref_entry *en)
{
	bool bad = false;

	if ((may & MAY_DOI) && find_doi(s, b, e, &en->doi, &bad) && bad)
		en->problems |= 1u << REF_DOI_PREFIX;
	if (may & MAY_ARXIV)
		find_arxiv(r, s, b, e, today, &en->arxiv, &en->problems);
	bad = false;
	if ((may & MAY_ISBN) && find_isbn(s, b, e, &en->isbn, &bad) && bad)
		en->problems |= 1u << REF_ISBN_CHECKSUM;
	bad = false;
	if ((may & MAY_URL) && find_url(r, s, b, e, &en->url, &bad) && bad)
		en->problems |= 1u << REF_PLACEHOLDER_HOST;
}

/* DOIs and arXiv ids in prose: one entry each. */
size_t prose_ids(const struct refs *r, const char *s, size_t n, unsigned today,
			struct ref_entry *out, size_t max)
{
	size_t got = 0, i = 0;

	while (got < max && i < n) {
		struct ref_entry en = {.style = REF_STYLE_ID};
		struct ref_span d = {0}, a = {0};
		bool bad = false, has_d, has_a;
		unsigned prob = 0;

		has_d = find_doi(s, i, n, &d, &bad);
		has_a = find_arxiv(r, s, i, n, today, &a, &prob);
		if (!has_d && !has_a)
			break;
		if (has_d && (!has_a || d.off < a.off)) {
			en.doi = (struct ref_span){0, d.len};
			en.from = d.off;
			en.to = d.off + d.len;
			if (bad)
				en.problems |= 1u << REF_DOI_PREFIX;
		} else {
			en.arxiv = (struct ref_span){0, a.len};
			en.from = a.off;
			en.to = a.off + a.len;
			en.problems = prob;
		}
		out[got++] = en;
		i = en.to > i ? en.to : i + 1;
	}
	return got;
}
