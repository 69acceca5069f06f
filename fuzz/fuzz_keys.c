// SPDX-License-Identifier: MIT
/*
 * The normalizers of matched text, on any bytes:
 *  - ground_key for every grounding kind: its kind's tag first, no longer
 *    than the text and two bytes, the text itself for exact; for a URL a
 *    fragment or a trailing slash changes nothing; a code is letters and
 *    digits, 6 to 64 of them, and a hash (all hex digits, seven or more)
 *    is keyed whole, lowercased, with a short form for each of its first
 *    seven to twelve digits (ground_hash_prefixes()) that is its key's
 *    beginning; an IBAN (together or in groups of four) by its characters
 *    without the blanks;
 *  - ground_relative_of: no offset past GROUND_REL_MAX; ground_shift_day
 *    there and back is the day itself;
 *  - quantity_parse: a finite, non-negative value in a named unit with its
 *    hash and kind, a quantity that states itself at distance 0;
 *  - ground_match_quantity, with the input's lines as grounded quantities
 *    (context TAB quantity), equals a walk over all of them in age order
 *    in the order of verdicts ground.h gives (stated in context, swapped,
 *    stated, near), verdict and quantity alike;
 *  - ground_said_otherwise, each line said of a period and a bound drawn
 *    from its place, equals a walk over them newest first;
 *  - ground_context_of reads only the 160 bytes before, stops at the
 *    sentence start and ignores case; ground_context_key reads a word as
 *    it does; ground_context_nearest finds the nearest words it and
 *    ground_context_after find.
 * The first byte is the tolerance of the quantity search.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "fuzz.h"
#include "ground/ground.h"
#include "numbers/quantity.h"

static const enum grounding kinds[] = {
	GROUNDING_EXACT, GROUNDING_URL, GROUNDING_NUMBER, GROUNDING_CITATION,
	GROUNDING_NONE, GROUNDING_QUANTITY, GROUNDING_CODE,
};

static void key_of(enum grounding k, const char *t, size_t n, struct buf *out)
{
	FUZZ_CHECK(ground_key(k, t, n, out) == 0);
	FUZZ_CHECK(out->len >= 1 && out->data[0] == (char)('0' + k), "the key's kind tag");
}

static void check_keys(const char *t, size_t n)
{
	struct buf key = {0}, other = {0}, text = {0};
	const char *sep;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		enum grounding k = kinds[i];

		key_of(k, t, n, &key);
		FUZZ_CHECK(key.len <= n + 2, "a %s key of %zu bytes from %zu", grounding_name(k),
			   key.len, n);
		if (k == GROUNDING_NONE)
			FUZZ_CHECK(key.len == 1);
		if (k == GROUNDING_EXACT || k == GROUNDING_QUANTITY)
			FUZZ_CHECK(key.len == n + 1 && memcmp(key.data + 1, t, n) == 0);
	}
	/* The codes of the text, in order, each a code (or an identifier of
	 * words and digits joined by "_") and no part of a longer run; reading
	 * addresses too finds as many or more. */
	{
		size_t found[2] = {0, 0};

		for (i = 0; i < 2; i++) {
			struct ground_codes cur = {0};
			size_t at = 0, from, len;

			while ((len = ground_next_code(t, n, &cur, i == 1, &from)) > 0) {
				FUZZ_CHECK(from >= at && len <= n - from, "code [%zu, +%zu) from %zu",
					   from, len, at);
				FUZZ_CHECK(ground_is_code(t + from, len) ||
					   ground_is_underscored(t + from, len) ||
					   ground_is_iban(t + from, len));
				FUZZ_CHECK((from == 0 || !isalnum((unsigned char)t[from - 1])) &&
					   (from + len == n || !isalnum((unsigned char)t[from + len])),
					   "a code inside a run");
				at = from + len;
				found[i]++;
			}
		}
		FUZZ_CHECK(found[1] >= found[0], "%zu codes with addresses, %zu without", found[1],
			   found[0]);
	}
	/* An identifier joined by "_" keys as its parts said apart do. */
	if (ground_is_underscored(t, n)) {
		struct buf apart = {0};

		FUZZ_CHECK(ground_key(GROUNDING_CODE, t, n, &key) == 0 &&
			   ground_ident_key(t, n, &apart) == 0);
		FUZZ_CHECK(key.len == apart.len && memcmp(key.data, apart.data, key.len) == 0,
			   "an identifier's key and its parts' differ");
		buf_free(&apart);
	}
	/* An IBAN is keyed by its characters without the blanks. */
	if (ground_is_iban(t, n)) {
		key_of(GROUNDING_CODE, t, n, &key);
		for (i = 0; i < n; i++)
			if (t[i] != ' ')
				FUZZ_CHECK(buf_addc(&text, t[i]) == 0);
		FUZZ_CHECK(key.len == text.len + 1 && memcmp(key.data + 1, text.data, text.len) == 0,
			   "an IBAN's key");
		text.len = 0;
	}
	/* A code: capitals and digits, or a hash, six to 64 bytes; a hash (not
	 * an IBAN) is keyed whole in either case, its short forms by their
	 * beginning. */
	if (ground_is_code(t, n)) {
		bool hash = n >= 7 && !ground_is_iban(t, n);

		FUZZ_CHECK(n >= 6 && n <= 64, "a code of %zu bytes", n);
		for (i = 0; i < n; i++) {
			FUZZ_CHECK(isalnum((unsigned char)t[i]), "a code with %#x", (unsigned char)t[i]);
			hash &= isxdigit((unsigned char)t[i]) != 0;
		}
		key_of(GROUNDING_CODE, t, n, &key);
		if (hash) {
			size_t shorts = ground_hash_prefixes(t, n), k;

			FUZZ_CHECK(key.len == n + 1, "a hash's key of %zu bytes", key.len);
			FUZZ_CHECK(buf_add(&text, t, n) == 0);
			for (i = 0; i < n; i++)
				text.data[i] = (char)tolower((unsigned char)text.data[i]);
			FUZZ_CHECK(memcmp(key.data + 1, text.data, n) == 0, "a hash's key");
			FUZZ_CHECK(shorts == (n > GROUND_HASH_SHORT_MIN
						      ? MIN(n - 1, (size_t)GROUND_HASH_SHORT_MAX) -
								GROUND_HASH_SHORT_MIN + 1
						      : 0),
				   "%zu short forms of a hash of %zu", shorts, n);
			for (k = 0; k < shorts; k++) {
				key_of(GROUNDING_CODE, t, GROUND_HASH_SHORT_MIN + k, &other);
				FUZZ_CHECK(other.len == GROUND_HASH_SHORT_MIN + k + 1 &&
						   memcmp(other.data, key.data, other.len) == 0,
					   "a hash's short form is no beginning of its key");
			}
			text.len = 0;
		}
	}
	/* Days said relative to others: offsets within GROUND_REL_MAX only; a
	 * day moved by one and back is itself. */
	{
		uint64_t anchored = 0, today = 0;
		unsigned md, y, back, by;
		int k;

		ground_relative_of(t, n, &anchored, &today);
		FUZZ_CHECK(!(anchored >> (2 * GROUND_REL_MAX + 1)) && !(today >> (2 * GROUND_REL_MAX + 1)),
			   "an offset past %d days", GROUND_REL_MAX);
		if (n >= 4) {
			md = (unsigned)(t[0] & 0x0f) * 100 + (unsigned)(t[1] & 0x1f);
			y = (unsigned)(t[2] & 0x7f) * 20;
			k = (int)(t[3] % 32);
			if (md % 100 >= 1 && md % 100 <= 28 && md / 100 >= 1 && md / 100 <= 12 &&
			    ground_shift_day(md, y, k, &back, &by))
				FUZZ_CHECK(ground_shift_day(back, by, -k, &back, &by) && back == md &&
					   by == y, "%u of %u moved %d days and back", md, y, k);
		}
	}
	/* A URL: the fragment never reaches the server, "/a/" is "/a". */
	sep = memmem(t, n, "://", 3);
	if (sep && !memchr(t, '#', n)) {
		key_of(GROUNDING_URL, t, n, &key);
		FUZZ_CHECK(buf_add(&text, t, n) == 0 && BUF_LIT(&text, "#frag/") == 0);
		key_of(GROUNDING_URL, text.data, text.len, &other);
		FUZZ_CHECK(other.len == key.len && memcmp(other.data, key.data, key.len) == 0,
			   "a fragment changed a URL's key");
		text.len = n;
		FUZZ_CHECK(BUF_LIT(&text, "/") == 0);
		key_of(GROUNDING_URL, text.data, text.len, &other);
		FUZZ_CHECK(other.len == key.len && memcmp(other.data, key.data, key.len) == 0,
			   "a trailing slash changed a URL's key");
	}
	/* A number's key starts at its first digit. */
	if (n > 0 && isdigit((unsigned char)t[0])) {
		key_of(GROUNDING_NUMBER, t, n, &key);
		text.len = 0;
		FUZZ_CHECK(BUF_LIT(&text, "~ (") == 0 && buf_add(&text, t, n) == 0);
		key_of(GROUNDING_NUMBER, text.data, text.len, &other);
		FUZZ_CHECK(other.len == key.len && memcmp(other.data, key.data, key.len) == 0,
			   "what comes before a number changed its key");
	}
	buf_free(&key);
	buf_free(&other);
	buf_free(&text);
}

