/* SPDX-License-Identifier: MIT */
/*
 * The receive side (src/transport/tcp_recv.c): SACK blocks as RFC 2018
 * orders them, immediate ACKs for data out of order and for a filled
 * hole, and the window of a receiver that does not read.
 *
 * SACK: after the handshake (timestamps on: 3 blocks at most), B is fed
 * 1,000-byte segments at stream offsets 0, 2, 4, 6, 8, 3, 1 (in units of
 * 1,000; sequence number = 1 + offset, A's ISS being 0). Offset 0 is in
 * order: no ACK yet (delayed). Each later one is out of order, or fills a
 * hole, and is acknowledged at once (RFC 5681 4.2). The blocks (RFC 2018
 * 4: the one holding the latest segment first, then the most recently
 * reported) in offsets:
 *   2: ack 1,000; [2,3)
 *   4: [4,5) [2,3)
 *   6: [6,7) [4,5) [2,3)
 *   8: [8,9) [6,7) [4,5)          (3 fit beside timestamps)
 *   3: [2,5) [8,9) [6,7)          (3 joins 2 and 4)
 *   1: ack 5,000; [8,9) [6,7)     (the hole filled, 0-4 delivered)
 * An ACK with 3 blocks is 118 bytes on the wire, with 2 110, with 1 102.
 *
 * Window: B's buffer is 65,535 bytes (no scaling); B does not read. A
 * sends 45 segments of 1448 (65,160 bytes) and stops: 375 bytes of
 * window are left, less than a segment (whole segments only). When B
 * reads, its window opens from 375 to 65,535: a window update goes out
 * (the window had less than two segments left), and A sends on.
 *
 * Lost window update: the same, with B's first update dropped. A,
 * stalled with nothing in flight, probes the window (RFC 9293 3.8.6.1)
 * when its persist timer expires, one RTO after the ACK that left 375
 * bytes (the 45th segment's, delayed 40 ms; RTO = SRTT + 200 ms, Linux's
 * rule), then at twice that: a
 * segment without data at sequence number snd_una - 1, which B answers
 * with an ACK; once B has read, that ACK carries the open window.
 */
#include "check_common.h"

#include "check_tcp_pair.h"

#define D10US (10 * IBFS_US)

static void feed(struct tcp_pair *p, uint32_t off_k)
{
	struct ibfs_tcp_seg s;

	memset(&s, 0, sizeof(s));
	s.wscale = -1;
	s.flags = IBFS_TCP_ACK;
	s.seq = 1 + off_k * 1000;
	s.ack = 1;
	s.window = 0xFFFF;
	s.ts = 1;
	s.len = 1000;
	ibfs__tcp_segment_arrived(p->end[1].tcp, &s);
}

static void check_blocks(const struct tcp_pair *p, size_t at, uint32_t ack_k,
			 int n, const uint32_t (*b)[2])
{
	const struct ibfs_tcp_seg *s;
	int i;

	ck_assert_uint_eq(p->nlog, at + 1);
	s = &p->log[at].seg;
	ck_assert_int_eq(p->log[at].from, 1);
	ck_assert_uint_eq(s->ack, 1 + ack_k * 1000);
	ck_assert_uint_eq(s->nsack, (unsigned)n);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(s->sack[i].left, 1 + b[i][0] * 1000);
		ck_assert_uint_eq(s->sack[i].right, 1 + b[i][1] * 1000);
	}
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(s), 94 + 8 * (uint32_t)n);
}

START_TEST(sack_blocks)
{
	static const uint32_t b2[][2] = { { 2, 3 } };
	static const uint32_t b4[][2] = { { 4, 5 }, { 2, 3 } };
	static const uint32_t b6[][2] = { { 6, 7 }, { 4, 5 }, { 2, 3 } };
	static const uint32_t b8[][2] = { { 8, 9 }, { 6, 7 }, { 4, 5 } };
	static const uint32_t b3[][2] = { { 2, 5 }, { 8, 9 }, { 6, 7 } };
	static const uint32_t b1[][2] = { { 8, 9 }, { 6, 7 } };
	struct ibfs_tcp_config c;
	struct tcp_pair p;
	size_t n;

	tp_config(&c, 1460);
	tp_init(&p, &c, &c, D10US, 800);
	tp_open(&p);
	tp_run(&p, IBFS_S);
	n = p.nlog; /* SYN, SYN-ACK, ACK */
	ck_assert_uint_eq(n, 3);
	feed(&p, 0);
	ck_assert_uint_eq(p.nlog, n);
	feed(&p, 2);
	check_blocks(&p, n++, 1, 1, b2);
	feed(&p, 4);
	check_blocks(&p, n++, 1, 2, b4);
	feed(&p, 6);
	check_blocks(&p, n++, 1, 3, b6);
	feed(&p, 8);
	check_blocks(&p, n++, 1, 3, b8);
	feed(&p, 3);
	check_blocks(&p, n++, 1, 3, b3);
	feed(&p, 1);
	check_blocks(&p, n++, 5, 2, b1);
	ck_assert_uint_eq(p.end[1].delivered, 5000);
	/* A duplicate is acknowledged at once, blocks and all. */
	feed(&p, 0);
	check_blocks(&p, n++, 5, 2, b1);
	tp_free(&p);
}
END_TEST

