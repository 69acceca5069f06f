// SPDX-License-Identifier: MIT
/* Recovery templates: their placeholders checked when a pack loads, rendered into a repair. */
#include "template.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/url.h"

/* What a placeholder renders from: the document and the match in it. */
struct template_ctx {
	const char *doc;
	size_t len;
	uint64_t start, end;
	const char *source;
	/* [from, to): the match, or the link around it ("[text](URL)", with
	 * its text at [text_b, text_e) and link set, or "<URL>") */
	uint64_t from, to, text_b, text_e;
	bool link;
	bool drop_comma; /* {drop_comma} applied: the ',' after the match goes */
};

/*
 * "73.4%" -> "approximately 70%", "3.7 percent" -> "approximately 4
 * percent", "2.7x" -> "approximately 3x", "0.4%" -> "less than 1%",
 * "99.95%" -> "nearly 100%". One significant figure under 100 (two above):
 * a figure no one measured keeps no digit that looks measured, and the
 * result holds no decimal, which is what the statistics rules look for.
 */
static int put_approx(struct buf *out, const struct template_ctx *c)
{
	const char *t = c->doc + c->start;
	size_t n = (size_t)(c->end - c->start), i = 0, j, m = 0;
	char num[64];
	const char *sp;
	bool mult;
	double v, r;

	while (i < n && !isdigit((unsigned char)t[i]))
		i++;
	for (j = i; j < n && (isdigit((unsigned char)t[j]) || t[j] == '.' || t[j] == ','); j++)
		if (t[j] != ',' && m + 1 < sizeof(num))
			num[m++] = t[j];
	if (i == n || m == 0)
		return 0;
	num[m] = '\0';
	v = strtod(num, NULL);
	if (!(v >= 0 && v < 1e9))
		return 0;
	while (j < n && (t[j] == ' ' || t[j] == '\t'))
		j++;
	if (j < n && (unsigned char)t[j] == 0xC2 && j + 1 < n && (unsigned char)t[j + 1] == 0xA0)
		j += 2; /* a no-break space before the unit */
	if (j == n)
		return 0; /* a bare number: not what {approx} is for */
	sp = isalpha((unsigned char)t[j]) && t[j] != 'x' && t[j] != 'X' ? " " : "";
	mult = t[j] == 'x' || t[j] == 'X' || (unsigned char)t[j] == 0xC3;
	if (mult && v < 1.5)
		return buf_addf(out, "less than 2%s%.*s", sp, (int)(n - j), t + j);
	if (v < 1)
		return buf_addf(out, "less than 1%s%.*s", sp, (int)(n - j), t + j);
	if (v < 10)
		r = floor(v + 0.5);
	else if (v < 1000)
		r = floor(v / 10 + 0.5) * 10;
	else
		r = floor(v / 100 + 0.5) * 100;
	if (!mult && v < 100 && r >= 100)
		return buf_addf(out, "nearly 100%s%.*s", sp, (int)(n - j), t + j);
	return buf_addf(out, "approximately %.0f%s%.*s", r, sp, (int)(n - j), t + j);
}

static bool word_is(const char *t, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && strncasecmp(t, w, k) == 0 && (n == k || !isalpha((unsigned char)t[k]));
}

/*
 * Certainty hedged with the modal "may", which agrees with any subject:
 * "will definitely ship by May 2027" -> "may ship by May 2027", "will
 * most certainly" -> "may"; "is guaranteed to" -> "is expected to".
 */
static int put_may(struct buf *out, const struct template_ctx *c)
{
	static const char *const adverbs[] = {
		"most", "definitely", "certainly", "absolutely", "surely", "undoubtedly",
		"unquestionably", "guaranteed",
	};
	const char *t = c->doc + c->start, *g;
	size_t n = (size_t)(c->end - c->start), i;

	if (word_is(t, n, "will")) {
		t += 4, n -= 4;
		for (;;) {
			while (n > 0 && (*t == ' ' || *t == '\t'))
				t++, n--;
			for (i = 0; i < ARRAY_SIZE(adverbs) && !word_is(t, n, adverbs[i]); i++)
				;
			if (i == ARRAY_SIZE(adverbs))
				break;
			t += strlen(adverbs[i]), n -= strlen(adverbs[i]);
		}
		return n ? buf_addf(out, "may %.*s", (int)n, t) : buf_adds(out, "may");
	}
	g = memmem(t, n, "guaranteed to", 13);
	if (!g)
		return 0;
	if (buf_add(out, t, (size_t)(g - t)) < 0)
		return -ENOMEM;
	return buf_addf(out, "expected to%.*s", (int)(n - (size_t)(g - t) - 13), g + 13);
}