static bool is_base(const char *u)
{
	static const char *const base[] = {"usd", "eur", "gbp", "percent", "seconds", "quarter"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(base); i++)
		if (strcmp(u, base[i]) == 0)
			return true;
	return false;
}

/* What holds for any quantity that parses. */
static void check_quantity(const struct quantity *q, const char *t, size_t n)
{
	struct quantity again;
	size_t ulen = strnlen(q->unit, sizeof(q->unit));

	FUZZ_CHECK(ulen > 0 && ulen < sizeof(q->unit), "the unit is a non-empty string");
	FUZZ_CHECK(q->unit_hash == quantity_unit_hash(q->unit));
	FUZZ_CHECK(q->kind == (strcmp(q->unit, "number") == 0 ? QUANTITY_NUMBER
			       : is_base(q->unit)            ? QUANTITY_BASE
							     : QUANTITY_COUNT),
		   "kind %d for unit \"%s\"", q->kind, q->unit);
	FUZZ_CHECK(isfinite(q->value) && q->value >= 0, "value %g", q->value);
	FUZZ_CHECK(isfinite(q->scale) && q->scale > 0, "scale %g", q->scale);
	FUZZ_CHECK(q->decimals >= 0 && (size_t)q->decimals < n, "decimals %d", q->decimals);
	FUZZ_CHECK(quantity_same_unit(q, q) && quantity_comparable(q, q));
	FUZZ_CHECK(quantity_distance(q, q) == 0);
	FUZZ_CHECK(quantity_states(q, q), "\"%.*s\" does not state itself", (int)MIN(n, 60), t);
	FUZZ_CHECK(quantity_parse(t, n, &again));
	FUZZ_CHECK(again.value == q->value && again.scale == q->scale &&
		   again.decimals == q->decimals && again.kind == q->kind &&
		   again.words == q->words && strcmp(again.unit, q->unit) == 0,
		   "two parses of one text differ");
}

