// SPDX-License-Identifier: MIT
/*
 * Build tool: makes the word lists of words/ (docs/words.md) into C tables,
 * so that a run parses nothing: the number lexer's vocabulary sorted, with
 * its hash table and its trigger filter, and each plain list as
 * an array in the order written (or sorted, where the program searches it
 * by halves). A malformed or duplicate entry, an unknown section, a missing
 * one: the build fails with the file, the line and why.
 *     usage: words OUTPUT.c OUTPUT.h LIST.txt...
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numbers/vocab.h"

#define MAX_WORD 32
#define MAX_ENTRIES 8192
#define MAX_LINE 1024

enum kind { ROLE, UNIT, LIST, PAIR };
enum chars { LOWER, LETTERS, CAPITALIZED };

struct section {
	const char *file; /* the list's file name, without its folder */
	const char *name;
	enum kind kind;
	unsigned role;    /* ROLE: its bit */
	int number;       /* ROLE: VOCAB_NUMBER, VOCAB_WORD or VOCAB_DERIVED (no section) */
	double lo, hi;    /* the numbers allowed */
	enum chars chars;
	size_t minlen, maxlen;
	bool sorted;        /* LIST: written in strcmp() order, for a binary search */
	const char *symbol; /* LIST: the C array */
	const char *path;   /* where it was seen, or NULL */
	int line;
	size_t count;
};

/*
 * The plain lists: the program reads them as arrays (wordlists.h). maxlen
 * is what the reader of a list can see: a longer word would never match.
 */
#define LIST_OF(f, n, c, max, sym) {.file = f, .name = n, .kind = LIST, .chars = c, .maxlen = max, .symbol = sym}
#define SORTED_OF(f, n, c, min, max, sym) \
	{.file = f, .name = n, .kind = LIST, .chars = c, .minlen = min, .maxlen = max, .sorted = true, \
	 .symbol = sym}
static struct section lists[] = {
	LIST_OF("numbers.txt", "glued-unit", LETTERS, 7, "words_glued_units"),
	LIST_OF("numbers.txt", "street", LOWER, 16, "words_street"),
	LIST_OF("numbers.txt", "compared-with", LOWER, 16, "words_compared_with"),
	LIST_OF("numbers.txt", "compared-skip", LOWER, 16, "words_compared_skip"),
	LIST_OF("numbers.txt", "not-unit", LOWER, 16, "words_not_units"),
	LIST_OF("pairs.txt", "stop", LOWER, 16, "words_pairs_stop"),
	LIST_OF("pairs.txt", "negation", LOWER, 16, "words_negation"),
	LIST_OF("pairs.txt", "passage-negation", LOWER, 16, "words_passage_negation"),
	LIST_OF("pairs.txt", "negation-stem", LOWER, 12, "words_negation_stem"),
	LIST_OF("pairs.txt", "not-so", LOWER, 16, "words_not_so"),
	LIST_OF("pairs.txt", "function-word", LOWER, 3, "words_function"),
	LIST_OF("pairs.txt", "determiner", LOWER, 16, "words_determiner"),
	LIST_OF("pairs.txt", "phrase-end", LOWER, 16, "words_phrase_end"),
	LIST_OF("ground.txt", "money", LOWER, 16, "words_money"),
	LIST_OF("ground.txt", "item", LOWER, 16, "words_item"),
	LIST_OF("ground.txt", "sum", LOWER, 16, "words_sum"),
	LIST_OF("ground.txt", "payment", LOWER, 16, "words_payment"),
	LIST_OF("ground.txt", "party", LOWER, 16, "words_party"),
	LIST_OF("ground.txt", "start", LOWER, 16, "words_start"),
	LIST_OF("ground.txt", "end", LOWER, 16, "words_end"),
	/* is_name() compares them as written, and takes a word of two letters or more */
	{.file = "ground.txt", .name = "not-name", .kind = LIST, .chars = CAPITALIZED, .minlen = 2,
	 .maxlen = 16, .symbol = "words_not_names"},
	/* is_abbreviation() reads 16 bytes back, and a single letter itself */
	SORTED_OF("claims.txt", "abbreviation", LOWER, 2, 15, "words_abbreviations"),
	/* year_of_other_role() reads 10 bytes after the year: a blank and the word */
	LIST_OF("claims.txt", "work", LOWER, 9, "words_works"),
	LIST_OF("claims.txt", "assessing", LOWER, 16, "words_assessing"),
	LIST_OF("claims.txt", "party", LOWER, 16, "words_claims_party"),
	/* total_flow() reads the 48 bytes before the total */
	LIST_OF("claims.txt", "spent", LOWER, 16, "words_spent"),
	LIST_OF("claims.txt", "received", LOWER, 16, "words_received"),
	LIST_OF("claims.txt", "time-join", LOWER, 16, "words_time_join"),
	LIST_OF("claims.txt", "day-join", LOWER, 16, "words_day_join"),
	LIST_OF("claims.txt", "opening", LOWER, 16, "words_opening"),
	LIST_OF("claims.txt", "hours-stem", LOWER, 16, "words_hours_stem"),
	LIST_OF("claims.txt", "clock-format", LOWER, 16, "words_clock_format"),
	LIST_OF("claims.txt", "span", LOWER, 16, "words_span"),
	/* rate_of_time() reads 12 bytes after the figure: "/" and the word */
	LIST_OF("claims.txt", "rate-unit", LOWER, 11, "words_rate_unit"),
	LIST_OF("claims.txt", "per-label", LOWER, 16, "words_per_label"),
	/* count_filler() is given a word of at most 15 letters */
	LIST_OF("claims.txt", "count-filler", LOWER, 15, "words_count_filler"),
	LIST_OF("claims.txt", "fare-add", LOWER, 16, "words_fare_add"),
	LIST_OF("claims.txt", "url-noun", LOWER, 16, "words_url_noun"),
	LIST_OF("claims.txt", "weekday-lead", LOWER, 16, "words_weekday_lead"),
};

