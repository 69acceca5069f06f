// SPDX-License-Identifier: MIT
/*
 * What the program's parts share (cli.h): the one way a message is said,
 * whole writes, the words of --fail-on and of lists, where compiled packs
 * are cached, and a fresh span nonce. Apart from main.c so that main.c
 * calls the other parts and they call none of it back.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "halluscan.h"

#include "cli.h"
#include "common/util.h"

int cli_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int cli_fail_on(const char *word)
{
	return strcmp(word, "never") == 0   ? HALLUSCAN_FAIL_ON_NEVER
	       : strcmp(word, "warn") == 0  ? HALLUSCAN_FAIL_ON_WARN
	       : strcmp(word, "block") == 0 ? HALLUSCAN_FAIL_ON_BLOCK
					    : -1;
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_line(stderr, fmt, ap);
	va_end(ap);
}

/* "", "a,", ",a" and "a,,b" are errors: an empty name is a mistake, not "none". */
bool cli_list_ok(const char *arg)
{
	size_t n = strlen(arg);

	return !(n == 0 || arg[0] == ',' || arg[n - 1] == ',' || strstr(arg, ",,"));
}

/* Where compiled --rules packs are cached: the environment's say, or none. */
const char *cli_cache_dir(char *out, size_t n)
{
	const char *d = getenv("HALLUSCAN_CACHE_DIR"), *x, *h;

	if (d && *d)
		return (size_t)snprintf(out, n, "%s", d) < n ? out : NULL;
	x = getenv("XDG_CACHE_HOME");
	if (x && *x)
		return (size_t)snprintf(out, n, "%s/halluscan", x) < n ? out : NULL;
	h = getenv("HOME");
	if (h && *h)
		return (size_t)snprintf(out, n, "%s/.cache/halluscan", h) < n ? out : NULL;
	return NULL;
}

/*
 * A transcript's assistant text is scanned under a nonce no one has seen,
 * unless the harness gave one: a delimiter the model wrote there opens
 * nothing, and is reported as spoofed_span.
 */
int cli_fresh_nonce(char *out, size_t n)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[32];
	size_t i;

	if (n < 25 || getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return -errno;
	for (i = 0; i < 24; i++)
		out[i] = alphabet[r[i] % (sizeof(alphabet) - 1)];
	out[24] = '\0';
	return 0;
}
