/* SPDX-License-Identifier: MIT */
/*
 * A link kind other than InfiniBand's credits, plugged in through struct
 * ibfs_flow_ops as Ethernet's will be (link.h): a test double whose
 * sender never waits, whose receiver discards every drop_every-th packet
 * that reaches it (where Ethernet drops for want of buffer), and whose
 * transmitter, when `control` is set, carries a control frame after each
 * data packet (where a PFC pause frame would go, IEEE 802.1Qbb) by
 * occupying it with ibfs__port_occupy. Two endpoints, one 2 m cable of 4x
 * EDR: n bytes take n x 80 ps, the cable 10 ns (link_pair.h).
 */
#include "link_pair.h"

/* A control frame: 64 bytes, the least an Ethernet frame takes. */
#define CTRL_BYTES 64

static struct {
	unsigned drop_every; /* 0: none */
	int control;
	uint64_t arrived, accepted_blocks, freed_blocks, sends, ends, frames;
	int owed[2]; /* a control frame to send, by node */
} lossy;

static int lossy_may_send(const struct ibfs_port *out,
			  const struct ibfs_packet *p)
{
	(void)out;
	(void)p;
	return 1;
}

static void lossy_on_send(struct ibfs_port *out, const struct ibfs_packet *p)
{
	(void)p;
	lossy.sends++;
	lossy.owed[out->node] = lossy.control;
}

static int lossy_on_arrive(struct ibfs_port *in, const struct ibfs_packet *p)
{
	(void)in;
	if (lossy.drop_every && ++lossy.arrived % lossy.drop_every == 0)
		return -1;
	lossy.accepted_blocks += p->blocks;
	return 0;
}

static void lossy_on_free(struct ibfs_port *in, int vl, uint32_t blocks)
{
	(void)in;
	(void)vl;
	lossy.freed_blocks += blocks;
}

static int lossy_on_tx_idle(struct ibfs_port *out)
{
	if (!lossy.owed[out->node])
		return 0;
	lossy.owed[out->node] = 0;
	lossy.frames++;
	ibfs__port_occupy(out, ser(CTRL_BYTES));
	return 1;
}

static void lossy_on_tx_end(struct ibfs_port *out)
{
	(void)out;
	lossy.ends++;
}

static const struct ibfs_flow_ops lossy_flow = {
	.name = "test-lossy",
	.may_send = lossy_may_send,
	.on_send = lossy_on_send,
	.on_arrive = lossy_on_arrive,
	.on_free = lossy_on_free,
	.on_tx_idle = lossy_on_tx_idle,
	.on_tx_end = lossy_on_tx_end,
	/* keeps_credits 0: held to packet conservation only */
};

static void lossy_pair(struct pair *x, unsigned drop_every, int control)
{
	memset(&lossy, 0, sizeof(lossy));
	lossy.drop_every = drop_every;
	lossy.control = control;
	pair_make(x, 2000, 32 * 1024, 1, 1);
	ibfs__endpoint_port(x->a)->flow = &lossy_flow;
	ibfs__endpoint_port(x->b)->flow = &lossy_flow;
	ck_assert_int_eq(ibfs__endpoint_track(x->b, 4, 64), 0);
}

/*
 * Ten packets back to back, every third discarded at the receiver: the
 * seven others arrive at their exact times (packet k's tail at (k + 1) W
 * + P), the three count as dropped, off the wire, and never reach the
 * device; packets are conserved throughout. Mid-run, with a packet on
 * the wire, the credit sum would not add up (the sender holds the
 * credits it started with), so the check must leave this link's credits
 * alone.
 */
START_TEST(lossy_link_drops)
{
	struct pair x;
	const uint32_t payload = 1000, wire = 8 + 1000 + 2, blocks = 16;
	const ibfs_time_t W = ser(wire), P = 10 * IBFS_NS;
	const unsigned n = 10;

	lossy_pair(&x, 3, 0);
	flow(x.a, 2, 0, payload, n, 0);
	ibfs__eq_run(&x.f->eq, 4 * W + P / 2);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);
	struct ibfs_port *pb = ibfs__endpoint_port(x.b);

	/* Packet 3's tail is still on the cable; packet 4 is being sent. */
	ck_assert_uint_eq(ibfs__port_wire_pkts(pa), 2);
	ck_assert_uint_eq(ibfs__port_wire_blocks(pa, 0), 2 * blocks);
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.b);
	static const unsigned kept[] = { 0, 1, 3, 4, 6, 7, 9 };

	ck_assert_uint_eq(lossy.arrived, n);
	ck_assert_uint_eq(st->rx_pkts, 7);
	for (unsigned i = 0; i < 7; i++) {
		uint16_t slid;
		ibfs_time_t head, tail;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.b, i, &slid, &head,
							&tail),
				 0);
		ck_assert_uint_eq(slid, 1);
		ck_assert_uint_eq(head, kept[i] * W + ser(8) + P);
		ck_assert_uint_eq(tail, (kept[i] + 1) * W + P);
	}
	ck_assert_uint_eq(x.f->pkts_injected, n);
	ck_assert_uint_eq(x.f->pkts_delivered, 7);
	ck_assert_uint_eq(x.f->pkts_dropped, 3);
	ck_assert_uint_eq(pa->cnt.xmit_pkts, n);
	ck_assert_uint_eq(pb->cnt.rcv_pkts, 7);
	ck_assert_uint_eq(ibfs__port_rx_pkts(pb), n);
	ck_assert_uint_eq(ibfs__port_wire_pkts(pa), 0);
	ck_assert_uint_eq(ibfs__port_wire_blocks(pa, 0), 0);
	/* The device freed what it took, and only that. */
	ck_assert_uint_eq(lossy.accepted_blocks, 7 * blocks);
	ck_assert_uint_eq(lossy.freed_blocks, 7 * blocks);
	ck_assert_uint_eq(lossy.sends, n);
	ck_assert_uint_eq(lossy.ends, n);
	/* No FCP: the credits are not this link's flow control. */
	ck_assert_uint_eq(x.f->fcps, 0);
	ck_assert_uint_eq(st->data_errors, 0);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/*
 * A control frame of C = 64 byte times after each data packet: packet k
 * starts at k (W + C), so its tail arrives at k (W + C) + W + P, and the
 * transmitter is idle for good at n (W + C), before that last tail. The frames are not packets:
 * PortXmitPkts counts the data packets only.
 */
