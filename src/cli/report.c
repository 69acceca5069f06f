// SPDX-License-Identifier: MIT
/* Findings from the scanner to a writer: fingerprints, filters, counts. */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/api.h"
#include "cli.h"
#include "common/emit.h"
#include "common/url.h"

/* Findings held for one line at most; past this a line's are decided as they come. */
#define HELD_MAX 1024

/*
 * A finding's fingerprint, made when something reads it: its occurrence
 * index is taken as the finding comes (the order of findings decides it),
 * the hash only for a finding that is written with it or looked up in a
 * baseline. Text and GitHub output never read it; nor does a finding that
 * Markdown code or a directive suppresses.
 */
struct fp_lazy {
	unsigned long long index;
	bool want; /* the finding has an index: it is fingerprinted */
	bool redact; /* its text has credentials to redact */
	bool normed; /* its text, normalized, is in the report's norm (not once held) */
	bool made;
	char fp[FINGERPRINT_LEN + 1];
};

/* A finding (or a claim's record) waiting for its line to be read whole. */
struct held {
	struct halluscan_finding f; /* its strings in mem, its signals in also */
	const char *also[HALLUSCAN_ALSO_MAX];
	size_t also_index[HALLUSCAN_ALSO_MAX];
	struct fp_lazy fp;
	char *mem;
	size_t claim_len; /* > 0: mem is a claim's JSONL record */
};

/* Occurrences of a (rule, normalized text) key in the input. */
struct fp_count {
	unsigned long long key, n;
};

/* The prose signals, which do not fire in Markdown code; nor do the number
 * checks: a port, a layer's width or a retry limit in code claims nothing. */
static bool prose_signal(const char *s)
{
	return strcmp(s, "fabricated_url") == 0 || strcmp(s, "unsourced_statistic") == 0 ||
	       strcmp(s, "fabricated_citation") == 0 || strcmp(s, "future_certainty") == 0 ||
	       strcmp(s, "ungrounded_number") == 0 || strcmp(s, "altered_number") == 0;
}

static const char *signal_description(const char *signal)
{
	static const char *const d[][2] = {
		{"fabricated_url", "A URL the model wrote itself, not returned by a tool: it may not exist"},
		{"unsourced_statistic", "A precise statistic with no source in its sentence"},
		{"fabricated_citation", "An attribution to a named author that no tool returned"},
		{"future_certainty", "Certainty about the future: a guarantee, or a release date stated as fact"},
		{"altered_number", "A quantity close to a grounded one, but not equal to it"},
		{"ungrounded_number", "A quantity that matches nothing the tools or sources stated"},
		{"fabricated_reference", "A bibliography entry, DOI or arXiv id that no tool returned and no bibliography holds"},
		{"altered_reference", "A bibliography entry the bibliography holds with another title, authors or year"},
		{"contradicted_attribute", "A yes/no a structured record states, said otherwise in the answer"},
		{"unterminated_span", "A tool-output span never closed: nothing vouched for the text after it"},
		{"spoofed_span", "A tool-span delimiter without the run's nonce: the model wrote it"},
		{"spoofed_directive", "An inline directive (halluscan:off, halluscan:ignore) in model output, where none is honoured"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(d); i++)
		if (strcmp(signal, d[i][0]) == 0)
			return d[i][1];
	return signal;
}

static bool known_name(const struct halluscan_rules *rules, const char *name)
{
	const struct halluscan_rule *rule;
	const char *s;
	size_t i;

	for (i = 0; (s = halluscan_rules_signal(rules, i)); i++)
		if (strcmp(s, name) == 0)
			return true;
	for (i = 0; (rule = halluscan_rules_rule(rules, i)); i++)
		if (strcmp(rule->id, name) == 0)
			return true;
	return false;
}

static bool finding_listed(const char *const *v, size_t n, const struct halluscan_finding *f)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], f->signal) == 0 || strcmp(v[i], f->rule) == 0)
			return true;
	return false;
}

