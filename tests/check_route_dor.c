/* SPDX-License-Identifier: MIT */
/*
 * dor: on a mesh every route corrects dimension 0 before dimension 1; on
 * a hypercube address bits are flipped from the lowest up (e-cube). Both
 * are deadlock-free; the wrap links of a torus close a credit loop, which
 * the analysis must find.
 */
#include "check_route_util.h"

/* Switch index -> generator index (sw<N> is index N-1). */
static int gen_index(const struct rt *r, int s)
{
	return atoi(r->sn->nodes[r->sn->sw_node[s]].name + 2) - 1;
}

START_TEST(dor_mesh_dimension_order)
{
	static const char *const kv[] = {"dims", "4x3", NULL};
	struct rt r = rt_make("mesh", kv, 1, 0);
	rt_route(&r, "dor", "dor");
	rt_assert_all_shortest(&r);
	int path[64], checked = 0;
	for (unsigned lid = 1; lid <= r.sn->max_lid; lid++) {
		if (r.sn->nodes[r.sn->lid_node[lid]].type == IBFS_NODE_SWITCH)
			continue;
		for (int s = 0; s < r.sn->nsw; s++) {
			int n = rt_walk(&r, s, lid, path);
			int moved_y = 0;
			for (int i = 0; i + 1 < n; i++) {
				int a = gen_index(&r, path[i]);
				int b = gen_index(&r, path[i + 1]);
				int dx = a % 4 != b % 4, dy = a / 4 != b / 4;
				ck_assert_int_eq(dx + dy, 1);
				ck_assert_msg(!(moved_y && dx),
					      "LID %u from sw%d moves in x after y",
					      lid, gen_index(&r, s) + 1);
				moved_y |= dy;
				checked++;
			}
		}
	}
	ck_assert_int_gt(checked, 50);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
}
END_TEST

START_TEST(dor_hypercube_ecube)
{
	static const char *const kv[] = {"dim", "4", NULL};
	struct rt r = rt_make("hypercube", kv, 1, 0);
	rt_route(&r, "dor", "dor");
	rt_assert_all_shortest(&r);
	int path[64];
	for (unsigned lid = 1; lid <= r.sn->max_lid; lid++) {
		if (r.sn->nodes[r.sn->lid_node[lid]].type == IBFS_NODE_SWITCH)
			continue;
		for (int s = 0; s < r.sn->nsw; s++) {
			int n = rt_walk(&r, s, lid, path);
			int last = -1;
			for (int i = 0; i + 1 < n; i++) {
				int x = gen_index(&r, path[i]) ^
					gen_index(&r, path[i + 1]);
				int bit = __builtin_ctz((unsigned)x);
				ck_assert_int_eq(x, 1 << bit);
				ck_assert_int_gt(bit, last);
				last = bit;
			}
		}
	}
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
}
END_TEST

START_TEST(dor_torus_has_credit_loop)
{
	static const char *const kv[] = {"n", "4", NULL};
	struct rt r = rt_make("ring", kv, 1, 0);
	rt_route(&r, "dor", "dor");
	char buf[512];
	ck_assert_int_eq(ibfs__credit_loops(r.sn, buf, sizeof(buf)), 1);
	/* Ties (2 hops either way) take port 1, the + direction, so the
	 * four + channels form the loop. */
	ck_assert_str_eq(buf,
			 "credit loop on VL 0: sw1:1 -> sw2:1 -> sw3:1 -> sw4:1 -> sw1:1");
	rt_free(&r);
}
END_TEST

static Suite *route_dor_suite(void)
{
	Suite *s = suite_create("route_dor");
	TCase *tc = tcase_create("dor");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, dor_mesh_dimension_order);
	tcase_add_test(tc, dor_hypercube_ecube);
	tcase_add_test(tc, dor_torus_has_credit_loop);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(route_dor_suite)
