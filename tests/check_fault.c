/* SPDX-License-Identifier: MIT */
/*
 * Links and switches going down and coming back up (src/fabric/link_state.c,
 * src/switch/port_state.c), on a star of endpoints around one switch.
 *
 * Every expected figure is worked out here from first principles: 4x EDR
 * carries 4 x 25.78125 Gb/s x 64/66 = 100 Gb/s and 1x SDR 2.5 Gb/s x 8/10
 * = 2 Gb/s (IBA 6.3); a 2 m cable takes 10 ns (5 ns per metre); a raw
 * packet is LRH 8 + payload + VCRC 2 bytes and fills ceil(bytes / 64)
 * credit blocks; the switch forwards a packet `lat` (100 ns) after its
 * header arrived (cut-through) and an endpoint takes it at its tail.
 * With the output as fast as the input and idle, packet i of a stream
 * started back to back at 0 leaves the switch at
 *   s_i = i S + P + ser(8) + lat
 * (S = ser(packet), P = propagation) and its tail reaches the far
 * endpoint at s_i + P + S.
 */
#include "switch_star.h"

/* Payload 1000 bytes: 1010 on the wire, 16 blocks. */
#define PAYLOAD 1000
#define WIRE (8 + PAYLOAD + 2)
#define BLOCKS ((WIRE + 63) / 64)
#define PROP 10000ULL    /* 2 m at 5 ns/m, in ps */
#define LAT 100000ULL    /* the switch's default routing latency */
#define BUF 32768        /* input buffer of a port, one data VL */
#define CAP (BUF / 64)   /* its blocks */

/*
 * The star of switch_star.h with this suite's settings: data on, 32 KiB
 * input buffers, arrivals recorded, and endpoint `slow` (-1: none) on a
 * 1x SDR link.
 */
static void star_make_fault(struct star *x, int k, int slow)
{
	const struct star_opts o = {
		.buffer = BUF, .data_mode = 1, .slow = slow + 1, .track = 1,
	};

	star_make(x, k, &o);
}

/* A flow of `count` raw packets of PAYLOAD bytes to dlid. */
static void flow_n(struct ibfs_endpoint *ep, uint16_t dlid, uint64_t count)
{
	struct ibfs_diag d;
	struct ibfs_ep_flow_spec s = {
		.dlid = dlid, .payload = PAYLOAD, .count = count,
	};

	ck_assert_int_eq(ibfs__endpoint_add_flow(ep, &s, &d), 0);
}

static ibfs_time_t tail_of(const struct star *x, int ep, uint32_t i)
{
	uint16_t slid;
	ibfs_time_t head, tail;

	ck_assert_int_eq(ibfs__endpoint_arrival(x->ep[ep], i, &slid, &head,
						&tail), 0);
	return tail;
}

static struct ibfs_port *swp(struct star *x, int port)
{
	return ibfs__fabric_port(x->f, 0, port);
}

/* s_i: when packet i of a back-to-back stream leaves the switch. */
static ibfs_time_t leave_sw(uint64_t i)
{
	return i * ser(WIRE) + PROP + ser(8) + LAT;
}

/* What a listener saw: each call, in order. */
struct heard {
	int n;
	struct {
		int node, port, up;
		ibfs_time_t at;
		int32_t credits;
	} ev[16];
};

static void hear(void *ctx, struct ibfs_port *port, int up)
{
	struct heard *h = ctx;

	if (h->n >= 16)
		return;
	h->ev[h->n].node = port->node;
	h->ev[h->n].port = port->num;
	h->ev[h->n].up = up;
	h->ev[h->n].at = port->fab->eq.now;
	h->ev[h->n].credits = port->vls[0].credits;
	h->n++;
}

