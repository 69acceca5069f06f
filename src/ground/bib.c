// SPDX-License-Identifier: MIT
/* The user's bibliography: BibTeX and CSL-JSON readers, and matching. */
#include "bib.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/json.h"

/*
 * A word of an entry's normalized title: its hash, the entry, and how
 * often the title says it (among its first TITLE_WORDS words).
 */
struct posting {
	uint64_t hash;
	uint32_t entry, count;
};

/* An entry by one of its identifiers. */
struct by_id {
	const char *id;
	uint32_t entry;
};

struct bib {
	const struct refs *refs;
	struct bib_entry *e;
	size_t n, cap;
	/*
	 * Made anew by each bib_add(): the title words' postings, sorted by
	 * hash then entry (a title is compared only with those it shares a
	 * word with), and the entries with a DOI, and with an arXiv id,
	 * sorted by it then by entry.
	 */
	struct posting *post;
	size_t n_post;
	uint8_t *n_words; /* per entry: its title's words, up to TITLE_WORDS */
	struct by_id *dois, *arxivs;
	size_t n_dois, n_arxivs;
};

int bib_new(const struct refs *r, struct bib **out)
{
	struct bib *b = calloc(1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	b->refs = r;
	*out = b;
	return 0;
}

static void entry_free(struct bib_entry *e)
{
	free(e->key);
	free(e->title);
	free(e->title_key);
	free(e->author);
	free(e->doi);
	free(e->arxiv);
}

void bib_free(struct bib *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->n; i++)
		entry_free(&b->e[i]);
	free(b->e);
	free(b->post);
	free(b->n_words);
	free(b->dois);
	free(b->arxivs);
	free(b);
}

size_t bib_count(const struct bib *b)
{
	return b ? b->n : 0;
}

const struct bib_entry *bib_at(const struct bib *b, size_t i)
{
	return &b->e[i];
}

/* ---- the fields of an entry, as the readers find them ---- */

/* What a reader found of one entry, before it is kept: text and length each. */
struct fields {
	struct buf key, title, author, doi, arxiv, url, year, eprint_type;
	bool author_is_family; /* author holds a family name already (CSL-JSON) */
};

static void fields_clear(struct fields *f)
{
	f->key.len = f->title.len = f->author.len = f->doi.len = f->arxiv.len = f->url.len = 0;
	f->year.len = f->eprint_type.len = 0;
	f->author_is_family = false;
}

static void fields_free(struct fields *f)
{
	buf_free(&f->key);
	buf_free(&f->title);
	buf_free(&f->author);
	buf_free(&f->doi);
	buf_free(&f->arxiv);
	buf_free(&f->url);
	buf_free(&f->year);
	buf_free(&f->eprint_type);
}

