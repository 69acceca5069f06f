// SPDX-License-Identifier: MIT
/*
 * Arithmetic written out in a sentence, read: its figures, operators, relation words and the
 * parts a sentence names, into chains of sides and results.
 */
#include "arith.h"
#include "arith_int.h"

#include <stdio.h>
#include <string.h>

#include "common/util.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Internal token kinds, after ARITH_TOK_AVG. */
enum { TOK_REL = 16, TOK_SEP, TOK_AND, TOK_AT, TOK_OF, TOK_BREAK, TOK_END };

/* Chain tokens: a few sides of ARITH_TOKS each. */
#define CHAIN_TOKS (3 * ARITH_TOKS)
/* Integer digits of a figure, at most: 10^12 with six decimals fits 64 bits. */
#define INT_DIGITS 12

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* --- reading ------------------------------------------------------------ */

/* Currencies: 1 dollar, 2 euro, 3 pound, 4 yen, 5 rupee, 6 franc. */
static const struct {
	const char *s;
	uint8_t cur;
} signs[] = {
	{"US$", 1}, {"$", 1}, {"\xE2\x82\xAC", 2}, {"\xC2\xA3", 3}, {"\xC2\xA5", 4},
	{"\xE2\x82\xB9", 5},
};

static const struct {
	const char *s;
	uint8_t cur;
} codes[] = {
	{"USD", 1}, {"EUR", 2}, {"GBP", 3}, {"JPY", 4}, {"INR", 5}, {"CHF", 6},
	{"dollars", 1}, {"dollar", 1}, {"euros", 2}, {"euro", 2}, {"pounds", 3},
};

/* A currency sign at s[i]: its length and *cur; 0 when none. */
static size_t sign_at(const char *s, size_t n, size_t i, uint8_t *cur)
{
	size_t k, l;

	for (k = 0; k < ARRAY_SIZE(signs); k++) {
		if (i >= n || s[i] != signs[k].s[0])
			continue;
		l = strlen(signs[k].s);
		if (n - i >= l && memcmp(s + i, signs[k].s, l) == 0) {
			*cur = signs[k].cur;
			return l;
		}
	}
	return 0;
}

/* The word at s[i] (letters): its length. */
static size_t word_len(const char *s, size_t n, size_t i)
{
	size_t j = i;

	while (j < n && j - i < 32 && is_alpha(s[j]))
		j++;
	if (j < n && is_alpha(s[j]))
		return 0; /* a word longer than any we know */
	return j - i;
}

/* (the first byte first: most words are none of a table's, and differ there) */
static bool word_is(const char *s, size_t len, const char *w)
{
	if (len == 0)
		return w[0] == '\0';
	return s[0] == w[0] && strlen(w) == len && memcmp(s, w, len) == 0;
}

/* A currency code or word at s[i]: its length and *cur; 0 when none. */
static size_t code_at(const char *s, size_t n, size_t i, uint8_t *cur)
{
	size_t l = word_len(s, n, i), k;

	for (k = 0; l && k < ARRAY_SIZE(codes); k++)
		if (word_is(s + i, l, codes[k].s)) {
			*cur = codes[k].cur;
			return l;
		}
	return 0;
}

/* Words that end a figure's unit words: operators, result words, joins. */
static const char *const stop_words[] = {
	"and",  "approximately", "are", "around", "at",     "by",      "come",   "comes",
	"divided", "equal", "equals", "for",    "in",      "is",      "makes",  "minus",
	"of",   "or",     "plus",   "roughly", "split",  "that",
	"the",  "then",   "times",  "to",     "total",    "totaling", "totalling", "totals",
	"was",  "which",  "with",   "x",
};

static bool stop_word(const char *w, size_t len)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(stop_words); k++)
		if (word_is(w, len, stop_words[k]))
			return true;
	return false;
}

/* Scale words: a figure with one is not read ("$1.2 million"). */
static bool scale_word(const char *w, size_t len)
{
	static const char *const scales[] = {"thousand", "million", "billion", "trillion", "k",
					     "m", "bn", "mn", "mln", "b", "K", "M", "B", "Bn"};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(scales); k++)
		if (word_is(w, len, scales[k]))
			return true;
	return false;
}

/* Skips blanks and Markdown emphasis ("**", "__", "`"). */
static size_t skip_blank(const char *s, size_t n, size_t i)
{
	for (;;) {
		if (i < n && is_blank(s[i]))
			i++;
		else if (i + 1 < n && ((s[i] == '*' && s[i + 1] == '*') || (s[i] == '_' && s[i + 1] == '_')))
			i += 2;
		else if (i < n && s[i] == '`')
			i++;
		else
			return i;
	}
}

/*
 * Reads a figure at s[i] (a currency sign, or the first digit): true and
 * *end past it (its unit words and label too) when it is one; *f filled.
 * False: no figure we read (a time, a date, a version, a scale, glued to
 * letters, too long); *end past what was looked at.
 */