/* The list files, as the build names them. */
static const char *const files[] = {"numbers.txt", "pairs.txt", "ground.txt", "claims.txt"};

#define ROLE_SECTION(role_, section_, takes_number) \
	{.file = "numbers.txt", .name = section_, .kind = ROLE, .role = R_##role_, \
	 .number = takes_number, .chars = LOWER, .maxlen = VOCAB_MAXLEN},
static struct section roles[] = {VOCAB_ROLES(ROLE_SECTION)};
static struct section unit_section = {.file = "numbers.txt", .name = "unit", .kind = UNIT,
				      .chars = LOWER, .maxlen = VOCAB_MAXLEN};
/* Two words and a bound a line: each second word gets R_APPROX2. */
static struct section pair_section = {.file = "numbers.txt", .name = "approx-pair", .kind = PAIR,
				      .chars = LOWER, .maxlen = VOCAB_MAXLEN};
static const char *const sides[] = {"none", "above", "below"};
static const char *const side_symbols[] = {"0", "NUMLEX_ABOVE", "NUMLEX_BELOW"};

#define ROLE_NAME(name, section, number) #name,
static const char *const role_names[] = {VOCAB_ROLES(ROLE_NAME)};
#define UNIT_NAME(name, text) text,
static const char *const unit_texts[] = {VOCAB_UNITS(UNIT_NAME)};
#define UNIT_SYMBOL(name, text) "U_" #name,
static const char *const unit_symbols[] = {VOCAB_UNITS(UNIT_SYMBOL)};

struct entry {
	char w[MAX_WORD];
	char w1[MAX_WORD]; /* PAIR: the second word */
	int side;          /* PAIR: the index into sides[] */
	const struct section *sec;
	const char *path;
	int line;
	double num;
};

/* Every word as written, by section. */
static struct entry entries[MAX_ENTRIES];
static size_t nentries;

/* The vocabulary: one per word, every role merged. */
struct vocab {
	char w[MAX_WORD];
	unsigned roles;
	double num;
	const struct entry *num_from; /* the entry that gave its number, or NULL */
	int unit;
};
static struct vocab vocab[MAX_ENTRIES];
static size_t nvocab;

static const char *cur_path;
static int cur_line;

