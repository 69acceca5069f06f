/* SPDX-License-Identifier: MIT */
/*
 * What engine.c, engine_compile.c share and nothing else includes: the types and macros more
 * than one of them uses, the small helpers they share (inline), and the functions and tables
 * one of them defines for another. Written by scripts/split.py; not an interface.
 */
#ifndef HALLUSCAN_MATCH_ENGINE_INT_H
#define HALLUSCAN_MATCH_ENGINE_INT_H

#include "config.h"
#include "engine.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#if HAVE_HYPERSCAN
#include <hs.h>

#include "hscompiler.h"
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * Reads are cut into pieces of this size so that per-read state stays
 * small: a piece's reports, marks and line breaks wait for it whole. Each
 * piece costs a settling walk over every pattern and two Hyperscan calls,
 * which are what a larger piece saves.
 */
#define PIECE 65536
/* The PCRE2 patterns' line buffer takes at most this much at a time: it
 * bounds the subject (SUBJECT_MAX), and with it the backtracking limits. */
#define PCRE2_PIECE 16384

/* A line longer than this is matched in windows that overlap by ENGINE_MAX_MATCH. */
#define LINE_CAP (65536 + ENGINE_MAX_MATCH)

#define NO_MARK ((size_t)-1)

struct engine {
	size_t n;
	size_t mark;           /* the ENGINE_SENTENCE_MARK pattern, or NO_MARK */
	size_t lines;          /* the ENGINE_LINE_BREAK pattern, or NO_MARK */
	bool *pcre2;           /* per pattern: runs on PCRE2 */
	pcre2_code **code;     /* per pattern, NULL where Hyperscan runs it */
	struct literal *lit;   /* per pattern on PCRE2: what every match starts with */
	size_t n_pcre2;
	size_t n_never;        /* ENGINE_NEVER patterns: no engine runs them */
	pcre2_match_context *mctx;
#if HAVE_HYPERSCAN
	/* [0]: the patterns scanned from the start; [1]: the ENGINE_LATE ones.
	 * NULL where no such pattern runs on Hyperscan. */
	hs_database_t *db[2];
	size_t db_bytes[2];
	bool db_borrowed;      /* images in the caller's buffer: not ours to free */
	char degraded[256];    /* why Hyperscan compiled nothing (all on PCRE2), or "" */
#endif
};

/* The literal bytes every match of a pattern starts with (len 0: none known). */
struct literal {
	char s[15];
	unsigned char len;
};

#endif
