/* SPDX-License-Identifier: MIT */
/*
 * PFC (IEEE 802.1Qbb, src/fabric/pfc.c): pause frames on a link between
 * two hosts, then through the Ethernet switch under incast, with the
 * headroom its formula gives and with less. Hosts and fixture: eth_star.h.
 * 100 Gb/s links (80 ps a byte); a 2 m cable is P = 10,000 ps; a PFC
 * frame occupies ibfs__eth_wire_bytes(64) = 84 bytes, C = 6,720 ps; a
 * frame of 1000 bytes W = 1020 bytes, 81,600 ps.
 */
#include "eth_star.h"

#define P 10000ULL
#define C 6720ULL
#define W 81600ULL
#define PRIO 3

struct es_pair {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct es_host *a, *b;
	struct ibfs_port *pa, *pb;
};

/* Hosts a (id 1) and b (id 2) on one 2 m cable, PFC on PRIO. */
static void pair_make(struct es_pair *x, uint16_t quanta)
{
	struct ibfs_diag d;
	struct es_host **h[2] = { &x->a, &x->b };

	x->t = ibfs__topo_new("pfc-pair");
	ck_assert_int_eq(ibfs__topo_add_node(x->t, "a", IBFS_NODE_HCA, 1, 0,
					     &d),
			 0);
	ck_assert_int_eq(ibfs__topo_add_node(x->t, "b", IBFS_NODE_HCA, 1, 0,
					     &d),
			 1);
	ck_assert_int_ge(ibfs__topo_add_link(x->t, 0, 1, 1, 1, IBFS_SPEED_EDR,
					     4, 2000, 0, &d),
			 0);
	x->f = ibfs__fabric_new(x->t, 1, 0);
	for (int i = 0; i < 2; i++) {
		struct ibfs_port *port = ibfs__fabric_port(x->f, i, 1);

		*h[i] = calloc(1, sizeof(struct es_host));
		(*h[i])->id = (uint16_t)(i + 1);
		(*h[i])->dev.ops = &es_host_ops;
		ck_assert_int_eq(ibfs__pfc_attach(port, 1u << PRIO, quanta),
				 0);
		ibfs__port_set_rx(port, 0, 1);
		ibfs__fabric_attach(x->f, i, &(*h[i])->dev);
	}
	x->pa = ibfs__fabric_port(x->f, 0, 1);
	x->pb = ibfs__fabric_port(x->f, 1, 1);
}

static void pair_free(struct es_pair *x)
{
	ibfs__pfc_detach(x->pa);
	ibfs__pfc_detach(x->pb);
	ck_assert_ptr_null(ibfs__pfc_of(x->pa));
	free(x->a);
	free(x->b);
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
}

static void xoff_ev(void *obj, uint64_t arg)
{
	ck_assert_int_ge(ibfs__pfc_request(obj, PRIO, (int)arg), 0);
}

static void start_ev(void *obj, uint64_t arg)
{
	(void)arg;
	es_pump(obj);
}

/*
 * b asks for XOFF at 0 (its transmitter idle: the frame goes at once) and
 * XON at T = 1,000,000 ps. a streams 1000-byte frames from 0. The XOFF
 * arrives at C + P = 16,720 ps, in the middle of a's frame 0, which
 * finishes (its tail at b at W + P = 91,600); frame 1 waits. The XON
 * arrives at T + C + P: frame 1 starts then, its tail at b at
 * T + C + P + W + P. a was paused from C + P to T + C + P: T ps. Two
 * frames each way counted at PRIO, one of them XOFF; a 0xFFFF-quanta
 * pause is 335,539,200 ps, so no refresh falls before T.
 */
