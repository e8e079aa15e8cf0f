/* SPDX-License-Identifier: MIT */
/*
 * The Ethernet switch (src/switch/eth_*.c) with simple Ethernet hosts
 * (eth_star.h): one switch, hosts on 2 m cables unless said otherwise,
 * 100 Gb/s links (80 ps a byte). Every expectation is in closed form:
 * P = 10,000 ps of cable, L = 400,000 ps of the generic profile's
 * latency, H = ser(54) = 4,320 ps of header a cut-through switch waits
 * for (IBFS_ETH_CUT_HDR), and a frame of F bytes occupies the wire for
 * W = F + 20 bytes (preamble 8, gap 12).
 */
#include "eth_star.h"

#define P 10000ULL
#define L 400000ULL
#define H 4320ULL

/* One frame of 1000 bytes from h1 to h2. */
static ibfs_time_t one_frame(int store_forward)
{
	struct es_star x;
	struct ibfs_eth_profile p = es_profile(1500);
	ibfs_time_t tail;

	p.store_forward = store_forward;
	es_star_make(&x, 2, 2, 2000);
	es_star_start(&x, &p, 0);
	es_flow_add(x.h[1], 2, 0, 1000, 1, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.h[2]->rx_frames, 1);
	ck_assert_uint_eq(x.f->pkts_delivered, 1);
	ck_assert_uint_eq(ibfs__eth_switch_stats(x.sw, 1, 0)->rx_frames, 1);
	ck_assert_uint_eq(ibfs__eth_switch_stats(x.sw, 2, 0)->tx_frames, 1);
	ck_assert_uint_eq(ibfs__eth_switch_stats(x.sw, 2, 0)->tx_bytes, 1020);
	/* The buffer held the frame's 1000 bytes, and holds nothing now. */
	ck_assert_uint_eq(ibfs__eth_switch_peak(x.sw), 1000);
	ck_assert_uint_eq(ibfs__eth_switch_used(x.sw), 0);
	tail = x.h[2]->first_tail;
	es_conserved(x.f);
	es_star_free(&x);
	return tail;
}

/*
 * Cut-through: the header is in at P + H, the switch sends at + L, and the
 * tail reaches h2 a cable and a frame later: 2P + H + L + ser(1020) =
 * 20,000 + 4,320 + 400,000 + 81,600 = 505,920 ps.
 * Store-and-forward: the tail is in at P + ser(1020), sent at + L, at h2 a
 * cable and a frame later: 2P + 2 ser(1020) + L = 583,200 ps.
 */
START_TEST(one_frame_latency)
{
	ck_assert_uint_eq(one_frame(0), 2 * P + H + L + es_ser(1020));
	ck_assert_uint_eq(one_frame(0), 505920);
	ck_assert_uint_eq(one_frame(1), 2 * P + 2 * es_ser(1020) + L);
	ck_assert_uint_eq(one_frame(1), 583200);
}
END_TEST

/*
 * h1 streams N frames of 1500 bytes to h2. The switch forwards each as
 * it comes, so the frames reach h2 back to back: frame k's tail at
 * 2P + H + L + (k + 1) ser(1520). Goodput, the MAC client data (frame
 * less the 14-byte header and the 4-byte FCS: 1482 bytes) per time,
 * is 100 Gb/s x 1482 / 1520 = 97.5 Gb/s.
 */
