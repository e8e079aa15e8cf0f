/* SPDX-License-Identifier: MIT */
/*
 * The subnet manager's multicast trees and MFTs (mcast_tree.c,
 * sm_mcast.c) on the two-level fat tree of 4-port switches (sm_net.h):
 * leaves leaf1-leaf4 (switch GUIDs in that order, then spine1, spine2),
 * each with two HCAs on ports 1 and 2 (node1, node2 on leaf1 ... node7,
 * node8 on leaf4) and spine1 on port 3, spine2 on port 4; spine s has
 * leaf l on port l.
 *
 * Group A (MLID 0xC000): node1, node3, node5. The largest hop count to a
 * member's CA port is 3 from any leaf (1 to its own HCA, 3 through a
 * spine to the others) and 2 from either spine, so the root is spine1,
 * the first by GUID. spine1 reaches node1, node3, node5 by ports 1, 2, 3
 * (mask 0b1110 = 0x000E, no upstream at the root); leaf1, leaf2 and
 * leaf3 forward to their member on port 1 and to their parent on port 3
 * (0b1010 = 0x000A); leaf4 and spine2 have nothing.
 * Group B (0xC001): node1, node2, both on leaf1, the root (1 hop, every
 * other switch 2 or more): ports 1 and 2 (0x0006), nothing elsewhere.
 *
 * SMPs: one MFT block of 32 MLIDs at position 0 (4 ports) a switch,
 * sent when it is not all zero: spine1, leaf1, leaf2, leaf3: 4.
 *
 * With the spine1-leaf1 link down, the re-sweep sees spine1 3 hops from
 * leaf1 (by leaf2 and spine2): A's largest count is 4 from spine1, 3
 * from a leaf and 2 from spine2, the root now; leaf1-leaf3 go up by port
 * 4 (member port 1: 0b10010 = 0x0012), spine2 takes 0x000E and spine1
 * none. Five blocks differ (spine1, spine2, leaf1-leaf3).
 */
#include "check_common.h"

#include <errno.h>

#include "sm_net.h"
#include "subnet_manager/mcast.h"
#include "subnet_manager/routing.h"

#define QKEY 0x5eed

/* Topology indices: leaves 0-3, spines 4-5, node i at 5 + i. */
enum { LEAF1 = 0, SPINE1 = 4, SPINE2 = 5, NODE1 = 6 };

static struct ibfs_mcast_member mem_a[] = { { .node = NODE1 + 0, .port = 1 },
					    { .node = NODE1 + 2, .port = 1 },
					    { .node = NODE1 + 4, .port = 1 } };
static struct ibfs_mcast_member mem_b[] = { { .node = NODE1 + 0, .port = 1 },
					    { .node = NODE1 + 1, .port = 1 } };
static struct ibfs_mcast_group groups[2] = {
	{ .id = "a", .mgid = { 0xff, 0x12, [15] = 1 }, .mlid = 0xC000,
	  .nmembers = 3, .members = mem_a },
	{ .id = "b", .mgid = { 0xff, 0x12, [15] = 2 }, .mlid = 0xC001,
	  .nmembers = 2, .members = mem_b },
};

static uint16_t mft(struct net *n, int node, uint16_t mlid)
{
	return ibfs__switch_get_mft16(n->sw[node], mlid, 0);
}

/* Switches 0-5 (leaf1-4, spine1-2): group A's and B's masks. */
static void check_masks(struct net *n, const uint16_t a[6],
			const uint16_t b[6])
{
	for (int s = 0; s < 6; s++) {
		ck_assert_msg(mft(n, s, 0xC000) == a[s], "A at %s: 0x%04x",
			      n->t->nodes[s].id, mft(n, s, 0xC000));
		ck_assert_msg(mft(n, s, 0xC001) == b[s], "B at %s: 0x%04x",
			      n->t->nodes[s].id, mft(n, s, 0xC001));
	}
}

/* MFT blocks of every sweep so far (the stats are the last sweep's). */
static uint64_t mft_sum;

static void on_up_sum(void *ctx, ibfs_time_t t)
{
	struct net *n = ctx;
	struct ibfs_sm_stats st;

	on_up(ctx, t);
	ibfs__sm_stats(n->sm, &st);
	mft_sum += st.mft_blocks;
}

