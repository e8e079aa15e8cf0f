/* SPDX-License-Identifier: MIT */
/*
 * A switch output whose flow control refuses to send for a while, where a
 * PFC pause will (IEEE 802.1Qbb) once Ethernet links plug in through
 * struct ibfs_flow_ops: the crossbar keeps the requests, counts the time
 * as PortXmitWait, and sends when the flow control says it may again
 * (ibfs__port_may_send_again). A test double: InfiniBand's credits with a
 * pause on top, on the switch's port toward h1. One switch, two
 * endpoints, 2 m cables of 4x EDR (switch_star.h); every time below is
 * exact.
 */
#include "switch_star.h"

#define PAYLOAD 1000
#define WIRE (8 + PAYLOAD + 2)
#define PROP 10000ULL   /* 2 m at 5 ns/m, in ps */
#define LAT 100000ULL   /* the switch's default routing latency */
#define PER_BUF 32      /* 32 KiB of buffer: 512 blocks, 32 packets of 16 */

static struct {
	struct ibfs_port *port;
	ibfs_time_t until;
	uint64_t refused;
} pause;

static int pause_may_send(const struct ibfs_port *out,
			  const struct ibfs_packet *p)
{
	if (out == pause.port && out->dev->fab->eq.now < pause.until) {
		pause.refused++;
		return 0;
	}
	return ibfs__ib_credit_flow.may_send(out, p);
}

static void pause_end(void *obj, uint64_t arg)
{
	(void)arg;
	ibfs__port_may_send_again(obj);
}

/*
 * h0 sends n packets to h1; the switch's port 2 may not send before T.
 * The switch takes packet 0 in at t0 = P + ser(LRH) + latency and asks
 * for port 2 then: refused, it waits. At T the pause ends and packet 0,
 * long arrived, leaves; the 31 behind it in the input buffer follow back
 * to back, and h0, which stopped when the buffer was full (after 32
 * packets), refills it a packet time later each time a packet leaves, so
 * that the output never waits again: packet k's tail reaches h1 at
 * T + (k + 1) W + P. The switch's PortXmitWait is T - t0.
 */
START_TEST(paused_output_waits_then_streams)
{
	struct star x;
	struct star_opts o = { .track = 1 };
	const uint64_t n = 60;
	const ibfs_time_t W = ser(WIRE), T = 5 * IBFS_US;
	const ibfs_time_t t0 = PROP + ser(8) + LAT;

	star_make(&x, 2, &o);
	struct ibfs_flow_ops ops = ibfs__ib_credit_flow;

	ops.name = "test-pause";
	ops.may_send = pause_may_send;
	memset(&pause, 0, sizeof(pause));
	pause.port = ibfs__fabric_port(x.f, 0, 2);
	pause.until = T;
	pause.port->flow = &ops;
	ck_assert_ptr_nonnull(ibfs__eq_schedule(&x.f->eq, T, pause_end,
						pause.port, 0));
	flow(x.ep[0], 2, PAYLOAD, n);
	/* Just before T: every packet the buffer holds is in, none out. */
	ibfs__eq_run(&x.f->eq, T - 1);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[1])->rx_pkts, 0);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), PER_BUF);
	ck_assert_uint_eq(pause.port->cnt.xmit_pkts, 0);
	ck_assert_uint_gt(pause.refused, 0);
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.ep[1]);

	ck_assert_uint_eq(st->rx_pkts, n);
	for (uint32_t k = 0; k < n; k++) {
		uint16_t slid;
		ibfs_time_t head, tail;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.ep[1], k, &slid,
							&head, &tail),
				 0);
		ck_assert_uint_eq(tail, T + (k + 1) * W + PROP);
	}
	ck_assert_uint_eq(ibfs__port_xmit_wait(pause.port), T - t0);
	ck_assert_uint_eq(pause.port->cnt.xmit_pkts, n);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw), 0);
	conserved(x.f);
	star_free(&x);
}
END_TEST

/*
 * On a port whose transmitter is busy, ibfs__port_may_send_again does
 * nothing: the transmitter's own end calls tx_ready. h0's port, busy
 * with its first packet at the call, starts no packet more, and the flow
 * goes on with its usual times.
 */
START_TEST(may_send_again_on_busy_port_is_harmless)
{
	struct star x;
	struct star_opts o = { .track = 1 };
	const ibfs_time_t W = ser(WIRE);

	star_make(&x, 2, &o);
	flow(x.ep[0], 2, PAYLOAD, 3);
	ibfs__eq_run(&x.f->eq, W / 2);
	struct ibfs_port *p0 = ibfs__endpoint_port(x.ep[0]);

	ck_assert_uint_eq(p0->tx_busy, 1);
	ibfs__port_may_send_again(p0);
	ck_assert_uint_eq(p0->cnt.xmit_pkts, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.ep[1]);

	ck_assert_uint_eq(st->rx_pkts, 3);
	/* Cut-through: the switch forwards at header + latency. */
	ck_assert_uint_eq(st->last_tail,
			  2 * W + PROP + ser(8) + LAT + W + PROP);
	conserved(x.f);
	star_free(&x);
}
END_TEST

static Suite *switch_pause_suite(void)
{
	Suite *s = suite_create("switch_pause");
	TCase *tc = tcase_create("pause");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, paused_output_waits_then_streams);
	tcase_add_test(tc, may_send_again_on_busy_port_is_harmless);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(switch_pause_suite)
