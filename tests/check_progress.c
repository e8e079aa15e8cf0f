/* SPDX-License-Identifier: MIT */
/*
 * The progress line, forced on into a temporary file with a hand-driven
 * clock: when it redraws (every IBFS_PROGRESS_STRIDE ticks the clock is
 * read; at most every IBFS_PROGRESS_PERIOD seconds a line is drawn), the
 * exact text (simulated time, events per second, share done, estimate),
 * the terminal sequences, the final erase, the disabled case, and ticks
 * driven by the packets of a stream between two endpoints.
 */
#include <stdio.h>
#include <string.h>

#include "check_common.h"
#include "fabric/endpoint.h"
#include "fabric/progress.h"

static double fake_now;

static double fake_clock(void *ctx)
{
	(void)ctx;
	return fake_now;
}

/* Everything written to f so far. */
static const char *contents(FILE *f)
{
	static char buf[4096];
	long at = ftell(f);

	rewind(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);

	buf[n] = 0;
	fseek(f, at, SEEK_SET);
	return buf;
}

static struct ibfs_progress *make(FILE *f, int enabled, ibfs_time_t stop)
{
	struct ibfs_progress *p = ibfs__progress_new(f, enabled, stop);

	ck_assert_ptr_nonnull(p);
	fake_now = 100.0;
	ibfs__progress_set_clock(p, fake_clock, NULL);
	return p;
}

START_TEST(redraws_at_most_every_period)
{
	FILE *f = tmpfile();
	struct ibfs_progress *p = make(f, 1, 10 * IBFS_MS);

	/* The clock is not read before the stride is used up. */
	fake_now = 200.0;
	for (int i = 0; i < IBFS_PROGRESS_STRIDE - 1; i++)
		ibfs__progress_tick(p, 1, (uint64_t)i);
	ck_assert_uint_eq(ibfs__progress_draws(p), 0);
	fake_now = 100.2; /* the last tick reads it: too soon to draw */
	ibfs__progress_tick(p, 1, 1);
	ck_assert_uint_eq(ibfs__progress_draws(p), 0);
	ck_assert_str_eq(contents(f), "");

	/* 1 s of wall time, 1e6 events, 2.5 of 10 ms: 3 s left. */
	fake_now = 101.0;
	ibfs__progress_poll(p, 2500 * IBFS_US, 1000000);
	const char *l1 = "ibfsim: 2.500 ms simulated, 1.00 M events/s, "
			 "25.0% done, ETA 3 s";

	ck_assert_uint_eq(ibfs__progress_draws(p), 1);
	ck_assert_str_eq(ibfs__progress_text(p), l1);
	char want[512];

	snprintf(want, sizeof(want), "\r%s\033[K", l1);
	ck_assert_str_eq(contents(f), want);

	/* 0.3 s later: not yet. */
	fake_now = 101.3;
	ibfs__progress_poll(p, 3 * IBFS_MS, 1200000);
	ck_assert_uint_eq(ibfs__progress_draws(p), 1);

	/* 1 s after the last draw: 5e5 events in it; 2 s spent for half. */
	fake_now = 102.0;
	ibfs__progress_poll(p, 5 * IBFS_MS, 1500000);
	const char *l2 = "ibfsim: 5.000 ms simulated, 500.0 k events/s, "
			 "50.0% done, ETA 2 s";

	ck_assert_str_eq(ibfs__progress_text(p), l2);
	size_t n = strlen(want);

	snprintf(want + n, sizeof(want) - n, "\r%s\033[K", l2);
	ck_assert_str_eq(contents(f), want);
	ibfs__progress_end(p);
	n = strlen(want);
	snprintf(want + n, sizeof(want) - n, "\r\033[K");
	ck_assert_str_eq(contents(f), want);
	fclose(f);
}
END_TEST

START_TEST(units_and_estimates)
{
	FILE *f = tmpfile();
	struct ibfs_progress *p = make(f, 1, 1 * IBFS_S);

	/* 10 s for 1 us of 1 s: (1e12 - 1e6) / 1e6 x 10 s = 9,999,990 s. */
	fake_now = 110.0;
	ibfs__progress_poll(p, IBFS_US, 500);
	ck_assert_str_eq(ibfs__progress_text(p),
			 "ibfsim: 1.000 us simulated, 50 events/s, "
			 "0.0% done, ETA 2777:46:30");
	/* 100 s of 1 s spent for 0.5 s: 100 s left, as minutes. */
	fake_now = 200.0;
	ibfs__progress_poll(p, IBFS_S / 2 + 1, 500 + 1234567);
	ck_assert_str_eq(ibfs__progress_text(p),
			 "ibfsim: 500.000 ms simulated, 13.7 k events/s, "
			 "50.0% done, ETA 1:40");
	ibfs__progress_end(p);

	/* No stop time: no share and no estimate; sub-ns times in ns. */
	p = make(f, 1, IBFS_TIME_NEVER);
	fake_now = 101.0;
	ibfs__progress_poll(p, 999, 7);
	ck_assert_str_eq(ibfs__progress_text(p),
			 "ibfsim: 0.999 ns simulated, 7 events/s");
	fake_now = 102.0;
	ibfs__progress_poll(p, 3 * IBFS_S + 250 * IBFS_MS, 7);
	ck_assert_str_eq(ibfs__progress_text(p),
			 "ibfsim: 3.250 s simulated, 0 events/s");
	ibfs__progress_end(p);
	fclose(f);
}
END_TEST

