// SPDX-License-Identifier: MIT
/* --fix: the findings' templates rendered (template.c) into repairs, applied, scanned again. */
#include "fix.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "match/prescan.h"

/* ---- finding lists ---- */

void fix_templates(const struct ruleset *rs, const char *rule, const char *signal,
		   const char *const **tmpl, size_t *n)
{
	size_t i;

	*tmpl = NULL;
	*n = 0;
	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		if (strcmp(r->id, rule) != 0)
			continue;
		if (r->near.signal && strcmp(signal, r->near.signal) == 0) {
			*tmpl = (const char *const *)r->near.fix;
			*n = r->near.n_fix;
		} else if (strcmp(signal, r->signal) == 0) {
			*tmpl = (const char *const *)r->fix;
			*n = r->n_fix;
		}
		return;
	}
}

int fix_list_add(struct fix_list *list, const struct ruleset *rs, uint64_t start, uint64_t end,
		 const char *rule, const char *signal, const char *source,
		 const char *const *also, size_t n_also)
{
	struct fix_found *f;

	if (grow(&list->v, &list->cap, list->n + 1, sizeof(*list->v)) < 0)
		return -ENOMEM;
	f = &list->v[list->n];
	*f = (struct fix_found){.start = start, .end = end, .rule = rule, .signal = signal};
	fix_templates(rs, rule, signal, &f->tmpl, &f->n_tmpl);
	for (f->n_also = 0; f->n_also < n_also && f->n_also < FIX_ALSO_MAX; f->n_also++)
		f->also[f->n_also] = also[f->n_also];
	if (source && !(f->source = xstrndup(source, strlen(source))))
		return -ENOMEM;
	list->n++;
	return 0;
}

void fix_list_clear(struct fix_list *list)
{
	size_t i;

	for (i = 0; i < list->n; i++)
		free(list->v[i].source);
	list->n = 0;
}

void fix_list_free(struct fix_list *list)
{
	fix_list_clear(list);
	free(list->v);
	*list = (struct fix_list){0};
}

/* ---- the rounds ---- */

void fix_result_free(struct fix_result *res)
{
	size_t i;

	for (i = 0; i < res->n_edits; i++) {
		free(res->edits[i].with);
		free(res->edits[i].source);
	}
	free(res->edits);
	buf_free(&res->out);
	*res = (struct fix_result){0};
}

/* Builds the text with the edits not reverted; tpos[i] is edit i's offset in it. */
static int build(const char *text, size_t len, const struct fix_result *res, struct buf *out,
		 uint64_t *tpos)
{
	uint64_t at = 0;
	size_t i;

	out->len = 0;
	if (grow(&out->data, &out->cap, 1, 1) < 0)
		return -ENOMEM;
	out->data[0] = '\0';
	for (i = 0; i < res->n_edits; i++) {
		const struct fix_edit *e = &res->edits[i];

		if (buf_add(out, text + at, (size_t)(e->start - at)) < 0)
			return -ENOMEM;
		tpos[i] = out->len;
		if (e->reverted) {
			if (buf_add(out, text + e->start, (size_t)(e->end - e->start)) < 0)
				return -ENOMEM;
		} else if (buf_add(out, e->with, e->with_len) < 0) {
			return -ENOMEM;
		}
		at = e->end;
	}
	return buf_add(out, text + at, len - at) < 0 ? -ENOMEM : 0;
}

/* Inserts e in order: 0, 1 when it overlaps an edit (not added), or -ENOMEM. */
static int add_edit(struct fix_result *res, const struct fix_edit *e)
{
	size_t at = res->n_edits;

	if (grow(&res->edits, &res->cap_edits, res->n_edits + 1, sizeof(*res->edits)) < 0)
		return -ENOMEM;
	while (at > 0 && res->edits[at - 1].start >= e->end)
		at--;
	/* A template after the first may have widened its edit this round. */
	if ((at > 0 && res->edits[at - 1].end > e->start) ||
	    (at < res->n_edits && res->edits[at].start < e->end))
		return 1;
	memmove(res->edits + at + 1, res->edits + at, (res->n_edits - at) * sizeof(*res->edits));
	res->edits[at] = *e;
	res->n_edits++;
	return 0;
}

