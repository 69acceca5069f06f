// SPDX-License-Identifier: MIT
/* The grounded set: normalized items of tool output, bounded, oldest evicted first. */
#include "ground.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BUCKETS 8192 /* a power of two, twice GROUND_CAP */
#define NIL UINT32_MAX

struct entry {
	uint64_t hash, at;
	uint32_t next; /* the next entry in its bucket */
	uint16_t len;
	char key[GROUND_KEY_MAX];
};

struct ground {
	struct entry *e;      /* a ring: e[head] is the oldest */
	uint32_t head, count;
	uint32_t bucket[BUCKETS];
	struct ground_quantity *q; /* a ring of quantities, likewise */
	uint32_t qhead, qcount;
	uint64_t evictions;
	bool active;
};

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
	return h;
}

int ground_new(struct ground **out)
{
	struct ground *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	g->e = malloc(GROUND_CAP * sizeof(*g->e));
	g->q = malloc(GROUND_CAP * sizeof(*g->q));
	if (!g->e || !g->q) {
		ground_free(g);
		return -ENOMEM;
	}
	ground_reset(g);
	*out = g;
	return 0;
}

void ground_free(struct ground *g)
{
	if (!g)
		return;
	free(g->e);
	free(g->q);
	free(g);
}

void ground_reset(struct ground *g)
{
	g->head = g->count = 0;
	g->qhead = g->qcount = 0;
	g->evictions = 0;
	g->active = false;
	memset(g->bucket, 0xff, sizeof(g->bucket));
}

uint64_t ground_evictions(const struct ground *g)
{
	return g->evictions;
}

static uint32_t *slot_of(struct ground *g, uint64_t hash)
{
	return &g->bucket[hash & (BUCKETS - 1)];
}

static void evict_oldest(struct ground *g)
{
	uint32_t victim = g->head, *p = slot_of(g, g->e[victim].hash);

	while (*p != victim)
		p = &g->e[*p].next;
	*p = g->e[victim].next;
	g->head = (g->head + 1) % GROUND_CAP;
	g->count--;
	g->evictions++;
}

bool ground_find(const struct ground *g, const char *key, size_t n, uint64_t *at)
{
	uint64_t h;
	uint32_t i;

	n = MIN(n, GROUND_KEY_MAX);
	h = fnv1a(key, n);
	for (i = g->bucket[h & (BUCKETS - 1)]; i != NIL; i = g->e[i].next) {
		const struct entry *e = &g->e[i];

		if (e->hash == h && e->len == n && memcmp(e->key, key, n) == 0) {
			*at = e->at;
			return true;
		}
	}
	return false;
}

int ground_add(struct ground *g, const char *key, size_t n, uint64_t at)
{
	uint64_t seen;
	uint32_t i, *slot;
	struct entry *e;

	n = MIN(n, GROUND_KEY_MAX);
	if (n == 0 || ground_find(g, key, n, &seen))
		return 0;
	if (g->count == GROUND_CAP)
		evict_oldest(g);
	i = (g->head + g->count) % GROUND_CAP;
	e = &g->e[i];
	e->hash = fnv1a(key, n);
	e->at = at;
	e->len = (uint16_t)n;
	memcpy(e->key, key, n);
	slot = slot_of(g, e->hash);
	e->next = *slot;
	*slot = i;
	g->count++;
	return 0;
}

void ground_activate(struct ground *g)
{
	g->active = true;
}

bool ground_active(const struct ground *g)
{
	return g->active;
}

static bool context_stopword(const char *w, size_t k)
{
	static const char *const words[] = {
		"about", "after", "also", "and", "are", "been", "but", "for", "from", "had", "has",
		"have", "its", "more", "than", "that", "the", "their", "this", "was", "were",
		"which", "while", "with",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == k && strncasecmp(w, words[i], k) == 0)
			return true;
	return false;
}

void ground_context_of(const char *before, size_t n, struct ground_context *ctx)
{
	const char *start = before - MIN(n, 160), *p = before;

	ctx->n = 0;
	/* Back to the start of the sentence. */
	while (p > start && p[-1] != '\n' &&
	       !(strchr(".!?", p[-1]) && (p == before || isspace((unsigned char)p[0]))))
		p--;
	while (p < before && ctx->n < GROUND_CONTEXT) {
		const char *w;
		uint32_t h = 2166136261u;
		size_t k;

		while (p < before && !isalpha((unsigned char)*p))
			p++;
		for (w = p; p < before && isalpha((unsigned char)*p); p++)
			;
		k = (size_t)(p - w);
		if (k < 3 || context_stopword(w, k))
			continue;
		for (size_t i = 0; i < k; i++)
			h = (h ^ (uint32_t)tolower((unsigned char)w[i])) * 16777619u;
		ctx->word[ctx->n++] = h;
	}
}