static bool read_fig(const char *s, size_t n, size_t i, struct arith_fig *f, size_t *end)
{
	size_t j = i, k, l, words, pers;
	int64_t v = 0;
	unsigned digits = 0, dec = 0;
	uint8_t cur = 0;

	memset(f, 0, sizeof(*f));
	f->from = i;
	/* the sign, or a code before ("EUR 45") */
	if ((l = sign_at(s, n, j, &cur)) > 0) {
		j += l;
		if (j < n && s[j] == ' ')
			j++;
	} else if ((l = code_at(s, n, j, &cur)) == 3 && j + 4 < n && s[j + 3] == ' ' &&
		   is_digit(s[j + 4])) {
		j += 4;
	} else {
		cur = 0;
	}
	if (j >= n || !is_digit(s[j])) {
		*end = j > i ? j : i + 1;
		return false;
	}
	f->num_from = j;
	/* digits, with commas between groups of three */
	for (;;) {
		while (j < n && is_digit(s[j])) {
			if (digits || s[j] != '0')
				digits++;
			if (digits > INT_DIGITS) {
				while (j < n && (is_digit(s[j]) || s[j] == ',' || s[j] == '.'))
					j++;
				*end = j;
				return false;
			}
			v = v * 10 + (s[j] - '0');
			j++;
		}
		if (j + 3 < n + 0 && s[j] == ',' && is_digit(s[j + 1]) && is_digit(s[j + 2]) &&
		    is_digit(s[j + 3]) && (j + 4 >= n || !is_digit(s[j + 4]))) {
			j++;
			f->commas = true;
		}
		else
			break;
	}
	if (j + 1 < n && s[j] == '.' && is_digit(s[j + 1])) {
		j++;
		while (j < n && is_digit(s[j])) {
			if (++dec > DEC_DIGITS) {
				while (j < n && is_digit(s[j]))
					j++;
				*end = j;
				return false;
			}
			v = v * 10 + (s[j] - '0');
			j++;
		}
	}
	f->num_to = j;
	*end = j;
	/* not a figure: glued to what makes it a time, a date, a version, a
	 * range or a code ("10:30", "2024-05-26", "1.2.3", "3/4", "4WD") */
	if ((i > 0 && (is_alpha(s[i - 1]) || is_digit(s[i - 1]) ||
		       (s[i - 1] && strchr(".,:/-_#", s[i - 1])))) ||
	    (j < n && (is_alpha(s[j]) || s[j] == '_' ||
		       ((s[j] == ':' || s[j] == '/' || s[j] == '-' || s[j] == '.' || s[j] == ',') &&
			j + 1 < n && is_digit(s[j + 1]))))) {
		/* the whole run is one word ("42average", "4WD") */
		while (j < n && (is_alpha(s[j]) || is_digit(s[j]) || s[j] == '_'))
			j++;
		*end = j;
		return false;
	}
	f->decimals = (uint8_t)dec;
	if (j < n && s[j] == '%') {
		f->percent = true;
		dec += 2;
		j++;
	}
	if (!q_make(v, pow10s[dec > DEC_DIGITS ? DEC_DIGITS : dec], &f->v) || dec > DEC_DIGITS)
		return false;
	/* a sign or a code after it ("45€", "245 EUR", "30 euros") */
	if (!cur && !f->percent) {
		uint8_t c2 = 0;

		if ((l = sign_at(s, n, j, &c2)) > 0 && c2 != 1) {
			cur = c2;
			j += l;
		} else if (j + 1 < n && s[j] == ' ' && (l = code_at(s, n, j + 1, &c2)) > 0) {
			cur = c2;
			j += 1 + l;
		}
	}
	f->cur = cur;
	f->to = j;
	/* unit words: up to three lowercase words (a per-unit "/night" too), no
	 * scale; "per" not counted among them ("$30 per person per meal") */
	for (words = 0, pers = 0; words < 3 && pers <= 2;) {
		k = j;
		if (k + 1 < n && s[k] == '/' && is_lower(s[k + 1])) {
			l = word_len(s, n, k + 1);
			if (!l)
				break;
			j = k + 1 + l;
			f->units = f->rate = true;
			words++;
			continue;
		}
		k = skip_blank(s, n, k);
		if (k == j || k >= n)
			break;
		l = word_len(s, n, k);
		if (l && scale_word(s + k, l) && words == 0)
			return false;
		if (!l || !is_lower(s[k]) || stop_word(s + k, l))
			break;
		j = k + l;
		f->units = true;
		if (word_is(s + k, l, "per"))
			pers++;
		else
			words++;
		f->rate |= word_is(s + k, l, "per") || word_is(s + k, l, "each");
	}
	/* a label without digits: "(Hotel)", "(minimum)" */
	k = skip_blank(s, n, j);
	if (k < n && s[k] == '(') {
		for (l = k + 1; l < n && l - k < 40 && (is_alpha(s[l]) || is_blank(s[l])); l++)
			;
		if (l < n && s[l] == ')' && l > k + 1)
			j = l + 1;
	}
	*end = j;
	return true;
}

/* The result words after "for a total of"... or their absence: the length. */
static size_t rel_words(const char *s, size_t n, size_t i, bool *approx)
{
	static const char *const rels[] = {
		"is", "equals", "totals", "totaling", "totalling", "comes to", "come to",
		"for a total of", "is equal to", "equal to", "makes",
	};
	size_t k, l, best = 0;

	for (k = 0; k < ARRAY_SIZE(rels); k++) {
		if (i >= n || s[i] != rels[k][0])
			continue;
		l = strlen(rels[k]);
		if (l > best && n - i >= l && memcmp(s + i, rels[k], l) == 0 &&
		    (i + l == n || !is_alpha(s[i + l])))
			best = l;
	}
	if (!best)
		return 0;
	/* "is about", "comes to roughly" */
	k = skip_blank(s, n, i + best);
	l = word_len(s, n, k);
	if (l && (word_is(s + k, l, "about") || word_is(s + k, l, "approximately") ||
		  word_is(s + k, l, "roughly") || word_is(s + k, l, "around"))) {
		*approx = true;
		return k + l - i;
	}
	return best;
}

/*
 * "at the minimum rate of 110 euros per night", "at a price of $95": the
 * words between "at" (ended at i) and its price, up to four that name it
 * and "of", a figure right after: past "of"; else i.
 */
static size_t price_of(const char *s, size_t n, size_t k, size_t i)
{
	size_t w, m;
	uint8_t cur;

	for (w = 0; w < 5; w++) {
		m = word_len(s, n, k);
		if (!m || !is_lower(s[k]))
			return i;
		if (word_is(s + k, m, "of")) {
			k = skip_blank(s, n, k + m);
			return w > 0 && k < n && (is_digit(s[k]) || sign_at(s, n, k, &cur)) ? k : i;
		}
		if (w == 4 || (stop_word(s + k, m) && !(w == 0 && word_is(s + k, m, "the"))))
			return i;
		k = skip_blank(s, n, k + m);
	}
	return i;
}