static bool had(const struct fix_edit *e, const char *signal)
{
	size_t i;

	for (i = 0; i < e->n_also; i++)
		if (strcmp(e->also[i], signal) == 0)
			return true;
	return false;
}

/* Is f, on repair e, only of signals the repaired finding had besides the one repaired? */
static bool no_worse(const struct fix_edit *e, const struct fix_found *f)
{
	size_t i;

	if (!had(e, f->signal))
		return false;
	for (i = 0; i < f->n_also; i++)
		if (!had(e, f->also[i]))
			return false;
	return true;
}

/* A finding of the input as it came: where, and by which rule. */
struct fix_orig {
	uint64_t start;
	const char *rule;
};

/*
 * Was f (in the text scanned) there before any repair, by the same rule at
 * the same place? A reference entry that holds a URL is found again round
 * its repair: not the repair's doing.
 */
static bool was_there(const struct fix_found *f, const struct fix_result *res,
		      const uint64_t *tpos, const uint64_t *tlen, const uint64_t *olen,
		      const struct fix_orig *orig, size_t n_orig)
{
	uint64_t shift = 0;
	size_t k;

	for (k = 0; k < res->n_edits; k++) {
		if (tpos[k] <= f->start && f->start < tpos[k] + tlen[k])
			return false; /* it starts in a repair */
		if (tpos[k] + tlen[k] <= f->start)
			shift += tlen[k] - olen[k];
	}
	for (k = 0; k < n_orig; k++)
		if (orig[k].start == f->start - shift && strcmp(orig[k].rule, f->rule) == 0)
			return true;
	return false;
}

/*
 * Edit k was itself a finding: the next of its templates that applies
 * (rendered on the input, where its match is), else it is taken back.
 * The next round scans it again. 0 or -ENOMEM.
 */
static int next_template(const char *text, size_t len, struct fix_result *res, size_t k,
			 struct buf *with)
{
	struct fix_edit *e = &res->edits[k];
	uint64_t from, to;
	size_t used;
	char *w;
	int rc = 0;

	if (e->used + 1 < e->n_tmpl)
		rc = template_render_from(e->tmpl, e->used + 1, e->n_tmpl, text, len, e->mstart, e->mend,
				     e->source, with, &from, &to, &used);
	if (rc < 0)
		return rc;
	/* Only within the bytes it had, or others' it does not reach. */
	if (rc == 1 && (k == 0 || res->edits[k - 1].end <= from) &&
	    (k + 1 == res->n_edits || to <= res->edits[k + 1].start)) {
		if (!(w = xstrndup(with->data ? with->data : "", with->len)))
			return -ENOMEM;
		free(e->with);
		e->with = w;
		e->with_len = with->len;
		e->start = from;
		e->end = to;
		e->used = used;
		return 0;
	}
	e->reverted = true;
	return 0;
}

/*
 * One round: a finding on a repair takes it back (the repair did not
 * repair); a finding elsewhere with a template that applies becomes a
 * repair, in offsets of the input (pending, merged after the round).
 * tpos and tlen say where each edit is in the text scanned.
 */