START_TEST(test_down_mid_stream)
{
	/*
	 * h0 streams 20 packets to h1; the link sw:2-h1 goes down at T, 5 ns
	 * into the switch's sending of packet 3. Packets 0 and 1 have
	 * arrived; 2 (its tail still coming) and 3 (being sent) are lost
	 * on the wire; 4..19 reach the switch after T and are discarded
	 * there, counted in PortXmitDiscards of port 2.
	 */
	struct star x;
	struct heard h = { 0 };
	struct ibfs_port_listener l = { .port_state = hear, .ctx = &h };
	const uint64_t n = 20;
	const ibfs_time_t T = leave_sw(3) + 5000;

	star_make_fault(&x, 2, -1);
	ibfs__fabric_listen(x.f, &l);
	flow_n(x.ep[0], 2, n);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, T, 0, 2, 0), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);

	const struct ibfs_ep_stats *b = ibfs__endpoint_stats(x.ep[1]);

	ck_assert_uint_eq(b->rx_pkts, 2);
	ck_assert_uint_eq(tail_of(&x, 1, 0), leave_sw(0) + PROP + ser(WIRE));
	ck_assert_uint_eq(tail_of(&x, 1, 1), leave_sw(1) + PROP + ser(WIRE));
	ck_assert_uint_eq(b->data_errors, 0);
	/* The sender is not on the failed link: it sent everything. */
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[0])->tx_pkts, n);
	ck_assert_uint_eq(x.f->pkts_injected, n);
	ck_assert_uint_eq(x.f->pkts_delivered, 2);
	ck_assert_uint_eq(x.f->pkts_lost, 2);
	ck_assert_uint_eq(x.f->pkts_dropped, n - 2);
	ck_assert_uint_eq(swp(&x, 2)->xmit_discards, n - 4);
	/* By cause: the two on the wire, the rest at the dead output. */
	ck_assert_uint_eq(x.f->drops[IBFS_DROP_LINK_DOWN], 2);
	ck_assert_uint_eq(x.f->drops[IBFS_DROP_PORT_DOWN], n - 4);
	ck_assert_uint_eq(ibfs__switch_relay_errors(x.sw), 0);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 0);
	ck_assert_uint_eq(x.f->packets.in_use, 0);
	ck_assert_uint_eq(swp(&x, 2)->link_downed, 1);
	ck_assert_uint_eq(ibfs__endpoint_port(x.ep[1])->link_downed, 1);
	ck_assert_int_eq(swp(&x, 2)->up, 0);
	ck_assert_int_eq(ibfs__endpoint_port(x.ep[1])->up, 0);
	/* The sender's link is whole: its credits all came back. */
	ck_assert_int_eq(ibfs__endpoint_port(x.ep[0])->vls[0].credits, CAP);
	conserved(x.f);
	/* The listener heard both ends at T, switch side first. */
	ck_assert_int_eq(h.n, 2);
	ck_assert_int_eq(h.ev[0].node, 0);
	ck_assert_int_eq(h.ev[0].port, 2);
	ck_assert_int_eq(h.ev[1].node, 2);
	ck_assert_int_eq(h.ev[1].port, 1);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(h.ev[i].up, 0);
		ck_assert_uint_eq(h.ev[i].at, T);
	}
	ibfs__fabric_unlisten(x.f, &l);
	ck_assert_ptr_null(x.f->listeners);
	star_free(&x);
}
END_TEST

