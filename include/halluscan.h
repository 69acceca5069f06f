/* SPDX-License-Identifier: MIT */
/*
 * libhalluscan: finds the signals that hallucinated content leaves in text
 * written by language models (fabricated URLs, unsourced statistics,
 * fabricated citations, certainty about the future, numbers that differ
 * from their grounding), in process, with no model call.
 *
 *	struct halluscan_rules *rules;       open once, share with every thread
 *	struct halluscan_scanner *sc;        one per thread
 *	halluscan_rules_open(NULL, &rules, &err);
 *	halluscan_scanner_new(rules, NULL, on_finding, ctx, &sc, &err);
 *	per reply:
 *	halluscan_scanner_reset(sc, 0);
 *	halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_TOOL, tool, tool_len);
 *	if (halluscan_check(sc, reply, reply_len, &sum) != 0) hold();
 *
 * Ownership, said once: *_open and *_new return objects the caller frees
 * with the matching *_free (which accepts NULL); a pointer a getter
 * returns, and every pointer inside what it points to, is valid until the
 * caller frees its owner; a finding or claim passed to a callback is valid
 * only during the call; a summary until the scanner's next call. No
 * function takes ownership of its arguments, and none keeps a pointer to
 * them once it returns (options, paths, packs and texts are copied or used
 * up) but one: a scanner keeps its rules alive until it is freed, so rules
 * and the scanners made from them may be freed in any order.
 *
 * Errors: every function that can fail returns 0 or a negative errno
 * value (halluscan_strerror() says it in words); where more can be said
 * (a rule pack's file:line:col, an unknown context) it is also written to
 * a struct halluscan_error the caller may pass. Nothing here prints, exits
 * or installs signal handlers.
 *
 * Threads: a struct halluscan_rules is read-only once open (but for an
 * atomic count of the scanners holding it), and may be shared by any
 * number of scanners on any number of threads, each freed on any thread;
 * a struct halluscan_scanner is used by one thread at a time. Opening
 * rules may itself run on several threads at once.
 *
 * ABI: the shared library's SONAME is libhalluscan.so.0, and its symbols
 * carry the version node HALLUSCAN_0.1. Within SONAME 0 structures only
 * grow, at their end: those the library fills (findings, claims,
 * summaries, rule and ruleset descriptions) are handed out by pointer and
 * only read by callers, so new fields cost callers nothing; those the
 * caller fills (the options) start with their size, which the *_init()
 * functions below set from the caller's own compiled definition, so the
 * library reads only the fields a caller knows and defaults the rest.
 * struct halluscan_error and struct halluscan_pack keep their layout.
 * Enumerations only gain values; a caller should treat unknown ones like
 * the nearest known (an unknown severity as block).
 */
#ifndef HALLUSCAN_H
#define HALLUSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define HALLUSCAN_API __attribute__((visibility("default")))
#else
#define HALLUSCAN_API
#endif

/* ---- the library ---- */

/* The library's version, "0.1.0". */
HALLUSCAN_API const char *halluscan_version(void);
/* The engines it scans with, "hyperscan 5.4.0 2021-01-26; pcre2 10.42 2022-12-11". */
HALLUSCAN_API const char *halluscan_engine_version(void);
/*
 * The words for an error this library returned (a negative errno value,
 * or 0): static text, never NULL. Codes with a meaning of their own here:
 * -ECANCELED the finding or claim callback stopped the scan; -EBADFD the
 * scanner stopped on an error and needs halluscan_scanner_reset(); -EBUSY
 * grounding added while an input is being scanned, or the reverse; -ENOENT
 * a pack path or a context that does not exist.
 */
HALLUSCAN_API const char *halluscan_strerror(int err);

/* What can be said beyond the code: set by the functions that take one. */
struct halluscan_error {
	int code;           /* the value returned */
	/* What more there is to say, or "" (halluscan_strerror(code) says it
	 * all): "patterns/urls.yaml:12:3: unknown key ..." */
	char message[1024];
};

