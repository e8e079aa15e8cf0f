/* SPDX-License-Identifier: MIT */
/*
 * Tests of the event queue (src/fabric/event_queue.c): (time, sequence)
 * order checked against an independent sort, ties in scheduling order,
 * byte-identical logs from two identical runs, cancellation, the run
 * horizon and its lowering by handlers, pop/release, that a steady hold
 * model stops growing the event pool, and that a delay past the end of
 * time saturates. The calendar's own cases are in check_event_queue_cal.c,
 * models checked event by event against a reference queue in
 * check_event_queue_ref.c.
 */
#include "eq_fixture.h"

START_TEST(test_empty)
{
	ck_assert_uint_eq(ibfs__eq_size(&q), 0);
	ck_assert_uint_eq(ibfs__eq_next_time(&q), IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 0);
	ck_assert_uint_eq(q.now, 0);
	ck_assert_ptr_null(ibfs__eq_pop(&q));
}
END_TEST

START_TEST(test_order)
{
	/* Times scheduled out of order; each handler sees now = its time. */
	static const ibfs_time_t t[] = { 50, 10, 40, 20, 30, 0, 1000000, 7 };
	static const uint64_t want[] = { 5, 7, 1, 3, 4, 2, 0, 6 };

	for (size_t i = 0; i < 8; i++)
		ck_assert_ptr_nonnull(
			ibfs__eq_schedule(&q, t[i], on_log, &q, i));
	ck_assert_uint_eq(ibfs__eq_size(&q), 8);
	ck_assert_uint_eq(ibfs__eq_next_time(&q), 0);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 8);
	ck_assert_uint_eq(log_n, 8);
	for (size_t i = 0; i < 8; i++) {
		ck_assert_uint_eq(log_buf[i].arg, want[i]);
		ck_assert_uint_eq(log_buf[i].now, t[want[i]]);
	}
	ck_assert_uint_eq(q.now, 1000000);
	ck_assert_uint_eq(q.executed, 8);
	ck_assert_uint_eq(ibfs__eq_size(&q), 0);
}
END_TEST

START_TEST(test_ties)
{
	/* 300 events at three times, interleaved; ties keep schedule order. */
	for (uint64_t i = 0; i < 300; i++)
		ibfs__eq_schedule(&q, 100 * (2 - i % 3), on_log, &q, i);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 300);
	for (size_t k = 0; k < 300; k++) {
		/* Time 0 holds i = 2, 5, 8, ...; time 100 holds 1, 4, ...;
		 * time 200 holds 0, 3, .... */
		size_t group = k / 100, idx = k % 100;

		ck_assert_uint_eq(log_buf[k].now, 100 * group);
		ck_assert_uint_eq(log_buf[k].arg, 3 * idx + (2 - group));
	}
}
END_TEST

START_TEST(test_random_against_sort)
{
	/* 20,000 events at random times drawn from a small range (many ties),
	 * a fifth of them cancelled; the run must equal a sort by
	 * (time, schedule order) of the survivors. */
	enum { N = 20000 };
	struct ibfs_rng r;
	struct key *keys = malloc(N * sizeof(*keys));
	struct ibfs_event **evs = malloc(N * sizeof(*evs));
	size_t nk = 0;

	ck_assert_ptr_nonnull(keys);
	ck_assert_ptr_nonnull(evs);
	log_reset(N);
	ibfs__rng_seed(&r, 99, 0);
	for (uint64_t i = 0; i < N; i++) {
		ibfs_time_t t = ibfs__rng_below(&r, 5000);

		evs[i] = ibfs__eq_schedule(&q, t, on_log, &q, i);
		ck_assert_ptr_nonnull(evs[i]);
	}
	int *dead = calloc(N, sizeof(*dead));

	for (int k = 0; k < N / 5; k++) {
		size_t i = ibfs__rng_below(&r, N);

		ibfs__eq_cancel(&q, evs[i]); /* repeats are no-ops */
		dead[i] = 1;
	}
	for (size_t i = 0; i < N; i++)
		if (!dead[i])
			keys[nk++] = (struct key){ evs[i]->time, i };
	ck_assert_uint_eq(ibfs__eq_size(&q), nk);
	qsort(keys, nk, sizeof(*keys), key_cmp);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), nk);
	ck_assert_uint_eq(log_n, nk);
	for (size_t i = 0; i < nk; i++) {
		ck_assert_uint_eq(log_buf[i].now, keys[i].time);
		ck_assert_uint_eq(log_buf[i].arg, keys[i].arg);
	}
	ck_assert_uint_eq(ibfs__eq_held(&q), 0);
	ck_assert_uint_eq(q.cancelled, 0);
	ck_assert_uint_eq(ibfs__eq_events_out(&q), 0);
	free(dead);
	free(keys);
	free(evs);
}
END_TEST

