/* SPDX-License-Identifier: MIT */
/*
 * TIMELY (src/hca/cc_timely.c: Mittal et al., SIGCOMM 2015, Algorithm 1)
 * on two RoCEv2 RNICs back to back (roce_pair.h, 100 Gb/s): the rate
 * after RTT samples in each regime (below T_low, above T_high, gradient
 * positive and negative, HAI) against the hand calculation; the rate
 * limiter spacing a WRITE's packets; the settings refused.
 *
 * A sample is made as the transport would make it: the control is told
 * of a request packet whose last byte left now, the clock moves on by
 * the RTT (the pair is idle: nothing is scheduled), and an ACK of that
 * PSN reaches the control.
 */
#include "roce_pair.h"

#include "hca/cc_timely.h"

static void set_timely(struct ibfs_hca *h)
{
	struct ibfs_timely_cfg c;

	ibfs__timely_defaults(&c);
	ck_assert_int_eq(ibfs__hca_set_timely(h, &c), 0);
}

/* One RTT sample of rtt ps on A's QP, for PSN psn. */
static void sample(uint32_t psn, ibfs_time_t rtt)
{
	struct ibfs_hca *h = P.h[0];
	struct ibfs_cc_tx tx = {.request = 1, .wire = 1000, .psn = psn};
	struct ibfs_packet *p;

	ck_assert_uint_eq(ibfs__eq_size(&P.f->eq), 0);
	h->cc->ops->sent(&h->hp[1], (struct ibfs_hca_qp *)A.qp, &tx, now());
	P.f->eq.now += rtt;
	p = ibfs__hca_packet(h, 0);
	ck_assert_ptr_nonnull(p);
	p->kind = IBFS_PKT_DATA;
	p->dlid = 1;
	p->dest_qp = A.qp->qp_num;
	p->opcode = IBFS_OP_ACK;
	p->aeth.syndrome = IBFS_AETH_ACK | 0x1f;
	p->psn = psn;
	p->xh = IBFS_XH_AETH;
	ck_assert_int_eq(h->cc->ops->rx(&h->hp[1], p), 0);
	ibfs__packet_free(P.f, p);
}

static double rate(void)
{
	return ibfs__timely_rate((const struct ibfs_hca_qp *)A.qp);
}

/*
 * From 100 Gb/s, delta = 10^11 / 1,000 = 10^8 b/s, alpha 0.875, beta
 * 0.8, T_low 50 us, T_high 500 us, minRTT 20 us (rtt_diff in ps):
 *  1. 600 us > T_high (the first: difference 0, rtt_diff 0):
 *     r1 = 10^11 x (1 - 0.8 x (1 - 500/600)) = 86,666,666,666.67
 *  2. 10 us < T_low: r2 = r1 + 10^8 = 86,766,666,666.67;
 *     rtt_diff = 0.875 x (10 - 600) us = -516,250,000
 *  3. 100 us: rtt_diff = 0.125 x -516,250,000 + 0.875 x 90,000,000
 *     = 14,218,750; gradient 14,218,750 / 20,000,000 = 0.7109375 > 0:
 *     r3 = r2 x (1 - 0.8 x 0.7109375) = r2 x 0.43125 = 37,418,125,000
 *  4. 100 us: rtt_diff = 1,777,343.75, gradient 0.0888671875:
 *     r4 = r3 x (1 - 0.8 x 0.0888671875) = 34,757,930,175.78
 *  5. 90 us: rtt_diff = 222,167.96875 - 8,750,000 = -8,527,832.03125,
 *     gradient < 0, the first in a row: r5 = r4 + 10^8
 *  6-8. 90 us: rtt_diff x 0.125 each, still < 0: + 10^8 each, so
 *     r8 = r4 + 4 x 10^8 = 35,157,930,175.78
 *  9. 90 us, the fifth in a row: HAI, r9 = r8 + 5 x 10^8
 *     = 35,657,930,175.78
 * 10. 95 us: rtt_diff = 0.125 x (-8,527,832.03125 x 0.125^4) + 0.875 x
 *     5,000,000 > 0: r10 = r9 x (1 - 0.8 x rtt_diff / 20,000,000).
 */
START_TEST(timely_regimes)
{
	static const ibfs_time_t rtt[10] = {600, 10, 100, 100, 90,
					    90,  90, 90,  90,  95};
	double r8 = 34757930175.78 + 4e8, d10;

	setup(0);
	set_timely(P.h[0]);
	ck_assert_double_eq(rate(), 1e11);
	for (int i = 0; i < 10; i++) {
		sample(100 + (uint32_t)i, rtt[i] * IBFS_US);
		ck_assert_uint_eq(ibfs__timely_last_rtt(
					  (const struct ibfs_hca_qp *)A.qp),
				  rtt[i] * IBFS_US);
		switch (i) {
		case 0:
			ck_assert_double_eq_tol(rate(), 86666666666.67, 0.01);
			break;
		case 1:
			ck_assert_double_eq_tol(rate(), 86766666666.67, 0.01);
			break;
		case 2:
			ck_assert_double_eq_tol(rate(), 37418125000, 0.01);
			break;
		case 3:
			ck_assert_double_eq_tol(rate(), 34757930175.78, 0.01);
			break;
		case 4:
			ck_assert_double_eq_tol(rate(), 34857930175.78, 0.01);
			break;
		case 7:
			ck_assert_double_eq_tol(rate(), r8, 0.01);
			break;
		case 8:
			ck_assert_double_eq_tol(rate(), r8 + 5e8, 0.01);
			break;
		default:
			break;
		}
	}
	d10 = 0.125 * (-8527832.03125 * 0.125 * 0.125 * 0.125 * 0.125) +
	      0.875 * 5e6;
	ck_assert_double_eq_tol(ibfs__timely_rtt_diff(
					(const struct ibfs_hca_qp *)A.qp),
				d10, 1e-6);
	ck_assert_double_eq_tol(rate(), (r8 + 5e8) * (1 - 0.8 * d10 / 2e7),
				0.01);
	teardown();
}
END_TEST