/* Two quantities: what relates them holds both ways round where it should. */
static void check_pair(const struct quantity *a, const struct quantity *g)
{
	double d = quantity_distance(a, g);

	FUZZ_CHECK(quantity_same_unit(a, g) == quantity_same_unit(g, a));
	FUZZ_CHECK(d >= 0, "distance %g", d);
	if (g->value != 0)
		FUZZ_CHECK((d == 0) == (a->value == g->value));
	/* Stating needs the same measure, a bare number grounding it, or one figure counted. */
	if (quantity_states(a, g))
		FUZZ_CHECK(quantity_comparable(a, g) || g->kind == QUANTITY_NUMBER ||
			   (a->kind != QUANTITY_BASE && g->kind != QUANTITY_BASE &&
			    a->value == g->value),
			   "\"%s\" states \"%s\"", a->unit, g->unit);
}

static bool contexts_share(const struct ground_context *a, const struct ground_context *b)
{
	size_t i, j;

	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++)
			if (a->word[i] == b->word[j])
				return true;
	return false;
}

static void check_context(const struct ground_context *c)
{
	uint64_t mask = 0;
	size_t i;

	FUZZ_CHECK(c->n <= GROUND_CONTEXT);
	for (i = 0; i < c->n; i++)
		mask |= 1ull << (c->word[i] % 64);
	FUZZ_CHECK(mask == c->mask, "the mask is not the words' bits");
}

