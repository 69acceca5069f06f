// SPDX-License-Identifier: MIT
/*
 * The files a person writes for halluscan to read besides rule packs: the
 * configuration file (.halluscan.yaml, src/cli/configfile.c) and the
 * baseline (src/cli/baseline.c), on any bytes. The first byte chooses
 * which; the rest is the file.
 *  - a config is read or refused with a FILE:LINE:COL message, never a
 *    crash; what is read has lists of non-empty strings, fail_on and format
 *    among their words, skip_code -1, 0 or 1;
 *  - a baseline is read or refused with a FILE:LINE message; what is read
 *    holds 16-hex-digit fingerprints, sorted, each found by baseline_has().
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/baseline.h"
#include "cli/configfile.h"
#include "fuzz.h"

static char path[64];

static void check_strv(const struct strv *v)
{
	size_t i;

	FUZZ_CHECK(v->n == 0 || v->v != NULL);
	for (i = 0; i < v->n; i++)
		FUZZ_CHECK(v->v[i] != NULL);
}

static bool one_of(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strcmp(s, *words) == 0)
			return true;
	return false;
}

static void config(void)
{
	static const char *const fail_on[] = {"warn", "block", "never", NULL};
	static const char *const formats[] = {"jsonl", "text", "sarif", "github", NULL};
	struct config c;
	struct diag d = {""};
	int err;

	memset(&c, 0, sizeof(c));
	c.skip_code = -1;
	err = config_load(&c, path, &d);
	FUZZ_CHECK(err == 0 || err == -EINVAL || err > 0, "config_load: %d", err);
	if (err == -EINVAL)
		FUZZ_CHECK(strncmp(d.msg, path, strlen(path)) == 0, "message: %s", d.msg);
	if (err == 0) {
		check_strv(&c.context);
		check_strv(&c.rules);
		check_strv(&c.select);
		check_strv(&c.ignore);
		check_strv(&c.exclude);
		FUZZ_CHECK(!c.fail_on || one_of(c.fail_on, fail_on), "fail_on %s", c.fail_on);
		FUZZ_CHECK(!c.format || one_of(c.format, formats), "format %s", c.format);
		FUZZ_CHECK(c.skip_code >= -1 && c.skip_code <= 1);
	}
	config_free(&c);
}

static void baseline(void)
{
	struct baseline b;
	struct diag d = {""};
	size_t i;
	int err;

	memset(&b, 0, sizeof(b));
	err = baseline_load(&b, path, &d);
	FUZZ_CHECK(err == 0 || err == -EINVAL || err > 0, "baseline_load: %d", err);
	if (err == -EINVAL)
		FUZZ_CHECK(strncmp(d.msg, path, strlen(path)) == 0, "message: %s", d.msg);
	if (err == 0)
		for (i = 0; i < b.n; i++) {
			FUZZ_CHECK(strlen(b.fps[i]) == FINGERPRINT_LEN);
			FUZZ_CHECK(strspn(b.fps[i], "0123456789abcdefABCDEF") == FINGERPRINT_LEN);
			FUZZ_CHECK(i == 0 || strcmp(b.fps[i - 1], b.fps[i]) <= 0, "not sorted");
			FUZZ_CHECK(baseline_has(&b, b.fps[i]));
		}
	baseline_fini(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;

	if (size == 0)
		return 0;
	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/halluscan-fuzz-review-%ld", (long)getpid());
	f = fopen(path, "wb");
	FUZZ_CHECK(f != NULL);
	FUZZ_CHECK(fwrite(data + 1, 1, size - 1, f) == size - 1 && fclose(f) == 0);
	if (data[0] & 1)
		baseline();
	else
		config();
	unlink(path);
	return 0;
}