enum halluscan_severity {
	HALLUSCAN_PASS = 0,  /* a verdict with no finding */
	HALLUSCAN_WARN = 1,
	HALLUSCAN_BLOCK = 2,
};

/* "pass", "warn" or "block". */
HALLUSCAN_API const char *halluscan_severity_name(enum halluscan_severity s);

/* ---- rules: the packs, compiled; opened once, shared by scanners ---- */

struct halluscan_rules;

/* A rule pack held in memory, in the YAML of the files under patterns/. */
struct halluscan_pack {
	const char *name; /* for messages: "my-pack.yaml" */
	const void *data;
	size_t len;
};

enum {
	/* The built-in packs as well as paths and packs (alone, they are the default). */
	HALLUSCAN_RULES_BUILTIN = 1 << 0,
	/* Every rule on PCRE2, even in a build with Hyperscan: slower, the same findings. */
	HALLUSCAN_RULES_PCRE2 = 1 << 1,
	/* Compile afresh (no built-in or cached database) and run every rule's
	 * examples and negative examples through the scanner: a pack linter. */
	HALLUSCAN_RULES_CHECK = 1 << 2,
};

struct halluscan_rules_options {
	size_t size;      /* sizeof(struct halluscan_rules_options): see the init function */
	unsigned flags;   /* HALLUSCAN_RULES_* */
	/* YAML files, or directories whose *.yaml and *.yml are read in name
	 * order. With neither paths nor packs, the built-in packs are used. */
	const char *const *paths;
	size_t n_paths;
	const struct halluscan_pack *packs;
	size_t n_packs;
	/*
	 * Where compiled databases of packs other than the built-in ones are
	 * kept between runs (created, with its parent, if missing), or NULL:
	 * compile every time. An entry is named by the SHA-256 of the packs'
	 * content and the engine versions; a stale or damaged one is compiled
	 * again, and one that cannot be written costs only time.
	 */
	const char *cache_dir;
};

/* Sets the defaults: the built-in packs, the best engine, no cache. */
static inline void halluscan_rules_options_init(struct halluscan_rules_options *o)
{
	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
}

/*
 * Loads, validates and compiles the rules (options NULL: the defaults).
 * The built-in packs load in microseconds: they were compiled when the
 * library was built. Other packs are compiled (milliseconds; the Hyperscan
 * compiler, libhs.so.5 or $HALLUSCAN_HS_LIBRARY, is loaded on first use)
 * and their examples run before they are used or cached; where the
 * compiler cannot be loaded they run on PCRE2 and info->degraded says why.
 * Returns 0, -EINVAL (a broken pack: err names its file, line and column),
 * -ENOENT, -ENOMEM, or the errno of a pack that cannot be read.
 */
HALLUSCAN_API int halluscan_rules_open(const struct halluscan_rules_options *options,
				       struct halluscan_rules **out, struct halluscan_error *err);
/* Lets go of the rules: freed now, or with the last scanner that holds them. */
HALLUSCAN_API void halluscan_rules_free(struct halluscan_rules *rules);

/* The hex SHA-256 of the rules' content (64 characters), the same for
 * the same rules however they were loaded: what a summary's "ruleset" is. */
HALLUSCAN_API const char *halluscan_rules_digest(const struct halluscan_rules *rules);

struct halluscan_rules_info {
	const char *digest;       /* as halluscan_rules_digest() */
	const char *engine;       /* "hyperscan", "hyperscan+pcre2" or "pcre2" */
	const char *degraded;     /* why no rule runs on Hyperscan in a build that has it, or NULL */
	size_t n_rules;
	size_t n_signals;         /* the rules' signals, then unterminated_span and spoofed_span */
	size_t n_contexts;
	size_t n_spans;           /* kinds of tool-output span: <tool_output>, <tool_result> */
	size_t n_examples, n_negative_examples; /* the rules' */
	size_t n_triggers;        /* trigger requests looked for in the prompt */
	size_t n_trigger_examples, n_trigger_negative_examples;
};

