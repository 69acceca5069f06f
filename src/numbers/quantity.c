// SPDX-License-Identifier: MIT
/* Quantities as written: value, unit and precision. */
#include "quantity.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/fmath.h"
#include "common/util.h"
#include "wordlists.h"

static const struct {
	const char *word;
	int value;
} number_words[] = {
	{"zero", 0}, {"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5},
	{"six", 6}, {"seven", 7}, {"eight", 8}, {"nine", 9}, {"ten", 10}, {"eleven", 11},
	{"twelve", 12}, {"thirteen", 13}, {"fourteen", 14}, {"fifteen", 15},
	{"sixteen", 16}, {"seventeen", 17}, {"eighteen", 18}, {"nineteen", 19},
	{"twenty", 20}, {"thirty", 30}, {"forty", 40}, {"fifty", 50}, {"sixty", 60},
	{"seventy", 70}, {"eighty", 80}, {"ninety", 90}, {"hundred", 100},
	{"a dozen", 12}, {"dozen", 12},
};

static const struct {
	const char *word;
	double scale;
} scales[] = {
	{"trillion", 1e12}, {"billion", 1e9}, {"million", 1e6}, {"thousand", 1e3},
	{"tn", 1e12}, {"bn", 1e9}, {"mn", 1e6}, {"mln", 1e6},
};

/* Units that convert into a base; anything else is a counted noun. */
static const struct {
	const char *word;
	const char *unit;
	double factor;
} units[] = {
	{"percentage points", "percent", 1}, {"percentage point", "percent", 1},
	{"per cent", "percent", 1}, {"percent", "percent", 1}, {"%", "percent", 1},
	{"seconds", "seconds", 1}, {"second", "seconds", 1},
	{"minutes", "seconds", 60}, {"minute", "seconds", 60},
	{"hours", "seconds", 3600}, {"hour", "seconds", 3600},
	{"days", "seconds", QUANTITY_DAY_SECONDS}, {"day", "seconds", QUANTITY_DAY_SECONDS},
	{"weeks", "seconds", 604800}, {"week", "seconds", 604800},
	{"months", "seconds", 2592000}, {"month", "seconds", 2592000},
	{"years", "seconds", QUANTITY_YEAR_SECONDS}, {"year", "seconds", QUANTITY_YEAR_SECONDS},
	{"dollars", "usd", 1}, {"dollar", "usd", 1}, {"usd", "usd", 1}, {"bucks", "usd", 1},
	{"euros", "eur", 1}, {"euro", "eur", 1}, {"eur", "eur", 1},
	{"pounds", "gbp", 1}, {"gbp", "gbp", 1},
};

/* Length of word w at p (case-insensitive, whole word), or 0. */
static size_t word_at(const char *p, const char *end, const char *w)
{
	size_t k;

	/* One pass, no strlen: most tries fail at the first letter. */
	for (k = 0; w[k]; k++)
		if (p + k >= end || tolower((unsigned char)p[k]) != tolower((unsigned char)w[k]))
			return 0;
	if (p + k < end && isalpha((unsigned char)p[k]) && isalpha((unsigned char)w[k - 1]))
		return 0;
	return k;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '-'))
		p++;
	return p;
}

/*
 * The value of n digits with one optional point, decimals of them after it.
 * Up to 15 digits the integer they spell is exact in a double, and so is
 * 10^decimals up to 10^22: one division, correctly rounded, gives what
 * strtod() gives. Longer figures go to strtod().
 */
static double digits_value(const char *digits, size_t n, int decimals)
{
	static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	uint64_t m = 0;
	size_t i, count = 0;

	for (i = 0; i < n; i++) {
		if (digits[i] == '.')
			continue;
		m = m * 10 + (uint64_t)(digits[i] - '0');
		count++;
	}
	if (count > 15 || decimals < 0 || (size_t)decimals >= ARRAY_SIZE(pow10))
		return strtod(digits, NULL);
	return (double)m / pow10[decimals];
}

