// SPDX-License-Identifier: MIT
/* Shared helpers: the bounded line reader, SHA-256, fmath.h against libm. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fmath.h"
#include "common/sha256.h"
#include "common/util.h"
#include "test.h"

/* A file holding text, rewound, for reading (the caller closes it). */
static int temp_fd(const char *text, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/halluscan-util-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return -1;
	unlink(path);
	CHECK(write(fd, text, len) == (ssize_t)len);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	return fd;
}

/* Reads every line of text with bound max into "line|line|..."; too long: "!N". */
static void read_all(const char *text, size_t len, size_t max, struct buf *out)
{
	struct lines *l = NULL;
	const char *line;
	size_t n;
	bool too_long;
	int fd = temp_fd(text, len), rc;

	out->len = 0;
	buf_addc(out, '\0');
	out->len = 0;
	if (fd < 0 || lines_new(fd, max, &l) < 0)
		goto out;
	while ((rc = lines_next(l, &line, &n, &too_long)) == 1) {
		if (too_long) {
			CHECK(line == NULL);
			buf_addf(out, "!%zu|", n);
		} else {
			CHECK(n <= max);
			CHECK(line[n] == '\0');
			buf_add(out, line, n);
			buf_addc(out, '|');
		}
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(lines_next(l, &line, &n, &too_long), 0);
out:
	lines_free(l);
	if (fd >= 0)
		close(fd);
}

#define S(text) text, sizeof(text) - 1

TEST(lines_split_and_bound)
{
	struct buf out = {0};

	read_all(S("abc\n\nxyz"), 8, &out);
	CHECK_STR(out.data, "abc||xyz|");
	read_all(S(""), 8, &out);
	CHECK_STR(out.data, "");
	read_all(S("\n"), 8, &out);
	CHECK_STR(out.data, "|");
	read_all(S("a\r\n"), 8, &out);
	CHECK_STR(out.data, "a\r|");
	/* At the bound a line is held; one byte past it, only counted. */
	read_all(S("12345678\n123456789\nok\n123456789"), 8, &out);
	CHECK_STR(out.data, "12345678|!9|ok|!9|");
	read_all(S("a\0b\n"), 8, &out);
	CHECK_EQ(out.len, 4);
	CHECK(memcmp(out.data, "a\0b|", 4) == 0);
	buf_free(&out);
}

/* Lines that span the reader's pieces (64 KiB), held or skipped. */
TEST(lines_span_pieces)
{
	const size_t big = 200000;
	struct buf text = {0}, out = {0}, want = {0};
	size_t i;

	for (i = 0; i < big; i++)
		buf_addc(&text, (char)('a' + i % 26));
	buf_addc(&text, '\n');
	for (i = 0; i < big + 1; i++)
		buf_addc(&text, 'x');
	BUF_LIT(&text, "\ntail\n");
	read_all(text.data, text.len, big, &out);
	buf_add(&want, text.data, big);
	buf_addf(&want, "|!%zu|tail|", big + 1);
	CHECK_EQ(out.len, want.len);
	CHECK(out.len == want.len && memcmp(out.data, want.data, want.len) == 0);
	buf_free(&text);
	buf_free(&out);
	buf_free(&want);
}

/* A line is returned when its newline arrives, with the writer still open. */
TEST(lines_live_pipe)
{
	struct lines *l = NULL;
	const char *line;
	bool too_long;
	size_t n;
	int p[2];

	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(lines_new(p[0], 16, &l), 0);
	if (!l)
		return;
	CHECK_EQ(write(p[1], "one\ntw", 6), 6);
	CHECK_EQ(lines_next(l, &line, &n, &too_long), 1);
	CHECK(!too_long && n == 3 && memcmp(line, "one", 3) == 0);
	CHECK_EQ(write(p[1], "o\n", 2), 2);
	CHECK_EQ(lines_next(l, &line, &n, &too_long), 1);
	CHECK(!too_long && n == 3 && memcmp(line, "two", 3) == 0);
	close(p[1]);
	CHECK_EQ(lines_next(l, &line, &n, &too_long), 0);
	lines_free(l);
	close(p[0]);
}

static const char *visible(struct buf *b, const char *s, size_t n)
{
	b->len = 0;
	CHECK_EQ(buf_add_visible(b, s, n), 0);
	buf_addc(b, '\0');
	return b->data;
}

/* Control characters never reach a terminal raw; text, UTF-8 and backslashes do. */
TEST(visible_escapes_controls)
{
	struct buf b = {0};

	CHECK_STR(visible(&b, S("plain text, \\d+ and caf\xc3\xa9 \xe2\x82\xac")),
		  "plain text, \\d+ and caf\xc3\xa9 \xe2\x82\xac");
	/* C0: ESC, BEL, CR, LF, TAB, NUL; and DEL. */
	CHECK_STR(visible(&b, S("a\x1b[31mred\x07\r\n\t\0z\x7f")),
		  "a\\x1b[31mred\\x07\\x0d\\x0a\\x09\\x00z\\x7f");
	/* C1 encoded as UTF-8 (U+009B CSI, U+0080, U+009F); U+00A0 is not C1. */
	CHECK_STR(visible(&b, S("\xc2\x9b" "2J\xc2\x80\xc2\x9f\xc2\xa0")),
		  "\\u009b2J\\u0080\\u009f\xc2\xa0");
	/* Bytes that are not UTF-8: a lone C1 byte, a cut sequence, an overlong form. */
	CHECK_STR(visible(&b, S("\x9b" "2J \xe2\x82 \xc0\xaf \xc2")),
		  "\\x9b2J \\xe2\\x82 \\xc0\\xaf \\xc2");
	CHECK_STR(visible(&b, S("")), "");
	buf_free(&b);
}

static void sha256_of(const void *p, size_t n, size_t piece, char hex[65])
{
	struct sha256 s;
	unsigned char d[32];
	size_t at;

	sha256_init(&s);
	for (at = 0; at < n; at += piece)
		sha256_update(&s, (const char *)p + at, MIN(piece, n - at));
	sha256_final(&s, d);
	sha256_hex(d, hex);
}

TEST(sha256_known_answers)
{
	/* FIPS 180-4 examples, and NIST's million a's, in both code paths. */
	static const struct {
		const char *in;
		size_t repeat;
		const char *hex;
	} v[] = {
		{"", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
		 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{"a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
	};
	char hex[65], *buf;
	size_t i, k, n;
	int path;

	for (path = 0; path < 2; path++) {
		sha256_portable_only = path == 1;
		for (i = 0; i < ARRAY_SIZE(v); i++) {
			n = strlen(v[i].in) * v[i].repeat;
			buf = malloc(n + 1);
			CHECK(buf != NULL);
			if (!buf)
				break;
			for (k = 0; k < v[i].repeat; k++)
				memcpy(buf + k * strlen(v[i].in), v[i].in, strlen(v[i].in));
			sha256_of(buf, n, n ? n : 1, hex);
			CHECK_STR(hex, v[i].hex);
			sha256_of(buf, n, 7, hex);
			CHECK_STR(hex, v[i].hex);
			free(buf);
		}
	}
	sha256_portable_only = false;
}

TEST(sha256_paths_agree)
{
	/* Every length through two blocks and past (each padding case), and
	 * random pieces: the accelerated path (where the processor has it)
	 * gives the portable code's digest. */
	unsigned char data[300];
	char a[65], b[65];
	uint32_t x = 12345;
	size_t n, i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)((x = x * 1103515245u + 12345u) >> 24);
	if (!sha256_accelerated())
		fprintf(stderr, "  (no SHA extensions here: the portable code against itself)\n");
	for (n = 0; n <= sizeof(data); n++) {
		sha256_portable_only = true;
		sha256_of(data, n, 64, a);
		sha256_portable_only = false;
		sha256_of(data, n, 1 + n % 13, b);
		CHECK_STR(a, b);
	}
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

/* The SHA extensions are used exactly where the processor says it has
 * them, however sha256.c asks (the loader's record of cpuid, issue 35). */
TEST(sha256_accelerated_as_cpuid_says)
{
	unsigned a, b, c, d;
	bool has = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1) &&
		   __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);

	CHECK_EQ(sha256_accelerated(), has);
	sha256_portable_only = true;
	CHECK(!sha256_accelerated());
	sha256_portable_only = false;
}
#endif

/* find_literal() finds what memmem() finds, whatever the literal ends in
 * (a mark takes the memchr() path) and wherever the text puts it. */
TEST(find_literal_is_memmem)
{
	static const char *const lits[] = {"halluscan:", "ab", "a", "zz:", "x)", "needle", "::"};
	char text[300];
	unsigned seed = 7;
	size_t i, j, round;

	for (round = 0; round < 400; round++) {
		size_t n = (size_t)(round * 37 % sizeof(text));

		for (j = 0; j < n; j++) {
			seed = seed * 1103515245u + 12345u;
			text[j] = "abhz:x) lnuscde"[(seed >> 16) % 15];
		}
		/* now and then a whole literal at a block's edge */
		if (round % 3 == 0 && n > 80)
			memcpy(text + 64 - round % 9, "halluscan:", 10);
		for (i = 0; i < ARRAY_SIZE(lits); i++) {
			size_t k = strlen(lits[i]);
			const char *want = memmem(text, n, lits[i], k), *got = find_literal(text, n, lits[i], k);

			CHECK(got == want);
		}
	}
	CHECK(find_literal("abc", 3, "", 0) != NULL);
	CHECK(find_literal("ab", 2, "abc", 3) == NULL);
}

/* The same double, bit for bit; any NaN for a NaN. */
static int same(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof(a)) == 0;
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Doubles of every kind: any bits (subnormals, huge, NaN), whole numbers,
 * figures with a few decimals, and the edges. */
static double some_double(uint64_t *s, size_t i)
{
	static const double edge[] = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994,
				      0x1p52, 0x1p52 - 0.5, -0x1p52 + 0.5, 0x1p53, 4.9e-324,
				      2.2250738585072014e-308, 1.7976931348623157e308, INFINITY,
				      -INFINITY, NAN, 10, 60, 100, 1440, 1e15, 999999999999999.0};
	uint64_t r = next(s);
	double x;

	if (i < sizeof(edge) / sizeof(edge[0]))
		return edge[i];
	switch (r % 4) {
	case 0:
		memcpy(&x, &r, sizeof(x));
		return x;
	case 1:
		return (double)(int64_t)(next(s) % 2000000) - 1000000;
	case 2:
		return (double)(int64_t)(next(s) % 20000000) / 1000 - 10000;
	default:
		return ldexp((double)(next(s) >> 11), (int)(next(s) % 200) - 150);
	}
}

