/* SPDX-License-Identifier: MIT */
/*
 * The link layer and credit-based flow control between two endpoints
 * joined by one cable. Every expected time is computed here from first
 * principles: 4x EDR carries 4 x 25.78125 Gb/s x 64/66 = 100 Gb/s (IBA
 * 6.3), so n bytes take n x 80 ps; a cable takes 5 ns per metre; an FCP is
 * 6 bytes (IBA 7.9.4.2); credits are 64-byte blocks.
 */
#include "link_pair.h"

START_TEST(one_packet_head_and_tail)
{
	struct pair x;

	pair_make(&x, 2000, 32 * 1024, 1, 1);
	flow(x.a, 2, 0, 1000, 1, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.b);
	ibfs_time_t prop = 2 * 5 * IBFS_NS;
	uint32_t wire = 8 + 1000 + 2;

	ck_assert_uint_eq(st->rx_pkts, 1);
	ck_assert_uint_eq(st->rx_wire, wire);
	ck_assert_uint_eq(st->first_head, prop + ser(8));
	ck_assert_uint_eq(st->first_tail, prop + ser(wire));
	ck_assert_uint_eq(st->first_tail, 10000 + 80800);
	ck_assert_uint_eq(st->data_errors, 0);
	ck_assert_uint_eq(st->misrouted, 0);
	/* One FCP returned the 16 blocks: the sender holds 512 again. */
	ck_assert_uint_eq(x.f->fcps, 1);
	ck_assert_int_eq(ibfs__endpoint_port(x.a)->vls[0].credits, 512);
	ck_assert_uint_eq(x.f->pkts_injected, 1);
	ck_assert_uint_eq(x.f->pkts_delivered, 1);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);
	struct ibfs_port *pb = ibfs__endpoint_port(x.b);

	ck_assert_uint_eq(pa->cnt.xmit_pkts, 1);
	ck_assert_uint_eq(pa->cnt.xmit_data, wire);
	ck_assert_uint_eq(pb->cnt.rcv_pkts, 1);
	ck_assert_uint_eq(pb->cnt.rcv_data, wire);
	ck_assert_uint_eq(pb->vls[0].buf_top, 16);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

START_TEST(saturating_stream)
{
	struct pair x;
	const uint64_t n = 2000;
	const uint32_t payload = 4092, wire = 8 + 4092 + 2;

	/* 512 blocks hold 7 packets; a credit round trip is ~1.07 packets. */
	pair_make(&x, 2000, 32 * 1024, 1, 0);
	flow(x.a, 2, 0, payload, n, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.b);
	ibfs_time_t prop = 10 * IBFS_NS;

	ck_assert_uint_eq(st->rx_pkts, n);
	ck_assert_uint_eq(st->last_tail, prop + n * ser(wire));
	double goodput = (double)st->rx_payload * 8 /
			 ((double)(st->last_tail - prop) * 1e-12);
	double expect = (double)EDR4X_BPS * payload / wire;

	ck_assert_double_eq_tol(goodput, expect, expect * 0.001);
	ck_assert_uint_eq(ibfs__port_xmit_wait(ibfs__endpoint_port(x.a)), 0);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/*
 * 1 km of cable, 8 KiB of buffer: 128 blocks, four packets of 2046 wire
 * bytes (32 blocks). The sender sends four back to back, then waits for
 * the credits of the first: its tail arrives at S + P, the receiver frees
 * it and sends an FCP at once (its transmitter is idle), which arrives at
 * S + 2P + F. So packet i starts at (i / 4) T + (i % 4) S with
 * T = S + 2P + F, the credit round trip.
 */
START_TEST(long_cable_small_buffer)
{
	struct pair x;
	const uint64_t cycles = 100, n = 4 * cycles;
	const uint32_t payload = 2036, wire = 2046;

	pair_make(&x, 1000 * 1000, 8 * 1024, 1, 0);
	ck_assert_int_eq(ibfs__endpoint_track(x.b, 8, (uint32_t)n), 0);
	flow(x.a, 2, 0, payload, n, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.b);
	ibfs_time_t P = 5 * IBFS_US, S = ser(wire), F = ser(6);
	ibfs_time_t T = S + 2 * P + F;

	ck_assert_uint_eq(st->rx_pkts, n);
	for (uint64_t i = 0; i < n; i++) {
		uint16_t slid;
		ibfs_time_t head, tail;
		ibfs_time_t start = (i / 4) * T + (i % 4) * S;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.b, (uint32_t)i,
							&slid, &head, &tail),
				 0);
		ck_assert_uint_eq(slid, 1);
		ck_assert_uint_eq(head, start + P + ser(8));
		ck_assert_uint_eq(tail, start + P + S);
	}
	/* Throughput over whole cycles against min(rate, buffer / RTT). */
	uint16_t slid;
	ibfs_time_t h0, t0, h1, t1;

	ibfs__endpoint_arrival(x.b, 0, &slid, &h0, &t0);
	ibfs__endpoint_arrival(x.b, (uint32_t)(n - 4), &slid, &h1, &t1);
	double thr = (double)(n - 4) * wire * 8 / ((double)(t1 - t0) * 1e-12);
	double lim = 8.0 * 8192 / ((double)T * 1e-12);

	if (lim > (double)EDR4X_BPS)
		lim = (double)EDR4X_BPS;
	ck_assert_double_eq_tol(thr, lim, lim * 0.01);
	/* PortXmitWait: from the end of each fourth packet to T. */
	ck_assert_uint_eq(ibfs__port_xmit_wait(ibfs__endpoint_port(x.a)),
			  (cycles - 1) * (T - 4 * S));
	ck_assert_int_eq(ibfs__endpoint_port(x.a)->vls[0].credits, 128);
	/* The receiver drains at line rate: one packet at a time. */
	ck_assert_uint_eq(ibfs__endpoint_port(x.b)->vls[0].buf_top, 32);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