START_TEST(xoff_then_xon)
{
	struct es_pair x;
	const ibfs_time_t T = 1000000;

	pair_make(&x, 0);
	es_flow_add(x.a, 2, PRIO, 1000, 5, 1);
	ibfs__eq_schedule(&x.f->eq, 0, xoff_ev, x.pb, 1);
	ibfs__eq_schedule(&x.f->eq, 0, start_ev, x.a, 0);
	ibfs__eq_schedule(&x.f->eq, T, xoff_ev, x.pb, 0);
	ibfs__eq_run(&x.f->eq, T - 1);
	ck_assert_int_eq(ibfs__pfc_paused(x.pa, PRIO), 1);
	ck_assert_int_eq(ibfs__pfc_paused(x.pa, 0), 0);
	ck_assert_uint_eq(x.pa->cnt.xmit_pkts, 1);
	ck_assert_uint_eq(x.b->rx_frames, 1);
	ck_assert_uint_eq(x.b->first_tail, W + P);
	/* The clock stands at the last event, frame 0's tail at b: a pause
	 * in progress counts up to it. */
	ck_assert_uint_eq(ibfs__fabric_now(x.f), W + P);
	ck_assert_uint_eq(ibfs__pfc_paused_time(x.pa, PRIO), W + P - (C + P));
	/* Asking again for what holds sends nothing. */
	ck_assert_int_eq(ibfs__pfc_request(x.pb, PRIO, 1), 0);
	/* A priority without PFC cannot be paused. */
	ck_assert_int_eq(ibfs__pfc_request(x.pb, 0, 1), -1);
	ck_assert_int_eq(ibfs__pfc_request(x.pb, 8, 1), -1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.b->rx_frames, 5);
	ck_assert_uint_eq(x.b->log_tail[1], T + C + P + W + P);
	ck_assert_uint_eq(x.b->log_tail[4], T + C + P + 4 * W + P);
	ck_assert_uint_eq(ibfs__pfc_paused_time(x.pa, PRIO), T);
	const struct ibfs_pfc_stats *sb = &ibfs__pfc_of(x.pb)->st;
	const struct ibfs_pfc_stats *sa = &ibfs__pfc_of(x.pa)->st;

	ck_assert_uint_eq(sb->tx_frames[PRIO], 2);
	ck_assert_uint_eq(sb->tx_xoff[PRIO], 1);
	ck_assert_uint_eq(sa->rx_frames[PRIO], 2);
	ck_assert_uint_eq(sa->tx_frames[PRIO], 0);
	/* Pause frames are not packets. */
	ck_assert_uint_eq(x.pb->cnt.xmit_pkts, 0);
	ck_assert_uint_eq(x.f->pkts_injected, 5);
	ck_assert_uint_eq(x.f->pkts_delivered, 5);
	es_conserved(x.f);
	pair_free(&x);
}
END_TEST

/* What the frame hook saw: b's frames, in order. */
static struct {
	int n;
	ibfs_time_t start[4];
	uint8_t enable[4];
	uint16_t q3[4], q0[4];
} seen;

static void seen_frame(void *ctx, const struct ibfs_port *out,
		       ibfs_time_t start, uint8_t enable,
		       const uint16_t quanta[IBFS_ETH_PRIOS])
{
	ck_assert_ptr_eq(ctx, &seen);
	ck_assert_uint_eq(out->node, 1);
	if (seen.n < 4) {
		seen.start[seen.n] = start;
		seen.enable[seen.n] = enable;
		seen.q3[seen.n] = quanta[PRIO];
		seen.q0[seen.n] = quanta[0];
	}
	seen.n++;
}

/*
 * The hook a capture uses sees both frames of the XOFF-XON exchange:
 * at 0, class 3 with 0xFFFF quanta; at T, class 3 with 0 (XON).
 */