HALLUSCAN_API const struct halluscan_rules_info *
halluscan_rules_info(const struct halluscan_rules *rules);

enum {
	HALLUSCAN_RULE_CASELESS = 1 << 0, /* the pattern ignores case */
	HALLUSCAN_RULE_PCRE2 = 1 << 1,    /* runs on PCRE2 (Hyperscan refused it, or none) */
	HALLUSCAN_RULE_LEXER = 1 << 2,    /* a number check: no pattern, the number lexer
					     finds its quantities, or its codes beside them
					     (number.code) (pattern is NULL) */
	HALLUSCAN_RULE_RECOGNIZER = 1 << 3, /* ref.numbered, ref.bullet, ref.year: no
					       pattern, the reference recognizer finds list
					       items and years itself (pattern is NULL) */
	HALLUSCAN_RULE_RECORDS = 1 << 4,  /* an attribute check: no pattern, the yes/no
					     values of the records read as grounding are
					     looked for in each sentence (pattern is NULL) */
};

struct halluscan_rule {
	const char *id;          /* "url.http" */
	const char *signal;      /* "fabricated_url" */
	const char *pattern;     /* PCRE2 syntax; a list of patterns as their alternation;
				    url.http's whole match (its end is found in C);
				    NULL for a number check (HALLUSCAN_RULE_LEXER) and
				    for list items (HALLUSCAN_RULE_RECOGNIZER) */
	enum halluscan_severity severity; /* before contexts escalate it */
	unsigned flags;          /* HALLUSCAN_RULE_* */
	const char *file;        /* the pack that defines it ("patterns/urls.yaml") */
	unsigned line;           /* and where, 1-based */
	size_t n_examples, n_negative_examples;
};

/* Rule i (in pack order), or NULL when i >= info->n_rules. */
HALLUSCAN_API const struct halluscan_rule *
halluscan_rules_rule(const struct halluscan_rules *rules, size_t i);
/* The name of signal i, the index of a finding's signal_index and of a
 * summary's signal_counts, or NULL when i >= info->n_signals. */
HALLUSCAN_API const char *halluscan_rules_signal(const struct halluscan_rules *rules, size_t i);
/* The name of context i ("medical", "user-facing", ...), or NULL past the last. */
HALLUSCAN_API const char *halluscan_rules_context(const struct halluscan_rules *rules, size_t i);

/* ---- scanners: one input at a time, findings as soon as they are decided ---- */

struct halluscan_scanner;

/*
 * A bibliography entry (signal fabricated_reference): the fields the
 * recognizer read, each a slice of the finding's text (pointer and length,
 * not NUL-terminated; NULL and 0 when absent).
 */
struct halluscan_reference {
	const char *style;       /* "author-date", "quoted-title", "vancouver", "bibtex",
				    "web", "title-list", or "id" (a DOI or arXiv id in prose) */
	const char *title;
	size_t title_len;
	const char *authors;     /* as written */
	size_t authors_len;
	const char *venue;       /* journal, proceedings, publisher */
	size_t venue_len;
	const char *doi;
	size_t doi_len;
	const char *arxiv;
	size_t arxiv_len;
	const char *isbn;        /* from "ISBN" to its last digit */
	size_t isbn_len;
	const char *url;
	size_t url_len;
	unsigned year;           /* 0: none */
	/* Offline plausibility problems, bit (1 << i) for each name
	 * halluscan_reference_problem(i) gives; any of them makes the finding block. */
	unsigned problems;
};

/* The name of plausibility problem i ("arxiv_month", "arxiv_future",
 * "arxiv_width", "doi_prefix", "isbn_checksum", "year_future",
 * "placeholder_host"), or NULL past the last. */
HALLUSCAN_API const char *halluscan_reference_problem(unsigned i);

