/* SPDX-License-Identifier: MIT */
/*
 * Rebuilding the calendar queue (event_queue.c): when the bucket count
 * doubles or halves, when the year is too short for the events held, when
 * taking events costs too many steps, and around a crowded bucket. The
 * rules and their reasons are in event_queue.c's opening comment; the day
 * width itself is estimated in eq_day.c. Everything here is rare and cold:
 * out of line, so that the run loop and ibfs__eq_schedule keep no
 * registers for it.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/event_queue_int.h"

/* Rebuilds the calendar (event_queue_int.h). */
__attribute__((cold)) void
ibfs__eq_rebuild(struct ibfs_eq *q, size_t nb, enum eq_fit fit)
{
	struct ibfs_event *sample[EQ_SAMPLE];
	ibfs_time_t times[EQ_SAMPLE];
	size_t ns = 0;

	struct ibfs_eq_bucket *nbk = q->buckets;
	uint64_t *nbits = q->bits;
	struct ibfs_event **nhints = q->hints;

	if (nb != q->nbuckets) {
		nbk = calloc(nb + 1, sizeof(*nbk));
		nbits = calloc(eq_words(nb), sizeof(*nbits));
		nhints = calloc(nb, sizeof(*nhints));
		if (!nbk || !nbits || !nhints) {
			free(nbk);
			free(nbits);
			free(nhints);
			return;
		}
	}
	unsigned crowd_shift = fit == EQ_FIT_CROWD && q->crowded != SIZE_MAX
				       ? ibfs__eq_crowd_shift(q, q->crowded)
				       : q->shift;

	q->crowded = SIZE_MAX;
	/* Take the earliest events out, in order, to sample their gaps. */
	while (ns < EQ_SAMPLE) {
		struct ibfs_event *ev = ibfs__eq_first(q);

		if (!ev)
			break;
		eq_unlink_head(q, ev);
		sample[ns] = ev;
		times[ns] = ev->time;
		ns++;
	}
	/*
	 * Gather the rest of the calendar into one list, each bucket's run
	 * kept ascending so that reinsertion mostly appends at tails.
	 */
	struct ibfs_event *all = NULL, **link = &all;

	for (size_t i = 0; i < q->nbuckets; i++) {
		if (q->buckets[i].head) {
			*link = q->buckets[i].head;
			link = &q->buckets[i].tail->next;
		}
		q->buckets[i].head = q->buckets[i].tail = NULL;
		q->hints[i] = NULL;
	}
	*link = NULL;
	memset(q->bits, 0, eq_words(q->nbuckets) * sizeof(*q->bits));
	if (nbk != q->buckets) {
		free(q->buckets);
		free(q->bits);
		free(q->hints);
		q->buckets = nbk;
		q->bits = nbits;
		q->hints = nhints;
		q->nbuckets = nb;
	}
	unsigned front = ibfs__eq_estimate_shift(times, ns, q->shift);

	if (fit == EQ_FIT_CROWD)
		q->shift = crowd_shift;
	else if (fit == EQ_FIT_WIDER)
		q->shift = q->shift < 63 ? q->shift + 1 : 63;
	else if (fit == EQ_FIT_KEEP)
		;
	else if (fit == EQ_FIT_FRONT || front < q->shift)
		q->shift = front;
	eq_set_span(q);
	eq_set_cur(q, ns ? times[0] >> q->shift
			 : q->far_n ? q->far[0]->time >> q->shift : 0);
	/* Reinsert: the sample first (ascending, so mostly tail appends). */
	for (size_t i = 0; i < ns; i++)
		eq_insert(q, sample[i]);
	while (all) {
		struct ibfs_event *next = all->next;

		eq_insert(q, all);
		all = next;
	}
	/*
	 * Then the far heap's events: each is filed again into the same
	 * array, at an index never above the one being read.
	 */
	size_t nfar = q->far_n;

	q->far_n = 0;
	q->far_cancelled = 0;
	for (size_t i = 0; i < nfar; i++) {
		struct ibfs_event *ev = q->far[i];

		/*
		 * Cancelled ones are freed, as eq_far_settle does. Filed
		 * again, they would stay held until due (ibfs__eq_far_push
		 * counts them again, so the far heap's clean still sees
		 * them, but it runs only at a cancel), and those a longer
		 * year takes in would be walked past in their buckets.
		 */
		if (ev->cancelled == EQ_CANCELLED) {
			q->out++;
			q->cancelled--;
			eq_free(q, ev);
			continue;
		}
		eq_insert(q, ev);
	}
	q->out -= ns;
	q->resizes++;
	eq_set_check(q);
}

/*
 * Rebuilds around the crowded bucket q->crowded when its gaps call for a
 * narrower day. When they do not (the crowd is of equal or near-equal
 * times that no day divides), a rebuild with the same day and bucket count
 * would file every event back where it was: O(size) for nothing, and a
 * large permutation meets such crowds again and again.
 */
