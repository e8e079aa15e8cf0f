/* SPDX-License-Identifier: MIT */
/*
 * Benchmark of the bare event queue with the classic hold model (Jones,
 * "An empirical comparison of priority-queue and event-set
 * implementations", CACM 1986): N events are pending; each one that runs
 * schedules one more at now + a random increment, so the queue holds N
 * events throughout. It goes through the real engine path (ibfs__eq_run
 * calling a handler that calls ibfs__eq_after), events from the pool.
 *
 * Usage: bench_queue [EVENTS_PER_SIZE [N ...]]
 * Defaults: 2e7 events for each N in 1e3, 1e4, 1e5, 1e6. Prints one line
 * per N with events per second of the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), which counts only the time the benchmark ran
 * on a core, so a machine shared with other jobs still gives a fair
 * figure; the wall time (CLOCK_MONOTONIC) is printed beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fabric/event_queue.h"
#include "fabric/rng.h"

struct hold {
	struct ibfs_eq q;
	struct ibfs_rng rng;
	uint64_t left;   /* events still to run before stopping */
	uint64_t mean;   /* mean increment, ps */
};

static void hold_fire(void *obj, uint64_t arg)
{
	struct hold *h = obj;

	/* Increment uniform in [1, 2 * mean]: mean increment = mean + 0.5. */
	ibfs__eq_after(&h->q, 1 + ibfs__rng_below(&h->rng, 2 * h->mean),
		       hold_fire, h, arg);
	if (--h->left == 0)
		ibfs__eq_limit(&h->q, 0);
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_one(uint64_t n, uint64_t events)
{
	struct hold *h = malloc(sizeof(*h));

	if (!h || ibfs__eq_init(&h->q) < 0) {
		fprintf(stderr, "bench_queue: out of memory\n");
		free(h);
		return -1;
	}
	ibfs__rng_seed(&h->rng, 1, 0);
	h->mean = 1000000; /* 1 us */
	for (uint64_t i = 0; i < n; i++)
		if (!ibfs__eq_schedule(&h->q,
				       ibfs__rng_below(&h->rng, 2 * h->mean),
				       hold_fire, h, i)) {
			fprintf(stderr, "bench_queue: out of memory\n");
			return -1;
		}
	/* Warm up: every event runs about twice, the pool reaches size. */
	h->left = 2 * n;
	ibfs__eq_run(&h->q, IBFS_TIME_NEVER);

	uint64_t grows = h->q.pool.grows, resizes = h->q.resizes;

	h->left = events;
	double w0 = clock_s(CLOCK_MONOTONIC);
	double t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	uint64_t ran = ibfs__eq_run(&h->q, IBFS_TIME_NEVER);
	double dt = clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
	double wall = clock_s(CLOCK_MONOTONIC) - w0;

	printf("hold N=%-8llu events=%llu cpu=%.3f s wall=%.3f s  "
	       "%.1f M events/s  %.1f ns/event  pool growth: %llu  "
	       "rebuilds: %llu  day: 2^%u ps\n",
	       (unsigned long long)n, (unsigned long long)ran, dt, wall,
	       (double)ran / dt / 1e6, dt * 1e9 / (double)ran,
	       (unsigned long long)(h->q.pool.grows - grows),
	       (unsigned long long)(h->q.resizes - resizes), h->q.shift);
	int bad = ran != events || ibfs__eq_size(&h->q) != n;

	ibfs__eq_destroy(&h->q);
	free(h);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t events = 20000000;
	static const uint64_t def_sizes[] = { 1000, 10000, 100000, 1000000 };

	if (argc > 1)
		events = strtoull(argv[1], NULL, 10);
	if (events == 0) {
		fprintf(stderr, "usage: bench_queue [EVENTS [N ...]]\n");
		return 2;
	}
	int rc = 0;

	if (argc > 2) {
		for (int i = 2; i < argc; i++) {
			uint64_t n = strtoull(argv[i], NULL, 10);

			if (n == 0) {
				fprintf(stderr, "bench_queue: bad N '%s'\n",
					argv[i]);
				return 2;
			}
			rc |= bench_one(n, events);
		}
	} else {
		for (size_t i = 0; i < 4; i++)
			rc |= bench_one(def_sizes[i], events);
	}
	return rc ? 1 : 0;
}
