/* SPDX-License-Identifier: MIT */
/*
 * The TCP engine's connection (src/transport/tcp_conn.c, tcp_wire.c):
 * frame sizes, the three-way handshake and its options, a lost SYN, the
 * close. Figures:
 *
 * Frame sizes (IEEE 802.3, RFC 791, RFC 9293), bytes on the wire:
 * preamble+SFD 8 + Ethernet 14 + IPv4 20 + TCP 20 + options + payload +
 * FCS 4 + gap 12, the frame (14 to FCS) padded to 64. Options as Linux
 * lays them out: MSS 4, timestamps 12 (SACK-permitted in its NOPs on a
 * SYN), SACK-permitted alone 4, window scale 4, n SACK blocks 4 + 8n.
 *   SYN with MSS, SACK-permitted, timestamps, window scale: options 20,
 *     frame 14 + 20 + 40 + 4 = 78, wire 98.
 *   SYN without timestamps: options 12, frame 70, wire 90.
 *   ACK with timestamps: frame 14 + 20 + 32 + 4 = 70, wire 90.
 *   ACK without options: frame 58, padded to 64, wire 84.
 *   1448 bytes with timestamps: frame 1518, wire 1538 (a 1500-byte MTU).
 *   1460 bytes without options: frame 1518, wire 1538.
 *   ACK, timestamps, 3 SACK blocks: options 12 + 28 = 40, frame 98,
 *     wire 118; without timestamps, 4 blocks: options 36, wire 114.
 *   TSO, 3 x 1448 + 100 with timestamps: 3 x 1538 + (14 + 20 + 32 + 100
 *     + 4 + 20 = 190) = 4804.
 *
 * The handshake on a 10 Gb/s link (800 ps a byte), 10 us one way:
 *   SYN 0 -> 98 x 800 = 78,400 on the wire, at B 10,078,400;
 *   SYN-ACK 10,078,400 -> 10,156,800, at A 20,156,800: one RTT of the
 *     handshake, 2 D + 2 x 78,400;
 *   A's ACK 20,156,800 -> 20,228,800 (90 x 800 = 72,000), at B
 *     30,228,800 = 3 D + 2 x 78,400 + 72,000: 1.5 RTT. B's first data
 *     frame (B had data queued) leaves then; A's, when A has data, leaves
 *     at 20,156,800 with the ACK in it (no pure ACK first).
 */
#include "check_common.h"

#include "check_tcp_pair.h"
#include "transport/tcp_cc.h"

#define RATE_10G 800           /* ps a byte */
#define D10US (10 * IBFS_US)

static struct ibfs_tcp_seg seg0(void)
{
	struct ibfs_tcp_seg s;

	memset(&s, 0, sizeof(s));
	s.wscale = -1;
	return s;
}

START_TEST(wire_sizes)
{
	struct ibfs_tcp_seg s = seg0();
	int i;

	s.flags = IBFS_TCP_SYN;
	s.mss = 1460;
	s.sack_ok = 1;
	s.ts = 1;
	s.wscale = 7;
	ck_assert_uint_eq(ibfs__tcp_opt_bytes(&s), 20);
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&s), 98);
	s.ts = 0;
	ck_assert_uint_eq(ibfs__tcp_opt_bytes(&s), 12);
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&s), 90);
	s = seg0();
	s.ts = 1;
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&s), 90);
	s.ts = 0;
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&s), 84);
	s.ts = 1;
	s.len = 1448;
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&s), 1538);
	s.ts = 0;
	s.len = 1460;
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&s), 1538);
	s = seg0();
	s.ts = 1;
	s.nsack = 3;
	ck_assert_uint_eq(ibfs__tcp_opt_bytes(&s), 40);
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&s), 118);
	s.ts = 0;
	s.nsack = 4;
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&s), 114);
	/* A super-segment and its pieces. */
	s = seg0();
	s.ts = 1;
	s.seq = 0xFFFFFF00u;
	s.len = 3 * 1448 + 100;
	s.tso_mss = 1448;
	s.flags = IBFS_TCP_ACK | IBFS_TCP_PSH | IBFS_TCP_CWR;
	ck_assert_uint_eq(ibfs__tcp_tso_count(&s), 4);
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&s), 4804);
	for (i = 0; i < 4; i++) {
		struct ibfs_tcp_seg p;

		ibfs__tcp_tso_piece(&s, (uint32_t)i, &p);
		ck_assert_uint_eq(p.seq, 0xFFFFFF00u + 1448u * (uint32_t)i);
		ck_assert_uint_eq(p.len, i < 3 ? 1448 : 100);
		ck_assert_uint_eq(p.tso_mss, 0);
		ck_assert_int_eq(!!(p.flags & IBFS_TCP_PSH), i == 3);
		ck_assert_int_eq(!!(p.flags & IBFS_TCP_CWR), i == 0);
	}
}
END_TEST

