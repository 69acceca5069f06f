// SPDX-License-Identifier: MIT
/* A file replaced atomically: written beside it, synced, renamed over it, its folder synced. */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Is path still the regular file st describes (not replaced, nor a link now, nor written)? */
static bool still(const char *path, const struct stat *st)
{
	struct stat now;

	return lstat(path, &now) == 0 && S_ISREG(now.st_mode) && now.st_ino == st->st_ino &&
	       now.st_dev == st->st_dev && now.st_size == st->st_size &&
	       now.st_mtim.tv_sec == st->st_mtim.tv_sec &&
	       now.st_mtim.tv_nsec == st->st_mtim.tv_nsec;
}

int cli_replace_file(const char *path, const struct stat *st, const char *data, size_t len,
		     bool if_unchanged)
{
	char dir[PATH_MAX], base[PATH_MAX], tmp[PATH_MAX];
	int fd, dfd, err;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir) ||
	    snprintf(base, sizeof(base), "%s", path) >= (int)sizeof(base) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.halluscan-XXXXXX", dirname(dir), basename(base)) >=
		    (int)sizeof(tmp))
		return ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return errno;
	err = cli_write_all(fd, data, len);
	/* The file's mode stays; its owner too where we may set it. */
	if (err == 0 && fchmod(fd, st->st_mode & 07777) < 0)
		err = errno;
	if (err == 0 && (st->st_uid != geteuid() || st->st_gid != getegid()) &&
	    fchown(fd, st->st_uid, st->st_gid) < 0)
		err = 0; /* not ours to give away: it becomes the writer's, as any rename would */
	if (err == 0 && fsync(fd) < 0)
		err = errno;
	if (close(fd) < 0 && err == 0)
		err = errno;
	if (err == 0 && if_unchanged && !still(path, st))
		err = EAGAIN;
	if (err == 0 && rename(tmp, path) < 0)
		err = errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		if (fsync(dfd) < 0)
			err = errno;
		close(dfd);
	}
	return err;
}