/*
 * "3 nights at Lac Hotel at 240 per night": a name (up to four capitalized
 * words) between "at" and an "at" before the price: k past the second
 * "at", the price's place; else k.
 */
static size_t place_at(const char *s, size_t n, size_t k)
{
	size_t j = k, w, m;

	for (w = 0; w < 5; w++) {
		if (j >= n || !(s[j] >= 'A' && s[j] <= 'Z'))
			break;
		/* a word of letters, with letters of other scripts ("Café") */
		while (j < n && (is_alpha(s[j]) || (unsigned char)s[j] >= 0x80 || s[j] == '\''))
			j++;
		if (j - k > 60 || j >= n || !is_blank(s[j]))
			return k;
		j = skip_blank(s, n, j);
	}
	if (w == 0 || w == 5 || (m = word_len(s, n, j)) == 0 || !word_is(s + j, m, "at"))
		return k;
	return skip_blank(s, n, j + m);
}

struct lexer {
	const char *s;
	size_t n, i;
	size_t tok; /* where the last token starts */
	struct arith *a;
	bool full; /* no room for another figure: the scan ends */
};

/* The next token; a figure is put in a->fig (its index in t->fig). */
static int next_tok(struct lexer *lx, struct arith_tok *t, bool *approx)
{
	const char *s = lx->s;
	size_t n = lx->n, i, l, end;
	uint8_t cur;
	unsigned char c;

	*approx = false;
	i = lx->i = lx->tok = skip_blank(s, n, lx->i);
	if (i >= n || lx->full)
		return TOK_END;
	c = (unsigned char)s[i];
	if (is_digit(s[i]) || sign_at(s, n, i, &cur) || (code_at(s, n, i, &cur) == 3 && i + 4 < n &&
							    s[i + 3] == ' ' && is_digit(s[i + 4]))) {
		struct arith_fig f;

		if (!read_fig(s, n, i, &f, &end)) {
			lx->i = end;
			return TOK_BREAK;
		}
		lx->i = end;
		if (lx->a->n_fig == ARITH_FIGS) {
			lx->full = true;
			return TOK_END;
		}
		t->fig = (uint8_t)lx->a->n_fig;
		lx->a->fig[lx->a->n_fig++] = f;
		return ARITH_TOK_FIG;
	}
	lx->i = i + 1;
	switch (c) {
	case '+':
		return ARITH_TOK_ADD;
	case '*':
	case '@':
		return ARITH_TOK_MUL;
	case '\\':
		/* "30 \* 2 meals": a star escaped for Markdown */
		if (i + 1 < n && s[i + 1] == '*') {
			lx->i = i + 2;
			return ARITH_TOK_MUL;
		}
		return TOK_BREAK;
	case '(':
		return ARITH_TOK_LP;
	case ')':
		return ARITH_TOK_RP;
	case ',':
		return TOK_SEP;
	case '&':
		return TOK_AND;
	case '=':
		return TOK_REL;
	case '~':
		if (i + 1 < n && s[i + 1] == '=') {
			lx->i = i + 2;
			*approx = true;
			return TOK_REL;
		}
		return TOK_BREAK;
	case '-':
	case '/':
		/* with blanks around: "1,350.00 - 10.00", "300 / 2" (not "10-20", "3/4") */
		if (i > 0 && is_blank(s[i - 1]) && i + 1 < n && is_blank(s[i + 1]))
			return c == '-' ? ARITH_TOK_SUB : ARITH_TOK_DIV;
		return TOK_BREAK;
	case 0xC3:
		if (i + 1 < n && (unsigned char)s[i + 1] == 0x97) { /* × */
			lx->i = i + 2;
			return ARITH_TOK_MUL;
		}
		if (i + 1 < n && (unsigned char)s[i + 1] == 0xB7) { /* ÷ */
			lx->i = i + 2;
			return ARITH_TOK_DIV;
		}
		return TOK_BREAK;
	case 0xC2:
		if (i + 1 < n && (unsigned char)s[i + 1] == 0xB7) { /* · */
			lx->i = i + 2;
			return ARITH_TOK_MUL;
		}
		return TOK_BREAK;
	case 0xE2:
		if (i + 2 < n && (unsigned char)s[i + 1] == 0x88 && (unsigned char)s[i + 2] == 0x92) {
			lx->i = i + 3; /* − */
			return ARITH_TOK_SUB;
		}
		if (i + 2 < n && (unsigned char)s[i + 1] == 0x89 && (unsigned char)s[i + 2] == 0x88) {
			lx->i = i + 3; /* ≈ */
			*approx = true;
			return TOK_REL;
		}
		return TOK_BREAK;
	default:
		break;
	}
	if (!is_alpha(s[i]))
		return TOK_BREAK;
	l = word_len(s, n, i);
	if (!l) {
		while (lx->i < n && is_alpha(s[lx->i]))
			lx->i++;
		return TOK_BREAK;
	}
	lx->i = i + l;
	if (word_is(s + i, l, "x") || word_is(s + i, l, "X") || word_is(s + i, l, "times"))
		return ARITH_TOK_MUL;
	if (word_is(s + i, l, "plus"))
		return ARITH_TOK_ADD;
	if (word_is(s + i, l, "minus"))
		return ARITH_TOK_SUB;
	if (word_is(s + i, l, "and"))
		return TOK_AND;
	if (word_is(s + i, l, "of"))
		return TOK_OF;
	if (word_is(s + i, l, "at")) {
		/* "3 nights at maximum 200 EUR per night" */
		size_t k = skip_blank(s, n, i + l), m;

		/* "at Lac Hotel at 240 per night": the price after the name */
		if ((m = place_at(s, n, k)) != k)
			lx->i = k = m;
		m = word_len(s, n, k);

		if (m && (word_is(s + k, m, "maximum") || word_is(s + k, m, "minimum") ||
			  word_is(s + k, m, "most") || word_is(s + k, m, "least")))
			lx->i = k + m;
		else
			lx->i = price_of(s, n, k, lx->i);
		return TOK_AT;
	}
	if (word_is(s + i, l, "divided") || word_is(s + i, l, "split")) {
		size_t k = skip_blank(s, n, i + l), m = word_len(s, n, k);

		if (m && (word_is(s + k, m, "by") || word_is(s + k, m, "between") ||
			  word_is(s + k, m, "among"))) {
			lx->i = k + m;
			return ARITH_TOK_DIV;
		}
		return TOK_BREAK;
	}
	if (word_is(s + i, l, "average") || word_is(s + i, l, "mean")) {
		/* "average of", "average price of", "average nightly cost of" */
		size_t k = i + l, w, m;

		for (w = 0; w < 3; w++) {
			k = skip_blank(s, n, k);
			m = word_len(s, n, k);
			if (!m || !is_lower(s[k]))
				break;
			if (word_is(s + k, m, "of")) {
				lx->i = k + m;
				return ARITH_TOK_AVG;
			}
			k += m;
		}
		return TOK_BREAK;
	}
	if ((l = rel_words(s, n, i, approx)) > 0) {
		lx->i = i + l;
		return TOK_REL;
	}
	return TOK_BREAK;
}

