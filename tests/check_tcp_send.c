/* SPDX-License-Identifier: MIT */
/*
 * The TCP engine's send side (src/transport/tcp_send.c, tcp_recv.c):
 * slow start, delayed ACKs, TSO, sequence numbers across 2^32, and every
 * byte arriving in order.
 *
 * Slow start: 1 MiB = 1,048,576 bytes from A to B over 100 Gb/s (80 ps a
 * byte), 50 us one way, MSS 1460 less 12 of timestamps = 1448: 724 full
 * segments and one of 224 bytes, 725. IW10 (RFC 6928); each ACK adds
 * what it acknowledges to cwnd (RFC 3465, L = 2 SMSS), so a window of w
 * segments is followed by one of 2w: rounds of 10, 20, 40, 80, 160, 320
 * segments, 630 in all after 6 rounds (10 (2^6 - 1)); the 95 left go in
 * the 7th (10 (2^7 - 1) = 1270 >= 725): 7 round trips.
 *
 * Frame times: data 1538 bytes on the wire (123,040 ps), ACK 90 (7,200),
 * the 224-byte tail 314 (25,120), SYN and SYN-ACK 98 (7,840).
 * The first data leaves at t0 = 2 D + 2 x 7,840 = 100,015,680 (one RTT
 * of handshake). With an ACK for every segment, round k + 1 starts when
 * the ACK of round k's first segment is back: RTT0 = 123,040 + 7,200 +
 * 2 D = 100,130,240 later; the ACKs of a round come 123,040 apart and
 * each lets two segments go, so a round leaves back to back. The last
 * frame, the 95th of round 7, is at B at t0 + 6 RTT0 + 94 x 123,040 +
 * 25,120 + D = 762,388,000.
 *
 * Delayed ACKs (RFC 1122 4.2.3.2, an ACK every second full segment):
 * round k + 1 starts with the ACK of round k's second segment, RTT1 =
 * RTT0 + 123,040 = 100,253,280, and each ACK (two segments, cwnd + 2
 * SMSS with L = 2) lets four go: still 7 rounds, each one segment time
 * longer; the last byte at t0 + 6 RTT1 + 94 x 123,040 + 25,120 + D =
 * 763,126,240. Every round but the 7th has an even count, so ACKs pair
 * up; the 7th ends with 94 full segments and the 224-byte one, which
 * waits for the delayed-ACK timer: its ACK leaves 40 ms after it came,
 * at 40,763,126,240. ACKs: 725 without delay, 363 with (362 + 1).
 */
#include "check_common.h"

#include "check_tcp_pair.h"
#include "transport/tcp_cc.h"

#define MIB (1u << 20)
#define RATE_100G 80
#define D50US (50 * IBFS_US)

static const ibfs_time_t t0 = 100015680;

static void run_1mib(struct tcp_pair *p, int delack, int tso)
{
	struct ibfs_tcp_config a, b;

	tp_config(&a, 1460);
	tp_config(&b, 1460);
	a.tso = tso;
	b.delack = delack;
	tp_init(p, &a, &b, D50US, RATE_100G);
	tp_open(p);
	ibfs__tcp_app_send(p->end[0].tcp, MIB);
	tp_run(p, 100 * IBFS_S);
}

/* Start of each round: frames 0, 10, 30, 70, 150, 310, 630. */
static void check_rounds(const struct tcp_pair *p, ibfs_time_t rtt)
{
	static const size_t first[7] = { 0, 10, 30, 70, 150, 310, 630 };
	int k;

	for (k = 0; k < 7; k++) {
		const struct tp_log *l = tp_data(p, 0, first[k]);

		ck_assert_ptr_nonnull(l);
		ck_assert_uint_eq(l->t, t0 + (ibfs_time_t)k * rtt);
		/* The frame before it left a round earlier. */
		if (k) {
			const struct tp_log *b = tp_data(p, 0, first[k] - 1);

			ck_assert_uint_lt(b->t, t0 + (ibfs_time_t)k * rtt -
						  rtt / 2);
		}
	}
	ck_assert_ptr_null(tp_data(p, 0, 725));
	ck_assert_uint_eq(tp_data(p, 0, 724)->seg.len, 224);
}

