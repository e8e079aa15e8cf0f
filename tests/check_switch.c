/* SPDX-License-Identifier: MIT */
/*
 * One switch with endpoints around it (a star), closed-form cases:
 * cut-through and store-and-forward timing to the picosecond, a slow input
 * feeding a fast output, saturating goodput, incast fairness, head-of-line
 * blocking, VL arbitration shares, SL-to-VL, forwarding tables (LFT with
 * LMC, MFT replication), counters and every error path of the setters.
 *
 * Figures used: 4x EDR = 4 x 25.78125 Gb/s x 64/66 = 100 Gb/s and 1x SDR =
 * 2.5 Gb/s x 8/10 = 2 Gb/s (IBA 6.3); 5 ns per metre of cable; raw packets
 * of LRH 8 + payload + VCRC 2 bytes; credits of 64 bytes.
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>

#include "fabric/endpoint.h"
#include "fabric/fabric.h"
#include "fabric/topology.h"
#include "switch/switch.h"

static const uint64_t EDR4X_BPS = 4ULL * 25781250000ULL * 64 / 66;
static const uint64_t SDR1X_BPS = 2500000000ULL * 8 / 10;

static ibfs_time_t ser_at(uint64_t bps, uint64_t bytes)
{
	return (bytes * 8 * 1000000000000ULL + bps - 1) / bps;
}

static ibfs_time_t ser(uint64_t bytes)
{
	return ser_at(EDR4X_BPS, bytes);
}

#define MAXEP 8

/* Endpoint i (LID i + 1) on switch port i + 1; the switch has LID 100. */
struct star {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_switch *sw;
	struct ibfs_endpoint *ep[MAXEP];
	int k;
};

struct star_opts {
	uint64_t buffer;
	int data_vls;
	int data_mode;
	int store_forward;
	enum ibfs_speed speed0; /* speed of endpoint 0's link */
	int width0;
	uint64_t cable1_mm;     /* endpoint 1's cable, default 2 m */
	uint64_t buffer1;       /* endpoint 1's input buffer */
};

static void star_make(struct star *x, int k, const struct star_opts *o)
{
	struct ibfs_diag d;
	char id[16];

	memset(x, 0, sizeof(*x));
	x->k = k;
	x->t = ibfs__topo_new("star");
	ck_assert_ptr_nonnull(x->t);
	x->t->def.buffer = o->buffer ? o->buffer : 32 * 1024;
	x->t->def.data_vls = o->data_vls ? o->data_vls : 1;
	int s = ibfs__topo_add_node(x->t, "sw", IBFS_NODE_SWITCH, k, 0, &d);

	ck_assert_int_eq(s, 0);
	x->t->nodes[s].store_forward = o->store_forward;
	for (int i = 0; i < k; i++) {
		snprintf(id, sizeof(id), "h%d", i);
		int h = ibfs__topo_add_node(x->t, id, IBFS_NODE_HCA, 1, 0, &d);

		ck_assert_int_eq(h, i + 1);
		enum ibfs_speed sp = IBFS_SPEED_EDR;
		int w = 4;

		uint64_t cable = 2000;

		if (i == 0 && o->width0) {
			sp = o->speed0;
			w = o->width0;
		}
		if (i == 1 && o->cable1_mm)
			cable = o->cable1_mm;
		if (i == 1 && o->buffer1)
			x->t->nodes[h].buffer = o->buffer1;
		ck_assert_int_ge(ibfs__topo_add_link(x->t, h, 1, s, i + 1, sp,
						     w, cable, 0, &d), 0);
	}
	x->f = ibfs__fabric_new(x->t, 1, o->data_mode);
	ck_assert_ptr_nonnull(x->f);
	x->sw = ibfs__switch_create(x->f, s, &d);
	ck_assert_msg(x->sw != NULL, "%s", d.msg);
	ibfs__switch_set_lid(x->sw, 100);
	for (int i = 0; i < k; i++) {
		x->ep[i] = ibfs__endpoint_create(x->f, i + 1);
		ck_assert_ptr_nonnull(x->ep[i]);
		ibfs__endpoint_set_lid(x->ep[i], (uint16_t)(i + 1), 0);
		ck_assert_int_eq(ibfs__switch_set_lft(x->sw, (uint16_t)(i + 1),
						      (uint8_t)(i + 1)), 0);
	}
}

static void star_free(struct star *x)
{
	for (int i = 0; i < x->k; i++)
		ibfs__endpoint_destroy(x->ep[i]);
	ibfs__switch_destroy(x->sw);
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
}

static void flow_sl(struct ibfs_endpoint *ep, uint16_t dlid, uint8_t sl,
		    uint32_t payload, uint64_t count)
{
	struct ibfs_diag d;
	struct ibfs_ep_flow_spec s = {
		.dlid = dlid, .sl = sl, .payload = payload, .count = count,
	};

	ck_assert_int_eq(ibfs__endpoint_add_flow(ep, &s, &d), 0);
}

static void flow(struct ibfs_endpoint *ep, uint16_t dlid, uint32_t payload,
		 uint64_t count)
{
	flow_sl(ep, dlid, 0, payload, count);
}

static void conserved(const struct ibfs_fabric *f)
{
	char msg[512] = "";

	ck_assert_msg(ibfs__fabric_check(f, msg, sizeof(msg)) == 0, "%s",
		      msg);
}

static const ibfs_time_t P = 10 * IBFS_NS;  /* 2 m of cable */
static const ibfs_time_t L = 100 * IBFS_NS; /* default routing latency */

