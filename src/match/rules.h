/* SPDX-License-Identifier: MIT */
/*
 * Rule packs: YAML files that define rules, tool-span delimiters and the
 * contexts that escalate severities. ruleset_new() returns an object the
 * caller frees with ruleset_free(); every pointer reachable from it stays
 * valid until then. No function takes ownership of its arguments.
 */
#ifndef HALLUSCAN_RULES_H
#define HALLUSCAN_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "common/util.h"
#include "numbers/quantity.h"

enum severity {
	SEV_NONE = 0, /* a verdict with no finding: "pass" */
	SEV_WARN = 1,
	SEV_BLOCK = 2,
};

const char *severity_name(enum severity s);
/* Returns 0 and sets *out, or -EINVAL for an unknown name. */
int severity_parse(const char *name, enum severity *out);

/* How a match is compared with tool output to decide that it is grounded. */
enum grounding {
	GROUNDING_EXACT = 0,
	GROUNDING_URL,
	GROUNDING_NUMBER,
	GROUNDING_CITATION,
	GROUNDING_NONE, /* never grounded by a repeat */
	GROUNDING_QUANTITY, /* a number check: see struct near */
	GROUNDING_REFERENCE, /* a bibliography entry's trigger: refs.h decides its line */
	GROUNDING_ATTRIBUTE, /* a record's yes/no said otherwise: attrs.h; no pattern */
	GROUNDING_CODE, /* an identifier (ground_next_code()): with grounding only; no pattern */
};

const char *grounding_name(enum grounding g);

struct where {
	const char *file; /* owned by the ruleset */
	unsigned line, col; /* 1-based */
};

struct example {
	char *text;
	char *match; /* the exact text the finding must have, or NULL: any finding */
	struct where at;
};

/*
 * A number check's second verdict: a quantity close to a grounded one
 * (within tolerance, relative) but not equal is reported under this signal,
 * with {source} in its templates naming the grounded figure.
 */
struct near {
	char *signal;
	size_t signal_index; /* after ruleset_finish() */
	char *message;
	char *recovery;
	double tolerance;
	char **fix;     /* its --fix templates, as struct rule's */
	size_t n_fix;
};

/*
 * When a rule applies: always, or differently under context pressure
 * (HALLUSCAN_SCAN_PRESSURE: the compact zone or beyond).
 */
enum pressure {
	PRESSURE_ALWAYS = 0, /* the same under pressure */
	PRESSURE_STRICT,     /* under pressure its exemptions (unless_*) are off */
	PRESSURE_ONLY,       /* reported only under pressure */
};

const char *pressure_name(enum pressure p);

#define RULE_WAKE_MAX 15

/*
 * How a match's end is found (extend:). EXTEND_URL: the pattern finds
 * where a URL may start, once per start, and url_end() (url.h) its end:
 * the regex of a URL reports an end per byte of it, by far the most
 * reports of all on text that quotes many URLs.
 */
enum extend {
	EXTEND_NONE = 0,
	EXTEND_URL,
};

struct rule {
	char *id;
	char *signal;
	char *pattern;        /* PCRE2; for a list, the alternation (?:A)|(?:B)|...;
				 NULL for a number check (quantities set) */
	/* A number check (grounding: quantity) has no pattern: the number lexer
	 * (numlex.h) finds every quantity, and the rule reports those of the
	 * classes set here, bit (1 << enum quantity_class) each. */
	unsigned quantities;
	char **alternatives;  /* the list as written, or NULL for one pattern */
	size_t n_alternatives;
	bool caseless;
	enum severity severity;
	char *message;
	char *recovery;
	/* What --fix writes in place of a match (fix.h): templates tried in
	 * order, the first whose placeholders all apply; none: not repaired. */
	char **fix;
	size_t n_fix;
	/* Texts and what --fix makes of them whole (match holds it), run by
	 * scan_check_examples() as examples are. */
	struct example *fix_examples;
	size_t n_fix_examples;
	/* Sentence-level exemptions, PCRE2 syntax: the finding is dropped when
	 * any unless_sentence pattern matches its sentence, unless_before the
	 * part of the sentence before it, or unless_after the part after it. */
	char **unless_sentence;
	size_t n_unless_sentence;
	char *unless_before;
	char *unless_after;
	enum grounding grounding;
	struct near near; /* signal NULL: none */
	enum pressure pressure;
	enum extend extend;
	/* A literal every match starts with (wake_on), or NULL: the rule is scanned
	 * only from its first occurrence in an input on (scan.c), so that text
	 * without it costs nothing. At most RULE_WAKE_MAX bytes. */
	char *wake_on;
	struct example *examples, *negatives;
	size_t n_examples, n_negatives;
	struct where at, pattern_at;
	size_t signal_index; /* of signal in the ruleset's signals, after ruleset_finish() */
	/*
	 * Examples, negative and fix examples still in a serialized ruleset
	 * that outlives this one (ruleset_add_serialized_static()): at, len
	 * their bytes, n their three counts. Only the checks run them, so a
	 * run does not decode them; ruleset_load_examples() does. Until then
	 * the arrays are NULL and their counts 0: rule_n_examples() says how
	 * many there are.
	 */
	struct {
		const unsigned char *at;
		size_t len;
		size_t files_base; /* where the blob's files table starts in rs->files */
		size_t n[3];
	} lazy;
};

