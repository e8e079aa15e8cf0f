/* SPDX-License-Identifier: MIT */
/*
 * Loss recovery (src/transport/tcp_recovery.c): fast retransmit, SACK
 * recovery (RFC 6675) and NewReno (RFC 6582).
 *
 * The pair: 10 Gb/s (800 ps a byte), 100 us one way, MSS 1448, an ACK
 * for every segment, A with an initial window of 40 segments (the SYN's
 * window, 65,535 unscaled, holds 45) sending 300. Data frames 1538 bytes
 * (ser = 1,230,400 ps), ACKs 90 (72,000); t0 = 2 D + 2 x 78,400 =
 * 200,156,800; RTT0 = ser + 72,000 + 2 D = 201,302,400. The 40 first
 * segments leave back to back from t0 (49 us, less than RTT0); from t0 +
 * RTT0 the ACK of segment k is back at t0 + RTT0 + (k - 1) ser and lets
 * two segments go (slow start), so A's link is busy from t0 + RTT0 on.
 *
 * One loss, segment 30. ACKs of 1-29 let segments 41-98 go. With SACK,
 * the duplicate ACKs of 31 and 32 each SACK a segment, pipe falls below
 * cwnd (40 + 29 = 69 segments) and segments 99, 100 go; the third
 * (segment 33; these ACKs carry a SACK block, 12 bytes more, 102 on the
 * wire, so it is back at t0 + RTT0 + 32 ser + 9,600 = 440,841,600;
 * without SACK at 440,832,000) makes 30 lost (three
 * SACKed above it, RFC 6675 IsLost) and starts recovery: 30 is resent
 * after the 60 frames queued before it, at t0 + RTT0 + 60 ser =
 * 475,283,200. FlightSize then is 100 - 29 = 71 segments. NewReno (the
 * control): ssthresh = FlightSize / 2 = 51,404 bytes, cwnd = ssthresh
 * (RFC 6675). CUBIC: ssthresh = 0.7 cwnd = 0.7 x 69 x 1448 = 69,938.4 ->
 * 69,938. Without SACK, duplicates send nothing (no limited transmit):
 * 58 frames queued, 30 resent at t0 + RTT0 + 58 ser = 472,822,400;
 * FlightSize 69 segments; NewReno: ssthresh = 49,956, cwnd = ssthresh +
 * 3 SMSS = 54,300 (RFC 5681 3.2); CUBIC: ssthresh 69,938, cwnd 74,282.
 *
 * Two losses, 30 and 35 (control NewReno). Segment k > 40 left at t0 +
 * RTT0 + (k - 41) ser, so its ACK is back at t0 + 2 RTT0 + (k - 41) ser
 * (plus 800 ps a byte of SACK blocks).
 * With SACK, recovery starts as above (cwnd = ssthresh = 71 / 2 = 35.5
 * segments) and pipe after resending 30 is 68 segments (34-100 and the
 * retransmission). Each SACK takes one off; the SACK of 38 also makes 35
 * lost, one more off: 68 - 4 - 1 = 63 after it. 35 may go once pipe + 1
 * segment <= cwnd, pipe <= 34: after the SACK of 67 (63 - (67 - 38) =
 * 34). That ACK (two blocks, 110 bytes, 16,000 ps more than 90) is back
 * at t0 + 2 RTT0 + 26 ser + 16,000 = 634,768,000: 35 is resent then,
 * 159,484,800 ps (less than RTT0) after 30, and its ACK, which covers
 * everything up to the recovery point (segment 100), is back RTT0 later
 * at 836,070,400: recovery takes 360,787,200 ps, under 2 RTT0.
 * NewReno learns of the second loss only from the partial ACK of the
 * first retransmission, back at 472,822,400 + RTT0 = 674,124,800, when
 * 35 goes (A's link frees at that instant); the full ACK is back RTT0
 * later, at 875,427,200: two round trips from 30's retransmission.
 */
#include "check_common.h"

#include "check_tcp_pair.h"
#include "transport/tcp_cc.h"

#define RATE_10G 800
#define D100US (100 * IBFS_US)
#define SEGS 300

static const ibfs_time_t t0 = 200156800;
static const ibfs_time_t rtt0 = 201302400;
static const ibfs_time_t ser = 1230400;

static uint64_t drop_a, drop_b;

static int drop_two(struct tcp_pair *p, int from,
		    const struct ibfs_tcp_seg *s, uint64_t nth)
{
	(void)p;
	(void)s;
	return from == 0 && nth && (nth == drop_a || nth == drop_b);
}

static void setup(struct tcp_pair *p, int sack,
		  const struct ibfs_tcp_cc_ops *cc)
{
	struct ibfs_tcp_config a, b;

	tp_config(&a, 1460);
	tp_config(&b, 1460);
	a.init_cwnd = 40;
	a.sack = b.sack = sack;
	a.cc = cc;
	b.delack = 0;
	tp_init(p, &a, &b, D100US, RATE_10G);
	p->drop = drop_two;
	tp_open(p);
	ibfs__tcp_app_send(p->end[0].tcp, SEGS * 1448);
}

