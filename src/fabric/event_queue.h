/* SPDX-License-Identifier: MIT */
/*
 * The one event queue of a simulation, ordered by (time, sequence number).
 * The sequence number is a counter taken when an event is scheduled, so
 * events due at the same picosecond run in the order they were scheduled
 * and every run is deterministic (as libuv's timers and ROSS's
 * deterministic tie-breaking). Events live in a pool.
 *
 * The structure is a calendar queue (R. Brown, "Calendar queues", CACM
 * 31(10), 1988): an array of buckets, each a list sorted by (time, seq),
 * holding the events of every "day" (bucket width) that maps to it. With
 * the width near the mean gap between the earliest events, schedule and
 * dequeue are O(1) on average; the array doubles or halves as the queue
 * grows or shrinks, and the width is re-estimated then, whenever the
 * measured work per operation grows, and when many schedules land before
 * a tail due the same day (event_queue.c). A bitmap of non-empty
 * buckets lets dequeue skip 64 empty days a word, and events due beyond
 * the calendar's year (ACK timeouts, monitors) wait in a binary heap until
 * the year reaches them, as the far rungs of a ladder queue (Tang et al.,
 * 2005) do.
 *
 * Cancellation marks an event; it is reaped when it comes due (Redis ae's
 * guard), so cancel is O(1).
 *
 * A run processes events up to a horizon that event handlers may lower
 * while it runs (ibfs__eq_limit): the SimGrid bridge uses it to stop exactly
 * at the time an application may next observe something.
 */
#ifndef IBFS_FABRIC_EVENT_QUEUE_H
#define IBFS_FABRIC_EVENT_QUEUE_H

#include <assert.h>
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
	struct ibfs_event *next; /* in its bucket (internal) */
	int cancelled;
	int far;                 /* in the far heap (internal) */
	/*
	 * What the handler reads first, fetched while the event before it
	 * runs (eq_take): obj, unless the scheduler named another line
	 * (ibfs__eq_schedule_pf). Never dereferenced.
	 */
	const void *pf;
};
/* One line: the pool gives each event a 64-byte slot of its own. */
_Static_assert(sizeof(struct ibfs_event) == 64, "struct ibfs_event: 64 bytes");

/*
 * One day of the calendar: a list sorted by (time, seq). It is empty when
 * head is NULL; tail is then left as it was (stale), and only read when
 * head is not NULL.
 *
 * A day is a list, not an array of slots: the number of events in a day
 * varies widely, and slots enough would no longer keep the calendar's
 * days between now and the farthest event in the caches.
 */
struct ibfs_eq_bucket {
	struct ibfs_event *head, *tail;
};
/* log2 of its size, for ibfs__eq_schedule's offset arithmetic. */
#define EQ_BUCKET_LOG 4
_Static_assert(sizeof(struct ibfs_eq_bucket) == 1 << EQ_BUCKET_LOG,
	       "struct ibfs_eq_bucket is 16 bytes");
/*
 * The run loop's next day when none is known (struct ibfs_eq's ahead): its
 * head is an event that links to nothing and names itself as the lines to
 * fetch, so that the look-ahead neither tests for NULL nor prefetches it.
 */
extern const struct ibfs_eq_bucket ibfs__eq_no_day;

