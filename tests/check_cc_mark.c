/* SPDX-License-Identifier: MIT */
/*
 * Congestion marking at a switch (switch/cc_mark.c, IBA A10.2.1): the
 * number of packets marked with FECN, in closed form.
 *
 * The fabric: one switch, h0 on EDR 4x sending N packets back to back to
 * h2 on SDR 1x, 50 times slower. The switch's input from h0 holds C =
 * floor(cap / B) packets of B blocks (cap: the VL's buffer, in blocks).
 * h0 sends packets 0..C-1 at once; packet 0 starts towards h2 as soon as
 * it is routed, before packet 1 arrives, so when packet k (1 <= k <= C -
 * 1) arrives the queue for h2 holds packets 1..k-1: (k - 1) B blocks.
 * Packet k >= C leaves h0 on the credits of packet k - C, which are
 * returned when its last byte has left the switch and packet k - C + 1
 * has started: it finds packets k - C + 2 .. k - 1 waiting, (C - 2) B
 * blocks, long before packet k - C + 1 ends (one SDR packet time). A
 * packet is congested when that queue exceeds (16 - T) / 16 of the
 * output's VL buffer (the threshold's mapping, cc_mark.c); h2 frees its
 * buffer at once, so the output has its credits: the root, not a victim.
 * Of the E congested packets of at least Packet_Size credits, the first
 * and then one in Marking_Rate + 1 are marked: ceil(E / (M + 1)).
 */
#include "check_common.h"
#include "switch_star.h"

#define N 24

/* Counts the packets leaving the switch's port to h2 with FECN set. */
struct seen {
	struct ibfs_observer obs;
	const struct ibfs_port *out;
	uint64_t fecn, pkts;
	uint32_t blocks;
};

static void seen_tx(void *ctx, const struct ibfs_port *out,
		    const struct ibfs_packet *p, ibfs_time_t start)
{
	struct seen *s = ctx;

	(void)start;
	if (out != s->out)
		return;
	s->pkts++;
	s->fecn += p->fecn;
	s->blocks = p->blocks;
}

static struct ibfs_sw_cc setting(uint8_t t, uint8_t size, uint16_t rate)
{
	return (struct ibfs_sw_cc){.control_map = 0x1f, .threshold = t,
				   .packet_size = size, .marking_rate = rate};
}

/* Runs the fabric above with `cc` (NULL: none); the marks at port 3. */
static uint64_t run_size(const struct ibfs_sw_cc *cc, struct seen *s,
			 uint32_t *cap, uint32_t payload)
{
	struct star x;
	struct star_opts o = {.slow = 3};

	star_make(&x, 3, &o);
	memset(s, 0, sizeof(*s));
	s->obs = (struct ibfs_observer){.on_tx = seen_tx, .ctx = s};
	s->out = &x.f->ports[0][3];
	ibfs__fabric_observe(x.f, &s->obs);
	if (cc)
		ck_assert_int_eq(ibfs__switch_set_cc(x.sw, cc), 0);
	ck_assert_ptr_eq(ibfs__switch_of(ibfs__switch_device(x.sw)), x.sw);
	flow(x.ep[0], 3, payload, N);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[2])->rx_pkts, N);
	*cap = x.f->ports[0][1].buf_cap[0];
	ck_assert_uint_eq(x.f->ports[0][3].buf_cap[0], *cap);
	uint64_t marks = ibfs__switch_fecn_marks(x.sw, 3);

	for (int p = 0; p <= 3; p++)
		if (p != 3)
			ck_assert_uint_eq(ibfs__switch_fecn_marks(x.sw, p), 0);
	/* Everything has left: the queue is empty again. */
	ck_assert_uint_eq(ibfs__switch_cc_queue(x.sw, 3, 0), 0);
	conserved(x.f);
	star_free(&x);
	return marks;
}

static uint64_t run(const struct ibfs_sw_cc *cc, struct seen *s,
		    uint32_t *cap)
{
	return run_size(cc, s, cap, 4096);
}

