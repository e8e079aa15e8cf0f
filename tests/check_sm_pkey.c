/* SPDX-License-Identifier: MIT */
/*
 * Partitions end to end on the event queue alone: the in-band SM programs
 * every port's P_Key table and the switch ports' enforcement (what
 * ibfs__pkey_plan_build lays out, which check_partitions.c checks against
 * OpenSM's rules), sending exactly the P_KeyTable blocks that differ from
 * what the ports hold; mode="instant" writes the same. Then the switch enforces: a
 * packet of a partition the CA behind a port lacks is dropped on its way
 * out (PortXmitConstraintErrors), one a CA sends outside its partitions on
 * its way in (PortRcvConstraintErrors), each RC try counted once. The
 * tables the SM compares with are those discovery read.
 *
 * The star: switch sw (node 0, 8 ports) and HCAs h1..h4 (nodes 1-4) on
 * its ports 1-4, the SM on h1.
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>

#include "fabric/pkey.h"
#include "hca/direct_exec.h"
#include "hca/hca_int.h"
#include "hca/pair.h"
#include "scenario/routes.h"
#include "subnet_manager/mad.h"
#include "subnet_manager/partitions.h"
#include "subnet_manager/pkey_plan.h"
#include "subnet_manager/sm.h"
#include "switch/switch.h"

#define NH 4

struct net {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_switch *sw;
	struct ibfs_hca *h[NH + 1];
	struct ibfs_direct_exec dx;
	struct ibfs_sm *sm;
	struct ibfs_partitions *pp;
};

static const char *const CONF =
	"# h4 is in no partition but the default, as a limited member.\n"
	"Default=0x7fff : ALL, SELF=full ;\n"
	"A=0x8001 : h1=full, h2=full, h3 ;\n"
	"B=0x0002 : h2=full, h3=full, sw=full ;\n";

static void net_make(struct net *n, const char *conf)
{
	struct ibfs_diag d;

	memset(n, 0, sizeof(*n));
	n->t = ibfs__topo_new("star");
	int s = ibfs__topo_add_node(n->t, "sw", IBFS_NODE_SWITCH, 8, 0, &d);

	for (int i = 1; i <= NH; i++) {
		char id[8];

		snprintf(id, sizeof(id), "h%d", i);
		int h = ibfs__topo_add_node(n->t, id, IBFS_NODE_HCA, 1, 0, &d);

		ck_assert_int_ge(ibfs__topo_add_link(n->t, h, 1, s, i,
						     IBFS_SPEED_EDR, 4, 2000,
						     0, &d),
				 0);
	}
	ibfs__topo_assign_guids(n->t, IBFS_TOPO_SWITCH_GUID_BASE,
				IBFS_TOPO_CA_GUID_BASE);
	n->f = ibfs__fabric_new(n->t, 1, 0);
	n->sw = ibfs__switch_create(n->f, 0, &d);
	ck_assert_ptr_nonnull(n->sw);
	struct ibfs_exec ex = ibfs__direct_exec(&n->dx, &n->f->eq);

	for (int i = 1; i <= NH; i++) {
		n->h[i] = ibfs__hca_create(n->f, i, "ideal", ex, &d);
		ck_assert_ptr_nonnull(n->h[i]);
	}
	if (conf) {
		n->pp = ibfs__partitions_parse(conf, "p.conf", n->t, &d);
		ck_assert_msg(n->pp != NULL, "%s", d.msg);
	}
}

static void net_free(struct net *n)
{
	ibfs__sm_free(n->sm);
	for (int i = 1; i <= NH; i++)
		ibfs__hca_free(n->h[i]);
	ibfs__switch_destroy(n->sw);
	ibfs__fabric_free(n->f);
	ibfs__partitions_free(n->pp);
	ibfs__topo_free(n->t);
}

static struct ibfs_sm_stats net_sweep(struct net *n)
{
	struct ibfs_diag d;
	struct ibfs_sm_stats st;

	n->sm = ibfs__sm_start(n->f, 1, "minhop", 0, NULL, NULL, &d);
	ck_assert_msg(n->sm != NULL, "%s", d.msg);
	ibfs__sm_set_partitions(n->sm, n->pp);
	ibfs__eq_run(&n->f->eq, IBFS_TIME_NEVER);
	ibfs__sm_stats(n->sm, &st);
	ck_assert_msg(st.state == 1, "sweep failed: %s", st.error);
	return st;
}

/*
 * Every port against the layout: the tables, the enforcement bits; the
 * blocks that differ from power-up, counted (the SMPs the SM owes).
 */
