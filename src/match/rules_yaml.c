// SPDX-License-Identifier: MIT
/*
 * A pack's YAML composed from libyaml's events within limits (size, nesting, anchors, aliases,
 * nodes, text), refused at the event that passes one. (Split from rules.c by
 * scripts/split.py.)
 */
#include "rules.h"
#include "rules_int.h"

#include "common/sha256.h"
#include "template.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

/* The current document's anchor of that name, or NULL. */
static struct anchor *find_anchor(struct loader *ld, const yaml_char_t *name)
{
	size_t i;

	for (i = ld->first; i < ld->n_anchors; i++)
		if (strcmp(ld->anchor[i].name, (const char *)name) == 0)
			return &ld->anchor[i];
	return NULL;
}

/* Puts node id in the open collection (the first node is the root). */
static int attach(struct pack *p, struct loader *ld, int id)
{
	struct frame *f;
	int ok;

	if (ld->depth == 0)
		return 0;
	f = &ld->open[ld->depth - 1];
	if (f->mapping && !f->key) {
		f->key = id;
		return 0;
	}
	if (f->mapping) {
		ok = yaml_document_append_mapping_pair(&p->doc, f->node, f->key, id);
		f->key = 0;
	} else {
		ok = yaml_document_append_sequence_item(&p->doc, f->node, id);
	}
	return ok ? 0 : -ENOMEM;
}

static int compose_alias(struct pack *p, struct loader *ld, const yaml_event_t *ev)
{
	struct anchor *a = find_anchor(ld, ev->data.alias.anchor);
	int err;

	if (++ld->n_aliases > PACK_MAX_ALIASES)
		return fail_at(p, ev->start_mark, "a rule pack may hold at most %u aliases", PACK_MAX_ALIASES);
	if (!a)
		return fail_at(p, ev->start_mark, "found undefined alias");
	if (a->open)
		return fail_at(p, ev->start_mark, "alias \"%s\" names a node that holds it", a->name);
	err = count(p, ld, ev->start_mark, a->nodes, a->text);
	if (err < 0)
		return err;
	return attach(p, ld, a->node);
}

/* A scalar, or the start of a list or a mapping: counted, made, put in place and named. */
static int compose_node(struct pack *p, struct loader *ld, const yaml_event_t *ev)
{
	size_t nodes = ld->nodes, text = ld->text, len = 0;
	const yaml_char_t *name;
	struct anchor *a;
	yaml_node_t *n;
	bool collection = ev->type != YAML_SCALAR_EVENT;
	int id, err;

	if (ev->type == YAML_SCALAR_EVENT) {
		name = ev->data.scalar.anchor;
		len = ev->data.scalar.length;
	} else if (ev->type == YAML_SEQUENCE_START_EVENT) {
		name = ev->data.sequence_start.anchor;
	} else {
		name = ev->data.mapping_start.anchor;
	}
	err = count(p, ld, ev->start_mark, 1, len);
	if (err < 0)
		return err;
	if (collection && ld->depth == PACK_MAX_DEPTH)
		return fail_at(p, ev->start_mark, "a rule pack may nest at most %u levels", PACK_MAX_DEPTH);
	if (name && ld->n_anchors == PACK_MAX_ANCHORS)
		return fail_at(p, ev->start_mark, "a rule pack may hold at most %u anchors", PACK_MAX_ANCHORS);
	if (name && (a = find_anchor(ld, name)))
		return fail_at(p, ev->start_mark, "anchor \"%s\" is already defined at %s:%zu:%zu", a->name,
			       p->file, a->at.line + 1, a->at.column + 1);
	/* Node sizes are ints in libyaml: the limits keep them far below. */
	if (ev->type == YAML_SCALAR_EVENT)
		id = yaml_document_add_scalar(&p->doc, ev->data.scalar.tag, ev->data.scalar.value,
					      (int)len, ev->data.scalar.style);
	else if (ev->type == YAML_SEQUENCE_START_EVENT)
		id = yaml_document_add_sequence(&p->doc, ev->data.sequence_start.tag,
						ev->data.sequence_start.style);
	else
		id = yaml_document_add_mapping(&p->doc, ev->data.mapping_start.tag,
					       ev->data.mapping_start.style);
	if (!id)
		return -ENOMEM;
	n = yaml_document_get_node(&p->doc, id);
	n->start_mark = ev->start_mark;
	n->end_mark = ev->end_mark;
	err = attach(p, ld, id);
	if (err < 0)
		return err;
	if (name) {
		a = &ld->anchor[ld->n_anchors];
		a->name = strdup((const char *)name);
		if (!a->name)
			return -ENOMEM;
		ld->n_anchors++;
		a->node = id;
		a->at = ev->start_mark;
		a->nodes = 1;
		a->text = len;
		a->open = collection;
	}
	if (collection)
		ld->open[ld->depth++] = (struct frame){
			.node = id,
			.mapping = ev->type == YAML_MAPPING_START_EVENT,
			.anchor = name ? ld->n_anchors : 0,
			.nodes = nodes,
			.text = text,
		};
	return 0;
}

static void compose_end(struct loader *ld)
{
	struct frame *f;

	if (ld->depth == 0)
		return;
	f = &ld->open[--ld->depth];
	if (f->anchor) {
		struct anchor *a = &ld->anchor[f->anchor - 1];

		a->nodes = ld->nodes - f->nodes;
		a->text = ld->text - f->text;
		a->open = false;
	}
}

/*
 * Composes the next document into p->doc, which the caller deletes after
 * a success; at the end of the stream it is empty (no root node).
 */
int load_document(struct pack *p, struct loader *ld)
{
	yaml_parser_t *parser = &ld->parser;
	bool started = false, done = false;
	yaml_event_t ev;
	int err = 0;

	while (!done && err == 0) {
		if (!yaml_parser_parse(parser, &ev)) {
			err = diag_set(p->d, -EINVAL, "%s:%zu:%zu: %s%s%s", p->file,
				       parser->problem_mark.line + 1, parser->problem_mark.column + 1,
				       parser->problem ? parser->problem : "invalid YAML",
				       parser->context ? " " : "", parser->context ? parser->context : "");
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_START_EVENT:
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (!yaml_document_initialize(&p->doc, NULL, NULL, NULL, 1, 1))
				err = -ENOMEM;
			started = err == 0;
			ld->first = ld->n_anchors; /* an anchor names nodes of its own document */
			ld->depth = 0;
			break;
		case YAML_ALIAS_EVENT:
			err = compose_alias(p, ld, &ev);
			break;
		case YAML_SCALAR_EVENT:
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			err = compose_node(p, ld, &ev);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			compose_end(ld);
			break;
		case YAML_DOCUMENT_END_EVENT:
			done = true;
			break;
		default: /* the end of the stream (also when asked past it): no root */
			if (!started && !yaml_document_initialize(&p->doc, NULL, NULL, NULL, 1, 1))
				err = -ENOMEM;
			started = err == 0;
			done = true;
			break;
		}
		yaml_event_delete(&ev);
	}
	if (err < 0 && started)
		yaml_document_delete(&p->doc);
	return err;
}