/* A number in digits ("1,234.5") or words ("twenty-one"); sets *decimals. */
static const char *parse_number(const char *p, const char *end, double *v, int *decimals)
{
	char digits[64];
	size_t n = 0, i;
	bool point = false;

	*decimals = 0;
	if (p < end && isdigit((unsigned char)*p)) {
		for (; p < end && n + 1 < sizeof(digits); p++) {
			if (isdigit((unsigned char)*p)) {
				digits[n++] = *p;
				*decimals += point;
			} else if (*p == ',' && p + 1 < end && isdigit((unsigned char)p[1]) && !point) {
				continue;
			} else if (*p == '.' && !point && p + 1 < end && isdigit((unsigned char)p[1])) {
				digits[n++] = '.';
				point = true;
			} else {
				break;
			}
		}
		digits[n] = '\0';
		*v = digits_value(digits, n, *decimals);
		return p;
	}
	for (i = 0; i < ARRAY_SIZE(number_words); i++) {
		size_t k = word_at(p, end, number_words[i].word);

		if (k) {
			const char *q = p + k;

			*v = number_words[i].value;
			/* "twenty-one", "twenty one", "twenty - one" */
			if (*v >= 20 && *v < 100 && q < end && (*q == '-' || *q == ' ')) {
				const char *r = skip_blanks(q, end);
				size_t j;

				for (j = 1; j < 10; j++) {
					size_t m = word_at(r, end, number_words[j].word);

					if (m) {
						*v += (double)number_words[j].value;
						q = r + m;
						break;
					}
				}
			}
			return q;
		}
	}
	return NULL;
}

/*
 * Whether a unit (a string in an array of QUANTITY_UNIT_MAX) is the
 * literal s: its bytes through s's NUL compared, as strcmp() would find
 * them, with no call (the claims ask the class of every figure).
 */
#define UNIT_IS(u, s) (memcmp(u, s, sizeof(s)) == 0)

/*
 * Copies a unit name (a table's, or "number") into q->unit, NUL-padded to
 * its end: units then compare as QUANTITY_UNIT_MAX bytes (quantity_same_unit).
 */
static void set_unit(struct quantity *q, const char *u)
{
	size_t k = strlen(u);

	if (k >= sizeof(q->unit))
		k = sizeof(q->unit) - 1;
	memset(q->unit, 0, sizeof(q->unit));
	memcpy(q->unit, u, k);
}

static bool parse(const char *text, size_t n, struct quantity *q)
{
	const char *p = text, *end = text + n, *after;
	const char *currency = NULL;
	double v, factor = 1;
	size_t i, k;

	memset(q, 0, sizeof(*q));
	q->scale = 1;
	/* A quarter, "Q3" or "third quarter"; a year standing alone is no quantity. */
	if (n == 2 && (text[0] == 'Q' || text[0] == 'q') && text[1] >= '1' && text[1] <= '4') {
		set_unit(q, "quarter");
		q->value = text[1] - '0';
		return true;
	}
	for (i = 0; i < 4; i++) {
		static const char *const nth[] = {"first", "second", "third", "fourth"};

		k = word_at(p, end, nth[i]);
		if (k && word_at(skip_blanks(p + k, end), end, "quarter")) {
			set_unit(q, "quarter");
			q->value = (double)i + 1;
			return true;
		}
	}
	/* A currency sign before the number. */
	if (p < end && *p == '$') {
		currency = "usd";
		p++;
	} else if (end - p >= 3 && memcmp(p, "\xe2\x82\xac", 3) == 0) {
		currency = "eur";
		p += 3;
	} else if (end - p >= 2 && memcmp(p, "\xc2\xa3", 2) == 0) {
		currency = "gbp";
		p += 2;
	} else if ((k = word_at(p, end, "US$")) || (k = word_at(p, end, "USD"))) {
		currency = "usd";
		p = skip_blanks(p + k, end);
	}
	after = parse_number(p, end, &v, &q->decimals);
	if (!after)
		return false;
	q->words = !isdigit((unsigned char)*p);
	p = skip_blanks(after, end);
	/* A scale: "1.2 billion", "$1.2B", "$300k" (most numbers end their match). */
	for (i = p < end ? 0 : ARRAY_SIZE(scales); i < ARRAY_SIZE(scales); i++) {
		k = word_at(p, end, scales[i].word);
		if (k) {
			q->scale = scales[i].scale;
			p = skip_blanks(p + k, end);
			break;
		}
	}
	/* (*p first: strchr() finds the terminator for a NUL byte.) */
	if (i == ARRAY_SIZE(scales) && currency && p == after && p < end && *p && strchr("kKmMbBT", *p) &&
	    (p + 1 == end || !isalpha((unsigned char)p[1]))) {
		q->scale = *p == 'k' || *p == 'K' ? 1e3 : *p == 'm' || *p == 'M' ? 1e6 : *p == 'T' ? 1e12 : 1e9;
		p = skip_blanks(p + 1, end);
	}
	if (currency) {
		set_unit(q, currency);
	} else {
		for (i = p < end ? 0 : ARRAY_SIZE(units); i < ARRAY_SIZE(units); i++) {
			k = word_at(p, end, units[i].word);
			if (k) {
				set_unit(q, units[i].unit);
				factor = units[i].factor;
				break;
			}
		}
		if (i == ARRAY_SIZE(units)) {
			/* A counted noun, singular: "12 employees" and "1 employee". */
			size_t len = 0;

			while (p + len < end && isalpha((unsigned char)p[len]) && len + 1 < sizeof(q->unit))
				len++;
			for (i = 0; i < ARRAY_SIZE(words_not_units) && len > 0; i++)
				if (tolower((unsigned char)*p) == words_not_units[i][0] &&
				    len == strlen(words_not_units[i]) &&
				    strncasecmp(p, words_not_units[i], len) == 0)
					len = 0; /* "6 will": a bare number */
			/* A year standing alone is a date, not a count: "in 2021 the". */
			if (q->scale == 1 && q->decimals == 0 && v >= 1000 && v <= 2999 &&
			    isdigit((unsigned char)text[0]) && !memchr(text, ',', (size_t)(after - text)))
				return false;
			if (len == 0)
				set_unit(q, "number");
			else {
				for (k = 0; k < len; k++)
					q->unit[k] = (char)tolower((unsigned char)p[k]);
				if (len > 3 && q->unit[len - 1] == 's' && q->unit[len - 2] != 's')
					len--;
				q->unit[len] = '\0';
			}
		}
	}
	q->scale *= factor;
	q->value = v * q->scale;
	return true;
}

