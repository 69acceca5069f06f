/* SPDX-License-Identifier: MIT */
/*
 * The matching engine: Hyperscan in streaming mode with PCRE2 (JIT) for the
 * patterns Hyperscan rejects, or PCRE2 alone. Both report the same matches:
 * per pattern leftmost-longest and non-overlapping, never across a line
 * break (a match may end with one), at most ENGINE_MAX_MATCH bytes long,
 * and delivered in order of start offset, whatever the sizes of the reads.
 * Where a match could run longer, the longest from its start that fits is kept.
 * One difference is known and left: Hyperscan reports only the leftmost
 * start of each end, so where a match starting inside the previous match
 * ends where one starting after it does, PCRE2 finds the latter and
 * Hyperscan does not. No built-in pattern has that shape (the URL rule
 * had, past ENGINE_MAX_MATCH, until its end was found by url_end()).
 *
 * engine_compile() and engine_load() return an engine the caller frees with
 * engine_free(); engine_stream_new() a stream freed with
 * engine_stream_free(), which must not outlive its engine.
 */
#ifndef HALLUSCAN_ENGINE_H
#define HALLUSCAN_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util.h"

#define ENGINE_MAX_MATCH 8192

enum {
	ENGINE_CASELESS = 1 << 0,
	ENGINE_LITERAL = 1 << 1, /* expr is a byte string, not a regex */
	ENGINE_SENTENCE_MARK = 1 << 2, /* expr is ENGINE_SENTENCE_MARK_RE: see below */
	ENGINE_LINE_BREAK = 1 << 3, /* expr is "\n": every line break, by the same byte scan */
	ENGINE_LATE = 1 << 4,       /* scanned once engine_stream_wake() is called: see there */
	ENGINE_NEVER = 1 << 5,      /* no pattern (expr NULL): an id that never matches */
};

/*
 * A possible sentence end: a terminator, closing quotes or brackets, a
 * little blank space and the next sentence's first byte (so that deciding
 * never needs bytes not yet read). A pattern flagged ENGINE_SENTENCE_MARK
 * has exactly these matches, found by a byte scan in every backend: the
 * mark is the most frequent match of all, and as one more Hyperscan
 * expression it halves the speed of the whole database.
 */
#define ENGINE_SENTENCE_MARK_RE "[.!?][\"')\\]]{0,3}[ \\t]{1,4}[^ \\t\\r\\n]"

/*
 * A pattern. When alts is set, expr must be their alternation, written
 * (?:A)|(?:B)|...: PCRE2 runs expr, Hyperscan compiles each alternative as
 * an expression of its own under the pattern's id (a set of simple
 * expressions makes a faster automaton than one large alternation), and
 * the leftmost-longest merge over all their reports is the alternation's.
 */
struct engine_pattern {
	const char *expr;
	unsigned flags;
	const char *const *alts;
	size_t n_alts;
};

enum engine_backend {
	ENGINE_AUTO,  /* Hyperscan where it is built in, else PCRE2 */
	ENGINE_PCRE2, /* PCRE2 for every pattern */
};

struct engine;
struct engine_stream;

/* Called for each match; a non-zero return stops the feed and is returned. */
typedef int (*engine_match_fn)(void *ctx, unsigned id, uint64_t from, uint64_t to);

struct engine_info {
	const char *backend; /* "hyperscan", "hyperscan+pcre2" or "pcre2" */
	size_t n_patterns, n_pcre2;
	size_t db_bytes, stream_bytes, scratch_bytes;
	const char *degraded; /* why Hyperscan compiled nothing (all on PCRE2), or NULL */
};

/*
 * Compiles the patterns; the index of a pattern is its id in matches.
 * Every pattern must compile with PCRE2 (so a pack runs in every build) and
 * must not match the empty string. On failure d names the pattern's index.
 */
int engine_compile(const struct engine_pattern *pats, size_t n, enum engine_backend be,
		   struct engine **out, struct diag *d);

/*
 * Serializes a Hyperscan-backed engine (-ENOTSUP for PCRE2 alone); *buf is
 * malloc'ed. key is stored with it; engine_load() refuses another key.
 * With image, the Hyperscan database is stored as it lies in memory once
 * loaded: engine_load() then uses it where it is, with no copy, if the
 * buffer is aligned to ENGINE_IMAGE_ALIGN and outlives the engine (the
 * built-in database, compiled into the program's read-only data). An
 * image only loads with the Hyperscan library that made it.
 */
