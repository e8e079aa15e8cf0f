/* SPDX-License-Identifier: MIT */
/*
 * The event queue (see event_queue.h): a calendar queue after R. Brown,
 * "Calendar queues: a fast O(1) priority queue implementation for the
 * simulation event set problem", CACM 31(10), 1988.
 *
 * Time is cut into days of 2^shift ps; day d lives in bucket d mod nbuckets,
 * a singly linked list sorted by (time, seq) that also holds the events of
 * later "years" mapping to it. q->cur is the current day. Invariants: no
 * held event is due on a day before q->cur, and every event of the far heap
 * is due on a day at or past cur + nbuckets, so the head of bucket cur, if
 * it is due on day cur, is the earliest event of all. Dequeue walks the
 * days forward from cur through a bitmap of non-empty buckets (one word
 * covers 64 days; the current day's bit outlives its last event until the
 * day moves: eq_unlink_head, eq_cur_settle); after a whole year without an
 * event due it searches the bucket heads and the heap's top directly
 * (Brown's fallback for sparse calendars).
 *
 * The far heap: an event due a year or more past the current day goes into
 * a binary heap instead of a bucket, where it would be a head not due for
 * a long time. ibfsim's fabrics keep a few thousand events 0.5-165 ns apart
 * plus ACK timers 67 ms ahead (most cancelled long before they are due)
 * and a deadlock monitor every 50 us; in one calendar those far events
 * would make dequeue walk and re-estimate constantly. Whenever
 * the current day moves, the heap's events that fall inside the new year
 * move into their buckets (cancelled ones are freed instead). Cancelled
 * events in the heap are counted; when they are more than half of it, the
 * heap is rebuilt without them (O(heap) once per heap/2 cancels: O(1)
 * amortised a cancel).
 *
 * Insert appends at the tail when the event is not earlier than the tail
 * (the usual case: equal times come with larger sequence numbers), else
 * walks the list, from the bucket's hint (the event last put before the
 * tail) when that is not after it. A fabric whose senders run in lock-step
 * fills a day with runs of equal times; from the head, each event of a run
 * would walk past the run's earlier ones, from the hint past none. A
 * bucket holds one or two events when the day is about the mean gap
 * between the earliest events (Brown used three gaps).
 *
 * The day is re-estimated (eq_day.c) by rebuilding the calendar (O(size)):
 *  - when the bucket count doubles (more than 2 events a bucket) or halves
 *    (fewer than 1/8, checked once a window), from the 25 earliest events,
 *    but only ever narrower: a few sparse early events must not widen the
 *    day over a dense crowd;
 *  - when more than 1/16 of the events taken in a window came out of the
 *    far heap (the year is too short for the bulk of the events): the
 *    bucket count doubles with the same day while it stays within
 *    EQ_SPARE (4) buckets an event, else the day doubles. An empty day
 *    costs a bit in the bitmap; a wide day costs list walks on insert;
 *  - when taking events costs too much (list nodes walked plus bitmap
 *    words scanned above EQ_STEP_LIMIT per event over a window), from the
 *    25 earliest events, wider or narrower, as when the time scale of a
 *    simulation changes. The window doubles after each such rebuild (and
 *    halves back while the work stays low), so a distribution that no width
 *    suits triggers ever rarer rebuilds instead of one every window;
 *  - when more than one schedule in EQ_SORTED_SHARE (5) over a window
 *    lands before a tail due the same day, with more than EQ_SORTED_DAY
 *    (4) events taken a day, on at most EQ_SORTED_BUCKETS (16384)
 *    buckets: from the 25 earliest events, only narrower (eq_resize.c's
 *    eq_front_shift checks first that they call for it), with more
 *    buckets for the same year while within EQ_SPARE an event. Such
 *    inserts walk a node or two, which the rule above counts as cheap,
 *    but whether each is sorted, and how far it walks, is random;
 *  - when an insert walks more than EQ_WALK_LIMIT nodes, from the gaps
 *    inside that crowded bucket, at most once per as many schedules as
 *    events held (crowd_ok_at, ibfs__eq_held), and
 *    only if those gaps give a narrower day (else the rebuild would put
 *    every event back where it was).
 * Without the last rule, 25 events a second apart followed by 200,000
 * within a microsecond put the crowd in one day and made scheduling
 * quadratic (tests/check_event_queue.c, test_crowded_day). Estimates
 * leave ties out: equal times share a day whatever its width.
 *
 * The bucket count follows the events held, less the cancelled ones in the
 * far heap; doubling at 2 an event and halving at 1/8 are far enough apart
 * that it does not thrash. (Counting only the calendar's events would let
 * it shrink as events go far, which shortens the year and sends more far,
 * rebuild after rebuild.)
 *
 * Each event runs once; events come from a pool and go back to it when they
 * have run or been reaped, so a steady simulation allocates nothing (the
 * bucket array and bitmap are reallocated only when the bucket count
 * changes, the heap's array only when it outgrows its largest size yet).
 * Cancel is O(1): the event is marked and reaped when it comes due (Redis
 * ae's guard).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/event_queue.h"

#include "fabric/event_queue_int.h"

static const struct ibfs_event eq_no_event = {
	.obj = (void *)&eq_no_event,
	.pf = &eq_no_event,
};
const struct ibfs_eq_bucket ibfs__eq_no_day = {
	.head = (struct ibfs_event *)&eq_no_event,
};

/*
 * After the current day moved forward: moves the far heap's events due
 * within the new year into their buckets, freeing cancelled ones.
 */