/* A rule's recovery template in general words: what SARIF's help says. */
static char *general(const char *tmpl)
{
	static const char *const words[][2] = {
		{"{text}", "the match"}, {"{host}", "its host"}, {"{round}", "a round figure"},
		{"{hedged}", "hedged words"}, {"{source}", "the grounded figure"},
		{"{{", "{"}, {"}}", "}"},
	};
	struct buf b = {0};
	int err = 0;

	while (*tmpl && err == 0) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(words); i++)
			if (strncmp(tmpl, words[i][0], strlen(words[i][0])) == 0)
				break;
		if (i < ARRAY_SIZE(words)) {
			err = buf_adds(&b, words[i][1]);
			tmpl += strlen(words[i][0]);
		} else {
			err = buf_addc(&b, *tmpl++);
		}
	}
	err = err ? err : buf_addc(&b, '\0');
	if (err)
		buf_free(&b);
	return b.data;
}

static int sarif_start(struct report *r)
{
	const struct ruleset *rs = api_rules_db(r->rules)->rs;
	struct sarif_rule *sr;
	size_t i, n = rs->n_rules + 2;
	int err;

	sr = calloc(n, sizeof(*sr));
	r->sarif_ids = calloc(n, sizeof(*r->sarif_ids));
	if (!sr || !r->sarif_ids) {
		free(sr);
		return -ENOMEM;
	}
	for (i = 0, err = 0; i < rs->n_rules; i++) {
		const struct rule *ru = &rs->rules[i];
		char *help = general(ru->recovery);

		err |= help ? 0 : -ENOMEM;
		sr[i] = (struct sarif_rule){ru->id, ru->signal, signal_description(ru->signal),
					    help, (enum halluscan_severity)ru->severity};
	}
	sr[i++] = (struct sarif_rule){"span.unterminated", "unterminated_span",
				      signal_description("unterminated_span"),
				      "Close the span, or treat the text after its opener as the model's.",
				      HALLUSCAN_WARN};
	sr[i++] = (struct sarif_rule){"span.spoofed", "spoofed_span",
				      signal_description("spoofed_span"),
				      "Hold the response: the model wrote a tool-output delimiter itself.",
				      HALLUSCAN_BLOCK};
	for (i = 0; i < n; i++)
		r->sarif_ids[i] = sr[i].id;
	r->n_sarif_ids = n;
	if (getcwd(r->cwd, sizeof(r->cwd)))
		r->sarif.cwd = r->cwd;
	r->sarif.config = r->config;
	err = err ? err : sarif_begin(r->out, &r->sarif, sr, n);
	for (i = 0; i < rs->n_rules; i++)
		free((char *)sr[i].help);
	free(sr);
	return err;
}

int report_start(struct report *r, struct diag *d)
{
	const struct halluscan_rules_info *info = halluscan_rules_info(r->rules);
	size_t i;

	for (i = 0; i < r->n_select + r->n_ignore; i++) {
		const char *name = i < r->n_select ? r->select[i] : r->ignore[i - r->n_select];

		if (!known_name(r->rules, name))
			return diag_set(d, -ENOENT, "%s: no signal or rule \"%s\" (see --list-rules)",
					i < r->n_select ? "select" : "ignore", name);
	}
	r->n_signals = info->n_signals;
	r->counts = calloc(r->n_signals ? r->n_signals : 1, sizeof(*r->counts));
	r->prose = calloc(r->n_signals ? r->n_signals : 1, sizeof(*r->prose));
	if (!r->counts || !r->prose)
		return -ENOMEM;
	r->ps.directives = r->inline_ignore;
	/* Without a rule of the signal nothing confirms a directive, and none is honoured. */
	r->ps.confirm = true;
	/* --quarantine never cuts Markdown code: it needs to know where code is. */
	r->ps.code = r->skip_code || r->quarantine;
	r->directive_signal = SIZE_MAX;
	for (i = 0; i < r->n_signals; i++)
		if (strcmp(halluscan_rules_signal(r->rules, i), SIGNAL_DIRECTIVE) == 0)
			r->directive_signal = i;
	return r->format == OUT_SARIF ? sarif_start(r) : 0;
}