static int round_of(const char *text, size_t len, struct fix_result *res,
		    const struct fix_list *found,
		    const uint64_t *tpos, const uint64_t *tlen, const uint64_t *olen,
		    const struct fix_orig *orig, size_t n_orig, struct fix_edit **pending,
		    size_t *n_pending, size_t *cap_pending, bool *changed)
{
	struct buf with = {0};
	uint64_t last_to = 0;
	size_t i, k;
	int err = 0;

	for (i = 0; i < found->n && err == 0; i++) {
		const struct fix_found *f = &found->v[i];
		uint64_t shift = 0, from, to;
		size_t used = 0;
		bool hit = false;
		int rc;

		for (k = 0; k < res->n_edits && err == 0; k++) {
			struct fix_edit *e = &res->edits[k];

			if (f->start < tpos[k] + tlen[k] && tpos[k] < f->end) {
				hit = true;
				if (!e->reverted && !no_worse(e, f) &&
				    !was_there(f, res, tpos, tlen, olen, orig, n_orig)) {
					err = next_template(text, len, res, k, &with);
					*changed = true;
				}
			}
		}
		if (hit || !f->n_tmpl)
			continue;
		rc = template_render_from(f->tmpl, 0, f->n_tmpl, res->out.data, res->out.len, f->start,
				     f->end, f->source, &with, &from, &to, &used);
		if (rc < 0)
			err = rc;
		if (rc <= 0 || (*n_pending && from < last_to))
			continue; /* none applies, or it overlaps the one before: the first wins */
		for (k = 0; k < res->n_edits; k++) {
			if (tpos[k] < to && from < tpos[k] + tlen[k])
				break; /* widened into a repair: left as it is */
			if (tpos[k] + tlen[k] <= from)
				shift += tlen[k] - olen[k];
		}
		if (k < res->n_edits)
			continue;
		if (grow(pending, cap_pending, *n_pending + 1, sizeof(**pending)) < 0 ||
		    !((*pending)[*n_pending].with = xstrndup(with.data ? with.data : "", with.len))) {
			err = -ENOMEM;
			break;
		}
		(*pending)[*n_pending] = (struct fix_edit){
			.start = from - shift, .end = to - shift, .with = (*pending)[*n_pending].with,
			.with_len = with.len, .rule = f->rule, .signal = f->signal,
			.n_also = f->n_also, .tmpl = f->tmpl, .n_tmpl = f->n_tmpl, .used = used,
			.mstart = f->start - shift, .mend = f->end - shift,
		};
		if (f->source && !((*pending)[*n_pending].source = xstrndup(f->source, strlen(f->source)))) {
			free((*pending)[*n_pending].with);
			err = -ENOMEM;
			break;
		}
		memcpy((*pending)[*n_pending].also, f->also, sizeof(f->also));
		++*n_pending;
		last_to = to;
	}
	buf_free(&with);
	return err;
}

/*
 * Drops the findings in Markdown code (fenced, indented, inline): code is
 * never rewritten, whatever the scan reports there (--no-skip-code, the
 * library). 0 or -ENOMEM.
 */
static int drop_code(const char *text, size_t len, struct fix_list *found)
{
	struct prescan ps = {.code = true};
	size_t i, k = 0;
	int err;

	if (found->n == 0)
		return 0;
	prescan_begin(&ps);
	err = prescan_feed(&ps, text, len);
	err = err ? err : prescan_end(&ps);
	for (i = 0; i < found->n && err == 0; i++) {
		if (prescan_in_code(&ps, found->v[i].start)) {
			free(found->v[i].source);
			continue;
		}
		found->v[k++] = found->v[i];
	}
	if (err == 0)
		found->n = k;
	prescan_fini(&ps);
	return err;
}

void fix_begin(struct fix_run *fr, const char *text, size_t len, struct fix_result *res)
{
	*fr = (struct fix_run){.text = text, .len = len, .res = res, .changed = true};
	*res = (struct fix_result){0};
}

/*
 * What the scan of the round's text found (fr->found): code left alone,
 * each finding repaired by its template or its repair taken back
 * (round_of()), the edits added; then the next round.
 */
