/* SPDX-License-Identifier: MIT */
/* A minimal unit-test harness: TEST() registers, CHECK() records failures. */
#ifndef HALLUSCAN_TEST_H
#define HALLUSCAN_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct test {
	const char *name;
	void (*fn)(void);
};

void test_register(const char *name, void (*fn)(void));
void test_fail(const char *file, int line, const char *what);
/* The source tree, from $TOP_SRCDIR (set by meson), for data files. */
const char *test_srcdir(void);
/* The shared corpus folder beside the checkout, or NULL when it is absent. */
const char *test_shared(void);
void test_skip(const char *why);

/* xorshift64 over a test's own state: the same sequence every run. */
static inline uint64_t test_xorshift(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

#define TEST(name)                                                             \
	static void name(void);                                                \
	__attribute__((constructor)) static void reg_##name(void)              \
	{                                                                      \
		test_register(#name, name);                                    \
	}                                                                      \
	static void name(void)

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			test_fail(__FILE__, __LINE__, #cond);                  \
	} while (0)

#define CHECK_EQ(a, b)                                                         \
	do {                                                                   \
		long long a_ = (long long)(a), b_ = (long long)(b);            \
		if (a_ != b_) {                                                \
			char m_[256];                                          \
			snprintf(m_, sizeof(m_), "%s == %s (%lld != %lld)", #a, #b, a_, b_); \
			test_fail(__FILE__, __LINE__, m_);                     \
		}                                                              \
	} while (0)

#define CHECK_STR(a, b)                                                        \
	do {                                                                   \
		const char *a_ = (a), *b_ = (b);                               \
		if (!a_ || !b_ || strcmp(a_, b_) != 0) {                       \
			char m_[1024];                                         \
			snprintf(m_, sizeof(m_), "%s == %s (\"%s\" != \"%s\")", #a, #b, \
				 a_ ? a_ : "(null)", b_ ? b_ : "(null)");      \
			test_fail(__FILE__, __LINE__, m_);                     \
		}                                                              \
	} while (0)

#endif
