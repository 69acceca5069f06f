// SPDX-License-Identifier: MIT
/* Baselines of accepted findings, and the fingerprints they hold. */
#include "baseline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/emit.h"
#include "common/json.h"
#include "common/sha256.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Calls fn with each byte of text normalized. */
#define NORMALIZED(text, len, fn)                                                          \
	do {                                                                               \
		size_t i_;                                                                 \
		bool space_ = false, any_ = false;                                         \
		for (i_ = 0; i_ < (len); i_++) {                                           \
			char c_ = (text)[i_];                                              \
			if (is_space(c_)) {                                                \
				space_ = any_;                                             \
				continue;                                                  \
			}                                                                  \
			if (space_)                                                        \
				fn(' ');                                                   \
			space_ = false;                                                    \
			any_ = true;                                                       \
			fn(c_ >= 'A' && c_ <= 'Z' ? (char)(c_ - 'A' + 'a') : c_);         \
		}                                                                          \
	} while (0)

unsigned long long fingerprint_key(const char *rule, const char *text, size_t len)
{
	unsigned long long h = 1469598103934665603ull; /* FNV-1a */
	const char *r;

#define MIX(c) (h = (h ^ (unsigned char)(c)) * 1099511628211ull)
	for (r = rule; *r; r++)
		MIX(*r);
	MIX(0);
	NORMALIZED(text, len, MIX);
#undef MIX
	return h;
}

unsigned long long fingerprint_key_normalized(const char *rule, const char *norm, size_t n)
{
	unsigned long long h = 1469598103934665603ull; /* FNV-1a, as fingerprint_key() */
	const char *r;
	size_t i;

	for (r = rule; *r; r++)
		h = (h ^ (unsigned char)*r) * 1099511628211ull;
	h *= 1099511628211ull; /* the rule's NUL */
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)norm[i]) * 1099511628211ull;
	return h;
}

/*
 * Copies text's first run with nothing to normalize (no blank, no
 * capital) to out and returns its length: most texts, a figure or a URL,
 * are that run whole. 16 bytes at a time in SSE2, stored whole (out has
 * room for len); signed, bytes past ASCII are below every range.
 */
static size_t normal_run(const char *text, size_t len, char *out)
{
	size_t i = 0;

#if defined(__SSE2__)
	for (; i + 16 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(text + i));
		__m128i cap = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)),
					    _mm_cmplt_epi8(v, _mm_set1_epi8('Z' + 1)));
		__m128i ctl = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('\t' - 1)),
					    _mm_cmplt_epi8(v, _mm_set1_epi8('\r' + 1)));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			_mm_or_si128(cap, ctl), _mm_cmpeq_epi8(v, _mm_set1_epi8(' '))));

		_mm_storeu_si128((__m128i *)(void *)(out + i), v);
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	for (; i < len; i++) {
		char c = text[i];

		if (is_space(c) || (c >= 'A' && c <= 'Z'))
			break;
		out[i] = c;
	}
	return i;
}