START_TEST(disabled_writes_nothing)
{
	FILE *f = tmpfile();
	struct ibfs_progress *p = make(f, 0, 10 * IBFS_MS);

	fake_now = 1000.0;
	for (int i = 0; i < 3 * IBFS_PROGRESS_STRIDE; i++)
		ibfs__progress_tick(p, (ibfs_time_t)i, (uint64_t)i);
	ibfs__progress_poll(p, IBFS_MS, 10);
	ck_assert_uint_eq(ibfs__progress_draws(p), 0);
	ck_assert_int_eq(ibfs__progress_observe(p, NULL), 0);
	ibfs__progress_end(p);
	ck_assert_str_eq(contents(f), "");
	/* No stream at all, and NULL everywhere, are fine too. */
	p = ibfs__progress_new(NULL, 1, 0);
	ibfs__progress_tick(p, 1, 1);
	ibfs__progress_poll(p, 1, 1);
	ibfs__progress_end(p);
	ibfs__progress_tick(NULL, 1, 1);
	ibfs__progress_end(NULL);
	fclose(f);
}
END_TEST

/* Each reading of the clock moves it on by a second. */
static double stepping_clock(void *ctx)
{
	(void)ctx;
	fake_now += 1.0;
	return fake_now;
}

/*
 * Ticks from the packets of a stream: 3000 packets of 126 wire bytes
 * (LRH 8 + BTH 12 + 100 + ICRC 4 + VCRC 2) leave back to back every
 * 126 x 80 ps on 4x EDR (100 Gb/s); the clock is read at the 1024th and
 * 2048th, sent at 1023 x 10,080 ps and 2047 x 10,080 ps.
 */
START_TEST(ticks_from_packets)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new("pair");

	ck_assert_int_eq(ibfs__topo_add_node(t, "a", IBFS_NODE_HCA, 1, 0, &d),
			 0);
	ck_assert_int_eq(ibfs__topo_add_node(t, "b", IBFS_NODE_HCA, 1, 0, &d),
			 1);
	ck_assert_int_ge(ibfs__topo_add_link(t, 0, 1, 1, 1, IBFS_SPEED_EDR, 4,
					     2000, 0, &d), 0);
	struct ibfs_fabric *f = ibfs__fabric_new(t, 1, 0);
	struct ibfs_endpoint *a = ibfs__endpoint_create(f, 0);
	struct ibfs_endpoint *b = ibfs__endpoint_create(f, 1);

	ibfs__endpoint_set_lid(a, 1, 0);
	ibfs__endpoint_set_lid(b, 2, 0);
	struct ibfs_ep_flow_spec s = {.dlid = 2, .lnh = 2, .payload = 100,
				      .count = 3000};

	ck_assert_int_eq(ibfs__endpoint_add_flow(a, &s, &d), 0);
	FILE *out = tmpfile();
	struct ibfs_progress *p = ibfs__progress_new(out, 1, IBFS_TIME_NEVER);

	fake_now = 0;
	ibfs__progress_set_clock(p, stepping_clock, NULL);
	ck_assert_int_eq(ibfs__progress_observe(p, f), 0);
	ck_assert_ptr_nonnull(f->observers);
	ibfs__eq_run(&f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(b)->rx_pkts, 3000);
	ck_assert_uint_eq(ibfs__progress_draws(p), 2);
	/* 2047 x 10,080 ps = 20,633,760 ps. */
	const char *want = "ibfsim: 20.633 us simulated, ";

	ck_assert_int_eq(strncmp(ibfs__progress_text(p), want, strlen(want)),
			 0);
	const char *all = contents(out);

	ck_assert_ptr_nonnull(strstr(all, "\ribfsim: 10.311 us simulated, "));
	ibfs__progress_end(p);
	ck_assert_ptr_null(f->observers);
	fclose(out);
	ibfs__endpoint_destroy(a);
	ibfs__endpoint_destroy(b);
	ibfs__fabric_free(f);
	ibfs__topo_free(t);
}
END_TEST

static Suite *progress_suite(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("line");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, redraws_at_most_every_period);
	tcase_add_test(tc, units_and_estimates);
	tcase_add_test(tc, disabled_writes_nothing);
	tcase_add_test(tc, ticks_from_packets);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(progress_suite)
