/* SPDX-License-Identifier: MIT */
/*
 * The event queue checked event by event against a plain reference queue:
 * models with cancellations under hostile time distributions, among them
 * a fabric's mix (thousands of events a few nanoseconds apart, ACK timers
 * 67 ms ahead that are mostly cancelled and re-armed, a monitor every
 * 50 us).
 */
#include "eq_fixture.h"

/*
 * A model run twice: on the event queue, and on a reference queue written
 * here as plainly as possible (an array searched linearly for the least
 * (time, seq)). The model's decisions depend only on its random stream and
 * on the order events run in, so the two logs are equal exactly when the
 * queue ran every event in (time, seq) order. Delays are drawn from
 * distributions that stress a calendar queue: many ties, a near cluster
 * with a far tail, a change of time scale halfway, and times at the top of
 * the 64-bit range.
 */
enum { REF_MAX = 4096, MODEL_EVENTS = 30000 };

enum dist { DIST_TIES, DIST_BIMODAL, DIST_SCALE_CHANGE, DIST_TOP };

struct ref_entry {
	ibfs_time_t time;
	uint64_t seq, id;
};

/*
 * The reference queue's take: removes and returns the entry with the least
 * (time, seq), found by a linear search; the last entry fills its place.
 * Both models drain their reference queue with it.
 */
static struct ref_entry ref_take(struct ref_entry *ref, size_t *nref)
{
	size_t best = 0;

	for (size_t i = 1; i < *nref; i++)
		if (ref[i].time < ref[best].time ||
		    (ref[i].time == ref[best].time && ref[i].seq < ref[best].seq))
			best = i;
	struct ref_entry e = ref[best];

	ref[best] = ref[--*nref];
	return e;
}

static struct {
	int use_ref;
	enum dist dist;
	struct ibfs_rng rng;
	uint64_t next_id, ran, cancels;
	size_t pending;
	unsigned char *state;        /* by id: 0 pending, 1 ran, 2 cancelled */
	struct ibfs_event **handle;  /* by id, queue runs only */
	struct ref_entry ref[REF_MAX];
	size_t nref;
	uint64_t ref_seq;
	ibfs_time_t ref_now;
} m;

static ibfs_time_t model_now(void)
{
	return m.use_ref ? m.ref_now : q.now;
}

static ibfs_time_t model_delay(void)
{
	uint64_t r = ibfs__rng_below(&m.rng, 10);

	switch (m.dist) {
	case DIST_TIES:
		return ibfs__rng_below(&m.rng, 4);
	case DIST_BIMODAL:
		return r ? 1 + ibfs__rng_below(&m.rng, 10)
			 : IBFS_MS + ibfs__rng_below(&m.rng, IBFS_S);
	case DIST_SCALE_CHANGE:
		return m.ran < MODEL_EVENTS / 2
			       ? 1 + ibfs__rng_below(&m.rng, IBFS_US)
			       : ibfs__rng_below(&m.rng, 3);
	case DIST_TOP: {
		/* Never past 2^64 - 1; some land exactly on it. */
		ibfs_time_t room = UINT64_MAX - model_now();
		ibfs_time_t d = ibfs__rng_below(&m.rng, 1000);

		return r == 0 || d > room ? room : d;
	}
	}
	return 0;
}

static void model_fire(void *obj, uint64_t id);

static void model_schedule(ibfs_time_t t)
{
	uint64_t id = m.next_id++;

	ck_assert_uint_lt(id, 2 * MODEL_EVENTS + 1000);
	m.state[id] = 0;
	m.pending++;
	if (m.use_ref) {
		ck_assert_uint_lt(m.nref, REF_MAX);
		m.ref[m.nref++] = (struct ref_entry){ t, m.ref_seq++, id };
	} else {
		m.handle[id] = ibfs__eq_schedule(&q, t, model_fire, &q, id);
		ck_assert_ptr_nonnull(m.handle[id]);
	}
}

static void model_cancel(uint64_t id)
{
	m.state[id] = 2;
	m.pending--;
	m.cancels++;
	if (!m.use_ref) {
		ibfs__eq_cancel(&q, m.handle[id]);
		return;
	}
	for (size_t i = 0; i < m.nref; i++)
		if (m.ref[i].id == id) {
			m.ref[i] = m.ref[--m.nref];
			return;
		}
	ck_abort_msg("reference lost event %llu", (unsigned long long)id);
}

