// SPDX-License-Identifier: MIT
/*
 * The Hyperscan compiler, loaded on first use from the shared library
 * (HALLUSCAN_HS_LIBRARY, default libhs.so.5). Its databases are used by
 * the runtime linked into the program, so both must be one version.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hscompiler.h"

/* dlsym() returns an object pointer; POSIX guarantees it converts to a function's. */
static void *symbol(void *lib, const char *name, void *fn, size_t size)
{
	void *p = dlsym(lib, name);

	if (p)
		memcpy(fn, &p, size);
	return p;
}

static struct hscompiler compiler;
static const struct hscompiler *loaded;
static char why[512];

static void load(void)
{
	const char *name = getenv("HALLUSCAN_HS_LIBRARY");
	const char *(*version)(void) = NULL;
	void *lib;

	if (!name || !*name)
		name = "libhs.so.5";
	lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, sizeof(why), "%s", dlerror());
	} else if (!symbol(lib, "hs_version", &version, sizeof(version)) ||
		   !symbol(lib, "hs_compile_multi", &compiler.compile_multi,
			   sizeof(compiler.compile_multi)) ||
		   !symbol(lib, "hs_free_compile_error", &compiler.free_compile_error,
			   sizeof(compiler.free_compile_error)) ||
		   !symbol(lib, "hs_serialize_database", &compiler.serialize_database,
			   sizeof(compiler.serialize_database)) ||
		   !symbol(lib, "hs_serialized_database_size", &compiler.serialized_database_size,
			   sizeof(compiler.serialized_database_size)) ||
		   !symbol(lib, "hs_deserialize_database_at", &compiler.deserialize_database_at,
			   sizeof(compiler.deserialize_database_at)) ||
		   !symbol(lib, "hs_stream_size", &compiler.stream_size,
			   sizeof(compiler.stream_size))) {
		snprintf(why, sizeof(why), "%s has no Hyperscan compiler", name);
	} else if (strcmp(version(), hs_version()) != 0) {
		snprintf(why, sizeof(why), "%s is Hyperscan %s, the program's runtime %s", name,
			 version(), hs_version());
	} else {
		loaded = &compiler;
	}
}

const struct hscompiler *hscompiler_get(struct diag *d)
{
	/* Once: the library's users may compile rules on several threads at once. */
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, load);
	if (!loaded)
		diag_set(d, -ENOTSUP, "the Hyperscan compiler is unavailable: %s", why);
	return loaded;
}