/* B's first data frame leaves at 1.5 RTT; A's at 1 RTT. */
START_TEST(handshake_times)
{
	struct ibfs_tcp_config c;
	struct tcp_pair p;
	const struct tp_log *d;
	struct ibfs_tcp_info ia, ib;

	tp_config(&c, 1460);
	tp_init(&p, &c, &c, D10US, RATE_10G);
	ibfs__tcp_app_send(p.end[1].tcp, 1000);
	tp_open(&p);
	/* Until A's ACK reaches B: the RTT samples of the handshake. */
	tp_run(&p, 30228800);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ibfs__tcp_get_info(p.end[1].tcp, &ib);
	tp_run(&p, IBFS_S);
	ck_assert_uint_eq(p.log[0].t, 0);
	ck_assert_uint_eq(p.log[0].seg.flags, IBFS_TCP_SYN);
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&p.log[0].seg), 98);
	ck_assert_uint_eq(p.log[1].t, 10078400);
	ck_assert_uint_eq(p.log[1].seg.flags, IBFS_TCP_SYN | IBFS_TCP_ACK);
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&p.log[1].seg), 98);
	ck_assert_uint_eq(p.log[2].t, 20156800);
	ck_assert_uint_eq(p.log[2].seg.flags, IBFS_TCP_ACK);
	ck_assert_uint_eq(p.log[2].seg.len, 0);
	d = tp_data(&p, 1, 0);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(d->t, 30228800);
	ck_assert_uint_eq(d->seg.len, 1000);
	ck_assert_uint_eq(p.end[0].delivered, 1000);
	/* Negotiated: timestamps take 12 of the 1460; a 16 MiB buffer
	 * needs a window scale of 9 (2^24 >> 9 = 32768 <= 65535). The SYN's
	 * RTT sample is the handshake's RTT: 2 D + 2 x 78,400 = 20,156,800
	 * at A; at B from its SYN-ACK to A's ACK, 2 D + 78,400 + 72,000. */
	ck_assert_int_eq(ia.state, IBFS_TCP_ESTABLISHED);
	ck_assert_int_eq(ib.state, IBFS_TCP_ESTABLISHED);
	ck_assert_uint_eq(ia.snd_mss, 1448);
	ck_assert_int_eq(ia.sack_ok && ia.ts_ok && ib.sack_ok && ib.ts_ok, 1);
	ck_assert_int_eq(ia.snd_wscale, 9);
	ck_assert_int_eq(ia.rcv_wscale, 9);
	ck_assert_int_eq(ia.ecn_ok, 0);
	ck_assert_uint_eq(ia.srtt, 20156800);
	ck_assert_uint_eq(ib.srtt, 20150400);
	tp_free(&p);

	/* A with data: it leaves with the handshake's ACK, at one RTT. */
	tp_init(&p, &c, &c, D10US, RATE_10G);
	ibfs__tcp_app_send(p.end[0].tcp, 1000);
	tp_open(&p);
	tp_run(&p, IBFS_S);
	ck_assert_uint_eq(p.log[2].t, 20156800);
	ck_assert_uint_eq(p.log[2].from, 0);
	ck_assert_uint_eq(p.log[2].seg.len, 1000);
	ck_assert_uint_eq(p.log[2].seg.flags & IBFS_TCP_ACK, IBFS_TCP_ACK);
	ck_assert_uint_eq(p.end[1].delivered, 1000);
	tp_free(&p);
}
END_TEST

