/* SPDX-License-Identifier: MIT */
/*
 * Tests of the HyperX, Dragonfly+ and Slim Fly generators
 * (src/fabric/topo_gen_direct.c). The expectations come from the
 * definitions in the papers, not from the generator: counts in closed
 * form, every switch's degree, no self-links and no duplicate links beyond
 * the parallel ones asked for, connectivity and the diameter by BFS over
 * the switch graph built here from the link list. Then every parameter
 * error.
 */
#include <stdio.h>
#include <string.h>

#include "check_common.h"
#include "topo_gen_test.h"

/*
 * The switch graph: sw[i] is the node index of switch i, mult[i*n + j] the
 * number of links between switches i and j, hcas[i] the HCAs on switch i.
 */
struct sg {
	int n;
	int *sw, *of, *mult, *hcas;
	int self, other; /* self-links; links joining two HCAs */
};

static void sg_build(const struct ibfs_topology *t, struct sg *g)
{
	memset(g, 0, sizeof(*g));
	g->of = malloc(t->nnodes * sizeof(int));
	g->sw = malloc(t->nnodes * sizeof(int));
	ck_assert_ptr_nonnull(g->of);
	ck_assert_ptr_nonnull(g->sw);
	for (size_t i = 0; i < t->nnodes; i++) {
		g->of[i] = -1;
		if (t->nodes[i].type == IBFS_NODE_SWITCH) {
			g->sw[g->n] = (int)i;
			g->of[i] = g->n++;
		}
	}
	size_t n = (size_t)g->n;
	g->mult = calloc(n * n, sizeof(int));
	g->hcas = calloc(n, sizeof(int));
	ck_assert_ptr_nonnull(g->mult);
	ck_assert_ptr_nonnull(g->hcas);
	for (size_t k = 0; k < t->nlinks; k++) {
		const struct ibfs_topo_link *l = &t->links[k];
		int a = g->of[l->node_a], b = g->of[l->node_b];
		if (l->node_a == l->node_b)
			g->self++;
		else if (a >= 0 && b >= 0) {
			g->mult[a * g->n + b]++;
			g->mult[b * g->n + a]++;
		} else if (a >= 0 || b >= 0)
			g->hcas[a >= 0 ? a : b]++;
		else
			g->other++;
	}
}

static void sg_free(struct sg *g)
{
	free(g->of);
	free(g->sw);
	free(g->mult);
	free(g->hcas);
}

/* Switch-to-switch links of switch i, and its distinct neighbours. */
static int sg_degree(const struct sg *g, int i, int *distinct)
{
	int deg = 0;
	*distinct = 0;
	for (int j = 0; j < g->n; j++) {
		deg += g->mult[i * g->n + j];
		*distinct += g->mult[i * g->n + j] > 0;
	}
	return deg;
}

/* BFS distances in switch hops from switch s; -1 when unreachable. */
static void sg_bfs(const struct sg *g, int s, int *dist)
{
	int *q = malloc((size_t)g->n * sizeof(int));
	ck_assert_ptr_nonnull(q);
	for (int i = 0; i < g->n; i++)
		dist[i] = -1;
	int hd = 0, tl = 0;
	dist[s] = 0;
	q[tl++] = s;
	while (hd < tl) {
		int x = q[hd++];
		for (int y = 0; y < g->n; y++)
			if (g->mult[x * g->n + y] && dist[y] < 0) {
				dist[y] = dist[x] + 1;
				q[tl++] = y;
			}
	}
	free(q);
}

/* The largest switch-hop distance; fails when the graph is cut. */
static int sg_diameter(const struct sg *g)
{
	int *dist = malloc((size_t)g->n * sizeof(int)), diam = 0;
	ck_assert_ptr_nonnull(dist);
	for (int s = 0; s < g->n; s++) {
		sg_bfs(g, s, dist);
		for (int v = 0; v < g->n; v++) {
			ck_assert_msg(dist[v] >= 0, "switch %d cannot reach %d",
				      s, v);
			diam = dist[v] > diam ? dist[v] : diam;
		}
	}
	free(dist);
	return diam;
}