size_t fingerprint_normalize(const char *text, size_t len, char *out)
{
	size_t i = normal_run(text, len, out), k = i;
	bool space = false, any = i > 0;

	for (; i < len; i++) {
		char c = text[i];

		if (is_space(c)) {
			space = any;
			continue;
		}
		if (space)
			out[k++] = ' ';
		space = false;
		any = true;
		out[k++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	}
	return k;
}

/* What is hashed first, with its NUL. */
static const char fp_head[] = "halluscan-fingerprint-1";

/* A message longer than this (a long finding's text) is hashed a part at a time. */
#define FP_MESSAGE 512

/* The first FINGERPRINT_LEN hex digits of the digest d. */
static void fp_hex(const unsigned char d[32], char out[FINGERPRINT_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < FINGERPRINT_LEN / 2; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[FINGERPRINT_LEN] = '\0';
}

void fingerprint_normalized(const char *rule, const char *norm, size_t n, const char *path,
			    unsigned long long index, char out[FINGERPRINT_LEN + 1])
{
	struct sha256 s;
	unsigned char d[32];
	char m[FP_MESSAGE], num[20];
	size_t rl = strlen(rule) + 1, pl, k = 0;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	pl = strlen(path) + 1;
	/* The message in one buffer and one call, where it fits (for nearly
	 * every finding): parts hashed one at a time cost a call and a copy
	 * each, and the index's printf more than the hash of a block. */
	if (sizeof(fp_head) + rl + n + 1 + pl + sizeof(num) <= sizeof(m)) {
		memcpy(m, fp_head, sizeof(fp_head));
		k = sizeof(fp_head);
		memcpy(m + k, rule, rl);
		k += rl;
		memcpy(m + k, norm, n);
		k += n;
		m[k++] = '\0';
		memcpy(m + k, path, pl);
		k += pl;
		k += u64_decimal(index, m + k);
		sha256_digest(m, k, d);
	} else {
		sha256_init(&s);
		sha256_update(&s, fp_head, sizeof(fp_head));
		sha256_update(&s, rule, rl);
		sha256_update(&s, norm, n);
		sha256_update(&s, "", 1);
		sha256_update(&s, path, pl);
		sha256_update(&s, num, u64_decimal(index, num));
		sha256_final(&s, d);
	}
	fp_hex(d, out);
}

void fingerprint(const char *rule, const char *text, size_t len, const char *path,
		 unsigned long long index, char out[FINGERPRINT_LEN + 1])
{
	struct sha256 s;
	unsigned char d[32];
	char m[FP_MESSAGE], num[20];
	size_t k = 0;

	if (len <= sizeof(m)) {
		fingerprint_normalized(rule, m, fingerprint_normalize(text, len, m), path, index,
				       out);
		return;
	}
	/* A long text, hashed as it is normalized a buffer at a time (a byte
	 * at a time costs a call per byte). */
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	sha256_init(&s);
	sha256_update(&s, fp_head, sizeof(fp_head));
	sha256_update(&s, rule, strlen(rule) + 1);
#define FEED(c)                                                      \
	do {                                                         \
		m[k++] = (c);                                        \
		if (k == sizeof(m)) {                                \
			sha256_update(&s, m, k);                     \
			k = 0;                                       \
		}                                                    \
	} while (0)
	NORMALIZED(text, len, FEED);
#undef FEED
	sha256_update(&s, m, k);
	sha256_update(&s, "", 1);
	sha256_update(&s, path, strlen(path) + 1);
	sha256_update(&s, num, u64_decimal(index, num));
	sha256_final(&s, d);
	fp_hex(d, out);
}

static int cmp_fp(const void *a, const void *b)
{
	return memcmp(a, b, FINGERPRINT_LEN);
}

static bool is_fingerprint(const char *s, size_t n)
{
	size_t i;

	if (n != FINGERPRINT_LEN)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

int baseline_load(struct baseline *b, const char *path, struct diag *d)
{
	char *data = NULL, *line, *end;
	size_t len, lineno = 0;
	int err;

	err = read_file_max(path, BASELINE_MAX_BYTES + 1, &data, &len);
	if (err)
		return err < 0 ? -err : err;
	if (len > BASELINE_MAX_BYTES) {
		free(data);
		return diag_set(d, -EINVAL, "%s: larger than a baseline may be (%zu MiB)", path,
				BASELINE_MAX_BYTES >> 20);
	}
	for (line = data; line < data + len && err == 0; line = end + 1) {
		struct json_value *v = NULL;
		const char *fp;
		size_t n;

		end = memchr(line, '\n', (size_t)(data + len - line));
		if (!end)
			end = data + len;
		lineno++;
		n = (size_t)(end - line);
		while (n > 0 && is_space(line[n - 1]))
			n--;
		if (n == 0)
			continue;
		if (json_parse(line, n, &v, NULL) < 0 || json_type(v) != JSON_OBJECT ||
		    !(fp = json_string(json_get(v, "fingerprint"), &n)) || !is_fingerprint(fp, n)) {
			err = diag_set(d, -EINVAL, "%s:%zu: not a baseline record: "
				       "{\"fingerprint\": \"<16 hex digits>\", ...}", path, lineno);
		} else if ((err = grow(&b->fps, &b->cap, b->n + 1, sizeof(*b->fps))) == 0) {
			memcpy(b->fps[b->n], fp, FINGERPRINT_LEN);
			b->fps[b->n++][FINGERPRINT_LEN] = '\0';
		}
		json_free(v);
	}
	free(data);
	if (err == 0 && b->n > 1)
		qsort(b->fps, b->n, sizeof(*b->fps), cmp_fp);
	return err;
}

bool baseline_has(const struct baseline *b, const char *fp)
{
	return b->n > 0 && bsearch(fp, b->fps, b->n, sizeof(*b->fps), cmp_fp);
}

int baseline_add(struct baseline *b, const char *fp, const char *path,
		 const struct halluscan_finding *f)
{
	struct buf *r = &b->records;
	int err = 0;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	err |= BUF_LIT(r, "{\"fingerprint\":\"") | buf_adds(r, fp) | BUF_LIT(r, "\",\"path\":");
	err |= emit_json_string(r, path, strlen(path));
	err |= BUF_LIT(r, ",\"rule\":") | emit_json_string(r, f->rule, strlen(f->rule));
	err |= BUF_LIT(r, ",\"text\":") | emit_json_quote(r, f->text, f->text_len);
	err |= BUF_LIT(r, "}\n");
	return err ? -ENOMEM : 0;
}

int baseline_write(struct baseline *b, const char *path)
{
	struct buf tmp = {0};
	FILE *f;
	int err = 0;

	if (buf_addf(&tmp, "%s.tmp", path) < 0)
		return ENOMEM;
	f = fopen(tmp.data, "w");
	if (!f) {
		err = errno;
		goto out;
	}
	if ((b->records.len && fwrite(b->records.data, 1, b->records.len, f) != b->records.len) ||
	    fflush(f) != 0)
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && !err)
		err = errno ? errno : EIO;
	if (!err && rename(tmp.data, path) != 0)
		err = errno;
	if (err)
		remove(tmp.data);
out:
	buf_free(&tmp);
	return err;
}

void baseline_fini(struct baseline *b)
{
	free(b->fps);
	buf_free(&b->records);
}