START_TEST(frame_hook_sees_xoff_and_xon)
{
	struct es_pair x;
	const ibfs_time_t T = 1000000;

	memset(&seen, 0, sizeof(seen));
	pair_make(&x, 0);
	ibfs__pfc_observe(x.pb, seen_frame, &seen);
	ibfs__eq_schedule(&x.f->eq, 0, xoff_ev, x.pb, 1);
	ibfs__eq_schedule(&x.f->eq, T, xoff_ev, x.pb, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(seen.n, 2);
	ck_assert_uint_eq(seen.start[0], 0);
	ck_assert_uint_eq(seen.enable[0], 1u << PRIO);
	ck_assert_uint_eq(seen.q3[0], 0xFFFF);
	ck_assert_uint_eq(seen.q0[0], 0);
	ck_assert_uint_eq(seen.start[1], T);
	ck_assert_uint_eq(seen.enable[1], 1u << PRIO);
	ck_assert_uint_eq(seen.q3[1], 0);
	/* Cleared, the hook hears no more (an XOFF held refreshes for
	 * ever: the run stops at 2T); a port not Ethernet is left. */
	ibfs__pfc_observe(x.pb, NULL, NULL);
	ck_assert_int_eq(ibfs__pfc_request(x.pb, PRIO, 1), 1);
	ibfs__eq_run(&x.f->eq, 2 * T);
	ck_assert_uint_eq(ibfs__pfc_of(x.pb)->st.tx_frames[PRIO], 3);
	ck_assert_int_eq(seen.n, 2);
	pair_free(&x);
	ibfs__pfc_observe(NULL, seen_frame, &seen);
}
END_TEST

/*
 * Refresh: XOFF of 100 quanta, 100 x 512 bits = 512,000 ps at 100 Gb/s,
 * held until T = 2,000,000 ps. b sends it again every half pause
 * (256,000 ps): at 0, 256,000, ..., 1,792,000, eight XOFF frames, each
 * arriving before the pause before it runs out; the XON at T is the
 * ninth frame. a stays paused from C + P to T + C + P.
 */
START_TEST(xoff_refreshed_while_held)
{
	struct es_pair x;
	const ibfs_time_t T = 2000000;

	ck_assert_uint_eq(ibfs__pfc_quanta_ps(100, ES_BPS), 512000);
	pair_make(&x, 100);
	es_flow_add(x.a, 2, PRIO, 1000, 3, 1);
	ibfs__eq_schedule(&x.f->eq, 0, xoff_ev, x.pb, 1);
	ibfs__eq_schedule(&x.f->eq, 0, start_ev, x.a, 0);
	ibfs__eq_schedule(&x.f->eq, T, xoff_ev, x.pb, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_pfc_stats *sb = &ibfs__pfc_of(x.pb)->st;

	ck_assert_uint_eq(sb->tx_xoff[PRIO], 8);
	ck_assert_uint_eq(sb->tx_frames[PRIO], 9);
	ck_assert_uint_eq(ibfs__pfc_of(x.pa)->st.rx_frames[PRIO], 9);
	ck_assert_uint_eq(x.b->log_tail[1], T + C + P + W + P);
	ck_assert_uint_eq(ibfs__pfc_paused_time(x.pa, PRIO), T);
	es_conserved(x.f);
	pair_free(&x);
}
END_TEST

/*
 * Expiry: b's XOFF of 100 quanta is not refreshed (the device is made to
 * forget it holds XOFF): the pause ends 512,000 ps after it arrived, at
 * C + P + 512,000 = 528,720 ps, when a's frame 1 starts.
 */
static void forget_ev(void *obj, uint64_t arg)
{
	(void)arg;
	ibfs__pfc_of(obj)->xoff = 0;
}

START_TEST(pause_expires)
{
	struct es_pair x;

	pair_make(&x, 100);
	es_flow_add(x.a, 2, PRIO, 1000, 2, 1);
	ibfs__eq_schedule(&x.f->eq, 0, xoff_ev, x.pb, 1);
	ibfs__eq_schedule(&x.f->eq, 0, start_ev, x.a, 0);
	ibfs__eq_schedule(&x.f->eq, 1, forget_ev, x.pb, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.b->log_tail[1], C + P + 512000 + W + P);
	ck_assert_uint_eq(ibfs__pfc_paused_time(x.pa, PRIO), 512000);
	ck_assert_uint_eq(ibfs__pfc_of(x.pb)->st.tx_frames[PRIO], 1);
	pair_free(&x);
}
END_TEST

/*
 * The PFC frame waits for the frame on the wire and goes ahead of the
 * next: b streams 1000-byte frames to a on priority 0 (no PFC) and asks
 * for XOFF at 40,000 ps, during its frame 0. The PFC frame occupies b's
 * transmitter from W to W + C, b's frame 1 follows (its tail at a at
 * W + C + W + P = 179,920), and the pause reaches a at W + C + P =
 * 98,320: a, streaming on PRIO, had started frames 0 (at 0) and 1 (at W)
 * by then, and starts no third.
 */
START_TEST(pfc_frame_between_frames)
{
	struct es_pair x;

	pair_make(&x, 0);
	es_flow_add(x.a, 2, PRIO, 1000, 10, 1);
	es_flow_add(x.b, 1, 0, 1000, 2, 2);
	ibfs__eq_schedule(&x.f->eq, 0, start_ev, x.a, 0);
	ibfs__eq_schedule(&x.f->eq, 0, start_ev, x.b, 0);
	ibfs__eq_schedule(&x.f->eq, 40000, xoff_ev, x.pb, 1);
	ibfs__eq_run(&x.f->eq, 10 * W);
	ck_assert_uint_eq(x.a->rx_frames, 2);
	ck_assert_uint_eq(x.a->log_tail[0], W + P);
	ck_assert_uint_eq(x.a->log_tail[1], W + C + W + P);
	ck_assert_uint_eq(x.pa->cnt.xmit_pkts, 2);
	ck_assert_uint_eq(x.b->rx_frames, 2);
	/* Paused since W + C + P; the clock stands at the last event, b's
	 * frame 1 reaching a. */
	ck_assert_uint_eq(ibfs__fabric_now(x.f), W + C + W + P);
	ck_assert_uint_eq(ibfs__pfc_paused_time(x.pa, PRIO), W);
	es_conserved(x.f);
	pair_free(&x);
}
END_TEST

/*
 * Incast on the lossless priority through the switch: n senders, each
 * 4000 frames of 1500 bytes, toward one host. PFC holds the senders:
 * nothing drops, the switch sends XOFF frames to every sender, and the
 * output to the sink never idles from its first frame to its last, so
 * the last tail comes (4000 n - 1) frame times of 1520 bytes after the
 * first. Halfway, each sender has had 1/n of the frames received, within
 * 2%. Packets are conserved halfway and at the end.
 */
static void incast(int n)
{
	struct es_star x;
	struct ibfs_eth_profile p = es_profile(1500);
	const uint64_t per = 4000, total = per * (uint64_t)n;
	int sink = n + 1;

	p.lossless = 1u << PRIO;
	es_star_make(&x, n + 1, n + 1, 2000);
	es_star_start(&x, &p, 1u << PRIO);
	for (int i = 1; i <= n; i++)
		es_flow_add(x.h[i], (uint16_t)sink, PRIO, 1500, per,
			    (uint32_t)i);
	ibfs__eq_run(&x.f->eq, (total / 2) * es_ser(1520));
	const struct es_host *s = x.h[sink];

	for (int i = 1; i <= n; i++) {
		double share = (double)s->rx_from[i] / (double)s->rx_frames;

		ck_assert_double_eq_tol(share, 1.0 / n, 0.02 / n);
	}
	es_conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(s->rx_frames, total);
	ck_assert_uint_eq(x.f->pkts_dropped, 0);
	ck_assert_uint_eq(x.f->pkts_injected, total);
	ck_assert_uint_eq(x.f->pkts_delivered, total);
	ck_assert_uint_eq(s->last_tail - s->first_tail,
			  (total - 1) * es_ser(1520));
	for (int i = 1; i <= n; i++) {
		const struct ibfs_pfc_stats *sw =
			ibfs__eth_switch_pfc_stats(x.sw, i);
		const struct ibfs_pfc_stats *h =
			&ibfs__pfc_of(ibfs__fabric_port(x.f, i, 1))->st;

		ck_assert_uint_gt(sw->tx_xoff[PRIO], 0);
		ck_assert_uint_eq(h->rx_frames[PRIO], sw->tx_frames[PRIO]);
		ck_assert_uint_gt(ibfs__pfc_paused_time(
					  ibfs__fabric_port(x.f, i, 1), PRIO),
				  0);
		ck_assert_uint_eq(ibfs__eth_switch_stats(x.sw, i, PRIO)
					  ->hdrm_drops,
				  0);
	}
	ck_assert_uint_eq(ibfs__eth_switch_used(x.sw), 0);
	es_conserved(x.f);
	es_star_free(&x);
}

START_TEST(incast_2_to_1)
{
	incast(2);
}
END_TEST

START_TEST(incast_8_to_1)
{
	incast(8);
}
END_TEST

/*
 * Headroom over 1 km of cable (5,000,000 ps each way), generic profile
 * (L = 400,000 ps), MTU 1500 both ends, cut-through:
 *   rate x (2 x 5,000,000 + 400,000 + ser(54) = 4,320) ps
 *     = 10,404,320 ps x 12.5 bytes/ns = 130,054 bytes
 *   + our frame 1520 + the PFC frame 84 + two of the peer's 2 x 1520
 *   = 134,698 bytes.
 * 2:1 incast of 3000 frames each on the lossless priority, in a 2 MiB
 * buffer (so that XOFF comes early): with that headroom nothing drops;
 * with a quarter of it (33,674 bytes, less than the 130,054 bytes a
 * round trip brings) frames overflow it, are dropped and counted at
 * their ingress port.
 */
static uint64_t headroom_run(uint64_t headroom, uint64_t *cap)
{
	struct es_star x;
	struct ibfs_eth_profile p = es_profile(1500);
	uint64_t drops = 0;

	p.buffer = 2u << 20;
	p.lossless = 1u << PRIO;
	p.headroom = headroom;
	es_star_make(&x, 3, 3, 1000000);
	es_star_start(&x, &p, 1u << PRIO);
	es_flow_add(x.h[1], 3, PRIO, 1500, 3000, 1);
	es_flow_add(x.h[2], 3, PRIO, 1500, 3000, 2);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	*cap = ibfs__eth_switch_headroom(x.sw, 1, PRIO);
	ck_assert_uint_eq(ibfs__eth_switch_headroom(x.sw, 1, 0), 0);
	for (int i = 1; i <= 2; i++)
		drops += ibfs__eth_switch_stats(x.sw, i, PRIO)->hdrm_drops;
	ck_assert_uint_eq(x.f->pkts_dropped, drops);
	ck_assert_uint_eq(x.f->drops[IBFS_DROP_HEADROOM], drops);
	ck_assert_uint_eq(x.h[3]->rx_frames + drops, 6000);
	ck_assert_uint_gt(ibfs__pfc_of(ibfs__fabric_port(x.f, 0, 1))
				  ->st.tx_xoff[PRIO],
			  0);
	es_conserved(x.f);
	es_star_free(&x);
	return drops;
}

START_TEST(headroom_from_cable)
{
	uint64_t cap;

	ck_assert_uint_eq(headroom_run(0, &cap), 0);
	ck_assert_uint_eq(cap, 134698);
	ck_assert_uint_gt(headroom_run(134698 / 4, &cap), 0);
	ck_assert_uint_eq(cap, 134698 / 4);
}
END_TEST

static Suite *pfc_suite(void)
{
	Suite *s = suite_create("pfc");
	TCase *tc = tcase_create("pfc");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, xoff_then_xon);
	tcase_add_test(tc, frame_hook_sees_xoff_and_xon);
	tcase_add_test(tc, xoff_refreshed_while_held);
	tcase_add_test(tc, pause_expires);
	tcase_add_test(tc, pfc_frame_between_frames);
	tcase_add_test(tc, incast_2_to_1);
	tcase_add_test(tc, incast_8_to_1);
	tcase_add_test(tc, headroom_from_cable);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(pfc_suite)