START_TEST(window_of_a_slow_reader)
{
	struct ibfs_tcp_config a, b;
	struct tcp_pair p;
	struct ibfs_tcp_info ia;
	const uint64_t total = 200000;
	int stalls = 0;

	tp_config(&a, 1460);
	tp_config(&b, 1460);
	b.rcvbuf = 65535;
	tp_init(&p, &a, &b, D10US, 800);
	p.end[1].hold = 1;
	tp_open(&p);
	ibfs__tcp_app_send(p.end[0].tcp, total);
	tp_run(&p, IBFS_S);
	ck_assert_uint_eq(p.end[1].delivered, 45 * 1448);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.acked, 45 * 1448);
	ck_assert_uint_eq(ia.snd_wnd, 375);
	ck_assert_uint_eq(ia.flight, 0);
	while (p.end[1].delivered < total && stalls < 10) {
		size_t n = p.nlog;

		ck_assert_uint_gt(ibfs__tcp_app_recv(p.end[1].tcp, UINT64_MAX),
				  0);
		/* The window update, at once. */
		ck_assert_uint_eq(p.nlog, n + 1);
		ck_assert_uint_eq(p.log[n].seg.window, 65535);
		ck_assert_uint_eq(p.log[n].seg.len, 0);
		tp_run(&p, p.now + IBFS_S);
		stalls++;
	}
	ck_assert_uint_eq(p.end[1].delivered, total);
	/* 200,000 bytes through a 65,535-byte window the reader empties
	 * only when stalled: three refills after the first. */
	ck_assert_int_eq(stalls, 3);
	tp_free(&p);
}
END_TEST

static int drop_update(struct tcp_pair *p, int from,
		       const struct ibfs_tcp_seg *s, uint64_t nth)
{
	static int done;

	(void)nth;
	if (!p->user)
		done = 0;
	p->user = &done;
	if (from == 1 && !s->len && s->window == 65535 && !done &&
	    p->now > 10 * IBFS_MS) {
		done = 1;
		return 1;
	}
	return 0;
}

START_TEST(window_update_lost)
{
	struct ibfs_tcp_config a, b;
	struct tcp_pair p;
	struct ibfs_tcp_info ia;
	ibfs_time_t stall = 0, probe1 = 0, probe2 = 0;
	size_t i;

	tp_config(&a, 1460);
	tp_config(&b, 1460);
	b.rcvbuf = 65535;
	tp_init(&p, &a, &b, D10US, 800);
	p.end[1].hold = 1;
	p.drop = drop_update;
	tp_open(&p);
	ibfs__tcp_app_send(p.end[0].tcp, 100000);
	/* Past the delayed ACK of the 45th segment (40 ms). */
	tp_run(&p, 100 * IBFS_MS);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.snd_wnd, 375);
	for (i = 0; i < p.nlog; i++)
		if (p.log[i].from == 1 && p.log[i].seg.window == 375 &&
		    !stall)
			stall = p.log[i].t +
				ibfs__tcp_wire_bytes(&p.log[i].seg) * 800 +
				D10US;
	ck_assert_uint_ne(stall, 0);
	/* B reads; its update is lost. */
	ibfs__tcp_app_recv(p.end[1].tcp, UINT64_MAX);
	ck_assert_int_eq(p.log[p.nlog - 1].dropped, 1);
	p.end[1].hold = 0;
	tp_run(&p, 100 * IBFS_S);
	ck_assert_uint_eq(p.end[1].delivered, 100000);
	for (i = 0; i < p.nlog; i++) {
		const struct ibfs_tcp_seg *s = &p.log[i].seg;

		if (p.log[i].from == 0 && !s->len &&
		    !(s->flags & IBFS_TCP_SYN) && s->seq == 45 * 1448) {
			if (!probe1)
				probe1 = p.log[i].t;
			else if (!probe2)
				probe2 = p.log[i].t;
		}
	}
	ck_assert_uint_eq(probe1, stall + ia.rto);
	ck_assert_uint_eq(probe2, 0); /* the first probe's ACK opened it */
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_uint_eq(ia.probes, 1);
	tp_free(&p);
}
END_TEST

static Suite *tcp_recv_suite(void)
{
	Suite *s = suite_create("tcp_recv");
	TCase *tc = tcase_create("recv");

	tcase_add_test(tc, sack_blocks);
	tcase_add_test(tc, window_of_a_slow_reader);
	tcase_add_test(tc, window_update_lost);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(tcp_recv_suite)