static bool is_base_unit(const char *u)
{
	return !strcmp(u, "usd") || !strcmp(u, "eur") || !strcmp(u, "gbp") ||
	       !strcmp(u, "percent") || !strcmp(u, "seconds") || !strcmp(u, "quarter");
}

uint64_t quantity_unit_hash(const char *unit)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *unit; unit++)
		h = (h ^ (unsigned char)*unit) * 0x100000001b3ull;
	return h;
}

bool quantity_parse(const char *text, size_t n, struct quantity *q)
{
	if (!parse(text, n, q))
		return false;
	q->unit_hash = quantity_unit_hash(q->unit);
	q->kind = strcmp(q->unit, "number") == 0 ? QUANTITY_NUMBER
		  : is_base_unit(q->unit)       ? QUANTITY_BASE
						: QUANTITY_COUNT;
	return true;
}

bool quantity_follows(int before)
{
	/* After "$", "€" (E2 82 AC) or "£" (C2 A3) it is the tail of a sum;
	 * after "-", "/", "_", "=" or "#" part of an identifier or a URL. */
	switch (before) {
	case '.': case ',': case '$': case '-': case '/': case '_': case '=': case '#':
	case '\0': case 0xAC: case 0xA3:
		return false;
	default:
		return before < 0 || !isalnum(before);
	}
}

/* A count of a noun or a bare number: the kinds that state each other by figure. */
static bool is_plain(enum quantity_kind k)
{
	return k == QUANTITY_COUNT || k == QUANTITY_NUMBER;
}

/* The kinds numlex adds, compared by their own rules (below). */
static bool is_lexed(enum quantity_kind k)
{
	return k > QUANTITY_BASE;
}

static bool lexed_comparable(const struct quantity *a, const struct quantity *g);
static bool lexed_states(const struct quantity *a, const struct quantity *g);
static double lexed_distance(const struct quantity *a, const struct quantity *g);

bool quantity_is_count(const struct quantity *q)
{
	return is_plain(q->kind);
}

void quantity_set_year(struct quantity *q, double year, bool decade)
{
	quantity_set(q, QUANTITY_YEAR, "date:year", decade ? year + QUANTITY_DECADE_MID : year,
		     decade ? 10 : 1);
	if (decade)
		q->offset = QUANTITY_DECADE_MID;
}

bool quantity_is_decade(const struct quantity *q)
{
	return q->kind == QUANTITY_YEAR && q->scale == 10;
}

bool quantity_same_unit(const struct quantity *a, const struct quantity *g)
{
	/* (every unit is NUL-padded: set_unit(); this runs for every candidate judged) */
	return a->unit_hash == g->unit_hash && memcmp(a->unit, g->unit, sizeof(a->unit)) == 0;
}

bool quantity_comparable(const struct quantity *a, const struct quantity *g)
{
	if (is_lexed(a->kind) || is_lexed(g->kind))
		return lexed_comparable(a, g);
	if (quantity_same_unit(a, g))
		return true;
	return g->kind == QUANTITY_NUMBER && a->kind != QUANTITY_BASE;
}

static bool __attribute__((cold, noinline)) items_of(const struct quantity *g, const char *noun);

/* Counts of different nouns state the same figure ("870 infections" and
 * "870 human cases"), but are not near each other. An array's length only
 * a count of what its key names (an answer's quantity is never one: only a
 * grounding holds them; and no other path of quantity_states() lets one
 * state anything, its unit being its own). */