/* A rule's examples (0), negative examples (1) and fix examples (2), decoded or not. */
static inline size_t rule_n_examples(const struct rule *r, int which)
{
	return r->lazy.n[which] + (which == 0 ? r->n_examples : which == 1 ? r->n_negatives
										 : r->n_fix_examples);
}

struct span_delim {
	char *name;
	char *open, *close;
	struct where at;
};

struct context {
	char *name;
	char *description;
	char **escalate; /* signals raised to block */
	size_t n_escalate;
	struct where at;
};

/*
 * A trigger request: a phrase in the prompt ("give me the exact statistics
 * on") that makes the answer likely to fabricate, raising the signals it
 * escalates one severity step for that answer.
 */
struct trigger {
	char *name;
	char *description;
	char *pattern;    /* PCRE2, matched caseless; a list as its alternation */
	char **escalate;  /* signals raised one step */
	size_t n_escalate;
	struct example *examples, *negatives; /* prompts that must match, or must not */
	size_t n_examples, n_negatives;
	struct where at, pattern_at;
};

/* A named list of words that code reads as data (stop words, bounds: refs.h). */
struct wordlist {
	char *name;
	char **words;
	size_t n_words;
	struct where at;
};

/* A block that holds many of a ruleset's strings, freed as one (unless borrowed). */
struct rules_arena {
	char *data;
	size_t len;
	bool borrowed; /* the data of ruleset_add_serialized_static(): not ours to free */
};

struct ruleset {
	struct rule *rules;
	size_t n_rules;
	struct span_delim *spans;
	size_t n_spans;
	struct context *contexts;
	size_t n_contexts;
	struct trigger *triggers;
	size_t n_triggers;
	struct wordlist *lists;
	size_t n_lists;
	char **signals; /* distinct signals, in order of first appearance */
	size_t n_signals;
	char digest[65]; /* hex SHA-256 of the canonical content, after ruleset_finish() */
	/* private */
	char **files;
	size_t n_files, cap_files, cap_rules, cap_spans, cap_contexts, cap_signals, cap_triggers,
	       cap_lists;
	bool digest_loaded; /* all came from one serialized ruleset, digest included */
	bool examples_pending; /* some rule's lazy examples are not decoded yet */
	/* All is the program's built-in rules, which the build checked (mkdb):
	 * ruleset_finish() need not check them again. */
	bool built_checked;
	/* With built_checked: the reference and attribute checks' word lists
	 * of these very rules, made at build time (mkdb: builtin_ref_lists,
	 * builtin_attr_lists), for the db to point at instead of making them. */
	bool built_lists;
	const struct refs *built_refs;
	const struct attrs *built_attrs;
	struct rules_arena *arenas; /* the strings of serialized rulesets, one block each */
	size_t n_arenas, cap_arenas;
};

struct ruleset *ruleset_new(void);
void ruleset_free(struct ruleset *rs);

/*
 * What one pack may hold, checked event by event as its YAML is read, so
 * that a pack past a limit is refused before it costs more (see rules.c).
 * An alias counts as the node it names, every time it is used, towards
 * the nodes and the text. The built-in packs are at most 14 KB, 5 levels,
 * 4 anchors, 4 aliases, about 500 nodes and 11 KB of text each.
 */
#define PACK_MAX_BYTES (1u << 20)   /* the file */
#define PACK_MAX_DEPTH 64u          /* collections within collections */
#define PACK_MAX_ANCHORS 100u
#define PACK_MAX_ALIASES 100u
#define PACK_MAX_NODES 100000u      /* scalars, lists and mappings, aliases expanded */
#define PACK_MAX_TEXT (4u << 20)    /* bytes of scalars, aliases expanded */

/* Parses one pack held in memory; name is used in diagnostics. */
int ruleset_add_buffer(struct ruleset *rs, const char *name, const char *data,
		       size_t len, struct diag *d);
/* Loads a YAML file, or every *.yaml / *.yml in a directory in name order. */
int ruleset_add_path(struct ruleset *rs, const char *path, struct diag *d);
/*
 * Loads the packs compiled into the program: the ruleset serialized at
 * build time when there is one, else their YAML.
 */
int ruleset_add_builtin(struct ruleset *rs, struct diag *d);
/* Parses the YAML of the built-in packs (what the build serializes). */
int ruleset_add_builtin_yaml(struct ruleset *rs, struct diag *d);
/*
 * Cross-pack checks (unique ids, known signals in contexts), the signals
 * and the digest. A ruleset loaded whole by ruleset_add_serialized() keeps
 * the digest it was serialized with.
 */
