/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by the event queue's files: the calendar's constants,
 * event states, the (time, seq) order, filing an event into its bucket,
 * the rebuilds (eq_resize.c) and the far heap (eq_far.c) that
 * event_queue.c uses for events due beyond the calendar's year.
 */
#ifndef IBFS_FABRIC_EVENT_QUEUE_INT_H
#define IBFS_FABRIC_EVENT_QUEUE_INT_H

#include <assert.h>

#include "fabric/event_queue.h"

#define EQ_MIN_BUCKETS 16
/*
 * The first day: 2^16 ps, about 66 ns. Growth only ever narrows the day,
 * so it starts wide.
 */
#define EQ_INITIAL_SHIFT 16
/* Events handed out per pool slab. */
#define EQ_POOL_SLAB 1024
/* Earliest events sampled to estimate the day (Brown used 25). */
#define EQ_SAMPLE 25
/* Average steps (list nodes walked by inserts plus empty days skipped)
 * per event taken out, above which the width is re-estimated. */
#define EQ_STEP_LIMIT 6
#define EQ_WINDOW_MIN 4096
#define EQ_WINDOW_MAX (1ULL << 30)
/*
 * Over a window, more than one schedule in EQ_SORTED_SHARE before a tail
 * due the same day, with more than EQ_SORTED_DAY events taken a day and
 * at most EQ_SORTED_BUCKETS buckets (256 KiB), narrows the day if the
 * earliest events' gaps call for it (eq_resize.c). One in 5: with a laxer
 * share a saturated fabric keeps a day on which sorted inserts dominate.
 */
#define EQ_SORTED_SHARE 5
#define EQ_SORTED_DAY 4
#define EQ_SORTED_BUCKETS 16384
/* An insert that walks this many nodes marks its bucket as crowded. */
#define EQ_WALK_LIMIT 64
/* Buckets a held event that a long year may take (see eq_window_end). */
#define EQ_SPARE 4
/* The far heap is cleaned of cancelled events only from this size on. */
#define EQ_FAR_CLEAN_MIN 32


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

/*
 * Moves the current day to `day`, with the two values the run loop reads
 * instead of recomputing them an event: its bucket and its last picosecond
 * (day << shift cannot overflow, day being a time shifted right). The
 * look-ahead's next day is unknown here (eq_peek_day, which has the
 * bitmap word at hand, sets it after).
 */
static inline void eq_set_cur(struct ibfs_eq *q, uint64_t day)
{
	q->cur = day;
	q->cur_b = &q->buckets[day & (q->nbuckets - 1)];
	q->ahead = &ibfs__eq_no_day;
	q->day_last = day << q->shift | ((1ULL << q->shift) - 1);
	q->limit = q->day_last < q->horizon ? q->day_last : q->horizon;
	/*
	 * The year in picoseconds, for ibfs__eq_schedule's range test: t is
	 * due within it when t - cur_start <= year_last. When nbuckets days
	 * reach past the end of time, every t from cur_start on is, and a t
	 * before cur_start still is not: its difference wraps above
	 * UINT64_MAX - cur_start.
	 */
	q->cur_start = day << q->shift;
	q->year_last = q->year_span < ~q->cur_start ? q->year_span
						    : ~q->cur_start;
}

/*
 * After nbuckets or shift changed (before eq_set_cur): the year's length
 * in picoseconds, less one, or UINT64_MAX when it reaches past the end of
 * time; and what ibfs__eq_schedule computes a bucket's byte offset with.
 * Days are kept narrow enough that the year's bits fit in a time (shift +
 * log2 nbuckets <= 64: days of 2^60 ps, 13 simulated days, and wider are
 * never needed), so that one rotate does it: rotating t left by 4 - shift
 * (mod 64) puts bits shift and up of t at bit 4 (log2 of the 16-byte
 * bucket) and up, and whatever wraps around lands below bit 4 or above
 * bit 4 + log2 nbuckets, outside the mask.
 */