void report_input(struct report *r, const char *path)
{
	r->out->path = path;
	r->ps.directives = r->inline_ignore;
	prescan_begin(&r->ps);
	memset(r->counts, 0, r->n_signals * sizeof(*r->counts));
	r->findings = r->sup_inline = r->sup_baseline = r->sup_code = 0;
	r->seen_to = 0;
	r->lines_due = 0;
	r->waiting = false;
	r->scanned = false;
	r->verdict = HALLUSCAN_PASS;
	r->n_keys = 0;
	if (r->quarantine)
		quarantine_begin(r->quarantine);
	r->inputs++;
}

/*
 * Slots of the table of finding keys per input, at most; half of them is
 * the most distinct keys counted: past them a new key is a first
 * occurrence (memory stays bounded on any input).
 */
#define FP_KEYS_MAX (1u << 16)

/*
 * The occurrence index of key in this input: 0 for the first. The table
 * grows when three quarters full (at half, it had twice the slots: 512 KB
 * where 9,000 keys, a 64 MB corpus's, need 256, and a peak of 768 KB while
 * it grew, peak RSS being issue 35's measure); where it stops counting
 * new keys (FP_KEYS_MAX / 2 of them, in the largest table) is as before,
 * so that every index is too.
 */
static int occurrence(struct report *r, unsigned long long key, unsigned long long *index)
{
	size_t mask, i;

	if (r->n_keys * 4 >= r->cap_keys * 3 && r->cap_keys < FP_KEYS_MAX) {
		size_t cap = r->cap_keys ? r->cap_keys * 2 : 64, k;
		struct fp_count *t = calloc(cap, sizeof(*t));

		if (!t)
			return -ENOMEM;
		for (k = 0; k < r->cap_keys; k++) {
			if (!r->keys[k].n)
				continue;
			for (i = r->keys[k].key & (cap - 1); t[i].n; i = (i + 1) & (cap - 1))
				;
			t[i] = r->keys[k];
		}
		free(r->keys);
		r->keys = t;
		r->cap_keys = cap;
	}
	if (r->n_keys == 0)
		memset(r->keys, 0, r->cap_keys * sizeof(*r->keys));
	mask = r->cap_keys - 1;
	for (i = key & mask; r->keys[i].n && r->keys[i].key != key; i = (i + 1) & mask)
		;
	if (!r->keys[i].n) {
		/* The table is full (half the largest's slots): a key not seen yet is a first. */
		if (r->n_keys * 2 >= FP_KEYS_MAX) {
			*index = 0;
			return 0;
		}
		r->keys[i].key = key;
		r->n_keys++;
	}
	*index = r->keys[i].n++;
	return 0;
}

/* Does anything read fingerprints: the format's output or a baseline? */
static bool fingerprinted(const struct report *r)
{
	return r->format == OUT_JSONL || r->format == OUT_SARIF || r->baseline ||
	       r->write_baseline;
}

/*
 * f's text as its fingerprint reads it, into r->norm: a URL's credentials
 * redacted (so that it tells nothing of them and holds when they rotate),
 * then normalized. *redact: there were credentials.
 */
static int normalize(struct report *r, const struct halluscan_finding *f, bool *redact)
{
	const char *t = f->text;
	size_t n = f->text_len;
	int err = url_redact(&t, &n, &r->redacted);

	if (err == 0 && grow(&r->norm.data, &r->norm.cap, n + 1, 1) < 0)
		err = -ENOMEM;
	if (err == 0)
		r->norm.len = fingerprint_normalize(t, n, r->norm.data);
	*redact = t != f->text || n != f->text_len;
	return err;
}

