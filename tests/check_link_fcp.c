/* SPDX-License-Identifier: MIT */
/*
 * Flow-control packets (IBA 7.9.4) and the link's send paths between two
 * endpoints joined by one cable: when an FCP goes and when its credits
 * count, the shortcut that adds them at once to a sender busy past their
 * arrival, across a link going down and up, and the straight and general
 * send paths making the same run. Expected times come from first
 * principles (link_pair.h): n bytes of 4x EDR take n x 80 ps, a cable 5 ns
 * per metre, an FCP is 6 bytes.
 */
#include "link_pair.h"

/*
 * An FCP waits for the packet on the wire to end, then goes ahead of the
 * next data packet. B's input buffer holds one 110-byte packet (2 blocks).
 * A sends p1 at 0; its tail is in at B at P + S1, but B is sending a
 * 4102-byte packet q1 until Sb, so the FCP leaves at Sb, ends at Sb + F,
 * B's next packet q2 starts then, and A gets the credits at Sb + F + P and
 * sends p2 at once.
 */
START_TEST(fcp_waits_for_packet_boundary)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new("pair");
	int na = ibfs__topo_add_node(t, "a", IBFS_NODE_HCA, 1, 0, &d);
	int nb = ibfs__topo_add_node(t, "b", IBFS_NODE_HCA, 1, 0, &d);

	t->nodes[nb].buffer = 128;
	ck_assert_int_ge(ibfs__topo_add_link(t, na, 1, nb, 1, IBFS_SPEED_EDR,
					     4, 2000, 0, &d), 0);
	struct ibfs_fabric *f = ibfs__fabric_new(t, 1, 0);
	struct ibfs_endpoint *a = ibfs__endpoint_create(f, na);
	struct ibfs_endpoint *b = ibfs__endpoint_create(f, nb);

	ck_assert_int_eq(ibfs__endpoint_port(a)->vls[0].credits, 2);
	flow(a, 2, 0, 100, 2, 0);
	flow(b, 1, 0, 4092, 2, 0);
	ibfs__eq_run(&f->eq, IBFS_TIME_NEVER);
	ibfs_time_t P = 10 * IBFS_NS, S1 = ser(110), Sb = ser(4102);
	ibfs_time_t F = ser(6);
	const struct ibfs_ep_stats *sa = ibfs__endpoint_stats(a);
	const struct ibfs_ep_stats *sb = ibfs__endpoint_stats(b);

	ck_assert_uint_eq(sb->rx_pkts, 2);
	ck_assert_uint_eq(sb->first_tail, P + S1);
	ck_assert_uint_eq(sb->last_tail, Sb + F + 2 * P + S1);
	ck_assert_uint_eq(sa->rx_pkts, 2);
	ck_assert_uint_eq(sa->first_tail, P + Sb);
	ck_assert_uint_eq(sa->last_tail, Sb + F + P + Sb);
	ck_assert_uint_eq(ibfs__endpoint_port(b)->fcp_sent, 2);
	ck_assert_uint_eq(ibfs__port_xmit_wait(ibfs__endpoint_port(a)),
			  Sb + F + P - S1);
	ck_assert_uint_eq(ibfs__port_xmit_wait(ibfs__endpoint_port(b)), 0);
	conserved(f);
	ibfs__endpoint_destroy(a);
	ibfs__endpoint_destroy(b);
	ibfs__fabric_free(f);
	ibfs__topo_free(t);
}
END_TEST

/*
 * Credits that reach a busy sender, whose transmitter ends after they
 * arrive, have no event of their own: they are the sender's as soon as
 * their FCP leaves (credits.c). 2 m of cable (P = 10 ns), 32 KiB of
 * buffer (512 blocks), packets of 2046 wire bytes (32 blocks) back to
 * back: packet k leaves at kS and its tail reaches the receiver at
 * kS + S + P, where the receiver (idle) sends its FCP at once, so the
 * credits arrive at (k + 1)S + 2P + F with F = ser(6), while the sender
 * is busy with packet k + 1 (2P + F < S). Only the last FCP finds the
 * sender idle and is an event.
 */
