/* SPDX-License-Identifier: MIT */
/*
 * perftest's loops on two HCAs back to back. With the `ideal` profile the
 * results are computed here in closed form from the link (4x EDR: 80 ps a
 * byte; 2 m of cable: 10 ns; IBA header sizes; a receiver's 6-byte FCP
 * goes out before anything it sends in answer, and a pending ACK goes
 * before a new request). With `connectx-4-edr` the results must land
 * within 10% of the published ConnectX-4 EDR figures in DESIGN.md.
 */
#include "check_common.h"

#include <math.h>

#include "hca/pair.h"
#include "hca/perftest.h"

#define PROP (10 * IBFS_NS)

static ibfs_time_t ser(uint64_t bytes)
{
	return bytes * 80;
}

static void run_qpt(const char *profile, int data_mode, enum ibfs_pt_test t,
		    uint32_t size, uint64_t iters, enum ibfs_qp_type qpt,
		    struct ibfs_pt_result *r)
{
	struct ibfs_hca_pair x;
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = profile,
					.data_mode = data_mode};
	ck_assert_int_eq(ibfs__hca_pair_new(&x, &cfg, &d), 0);
	struct ibfs_pt_cfg c = {.test = t, .size = size, .iters = iters,
				.inline_max = 236, .qpt = qpt};
	ck_assert_msg(ibfs__perftest_run(x.h[0], x.h[1], &x.dx, &c, r, &d) ==
			      0, "%s", d.msg);
	ibfs__hca_pair_free(&x);
}

static void run(const char *profile, int data_mode, enum ibfs_pt_test t,
		uint32_t size, uint64_t iters, struct ibfs_pt_result *r)
{
	run_qpt(profile, data_mode, t, size, iters, IBFS_QPT_RC, r);
}

START_TEST(ideal_ud_send_lat_closed_form)
{
	struct ibfs_pt_result r;
	run_qpt("ideal", 1, IBFS_PT_SEND_LAT, 32, 100, IBFS_QPT_UD, &r);
	/* UD SEND Only: DETH, 32 B: 66 wire bytes; no ACKs. Each side
	 * frees the packet it got (FCP) before it answers; the client's
	 * first SEND has no FCP ahead of it. */
	ibfs_time_t one = ser(66) + PROP;
	ck_assert_uint_eq(r.elapsed_ps,
			  (2 * one + ser(6)) + 99 * 2 * (one + ser(6)));
	ck_assert_double_eq_tol(r.t_typical, (double)(one + ser(6)) / 1e6,
				1e-9);
}
END_TEST

START_TEST(uc_write_lat_runs)
{
	struct ibfs_pt_result r, rc;
	run_qpt("ideal", 1, IBFS_PT_WRITE_LAT, 64, 50, IBFS_QPT_UC, &r);
	run("ideal", 1, IBFS_PT_WRITE_LAT, 64, 50, &rc);
	/* Without ACKs UC's write ping-pong is never slower than RC's. */
	ck_assert_uint_le(r.elapsed_ps, rc.elapsed_ps);
	/* One way: WRITE Only (RETH, 64 B, 106 B) and the FCP before it. */
	ck_assert_double_eq_tol(r.t_typical,
				(double)(ser(106) + PROP + ser(6)) / 1e6, 1e-9);
}
END_TEST

START_TEST(ideal_send_lat_closed_form)
{
	struct ibfs_pt_result r;
	run("ideal", 1, IBFS_PT_SEND_LAT, 32, 100, &r);
	/* SEND Only, 32 B: 8+12+32+4+2 = 58 wire bytes; ACK 30. */
	ibfs_time_t one = ser(58) + PROP;
	/* First trip: the server's FCP, then its SEND. Later trips: the
	 * FCP, the ACK of the SEND just received, then the SEND. */
	ibfs_time_t first = 2 * one + ser(6) + ser(30);
	ibfs_time_t half = one + ser(6) + ser(30);
	ck_assert_uint_eq(r.elapsed_ps, first + 99 * 2 * half);
	ck_assert_double_eq_tol(r.t_min, (double)first / 2 / 1e6, 1e-9);
	ck_assert_double_eq_tol(r.t_max, (double)half / 1e6, 1e-9);
	ck_assert_double_eq_tol(r.t_typical, (double)half / 1e6, 1e-9);
}
END_TEST

