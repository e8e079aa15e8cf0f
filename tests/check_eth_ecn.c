/* SPDX-License-Identifier: MIT */
/*
 * ECN marking at the Ethernet switch's egress (src/switch/eth_ecn.c):
 * the probability as a function of the queue (DCQCN's RED-style curve,
 * Zhu et al., SIGCOMM 2015, section 3.1), the draws against it, which
 * frames are eligible, and where the queue is looked at. The star of
 * eth_star.h: 100 Gb/s links (80 ps a byte), 2 m cables, frames of 1,500
 * bytes that occupy the wire for 1,520 (T = 121,600 ps a frame).
 */
#include "eth_star.h"

#include "switch/eth_ecn.h"
#include "switch/eth_switch_int.h"

/* An ECN-capable frame of 1,500 bytes on priority prio, not yet CE. */
static struct ibfs_packet ecn_frame(uint8_t prio)
{
	return (struct ibfs_packet){
		.kind = IBFS_PKT_DATA, .vl = prio, .sl = prio,
		.wire_bytes = ibfs__eth_wire_bytes(1500),
	};
}

/* A star of n hosts whose switch marks with e (seed 1). */
static void ecn_star(struct es_star *x, int n, const struct ibfs_eth_ecn *e)
{
	struct ibfs_eth_profile p = es_profile(1500);

	es_star_make(x, n, n, 2000);
	es_star_start(x, &p, 0);
	ibfs__eth_switch_set_ecn(x->sw, e, 1);
}

/*
 * The curve, at its corners: 0 up to kmin included, pmax x (q - kmin) /
 * (kmax - kmin) above it up to kmax included, 1 above kmax. DCQCN's
 * figures for 40 Gb/s: kmin 5 KB, kmax 200 KB, pmax 1%; halfway,
 * q = 102,500, the probability is 0.5%. With kmin = kmax the curve is a
 * step at kmin.
 */
START_TEST(probability_curve)
{
	struct ibfs_eth_ecn e = {.kmin = 5000, .kmax = 200000, .pmax = 0.01,
				 .prios = 0xFF};

	ck_assert_double_eq(ibfs__eth_ecn_prob(&e, 0), 0);
	ck_assert_double_eq(ibfs__eth_ecn_prob(&e, 5000), 0);
	ck_assert_double_eq_tol(ibfs__eth_ecn_prob(&e, 5001), 0.01 / 195000,
				1e-15);
	ck_assert_double_eq_tol(ibfs__eth_ecn_prob(&e, 102500), 0.005, 1e-15);
	ck_assert_double_eq_tol(ibfs__eth_ecn_prob(&e, 200000), 0.01, 1e-15);
	ck_assert_double_eq(ibfs__eth_ecn_prob(&e, 200001), 1);
	e.kmin = e.kmax = 1000;
	ck_assert_double_eq(ibfs__eth_ecn_prob(&e, 1000), 0);
	ck_assert_double_eq(ibfs__eth_ecn_prob(&e, 1001), 1);
}
END_TEST

/* Marks drawn for `n` frames that each see q bytes; the port counts. */
static uint64_t ecn_draws(struct es_star *x, uint64_t q, uint64_t n)
{
	uint64_t k = 0;

	for (uint64_t i = 0; i < n; i++) {
		struct ibfs_packet p = ecn_frame(0);

		ibfs__eth_ecn_mark(x->sw, 3, &p, q);
		k += p.fecn;
	}
	ck_assert_uint_eq(ibfs__eth_switch_ecn_marks(x->sw, 3, 0), k);
	return k;
}

/*
 * N = 100,000 frames at each queue: at kmin or below none is marked, above
 * kmax every one. Halfway between kmin = 5,000 and kmax = 205,000 with
 * pmax 0.2 (q = 105,000) the probability is 0.1: the count is binomial,
 * mean N x 0.1 = 10,000, standard deviation sqrt(N x 0.1 x 0.9) = 94.9;
 * it must fall within 5 deviations, 9,526 to 10,474 (a fault of chance
 * once in 1.7 million seeds; the seed is fixed, so the test repeats).
 * At q = 55,000, a quarter of the way, p = 0.05: mean 5,000, deviation
 * 68.9, within 4,655 to 5,345.
 */
START_TEST(below_between_above)
{
	struct ibfs_eth_ecn e = {.kmin = 5000, .kmax = 205000, .pmax = 0.2,
				 .prios = 0xFF};
	const uint64_t n = 100000;
	struct es_star x;
	uint64_t k;

	ecn_star(&x, 3, &e);
	ck_assert_uint_eq(ecn_draws(&x, 0, n), 0);
	ck_assert_uint_eq(ecn_draws(&x, 5000, n), 0);
	ck_assert_uint_eq(ecn_draws(&x, 205001, n), n);
	x.sw->port[3].ecn_marks[0] = 0;
	k = ecn_draws(&x, 105000, n);
	ck_assert_uint_ge(k, 9526);
	ck_assert_uint_le(k, 10474);
	x.sw->port[3].ecn_marks[0] = 0;
	k = ecn_draws(&x, 55000, n);
	ck_assert_uint_ge(k, 4655);
	ck_assert_uint_le(k, 5345);
	es_star_free(&x);
}
END_TEST

/* A hash of the marks of n draws at q = 105,000 (as above). */
static uint64_t ecn_sequence(uint64_t seed)
{
	struct ibfs_eth_ecn e = {.kmin = 5000, .kmax = 205000, .pmax = 0.2,
				 .prios = 0xFF};
	struct es_star x;
	uint64_t h = 0;

	ecn_star(&x, 3, &e);
	ibfs__eth_switch_set_ecn(x.sw, &e, seed);
	for (int i = 0; i < 4096; i++) {
		struct ibfs_packet p = ecn_frame(0);

		ibfs__eth_ecn_mark(x.sw, 3, &p, 105000);
		h = h * 3 + p.fecn;
	}
	es_star_free(&x);
	return h;
}

