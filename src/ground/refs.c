// SPDX-License-Identifier: MIT
/*
 * Bibliography entries: the reader. One line in, its entries and their fields out (BibTeX,
 * quoted titles, author-date, Vancouver).
 */
#include "refs.h"
#include "refs_int.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/url.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static const char *const style_names[REF_STYLES] = {
	[REF_STYLE_NONE] = "none",
	[REF_STYLE_AUTHOR_DATE] = "author-date",
	[REF_STYLE_QUOTED_TITLE] = "quoted-title",
	[REF_STYLE_VANCOUVER] = "vancouver",
	[REF_STYLE_BIBTEX] = "bibtex",
	[REF_STYLE_WEB] = "web",
	[REF_STYLE_TITLE_LIST] = "title-list",
	[REF_STYLE_ID] = "id",
};

static const struct {
	const char *name, *reason;
} problems[REF_PROBLEMS] = {
	[REF_ARXIV_MONTH] = {"arxiv_month", "its arXiv id names no month arXiv has numbered"},
	[REF_ARXIV_FUTURE] = {"arxiv_future", "its arXiv id is dated after today"},
	[REF_ARXIV_WIDTH] = {"arxiv_width", "its arXiv id has the wrong number of digits for its month"},
	[REF_DOI_PREFIX] = {"doi_prefix", "its DOI prefix is not 10. and a 4-9 digit registrant"},
	[REF_ISBN_CHECKSUM] = {"isbn_checksum", "its ISBN fails its check digit"},
	[REF_YEAR_FUTURE] = {"year_future", "its publication year is in the future"},
	[REF_PLACEHOLDER_HOST] = {"placeholder_host", "its URL is on a placeholder host"},
};

const char *ref_style_name(enum ref_style s)
{
	return style_names[s];
}

const char *ref_problem_name(enum ref_problem p)
{
	return problems[p].name;
}

const char *ref_problem_reason(enum ref_problem p)
{
	return problems[p].reason;
}

static void words_free(struct words *w)
{
	free((void *)w->block);
	free((void *)w->off);
	free((void *)w->len);
	*w = (struct words){0};
}

/*
 * The list's words lower-cased, in one block, ordered by length and in the
 * list's order within a length (a stable counting sort: two scanners per
 * process made these lists, and a qsort() whose comparison took strlen()
 * of both sides was 8% of the instructions of a 4 KB message, issue 35).
 * Each word's length is taken once (out->len holds them in the list's
 * order until the words are placed, then by place: three strlen() a word
 * were a quarter of this, at every start).
 */
static int words_of(const struct ruleset *rs, const char *name, struct words *out)
{
	const struct wordlist *l = ruleset_list(rs, name);
	size_t i, k, total = 0, longest = 0, *start = NULL, *len;
	uint32_t *off;
	char *block, *p;

	*out = (struct words){0};
	if (!l || l->n_words == 0)
		return 0;
	out->off = off = calloc(l->n_words, sizeof(*off));
	out->len = len = calloc(l->n_words, sizeof(*len));
	if (!off || !len)
		goto nomem;
	for (i = 0; i < l->n_words; i++) {
		k = len[i] = strlen(l->words[i]);
		total += k + 1;
		if (k > longest)
			longest = k;
	}
	if (total > UINT32_MAX)
		goto nomem; /* a pack is at most PACK_MAX_TEXT: never */
	out->block = block = malloc(total);
	start = calloc(longest + 2, sizeof(*start));
	if (!block || !start)
		goto nomem;
	for (i = 0; i < l->n_words; i++)
		start[len[i] + 1]++;
	for (k = 1; k <= longest + 1; k++)
		start[k] += start[k - 1];
	out->n = l->n_words;
	for (i = 0, p = block; i < l->n_words; i++) {
		const char *w = l->words[i];
		size_t n = len[i];

		for (k = 0; k <= n; k++)
			p[k] = (char)(w[k] + ((unsigned char)(w[k] - 'A') < 26 ? 'a' - 'A' : 0));
		off[start[n]++] = (uint32_t)(p - block);
		p += n + 1;
	}
	/* By place now: start[k] is where the words of length k end. */
	for (k = 0, i = 0; k <= longest; k++)
		for (; i < start[k]; i++)
			len[i] = k;
	free(start);
	for (k = 0, i = 0; k < 34; k++) {
		while (i < out->n && out->len[i] < k)
			i++;
		out->at[k] = i;
	}
	for (i = 0; i < out->n; i++)
		if (out->len[i] < ARRAY_SIZE(out->first))
			out->first[out->len[i]] |= word_first_bit(block[off[i]]);
	return 0;
nomem:
	free(start);
	words_free(out);
	return -ENOMEM;
}

/* Reads "key=YYMM" from ref.arxiv into *v; a word that is no such pair is an error. */
static int arxiv_bounds(const struct ruleset *rs, struct refs *r, struct diag *d)
{
	const struct wordlist *l = ruleset_list(rs, "ref.arxiv");
	size_t i;

	r->first = 704, r->width5 = 1501, r->old_first = 9108, r->old_last = 703;
	for (i = 0; l && i < l->n_words; i++) {
		const char *w = l->words[i], *eq = strchr(w, '=');
		unsigned *v = NULL;
		char *end;
		long x;

		if (eq && (size_t)(eq - w) == 5 && strncmp(w, "first", 5) == 0)
			v = &r->first;
		else if (eq && (size_t)(eq - w) == 6 && strncmp(w, "width5", 6) == 0)
			v = &r->width5;
		else if (eq && (size_t)(eq - w) == 9 && strncmp(w, "old_first", 9) == 0)
			v = &r->old_first;
		else if (eq && (size_t)(eq - w) == 8 && strncmp(w, "old_last", 8) == 0)
			v = &r->old_last;
		x = eq ? strtol(eq + 1, &end, 10) : -1;
		if (!v || strlen(eq + 1) != 4 || *end || x < 0 || x % 100 < 1 || x % 100 > 12)
			return diag_set(d, -EINVAL, "%s:%u:%u: list \"ref.arxiv\": \"%s\" is not "
					"first, width5, old_first or old_last = YYMM", l->at.file,
					l->at.line, l->at.col, w);
		*v = (unsigned)x;
	}
	return 0;
}

