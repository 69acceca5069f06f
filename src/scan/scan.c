// SPDX-License-Identifier: MIT
/* The pipeline: bytes -> engine -> spans -> claims -> policy -> findings. */
#include "scan.h"
#include "claims/fix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

#include "claims/claims.h"
#include "common/url.h"
#include "common/window.h"
#include "ground/attrs.h"
#include "ground/bib.h"
#include "ground/ground.h"
#include "ground/record.h"
#include "ground/refs.h"
#include "ground/spans.h"
#include "match/engine.h"
#include "match/triggers.h"
#include "numbers/numlex.h"
#include "numbers/quantity.h"

/* Reads are fed to the engine in pieces of at most this size. */
#define PIECE 65536
/* History kept behind the newest byte: longer than any match, sentence and
 * engine lag (a long line on PCRE2 is settled 72 KiB behind). */
#define KEEP (256 * 1024)
/* Each drop moves KEEP bytes once per 2 * KEEP read; a larger window would
 * move less often but stays resident (peak RSS). */
#define WINDOW_CAP (3 * KEEP)
/* Events of an open tool span held undecided: past this many they are decided. */
#define HOLD_CAP 4096
/* Findings of an open span decided as the model's text, kept until the span
 * closes or the input ends: at most this many, and this much of their text;
 * past that they are only counted. */
#define DEFER_CAP 1024
#define DEFER_TEXT_CAP (256 * 1024)

/*
 * A match, sentence mark or line break (at from) of an open span, not yet
 * decided. Most spans close and are never decided: a match's column is
 * counted only when it is, from line_start, the start of its line (or, for
 * a line that began before the window, counted at once: line_start is NO_LINE).
 */
#define NO_LINE UINT64_MAX
struct held_event {
	uint64_t from, to, line, line_start, column;
	unsigned id;
};

/* A finding of an open span decided as the model's text; text and source in defer_text. */
struct deferred {
	struct claim_item it;
	size_t text_off, source_off;
};

struct scan {
	const struct db *db;
	uint64_t *ext_end;          /* per rule with extend: where its last match ended */
	const struct ruleset *rs;
	const struct policy *pol;
	scan_finding_fn fn;
	void *ctx;
	struct engine_stream *es;
	struct claims *claims;
	struct ground *ground;
	struct ground *sources;     /* --source grounding, seeding ground per input */
	bool have_sources;          /* sources holds some: kept allocated when cleared */
	bool source_mode;           /* scanning a source: every match grounds */
	/* The source read now: a hash of its first SOURCE_HASHED bytes, and
	 * its length; and those of the turn's sources before (a ring), to
	 * know a text said again (scan_source_end()). */
	uint64_t src_hash, src_len;
	struct { uint64_t hash, len; } src_seen[16];
	uint32_t n_src_seen;
	uint64_t ground_lo, ground_hi; /* what a reference line read as grounding may span */
	uint64_t source_line;          /* where the source's current line starts */
	bool pressure;              /* HALLUSCAN_SCAN_PRESSURE */
	/* The literal that wakes the late database (a rule's wake_on), or
	 * NULL: none, or rules that differ, which then run from the start. */
	const char *wake;
	size_t wake_len;
	bool woken;                 /* this input's late database is awake */
	/* The literal starts nowhere in the input before wake_clear (looked
	 * for here, or by the caller: scan_wake_known), and with wake_hit it
	 * starts there. */
	uint64_t wake_clear;
	bool wake_hit;
	claims_claim_fn claim_fn;   /* --claims */
	void *claim_ctx;
	struct buf key;
	struct spans spans;
	struct window win;
	/*
	 * An open span's content is the tool's when the span closes, and the
	 * model's when the input ends first: nothing vouched for it. Its events
	 * wait undecided (hold). Those decided early (too many, or their bytes
	 * leaving the window) have their findings kept aside (defer) and what
	 * they would ground set aside (span_ground), until the span's fate is known.
	 */
	struct held_event *hold;
	size_t n_hold, cap_hold;
	struct ground *span_ground;
	bool span_ground_used;
	bool deferring;             /* findings go to defer, not out */
	struct deferred *defer;
	size_t n_defer, cap_defer;
	struct buf defer_text;
	uint64_t defer_over;        /* findings past the caps, only counted */
	uint64_t span_matches;      /* rule matches in the open span */
	uint64_t span_quantities;   /* quantities read in it */
	uint64_t exempted_at_open, repeats_at_open; /* the claims' counts then */
	uint64_t tool_exempted, tool_repeats; /* of those, counted in closed spans */
	/* The cursor: lines up to offset cur, the current line starting at
	 * line_start. Columns are counted only where a match needs one: the
	 * line's code points in [line_start, col_at) are col_cp. */
	uint64_t cur, line, line_start, col_at, col_cp;
	uint64_t open_line, open_column; /* where the open span began */
	uint64_t bytes, findings, grounded;
	uint64_t limit_hits_before; /* the engine's count when this input began */
	uint64_t *counts;
	bool ended;                 /* the last summary is still readable */
	int pending;                /* an error of reset(), returned by the next call */
	bool ground_stale;          /* ground is to be made from sources first */
	enum severity verdict;
	struct buf msg, rec, tmp;
	/*
	 * The quantities of a tool span's content or a source, read by the
	 * record reader (values with their keys) and the number lexer: the
	 * span's bytes from rec_at on are fed to it as they are about to leave
	 * the window, and the rest when it closes. Into rec_ground: the
	 * sources, or span_ground until the span closes.
	 */
	struct record *reader;
	/* Bibliography entries in tool output and sources (NULL: no reference
	 * rules), and the line last read for them, not to read it twice. */
	const struct refs *refs;    /* the db's, or own_refs for --bib */
	struct refs *own_refs;
	const struct attrs *attrs; /* NULL without an attribute rule */
	struct bib *bib;            /* --bib, or NULL */
	uint64_t ref_line_start;
	struct ground *ref_ground;
	struct ground *rec_ground;
	bool codes;           /* a rule checks codes (grounding: code): values are read for them */
	bool rec_on;
	uint64_t rec_at, rec_base;
	uint64_t rec_seq;            /* the ground's next seq when the text began */
	/* A run of text lines alike but for a leading number (line_run()). */
	uint64_t run_shape, run_at;
	uint32_t run_n;
	struct ground_context run_ctx; /* its lines' words */
	/* Items of a list in key: value text ("- all_day: false" ... "- all_day:
	 * true"): the first key of the items so far, how many, where (dash_item()). */
	uint64_t dash_key, dash_at;
	uint32_t dash_n;
	bool dash_whole; /* the items began the record's text: one is a list too */
	/* The short values of the item read now (item_value()): at most
	 * ITEM_VALUES, their pairs counted when it ends (item_end()). */
	struct {
		uint64_t field, at;
		uint8_t len;
		char text[GROUND_GROUP_PAIR_VALUE];
	} item[4];
	uint8_t n_item;
	bool item_over; /* it had more: no pairs of it */
	struct ground_context dash_ctx;
	/* Labels numbered from 1 at lines' starts ("Activity 1:" ... "Activity
	 * 4:"): the label's hash, the last number, where 1 was (label_run()). */
	uint64_t lab_word, lab_at;
	uint32_t lab_n;
	bool lab_broken; /* a number out of turn: no list */
	/* a label word that ended a folded YAML line ("Activity\"), its number
	 * on the next ("\ 3: Team Lunch"): its bytes, how many */
	char lab_pend[24];
	uint8_t lab_pend_n;
	bool lab_fold; /* the value read now starts with such a number */
	struct ground_context lab_ctx;
	const struct record_value *rec_value;
	bool phones_only; /* of rec_value (its key names something): its phone numbers only */
	/* A text line that ended with a month's name ("... on June"): the month,
	 * 1-12, else 0, and the offset of its name, for the next line's day. */
	unsigned fold_month;
	uint64_t fold_at;
	/* The periods of the value's figures, and the quantities of its last
	 * figure, [per_mark, per_end) in seq, which a period after it binds to. */
	struct numlex_periods periods;
	uint64_t per_mark, per_end;
};

/*
 * Moves the cursor to offset to. Lines are counted as the engine delivers
 * their breaks, in order with the matches: every break before a delivered
 * offset has been seen.
 */
static void advance(struct scan *s, uint64_t to)
{
	if (to > s->cur)
		s->cur = to;
}

/* Counts the current line's code points up to offset at (never backwards). */
static void count_columns(struct scan *s, uint64_t at)
{
	size_t n;
	const char *p;

	if (s->col_at < s->line_start) {
		s->col_at = s->line_start;
		s->col_cp = 0;
	}
	if (at <= s->col_at)
		return;
	p = window_get(&s->win, s->col_at, at, &n);
	s->col_cp += utf8_count(p, n);
	s->col_at = at;
}

/* The 1-based column, in code points, of offset at on the cursor's line. */
static uint64_t column(struct scan *s, uint64_t at)
{
	count_columns(s, at);
	return s->col_cp + 1;
}

const char *scan_signal_name(const struct ruleset *rs, size_t k)
{
	static const char *const own[SCAN_OWN_SIGNALS] = {
		[SCAN_SIGNAL_UNTERMINATED] = SIGNAL_UNTERMINATED,
		[SCAN_SIGNAL_SPOOFED] = SIGNAL_SPOOFED,
	};

	return k < rs->n_signals ? rs->signals[k] : own[k - rs->n_signals];
}

static int report(struct scan *s, struct finding *f)
{
	/* Shown for the record (--show-grounded), not counted against the input. */
	if (f->grounded)
		return s->fn(s->ctx, f);
	s->counts[f->signal_index]++;
	for (size_t i = 0; i < f->n_also; i++)
		s->counts[f->also_index[i]]++;
	s->findings++;
	if (f->severity > s->verdict)
		s->verdict = f->severity;
	return s->fn(s->ctx, f);
}

/*
 * A bibliography entry: its message names the title (or the id), and a
 * plausibility problem raises it to block, with the reasons said.
 */
static int ref_finding(struct scan *s, const struct claim_item *it, struct finding *f)
{
	const struct ref_entry *e = &it->ref;
	const struct rule *r = f->rule;
	const struct ref_span *name = e->title.len ? &e->title : e->doi.len ? &e->doi
				      : e->arxiv.len ? &e->arxiv : NULL;
	const char *t = name ? it->text + name->off : it->text;
	size_t n = name ? name->len : it->text_len, k;
	int err = 0;

	s->tmp.len = 0;
	if (buf_addc(&s->tmp, '"') < 0 || buf_add(&s->tmp, t, MIN(n, 200)) < 0 ||
	    buf_adds(&s->tmp, n > 200 ? "...\"" : "\"") < 0)
		return -ENOMEM;
	/* altered_reference: the near templates, {source} the bibliography's entry. */
	if (policy_render(it->source ? r->near.message : r->message, s->tmp.data, s->tmp.len,
			  it->source, &s->msg) < 0 ||
	    policy_render(it->source ? r->near.recovery : r->recovery, s->tmp.data, s->tmp.len,
			  it->source, &s->rec) < 0)
		return -ENOMEM;
	for (k = 0; k < REF_PROBLEMS && err == 0; k++)
		if (e->problems & (1u << k))
			err = buf_addf(&s->msg, "; %s", ref_problem_reason((enum ref_problem)k));
	if (err < 0)
		return -ENOMEM;
	if (e->problems)
		f->severity = SEV_BLOCK;
	f->message = s->msg.data;
	f->recovery = s->rec.data;
	f->ref = e;
	return report(s, f);
}

/* A finding of the model's text, decided by claims. */
/* A total the figures contradict (claims.c, check_total_*()): the message
 * says what it is and, in {source}, what the figures make. */
static const char *total_message(unsigned kind)
{
	switch (kind) {
	case CLAIM_TOTAL_FARE:
		return "{text} is one passenger's fare, not the total; {source}";
	case CLAIM_TOTAL_ITEM:
		return "{text} is one item's price, not the total; {source}";
	case CLAIM_TOTAL_TERM:
		return "{text} is one of the figures, not their difference; {source}";
	case CLAIM_TOTAL_RATE:
		return "{text} is the rate of one unit of time, not the total; {source}";
	default:
		return "{text} differs from {source}";
	}
}

