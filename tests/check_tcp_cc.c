/* SPDX-License-Identifier: MIT */
/*
 * The congestion controls (src/transport/tcp_cc_*.c) through their ops
 * table, and DCTCP's once-a-window reduction on the pair.
 *
 * CUBIC (RFC 9438, C = 0.4, beta = 0.7): W(t) = C (t - K)^3 + W_max, K =
 * cbrt(W_max (1 - beta) / C). W_max = 36 segments: K = cbrt(27) = 3 s;
 *   t    0     1     2     3     4     5
 *   W  25.2  32.8  35.6  36.0  36.4  39.2
 * (0.4 x -27 + 36, 0.4 x -8 + 36, 0.4 x -1 + 36, 36, 0.4 + 36, 3.2 + 36).
 * W_max = 100: K = cbrt(75) = 4.2171633265...
 *
 * Through the ops, MSS 1000 bytes so that windows are exact: cwnd 36,000
 * at a loss gives ssthresh = cwnd = 0.7 x 36,000 = 25,200 (25.2 segments)
 * and W_max = 36, K = 3. SRTT 100 ms.
 *   The first ACK (1,000 bytes) opens the epoch at t = 0: W_est (RFC 9438
 *   4.3) = 25.2 + alpha / 25.2, alpha = 3 (1 - 0.7) / (1 + 0.7) =
 *   0.5294..., so 25.2210084 > W(0) = 25.2: the Reno-friendly region,
 *   cwnd = W_est = 25,221 bytes.
 *   An ACK at t = 1 s: W(1) = 32.8 > W_est: the target is W(1 + 0.1) =
 *   0.4 x (-1.9)^3 + 36 = 33.2564, and cwnd grows by (33.2564 - 25.221) /
 *   25.221 x 1,000 = 318.5996 bytes: 25,539 (the fraction carried).
 * Fast convergence (4.7): a loss at cwnd 80 segments below W_max = 100
 * sets W_max = 80 (1 + 0.7) / 2 = 68; one at 90 above 68, W_max = 90.
 * With RTT 1 ms and an ACK a segment, W_est grows alpha segments an RTT
 * until it passes cwnd_prior (36), then 1 (4.3): from 25.2, 36 after
 * (36 - 25.2) / 0.5294 = 20.4 RTTs, so 36 + 79.6 = 115.6 after 100 in
 * the continuous form (RFC 9438 eq. 4); the ACKs of an RTT count whole
 * segments of a growing cwnd, so the test allows 2 %.
 * With RTT 1 s, W_est stays below W(t): cwnd follows the table, a little
 * behind (each ACK moves it (target - cwnd) / cwnd toward a target one
 * RTT ahead): within 7 % at t = 1..5 s, concave before K, past W_max
 * between 3 and 4 s, convex after.
 *
 * DCTCP (RFC 8257, g = 1/16, alpha from 1): a window with a quarter of
 * its bytes marked gives alpha = 15/16 + 1/16 x 1/4 = 0.953125; then one
 * with none, 0.953125 x 15/16 = 0.8935546875; then one all marked,
 * 0.8935546875 x 15/16 + 1/16 = 0.90020751953125. cwnd 128 x 1448 =
 * 185,344 with alpha 0.953125: cwnd (1 - alpha / 2) = 185,344 x 67 / 128
 * = 97,016.
 */
#include "check_common.h"

#include <math.h>

#include "check_tcp_pair.h"
#include "transport/tcp_int.h"

static ibfs_time_t clock_now;

static ibfs_time_t lone_now(void *h)
{
	(void)h;
	return clock_now;
}

static void lone_send(void *h, const struct ibfs_tcp_seg *s)
{
	(void)h;
	(void)s;
}

static void lone_timer(void *h, enum ibfs_tcp_timer k, ibfs_time_t at)
{
	(void)h;
	(void)k;
	(void)at;
}

static void lone_cancel(void *h, enum ibfs_tcp_timer k)
{
	(void)h;
	(void)k;
}

static void lone_deliver(void *h, uint64_t b)
{
	(void)h;
	(void)b;
}

static const struct ibfs_tcp_host_ops lone_ops = {
	.now = lone_now,
	.send_segment = lone_send,
	.timer_set = lone_timer,
	.timer_cancel = lone_cancel,
	.deliver = lone_deliver,
};

static struct ibfs_tcp *lone(const struct ibfs_tcp_cc_ops *cc, uint32_t mss)
{
	struct ibfs_tcp_config c;
	struct ibfs_tcp *tp;