START_TEST(cut_through_one_packet)
{
	struct star x;
	struct star_opts o = { .data_mode = 1 };
	const uint32_t wire = 8 + 1000 + 2;

	star_make(&x, 2, &o);
	flow(x.ep[0], 2, 1000, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.ep[1]);

	ck_assert_uint_eq(st->rx_pkts, 1);
	/* Header in at the switch, routing latency, then out again. */
	ck_assert_uint_eq(st->first_head, ser(8) + P + L + P + ser(8));
	ck_assert_uint_eq(st->first_tail, ser(8) + P + L + ser(wire) + P);
	ck_assert_uint_eq(st->first_tail, 640 + 10000 + 100000 + 80800 + 10000);
	ck_assert_uint_eq(st->data_errors, 0);
	ck_assert_uint_eq(st->misrouted, 0);
	struct ibfs_port_counters c;

	ck_assert_int_eq(ibfs__switch_counters(x.sw, 1, &c), 0);
	ck_assert_uint_eq(c.rcv_pkts, 1);
	ck_assert_uint_eq(c.rcv_data, wire);
	ck_assert_uint_eq(c.xmit_pkts, 0);
	ck_assert_int_eq(ibfs__switch_counters(x.sw, 2, &c), 0);
	ck_assert_uint_eq(c.xmit_pkts, 1);
	ck_assert_uint_eq(c.xmit_data, wire);
	ck_assert_uint_eq(c.xmit_wait, 0);
	ck_assert_uint_eq(c.busy, ser(wire));
	ck_assert_int_eq(ibfs__switch_counters(x.sw, 3, &c), -1);
	ck_assert_int_eq(ibfs__switch_counters(x.sw, -1, &c), -1);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 0);
	conserved(x.f);
	star_free(&x);
}
END_TEST

START_TEST(store_and_forward_one_packet)
{
	struct star x;
	struct star_opts o = { .store_forward = 1 };
	const uint32_t wire = 8 + 1000 + 2;

	star_make(&x, 2, &o);
	flow(x.ep[0], 2, 1000, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.ep[1]);
	ibfs_time_t ct = ser(8) + P + L + ser(wire) + P;

	/* The whole packet is in before the latency starts. */
	ck_assert_uint_eq(st->first_tail, ser(wire) + P + L + ser(wire) + P);
	ck_assert_uint_eq(st->first_tail - ct, ser(wire) - ser(8));
	conserved(x.f);
	star_free(&x);
}
END_TEST

/*
 * 1x SDR in, 4x EDR out: cutting through at header + latency would make
 * the output finish before the input tail arrives, so the output starts at
 * tail_in - ser_out and the packet ends at the sink at tail_in + P.
 */
START_TEST(slow_input_fast_output)
{
	struct star x;
	struct star_opts o = { .speed0 = IBFS_SPEED_SDR, .width0 = 1 };
	const uint32_t wire = 8 + 1000 + 2;

	star_make(&x, 2, &o);
	flow(x.ep[0], 2, 1000, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.ep[1]);
	ibfs_time_t tail_in = P + ser_at(SDR1X_BPS, wire);

	ck_assert_uint_eq(ser_at(SDR1X_BPS, wire), 4040000);
	ck_assert_uint_eq(st->first_tail, tail_in + P);
	ck_assert_uint_eq(st->first_head, tail_in - ser(wire) + P + ser(8));
	conserved(x.f);
	star_free(&x);
}
END_TEST

START_TEST(saturating_stream)
{
	struct star x;
	struct star_opts o = { 0 };
	const uint64_t n = 2000;
	const uint32_t payload = 4092, wire = 8 + 4092 + 2;

	star_make(&x, 2, &o);
	flow(x.ep[0], 2, payload, n);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.ep[1]);
	ibfs_time_t S = ser(wire);

	ck_assert_uint_eq(st->rx_pkts, n);
	/* Every packet cuts through: the last leaves the source at (n-1)S. */
	ck_assert_uint_eq(st->last_tail,
			  (n - 1) * S + ser(8) + P + L + S + P);
	double goodput = (double)st->rx_payload * 8 /
			 ((double)(st->last_tail - st->first_tail + S) * 1e-12);
	double expect = (double)EDR4X_BPS * payload / wire;

	ck_assert_double_eq_tol(goodput, expect, expect * 0.001);
	struct ibfs_port_counters c;

	for (int p = 1; p <= 2; p++) {
		ck_assert_int_eq(ibfs__switch_counters(x.sw, p, &c), 0);
		ck_assert_uint_eq(c.xmit_wait, 0);
	}
	ck_assert_uint_eq(ibfs__port_xmit_wait(ibfs__endpoint_port(x.ep[0])),
			  0);
	conserved(x.f);
	star_free(&x);
}
END_TEST

/*
 * The switch's output is what lacks credits: the sink sits on 1 km of
 * cable (P1 = 5 us) with 8 KiB of buffer, 128 blocks, four 2046-byte
 * packets of 32 blocks. The first packet leaves the switch at
 * t0 = ser(8) + P + L; the output sends four back to back, then waits for
 * the credits of the first, which come back at t0 + T with
 * T = S + 2 P1 + F, and so on: packet i leaves at t0 + (i / 4) T +
 * (i % 4) S. The output's PortXmitWait is (cycles - 1)(T - 4 S).
 */