static void eq_far_settle(struct ibfs_eq *q)
{
	while (q->far_n) {
		struct ibfs_event *ev = q->far[0];
		uint64_t day = ev->time >> q->shift;

		assert(day >= q->cur);
		if (day - q->cur >= q->nbuckets)
			break;
		ibfs__eq_far_pop(q);
		if (ev->cancelled == EQ_CANCELLED) {
			q->out++;
			q->cancelled--;
			eq_free(q, ev);
			continue;
		}
		eq_cal_insert(q, ev, day);
		q->moved++;
		q->far_moves++;
	}
}

/*
 * Walks one year of days from cur, 64 a bitmap word. Returns the earliest
 * event due within it (then the head of bucket cur, with cur moved to its
 * day and the far heap settled), or NULL.
 */
static inline struct ibfs_event *eq_first_in_year(struct ibfs_eq *q)
{
	size_t mask = q->nbuckets - 1;
	size_t start = q->cur & mask;
	uint64_t steps = 0;

	if (ibfs__eq_held(q) == q->far_n)
		return NULL;
	for (uint64_t off = eq_next_marked(q, 0, &steps); off < q->nbuckets;
	     off = eq_next_marked(q, off + 1, &steps)) {
		struct ibfs_event *ev = q->buckets[(start + off) & mask].head;
		uint64_t day = q->cur + off;

		if ((ev->time >> q->shift) == day) {
			q->steps += steps;
			eq_set_cur(q, day);
			if (q->far_n)
				eq_far_settle(q);
			return ev;
		}
	}
	q->steps += steps;
	return NULL;
}

/* The earliest bucket head (of any year), or NULL: O(nbuckets / 64). */
static struct ibfs_event *eq_cal_min(struct ibfs_eq *q)
{
	struct ibfs_event *best = NULL;

	if (ibfs__eq_held(q) == q->far_n)
		return NULL;
	for (size_t w = 0; w < eq_words(q->nbuckets); w++) {
		for (uint64_t word = q->bits[w]; word; word &= word - 1) {
			size_t i = w * 64 + (size_t)__builtin_ctzll(word);
			struct ibfs_event *ev = q->buckets[i].head;

			if (!best || eq_less(ev, best))
				best = ev;
		}
	}
	q->steps += eq_words(q->nbuckets);
	return best;
}

/*
 * The earliest held event (cancelled or not), with q->cur moved to its day,
 * or NULL when the queue is empty. It is always the head of bucket cur.
 */
__attribute__((cold, noinline)) static struct ibfs_event *
eq_first_slow(struct ibfs_eq *q)
{
	size_t mask = q->nbuckets - 1;

	for (;;) {
		if (ibfs__eq_held(q) == 0)
			return NULL;
		struct ibfs_event *ev = eq_first_in_year(q);

		if (ev)
			return ev;
		/*
		 * A whole year without an event due (the calendar is empty,
		 * or holds only events of later years after cur was
		 * lowered): take the earliest of the bucket heads and the far
		 * heap's top directly.
		 */
		struct ibfs_event *best = eq_cal_min(q);

		if (q->far_n && (!best || eq_less(q->far[0], best)))
			best = q->far[0];
		eq_set_cur(q, best->time >> q->shift);
		eq_far_settle(q);
		/* If best was a cancelled far event, the settling freed it:
		 * look again. */
		ev = q->buckets[q->cur & mask].head;
		if (ev && (ev->time >> q->shift) == q->cur)
			return ev;
	}
}