START_TEST(ideal_read_lat_closed_form)
{
	struct ibfs_pt_result r;
	run("ideal", 1, IBFS_PT_READ_LAT, 64, 50, &r);
	/* Request: RETH, 42 B; FCP; response Only: AETH + 64 B = 94 B.
	 * The client frees the response (FCP) before the next request. */
	ibfs_time_t first = ser(42) + PROP + ser(6) + ser(94) + PROP;
	ibfs_time_t next = ser(6) + first;
	ck_assert_uint_eq(r.elapsed_ps, first + 49 * next);
	ck_assert_double_eq_tol(r.t_min, (double)first / 1e6, 1e-9);
	ck_assert_double_eq_tol(r.t_max, (double)next / 1e6, 1e-9);
}
END_TEST

START_TEST(ideal_write_bw_is_the_wire)
{
	struct ibfs_pt_result r;
	run("ideal", 0, IBFS_PT_WRITE_BW, 65536, 2000, &r);
	/* Each 64 KiB message: 16 packets of 4096 B (26 B of headers each,
	 * RETH on the first), plus one FCP for the message's ACK. */
	ibfs_time_t msg = ser(16 * (4096 + 26) + 16 + 6);
	ck_assert_uint_ge(r.elapsed_ps, 2000 * msg);
	ck_assert_uint_le(r.elapsed_ps, 2000 * msg + 1 * IBFS_US);
	double gbps = 65536.0 * 8 / ((double)msg / 1e12) / 1e9;
	ck_assert_double_eq_tol(r.bw_avg_gbps, gbps, 0.05);
	ck_assert_double_eq_tol(r.msg_rate_mpps, 1e6 / ((double)msg / 1e6) /
							 1e6, 0.001);
}
END_TEST

START_TEST(data_off_same_times)
{
	struct ibfs_pt_result on, off;
	for (int t = 0; t < IBFS_PT_COUNT; t++) {
		uint32_t size = ibfs__pt_is_bw(t) ? 10000 : 300;
		run("connectx-4-edr", 1, t, size, 50, &on);
		run("connectx-4-edr", 0, t, size, 50, &off);
		ck_assert_msg(on.elapsed_ps == off.elapsed_ps,
			      "%s: %llu != %llu",
			      ibfs__pt_test_name(t),
			      (unsigned long long)on.elapsed_ps,
			      (unsigned long long)off.elapsed_ps);
	}
}
END_TEST

static void near(double got, double want, const char *what)
{
	ck_assert_msg(fabs(got - want) <= 0.10 * want,
		      "%s: %.3f, published %.3f", what, got, want);
}