static char *dup_n(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		if (n)
			memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* Lowercase ASCII copy of s, blanks around it out. */
static char *lower_dup(const char *s, size_t n)
{
	char *p;
	size_t i;

	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	p = dup_n(s, n);
	for (i = 0; p && i < n; i++)
		if (p[i] >= 'A' && p[i] <= 'Z')
			p[i] = (char)(p[i] - 'A' + 'a');
	return p;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The arXiv id of a value ("2101.00001v2", "arXiv:2101.00001", ".../abs/hep-th/9901001"), version out. */
static char *arxiv_of(const char *s, size_t n)
{
	const char *p = s, *end = s + n;
	size_t k;

	for (k = 0; k + 5 <= n; k++)
		if (strncasecmp(s + k, "/abs/", 5) == 0 || strncasecmp(s + k, "/pdf/", 5) == 0) {
			p = s + k + 5;
			break;
		}
	if (p == s && n >= 6 && strncasecmp(s, "arxiv:", 6) == 0)
		p = s + 6;
	while (p < end && *p == ' ')
		p++;
	for (k = 0; p + k < end && p[k] != ' ' && p[k] != '?' && p[k] != '#'; k++)
		;
	/* drop a version and a ".pdf" */
	if (k > 4 && strncasecmp(p + k - 4, ".pdf", 4) == 0)
		k -= 4;
	{
		size_t d = k;

		while (d > 0 && is_digit(p[d - 1]))
			d--;
		if (d > 1 && d < k && p[d - 1] == 'v')
			k = d - 1;
	}
	return k ? lower_dup(p, k) : dup_n("", 0);
}

/* The DOI of a value: "10.x/y", "doi:10.x/y" or "https://doi.org/10.x/y". */
static char *doi_of(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k + 3 < n; k++)
		if (s[k] == '1' && s[k + 1] == '0' && s[k + 2] == '.')
			return lower_dup(s + k, n - k);
	return dup_n("", 0);
}

static unsigned year_of(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 4 <= n; i++)
		if (is_digit(s[i]) && is_digit(s[i + 1]) && is_digit(s[i + 2]) && is_digit(s[i + 3]) &&
		    (i + 4 == n || !is_digit(s[i + 4])) && (i == 0 || !is_digit(s[i - 1]))) {
			unsigned y = (unsigned)((s[i] - '0') * 1000 + (s[i + 1] - '0') * 100 +
						(s[i + 2] - '0') * 10 + (s[i + 3] - '0'));

			return y >= 1000 && y <= 2999 ? y : 0;
		}
	return 0;
}

int bib_first_author(const char *a, size_t n, struct buf *out)
{
	size_t end = n, i, comma = n, last_b = 0, last_e = 0, first_b = 0, first_e = 0, words = 0;
	bool last_initials = false;

	/* The first author: up to " and ", "&", ";", or the comma of a list. */
	for (i = 0; i < n; i++) {
		if (a[i] == '&' || a[i] == ';' || (i + 5 <= n && strncasecmp(a + i, " and ", 5) == 0)) {
			end = i;
			break;
		}
	}
	for (i = 0; i < end; i++)
		if (a[i] == ',') {
			comma = i;
			break;
		}
	if (comma < end)
		end = comma; /* "Smith, J." and "Halpern SD, Ubel PA": the part before it */
	for (i = 0; i < end;) {
		size_t b, e, k, caps = 0;

		while (i < end && (a[i] == ' ' || a[i] == '\t' || a[i] == '{' || a[i] == '}'))
			i++;
		b = i;
		while (i < end && a[i] != ' ' && a[i] != '\t')
			i++;
		e = i;
		while (e > b && (a[e - 1] == '.' || a[e - 1] == '}'))
			e--;
		if (e == b)
			continue;
		for (k = b; k < e; k++)
			caps += (a[k] >= 'A' && a[k] <= 'Z') || a[k] == '.' || a[k] == '-';
		if (words++ == 0)
			first_b = b, first_e = e;
		/* "SD", "J.", "J.-P." are initials, not a family name. */
		last_initials = caps == e - b && e - b <= 3;
		if (!last_initials)
			last_b = b, last_e = e;
	}
	if (words == 0)
		return 0;
	/* "Halpern SD": the name before the initials; "M. Jockers", "Francisco Ramalho": the last. */
	if (last_initials && words > 1)
		return refs_title_key(NULL, a + first_b, first_e - first_b, out);
	return last_e > last_b ? refs_title_key(NULL, a + last_b, last_e - last_b, out) : 0;
}

