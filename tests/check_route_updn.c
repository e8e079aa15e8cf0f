/* SPDX-License-Identifier: MIT */
/*
 * updn and dnup: every route goes up (towards the roots, by rank then
 * GUID) and then down, never down then up; roots as OpenSM picks them;
 * the tables are deadlock-free where minhop's are not.
 */
#include "check_route_util.h"

static const char *const ft43[] = {"k", "4", "levels", "3", NULL};
static const char *const t44[] = {"dims", "4x4", NULL};
static const char *const df[] = {"a", "4", "p", "2", "h", "2", NULL};
static const char *const mesh[] = {"dims", "4x4", NULL};

/* rank[s] = distance from the switches whose name starts with `root`,
 * computed here from the Floyd-Warshall matrix. */
static void ranks_from(const struct rt *r, const char *root, int *rank)
{
	int ns = r->sn->nsw;
	for (int s = 0; s < ns; s++) {
		rank[s] = 1000;
		for (int q = 0; q < ns; q++)
			if (!strncmp(r->sn->nodes[r->sn->sw_node[q]].name, root,
				     strlen(root)) &&
			    r->fw[s * ns + q] < rank[s])
				rank[s] = r->fw[s * ns + q];
	}
}

/* 1 if going s -> v is up: lower rank, or same rank and lower GUID. */
static int is_up(const struct rt *r, const int *rank, int s, int v)
{
	if (rank[v] != rank[s])
		return rank[v] < rank[s];
	return r->sn->nodes[r->sn->sw_node[v]].guid <
	       r->sn->nodes[r->sn->sw_node[s]].guid;
}

/* Checks every CA route against up*-down* with the given ranks. */
static void assert_updn_legal(const struct rt *r, const int *rank, int sign)
{
	const struct ibfs_subnet *sn = r->sn;
	int path[64];
	int checked = 0;
	for (unsigned lid = 1; lid <= sn->max_lid; lid++) {
		if (sn->lid_node[lid] < 0 ||
		    sn->nodes[sn->lid_node[lid]].type == IBFS_NODE_SWITCH)
			continue;
		for (int s = 0; s < sn->nsw; s++) {
			int n = rt_walk(r, s, lid, path);
			ck_assert_int_gt(n, 0);
			int down = 0;
			for (int i = 0; i + 1 < n; i++) {
				int up = is_up(r, rank, path[i], path[i + 1]);
				if (sign < 0)
					up = !up;
				ck_assert_msg(!(down && up),
					      "LID %u from switch %d turns down then up at hop %d",
					      lid, s, i);
				down |= !up;
				checked++;
			}
		}
	}
	ck_assert_int_gt(checked, 0);
}

START_TEST(updn_fat_tree_roots_are_cores)
{
	struct rt r = rt_make("fat-tree", ft43, 1, 0);
	rt_route(&r, "updn", "updn");
	int rank[64];
	ranks_from(&r, "core", rank);
	assert_updn_legal(&r, rank, 1);
	rt_assert_all_shortest(&r);
	ck_assert_int_eq(rt_loops(&r), 0);
	/* OpenSM's rule found roots: no notice about a fallback root. */
	ck_assert_ptr_null(r.sn->log);
	rt_free(&r);
}
END_TEST

START_TEST(updn_roots_of_several_levels)
{
	/* k = 22: a pod holds 11*11 = 121 of the 2,662 HCAs, 4.5%, under
	 * OpenSM's 5% bar, so leaves, spines and cores all pass its rule:
	 * only the 121 cores, farthest from the CAs, may stay roots. */
	static const char *const kv[] = {"k", "22", "levels", "3", NULL};
	struct rt r = rt_make("fat-tree", kv, 1, 0);
	rt_route(&r, "updn", "updn");
	ck_assert_ptr_nonnull(strstr(r.sn->log,
				     "updn: 484 of the 605 switches that pass OpenSM's root rule are nearer the CAs"));
	rt_assert_all_shortest(&r);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
}
END_TEST

START_TEST(updn_torus_breaks_minhop_loop)
{
	struct rt r = rt_make("torus", t44, 1, 0);
	rt_route(&r, "minhop", "minhop");
	ck_assert_int_eq(rt_loops(&r), 1);
	rt_route(&r, "updn", "updn");
	/* No switch passes OpenSM's histogram rule on a torus; all have the
	 * same eccentricity, so the lowest GUID, sw1, is the root. */
	ck_assert_ptr_nonnull(r.sn->log);
	ck_assert_ptr_nonnull(strstr(r.sn->log, "root is 'sw1'"));
	int rank[64];
	ranks_from(&r, "sw1", rank);
	/* "sw1" also prefixes sw10..sw16: keep sw1 alone at rank 0. */
	for (int s = 0; s < r.sn->nsw; s++)
		rank[s] = r.fw[s * r.sn->nsw + rt_sw(&r, "sw1")];
	assert_updn_legal(&r, rank, 1);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
}
END_TEST

