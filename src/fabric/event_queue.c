/* SPDX-License-Identifier: MIT */
/*
 * The event queue (see event_queue.h): an implicit d-ary min-heap of
 * (time, seq, event) entries ordered by time, then by the sequence number
 * taken at scheduling, so ties run first-scheduled first and runs are
 * deterministic. Events come from a pool and go back to it once they have
 * run or been reaped, so a steady simulation allocates nothing.
 *
 * Costs: schedule and the removal of the earliest event are O(log N); cancel
 * is O(1) (the event is marked and reaped when it reaches the top, as Redis
 * ae does with deleted timers).
 *
 * One more trick serves the common pattern of a handler scheduling the next
 * event (a packet handing over to the next hop, the classic hold model):
 * while a handler runs, its entry stays at the root as a hole. The first
 * event the handler schedules fills the hole and sifts down once, instead
 * of one sift to remove the old top and one to insert the new entry. If the
 * handler schedules nothing, the hole is removed the ordinary way after it
 * returns. Whatever else looks at the heap fills the hole first.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/event_queue.h"

/*
 * Children per node. A 4-ary heap has half the depth of a binary one and its
 * four children share one or two cache lines; bench/bench_queue measured it
 * faster than 2 for 1e3..1e6 pending events (bench/README.md).
 */
#define EQ_ARITY 4
#define EQ_INITIAL_CAP 64
/* Events handed out per pool slab. */
#define EQ_POOL_SLAB 1024

/* Values of struct ibfs_event.cancelled beyond 0 (live) and 1 (cancelled). */
enum {
	EQ_LIVE = 0,
	EQ_CANCELLED = 1,
	EQ_RUNNING = 2, /* its handler is running; cancel is a no-op */
	EQ_DONE = 3,    /* back in the pool */
};

static inline int eq_less(const struct ibfs_heap_entry *a,
			  const struct ibfs_heap_entry *b)
{
	/* Equal times are the rare case: branch on them and let the common
	 * comparison compile to a flag set, with no branch to mispredict. */
	if (__builtin_expect(a->time == b->time, 0))
		return a->seq < b->seq;
	return a->time < b->time;
}