static void model_fire(void *obj, uint64_t id)
{
	(void)obj;
	ck_assert_int_eq(m.state[id], 0);
	m.state[id] = 1;
	m.pending--;
	m.ran++;
	on_log(&q, id);
	log_buf[log_n - 1].now = model_now();
	if (m.next_id >= MODEL_EVENTS)
		return;
	/* Keep 50..150 events pending. */
	uint64_t k = m.pending < 50 ? 2 : m.pending > 150 ? 0
				     : ibfs__rng_below(&m.rng, 3);

	for (uint64_t i = 0; i < k; i++)
		model_schedule(model_now() + model_delay());
	/* One time in eight, cancel one of the 200 latest events if it is
	 * still pending. */
	if (ibfs__rng_below(&m.rng, 8) == 0) {
		uint64_t span = m.next_id < 200 ? m.next_id : 200;
		uint64_t victim_id =
			m.next_id - 1 - ibfs__rng_below(&m.rng, span);

		if (m.state[victim_id] == 0)
			model_cancel(victim_id);
	}
}

static void model_run(int use_ref, enum dist dist, struct rec *out,
		      size_t *n_out)
{
	free(m.state);
	free(m.handle);
	memset(&m, 0, sizeof(m));
	m.state = calloc(2 * MODEL_EVENTS + 1000, 1);
	m.handle = calloc(2 * MODEL_EVENTS + 1000, sizeof(*m.handle));
	ck_assert_ptr_nonnull(m.state);
	ck_assert_ptr_nonnull(m.handle);
	m.use_ref = use_ref;
	m.dist = dist;
	ibfs__rng_seed(&m.rng, 77, dist);
	ibfs__eq_destroy(&q);
	ck_assert_int_eq(ibfs__eq_init(&q), 0);
	log_reset(MODEL_EVENTS + 1000);

	ibfs_time_t start = dist == DIST_TOP ? UINT64_MAX - 2 * IBFS_US : 0;

	for (int i = 0; i < 100; i++)
		model_schedule(start + ibfs__rng_below(&m.rng, 1000));
	if (!use_ref) {
		ibfs__eq_run(&q, IBFS_TIME_NEVER);
		ck_assert_uint_eq(ibfs__eq_size(&q), 0);
		ck_assert_uint_eq(ibfs__eq_events_out(&q), 0);
	} else {
		while (m.nref > 0) {
			struct ref_entry e = ref_take(m.ref, &m.nref);

			m.ref_now = e.time;
			model_fire(NULL, e.id);
		}
	}
	ck_assert_uint_eq(m.pending, 0);
	memcpy(out, log_buf, log_n * sizeof(*out));
	*n_out = log_n;
}

START_TEST(test_against_reference)
{
	enum dist dist = (enum dist)_i;
	size_t na, nb;
	struct rec *a = calloc(MODEL_EVENTS + 1000, sizeof(*a));
	struct rec *b = calloc(MODEL_EVENTS + 1000, sizeof(*b));

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	model_run(1, dist, a, &na);
	uint64_t cancels = m.cancels;

	model_run(0, dist, b, &nb);
	uint64_t rebuilds = q.resizes;

	ck_assert_uint_eq(m.cancels, cancels);
	ck_assert_uint_gt(cancels, 300);
	ck_assert_uint_gt(na, MODEL_EVENTS / 2);
	ck_assert_uint_eq(na, nb);
	for (size_t i = 0; i < na; i++) {
		ck_assert_msg(a[i].arg == b[i].arg && a[i].now == b[i].now,
			      "event %zu: queue ran %llu at %llu, reference "
			      "%llu at %llu", i, (unsigned long long)b[i].arg,
			      (unsigned long long)b[i].now,
			      (unsigned long long)a[i].arg,
			      (unsigned long long)a[i].now);
	}
	/* The scale change must have made the calendar re-estimate its
	 * day (the population stays near 100, so not by growing). */
	if (dist == DIST_SCALE_CHANGE)
		ck_assert_uint_gt(rebuilds, 5);
	free(a);
	free(b);
	free(m.state);
	free(m.handle);
	m.state = NULL;
	m.handle = NULL;
}
END_TEST

/*
 * The fabric's event mix: about 2,600 events pending, each run scheduling
 * the next 0.5-165 ns ahead (in 64 ps steps, so some fall due
 * together); 64 queue pairs whose ACK timer (IBA 9.7.6.1.3:
 * 4.096 us x 2^14 = 67.108864 ms) is cancelled and re-armed by one event in
 * four of theirs, and fires once the QP goes quiet; and a deadlock monitor
 * every 50 us while near events remain. The queue's log must equal a plain
 * reference's (an array searched for the least (time, seq)) event by
 * event; cancelled far timers must not pile up (the far heap drops them
 * when they are half of it), so the pool never holds more than the live
 * events plus the heap's bounded share of cancelled ones.
 */