START_TEST(updn_given_roots)
{
	struct rt r = rt_make("mesh", mesh, 1, 0);
	struct ibfs_routing_opts o = {.root_guids = "0x200005"}; /* sw6 */
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__routing_run(r.sn, "updn", &o, &d), 0);
	ck_assert_str_eq(r.sn->engine, "updn");
	int rank[64];
	for (int s = 0; s < r.sn->nsw; s++)
		rank[s] = r.fw[s * r.sn->nsw + rt_sw(&r, "sw6")];
	assert_updn_legal(&r, rank, 1);
	ck_assert_int_eq(rt_loops(&r), 0);
	/* A GUID that is no switch: error line, fallback to minhop. */
	struct ibfs_routing_opts bad = {.root_guids = "0x100000"};
	ck_assert_int_eq(ibfs__routing_run(r.sn, "updn", &bad, &d), 0);
	ck_assert_str_eq(r.sn->engine, "minhop");
	ck_assert_ptr_nonnull(strstr(r.sn->log, "ERR AA02: root GUID '0x100000' is not a switch"));
	struct ibfs_routing_opts strict = {.root_guids = "junk",
					   .no_fallback = 1};
	ck_assert_int_eq(ibfs__routing_run(r.sn, "updn", &strict, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "routing engine 'updn' failed"));
	rt_free(&r);
}
END_TEST

START_TEST(updn_dragonfly_deadlock_free)
{
	struct rt r = rt_make("dragonfly", df, 1, 0);
	rt_route(&r, "minhop", "minhop");
	ck_assert_int_eq(rt_loops(&r), 1);
	rt_route(&r, "updn", "updn");
	ck_assert_int_eq(rt_loops(&r), 0);
	struct ibfs_route_stats st;
	ck_assert_int_eq(ibfs__route_stats(r.sn, &st, NULL), 0);
	ck_assert_int_eq(st.unreachable + st.loops, 0);
	rt_free(&r);
}
END_TEST

/*
 * Both leaves under spine1, spine2 without links (a switch the SM's last
 * sweep no longer found): it reaches no CA, so it is no root (it passed
 * OpenSM's rule with every CA counted at "unreachable", and as the only
 * root left no legal path); spine1 is, and updn routes.
 */
START_TEST(updn_switch_without_links_is_no_root)
{
	static const int up[][4] = {{0, 3, 2, 1}, {1, 3, 2, 2}};
	struct ibfs_topology *t;
	struct ibfs_subnet *sn = rt_two_leaves(&t, up, 2);
	struct ibfs_diag d;

	ck_assert_int_eq(ibfs__routing_run(sn, "updn", NULL, &d), 0);
	ck_assert_str_eq(sn->engine, "updn");
	ck_assert_ptr_null(sn->log ? strstr(sn->log, "ERR AA") : NULL);
	unsigned lid2 = sn->nodes[5].ports[1].lid;
	ck_assert_int_eq(*ibfs__subnet_lft(sn, sn->nodes[0].sw, lid2), 3);
	ck_assert_int_eq(*ibfs__subnet_lft(sn, sn->nodes[2].sw, lid2), 2);
	ibfs__subnet_free(sn);
	ibfs__topo_free(t);
}
END_TEST

START_TEST(dnup_fat_tree_and_failure)
{
	struct rt r = rt_make("fat-tree", ft43, 1, 0);
	rt_route(&r, "dnup", "dnup");
	/* dnup's order is the reverse of distance from the leaves: with
	 * ranks = -distance and the reversed sense, paths are still
	 * leaf-up-then-down in a fat tree. */
	int rank[64];
	ranks_from(&r, "leaf", rank);
	for (int s = 0; s < r.sn->nsw; s++)
		rank[s] = -rank[s];
	assert_updn_legal(&r, rank, 1);
	rt_assert_all_shortest(&r);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
	/* On a dragonfly every switch has CAs: the order is by GUID alone
	 * and some pairs have no down-up path: dnup fails, minhop runs. */
	r = rt_make("dragonfly", df, 1, 0);
	rt_route(&r, "dnup", "minhop");
	ck_assert_ptr_nonnull(strstr(r.sn->log, "ERR AE03: dnup: switch"));
	ck_assert_ptr_nonnull(strstr(r.sn->log,
				     "routing engine 'dnup' failed: falling back to minhop"));
	rt_free(&r);
}
END_TEST

static Suite *route_updn_suite(void)
{
	Suite *s = suite_create("route_updn");
	TCase *tc = tcase_create("updn");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, updn_fat_tree_roots_are_cores);
	tcase_add_test(tc, updn_roots_of_several_levels);
	tcase_add_test(tc, updn_torus_breaks_minhop_loop);
	tcase_add_test(tc, updn_given_roots);
	tcase_add_test(tc, updn_switch_without_links_is_no_root);
	tcase_add_test(tc, updn_dragonfly_deadlock_free);
	tcase_add_test(tc, dnup_fat_tree_and_failure);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(route_updn_suite)