static int claim_finding(struct scan *s, const struct claim_item *it)
{
	const struct rule *r = &s->rs->rules[it->rule];
	/* (an attribute check's source is the record's, under its own signal) */
	bool near = it->source != NULL && !it->grounded && r->near.signal != NULL;
	size_t k = near ? r->near.signal_index : r->signal_index;
	const char *trigger = NULL;
	enum severity sev = policy_severity_why(s->pol, r, k, &trigger);
	struct finding f = {
		.rule = r, .signal = s->rs->signals[k], .signal_index = k, .rule_id = r->id,
		.severity = sev, .trigger = trigger,
		.start = it->from, .end = it->to, .line = it->line, .column = it->column,
		.text = it->text, .text_len = it->text_len, .text_truncated = it->truncated,
		.grounded = it->grounded, .grounded_at = it->grounded_at,
		.source = it->source, .source_at = it->grounded_at,
	};

	size_t i;

	/* A repeat shown for the record says so: the rule's words are for a miss. */
	if (it->grounded) {
		/* (a number check's source, on a grounded figure: how it is computed) */
		if (policy_render(it->source ? "{text} is computed from what the tools or sources said: {source}"
				  : "{text} repeats what the tools or sources said", it->text,
				  it->text_len, it->source, &s->msg) < 0 ||
		    policy_render("Nothing to do: it is grounded.", it->text, it->text_len, NULL,
				  &s->rec) < 0)
			return -ENOMEM;
		f.message = s->msg.data;
		f.recovery = s->rec.data;
		if (it->ref.style != REF_STYLE_NONE)
			f.ref = &it->ref; /* a reference a tool returned: its fields still */
		return report(s, &f);
	}
	if (it->ref.style != REF_STYLE_NONE)
		return ref_finding(s, it, &f);
	/* A result the reply worked out wrong: the message gives the working. */
	if (policy_render(it->computed ? "{source}, not {text}"
			  : near && it->total ? total_message(it->total)
			  : near ? r->near.message : r->message, it->text, it->text_len,
			  it->source, &s->msg) < 0 ||
	    policy_render(it->computed ? "Correct {text}: {source}; and the figures computed "
					 "from it."
			  : near && it->total ? "Give the figure the tools' figures make "
						"({source}), or say what it covers."
			  : near ? r->near.recovery : r->recovery, it->text, it->text_len,
			  it->source, &s->rec) < 0)
		return -ENOMEM;
	/* The other signals on this text: one recovery that answers them all. */
	for (i = 0; i < it->n_also; i++) {
		const struct rule *o = &s->rs->rules[it->also[i]];
		bool o_near = it->source != NULL && o->near.signal != NULL;
		size_t ok = o_near ? o->near.signal_index : o->signal_index;
		const char *o_trigger = NULL;
		enum severity o_sev = policy_severity_why(s->pol, o, ok, &o_trigger);

		f.also[f.n_also] = s->rs->signals[ok];
		f.also_index[f.n_also++] = ok;
		if (o_sev > f.severity) {
			f.severity = o_sev;
			f.trigger = o_trigger;
		}
		if (policy_render(o_near ? o->near.recovery : o->recovery, it->text, it->text_len,
				  it->source, &s->tmp) < 0 ||
		    buf_addc(&s->rec, ' ') < 0 || buf_add(&s->rec, s->tmp.data, s->tmp.len) < 0)
			return -ENOMEM;
	}
	f.message = s->msg.data;
	f.recovery = s->rec.data;
	return report(s, &f);
}

/* Keeps a finding of an open span aside, copying its text. */
static int defer(struct scan *s, const struct claim_item *it)
{
	size_t src = it->source ? strlen(it->source) + 1 : 0;
	struct deferred *d;

	if (s->n_defer == DEFER_CAP || s->defer_text.len + it->text_len + src > DEFER_TEXT_CAP) {
		s->defer_over++;
		return 0;
	}
	if (grow(&s->defer, &s->cap_defer, s->n_defer + 1, sizeof(*s->defer)) < 0)
		return -ENOMEM;
	d = &s->defer[s->n_defer];
	d->it = *it;
	d->text_off = s->defer_text.len;
	if (buf_add(&s->defer_text, it->text, it->text_len) < 0)
		return -ENOMEM;
	d->source_off = s->defer_text.len;
	if (buf_add(&s->defer_text, it->source, src) < 0)
		return -ENOMEM;
	s->n_defer++;
	return 0;
}

static void drop_deferred(struct scan *s)
{
	s->n_defer = 0;
	s->defer_text.len = 0;
	s->defer_over = 0;
}

/* Reports the findings kept aside: the span was left open, they are the model's. */
static int flush_deferred(struct scan *s)
{
	size_t i;
	int err = 0;

	s->deferring = false;
	for (i = 0; i < s->n_defer && err == 0; i++) {
		const struct deferred *d = &s->defer[i];
		struct claim_item it = d->it;

		it.text = s->defer_text.data ? s->defer_text.data + d->text_off : "";
		if (it.source)
			it.source = s->defer_text.data + d->source_off;
		err = claim_finding(s, &it);
	}
	return err;
}

static int on_claim_item(void *ctx, const struct claim_item *it)
{
	struct scan *s = ctx;

	return s->deferring ? defer(s, it) : claim_finding(s, it);
}

static int ground_ref_key(void *ctx, const char *key, size_t len)
{
	struct scan *s = ctx;

	return ground_add(s->ref_ground, key, len, s->ref_line_start);
}

/* Whether p[0, n) holds an escaped line break, "\\n" (memchr finds the backslashes). */
static bool escaped_break(const char *p, size_t n)
{
	const char *q = p;

	while ((q = memchr(q, '\\', n - (size_t)(q - p))) && q + 1 < p + n) {
		if (q[1] == 'n')
			return true;
		q += 2;
	}
	return false;
}

/*
 * The line [start, end) of tool output or a source, read as if in a list of
 * references: its entries ground their titles, DOIs and arXiv ids, and its
 * parts their titles (refs_segment_keys). At most REFS_LINE_MAX bytes are
 * read, and never past the span being decided (ground_lo, ground_hi): the
 * model's text beside a span on its line grounds nothing. With cued, the
 * line is read only when it holds a form the triggers leave to
 * refs_line_cue() ("[1] ", ". 2015.", '," ' and the like).
 */
static int ground_line(struct scan *s, struct ground *g, uint64_t start, uint64_t end, bool cued)
{
	struct ref_entry out[REFS_PER_LINE];
	const char *p;
	size_t n, i, k;
	int err = 0;

	start = MAX(start, s->ground_lo);
	end = MIN(end, s->ground_hi);
	/* (a line begun before the window holds is far longer than an entry) */
	if (end <= start || start < s->win.base || (start == s->ref_line_start && s->ref_ground == g))
		return 0;
	p = window_get(&s->win, start, MIN(end, start + REFS_LINE_MAX), &n);
	/* A serialized string's escaped line breaks ("\\n") part it as lines of their own would. */
	if (n == 0 || (cued && !refs_line_cue(p, n) && !escaped_break(p, n)))
		return 0;
	s->ref_line_start = start;
	s->ref_ground = g;
	k = refs_parse(s->refs, p, n, refs_today(), out, ARRAY_SIZE(out));
	for (i = 0; i < k && err == 0; i++)
		err = refs_keys(s->refs, &out[i], p + out[i].from, ground_ref_key, s);
	return err ? err : refs_segment_keys(s->refs, p, n, ground_ref_key, s);
}

/* A reference trigger at from in tool output or a source: its line is read. */
static int ground_reference(struct scan *s, struct ground *g, uint64_t from)
{
	uint64_t lo = from > REFS_LINE_MAX ? from - REFS_LINE_MAX : 0, start;
	const char *p, *nl;
	size_t n, i;

	p = window_get(&s->win, lo, from, &n);
	for (i = n; i > 0 && p[i - 1] != '\n'; i--)
		;
	start = from - (n - i);
	p = window_get(&s->win, start, start + REFS_LINE_MAX, &n);
	nl = memchr(p, '\n', n);
	return ground_line(s, g, start, nl ? start + (uint64_t)(nl - p) : start + n, false);
}

/* Tool output or a source: remember what it said, to ground repeats of it. */
static int ground_match(struct scan *s, struct ground *g, unsigned id, uint64_t from, uint64_t to)
{
	const struct rule *r = &s->rs->rules[id - s->db->first_rule_id];
	const char *text;
	size_t n;

	if (r->grounding == GROUNDING_NONE)
		return 0;
	if (r->grounding == GROUNDING_REFERENCE)
		return s->refs ? ground_reference(s, g, from) : 0;
	text = window_get(&s->win, from, MIN(to, from + GROUND_KEY_MAX), &n);
	if (ground_key(r->grounding, text, n, &s->key) < 0)
		return -ENOMEM;
	return ground_add(g, s->key.data, s->key.len, from);
}

/*
 * Keys whose values name or locate something, and count nothing. By
 * length, then the keys of that length a byte at a time: this runs for
 * every value of every record, and strcmp() in a bsearch() read the word
 * afresh at each step (and took glibc's slower path wherever the record's
 * word buffer fell near the end of a page, so that its cost moved with
 * the heap's layout).
 */
static bool names_something(const char *w)
{
	static const char *const by_len[10] = {
		[2] = "id",
		[3] = "doi" "ean" "fax" "ids" "key" "lat" "lng" "lon" "sha" "sku" "tel" "upc" "zip",
		[4] = "code" "guid" "hash" "isbn" "issn" "uuid",
		[5] = "phone",
		[6] = "postal",
		[7] = "zipcode",
		[8] = "latitude" "postcode",
		[9] = "longitude" "telephone",
	};
	static const unsigned char count[10] = {[2] = 1, [3] = 13, [4] = 6, [5] = 1, [6] = 1,
						[7] = 1, [8] = 2, [9] = 2};
	size_t n = strnlen(w, 10), i, j;
	const char *k;

	if (n == 10 || !count[n])
		return false;
	for (i = 0, k = by_len[n]; i < count[n]; i++, k += n) {
		for (j = 0; j < n && k[j] == w[j]; j++)
			;
		if (j == n)
			return true;
	}
	return false;
}

/*
 * "of this month", "of the month", "this month", "next month" at t[0, n)
 * (after blanks): the day an ordinal before it names is of a month the
 * text leaves to the calendar ("the 10th of this month").
 */
static bool month_left_open(const char *t, size_t n)
{
	static const char *const tails[] = {"of this month", "of the month", "of next month",
					    "this month", "next month"};
	size_t i = 0, k, m;

	while (i < n && (t[i] == ' ' || t[i] == '\t'))
		i++;
	for (k = 0; k < ARRAY_SIZE(tails); k++) {
		m = strlen(tails[k]);
		if (n - i >= m && strncasecmp(t + i, tails[k], m) == 0 &&
		    (n - i == m || !isalnum((unsigned char)t[i + m])))
			return true;
	}
	return false;
}

/*
 * " of 3" at t[0, n) after a name's number ("Method 1 of 3", "Part 2 of
 * 4"): how many the name numbers (2 to 12), else 0.
 */
static unsigned name_of_many(const char *t, size_t n)
{
	size_t i = 0;
	unsigned m = 0;

	while (i < n && t[i] == ' ')
		i++;
	if (n - i < 4 || strncasecmp(t + i, "of ", 3) != 0)
		return 0;
	for (i += 3; i < n && t[i] == ' '; i++)
		;
	for (; i < n && isdigit((unsigned char)t[i]) && m < 100; i++)
		m = m * 10 + (unsigned)(t[i] - '0');
	if (i < n && isalnum((unsigned char)t[i]))
		return 0;
	return m >= 2 && m <= 12 ? m : 0;
}

/* Does t[0, n) start with "24/7" or "24 hours a day"? */
static bool all_day_phrase(const char *t, size_t n)
{
	return (n >= 4 && memcmp(t, "24/7", 4) == 0) ||
	       (n >= 14 && strncasecmp(t, "24 hours a day", 14) == 0);
}

/* A quantity of a tool span or source: grounded, said with its key and sentence. */
/*
 * Whether it is the number of a listed line: whole digits that start a
 * line of the value, then ':' and no digit ("7:    print(x)", "12:"), as
 * an editor or `nl`-like tool numbers the lines of a file it shows.
 */
static bool listing_line_number(const struct record_value *v, const struct numlex_item *it)
{
	size_t f = it->part_from, t = it->part_to;

	if (it->q.kind != QUANTITY_NUMBER || it->flags || it->q.decimals || t >= v->len ||
	    v->text[t] != ':' || (t + 1 < v->len && isdigit((unsigned char)v->text[t + 1])))
		return false;
	return f == 0 ? !v->cont : v->text[f - 1] == '\n';
}

/* The bits a hexadecimal mask of ones keeps ("0xff": 8), or 0 when t[0, n)
 * is no such mask of two digits or more. */
static unsigned hex_mask_bits(const char *t, size_t n)
{
	size_t i;

	if (n < 4 || t[0] != '0' || (t[1] | 0x20) != 'x')
		return 0;
	for (i = 2; i < n; i++)
		if ((t[i] | 0x20) != 'f')
			return 0;
	return (unsigned)(4 * (n - 2));
}

static unsigned numbered_label(const char *t, size_t n, uint64_t *word);

/*
 * Whether it is the number of a numbered label at a line's start
 * ("Activity 3: Team Lunch", label_run()): the label's, not a figure of
 * three things; the name with it ("Activity 3") is still said.
 */
static bool label_number(const struct scan *s, const struct record_value *v,
			 const struct numlex_item *it)
{
	const char *t = v->text;
	size_t f = it->part_from, b;
	uint64_t word;

	if (it->q.kind != QUANTITY_NUMBER || it->q.decimals || it->q.value < 1 || it->q.value > 99 ||
	    it->part_to >= v->len || t[it->part_to] != ':')
		return false;
	/* "\ 3:" that a folded YAML line starts with */
	for (b = 0; b < f && t[b] == ' '; b++)
		;
	if (s->lab_fold && b + 2 == f && t[b] == '\\' && t[b + 1] == ' ')
		return true;
	if (f < 3 || t[f - 1] != ' ')
		return false;
	for (b = f - 1; b > 0 && isalpha((unsigned char)t[b - 1]); b--)
		;
	if (numbered_label(t + b, v->len - b, &word) != (unsigned)it->q.value)
		return false;
	while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
		b--;
	return b == 0 ? !v->cont : t[b - 1] == '\n' || (b >= 2 && t[b - 1] == 'n' && t[b - 2] == '\\');
}

