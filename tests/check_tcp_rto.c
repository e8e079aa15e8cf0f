/* SPDX-License-Identifier: MIT */
/*
 * The retransmission timer (src/transport/tcp_rto.c, RFC 6298).
 *
 * Estimator, samples R in ps, G = 1 us unless said:
 *   R1 = 100 us: SRTT = R1 = 100,000,000; RTTVAR = R1 / 2 = 50,000,000;
 *     RTO = SRTT + max(G, 4 RTTVAR) = 300,000,000 (rto_min 1 us).
 *   R2 = 180 us: RTTVAR = 3/4 50,000,000 + 1/4 |100,000,000 -
 *     180,000,000| = 57,500,000; SRTT = 7/8 100,000,000 + 1/8
 *     180,000,000 = 110,000,000; RTO = 110,000,000 + 230,000,000 =
 *     340,000,000.
 *   R3 = 60 us: RTTVAR = (3 x 57,500,000 + 50,000,000) / 4 = 55,625,000;
 *     SRTT = (7 x 110,000,000 + 60,000,000) / 8 = 103,750,000; RTO =
 *     326,250,000.
 *   rto_min 200 ms: RFC 6298 2.4 clamps the sum: RTO = 200 ms; Linux
 *     floors the variance term: SRTT + 200 ms = 200,103,750,000.
 *   G = 1 ms above 4 RTTVAR: RTO = SRTT + 1 ms.
 *
 * On the pair (10 Gb/s, 800 ps a byte; 10 us one way; MSS 1448; ACK
 * for every segment): a data frame is 1538 bytes (1,230,400 ps), an ACK
 * 90 (72,000); t0 = 2 D + 2 x 98 x 800 = 20,156,800 is when data first
 * leaves; RTT0 = 1,230,400 + 72,000 + 2 D = 21,302,400.
 *
 * Backoff: every payload frame dropped, rto_min 1 ms (above the path's
 * RTO of 20 us + 4 x 10 us): the first segment is resent at t0 + 1, 3,
 * 7, 15 ms (the timer doubling, RFC 6298 5.5); with rto_max 5 ms, at
 * t0 + 1, 3, 7, 12, 17 ms.
 *
 * Tail loss: 20 segments, the 20th dropped. IW10, then each ACK sends
 * two: segments 11-20 leave back to back from t0 + RTT0, the 19th at t0
 * + RTT0 + 8 x 1,230,400; its ACK is back at t0 + 2 RTT0 + 8 x 1,230,400
 * = 72,604,800, which restarts the timer (RFC 6298 5.3). Nothing more
 * comes back: the 20th is resent when the timer expires, at 72,604,800 +
 * 200 ms = 200,072,604,800 with RFC 6298's clamp, or 72,604,800 + SRTT +
 * 200 ms under Linux's rule (its RTO on a steady path is SRTT + rto_min).
 * Linux would first send a tail-loss probe 2 SRTT after the last send
 * (RACK-TLP, RFC 8985), which is not modelled.
 */
#include "check_common.h"

#include "check_tcp_pair.h"
#include "transport/tcp_int.h"

#define RATE_10G 800
#define D10US (10 * IBFS_US)

static const ibfs_time_t t0 = 20156800;
static const ibfs_time_t ser = 1230400;

static ibfs_time_t null_now(void *h)
{
	(void)h;
	return 0;
}

static void null_send(void *h, const struct ibfs_tcp_seg *s)
{
	(void)h;
	(void)s;
}

static void null_timer(void *h, enum ibfs_tcp_timer k, ibfs_time_t at)
{
	(void)h;
	(void)k;
	(void)at;
}

static void null_cancel(void *h, enum ibfs_tcp_timer k)
{
	(void)h;
	(void)k;
}

static void null_deliver(void *h, uint64_t b)
{
	(void)h;
	(void)b;
}

static const struct ibfs_tcp_host_ops null_ops = {
	.now = null_now,
	.send_segment = null_send,
	.timer_set = null_timer,
	.timer_cancel = null_cancel,
	.deliver = null_deliver,
};

