/* SPDX-License-Identifier: MIT */
/*
 * -j N: units of work (records, files) run on N threads, their output
 * written in unit order, byte for byte what one thread writes.
 *
 * The calling thread is worker 0 and works too; workers 1..N-1 are threads
 * that live as long as the struct jobs. Worker i writes through
 * jobs_stream(j, i), a stream into memory; jobs_run() then writes each
 * unit's bytes to the real output in order. A unit's output is held until
 * the units before it are done, so memory is that of a batch's output.
 */
#ifndef HALLUSCAN_CLI_JOBS_H
#define HALLUSCAN_CLI_JOBS_H

#include <stddef.h>
#include <stdio.h>

struct jobs;

/*
 * Does unit on worker (its state, as given to jobs_new()). Returns 0, a
 * positive errno the caller reports for that unit, or a negative errno
 * that ends the run.
 */
typedef int (*jobs_fn)(void *worker, size_t unit);

/* n threads in all (n >= 1), workers[i] for thread i. Returns 0 or a negative errno. */
int jobs_new(size_t n, void *const *workers, jobs_fn fn, struct jobs **out);
void jobs_free(struct jobs *j);
/* The stream worker i writes its output to. */
FILE *jobs_stream(struct jobs *j, size_t i);
/*
 * Runs units [0, n_units) and writes their output to f in order; results
 * (n_units of them) gets what fn returned for each. Returns 0, or the
 * negative errno of a write to f.
 */
int jobs_run(struct jobs *j, size_t n_units, FILE *f, int *results);

#endif