/*
 * Only what may be marked is: a frame that is not ECN-capable (a raw
 * one) or on a priority outside `prios` stays as it is, whatever the
 * queue; a frame already CE stays CE and is not counted again (RFC 3168
 * section 5). The draws are the run's seed's: the same seed gives the
 * same marks, another seed other marks.
 */
START_TEST(eligible_and_repeatable)
{
	struct ibfs_eth_ecn e = {.kmin = 0, .kmax = 0, .pmax = 0,
				 .prios = 1u << 3};
	struct es_star x;
	struct ibfs_packet p;

	ecn_star(&x, 3, &e);
	p = ecn_frame(3);
	p.kind = IBFS_PKT_RAW;
	ibfs__eth_ecn_at(x.sw, 3, &p, 1u << 30, IBFS_ETH_ECN_DEQUEUE);
	ck_assert_uint_eq(p.fecn, 0);
	p = ecn_frame(0);
	ibfs__eth_ecn_at(x.sw, 3, &p, 1u << 30, IBFS_ETH_ECN_DEQUEUE);
	ck_assert_uint_eq(p.fecn, 0);
	p = ecn_frame(3);
	ibfs__eth_ecn_at(x.sw, 3, &p, 1u << 30, IBFS_ETH_ECN_ENQUEUE);
	ck_assert_uint_eq(p.fecn, 0);
	ibfs__eth_ecn_at(x.sw, 3, &p, 1u << 30, IBFS_ETH_ECN_DEQUEUE);
	ck_assert_uint_eq(p.fecn, 1);
	ibfs__eth_ecn_at(x.sw, 3, &p, 1u << 30, IBFS_ETH_ECN_DEQUEUE);
	ck_assert_uint_eq(p.fecn, 1);
	ck_assert_uint_eq(ibfs__eth_switch_ecn_marks(x.sw, 3, 3), 1);
	es_star_free(&x);
	ck_assert_uint_eq(ecn_sequence(7), ecn_sequence(7));
	ck_assert_uint_ne(ecn_sequence(7), ecn_sequence(8));
}
END_TEST

/*
 * A 2:1 incast of N = 200 frames from h1 and from h2 to h3 (priority 0,
 * lossy, a 12 MiB buffer: nothing dropped), marked when the queue seen is
 * above K = 15,000 bytes (kmin = kmax = K, pmax 0: deterministic), that
 * is 11 frames or more. Both senders' frames reach the switch together,
 * a pair every T; the output sends one every T from the first on, so the
 * queue grows by a frame every T until the senders stop, then drains.
 * Frame j (0-based) starts to leave at d_j = d_0 + j T, the instant pair
 * j arrives and frame j - 1 ends; the switch takes pair j in first (its
 * events were scheduled first, and events of one instant go in order).
 * - dequeue: when frame j starts, 2(j + 1) frames have arrived and j have
 *   left, so j + 1 are behind it while the senders send, 2N - 1 - j once
 *   they have stopped. Frame j is marked when j + 1 >= 11 and
 *   2N - 1 - j >= 11: j = 10 to 2N - 12 = 388, 379 marks; the first
 *   frame h3 gets CE is frame 10, the last 11 arrive unmarked.
 * - enqueue: when pair i arrives, 2i frames have arrived and i - 1 have
 *   left whole, the i-th still on the wire: its first frame sees i + 1
 *   frames ahead, its second i + 2. The first marked is pair 9's second
 *   (11 ahead), frame 19, and every frame after it: 400 - 19 = 381
 *   marks; the first CE reaches h3 9 frames (9 T = 1.0944 us) after
 *   dequeue's first.
 * Marking at dequeue tells of the queue sooner, as DCQCN's switches do it.
 */
static void incast(enum ibfs_eth_ecn_at at, uint64_t *marks,
		   uint64_t *first, uint64_t *rx)
{
	struct ibfs_eth_ecn e = {.kmin = 15000, .kmax = 15000, .pmax = 0,
				 .at = at, .prios = 1};
	struct es_star x;

	ecn_star(&x, 3, &e);
	for (int h = 1; h <= 2; h++) {
		es_flow_add(x.h[h], 3, 0, 1500, 200, (uint32_t)h);
		x.h[h]->flows[0].ect = 1;
	}
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(x.f->pkts_dropped, 0);
	*marks = ibfs__eth_switch_ecn_marks(x.sw, 3, 0);
	*first = x.h[3]->first_ce;
	*rx = x.h[3]->rx_ce;
	ck_assert_uint_eq(x.h[3]->rx_frames, 400);
	es_conserved(x.f);
	es_star_free(&x);
}

START_TEST(dequeue_marks_sooner)
{
	uint64_t m, first, rx;

	incast(IBFS_ETH_ECN_DEQUEUE, &m, &first, &rx);
	ck_assert_uint_eq(m, 379);
	ck_assert_uint_eq(rx, 379);
	ck_assert_uint_eq(first, 10);
	incast(IBFS_ETH_ECN_ENQUEUE, &m, &first, &rx);
	ck_assert_uint_eq(m, 381);
	ck_assert_uint_eq(rx, 381);
	ck_assert_uint_eq(first, 19);
}
END_TEST

static Suite *eth_ecn_suite(void)
{
	Suite *s = suite_create("eth_ecn");
	TCase *tc = tcase_create("eth_ecn");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, probability_curve);
	tcase_add_test(tc, below_between_above);
	tcase_add_test(tc, eligible_and_repeatable);
	tcase_add_test(tc, dequeue_marks_sooner);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(eth_ecn_suite)