struct ibfs_eq {
	ibfs_time_t now;       /* time of the event being run, or last run */
	ibfs_time_t horizon;   /* a run stops after events due at or before */
	ibfs_time_t limit;     /* the earlier of horizon and day_last */
	uint64_t next_seq;
	uint64_t executed;     /* events run since init */
	/* Events taken out or freed: next_seq - out are held, cancelled
	 * ones included (ibfs__eq_held), so a schedule counts nothing. */
	uint64_t out;
	size_t cancelled;      /* cancelled events still held */
	struct ibfs_pool pool; /* struct ibfs_event storage (take/give) */
	/* The calendar (internal to event_queue.c). */
	/*
	 * nbuckets, then one more, always empty and read by nothing (the
	 * look-ahead takes its next day from q->ahead); kept so that the
	 * calendar's allocation sizes, and the heap layout that follows
	 * from them, do not change.
	 */
	struct ibfs_eq_bucket *buckets;
	size_t nbuckets;       /* a power of two */
	/* A bucket's byte offset: rotl(t, rot) & bmask (eq_set_span). */
	uint64_t bmask;
	unsigned rot;
	unsigned shift;        /* bucket width is 2^shift ps */
	uint64_t cur;          /* current day: time >> shift */
	struct ibfs_eq_bucket *cur_b; /* its bucket */
	ibfs_time_t day_last;  /* its last picosecond */
	ibfs_time_t cur_start; /* its first picosecond */
	uint64_t year_last;    /* due within the year: t - cur_start <= this */
	uint64_t year_span;    /* nbuckets days in ps, less 1 (saturated) */
	uint64_t steps;        /* work done, this window */
	uint64_t popped;       /* events taken by ibfs__eq_pop */
	/* executed + popped at which the window ends (eq_account) */
	uint64_t window_at;
	uint64_t window;       /* events taken between two checks of the work */
	size_t crowded;        /* a bucket found overfull, or SIZE_MAX */
	/* A schedule that fills an empty bucket or takes a slow path and
	 * leaves more held than this checks for a rebuild: 0 while a bucket
	 * is crowded, else 2 * nbuckets + far_cancelled. */
	size_t check_at;
	/*
	 * eq_take's guess at the next day with events: the bucket of the
	 * first day after cur marked in the bitmap word that eq_peek_day
	 * read when it moved cur there, else (none in that word, or any
	 * other move of cur) ibfs__eq_no_day (eq_set_cur). A marked bucket
	 * ahead of cur keeps its events until cur reaches it, so its head is
	 * never NULL; a schedule that fills a day between only makes the
	 * guess wrong.
	 */
	const struct ibfs_eq_bucket *ahead;
	uint64_t crowd_ok_at;  /* next_seq before which no crowd rebuild */
	uint64_t resizes;      /* rebuilds so far (statistics, tests) */
	uint64_t crowd_skips;  /* crowded buckets left as they were (tests) */
	/* Bit i set: bucket i is not empty, or is the current day's, left
	 * empty by its last event taken (eq_unlink_head clears no bit). */
	uint64_t *bits;
	/* Per bucket, the event last put before its tail, or NULL: a sorted
	 * insert that is not earlier starts there if it is still in that
	 * bucket (a take leaves it; eq_cal_insert checks). Apart from the
	 * buckets, which appends and dequeues touch without it: a bucket
	 * stays 16 bytes, four to a line. */
	struct ibfs_event **hints;
	/* Events due on a day at or past cur + nbuckets: a binary heap by
	 * (time, seq), and how many of them are cancelled. */
	struct ibfs_event **far;
	size_t far_n, far_cap, far_cancelled;
	uint64_t moved;        /* far events come due, this window */
	/* Schedules before a tail due the same day, and eq_take's slow
	 * paths (changes of day, mostly), this window: 32 bits, as a
	 * window is about q->window <= EQ_WINDOW_MAX events taken (it ends
	 * on a slow path, so may run longer, and schedules are not bounded
	 * by takes: a count that wraps only misleads the sorted rule once).
	 * Two 32-bit counts keep the structure's size, and the heap layout
	 * after it, unchanged. */
	uint32_t sorted;
	uint32_t days;
	uint64_t far_moves;    /* far events come due, ever (statistics) */
	/*
	 * 1 once the run ran out of memory: a schedule found no event to
	 * take and the pool could not grow, or the fabric could not get a
	 * packet (ibfs__fabric_nomem). The run stops at that time and no
	 * later run goes on (ibfs__eq_run): a model that lost an event or a
	 * packet is no longer the model, so it reports instead of going on.
	 */
	int nomem;
};

