// SPDX-License-Identifier: MIT
/*
 * References in a list: its entries read line by line, each checked against the user's
 * bibliography and the tools' records. (Split from claims.c by scripts/split.py.)
 */
#include "claims.h"
#include "claims_int.h"

#include "common/fmath.h"
#include "ground/attrs.h"
#include "ground/bib.h"
#include "ground/ground.h"
#include "numbers/arith.h"
#include "numbers/numlex.h"
#include "numbers/quantity.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/*
 * Whether a grounding key of the entry it (its title, DOI or arXiv id) is
 * in the grounded set, and where (*at): 1, 0, or a negative errno.
 */
static int ref_held(struct claims *c, const struct claim_item *it, uint64_t *at)
{
	unsigned k = 0;
	int rc;

	while ((rc = refs_key_next(c->refs, &it->ref, it->text, &k, &c->key)) > 0)
		if (ground_find(c->ground, c->key.data, c->key.len, at))
			return 1;
	return rc;
}

/*
 * True when the line before the current one (or the one before that, past
 * a blank line) was an entry or heads a list of references.
 */
static bool refs_in_list(struct claims *c)
{
	uint64_t end = c->line_start; /* just after the previous line's break */
	size_t k;

	for (k = 1; k <= 2 && end > 0; k++) {
		uint64_t from = end - 1 > REFS_LINE_MAX ? end - 1 - REFS_LINE_MAX : 0;
		const char *s;
		size_t n, i, j;

		if (c->ref_line != UINT64_MAX && c->ref_line + k == c->line)
			return true;
		/* That line is [from + i, end - 1). */
		s = window_get(c->w, from, end - 1, &n);
		if (n != end - 1 - from)
			return false;
		for (i = n; i > 0 && s[i - 1] != '\n'; i--)
			;
		if (i == 0 && from > 0)
			return false; /* too long to be a heading */
		if (refs_heading(c->refs, s + i, n - i))
			return true;
		for (j = i; j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r'); j++)
			;
		if (j < n)
			return false; /* text that is neither an entry nor a heading */
		end = from + i;
	}
	return false;
}

void claims_set_bib(struct claims *c, const struct bib *b)
{
	c->bib = b;
}

/* The bibliography's verdict on an entry: grounded (true), or altered (it->source set). */
static int refs_bib(struct claims *c, struct claim_item *it, bool *held)
{
	const struct rule *r = &c->rs->rules[it->rule];
	const struct bib_entry *x;
	const char *why;
	/* A title within the near tolerance (in words) is the bibliography's;
	 * a rule without near matches titles exactly. */
	double min = r->near.signal ? 1.0 - r->near.tolerance : 1.0;

	*held = false;
	switch (bib_match(c->bib, &it->ref, it->text, min, &x, &why)) {
	case BIB_MATCH:
		*held = true;
		return 0;
	case BIB_ALTERED:
		if (!r->near.signal)
			return 0; /* the pack has no signal for it: reported as unverified */
		c->bib_source.len = 0;
		if (buf_addf(&c->bib_source, "%s%s\"%s\"", x->key, *x->key ? ": " : "", x->title) < 0 ||
		    (x->year && buf_addf(&c->bib_source, " (%u)", x->year) < 0) ||
		    buf_addf(&c->bib_source, ", with %s", why) < 0)
			return -ENOMEM;
		it->source = c->bib_source.data;
		return 0;
	default:
		return 0;
	}
}

/*
 * Does a bare title of a list name a record a tool returned, by a code or
 * a name of letters and digits of it that the tool output holds ("Flight
 * HZN330: PHX to DFW, Basic Economy", "Order #W4418207: 3 items")?
 * An itinerary, an order's lines: a reference's title carries no such code.
 */
static bool names_record(struct claims *c, const struct claim_item *it, uint64_t *at)
{
	struct ground_codes cur = {.want_names = true};
	size_t from, len;

	if (it->ref.style != REF_STYLE_TITLE_LIST || !ground_codes_held(c->ground))
		return false;
	while ((len = ground_next_code(it->text, it->text_len, &cur, false, &from)) > 0)
		if (ground_code_key(&cur, it->text + from, len, &c->key) == 0 &&
		    ground_find(c->ground, c->key.data, c->key.len, at))
			return true;
	return false;
}

/* Reports an entry that nothing grounds (or, with show_grounded, marked grounded). */
static int refs_report(struct claims *c, struct claim_item *it)
{
	uint64_t at = 0;
	bool held = false;
	int err = c->ground ? ref_held(c, it, &at) : 0;

	if (err < 0)
		return err;
	if (err > 0 || (c->ground && names_record(c, it, &at))) {
		held = true;
	} else if (bib_count(c->bib)) {
		err = refs_bib(c, it, &held);
		if (err)
			return err;
	}
	if (held) {
		c->repeats++;
		if (!c->show_grounded)
			return 0;
		it->grounded = true;
		it->grounded_at = at;
	}
	return put(c, it);
}

/*
 * A sure title of the list's n whose nested items are fields of records
 * (labels they share with other nested items: refs_list_field()), and no
 * field a reference has ("Publisher:", "Year:"), is the name of a record
 * (a meeting, an activity the agent proposes, with its "Location:" and
 * "Date:"), and no longer counts as a sure title.
 */
static void refs_list_records(struct claims *c, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i = j) {
		bool field = false, ref = false;

		for (j = i + 1; j < n && c->list_label[j].nested; j++) {
			if (!c->list_label[j].len)
				continue;
			field |= c->list_label[j].field;
			ref |= refs_field_label(c->refs, c->list_text.data + c->list_label[j].at,
						c->list_label[j].len);
		}
		if (field && !ref && !c->list_label[i].nested && !c->list_label[i].field &&
		    c->list[i].ref.strong && c->list_strong > 0)
			c->list_strong--;
	}
}