/*
 * Builds g from t and checks a regular switch graph: no self-links, no
 * HCA-to-HCA links, and on every switch `deg` switch links to `distinct`
 * other switches and `hcas` HCAs.
 */
static void sg_regular(const struct ibfs_topology *t, struct sg *g, int deg,
		       int distinct, int hcas)
{
	all_ports_used(t);
	sg_build(t, g);
	ck_assert_int_eq(g->self, 0);
	ck_assert_int_eq(g->other, 0);
	for (int i = 0; i < g->n; i++) {
		int nd, d = sg_degree(g, i, &nd);
		ck_assert_int_eq(d, deg);
		ck_assert_int_eq(nd, distinct);
		ck_assert_int_eq(g->hcas[i], hcas);
	}
}

/*
 * HyperX S[0] x .. x S[nd-1], K links a pair, N HCAs a switch. The
 * coordinates of sw<s+1> are the mixed-radix digits of s, S[0] fastest
 * (the documented naming); two switches must be linked, K times, exactly
 * when their coordinates differ in one place.
 */
static void check_hyperx(const char *dims, const long *S, int nd, int k,
			 int hcas, const char *const *kv, int nkv)
{
	struct ibfs_diag d;
	int rc;
	struct ibfs_topology *t = gen("hyperx", kv, nkv, &d, &rc);
	ck_assert_msg(rc == 0, "hyperx %s: %s", dims, d.msg);
	long nsw = 1, nbr = 0;
	for (int i = 0; i < nd; i++) {
		nsw *= S[i];
		nbr += S[i] - 1;
	}
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), nsw);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), nsw * hcas);
	ck_assert_uint_eq(t->nlinks, nsw * hcas + nsw * nbr * k / 2);
	struct sg g;
	sg_regular(t, &g, k * nbr, nbr, hcas);
	for (int i = 0; i < g.n; i++) {
		ck_assert_int_eq(t->nodes[g.sw[i]].nports, k * nbr + hcas);
		long ci = atol(t->nodes[g.sw[i]].id + 2) - 1;
		for (int j = 0; j < g.n; j++) {
			long cj = atol(t->nodes[g.sw[j]].id + 2) - 1;
			int differ = 0;
			for (long a = ci, b = cj, x = 0; x < nd; x++) {
				differ += a % S[x] != b % S[x];
				a /= S[x];
				b /= S[x];
			}
			ck_assert_int_eq(g.mult[i * g.n + j],
					 differ == 1 ? k : 0);
		}
	}
	/* Ahn et al.: one hop a dimension in which two switches differ. */
	ck_assert_int_eq(sg_diameter(&g), nd);
	sg_free(&g);
	ibfs__topo_free(t);
}

START_TEST(hyperx_shapes)
{
	static const long s432[] = {4, 3, 2};
	static const char *const kv1[] = {"dims", "4x3x2", "width-k", "2",
					  "hcas", "2"};
	check_hyperx("4x3x2", s432, 3, 2, 2, kv1, 3);
	static const long s33[] = {3, 3};
	static const char *const kv2[] = {"dims", "3,3"};
	check_hyperx("3x3", s33, 2, 1, 1, kv2, 1);
	static const long s5[] = {5};
	static const char *const kv3[] = {"dims", "5", "hcas", "0"};
	check_hyperx("5", s5, 1, 1, 0, kv3, 2);
	static const long s2222[] = {2, 2, 2, 2};
	static const char *const kv4[] = {"dims", "2x2x2x2", "width-k", "3"};
	check_hyperx("2x2x2x2", s2222, 4, 3, 1, kv4, 2);
}
END_TEST

/* Group number (1-based) of "g<i>_..." and whether it is a leaf. */
static int dfp_group(const char *id, int *leaf)
{
	const char *u = strchr(id, '_');
	ck_assert_ptr_nonnull(u);
	*leaf = !strncmp(u + 1, "leaf", 4);
	ck_assert(*leaf || !strncmp(u + 1, "spine", 5));
	return atoi(id + 1);
}

/*
 * Dragonfly+ with A leaves and A spines a group, P HCAs a leaf, H global
 * links a spine, G groups: each group is a complete bipartite leaf-spine
 * graph; spines carry the global links, and every pair of groups gets
 * A*H/(G-1) of them. Leaf to leaf: 2 hops in a group, at most 3 across
 * (Shpiner et al.: up to the spine holding the global link, across it,
 * down).
 */
