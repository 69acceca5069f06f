// SPDX-License-Identifier: MIT
/*
 * Hyperscan's hs_alloc_scratch() checks a database's CRC-32C over all of
 * its bytes (dbIsValid) each time it is called: for the built-in database
 * that was 16% of the instructions of a 4 KB message as a process (issue
 * 35). The built-in database lies in the program's own read-only data
 * (builtin_db, used in place) and was checked whole when it was built: mkdb
 * compiled it, and the tests, which link the Hyperscan library whole and
 * not this file, allocate their scratch from it with the full check.
 *
 * Where the program links Hyperscan's runtime from its archive, meson has
 * the linker send the runtime's calls of dbIsValid here (--wrap): a
 * database that lies wholly inside builtin_db gets the checks of its header
 * (hs_database_size: magic, version, platform, alignment); any other (a
 * cache entry, a pack compiled in the run) the library's full check.
 */
#include <stdint.h>

#include <hs.h>

#include "scan/db.h"

hs_error_t __wrap_dbIsValid(const hs_database_t *db);
#if HAVE_HSDISPATCH
#include "match/hsdispatch.h"
#define full_check hsdispatch_db_is_valid
#else
hs_error_t __real_dbIsValid(const hs_database_t *db);
#define full_check __real_dbIsValid
#endif

hs_error_t __wrap_dbIsValid(const hs_database_t *db)
{
	uintptr_t at = (uintptr_t)db, lo = (uintptr_t)builtin_db;
	size_t n;

	if (db && at >= lo && at - lo < builtin_db_len &&
	    hs_database_size(db, &n) == HS_SUCCESS && n <= builtin_db_len - (at - lo))
		return HS_SUCCESS;
	return full_check(db);
}
