/* SPDX-License-Identifier: MIT */
/*
 * dfsssp: shortest, balanced paths on any topology and SLs (virtual
 * layers) that leave no credit loop on any VL; when the fabric has too
 * few data VLs it fails with its error code and minhop takes over.
 */
#include "check_route_util.h"

/*
 * Every CA-to-CA path has an SL below vls, SLs map 1:1 to VLs, and the SLs
 * in use are 0..layers-1.
 */
static void assert_layers(const struct rt *r, int vls, int layers)
{
	const struct ibfs_subnet *sn = r->sn;
	int used[16] = {0};
	for (unsigned d = 1; d <= sn->max_lid; d++)
		for (unsigned s = 1; s <= sn->max_lid; s++)
			if (rt_is_ca_lid(sn, s) && rt_is_ca_lid(sn, d)) {
				int sl = ibfs__subnet_path_sl(sn, s, d);
				ck_assert_int_lt(sl, vls);
				used[sl] = 1;
			}
	for (int sl = 0; sl < 16; sl++) {
		ck_assert_int_eq(used[sl], sl < layers);
		ck_assert_int_eq(sn->sl2vl[sl], sl % vls);
	}
}

static void assert_paths_acyclic(const struct rt *r)
{
	ck_assert_msg(rt_paths_acyclic(r), "a dependency cycle on some VL");
}

START_TEST(dfsssp_ring)
{
	static const char *const kv[] = {"n", "5", NULL};
	struct rt r = rt_make("ring", kv, 2, 0);
	/* A ring of 5: minhop's 2-hop paths all turn the same way. */
	rt_route(&r, "minhop", "minhop");
	ck_assert_int_eq(rt_loops(&r), 1);
	rt_route(&r, "dfsssp", "dfsssp");
	rt_assert_all_shortest(&r);
	assert_layers(&r, 2, 2);
	ck_assert_int_eq(rt_loops(&r), 0);
	assert_paths_acyclic(&r);
	ck_assert_ptr_nonnull(strstr(r.sn->log, "dfsssp: 2 of 2 VLs used"));
	int sl1 = 0;
	for (unsigned lid = 1; lid <= r.sn->max_lid; lid++)
		sl1 += ibfs__subnet_path_sl(r.sn, 1, lid) == 1;
	ck_assert_int_gt(sl1, 0);
	rt_free(&r);
}
END_TEST

START_TEST(dfsssp_torus_and_dragonfly)
{
	static const char *const t44[] = {"dims", "4x4", NULL};
	static const char *const df[] = {"a", "4", "p", "2", "h", "2", NULL};
	struct rt r = rt_make("torus", t44, 4, 0);
	rt_route(&r, "dfsssp", "dfsssp");
	rt_assert_all_shortest(&r);
	assert_layers(&r, 4, 2);
	ck_assert_int_eq(rt_loops(&r), 0);
	assert_paths_acyclic(&r);
	rt_free(&r);
	r = rt_make("dragonfly", df, 4, 0);
	rt_route(&r, "dfsssp", "dfsssp");
	rt_assert_all_shortest(&r);
	ck_assert_int_eq(rt_loops(&r), 0);
	assert_paths_acyclic(&r);
	rt_free(&r);
}
END_TEST

START_TEST(dfsssp_too_few_vls)
{
	static const char *const kv[] = {"dim", "3", NULL};
	struct rt r = rt_make("hypercube", kv, 1, 0);
	rt_route(&r, "dfsssp", "minhop");
	ck_assert_ptr_nonnull(strstr(r.sn->log,
				     "ERR AD01: dfsssp: the paths through '"));
	ck_assert_ptr_nonnull(strstr(r.sn->log,
				     "still close a credit loop on the last of "
				     "the 1 data VL this fabric has: more are "
				     "needed (set data-vls)"));
	/* The fallback's tables come with no per-path SLs. */
	ck_assert_ptr_null(r.sn->src_sl);
	rt_free(&r);
}
END_TEST

START_TEST(dfsssp_fat_tree_one_layer)
{
	static const char *const kv[] = {"k", "4", "levels", "3", NULL};
	struct rt r = rt_make("fat-tree", kv, 1, 0);
	rt_route(&r, "dfsssp", "dfsssp");
	rt_assert_all_shortest(&r);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
}
END_TEST

/*
 * Layers per (source, destination) path as OpenSM's dfsssp: the 4x4 torus
 * fits 2 VLs (OpenSM 3.3.23 needs 3 on it over ibsim, counting paths to
 * switch LIDs too); with one layer per destination it needed 3 and fell
 * back to minhop.
 */