/*
 * A small model with random delays and zero-delay follow-ups: each handler
 * logs, then schedules up to two more events until a budget is spent.
 */
static struct ibfs_rng model_rng;
static uint64_t model_budget;

static void on_model(void *obj, uint64_t arg)
{
	on_log(obj, arg);
	for (int k = 0; k < 2 && model_budget > 0; k++) {
		model_budget--;
		ibfs_time_t d = ibfs__rng_below(&model_rng, 4) * 1000;

		ibfs__eq_after(&q, d, on_model, &q, model_budget);
	}
}

static void run_model(struct rec *out, size_t n)
{
	ck_assert_int_eq(ibfs__eq_init(&q), 0);
	log_reset(n);
	ibfs__rng_seed(&model_rng, 2024, 1);
	model_budget = n - 4;
	for (uint64_t i = 0; i < 4; i++)
		ibfs__eq_schedule(&q, 0, on_model, &q, 1000000 + i);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), n);
	ck_assert_uint_eq(log_n, n);
	memcpy(out, log_buf, n * sizeof(*out));
	ibfs__eq_destroy(&q);
}

START_TEST(test_determinism)
{
	enum { N = 50000 };
	struct rec *a = calloc(N, sizeof(*a)), *b = calloc(N, sizeof(*b));

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ibfs__eq_destroy(&q);
	run_model(a, N);
	run_model(b, N);
	ck_assert_int_eq(memcmp(a, b, N * sizeof(*a)), 0);
	/* Time never runs backwards and the budget counts down uniquely. */
	for (size_t i = 1; i < N; i++)
		ck_assert_uint_le(a[i - 1].now, a[i].now);
	/* Delays of 0 occur: ties must be present for the test to mean
	 * anything. */
	size_t ties = 0;

	for (size_t i = 1; i < N; i++)
		ties += a[i - 1].now == a[i].now;
	ck_assert_uint_gt(ties, N / 2);
	free(a);
	free(b);
	ibfs__eq_init(&q); /* for teardown */
}
END_TEST

static void on_follow_now(void *obj, uint64_t arg)
{
	on_log(obj, arg);
	ibfs__eq_after(&q, 0, on_log, obj, 3);
}

START_TEST(test_zero_delay_runs_after_due)
{
	/* A (arg 1) and B (arg 2) are due at 10; A schedules C (arg 3) at
	 * now. C runs in the same run, after B (its sequence is later). */
	ibfs__eq_schedule(&q, 10, on_follow_now, &q, 1);
	ibfs__eq_schedule(&q, 10, on_log, &q, 2);
	ibfs__eq_schedule(&q, 11, on_log, &q, 4);
	ck_assert_uint_eq(ibfs__eq_run(&q, 10), 3);
	ck_assert_uint_eq(log_buf[0].arg, 1);
	ck_assert_uint_eq(log_buf[1].arg, 2);
	ck_assert_uint_eq(log_buf[2].arg, 3);
	ck_assert_uint_eq(log_buf[2].now, 10);
	ck_assert_uint_eq(ibfs__eq_size(&q), 1);
}
END_TEST

static struct ibfs_event *victim;

static void on_cancel_victim(void *obj, uint64_t arg)
{
	on_log(obj, arg);
	ibfs__eq_cancel(&q, victim);
	/* Cancelling itself while running is a no-op. */
	ck_assert_uint_eq(ibfs__eq_size(&q), 1);
}