/* The grounded figure, when it is one figure (not "145 x 2", how a sum was made). */
static int put_source(struct buf *out, const struct template_ctx *c)
{
	const char *s = c->source;
	size_t i;

	if (!s || !*s)
		return 0;
	for (i = 0; s[i]; i++)
		if (s[i] == '\n' || (s[i] == ' ' && s[i + 1] && strchr("x*+-/=", s[i + 1]) &&
				     s[i + 2] == ' '))
			return 0;
	return buf_adds(out, s);
}

/* Words that say nothing of a page's topic. */
static bool stop_word(const char *w, size_t n)
{
	static const char *const stop[] = {
		"www", "com", "org", "net", "io", "html", "htm", "php", "asp", "aspx", "jsp",
		"index", "en", "us", "abs", "pdf", "blob", "tree", "main", "master", "edu",
		"gov", "co", "uk", "de", "dev", "app", "docs", "doc", "blog", "http", "https",
		"amp", "utm", "id", "page", "pages", "post", "posts", "article", "articles",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stop); i++)
		if (strlen(stop[i]) == n && strncasecmp(w, stop[i], n) == 0)
			return true;
	return false;
}

/* Does the list of words hold w already (in any case)? */
static bool has_word(const struct buf *list, const char *w, size_t n)
{
	size_t i = 0;

	while (i < list->len) {
		size_t k = i;

		while (k < list->len && list->data[k] != ' ')
			k++;
		if (k - i == n && strncasecmp(list->data + i, w, n) == 0)
			return true;
		i = k + 1;
	}
	return false;
}

/* Appends the words of p[0, n) (ASCII letters and digits, with a letter; not stop words). */
static int add_words(struct buf *out, const char *p, size_t n, size_t *count, size_t max)
{
	size_t i = 0;

	while (i < n && *count < max) {
		size_t k = i;
		bool letter = false;

		while (k < n && isalnum((unsigned char)p[k])) {
			letter |= isalpha((unsigned char)p[k]) != 0;
			k++;
		}
		if (k > i + 1 && letter && !stop_word(p + i, k - i) && !has_word(out, p + i, k - i)) {
			if ((out->len && buf_addc(out, ' ') < 0) || buf_add(out, p + i, k - i) < 0)
				return -ENOMEM;
			++*count;
		}
		/* A percent escape is a byte, not a word. */
		i = k < n && p[k] == '%' ? k + 3 : k + 1;
	}
	return 0;
}

/*
 * What to search for instead of a URL: the words of its link's text, else
 * the site's name and the words of its path ("https://docs.python.org/3/
 * library/asyncio-task.html" -> "python library asyncio task").
 */
static int put_topic(struct buf *out, const struct template_ctx *c)
{
	const char *t = c->doc + c->start, *s, *e, *dot;
	size_t n = (size_t)(c->end - c->start), count = 0, from, to;
	struct buf w = {0};
	int err = 0;

	if (c->link) {
		err = add_words(&w, c->doc + c->text_b, (size_t)(c->text_e - c->text_b), &count, 12);
		goto out;
	}
	s = memmem(t, n, "://", 3);
	if (!s)
		goto out;
	s += 3;
	url_host(s, (size_t)(t + n - s), &from, &to);
	/* The host's labels but the top-level one name the site ("python"). */
	for (dot = s + to; dot > s + from && dot[-1] != '.'; dot--)
		;
	if (dot > s + from)
		err = add_words(&w, s + from, (size_t)(dot - 1 - (s + from)), &count, 8);
	e = s + to;
	if (err == 0 && e < t + n) {
		size_t pn = (size_t)(t + n - e);
		const char *q = memchr(e, '?', pn), *h = memchr(e, '#', pn);

		if (q)
			pn = (size_t)(q - e);
		if (h && (size_t)(h - e) < pn)
			pn = (size_t)(h - e);
		err = add_words(&w, e, pn, &count, 8);
	}
	/* The site's name alone is no topic. */
	if (err == 0 && count < 2)
		w.len = 0;
out:
	if (err == 0 && w.len)
		err = buf_add(out, w.data, w.len);
	buf_free(&w);
	return err;
}

