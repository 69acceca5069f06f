// SPDX-License-Identifier: MIT
/*
 * Hyperscan and PCRE2 behind one streaming interface with one match semantics: the stream
 * (sentence marks, matches folded leftmost-longest and delivered in order behind a watermark).
 */
#include "engine.h"
#include "engine_int.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "config.h"
#if HAVE_HYPERSCAN
#include <hs.h>

#include "hscompiler.h"
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
/* The sentence-mark scan in AVX2 where the CPU has it (cpu_avx2(): asked
 * of what the dynamic loader found; no cpuid, it traps in a VM, issue 35). */
#include <immintrin.h>
#include <sys/platform/x86.h> /* glibc 2.33 and later */
#define STOPS_AVX2 1
#endif
#endif

#define JIT_STACK_START (32 * 1024)
#define JIT_STACK_MAX (4 * 1024 * 1024)
/* The longest sentence mark: terminator, 3 closers, 4 blanks, one byte. */
#define MARK_MAX 9
#define DFA_WORKSPACE 2048
#define DFA_OVECTOR 64
/* Bytes past ENGINE_MAX_MATCH that the longest-match search still sees, so
 * that \b or a short lookahead at an end up to ENGINE_MAX_MATCH reads the
 * real next bytes. Fewer than DFA_OVECTOR: the ends past ENGINE_MAX_MATCH
 * cannot crowd the others out of the ovector. */
#define DFA_SLACK 16

struct events {
	struct engine_event *v;
	size_t n, cap;
};

/* A pattern's candidate matches not yet settled: start -> furthest end, by start. */
struct candidates {
	struct engine_event *v;
	size_t n, cap;
};

#if HAVE_HYPERSCAN
/*
 * Hyperscan may read past the end of the bytes it is given: 5.4's
 * AVX512VBMI Teddy loads 64 bytes of which only 61 need be the buffer's
 * (its first block; up to a mask count less one byte past the end), which
 * faults where a caller's buffer ends at the end of its mapping. It is
 * given the last HS_TAIL bytes of a piece from a copy with HS_TAIL more
 * bytes after them (hs_scan_padded()).
 */
#define HS_TAIL 64
#endif

struct engine_stream {
	const struct engine *e;
	uint64_t offset;       /* bytes fed so far */
	uint64_t *last_end;    /* per pattern: end of its last final match */
	struct events finals;  /* final, not yet delivered */
	struct events marks;   /* sentence marks, final and in order, not yet delivered */
	uint64_t limit_hits;
	int error;             /* an allocation failure inside a callback */
	/* Sentence marks: the undecided tail of the last piece. */
	unsigned char mark_tail[MARK_MAX];
	size_t mark_tail_len;
	bool woken;            /* engine_stream_wake() was called */
	bool resort;           /* matches were added while delivering */
	bool ending;           /* in engine_stream_end() */
	engine_marks_fn marks_fn; /* engine_stream_on_marks() */
	void *marks_ctx;
#if HAVE_HYPERSCAN
	hs_stream_t *hs[2];    /* as e->db: [1] opened when woken */
	uint64_t late_base;    /* stream offset of hs[1]'s first byte */
	uint64_t late_from;    /* hs[1]'s reports that start before this are dropped */
	hs_scratch_t *scratch;
	bool late_scratch;     /* scratch has room for db[1] too */
	struct candidates *cand; /* per pattern */
	struct events raw;     /* this piece's reports */
	struct events merged;  /* room to merge the two streams' reports */
	uint64_t *nl;          /* this piece's line breaks */
	size_t n_nl, cap_nl;
	uint64_t prev_nl;      /* 1 + offset of the last line break before this piece, 0: none */
	engine_lines_fn lines_fn; /* engine_stream_on_lines() */
	void *lines_ctx;
	char hs_tail[2 * HS_TAIL]; /* a piece's last bytes, with room to read past them */
#endif
	/* The current line, for the patterns on PCRE2. */
	char *line;
	size_t line_len, line_cap;
	uint64_t line_base;    /* stream offset of line[0] */
	size_t *resume;        /* per pattern: where its next search starts, in line */
	pcre2_match_data *md;
	pcre2_match_data *dfa_md;
	int *dfa_ws;
	/* The engine's limits with this stream's JIT stack: a stack serves one
	 * thread at a time, and streams may run on several. */
	pcre2_match_context *mctx;
	pcre2_jit_stack *jit_stack;
};

static int push(struct events *ev, unsigned id, uint64_t from, uint64_t to)
{
	if (grow(&ev->v, &ev->cap, ev->n + 1, sizeof(*ev->v)) < 0)
		return -ENOMEM;
	ev->v[ev->n++] = (struct engine_event){.id = id, .from = from, .to = to};
	return 0;
}

static char version[128];

static void make_version(void)
{
	char p[64];

	pcre2_config(PCRE2_CONFIG_VERSION, p);
#if HAVE_HYPERSCAN
	snprintf(version, sizeof(version), "hyperscan %s; pcre2 %s", hs_version(), p);
#else
	snprintf(version, sizeof(version), "pcre2 %s", p);
#endif
}

const char *engine_version(void)
{
	/* Once: threads of a library's user may open rules (and ask) at once. */
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, make_version);
	return version;
}

/* ---- streams ---- */

