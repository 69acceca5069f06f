// SPDX-License-Identifier: MIT
/* Small shared helpers: diagnostics, growable arrays, checked allocation. */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
/* find_literal() in AVX2 where the CPU has it, asked of what the dynamic
 * loader found (as the engine's sentence-mark scan does). */
#include <immintrin.h>
#include <sys/platform/x86.h> /* glibc 2.33 and later */
#define LITERAL_AVX2 1
#endif
#endif

int util_avx2;

int util_avx2_ask(void)
{
#ifdef LITERAL_AVX2
	int k = CPU_FEATURE_ACTIVE(AVX2) ? 2 : 1;
#else
	int k = 1;
#endif

	__atomic_store_n(&util_avx2, k, __ATOMIC_RELAXED);
	return k;
}

int diag_set(struct diag *d, int err, const char *fmt, ...)
{
	va_list ap;

	if (d) {
		va_start(ap, fmt);
		vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
		va_end(ap);
	}
	return err;
}

int grow_slow(void *buf, size_t *cap, size_t need, size_t elem)
{
	void **p = buf;
	size_t ncap;
	void *n;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elem)
			return -ENOMEM;
		ncap *= 2;
	}
	n = realloc(*p, ncap * elem);
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = ncap;
	return 0;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

int buf_add_grow(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return 0;
	if (grow(&b->data, &b->cap, b->len + n + 1, 1) < 0)
		return -ENOMEM;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int buf_addc(struct buf *b, char c)
{
	return buf_add(b, &c, 1);
}

int buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	char tmp[256];
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(tmp, sizeof(tmp), fmt, aq);
	va_end(aq);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n < sizeof(tmp))
		return buf_add(b, tmp, (size_t)n);
	if (grow(&b->data, &b->cap, b->len + (size_t)n + 1, 1) < 0)
		return -ENOMEM;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = buf_vaddf(b, fmt, ap);
	va_end(ap);
	return err;
}