static void die(const char *fmt, ...)
{
	va_list ap;

	if (cur_path)
		fprintf(stderr, "words: %s:%d: ", cur_path, cur_line);
	else
		fprintf(stderr, "words: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void set_bounds(void)
{
	size_t i;

	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++) {
		roles[i].lo = 0;
		roles[i].hi = 1e15; /* exact in a double, as the lexer's digits are */
		if (roles[i].role == R_ORD)
			roles[i].lo = 1;
		if (roles[i].role == R_MONTH) {
			roles[i].lo = 1;
			roles[i].hi = 12;
		}
		if (roles[i].role == R_CLOCK)
			roles[i].hi = 24 * 60 - 1;
	}
}

static struct section *find_section(const char *file, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (!strcmp(lists[i].file, file) && !strcmp(lists[i].name, name))
			return &lists[i];
	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if (roles[i].number != VOCAB_DERIVED && !strcmp(roles[i].file, file) &&
		    !strcmp(roles[i].name, name))
			return &roles[i];
	if (!strcmp(unit_section.file, file) && !strcmp(unit_section.name, name))
		return &unit_section;
	if (!strcmp(pair_section.file, file) && !strcmp(pair_section.name, name))
		return &pair_section;
	return NULL;
}

static bool known_file(const char *file)
{
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!strcmp(files[i], file))
			return true;
	return false;
}

static void check_word(const struct section *sec, const char *w)
{
	size_t i, n = strlen(w);

	if (n > sec->maxlen)
		die("\"%s\" in [%s]: longer than %zu letters", w, sec->name, sec->maxlen);
	if (n < sec->minlen)
		die("\"%s\" in [%s]: shorter than %zu letters", w, sec->name, sec->minlen);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)w[i];
		bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
		bool ok = sec->chars == CAPITALIZED ? (i == 0 ? upper : lower)
						    : lower || (sec->chars == LETTERS && upper);

		if (!ok && sec->chars == CAPITALIZED)
			die("\"%s\" in [%s]: a capital A-Z and lowercase letters a-z only", w, sec->name);
		if (!ok)
			die("\"%s\" in [%s]: %s only", w, sec->name,
			    sec->chars == LOWER ? "lowercase letters a-z" : "letters a-z and A-Z");
	}
}

static double parse_number(const struct section *sec, const char *w, const char *s)
{
	double v = 0;
	size_t i;

	for (i = 0; s[i]; i++) {
		if (s[i] < '0' || s[i] > '9' || i >= 15)
			die("\"%s\" in [%s]: \"%s\" is not a whole number of 15 digits or fewer", w,
			    sec->name, s);
		v = v * 10 + (s[i] - '0');
	}
	if (v < sec->lo || v > sec->hi)
		die("\"%s\" in [%s]: %s is outside %.0f..%.0f", w, sec->name, s, sec->lo, sec->hi);
	return v;
}

static struct vocab *vocab_entry(const char *w)
{
	size_t i;

	for (i = 0; i < nvocab; i++)
		if (!strcmp(vocab[i].w, w))
			return &vocab[i];
	if (nvocab == MAX_ENTRIES)
		die("more than %d words", MAX_ENTRIES);
	memset(&vocab[nvocab], 0, sizeof(vocab[0]));
	strcpy(vocab[nvocab].w, w);
	return &vocab[nvocab++];
}

