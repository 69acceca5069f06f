// SPDX-License-Identifier: MIT
/*
 * The Hyperscan compiler, loaded on first use from the shared library
 * (HALLUSCAN_HS_LIBRARY, default libhs.so.5). Its databases are used by
 * the runtime linked into the program, so both must be one version.
 */
#include <dlfcn.h>
#include <errno.h>
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

const struct hscompiler *hscompiler_get(struct diag *d)
{
	static struct hscompiler c;
	static const struct hscompiler *loaded;
	static char why[512];
	static int tried;

	if (!tried) {
		const char *name = getenv("HALLUSCAN_HS_LIBRARY");
		const char *(*version)(void) = NULL;
		void *lib;

		tried = 1;
		if (!name || !*name)
			name = "libhs.so.5";
		lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
		if (!lib) {
			snprintf(why, sizeof(why), "%s", dlerror());
		} else if (!symbol(lib, "hs_version", &version, sizeof(version)) ||
			   !symbol(lib, "hs_compile_multi", &c.compile_multi, sizeof(c.compile_multi)) ||
			   !symbol(lib, "hs_free_compile_error", &c.free_compile_error,
				   sizeof(c.free_compile_error))) {
			snprintf(why, sizeof(why), "%s has no Hyperscan compiler", name);
		} else if (strcmp(version(), hs_version()) != 0) {
			snprintf(why, sizeof(why), "%s is Hyperscan %s, the program's runtime %s", name,
				 version(), hs_version());
		} else {
			loaded = &c;
		}
	}
	if (!loaded)
		diag_set(d, -ENOTSUP, "the Hyperscan compiler is unavailable: %s", why);
	return loaded;
}
