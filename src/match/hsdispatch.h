// SPDX-License-Identifier: MIT
/*
 * Hyperscan's runtime calls without its IFUNC resolvers (src/match/hsdispatch.c),
 * where meson links them: the wrappers the linker sends the program's calls
 * to, and the runtime's full check of a database for src/scan/hsimage.c.
 */
#ifndef HALLUSCAN_HSDISPATCH_H
#define HALLUSCAN_HSDISPATCH_H

#include <stdbool.h>
#include <stddef.h>

#include <hs.h>

hs_error_t __wrap_hs_scan_stream(hs_stream_t *id, const char *data, unsigned int length,
				 unsigned int flags, hs_scratch_t *scratch, match_event_handler on,
				 void *ctx);
hs_error_t __wrap_hs_open_stream(const hs_database_t *db, unsigned int flags,
				 hs_stream_t **stream);
hs_error_t __wrap_hs_close_stream(hs_stream_t *id, hs_scratch_t *scratch, match_event_handler on,
				  void *ctx);
hs_error_t __wrap_hs_free_database(hs_database_t *db);
hs_error_t __wrap_hs_database_size(const hs_database_t *db, size_t *size);
hs_error_t __wrap_hs_deserialize_database(const char *bytes, const size_t length,
					  hs_database_t **db);
hs_error_t __wrap_hs_serialize_database(const hs_database_t *db, char **bytes, size_t *length);
hs_error_t __wrap_hs_serialized_database_size(const char *bytes, const size_t length,
					      size_t *size);
hs_error_t __wrap_hs_deserialize_database_at(const char *bytes, const size_t length,
					     hs_database_t *db);
hs_error_t __wrap_hs_stream_size(const hs_database_t *db, size_t *size);
/* dbIsValid() of the chosen build: a database's header and the CRC of its bytes. */
hs_error_t hsdispatch_db_is_valid(const hs_database_t *db);

#endif
