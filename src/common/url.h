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
 * The length of the URL that starts at s, or 0 when none does: the match
 * that the regex of patterns/urls.yaml (url.http, before its rule took
 * "extend: url") would take there, the longest within s[0, n):
 *
 *   https?://[a-z0-9](?:C*\(D*\))*C*(?:E|\(D*\))     caseless
 *
 * C: a byte that is no space, control, quote, backtick, bracket of any
 * kind, '|', '\\', '^' or '<' '>'; D: C and '|', '\\', '^' (inside a
 * group); E: a C that is no trailing punctuation (".,;:!?*_~"). The caller
 * bounds n to the line and the engine's longest match. Linear in n.
 */
size_t url_end(const char *s, size_t n);

/* url_end()'s language as a PCRE2 regex (caseless), for other tools. */
#define URL_REGEX                                                                          \
	"https?://[a-z0-9](?:[^\\s<>\"'`()\\[\\]{}|\\\\^\\x00-\\x1f\\x7f]*"                   \
	"\\([^\\s<>\"'`()\\[\\]{}\\x00-\\x1f\\x7f]*\\))*"                                  \
	"[^\\s<>\"'`()\\[\\]{}|\\\\^\\x00-\\x1f\\x7f]*"                                    \
	"(?:[^\\s<>\"'`()\\[\\]{}|\\\\^.,;:!?*_~\\x00-\\x1f\\x7f]|"                        \
	"\\([^\\s<>\"'`()\\[\\]{}\\x00-\\x1f\\x7f]*\\))"

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