START_TEST(conservation_mid_run)
{
	struct pair x;

	pair_make(&x, 1000 * 1000, 8 * 1024, 1, 0);
	flow(x.a, 2, 0, 2036, 50, 0);
	/* At 3 us the first four packets are on the 5 us cable. */
	ibfs__eq_run(&x.f->eq, 3 * IBFS_US);
	ck_assert_uint_eq(ibfs__fabric_in_flight(x.f), 4);
	ck_assert_uint_eq(ibfs__fabric_on_wire(x.f), 4);
	ck_assert_int_eq(ibfs__endpoint_port(x.a)->vls[0].credits, 0);
	/*
	 * Each side counts its own part (link.h): a started 4 packets of
	 * 32 blocks, b took none off the wire yet; nothing goes b to a.
	 */
	ck_assert_uint_eq(ibfs__port_wire_pkts(ibfs__endpoint_port(x.a)), 4);
	ck_assert_uint_eq(ibfs__port_wire_blocks(ibfs__endpoint_port(x.a), 0),
			  128);
	ck_assert_uint_eq(ibfs__port_wire_pkts(ibfs__endpoint_port(x.b)), 0);
	conserved(x.f);
	/* At 7 us they have arrived and their credits are in four FCPs. */
	ibfs__eq_run(&x.f->eq, 7 * IBFS_US);
	ck_assert_uint_eq(ibfs__fabric_in_flight(x.f), 0);
	ck_assert_uint_eq(ibfs__port_wire_pkts(ibfs__endpoint_port(x.a)), 0);
	ck_assert_uint_eq(ibfs__port_wire_blocks(ibfs__endpoint_port(x.a), 0),
			  0);
	ck_assert_uint_eq(ibfs__port_fcp_blocks(ibfs__endpoint_port(x.b), 0),
			  128);
	ck_assert_uint_eq(ibfs__endpoint_port(x.b)->fcp_sent, 4);
	conserved(x.f);
	/* A credit that appears from nowhere is caught. */
	ibfs__endpoint_port(x.a)->vls[0].credits++;
	char msg[512];

	ck_assert_int_eq(ibfs__fabric_check(x.f, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "credits: a:1 -> b:1 VL0"));
	ibfs__endpoint_port(x.a)->vls[0].credits--;
	/* So is a packet that vanished. */
	x.f->pkts_delivered++;
	ck_assert_int_eq(ibfs__fabric_check(x.f, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "packets: injected"));
	x.f->pkts_delivered--;
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.b)->rx_pkts, 50);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

