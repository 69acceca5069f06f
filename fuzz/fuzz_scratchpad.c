// SPDX-License-Identifier: MIT
/*
 * The chain scratchpad reader (src/cli/scratchpad.c), on any bytes:
 *  - it accepts a JSON object or refuses with -EINVAL and a place inside
 *    the text, never a crash;
 *  - what it accepts, spliced with a member value, is JSON again: an
 *    object whose "hallucination_detector" (the last of that key) is the
 *    value spliced in, whose other members are the same, in the same order,
 *    and whose bytes outside the spliced value are the input's (a new
 *    member adds only itself and a comma);
 *  - it reads what json_parse() reads, and more: where json_parse() takes
 *    the text, execution.result, context_health and the member's place are
 *    what json_get() finds; where json_parse() refuses it for any reason
 *    but its limits (depth, values), scratchpad_parse() refuses it too.
 */
#include <errno.h>
#include <string.h>

#include "cli/scratchpad.h"
#include "common/json.h"
#include "common/util.h"
#include "fuzz.h"

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

/* json_parse() refused text only for a limit scratchpad_parse() does not have. */
static bool limit_only(const struct json_error *e)
{
	return strcmp(e->msg, "nesting deeper than 64") == 0 ||
	       strcmp(e->msg, "more than 1000000 values") == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct scratchpad sp, again;
	struct json_error jerr = {0}, terr = {0};
	struct json_value *tree = NULL, *tree2 = NULL;
	struct buf out = {0};
	const struct json_value *mine;
	size_t s, e, vlen = sizeof(value) - 1;
	int err, terr_rc;

	terr_rc = json_parse(text, size, &tree, &terr);
	err = scratchpad_parse(&sp, text, size, &jerr);
	FUZZ_CHECK(err == 0 || err == -EINVAL, "scratchpad_parse returned %d", err);
	if (err < 0) {
		FUZZ_CHECK(sp.result_tree == NULL && sp.zone_tree == NULL && jerr.msg &&
			   jerr.offset <= size);
		FUZZ_CHECK(terr_rc < 0 || json_type(tree) != JSON_OBJECT,
			   "json_parse reads an object scratchpad_parse refuses: %s", jerr.msg);
		json_free(tree);
		return 0;
	}
	FUZZ_CHECK(terr_rc == 0 || limit_only(&terr), "scratchpad_parse reads what json_parse "
		   "refuses: %s at %zu", terr.msg, terr.offset);
	if (terr_rc == 0) {
		const char *r, *zone;
		size_t n;

		FUZZ_CHECK(json_type(tree) == JSON_OBJECT);
		r = json_string(json_get(json_get(tree, "execution"), "result"), &n);
		FUZZ_CHECK(r ? sp.result && n == sp.result_len && memcmp(r, sp.result, n) == 0
			     : !sp.result && sp.result_problem, "execution.result read otherwise");
		FUZZ_CHECK(scratchpad_health_value(json_get(tree, "context_health"), &zone) ==
				   sp.health, "context_health read otherwise");
		FUZZ_CHECK(zone ? sp.zone && strcmp(zone, sp.zone) == 0 : !sp.zone);
		mine = json_get(tree, SCRATCHPAD_KEY);
		json_span(mine, &s, &e);
		FUZZ_CHECK(!!mine == sp.has_member && (!mine || (s == sp.at && e == sp.end)),
			   "the member found elsewhere");
		FUZZ_CHECK(json_object_len(tree) == sp.members);
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
	FUZZ_CHECK(again.has_member && again.end - again.at == vlen &&
		   memcmp(out.data + again.at, value, vlen) == 0,
		   "the member is not the value spliced in");
	FUZZ_CHECK(again.members == sp.members + !sp.has_member);
	if (terr_rc == 0) {
		FUZZ_CHECK(json_parse(out.data, out.len, &tree2, &terr) == 0 || limit_only(&terr),
			   "the spliced scratchpad is not JSON: %s", terr.msg);
		if (tree2) {
			mine = json_get(tree2, SCRATCHPAD_KEY);
			json_span(mine, &s, &e);
			FUZZ_CHECK(mine && s == again.at && e == again.end);
			same_members(tree, text, tree2, out.data, !sp.has_member);
		}
	}
	json_free(tree);
	json_free(tree2);
	scratchpad_fini(&again);
	buf_free(&out);
	scratchpad_fini(&sp);
	return 0;
}