struct halluscan_finding {
	const char *signal;      /* "fabricated_url", ..., "unterminated_span", "spoofed_span" */
	size_t signal_index;     /* see halluscan_rules_signal() */
	const char *rule;        /* the rule's id; "span.unterminated", "span.spoofed" */
	enum halluscan_severity severity; /* under the scanner's contexts */
	uint64_t start, end;     /* byte offsets into the input, end exclusive */
	uint64_t line, column;   /* of start, 1-based; the column in code points */
	const char *text;        /* the matched bytes, text_len of them, not NUL-terminated */
	size_t text_len;
	bool text_truncated;     /* text holds only the first 4096 bytes of the match */
	const char *message;     /* what is wrong, NUL-terminated */
	const char *recovery;    /* what to write instead, NUL-terminated */
	bool grounded;           /* repeats grounding (only with HALLUSCAN_SCAN_SHOW_GROUNDED):
	                            shown, not counted */
	uint64_t grounded_at;    /* the offset of what it repeats */
	const char *source;      /* altered_number: the grounded figure it differs from;
	                            altered_reference: the bibliography's entry;
	                            contradicted_attribute: the record's key and value;
	                            a grounded sum of money computed from grounded
	                            figures: how ("145 x 2"); or NULL */
	uint64_t source_at;      /* where that figure (or value) is */
	/* Other signals found on exactly this text ("94.2%": unsourced_statistic
	 * and ungrounded_number): one finding carries them, each counted, its
	 * severity the highest and its recovery answering all of them. */
	const char *const *also; /* n_also signal names (the ruleset's strings) */
	const size_t *also_index; /* and their indexes; both arrays are valid only
				     during the callback */
	size_t n_also;           /* at most HALLUSCAN_ALSO_MAX */
	/* The trigger request in the prompt that raised severity one step
	 * (a "triggers" entry of the packs: "exact-statistics"), or NULL. */
	const char *trigger;
	/* fabricated_reference: the entry's fields, valid only during the
	 * callback; NULL for every other signal. */
	const struct halluscan_reference *reference;
};

#define HALLUSCAN_ALSO_MAX 3

enum halluscan_claim_label {
	HALLUSCAN_CLAIM_SUPPORTED,   /* every checkable item in it is grounded */
	HALLUSCAN_CLAIM_PARTIAL,     /* some are */
	HALLUSCAN_CLAIM_UNSUPPORTED, /* none is */
	HALLUSCAN_CLAIM_UNCHECKED,   /* nothing in it can be checked */
	HALLUSCAN_CLAIM_LABELS,
};

/* "supported", "partial", "unsupported" or "unchecked". */
HALLUSCAN_API const char *halluscan_claim_label_name(enum halluscan_claim_label l);

/* A number, URL or citation of a claim. */
struct halluscan_claim_item {
	const char *rule;        /* the rule that found it */
	uint64_t start, end;
	const char *text;        /* not NUL-terminated */
	size_t text_len;
	bool grounded;
	uint64_t grounded_at;    /* with grounded: where */
};

/* One sentence of the model's text, with HALLUSCAN_SCAN_CLAIMS. */
struct halluscan_claim {
	uint64_t start, end;
	const char *text;        /* at most its first 4096 bytes, not NUL-terminated */
	size_t text_len;
	enum halluscan_claim_label label;
	const struct halluscan_claim_item *const *items; /* n_items pointers */
	size_t n_items;
	/* The sentence goes on past end: it was longer than the scanner holds
	 * (16 KiB) and was cut; the next claim is its next piece. */
	bool cut;
};

/*
 * Called for each finding, in order of offset, as soon as it is decided
 * (at the end of its sentence, at the latest). Return 0 to go on; any
 * other value stops the scan: feed or end returns it when it is negative,
 * else -ECANCELED, and the scanner must be reset.
 */
