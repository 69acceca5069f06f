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

/* What a scan of an object remembers: the last value of each key asked for. */
struct wanted {
	const char *const *keys;
	size_t n_keys;
	struct json_member_span *found; /* type JSON_NONE: absent */
	size_t members;
	size_t first_start, last_end;
};

static int see_member(void *ctx, const struct json_member_span *m)
{
	struct wanted *w = ctx;
	size_t i;

	if (w->members++ == 0)
		w->first_start = m->start;
	w->last_end = m->end;
	for (i = 0; i < w->n_keys; i++)
		if (m->key_len == strlen(w->keys[i]) && memcmp(m->key, w->keys[i], m->key_len) == 0) {
			w->found[i] = *m;
			w->found[i].key = NULL; /* not valid past the call */
		}
	return 0;
}

/*
 * The members of the object at text[m->start, m->end) (already checked)
 * that keys names: their spans into text, in found[].
 */
static int members_of(const struct scratchpad *sp, const struct json_member_span *m,
		      const char *const *keys, size_t n_keys, struct json_member_span *found)
{
	struct wanted w = {keys, n_keys, found, 0, 0, 0};
	enum json_type type;
	size_t i;
	int err;

	for (i = 0; i < n_keys; i++)
		found[i] = (struct json_member_span){0};
	if (m->type != JSON_OBJECT)
		return 0;
	err = json_scan_object(sp->text + m->start, m->end - m->start, see_member, &w, &type, NULL);
	if (err < 0)
		return err == -EINVAL ? -EIO : err; /* checked before: cannot be */
	for (i = 0; i < n_keys; i++) {
		found[i].start += m->start;
		found[i].end += m->start;
	}
	return 0;
}

/* The string at m (a JSON_STRING span), decoded into a tree *keep owns. */
static int decode(const struct scratchpad *sp, const struct json_member_span *m,
		  struct json_value **keep, const char **s, size_t *n)
{
	int err = json_parse(sp->text + m->start, m->end - m->start, keep, NULL);

	if (err < 0)
		return err == -EINVAL ? -EIO : err;
	*s = json_string(*keep, n);
	return 0;
}

static int read_result(struct scratchpad *sp, const struct json_member_span *ex)
{
	static const char *const keys[] = {"result"};
	struct json_member_span r;
	int err;

	err = members_of(sp, ex, keys, 1, &r);
	if (err < 0)
		return err;
	if (r.type == JSON_STRING)
		return decode(sp, &r, &sp->result_tree, &sp->result, &sp->result_len);
	sp->result_problem = ex->type == JSON_NONE ? "the scratchpad has no \"execution\""
			     : r.type == JSON_NONE ? "the scratchpad has no \"execution.result\""
						   : "\"execution.result\" is not a string";
	return 0;
}

/* As scratchpad_health_value() reads a tree. */
static int read_health(struct scratchpad *sp, const struct json_member_span *h)
{
	static const char *const keys[] = {"zone", "status"};
	struct json_member_span zs[2];
	const struct json_member_span *z = NULL;
	size_t n = 0;
	int err;

	sp->health = h->type == JSON_NONE ? HEALTH_ABSENT : HEALTH_UNKNOWN;
	if (h->type == JSON_STRING) {
		z = h;
	} else {
		err = members_of(sp, h, keys, 2, zs);
		if (err < 0)
			return err;
		z = zs[0].type == JSON_STRING ? &zs[0] : zs[1].type == JSON_STRING ? &zs[1] : NULL;
	}
	if (!z)
		return 0;
	err = decode(sp, z, &sp->zone_tree, &sp->zone, &n);
	if (err == 0)
		sp->health = scratchpad_zone(sp->zone, n);
	return err;
}

/* Where a new member goes, and how the members are laid out. */
static void find_insertion(struct scratchpad *sp, const struct wanted *w)
{
	size_t start = 0, end = sp->len, k;

	/* The object's braces: the text is one object, maybe amid blanks. */
	while (json_ws(sp->text[start]))
		start++;
	while (json_ws(sp->text[end - 1]))
		end--;
	if (w->members == 0) {
		/* "{}" or "{ \n }": right after the brace. */
		sp->at = start + 1;
		sp->lead = "";
		sp->colon = ":";
		sp->colon_len = 1;
		return;
	}
	sp->at = w->last_end;
	/* The first member's indentation: the blank between "{" and its key. */
	for (k = start + 1; k < end && json_ws(sp->text[k]); k++)
		;
	sp->lead = sp->text + start + 1;
	sp->lead_len = k - (start + 1);
	/* And between the first key and its value: back from the value over
	 * blanks, the colon and blanks again. */
	for (k = w->first_start; k > start && json_ws(sp->text[k - 1]); k--)
		;
	if (k > start && sp->text[k - 1] == ':')
		k--;
	for (; k > start && json_ws(sp->text[k - 1]); k--)
		;
	sp->colon = sp->text + k;
	sp->colon_len = w->first_start - k;
}

int scratchpad_parse(struct scratchpad *sp, const char *text, size_t len, struct json_error *err)
{
	enum { EXECUTION, HEALTH, MINE, WANTED };
	static const char *const keys[WANTED] = {"execution", "context_health", SCRATCHPAD_KEY};
	struct json_member_span found[WANTED] = {0};
	struct wanted w = {keys, WANTED, found, 0, 0, 0};
	enum json_type type;
	int rc;

	memset(sp, 0, sizeof(*sp));
	sp->text = text;
	sp->len = len;
	if (len > SCRATCHPAD_MAX_BYTES) {
		if (err)
			*err = (struct json_error){SCRATCHPAD_MAX_BYTES, "a scratchpad of more than 64 MiB"};
		return -EINVAL;
	}
	/*
	 * Not json_parse(): a valid scratchpad of any depth or number of values
	 * is read (other skills' members are no business of ours, and a file
	 * refused would keep the previous step's verdict); only the members
	 * halluscan reads are looked into.
	 */
	rc = json_scan_object(text, len, see_member, &w, &type, err);
	if (rc < 0)
		return rc;
	if (type != JSON_OBJECT) {
		if (err)
			*err = (struct json_error){0, "a scratchpad must be a JSON object"};
		return -EINVAL;
	}
	rc = read_result(sp, &found[EXECUTION]);
	if (rc == 0)
		rc = read_health(sp, &found[HEALTH]);
	if (rc < 0) {
		scratchpad_fini(sp);
		return rc;
	}
	sp->members = w.members;
	if (found[MINE].type != JSON_NONE) {
		sp->has_member = true;
		sp->at = found[MINE].start;
		sp->end = found[MINE].end;
	} else {
		find_insertion(sp, &w);
		sp->end = sp->at;
	}
	return 0;
}

int scratchpad_splice(const struct scratchpad *sp, const char *value, size_t value_len,
		      struct buf *out)
{
	int err = buf_add(out, sp->text, sp->at);

	if (err == 0 && !sp->has_member) {
		if (sp->members > 0)
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
	json_free(sp->result_tree);
	json_free(sp->zone_tree);
	sp->result_tree = sp->zone_tree = NULL;
	sp->result = sp->zone = NULL;
}
