// SPDX-License-Identifier: MIT
/* Units of work on threads, their output in order. */
#include "jobs.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "util.h"

struct slot {
	size_t worker;   /* whose buffer holds the unit's output */
	size_t from, to;
};

struct thread {
	struct jobs *j;
	size_t i;
	void *worker;
	struct buf out;  /* what the worker wrote since the batch began */
	FILE *f;         /* a stream into out */
	pthread_t tid;
	bool started;
};

struct jobs {
	size_t n;
	struct thread *t;
	jobs_fn fn;
	pthread_mutex_t mu;
	pthread_cond_t start, done;
	unsigned long gen;  /* batches begun */
	size_t busy;        /* threads still on this batch */
	bool quit;
	/* The batch: set by jobs_run() before it wakes the threads. */
	size_t n_units;
	atomic_size_t next;
	struct slot *slots;
	int *results;
	size_t cap_slots;
};

static ssize_t buf_write(void *cookie, const char *p, size_t n)
{
	if (buf_add(cookie, p, n) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return (ssize_t)n;
}

/* Takes units until none is left; each unit's output is where it ends. */
static void work(struct thread *t)
{
	struct jobs *j = t->j;
	size_t u;

	while ((u = atomic_fetch_add(&j->next, 1)) < j->n_units) {
		size_t from = t->out.len;
		int rc = j->fn(t->worker, u);

		if (fflush(t->f) != 0 && rc == 0)
			rc = -ENOMEM;
		j->slots[u] = (struct slot){.worker = t->i, .from = from, .to = t->out.len};
		j->results[u] = rc;
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

int jobs_new(size_t n, void *const *workers, jobs_fn fn, struct jobs **out)
{
	cookie_io_functions_t io = {.write = buf_write};
	struct jobs *j;
	size_t i;
	int err = 0;

	*out = NULL;
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
	atomic_init(&j->next, 0);
	for (i = 0; i < j->n && !err; i++) {
		struct thread *t = &j->t[i];

		*t = (struct thread){.j = j, .i = i, .worker = workers[i]};
		t->f = fopencookie(&t->out, "w", io);
		if (!t->f)
			err = -ENOMEM;
		else if (i > 0 && pthread_create(&t->tid, NULL, thread_main, t) != 0)
			err = -EAGAIN;
		else
			t->started = i > 0;
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
		buf_free(&j->t[i].out);
	}
	pthread_cond_destroy(&j->done);
	pthread_cond_destroy(&j->start);
	pthread_mutex_destroy(&j->mu);
	free(j->slots);
	free(j->t);
	free(j);
}

FILE *jobs_stream(struct jobs *j, size_t i)
{
	return j->t[i].f;
}

int jobs_run(struct jobs *j, size_t n_units, FILE *f, int *results)
{
	size_t i;

	if (grow(&j->slots, &j->cap_slots, n_units, sizeof(*j->slots)) < 0)
		return -ENOMEM;
	for (i = 0; i < j->n; i++)
		j->t[i].out.len = 0;
	j->n_units = n_units;
	j->results = results;
	atomic_store(&j->next, 0);
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
	for (i = 0; i < n_units; i++) {
		const struct slot *s = &j->slots[i];
		size_t len = s->to - s->from;

		if (len && fwrite(j->t[s->worker].out.data + s->from, 1, len, f) != len)
			return errno ? -errno : -EIO;
	}
	return 0;
}