static bool same_count(const struct quantity *a, const struct quantity *g)
{
	return is_plain(a->kind) && is_plain(g->kind) && a->value == g->value &&
	       a->decimals == g->decimals &&
	       (!g->items || (a->kind == QUANTITY_COUNT && items_of(g, a->unit)));
}

double quantity_step(int decimals)
{
	static const double step[] = {1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8,
				      1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15};
	char text[16];

	if (decimals >= 0 && (size_t)decimals < ARRAY_SIZE(step))
		return step[decimals];
	/* 10^-decimals correctly rounded (strtod), as pow(10, -d) gave for
	 * every d from 0 to 400 with glibc 2.36 (checked), without libm. */
	snprintf(text, sizeof(text), "1e%d", -decimals);
	return strtod(text, NULL);
}

/*
 * True when w, in the unit a was written in, rounds to a's figure at a's
 * precision: equal within a millionth of a step, or within a few units in
 * the last place of the figure. Past about 4.5e9 steps (2^52 millionths) a
 * double cannot hold a millionth of one ("$98,765,432.10" rounded to cents
 * comes back 1.5e-8 off), and the figure still states itself.
 */
/*
 * How far rounding may move a figure, relative to it: "$383 billion" for
 * $383.3 billion and "70%" for 69.8% are rounding; "$2 billion" for $1.8
 * billion (one digit, 11% off) says another figure. "About $2 billion" is
 * an approximation, and judged as one.
 */
#define ROUNDING_REL 0.05

static bool rounds_to(double w, const struct quantity *a)
{
	double unit = quantity_step(a->decimals), x = quantity_written(a), r = w / unit;

	/* Half away from zero, as round() does, also where w / unit falls a
	 * hair short of the half in binary: 1.65 / 0.1 is 16.499999999999996,
	 * and "$1.6 billion" is not how $1.65 billion rounds. The nudge is 4
	 * units in the last place away from zero (one multiplication: this
	 * runs for every candidate), and only below 2^48 steps, where it stays
	 * under a sixteenth of a step: past that 4 ulp reach half a step and
	 * more, and a figure would no longer state itself (fuzz_keys found
	 * "$555555533000000"). */
	if (fabs(r) < 0x1p48)
		r *= 1 + 4 * DBL_EPSILON;
	return fabs(fmath_round(r) * unit - x) < unit * 1e-6 + 1e-12 + 8 * DBL_EPSILON * fabs(x);
}

/* A figure rounded to a's precision and not moved past ROUNDING_REL (not
 * for dates and times: "March" is any day of March, "5 pm" any minute of
 * the hour). */
static bool rounds_close(double w, const struct quantity *a)
{
	double x = quantity_written(a);

	return fabs(w - x) <= ROUNDING_REL * fabs(x) + 1e-12 && rounds_to(w, a);
}

void quantity_rounding_reach(const struct quantity *a, double *lo, double *hi)
{
	double x = quantity_written(a);
	/* (and a hair more: rounds_close() compares a rounded difference) */
	double r = ROUNDING_REL * fabs(x) + 1e-12 + fabs(x) * 1e-9 + 1e-12;

	*lo = x - r;
	*hi = x + r;
}

void quantity_set_items(struct quantity *q, const char *const *words, size_t n_words,
			double count)
{
	char unit[QUANTITY_UNIT_MAX] = QUANTITY_ITEMS;
	size_t k = strlen(unit), i = n_words > 2 ? n_words - 2 : 0, w;

	for (; i < n_words; i++) {
		w = strlen(words[i]);
		if (k + w + 1 >= sizeof(unit))
			break;
		if (k > strlen(QUANTITY_ITEMS))
			unit[k++] = ':';
		memcpy(unit + k, words[i], w);
		k += w;
	}
	unit[k] = '\0';
	quantity_set(q, QUANTITY_COUNT, unit, count, 1);
	q->items = true;
}

/* Whether the counted noun (singular, as the lexer leaves it) is one of an
 * items unit's key words, singular or plural ("result", "results"). */
static bool __attribute__((cold, noinline)) items_of(const struct quantity *g, const char *noun)
{
	const char *p = g->unit + strlen(QUANTITY_ITEMS);
	size_t n = strlen(noun);

	if (!*p)
		return true; /* an array with no key: of whatever its items are called */

	while (*p) {
		size_t w = strcspn(p, ":");

		if (n > 0 && w >= n && memcmp(p, noun, n) == 0 &&
		    (w == n || (w == n + 1 && p[n] == 's') ||
		     (w == n + 2 && p[n] == 'e' && p[n + 1] == 's')))
			return true;
		p += w + (p[w] == ':');
	}
	return false;
}

