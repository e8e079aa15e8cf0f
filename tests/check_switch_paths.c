/* SPDX-License-Identifier: MIT */
/*
 * One switch with endpoints around it (a star), the same runs through
 * different code paths, every arrival to the picosecond: the flow-control
 * hooks called through the ops table against the direct calls, and the
 * crossbar's straight path for one data VL against its general path (with
 * every output's go bit, and the count of its ends ring, checked between
 * steps of those runs). The closed-form timing cases are in
 * check_switch.c; the fixture is in switch_star.h.
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

/*
 * The flow-control hooks through the ops table (struct ibfs_flow_ops, the
 * way a flow control other than the credits plugs in) give the run the
 * link layer's direct calls to the credits give: the same FCPs, events,
 * arrivals and PortXmitWait. Each hook wraps the credits' own and counts
 * its calls, so that the ops path is known to have been taken.
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

static Suite *switch_paths_suite(void)
{
	Suite *s = suite_create("switch_paths");
	TCase *tc = tcase_create("paths");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, flow_ops_path_same_run);
	tcase_add_test(tc, fast_path_same_run);
	tcase_add_test(tc, fast_path_same_run_more);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(switch_paths_suite)
