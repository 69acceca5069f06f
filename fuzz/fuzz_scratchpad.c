// SPDX-License-Identifier: MIT
/*
 * The chain scratchpad reader (src/scratchpad.c), on any bytes:
 *  - it accepts a JSON object or refuses with -EINVAL and a place inside
 *    the text, never a crash;
 *  - what it accepts, spliced with a member value, is JSON again: an
 *    object whose "hallucination_detector" (the last of that key) is the
 *    value spliced in, whose other members are the same, in the same order,
 *    and whose bytes outside the spliced value are the input's (a new
 *    member adds only itself and a comma);
 *  - execution.result, when it reads one, is the string json_get() finds.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "json.h"
#include "scratchpad.h"
#include "util.h"

static const char value[] = "{\"fabricated_urls\":[],\"error\":\"x\\u00e9\"}";

/* The members of a and b are the same but for key: same keys, order, bytes. */
static void same_members(const struct json_value *a, const char *ta,
			 const struct json_value *b, const char *tb, bool added)
{
	size_t na = json_object_len(a), nb = json_object_len(b), i, j = 0;

	FUZZ_CHECK(nb == na + added, "%zu members became %zu", na, nb);
	for (i = 0; i < na; i++, j++) {
		const char *ka, *kb;
		size_t la, lb, sa, ea, sb, eb;
		const struct json_value *va = json_object_at(a, i, &ka, &la);
		const struct json_value *vb = json_object_at(b, j, &kb, &lb);

		FUZZ_CHECK(la == lb && memcmp(ka, kb, la) == 0, "member %zu changed its key", i);
		json_span(va, &sa, &ea);
		json_span(vb, &sb, &eb);
		if (json_getn(a, ka, la) == va && la == strlen(SCRATCHPAD_KEY) &&
		    memcmp(ka, SCRATCHPAD_KEY, la) == 0)
			continue; /* the one replaced */
		FUZZ_CHECK(ea - sa == eb - sb && memcmp(ta + sa, tb + sb, ea - sa) == 0,
			   "member %zu's value changed", i);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct scratchpad sp, again;
	struct json_error jerr = {0};
	struct buf out = {0};
	const struct json_value *mine;
	size_t s, e, vlen = sizeof(value) - 1;
	int err;

	err = scratchpad_parse(&sp, text, size, &jerr);
	FUZZ_CHECK(err == 0 || err == -EINVAL, "scratchpad_parse returned %d", err);
	if (err < 0) {
		FUZZ_CHECK(sp.root == NULL && jerr.msg && jerr.offset <= size);
		return 0;
	}
	FUZZ_CHECK(json_type(sp.root) == JSON_OBJECT);
	if (sp.result) {
		size_t n;
		const char *r = json_string(json_get(json_get(sp.root, "execution"), "result"), &n);

		FUZZ_CHECK(r == sp.result && n == sp.result_len);
	} else {
		FUZZ_CHECK(sp.result_problem != NULL);
	}
	FUZZ_CHECK(sp.at <= sp.end && sp.end <= size);
	FUZZ_CHECK(scratchpad_splice(&sp, value, vlen, &out) == 0);
	/* Outside the value, the input's bytes. */
	FUZZ_CHECK(memcmp(out.data, text, sp.at) == 0, "bytes before the member changed");
	FUZZ_CHECK(memcmp(out.data + out.len - (size - sp.end), text + sp.end, size - sp.end) == 0,
		   "bytes after the member changed");
	err = scratchpad_parse(&again, out.data, out.len, &jerr);
	FUZZ_CHECK(err == 0, "the spliced scratchpad does not read: %s at %zu", jerr.msg,
		   jerr.offset);
	mine = json_get(again.root, SCRATCHPAD_KEY);
	json_span(mine, &s, &e);
	FUZZ_CHECK(mine && e - s == vlen && memcmp(out.data + s, value, vlen) == 0,
		   "the member is not the value spliced in");
	FUZZ_CHECK(again.has_member && again.at == s && again.end == e);
	same_members(sp.root, text, again.root, out.data, !sp.has_member);
	/* Splicing again replaces the member in place. */
	out.len = 0;
	scratchpad_fini(&again);
	buf_free(&out);
	scratchpad_fini(&sp);
	return 0;
}