START_TEST(fcp_to_busy_sender_needs_no_event)
{
	struct pair x;
	const uint64_t n = 50;
	const uint32_t wire = 8 + 2036 + 2;
	const ibfs_time_t S = ser(wire), P = 10 * IBFS_NS, F = ser(6);

	ck_assert_uint_lt(2 * P + F, S);
	pair_make(&x, 2000, 32 * 1024, 1, 0);
	ck_assert_int_eq(ibfs__endpoint_track(x.b, 2, (uint32_t)n), 0);
	flow(x.a, 2, 0, 2036, n, 0);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);
	struct ibfs_port *pb = ibfs__endpoint_port(x.b);

	/*
	 * After the FCP of packet 3 left (4S + P), before it arrives: the
	 * sender is busy with packet 4 until 5S; packets 0-4 took 160
	 * credits, and the 128 of the FCPs of packets 0-3 are already
	 * back, none counted as on the wire (the receiver's fc_sent).
	 */
	ibfs__eq_run(&x.f->eq, 4 * S + P + F);
	ck_assert_uint_eq(pa->tx_busy, 1);
	/* As written at the send: the end of packet 4, on the way. */
	ck_assert_uint_eq(ibfs__endpoint_stats(x.a)->last_tx_end, 5 * S);
	ck_assert_int_eq(pa->vls[0].credits, 512 - 160 + 128);
	ck_assert_uint_eq(pb->vls[0].fc_sent, 0);
	ck_assert_uint_eq(ibfs__port_fcp_blocks(pb, 0), 0);
	ck_assert_uint_eq(x.f->fcps, 4);
	conserved(x.f);
	/* At 5S the transmitter ends and packet 5 takes 32 of them. */
	ibfs__eq_run(&x.f->eq, 5 * S);
	ck_assert_int_eq(pa->vls[0].credits, 512 - 192 + 128);
	ck_assert_uint_eq(pb->vls[0].fc_sent, 0);
	ck_assert_uint_eq(ibfs__port_fcp_blocks(pb, 0), 0);
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	for (uint32_t k = 0; k < n; k++) {
		uint16_t slid;
		ibfs_time_t head, tail;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.b, k, &slid, &head,
							&tail), 0);
		ck_assert_uint_eq(head, k * S + P + ser(8));
		ck_assert_uint_eq(tail, k * S + S + P);
	}
	/*
	 * Events: the flow's start, then per packet the sender's
	 * transmitter end and the receiver's tail; plus the last FCP.
	 */
	ck_assert_uint_eq(x.f->eq.executed, 1 + 2 * n + 1);
	ck_assert_uint_eq(x.f->fcps, n);
	ck_assert_int_eq(pa->vls[0].credits, 512);
	ck_assert_uint_eq(ibfs__port_xmit_wait(pa), 0);
	/* Back to back: the last packet's end, read from the port. */
	ck_assert_uint_eq(ibfs__endpoint_stats(x.a)->last_tx_end, n * S);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/*
 * A buffer freed sends its FCP at once only from a port that is up, idle
 * and owes nothing else: ibfs__port_fcp_ready tests the three in one word
 * (port->fc_state), each of them alone must make it false, and a port
 * without a link is never ready; ibfs__port_idle_up tests the first two
 * in one half-word.
 */
START_TEST(fcp_ready_word)
{
	struct pair x;

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);

	ck_assert_int_eq(ibfs__port_fcp_ready(pa), 1);
	ck_assert_int_eq(ibfs__port_idle_up(pa), 1);
	pa->tx_busy = 1;
	ck_assert_int_eq(ibfs__port_fcp_ready(pa), 0);
	ck_assert_int_eq(ibfs__port_idle_up(pa), 0);
	pa->tx_busy = 0;
	pa->up = 0;
	ck_assert_int_eq(ibfs__port_fcp_ready(pa), 0);
	ck_assert_int_eq(ibfs__port_idle_up(pa), 0);
	pa->up = 1;
	pa->fc_pending = 1u << 14;
	ck_assert_int_eq(ibfs__port_fcp_ready(pa), 0);
	/* Owing credits does not keep the port from sending. */
	ck_assert_int_eq(ibfs__port_idle_up(pa), 1);
	pa->fc_pending = 0;
	ck_assert_int_eq(ibfs__port_fcp_ready(pa), 1);
	/* Port 0 of an end node has no link. */
	ck_assert_ptr_null(pa[-1].peer);
	ck_assert_int_eq(ibfs__port_fcp_ready(&pa[-1]), 0);
	/* A link down and up again leaves the port ready. */
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, 1, 0), 1);
	ck_assert_int_eq(ibfs__port_fcp_ready(pa), 0);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, 1, 1), 1);
	ck_assert_int_eq(ibfs__port_fcp_ready(pa), 1);
	pair_free(&x);
}
END_TEST