static inline void eq_set_span(struct ibfs_eq *q)
{
	unsigned lg = (unsigned)__builtin_ctzll(q->nbuckets);

	if (q->shift > 64 - lg)
		q->shift = 64 - lg;
	q->year_span = q->nbuckets > UINT64_MAX >> q->shift
			       ? UINT64_MAX
			       : (q->nbuckets << q->shift) - 1;
	q->rot = (EQ_BUCKET_LOG - q->shift) & 63;
	q->bmask = (uint64_t)(q->nbuckets - 1) << EQ_BUCKET_LOG;
}

/* Words of the non-empty bitmap for nb buckets. */
static inline size_t eq_words(size_t nb)
{
	return (nb + 63) / 64;
}

/*
 * The bitmap scan of a year from the current day, 64 days a word: the
 * offset from cur, at or after `off`, of the next day whose bucket is
 * marked, or an offset at or past nbuckets when none is (the caller stops
 * there). *words counts the words read (eq_first's work, eq_account).
 */
static inline uint64_t eq_next_marked(const struct ibfs_eq *q, uint64_t off,
				      uint64_t *words)
{
	size_t mask = q->nbuckets - 1;
	size_t start = q->cur & mask;
	/* Buckets a word covers: 64, or all of them below 64. */
	size_t span = q->nbuckets < 64 ? q->nbuckets : 64;

	while (off < q->nbuckets) {
		size_t i = (start + off) & mask;
		uint64_t word = q->bits[i / 64] >> (i % 64);

		(*words)++;
		if (word)
			return off + (uint64_t)__builtin_ctzll(word);
		off += span - i % 64;
	}
	return off;
}

/*
 * Whether ev, a hint, is still in bucket i. Takes leave hints as they are
 * (clearing them cost the run loop a load and a test an event), so a hint
 * may have run and even come back from the pool since. A held event of the
 * calendar (live or cancelled, not far) is in the bucket of its day; one
 * taken out is EQ_RUNNING or EQ_DONE until it is scheduled again. The
 * caller also rules out the event it is inserting, live but not yet linked.
 */
static inline int eq_in_bucket(const struct ibfs_eq *q,
			       const struct ibfs_event *ev, size_t i)
{
	return ev->cancelled <= EQ_CANCELLED && !ev->far &&
	       ((ev->time >> q->shift) & (q->nbuckets - 1)) == i;
}

/*
 * The end of a sorted insert into bucket i: ev goes right after p, found
 * `walked` steps from where the walk started; ev becomes the bucket's hint,
 * and a long walk marks the bucket crowded (a rebuild may follow).
 */
static inline void eq_link_after(struct ibfs_eq *q, size_t i,
				 struct ibfs_event *p, struct ibfs_event *ev,
				 uint64_t walked)
{
	ev->next = p->next;
	p->next = ev;
	q->hints[i] = ev;
	q->steps += walked;
	if (walked > EQ_WALK_LIMIT) {
		q->crowded = i;
		eq_set_check(q);
	}
}

/* Links ev into bucket `day` mod nbuckets, keeping the list sorted. */
static inline void eq_cal_insert(struct ibfs_eq *q, struct ibfs_event *ev,
				 uint64_t day)
{
	size_t i = day & (q->nbuckets - 1);
	struct ibfs_eq_bucket *b = &q->buckets[i];

	ev->next = NULL;
	ev->far = 0;
	if (!b->head) {
		b->head = b->tail = ev;
		q->bits[i / 64] |= 1ULL << (i % 64);
		return;
	}
	if (!eq_less(ev, b->tail)) {
		b->tail->next = ev;
		b->tail = ev;
		return;
	}
	if (eq_less(ev, b->head)) {
		ev->next = b->head;
		b->head = ev;
		q->hints[i] = ev;
		return;
	}
	/*
	 * head <= ev < tail: find p with p <= ev < p->next, from the last
	 * event put before the tail when that is not after ev. Equal times
	 * come in sequence order, so an event due with the previous one put
	 * here goes right after it instead of after every earlier tie.
	 */
	struct ibfs_event *p = q->hints[i];

	if (!p || !eq_in_bucket(q, p, i) || p == ev || eq_less(ev, p))
		p = b->head;
	uint64_t walked = 0;

	while (!eq_less(ev, p->next)) {
		p = p->next;
		walked++;
	}
	eq_link_after(q, i, p, ev, walked);
}

