// SPDX-License-Identifier: MIT
/*
 * Fingerprints (src/cli/baseline.c): baselines store them, so they never
 * change. Values worked out apart (Python's hashlib on the documented
 * message), and the one-buffer path against the message hashed a part at
 * a time, at every length about where the one gives way to the other.
 */
#include <string.h>

#include "cli/baseline.h"
#include "common/sha256.h"
#include "test.h"

/* The documented message, hashed a part at a time: the definition, plainly. */
static void reference(const char *rule, const char *text, size_t len, const char *path,
		      unsigned long long index, char out[FINGERPRINT_LEN + 1])
{
	struct sha256 s;
	unsigned char d[32];
	char hex[65], num[24];
	bool space = false, any = false;
	size_t i;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	sha256_init(&s);
	sha256_update(&s, "halluscan-fingerprint-1", 24);
	sha256_update(&s, rule, strlen(rule) + 1);
	for (i = 0; i < len; i++) {
		char c = text[i];

		if (strchr(" \t\n\r\f\v", c) && c) {
			space = any;
			continue;
		}
		if (space)
			sha256_update(&s, " ", 1);
		space = false;
		any = true;
		c = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
		sha256_update(&s, &c, 1);
	}
	sha256_update(&s, "", 1);
	sha256_update(&s, path, strlen(path) + 1);
	snprintf(num, sizeof(num), "%llu", index);
	sha256_update(&s, num, strlen(num));
	sha256_final(&s, d);
	sha256_hex(d, hex);
	memcpy(out, hex, FINGERPRINT_LEN);
	out[FINGERPRINT_LEN] = '\0';
}

TEST(fingerprint_values)
{
	char fp[FINGERPRINT_LEN + 1], want[FINGERPRINT_LEN + 1], text[1200];
	static const char piece[] = "  Alpha\tBETA\n\ngamma  ";
	uint64_t rng = 7;
	size_t i, n;

	fingerprint("number.year", "2027", 4, "-", 0, fp);
	CHECK_STR(fp, "6e31071f7af49d26");
	fingerprint("url.http", "https://X.example/A", 19, "./x", 3, fp);
	CHECK_STR(fp, "ba7bde802ce93125");
	for (i = 0; i < 40; i++)
		memcpy(text + i * (sizeof(piece) - 1), piece, sizeof(piece) - 1);
	n = 40 * (sizeof(piece) - 1);
	fingerprint("cite.study_by", text, n, "./././docs/a b.md", 18446744073709551615ull, fp);
	CHECK_STR(fp, "8ae908e37b1005ec");
	/* every length about where one buffer stops holding the message */
	for (n = 380; n < 560; n++) {
		for (i = 0; i < n; i++) {
			uint64_t x = test_xorshift(&rng);

			text[i] = x % 7 == 0 ? " \t\n"[(x >> 8) % 3] : (char)('A' + (x >> 16) % 58);
		}
		fingerprint("number.count", text, n, n % 2 ? "./in.txt" : "-", n * 977, fp);
		reference("number.count", text, n, n % 2 ? "./in.txt" : "-", n * 977, want);
		CHECK_STR(fp, want);
	}
}

/* The text normalized once (a finding's key, then its fingerprint) gives what the text gives. */
TEST(fingerprint_normalized_same)
{
	char fp[FINGERPRINT_LEN + 1], want[FINGERPRINT_LEN + 1], text[700] = {0}, norm[700];
	uint64_t rng = 11;
	size_t i, n, k;

	for (n = 0; n < sizeof(text); n += 1 + n / 16) {
		for (i = 0; i < n; i++) {
			uint64_t x = test_xorshift(&rng);

			/* blanks, capitals, bytes past ASCII, and long runs of none */
			text[i] = x % 5 == 0 ? " \t\n\r\f\v"[(x >> 8) % 6]
				  : x % 5 == 1 ? (char)('A' + (x >> 16) % 26)
				  : x % 5 == 2 && n % 3 ? (char)(0x80 + (x >> 16) % 128)
						       : (char)('a' + (x >> 16) % 40);
			if (n % 4 == 0 && i < n / 2)
				text[i] = (char)('a' + i % 26);
		}
		k = fingerprint_normalize(text, n, norm);
		CHECK(k <= n);
		fingerprint_normalized("number.count", norm, k, n % 2 ? "./in.txt" : "-", n, fp);
		reference("number.count", text, n, n % 2 ? "./in.txt" : "-", n, want);
		CHECK_STR(fp, want);
		CHECK(fingerprint_key_normalized("number.count", norm, k) ==
		      fingerprint_key("number.count", text, n));
	}
}