/* --- chains ------------------------------------------------------------- */

struct side {
	size_t from, to;      /* tokens [from, to) of the chain */
	bool valid, ops;      /* a well-formed expression; with an operator */
	size_t n_parts;
	size_t part[ARITH_TERMS][2]; /* its top-level added parts, tokens [from, to) */
	bool part_sub[ARITH_TERMS];  /* ...each subtracted or added */
};

struct chain {
	struct arith_tok t[CHAIN_TOKS];
	bool approx[CHAIN_TOKS]; /* for a TOK_REL */
	size_t n;
	bool over;
};

/* Reads t[from, to) as an expression into *sd. */
static void side_of(const struct arith *a, const struct arith_tok *t, size_t from, size_t to,
		    struct side *sd)
{
	size_t i, figs = 0, depth = 0, part_from = from;
	bool operand = true, sub = false, addsub = false, percent = false;
	uint8_t cur = 0;

	memset(sd, 0, sizeof(*sd));
	sd->from = from;
	sd->to = to;
	if (to - from > ARITH_TOKS || from == to)
		return;
	for (i = from; i < to; i++) {
		int k = t[i].kind;

		if (k == ARITH_TOK_FIG) {
			const struct arith_fig *f = &a->fig[t[i].fig];

			if (!operand || ++figs > ARITH_TERMS)
				return;
			if (f->cur && cur && f->cur != cur)
				return; /* two currencies: a conversion, not worked here */
			if (f->cur)
				cur = f->cur;
			percent |= f->percent;
			operand = false;
		} else if (k == ARITH_TOK_LP) {
			if (!operand || ++depth > ARITH_DEPTH)
				return;
		} else if (k == ARITH_TOK_RP) {
			if (operand || depth == 0)
				return;
			depth--;
		} else if (is_op(k)) {
			if (operand)
				return;
			operand = true;
			sd->ops = true;
			if (depth == 0 && (k == ARITH_TOK_ADD || k == ARITH_TOK_SUB)) {
				addsub = true;
				if (sd->n_parts == ARITH_TERMS)
					return;
				sd->part[sd->n_parts][0] = part_from;
				sd->part[sd->n_parts][1] = i;
				sd->part_sub[sd->n_parts++] = sub;
				sub = k == ARITH_TOK_SUB;
				part_from = i + 1;
			}
		} else {
			return;
		}
	}
	if (operand || depth != 0 || sd->n_parts == ARITH_TERMS)
		return;
	/* "$100 + 10%" says a share of what, not a number to add */
	if (percent && addsub)
		return;
	sd->part[sd->n_parts][0] = part_from;
	sd->part[sd->n_parts][1] = to;
	sd->part_sub[sd->n_parts++] = sub;
	sd->valid = true;
}

static bool single_fig(const struct chain *ch, size_t from, size_t to)
{
	return to == from + 1 && ch->t[from].kind == ARITH_TOK_FIG;
}

/* Records that figure result is written equal to the tokens [from, to) of the chain. */
static void relate(struct arith *a, const struct chain *ch, size_t from, size_t to, uint8_t result,
		   bool approx)
{
	struct arith_rel *r;
	const struct arith_fig *rf = &a->fig[result];
	size_t i;

	if (a->n_rel == ARITH_RELS || to - from > ARITH_TOKS || to == from)
		return;
	r = &a->rel[a->n_rel];
	memset(r, 0, sizeof(*r));
	r->result = result;
	r->approx = approx;
	for (i = from; i < to; i++) {
		const struct arith_tok *t = &ch->t[i];

		if (t->kind == ARITH_TOK_FIG) {
			const struct arith_fig *f = &a->fig[t->fig];

			/* a result in another currency than its terms: a conversion */
			if (rf->cur && f->cur && rf->cur != f->cur)
				return;
			r->rounds |= f->percent;
		}
		r->rounds |= t->kind == ARITH_TOK_DIV || t->kind == ARITH_TOK_AVG;
		r->toks[r->n_toks++] = *t;
	}
	if (rf->percent)
		return; /* "= 15%" is a share, said otherwise */
	if (!arith_eval(a, r, NULL, &r->value))
		return;
	r->holds = arith_states(rf->v, rf->decimals, r->value, r->rounds, r->approx);
	a->n_rel++;
}

/*
 * A side "R (E)": a figure and, in parentheses, the expression it is
 * ("1200.00 (1100.00 + 100.00)"). True when related.
 */
static bool result_first(struct arith *a, const struct chain *ch, size_t from, size_t to)
{
	struct side in;

	if (to - from < 5 || ch->t[from].kind != ARITH_TOK_FIG || ch->t[from + 1].kind != ARITH_TOK_LP ||
	    ch->t[to - 1].kind != ARITH_TOK_RP)
		return false;
	side_of(a, ch->t, from + 2, to - 1, &in);
	if (!in.valid || !in.ops)
		return false;
	relate(a, ch, from + 2, to - 1, ch->t[from].fig, false);
	return true;
}