	ibfs__tcp_config_default(&c);
	c.cc = cc;
	clock_now = 0;
	tp = ibfs__tcp_create(&c, &lone_ops, NULL);
	tp->snd_mss = mss;
	return tp;
}

START_TEST(cubic_table)
{
	static const double w[6] = { 25.2, 32.8, 35.6, 36.0, 36.4, 39.2 };
	double k = ibfs__cubic_k(36);
	int t;

	ck_assert_double_eq_tol(k, 3.0, 1e-12);
	for (t = 0; t <= 5; t++)
		ck_assert_double_eq_tol(ibfs__cubic_w(36, k, t), w[t], 1e-9);
	ck_assert_double_eq_tol(ibfs__cubic_k(100), 4.2171633265, 1e-9);
}
END_TEST

START_TEST(cubic_reduction)
{
	struct ibfs_tcp *tp = lone(&ibfs__tcp_cubic, 1000);

	tp->cwnd = 100000;
	ibfs__tcp_cubic.enter_recovery(tp);
	ck_assert_uint_eq(tp->ssthresh, 70000);
	ck_assert_uint_eq(tp->cwnd, 70000);
	ck_assert_double_eq_tol(tp->ccs.cubic.w_max, 100, 1e-9);
	tp->cwnd = 80000;
	ibfs__tcp_cubic.enter_recovery(tp);
	ck_assert_double_eq_tol(tp->ccs.cubic.w_max, 68, 1e-9);
	ck_assert_uint_eq(tp->cwnd, 56000);
	tp->cwnd = 90000;
	ibfs__tcp_cubic.on_rto(tp);
	ck_assert_double_eq_tol(tp->ccs.cubic.w_max, 90, 1e-9);
	ck_assert_uint_eq(tp->ssthresh, 63000);
	ck_assert_uint_eq(tp->cwnd, 1000); /* RFC 9438 4.8 */
	/* NewReno halves FlightSize instead (RFC 5681 eq. 4). */
	ibfs__tcp_free(tp);
	tp = lone(&ibfs__tcp_newreno, 1000);
	tp->cwnd = 100000;
	tp->snd_una = 5000;
	tp->snd_nxt = 105000;
	ibfs__tcp_newreno.enter_recovery(tp);
	ck_assert_uint_eq(tp->ssthresh, 50000);
	ck_assert_uint_eq(tp->cwnd, 50000);
	ibfs__tcp_free(tp);
}
END_TEST

START_TEST(cubic_ack_steps)
{
	struct ibfs_tcp *tp = lone(&ibfs__tcp_cubic, 1000);

	tp->srtt = 100 * IBFS_MS;
	tp->cwnd = 36000;
	ibfs__tcp_cubic.enter_recovery(tp);
	ck_assert_uint_eq(tp->cwnd, 25200);
	clock_now = 10 * IBFS_S;
	ibfs__tcp_cubic.on_ack(tp, 1000, 0);
	ck_assert_double_eq_tol(tp->ccs.cubic.k, 3.0, 1e-9);
	ck_assert_uint_eq(tp->cwnd, 25221);
	clock_now = 11 * IBFS_S;
	ibfs__tcp_cubic.on_ack(tp, 1000, 0);
	ck_assert_uint_eq(tp->cwnd, 25221 + 318);
	ibfs__tcp_free(tp);
}
END_TEST

/* One RTT: an ACK of one segment for each segment of cwnd, evenly. */
static void one_rtt(struct ibfs_tcp *tp, ibfs_time_t rtt)
{
	uint64_t n = tp->cwnd / tp->snd_mss, i;
	ibfs_time_t start = clock_now;

	for (i = 0; i < n; i++) {
		clock_now = start + rtt * (i + 1) / n;
		ibfs__tcp_cubic.on_ack(tp, tp->snd_mss, rtt);
	}
	clock_now = start + rtt;
}

START_TEST(cubic_reno_friendly)
{
	struct ibfs_tcp *tp = lone(&ibfs__tcp_cubic, 1000);
	int r;

	tp->srtt = IBFS_MS;
	tp->cwnd = 36000;
	ibfs__tcp_cubic.enter_recovery(tp);
	for (r = 0; r < 100; r++)
		one_rtt(tp, IBFS_MS);
	ck_assert_double_eq_tol((double)tp->cwnd / 1000, 115.6, 0.02 * 115.6);
	/* The cubic curve alone would give W(0.1 s) = 26.24. */
	ck_assert_double_lt(ibfs__cubic_w(36, 3, 0.1), 26.3);
	ibfs__tcp_free(tp);
}
END_TEST