static uint64_t check_tables(struct net *n, const struct ibfs_partitions *pp)
{
	struct ibfs_diag d;
	struct ibfs_pkey_plan pl;
	struct ibfs_partitions *own = pp ? NULL : ibfs__partitions_default();
	uint64_t blocks = 0;

	ck_assert_int_eq(ibfs__pkey_plan_build(&pl, pp ? pp : own, n->t, 1, 1,
					       &d),
			 0);
	for (int node = 0; node <= NH; node++)
		for (int p = 0; p <= n->t->nodes[node].nports; p++) {
			const struct ibfs_port *pt =
				ibfs__fabric_port(n->f, node, p);
			const uint16_t *want =
				ibfs__pkey_plan_table(&pl, node, p);
			unsigned cap = ibfs__port_pkey_cap(pt);
			int differs = 0;

			for (unsigned i = 0; i < cap; i++) {
				uint16_t up = i ? 0 : IBFS_PKEY_DEFAULT;
				uint16_t w = want ? want[i] : up;

				ck_assert_msg(ibfs__port_pkey(pt, i) == w,
					      "node %d port %d entry %u: "
					      "0x%04x, want 0x%04x", node, p,
					      i, ibfs__port_pkey(pt, i), w);
				differs |= w != up;
				if (i % IBFS_PKEY_BLOCK == IBFS_PKEY_BLOCK - 1) {
					blocks += differs;
					differs = 0;
				}
			}
			ck_assert_int_eq(pt->pkey_enf, pl.enf[node][p]);
		}
	ibfs__pkey_plan_free(&pl);
	ibfs__partitions_free(own);
	return blocks;
}

/*
 * OpenSM's default (no file): nothing differs from power-up, so no
 * P_KeyTable SMP is sent and the sweep sends what it sent before
 * partitions existed; the switch ports facing the CAs enforce.
 */
START_TEST(default_sends_no_pkey_smp)
{
	struct net n;

	net_make(&n, NULL);
	struct ibfs_sm_stats st = net_sweep(&n);

	ck_assert_uint_eq(st.pkey_blocks, 0);
	ck_assert_uint_eq(check_tables(&n, NULL), 0);
	for (int p = 1; p <= NH; p++)
		ck_assert_int_eq(ibfs__fabric_port(n.f, 0, p)->pkey_enf,
				 IBFS_PKEY_ENF_IN | IBFS_PKEY_ENF_OUT);
	ck_assert_int_eq(ibfs__fabric_port(n.f, 0, 5)->pkey_enf, 0);
	ck_assert_uint_eq(n.f->pkey_tables, 0); /* none even allocated */
	net_free(&n);
}
END_TEST

/*
 * A table that is not the power-up one (a P_Key an earlier SM left in h2's
 * block 1) is read at discovery, as OpenSM reads every table, and set
 * back to the layout: one P_KeyTable Set, and the stale entry is gone.
 * Discovery read 21 blocks: 4 a CA port (128 entries), 1 for the switch's
 * port 0 and each of its 4 linked ports (32).
 */
START_TEST(sweep_reads_the_tables)
{
	struct net n;

	net_make(&n, NULL);
	struct ibfs_port *pt = ibfs__fabric_port(n.f, 2, 1);

	ck_assert_int_eq(ibfs__port_pkey_set(pt, 40, 0x8001), 0);
	struct ibfs_sm_stats st = net_sweep(&n);

	ck_assert_uint_eq(st.by_attr[0][IBFS_SMP_ATTR_PKEY_TABLE -
					 IBFS_SM_ATTR_BASE],
			  NH * 4 + 1 + NH);
	ck_assert_uint_eq(st.pkey_blocks, 1);
	ck_assert_uint_eq(ibfs__port_pkey(pt, 40), 0);
	ck_assert_uint_eq(ibfs__port_pkey(pt, 0), IBFS_PKEY_DEFAULT);
	ck_assert_uint_eq(check_tables(&n, NULL), 0);
	net_free(&n);
}
END_TEST

/*
 * With the file: each port's table as laid out, and exactly one SMP per
 * block that differs, beyond the SMPs of the same sweep without it.
 */
