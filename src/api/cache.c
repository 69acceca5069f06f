// SPDX-License-Identifier: MIT
/* The compiled-rules cache: packs compiled once, loaded in microseconds after. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api.h"
#include "common/sha256.h"

/* dir/<first half of the key's SHA-256>.db */
static bool cache_file(const char *dir, const char *key, char *out, size_t n)
{
	unsigned char dg[32];
	char hex[65];
	struct sha256 h;

	sha256_init(&h);
	sha256_update(&h, key, strlen(key));
	sha256_final(&h, dg);
	sha256_hex(dg, hex);
	return (size_t)snprintf(out, n, "%s/%.32s.db", dir, hex) < n;
}

struct db *cache_load(const struct ruleset *rs, const char *dir)
{
	char key[sizeof(((struct db *)0)->key)], path[PATH_MAX + 64];
	struct db *db = NULL;
	struct diag d;
	char *data;
	size_t len;

	db_make_key(rs, key, sizeof(key));
	if (!cache_file(dir, key, path, sizeof(path)) || read_file(path, &data, &len) < 0)
		return NULL;
	/* A stale or damaged entry is simply compiled again. */
	if (db_load(rs, (unsigned char *)data, len, &db, &d) < 0)
		db = NULL;
	free(data);
	return db;
}

void cache_store(const struct db *db, const char *dir)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX + 128], up[PATH_MAX];
	unsigned char *data;
	char *slash;
	size_t len;
	FILE *f;
	int fd;

	if (!cache_file(dir, db->key, path, sizeof(path)) || db_serialize(db, false, &data, &len) < 0)
		return;
	/* mkdir -p for the last two levels (~/.cache/halluscan). */
	if ((size_t)snprintf(up, sizeof(up), "%s", dir) < sizeof(up)) {
		slash = strrchr(up, '/');
		if (slash && slash != up) {
			*slash = '\0';
			mkdir(up, 0700);
		}
	}
	mkdir(dir, 0700);
	/* Written aside under a name of its own (threads of one process may
	 * store the same entry at once) and renamed: no reader sees half of it. */
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "wb");
	if (f) {
		bool ok = fwrite(data, 1, len, f) == len;

		ok = fclose(f) == 0 && ok;
		if (!ok || rename(tmp, path) < 0)
			unlink(tmp);
	} else if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	free(data);
}
