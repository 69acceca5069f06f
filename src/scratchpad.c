// SPDX-License-Identifier: MIT
/* The chain scratchpad: read what halluscan needs, splice its own member in. */
#include "scratchpad.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

static bool json_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

enum scratchpad_health scratchpad_zone(const char *zone, size_t len)
{
	/* The spec names the compact zone; the rest are the usual names of the
	 * levels before it and past it (traffic lights included). */
	static const char *const calm[] = {
		"fresh", "healthy", "ok", "good", "normal", "green", "watch", "warning", "warn",
		"yellow", "elevated",
	};
	static const char *const pressed[] = {
		"compact", "compacting", "orange", "critical", "red", "degraded", "emergency",
		"overflow", "exhausted", "full",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(calm); i++)
		if (strlen(calm[i]) == len && strncasecmp(zone, calm[i], len) == 0)
			return HEALTH_CALM;
	for (i = 0; i < ARRAY_SIZE(pressed); i++)
		if (strlen(pressed[i]) == len && strncasecmp(zone, pressed[i], len) == 0)
			return HEALTH_PRESSURE;
	return HEALTH_UNKNOWN;
}

enum scratchpad_health scratchpad_health_value(const struct json_value *h, const char **zone)
{
	const char *z;
	size_t n;

	*zone = NULL;
	if (!h)
		return HEALTH_ABSENT;
	z = json_string(h, &n);
	if (!z)
		z = json_string(json_get(h, "zone"), &n);
	if (!z)
		z = json_string(json_get(h, "status"), &n);
	*zone = z;
	return z ? scratchpad_zone(z, n) : HEALTH_UNKNOWN;
}

static void read_health(struct scratchpad *sp)
{
	sp->health = scratchpad_health_value(json_get(sp->root, "context_health"), &sp->zone);
}

static void read_result(struct scratchpad *sp)
{
	const struct json_value *ex = json_get(sp->root, "execution");
	const struct json_value *r = json_get(ex, "result");

	sp->result = json_string(r, &sp->result_len);
	if (sp->result)
		return;
	sp->result_problem = !ex   ? "the scratchpad has no \"execution\""
			     : !r  ? "the scratchpad has no \"execution.result\""
				   : "\"execution.result\" is not a string";
}

/* Where a new member goes, and how the members are laid out. */
static void find_insertion(struct scratchpad *sp)
{
	size_t start, end, n = json_object_len(sp->root), vs, ve, k;
	const struct json_value *last;

	json_span(sp->root, &start, &end);
	if (n == 0) {
		/* "{}" or "{ \n }": right after the brace. */
		sp->at = start + 1;
		sp->lead = "";
		sp->colon = ":";
		sp->colon_len = 1;
		return;
	}
	last = json_object_at(sp->root, n - 1, NULL, NULL);
	json_span(last, &vs, &ve);
	sp->at = ve;
	/* The first member's indentation: the blank between "{" and its key. */
	for (k = start + 1; k < end && json_ws(sp->text[k]); k++)
		;
	sp->lead = sp->text + start + 1;
	sp->lead_len = k - (start + 1);
	/* And between the first key and its value: back from the value over
	 * blanks, the colon and blanks again. */
	json_span(json_object_at(sp->root, 0, NULL, NULL), &vs, &ve);
	for (k = vs; k > start && json_ws(sp->text[k - 1]); k--)
		;
	if (k > start && sp->text[k - 1] == ':')
		k--;
	for (; k > start && json_ws(sp->text[k - 1]); k--)
		;
	sp->colon = sp->text + k;
	sp->colon_len = vs - k;
}

int scratchpad_parse(struct scratchpad *sp, const char *text, size_t len, struct json_error *err)
{
	const struct json_value *mine;
	int rc;

	memset(sp, 0, sizeof(*sp));
	sp->text = text;
	sp->len = len;
	if (len > SCRATCHPAD_MAX_BYTES) {
		if (err)
			*err = (struct json_error){SCRATCHPAD_MAX_BYTES, "a scratchpad of more than 64 MiB"};
		return -EINVAL;
	}
	rc = json_parse(text, len, &sp->root, err);
	if (rc < 0)
		return rc;
	if (json_type(sp->root) != JSON_OBJECT) {
		if (err)
			*err = (struct json_error){0, "a scratchpad must be a JSON object"};
		scratchpad_fini(sp);
		return -EINVAL;
	}
	read_result(sp);
	read_health(sp);
	mine = json_get(sp->root, SCRATCHPAD_KEY);
	if (mine) {
		sp->has_member = true;
		json_span(mine, &sp->at, &sp->end);
	} else {
		find_insertion(sp);
		sp->end = sp->at;
	}
	return 0;
}

int scratchpad_splice(const struct scratchpad *sp, const char *value, size_t value_len,
		      struct buf *out)
{
	int err = buf_add(out, sp->text, sp->at);

	if (err == 0 && !sp->has_member) {
		if (json_object_len(sp->root) > 0)
			err = buf_addc(out, ',');
		err = err ? err : buf_add(out, sp->lead, sp->lead_len);
		err = err ? err : BUF_LIT(out, "\"" SCRATCHPAD_KEY "\"");
		err = err ? err : buf_add(out, sp->colon, sp->colon_len);
	}
	err = err ? err : buf_add(out, value, value_len);
	err = err ? err : buf_add(out, sp->text + sp->end, sp->len - sp->end);
	return err ? -ENOMEM : 0;
}

void scratchpad_fini(struct scratchpad *sp)
{
	json_free(sp->root);
	sp->root = NULL;
}
