/* SPDX-License-Identifier: MIT */
/*
 * PFC deadlock on a ring of four Ethernet switches (the topology of
 * tests/data/switch/ring4.xml: switch i's port 2 goes clockwise to port 3
 * of switch i+1, host h<i> on port 1 of switch i, host id i+1).
 *
 * Every host sends to the host two switches away, and every two-hop path
 * goes clockwise: link s<i> -> s<i+1> carries two flows, its own host's
 * and the one passing through from s<i-1>, at twice its rate. With PFC on
 * priority 0 and a small buffer, ingress port 3 of every switch passes its
 * XOFF threshold holding frames for its port 2, which the next switch's
 * ingress port 3 pauses: the four ingress buffers wait on each other and
 * nothing moves. The monitor (eth_deadlock.c) must stop the run one to
 * two timeouts after the last frame started, with the cycle
 * s0:3 -> s1:3 -> s2:3 -> s3:3 (priority 0) from its lowest buffer.
 * Without PFC the same traffic is dropped where it overflows, and
 * completes: no deadlock.
 *
 * Hosts are eth_star.h's: they obey pauses and ask for none.
 */
#include "eth_star.h"

#include "fabric/xml_fabric.h"
#include "switch/eth_deadlock.h"

#define NSW 4
#define FRAMES 400
#define FRAME 1024
/* The monitor's period: 20 us is 24,000 frames of 1,044 wire bytes. */
#define TIMEOUT (20 * IBFS_US)

struct ering {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_eth_switch *sw[NSW];
	struct es_host *h[NSW];
	struct ibfs_eth_routes routes[NSW];
	uint32_t off[NSW][NSW + 2];
	uint8_t hops[NSW][NSW];
	struct ibfs_eth_deadlock_monitor *mon;
	struct ibfs_observer obs;
	ibfs_time_t last_start; /* of any data frame */
};

static void er_on_tx(void *ctx, const struct ibfs_port *out,
		     const struct ibfs_packet *p, ibfs_time_t start)
{
	struct ering *x = ctx;

	(void)out;
	(void)p;
	if (start > x->last_start)
		x->last_start = start;
}

/* Output port of switch i toward the host of switch j: ties clockwise. */
static uint8_t er_route(int i, int j)
{
	int d = (j - i + NSW) % NSW;

	return d == 0 ? 1 : d <= NSW / 2 ? 2 : 3;
}

/*
 * A small buffer: MTU 1,500 so that the headroom (eth_buffer.c) is about
 * 10 KB a lossless (port, priority), and a 100 KB buffer whose shared pool
 * is what the reserves and headroom leave.
 */
static struct ibfs_eth_profile er_profile(uint8_t lossless)
{
	struct ibfs_eth_profile p = es_profile(1500);

	p.buffer = 100000;
	p.reserved = 1500;
	p.resume_offset = 3000;
	p.lossless = lossless;
	return p;
}

static void er_make(struct ering *x, uint8_t lossless)
{
	struct ibfs_eth_profile prof = er_profile(lossless);
	struct ibfs_diag d;
	char path[1024];

	snprintf(path, sizeof(path), "%s/tests/data/switch/ring4.xml",
		 IBFS_SRC(0));
	memset(x, 0, sizeof(*x));
	x->t = ibfs__fabric_xml_load(path, &d);
	ck_assert_msg(x->t != NULL, "%s", d.msg);
	ck_assert_uint_eq(x->t->nnodes, 2 * NSW);
	x->f = ibfs__fabric_new(x->t, 1, 0);
	ck_assert_ptr_nonnull(x->f);
	for (int i = 0; i < NSW; i++) {
		struct es_host *h = calloc(1, sizeof(*h));
		struct ibfs_port *port = ibfs__fabric_port(x->f, NSW + i, 1);

		ck_assert_ptr_nonnull(h);
		h->id = (uint16_t)(i + 1);
		h->dev.ops = &es_host_ops;
		x->h[i] = h;
		ck_assert_int_eq(ibfs__pfc_attach(port, lossless, 0), 0);
		ibfs__port_set_rx(port, 0, 1);
		ibfs__fabric_attach(x->f, NSW + i, &h->dev);
		es_flow_add(h, (uint16_t)((i + 2) % NSW + 1), 0, FRAME,
			    FRAMES, 1);
	}
	for (int i = 0; i < NSW; i++) {
		struct ibfs_eth_routes *r = &x->routes[i];

		r->nhosts = NSW;
		r->off = x->off[i];
		r->ports = x->hops[i];
		r->seed = 0x5eed;
		for (int j = 0; j < NSW; j++) {
			x->off[i][j + 1] = (uint32_t)j;
			x->hops[i][j] = er_route(i, j);
		}
		x->off[i][NSW + 1] = NSW;
		x->sw[i] = ibfs__eth_switch_create(x->f, i, &prof, r, &d);
		ck_assert_msg(x->sw[i] != NULL, "%s", d.msg);
	}
	for (int i = 0; i < NSW; i++)
		ck_assert_ptr_nonnull(ibfs__eq_schedule(&x->f->eq, 0,
							es_start_ev, x->h[i],
							0));
	x->obs = (struct ibfs_observer){ .on_tx = er_on_tx, .ctx = x };
	ibfs__fabric_observe(x->f, &x->obs);
	x->mon = ibfs__eth_deadlock_monitor_new(x->f, TIMEOUT);
	ck_assert_ptr_nonnull(x->mon);
}