/* The list of titles ended: reports its items when it is a list of references. */
int refs_list_end(struct claims *c)
{
	size_t i, n = c->n_list;
	int err = 0;

	c->n_list = 0;
	refs_list_records(c, n);
	if (n == 0 || !(c->list_heading || c->list_strong >= 2))
		goto out;
	c->ref_line = c->list_line;
	for (i = 0; i < n && err == 0; i++) {
		struct claim_item it = c->list[i];

		if (c->list_label[i].field)
			continue;
		it.text = c->list_text.data + (size_t)(uintptr_t)it.text;
		err = refs_report(c, &it);
	}
out:
	c->list_strong = 0;
	c->list_text.len = 0;
	return err;
}

/* [from, to) of the line being read is an entry, its title [title_from, title_to). */
static void refs_entry(struct claims *c, uint64_t from, uint64_t to, uint64_t title_from,
		       uint64_t title_to)
{
	if (c->n_ent < ARRAY_SIZE(c->ent)) {
		c->ent[c->n_ent].from = from;
		c->ent[c->n_ent].to = to;
		c->ent[c->n_ent].title_from = title_from;
		c->ent[c->n_ent++].title_to = title_to;
	}
}

/*
 * Whether tool output names the value of a "Label: value" item (value: what
 * follows the label, from its ":"), as a title part of it: "Recommended
 * Restaurant: New Asiaway" after a tool listed New Asiaway is a field of a
 * summary naming a record, not a title with its subtitle.
 */
static bool refs_value_held(struct claims *c, const char *v, size_t n)
{
	uint64_t at;
	size_t i = 0;

	if (!c->ground)
		return false;
	while (i < n && (v[i] == ':' || v[i] == '*' || v[i] == '_' || v[i] == ' '))
		i++;
	c->key.len = 0;
	if (i == n || buf_add(&c->key, "ref\x1ft:", 6) < 0 ||
	    refs_title_key(c->refs, v + i, n - i, &c->key) < 0 || !memchr(c->key.data + 6, ' ', c->key.len - 6))
		return false;
	return ground_find(c->ground, c->key.data, c->key.len, &at);
}

/*
 * Whether the nested title just held (the list's last) opens with a label
 * an earlier nested title of the list has: then both are the fields of
 * records ("1. Design Review / - Location: Harbor Room / 2. Budget Planning
 * / - Location: North Wing"), and neither counts as a sure title.
 */