START_TEST(buffer_shared_among_vls)
{
	struct pair x;

	/* 10,000 bytes = 156 whole blocks; 15 data VLs get 10 each. */
	pair_make(&x, 2000, 10000, 15, 0);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);

	for (int vl = 0; vl < 15; vl++) {
		ck_assert_uint_eq(pa->buf_cap[vl], 10);
		ck_assert_int_eq(pa->vls[vl].credits, 10);
	}
	ck_assert_uint_eq(pa->buf_cap[IBFS_VL15], IBFS_VL15_BUF_BLOCKS);
	ck_assert_int_eq(pa->vls[IBFS_VL15].credits, 0);
	pair_free(&x);
	/* 8 KiB over 2 VLs: 64 blocks each. */
	pair_make(&x, 2000, 8192, 2, 0);
	pa = ibfs__endpoint_port(x.a);
	ck_assert_int_eq(pa->vls[0].credits, 64);
	ck_assert_int_eq(pa->vls[1].credits, 64);
	ck_assert_int_eq(pa->vls[2].credits, 0);
	pair_free(&x);
}
END_TEST

/*
 * A packet larger than the VL's whole buffer can never get credits: it is
 * not dropped, it waits (and PortXmitWait grows) while the other VL flows.
 */
START_TEST(vls_are_independent)
{
	struct pair x;

	/* 2 KiB over 2 VLs: 16 blocks each; 2046 wire bytes need 32. */
	pair_make(&x, 2000, 2048, 2, 0);
	flow(x.a, 2, 0, 2036, 1, 0);
	flow(x.a, 2, 1, 500, 10, 0);
	ibfs__eq_run(&x.f->eq, 100 * IBFS_US);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.b);
	ibfs_time_t S = ser(8 + 500 + 2);

	ck_assert_uint_eq(st->rx_pkts, 10);
	ck_assert_uint_eq(st->last_tail, 10 * IBFS_NS + 10 * S);
	ck_assert_uint_eq(x.f->pkts_dropped, 0);
	/*
	 * The run ends with the last FCP, at the tenth tail + F + P; the
	 * VL0 packet has waited since the tenth VL1 packet went, at 10 S.
	 */
	ck_assert_uint_eq(x.f->eq.now, 10 * S + 20 * IBFS_NS + ser(6));
	ck_assert_uint_eq(ibfs__port_xmit_wait(ibfs__endpoint_port(x.a)),
			  x.f->eq.now - 10 * S);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/* VL15 needs no credits: it flows even with data credits at zero. */
START_TEST(vl15_not_flow_controlled)
{
	struct pair x;
	const uint64_t n = 50;

	pair_make(&x, 2000, 1024, 1, 1);
	ibfs__endpoint_set_sl2vl(x.a, 0, IBFS_VL15);
	ibfs__endpoint_port(x.a)->vls[0].credits = 0;
	ibfs__endpoint_port(x.b)->buf_cap[0] = 0; /* keep the sum right */
	flow(x.a, 2, 0, 280, n, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.b);

	ck_assert_uint_eq(st->rx_pkts, n);
	ck_assert_uint_eq(st->data_errors, 0);
	ck_assert_uint_eq(st->last_tail, 10 * IBFS_NS + n * ser(290));
	ck_assert_uint_eq(x.f->fcps, 0);
	ck_assert_uint_eq(ibfs__endpoint_port(x.b)->vls[IBFS_VL15].buf_top, 5);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/*
 * VL15 packets discarded at the receiver for want of room leave the wire
 * all the same: the sender's wire count is what it started less what the
 * receiver took off, received or not (ibfs__port_rx_pkts), so the
 * packets on the wire and the conservation check stay right mid-run.
 */
START_TEST(vl15_discards_leave_the_wire)
{
	struct pair x;
	const uint64_t n = 50;

	pair_make(&x, 1000 * 1000, 1024, 1, 1);
	ibfs__endpoint_set_sl2vl(x.a, 0, IBFS_VL15);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);
	struct ibfs_port *pb = ibfs__endpoint_port(x.b);

	pa->vls[0].credits = 0;
	pb->buf_cap[0] = 0; /* keep the sum right */
	pb->buf_cap[IBFS_VL15] = 4; /* a 290-byte packet takes 5 blocks */
	flow(x.a, 2, 0, 280, n, 0);
	/* All sent by 1.2 us; they arrive from 5 us on, 23.2 ns apart. */
	ibfs__eq_run(&x.f->eq, 5500 * IBFS_NS);
	ck_assert_uint_gt(pb->vl15_dropped, 0);
	ck_assert_uint_lt(pb->vl15_dropped, n);
	ck_assert_uint_eq(pa->cnt.xmit_pkts, n);
	ck_assert_uint_eq(ibfs__port_wire_pkts(pa) + pb->vl15_dropped, n);
	ck_assert_uint_eq(ibfs__fabric_on_wire(x.f), ibfs__port_wire_pkts(pa));
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(pb->vl15_dropped, n);
	ck_assert_uint_eq(x.f->pkts_dropped, n);
	ck_assert_uint_eq(x.f->drops[IBFS_DROP_VL15], n);
	ck_assert_uint_eq(ibfs__port_wire_pkts(pa), 0);
	ck_assert_uint_eq(ibfs__port_rx_pkts(pb), n);
	/*
	 * Received, then discarded: PortRcvPkts and PortRcvData count them
	 * (IBA 16.1.3.5: every packet received from any VL), VL15Dropped
	 * says why the device never got them.
	 */
	ck_assert_uint_eq(pb->cnt.rcv_pkts, n);
	ck_assert_uint_eq(pb->cnt.rcv_data, n * 290);
	ck_assert_uint_eq(pa->cnt.xmit_data, n * 290);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.b)->rx_pkts, 0);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