START_TEST(sweep_programs_the_layout)
{
	struct net n;

	net_make(&n, NULL);
	uint64_t base = net_sweep(&n).cfg_sent;
	net_free(&n);

	net_make(&n, CONF);
	struct ibfs_sm_stats st = net_sweep(&n);
	uint64_t blocks = check_tables(&n, n.pp);

	/* h1-h4, sw port 0, sw ports 1-4: block 0 of each. */
	ck_assert_uint_eq(blocks, 9);
	ck_assert_uint_eq(st.pkey_blocks, blocks);
	ck_assert_uint_eq(st.cfg_sent, base + blocks);
	ck_assert_uint_eq(st.errors, 0);
	/* A second sweep finds every table as it set it: nothing sent
	 * (the counts are the last sweep's). */
	ck_assert_int_eq(ibfs__sm_resweep(n.sm), 0);
	ibfs__eq_run(&n.f->eq, IBFS_TIME_NEVER);
	ibfs__sm_stats(n.sm, &st);
	ck_assert_int_eq(st.state, 1);
	ck_assert_uint_eq(st.pkey_blocks, 0);
	ck_assert_uint_eq(check_tables(&n, n.pp), 9);
	net_free(&n);
}
END_TEST

/* mode="instant": the same tables and bits, written at time 0. */
START_TEST(instant_writes_the_same)
{
	struct net n;
	struct ibfs_diag d;

	net_make(&n, CONF);
	ck_assert_int_eq(ibfs__routes_apply_pkeys(n.f, n.pp, 1, &d), 0);
	ck_assert_uint_eq(check_tables(&n, n.pp), 9);
	net_free(&n);
	net_make(&n, NULL);
	ck_assert_int_eq(ibfs__routes_apply_pkeys(n.f, NULL, 1, &d), 0);
	ck_assert_uint_eq(check_tables(&n, NULL), 0);
	ck_assert_uint_eq(n.f->pkey_tables, 0);
	net_free(&n);
}
END_TEST

/*
 * An RC connection between a QP on h[ha] at P_Key index ia and one on
 * h[hb] at ib; retry_cnt r, 8.192 us a try.
 */
static void rc_pair(struct net *n, struct ibfs_hca_end *a, int ha, int ia,
		    struct ibfs_hca_end *b, int hb, int ib, int r)
{
	struct ibfs_qp_cap cap = {.max_send_wr = 8, .max_recv_wr = 8,
				  .max_send_sge = 1, .max_recv_sge = 1};
	struct ibfs_hca_conn c = {.mtu = IBFS_MTU_4096, .timeout = 1,
				  .retry_cnt = (uint8_t)r, .rnr_retry = 7,
				  .rd_atomic = 1, .psn = 7};

	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	ck_assert_int_eq(ibfs__hca_end_open(a, n->h[ha], IBFS_QPT_RC, 4096,
					    &cap, 16),
			 0);
	ck_assert_int_eq(ibfs__hca_end_open(b, n->h[hb], IBFS_QPT_RC, 4096,
					    &cap, 16),
			 0);
	a->pkey_index = (uint16_t)ia;
	b->pkey_index = (uint16_t)ib;
	ck_assert_int_eq(ibfs__hca_end_connect(a, n->h[hb]->hp[1].lid,
					       b->qp->qp_num, &c),
			 0);
	ck_assert_int_eq(ibfs__hca_end_connect(b, n->h[ha]->hp[1].lid,
					       a->qp->qp_num, &c),
			 0);
}

static void rc_close(struct ibfs_hca_end *a, struct ibfs_hca_end *b)
{
	ibfs__hca_end_close(a);
	ibfs__hca_end_close(b);
}

/* One signaled 64-byte WRITE a -> b; its completion status. */
static int write_once(struct net *n, struct ibfs_hca_end *a,
		      struct ibfs_hca_end *b)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)a->buf,
			      .length = 64, .lkey = a->mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = 1, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_RDMA_WRITE,
				  .send_flags = IBFS_SEND_SIGNALED};
	struct ibfs_send_wr *bad;
	struct ibfs_wc wc;

	wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)b->buf;
	wr.wr.rdma.rkey = b->mr->rkey;
	ck_assert_int_eq(ibfs_post_send(a->qp, &wr, &bad), 0);
	ibfs__eq_run(&n->f->eq, IBFS_TIME_NEVER);
	ck_assert_int_eq(ibfs_poll_cq(a->scq, 1, &wc), 1);
	return wc.status;
}

/*
 * h1 writes to h4 in 0x8001, of which h4 is no member: sw port 4 (facing
 * h4, with h4's table) drops each try on its way out. h4 is given the
 * P_Key locally (as a host the SM does not control could): then its own
 * packets in 0x8001 are dropped on their way in at sw port 4. Without
 * enforcement the same WRITE reaches h1, whose QP is in 0x8001.
 */
