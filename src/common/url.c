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

/* What a byte may be in url_end()'s classes, by bit. */
enum { URL_C = 1, URL_D = 2, URL_E = 4 };

static unsigned url_class(unsigned char c)
{
	if (c <= 0x20 || c == 0x7F)
		return 0;
	switch (c) {
	case '<': case '>': case '"': case '\'': case '`':
	case '(': case ')': case '[': case ']': case '{': case '}':
		return 0;
	case '|': case '\\': case '^':
		return URL_D;
	case '.': case ',': case ';': case ':': case '!': case '?': case '*': case '_': case '~':
		return URL_C | URL_D;
	default:
		return URL_C | URL_D | URL_E;
	}
}

/*
 * After the scheme and the host's first byte the URL is a run of tokens,
 * each a C byte or a group "(" D* ")", that ends with an E byte or a group;
 * C holds no parenthesis, so the run splits into tokens one way only, and
 * the longest match ends after the last such token before the first byte
 * that starts none (or a group that does not close).
 */
size_t url_end(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 4, end = 0;

	if (n < 9 || (u[0] | 0x20) != 'h' || (u[1] | 0x20) != 't' || (u[2] | 0x20) != 't' ||
	    (u[3] | 0x20) != 'p')
		return 0;
	if ((u[i] | 0x20) == 's')
		i++;
	if (i + 4 > n || u[i] != ':' || u[i + 1] != '/' || u[i + 2] != '/')
		return 0;
	i += 3;
	if (!(((u[i] | 0x20) >= 'a' && (u[i] | 0x20) <= 'z') || (u[i] >= '0' && u[i] <= '9')))
		return 0;
	for (i++; i < n;) {
		unsigned char k = url_class(u[i]);

		if (k & URL_C) {
			i++;
			if (k & URL_E)
				end = i;
		} else if (u[i] == '(') {
			size_t j = i + 1;

			while (j < n && (url_class(u[j]) & URL_D))
				j++;
			if (j == n || u[j] != ')')
				break;
			i = end = j + 1;
		} else {
			break;
		}
	}
	return end;
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
