// SPDX-License-Identifier: MIT
/*
 * The number lexer's vocabulary: what each unit is, and the lookup of a
 * word in the tables tools/words.c makes from words/numbers.txt.
 */
#include "vocab.h"

#include <string.h>

#include "common/fmath.h"
#include "common/util.h"
#include "quantity.h"
#include "wordlists.h"

/* (the quantity's unit; one written unit in it) */
const struct unit_info unit_info[VOCAB_UNIT_COUNT] = {
	[U_NONE] = {UC_NONE, "", 1},
	[U_PERCENT] = {UC_PERCENT, "percent", 1},
	[U_CENT] = {UC_MONEY, "usd", 0.01},
	[U_MS] = {UC_DURATION, "seconds", 0.001},
	[U_SECOND] = {UC_DURATION, "seconds", 1},
	[U_MINUTE] = {UC_DURATION, "seconds", 60},
	[U_HOUR] = {UC_DURATION, "seconds", 3600},
	[U_DAY] = {UC_DURATION, "seconds", QUANTITY_DAY_SECONDS},
	[U_WEEK] = {UC_DURATION, "seconds", 604800},
	[U_FORTNIGHT] = {UC_DURATION, "seconds", 1209600},
	[U_MONTH] = {UC_DURATION, "seconds", 2592000},
	[U_YEAR] = {UC_DURATION, "seconds", QUANTITY_YEAR_SECONDS},
	[U_DECADE] = {UC_DURATION, "seconds", 10 * QUANTITY_YEAR_SECONDS},
	[U_CENTURY] = {UC_DURATION, "seconds", 100 * QUANTITY_YEAR_SECONDS},
	[U_USD] = {UC_MONEY, "usd", 1},
	[U_EUR] = {UC_MONEY, "eur", 1},
	[U_GBP] = {UC_MONEY, "gbp", 1},
	[U_DEGREE] = {UC_TEMP, "temp:deg", 1},
	[U_FAHRENHEIT] = {UC_TEMP, "temp:c", 1},
	[U_CELSIUS] = {UC_TEMP, "temp:c", 1},
	[U_AM] = {UC_MERIDIEM, "", 0}, /* read by meridiem_at() */
	[U_PM] = {UC_MERIDIEM, "", 0},
	[U_THOUSAND] = {UC_SCALE, "", 1e3},
	[U_MILLION] = {UC_SCALE, "", 1e6},
	[U_BILLION] = {UC_SCALE, "", 1e9},
	[U_TRILLION] = {UC_SCALE, "", 1e12},
};

static int vocab_cmp(const char *low, size_t len, const struct vword *v)
{
	size_t i, k = MIN(len, (size_t)v->len);

	for (i = 0; i < k; i++)
		if (low[i] != v->w[i])
			return (unsigned char)low[i] - (unsigned char)v->w[i];
	return (len > v->len) - (len < v->len);
}

const struct vword *vocab_find(const char *w, size_t len)
{
	char low[VOCAB_MAXLEN];
	size_t i, lo, hi;

	if (len == 0 || len > sizeof(low))
		return NULL;
	for (i = 0; i < len; i++)
		low[i] = (char)(w[i] >= 'A' && w[i] <= 'Z' ? w[i] | 0x20 : w[i]);
	if ((unsigned)(low[0] - 'a') >= 26)
		return NULL;
	lo = vocab_start[low[0] - 'a'];
	hi = vocab_start[low[0] - 'a' + 1];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = vocab_cmp(low, len, &vocab_words[mid]);

		if (c == 0)
			return &vocab_words[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const char *vocab_check(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vocab_words); i++) {
		const struct vword *v = &vocab_words[i];
		int c = v->w[0];
		uint32_t h;

		if (v->len != strlen(v->w) || v->len > VOCAB_MAXLEN || (unsigned)(c - 'a') >= 26 ||
		    i < vocab_start[c - 'a'] || i >= vocab_start[c - 'a' + 1])
			return v->w;
		if (i > 0 && strcmp(vocab_words[i - 1].w, v->w) >= 0)
			return v->w;
		if (vocab_find(v->w, v->len) != v)
			return v->w;
		if (!(v->roles & R_TRIGGER))
			continue;
		/* The scan looks a trigger up only when the filter lets it. */
		h = TRIG_HASH(TRIG_KEY(v->w[0], v->w[1], v->w[2]), v->len);
		if (v->len < TRIG_MIN || v->len > TRIG_MAX || !(vocab_triggers[h / 64] >> (h % 64) & 1))
			return v->w;
	}
	if (vocab_start[26] != ARRAY_SIZE(vocab_words))
		return "(the index by first letter)";
	return NULL;
}
