/* SPDX-License-Identifier: MIT */
/*
 * -j N: units of work (records, files) run on N threads, their output
 * written in unit order, byte for byte what one thread writes.
 *
 * The calling thread is worker 0 and works too; workers 1..N-1 are threads
 * that live as long as the struct jobs. Worker i writes through
 * jobs_stream(j, i). The unit whose turn it is (every unit before it
 * written) writes straight to the real output; a unit before its turn is
 * held in memory, at most JOBS_HOLD_MAX bytes for all of them together: a
 * worker whose output would pass that waits for its unit's turn. So memory
 * does not grow with the output, and a unit is written as soon as it and
 * every unit before it are done.
 */
#ifndef HALLUSCAN_CLI_JOBS_H
#define HALLUSCAN_CLI_JOBS_H

#include <stddef.h>
#include <stdio.h>

/* Output held for units before their turn, all workers together. */
#define JOBS_HOLD_MAX ((size_t)32 << 20)

struct jobs;

/*
 * Does unit on worker (its state, as given to jobs_new()). Returns 0, a
 * positive errno the caller reports for that unit, or a negative errno
 * that ends the run: neither that unit's output nor any later unit's is
 * written (what it wrote in its turn stays written).
 */
typedef int (*jobs_fn)(void *worker, size_t unit);

/*
 * n threads in all (n >= 1), workers[i] for thread i. Returns 0 or a
 * negative errno. A thread that cannot be created is no error: the run
 * goes on the threads that were (jobs_threads(), at least the caller's),
 * and *create_err (when not NULL) gets why, or 0 when all n were.
 */
int jobs_new(size_t n, void *const *workers, jobs_fn fn, struct jobs **out, int *create_err);
void jobs_free(struct jobs *j);
/* The threads that run units: workers 0..jobs_threads()-1. */
size_t jobs_threads(const struct jobs *j);
/* The stream worker i writes its output to. */
FILE *jobs_stream(struct jobs *j, size_t i);
/*
 * Runs units [0, n_units) and writes their output to f in order; results
 * (n_units of them) gets what fn returned for each (0 for a unit not run
 * because one before it ended the run). Returns 0, or the negative errno
 * of a write to f.
 */
int jobs_run(struct jobs *j, size_t n_units, FILE *f, int *results);

#endif