static struct ibfs_event *eq_first(struct ibfs_eq *q)
{
	eq_cur_settle(q);
	if (ibfs__eq_held(q) == 0)
		return NULL;
	struct ibfs_event *ev = eq_first_in_year(q);

	return ev ? ev : eq_first_slow(q);
}

struct ibfs_event *ibfs__eq_first(struct ibfs_eq *q)
{
	return eq_first(q);
}

/* The earliest live event, cancelled ones before it reaped; or NULL. */
static struct ibfs_event *eq_peek_slow(struct ibfs_eq *q)
{
	for (;;) {
		struct ibfs_event *ev = eq_first(q);

		if (!ev || ev->cancelled != EQ_CANCELLED)
			return ev;
		eq_unlink_head(q, ev);
		q->cancelled--;
		eq_free(q, ev);
	}
}

/*
 * eq_peek_slow's common case, out of its way: the current day's bucket is
 * empty, the next bucket that is not lies in the same bitmap word, and its
 * head is due on its own day, live, with no far event coming within the
 * new year (nothing to settle). In a busy fabric that is nearly every
 * change of day, and this path takes about half the instructions of the
 * general walk. Anything else goes the general way. Forced inline into
 * eq_take: a queue that changes day nearly every event would pay the call.
 *
 * The word at hand also gives eq_take's look-ahead the next day with
 * events after the new one (q->ahead), or, with none left in this word,
 * none (eq_set_cur's ibfs__eq_no_day).
 */
static inline __attribute__((always_inline)) struct ibfs_event *
eq_peek_day(struct ibfs_eq *q)
{
	struct ibfs_eq_bucket *b = q->cur_b;
	size_t i = (size_t)(b - q->buckets);

	if (b->head)
		return eq_peek_slow(q);
	/* The current day's bit, left set by eq_unlink_head, goes now. */
	uint64_t word = eq_cur_settle(q) >> (i % 64);

	if (!word)
		return eq_peek_slow(q);
	unsigned k = (unsigned)__builtin_ctzll(word);
	struct ibfs_event *ev = b[k].head;
	uint64_t day = q->cur + k;

	if ((ev->time >> q->shift) != day || ev->cancelled == EQ_CANCELLED)
		return eq_peek_slow(q);
	if (q->far_n && (q->far[0]->time >> q->shift) - day < q->nbuckets)
		return eq_peek_slow(q);
	q->steps++; /* the bitmap word, as eq_first_in_year counts it */
	eq_set_cur(q, day);
	uint64_t rest = word >> k >> 1; /* the days after the new one */

	if (rest)
		q->ahead = &b[k + 1 + __builtin_ctzll(rest)];
	return ev;
}

/*
 * Ends the window once q->window events have been taken (run or popped).
 * Called when the current day's bucket has no event due (eq_take's slow
 * path), not for each event: counting down a window an event would cost
 * the run loop two instructions of about thirty. All the work a window
 * measures but the walks of sorted inserts happens there (bitmap words
 * scanned, far events moved in), and a long walk is caught by the crowd
 * rule as it happens; a window may then last longer than q->window
 * events, and eq_window_end divides by the events it did last.
 */
static inline void eq_account(struct ibfs_eq *q)
{
	if (__builtin_expect(q->executed + q->popped >= q->window_at, 0))
		ibfs__eq_window_end(q);
}

int ibfs__eq_init(struct ibfs_eq *q)
{
	memset(q, 0, sizeof(*q));
	q->buckets = calloc(EQ_MIN_BUCKETS + 1, sizeof(*q->buckets));
	q->bits = calloc(eq_words(EQ_MIN_BUCKETS), sizeof(*q->bits));
	q->hints = calloc(EQ_MIN_BUCKETS, sizeof(*q->hints));
	if (!q->buckets || !q->bits || !q->hints) {
		free(q->buckets);
		free(q->bits);
		free(q->hints);
		return -1;
	}
	q->nbuckets = EQ_MIN_BUCKETS;
	q->shift = EQ_INITIAL_SHIFT;
	q->horizon = IBFS_TIME_NEVER;
	eq_set_span(q);
	eq_set_cur(q, 0);
	q->crowded = SIZE_MAX;
	eq_set_check(q);
	q->window = EQ_WINDOW_MIN;
	q->window_at = EQ_WINDOW_MIN;
	ibfs__pool_init(&q->pool, sizeof(struct ibfs_event), EQ_POOL_SLAB);
	return 0;
}

