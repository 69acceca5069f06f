// SPDX-License-Identifier: MIT
/*
 * Rule packs: the input as a YAML pack (ruleset_add_buffer) and as a
 * serialized ruleset (ruleset_add_serialized). Each either loads or gives
 * an error with its message; nothing crashes or leaks. A YAML error names
 * the pack, line and column. What loads and finishes:
 *  - its signals are its rules' signals, each rule's index pointing at its own;
 *  - serializes, and the blob loads into an equal ruleset: the same digest,
 *    the same blob again; a YAML pack's digest is its content's;
 *  - a serialized input that loads is written back byte for byte;
 *  - loaded with its examples left in the data (the built-in rules' way),
 *    it loads exactly when it loads whole, its examples decode after, and
 *    it is written back the same before and after they are decoded;
 *  - compiles for PCRE2 or says why, and then runs its examples through the
 *    whole pipeline (scan_check_examples), which pass or say which fails.
 * With FUZZ_WRITE_BLOBS=DIR in the environment, the blob of every YAML
 * input that loads is written there: how the .blob files of corpus/rules
 * were made.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "common/util.h"
#include "fuzz.h"
#include "match/rules.h"
#include "scan/db.h"
#include "scan/scan.h"

#define PACK_NAME "fuzz.yaml"

/* "fuzz.yaml:LINE:COL: ..." or "fuzz.yaml: empty rule pack". */
static bool names_place(const char *msg)
{
	const char *p = msg + strlen(PACK_NAME);

	if (strncmp(msg, PACK_NAME ":", strlen(PACK_NAME) + 1) != 0)
		return false;
	if (strcmp(p, ": empty rule pack") == 0)
		return true;
	p++;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != ':' || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return p[0] == ':' && p[1] == ' ' && p[2];
}

static void check_signals(const struct ruleset *rs)
{
	size_t i, j;

	for (i = 0; i < rs->n_signals; i++)
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(rs->signals[i], rs->signals[j]) != 0, "a signal twice");
	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		FUZZ_CHECK(r->signal_index < rs->n_signals &&
			   strcmp(rs->signals[r->signal_index], r->signal) == 0);
		if (r->near.signal)
			FUZZ_CHECK(r->near.signal_index < rs->n_signals &&
				   strcmp(rs->signals[r->near.signal_index], r->near.signal) == 0);
	}
}

static void write_blob(const struct buf *b)
{
	const char *dir = getenv("FUZZ_WRITE_BLOBS");
	unsigned char digest[32];
	char hex[65], path[4096];
	struct sha256 h;
	FILE *f;

	if (!dir)
		return;
	sha256_init(&h);
	sha256_update(&h, b->data, b->len);
	sha256_final(&h, digest);
	sha256_hex(digest, hex);
	snprintf(path, sizeof(path), "%s/%.16s.blob", dir, hex);
	f = fopen(path, "wb");
	FUZZ_CHECK(f && fwrite(b->data, 1, b->len, f) == b->len && fclose(f) == 0, "%s", path);
}

/*
 * data loaded with its examples left in it: loads (with them decoded)
 * exactly when whole loads, and is written back as data before and after
 * they are decoded.
 */
static void check_lazy(const void *data, size_t size, bool whole)
{
	struct ruleset *rs = ruleset_new();
	struct buf a = {0}, b = {0};
	struct diag d = {""};
	bool ok;

	FUZZ_CHECK(rs != NULL);
	ok = ruleset_add_serialized_static(rs, data, size, &d) == 0 &&
	     ruleset_finish(rs, &d) == 0;
	if (ok) {
		FUZZ_CHECK(ruleset_serialize(rs, &a) == 0 || rs->examples_pending);
		ok = ruleset_load_examples(rs) == 0;
		FUZZ_CHECK(ok || rs->examples_pending, "examples decoded that failed to decode");
	}
	FUZZ_CHECK(ok == whole, "loaded lazily %s, whole %s", ok ? "yes" : "no", whole ? "yes" : "no");
	if (ok) {
		FUZZ_CHECK(a.len == size && memcmp(a.data, data, size) == 0,
			   "written back before its examples were decoded, it differs");
		FUZZ_CHECK(ruleset_serialize(rs, &b) == 0);
		FUZZ_CHECK(b.len == size && memcmp(b.data, data, size) == 0,
			   "written back after its examples were decoded, it differs");
	}
	buf_free(&a);
	buf_free(&b);
	ruleset_free(rs);
}