/*
 * "15% on $200 is $200 x 0.15 = $30": a figure (at lead) said again as the
 * first operand of the expression after it, [from, to), whose written
 * result follows (the side after the relation at to is one figure). The
 * figure belongs to the words before ("on $200"), not to the equation.
 */
static bool operand_restated(const struct arith *a, const struct chain *ch, size_t lead,
			     size_t from, size_t to)
{
	size_t j;

	if (to >= ch->n || ch->t[from].kind != ARITH_TOK_FIG ||
	    q_cmp(a->fig[ch->t[lead].fig].v, a->fig[ch->t[from].fig].v) != 0)
		return false;
	for (j = to + 1; j < ch->n && ch->t[j].kind != TOK_REL; j++)
		;
	return single_fig(ch, to + 1, j);
}

/*
 * "(2 nights at 400.0/night = 800.0)": a whole equation in parentheses,
 * a relation among its tokens at the first depth: the parentheses are no
 * term of either side; taken off.
 */
static void unwrap(struct chain *ch)
{
	size_t i, depth = 0;
	bool rel = false;

	if (ch->n < 5 || ch->t[0].kind != ARITH_TOK_LP || ch->t[ch->n - 1].kind != ARITH_TOK_RP)
		return;
	for (i = 0; i < ch->n; i++) {
		if (ch->t[i].kind == ARITH_TOK_LP)
			depth++;
		else if (ch->t[i].kind == ARITH_TOK_RP && --depth == 0 && i + 1 < ch->n)
			return; /* "(20 + 30) * 2 = 100": closed before the end */
		else if (ch->t[i].kind == TOK_REL && depth == 1)
			rel = true;
	}
	if (!rel)
		return;
	memmove(ch->t, ch->t + 1, (ch->n - 2) * sizeof(ch->t[0]));
	memmove(ch->approx, ch->approx + 1, (ch->n - 2) * sizeof(ch->approx[0]));
	ch->n -= 2;
}

static void end_chain(struct arith *a, struct chain *ch)
{
	struct side prev = {0}, cur;
	size_t i, from = 0, k = 0, j;
	bool approx = false, have_prev = false;

	if (ch->over) {
		ch->n = 0;
		ch->over = false;
		return;
	}
	unwrap(ch);
	for (i = 0; i <= ch->n; i++) {
		if (i < ch->n && ch->t[i].kind != TOK_REL)
			continue;
		side_of(a, ch->t, from, i, &cur);
		if (!cur.valid)
			result_first(a, ch, from, i);
		if (have_prev && prev.valid && cur.valid) {
			if (single_fig(ch, cur.from, cur.to) && prev.ops) {
				relate(a, ch, prev.from, prev.to, ch->t[cur.from].fig, approx);
			} else if (single_fig(ch, prev.from, prev.to) && cur.ops && k == 1 &&
				   !operand_restated(a, ch, prev.from, cur.from, i)) {
				relate(a, ch, cur.from, cur.to, ch->t[prev.from].fig, approx);
			} else if (prev.n_parts == cur.n_parts && cur.n_parts > 1) {
				for (j = 0; j < cur.n_parts; j++) {
					size_t pf = prev.part[j][0], pt = prev.part[j][1];

					if (single_fig(ch, cur.part[j][0], cur.part[j][1]) &&
					    prev.part_sub[j] == cur.part_sub[j] && pt - pf > 1)
						relate(a, ch, pf, pt, ch->t[cur.part[j][0]].fig, approx);
				}
			}
		}
		if (i < ch->n)
			approx = ch->approx[i];
		prev = cur;
		have_prev = true;
		from = i + 1;
		k++;
	}
	ch->n = 0;
}

static void push(struct chain *ch, int kind, uint8_t fig, bool approx)
{
	if (ch->over)
		return;
	if (ch->n == CHAIN_TOKS) {
		ch->over = true;
		return;
	}
	ch->approx[ch->n] = approx;
	ch->t[ch->n++] = (struct arith_tok){(uint8_t)kind, fig};
}

/*
 * "the average of $100, $120 and $140 is $120": after the AVG token, the
 * figures and the result. Returns the token it stopped at (unread).
 */
static int average(struct lexer *lx, struct chain *ch, struct arith_tok *t, bool *approx)
{
	int k;
	size_t figs = 0;
	bool sep = true;

	ch->n = 0;
	push(ch, ARITH_TOK_AVG, 0, false);
	for (;;) {
		k = next_tok(lx, t, approx);
		if (k == ARITH_TOK_FIG && sep && figs < ARITH_TERMS) {
			push(ch, ARITH_TOK_FIG, t->fig, false);
			figs++;
			sep = false;
		} else if ((k == TOK_SEP || k == TOK_AND) && !sep) {
			sep = true;
		} else if (k == TOK_AND && sep && figs > 0) {
			/* ", and" */
		} else {
			break;
		}
	}
	if (k == TOK_REL && !sep && figs >= 2) {
		bool ap = *approx;

		k = next_tok(lx, t, approx);
		if (k == ARITH_TOK_FIG) {
			relate(lx->a, ch, 0, ch->n, t->fig, ap);
			k = next_tok(lx, t, approx);
		}
	}
	ch->n = 0;
	return k;
}

/*
 * Where a figure's working in parentheses opens after a few words that
 * say what the figure is for ("60 euros allocated for meals (30 euros x 2
 * meals)"): the '(' at or past i, with only words between (six at most,
 * none that joins another figure, "and", "plus"), and a figure inside;
 * 0 when there is none.
 */
static size_t working_after(const char *s, size_t n, size_t i)
{
	size_t words = 0, l, k;

	for (;;) {
		i = skip_blank(s, n, i);
		if (i >= n)
			return 0;
		if (s[i] == '(') {
			k = skip_blank(s, n, i + 1);
			return k < n && (is_digit(s[k]) || sign_at(s, n, k, &(uint8_t){0})) ? i : 0;
		}
		l = word_len(s, n, i);
		if (!l || ++words > 6 || word_is(s + i, l, "and") || word_is(s + i, l, "plus") ||
		    word_is(s + i, l, "minus") || word_is(s + i, l, "with"))
			return 0;
		i += l;
		if (i < n && s[i] == '\'' && i + 1 < n && is_alpha(s[i + 1]))
			i++;
	}
}

