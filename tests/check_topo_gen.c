/* SPDX-License-Identifier: MIT */
/*
 * Tests of the topology generators (src/fabric/topo_gen.c): node and link
 * counts from the closed forms of each family, exact wiring of small cases,
 * and every parameter error.
 */
#include <stdio.h>
#include <string.h>

#include "check_common.h"
#include "topo_gen_test.h"

/* Peer node id of node `id` port `port`, or "" when unconnected. */
static const char *peer(const struct ibfs_topology *t, const char *id,
			int port, int *peer_port)
{
	int n = ibfs__topo_find(t, id);
	ck_assert_int_ge(n, 0);
	ck_assert_int_le(port, t->nodes[n].nports);
	const struct ibfs_topo_port *p = &t->nodes[n].ports[port];
	if (p->peer_node < 0)
		return "";
	if (peer_port)
		*peer_port = p->peer_port;
	return t->nodes[p->peer_node].id;
}

START_TEST(fat_tree_k4_l2)
{
	static const char *const kv[] = {"k", "4", "levels", "2"};
	struct ibfs_diag d;
	int rc, pp = 0;
	struct ibfs_topology *t = gen("fat-tree", kv, 2, &d, &rc);
	ck_assert_int_eq(rc, 0);
	/* K leaves, K/2 spines, K^2/2 HCAs (docs/fabric-format.md). */
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 6);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 8);
	/* HCA links (8) + every leaf to every spine (4 x 2). */
	ck_assert_uint_eq(t->nlinks, 16);
	all_ports_used(t);
	/* Leaf j (1-based) has HCAs 2j-1, 2j on ports 1, 2. */
	ck_assert_str_eq(peer(t, "leaf3", 1, &pp), "node5");
	ck_assert_int_eq(pp, 1);
	ck_assert_str_eq(peer(t, "leaf3", 2, NULL), "node6");
	/* Up port 3 goes to spine1, port 4 to spine2; the spine's down port
	 * is the leaf number. */
	ck_assert_str_eq(peer(t, "leaf3", 3, &pp), "spine1");
	ck_assert_int_eq(pp, 3);
	ck_assert_str_eq(peer(t, "leaf4", 4, &pp), "spine2");
	ck_assert_int_eq(pp, 4);
	ck_assert_int_eq(t->nodes[ibfs__topo_find(t, "spine2")].nports, 4);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(fat_tree_k4_l3)
{
	static const char *const kv[] = {"k", "4", "levels", "3"};
	struct ibfs_diag d;
	int rc;
	struct ibfs_topology *t = gen("fat-tree", kv, 2, &d, &rc);
	ck_assert_int_eq(rc, 0);
	/* k^3/4 = 16 HCAs; k^2/2 = 8 leaves and 8 spines, k^2/4 = 4 cores. */
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 16);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 20);
	ck_assert_int_ge(ibfs__topo_find(t, "core4"), 0);
	ck_assert_int_lt(ibfs__topo_find(t, "core5"), 0);
	/* 16 HCA links, 8 leaves x 2 up, 8 spines x 2 up. */
	ck_assert_uint_eq(t->nlinks, 48);
	all_ports_used(t);
	/* Every core reaches every leaf in two hops down: each core has one
	 * link into each of the k = 4 pods (spine pairs). */
	for (int c = 1; c <= 4; c++) {
		char id[16];
		snprintf(id, sizeof(id), "core%d", c);
		int seen[9] = {0};
		for (int p = 1; p <= 4; p++) {
			const char *s = peer(t, id, p, NULL);
			ck_assert_int_eq(strncmp(s, "spine", 5), 0);
			int si = atoi(s + 5);
			ck_assert(si >= 1 && si <= 8);
			seen[(si - 1) / 2 + 1]++; /* pod of the spine */
		}
		for (int pod = 1; pod <= 4; pod++)
			ck_assert_int_eq(seen[pod], 1);
	}
	ibfs__topo_free(t);
}
END_TEST

