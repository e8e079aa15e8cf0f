/* SPDX-License-Identifier: MIT */
/*
 * lash: shortest paths on any topology, switch pairs on lanes (SL = VL)
 * whose dependency graphs have no cycle; too few data VLs make it fail
 * with ERR 4D02 and minhop takes over. Figures marked "OpenSM" were
 * measured with OpenSM 3.3.23's lash over ibsim on the same fabrics
 * (tests/opensm_conformance.sh): lanes and LFTs were the same.
 */
#include "check_route_util.h"

/* The number in the log's "lash: lanes needed: N of". */
static int lanes_needed(const struct rt *r)
{
	const char *p = r->sn->log ? strstr(r->sn->log, "lash: lanes needed: ")
				   : NULL;
	ck_assert_ptr_nonnull(p);
	return atoi(p + strlen("lash: lanes needed: "));
}

/*
 * The SLs of every CA-to-CA path: below `lanes`, 0 between CAs on one
 * switch, the same both ways (a pair takes one lane), and all of
 * 0..lanes-1 in use when every switch has CAs.
 */
static void assert_sls(const struct rt *r, int lanes)
{
	const struct ibfs_subnet *sn = r->sn;
	int used[16] = {0};
	for (unsigned s = 1; s <= sn->max_lid; s++)
		for (unsigned d = 1; d <= sn->max_lid; d++) {
			if (!rt_is_ca_lid(sn, s) || !rt_is_ca_lid(sn, d))
				continue;
			int sl = ibfs__subnet_path_sl(sn, s, d);
			ck_assert_int_lt(sl, lanes);
			ck_assert_int_eq(sl, ibfs__subnet_path_sl(sn, d, s));
			if (ibfs__subnet_lid_switch(sn, s, NULL) ==
			    ibfs__subnet_lid_switch(sn, d, NULL))
				ck_assert_int_eq(sl, 0);
			used[sl] = 1;
		}
	for (int l = 0; l < lanes; l++)
		ck_assert_int_eq(used[l], 1);
}

static void assert_deadlock_free(const struct rt *r)
{
	ck_assert_int_eq(rt_loops(r), 0);
	ck_assert_msg(rt_paths_acyclic(r), "a dependency cycle on some VL");
}

/*
 * A ring of 5: the 2-hop shortest paths i -> i+2 all turn one way and
 * their dependencies close a cycle, so one lane cannot do (minhop, with
 * no SLs, has that credit loop); lash needs exactly 2, as OpenSM.
 */
START_TEST(lash_ring_two_lanes)
{
	static const char *const kv[] = {"n", "5", "hcas", "2", NULL};
	struct rt r = rt_make("ring", kv, 4, 0);
	rt_route(&r, "minhop", "minhop");
	ck_assert_int_eq(rt_loops(&r), 1);
	rt_route(&r, "lash", "lash");
	ck_assert_int_eq(lanes_needed(&r), 2);
	ck_assert_ptr_nonnull(strstr(r.sn->log, "lash: lanes needed: 2 of 4 "
						"data VLs"));
	rt_assert_all_shortest(&r);
	assert_sls(&r, 2);
	assert_deadlock_free(&r);
	/* The SLs matter: all on SL 0, the same LFTs have a credit loop. */
	memset(r.sn->src_sl, 0, (size_t)r.sn->nsw * (r.sn->max_lid + 1));
	ck_assert_int_eq(rt_loops(&r), 1);
	rt_free(&r);
}
END_TEST

/*
 * A tree (leaf1 - spine1 - leaf2, spine1 - spine2): unique shortest
 * paths never turn back, so no dependency cycle and one lane; a 2-level
 * fat tree also fits one (OpenSM: 1).
 */
