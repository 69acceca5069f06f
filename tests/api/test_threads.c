// SPDX-License-Identifier: MIT
/*
 * One rules object, many threads: each with its own scanner gets what one
 * thread alone gets. Rules opened on several threads at once, compiling
 * and caching the same pack. Run under ASan and UBSan in the sanitizer
 * build.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "api_test.h"

#define THREADS 4
#define ROUNDS 40

static const char *const texts[] = {
	"See https://docs.example.com/x. It grew 73.4%.\n",
	"According to Smith et al. (2023), it will definitely ship by March 2027.\n",
	"<tool_output>revenue was $1.2 billion</tool_output> Revenue was $1.3 billion.\n",
	"You have 30 days to return it and save 12%.\n",
	"Nothing to see here, just prose without numbers or links.\n",
};
#define N_TEXTS (sizeof(texts) / sizeof(texts[0]))

struct job {
	const struct halluscan_rules *rules;
	const char *policy;       /* grounding, added once */
	char want[N_TEXTS][512];  /* what one thread alone reported */
	int failures;
};

static void scan_all(struct halluscan_scanner *sc, struct record *r, char out[N_TEXTS][512],
		     size_t step)
{
	size_t i;

	for (i = 0; i < N_TEXTS; i++) {
		const struct halluscan_summary *sum = scan_text(sc, r, texts[i], step);

		snprintf(out[i], 512, "%s|%llu", r->brief,
			 sum ? (unsigned long long)sum->findings : 999);
	}
}

static void *worker(void *arg)
{
	struct job *job = arg;
	struct halluscan_scanner *sc = NULL;
	struct record *r = calloc(1, sizeof(*r));
	char got[N_TEXTS][512];
	size_t round, i;

	if (!r || halluscan_scanner_new(job->rules, NULL, record_finding, r, &sc, NULL) != 0 ||
	    halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_SOURCE, job->policy,
					    strlen(job->policy)) != 0) {
		__atomic_add_fetch(&job->failures, 1, __ATOMIC_RELAXED);
		goto out;
	}
	for (round = 0; round < ROUNDS; round++) {
		scan_all(sc, r, got, round % 7);
		for (i = 0; i < N_TEXTS; i++)
			if (strcmp(got[i], job->want[i]) != 0)
				__atomic_add_fetch(&job->failures, 1, __ATOMIC_RELAXED);
	}
out:
	halluscan_scanner_free(sc);
	free(r);
	return NULL;
}

TEST(api_threads_share_rules)
{
	static struct job job = {.policy = "Refunds within 14 days; members save 10%.\n"};
	struct halluscan_rules *rules = NULL;
	struct halluscan_scanner *sc = NULL;
	static struct record r;
	pthread_t t[THREADS];
	int i;

	CHECK_EQ(halluscan_rules_open(NULL, &rules, NULL), 0);
	if (!rules)
		return;
	job.rules = rules;
	CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &r, &sc, NULL), 0);
	CHECK_EQ(halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_SOURCE, job.policy,
						 strlen(job.policy)), 0);
	scan_all(sc, &r, job.want, 0);
	halluscan_scanner_free(sc);
	CHECK(strstr(job.want[3], "altered_number:12%@39;") != NULL);
	for (i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, worker, &job), 0);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	CHECK_EQ(job.failures, 0);
	halluscan_rules_free(rules);
}

struct owned {
	struct halluscan_scanner *sc; /* the thread's to use and free */
	struct record r;
	const struct job *job;
	int failures;
};

static void *scan_and_free(void *arg)
{
	struct owned *o = arg;
	char got[N_TEXTS][512];
	size_t round, i;

	for (round = 0; round < ROUNDS / 4; round++) {
		scan_all(o->sc, &o->r, got, round % 7);
		for (i = 0; i < N_TEXTS; i++)
			o->failures += strcmp(got[i], o->job->want[i]) != 0;
	}
	/* Whichever thread frees the last scanner frees the rules. */
	halluscan_scanner_free(o->sc);
	return NULL;
}

