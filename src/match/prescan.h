/* SPDX-License-Identifier: MIT */
/*
 * What a person wrote around the findings, read from the same text the
 * scanner reads, a line ahead of it: inline directives
 * (halluscan:ignore [SIGNAL,...], halluscan:off ... halluscan:on, in any
 * comment form) and Markdown code (fenced and indented blocks, inline
 * code spans), where prose signals do not apply.
 *
 * A line is read whole before anything on it is decided, so a directive
 * at the end of a line covers a finding at its start; lines_done says how
 * many lines are complete. Of a line longer than PRESCAN_LINE_MAX only the
 * first PRESCAN_LINE_MAX bytes are read for directives and code spans.
 * Memory is that line buffer plus the directives and code ranges kept
 * (at most PRESCAN_RANGES_MAX code ranges: the oldest go first).
 *
 * With confirm set, a directive counts only once prescan_confirm() says
 * the scanner found it as the model's text, not inside a tool span (whose
 * text is a tool's data, never an instruction): the scanner's directive
 * findings, which come in order of offset, confirm them.
 *
 * The caller owns struct prescan: zero it, set the flags, call
 * prescan_begin() for each input, and prescan_fini() at the end.
 */
#ifndef HALLUSCAN_INPUT_PRESCAN_H
#define HALLUSCAN_INPUT_PRESCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What every directive starts with. */
#define PRESCAN_DIRECTIVE "halluscan:"
#define PRESCAN_DIRECTIVE_LEN (sizeof(PRESCAN_DIRECTIVE) - 1)
#define PRESCAN_LINE_MAX (64 * 1024)
#define PRESCAN_RANGES_MAX 4096

struct prescan_range {
	uint64_t start, end; /* byte offsets, end exclusive */
};

/* A line's halluscan:ignore: every signal, or those listed. */
struct prescan_ignore {
	uint64_t line;
	uint64_t at;  /* where "halluscan:" starts */
	char *names; /* "a,b" (signals or rule ids), or NULL: every signal */
};

/* A halluscan:off or halluscan:on waiting for the scanner's word (confirm). */
struct prescan_mark {
	uint64_t at;
	bool on;
};

struct prescan {
	bool directives, code; /* what to look for: set before prescan_begin() */
	bool confirm;          /* directives count once confirmed (see above) */

	uint64_t off;          /* bytes read */
	uint64_t lines_done;   /* complete lines (UINT64_MAX after prescan_end) */
	/* With directives: PRESCAN_DIRECTIVE starts nowhere in the input
	 * before dir_clear (in lines of any length, across pieces), and with
	 * dir_hit it starts there: the first one, which wakes the scanner's
	 * directive rule (scan_wake_known), found by the one search. */
	uint64_t dir_clear;
	bool dir_hit;

	struct prescan_range *code_ranges; /* in order, not overlapping */
	size_t n_code, cap_code;
	struct prescan_range *off_ranges;  /* halluscan:off ... halluscan:on */
	size_t n_off, cap_off;
	bool off_open;
	struct prescan_ignore *ignores;
	size_t n_ignores, cap_ignores;
	/* confirm: the offs and ons read, those applied to off_ranges, and the
	 * offsets confirmed (increasing) */
	struct prescan_mark *marks;
	size_t n_marks, cap_marks, marks_done;
	uint64_t *seen;
	size_t n_seen, cap_seen;

	/* private: the input's last bytes, for a directive across pieces */
	char dir_tail[PRESCAN_DIRECTIVE_LEN - 1];
	/* prescan_look(): bytes looked at and not yet read, and the first
	 * directive it found among them (UINT64_MAX: none) */
	uint64_t look_due, look_dir;
	size_t dir_tail_len;
	/* the line being read, and the block state of Markdown */
	char *line;
	size_t line_len;
	uint64_t line_start;
	char fence_char;
	size_t fence_len;
	bool in_fence, prev_blank, in_indented, in_list;
};

void prescan_begin(struct prescan *p);
/* Reads the next bytes of the input. 0 or -ENOMEM. */
int prescan_feed(struct prescan *p, const char *text, size_t len);
/*
 * prescan_feed() in two halves, for a caller whose scanner finds the line
 * breaks anyway: prescan_look() searches the next bytes of the input for
 * directives (dir_clear and dir_hit are then up to date), and
 * prescan_lines() reads them, in one or more consecutive pieces as the
 * scanner passes them, text[0, len) at offset base with the line breaks
 * nl[0, n) (offsets in the same count as base, in order: every one of
 * the piece). Every byte looked at is read before the next look. 0 or
 * -ENOMEM.
 */
int prescan_look(struct prescan *p, const char *text, size_t len);
int prescan_lines(struct prescan *p, const char *text, size_t len, uint64_t base,
		  const uint64_t *nl, size_t n);
/* Ends the input: its last line is complete. 0 or -ENOMEM. */
int prescan_end(struct prescan *p);
void prescan_fini(struct prescan *p);

/* Is the byte at offset in Markdown code? */
bool prescan_in_code(const struct prescan *p, uint64_t offset);
/*
 * Is a finding of signal and rule, at offset on line, covered by a
 * directive (off ... on, or an ignore of its line naming it or nothing)?
 * 1 yes, 0 no; with confirm, -1 when a directive of its line at or past
 * seen_to may still be confirmed. seen_to: every directive before it that
 * the scanner found has been confirmed (UINT64_MAX: the input was all
 * scanned); it is at least offset. With -1, *wait is the offset of the
 * first such directive: nothing changes before seen_to passes it.
 */
int prescan_ignored(struct prescan *p, uint64_t offset, uint64_t line, const char *signal,
		    const char *rule, uint64_t seen_to, uint64_t *wait);
/* The scanner found a directive at offset at (in order of offset, as a rule). 0 or -ENOMEM. */
int prescan_confirm(struct prescan *p, uint64_t at);

#endif
