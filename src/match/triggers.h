/* SPDX-License-Identifier: MIT */
/*
 * Trigger requests (the spec's "Common Hallucination Triggers"): the
 * packs' trigger patterns, looked for in what the user wrote. A prompt is
 * fed in pieces of any size; memory is bounded (TRIGGERS_WINDOW bytes),
 * so a trigger's match must be shorter than TRIGGERS_OVERLAP bytes.
 *
 * triggers_new() returns an object freed with triggers_free(); it keeps a
 * pointer to the ruleset, which must outlive it.
 */
#ifndef HALLUSCAN_TRIGGERS_H
#define HALLUSCAN_TRIGGERS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/util.h"
#include "rules.h"

#define TRIGGERS_WINDOW (64u * 1024)
#define TRIGGERS_OVERLAP 1024u

struct triggers;

/*
 * Prepares to look for rs's trigger patterns, compiled at the first
 * triggers_begin() (triggers_check() is what refuses a bad one, with its
 * place). 0 or -ENOMEM.
 */
int triggers_new(const struct ruleset *rs, struct triggers **out);
void triggers_free(struct triggers *t);
/* Starts a prompt; what matched in earlier prompts stays matched. 0, -ENOMEM,
 * or -EINVAL for a pattern that does not compile (never one triggers_check() passed). */
int triggers_begin(struct triggers *t);
int triggers_feed(struct triggers *t, const char *buf, size_t len);
/* Ends the prompt: its last bytes are looked at. */
int triggers_end(struct triggers *t);
/* Whether trigger i (of the ruleset's) matched since triggers_clear(). */
bool triggers_hit(const struct triggers *t, size_t i);
void triggers_clear(struct triggers *t);

/*
 * Compiles every trigger pattern and runs its examples: each example must
 * match (with exactly its "match" text when it has one), each negative
 * example must not. d locates the first failure.
 */
int triggers_check(const struct ruleset *rs, struct diag *d);

#endif