START_TEST(test_cancel)
{
	struct ibfs_event *a = ibfs__eq_schedule(&q, 5, on_log, &q, 1);
	struct ibfs_event *b = ibfs__eq_schedule(&q, 6, on_log, &q, 2);
	struct ibfs_event *c = ibfs__eq_schedule(&q, 7, on_log, &q, 3);

	ck_assert_uint_eq(ibfs__eq_size(&q), 3);
	ibfs__eq_cancel(&q, a); /* the top */
	ibfs__eq_cancel(&q, a); /* twice: no-op */
	ck_assert_uint_eq(ibfs__eq_size(&q), 2);
	ck_assert_uint_eq(q.cancelled, 1);
	/* next_time skips (and reaps) the cancelled top. */
	ck_assert_uint_eq(ibfs__eq_next_time(&q), 6);
	ck_assert_uint_eq(q.cancelled, 0);
	ck_assert_uint_eq(ibfs__eq_held(&q), 2);
	ibfs__eq_cancel(&q, c); /* the bottom, reaped by the run */
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 1);
	ck_assert_uint_eq(log_n, 1);
	ck_assert_uint_eq(log_buf[0].arg, 2);
	ck_assert_uint_eq(q.now, 6);
	ck_assert_uint_eq(ibfs__eq_held(&q), 0);
	ck_assert_uint_eq(ibfs__eq_events_out(&q), 0);
	(void)b;

	/* A handler cancels a later event; and itself, which is a no-op. */
	victim = ibfs__eq_schedule(&q, 20, on_log, &q, 20);
	ibfs__eq_schedule(&q, 30, on_log, &q, 30);
	struct ibfs_event *self = ibfs__eq_schedule(&q, 10, on_cancel_victim,
						    &q, 10);
	(void)self;
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 2);
	ck_assert_uint_eq(log_buf[1].arg, 10);
	ck_assert_uint_eq(log_buf[2].arg, 30);
	ck_assert_uint_eq(ibfs__eq_size(&q), 0);
	ck_assert_uint_eq(ibfs__eq_events_out(&q), 0);
}
END_TEST

static void on_self_cancel(void *obj, uint64_t arg)
{
	on_log(obj, arg);
	ibfs__eq_cancel(&q, victim);
}

START_TEST(test_cancel_running_self)
{
	victim = ibfs__eq_schedule(&q, 10, on_self_cancel, &q, 1);
	ibfs__eq_schedule(&q, 11, on_log, &q, 2);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 2);
	ck_assert_uint_eq(q.cancelled, 0);
	ck_assert_uint_eq(log_buf[1].arg, 2);
}
END_TEST

static void on_limit(void *obj, uint64_t arg)
{
	on_log(obj, arg);
	ibfs__eq_limit(&q, arg);
}

START_TEST(test_horizon)
{
	for (uint64_t t = 10; t <= 50; t += 10)
		ibfs__eq_schedule(&q, t, on_log, &q, t);
	/* The horizon is inclusive. */
	ck_assert_uint_eq(ibfs__eq_run(&q, 30), 3);
	ck_assert_uint_eq(q.now, 30);
	ck_assert_uint_eq(ibfs__eq_size(&q), 2);
	/* Nothing due: now unchanged. */
	ck_assert_uint_eq(ibfs__eq_run(&q, 39), 0);
	ck_assert_uint_eq(q.now, 30);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 2);
	ck_assert_uint_eq(q.now, 50);
	ck_assert_uint_eq(log_buf[4].arg, 50);
}
END_TEST