static bool same_context(const struct ground_context *a, const struct ground_context *b)
{
	return a->n == b->n && a->mask == b->mask &&
	       memcmp(a->word, b->word, a->n * sizeof(a->word[0])) == 0;
}

/* The context of the bytes before: bounded, local and blind to case. */
static void check_context_of(const char *t, size_t n)
{
	struct ground_context c, c2;
	size_t tail = MIN(n, 159), i;
	char *copy = malloc(tail + 8), *upper = malloc(tail ? tail : 1);

	FUZZ_CHECK(copy && upper);
	ground_context_of(t + n, n, &c);
	check_context(&c);
	/* Only the last 160 bytes are read. */
	ground_context_of(t + n, MIN(n, 160), &c2);
	FUZZ_CHECK(same_context(&c, &c2), "bytes more than 160 back changed the context");
	/* A line break before the sentence ends it whatever comes before. */
	memcpy(copy, "Junk x\n", 7);
	memcpy(copy + 7, t + n - tail, tail);
	ground_context_of(t + n, tail, &c);
	ground_context_of(copy + 7 + tail, 7 + tail, &c2);
	FUZZ_CHECK(same_context(&c, &c2), "text before a line break changed the context");
	for (i = 0; i < tail; i++)
		upper[i] = (char)toupper((unsigned char)t[n - tail + i]);
	ground_context_of(upper + tail, tail, &c2);
	FUZZ_CHECK(same_context(&c, &c2), "case changed the context");
	/* A key path's word read for less is read as ground_context_of() reads it. */
	ground_context_of(t + n, n, &c);
	ground_context_key(t, n, &c2);
	FUZZ_CHECK(same_context(&c, &c2) && c.before1 == c2.before1,
		   "ground_context_key differs from ground_context_of");
	/* The nearest words alone are the full contexts' (split at the middle). */
	ground_context_of(t + n / 2, n / 2, &c);
	ground_context_after(t + n / 2, n - n / 2, &c);
	ground_context_nearest(t + n / 2, n / 2, t + n / 2, n - n / 2, &c2);
	FUZZ_CHECK(c.before1 == c2.before1 && c.after1 == c2.after1,
		   "ground_context_nearest differs from the full context");
	free(copy);
	free(upper);
}

struct line_q {
	struct quantity q;
	struct ground_context ctx;
	uint64_t at;
};

/* ground.c's bounds of the swap search, as ground.h states them. */
#define SWAP_WALK 128
#define SWAP_SHARED 2

/* A bound g says that a keeps ("under 34": 30) is no figure a changed. */
static bool keeps_bound(const struct line_q *a, const struct line_q *g)
{
	return (g->ctx.bound < 0 && a->q.value < g->q.value) ||
	       (g->ctx.bound > 0 && a->q.value > g->q.value);
}

/*
 * A figure said where the grounding says another of its unit: among the
 * SWAP_WALK newest of a's unit (and of bare numbers, for a count), those
 * sharing SWAP_SHARED or more context words that a does not state; the
 * most words shared, then the nearest, then the youngest.
 */