enum {
	FAB_NEAR = 2600,       /* near events pending */
	FAB_RUNS = 30000,      /* near events run before they stop */
	FAB_QPS = 64,
	FAB_IDS = FAB_RUNS + FAB_NEAR + 40000,
};
#define FAB_ACK_TIMEOUT (4096ULL * IBFS_NS * 16384)
#define FAB_MONITOR (50 * IBFS_US)

static struct {
	int use_ref;
	struct ibfs_rng rng;
	uint64_t next_id, near_ran, timers_fired, monitor_ran, cancels;
	size_t near_pending;
	uint64_t timer_id[FAB_QPS];      /* pending timer of a QP, or 0 */
	unsigned char *state;            /* by id: 0 pending, 1 ran, 2 off */
	struct ibfs_event **handle;      /* by id, queue runs only */
	struct ref_entry *ref;
	size_t nref;
	uint64_t ref_seq;
	ibfs_time_t ref_now;
	size_t peak_in_use;
} fm;

/* Kinds of event, in the top bits of the id's argument. */
enum { FAB_KIND_NEAR, FAB_KIND_TIMER, FAB_KIND_MONITOR };

static void fab_fire(void *obj, uint64_t arg);

static ibfs_time_t fab_now(void)
{
	return fm.use_ref ? fm.ref_now : q.now;
}

static uint64_t fab_schedule(ibfs_time_t t, unsigned kind, unsigned qp)
{
	uint64_t id = ++fm.next_id;
	uint64_t arg = id << 16 | (uint64_t)kind << 8 | qp;

	ck_assert_uint_lt(id, FAB_IDS);
	fm.state[id] = 0;
	if (fm.use_ref) {
		ck_assert_uint_lt(fm.nref, FAB_IDS);
		fm.ref[fm.nref++] = (struct ref_entry){ t, fm.ref_seq++, arg };
	} else {
		fm.handle[id] = ibfs__eq_schedule(&q, t, fab_fire, &q, arg);
		ck_assert_ptr_nonnull(fm.handle[id]);
		/* Events out of the pool: those held plus the one running
		 * (ibfs__eq_events_out counts the free list: too slow here). */
		if (ibfs__eq_held(&q) + 1 > fm.peak_in_use)
			fm.peak_in_use = ibfs__eq_held(&q) + 1;
	}
	return id;
}

static void fab_cancel(uint64_t id)
{
	ck_assert_int_eq(fm.state[id], 0);
	fm.state[id] = 2;
	fm.cancels++;
	if (!fm.use_ref) {
		ibfs__eq_cancel(&q, fm.handle[id]);
		return;
	}
	for (size_t i = 0; i < fm.nref; i++)
		if (fm.ref[i].id >> 16 == id) {
			fm.ref[i] = fm.ref[--fm.nref];
			return;
		}
	ck_abort_msg("reference lost event %llu", (unsigned long long)id);
}

static void fab_fire(void *obj, uint64_t arg)
{
	uint64_t id = arg >> 16;
	unsigned kind = (arg >> 8) & 0xff, qp = arg & 0xff;

	(void)obj;
	ck_assert_int_eq(fm.state[id], 0);
	fm.state[id] = 1;
	on_log(&q, arg);
	log_buf[log_n - 1].now = fab_now();
	switch (kind) {
	case FAB_KIND_NEAR:
		fm.near_pending--;
		if (++fm.near_ran >= FAB_RUNS)
			return;
		/* 0.5-165 ns ahead, in 64 ps steps; for one of the 64 QPs. */
		fab_schedule(fab_now() + 512 +
				     64 * ibfs__rng_below(&fm.rng, 2570),
			     FAB_KIND_NEAR,
			     (unsigned)ibfs__rng_below(&fm.rng, FAB_QPS));
		fm.near_pending++;
		/* One event in four re-arms its QP's ACK timer; QPs 0-7
		 * stop doing so halfway, so their timers come due. */
		if (ibfs__rng_below(&fm.rng, 4) == 0 &&
		    (qp >= 8 || fm.near_ran < FAB_RUNS / 2)) {
			if (fm.timer_id[qp])
				fab_cancel(fm.timer_id[qp]);
			fm.timer_id[qp] = fab_schedule(fab_now() +
							       FAB_ACK_TIMEOUT,
						       FAB_KIND_TIMER, qp);
		}
		return;
	case FAB_KIND_TIMER:
		fm.timers_fired++;
		fm.timer_id[qp] = 0;
		return;
	case FAB_KIND_MONITOR:
		fm.monitor_ran++;
		if (fm.near_pending)
			fab_schedule(fab_now() + FAB_MONITOR, FAB_KIND_MONITOR,
				     0);
		return;
	}
	ck_abort_msg("bad kind %u", kind);
}

