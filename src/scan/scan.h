/* SPDX-License-Identifier: MIT */
/*
 * The pipeline for one input at a time: bytes -> engine -> spans -> claims
 * -> policy -> the caller's finding callback, then a summary.
 *
 * scan_new() returns an object freed with scan_free(); it keeps pointers to
 * the db and policy, which must outlive it. A finding passed to the
 * callback is valid only during the call.
 */
#ifndef HALLUSCAN_SCAN_H
#define HALLUSCAN_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "claims/claims.h"
#include "claims/policy.h"
#include "db.h"
#include "match/engine.h"
#include "match/rules.h"

/* The signal and rule of the finding made for a tool span left open. */
#define SIGNAL_UNTERMINATED "unterminated_span"
#define RULE_UNTERMINATED "span.unterminated"
/* ... and for a span delimiter without the run's nonce (scan_span_nonce). */
#define SIGNAL_SPOOFED "spoofed_span"
#define RULE_SPOOFED "span.spoofed"

/*
 * The pipeline's own signals, after the ruleset's: signal index
 * rs->n_signals + SCAN_SIGNAL_*. Counts and names run over
 * scan_n_signals() of them.
 */
enum {
	SCAN_SIGNAL_UNTERMINATED,
	SCAN_SIGNAL_SPOOFED,
	SCAN_OWN_SIGNALS,
};

/* How many signals a scan counts: the ruleset's, then its own. */
static inline size_t scan_n_signals(const struct ruleset *rs)
{
	return rs->n_signals + SCAN_OWN_SIGNALS;
}

/* The name of signal index k < scan_n_signals(rs). */
const char *scan_signal_name(const struct ruleset *rs, size_t k);

struct finding {
	const struct rule *rule; /* NULL for span.unterminated and span.spoofed */
	const char *signal, *rule_id;
	size_t signal_index;     /* < scan_n_signals(): see there */
	enum severity severity;
	uint64_t start, end;     /* byte offsets, end exclusive */
	uint64_t line, column;   /* 1-based; column in code points */
	const char *text;
	size_t text_len;
	bool text_truncated;     /* text holds the first CLAIMS_TEXT_CAP bytes */
	const char *message, *recovery;
	bool grounded;           /* repeats tool output (only with scan_show_grounded) */
	uint64_t grounded_at;    /* the offset of that tool output */
	const char *source;      /* a number check: the grounded figure it differs from */
	uint64_t source_at;      /* where that figure is */
	/* Other signals found on exactly this text, carried by this finding
	 * (counted each, the severity the highest, the recovery all of theirs). */
	const char *also[CLAIMS_ALSO_MAX];
	size_t also_index[CLAIMS_ALSO_MAX];
	size_t n_also;
	const char *trigger;     /* the trigger request that raised severity a step, or NULL */
	/* A bibliography entry's fields (spans of text), or NULL. */
	const struct ref_entry *ref;
};

struct scan_summary {
	uint64_t bytes, findings;
	/* Findings per signal index (scan_n_signals() of them). */
	const uint64_t *signal_counts;
	enum severity verdict;
	uint64_t exempted;       /* dropped by a sentence exemption */
	uint64_t grounded;       /* matches and quantities inside closed tool spans */
	uint64_t repeats;        /* matches in agent text that repeat tool output */
	uint64_t ground_evictions; /* items dropped from the full grounded set */
	uint64_t spans, unterminated_spans;
	uint64_t limit_hits;     /* PCRE2 match limits reached */
	/* Set by the caller that decoded the input (scan_end() leaves them
	 * NULL and 0): its encoding, and the code units that became U+FFFD. */
	const char *encoding;
	uint64_t replaced;
	const uint64_t *claims;  /* claims per enum claim_label (with scan_claims) */
};

typedef int (*scan_finding_fn)(void *ctx, const struct finding *f);
/* A sentence of agent text as a claim, after its findings (--claims). */
typedef int (*scan_claim_fn)(void *ctx, const struct claim *cl);

struct scan;

int scan_new(const struct db *db, const struct policy *pol, scan_finding_fn fn, void *ctx,
	     struct scan **out);