START_TEST(test_down_then_up)
{
	/*
	 * As above, and the link comes back at U = 3 us. The switch port's
	 * credits are the whole of h1's buffer again (h1 holds nothing), so
	 * the first packet the switch receives after U goes straight on:
	 * packet j, the first with s_j > U, arrives at s_j + P + S; every
	 * later one follows S apart. Packets 4..j-1 came while down.
	 */
	struct star x;
	struct heard h = { 0 };
	struct ibfs_port_listener l = { .port_state = hear, .ctx = &h };
	const uint64_t n = 60;
	const ibfs_time_t T = leave_sw(3) + 5000;
	const ibfs_time_t U = 3000000;
	uint64_t j = 0;

	while (leave_sw(j) <= U)
		j++;
	ck_assert_uint_lt(j, n);
	star_make_fault(&x, 2, -1);
	ibfs__fabric_listen(x.f, &l);
	flow_n(x.ep[0], 2, n);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, T, 0, 2, 0), 0);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, U, 2, 1, 1), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);

	const struct ibfs_ep_stats *b = ibfs__endpoint_stats(x.ep[1]);

	ck_assert_uint_eq(b->rx_pkts, 2 + (n - j));
	ck_assert_uint_eq(tail_of(&x, 1, 1), leave_sw(1) + PROP + ser(WIRE));
	ck_assert_uint_eq(tail_of(&x, 1, 2), leave_sw(j) + PROP + ser(WIRE));
	ck_assert_uint_eq(b->last_tail, leave_sw(n - 1) + PROP + ser(WIRE));
	ck_assert_uint_eq(b->data_errors, 0);
	ck_assert_uint_eq(x.f->pkts_lost, 2);
	ck_assert_uint_eq(swp(&x, 2)->xmit_discards, j - 4);
	ck_assert_uint_eq(x.f->pkts_dropped, j - 2);
	ck_assert_uint_eq(x.f->pkts_delivered, 2 + (n - j));
	ck_assert_int_eq(swp(&x, 2)->up, 1);
	ck_assert_int_eq(swp(&x, 2)->vls[0].credits, CAP);
	ck_assert_int_eq(ibfs__endpoint_port(x.ep[1])->vls[0].credits, CAP);
	conserved(x.f);
	/*
	 * At the up, before anything was sent: the switch port held credits
	 * for all of h1's buffer, h1's port for all of the switch's.
	 */
	ck_assert_int_eq(h.n, 4);
	for (int i = 2; i < 4; i++) {
		ck_assert_int_eq(h.ev[i].up, 1);
		ck_assert_uint_eq(h.ev[i].at, U);
		ck_assert_int_eq(h.ev[i].credits, CAP);
	}
	ck_assert_int_eq(h.ev[2].node, 2); /* the end named in the call */
	ck_assert_int_eq(h.ev[3].node, 0);
	star_free(&x);
}
END_TEST

START_TEST(test_sender_link_down_up)
{
	/*
	 * The link h0-sw:1 goes down at T, 20 ns into h0's sending of
	 * packet k = 6. Packets 0..k were started; those the switch had
	 * taken by T (s_i <= T) go on to h1 over its healthy link, the rest
	 * are lost on h0's wire. h0 sends nothing while down and starts
	 * packet k + 1 at the up, U, exactly: its tail reaches h1 at
	 * U + P + ser(8) + lat + P + S.
	 */
	struct star x;
	struct heard h = { 0 };
	struct ibfs_port_listener l = { .port_state = hear, .ctx = &h };
	const uint64_t n = 10, k = 6;
	const ibfs_time_t S = ser(WIRE);
	const ibfs_time_t T = k * S + 20000;
	const ibfs_time_t U = 2000000;
	uint64_t del = 0;

	while (leave_sw(del) <= T)
		del++;
	ck_assert_uint_eq(del, 5); /* s_4 = 433.84 ns <= T = 504.8 ns */
	star_make_fault(&x, 2, -1);
	ibfs__fabric_listen(x.f, &l);
	flow_n(x.ep[0], 2, n);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, T, 1, 1, 0), 0);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, U, 1, 1, 1), 0);
	ibfs__eq_run(&x.f->eq, U - 1);
	/* While down: nothing more sent, no PortXmitWait counted. */
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[0])->tx_pkts, k + 1);
	ck_assert_uint_eq(ibfs__port_xmit_wait(ibfs__endpoint_port(x.ep[0])),
			  0);
	ck_assert_uint_eq(x.f->pkts_lost, k + 1 - del);
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);

	const struct ibfs_ep_stats *b = ibfs__endpoint_stats(x.ep[1]);

	ck_assert_uint_eq(b->rx_pkts, del + (n - k - 1));
	ck_assert_uint_eq(tail_of(&x, 1, (uint32_t)del),
			  U + PROP + ser(8) + LAT + PROP + S);
	ck_assert_uint_eq(b->last_tail, U + (n - k - 2) * S + PROP +
						ser(8) + LAT + PROP + S);
	ck_assert_uint_eq(x.f->pkts_dropped, k + 1 - del);
	ck_assert_uint_eq(swp(&x, 2)->xmit_discards, 0);
	ck_assert_int_eq(ibfs__endpoint_port(x.ep[0])->vls[0].credits, CAP);
	conserved(x.f);
	ck_assert_int_eq(h.n, 4);
	ck_assert_int_eq(h.ev[2].credits, CAP); /* h0 at the up */
	star_free(&x);
}
END_TEST

