// SPDX-License-Identifier: MIT
/* The public scanner: the pipeline (scan.c) with its callbacks, grounding and state kept honest. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "claims/fix.h"
#include "ground/spans.h"
#include "match/triggers.h"
#include "scan/scan.h"

/*
 * Where a scanner is: what each call may follow. An error or a stopping
 * callback leaves a scan that cannot go on (its stream, sentences and
 * spans are cut where the error struck): it says so until reset.
 */
enum state {
	IDLE,      /* between inputs: grounding may be added */
	INPUT,     /* an input is being fed */
	GROUNDING, /* grounding is being fed */
	FAILED,    /* stopped on an error: only a reset helps */
};

struct halluscan_scanner {
	struct halluscan_rules *rules; /* a reference: kept alive until the scanner is freed */
	const struct ruleset *rs;
	struct policy *pol;
	struct scan *scan;
	struct triggers *triggers;
	bool prompting;          /* the grounding being fed is a prompt */
	bool answered;           /* an input was scanned since the last prompt */
	halluscan_finding_fn on_finding;
	halluscan_claim_fn on_claim;
	void *ctx;
	unsigned flags;
	enum halluscan_fail_on fail_on;
	double max_ratio;
	enum state state;
	int stop;                /* what the caller's callback returned to stop */
	struct halluscan_summary sum;
	/* A claim's items, converted for the caller. */
	struct halluscan_claim_item *items;
	const struct halluscan_claim_item **item_ptrs;
	size_t cap_items, cap_ptrs;
	struct fix_result fix;    /* halluscan_fix()'s text, until the next call */
};

static int scanner_options(const struct halluscan_scanner_options *in,
			   struct halluscan_scanner_options *o, struct diag *d)
{
	halluscan_scanner_options_init(o);
	if (!in)
		return 0;
	if (in->size < sizeof(*o))
		return diag_set(d, -EINVAL, "halluscan_scanner_options: size %zu, expected %zu "
				"(set it with halluscan_scanner_options_init())", in->size, sizeof(*o));
	memcpy(o, in, sizeof(*o));
	if (o->n_contexts && !o->contexts)
		return diag_set(d, -EINVAL, "halluscan_scanner_options: a count without its array");
	if ((unsigned)o->fail_on > HALLUSCAN_FAIL_ON_NEVER)
		return diag_set(d, -EINVAL, "halluscan_scanner_options: unknown fail_on %d",
				(int)o->fail_on);
	if (!(o->max_unsupported_ratio >= 0 && o->max_unsupported_ratio <= 1))
		return diag_set(d, -EINVAL, "max_unsupported_ratio must be from 0 to 1");
	if (o->span_nonce && spans_check_nonce(o->span_nonce) < 0)
		/* The nonce is not echoed: it is meant to stay out of logs the model may see. */
		return diag_set(d, -EINVAL, "a span nonce takes %d to %d letters, digits, '.', '_' "
				"or '-'", SPANS_NONCE_MIN, SPANS_NONCE_MAX);
	return 0;
}

/*
 * The callers' callbacks see 0 as "go on"; anything else stops the scan,
 * and the pipeline is told -ECANCELED (it passes a negative value through
 * unchanged) while the caller's own value is kept to be returned.
 */
static int stopped(struct halluscan_scanner *sc, int rc)
{
	if (rc == 0)
		return 0;
	sc->stop = rc < 0 ? rc : -ECANCELED;
	return -ECANCELED;
}

_Static_assert(CLAIMS_ALSO_MAX == HALLUSCAN_ALSO_MAX, "the API carries what claims can");

const char *halluscan_reference_problem(unsigned i)
{
	return i < REF_PROBLEMS ? ref_problem_name((enum ref_problem)i) : NULL;
}

/* A field of the entry as a slice of the finding's text. */
static void ref_field(const struct finding *f, const struct ref_span *sp, const char **p, size_t *n)
{
	*p = sp->len ? f->text + sp->off : NULL;
	*n = sp->len;
}

