/* SPDX-License-Identifier: MIT */
/*
 * perftest's loops on two HCAs back to back. With the `ideal` profile the
 * results are computed here in closed form from the link (4x EDR: 80 ps a
 * byte; 2 m of cable: 10 ns; IBA header sizes; a receiver's 6-byte FCP
 * goes out before anything it sends in answer, and a pending ACK goes
 * before a new request). With `connectx-4-edr` the results must land
 * within 10% of the published ConnectX-4 EDR figures (docs/fidelity.md,
 * "Reference figures": Potter, MSc thesis RWTH 2018; perftest GitHub
 * issues 131 and 225).
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
				.qpt = qpt};
	ck_assert_msg(ibfs__perftest_run(x.h[0], x.h[1], &x.dx, &c, r, &d) ==
			      0, "%s", d.msg);
	ibfs__hca_pair_free(&x);
}

/* Runs c on a fresh back-to-back pair of HCAs with the given profile. */
static void run_cfg(const char *profile, const struct ibfs_pt_cfg *c,
		    struct ibfs_pt_result *r)
{
	struct ibfs_hca_pair x;
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = profile, .data_mode = 1};
	ck_assert_int_eq(ibfs__hca_pair_new(&x, &cfg, &d), 0);
	ck_assert_msg(ibfs__perftest_run(x.h[0], x.h[1], &x.dx, c, r, &d) ==
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

START_TEST(ideal_write_bw_tx_depth_1)
{
	/* perftest -t 1: one 2-byte WRITE at a time. WRITE Only: RETH, 46
	 * wire bytes; the server's FCP, then its ACK (30 B); the client
	 * frees the ACK (FCP) before its next WRITE. */
	struct ibfs_pt_cfg c = {.test = IBFS_PT_WRITE_BW, .size = 2,
				.iters = 100, .tx_depth = 1};
	struct ibfs_pt_result r;
	run_cfg("ideal", &c, &r);
	ibfs_time_t trip = ser(46) + PROP + ser(6) + ser(30) + PROP;
	ck_assert_uint_eq(r.elapsed_ps, 100 * trip + 99 * ser(6));
}
END_TEST

START_TEST(ideal_write_bw_mtu_512)
{
	/* perftest -m 512: 128 packets a 64 KiB message (26 B of headers,
	 * RETH on the first); an ACK every 16 packets (the profile's
	 * ack_every), each freed by an FCP on the data's link. */
	struct ibfs_pt_cfg c = {.test = IBFS_PT_WRITE_BW, .size = 65536,
				.iters = 2000, .mtu = 512};
	struct ibfs_pt_result r;
	run_cfg("ideal", &c, &r);
	ibfs_time_t msg = ser(128 * (512 + 26) + 16 + 8 * 6);
	ck_assert_uint_ge(r.elapsed_ps, 2000 * msg);
	ck_assert_uint_le(r.elapsed_ps, 2000 * msg + 1 * IBFS_US);
}
END_TEST

START_TEST(ideal_write_bw_bidirectional)
{
	/* perftest -b: both sides write; the figures are the sums. Each
	 * link carries a side's 64 KiB messages (16 packets), the ACK of
	 * each of the other side's, and 17 FCPs: one for each packet and
	 * ACK that came the other way. */
	struct ibfs_pt_cfg c = {.test = IBFS_PT_WRITE_BW, .size = 65536,
				.iters = 2000, .bidir = 1};
	struct ibfs_pt_result r, uni;
	run_cfg("ideal", &c, &r);
	c.bidir = 0;
	run_cfg("ideal", &c, &uni);
	ibfs_time_t msg = ser(16 * (4096 + 26) + 16 + 30 + 17 * 6);
	double side = 65536.0 * 8 / ((double)msg / 1e12) / 1e9;
	ck_assert_double_eq_tol(r.bw_avg_gbps, 2 * side, 2 * side * 5e-4);
	ck_assert_double_eq_tol(r.msg_rate_mpps, 2 * uni.msg_rate_mpps,
				2 * uni.msg_rate_mpps * 5e-3);
	ck_assert_uint_eq(r.iters, 2000);
}
END_TEST

START_TEST(qps_add_message_rate)
{
	/* perftest -q 8: each QP begins a WQE every wqe_gap (385 ns), and
	 * 2-byte writes leave the wire far from full: 8 / 385 ns. */
	struct ibfs_pt_cfg c = {.test = IBFS_PT_WRITE_BW, .size = 2,
				.iters = 2000, .nqps = 8};
	struct ibfs_pt_result r;
	run_cfg("connectx-4-edr", &c, &r);
	ck_assert_double_eq_tol(r.msg_rate_mpps, 8e3 / 385.0,
				8e3 / 385.0 * 5e-3);
	ck_assert_uint_eq(r.iters, 2000); /* a QP, as perftest prints */
}
END_TEST

START_TEST(inline_sizes)
{
	/* A message sent without inline adds the gather read (dma_read,
	 * 390 ns) and its bytes over PCIe (93.8 Gb/s) each way: half a
	 * round trip longer by exactly that. */
	const struct ibfs_hca_profile *p = ibfs__hca_profile("connectx-4-edr");
	struct ibfs_pt_cfg c = {.test = IBFS_PT_SEND_LAT, .size = 200,
				.iters = 100};
	struct ibfs_pt_result inl, not;
	run_cfg("connectx-4-edr", &c, &inl); /* perftest's 236 */
	c.have_inline = 1;                   /* -I 0 */
	run_cfg("connectx-4-edr", &c, &not);
	double extra = ((double)p->dma_read + 200 * 8e12 / 93.8e9) / 1e6;
	ck_assert_double_eq_tol(not.t_typical - inl.t_typical, extra, 1e-6);
	/* write_lat's default is 220 bytes (DEF_INLINE_WRITE): 221 is not
	 * inline unless -I says so. */
	c = (struct ibfs_pt_cfg){.test = IBFS_PT_WRITE_LAT, .size = 221,
				 .iters = 100};
	run_cfg("connectx-4-edr", &c, &not);
	c.have_inline = 1;
	c.inline_size = 221;
	run_cfg("connectx-4-edr", &c, &inl);
	extra = ((double)p->dma_read + 221 * 8e12 / 93.8e9) / 1e6;
	ck_assert_double_eq_tol(not.t_typical - inl.t_typical, extra, 1e-6);
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
	/* docs/fidelity.md, "Reference figures": ib_send_lat 32 B 0.81-0.83
	 * us, 1 KB 1.55, 4 KB 2.26 [Potter 2018]; ib_write_lat 0.93 us
	 * inline; ib_read_lat 1.91 us [perftest issue 131]; ib_write_bw
	 * 11,728 MB/s [issue 225]. */
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
	/* One QP, 2-byte writes: ~2.6 M messages/s (docs/fidelity.md,
	 * "Reference figures"). The wire would carry 46-byte packets at 270
	 * M/s: the HCA's rate decides, one WQE every wqe_gap (385 ns),
	 * exactly once the queue is full. */
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
	c.size = 1025;
	c.mtu = 1024;
	refused(&x, &c, "perftest: UD messages are at most one MTU (1024 "
			"bytes)");
	c.mtu = 768;
	refused(&x, &c, "perftest: MTU must be 256, 512, 1024, 2048 or 4096");
	c = (struct ibfs_pt_cfg){.test = IBFS_PT_SEND_LAT, .size = 2,
				 .iters = 5, .nqps = 2};
	refused(&x, &c, "perftest: -q and -b are for the bandwidth tests");
	c.nqps = 0;
	c.bidir = 1;
	refused(&x, &c, "perftest: -q and -b are for the bandwidth tests");
	c.bidir = 0;
	c.tx_depth = 4;
	refused(&x, &c, "perftest: -t is for the bandwidth tests");
	c = (struct ibfs_pt_cfg){.test = IBFS_PT_WRITE_BW, .size = 2,
				 .iters = 5, .nqps = IBFS_PT_MAX_QPS + 1};
	refused(&x, &c, "perftest: at most 16384 QPs and a tx depth of 15000");
	c.nqps = 1;
	c.have_inline = 1;
	c.inline_size = 257;
	refused(&x, &c, "perftest: inline size 257 is above the HCA's 256 "
			"(max_inline_data)");
	c.test = IBFS_PT_READ_BW;
	refused(&x, &c, "perftest: read_bw sends nothing inline (-I)");
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
	tcase_add_test(tc, ideal_write_bw_tx_depth_1);
	tcase_add_test(tc, ideal_write_bw_mtu_512);
	tcase_add_test(tc, ideal_write_bw_bidirectional);
	tcase_add_test(tc, qps_add_message_rate);
	tcase_add_test(tc, inline_sizes);
	tcase_add_test(tc, data_off_same_times);
	tcase_add_test(tc, connectx4_edr_calibration);
	tcase_add_test(tc, bad_parameters);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(perftest_suite)
