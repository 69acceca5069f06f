// SPDX-License-Identifier: MIT
/*
 * The queue: findings and claims held, in order and bounded, until their
 * sentence, reference line or list is decided, then passed on in order (a
 * number check's finding inside an entry of the line read last taken off
 * it). The checks beside it hold and release through it, never through
 * claims.c. (Split from claims.c by hand, as scripts/split.py's table says.)
 */
#include "claims.h"
#include "claims_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * True when rule r checks figures an entry is made of: its year, date,
 * volume, issue, pages, edition and ids (bare numbers, years, dates,
 * ordinals, identifiers).
 */
static bool entry_figure_rule(const struct claims *c, size_t r)
{
	const unsigned entry = 1u << QC_NUMBER | 1u << QC_YEAR | 1u << QC_DATE |
			       1u << QC_ORDINAL | 1u << QC_IDENT;
	const struct rule *rule = &c->rs->rules[r];

	return number_rule(c, r) && rule->quantities != 0 && !(rule->quantities & ~entry);
}

/*
 * Takes the number checks off a finding inside an entry of the line read
 * last: its figures are the entry's (its year, volume, pages), which the
 * entry's own checks judge. False when no other rule found the text (it
 * is dropped); else the finding is what the other rules alone make of it.
 */
bool off_entries(const struct claims *c, struct claim_item *it)
{
	size_t keep[CLAIMS_ALSO_MAX], n = 0, i;
	bool in_title;

	if (it->from < c->judged_from || it->to > c->judged_to)
		return true;
	for (i = 0; i < c->n_ent; i++)
		if (it->from >= c->ent[i].from && it->to <= c->ent[i].to)
			break;
	if (i == c->n_ent)
		return true;
	/*
	 * In its title every figure is the entry's ("Training ImageNet in 1
	 * hour"). Elsewhere only those an entry is made of: a sum, a
	 * percentage, a count or a duration is a figure about the world, and
	 * the recognizer may take a whole line for an entry ("Garcia, M.
	 * (2021). Forecasting demand. It says 13.1% growth."), where an
	 * altered figure must still stop a gate that blocks it.
	 */
	in_title = it->from >= c->ent[i].title_from && it->to <= c->ent[i].title_to;
	for (i = 0; i < it->n_also; i++)
		if (!number_rule(c, it->also[i]) ||
		    (!in_title && !entry_figure_rule(c, it->also[i])))
			keep[n++] = it->also[i];
	if (number_rule(c, it->rule) && (in_title || entry_figure_rule(c, it->rule))) {
		if (n == 0)
			return false;
		/* A near figure is a number check's: unless the rule that leads now
		 * is one too, it has none. */
		it->rule = keep[0];
		if (!number_rule(c, it->rule))
			it->source = NULL;
		memmove(keep, keep + 1, --n * sizeof(*keep));
	}
	memcpy(it->also, keep, n * sizeof(*keep));
	it->n_also = n;
	return true;
}

/*
 * Takes off a claim's items the figures of an entry of the line read last
 * (as off_entries() takes them off findings), and labels it again from the
 * items left: a bibliography entry's year and pages claim nothing about
 * the world, and must not count against the answer's trust.
 */
void claim_off_entries(struct claims *c, struct claim *cl, struct claim_item *items)
{
	size_t j, n = 0, grounded = 0;
	enum claim_label was = cl->label;

	for (j = 0; j < cl->n_items; j++) {
		struct claim_item t = items[j];

		if (number_found(c, &t) && !off_entries(c, &t))
			continue;
		items[n++] = items[j];
		grounded += items[j].grounded;
	}
	if (n == cl->n_items)
		return;
	cl->n_items = n;
	cl->items = n ? items : NULL;
	cl->label = n == 0 ? CLAIM_UNCHECKED
		    : grounded == n ? CLAIM_SUPPORTED
		    : grounded ? CLAIM_PARTIAL : CLAIM_UNSUPPORTED;
	c->counts[was]--;
	c->counts[cl->label]++;
}

/* The bytes they hold: their texts, and claims' items. */
static size_t waiting_bytes(const struct claims *c)
{
	const struct pending *p = &c->pend[c->pend_head];

	if (!waiting(c))
		return 0;
	return c->pend_text.len - p->off + (c->n_pend_items - p->items_off) * sizeof(*c->pend_items);
}