static inline void eq_sift_up(struct ibfs_heap_entry *h, size_t i,
			      struct ibfs_heap_entry e)
{
	while (i > 0) {
		size_t parent = (i - 1) / EQ_ARITY;

		if (!eq_less(&e, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = e;
}

/* The index of the least of the EQ_ARITY children starting at c, all
 * present; written so that the compiler selects with conditional moves
 * rather than branches, which mispredict half the time here. */
static inline size_t eq_min_child(const struct ibfs_heap_entry *h, size_t c)
{
#if EQ_ARITY == 4
	/* A tournament: two independent pairs, then the winners. */
	size_t a = c + eq_less(&h[c + 1], &h[c]);
	size_t b = c + 2 + eq_less(&h[c + 3], &h[c + 2]);

	return eq_less(&h[b], &h[a]) ? b : a;
#else
	size_t best = c;

	for (size_t k = c + 1; k < c + EQ_ARITY; k++)
		best = eq_less(&h[k], &h[best]) ? k : best;
	return best;
#endif
}

/*
 * Places e at index i of the n-entry heap h, where i is a hole, and restores
 * the heap order. Bottom-up, as Floyd's and Wegener's heapsort variants: the
 * hole first descends along the least children to a leaf (one comparison
 * fewer per level, since e is not compared on the way), then e rises from
 * there. A newly scheduled event usually belongs near the bottom, so the
 * rise is short.
 */
static inline void eq_sift_down(struct ibfs_heap_entry *h, size_t n, size_t i,
				struct ibfs_heap_entry e)
{
	size_t start = i;

	for (;;) {
		size_t c = EQ_ARITY * i + 1;
		size_t best;

		if (c + EQ_ARITY <= n) {
			best = eq_min_child(h, c);
		} else if (c < n) {
			best = c;
			for (size_t k = c + 1; k < n; k++)
				if (eq_less(&h[k], &h[best]))
					best = k;
		} else {
			break;
		}
		h[i] = h[best];
		i = best;
	}
	while (i > start) {
		size_t parent = (i - 1) / EQ_ARITY;

		if (!eq_less(&e, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = e;
}

static inline void eq_remove_top(struct ibfs_eq *q)
{
	size_t n = --q->size;

	if (n > 0)
		eq_sift_down(q->heap, n, 0, q->heap[n]);
}

/* Removes the hole left at the root by a running handler, if any. */
static inline void eq_fill_hole(struct ibfs_eq *q)
{
	if (q->hole) {
		q->hole = 0;
		q->cancelled--;
		eq_remove_top(q);
	}
}

/* Reaps cancelled events from the top; returns the top entry or NULL. */
static inline struct ibfs_heap_entry *eq_top(struct ibfs_eq *q)
{
	eq_fill_hole(q);
	while (q->size > 0) {
		struct ibfs_event *ev = q->heap[0].ev;

		if (ev->cancelled != EQ_CANCELLED)
			return &q->heap[0];
		eq_remove_top(q);
		q->cancelled--;
		ibfs__eq_release(q, ev);
	}
	return NULL;
}

int ibfs__eq_init(struct ibfs_eq *q)
{
	memset(q, 0, sizeof(*q));
	q->heap = malloc(EQ_INITIAL_CAP * sizeof(*q->heap));
	if (!q->heap)
		return -1;
	q->cap = EQ_INITIAL_CAP;
	q->horizon = IBFS_TIME_NEVER;
	ibfs__pool_init(&q->pool, sizeof(struct ibfs_event), EQ_POOL_SLAB);
	return 0;
}

void ibfs__eq_destroy(struct ibfs_eq *q)
{
	free(q->heap);
	ibfs__pool_destroy(&q->pool);
	memset(q, 0, sizeof(*q));
}

static int eq_reserve(struct ibfs_eq *q)
{
	if (q->size < q->cap)
		return 0;
	size_t cap = q->cap ? 2 * q->cap : EQ_INITIAL_CAP;
	struct ibfs_heap_entry *h = realloc(q->heap, cap * sizeof(*h));

	if (!h)
		return -1;
	q->heap = h;
	q->cap = cap;
	return 0;
}

struct ibfs_event *ibfs__eq_schedule(struct ibfs_eq *q, ibfs_time_t t,
				     ibfs_event_fn fn, void *obj, uint64_t arg)
{
	/* Scheduling into the past is a bug in the calling model. */
	assert(t >= q->now);
	struct ibfs_event *ev = ibfs__pool_get(&q->pool);

	if (!ev)
		return NULL;
	ev->fn = fn;
	ev->obj = obj;
	ev->arg = arg;
	ev->time = t;
	ev->seq = q->next_seq++;
	ev->cancelled = EQ_LIVE;

	struct ibfs_heap_entry e = { .time = t, .seq = ev->seq, .ev = ev };

	if (q->hole) {
		/* The running handler's root slot takes the new entry. */
		q->hole = 0;
		q->cancelled--;
		eq_sift_down(q->heap, q->size, 0, e);
		return ev;
	}
	if (eq_reserve(q) < 0) {
		ibfs__pool_put(&q->pool, ev);
		return NULL;
	}
	eq_sift_up(q->heap, q->size++, e);
	return ev;
}

void ibfs__eq_cancel(struct ibfs_eq *q, struct ibfs_event *ev)
{
	/* Cancelling twice, or from inside the event's own handler, is a
	 * no-op. */
	if (ev->cancelled != EQ_LIVE)
		return;
	ev->cancelled = EQ_CANCELLED;
	q->cancelled++;
}

ibfs_time_t ibfs__eq_next_time(struct ibfs_eq *q)
{
	struct ibfs_heap_entry *top = eq_top(q);

	return top ? top->time : IBFS_TIME_NEVER;
}

uint64_t ibfs__eq_run(struct ibfs_eq *q, ibfs_time_t horizon)
{
	uint64_t ran = 0;

	eq_fill_hole(q);
	q->horizon = horizon;
	while (q->size > 0) {
		struct ibfs_heap_entry *top = &q->heap[0];
		struct ibfs_event *ev = top->ev;

		if (ev->cancelled == EQ_CANCELLED) {
			eq_remove_top(q);
			q->cancelled--;
			ibfs__eq_release(q, ev);
			continue;
		}
		if (top->time > q->horizon)
			break;
		q->now = top->time;
		/* The root becomes a hole that counts as a dead entry. */
		q->hole = 1;
		q->cancelled++;
		ev->cancelled = EQ_RUNNING;
		ev->fn(ev->obj, ev->arg);
		eq_fill_hole(q);
		ibfs__eq_release(q, ev);
		q->executed++;
		ran++;
	}
	return ran;
}

struct ibfs_event *ibfs__eq_pop(struct ibfs_eq *q)
{
	struct ibfs_heap_entry *top = eq_top(q);

	if (!top)
		return NULL;
	struct ibfs_event *ev = top->ev;

	eq_remove_top(q);
	/* Out of the heap now: a later cancel must not count it. */
	ev->cancelled = EQ_RUNNING;
	return ev;
}

void ibfs__eq_release(struct ibfs_eq *q, struct ibfs_event *ev)
{
	ev->cancelled = EQ_DONE;
	ibfs__pool_put(&q->pool, ev);
}
