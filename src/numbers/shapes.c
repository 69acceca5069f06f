// SPDX-License-Identifier: MIT
/*
 * The shapes a figure is read in before it is an expression: versions, hex numbers, dates with
 * slashes and ISO dates, phone numbers, street addresses, bracketed references, names that
 * hold a number. (Split from numlex.c by scripts/split.py.)
 */
#include "numlex.h"
#include "numlex_int.h"

#include "common/fmath.h"
#include "common/util.h"
#include "lex.h"
#include "vocab.h"
#include "wordlists.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- shapes read before an expression ---- */

/* Parts of a dotted version at i ("1.16.0", "3.11"): packed in base 1000, and its end; 0 parts if none. */
static int read_version(struct numlex_state *lx, size_t i, double *v, size_t *end)
{
	int parts = 0, c;

	*v = 0;
	for (;;) {
		size_t s = i;
		double part = 0;

		while (is_digit(c = B(lx, i)) && i - s < 4)
			part = part * 10 + (c - '0'), i++;
		if (i == s || is_digit(c) || part > 999 || parts == 5)
			return 0;
		*v = *v * 1000 + part;
		parts++;
		if (B(lx, i) != '.' || !is_digit(B(lx, i + 1)))
			break;
		i++;
	}
	*end = i;
	return is_alnum(B(lx, i)) ? 0 : parts;
}

static int hex_digit(int c)
{
	return is_digit(c) ? c - '0' : (lower(c) >= 'a' && lower(c) <= 'f') ? lower(c) - 'a' + 10 : -1;
}

/*
 * "0x14", "0xffffffff" at p: a bare number of its value (NUMLEX_HEX); its
 * end, or 0 when the digits run on into letters or "_" ("0x1g", "0x1_ff")
 * or hold more than 13 significant ones (no longer exact in a double).
 */
size_t lex_hex_number(struct numlex_state *lx, size_t p)
{
	struct quantity q;
	size_t i = p + 2, sig = 0;
	double v = 0;
	int d;

	if (B(lx, p) != '0' || lower(B(lx, p + 1)) != 'x')
		return 0;
	for (; (d = hex_digit(B(lx, i))) >= 0; i++) {
		if (i - p > 2 + 24)
			return 0;
		sig += v > 0 || d > 0;
		v = v * 16 + d;
	}
	if (i == p + 2 || sig > 13 || is_alpha(B(lx, i)) || B(lx, i) == '_')
		return 0;
	quantity_set(&q, QUANTITY_NUMBER, "number", v, 1);
	emit_one(lx, p, i, &q, NUMLEX_HEX);
	return i;
}

/* A version at p (after a name when w is not NULL): emits it; its end, or 0. */
size_t lex_version(struct numlex_state *lx, size_t from, size_t p, const struct word *w, int min_parts)
{
	struct quantity q;
	char unit[QUANTITY_UNIT_MAX];
	double v;
	size_t end;
	int parts = read_version(lx, p, &v, &end);

	/* (no parts: end is unset) */
	if (parts == 0 || parts < min_parts)
		return 0;
	if (!lex_name_unit(lx, unit, "version:", w ? w->ws : 0, w ? w->we : 0, ""))
		return 0;
	quantity_set(&q, QUANTITY_IDENT, unit, v, 1);
	emit_one(lx, from, end, &q, NUMLEX_VERSION);
	return end;
}

/* Digits joined by "/": "24/7" is a fixed phrase; fractions, dates, ratios and paths give nothing. */
size_t lex_slashed(struct numlex_state *lx, size_t p, size_t dend)
{
	size_t e = dend;
	struct quantity q;

	if (B(lx, dend) != '/' || !is_digit(B(lx, dend + 1)))
		return 0;
	if (dend - p == 2 && B(lx, p) == '2' && B(lx, p + 1) == '4' && B(lx, dend + 1) == '7' &&
	    !is_alnum(B(lx, dend + 2)) && B(lx, dend + 2) != '/') {
		quantity_set(&q, QUANTITY_NUMBER, "number", 24, 1);
		emit_one(lx, p, dend + 2, &q, NUMLEX_FIXED_PHRASE);
		return dend + 2;
	}
	while (is_alnum(B(lx, e)) || B(lx, e) == '/')
		e++;
	return e;
}