/* A peer without timestamps, SACK or window scaling: neither side uses
 * them; the MSS is the smaller of the two announced. ECN when A asks and
 * B accepts (RFC 3168 6.1.1: SYN with ECE and CWR, SYN-ACK with ECE). */
START_TEST(handshake_options)
{
	struct ibfs_tcp_config a, b;
	struct tcp_pair p;
	struct ibfs_tcp_info ia, ib;

	tp_config(&a, 1460);
	tp_config(&b, 1400);
	b.timestamps = 0;
	b.sack = 0;
	b.wscale = 0;
	tp_init(&p, &a, &b, D10US, RATE_10G);
	tp_open(&p);
	tp_run(&p, IBFS_S);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ibfs__tcp_get_info(p.end[1].tcp, &ib);
	ck_assert_uint_eq(ia.snd_mss, 1400);
	ck_assert_uint_eq(ib.snd_mss, 1400);
	ck_assert_int_eq(ia.sack_ok || ia.ts_ok || ib.sack_ok || ib.ts_ok, 0);
	ck_assert_int_eq(ia.snd_wscale || ia.rcv_wscale || ib.snd_wscale, 0);
	/* B's SYN-ACK: MSS only, 14 + 20 + 24 + 4 = 62 -> 64, wire 84. */
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&p.log[1].seg), 84);
	/* The window without scaling: 65535 at most. */
	ck_assert_uint_eq(ia.snd_wnd, 65535);
	tp_free(&p);

	tp_config(&a, 1460);
	tp_config(&b, 1460);
	a.ecn = 1;
	tp_init(&p, &a, &b, D10US, RATE_10G);
	tp_open(&p);
	tp_run(&p, IBFS_S);
	ck_assert_uint_eq(p.log[0].seg.flags,
			  IBFS_TCP_SYN | IBFS_TCP_ECE | IBFS_TCP_CWR);
	ck_assert_uint_eq(p.log[1].seg.flags,
			  IBFS_TCP_SYN | IBFS_TCP_ACK | IBFS_TCP_ECE);
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ibfs__tcp_get_info(p.end[1].tcp, &ib);
	ck_assert_int_eq(ia.ecn_ok && ib.ecn_ok, 1);
	tp_free(&p);
}
END_TEST

static int drop_first_syn(struct tcp_pair *p, int from,
			  const struct ibfs_tcp_seg *s, uint64_t nth)
{
	(void)p;
	(void)nth;
	return from == 0 && (s->flags & IBFS_TCP_SYN) && s->tsval == 0;
}

/* A lost SYN is resent when the initial RTO (1 s, RFC 6298 2.1) expires;
 * the connection then starts with one segment (RFC 5681 3.1) and RTO
 * 3 s (RFC 6298 5.7: no sample, Karn). */
START_TEST(syn_lost)
{
	struct ibfs_tcp_config c;
	struct tcp_pair p;
	struct ibfs_tcp_info ia;

	tp_config(&c, 1460);
	tp_init(&p, &c, &c, D10US, RATE_10G);
	p.drop = drop_first_syn;
	tp_open(&p);
	tp_run(&p, 2 * IBFS_S);
	ck_assert_uint_eq(p.log[0].dropped, 1);
	ck_assert_uint_eq(p.log[1].t, IBFS_S);
	ck_assert_uint_eq(p.log[1].seg.flags, IBFS_TCP_SYN);
	ck_assert_uint_eq(p.log[1].seg.tsval, 1000); /* ms clock */
	ibfs__tcp_get_info(p.end[0].tcp, &ia);
	ck_assert_int_eq(ia.state, IBFS_TCP_ESTABLISHED);
	ck_assert_uint_eq(ia.cwnd, 1448);
	ck_assert_uint_eq(ia.rto, 3 * IBFS_S);
	ck_assert_uint_eq(ia.srtt, 0);
	tp_free(&p);
}
END_TEST

