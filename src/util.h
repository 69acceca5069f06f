/* SPDX-License-Identifier: MIT */
/* Small shared helpers: diagnostics, growable arrays, checked allocation. */
#ifndef HALLUSCAN_UTIL_H
#define HALLUSCAN_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/*
 * A diagnostic filled by library code that fails; the program prints it once
 * as "halluscan: <msg>". Library code never prints.
 */
struct diag {
	char msg[1024];
};

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* Formats into d (when d is not NULL) and returns err, for "return diag_set(...)". */
int diag_set(struct diag *d, int err, const char *fmt, ...) PRINTF_LIKE(3, 4);

/*
 * Grows *buf (of element size elem, capacity *cap) to hold at least need
 * elements. Returns 0 or -ENOMEM; *buf is unchanged on failure. Inline for
 * the usual case, which is a comparison on paths run per match.
 */
int grow_slow(void *buf, size_t *cap, size_t need, size_t elem);

static inline int grow(void *buf, size_t *cap, size_t need, size_t elem)
{
	return need <= *cap ? 0 : grow_slow(buf, cap, need, elem);
}

/* strdup/strndup that return NULL on failure (callers map it to -ENOMEM). */
char *xstrndup(const char *s, size_t n);

/* A byte buffer that only grows. */
struct buf {
	char *data;
	size_t len, cap;
};

int buf_add(struct buf *b, const void *p, size_t n);
/* Appends a string literal. */
#define BUF_LIT(b, lit) buf_add((b), (lit), sizeof(lit) - 1)
int buf_addc(struct buf *b, char c);
int buf_addf(struct buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Appends a NUL-terminated string; a number in decimal (no printf on hot paths). */
int buf_adds(struct buf *b, const char *s);
int buf_add_u64(struct buf *b, uint64_t v);
void buf_free(struct buf *b);

/* Reads a whole file; *out is NUL-terminated and owned by the caller. */
int read_file(const char *path, char **out, size_t *len);
/* Reads at most max bytes of a file (ask for one more than you accept to tell a larger one). */
int read_file_max(const char *path, size_t max, char **out, size_t *len);

#endif
