/* SPDX-License-Identifier: MIT */
/*
 * dfsssp: shortest, balanced paths on any topology and SLs (virtual
 * layers) that leave no credit loop on any VL; when the fabric has too
 * few data VLs it fails with its error code and minhop takes over.
 */
#include "check_route_util.h"

static void assert_layers(const struct rt *r, int vls)
{
	int used[16] = {0};
	for (unsigned lid = 1; lid <= r->sn->max_lid; lid++)
		if (r->sn->lid_node[lid] >= 0) {
			ck_assert_int_lt(r->sn->dst_sl[lid], vls);
			used[r->sn->dst_sl[lid]] = 1;
		}
	ck_assert_int_eq(used[0], 1);
	for (int sl = 0; sl < 16; sl++)
		ck_assert_int_eq(r->sn->sl2vl[sl], sl % vls);
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
	assert_layers(&r, 2);
	ck_assert_int_eq(rt_loops(&r), 0);
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
	assert_layers(&r, 4);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
	r = rt_make("dragonfly", df, 4, 0);
	rt_route(&r, "dfsssp", "dfsssp");
	rt_assert_all_shortest(&r);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
}
END_TEST

START_TEST(dfsssp_too_few_vls)
{
	static const char *const kv[] = {"dim", "3", NULL};
	struct rt r = rt_make("hypercube", kv, 1, 0);
	rt_route(&r, "dfsssp", "minhop");
	ck_assert_ptr_nonnull(strstr(r.sn->log, "ERR AD01: dfsssp: LID"));
	ck_assert_ptr_nonnull(strstr(r.sn->log,
				     "needs more than the 1 data VL this fabric has"));
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

static Suite *route_dfsssp_suite(void)
{
	Suite *s = suite_create("route_dfsssp");
	TCase *tc = tcase_create("dfsssp");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, dfsssp_ring);
	tcase_add_test(tc, dfsssp_torus_and_dragonfly);
	tcase_add_test(tc, dfsssp_too_few_vls);
	tcase_add_test(tc, dfsssp_fat_tree_one_layer);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(route_dfsssp_suite)