START_TEST(test_horizon_lowered)
{
	/* The event at 100 lowers the horizon to 250: 200 and 250 run,
	 * 300 does not. A second limit to 400 does not raise it. */
	ibfs__eq_schedule(&q, 100, on_limit, &q, 250);
	ibfs__eq_schedule(&q, 200, on_limit, &q, 400);
	ibfs__eq_schedule(&q, 250, on_log, &q, 7);
	ibfs__eq_schedule(&q, 300, on_log, &q, 8);
	ck_assert_uint_eq(ibfs__eq_run(&q, 1000), 3);
	ck_assert_uint_eq(q.now, 250);
	ck_assert_uint_eq(q.horizon, 250);
	ck_assert_uint_eq(log_buf[2].arg, 7);
	ck_assert_uint_eq(ibfs__eq_next_time(&q), 300);
	/* Limiting to a time already past stops after the current event:
	 * the limiter at 300 runs after the event already due at 300 (later
	 * sequence), and the event at 400 stays. */
	ibfs__eq_schedule(&q, 300, on_limit, &q, 0);
	ibfs__eq_schedule(&q, 400, on_log, &q, 9);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 2);
	ck_assert_uint_eq(log_buf[3].arg, 8);
	ck_assert_uint_eq(log_buf[4].arg, 0);
	ck_assert_uint_eq(q.now, 300);
	ck_assert_uint_eq(ibfs__eq_size(&q), 1);
	ck_assert_uint_eq(ibfs__eq_next_time(&q), 400);
}
END_TEST

static void on_inspect(void *obj, uint64_t arg)
{
	on_log(obj, arg);
	/* Inside a handler the queue reports only the others. */
	ck_assert_uint_eq(ibfs__eq_size(&q), 2);
	ck_assert_uint_eq(ibfs__eq_next_time(&q), 40);
	ck_assert_uint_eq(ibfs__eq_size(&q), 2);
	/* Scheduling after that still works and is ordered. */
	ibfs__eq_schedule(&q, 35, on_log, &q, 35);
	ck_assert_uint_eq(ibfs__eq_size(&q), 3);
}

static void on_count(void *obj, uint64_t arg)
{
	on_log(obj, arg);
	ck_assert_uint_eq(ibfs__eq_size(&q), arg);
}

START_TEST(test_horizon_lowered_days_ahead)
{
	/*
	 * The run loop tests the head against the earlier of the horizon and
	 * the current day's end: a horizon lowered to a later day must still
	 * hold once the run reaches that day (2^16 ps days), and within it.
	 */
	const ibfs_time_t day = 1ULL << 16;

	ibfs__eq_schedule(&q, 100, on_limit, &q, 3 * day + 500);
	ibfs__eq_schedule(&q, 2 * day, on_log, &q, 1);
	ibfs__eq_schedule(&q, 3 * day + 400, on_log, &q, 2);
	ibfs__eq_schedule(&q, 3 * day + 500, on_log, &q, 3);
	ibfs__eq_schedule(&q, 3 * day + 501, on_log, &q, 4);
	ibfs__eq_schedule(&q, 5 * day, on_log, &q, 5);
	ck_assert_uint_eq(ibfs__eq_run(&q, 6 * day), 4);
	ck_assert_uint_eq(q.now, 3 * day + 500);
	ck_assert_uint_eq(log_buf[3].arg, 3);
	ck_assert_uint_eq(ibfs__eq_next_time(&q), 3 * day + 501);
	ck_assert_uint_eq(ibfs__eq_run(&q, 4 * day), 1);
	ck_assert_uint_eq(log_buf[4].arg, 4);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 1);
	ck_assert_uint_eq(log_buf[5].arg, 5);
}
END_TEST

START_TEST(test_inside_handler)
{
	ibfs__eq_schedule(&q, 30, on_inspect, &q, 30);
	ibfs__eq_schedule(&q, 40, on_count, &q, 1);
	ibfs__eq_schedule(&q, 50, on_count, &q, 0);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 4);
	ck_assert_uint_eq(log_buf[1].arg, 35);
	ck_assert_uint_eq(log_buf[1].now, 35);
	ck_assert_uint_eq(log_buf[3].now, 50);
}
END_TEST