START_TEST(saturating_stream_goodput)
{
	struct es_star x;
	struct ibfs_eth_profile p = es_profile(1500);
	const uint64_t n = 20000;

	es_star_make(&x, 2, 2, 2000);
	es_star_start(&x, &p, 0);
	es_flow_add(x.h[1], 2, 0, 1500, n, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct es_host *h = x.h[2];

	ck_assert_uint_eq(h->rx_frames, n);
	ck_assert_uint_eq(h->first_tail, 2 * P + H + L + es_ser(1520));
	ck_assert_uint_eq(h->last_tail, 2 * P + H + L + n * es_ser(1520));
	double gbps = (double)(n - 1) * 1482 * 8 /
		      (double)(h->last_tail - h->first_tail) * 1000;
	double want = 100.0 * 1482 / 1520;

	ck_assert_double_eq_tol(gbps, want, want * 0.001);
	ck_assert_uint_eq(x.f->pkts_dropped, 0);
	es_conserved(x.f);
	es_star_free(&x);
}
END_TEST

/*
 * A lossy priority under 2:1 incast: h1 and h2 each send N frames of
 * 1500 bytes to h3 on priority 0. Buffer S = 200,000 bytes, no reserve,
 * no lossless priority: the pool is S. With alpha 1, a frame joins the
 * queue toward h3 (q bytes, the frame on the wire included) while
 * q + 1500 <= S - q, i.e. while q <= 99,250: the queue stops at 67 frames
 * (100,500 bytes), which is also the buffer's peak; the rest is
 * tail-dropped and counted at port 3's priority 0. The output sends
 * without a gap from the first frame on while the inputs bring 2 frames a
 * frame time, so h3 gets N frames while both send, plus what is queued
 * when they stop: N + 67 at most, N at least.
 */
START_TEST(lossy_incast_tail_drops)
{
	struct es_star x;
	struct ibfs_eth_profile p = es_profile(1500);
	const uint64_t n = 2000;

	p.buffer = 200000;
	p.reserved = 0;
	p.lossless = 0;
	es_star_make(&x, 3, 3, 2000);
	es_star_start(&x, &p, 0);
	es_flow_add(x.h[1], 3, 0, 1500, n, 1);
	es_flow_add(x.h[2], 3, 0, 1500, n, 2);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__eth_switch_shared(x.sw), 200000);
	uint64_t got = x.h[3]->rx_frames;
	uint64_t drops = ibfs__eth_switch_stats(x.sw, 3, 0)->drops;

	ck_assert_uint_ge(got, n);
	ck_assert_uint_le(got, n + 67);
	ck_assert_uint_eq(got + drops, 2 * n);
	ck_assert_uint_eq(x.f->pkts_dropped, drops);
	ck_assert_uint_eq(x.f->drops[IBFS_DROP_SWITCH_BUFFER], drops);
	ck_assert_uint_eq(ibfs__eth_switch_peak(x.sw), 67 * 1500);
	/* No pause on a lossy priority. */
	ck_assert_uint_eq(ibfs__pfc_of(ibfs__fabric_port(x.f, 0, 1))
				  ->st.tx_frames[0],
			  0);
	es_conserved(x.f);
	es_star_free(&x);
}
END_TEST

/*
 * Two lossless priorities (1 and 2, PFC on both) from h1 and h2 toward
 * h3, 1500-byte frames; both egress queues stay backlogged (PFC holds
 * the senders, nothing drops). DWRR with weights 1 and 3: of the first
 * 4000 frames h3 gets, 1000 and 3000 (within 2%). Strict priority for 2:
 * priority 1 gets at most the frame that came first (before priority 2
 * had a queue) until h2's flow is over.
 */
static void two_prios(uint8_t strict, uint64_t *got1, uint64_t *got2)
{
	struct es_star x;
	struct ibfs_eth_profile p = es_profile(1500);
	const uint64_t n = 6000;

	p.lossless = 0x06;
	p.strict = strict;
	p.weight[1] = 1;
	p.weight[2] = 3;
	es_star_make(&x, 3, 3, 2000);
	es_star_start(&x, &p, 0x06);
	es_flow_add(x.h[1], 3, 1, 1500, n, 1);
	es_flow_add(x.h[2], 3, 2, 1500, n, 2);
	/* 4000 frames reach h3 by 2P + H + L + 4000 ser(1520). */
	ibfs__eq_run(&x.f->eq, 2 * P + H + L + 4000 * es_ser(1520));
	ck_assert_uint_eq(x.h[3]->rx_frames, 4000);
	*got1 = x.h[3]->rx_prio[1];
	*got2 = x.h[3]->rx_prio[2];
	es_conserved(x.f);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.h[3]->rx_frames, 2 * n);
	ck_assert_uint_eq(x.f->pkts_dropped, 0);
	es_conserved(x.f);
	es_star_free(&x);
}

START_TEST(strict_and_dwrr_shares)
{
	uint64_t a, b;

	two_prios(0, &a, &b);
	ck_assert_uint_ge(a, 980);
	ck_assert_uint_le(a, 1020);
	ck_assert_uint_eq(a + b, 4000);
	two_prios(1u << 2, &a, &b);
	ck_assert_uint_le(a, 1);
	ck_assert_uint_ge(b, 3999);
}
END_TEST

/*
 * ECMP: h1 sends toward host id 6, which no host has, through next hops
 * ports 2-5 (h2-h5 sink whatever they get). Many flows, one frame each,
 * spread over the four in proportion (1000 flows: 250 each, within 20%,
 * 3.6 standard deviations of the binomial); one flow's frames all take
 * the port its hash picks; round-robin spraying puts exactly 100 of 400
 * frames on each; random spraying uses all four. A frame toward host 9
 * (beyond the table) has no route: dropped and counted at its ingress.
 */