START_TEST(fat_tree_k36_l3_counts)
{
	static const char *const kv[] = {"k", "36", "levels", "3"};
	struct ibfs_diag d;
	int rc;
	struct ibfs_topology *t = gen("fat-tree", kv, 2, &d, &rc);
	ck_assert_int_eq(rc, 0);
	/* 36^3/4 = 11,664 HCAs; 5*36^2/4 = 1,620 switches
	 * (docs/fabric-format.md). */
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 11664);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 1620);
	/* Each of 1,296 lower switches has 18 up links, plus HCA links. */
	ck_assert_uint_eq(t->nlinks, 11664 + 1296 * 18);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(xgft_oversubscribed)
{
	/* XGFT(2; 4,3; 1,2): 12 HCAs, 3 leaves with 4 down 2 up, 2 tops. */
	static const char *const kv[] = {"m", "4,3", "w", "1x2"};
	struct ibfs_diag d;
	int rc, pp = 0;
	struct ibfs_topology *t = gen("xgft", kv, 2, &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 12);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 5);
	ck_assert_int_eq(t->nodes[ibfs__topo_find(t, "leaf1")].nports, 6);
	ck_assert_int_eq(t->nodes[ibfs__topo_find(t, "spine1")].nports, 3);
	ck_assert_str_eq(peer(t, "leaf2", 6, &pp), "spine2");
	ck_assert_int_eq(pp, 2);
	all_ports_used(t);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(fat_tree_oversubscribed)
{
	/* k=4 with 3 HCAs a leaf: 4 leaves of 3 HCAs and 1 up link, one
	 * 4-port spine: 3:1 at the leaves. */
	static const char *const kv[] = {"k", "4", "levels", "2", "hosts", "3"};
	struct ibfs_diag d;
	int rc, pp = 0;
	struct ibfs_topology *t = gen("fat-tree", kv, 3, &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 12);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 5);
	all_ports_used(t);
	ck_assert_str_eq(peer(t, "leaf2", 3, NULL), "node6");
	ck_assert_str_eq(peer(t, "leaf2", 4, &pp), "spine1");
	ck_assert_int_eq(pp, 2);
	ibfs__topo_free(t);
	/* Three levels, k=4, hosts=1: 8 leaves of 1 HCA and 3 up links;
	 * 4 x 3 = 12 spines, 3 x 2 = 6 cores. */
	static const char *const k3[] = {"k", "4", "levels", "3", "hosts", "1"};
	t = gen("fat-tree", k3, 3, &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 8);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 8 + 12 + 6);
	all_ports_used(t);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(torus_4x4)
{
	static const char *const kv[] = {"dims", "4x4"};
	struct ibfs_diag d;
	int rc, pp = 0;
	struct ibfs_topology *t = gen("torus", kv, 1, &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 16);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 16);
	/* 2 x 16 torus links and 16 HCA links. */
	ck_assert_uint_eq(t->nlinks, 48);
	all_ports_used(t);
	/* sw4 is (3,0): +x wraps to sw1 (0,0); sw1's -x is port 2. */
	ck_assert_str_eq(peer(t, "sw4", 1, &pp), "sw1");
	ck_assert_int_eq(pp, 2);
	/* sw2 (1,0) +y is sw6 (1,1) port 4; -y wraps to sw14 (1,3). */
	ck_assert_str_eq(peer(t, "sw2", 3, &pp), "sw6");
	ck_assert_int_eq(pp, 4);
	ck_assert_str_eq(peer(t, "sw2", 4, &pp), "sw14");
	ck_assert_int_eq(pp, 3);
	ck_assert_str_eq(peer(t, "sw7", 5, NULL), "node7");
	ibfs__topo_free(t);
}
END_TEST