START_TEST(test_switch_down_up)
{
	/*
	 * The whole switch fails at T, 30 ns into h0's packet k = 5, and
	 * returns at U: every linked port goes down and up (three, h2 is
	 * idle), what was on either wire is lost, and the stream resumes
	 * at U as in the sender's case, through the restored switch.
	 */
	struct star x;
	struct heard h = { 0 };
	struct ibfs_port_listener l = { .port_state = hear, .ctx = &h };
	const uint64_t n = 9, k = 5;
	const ibfs_time_t S = ser(WIRE);
	const ibfs_time_t T = k * S + 30000;
	const ibfs_time_t U = 1000000;
	uint64_t del = 0;

	while (leave_sw(del) + PROP + S < T)
		del++;
	ck_assert_uint_lt(del, k);
	star_make_fault(&x, 3, -1);
	ibfs__fabric_listen(x.f, &l);
	flow_n(x.ep[0], 2, n);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, T, 0, 0, 0), 0);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, U, 0, 0, 1), 0);
	ibfs__eq_run(&x.f->eq, U - 1);
	for (int p = 1; p <= 3; p++) {
		ck_assert_int_eq(swp(&x, p)->up, 0);
		ck_assert_uint_eq(swp(&x, p)->link_downed, 1);
	}
	ck_assert_int_eq(h.n, 6);
	ck_assert_uint_eq(x.f->pkts_lost, k + 1 - del);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 0);
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);

	const struct ibfs_ep_stats *b = ibfs__endpoint_stats(x.ep[1]);

	ck_assert_int_eq(h.n, 12);
	ck_assert_uint_eq(b->rx_pkts, del + (n - k - 1));
	ck_assert_uint_eq(tail_of(&x, 1, (uint32_t)del),
			  U + PROP + ser(8) + LAT + PROP + S);
	ck_assert_uint_eq(x.f->pkts_dropped, k + 1 - del);
	for (int p = 1; p <= 3; p++) {
		ck_assert_int_eq(swp(&x, p)->up, 1);
		ck_assert_int_eq(swp(&x, p)->vls[0].credits, CAP);
	}
	/* Again: nothing changes, 0; a bad node, -1. */
	ck_assert_int_eq(ibfs__fabric_switch_set(x.f, 0, 1), 0);
	ck_assert_int_eq(ibfs__fabric_switch_set(x.f, 9, 0), -1);
	ck_assert_int_eq(ibfs__fabric_switch_set(x.f, -1, 0), -1);
	conserved(x.f);
	star_free(&x);
}
END_TEST

/*
 * The two tests below cut h1's 1x SDR link at T = s0 + 1 us, while the
 * first packet to h1 (leaving the switch at s0 = leave_sw(0)) crawls to
 * it; that packet's transmitter would have ended at
 * E = s0 + ser_SDR(WIRE), and only then does the switch input it blocks
 * move on.
 */
#define CUT_AT (leave_sw(0) + 1000000)

/*
 * What both find afterwards: h1 got nothing; endpoint `dst`, whose
 * packets from the `first`-th on queued behind that first one, got all n:
 * those before `first` at their cut-through time, the `first`-th leaving
 * at E and the rest back to back; the packet on the cut link was lost
 * and the other n - 1 for h1 were discarded at port 2 (PortXmitDiscards);
 * nothing is left anywhere and the sender holds all its credits again.
 */