START_TEST(lash_trees_one_lane)
{
	static const int up[3][4] = {{0, 2, 2, 1}, {1, 2, 2, 2}, {2, 3, 3, 1}};
	struct rt r = {0};
	r.sn = rt_two_leaves(&r.t, up, 3);
	r.sn->data_vls = 1;
	rt_route(&r, "lash", "lash");
	ck_assert_int_eq(lanes_needed(&r), 1);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
	static const char *const kv[] = {"k", "4", NULL};
	r = rt_make("fat-tree", kv, 1, 0);
	rt_route(&r, "lash", "lash");
	ck_assert_int_eq(lanes_needed(&r), 1);
	rt_assert_all_shortest(&r);
	assert_sls(&r, 1);
	assert_deadlock_free(&r);
	rt_free(&r);
}
END_TEST

/*
 * Shortest paths everywhere (against Floyd-Warshall), lanes as OpenSM on
 * tori, a hypercube and a dragonfly, and no credit loop; with LMC 1 the
 * two LIDs of a port share route and SL.
 */
START_TEST(lash_shortest_and_free)
{
	static const struct {
		const char *kind;
		const char *kv[7];
		int lanes;
	} c[] = {
		{"torus", {"dims", "4x4", NULL}, 2},
		{"torus", {"dims", "4x4x4", NULL}, 5},
		{"hypercube", {"dim", "3", NULL}, 1},
		{"dragonfly", {"a", "4", "p", "2", "h", "2", NULL}, 3},
		{"fat-tree", {"k", "4", "levels", "3", NULL}, 3},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct rt r = rt_make(c[i].kind, c[i].kv, 8, 0);
		rt_route(&r, "lash", "lash");
		ck_assert_msg(lanes_needed(&r) == c[i].lanes,
			      "%s: %d lanes, expected %d", c[i].kind,
			      lanes_needed(&r), c[i].lanes);
		rt_assert_all_shortest(&r);
		ck_assert_int_eq(rt_loops(&r), 0);
		ck_assert(rt_paths_acyclic(&r));
		rt_free(&r);
	}
	static const char *const kv[] = {"dims", "4x4", NULL};
	struct rt r = rt_make("torus", kv, 8, 1);
	rt_route(&r, "lash", "lash");
	assert_sls(&r, 2);
	for (int s = 0; s < r.sn->nsw; s++)
		for (unsigned d = 2; d <= r.sn->max_lid; d += 2)
			if (rt_is_ca_lid(r.sn, d)) {
				ck_assert_int_eq(*ibfs__subnet_lft(r.sn, s, d),
						 *ibfs__subnet_lft(r.sn, s,
								   d + 1));
				ck_assert_int_eq(
					ibfs__subnet_path_sl(r.sn, d, d + 1),
					0);
			}
	rt_free(&r);
}
END_TEST

/* Hop counts along lash's tables equal minhop's, pair by pair. */
START_TEST(lash_hops_as_minhop)
{
	static const char *const kv[] = {"a", "4", "p", "2", "h", "2", NULL};
	struct rt r = rt_make("dragonfly", kv, 8, 0);
	size_t cells = (size_t)r.sn->nsw * (r.sn->max_lid + 1);
	uint8_t *h0 = calloc(cells, 1), *h1 = calloc(cells, 1);
	struct ibfs_route_stats st;
	rt_route(&r, "minhop", "minhop");
	ck_assert_int_eq(ibfs__route_stats(r.sn, &st, h0), 0);
	rt_route(&r, "lash", "lash");
	ck_assert_int_eq(ibfs__route_stats(r.sn, &st, h1), 0);
	ck_assert_int_eq(st.unreachable, 0);
	ck_assert_int_eq(st.loops, 0);
	ck_assert_int_eq(memcmp(h0, h1, cells), 0);
	free(h0);
	free(h1);
	rt_free(&r);
}
END_TEST

/*
 * One data VL on a ring of 5: lash needs 2 lanes, fails with ERR 4D02 and
 * the manager falls back to minhop, saying why.
 */