START_TEST(slow_start_rounds)
{
	struct tcp_pair p;
	struct ibfs_tcp_info ia;

	run_1mib(&p, 0, 0);
	check_rounds(&p, 100130240);
	ck_assert_uint_eq(p.end[1].delivered, MIB);
	ck_assert_uint_eq(p.end[1].last_delivery, 762388000);
	/* cwnd: 10 segments plus every byte acknowledged. */
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.cwnd, 14480 + MIB);
	ck_assert_uint_eq(ia.retransmits, 0);
	ck_assert_uint_eq(ia.acked, MIB);
	/* 725 ACKs and the SYN-ACK. */
	ck_assert_uint_eq(tp_count(&p, 1, IBFS_TCP_ACK, 0), 726);
	tp_free(&p);
}
END_TEST

START_TEST(slow_start_delack)
{
	struct tcp_pair p;
	const struct tp_log *last;
	struct ibfs_tcp_info ia;

	run_1mib(&p, 1, 0);
	check_rounds(&p, 100253280);
	ck_assert_uint_eq(p.end[1].last_delivery, 763126240);
	ck_assert_uint_eq(tp_count(&p, 1, IBFS_TCP_ACK, 0), 364);
	last = &p.log[p.nlog - 1];
	ck_assert_int_eq(last->from, 1);
	ck_assert_uint_eq(last->t, 763126240 + 40 * IBFS_MS);
	ck_assert_uint_eq(last->seg.ack, 1 + MIB);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.cwnd, 14480 + MIB);
	tp_free(&p);
}
END_TEST

/* TSO: A hands the NIC super-segments (the first one the whole IW10, 10
 * x 1448 = 14,480 bytes); the frames on the wire and their times are the
 * same as without, with fewer segments built. */
START_TEST(tso_same_wire)
{
	struct tcp_pair a, b;
	struct ibfs_tcp_info ia, ib;
	size_t i;

	run_1mib(&a, 0, 0);
	run_1mib(&b, 0, 1);
	ck_assert_uint_eq(a.nlog, b.nlog);
	for (i = 0; i < a.nlog; i++) {
		ck_assert_uint_eq(a.log[i].t, b.log[i].t);
		ck_assert_uint_eq(a.log[i].seg.seq, b.log[i].seg.seq);
		ck_assert_uint_eq(a.log[i].seg.len, b.log[i].seg.len);
	}
	ibfs__tcp_get_info(a.end[0].tcp, &ia);
	ibfs__tcp_get_info(b.end[0].tcp, &ib);
	ck_assert_uint_eq(ia.segs_out, 725 + 1);   /* and the SYN */
	ck_assert_uint_lt(ib.segs_out, ia.segs_out / 2);
	tp_free(&a);
	tp_free(&b);
}
END_TEST

static const uint64_t wrap_drops[] = { 3, 70, 71, 200, 201, 202, 500 };

static int drop_listed(struct tcp_pair *p, int from,
		       const struct ibfs_tcp_seg *s, uint64_t nth)
{
	size_t i;

	(void)p;
	(void)s;
	if (from != 0)
		return 0;
	for (i = 0; i < sizeof(wrap_drops) / sizeof(wrap_drops[0]); i++)
		if (nth == wrap_drops[i])
			return 1;
	return 0;
}

/*
 * Sequence numbers across 2^32: A's ISS is 2^32 - 100,000, so the byte
 * at stream offset 99,999 is sent as sequence number 0; B's is 2^32 - 1,
 * so its first ACK of data already wraps. 1 MiB of a pattern goes across
 * with payload frames 3, 70, 71, 200-202 and 500 dropped (counting A's
 * payload frames, retransmissions included): every byte arrives, in
 * order, equal to what was sent (byte conservation); the sequence numbers
 * seen on the wire are the stream offsets plus ISS + 1 modulo 2^32. Once
 * with SACK, once without (NewReno and timeouts).
 */