int refs_new(const struct ruleset *rs, struct refs **out, struct diag *d)
{
	struct refs *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	err = words_of(rs, "ref.stop_words", &r->stop);
	if (!err)
		err = words_of(rs, "ref.name_particles", &r->particles);
	if (!err)
		err = words_of(rs, "ref.headings", &r->headings);
	if (!err)
		err = words_of(rs, "ref.not_titles", &r->not_titles);
	if (!err)
		err = words_of(rs, "ref.placeholder_hosts", &r->hosts);
	if (!err)
		err = words_of(rs, "ref.field_labels", &r->fields);
	if (!err)
		err = arxiv_bounds(rs, r, d);
	if (err) {
		refs_free(r);
		return err;
	}
	*out = r;
	return 0;
}

void refs_free(struct refs *r)
{
	if (!r)
		return;
	words_free(&r->stop);
	words_free(&r->particles);
	words_free(&r->headings);
	words_free(&r->not_titles);
	words_free(&r->hosts);
	words_free(&r->fields);
	free(r);
}

/* The bytes of s[0, n) as a C string literal, every byte but a letter or digit in octal. */
static void write_literal(FILE *out, const char *s, size_t n)
{
	size_t i;

	fputs("\n\t\"", out);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((unsigned char)((c | 0x20) - 'a') < 26 || (unsigned char)(c - '0') < 10)
			fputc(c, out);
		else
			fprintf(out, "\\%03o", c);
		if (c == '\0' && i + 1 < n && i % 64 > 48)
			fputs("\"\n\t\"", out);
	}
	fputc('"', out);
}

static void write_words(FILE *out, const char *name, const char *member, const struct words *w)
{
	size_t i, size = 0;

	if (w->n == 0)
		return;
	for (i = 0; i < w->n; i++)
		size = MAX(size, (size_t)w->off[i] + w->len[i] + 1);
	fprintf(out, "static const char %s_%s_block[] =", name, member);
	write_literal(out, w->block, size);
	fprintf(out, ";\nstatic const uint32_t %s_%s_off[] = {", name, member);
	for (i = 0; i < w->n; i++)
		fprintf(out, "%s%u,", i % 16 ? " " : "\n\t", (unsigned)w->off[i]);
	fprintf(out, "\n};\nstatic const size_t %s_%s_len[] = {", name, member);
	for (i = 0; i < w->n; i++)
		fprintf(out, "%s%zu,", i % 16 ? " " : "\n\t", w->len[i]);
	fprintf(out, "\n};\n");
}

static const struct {
	const char *member;
	size_t field;
} words_fields[] = {
#define FIELD(m) {#m, offsetof(struct refs, m)}
	FIELD(stop), FIELD(particles), FIELD(headings), FIELD(not_titles), FIELD(hosts),
	FIELD(fields),
#undef FIELD
};

int refs_write_c(const struct refs *r, FILE *out, const char *name)
{
	size_t i, k;

	if (!r) {
		fprintf(out, "const struct refs *const %s = NULL;\n", name);
		return ferror(out) ? -EIO : 0;
	}
	for (i = 0; i < ARRAY_SIZE(words_fields); i++)
		write_words(out, name, words_fields[i].member,
			    (const struct words *)(const void *)((const char *)r + words_fields[i].field));
	fprintf(out, "static const struct refs %s_data = {\n", name);
	for (i = 0; i < ARRAY_SIZE(words_fields); i++) {
		const struct words *w =
			(const struct words *)(const void *)((const char *)r + words_fields[i].field);
		const char *m = words_fields[i].member;

		if (w->n == 0)
			continue;
		fprintf(out, "\t.%s = {%s_%s_off, %s_%s_len, %zu, {", m, name, m, name, m, w->n);
		for (k = 0; k < ARRAY_SIZE(w->at); k++)
			fprintf(out, "%s%zu", k ? ", " : "", w->at[k]);
		fprintf(out, "}, {");
		for (k = 0; k < ARRAY_SIZE(w->first); k++)
			fprintf(out, "%s%#x", k ? ", " : "", (unsigned)w->first[k]);
		fprintf(out, "}, %s_%s_block},\n", name, m);
	}
	fprintf(out, "\t.first = %u, .width5 = %u, .old_first = %u, .old_last = %u,\n};\n",
		r->first, r->width5, r->old_first, r->old_last);
	fprintf(out, "const struct refs *const %s = &%s_data;\n", name, name);
	return ferror(out) ? -EIO : 0;
}

/*
 * The civil calendar from the days since 1970-01-01 (H. Hinnant's
 * civil_from_days), not gmtime_r(): glibc reads the time zone file before
 * any conversion, UTC too, seven system calls at every start (issue 35).
 */
unsigned refs_month_of(long long t)
{
	long long z = t / 86400 - (t % 86400 < 0) + 719468;
	long long era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097); /* [0, 146096] */
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153; /* March is 0 */
	unsigned m = mp < 10 ? mp + 3 : mp - 9;
	long long y = (long long)yoe + era * 400 + (m <= 2);

	return (unsigned)(y * 100 + m);
}

unsigned refs_today(void)
{
	const char *env = getenv("HALLUSCAN_TODAY");
	time_t now;

	if (env && strlen(env) == 6 && strspn(env, "0123456789") == 6)
		return (unsigned)atoi(env);
	now = time(NULL);
	if (now == (time_t)-1)
		return 209912;
	return refs_month_of((long long)now);
}

static unsigned refs_year(unsigned today)
{
	return today / 100;
}

/* Whether the word lit stands at s[at], ASCII case ignored: no letter follows it. */
static bool at_word_ci(const char *s, size_t at, size_t end, const char *lit)
{
	size_t k = strlen(lit);

	return at_ci(s, at, end, lit) && (at + k == end || !is_alpha(s[at + k]));
}