/*
 * Passes on the k oldest findings and claims held, in order (a number
 * check's finding inside an entry of the line read last taken off it).
 * Those passed on are moved out once they are as many as those left, so
 * each is moved at most once on average. After an error the rest are
 * dropped, as claims_reset() would.
 */
int release(struct claims *c, size_t k)
{
	size_t i, j, head, shift, ishift;
	int err = 0;

	for (i = c->pend_head; i < c->pend_head + k && err == 0; i++) {
		struct pending *p = &c->pend[i];
		const char *t = c->pend_text.data ? c->pend_text.data + p->off : "";

		if (p->is_claim) {
			struct claim_item *items = p->cl.n_items ? c->pend_items + p->items_off : NULL;
			size_t at = p->cl.text_len;

			for (j = 0; j < p->cl.n_items; j++) {
				items[j].text = t + at;
				at += items[j].text_len;
			}
			p->cl.text = t;
			p->cl.items = items;
			claim_off_entries(c, &p->cl, items);
			err = hand_on(c, NULL, &p->cl);
			continue;
		}
		/* (a total that waits for its items goes out as it is when pushed out) */
		if (c->before.on && i == c->before.slot)
			c->before.on = false;
		if (p->drop)
			continue;
		p->it.text = t;
		if (p->how)
			p->it.source = c->before.how;
		else if (p->it.source)
			p->it.source = t + p->it.text_len;
		if (!number_found(c, &p->it) || off_entries(c, &p->it))
			err = hand_on(c, &p->it, NULL);
	}
	c->pend_head += k;
	if (err || c->pend_head == c->n_pend) {
		c->before.on = false; /* (after an error, dropped with the rest) */
		c->n_pend = c->pend_head = c->n_pend_items = 0;
		c->pend_text.len = 0;
		return err;
	}
	if (c->pend_head < waiting(c))
		return 0;
	head = c->pend_head;
	shift = c->pend[head].off;
	ishift = c->pend[head].items_off;
	memmove(c->pend, c->pend + head, (c->n_pend - head) * sizeof(*c->pend));
	c->n_pend -= head;
	c->pend_head = 0;
	if (c->before.on)
		c->before.slot -= head;
	/* (A buffer never grown is NULL: not even an empty move of it.) */
	if (c->pend_text.len)
		memmove(c->pend_text.data, c->pend_text.data + shift, c->pend_text.len - shift);
	c->pend_text.len -= shift;
	if (c->n_pend_items)
		memmove(c->pend_items, c->pend_items + ishift,
			(c->n_pend_items - ishift) * sizeof(*c->pend_items));
	c->n_pend_items -= ishift;
	for (i = 0; i < c->n_pend; i++) {
		c->pend[i].off -= shift;
		c->pend[i].items_off -= ishift;
	}
	return 0;
}

/*
 * Copies the bytes of a finding (cl NULL) or a claim to the end of b: its
 * text, then a finding's source (NUL-terminated) or the claim's items'
 * texts. Returns 0 or -ENOMEM (b then holds part of them).
 */
static inline int copy_text(struct buf *b, const struct claim_item *it, const struct claim *cl)
{
	size_t i;

	if (!cl)
		return buf_add(b, it->text, it->text_len) < 0 ||
		       (it->source && buf_add(b, it->source, strlen(it->source) + 1) < 0) ? -ENOMEM : 0;
	if (buf_add(b, cl->text, cl->text_len) < 0)
		return -ENOMEM;
	for (i = 0; i < cl->n_items; i++)
		if (buf_add(b, cl->items[i].text, cl->items[i].text_len) < 0)
			return -ENOMEM;
	return 0;
}

/*
 * Holds a finding (cl NULL) or a claim behind those held, copying its
 * text. At the caps the oldest go out first; one that cannot be held
 * (too large, or no memory) goes out now, after all those held: nothing
 * is lost, and the order is kept.
 */
