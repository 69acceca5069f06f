// SPDX-License-Identifier: MIT
/*
 * Codes and keys: what a URL, a number, a citation, an IBAN, a hash or an identifier is
 * matched by, and the groups of a code said in parts. (Split from ground.c by
 * scripts/split.py.)
 */
#include "ground.h"
#include "ground_int.h"

#include "common/fmath.h"
#include "numbers/numlex.h"
#include "wordlists.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- values that items of a list share ---- */

static bool code_byte(unsigned char c);

static uint64_t group_hash(uint64_t field, const char *value, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ (field * 0x9e3779b97f4a7c15ull);
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ ascii_lower((unsigned char)value[i])) * 0x100000001b3ull;
	return h;
}

/* Adds count items to the group of hash h (group_hash()) and value (n <= GROUND_GROUP_VALUE;
 * split: a pair's, as struct ground_group holds it). */
int group_add(struct ground *g, uint64_t h, const char *value, size_t n, uint64_t at,
		     uint32_t count, uint8_t split)
{
	uint32_t slot = (uint32_t)(h ^ h >> 32) & (GROUP_SLOTS - 1);
	struct ground_group *gr;
	int err = groups_alloc(g);

	if (err)
		return err;
	for (; g->group_index[slot]; slot = (slot + 1) & (GROUP_SLOTS - 1)) {
		gr = &g->groups[g->group_index[slot] - 1];
		if (gr->hash == h && gr->len == n && gr->split == split &&
		    strncasecmp(gr->value, value, n) == 0) {
			gr->count = count > UINT32_MAX - gr->count ? UINT32_MAX : gr->count + count;
			if (gr->text != g->texts) {
				gr->text = g->texts;
				gr->text_count = 0;
			}
			gr->text_count = count > UINT32_MAX - gr->text_count ? UINT32_MAX
									    : gr->text_count + count;
			return 0;
		}
	}
	/* Full: a value first said past the cap counts nothing (nor a pair
	 * past half of it: the values alone keep the other half). */
	if (g->n_groups == GROUND_GROUP_CAP || (split && g->n_groups >= GROUND_GROUP_CAP / 2))
		return 0;
	gr = &g->groups[g->n_groups++];
	*gr = (struct ground_group){.hash = h, .at = at, .count = count, .text = g->texts,
				    .text_count = count, .len = (uint8_t)n, .split = split};
	memcpy(gr->value, value, n);
	g->group_index[slot] = (uint16_t)g->n_groups;
	return 0;
}

int ground_group_add(struct ground *g, uint64_t field, const char *value, size_t n, uint64_t at)
{
	size_t i;
	bool letter = false;

	if (n < 2 || n > GROUND_GROUP_VALUE)
		return 0;
	for (i = 0; i < n; i++)
		letter |= ascii_alpha((unsigned char)value[i]);
	return letter ? group_add(g, group_hash(field, value, n), value, n, at, 1, 0) : 0;
}

/* Whether value[0, n) is 2 to max bytes with a letter among them. */
static bool group_value(const char *value, size_t n, size_t max)
{
	size_t i;

	if (n < 2 || n > max)
		return false;
	for (i = 0; i < n; i++)
		if (ascii_alpha((unsigned char)value[i]))
			return true;
	return false;
}

int ground_group_pair_add(struct ground *g, uint64_t field_a, const char *a, size_t na,
			  uint64_t field_b, const char *b, size_t nb, uint64_t at)
{
	char value[GROUND_GROUP_VALUE];
	uint64_t h;

	if (!group_value(a, na, GROUND_GROUP_PAIR_VALUE) || !group_value(b, nb, GROUND_GROUP_PAIR_VALUE))
		return 0;
	memcpy(value, a, na);
	value[na] = '\0';
	memcpy(value + na + 1, b, nb);
	h = group_hash(field_a * 31 + field_b, value, na + 1 + nb);
	return group_add(g, h, value, na + 1 + nb, at, 1, (uint8_t)(na + 1));
}

/* Is value[0, len) said in text[0, n) as words of their own, in any case? */
static bool said_as_words(const char *text, size_t n, const char *value, size_t len)
{
	size_t i;

	for (i = 0; i + len <= n; i++)
		if (strncasecmp(text + i, value, len) == 0 &&
		    (i == 0 || !code_byte((unsigned char)text[i - 1])) &&
		    (i + len == n || !code_byte((unsigned char)text[i + len])))
			return true;
	return false;
}