static void add(const struct section *sec, const char *w, const char *value, const char *third)
{
	struct entry *e;
	struct vocab *v;
	size_t i;
	int u;

	check_word(sec, w);
	if (sec->kind == PAIR)
		check_word(sec, value);
	for (i = 0; i < nentries; i++)
		if (entries[i].sec == sec && !strcmp(entries[i].w, w) &&
		    (sec->kind != PAIR || !strcmp(entries[i].w1, value)))
			die("duplicate \"%s%s%s\" in [%s] (first at %s:%d)", w, sec->kind == PAIR ? " " : "",
			    sec->kind == PAIR ? value : "", sec->name, entries[i].path, entries[i].line);
	if (nentries == MAX_ENTRIES)
		die("more than %d words", MAX_ENTRIES);
	e = &entries[nentries++];
	strcpy(e->w, w);
	e->sec = sec;
	e->path = cur_path;
	e->line = cur_line;
	if (sec->kind == LIST)
		return;
	if (sec->kind == PAIR) {
		for (u = 0; u < 3 && strcmp(sides[u], third); u++)
			;
		if (u == 3)
			die("\"%s %s\" in [%s]: the bound is above, below or none, not \"%s\"", w, value,
			    sec->name, third);
		strcpy(e->w1, value);
		e->side = u;
		vocab_entry(value)->roles |= R_APPROX2;
		return;
	}
	v = vocab_entry(w);
	if (sec->kind == UNIT) {
		for (u = 1; u < VOCAB_UNIT_COUNT; u++)
			if (!strcmp(unit_texts[u], value))
				break;
		if (u == VOCAB_UNIT_COUNT) {
			fprintf(stderr, "words: %s:%d: \"%s\" in [unit]: unknown unit \"%s\"; the units:",
				cur_path, cur_line, w, value);
			for (u = 1; u < VOCAB_UNIT_COUNT; u++)
				fprintf(stderr, " %s", unit_texts[u]);
			fputc('\n', stderr);
			exit(1);
		}
		v->unit = u; /* (one [unit] section, no duplicate in it: one unit a word) */
		return;
	}
	v->roles |= sec->role;
	if (!sec->number)
		return;
	e->num = parse_number(sec, w, value);
	if (v->num_from)
		die("\"%s\" has a number in [%s] already (%s:%d): a word has one number", w,
		    v->num_from->sec->name, v->num_from->path, v->num_from->line);
	v->num = e->num;
	v->num_from = e;
}

static const char *what_a_line(const struct section *sec)
{
	if (sec->kind == PAIR)
		return "two words and a bound (above, below or none)";
	return sec->kind == UNIT ? "one word and its unit" : "one word and its number";
}

static void read_list(const char *path)
{
	char buf[MAX_LINE + 2];
	const char *file = base_name(path);
	struct section *sec = NULL;
	FILE *in;

	cur_path = path;
	cur_line = 0;
	if (!known_file(file)) {
		size_t i;

		fprintf(stderr, "words: %s:%d: unknown list (the lists:", path, 0);
		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
			fprintf(stderr, " %s", files[i]);
		fprintf(stderr, ")\n");
		exit(1);
	}
	in = fopen(path, "r");
	if (!in)
		die("cannot open: %s", strerror(errno));
	while (fgets(buf, sizeof(buf), in)) {
		char *tok[4], *p, *hash;
		size_t n = strlen(buf), k = 0;

		cur_line++;
		if (n > MAX_LINE)
			die("line longer than %d bytes", MAX_LINE);
		if ((hash = strchr(buf, '#')))
			*hash = '\0';
		for (p = buf; *p; p++)
			if (*p == '\n' || *p == '\r' || *p == '\t')
				*p = ' ';
			else if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				die("a byte other than printable ASCII (0x%02x)", (unsigned char)*p);
		for (p = strtok(buf, " "); p; p = strtok(NULL, " ")) {
			if (*p == '[') {
				size_t m = strlen(p);

				if (k > 0 || m < 3 || p[m - 1] != ']' || strtok(NULL, " "))
					die("a section is \"[name]\" alone on its line");
				p[m - 1] = '\0';
				sec = find_section(file, p + 1);
				if (!sec)
					die("unknown section [%s] in %s", p + 1, file);
				if (sec->line)
					die("section [%s] again (first at line %d)", p + 1, sec->line);
				sec->path = path;
				sec->line = cur_line;
				break;
			}
			if (!sec)
				die("\"%s\" before any section", p);
			if (sec->kind == LIST || (sec->kind == ROLE && !sec->number)) {
				add(sec, p, NULL, NULL);
				sec->count++;
				continue;
			}
			if (k == (sec->kind == PAIR ? 3u : 2u))
				die("[%s] takes %s a line", sec->name, what_a_line(sec));
			tok[k++] = p;
		}
		if (k > 0 && k < (sec->kind == PAIR ? 3u : 2u))
			die("\"%s\" in [%s]: a line is %s", tok[0], sec->name, what_a_line(sec));
		if (k > 0) {
			add(sec, tok[0], tok[1], sec->kind == PAIR ? tok[2] : NULL);
			sec->count++;
		}
	}
	if (ferror(in))
		die("cannot read");
	fclose(in);
	cur_path = NULL;
}