START_TEST(credit_limited_output)
{
	struct star x;
	struct star_opts o = { .cable1_mm = 1000 * 1000, .buffer1 = 8192 };
	const uint64_t cycles = 50, n = 4 * cycles;
	const uint32_t wire = 2046;

	star_make(&x, 2, &o);
	ck_assert_int_eq(ibfs__endpoint_track(x.ep[1], 4, (uint32_t)n), 0);
	flow(x.ep[0], 2, 2036, n);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ibfs_time_t P1 = 5 * IBFS_US, S = ser(wire), F = ser(6);
	ibfs_time_t T = S + 2 * P1 + F, t0 = ser(8) + P + L;

	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[1])->rx_pkts, n);
	for (uint32_t i = 0; i < n; i++) {
		uint16_t slid;
		ibfs_time_t h, t;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.ep[1], i, &slid, &h,
							&t), 0);
		ck_assert_uint_eq(t, t0 + (i / 4) * T + (i % 4) * S + P1 + S);
	}
	struct ibfs_port_counters c;

	ck_assert_int_eq(ibfs__switch_counters(x.sw, 2, &c), 0);
	ck_assert_uint_eq(c.xmit_wait, (cycles - 1) * (T - 4 * S));
	ck_assert_uint_eq(c.xmit_pkts, n);
	/* The switch's input buffer (512 blocks) filled, so did A's wait. */
	ck_assert_uint_eq(ibfs__switch_device(x.sw)->ports[1].vls[0].buf_top,
			  512);
	ck_assert_uint_gt(ibfs__port_xmit_wait(ibfs__endpoint_port(x.ep[0])),
			  0);
	conserved(x.f);
	star_free(&x);
}
END_TEST

/*
 * Four senders to one sink: the output runs at line rate, the round-robin
 * arbiter gives each input every fourth packet, and the senders, whose
 * credits run short as the switch's input buffers fill, record
 * PortXmitWait while the output, whose sink drains at line rate, does not.
 */
START_TEST(incast_fairness)
{
	struct star x;
	struct star_opts o = { 0 };
	const int nsrc = 4;
	const uint64_t n = 500;
	const uint32_t wire = 8 + 2036 + 2;

	star_make(&x, nsrc + 1, &o);
	ck_assert_int_eq(ibfs__endpoint_track(x.ep[nsrc], 16,
					      (uint32_t)(nsrc * n)), 0);
	for (int i = 0; i < nsrc; i++)
		flow(x.ep[i], (uint16_t)(nsrc + 1), 2036, n);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.ep[nsrc]);
	ibfs_time_t S = ser(wire);

	ck_assert_uint_eq(st->rx_pkts, nsrc * n);
	/* Aggregate over the whole run: the output never idles. */
	double agg = (double)(st->rx_wire - wire) * 8 /
		     ((double)(st->last_tail - st->first_tail) * 1e-12);

	ck_assert_double_eq_tol(agg, (double)EDR4X_BPS,
				(double)EDR4X_BPS * 0.001);
	ck_assert_uint_eq(st->last_tail - st->first_tail,
			  (nsrc * n - 1) * S);
	/* Shares in the first half, while every sender is backlogged. */
	uint64_t cnt[8] = { 0 };
	uint32_t half = (uint32_t)(nsrc * n / 2);

	for (uint32_t i = 0; i < half; i++) {
		uint16_t slid;
		ibfs_time_t h, t;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.ep[nsrc], i, &slid,
							&h, &t), 0);
		ck_assert_uint_ge(slid, 1);
		ck_assert_uint_le(slid, nsrc);
		cnt[slid]++;
	}
	for (int i = 1; i <= nsrc; i++)
		ck_assert_double_eq_tol((double)cnt[i], (double)half / nsrc,
					(double)half / nsrc * 0.02);
	struct ibfs_port_counters c;

	ck_assert_int_eq(ibfs__switch_counters(x.sw, nsrc + 1, &c), 0);
	ck_assert_uint_eq(c.xmit_wait, 0);
	for (int i = 0; i < nsrc; i++)
		ck_assert_uint_gt(
			ibfs__port_xmit_wait(ibfs__endpoint_port(x.ep[i])), 0);
	conserved(x.f);
	star_free(&x);
}
END_TEST

/*
 * Head-of-line blocking. Sources A, B, E send to C; A alternates packets
 * for C and for D. C's arbiter serves A, B and E in turn, so A's packets
 * for C leave once every three packet times, and each of A's packets for
 * D, queued behind one for C in A's single input FIFO, can only follow
 * it: D receives a third of the line rate although its link is idle the
 * rest of the time. With A's traffic for D on its own VL the FIFOs are
 * separate and D gets what A sends it: A's credits on VL0 run out, so A
 * sends on VL1 whenever VL0 is blocked, at least two thirds of the time
 * (more, as A's input then feeds D so often that C serves B and E).
 */
static double hol_run(int separate_vl)
{
	struct star x;
	struct star_opts o = { .data_vls = 2 };
	const uint64_t n = 600;
	const uint32_t wire = 8 + 2036 + 2;

	star_make(&x, 5, &o); /* A=h0 B=h1 E=h2 C=h3 D=h4 */
	ck_assert_int_eq(ibfs__endpoint_track(x.ep[4], 16, (uint32_t)n), 0);
	flow_sl(x.ep[0], 4, 0, 2036, n);
	flow_sl(x.ep[0], 5, (uint8_t)separate_vl, 2036, n);
	flow(x.ep[1], 4, 2036, n);
	flow(x.ep[2], 4, 2036, n);
	/* Measure D while every source is still backlogged. */
	ibfs__eq_run(&x.f->eq, 900 * ser(wire));
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.ep[4]);
	uint16_t slid;
	ibfs_time_t h0, t0, h1, t1;

	ck_assert_uint_gt(st->rx_pkts, 100);
	ck_assert_int_eq(ibfs__endpoint_arrival(x.ep[4], 50, &slid, &h0, &t0),
			 0);
	ck_assert_int_eq(ibfs__endpoint_arrival(x.ep[4],
						(uint32_t)st->rx_pkts - 1,
						&slid, &h1, &t1), 0);
	double thr = (double)(st->rx_pkts - 51) * wire * 8 /
		     ((double)(t1 - t0) * 1e-12);

	conserved(x.f);
	star_free(&x);
	return thr / (double)EDR4X_BPS;
}