static int after_scan(struct fix_run *fr)
{
	struct fix_result *res = fr->res;
	struct fix_list *found = &fr->found;
	size_t n_pending = 0, i;
	int err = drop_code(res->out.data, res->out.len, found);

	for (i = 0; fr->round == 0 && i < found->n && err == 0; i++) {
		if (grow(&fr->orig, &fr->cap_orig, fr->n_orig + 1, sizeof(*fr->orig)) < 0)
			err = -ENOMEM;
		else
			fr->orig[fr->n_orig++] = (struct fix_orig){found->v[i].start, found->v[i].rule};
	}
	err = err ? err : round_of(fr->text, fr->len, res, found, fr->tpos, fr->tlen, fr->olen,
				   fr->orig, fr->n_orig, &fr->pending, &n_pending, &fr->cap_pending,
				   &fr->changed);
	for (i = 0; i < n_pending; i++) {
		int rc = err ? err : add_edit(res, &fr->pending[i]);

		if (rc < 0)
			err = rc;
		if (rc) {
			free(fr->pending[i].with);
			free(fr->pending[i].source);
		} else
			fr->changed = true;
	}
	fix_list_clear(found);
	fr->round++;
	return err;
}

int fix_next(struct fix_run *fr, const char **out, size_t *out_len, struct fix_list **found)
{
	struct fix_result *res = fr->res;
	size_t k;
	int err;

	if (fr->scanned) {
		fr->scanned = false;
		err = after_scan(fr);
		if (err)
			return err;
	}
	if (fr->round < FIX_ROUNDS && fr->changed) {
		/* Another round: the text as the edits so far make it, to scan. */
		fr->changed = false;
		if (grow(&fr->tpos, &fr->cap_tpos, res->n_edits + 1, sizeof(*fr->tpos)) < 0 ||
		    grow(&fr->tlen, &fr->cap_tlen, res->n_edits + 1, sizeof(*fr->tlen)) < 0 ||
		    grow(&fr->olen, &fr->cap_olen, res->n_edits + 1, sizeof(*fr->olen)) < 0)
			return -ENOMEM;
		for (k = 0; k < res->n_edits; k++) {
			fr->olen[k] = res->edits[k].end - res->edits[k].start;
			fr->tlen[k] = res->edits[k].reverted ? fr->olen[k] : res->edits[k].with_len;
		}
		err = build(fr->text, fr->len, res, &res->out, fr->tpos);
		if (err)
			return err;
		fix_list_clear(&fr->found);
		fr->scanned = true;
		*out = res->out.data;
		*out_len = res->out.len;
		*found = &fr->found;
		return 1;
	}
	if (fr->changed) {
		/* Not settled: the text is left as it came, every repair taken back. */
		fr->changed = false;
		res->gave_up = true;
		for (k = 0; k < res->n_edits; k++)
			res->edits[k].reverted = true;
		if (grow(&fr->tpos, &fr->cap_tpos, res->n_edits + 1, sizeof(*fr->tpos)) < 0)
			return -ENOMEM;
		return build(fr->text, fr->len, res, &res->out, fr->tpos);
	}
	return 0;
}

void fix_end(struct fix_run *fr)
{
	fix_list_free(&fr->found);
	free(fr->pending);
	free(fr->tpos);
	free(fr->tlen);
	free(fr->olen);
	free(fr->orig);
	*fr = (struct fix_run){0};
}

/* ---- diff ---- */

/* The offset of the start of the line holding p, and of the byte after its end ('\n' included). */
static uint64_t line_start(const char *t, uint64_t p)
{
	while (p > 0 && t[p - 1] != '\n')
		p--;
	return p;
}

static uint64_t line_end(const char *t, size_t len, uint64_t p)
{
	while (p < len && t[p] != '\n')
		p++;
	return p < len ? p + 1 : p;
}

static uint64_t lines_in(const char *t, uint64_t a, uint64_t b)
{
	uint64_t n = 0;

	for (; a < b; a++)
		n += t[a] == '\n';
	return n;
}

/* Lines [a, b) of t, each with mark before it. */
static int put_lines(struct buf *out, char mark, const char *t, uint64_t a, uint64_t b)
{
	while (a < b) {
		uint64_t e = line_end(t, b, a);

		if (buf_addc(out, mark) < 0 || buf_add(out, t + a, (size_t)(e - a)) < 0)
			return -ENOMEM;
		if (t[e - 1] != '\n' && (BUF_LIT(out, "\n\\ No newline at end of file\n") < 0))
			return -ENOMEM;
		a = e;
	}
	return 0;
}