void ibfs__eq_destroy(struct ibfs_eq *q)
{
	free(q->buckets);
	free(q->bits);
	free(q->hints);
	free(q->far);
	ibfs__pool_destroy(&q->pool);
	memset(q, 0, sizeof(*q));
}

/*
 * ibfs__eq_schedule's rare paths (event_queue.h) are tail calls out of
 * line, so that its common case (due this year, not before its day's
 * tail) saves no registers. The check rebuilds when the calendar
 * holds over 2 events a bucket, or an insert walked a long list (then at
 * most once per as many schedules as events held, so the O(held)
 * rebuilds cost O(1) per operation). It runs only when a schedule
 * fills an empty bucket or takes the sorted path, not on an append to a
 * bucket that holds events already (the common case: a busy day holds
 * several events): an append adds no bucket to walk and no list to
 * search, so the growth it would catch can wait for the next new bucket,
 * and a crowded bucket is only ever found on the sorted path.
 */
struct ibfs_event *ibfs__eq_schedule_check(struct ibfs_eq *q,
					   struct ibfs_event *ev)
{
	if (ibfs__eq_held(q) - q->far_cancelled > 2 * q->nbuckets &&
	    q->nbuckets <= SIZE_MAX / 4) {
		ibfs__eq_rebuild(q, 2 * q->nbuckets, EQ_FIT_NARROW);
	} else if (q->crowded != SIZE_MAX) {
		if (q->next_seq >= q->crowd_ok_at) {
			ibfs__eq_crowd_rebuild(q);
			q->crowd_ok_at = q->next_seq + ibfs__eq_held(q);
		}
		q->crowded = SIZE_MAX;
	}
	eq_set_check(q);
	return ev;
}

/* ev, counted as held, is in its place: rebuild if that is due. */
static inline struct ibfs_event *eq_scheduled(struct ibfs_eq *q,
					       struct ibfs_event *ev)
{
	if (__builtin_expect(ibfs__eq_held(q) > q->check_at, 0))
		return ibfs__eq_schedule_check(q, ev);
	return ev;
}

struct ibfs_event *ibfs__eq_schedule_file(struct ibfs_eq *q,
					  struct ibfs_event *ev)
{
	eq_insert(q, ev);
	return eq_scheduled(q, ev);
}

/*
 * eq_cal_insert for a new event that is due before the tail of its bucket
 * b: ev holds the largest sequence number, so it goes after every event
 * due at its time or earlier and before the first one due later; times
 * alone decide (eq_less's second comparison is never needed).
 */
struct ibfs_event *ibfs__eq_schedule_sorted(struct ibfs_eq *q,
					    struct ibfs_event *ev,
					    struct ibfs_eq_bucket *b)
{
	size_t i = (size_t)(b - q->buckets);
	ibfs_time_t t = ev->time;
	struct ibfs_event *p = b->head;

	/*
	 * Counted when the tail is due the same day (eq_resize.c's sorted
	 * rule). A bucket holds one day of the year, so a tail of a later
	 * year, left out here, is there only after the day moved back
	 * (eq_insert) or when the far heap could not grow.
	 */
	q->sorted += ((b->tail->time ^ t) >> q->shift) == 0;

	if (t < p->time) {
		ev->next = p;
		b->head = ev;
		q->hints[i] = ev;
		return eq_scheduled(q, ev);
	}
	/* From the hint when it is still in b, not ev, and not after ev. */
	struct ibfs_event *h = q->hints[i];

	if (h && eq_in_bucket(q, h, i) && h != ev && t >= h->time)
		p = h;
	uint64_t walked = 0;
	struct ibfs_event *n;

	while (t >= (n = p->next)->time) {
		p = n;
		walked++;
	}
	eq_link_after(q, i, p, ev, walked);
	return eq_scheduled(q, ev);
}

struct ibfs_event *ibfs__eq_schedule_grow(struct ibfs_eq *q, ibfs_time_t t,
					  ibfs_event_fn fn, void *obj,
					  uint64_t arg, const void *pf)
{
	if (ibfs__pool_grow(&q->pool) < 0) {
		/* The event is lost: the run ends now (nomem). */
		q->nomem = 1;
		ibfs__eq_limit(q, q->now);
		return NULL;
	}
	return ibfs__eq_schedule_pf(q, t, fn, obj, arg, pf);
}