typedef int (*halluscan_finding_fn)(void *ctx, const struct halluscan_finding *f);
/* Called for each sentence after its findings; returns as halluscan_finding_fn. */
typedef int (*halluscan_claim_fn)(void *ctx, const struct halluscan_claim *c);

enum {
	/* Also report matches that repeat grounding, marked grounded (not counted). */
	HALLUSCAN_SCAN_SHOW_GROUNDED = 1 << 0,
	/*
	 * Judge each sentence of the model's text as a claim against the
	 * grounding, count them, and fail an input whose share of unsupported
	 * claims is above max_unsupported_ratio. A span left open then blocks.
	 */
	HALLUSCAN_SCAN_CLAIMS = 1 << 1,
	/*
	 * Detect more aggressively, as when the agent's context is in the
	 * compact zone or beyond (the spec's context-health): the rules a pack
	 * marks "pressure: only" report, and those marked "pressure: strict"
	 * lose their exemptions (see the manual, CHAIN INTEGRATION).
	 */
	HALLUSCAN_SCAN_PRESSURE = 1 << 2,
	/*
	 * Call on_claim for each sentence of the model's text, as
	 * HALLUSCAN_SCAN_CLAIMS does, but judge no input by its claims (no
	 * claim counts in the summary): for a caller that needs where the
	 * sentences are, such as a filter that drops whole sentences
	 * (halluscan --quarantine). A span left open then blocks.
	 */
	HALLUSCAN_SCAN_SENTENCES = 1 << 3,
};

/* When an input fails (summary->failed, halluscan_check() returning 1). */
enum halluscan_fail_on {
	HALLUSCAN_FAIL_ON_BLOCK = 0, /* a finding at block */
	HALLUSCAN_FAIL_ON_WARN,      /* any finding counted */
	HALLUSCAN_FAIL_ON_NEVER,     /* never: the findings are a report */
};

#define HALLUSCAN_MAX_UNSUPPORTED_RATIO 0.30

struct halluscan_scanner_options {
	size_t size;             /* sizeof(struct halluscan_scanner_options): see the init function */
	unsigned flags;          /* HALLUSCAN_SCAN_* */
	/* Contexts that escalate signals to block ("medical", "user-facing", ...). */
	const char *const *contexts;
	size_t n_contexts;
	enum halluscan_fail_on fail_on;
	/*
	 * With a nonce (8 to 64 of A-Z a-z 0-9 . _ -), only spans marked with
	 * it (<tool_output nonce="N"> ... </tool_output nonce="N">) are tool
	 * output; any other delimiter is the model's, a spoofed_span finding at
	 * block. NULL: spans as the packs write them.
	 */
	const char *span_nonce;
	/* With HALLUSCAN_SCAN_CLAIMS: the share of checked claims, from 0 to 1,
	 * above which an input fails (the finscope critic's 0.30). */
	double max_unsupported_ratio;
	/* With HALLUSCAN_SCAN_CLAIMS, called for each claim when not NULL. */
	halluscan_claim_fn on_claim;
};

/* Sets the defaults: no context, fail on block, no nonce, no claims. */
static inline void halluscan_scanner_options_init(struct halluscan_scanner_options *o)
{
	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
	o->max_unsupported_ratio = HALLUSCAN_MAX_UNSUPPORTED_RATIO;
}

/*
 * A scanner of rules (it holds them until it is freed: the caller may
 * free them first) with options (NULL: the defaults). on_finding (may be
 * NULL) gets each finding with ctx, as does options->on_claim each claim.
 * A scanner holds a Hyperscan stream and scratch and a window of recent
 * bytes (768 KiB); its memory does not grow with its input. Returns 0,
 * -EINVAL (a bad option or nonce), -ENOENT (a context the packs do not
 * define: err lists those they do) or -ENOMEM.
 */
HALLUSCAN_API int halluscan_scanner_new(const struct halluscan_rules *rules,
					const struct halluscan_scanner_options *options,
					halluscan_finding_fn on_finding, void *ctx,
					struct halluscan_scanner **out, struct halluscan_error *err);
