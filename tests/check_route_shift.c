/* SPDX-License-Identifier: MIT */
/*
 * Shift permutations over ftree's tables, from the LFTs alone: HCA i (in
 * topology order) sends to HCA (i + s) mod N, as the scenario pattern
 * kind="shift" does, and each flow is followed switch by switch through
 * the forwarding tables. A directed link carrying two flows halves their
 * rate, so the figure checked is the largest number of flows on any
 * switch output port. On a complete k-ary n-tree with d-mod-k routing
 * (Zahavi et al., CCPE 2010) every shift puts at most one flow on every
 * link; an oversubscribed leaf with H HCAs and U up links cannot do better
 * than ceil(H / U) flows on an up link, and ftree must reach that bound.
 * With LMC every class of LIDs (the k-th LID of every port) is checked on
 * its own, as a sender picks one DLID of its destination.
 */
#include "check_route_util.h"

struct shift_ctx {
	int *hca;        /* node index of every HCA, in topology order */
	int nhca;
	int stride;      /* max ports + 1 */
	int *load;       /* flows per (switch, output port) */
};

static struct shift_ctx shift_ctx_new(const struct rt *r)
{
	struct shift_ctx c = {0};
	const struct ibfs_subnet *sn = r->sn;
	c.hca = malloc(sizeof(int) * (size_t)sn->nnodes);
	ck_assert_ptr_nonnull(c.hca);
	for (int n = 0; n < sn->nnodes; n++) {
		if (sn->nodes[n].type == IBFS_NODE_HCA)
			c.hca[c.nhca++] = n;
		if (sn->nodes[n].nports + 1 > c.stride)
			c.stride = sn->nodes[n].nports + 1;
	}
	c.load = malloc(sizeof(int) * (size_t)sn->nsw * (size_t)c.stride);
	ck_assert_ptr_nonnull(c.load);
	return c;
}

static void shift_ctx_free(struct shift_ctx *c)
{
	free(c->hca);
	free(c->load);
}

/*
 * The most flows on one switch output port under shift s towards the
 * off-th LID of each destination. Every flow must arrive, over a shortest
 * path (switch hops = switch distance).
 */
static int shift_max_load(const struct rt *r, struct shift_ctx *c, int s,
			  unsigned off)
{
	const struct ibfs_subnet *sn = r->sn;
	int path[64], max = 0;
	memset(c->load, 0, sizeof(int) * (size_t)sn->nsw * (size_t)c->stride);
	for (int i = 0; i < c->nhca; i++) {
		const struct ibfs_sn_node *src = &sn->nodes[c->hca[i]];
		const struct ibfs_sn_node *dst =
			&sn->nodes[c->hca[(i + s) % c->nhca]];
		unsigned lid = dst->ports[1].lid + off;
		int first = sn->nodes[src->ports[1].peer].sw;
		int n = rt_walk(r, first, lid, path);
		ck_assert_msg(n > 0, "shift %d: %s to %s is not routed", s,
			      src->name, dst->name);
		int last, lp;
		last = ibfs__subnet_lid_switch(sn, lid, &lp);
		ck_assert_int_eq(n - 1, r->fw[first * sn->nsw + last]);
		for (int h = 0; h < n; h++) {
			int p = *ibfs__subnet_lft(sn, path[h], lid);
			int *l = &c->load[path[h] * c->stride + p];
			if (++*l > max)
				max = *l;
		}
	}
	return max;
}

/*
 * Every shift 1..N-1 of a routed tree puts at most `bound` flows on a
 * port, and exactly `bound` when s is a multiple of `every` (0: none);
 * returns how many shifts reach `bound`.
 */
static int all_shifts(const struct rt *r, int bound, int every,
		      unsigned off)
{
	struct shift_ctx c = shift_ctx_new(r);
	int at = 0;
	for (int s = 1; s < c.nhca; s++) {
		int m = shift_max_load(r, &c, s, off);
		ck_assert_msg(m <= bound, "shift %d: %d flows share a link",
			      s, m);
		if (every && s % every == 0)
			ck_assert_msg(m == bound,
				      "shift %d: %d flows on the busiest link, not %d",
				      s, m, bound);
		at += m == bound;
	}
	shift_ctx_free(&c);
	return at;
}

START_TEST(shift_k16_l3)
{
	/* 1,024 HCAs: 16 pods of 8 leaves of 8. The lead's case: shifts by
	 * the pod size (64) and half the tree (512) cross the core. */
	static const char *const kv[] = {"k", "16", "levels", "3", NULL};
	struct rt r = rt_make("fat-tree", kv, 1, 0);
	rt_route(&r, "ftree", "ftree");
	struct shift_ctx c = shift_ctx_new(&r);
	ck_assert_int_eq(c.nhca, 1024);
	ck_assert_int_eq(shift_max_load(&r, &c, 64, 0), 1);
	ck_assert_int_eq(shift_max_load(&r, &c, 512, 0), 1);
	shift_ctx_free(&c);
	ck_assert_int_eq(all_shifts(&r, 1, 0, 0), 1023);
	rt_free(&r);
}
END_TEST