static void ref_public(const struct finding *f, struct halluscan_reference *r)
{
	const struct ref_entry *e = f->ref;

	*r = (struct halluscan_reference){.style = ref_style_name(e->style), .year = e->year,
					  .problems = e->problems};
	ref_field(f, &e->title, &r->title, &r->title_len);
	ref_field(f, &e->authors, &r->authors, &r->authors_len);
	ref_field(f, &e->venue, &r->venue, &r->venue_len);
	ref_field(f, &e->doi, &r->doi, &r->doi_len);
	ref_field(f, &e->arxiv, &r->arxiv, &r->arxiv_len);
	ref_field(f, &e->isbn, &r->isbn, &r->isbn_len);
	ref_field(f, &e->url, &r->url, &r->url_len);
}

static int scanner_finding(void *ctx, const struct finding *f)
{
	struct halluscan_scanner *sc = ctx;
	struct halluscan_reference ref;
	struct halluscan_finding pub = {
		.signal = f->signal, .signal_index = f->signal_index, .rule = f->rule_id,
		.severity = (enum halluscan_severity)f->severity,
		.start = f->start, .end = f->end, .line = f->line, .column = f->column,
		.text = f->text, .text_len = f->text_len, .text_truncated = f->text_truncated,
		.message = f->message, .recovery = f->recovery,
		.grounded = f->grounded, .grounded_at = f->grounded_at,
		.source = f->source, .source_at = f->source_at,
		.also = f->also, .also_index = f->also_index, .n_also = f->n_also,
		.trigger = f->trigger,
	};

	if (f->ref) {
		ref_public(f, &ref);
		pub.reference = &ref;
	}

	return sc->on_finding ? stopped(sc, sc->on_finding(sc->ctx, &pub)) : 0;
}

static int scanner_claim(void *ctx, const struct claim *cl)
{
	struct halluscan_scanner *sc = ctx;
	struct halluscan_claim pub = {
		.start = cl->start, .end = cl->end, .text = cl->text, .text_len = cl->text_len,
		.label = (enum halluscan_claim_label)cl->label, .n_items = cl->n_items,
		.cut = cl->cut,
	};
	size_t i;

	if (!sc->on_claim)
		return 0;
	if (grow(&sc->items, &sc->cap_items, cl->n_items, sizeof(*sc->items)) < 0 ||
	    grow(&sc->item_ptrs, &sc->cap_ptrs, cl->n_items, sizeof(*sc->item_ptrs)) < 0)
		return -ENOMEM;
	for (i = 0; i < cl->n_items; i++) {
		const struct claim_item *it = &cl->items[i];

		sc->items[i] = (struct halluscan_claim_item){
			.rule = sc->rs->rules[it->rule].id, .start = it->from, .end = it->to,
			.text = it->text, .text_len = it->text_len,
			.grounded = it->grounded, .grounded_at = it->grounded_at,
		};
		sc->item_ptrs[i] = &sc->items[i];
	}
	pub.items = sc->item_ptrs;
	return stopped(sc, sc->on_claim(sc->ctx, &pub));
}

int halluscan_scanner_new(const struct halluscan_rules *rules,
			  const struct halluscan_scanner_options *options,
			  halluscan_finding_fn on_finding_fn, void *ctx,
			  struct halluscan_scanner **out, struct halluscan_error *error)
{
	struct halluscan_scanner_options o;
	struct halluscan_scanner *sc = NULL;
	const struct db *db;
	struct diag d = {""};
	int err;

