/* SPDX-License-Identifier: MIT */
/*
 * The shapes of NCCL's double binary tree (traffic_collective_trees.c) for
 * 2 to 200 ranks: the simulator derives each rank's parent; this test
 * derives each rank's children by NCCL's other rule (trees.cc: a rank
 * with lowest set bit b has the children r - b/2 and r + h, h the largest
 * of b/2, b/4, ... with r + h below N; rank 0 the largest power of two
 * below N) and checks that both agree, with one root a tree (0, and 1 or
 * N - 1 for tree 1), at most two children a rank, a depth of at most
 * log2 N + 1, and no rank but 0 inner in both trees. And the actors a
 * double tree needs an HCA, which the bridge counts against its budget of
 * memory mappings: five (three collective posters: up and down on the
 * tree it is inner in, up on the other).
 */
#include "check_common.h"
#include "fabric/diag.h"
#include "scenario/scenario.h"
#include "scenario/traffic_int.h"

#define MAXN 200

/* NCCL's children of rank r in tree 0 of n ranks; returns how many. */
static int kids0(size_t r, size_t n, size_t k[2])
{
	size_t b = 1;
	if (!r) {
		while (b < n)
			b <<= 1;
		k[0] = b >> 1;
		return 1;
	}
	while (!(r & b))
		b <<= 1;
	size_t h = b >> 1;
	if (!h)
		return 0;
	k[0] = r - h;
	while (h && r + h >= n)
		h >>= 1;
	if (!h)
		return 1;
	k[1] = r + h;
	return 2;
}

/* The same for tree 1: tree 0 shifted by one (n odd) or mirrored. */
static int kids1(size_t r, size_t n, size_t k[2])
{
	size_t x = n % 2 ? (r + n - 1) % n : n - 1 - r;
	int m = kids0(x, n, k);
	for (int i = 0; i < m; i++)
		k[i] = n % 2 ? (k[i] + 1) % n : n - 1 - k[i];
	return m;
}

START_TEST(parents_match_nccl_children)
{
	for (size_t n = 2; n <= MAXN; n++)
		for (int t = 0; t < 2; t++) {
			size_t nkids[MAXN] = {0}, roots = 0, root = TR_NONE;
			for (size_t r = 0; r < n; r++) {
				size_t k[2];
				int m = t ? kids1(r, n, k) : kids0(r, n, k);
				for (int i = 0; i < m; i++)
					ck_assert_uint_eq(
						ibfs__tr_dtree_parent(t, k[i],
								      n),
						r);
				size_t p = ibfs__tr_dtree_parent(t, r, n);
				if (p == TR_NONE) {
					roots++;
					root = r;
				} else {
					ck_assert_uint_lt(p, n);
					nkids[p]++;
				}
			}
			ck_assert_uint_eq(roots, 1);
			ck_assert_uint_eq(root, t ? (n % 2 ? 1 : n - 1) : 0);
			for (size_t r = 0; r < n; r++) {
				size_t k[2];
				int m = t ? kids1(r, n, k) : kids0(r, n, k);
				ck_assert_uint_eq(nkids[r], (size_t)m);
			}
		}
}
END_TEST

START_TEST(trees_are_shallow)
{
	for (size_t n = 2; n <= MAXN; n++) {
		size_t lg = 0;
		while ((size_t)1 << lg < n)
			lg++;
		for (int t = 0; t < 2; t++)
			for (size_t r = 0; r < n; r++) {
				size_t d = 0;
				for (size_t u = r; u != TR_NONE;
				     u = ibfs__tr_dtree_parent(t, u, n))
					ck_assert_uint_le(++d, lg + 1);
			}
	}
}
END_TEST

START_TEST(inner_in_one_tree)
{
	for (size_t n = 3; n <= MAXN; n++) {
		int inner[2][MAXN] = {{0}};
		for (int t = 0; t < 2; t++)
			for (size_t r = 0; r < n; r++) {
				size_t p = ibfs__tr_dtree_parent(t, r, n);
				if (p != TR_NONE)
					inner[t][p]++;
			}
		ck_assert_int_eq(inner[0][0], 1);
		for (size_t r = 1; r < n; r++)
			ck_assert_msg(!(inner[0][r] && inner[1][r]),
				      "rank %zu of %zu inner in both", r, n);
	}
}
END_TEST

/* The most actors an HCA of examples/NAME's traffic starts. */
static size_t host_actors(const char *name)
{
	char path[1024];
	struct ibfs_diag d = {0};
	snprintf(path, sizeof(path), "%s/examples/%s", IBFS_SRC(""), name);
	struct ibfs_scenario *sc = ibfs__scenario_load(path, &d);
	ck_assert_msg(sc != NULL, "%s: %s", path, d.msg);
	struct ibfs_traffic *t = ibfs__traffic_plan(sc, 1, &d);
	ck_assert_ptr_nonnull(t);
	size_t n = ibfs__traffic_host_actors(t);
	ibfs__traffic_free(t);
	ibfs__scenario_free(sc);
	return n;
}

START_TEST(actors_an_hca)
{
	ck_assert_uint_eq(host_actors("collectives_trees.xml"), 5);
	ck_assert_uint_eq(host_actors("collectives_algos.xml"), 3);
	ck_assert_uint_eq(host_actors("rdma_write.xml"), 3);
}
END_TEST

static Suite *coll_trees_suite(void)
{
	Suite *s = suite_create("coll_trees");
	TCase *tc = tcase_create("shapes");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, parents_match_nccl_children);
	tcase_add_test(tc, trees_are_shallow);
	tcase_add_test(tc, inner_in_one_tree);
	tcase_add_test(tc, actors_an_hca);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(coll_trees_suite)
