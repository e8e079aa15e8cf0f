/* SPDX-License-Identifier: MIT */
/*
 * One switch with endpoints around it (a star), closed-form timing cases:
 * cut-through and store-and-forward to the picosecond (either mode also
 * set by a call after the switch is made), a slow input
 * feeding a fast output, saturating goodput, a credit-limited output,
 * incast fairness, head-of-line blocking, and the flow-control hooks
 * called through the ops table giving the same run as the direct calls,
 * packets held for a latency raised while they were on the way, and the
 * crossbar's straight path for one data VL giving the general path's run
 * (with every output's go bit, and the count of its ends ring, checked
 * between steps of those runs).
 * The fixture and its figures are in switch_star.h; the tables (VL
 * arbitration, SL-to-VL, LFT, MFT) are in check_switch_tables.c.
 */
#include "switch_star.h"

#include "switch/switch_int.h"

/*
 * The go bit of every output is nreq > 0 && !cur (switch_int.h): the
 * crossbar sets it with an OR of a computed bit, not behind a test, so
 * that it is right only while this holds everywhere.
 */
static void go_bits_kept(const struct ibfs_switch *sw)
{
	unsigned busy = 0;

	for (int o = 0; o <= sw->n; o++) {
		const struct sw_out *so = &sw->out[o];

		ck_assert_uint_eq(sw->go[o / 64] >> (o % 64) & 1,
				  so->nreq > 0 && !so->cur);
		busy += so->cur;
	}
	/*
	 * The ends ring (sw->ends, a hint of which output ends next) holds
	 * one entry per busy output: grants and ends go in pairs.
	 */
	ck_assert_uint_eq((uint8_t)(sw->ends_in - sw->ends_out), busy);
}

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
 * ibfs__switch_set_store_forward changes the mode of a switch made with
 * the other one: the packet then arrives as the mode set says, cut-through
 * or store-and-forward, whichever the switch was created with.
 */
START_TEST(store_forward_set_by_call)
{
	const uint32_t wire = 8 + 1000 + 2;

	for (int on = 0; on < 2; on++) {
		struct star x;
		struct star_opts o = { .store_forward = !on };

		star_make(&x, 2, &o);
		ibfs__switch_set_store_forward(x.sw, on);
		flow(x.ep[0], 2, 1000, 1);
		ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
		const struct ibfs_ep_stats *st =
			ibfs__endpoint_stats(x.ep[1]);
		ibfs_time_t in = on ? ser(wire) : ser(8);

		ck_assert_uint_eq(st->rx_pkts, 1);
		ck_assert_uint_eq(st->first_tail, in + P + L + ser(wire) + P);
		conserved(x.f);
		star_free(&x);
	}
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
	/* In steps, to check the go bits between them. */
	for (ibfs_time_t t = 0; ibfs__eq_size(&x.f->eq); t += 100 * IBFS_NS) {
		ibfs__eq_run(&x.f->eq, t);
		go_bits_kept(x.sw);
	}
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

/*
 * The latency raised while packets are on the way: the link layer
 * scheduled their hand-over with the old latency, so the switch holds
 * each until its routing decision (ready_at, with the new latency) and
 * requests its output then (crossbar.c, xb_ready_ev). A (to h1) waits
 * from its hand-over; B (to h2), queued behind it, becomes the head when
 * A leaves and waits too, until the very picosecond at which A's last
 * byte leaves and frees the input. Fails when a head requests before its
 * ready_at, or still carries the waiting mark (struct sw_queue) when its
 * request is made.
 */
START_TEST(latency_raised_in_flight)
{
	struct star x;
	struct star_opts o = { 0 };
	const uint32_t wire = 8 + 1000 + 2;
	const ibfs_time_t L2 = 300 * IBFS_NS, S = ser(wire);

	star_make(&x, 3, &o);
	flow(x.ep[0], 2, 1000, 1);
	flow(x.ep[0], 3, 1000, 1);
	/* Both have left h0 (B at S), neither has been handed over. */
	ibfs__eq_run(&x.f->eq, 90 * IBFS_NS);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[0])->tx_pkts, 2);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 0);
	ibfs__switch_set_latency(x.sw, L2);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *a = ibfs__endpoint_stats(x.ep[1]);
	const struct ibfs_ep_stats *b = ibfs__endpoint_stats(x.ep[2]);
	ibfs_time_t ready_a = ser(8) + P + L2, ready_b = S + ser(8) + P + L2;

	ck_assert_uint_eq(a->rx_pkts, 1);
	ck_assert_uint_eq(a->first_head, ready_a + P + ser(8));
	ck_assert_uint_eq(a->first_tail, ready_a + S + P);
	/* B is ready just as A's last byte leaves: no gap, no overlap. */
	ck_assert_uint_eq(ready_b, ready_a + S);
	ck_assert_uint_eq(b->rx_pkts, 1);
	ck_assert_uint_eq(b->first_head, ready_b + P + ser(8));
	ck_assert_uint_eq(b->first_tail, ready_b + S + P);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 0);
	conserved(x.f);
	star_free(&x);
}
END_TEST

