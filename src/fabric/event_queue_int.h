/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by the event queue's files: event states, the (time,
 * seq) order, and the far heap (eq_far.c) that event_queue.c uses for
 * events due beyond the calendar's year.
 */
#ifndef IBFS_FABRIC_EVENT_QUEUE_INT_H
#define IBFS_FABRIC_EVENT_QUEUE_INT_H

#include "fabric/event_queue.h"

/* Values of struct ibfs_event.cancelled beyond 0 (live) and 1 (cancelled). */
enum {
	EQ_LIVE = 0,
	EQ_CANCELLED = 1,
	EQ_RUNNING = 2, /* out of the queue: running, popped, or (after
			 * ibfs__eq_run) back in the pool */
	EQ_DONE = 3,    /* back in the pool (released or reaped) */
};

/*
 * Sets the count held above which a schedule that fills an empty bucket
 * calls eq_schedule_check: after nbuckets, far_cancelled or crowded
 * change. One comparison then stands for
 * "held - far_cancelled > 2 * nbuckets, or a bucket is crowded".
 */
static inline void eq_set_check(struct ibfs_eq *q)
{
	q->check_at = q->crowded != SIZE_MAX ? 0
					     : 2 * q->nbuckets + q->far_cancelled;
}

/*
 * Gives ev back to the pool. Internal calls use this rather than the
 * exported ibfs__eq_release, which a -fPIC build may not inline.
 */
static inline void eq_free(struct ibfs_eq *q, struct ibfs_event *ev)
{
	ev->cancelled = EQ_DONE;
	ibfs__pool_give(&q->pool, ev);
}

static inline int eq_less(const struct ibfs_event *a,
			  const struct ibfs_event *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

/*
 * Puts ev into the far heap (sift up); the array grows by doubling.
 * Returns -1, ev untouched, when the array cannot grow.
 */
int ibfs__eq_far_push(struct ibfs_eq *q, struct ibfs_event *ev);
/* Removes and returns the far heap's top (the heap must not be empty). */
struct ibfs_event *ibfs__eq_far_pop(struct ibfs_eq *q);
/* Drops the cancelled events of the far heap and re-heapifies. */
void ibfs__eq_far_clean(struct ibfs_eq *q);

/* eq_day.c: events a crowded bucket's day width is estimated from. */
#define EQ_CROWD_SAMPLE 256
/* Day width (as a shift) from the gaps between n sampled times, in order. */
unsigned ibfs__eq_estimate_shift(const ibfs_time_t *t, size_t n, unsigned old);
/*
 * Day width from the first events of the crowded bucket `bucket`; never
 * wider than the current one.
 */
unsigned ibfs__eq_crowd_shift(const struct ibfs_eq *q, size_t bucket);

#endif