HALLUSCAN_API void halluscan_scanner_free(struct halluscan_scanner *sc);

/*
 * What grounds the inputs scanned after it is added. Numbers, URLs and
 * citations of the model's text that repeat it are grounded (not
 * reported), and once there is grounding, numbers are checked against it
 * (altered_number, ungrounded_number). Text between tool-output span
 * delimiters in the input grounds the rest of that input the same way.
 * Today all three kinds fill one grounding set; PROMPT will get its own
 * (what the user said grounds less than what a tool returned), so say
 * which kind a text is.
 */
enum halluscan_grounding {
	HALLUSCAN_GROUND_TOOL,   /* what a tool returned, kept apart from the reply */
	HALLUSCAN_GROUND_SOURCE, /* a document the reply must keep to (--source) */
	HALLUSCAN_GROUND_PROMPT, /* what the user wrote; for now as SOURCE, and a
				    trigger request in it ("give me the exact
				    statistics on") raises the signals it names
				    one severity step for the inputs scanned
				    after it, until a prompt after an input
				    (the next turn) or a reset */
};

/*
 * Adds a text as grounding, between inputs (-EBUSY during one). It stays
 * for every later input until halluscan_scanner_reset() without
 * HALLUSCAN_RESET_KEEP_GROUNDING. Memory is bounded whatever its size (the
 * most recent 4096 items and 4096 quantities are kept).
 */
HALLUSCAN_API int halluscan_scanner_add_grounding(struct halluscan_scanner *sc,
						  enum halluscan_grounding kind,
						  const void *text, size_t len);
/*
 * The same for a text read in pieces: begin, feed each piece, end. The
 * first PROMPT compiles the packs' trigger patterns (checked when the
 * packs were read): -ENOMEM there fails the scanner, as any error does.
 */
HALLUSCAN_API int halluscan_scanner_grounding_begin(struct halluscan_scanner *sc,
						    enum halluscan_grounding kind);
HALLUSCAN_API int halluscan_scanner_grounding_feed(struct halluscan_scanner *sc,
						   const void *buf, size_t len);
HALLUSCAN_API int halluscan_scanner_grounding_end(struct halluscan_scanner *sc);

/*
 * Adds the user's bibliography, between inputs (-EBUSY during one): a
 * BibTeX or CSL-JSON file held in memory (name is used in messages). An
 * entry the model writes that it holds (the title, normalized, within the
 * rule's near tolerance; then year and first author) is grounded; one whose
 * title it holds with another year or first author, or whose DOI or arXiv
 * id it holds on another title, is an altered_reference finding naming the
 * bibliography's entry in source. Returns 0, -ENOMEM, or -EINVAL with err
 * saying "name:line:col: why" (nothing of that file is kept). It stays
 * until halluscan_scanner_reset() without HALLUSCAN_RESET_KEEP_GROUNDING.
 */
HALLUSCAN_API int halluscan_scanner_add_bibliography(struct halluscan_scanner *sc, const char *name,
						     const void *data, size_t len,
						     struct halluscan_error *err);

/*
 * Scans the next bytes of the input (the first call starts one), split
 * anywhere: the findings are the same however the input is cut. They are
 * reported from inside this call as they are decided. Feed whole reads or
 * lines, not tokens: each call costs about 200 ns.
 */
HALLUSCAN_API int halluscan_scanner_feed(struct halluscan_scanner *sc, const void *buf,
					 size_t len);