/* The queue packet k finds on arrival, in blocks (the comment above). */
static uint32_t queue_at(int k, uint32_t c, uint32_t b)
{
	if (k == 0)
		return 0;
	if ((uint32_t)k <= c - 1)
		return (uint32_t)(k - 1) * b;
	return (c - 2) * b;
}

static uint64_t expect(uint8_t t, uint8_t size, uint16_t rate, uint32_t cap,
		       uint32_t b)
{
	uint32_t c = cap / b, limit = cap * (16u - t) / 16u;
	uint64_t e = 0;

	if (!t || b < size)
		return 0;
	for (int k = 0; k < N; k++)
		e += queue_at(k, c, b) > limit;
	return (e + rate) / (rate + 1u);
}

START_TEST(no_cc_no_marks)
{
	struct seen s;
	uint32_t cap;

	ck_assert_uint_eq(run(NULL, &s, &cap), 0);
	ck_assert_uint_eq(s.pkts, N);
	ck_assert_uint_eq(s.fecn, 0);
}
END_TEST

static const uint8_t thresholds[] = {0, 1, 4, 8, 10, 12, 15};

START_TEST(threshold_closed_form)
{
	uint8_t t = thresholds[_i];
	struct ibfs_sw_cc cc = setting(t, 0, 0);
	struct seen s;
	uint32_t cap;
	uint64_t marks = run(&cc, &s, &cap);
	uint64_t want = expect(t, 0, 0, cap, s.blocks);

	ck_assert_uint_eq(s.pkts, N);
	ck_assert_uint_eq(marks, want);
	/* The marks are in the packets the port sent. */
	ck_assert_uint_eq(s.fecn, want);
	/* The fabric gives 7 packets of 65 blocks in a 512-block buffer:
	 * thresholds 15, 12, 10, 8 (32, 128, 192, 256 blocks) mark from
	 * packets 2, 3, 4, 5 on, of 24; 4 and 1 never (the largest queue,
	 * 325 blocks, is at most 384 and 480). */
	ck_assert_uint_eq(cap, 512);
	ck_assert_uint_eq(s.blocks, 65);
	static const uint64_t fig[] = {0, 0, 0, 19, 20, 21, 22};
	ck_assert_uint_eq(marks, fig[_i]);
}
END_TEST

/*
 * Packets of 64 blocks (8 fit the buffer): the queues are multiples of
 * 64, as are the limits, so a queue equal to the limit is not congested.
 * Threshold 4 (384 blocks) then never marks: the queue reaches 6 x 64 =
 * 384 and no more; 12 (128) marks from packet 4 on, not 3.
 */
START_TEST(threshold_at_the_limit)
{
	uint8_t t = thresholds[_i];
	struct ibfs_sw_cc cc = setting(t, 0, 0);
	struct seen s;
	uint32_t cap;
	uint64_t marks = run_size(&cc, &s, &cap, 4064);

	ck_assert_uint_eq(s.blocks, 64);
	ck_assert_uint_eq(marks, expect(t, 0, 0, cap, s.blocks));
	/* 8, 10, 12, 15 (256, 192, 128, 32 blocks): from packets 6, 5, 4,
	 * 2 on, of 24. */
	static const uint64_t fig[] = {0, 0, 0, 18, 19, 20, 22};
	ck_assert_uint_eq(marks, fig[_i]);
}
END_TEST

static const uint16_t rates[] = {1, 2, 3, 5, 21, 100};

START_TEST(marking_rate_closed_form)
{
	struct ibfs_sw_cc cc = setting(15, 0, rates[_i]);
	struct seen s;
	uint32_t cap;
	uint64_t marks = run(&cc, &s, &cap);

	ck_assert_uint_eq(marks, expect(15, 0, rates[_i], cap, s.blocks));
	ck_assert_uint_eq(s.fecn, marks);
	ck_assert_uint_gt(marks, 0);
}
END_TEST