static enum ibfs_tcp_state st(struct tcp_pair *p, int i)
{
	struct ibfs_tcp_info in;

	ibfs__tcp_get_info(p->end[i].tcp, &in);
	return in.state;
}

/* The close (RFC 9293 3.6): A sends 10,000 bytes and closes; B sees the
 * FIN after the bytes, closes; A waits 2 MSL (60 s) in TIME-WAIT. */
START_TEST(close_states)
{
	struct ibfs_tcp_config c;
	struct tcp_pair p;
	const struct tp_log *fin = NULL;
	size_t i;
	ibfs_time_t fin_at = 0;

	tp_config(&c, 1460);
	tp_init(&p, &c, &c, D10US, RATE_10G);
	tp_open(&p);
	ibfs__tcp_app_send(p.end[0].tcp, 10000);
	ibfs__tcp_app_close(p.end[0].tcp);
	tp_run(&p, IBFS_S);
	ck_assert_uint_eq(p.end[1].delivered, 10000);
	ck_assert_int_eq(st(&p, 0), IBFS_TCP_FIN_WAIT_2);
	ck_assert_int_eq(st(&p, 1), IBFS_TCP_CLOSE_WAIT);
	for (i = 0; i < p.nlog; i++)
		if (p.log[i].from == 0 && (p.log[i].seg.flags & IBFS_TCP_FIN))
			fin = &p.log[i];
	ck_assert_ptr_nonnull(fin);
	/* The FIN's sequence number follows the last byte: ISS + 1 +
	 * 10000; B's ACK of it is one more. */
	ck_assert_uint_eq(fin->seg.seq, 10001);
	ck_assert_uint_eq(tp_count(&p, 0, IBFS_TCP_FIN, -1), 1);
	ibfs__tcp_app_close(p.end[1].tcp);
	ck_assert_int_eq(st(&p, 1), IBFS_TCP_LAST_ACK);
	tp_run(&p, 2 * IBFS_S);
	ck_assert_int_eq(st(&p, 0), IBFS_TCP_TIME_WAIT);
	ck_assert_int_eq(st(&p, 1), IBFS_TCP_CLOSED);
	ck_assert_uint_eq(p.log[p.nlog - 1].seg.ack, 2); /* B's FIN + 1 */
	/* TIME-WAIT ends 60 s after B's FIN (90 bytes, 72,000 ps) reached
	 * A. */
	for (i = 0; i < p.nlog; i++)
		if (p.log[i].from == 1 && (p.log[i].seg.flags & IBFS_TCP_FIN))
			fin_at = p.log[i].t + 72000 + D10US;

	tp_run(&p, fin_at + 60 * IBFS_S - 1);
	ck_assert_int_eq(st(&p, 0), IBFS_TCP_TIME_WAIT);
	tp_run(&p, fin_at + 60 * IBFS_S);
	ck_assert_int_eq(st(&p, 0), IBFS_TCP_CLOSED);
	tp_free(&p);
}
END_TEST

static Suite *tcp_conn_suite(void)
{
	Suite *s = suite_create("tcp_conn");
	TCase *tc = tcase_create("conn");

	tcase_add_test(tc, wire_sizes);
	tcase_add_test(tc, handshake_times);
	tcase_add_test(tc, handshake_options);
	tcase_add_test(tc, syn_lost);
	tcase_add_test(tc, close_states);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(tcp_conn_suite)