START_TEST(flow_errors)
{
	struct pair x;
	struct ibfs_diag d;
	struct ibfs_ep_flow_spec s = { .dlid = 2, .payload = 4097,
				       .count = 1 };

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	ck_assert_int_eq(ibfs__endpoint_add_flow(x.a, &s, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "exceeds the MTU 4096"));
	s.payload = 8;
	s.sl = 16;
	ck_assert_int_eq(ibfs__endpoint_add_flow(x.a, &s, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "SL 16"));
	s.sl = 0;
	s.lnh = 4;
	ck_assert_int_eq(ibfs__endpoint_add_flow(x.a, &s, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "LNH 4"));
	/* A second device on a node, or a node out of range, is refused. */
	ck_assert_ptr_null(ibfs__endpoint_create(x.f, 0));
	ck_assert_ptr_null(ibfs__endpoint_create(x.f, 2));
	ck_assert_ptr_null(ibfs__endpoint_create(x.f, -1));
	pair_free(&x);
}
END_TEST

/* Packets to a LID that is not the receiver's are counted as misrouted. */
START_TEST(misrouted_and_lmc)
{
	struct pair x;

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	ibfs__endpoint_set_lid(x.b, 4, 2); /* answers to LIDs 4-7 */
	flow(x.a, 4, 0, 64, 1, 0);
	flow(x.a, 7, 0, 64, 1, 0);
	flow(x.a, 8, 0, 64, 1, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.b)->rx_pkts, 3);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.b)->misrouted, 1);
	pair_free(&x);
}
END_TEST

/* A paced flow: one packet every `gap` from `start`. */
START_TEST(paced_flow)
{
	struct pair x;
	struct ibfs_diag d;
	struct ibfs_ep_flow_spec s = { .dlid = 2, .payload = 1000, .count = 5,
				       .start = 2 * IBFS_US,
				       .gap = 1 * IBFS_US };

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	ck_assert_int_eq(ibfs__endpoint_track(x.b, 4, 8), 0);
	ck_assert_int_eq(ibfs__endpoint_add_flow(x.a, &s, &d), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.b)->rx_pkts, 5);
	for (uint32_t k = 0; k < 5; k++) {
		uint16_t slid;
		ibfs_time_t head, tail;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.b, k, &slid, &head,
							&tail), 0);
		ck_assert_uint_eq(tail, 2 * IBFS_US + k * IBFS_US +
						10 * IBFS_NS + ser(1010));
	}
	ck_assert_int_eq(ibfs__endpoint_arrival(x.b, 5, &(uint16_t){ 0 },
						&(ibfs_time_t){ 0 },
						&(ibfs_time_t){ 0 }), -1);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.a)->tx_pkts, 5);
	ck_assert_uint_eq(ibfs__endpoint_rx_from(x.b, 1), 5);
	ck_assert_uint_eq(ibfs__endpoint_rx_from(x.b, 9), 0);
	pair_free(&x);
}
END_TEST