static int put_link_text(struct buf *out, const struct template_ctx *c)
{
	if (!c->link)
		return 0;
	return buf_add(out, c->doc + c->text_b, (size_t)(c->text_e - c->text_b));
}

static int put_text(struct buf *out, const struct template_ctx *c)
{
	return buf_add(out, c->doc + c->start, (size_t)(c->end - c->start));
}

/* Renders nothing; applies only where a ',' follows the match, which then goes too. */
static int put_drop_comma(struct buf *out, const struct template_ctx *c)
{
	(void)out;
	return c->end < c->len && c->doc[c->end] == ',' ? 1 : 0;
}

static const struct {
	const char *name;
	int (*put)(struct buf *, const struct template_ctx *);
} placeholders[] = {
	{"text", put_text},
	{"approx", put_approx},
	{"may", put_may},
	{"source", put_source},
	{"topic", put_topic},
	{"link_text", put_link_text},
	{"drop_comma", put_drop_comma},
};

int template_placeholder(const char *t, const void *table, size_t n, size_t stride, size_t *len)
{
	const char *close = strchr(t, '}');
	size_t i;

	if (!close)
		return -1;
	for (i = 0; i < n; i++) {
		const char *name = *(const char *const *)((const char *)table + i * stride);
		size_t k = strlen(name);

		if ((size_t)(close - t) == k && strncmp(t, name, k) == 0) {
			*len = k + 2;
			return (int)i;
		}
	}
	return -1;
}

/* The recovery placeholder at t (just after '{'), or -1. */
static int placeholder(const char *t, size_t *len)
{
	return template_placeholder(t, placeholders, ARRAY_SIZE(placeholders),
				    sizeof(placeholders[0]), len);
}

int template_check(const char *tmpl, const char **bad)
{
	const char *nl = strpbrk(tmpl, "\n\r");

	if (nl) {
		*bad = nl;
		return -EINVAL; /* a repair stays on its line: the diff and the offsets rely on it */
	}
	return template_check_names(tmpl, placeholders, ARRAY_SIZE(placeholders),
				    sizeof(placeholders[0]), bad);
}

int template_check_names(const char *tmpl, const void *table, size_t n, size_t stride,
			 const char **bad)
{
	const char *t = tmpl;

	while ((t = strpbrk(t, "{}"))) {
		size_t k;

		if (t[0] == t[1]) {
			t += 2;
			continue;
		}
		if (t[0] == '}' || template_placeholder(t + 1, table, n, stride, &k) < 0) {
			*bad = t;
			return -EINVAL;
		}
		t += k;
	}
	return 0;
}

/*
 * One template: 1 and out set when every placeholder applied (rendered
 * something, or {drop_comma} found its comma), 0 when one did not.
 */
static int render_one(const char *tmpl, struct template_ctx *c, struct buf *out)
{
	const char *t = tmpl;

	out->len = 0;
	c->drop_comma = false;
	while (*t) {
		const char *brace = strpbrk(t, "{}");
		size_t k, before;
		int ph, rc;

		if (!brace)
			return buf_adds(out, t) < 0 ? -ENOMEM : 1;
		if (buf_add(out, t, (size_t)(brace - t)) < 0)
			return -ENOMEM;
		if (brace[0] == brace[1]) {
			if (buf_addc(out, brace[0]) < 0)
				return -ENOMEM;
			t = brace + 2;
			continue;
		}
		ph = placeholder(brace + 1, &k);
		if (ph < 0)
			return 0; /* the loader refuses it; never render half a template */
		before = out->len;
		rc = placeholders[ph].put(out, c);
		if (rc < 0)
			return -ENOMEM;
		if (placeholders[ph].put == put_drop_comma) {
			if (rc == 0)
				return 0;
			c->drop_comma = true;
		} else if (out->len == before) {
			return 0;
		}
		t = brace + k;
	}
	return 1;
}