static const struct line_q *swapped(const struct line_q *g, size_t n, const struct line_q *a)
{
	uint64_t units[2] = {a->q.unit_hash, quantity_unit_hash("number")};
	const struct line_q *best = NULL;
	size_t best_k = 0, u, i, walked;
	double best_d = INFINITY;

	for (u = 0; u < (a->q.kind == QUANTITY_COUNT ? 2u : 1u); u++) {
		for (i = n, walked = 0; i-- > 0 && walked < SWAP_WALK;) {
			size_t k;
			double d;

			if (g[i].q.unit_hash != units[u])
				continue;
			walked++;
			k = ground_context_shared(&a->ctx, &g[i].ctx);
			if (k < SWAP_SHARED || !quantity_comparable(&a->q, &g[i].q) ||
			    keeps_bound(a, &g[i]) || quantity_states(&a->q, &g[i].q))
				continue;
			d = quantity_distance(&a->q, &g[i].q);
			if (!best || k > best_k || (k == best_k && d < best_d) ||
			    (k == best_k && d == best_d && &g[i] > best)) {
				best = &g[i];
				best_k = k;
				best_d = d;
			}
		}
	}
	return best;
}

/* How many of a's nearest words (before1, after1) b has too. */
static int closeness(const struct ground_context *a, const struct ground_context *b)
{
	return (a->before1 && a->before1 == b->before1) + (a->after1 && a->after1 == b->after1);
}

/*
 * The search as ground.h defines it, over every quantity oldest first:
 * stated in a shared context (unless swapped between a's very nearest
 * words), swapped, stated anywhere, near in a shared context, near anywhere.
 */
static const struct line_q *walk(const struct line_q *g, size_t n, const struct line_q *a,
				 double tolerance, enum ground_verdict *v)
{
	const struct line_q *stated[2] = {NULL, NULL}, *near[2] = {NULL, NULL}, *swap;
	double best[2] = {tolerance, tolerance};
	int need = closeness(&a->ctx, &a->ctx), close = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int shared;
		double d;

		if (quantity_states(&a->q, &g[i].q)) {
			close = MAX(close, closeness(&a->ctx, &g[i].ctx));
			shared = contexts_share(&a->ctx, &g[i].ctx);
			if (!stated[shared])
				stated[shared] = &g[i];
			continue;
		}
		if (!quantity_comparable(&a->q, &g[i].q) || keeps_bound(a, &g[i]))
			continue;
		d = quantity_distance(&a->q, &g[i].q);
		shared = contexts_share(&a->ctx, &g[i].ctx);
		/* The nearest, and among equals the youngest. */
		if (d <= best[shared]) {
			best[shared] = d;
			near[shared] = &g[i];
		}
	}
	if (stated[1]) {
		/* No stating one between a's nearest words, and a swap there: swapped. */
		swap = need > 0 && close < need ? swapped(g, n, a) : NULL;
		*v = swap && closeness(&a->ctx, &swap->ctx) == need ? GROUND_SWAPPED : GROUND_STATED;
		return *v == GROUND_SWAPPED ? swap : stated[1];
	}
	*v = GROUND_SWAPPED;
	swap = swapped(g, n, a);
	if (swap)
		return swap;
	*v = GROUND_STATED;
	if (stated[0])
		return stated[0];
	*v = GROUND_NEAR;
	if (near[1])
		return near[1];
	if (near[0])
		return near[0];
	*v = GROUND_NONE;
	return NULL;
}

/*
 * ground_said_otherwise() as ground.h defines it, over the quantities
 * newest first: those written as a is (of its unit and stating it, or any
 * at its scale for a bare number), at most 64, each said of another period
 * or the other side of a's bound; the newest of them.
 */
static const struct line_q *otherwise_walk(const struct line_q *g, size_t n, const struct line_q *a)
{
	const struct line_q *found = NULL;
	double w = quantity_written(&a->q);
	size_t i, seen = 0;

	if (!a->ctx.period && !a->ctx.bound)
		return NULL;
	for (i = n; i-- > 0;) {
		if (quantity_written(&g[i].q) != w)
			continue;
		if (a->q.kind == QUANTITY_NUMBER
			    ? (a->q.scale != 1 && g[i].q.scale != a->q.scale) || g[i].q.items
			    : g[i].q.unit_hash != a->q.unit_hash || !quantity_states(&a->q, &g[i].q))
			continue;
		if (++seen > 64 || !(quantity_periods_differ(a->ctx.period, g[i].ctx.period) ||
				     (a->ctx.bound && g[i].ctx.bound == -a->ctx.bound)))
			return NULL;
		if (!found)
			found = &g[i];
	}
	return found;
}

