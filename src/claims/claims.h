/* SPDX-License-Identifier: MIT */
/*
 * Sentence assembly and the decisions that need a whole sentence: a rule's
 * unless_sentence / unless_before exemptions, the number checks (the number
 * lexer reads each sentence of the model's text once there is grounding,
 * and its quantities are held with the matches), and one finding per
 * stretch of text per signal. Matches (in order of offset) are held until their
 * sentence ends: at a terminator followed by a capitalised word, at a line
 * break, at a tool span, at CLAIMS_SENTENCE_CAP bytes, or at end of input.
 *
 * claims_new() returns an object freed with claims_free(); it keeps
 * pointers to the ruleset and window, which must outlive it.
 */
#ifndef HALLUSCAN_CLAIMS_H
#define HALLUSCAN_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/window.h"
#include "ground/refs.h"
#include "match/rules.h"

struct engine_event;

#define CLAIMS_SENTENCE_CAP 16384
/* Matched text longer than this is cut (the finding says so). */
#define CLAIMS_TEXT_CAP 4096

/*
 * A number check's finding waits for its line to be read for bibliography
 * entries (a year, volume or page range of an entry is the entry's to
 * judge), and what comes out after it waits behind it. At most this many
 * findings and claims, of this many bytes, are held: past that the oldest
 * go out as they are (a line longer than REFS_LINE_MAX holds no entry, so
 * no more is ever held).
 */
#define CLAIMS_HOLD_MAX 256
#define CLAIMS_HOLD_BYTES (256 * 1024)

/* Rules of other signals whose finding on the same text a finding carries. */
#define CLAIMS_ALSO_MAX 3

struct claim_item {
	size_t rule;
	/* Other rules, of other signals, that found exactly this text: one
	 * finding carries them all (with their near figure, source, when the
	 * main rule has none). */
	size_t also[CLAIMS_ALSO_MAX];
	size_t n_also;
	uint64_t from, to, line, column;
	const char *text;
	size_t text_len;
	bool truncated;
	bool grounded;        /* repeats tool output */
	uint64_t grounded_at; /* where that tool output is (or the near figure) */
	const char *source;   /* a number check's near grounded figure, or NULL */
	/* A stated total that the figures it is computed from contradict
	 * (CLAIM_TOTAL_*, 0: none): source is then the derivation. */
	unsigned char total;
	/* source is the reply's own arithmetic worked out ("(20 + 30) x 2 x 3
	 * is €300"), which the finding's text does not state (arith.h) */
	bool computed;
	/* A bibliography entry (a rule with grounding: reference): its fields,
	 * relative to text, when ref.style is not REF_STYLE_NONE. */
	struct ref_entry ref;
};

/* What a total the figures contradict is (claim_item.total). */
enum {
	CLAIM_TOTAL_FARE = 1, /* one passenger's fare stated as the party's total */
	CLAIM_TOTAL_ITEM,     /* one item of the answer's own list stated as their total */
	CLAIM_TOTAL_TERM,     /* one of two figures stated as their difference */
	CLAIM_TOTAL_DIFFERS,  /* differs from what the figures make, or a charge says */
	CLAIM_TOTAL_RATE,     /* a rate over time ("€59/day") stated as the total for a span */
	CLAIM_TIME_BACKWARDS, /* a range of times that ends when or before it starts */
};

enum claim_label {
	CLAIM_SUPPORTED,   /* every checkable item is grounded */
	CLAIM_PARTIAL,     /* some are */
	CLAIM_UNSUPPORTED, /* none is */
	CLAIM_UNCHECKED,   /* nothing in it can be checked */
	CLAIM_LABELS,
};

const char *claim_label_name(enum claim_label l);

/* One sentence of agent text as a claim, with the items that decided it. */
struct claim {
	uint64_t start, end;
	const char *text;             /* the sentence, at most CLAIMS_TEXT_CAP bytes */
	size_t text_len;
	enum claim_label label;
	const struct claim_item *items; /* checkable items; grounded says which held */
	size_t n_items;
	/* The sentence goes on past end: it was cut at CLAIMS_SENTENCE_CAP
	 * (the next claim is its next piece). */
	bool cut;
};

struct claims;

struct ground;

/*
 * g, when not NULL, is the grounded set: a match that repeats tool output
 * is dropped (counted by claims_repeats), or passed on marked grounded when
 * show_grounded is set.
 */
struct attrs;

/*
 * What the claims judge by, from the compiled database (db.h), which must
 * outlive them: its ruleset, the lists of its attribute and reference
 * rules, and its exemption patterns as claims_serialize_exemptions() wrote
 * them (NULL: compiled from the rules). Passed in, not read from the db,
 * so that the claims stand below the database that is built of them.
 */
struct claims_rules {
	const struct ruleset *rs;
	const struct attrs *attrs;
	const struct refs *refs;
	const unsigned char *exempt;
	size_t exempt_len;
};