START_TEST(mesh_and_ring)
{
	static const char *const kv[] = {"dims", "3,2", "hcas", "2"};
	struct ibfs_diag d;
	int rc;
	struct ibfs_topology *t = gen("mesh", kv, 2, &d, &rc);
	ck_assert_int_eq(rc, 0);
	/* Mesh 3x2: (3-1)*2 + 3*(2-1) = 7 links, 12 HCA links. */
	ck_assert_uint_eq(t->nlinks, 19);
	ck_assert_str_eq(peer(t, "sw3", 1, NULL), "");
	ck_assert_str_eq(peer(t, "sw1", 2, NULL), "");
	ck_assert_str_eq(peer(t, "sw3", 6, NULL), "node6");
	ibfs__topo_free(t);
	static const char *const kr[] = {"n", "4"};
	t = gen("ring", kr, 1, &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(t->nlinks, 8);
	all_ports_used(t);
	ck_assert_str_eq(peer(t, "sw4", 1, NULL), "sw1");
	ibfs__topo_free(t);
}
END_TEST

START_TEST(hypercube_3)
{
	static const char *const kv[] = {"dim", "3"};
	struct ibfs_diag d;
	int rc, pp = 0;
	struct ibfs_topology *t = gen("hypercube", kv, 1, &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 8);
	/* n 2^(n-1) = 12 cube links and 8 HCA links. */
	ck_assert_uint_eq(t->nlinks, 20);
	all_ports_used(t);
	/* sw6 is address 5 = 101b: bit 1 flipped gives 7 = sw8. */
	ck_assert_str_eq(peer(t, "sw6", 2, &pp), "sw8");
	ck_assert_int_eq(pp, 2);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(dragonfly_a4_p2_h2)
{
	static const char *const kv[] = {"a", "4", "p", "2", "h", "2"};
	struct ibfs_diag d;
	int rc;
	struct ibfs_topology *t = gen("dragonfly", kv, 3, &d, &rc);
	ck_assert_int_eq(rc, 0);
	/* g = a*h+1 = 9 groups, 36 switches, 72 HCAs. */
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 36);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), 72);
	/* Links: 72 HCA + 9 * C(4,2) local + C(9,2) global. */
	ck_assert_uint_eq(t->nlinks, 72 + 54 + 36);
	all_ports_used(t);
	/* Exactly one global link between every pair of groups. */
	int cnt[10][10] = {{0}};
	for (size_t i = 0; i < t->nlinks; i++) {
		const struct ibfs_topo_link *l = &t->links[i];
		const char *a = t->nodes[l->node_a].id;
		const char *b = t->nodes[l->node_b].id;
		if (a[0] != 'g' || b[0] != 'g')
			continue;
		int ga = atoi(a + 1), gb = atoi(b + 1);
		if (ga != gb) {
			cnt[ga][gb]++;
			cnt[gb][ga]++;
		}
	}
	for (int i = 1; i <= 9; i++)
		for (int j = 1; j <= 9; j++)
			ck_assert_int_eq(cnt[i][j], i != j);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(prefix_is_used)
{
	struct ibfs_gen_param p[] = {{"k", "2"}, {"levels", "1"}};
	struct ibfs_topology *t = ibfs__topo_new("t");
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__topo_generate(t, "fat-tree", p, 2, "a_", "f",
					     1, &d), 0);
	ck_assert_int_ge(ibfs__topo_find(t, "a_sw1"), 0);
	ck_assert_int_ge(ibfs__topo_find(t, "a_node2"), 0);
	/* A second generate with the same prefix collides. */
	ck_assert_int_eq(ibfs__topo_generate(t, "fat-tree", p, 2, "a_", "f",
					     1, &d), -1);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(errors)
{
	static const char *const odd[] = {"k", "5"};
	expect_error("fat-tree", odd, 1, "k=5 must be even");
	expect_error("fat-tree", NULL, 0, "needs parameter 'k'");
	static const char *const lv[] = {"k", "4", "levels", "0"};
	expect_error("fat-tree", lv, 2, "levels='0' must be an integer");
	static const char *const unk[] = {"k", "4", "radix", "4"};
	expect_error("fat-tree", unk, 2, "unknown parameter 'radix'");
	expect_error("moebius", NULL, 0, "unknown topology 'moebius'");
	static const char *const dims[] = {"dims", "4x"};
	expect_error("torus", dims, 1, "dims='4x' must be");
	static const char *const dims2[] = {"dims", "4xax2"};
	expect_error("mesh", dims2, 1, "dims='4xax2'");
	static const char *const xg[] = {"m", "4,3", "w", "1"};
	expect_error("xgft", xg, 2, "m has 2 levels but w has 1");
	static const char *const df[] = {"a", "4", "p", "2", "h", "2",
					 "g", "4"};
	expect_error("dragonfly", df, 4, "multiple of g-1 = 3");
	static const char *const hs[] = {"k", "4", "hosts", "4"};
	expect_error("fat-tree", hs, 2, "hosts='4' must be an integer from 1 to 3");
	static const char *const big[] = {"k", "254", "levels", "4"};
	expect_error("fat-tree", big, 2, "nodes is more than");
}
END_TEST

static Suite *topo_gen_suite(void)
{
	Suite *s = suite_create("topo_gen");
	TCase *tc = tcase_create("gen");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, fat_tree_k4_l2);
	tcase_add_test(tc, fat_tree_k4_l3);
	tcase_add_test(tc, fat_tree_k36_l3_counts);
	tcase_add_test(tc, xgft_oversubscribed);
	tcase_add_test(tc, fat_tree_oversubscribed);
	tcase_add_test(tc, torus_4x4);
	tcase_add_test(tc, mesh_and_ring);
	tcase_add_test(tc, hypercube_3);
	tcase_add_test(tc, dragonfly_a4_p2_h2);
	tcase_add_test(tc, prefix_is_used);
	tcase_add_test(tc, errors);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(topo_gen_suite)