	if (!rules || !out)
		return api_error(error, -EINVAL, NULL);
	db = api_rules_db(rules);
	err = scanner_options(options, &o, &d);
	if (err < 0)
		goto out;
	sc = calloc(1, sizeof(*sc));
	if (!sc) {
		err = -ENOMEM;
		goto out;
	}
	*sc = (struct halluscan_scanner){
		.rules = api_rules_ref(rules), .rs = db->rs, .on_finding = on_finding_fn, .on_claim = o.on_claim,
		.ctx = ctx, .flags = o.flags, .fail_on = o.fail_on,
		.max_ratio = o.max_unsupported_ratio, .state = IDLE,
	};
	err = api_policy_new(db->rs, o.contexts, o.n_contexts, &sc->pol, &d);
	if (err < 0)
		goto out;
	err = scan_new(db, sc->pol, scanner_finding, sc, &sc->scan);
	if (err == 0)
		err = triggers_new(db->rs, &sc->triggers);
	if (err == 0 && (o.flags & HALLUSCAN_SCAN_PRESSURE))
		scan_pressure(sc->scan, true);
	if (err == 0 && o.span_nonce)
		err = scan_span_nonce(sc->scan, o.span_nonce);
	if (err == 0 && (o.flags & HALLUSCAN_SCAN_SHOW_GROUNDED))
		err = scan_show_grounded(sc->scan, true);
	/* Claims are made whether or not the caller wants each one: the
	 * summary counts them and the input's verdict rests on them. */
	if (err == 0 && (o.flags & (HALLUSCAN_SCAN_CLAIMS | HALLUSCAN_SCAN_SENTENCES)))
		scan_claims(sc->scan, scanner_claim, sc);
out:
	if (err < 0) {
		halluscan_scanner_free(sc);
		return api_error(error, err, &d);
	}
	*out = sc;
	return api_error(error, 0, NULL);
}

void halluscan_scanner_free(struct halluscan_scanner *sc)
{
	if (!sc)
		return;
	scan_free(sc->scan);
	triggers_free(sc->triggers);
	policy_free(sc->pol);
	free(sc->items);
	free(sc->item_ptrs);
	fix_result_free(&sc->fix);
	/* Last: everything above may still read the rules. */
	halluscan_rules_free(sc->rules);
	free(sc);
}

/* An error of the pipeline: the caller's own value when its callback stopped it. */
static int fail(struct halluscan_scanner *sc, int err)
{
	sc->state = FAILED;
	if (err == -ECANCELED && sc->stop)
		err = sc->stop;
	return err;
}

/* The triggers the prompt held raise their signals for the answers after it. */
static int raise_triggered(struct halluscan_scanner *sc)
{
	size_t i;
	int err = triggers_end(sc->triggers);

	for (i = 0; i < sc->rs->n_triggers && err == 0; i++)
		if (triggers_hit(sc->triggers, i))
			policy_raise(sc->pol, &sc->rs->triggers[i]);
	sc->prompting = false;
	return err;
}

int halluscan_scanner_grounding_begin(struct halluscan_scanner *sc, enum halluscan_grounding kind)
{
	int err;

	if ((unsigned)kind > HALLUSCAN_GROUND_PROMPT)
		return -EINVAL;
	if (sc->state == FAILED)
		return -EBADFD;
	if (sc->state != IDLE)
		return -EBUSY;
	/* Every kind grounds as tool output does, for now: see the header. */
	err = scan_source_begin(sc->scan);
	if (err < 0)
		return fail(sc, err);
	sc->state = GROUNDING;
	sc->prompting = kind == HALLUSCAN_GROUND_PROMPT;
	if (sc->prompting) {
		scan_source_turn(sc->scan);
		/* A prompt after an answer is the next turn: its own triggers. */
		if (sc->answered) {
			triggers_clear(sc->triggers);
			policy_lower(sc->pol);
			sc->answered = false;
		}
		err = triggers_begin(sc->triggers);
		if (err < 0)
			return fail(sc, err);
	}
	return 0;
}

int halluscan_scanner_grounding_feed(struct halluscan_scanner *sc, const void *buf, size_t len)
{
	int err;

	if (sc->state == FAILED)
		return -EBADFD;
	if (sc->state != GROUNDING)
		return -EINVAL;
	err = scan_source_feed(sc->scan, buf, len);
	if (err == 0 && sc->prompting)
		err = triggers_feed(sc->triggers, buf, len);
	if (err < 0) {
		/* The part read so far stays grounding (reset says whether to keep it). */
		scan_source_end(sc->scan);
		return fail(sc, err);
	}
	return 0;
}

int halluscan_scanner_grounding_end(struct halluscan_scanner *sc)
{
	int err;

	if (sc->state == FAILED)
		return -EBADFD;
	if (sc->state != GROUNDING)
		return -EINVAL;
	err = scan_source_end(sc->scan);
	if (err == 0 && sc->prompting)
		err = raise_triggered(sc);
	if (err < 0)
		return fail(sc, err);
	sc->state = IDLE;
	return 0;
}