/* The first offset in [i, e) of a byte that may open a quoted or emphasised title ('"', “, '*', '_'), or e. */
static size_t next_quote(const char *s, size_t i, size_t e)
{
#if defined(__SSE2__)
	for (; i + 16 <= e; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xE2))),
				     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('*')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('_')))));

		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	for (; i < e; i++)
		if (s[i] == '"' || s[i] == (char)0xE2 || s[i] == '*' || s[i] == '_')
			return i;
	return e;
}

/* A word of a name list: an initial ("J.", "J.-P.", "AB"), a capitalised word, or a particle. */
static bool name_word(const struct refs *r, const char *w, size_t n)
{
	size_t i, caps = 0;

	if (n == 0)
		return true;
	if (in_words(&r->particles, w, n) || (n == 1 && w[0] == '&'))
		return true;
	if (!(is_upper(w[0]) || ((unsigned char)w[0] >= 0xC3 && (unsigned char)w[0] <= 0xC5)))
		return false;
	for (i = 0; i < n; i++) {
		if (is_digit(w[i]))
			return false;
		caps += is_upper(w[i]);
	}
	(void)caps;
	return true;
}

/*
 * True when [b, e) reads as a list of names: "Smith, J., & Lee, K.", "M.
 * Jockers and D. Witten", "Smith J, Doe AB, et al", "World Health
 * Organization". Every word is a name word; at least one is a capitalised
 * word of two letters or more.
 */
static bool author_like(const struct refs *r, const char *s, size_t b, size_t e)
{
	size_t i = b, words = 0;
	bool named = false;

	trim(s, &b, &e, " ");
	/* "Quote: ..." and "Drama: ..." label what follows; names end in "." or ",". */
	if (e > b && s[e - 1] == ':')
		return false;
	trim(s, &b, &e, ".,;:*_");
	if (e <= b || e - b > 600)
		return false;
	{
		size_t w = b;

		while (w < e && is_alpha(s[w]))
			w++;
		/* Press "Ctrl+S", Select "Save"; but "He, K." and "I. Wilmut" are names. */
		if (w - b >= 2 && (w == e || s[w] != ',') && in_words(&r->not_titles, s + b, w - b))
			return false;
	}
	while (i < e) {
		size_t j;

		while (i < e && (is_space(s[i]) || s[i] == ',' || s[i] == ';'))
			i++;
		for (j = i; j < e && !is_space(s[j]) && s[j] != ',' && s[j] != ';'; j++)
			;
		if (j > i) {
			size_t a = i, z = j;

			while (z > a && strchr(".:*_)", s[z - 1]))
				z--;
			while (a < z && strchr("(*_", s[a]))
				a++;
			if (!name_word(r, s + a, z - a))
				return false;
			if (z - a >= 2 && (is_upper(s[a]) || (unsigned char)s[a] >= 0xC3)) {
				size_t q;

				/* A name has a lowercase letter: "Smith", "O'Shea", not "AB". */
				for (q = a + 1; q < z && !is_lower(s[q]) && (unsigned char)s[q] < 0x80; q++)
					;
				named |= q < z;
			}
			if (++words > 80)
				return false;
		}
		i = j;
	}
	return named;
}

/*
 * The end of a sentence-like segment from b: the first ". ", "? " or "! "
 * (or the same before a quote) whose word before is not a lone initial, or e.
 */
static size_t segment_end(const char *s, size_t b, size_t e)
{
	size_t i;

	for (i = b; i < e; i++) {
		if ((s[i] != '.' && s[i] != '?' && s[i] != '!') || (i + 1 < e && !is_space(s[i + 1])))
			continue;
		if (s[i] == '.' && i >= b + 1 && is_upper(s[i - 1]) && (i == b + 1 || !is_alpha(s[i - 2])))
			continue; /* "J. " inside a name */
		if (s[i] == '.' && i + 2 < e && is_lower(s[i + 2]))
			continue; /* "e.g. this", "et al. and" */
		if (s[i] == '.' && i + 2 < e && is_digit(s[i + 2])) {
			size_t w = i;

			while (w > b && is_lower(s[w - 1]))
				w--;
			if (i - w >= 1 && i - w <= 3 && (w == b || !is_alpha(s[w - 1])))
				continue; /* "pp. 770", "vol. 12", "no. 3" */
		}
		return s[i] == '.' ? i : i + 1;
	}
	return e;
}

/*
 * A title quoted ("...", “...”) or in emphasis (*...*, _..._): two words or
 * more. Sets the title and where the quote opens and closes.
 */
static bool find_quoted(const char *s, size_t b, size_t e, struct ref_span *title, size_t *open,
			size_t *close)
{
	size_t i, j;

	for (i = next_quote(s, b, e); i < e; i = next_quote(s, i + 1, e)) {
		size_t inner, olen, clen = 1;
		char c = s[i];

		if (c == '"') {
			olen = 1;
		} else if (c == (char)0xE2 && i + 2 < e && s[i + 1] == (char)0x80 && s[i + 2] == (char)0x9C) {
			olen = 3;
		} else if ((c == '*' || c == '_') && i + 1 < e && s[i + 1] != c && !is_space(s[i + 1]) &&
			   (i == b || !is_alnum(s[i - 1]))) {
			olen = 1;
		} else {
			continue;
		}
		inner = i + olen;
		for (j = inner; j < e; j++) {
			if (c == '"' && s[j] == '"')
				break;
			if (olen == 3 && j + 2 < e && s[j] == (char)0xE2 && s[j + 1] == (char)0x80 &&
			    (s[j + 2] == (char)0x9D || s[j + 2] == (char)0x9C)) {
				clen = 3;
				break;
			}
			if ((c == '*' || c == '_') && s[j] == c && (j + 1 == e || !is_alnum(s[j + 1])))
				break;
		}
		if (j >= e)
			return false;
		{
			size_t tb = inner, te = j, k, words = 1;

			trim(s, &tb, &te, ",.");
			for (k = tb; k < te; k++)
				words += s[k] == ' ';
			if (te > tb + 3 && words >= 2 && words <= 60) {
				*title = span(tb, te);
				*open = i;
				*close = j + clen;
				return true;
			}
		}
		i = j + clen - 1;
	}
	return false;
}