/* How many lines [a, b) of t holds, a last line without '\n' counted. */
static uint64_t count_lines(const char *t, uint64_t a, uint64_t b)
{
	return lines_in(t, a, b) + (b > a && t[b - 1] != '\n');
}

/* Line groups: the edits from *i on whose lines touch, as [*a, *b) of in; *i moves past them. */
static void next_group(const char *in, size_t len, const struct fix_result *res, size_t *i,
		       uint64_t *a, uint64_t *b, int64_t *delta)
{
	const struct fix_edit *e = &res->edits[*i];

	*a = line_start(in, e->start);
	*b = line_end(in, len, e->end > e->start ? e->end - 1 : e->start);
	*delta = 0;
	for (; *i < res->n_edits; ++*i) {
		e = &res->edits[*i];
		if (e->reverted)
			continue;
		if (e->start >= *b && !(e->start == *b && *b == len))
			break;
		*b = MAX(*b, line_end(in, len, e->end > e->start ? e->end - 1 : e->start));
		*delta += (int64_t)e->with_len - (int64_t)(e->end - e->start);
	}
}

int fix_diff(const char *path, const char *in, size_t len, const struct fix_result *res,
	     struct buf *out)
{
	const char *o = res->out.data;
	size_t i = 0, c;
	int64_t shift = 0;
	bool header = false;

	while (i < res->n_edits && res->edits[i].reverted)
		i++;
	while (i < res->n_edits) {
		/* A hunk: groups no more than six lines apart (their contexts touch). */
		uint64_t ga[64], gb[64], ca, cb, cur;
		int64_t gd[64], s0 = shift, sh;
		size_t ng = 0, g;

		do {
			uint64_t near;

			next_group(in, len, res, &i, &ga[ng], &gb[ng], &gd[ng]);
			ng++;
			while (i < res->n_edits && res->edits[i].reverted)
				i++;
			near = gb[ng - 1];
			for (c = 0; c < 6 && near < len; c++)
				near = line_end(in, len, near);
			if (i >= res->n_edits || res->edits[i].start >= near)
				break;
		} while (ng < ARRAY_SIZE(ga));
		ca = ga[0];
		for (c = 0; c < 3 && ca > 0; c++)
			ca = line_start(in, ca - 1);
		cb = gb[ng - 1];
		for (c = 0; c < 3 && cb < len; c++)
			cb = line_end(in, len, cb);
		for (g = 0, sh = s0; g < ng; g++)
			sh += gd[g];
		if (!header && buf_addf(out, "--- %s\n+++ %s\n", path, path) < 0)
			return -ENOMEM;
		header = true;
		if (buf_addf(out, "@@ -%llu,%llu +%llu,%llu @@\n",
			     (unsigned long long)(lines_in(in, 0, ca) + 1),
			     (unsigned long long)count_lines(in, ca, cb),
			     (unsigned long long)(lines_in(o, 0, (uint64_t)((int64_t)ca + s0)) + 1),
			     (unsigned long long)count_lines(o, (uint64_t)((int64_t)ca + s0),
							     (uint64_t)((int64_t)cb + sh))) < 0)
			return -ENOMEM;
		cur = ca;
		for (g = 0, sh = s0; g < ng; g++) {
			if (put_lines(out, ' ', in, cur, ga[g]) < 0 || put_lines(out, '-', in, ga[g], gb[g]) < 0 ||
			    put_lines(out, '+', o, (uint64_t)((int64_t)ga[g] + sh),
				      (uint64_t)((int64_t)gb[g] + sh + gd[g])) < 0)
				return -ENOMEM;
			sh += gd[g];
			cur = gb[g];
		}
		if (put_lines(out, ' ', in, cur, cb) < 0)
			return -ENOMEM;
		shift = sh;
	}
	return 0;
}