START_TEST(cubic_concave_convex)
{
	static const double w[6] = { 25.2, 32.8, 35.6, 36.0, 36.4, 39.2 };
	struct ibfs_tcp *tp = lone(&ibfs__tcp_cubic, 1000);
	double c[6];
	int t;

	tp->srtt = IBFS_S;
	tp->cwnd = 36000;
	ibfs__tcp_cubic.enter_recovery(tp);
	c[0] = 25.2;
	/* The epoch opens with the first ACK, at 0. */
	for (t = 1; t <= 5; t++) {
		one_rtt(tp, IBFS_S);
		c[t] = (double)tp->cwnd / 1000;
		ck_assert_double_eq_tol(c[t], w[t], 0.07 * w[t]);
	}
	/* Concave up to W_max, which it passes between 3 and 4 s, then
	 * convex. */
	ck_assert_double_gt(c[2] - c[1], c[3] - c[2]);
	ck_assert_double_lt(c[3], 36);
	ck_assert_double_gt(c[4], 36);
	ck_assert_double_gt(c[5] - c[4], c[4] - c[3]);
	ibfs__tcp_free(tp);
}
END_TEST

/* n ACKs of 1448 bytes each, the first `marked` with ECE. */
static void dctcp_acks(struct ibfs_tcp *tp, int n, int marked)
{
	int i;

	for (i = 0; i < n; i++) {
		tp->snd_una += 1448;
		ibfs__tcp_dctcp.ack_ecn(tp, 1448, i < marked);
	}
}

START_TEST(dctcp_alpha)
{
	struct ibfs_tcp *tp = lone(&ibfs__tcp_dctcp, 1448);

	tp->snd_nxt = 100 * 1448;
	ibfs__tcp_dctcp.init(tp);
	ck_assert_double_eq(tp->ccs.dctcp.alpha, 1.0);
	tp->snd_nxt = 200 * 1448;
	dctcp_acks(tp, 99, 25);
	ck_assert_double_eq(tp->ccs.dctcp.alpha, 1.0); /* window not over */
	dctcp_acks(tp, 1, 0);
	ck_assert_double_eq(tp->ccs.dctcp.alpha, 0.953125);
	tp->cwnd = 128 * 1448;
	ibfs__tcp_dctcp.on_ecn(tp);
	ck_assert_uint_eq(tp->cwnd, 97016);
	ck_assert_uint_eq(tp->ssthresh, 97016);
	tp->snd_nxt = 300 * 1448;
	dctcp_acks(tp, 100, 0);
	ck_assert_double_eq(tp->ccs.dctcp.alpha, 0.8935546875);
	dctcp_acks(tp, 100, 100);
	ck_assert_double_eq(tp->ccs.dctcp.alpha, 0.90020751953125);
	ibfs__tcp_free(tp);
}
END_TEST

/* DCTCP on the pair: reductions are counted with the snd_una and snd_nxt
 * they happened at. */
static struct ibfs_tcp_cc_ops dctcp_counted;
static uint64_t red_una[64], red_nxt[64];
static int nred;

static void counted_on_ecn(struct ibfs_tcp *tp)
{
	if (nred < 64) {
		red_una[nred] = tp->snd_una;
		red_nxt[nred] = tp->snd_nxt;
	}
	nred++;
	ibfs__tcp_dctcp.on_ecn(tp);
}

static int mark_range(struct tcp_pair *p, int from,
		      const struct ibfs_tcp_seg *s, uint64_t nth)
{
	(void)p;
	(void)s;
	return from == 0 && nth >= 100 && nth < 400;
}

/*
 * 1,000 segments over 10 Gb/s, 10 us one way, with A's payload frames
 * 100-399 marked CE: B echoes each mark (RFC 8257 3.2); A reduces at
 * most once a window: each reduction comes after everything sent at the
 * one before is acknowledged (RFC 3168 6.1.2, RFC 8257 3.3); no
 * reduction once the marks stop and their window is over; ECT(0) on
 * new data, CWR on the first new segment after each reduction.
 */