static void ecmp_run(enum ibfs_eth_pick pick, int flows, uint64_t per_flow,
		     uint64_t tx[6], struct es_star *x)
{
	struct ibfs_eth_profile p = es_profile(1500);

	p.pick = pick;
	p.lossless = 0;
	es_star_make(x, 5, 5, 2000);
	x->routes.nhosts = 6;
	x->off[6] = 5;
	x->off[7] = 9;
	for (int k = 0; k < 4; k++)
		x->hops[5 + k] = (uint8_t)(2 + k);
	es_star_start(x, &p, 0);
	for (int fl = 0; fl < flows; fl++)
		es_flow_add(x->h[1], 6, 0, 1000, per_flow, (uint32_t)fl);
	es_flow_add(x->h[1], 9, 0, 1000, 3, 7);
	ibfs__eq_run(&x->f->eq, IBFS_TIME_NEVER);
	for (int i = 2; i <= 5; i++)
		tx[i] = ibfs__eth_switch_stats(x->sw, i, 0)->tx_frames;
	ck_assert_uint_eq(ibfs__eth_switch_stats(x->sw, 1, 0)->no_route, 3);
	ck_assert_uint_eq(x->f->pkts_dropped, 3);
	ck_assert_uint_eq(x->f->pkts_delivered, (uint64_t)flows * per_flow);
	es_conserved(x->f);
}

START_TEST(ecmp_hash_and_spraying)
{
	struct es_star x;
	uint64_t tx[6];

	ecmp_run(IBFS_ETH_PICK_HASH, 1000, 1, tx, &x);
	for (int i = 2; i <= 5; i++) {
		ck_assert_uint_ge(tx[i], 200);
		ck_assert_uint_le(tx[i], 300);
	}
	es_star_free(&x);

	ecmp_run(IBFS_ETH_PICK_HASH, 1, 200, tx, &x);
	struct ibfs_packet probe = { .slid = 1, .dlid = 6, .dest_qp = 0 };
	int want = 2 + (int)(ibfs__eth_flow_hash(&probe, x.routes.seed) % 4);

	for (int i = 2; i <= 5; i++)
		ck_assert_uint_eq(tx[i], i == want ? 200 : 0);
	es_star_free(&x);

	ecmp_run(IBFS_ETH_PICK_RR, 1, 400, tx, &x);
	for (int i = 2; i <= 5; i++)
		ck_assert_uint_eq(tx[i], 100);
	es_star_free(&x);

	ecmp_run(IBFS_ETH_PICK_RANDOM, 1, 400, tx, &x);
	for (int i = 2; i <= 5; i++)
		ck_assert_uint_ge(tx[i], 60);
	es_star_free(&x);
}
END_TEST

/*
 * The profiles exist with their figures; a buffer too small for the
 * reserved minima and headroom is refused with a sentence.
 */
START_TEST(profiles_and_errors)
{
	const struct ibfs_eth_profile *sn = ibfs__eth_profile("sn2700");
	const struct ibfs_eth_profile *th = ibfs__eth_profile("tomahawk");
	struct ibfs_eth_profile p = es_profile(1500);
	struct es_star x;
	struct ibfs_diag d;

	ck_assert_ptr_nonnull(ibfs__eth_profile("generic-100g"));
	ck_assert_ptr_null(ibfs__eth_profile("nope"));
	ck_assert_uint_eq(sn->buffer, 16u << 20);
	ck_assert_uint_eq(sn->latency, 300000);
	ck_assert_uint_eq(th->pipes, 4);
	/* Two linked ports x 8 priorities x 9216 reserved = 147,456. */
	p.buffer = 147455;
	p.lossless = 0;
	es_star_make(&x, 2, 2, 2000);
	x.f = ibfs__fabric_new(x.t, 1, 0);
	ck_assert_ptr_nonnull(x.f);
	ck_assert_ptr_null(ibfs__eth_switch_create(x.f, 0, &p, &x.routes,
						   &d));
	ck_assert_ptr_nonnull(strstr(d.msg, "147456 bytes of reserved"));
	/* One byte more fits: the pool is empty. */
	p.buffer = 147456;
	x.sw = ibfs__eth_switch_create(x.f, 0, &p, &x.routes, &d);
	ck_assert_ptr_nonnull(x.sw);
	ck_assert_uint_eq(ibfs__eth_switch_shared(x.sw), 0);
	ibfs__eth_switch_destroy(x.sw);
	ibfs__fabric_free(x.f);
	ibfs__topo_free(x.t);
}
END_TEST