/* Words of a title candidate, with what a title needs. */
struct title_shape {
	size_t words, significant, capitalised;
	bool first_capital, imperative, sentence, colon;
};

/* The marks a word may open with ("(Title"), and close with ("Title),"); NUL too, as strchr had it. */
static bool opens_word(char c)
{
	return c == '"' || c == '\'' || c == '(' || c == '*' || c == '_' || c == '[' || c == '\0';
}

static bool closes_word(char c)
{
	switch (c) {
	case '"': case '\'': case ')': case ',': case '.': case ';': case ':': case '!': case '?':
	case '*': case '_': case ']': case '\0':
		return true;
	default:
		return false;
	}
}

/* When shape_of() may stop: once the words are no title (a sentence, an
 * instruction, more than 25 words), or once a significant word is in lower
 * case (a line that ends as a sentence does is then no title either). */
enum { SHAPE_WHOLE = 0, SHAPE_NO_TITLE = 1, SHAPE_LOWER = 2 };

/*
 * The shape of the words of [b, e). It stops where stop says: what it has
 * filled in then is all a caller may read.
 */
static void shape_of(const struct refs *r, const char *s, size_t b, size_t e, unsigned stop,
		     struct title_shape *t)
{
	size_t i = b;

	memset(t, 0, sizeof(*t));
	while (i < e) {
		size_t j, a, z;

		while (i < e && is_space(s[i]))
			i++;
		for (j = i; j < e && !is_space(s[j]); j++)
			;
		if (j == i)
			break;
		a = i, z = j;
		while (a < z && opens_word(s[a]))
			a++;
		while (z > a && closes_word(s[z - 1]))
			z--;
		if (j > i && s[j - 1] == ':')
			t->colon = true;
		/* "vs. Python" is no sentence end; "systems. The" is, and so are
		 * "going? I'm" and "Hey! Nice". */
		if ((j - i > 3 && s[j - 1] == '.' && j < e) || ((s[j - 1] == '?' || s[j - 1] == '!') && j < e))
			t->sentence = true;
		if (z > a) {
			bool cap = is_upper(s[a]) || is_digit(s[a]) || (unsigned char)s[a] >= 0x80;

			if (t->words == 0) {
				size_t q;

				t->first_capital = cap;
				/* "Use ..." and "It ..." open no title; "IT Architecture" may. */
				for (q = a; q < z && !is_lower(s[q]); q++)
					;
				t->imperative = q < z && in_words(&r->not_titles, s + a, z - a);
			}
			t->words++;
			if (!in_words(&r->stop, s + a, z - a) || t->words == 1) {
				t->significant++;
				t->capitalised += cap;
			}
		}
		if ((stop & SHAPE_NO_TITLE) && (t->sentence || t->imperative || t->words > 25))
			return;
		if ((stop & SHAPE_LOWER) && t->capitalised < t->significant)
			return;
		i = j;
	}
}

/* Digits from i: how many, none when a letter or digit stands before i. */
static size_t digits_at(const char *s, size_t b, size_t i, size_t e)
{
	size_t k = i;

	if (i > b && (is_alpha(s[i - 1]) || is_digit(s[i - 1])))
		return 0;
	while (k < e && is_digit(s[k]))
		k++;
	return k - i;
}

/*
 * Whether [b, e) says a value of a record: an amount with its cents
 * ($272.33, not "$11.53 billion"), a time of day (06:00), a date with its
 * day (2024-05-24, May 24, 24 May; not a conference's "July 6-10"), or an
 * identifier: "#" and one with a digit (#W2378156, #4821), or a number of
 * six digits or more (1151293680). Itineraries, order lines and passenger
 * lists are made of these; a title seldom holds one ("The $100 Startup",
 * "Fahrenheit 451", "Web 2.0", "COVID-19", "August 1914" and "the MSP430"
 * do not count, so a flight number alone does not either), and an entry
 * whose authors, venue or ids mark it is read by the other parsers before
 * it is asked whether it is a bare title.
 */