static void er_free(struct ering *x)
{
	ibfs__eth_deadlock_monitor_free(x->mon);
	for (int i = 0; i < NSW; i++) {
		ibfs__eth_switch_destroy(x->sw[i]);
		ibfs__pfc_detach(ibfs__fabric_port(x->f, NSW + i, 1));
		free(x->h[i]);
	}
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
}

START_TEST(pfc_ring_deadlock)
{
	struct ering x;
	char buf[512];

	er_make(&x, 1u << 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_deadlock *v = ibfs__eth_deadlock_verdict(x.mon);

	ck_assert_int_eq(v->deadlock, 1);
	ck_assert_int_eq(x.f->stopped, 1);
	ck_assert_uint_eq(x.f->eq.now, v->at);
	/*
	 * Looks at k x TIMEOUT: the first look after the last start L sees
	 * it, the next sees nothing: at = (floor(L / TIMEOUT) + 2) x
	 * TIMEOUT, between L + TIMEOUT and L + 2 x TIMEOUT.
	 */
	ck_assert_uint_gt(x.last_start, 0);
	ck_assert_uint_eq(v->at, (x.last_start / TIMEOUT + 2) * TIMEOUT);
	ck_assert_uint_gt(v->at, x.last_start + TIMEOUT);
	ck_assert_uint_le(v->at, x.last_start + 2 * TIMEOUT);
	ck_assert_uint_gt(v->stuck, 0);
	ck_assert_uint_le(v->stuck, x.f->pkts_injected);
	/* The clockwise loop of ingress port 3 buffers, from s0's. */
	ck_assert_int_eq(v->ncycle, NSW);
	for (int k = 0; k < NSW; k++) {
		ck_assert_int_eq(v->cycle[k].node, k);
		ck_assert_int_eq(v->cycle[k].port, 3);
		ck_assert_int_eq(v->cycle[k].vl, 0);
		/* Each egress port 2 is paused, each ingress port 3 XOFF. */
		ck_assert_int_eq(ibfs__pfc_paused(
					 ibfs__fabric_port(x.f, k, 2), 0),
				 1);
		ck_assert_uint_eq(ibfs__pfc_of(ibfs__fabric_port(x.f, k, 3))
						  ->xoff,
				  1);
	}
	ibfs__deadlock_format(x.f, v, buf, sizeof(buf));
	ck_assert_str_eq(buf, "s0:3/VL0 -> s1:3/VL0 -> s2:3/VL0 -> "
			      "s3:3/VL0 -> s0:3/VL0");
	/* Stuck, not lost: nothing dropped, not all delivered. */
	ck_assert_uint_eq(x.f->pkts_dropped, 0);
	ck_assert_uint_lt(x.f->pkts_delivered, NSW * FRAMES);
	/* The PFC refreshes still hold the queue: only the monitor ends
	 * such a run. */
	ck_assert_uint_gt(ibfs__eq_size(&x.f->eq), 0);
	es_conserved(x.f);
	er_free(&x);
}
END_TEST

START_TEST(lossy_ring_drops_instead)
{
	struct ering x;

	er_make(&x, 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_deadlock *v = ibfs__eth_deadlock_verdict(x.mon);

	ck_assert_int_eq(v->deadlock, 0);
	ck_assert_int_eq(v->ncycle, 0);
	ck_assert_int_eq(x.f->stopped, 0);
	/* Every frame sent, delivered or dropped; some dropped. */
	ck_assert_uint_eq(x.f->pkts_injected, NSW * FRAMES);
	ck_assert_uint_gt(x.f->pkts_dropped, 0);
	ck_assert_uint_eq(x.f->pkts_delivered + x.f->pkts_dropped,
			  NSW * FRAMES);
	ck_assert_uint_eq(ibfs__fabric_in_flight(x.f), 0);
	/* The monitor stopped watching once the run had nothing left. */
	ck_assert_uint_eq(ibfs__eq_size(&x.f->eq), 0);
	es_conserved(x.f);
	er_free(&x);
}
END_TEST

/* A monitor needs a period. */
START_TEST(zero_timeout_refused)
{
	struct ering x;

	er_make(&x, 0);
	ck_assert_ptr_null(ibfs__eth_deadlock_monitor_new(x.f, 0));
	er_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("eth_deadlock");
	TCase *tc = tcase_create("ring");

	tcase_add_test(tc, pfc_ring_deadlock);
	tcase_add_test(tc, lossy_ring_drops_instead);
	tcase_add_test(tc, zero_timeout_refused);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(suite)
