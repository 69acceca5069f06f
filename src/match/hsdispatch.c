// SPDX-License-Identifier: MIT
/*
 * Hyperscan's runtime is built once per processor generation (avx512vbmi,
 * avx512, avx2, corei7, core2) and each call of its API is an IFUNC: the
 * dynamic loader runs a resolver for each call the program links, at every
 * start, and each resolver asks the processor with cpuid, which traps to
 * the hypervisor in a virtual machine (about 2 us apiece; two cpuids and an
 * xgetbv for each of the seven calls the program makes, issue 35).
 *
 * Where the program links the runtime from its archive, meson has the
 * linker send those calls here (--wrap) and they go straight to the build
 * chosen once, in the order and by the tests of Hyperscan's own resolvers
 * (src/dispatcher.c, util/cpuid_inline.h there), read from what glibc
 * learnt of the processor when it started (<sys/platform/x86.h>), with no
 * cpuid, at the first call. Every build finds the same matches; a processor none can run gets
 * HS_ARCH_ERROR, as from Hyperscan.
 */
#include <stdatomic.h>
#include <sys/platform/x86.h>

#include <hs.h>

#include "hsdispatch.h"

#define DECLARE(p)                                                                            \
	hs_error_t p##hs_scan_stream(hs_stream_t *id, const char *data, unsigned int length,  \
				     unsigned int flags, hs_scratch_t *scratch,               \
				     match_event_handler on, void *ctx);                      \
	hs_error_t p##hs_open_stream(const hs_database_t *db, unsigned int flags,             \
				     hs_stream_t **stream);                                   \
	hs_error_t p##hs_close_stream(hs_stream_t *id, hs_scratch_t *scratch,                 \
				      match_event_handler on, void *ctx);                     \
	hs_error_t p##hs_free_database(hs_database_t *db);                                    \
	hs_error_t p##hs_database_size(const hs_database_t *db, size_t *size);                \
	hs_error_t p##hs_deserialize_database(const char *bytes, const size_t length,         \
					      hs_database_t **db);                            \
	hs_error_t p##hs_serialize_database(const hs_database_t *db, char **bytes,            \
					    size_t *length);                                  \
	hs_error_t p##hs_serialized_database_size(const char *bytes, const size_t length,     \
						  size_t *size);                              \
	hs_error_t p##hs_deserialize_database_at(const char *bytes, const size_t length,      \
						 hs_database_t *db);                          \
	hs_error_t p##hs_stream_size(const hs_database_t *db, size_t *size);                  \
	hs_error_t p##dbIsValid(const hs_database_t *db)

DECLARE(avx512vbmi_);
DECLARE(avx512_);
DECLARE(avx2_);
DECLARE(corei7_);
DECLARE(core2_);

enum build { UNCHOSEN, AVX512VBMI, AVX512, AVX2, COREI7, CORE2, NONE };

static atomic_int chosen = UNCHOSEN;

static enum build choose(void)
{
	bool avx512 = CPU_FEATURE_ACTIVE(AVX512F) && CPU_FEATURE_ACTIVE(AVX512BW);
	enum build b = NONE;

	if (avx512 && CPU_FEATURE_ACTIVE(AVX512_VBMI))
		b = AVX512VBMI;
	else if (avx512)
		b = AVX512;
	else if (CPU_FEATURE_ACTIVE(AVX2))
		b = AVX2;
	else if (CPU_FEATURE_ACTIVE(SSE4_2) && CPU_FEATURE_ACTIVE(POPCNT))
		b = COREI7;
	else if (CPU_FEATURE_ACTIVE(SSSE3))
		b = CORE2;
	return b;
}

/*
 * The build, chosen at the first call (any thread may make it: each
 * chooses the same, from data glibc set before main()).
 */
static inline enum build build(void)
{
	int b = atomic_load_explicit(&chosen, memory_order_relaxed);

	if (__builtin_expect(b == UNCHOSEN, 0)) {
		b = (int)choose();
		atomic_store_explicit(&chosen, b, memory_order_relaxed);
	}
	return (enum build)b;
}

/* A direct call of the chosen build's function: no table of pointers to relocate. */
#define CALL(name, ...)                                          \
	switch (build()) {                                       \
	case AVX512VBMI:                                         \
		return avx512vbmi_##name(__VA_ARGS__);           \
	case AVX512:                                             \
		return avx512_##name(__VA_ARGS__);               \
	case AVX2:                                               \
		return avx2_##name(__VA_ARGS__);                 \
	case COREI7:                                             \
		return corei7_##name(__VA_ARGS__);               \
	case CORE2:                                              \
		return core2_##name(__VA_ARGS__);                \
	default:                                                 \
		return HS_ARCH_ERROR;                            \
	}

hs_error_t __wrap_hs_scan_stream(hs_stream_t *id, const char *data, unsigned int length,
				 unsigned int flags, hs_scratch_t *scratch, match_event_handler on,
				 void *ctx)
{
	CALL(hs_scan_stream, id, data, length, flags, scratch, on, ctx)
}

hs_error_t __wrap_hs_open_stream(const hs_database_t *db, unsigned int flags,
				 hs_stream_t **stream)
{
	CALL(hs_open_stream, db, flags, stream)
}

hs_error_t __wrap_hs_close_stream(hs_stream_t *id, hs_scratch_t *scratch, match_event_handler on,
				  void *ctx)
{
	CALL(hs_close_stream, id, scratch, on, ctx)
}

hs_error_t __wrap_hs_free_database(hs_database_t *db)
{
	CALL(hs_free_database, db)
}

hs_error_t __wrap_hs_database_size(const hs_database_t *db, size_t *size)
{
	CALL(hs_database_size, db, size)
}

hs_error_t __wrap_hs_deserialize_database(const char *bytes, const size_t length,
					  hs_database_t **db)
{
	CALL(hs_deserialize_database, bytes, length, db)
}

/*
 * The calls only a pack compiled in the run makes: where the program links
 * the compiler (a static program), their resolvers would run at each start.
 */
hs_error_t __wrap_hs_serialize_database(const hs_database_t *db, char **bytes, size_t *length)
{
	CALL(hs_serialize_database, db, bytes, length)
}

hs_error_t __wrap_hs_serialized_database_size(const char *bytes, const size_t length,
					      size_t *size)
{
	CALL(hs_serialized_database_size, bytes, length, size)
}

hs_error_t __wrap_hs_deserialize_database_at(const char *bytes, const size_t length,
					     hs_database_t *db)
{
	CALL(hs_deserialize_database_at, bytes, length, db)
}

hs_error_t __wrap_hs_stream_size(const hs_database_t *db, size_t *size)
{
	CALL(hs_stream_size, db, size)
}

hs_error_t hsdispatch_db_is_valid(const hs_database_t *db)
{
	CALL(dbIsValid, db)
}