static void behind_cut(struct star *x, int dst, uint64_t n, uint32_t first)
{
	const ibfs_time_t S = ser(WIRE);
	const ibfs_time_t E = leave_sw(0) + ser_at(SDR1X_BPS, WIRE);
	const struct ibfs_ep_stats *d = ibfs__endpoint_stats(x->ep[dst]);

	ck_assert_uint_eq(ibfs__endpoint_stats(x->ep[1])->rx_pkts, 0);
	ck_assert_uint_eq(d->rx_pkts, n);
	ck_assert_uint_eq(d->data_errors, 0);
	for (uint32_t j = 0; j < first; j++)
		ck_assert_uint_eq(tail_of(x, dst, j), leave_sw(j) + S + PROP);
	ck_assert_uint_eq(tail_of(x, dst, first), E + PROP + S);
	ck_assert_uint_eq(tail_of(x, dst, first + 1), E + S + PROP + S);
	ck_assert_uint_eq(x->f->pkts_lost, 1);
	ck_assert_uint_eq(swp(x, 2)->xmit_discards, n - 1);
	ck_assert_uint_eq(x->f->pkts_delivered, n);
	ck_assert_uint_eq(ibfs__switch_buffered(x->sw), 0);
	ck_assert_uint_eq(x->f->packets.in_use, 0);
	ck_assert_int_eq(ibfs__endpoint_port(x->ep[0])->vls[0].credits, CAP);
	conserved(x->f);
}

START_TEST(test_held_for_down_output)
{
	/*
	 * h0 sends alternately to h1 (on a 1x SDR link, 50 times slower)
	 * and h3, so packets for h1 pile up in input 1's FIFO with those
	 * for h3 behind them. h1's link fails at T, 1 us into the first
	 * packet to h1 (p0, leaving at s0 = P + ser(8) + lat). The input
	 * stays joined to that output until p0's transmitter would have
	 * ended, E = s0 + ser_SDR(1010); then p1 (to h3) leaves at E, the
	 * head for h1 behind it is discarded at once, p3 leaves at E + S,
	 * and so on: without the discard, p2 would block h3's packets
	 * forever. h3 gets all its packets; every packet for h1 but p0 is
	 * discarded (PortXmitDiscards of port 2).
	 */
	struct star x;
	const uint64_t n = 40; /* per flow */

	star_make_fault(&x, 4, 1);
	flow_n(x.ep[0], 2, n);
	flow_n(x.ep[0], 4, n);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, CUT_AT, 2, 1, 0), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	behind_cut(&x, 3, n, 0);
	ck_assert_uint_eq(x.f->pkts_dropped, n);
	star_free(&x);
}
END_TEST

/*
 * A FIFO emptied by the discard of its only packet takes packets again.
 * h0 sends one packet to h1 (on 1x SDR: 4 us on the wire from leave_sw(0))
 * and h2 one to h1 at 200 ns, which waits alone in input 3's FIFO for
 * port 2. h1's link fails at T, while h0's packet crawls to it: that one
 * is lost; when port 2's transmitter would have ended, the output finds
 * its link down and discards the waiting packet, leaving the FIFO empty
 * (head and tail). From 5 us h2 sends five packets to h0 through the same
 * FIFO: each arrives at its cut-through time, start + P + ser(LRH) +
 * latency + S + P.
 */
START_TEST(test_fifo_emptied_by_discard)
{
	struct star x;
	struct ibfs_diag d;
	const ibfs_time_t S = ser(WIRE), T5 = 5 * IBFS_US;
	struct ibfs_ep_flow_spec late = {
		.dlid = 1, .payload = PAYLOAD, .count = 5, .start = T5,
	};
	struct ibfs_ep_flow_spec wait = {
		.dlid = 2, .payload = PAYLOAD, .count = 1, .start = 200 * IBFS_NS,
	};

	star_make_fault(&x, 3, 1);
	flow_n(x.ep[0], 2, 1);
	ck_assert_int_eq(ibfs__endpoint_add_flow(x.ep[2], &wait, &d), 0);
	ck_assert_int_eq(ibfs__endpoint_add_flow(x.ep[2], &late, &d), 0);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, CUT_AT, 2, 1, 0), 0);
	/* Before 5 us: the discard done, the FIFO empty, nothing buffered. */
	ibfs__eq_run(&x.f->eq, T5 - 1);
	ck_assert_uint_eq(swp(&x, 2)->xmit_discards, 1);
	ck_assert_uint_eq(x.f->pkts_lost, 1);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 0);
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[0])->rx_pkts, 5);
	for (uint32_t j = 0; j < 5; j++)
		ck_assert_uint_eq(tail_of(&x, 0, j),
				  T5 + j * S + PROP + ser(8) + LAT + S + PROP);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[1])->rx_pkts, 0);
	ck_assert_uint_eq(x.f->pkts_dropped, 2);
	ck_assert_uint_eq(x.f->pkts_delivered, 5);
	ck_assert_uint_eq(x.f->packets.in_use, 0);
	conserved(x.f);
	star_free(&x);
}
END_TEST