void engine_stream_free(struct engine_stream *s)
{
	if (!s)
		return;
#if HAVE_HYPERSCAN
	for (int k = 0; k < 2; k++)
		if (s->hs[k])
			hs_close_stream(s->hs[k], s->scratch, NULL, NULL);
	hs_free_scratch(s->scratch);
	if (s->cand)
		for (size_t i = 0; i < s->e->n; i++)
			free(s->cand[i].v);
	free(s->cand);
	free(s->raw.v);
	free(s->merged.v);
	free(s->nl);
#endif
	free(s->last_end);
	free(s->finals.v);
	free(s->marks.v);
	free(s->line);
	free(s->resume);
	pcre2_match_data_free(s->md);
	pcre2_match_data_free(s->dfa_md);
	free(s->dfa_ws);
	pcre2_match_context_free(s->mctx);
	pcre2_jit_stack_free(s->jit_stack);
	free(s);
}

static int stream_open(struct engine_stream *s)
{
	const struct engine *e = s->e;

	s->offset = 0;
	s->finals.n = 0;
	s->marks.n = 0;
	s->mark_tail_len = 0;
	s->line_len = 0;
	s->line_base = 0;
	s->error = 0;
	s->woken = s->resort = s->ending = false;
	memset(s->last_end, 0, e->n * sizeof(*s->last_end));
	if (s->resume)
		memset(s->resume, 0, e->n * sizeof(*s->resume));
#if HAVE_HYPERSCAN
	for (size_t i = 0; i < e->n; i++)
		s->cand[i].n = 0;
	s->prev_nl = 0;
	if (s->hs[1])
		hs_close_stream(s->hs[1], s->scratch, NULL, NULL);
	s->hs[1] = NULL;
	if (e->db[0] && hs_open_stream(e->db[0], 0, &s->hs[0]) != HS_SUCCESS)
		return -ENOMEM;
#endif
	return 0;
}

int engine_stream_new(const struct engine *e, struct engine_stream **out)
{
	struct engine_stream *s = calloc(1, sizeof(*s));
	size_t n = e->n ? e->n : 1;

	if (!s)
		return -ENOMEM;
	s->e = e;
	s->last_end = calloc(n, sizeof(*s->last_end));
	if (!s->last_end)
		goto nomem;
	if (e->n_pcre2) {
		s->resume = calloc(n, sizeof(*s->resume));
		s->md = pcre2_match_data_create(1, NULL);
		s->dfa_md = pcre2_match_data_create(DFA_OVECTOR, NULL);
		s->dfa_ws = malloc(DFA_WORKSPACE * sizeof(int));
		s->mctx = pcre2_match_context_copy(e->mctx);
		s->jit_stack = pcre2_jit_stack_create(JIT_STACK_START, JIT_STACK_MAX, NULL);
		if (!s->resume || !s->md || !s->dfa_md || !s->dfa_ws || !s->mctx || !s->jit_stack)
			goto nomem;
		pcre2_jit_stack_assign(s->mctx, NULL, s->jit_stack);
	}
#if HAVE_HYPERSCAN
	s->cand = calloc(n, sizeof(*s->cand));
	if (!s->cand)
		goto nomem;
	/* The late database's share is added when it wakes: hs_alloc_scratch()
	 * checksums the whole database, a start-up cost most runs never need. */
	if (e->db[0] && hs_alloc_scratch(e->db[0], &s->scratch) != HS_SUCCESS)
		goto nomem;
#endif
	if (stream_open(s) < 0)
		goto nomem;
	*out = s;
	return 0;
nomem:
	engine_stream_free(s);
	return -ENOMEM;
}

static int cmp_event(const void *a, const void *b)
{
	const struct engine_event *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

/*
 * Sorts events that mostly come in order already (Hyperscan reports by end,
 * a few late): an insertion sort, which is linear on such input, handing
 * over to qsort when the input turns out to be far from sorted.
 */
static void sort_events(struct engine_event *v, size_t n, int (*cmp)(const void *, const void *))
{
	size_t i, moves = 0, budget = 8 * n + 64;

	for (i = 1; i < n; i++) {
		struct engine_event x = v[i];
		size_t j = i;

		while (j > 0 && cmp(&v[j - 1], &x) > 0) {
			v[j] = v[j - 1];
			j--;
			if (++moves > budget) {
				v[j] = x;
				qsort(v, n, sizeof(*v), cmp);
				return;
			}
		}
		v[j] = x;
	}
}

static int finalize(struct engine_stream *s, unsigned id, uint64_t from, uint64_t to)
{
	s->last_end[id] = to;
	return push(&s->finals, id, from, to);
}

/* ---- sentence marks: a byte scan for ENGINE_SENTENCE_MARK_RE ---- */

#define MARK_UNDECIDED (-1)

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

static bool is_closer(unsigned char c)
{
	return c == '"' || c == '\'' || c == ')' || c == ']';
}

/*
 * The length of the mark starting with the terminator d[p], 0 when there
 * is none, or MARK_UNDECIDED when d[0, n) ends too soon to tell. A start
 * has at most one match: the closers and the blanks are taken whole,
 * because what follows each run cannot be one of its bytes.
 */
static int mark_at(const unsigned char *d, size_t n, size_t p)
{
	size_t q = p + 1, k;

	for (k = 0; k < 3 && q < n && is_closer(d[q]); k++)
		q++;
	if (q == n)
		return MARK_UNDECIDED;
	for (k = 0; k < 4 && q < n && is_blank(d[q]); k++)
		q++;
	if (k == 0)
		return 0;
	if (q == n)
		return MARK_UNDECIDED;
	if (is_blank(d[q]) || d[q] == '\r' || d[q] == '\n')
		return 0;
	return (int)(q + 1 - p);
}

/*
 * Where the scan for marks must look, as masks of 64-byte blocks: bit k is
 * set where d[k] is a line break, or a stop ('.', '!', '?') followed by a
 * closer or a blank. The other stops ("3.5", "e.g", "x.py", one that ends
 * a line: about half of them in prose) start no mark; they are dropped
 * here, 64 bytes at a time, where marks_in() used to test each, a branch
 * that went either way about as often. A block is read with the byte
 * after it, d[64].
 */
#if defined(__SSE2__)
/* 16 bytes of a block's mask, as bits 0-15. */
static inline uint64_t starts16(const unsigned char *d)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)d);
	__m128i w = _mm_loadu_si128((const __m128i *)(const void *)(d + 1));
	__m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')),
						 _mm_cmpeq_epi8(v, _mm_set1_epi8('!'))),
				    _mm_cmpeq_epi8(v, _mm_set1_epi8('?')));
	__m128i next = _mm_or_si128(
		_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(w, _mm_set1_epi8('\t'))),
			     _mm_or_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8('"')), _mm_cmpeq_epi8(w, _mm_set1_epi8('\'')))),
		_mm_or_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8(')')), _mm_cmpeq_epi8(w, _mm_set1_epi8(']'))));

	return (unsigned)_mm_movemask_epi8(
		_mm_or_si128(_mm_and_si128(stop, next), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))));
}
#endif