static bool share_context(const struct ground_context *a, const struct ground_context *b)
{
	size_t i, j;

	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++)
			if (a->word[i] == b->word[j])
				return true;
	return false;
}

int ground_add_quantity(struct ground *g, const struct quantity *q, const char *text,
			size_t n, uint64_t at, const struct ground_context *ctx)
{
	struct ground_quantity *gq;

	if (g->qcount == GROUND_CAP) {
		g->qhead = (g->qhead + 1) % GROUND_CAP;
		g->qcount--;
		g->evictions++;
	}
	gq = &g->q[(g->qhead + g->qcount) % GROUND_CAP];
	gq->q = *q;
	gq->at = at;
	gq->ctx = *ctx;
	n = MIN(n, sizeof(gq->text) - 1);
	memcpy(gq->text, text, n);
	gq->text[n] = '\0';
	g->qcount++;
	return 0;
}

const struct ground_quantity *ground_match_quantity(const struct ground *g,
						    const struct quantity *a,
						    const struct ground_context *ctx,
						    double tolerance, bool *states)
{
	/* The best of each kind: [in context][stated] */
	const struct ground_quantity *found[2][2] = {{NULL, NULL}, {NULL, NULL}};
	double best[2] = {tolerance, tolerance};
	uint32_t i;

	for (i = 0; i < g->qcount; i++) {
		const struct ground_quantity *gq = &g->q[(g->qhead + i) % GROUND_CAP];
		bool shared = share_context(ctx, &gq->ctx);
		double d;

		if (quantity_states(a, &gq->q)) {
			if (!found[shared][1])
				found[shared][1] = gq;
			continue;
		}
		if (!quantity_comparable(a, &gq->q))
			continue;
		d = quantity_distance(a, &gq->q);
		if (d <= best[shared]) {
			best[shared] = d;
			found[shared][0] = gq;
		}
	}
	*states = true;
	if (found[1][1])
		return found[1][1];
	*states = false;
	if (found[1][0])
		return found[1][0];
	*states = true;
	if (found[0][1])
		return found[0][1];
	*states = false;
	return found[0][0];
}

int ground_copy(struct ground *dst, const struct ground *src)
{
	uint32_t i;
	int err;

	ground_reset(dst);
	dst->active = src->active;
	for (i = 0; i < src->count; i++) {
		const struct entry *e = &src->e[(src->head + i) % GROUND_CAP];

		err = ground_add(dst, e->key, e->len, e->at);
		if (err < 0)
			return err;
	}
	for (i = 0; i < src->qcount; i++) {
		const struct ground_quantity *q = &src->q[(src->qhead + i) % GROUND_CAP];

		err = ground_add_quantity(dst, &q->q, q->text, strlen(q->text), q->at, &q->ctx);
		if (err < 0)
			return err;
	}
	dst->evictions = 0;
	return 0;
}

/* ---- normalization ---- */

static int url_key(const char *t, size_t n, struct buf *out)
{
	const char *end = t + n, *scheme_end = memmem(t, n, "://", 3), *host, *host_end, *p;
	int err = 0;
	size_t k;

	if (!scheme_end)
		return buf_add(out, t, n);
	/* The fragment never reaches the server. */
	p = memchr(t, '#', n);
	if (p)
		end = p;
	for (p = t; p < scheme_end; p++)
		err |= buf_addc(out, (char)tolower((unsigned char)*p));
	err |= BUF_LIT(out, "://");
	host = scheme_end + 3;
	for (host_end = host; host_end < end && !strchr("/?", *host_end); host_end++)
		;
	k = (size_t)(host_end - host);
	/* The scheme's default port is no port. */
	if ((k > 3 && scheme_end - t == 4 && memcmp(host_end - 3, ":80", 3) == 0) ||
	    (k > 4 && scheme_end - t == 5 && memcmp(host_end - 4, ":443", 4) == 0))
		k -= scheme_end - t == 4 ? 3 : 4;
	for (p = host; p < host + k; p++)
		err |= buf_addc(out, (char)tolower((unsigned char)*p));
	/* A path of "/" and none are the same page; so are "/a/" and "/a". */
	while (end > host_end && end[-1] == '/')
		end--;
	err |= buf_add(out, host_end, (size_t)(end - host_end));
	return err ? -ENOMEM : 0;
}

