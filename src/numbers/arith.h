/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic written out in a sentence, read and worked exactly: "$110.0 *
 * 3 = $330.0", "3 nights x €120 = €360", "(20 + 30) * 2 * 3 = 300",
 * "Total: 120 + 85 + 40 = 245 EUR", "€280 + €500 = €780", "1200.00
 * (1100.00 + 100.00)", "the average of $100, $120 and $140 is $120",
 * "€300 / 2 = €150 per person".
 *
 * A figure is digits (commas as thousands separators, a point and up to six
 * decimals), with a currency sign or code before or after it, "%" after it,
 * up to three lowercase unit words ("nights", "meals per day", "/night")
 * and a label in parentheses without digits ("(Hotel)"). Terms are joined
 * by + - * x × · / ÷ @ ("-" and "/" with blanks around them), "plus",
 * "minus", "times", "divided by", parentheses, a star escaped for Markdown
 * ("\*"), and "at" between a count and a price, a figure with a currency or
 * of one unit ("3 nights at €110/night", "3 nights at 240 per night", "at
 * the lowest rate of 35 per day"). A whole equation in parentheses is read
 * inside them ("(2 nights at 330.0/night = 660.0)"). A result follows "=", "≈", "is",
 * "comes to", "totals", "equals", "for a total of", or precedes its
 * expression in parentheses. A chain "A = B = C" relates each side to the
 * next: a single figure is the result of the side before it, and where two
 * sides have as many added parts, each single figure of the second is the
 * result of the part it stands under ("(30 + 40) * 2 * 2 + (20 + 30) * 2 *
 * 3 = €280 + €500": €500 under (20 + 30) * 2 * 3).
 *
 * Values are rationals of 64-bit integers: exact, never binary floating
 * point; an expression whose working overflows, divides by zero, or has a
 * scale word ("$1.2 million") is not read. Bounded: ARITH_FIGS figures and
 * ARITH_RELS results a sentence, ARITH_TERMS terms an expression,
 * ARITH_DEPTH parentheses deep; no recursion; linear in the text.
 * Nothing here allocates.
 */
#ifndef HALLUSCAN_ARITH_H
#define HALLUSCAN_ARITH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARITH_FIGS 64
#define ARITH_RELS 16
#define ARITH_TERMS 16
#define ARITH_DEPTH 4
/* Tokens of one expression as kept with its result (figures, operators,
 * parentheses): enough for ARITH_TERMS terms. */
#define ARITH_TOKS (4 * ARITH_TERMS)
#define ARITH_HOW 96

/* An exact value: n / d, d > 0, in lowest terms. */
struct arith_q {
	int64_t n, d;
};

struct arith_fig {
	size_t from, to;     /* the number with its currency sign ("$110.0", "245 EUR") */
	size_t num_from, num_to; /* its digits alone */
	struct arith_q v;    /* its value (a percentage: / 100) */
	uint8_t decimals;    /* as written */
	uint8_t cur;         /* its currency (0: none) */
	bool percent;
	bool units;          /* unit words after it ("3 nights") */
	bool rate;           /* a price of one unit ("240 per night", "400.0/night", "15 each") */
	bool commas;         /* thousands written with commas ("1,350.00") */
};

enum { ARITH_TOK_FIG, ARITH_TOK_ADD, ARITH_TOK_SUB, ARITH_TOK_MUL, ARITH_TOK_DIV, ARITH_TOK_LP,
       ARITH_TOK_RP, ARITH_TOK_AVG };

struct arith_tok {
	uint8_t kind; /* ARITH_TOK_* */
	uint8_t fig;  /* for a figure: its index */
};

/* A result and the expression it is written equal to. */
struct arith_rel {
	uint8_t result;       /* the result's figure */
	uint8_t n_toks;       /* the expression, infix (an average: AVG and its figures) */
	struct arith_tok toks[ARITH_TOKS];
	struct arith_q value; /* the expression worked out */
	bool holds;           /* the result states it (rounding, below) */
	bool approx;          /* "≈", "is about": within 1% */
	bool rounds;          /* a division, an average or a percentage: rounding allowed */
};

struct arith {
	struct arith_fig fig[ARITH_FIGS];
	size_t n_fig;
	struct arith_rel rel[ARITH_RELS];
	size_t n_rel;
};

/*
 * The cheap test before arith_scan(): true when text may hold an operator
 * or a result word between two figures (one pass, no allocation).
 */
bool arith_may_hold(const char *text, size_t n);

/* The same a byte at a time: the test hook the fuzz target holds it to. */
bool arith_may_hold_bytewise(const char *text, size_t n);

/*
 * Reads the arithmetic of text[0, n) into *a (reset first): its figures,
 * in order, and its results, in order of the result's place in the chain.
 * Returns the number of results.
 */
size_t arith_scan(const char *text, size_t n, struct arith *a);

/*
 * Works out rel's expression with the figures' values taken from v (v[i]
 * for figure i; NULL: as written). False on overflow or division by zero.
 */
bool arith_eval(const struct arith *a, const struct arith_rel *rel, const struct arith_q *v,
		struct arith_q *out);

/*
 * Does written state value: equal; or, where rounds, value rounded to the
 * written decimals (half away from zero); or, where approx, within 1% or
 * the written precision.
 */
bool arith_states(struct arith_q written, unsigned decimals, struct arith_q value, bool rounds,
		  bool approx);

/*
 * The expression as text ("(20 + 30) x 2 x 3", "average of $100, $120 and
 * $140"), each figure as written in text, or, where v is not NULL and
 * v[i] differs from figure i's value, v[i] written in its place with its
 * currency; cut to n bytes ("..." at the end). Returns the length.
 */
size_t arith_how(const struct arith *a, const struct arith_rel *rel, const char *text,
		 const struct arith_q *v, char *out, size_t n);

/*
 * value written as a figure like fig: with its currency sign ("€300",
 * "245 EUR" for a code after it), its decimals at least, more where the
 * value needs them (at most 4, rounded). Returns the length (cut to n).
 */
size_t arith_format(const struct arith *a, const struct arith_fig *fig, const char *text,
		    struct arith_q value, char *out, size_t n);

/* value as a double (for comparing with a lexed quantity). */
double arith_double(struct arith_q value);

#endif