bool quantity_nights(const struct quantity *a)
{
	return a->kind == QUANTITY_COUNT && !a->items && a->decimals == 0 &&
	       strcmp(a->unit, "night") == 0;
}

bool quantity_states(const struct quantity *a, const struct quantity *g)
{
	if (is_lexed(a->kind) || is_lexed(g->kind))
		return lexed_states(a, g);
	if (same_count(a, g))
		return true;
	/* "3 nights" of a stay given as "3 days" ("a 3-day trip"): a hotel's
	 * days are counted as its nights. */
	if (quantity_nights(a) && g->kind == QUANTITY_BASE && g->scale == QUANTITY_DAY_SECONDS &&
	    strcmp(g->unit, "seconds") == 0 && g->value == a->value * QUANTITY_DAY_SECONDS)
		return true;
	/* A bare number in tool output states any quantity written with that
	 * number: {"refund_window_days": 14} grounds "14 days". */
	if (g->kind == QUANTITY_NUMBER)
		return rounds_close(g->value, a);
	if (!quantity_comparable(a, g))
		return false;
	/* g in the units a was written in, rounded to a's precision. */
	return rounds_close(g->value / a->scale, a);
}

double quantity_distance(const struct quantity *a, const struct quantity *g)
{
	if (is_lexed(a->kind) || is_lexed(g->kind))
		return lexed_distance(a, g);
	if (g->value == 0)
		return a->value == 0 ? 0 : INFINITY;
	return fabs(a->value - g->value) / fabs(g->value);
}

/* ---- the kinds numlex adds ---- */

/* Distances that are not relative: what counts as one tolerance unit. */
#define YEARS_PER_UNIT 40.0   /* a tolerance of 0.25: ten years apart */
#define DAYS_PER_UNIT 120.0   /* 0.25: a month */
#define MINUTES_PER_UNIT 720.0 /* 0.25: three hours */
#define DEGREES_PER_UNIT 40.0 /* 0.25: ten degrees Celsius */
#define IDENT_NEAR 0.2        /* identifiers of one name are never further apart */

/*
 * Two phone numbers' distance: as many digits, at most QUANTITY_PHONE_NEAR
 * of them different, is near (a twentieth of a tolerance unit a digit);
 * anything else is no relation (infinity).
 */
/*
 * The digits of a whole x in [1, 1e15), less one: floor(log10(x)) without
 * libm, and exact where glibc's log10() rounds 999999999999998 and
 * 999999999999999 up to 15 (for whole numbers, the only two it does).
 */
static int decade(double x)
{
	double p = 10; /* exact up to 1e22 */
	int k = 0;

	while (k < 15 && x >= p) {
		k++;
		p *= 10;
	}
	return k;
}

static double phone_distance(double a, double g)
{
	int differ = 0;

	if (!(a >= 1 && g >= 1 && a < 1e15 && g < 1e15) || decade(a) != decade(g))
		return INFINITY;
	while (a >= 1) {
		differ += fmath_fmod(a, 10) != fmath_fmod(g, 10);
		a = floor(a / 10);
		g = floor(g / 10);
	}
	return differ <= QUANTITY_PHONE_NEAR ? 0.05 * differ : INFINITY;
}

double quantity_written(const struct quantity *q)
{
	return (q->value - q->offset) / q->scale;
}

double quantity_base(const struct quantity *q, double w)
{
	return w * q->scale + q->offset;
}

void quantity_set(struct quantity *q, enum quantity_kind kind, const char *unit, double value,
		  double scale)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t k;

	/* set_unit() and quantity_unit_hash() in one walk of the unit (the
	 * lexer sets one for every item): the NUL padding is the memset's */
	memset(q, 0, sizeof(*q));
	for (k = 0; k < sizeof(q->unit) - 1 && unit[k]; k++) {
		q->unit[k] = unit[k];
		h = (h ^ (unsigned char)unit[k]) * 0x100000001b3ull;
	}
	q->unit_hash = h;
	q->kind = kind;
	q->value = value;
	q->scale = scale;
}

bool quantity_set_name(struct quantity *q, const char *name, size_t n, double value)
{
	char unit[QUANTITY_UNIT_MAX] = "ident:";
	size_t k = 6, i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		if (!isalpha(c))
			continue;
		if (k + 2 >= sizeof(unit))
			return false;
		unit[k++] = (char)tolower(c);
	}
	if (k == 6)
		return false;
	unit[k++] = '#';
	unit[k] = '\0';
	quantity_set(q, QUANTITY_IDENT, unit, value, 1);
	return true;
}