START_TEST(dctcp_once_a_window)
{
	struct ibfs_tcp_config c;
	struct tcp_pair p;
	size_t i, ece = 0, cwr = 0, ect = 0;
	int k;

	dctcp_counted = ibfs__tcp_dctcp;
	dctcp_counted.on_ecn = counted_on_ecn;
	nred = 0;
	tp_config(&c, 1460);
	c.ecn = 1;
	c.cc = &dctcp_counted;
	tp_init(&p, &c, &c, 10 * IBFS_US, 800);
	p.mark = mark_range;
	tp_open(&p);
	ibfs__tcp_app_send(p.end[0].tcp, 1000 * 1448);
	tp_run(&p, 10 * IBFS_S);
	ck_assert_uint_eq(p.end[1].delivered, 1000 * 1448);
	ck_assert_int_ge(nred, 2);
	ck_assert_int_le(nred, 64);
	for (k = 1; k < nred; k++)
		ck_assert_uint_gt(red_una[k], red_nxt[k - 1]);
	/* No reduction after the window that held the last mark. */
	ck_assert_uint_le(red_una[nred - 1], 400 * 1448);
	for (i = 0; i < p.nlog; i++) {
		const struct ibfs_tcp_seg *s = &p.log[i].seg;

		if (p.log[i].from == 1 && (s->flags & IBFS_TCP_ECE) &&
		    !(s->flags & IBFS_TCP_SYN))
			ece++;
		if (p.log[i].from == 0 && s->len) {
			ect += s->ecn == IBFS_ECN_ECT0 || s->ecn == IBFS_ECN_CE;
			cwr += !!(s->flags & IBFS_TCP_CWR);
		}
	}
	ck_assert_uint_gt(ece, 0);
	ck_assert_uint_eq(cwr, (size_t)nred);
	ck_assert_uint_eq(ect, 1000);
	tp_free(&p);
}
END_TEST

/* RFC 3168 under CUBIC: three frames marked; B latches ECE from the ACK
 * of the first until A's CWR reaches it; A reduces once. */
static struct ibfs_tcp_cc_ops cubic_counted;
static int ncubic;

static void cubic_counted_ecn(struct ibfs_tcp *tp)
{
	ncubic++;
	ibfs__tcp_cubic.on_ecn(tp);
}

static int mark_three(struct tcp_pair *p, int from,
		      const struct ibfs_tcp_seg *s, uint64_t nth)
{
	(void)p;
	(void)s;
	return from == 0 && nth >= 50 && nth <= 52;
}

START_TEST(ecn_classic)
{
	struct ibfs_tcp_config a, b;
	struct tcp_pair p;
	uint32_t cwr_seq = 0;
	size_t i, cwr = 0;
	int latched = 0, seen_cwr = 0;

	cubic_counted = ibfs__tcp_cubic;
	cubic_counted.on_ecn = cubic_counted_ecn;
	ncubic = 0;
	tp_config(&a, 1460);
	tp_config(&b, 1460);
	a.ecn = b.ecn = 1;
	a.cc = b.cc = &cubic_counted;
	b.delack = 0;
	tp_init(&p, &a, &b, 10 * IBFS_US, 800);
	p.mark = mark_three;
	tp_open(&p);
	ibfs__tcp_app_send(p.end[0].tcp, 300 * 1448);
	tp_run(&p, 10 * IBFS_S);
	ck_assert_uint_eq(p.end[1].delivered, 300 * 1448);
	ck_assert_int_eq(ncubic, 1);
	for (i = 0; i < p.nlog; i++) {
		const struct ibfs_tcp_seg *s = &p.log[i].seg;

		if (p.log[i].from == 0 && (s->flags & IBFS_TCP_CWR) &&
		    s->len) {
			cwr++;
			cwr_seq = s->seq;
		}
	}
	ck_assert_uint_eq(cwr, 1);
	for (i = 0; i < p.nlog; i++) {
		const struct ibfs_tcp_seg *s = &p.log[i].seg;
		int ece = !!(s->flags & IBFS_TCP_ECE);

		if (p.log[i].from != 1 || (s->flags & IBFS_TCP_SYN))
			continue;
		if (!latched && ece) {
			latched = 1;
			ck_assert_uint_eq(s->ack, 1 + 50 * 1448);
		}
		/* The ACK of the CWR segment is the first without. */
		if ((int32_t)(s->ack - cwr_seq) > 0)
			seen_cwr = 1;
		if (latched && !seen_cwr)
			ck_assert_int_eq(ece, 1);
		if (seen_cwr)
			ck_assert_int_eq(ece, 0);
	}
	ck_assert_int_eq(latched && seen_cwr, 1);
	tp_free(&p);
}
END_TEST

static Suite *tcp_cc_suite(void)
{
	Suite *s = suite_create("tcp_cc");
	TCase *tc = tcase_create("cc");

	tcase_add_test(tc, cubic_table);
	tcase_add_test(tc, cubic_reduction);
	tcase_add_test(tc, cubic_ack_steps);
	tcase_add_test(tc, cubic_reno_friendly);
	tcase_add_test(tc, cubic_concave_convex);
	tcase_add_test(tc, dctcp_alpha);
	tcase_add_test(tc, dctcp_once_a_window);
	tcase_add_test(tc, ecn_classic);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(tcp_cc_suite)