START_TEST(test_pop_release)
{
	ibfs__eq_schedule(&q, 9, on_log, &q, 1);
	struct ibfs_event *x = ibfs__eq_schedule(&q, 3, on_log, &q, 2);

	ck_assert_uint_eq(ibfs__eq_events_out(&q), 2);
	struct ibfs_event *p = ibfs__eq_pop(&q);

	ck_assert_ptr_eq(p, x);
	ck_assert_uint_eq(p->time, 3);
	ck_assert_uint_eq(p->arg, 2);
	ck_assert_uint_eq(ibfs__eq_size(&q), 1);
	ibfs__eq_cancel(&q, p); /* out of the heap: no effect on counts */
	ck_assert_uint_eq(ibfs__eq_size(&q), 1);
	ibfs__eq_release(&q, p);
	ck_assert_uint_eq(ibfs__eq_events_out(&q), 1);
	ck_assert_uint_eq(q.now, 0);
	ck_assert_uint_eq(log_n, 0);
}
END_TEST

/* The hold model: each event schedules one more at a random delay. */
static struct ibfs_rng hold_rng;
static uint64_t hold_left;

static void on_hold(void *obj, uint64_t arg)
{
	if (hold_left == 0)
		return;
	hold_left--;
	ibfs__eq_after(&q, 1 + ibfs__rng_below(&hold_rng, 1000000), on_hold,
		       obj, arg);
}

START_TEST(test_pool_reuse)
{
	enum { N = 1000 };

	ibfs__rng_seed(&hold_rng, 7, 0);
	for (uint64_t i = 0; i < N; i++)
		ibfs__eq_schedule(&q, ibfs__rng_below(&hold_rng, 1000000),
				  on_hold, &q, i);
	hold_left = UINT64_MAX;
	/*
	 * Warm up to 10 us: delays average 0.5 us, so each of the N chains
	 * runs about 20 events. Then run to 1 ms (about two million more
	 * events): the pool and the heap must not grow again.
	 */
	ibfs__eq_run(&q, 10 * IBFS_US);
	ck_assert_uint_gt(q.executed, 10000);
	ck_assert_uint_eq(ibfs__eq_events_out(&q), N);
	uint64_t grows = q.pool.grows, before = q.executed;
	size_t cap = q.pool.capacity, nbuckets = q.nbuckets;

	ibfs__eq_run(&q, IBFS_MS);
	ck_assert_uint_gt(q.executed - before, 1000000);
	ck_assert_uint_eq(q.pool.grows, grows);
	ck_assert_uint_eq(q.pool.capacity, cap);
	ck_assert_uint_eq(q.nbuckets, nbuckets);
	ck_assert_uint_eq(ibfs__eq_events_out(&q), N);
	ck_assert_uint_eq(ibfs__eq_size(&q), N);
	/* Stop the chains: the queue drains and every event is back. */
	hold_left = 0;
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), N);
	ck_assert_uint_eq(ibfs__eq_events_out(&q), 0);
	ck_assert_uint_eq(ibfs__eq_size(&q), 0);
}
END_TEST

START_TEST(test_after_saturates)
{
	q.now = 5000;
	ibfs__eq_after(&q, IBFS_TIME_NEVER, on_log, &q, 1);
	ibfs__eq_after(&q, UINT64_MAX - 5000, on_log, &q, 2);
	ibfs__eq_after(&q, UINT64_MAX - 5001, on_log, &q, 3);
	ibfs__eq_after(&q, 7, on_log, &q, 4);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 4);
	ck_assert_uint_eq(log_buf[0].now, 5007);
	ck_assert_uint_eq(log_buf[1].now, UINT64_MAX - 1);
	ck_assert_uint_eq(log_buf[1].arg, 3);
	ck_assert_uint_eq(log_buf[2].now, UINT64_MAX);
	ck_assert_uint_eq(log_buf[2].arg, 1);
	ck_assert_uint_eq(log_buf[3].now, UINT64_MAX);
	ck_assert_uint_eq(log_buf[3].arg, 2);
}
END_TEST

/* Empties the event pool and makes it unable to grow, then schedules. */
static void on_starve(void *obj, uint64_t arg)
{
	on_log(obj, arg);
	q.pool.free_list = NULL;
	q.pool.per_slab = SIZE_MAX; /* ibfs__pool_grow fails at once */
	ck_assert_ptr_null(ibfs__eq_schedule(&q, q.now + 1, on_log, &q, 9));
}