bool record_value(const char *s, size_t b, size_t e)
{
	static const char *const months[] = {"january", "february", "march", "april", "may",
					     "june", "july", "august", "september", "october",
					     "november", "december", "jan", "feb", "mar", "apr",
					     "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"};
	size_t i, k, n, m;

	for (i = b; i < e; i++) {
		char c = s[i];

		if (c == '#') {
			bool digit = false;

			for (k = i + 1; k < e && (is_upper(s[k]) || is_digit(s[k])); k++)
				digit |= is_digit(s[k]);
			if (digit && k - i > 3)
				return true;
			continue;
		}
		if (!is_digit(c))
			continue;
		n = digits_at(s, b, i, e);
		if (n == 0) {
			while (i + 1 < e && is_digit(s[i + 1]))
				i++;
			continue;
		}
		k = i + n;
		if (n >= 6 && (k == e || !is_digit(s[k])))
			return true;
		/* $272.33 (or £, €): the currency sign stands before i */
		if (k + 2 < e && s[k] == '.' && is_digit(s[k + 1]) && is_digit(s[k + 2]) &&
		    (k + 3 == e || !is_digit(s[k + 3])) && i > b &&
		    (s[i - 1] == '$' || (i >= b + 2 && (unsigned char)s[i - 1] == 0xA3) ||
		     (i >= b + 3 && (unsigned char)s[i - 1] == 0xAC && (unsigned char)s[i - 2] == 0x82)) &&
		    !(at_ci(s, k + 4, e, "thousand") || at_ci(s, k + 4, e, "million") ||
		      at_ci(s, k + 4, e, "billion") || at_ci(s, k + 4, e, "trillion")))
			return true;
		/* 06:00, 9:30 */
		if (n <= 2 && k + 2 < e && s[k] == ':' && s[k + 1] >= '0' && s[k + 1] <= '5' &&
		    is_digit(s[k + 2]) && (k + 3 == e || !is_digit(s[k + 3])) &&
		    (n == 1 || (s[i] - '0') * 10 + (s[i + 1] - '0') < 24))
			return true;
		/* 2024-05-24 */
		if (n == 4 && k + 5 < e && s[k] == '-' && is_digit(s[k + 1]) && is_digit(s[k + 2]) &&
		    s[k + 3] == '-' && is_digit(s[k + 4]) && is_digit(s[k + 5]))
			return true;
		/* 24 May */
		if (n <= 2 && k + 1 < e && s[k] == ' ')
			for (m = 0; m < ARRAY_SIZE(months); m++) {
				size_t z = k + 1 + strlen(months[m]);

				if (at_ci(s, k + 1, e, months[m]) && (z >= e || !is_alpha(s[z])))
					return true;
			}
		i = k - 1;
	}
	/* May 24, Jan. 5 (a capital that begins a month's name: most begin none) */
	for (i = b; i < e; i++) {
		if (!is_upper(s[i]) || !strchr("ADFJMNOS", s[i]) || (i > b && is_alpha(s[i - 1])))
			continue;
		for (m = 0; m < ARRAY_SIZE(months); m++) {
			size_t z = i + strlen(months[m]);

			if (months[m][0] != (s[i] | 0x20) || !at_ci(s, i, e, months[m]) ||
			    (z < e && is_alpha(s[z])))
				continue;
			if (z < e && s[z] == '.')
				z++;
			if (z < e && s[z] == ' ')
				z++;
			n = z < e ? digits_at(s, b, z, e) : 0;
			/* July 6-10: the days of a conference */
			if (n >= 1 && n <= 2 && (z + n == e || (!is_digit(s[z + n]) && s[z + n] != '-' &&
							       !at_ci(s, z + n, e, "\xe2\x80\x93"))))
				return true;
		}
	}
	return false;
}

/*
 * Whether [b, e) lists values a field holds, "Sedan, SUV, Convertible":
 * parts of one or two words parted by commas, no "and", "or" or "&" before
 * the last. A subtitle that lists ("Planning, Design and Management") joins
 * its last part so; a record's field line seldom does.
 */
static bool value_list(const char *s, size_t b, size_t e)
{
	size_t i, words = 0, commas = 0;
	bool in_word = false;

	for (i = b; i < e; i++) {
		if (s[i] == ',') {
			if (words == 0 || words > 2)
				return false;
			commas++;
			words = 0;
			in_word = false;
		} else if (is_space(s[i])) {
			in_word = false;
		} else if (!in_word) {
			in_word = true;
			words++;
			if (s[i] == '&' || at_word_ci(s, i, e, "and") || at_word_ci(s, i, e, "or"))
				return false;
		}
	}
	return commas >= 1 && words >= 1 && words <= 2;
}

/*
 * Whether [b, e) is whom a line is addressed to or about, a preposition and
 * one name: "To Marta", "For Jonas" (a summary of messages sent, of tasks
 * handed out). A title's head of two words seldom opens so.
 */
static bool addressee(const char *s, size_t b, size_t e)
{
	static const char *const preps[] = {"to ", "for ", "from ", "with ", "cc "};
	size_t i, k;

	trim(s, &b, &e, "*_");
	for (i = 0; i < ARRAY_SIZE(preps); i++)
		if (at_ci(s, b, e, preps[i]))
			break;
	if (i == ARRAY_SIZE(preps))
		return false;
	k = b + strlen(preps[i]);
	if (k >= e || !is_upper(s[k]))
		return false;
	while (k < e && !is_space(s[k]))
		k++;
	return k == e;
}

/*
 * Whether the list item [b, e) is a title: 0 no, 1 maybe, 2 surely. A title
 * is a capitalised phrase of two words or more that is no sentence, no
 * instruction and no glossary line ("**Term**: explanation"). It is sure
 * when it has a subtitle (a title-case head before ": ", two words after
 * it, the first capitalised), is four words in title case with a stop word
 * among them ("Introduction to Modern Astrophysics") or five without, or a
 * quotation of four words or more that is no sentence; and has no
 * parenthesis at its end ("Massachusetts Institute of Technology (MIT)").
 * Names of people, places and products are "maybe": a list of them is
 * taken for titles only under a references heading, or with two sure ones.
 */
int title_shaped(const struct refs *r, const char *s, size_t b, size_t e, bool quoted)
{
	struct title_shape t, head;
	size_t i, colon = e;
	const char *p;
	bool period;

	/* "**Term**: explanation" and "Term: explanation." are glossaries, not titles. */
	for (p = memchr(s + b, ':', e - b); p; p = memchr(p + 1, ':', (size_t)(s + e - p - 1))) {
		i = (size_t)(p - s);
		if ((i >= b + 2 && s[i - 2] == '*' && s[i - 1] == '*') ||
		    (i + 2 < e && s[i + 1] == '*' && s[i + 2] == '*'))
			return 0;
	}
	if (find_ci(s, b, e, "http") < e)
		return 0;
	/* A sentence ends in a period; a title seldom does. */
	period = s[e - 1] == '.' || s[e - 1] == '!' || s[e - 1] == '?';
	shape_of(r, s, b, e, SHAPE_NO_TITLE | (period ? SHAPE_LOWER : 0), &t);
	if (!t.first_capital || t.imperative || t.sentence || t.words < 2 || t.words > 25)
		return 0;
	if (period && t.capitalised < t.significant)
		return 0;
	if (s[e - 1] == ')')
		return 1;
	if (quoted && t.words >= 4)
		return 2; /* a quotation that is no sentence: "Design of on-chip networks" */
	for (i = b; i + 1 < e; i++)
		if (s[i] == ':' && s[i + 1] == ' ') {
			colon = i;
			break;
		}
	if (colon < e) {
		size_t tb = colon + 1;

		/* "Squats: 3 sets", "Yes: Go to Question 2", "Product: Name of the product" are forms. */
		shape_of(r, s, b, colon, SHAPE_WHOLE, &head);
		shape_of(r, s, tb, e, SHAPE_WHOLE, &t);
		while (tb < e && (is_space(s[tb]) || s[tb] == '"' || s[tb] == '*'))
			tb++;
		if (tb == e || !is_upper(s[tb]) || t.imperative || head.capitalised < head.significant)
			return 1;
		if (head.words == 1 && (t.words < 3 || t.capitalised < t.significant || value_list(s, tb, e)))
			return 1;
		/* "Car Types Available: Sedan, SUV, Convertible": a field's label
		 * (no stop word) and the values it holds; a subtitle that lists
		 * has a head like a title's ("Semiology of Graphics: Diagrams,
		 * Networks, Maps"). */
		if (head.words <= 4 && head.significant == head.words && value_list(s, tb, e))
			return 1;
		if (addressee(s, b, colon) && t.capitalised < t.significant)
			return 1;
		return t.words >= 2 ? 2 : 1;
	}
	return t.capitalised == t.significant && (t.words >= 5 || (t.words >= 4 && t.significant < t.words))
		       ? 2 : 1;
}