__attribute__((cold)) void ibfs__eq_crowd_rebuild(struct ibfs_eq *q)
{
	if (ibfs__eq_crowd_shift(q, q->crowded) < q->shift)
		ibfs__eq_rebuild(q, q->nbuckets, EQ_FIT_CROWD);
	else
		q->crowd_skips++;
}

/*
 * The day the EQ_SAMPLE earliest events, due within the year, call for:
 * the estimate a rebuild from the front makes (ibfs__eq_rebuild), without
 * taking them out; the current one when fewer are due within the year (a
 * rebuild would sample far ones too). O(EQ_SAMPLE) plus the bitmap words
 * between them.
 */
static unsigned eq_front_shift(const struct ibfs_eq *q)
{
	ibfs_time_t t[EQ_SAMPLE];
	size_t n = 0, mask = q->nbuckets - 1;
	size_t start = q->cur & mask;
	uint64_t words = 0;

	for (uint64_t off = eq_next_marked(q, 0, &words);
	     off < q->nbuckets && n < EQ_SAMPLE;
	     off = eq_next_marked(q, off + 1, &words)) {
		uint64_t day = q->cur + off;

		/* The current day's bucket may be empty (eq_unlink_head). */
		for (const struct ibfs_event *ev =
			     q->buckets[(start + off) & mask].head;
		     ev && n < EQ_SAMPLE && ev->time >> q->shift == day;
		     ev = ev->next)
			t[n++] = ev->time;
	}
	return n == EQ_SAMPLE ? ibfs__eq_estimate_shift(t, n, q->shift)
			      : q->shift;
}

/*
 * The end of a window of events taken: halves the calendar or rebuilds it
 * if the work per event is too high. Out of line, so that the run loop
 * keeps nothing in registers for it.
 */
__attribute__((cold)) void ibfs__eq_window_end(struct ibfs_eq *q)
{
	/* The window may have run past q->window events (eq_account). */
	uint64_t ops = q->window + (q->executed + q->popped - q->window_at);

	/* Far fewer events than buckets: halve (checked once a window, off
	 * the per-event path). */
	size_t live = ibfs__eq_held(q) - q->far_cancelled;
	unsigned shift;

	if (live < q->nbuckets / (2 * EQ_SPARE) &&
	    q->nbuckets > EQ_MIN_BUCKETS) {
		ibfs__eq_rebuild(q, q->nbuckets / 2, EQ_FIT_NARROW);
	} else if (q->moved > ops / 16) {
		/*
		 * Too many events outlive the year: lengthen it, with more
		 * buckets while they stay within EQ_SPARE a held event (an
		 * empty day costs a bit, a wider day costs list walks), else
		 * with a wider day.
		 */
		if (q->nbuckets < EQ_SPARE * live)
			ibfs__eq_rebuild(q, 2 * q->nbuckets, EQ_FIT_KEEP);
		else
			ibfs__eq_rebuild(q, q->nbuckets, EQ_FIT_WIDER);
	} else if (q->steps > EQ_STEP_LIMIT * ops) {
		ibfs__eq_rebuild(q, q->nbuckets, EQ_FIT_FRONT);
		/* If the distribution stays hostile, rebuild less often. */
		if (q->window < EQ_WINDOW_MAX)
			q->window *= 2;
	} else if (q->sorted > ops / EQ_SORTED_SHARE &&
		   ops > EQ_SORTED_DAY * (uint64_t)q->days &&
		   q->nbuckets <= EQ_SORTED_BUCKETS &&
		   (shift = eq_front_shift(q)) < q->shift) {
		/*
		 * Many events land before a tail due the same day, and days
		 * hold several events each (the events taken span few days):
		 * which way each insert's test and walk go is random (the
		 * steps above count their walks, a node or two, as cheap, so
		 * a day chosen at start-up may stay far too wide). Narrowed
		 * as a growth does it, from the earliest events, when their
		 * gaps call for it; only while the calendar is small: with
		 * more buckets a narrower day costs cache misses.
		 */
		size_t nb = q->nbuckets;

		/* The same year in narrower days, while within EQ_SPARE
		 * buckets an event: else events due within it would go far
		 * (and the far heap, holding more, would keep more of its
		 * cancelled events). */
		for (unsigned k = shift; k < q->shift && nb < EQ_SPARE * live &&
					 nb <= SIZE_MAX / 4;
		     k++)
			nb *= 2;
		ibfs__eq_rebuild(q, nb, EQ_FIT_NARROW);
	} else if (q->window > EQ_WINDOW_MIN) {
		q->window /= 2;
	}
	q->steps = 0;
	q->window_at = q->executed + q->popped + q->window;
	q->moved = 0;
	q->sorted = 0;
	q->days = 0;
}

