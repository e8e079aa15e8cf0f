/* SPDX-License-Identifier: MIT */
/*
 * minhop and what every engine relies on: LID assignment with LMC (IBA
 * vol. 1, chapter 4), the engine table, the manager's fallback, route statistics and
 * minhop's shortest, balanced tables.
 */
#include "check_route_util.h"

static const char *const ft42[] = {"k", "4", "levels", "2", NULL};
static const char *const ft43[] = {"k", "4", "levels", "3", NULL};
static const char *const t44[] = {"dims", "4x4", NULL};
static const char *const df[] = {"a", "4", "p", "2", "h", "2", NULL};
static const char *const hc3[] = {"dim", "3", NULL};
static const char *const mesh[] = {"dims", "3x2", "hcas", "2", NULL};

START_TEST(lids_lmc0)
{
	struct rt r = rt_make("fat-tree", ft42, 1, 0);
	/* Node order: 4 leaves, 2 spines, then 8 HCAs. */
	ck_assert_uint_eq(r.sn->max_lid, 14);
	ck_assert_uint_eq(
		r.sn->nodes[ibfs__topo_find(r.t, "spine2")].ports[0].lid, 6);
	ck_assert_uint_eq(rt_lid(&r, "node1"), 7);
	ck_assert_uint_eq(rt_lid(&r, "node8"), 14);
	ck_assert_int_eq(r.sn->lid_node[14], ibfs__topo_find(r.t, "node8"));
	rt_free(&r);
}
END_TEST

START_TEST(lids_lmc2)
{
	struct rt r = rt_make("fat-tree", ft42, 1, 2);
	/* Switches take 1..6; CA blocks of 4 aligned: 8, 12, ..., 36. */
	ck_assert_uint_eq(rt_lid(&r, "node1"), 8);
	ck_assert_uint_eq(rt_lid(&r, "node2"), 12);
	ck_assert_uint_eq(rt_lid(&r, "node8"), 36);
	ck_assert_uint_eq(r.sn->max_lid, 39);
	ck_assert_int_eq(r.sn->lid_node[7], -1);
	ck_assert_int_eq(r.sn->lid_node[39], ibfs__topo_find(r.t, "node8"));
	ck_assert_int_eq(r.sn->lid_port[38], 1);
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__subnet_assign_lids(r.sn, 8, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "LMC 8 is out of range"));
	rt_free(&r);
}
END_TEST

START_TEST(lids_overflow)
{
	/* 4096 HCAs with LMC 4 need 65536 LIDs > 0xBFFF. */
	static const char *const big[] = {"dims", "64x64", NULL};
	struct ibfs_topology *t = ibfs__topo_new("t");
	struct ibfs_gen_param p[] = {{big[0], big[1]}};
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__topo_generate(t, "mesh", p, 1, "", "t", 1, &d),
			 0);
	struct ibfs_subnet *sn = ibfs__subnet_from_topo(t, &d);
	ck_assert_int_eq(ibfs__subnet_assign_lids(sn, 4, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "ERR 5001"));
	ck_assert_int_eq(ibfs__subnet_assign_lids(sn, 3, &d), 0);
	ibfs__subnet_free(sn);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(engine_table)
{
	static const char *const want[] = {"minhop", "updn", "dnup", "ftree",
					   "dor", "dfsssp", "lash", "file"};
	int n = 0;
	for (const struct ibfs_routing_entry *e = ibfs__routing_engines;
	     e->name; e++, n++) {
		for (const struct ibfs_routing_entry *f = e + 1; f->name; f++)
			ck_assert_str_ne(e->name, f->name);
		ck_assert_ptr_eq(ibfs__routing_find(e->name), e);
	}
	ck_assert_int_eq(n, 8);
	for (int i = 0; i < 8; i++)
		ck_assert_ptr_nonnull(ibfs__routing_find(want[i]));
	ck_assert_ptr_null(ibfs__routing_find("lash2"));
	struct rt r = rt_make("fat-tree", ft42, 1, 0);
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__routing_run(r.sn, "nue2", NULL, &d), -1);
	ck_assert_ptr_nonnull(
		strstr(d.msg, "unknown routing engine 'nue2' (known: minhop,"));
	rt_free(&r);
}
END_TEST

START_TEST(minhop_shortest_everywhere)
{
	const char *kinds[] = {"torus", "dragonfly", "hypercube",
			       "fat-tree", "mesh"};
	const char *const *params[] = {t44, df, hc3, ft43, mesh};
	for (int i = 0; i < 5; i++) {
		struct rt r = rt_make(kinds[i], params[i], 1, i == 4 ? 1 : 0);
		rt_route(&r, "minhop", "minhop");
		rt_assert_all_shortest(&r);
		rt_free(&r);
	}
}
END_TEST

