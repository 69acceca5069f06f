/* SPDX-License-Identifier: MIT */
/*
 * --scratchpad FILE: halluscan as a step of a skill chain. The chain's
 * shared JSON file is locked, read, and at the end replaced whole with
 * only its "hallucination_detector" member changed (scratchpad.h splices
 * the bytes; nothing else is re-serialized).
 *
 * The protocol, for writers that want to share the file safely: an
 * exclusive flock(2) on the scratchpad file itself, held from reading to
 * replacing; after taking it, check that the path still names the file
 * locked (same device and inode), and start over when a writer replaced it
 * meanwhile; replace it by writing a temporary file in the same folder,
 * fsync, rename(2) over the path. A writer that never takes the lock may
 * still lose a race, with halluscan or anyone.
 *
 * The caller owns struct chain: zero it, chain_open(), chain_finding() for
 * each finding reported, chain_commit() once, chain_close() always.
 */
#ifndef HALLUSCAN_CLI_CHAIN_H
#define HALLUSCAN_CLI_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "halluscan.h"

#include "common/util.h"
#include "scratchpad.h"

/*
 * The member's three lists together, at most: the first findings that fit
 * are listed, the others only counted ("truncated"), so that no result
 * makes a file the next step cannot read (past SCRATCHPAD_MAX_BYTES).
 */
#define CHAIN_LISTS_MAX_BYTES (1u << 20)

/* How long chain_open() waits for another writer's lock before giving up. */
#define CHAIN_LOCK_WAIT_MS 10000

enum chain_list {
	CHAIN_URLS,     /* fabricated_urls: fabricated_url */
	CHAIN_STATS,    /* unsourced_stats: unsourced_statistic and the number checks */
	CHAIN_CLAIMS,   /* suspect_claims: every other signal */
	CHAIN_LISTS,
};

struct chain {
	char *path;             /* the scratchpad's real path: a symbolic link is followed,
				   so that renaming replaces the file, not the link */
	int fd;                 /* the scratchpad, locked; -1 when not open */
	struct stat st;
	char *text;
	size_t len;
	struct scratchpad sp;
	bool parsed;
	bool pressure;          /* what the run scanned with, recorded */
	struct buf list[CHAIN_LISTS];
	size_t listed, room;    /* the lists' bytes, and at most */
	uint64_t findings, truncated;
	enum halluscan_severity verdict;
	/* What the run dropped, recorded: by a directive (never, for the
	 * chain's text is model output), the baseline, Markdown code. */
	uint64_t sup_inline, sup_baseline, sup_code;
};

/*
 * Opens, locks and reads the scratchpad at path (following symbolic
 * links to the file). Returns 0; a positive
 * errno for a file that cannot be opened, locked (ETIMEDOUT: another
 * writer held it past CHAIN_LOCK_WAIT_MS) or read; -EINVAL for one that is
 * not a regular file (a FIFO, folder or device: refused without waiting)
 * or not a JSON object (d says what; the file is left as it is, and
 * chain_commit() then refuses to write); -ENOMEM.
 */
int chain_open(struct chain *c, const char *path, struct diag *d);
/* A finding as it is reported (report.h's tap): into its list. 0 or -ENOMEM. */
int chain_finding(void *ctx, const char *path, const struct halluscan_finding *f);
/*
 * Writes the member: the three lists (up to CHAIN_LISTS_MAX_BYTES), the
 * verdict ("error" when error is set), and error (NULL: none, written as
 * null). Atomic: a temporary file beside it, fsync, rename, the
 * folder fsynced; the file keeps its mode. Returns 0 or a positive errno
 * (the scratchpad is then as it was; EFBIG: it would pass
 * SCRATCHPAD_MAX_BYTES, or a file-size limit was reached).
 */
int chain_commit(struct chain *c, const char *error);
/* Releases the lock and frees what c holds. */
void chain_close(struct chain *c);

#endif