/*
 * A link comes up only when both its ends have a device: before, nothing
 * may be sent to a port with nobody to take the packet and return its
 * credits, and a fault's "up" does not raise it either. A "down" before
 * the second device comes keeps it down then, until an "up". Fails when
 * the attach raises a link that was set down (pa->up 1).
 */
START_TEST(link_up_needs_both_devices)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new("half");
	int na = ibfs__topo_add_node(t, "a", IBFS_NODE_HCA, 1, 0, &d);
	int nb = ibfs__topo_add_node(t, "b", IBFS_NODE_HCA, 1, 0, &d);

	ck_assert_int_ge(ibfs__topo_add_link(t, na, 1, nb, 1, IBFS_SPEED_EDR,
					     4, 2000, 0, &d), 0);
	struct ibfs_fabric *f = ibfs__fabric_new(t, 1, 0);
	struct ibfs_port *pa = ibfs__fabric_port(f, na, 1);
	struct ibfs_port *pb = ibfs__fabric_port(f, nb, 1);

	ck_assert_int_eq(pa->up, 0);
	ck_assert_int_eq(pb->up, 0);
	struct ibfs_endpoint *a = ibfs__endpoint_create(f, na);

	ck_assert_int_eq(pa->up, 0);
	ck_assert_int_eq(ibfs__fabric_link_set(f, na, 1, 1), 0);
	ck_assert_int_eq(pa->up, 0);
	ck_assert_int_eq(pb->up, 0);
	/* Down already: a fault's "down" changes no state, but keeps the
	 * link down when the second device comes (fabric.h). */
	ck_assert_int_eq(ibfs__fabric_link_set(f, nb, 1, 0), 0);
	ck_assert_uint_eq(pa->link_downed + pb->link_downed, 0);
	struct ibfs_endpoint *b = ibfs__endpoint_create(f, nb);

	ck_assert_int_eq(pa->up, 0);
	ck_assert_int_eq(pb->up, 0);
	ck_assert_int_eq(ibfs__fabric_link_set(f, na, 1, 1), 1);
	ck_assert_int_eq(pa->up, 1);
	ck_assert_int_eq(pb->up, 1);
	ck_assert_uint_eq(pa->link_downed + pb->link_downed, 0);
	ibfs__endpoint_set_lid(a, 1, 0);
	ibfs__endpoint_set_lid(b, 2, 0);
	struct ibfs_ep_flow_spec s = { .dlid = 2, .payload = 256,
				       .count = 3 };

	ck_assert_int_eq(ibfs__endpoint_add_flow(a, &s, &d), 0);
	ibfs__eq_run(&f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(b)->rx_pkts, 3);
	conserved(f);
	pair_free(&(struct pair){ .t = t, .f = f, .a = a, .b = b });
}
END_TEST

/*
 * Flows take turns, one packet each: five flows on one endpoint (the
 * first kept inline in the endpoint, all moved to an array as the second
 * and fifth are added) with payloads 100-500 bytes and 5, 4, 3, 2, 1
 * packets arrive in rounds of 5, 4, 3, 2 and 1 packets, each round in
 * flow order (tail minus head grows with the payload); tracking set twice
 * records from the second call on.
 */
START_TEST(flows_take_turns)
{
	struct pair x;
	uint64_t payload = 0;

	pair_make(&x, 2000, 64 * 1024, 1, 1);
	ck_assert_int_eq(ibfs__endpoint_track(x.b, 2, 4), 0);
	ck_assert_int_eq(ibfs__endpoint_track(x.b, 4, 15), 0);
	for (uint32_t i = 0; i < 5; i++) {
		flow(x.a, 2, 0, 100 * (i + 1), 5 - i, 0);
		payload += (uint64_t)100 * (i + 1) * (5 - i);
	}
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	conserved(x.f);

	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.b);

	ck_assert_uint_eq(ibfs__endpoint_stats(x.a)->tx_pkts, 15);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.a)->tx_payload, payload);
	ck_assert_uint_eq(st->rx_pkts, 15);
	ck_assert_uint_eq(st->rx_payload, payload);
	ck_assert_uint_eq(st->data_errors, 0);
	ck_assert_uint_eq(ibfs__endpoint_rx_from(x.b, 1), 15);

	ibfs_time_t first = 0, prev = 0;
	uint32_t k = 0;

	for (uint32_t len = 5; len >= 1; len--)
		for (uint32_t j = 0; j < len; j++, k++) {
			uint16_t slid;
			ibfs_time_t head, tail;

			ck_assert_int_eq(ibfs__endpoint_arrival(x.b, k, &slid,
								&head, &tail),
					 0);
			ck_assert_uint_eq(slid, 1);
			if (k == 0)
				first = tail - head;
			if (j == 0)
				ck_assert_uint_eq(tail - head, first);
			else
				ck_assert_uint_gt(tail - head, prev);
			prev = tail - head;
		}
	ck_assert_int_eq(ibfs__endpoint_arrival(x.b, 15, &(uint16_t){ 0 },
						&(ibfs_time_t){ 0 },
						&(ibfs_time_t){ 0 }), -1);
	pair_free(&x);
}
END_TEST