int halluscan_scanner_add_grounding(struct halluscan_scanner *sc, enum halluscan_grounding kind,
				    const void *text, size_t len)
{
	int err = halluscan_scanner_grounding_begin(sc, kind);

	if (err == 0)
		err = halluscan_scanner_grounding_feed(sc, text, len);
	if (err == 0)
		err = halluscan_scanner_grounding_end(sc);
	return err;
}

int halluscan_scanner_add_bibliography(struct halluscan_scanner *sc, const char *name,
				       const void *data, size_t len, struct halluscan_error *error)
{
	struct diag d = {""};
	int err;

	if (sc->state == FAILED)
		return -EBADFD;
	if (sc->state != IDLE)
		return -EBUSY;
	err = scan_add_bib(sc->scan, name ? name : "bibliography", data, len, &d);
	if (err && error) {
		error->code = err;
		snprintf(error->message, sizeof(error->message), "%s", d.msg);
	}
	return err == -EINVAL ? err : err ? fail(sc, err) : 0;
}

int halluscan_scanner_feed(struct halluscan_scanner *sc, const void *buf, size_t len)
{
	int err;

	if (sc->state == FAILED)
		return -EBADFD;
	if (sc->state == GROUNDING)
		return -EBUSY;
	sc->state = INPUT;
	err = scan_feed(sc->scan, buf, len);
	return err ? fail(sc, err) : 0;
}

size_t api_scanner_room(struct halluscan_scanner *sc, char **at, size_t max)
{
	/* (an input's first bytes go through halluscan_scanner_feed()) */
	return sc->state == INPUT ? scan_room(sc->scan, at, max) : 0;
}

int api_scanner_feed_room(struct halluscan_scanner *sc, size_t len)
{
	int err;

	if (sc->state != INPUT)
		return sc->state == FAILED ? -EBADFD : -EINVAL;
	err = scan_feed_room(sc->scan, len);
	return err ? fail(sc, err) : 0;
}

int halluscan_scanner_end(struct halluscan_scanner *sc, const struct halluscan_summary **summary)
{
	struct halluscan_summary *s = &sc->sum;
	struct claims_verdict cv;
	struct scan_summary sum;
	int err;

	if (sc->state == FAILED)
		return -EBADFD;
	if (sc->state == GROUNDING)
		return -EBUSY;
	err = scan_end(sc->scan, &sum);
	if (err)
		return fail(sc, err);
	sc->state = IDLE;
	sc->answered = true;
	*s = (struct halluscan_summary){
		.bytes = sum.bytes, .findings = sum.findings,
		.verdict = (enum halluscan_severity)sum.verdict,
		.n_signals = scan_n_signals(sc->rs), .signal_counts = sum.signal_counts,
		.exempted = sum.exempted, .grounded = sum.grounded, .repeats = sum.repeats,
		.ground_evictions = sum.ground_evictions, .spans = sum.spans,
		.unterminated_spans = sum.unterminated_spans, .match_limit_hits = sum.limit_hits,
		.pressure = scan_pressured(sc->scan),
	};
	if (sc->flags & HALLUSCAN_SCAN_CLAIMS) {
		policy_claims(sum.claims, sc->max_ratio, &cv);
		s->claims = sum.claims;
		s->claims_checked = cv.checked;
		s->unsupported_ratio = cv.unsupported_ratio;
		s->trust = cv.trust;
		s->claims_sufficient = cv.sufficient;
	}
	/* As the program's exit status: "never" fails nothing, claims included. */
	if (sc->fail_on != HALLUSCAN_FAIL_ON_NEVER) {
		enum halluscan_severity at = sc->fail_on == HALLUSCAN_FAIL_ON_WARN ? HALLUSCAN_WARN
										   : HALLUSCAN_BLOCK;

		s->failed = s->verdict >= at || (s->claims && !s->claims_sufficient);
	}
	if (summary)
		*summary = s;
	return 0;
}

int api_scanner_pressure(struct halluscan_scanner *sc, bool on)
{
	if (sc->state != IDLE)
		return -EBUSY;
	scan_pressure(sc->scan, on);
	return 0;
}

