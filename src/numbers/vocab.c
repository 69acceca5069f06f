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

const struct vword *vocab_find(const char *w, size_t len)
{
	uint64_t a, b;
	uint32_t s;
	unsigned k;

	if (len == 0 || len > VOCAB_MAXLEN)
		return NULL;
	vocab_pieces(w, len, &a, &b);
	for (s = vocab_hash(w, len); (k = vocab_slots[s]) != 0; s = (s + 1) & (VOCAB_SLOTS - 1)) {
		const struct vword *v = &vocab_words[k - 1];
		uint64_t va, vb;

		if (v->len != len)
			continue;
		/* (a word's letters are a-z: the 0x20 bit set makes either case
		 * one; the pieces cover every byte, as the hash's do) */
		vocab_pieces(v->w, len, &va, &vb);
		if (a == va && b == vb)
			return v;
	}
	return NULL;
}

const char *vocab_check(void)
{
	size_t i, n;
	char up[3];

	for (i = 0; i < ARRAY_SIZE(vocab_words); i++) {
		const struct vword *v = &vocab_words[i];
		int c = v->w[0];
		uint32_t h;

		if (v->len != strlen(v->w) || v->len > VOCAB_MAXLEN || (unsigned)(c - 'a') >= 26)
			return v->w;
		/* (vocab_find() compares each letter with its 0x20 bit set) */
		for (n = 0; n < v->len; n++)
			if ((unsigned)(v->w[n] - 'a') >= 26)
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
		/* nor where its first three letters are in no bucket (either case) */
		if (!vocab_prefix_buckets(vocab_prefix_nibbles, v->w))
			return v->w;
		memcpy(up, v->w, 3);
		for (n = 0; n < 3; n++)
			up[n] = (char)(up[n] - 'a' + 'A');
		if (!vocab_prefix_buckets(vocab_prefix_nibbles, up))
			return v->w;
	}
	for (i = 0, n = 0; i < VOCAB_SLOTS; i++)
		n += vocab_slots[i] != 0;
	if (n != ARRAY_SIZE(vocab_words))
		return "(the hash table)";
	return NULL;
}