/* Keeps an entry from the fields found; an entry without a title, DOI or arXiv id is skipped. */
static int keep(struct bib *b, struct fields *f)
{
	struct bib_entry e = {0};
	struct buf k = {0};
	int err = -ENOMEM;

	if (!f->title.len && !f->doi.len && !f->arxiv.len && !f->url.len)
		return 0;
	if (b->n == BIB_MAX_ENTRIES)
		return -E2BIG;
	if (grow(&b->e, &b->cap, b->n + 1, sizeof(*b->e)) < 0)
		return -ENOMEM;
	e.key = dup_n(f->key.data ? f->key.data : "", f->key.len);
	e.title = dup_n(f->title.data ? f->title.data : "", f->title.len);
	if (refs_title_key(b->refs, f->title.data ? f->title.data : "", f->title.len, &k) < 0 ||
	    buf_addc(&k, '\0') < 0)
		goto fail;
	e.title_key = dup_n(k.data, k.len - 1);
	k.len = 0;
	if (f->author_is_family ? refs_title_key(NULL, f->author.data ? f->author.data : "", f->author.len, &k)
				: bib_first_author(f->author.data ? f->author.data : "", f->author.len, &k))
		goto fail;
	if (buf_addc(&k, '\0') < 0)
		goto fail;
	e.author = dup_n(k.data, k.len - 1);
	e.year = year_of(f->year.data ? f->year.data : "", f->year.len);
	e.doi = doi_of(f->doi.data ? f->doi.data : "", f->doi.len);
	if (f->arxiv.len)
		e.arxiv = arxiv_of(f->arxiv.data, f->arxiv.len);
	else if (f->url.len && memmem(f->url.data, f->url.len, "arxiv.org/", 10))
		e.arxiv = arxiv_of(f->url.data, f->url.len);
	else
		e.arxiv = dup_n("", 0);
	if (!e.key || !e.title || !e.title_key || !e.author || !e.doi || !e.arxiv)
		goto fail;
	buf_free(&k);
	b->e[b->n++] = e;
	return 0;
fail:
	buf_free(&k);
	entry_free(&e);
	return err;
}

/* ---- BibTeX ---- */

struct bt {
	const char *s;
	size_t n, i;
	const char *name;
	struct diag *d;
};

static int bt_fail(struct bt *t, size_t at, const char *why)
{
	size_t line = 1, col = 1, i;

	for (i = 0; i < at && i < t->n; i++) {
		if (t->s[i] == '\n')
			line++, col = 1;
		else if (((unsigned char)t->s[i] & 0xC0) != 0x80)
			col++;
	}
	return diag_set(t->d, -EINVAL, "%s:%zu:%zu: %s", t->name, line, col, why);
}

static void bt_blank(struct bt *t)
{
	while (t->i < t->n) {
		char c = t->s[t->i];

		if (c == '%') { /* a comment to the end of the line */
			while (t->i < t->n && t->s[t->i] != '\n')
				t->i++;
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			t->i++;
		} else {
			break;
		}
	}
}

/* Appends a braced or quoted value's text: braces out, "\x{y}" and "\command" as their letters. */
static int bt_text(struct buf *out, const char *s, size_t n)
{
	size_t i;
	int err = 0;

	for (i = 0; i < n && err == 0; i++) {
		char c = s[i];

		if (c == '{' || c == '}')
			continue;
		if (c == '\\') {
			/* \"o, \'{e}, \textit{x}: the command goes, its letters stay */
			if (i + 1 < n && strchr("\"'`^~=.", s[i + 1])) {
				i++;
				continue;
			}
			while (i + 1 < n && ((s[i + 1] >= 'a' && s[i + 1] <= 'z') || (s[i + 1] >= 'A' && s[i + 1] <= 'Z')))
				i++;
			continue;
		}
		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		err = buf_addc(out, c);
	}
	return err;
}

/* A field's value at t->i: {...}, "..." or a bare word, joined by #. */
static int bt_value(struct bt *t, struct buf *out)
{
	int err;

	for (;;) {
		size_t from;

		bt_blank(t);
		if (t->i >= t->n)
			return bt_fail(t, t->i, "a field's value is missing at the end of the file");
		from = t->i;
		if (t->s[t->i] == '{' || t->s[t->i] == '"') {
			char quote = t->s[t->i];
			size_t depth = 0;

			for (t->i++; t->i < t->n; t->i++) {
				char c = t->s[t->i];

				if (c == '\\' && t->i + 1 < t->n) {
					t->i++;
					continue;
				}
				if (c == '{')
					depth++;
				else if (c == '}' && depth > 0)
					depth--;
				else if (depth == 0 && ((quote == '{' && c == '}') || (quote == '"' && c == '"')))
					break;
				else if (c == '}' && quote == '"')
					return bt_fail(t, t->i, "an unbalanced \"}\" in a quoted value");
			}
			if (t->i >= t->n)
				return bt_fail(t, from, "a value that is never closed");
			err = bt_text(out, t->s + from + 1, t->i - from - 1);
			t->i++;
		} else {
			while (t->i < t->n && !strchr(",}#) \t\r\n", t->s[t->i]))
				t->i++;
			if (t->i == from)
				return bt_fail(t, from, "a field's value is missing");
			err = buf_add(out, t->s + from, t->i - from);
		}
		if (err < 0)
			return err;
		bt_blank(t);
		if (t->i < t->n && t->s[t->i] == '#') {
			t->i++;
			continue;
		}
		return 0;
	}
}