/*
 * The crossbar's straight path (xb_arbitrate_one, crossbar.c: one data
 * VL, at most 63 ports) against its general path on the same runs, every
 * arrival to the picosecond, events, FCPs and PortXmitWait alike. Six
 * endpoints send several flows each (incasts, sizes 300-2036 bytes, so
 * that round robins wrap and requests pile up), on ports 1-6 (one
 * request word) and on ports 30-35 (the inputs' bits straddle two
 * words), with a slow input (the tail rule holds back its requests) and
 * with 4 KiB buffers (requests wait for credits): the cases in which
 * the straight path hands over to the general one. Also with
 * store-and-forward, with a multicast flow (copies from one input FIFO to
 * three outputs, each copy's end freeing the original's blocks with the
 * last: cur_orig on both paths) and with the link of h3 going down and
 * back up while packets are queued for it and on their way (the down
 * output's requests discarded, port_state.c, then traffic again).
 */
#define FP_EP 6
#define FP_CAP 1024

/* fp_run's cases beyond star_opts. */
#define FP_MC 1    /* h0 also multicasts to h1, h2 and h4 */
#define FP_FAULT 2 /* h3's link down at 10 us, up at 25 us */
#define FP_VL15 4  /* h5 also sends VL15 packets to h4, 1 us apart */

struct fp_run {
	uint64_t fcps, executed, rx[FP_EP];
	uint64_t replicated, retired, dropped, lost, discards[FP_EP];
	uint64_t buffered;
	ibfs_time_t end, wait[FP_EP + 1];
	uint16_t slid[FP_EP][FP_CAP];
	ibfs_time_t head[FP_EP][FP_CAP], tail[FP_EP][FP_CAP];
};

static void fp_run(struct fp_run *r, int fast, const struct star_opts *o,
		   int cases)
{
	static const struct {
		int src;
		uint16_t dlid;
		uint32_t payload;
	} fl[] = {
		{ 0, 2, 2036 }, { 0, 3, 300 },	{ 0, 4, 1000 }, { 1, 1, 1000 },
		{ 1, 3, 2036 }, { 2, 1, 700 },	{ 3, 1, 2036 }, { 3, 6, 300 },
		{ 4, 3, 2036 }, { 4, 2, 500 },	{ 5, 3, 1200 }, { 5, 1, 300 },
		{ 5, 4, 2036 },
	};
	struct star x;
	int p0 = o->port0 ? o->port0 : 1;

	star_make(&x, FP_EP, o);
	ibfs__switch_set_xbar_fast(x.sw, fast);
	for (int i = 0; i < FP_EP; i++) {
		ck_assert_uint_eq(x.sw->out[p0 + i].fast, !!fast);
		ck_assert_int_eq(ibfs__endpoint_track(x.ep[i], 16, FP_CAP), 0);
	}
	for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++)
		flow(x.ep[fl[i].src], fl[i].dlid, fl[i].payload, 150);
	if (cases & FP_MC) {
		const uint8_t mc[] = { (uint8_t)(p0 + 1), (uint8_t)(p0 + 2),
				       (uint8_t)(p0 + 4) };

		ck_assert_int_eq(ibfs__switch_set_mft(x.sw, 0xC001, mc, 3), 0);
		flow(x.ep[0], 0xC001, 600, 100);
	}
	if (cases & FP_FAULT) {
		ck_assert_int_eq(ibfs__fabric_fault_at(x.f, 10 * IBFS_US, 0,
						       p0 + 3, 0), 0);
		ck_assert_int_eq(ibfs__fabric_fault_at(x.f, 25 * IBFS_US, 0,
						       p0 + 3, 1), 0);
	}
	if (cases & FP_VL15) {
		struct ibfs_diag d;
		struct ibfs_ep_flow_spec s = {
			.dlid = 5, .sl = 1, .payload = 200, .count = 40,
			.gap = IBFS_US,
		};

		ibfs__endpoint_set_sl2vl(x.ep[5], 1, IBFS_VL15);
		ck_assert_int_eq(ibfs__endpoint_add_flow(x.ep[5], &s, &d), 0);
	}
	/* In steps, to check the go bits between them. */
	for (ibfs_time_t t = 0; ibfs__eq_size(&x.f->eq); t += 100 * IBFS_NS) {
		ibfs__eq_run(&x.f->eq, t);
		go_bits_kept(x.sw);
	}
	memset(r, 0, sizeof(*r));
	r->buffered = ibfs__switch_buffered(x.sw);
	r->replicated = x.f->pkts_replicated;
	r->retired = x.f->pkts_retired;
	r->dropped = x.f->pkts_dropped;
	r->lost = x.f->pkts_lost;
	r->fcps = x.f->fcps;
	r->executed = x.f->eq.executed;
	r->end = x.f->eq.now;
	for (int i = 0; i < FP_EP; i++) {
		r->rx[i] = ibfs__endpoint_stats(x.ep[i])->rx_pkts;
		ck_assert_uint_le(r->rx[i], FP_CAP);
		for (uint32_t k = 0; k < r->rx[i]; k++)
			ck_assert_int_eq(ibfs__endpoint_arrival(x.ep[i], k,
								&r->slid[i][k],
								&r->head[i][k],
								&r->tail[i][k]),
					 0);
		r->wait[i] = ibfs__port_xmit_wait(&x.f->ports[0][p0 + i]);
		r->discards[i] = x.f->ports[0][p0 + i].xmit_discards;
	}
	r->wait[FP_EP] = ibfs__port_xmit_wait(ibfs__endpoint_port(x.ep[0]));
	conserved(x.f);
	star_free(&x);
}