/* How far a figure's labelled parts in parentheses are read, at most. */
#define PARTS_SPAN 240

/* Whether the operator-free part [from, to) of a labelled list holds words
 * that name it ("Pizza party:", "for meals"), not only figures. */
static bool part_named(const char *s, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (is_alpha(s[i]))
			return true;
	return false;
}

/*
 * "110.0 (Pizza party: 100.0, Sushi dinner: 10.0)", "€1,050 (€330 for the
 * hotel + €720 for meals)": a figure, then in parentheses its parts, each
 * one figure with words that say what it is, joined by "+" or "plus" (a
 * sum written out: related, right or wrong) or by ",", ";" or "and" (a
 * list, which may name a few of many: related only where the figure is
 * their sum). A part with more figures takes its one in the result's
 * currency; with none, or with an operator, a percentage, a line break
 * or a nested parenthesis inside, the list is not read. s[lp] is the '('
 * after the figure result; true and *end past the ')' when related.
 */
static bool labelled_parts(struct arith *a, const char *s, size_t n, size_t lp, uint8_t result,
			   size_t *end)
{
	struct arith_fig f, pick[ARITH_TERMS];
	struct chain ch;
	size_t i = lp + 1, lim = MIN(n, lp + PARTS_SPAN), part_from = i, parts = 0, l, e;
	size_t fig0 = a->n_fig, rel0 = a->n_rel;
	uint8_t cur = a->fig[result].cur, c2;
	unsigned named = 0, figs = 0;
	bool list = false, have = false;

	for (;;) {
		bool sep = false, sep_plus = false, close = false;
		size_t at = i;

		if (i >= lim || s[i] == '\n' || s[i] == '(')
			return false;
		if (is_digit(s[i]) || sign_at(s, n, i, &c2) ||
		    (code_at(s, n, i, &c2) == 3 && i + 4 < n && s[i + 3] == ' ' && is_digit(s[i + 4]))) {
			if (!read_fig(s, n, i, &f, &e)) {
				i = e; /* glued to letters, a date, a code: words of the label */
				continue;
			}
			i = e;
			if (f.percent || parts == ARITH_TERMS)
				return false;
			figs++;
			/* the part's figure: its only one, or its only one in the result's currency */
			if (!have || (cur && f.cur == cur && pick[parts].cur != cur)) {
				pick[parts] = f;
				have = true;
			} else if (!cur || f.cur == cur) {
				return false;
			}
			continue;
		}
		switch (s[i]) {
		case ')':
			close = true;
			break;
		case ',':
		case ';':
			sep = true;
			break;
		case '+':
			sep = sep_plus = true;
			break;
		case '*':
		case '=':
		case '@':
		case '/':
		case '~':
			return false;
		case '-':
			if (i > 0 && is_blank(s[i - 1]) && i + 1 < n && is_blank(s[i + 1]))
				return false;
			break;
		case '\xC3': /* × ÷ */
			if (i + 1 < n && (s[i + 1] == '\x97' || s[i + 1] == '\xB7'))
				return false;
			break;
		default:
			break;
		}
		if (!sep && !close && is_alpha(s[i])) {
			l = word_len(s, n, i);
			if (!l)
				return false;
			if (word_is(s + i, l, "x") || word_is(s + i, l, "X") || word_is(s + i, l, "times") ||
			    word_is(s + i, l, "minus") || word_is(s + i, l, "divided") ||
			    word_is(s + i, l, "at"))
				return false;
			sep = word_is(s + i, l, "and") || word_is(s + i, l, "plus");
			sep_plus = word_is(s + i, l, "plus");
			if (!sep) {
				i += l;
				continue;
			}
			i += l - 1;
		}
		if (sep || close) {
			if (!have || parts == ARITH_TERMS || fig0 + parts == ARITH_FIGS ||
			    (figs > 1 && !(cur && pick[parts].cur == cur)))
				return false;
			named += part_named(s, part_from, at);
			parts++;
			have = false;
			figs = 0;
			list |= sep && !sep_plus;
			part_from = i + 1;
		}
		i++;
		if (close)
			break;
	}
	/* two parts or more, one named at least ("(100.0 + 10.0)" is result_first()'s) */
	if (parts < 2 || !named)
		return false;
	ch.n = 0;
	for (l = 0; l < parts; l++) {
		if (l)
			ch.t[ch.n++] = (struct arith_tok){ARITH_TOK_ADD, 0};
		ch.t[ch.n++] = (struct arith_tok){ARITH_TOK_FIG, (uint8_t)a->n_fig};
		a->fig[a->n_fig++] = pick[l];
	}
	relate(a, &ch, 0, ch.n, result, false);
	if (a->n_rel == rel0 || (list && !a->rel[rel0].holds)) {
		a->n_fig = fig0;
		a->n_rel = rel0;
		return false;
	}
	*end = i;
	return true;
}

/*
 * "€330 (110 x 3)" inside a chain: the tokens from the '(' at lp to the
 * chain's end are an expression with an operator, the working of the
 * figure before the '(': related to it and taken out of the chain, which
 * goes on with the figure alone. False (the chain untouched) otherwise.
 */
static bool working_of(struct arith *a, struct chain *ch, size_t lp)
{
	struct side in;

	side_of(a, ch->t, lp + 1, ch->n, &in);
	if (!in.valid || !in.ops)
		return false;
	relate(a, ch, lp + 1, ch->n, ch->t[lp - 1].fig, false);
	ch->n = lp;
	return true;
}

/*
 * A word that multiplies when it joins ("3 nights at €110", "15% of $200"):
 * a product sign pushed, or, when it does not join, the chain ended there.
 * Returns joins.
 */