/* A generator that counts its calls: every packet to LID 2 on SL 0. */
static int counting_gen(void *ctx, struct ibfs_endpoint *ep, uint16_t *dlid,
			uint8_t *sl)
{
	(void)ep;
	++*(int *)ctx;
	*dlid = 2;
	*sl = 0;
	return 0;
}

/*
 * A packet that waits for credits is not built until it goes: only its
 * header waits, drawn once (endpoint.c). B's buffer holds one packet of
 * 110 wire bytes (2 blocks): A sends p1 at 0, until S; p2 then waits for
 * the FCP, which lands at S + P + F + P. At S + P / 2 the pool holds p1
 * alone (on the wire) and the generator has drawn p1 and p2; at the end
 * it has drawn each of the three packets once. Fails when the waiting
 * packet is built at once (two packets in the pool; checked) or its
 * header drawn again (more calls), or when the endpoint's derived send
 * counts, read mid-run, count the waiting header or lack last_tx_end
 * (checked).
 */
START_TEST(waiting_header_not_packet)
{
	struct pair x;
	struct ibfs_diag d;
	int calls = 0;
	const ibfs_time_t S = ser(110), P = 10 * IBFS_NS, F = ser(6);
	struct ibfs_ep_flow_spec s = {
		.dlid = 7, .sl = 3, .payload = 100, .count = 3,
		.gen = counting_gen, .gen_ctx = &calls,
	};

	pair_make(&x, 2000, 128, 1, 0);
	ck_assert_int_eq(ibfs__endpoint_add_flow(x.a, &s, &d), 0);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);

	ck_assert_int_eq(pa->vls[0].credits, 2);
	ibfs__eq_run(&x.f->eq, S + P / 2);
	ck_assert_uint_eq(pa->waiting, 1);
	ck_assert_uint_eq(x.f->packets.in_use, 1);
	ck_assert_int_eq(calls, 2);
	/*
	 * Read mid-run, the derived send counts have p1 only: a header
	 * drawn and waiting is not a packet sent.
	 */
	const struct ibfs_ep_stats *sa = ibfs__endpoint_stats(x.a);

	ck_assert_uint_eq(sa->tx_pkts, 1);
	ck_assert_uint_eq(sa->tx_payload, 100);
	ck_assert_uint_eq(sa->last_tx_end, S);
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *sb = ibfs__endpoint_stats(x.b);

	ck_assert_uint_eq(sb->rx_pkts, 3);
	ck_assert_uint_eq(sb->misrouted, 0);
	ck_assert_uint_eq(sb->last_tail, 2 * (S + 2 * P + F) + S + P);
	ck_assert_int_eq(calls, 3);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.a)->tx_pkts, 3);
	ck_assert_uint_eq(sa->tx_payload, 300);
	ck_assert_uint_eq(x.f->packets.in_use, 0);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/* A generator that ends its flow at its fourth call. */
static int ending_gen(void *ctx, struct ibfs_endpoint *ep, uint16_t *dlid,
		      uint8_t *sl)
{
	(void)ep;
	(void)dlid;
	(void)sl;
	return ++*(int *)ctx > 3 ? -1 : 0;
}

/*
 * A generator may end its flow early: a flow of 10 packets whose
 * generator ends it at its fourth call sends 3, and the endpoint's send
 * counts, derived from the flows (endpoint.c), say 3 packets and their
 * payload. Fails when the end marks the flow as having sent its count
 * (tx_pkts 10).
 */