/*
 * The occurrence of f's (rule, text) key, taken in the order findings
 * come. The normalized text stays in r->norm for its fingerprint, which a
 * finding decided at once (nearly every one) makes before the next comes.
 */
static int finding_occurrence(struct report *r, const struct halluscan_finding *f,
			      struct fp_lazy *l)
{
	int err;

	l->made = false;
	l->want = false;
	l->normed = false;
	l->fp[0] = '\0';
	if (f->grounded || !fingerprinted(r))
		return 0;
	err = normalize(r, f, &l->redact);
	err = err ? err : occurrence(r, fingerprint_key_normalized(f->rule, r->norm.data,
								    r->norm.len), &l->index);
	l->want = l->normed = err == 0;
	return err;
}

/*
 * f's fingerprint (made once), of the text as written, its credentials
 * redacted (normalize()). NULL when f has none (grounded, or nothing reads
 * them) or on no memory.
 */
static const char *finding_fingerprint(struct report *r, const struct halluscan_finding *f,
				       struct fp_lazy *l)
{
	bool redact;

	if (!l->want)
		return NULL;
	if (!l->made) {
		if (!l->normed && normalize(r, f, &redact))
			return NULL;
		fingerprint_normalized(f->rule, r->norm.data, r->norm.len, r->out->path, l->index,
				       l->fp);
		l->made = true;
		l->normed = false;
	}
	return l->fp;
}

static int write_finding(struct report *r, const struct halluscan_finding *f, const char *fp)
{
	size_t i;

	switch (r->format) {
	case OUT_TEXT:
		return text_finding(r->out, &r->style, f);
	case OUT_GITHUB:
		return github_finding(r->out, f);
	case OUT_SARIF:
		for (i = 0; i < r->n_sarif_ids && strcmp(r->sarif_ids[i], f->rule) != 0; i++)
			;
		return sarif_result(r->out, &r->sarif, f, i < r->n_sarif_ids ? i : 0, fp);
	case OUT_JSONL:
	default:
		return jsonl_finding(r->out, f, fp);
	}
}

/*
 * Is f a prose signal's, in Markdown code? Whether a signal is prose is
 * kept by its index once asked (0 not yet, 1 no, 2 yes): six names
 * compared a finding cost more than its record's numbers.
 */
static bool in_code(struct report *r, const struct halluscan_finding *f)
{
	unsigned char *k = f->signal_index < r->n_signals ? &r->prose[f->signal_index] : NULL;

	if (!r->skip_code)
		return false;
	if (!k)
		return prose_signal(f->signal) && prescan_in_code(&r->ps, f->start);
	if (!*k)
		*k = prose_signal(f->signal) ? 2 : 1;
	return *k == 2 && prescan_in_code(&r->ps, f->start);
}

/* Is f covered by a directive: 1, 0, or -1 not known until the scanner has gone further. */
static int covered(struct report *r, const struct halluscan_finding *f)
{
	return prescan_ignored(&r->ps, f->start, f->line, f->signal, f->rule,
			       r->scanned ? UINT64_MAX : MAX(r->seen_to, f->start), &r->wait_for);
}

/* decide(): f waits for a directive of its line to be confirmed. */
#define NOT_YET 1

/*
 * A finding whose line has been read: suppressed, or counted and written;
 * or NOT_YET, unless force, when a directive it depends on may still be
 * confirmed. Forced, a directive still unconfirmed covers nothing (a long
 * line's finding decided before its directives were).
 */
