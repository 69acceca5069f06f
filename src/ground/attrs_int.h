/* SPDX-License-Identifier: MIT */
/*
 * The attribute check's lists as attrs.c keeps them, shared with the
 * built-in lists that mkdb writes as C data at build time (builtin_db.c),
 * which the program points at instead of hashing every word at each start
 * (issue 35). Not an interface.
 */
#ifndef HALLUSCAN_GROUND_ATTRS_INT_H
#define HALLUSCAN_GROUND_ATTRS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "attrs.h"

struct syn {
	uint64_t from, to;
};

/* Constant: the built-in lists are read-only data (attrs_write_c()). */
struct hashes {
	const uint64_t *h;
	size_t n;
};

struct attrs {
	struct hashes generic, neg, brk, sub, cop, asserts, subjects, avail, conj, cond;
	struct hashes yes, no, offers; /* lowercased, not stemmed */
	const struct syn *syn;
	size_t n_syn;
};

#endif