START_TEST(minhop_balance_and_stats)
{
	struct rt r = rt_make("fat-tree", ft42, 1, 0);
	rt_route(&r, "minhop", "minhop");
	/* A leaf sends the 6 HCA LIDs of other leaves over 2 up ports:
	 * 3 each; a spine's down port carries the leaf's 2 HCAs. */
	for (int l = 1; l <= 4; l++) {
		char id[8];
		snprintf(id, sizeof(id), "leaf%d", l);
		int s = rt_sw(&r, id);
		int c3 = 0, c4 = 0;
		for (int h = 1; h <= 8; h++) {
			char nid[8];
			snprintf(nid, sizeof(nid), "node%d", h);
			int p = *ibfs__subnet_lft(r.sn, s, rt_lid(&r, nid));
			c3 += p == 3;
			c4 += p == 4;
		}
		ck_assert_int_eq(c3, 3);
		ck_assert_int_eq(c4, 3);
	}
	struct ibfs_route_stats st;
	ck_assert_int_eq(ibfs__route_stats(r.sn, &st, NULL), 0);
	ck_assert_int_eq(st.unreachable, 0);
	ck_assert_int_eq(st.loops, 0);
	ck_assert_int_eq(st.hop_max, 4);
	/* From one HCA: 1 neighbour at 2 links, 6 at 4: 26/7. */
	ck_assert_double_eq_tol(st.hop_mean, 26.0 / 7.0, 1e-9);
	/* 8 leaf up ports carry 3, 8 spine down ports carry 2. */
	ck_assert_int_eq(st.routes_min, 2);
	ck_assert_int_eq(st.routes_max, 3);
	ck_assert_double_eq_tol(st.routes_mean, 2.5, 1e-9);
	ck_assert_int_eq(st.isw_ports, 16);
	/* SLs: minhop leaves every path on SL 0. */
	ck_assert_int_eq(ibfs__subnet_path_sl(r.sn, 7, 14), 0);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
}
END_TEST

START_TEST(minhop_lmc_spreads_lids)
{
	struct rt r = rt_make("fat-tree", ft42, 1, 1);
	rt_route(&r, "minhop", "minhop");
	rt_assert_all_shortest(&r);
	/* The two LIDs of a remote HCA leave leaf1 by different spines. */
	int s = rt_sw(&r, "leaf1");
	for (int h = 3; h <= 8; h++) {
		char nid[8];
		snprintf(nid, sizeof(nid), "node%d", h);
		unsigned b = rt_lid(&r, nid);
		ck_assert_int_ne(*ibfs__subnet_lft(r.sn, s, b),
				 *ibfs__subnet_lft(r.sn, s, b + 1));
	}
	rt_free(&r);
}
END_TEST

START_TEST(unreachable_counted)
{
	/* Two switches with one HCA each and no link between them. */
	struct ibfs_topology *t = ibfs__topo_new("t");
	struct ibfs_diag d;
	int a = ibfs__topo_add_node(t, "a", IBFS_NODE_SWITCH, 4, 1, &d);
	int b = ibfs__topo_add_node(t, "b", IBFS_NODE_SWITCH, 4, 2, &d);
	int h1 = ibfs__topo_add_node(t, "h1", IBFS_NODE_HCA, 1, 3, &d);
	int h2 = ibfs__topo_add_node(t, "h2", IBFS_NODE_HCA, 1, 4, &d);
	ck_assert_int_ge(ibfs__topo_add_link(t, a, 1, h1, 1, IBFS_SPEED_EDR, 4,
					     2000, 5, &d), 0);
	ck_assert_int_ge(ibfs__topo_add_link(t, b, 1, h2, 1, IBFS_SPEED_EDR, 4,
					     2000, 6, &d), 0);
	ibfs__topo_assign_guids(t, 0x200000, 0x100000);
	struct ibfs_subnet *sn = ibfs__subnet_from_topo(t, &d);
	ck_assert_int_eq(ibfs__subnet_assign_lids(sn, 0, &d), 0);
	ck_assert_int_eq(ibfs__routing_run(sn, "minhop", NULL, &d), 0);
	struct ibfs_route_stats st;
	ck_assert_int_eq(ibfs__route_stats(sn, &st, NULL), 0);
	ck_assert_int_eq(st.unreachable, 2);
	ck_assert_ptr_nonnull(strstr(st.first_bad, "switch 'b' has no path to LID 3"));
	ibfs__subnet_free(sn);
	ibfs__topo_free(t);
}
END_TEST

static Suite *route_minhop_suite(void)
{
	Suite *s = suite_create("route_minhop");
	TCase *tc = tcase_create("minhop");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, lids_lmc0);
	tcase_add_test(tc, lids_lmc2);
	tcase_add_test(tc, lids_overflow);
	tcase_add_test(tc, engine_table);
	tcase_add_test(tc, minhop_shortest_everywhere);
	tcase_add_test(tc, minhop_balance_and_stats);
	tcase_add_test(tc, minhop_lmc_spreads_lids);
	tcase_add_test(tc, unreachable_counted);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(route_minhop_suite)