void scan_free(struct scan *s);
/* Scans under context pressure (claims_pressure()). Call before scanning. */
void scan_pressure(struct scan *s, bool on);
bool scan_pressured(const struct scan *s);
/* Reports each sentence of agent text as a claim to fn (--claims). Call before scanning. */
void scan_claims(struct scan *s, scan_claim_fn fn, void *ctx);
/* Forgets every source added with scan_add_source, and the bibliography. Call between inputs. */
void scan_clear_sources(struct scan *s);
/*
 * Accepts tool spans only in their nonce forms (spans.h): every other
 * delimiter outside a span is a spoofed_span finding, at block. -EINVAL:
 * not a valid nonce. Call before scanning.
 */
int scan_span_nonce(struct scan *s, const char *nonce);
/* Reports matches that repeat tool output too, marked grounded. Call before scanning. */
int scan_show_grounded(struct scan *s, bool on);
/*
 * Adds a text as grounding for every input scanned after it, as if it were
 * tool output (--source), in pieces of any size: scan_source_begin(), then
 * scan_source_feed() for each piece, then scan_source_end(), also after an
 * error, which leaves the scan ready for inputs. Memory does not grow with
 * the text. Call between inputs.
 */
int scan_source_begin(struct scan *s);
int scan_source_feed(struct scan *s, const void *buf, size_t len);
int scan_source_end(struct scan *s);
/* The source begun is a prompt: a turn begins with it (ground_turn()). */
void scan_source_turn(struct scan *s);
/* The same for a whole text at once. */
int scan_add_source(struct scan *s, const void *buf, size_t len);
/*
 * Adds a bibliography file held in memory (BibTeX or CSL-JSON, bib.h) whose
 * entries ground the references of every input scanned after it. -EINVAL
 * with d saying where the file is malformed. Call between inputs.
 */
int scan_add_bib(struct scan *s, const char *name, const void *data, size_t len, struct diag *d);
/*
 * The caller has looked for the literal lit (k bytes) in the input, and it
 * starts nowhere before offset clear; with hit, it starts at clear. When
 * lit is the one the late database wakes on (a rule's wake_on), the scan
 * takes this instead of looking at those bytes again. Call it before
 * scan_feed() gives it the bytes (it starts the next input, as scan_feed()
 * does); news of bytes already looked at is ignored.
 */
void scan_wake_known(struct scan *s, const char *lit, size_t k, uint64_t clear, bool hit);
/* engine_stream_on_lines() of the stream that scans the input. */
bool scan_on_lines(struct scan *s, engine_lines_fn fn, void *ctx);
/* Scans the next bytes of the input. A non-zero return of fn is returned. */
int scan_feed(struct scan *s, const void *buf, size_t len);
/*
 * The input's next bytes read in place, into the window scan_feed() would
 * copy them to (one copy of every byte fewer): scan_room() sets *at to room
 * for up to its return (at most max, at least SCAN_ROOM_MIN) bytes, or
 * returns 0 where the caller is to scan_feed() instead (a new input, or an
 * error, which that call returns). A window too full for max bytes drops
 * its oldest ones first, as scan_feed() would. scan_feed_room() then
 * scans the len bytes put there, as scan_feed() of them would; nothing
 * else may happen to s in between.
 */
#define SCAN_ROOM_MIN (16 * 1024)
size_t scan_room(struct scan *s, char **at, size_t max);
int scan_feed_room(struct scan *s, size_t len);
/* Ends the input: reports what is left and fills *sum (valid until the next
 * scan_feed); the scan is ready for the next input. */
int scan_end(struct scan *s, struct scan_summary *sum);
/*
 * Drops the input in progress, reporting nothing (after an error, or to
 * stop early); the sources stay. The next scan_feed starts a new input.
 * -ENOMEM: the engine's stream could not be reopened (the next call says
 * so again).
 */
int scan_reset(struct scan *s);

/*
 * Runs every rule's examples and negative examples through the pipeline:
 * each example must give a finding of its rule (with exactly its "match"
 * text when given), each negative example none. d locates the first failure.
 */
int scan_check_examples(const struct db *db, struct diag *d);

#endif