static void fp_same(const struct star_opts *o, int cases)
{
	static struct fp_run a, b;

	fp_run(&a, 1, o, cases);
	fp_run(&b, 0, o, cases);
	ck_assert_uint_eq(a.rx[2], 4 * 150 + (cases & FP_MC ? 100 : 0));
	/* Nothing is left in the switch; every VL15 packet got through. */
	ck_assert_uint_eq(a.buffered, 0);
	ck_assert_uint_eq(b.buffered, 0);
	ck_assert_uint_eq(a.rx[4], (cases & FP_MC ? 100 : 0) +
					   (cases & FP_VL15 ? 40 : 0));
	/* Each case did what it is there for. */
	ck_assert_uint_eq(a.replicated, cases & FP_MC ? 3 * 100 : 0);
	ck_assert_uint_eq(a.retired, cases & FP_MC ? 100 : 0);
	if (cases & FP_FAULT) {
		ck_assert_uint_gt(a.discards[3], 0);
		ck_assert_uint_gt(a.rx[3], 0);
		ck_assert_uint_lt(a.rx[3], 2 * 150);
	} else {
		ck_assert_uint_eq(a.dropped + a.lost, 0);
	}
	ck_assert_uint_eq(a.replicated, b.replicated);
	ck_assert_uint_eq(a.retired, b.retired);
	ck_assert_uint_eq(a.dropped, b.dropped);
	ck_assert_uint_eq(a.lost, b.lost);
	ck_assert_uint_eq(a.executed, b.executed);
	ck_assert_uint_eq(a.fcps, b.fcps);
	ck_assert_uint_eq(a.end, b.end);
	for (int i = 0; i < FP_EP; i++) {
		ck_assert_uint_eq(a.rx[i], b.rx[i]);
		for (uint64_t k = 0; k < a.rx[i]; k++) {
			ck_assert_uint_eq(a.slid[i][k], b.slid[i][k]);
			ck_assert_uint_eq(a.head[i][k], b.head[i][k]);
			ck_assert_uint_eq(a.tail[i][k], b.tail[i][k]);
		}
	}
	for (int i = 0; i <= FP_EP; i++)
		ck_assert_uint_eq(a.wait[i], b.wait[i]);
	for (int i = 0; i < FP_EP; i++)
		ck_assert_uint_eq(a.discards[i], b.discards[i]);
}

/*
 * The latency raised after both packets were sent and before either was
 * handed over: A (to h1) waits for its routing decision and B (to h2) is
 * queued behind it, its decision later still, so that A's grant leaves a
 * next head that is not ready (xb_send_then_head on the straight path,
 * xb_send's second order on the general one): both paths give the same
 * run. A packet of A's size has gone to h1 first, so that its port's
 * memo has A's serialization time and the straight path grants A (it
 * hands over to the general path otherwise). Checked to reach
 * xb_send_then_head; swapping its send and request changes nothing here.
 */
