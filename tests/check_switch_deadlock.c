/* SPDX-License-Identifier: MIT */
/*
 * Credit-loop deadlock on a ring of four switches (tests/data/switch/
 * ring4.xml), under all-to-all traffic with one-packet input buffers.
 *
 * Shortest-path routing with ties broken clockwise sends the two-hop
 * paths clockwise: a packet held in the buffer of switch i's port 3 (from
 * switch i-1) waits for the buffer of port 3 of switch i+1, all around the
 * ring. Once the four buffers hold such packets nothing moves: the monitor
 * must stop the run and report that cycle. Two deadlock-free routings of
 * the same ring must run to completion: one that never crosses the
 * dateline between s3 and s0 (the ring used as a line), and the same
 * shortest paths with packets that cross the dateline on SL1, mapped to
 * VL1, so that no VL's buffers form a cycle.
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>

#include "fabric/endpoint.h"
#include "fabric/fabric.h"
#include "fabric/xml_fabric.h"
#include "switch/switch.h"

#define NSW 4
#define PKTS 200

enum routing { SHORTEST, LINE, DATELINE_VL };

struct ring {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_switch *sw[NSW];
	struct ibfs_endpoint *ep[NSW];
	struct ibfs_deadlock_monitor *mon;
};

/* Output port of switch i towards the HCA of switch j. */
static uint8_t route(enum routing r, int i, int j)
{
	int d = (j - i + NSW) % NSW;

	if (d == 0)
		return 1;
	if (r == LINE)
		return j > i ? 2 : 3;
	return d <= NSW / 2 ? 2 : 3; /* ties (d = 2) clockwise */
}

/* 1 if the shortest path from switch i to j crosses the s3-s0 link. */
static int crosses_dateline(int i, int j)
{
	int d = (j - i + NSW) % NSW;

	if (d == 0)
		return 0;
	if (d <= NSW / 2)
		return i + d >= NSW; /* clockwise past s3 */
	return i - (NSW - d) < 0;    /* counter-clockwise past s0 */
}

static void ring_make(struct ring *x, enum routing r, int traffic)
{
	struct ibfs_diag d;
	char path[1024];

	snprintf(path, sizeof(path), "%s/tests/data/switch/ring4.xml",
		 IBFS_SRC(0));
	memset(x, 0, sizeof(*x));
	x->t = ibfs__fabric_xml_load(path, &d);
	ck_assert_msg(x->t != NULL, "%s", d.msg);
	ck_assert_uint_eq(x->t->nnodes, 2 * NSW);
	if (r == DATELINE_VL) {
		/* Two data VLs, each keeping one packet's worth of buffer. */
		x->t->def.data_vls = 2;
		for (int i = 0; i < NSW; i++)
			x->t->nodes[i].buffer = 4096;
	}
	x->f = ibfs__fabric_new(x->t, 1, 0);
	ck_assert_ptr_nonnull(x->f);
	for (int i = 0; i < NSW; i++) {
		x->sw[i] = ibfs__switch_create(x->f, i, &d);
		ck_assert_msg(x->sw[i] != NULL, "%s", d.msg);
		ibfs__switch_set_lid(x->sw[i], (uint16_t)(100 + i));
		x->ep[i] = ibfs__endpoint_create(x->f, NSW + i);
		ck_assert_ptr_nonnull(x->ep[i]);
		ibfs__endpoint_set_lid(x->ep[i], (uint16_t)(i + 1), 0);
	}
	ck_assert_uint_eq(ibfs__endpoint_port(x->ep[0])->buf_cap[0],
			  r == DATELINE_VL ? 256 : 512);
	/* ring4.xml's 2176 bytes, 34 credits (or 4096 bytes over two
	 * VLs): one 32-credit packet either way. */
	ck_assert_uint_eq(x->f->ports[0][3].buf_cap[0],
			  r == DATELINE_VL ? 32 : 34);
	for (int i = 0; i < NSW; i++)
		for (int j = 0; j < NSW; j++)
			ck_assert_int_eq(ibfs__switch_set_lft(x->sw[i],
							      (uint16_t)(j + 1),
							      route(r, i, j)),
					 0);
	/* All-to-all, round robin over destinations at each source. */
	for (int i = 0; traffic && i < NSW; i++)
		for (int k = 1; k < NSW; k++) {
			int j = (i + k) % NSW;
			struct ibfs_ep_flow_spec s = {
				.dlid = (uint16_t)(j + 1),
				.sl = (uint8_t)(r == DATELINE_VL &&
						crosses_dateline(i, j)),
				.payload = 2036, .count = PKTS,
			};

			ck_assert_int_eq(ibfs__endpoint_add_flow(x->ep[i], &s,
								 &d), 0);
		}
	x->mon = ibfs__deadlock_monitor_new(x->f, 20 * IBFS_US);
	ck_assert_ptr_nonnull(x->mon);
}

static void ring_free(struct ring *x)
{
	ibfs__deadlock_monitor_free(x->mon);
	for (int i = 0; i < NSW; i++) {
		ibfs__endpoint_destroy(x->ep[i]);
		ibfs__switch_destroy(x->sw[i]);
	}
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
}