/*
 * h0 multicasts n packets to MLID 0xC001, whose MFT holds ports 2 (h1, on
 * 1x SDR) and 3 (h2); port 2's link fails at T, and port 3's too when
 * both is set. Runs to the end.
 */
static void multicast_cut(struct star *x, uint64_t n, int both)
{
	struct ibfs_diag d;
	const uint8_t ports[2] = { 2, 3 };
	struct ibfs_ep_flow_spec fs = {
		.dlid = 0xC001, .payload = PAYLOAD, .count = n,
	};

	star_make_fault(x, 3, 1);
	ck_assert_int_eq(ibfs__switch_set_mft(x->sw, 0xC001, ports, 2), 0);
	ck_assert_int_eq(ibfs__endpoint_add_flow(x->ep[0], &fs, &d), 0);
	ck_assert_int_eq(ibfs__fabric_fault_at(x->f, CUT_AT, 0, 2, 0), 0);
	if (both)
		ck_assert_int_eq(ibfs__fabric_fault_at(x->f, CUT_AT, 0, 3, 0),
				 0);
	ibfs__eq_run(&x->f->eq, IBFS_TIME_NEVER);
}

START_TEST(test_multicast_copy_for_down_output)
{
	/*
	 * multicast_cut, port 2 only. p0's two copies find both outputs
	 * idle and input 1's FIFO empty: both start at once (mc_start.c,
	 * ibfs__sw_mc_start). Each later packet's copies queue in input 1's
	 * FIFO, the one for port 2 (still busy with p0's slow copy) first.
	 * h1's link fails at T, while p0's copy crawls to it: that copy is
	 * lost, the copies for port 2 already queued are discarded as they
	 * reach the head, and packets arriving later are copied to port 3
	 * only (each counted in port 2's PortXmitDiscards). h2 gets every
	 * packet; the originals are all retired once their last copy has
	 * gone.
	 */
	struct star x;
	const uint64_t n = 30;

	multicast_cut(&x, n, 0);
	/* p0 reached h2 at once; p1's copy for h2 waited behind p1's for h1
	 * until E. */
	behind_cut(&x, 2, n, 1);
	ck_assert_uint_eq(x.f->pkts_retired, n);
	star_free(&x);
}
END_TEST

START_TEST(test_multicast_both_outputs_down)
{
	/*
	 * As above, but both outputs of the group fail at T: h1's (port 2,
	 * on 1x SDR) and h2's (3). Only p0's copies have left by T, both at
	 * once: the one for h2 arrives, the one for h1 is lost on its
	 * failing link; every other copy, queued in input 1's FIFO behind
	 * p1's for h1, is discarded at its down port, and of each packet's
	 * two copies the one discarded last retires the original
	 * (port_state.c). Every copy is accounted for, and no packet or
	 * payload is left allocated.
	 */
	struct star x;
	const uint64_t n = 30;

	multicast_cut(&x, n, 1);
	uint64_t to_h1 = ibfs__endpoint_stats(x.ep[1])->rx_pkts;
	uint64_t to_h2 = ibfs__endpoint_stats(x.ep[2])->rx_pkts;

	/*
	 * The switch takes packet i in at leave_sw(i): the k before T were
	 * copied twice, the n - k after it found both outputs down and were
	 * discarded whole (counted at each port).
	 */
	const uint64_t k = (CUT_AT - leave_sw(0) + ser(WIRE) - 1) / ser(WIRE);

	ck_assert_uint_eq(k, 13);
	ck_assert_uint_lt(leave_sw(k - 1), CUT_AT);
	ck_assert_uint_ge(leave_sw(k), CUT_AT);
	ck_assert_uint_eq(x.f->pkts_replicated, 2 * k);
	ck_assert_uint_eq(x.f->pkts_retired, k);
	/* p0's copy for h1 was on its 4 us way at T: lost; p0's for h2
	 * arrived long before. Every later copy: discarded. */
	ck_assert_uint_eq(to_h1, 0);
	ck_assert_uint_eq(to_h2, 1);
	ck_assert_uint_eq(x.f->pkts_lost, 1);
	ck_assert_uint_eq(swp(&x, 2)->xmit_discards, n - 1);
	ck_assert_uint_eq(swp(&x, 3)->xmit_discards, n - 1);
	ck_assert_uint_eq(x.f->pkts_dropped, (2 * k - 2) + 1 + (n - k));
	ck_assert_uint_eq(x.f->pkts_delivered, 1);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 0);
	ck_assert_uint_eq(x.f->packets.in_use, 0);
	ck_assert_uint_eq(x.f->payloads.in_use, 0);
	ck_assert_int_eq(ibfs__endpoint_port(x.ep[0])->vls[0].credits, CAP);
	conserved(x.f);
	star_free(&x);
}
END_TEST