static void fp_late_run(int fast, ibfs_time_t r[6])
{
	struct star x;
	struct star_opts o = { 0 };

	star_make(&x, 3, &o);
	ibfs__switch_set_xbar_fast(x.sw, fast);
	/* First a packet of A's size to h1: its port's memo then has it. */
	flow(x.ep[2], 2, 1000, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[1])->rx_pkts, 1);
	/* The run ends at its last event: A and B leave h0 from then on. */
	ibfs_time_t t0 = x.f->eq.now;

	flow(x.ep[0], 2, 1000, 1);
	flow(x.ep[0], 3, 1000, 1);
	ibfs__eq_run(&x.f->eq, t0 + 95 * IBFS_NS);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 0);
	ibfs__switch_set_latency(x.sw, 300 * IBFS_NS);
	/*
	 * In steps, to check the go bits and the ends ring between them
	 * while heads wait for their decisions (eq.now stays the last
	 * event's time: the same run).
	 */
	for (ibfs_time_t t = x.f->eq.now; ibfs__eq_size(&x.f->eq);
	     t += 20 * IBFS_NS) {
		ibfs__eq_run(&x.f->eq, t);
		go_bits_kept(x.sw);
	}
	for (int i = 0; i < 2; i++) {
		const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.ep[1 + i]);

		ck_assert_uint_eq(st->rx_pkts, 2 - i);
		r[2 * i] = st->last_head;
		r[2 * i + 1] = st->last_tail;
	}
	r[4] = x.f->eq.executed;
	r[5] = x.f->eq.now;
	conserved(x.f);
	star_free(&x);
}

START_TEST(fast_path_same_run)
{
	ibfs_time_t a[6], b[6];

	fp_late_run(1, a);
	fp_late_run(0, b);
	for (int i = 0; i < 6; i++)
		ck_assert_uint_eq(a[i], b[i]);
	/* B leaves once its decision is made, after A's 300 ns. */
	ck_assert_uint_gt(a[2], a[0]);

	for (int c = 0; c < 8; c++) {
		struct star_opts o = {
			.port0 = c & 1 ? 30 : 0,
			.slow = c & 2 ? 2 : 0,
			.buffer = c & 4 ? 4096 : 0,
		};

		fp_same(&o, 0);
	}
}
END_TEST

/*
 * fast_path_same_run's comparison in the cases its runs never reach:
 * store-and-forward, multicast copies, and a link down and up in flight,
 * and all three at once, each with one and two request words and with
 * 32 KiB and 4 KiB buffers, with and without VL15 packets from an input
 * that mostly feeds data (a VL15 request sends an arbitration down the
 * general path; its head, queued behind the input's data packet, asks
 * its output when that packet's end frees the input: the end of a
 * packet's FIFO loop, which the shortcut for one data FIFO skips).
 */
START_TEST(fast_path_same_run_more)
{
	for (int c = 0; c < 32; c++) {
		int kind = c >> 1 & 3;
		struct star_opts o = {
			.port0 = c & 1 ? 30 : 0,
			.store_forward = kind == 0 || kind == 3,
			.buffer = c & 8 ? 4096 : 0,
		};
		int cases = (kind == 1 ? FP_MC :
			     kind == 2 ? FP_FAULT :
			     kind == 3 ? FP_MC | FP_FAULT : 0) |
			    (c & 16 ? FP_VL15 : 0);

		fp_same(&o, cases);
	}
}
END_TEST

static Suite *switch_suite(void)
{
	Suite *s = suite_create("switch");
	TCase *tc = tcase_create("timing");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, cut_through_one_packet);
	tcase_add_test(tc, store_and_forward_one_packet);
	tcase_add_test(tc, store_forward_set_by_call);
	tcase_add_test(tc, slow_input_fast_output);
	tcase_add_test(tc, saturating_stream);
	tcase_add_test(tc, credit_limited_output);
	tcase_add_test(tc, incast_fairness);
	tcase_add_test(tc, head_of_line_blocking);
	tcase_add_test(tc, flow_ops_path_same_run);
	tcase_add_test(tc, latency_raised_in_flight);
	tcase_add_test(tc, fast_path_same_run);
	tcase_add_test(tc, fast_path_same_run_more);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(switch_suite)