int claims_new(const struct claims_rules *cr, const struct window *w, const struct ground *g,
	       bool show_grounded, struct claims **out);
void claims_free(struct claims *c);

/* One thing the claims hand on: a finding, or a sentence's claim. */
struct claims_out {
	bool is_claim;
	struct claim_item it; /* a finding: a match that survived its sentence */
	struct claim cl;      /* a claim (claims_want_claims()), after its findings */
	size_t off, items_off; /* (the claims' own: where its bytes are kept) */
};

/*
 * What the claims decided since the last take, in order: out[0, *n).
 * claims_add(), claims_mark(), claims_break(), claims_line() and
 * claims_advance() decide sentences, put what they hand on in this outbox,
 * copied (texts, sources, a claim's items), and return; the caller takes
 * it after a call, or after several (it keeps their order), and walks it.
 * The array and every text it points to stay valid until the next call
 * into c. It holds what the calls since the last take decided, and grows
 * to that: the caller bounds it by how much input it gives between takes
 * (the scan takes once a piece of 64 KiB at most). A call that cannot grow
 * it fails with -ENOMEM, the rest of what it decided undelivered: the scan
 * stops with an error, and nothing passes unseen.
 */
const struct claims_out *claims_take(struct claims *c, size_t *n);

/* A rule match in agent text; its text is copied from the window now. */
int claims_add(struct claims *c, size_t rule, uint64_t from, uint64_t to,
	       uint64_t line, uint64_t column);
/* A possible sentence end: a terminator at from, the next sentence's first byte at to - 1. */
int claims_mark(struct claims *c, uint64_t from, uint64_t to);
/* A hard break: the sentence ends at, and the next begins at, offset at. */
int claims_break(struct claims *c, uint64_t at);
/*
 * A line break: the sentence ends, and the next line begins, at offset at.
 * Every line break of the input comes here, in order (those inside a tool
 * span too): the number checks count lines and columns by them.
 */
int claims_line(struct claims *c, uint64_t at);
/*
 * A run of the engine's line breaks (id line_id, at from) and sentence
 * marks (any other id) of the model's text, in order: claims_line(c, from
 * + 1) or claims_mark(c, from, to) of each, in one call. It stops after
 * the first that fails and returns its error, else 0. *taken: how many it
 * took (the failing one too); *lines: how many of those were line breaks.
 */
int claims_marks(struct claims *c, const struct engine_event *v, size_t n, unsigned line_id,
		 size_t *taken, size_t *lines);
/* Counts the columns of the current line up to offset at, before the
 * window drops the bytes before at. */
void claims_keep_columns(struct claims *c, uint64_t at);
/* Forces the breaks that CLAIMS_SENTENCE_CAP puts before offset pos. */
int claims_advance(struct claims *c, uint64_t pos);
/* Each sentence's claim is handed on too, after its findings (--claims). Off until set. */
void claims_want_claims(struct claims *c, bool on);
/* Inside tool output no claim is made: sentences there are not the model's
 * (their matches are still decided, for a span that may never close). */
void claims_tool_output(struct claims *c, bool inside);
/* Under context pressure (enum pressure) the rules marked "strict" have no
 * exemptions (scan.c drops the matches of those marked "only" without it).
 * Off until set. */
void claims_pressure(struct claims *c, bool on);
/* Claims per label since the last reset. */
const uint64_t *claims_counts(const struct claims *c);

struct bib;
/*
 * The user's bibliography (--bib), NULL for none: an entry it holds is
 * grounded; one whose title it holds with other authors or another year,
 * or whose id it holds on another title, is reported under the rule's near
 * signal (altered_reference) naming the bibliography's entry. b must
 * outlive c.
 */
void claims_set_bib(struct claims *c, const struct bib *b);
/*
 * The grounded set judged by from now on (as claims_new()'s g): between
 * decisions, for a set of the same items as far as they were judged by
 * (the scan reads the sources' own until the input writes to its copy,
 * ground_unit_judged()). g must outlive its use.
 */
void claims_set_ground(struct claims *c, const struct ground *g);

/* Matches dropped by a sentence exemption since the last reset. */
uint64_t claims_exempted(const struct claims *c);
/* Matches that repeat tool output, since the last reset. */
uint64_t claims_repeats(const struct claims *c);
/* Drops everything held (after an error) and starts again at offset 0. */
void claims_reset(struct claims *c);

/* Compiles every exemption pattern of rs; d locates the first that fails. */
int claims_check_rules(const struct ruleset *rs, struct diag *d);
/*
 * Appends every rule's exemption patterns, compiled as the claims compile
 * them, in PCRE2's serialized form (mkdb: the built-in rules' are loaded,
 * not compiled, by a run: db.h). 0, -EINVAL (a pattern does not compile)
 * or -ENOMEM.
 */
int claims_serialize_exemptions(const struct ruleset *rs, struct buf *out);

/* NULL, or the first entry of a table of claims.c out of the order its search needs. */
const char *claims_self_check(void);

#endif