size_t utf8_char_len(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	size_t k, i;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		k = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		k = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		k = 4, cp = c & 0x07;
	else
		return 0;
	if (n < k)
		return 0;
	for (i = 1; i < k; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are not UTF-8. */
	if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return k;
}

int buf_add_visible(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run, k;
	int err = 0;

	while (i < n && err == 0) {
		char esc[6];

		/* Printable ASCII and UTF-8 past the C1 block, in runs. */
		for (run = i; i < n; i += k) {
			k = p[i] >= 0x20 && p[i] < 0x7F ? 1
			    : p[i] >= 0x80 && !(p[i] == 0xC2 && i + 1 < n && p[i + 1] < 0xA0)
				    ? utf8_char_len(p + i, n - i)
				    : 0;
			if (k == 0)
				break;
		}
		err = buf_add(b, s + run, i - run);
		if (i == n || err)
			break;
		if (p[i] == 0xC2 && i + 1 < n && (p[i + 1] & 0xE0) == 0x80) {
			/* U+0080-U+009F: C2 80-C2 9F */
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[p[i + 1] >> 4];
			esc[5] = hex[p[i + 1] & 15];
			err = buf_add(b, esc, 6);
			i += 2;
			continue;
		}
		esc[0] = '\\';
		esc[1] = 'x';
		esc[2] = hex[p[i] >> 4];
		esc[3] = hex[p[i] & 15];
		err = buf_add(b, esc, 4);
		i++;
	}
	return err;
}

int buf_adds(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

size_t u64_decimal(uint64_t v, char *p)
{
	char tmp[20];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(p, tmp + i, sizeof(tmp) - i);
	return sizeof(tmp) - i;
}

int buf_add_u64(struct buf *b, uint64_t v)
{
	char tmp[20];

	return buf_add(b, tmp, u64_decimal(v, tmp));
}

void buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int read_file(const char *path, char **out, size_t *len)
{
	return read_file_max(path, SIZE_MAX, out, len);
}

int read_file_max(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = read_fd_max(fd, max, out, len);
	close(fd);
	return err;
}

int read_fd_max(int fd, size_t max, char **out, size_t *len)
{
	struct buf b = {0};
	char tmp[65536];
	int err = 0;
	ssize_t n;

	while (b.len < max) {
		n = read(fd, tmp, MIN(sizeof(tmp), max - b.len));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out;
		}
		if (n == 0)
			break;
		err = buf_add(&b, tmp, (size_t)n);
		if (err < 0)
			goto out;
	}
	if (!b.data) {
		b.data = calloc(1, 1);
		if (!b.data) {
			err = -ENOMEM;
			goto out;
		}
	}
	*out = b.data;
	*len = b.len;
	b.data = NULL;
out:
	buf_free(&b);
	return err;
}

int buf_vaddf_visible(struct buf *b, const char *fmt, va_list ap)
{
	struct buf msg = {0};
	int err = buf_vaddf(&msg, fmt, ap);

	if (err == 0)
		err = buf_add_visible(b, msg.data ? msg.data : "", msg.len);
	buf_free(&msg);
	return err;
}

void warn_line(FILE *f, const char *fmt, va_list ap)
{
	struct buf line = {0};
	int err = BUF_LIT(&line, "halluscan: ");

	err = err ? err : buf_vaddf_visible(&line, fmt, ap);
	err = err ? err : buf_addc(&line, '\n');
	if (err)
		fputs("halluscan: out of memory\n", f);
	else
		fwrite(line.data, 1, line.len, f);
	buf_free(&line);
}

/* Bytes asked of read(2) at a time. */
#define LINES_PIECE 65536

struct lines {
	int fd;
	size_t max;
	struct buf line;
	char *in;          /* read, not yet returned: in[pos, end) */
	size_t pos, end;
	bool eof;
};

int lines_new(int fd, size_t max, struct lines **out)
{
	struct lines *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	l->in = malloc(LINES_PIECE);
	if (!l->in) {
		free(l);
		return -ENOMEM;
	}
	l->fd = fd;
	l->max = max;
	*out = l;
	return 0;
}

void lines_free(struct lines *l)
{
	if (!l)
		return;
	buf_free(&l->line);
	free(l->in);
	free(l);
}

int lines_next(struct lines *l, const char **line, size_t *len, bool *too_long)
{
	size_t n = 0; /* the line's length so far, held or not */
	bool any = false;

	l->line.len = 0;
	*line = NULL;
	*len = 0;
	*too_long = false;
	for (;;) {
		const char *nl;
		size_t take;

		if (l->pos == l->end) {
			ssize_t r;

			if (l->eof)
				break;
			r = read(l->fd, l->in, LINES_PIECE);
			if (r < 0) {
				if (errno == EINTR)
					continue;
				return -errno;
			}
			l->pos = 0;
			l->end = (size_t)r;
			l->eof = r == 0;
			continue;
		}
		any = true;
		nl = memchr(l->in + l->pos, '\n', l->end - l->pos);
		take = nl ? (size_t)(nl - (l->in + l->pos)) : l->end - l->pos;
		if (!*too_long && take > l->max - n) {
			/* Past the bound: count the rest of the line, keep none of it. */
			*too_long = true;
			l->line.len = 0;
		}
		if (!*too_long && buf_add(&l->line, l->in + l->pos, take) < 0)
			return -ENOMEM;
		n += take;
		l->pos += take + (nl != NULL);
		if (nl)
			break;
	}
	if (!any)
		return 0;
	*len = n;
	if (!*too_long && l->line.data) {
		l->line.data[l->line.len] = '\0';
		*line = l->line.data;
	} else if (!*too_long) {
		*line = "";
	}
	return 1;
}

/*
 * Bytes that are not UTF-8 continuation bytes (10xxxxxx). In SSE2, 16 at
 * a time: such a byte is, signed, above -65 (0xBF), and each block's
 * compare (-1 a byte) is taken from a counter a byte wide, summed every
 * 255 blocks before it can wrap. The last few bytes are the last 16 read
 * again, those already counted masked off. A column is counted from the
 * last finding's offset on its line: a few hundred bytes at most, often
 * fewer than 16 (eight at a time, as before SSE2).
 */
size_t utf8_count(const char *p, size_t n)
{
	size_t i = 0, cont = 0;

#if defined(__SSE2__) && defined(__x86_64__)
	if (n >= 16) {
		/* 16 bytes of 0 then 16 of 0xFF: from offset k, the last k of 16 kept */
		static const unsigned char keep[32] = {
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
			0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
		};
		const __m128i lead = _mm_set1_epi8(-65), zero = _mm_setzero_si128();
		__m128i sum = zero;

		while (i + 16 <= n) {
			size_t end = MIN(n - n % 16, i + 255 * 16);
			__m128i acc = zero, v;

			for (; i < end; i += 16) {
				v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
				acc = _mm_sub_epi8(acc, _mm_cmpgt_epi8(v, lead));
			}
			sum = _mm_add_epi64(sum, _mm_sad_epu8(acc, zero));
		}
		if (i < n) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
			__m128i k = _mm_loadu_si128((const __m128i *)(const void *)&keep[n - i]);

			v = _mm_and_si128(_mm_cmpgt_epi8(v, lead), k);
			sum = _mm_add_epi64(sum, _mm_sad_epu8(_mm_sub_epi8(zero, v), zero));
		}
		return (size_t)_mm_cvtsi128_si64(sum) +
		       (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum));
	}
#endif
	for (; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, p + i, 8);
		/* Bit 0 of each byte: a continuation byte; the multiply sums them. */
		x = (x & ~(x << 1) & 0x8080808080808080ull) >> 7;
		cont += (size_t)((x * 0x0101010101010101ull) >> 56);
	}
	for (; i < n; i++)
		cont += ((unsigned char)p[i] & 0xC0) == 0x80;
	return n - cont;
}

static bool ends_with(const char *w, size_t k, const char *suffix)
{
	size_t n = strlen(suffix);

	return k >= n && memcmp(w + k - n, suffix, n) == 0;
}