static int on_ground_item(void *ctx, const struct numlex_item *it)
{
	struct scan *s = ctx;
	const struct record_value *v = s->rec_value;
	struct ground_context gc;
	size_t from, to;
	uint32_t period;
	int err, role;

	/* "$3.69 in the third quarter of 2021": the figure's quantities, added
	 * before its period was read, are said of it. */
	role = numlex_period_feed(&s->periods, v->text, v->len, it, &period);
	if (role == NUMLEX_PERIOD_BINDS)
		ground_set_period(s->rec_ground, s->per_mark, s->per_end, period);
	else if (role == NUMLEX_PERIOD_FIGURE)
		s->per_mark = ground_next_seq(s->rec_ground);
	/* "open 24/7", "24 hours a day": held under a unit of its own, which
	 * grounds an answer's saying so where no day's hours are given
	 * (claims.c); no time of the clock. */
	if ((it->flags & NUMLEX_FIXED_PHRASE) && !s->phones_only &&
	    all_day_phrase(v->text + it->from, v->len - it->from)) {
		struct quantity q;

		quantity_set(&q, QUANTITY_TIME, "time:all-day", 0, 1);
		record_context(v, it->from, &gc);
		if (s->rec_ground == s->span_ground) {
			s->span_ground_used = true;
			s->span_quantities++;
		}
		err = ground_add_quantity(s->rec_ground, &q, v->text + it->from, it->to - it->from,
					  s->rec_base + record_offset(v, it->from), &gc);
		if (err < 0)
			return err;
	}
	/* A list's numbering, a passage's, "24/7": they state nothing. */
	if ((it->flags & NUMLEX_NOT_CLAIM) ||
	    (s->phones_only && quantity_class_of(&it->q) != QC_PHONE))
		return 0;
	from = it->flags & NUMLEX_RANGE ? it->from : it->part_from;
	to = it->flags & NUMLEX_RANGE ? it->to : it->part_to;
	record_context(v, from, &gc);
	ground_context_words(v->text + from, to - from, &gc);
	ground_context_after(v->text + to, v->len - to, &gc);
	/* "7:    print(...)", a line of a file an agent's tool lists: the
	 * line's number, said of no word of the code on it (else "17 random
	 * numbers" about that code reads as its "7" changed); grounded as said. */
	if (listing_line_number(v, it)) {
		gc.n = 0;
		gc.mask = 0;
		gc.before1 = gc.after1 = 0;
	}
	if (role == NUMLEX_PERIOD_FIGURE || role == NUMLEX_PERIOD_SAME)
		gc.period = period;
	gc.quarter_year = s->periods.quarter_year;
	gc.compared = s->periods.quarter_year_compared;
	gc.bound = it->flags & NUMLEX_ABOVE ? 1 : it->flags & NUMLEX_BELOW ? -1 : 0;
	if (s->rec_ground == s->span_ground) {
		s->span_ground_used = true;
		s->span_quantities++;
	}
	err = label_number(s, v, it) ? 0
				     : ground_add_quantity(s->rec_ground, &it->q, v->text + from,
							   to - from, s->rec_base + record_offset(v, from),
							   &gc);
	if (err == 0 && it->q.kind == QUANTITY_NUMBER && !it->q.words) {
		/* A figure after a name ("Toby 3632"): the name's digits too, as the
		 * model's text has them (claims.c). */
		size_t gap, k = quantity_name_before(v->text, it->part_from, &gap);
		size_t b = it->part_from - gap - k;
		struct quantity q;

		if (k && quantity_set_name(&q, v->text + b, k, it->q.value))
			err = ground_add_quantity(s->rec_ground, &q, v->text + b, it->part_to - b,
						  s->rec_base + record_offset(v, b), &gc);
		/* "Method 1 of 3": the others of the three are named too (an
		 * answer's "Method 2" is one of them, not Method 1 changed). */
		if (k && err == 0) {
			unsigned of = name_of_many(v->text + it->part_to, v->len - it->part_to), m;

			for (m = 1; err == 0 && m <= of; m++)
				if (m != it->q.value && quantity_set_name(&q, v->text + b, k, m))
					err = ground_add_quantity(s->rec_ground, &q, v->text + b,
								  it->part_to - b,
								  s->rec_base + record_offset(v, b), &gc);
		}
	}
	/* "0xffffffffffff", a mask of ones: the bits it keeps ("cut to 48
	 * bits"), four a digit, as a reader of the code counts them. */
	if (err == 0 && (it->flags & NUMLEX_HEX)) {
		unsigned bits = hex_mask_bits(v->text + it->part_from, it->part_to - it->part_from);
		struct quantity q;

		if (bits) {
			quantity_set(&q, QUANTITY_COUNT, "bit", bits, 1);
			err = ground_add_quantity(s->rec_ground, &q, v->text + from, to - from,
						  s->rec_base + record_offset(v, from), &gc);
		}
	}
	/* "the 10th of this month": that day of a month no one named here (a
	 * transcript may not say today's date); any month's 10th is taken for
	 * it, so the answer's "March 10th" is the day the user gave. */
	if (err == 0 && it->q.kind == QUANTITY_ORDINAL && !it->q.years && it->q.value >= 1 &&
	    it->q.value <= 31 && it->q.value == (int)it->q.value &&
	    month_left_open(v->text + it->to, v->len - it->to)) {
		struct quantity d;
		int m;

		for (m = 1; err == 0 && m <= 12; m++) {
			quantity_set(&d, QUANTITY_DATE, "date:day", m * 100 + it->q.value, 1);
			err = ground_add_quantity(s->rec_ground, &d, v->text + from, to - from,
						  s->rec_base + record_offset(v, from), &gc);
		}
	}
	/* Four digits the lexer counted ("our forecast for 2021 remains") are a
	 * year too: an answer's year is then held against it. */
	if (err == 0 && !(it->flags & NUMLEX_RANGE) &&
	    quantity_may_be_year(&it->q, v->text, v->len, it->part_from)) {
		struct quantity y;

		quantity_set(&y, QUANTITY_YEAR, "date:year", it->q.value, 1);
		err = ground_add_quantity(s->rec_ground, &y, v->text + it->part_from, 4,
					  s->rec_base + record_offset(v, it->part_from), &gc);
	}
	if (role == NUMLEX_PERIOD_FIGURE || role == NUMLEX_PERIOD_SAME)
		s->per_end = ground_next_seq(s->rec_ground);
	return err;
}

/*
 * A JSON array's number of items ("results": three of them), held as a
 * count of what its key names: "3 results" is then grounded, "3" alone or
 * "3 servers" is not (quantity.h). An array with no key (a tool's whole
 * result, a list of flights) is a count of whatever the answer calls its
 * items: "I found 4 flights" of a search that returned four.
 */
static int ground_items(struct scan *s, const struct record_value *v)
{
	struct ground_context gc;
	struct quantity q;
	double n = strtod(v->text, NULL);
	char text[24];
	int err;

	quantity_set_items(&q, v->words, v->n_words, n);
	record_context(v, 0, &gc);
	if (s->rec_ground == s->span_ground) {
		s->span_ground_used = true;
		s->span_quantities++;
	}
	err = ground_add_quantity(s->rec_ground, &q, v->text, v->len, s->rec_base + v->at, &gc);
	/* Items each dated a day after another (a forecast): as many days
	 * ("the next three days"). */
	if (err == 0 && n >= 2 && n <= GROUND_DAY_RUN_MAX &&
	    ground_day_run(s->rec_ground, s->rec_seq, s->rec_base + v->opened) == (unsigned)n) {
		quantity_set(&q, QUANTITY_BASE, "seconds", n * QUANTITY_DAY_SECONDS,
			     QUANTITY_DAY_SECONDS);
		q.items = true; /* no bare figure: a length is no figure of anything else */
		snprintf(text, sizeof(text), "%u days", (unsigned)n);
		err = ground_add_quantity(s->rec_ground, &q, text, strlen(text), s->rec_base + v->at,
					  &gc);
	}
	return err;
}

/* Lines alike that make a list: at least this many. */
#define LINE_RUN_MIN 3

#define ITEM_VALUES 4

/* The item of a list in key: value text ends: each pair of its values
 * counted once (ground_group_pair_add()). */
static int item_end(struct scan *s)
{
	int err = 0;
	size_t i, j;

	for (i = 0; !s->item_over && i < s->n_item && err == 0; i++)
		for (j = i + 1; j < s->n_item && err == 0; j++)
			if (s->item[i].field != s->item[j].field)
				err = ground_group_pair_add(s->rec_ground, s->item[i].field, s->item[i].text,
							    s->item[i].len, s->item[j].field, s->item[j].text,
							    s->item[j].len, s->item[i].at);
	s->n_item = 0;
	s->item_over = false;
	return err;
}

/* A short value of a field of the item read now. */
static void item_value(struct scan *s, uint64_t field, const struct record_value *v)
{
	if (v->len < 2 || v->len > GROUND_GROUP_PAIR_VALUE)
		return;
	if (s->n_item == ITEM_VALUES) {
		s->item_over = true;
		return;
	}
	s->item[s->n_item].field = field;
	s->item[s->n_item].at = s->rec_base + v->at;
	s->item[s->n_item].len = (uint8_t)v->len;
	memcpy(s->item[s->n_item].text, v->text, v->len);
	s->n_item++;
}

/* A list of n items with no key, said at at: grounded as an array's length is. */
static int add_list_length(struct scan *s, uint32_t n, uint64_t at, const struct ground_context *ctx)
{
	struct quantity q;
	char text[16];
	int len;

	quantity_set_items(&q, NULL, 0, n);
	len = snprintf(text, sizeof(text), "%u", (unsigned)n);
	if (s->rec_ground == s->span_ground) {
		s->span_ground_used = true;
		s->span_quantities++;
	}
	return ground_add_quantity(s->rec_ground, &q, text, (size_t)len, at, ctx);
}

/* The run of lines alike ends: as many as they are, a list with no key. */
static int line_run_end(struct scan *s)
{
	int err = 0;

	if (s->run_n >= LINE_RUN_MIN)
		err = add_list_length(s, s->run_n, s->run_at, &s->run_ctx);
	s->run_n = 0;
	return err;
}

/*
 * A command's output that repeats a line ("[0] Got random number: 4",
 * "[1] Got random number: 4", ...) lists its lines: lines of text alike
 * but for a leading number ("[3]", "3.", "3)", "3:") count as the items
 * of a list ("16 times", "it printed 16"), as an array's do.
 */
static int line_run(struct scan *s, const struct record_value *v)
{
	const char *p = v->text, *end = v->text + v->len;
	uint64_t h = 1469598103934665603ull;
	size_t i;

	if (v->cont)
		return line_run_end(s);
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && (*p == '[' || *p == '#')) {
		const char *d = p + 1;

		while (d < end && *d >= '0' && *d <= '9')
			d++;
		if (d > p + 1 && (*p == '#' || (d < end && *d == ']')))
			p = d + (*p == '[');
	} else if (p < end && *p >= '0' && *p <= '9') {
		const char *d = p;

		while (d < end && *d >= '0' && *d <= '9')
			d++;
		if (d < end && (*d == '.' || *d == ')' || *d == ':') && d + 1 < end && d[1] == ' ')
			p = d + 1;
	}
	for (i = 0; i < v->n_words; i++)
		for (const char *w = v->words[i]; *w; w++)
			h = (h ^ (unsigned char)*w) * 1099511628211ull;
	h = (h ^ 0xff) * 1099511628211ull;
	for (; p < end; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	if (s->run_n > 0 && h == s->run_shape) {
		/* (its words are the first line's: read once, when it is a run) */
		if (s->run_n == 1)
			record_context(v, v->len, &s->run_ctx);
		if (s->run_n < UINT32_MAX)
			s->run_n++;
		return 0;
	}
	if (line_run_end(s) < 0)
		return -ENOMEM;
	s->run_shape = h;
	s->run_at = s->rec_base + v->at;
	s->run_n = 1;
	return 0;
}

/* The list of key: value items ends: as many as they are, two or more, a
 * list with no key. */
static int dash_end(struct scan *s)
{
	int err = item_end(s);

	if (err == 0 && (s->dash_n >= 2 || (s->dash_n == 1 && s->dash_whole)))
		err = add_list_length(s, s->dash_n, s->dash_at, &s->dash_ctx);
	s->dash_n = 0;
	return err;
}

/* The run of numbered labels ends: 1 to n of them, n >= 2, a list of n with no key. */
static int label_run_end(struct scan *s)
{
	int err = 0;

	if (s->lab_n >= 2 && !s->lab_broken)
		err = add_list_length(s, s->lab_n, s->lab_at, &s->lab_ctx);
	s->lab_n = 0;
	s->lab_broken = false;
	return err;
}