/*
 * A phone number at p: "555 0100", "555-0100" (not a round range like
 * "500-1000"), "415-555-0100", "(415) 555-0100", "415.555.0100", "+1 415
 * 555 0100", "1-415-555-0100", "+44 20 7946 0958". Its end, or 0. A whole
 * number (ten digits of the North American plan, with or without its
 * country code 1, or an international one after "+") is emitted as an
 * identifier, unit "ident:phone", whose value is its digits (the plan's
 * without the 1): the same number however it is spaced states it, and one
 * digit changed is another number. A local "555-0100" is too little to
 * compare (which area?) and gives nothing.
 */
size_t lex_phone(struct numlex_state *lx, size_t p)
{
	size_t len[6], n = 0, i = p, end = p, total = 0, from = p, g, ndig, used = 0;
	int sep = 0, c0 = B(lx, p - 1);
	double first = 0, value = 0;
	bool whole = false, drop;
	struct quantity q;

	while (n < ARRAY_SIZE(len)) {
		size_t s = i, k = 0;
		int c;

		while (is_digit(c = B(lx, i)))
			i++;
		len[n++] = i - s;
		total += i - s;
		end = i;
		if (n == 1)
			for (k = s; k < i && k - s < 6; k++)
				first = first * 10 + (B(lx, k) - '0');
		/* One or two separators: " ", "-", ".", ")", "(" */
		for (k = 0; k < 2 && (c = B(lx, i)) && (c == ' ' || c == '-' || c == '.' || c == '(' ||
						      c == ')'); k++, i++)
			if (!sep && c != '(' && c != ')')
				sep = c;
		if (k == 0 || !is_digit(B(lx, i)))
			break;
	}
	if (c0 == '+' && total <= 15 && (n >= 2 ? total >= 8 : total >= 10)) {
		/* "+44 20 7946 0958", "+14155550100" */
		whole = true;
		used = n;
	} else if (n >= 4 && len[0] == 1 && first == 1 && len[1] == 3 && len[2] == 3 &&
		   len[3] == 4 && sep != ' ') {
		/* "1-415-555-0100", "1.415.555.0100"; not "1 415 555 0100", a
		 * list of figures as likely */
		whole = true;
		used = 4;
	} else if (n >= 3 && len[0] == 3 && len[1] == 3 && len[2] == 4) {
		whole = true;
		used = 3;
	} else if (n == 2 && len[0] == 3 && len[1] == 4 && c0 != '.') {
		if (sep == ' ')
			return end;
		if (sep == '-' && (B(lx, end - 4) == '0' || fmath_fmod(first, 10) != 0))
			return end;
		return 0;
	} else {
		return 0;
	}
	if (!whole)
		return end;
	/* Its digits, group by group (at most 15: exact in a double); the
	 * plan's country code is left out, so "+1 415 555 0100" states
	 * "(415) 555-0100". */
	for (g = 0, ndig = 0; g < used; g++)
		ndig += len[g];
	drop = len[0] == 1 && first == 1 && ndig == 11;
	for (i = p, g = 0; g < used; g++) {
		while (!is_digit(B(lx, i)))
			i++;
		for (; is_digit(B(lx, i)); i++)
			if (!(g == 0 && drop))
				value = value * 10 + (B(lx, i) - '0');
	}
	if (n == 1 && ndig == 11 && B(lx, p) == '1')
		value -= 1e10; /* "+14155550100": the plan's, as above */
	if ((c0 == '+' || c0 == '(') && p > lx->done)
		from = p - 1;
	quantity_set(&q, QUANTITY_IDENT, QUANTITY_PHONE, value, 1);
	emit_one(lx, from, i, &q, 0);
	return end;
}

/* The words that end a street's name ("Main Street", "Fifth Ave"): words/numbers.txt [street]. */
static bool street_word(struct numlex_state *lx, size_t ws, size_t we)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words_street); i++)
		if (spells(lx, ws, we, words_street[i]))
			return true;
	return false;
}