static void sweep(struct net *n)
{
	struct ibfs_diag d;

	mft_sum = 0;

	fat_tree_make(n, 4);
	ck_assert_str_eq(n->t->nodes[SPINE1].id, "ftspine1");
	ck_assert_str_eq(n->t->nodes[NODE1].id, "ftnode1");
	n->sm = ibfs__sm_start(n->f, NODE1 + 7, "minhop", 0, on_up_sum, n,
			       &d);
	ck_assert_msg(n->sm != NULL, "%s", d.msg);
	ibfs__sm_set_mcast(n->sm, groups, 2);
	ibfs__eq_run(&n->f->eq, IBFS_TIME_NEVER);
}

/* A UD QP on HCA node attached to group A, with one receive posted. */
struct end {
	struct ibfs_pd *pd;
	struct ibfs_cq *cq;
	struct ibfs_qp *qp;
	struct ibfs_mr *mr;
	uint8_t buf[4096];
};

static void end_open(struct net *n, struct end *e, int node)
{
	struct ibfs_context *ctx = ibfs__hca_context(n->hca[node]);
	union ibfs_gid g;
	struct ibfs_qp_init_attr ia = {
		.qp_type = IBFS_QPT_UD,
		.cap = {.max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1,
			.max_recv_sge = 1},
	};

	e->pd = ibfs_alloc_pd(ctx);
	e->cq = ibfs_create_cq(ctx, 16, NULL, NULL, 0);
	e->mr = ibfs_reg_mr(e->pd, e->buf, sizeof(e->buf), 0xf);
	ia.send_cq = ia.recv_cq = e->cq;
	e->qp = ibfs_create_qp(e->pd, &ia);
	ck_assert_ptr_nonnull(e->qp);
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT, .port_num = 1,
				 .qkey = QKEY};

	ck_assert_int_eq(ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE |
				IBFS_QP_PKEY_INDEX | IBFS_QP_PORT |
				IBFS_QP_QKEY), 0);
	a.qp_state = IBFS_QPS_RTR;
	ck_assert_int_eq(ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE), 0);
	a.qp_state = IBFS_QPS_RTS;
	ck_assert_int_eq(ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE |
				IBFS_QP_SQ_PSN), 0);
	memcpy(g.raw, groups[0].mgid, 16);
	ck_assert_int_eq(ibfs_attach_mcast(e->qp, &g, 0xC000), 0);
	struct ibfs_sge sg = {.addr = (uintptr_t)e->buf, .length = 2048,
			      .lkey = e->mr->lkey};
	struct ibfs_recv_wr wr = {.wr_id = 1, .sg_list = &sg, .num_sge = 1},
			    *bad;

	ck_assert_int_eq(ibfs_post_recv(e->qp, &wr, &bad), 0);
}

/*
 * node3 sends 100 bytes to group A: node1 and node5 each take one copy
 * (40 bytes of GRH and the payload; the bytes themselves are checked in
 * check_mcast_hca, this fabric carries none); node3 gets its send
 * completion only.
 */
static void deliver_a(struct net *n)
{
	struct end e[3];
	int nodes[3] = { NODE1 + 0, NODE1 + 2, NODE1 + 4 };

	for (int i = 0; i < 3; i++)
		end_open(n, &e[i], nodes[i]);
	struct ibfs_ah_attr aa = {.dlid = 0xC000, .is_global = 1,
				  .port_num = 1};

	memcpy(aa.grh.dgid, groups[0].mgid, 16);
	struct ibfs_ah *ah = ibfs_create_ah(e[1].pd, &aa);

	ck_assert_ptr_nonnull(ah);
	struct ibfs_sge sg = {.addr = (uintptr_t)(e[1].buf + 2048),
			      .length = 100, .lkey = e[1].mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = 9, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_SEND,
				  .send_flags = IBFS_SEND_SIGNALED},
			    *bad;

	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = 0xFFFFFF;
	wr.wr.ud.remote_qkey = QKEY;
	ck_assert_int_eq(ibfs_post_send(e[1].qp, &wr, &bad), 0);
	ibfs__eq_run(&n->f->eq, IBFS_TIME_NEVER);
	struct ibfs_wc wc[2];

	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(ibfs_poll_cq(e[i].cq, 2, wc), 1);
		ck_assert_int_eq(wc[0].status, IBFS_WC_SUCCESS);
		if (i == 1) {
			ck_assert_uint_eq(wc[0].wr_id, 9);
			continue;
		}
		ck_assert_uint_eq(wc[0].opcode, IBFS_WC_RECV);
		ck_assert_uint_eq(wc[0].byte_len, 140);
		ck_assert_uint_eq(wc[0].src_qp, e[1].qp->qp_num);
	}
	for (int i = 0; i < 3; i++) {
		ibfs_destroy_qp(e[i].qp);
		ibfs_dereg_mr(e[i].mr);
		ibfs_destroy_cq(e[i].cq);
	}
	ibfs_destroy_ah(ah);
	ibfs__direct_exec_drain(&n->dx);
}

