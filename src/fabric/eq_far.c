/* SPDX-License-Identifier: MIT */
/*
 * The event queue's far heap: events due a calendar year or more ahead
 * (ACK timeouts of milliseconds, monitors) wait in a binary min-heap
 * ordered by (time, seq) instead of crowding the calendar's buckets; the
 * calendar moves them in as its range reaches them (event_queue.c).
 * Cancelled ones stay until they are half the heap, then are dropped in
 * one O(n) pass (Floyd's heap construction), so cancel stays O(1)
 * amortised. These paths are rare and kept out of line.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fabric/event_queue_int.h"

/*
 * Puts ev into the far heap (sift up); the array grows by doubling.
 * Returns -1, ev untouched, when the array cannot grow.
 */
int ibfs__eq_far_push(struct ibfs_eq *q, struct ibfs_event *ev)
{
	if (q->far_n == q->far_cap) {
		size_t cap = q->far_cap ? 2 * q->far_cap : 64;
		struct ibfs_event **a = cap <= SIZE_MAX / sizeof(*a)
						? realloc(q->far,
							  cap * sizeof(*a))
						: NULL;

		if (!a)
			return -1;
		q->far = a;
		q->far_cap = cap;
	}
	ev->far = 1;
	if (ev->cancelled == EQ_CANCELLED) {
		q->far_cancelled++;
		eq_set_check(q);
	}
	size_t i = q->far_n++;

	while (i > 0) {
		size_t up = (i - 1) / 2;

		if (!eq_less(ev, q->far[up]))
			break;
		q->far[i] = q->far[up];
		i = up;
	}
	q->far[i] = ev;
	return 0;
}

/* Moves the element at i down to its place among its children. */
static void far_sift_down(struct ibfs_eq *q, size_t i)
{
	struct ibfs_event *ev = q->far[i];
	size_t n = q->far_n;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && eq_less(q->far[c + 1], q->far[c]))
			c++;
		if (!eq_less(q->far[c], ev))
			break;
		q->far[i] = q->far[c];
		i = c;
	}
	q->far[i] = ev;
}

/* Removes and returns the far heap's top (the heap must not be empty). */
struct ibfs_event *ibfs__eq_far_pop(struct ibfs_eq *q)
{
	struct ibfs_event *top = q->far[0];

	q->far_n--;
	if (q->far_n) {
		q->far[0] = q->far[q->far_n];
		far_sift_down(q, 0);
	}
	top->far = 0;
	if (top->cancelled == EQ_CANCELLED) {
		q->far_cancelled--;
		eq_set_check(q);
	}
	return top;
}

/* Drops the cancelled events of the far heap and re-heapifies (Floyd). */
void ibfs__eq_far_clean(struct ibfs_eq *q)
{
	size_t n = 0;

	for (size_t i = 0; i < q->far_n; i++) {
		struct ibfs_event *ev = q->far[i];

		if (ev->cancelled == EQ_CANCELLED) {
			q->out++;
			q->cancelled--;
			eq_free(q, ev);
		} else {
			q->far[n++] = ev;
		}
	}
	q->far_n = n;
	q->far_cancelled = 0;
	eq_set_check(q);
	for (size_t i = n / 2; i-- > 0;)
		far_sift_down(q, i);
}

