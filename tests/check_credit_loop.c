/* SPDX-License-Identifier: MIT */
/*
 * Credit-loop analysis on hand-written tables: a ring of three switches
 * routed all clockwise has exactly one dependency cycle, on the three
 * clockwise channels; putting one destination on another VL breaks it.
 */
#include "check_common.h"
#include "subnet_manager/credit_loop.h"

/* s0-s2 in a ring (port 1 = next, port 2 = previous), h<i> on s<i>:3. */
static struct ibfs_subnet *ring3(int data_vls)
{
	static const char *const names[] = {"s0", "s1", "s2", "h0", "h1",
					    "h2"};
	struct ibfs_subnet *sn = ibfs__subnet_new(6);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(ibfs__subnet_set_node(sn, i, names[i],
						       IBFS_NODE_SWITCH, 3,
						       0x200000 + i), 0);
		ck_assert_int_eq(ibfs__subnet_set_node(sn, i + 3, names[i + 3],
						       IBFS_NODE_HCA, 1,
						       0x100000 + 2 * i), 0);
	}
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(ibfs__subnet_connect(sn, i, 1, (i + 1) % 3, 2),
				 0);
		ck_assert_int_eq(ibfs__subnet_connect(sn, i, 3, i + 3, 1), 0);
	}
	ck_assert_int_eq(ibfs__subnet_connect(sn, 0, 1, 1, 2), -1);
	ibfs__subnet_index(sn);
	sn->data_vls = data_vls;
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__subnet_assign_lids(sn, 0, &d), 0);
	/* LIDs: s0-s2 = 1-3, h0-h2 = 4-6. Everything goes clockwise. */
	for (int s = 0; s < 3; s++)
		for (int j = 0; j < 3; j++) {
			*ibfs__subnet_lft(sn, s, 1 + j) = s == j ? 0 : 1;
			*ibfs__subnet_lft(sn, s, 4 + j) = s == j ? 3 : 1;
		}
	return sn;
}

