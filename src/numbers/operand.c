// SPDX-License-Identifier: MIT
/*
 * The number lexer's operands: one number, in digits or in words, with its
 * currency, scale and unit ("$1.2 billion", "March 26, 2024", "5 pm",
 * "twenty five", "72 °F", "5km"), and what follows it.
 */
#include "lex.h"

#include <math.h>

#include "common/fmath.h"
#include "wordlists.h"

/* ---- numbers ---- */

static const double pow10_table[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
				     1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/*
 * Digits at p: "1,234,567.89" (a first group of one to three digits, then
 * groups of exactly three). Up to 15 digits the integer they spell is exact
 * in a double, and one division by 10^decimals gives what strtod() gives.
 * False when there are more (x->to is then the end of the run).
 */
bool lex_read_digits(struct numlex_state *lx, size_t p, struct num *x)
{
	uint64_t m = 0;
	int count = 0, dec = 0, c;
	size_t i = p;

	memset(x, 0, sizeof(*x));
	x->from = p;
	while (is_digit(c = B(lx, i))) {
		m = m * 10 + (uint64_t)(c - '0');
		count++;
		i++;
		if (count > 15) {
			while (is_digit(B(lx, i)) || B(lx, i) == '.' || B(lx, i) == ',')
				i++;
			x->to = i;
			return false;
		}
	}
	while (count <= 15 && B(lx, i) == ',' && is_digit(B(lx, i + 1)) && is_digit(B(lx, i + 2)) &&
	       is_digit(B(lx, i + 3)) && !is_digit(B(lx, i + 4)) && (x->comma || count <= 3)) {
		size_t g;

		for (g = i + 1; g < i + 4; g++)
			m = m * 10 + (uint64_t)(B(lx, g) - '0');
		count += 3;
		i += 4;
		x->comma = true;
	}
	x->idigits = count;
	if (B(lx, i) == '.' && is_digit(B(lx, i + 1))) {
		i++;
		while (is_digit(c = B(lx, i))) {
			m = m * 10 + (uint64_t)(c - '0');
			count++;
			dec++;
			i++;
		}
	}
	x->to = i;
	if (count > 15)
		return false;
	x->v = (double)m / pow10_table[dec];
	x->decimals = dec;
	return true;
}

/* What a cardinal word does in a composition. */
enum wclass { W_NONE, W_A, W_UNIT, W_TEEN, W_TEN, W_HUNDRED, W_SCALE, W_DOZEN };

static enum wclass word_class(const struct vword *v)
{
	if (v->num >= 1000)
		return W_SCALE;
	if (v->num == 100)
		return W_HUNDRED;
	if (v->w[0] == 'd')
		return W_DOZEN;
	if (v->num < 10)
		return W_UNIT;
	return v->num < 20 ? W_TEEN : W_TEN;
}

/*
 * Decimals said in words after a number in words, as transcripts have
 * them: "three point five" (3.5), "one point two five" (a digit word a
 * place), "twelve dot fifty" (12.50: a tens word, or tens and a unit, is
 * two places). Extends x when they follow it; "at one point he" is left.
 */
static void spoken_decimals(struct numlex_state *lx, struct num *x)
{
	struct word w;
	size_t j = skip_blanks(lx, x->to), end = 0;
	double frac = 0, place = 0.1;
	int places = 0;

	if (!word_at(lx, j, &w) || !(spells(lx, w.ws, w.we, "point") || spells(lx, w.ws, w.we, "dot")))
		return;
	j = skip_blanks(lx, w.we);
	while (places < 6 && word_at(lx, j, &w) && w.v && (w.v->roles & R_CARD) && w.v->num < 10 &&
	       word_class(w.v) == W_UNIT) {
		frac += w.v->num * place;
		place /= 10;
		places++;
		end = w.we;
		j = skip_blanks(lx, w.we);
	}
	if (places == 0 && word_at(lx, j, &w) && w.v && (w.v->roles & R_CARD) &&
	    (word_class(w.v) == W_TEN || word_class(w.v) == W_TEEN)) {
		frac = w.v->num / 100.0;
		end = w.we;
		places = 2;
		j = skip_blanks(lx, w.we);
		if (B(lx, j) == '-')
			j = skip_blanks(lx, j + 1);
		if (word_class(w.v) == W_TEN && word_at(lx, j, &w) && w.v && (w.v->roles & R_CARD) &&
		    word_class(w.v) == W_UNIT && w.v->num > 0) {
			frac += w.v->num / 100.0;
			end = w.we;
		}
	}
	if (places == 0)
		return;
	x->v += frac;
	x->decimals = places;
	x->to = end;
}

/*
 * Number words at p: "zero" .. "ninety-nine", "twenty five", "two hundred
 * and forty", "two hundred thousand", "a dozen", "a million", and the
 * ordinals "third", "twenty-first". a_before: an "a" comes first (so
 * "hundred", "thousand", "dozen" may start).
 */
static bool read_words(struct numlex_state *lx, size_t p, bool a_before, struct num *x)
{
	enum wclass last = a_before ? W_A : W_NONE;
	double total = 0, cur = a_before ? 1 : 0, last_scale = INFINITY;
	size_t i = p;
	int nwords = 0;

	memset(x, 0, sizeof(*x));
	x->from = p;
	x->to = p;
	x->words = true;
	while (nwords < 12) {
		struct word w;
		enum wclass k;
		size_t j;

		if (!word_at(lx, i, &w) || !w.v || !(w.v->roles & (R_CARD | R_ORD)))
			break;
		if (!(w.v->roles & R_CARD)) {
			/* An ordinal ends a number: "third", "twenty-first". */
			if (last == W_NONE || (last == W_TEN && w.v->num < 10)) {
				cur += w.v->num;
				x->ordinal = true;
				x->to = w.we;
			}
			break;
		}
		k = word_class(w.v);
		switch (k) {
		case W_UNIT:
			if (w.v->num == 0) {
				if (last != W_NONE)
					goto out;
			} else if (last != W_NONE && last != W_TEN && last != W_HUNDRED && last != W_SCALE) {
				goto out;
			}
			cur += w.v->num;
			break;
		case W_TEEN:
		case W_TEN:
			if (last != W_NONE && last != W_HUNDRED && last != W_SCALE)
				goto out;
			cur += w.v->num;
			break;
		case W_HUNDRED:
			if (last != W_A && last != W_UNIT && last != W_TEEN && last != W_TEN)
				goto out;
			cur *= 100;
			break;
		case W_SCALE:
			if (last == W_NONE || last == W_SCALE || last == W_DOZEN || w.v->num >= last_scale)
				goto out;
			total += cur * w.v->num;
			cur = 0;
			last_scale = w.v->num;
			break;
		case W_DOZEN:
			if (last != W_A && last != W_UNIT && last != W_TEEN)
				goto out;
			cur *= 12;
			break;
		default:
			goto out;
		}
		last = k;
		x->to = w.we;
		nwords++;
		if (k == W_DOZEN || (k == W_UNIT && w.v->num == 0))
			break;
		/* The next word: after "-", blanks, " - " (transcripts write "twenty -
		 * five"), or "and" after a hundred or a scale. */
		j = skip_blanks(lx, w.we);
		if (B(lx, j) == '-')
			j = skip_blanks(lx, j + 1);
		if (j == w.we)
			break;
		if ((last == W_HUNDRED || last == W_SCALE) && reads(lx, j, "and") &&
		    !is_alpha(B(lx, j + 3))) {
			struct word n2;

			if (!word_at(lx, skip_blanks(lx, j + 3), &n2) || !n2.v ||
			    !(n2.v->roles & R_CARD) || n2.v->num >= 100)
				break;
			j = n2.ws;
		}
		i = j;
	}
out:
	if (x->to == p || last == W_A)
		return false;
	if (last == W_NONE && !x->ordinal)
		return false;
	x->v = total + cur;
	if (!x->ordinal && last != W_DOZEN)
		spoken_decimals(lx, x);
	return true;
}

/* ---- operands: one number with its currency, scale and unit ---- */

/* "am", "pm", "a.m.", "p.m." (any case) at i: U_AM or U_PM, and *end; or 0. */
static int meridiem_at(struct numlex_state *lx, size_t i, size_t *end)
{
	int c = lower(B(lx, i)), m = c == 'a' ? U_AM : c == 'p' ? U_PM : 0;

	if (!m)
		return 0;
	if (lower(B(lx, i + 1)) == 'm' && !is_alnum(B(lx, i + 2))) {
		*end = i + 2;
		return m;
	}
	if (B(lx, i + 1) == '.' && lower(B(lx, i + 2)) == 'm') {
		*end = B(lx, i + 3) == '.' ? i + 4 : i + 3;
		if (is_alnum(B(lx, *end)))
			return 0;
		return m;
	}
	return 0;
}

/* A degree sign at i ("°", "º", "℃", "℉"), then the scale: the unit and *end, or 0. */
static int degrees_at(struct numlex_state *lx, size_t i, size_t *end)
{
	int c = B(lx, i), c1 = B(lx, i + 1), c2 = B(lx, i + 2);
	size_t j;
	struct word w;

	if (c == 0xE2 && c1 == 0x84 && (c2 == 0x83 || c2 == 0x89)) {
		*end = i + 3;
		return c2 == 0x83 ? U_CELSIUS : U_FAHRENHEIT;
	}
	if (c != 0xC2 || (c1 != 0xB0 && c1 != 0xBA))
		return 0;
	j = skip_blanks(lx, i + 2);
	*end = i + 2;
	if ((B(lx, j) == 'F' || B(lx, j) == 'C') && !is_alnum(B(lx, j + 1))) {
		*end = j + 1;
		return B(lx, j) == 'F' ? U_FAHRENHEIT : U_CELSIUS;
	}
	if (word_at(lx, j, &w) && w.v && unit_info[w.v->unit].cls == UC_TEMP && w.v->unit != U_DEGREE) {
		*end = w.we;
		return w.v->unit;
	}
	return U_DEGREE;
}

/* After "degrees": an optional scale ("F", "Celsius"). */
static int degree_scale(struct numlex_state *lx, size_t i, size_t *end)
{
	size_t j = skip_blanks(lx, i);
	struct word w;

	*end = i;
	if ((B(lx, j) == 'F' || B(lx, j) == 'C') && !is_alnum(B(lx, j + 1)) && j > i) {
		*end = j + 1;
		return B(lx, j) == 'F' ? U_FAHRENHEIT : U_CELSIUS;
	}
	if (word_at(lx, j, &w) && w.v && unit_info[w.v->unit].cls == UC_TEMP && w.v->unit != U_DEGREE) {
		*end = w.we;
		return w.v->unit;
	}
	return U_DEGREE;
}

/*
 * A year after a date or a quarter: [","] blanks ["of"] ["fiscal" | "FY"]
 * four digits. Sets o's year and returns its end, or i.
 */
size_t lex_year_after(struct numlex_state *lx, struct opnd *o, size_t i, bool of)
{
	size_t j = i;
	struct num y;
	struct word w;

	if (B(lx, j) == ',')
		j++;
	j = skip_blanks(lx, j);
	if (of && word_at(lx, j, &w) && spells(lx, w.ws, w.we, "of"))
		j = skip_blanks(lx, w.we);
	if (word_at(lx, j, &w) && spells(lx, w.ws, w.we, "fiscal"))
		j = skip_blanks(lx, w.we);
	if (!is_digit(B(lx, j)) || is_alnum(B(lx, j - 1)) || j == i)
		return i;
	if (!lex_read_digits(lx, j, &y) || !yearish(&y) || is_alnum(B(lx, y.to)) ||
	    (B(lx, y.to) == '.' && is_digit(B(lx, y.to + 1))))
		return i;
	o->year = (int)y.v;
	o->year_from = y.from;
	o->year_to = y.to;
	return y.to;
}

/*
 * Whether the k bytes at out end with, or are, the literal s: a compare of
 * known length (strcmp() was a call for each of the six tried).
 */
#define ENDS(out, k, s) (memcmp((out) + (k) - (sizeof(s) - 1), s, sizeof(s) - 1) == 0)
#define SPELLED(out, k, s) ((k) == sizeof(s) - 1 && memcmp(out, s, sizeof(s) - 1) == 0)

/* Lowercase singular of a counted noun: "employees" -> "employee", "inches" -> "inch". */
static void singular(struct numlex_state *lx, size_t ws, size_t we, char *out)
{
	size_t k = MIN(we - ws, (size_t)QUANTITY_UNIT_MAX - 1), i;

	for (i = 0; i < k; i++)
		out[i] = (char)lower(B(lx, ws + i));
	out[k] = '\0';
	if (k > 4 && ENDS(out, k, "ies") && !SPELLED(out, k, "series") && !SPELLED(out, k, "species")) {
		strcpy(out + k - 3, "y");
	} else if (k > 4 && (ENDS(out, k, "ches") || ENDS(out, k, "shes") || ENDS(out, k, "sses") ||
			     ENDS(out, k, "xes"))) {
		out[k - 2] = '\0';
	} else if (k > 3 && out[k - 1] == 's' && out[k - 2] != 's' && out[k - 2] != 'u' &&
		   out[k - 2] != 'i') {
		out[k - 1] = '\0';
	}
}

/* A time of day from o's number, written minutes and meridiem; false if none such. */
bool lex_set_clock(struct opnd *o, int hour, int minute, double second, int prec, int meridiem)
{
	if (meridiem) {
		if (hour < 1 || hour > 12)
			return false;
		hour = hour % 12 + (meridiem == U_PM ? 12 : 0);
	} else if (hour > 24) {
		return false;
	}
	o->kind = K_TIME;
	o->minutes = (hour * 60 + minute) % 1440;
	o->seconds = second;
	o->clock_prec = prec;
	o->meridiem = meridiem;
	return true;
}

/* "17:30", "6:0", "17:30:24" at the number's end: the clock's end, or 0 if no time. */
size_t lex_clock_digits(struct numlex_state *lx, struct opnd *o, size_t i)
{
	int m1 = B(lx, i + 1), m2 = B(lx, i + 2), minute, prec = 1;
	double second = 0;
	size_t e;

	if (!whole(&o->x, 0, 24) || o->x.idigits > 2 || !is_digit(m1))
		return 0;
	if (is_digit(m2)) {
		minute = (m1 - '0') * 10 + (m2 - '0');
		e = i + 3;
	} else if (m1 == '0') {
		minute = 0; /* "17:0", as some JSON writes it */
		e = i + 2;
	} else {
		return 0;
	}
	if (minute > 59 || is_digit(B(lx, e)))
		return 0;
	if (B(lx, e) == ':' && is_digit(B(lx, e + 1)) && is_digit(B(lx, e + 2)) &&
	    !is_digit(B(lx, e + 3))) {
		second = (B(lx, e + 1) - '0') * 10 + (B(lx, e + 2) - '0');
		if (second > 59)
			return 0;
		prec = 0;
		e += 3;
		if (B(lx, e) == '.' && is_digit(B(lx, e + 1))) /* fractions of a second */
			for (e++; is_digit(B(lx, e)); e++)
				;
	}
	lex_set_clock(o, (int)o->x.v, minute, second, prec, 0);
	return e;
}

/* u as written (len letters at u), low the same in lowercase (NULL: u's letters, lowercase). */
static bool glued_unit(struct numlex_state *lx, size_t u, size_t len, const char *low)
{
	char buf[8];
	size_t i, k;
	bool lowercase = true;

	if (len >= sizeof(buf))
		return false;
	for (k = 0; k < len; k++) {
		lowercase &= is_lower(B(lx, u + k));
		buf[k] = (char)lower(B(lx, u + k));
	}
	if (!low)
		low = buf;
	for (i = 0; i < ARRAY_SIZE(words_glued_units); i++) {
		const char *g = words_glued_units[i];

		/* (no strlen() of a unit: the len bytes compared are letters,
		 * never NUL, so a shorter unit stops the walk at its NUL and
		 * a longer one has none at len; a strlen() each made a call
		 * a thousand instructions, "one of" and "5 in" asking) */
		for (k = 0; k < len && (lowercase ? lower(g[k]) == low[k] : g[k] == B(lx, u + k)); k++)
			;
		if (k == len && g[len] == '\0')
			return true;
	}
	return false;
}

/* The end of the run of letters, digits and "_" at i. */
size_t lex_token_end(struct numlex_state *lx, size_t i)
{
	int c;

	while (is_alnum(c = B(lx, i)) || c == '_')
		i++;
	return i;
}

/*
 * Letters glued to the digits just read ("28th", "5pm", "$5M", "1990s", "10x",
 * "3Q21", "5km", "3D"): sets o and returns where the operand goes on.
 */
static size_t glued_letters(struct numlex_state *lx, struct opnd *o, size_t i)
{
	size_t j = letters_end(lx, i), len = j - i, k, end;
	int nxt = B(lx, j), c = B(lx, i);
	bool alone = !is_digit(nxt) && nxt != '_';
	char low[8];
	const struct vword *v;

	if (c == 'Q' && len == 1 && whole(&o->x, 1, 4) && o->x.idigits == 1) {
		/* "3Q", "3Q21", "3Q 2021" */
		o->kind = K_QUARTER;
		o->main_to = j;
		if (is_digit(nxt) && is_digit(B(lx, j + 1)) && !is_alnum(B(lx, j + 2))) {
			o->year = 2000 + (nxt - '0') * 10 + (B(lx, j + 1) - '0');
			o->year_from = j;
			o->year_to = j + 2;
			return j + 2;
		}
		if (!alone)
			return lex_token_end(lx, j);
		return lex_year_after(lx, o, j, true);
	}
	if (!alone || len >= sizeof(low)) {
		o->kind = K_SKIP;
		return lex_token_end(lx, j);
	}
	for (k = 0; k < len; k++)
		low[k] = (char)lower(B(lx, i + k));
	low[len] = '\0';
	if (whole(&o->x, 0, 1e15) && (!strcmp(low, "st") || !strcmp(low, "nd") ||
				       !strcmp(low, "rd") || !strcmp(low, "th"))) {
		o->x.ordinal = true;
		o->x.to = j;
		o->kind = K_ORDINAL;
		return j;
	}
	if (meridiem_at(lx, i, &end)) {
		if (!lex_set_clock(o, whole(&o->x, 0, 24) ? (int)o->x.v : 99, 0, 0, 60, meridiem_at(lx, i, &end)))
			o->kind = K_SKIP;
		return end;
	}
	/* A scale: "$300k", "$1.2B", "5M", "$2bn"; lone "m" and "b" only after a currency. */
	if (len == 1 && (c == 'k' || c == 'K' || c == 'M' || c == 'B' || c == 'T' ||
			 (o->currency && (c == 'm' || c == 'b')))) {
		o->scale = c == 'k' || c == 'K' ? 1e3 : c == 'M' || c == 'm' ? 1e6 : c == 'T' ? 1e12 : 1e9;
		o->scale_written = true;
		return j;
	}
	v = vocab_find(low, len);
	if (v && unit_info[v->unit].cls == UC_SCALE && len > 1) {
		o->scale = unit_info[v->unit].factor;
		o->scale_written = true;
		return j;
	}
	if (!strcmp(low, "s")) {
		/* "1990s", "the '90s": a decade, which any year of it states;
		 * "their 20s", "in the 80s" (an age, a temperature): a span,
		 * no figure. An apostrophe's two digits are the last century's,
		 * but for "'00s" and "'10s" ("'20s" is either). */
		if (o->x.idigits == 2 && whole(&o->x, 0, 90) && fmath_fmod(o->x.v, 10) == 0 &&
		    o->x.v != 20 && o->x.from == o->from &&
		    (B(lx, o->from - 1) == '\'' || right_quote(lx, o->from - 3))) {
			o->x.v += o->x.v >= 30 ? 1900 : 2000;
			o->x.idigits = 4;
			o->from = o->main_from = B(lx, o->from - 1) == '\'' ? o->from - 1 : o->from - 3;
		}
		o->kind = decade_digits(&o->x) ? K_YEAR : K_SKIP;
		o->decade = o->kind == K_YEAR;
		return j;
	}
	if (!strcmp(low, "x")) {
		o->kind = K_COUNT; /* "10x": ten times */
		strcpy(o->noun, "time");
		return j;
	}
	if (v && (unit_info[v->unit].cls == UC_DURATION || unit_info[v->unit].cls == UC_PERCENT)) {
		o->kind = unit_info[v->unit].cls == UC_DURATION ? K_DURATION : K_PERCENT;
		o->unit = v->unit;
		return j;
	}
	if (glued_unit(lx, i, len, low)) {
		o->kind = K_COUNT;
		o->measure = true;
		if (!strcmp(low, "lbs"))
			low[2] = '\0';
		strcpy(o->noun, low);
		return j;
	}
	/* "3D", "5G", "4WD": an identifier; other letters glued to digits are an id. */
	for (k = 0; k < len && is_upper(B(lx, i + k)); k++)
		;
	if (k == len && len <= 3 && whole(&o->x, 0, 999999)) {
		o->kind = K_IDENT;
		memcpy(o->noun, "ident:#", 7);
		memcpy(o->noun + 7, low, len + 1);
		return j;
	}
	o->kind = K_SKIP;
	return j;
}

/*
 * The word w starts "year-over-year", "year on year", "quarter-over-quarter"
 * and the like: what a change is measured against, not a unit.
 */
static bool period_over_period(struct numlex_state *lx, const struct word *w)
{
	struct word over, again;
	size_t i = w->we;

	if (B(lx, i) != '-' && !blank_at(lx, i))
		return false;
	if (!word_at(lx, skip_blanks(lx, i + (B(lx, i) == '-')), &over) ||
	    (!spells(lx, over.ws, over.we, "over") && !spells(lx, over.ws, over.we, "on")))
		return false;
	i = over.we;
	if (B(lx, i) != '-' && !blank_at(lx, i))
		return false;
	if (!word_at(lx, skip_blanks(lx, i + (B(lx, i) == '-')), &again) ||
	    again.we - again.ws != w->we - w->ws)
		return false;
	for (i = 0; i < w->we - w->ws; i++)
		if (lower(B(lx, again.ws + i)) != lower(B(lx, w->ws + i)))
			return false;
	return true;
}

/* An ordinal ("third", "3rd") as a quarter: "third quarter", "3rd-quarter". */
static size_t quarter_after(struct numlex_state *lx, struct opnd *o, size_t i)
{
	size_t j = B(lx, i) == '-' ? i + 1 : skip_blanks(lx, i);
	struct word w;

	/* Any ordinal: a "fifth quarter" is a changed number, and states nothing. */
	if (j == i || !whole(&o->x, 1, 99) || !word_at(lx, j, &w) || !spells(lx, w.ws, w.we, "quarter"))
		return i;
	o->kind = K_QUARTER;
	o->main_to = w.we;
	return lex_year_after(lx, o, w.we, true);
}

/*
 * Is w a month's name as a date writes it: capitalized, or in lower case
 * where a source writes dates so ("on may 30", "30 june")? In lower case
 * a full name only (an abbreviation is too often a word), and "may" or
 * "march", verbs too, only before their day after a word that dates one
 * ("on may 30", not "they may 30"), or after their day with a year ("30
 * may 2019").
 */
bool lex_month_word(struct numlex_state *lx, const struct word *w, bool before_day)
{
	struct word p;

	if (!(roles(w) & R_MONTH))
		return false;
	if (is_upper(B(lx, w->ws)))
		return true;
	if (!spells(lx, w->ws, w->we, "may") && !spells(lx, w->ws, w->we, "march"))
		return w->we - w->ws >= 4 && !spells(lx, w->ws, w->we, "sept");
	if (!before_day) {
		/* after its day, only with a year after it: "30 may 2019" */
		size_t j = skip_blanks(lx, w->we);

		return j > w->we && is_digit(B(lx, j)) && is_digit(B(lx, j + 1)) &&
		       is_digit(B(lx, j + 2)) && is_digit(B(lx, j + 3)) && !is_alnum(B(lx, j + 4));
	}
	if (!find_word_before(lx, w->ws, false, &p))
		return false;
	return spells(lx, p.ws, p.we, "on") || spells(lx, p.ws, p.we, "by") ||
	       spells(lx, p.ws, p.we, "since") || spells(lx, p.ws, p.we, "until") ||
	       spells(lx, p.ws, p.we, "till") || spells(lx, p.ws, p.we, "from") ||
	       spells(lx, p.ws, p.we, "before") || spells(lx, p.ws, p.we, "after");
}

/* A day ("26", "26th", "twenty-sixth") and a month after it: "26 March", "26th of March". */
static size_t month_after(struct numlex_state *lx, struct opnd *o, size_t i)
{
	size_t j = skip_blanks(lx, i);
	struct word w;

	if (!whole(&o->x, 1, 31) || (o->x.words && !o->x.ordinal) || o->currency)
		return i;
	if (o->x.ordinal && word_at(lx, j, &w) && spells(lx, w.ws, w.we, "of"))
		j = skip_blanks(lx, w.we);
	if (j == i || !word_at(lx, j, &w) || !lex_month_word(lx, &w, false))
		return i;
	o->kind = K_DATE;
	o->month = (int)w.v->num;
	o->day = (int)o->x.v;
	j = w.we;
	if (B(lx, j) == '.' && w.we - w.ws <= 4)
		j++; /* "26 Jan." */
	o->main_to = j;
	return lex_year_after(lx, o, j, false);
}

/* A past form (-ed, not -eed), a present participle (-ing) or an adverb (-ly), by its ending. */
static bool ends_like_verb(struct numlex_state *lx, size_t ws, size_t we)
{
	size_t k = we - ws;
	int c3 = k >= 3 ? lower(B(lx, we - 3)) : 0, c2 = lower(B(lx, we - 2)), c1 = lower(B(lx, we - 1));

	return (k >= 5 && c2 == 'e' && c1 == 'd' && c3 != 'e') ||
	       (k >= 6 && c3 == 'i' && c2 == 'n' && c1 == 'g') || (k >= 5 && c2 == 'l' && c1 == 'y');
}

/*
 * The words after a number: a scale, a unit, a month, a counted noun. Sets o
 * and returns the operand's end.
 */
static size_t after_number(struct numlex_state *lx, struct opnd *o, size_t i)
{
	int round;

	for (round = 0; round < 4; round++) {
		size_t j = skip_blanks(lx, i), end;
		bool hyphen = false;
		struct word w, w2;
		int u, m;

		if (j == i && B(lx, i) == '-' && is_alpha(B(lx, i + 1))) {
			j = i + 1;
			hyphen = true;
		}
		if (B(lx, j) == '%' && !o->x.ordinal) {
			o->kind = K_PERCENT;
			o->unit = U_PERCENT;
			return j + 1;
		}
		if ((u = degrees_at(lx, j, &end)) && !o->x.ordinal) {
			o->kind = K_TEMP;
			o->unit = u;
			return end;
		}
		if (o->x.ordinal) {
			end = quarter_after(lx, o, i);
			if (end == i)
				end = month_after(lx, o, i);
			if (end == i) {
				o->kind = K_ORDINAL;
				/* "the 35th anniversary", "her 21st birthday": years
				 * since, the noun its unit (as "years" of "35 years") */
				o->anniversary = word_at(lx, j, &w) &&
						 (spells(lx, w.ws, w.we, "anniversary") ||
						  spells(lx, w.ws, w.we, "birthday"));
				if (o->anniversary)
					end = w.we;
			}
			return end;
		}
		if (j == i && !hyphen)
			return i;
		if (reads(lx, j, "and a half") && !is_alpha(B(lx, j + 10)) && !o->scale_written) {
			o->x.v += 0.5;
			o->x.decimals = MAX(o->x.decimals, 1);
			i = j + 10;
			continue;
		}
		if (!hyphen && (m = meridiem_at(lx, j, &end))) {
			if (whole(&o->x, 1, 12) && !o->x.words && !o->currency && o->x.idigits <= 2)
				lex_set_clock(o, (int)o->x.v, 0, 0, 60, m);
			return o->kind == K_TIME ? end : i;
		}
		if (!word_at(lx, j, &w))
			return i;
		u = w.v ? w.v->unit : U_NONE;
		if ((spells(lx, w.ws, w.we, "per") && word_at(lx, skip_blanks(lx, w.we), &w2) &&
		     spells(lx, w2.ws, w2.we, "cent")) ||
		    (spells(lx, w.ws, w.we, "percentage") && word_at(lx, skip_blanks(lx, w.we), &w2) &&
		     (spells(lx, w2.ws, w2.we, "point") || spells(lx, w2.ws, w2.we, "points")))) {
			o->kind = K_PERCENT;
			o->unit = U_PERCENT;
			return w2.we;
		}
		switch (unit_info[u].cls) {
		case UC_SCALE:
			/* (words fold their scale: "two million"; not after spoken decimals) */
			if (o->scale_written || (o->x.words && !o->x.decimals) || hyphen)
				return i;
			o->scale = unit_info[u].factor;
			o->scale_written = true;
			i = w.we;
			continue;
		case UC_PERCENT:
			o->kind = K_PERCENT;
			o->unit = U_PERCENT;
			return w.we;
		case UC_DURATION:
			/* "$3.2 billion a year" is money, and "3.2 billion year over
			 * year" a comparison: neither is a time. */
			if (o->currency || period_over_period(lx, &w))
				return i;
			if (u == U_SECOND && (B(lx, w.we) == '-' || blank_at(lx, w.we)) &&
			    word_at(lx, skip_blanks(lx, w.we + (B(lx, w.we) == '-')), &w2) &&
			    (spells(lx, w2.ws, w2.we, "quarter") || spells(lx, w2.ws, w2.we, "half")))
				return i; /* "fiscal 2022 second-quarter": an ordinal, no unit */
			o->kind = K_DURATION;
			o->unit = u;
			return w.we;
		case UC_MONEY:
			if (!o->currency || u == U_CENT)
				o->currency = u;
			o->kind = K_MONEY;
			return w.we;
		case UC_TEMP:
			o->kind = K_TEMP;
			o->unit = u == U_DEGREE ? degree_scale(lx, w.we, &end) : u;
			return u == U_DEGREE ? end : w.we;
		case UC_MERIDIEM: /* handled above */
		default:
			break;
		}
		if (spells(lx, w.ws, w.we, "noon") && whole(&o->x, 12, 12) && !hyphen) {
			lex_set_clock(o, 12, 0, 0, 60, 0);
			return w.we;
		}
		if ((roles(&w) & R_MONTH) && !hyphen) {
			end = month_after(lx, o, i);
			if (end != i)
				return end;
		}
		/* "one third", "two-thirds", "three quarters": a fraction, no count. */
		if (o->x.words && ((roles(&w) & R_FRACTION) ||
				   ((roles(&w) & R_ORD) && w.v->num >= 3 && w.v->num < 20))) {
			o->kind = K_SKIP;
			return w.we;
		}
		if (yearish(&o->x) && !o->currency && !o->scale_written &&
		    ((roles(&w) & R_YEARNOUN) || is_upper(B(lx, w.ws)))) {
			o->yearnoun = roles(&w) & R_YEARNOUN ? 2 : 1;
			return i;
		}
		if (spells(lx, w.ws, w.we, "plus") && hyphen) {
			o->flags |= NUMLEX_APPROX | NUMLEX_ABOVE; /* "50-plus" */
			i = w.we;
			continue;
		}
		/* "12 whole days", "3 more weeks": a duration past one adjective. */
		if ((roles(&w) & R_ADJ) && round < 3 && !hyphen && !o->currency &&
		    word_at(lx, skip_blanks(lx, w.we), &w2) && w2.v &&
		    unit_info[w2.v->unit].cls == UC_DURATION) {
			i = w.we;
			continue;
		}
		/* A counted noun: lowercase, three letters or more, after one adjective at most. */
		if (o->currency)
			return i;
		if ((roles(&w) & R_ADJ) && round < 3 && word_at(lx, skip_blanks(lx, w.we), &w2) &&
		    !(roles(&w2) & (R_STOP | R_ADJ)) && is_lower(B(lx, w2.ws)) && w2.we - w2.ws >= 3 &&
		    !(w2.v && w2.v->unit)) {
			w = w2;
		}
		if (w.we - w.ws == 2 && !hyphen && glued_unit(lx, w.ws, 2, NULL)) {
			/* "76 cm", "5 kg": a measure of two letters */
			o->kind = K_COUNT;
			o->measure = true;
			o->noun[0] = (char)lower(B(lx, w.ws));
			o->noun[1] = (char)lower(B(lx, w.ws + 1));
			o->noun[2] = '\0';
			return w.we;
		}
		if (!is_lower(B(lx, w.ws)) || w.we - w.ws < 3 || w.we - w.ws > 20 ||
		    (roles(&w) & (R_STOP | R_ADJ | R_CARD | R_ORD | R_FRACTION)))
			return i;
		/* "in 2021 increased", "3-based", "2021 remaining", "10 respectively":
		 * a verb or an adverb, no noun ("5-speed", "20 seed" are nouns) */
		if (ends_like_verb(lx, w.ws, w.we))
			return i;
		o->kind = K_COUNT;
		singular(lx, w.ws, w.we, o->noun);
		o->noun_roles = roles(&w);
		if (!(o->noun_roles & (R_SELF | R_LISTNOUN)) && word_at(lx, skip_blanks(lx, w.we), &w2))
			o->noun_roles |= roles(&w2) & (R_SELF | R_LISTNOUN);
		return w.we;
	}
	return i;
}

/* A currency sign or code at i: U_USD, U_EUR, U_GBP and *end (after blanks), or 0. */
static int currency_at(struct numlex_state *lx, size_t i, size_t *end)
{
	int c = B(lx, i), u = 0;
	struct word w;

	if (c == '$') {
		u = U_USD;
		*end = i + 1;
	} else if (c == 0xE2 && B(lx, i + 1) == 0x82 && B(lx, i + 2) == 0xAC) {
		u = U_EUR;
		*end = i + 3;
	} else if (c == 0xC2 && B(lx, i + 1) == 0xA3) {
		u = U_GBP;
		*end = i + 2;
	} else if ((c == 'U' || c == 'u') && lower(B(lx, i + 1)) == 's' && B(lx, i + 2) == '$') {
		u = U_USD;
		*end = i + 3;
	} else if (is_upper(c) && word_at(lx, i, &w) && (roles(&w) & R_CURCODE) &&
		   is_upper(B(lx, w.we - 1)) && blank_at(lx, w.we)) {
		u = w.v->unit;
		*end = w.we;
	}
	if (u)
		*end = skip_blanks(lx, *end);
	return u;
}

/*
 * One operand at p: [currency] number [glued letters] [words]. p is at the
 * currency, the number, or a month before a day (month > 0, set by the caller).
 */
void lex_operand(struct numlex_state *lx, size_t p, struct opnd *o, int month, size_t num_at)
{
	size_t i = num_at, end;
	int c, m;

	memset(o, 0, sizeof(*o));
	o->from = p;
	o->scale = 1;
	o->kind = K_NONE;
	if (!month && (o->currency = currency_at(lx, p, &end)) && i == p)
		i = end;
	c = B(lx, i);
	if (is_digit(c)) {
		if (!lex_read_digits(lx, i, &o->x)) {
			o->kind = K_SKIP;
			o->to = o->main_to = o->x.to;
			return;
		}
	} else if (is_alpha(c) && !o->currency) {
		struct word w = {0, 0, NULL};
		bool a = false;

		if (word_at(lx, i, &w) && (roles(&w) & R_ARTICLE) && w.we - w.ws == 1) {
			struct word w2;

			/* "a dozen", "a hundred", "a million" */
			if (!word_at(lx, skip_blanks(lx, w.we), &w2) || !(roles(&w2) & R_CARD) ||
			    w2.v->num < 12 || (w2.v->num > 12 && w2.v->num < 100))
				return;
			a = true;
			i = w2.ws;
		}
		if (!read_words(lx, i, a, &o->x))
			return;
		o->x.from = a ? w.ws : o->x.from;
	} else {
		return;
	}
	o->kind = K_NUMBER;
	o->main_from = p;
	i = o->x.to;
	c = B(lx, i);
	if (!o->x.words) {
		if (c == ':' && is_digit(B(lx, i + 1))) {
			end = lex_clock_digits(lx, o, i);
			if (!end && o->x.decimals > 0 && B(lx, i + 1) == '1' && !is_digit(B(lx, i + 2)) &&
			    B(lx, i + 2) != ':' && !(B(lx, i + 2) == '.' && is_digit(B(lx, i + 3)))) {
				/* "11.9:1": a ratio to one (a score or a time has no decimals) */
				o->kind = K_RATIO;
				o->to = o->main_to = i + 2;
				return;
			}
			if (!end) {
				/* "3:1", "16:9": a ratio or a score, not a time */
				o->kind = K_SKIP;
				for (end = i; is_digit(B(lx, end)) || B(lx, end) == ':'; end++)
					;
				o->to = o->main_to = end;
				return;
			}
			i = end;
			end = skip_blanks(lx, i);
			if ((m = meridiem_at(lx, end, &end)) &&
			    !lex_set_clock(o, (int)o->x.v, o->minutes % 60, o->seconds, o->clock_prec, m))
				o->kind = K_SKIP;
			else if (m)
				i = end;
			o->to = o->main_to = i;
			return;
		}
		if (is_alpha(c))
			i = glued_letters(lx, o, i);
		else if (decade_digits(&o->x) && (end = decade_s(lx, i)))
			o->kind = K_YEAR, o->decade = true, i = end; /* "1990's" */
		else if (c == '_')
			o->kind = K_SKIP, i = lex_token_end(lx, i);
		else if (c == '+' && !is_digit(B(lx, i + 1)))
			o->flags |= NUMLEX_APPROX | NUMLEX_ABOVE, i++;
	}
	if (month) {
		/* "March 26", "Jan. 18th", "August twenty-eighth", "March 2024" */
		o->month = month;
		if ((o->kind == K_NUMBER || o->kind == K_ORDINAL) && whole(&o->x, 1, 31) &&
		    o->x.idigits <= 2 && (!o->x.words || o->x.ordinal)) {
			o->kind = K_DATE;
			o->day = (int)o->x.v;
			o->main_to = i;
			o->to = lex_year_after(lx, o, i, false);
			return;
		}
		if (o->kind == K_NUMBER && yearish(&o->x) && !is_alnum(B(lx, i))) {
			o->kind = K_DATE;
			o->day = 0;
			o->main_to = letters_end(lx, p);
			if (B(lx, o->main_to) == '.')
				o->main_to++;
			o->year = (int)o->x.v;
			o->year_from = o->x.from;
			o->year_to = o->x.to;
			o->to = i;
			return;
		}
		o->month = 0;
		o->from = o->main_from = o->x.from;
	}
	if (o->kind == K_NUMBER || o->kind == K_ORDINAL)
		i = after_number(lx, o, i);
	if (o->kind == K_QUARTER || o->kind == K_DATE) {
		if (!o->main_to)
			o->main_to = i;
	} else {
		o->main_to = i;
	}
	if (o->currency && o->kind == K_NUMBER)
		o->kind = K_MONEY;
	o->to = i;
}