bool ground_group_said(const struct ground *g, const char *before, size_t n, double count,
		       uint64_t *at)
{
	uint32_t i;

	if (count < 1 || count != floor(count))
		return false;
	for (i = 0; i < g->n_groups; i++) {
		const struct ground_group *gr = &g->groups[i];

		if (gr->count == count && !gr->split && said_as_words(before, n, gr->value, gr->len)) {
			*at = gr->at;
			return true;
		}
	}
	return false;
}

bool ground_group_counts(const struct ground *g, double count)
{
	uint32_t i;

	/* (the two searches above take a group only of its count) */
	for (i = 0; i < g->n_groups; i++)
		if (g->groups[i].count == count)
			return true;
	return false;
}

bool ground_group_pair_said(const struct ground *g, const char *line, size_t nl, const char *after,
			    size_t na, double count, uint64_t *at)
{
	uint32_t i;

	if (count < 1 || count != floor(count))
		return false;
	for (i = 0; i < g->n_groups; i++) {
		const struct ground_group *gr = &g->groups[i];
		const char *a = gr->value, *b = gr->value + gr->split;
		size_t la = gr->split ? gr->split - 1u : 0, lb = gr->len - gr->split;

		if (!gr->split || gr->count != count)
			continue;
		if ((said_as_words(line, nl, a, la) && said_as_words(after, na, b, lb)) ||
		    (said_as_words(line, nl, b, lb) && said_as_words(after, na, a, la))) {
			*at = gr->at;
			return true;
		}
	}
	return false;
}

/* ---- normalization ---- */

static int url_key(const char *t, size_t n, struct buf *out)
{
	const char *end = t + n, *scheme_end = memmem(t, n, "://", 3), *host, *host_end, *p;
	int err = 0;
	size_t k;

	if (!scheme_end)
		return buf_add(out, t, n);
	host = scheme_end + 3;
	/* The fragment never reaches the server. It is looked for past the
	 * scheme only: a '#' before "://" cut there would end the URL before
	 * its host ("a#b://c"). */
	p = memchr(host, '#', (size_t)(end - host));
	if (p)
		end = p;
	for (p = t; p < scheme_end; p++)
		err |= buf_addc(out, (char)tolower((unsigned char)*p));
	err |= BUF_LIT(out, "://");
	/* (Not strchr("/?", c): that finds the terminator for a NUL byte.) */
	for (host_end = host; host_end < end && *host_end != '/' && *host_end != '?'; host_end++)
		;
	k = (size_t)(host_end - host);
	/* The scheme's default port is no port. */
	if ((k > 3 && scheme_end - t == 4 && memcmp(host_end - 3, ":80", 3) == 0) ||
	    (k > 4 && scheme_end - t == 5 && memcmp(host_end - 4, ":443", 4) == 0))
		k -= scheme_end - t == 4 ? 3 : 4;
	for (p = host; p < host + k; p++)
		err |= buf_addc(out, (char)tolower((unsigned char)*p));
	/* A path of "/" and none are the same page; so are "/a/" and "/a". */
	while (end > host_end && end[-1] == '/')
		end--;
	err |= buf_add(out, host_end, (size_t)(end - host_end));
	return err ? -ENOMEM : 0;
}

/* "18.30 %" -> "18.3%", "1,234.5 percent" -> "1234.5%", "2.7 X" -> "2.7x". */
static int number_key(const char *t, size_t n, struct buf *out)
{
	size_t i = 0, j, dot = SIZE_MAX, start, z;
	int err = 0;
	char unit;

	while (i < n && !isdigit((unsigned char)t[i]))
		i++;
	/* No figure to normalize: the text is its own key, so that two texts
	 * without a digit never share the empty one. */
	if (i == n)
		return buf_add(out, t, n);
	start = out->len;
	for (j = i; j < n && (isdigit((unsigned char)t[j]) || t[j] == ',' || t[j] == '.'); j++) {
		if (t[j] == ',')
			continue;
		if (t[j] == '.')
			dot = out->len;
		err |= buf_addc(out, t[j]);
	}
	if (err)
		return -ENOMEM;
	if (dot != SIZE_MAX) {
		while (out->len > dot + 1 && out->data[out->len - 1] == '0')
			out->len--;
		if (out->len == dot + 1)
			out->len--; /* "12." -> "12" */
	}
	/* Leading zeros but the one before a point go in one move, not one
	 * move per zero: a match of many zeros stays linear. */
	for (z = start; z + 1 < out->len && out->data[z] == '0' && out->data[z + 1] != '.'; z++)
		;
	if (z > start) {
		memmove(out->data + start, out->data + z, out->len - z);
		out->len -= z - start;
	}
	while (j < n && (t[j] == ' ' || t[j] == '\t'))
		j++;
	unit = j < n ? (char)tolower((unsigned char)t[j]) : '\0';
	if (unit == 'p' || unit == '%')
		return buf_addc(out, '%');
	if (unit == 'x' || (j + 1 < n && (unsigned char)t[j] == 0xC3 && (unsigned char)t[j + 1] == 0x97))
		return buf_addc(out, 'x');
	return buf_add(out, t + j, n - j);
}