/* The longest label word taken ("Activity", "Session", "Option"). */
#define LABEL_WORD 24
_Static_assert(LABEL_WORD <= sizeof(((struct scan *)0)->lab_pend), "a label word fits");

/*
 * A label and its number at a line's start of t[0, n) ("Activity 3:"): the
 * number (1 to 99) and the word's hash; 0 when there is none.
 */
static unsigned numbered_label(const char *t, size_t n, uint64_t *word)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned num = 0;
	size_t i = 0, d;

	if (n < 4 || t[0] < 'A' || t[0] > 'Z')
		return 0;
	for (; i < n && i <= LABEL_WORD && isalpha((unsigned char)t[i]); i++)
		h = (h ^ (unsigned char)(t[i] | 0x20)) * 0x100000001b3ull;
	if (i < 2 || i > LABEL_WORD || i + 2 >= n || t[i] != ' ')
		return 0;
	for (d = ++i; i < n && i < d + 2 && isdigit((unsigned char)t[i]); i++)
		num = num * 10 + (unsigned)(t[i] - '0');
	if (i == d || i >= n || t[i] != ':')
		return 0;
	*word = h;
	return num;
}

/*
 * Labels numbered 1, 2, ... at lines' starts ("Activity 1: Problem-Solving
 * Workshop", its fields, "Activity 2: ...") name the items of a list, as
 * many as the last number ("4 team-building activities" of a document
 * whose labels run to "Activity 4"): a line's start is the value's, or
 * past a line break in it, written or escaped ("\n", as a YAML or JSON
 * string keeps it). Another number of that label ("Activity 3" after
 * "Activity 1") drops the list; another label is let be.
 */
static int label_run(struct scan *s, const struct record_value *v)
{
	const char *t = v->text, *end = v->text + v->len;
	size_t off = 0;

	char fold[LABEL_WORD + 8];
	size_t pend = s->lab_pend_n;
	const char *nl = NULL, *bn = NULL; /* the next line break, and escaped one */

	s->lab_pend_n = 0;
	s->lab_fold = false;
	for (;;) {
		const char *p = t + off, *w;
		uint64_t word;
		unsigned num;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		/* a label folded over two lines of YAML: "Activity\" then "\ 3:" */
		if (off == 0 && pend && end - p >= 4 && p[0] == '\\' && p[1] == ' ') {
			size_t k = MIN((size_t)(end - p) - 2, sizeof(fold) - pend - 1);

			memcpy(fold, s->lab_pend, pend);
			fold[pend] = ' ';
			memcpy(fold + pend + 1, p + 2, k);
			num = numbered_label(fold, pend + 1 + k, &word);
			s->lab_fold = num > 0;
		} else {
			num = numbered_label(p, (size_t)(end - p), &word);
		}
		for (w = p; w < end && isalpha((unsigned char)*w); w++)
			;
		if (w - p >= 2 && w - p <= LABEL_WORD && *p >= 'A' && *p <= 'Z' &&
		    (w == end || (w + 1 == end && *w == '\\'))) {
			memcpy(s->lab_pend, p, (size_t)(w - p));
			s->lab_pend_n = (uint8_t)(w - p);
		}
		if (num == 1) {
			int err = label_run_end(s);

			if (err < 0)
				return err;
			s->lab_word = word;
			s->lab_n = 1;
			s->lab_at = s->rec_base + v->at + (uint64_t)(p - t);
			record_context(v, 0, &s->lab_ctx);
		} else if (num > 1 && s->lab_n > 0 && word == s->lab_word) {
			if (num == s->lab_n + 1 && s->lab_n < 99)
				s->lab_n++;
			else
				s->lab_broken = true;
		}
		/* the next line's start: past a line break, or an escaped one
		 * (each found once, by memchr, however many lines there are) */
		if ((!nl || nl < p) && !(nl = memchr(p, '\n', (size_t)(end - p))))
			nl = end;
		while (!bn || bn < p || (bn < end && !(bn + 1 < end && bn[1] == 'n'))) {
			const char *from = !bn || bn < p ? p : bn + 1;

			if (from >= end || !(bn = memchr(from, '\\', (size_t)(end - from))))
				bn = end;
		}
		p = MIN(nl, bn);
		if (p == end)
			return 0;
		off = (size_t)(p - t) + (*p == '\n' ? 1 : 2);
	}
}

/* How far back a text value's line is read for its start. */
#define DASH_LINE 64
/* The key of items with none ("- Alice"); a key's FNV hash is 1 by a chance of 2^-64. */
#define DASH_BARE 1u
/* The key of a labelled list, one item a line ("Hotel Names: Good Night\nLuxury Palace"). */
#define DASH_LABEL 2u
/* The longest line taken for an item of a labelled list. */
#define DASH_LABEL_ITEM 64

/* Whether [t, t + n) may be one item of a labelled list: a short line, no field, no sentence. */
static bool label_item(const char *t, size_t n)
{
	return n > 0 && n <= DASH_LABEL_ITEM && t[0] != ' ' && t[0] != '\t' && t[0] != '-' &&
	       !memchr(t, ':', n) && t[n - 1] != '.' && t[n - 1] != ',';
}

/*
 * A list in key: value text, as YAML writes records ("- all_day: false",
 * its other fields indented under it, then "- all_day: false" again): the
 * items are the lines at a line's start that open with "- " and the same
 * key; a line at the start that does not ends them. Counted as an array's
 * items are ("You have 3 appointments" of three events).
 */
static int dash_item(struct scan *s, const struct record_value *v)
{
	uint64_t at = s->rec_base + v->at, lo = at > s->rec_base + DASH_LINE ? at - DASH_LINE : s->rec_base;
	uint64_t key = 0xcbf29ce484222325ull;
	const char *p;
	size_t n, i, k;

	if (v->cont)
		return 0;
	p = window_get(&s->win, lo, at, &n);
	if (n != at - lo)
		return 0;
	for (i = n; i > 0 && p[i - 1] != '\n'; i--)
		;
	if (i == 0 && lo > s->rec_base)
		return 0; /* (a line longer than read: no item's start) */
	/*
	 * A result that is a label and then one item a line ("Hotel Names: Le
	 * Marais Boutique", "Good Night", "Luxury Palace"): as many items as
	 * lines, when the result ends with them; any other line drops the list.
	 */
	if (s->dash_n > 0 && s->dash_key == DASH_LABEL) {
		if (i == n && v->kind == RECORD_PROSE && label_item(v->text, v->len)) {
			if (s->dash_n < UINT32_MAX)
				s->dash_n++;
			return 0;
		}
		s->dash_n = 0;
	}
	if (i < n && lo + i == s->rec_base && v->kind == RECORD_STRING && p[i] != '-' &&
	    p[i] != '*' && p[i] != ' ' && p[i] != '\t' && n >= 2 && p[n - 2] == ':' && p[n - 1] == ' ' &&
	    label_item(v->text, v->len)) {
		if (dash_end(s) < 0)
			return -ENOMEM;
		s->dash_key = DASH_LABEL;
		s->dash_at = at;
		s->dash_n = 1;
		s->dash_whole = false;
		record_context(v, 0, &s->dash_ctx);
		return 0;
	}
	/* A line that is a whole item ("- Alice", as a YAML list of names
	 * is written): items with no key. The result's whole text a list of
	 * them, one is a list of one ("1 member"). */
	if (i == n && v->kind == RECORD_PROSE && v->len >= 3 && v->text[0] == '-' &&
	    v->text[1] == ' ' && v->text[2] != ' ' && !memchr(v->text, ':', v->len)) {
		if (s->dash_n > 0 && s->dash_key == DASH_BARE) {
			if (s->dash_n < UINT32_MAX)
				s->dash_n++;
			return 0;
		}
		s->dash_whole = false;
		if (dash_end(s) < 0)
			return -ENOMEM;
		s->dash_key = DASH_BARE;
		s->dash_at = at;
		s->dash_n = 1;
		s->dash_whole = v->at == 0;
		record_context(v, 0, &s->dash_ctx);
		return 0;
	}
	s->dash_whole = false;
	if (i == n) /* a line with no key: prose ends the items, unless indented */
		return v->len && v->text[0] != ' ' && v->text[0] != '\t' ? dash_end(s) : 0;
	if (p[i] == ' ' || p[i] == '\t')
		return 0; /* a field of the item, indented */
	if (n - i < 4 || p[i] != '-' || p[i + 1] != ' ')
		return dash_end(s);
	for (k = i + 2; k < n && p[k] != ':'; k++)
		key = (key ^ (unsigned char)p[k]) * 0x100000001b3ull;
	if (k == n || k == i + 2)
		return dash_end(s);
	if (s->dash_n > 0 && key == s->dash_key) {
		if (s->dash_n < UINT32_MAX)
			s->dash_n++;
		return item_end(s);
	}
	if (dash_end(s) < 0)
		return -ENOMEM;
	s->dash_key = key;
	s->dash_at = at;
	s->dash_n = 1;
	record_context(v, 0, &s->dash_ctx);
	return 0;
}

/* The codes a value holds ("ELITEFIT15", "5a22ac8d3f"): grounded as said. */
static int ground_codes(struct scan *s, const struct record_value *v)
{
	struct ground_codes cur = {.want_names = true};
	size_t from, len;

	while ((len = ground_next_code(v->text, v->len, &cur, true, &from)) > 0) {
		size_t k, shorts = cur.is_name ? 0 : ground_hash_prefixes(v->text + from, len);
		int err = 0;

		/* the code, and a hash's short forms ("5a22ac8" of a long one) */
		for (k = 0; err == 0 && k <= shorts; k++) {
			size_t n = k < shorts ? GROUND_HASH_SHORT_MIN + k : len;

			err = ground_code_key(&cur, v->text + from, n, &s->key);
			if (err == 0)
				err = ground_add(s->rec_ground, s->key.data, s->key.len,
						 s->rec_base + record_offset(v, from));
		}
		if (err < 0)
			return err;
		if (s->rec_ground == s->span_ground)
			s->span_ground_used = true;
	}
	if (cur.names) {
		ground_note_codes(s->rec_ground);
		if (s->rec_ground == s->span_ground)
			s->span_ground_used = true;
	}
	return 0;
}

/* Does t[0, n) hold digits only, at least least of them (and at most 20)? */
static bool digits_only(const char *t, size_t n, size_t least)
{
	size_t i;

	if (n < least || n > 20)
		return false;
	for (i = 0; i < n; i++)
		if (t[i] < '0' || t[i] > '9')
			return false;
	return true;
}

/*
 * A number under an id-like key ("id": 7, "user_id": "42"): the digits of
 * that key's name, as "ID 7", "ID: 7" or "id #7" say them (the name
 * quantities of claims.c), never a figure.
 */
static int ground_id_digits(struct scan *s, const struct record_value *v)
{
	const char *w = v->words[v->n_words - 1], *t = v->text;
	struct ground_context gc;
	struct quantity q;
	size_t n = v->len, at = 0;

	/* A YAML text line quotes it: "id_: '0'" */
	if (n >= 3 && (t[0] == '\'' || t[0] == '"') && t[n - 1] == t[0]) {
		at = 1;
		n -= 2;
	}
	if (!digits_only(t + at, n, 1) || !quantity_set_name(&q, w, strlen(w), strtod(t + at, NULL)))
		return 0;
	record_context(v, 0, &gc);
	if (s->rec_ground == s->span_ground) {
		s->span_ground_used = true;
		s->span_quantities++;
	}
	return ground_add_quantity(s->rec_ground, &q, t + at, n, s->rec_base + record_offset(v, at), &gc);
}

/*
 * A phone number a record gives as digits alone under a key that names one
 * ("phone": "4155550100", "fax": 14155550100, "+442079460958"): the lexer
 * reads bare digits as a figure; the key says they are a number to dial,
 * grounded as the lexer grounds a spaced one (numlex.c, phone()).
 */
static int ground_bare_phone(struct scan *s, const struct record_value *v)
{
	static const char *const keys[] = {"cell", "fax", "mobile", "phone", "tel", "telephone"};
	struct ground_context gc;
	struct quantity q;
	double value = 0;
	size_t i, j, k, digits;
	bool named = false;

	if (v->cont || v->len < 10 || v->len > 16)
		return 0;
	for (i = 0; i < v->n_words && !named; i++)
		for (j = 0; j < ARRAY_SIZE(keys) && !named; j++)
			named = strcmp(v->words[i], keys[j]) == 0;
	if (!named)
		return 0;
	k = v->text[0] == '+';
	for (i = k; i < v->len; i++) {
		if (v->text[i] < '0' || v->text[i] > '9')
			return 0;
		value = value * 10 + (v->text[i] - '0');
	}
	digits = v->len - k;
	if (digits < 10 || digits > 15)
		return 0;
	if (digits == 11 && v->text[k] == '1')
		value -= 1e10; /* the North American plan's country code */
	quantity_set(&q, QUANTITY_IDENT, QUANTITY_PHONE, value, 1);
	record_context(v, 0, &gc);
	if (s->rec_ground == s->span_ground) {
		s->span_ground_used = true;
		s->span_quantities++;
	}
	return ground_add_quantity(s->rec_ground, &q, v->text, v->len, s->rec_base + v->at, &gc);
}