int ibfs__eq_init(struct ibfs_eq *q);
void ibfs__eq_destroy(struct ibfs_eq *q);

/* ibfs__eq_schedule's paths out of line (event_queue.c): outside the
 * year (the far heap, or the current day moved back); before its bucket's
 * tail (a sorted insert); the pool grown; the check for a rebuild. */
struct ibfs_event *ibfs__eq_schedule_file(struct ibfs_eq *q,
					  struct ibfs_event *ev);
struct ibfs_event *ibfs__eq_schedule_sorted(struct ibfs_eq *q,
					    struct ibfs_event *ev,
					    struct ibfs_eq_bucket *b);
struct ibfs_event *ibfs__eq_schedule_grow(struct ibfs_eq *q, ibfs_time_t t,
					  ibfs_event_fn fn, void *obj,
					  uint64_t arg, const void *pf);
struct ibfs_event *ibfs__eq_schedule_check(struct ibfs_eq *q,
					   struct ibfs_event *ev);

/*
 * Schedules fn(obj, arg) at absolute time t (t >= q->now). Returns the event
 * (for cancel) or NULL when memory is exhausted. The run loop fetches pf's
 * line, and obj's, while the event before this one runs (eq_take in
 * event_queue.c): pf names the line the handler reads first besides obj's
 * (a packet in arg, another line of obj), or is obj. Only prefetched, so a
 * wrong or stale pf costs time, never a result.
 *
 * Inline (forced: GCC otherwise makes a local out-of-line copy in each
 * caller's file): the common case, an event due within the calendar's year
 * and not before its day's tail, is appended there in a few dozen
 * instructions, to which a call would add a few more (a fabric schedules
 * about one event for each event it runs). Everything else is a tail
 * call: an event outside the year (ibfs__eq_schedule_file) or before the
 * tail (ibfs__eq_schedule_sorted), an empty pool, and, when ev fills an
 * empty bucket, the check for a rebuild (see eq_schedule_check in
 * event_queue.c for why an append to a bucket in use skips it).
 */
static inline __attribute__((always_inline)) struct ibfs_event *
ibfs__eq_schedule_pf(struct ibfs_eq *q, ibfs_time_t t, ibfs_event_fn fn,
		     void *obj, uint64_t arg, const void *pf)
{
	/* Scheduling into the past is a bug in the calling model. */
	assert(t >= q->now);
	struct ibfs_event *ev = ibfs__pool_take(&q->pool);

	if (__builtin_expect(!ev, 0))
		return ibfs__eq_schedule_grow(q, t, fn, obj, arg, pf);
	ev->fn = fn;
	ev->obj = obj;
	ev->arg = arg;
	ev->pf = pf;
	ev->time = t;
	ev->seq = q->next_seq++;
	ev->cancelled = 0; /* EQ_LIVE (event_queue_int.h) */
	ev->far = 0;

	/* Before the current day or a year or more past it (one unsigned
	 * comparison of times: a time before the day wraps to a huge
	 * difference). */
	if (__builtin_expect(t - q->cur_start > q->year_last, 0))
		return ibfs__eq_schedule_file(q, ev);
	/* The byte offset of bucket (t >> shift) mod nbuckets. */
	unsigned r = q->rot;
	uint64_t off = (t << r | t >> (-r & 63)) & q->bmask;
	struct ibfs_eq_bucket *b =
		(struct ibfs_eq_bucket *)((char *)q->buckets + off);
	struct ibfs_event *tail = b->tail; /* stale when head is NULL */

	if (b->head) {
		/*
		 * ev has the largest sequence number held: at the tail's time
		 * it goes after the tail, so the time alone decides. Reading
		 * tail->time costs no line the append does not write anyway
		 * (tail->next).
		 */
		if (__builtin_expect(t < tail->time, 0))
			return ibfs__eq_schedule_sorted(q, ev, b);
		ev->next = NULL;
		tail->next = ev;
		b->tail = ev;
		return ev;
	}
	/*
	 * Fill or append goes either way at random at saturation; a form
	 * without the branch costs more instructions than it saves.
	 */
	ev->next = NULL;
	b->head = ev;
	b->tail = ev;
	size_t i = (size_t)(off >> EQ_BUCKET_LOG);

	q->bits[i / 64] |= 1ULL << (i % 64);
	if (__builtin_expect(q->next_seq - q->out > q->check_at, 0))
		return ibfs__eq_schedule_check(q, ev);
	return ev;
}
/*
 * The event that the next schedule will fill, or NULL when the pool is
 * empty (that schedule grows it), for a caller that keeps the event's
 * address without keeping its own values alive across the schedule
 * (link.c: the end of a transmission, which a buffer freed may switch to
 * another handler).
 */