/* ---- entries ---- */

/* Skips a list marker ("1.", "1)", "[1]", "(1)", "-", "*", "+", "•") and blanks. */
bool skip_marker(const char *s, size_t *b, size_t e)
{
	size_t i = *b, d = 0;

	if (i < e && s[i] == '[') {
		for (i++; i < e && is_digit(s[i]); i++)
			d++;
		if (d == 0 || d > 3 || i >= e || s[i] != ']')
			return false;
		i++;
	} else if (i < e && s[i] == '(' && i + 1 < e && is_digit(s[i + 1])) {
		for (i++; i < e && is_digit(s[i]); i++)
			d++;
		if (d > 3 || i >= e || s[i] != ')')
			return false;
		i++;
	} else if (i < e && is_digit(s[i])) {
		for (; i < e && is_digit(s[i]); i++)
			d++;
		if (d > 3 || i >= e || (s[i] != '.' && s[i] != ')'))
			return false;
		i++;
	} else if (i < e && (s[i] == '-' || s[i] == '*' || s[i] == '+')) {
		i++;
	} else if (i + 2 < e && s[i] == (char)0xE2 && s[i + 1] == (char)0x80 && s[i + 2] == (char)0xA2) {
		i += 3;
	} else {
		return false;
	}
	if (i >= e || !is_space(s[i]))
		return false;
	while (i < e && is_space(s[i]))
		i++;
	*b = i;
	return true;
}

/* The value of a BibTeX field "name = {v}" / "name = \"v\"" / "name = v" in [b, e). */
static bool bib_field(const char *s, size_t b, size_t e, const char *name, struct ref_span *out)
{
	size_t i = b, k = strlen(name);

	while ((i = find_ci(s, i, e, name)) < e) {
		size_t j = i + k;

		if (i > b && is_alnum(s[i - 1])) {
			i++;
			continue;
		}
		while (j < e && is_space(s[j]))
			j++;
		if (j >= e || s[j] != '=') {
			i++;
			continue;
		}
		for (j++; j < e && is_space(s[j]); j++)
			;
		if (j < e && (s[j] == '{' || s[j] == '"')) {
			char close = s[j] == '{' ? '}' : '"';
			size_t depth = 0, a = j + 1, z;

			for (z = a; z < e; z++) {
				if (s[z] == '{')
					depth++;
				else if (s[z] == close && depth == 0)
					break;
				else if (s[z] == '}')
					depth--;
			}
			trim(s, &a, &z, "{}");
			*out = span(a, z);
		} else {
			size_t z = j;

			while (z < e && s[z] != ',' && s[z] != '}')
				z++;
			*out = span(j, z);
			trim(s, &j, &z, "");
			*out = span(j, z);
		}
		return out->len > 0;
	}
	return false;
}

static bool parse_bibtex(const char *s, size_t b, size_t e, struct ref_entry *en)
{
	struct ref_span y;
	size_t i = b + 1;

	while (i < e && is_alpha(s[i]))
		i++;
	if (i - b < 4 || i - b > 16)
		return false;
	while (i < e && is_space(s[i]))
		i++;
	if (i >= e || s[i] != '{')
		return false;
	if (!bib_field(s, i, e, "title", &en->title))
		return false;
	bib_field(s, i, e, "author", &en->authors);
	if (!bib_field(s, i, e, "journal", &en->venue) && !bib_field(s, i, e, "booktitle", &en->venue))
		bib_field(s, i, e, "publisher", &en->venue);
	if (bib_field(s, i, e, "year", &y) && y.len == 4)
		en->year = year_at(s, y.off, y.off, y.off + 4);
	en->style = REF_STYLE_BIBTEX;
	return true;
}

/* Author, "Title," Venue, 2020. (MLA, Chicago notes, IEEE; *Title* for a book). */
static bool parse_quoted(const struct refs *r, const char *s, size_t b, size_t e, bool item,
			 struct ref_entry *en)
{
	size_t open, close, vb, ve;
	bool names;