/*
 * The Tomahawk profile's four pipelines share what the reserves and
 * headroom leave. Four hosts on 2 m cables, priority 3 lossless, MTU 9216
 * (wire 9236), L = 500,000 ps: a port's headroom is
 *   rate x (20,000 + 500,000 + ser(54) = 4,320) ps = 6,554 bytes
 *   + 9236 + 84 + 2 x 9236 = 34,346 bytes,
 * its reserves 8 x 9216 = 73,728; four ports fix 432,296 bytes of the
 * 16 MiB, and each pipeline's pool is (16,777,216 - 432,296) / 4 =
 * 4,086,230 bytes. A peer that takes 802.3's 394 quanta to react
 * (201,728 bit times, 2,017,280 ps) adds 25,216 bytes: 59,562.
 */
START_TEST(tomahawk_pipelines)
{
	struct es_star x;

	es_star_make(&x, 4, 4, 2000);
	es_star_start(&x, ibfs__eth_profile("tomahawk"), 1u << 3);
	ck_assert_uint_eq(ibfs__eth_switch_headroom(x.sw, 2, 3), 34346);
	ck_assert_uint_eq(ibfs__eth_switch_shared(x.sw), 4086230);
	struct ibfs_eth_profile slow = *ibfs__eth_profile("tomahawk");

	slow.peer_response = 2017280;
	ck_assert_uint_eq(ibfs__eth_headroom(ibfs__fabric_port(x.f, 0, 2),
					     &slow),
			  59562);
	es_flow_add(x.h[1], 2, 3, 9216, 10, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.h[2]->rx_frames, 10);
	/* Cut-through at 500 ns: 2P + H + L + ser(9236). */
	ck_assert_uint_eq(x.h[2]->first_tail,
			  2 * P + H + 500000 + es_ser(9236));
	es_conserved(x.f);
	es_star_free(&x);
}
END_TEST

/*
 * An output going down: h1 and h2 each stream 1000 frames of 1500 bytes
 * on a lossy priority to h3, whose link goes down at 50 us and stays
 * down. What was queued for port 3 is discarded at once, what arrives
 * for it later too, both counted in its PortXmitDiscards; frames on the
 * cable to h3 are lost with the link (the fabric counts them). Every
 * frame is delivered, tail-dropped, discarded or lost, and the buffer
 * ends empty.
 */
START_TEST(output_down_discards)
{
	struct es_star x;
	struct ibfs_eth_profile p = es_profile(1500);

	p.lossless = 0;
	es_star_make(&x, 3, 3, 2000);
	es_star_start(&x, &p, 0);
	es_flow_add(x.h[1], 3, 0, 1500, 1000, 1);
	es_flow_add(x.h[2], 3, 0, 1500, 1000, 2);
	ck_assert_int_eq(ibfs__fabric_fault_at(x.f, 50 * IBFS_US, 0, 3, 0),
			 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	uint64_t disc = ibfs__fabric_port(x.f, 0, 3)->xmit_discards;
	uint64_t drops = ibfs__eth_switch_stats(x.sw, 3, 0)->drops;

	ck_assert_uint_gt(disc, 0);
	ck_assert_uint_eq(x.h[3]->rx_frames + drops + disc +
				  x.f->pkts_lost,
			  2000);
	ck_assert_uint_eq(x.f->pkts_dropped, drops + disc + x.f->pkts_lost);
	ck_assert_uint_eq(x.f->drops[IBFS_DROP_SWITCH_BUFFER], drops);
	ck_assert_uint_eq(x.f->drops[IBFS_DROP_PORT_DOWN], disc);
	ck_assert_uint_eq(x.f->drops[IBFS_DROP_LINK_DOWN], x.f->pkts_lost);
	ck_assert_uint_eq(ibfs__eth_switch_used(x.sw), 0);
	es_conserved(x.f);
	es_star_free(&x);
}
END_TEST

static Suite *eth_switch_suite(void)
{
	Suite *s = suite_create("eth_switch");
	TCase *tc = tcase_create("eth_switch");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, one_frame_latency);
	tcase_add_test(tc, saturating_stream_goodput);
	tcase_add_test(tc, lossy_incast_tail_drops);
	tcase_add_test(tc, strict_and_dwrr_shares);
	tcase_add_test(tc, ecmp_hash_and_spraying);
	tcase_add_test(tc, profiles_and_errors);
	tcase_add_test(tc, tomahawk_pipelines);
	tcase_add_test(tc, output_down_discards);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(eth_switch_suite)