START_TEST(shift_k8_l3_and_k6)
{
	/* 128 HCAs (8 pods of 4 leaves of 4), then a radix that is not a
	 * power of two: 54 HCAs (6 pods of 3 leaves of 3). */
	static const char *const k8[] = {"k", "8", "levels", "3", NULL};
	static const char *const k6[] = {"k", "6", "levels", "3", NULL};
	struct rt r = rt_make("fat-tree", k8, 1, 0);
	rt_route(&r, "ftree", "ftree");
	ck_assert_int_eq(all_shifts(&r, 1, 0, 0), 127);
	rt_free(&r);
	r = rt_make("fat-tree", k6, 1, 0);
	rt_route(&r, "ftree", "ftree");
	ck_assert_int_eq(all_shifts(&r, 1, 0, 0), 53);
	rt_free(&r);
}
END_TEST

START_TEST(shift_xgft_complete)
{
	/* XGFT(3; 4,3,2; 1,4,3): leaves of 4 HCAs with 4 up links, pods of
	 * 3 leaves under 4 switches with 3 up links each, 2 pods: 24 HCAs,
	 * full bisection. And XGFT(3; 3,4,2; 1,3,4). */
	static const char *const a[] = {"m", "4,3,2", "w", "1,4,3", NULL};
	static const char *const b[] = {"m", "3,4,2", "w", "1,3,4", NULL};
	struct rt r = rt_make("xgft", a, 1, 0);
	rt_route(&r, "ftree", "ftree");
	ck_assert_int_eq(all_shifts(&r, 1, 0, 0), 23);
	rt_free(&r);
	r = rt_make("xgft", b, 1, 0);
	rt_route(&r, "ftree", "ftree");
	ck_assert_int_eq(all_shifts(&r, 1, 0, 0), 23);
	rt_free(&r);
}
END_TEST

START_TEST(shift_oversubscribed)
{
	/* k=8, 3 levels, 6 HCAs a leaf and 2 up links: a shift by a multiple
	 * of 6 sends all 6 flows of a leaf up, so some up link carries at
	 * least ceil(6 / 2) = 3; ftree must not exceed that anywhere. */
	static const char *const a[] = {"k", "8", "levels", "3", "hosts",
					"6", NULL};
	struct rt r = rt_make("fat-tree", a, 1, 0);
	rt_route(&r, "ftree", "ftree");
	ck_assert_int_ge(all_shifts(&r, 3, 6, 0), 191 / 6);
	rt_free(&r);
	/* XGFT(2; 4,3; 1,2): 4 HCAs a leaf on 2 up links: 2. */
	static const char *const b[] = {"m", "4,3", "w", "1,2", NULL};
	r = rt_make("xgft", b, 1, 0);
	rt_route(&r, "ftree", "ftree");
	ck_assert_int_ge(all_shifts(&r, 2, 4, 0), 2);
	rt_free(&r);
}
END_TEST

START_TEST(shift_lmc)
{
	/* LMC 2: each of the 4 LIDs of every port is spread on its own, and
	 * the 4 LIDs of one port leave any other leaf by its 4 different up
	 * ports (k=8: a leaf has 4). */
	static const char *const kv[] = {"k", "8", "levels", "3", NULL};
	struct rt r = rt_make("fat-tree", kv, 1, 2);
	rt_route(&r, "ftree", "ftree");
	for (unsigned off = 0; off < 4; off++)
		ck_assert_int_eq(all_shifts(&r, 1, 0, off), 127);
	struct shift_ctx c = shift_ctx_new(&r);
	const struct ibfs_subnet *sn = r.sn;
	for (int i = 0; i < c.nhca; i++) {
		const struct ibfs_sn_node *h = &sn->nodes[c.hca[i]];
		int leaf = sn->nodes[h->ports[1].peer].sw;
		for (int j = 0; j < c.nhca; j++) {
			const struct ibfs_sn_node *d = &sn->nodes[c.hca[j]];
			if (sn->nodes[d->ports[1].peer].sw == leaf)
				continue;
			unsigned used = 0, lid = d->ports[1].lid;
			for (unsigned off = 0; off < 4; off++)
				used |= 1u << *ibfs__subnet_lft(sn, leaf,
								lid + off);
			ck_assert_msg(__builtin_popcount(used) == 4,
				      "%s: the LIDs of %s leave by ports 0x%x",
				      h->name, d->name, used);
		}
		i += 3; /* one HCA a leaf is enough */
	}
	shift_ctx_free(&c);
	rt_free(&r);
}
END_TEST

static Suite *route_shift_suite(void)
{
	Suite *s = suite_create("route_shift");
	TCase *tc = tcase_create("shift");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, shift_k16_l3);
	tcase_add_test(tc, shift_k8_l3_and_k6);
	tcase_add_test(tc, shift_xgft_complete);
	tcase_add_test(tc, shift_oversubscribed);
	tcase_add_test(tc, shift_lmc);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(route_shift_suite)