/* A span said with "a" ("for a day"): where it was said, for on_said_span(). */
struct said_span {
	struct scan *s;
	const struct record_value *v;
	size_t from, to;
};

static int on_said_span(void *ctx, const struct numlex_item *it)
{
	struct said_span *p = ctx;
	struct ground_context gc;

	record_context(p->v, p->from, &gc);
	ground_context_words(p->v->text + p->from, p->to - p->from, &gc);
	if (p->s->rec_ground == p->s->span_ground) {
		p->s->span_ground_used = true;
		p->s->span_quantities++;
	}
	return ground_add_quantity(p->s->rec_ground, &it->q, p->v->text + p->from, p->to - p->from,
				   p->s->rec_base + record_offset(p->v, p->from), &gc);
}

/*
 * "to stay for a day", "a week-long rental", "for an hour": a span said
 * with "a", which the lexer reads as no figure (most "a day"s are none:
 * "twice a day", "a day before"). After "for", or before "-long" or
 * " long", it is one of its unit, grounded as "1 day" is: "your one-day
 * stay", "a 7-day rental" repeat it.
 */
static int ground_spans_said(struct scan *s, const struct record_value *v)
{
	static const char *const units[] = {"day", "week", "night", "hour", "month", "year"};
	static const char *const one[] = {"1 day", "1 week", "1 night", "1 hour", "1 month", "1 year"};
	const char *t = v->text, *p;
	size_t n = v->len, i, u, k, w;
	int err = 0;

	/* Where "a" or "an" stands after "for" or before a "long": found from
	 * the "r" of "for" and the "g" of "long" (memchr), not byte by byte. */
	for (p = t; err == 0 && (p = memchr(p, 'r', (size_t)(t + n - p))); p++) {
		i = (size_t)(p - t) + 2; /* the "a" */
		if (i + 1 >= n || t[i - 1] != ' ' || (t[i] | 0x20) != 'a' || i < 4 ||
		    strncasecmp(t + i - 4, "fo", 2) != 0 || (i > 4 && isalpha((unsigned char)t[i - 5])))
			continue;
		k = i + 1 + (i + 1 < n && t[i + 1] == 'n');
		if (k >= n || t[k] != ' ')
			continue;
		k++;
		for (u = 0; u < ARRAY_SIZE(units); u++) {
			w = strlen(units[u]);
			if (k + w <= n && strncasecmp(t + k, units[u], w) == 0 &&
			    (k + w == n || !isalpha((unsigned char)t[k + w])))
				break;
		}
		if (u < ARRAY_SIZE(units)) {
			struct said_span sp = {s, v, i, k + w};

			err = numlex_scan(one[u], strlen(one[u]), 0, on_said_span, &sp);
		}
	}
	for (p = t; err == 0 && (p = memchr(p, 'g', (size_t)(t + n - p))); p++) {
		size_t e = (size_t)(p - t); /* the '-' or ' ' before "long", once found */

		if (e < 8 || memcmp(t + e - 3, "lon", 3) != 0)
			continue;
		e -= 4;
		if (t[e] != '-' && t[e] != ' ')
			continue;
		for (u = 0; u < ARRAY_SIZE(units); u++) {
			w = strlen(units[u]);
			if (e >= w + 2 && strncasecmp(t + e - w, units[u], w) == 0 && t[e - w - 1] == ' ')
				break;
		}
		if (u == ARRAY_SIZE(units))
			continue;
		k = e - w - 1; /* the blank before the unit */
		if (k >= 1 && (t[k - 1] | 0x20) == 'a' && (k == 1 || t[k - 2] == ' '))
			i = k - 1;
		else if (k >= 2 && (t[k - 2] | 0x20) == 'a' && t[k - 1] == 'n' && (k == 2 || t[k - 3] == ' '))
			i = k - 2;
		else
			continue;
		{
			struct said_span sp = {s, v, i, e};

			err = numlex_scan(one[u], strlen(one[u]), 0, on_said_span, &sp);
		}
	}
	return err;
}

static const char *const fold_months[] = {"January", "February", "March", "April", "May", "June",
					  "July", "August", "September", "October", "November",
					  "December"};

/* The month (1-12) whose full name ends t[0, n) after a blank, else 0. */
static unsigned month_at_end(const char *t, size_t n)
{
	size_t m, k;

	while (n > 0 && t[n - 1] == ' ')
		n--;
	for (m = 0; m < ARRAY_SIZE(fold_months); m++) {
		k = strlen(fold_months[m]);
		if (n > k && t[n - k - 1] == ' ' && strncasecmp(t + n - k, fold_months[m], k) == 0)
			return (unsigned)m + 1;
	}
	return 0;
}

struct fold_day {
	struct scan *s;
	const struct record_value *v;
	uint64_t at;
	const char *text; /* the month's name and the next line's first bytes, read together */
};

static int on_fold_day(void *ctx, const struct numlex_item *it)
{
	struct fold_day *p = ctx;
	struct ground_context gc;

	if (quantity_class_of(&it->q) != QC_DATE)
		return 0;
	record_context(p->v, 0, &gc);
	if (p->s->rec_ground == p->s->span_ground) {
		p->s->span_ground_used = true;
		p->s->span_quantities++;
	}
	return ground_add_quantity(p->s->rec_ground, &it->q, p->text + it->from, it->to - it->from, p->at, &gc);
}

/*
 * A date a folded line of YAML text splits ("... on June\n    10th 2024 at
 * 1 PM"): the reader gives each line alone, so the month ends one and the
 * day opens the next. The month's name and the next line's first bytes
 * are read together for the date they make (dates only).
 */
static int ground_folded_date(struct scan *s, const struct record_value *v)
{
	unsigned month = s->fold_month;
	char buf[64];
	size_t i = 0, k, n;

	s->fold_month = 0;
	if (v->cont || (v->kind != RECORD_PROSE && v->kind != RECORD_STRING))
		return 0;
	if (month) {
		while (i < v->len && v->text[i] == ' ')
			i++;
		if (v->kind == RECORD_PROSE && i < v->len && v->text[i] >= '1' && v->text[i] <= '9') {
			struct fold_day p = {s, v, s->fold_at, buf};
			int err;

			k = strlen(fold_months[month - 1]);
			memcpy(buf, fold_months[month - 1], k);
			buf[k++] = ' ';
			n = MIN(v->len - i, sizeof(buf) - k);
			memcpy(buf + k, v->text + i, n);
			if ((err = numlex_scan(buf, k + n, 0, on_fold_day, &p)) < 0)
				return err;
		}
	}
	if ((s->fold_month = month_at_end(v->text, v->len)))
		s->fold_at = s->rec_base + record_offset(v, v->len);
	return 0;
}

/* The most pairs of one Python dict line counted (group_dict()). */
#define DICT_PAIRS 64

/* A quoted string from t[i] ('...' or "...", "\\" escaping): its end after the close, or 0. */
static size_t py_string(const char *t, size_t i, size_t n, size_t *b, size_t *e)
{
	char q = t[i];

	if (q != '\'' && q != '"')
		return 0;
	for (*b = ++i; i < n && t[i] != q; i++)
		if (t[i] == '\\')
			i++;
	if (i >= n)
		return 0;
	*e = i;
	return i + 1;
}

/*
 * A line that is a flat Python dict of names to strings, as a tool prints
 * one ("{'New Asiaway': 'Chinese', 'Royal Panda': 'Chinese', 'Le Baratin':
 * 'French'}"; JSON reads it as prose): its values are one field's, counted
 * by value ("4 Chinese restaurants"), when the whole line is such pairs.
 */
static int group_dict(struct scan *s, const struct record_value *v)
{
	const char *t = v->text;
	size_t n = v->len, i = 0, k = 0, b, e, vb[DICT_PAIRS], ve[DICT_PAIRS];
	uint64_t field = 0x7d1c7a5e11d1c7ull ^ (s->rec_base + v->at);
	int err = 0;

	while (i < n && (t[i] == ' ' || t[i] == '{'))
		i++;
	while (i < n && k < DICT_PAIRS) {
		if (!(i = py_string(t, i, n, &b, &e)))
			return 0;
		while (i < n && t[i] == ' ')
			i++;
		if (i >= n || t[i++] != ':')
			return 0;
		while (i < n && t[i] == ' ')
			i++;
		if (i >= n || !(i = py_string(t, i, n, &vb[k], &ve[k])))
			return 0;
		k++;
		while (i < n && t[i] == ' ')
			i++;
		if (i < n && t[i] == '}') {
			i++;
			break;
		}
		if (i >= n || t[i++] != ',')
			return 0;
		while (i < n && t[i] == ' ')
			i++;
	}
	while (i < n && (t[i] == ' ' || t[i] == '\r'))
		i++;
	if (i != n || k < 2)
		return 0;
	for (i = 0; i < k && err == 0; i++)
		if (ve[i] - vb[i] <= GROUND_GROUP_VALUE)
			err = ground_group_add(s->rec_ground, field, t + vb[i], ve[i] - vb[i],
					       s->rec_base + record_offset(v, vb[i]));
	if (s->rec_ground == s->span_ground)
		s->span_ground_used = true;
	return err;
}

/* The longest bare address read ("www." and on). */
#define BARE_URL_MAX 256

/*
 * A bare address a user or a tool gives ("Read www.informations.com."):
 * grounded as the URL a reply writes for it, that host with "http://" or
 * "https://" (and the path given, if any). A word that starts "www.",
 * after no letter, digit, '.', '/' or '@', with a dot past "www."; what
 * else a reply adds (another host, a path) is no repeat.
 */
static int ground_bare_hosts(struct scan *s, const struct record_value *v)
{
	static const char *const schemes[] = {"http://", "https://"};
	char url[8 + BARE_URL_MAX];
	const char *t = v->text, *w;
	size_t n = v->len, at = 0, k, len, i;
	int err;

	/* (memchr, not memmem: most values are short, and memmem's set-up
	 * costs more than their scan) */
	while (at + 8 <= n && (w = memchr(t + at, 'w', n - at - 7))) {
		size_t from = (size_t)(w - t);

		at = from + 1;
		if (memcmp(w, "www.", 4) != 0)
			continue;
		at = from + 4;
		if (from > 0 && (isalnum((unsigned char)t[from - 1]) || t[from - 1] == '.' ||
				 t[from - 1] == '/' || t[from - 1] == '@' || t[from - 1] == '-'))
			continue;
		for (k = 0; k < ARRAY_SIZE(schemes); k++) {
			size_t sl = strlen(schemes[k]);

			len = MIN(n - from, (size_t)BARE_URL_MAX);
			memcpy(url, schemes[k], sl);
			memcpy(url + sl, t + from, len);
			len = url_end(url, sl + len);
			/* a host with a dot past "www." ("www.x.com", not "www.x") */
			for (i = sl + 4; i < len && url[i] != '/' && url[i] != '.'; i++)
				;
			if (len <= sl + 4 || i >= len || url[i] != '.' || i == sl + 4)
				break;
			if (ground_key(GROUNDING_URL, url, len, &s->key) < 0)
				return -ENOMEM;
			err = ground_add(s->rec_ground, s->key.data, s->key.len,
					 s->rec_base + record_offset(v, from));
			if (err < 0)
				return err;
			if (s->rec_ground == s->span_ground)
				s->span_ground_used = true;
			at = from + (len - sl);
		}
	}
	return 0;
}