static bool refs_list_field(struct claims *c, bool nested)
{
	size_t k = c->n_list - 1, i, at = 0, len;
	const char *t = c->list_text.data + (size_t)(uintptr_t)c->list[k].text;
	bool shared = false;

	c->list_label[k].len = 0;
	c->list_label[k].field = false;
	c->list_label[k].nested = nested;
	if (!(len = refs_item_label(t, c->list[k].text_len, &at)))
		return false;
	c->list_label[k].at = (uint32_t)((size_t)(uintptr_t)c->list[k].text + at);
	c->list_label[k].len = (uint8_t)len;
	if (refs_value_held(c, t + at + len, c->list[k].text_len - at - len)) {
		c->list_label[k].field = true;
		return true;
	}
	if (!nested)
		return false;
	for (i = 0; i < k; i++) {
		if (c->list_label[i].len != len ||
		    strncasecmp(c->list_text.data + c->list_label[i].at,
				c->list_text.data + c->list_label[k].at, len) != 0)
			continue;
		if (!c->list_label[i].field) {
			c->list_label[i].field = true;
			c->list_strong -= c->list[i].ref.strong;
		}
		shared = true;
	}
	c->list_label[k].field = shared;
	return shared;
}

/* Holds a title item of a list (its text copied; its offset in list_text stands in it.text). */
static int refs_list_add(struct claims *c, struct claim_item *it, bool nested)
{
	size_t off = c->list_text.len;

	if (c->n_list == 0)
		c->list_heading = refs_in_list(c);
	if (grow(&c->list, &c->cap_list, c->n_list + 1, sizeof(*c->list)) < 0 ||
	    buf_add(&c->list_text, it->text, it->text_len) < 0)
		return -ENOMEM;
	it->text = (const char *)(uintptr_t)off;
	c->list[c->n_list++] = *it;
	c->list_line = c->line;
	if (refs_list_field(c, nested))
		return c->n_list == REFS_LIST_MAX ? refs_list_end(c) : 0;
	c->list_strong += it->ref.strong;
	/*
	 * A list already known to be references (under a heading, or with two
	 * sure titles) has this title as an entry: its figures are dropped with
	 * the others'. An item before that is not known to be one when its line
	 * ends, and numbers are not held across lines (--line-buffered writes a
	 * line's findings when it ends): its figures are checked.
	 */
	if (c->list_heading || c->list_strong >= 2)
		refs_entry(c, it->from, it->to, it->from, it->to); /* a title and nothing else */
	return c->n_list == REFS_LIST_MAX ? refs_list_end(c) : 0;
}

/*
 * True when [from, to) holds something other than blanks, and is not an
 * item of a list (which the triggers may pass by: "5. E-learning and
 * blended ..." opens with one capital word, and stays in its list).
 */
static bool has_text(const struct claims *c, uint64_t from, uint64_t to)
{
	const char *s;
	size_t n, i;

	s = window_get(c->w, from, to, &n);
	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			break;
	if (i == n)
		return n < to - from; /* a line too long to hold is text */
	if (strchr("-*+[", s[i]) || (s[i] >= '0' && s[i] <= '9'))
		return false;
	return !(i + 2 < n && s[i] == (char)0xE2 && s[i + 1] == (char)0x80 && s[i + 2] == (char)0xA2);
}