static int decide(struct report *r, const struct halluscan_finding *f, struct fp_lazy *l,
		  bool force)
{
	const char *fp;
	bool code = in_code(r, f);
	int cover = code || !r->inline_ignore ? 0 : covered(r, f);
	bool ignored = cover == 1;
	int err;

	if (cover < 0 && !force) {
		r->waiting = true; /* f is, or is to be, the first held */
		return NOT_YET;
	}
	/* A repeat shown for the record (--show-grounded) is not shown where a
	 * finding would not be; it is no finding, so nothing is counted as
	 * suppressed. */
	if (code || ignored) {
		if (!f->grounded) {
			r->sup_code += code;
			r->sup_inline += ignored;
		}
		return 0;
	}
	fp = finding_fingerprint(r, f, l);
	if (l->want && !fp)
		return -ENOMEM;
	if (!f->grounded) {
		if (r->baseline && baseline_has(r->baseline, fp)) {
			r->sup_baseline++;
			return 0;
		}
		r->findings++;
		if (f->signal_index < r->n_signals)
			r->counts[f->signal_index]++;
		for (size_t i = 0; i < f->n_also; i++)
			if (f->also_index[i] < r->n_signals)
				r->counts[f->also_index[i]]++;
		if (f->severity > r->verdict)
			r->verdict = f->severity;
		if (r->mute)
			;
		else if (f->severity >= HALLUSCAN_BLOCK)
			r->total_block++;
		else
			r->total_warn++;
		if (r->write_baseline && !r->mute) {
			err = baseline_add(r->write_baseline, fp, r->out->path, f);
			if (err)
				return err;
		}
		if (r->tap) {
			err = r->tap(r->tap_ctx, r->out->path, f);
			if (err)
				return err;
		}
		if (r->quarantine) {
			err = quarantine_finding(r->quarantine, f, prescan_in_code(&r->ps, f->start));
			if (err)
				return err;
		}
	}
	if (r->mute)
		return 0;
	return write_finding(r, f, f->grounded ? NULL : fp);
}

static int release(struct report *r, bool all)
{
	int err = 0;

	while (r->first_held < r->n_held && err == 0) {
		struct held *h = &r->held[r->first_held];

		bool force = all || r->n_held - r->first_held > HELD_MAX;

		if (!force && !h->claim_len &&
		    (h->f.line > r->ps.lines_done || (r->waiting && r->seen_to <= r->wait_for)))
			break;
		if (h->claim_len) {
			err = buf_add(&r->out->b, h->mem, h->claim_len);
			err = err ? -ENOMEM : jsonl_flush(r->out);
		} else {
			/* Into the entry as it is now: the array moves as it grows. */
			h->f.also = h->also;
			h->f.also_index = h->also_index;
			err = decide(r, &h->f, &h->fp, force);
			if (err == NOT_YET) {
				err = 0;
				break;
			}
			r->waiting = false;
		}
		free(h->mem);
		r->first_held++;
	}
	if (r->first_held == r->n_held) {
		r->first_held = r->n_held = 0;
	} else if (r->first_held > HELD_MAX) {
		/* A long line releases one as it holds one: the array moves down
		 * rather than growing with the line. */
		memmove(r->held, r->held + r->first_held,
			(r->n_held - r->first_held) * sizeof(*r->held));
		r->n_held -= r->first_held;
		r->first_held = 0;
	}
	return err;
}

static struct held *hold_slot(struct report *r)
{
	if (grow(&r->held, &r->cap_held, r->n_held + 1, sizeof(*r->held)) < 0)
		return NULL;
	memset(&r->held[r->n_held], 0, sizeof(*r->held));
	return &r->held[r->n_held++];
}

