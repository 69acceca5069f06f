// SPDX-License-Identifier: MIT
/* Tool-output spans across reads: a state machine on delimiter matches. */
#include "spans.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The bytes of a nonce; with these, a nonce form is made of its delimiter's and ' ="'. */
static const char nonce_bytes[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-";

int spans_check_nonce(const char *nonce)
{
	size_t n = strlen(nonce);

	if (n < SPANS_NONCE_MIN || n > SPANS_NONCE_MAX || strspn(nonce, nonce_bytes) != n)
		return -EINVAL;
	return 0;
}

/* The length of d's stem: all but a closing bracket at its end. */
static size_t stem_len(const char *d)
{
	size_t n = strlen(d);

	return n > 1 && strchr(">])}", d[n - 1]) ? n - 1 : n;
}

/* Each byte as \xHH: a delimiter is a byte string, whatever it holds. */
static int put_escaped(struct buf *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;
	int err = 0;

	for (i = 0; i < n && err == 0; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};

		err = buf_add(out, e, 4);
	}
	return err;
}

/* The limits as text at compile time: a vsnprintf() for each delimiter
 * was half of building their patterns at every start (issue 35). */
#define SPANS_STR_(x) #x
#define SPANS_STR(x) SPANS_STR_(x)

int spans_pattern(const char *d, struct buf *out)
{
	size_t stem = stem_len(d);
	bool tail = d[stem] != '\0';
	int err = 0;

	out->len = 0;
	err |= put_escaped(out, d, stem);
	if (tail) {
		/*
		 * Attributes hold neither the closing bracket (the match ends at
		 * the first) nor, unless a nonce form needs it, the stem's first
		 * byte: then no match starts inside another, and a genuine
		 * delimiter is never swallowed by text before it on its line.
		 */
		err |= BUF_LIT(out, "(?:[ \\t][^\\x0a");
		if (!strchr(nonce_bytes, d[0]) && !strchr(" =\"", d[0]))
			err |= put_escaped(out, d, 1);
		err |= put_escaped(out, d + stem, 1);
		err |= BUF_LIT(out, "]{0," SPANS_STR(SPANS_ATTR_MAX) "})?");
		err |= put_escaped(out, d + stem, 1);
	} else {
		err |= BUF_LIT(out, "(?:[ \\t]nonce=\"[^\\x0a\"]{0," SPANS_STR(SPANS_NONCE_MAX) "}\")?");
	}
	return err ? -ENOMEM : 0;
}

int spans_nonce_form(const char *d, const char *nonce, struct buf *out)
{
	size_t stem = stem_len(d);
	int err = 0;

	out->len = 0;
	err |= buf_add(out, d, stem);
	err |= BUF_LIT(out, " nonce=\"");
	err |= buf_adds(out, nonce);
	err |= buf_addc(out, '"');
	err |= buf_adds(out, d + stem);
	return err ? -ENOMEM : 0;
}

void spans_fini(struct spans *s)
{
	size_t i;

	for (i = 0; s->form && i < s->n_delims; i++)
		buf_free(&s->form[i]);
	free(s->form);
	s->form = NULL;
	s->n_delims = 0;
}

int spans_init(struct spans *s, const struct ruleset *rs, const char *nonce)
{
	size_t n = 2 * rs->n_spans, i;
	struct buf *form;
	int err = 0;

	if (nonce && spans_check_nonce(nonce) < 0)
		return -EINVAL;
	form = calloc(n ? n : 1, sizeof(*form));
	if (!form)
		return -ENOMEM;
	for (i = 0; i < n && err == 0; i++) {
		const char *d = i % 2 ? rs->spans[i / 2].close : rs->spans[i / 2].open;

		err = nonce ? spans_nonce_form(d, nonce, &form[i]) : buf_adds(&form[i], d);
	}
	if (err < 0) {
		for (i = 0; i < n; i++)
			buf_free(&form[i]);
		free(form);
		return -ENOMEM;
	}
	spans_fini(s);
	s->form = form;
	s->n_delims = n;
	s->nonce = nonce != NULL;
	spans_reset(s);
	return 0;
}

void spans_reset(struct spans *s)
{
	s->open = false;
	s->pair = 0;
	s->open_from = s->open_to = s->closed_to = 0;
	s->n_spans = 0;
}

enum span_change spans_delimiter(struct spans *s, size_t id, const char *text, size_t n,
				 uint64_t from, uint64_t to)
{
	bool opener = id % 2 == 0;
	const struct buf *f = &s->form[id];
	bool accepted = n == f->len && memcmp(text, f->data, n) == 0;

	if (!s->open) {
		if (!accepted)
			return s->nonce ? SPAN_SPOOFED : SPAN_SAME;
		if (!opener)
			return SPAN_SAME; /* a closer with no span open is text */
		s->open = true;
		s->pair = id / 2;
		s->open_from = from;
		s->open_to = to;
		s->n_spans++;
		return SPAN_OPENED;
	}
	if (!accepted || opener || id / 2 != s->pair)
		return SPAN_SAME; /* delimiters inside a span are its data */
	s->open = false;
	s->closed_to = to;
	return SPAN_CLOSED;
}