START_TEST(test_errors)
{
	struct star x;
	struct ibfs_topology *t;
	struct ibfs_diag d;

	star_make_fault(&x, 2, -1);
	/* Bad node, bad port, a port with no link. */
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 5, 1, 0), -1);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, -1, 1, 0), -1);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, 3, 0), -1);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, -1, 0), -1);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, 0, 0), -1);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, 10, 7, 1, 0), -1);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, 10, 0, 9, 0), -1);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, 10, 0, -2, 0), -1);
	/* Already up: no change; down twice: the second changes nothing. */
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, 1, 1), 0);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 0, 1, 0), 1);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 1, 1, 0), 0);
	ck_assert_uint_eq(swp(&x, 1)->link_downed, 1);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 1, 1, 7), 1);
	ck_assert_int_eq(swp(&x, 1)->up, 1);
	conserved(x.f);
	star_free(&x);

	/* An unlinked port of a switch. */
	t = ibfs__topo_new("lone");
	ck_assert_int_eq(ibfs__topo_add_node(t, "sw", IBFS_NODE_SWITCH, 4, 0,
					     &d), 0);
	struct ibfs_fabric *f = ibfs__fabric_new(t, 1, 0);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ibfs__fabric_link_set(f, 0, 2, 0), -1);
	ck_assert_int_eq(ibfs__fabric_fault_at(f, 0, 0, 2, 0), -1);
	ck_assert_int_eq(ibfs__fabric_switch_set(f, 0, 0), 0);
	ck_assert_int_eq(ibfs__fabric_fault_at(f, 0, 0, 0, 0), 0);
	ibfs__eq_run(&f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(f->eq.now, 0);
	ibfs__fabric_free(f);
	ibfs__topo_free(t);
}
END_TEST

static void nop_ev(void *obj, uint64_t arg)
{
	(void)obj;
	(void)arg;
}

START_TEST(test_fault_in_past)
{
	struct star x;

	star_make_fault(&x, 2, -1);
	ibfs__eq_schedule(&x.f->eq, 500, nop_ev, NULL, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.f->eq.now, 500);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, 499, 0, 1, 0), -1);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, 500, 0, 1, 0), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(swp(&x, 1)->up, 0);
	star_free(&x);
}
END_TEST

static Suite *fault_suite(void)
{
	Suite *s = suite_create("fault");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_down_mid_stream);
	tcase_add_test(tc, test_down_then_up);
	tcase_add_test(tc, test_sender_link_down_up);
	tcase_add_test(tc, test_switch_down_up);
	tcase_add_test(tc, test_held_for_down_output);
	tcase_add_test(tc, test_multicast_copy_for_down_output);
	tcase_add_test(tc, test_multicast_both_outputs_down);
	tcase_add_test(tc, test_fifo_emptied_by_discard);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_fault_in_past);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(fault_suite)
