// SPDX-License-Identifier: MIT
/* The library's names for itself, its errors and its labels. */
#include <errno.h>
#include <string.h>

#include "api.h"
#include "claims/claims.h"
#include "config.h"
#include "match/engine.h"

const char *halluscan_version(void)
{
	return HALLUSCAN_VERSION;
}

const char *halluscan_engine_version(void)
{
	return engine_version();
}

const char *halluscan_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
	case -ECANCELED:
		return "the callback stopped the scan";
	case -EBADFD:
		return "the scanner stopped on an error: reset it before the next input";
	case -EBUSY:
		return "grounding is added between inputs, and an input scanned between groundings";
	case -ENOMEM:
		return "out of memory";
	case -ENOENT:
		return "no such file, directory or context";
	case -EINVAL:
		return "invalid argument";
	default: {
		/* Static text, unlike strerror(), which may format into a shared buffer. */
		const char *s = err < 0 ? strerrordesc_np(-err) : NULL;

		return s ? s : "unknown error";
	}
	}
}

const char *halluscan_severity_name(enum halluscan_severity s)
{
	return severity_name((enum severity)s);
}

const char *halluscan_claim_label_name(enum halluscan_claim_label l)
{
	return (unsigned)l < CLAIM_LABELS ? claim_label_name((enum claim_label)l) : "unknown";
}