size_t quantity_name_before(const char *t, size_t p, size_t *gap)
{
	size_t b, e = p;

	*gap = 1;
	if (p < 2)
		return 0;
	/* "ID: 7", "ID #7", "id: #7", "ID '7'": an id's digits after its label */
	if (t[e - 1] == '#' || (p >= 3 && (t[e - 1] == '\'' || t[e - 1] == '"')))
		e--;
	if (e >= 2 && t[e - 1] == ' ' && t[e - 2] == ':')
		e -= 2;
	else if (e >= 1 && t[e - 1] == ' ')
		e--;
	else
		return 0;
	if (e != p - 1 && !(e >= 2 && (t[e - 2] | 0x20) == 'i' && (t[e - 1] | 0x20) == 'd' &&
			    (e == 2 || !isalpha((unsigned char)t[e - 3]))))
		return 0;
	for (b = e; b > 0 && isalpha((unsigned char)t[b - 1]); b--)
		;
	if (b == e || !(isupper((unsigned char)t[b]) || e != p - 1))
		return 0;
	*gap = p - e;
	return e - b;
}

bool quantity_may_be_year(const struct quantity *q, const char *t, size_t n, size_t p)
{
	size_t k;

	if ((q->kind != QUANTITY_COUNT && q->kind != QUANTITY_NUMBER) || q->words || q->value < 1900 ||
	    q->value > 2099 || q->scale != 1 || q->decimals || p + 4 > n)
		return false;
	for (k = 0; k < 4; k++)
		if (!isdigit((unsigned char)t[p + k]))
			return false;
	if (p > 0 && (isalnum((unsigned char)t[p - 1]) || t[p - 1] == '$' || t[p - 1] == '.' || t[p - 1] == ','))
		return false;
	return p + 4 == n ||
	       !(isalnum((unsigned char)t[p + 4]) ||
		 ((t[p + 4] == ',' || t[p + 4] == '.') && p + 5 < n && isdigit((unsigned char)t[p + 5])));
}

static bool is_temperature(const struct quantity *q)
{
	return q->kind == QUANTITY_TEMPERATURE;
}

/* "temp:deg": degrees of no written scale. */
static bool unscaled_degrees(const struct quantity *q)
{
	return strcmp(q->unit, "temp:deg") == 0;
}

/* Kinds a bare number (of tool output, of a JSON field) states and is near. */
static bool bare_number_kind(enum quantity_kind k)
{
	return k == QUANTITY_YEAR || k == QUANTITY_ORDINAL || k == QUANTITY_TEMPERATURE;
}

static double fahrenheit_of(double c)
{
	return c * 9 / 5 + 32;
}

static double celsius_of(double f)
{
	return (f - 32) * 5 / 9;
}

/* A duration ("35 years", "six days"): its unit is seconds. */
static bool is_duration(const struct quantity *q)
{
	return q->kind == QUANTITY_BASE && q->unit[0] == 's' && strcmp(q->unit, "seconds") == 0;
}

/*
 * g in a's written units where one is an ordinal of years and the other a
 * duration: "35 years" for "35th anniversary" (35), and "the 40th
 * anniversary" for "40 years" (40, written in years).
 */
static bool __attribute__((cold, noinline)) years_of(const struct quantity *a, const struct quantity *g,
							 double *x)
{
	/* (asked only of two kinds that differ: cold, out of the hot comparisons) */
	if (a->years && is_duration(g)) {
		*x = g->value / QUANTITY_YEAR_SECONDS;
		return true;
	}
	if (g->years && is_duration(a)) {
		*x = g->value * QUANTITY_YEAR_SECONDS / a->scale;
		return true;
	}
	return false;
}

static bool lexed_comparable(const struct quantity *a, const struct quantity *g)
{
	double y;

	if (g->kind == QUANTITY_NUMBER)
		return bare_number_kind(a->kind);
	if (a->kind == g->kind)
		return is_temperature(a) || quantity_same_unit(a, g);
	/* Of two kinds: an ordinal of years and a duration, only. */
	return (a->years || g->years) && years_of(a, g, &y);
}