START_TEST(packet_size)
{
	struct seen s;
	uint32_t cap;
	/* 65 blocks: a packet of that size is marked, one credit more is
	 * not. */
	struct ibfs_sw_cc at = setting(15, 65, 0), above = setting(15, 66, 0);

	ck_assert_uint_eq(run(&at, &s, &cap), expect(15, 0, 0, cap, 65));
	ck_assert_uint_eq(s.fecn, 22);
	ck_assert_uint_eq(run(&above, &s, &cap), 0);
	ck_assert_uint_eq(s.fecn, 0);
}
END_TEST

/* Fields whose control map bit is clear keep the switch's 0s. */
START_TEST(control_map)
{
	struct seen s;
	uint32_t cap;
	struct ibfs_sw_cc cc = setting(15, 0, 3);

	cc.control_map = 0x1f & ~4;
	ck_assert_uint_eq(run(&cc, &s, &cap), 0);
	cc.control_map = 0x1f & ~16; /* marking rate 0: every packet */
	ck_assert_uint_eq(run(&cc, &s, &cap), 22);
	cc.control_map = 0x1f;
	ck_assert_uint_eq(run(&cc, &s, &cap), expect(15, 0, 3, cap, 65));
}
END_TEST

/* Turning CC off again restores the plain switch. */
START_TEST(off_again)
{
	struct star x;
	struct star_opts o = {.slow = 3};
	struct ibfs_sw_cc cc = setting(15, 0, 0);

	star_make(&x, 3, &o);
	ck_assert_int_eq(ibfs__switch_set_cc(x.sw, &cc), 0);
	ck_assert_int_eq(ibfs__switch_set_cc(x.sw, &cc), 0);
	ck_assert_int_eq(ibfs__switch_set_cc(x.sw, NULL), 0);
	ck_assert_ptr_eq(ibfs__switch_of(ibfs__switch_device(x.sw)), x.sw);
	flow(x.ep[0], 3, 4096, N);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__switch_fecn_marks(x.sw, 3), 0);
	ck_assert_uint_eq(ibfs__switch_fecn_marks(x.sw, -1), 0);
	ck_assert_uint_eq(ibfs__switch_cc_queue(x.sw, 3, 0), 0);
	star_free(&x);
}
END_TEST

/*
 * A victim: h0 and h2 send to h1, whose input buffer holds one packet,
 * so the output to h1 mostly waits for credits when packets come. With
 * port 2 in the victim mask it marks more than without.
 */
static uint64_t victim_run(int mask)
{
	struct star x;
	struct star_opts o = {.buffer1 = 65 * 64};
	struct ibfs_sw_cc cc = setting(15, 0, 0);

	star_make(&x, 3, &o);
	if (mask)
		cc.victim_mask[0] = 1u << 2;
	ck_assert_int_eq(ibfs__switch_set_cc(x.sw, &cc), 0);
	flow(x.ep[0], 2, 4096, N);
	flow(x.ep[2], 2, 4096, N);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[1])->rx_pkts, 2 * N);
	uint64_t m = ibfs__switch_fecn_marks(x.sw, 2);

	conserved(x.f);
	star_free(&x);
	return m;
}

START_TEST(victim_mask)
{
	uint64_t without = victim_run(0), with = victim_run(1);

	ck_assert_uint_gt(with, without);
	ck_assert_uint_le(with, 2 * N);
}
END_TEST

static Suite *cc_mark_suite(void)
{
	Suite *s = suite_create("cc_mark");
	TCase *tc = tcase_create("mark");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, no_cc_no_marks);
	tcase_add_loop_test(tc, threshold_closed_form, 0,
			    sizeof(thresholds) / sizeof(thresholds[0]));
	tcase_add_loop_test(tc, threshold_at_the_limit, 0,
			    sizeof(thresholds) / sizeof(thresholds[0]));
	tcase_add_loop_test(tc, marking_rate_closed_form, 0,
			    sizeof(rates) / sizeof(rates[0]));
	tcase_add_test(tc, packet_size);
	tcase_add_test(tc, control_map);
	tcase_add_test(tc, off_again);
	tcase_add_test(tc, victim_mask);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(cc_mark_suite)