/*
 * A line's period and bound, from its length and offset: some none, some
 * of a few quarters and years, either side of a bound.
 */
static void said_of(struct line_q *l, size_t len)
{
	uint64_t h = (l->at * 0x9e3779b97f4a7c15ull) ^ (len * 0xc2b2ae3d27d4eb4full);

	h ^= h >> 29;
	l->ctx.period = h % 4 == 0 ? 0 : QUANTITY_PERIOD(h >> 2 & 1 ? 2019 + (h >> 3) % 2 : 0, (h >> 4) % 5);
	l->ctx.bound = (int8_t)((int)(h >> 8) % 3 - 1);
}

/* Lines "context TAB quantity": the first that parses is asked about, the rest grounded. */
static void check_search(const char *t, size_t n, double tolerance)
{
	static struct ground *g;
	struct line_q *lines = NULL, *a = NULL;
	size_t n_lines = 0, cap = 0, i;
	const char *p = t, *end = t + n;

	if (!g)
		FUZZ_CHECK(ground_new(&g) == 0);
	ground_reset(g);
	while (p < end && n_lines < GROUND_CAP) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *tab, *q;
		struct line_q l = {.at = (uint64_t)(p - t)};

		eol = eol ? eol : end;
		tab = memchr(p, '\t', (size_t)(eol - p));
		q = tab ? tab + 1 : p;
		if (quantity_parse(q, (size_t)(eol - q), &l.q)) {
			ground_context_of(tab ? tab : p, tab ? (size_t)(tab - p) : 0, &l.ctx);
			said_of(&l, (size_t)(eol - p));
			FUZZ_CHECK(grow(&lines, &cap, n_lines + 1, sizeof(*lines)) == 0);
			lines[n_lines++] = l;
		}
		p = eol + 1;
	}
	if (n_lines == 0)
		goto out;
	a = &lines[0];
	for (i = 1; i < n_lines; i++) {
		struct line_q *l = &lines[i];

		FUZZ_CHECK(ground_add_quantity(g, &l->q, "", 0, l->at, &l->ctx) == 0);
		check_pair(&a->q, &l->q);
	}
	{
		enum ground_verdict v, want_v;
		const struct line_q *want = walk(lines + 1, n_lines - 1, a, tolerance, &want_v);
		const struct ground_quantity *got =
			ground_match_quantity(g, &a->q, &a->ctx, tolerance, &v);

		FUZZ_CHECK((got == NULL) == (want == NULL), "found %s, the walk %s",
			   got ? "one" : "none", want ? "one" : "none");
		FUZZ_CHECK(v == want_v, "verdict %d, the walk's %d", (int)v, (int)want_v);
		if (got)
			FUZZ_CHECK(got->at == want->at,
				   "the search chose offset %llu (verdict %d), the walk %llu",
				   (unsigned long long)got->at, (int)v, (unsigned long long)want->at);
	}
	{
		const struct line_q *want = otherwise_walk(lines + 1, n_lines - 1, a);
		const struct ground_quantity *got =
			ground_said_otherwise(g, &a->q, a->ctx.period, a->ctx.bound);

		FUZZ_CHECK((got == NULL) == (want == NULL), "said otherwise: found %s, the walk %s",
			   got ? "one" : "none", want ? "one" : "none");
		if (got)
			FUZZ_CHECK(got->at == want->at, "said otherwise: offset %llu, the walk's %llu",
				   (unsigned long long)got->at, (unsigned long long)want->at);
	}
out:
	free(lines);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size};
	const char *t;
	struct quantity q;
	double tolerance = (double)(fuzz_u8(&in) % 101) / 100;
	size_t n;

	t = (const char *)in.p;
	n = in.n;
	check_keys(t, n);
	if (quantity_parse(t, n, &q))
		check_quantity(&q, t, n);
	check_context_of(t, n);
	check_search(t, n, tolerance);
	return 0;
}