static bool lexed_states(const struct quantity *a, const struct quantity *g)
{
	double y;

	if (!lexed_comparable(a, g))
		return false;
	/* (a bare number is as written: in a decade's units, its year's tens) */
	if (g->kind == QUANTITY_NUMBER)
		return rounds_to(quantity_is_decade(a) ? (g->value - a->offset) / a->scale : g->value,
				 a);
	if (a->kind != g->kind && years_of(a, g, &y))
		return rounds_to(y, a);
	if (is_temperature(a) && unscaled_degrees(a) != unscaled_degrees(g)) {
		/* One side's scale is unknown: either reading will do. */
		if (unscaled_degrees(a))
			return rounds_to(g->value, a) || rounds_to(fahrenheit_of(g->value), a);
		return rounds_to((g->value - a->offset) / a->scale, a) ||
		       rounds_to((celsius_of(g->value) - a->offset) / a->scale, a);
	}
	/* One in Fahrenheit, the other in Celsius: a conversion, which a
	 * recipe rounds ("350°F (175°C)", "400°F" for 200°C): within a
	 * fortieth of the degrees Celsius of an oven's heat, 0.6 below 100°C
	 * ("37°C" is 98.6°F or 99°F, not a fever's 100°F). */
	if (is_temperature(a) && is_temperature(g) && (a->offset != 0) != (g->offset != 0))
		return fabs(a->value - g->value) <= (fabs(g->value) >= 100 ? 0.025 * fabs(g->value) : 0.6);
	if (a->kind == QUANTITY_TIME && g->kind == QUANTITY_TIME && (a->either_half || g->either_half) &&
	    rounds_to((fmath_fmod(g->value + 720, 1440) - a->offset) / a->scale, a))
		return true;
	return rounds_to((g->value - a->offset) / a->scale, a);
}

/* Day of a leap year, 1..366, of month * 100 + day. */
static double day_of_year(double md)
{
	static const int before[] = {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335};
	int m = (int)(md / 100);

	if (m < 1 || m > 12)
		return md;
	return before[m - 1] + (md - m * 100);
}

/* Degrees Celsius apart, the unscaled side read in the scale that comes nearer. */
static double degrees_apart(const struct quantity *a, const struct quantity *g)
{
	double d, e;

	if (g->kind == QUANTITY_NUMBER)
		return fabs(a->value - quantity_base(a, g->value));
	if (unscaled_degrees(a) == unscaled_degrees(g))
		return fabs(a->value - g->value);
	if (unscaled_degrees(a)) {
		d = fabs(a->value - g->value);
		e = fabs(celsius_of(a->value) - g->value);
	} else {
		d = fabs(a->value - g->value);
		e = fabs(a->value - celsius_of(g->value));
	}
	return MIN(d, e);
}

static double lexed_distance(const struct quantity *a, const struct quantity *g)
{
	double d, r;

	if (!lexed_comparable(a, g))
		return INFINITY;
	switch (a->kind) {
	case QUANTITY_YEAR:
		return fabs(a->value - g->value) / YEARS_PER_UNIT;
	case QUANTITY_DATE:
		/* A month alone is as far from a day as their months are. */
		if (a->scale == 100 || g->scale == 100)
			return fabs(floor(a->value / 100) - floor(g->value / 100)) * 30 / DAYS_PER_UNIT;
		return fabs(day_of_year(a->value) - day_of_year(g->value)) / DAYS_PER_UNIT;
	case QUANTITY_TIME:
		d = fmath_fmod(fabs(a->value - g->value), 1440);
		return MIN(d, 1440 - d) / MINUTES_PER_UNIT;
	case QUANTITY_TEMPERATURE:
		return degrees_apart(a, g) / DEGREES_PER_UNIT;
	case QUANTITY_IDENT:
		if (a->value == g->value)
			return 0;
		if (strcmp(a->unit, QUANTITY_PHONE) == 0)
			return phone_distance(a->value, g->value);
		r = fabs(a->value - g->value) / MAX(fabs(g->value), 1);
		return IDENT_NEAR * r / (1 + r);
	default:
		if (a->kind != g->kind && years_of(a, g, &r)) {
			double w = quantity_written(a);

			return r == 0 ? (w == 0 ? 0 : INFINITY) : fabs(w - r) / r;
		}
		if (g->value == 0)
			return a->value == 0 ? 0 : INFINITY;
		return fabs(a->value - g->value) / fabs(g->value);
	}
}

/* month * 100 + day of a day of a leap year, clamped to the year. */
static double month_day_of(double doy)
{
	static const int before[] = {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335};
	int m = 12;

	if (doy < 1)
		return 101;
	if (doy > 366)
		return 1231;
	while (m > 1 && doy <= before[m - 1])
		m--;
	return m * 100 + (doy - before[m - 1]);
}