static void fab_run(int use_ref, struct rec *out, size_t *n_out)
{
	free(fm.state);
	free(fm.handle);
	free(fm.ref);
	memset(&fm, 0, sizeof(fm));
	fm.state = calloc(FAB_IDS, 1);
	fm.handle = calloc(FAB_IDS, sizeof(*fm.handle));
	fm.ref = calloc(FAB_IDS, sizeof(*fm.ref));
	ck_assert_ptr_nonnull(fm.state);
	ck_assert_ptr_nonnull(fm.handle);
	ck_assert_ptr_nonnull(fm.ref);
	fm.use_ref = use_ref;
	ibfs__rng_seed(&fm.rng, 2005, 3);
	ibfs__eq_destroy(&q);
	ck_assert_int_eq(ibfs__eq_init(&q), 0);
	log_reset(FAB_IDS);
	for (int i = 0; i < FAB_NEAR; i++)
		fab_schedule(ibfs__rng_below(&fm.rng, 165 * IBFS_NS),
			     FAB_KIND_NEAR, (unsigned)(i % FAB_QPS));
	fm.near_pending = FAB_NEAR;
	fab_schedule(FAB_MONITOR, FAB_KIND_MONITOR, 0);
	if (!use_ref) {
		ibfs__eq_run(&q, IBFS_TIME_NEVER);
		ck_assert_uint_eq(ibfs__eq_size(&q), 0);
		ck_assert_uint_eq(ibfs__eq_events_out(&q), 0);
	} else {
		while (fm.nref > 0) {
			struct ref_entry e = ref_take(fm.ref, &fm.nref);

			fm.ref_now = e.time;
			fab_fire(NULL, e.id);
		}
	}
	memcpy(out, log_buf, log_n * sizeof(*out));
	*n_out = log_n;
}

START_TEST(test_fabric_mix)
{
	struct rec *a = calloc(FAB_IDS, sizeof(*a));
	struct rec *b = calloc(FAB_IDS, sizeof(*b));
	size_t na, nb;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	fab_run(1, a, &na);
	uint64_t cancels = fm.cancels, fired = fm.timers_fired;
	uint64_t monitor = fm.monitor_ran;

	fab_run(0, b, &nb);
	/* The mix is what it claims: thousands of timers cancelled, the 8
	 * quiet QPs' timers and the 56 others' last ones fired, the monitor
	 * ran through the near events' span. */
	ck_assert_uint_gt(cancels, 5000);
	ck_assert_uint_eq(fired, FAB_QPS);
	ck_assert_uint_gt(monitor, 0);
	ck_assert_uint_eq(fm.cancels, cancels);
	ck_assert_uint_eq(fm.timers_fired, fired);
	ck_assert_uint_eq(fm.monitor_ran, monitor);
	ck_assert_uint_eq(na, nb);
	for (size_t i = 0; i < na; i++)
		ck_assert_msg(a[i].arg == b[i].arg && a[i].now == b[i].now,
			      "event %zu: queue ran %llx at %llu, reference "
			      "%llx at %llu", i, (unsigned long long)b[i].arg,
			      (unsigned long long)b[i].now,
			      (unsigned long long)a[i].arg,
			      (unsigned long long)a[i].now);
	/* Far events came due through the far heap (the timers at least). */
	ck_assert_uint_ge(q.far_moves, fired);
	/*
	 * Cancelled timers did not pile up: at most FAB_NEAR + 1 near events,
	 * 64 timers and the monitor are live; the far heap's cancelled ones
	 * are at most half of it plus one, and a few may sit in buckets when
	 * the calendar's year reaches them. Keeping all 5,000+ would fail.
	 */
	ck_assert_uint_lt(fm.peak_in_use, FAB_NEAR + 1 + FAB_QPS + 1 + 200);
	free(a);
	free(b);
	free(fm.state);
	free(fm.handle);
	free(fm.ref);
	fm.state = NULL;
	fm.handle = NULL;
	fm.ref = NULL;
}
END_TEST

static Suite *event_queue_ref_suite(void)
{
	Suite *s = suite_create("event_queue_ref");
	TCase *tc = tcase_create("reference");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_loop_test(tc, test_against_reference, DIST_TIES,
			    DIST_TOP + 1);
	tcase_add_test(tc, test_fabric_mix);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(event_queue_ref_suite)