static struct buf *bt_field(struct fields *f, const char *name, size_t n, struct buf *skip)
{
	static const struct {
		const char *name;
		size_t off;
	} map[] = {
		{"title", offsetof(struct fields, title)},   {"author", offsetof(struct fields, author)},
		{"year", offsetof(struct fields, year)},     {"doi", offsetof(struct fields, doi)},
		{"eprint", offsetof(struct fields, arxiv)},  {"arxiv", offsetof(struct fields, arxiv)},
		{"url", offsetof(struct fields, url)},       {"archiveprefix", offsetof(struct fields, eprint_type)},
		{"eprinttype", offsetof(struct fields, eprint_type)},
		{"date", offsetof(struct fields, year)},
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].name) == n && strncasecmp(map[i].name, name, n) == 0) {
			struct buf *b = (struct buf *)((char *)f + map[i].off);

			/* the first "year" or "date" wins */
			if (b->len && (b == &f->year))
				return skip;
			b->len = 0;
			return b;
		}
	return skip;
}

static int bt_entry(struct bib *b, struct bt *t, struct fields *f, struct buf *skip)
{
	size_t at = t->i, w, type_len;
	const char *type;
	char close;
	int err;

	t->i++; /* '@' */
	for (w = t->i; t->i < t->n && ((t->s[t->i] >= 'a' && t->s[t->i] <= 'z') ||
				       (t->s[t->i] >= 'A' && t->s[t->i] <= 'Z')); t->i++)
		;
	if (t->i == w)
		return bt_fail(t, at, "\"@\" is not followed by an entry type");
	type = t->s + w;
	type_len = t->i - w;
	bt_blank(t);
	if (t->i >= t->n || (t->s[t->i] != '{' && t->s[t->i] != '('))
		return bt_fail(t, t->i, "an entry type is not followed by \"{\" or \"(\"");
	close = t->s[t->i] == '{' ? '}' : ')';
	t->i++;
	/* @comment, @preamble, @string: skipped whole, braces balanced. */
	if ((type_len == 7 && strncasecmp(type, "comment", 7) == 0) ||
	    (type_len == 8 && strncasecmp(type, "preamble", 8) == 0) ||
	    (type_len == 6 && strncasecmp(type, "string", 6) == 0)) {
		size_t depth = 1;

		for (; t->i < t->n && depth > 0; t->i++)
			if (t->s[t->i] == '{' || t->s[t->i] == '(')
				depth++;
			else if (t->s[t->i] == '}' || t->s[t->i] == ')')
				depth--;
		return depth ? bt_fail(t, at, "an entry that is never closed") : 0;
	}
	fields_clear(f);
	bt_blank(t);
	for (w = t->i; t->i < t->n && !strchr(",}) \t\r\n", t->s[t->i]); t->i++)
		;
	if ((err = buf_add(&f->key, t->s + w, t->i - w)) < 0)
		return err;
	for (;;) {
		struct buf *v;
		size_t name;

		bt_blank(t);
		if (t->i < t->n && t->s[t->i] == ',') {
			t->i++;
			bt_blank(t);
		}
		if (t->i >= t->n)
			return bt_fail(t, at, "an entry that is never closed");
		if (t->s[t->i] == close) {
			t->i++;
			break;
		}
		for (name = t->i; t->i < t->n && ((t->s[t->i] >= 'a' && t->s[t->i] <= 'z') ||
						  (t->s[t->i] >= 'A' && t->s[t->i] <= 'Z') ||
						  is_digit(t->s[t->i]) || strchr("_-:.", t->s[t->i])); t->i++)
			;
		if (t->i == name)
			return bt_fail(t, t->i, "a field name is expected here");
		v = bt_field(f, t->s + name, t->i - name, skip);
		bt_blank(t);
		if (t->i >= t->n || t->s[t->i] != '=')
			return bt_fail(t, t->i, "a field name is not followed by \"=\"");
		t->i++;
		skip->len = 0;
		if ((err = bt_value(t, v)) != 0)
			return err;
	}
	/* eprint is an arXiv id only with archivePrefix = arXiv (or none given). */
	if (f->eprint_type.len && !(f->eprint_type.len == 5 && strncasecmp(f->eprint_type.data, "arxiv", 5) == 0))
		f->arxiv.len = 0;
	return keep(b, f);
}