START_TEST(dfsssp_per_path_torus_2_vls)
{
	static const char *const kv[] = {"dims", "4x4", NULL};
	struct rt r = rt_make("torus", kv, 2, 0);
	rt_route(&r, "dfsssp", "dfsssp");
	rt_assert_all_shortest(&r);
	ck_assert_ptr_nonnull(strstr(r.sn->log, "dfsssp: 2 of 2 VLs used"));
	assert_layers(&r, 2, 2);
	ck_assert_int_eq(rt_loops(&r), 0);
	assert_paths_acyclic(&r);
	/* Per path: some destination is reached on both SLs. */
	int mixed = 0;
	for (unsigned d = 1; d <= r.sn->max_lid && !mixed; d++) {
		int seen[2] = {0, 0};
		for (unsigned s = 1; s <= r.sn->max_lid; s++)
			if (rt_is_ca_lid(r.sn, s) && rt_is_ca_lid(r.sn, d))
				seen[ibfs__subnet_path_sl(r.sn, s, d)] = 1;
		mixed = seen[0] && seen[1];
	}
	ck_assert_int_eq(mixed, 1);
	rt_free(&r);
}
END_TEST

/*
 * The 4x4x4 torus: 5 layers (OpenSM 3.3.23 needs 7, one layer a
 * destination needed 8), so it fits 8 data VLs with 3 to spare.
 */
START_TEST(dfsssp_per_path_torus_3d)
{
	static const char *const kv[] = {"dims", "4x4x4", NULL};
	struct rt r = rt_make("torus", kv, 8, 0);
	rt_route(&r, "dfsssp", "dfsssp");
	ck_assert_ptr_nonnull(strstr(r.sn->log, "dfsssp: 5 of 8 VLs used "
						"(CA-to-CA paths per VL: "));
	assert_layers(&r, 8, 5);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
}
END_TEST

/*
 * With LMC 1 (each LID of a destination port routed on its own, so more
 * dependencies: 3 layers) the two LIDs of a source port take the same SL
 * to each LID, and every path is deadlock-free.
 */
START_TEST(dfsssp_per_path_lmc)
{
	static const char *const kv[] = {"dims", "4x4", NULL};
	struct rt r = rt_make("torus", kv, 4, 1);
	rt_route(&r, "dfsssp", "dfsssp");
	assert_layers(&r, 4, 3);
	ck_assert_int_eq(rt_loops(&r), 0);
	assert_paths_acyclic(&r);
	for (unsigned d = 1; d <= r.sn->max_lid; d++)
		for (unsigned s = 2; s <= r.sn->max_lid; s += 2)
			if (rt_is_ca_lid(r.sn, s) && rt_is_ca_lid(r.sn, d))
				ck_assert_int_eq(
					ibfs__subnet_path_sl(r.sn, s, d),
					ibfs__subnet_path_sl(r.sn, s + 1, d));
	rt_free(&r);
}
END_TEST

/*
 * The credit-loop check reads the SL of each path: putting the paths of
 * layer 1 back on SL 0, one (source switch, destination) at a time, closes
 * a loop for some of them, and all at once surely.
 */
START_TEST(dfsssp_tampered_sl_caught)
{
	static const char *const kv[] = {"dims", "4x4", NULL};
	struct rt r = rt_make("torus", kv, 2, 0);
	rt_route(&r, "dfsssp", "dfsssp");
	struct ibfs_subnet *sn = r.sn;
	size_t cells = (size_t)sn->nsw * (sn->max_lid + 1);
	int moved = 0, caught = 0;
	for (size_t i = 0; i < cells; i++) {
		if (sn->src_sl[i] != 1)
			continue;
		moved++;
		sn->src_sl[i] = 0;
		caught += rt_loops(&r);
		sn->src_sl[i] = 1;
	}
	ck_assert_int_gt(moved, 0);
	ck_assert_int_gt(caught, 0);
	ck_assert_int_eq(rt_loops(&r), 0);
	memset(sn->src_sl, 0, cells);
	char buf[256];
	ck_assert_int_eq(ibfs__credit_loops(sn, buf, sizeof(buf)), 1);
	ck_assert_ptr_nonnull(strstr(buf, "credit loop on VL 0: "));
	ck_assert_int_eq(rt_paths_acyclic(&r), 0);
	rt_free(&r);
}
END_TEST

static Suite *route_dfsssp_suite(void)
{
	Suite *s = suite_create("route_dfsssp");
	TCase *tc = tcase_create("dfsssp");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, dfsssp_ring);
	tcase_add_test(tc, dfsssp_torus_and_dragonfly);
	tcase_add_test(tc, dfsssp_too_few_vls);
	tcase_add_test(tc, dfsssp_fat_tree_one_layer);
	tcase_add_test(tc, dfsssp_per_path_torus_2_vls);
	tcase_add_test(tc, dfsssp_per_path_torus_3d);
	tcase_add_test(tc, dfsssp_per_path_lmc);
	tcase_add_test(tc, dfsssp_tampered_sl_caught);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(route_dfsssp_suite)
