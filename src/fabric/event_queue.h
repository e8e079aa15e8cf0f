/* SPDX-License-Identifier: MIT */
/*
 * The one event queue of a simulation: a binary min-heap ordered by
 * (time, sequence number). The sequence number is a counter taken when an
 * event is scheduled, so events due at the same picosecond run in the order
 * they were scheduled and every run is deterministic (as libuv's timers and
 * ROSS's deterministic tie-breaking). Events live in a pool; the heap holds
 * small (time, seq, pointer) entries so sift moves stay cache friendly.
 *
 * Cancellation marks an event; it is reaped when it reaches the top
 * (Redis ae's guard), so cancel is O(1).
 *
 * A run processes events up to a horizon that event handlers may lower
 * while it runs (ibfs__eq_limit): the SimGrid bridge uses it to stop exactly
 * at the time an application may next observe something.
 */
#ifndef IBFS_FABRIC_EVENT_QUEUE_H
#define IBFS_FABRIC_EVENT_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/pool.h"
#include "fabric/time.h"

struct ibfs_event;
typedef void (*ibfs_event_fn)(void *obj, uint64_t arg);

struct ibfs_event {
	ibfs_event_fn fn;
	void *obj;
	uint64_t arg;
	ibfs_time_t time;
	uint64_t seq;
	int cancelled;
};

struct ibfs_heap_entry {
	ibfs_time_t time;
	uint64_t seq;
	struct ibfs_event *ev;
};

struct ibfs_eq {
	ibfs_time_t now;       /* time of the event being run, or last run */
	ibfs_time_t horizon;   /* a run stops after events due at or before */
	uint64_t next_seq;
	uint64_t executed;     /* events run since init */
	struct ibfs_heap_entry *heap;
	size_t size, cap;
	size_t cancelled;      /* cancelled events still in the heap */
	int hole;              /* the root is the running event (internal) */
	struct ibfs_pool pool; /* struct ibfs_event storage */
};

int ibfs__eq_init(struct ibfs_eq *q);
void ibfs__eq_destroy(struct ibfs_eq *q);

/*
 * Schedules fn(obj, arg) at absolute time t (t >= q->now). Returns the event
 * (for cancel) or NULL when memory is exhausted.
 */
struct ibfs_event *ibfs__eq_schedule(struct ibfs_eq *q, ibfs_time_t t,
				     ibfs_event_fn fn, void *obj, uint64_t arg);
/* Schedules at now + delay. */
static inline struct ibfs_event *ibfs__eq_after(struct ibfs_eq *q,
						ibfs_time_t delay,
						ibfs_event_fn fn, void *obj,
						uint64_t arg)
{
	return ibfs__eq_schedule(q, q->now + delay, fn, obj, arg);
}
/* Marks ev so that it never runs. ev must not have run yet. */
void ibfs__eq_cancel(struct ibfs_eq *q, struct ibfs_event *ev);

/* Time of the earliest live event, IBFS_TIME_NEVER when none. */
ibfs_time_t ibfs__eq_next_time(struct ibfs_eq *q);
/* Number of live (not cancelled) events. */
static inline size_t ibfs__eq_size(const struct ibfs_eq *q)
{
	return q->size - q->cancelled;
}

/* Lowers the horizon of the run in progress (never raises it). */
static inline void ibfs__eq_limit(struct ibfs_eq *q, ibfs_time_t t)
{
	if (t < q->horizon)
		q->horizon = t;
}

/*
 * Runs every event due at or before `horizon` (which handlers may lower with
 * ibfs__eq_limit), in (time, seq) order; sets q->now to each event's time.
 * Afterwards q->now is the time of the last event run (unchanged if none).
 * Returns the number of events run.
 */
uint64_t ibfs__eq_run(struct ibfs_eq *q, ibfs_time_t horizon);

/* Removes and returns the next live event without running it (tests). */
struct ibfs_event *ibfs__eq_pop(struct ibfs_eq *q);
void ibfs__eq_release(struct ibfs_eq *q, struct ibfs_event *ev);

#endif