START_TEST(head_of_line_blocking)
{
	double shared = hol_run(0);
	double separate = hol_run(1);

	ck_assert_double_eq_tol(shared, 1.0 / 3, 0.02 / 3);
	ck_assert_double_ge(separate, 2.0 / 3 * 0.98);
}
END_TEST

/*
 * VL arbitration: A on SL0/VL0 and B on SL1/VL1 to C. With low-priority
 * weights 48 and 16 (x 64 bytes) and 1026-byte packets, VL0's entry sends
 * ceil(3072 / 1026) = 3 packets and VL1's ceil(1024 / 1026) = 1 per turn:
 * shares 3/4 and 1/4.
 */
static void vlarb_shares(const struct ibfs_vlarb_entry *hi, int nhi,
			 const struct ibfs_vlarb_entry *lo, int nlo,
			 uint8_t limit, double share_a)
{
	struct star x;
	struct star_opts o = { .data_vls = 2 };
	const uint64_t n = 2000;
	const uint32_t half = 1000;

	star_make(&x, 3, &o);
	ck_assert_int_eq(ibfs__switch_set_vlarb(x.sw, 3, hi, nhi, lo, nlo,
						limit), 0);
	ck_assert_int_eq(ibfs__endpoint_track(x.ep[2], 8, (uint32_t)n), 0);
	flow_sl(x.ep[0], 3, 0, 1016, n);
	flow_sl(x.ep[1], 3, 1, 1016, n);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	uint64_t a = 0;

	/* Skip the first 100 packets (start-up), count the next 1000. */
	for (uint32_t i = 100; i < 100 + half; i++) {
		uint16_t slid;
		ibfs_time_t h, t;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.ep[2], i, &slid, &h,
							&t), 0);
		a += slid == 1;
	}
	ck_assert_double_eq_tol((double)a / half, share_a, 0.01);
	conserved(x.f);
	star_free(&x);
}

START_TEST(vl_arbitration_weights)
{
	struct ibfs_vlarb_entry lo[] = { { 0, 48 }, { 1, 16 } };

	vlarb_shares(NULL, 0, lo, 2, 255, 0.75);
	/* Swapped weights: swapped shares. */
	struct ibfs_vlarb_entry lo2[] = { { 0, 16 }, { 1, 48 } };

	vlarb_shares(NULL, 0, lo2, 2, 255, 0.25);
}
END_TEST

START_TEST(vl_arbitration_high_priority)
{
	struct ibfs_vlarb_entry hi[] = { { 1, 1 } };
	struct ibfs_vlarb_entry lo[] = { { 0, 1 } };

	/* Unlimited high priority: VL1 (B) takes all while backlogged. */
	vlarb_shares(hi, 1, lo, 1, 255, 0.0);
	/* Limit 0: one high packet, then one low packet: half each. */
	vlarb_shares(hi, 1, lo, 1, 0, 0.5);
	/* Limit 1 (4096 bytes): four 1026-byte high packets, one low. */
	vlarb_shares(hi, 1, lo, 1, 1, 0.2);
}
END_TEST

/*
 * VL15 goes first at a switch output (IBA 7.6.9). A streams 4102-byte data
 * packets (S each) to C; B sends one 290-byte SMP-sized packet on VL15 at
 * 1 us. Data packet k leaves the switch at t0 + k S (t0 = ser(8) + P + L);
 * the VL15 packet is ready at 1 us + t0, during packet 3 (1 us / S = 3.05),
 * so it leaves at t0 + 4 S, and data packet 4 follows it.
 */
START_TEST(vl15_first)
{
	struct star x;
	struct star_opts o = { 0 };
	struct ibfs_diag d;
	const ibfs_time_t S = ser(4102), S15 = ser(290);
	const ibfs_time_t t0 = ser(8) + P + L;

	star_make(&x, 3, &o);
	ck_assert_int_eq(ibfs__endpoint_track(x.ep[2], 4, 64), 0);
	ibfs__endpoint_set_sl2vl(x.ep[1], 0, IBFS_VL15);
	flow(x.ep[0], 3, 4092, 10);
	struct ibfs_ep_flow_spec s = { .dlid = 3, .payload = 280, .count = 1,
				       .start = 1 * IBFS_US };

	ck_assert_int_eq(ibfs__endpoint_add_flow(x.ep[1], &s, &d), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 11);
	uint16_t slid;
	ibfs_time_t h, t;

	for (uint32_t i = 0; i < 11; i++) {
		ck_assert_int_eq(ibfs__endpoint_arrival(x.ep[2], i, &slid, &h,
							&t), 0);
		if (i < 4)
			ck_assert_uint_eq(t, t0 + i * S + S + P);
		else if (i == 4)
			ck_assert_uint_eq(t, t0 + 4 * S + S15 + P);
		else
			ck_assert_uint_eq(t, t0 + (i - 1) * S + S15 + S + P);
		ck_assert_uint_eq(slid, i == 4 ? 2 : 1);
	}
	ck_assert_uint_eq(ibfs__endpoint_port(x.ep[2])->vls[IBFS_VL15].buf_top,
			  5);
	conserved(x.f);
	star_free(&x);
}
END_TEST