int hold_item(struct claims *c, const struct claim_item *it, const struct claim *cl)
{
	size_t n_items = cl ? cl->n_items : 0, len, cost, off, i;
	struct pending *p;
	int err;

	if (cl) {
		len = cl->text_len;
		for (i = 0; i < n_items; i++)
			len += cl->items[i].text_len;
	} else {
		len = it->text_len + (it->source ? strlen(it->source) + 1 : 0);
	}
	cost = len + n_items * sizeof(*c->pend_items);
	while (waiting(c) &&
	       (waiting(c) == CLAIMS_HOLD_MAX || waiting_bytes(c) + cost > CLAIMS_HOLD_BYTES)) {
		err = release(c, 1);
		if (err)
			return err;
	}
	off = c->pend_text.len;
	if (cost > CLAIMS_HOLD_BYTES ||
	    grow(&c->pend, &c->cap_pend, c->n_pend + 1, sizeof(*c->pend)) < 0 ||
	    grow(&c->pend_items, &c->cap_pend_items, c->n_pend_items + n_items,
		 sizeof(*c->pend_items)) < 0)
		goto now;
	p = &c->pend[c->n_pend];
	*p = (struct pending){.is_claim = cl != NULL, .off = off, .items_off = c->n_pend_items};
	if (copy_text(&c->pend_text, it, cl) < 0) {
		c->pend_text.len = off;
		goto now;
	}
	if (cl) {
		p->cl = *cl;
		if (n_items)
			memcpy(c->pend_items + c->n_pend_items, cl->items, n_items * sizeof(*cl->items));
		c->n_pend_items += n_items;
	} else {
		p->it = *it;
	}
	c->n_pend++;
	return 0;
now:
	err = release(c, waiting(c));
	if (err)
		return err;
	return hand_on(c, it, cl);
}

/* Points an outbox entry's texts (and a claim's items) at their bytes. */
static void point(struct claims *c, struct claims_out *o)
{
	/* (A buffer never grown is NULL: the texts are all empty.) */
	const char *t = c->out_text.data ? c->out_text.data + o->off : "";
	struct claim_item *items;
	size_t j, at;

	if (!o->is_claim) {
		o->it.text = t;
		if (o->it.source)
			o->it.source = t + o->it.text_len;
		return;
	}
	items = c->out_items + o->items_off;
	o->cl.text = t;
	o->cl.items = o->cl.n_items ? items : NULL;
	at = o->cl.text_len;
	for (j = 0; j < o->cl.n_items; j++) {
		items[j].text = t + at;
		at += items[j].text_len;
	}
}

/*
 * Puts a finding (cl NULL) or a claim in the outbox, its bytes copied:
 * what the caller takes stays whole whatever the claims do with their
 * buffers before it walks it (claims_take()). -ENOMEM when the outbox
 * cannot grow: the caller's call fails, and nothing passes unseen.
 */
int hand_on(struct claims *c, const struct claim_item *it, const struct claim *cl)
{
	size_t n_items = cl ? cl->n_items : 0, off = c->out_text.len, i;
	size_t cap_text = c->out_text.cap, cap_items = c->cap_out_items;
	struct claims_out *o;

	if (grow(&c->out, &c->cap_out, c->n_out + 1, sizeof(*c->out)) < 0 ||
	    grow(&c->out_items, &c->cap_out_items, c->n_out_items + n_items,
		 sizeof(*c->out_items)) < 0)
		return -ENOMEM;
	if (copy_text(&c->out_text, it, cl) < 0) {
		c->out_text.len = off;
		return -ENOMEM;
	}
	o = &c->out[c->n_out++];
	o->is_claim = cl != NULL;
	o->off = off;
	o->items_off = c->n_out_items;
	if (cl) {
		o->cl = *cl;
		if (n_items)
			memcpy(c->out_items + c->n_out_items, cl->items, n_items * sizeof(*cl->items));
		c->n_out_items += n_items;
	} else {
		o->it = *it;
	}
	/* Where the bytes or items moved, every entry is pointed at them again. */
	if (c->out_text.cap != cap_text || c->cap_out_items != cap_items)
		for (i = 0; i < c->n_out; i++)
			point(c, &c->out[i]);
	else
		point(c, o);
	return 0;
}

const struct claims_out *claims_take(struct claims *c, size_t *n)
{
	*n = c->n_out;
	/* Kept as they are until the next call hands something on over them. */
	c->n_out = c->n_out_items = 0;
	c->out_text.len = 0;
	return c->out;
}