/*
 * A street address's house number at p, digits to dend: "1234 Main St",
 * "55 Fifth Avenue", "377 Santana Row", "123-04 Roosevelt Ave" (a Queens
 * number, its digits read as one). One to three capitalised words name the
 * street, then a word that ends a street's name. Emitted as an identifier
 * of the street, unit "ident:st:<name>" (the name's letters, lowercased,
 * without the "Street" word: "Main St" is "Main Street"), whose value is
 * the house number: another number on the same street is another address.
 * Its end, or 0.
 */
size_t lex_street(struct numlex_state *lx, size_t p, size_t dend)
{
	char unit[QUANTITY_UNIT_MAX] = QUANTITY_STREET;
	size_t i = dend, u = strlen(QUANTITY_STREET), names, ws, we = 0, k;
	struct quantity q;
	double v = 0;
	int c0 = B(lx, p - 1);

	if (dend - p > 6 || is_alnum(c0) || c0 == '$' || c0 == '.' || c0 == ',' || c0 == '-' ||
	    c0 == '+' || c0 == ':')
		return 0;
	for (k = p; k < dend; k++)
		v = v * 10 + (B(lx, k) - '0');
	if (B(lx, i) == '-') {
		for (k = ++i; is_digit(B(lx, i)) && i - k < 3; i++)
			v = v * 10 + (B(lx, i) - '0');
		if (i - k < 1 || i - k > 2)
			return 0;
	}
	if (B(lx, i) != ' ')
		return 0;
	for (names = 0, i++; names <= 3; names++, i = we + 1) {
		ws = i;
		if (!is_upper(B(lx, ws)))
			return 0;
		we = letters_end(lx, ws);
		if (is_digit(B(lx, we)) || B(lx, we) == '_' || B(lx, we) == '-')
			return 0;
		if (names > 0 && street_word(lx, ws, we))
			break;
		for (k = ws; k < we && u + 1 < sizeof(unit); k++)
			unit[u++] = (char)lower(B(lx, k));
		if (B(lx, we) != ' ')
			return 0;
	}
	if (names == 0 || names > 3)
		return 0;
	unit[u] = '\0';
	quantity_set(&q, QUANTITY_IDENT, unit, v, 1);
	emit_one(lx, p, we, &q, 0);
	return we;
}

/*
 * The two digits of a date's month or day at i: the position after them
 * and *v, or 0. Where *stray, they may have one blank between them (a
 * tool's "2022-0 3-04", a record typed by hand): read as the date a reader
 * takes it for, once a date (*stray cleared).
 */
static size_t date_digits(struct numlex_state *lx, size_t i, int *v, bool *stray)
{
	if (!is_digit(B(lx, i)))
		return 0;
	if (is_digit(B(lx, i + 1))) {
		*v = (B(lx, i) - '0') * 10 + (B(lx, i + 1) - '0');
		return i + 2;
	}
	if (!*stray || B(lx, i + 1) != ' ' || !is_digit(B(lx, i + 2)) || is_digit(B(lx, i + 3)))
		return 0;
	*stray = false;
	*v = (B(lx, i) - '0') * 10 + (B(lx, i + 2) - '0');
	return i + 3;
}