static int same_node(void *ctx, int node)
{
	(void)ctx;
	return node;
}

/*
 * What mode="instant" writes (scenario/routes.c): the trees built offline
 * on the static topology's subnet, routed by the same engine; the in-band
 * SM must have programmed exactly those.
 */
static void check_offline(struct net *n)
{
	struct ibfs_diag d;
	struct ibfs_routing_opts o = { 0 };
	struct ibfs_subnet *sn = ibfs__subnet_from_topo(n->t, &d);
	uint64_t m[6 * 2 * IBFS_MCAST_MASK_WORDS];

	ck_assert_ptr_nonnull(sn);
	ck_assert_int_eq(ibfs__subnet_assign_lids(sn, 0, &d), 0);
	ck_assert_int_eq(ibfs__routing_run(sn, "minhop", &o, &d), 0);
	ck_assert_int_eq(sn->nsw, 6);
	ck_assert_int_eq(ibfs__mcast_trees(sn, groups, 2, same_node, NULL, m),
			 0);
	for (int s = 0; s < sn->nsw; s++)
		for (int g = 0; g < 2; g++)
			ck_assert_uint_eq(mft(n, sn->sw_node[s], groups[g].mlid),
					  (uint16_t)ibfs__mcast_mask(m, 2, s,
								 g)[0]);
	ibfs__subnet_free(sn);
}

START_TEST(test_fat_tree_mfts)
{
	struct net n;
	struct ibfs_sm_stats st;
	/* leaf1-4, spine1-2 (see the top). */
	const uint16_t a[6] = { 0x000A, 0x000A, 0x000A, 0, 0x000E, 0 };
	const uint16_t b[6] = { 0x0006, 0, 0, 0, 0, 0 };

	sweep(&n);
	ibfs__sm_stats(n.sm, &st);
	ck_assert_int_eq(st.state, 1);
	ck_assert_uint_eq(st.errors, 0);
	ck_assert_uint_eq(st.mft_blocks, 4);
	check_masks(&n, a, b);
	check_offline(&n);
	deliver_a(&n);
	net_free(&n);
}
END_TEST

START_TEST(test_resweep_after_link_down)
{
	struct net n;
	struct ibfs_sm_stats st;
	const uint16_t a[6] = { 0x0012, 0x0012, 0x0012, 0, 0, 0x000E };
	const uint16_t b[6] = { 0x0006, 0, 0, 0, 0, 0 };

	sweep(&n);
	ck_assert_int_eq(n.t->nodes[SPINE1].ports[1].peer_node, LEAF1);
	ck_assert_int_eq(ibfs__fabric_link_set(n.f, SPINE1, 1, 0), 1);
	ibfs__eq_run(&n.f->eq, IBFS_TIME_NEVER);
	ibfs__sm_stats(n.sm, &st);
	/* Both ends' traps: one re-sweep each, the second changes nothing. */
	ck_assert_uint_eq(st.traps, 2);
	ck_assert_int_eq(n.up_calls, 3);
	ck_assert_int_eq(st.state, 1);
	ck_assert_uint_eq(st.errors, 0);
	ck_assert_uint_eq(st.mft_blocks, 0);
	ck_assert_uint_eq(mft_sum, 4 + 5);
	check_masks(&n, a, b);
	/* node1, behind the failed link, still gets node3's packet. */
	deliver_a(&n);
	net_free(&n);
}
END_TEST

/* Without groups the SM sends no MFT block (the sweeps of before). */
START_TEST(test_no_groups_no_mft)
{
	struct net n;
	struct ibfs_sm_stats st;

	fat_tree_make(&n, 4);
	net_sweep(&n, NODE1 + 7, "minhop", 0, 0);
	ibfs__sm_stats(n.sm, &st);
	ck_assert_uint_eq(st.mft_blocks, 0);
	for (int s = 0; s < 6; s++)
		ck_assert_uint_eq(mft(&n, s, 0xC000), 0);
	net_free(&n);
}
END_TEST

static Suite *sm_mcast_suite(void)
{
	Suite *s = suite_create("sm_mcast");
	TCase *tc = tcase_create("mcast");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_fat_tree_mfts);
	tcase_add_test(tc, test_resweep_after_link_down);
	tcase_add_test(tc, test_no_groups_no_mft);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(sm_mcast_suite)
