/* SPDX-License-Identifier: MIT */
/*
 * The Hyperscan compiler, apart from its runtime. The program links only
 * the runtime (a C library: no C++ runtime to load, a fraction of the
 * relocations at start-up) and loads the compiler library the first time
 * a rule pack must be compiled; the build tools and tests link it.
 */
#ifndef HALLUSCAN_HSCOMPILER_H
#define HALLUSCAN_HSCOMPILER_H

#include <hs.h>

#include "util.h"

struct hscompiler {
	hs_error_t (*compile_multi)(const char *const *exprs, const unsigned *flags,
				    const unsigned *ids, unsigned n, unsigned mode,
				    const hs_platform_info_t *platform, hs_database_t **db,
				    hs_compile_error_t **error);
	hs_error_t (*free_compile_error)(hs_compile_error_t *error);
};

/* The compiler, or NULL with why it cannot be had in d (-ENOTSUP). */
const struct hscompiler *hscompiler_get(struct diag *d);

#endif