#define ENGINE_IMAGE_ALIGN 64
int engine_serialize(const struct engine *e, const char *key, bool image, unsigned char **buf,
		     size_t *len);
/* Loads what engine_serialize() wrote, for the same patterns. -ESTALE: stale or foreign. */
int engine_load(const unsigned char *buf, size_t len, const char *key,
		const struct engine_pattern *pats, size_t n, struct engine **out, struct diag *d);

/* Checks one pattern: valid PCRE2 that cannot match the empty string. */
int engine_check_pattern(const struct engine_pattern *p, struct diag *d);
void engine_free(struct engine *e);
void engine_get_info(const struct engine *e, struct engine_info *info);
/* True when pattern id runs on PCRE2. */
bool engine_is_pcre2(const struct engine *e, size_t id);
/* A string naming the engine library and version, for cache keys. */
const char *engine_version(void);

int engine_stream_new(const struct engine *e, struct engine_stream **out);
void engine_stream_free(struct engine_stream *s);
/*
 * What engine_stream_on_lines() calls with each piece it scans: buf[0, len)
 * starts at stream offset base, and nl[0, n) are its line breaks (stream
 * offsets, in order), found by the byte scan for sentence marks; called
 * before any of the piece's matches is delivered. 0 or a negative errno,
 * which the feed returns.
 */
typedef int (*engine_lines_fn)(void *ctx, const char *buf, size_t len, uint64_t base,
			       const uint64_t *nl, size_t n);
/*
 * Has fn called with each piece the stream scans from now on (NULL: no
 * longer), so that a caller that needs every line break takes them from
 * the one pass over the bytes instead of a search of its own. False, and
 * nothing is called, where the stream does not find every line break (a
 * build without Hyperscan, or no pattern for sentence marks or lines).
 */
bool engine_stream_on_lines(struct engine_stream *s, engine_lines_fn fn, void *ctx);
/* A match as a run of them is handed over: engine_match_fn's arguments. */
struct engine_event {
	unsigned id;
	uint64_t from, to;
};
/*
 * What engine_stream_on_marks() calls with a run of sentence marks and line
 * breaks, v[0, n) in order, where the match callback would be called once
 * for each: it takes them in order, as that callback would, and stops after
 * the first that returns non-zero (which it returns) or after which *stop
 * is true (the stream must sort again). *taken: how many it took.
 */
typedef int (*engine_marks_fn)(void *ctx, const struct engine_event *v, size_t n, size_t *taken,
			       const bool *stop);
/*
 * Has fn take the runs of marks between matches from now on (NULL: the
 * match callback takes each), so that the most numerous events, a line
 * break or a sentence mark every few dozen bytes, cost no call each.
 */
void engine_stream_on_marks(struct engine_stream *s, engine_marks_fn fn, void *ctx);
/* Scans the next bytes of the input; delivers the matches that are final. */
int engine_stream_feed(struct engine_stream *s, const char *buf, size_t len,
		       engine_match_fn cb, void *ctx);
/*
 * Starts the ENGINE_LATE patterns, which Hyperscan keeps in a database of
 * their own and does not scan before: from now on the stream reports their
 * matches that start at or after offset from. bytes are the input from
 * offset at (the start of from's line, or as far back as the caller holds)
 * up to what was fed so far: they are scanned for those patterns at once,
 * so that their matches from `from` on are exactly what scanning them all
 * along would have given (matches never cross a line break; a line that
 * starts before at could differ only where a match runs from before at
 * past from). May be called from the match callback: the matches it adds
 * are delivered in order with the rest. Patterns on PCRE2 run all along;
 * a second call does nothing.
 */
int engine_stream_wake(struct engine_stream *s, const char *bytes, size_t n, uint64_t at,
		       uint64_t from);
/* Ends the input: delivers every remaining match. The stream can be reused. */
int engine_stream_end(struct engine_stream *s, engine_match_fn cb, void *ctx);
/* Drops the input in progress, delivering nothing (after an error, or to stop
 * early): the stream is as new. -ENOMEM: it could not be reopened. */
int engine_stream_reset(struct engine_stream *s);
/* The bytes fed so far (inside a match callback: the bytes scanned so far). */
uint64_t engine_stream_offset(const struct engine_stream *s);
/* Every match starting before this offset has been delivered. */
uint64_t engine_stream_watermark(const struct engine_stream *s);
/* How often a PCRE2 match hit a limit (match, depth or JIT stack) over the
 * stream's life; the rest of that line, or of its window of a long line,
 * was skipped for that pattern. */
uint64_t engine_stream_limit_hits(const struct engine_stream *s);

#endif