static void check_dfp(int a, int p, int h, int ng, const char *const *kv,
		      int nkv)
{
	struct ibfs_diag d;
	int rc;
	struct ibfs_topology *t = gen("dragonfly-plus", kv, nkv, &d, &rc);
	ck_assert_msg(rc == 0, "dragonfly-plus: %s", d.msg);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 2 * ng * a);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA), ng * a * p);
	int per_pair = a * h / (ng - 1);
	ck_assert_uint_eq(t->nlinks, (size_t)(ng * a * p + ng * a * a +
					      ng * (ng - 1) / 2 * per_pair));
	all_ports_used(t);
	struct sg g;
	sg_build(t, &g);
	ck_assert_int_eq(g.self, 0);
	ck_assert_int_eq(g.other, 0);
	int *grp = malloc((size_t)g.n * sizeof(int));
	int *leaf = malloc((size_t)g.n * sizeof(int));
	int *pair = calloc((size_t)(ng + 1) * (ng + 1), sizeof(int));
	ck_assert(grp && leaf && pair);
	for (int i = 0; i < g.n; i++)
		grp[i] = dfp_group(t->nodes[g.sw[i]].id, &leaf[i]);
	for (int i = 0; i < g.n; i++) {
		int to_leaf = 0, to_spine = 0, global = 0;
		for (int j = 0; j < g.n; j++) {
			int m = g.mult[i * g.n + j];
			ck_assert_int_le(m, 1);
			if (!m)
				continue;
			ck_assert_msg(!(leaf[i] && leaf[j]), "leaf-leaf link");
			if (leaf[i] != leaf[j]) {
				ck_assert_int_eq(grp[i], grp[j]);
				to_leaf += !leaf[j];
				to_spine += leaf[j];
			} else {
				ck_assert_int_ne(grp[i], grp[j]);
				global++;
				pair[grp[i] * (ng + 1) + grp[j]]++;
			}
		}
		if (leaf[i]) {
			ck_assert_int_eq(to_leaf, a); /* every spine */
			ck_assert_int_eq(g.hcas[i], p);
		} else {
			ck_assert_int_eq(to_spine, a); /* every leaf */
			ck_assert_int_eq(global, h);
			ck_assert_int_eq(g.hcas[i], 0);
		}
	}
	for (int x = 1; x <= ng; x++)
		for (int y = 1; y <= ng; y++)
			ck_assert_int_eq(pair[x * (ng + 1) + y],
					 x == y ? 0 : per_pair);
	int *dist = malloc((size_t)g.n * sizeof(int));
	ck_assert_ptr_nonnull(dist);
	for (int s = 0; s < g.n; s++) {
		if (!leaf[s])
			continue;
		sg_bfs(&g, s, dist);
		for (int v = 0; v < g.n; v++) {
			ck_assert_int_ge(dist[v], 0);
			if (!leaf[v] || v == s)
				continue;
			if (grp[v] == grp[s])
				ck_assert_int_eq(dist[v], 2);
			else
				ck_assert_int_le(dist[v], 3);
		}
	}
	free(dist);
	free(grp);
	free(leaf);
	free(pair);
	sg_free(&g);
	ibfs__topo_free(t);
}

START_TEST(dragonfly_plus_shapes)
{
	/* G = A*H + 1 = 7 groups, one global link a pair. */
	static const char *const kv1[] = {"a", "3", "p", "2", "h", "2"};
	check_dfp(3, 2, 2, 7, kv1, 3);
	/* G = 4: A*H = 6 global ports a group, 2 links a pair of groups. */
	static const char *const kv2[] = {"a", "3", "p", "1", "h", "2",
					  "g", "4"};
	check_dfp(3, 1, 2, 4, kv2, 4);
	/* Two groups of one leaf and one spine with 3 links between them. */
	static const char *const kv3[] = {"a", "1", "p", "2", "h", "3",
					  "g", "2"};
	struct ibfs_diag d;
	int rc;
	struct ibfs_topology *t = gen("dragonfly-plus", kv3, 4, &d, &rc);
	ck_assert_int_eq(rc, 0);
	struct sg g;
	sg_build(t, &g);
	int s1 = g.of[ibfs__topo_find(t, "g1_spine1")];
	int s2 = g.of[ibfs__topo_find(t, "g2_spine1")];
	ck_assert_int_eq(g.mult[s1 * g.n + s2], 3);
	sg_free(&g);
	ibfs__topo_free(t);
}
END_TEST