/* A block's mask. */
static uint64_t starts_block(const unsigned char *d)
{
#if defined(__SSE2__)
	return starts16(d) | starts16(d + 16) << 16 | starts16(d + 32) << 32 | starts16(d + 48) << 48;
#else
	uint64_t m = 0;

	for (size_t k = 0; k < 64; k++) {
		bool stop = d[k] == '.' || d[k] == '!' || d[k] == '?';

		m |= (uint64_t)(d[k] == '\n' || (stop && (is_closer(d[k + 1]) || is_blank(d[k + 1])))) << k;
	}
	return m;
#endif
}

#ifdef STOPS_AVX2
/*
 * 32 bytes of a block's mask. A closer or blank is told by its two
 * halves: the set is three rectangles of (high, low) half-bytes, a bit of
 * the tables each (0x2 by 0x0, 0x2, 0x7, 0x9: ' ', '"', '\'', ')'; 0x0 by
 * 0x9: a tab; 0x5 by 0xd: ']'), so that two lookups and an AND leave a
 * byte that is not 0 just where the next byte is one.
 */
__attribute__((target("avx2"), always_inline)) static inline uint32_t
starts32_avx2(const unsigned char *d, __m256i low, __m256i high)
{
	__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)d);
	__m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(d + 1));
	__m256i stop = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('.')),
							_mm256_cmpeq_epi8(x, _mm256_set1_epi8('!'))),
				       _mm256_cmpeq_epi8(x, _mm256_set1_epi8('?')));
	__m256i kind = _mm256_and_si256(
		_mm256_shuffle_epi8(low, y),
		_mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(y, 4), _mm256_set1_epi8(0x0f))));
	/* Bit 7 set where kind (at most 4) is not 0. */
	__m256i next = _mm256_adds_epu8(kind, _mm256_set1_epi8(0x7f));

	return (uint32_t)_mm256_movemask_epi8(
		_mm256_or_si256(_mm256_and_si256(stop, next), _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n'))));
}

/*
 * The masks of k blocks from d, in one loop: the constants set and the
 * upper halves cleared once a piece. Returns how many bits they hold
 * (every processor with AVX2 counts them in one instruction).
 */
__attribute__((target("avx2,popcnt"))) static size_t starts_avx2(const unsigned char *d, size_t k, uint64_t *out)
{
	const __m256i low = _mm256_broadcastsi128_si256(
		_mm_setr_epi8(1, 0, 1, 0, 0, 0, 0, 1, 0, 3, 0, 0, 0, 4, 0, 0));
	const __m256i high = _mm256_broadcastsi128_si256(
		_mm_setr_epi8(2, 0, 1, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
	size_t count = 0;

	for (size_t b = 0; b < k; b++, d += 64) {
		out[b] = starts32_avx2(d, low, high) | (uint64_t)starts32_avx2(d + 32, low, high) << 32;
		count += (size_t)__builtin_popcountll(out[b]);
	}
	return count;
}
#endif

/*
 * The masks of d[0, n) (0 < n <= PIECE): g[b] for d[64 b, 64 b + 64),
 * through g[(n - 1) / 64], and a block of zeros after. The last block is
 * read from a copy with blanks past the piece's end: they are no events,
 * and a stop that ends the piece is kept, for mark_at() to say it is
 * undecided. Returns how many bits are set: the most events the piece
 * can give.
 */
static size_t starts_grid(const unsigned char *d, size_t n, uint64_t *g)
{
	unsigned char last[64 + 32];
	size_t full = (n - 1) / 64, b, count = 0;

	memset(last, ' ', sizeof(last));
	memcpy(last, d + 64 * full, n - 64 * full);
	g[full + 1] = 0;
#ifdef STOPS_AVX2
	if (cpu_avx2())
		return starts_avx2(d, full, g) + starts_avx2(last, 1, g + full);
#endif
	for (b = 0; b < full; b++) {
		g[b] = starts_block(d + 64 * b);
		count += (size_t)__builtin_popcountll(g[b]);
	}
	g[full] = starts_block(last);
	return count + (size_t)__builtin_popcountll(g[full]);
}

/*
 * The bytes after a stop, for marks_in()'s common mark: a blank, then a
 * byte that is not AFTER_NOT_WORD. A blank, CR or LF there ends no mark;
 * a stop there ends one that is left to mark_at(), so that the mark's own
 * bytes never hold a start to skip.
 */
enum { AFTER_BLANK = 1, AFTER_NOT_WORD = 2 };

static const unsigned char after_stop[256] = {
	[' '] = AFTER_BLANK | AFTER_NOT_WORD, ['\t'] = AFTER_BLANK | AFTER_NOT_WORD,
	['\r'] = AFTER_NOT_WORD, ['\n'] = AFTER_NOT_WORD,
	['.'] = AFTER_NOT_WORD, ['!'] = AFTER_NOT_WORD, ['?'] = AFTER_NOT_WORD,
};

/*
 * Finds the marks that start in d[from, n) (n at most PIECE), d[0] being
 * at stream offset base, leftmost first and each after the last, and the
 * line breaks among them; what lies before from is done (no mark found
 * reaches past it). Returns where the first undecided start is (n when
 * none), or -ENOMEM. Nothing after an undecided start is a line break:
 * only closers and blanks follow it to the end.
 */
static long long marks_in(struct engine_stream *s, const unsigned char *d, size_t n, size_t from,
			  uint64_t base)
{
	const struct engine *e = s->e;
	/* In locals: stores of events could alias fields of s and e. */
	const unsigned line_id = (unsigned)e->lines, mark_id = (unsigned)e->mark;
	const size_t line_step = e->lines != NO_MARK;
	const unsigned marks = e->mark != NO_MARK ? AFTER_BLANK : 0;
	uint64_t grid[PIECE / 64 + 2];
	size_t b, count;
	struct engine_event *w;
	long long ret = (long long)n;
#if HAVE_HYPERSCAN
	uint64_t *nl;
#endif

	if (from >= n)
		return (long long)n;
	count = starts_grid(d, n, grid);
	/* Each bit of the grid is at most one event of each list: room for them all. */
	if (grow(&s->marks.v, &s->marks.cap, s->marks.n + count, sizeof(*s->marks.v)) < 0
#if HAVE_HYPERSCAN
	    || grow(&s->nl, &s->cap_nl, s->n_nl + count, sizeof(*s->nl)) < 0
#endif
	)
		return -ENOMEM;
	w = s->marks.v + s->marks.n;
#if HAVE_HYPERSCAN
	nl = s->nl + s->n_nl;
#endif
	grid[from / 64] &= ~(uint64_t)0 << from % 64;
	for (b = from / 64; 64 * b < n; b++) {
		size_t at = 64 * b;
		uint64_t m = grid[b];

		while (m) {
			size_t q = at + (size_t)__builtin_ctzll(m), end;
			int len;

			m &= m - 1;
			if (d[q] == '\n') {
				*w = (struct engine_event){.id = line_id, .from = base + q, .to = base + q + 1};
				w += line_step;
#if HAVE_HYPERSCAN
				/* The piece's line breaks, for Hyperscan's reports too. */
				*nl++ = base + q;
#endif
				continue;
			}
			/*
			 * Nearly every stop left is followed by one blank and a word:
			 * a mark of three, read off the next two bytes. mark_at()
			 * takes the rest (closers, more blanks, a stop, CR or LF
			 * after the blank, the end of the piece too near).
			 */
			if (q + 2 < n && (after_stop[d[q + 1]] & ~(after_stop[d[q + 2]] >> 1) & marks)) {
				*w++ = (struct engine_event){.id = mark_id, .from = base + q, .to = base + q + 3};
				continue;
			}
			len = marks ? mark_at(d, n, q) : 0;
			if (len == MARK_UNDECIDED) {
				ret = (long long)q;
				goto out;
			}
			if (len == 0)
				continue;
			*w++ = (struct engine_event){.id = mark_id, .from = base + q, .to = base + q + (size_t)len};
			/* The mark's bytes start nothing: go on after it, which may
			 * be in the next block (a mark is at most MARK_MAX long). */
			end = q + (size_t)len - at;
			if (end < 64) {
				m &= ~(uint64_t)0 << end;
			} else {
				m = 0;
				grid[b + 1] &= ~(uint64_t)0 << (end - 64);
			}
		}
	}
out:
	s->marks.n = (size_t)(w - s->marks.v);
#if HAVE_HYPERSCAN
	s->n_nl = (size_t)(nl - s->nl);
#endif
	return ret;
}

/*
 * Scans the next piece for marks and line breaks; the stream offset is
 * still the piece's start.
 */
static int marks_feed(struct engine_stream *s, const char *buf, size_t len)
{
	const unsigned char *d = (const unsigned char *)buf;
	size_t from = 0;
	long long u;

	if (s->mark_tail_len > 0) {
		/* Starts in the tail, with enough of this piece to decide them. */
		unsigned char joined[2 * MARK_MAX];
		size_t t = s->mark_tail_len, k = len < MARK_MAX ? len : MARK_MAX;

		memcpy(joined, s->mark_tail, t);
		memcpy(joined + t, d, k);
		u = marks_in(s, joined, t + k, 0, s->offset - t);
		if (u < 0)
			return (int)u;
		s->mark_tail_len = 0;
		if ((size_t)u < t || ((size_t)u < t + k && k == len)) {
			/* Still undecided: this whole (short) piece joins the tail. */
			s->mark_tail_len = t + k - (size_t)u;
			memmove(s->mark_tail, joined + u, s->mark_tail_len);
			return 0;
		}
		/* The starts before the first undecided one (the end of any
		 * mark found) and the line breaks among them are done. */
		from = (size_t)u - t;
	}
	u = marks_in(s, d, len, from, s->offset);
	if (u < 0)
		return (int)u;
	s->mark_tail_len = len - (size_t)u;
	memcpy(s->mark_tail, d + u, s->mark_tail_len);
	return 0;
}

/* ---- PCRE2: one line at a time ---- */

/*
 * The end of the longest match of pattern c anchored at start that is at
 * most ENGINE_MAX_MATCH long (Hyperscan drops longer reports, so it keeps
 * that one), or 0 when there is none. first_end is the backtracking
 * match's end, which stands where DFA cannot run the pattern.
 */
static size_t longest_at(struct engine_stream *s, pcre2_code *c, const char *subj,
			 size_t len, size_t start, size_t first_end)
{
	size_t best = first_end - start <= ENGINE_MAX_MATCH ? first_end : 0;
	size_t n = MIN(len, start + ENGINE_MAX_MATCH + DFA_SLACK);
	int rc, i;

	/* A shorter subject bounds the work, and leaves at most DFA_SLACK
	 * ends too long to keep: the longest that fit are among those listed. */
	rc = pcre2_dfa_match(c, (PCRE2_SPTR)subj, n, start, PCRE2_ANCHORED, s->dfa_md,
			     s->mctx, s->dfa_ws, DFA_WORKSPACE);
	if (rc == 0)
		rc = DFA_OVECTOR; /* more ends than room: the longest come first */
	if (rc > 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->dfa_md);

		for (i = 0; i < rc; i++) {
			size_t end = ov[2 * i + 1];

			if (end - start <= ENGINE_MAX_MATCH && end > best)
				best = end;
		}
	}
	return best;
}

/*
 * Matches every PCRE2 pattern over line[0, len) from its resume point and
 * keeps the matches that start before limit (window coordinates).
 */
static int scan_line(struct engine_stream *s, size_t len, size_t limit)
{
	const struct engine *e = s->e;
	size_t i;
	int err;

	for (i = 0; i < e->n; i++) {
		size_t pos = s->resume[i];

		if (!e->pcre2[i])
			continue;
		/* A line without the literal a pattern starts with holds no match:
		 * one search, not a call of pcre2_match (which costs more than
		 * the search on the short lines of prose). */
		if (e->lit[i].len && pos < len &&
		    !find_literal(s->line + pos, len - pos, e->lit[i].s, e->lit[i].len))
			continue;
		while (pos < limit) {
			PCRE2_SIZE *ov;
			size_t from, to;
			int rc;

			rc = pcre2_match(e->code[i], (PCRE2_SPTR)s->line, len, pos, 0, s->md, s->mctx);
			if (rc == PCRE2_ERROR_NOMATCH)
				break;
			if (rc < 0) {
				/* A limit: where the search stopped is unknown, so the
				 * rest of this window is skipped for this pattern, and
				 * counted so that the caller can say so. */
				s->limit_hits++;
				pos = len;
				break;
			}
			ov = pcre2_get_ovector_pointer(s->md);
			from = ov[0];
			if (from >= limit)
				break;
			to = longest_at(s, e->code[i], s->line, len, from, ov[1]);
			if (to > from) {
				err = finalize(s, (unsigned)i, s->line_base + from, s->line_base + to);
				if (err < 0)
					return err;
				pos = to;
			} else {
				/* Every end is too far (or the match is empty, which
				 * compiling refuses): Hyperscan drops the ends whose
				 * leftmost start this is, up to the furthest. */
				pos = MAX(ov[1], from + 1);
			}
		}
		s->resume[i] = pos;
	}
	return 0;
}

/* Drops line[0, k) after it has been matched. */
static void line_consume(struct engine_stream *s, size_t k)
{
	size_t i;

	memmove(s->line, s->line + k, s->line_len - k);
	s->line_len -= k;
	s->line_base += k;
	for (i = 0; i < s->e->n; i++)
		s->resume[i] = s->resume[i] > k ? s->resume[i] - k : 0;
}

static int pcre2_feed(struct engine_stream *s, const char *buf, size_t len)
{
	int err;

	while (len > 0) {
		const char *nl = memchr(buf, '\n', len);
		size_t take = nl ? (size_t)(nl - buf) + 1 : len;

		if (grow(&s->line, &s->line_cap, s->line_len + take, 1) < 0)
			return -ENOMEM;
		memcpy(s->line + s->line_len, buf, take);
		s->line_len += take;
		buf += take;
		len -= take;
		if (nl) {
			err = scan_line(s, s->line_len, s->line_len);
			if (err < 0)
				return err;
			memset(s->resume, 0, s->e->n * sizeof(*s->resume));
			line_consume(s, s->line_len);
		} else if (s->line_len > LINE_CAP) {
			/* A long line: settle what starts in all but the last
			 * ENGINE_MAX_MATCH bytes, which may still grow. */
			size_t cut = s->line_len - ENGINE_MAX_MATCH;

			err = scan_line(s, s->line_len, cut);
			if (err < 0)
				return err;
			line_consume(s, cut);
		}
	}
	return 0;
}

/* ---- Hyperscan: reports merged into leftmost-longest matches ---- */

#if HAVE_HYPERSCAN
static int on_hs_match(unsigned id, unsigned long long from, unsigned long long to,
		       unsigned flags, void *ctx)
{
	struct engine_stream *s = ctx;

	(void)flags;
	if (push(&s->raw, id, from, to) < 0) {
		s->error = -ENOMEM;
		return 1; /* stop scanning */
	}
	return 0;
}

/* A report of the late stream: offsets from its first byte; early ones dropped. */
static int on_hs_late(unsigned id, unsigned long long from, unsigned long long to,
		      unsigned flags, void *ctx)
{
	struct engine_stream *s = ctx;

	from += s->late_base;
	to += s->late_base;
	if (from < s->late_from)
		return 0;
	return on_hs_match(id, from, to, flags, ctx);
}

static int cmp_raw(const void *a, const void *b)
{
	const struct engine_event *x = a, *y = b;

	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/*
 * Records one Hyperscan report (the leftmost start for one end) as a
 * candidate of its pattern. lastnl is 1 + the offset of the last line break
 * before the report's final byte (0: none). Nothing is settled here: a
 * later report can still reach further from an earlier start ("5" then
 * "5,231,877"), so candidates wait until no report can change them.
 */
static int merge(struct engine_stream *s, const struct engine_event *r, uint64_t lastnl)
{
	struct candidates *c = &s->cand[r->id];
	size_t lo, hi;

	if (r->to - r->from > ENGINE_MAX_MATCH)
		return 0;
	if (lastnl > r->from)
		return 0; /* crosses a line break */
	if (r->from < s->last_end[r->id])
		return 0; /* overlaps a match already settled */
	/* Most reports extend the newest candidate. */
	if (c->n > 0 && c->v[c->n - 1].from == r->from) {
		if (r->to > c->v[c->n - 1].to)
			c->v[c->n - 1].to = r->to;
		return 0;
	}
	lo = 0;
	hi = c->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->v[mid].from < r->from)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->n && c->v[lo].from == r->from) {
		if (r->to > c->v[lo].to)
			c->v[lo].to = r->to;
		return 0;
	}
	if (grow(&c->v, &c->cap, c->n + 1, sizeof(*c->v)) < 0)
		return -ENOMEM;
	memmove(c->v + lo + 1, c->v + lo, (c->n - lo) * sizeof(*c->v));
	c->v[lo] = *r;
	c->n++;
	return 0;
}

/* Sorts raw[0, mid) and raw[mid, n) apart (each mostly in order), then merges them. */
static int merge_runs(struct engine_stream *s, size_t mid)
{
	struct events *r = &s->raw, *m = &s->merged;
	size_t i = 0, j = mid, k = 0;

	sort_events(r->v, mid, cmp_raw);
	sort_events(r->v + mid, r->n - mid, cmp_raw);
	if (grow(&m->v, &m->cap, r->n, sizeof(*m->v)) < 0)
		return -ENOMEM;
	while (i < mid || j < r->n) {
		if (j == r->n || (i < mid && cmp_raw(&r->v[i], &r->v[j]) <= 0))
			m->v[k++] = r->v[i++];
		else
			m->v[k++] = r->v[j++];
	}
	/* The merged array becomes the reports; the old one the next room. */
	{
		struct events t = *m;

		m->v = r->v;
		m->cap = r->cap;
		r->v = t.v;
		r->cap = t.cap;
	}
	return 0;
}

/*
 * hs_scan_stream() of buf that reads nothing past its end (HS_TAIL): all
 * but its last HS_TAIL bytes in place (what is read past them is still
 * buf's), those from a copy. A stream reports the same whatever its pieces.
 */
static hs_error_t hs_scan_padded(struct engine_stream *s, hs_stream_t *st, const char *buf,
				 size_t len, match_event_handler cb)
{
	hs_error_t rc;

	if (len > HS_TAIL) {
		rc = hs_scan_stream(st, buf, (unsigned)(len - HS_TAIL), 0, s->scratch, cb, s);
		if (rc != HS_SUCCESS)
			return rc;
		buf += len - HS_TAIL;
		len = HS_TAIL;
	}
	if (len > 0)
		memcpy(s->hs_tail, buf, len);
	memset(s->hs_tail + len, 0, HS_TAIL);
	return hs_scan_stream(st, s->hs_tail, (unsigned)len, 0, s->scratch, cb, s);
}

/*
 * Scans buf, the input from offset base, with the open streams among
 * hs[first..last] (close: ends them instead) and records the reports as
 * candidates. prev_nl must be where buf's first line starts; nl_known:
 * the byte scan has put buf's line breaks in s->nl already.
 */
static int hs_run(struct engine_stream *s, const char *buf, size_t len, uint64_t base, bool close,
		  int first, int last, bool nl_known)
{
	size_t i, k = 0, run[2] = {0, 0};
	int w, err;

	s->raw.n = 0;
	if (!nl_known)
		s->n_nl = 0;
	for (i = 0; i < len && !nl_known;) {
		const char *nl = memchr(buf + i, '\n', len - i);

		if (!nl)
			break;
		if (grow(&s->nl, &s->cap_nl, s->n_nl + 1, sizeof(*s->nl)) < 0)
			return -ENOMEM;
		i = (size_t)(nl - buf);
		s->nl[s->n_nl++] = base + i;
		i++;
	}
	for (w = first; w <= last; w++) {
		match_event_handler cb = w == 0 ? on_hs_match : on_hs_late;
		hs_error_t rc;

		run[w] = s->raw.n;
		if (!s->hs[w])
			continue;
		if (close) {
			rc = hs_close_stream(s->hs[w], s->scratch, cb, s);
			s->hs[w] = NULL;
		} else {
			rc = hs_scan_padded(s, s->hs[w], buf, len, cb);
		}
		if (s->error)
			return s->error;
		if (rc != HS_SUCCESS)
			return -EIO;
	}
	/* Each stream's reports come mostly in order: sort each, then merge the two. */
	if (first == 0 && last == 1 && run[1] > 0 && run[1] < s->raw.n) {
		err = merge_runs(s, run[1]);
		if (err < 0)
			return err;
	} else {
		sort_events(s->raw.v, s->raw.n, cmp_raw);
	}
	for (i = 0; i < s->raw.n; i++) {
		const struct engine_event *r = &s->raw.v[i];
		uint64_t lastnl = s->prev_nl;

		/* Line breaks strictly before the report's last byte. */
		while (k < s->n_nl && s->nl[k] + 1 < r->to)
			k++;
		if (k > 0)
			lastnl = s->nl[k - 1] + 1;
		err = merge(s, r, lastnl);
		if (err < 0)
			return err;
	}
	if (s->n_nl > 0)
		s->prev_nl = s->nl[s->n_nl - 1] + 1;
	return 0;
}

static int hs_piece(struct engine_stream *s, const char *buf, size_t len, bool close,
		    bool nl_known)
{
	return hs_run(s, buf, len, s->offset, close, 0, 1, nl_known);
}

/*
 * Where no report can still change a candidate: a match is at most
 * ENGINE_MAX_MATCH long and never crosses a line break, so nothing still to
 * come starts before this offset.
 */
static uint64_t hs_settled(const struct engine_stream *s)
{
	uint64_t reach = s->offset > ENGINE_MAX_MATCH ? s->offset - ENGINE_MAX_MATCH : 0;

	return MAX(reach, s->prev_nl);
}

/*
 * Settles candidates that start before the settled offset (all of them at
 * the end): leftmost first, each to its furthest end, dropping those that
 * start inside a match already taken.
 */
static int hs_settle(struct engine_stream *s, bool all)
{
	uint64_t upto = all ? UINT64_MAX : hs_settled(s);
	size_t i, k;
	int err;

	for (i = 0; i < s->e->n; i++) {
		struct candidates *c = &s->cand[i];

		for (k = 0; k < c->n && c->v[k].from < upto; k++) {
			if (c->v[k].from < s->last_end[i])
				continue;
			err = finalize(s, (unsigned)i, c->v[k].from, c->v[k].to);
			if (err < 0)
				return err;
		}
		if (k > 0) {
			memmove(c->v, c->v + k, (c->n - k) * sizeof(*c->v));
			c->n -= k;
		}
	}
	return 0;
}
#endif

uint64_t engine_stream_watermark(const struct engine_stream *s)
{
	uint64_t wm = s->offset;

#if HAVE_HYPERSCAN
	/* Candidates left after settling all start at or after this. */
	if (s->hs[0] || s->hs[1])
		wm = hs_settled(s);
#endif
	if (s->e->n_pcre2 && s->line_base < wm)
		wm = s->line_base;
	return wm;
}

uint64_t engine_stream_offset(const struct engine_stream *s)
{
	return s->offset;
}

uint64_t engine_stream_limit_hits(const struct engine_stream *s)
{
	return s->limit_hits;
}

/* Drops the first k events of ev. */
static void consume(struct events *ev, size_t k)
{
	if (k == 0)
		return; /* also: v may still be NULL, and memmove(NULL, ...) is undefined */
	memmove(ev->v, ev->v + k, (ev->n - k) * sizeof(*ev->v));
	ev->n -= k;
}

/*
 * The callback woke the late patterns: their matches join the finals in
 * order. The events delivered so far (f's first *i, the marks' first *j)
 * are consumed, and the walk starts again at the front.
 */
static void resort(struct engine_stream *s, size_t *i, size_t *j)
{
	s->resort = false;
	consume(&s->finals, *i);
	consume(&s->marks, *j);
	*i = *j = 0;
	sort_events(s->finals.v, s->finals.n, cmp_event);
}

/*
 * Delivers the final matches that start before the watermark, in order:
 * the patterns' (sorted here) merged with the sentence marks (in order
 * already, and the most numerous).
 */
static int deliver(struct engine_stream *s, uint64_t wm, engine_match_fn cb, void *ctx)
{
	struct events *f = &s->finals, *m = &s->marks;
	size_t i = 0, j = 0;
	int err = 0;

	sort_events(f->v, f->n, cmp_event);
	while (err == 0) {
		bool take_f = i < f->n && f->v[i].from < wm;
		bool take_m;
		const struct engine_event *ev;

		/* The marks before the next match, the most numerous by far, in a
		 * run (a match at the same offset is ordered below). */
		if (j < m->n && m->v[j].from < (take_f ? f->v[i].from : wm)) {
			uint64_t lim = take_f ? f->v[i].from : wm;

			if (s->marks_fn) {
				size_t lo = j + 1, hi = m->n, taken = 0;

				/* the run's end: the first mark at or after lim */
				while (lo < hi) {
					size_t mid = lo + (hi - lo) / 2;

					if (m->v[mid].from < lim)
						lo = mid + 1;
					else
						hi = mid;
				}
				err = s->marks_fn(s->marks_ctx, m->v + j, lo - j, &taken, &s->resort);
				j += taken;
			} else {
				do {
					ev = &m->v[j++];
					err = cb(ctx, ev->id, ev->from, ev->to);
				} while (err == 0 && !s->resort && j < m->n && m->v[j].from < lim);
			}
			if (s->resort)
				resort(s, &i, &j);
			continue;
		}
		take_m = j < m->n && m->v[j].from < wm;

		if (take_f && take_m)
			take_m = cmp_event(&m->v[j], &f->v[i]) < 0;
		if (take_m)
			ev = &m->v[j++];
		else if (take_f)
			ev = &f->v[i++];
		else
			break;
		err = cb(ctx, ev->id, ev->from, ev->to);
		if (s->resort)
			resort(s, &i, &j);
	}
	consume(f, i);
	consume(m, j);
	return err;
}

int engine_stream_wake(struct engine_stream *s, const char *bytes, size_t n, uint64_t at,
		       uint64_t from)
{
	int err = 0;

	if (s->woken)
		return 0;
#if HAVE_HYPERSCAN
	if (!s->e->db[1]) {
		s->woken = true;
		return 0;
	}
	if (at + n != s->offset || from < at)
		return -EINVAL;
	/* Once per stream: hs_alloc_scratch() checksums the database each time
	 * (with grounding, the stream wakes at the start of every input). */
	if (!s->late_scratch && hs_alloc_scratch(s->e->db[1], &s->scratch) != HS_SUCCESS)
		return -ENOMEM;
	s->late_scratch = true;
	if (hs_open_stream(s->e->db[1], 0, &s->hs[1]) != HS_SUCCESS)
		return -ENOMEM;
	s->woken = true;
	s->late_base = at;
	s->late_from = from;
	if (n > 0 || s->ending) {
		/* Catch up on bytes already read: their lines start at at. */
		uint64_t prev_nl = s->prev_nl;

		s->prev_nl = at;
		err = hs_run(s, bytes, n, at, false, 1, 1, false);
		if (err == 0 && s->ending)
			err = hs_run(s, NULL, 0, s->offset, true, 1, 1, false);
		s->prev_nl = MAX(prev_nl, s->prev_nl);
		if (err == 0)
			err = hs_settle(s, s->ending);
		s->resort = true;
	}
#else
	(void)bytes;
	(void)n;
	(void)at;
	(void)from;
	s->woken = true;
#endif
	return err;
}

int engine_stream_feed(struct engine_stream *s, const char *buf, size_t len,
		       engine_match_fn cb, void *ctx)
{
	int err;

	while (len > 0) {
		size_t n = len < PIECE ? len : PIECE;
		bool scanned = s->e->mark != NO_MARK || s->e->lines != NO_MARK;

		/* First the byte scan: it finds the piece's line breaks for all. */
#if HAVE_HYPERSCAN
		s->n_nl = 0;
#endif
		if (scanned) {
			err = marks_feed(s, buf, n);
			if (err < 0)
				return err;
		}
#if HAVE_HYPERSCAN
		if (scanned && s->lines_fn) {
			err = s->lines_fn(s->lines_ctx, buf, n, s->offset, s->nl, s->n_nl);
			if (err)
				return err;
		}
#endif
#if HAVE_HYPERSCAN
		if (s->hs[0] || s->hs[1]) {
			err = hs_piece(s, buf, n, false, scanned);
			if (err < 0)
				return err;
		}
#endif
		for (size_t k = 0; s->e->n_pcre2 && k < n; k += PCRE2_PIECE) {
			err = pcre2_feed(s, buf + k, MIN(n - k, PCRE2_PIECE));
			if (err < 0)
				return err;
		}
		s->offset += n;
#if HAVE_HYPERSCAN
		err = hs_settle(s, false);
		if (err < 0)
			return err;
#endif
		err = deliver(s, engine_stream_watermark(s), cb, ctx);
		if (err)
			return err;
		buf += n;
		len -= n;
	}
	return 0;
}

bool engine_stream_on_lines(struct engine_stream *s, engine_lines_fn fn, void *ctx)
{
#if HAVE_HYPERSCAN
	if (s->e->mark == NO_MARK && s->e->lines == NO_MARK)
		return false;
	s->lines_fn = fn;
	s->lines_ctx = ctx;
	return true;
#else
	(void)s, (void)fn, (void)ctx;
	return false;
#endif
}

void engine_stream_on_marks(struct engine_stream *s, engine_marks_fn fn, void *ctx)
{
	s->marks_fn = fn;
	s->marks_ctx = ctx;
}

int engine_stream_reset(struct engine_stream *s)
{
#if HAVE_HYPERSCAN
	/* Without a callback Hyperscan reports nothing. */
	if (s->hs[0])
		hs_close_stream(s->hs[0], s->scratch, NULL, NULL);
	s->hs[0] = NULL;
#endif
	return stream_open(s);
}

int engine_stream_end(struct engine_stream *s, engine_match_fn cb, void *ctx)
{
	int err = 0;

	s->ending = true;
#if HAVE_HYPERSCAN
	if (s->hs[0] || s->hs[1]) {
		err = hs_piece(s, NULL, 0, true, false);
		if (err < 0)
			return err;
	}
	err = hs_settle(s, true);
	if (err < 0)
		return err;
#endif
	if (s->e->n_pcre2 && s->line_len > 0) {
		err = scan_line(s, s->line_len, s->line_len);
		if (err < 0)
			return err;
		line_consume(s, s->line_len);
	}
	err = deliver(s, UINT64_MAX, cb, ctx);
	if (err)
		return err;
	return stream_open(s);
}