int ruleset_finish(struct ruleset *rs, struct diag *d);

/*
 * Appends a compact binary form of a finished ruleset to out: every field,
 * locations and digest included. Returns 0, -EINVAL for an unfinished
 * ruleset or -ENOMEM; on failure out may hold part of it.
 */
int ruleset_serialize(const struct ruleset *rs, struct buf *out);
/* The same, and where in out the lists begin (*lists_at), for mkdb's lists image. */
int ruleset_serialize_at(const struct ruleset *rs, struct buf *out, size_t *lists_at);
/*
 * Adds what ruleset_serialize() wrote; ruleset_finish() follows as after
 * ruleset_add_buffer(). A damaged, truncated or other-version blob gives
 * -EINVAL and a message in d, and leaves rs as it was. data is not kept.
 */
int ruleset_add_serialized(struct ruleset *rs, const void *data, size_t len, struct diag *d);
/*
 * The same for data that outlives rs (the built-in rules): its strings
 * are used where they lie, and the rules' examples are left in it,
 * decoded by ruleset_load_examples() when something needs them.
 */
int ruleset_add_serialized_static(struct ruleset *rs, const void *data, size_t len,
				  struct diag *d);
/*
 * The lists of a serialized ruleset as they decode, written by mkdb as C
 * data (their strings point into the data, as a decode that borrows them
 * would): the bytes [at, end) of the data, which a decode with this image
 * skips. Decoding a thousand words at each start was a twelfth of a 4 KB
 * message's instructions (issue 35).
 */
struct lists_image {
	const struct wordlist *lists;
	size_t n_lists;
	char *const *words; /* every list's words, in one array */
	size_t n_words;
	size_t at, end;
};

/*
 * A whole serialized ruleset as it decodes with its strings borrowed and
 * its rules' examples left lazy, written by mkdb as C data: every string
 * points into the data, the arrays of strings into strv and the triggers'
 * examples into examples. A start copies the tables (a pack added later
 * grows them) instead of decoding them (issue 35).
 */
struct ruleset_image {
	char *const *files;
	size_t n_files;
	const struct rule *rules;
	size_t n_rules;
	const struct span_delim *spans;
	size_t n_spans;
	const struct context *contexts;
	size_t n_contexts;
	const struct trigger *triggers;
	size_t n_triggers;
	char *const *strv;
	size_t n_strv;
	const struct example *examples;
	size_t n_examples;
	const char *digest;
	/* As ruleset_finish() makes them (with the rules' signal indexes). */
	char *const *signals;
	size_t n_signals;
};

/*
 * The same for the built-in rules, which mkdb checked whole before it wrote
 * them into the program: lengths are checked, the strings not searched for
 * a NUL inside them (see trusted_string()); the lists are lists' (or
 * NULL: decoded too).
 */
int ruleset_add_serialized_builtin(struct ruleset *rs, const void *data, size_t len,
				   const struct lists_image *lists, struct diag *d);
/*
 * The built-in rules from mkdb's image of the same data (lists: its
 * lists), where rs is empty; otherwise as ruleset_add_serialized_builtin().
 */
int ruleset_add_builtin_image(struct ruleset *rs, const void *data, size_t len,
			      const struct ruleset_image *image, const struct lists_image *lists,
			      struct diag *d);
/*
 * Decodes the examples left in a serialized ruleset (see struct rule's
 * lazy), once: the checks (scan_check_examples()) and the digest of a
 * ruleset with more than the built-in rules call it, before the ruleset
 * is shared between threads. 0, -ENOMEM, or -EINVAL when they are damaged.
 */
int ruleset_load_examples(struct ruleset *rs);
/* Recomputes the digest: 0 when it is the one held, -EBADMSG when not. */
int ruleset_check_digest(const struct ruleset *rs);

/* The list called name, or NULL. */
const struct wordlist *ruleset_list(const struct ruleset *rs, const char *name);
const struct context *ruleset_context(const struct ruleset *rs, const char *name);
/* Index of signal in rs->signals, or -1. */
int ruleset_signal_index(const struct ruleset *rs, const char *signal);

/* The packs compiled into the program (generated at build time). */
struct embedded_pack {
	const char *name;
	const char *data;
	size_t len;
};
extern const struct embedded_pack builtin_packs[];
extern const size_t builtin_packs_count;

/* The built-in packs as ruleset_serialize() wrote them at build time (len 0: none). */
extern const unsigned char builtin_rules[];
extern const size_t builtin_rules_len;
/* Their word lists as the reference and attribute checks read them (NULL: no such rule). */
struct refs;
struct attrs;
extern const struct lists_image builtin_lists_image;
extern const struct ruleset_image builtin_ruleset_image;
extern const struct refs *const builtin_ref_lists;
extern const struct attrs *const builtin_attr_lists;

#endif
