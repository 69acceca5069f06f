// SPDX-License-Identifier: MIT
/* Trigger requests in the prompt: PCRE2 over a bounded window of it. */
#include "triggers.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

/* A prompt is short and a trigger a phrase: a small budget per match. */
#define TRIGGERS_MATCH_LIMIT 100000u

struct triggers {
	const struct ruleset *rs;
	pcre2_code **code;
	bool *hit;
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	struct buf win; /* the prompt's bytes not yet looked at, and the overlap */
	bool compiled;
};

/* Compiles t's pattern into *out: 0, -ENOMEM, or -EINVAL with d saying where and why. */
static int compile(const struct trigger *t, pcre2_code **out, struct diag *d)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int errcode;

	*out = pcre2_compile((PCRE2_SPTR)t->pattern, PCRE2_ZERO_TERMINATED, PCRE2_CASELESS,
			     &errcode, &off, NULL);
	if (*out)
		return 0;
	if (errcode == PCRE2_ERROR_HEAP_FAILED)
		return -ENOMEM;
	pcre2_get_error_message(errcode, msg, sizeof(msg));
	return diag_set(d, -EINVAL, "%s:%u:%u: trigger \"%s\": pattern: %s at offset %zu",
			t->pattern_at.file, t->pattern_at.line, t->pattern_at.col, t->name,
			(char *)msg, (size_t)off);
}

void triggers_free(struct triggers *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; t->code && i < t->rs->n_triggers; i++)
		pcre2_code_free(t->code[i]);
	free(t->code);
	free(t->hit);
	pcre2_match_data_free(t->md);
	pcre2_match_context_free(t->mctx);
	buf_free(&t->win);
	free(t);
}

static int compile_all(struct triggers *t, struct diag *d)
{
	size_t i;
	int err;

	for (i = 0; i < t->rs->n_triggers; i++)
		if (!t->code[i] && (err = compile(&t->rs->triggers[i], &t->code[i], d)) < 0)
			return err;
	t->compiled = true;
	return 0;
}

int triggers_new(const struct ruleset *rs, struct triggers **out)
{
	struct triggers *t = calloc(1, sizeof(*t));
	size_t n = rs->n_triggers ? rs->n_triggers : 1;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->rs = rs;
	t->code = calloc(n, sizeof(*t->code));
	t->hit = calloc(n, sizeof(*t->hit));
	t->md = pcre2_match_data_create(1, NULL);
	t->mctx = pcre2_match_context_create(NULL);
	if (!t->code || !t->hit || !t->md || !t->mctx) {
		triggers_free(t);
		return -ENOMEM;
	}
	pcre2_set_match_limit(t->mctx, TRIGGERS_MATCH_LIMIT);
	/*
	 * The patterns are compiled when a prompt first comes: most runs have
	 * none, and compiling them was a third of a start-up's instructions.
	 * A bad one has stopped the run before: a pack read from YAML is
	 * compiled with its examples run (triggers_check(), through
	 * scan_check_examples()) unless that was done when it was cached, and
	 * the built-in packs' are checked by the tests.
	 */
	*out = t;
	return 0;
}

int triggers_begin(struct triggers *t)
{
	struct diag d = {""};

	t->win.len = 0;
	return t->compiled ? 0 : compile_all(t, &d);
}

/* Looks for every trigger not yet seen in the window. */
static void look(struct triggers *t)
{
	size_t i;

	for (i = 0; i < t->rs->n_triggers; i++)
		if (!t->hit[i] && pcre2_match(t->code[i], (PCRE2_SPTR)(t->win.data ? t->win.data : ""),
					      t->win.len, 0, 0, t->md, t->mctx) >= 0)
			t->hit[i] = true;
}

int triggers_feed(struct triggers *t, const char *buf, size_t len)
{
	while (len > 0) {
		size_t n = MIN(len, TRIGGERS_WINDOW - t->win.len);

		if (buf_add(&t->win, buf, n) < 0)
			return -ENOMEM;
		buf += n;
		len -= n;
		if (t->win.len < TRIGGERS_WINDOW)
			break;
		/* Full: look, then keep the overlap for a phrase cut at the end. */
		look(t);
		memmove(t->win.data, t->win.data + t->win.len - TRIGGERS_OVERLAP, TRIGGERS_OVERLAP);
		t->win.len = TRIGGERS_OVERLAP;
	}
	return 0;
}

int triggers_end(struct triggers *t)
{
	look(t);
	t->win.len = 0;
	return 0;
}

bool triggers_hit(const struct triggers *t, size_t i)
{
	return i < t->rs->n_triggers && t->hit[i];
}

void triggers_clear(struct triggers *t)
{
	if (t->rs->n_triggers)
		memset(t->hit, 0, t->rs->n_triggers * sizeof(*t->hit));
}

/* Whether example e matches trigger code as it says it must. */
static int check_example(const struct trigger *tr, pcre2_code *code, pcre2_match_data *md,
			 const struct example *e, bool positive, struct diag *d)
{
	int rc = pcre2_match(code, (PCRE2_SPTR)e->text, strlen(e->text), 0, 0, md, NULL);
	PCRE2_SIZE *ov;

	if (!positive && rc >= 0)
		return diag_set(d, -EINVAL, "%s:%u:%u: trigger \"%s\": negative example matches: \"%s\"",
				e->at.file, e->at.line, e->at.col, tr->name, e->text);
	if (!positive)
		return 0;
	if (rc < 0)
		return diag_set(d, -EINVAL, "%s:%u:%u: trigger \"%s\": example does not match: \"%s\"",
				e->at.file, e->at.line, e->at.col, tr->name, e->text);
	ov = pcre2_get_ovector_pointer(md);
	if (e->match && (ov[1] - ov[0] != strlen(e->match) ||
			 memcmp(e->text + ov[0], e->match, ov[1] - ov[0]) != 0))
		return diag_set(d, -EINVAL, "%s:%u:%u: trigger \"%s\": example matches \"%.*s\", not \"%s\"",
				e->at.file, e->at.line, e->at.col, tr->name, (int)(ov[1] - ov[0]),
				e->text + ov[0], e->match);
	return 0;
}

int triggers_check(const struct ruleset *rs, struct diag *d)
{
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	size_t i, j;
	int err = 0;

	if (!md)
		return -ENOMEM;
	for (i = 0; i < rs->n_triggers && err == 0; i++) {
		const struct trigger *tr = &rs->triggers[i];
		pcre2_code *code;

		err = compile(tr, &code, d);
		if (err < 0)
			break;
		for (j = 0; j < tr->n_examples && err == 0; j++)
			err = check_example(tr, code, md, &tr->examples[j], true, d);
		for (j = 0; j < tr->n_negatives && err == 0; j++)
			err = check_example(tr, code, md, &tr->negatives[j], false, d);
		pcre2_code_free(code);
	}
	pcre2_match_data_free(md);
	return err;
}
