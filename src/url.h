/* SPDX-License-Identifier: MIT */
/*
 * URLs as text quoted from the input: where a URL's host is, and the
 * credentials it may carry (scheme://user:token@host) kept out of what
 * halluscan writes. Nothing here allocates but into the caller's buffer.
 */
#ifndef HALLUSCAN_URL_H
#define HALLUSCAN_URL_H

#include <stddef.h>

#include "util.h"

/* What stands for the userinfo of a URL (gitleaks writes the same). */
#define URL_REDACTED "REDACTED"

/*
 * The host of the URL whose authority starts at s (just past "://"), n
 * bytes on: past a userinfo ("user:token@"), a bracketed IPv6 literal
 * whole, without the port. Sets *from and *to (offsets into s).
 */
void url_host(const char *s, size_t n, size_t *from, size_t *to);

/*
 * s (n bytes) with the userinfo of every "scheme://user...@host" in it
 * replaced by URL_REDACTED. When there is one, writes the result into tmp
 * (emptied first; the caller frees it) and points *s and *n at it;
 * otherwise leaves all three as they are. Returns 0 or -ENOMEM.
 */
int url_redact(const char **s, size_t *n, struct buf *tmp);

#endif