static int read_bibtex(struct bib *b, const char *name, const char *s, size_t n, struct diag *d)
{
	struct bt t = {s, n, 0, name, d};
	struct fields f = {0};
	struct buf skip = {0};
	int err = 0;

	while (err == 0) {
		const char *at = t.i < n ? memchr(s + t.i, '@', n - t.i) : NULL;

		if (!at)
			break;
		t.i = (size_t)(at - s);
		err = bt_entry(b, &t, &f, &skip);
		if (err == -E2BIG)
			err = bt_fail(&t, t.i, "more entries than a bibliography may hold (100000)");
	}
	fields_free(&f);
	buf_free(&skip);
	return err;
}

/* ---- CSL-JSON ---- */

static int csl_str(const struct json_value *v, struct buf *out)
{
	size_t n;
	const char *s = json_string(v, &n);
	double d;

	if (s)
		return buf_add(out, s, n);
	if (json_number(v, &d) == 0 && d >= 0 && d < 1e9)
		return buf_addf(out, "%.0f", d);
	return 0;
}

static int csl_item(struct bib *b, const struct json_value *it, struct fields *f)
{
	const struct json_value *a = json_array_at(json_get(it, "author"), 0), *dp;
	int err = 0;

	fields_clear(f);
	err |= csl_str(json_get(it, "id"), &f->key);
	err |= csl_str(json_get(it, "title"), &f->title);
	err |= csl_str(json_get(it, "DOI"), &f->doi);
	err |= csl_str(json_get(it, "URL"), &f->url);
	err |= csl_str(json_get(it, "arxiv"), &f->arxiv);
	if (json_get(a, "family")) {
		err |= csl_str(json_get(a, "family"), &f->author);
		f->author_is_family = true;
	} else {
		err |= csl_str(json_get(a, "literal"), &f->author);
	}
	dp = json_array_at(json_array_at(json_get(json_get(it, "issued"), "date-parts"), 0), 0);
	if (dp)
		err |= csl_str(dp, &f->year);
	else
		err |= csl_str(json_get(json_get(it, "issued"), "raw"), &f->year);
	if (err)
		return -ENOMEM;
	return keep(b, f);
}