/* Copies f's strings into one block that h owns. */
static int hold_finding(struct report *r, const struct halluscan_finding *f,
			const struct fp_lazy *l)
{
	const char *strs[6] = {f->signal, f->rule, f->message, f->recovery, f->source, f->trigger};
	size_t lens[6], total = f->text_len + 1, i;
	struct held *h = hold_slot(r);
	char *p;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < 6; i++)
		total += lens[i] = strs[i] ? strlen(strs[i]) + 1 : 0;
	h->mem = p = malloc(total);
	if (!p) {
		r->n_held--;
		return -ENOMEM;
	}
	h->f = *f;
	h->f.n_also = MIN(f->n_also, (size_t)HALLUSCAN_ALSO_MAX);
	for (i = 0; i < h->f.n_also; i++) {
		h->also[i] = f->also[i];
		h->also_index[i] = f->also_index[i];
	}
	h->f.also = NULL; /* set as it is released (the array moves) */
	h->f.also_index = NULL;
	h->fp = *l;
	h->fp.normed = false; /* others' texts go through r->norm before it is decided */
	memcpy(p, f->text, f->text_len);
	h->f.text = p;
	p += f->text_len + 1;
	for (i = 0; i < 6; i++) {
		if (!strs[i])
			continue;
		memcpy(p, strs[i], lens[i]);
		strs[i] = p;
		p += lens[i];
	}
	h->f.signal = strs[0];
	h->f.rule = strs[1];
	h->f.message = strs[2];
	h->f.recovery = strs[3];
	h->f.source = strs[4];
	h->f.trigger = strs[5];
	return 0;
}

int report_finding(void *ctx, const struct halluscan_finding *f)
{
	struct report *r = ctx;
	struct fp_lazy l;
	int err;

	/* Findings come in order of offset: a directive before this one that
	 * the scanner found has been reported by now. */
	r->seen_to = MAX(r->seen_to, f->start);
	if (f->signal_index == r->directive_signal && !r->model_output) {
		/* The person's directive: it confirms the one read there, and
		 * what waited for it may go. */
		err = r->inline_ignore ? prescan_confirm(&r->ps, f->start) : 0;
		r->seen_to = MAX(r->seen_to, f->start + 1);
		return err ? err : release(r, false);
	}
	/* A repeat shown for the record (--show-grounded) is of a signal and a
	 * rule too: it is chosen as a finding is. */
	if ((r->n_select && !finding_listed(r->select, r->n_select, f)) ||
	    finding_listed(r->ignore, r->n_ignore, f))
		return 0;
	err = finding_occurrence(r, f, &l);
	if (err)
		return err;
	if (r->n_held == 0 && f->line <= r->ps.lines_done) {
		err = decide(r, f, &l, false);
		if (err != NOT_YET)
			return err;
	}
	err = hold_finding(r, f, &l);
	return err ? err : release(r, false);
}

int report_claim(void *ctx, const struct halluscan_claim *c)
{
	struct report *r = ctx;
	struct buf *b = &r->out->b;
	size_t start = b->len; /* (records before it may be held back in b: jsonl.h) */
	struct held *h;
	int err;

	if (r->format != OUT_JSONL)
		return 0;
	if (r->n_held == 0)
		return jsonl_claim(r->out, c);
	err = jsonl_claim_add(r->out, c);
	if (err)
		return err;
	h = hold_slot(r);
	if (!h || !(h->mem = malloc(b->len - start))) {
		if (h)
			r->n_held--;
		return -ENOMEM;
	}
	memcpy(h->mem, b->data + start, b->len - start);
	h->claim_len = b->len - start;
	b->len = start;
	return 0;
}

/* Where the first finding not yet decided is: what --quarantine may not pass. */
static uint64_t undecided(const struct report *r)
{
	size_t i;

	for (i = r->first_held; i < r->n_held; i++)
		if (!r->held[i].claim_len)
			return r->held[i].f.start;
	return UINT64_MAX - 1;
}

int report_sentence(void *ctx, const struct halluscan_claim *c)
{
	struct report *r = ctx;
	int err = quarantine_sentence(r->quarantine, c);

	err = err ? err : quarantine_advance(r->quarantine, undecided(r));
	return err ? err : r->claims ? report_claim(ctx, c) : 0;
}

/*
 * The text report_text() looked at, as the scanner passes it, with the line
 * breaks its byte scan found: the pre-scan reads its lines without a
 * search of its own. Bytes it did not announce (a source's) are not ours.
 */
