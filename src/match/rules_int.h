/* SPDX-License-Identifier: MIT */
/*
 * What rules.c, rules_yaml.c, rules_codec.c share and nothing else includes: the types and
 * macros more than one of them uses, the small helpers they share (inline), and the functions
 * and tables one of them defines for another. Written by scripts/split.py; not an interface.
 */
#ifndef HALLUSCAN_MATCH_RULES_INT_H
#define HALLUSCAN_MATCH_RULES_INT_H

#include "common/sha256.h"
#include "rules.h"
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

/* The state of one pack being parsed. */
struct pack {
	struct ruleset *rs;
	const char *file;
	yaml_document_t doc;
	struct diag *d;
};

static const char *const grounding_names[] = {
	[GROUNDING_EXACT] = "exact",
	[GROUNDING_URL] = "url",
	[GROUNDING_NUMBER] = "number",
	[GROUNDING_CITATION] = "citation",
	[GROUNDING_NONE] = "none",
	[GROUNDING_QUANTITY] = "quantity",
	[GROUNDING_REFERENCE] = "reference",
	[GROUNDING_ATTRIBUTE] = "attribute",
	[GROUNDING_CODE] = "code",
};

/*
 * ---- the document, composed from libyaml's events within limits ----
 *
 * libyaml's loader shares an aliased node, but the walk above copies it at
 * every use: 76 KB of aliases made 236 MB of copies, 38 KB of aliases of
 * a rule that holds aliases 1 GB. Its scanner is quadratic in nesting
 * (100k levels of '[': 22 s), its loader in anchors (50k: 18 s), and a
 * loaded node costs about 160 bytes. So the document is composed here, from the events,
 * counting as it goes what the walk will do, and a pack stops at the
 * event that passes a limit: a hostile pack costs what its first
 * PACK_MAX_* events cost. (A first pass over the events before
 * yaml_parser_load() would parse every pack twice.)
 */
struct anchor {
	char *name;
	int node;
	yaml_mark_t at;
	size_t nodes, text; /* what an alias of it stands for, once it is closed */
	bool open;          /* a collection not yet ended: an alias of it is a cycle */
};

/* A collection being composed. */
struct frame {
	int node;
	int key;            /* a mapping's key waiting for its value, or 0 */
	bool mapping;
	size_t anchor;      /* index + 1, or 0 */
	size_t nodes, text; /* the counts before it */
};

/* A parse: the counts run over every document of the pack. */
struct loader {
	yaml_parser_t parser;
	struct anchor anchor[PACK_MAX_ANCHORS];
	size_t n_anchors, first; /* first: the current document's first anchor */
	size_t n_aliases, nodes, text, depth;
	struct frame open[PACK_MAX_DEPTH];
};

static int fail_at(const struct pack *p, yaml_mark_t m, const char *fmt, ...) PRINTF_LIKE(3, 4);

int load_document(struct pack *p, struct loader *ld);
/* Cross-pack checks and the signals: ruleset_finish() without the digest (rules.c). */
int ruleset_check(struct ruleset *rs, struct diag *d);

static inline yaml_node_t *node(struct pack *p, int idx)
{
	return yaml_document_get_node(&p->doc, idx);
}

/* Frees a string of rs (NULL: of none) unless one of its arenas holds it. */
static inline void str_free(const struct ruleset *rs, char *p)
{
	uintptr_t u = (uintptr_t)p;
	size_t i;

	for (i = 0; rs && i < rs->n_arenas; i++)
		if (u >= (uintptr_t)rs->arenas[i].data &&
		    u < (uintptr_t)rs->arenas[i].data + rs->arenas[i].len)
			return;
	free(p);
}

static inline void free_examples(const struct ruleset *rs, struct example *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		str_free(rs, e[i].text);
		str_free(rs, e[i].match);
	}
	str_free(rs, (char *)e); /* the built-in triggers' examples lie in an arena too */
}

static inline void free_example_arrays(const struct ruleset *rs, struct rule *r)
{
	free_examples(rs, r->examples, r->n_examples);
	free_examples(rs, r->negatives, r->n_negatives);
	free_examples(rs, r->fix_examples, r->n_fix_examples);
	r->examples = r->negatives = r->fix_examples = NULL;
	r->n_examples = r->n_negatives = r->n_fix_examples = 0;
}

static inline int fail_at(const struct pack *p, yaml_mark_t m, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return diag_set(p->d, -EINVAL, "%s:%zu:%zu: %s", p->file, m.line + 1, m.column + 1, what);
}

/* Counts nodes and text at mark m; -EINVAL past a limit. */
static inline int count(const struct pack *p, struct loader *ld, yaml_mark_t m, size_t nodes, size_t text)
{
	ld->nodes += nodes;
	ld->text += text;
	if (ld->nodes > PACK_MAX_NODES)
		return fail_at(p, m, "a rule pack may hold at most %u nodes, an alias counted as what it names",
			       PACK_MAX_NODES);
	if (ld->text > PACK_MAX_TEXT)
		return fail_at(p, m, "a rule pack may hold at most %u bytes of text, an alias counted as what it names",
			       PACK_MAX_TEXT);
	return 0;
}

static inline struct loader *loader_new(const char *data, size_t len)
{
	struct loader *ld = calloc(1, sizeof(*ld));

	if (!ld)
		return NULL;
	if (!yaml_parser_initialize(&ld->parser)) {
		free(ld);
		return NULL;
	}
	yaml_parser_set_input_string(&ld->parser, (const unsigned char *)data, len);
	return ld;
}

static inline void loader_free(struct loader *ld)
{
	size_t i;

	if (!ld)
		return;
	yaml_parser_delete(&ld->parser);
	for (i = 0; i < ld->n_anchors; i++)
		free(ld->anchor[i].name);
	free(ld);
}

#endif