/* refs_line()'s table (claims_int.h): OPENS_ITEM, OPENS_NAME or 0. */
const unsigned char refs_line_opens[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
	0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static bool may_open_item(char c)
{
	return refs_line_opens[(unsigned char)c] == OPENS_ITEM;
}

/* Whether the line [line_start, end) opens as a list item. */
static int refs_item_kind(const struct claims *c, uint64_t end)
{
	const char *s;
	size_t n;

	s = window_get(c->w, c->line_start, MIN(end, c->line_start + 64), &n);
	if (n == 0 || !may_open_item(s[0]))
		return 0;
	return refs_item_start(s, n, c->n_list > 0 || (c->ref_line != UINT64_MAX && c->ref_line + 2 >= c->line));
}

/*
 * The current line ends at offset end: when a trigger was on it, read it
 * for entries and report those that nothing grounds. Items that are only
 * titles wait for the end of their list.
 */
int refs_read_line(struct claims *c, uint64_t end)
{
	struct ref_entry out[REFS_PER_LINE];
	size_t rule = c->ref_rule, trigger = c->ref_rule, n, k, i;
	const char *s;
	bool cue;
	int err = 0;

	cue = c->ref_cue;
	c->ref_rule = SIZE_MAX;
	c->ref_cue = false;
	if (!c->refs || c->in_tool) {
		c->n_list = c->list_strong = 0;
		c->list_text.len = 0;
		return 0;
	}
	/*
	 * A sentence end's cue, as a trigger would have been; it outranks an
	 * id's trigger: "Lee, K. (2019). Title. https://doi.org/10.1/x" is an
	 * author-date entry (ref.year), as when its year was a pattern that
	 * fired first. An id in prose stays the trigger's (below).
	 */
	if (rule != c->cue_rule && cue && c->cue_rule != SIZE_MAX && end > c->line_start &&
	    end - c->line_start <= REFS_LINE_MAX) {
		s = window_get(c->w, c->line_start, end, &n);
		if (n == end - c->line_start && refs_line_cue(s, n))
			rule = c->cue_rule;
	}
	if (rule == SIZE_MAX && end > c->line_start && c->find_items) {
		/* A list item no pattern marked: its first bytes tell. */
		int kind = refs_item_kind(c, end);

		if (kind) {
			s = window_get(c->w, c->line_start, end, &n);
			if (n != end - c->line_start || !refs_item_maybe(c->refs, s, n))
				kind = 0;
		}
		if (kind) {
			/* its own rule, or the other when a pack has only one */
			rule = c->item_rule[kind - 1];
			if (rule == SIZE_MAX)
				rule = c->item_rule[kind == 1 ? 1 : 0];
		}
	}
	if (rule == SIZE_MAX || end <= c->line_start || end - c->line_start > REFS_LINE_MAX)
		return c->n_list && has_text(c, c->line_start, end) ? refs_list_end(c) : 0;
	s = window_get(c->w, c->line_start, end, &n);
	if (n != end - c->line_start)
		return refs_list_end(c);
	k = refs_parse(c->refs, s, n, c->today, out, ARRAY_SIZE(out));
	if (k == 1 && out[0].style == REF_STYLE_TITLE_LIST) {
		struct claim_item it = {
			.rule = rule, .from = c->line_start + out[0].from,
			.to = c->line_start + out[0].to, .line = c->line + 1,
			.column = utf8_count(s, out[0].from) + 1, .text = s + out[0].from,
			.text_len = out[0].to - out[0].from, .ref = out[0],
		};

		return refs_list_add(c, &it, s[0] == ' ' || s[0] == '\t');
	}
	if (c->n_list && (k > 0 || has_text(c, c->line_start, end)))
		err = refs_list_end(c);
	if (k == 1 && out[0].style != REF_STYLE_ID)
		c->ref_line = c->line;
	/* An id in prose is no entry of the line: the numbers around it are the prose's. */
	for (i = 0; i < k; i++)
		if (out[i].style != REF_STYLE_ID) {
			uint64_t from = c->line_start + out[i].from;
			uint64_t title = from + out[i].title.off;

			refs_entry(c, from, c->line_start + out[i].to, title,
				   out[i].title.len ? title + out[i].title.len : title);
		}
	for (i = 0; i < k && err == 0; i++) {
		const struct ref_entry *e = &out[i];
		struct claim_item it = {
			.rule = e->style == REF_STYLE_ID && trigger != SIZE_MAX ? trigger : rule,
			.from = c->line_start + e->from, .to = c->line_start + e->to,
			.line = c->line + 1, .column = utf8_count(s, e->from) + 1,
			.text = s + e->from, .text_len = e->to - e->from, .ref = *e,
		};

		err = refs_report(c, &it);
	}
	return err;
}

/*
 * Reads the line [line_start, end) for entries, then passes on what waited
 * for it: a number check's finding inside an entry loses the number checks
 * (off_entries), the rest go out as they came.
 */