static bool join_product(struct arith *a, struct chain *ch, bool joins, size_t *depth, int *last)
{
	if (joins) {
		push(ch, ARITH_TOK_MUL, 0, false);
		*last = ARITH_TOK_MUL;
	} else {
		end_chain(a, ch);
		*depth = 0;
		*last = TOK_BREAK;
	}
	return joins;
}

size_t arith_scan(const char *text, size_t n, struct arith *a)
{
	static struct chain zero;
	struct chain ch;
	struct lexer lx = {text, n, 0, 0, a, false};
	struct arith_tok t = {0, 0};
	bool approx, at = false;
	int k, last = TOK_BREAK;
	size_t depth = 0, wp, work_lp = 0, work_depth = 0;
	uint8_t work_fig = 0;

	a->n_fig = a->n_rel = 0;
	ch = zero;
	k = next_tok(&lx, &t, &approx);
	while (k != TOK_END) {
		/* "60 euros allocated for meals (30 euros x 2 meals)": the
		 * figure, then its working */
		if ((k == TOK_BREAK || k == TOK_AT) && last == ARITH_TOK_FIG && ch.n == 1 &&
		    is_alpha(text[lx.tok]) && (wp = working_after(text, n, lx.tok)) > 0) {
			lx.i = wp;
			at = false;
			k = next_tok(&lx, &t, &approx);
			continue;
		}
		/* "110.0 (Pizza party: 100.0, Sushi dinner: 10.0)": the figure
		 * and its named parts; the chain goes on after them */
		if (k == ARITH_TOK_LP && last == ARITH_TOK_FIG && ch.n &&
		    ch.t[ch.n - 1].kind == ARITH_TOK_FIG &&
		    labelled_parts(a, text, n, lx.tok, ch.t[ch.n - 1].fig, &wp)) {
			lx.i = wp;
			k = next_tok(&lx, &t, &approx);
			continue;
		}
		if (k == ARITH_TOK_AVG) {
			end_chain(a, &ch);
			depth = 0;
			k = average(&lx, &ch, &t, &approx);
			last = TOK_BREAK;
			continue;
		}
		/* "at" multiplies a count by a price: "3 nights at €110/night" */
		if (at) {
			at = false;
			if (!join_product(a, &ch,
					  k == ARITH_TOK_FIG && (a->fig[t.fig].cur || a->fig[t.fig].rate),
					  &depth, &last))
				continue;
		}
		/* "15% of $200": a share of a figure */
		if (k == TOK_OF) {
			join_product(a, &ch,
				     last == ARITH_TOK_FIG && ch.n && a->fig[ch.t[ch.n - 1].fig].percent,
				     &depth, &last);
			k = next_tok(&lx, &t, &approx);
			continue;
		}
		if (k == TOK_AT) {
			if (last == ARITH_TOK_FIG && ch.n && a->fig[ch.t[ch.n - 1].fig].units) {
				at = true;
			} else {
				end_chain(a, &ch);
				depth = 0;
			}
			last = at ? last : TOK_BREAK;
			k = next_tok(&lx, &t, &approx);
			continue;
		}
		/* an operator with no operand before it ("- 2 meals" of a list
		 * item), a parenthesis closing one opened before the chain
		 * ("(Maximum cost: 3 x 150 = 450)"): where a chain starts or ends */
		if (is_op(k) && last != ARITH_TOK_FIG && last != ARITH_TOK_RP)
			k = TOK_BREAK;
		if (k == ARITH_TOK_RP && depth == 0)
			k = TOK_BREAK;
		if (k == TOK_BREAK || k == TOK_SEP || k == TOK_AND) {
			/* a parenthesis opened on words is a remark, not a term
			 * ("= €180 (it's not cash-only)"): the chain ends before it */
			while (ch.n && ch.t[ch.n - 1].kind == ARITH_TOK_LP)
				ch.n--;
			end_chain(a, &ch);
			depth = 0;
		} else if (k == ARITH_TOK_FIG && (last == ARITH_TOK_FIG || last == ARITH_TOK_RP)) {
			/* two figures with nothing between: a new chain ("3 Days $110 * 3") */
			end_chain(a, &ch);
			depth = 0;
			push(&ch, k, t.fig, false);
		} else if (k == ARITH_TOK_RP && depth == work_depth + 1 && work_lp > 0 &&
			   work_lp < ch.n && ch.t[work_lp].kind == ARITH_TOK_LP &&
			   ch.t[work_lp - 1].kind == ARITH_TOK_FIG && ch.t[work_lp - 1].fig == work_fig &&
			   working_of(a, &ch, work_lp)) {
			/* "€330 (110 x 3) + €720 (...) = €1,050": the figure was
			 * related to its working; the chain goes on with the figure */
			depth--;
			work_lp = 0;
			k = ARITH_TOK_FIG;
		} else {
			/* a parenthesis right after a figure may hold its working */
			if (k == ARITH_TOK_LP && last == ARITH_TOK_FIG && ch.n && !ch.over) {
				work_lp = ch.n;
				work_depth = depth;
				work_fig = ch.t[ch.n - 1].fig;
			}
			push(&ch, k, t.fig, approx);
			depth += k == ARITH_TOK_LP;
			depth -= k == ARITH_TOK_RP;
		}
		last = k;
		k = next_tok(&lx, &t, &approx);
	}
	end_chain(a, &ch);
	return a->n_rel;
}

/* --- the cheap test ----------------------------------------------------- */

/*
 * The word at s (letters, none before it) when it joins terms ("x",
 * "times", "plus", "minus", "divided", "split", "at"): 1; when it starts
 * an average ("average", "mean"): 2; else 0. By its length first: most
 * words are none of these lengths' few.
 */
