/* SPDX-License-Identifier: MIT */
/*
 * The progress line of a long run, shown on stderr when it is a terminal
 * (`ibfsim run`, docs/ibfsim.1): simulated time reached, events per
 * second of wall time, and, when the run has a stop time, the share done
 * and an estimate of the wall time left. The line is redrawn in place
 * ("\r", then the text, then the ANSI/ECMA-48 "erase to end of line"
 * sequence ESC [ K) at most every IBFS_PROGRESS_PERIOD seconds of wall
 * time, and erased by ibfs__progress_end, so it never mixes with results.
 *
 * ibfs__progress_tick is cheap enough to call on every event: it counts
 * down and reads the clock once every IBFS_PROGRESS_STRIDE calls.
 * Disabled (not a terminal, --quiet), it does nothing and costs a test.
 */
#ifndef IBFS_FABRIC_PROGRESS_H
#define IBFS_FABRIC_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#include "fabric/time.h"

struct ibfs_fabric;

/* Wall seconds between redraws, and calls between clock readings. */
#define IBFS_PROGRESS_PERIOD 0.5
#define IBFS_PROGRESS_STRIDE 1024

/* A wall clock in seconds (monotonic); replaceable for tests. */
typedef double (*ibfs_progress_clock_fn)(void *ctx);

/* Fields are private to progress.c; visible for the inline tick. */
struct ibfs_progress {
	uint32_t countdown;  /* calls left until the clock is read */
	int enabled;
	FILE *err;
	ibfs_time_t stop_at; /* IBFS_TIME_NEVER: no estimate */
	ibfs_progress_clock_fn clock;
	void *clock_ctx;
	double t_start, t_last;
	uint64_t ev_last;
	int drawn;           /* a line is on the terminal */
	uint64_t draws;
	char line[160];      /* the text last drawn */
	void *obs;           /* the observer of ibfs__progress_observe */
};

/*
 * A progress line on `err`, shown only when `enabled` (the caller decides:
 * typically isatty(fileno(err)) && !quiet). stop_at is the simulated time
 * at which the run stops, IBFS_TIME_NEVER when unknown. NULL on ENOMEM.
 */
struct ibfs_progress *ibfs__progress_new(FILE *err, int enabled,
					 ibfs_time_t stop_at);
/* Replaces the wall clock (tests); also restarts the elapsed time. */
void ibfs__progress_set_clock(struct ibfs_progress *p,
			      ibfs_progress_clock_fn clock, void *ctx);
/* Reads the clock and redraws if IBFS_PROGRESS_PERIOD has passed. */
void ibfs__progress_poll(struct ibfs_progress *p, ibfs_time_t sim_now,
			 uint64_t events);

/* The run reached sim_now after `events` events (p may be NULL). */
static inline void ibfs__progress_tick(struct ibfs_progress *p,
				       ibfs_time_t sim_now, uint64_t events)
{
	if (p && p->enabled && --p->countdown == 0)
		ibfs__progress_poll(p, sim_now, events);
}

/*
 * Ticks p from the fabric's packet transmissions (an observer calling
 * ibfs__progress_tick with the event queue's time and executed count), so
 * a runner needs no call in its loop. Does nothing when p is disabled.
 * Returns 0, or -1 when out of memory.
 */
int ibfs__progress_observe(struct ibfs_progress *p, struct ibfs_fabric *f);
/*
 * Erases the line if one is shown, detaches the observer from the fabric
 * given to ibfs__progress_observe (still alive) and frees p (NULL is fine).
 */
void ibfs__progress_end(struct ibfs_progress *p);
/* Redraws done so far and the last text drawn (tests). */
uint64_t ibfs__progress_draws(const struct ibfs_progress *p);
const char *ibfs__progress_text(const struct ibfs_progress *p);

#endif