START_TEST(switch_enforces_both_ways)
{
	struct net n;
	struct ibfs_hca_end a, b;
	const int retries = 2;

	net_make(&n, CONF);
	net_sweep(&n);
	int ia = ibfs_get_pkey_index(ibfs__hca_context(n.h[1]), 1, 0x8001);

	ck_assert_int_eq(ia, 1);
	struct ibfs_port *s4 = ibfs__fabric_port(n.f, 0, 4);
	struct ibfs_port *s1 = ibfs__fabric_port(n.f, 0, 1);

	rc_pair(&n, &a, 1, ia, &b, 4, 0, retries);
	ck_assert_int_eq(write_once(&n, &a, &b), IBFS_WC_RETRY_EXC_ERR);
	ck_assert_uint_eq(s4->xmit_constraint_errors, (uint64_t)retries + 1);
	ck_assert_uint_eq(s1->rcv_constraint_errors, 0);
	ck_assert_uint_eq(n.h[4]->hp[1].port->pkey_violations, 0);
	rc_close(&a, &b);

	/* h4 sends in 0x8001 from an entry the SM did not write. */
	ck_assert_int_eq(ibfs__port_pkey_set(n.h[4]->hp[1].port, 9, 0x8001), 0);
	rc_pair(&n, &a, 4, 9, &b, 1, ia, retries);
	ck_assert_int_eq(write_once(&n, &a, &b), IBFS_WC_RETRY_EXC_ERR);
	ck_assert_uint_eq(s4->rcv_constraint_errors, (uint64_t)retries + 1);
	ck_assert_uint_eq(n.h[1]->hp[1].port->pkey_violations, 0);
	rc_close(&a, &b);

	/* Enforcement off at sw port 4: the WRITE passes. */
	ck_assert_int_eq(ibfs__switch_set_pkey_enf(n.sw, 4, 0), 0);
	rc_pair(&n, &a, 4, 9, &b, 1, ia, retries);
	ck_assert_int_eq(write_once(&n, &a, &b), IBFS_WC_SUCCESS);
	ck_assert_mem_eq(b.buf, a.buf, 64);
	ck_assert_uint_eq(s4->rcv_constraint_errors, (uint64_t)retries + 1);
	ck_assert_int_eq(ibfs__switch_set_pkey_enf(n.sw, 9, 0), -1);
	ck_assert_int_eq(ibfs__switch_set_pkey_enf(n.sw, 1, 4), -1);
	rc_close(&a, &b);

	/*
	 * The default partition passes every enforcing port that holds it
	 * without a look at the tables; once sw port 3's table loses it, a
	 * WRITE of h1 to h3 in it is dropped there on its way out.
	 */
	rc_pair(&n, &a, 1, 0, &b, 3, 0, retries);
	ck_assert_int_eq(write_once(&n, &a, &b), IBFS_WC_SUCCESS);
	rc_close(&a, &b);
	const uint16_t no_default[2] = {0x0002, 0};
	struct ibfs_port *s3 = ibfs__fabric_port(n.f, 0, 3);

	ck_assert_int_eq(ibfs__switch_set_pkeys(n.sw, 3, 0, no_default, 2), 0);
	ck_assert_int_eq(ibfs__switch_set_pkeys(n.sw, 3, 31, no_default, 2),
			 -1);
	ck_assert_int_eq(ibfs__switch_set_pkeys(n.sw, 9, 0, no_default, 1),
			 -1);
	rc_pair(&n, &a, 1, 0, &b, 3, 0, retries);
	ck_assert_int_eq(write_once(&n, &a, &b), IBFS_WC_RETRY_EXC_ERR);
	ck_assert_uint_eq(s3->xmit_constraint_errors, (uint64_t)retries + 1);
	rc_close(&a, &b);
	net_free(&n);
}
END_TEST

static Suite *sm_pkey_suite(void)
{
	Suite *s = suite_create("sm_pkey");
	TCase *tc = tcase_create("pkey");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, default_sends_no_pkey_smp);
	tcase_add_test(tc, sweep_reads_the_tables);
	tcase_add_test(tc, sweep_programs_the_layout);
	tcase_add_test(tc, instant_writes_the_same);
	tcase_add_test(tc, switch_enforces_both_ways);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sm_pkey_suite)