	if (!find_quoted(s, b, e, &en->title, &open, &close))
		return false;
	names = open > b && author_like(r, s, b, open);
	vb = close, ve = e;
	trim(s, &vb, &ve, ".,;:");
	if (at_ci(s, vb, ve, "in "))
		vb += 3;
	if (names) {
		size_t ab = b, ae = open;

		trim(s, &ab, &ae, ",;");
		en->authors = span(ab, ae);
	}
	if (names && (en->year || ve > vb)) {
		en->style = REF_STYLE_QUOTED_TITLE;
	} else if (item && open == b) {
		/* 1. "Title" by Someone (2020): a work and who made it. */
		size_t ab = vb, ae = ve;

		if (at_ci(s, ab, ae, "by ")) {
			ab += 3;
			for (ae = ab; ae < ve && s[ae] != '(' && s[ae] != ',' && !(s[ae] == ' ' && ae + 1 < ve &&
				     (s[ae + 1] == '-' || s[ae + 1] == '|')); ae++)
				;
			trim(s, &ab, &ae, ".,");
		}
		if (ab > vb && ae > ab && author_like(r, s, ab, ae)) {
			en->authors = span(ab, ae);
			en->style = REF_STYLE_QUOTED_TITLE;
		} else if (ve <= vb || en->year) {
			/* 1. "Title" alone: a list of them is judged as a whole. */
			int kind = title_item(r, s, en->title.off, en->title.off + en->title.len, true);
			size_t after = en->title.off + en->title.len;

			/* "Happiness is a warm blanket." quoted is a saying: a title
			 * ends in no full stop unless it is in title case. */
			if (kind && after < e && (s[after] == '.' || s[after] == '!')) {
				struct title_shape q;

				shape_of(r, s, en->title.off, after, SHAPE_WHOLE, &q);
				if (q.capitalised < q.significant)
					kind = 0;
			}
			if (!kind)
				return false;
			en->strong = kind == 2;
			/* a year alone marks no reference ('"Basic Economy" fare, 2024'):
			 * such a title is judged with its list, as a bare one */
			en->style = REF_STYLE_TITLE_LIST;
		} else {
			return false;
		}
		if (en->style == REF_STYLE_QUOTED_TITLE && !en->authors.len && !en->year)
			return false;
		return true;
	} else {
		return false;
	}
	if (ve > vb) {
		size_t z = vb;

		/* The venue runs to the year, a DOI or URL. */
		while (z < ve && !(en->year && year_at(s, z, b, e) == en->year) &&
		       !at_ci(s, z, ve, "doi") && !at_ci(s, z, ve, "http") && !at_ci(s, z, ve, "arxiv"))
			z++;
		trim(s, &vb, &z, ".,;:()");
		if (z > vb)
			en->venue = span(vb, z);
	}
	return true;
}

/* Venue: the segment after the title, up to the next sentence end, a DOI, URL or "Retrieved". */
static void venue_after(const char *s, size_t from, size_t e, struct ref_entry *en)
{
	size_t vb = from, z;

	while (vb < e && (is_space(s[vb]) || s[vb] == '.' || s[vb] == ','))
		vb++;
	if (at_ci(s, vb, e, "in "))
		vb += 3;
	z = segment_end(s, vb, e);
	{
		size_t k;

		for (k = vb; k < z; k++)
			if (at_ci(s, k, z, "doi") || at_ci(s, k, z, "http") || at_ci(s, k, z, "retrieved") ||
			    at_ci(s, k, z, "available") || at_ci(s, k, z, "arxiv"))
				break;
		z = k;
	}
	trim(s, &vb, &z, ".,;:()");
	if (z > vb)
		en->venue = span(vb, z);
}

/* The title from b: up to its sentence end; two words or more. */
static bool title_from(const char *s, size_t b, size_t e, struct ref_entry *en, size_t *end)
{
	size_t tb = b, te;
	size_t k, words = 1;

	while (tb < e && (is_space(s[tb]) || s[tb] == '.' || s[tb] == ',' || s[tb] == ':'))
		tb++;
	te = segment_end(s, tb, e);
	/* "Drivers of disruption? Estimating the Uber effect. Journal.": a
	 * question with a subtitle, when a segment (the venue) still follows. */
	if (te > tb && te < e && (s[te - 1] == '?' || s[te - 1] == '!')) {
		size_t next = segment_end(s, te, e);

		if (next < e && s[next] == '.')
			te = next;
	}
	/* An id or link after the title is not part of it, whatever its case. */
	for (k = tb; k < te; k++)
		if ((k == tb || s[k - 1] == ' ') &&
		    (at_ci(s, k, te, "doi") || at_ci(s, k, te, "http") || at_ci(s, k, te, "arxiv") ||
		     at_ci(s, k, te, "retrieved") || at_ci(s, k, te, "available at"))) {
			te = k;
			break;
		}
	*end = te;
	trim(s, &tb, &te, "*_\".,;");
	for (k = tb; k < te; k++)
		words += s[k] == ' ';
	if (te < tb + 4 || words < 2)
		return false;
	en->title = span(tb, te);
	return true;
}

/* Smith J, Doe AB, et al. -- the names of a Vancouver entry; returns the end of the list or 0. */
static size_t vancouver_names(const struct refs *r, const char *s, size_t b, size_t e)
{
	size_t i = b, names = 0;

	for (;;) {
		size_t w = i, init = 0;

		while (i < e && (is_alpha(s[i]) || s[i] == '-' || s[i] == '\''))
			i++;
		if (i == w)
			return 0;
		if (in_words(&r->particles, s + w, i - w) && i < e && s[i] == ' ') {
			i++;
			continue;
		}
		if (!(is_upper(s[w]) || (unsigned char)s[w] >= 0xC3))
			return 0;
		if (i - w == 2 && strncmp(s + w, "et", 2) == 0 && at_ci(s, i, e, " al")) {
			i += 3;
			return names && i < e && s[i] == '.' ? i : 0;
		}
		if (i >= e || s[i] != ' ')
			return 0;
		for (i++; i < e && is_upper(s[i]); i++)
			init++;
		if (init == 0 || init > 3)
			return 0;
		names++;
		if (i < e && s[i] == '.')
			return i;
		if (i + 1 >= e || s[i] != ',' || s[i + 1] != ' ')
			return 0;
		i += 2;
	}
}

