/* SPDX-License-Identifier: MIT */
/*
 * The input's encoding. A byte-order mark names UTF-8, UTF-16LE/BE or
 * UTF-32LE/BE: the mark is dropped, and UTF-16 and UTF-32 are transcoded to
 * UTF-8 as they stream in, split anywhere across reads. A code unit that
 * is no character (an unpaired surrogate, a value past U+10FFFF, a unit cut
 * off by the end) becomes U+FFFD and is counted. Input without a mark
 * passes through as bytes, unless its first bytes have the NULs that
 * UTF-16 or UTF-32 text has in every other or three of four bytes: that is
 * refused (-EILSEQ), not scanned as bytes that nothing would match. Its
 * first four bytes (or its first line, if shorter) decide which: without a
 * NUL it is bytes at once; with one, the first DECODE_SNIFF bytes are
 * judged. The same bytes are decided the same way however they are read.
 *
 * The caller owns struct decoder: decode_init() before the first input
 * (and between inputs), decode_free() at the end. Output pointers are
 * valid until the next call.
 */
#ifndef HALLUSCAN_DECODE_H
#define HALLUSCAN_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "common/util.h"

/* Input without a mark is held until this much is seen (or a decision comes sooner). */
#define DECODE_SNIFF 1024

enum decode_encoding {
	DECODE_PENDING,  /* not known yet */
	DECODE_BYTES,    /* no mark: passed through as it is */
	DECODE_UTF8_BOM, /* UTF-8 after a mark, passed through */
	DECODE_UTF16LE,
	DECODE_UTF16BE,
	DECODE_UTF32LE,
	DECODE_UTF32BE,
};

struct decoder {
	enum decode_encoding enc;
	enum decode_encoding guess; /* after -EILSEQ: what the marked-less input looks like */
	unsigned char head[DECODE_SNIFF];
	size_t head_len;            /* bytes held while enc is pending */
	unsigned char unit[4];
	size_t unit_len;            /* bytes of a code unit cut by the read */
	uint32_t high;              /* a high surrogate waiting for its low one, or 0 */
	uint64_t replaced;          /* U+FFFD written for code units that are no character */
	struct buf out;
};

/* Starts an input; the output buffer is kept for reuse. */
void decode_init(struct decoder *d);
void decode_free(struct decoder *d);

/*
 * Takes in[0, n) and sets *out and *len to the UTF-8 (or passed-through)
 * bytes that follow what was given before: in itself where nothing needs
 * decoding, else the decoder's buffer. Returns 0, -ENOMEM, or -EILSEQ
 * when the input looks like UTF-16 or UTF-32 without a mark (d->guess).
 */
int decode_feed(struct decoder *d, const void *in, size_t n, const char **out, size_t *len);
/* Ends the input: what was held, and U+FFFD for a cut code unit. Returns as decode_feed(). */
int decode_end(struct decoder *d, const char **out, size_t *len);

/* "utf-8", "utf-16le", ... as iconv and Python spell them in lowercase; NULL for bytes. */
const char *decode_name(enum decode_encoding e);

#endif