static void wrap_run(int sack)
{
	struct ibfs_tcp_config a, b;
	struct tcp_pair p;
	uint8_t *src = malloc(MIB), *dst = calloc(1, MIB);
	struct ibfs_tcp_info ia;
	int wrapped = 0;
	size_t i;

	for (i = 0; i < MIB; i++)
		src[i] = (uint8_t)(i * 7 + (i >> 11));
	tp_config(&a, 1460);
	tp_config(&b, 1460);
	a.iss = 0xFFFFFFFFu - 100000 + 1;
	b.iss = 0xFFFFFFFFu;
	a.sack = b.sack = sack;
	a.rto_min = b.rto_min = 1 * IBFS_MS;
	tp_init(&p, &a, &b, D50US, RATE_100G);
	p.drop = drop_listed;
	ibfs__tcp_send_data(p.end[0].tcp, src, MIB);
	ibfs__tcp_recv_data(p.end[1].tcp, dst, MIB);
	tp_open(&p);
	ibfs__tcp_app_send(p.end[0].tcp, MIB);
	tp_run(&p, 100 * IBFS_S);
	ck_assert_uint_eq(p.end[1].delivered, MIB);
	ck_assert_int_eq(memcmp(src, dst, MIB), 0);
	for (i = 0; i < p.nlog; i++) {
		const struct tp_log *l = &p.log[i];

		if (l->from != 0 || !l->seg.len)
			continue;
		ck_assert_ptr_nonnull(l->seg.data);
		/* The payload is the stream at (seq - ISS - 1) mod 2^32. */
		ck_assert_ptr_eq(l->seg.data,
				 src + (uint32_t)(l->seg.seq - a.iss - 1));
		if (l->seg.seq < a.iss)
			wrapped = 1;
	}
	ck_assert_int_eq(wrapped, 1);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.acked, MIB);
	ck_assert_uint_ge(ia.retransmits, 7);
	ck_assert_uint_eq(p.log[p.nlog - 1].seg.ack, a.iss + 1 + MIB);
	free(src);
	free(dst);
	tp_free(&p);
}

START_TEST(wrap_sack)
{
	wrap_run(1);
}
END_TEST

START_TEST(wrap_newreno)
{
	wrap_run(0);
}
END_TEST

/* The peer's window limits as cwnd does: B's buffer of 65,535 bytes (no
 * scaling) with A's cwnd of 100 segments; B reads at once, so its window
 * stays 65,535 from the last byte it acknowledged. */
START_TEST(rwnd_limits)
{
	struct ibfs_tcp_config a, b;
	struct tcp_pair p;
	struct ibfs_tcp_info ia;

	tp_config(&a, 1460);
	tp_config(&b, 1460);
	b.rcvbuf = 65535;
	a.init_cwnd = 100;
	tp_init(&p, &a, &b, D50US, RATE_100G);
	tp_open(&p);
	ibfs__tcp_app_send(p.end[0].tcp, MIB);
	tp_run(&p, 100015680);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.snd_wnd, 65535);
	/* 45 segments of 1448 = 65,160 fit 65,535; a 46th does not. */
	ck_assert_uint_eq(ia.flight, 45 * 1448);
	tp_run(&p, 100 * IBFS_S);
	ck_assert_uint_eq(p.end[1].delivered, MIB);
	tp_free(&p);
}
END_TEST

static Suite *tcp_send_suite(void)
{
	Suite *s = suite_create("tcp_send");
	TCase *tc = tcase_create("send");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, slow_start_rounds);
	tcase_add_test(tc, slow_start_delack);
	tcase_add_test(tc, tso_same_wire);
	tcase_add_test(tc, wrap_sack);
	tcase_add_test(tc, wrap_newreno);
	tcase_add_test(tc, rwnd_limits);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(tcp_send_suite)