/*
 * Out of memory: a schedule that gets no event marks the queue (nomem)
 * and ends the run at that time, so that the events due later do not run
 * in a model that lost one; no later run goes on. Fails when the failed
 * schedule only returns NULL (the event at 30 runs).
 */
START_TEST(test_out_of_memory)
{
	ibfs__eq_schedule(&q, 10, on_log, &q, 1);
	ibfs__eq_schedule(&q, 20, on_starve, &q, 2);
	ibfs__eq_schedule(&q, 30, on_log, &q, 3);
	ck_assert_int_eq(q.nomem, 0);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 2);
	ck_assert_int_eq(q.nomem, 1);
	ck_assert_uint_eq(q.now, 20);
	ck_assert_uint_eq(log_n, 2);
	ck_assert_uint_eq(log_buf[1].arg, 2);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), 0);
	ck_assert_uint_eq(log_n, 2);
	ck_assert_uint_eq(q.now, 20);
	/* Teardown frees the slabs; the event at 30 is still held. */
	q.pool.per_slab = 1;
}
END_TEST

/*
 * ibfs__eq_schedule_pf names a line to fetch ahead: it is kept in the event
 * (ibfs__eq_schedule's is obj) and changes nothing of the order, also
 * through rebuilds, across buckets left empty and at the last event, where
 * the run loop's look-ahead finds nothing after (eq_take).
 */
START_TEST(test_schedule_pf)
{
	enum { N = 6000 };
	static uint64_t lines[N];
	struct ibfs_rng r;
	struct key *keys = malloc(N * sizeof(*keys));
	struct ibfs_event **evs = malloc(N * sizeof(*evs));

	ck_assert_ptr_nonnull(keys);
	ck_assert_ptr_nonnull(evs);
	log_reset(N);
	ibfs__rng_seed(&r, 5, 0);
	for (uint64_t i = 0; i < N; i++) {
		/* Clusters far apart: many days hold no event. */
		ibfs_time_t t = ibfs__rng_below(&r, 40) * 100000 +
				ibfs__rng_below(&r, 300);

		if (i % 2)
			evs[i] = ibfs__eq_schedule_pf(&q, t, on_log, &q, i,
						      &lines[i]);
		else
			evs[i] = ibfs__eq_schedule(&q, t, on_log, &q, i);
		ck_assert_ptr_nonnull(evs[i]);
		keys[i] = (struct key){ t, i };
	}
	ck_assert_uint_gt(q.resizes, 0);
	for (uint64_t i = 0; i < N; i++)
		ck_assert_ptr_eq(evs[i]->pf,
				 i % 2 ? (const void *)&lines[i] : &q);
	qsort(keys, N, sizeof(*keys), key_cmp);
	ck_assert_uint_eq(ibfs__eq_run(&q, IBFS_TIME_NEVER), N);
	for (size_t i = 0; i < N; i++) {
		ck_assert_uint_eq(log_buf[i].now, keys[i].time);
		ck_assert_uint_eq(log_buf[i].arg, keys[i].arg);
	}
	ck_assert_uint_eq(ibfs__eq_events_out(&q), 0);
	free(keys);
	free(evs);
}
END_TEST

static Suite *event_queue_suite(void)
{
	Suite *s = suite_create("event_queue");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_ties);
	tcase_add_test(tc, test_random_against_sort);
	tcase_add_test(tc, test_determinism);
	tcase_add_test(tc, test_zero_delay_runs_after_due);
	tcase_add_test(tc, test_cancel);
	tcase_add_test(tc, test_cancel_running_self);
	tcase_add_test(tc, test_horizon);
	tcase_add_test(tc, test_horizon_lowered);
	tcase_add_test(tc, test_horizon_lowered_days_ahead);
	tcase_add_test(tc, test_inside_handler);
	tcase_add_test(tc, test_pop_release);
	tcase_add_test(tc, test_pool_reuse);
	tcase_add_test(tc, test_after_saturates);
	tcase_add_test(tc, test_schedule_pf);
	tcase_add_test(tc, test_out_of_memory);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(event_queue_suite)