void quantity_near_range(const struct quantity *a, double tolerance, double *lo, double *hi)
{
	double v = a->value, w;

	*lo = -INFINITY;
	*hi = INFINITY;
	switch (a->kind) {
	case QUANTITY_YEAR:
		*lo = v - tolerance * YEARS_PER_UNIT;
		*hi = v + tolerance * YEARS_PER_UNIT;
		return;
	case QUANTITY_DATE:
		/* From the first of the earliest month that can be near (a month
		 * alone is filed on day 0) to the last day that can. */
		w = tolerance * DAYS_PER_UNIT;
		*lo = floor(month_day_of(day_of_year(v) - w - 31) / 100) * 100;
		*hi = month_day_of(day_of_year(v) + w + 31);
		return;
	case QUANTITY_TIME:
		w = tolerance * MINUTES_PER_UNIT;
		if (v - w >= 0 && v + w < 1440) {
			*lo = v - w;
			*hi = v + w;
		}
		return;
	case QUANTITY_TEMPERATURE:
		if (!unscaled_degrees(a)) {
			*lo = v - tolerance * DEGREES_PER_UNIT;
			*hi = v + tolerance * DEGREES_PER_UNIT;
		}
		return;
	case QUANTITY_IDENT:
		return;
	default:
		if (tolerance >= 1)
			return;
		if (v == 0) {
			*lo = *hi = 0;
		} else if (v > 0) {
			*lo = v / (1 + tolerance);
			*hi = v / (1 - tolerance);
		} else {
			*lo = v / (1 - tolerance);
			*hi = v / (1 + tolerance);
		}
	}
}

static const char *const class_names[QC_CLASSES] = {
	[QC_MONEY] = "money", [QC_PERCENT] = "percent", [QC_DURATION] = "duration",
	[QC_QUARTER] = "quarter", [QC_COUNT] = "count", [QC_NUMBER] = "number",
	[QC_YEAR] = "year", [QC_DATE] = "date", [QC_TIME] = "time",
	[QC_TEMPERATURE] = "temperature", [QC_ORDINAL] = "ordinal", [QC_IDENT] = "identifier",
	[QC_PHONE] = "phone",
};

const char *quantity_class_name(enum quantity_class k)
{
	return class_names[k];
}

int quantity_class_parse(const char *name)
{
	int k;

	for (k = 0; k < QC_CLASSES; k++)
		if (strcmp(name, class_names[k]) == 0)
			return k;
	return -1;
}

enum quantity_class quantity_class_of(const struct quantity *q)
{
	switch (q->kind) {
	case QUANTITY_COUNT:
		return QC_COUNT;
	case QUANTITY_NUMBER:
		return QC_NUMBER;
	case QUANTITY_YEAR:
		return QC_YEAR;
	case QUANTITY_DATE:
		return QC_DATE;
	case QUANTITY_TIME:
		return QC_TIME;
	case QUANTITY_TEMPERATURE:
		return QC_TEMPERATURE;
	case QUANTITY_ORDINAL:
		return QC_ORDINAL;
	case QUANTITY_IDENT:
		return UNIT_IS(q->unit, QUANTITY_PHONE) ? QC_PHONE : QC_IDENT;
	case QUANTITY_BASE:
		break;
	}
	if (UNIT_IS(q->unit, "percent"))
		return QC_PERCENT;
	if (UNIT_IS(q->unit, "seconds"))
		return QC_DURATION;
	if (UNIT_IS(q->unit, "quarter"))
		return QC_QUARTER;
	if (UNIT_IS(q->unit, "ratio"))
		return QC_NUMBER; /* "11.9:1": reported as a bare number is */
	return QC_MONEY;
}

bool quantity_periods_differ(uint32_t a, uint32_t b)
{
	uint32_t ya = QUANTITY_PERIOD_YEAR(a), yb = QUANTITY_PERIOD_YEAR(b);
	uint32_t qa = QUANTITY_PERIOD_QUARTER(a), qb = QUANTITY_PERIOD_QUARTER(b);

	if (QUANTITY_PERIOD_RELATIVE(a) || QUANTITY_PERIOD_RELATIVE(b))
		return QUANTITY_PERIOD_RELATIVE(a) && QUANTITY_PERIOD_RELATIVE(b) && a != b;
	return a && b && ((ya && yb && ya != yb) || (qa && qb && qa != qb));
}

void quantity_period_text(uint32_t p, char *out, size_t n)
{
	uint32_t y = QUANTITY_PERIOD_YEAR(p), q = QUANTITY_PERIOD_QUARTER(p);

	if (p == QUANTITY_PERIOD_PRIOR_YEAR || p == QUANTITY_PERIOD_PRIOR_QUARTER)
		snprintf(out, n, "the prior %s",
			 p == QUANTITY_PERIOD_PRIOR_YEAR ? "year" : "quarter");
	else if (q && y)
		snprintf(out, n, "Q%u %u", q, y);
	else if (q)
		snprintf(out, n, "Q%u", q);
	else if (y)
		snprintf(out, n, "%u", y);
	else if (n)
		out[0] = '\0';
}