START_TEST(control_frame_occupies_transmitter)
{
	struct pair x;
	const uint32_t payload = 500, wire = 8 + 500 + 2;
	const ibfs_time_t W = ser(wire), C = ser(CTRL_BYTES),
			  P = 10 * IBFS_NS;
	const unsigned n = 6;

	lossy_pair(&x, 0, 1);
	flow(x.a, 2, 0, payload, n, 0);
	/* Mid-frame after packet 2: the transmitter is busy, no packet on. */
	ibfs__eq_run(&x.f->eq, 3 * W + 2 * C + C / 2);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);

	ck_assert_uint_eq(pa->tx_busy, 1);
	ck_assert_uint_eq(pa->tx_free_at, 3 * (W + C));
	ck_assert_uint_eq(pa->cnt.xmit_pkts, 3);
	ck_assert_uint_eq(lossy.frames, 3);
	conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_ep_stats *st = ibfs__endpoint_stats(x.b);

	ck_assert_uint_eq(st->rx_pkts, n);
	for (unsigned k = 0; k < n; k++) {
		uint16_t slid;
		ibfs_time_t head, tail;

		ck_assert_int_eq(ibfs__endpoint_arrival(x.b, k, &slid, &head,
							&tail),
				 0);
		ck_assert_uint_eq(tail, k * (W + C) + W + P);
	}
	ck_assert_uint_eq(lossy.frames, n);
	ck_assert_uint_eq(pa->cnt.xmit_pkts, n);
	ck_assert_uint_eq(pa->cnt.xmit_data, (uint64_t)n * wire);
	ck_assert_uint_eq(pa->tx_busy, 0);
	ck_assert_uint_eq(pa->tx_free_at, n * (W + C));
	/* The last event: the last tail, after the last frame ended. */
	ck_assert_uint_eq(x.f->eq.now, (n - 1) * (W + C) + W + P);
	/* B sent nothing, so it owed no frame. */
	ck_assert_uint_eq(ibfs__endpoint_port(x.b)->cnt.xmit_pkts, 0);
	ck_assert_uint_eq(x.f->pkts_dropped, 0);
	conserved(x.f);
	pair_free(&x);
}
END_TEST

/*
 * The same link with the credits: the check holds it to the credit sum,
 * which a credit from nowhere breaks, and leaves a link whose flow
 * control keeps none alone.
 */
START_TEST(credit_check_follows_flow)
{
	struct pair x;
	char msg[512] = "";

	pair_make(&x, 2000, 32 * 1024, 1, 0);
	struct ibfs_port *pa = ibfs__endpoint_port(x.a);
	struct ibfs_port *pb = ibfs__endpoint_port(x.b);

	pa->vls[0].credits++;
	ck_assert_int_eq(ibfs__fabric_check(x.f, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "credits: a:1 -> b:1 VL0"));
	/* Either end without credits takes a direction out of the sum. */
	pa->flow = &lossy_flow;
	pb->vls[0].credits++;
	ck_assert_int_eq(ibfs__fabric_check(x.f, msg, sizeof(msg)), 0);
	pa->flow = &ibfs__ib_credit_flow;
	pb->flow = &lossy_flow;
	ck_assert_int_eq(ibfs__fabric_check(x.f, msg, sizeof(msg)), 0);
	pb->flow = &ibfs__ib_credit_flow;
	ck_assert_int_eq(ibfs__fabric_check(x.f, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "credits: b:1 -> a:1 VL0"));
	pa->vls[0].credits--;
	pb->vls[0].credits--;
	conserved(x.f);
	pair_free(&x);
}
END_TEST

static Suite *flow_ops_suite(void)
{
	Suite *s = suite_create("flow_ops");
	TCase *tc = tcase_create("flow_ops");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, lossy_link_drops);
	tcase_add_test(tc, control_frame_occupies_transmitter);
	tcase_add_test(tc, credit_check_follows_flow);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(flow_ops_suite)
