// SPDX-License-Identifier: MIT
/*
 * The pipeline: bytes -> engine -> spans -> claims -> policy -> findings; the driver that
 * feeds each stage and hands on what it finds.
 */
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
#include "ground/bib.h"
#include "ground/ground_unit.h"
#include "ground/refs.h"
#include "ground/spans.h"
#include "match/engine.h"
#include "match/triggers.h"

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
	bool source_mode;           /* scanning a source: every match grounds */
	/* The source read now: a hash of its first SOURCE_HASHED bytes, and
	 * its length; and those of the turn's sources before (a ring), to
	 * know a text said again (scan_source_end()). */
	uint64_t src_hash, src_len;
	struct { uint64_t hash, len; } src_seen[16];
	uint32_t n_src_seen;
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
	scan_claim_fn claim_fn;     /* --claims */
	void *claim_ctx;
	struct spans spans;
	struct window win;
	/*
	 * An open span's content is the tool's when the span closes, and the
	 * model's when the input ends first: nothing vouched for it. Its events
	 * wait undecided (hold). Those decided early (too many, or their bytes
	 * leaving the window) have their findings kept aside (defer), and what
	 * they would ground the unit sets aside (ground_unit.h), until the
	 * span's fate is known.
	 */
	struct held_event *hold;
	size_t n_hold, cap_hold;
	bool deferring;             /* findings go to defer, not out */
	struct deferred *defer;
	size_t n_defer, cap_defer;
	struct buf defer_text;
	uint64_t defer_over;        /* findings past the caps, only counted */
	uint64_t span_matches;      /* rule matches in the open span */
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
	enum severity verdict;
	struct buf msg, rec, tmp;
	/* Reads a tool span's content or a source into a set (ground_unit.h). */
	struct ground_unit *unit;
	/* Bibliography entries in tool output and sources (NULL: no reference
	 * rules): the unit reads them (ground_unit_refs()). */
	const struct refs *refs;    /* the db's, or own_refs for --bib */
	struct refs *own_refs;
	struct bib *bib;            /* --bib, or NULL */
};

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
	case CLAIM_TIME_BACKWARDS:
		return "{text} ends no later than it starts: {source}";
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
			  : near && it->total == CLAIM_TIME_BACKWARDS
				? "Check both ends of {text} against the record they are of."
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

/*
 * Hands on what the claims decided since the last walk, in their order:
 * findings to the report (aside while a span is open: they may be the
 * tool's), claims to the --claims consumer. The claims keep it in their
 * outbox (claims_take()), and the scan walks it once a piece (PIECE bytes)
 * and wherever a finding would be treated otherwise later or pass one of
 * the scan's own: before a span opens or closes (deferring changes), before
 * a spoofed delimiter's finding, and at the end. Returns err (the return
 * of the last call into the claims), else the first error of theirs.
 */
static int walk_claims(struct scan *s, int err)
{
	const struct claims_out *o;
	size_t i, n;
	int e = 0;

	o = claims_take(s->claims, &n);
	for (i = 0; i < n && e == 0; i++)
		e = o[i].is_claim ? s->claim_fn(s->claim_ctx, &o[i].cl)
		    : s->deferring ? defer(s, &o[i].it) : claim_finding(s, &o[i].it);
	return err ? err : e;
}

