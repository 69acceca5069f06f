/* SPDX-License-Identifier: MIT */
/*
 * Tool-output spans: the state machine driven by delimiter matches, which
 * arrive in order of offset. A span opens at an accepted opener and closes
 * at the first accepted closer of the same pair; other delimiters inside
 * it are data.
 *
 * Each delimiter is found in every form spans_pattern() matches, and is
 * accepted in one: as its pack writes it, or, with a nonce, in its nonce
 * form (spans_nonce_form). With a nonce, any other form outside a span is
 * spoofed: a model cannot write what it was never shown.
 *
 * The caller owns struct spans: spans_init() fills it (spans_fini() frees
 * what it holds), spans_reset() starts each input.
 */
#ifndef HALLUSCAN_SPANS_H
#define HALLUSCAN_SPANS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util.h"
#include "match/rules.h"

/* A nonce is SPANS_NONCE_MIN to SPANS_NONCE_MAX of [A-Za-z0-9._-]. */
#define SPANS_NONCE_MIN 8
#define SPANS_NONCE_MAX 64
/* The longest attribute part a delimiter is recognised with: a longer one
 * is no delimiter at all (plain text, scanned as such). */
#define SPANS_ATTR_MAX 200

struct spans {
	/* The accepted form of each delimiter (2k: pair k's opener, 2k + 1
	 * its closer); kept by spans_reset(). */
	struct buf *form;
	size_t n_delims;
	bool nonce;           /* other forms are spoofed, not text */
	/* One input's state. */
	bool open;
	size_t pair;          /* the open span's delimiter pair */
	uint64_t open_from;   /* where the open span's opener starts */
	uint64_t open_to;     /* where it ends */
	uint64_t closed_to;   /* end of the last closer */
	uint64_t n_spans;     /* spans opened in this input */
};

enum span_change {
	SPAN_SAME,    /* data inside a span, or text outside one */
	SPAN_OPENED,
	SPAN_CLOSED,
	SPAN_SPOOFED, /* outside a span, with a nonce: a form other than the accepted one */
};

/* 0, or -EINVAL when nonce is not a valid nonce. */
int spans_check_nonce(const char *nonce);
/*
 * The regex (into out, reset first) that finds delimiter d with or without
 * attributes on its line: d's stem, then optionally a blank and at most
 * SPANS_ATTR_MAX bytes, then d's closing bracket. The stem is d without
 * its last byte when that is '>', ']', '}' or ')'; otherwise d is its own
 * stem and the only attribute recognised is a nonce.
 */
int spans_pattern(const char *d, struct buf *out);
/* d with nonce: the stem, ' nonce="NONCE"', then the closing bracket (into out, reset first). */
int spans_nonce_form(const char *d, const char *nonce, struct buf *out);

/*
 * Sets the accepted forms of rs's delimiters: their nonce forms, or with
 * nonce NULL the pack's strings. -EINVAL: a bad nonce (s unchanged).
 */
int spans_init(struct spans *s, const struct ruleset *rs, const char *nonce);
void spans_fini(struct spans *s);
void spans_reset(struct spans *s);
/* Feeds one delimiter match (id as above, text its bytes); says what it did. */
enum span_change spans_delimiter(struct spans *s, size_t id, const char *text, size_t n,
				 uint64_t from, uint64_t to);
/* True when a match starting at from lies inside the last accepted delimiter
 * (matches arrive in order of start: none starts before the last delimiter).
 * Inline: it runs for every match. */
static inline bool spans_markup(const struct spans *s, uint64_t from)
{
	return from < (s->open ? s->open_to : s->closed_to);
}

#endif