START_TEST(vl_not_in_tables_is_not_served)
{
	struct star x;
	struct star_opts o = { .data_vls = 2 };
	struct ibfs_vlarb_entry lo[] = { { 0, 1 } };

	star_make(&x, 3, &o);
	ck_assert_int_eq(ibfs__switch_set_vlarb(x.sw, -1, NULL, 0, lo, 1, 255),
			 0);
	flow_sl(x.ep[0], 3, 1, 1016, 3);
	ibfs__eq_run(&x.f->eq, 50 * IBFS_US);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 0);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 3);
	conserved(x.f);
	/* Bad tables are refused. */
	struct ibfs_vlarb_entry bad[] = { { 15, 1 } };

	ck_assert_int_eq(ibfs__switch_set_vlarb(x.sw, 1, NULL, 0, bad, 1, 0),
			 -1);
	ck_assert_int_eq(ibfs__switch_set_vlarb(x.sw, 4, NULL, 0, lo, 1, 0),
			 -1);
	ck_assert_int_eq(ibfs__switch_set_vlarb(x.sw, 1, NULL, 65, lo, 1, 0),
			 -1);
	star_free(&x);
}
END_TEST

/*
 * One data VL: the crossbar skips the VL arbiter while the tables serve
 * VL 0 (arb_one), and must not while they do not. Tables that give VL 0
 * no weight serve nothing; tables that serve it from the high table only
 * (limit 0) pass a stream at the link rate; new tables that serve VL 0
 * release what waited.
 */
START_TEST(one_vl_tables)
{
	struct star x;
	struct star_opts o = { 0 };
	const ibfs_time_t S = ser(1026);
	const ibfs_time_t t0 = ser(8) + P + L;
	struct ibfs_vlarb_entry none[] = { { 0, 0 }, { 1, 4 } };
	struct ibfs_vlarb_entry hi[] = { { 0, 1 } };
	struct ibfs_diag d;

	star_make(&x, 3, &o);
	ck_assert_int_eq(ibfs__switch_set_vlarb(x.sw, 3, NULL, 0, none, 2, 255),
			 0);
	flow(x.ep[0], 3, 1016, 3);
	ibfs__eq_run(&x.f->eq, 50 * IBFS_US);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 0);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 3);
	/* Served from the high table: the next arrival starts the output. */
	ck_assert_int_eq(ibfs__switch_set_vlarb(x.sw, 3, hi, 1, none, 2, 0),
			 0);
	struct ibfs_ep_flow_spec s = { .dlid = 3, .payload = 1016,
				       .count = 1, .start = 60 * IBFS_US };

	ck_assert_int_eq(ibfs__endpoint_add_flow(x.ep[1], &s, &d), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 4);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 0);
	conserved(x.f);
	star_free(&x);

	/* High table only, limit 0, from the start: a stream at link rate. */
	star_make(&x, 3, &o);
	ck_assert_int_eq(ibfs__endpoint_track(x.ep[2], 4, 64), 0);
	ck_assert_int_eq(ibfs__switch_set_vlarb(x.sw, -1, hi, 1, none, 2, 0),
			 0);
	flow(x.ep[0], 3, 1016, 4);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 4);
	for (uint32_t i = 0; i < 4; i++) {
		uint16_t slid;
		ibfs_time_t h, t;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.ep[2], i, &slid, &h,
							&t), 0);
		ck_assert_uint_eq(t, t0 + i * S + S + P);
	}
	conserved(x.f);
	star_free(&x);
}
END_TEST

/*
 * The switch keeps its own bit of each port's link state (port_state
 * hook): a packet for a down output is discarded on arrival even behind
 * a head that waits for ever (endpoint 1's buffer holds less than a
 * packet), and one for the output once it is up again is queued.
 */
START_TEST(down_output_on_arrival)
{
	struct star x;
	struct star_opts o = { .buffer1 = 512 };
	struct ibfs_port_counters c;

	star_make(&x, 3, &o);
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 3, 1, 0), 1);
	flow(x.ep[0], 2, 1016, 1);
	flow(x.ep[0], 3, 1016, 1);
	ibfs__eq_run(&x.f->eq, 20 * IBFS_US);
	ck_assert_uint_eq(ibfs__fabric_port(x.f, 0, 3)->xmit_discards, 1);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 1);
	/* Up again: the next one waits behind the stuck head. */
	ck_assert_int_eq(ibfs__fabric_link_set(x.f, 3, 1, 1), 1);
	struct ibfs_diag d;
	struct ibfs_ep_flow_spec s = { .dlid = 3, .payload = 1016,
				       .count = 1, .start = 30 * IBFS_US };

	ck_assert_int_eq(ibfs__endpoint_add_flow(x.ep[0], &s, &d), 0);
	ibfs__eq_run(&x.f->eq, 60 * IBFS_US);
	ck_assert_uint_eq(ibfs__fabric_port(x.f, 0, 3)->xmit_discards, 1);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 2);
	ck_assert_int_eq(ibfs__switch_counters(x.sw, 3, &c), 0);
	ck_assert_uint_eq(c.xmit_pkts, 0);
	conserved(x.f);
	star_free(&x);
}
END_TEST

/* SL-to-VL per (input, output): SL0 from port 1 to port 3 goes on VL1. */
START_TEST(sl_to_vl_tables)
{
	struct star x;
	struct star_opts o = { .data_vls = 2 };
	uint8_t to_vl1[16], to_vl15[16];

	memset(to_vl1, 1, sizeof(to_vl1));
	memset(to_vl15, 15, sizeof(to_vl15));
	star_make(&x, 3, &o);
	ck_assert_int_eq(ibfs__switch_set_sl2vl(x.sw, 1, 3, to_vl1), 0);
	ck_assert_int_eq(ibfs__switch_set_sl2vl(x.sw, 2, -1, to_vl15), 0);
	flow(x.ep[0], 3, 1016, 5);
	flow(x.ep[1], 3, 1016, 2);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	struct ibfs_port *c = ibfs__endpoint_port(x.ep[2]);

	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 5);
	ck_assert_uint_eq(c->vls[0].buf_top, 0);
	ck_assert_uint_eq(c->vls[1].buf_top, 17); /* 1026 bytes: 17 blocks */
	/* VL 15 in a data SL's entry discards (IBA 7.6.6). */
	ck_assert_uint_eq(ibfs__switch_relay_errors(x.sw), 2);
	ck_assert_uint_eq(x.f->pkts_dropped, 2);
	uint8_t bad[16] = { 16 };

	ck_assert_int_eq(ibfs__switch_set_sl2vl(x.sw, 1, 3, bad), -1);
	ck_assert_int_eq(ibfs__switch_set_sl2vl(x.sw, 4, 3, to_vl1), -1);
	ck_assert_int_eq(ibfs__switch_set_sl2vl(x.sw, 1, -2, to_vl1), -1);
	conserved(x.f);
	star_free(&x);
}
END_TEST