/* "2013-09-08", "2013-09-08T17:30:24Z", "2013-09-08 17:30": a year, a day and a time. */
size_t lex_iso_date(struct numlex_state *lx, size_t p)
{
	struct out out;
	struct opnd t;
	struct quantity q;
	size_t i = p, e;
	int k, year = 0, month, day;
	bool stray = true;

	out.n = 0;
	for (k = 0; k < 4; k++)
		if (!is_digit(B(lx, i + k)))
			return 0;
		else
			year = year * 10 + (B(lx, i + k) - '0');
	if (B(lx, i + 4) != '-' || !(e = date_digits(lx, i + 5, &month, &stray)) || B(lx, e) != '-' ||
	    !(e = date_digits(lx, e + 1, &day, &stray)) || (is_alnum(B(lx, e)) && B(lx, e) != 'T'))
		return 0;
	if (year < 1000 || year > 2999 || month < 1 || month > 12 || day < 1 || day > 31)
		return 0;
	quantity_set(&q, QUANTITY_YEAR, "date:year", year, 1);
	lex_push(&out, p, p + 4, &q, NUMLEX_PART);
	quantity_set(&q, QUANTITY_DATE, "date:day", month * 100 + day, 1);
	lex_push(&out, p + 5, e, &q, NUMLEX_PART);
	if ((B(lx, e) == 'T' || B(lx, e) == ' ') && is_digit(B(lx, e + 1)) && is_digit(B(lx, e + 2)) &&
	    B(lx, e + 3) == ':') {
		size_t te;

		memset(&t, 0, sizeof(t));
		if (lex_read_digits(lx, e + 1, &t.x) && (te = lex_clock_digits(lx, &t, t.x.to))) {
			lex_quantity_of(&t, &q);
			lex_push(&out, e + 1, te, &q, NUMLEX_PART);
			e = te;
			if (B(lx, e) == 'Z')
				e++;
			else if ((B(lx, e) == '+' || B(lx, e) == '-') && is_digit(B(lx, e + 1)) &&
				 is_digit(B(lx, e + 2)))
				/* "+05:30" or "+05"; a "+05:3" leaves ":3" outside. */
				e += B(lx, e + 3) == ':' && is_digit(B(lx, e + 4)) &&
						     is_digit(B(lx, e + 5))
					     ? 6
					     : 3;
		}
	}
	lex_flush(lx, &out, p, e);
	return e;
}

/* "[2]", "[1, 3]", "[1-3]": references, each number its own item. Its end, or 0. */
size_t lex_bracket_refs(struct numlex_state *lx, size_t p)
{
	struct quantity q;
	struct num x;
	size_t i = p;

	/* Read to "]" first: nothing is emitted unless the brackets close. */
	while (is_digit(B(lx, i)) || B(lx, i) == ',' || B(lx, i) == ' ' || B(lx, i) == '-')
		i++;
	if (B(lx, i) != ']' || i - p > 32)
		return 0;
	for (i = p; B(lx, i) != ']';) {
		if (!is_digit(B(lx, i))) {
			i++;
			continue;
		}
		if (!lex_read_digits(lx, i, &x))
			return x.to;
		quantity_set(&q, QUANTITY_NUMBER, "number", x.v, 1);
		emit_one(lx, x.from, x.to, &q, NUMLEX_REFERENCE);
		if (lx->rc < 0)
			return x.to;
		i = x.to;
	}
	return i + 1;
}

/* "Passage 2", "Passages 1 and 2", "Table 3-4": references. ws: the noun's start. */
size_t lex_references(struct numlex_state *lx, size_t ws, size_t p)
{
	struct quantity q;
	struct num x;
	size_t from = ws, i = p;
	int k;

	for (k = 0; k < 8; k++) {
		size_t j;
		struct word w;

		if (!lex_read_digits(lx, i, &x) || !whole(&x, 0, 1e6))
			return MAX(x.to, p + 1);
		quantity_set(&q, QUANTITY_NUMBER, "number", x.v, 1);
		emit_one(lx, from, x.to, &q, NUMLEX_REFERENCE);
		if (lx->rc < 0)
			return x.to;
		i = x.to;
		j = B(lx, i) == ',' ? i + 1 : i;
		j = skip_blanks(lx, j);
		/* ("steps 4 through 6", "steps 4 to 6": the run's end too) */
		if (word_at(lx, j, &w) && (spells(lx, w.ws, w.we, "and") || spells(lx, w.ws, w.we, "or") ||
					   spells(lx, w.ws, w.we, "through") || spells(lx, w.ws, w.we, "thru") ||
					   spells(lx, w.ws, w.we, "to")))
			j = skip_blanks(lx, w.we);
		else if (B(lx, j) == '&' || B(lx, j) == '-')
			j = skip_blanks(lx, j + 1);
		if (j == i || !is_digit(B(lx, j)) || is_alnum(B(lx, j - 1)))
			break;
		i = from = j;
	}
	return i;
}