static int by_word(const void *a, const void *b)
{
	return strcmp(((const struct vocab *)a)->w, ((const struct vocab *)b)->w);
}

static int by_entry(const void *a, const void *b)
{
	return strcmp((*(const struct entry *const *)a)->w, (*(const struct entry *const *)b)->w);
}

static void check_complete(void)
{
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		cur_path = NULL;
		if (!lists[i].line)
			die("no section [%s] in %s", lists[i].name, lists[i].file);
		cur_path = lists[i].path;
		cur_line = lists[i].line;
		if (!lists[i].count)
			die("section [%s] of %s is empty", lists[i].name, lists[i].file);
	}
	cur_path = NULL;
	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if (!roles[i].line && roles[i].number != VOCAB_DERIVED)
			die("no section [%s] in %s", roles[i].name, roles[i].file);
	if (!unit_section.line)
		die("no section [unit] in %s", unit_section.file);
	if (!pair_section.line)
		die("no section [approx-pair] in %s", pair_section.file);
	cur_path = pair_section.path;
	cur_line = pair_section.line;
	if (!pair_section.count)
		die("section [approx-pair] of %s is empty", pair_section.file);
	cur_path = NULL;
}

static void write_roles(FILE *out, unsigned r)
{
	size_t i;
	bool any = false;

	for (i = 0; i < VOCAB_ROLE_COUNT; i++)
		if (r & (1u << i)) {
			fprintf(out, "%sR_%s", any ? " | " : "", role_names[i]);
			any = true;
		}
	if (!any)
		fputc('0', out);
}

/*
 * The trigger prefixes' nibble tables (vocab_prefix_nibbles in
 * numbers/vocab.h): the distinct first three letters of the trigger words,
 * put in eight buckets, and for each of the three places and each nibble
 * the buckets a letter with that low (high) nibble may be in. Any grouping
 * passes every prefix; the one chosen lets through few other words: the
 * groups are merged two at a time, the pair whose merged group lets the
 * least more through, weighing each letter by how often English uses it
 * (a speed matter only: the scan asks the filter of what passes).
 */
#define PREFIX_BUCKETS 8
#define MAX_PREFIXES 128

static const double letter_weight[26] = {
	8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.15, 0.77, 4.0, 2.4, /* a-m */
	6.7, 7.5, 1.9, 0.095, 6.0, 6.3, 9.1, 2.8, 0.98, 2.4, 0.15, 2.0, 0.074, /* n-z */
};

/* The weight of the letters a group of prefixes lets through (nibbles crossed). */
static double prefix_mass(char (*pre)[4], const int *group, size_t n, int a, int b)
{
	double mass = 1;
	size_t i;
	int k;

	for (k = 0; k < 3; k++) {
		unsigned lo = 0, hi = 0, c;
		double m = 0;

		for (i = 0; i < n; i++)
			if (group[i] == a || group[i] == b) {
				lo |= 1u << (pre[i][k] & 15);
				hi |= 1u << ((unsigned char)pre[i][k] >> 4);
			}
		for (c = 'a'; c <= 'z'; c++)
			if ((lo >> (c & 15) & 1) && (hi >> (c >> 4) & 1))
				m += letter_weight[c - 'a'];
		mass *= m;
	}
	return mass;
}