/*
 * A table set for all pairs applies to every pair (the switch then reads
 * one shared copy); a table set afterwards for one pair applies to that
 * pair only. SL0 with 1,016-byte payloads: 1,026 bytes on the wire, 17
 * 64-byte blocks (IBA 7.9.4), one packet at a time in the peaks.
 */
START_TEST(sl_to_vl_all_then_one)
{
	struct star x;
	struct star_opts o = { .data_vls = 2 };
	uint8_t to_vl1[16], to_vl0[16];

	memset(to_vl1, 1, sizeof(to_vl1));
	memset(to_vl0, 0, sizeof(to_vl0));
	star_make(&x, 3, &o);
	ck_assert_int_eq(ibfs__switch_set_sl2vl(x.sw, -1, -1, to_vl1), 0);
	flow(x.ep[0], 3, 1016, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	struct ibfs_port *c = ibfs__endpoint_port(x.ep[2]);

	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 1);
	ck_assert_uint_eq(c->vls[0].buf_top, 0);
	ck_assert_uint_eq(c->vls[1].buf_top, 17);
	/* Port 1 to port 3 only: back to VL0; port 2 to 3 stays on VL1. */
	ck_assert_int_eq(ibfs__switch_set_sl2vl(x.sw, 1, 3, to_vl0), 0);
	flow(x.ep[0], 3, 1016, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 2);
	ck_assert_uint_eq(c->vls[0].buf_top, 17);
	ck_assert_uint_eq(ibfs__switch_relay_errors(x.sw), 0);
	conserved(x.f);
	star_free(&x);
}
END_TEST

START_TEST(lft_and_lmc)
{
	struct star x;
	struct star_opts o = { 0 };
	uint8_t block[64];

	star_make(&x, 3, &o);
	/* h2 owns LIDs 8-11 (LMC 2); block 0 routes 8-11 to port 3. */
	memset(block, IBFS_LFT_NONE, sizeof(block));
	block[1] = 1;
	block[2] = 2;
	for (int l = 8; l < 12; l++)
		block[l] = 3;
	ck_assert_int_eq(ibfs__switch_set_lft_block(x.sw, 0, block), 0);
	ibfs__endpoint_set_lid(x.ep[2], 8, 2);
	ck_assert_uint_eq(ibfs__switch_get_lft(x.sw, 10), 3);
	ck_assert_uint_eq(ibfs__switch_get_lft(x.sw, 3), IBFS_LFT_NONE);
	ck_assert_uint_eq(ibfs__switch_get_lft(x.sw, 5000), IBFS_LFT_NONE);
	flow(x.ep[0], 8, 100, 2);
	flow(x.ep[0], 11, 100, 2);
	flow(x.ep[0], 3, 100, 1);   /* no route */
	flow(x.ep[0], 1, 100, 1);   /* back out of its input port */
	flow(x.ep[0], 200, 100, 1); /* beyond the table */
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 4);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->misrouted, 0);
	ck_assert_uint_eq(ibfs__switch_relay_errors(x.sw), 3);
	ck_assert_uint_eq(x.f->pkts_dropped, 3);
	conserved(x.f);
	/* Bad entries are refused. */
	ck_assert_int_eq(ibfs__switch_set_lft(x.sw, 0, 1), -1);
	ck_assert_int_eq(ibfs__switch_set_lft(x.sw, 0xC000, 1), -1);
	ck_assert_int_eq(ibfs__switch_set_lft(x.sw, 5, 4), -1);
	ck_assert_int_eq(ibfs__switch_set_lft(x.sw, 5, IBFS_LFT_NONE), 0);
	block[5] = 9;
	ck_assert_int_eq(ibfs__switch_set_lft_block(x.sw, 1, block), -1);
	block[5] = 1;
	ck_assert_int_eq(ibfs__switch_set_lft_block(x.sw, 768, block), -1);
	ck_assert_int_eq(ibfs__switch_set_lft_block(x.sw, 767, block), 0);
	ck_assert_uint_eq(ibfs__switch_get_lft(x.sw, 767 * 64 + 5), 1);
	star_free(&x);
}
END_TEST

/* Sends `count` packets from ep to dlid 1 us from now. */
static void flow_later(struct star *x, struct ibfs_endpoint *ep,
		       uint16_t dlid, uint64_t count)
{
	struct ibfs_diag d;
	struct ibfs_ep_flow_spec s = { .dlid = dlid, .payload = 100,
				       .count = count,
				       .start = x->f->eq.now + IBFS_US };

	ck_assert_int_eq(ibfs__endpoint_add_flow(ep, &s, &d), 0);
	ibfs__eq_run(&x->f->eq, IBFS_TIME_NEVER);
}

/*
 * An input remembers its last route (lft_hint): every change of the LFT,
 * by entry or by block, must take effect for the next packet of the same
 * flow.
 */
