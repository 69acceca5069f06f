// SPDX-License-Identifier: MIT
/* Hosts and credentials of URLs quoted from the input. */
#include "url.h"

#include <errno.h>
#include <string.h>

/* The end of the authority that starts at s: the path, query or fragment,
 * or what no URL holds (space, a control, a quote, angle brackets). */
static size_t authority_end(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= 0x20 || c == 0x7F || c == '/' || c == '?' || c == '#' || c == '"' ||
		    c == '\'' || c == '<' || c == '>' || c == '\\')
			break;
	}
	return i;
}

/* Past the last '@' of the authority (a raw '@' in a password is common), or 0. */
static size_t userinfo_end(const char *s, size_t n)
{
	size_t i = n;

	while (i > 0 && s[i - 1] != '@')
		i--;
	return i;
}

void url_host(const char *s, size_t n, size_t *from, size_t *to)
{
	size_t e = authority_end(s, n), h = userinfo_end(s, e), i;

	if (h < e && s[h] == '[') {
		for (i = h; i < e && s[i] != ']'; i++)
			;
		i += i < e;
	} else {
		for (i = h; i < e && s[i] != ':'; i++)
			;
	}
	*from = h;
	*to = i;
}

int url_redact(const char **s, size_t *n, struct buf *tmp)
{
	const char *t = *s, *p, *end = t + *n, *done = t;
	int err = 0;

	/* The common case, no '@' at all, costs one memchr(). */
	if (!memchr(t, '@', *n))
		return 0;
	tmp->len = 0;
	for (p = t; (p = memmem(p, (size_t)(end - p), "://", 3)); ) {
		const char *a = p + 3;
		size_t e = authority_end(a, (size_t)(end - a)), u = userinfo_end(a, e);

		/* The next "://" may start at the authority's last byte ("x@b://y@c"). */
		p = a;
		if (u <= 1)
			continue; /* no userinfo, or an empty one: nothing to hide */
		err |= buf_add(tmp, done, (size_t)(a - done)) | BUF_LIT(tmp, URL_REDACTED "@");
		done = a + u;
	}
	if (done == t)
		return 0;
	err |= buf_add(tmp, done, (size_t)(end - done));
	if (err)
		return -ENOMEM;
	*s = tmp->data;
	*n = tmp->len;
	return 0;
}