/*
 * A rising RTT lowers the rate each sample (gradient > 0 between T_low
 * and T_high, then the T_high branch), and the rate never falls below
 * the 1 Gb/s floor; a low RTT raises it by delta up to the port's rate.
 */
START_TEST(timely_rtt_rise_and_floor)
{
	double last = 1e11;

	setup(0);
	set_timely(P.h[0]);
	sample(100, 60 * IBFS_US);
	for (uint32_t i = 1; i < 40; i++) {
		sample(100 + i, (60 + 20 * i) * IBFS_US);
		ck_assert_double_lt(rate(), last);
		last = rate();
		if (last <= 1e9)
			break;
	}
	/* 10 samples far above T_high reach the floor. */
	for (uint32_t i = 0; i < 40; i++)
		sample(200 + i, 5000 * IBFS_US);
	ck_assert_double_eq(rate(), 1e9);
	for (uint32_t i = 0; i < 3; i++)
		sample(300 + i, 5 * IBFS_US);
	ck_assert_double_eq_tol(rate(), 1e9 + 3e8, 1e-3);
	teardown();
}
END_TEST

/*
 * The rate limiter. A 3-packet WRITE of 3 x 4,096 bytes at the rate r
 * left by one sample of 5 ms (r = 10^11 x (1 - 0.8 x (1 - 500/5000)) =
 * 2.8 x * 10^10 b/s): frame 1 (82 + 16 + 4,096 = 4,194 bytes) starts at once,
 * frame 2 (4,178 bytes) 4,194 x 8 / 2.8 x 10^10 s = 1,198,285.71 ps
 * after it (rounded down: 1,198,285), frame 3 4,178 x 8 / 2.8 x 10^10 =
 * 1,193,714.28 ps (1,193,714) after that; it ends 4,178 x 80 = 334,240
 * ps later and its ACK (the last packet asks for one) comes 10,000 +
 * 6,880 + 10,000 ps after: t0 + 1,198,285 + 1,193,714 + 334,240 +
 * 26,880.
 */
START_TEST(timely_rate_limiter)
{
	struct ibfs_wc wc;
	ibfs_time_t t0;

	setup(0);
	set_timely(P.h[0]);
	sample(50, 5000 * IBFS_US);
	ck_assert_double_eq_tol(rate(), 2.8e10, 1e-3);
	t0 = now();
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 3 * 4096, &B, 0);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), t0 + 1198285 + 1193714 + 334240 + 26880);
	ck_assert_mem_eq(B.buf, A.buf, 3 * 4096);
	teardown();
}
END_TEST

START_TEST(timely_settings_refused)
{
	struct ibfs_timely_cfg c, d;

	setup(0);
	ibfs__timely_defaults(&d);
	ck_assert_double_eq(d.alpha, 0.875);
	ck_assert_double_eq(d.beta, 0.8);
	ck_assert_uint_eq(d.t_low, 50 * IBFS_US);
	ck_assert_uint_eq(d.t_high, 500 * IBFS_US);
	ck_assert_uint_eq(d.min_rtt, 20 * IBFS_US);
	c = d;
	c.alpha = 0;
	ck_assert_int_eq(ibfs__hca_set_timely(P.h[0], &c), -1);
	c = d;
	c.beta = 1.5;
	ck_assert_int_eq(ibfs__hca_set_timely(P.h[0], &c), -1);
	c = d;
	c.min_rtt = 0;
	ck_assert_int_eq(ibfs__hca_set_timely(P.h[0], &c), -1);
	c = d;
	c.delta_bps = -1;
	ck_assert_int_eq(ibfs__hca_set_timely(P.h[0], &c), -1);
	ck_assert_ptr_null(P.h[0]->cc);
	ck_assert_double_eq(rate(), -1);
	teardown();
}
END_TEST

static Suite *cc_timely_suite(void)
{
	Suite *s = suite_create("cc_timely");
	TCase *tc = tcase_create("cc_timely");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, timely_regimes);
	tcase_add_test(tc, timely_rtt_rise_and_floor);
	tcase_add_test(tc, timely_rate_limiter);
	tcase_add_test(tc, timely_settings_refused);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(cc_timely_suite)