void ibfs__eq_cancel(struct ibfs_eq *q, struct ibfs_event *ev)
{
	/* Cancelling twice, or an event out of the queue (running, popped),
	 * is a no-op. */
	if (ev->cancelled != EQ_LIVE)
		return;
	ev->cancelled = EQ_CANCELLED;
	q->cancelled++;
	if (ev->far) {
		q->far_cancelled++;
		eq_set_check(q);
		if (q->far_cancelled > q->far_n / 2 &&
		    q->far_n >= EQ_FAR_CLEAN_MIN)
			ibfs__eq_far_clean(q);
	}
}

ibfs_time_t ibfs__eq_next_time(struct ibfs_eq *q)
{
	struct ibfs_event *ev = eq_peek_slow(q);

	return ev ? ev->time : IBFS_TIME_NEVER;
}

/*
 * a, or b when a is 0, without a branch: b & -(a == 0) is b or 0. (For
 * day1 in eq_take, a ternary became a branch: GCC threaded the test into
 * the choices after it.)
 */
static inline uintptr_t eq_or(uintptr_t a, uintptr_t b)
{
	return a | (b & -(uintptr_t)(a == 0));
}

/*
 * Takes the earliest live event out of the queue, in a run only if it is
 * due by the horizon; or returns NULL. Forced inline: it is the run loop's
 * hot path. No held event is due before the current day, so a head due
 * by q->day_last is due today; in a run one comparison with q->limit says
 * it is due today and by the horizon.
 */
static inline __attribute__((always_inline)) struct ibfs_event *
eq_take(struct ibfs_eq *q, int in_run)
{
	struct ibfs_event *ev = q->cur_b->head;

	if (!ev || ev->time > (in_run ? q->limit : q->day_last) ||
	    ev->cancelled == EQ_CANCELLED) {
		q->days++;
		eq_account(q);
		ev = eq_peek_day(q);
		if (!ev || (in_run && ev->time > q->horizon))
			return NULL;
	}
	eq_unlink_head(q, ev);
	ev->cancelled = EQ_RUNNING;
	/*
	 * Fetched ahead, two events deep: in a large fabric the events, and
	 * the ports and packets they run on, have left the caches in the
	 * simulated time since they were scheduled. The next event due is
	 * most likely e1, the next one in this bucket, else the head of the
	 * next day with events (day1, from q->ahead: the next marked day,
	 * not the next bucket, as many changes of day skip empty days); the
	 * one after, e2, is e1's next or day1. e1's line was fetched when
	 * the event before ev was taken, so reading e1->next, obj and pf
	 * here costs little wait: the lines e1's handler reads (obj, pf) and
	 * e2's own are fetched while ev's handler runs. Whether a bucket
	 * ends here is random in a busy fabric, so each choice is a
	 * conditional move, not a branch; q->ahead is never NULL, nor its
	 * head (ibfs__eq_no_day), nor then a choice: no prefetch of NULL.
	 */
	uintptr_t day1 = (uintptr_t)q->ahead->head;
	const struct ibfs_event *e1 =
		(const struct ibfs_event *)eq_or((uintptr_t)ev->next, day1);
	const struct ibfs_event *e2 =
		(const struct ibfs_event *)eq_or((uintptr_t)e1->next, day1);

	__builtin_prefetch(e2);
	__builtin_prefetch(e1->obj);
	__builtin_prefetch(e1->pf);
	if (!in_run)
		q->popped++;
	return ev;
}

uint64_t ibfs__eq_run(struct ibfs_eq *q, ibfs_time_t horizon)
{
	uint64_t before = q->executed;

	if (q->nomem)
		return 0;
	q->horizon = horizon;
	q->limit = q->day_last < horizon ? q->day_last : horizon;
	for (;;) {
		/* Handlers may lower the horizon (and limit): eq_take reads
		 * them each time. */
		struct ibfs_event *ev = eq_take(q, 1);

		if (!ev)
			break;
		q->now = ev->time;
		ev->fn(ev->obj, ev->arg);
		/* Back to the pool as it is, EQ_RUNNING: a cancel of it is
		 * still a no-op, and it is still no hint (eq_in_bucket). */
		ibfs__pool_give(&q->pool, ev);
		q->executed++;
	}
	return q->executed - before;
}

size_t ibfs__eq_events_out(const struct ibfs_eq *q)
{
	return q->pool.capacity - ibfs__pool_free_count(&q->pool);
}

struct ibfs_event *ibfs__eq_pop(struct ibfs_eq *q)
{
	return eq_take(q, 0);
}

void ibfs__eq_release(struct ibfs_eq *q, struct ibfs_event *ev)
{
	eq_free(q, ev);
}
