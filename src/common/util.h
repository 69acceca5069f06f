/* SPDX-License-Identifier: MIT */
/* Small shared helpers: diagnostics, growable arrays, checked allocation. */
#ifndef HALLUSCAN_UTIL_H
#define HALLUSCAN_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

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

/* FNV-1a, 64 bits, of n bytes: the hash of grounded keys and title words. */
static inline uint64_t fnv1a64(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
	return h;
}

/*
 * The stem of the word w[0, n) into out, lowercased (ASCII), of its first
 * cap bytes at most (a longer word is stemmed by its head): a plural's "s"
 * or "ies", then "ed", "ion", "ing" or "ly" off a word still longer than
 * five letters, else a final "e" off one longer than four: "seats" and
 * "seating" are "seat", "validated" and "validation" "validat", "increase",
 * "increased" and "increases" "increas", "sharply" "sharp". Crude, and the
 * same on both sides of a comparison, which is what matters. Returns its
 * length.
 */
size_t word_stem(const char *w, size_t n, char *out, size_t cap);

/* strdup/strndup that return NULL on failure (callers map it to -ENOMEM). */
char *xstrndup(const char *s, size_t n);

/* A byte buffer that only grows. */
struct buf {
	char *data;
	size_t len, cap;
};

int buf_add_grow(struct buf *b, const void *p, size_t n);
/*
 * Appends n bytes, a NUL kept after them; 0 or -ENOMEM. Inline where the
 * buffer has room: the writers append a few bytes at a time.
 */
static inline int buf_add(struct buf *b, const void *p, size_t n)
{
	if (n == 0 || n >= b->cap - b->len)
		return buf_add_grow(b, p, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}
/* Appends a string literal. */
#define BUF_LIT(b, lit) buf_add((b), (lit), sizeof(lit) - 1)
int buf_addc(struct buf *b, char c);
int buf_addf(struct buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
int buf_vaddf(struct buf *b, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);
/*
 * Appends s for a terminal: every control character escaped, so that bytes
 * from file names, records or packs cannot move the cursor, retitle the
 * window or ring the bell. C0 controls, DEL and bytes that are not UTF-8
 * become \xNN, C1 controls (U+0080-U+009F) \u0080-\u009f; the rest,
 * backslashes included, is copied.
 */
int buf_add_visible(struct buf *b, const char *s, size_t n);
/* Appends a formatted message that way: what it formats is escaped. */
int buf_vaddf_visible(struct buf *b, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);
/*
 * Writes "halluscan: ", the message (escaped as above) and a newline to f
 * in one write, or "halluscan: out of memory" when it cannot be made: the
 * program's warnings, and those the library writes to a caller's stream.
 */
void warn_line(FILE *f, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);
/* The length of the valid UTF-8 sequence at p (at most n bytes), or 0. */
size_t utf8_char_len(const unsigned char *p, size_t n);
/* The code points of n bytes of UTF-8: the bytes that are not continuation bytes. */
size_t utf8_count(const char *p, size_t n);
/* Appends a NUL-terminated string; a number in decimal (no printf on hot paths). */
int buf_adds(struct buf *b, const char *s);
int buf_add_u64(struct buf *b, uint64_t v);
/* Writes v in decimal at p (room for 20); returns the digits' count. */
size_t u64_decimal(uint64_t v, char *p);
void buf_free(struct buf *b);

/* Reads a whole file; *out is NUL-terminated and owned by the caller. */
int read_file(const char *path, char **out, size_t *len);
/* Reads at most max bytes of a file (ask for one more than you accept to tell a larger one). */
int read_file_max(const char *path, size_t max, char **out, size_t *len);
/* The same from an open descriptor, which is left open. */
int read_fd_max(int fd, size_t max, char **out, size_t *len);

/*
 * The longest JSONL record read (--pairs and eval), newline not counted. A
 * record is parsed whole: the line and its decoded strings take about twice
 * its size, and its tree at most ~100 MB more (JSON_MAX_VALUES), so a 64 MiB
 * record peaks at 132 MiB, or 208 MiB when it also holds a million values.
 * The longest record of the labelled corpora is 11 KB, and a million-token
 * passage is about 4 MB: nothing real comes near it.
 */
#define RECORD_MAX ((size_t)64 << 20)

/*
 * Lines read from a file descriptor in pieces, each returned as soon as its
 * newline arrives (a pipe that stays open is served line by line). A line
 * longer than the bound is not held: it is read through and reported as too
 * long with its length.
 *
 * lines_new() returns a reader freed with lines_free(), which does not close
 * the descriptor. A line returned by lines_next() is valid until the next
 * call.
 */
struct lines;

int lines_new(int fd, size_t max, struct lines **out);
void lines_free(struct lines *l);
/*
 * The next line, without its newline (NUL-terminated, but it may hold
 * NULs): returns 1 with *line and *len, or 1 with *too_long set, *line NULL
 * and *len its length when it is longer than max; 0 at the end of the
 * input; or a negative errno of read(2). A last line without a newline is
 * a line.
 */
int lines_next(struct lines *l, const char **line, size_t *len, bool *too_long);

/* The first lit[0, k) in s[0, n), or NULL: memmem, several times as fast on short texts. */
const char *find_literal(const char *s, size_t n, const char *lit, size_t k);

/* The four hexadecimal digits at p (a JSON \uXXXX's) as a number, or -1. */
int hex4(const unsigned char *p);

/*
 * Whether the processor runs AVX2: asked of it once (glibc's
 * CPU_FEATURE_ACTIVE() is a call, and the lexer's and the word search's
 * texts are often one short sentence); false where the build cannot ask.
 * Threads that ask at once all store the same answer.
 */
extern int util_avx2; /* 0 not asked, 1 no, 2 yes */
int util_avx2_ask(void);

static inline bool cpu_avx2(void)
{
	int k = __atomic_load_n(&util_avx2, __ATOMIC_RELAXED);

	return (k ? k : util_avx2_ask()) == 2;
}

#endif