static struct ibfs_tcp *lone(enum ibfs_tcp_rto_style style,
			     ibfs_time_t rto_min, ibfs_time_t g)
{
	struct ibfs_tcp_config c;

	ibfs__tcp_config_default(&c);
	c.rto_style = style;
	c.rto_min = rto_min;
	c.clock_g = g;
	return ibfs__tcp_create(&c, &null_ops, NULL);
}

START_TEST(estimator)
{
	struct ibfs_tcp *tp = lone(IBFS_TCP_RTO_RFC, IBFS_US, IBFS_US);

	ck_assert_uint_eq(tp->rto, IBFS_S); /* RFC 6298 2.1 */
	ibfs__tcp_rtt_sample(tp, 100 * IBFS_US);
	ck_assert_uint_eq(tp->srtt, 100000000);
	ck_assert_uint_eq(tp->rttvar, 50000000);
	ck_assert_uint_eq(tp->rto, 300000000);
	ibfs__tcp_rtt_sample(tp, 180 * IBFS_US);
	ck_assert_uint_eq(tp->rttvar, 57500000);
	ck_assert_uint_eq(tp->srtt, 110000000);
	ck_assert_uint_eq(tp->rto, 340000000);
	ibfs__tcp_rtt_sample(tp, 60 * IBFS_US);
	ck_assert_uint_eq(tp->rttvar, 55625000);
	ck_assert_uint_eq(tp->srtt, 103750000);
	ck_assert_uint_eq(tp->rto, 326250000);
	/* Backoff doubles the timeout in force, up to rto_max. */
	tp->backoff = 3;
	ck_assert_uint_eq(ibfs__tcp_rto_now(tp), 8 * 326250000ull);
	tp->backoff = 40;
	ck_assert_uint_eq(ibfs__tcp_rto_now(tp), 120 * IBFS_S);
	ibfs__tcp_free(tp);
}
END_TEST

static void three_samples(struct ibfs_tcp *tp)
{
	ibfs__tcp_rtt_sample(tp, 100 * IBFS_US);
	ibfs__tcp_rtt_sample(tp, 180 * IBFS_US);
	ibfs__tcp_rtt_sample(tp, 60 * IBFS_US);
}

START_TEST(rto_min_and_g)
{
	struct ibfs_tcp *tp = lone(IBFS_TCP_RTO_RFC, 200 * IBFS_MS, IBFS_US);

	three_samples(tp);
	ck_assert_uint_eq(tp->rto, 200 * IBFS_MS);
	ibfs__tcp_free(tp);
	tp = lone(IBFS_TCP_RTO_LINUX, 200 * IBFS_MS, IBFS_US);
	three_samples(tp);
	ck_assert_uint_eq(tp->rto, 200103750000ull);
	ibfs__tcp_free(tp);
	/* Below rto_min both rules agree with RFC 6298's sum. */
	tp = lone(IBFS_TCP_RTO_LINUX, IBFS_US, IBFS_US);
	three_samples(tp);
	ck_assert_uint_eq(tp->rto, 326250000);
	ibfs__tcp_free(tp);
	tp = lone(IBFS_TCP_RTO_RFC, IBFS_US, IBFS_MS);
	three_samples(tp);
	ck_assert_uint_eq(tp->rto, 103750000 + IBFS_MS);
	ibfs__tcp_free(tp);
}
END_TEST

static int drop_data(struct tcp_pair *p, int from,
		     const struct ibfs_tcp_seg *s, uint64_t nth)
{
	(void)p;
	(void)s;
	return from == 0 && nth > 0;
}