/* "18.30 %" -> "18.3%", "1,234.5 percent" -> "1234.5%", "2.7 X" -> "2.7x". */
static int number_key(const char *t, size_t n, struct buf *out)
{
	size_t i = 0, j, dot = SIZE_MAX, start;
	int err = 0;
	char unit;

	while (i < n && !isdigit((unsigned char)t[i]))
		i++;
	start = out->len;
	for (j = i; j < n && (isdigit((unsigned char)t[j]) || t[j] == ',' || t[j] == '.'); j++) {
		if (t[j] == ',')
			continue;
		if (t[j] == '.')
			dot = out->len;
		err |= buf_addc(out, t[j]);
	}
	if (err)
		return -ENOMEM;
	if (dot != SIZE_MAX) {
		while (out->len > dot + 1 && out->data[out->len - 1] == '0')
			out->len--;
		if (out->len == dot + 1)
			out->len--; /* "12." -> "12" */
	}
	while (out->len > start + 1 && out->data[start] == '0' && out->data[start + 1] != '.') {
		memmove(out->data + start, out->data + start + 1, out->len - start - 1);
		out->len--;
	}
	while (j < n && (t[j] == ' ' || t[j] == '\t'))
		j++;
	unit = j < n ? (char)tolower((unsigned char)t[j]) : '\0';
	if (unit == 'p' || unit == '%')
		return buf_addc(out, '%');
	if (unit == 'x' || (j + 1 < n && (unsigned char)t[j] == 0xC3 && (unsigned char)t[j + 1] == 0x97))
		return buf_addc(out, 'x');
	return buf_add(out, t + j, n - j);
}

/* Words that start a citation phrase but are no one's name. */
static bool is_name(const char *w, size_t k)
{
	static const char *const not_names[] = {
		"According", "As", "A", "An", "Dr", "Prof", "Professor", "And", "The",
	};
	size_t i;

	if (k < 2 || !isupper((unsigned char)w[0]))
		return false;
	for (i = 0; i < ARRAY_SIZE(not_names); i++)
		if (strlen(not_names[i]) == k && strncmp(w, not_names[i], k) == 0)
			return false;
	return true;
}

/* "According to Dr. Williams et al. (2024)" -> "williams|2024". */
static int citation_key(const char *t, size_t n, struct buf *out)
{
	const char *name = NULL, *year = NULL;
	size_t name_len = 0, i = 0, k;
	int err = 0;

	while (i < n) {
		while (i < n && !isalnum((unsigned char)t[i]) && (unsigned char)t[i] < 0x80)
			i++;
		for (k = i; k < n && (isalnum((unsigned char)t[k]) || (unsigned char)t[k] >= 0x80 ||
				      t[k] == '\'' || t[k] == '-'); k++)
			;
		if (k == i) {
			i++;
			continue;
		}
		if (!name && is_name(t + i, k - i)) {
			name = t + i;
			name_len = k - i;
		} else if (!year && k - i == 4 && isdigit((unsigned char)t[i]) &&
			   (t[i] == '1' || t[i] == '2')) {
			year = t + i;
		}
		i = k;
	}
	if (!name)
		return buf_add(out, t, n);
	for (k = 0; k < name_len; k++)
		err |= buf_addc(out, (char)tolower((unsigned char)name[k]));
	err |= buf_addc(out, '|');
	if (year)
		err |= buf_add(out, year, 4);
	return err ? -ENOMEM : 0;
}

int ground_key(enum grounding k, const char *text, size_t n, struct buf *out)
{
	out->len = 0;
	if (grow(&out->data, &out->cap, 1, 1) < 0)
		return -ENOMEM;
	out->data[0] = '\0';
	/* Items of different kinds never ground each other. */
	if (buf_addc(out, (char)('0' + k)) < 0)
		return -ENOMEM;
	switch (k) {
	case GROUNDING_URL:
		return url_key(text, n, out);
	case GROUNDING_NUMBER:
		return number_key(text, n, out);
	case GROUNDING_CITATION:
		return citation_key(text, n, out);
	case GROUNDING_NONE:
		return 0;
	default:
		return buf_add(out, text, n);
	}
}