static void conserved(const struct ibfs_fabric *f)
{
	char msg[512] = "";

	ck_assert_msg(ibfs__fabric_check(f, msg, sizeof(msg)) == 0, "%s",
		      msg);
}

START_TEST(shortest_paths_deadlock)
{
	struct ring x;

	ring_make(&x, SHORTEST, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_deadlock *v = ibfs__deadlock_verdict(x.mon);
	char buf[512];

	ck_assert_int_eq(v->deadlock, 1);
	ck_assert_int_eq(x.f->stopped, 1);
	ck_assert_uint_eq(x.f->eq.now, v->at);
	ck_assert_uint_gt(v->stuck, 0);
	ck_assert_int_eq(v->ncycle, NSW);
	/* The clockwise loop of port-3 buffers, each waiting on the next. */
	for (int k = 0; k < NSW; k++) {
		const struct ibfs_deadlock_elem *e = &v->cycle[k];
		const struct ibfs_deadlock_elem *n = &v->cycle[(k + 1) % NSW];

		ck_assert_int_eq(e->port, 3);
		ck_assert_int_eq(e->vl, 0);
		ck_assert_int_eq(n->node, (e->node + 1) % NSW);
	}
	ibfs__deadlock_format(x.f, v, buf, sizeof(buf));
	int s = v->cycle[0].node;
	char want[512];

	snprintf(want, sizeof(want),
		 "s%d:3/VL0 -> s%d:3/VL0 -> s%d:3/VL0 -> s%d:3/VL0 -> "
		 "s%d:3/VL0",
		 s, (s + 1) % 4, (s + 2) % 4, (s + 3) % 4, s);
	ck_assert_str_eq(buf, want);
	/* Not everything was delivered, and nothing was lost. */
	ck_assert_uint_lt(x.f->pkts_delivered, NSW * (NSW - 1) * PKTS);
	ck_assert_uint_eq(x.f->pkts_dropped, 0);
	conserved(x.f);
	ring_free(&x);
}
END_TEST

static void runs_through(enum routing r)
{
	struct ring x;

	ring_make(&x, r, 1);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_deadlock *v = ibfs__deadlock_verdict(x.mon);

	ck_assert_int_eq(v->deadlock, 0);
	ck_assert_int_eq(x.f->stopped, 0);
	ck_assert_uint_eq(x.f->pkts_delivered, NSW * (NSW - 1) * PKTS);
	for (int i = 0; i < NSW; i++) {
		ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[i])->rx_pkts,
				  (NSW - 1) * PKTS);
		ck_assert_uint_eq(ibfs__endpoint_stats(x.ep[i])->misrouted, 0);
	}
	ck_assert_uint_eq(ibfs__fabric_in_flight(x.f), 0);
	/* The monitor stopped watching once the run had nothing left. */
	ck_assert_uint_eq(ibfs__eq_size(&x.f->eq), 0);
	conserved(x.f);
	ring_free(&x);
}

START_TEST(line_routing_runs_through)
{
	runs_through(LINE);
}
END_TEST

START_TEST(dateline_vl_runs_through)
{
	runs_through(DATELINE_VL);
}
END_TEST

/*
 * Packets stuck in a switch without a cycle: an output whose VL arbitration
 * tables are empty serves no data VL (IBA 7.6.9). The monitor stops the run
 * with deadlock set and no cycle.
 */
START_TEST(stall_without_cycle)
{
	struct ring x;
	struct ibfs_diag d;

	ring_make(&x, LINE, 0);
	ck_assert_int_eq(ibfs__switch_set_vlarb(x.sw[0], 2, NULL, 0, NULL, 0,
						255), 0);
	struct ibfs_ep_flow_spec s = { .dlid = 2, .payload = 2036,
				       .count = 3 };

	ck_assert_int_eq(ibfs__endpoint_add_flow(x.ep[0], &s, &d), 0);
	ibfs__eq_run(&x.f->eq, IBFS_TIME_NEVER);
	const struct ibfs_deadlock *v = ibfs__deadlock_verdict(x.mon);
	char buf[64];

	ck_assert_int_eq(v->deadlock, 1);
	ck_assert_int_eq(v->ncycle, 0);
	/* One packet in s0's buffer; h0 holds no credits for another. */
	ck_assert_uint_eq(v->stuck, 1);
	ck_assert_uint_eq(ibfs__switch_buffered(x.sw[0]), 1);
	/* Found at the second look after the last packet moved. */
	ck_assert_uint_eq(v->at, 40 * IBFS_US);
	ck_assert_str_eq(ibfs__deadlock_format(x.f, v, buf, sizeof(buf)), "");
	conserved(x.f);
	ring_free(&x);
	ck_assert_ptr_null(ibfs__deadlock_monitor_new(NULL, 0));
}
END_TEST

static Suite *deadlock_suite(void)
{
	Suite *s = suite_create("switch_deadlock");
	TCase *tc = tcase_create("ring");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, shortest_paths_deadlock);
	tcase_add_test(tc, line_routing_runs_through);
	tcase_add_test(tc, dateline_vl_runs_through);
	tcase_add_test(tc, stall_without_cycle);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(deadlock_suite)