struct halluscan_summary {
	uint64_t bytes;          /* of the input */
	uint64_t findings;       /* reported and counted (grounded repeats are not) */
	enum halluscan_severity verdict; /* the highest severity of a counted finding */
	bool failed;             /* the verdict reaches fail_on, or the claims are
	                            insufficient (unless fail_on is NEVER) */
	size_t n_signals;
	const uint64_t *signal_counts; /* findings per signal: see halluscan_rules_signal() */
	uint64_t exempted;       /* matches dropped by a rule's sentence exemption */
	uint64_t grounded;       /* matches inside closed tool spans */
	uint64_t repeats;        /* matches of the model's text that repeat grounding */
	uint64_t ground_evictions; /* grounded items forgotten past the bound */
	uint64_t spans;          /* tool spans opened */
	uint64_t unterminated_spans; /* 1 when the input ended inside one */
	uint64_t match_limit_hits; /* PCRE2 match limits reached: matches may be missing,
	                              so the verdict is at least warn */
	/* With HALLUSCAN_SCAN_CLAIMS (else NULL and zeros): */
	const uint64_t *claims;  /* claims per enum halluscan_claim_label */
	uint64_t claims_checked; /* supported, partial and unsupported */
	double unsupported_ratio; /* unsupported over checked (0 when none is) */
	double trust;            /* supported over checked (NAN when none is:
				    claims_checked 0 says there is no figure) */
	bool claims_sufficient;  /* unsupported_ratio <= max_unsupported_ratio */
	bool pressure;           /* scanned under context pressure (HALLUSCAN_SCAN_PRESSURE) */
};

/*
 * Ends the input: reports the findings still held (the last sentence, a
 * span left open) and sets *summary (may be NULL). The next feed starts a
 * new input with the same grounding.
 */
HALLUSCAN_API int halluscan_scanner_end(struct halluscan_scanner *sc,
					const struct halluscan_summary **summary);

enum {
	HALLUSCAN_RESET_KEEP_GROUNDING = 1 << 0, /* forget only the input in progress */
};

/*
 * Drops the input in progress (after an error, or to stop early), and
 * unless flags hold HALLUSCAN_RESET_KEEP_GROUNDING every grounding added:
 * the scanner is then as new. (Kept, a grounding cut off mid-way grounds
 * as far as it was read.) Returns 0 or -ENOMEM.
 */
HALLUSCAN_API int halluscan_scanner_reset(struct halluscan_scanner *sc, unsigned flags);

/*
 * For a gate: scans text as one whole input (feed, then end). Returns 0
 * when it passes, 1 when it fails (see fail_on), or a negative errno, and
 * sets *summary (may be NULL) when there was no error. After an error, or
 * a callback that stopped it, the input is dropped (the grounding kept):
 * the scanner is ready for the next check. -EBUSY: an input or grounding
 * fed piecewise is in progress; -EBADFD: one failed and was not reset.
 */
HALLUSCAN_API int halluscan_check(struct halluscan_scanner *sc, const void *text, size_t len,
				  const struct halluscan_summary **summary);

/*
 * --fix in process: text with the spec's recoveries applied, as the rules'
 * "fix" templates write them (an unverified URL becomes "Search for:
 * TOPIC" or "(URL not verified)", a precise statistic "approximately 70%",
 * a named attribution "research in this area suggests that", "will
 * definitely" "may", an altered number the grounded figure). The result is
 * scanned again: a repair that is itself a finding is taken back (the
 * finding stays), and what a repair uncovers is repaired, in at most four
 * rounds (past them the text is given back unchanged). Tool spans, and
 * every byte outside a repair (but a link's markup around its URL, and a
 * comma a template takes), are left as they are. Text and the grounding
 * are as for halluscan_check(); the finding callback sees the findings of
 * the text given back, and *summary (may be NULL) is its summary.
 * Returns the number of repairs made (0: *out is the text as it came), or
 * a negative errno. *out (not NUL-terminated for the caller's purposes,
 * though a NUL follows it) and *out_len are valid until the scanner's next
 * call to halluscan_fix() or its free.
 */
HALLUSCAN_API int halluscan_fix(struct halluscan_scanner *sc, const void *text, size_t len,
				const char **out, size_t *out_len,
				const struct halluscan_summary **summary);

#ifdef __cplusplus
}
#endif

#endif