static int read_csl(struct bib *b, const char *name, const char *s, size_t n, struct diag *d)
{
	struct json_value *root = NULL;
	struct json_error je = {0};
	struct fields f = {0};
	size_t i, items;
	int err = json_parse(s, n, &root, &je);

	if (err == -EINVAL) {
		struct bt t = {s, n, 0, name, d};

		return bt_fail(&t, je.offset, je.msg ? je.msg : "not JSON");
	}
	if (err < 0)
		return err;
	if (json_type(root) == JSON_OBJECT) {
		err = csl_item(b, root, &f);
	} else if (json_type(root) == JSON_ARRAY) {
		items = json_array_len(root);
		for (i = 0; i < items && err == 0; i++) {
			const struct json_value *it = json_array_at(root, i);

			if (json_type(it) != JSON_OBJECT) {
				size_t at, end;
				struct bt t = {s, n, 0, name, d};

				json_span(it, &at, &end);
				err = bt_fail(&t, at, "a CSL-JSON item must be an object");
				break;
			}
			err = csl_item(b, it, &f);
		}
	} else {
		struct bt t = {s, n, 0, name, d};

		err = bt_fail(&t, 0, "CSL-JSON is an array of items or one item");
	}
	if (err == -E2BIG)
		err = diag_set(d, -EINVAL, "%s: more entries than a bibliography may hold (100000)", name);
	fields_free(&f);
	json_free(root);
	return err;
}

/* ---- the indexes ---- */

/* A title's words are compared up to this many (bib_title_similarity()). */
#define TITLE_WORDS 64

static size_t words_of(const char *s, size_t *w, size_t max);

/*
 * The distinct words of a normalized title as postings (entry left 0),
 * each with how often it is said; returns how many, at most TITLE_WORDS.
 * Two words of one hash are taken for one: they are only candidates.
 */
static size_t title_postings(const char *t, struct posting *out, size_t *n_words)
{
	size_t w[2 * TITLE_WORDS], n = words_of(t, w, TITLE_WORDS), k = 0, i, j;

	for (i = 0; i < n; i++) {
		uint64_t h = fnv1a64(t + w[2 * i], w[2 * i + 1] - w[2 * i]);

		for (j = 0; j < k && out[j].hash != h; j++)
			;
		if (j == k)
			out[k++] = (struct posting){.hash = h};
		out[j].count++;
	}
	*n_words = n;
	return k;
}

static int cmp_posting(const void *pa, const void *pb)
{
	const struct posting *a = pa, *b = pb;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return (a->entry > b->entry) - (a->entry < b->entry);
}

static int cmp_by_id(const void *pa, const void *pb)
{
	const struct by_id *a = pa, *b = pb;
	int c = strcmp(a->id, b->id);

	return c ? c : (a->entry > b->entry) - (a->entry < b->entry);
}

/* Makes the indexes over every entry anew; on -ENOMEM the old ones stay. */
static int index_entries(struct bib *b)
{
	struct posting one[TITLE_WORDS], *post = NULL;
	struct by_id *dois, *arxivs;
	uint8_t *words;
	size_t i, j, k, n_words, cap = 0, n_post = 0, n_dois = 0, n_arxivs = 0;

	dois = malloc(MAX(b->n, 1) * sizeof(*dois));
	arxivs = malloc(MAX(b->n, 1) * sizeof(*arxivs));
	words = malloc(MAX(b->n, 1));
	if (!dois || !arxivs || !words)
		goto nomem;
	for (i = 0; i < b->n; i++) {
		const struct bib_entry *x = &b->e[i];

		n_words = 0;
		k = x->title_key[0] ? title_postings(x->title_key, one, &n_words) : 0;
		words[i] = (uint8_t)n_words;
		if (grow(&post, &cap, n_post + k, sizeof(*post)) < 0)
			goto nomem;
		for (j = 0; j < k; j++) {
			one[j].entry = (uint32_t)i;
			post[n_post++] = one[j];
		}
		if (x->doi[0])
			dois[n_dois++] = (struct by_id){x->doi, (uint32_t)i};
		if (x->arxiv[0])
			arxivs[n_arxivs++] = (struct by_id){x->arxiv, (uint32_t)i};
	}
	if (n_post) /* (post is NULL when no entry has a title) */
		qsort(post, n_post, sizeof(*post), cmp_posting);
	qsort(dois, n_dois, sizeof(*dois), cmp_by_id);
	qsort(arxivs, n_arxivs, sizeof(*arxivs), cmp_by_id);
	free(b->post);
	free(b->n_words);
	free(b->dois);
	free(b->arxivs);
	b->post = post;
	b->n_words = words;
	b->dois = dois;
	b->arxivs = arxivs;
	b->n_post = n_post;
	b->n_dois = n_dois;
	b->n_arxivs = n_arxivs;
	return 0;
nomem:
	free(post);
	free(dois);
	free(arxivs);
	free(words);
	return -ENOMEM;
}

