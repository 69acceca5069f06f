/* SPDX-License-Identifier: MIT */
/*
 * The user's bibliography (--bib): BibTeX or CSL-JSON files read into
 * entries keyed by normalized title, DOI and arXiv id, and the match of a
 * bibliography entry the model wrote against them.
 *
 * bib_new() returns an object freed with bib_free(); it keeps a pointer to
 * the refs (for title normalization), which must outlive it. bib_add()
 * copies what it keeps of the text it is given.
 */
#ifndef HALLUSCAN_BIB_H
#define HALLUSCAN_BIB_H

#include <stdbool.h>
#include <stddef.h>

#include "common/util.h"
#include "refs.h"

/* A bibliography file larger than this, or with more entries, is refused. */
#define BIB_MAX_BYTES (64u << 20)
#define BIB_MAX_ENTRIES 100000u

struct bib_entry {
	char *key;        /* the citation key (BibTeX) or id (CSL-JSON); "" when none */
	char *title;      /* as written, braces and LaTeX commands out */
	char *title_key;  /* refs_title_key() of it */
	char *author;     /* the first author's family name, folded to lowercase ASCII, or "" */
	unsigned year;    /* 0: none */
	char *doi;        /* lowercase, or "" */
	char *arxiv;      /* lowercase, without its version, or "" */
};

struct bib;

int bib_new(const struct refs *r, struct bib **out);
void bib_free(struct bib *b);

/*
 * Reads one file held in memory: CSL-JSON when its first byte that is not
 * blank is "[" or "{", else BibTeX. Returns 0, -ENOMEM, or -EINVAL with d
 * saying "name:line:col: why" (nothing of the file is kept then).
 */
int bib_add(struct bib *b, const char *name, const char *data, size_t len, struct diag *d);
size_t bib_count(const struct bib *b);
/* Entry i < bib_count(b), in the order read. */
const struct bib_entry *bib_at(const struct bib *b, size_t i);

enum bib_verdict {
	BIB_NONE,    /* no entry of the bibliography is this one */
	BIB_MATCH,   /* it is one: grounded */
	BIB_ALTERED, /* a title of the bibliography with other authors or another
			year, or its DOI or arXiv id on another title */
};

/*
 * Matches entry e (its text is text) against the bibliography. Titles
 * match when the Dice coefficient of their normalized words is at least
 * min_similarity (1 - the rule's near tolerance); then year and first
 * author decide, where both sides give them. *which is the bibliography
 * entry matched (BIB_MATCH, BIB_ALTERED); *why what differs (a static string).
 */
enum bib_verdict bib_match(const struct bib *b, const struct ref_entry *e, const char *text,
			   double min_similarity, const struct bib_entry **which, const char **why);

/* The Dice coefficient of the words of two normalized titles, in [0, 1]. */
double bib_title_similarity(const char *a, const char *b);

/* The first author's family name of an author list as written, folded, into out. */
int bib_first_author(const char *authors, size_t n, struct buf *out);

#endif
