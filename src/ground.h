/* SPDX-License-Identifier: MIT */
/*
 * The grounded set: what tool output said, normalized, so that the same
 * item repeated in agent text is recognised as grounded. Bounded: at most
 * GROUND_CAP items; when full the oldest is evicted (and counted).
 *
 * ground_new() returns a set freed with ground_free().
 */
#ifndef HALLUSCAN_GROUND_H
#define HALLUSCAN_GROUND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "util.h"

#define GROUND_CAP 4096
/* Keys longer than this are cut; a URL that long is compared by its head. */
#define GROUND_KEY_MAX 512

struct ground;

int ground_new(struct ground **out);
void ground_free(struct ground *g);
void ground_reset(struct ground *g);

/* Records key, first seen at offset at (a later sighting keeps the first). */
int ground_add(struct ground *g, const char *key, size_t n, uint64_t at);
/* True when key is held; *at is where it was grounded. */
bool ground_find(const struct ground *g, const char *key, size_t n, uint64_t *at);
uint64_t ground_evictions(const struct ground *g);

/*
 * The key under which a match of kind k is compared (reset into out):
 *  GROUNDING_URL      scheme and host lowercased, default port, fragment
 *                     and trailing slash dropped
 *  GROUNDING_NUMBER   value and unit: "18.3 %" = "18.30 percent" = "18.3%"
 *  GROUNDING_CITATION first author's surname and year: "Smith|2024"
 *  GROUNDING_EXACT    the text itself
 */
int ground_key(enum grounding k, const char *text, size_t n, struct buf *out);

#endif