static inline struct ibfs_event *ibfs__eq_next_event(const struct ibfs_eq *q)
{
	return q->pool.free_list;
}

/*
 * ibfs__eq_schedule for a handler that reads obj first: the run loop
 * fetches obj's line while the event before runs.
 */
static inline __attribute__((always_inline)) struct ibfs_event *
ibfs__eq_schedule(struct ibfs_eq *q, ibfs_time_t t, ibfs_event_fn fn, void *obj,
		  uint64_t arg)
{
	return ibfs__eq_schedule_pf(q, t, fn, obj, arg, obj);
}
/* Schedules at now + delay; a sum past the end of time saturates to
 * IBFS_TIME_NEVER (so delay IBFS_TIME_NEVER means "at the very end"). */
static inline struct ibfs_event *ibfs__eq_after(struct ibfs_eq *q,
						ibfs_time_t delay,
						ibfs_event_fn fn, void *obj,
						uint64_t arg)
{
	ibfs_time_t t = delay > IBFS_TIME_NEVER - q->now ? IBFS_TIME_NEVER
							  : q->now + delay;

	return ibfs__eq_schedule(q, t, fn, obj, arg);
}
/* Marks ev so that it never runs. ev must not have run yet. */
void ibfs__eq_cancel(struct ibfs_eq *q, struct ibfs_event *ev);

/* Time of the earliest live event, IBFS_TIME_NEVER when none. */
ibfs_time_t ibfs__eq_next_time(struct ibfs_eq *q);
/* Number of events held, cancelled ones included. */
static inline size_t ibfs__eq_held(const struct ibfs_eq *q)
{
	return q->next_seq - q->out;
}

/* Number of live (not cancelled) events. */
static inline size_t ibfs__eq_size(const struct ibfs_eq *q)
{
	return ibfs__eq_held(q) - q->cancelled;
}

/* Lowers the horizon of the run in progress (never raises it). */
static inline void ibfs__eq_limit(struct ibfs_eq *q, ibfs_time_t t)
{
	if (t < q->horizon)
		q->horizon = t;
	if (t < q->limit)
		q->limit = t;
}

/*
 * Runs every event due at or before `horizon` (which handlers may lower with
 * ibfs__eq_limit), in (time, seq) order; sets q->now to each event's time.
 * Afterwards q->now is the time of the last event run (unchanged if none).
 * Returns the number of events run; runs nothing once out of memory
 * (nomem).
 */
uint64_t ibfs__eq_run(struct ibfs_eq *q, ibfs_time_t horizon);

/* Removes and returns the next live event without running it (tests). */
struct ibfs_event *ibfs__eq_pop(struct ibfs_eq *q);
void ibfs__eq_release(struct ibfs_eq *q, struct ibfs_event *ev);
/*
 * Events out of the pool: held, running, or popped and not released.
 * O(pool), for tests: the pool's in_use is not kept for events (two
 * read-modify-writes an event on the hot path).
 */
size_t ibfs__eq_events_out(const struct ibfs_eq *q);

#endif
