// SPDX-License-Identifier: MIT
/*
 * The attribute check (attrs.h): a record's yes/no values, read by the
 * record reader from the grounding text, against a sentence of the answer.
 * The input is the grounding text, a NUL byte, then the sentence; with no
 * NUL the whole input is the sentence, held against a record of the usual
 * shape (below), so that most inputs reach the clause rules. Properties:
 *  - an attribute made of a value names it by one to GROUND_ATTR_NEED
 *    words, and its text is NUL-terminated printable ASCII;
 *  - every mention lies in the sentence and starts and ends at a word's
 *    edges, and names an attribute the set holds; one said otherwise names
 *    an attribute that no other one of the same words says as the sentence
 *    does;
 *  - the same sentence gives the same findings again, and the same ones
 *    with a blank after it.
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "fuzz.h"
#include "ground/attrs.h"
#include "ground/ground.h"
#include "ground/record.h"

static const char usual[] =
	"{\"name\": \"Cafe\", \"attributes\": {\"OutdoorSeating\": false, \"WiFi\": \"u'free'\", "
	"\"RestaurantsTakeOut\": true, \"RestaurantsReservations\": \"False\", "
	"\"BusinessParking\": {\"garage\": false, \"street\": true, \"validated\": false}, "
	"\"Ambience\": {\"casual\": true, \"trendy\": false}, \"HasTV\": \"no\"}}";

struct found {
	size_t from, to;
	const struct ground_attr *ga;
	bool agrees;
};

struct run {
	const struct attrs *a;
	struct ground *g;
	const char *s;
	size_t n;
	struct found f[GROUND_ATTR_CAP];
	size_t nf;
};

static bool word_byte(unsigned char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26 || (unsigned char)(c - '0') < 10 || c >= 0x80;
}

static void on_value(struct run *r, const struct record_value *v)
{
	struct ground_attr ga;
	size_t i;

	if (v->kind != RECORD_BOOL && v->kind != RECORD_STRING)
		return;
	if (!attrs_of_value(r->a, v->words, v->n_words, v->text, v->len, v->kind == RECORD_BOOL, v->at,
			    &ga))
		return;
	FUZZ_CHECK(ga.n_need >= 1 && ga.n_need <= GROUND_ATTR_NEED);
	FUZZ_CHECK(memchr(ga.text, '\0', sizeof(ga.text)) != NULL, "an attribute's text unterminated");
	for (i = 0; ga.text[i]; i++)
		FUZZ_CHECK(ga.text[i] >= 0x20 && ga.text[i] < 0x7f, "a control in an attribute's text");
	FUZZ_CHECK(ground_add_attr(r->g, &ga) == 0);
}

static void on_found(struct run *r, const struct attrs_hit *hit)
{
	size_t from = hit->from, to = hit->to, i;
	const struct ground_attr *ga = hit->held;
	bool agrees = hit->agrees, held = false;

	FUZZ_CHECK(from < to && to <= r->n, "a finding at [%zu, %zu) of %zu bytes", from, to, r->n);
	FUZZ_CHECK(word_byte((unsigned char)r->s[from]) &&
			   (from == 0 || !word_byte((unsigned char)r->s[from - 1])),
		   "a finding that starts inside a word, at %zu", from);
	FUZZ_CHECK(word_byte((unsigned char)r->s[to - 1]) &&
			   (to == r->n || !word_byte((unsigned char)r->s[to])),
		   "a finding that ends inside a word, at %zu", to);
	for (i = 0; i < ground_attr_count(r->g); i++) {
		const struct ground_attr *o = ground_attr_at(r->g, i);

		held |= o == ga;
		/* One of the same words that says the other thing would ground it. */
		if (!agrees && o != ga && o->n_need == ga->n_need && o->truth != ga->truth &&
		    memcmp(o->need, ga->need, ga->n_need * sizeof(ga->need[0])) == 0)
			FUZZ_CHECK(0, "reported against %s though %s says otherwise", ga->text, o->text);
	}
	FUZZ_CHECK(held, "a finding names no attribute the set holds");
	r->f[r->nf++] = (struct found){from, to, ga, agrees};
}

static void check(struct run *r, const char *s, size_t n)
{
	struct attrs_hit hit[GROUND_ATTR_CAP];
	size_t m, i;

	r->s = s;
	r->n = n;
	r->nf = 0;
	m = attrs_check(r->a, r->g, s, n, hit, ARRAY_SIZE(hit));
	FUZZ_CHECK(m <= ground_attr_count(r->g), "more mentions than attributes");
	for (i = 0; i < m; i++)
		on_found(r, &hit[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct attrs *a;
	static struct record *rec;
	static struct ground *g;
	static struct run r, again;
	const char *text = (const char *)data, *nul = memchr(data, '\0', size);
	const char *ground_text = nul ? text : usual;
	size_t ground_len = nul ? (size_t)(nul - text) : sizeof(usual) - 1;
	const char *s = nul ? nul + 1 : text;
	size_t n = nul ? size - (size_t)(nul + 1 - text) : size;
	const struct record_value *v;
	char *padded;

	if (!a) {
		struct diag d = {""};

		FUZZ_CHECK(attrs_new(fuzz_builtin()->rs, &a, &d) == 0 && a != NULL, "%s", d.msg);
		FUZZ_CHECK(record_new(&rec) == 0 && ground_new(&g) == 0);
	}
	ground_reset(g);
	record_reset(rec);
	r.a = a;
	r.g = g;
	FUZZ_CHECK(record_feed(rec, ground_text, ground_len) == 0);
	while ((v = record_next(rec)))
		on_value(&r, v);
	FUZZ_CHECK(record_end(rec) == 0);
	while ((v = record_next(rec)))
		on_value(&r, v);
	FUZZ_CHECK(ground_attr_count(g) <= GROUND_ATTR_CAP);
	check(&r, s, n);
	again.a = a;
	again.g = g;
	check(&again, s, n);
	FUZZ_CHECK(again.nf == r.nf && fuzz_same(again.f, r.f, r.nf * sizeof(r.f[0])),
		   "the same sentence read twice gave other findings");
	/* A blank after it changes nothing (a copy: the input's buffer ends at size). */
	padded = malloc(n + 1);
	FUZZ_CHECK(padded != NULL);
	if (n)
		memcpy(padded, s, n);
	padded[n] = ' ';
	check(&again, padded, n + 1);
	FUZZ_CHECK(again.nf == r.nf, "a blank after the sentence changed its findings: %zu, %zu",
		   r.nf, again.nf);
	free(padded);
	return 0;
}

/* The packs before the first input, outside its timeout. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_builtin();
	return 0;
}