/* Is w[0, k) a name: a capitalized word of two letters or more, but none
 * of the words that start a citation phrase (words_not_names[],
 * words/ground.txt: "According", "Dr")? */
static bool is_name(const char *w, size_t k)
{
	size_t i;

	if (k < 2 || !isupper((unsigned char)w[0]))
		return false;
	for (i = 0; i < ARRAY_SIZE(words_not_names); i++)
		if (strlen(words_not_names[i]) == k && strncmp(w, words_not_names[i], k) == 0)
			return false;
	return true;
}

/* "According to Dr. Williams et al. (2024)" -> "williams|2024". */
static int citation_key(const char *t, size_t n, struct buf *out)
{
	const char *name = NULL, *year = NULL;
	size_t name_len = 0, i = 0, k;
	int err = 0;

	while (i < n) {
		while (i < n && !isalnum((unsigned char)t[i]) && (unsigned char)t[i] < 0x80)
			i++;
		for (k = i; k < n && (isalnum((unsigned char)t[k]) || (unsigned char)t[k] >= 0x80 ||
				      t[k] == '\'' || t[k] == '-'); k++)
			;
		if (k == i) {
			i++;
			continue;
		}
		if (!name && is_name(t + i, k - i)) {
			name = t + i;
			name_len = k - i;
		} else if (!year && k - i == 4 && isdigit((unsigned char)t[i]) &&
			   (t[i] == '1' || t[i] == '2')) {
			year = t + i;
		}
		i = k;
	}
	if (!name)
		return buf_add(out, t, n);
	for (k = 0; k < name_len; k++)
		err |= buf_addc(out, (char)tolower((unsigned char)name[k]));
	err |= buf_addc(out, '|');
	if (year)
		err |= buf_add(out, year, 4);
	return err ? -ENOMEM : 0;
}

static bool is_hex_digit(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* All hexadecimal digits, seven or more, with a decimal digit and a letter among them. */
static bool is_hash(const char *t, size_t n)
{
	bool digit = false, letter = false;
	size_t i;

	if (n < 7)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];

		if (!is_hex_digit(c))
			return false;
		digit |= c <= '9';
		letter |= c > '9';
	}
	return digit && letter;
}