/*
 * Clears the current day's bit if its bucket is empty: afterwards every
 * bit set is a bucket with events (before the current day moves, and
 * before the bitmap is read from it). Returns the bit's word, cleared.
 */
static inline uint64_t eq_cur_settle(struct ibfs_eq *q)
{
	size_t i = (size_t)(q->cur_b - q->buckets);
	uint64_t *w = &q->bits[i / 64];
	uint64_t m = (uint64_t)(q->cur_b->head == NULL) << (i % 64);

	*w &= ~m;
	return *w;
}

/* Files ev in its bucket, or in the far heap when due a year or more past
 * the current day; no resizing. */
static inline void eq_insert(struct ibfs_eq *q, struct ibfs_event *ev)
{
	uint64_t day = ev->time >> q->shift;

	/* An event due before the current day (now was moved by hand, or a
	 * peek ran ahead): the calendar restarts from its day. The far heap's
	 * events stay at least a year past it. */
	if (day < q->cur) {
		eq_cur_settle(q);
		eq_set_cur(q, day);
	}
	/*
	 * Should the heap be unable to grow, the event goes to its bucket
	 * anyway: a bucket may hold events of later years (eq_first checks
	 * each head's day), it only costs the walk more.
	 */
	if (day - q->cur >= q->nbuckets && ibfs__eq_far_push(q, ev) == 0)
		return;
	eq_cal_insert(q, ev, day);
}

/*
 * Unlinks the head of the current day's bucket (which must be ev). Whether
 * that empties the bucket goes either way at random in a busy fabric (a
 * day holds a few events), so nothing here depends on it: the tail stays
 * as it is (read only while head is set), and so does the bucket's bit,
 * which whoever leaves the current day or walks the bitmap from it clears
 * first (eq_cur_settle).
 */
static inline void eq_unlink_head(struct ibfs_eq *q, struct ibfs_event *ev)
{
	assert(q->cur_b->head == ev);
	q->cur_b->head = ev->next;
	q->out++;
}

/* eq_resize.c: how a rebuild chooses the new day. */
enum eq_fit {
	EQ_FIT_FRONT,  /* from the earliest events, wider or narrower */
	EQ_FIT_NARROW, /* from the earliest events, but never wider */
	EQ_FIT_CROWD,  /* from the crowded bucket, never wider */
	EQ_FIT_WIDER,  /* twice the current day */
	EQ_FIT_KEEP,   /* the current day */
};
/*
 * Rebuilds the calendar with nb buckets and a day chosen by `fit` (for
 * EQ_FIT_CROWD, from bucket q->crowded); every event, far ones included,
 * is filed again. Keeps the old calendar when memory is short.
 */
void ibfs__eq_rebuild(struct ibfs_eq *q, size_t nb, enum eq_fit fit);
/* Rebuilds around the crowded bucket when its gaps call for a narrower
 * day; else only counts the skip. */
void ibfs__eq_crowd_rebuild(struct ibfs_eq *q);
/* The end of a window of events taken: halves, lengthens or re-estimates
 * the calendar as its rules say (eq_resize.c). */
void ibfs__eq_window_end(struct ibfs_eq *q);
/* The earliest held event, cancelled or not, or NULL (event_queue.c). */
struct ibfs_event *ibfs__eq_first(struct ibfs_eq *q);

#endif