/* A Markdown link whose destination is the match: "[text](URL)", or "<URL>". */
static void find_link(struct template_ctx *c)
{
	const char *d = c->doc;
	uint64_t i;

	c->from = c->start;
	c->to = c->end;
	if (c->start >= 1 && c->end < c->len && d[c->start - 1] == '<' && d[c->end] == '>') {
		c->from--;
		c->to++;
		return;
	}
	if (c->start < 3 || c->end >= c->len || d[c->start - 1] != '(' || d[c->start - 2] != ']' ||
	    d[c->end] != ')')
		return;
	for (i = c->start - 2; i > 0 && c->start - 2 - i <= 512; i--) {
		char ch = d[i - 1];

		if (ch == '[')
			break;
		if (ch == ']' || ch == '\n' || ch == '<' || ch == '>')
			return;
	}
	if (i == 0 || d[i - 1] != '[')
		return;
	c->link = true;
	c->from = i - 1;
	c->to = c->end + 1;
	c->text_b = i;
	c->text_e = c->start - 2;
}

/* Does a sentence start at p: after the start, a line break, or ". " and the like? */
static bool sentence_start(const char *d, uint64_t p)
{
	while (p > 0 && (d[p - 1] == ' ' || d[p - 1] == '\t'))
		p--;
	return p == 0 || strchr(".!?\n", d[p - 1]) != NULL;
}

/*
 * "a 73.4% rise" is "an approximately 70% rise": the article before the
 * repair agrees with its first word, and is taken into it when it must
 * change (a letter's sound is guessed from the letter: "a", "e", "i", "o"
 * and "u" open with a vowel). Returns 0 or -ENOMEM.
 */
static int article(const char *doc, struct buf *with, uint64_t *from)
{
	uint64_t p = *from, w;
	bool vowel, an;
	struct buf b = {0};
	int err;

	if (!with->len || p < 2 || doc[p - 1] != ' ')
		return 0;
	w = p - 1;
	while (w > 0 && isalpha((unsigned char)doc[w - 1]))
		w--;
	if (w > 0 && !strchr(" \t\n(\"", doc[w - 1]))
		return 0;
	if (p - 1 - w == 1 && (doc[w] == 'a' || doc[w] == 'A'))
		an = false;
	else if (p - 1 - w == 2 && strncasecmp(doc + w, "an", 2) == 0)
		an = true;
	else
		return 0;
	vowel = strchr("aeiouAEIOU", with->data[0]) != NULL;
	if (vowel == an)
		return 0;
	err = buf_addf(&b, "%c%s %.*s", doc[w], vowel ? "n" : "", (int)with->len, with->data);
	if (err == 0) {
		buf_free(with);
		*with = b;
		*from = w;
	}
	return err;
}

int template_render(const char *const *tmpl, size_t n, const char *doc, size_t len,
		    uint64_t start, uint64_t end, const char *source, struct buf *with,
		    uint64_t *from, uint64_t *to)
{
	size_t used;

	return template_render_from(tmpl, 0, n, doc, len, start, end, source, with, from, to, &used);
}

int template_render_from(const char *const *tmpl, size_t i, size_t n, const char *doc,
			 size_t len, uint64_t start, uint64_t end, const char *source,
			 struct buf *with, uint64_t *from, uint64_t *to, size_t *used)
{
	struct template_ctx c = {.doc = doc, .len = len, .start = start, .end = end, .source = source};
	int rc = 0;
	char first;

	if (end > len || start >= end)
		return 0;
	find_link(&c);
	for (; i < n && rc == 0; i++)
		rc = render_one(tmpl[i], &c, with);
	if (rc <= 0)
		return rc;
	*used = i - 1;
	*from = c.from;
	*to = c.drop_comma ? end + 1 : c.to;
	if (article(doc, with, from) < 0)
		return -ENOMEM;
	/* The case of the sentence: a capital stays a capital, and a sentence starts with one. */
	first = doc[c.link ? c.text_b : start];
	if (with->len && islower((unsigned char)with->data[0]) &&
	    (isupper((unsigned char)first) || sentence_start(doc, c.from)))
		with->data[0] = (char)toupper((unsigned char)with->data[0]);
	return 1;
}