/* The first entry (in the order read) whose identifier is id, or SIZE_MAX. */
static size_t find_id(const struct by_id *v, size_t n, const char *id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(v[lo].id, id) == 0 ? v[lo].entry : SIZE_MAX;
}

/* The first posting of hash h, or n_post. */
static size_t find_posting(const struct bib *b, uint64_t h)
{
	size_t lo = 0, hi = b->n_post;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->post[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int bib_add(struct bib *b, const char *name, const char *data, size_t len, struct diag *d)
{
	size_t i = 0, before = b->n;
	int err;

	if (len > BIB_MAX_BYTES)
		return diag_set(d, -EINVAL, "%s: larger than a bibliography may be (64 MiB)", name);
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
		i = 3; /* a byte-order mark */
	while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
		i++;
	if (i < len && (data[i] == '[' || data[i] == '{'))
		err = read_csl(b, name, data + i, len - i, d);
	else
		err = read_bibtex(b, name, data, len, d);
	if (err == 0 && b->n == before)
		err = diag_set(d, -EINVAL, "%s: holds no entry with a title, DOI or arXiv id (BibTeX or CSL-JSON)",
			       name);
	if (err < 0) {
		/* nothing of a refused file stays */
		while (b->n > before)
			entry_free(&b->e[--b->n]);
	}
	if (err == 0 && (err = index_entries(b)) < 0) {
		/* (the indexes of the entries before it stay) */
		while (b->n > before)
			entry_free(&b->e[--b->n]);
	}
	return err;
}

/* ---- matching ---- */

/* Words of a normalized title as [start, end) pairs, at most max of them. */
static size_t words_of(const char *s, size_t *w, size_t max)
{
	size_t n = 0, i = 0, len = strlen(s);

	while (i < len && n < max) {
		size_t j = i;

		while (j < len && s[j] != ' ')
			j++;
		w[2 * n] = i, w[2 * n + 1] = j;
		n++;
		i = j + 1;
	}
	return n;
}

double bib_title_similarity(const char *a, const char *b)
{
	size_t wa[2 * 64], wb[2 * 64], na, nb, i, j, common = 0;
	bool used[64] = {false};

	if (strcmp(a, b) == 0)
		return *a ? 1.0 : 0.0;
	na = words_of(a, wa, 64);
	nb = words_of(b, wb, 64);
	if (na == 0 || nb == 0)
		return 0.0;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (!used[j] && wa[2 * i + 1] - wa[2 * i] == wb[2 * j + 1] - wb[2 * j] &&
			    memcmp(a + wa[2 * i], b + wb[2 * j], wa[2 * i + 1] - wa[2 * i]) == 0) {
				used[j] = true;
				common++;
				break;
			}
	return 2.0 * (double)common / (double)(na + nb);
}

/*
 * The entry whose title is most like key, the first read of those alike,
 * among those that can be at least min_similarity like it; *best NULL when
 * none. Only entries sharing a word with it are looked at (through the
 * postings), and only those whose words in common could reach the bound
 * are compared word by word: bib_title_similarity() decides, as over
 * every entry (one of them at most once as like as it counted them).
 */
static int best_title(const struct bib *b, const char *key, double min_similarity,
		      const struct bib_entry **best, double *best_sim)
{
	struct posting q[TITLE_WORDS];
	size_t from[TITLE_WORDS], na, nq = title_postings(key, q, &na), i, j, work = 0, cap = 16;
	uint32_t *slot, *common;
	size_t found = SIZE_MAX;

	*best = NULL;
	*best_sim = 0;
	for (i = 0; i < nq; i++) {
		from[i] = find_posting(b, q[i].hash);
		for (j = from[i]; j < b->n_post && b->post[j].hash == q[i].hash; j++)
			work++;
	}
	if (work == 0)
		return 0;
	/* (no more entries than the bibliography holds: words every title
	 * has cost time, never more room) */
	while (cap < 2 * MIN(work, b->n))
		cap *= 2;
	/* entry + 1 by slot (0: free), and the words it shares with key */
	slot = calloc(cap, sizeof(*slot));
	common = calloc(cap, sizeof(*common));
	if (!slot || !common) {
		free(slot);
		free(common);
		return -ENOMEM;
	}
	for (i = 0; i < nq; i++)
		for (j = from[i]; j < b->n_post && b->post[j].hash == q[i].hash; j++) {
			const struct posting *p = &b->post[j];
			size_t h = (p->entry * 0x9e3779b1u) & (cap - 1);

			while (slot[h] && slot[h] != p->entry + 1)
				h = (h + 1) & (cap - 1);
			slot[h] = p->entry + 1;
			common[h] += MIN(q[i].count, p->count);
		}
	for (i = 0; i < cap; i++) {
		size_t x = (size_t)slot[i] - 1;
		double sim;

		if (!slot[i] || 2.0 * (double)common[i] / (double)(na + b->n_words[x]) < min_similarity)
			continue;
		sim = bib_title_similarity(key, b->e[x].title_key);
		if (sim > 0 && (sim > *best_sim || (sim == *best_sim && x < found))) {
			*best_sim = sim;
			found = x;
		}
	}
	free(slot);
	free(common);
	if (found != SIZE_MAX)
		*best = &b->e[found];
	return 0;
}

enum bib_verdict bib_match(const struct bib *b, const struct ref_entry *e, const char *text,
			   double min_similarity, const struct bib_entry **which, const char **why)
{
	struct buf k = {0}, au = {0};
	const struct bib_entry *best = NULL, *by_id = NULL;
	double best_sim = 0;
	char *doi = NULL, *arxiv = NULL;
	enum bib_verdict v = BIB_NONE;
	size_t i;
	int err;

	*which = NULL;
	*why = "";
	if (!b || b->n == 0)
		return BIB_NONE;
	if (e->title.len && (refs_title_key(b->refs, text + e->title.off, e->title.len, &k) < 0 ||
			     buf_addc(&k, '\0') < 0))
		goto out;
	if (e->doi.len)
		doi = lower_dup(text + e->doi.off, e->doi.len);
	if (e->arxiv.len)
		arxiv = arxiv_of(text + e->arxiv.off, e->arxiv.len);
	if (k.len > 1) {
		err = best_title(b, k.data, min_similarity, &best, &best_sim);
		if (err < 0)
			goto out;
	}
	i = MIN(doi && *doi ? find_id(b->dois, b->n_dois, doi) : SIZE_MAX,
		arxiv && *arxiv ? find_id(b->arxivs, b->n_arxivs, arxiv) : SIZE_MAX);
	if (i != SIZE_MAX)
		by_id = &b->e[i];
	if (best && best_sim >= min_similarity) {
		*which = best;
		if (e->year && best->year && e->year != best->year) {
			v = BIB_ALTERED;
			*why = "another year";
		} else if (e->authors.len && best->author[0] &&
			   bib_first_author(text + e->authors.off, e->authors.len, &au) == 0 &&
			   au.len > 0 && (au.len != strlen(best->author) || memcmp(au.data, best->author, au.len) != 0)) {
			v = BIB_ALTERED;
			*why = "another first author";
		} else {
			v = BIB_MATCH;
		}
	} else if (by_id) {
		*which = by_id;
		/* An id alone (in prose) is the entry; an id on another title is an altered one. */
		if (k.len <= 1 || !by_id->title_key[0]) {
			v = BIB_MATCH;
		} else {
			v = BIB_ALTERED;
			*why = "its identifier on another title";
		}
	}
out:
	buf_free(&k);
	buf_free(&au);
	free(doi);
	free(arxiv);
	return v;
}