static int op_word(const unsigned char *s, size_t n)
{
	size_t l = 0;

	while (l < n && l < 8 && is_alpha((char)s[l]))
		l++;
	switch (l) {
	case 1:
		return s[0] == 'x' || s[0] == 'X';
	case 2:
		return memcmp(s, "at", 2) == 0;
	case 4:
		return memcmp(s, "mean", 4) == 0 ? 2 : memcmp(s, "plus", 4) == 0;
	case 5:
		return memcmp(s, "times", 5) == 0 || memcmp(s, "minus", 5) == 0 ||
		       memcmp(s, "split", 5) == 0;
	case 7:
		return memcmp(s, "average", 7) == 0 ? 2 : memcmp(s, "divided", 7) == 0;
	default:
		return 0; /* (8: longer than any of them) */
	}
}

/*
 * What the byte at s[i] does to the cheap test: sets *digit at a digit (true
 * when an operator came before it: the test holds), *op at an operator or
 * a word that joins terms after a figure. Only the bytes may_hold_chunk()
 * marks do anything.
 */
static inline bool may_hold_at(const unsigned char *s, size_t n, size_t i, bool *digit, bool *op)
{
	unsigned char c = s[i];
	int w;

	if (c >= '0' && c <= '9') {
		if (*op)
			return true;
		*digit = true;
		return false;
	}
	switch (c) {
	case '+': case '*': case '=': case '@': case '%':
		*op |= *digit;
		break;
	case '(': /* right after a figure: its parts may follow */
		*op |= (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') ||
		       (i > 1 && s[i - 1] == ' ' && s[i - 2] >= '0' && s[i - 2] <= '9');
		break;
	case '-': case '/':
		*op |= *digit && i + 1 < n && (s[i + 1] == ' ' || s[i + 1] == '\t');
		break;
	case 0xC3: /* × ÷ */
		*op |= *digit && i + 1 < n && (s[i + 1] == 0x97 || s[i + 1] == 0xB7);
		break;
	case 0xC2: /* · */
		*op |= *digit && i + 1 < n && s[i + 1] == 0xB7;
		break;
	case 0xE2: /* − ≈ */
		*op |= *digit && i + 2 < n && ((s[i + 1] == 0x88 && s[i + 2] == 0x92) ||
					       (s[i + 1] == 0x89 && s[i + 2] == 0x88));
		break;
	case 'x': case 'X': case 't': case 'p': case 'm': case 'd': case 's': case 'a':
		/* a word's start: an average may come before its figures */
		if ((i == 0 || !is_alpha((char)s[i - 1])) && (w = op_word(s + i, n - i)))
			*op |= *digit || w == 2;
		break;
	default:
		break;
	}
	return false;
}

bool arith_may_hold_bytewise(const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;
	bool digit = false, op = false;
	size_t i;

	for (i = 0; i < n; i++)
		if (may_hold_at(s, n, i, &digit, &op))
			return true;
	return false;
}

#if defined(__SSE2__)
/*
 * Of the 16 bytes at s, bit k: s[k] may do something in may_hold_at() (a
 * superset: it tests each again), and in *digits, those that are digits.
 * The ASCII operators are all in 0x25-0x40 ("%" to "@", digits among them);
 * "×", "÷", "·", "−" and "≈" start with a byte of 0x80 or more; the words'
 * first letters, in either case, where no letter comes before them in the
 * 16 (the first byte's one is not looked at). Most of a sentence is
 * letters that are none of these.
 */
static inline unsigned may_hold_chunk(const unsigned char *s, unsigned *digits)
{
	const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s),
		      y = _mm_or_si128(x, _mm_set1_epi8(0x20));
	/* (a byte plus 0x80 - lo is below -128 + width when it is in [lo, lo + width)) */
	__m128i ops = _mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - 0x25))),
				     _mm_set1_epi8((char)(-128 + (0x40 - 0x25 + 1))));
	__m128i dig = _mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - '0'))),
				     _mm_set1_epi8((char)(-128 + 10)));
	__m128i alpha = _mm_cmplt_epi8(_mm_add_epi8(y, _mm_set1_epi8((char)(0x80 - 'a'))),
				       _mm_set1_epi8((char)(-128 + 26)));
	__m128i first = _mm_or_si128(
		_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(y, _mm_set1_epi8('x')),
					  _mm_cmpeq_epi8(y, _mm_set1_epi8('t'))),
			     _mm_or_si128(_mm_cmpeq_epi8(y, _mm_set1_epi8('p')),
					  _mm_cmpeq_epi8(y, _mm_set1_epi8('m')))),
		_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(y, _mm_set1_epi8('d')),
					  _mm_cmpeq_epi8(y, _mm_set1_epi8('s'))),
			     _mm_cmpeq_epi8(y, _mm_set1_epi8('a'))));
	unsigned a = (unsigned)_mm_movemask_epi8(alpha);

	*digits = (unsigned)_mm_movemask_epi8(dig);
	return (unsigned)_mm_movemask_epi8(_mm_or_si128(ops, x)) |
	       ((unsigned)_mm_movemask_epi8(first) & ~(a << 1));
}
#endif

bool arith_may_hold(const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;
	bool digit = false, op = false;
	size_t i = 0;

#if defined(__SSE2__)
	/*
	 * 16 bytes at a time (the last ones from a copy padded with blanks,
	 * which do nothing), may_hold_at() only at the bytes other than
	 * digits that can matter: the same steps as arith_may_hold_bytewise()
	 * less those that do nothing (the fuzz target holds the two alike).
	 * A digit only says whether one came before a byte (digit), and
	 * whether one comes after the operator it tells (the test holds).
	 */
	for (; i < n; i += 16) {
		unsigned char pad[16];
		const unsigned char *c = s + i;
		unsigned m, d;

		if (n - i < 16) {
			memset(pad, ' ', sizeof(pad));
			memcpy(pad, s + i, n - i);
			c = pad;
		}
		m = may_hold_chunk(c, &d);
		if (op && d)
			return true;
		for (m &= ~d; m && !op; m &= m - 1) {
			unsigned k = (unsigned)__builtin_ctz(m);

			digit |= (d & ((1u << k) - 1)) != 0;
			may_hold_at(s, n, i + k, &digit, &op);
			if (op && d >> k)
				return true;
		}
		digit |= d != 0;
	}
	return false;
#else
	return arith_may_hold_bytewise(text, n);
#endif
}