/*
 * The port's one-entry cache of serialization times keeps 32-bit sizes and
 * times: a larger one is computed and not kept, so it never answers for
 * the size its low 32 bits give, nor with a time cut to 32 bits.
 */
START_TEST(ser_memo_large_sizes)
{
	struct pair x;

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);
	const uint64_t big = (1ULL << 32) + 5;
	ibfs_time_t t_big = ibfs__rate_ser_time(pa->rate, big);

	ck_assert_uint_eq(ibfs__port_ser(pa, 5), ser(5));
	ck_assert_uint_eq(ibfs__port_ser(pa, big), t_big);
	ck_assert_uint_eq(ibfs__port_ser(pa, 5), ser(5));
	ck_assert_uint_eq(ibfs__port_ser(pa, big), t_big);
	ck_assert_uint_eq(ibfs__port_ser(pa, 0), 0);
	ck_assert_uint_eq(ibfs__port_ser(pa, 4102), ser(4102));
	/* 10^8 bytes fit 32 bits, their 8 ms do not: computed each time. */
	ibfs_time_t t_long = ibfs__rate_ser_time(pa->rate, 100000000);

	ck_assert_uint_gt(t_long, UINT32_MAX);
	ck_assert_uint_eq(ibfs__port_ser(pa, 100000000), t_long);
	ck_assert_uint_eq(ibfs__port_ser(pa, 100000000), t_long);
	pair_free(&x);
}
END_TEST

/*
 * The shortcut of credits.c across a link going down and up: credits an
 * FCP gave at once to a busy sender, and credits of an FCP still on the
 * wire as an event, are each counted once by link_reset. Same stream as
 * fcp_to_busy_sender_needs_no_event (S per packet, 32 blocks each, 512
 * blocks of buffer). The link goes down at D = 4S + P + F: the credits of
 * packets 0-3 are already the sender's (their FCPs went at once), packet 4
 * (being sent until 5S) is lost, and nothing else is on the wire, so the
 * sender holds the whole buffer; it comes up at D + 1 ns, still busy, and
 * sends packet 5 at 5S. Then, after the last packet's FCP left (idle
 * sender, an event) and before it arrives, the link goes down and up
 * again: the sender holds the buffer less those 32 blocks, which the FCP
 * still brings.
 */