/* How tool output or a source grounds a match of rule id: rules.h's grounding. */
static enum grounding grounding_of(const struct scan *s, unsigned id)
{
	return s->rs->rules[id - s->db->first_rule_id].grounding;
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
 * open (ground: what they say the unit sets aside, for the span may yet
 * close: ground_unit.h), or when the input ended with it open.
 */
static int decide_held(struct scan *s, bool ground)
{
	unsigned first = (unsigned)s->db->first_rule_id;
	struct columns c = {NO_LINE, 0, 0};
	size_t i;
	int err = 0;

	for (i = 0; i < s->n_hold && err == 0; i++) {
		const struct held_event *e = &s->hold[i];

		/* As close_span() would: within the span, lines read as they end. */
		if (ground && e->id >= first)
			err = ground_unit_match(s->unit, grounding_of(s, e->id), e->from, e->to);
		else if (ground && e->id == s->db->line_id)
			err = ground_unit_line_end(s->unit, e->from);
		if (err)
			break;
		err = agent_event(s, e, &c);
	}
	s->n_hold = 0;
	/* Every event before the cursor is decided now: claims may catch up. */
	return err ? err : walk_claims(s, claims_advance(s->claims, s->cur));
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
	err = walk_claims(s, claims_break(s->claims, from));
	claims_tool_output(s->claims, true);
	s->deferring = true;
	s->span_matches = 0;
	s->exempted_at_open = claims_exempted(s->claims);
	s->repeats_at_open = claims_repeats(s->claims);
	return err ? err : ground_unit_open_span(s->unit, to);
}

/* The open span closed at [from, to): its content was the tool's after all. */
static int close_span(struct scan *s, uint64_t from, uint64_t to)
{
	unsigned first = (unsigned)s->db->first_rule_id;
	size_t i;
	int err;

	/* What was decided of it as the model's text is dropped, and not counted. */
	err = walk_claims(s, claims_break(s->claims, from));
	/* Its quantities, with what it said of them: they ground the rest of the input. */
	if (!err)
		err = ground_unit_close_span(s->unit, from);
	/* (the input's set is its own from here, made from the sources') */
	claims_set_ground(s->claims, ground_unit_judged(s->unit));
	drop_deferred(s);
	s->deferring = false;
	s->tool_exempted += claims_exempted(s->claims) - s->exempted_at_open;
	s->tool_repeats += claims_repeats(s->claims) - s->repeats_at_open;
	/* Its events still held, in order; a line of it is read for entries up to the span's ends. */
	for (i = 0; i < s->n_hold && !err; i++)
		if (s->hold[i].id >= first) {
			err = ground_unit_match(s->unit, grounding_of(s, s->hold[i].id), s->hold[i].from,
						s->hold[i].to);
		} else if (s->hold[i].id == s->db->line_id) {
			err = ground_unit_line_end(s->unit, s->hold[i].from);
			if (!err)
				err = claims_line(s->claims, s->hold[i].from + 1);
		}
	/* The line the span closes on, up to the closer. */
	if (!err)
		err = ground_unit_line_end(s->unit, from);
	s->n_hold = 0;
	s->grounded += s->span_matches + ground_unit_quantities(s->unit);
	ground_unit_span_done(s->unit);
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
		err = walk_claims(s, claims_break(s->claims, from));
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
 * matches, go straight on here; the rest is on_match_rest(). line_id and
 * sentence_id: the db's, read once by a caller that hands on many.
 */
static inline __attribute__((always_inline)) int event(struct scan *s, unsigned line_id,
							 unsigned sentence_id, unsigned id,
							 uint64_t from, uint64_t to)
{
	/* (both ids are below every rule's: no pressure rule is among them) */
	if (!s->source_mode && !s->spans.open) {
		if (id == line_id) {
			advance(s, from);
			s->line++;
			s->line_start = from + 1;
			return claims_line(s->claims, from + 1);
		}
		if (id == sentence_id && !spans_markup(&s->spans, from)) {
			advance(s, from);
			return claims_mark(s->claims, from, to);
		}
	}
	return on_match_rest(s, id, from, to);
}

static int on_match(void *ctx, unsigned id, uint64_t from, uint64_t to)
{
	struct scan *s = ctx;

	return event(s, s->db->line_id, s->db->sentence_id, id, from, to);
}

/* The engine's runs of breaks and marks between matches: on_match() of each, without its call. */
static int on_marks(void *ctx, const struct engine_event *v, size_t n, size_t *taken,
		    const bool *stop)
{
	struct scan *s = ctx;
	const unsigned line_id = s->db->line_id, sentence_id = s->db->sentence_id;
	const struct engine_event *e = v, *end = v + n;
	int err;

	/*
	 * The model's text past any tool span's delimiter (the run is in
	 * order: past it at v[0], past it throughout): event() of each is
	 * the claims' alone, and the claims take the run in one call. *stop
	 * cannot turn true meanwhile: only engine_stream_wake() sets it, and
	 * the claims have no stream to wake. The cursor and the line count
	 * follow after, as event() moves them.
	 */
	if (!s->source_mode && !s->spans.open && !spans_markup(&s->spans, v[0].from)) {
		size_t lines, k;

		err = claims_marks(s->claims, v, n, line_id, taken, &lines);
		advance(s, v[*taken - 1].from);
		if (lines > 0) {
			s->line += lines;
			for (k = *taken - 1; v[k].id != line_id; k--)
				;
			s->line_start = v[k].from + 1;
		}
		return err;
	}
	do {
		err = event(s, line_id, sentence_id, e->id, e->from, e->to);
		e++;
	} while (err == 0 && !*stop && e < end);
	*taken = (size_t)(e - v);
	return err;
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
		if (id == db->line_id)
			return ground_unit_line_end(s->unit, from);
		return id >= db->first_rule_id ? ground_unit_match(s->unit, grounding_of(s, id), from, to)
					       : 0;
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
	drop_deferred(s);
	s->span_matches = s->tool_exempted = s->tool_repeats = 0;
	ground_unit_input(s->unit);
	claims_reset(s->claims);
	claims_set_ground(s->claims, ground_unit_judged(s->unit));
	s->pending = 0;
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
	bool codes = false;
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
	engine_stream_on_marks(s->es, on_marks, s);
	for (size_t r = 0; r < s->rs->n_rules; r++)
		codes |= s->rs->rules[r].grounding == GROUNDING_CODE;
	err = ground_unit_new(&s->win, db->attrs, db->refs, codes, &s->unit);
	if (err < 0)
		goto fail;
	cr = claims_rules_of(db);
	err = claims_new(&cr, &s->win, ground_unit_judged(s->unit), false, &s->claims);
	if (err < 0)
		goto fail;
	s->refs = db->refs;
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
	ground_unit_free(s->unit);
	bib_free(s->bib);
	claims_free(s->claims);
	refs_free(s->own_refs);
	spans_fini(&s->spans);
	free(s->hold);
	free(s->defer);
	buf_free(&s->defer_text);
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
	err = claims_new(&cr, &s->win, ground_unit_judged(s->unit), on, &c);
	if (err < 0)
		return err;
	claims_want_claims(c, s->claim_fn != NULL);
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
	if (!s->refs) {
		s->refs = s->own_refs;
		ground_unit_refs(s->unit, s->refs);
	}
	if (!s->bib && (err = bib_new(s->refs, &s->bib)) < 0)
		return err;
	err = bib_add(s->bib, name, data, len, d);
	claims_set_bib(s->claims, s->bib);
	return err;
}

void scan_claims(struct scan *s, scan_claim_fn fn, void *ctx)
{
	s->claim_fn = fn;
	s->claim_ctx = ctx;
	claims_want_claims(s->claims, fn != NULL);
}

void scan_clear_sources(struct scan *s)
{
	ground_unit_clear_sources(s->unit);
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
	int err = ground_unit_open_source(s->unit);

	if (err < 0)
		return err;
	s->source_mode = true;
	s->src_hash = 0xcbf29ce484222325ull;
	s->src_len = 0;
	s->win.len = 0;
	s->win.base = 0;
	memset(s->ext_end, 0, s->rs->n_rules * sizeof(*s->ext_end));
	return 0;
}

void scan_source_turn(struct scan *s)
{
	ground_unit_turn(s->unit);
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
 * The source ends: whether it says again what one of the turn said before
 * (the same length, the same first bytes: a tool called twice), which then
 * counts its items of the groups once (ground_unit_unsay()); else it is
 * remembered.
 */
static bool source_seen(struct scan *s)
{
	uint32_t i, n = MIN(s->n_src_seen, (uint32_t)ARRAY_SIZE(s->src_seen));

	if (s->src_len == 0)
		return false;
	for (i = 0; i < n; i++)
		if (s->src_seen[i].hash == s->src_hash && s->src_seen[i].len == s->src_len)
			return true;
	s->src_seen[s->n_src_seen++ % ARRAY_SIZE(s->src_seen)].hash = s->src_hash;
	s->src_seen[(s->n_src_seen - 1) % ARRAY_SIZE(s->src_seen)].len = s->src_len;
	return false;
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
		if (!err)
			err = ground_unit_feed(s->unit, p, n);
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
		if (!err)
			err = ground_unit_close_source(s->unit, s->win.base + s->win.len);
		if (!err && source_seen(s))
			ground_unit_unsay(s->unit);
	}
	/* (reset() stops the unit's reading) */
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
		int err = ground_unit_catch_up(s->unit, s->win.base + drop);

		if (err)
			return err;
	}
	memmove(s->win.data, s->win.data + drop, s->win.len - drop);
	s->win.len -= drop;
	s->win.base += drop;
	return 0;
}

/* Scans the n bytes at the window's end, put there past win.len. */
static int feed_piece(struct scan *s, const char *p, size_t n)
{
	int err;

	s->win.len += n;
	s->bytes += n;
	err = s->woken || !s->wake ? 0 : wake_on_literal(s, n);
	if (err)
		return err;
	err = engine_stream_feed(s->es, p, n, on_match, s);
	if (err)
		return walk_claims(s, err);
	/* Everything before the watermark is settled: decide up to it
	 * (unless events held in an open span come first). */
	advance(s, engine_stream_watermark(s->es));
	return walk_claims(s, s->n_hold ? 0 : claims_advance(s->claims, s->cur));
}

int scan_feed(struct scan *s, const void *buf, size_t len)
{
	const char *p = buf;
	int err;

	if (s->ended)
		reset(s);
	if (s->pending)
		return s->pending;
	while (len > 0) {
		size_t n = len < PIECE ? len : PIECE;

		err = make_room(s, n);
		if (err)
			return err;
		memcpy(s->win.data + s->win.len, p, n);
		err = feed_piece(s, s->win.data + s->win.len, n);
		if (err)
			return err;
		p += n;
		len -= n;
	}
	return 0;
}

size_t scan_room(struct scan *s, char **at, size_t max)
{
	size_t want = MIN(max, s->win.cap - KEEP), room;

	/* (a new input starts in scan_feed()) */
	if (s->ended || s->pending)
		return 0;
	/*
	 * A window too full for the read drops its oldest bytes here, before
	 * the read, rather than in scan_feed() after it (one read in four of
	 * a file went through its copy): make_room() drops the same bytes at
	 * the same offset of the input either way, as nothing is scanned in
	 * between, and it drops only past KEEP (len + want > cap, and want <=
	 * cap - KEEP, so len > KEEP). Its error is the next scan_feed()'s.
	 */
	if (s->win.cap - s->win.len < want) {
		int err = make_room(s, want);

		if (err) {
			s->pending = err;
			return 0;
		}
	}
	room = s->win.cap - s->win.len;
	if (room < SCAN_ROOM_MIN)
		return 0;
	*at = s->win.data + s->win.len;
	return MIN(room, max);
}

int scan_feed_room(struct scan *s, size_t len)
{
	int err;

	if (s->ended || len > s->win.cap - s->win.len)
		return -EINVAL;
	/* The pieces scan_feed() would take, where make_room() would do nothing. */
	while (len > 0) {
		size_t n = len < PIECE ? len : PIECE;

		err = feed_piece(s, s->win.data + s->win.len, n);
		if (err)
			return err;
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
	if (s->pending)
		return s->pending;
	err = engine_stream_end(s->es, on_match, s);
	advance(s, s->bytes);
	open = s->spans.open;
	if (open) {
		/* Nothing vouched for it: its text is the model's, numbers and all. */
		ground_unit_stop(s->unit);
		claims_tool_output(s->claims, false);
	}
	if (!err && open)
		err = decide_held(s, false);
	if (!err)
		err = walk_claims(s, claims_break(s->claims, s->bytes));
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
		.ground_evictions = ground_unit_evictions(s->unit), .spans = s->spans.n_spans,
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

/* --fix over a fix example: the findings of each round, from a scan of its own. */
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

/* A fix round's scan: the findings into list. */
static int fix_probe_scan(struct fix_probe *fp, const char *text, size_t len, struct fix_list *list)
{
	struct scan_summary sum;
	int err;

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
	struct fix_run fr;
	struct fix_list *found;
	const char *t;
	size_t i, j, tn;
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
			fix_begin(&fr, ex->text, strlen(ex->text), &res);
			while ((err = fix_next(&fr, &t, &tn, &found)) > 0 &&
			       (err = fix_probe_scan(&fp, t, tn, found)) == 0)
				;
			fix_end(&fr);
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
