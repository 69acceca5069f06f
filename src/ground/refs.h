/* SPDX-License-Identifier: MIT */
/*
 * Bibliography entries: the recognizer that reads one line of text and
 * says which entries it holds (a reference in one of the common styles, or
 * a DOI or arXiv id in prose), with each entry's fields, the offline
 * plausibility checks of its ids and year, and the keys under which tool
 * output or a bibliography grounds it.
 *
 * What the recognizer needs to know that is not structure (stop words,
 * name particles, the words of a references heading, imperative verbs that
 * open a list item that is no title, placeholder hosts, the arXiv eras) is
 * data: the lists "ref.*" of the rule packs (patterns/references.yaml).
 * refs_new() reads them; it returns an object freed with refs_free(),
 * which keeps pointers into the ruleset (it must outlive it).
 */
#ifndef HALLUSCAN_REFS_H
#define HALLUSCAN_REFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/util.h"
#include "match/rules.h"

/* A line longer than this holds no entry that is looked for. */
#define REFS_LINE_MAX 4096
/* At most this many entries (ids in prose) are taken from one line. */
#define REFS_PER_LINE 8

enum ref_style {
	REF_STYLE_NONE,
	REF_STYLE_AUTHOR_DATE,  /* APA, Harvard, Chicago author-date: Author (2020). Title. */
	REF_STYLE_QUOTED_TITLE, /* MLA, Chicago notes, IEEE: Author, "Title," Venue, 2020. */
	REF_STYLE_VANCOUVER,    /* Author AB, Author C. Title. Journal. 2020;12(3):4-5. */
	REF_STYLE_BIBTEX,       /* @article{key, title={...}, ...} on one line */
	REF_STYLE_WEB,          /* ... Retrieved from / Available at URL */
	REF_STYLE_TITLE_LIST,   /* a list item that is a title: 1. Title: Subtitle */
	REF_STYLE_ID,           /* a DOI or arXiv id in prose */
	REF_STYLES,
};

/* "author-date", "quoted-title", ... */
const char *ref_style_name(enum ref_style s);

/* Offline plausibility problems, bit (1 << enum ref_problem) each. */
enum ref_problem {
	REF_ARXIV_MONTH,     /* an arXiv id whose YYMM is no month, or before arXiv's ids */
	REF_ARXIV_FUTURE,    /* an arXiv id dated after today */
	REF_ARXIV_WIDTH,     /* its number has the wrong width for its month */
	REF_DOI_PREFIX,      /* a DOI whose prefix is not 10.NNNN */
	REF_ISBN_CHECKSUM,   /* an ISBN whose check digit is wrong (or of no ISBN length) */
	REF_YEAR_FUTURE,     /* a publication year after this one */
	REF_PLACEHOLDER_HOST, /* a URL on a placeholder host (example.com, ...) */
	REF_PROBLEMS,
};

/* "arxiv_month", ...: the names the JSONL record uses. */
const char *ref_problem_name(enum ref_problem p);
/* Why the problem makes the entry implausible, for a message. */
const char *ref_problem_reason(enum ref_problem p);

/* A field: bytes [off, off + len) of the entry's text; len 0: absent. */
struct ref_span {
	uint32_t off, len;
};

struct ref_entry {
	enum ref_style style;
	uint32_t from, to; /* the entry within the line given to refs_parse() */
	struct ref_span title, authors, venue, doi, arxiv, isbn, url;
	unsigned year;     /* 0: none */
	unsigned problems; /* bits of enum ref_problem */
	bool strong;       /* REF_STYLE_TITLE_LIST: surely a title, not maybe */
};

struct refs;

/* -ENOMEM, or -EINVAL with d saying which list "ref.*" is malformed. */
int refs_new(const struct ruleset *rs, struct refs **out, struct diag *d);
void refs_free(struct refs *r);
/*
 * Writes r (or NULL) as C data: a definition of "const struct refs *const
 * name" for a file that includes ground/refs_int.h. mkdb writes the
 * built-in lists so (issue 35). Returns 0 or -EIO.
 */
int refs_write_c(const struct refs *r, FILE *out, const char *name);

/*
 * Reads one line (without its line break) for entries: at most max of them
 * go to out, in order; returns how many. A list item that is only a title
 * (REF_STYLE_TITLE_LIST) is returned with strong set when it surely is one;
 * whether a list of such items is a list of references is the caller's to
 * judge, from the whole list (claims.c). today is the date the
 * plausibility checks compare with, as YYYYMM (202612).
 */
size_t refs_parse(const struct refs *r, const char *line, size_t n, unsigned today,
		  struct ref_entry *out, size_t max);