static bool upper_byte(unsigned char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool upper_or_digit(unsigned char c)
{
	return upper_byte(c) || (c >= '0' && c <= '9');
}

/* Most and least characters of an IBAN (ISO 13616: Norway's 15 to Saint Lucia's 32, with room). */
#define IBAN_MIN 15

#define IBAN_MAX 34

/*
 * The length of an IBAN at the start of t[0, n): two capitals, two check
 * digits, then capitals and digits, IBAN_MIN to IBAN_MAX in all, written
 * together ("GB29NWBK60161331926819") or in groups of four after a blank
 * each, the last of one to four ("GB29 NWBK 6016 1331 9268 19"); 0 when
 * there is none. Nothing but its end is looked at past IBAN_MAX + 8 bytes.
 */
static size_t iban_at(const char *t, size_t n)
{
	size_t i = 4, chars = 4, g;

	if (n < IBAN_MIN || !upper_byte((unsigned char)t[0]) || !upper_byte((unsigned char)t[1]) ||
	    !ascii_digit((unsigned char)t[2]) || !ascii_digit((unsigned char)t[3]))
		return 0;
	if (upper_or_digit((unsigned char)t[i])) {
		while (i < n && upper_or_digit((unsigned char)t[i]))
			i++;
		return i >= IBAN_MIN && i <= IBAN_MAX && (i == n || !code_byte((unsigned char)t[i])) ? i : 0;
	}
	while (i + 1 < n && t[i] == ' ' && upper_or_digit((unsigned char)t[i + 1])) {
		for (g = 0; g < 4 && i + 1 + g < n && upper_or_digit((unsigned char)t[i + 1 + g]); g++)
			;
		/* a longer word, or one glued to lower case, is no group */
		if ((i + 1 + g < n && code_byte((unsigned char)t[i + 1 + g])) || chars + g > IBAN_MAX)
			break;
		chars += g;
		i += 1 + g;
		if (g < 4)
			break;
	}
	return chars >= IBAN_MIN && i > 4 ? i : 0;
}

bool ground_is_iban(const char *t, size_t n)
{
	return n >= IBAN_MIN && n <= IBAN_MAX + IBAN_MAX / 4 && iban_at(t, n) == n;
}

bool ground_is_code(const char *t, size_t n)
{
	size_t i, turns = 0;
	bool lower = false;

	/* an IBAN, its check digits after its country: "CH9300762011623852957" */
	if (n <= IBAN_MAX && !memchr(t, ' ', n) && ground_is_iban(t, n))
		return true;
	if (n < 6 || n > 64)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];

		if (c >= 'a' && c <= 'z')
			lower = true;
		else if (!(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9'))
			return false;
		if (i > 0 && ((c >= '0' && c <= '9') != (t[i - 1] >= '0' && t[i - 1] <= '9')))
			turns++;
	}
	/* a hash, in either case; else capitals and digits, turning twice */
	if (is_hash(t, n))
		return true;
	return !lower && turns >= 2;
}

static bool code_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static bool blank_byte(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Does the word text[ws, we) hold an address or a path? */
static bool word_is_address(const char *t, size_t ws, size_t we)
{
	size_t i;

	if (we - ws >= 4 && strncasecmp(t + ws, "www.", 4) == 0)
		return true;
	for (i = ws; i < we; i++)
		if (t[i] == '@' || t[i] == '/')
			return true; /* "://" has one too */
	return false;
}

size_t ground_next_code(const char *t, size_t n, struct ground_codes *cur, bool addresses,
			size_t *start)
{
	size_t i = cur->at;

	cur->is_name = false;
	while (i < n) {
		size_t d, a, b, k, m;
		bool ident, name = false;

		/* a digit with a letter or "_" beside it: perhaps a code's */
		d = numlex_next_code_digit(t, i, n);
		if (d == n)
			break;
		/* the run of letters, digits and "_" around it, read once */
		for (a = d; a > cur->at && (code_byte((unsigned char)t[a - 1]) || t[a - 1] == '_'); a--)
			;
		for (b = d; b < n && (code_byte((unsigned char)t[b]) || t[b] == '_'); b++)
			;
		i = b;
		k = b - a;
		ident = k <= 64 && ground_is_underscored(t + a, k);
		/* an IBAN in groups of four ("GB29 NWBK 6016 ..."): one code, blanks and all */
		if (k == 4 && (m = iban_at(t + a, n - a)) > k) {
			i = b = a + m;
			k = m;
			ident = true;
		}
		if (!ident && k >= 7 && memchr(t + a, '_', k)) {
			/* a hash among words joined by "_" ("clip_2b007cf0ba98"): that part */
			size_t sa = a, sb;

			for (; sa < b; sa = sb + 1) {
				for (sb = sa; sb < b && t[sb] != '_'; sb++)
					;
				if (sb - sa <= 64 && is_hash(t + sa, sb - sa))
					break;
			}
			if (sa >= b)
				continue;
			a = sa;
			b = sb;
			k = b - a;
		}
		if (!ident && (k < 5 || k > 64 || memchr(t + a, '_', k)))
			continue;
		if (!ident &&
		    ((a > 0 && t[a - 1] == '#' && (k == 6 || k == 8)) || !ground_is_code(t + a, k))) {
			cur->names++;
			if (!cur->want_names)
				continue;
			name = true;
		}
		if (!addresses) {
			/* its word (between blanks), read once for all its codes */
			if (a >= cur->word_end) {
				size_t ws = a, we = b;

				while (ws > cur->word_end && !blank_byte((unsigned char)t[ws - 1]))
					ws--;
				while (we < n && !blank_byte((unsigned char)t[we]))
					we++;
				cur->word_end = we;
				cur->word_address = word_is_address(t, ws, we);
			}
			if (cur->word_address) {
				i = cur->word_end;
				continue;
			}
		}
		*start = a;
		cur->at = b;
		cur->is_name = name;
		return k;
	}
	cur->at = n;
	return 0;
}

int ground_code_key(const struct ground_codes *cur, const char *t, size_t n, struct buf *out)
{
	return cur->is_name ? ground_ident_key(t, n, out) : ground_key(GROUNDING_CODE, t, n, out);
}

bool ground_is_underscored(const char *t, size_t n)
{
	size_t i = 0, letters = 0, digits;

	for (;;) {
		size_t w = i;

		while (i < n && ascii_alpha((unsigned char)t[i]))
			i++;
		if (i == w || i == n || t[i] != '_')
			return false;
		letters += i - w;
		i++;
		if (i < n && ascii_digit((unsigned char)t[i]))
			break;
	}
	for (digits = 0; i < n && ascii_digit((unsigned char)t[i]); i++)
		digits++;
	return i == n && letters >= 2 && digits >= 2;
}

/*
 * An identifier's key as a reader compares it, whatever joins its parts:
 * its letters lowercased and its digits, "_", blanks and "#" left out
 * ("certificate_7504069" is "certificate 7504069" is "certificate
 * #7504069").
 */
int ground_ident_key(const char *t, size_t n, struct buf *out)
{
	size_t i;

	out->len = 0;
	if (buf_addc(out, (char)('0' + GROUNDING_CODE)) < 0)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if ((ascii_alpha((unsigned char)t[i]) || ascii_digit((unsigned char)t[i])) &&
		    buf_addc(out, (char)ascii_lower((unsigned char)t[i])) < 0)
			return -ENOMEM;
	return 0;
}

/* A code's key: a hash lowercased; another code as it is. */
static int code_key(const char *t, size_t n, struct buf *out)
{
	size_t i;

	/* an IBAN without its blanks: every character of it, grouped or not */
	if (ground_is_iban(t, n)) {
		for (i = 0; i < n; i++)
			if (t[i] != ' ' && buf_addc(out, t[i]) < 0)
				return -ENOMEM;
		return 0;
	}
	if (ground_is_underscored(t, n)) {
		for (i = 0; i < n; i++)
			if (t[i] != '_' && buf_addc(out, (char)ascii_lower((unsigned char)t[i])) < 0)
				return -ENOMEM;
		return 0;
	}
	/* (all hexadecimal: a hash, or a short form of one, which may lack a
	 * digit or a letter) */
	for (i = 0; i < n && is_hex_digit((unsigned char)t[i]); i++)
		;
	if (i < n || n < GROUND_HASH_SHORT_MIN)
		return buf_add(out, t, n);
	for (i = 0; i < n; i++)
		if (buf_addc(out, (char)((unsigned char)t[i] | (t[i] > '9' ? 0x20 : 0))) < 0)
			return -ENOMEM;
	return 0;
}

size_t ground_hash_prefixes(const char *t, size_t n)
{
	if (!is_hash(t, n) || n <= GROUND_HASH_SHORT_MIN)
		return 0;
	return MIN(n - 1, (size_t)GROUND_HASH_SHORT_MAX) - GROUND_HASH_SHORT_MIN + 1;
}

int ground_key(enum grounding k, const char *text, size_t n, struct buf *out)
{
	out->len = 0;
	if (grow(&out->data, &out->cap, 1, 1) < 0)
		return -ENOMEM;
	out->data[0] = '\0';
	/* Items of different kinds never ground each other. */
	if (buf_addc(out, (char)('0' + k)) < 0)
		return -ENOMEM;
	/* Every kind keys an empty text as nothing (and it may come without a pointer). */
	if (n == 0)
		return 0;
	switch (k) {
	case GROUNDING_URL:
		return url_key(text, n, out);
	case GROUNDING_NUMBER:
		return number_key(text, n, out);
	case GROUNDING_CITATION:
		return citation_key(text, n, out);
	case GROUNDING_CODE:
		return code_key(text, n, out);
	case GROUNDING_NONE:
		return 0;
	default:
		return buf_add(out, text, n);
	}
}