START_TEST(ring_cycle)
{
	struct ibfs_subnet *sn = ring3(1);
	char buf[256];
	ck_assert_int_eq(ibfs__credit_loops(sn, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf,
			 "credit loop on VL 0: s0:1 -> s1:1 -> s2:1 -> s0:1");
	ibfs__subnet_free(sn);
}
END_TEST

START_TEST(second_vl_breaks_it)
{
	struct ibfs_subnet *sn = ring3(2);
	char buf[256];
	ck_assert_int_eq(ibfs__credit_loops(sn, buf, sizeof(buf)), 1);
	sn->dst_sl[6] = 1; /* h2's paths on SL 1 -> VL 1 */
	ck_assert_int_eq(ibfs__credit_loops(sn, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "deadlock-free (no credit loop on 2 VLs)");
	ibfs__subnet_free(sn);
}
END_TEST

/*
 * Per-path SLs: the loop needs the 2-hop paths s0 -> h2, s1 -> h0 and
 * s2 -> h1; moving only the first to SL 1 breaks it, and then src_sl, not
 * dst_sl, is what counts.
 */
START_TEST(per_path_sl)
{
	struct ibfs_subnet *sn = ring3(2);
	char buf[256];
	ck_assert_int_eq(ibfs__subnet_alloc_src_sl(sn), 0);
	size_t row = sn->max_lid + 1;
	ck_assert_int_eq(ibfs__credit_loops(sn, buf, sizeof(buf)), 1);
	sn->src_sl[1 * row + 6] = 1; /* s1 -> h2: one hop, no dependency */
	ck_assert_int_eq(ibfs__credit_loops(sn, buf, sizeof(buf)), 1);
	sn->src_sl[0 * row + 6] = 1; /* s0 -> h2 on SL 1 -> VL 1 */
	ck_assert_int_eq(ibfs__credit_loops(sn, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "deadlock-free (no credit loop on 2 VLs)");
	ck_assert_int_eq(ibfs__subnet_path_sl(sn, 4, 6), 1);
	ck_assert_int_eq(ibfs__subnet_path_sl(sn, 5, 6), 1);
	ck_assert_int_eq(ibfs__subnet_path_sl(sn, 6, 4), 0);
	ck_assert_int_eq(ibfs__subnet_path_sl(sn, 4, 99), 0);
	sn->dst_sl[6] = 1; /* ignored while src_sl is set */
	sn->src_sl[0 * row + 6] = 0;
	ck_assert_int_eq(ibfs__credit_loops(sn, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf,
			 "credit loop on VL 0: s0:1 -> s1:1 -> s2:1 -> s0:1");
	/* Clearing the routes drops the table: dst_sl counts again. */
	ibfs__subnet_clear_routes(sn);
	ck_assert_ptr_null(sn->src_sl);
	ck_assert_int_eq(ibfs__subnet_path_sl(sn, 4, 6), 0);
	ibfs__subnet_free(sn);
}
END_TEST

START_TEST(graph_api)
{
	struct ibfs_subnet *sn = ring3(1);
	struct ibfs_cdg *g = ibfs__cdg_new(sn);
	uint32_t added[8];
	int sw[8], port[8];
	/* Each CA destination adds one dependency: the 2-hop route. */
	ck_assert_int_eq(ibfs__cdg_add_lid(g, 4, added), 1);
	ck_assert_int_eq(ibfs__cdg_add_lid(g, 4, added), 0);
	ck_assert_int_eq(ibfs__cdg_add_lid(g, 5, added), 1);
	ck_assert_int_eq(ibfs__cdg_find_cycle(g, sw, port, 8), 0);
	ck_assert_int_eq(ibfs__cdg_add_lid(g, 6, added), 1);
	ck_assert_int_eq(ibfs__cdg_find_cycle(g, sw, port, 8), 3);
	/* From the new edge only: the same cycle, entered at s1:1, the far
	 * end of h2's edge s0:1 -> s1:1 (s0 reaches s2 through s1). */
	ck_assert_int_eq(ibfs__cdg_find_cycle_added(g, added, 1, sw, port, 8),
			 3);
	ck_assert_int_eq(sw[0], 1);
	ck_assert_int_eq(sw[1], 2);
	ck_assert_int_eq(sw[2], 0);
	ck_assert_int_eq(sw[0] + sw[1] + sw[2], 3);
	ck_assert_int_eq(port[0] * port[1] * port[2], 1);
	/* A whole search, a cut, and the search resumed: no cycle left. */
	ck_assert_int_eq(ibfs__cdg_find_cycle(g, sw, port, 8), 3);
	ck_assert_int_eq(ibfs__cdg_nchan(g), 6);
	int64_t e = ibfs__cdg_edge(g, 0, 1, 1); /* s0:1 -> s1:1 */
	ck_assert_int_eq(e, added[0]);
	ck_assert_int_eq(ibfs__cdg_edge(g, 0, 3, 1), -1); /* to a CA */
	ibfs__cdg_set(g, (uint32_t)e, 0);
	ck_assert_int_eq(ibfs__cdg_find_cycle_resume(g, sw, port, 8), 0);
	ibfs__cdg_set(g, (uint32_t)e, 1);
	ck_assert_int_eq(ibfs__cdg_find_cycle(g, sw, port, 8), 3);
	ibfs__cdg_remove(g, added, 1);
	ck_assert_int_eq(ibfs__cdg_find_cycle(g, sw, port, 8), 0);
	ck_assert_int_eq(ibfs__cdg_find_cycle_added(g, added, 1, sw, port, 8),
			 0);
	/* Switch LIDs: one hop routes, no dependency. */
	ck_assert_int_eq(ibfs__cdg_add_lid(g, 2, added), 0);
	ibfs__cdg_free(g);
	ibfs__subnet_free(sn);
}
END_TEST

START_TEST(no_path_entries_ignored)
{
	struct ibfs_subnet *sn = ring3(1);
	*ibfs__subnet_lft(sn, 1, 4) = IBFS_LFT_NO_PATH; /* s1 -> h0 */
	char buf[256];
	ck_assert_int_eq(ibfs__credit_loops(sn, buf, sizeof(buf)), 0);
	ibfs__subnet_free(sn);
}
END_TEST

static Suite *credit_loop_suite(void)
{
	Suite *s = suite_create("credit_loop");
	TCase *tc = tcase_create("cdg");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, ring_cycle);
	tcase_add_test(tc, second_vl_breaks_it);
	tcase_add_test(tc, per_path_sl);
	tcase_add_test(tc, graph_api);
	tcase_add_test(tc, no_path_entries_ignored);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(credit_loop_suite)