START_TEST(lft_change_reroutes_flow)
{
	struct star x;
	struct star_opts o = { 0 };
	uint8_t block[64];

	star_make(&x, 3, &o);
	flow(x.ep[0], 3, 100, 2);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 2);
	/* LID 3 now leads to h1, which does not own it. */
	ck_assert_int_eq(ibfs__switch_set_lft(x.sw, 3, 2), 0);
	flow_later(&x, x.ep[0], 3, 1);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[1])->misrouted, 1);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 2);
	/* Back by block. */
	memset(block, IBFS_LFT_NONE, sizeof(block));
	block[1] = 1;
	block[2] = 2;
	block[3] = 3;
	ck_assert_int_eq(ibfs__switch_set_lft_block(x.sw, 0, block), 0);
	flow_later(&x, x.ep[0], 3, 1);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[1])->misrouted, 1);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 3);
	/* No route any more. */
	ck_assert_int_eq(ibfs__switch_set_lft(x.sw, 3, IBFS_LFT_NONE), 0);
	flow_later(&x, x.ep[0], 3, 1);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, 3);
	ck_assert_uint_eq(ibfs__switch_relay_errors(x.sw), 1);
	conserved(x.f);
	star_free(&x);
}
END_TEST

START_TEST(multicast_replication)
{
	struct star x;
	struct star_opts o = { .data_mode = 1 };
	const uint8_t ports[] = { 1, 2, 3, 4 };

	star_make(&x, 4, &o);
	ck_assert_int_eq(ibfs__switch_set_mft(x.sw, 0xC001, ports, 4), 0);
	flow(x.ep[0], 0xC001, 1000, 10);
	flow(x.ep[0], 0xC002, 1000, 1); /* no MFT entry */
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	for (int i = 1; i < 4; i++) {
		const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.ep[i]);

		ck_assert_uint_eq(st->rx_pkts, 10);
		ck_assert_uint_eq(st->rx_payload, 10000);
		ck_assert_uint_eq(st->data_errors, 0);
	}
	/* Never back out of the port it came in on. */
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[0])->rx_pkts, 0);
	ck_assert_uint_eq(x.f->pkts_replicated, 30);
	ck_assert_uint_eq(x.f->pkts_retired, 10);
	ck_assert_uint_eq(x.f->pkts_dropped, 1);
	ck_assert_uint_eq(x.f->payloads.in_use, 0);
	ck_assert_uint_eq(x.f->packets.in_use, 0);
	conserved(x.f);
	/* Bad entries are refused; an empty list clears. */
	ck_assert_int_eq(ibfs__switch_set_mft(x.sw, 0xBFFF, ports, 1), -1);
	ck_assert_int_eq(ibfs__switch_set_mft(x.sw, 0xFFFF, ports, 1), -1);
	const uint8_t bad[] = { 5 };

	ck_assert_int_eq(ibfs__switch_set_mft(x.sw, 0xC001, bad, 1), -1);
	ck_assert_int_eq(ibfs__switch_set_mft(x.sw, 0xC001, ports, 0), 0);
	star_free(&x);
}
END_TEST

static int local_calls;

static void local_hook(void *ctx, struct ibfs_switch *sw,
		       struct ibfs_packet *p)
{
	struct ibfs_fabric *f = ctx;

	(void)sw;
	ck_assert_uint_eq(p->dlid, 101);
	local_calls++;
	ibfs__packet_free(f, p);
}

START_TEST(packets_for_the_switch)
{
	struct star x;
	struct star_opts o = { 0 };

	star_make(&x, 2, &o);
	ibfs__switch_set_lmc(x.sw, 1); /* LIDs 100 and 101 */
	ck_assert_uint_eq(ibfs__switch_get_lid(x.sw), 100);
	flow(x.ep[0], 101, 256, 2);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	/* Without a hook they are dropped. */
	ck_assert_uint_eq(x.f->pkts_dropped, 2);
	conserved(x.f);
	ibfs__switch_set_local(x.sw, local_hook, x.f);
	flow(x.ep[0], 101, 256, 3);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(local_calls, 3);
	ck_assert_uint_eq(x.f->pkts_delivered, 3);
	conserved(x.f);
	star_free(&x);
}
END_TEST

START_TEST(create_errors)
{
	struct star x;
	struct star_opts o = { 0 };
	struct ibfs_diag d;

	star_make(&x, 2, &o);
	ck_assert_ptr_null(ibfs__switch_create(x.f, 1, &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "'h0' is not a switch"));
	ck_assert_ptr_null(ibfs__switch_create(x.f, 0, &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "'sw' is already attached"));
	ck_assert_ptr_null(ibfs__switch_create(x.f, 9, &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "switch node 9 does not exist"));
	ck_assert_ptr_eq(ibfs__switch_of(ibfs__switch_device(x.sw)), x.sw);
	ck_assert_ptr_null(ibfs__switch_of(x.f->devices[1]));
	star_free(&x);
}
END_TEST

/*
 * The link layer calls InfiniBand's credit hooks directly when a port's
 * flow control is ibfs__ib_credit_flow, and through struct ibfs_flow_ops
 * otherwise (link.c, crossbar.c). Both ways must give the same run to
 * the picosecond: here every port's flow is a copy of the credit ops
 * whose hooks count their calls, with two data VLs (several VLs' FCPs at
 * once, the VL arbiter) and head-of-line blocking at the switch.
 */
static uint64_t ops_calls;

static int ops_may_send(const struct ibfs_port *out,
			const struct ibfs_packet *p)
{
	ops_calls++;
	return ibfs__ib_credit_flow.may_send(out, p);
}

static void ops_on_send(struct ibfs_port *out, const struct ibfs_packet *p)
{
	ops_calls++;
	ibfs__ib_credit_flow.on_send(out, p);
}

static int ops_on_arrive(struct ibfs_port *in, const struct ibfs_packet *p)
{
	ops_calls++;
	return ibfs__ib_credit_flow.on_arrive(in, p);
}