static bool parse_author_date(const struct refs *r, const char *s, size_t b, size_t e,
			      size_t year_at_, size_t paren, struct ref_entry *en)
{
	size_t after, end;

	if (paren < e) {
		/* Author (2020). Title. Venue. */
		size_t ae = paren;

		if (paren <= b || !author_like(r, s, b, paren))
			return false;
		trim(s, &b, &ae, ",;");
		en->authors = span(b, ae);
		after = year_at_ + 4;
		while (after < e && s[after] != ')')
			after++;
		if (after < e)
			after++;
		/* "Nguyen et al. (2020) concluded that ..." is prose: an entry has
		 * a mark after the year, or a capitalised title and then more. */
		if (after < e && s[after] != '.' && s[after] != ',' && s[after] != ':') {
			size_t k = after;

			while (k < e && s[k] == ' ')
				k++;
			if (k == e || !(is_upper(s[k]) || s[k] == '"' || s[k] == '*' || (unsigned char)s[k] >= 0x80) ||
			    segment_end(s, k, e) == e)
				return false;
		}
	} else {
		/* Author. 2020. Title. Venue. (Harvard, Chicago author-date) */
		size_t ab = b, ae = year_at_;

		if (year_at_ <= b)
			return false;
		trim(s, &ab, &ae, " ");
		/* "Brown, A. and Green, T. 2015. Title.": the names end in a mark
		 * and the year in a full stop; "In 2021, Cassandra added" is prose. */
		if (ae <= ab || (s[ae - 1] != '.' && s[ae - 1] != ','))
			return false;
		trim(s, &ab, &ae, ".,");
		if (ae <= ab || !author_like(r, s, ab, ae))
			return false;
		if (year_at_ + 4 >= e || s[year_at_ + 4] != '.')
			return false;
		en->authors = span(ab, ae);
		after = year_at_ + 5;
	}
	if (!title_from(s, after, e, en, &end))
		return false;
	venue_after(s, end, e, en);
	en->style = REF_STYLE_AUTHOR_DATE;
	return true;
}

static bool parse_vancouver(const struct refs *r, const char *s, size_t b, size_t e,
			    size_t year_at_, struct ref_entry *en)
{
	size_t names = vancouver_names(r, s, b, e), end;

	if (!names || !en->year || year_at_ < names)
		return false;
	en->authors = span(b, names);
	/* The year is the venue's, after the title: "Phillips (1997)" is no title. */
	if (!title_from(s, names + 1, e, en, &end) || year_at_ < end)
		return false;
	venue_after(s, end, e, en);
	en->style = REF_STYLE_VANCOUVER;
	return true;
}

/* Makes the entry's spans relative to its start b. */
static void relative(struct ref_entry *en, size_t b)
{
	struct ref_span *f[] = {&en->title, &en->authors, &en->venue, &en->doi,
				&en->arxiv, &en->isbn, &en->url};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (f[i]->len)
			f[i]->off -= (uint32_t)b;
		else
			f[i]->off = 0;
}

static bool parse_entry(const struct refs *r, const char *s, size_t b, size_t e, bool item,
			unsigned today, unsigned *may, struct ref_entry *en)
{
	struct ref_span skip[4];
	size_t yat = e, paren = e;

	memset(en, 0, sizeof(*en));
	/* A list item with no parenthesis, semicolon, quote, emphasis or
	 * digit-bearing id can only be a bare title: no pass for ids and years
	 * (most list items of assistant text come this way). */
	if (item && !memchr(s + b, '(', e - b) && !memchr(s + b, ';', e - b) && !memchr(s + b, '"', e - b) &&
	    !memchr(s + b, '*', e - b) && !memchr(s + b, '_', e - b) && !memchr(s + b, 0xE2, e - b) &&
	    !memchr(s + b, '/', e - b) && !memchr(s + b, '@', e - b)) {
		int kind = title_item(r, s, b, e, false);

		if (!kind)
			return false;
		en->strong = kind == 2;
		en->style = REF_STYLE_TITLE_LIST;
		{
			size_t tb = b, te = e;

			trim(s, &tb, &te, ".");
			en->title = span(tb, te);
		}
		en->from = (uint32_t)b;
		en->to = (uint32_t)e;
		relative(en, b);
		return true;
	}
	*may = may_hold(s, b, e);
	find_ids(r, s, b, e, today, *may, en);
	skip[0] = en->doi, skip[1] = en->arxiv, skip[2] = en->isbn, skip[3] = en->url;
	en->year = find_year(s, b, e, skip, ARRAY_SIZE(skip), &yat, &paren);
	if (s[b] == '@') {
		if (!parse_bibtex(s, b, e, en))
			return false;
	} else if (!(paren < e && parse_author_date(r, s, b, e, yat, paren, en)) &&
		   !parse_quoted(r, s, b, e, item, en) &&
		   !parse_vancouver(r, s, b, e, yat, en) &&
		   !(en->year && paren == e && parse_author_date(r, s, b, e, yat, paren, en))) {
		int kind = item ? title_item(r, s, b, e, false) : 0;

		if (!kind)
			return false;
		{
			size_t tb = b, te = e;

			en->strong = kind == 2;
			trim(s, &tb, &te, "*_\".");
			en->title = span(tb, te);
			en->style = REF_STYLE_TITLE_LIST;
		}
	}
	if (en->style == REF_STYLE_AUTHOR_DATE && en->url.len &&
	    (find_ci(s, b, e, "retrieved") < e || find_ci(s, b, e, "available at") < e ||
	     find_ci(s, b, e, "available from") < e))
		en->style = REF_STYLE_WEB;
	if (en->year && en->year > refs_year(today))
		en->problems |= 1u << REF_YEAR_FUTURE;
	en->from = (uint32_t)b;
	en->to = (uint32_t)e;
	relative(en, b);
	return true;
}

size_t refs_parse(const struct refs *r, const char *line, size_t n, unsigned today,
		  struct ref_entry *out, size_t max)
{
	size_t b = 0, e = n;
	unsigned may = ~0u; /* not known yet */
	bool item;

	if (max == 0 || n > REFS_LINE_MAX)
		return 0;
	trim(line, &b, &e, "");
	if (b == e)
		return 0;
	item = skip_marker(line, &b, e);
	if (b < e && parse_entry(r, line, b, e, item, today, &may, &out[0]))
		return 1;
	if (may == ~0u)
		may = may_hold(line, 0, n);
	return may & (MAY_DOI | MAY_ARXIV) ? prose_ids(r, line, n, today, out, max) : 0;
}