START_TEST(fcp_shortcut_across_link_down_up)
{
	struct pair x;
	const uint64_t n = 20;
	const uint32_t wire = 8 + 2036 + 2;
	const ibfs_time_t S = ser(wire), P = 10 * IBFS_NS, F = ser(6);
	const ibfs_time_t D = 4 * S + P + F;

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	ck_assert_int_eq(ibfs__endpoint_track(x.b, 2, (uint32_t)n), 0);
	flow(x.a, 2, 0, 2036, n, 0);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);
	struct ibfs_port *pb = ibfs__endpoint_port(x.b);

	ibfs__eq_run(&x.f->eq, D);
	ck_assert_int_eq(pa->vls[0].credits, 512 - 160 + 128);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, 1, 0), 1);
	ck_assert_uint_eq(x.f->pkts_lost, 1);
	ck_assert_uint_eq(pa->tx_busy, 1);
	ck_assert_int_eq(pa->vls[0].credits, 512);
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, D + IBFS_NS);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, 1, 1), 1);
	ck_assert_int_eq(pa->vls[0].credits, 512);
	conserved(x.f);
	/* The last packet (n - 1) leaves at (n - 1)S: its tail at nS + P. */
	const ibfs_time_t E = n * S + P + F / 2;

	ibfs__eq_run(&x.f->eq, E);
	ck_assert_uint_eq(pa->tx_busy, 0);
	ck_assert_uint_eq(ibfs__port_fcp_blocks(pb, 0), 32);
	ck_assert_int_eq(pa->vls[0].credits, 512 - 32);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, 1, 0), 1);
	ck_assert_int_eq(pa->vls[0].credits, 512 - 32);
	conserved(x.f);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, 1, 1), 1);
	ck_assert_int_eq(pa->vls[0].credits, 512 - 32);
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(pa->vls[0].credits, 512);
	ck_assert_uint_eq(ibfs__port_fcp_blocks(pb, 0), 0);
	ck_assert_uint_eq(pb->vls[0].buf_used, 0);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.b)->rx_pkts, n - 1);
	ck_assert_uint_eq(x.f->pkts_lost, 1);
	for (uint32_t k = 5; k < n; k++) {
		uint16_t slid;
		ibfs_time_t head, tail;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.b, k - 1, &slid,
							&head, &tail), 0);
		ck_assert_uint_eq(tail, k * S + S + P);
	}
	ck_assert_uint_eq(ibfs__port_xmit_wait(pa), 0);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/*
 * An FCP that lands at the very picosecond its sender's transmitter ends
 * is an event (credits.c: the shortcut takes only strictly earlier
 * times), run after the transmitter's end, which was scheduled first: at
 * that end the credits are not there yet. Two data VLs of 32 blocks each;
 * flow 0 sends 2 packets of 32 blocks on VL 0 (S0 = ser(2046)), flow 1 2
 * of 246 wire bytes on VL 1 (S1 = ser(246)). A cable of 1.92 m gives
 * P = 9.6 ns, so that 2P + F = S1: packet A0 leaves at 0, its FCP lands
 * at S0 + 2P + F = S0 + S1, when B0 (sent at S0) ends. Then VL 0 has no
 * credits yet, so B1 goes (S0 + S1), and A1 after it (S0 + 2 S1); had the
 * credits come at once, A1 would have gone first.
 */
START_TEST(fcp_landing_as_transmitter_ends)
{
	struct pair x;
	const ibfs_time_t S0 = ser(2046), S1 = ser(246), P = 9600;
	const ibfs_time_t F = ser(6);

	ck_assert_uint_eq(2 * P + F, S1);
	pair_make(&x, 1920, 4096, 2, 0);
	ck_assert_int_eq(ibfs__endpoint_track(x.b, 2, 4), 0);
	ibfs__endpoint_set_sl2vl(x.a, 1, 1);
	flow(x.a, 2, 0, 2036, 2, 0);
	flow(x.a, 2, 1, 236, 2, 0);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);

	ck_assert_int_eq(pa->vls[0].credits, 32);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const ibfs_time_t tails[4] = {
		S0 + P,                 /* A0 */
		S0 + S1 + P,            /* B0 */
		S0 + 2 * S1 + P,        /* B1 */
		S0 + 2 * S1 + S0 + P,   /* A1 */
	};

	for (uint32_t k = 0; k < 4; k++) {
		uint16_t slid;
		ibfs_time_t head, tail;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.b, k, &slid, &head,
							&tail), 0);
		ck_assert_uint_eq(tail, tails[k]);
	}
	/* A0's FCP was an event; A1's the last FCP, also. */
	ck_assert_uint_eq(pa->vls[0].fc_got, 64);
	ck_assert_int_eq(pa->vls[0].credits, 32);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/* What a run of send_paths_same_run leaves, to compare two runs. */
struct mix_run {
	ibfs_time_t now;
	uint64_t executed, fcps, on_tx;
	struct ibfs_port_counters cnt[2];
	ibfs_time_t xmit_wait[2];
	int32_t credits[2][2];
	ibfs_time_t head[2][200], tail[2][200];
};

static void mix_on_tx(void *ctx, const struct ibfs_port *out,
		      const struct ibfs_packet *p, ibfs_time_t start)
{
	(void)out;
	(void)p;
	(void)start;
	((struct mix_run *)ctx)->on_tx++;
}

/*
 * Both ends send on two data VLs with sizes that change from flow to flow
 * (the serialization memo misses, so ibfs__port_send takes both its
 * straight path and link_send_general), through a small buffer (credit
 * waits, FCPs to busy senders and to idle ones, FCPs of two VLs back to
 * back, FCPs ahead of data). `observe` adds an observer, which sends
 * every packet through link_send_general.
 */