static void ops_on_free(struct ibfs_port *in, int vl, uint32_t blocks)
{
	ops_calls++;
	ibfs__ib_credit_flow.on_free(in, vl, blocks);
}

static int ops_on_tx_idle(struct ibfs_port *out)
{
	ops_calls++;
	return ibfs__ib_credit_flow.on_tx_idle(out);
}

static void ops_on_tx_end(struct ibfs_port *out)
{
	ops_calls++;
	ibfs__ib_credit_flow.on_tx_end(out);
}

struct ops_run {
	uint64_t fcps, executed, rx[2];
	ibfs_time_t end, wait[6], wait_a, tail[2][400];
};

static void ops_run(struct ops_run *r, const struct ibfs_flow_ops *ops)
{
	struct star x;
	struct star_opts o = { .data_vls = 2, .buffer = 8 * 1024 };
	const uint32_t n = 100;

	star_make(&x, 5, &o); /* A=h0 B=h1 E=h2 C=h3 D=h4 */
	for (int node = 0; ops && node <= 5; node++)
		for (int i = 0; i <= x.t->nodes[node].nports; i++)
			x.f->ports[node][i].flow = ops;
	for (int i = 3; i < 5; i++)
		ck_assert_int_eq(ibfs__endpoint_track(x.ep[i], 16, 4 * n), 0);
	flow_sl(x.ep[0], 4, 0, 2036, n);
	flow_sl(x.ep[0], 5, 1, 1000, n);
	flow_sl(x.ep[1], 4, 1, 500, n);
	flow(x.ep[2], 4, 2036, n);
	flow(x.ep[4], 4, 200, n);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	memset(r, 0, sizeof(*r));
	r->fcps = x.f->fcps;
	r->executed = x.f->eq.executed;
	r->end = x.f->eq.now;
	for (int i = 0; i < 2; i++) {
		r->rx[i] = ibfs__endpoint_stats(x.ep[3 + i])->rx_pkts;
		ck_assert_uint_le(r->rx[i], 400);
		for (uint32_t k = 0; k < r->rx[i]; k++) {
			uint16_t slid;
			ibfs_time_t h;

			ck_assert_int_eq(ibfs__endpoint_arrival(x.ep[3 + i], k,
								&slid, &h,
								&r->tail[i][k]),
					 0);
		}
	}
	for (int i = 0; i <= 5; i++)
		r->wait[i] = ibfs__port_xmit_wait(&x.f->ports[0][i]);
	r->wait_a = ibfs__port_xmit_wait(ibfs__endpoint_port(x.ep[0]));
	conserved(x.f);
	star_free(&x);
}

START_TEST(flow_ops_path_same_run)
{
	static struct ops_run direct, via_ops;
	struct ibfs_flow_ops ops = ibfs__ib_credit_flow;

	ops.may_send = ops_may_send;
	ops.on_send = ops_on_send;
	ops.on_arrive = ops_on_arrive;
	ops.on_free = ops_on_free;
	ops.on_tx_idle = ops_on_tx_idle;
	ops.on_tx_end = ops_on_tx_end;
	ops_calls = 0;
	ops_run(&direct, NULL);
	ck_assert_uint_eq(ops_calls, 0);
	ops_run(&via_ops, &ops);
	ck_assert_uint_gt(ops_calls, 0);
	ck_assert_uint_eq(direct.rx[0], 4 * 100);
	ck_assert_uint_eq(direct.rx[1], 100);
	ck_assert_uint_gt(direct.fcps, 0);
	ck_assert_uint_eq(via_ops.fcps, direct.fcps);
	ck_assert_uint_eq(via_ops.executed, direct.executed);
	ck_assert_uint_eq(via_ops.end, direct.end);
	for (int i = 0; i < 2; i++) {
		ck_assert_uint_eq(via_ops.rx[i], direct.rx[i]);
		for (uint64_t k = 0; k < direct.rx[i]; k++)
			ck_assert_uint_eq(via_ops.tail[i][k],
					  direct.tail[i][k]);
	}
	for (int i = 0; i <= 5; i++)
		ck_assert_uint_eq(via_ops.wait[i], direct.wait[i]);
	ck_assert_uint_eq(via_ops.wait_a, direct.wait_a);
	ck_assert_uint_gt(direct.wait_a, 0);
}
END_TEST

static Suite *switch_suite(void)
{
	Suite *s = suite_create("switch");
	TCase *tc = tcase_create("timing");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, cut_through_one_packet);
	tcase_add_test(tc, store_and_forward_one_packet);
	tcase_add_test(tc, slow_input_fast_output);
	tcase_add_test(tc, saturating_stream);
	tcase_add_test(tc, credit_limited_output);
	tcase_add_test(tc, incast_fairness);
	tcase_add_test(tc, head_of_line_blocking);
	tcase_add_test(tc, flow_ops_path_same_run);
	suite_add_tcase(s, tc);
	tc = tcase_create("tables");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, vl_arbitration_weights);
	tcase_add_test(tc, vl_arbitration_high_priority);
	tcase_add_test(tc, vl_not_in_tables_is_not_served);
	tcase_add_test(tc, one_vl_tables);
	tcase_add_test(tc, down_output_on_arrival);
	tcase_add_test(tc, vl15_first);
	tcase_add_test(tc, sl_to_vl_tables);
	tcase_add_test(tc, sl_to_vl_all_then_one);
	tcase_add_test(tc, lft_and_lmc);
	tcase_add_test(tc, lft_change_reroutes_flow);
	tcase_add_test(tc, multicast_replication);
	tcase_add_test(tc, packets_for_the_switch);
	tcase_add_test(tc, create_errors);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(switch_suite)