/*
 * Slim Fly over GF(q), q = 4w + d a prime power: 2q^2 switches, all of
 * network radix k' = (3q - d)/2, a simple graph of diameter 2 (Besta and
 * Hoefler, table 2 and section 2.1).
 */
static void check_slimfly(int q, int hcas, const char *const *kv, int nkv)
{
	struct ibfs_diag d;
	int rc;
	struct ibfs_topology *t = gen("slimfly", kv, nkv, &d, &rc);
	ck_assert_msg(rc == 0, "slimfly q=%d: %s", q, d.msg);
	int dd = q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0;
	int kp = (3 * q - dd) / 2;
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_SWITCH), 2 * q * q);
	ck_assert_uint_eq(ibfs__topo_count(t, IBFS_NODE_HCA),
			  2 * q * q * hcas);
	ck_assert_uint_eq(t->nlinks, (size_t)(2 * q * q * hcas + q * q * kp));
	struct sg g;
	sg_regular(t, &g, kp, kp, hcas); /* no parallel links */
	ck_assert_int_eq(sg_diameter(&g), 2);
	sg_free(&g);
	ibfs__topo_free(t);
}

START_TEST(slimfly_shapes)
{
	/* d = -1 (q = 3, 7, 11) and d = 1 (q = 5, 13); default HCAs
	 * ceil(k'/2). */
	static const char *const q3[] = {"q", "3"};
	check_slimfly(3, 3, q3, 1);
	static const char *const q5[] = {"q", "5", "hcas", "1"};
	check_slimfly(5, 1, q5, 2);
	static const char *const q7[] = {"q", "7"};
	check_slimfly(7, 6, q7, 1);
	static const char *const q11[] = {"q", "11", "hcas", "0"};
	check_slimfly(11, 0, q11, 2);
	static const char *const q13[] = {"q", "13", "hcas", "2"};
	check_slimfly(13, 2, q13, 2);
	/* Prime powers: GF(4), GF(8), GF(16) (d = 0), GF(9) (d = 1). */
	static const char *const q4[] = {"q", "4"};
	check_slimfly(4, 3, q4, 1);
	static const char *const q8[] = {"q", "8", "hcas", "1"};
	check_slimfly(8, 1, q8, 2);
	static const char *const q9[] = {"q", "9", "hcas", "1"};
	check_slimfly(9, 1, q9, 2);
	static const char *const q16[] = {"q", "16", "hcas", "0"};
	check_slimfly(16, 0, q16, 2);
}
END_TEST

/* A second fabric with the same prefix collides on the first id. */
START_TEST(prefix_collides)
{
	static const struct {
		const char *kind;
		struct ibfs_gen_param p[3];
		int n;
	} c[] = {
		{"hyperx", {{"dims", "2x2"}}, 1},
		{"dragonfly-plus", {{"a", "1"}, {"p", "1"}, {"h", "1"}}, 3},
		{"slimfly", {{"q", "3"}}, 1},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ibfs_topology *t = ibfs__topo_new("t");
		struct ibfs_diag d;
		ck_assert_int_eq(ibfs__topo_generate(t, c[i].kind, c[i].p,
						     c[i].n, "x_", "f", 1, &d),
				 0);
		ck_assert_int_eq(ibfs__topo_generate(t, c[i].kind, c[i].p,
						     c[i].n, "x_", "f", 1, &d),
				 -1);
		ibfs__topo_free(t);
	}
}
END_TEST