static void prefix_nibbles(uint8_t nib[3][2][16])
{
	static char pre[MAX_PREFIXES][4];
	int group[MAX_PREFIXES], ngroups, a, b, best_a, best_b, k;
	size_t n = 0, i, j;
	double best, d;

	for (i = 0; i < nvocab; i++) {
		if (!(vocab[i].roles & R_TRIGGER))
			continue;
		for (j = 0; j < n && memcmp(pre[j], vocab[i].w, 3) != 0; j++)
			;
		if (j < n)
			continue;
		if (n == MAX_PREFIXES)
			die("more than %d prefixes of trigger words (raise MAX_PREFIXES in tools/words.c)",
			    MAX_PREFIXES);
		memcpy(pre[n], vocab[i].w, 3);
		group[n] = (int)n;
		n++;
	}
	for (ngroups = (int)n; ngroups > PREFIX_BUCKETS; ngroups--) {
		best = -1;
		best_a = best_b = 0;
		for (a = 0; a < (int)n; a++)
			for (b = a + 1; b < (int)n; b++) {
				/* (a group is named by its first prefix) */
				if (group[a] != a || group[b] != b)
					continue;
				d = prefix_mass(pre, group, n, a, b) - prefix_mass(pre, group, n, a, a) -
				    prefix_mass(pre, group, n, b, b);
				if (best < 0 || d < best) {
					best = d;
					best_a = a;
					best_b = b;
				}
			}
		for (i = 0; i < n; i++)
			if (group[i] == best_b)
				group[i] = best_a;
	}
	memset(nib, 0, 3 * 2 * 16);
	for (i = 0, b = 0; i < n; i++) {
		if (group[i] != (int)i)
			continue;
		for (j = 0; j < n; j++)
			if (group[j] == (int)i)
				for (k = 0; k < 3; k++) {
					nib[k][0][pre[j][k] & 15] |= (uint8_t)(1u << b);
					nib[k][1][(unsigned char)pre[j][k] >> 4] |= (uint8_t)(1u << b);
				}
		b++;
	}
}

static void write_list_decl(FILE *h, const struct section *s)
{
	fprintf(h, "extern const char *const %s[%zu] WORDS_HIDDEN;\n", s->symbol, s->count);
}