START_TEST(lash_too_few_vls)
{
	static const char *const kv[] = {"n", "5", NULL};
	struct rt r = rt_make("ring", kv, 1, 0);
	rt_route(&r, "lash", "minhop");
	ck_assert_ptr_nonnull(strstr(r.sn->fallback, "lash failed: ERR 4D02: "
						     "lash: lane requirements "
						     "(2) exceed the 1 data "
						     "VL of this fabric"));
	ck_assert_ptr_nonnull(strstr(r.sn->log, "routing engine 'lash' "
						"failed: falling back to "
						"minhop"));
	ck_assert_ptr_null(r.sn->src_sl);
	struct ibfs_routing_opts o = {.no_fallback = 1};
	struct ibfs_diag d = {{0}};
	ck_assert_int_eq(ibfs__routing_run(r.sn, "lash", &o, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "routing engine 'lash' failed: "
					    "ERR 4D02"));
	rt_free(&r);
}
END_TEST

/* Two runs give the same LFTs and SLs, byte for byte. */
START_TEST(lash_deterministic)
{
	static const char *const kv[] = {"dims", "4x4x4", NULL};
	struct rt r = rt_make("torus", kv, 8, 0);
	size_t cells = (size_t)r.sn->nsw * (r.sn->max_lid + 1);
	uint8_t *lft = malloc(cells), *sl = malloc(cells);
	rt_route(&r, "lash", "lash");
	memcpy(lft, r.sn->lft, cells);
	memcpy(sl, r.sn->src_sl, cells);
	rt_route(&r, "minhop", "minhop");
	rt_route(&r, "lash", "lash");
	ck_assert_int_eq(memcmp(lft, r.sn->lft, cells), 0);
	ck_assert_int_eq(memcmp(sl, r.sn->src_sl, cells), 0);
	free(lft);
	free(sl);
	rt_free(&r);
}
END_TEST

/*
 * Parts that do not reach each other: leaf1 - spine1 linked, leaf2 and
 * spine2 alone. Routes stay within a part, nothing else is set, and the
 * engine does not fail.
 */
START_TEST(lash_disconnected)
{
	static const int up[1][4] = {{0, 2, 2, 1}};
	struct rt r = {0};
	r.sn = rt_two_leaves(&r.t, up, 1);
	rt_route(&r, "lash", "lash");
	unsigned h1 = r.sn->nodes[4].ports[1].lid;
	unsigned h2 = r.sn->nodes[5].ports[1].lid;
	int leaf1 = rt_sw(&r, "leaf1"), leaf2 = rt_sw(&r, "leaf2");
	int spine1 = rt_sw(&r, "spine1"), spine2 = rt_sw(&r, "spine2");
	ck_assert_int_eq(*ibfs__subnet_lft(r.sn, leaf1, h1), 1);
	ck_assert_int_eq(*ibfs__subnet_lft(r.sn, spine1, h1), 1);
	ck_assert_int_eq(*ibfs__subnet_lft(r.sn, leaf2, h2), 1);
	ck_assert_int_eq(*ibfs__subnet_lft(r.sn, leaf1, h2), IBFS_LFT_NO_PATH);
	ck_assert_int_eq(*ibfs__subnet_lft(r.sn, spine2, h1),
			 IBFS_LFT_NO_PATH);
	ck_assert_int_eq(*ibfs__subnet_lft(r.sn, spine2,
					   r.sn->nodes[3].ports[0].lid),
			 0);
	ck_assert_int_eq(ibfs__subnet_path_sl(r.sn, h1, h2), 0);
	rt_free(&r);
}
END_TEST

static Suite *route_lash_suite(void)
{
	Suite *s = suite_create("route_lash");
	TCase *tc = tcase_create("lash");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, lash_ring_two_lanes);
	tcase_add_test(tc, lash_trees_one_lane);
	tcase_add_test(tc, lash_shortest_and_free);
	tcase_add_test(tc, lash_hops_as_minhop);
	tcase_add_test(tc, lash_too_few_vls);
	tcase_add_test(tc, lash_deterministic);
	tcase_add_test(tc, lash_disconnected);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(route_lash_suite)