/* "Windows 10", "iPhone 15", "Python 3.11", "version 2": an identifier or a version. */
size_t lex_named_number(struct numlex_state *lx, const struct word *w, size_t p)
{
	struct quantity q;
	struct num x;
	char unit[QUANTITY_UNIT_MAX];
	size_t end;

	if (B(lx, p) == '0' && is_digit(B(lx, p + 1)))
		return 0;
	if ((end = lex_version(lx, w->ws, p, (roles(w) & R_VERWORD) ? NULL : w, 2)))
		return end;
	if (!lex_read_digits(lx, p, &x) || !whole(&x, 0, 999999) || is_alpha(B(lx, x.to)))
		return 0;
	if (roles(w) & R_VERWORD) {
		quantity_set(&q, QUANTITY_IDENT, "version:", x.v, 1);
		emit_one(lx, w->ws, x.to, &q, NUMLEX_VERSION);
		return x.to;
	}
	if (!lex_name_unit(lx, unit, "ident:", w->ws, w->we, "#"))
		return 0;
	quantity_set(&q, QUANTITY_IDENT, unit, x.v, 1);
	emit_one(lx, w->ws, x.to, &q, 0);
	return x.to;
}

/* "COVID-19", "SARS-CoV-2", "F-35", "mid-2020": digits after letters and a hyphen at p - 1. */
size_t lex_hyphen_name(struct numlex_state *lx, size_t p)
{
	struct quantity q;
	struct num x;
	char unit[QUANTITY_UNIT_MAX];
	size_t cs = p - 1, k, end;
	const struct vword *v = NULL;
	bool upper = false, one_word = true;
	struct word w;

	while (is_alpha(B(lx, cs - 1)) || (B(lx, cs - 1) == '-' && is_alpha(B(lx, cs - 2)))) {
		cs--;
		if (p - 1 - cs > 24)
			return lex_expression(lx, p);
	}
	if (is_alnum(B(lx, cs - 1)) || B(lx, cs - 1) == '_' ||
	    (cs == lx->low && cs > 0 && is_alpha((unsigned char)lx->t[cs - 1])))
		return lex_expression(lx, p);
	for (k = cs; k < p - 1; k++) {
		upper |= is_upper(B(lx, k));
		one_word &= B(lx, k) != '-';
	}
	if (one_word)
		v = vocab_find(lx->t + cs, p - 1 - cs);
	/* "meeting-agenda-2024-05-15.docx": a name's date is a date, as
	 * "2024-05-08_notes.docx" is; not the range "2024-05" */
	if (B(lx, p + 4) == '-' && (end = lex_iso_date(lx, p)))
		return end;
	if (!lex_read_digits(lx, p, &x))
		return MAX(x.to, p + 1);
	if (v && (v->roles & R_DATING) && yearish(&x)) {
		/* "mid-2020", "pre-1990"; "mid-1990s", "late-1990's": its decade
		 * (not "pre-1990s": no year of it) */
		end = decade_digits(&x) && strcmp(v->w, "pre") && strcmp(v->w, "post")
			      ? decade_s(lx, x.to)
			      : 0;
		if (!end && is_alpha(B(lx, x.to)))
			return lex_token_end(lx, x.to);
		quantity_set_year(&q, x.v, end != 0);
		/* "pre-1990", "post-2000": a side of a bound, as "before 1990" */
		emit_one(lx, cs, end ? end : x.to, &q,
			 end ? 0
			 : !strcmp(v->w, "pre") ? NUMLEX_BELOW
			 : !strcmp(v->w, "post") ? NUMLEX_ABOVE : 0);
		return end ? end : x.to;
	}
	if (!upper && !(v && (v->roles & R_PRODUCT)))
		return lex_expression(lx, p);
	w.ws = cs;
	w.we = p - 1;
	w.v = v;
	if ((end = lex_version(lx, cs, p, &w, 2)))
		return end;
	if (!whole(&x, 0, 999999) || x.comma || is_alpha(B(lx, x.to)) ||
	    !lex_name_unit(lx, unit, "ident:", cs, p - 1, "#"))
		return lex_token_end(lx, x.to);
	quantity_set(&q, QUANTITY_IDENT, unit, x.v, 1);
	emit_one(lx, cs, x.to, &q, 0);
	return x.to;
}