/* Scanners made, the rules let go of at once, then each scanner used and
 * freed on a thread of its own. */
TEST(api_threads_free_rules_first)
{
	static struct job job = {.policy = "Refunds within 14 days; members save 10%.\n"};
	static struct owned own[THREADS];
	struct halluscan_rules *rules = NULL;
	struct halluscan_scanner *sc = NULL;
	static struct record r;
	bool started[THREADS];
	pthread_t t[THREADS];
	int i;

	CHECK_EQ(halluscan_rules_open(NULL, &rules, NULL), 0);
	if (!rules)
		return;
	CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &r, &sc, NULL), 0);
	CHECK_EQ(halluscan_scanner_add_grounding(sc, HALLUSCAN_GROUND_SOURCE, job.policy,
						 strlen(job.policy)), 0);
	scan_all(sc, &r, job.want, 0);
	for (i = 0; i < THREADS; i++) {
		own[i] = (struct owned){.job = &job};
		CHECK_EQ(halluscan_scanner_new(rules, NULL, record_finding, &own[i].r, &own[i].sc,
					       NULL), 0);
		CHECK_EQ(halluscan_scanner_add_grounding(own[i].sc, HALLUSCAN_GROUND_SOURCE,
							 job.policy, strlen(job.policy)), 0);
	}
	halluscan_rules_free(rules);
	halluscan_scanner_free(sc);
	for (i = 0; i < THREADS; i++) {
		started[i] = own[i].sc && pthread_create(&t[i], NULL, scan_and_free, &own[i]) == 0;
		CHECK(started[i]);
		if (!started[i])
			halluscan_scanner_free(own[i].sc);
	}
	for (i = 0; i < THREADS; i++) {
		if (started[i])
			pthread_join(t[i], NULL);
		CHECK_EQ(own[i].failures, 0);
	}
}

struct opener {
	const char *cache_dir;
	char digest[65];
	int err;
};

static void *open_pack(void *arg)
{
	struct halluscan_pack pack = {"todo.yaml", TODO_PACK, strlen(TODO_PACK)};
	struct opener *op = arg;
	struct halluscan_rules_options o;
	struct halluscan_rules *rules = NULL;
	struct halluscan_scanner *sc = NULL;
	const struct halluscan_summary *sum;

	halluscan_rules_options_init(&o);
	o.packs = &pack;
	o.n_packs = 1;
	o.flags = HALLUSCAN_RULES_BUILTIN;
	o.cache_dir = op->cache_dir;
	op->err = halluscan_rules_open(&o, &rules, NULL);
	if (op->err == 0)
		op->err = halluscan_scanner_new(rules, NULL, NULL, NULL, &sc, NULL);
	if (op->err == 0 && halluscan_check(sc, "a TODO here\n", 12, &sum) != 1)
		op->err = -EINVAL;
	if (rules)
		snprintf(op->digest, sizeof(op->digest), "%s", halluscan_rules_digest(rules));
	halluscan_scanner_free(sc);
	halluscan_rules_free(rules);
	return NULL;
}

/* Opening compiles (loading the compiler once) and fills one cache from several threads. */
TEST(api_threads_open_rules)
{
	struct opener op[THREADS];
	pthread_t t[THREADS];
	char dir[] = "/tmp/halluscan-api-threads-XXXXXX", cmd[64];
	int round, i;

	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	for (round = 0; round < 2; round++) { /* compiled, then loaded from the cache */
		for (i = 0; i < THREADS; i++) {
			op[i] = (struct opener){.cache_dir = dir};
			CHECK_EQ(pthread_create(&t[i], NULL, open_pack, &op[i]), 0);
		}
		for (i = 0; i < THREADS; i++) {
			pthread_join(t[i], NULL);
			CHECK_EQ(op[i].err, 0);
			CHECK_STR(op[i].digest, op[0].digest);
		}
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ(system(cmd), 0);
}