static void backoff_run(ibfs_time_t rto_max, const ibfs_time_t *at, int n)
{
	struct ibfs_tcp_config c;
	struct tcp_pair p;
	struct ibfs_tcp_info ia;
	int k;

	tp_config(&c, 1460);
	c.rto_min = IBFS_MS;
	c.rto_max = rto_max;
	c.rto_style = IBFS_TCP_RTO_RFC;
	c.cc = &ibfs__tcp_newreno;
	tp_init(&p, &c, &c, D10US, RATE_10G);
	p.drop = drop_data;
	tp_open(&p);
	ibfs__tcp_app_send(p.end[0].tcp, 100000);
	tp_run(&p, t0 + at[n - 1] * IBFS_MS);
	ck_assert_uint_eq(tp_data(&p, 0, 0)->t, t0);
	for (k = 0; k < n; k++) {
		const struct tp_log *l = tp_data(&p, 0, 10 + (size_t)k);

		ck_assert_ptr_nonnull(l);
		ck_assert_uint_eq(l->t, t0 + at[k] * IBFS_MS);
		ck_assert_uint_eq(l->seg.seq, 1); /* the first, again */
	}
	ck_assert_ptr_null(tp_data(&p, 0, 10 + (size_t)n));
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.rto_fires, (uint64_t)n);
	ck_assert_uint_eq(ia.backoff, (uint32_t)n);
	/* RFC 5681 3.1: the loss window, one segment; ssthresh from the
	 * first timeout, FlightSize / 2 = 5 x 1448 = 7,240, held at the
	 * later ones (the same segment again). */
	ck_assert_uint_eq(ia.cwnd, 1448);
	ck_assert_uint_eq(ia.ssthresh, 5 * 1448);
	tp_free(&p);
}

START_TEST(backoff_doubles)
{
	static const ibfs_time_t a[] = { 1, 3, 7, 15 };
	static const ibfs_time_t b[] = { 1, 3, 7, 12, 17 };

	backoff_run(120 * IBFS_S, a, 4);
	backoff_run(5 * IBFS_MS, b, 5);
}
END_TEST

static int drop_20th(struct tcp_pair *p, int from,
		     const struct ibfs_tcp_seg *s, uint64_t nth)
{
	(void)p;
	(void)s;
	return from == 0 && nth == 20;
}

static void tail_run(enum ibfs_tcp_rto_style style)
{
	struct ibfs_tcp_config a, b;
	struct tcp_pair p;
	struct ibfs_tcp_info ia;
	const ibfs_time_t ack19 = t0 + 2 * 21302400 + 8 * ser;
	const struct tp_log *l;
	ibfs_time_t srtt;

	tp_config(&a, 1460);
	tp_config(&b, 1460);
	a.rto_style = style;
	b.delack = 0;
	tp_init(&p, &a, &b, D10US, RATE_10G);
	p.drop = drop_20th;
	tp_open(&p);
	ibfs__tcp_app_send(p.end[0].tcp, 20 * 1448);
	tp_run(&p, ack19);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.acked, 19 * 1448);
	srtt = ia.srtt;
	ck_assert_uint_eq(ia.rto, style == IBFS_TCP_RTO_RFC ?
			  200 * IBFS_MS : srtt + 200 * IBFS_MS);
	ck_assert_uint_eq(p.end[0].timer_at[IBFS_TCP_T_RTO], ack19 + ia.rto);
	tp_run(&p, 10 * IBFS_S);
	l = tp_data(&p, 0, 20);
	ck_assert_ptr_nonnull(l);
	ck_assert_uint_eq(l->seg.seq, 1 + 19 * 1448);
	ck_assert_uint_eq(l->t, style == IBFS_TCP_RTO_RFC ?
			  200072604800ull : ack19 + srtt + 200 * IBFS_MS);
	ck_assert_uint_eq(p.end[1].delivered, 20 * 1448);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.rto_fires, 1);
	ck_assert_uint_eq(ia.fast_retransmits, 0);
	tp_free(&p);
}

START_TEST(tail_loss_rfc)
{
	tail_run(IBFS_TCP_RTO_RFC);
}
END_TEST

START_TEST(tail_loss_linux)
{
	tail_run(IBFS_TCP_RTO_LINUX);
}
END_TEST

static Suite *tcp_rto_suite(void)
{
	Suite *s = suite_create("tcp_rto");
	TCase *tc = tcase_create("rto");

	tcase_add_test(tc, estimator);
	tcase_add_test(tc, rto_min_and_g);
	tcase_add_test(tc, backoff_doubles);
	tcase_add_test(tc, tail_loss_rfc);
	tcase_add_test(tc, tail_loss_linux);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(tcp_rto_suite)
