/* SPDX-License-Identifier: MIT */
/*
 * The calendar queue's day width (event_queue.c), estimated as Brown
 * proposed (CACM 31(10), 1988): from the gaps between a sample of the
 * times due, either the earliest events when the calendar is rebuilt or the
 * first events of a bucket that has become crowded.
 */
#include "fabric/event_queue_int.h"

/* Day width (as a shift) from the gaps between the sampled times. */
unsigned ibfs__eq_estimate_shift(const ibfs_time_t *t, size_t n, unsigned old)
{
	if (n < 2)
		return old;
	/*
	 * Brown: average the gaps, then average again without the gaps over
	 * twice the first average. Brown takes three times that as the day;
	 * here the day is that average rounded up to a power of two (between
	 * one and two gaps): the sorted insert then rarely walks a list, and
	 * skipping empty days costs little.
	 */
	/*
	 * Zero gaps (ties) are left out: events due at the same picosecond
	 * share a day whatever its width, and counting them would collapse
	 * the day to 1 ps when all of a fabric's senders start together.
	 */
	unsigned __int128 sum = 0;
	size_t nz = 0;

	for (size_t i = 1; i < n; i++)
		if (t[i] != t[i - 1]) {
			sum += t[i] - t[i - 1];
			nz++;
		}
	if (nz == 0)
		return old;
	unsigned __int128 limit = 2 * sum / nz, sum2 = 0;
	size_t k = 0;

	for (size_t i = 1; i < n; i++)
		if (t[i] != t[i - 1] && t[i] - t[i - 1] <= limit) {
			sum2 += t[i] - t[i - 1];
			k++;
		}
	unsigned __int128 width = k ? sum2 / k : 0;
	unsigned shift = 0;

	while (shift < 63 && ((unsigned __int128)1 << shift) < width)
		shift++;
	return shift;
}

/*
 * Day width (as a shift) from the first events of the crowded bucket: one
 * day there holds many events, so the gaps between them show the density
 * that the front sample missed. Returns the old shift if that is no wider.
 */
unsigned ibfs__eq_crowd_shift(const struct ibfs_eq *q, size_t bucket)
{
	ibfs_time_t t[EQ_CROWD_SAMPLE];
	size_t n = 0;

	/*
	 * Distinct times only: events due at the same picosecond share a day
	 * whatever its width, and their zero gaps would collapse the
	 * estimate to 1 ps when a fabric starts with every sender at t = 0.
	 */
	for (const struct ibfs_event *ev = q->buckets[bucket].head;
	     ev && n < EQ_CROWD_SAMPLE; ev = ev->next)
		if (n == 0 || ev->time != t[n - 1])
			t[n++] = ev->time;
	unsigned shift = ibfs__eq_estimate_shift(t, n, q->shift);

	return shift < q->shift ? shift : q->shift;
}