START_TEST(connectx4_edr_calibration)
{
	struct ibfs_pt_result r;
	/* DESIGN.md: ib_send_lat 32 B 0.81-0.83 us, 1 KB 1.55, 4 KB 2.26
	 * [Potter 2018]; ib_write_lat 0.93 us inline; ib_read_lat 1.91 us
	 * [perftest issue 131]; ib_write_bw 11,728 MB/s [issue 225]. */
	run("connectx-4-edr", 1, IBFS_PT_SEND_LAT, 32, 200, &r);
	near(r.t_typical, 0.82, "send_lat 32 B");
	run("connectx-4-edr", 1, IBFS_PT_SEND_LAT, 1024, 200, &r);
	near(r.t_typical, 1.55, "send_lat 1 KiB");
	run("connectx-4-edr", 1, IBFS_PT_SEND_LAT, 4096, 200, &r);
	near(r.t_typical, 2.26, "send_lat 4 KiB");
	run("connectx-4-edr", 1, IBFS_PT_WRITE_LAT, 32, 200, &r);
	near(r.t_typical, 0.93, "write_lat 32 B");
	run("connectx-4-edr", 1, IBFS_PT_READ_LAT, 32, 200, &r);
	near(r.t_typical, 1.91, "read_lat 32 B");
	run("connectx-4-edr", 0, IBFS_PT_WRITE_BW, 65536, 2000, &r);
	near(r.bw_avg_gbps, 11728e6 * 8 / 1e9, "write_bw 64 KiB");
	/* ib_send_lat UD 0.86 us [Potter 2018]. */
	run_qpt("connectx-4-edr", 1, IBFS_PT_SEND_LAT, 32, 200, IBFS_QPT_UD,
		&r);
	near(r.t_typical, 0.86, "send_lat UD 32 B");
	/* One QP, 2-byte writes: ~2.6 M messages/s (DESIGN.md). The wire
	 * would carry 46-byte packets at 270 M/s: the HCA's rate decides,
	 * one WQE every wqe_gap (385 ns), exactly once the queue is full. */
	run("connectx-4-edr", 0, IBFS_PT_WRITE_BW, 2, 20000, &r);
	near(r.msg_rate_mpps, 2.6, "write_bw 2 B message rate");
	ck_assert_double_eq_tol(r.msg_rate_mpps, 1e3 / 385.0, 0.005);
}
END_TEST

/* Runs perftest with c on the pair x and checks that it is refused with
 * the message msg. */
static void refused(struct ibfs_hca_pair *x, const struct ibfs_pt_cfg *c,
		    const char *msg)
{
	struct ibfs_pt_result r;
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__perftest_run(x->h[0], x->h[1], &x->dx, c, &r,
					    &d),
			 -1);
	ck_assert_str_eq(d.msg, msg);
}

START_TEST(bad_parameters)
{
	struct ibfs_hca_pair x;
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal"};
	ck_assert_int_eq(ibfs__hca_pair_new(&x, &cfg, &d), 0);
	struct ibfs_pt_cfg c = {.test = IBFS_PT_SEND_LAT, .size = 2};
	refused(&x, &c, "perftest: iterations must be 1 to 100000000");
	c.iters = 5;
	c.test = IBFS_PT_WRITE_LAT;
	c.size = 0;
	refused(&x, &c, "perftest: write_lat needs at least one byte");
	/* A cut cable: the run fails with the transport's status. */
	ibfs__fabric_port(x.f, 0, 1)->up = 0;
	c.test = IBFS_PT_READ_LAT;
	c.size = 8;
	refused(&x, &c, "perftest: send completion: transport retry counter "
			"exceeded");
	c.qpt = IBFS_QPT_UD;
	ibfs__fabric_port(x.f, 0, 1)->up = 1;
	refused(&x, &c, "perftest: read_lat does not run over UD");
	c.test = IBFS_PT_SEND_LAT;
	c.size = 4097;
	refused(&x, &c, "perftest: UD messages are at most one MTU (4096 "
			"bytes)");
	ck_assert_int_eq(ibfs__pt_test_parse("read_bw"), IBFS_PT_READ_BW);
	ck_assert_int_eq(ibfs__pt_test_parse("read"), -1);
	ibfs__hca_pair_free(&x);
}
END_TEST

static Suite *perftest_suite(void)
{
	Suite *s = suite_create("hca_perftest");
	TCase *tc = tcase_create("perftest");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, ideal_send_lat_closed_form);
	tcase_add_test(tc, ideal_ud_send_lat_closed_form);
	tcase_add_test(tc, uc_write_lat_runs);
	tcase_add_test(tc, ideal_read_lat_closed_form);
	tcase_add_test(tc, ideal_write_bw_is_the_wire);
	tcase_add_test(tc, data_off_same_times);
	tcase_add_test(tc, connectx4_edr_calibration);
	tcase_add_test(tc, bad_parameters);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(perftest_suite)