static void mix_run(struct mix_run *r, int observe)
{
	struct pair x;
	struct ibfs_observer o = { .on_tx = mix_on_tx, .ctx = r };

	memset(r, 0, sizeof(*r));
	pair_make(&x, 30000, 8 * 1024, 2, 0);
	if (observe)
		ibfs__fabric_observe(x.f, &o);
	struct ibfs_endpoint *ep[2] = { x.a, x.b };

	for (int e = 0; e < 2; e++) {
		uint16_t peer = (uint16_t)(e ? 1 : 2);

		ck_assert_int_eq(ibfs__endpoint_track(ep[e], 2, 200), 0);
		flow(ep[e], peer, 0, 2036, 40, 0);
		flow(ep[e], peer, 1, 100 + 300 * (uint32_t)e, 60, 0);
		flow(ep[e], peer, 1, 1000, 30, 7 * IBFS_NS);
	}
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	r->now = x.f->eq.now;
	r->executed = x.f->eq.executed;
	r->fcps = x.f->fcps;
	for (int e = 0; e < 2; e++) {
		struct ibfs_port *pt = ibfs__endpoint_port(ep[e]);

		r->cnt[e] = pt->cnt;
		r->xmit_wait[e] = ibfs__port_xmit_wait(pt);
		for (int vl = 0; vl < 2; vl++)
			r->credits[e][vl] = pt->vls[vl].credits;
		ck_assert_uint_eq(ibfs__endpoint_stats(ep[e])->rx_pkts, 130);
		for (uint32_t k = 0; k < 130; k++) {
			uint16_t slid;

			ck_assert_int_eq(ibfs__endpoint_arrival(ep[e], k, &slid,
								&r->head[e][k],
								&r->tail[e][k]),
					 0);
		}
	}
	conserved(x.f);
	pair_free(&x);
}

/*
 * ibfs__port_send's straight path and its general copy make the same
 * run: every arrival at the same picosecond, the same events, FCPs,
 * counters and credits, with and without an observer.
 */
START_TEST(send_paths_same_run)
{
	static struct mix_run plain, seen;

	mix_run(&plain, 0);
	mix_run(&seen, 1);
	ck_assert_uint_eq(plain.on_tx, 0);
	ck_assert_uint_eq(seen.on_tx, 260);
	/* The run waited for credits and sent FCPs: it tests something. */
	ck_assert_uint_gt(plain.xmit_wait[0], 0);
	ck_assert_uint_gt(plain.fcps, 0);
	ck_assert_uint_eq(plain.now, seen.now);
	ck_assert_uint_eq(plain.executed, seen.executed);
	ck_assert_uint_eq(plain.fcps, seen.fcps);
	for (int e = 0; e < 2; e++) {
		ck_assert_uint_eq(plain.cnt[e].busy, seen.cnt[e].busy);
		ck_assert_uint_eq(plain.cnt[e].xmit_data, seen.cnt[e].xmit_data);
		ck_assert_uint_eq(plain.cnt[e].rcv_data, seen.cnt[e].rcv_data);
		ck_assert_uint_eq(plain.cnt[e].xmit_pkts, 130);
		ck_assert_uint_eq(plain.cnt[e].xmit_pkts, seen.cnt[e].xmit_pkts);
		ck_assert_uint_eq(plain.xmit_wait[e], seen.xmit_wait[e]);
		for (int vl = 0; vl < 2; vl++)
			ck_assert_int_eq(plain.credits[e][vl],
					 seen.credits[e][vl]);
		for (int k = 0; k < 130; k++) {
			ck_assert_uint_eq(plain.head[e][k], seen.head[e][k]);
			ck_assert_uint_eq(plain.tail[e][k], seen.tail[e][k]);
		}
	}
}
END_TEST

static Suite *link_fcp_suite(void)
{
	Suite *s = suite_create("link_fcp");
	TCase *tc = tcase_create("link_fcp");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, fcp_waits_for_packet_boundary);
	tcase_add_test(tc, fcp_to_busy_sender_needs_no_event);
	tcase_add_test(tc, ser_memo_large_sizes);
	tcase_add_test(tc, fcp_ready_word);
	tcase_add_test(tc, fcp_shortcut_across_link_down_up);
	tcase_add_test(tc, send_paths_same_run);
	tcase_add_test(tc, fcp_landing_as_transmitter_ends);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(link_fcp_suite)
