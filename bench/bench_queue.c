/* SPDX-License-Identifier: MIT */
/*
 * Benchmark of the bare event queue with the classic hold model (Jones,
 * "An empirical comparison of priority-queue and event-set
 * implementations", CACM 1986): N events are pending; each one that runs
 * schedules one more at now + a random increment, so the queue holds N
 * events throughout. It goes through the real engine path (ibfs__eq_run
 * calling a handler that calls ibfs__eq_after), events from the pool.
 *
 * A second workload, "mix", has the event mix of a fabric run: 2,600
 * events pending that each schedule the next 0.5-165 ns ahead, for one
 * of 64 queue pairs; one event in four cancels its QP's ACK timer and
 * arms it again 67.108864 ms ahead (IBA 9.7.6.1.3, 4.096 us x 2^14), so
 * the queue also holds timers far beyond the near events, most of them
 * cancelled; and a monitor runs every 50 us.
 *
 * Usage: bench_queue [EVENTS_PER_SIZE [N ... | mix]]
 * Defaults: 2e7 events for each N in 1e3, 1e4, 1e5, 1e6, then the mix.
 * Prints one line per workload with events per second of the thread's CPU
 * time
 * (CLOCK_THREAD_CPUTIME_ID), which counts only the time the benchmark ran
 * on a core, so a machine shared with other jobs still gives a fair
 * figure; the wall time (CLOCK_MONOTONIC) is printed beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The fabric-like mix (see the top of the file). */
enum { MIX_NEAR = 2600, MIX_QPS = 64 };
#define MIX_ACK_TIMEOUT (4096ULL * IBFS_NS * 16384)
#define MIX_MONITOR (50 * IBFS_US)

struct mix {
	struct ibfs_eq q;
	struct ibfs_rng rng;
	uint64_t left;
	struct ibfs_event *timer[MIX_QPS];
	uint64_t armed;
};

static void mix_timer(void *obj, uint64_t qp)
{
	struct mix *m = obj;

	m->timer[qp] = NULL;
}

static void mix_monitor(void *obj, uint64_t arg)
{
	struct mix *m = obj;

	ibfs__eq_after(&m->q, MIX_MONITOR, mix_monitor, m, arg);
}

static void mix_near(void *obj, uint64_t qp)
{
	struct mix *m = obj;

	ibfs__eq_after(&m->q, 512 + ibfs__rng_below(&m->rng, 164489),
		       mix_near, m, ibfs__rng_below(&m->rng, MIX_QPS));
	if (ibfs__rng_below(&m->rng, 4) == 0) {
		if (m->timer[qp])
			ibfs__eq_cancel(&m->q, m->timer[qp]);
		m->timer[qp] = ibfs__eq_after(&m->q, MIX_ACK_TIMEOUT,
					      mix_timer, m, qp);
		m->armed++;
	}
	if (--m->left == 0)
		ibfs__eq_limit(&m->q, 0);
}

static int bench_mix(uint64_t events)
{
	struct mix *m = calloc(1, sizeof(*m));

	if (!m || ibfs__eq_init(&m->q) < 0) {
		fprintf(stderr, "bench_queue: out of memory\n");
		free(m);
		return -1;
	}
	ibfs__rng_seed(&m->rng, 1, 1);
	for (uint64_t i = 0; i < MIX_NEAR; i++)
		ibfs__eq_schedule(&m->q, ibfs__rng_below(&m->rng, 165000),
				  mix_near, m, i % MIX_QPS);
	ibfs__eq_schedule(&m->q, MIX_MONITOR, mix_monitor, m, 0);
	/* Warm up: 100 events a QP, so every timer has been re-armed. */
	m->left = 100 * MIX_NEAR;
	ibfs__eq_run(&m->q, IBFS_TIME_NEVER);

	uint64_t grows = m->q.pool.grows, resizes = m->q.resizes;

	m->left = events;
	m->armed = 0;
	double w0 = clock_s(CLOCK_MONOTONIC);
	double t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	uint64_t ran = ibfs__eq_run(&m->q, IBFS_TIME_NEVER);
	double dt = clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
	double wall = clock_s(CLOCK_MONOTONIC) - w0;

	printf("mix  N=%-8u events=%llu cpu=%.3f s wall=%.3f s  "
	       "%.1f M events/s  %.1f ns/event  pool growth: %llu  "
	       "rebuilds: %llu  day: 2^%u ps  timers armed: %llu  "
	       "held: %zu\n",
	       MIX_NEAR, (unsigned long long)ran, dt, wall,
	       (double)ran / dt / 1e6, dt * 1e9 / (double)ran,
	       (unsigned long long)(m->q.pool.grows - grows),
	       (unsigned long long)(m->q.resizes - resizes), m->q.shift,
	       (unsigned long long)m->armed, ibfs__eq_held(&m->q));
	/* Near events run exactly `events` times; monitors run besides. */
	int bad = ran < events;

	ibfs__eq_destroy(&m->q);
	free(m);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t events = 20000000;
	static const uint64_t def_sizes[] = { 1000, 10000, 100000, 1000000 };

	if (argc > 1)
		events = strtoull(argv[1], NULL, 10);
	if (events == 0) {
		fprintf(stderr,
			"usage: bench_queue [EVENTS [N ... | mix]]\n");
		return 2;
	}
	int rc = 0;

	if (argc > 2) {
		for (int i = 2; i < argc; i++) {
			if (strcmp(argv[i], "mix") == 0) {
				rc |= bench_mix(events);
				continue;
			}
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
		rc |= bench_mix(events);
	}
	return rc ? 1 : 0;
}