/*
 * Whether a line opens as an item of a list of titles, from its first
 * bytes alone: a marker at its start ("1.", "2)", "-", "*", "+", "•"), then
 * a quote, or two capitalised words (a short lowercase word may stand
 * between; in_list: inside a list of titles, one capital will do); or
 * "[1] " and anything after it (IEEE). 0: no; 1: a numbered item; 2: a
 * bulleted one. This runs on every line, so it reads at most 64 bytes.
 */
int refs_item_start(const char *line, size_t n, bool in_list);
/*
 * For a line refs_item_start() chose: false when it surely holds no entry
 * (a sentence, an instruction, a glossary line), at the cost of one pass;
 * refs_parse() reads the rest.
 */
bool refs_item_maybe(const struct refs *r, const char *line, size_t n);

/*
 * The label of an item of a list that opens "Label: value" ("Location:
 * Harbor Room", "Car Types Available: Sedan, SUV"): one to four words of
 * letters, the first capitalised, before ": ". Returns its length (0: no
 * label) and sets *at to where it starts in item (after emphasis). Nested
 * items of one list that share a label are the fields of records, not
 * titles with a subtitle: claims.c asks this of the titles of a list.
 */
size_t refs_item_label(const char *item, size_t n, size_t *at);

/*
 * Whether the line holds a form that parts of an entry take and prose
 * seldom does: "[1] " (IEEE), a bullet before a quote ("- \"", "• “"), a year
 * in parentheses ("(2019)", "(2019a)", "(2019, May 3)": author-date), a year
 * between a full stop and a full stop or semicolon (". 2015." after Harvard
 * names, ". 2002;" after a Vancouver journal), a quoted title's close
 * ('." ', '," ', '.” ', ',” ') or a book's emphasis closed before a full
 * stop ("*. "). Hyperscan does not look for these: their literals would
 * move its literal matcher off Teddy for every input (README, "How fast").
 * The scanner asks this of lines that a sentence end marked, and of each
 * line of tool output and sources; the line is then read by refs_parse().
 */
bool refs_line_cue(const char *line, size_t n);

/*
 * Whether s opens as authors may ("Smith J", "Smith, J.", "World Health",
 * "Smith and", "OECD (") and holds a year in parentheses, refs_line_cue()'s
 * "(2019)" form: a cue, for refs_parse() to decide. The scanner asks it of
 * the first bytes of each line of the model's text that opens with a
 * capital: "Smith J (2020) Title. Journal" has no sentence end next to its
 * year to cue it.
 */
bool refs_paren_year(const char *s, size_t n);

/*
 * Whether a label (refs_item_label()) names a field of a reference: a word
 * of it is in the list "ref.field_labels" ("Publisher", "Year", "Author").
 */
bool refs_field_label(const struct refs *r, const char *label, size_t n);

/* True when the line heads a list of references: "References", "## Further
 * reading", "Here are some books on topology:". */
bool refs_heading(const struct refs *r, const char *line, size_t n);

/*
 * The grounding keys of an entry whose text is e (its from..to of the line),
 * one a call: its normalized title (refs_title_key), DOI and arXiv id. *at
 * is 0 before the first call. Puts the next key in key (replacing what it
 * held; a key is "ref\x1f" and a letter of its kind, then its text, not
 * NUL-terminated) and returns 1, or 0 when none is left, or a negative
 * errno.
 */
int refs_key_next(const struct refs *r, const struct ref_entry *e, const char *text,
		  unsigned *at, struct buf *key);

/* Where refs_segment_key_next() is in a line: zeroed before its first call. */
struct refs_segments {
	size_t from, to; /* the current part */
	size_t brk;      /* the length of the break after it (0 at the line's end) */
	size_t value;    /* where its value's key starts in key, or 0 (none) */
	bool label;      /* its key was handed out: its "Label: value" key is next */
};

/*
 * Title keys for each part of a line of tool output, as refs_key_next()
 * makes them, one a call: the parts between ". ", quotes, " - ", " | " and
 * the like, of two words or more, and the value of a part "Label: value".
 * Tool output writes titles in more ways than a bibliography does (a search
 * result, a page heading); any of them grounds. Returns 1 with the key in
 * key, 0 when none is left (at once for a line over REFS_LINE_MAX bytes),
 * or a negative errno. key must hold what the last call left in it: a
 * part's value's key is cut from its part's.
 */
int refs_segment_key_next(const struct refs *r, const char *line, size_t n,
			  struct refs_segments *it, struct buf *key);

/*
 * The normalized form of a title: lowercase ASCII letters and digits, the
 * accents of Latin letters dropped, stop words out, one space between words.
 * Appends to out. With r NULL no word is a stop word (a name is folded so).
 */
int refs_title_key(const struct refs *r, const char *title, size_t n, struct buf *out);

/* Today as YYYYMM, in UTC (HALLUSCAN_TODAY=YYYYMM overrides it, for tests). */
unsigned refs_today(void);
/* The UTC month of t as YYYYMM, as gmtime_r() gives it. */
unsigned refs_month_of(long long t);

#endif