static int on_ground_value(void *ctx, const struct record_value *v)
{
	struct scan *s = ctx;
	struct ground_attr ga;
	uint64_t field = 0; /* a short string value's field (its key's hash), else 0 */

	/* A yes or a no a record states of something its key names. */
	if ((v->kind == RECORD_BOOL || (v->kind == RECORD_STRING && !v->cont && v->len <= 16)) &&
	    attrs_of_value(s->attrs, v->words, v->n_words, v->text, v->len, v->kind == RECORD_BOOL,
			   s->rec_base + v->at, &ga)) {
		int err;

		if (s->rec_ground == s->span_ground)
			s->span_ground_used = true;
		err = ground_add_attr(s->rec_ground, &ga);
		if (err < 0 || v->kind == RECORD_BOOL)
			return err;
	}
	/* "a day before", "tomorrow": the days from another date or from
	 * today a user or a tool spoke of, against which a reply's dates are
	 * resolved. */
	if ((v->kind == RECORD_PROSE || v->kind == RECORD_STRING) && v->len >= 3) {
		int err;

		ground_note_relative(s->rec_ground, v->text, v->len);
		if (s->rec_ground == s->span_ground)
			s->span_ground_used = true;
		if ((err = ground_spans_said(s, v)) < 0)
			return err;
	}
	/* A field's value, counted: items of a list that share it ("sender":
	 * "Charlie" twice) are what "Charlie: 2 messages" counts. */
	if (v->kind == RECORD_STRING && !v->cont && v->n_words > 0 && v->len <= GROUND_GROUP_VALUE) {
		size_t i;
		int err;

		field = 0xcbf29ce484222325ull;
		for (i = 0; i < v->n_words; i++)
			for (const char *w = v->words[i]; *w; w++)
				field = (field ^ (unsigned char)*w) * 0x100000001b3ull;
		err = ground_group_add(s->rec_ground, field, v->text, v->len, s->rec_base + v->at);
		if (err < 0)
			return err;
		if (s->rec_ground == s->span_ground)
			s->span_ground_used = true;
	}
	if (v->kind == RECORD_PROSE && !v->cont && v->len >= 12 && memchr("{'\"", v->text[0], 3)) {
		int err = group_dict(s, v);

		if (err < 0)
			return err;
	}
	if ((v->kind == RECORD_PROSE || v->kind == RECORD_STRING) &&
	    record_mode(s->reader) == RECORD_MODE_TEXT) {
		int err = line_run(s, v);

		if (err == 0)
			err = dash_item(s, v);
		/* (and the item's values together: "1 in general" of Charlie's) */
		if (err == 0 && field && s->dash_n > 0)
			item_value(s, field, v);
		if (err < 0 || (err = ground_folded_date(s, v)) < 0)
			return err;
	} else {
		s->fold_month = 0;
	}
	if (v->kind == RECORD_PROSE || v->kind == RECORD_STRING) {
		int err = label_run(s, v);

		if (err < 0)
			return err;
	}
	if (v->kind == RECORD_BOOL || v->kind == RECORD_NULL || v->len == 0)
		return 0;
	if (v->kind == RECORD_COUNT)
		return ground_items(s, v);
	if (s->codes && (v->kind == RECORD_STRING || v->kind == RECORD_PROSE)) {
		int err = ground_codes(s, v);

		if (err < 0)
			return err;
	}
	if ((v->kind == RECORD_STRING || v->kind == RECORD_PROSE) && v->len >= 8) {
		int err = ground_bare_hosts(s, v);

		if (err < 0)
			return err;
	}
	if (v->kind == RECORD_STRING || v->kind == RECORD_NUMBER) {
		int err = ground_bare_phone(s, v);

		if (err < 0)
			return err;
	}
	/* A value that names or locates something ("zip", "phone", "id")
	 * counts nothing: only the phone numbers it may hold are grounded,
	 * and its digits alone as the key's name's ("ID: 7"). An id of five
	 * digits or more and nothing else ("item_id": "9612497925") is said
	 * as a number too ("item 9612497925"), and grounded as one: no count
	 * or price has that many digits by coincidence. */
	s->phones_only = false;
	if (v->n_words > 0 && names_something(v->words[v->n_words - 1])) {
		int err = ground_id_digits(s, v);

		if (err < 0)
			return err;
		s->phones_only = !digits_only(v->text, v->len, 5);
	}
	s->rec_value = v;
	numlex_periods_reset(&s->periods);
	s->per_mark = s->per_end = ground_next_seq(s->rec_ground);
	return numlex_scan(v->text, v->len, v->cont ? 0 : NUMLEX_LINE_START, on_ground_item, s);
}

/* Starts reading a span's content (at offset at) or a source into g. */
static void reader_begin(struct scan *s, struct ground *g, uint64_t at)
{
	record_reset(s->reader);
	s->rec_ground = g;
	s->rec_on = true;
	s->rec_at = s->rec_base = at;
	s->rec_seq = ground_next_seq(g);
	s->run_n = 0;
	s->dash_n = 0;
	s->lab_n = 0;
	s->lab_pend_n = 0;
	s->n_item = 0;
	s->item_over = false;
	s->fold_month = 0;
}

/* Feeds the reader the open span's bytes up to offset to (still in the window). */
static int reader_catch_up(struct scan *s, uint64_t to)
{
	const char *p;
	size_t n;
	int err;

	if (!s->rec_on || to <= s->rec_at)
		return 0;
	p = window_get(&s->win, s->rec_at, to, &n);
	s->rec_at = to;
	err = record_feed(s->reader, p, n, on_ground_value, s);
	if (err)
		s->rec_on = false;
	return err;
}

static int reader_end(struct scan *s, uint64_t to)
{
	int err = reader_catch_up(s, to);

	if (!err && s->rec_on)
		err = record_end(s->reader, on_ground_value, s);
	if (!err && s->rec_on)
		err = line_run_end(s);
	if (!err && s->rec_on)
		err = dash_end(s);
	if (!err && s->rec_on)
		err = label_run_end(s);
	s->run_n = 0;
	s->dash_n = 0;
	s->rec_on = false;
	return err;
}

/* Columns of held matches, counted along their lines as they are decided, in order. */
struct columns {
	uint64_t line_start, at, cp;
};

/* A held event decided as the model's text. */
static int agent_event(struct scan *s, const struct held_event *e, struct columns *c)
{
	const struct db *db = s->db;
	uint64_t column = e->column;

	if (e->id == db->line_id)
		return claims_line(s->claims, e->from + 1);
	if (e->id == db->sentence_id)
		return claims_mark(s->claims, e->from, e->to);
	if (e->line_start != NO_LINE) {
		const char *p;
		size_t n;

		if (e->line_start != c->line_start)
			*c = (struct columns){e->line_start, e->line_start, 0};
		p = window_get(&s->win, c->at, e->from, &n);
		c->cp += utf8_count(p, n);
		c->at = e->from;
		column = c->cp + 1;
	}
	return claims_add(s->claims, e->id - db->first_rule_id, e->from, e->to, e->line, column);
}

/*
 * Decides the held events as the model's text: while the span is still
 * open (ground: what they say is set aside in span_ground, for the span may
 * yet close), or when the input ended with it open.
 */
static int decide_held(struct scan *s, bool ground)
{
	unsigned first = (unsigned)s->db->first_rule_id;
	struct columns c = {NO_LINE, 0, 0};
	size_t i;
	int err = 0;

	if (ground && !s->span_ground) {
		err = ground_new(&s->span_ground);
		if (err < 0)
			return err;
	}
	for (i = 0; i < s->n_hold && err == 0; i++) {
		const struct held_event *e = &s->hold[i];

		if (ground && e->id >= first) {
			s->span_ground_used = true;
			err = ground_match(s, s->span_ground, e->id, e->from, e->to);
			if (err)
				break;
		}
		err = agent_event(s, e, &c);
	}
	s->n_hold = 0;
	/* Every event before the cursor is decided now: claims may catch up. */
	return err ? err : claims_advance(s->claims, s->cur);
}

/* Holds an event of the open span (decided before its bytes leave the window). */
static int hold_span_event(struct scan *s, unsigned id, uint64_t from, uint64_t to)
{
	struct held_event *e;

	if (grow(&s->hold, &s->cap_hold, s->n_hold + 1, sizeof(*s->hold)) < 0)
		return -ENOMEM;
	e = &s->hold[s->n_hold++];
	*e = (struct held_event){.id = id, .from = from, .to = to, .line = s->line + 1,
				 .line_start = s->line_start};
	/* A reference trigger says nothing by itself: the entries of its line are counted as keys. */
	if (id >= s->db->first_rule_id &&
	    s->rs->rules[id - s->db->first_rule_id].grounding != GROUNDING_REFERENCE) {
		s->span_matches++;
		if (s->line_start < s->win.base) {
			e->line_start = NO_LINE;
			e->column = column(s, from);
		}
	}
	return s->n_hold == HOLD_CAP ? decide_held(s, true) : 0;
}

static int open_span(struct scan *s, uint64_t from, uint64_t to)
{
	int err;

	s->open_line = s->line + 1;
	s->open_column = column(s, from);
	err = claims_break(s->claims, from);
	claims_tool_output(s->claims, true);
	s->deferring = true;
	s->span_matches = s->span_quantities = 0;
	s->exempted_at_open = claims_exempted(s->claims);
	s->repeats_at_open = claims_repeats(s->claims);
	if (!err && !s->span_ground)
		err = ground_new(&s->span_ground);
	if (!err)
		reader_begin(s, s->span_ground, to);
	return err;
}

/* The open span closed at [from, to): its content was the tool's after all. */
static int close_span(struct scan *s, uint64_t from, uint64_t to)
{
	unsigned first = (unsigned)s->db->first_rule_id;
	uint64_t line_from;
	size_t i;
	int err;

	/* What was decided of it as the model's text is dropped, and not counted. */
	err = claims_break(s->claims, from);
	/* Its quantities, with what it said of them. */
	if (!err)
		err = reader_end(s, from);
	drop_deferred(s);
	s->deferring = false;
	s->tool_exempted += claims_exempted(s->claims) - s->exempted_at_open;
	s->tool_repeats += claims_repeats(s->claims) - s->repeats_at_open;
	/* What it said grounds the rest of the input, in the order it was said. */
	if (!err && s->span_ground_used) {
		err = ground_merge(s->ground, s->span_ground);
		ground_reset(s->span_ground);
		s->span_ground_used = false;
	}
	/* A line of it is read for entries up to the span's ends, never the model's text beside them. */
	s->ground_lo = line_from = s->spans.open_to;
	s->ground_hi = from;
	for (i = 0; i < s->n_hold && !err; i++)
		if (s->hold[i].id >= first) {
			err = ground_match(s, s->ground, s->hold[i].id, s->hold[i].from, s->hold[i].to);
		} else if (s->hold[i].id == s->db->line_id) {
			err = s->refs ? ground_line(s, s->ground, line_from, s->hold[i].from, true) : 0;
			line_from = s->hold[i].from + 1;
			if (!err)
				err = claims_line(s->claims, s->hold[i].from + 1);
		}
	/* The line the span closes on, up to the closer. */
	if (!err && s->refs)
		err = ground_line(s, s->ground, line_from, from, true);
	s->ground_lo = 0;
	s->ground_hi = UINT64_MAX;
	s->n_hold = 0;
	s->grounded += s->span_matches + s->span_quantities;
	ground_activate(s->ground);
	if (!err)
		err = claims_break(s->claims, to);
	claims_tool_output(s->claims, false);
	return err;
}

/* A delimiter without the run's nonce, outside any span: the model wrote it. */
static int report_spoofed(struct scan *s, unsigned id, const char *text, size_t n,
			  uint64_t from, uint64_t to)
{
	const struct span_delim *sd = &s->rs->spans[id / 2];
	struct finding f = {
		.signal = SIGNAL_SPOOFED, .signal_index = s->rs->n_signals + SCAN_SIGNAL_SPOOFED,
		.rule_id = RULE_SPOOFED, .severity = SEV_BLOCK,
		.start = from, .end = to, .line = s->line + 1, .column = column(s, from),
		.text = text, .text_len = n,
	};

	s->msg.len = s->rec.len = 0;
	if (buf_addf(&s->msg, "\"%.*s\" is a %s %s without this run's nonce: the model wrote "
		     "it, so the text around it is checked as the model's", (int)n, text, sd->name,
		     id % 2 ? "closer" : "opener") < 0 ||
	    buf_addf(&s->rec, "do not write tool-output delimiters: say what a tool returned in "
		     "prose and cite it, or remove the claim (a harness marks real tool output "
		     "with its nonce)") < 0)
		return -ENOMEM;
	f.message = s->msg.data;
	f.recovery = s->rec.data;
	return report(s, &f);
}

static int on_delimiter(struct scan *s, unsigned id, uint64_t from, uint64_t to)
{
	size_t n;
	const char *text = window_get(&s->win, from, to, &n);
	int err;

	switch (spans_delimiter(&s->spans, id, text, n, from, to)) {
	case SPAN_OPENED:
		return open_span(s, from, to);
	case SPAN_CLOSED:
		return close_span(s, from, to);
	case SPAN_SPOOFED:
		/* Findings come in order of offset: those before it first. */
		err = claims_break(s->claims, from);
		return err ? err : report_spoofed(s, id, text, n, from, to);
	default:
		return 0;
	}
}

/*
 * Runs the match of rule r (extend: url) that starts at from to the end of
 * its URL, as the regex of a URL would have: within the line and the
 * engine's longest match, and never starting inside the rule's last URL
 * (a regex's matches do not overlap). False: no URL starts there. The
 * engine delivers a match once its line has ended or ENGINE_MAX_MATCH
 * bytes have followed it, so the window holds all that url_end() reads.
 */
static bool extend_url(struct scan *s, size_t r, uint64_t from, uint64_t *to)
{
	const char *p;
	size_t n, len;

	if (from < s->ext_end[r])
		return false;
	if (from < s->win.base)
		return true; /* (cannot be: KEEP holds far more) the start, still a finding */
	p = window_get(&s->win, from, from + ENGINE_MAX_MATCH, &n);
	len = url_end(p, n);
	if (len == 0)
		return false;
	*to = from + len;
	s->ext_end[r] = *to;
	return true;
}

static int on_match_rest(struct scan *s, unsigned id, uint64_t from, uint64_t to);

/*
 * The engine's every line break and sentence mark of the model's text, and
 * its matches. The breaks and marks, ten to a hundred times as many as the
 * matches, go straight on here; the rest is on_match_rest().
 */
static int on_match(void *ctx, unsigned id, uint64_t from, uint64_t to)
{
	struct scan *s = ctx;
	const struct db *db = s->db;

	/* (both ids are below every rule's: no pressure rule is among them) */
	if (!s->source_mode && !s->spans.open) {
		if (id == db->line_id) {
			advance(s, from);
			s->line++;
			s->line_start = from + 1;
			return claims_line(s->claims, from + 1);
		}
		if (id == db->sentence_id && !spans_markup(&s->spans, from)) {
			advance(s, from);
			return claims_mark(s->claims, from, to);
		}
	}
	return on_match_rest(s, id, from, to);
}