static int report_lines(void *ctx, const char *text, size_t len, uint64_t base,
			const uint64_t *nl, size_t n)
{
	struct report *r = ctx;
	int err;

	if (r->lines_due < len)
		return r->lines_due ? -EPROTO : 0;
	err = prescan_lines(&r->ps, text, len, base, nl, n);
	r->lines_due -= len;
	if (r->lines_due == 0)
		api_scanner_on_lines(r->scanner, NULL, NULL);
	return err ? err : release(r, false);
}

int report_text(void *ctx, const char *text, size_t len)
{
	struct report *r = ctx;
	int err = 0;

	if (r->quarantine) {
		err = quarantine_advance(r->quarantine, undecided(r));
		err = err ? err : quarantine_text(r->quarantine, text, len);
		if (err)
			return err;
	}
	if ((r->inline_ignore || r->skip_code) && !r->quarantine && r->scanner && len > 0 &&
	    r->lines_due == 0 && api_scanner_on_lines(r->scanner, report_lines, r)) {
		/* The lines are read as the scanner passes them (report_lines). */
		err = prescan_look(&r->ps, text, len);
		r->lines_due = len;
	} else if (r->inline_ignore || r->skip_code || r->quarantine)
		err = prescan_feed(&r->ps, text, len);
	else
		r->ps.lines_done = UINT64_MAX;
	if (err == 0 && r->ps.directives && r->scanner)
		api_scanner_wake_known(r->scanner, PRESCAN_DIRECTIVE, PRESCAN_DIRECTIVE_LEN,
				       r->ps.dir_clear, r->ps.dir_hit);
	return err ? err : release(r, false);
}

int report_text_end(struct report *r)
{
	int err = r->lines_due ? -EPROTO : prescan_end(&r->ps);

	/* What waits for a directive to be confirmed waits for the scanner's end. */
	return err ? err : release(r, false);
}

int report_summary(struct report *r, const struct halluscan_summary *s,
		   const struct jsonl_input *how, bool *failed)
{
	struct halluscan_summary t = *s;
	struct jsonl_input h = how ? *how : (struct jsonl_input){0};
	enum halluscan_severity at = r->fail_on == HALLUSCAN_FAIL_ON_WARN ? HALLUSCAN_WARN
									  : HALLUSCAN_BLOCK;
	int err;

	r->scanned = true;
	err = release(r, true);
	if (err)
		return err;
	t.findings = r->findings;
	t.signal_counts = r->counts;
	t.verdict = r->verdict;
	if (s->match_limit_hits && t.verdict < HALLUSCAN_WARN)
		t.verdict = HALLUSCAN_WARN;
	t.failed = r->fail_on != HALLUSCAN_FAIL_ON_NEVER &&
		   (t.verdict >= at || (s->claims && !s->claims_sufficient));
	if (r->quarantine) {
		enum disposition d;

		err = quarantine_end(r->quarantine, r->out->path, &r->quarantine_record, &d);
		if (err)
			return err;
		/* Hold and quarantine fail as a finding at --fail-on does. */
		t.failed = t.failed || d != DISPOSITION_SHIP;
	}
	*failed = t.failed;
	if (r->mute)
		return 0;
	r->total_findings += r->findings;
	r->total_suppressed += r->sup_inline + r->sup_baseline + r->sup_code;
	r->total_sup_inline += r->sup_inline;
	r->total_sup_baseline += r->sup_baseline;
	r->total_sup_code += r->sup_code;
	r->inputs_with_findings += r->findings > 0;
	if (r->format != OUT_JSONL)
		return 0;
	h.suppressed_inline = r->sup_inline;
	h.suppressed_baseline = r->sup_baseline;
	h.suppressed_code = r->sup_code;
	err = jsonl_summary(r->out, &t, &h);
	if (err == 0 && r->quarantine) {
		err = buf_add(&r->out->b, r->quarantine_record.data, r->quarantine_record.len);
		r->quarantine_record.len = 0;
		err = err ? -ENOMEM : jsonl_flush(r->out);
	}
	return err ? err : jsonl_sync(r->out);
}