START_TEST(generator_ends_flow)
{
	struct pair x;
	struct ibfs_diag d;
	int calls = 0;
	struct ibfs_ep_flow_spec s = {
		.dlid = 2, .payload = 100, .count = 10,
		.gen = ending_gen, .gen_ctx = &calls,
	};

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	ck_assert_int_eq(ibfs__endpoint_add_flow(x.a, &s, &d), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(calls, 4);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.a)->tx_pkts, 3);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.a)->tx_payload, 300);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.b)->rx_pkts, 3);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/*
 * Out of memory for a packet: a flow of back-to-back packets whose packet
 * pool is emptied and made unable to grow at 30 ns fails to build its next
 * packet when the transmitter frees up; the run stops right then, marked
 * (eq.nomem, the fabric stopped), with what was sent still conserved, and
 * goes no further. Fails when the failed build only returns (the flow
 * stalls and the run drains on).
 */
START_TEST(packet_out_of_memory)
{
	struct pair x;

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	flow(x.a, 2, 0, 100, 10, 0);
	ibfs__eq_run(&x.f->eq, 30 * IBFS_NS);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);
	uint64_t sent = ibfs__endpoint_stats(x.a)->tx_pkts;
	ibfs_time_t next = pa->tx_free_at; /* the next packet's start */

	/* ser(110) = 8.8 ns a packet: 4 started by 30 ns. */
	ck_assert_uint_eq(sent, 4);
	ck_assert_uint_gt(next, 30 * IBFS_NS);
	x.f->packets.free_list = NULL;
	x.f->packets.per_slab = SIZE_MAX; /* ibfs__pool_grow fails */
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(x.f->eq.nomem, 1);
	ck_assert_int_eq(x.f->stopped, 1);
	ck_assert_uint_eq(x.f->eq.now, next);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.a)->tx_pkts, sent);
	ck_assert_uint_eq(ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER), 0);
	ck_assert_uint_eq(x.f->eq.now, next);
	ck_assert_uint_lt(ibfs__endpoint_stats(x.b)->rx_pkts, sent);
	conserved(x.f);
	x.f->packets.per_slab = 1;
	pair_free(&x);
}
END_TEST

/*
 * Out of memory for the event of a transmission's end: the send still
 * marks the transmitter busy, and a buffer freed at that port before the
 * run stops switches a stand-in (link.c's link_lost_end), not the event
 * that does not exist. Fails (a crash) when the send keeps NULL as the
 * end's event.
 */
START_TEST(end_event_out_of_memory)
{
	struct pair x;

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);
	struct ibfs_packet *p = ibfs__packet_new(x.f);

	ck_assert_ptr_nonnull(p);
	p->wire_bytes = 8 + 100 + 2;
	p->blocks = 2;
	p->dlid = 2;
	p->slid = 1;
	p->kind = IBFS_PKT_RAW;
	p->payload_len = 100;
	x.f->eq.pool.free_list = NULL;
	x.f->eq.pool.per_slab = SIZE_MAX; /* ibfs__pool_grow fails */
	ibfs__fabric_inject(x.f, p);
	ibfs__port_send(pa, p);
	ck_assert_int_eq(x.f->eq.nomem, 1);
	ck_assert_int_eq(pa->tx_busy, 1);
	/* a's receiver frees 2 blocks while its transmitter is busy. */
	pa->vls[0].buf_used += 2;
	ibfs__port_consume_blocks(pa, 0, 2);
	ck_assert_uint_eq(pa->vls[0].fc_unsent, 2);
	ck_assert_uint_eq(ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER), 0);
	x.f->eq.pool.per_slab = 1;
	pair_free(&x);
}
END_TEST

/* A generator that counts its calls in its state: every packet to LID 2. */
static int area_gen(void *ctx, struct ibfs_endpoint *ep, uint16_t *dlid,
		    uint8_t *sl)
{
	uint64_t *n = ctx;

	(void)ep;
	n[0]++;
	n[IBFS_EP_GEN_BYTES / 8 - 1] += 2;
	*dlid = 2;
	*sl = 0;
	return 0;
}

/*
 * An endpoint keeps IBFS_EP_GEN_BYTES for a generator's state
 * (ibfs__endpoint_gen_area): zeroed, 16-byte aligned, its own, and kept
 * while the flow runs (first and last words written at every call).
 */
