/* SPDX-License-Identifier: MIT */
/*
 * A chain's shared scratchpad (a JSON object other skills write too): what
 * halluscan reads from it, and the bytes of it with one member replaced.
 * Nothing here touches a file (cli/chain.c locks, reads and replaces it).
 *
 * scratchpad_parse() reads text, which the caller keeps alive and unchanged
 * until scratchpad_fini(); the pointers it sets point into text or into
 * the decoded strings it owns. It builds no tree of the whole file: any
 * depth and number of values is read (json.h's json_scan_object()). No
 * function takes ownership of its arguments.
 */
#ifndef HALLUSCAN_SCRATCHPAD_H
#define HALLUSCAN_SCRATCHPAD_H

#include <stdbool.h>
#include <stddef.h>

#include "common/json.h"
#include "common/util.h"

/* The member halluscan owns, and the one it reads. */
#define SCRATCHPAD_KEY "hallucination_detector"
#define SCRATCHPAD_MAX_BYTES (64u << 20)

/* What the context-health skill says about the context, if anything. */
enum scratchpad_health {
	HEALTH_ABSENT,    /* no context_health member */
	HEALTH_CALM,      /* a zone before compact ("healthy", "warning", ...) */
	HEALTH_PRESSURE,  /* the compact zone or beyond ("compact", "critical", ...) */
	HEALTH_UNKNOWN,   /* a value halluscan does not know: taken as pressure */
};

struct scratchpad {
	const char *text;
	size_t len;
	size_t members;     /* the object's */
	struct json_value *result_tree, *zone_tree; /* owned: the decoded strings */
	/* execution.result, or NULL, and then why it cannot be scanned */
	const char *result;
	size_t result_len;
	const char *result_problem;
	enum scratchpad_health health;
	const char *zone;   /* the zone as written (NUL-terminated), or NULL */
	/* Where the member's value goes: replaced in [at, end), or (has_member
	 * false) a new member inserted at at. */
	bool has_member;
	size_t at, end;
	/* For a new member: what goes before its key ("," and the first
	 * member's indentation) and between key and value. */
	const char *lead;
	size_t lead_len;
	const char *colon;
	size_t colon_len;
};

/*
 * Parses text[0, len) as a scratchpad: a JSON object (json.h's grammar,
 * without its limits on depth and values). Returns 0, -EINVAL (not JSON,
 * or not an object, or past SCRATCHPAD_MAX_BYTES: err says where and why)
 * or -ENOMEM.
 */
int scratchpad_parse(struct scratchpad *sp, const char *text, size_t len,
		     struct json_error *err);
/*
 * Appends to out the scratchpad's text with the member SCRATCHPAD_KEY's
 * value replaced by value (JSON text of value_len bytes; the last such
 * member when the object repeats the key), or added as the last member:
 * every other byte as it was. Returns 0 or -ENOMEM.
 */
int scratchpad_splice(const struct scratchpad *sp, const char *value, size_t value_len,
		      struct buf *out);
void scratchpad_fini(struct scratchpad *sp);

/* How a context_health zone's name is taken. */
enum scratchpad_health scratchpad_zone(const char *zone, size_t len);
/*
 * A context_health value (NULL: absent): a zone's name, or an object whose
 * "zone" (or "status") is one. *zone is set to the name, or NULL.
 */
enum scratchpad_health scratchpad_health_value(const struct json_value *h, const char **zone);

#endif