int report_error(struct report *r, const char *path, const char *message)
{
	struct buf *b = &r->out->b;
	struct buf m = {0};
	int err = 0;

	r->out->path = path;
	switch (r->format) {
	case OUT_JSONL:
		err |= BUF_LIT(b, "{\"type\":\"error\",\"path\":");
		err |= emit_json_string(b, path, strlen(path));
		err |= BUF_LIT(b, ",\"error\":") | emit_json_string(b, message, strlen(message));
		err |= BUF_LIT(b, "}\n");
		return err ? -ENOMEM : jsonl_flush(r->out);
	case OUT_GITHUB:
		return github_error(r->out, message);
	case OUT_SARIF:
		if (buf_addf(&m, "%s: %s", path, message) < 0 ||
		    grow(&r->errors, &r->cap_errors, r->n_errors + 1, sizeof(*r->errors)) < 0) {
			buf_free(&m);
			return -ENOMEM;
		}
		r->errors[r->n_errors++] = m.data;
		return 0;
	case OUT_TEXT:
	default:
		return 0;
	}
}

int report_message_finding(struct report *r, const struct halluscan_finding *f)
{
	struct fp_lazy l;
	const char *fp;
	int err = finding_occurrence(r, f, &l);

	if (err)
		return err;
	fp = finding_fingerprint(r, f, &l);
	if (l.want && !fp)
		return -ENOMEM;
	if (!f->grounded) {
		r->inputs_with_findings += r->findings == 0;
		r->findings++;
		r->total_findings++;
		if (f->severity >= HALLUSCAN_BLOCK)
			r->total_block++;
		else
			r->total_warn++;
	}
	return write_finding(r, f, f->grounded ? NULL : fp);
}

int report_record_error(struct report *r, const char *path, uint64_t record, const char *message)
{
	struct out_message m = {.record = record, .role = ""};
	struct buf where = {0};
	int err;

	switch (r->format) {
	case OUT_GITHUB:
		r->out->path = path;
		r->out->message = &m;
		err = github_error(r->out, message);
		r->out->message = NULL;
		return err;
	case OUT_SARIF:
		if (buf_addf(&where, "%s:%llu", path, (unsigned long long)record) < 0)
			return -ENOMEM;
		err = report_error(r, where.data, message);
		buf_free(&where);
		return err;
	default:
		return report_error(r, path, message);
	}
}

int report_finish(struct report *r)
{
	if (r->format == OUT_SARIF)
		return sarif_end(r->out, &r->sarif, (const char *const *)r->errors, r->n_errors);
	if (r->format == OUT_JSONL)
		return 0;
	if (r->total_findings == 0)
		fprintf(stderr, "halluscan: no findings in %zu input%s", r->inputs,
			r->inputs == 1 ? "" : "s");
	else
		fprintf(stderr, "halluscan: %llu finding%s (%s%.0llu%s%s%.0llu%s) in %zu of %zu input%s",
			(unsigned long long)r->total_findings, r->total_findings == 1 ? "" : "s",
			"", (unsigned long long)r->total_block, r->total_block ? " block" : "",
			r->total_block && r->total_warn ? ", " : "",
			(unsigned long long)r->total_warn, r->total_warn ? " warn" : "",
			r->inputs_with_findings, r->inputs, r->inputs == 1 ? "" : "s");
	if (r->total_suppressed)
		fprintf(stderr, ", %llu suppressed", (unsigned long long)r->total_suppressed);
	fputc('\n', stderr);
	return 0;
}

void report_fini(struct report *r)
{
	size_t i;

	for (i = r->first_held; i < r->n_held; i++)
		free(r->held[i].mem);
	free(r->held);
	for (i = 0; i < r->n_errors; i++)
		free(r->errors[i]);
	free(r->errors);
	free(r->sarif_ids);
	free(r->keys);
	free(r->counts);
	free(r->prose);
	buf_free(&r->redacted);
	buf_free(&r->norm);
	buf_free(&r->quarantine_record);
	prescan_fini(&r->ps);
}
