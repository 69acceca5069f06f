// SPDX-License-Identifier: MIT
/* Units of work on threads, their output in order. */
#include "jobs.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "common/util.h"

/* A held unit's buffer kept for the next batch up to this size, freed beyond. */
#define UNIT_KEEP ((size_t)64 << 10)

struct unit {
	struct buf out;  /* what it wrote before its turn */
	bool done;
};

struct thread {
	struct jobs *j;
	size_t i;
	void *worker;
	FILE *f;         /* a stream through write_unit() */
	size_t u;        /* the unit it is doing */
	pthread_t tid;
	bool started;
};

/*
 * Everything from head on is guarded by mu: units, held, the writes to f.
 * Output is written under the lock, so the order of bytes in f is the
 * order in which head passes the units.
 */
struct jobs {
	size_t n;
	struct thread *t;
	jobs_fn fn;
	pthread_mutex_t mu;
	pthread_cond_t start, done, turn;
	unsigned long gen;  /* batches begun */
	size_t busy;        /* threads still on this batch */
	bool quit;
	/* The batch: set by jobs_run() before it wakes the threads. */
	size_t n_units;
	atomic_size_t next;
	atomic_size_t stop; /* the first unit that ended the run, or n_units */
	int *results;
	FILE *f;
	struct unit *units;
	size_t cap_units;
	size_t head;        /* units before it are written */
	size_t held;        /* bytes in units' out */
	int werr;           /* negative errno of the first write to f */
};

static void put(struct jobs *j, const void *p, size_t n)
{
	if (n && !j->werr && fwrite(p, 1, n, j->f) != n)
		j->werr = errno ? -errno : -EIO;
}

static void release(struct jobs *j, struct unit *un)
{
	j->held -= un->out.len;
	if (un->out.cap > UNIT_KEEP)
		buf_free(&un->out);
	un->out.len = 0;
}

/* Writes the units whose turn has come and that are done; wakes the waiters. */
static void advance(struct jobs *j)
{
	size_t stop = atomic_load(&j->stop);
	size_t head = j->head;

	while (j->head < stop && j->head < j->n_units && j->units[j->head].done) {
		struct unit *un = &j->units[j->head];

		put(j, un->out.data, un->out.len);
		release(j, un);
		j->head++;
	}
	if (j->head != head)
		pthread_cond_broadcast(&j->turn);
}

static ssize_t write_unit(void *cookie, const char *p, size_t n)
{
	struct thread *t = cookie;
	struct jobs *j = t->j;
	struct unit *un = &j->units[t->u];
	int err;

	pthread_mutex_lock(&j->mu);
	while (t->u != j->head && t->u < atomic_load(&j->stop) && !j->werr &&
	       j->held + n > JOBS_HOLD_MAX)
		pthread_cond_wait(&j->turn, &j->mu);
	if (t->u == j->head) {
		put(j, un->out.data, un->out.len);
		release(j, un);
		put(j, p, n);
	} else if (t->u < atomic_load(&j->stop) && !j->werr) {
		if (buf_add(&un->out, p, n) == 0)
			j->held += n;
		else
			n = 0;  /* out of memory: the worker's stream fails */
	}
	/* A unit after one that ended the run is not written: its bytes go nowhere. */
	err = j->werr;
	pthread_mutex_unlock(&j->mu);
	if (err || n == 0) {
		errno = err ? -err : ENOMEM;
		return -1;
	}
	return (ssize_t)n;
}

/* Takes units until none is left; each unit's output is written in its turn. */
static void work(struct thread *t)
{
	struct jobs *j = t->j;
	size_t u;

	while ((u = atomic_fetch_add(&j->next, 1)) < j->n_units) {
		int rc = 0;

		t->u = u;
		if (u < atomic_load(&j->stop)) {
			rc = j->fn(t->worker, u);
			if (fflush(t->f) != 0 && rc == 0)
				rc = errno ? -errno : -EIO;
			/* A unit's bytes never spill into the next one's. */
			__fpurge(t->f);
			clearerr(t->f);
		}
		pthread_mutex_lock(&j->mu);
		j->results[u] = rc;
		j->units[u].done = true;
		if (rc < 0 && u < atomic_load(&j->stop)) {
			atomic_store(&j->stop, u);
			release(j, &j->units[u]);
			pthread_cond_broadcast(&j->turn);
		}
		advance(j);
		pthread_mutex_unlock(&j->mu);
	}
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;
	struct jobs *j = t->j;
	unsigned long seen = 0;

	for (;;) {
		pthread_mutex_lock(&j->mu);
		while (!j->quit && j->gen == seen)
			pthread_cond_wait(&j->start, &j->mu);
		if (j->quit) {
			pthread_mutex_unlock(&j->mu);
			return NULL;
		}
		seen = j->gen;
		pthread_mutex_unlock(&j->mu);
		work(t);
		pthread_mutex_lock(&j->mu);
		if (--j->busy == 0)
			pthread_cond_signal(&j->done);
		pthread_mutex_unlock(&j->mu);
	}
}