/* Every refusal of the three generators, with its message. */
static const struct {
	const char *kind;
	const char *kv[8];
	int n;
	const char *msg;
} bad[] = {
	{"hyperx", {NULL}, 0, "hyperx needs parameter 'dims'"},
	{"hyperx", {"dims", "4x1"}, 1,
	 "dims='4x1' must be up to 6 integers from 2 to 255"},
	{"hyperx", {"dims", "2x2x2x2x2x2x2"}, 1, "must be up to 6 integers"},
	{"hyperx", {"dims", "3x3", "hcas", "65"}, 2,
	 "hcas='65' must be an integer from 0 to 64"},
	{"hyperx", {"dims", "3x3", "width-k", "0"}, 2,
	 "width-k='0' must be an integer from 1 to 254"},
	{"hyperx", {"dims", "128x128"}, 1,
	 "K*sum(S-1) + hcas = 255 ports is more than 254"},
	{"hyperx", {"dims", "3x3", "width-k", "63", "hcas", "3"}, 3,
	 "= 255 ports is more than 254"},
	{"hyperx", {"dims", "43x43x43x43x43x43"}, 1, "nodes is more than"},
	{"hyperx", {"dims", "3x3", "k", "2"}, 2,
	 "hyperx: unknown parameter 'k'"},
	{"dragonfly-plus", {"p", "2", "h", "2"}, 2,
	 "dragonfly-plus needs parameter 'a'"},
	{"dragonfly-plus", {"a", "0", "p", "2", "h", "2"}, 3,
	 "a='0' must be an integer from 1"},
	{"dragonfly-plus", {"a", "2", "p", "2", "h", "0"}, 3,
	 "h='0' must be an integer from 1"},
	{"dragonfly-plus", {"a", "200", "p", "55", "h", "2"}, 3,
	 "leaves need p+a = 255 ports"},
	{"dragonfly-plus", {"a", "200", "p", "2", "h", "55"}, 3,
	 "spines a+h = 255, more than 254"},
	{"dragonfly-plus", {"a", "3", "p", "1", "h", "2", "g", "5"}, 4,
	 "a*h = 6 global links per group must be a multiple of g-1 = 4"},
	{"dragonfly-plus", {"a", "3", "p", "1", "h", "2", "g", "8"}, 4,
	 "g='8' must be an integer from 2 to 7"},
	{"dragonfly-plus", {"a", "127", "p", "127", "h", "127"}, 3,
	 "nodes is more than"},
	{"dragonfly-plus", {"a", "2", "p", "2", "h", "2", "spines", "2"}, 4,
	 "unknown parameter 'spines'"},
	{"slimfly", {NULL}, 0, "slimfly needs parameter 'q'"},
	{"slimfly", {"q", "2"}, 1, "q='2' must be an integer from 3 to 254"},
	{"slimfly", {"q", "6"}, 1,
	 "slimfly: q=6 is not a prime power; the MMS graph needs the field GF(q)"},
	{"slimfly", {"q", "12"}, 1, "q=12 is not a prime power"},
	{"slimfly", {"q", "250"}, 1, "q=250 is not a prime power"},
	/* q = 167: k' = 251 leaves room for 3 HCAs, not ceil(251/2). */
	{"slimfly", {"q", "167"}, 1,
	 "k' + hcas = 251 + 126 ports is more than 254"},
	{"slimfly", {"q", "173", "hcas", "0"}, 2, "k' + hcas = 259 + 0 ports"},
	{"slimfly", {"q", "5", "hcas", "x"}, 2,
	 "hcas='x' must be an integer from 0 to 254"},
	{"slimfly", {"q", "5", "p", "2"}, 2, "slimfly: unknown parameter 'p'"},
	{"slimfly-", {NULL}, 0,
	 "unknown topology 'slimfly-' (fat-tree, xgft, mesh, torus, ring, hypercube, dragonfly, hyperx, dragonfly-plus, slimfly)"},
};

START_TEST(errors)
{
	expect_error(bad[_i].kind, bad[_i].kv, bad[_i].n, bad[_i].msg);
}
END_TEST

static Suite *topo_gen_direct_suite(void)
{
	Suite *s = suite_create("topo_gen_direct");
	TCase *tc = tcase_create("gen");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, hyperx_shapes);
	tcase_add_test(tc, dragonfly_plus_shapes);
	tcase_add_test(tc, slimfly_shapes);
	tcase_add_test(tc, prefix_collides);
	tcase_add_loop_test(tc, errors, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(topo_gen_direct_suite)