int main(int argc, char **argv)
{
	uint64_t trig[TRIG_BITS / 64] = {0};
	uint8_t nib[3][2][16];
	static uint16_t slots[VOCAB_SLOTS];
	size_t i, j, tmin = 0, tmax = 0;
	FILE *c, *h;

	if (argc < 4) {
		fprintf(stderr, "usage: words OUTPUT.c OUTPUT.h LIST.txt...\n");
		return 2;
	}
	set_bounds();
	for (i = 3; i < (size_t)argc; i++)
		read_list(argv[i]);
	check_complete();
	qsort(vocab, nvocab, sizeof(vocab[0]), by_word);
	/* (half full at most: a word that is none of these stops soon) */
	if (nvocab == 0 || nvocab > VOCAB_SLOTS / 2)
		die("%zu words in the vocabulary (at most %d: raise VOCAB_SLOTS in "
		    "src/numbers/vocab.h)", nvocab, VOCAB_SLOTS / 2);
	for (i = 0; i < nvocab; i++) {
		size_t n = strlen(vocab[i].w);
		uint32_t hash;

		if (vocab[i].roles == 0 && vocab[i].unit == 0)
			die("\"%s\": no role", vocab[i].w); /* (cannot happen: a unit or a role made it) */
		if (!(vocab[i].roles & R_TRIGGER))
			continue;
		if (n < 3) {
			const struct entry *e = vocab[i].num_from;

			for (j = 0; j < nentries; j++)
				if (!strcmp(entries[j].w, vocab[i].w) && entries[j].sec->kind == ROLE &&
				    (entries[j].sec->role & R_TRIGGER))
					e = &entries[j];
			cur_path = e->path;
			cur_line = e->line;
			die("\"%s\" in [%s]: a word that starts a number on its own needs three "
			    "letters or more (the trigger filter reads three)", vocab[i].w, e->sec->name);
		}
		hash = TRIG_HASH(TRIG_KEY(vocab[i].w[0], vocab[i].w[1], vocab[i].w[2]), n);
		trig[hash / 64] |= 1ull << (hash % 64);
		if (!tmin || n < tmin)
			tmin = n;
		if (n > tmax)
			tmax = n;
	}
	if (!tmin)
		die("no word starts a number on its own ([cardinal], [ordinal], ...)");
	prefix_nibbles(nib);
	for (i = 0; i < nvocab; i++) {
		uint32_t s = vocab_hash(vocab[i].w, strlen(vocab[i].w));

		while (slots[s])
			s = (s + 1) & (VOCAB_SLOTS - 1);
		slots[s] = (uint16_t)(i + 1);
	}

	h = fopen(argv[2], "w");
	if (!h) {
		perror(argv[2]);
		return 1;
	}
	fprintf(h, "/* Generated by tools/words.c from words/: do not edit. */\n"
		   "#ifndef HALLUSCAN_WORDLISTS_H\n#define HALLUSCAN_WORDLISTS_H\n\n"
		   "#include <stdint.h>\n\n#include \"numbers/vocab.h\"\n\n"
		   "#define WORDS_HIDDEN __attribute__((visibility(\"hidden\")))\n\n"
		   "/* The trigger words' shortest and longest. */\n"
		   "#define TRIG_MIN %zu\n#define TRIG_MAX %zu\n\n"
		   "extern const struct vword vocab_words[%zu] WORDS_HIDDEN;\n"
		   "/* vocab_find()'s table (VOCAB_SLOTS in numbers/vocab.h): 0, or a word's index + 1. */\n"
		   "extern const uint16_t vocab_slots[VOCAB_SLOTS] WORDS_HIDDEN;\n"
		   "extern const uint64_t vocab_triggers[TRIG_BITS / 64] WORDS_HIDDEN;\n"
		   "extern const uint8_t vocab_prefix_nibbles[3][2][16] WORDS_HIDDEN;\n"
		   "extern const struct vocab_pair vocab_approx_pairs[%zu] WORDS_HIDDEN;\n\n",
		tmin, tmax, nvocab, pair_section.count);
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		write_list_decl(h, &lists[i]);
	fprintf(h, "\n#endif\n");
	if (fclose(h) != 0) {
		perror(argv[2]);
		return 1;
	}

	c = fopen(argv[1], "w");
	if (!c) {
		perror(argv[1]);
		return 1;
	}
	fprintf(c, "/* Generated by tools/words.c from words/: do not edit. */\n"
		   "#include \"wordlists.h\"\n\n#include \"numbers/numlex.h\"\n\n"
		   "const struct vword vocab_words[%zu] = {\n", nvocab);
	for (i = 0; i < nvocab; i++) {
		fprintf(c, "\t{\"%s\", %zu, %s, ", vocab[i].w, strlen(vocab[i].w),
			unit_symbols[vocab[i].unit]);
		write_roles(c, vocab[i].roles);
		fprintf(c, ", %.17g},\n", vocab[i].num);
	}
	fprintf(c, "};\n\nconst uint16_t vocab_slots[VOCAB_SLOTS] = {");
	for (i = 0; i < VOCAB_SLOTS; i++)
		fprintf(c, "%s%u,", i % 16 ? " " : "\n\t", slots[i]);
	fprintf(c, "\n};\n\nconst uint64_t vocab_triggers[TRIG_BITS / 64] = {");
	for (i = 0; i < TRIG_BITS / 64; i++)
		fprintf(c, "%s0x%016llxull,", i % 3 ? " " : "\n\t", (unsigned long long)trig[i]);
	fprintf(c, "\n};\n\nconst uint8_t vocab_prefix_nibbles[3][2][16] = {");
	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++) {
			size_t k;

			fprintf(c, "%s{", j ? " " : "\n\t{");
			for (k = 0; k < 16; k++)
				fprintf(c, "%s0x%02x", k ? ", " : "", nib[i][j][k]);
			fprintf(c, "}%s", j ? "}," : ",");
		}
	fprintf(c, "\n};\n\nconst struct vocab_pair vocab_approx_pairs[%zu] = {", pair_section.count);
	for (j = 0; j < nentries; j++)
		if (entries[j].sec == &pair_section)
			fprintf(c, "\n\t{\"%s\", \"%s\", %s},", entries[j].w, entries[j].w1,
				side_symbols[entries[j].side]);
	fprintf(c, "\n};\n");
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		static const struct entry *list[MAX_ENTRIES];
		size_t n = 0;

		for (j = 0; j < nentries; j++)
			if (entries[j].sec == &lists[i])
				list[n++] = &entries[j];
		if (lists[i].sorted)
			qsort(list, n, sizeof(list[0]), by_entry);
		fprintf(c, "\nconst char *const %s[%zu] = {", lists[i].symbol, lists[i].count);
		for (j = 0; j < n; j++)
			fprintf(c, "\n\t\"%s\",", list[j]->w);
		fprintf(c, "\n};\n");
	}
	if (fclose(c) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