static __attribute__((noinline)) int on_match_rest(struct scan *s, unsigned id, uint64_t from,
						   uint64_t to)
{
	const struct db *db = s->db;

	if (id >= db->first_rule_id) {
		const struct rule *r = &s->rs->rules[id - db->first_rule_id];

		/* A rule for context pressure is not there without it: not even grounded. */
		if (!s->pressure && r->pressure == PRESSURE_ONLY)
			return 0;
		if (r->extend == EXTEND_URL && !extend_url(s, id - db->first_rule_id, from, &to))
			return 0;
	}
	/* A source is grounding only: no line, sentence or claim of it counts. */
	if (s->source_mode) {
		if (id == db->line_id) {
			uint64_t line_from = s->source_line;

			s->source_line = from + 1;
			return s->refs ? ground_line(s, s->sources, line_from, from, true) : 0;
		}
		return id >= db->first_rule_id ? ground_match(s, s->sources, id, from, to) : 0;
	}
	advance(s, from);
	if (id == db->line_id) {
		s->line++;
		s->line_start = from + 1;
		return s->spans.open ? hold_span_event(s, id, from, from + 1) : claims_line(s->claims, from + 1);
	}
	if (id < db->sentence_id)
		return on_delimiter(s, id, from, to);
	if (spans_markup(&s->spans, from))
		return 0; /* inside a tool span's own delimiter: neither the tool's nor the model's */
	if (s->spans.open)
		return hold_span_event(s, id, from, to);
	if (id == db->sentence_id)
		return claims_mark(s->claims, from, to);
	return claims_add(s->claims, id - db->first_rule_id, from, to, s->line + 1,
			  column(s, from));
}

/* Starts a new input: scan_end() left the last one's counts readable. */
static void reset(struct scan *s)
{
	s->ended = false;
	memset(s->ext_end, 0, s->rs->n_rules * sizeof(*s->ext_end));
	s->limit_hits_before = engine_stream_limit_hits(s->es);
	s->win.len = 0;
	s->win.base = 0;
	s->cur = s->line = s->line_start = s->col_at = s->col_cp = 0;
	s->bytes = s->findings = s->grounded = 0;
	s->verdict = SEV_NONE;
	memset(s->counts, 0, scan_n_signals(s->rs) * sizeof(*s->counts));
	spans_reset(&s->spans);
	s->n_hold = 0;
	s->deferring = false;
	s->ground_lo = 0;
	s->ground_hi = UINT64_MAX;
	drop_deferred(s);
	if (s->span_ground_used)
		ground_reset(s->span_ground);
	s->span_ground_used = false;
	s->span_matches = s->tool_exempted = s->tool_repeats = 0;
	s->rec_on = false;
	record_reset(s->reader);
	s->ref_line_start = UINT64_MAX;
	s->ref_ground = NULL;
	claims_reset(s->claims);
	s->pending = 0;
	/* Sources ground the whole input: number checks run from its start.
	 * The input's set is made from them when it starts (sync_ground()):
	 * a run of tool messages between two replies asks for it once. */
	s->ground_stale = s->have_sources;
	if (!s->have_sources)
		ground_reset(s->ground);
	/* Under pressure its rules (in the late database) run from the start,
	 * as do rules that wake on different literals. */
	s->woken = s->pressure || (s->wake_len && !s->wake);
	s->wake_clear = 0;
	s->wake_hit = false;
	if (s->woken && !s->pending)
		s->pending = engine_stream_wake(s->es, NULL, 0, 0, 0);
}

/*
 * Wakes the late database at the first wake literal of the input, found in
 * the piece that ends at the window's end and the bytes before it: the
 * rules that wake on it scan from there on, which is where every match of
 * theirs starts at the earliest. What the caller has already looked at
 * (scan_wake_known) is not looked at again.
 */
static int wake_on_literal(struct scan *s, size_t n)
{
	uint64_t at = s->win.base + s->win.len - n, from = at >= s->wake_len ? at - s->wake_len + 1 : 0;
	/* Where a literal that starts before lim ends in the bytes read. */
	uint64_t lim = at + n >= s->wake_len ? at + n - s->wake_len + 1 : 0, hit_at;
	size_t held;
	const char *text, *hit;

	if (s->wake_clear >= lim)
		return 0; /* (a hit at wake_clear is not all read yet) */
	if (s->wake_hit) {
		hit_at = s->wake_clear;
	} else {
		from = MAX(from, s->wake_clear);
		text = window_get(&s->win, from, at + n, &held);
		hit = find_literal(text, held, s->wake, s->wake_len);
		if (!hit) {
			s->wake_clear = lim;
			return 0;
		}
		hit_at = s->win.base + (uint64_t)(hit - s->win.data);
	}
	s->woken = true;
	from = MIN(at, hit_at);
	text = window_get(&s->win, from, at, &held);
	return engine_stream_wake(s->es, held ? text : NULL, held, from, from);
}

void scan_wake_known(struct scan *s, const char *lit, size_t k, uint64_t clear, bool hit)
{
	if (s->ended)
		reset(s);
	/* Only news about bytes not yet looked at here, of this literal. */
	if (s->woken || !s->wake || k != s->wake_len || memcmp(lit, s->wake, k) != 0 ||
	    clear < s->wake_clear || (clear == s->wake_clear && !hit) || s->wake_hit)
		return;
	s->wake_clear = clear;
	s->wake_hit = hit;
}

bool scan_on_lines(struct scan *s, engine_lines_fn fn, void *ctx)
{
	return engine_stream_on_lines(s->es, fn, ctx);
}

/* What the claims judge by, from the compiled database. */
static struct claims_rules claims_rules_of(const struct db *db)
{
	return (struct claims_rules){.rs = db->rs, .attrs = db->attrs, .refs = db->refs,
				     .exempt = db->exempt, .exempt_len = db->exempt_len};
}

int scan_new(const struct db *db, const struct policy *pol, scan_finding_fn fn, void *ctx,
	     struct scan **out)
{
	struct scan *s = calloc(1, sizeof(*s));
	struct claims_rules cr;
	int err = -ENOMEM;

	if (!s)
		return -ENOMEM;
	s->db = db;
	s->rs = db->rs;
	s->pol = pol;
	s->fn = fn;
	s->ctx = ctx;
	for (size_t i = 0; i < s->rs->n_rules; i++) {
		const char *w = s->rs->rules[i].wake_on;

		/* On PCRE2 a rule runs all along: its engine skips the lines
		 * without its literal itself. */
		if (!w || engine_is_pcre2(db->engine, db->first_rule_id + i))
			continue;
		if (s->wake_len && (!s->wake || strcmp(s->wake, w) != 0))
			s->wake = NULL; /* a second literal: every input wakes it */
		else if (!s->wake_len)
			s->wake = w;
		s->wake_len = s->wake ? strlen(s->wake) : 1;
	}
	s->counts = calloc(scan_n_signals(s->rs), sizeof(*s->counts));
	s->ext_end = calloc(s->rs->n_rules ? s->rs->n_rules : 1, sizeof(*s->ext_end));
	s->win.data = malloc(WINDOW_CAP);
	s->win.cap = WINDOW_CAP;
	if (!s->counts || !s->ext_end || !s->win.data)
		goto fail;
	err = spans_init(&s->spans, s->rs, NULL);
	if (err < 0)
		goto fail;
	err = engine_stream_new(db->engine, &s->es);
	if (err < 0)
		goto fail;
	err = ground_new(&s->ground);
	if (err < 0)
		goto fail;
	err = record_new(&s->reader);
	if (err < 0)
		goto fail;
	cr = claims_rules_of(db);
	err = claims_new(&cr, &s->win, s->ground, false, on_claim_item, s, &s->claims);
	if (err < 0)
		goto fail;
	s->attrs = db->attrs;
	s->refs = db->refs;
	for (size_t r = 0; r < s->rs->n_rules; r++)
		s->codes |= s->rs->rules[r].grounding == GROUNDING_CODE;
	reset(s);
	*out = s;
	return 0;
fail:
	scan_free(s);
	return err;
}

void scan_free(struct scan *s)
{
	if (!s)
		return;
	engine_stream_free(s->es);
	record_free(s->reader);
	bib_free(s->bib);
	claims_free(s->claims);
	refs_free(s->own_refs);
	ground_free(s->ground);
	ground_free(s->sources);
	ground_free(s->span_ground);
	spans_fini(&s->spans);
	free(s->hold);
	free(s->defer);
	buf_free(&s->defer_text);
	buf_free(&s->key);
	free(s->counts);
	free(s->ext_end);
	free(s->win.data);
	buf_free(&s->msg);
	buf_free(&s->rec);
	buf_free(&s->tmp);
	free(s);
}

int scan_span_nonce(struct scan *s, const char *nonce)
{
	return spans_init(&s->spans, s->rs, nonce);
}

int scan_show_grounded(struct scan *s, bool on)
{
	struct claims_rules cr;
	struct claims *c;
	int err;

	cr = claims_rules_of(s->db);
	err = claims_new(&cr, &s->win, s->ground, on, on_claim_item, s, &c);
	if (err < 0)
		return err;
	claims_set_claim_fn(c, s->claim_fn, s->claim_ctx);
	claims_pressure(c, s->pressure);
	claims_set_bib(c, s->bib);
	claims_free(s->claims);
	s->claims = c;
	return 0;
}

void scan_pressure(struct scan *s, bool on)
{
	s->pressure = on;
	claims_pressure(s->claims, on);
	/* The pressure rules are in the late database (db.c): scanned from the
	 * input's start (this is called between inputs; reset() wakes it again
	 * for the next). */
	if (on && !s->pending)
		s->pending = engine_stream_wake(s->es, NULL, 0, 0, 0);
	s->woken |= on;
}

bool scan_pressured(const struct scan *s)
{
	return s->pressure;
}

int scan_add_bib(struct scan *s, const char *name, const void *data, size_t len, struct diag *d)
{
	int err;

	/* Titles are normalized with the packs' stop words, as entries are. */
	if (!s->refs && (err = refs_new(s->rs, &s->own_refs, d)) < 0)
		return err;
	if (!s->refs)
		s->refs = s->own_refs;
	if (!s->bib && (err = bib_new(s->refs, &s->bib)) < 0)
		return err;
	err = bib_add(s->bib, name, data, len, d);
	claims_set_bib(s->claims, s->bib);
	return err;
}

void scan_claims(struct scan *s, claims_claim_fn fn, void *ctx)
{
	s->claim_fn = fn;
	s->claim_ctx = ctx;
	claims_set_claim_fn(s->claims, fn, ctx);
}

void scan_clear_sources(struct scan *s)
{
	/* Kept for the next sources: a caller that sets them per message
	 * would otherwise allocate and fault in a megabyte each time. */
	if (s->sources)
		ground_reset(s->sources);
	s->have_sources = false;
	s->n_src_seen = 0;
	bib_free(s->bib);
	s->bib = NULL;
	claims_set_bib(s->claims, NULL);
	reset(s);
}

/* The bytes of a source hashed to know it said again: enough to tell results apart. */
#define SOURCE_HASHED 4096

int scan_source_begin(struct scan *s)
{
	int err;

	if (!s->sources) {
		err = ground_new(&s->sources);
		if (err < 0)
			return err;
	}
	ground_activate(s->sources);
	ground_begin_text(s->sources);
	s->have_sources = true;
	s->source_mode = true;
	s->src_hash = 0xcbf29ce484222325ull;
	s->src_len = 0;
	s->win.len = 0;
	s->win.base = 0;
	s->ref_line_start = UINT64_MAX; /* offsets start again at 0 */
	memset(s->ext_end, 0, s->rs->n_rules * sizeof(*s->ext_end));
	s->source_line = 0;
	reader_begin(s, s->sources, 0);
	return 0;
}

void scan_source_turn(struct scan *s)
{
	if (s->sources)
		ground_turn(s->sources);
	s->n_src_seen = 0;
}

/* Hashes the source's first SOURCE_HASHED bytes, and counts them all. The
 * same text fed in the same pieces (a message, as chat input feeds it) hashes
 * the same; fed otherwise it may not, and is then counted again. */
static void source_hash(struct scan *s, const char *p, size_t len)
{
	size_t i, n = s->src_len < SOURCE_HASHED ? MIN(len, SOURCE_HASHED - (size_t)s->src_len) : 0;
	uint64_t h = s->src_hash;

	/* (eight bytes a step: a text fed in the same pieces hashes the same) */
	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
	s->src_hash = h;
	s->src_len += len;
}

/*
 * The source ends: one that says again what one of the turn said before
 * (the same length, the same first bytes: a tool called twice) counts its
 * items of the groups once (ground_groups_unsay()).
 */
