// SPDX-License-Identifier: MIT
/*
 * The arithmetic reader on any text. Byte 0 repeats the rest 1 + byte % 4
 * times (longer texts from short inputs); byte 1 is the size of the
 * buffers the working is written into (how, value).
 * Properties:
 *  - figures lie in the text, in order, apart, their digits inside them,
 *    at most ARITH_FIGS; results at most ARITH_RELS, each a figure, its
 *    expression's figures read before the scan ended;
 *  - a value is a fraction in lowest terms with a positive denominator,
 *    and working the expression again gives it; holds is what
 *    arith_states() says of the result;
 *  - the cheap test never hides a result: where one is read, it said so;
 *  - the working and a value written fit any buffer, NUL-terminated;
 *  - reading the same text twice reads the same.
 * The text is a buffer of exactly its length, so that AddressSanitizer
 * sees a read past it.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "numbers/arith.h"

static int64_t gcd(int64_t a, int64_t b)
{
	if (a < 0)
		a = -a;
	while (b) {
		int64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct arith a, b;
	struct fuzz_in in = {data, size};
	uint8_t rep = fuzz_u8(&in), cap = fuzz_u8(&in);
	size_t times = 1 + rep % 4, len = in.n * times, i, j, r, prev_to = 0;
	char *text = malloc(len ? len : 1), how[256], val[256];
	size_t n_out = 1 + cap % sizeof(how);

	FUZZ_CHECK(text != NULL);
	for (i = 0; i < times; i++)
		memcpy(text + i * in.n, in.p, in.n);

	r = arith_scan(text, len, &a);
	FUZZ_CHECK(r == a.n_rel && a.n_rel <= ARITH_RELS && a.n_fig <= ARITH_FIGS);
	for (i = 0; i < a.n_fig; i++) {
		const struct arith_fig *f = &a.fig[i];

		FUZZ_CHECK(f->from >= prev_to && f->from <= f->num_from && f->num_from < f->num_to &&
			   f->num_to <= f->to && f->to <= len, "figure %zu [%zu, %zu) digits [%zu, %zu)",
			   i, f->from, f->to, f->num_from, f->num_to);
		FUZZ_CHECK(f->v.d > 0 && gcd(f->v.n, f->v.d) == 1, "figure %zu not in lowest terms", i);
		prev_to = f->to;
	}
	if (r)
		FUZZ_CHECK(arith_may_hold(text, len), "a result the cheap test hides");
	FUZZ_CHECK(arith_may_hold(text, len) == arith_may_hold_bytewise(text, len),
		   "the cheap test's chunks and its bytes disagree");
	for (i = 0; i < r; i++) {
		const struct arith_rel *rel = &a.rel[i];
		const struct arith_fig *rf;
		struct arith_q v;
		size_t k;

		FUZZ_CHECK(rel->result < a.n_fig && rel->n_toks > 0 && rel->n_toks <= ARITH_TOKS);
		for (j = 0; j < rel->n_toks; j++)
			if (rel->toks[j].kind == ARITH_TOK_FIG)
				FUZZ_CHECK(rel->toks[j].fig < a.n_fig);
		rf = &a.fig[rel->result];
		FUZZ_CHECK(rel->value.d > 0 && gcd(rel->value.n, rel->value.d) == 1);
		FUZZ_CHECK(arith_eval(&a, rel, NULL, &v) && v.n == rel->value.n && v.d == rel->value.d,
			   "result %zu worked out again differs", i);
		FUZZ_CHECK(rel->holds == arith_states(rf->v, rf->decimals, rel->value, rel->rounds,
						      rel->approx));
		k = arith_how(&a, rel, text, NULL, how, n_out);
		FUZZ_CHECK(k < n_out && how[k] == '\0' && strlen(how) == k);
		k = arith_format(&a, rf, text, rel->value, val, n_out);
		FUZZ_CHECK(k < n_out && val[k] == '\0' && strlen(val) == k);
	}
	/* the same text read again reads the same */
	FUZZ_CHECK(arith_scan(text, len, &b) == r && b.n_fig == a.n_fig);
	for (i = 0; i < r; i++)
		FUZZ_CHECK(b.rel[i].result == a.rel[i].result && b.rel[i].holds == a.rel[i].holds &&
			   b.rel[i].value.n == a.rel[i].value.n && b.rel[i].value.d == a.rel[i].value.d);
	free(text);
	return 0;
}
