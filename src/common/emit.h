/* SPDX-License-Identifier: MIT */
/*
 * JSON strings written. They are always valid UTF-8: control characters and NUL
 * are \u escapes, and each byte that is not part of valid UTF-8 becomes the
 * lone surrogate \udcXX (the "surrogateescape" convention: Python decodes it
 * back to the byte, jq shows U+FFFD). Functions append to a struct buf the
 * caller owns; nothing here writes to a file.
 */
#ifndef HALLUSCAN_EMIT_H
#define HALLUSCAN_EMIT_H

#include <stddef.h>

#include "util.h"

/* Appends s as a quoted JSON string. */
int emit_json_string(struct buf *b, const char *s, size_t n);
/*
 * The same, but each byte that is not part of valid UTF-8 becomes U+FFFD
 * and is counted in *replaced (when not NULL): for output a strict reader
 * takes (--records), where the byte need not come back.
 */
int emit_json_string_utf8(struct buf *b, const char *s, size_t n, size_t *replaced);
/*
 * Text quoted from the input (a finding's text, message, recovery,
 * source; a claim): as emit_json_string() and emit_json_string_utf8(),
 * with the userinfo of every URL in it redacted (url.h).
 */
int emit_json_quote(struct buf *b, const char *s, size_t n);
int emit_json_quote_utf8(struct buf *b, const char *s, size_t n, size_t *replaced);
/*
 * Appends the JSON text t (n bytes, as json_parse() accepted it) with each
 * byte that is not part of valid UTF-8 replaced by U+FFFD, and each lone
 * surrogate escape (\udcXX included) by \ufffd; *replaced counts them.
 * Everything else is copied byte for byte.
 */
int emit_json_text_utf8(struct buf *b, const char *t, size_t n, size_t *replaced);

#endif