TEST(fmath_as_libm)
{
	uint64_t s = 0x9e3779b97f4a7c15ull;
	size_t i, bad = 0;

	for (i = 0; i < 400000; i++) {
		double x = some_double(&s, i), y = some_double(&s, i % 7 == 0 ? 0 : i + 1000);
		int n = (int)(next(&s) % 4400) - 2200, e1 = 0, e2 = 0;
		double m1 = fmath_frexp(x, &e1), m2 = frexp(x, &e2);

		bad += !same(fmath_fmod(x, y), fmod(x, y));
		bad += !same(fmath_round(x), round(x));
		bad += !same(fmath_sqrt(fabs(x)), sqrt(fabs(x)));
		bad += !same(fmath_ldexp(x, n), ldexp(x, n));
		bad += !same(m1, m2) || (isfinite(x) && e1 != e2);
		if (bad && bad < 5)
			fprintf(stderr, "fmath: x %a y %a n %d\n", x, y, n);
	}
	CHECK_EQ(bad, 0);
	/* The figures the lexer and the checks ask about. */
	CHECK(fmath_fmod(2030, 10) == 0 && fmath_fmod(1995, 10) == 5 && fmath_fmod(-7, 60) == -7);
	CHECK(fmath_round(2.5) == 3 && fmath_round(-2.5) == -3 && fmath_round(0.49999999999999994) == 0);
}
