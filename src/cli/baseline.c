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

/* What is hashed first, with its NUL. */
static const char fp_head[] = "halluscan-fingerprint-1";

/* A message longer than this (a long finding's text) is hashed a part at a time. */
#define FP_MESSAGE 512

void fingerprint(const char *rule, const char *text, size_t len, const char *path,
		 unsigned long long index, char out[FINGERPRINT_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	struct sha256 s;
	unsigned char d[32];
	char m[FP_MESSAGE], num[20];
	size_t rl = strlen(rule) + 1, pl, k = 0;
	int i;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	pl = strlen(path) + 1;
	/* The message in one buffer and one call, where it fits (for nearly
	 * every finding): parts hashed one at a time cost a call and a copy
	 * each, and the index's printf more than the hash of a block. */
	if (sizeof(fp_head) + rl + len + 1 + pl + sizeof(num) <= sizeof(m)) {
		memcpy(m, fp_head, sizeof(fp_head));
		k = sizeof(fp_head);
		memcpy(m + k, rule, rl);
		k += rl;
#define PUT(c) (m[k++] = (c))
		NORMALIZED(text, len, PUT);
#undef PUT
		m[k++] = '\0';
		memcpy(m + k, path, pl);
		k += pl;
		k += u64_decimal(index, m + k);
		sha256_digest(m, k, d);
	} else {
		sha256_init(&s);
		sha256_update(&s, fp_head, sizeof(fp_head));
		sha256_update(&s, rule, rl);
		/* The normalized text, hashed a buffer at a time (a byte at a
		 * time costs a call per byte). */
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
		sha256_update(&s, path, pl);
		sha256_update(&s, num, u64_decimal(index, num));
		sha256_final(&s, d);
	}
	for (i = 0; i < FINGERPRINT_LEN / 2; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[FINGERPRINT_LEN] = '\0';
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