/* A finished ruleset: its binary form round trips, it compiles or says why. */
static void check_finished(struct ruleset *rs, const uint8_t *blob, size_t blob_len)
{
	struct buf a = {0}, b = {0};
	struct ruleset *again = ruleset_new();
	struct diag d = {""};
	struct db *db = NULL;
	int err;

	FUZZ_CHECK(again != NULL);
	check_signals(rs);
	FUZZ_CHECK(ruleset_serialize(rs, &a) == 0);
	if (blob)
		FUZZ_CHECK(a.len == blob_len && memcmp(a.data, blob, blob_len) == 0,
			   "a blob that loads is not written back as it was");
	else
		write_blob(&a);
	err = ruleset_add_serialized(again, a.data, a.len, &d);
	FUZZ_CHECK(err == 0, "the blob of a ruleset does not load: %s", d.msg);
	err = ruleset_finish(again, &d);
	FUZZ_CHECK(err == 0, "the blob of a finished ruleset does not finish: %s", d.msg);
	FUZZ_CHECK(strcmp(again->digest, rs->digest) == 0, "the digest changed in the blob");
	FUZZ_CHECK(ruleset_serialize(again, &b) == 0);
	FUZZ_CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0,
		   "a blob loaded and written again differs");
	if (!blob)
		FUZZ_CHECK(ruleset_check_digest(again) == 0, "the digest is not the content's");
	check_lazy(a.data, a.len, true);

	err = db_compile(rs, ENGINE_PCRE2, &db, &d);
	FUZZ_CHECK(err == 0 || (err == -EINVAL && d.msg[0]), "db_compile: %d: %s", err, d.msg);
	if (err == 0) {
		d.msg[0] = '\0';
		err = scan_check_examples(db, &d);
		FUZZ_CHECK(err == 0 || (err == -EINVAL && d.msg[0]), "examples: %d: %s", err, d.msg);
	}
	db_free(db);
	ruleset_free(again);
	buf_free(&a);
	buf_free(&b);
}

static void yaml_pack(const uint8_t *data, size_t size)
{
	struct ruleset *rs = ruleset_new();
	struct diag d = {""};
	int err;

	FUZZ_CHECK(rs != NULL);
	err = ruleset_add_buffer(rs, PACK_NAME, (const char *)data, size, &d);
	FUZZ_CHECK(err == 0 || err == -EINVAL, "ruleset_add_buffer: %d", err);
	if (err) {
		FUZZ_CHECK(names_place(d.msg), "an error that does not name its place: \"%s\"", d.msg);
		goto out;
	}
	err = ruleset_finish(rs, &d);
	FUZZ_CHECK(err == 0 || (err == -EINVAL && d.msg[0]), "ruleset_finish: %d: %s", err, d.msg);
	if (err == 0)
		check_finished(rs, NULL, 0);
out:
	ruleset_free(rs);
}

static void serialized(const uint8_t *data, size_t size)
{
	struct ruleset *rs = ruleset_new();
	struct diag d = {""};
	int err;

	FUZZ_CHECK(rs != NULL);
	err = ruleset_add_serialized(rs, data, size, &d);
	FUZZ_CHECK(err == 0 || (err == -EINVAL && d.msg[0]), "ruleset_add_serialized: %d", err);
	if (err) {
		/* "leaves rs as it was" */
		FUZZ_CHECK(rs->n_rules == 0 && rs->n_files == 0 && rs->n_spans == 0 &&
			   rs->n_contexts == 0, "a refused blob left something behind");
		goto out;
	}
	err = ruleset_finish(rs, &d);
	FUZZ_CHECK(err == 0 || (err == -EINVAL && d.msg[0]), "ruleset_finish: %d: %s", err, d.msg);
	if (err == 0)
		check_finished(rs, data, size);
out:
	check_lazy(data, size, err == 0);
	ruleset_free(rs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	yaml_pack(data, size);
	serialized(data, size);
	return 0;
}
