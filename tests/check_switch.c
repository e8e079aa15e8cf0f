/* SPDX-License-Identifier: MIT */
/*
 * One switch with endpoints around it (a star), closed-form timing cases:
 * cut-through and store-and-forward to the picosecond (either mode also
 * set by a call after the switch is made), a slow input feeding a fast
 * output, saturating goodput, a credit-limited output, incast fairness,
 * head-of-line blocking, and packets held for a latency raised while they
 * were on the way. The fixture and its figures are in switch_star.h; the
 * tables (VL arbitration, SL-to-VL, LFT, MFT) are in check_switch_tables.c;
 * the same runs through the ops table and the crossbar's two paths in
 * check_switch_paths.c.
 */
#include "switch_star.h"

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
	tcase_add_test(tc, latency_raised_in_flight);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(switch_suite)