int jobs_new(size_t n, void *const *workers, jobs_fn fn, struct jobs **out, int *create_err)
{
	cookie_io_functions_t io = {.write = write_unit};
	struct jobs *j;
	size_t i;
	int err = 0, rc;

	*out = NULL;
	if (create_err)
		*create_err = 0;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->t = calloc(n ? n : 1, sizeof(*j->t));
	if (!j->t) {
		free(j);
		return -ENOMEM;
	}
	j->n = n ? n : 1;
	j->fn = fn;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->start, NULL);
	pthread_cond_init(&j->done, NULL);
	pthread_cond_init(&j->turn, NULL);
	atomic_init(&j->next, 0);
	atomic_init(&j->stop, 0);
	for (i = 0; i < j->n && !err; i++) {
		struct thread *t = &j->t[i];

		*t = (struct thread){.j = j, .i = i, .worker = workers[i]};
		t->f = fopencookie(t, "w", io);
		if (!t->f) {
			err = -ENOMEM;
			break;
		}
		if (i == 0)
			continue;
		rc = pthread_create(&t->tid, NULL, thread_main, t);
		if (rc != 0) {
			/* Fewer threads, not none: the run goes on those there are. */
			fclose(t->f);
			t->f = NULL;
			if (create_err)
				*create_err = rc;
			j->n = i;
			break;
		}
		t->started = true;
	}
	if (err) {
		jobs_free(j);
		return err;
	}
	*out = j;
	return 0;
}

void jobs_free(struct jobs *j)
{
	size_t i;

	if (!j)
		return;
	pthread_mutex_lock(&j->mu);
	j->quit = true;
	pthread_cond_broadcast(&j->start);
	pthread_mutex_unlock(&j->mu);
	for (i = 0; i < j->n; i++) {
		if (j->t[i].started)
			pthread_join(j->t[i].tid, NULL);
		if (j->t[i].f)
			fclose(j->t[i].f);
	}
	for (i = 0; i < j->cap_units; i++)
		buf_free(&j->units[i].out);
	pthread_cond_destroy(&j->turn);
	pthread_cond_destroy(&j->done);
	pthread_cond_destroy(&j->start);
	pthread_mutex_destroy(&j->mu);
	free(j->units);
	free(j->t);
	free(j);
}

size_t jobs_threads(const struct jobs *j)
{
	return j->n;
}

FILE *jobs_stream(struct jobs *j, size_t i)
{
	return j->t[i].f;
}

int jobs_run(struct jobs *j, size_t n_units, FILE *f, int *results)
{
	size_t i, cap = j->cap_units;

	if (grow(&j->units, &j->cap_units, n_units, sizeof(*j->units)) < 0)
		return -ENOMEM;
	memset(j->units + cap, 0, (j->cap_units - cap) * sizeof(*j->units));
	for (i = 0; i < n_units; i++)
		j->units[i].done = false;
	j->n_units = n_units;
	j->results = results;
	j->f = f;
	j->head = 0;
	j->held = 0;
	j->werr = 0;
	atomic_store(&j->next, 0);
	atomic_store(&j->stop, n_units);
	pthread_mutex_lock(&j->mu);
	j->busy = j->n - 1;
	j->gen++;
	pthread_cond_broadcast(&j->start);
	pthread_mutex_unlock(&j->mu);
	work(&j->t[0]);
	pthread_mutex_lock(&j->mu);
	while (j->busy > 0)
		pthread_cond_wait(&j->done, &j->mu);
	pthread_mutex_unlock(&j->mu);
	return j->werr;
}