/* The k-th frame from A whose sequence number is seq (from 0). */
static const struct tp_log *nth_seq(const struct tcp_pair *p, uint32_t seq,
				    int k)
{
	size_t i;

	for (i = 0; i < p->nlog; i++)
		if (p->log[i].from == 0 && p->log[i].seg.len &&
		    p->log[i].seg.seq == seq && !k--)
			return &p->log[i];
	return NULL;
}

static uint32_t seq_of(int seg)
{
	return 1 + (uint32_t)(seg - 1) * 1448;
}

static void one_loss(int sack, const struct ibfs_tcp_cc_ops *cc,
		     ibfs_time_t resent, uint64_t ssthresh, uint64_t cwnd)
{
	ibfs_time_t dup3 = t0 + rtt0 + 32 * ser + (sack ? 9600 : 0);
	struct tcp_pair p;
	struct ibfs_tcp_info ia;
	const struct tp_log *l;

	drop_a = 30;
	drop_b = 0;
	setup(&p, sack, cc);
	tp_run(&p, dup3 - 1);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_int_eq(ia.in_recovery, 0);
	tp_run(&p, dup3);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_int_eq(ia.in_recovery, 1);
	ck_assert_uint_eq(ia.ssthresh, ssthresh);
	ck_assert_uint_eq(ia.cwnd, cwnd);
	tp_run(&p, 100 * IBFS_S);
	l = nth_seq(&p, seq_of(30), 1);
	ck_assert_ptr_nonnull(l);
	ck_assert_uint_eq(l->t, resent);
	ck_assert_ptr_null(nth_seq(&p, seq_of(30), 2));
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.rto_fires, 0);
	ck_assert_uint_eq(ia.fast_retransmits, 1);
	ck_assert_uint_eq(ia.retransmits, 1);
	ck_assert_uint_eq(p.end[1].delivered, SEGS * 1448);
	tp_free(&p);
}

START_TEST(fast_retransmit_sack)
{
	one_loss(1, &ibfs__tcp_newreno, 475283200, 51404, 51404);
	one_loss(1, &ibfs__tcp_cubic, 475283200, 69938, 69938);
}
END_TEST

START_TEST(fast_retransmit_newreno)
{
	one_loss(0, &ibfs__tcp_newreno, 472822400, 49956, 54300);
	one_loss(0, &ibfs__tcp_cubic, 472822400, 69938, 74282);
}
END_TEST

/* When A's recovery ends: the arrival of B's first ACK at or beyond
 * segment `end`'s last byte. */
static ibfs_time_t acked_at(const struct tcp_pair *p, int end)
{
	uint32_t want = seq_of(end + 1);
	size_t i;

	for (i = 0; i < p->nlog; i++) {
		const struct tp_log *l = &p->log[i];

		if (l->from == 1 && (l->seg.flags & IBFS_TCP_ACK) &&
		    (int32_t)(l->seg.ack - want) >= 0)
			return l->t + ibfs__tcp_wire_bytes(&l->seg) * 800 +
			       D100US;
	}
	return IBFS_TIME_NEVER;
}

static void two_losses(int sack, ibfs_time_t *t30, ibfs_time_t *t35,
		       ibfs_time_t *done)
{
	struct tcp_pair p;
	struct ibfs_tcp_info ia;

	drop_a = 30;
	drop_b = 35;
	setup(&p, sack, &ibfs__tcp_newreno);
	tp_run(&p, 100 * IBFS_S);
	*t30 = nth_seq(&p, seq_of(30), 1)->t;
	*t35 = nth_seq(&p, seq_of(35), 1)->t;
	/* The recovery point: segment 100 with SACK, 98 without. */
	*done = acked_at(&p, sack ? 100 : 98);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.rto_fires, 0);
	ck_assert_uint_eq(ia.fast_retransmits, 1);
	ck_assert_uint_eq(ia.retransmits, 2);
	ck_assert_uint_eq(p.end[1].delivered, SEGS * 1448);
	tp_free(&p);
}

START_TEST(two_losses_one_rtt)
{
	ibfs_time_t s30, s35, sdone, n30, n35, ndone;

	two_losses(1, &s30, &s35, &sdone);
	two_losses(0, &n30, &n35, &ndone);
	/* SACK: the second hole resent within the first RTT. */
	ck_assert_uint_eq(s30, 475283200);
	ck_assert_uint_eq(s35, 634768000);
	ck_assert_uint_eq(sdone, 836070400);
	ck_assert_uint_lt(s35 - s30, rtt0);
	ck_assert_uint_lt(sdone - s30, 2 * rtt0);
	/* NewReno: a round trip for each hole. */
	ck_assert_uint_eq(n30, 472822400);
	ck_assert_uint_eq(n35, n30 + rtt0);
	ck_assert_uint_eq(ndone, n30 + 2 * rtt0);
}
END_TEST

static Suite *tcp_recovery_suite(void)
{
	Suite *s = suite_create("tcp_recovery");
	TCase *tc = tcase_create("recovery");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, fast_retransmit_sack);
	tcase_add_test(tc, fast_retransmit_newreno);
	tcase_add_test(tc, two_losses_one_rtt);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(tcp_recovery_suite)