static void source_seen(struct scan *s)
{
	uint32_t i, n = MIN(s->n_src_seen, (uint32_t)ARRAY_SIZE(s->src_seen));

	if (s->src_len == 0)
		return;
	for (i = 0; i < n; i++)
		if (s->src_seen[i].hash == s->src_hash && s->src_seen[i].len == s->src_len) {
			ground_groups_unsay(s->sources);
			return;
		}
	s->src_seen[s->n_src_seen++ % ARRAY_SIZE(s->src_seen)].hash = s->src_hash;
	s->src_seen[(s->n_src_seen - 1) % ARRAY_SIZE(s->src_seen)].len = s->src_len;
}

int scan_source_feed(struct scan *s, const void *buf, size_t len)
{
	const char *p = buf;
	int err = 0;

	while (len > 0 && !err) {
		size_t n = len < PIECE ? len : PIECE;

		/* The window only needs what the engine may still report on. */
		if (s->win.len + n > s->win.cap) {
			size_t drop = s->win.len - KEEP;

			memmove(s->win.data, s->win.data + drop, s->win.len - drop);
			s->win.len -= drop;
			s->win.base += drop;
		}
		memcpy(s->win.data + s->win.len, p, n);
		s->win.len += n;
		source_hash(s, p, n);
		err = engine_stream_feed(s->es, p, n, on_match, s);
		if (!err && s->rec_on)
			err = record_feed(s->reader, p, n, on_ground_value, s);
		p += n;
		len -= n;
	}
	return err;
}

int scan_source_end(struct scan *s)
{
	int err = 0;

	if (s->source_mode) {
		err = engine_stream_end(s->es, on_match, s);
		if (!err && s->rec_on)
			err = record_end(s->reader, on_ground_value, s);
		if (!err && s->rec_on)
			err = dash_end(s);
		if (!err && s->rec_on)
			err = label_run_end(s);
		/* The last line, when no line break ends it. */
		if (!err && s->refs)
			err = ground_line(s, s->sources, s->source_line, s->win.base + s->win.len, true);
		if (!err)
			source_seen(s);
	}
	s->rec_on = false;
	s->source_mode = false;
	reset(s);
	return err;
}

int scan_add_source(struct scan *s, const void *buf, size_t len)
{
	int err = scan_source_begin(s), end;

	if (!err)
		err = scan_source_feed(s, buf, len);
	end = scan_source_end(s);
	return err ? err : end;
}

/* Makes room for n more bytes, keeping KEEP bytes of history. */
static int make_room(struct scan *s, size_t n)
{
	size_t drop;

	if (s->win.len + n <= s->win.cap)
		return 0;
	/* An open span's held events are decided while their bytes are here. */
	if (s->n_hold > 0) {
		int err = decide_held(s, true);

		if (err)
			return err;
	}
	drop = s->win.len - KEEP;
	/* The cursor and columns must be past what is dropped (the engine has
	 * delivered everything there: its watermark is far closer), and an
	 * open span's bytes read for their quantities. */
	advance(s, s->win.base + drop);
	count_columns(s, s->win.base + drop);
	claims_keep_columns(s->claims, s->win.base + drop);
	if (s->spans.open) {
		int err = reader_catch_up(s, s->win.base + drop);

		if (err)
			return err;
	}
	memmove(s->win.data, s->win.data + drop, s->win.len - drop);
	s->win.len -= drop;
	s->win.base += drop;
	return 0;
}

/* The input's grounding set: the sources', as they are when it starts. */
static int sync_ground(struct scan *s)
{
	if (s->ground_stale && !s->pending) {
		s->ground_stale = false;
		s->pending = MIN(ground_sync(s->ground, s->sources), 0);
	}
	return s->pending;
}

int scan_feed(struct scan *s, const void *buf, size_t len)
{
	const char *p = buf;
	int err;

	if (s->ended)
		reset(s);
	if (sync_ground(s))
		return s->pending;
	while (len > 0) {
		size_t n = len < PIECE ? len : PIECE;

		err = make_room(s, n);
		if (err)
			return err;
		memcpy(s->win.data + s->win.len, p, n);
		s->win.len += n;
		s->bytes += n;
		err = s->woken || !s->wake ? 0 : wake_on_literal(s, n);
		if (err)
			return err;
		err = engine_stream_feed(s->es, p, n, on_match, s);
		if (err)
			return err;
		/* Everything before the watermark is settled: decide up to it
		 * (unless events held in an open span come first). */
		advance(s, engine_stream_watermark(s->es));
		err = s->n_hold ? 0 : claims_advance(s->claims, s->cur);
		if (err)
			return err;
		p += n;
		len -= n;
	}
	return 0;
}

int scan_reset(struct scan *s)
{
	int err = engine_stream_reset(s->es);

	s->source_mode = false;
	reset(s);
	if (err)
		s->pending = err;
	return s->pending;
}

/*
 * The span left open. It blocks wherever anything could: its text went
 * unvouched, and a gate that can fail must not pass a cut-off transcript
 * (--claims can fail an input, a spoofed delimiter under a nonce always
 * blocks, and no claim is made inside a span).
 */
static int report_unterminated(struct scan *s)
{
	const struct span_delim *sd = &s->rs->spans[s->spans.pair];
	bool blocks = policy_can_block(s->pol) || s->claim_fn || s->spans.nonce;
	struct finding f = {
		.signal = SIGNAL_UNTERMINATED,
		.signal_index = s->rs->n_signals + SCAN_SIGNAL_UNTERMINATED,
		.rule_id = RULE_UNTERMINATED, .severity = blocks ? SEV_BLOCK : SEV_WARN,
		.start = s->spans.open_from, .end = s->bytes,
		.line = s->open_line, .column = s->open_column,
		.text = sd->open, .text_len = strlen(sd->open),
	};

	s->msg.len = s->rec.len = 0;
	if (buf_addf(&s->msg, "tool span %s%s opened at line %llu is never closed: nothing vouched "
		     "for the text after it, so its %llu match(es) were checked as the model's text",
		     sd->open, s->spans.nonce ? " (with this run's nonce)" : "",
		     (unsigned long long)s->open_line, (unsigned long long)s->span_matches) < 0 ||
	    (s->defer_over && buf_addf(&s->msg, "; %llu finding(s) past the first %zu in it are not "
				       "listed", (unsigned long long)s->defer_over, s->n_defer) < 0) ||
	    buf_addf(&s->rec, "close the span with %s where the tool output ends, or check "
		     "that the transcript was not cut off", sd->close) < 0)
		return -ENOMEM;
	f.message = s->msg.data;
	f.recovery = s->rec.data;
	return report(s, &f);
}

int scan_end(struct scan *s, struct scan_summary *sum)
{
	uint64_t limit_hits;
	bool open;
	int err;

	if (s->ended)
		reset(s);
	if (sync_ground(s))
		return s->pending;
	err = engine_stream_end(s->es, on_match, s);
	advance(s, s->bytes);
	open = s->spans.open;
	if (open) {
		/* Nothing vouched for it: its text is the model's, numbers and all. */
		s->rec_on = false;
		claims_tool_output(s->claims, false);
	}
	if (!err && open)
		err = decide_held(s, false);
	if (!err)
		err = claims_break(s->claims, s->bytes);
	if (!err && open)
		err = flush_deferred(s);
	if (!err && open)
		err = report_unterminated(s);
	limit_hits = engine_stream_limit_hits(s->es) - s->limit_hits_before;
	/* Matches may be missing: the input cannot pass as clean. */
	if (limit_hits > 0 && s->verdict < SEV_WARN)
		s->verdict = SEV_WARN;
	*sum = (struct scan_summary){
		.bytes = s->bytes, .findings = s->findings, .signal_counts = s->counts,
		.verdict = s->verdict, .exempted = claims_exempted(s->claims) - s->tool_exempted,
		.grounded = s->grounded, .repeats = claims_repeats(s->claims) - s->tool_repeats,
		.ground_evictions = ground_evictions(s->ground), .spans = s->spans.n_spans,
		.unterminated_spans = open ? 1 : 0,
		.limit_hits = limit_hits,
		.claims = claims_counts(s->claims),
	};
	s->ended = true;
	return err;
}

/* What one example gave for the rule under test. */
struct probe {
	const struct rule *rule;
	const char *want; /* exact text wanted, or NULL */
	size_t hits, exact;
	char got[128];    /* the first finding's text, for the message */
};

static int on_probe(void *ctx, const struct finding *f)
{
	struct probe *p = ctx;

	if (f->rule != p->rule)
		return 0;
	if (p->hits++ == 0)
		snprintf(p->got, sizeof(p->got), "%.*s", (int)MIN(f->text_len, 100), f->text);
	if (p->want && strlen(p->want) == f->text_len && memcmp(p->want, f->text, f->text_len) == 0)
		p->exact++;
	return 0;
}

static int check_one(struct scan *sc, struct probe *p, const struct example *ex, bool positive,
		     struct diag *d)
{
	struct scan_summary sum;
	int err;

	p->want = ex->match;
	p->hits = p->exact = 0;
	p->got[0] = '\0';
	err = scan_feed(sc, ex->text, strlen(ex->text));
	if (!err)
		err = scan_end(sc, &sum);
	if (err)
		return err;
	if (positive && p->hits == 0)
		return diag_set(d, -EINVAL, "%s:%u:%u: rule \"%s\": example does not match: \"%.80s\"",
				ex->at.file, ex->at.line, ex->at.col, p->rule->id, ex->text);
	if (positive && ex->match && p->exact == 0)
		return diag_set(d, -EINVAL, "%s:%u:%u: rule \"%s\": example matches \"%s\", not \"%s\"",
				ex->at.file, ex->at.line, ex->at.col, p->rule->id, p->got, ex->match);
	if (!positive && p->hits > 0)
		return diag_set(d, -EINVAL, "%s:%u:%u: rule \"%s\": negative example matches \"%s\"",
				ex->at.file, ex->at.line, ex->at.col, p->rule->id, p->got);
	return 0;
}

/* --fix over a fix example: what fix_run() needs, from a scan of its own. */
struct fix_probe {
	const struct ruleset *rs;
	struct scan *sc;
	struct fix_list *list;
};

static int on_fix_probe(void *ctx, const struct finding *f)
{
	struct fix_probe *fp = ctx;

	if (f->grounded)
		return 0;
	return fix_list_add(fp->list, fp->rs, f->start, f->end, f->rule_id, f->signal, f->source,
			    f->also, f->n_also);
}

static int fix_probe_scan(void *ctx, const char *text, size_t len, struct fix_list *list)
{
	struct fix_probe *fp = ctx;
	struct scan_summary sum;
	int err;

	fix_list_clear(list);
	fp->list = list;
	err = scan_feed(fp->sc, text, len);
	return err ? err : scan_end(fp->sc, &sum);
}

/* Each fix example, repaired whole, must read as its "fixed". */
static int check_fix_examples(const struct db *db, struct policy *pol, struct diag *d)
{
	const struct ruleset *rs = db->rs;
	struct fix_probe fp = {.rs = rs};
	struct fix_result res = {0};
	size_t i, j;
	int err = 0;

	for (i = 0; i < rs->n_rules && err == 0; i++) {
		const struct rule *r = &rs->rules[i];

		for (j = 0; j < r->n_fix_examples && err == 0; j++) {
			const struct example *ex = &r->fix_examples[j];

			if (!fp.sc)
				err = scan_new(db, pol, on_fix_probe, &fp, &fp.sc);
			if (err)
				break;
			scan_pressure(fp.sc, r->pressure == PRESSURE_ONLY);
			err = fix_run(ex->text, strlen(ex->text), fix_probe_scan, &fp, &res);
			if (err == 0 && strcmp(res.out.data, ex->match) != 0)
				err = diag_set(d, -EINVAL, "%s:%u:%u: rule \"%s\": fix example gives "
					       "\"%.100s\", not \"%.100s\"", ex->at.file, ex->at.line,
					       ex->at.col, r->id, res.out.data, ex->match);
			fix_result_free(&res);
		}
	}
	scan_free(fp.sc);
	return err;
}

int scan_check_examples(const struct db *db, struct diag *d)
{
	const struct ruleset *rs = db->rs;
	struct policy *pol = policy_new(rs);
	struct probe p = {0};
	struct scan *sc = NULL;
	size_t i, j;
	int err;

	if (!pol)
		return -ENOMEM;
	/* The built-in rules' examples are decoded only now (rules.h): the
	 * ruleset is the caller's own still, not yet shared between threads. */
	err = ruleset_load_examples((struct ruleset *)rs);
	if (err < 0) {
		policy_free(pol);
		return diag_set(d, err, "the rules' examples: %s", strerror(-err));
	}
	err = scan_new(db, pol, on_probe, &p, &sc);
	for (i = 0; i < rs->n_rules && err == 0; i++) {
		const struct rule *r = &rs->rules[i];

		/* A rule for pressure shows what it finds under pressure. */
		scan_pressure(sc, r->pressure == PRESSURE_ONLY);
		p.rule = r;
		for (j = 0; j < r->n_examples && err == 0; j++)
			err = check_one(sc, &p, &r->examples[j], true, d);
		for (j = 0; j < r->n_negatives && err == 0; j++)
			err = check_one(sc, &p, &r->negatives[j], false, d);
	}
	scan_free(sc);
	if (err == 0)
		err = check_fix_examples(db, pol, d);
	policy_free(pol);
	return err ? err : triggers_check(rs, d);
}