START_TEST(generator_area)
{
	struct pair x;
	struct ibfs_diag d;

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	uint64_t *ga = ibfs__endpoint_gen_area(x.a);
	uint64_t *gb = ibfs__endpoint_gen_area(x.b);

	ck_assert_ptr_nonnull(ga);
	ck_assert_uint_eq((uintptr_t)ga % 16, 0);
	ck_assert_ptr_ne(ga, gb);
	for (size_t i = 0; i < IBFS_EP_GEN_BYTES / 8; i++)
		ck_assert_uint_eq(ga[i], 0);
	struct ibfs_ep_flow_spec s = {
		.payload = 100, .count = 7, .gen = area_gen, .gen_ctx = ga,
	};

	ck_assert_int_eq(ibfs__endpoint_add_flow(x.a, &s, &d), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.b)->rx_pkts, 7);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.b)->misrouted, 0);
	ck_assert_uint_eq(ga[0], 7);
	ck_assert_uint_eq(ga[IBFS_EP_GEN_BYTES / 8 - 1], 14);
	for (size_t i = 0; i < IBFS_EP_GEN_BYTES / 8; i++)
		ck_assert_uint_eq(gb[i], 0);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/*
 * A device's rx_delay and rx_at_tail, set with ibfs__port_set_rx, decide
 * when it is told of a packet; the sender reads its own copies (link.h),
 * which the setter keeps, also when they change between packets. Fails
 * when the setter does not copy them to the peer (the receive then comes
 * at the header, with no delay).
 */
START_TEST(rx_set_reaches_sender)
{
	struct pair x;
	const ibfs_time_t P = 10 * IBFS_NS, W = ser(8 + 1000 + 2);
	const ibfs_time_t t2 = 1000 * IBFS_NS;

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);
	struct ibfs_port *pb = ibfs__endpoint_port(x.b);

	/* An endpoint takes packets at their tail (endpoint.c). */
	ck_assert_uint_eq(pa->peer_rx_tail, 1);
	ck_assert_uint_eq(pa->peer_rx_delay, 0);
	ibfs__port_set_rx(pb, 3000, 1);
	ck_assert_uint_eq(pb->rx_delay, 3000);
	ck_assert_uint_eq(pa->peer_rx_delay, 3000);
	flow(x.a, 2, 0, 1000, 1, 0);
	flow(x.a, 2, 0, 1000, 1, t2);
	ibfs__eq_run(&x.f->eq, t2 / 2);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.b);

	ck_assert_uint_eq(st->rx_pkts, 1);
	ck_assert_uint_eq(st->first_head, P + ser(8));
	ck_assert_uint_eq(st->first_tail, P + W + 3000);
	/* Told at the header now, 500 ps after it. */
	ibfs__port_set_rx(pb, 500, 0);
	ck_assert_uint_eq(pa->peer_rx_tail, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(st->rx_pkts, 2);
	ck_assert_uint_eq(st->last_head, t2 + P + ser(8));
	ck_assert_uint_eq(st->last_tail, t2 + P + ser(8) + 500);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

static Suite *link_suite(void)
{
	Suite *s = suite_create("link");
	TCase *tc = tcase_create("link");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, one_packet_head_and_tail);
	tcase_add_test(tc, saturating_stream);
	tcase_add_test(tc, long_cable_small_buffer);
	tcase_add_test(tc, conservation_mid_run);
	tcase_add_test(tc, buffer_shared_among_vls);
	tcase_add_test(tc, vls_are_independent);
	tcase_add_test(tc, vl15_not_flow_controlled);
	tcase_add_test(tc, vl15_discards_leave_the_wire);
	tcase_add_test(tc, flow_errors);
	tcase_add_test(tc, misrouted_and_lmc);
	tcase_add_test(tc, paced_flow);
	tcase_add_test(tc, flows_take_turns);
	tcase_add_test(tc, link_up_needs_both_devices);
	tcase_add_test(tc, waiting_header_not_packet);
	tcase_add_test(tc, rx_set_reaches_sender);
	tcase_add_test(tc, generator_ends_flow);
	tcase_add_test(tc, generator_area);
	tcase_add_test(tc, packet_out_of_memory);
	tcase_add_test(tc, end_event_out_of_memory);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(link_suite)