void api_scanner_wake_known(struct halluscan_scanner *sc, const char *lit, size_t k,
			    uint64_t clear, bool hit)
{
	if (sc->state == IDLE || sc->state == INPUT)
		scan_wake_known(sc->scan, lit, k, clear, hit);
}

bool api_scanner_on_lines(struct halluscan_scanner *sc, engine_lines_fn fn, void *ctx)
{
	return scan_on_lines(sc->scan, fn, ctx);
}

int halluscan_scanner_reset(struct halluscan_scanner *sc, unsigned flags)
{
	if (!(flags & HALLUSCAN_RESET_KEEP_GROUNDING)) {
		scan_clear_sources(sc->scan);
		triggers_clear(sc->triggers);
		policy_lower(sc->pol);
		sc->answered = false;
	}
	sc->prompting = false;
	sc->state = IDLE;
	sc->stop = 0;
	return scan_reset(sc->scan);
}

int halluscan_check(struct halluscan_scanner *sc, const void *text, size_t len,
		    const struct halluscan_summary **summary)
{
	const struct halluscan_summary *s;
	int err;

	if (sc->state == FAILED)
		return -EBADFD;
	if (sc->state != IDLE)
		return -EBUSY;
	err = halluscan_scanner_feed(sc, text, len);
	if (err == 0)
		err = halluscan_scanner_end(sc, &s);
	if (err < 0) {
		/* A gate goes on to the next reply: its grounding stays. */
		halluscan_scanner_reset(sc, HALLUSCAN_RESET_KEEP_GROUNDING);
		return err;
	}
	if (summary)
		*summary = s;
	return s->failed ? 1 : 0;
}

/* ---- --fix ---- */

struct collect {
	struct halluscan_scanner *sc;
	struct fix_list *list;
};

static int collect_finding(void *ctx, const struct halluscan_finding *f)
{
	struct collect *c = ctx;

	if (f->grounded)
		return 0;
	return fix_list_add(c->list, c->sc->rs, f->start, f->end, f->rule, f->signal, f->source,
			    f->also, f->n_also);
}

/* A fix round's scan: the text whole, its findings collected, the caller's callback aside. */
static int fix_scan(struct halluscan_scanner *sc, const char *text, size_t len, struct fix_list *list)
{
	halluscan_finding_fn fn = sc->on_finding;
	halluscan_claim_fn cl = sc->on_claim;
	void *user = sc->ctx;
	struct collect c = {sc, list};
	int err;

	sc->on_finding = collect_finding;
	sc->on_claim = NULL;
	sc->ctx = &c;
	err = halluscan_check(sc, text, len, NULL);
	sc->on_finding = fn;
	sc->on_claim = cl;
	sc->ctx = user;
	return err < 0 ? err : 0;
}

int halluscan_fix(struct halluscan_scanner *sc, const void *text, size_t len, const char **out,
		  size_t *out_len, const struct halluscan_summary **summary)
{
	struct fix_run fr;
	struct fix_list *found;
	const char *t;
	size_t i, n = 0, tn;
	int err;

	if (sc->state == FAILED)
		return -EBADFD;
	if (sc->state != IDLE)
		return -EBUSY;
	if (!out || !out_len || (!text && len))
		return -EINVAL;
	fix_result_free(&sc->fix);
	fix_begin(&fr, text ? text : "", len, &sc->fix);
	while ((err = fix_next(&fr, &t, &tn, &found)) > 0 && (err = fix_scan(sc, t, tn, found)) == 0)
		;
	fix_end(&fr);
	if (err < 0) {
		fix_result_free(&sc->fix);
		return err;
	}
	/* The caller's findings are those of the text it gets back. */
	err = halluscan_check(sc, sc->fix.out.data, sc->fix.out.len, summary);
	if (err < 0)
		return err;
	for (i = 0; i < sc->fix.n_edits; i++)
		n += !sc->fix.edits[i].reverted;
	*out = sc->fix.out.data;
	*out_len = sc->fix.out.len;
	return n > INT_MAX ? INT_MAX : (int)n;
}
