/* SPDX-License-Identifier: MIT */
/*
 * The Hyperscan compiler, apart from its runtime. The program links only
 * the runtime (a C library: no C++ runtime to load, a fraction of the
 * relocations at start-up) and loads the compiler library the first time
 * a rule pack must be compiled; the build tools and tests link it.
 *
 * With it come the runtime's calls that only a database compiled here
 * needs (to write it out, to describe it): each of the runtime's calls is
 * chosen for the processor at start-up (an IFUNC whose resolver runs
 * cpuid, about 2 us apiece in a virtual machine) as soon as the program
 * links it, so a run that loads the built-in database links none of them.
 */
#ifndef HALLUSCAN_HSCOMPILER_H
#define HALLUSCAN_HSCOMPILER_H

#include <hs.h>

#include "common/util.h"

struct hscompiler {
	hs_error_t (*compile_multi)(const char *const *exprs, const unsigned *flags,
				    const unsigned *ids, unsigned n, unsigned mode,
				    const hs_platform_info_t *platform, hs_database_t **db,
				    hs_compile_error_t **error);
	hs_error_t (*free_compile_error)(hs_compile_error_t *error);
	hs_error_t (*serialize_database)(const hs_database_t *db, char **bytes, size_t *length);
	hs_error_t (*serialized_database_size)(const char *bytes, const size_t length,
					       size_t *deserialized_size);
	hs_error_t (*deserialize_database_at)(const char *bytes, const size_t length,
					      hs_database_t *db);
	hs_error_t (*stream_size)(const hs_database_t *database, size_t *stream_size);
};

/* The compiler, or NULL with why it cannot be had in d (-ENOTSUP). */
const struct hscompiler *hscompiler_get(struct diag *d);

#endif