size_t word_stem(const char *w, size_t n, char *out, size_t cap)
{
	size_t k = MIN(n, cap), i;

	for (i = 0; i < k; i++)
		out[i] = w[i] >= 'A' && w[i] <= 'Z' ? (char)(w[i] - 'A' + 'a') : w[i];
	if (k > 4 && ends_with(out, k, "ies")) {
		k -= 2;
		out[k - 1] = 'y';
	} else if (k > 3 && out[k - 1] == 's' && out[k - 2] != 's') {
		k--;
	}
	if (k > 5 && ends_with(out, k, "ed"))
		k -= 2;
	else if (k > 5 && (ends_with(out, k, "ion") || ends_with(out, k, "ing")))
		k -= 3;
	else if (k > 5 && ends_with(out, k, "ly"))
		k -= 2; /* "sharply", as "sharp" */
	else if (k > 4 && out[k - 1] == 'e')
		k--; /* "increase", as "increased" and "increasing" */
	return k;
}

/* The starts among s[0, 16) whose first and last bytes are those of a k-byte literal, as bits. */
#if defined(__SSE2__)
static inline __m128i ends_at(const char *s, size_t k, __m128i first, __m128i last)
{
	return _mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)s), first),
			     _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + k - 1)),
					    last));
}
#endif

#ifdef LITERAL_AVX2
/*
 * find_literal()'s blocks in AVX2, two loads of 32 where SSE2 takes four of
 * 16 (the directive search reads every byte of the input): the first
 * match, or NULL with *done set to where the blocks end.
 */
__attribute__((target("avx2"))) static const char *blocks_avx2(const char *s, size_t n,
								const char *lit, size_t k,
								size_t *done)
{
	const __m256i first = _mm256_set1_epi8(lit[0]), last = _mm256_set1_epi8(lit[k - 1]);
	size_t i;

	for (i = 0; i + k - 1 + 64 <= n; i += 64) {
		const char *b = s + i, *e = s + i + k - 1;
		__m256i m0 = _mm256_and_si256(
			_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)b), first),
			_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)e), last));
		__m256i m1 = _mm256_and_si256(
			_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(b + 32)), first),
			_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(e + 32)), last));
		uint64_t m = (uint64_t)(unsigned)_mm256_movemask_epi8(m0) |
			     (uint64_t)(unsigned)_mm256_movemask_epi8(m1) << 32;

		for (; m; m &= m - 1)
			if (memcmp(b + __builtin_ctzll(m), lit, k) == 0)
				return b + __builtin_ctzll(m);
	}
	*done = i;
	return NULL;
}
#endif

/*
 * Starts are tested by their first and last bytes, 64 at a time, and only
 * those compared: glibc's memmem took 2.8 instructions a byte, as much as
 * the pcre2_match() call it was to spare; this takes 0.5 (0.25 in AVX2).
 */
const char *find_literal(const char *s, size_t n, const char *lit, size_t k)
{
	size_t i = 0;

	if (k == 0 || n < k)
		return k == 0 ? s : NULL;
#ifdef LITERAL_AVX2
	if (n >= 64 + k - 1 && cpu_avx2()) {
		const char *hit = blocks_avx2(s, n, lit, k, &i);

		if (hit)
			return hit;
	}
#endif
#if defined(__SSE2__)
	__m128i first = _mm_set1_epi8(lit[0]), last = _mm_set1_epi8(lit[k - 1]);

	for (; i + k - 1 + 64 <= n; i += 64) {
		__m128i m0 = ends_at(s + i, k, first, last), m1 = ends_at(s + i + 16, k, first, last);
		__m128i m2 = ends_at(s + i + 32, k, first, last), m3 = ends_at(s + i + 48, k, first, last);
		uint64_t m;

		if (!_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(m0, m1), _mm_or_si128(m2, m3))))
			continue;
		m = (uint64_t)(unsigned)_mm_movemask_epi8(m0) |
		    (uint64_t)(unsigned)_mm_movemask_epi8(m1) << 16 |
		    (uint64_t)(unsigned)_mm_movemask_epi8(m2) << 32 |
		    (uint64_t)(unsigned)_mm_movemask_epi8(m3) << 48;
		for (; m; m &= m - 1)
			if (memcmp(s + i + (size_t)__builtin_ctzll(m), lit, k) == 0)
				return s + i + (size_t)__builtin_ctzll(m);
	}
#endif
	/* The rest, shorter than a block: from one first byte to the next. */
	for (const char *p = s + i, *end = s + n - k + 1;
	     p < end && (p = memchr(p, lit[0], (size_t)(end - p))); p++)
		if (memcmp(p, lit, k) == 0)
			return p;
	return NULL;
}

int hex4(const unsigned char *p)
{
	int v = 0, i, d;

	for (i = 0; i < 4; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			d = p[i] - '0';
		else if ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'f')
			d = (p[i] | 0x20) - 'a' + 10;
		else
			return -1;
		v = v << 4 | d;
	}
	return v;
}
