/* SPDX-License-Identifier: MIT */
/*
 * ftree: on complete fat trees every route is shortest and up-then-down,
 * and every switch spreads the LIDs it sends up evenly: the up ports of a
 * switch carry the same number of CA LIDs, within one, whose value follows
 * from counting the HCAs that are not below the switch. Fabrics that are
 * not fat trees get an error line naming switch and port, and minhop.
 * Every CA-to-CA path is the one the real OpenSM's ftree takes: tables
 * OpenSM 3.3.23 wrote (`opensm -R ftree` over ibsim 0.10 on the fabric
 * exported by `ibfsim topo export`, LIDs pinned to ours through its
 * guid2lid cache, as tests/opensm_conformance.sh runs it) are kept in
 * tests/data/sm/osm-ftree-*.lfts and loaded with the file engine.
 */
#include "check_route_util.h"

/* CA LIDs forwarded through each port of switch `id`. */
static void port_loads(const struct rt *r, const char *id, int *load)
{
	int s = rt_sw(r, id);
	const struct ibfs_sn_node *n = &r->sn->nodes[r->sn->sw_node[s]];
	for (int p = 0; p <= n->nports; p++)
		load[p] = 0;
	for (unsigned lid = 1; lid <= r->sn->max_lid; lid++) {
		int o = r->sn->lid_node[lid];
		if (o >= 0 && r->sn->nodes[o].type != IBFS_NODE_SWITCH) {
			int p = *ibfs__subnet_lft(r->sn, s, lid);
			ck_assert_int_le(p, n->nports);
			load[p]++;
		}
	}
}

/* Up ports first..last of every switch named prefix1..count carry
 * exactly `each` CA LIDs. */
static void assert_up_loads(const struct rt *r, const char *prefix,
			    int count, int first, int last, int each)
{
	for (int i = 1; i <= count; i++) {
		char id[16];
		int load[64];
		snprintf(id, sizeof(id), "%s%d", prefix, i);
		port_loads(r, id, load);
		for (int p = first; p <= last; p++)
			ck_assert_msg(load[p] == each,
				      "%s port %d carries %d CA LIDs, not %d",
				      id, p, load[p], each);
	}
}

START_TEST(ftree_k4_l3)
{
	static const char *const kv[] = {"k", "4", "levels", "3", NULL};
	struct rt r = rt_make("fat-tree", kv, 1, 0);
	rt_route(&r, "ftree", "ftree");
	rt_assert_all_shortest(&r);
	ck_assert_int_eq(rt_loops(&r), 0);
	/* 16 HCAs. A leaf has 2 below it: 14 go up over ports 3-4: 7 each.
	 * A spine has 4 below it: 12 go up over ports 3-4: 6 each. A core
	 * sends 4 down each port (the HCAs of one pod). */
	assert_up_loads(&r, "leaf", 8, 3, 4, 7);
	assert_up_loads(&r, "spine", 8, 3, 4, 6);
	assert_up_loads(&r, "core", 4, 1, 4, 4);
	rt_free(&r);
}
END_TEST

START_TEST(ftree_k8_l2_and_lmc)
{
	static const char *const kv[] = {"k", "8", "levels", "2", NULL};
	struct rt r = rt_make("fat-tree", kv, 1, 0);
	rt_route(&r, "ftree", "ftree");
	rt_assert_all_shortest(&r);
	/* 32 HCAs; a leaf has 4: 28 up over ports 5-8: 7 each. */
	assert_up_loads(&r, "leaf", 8, 5, 8, 7);
	rt_free(&r);
	/* LMC 1: 64 CA LIDs, a leaf sends 56 up: 14 a port. */
	r = rt_make("fat-tree", kv, 1, 1);
	rt_route(&r, "ftree", "ftree");
	rt_assert_all_shortest(&r);
	assert_up_loads(&r, "leaf", 8, 5, 8, 14);
	rt_free(&r);
}
END_TEST

START_TEST(ftree_xgft_oversubscribed)
{
	/* XGFT(2; 4,3; 1,2): 3 leaves of 4 HCAs, 2 up ports each: the 8
	 * HCAs of other leaves split 4 and 4. */
	static const char *const kv[] = {"m", "4,3", "w", "1,2", NULL};
	struct rt r = rt_make("xgft", kv, 1, 0);
	rt_route(&r, "ftree", "ftree");
	rt_assert_all_shortest(&r);
	assert_up_loads(&r, "leaf", 3, 5, 6, 4);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
}
END_TEST

START_TEST(ftree_oversubscribed_three_levels)
{
	/* k=8, 3 levels, 6 HCAs a leaf: 32 leaves, 192 HCAs; a leaf sends
	 * the 186 others over its 2 up ports (7, 8): 93 each. */
	static const char *const kv[] = {"k", "8", "levels", "3", "hosts",
					 "6", NULL};
	struct rt r = rt_make("fat-tree", kv, 1, 0);
	rt_route(&r, "ftree", "ftree");
	rt_assert_all_shortest(&r);
	assert_up_loads(&r, "leaf", 32, 7, 8, 93);
	ck_assert_int_eq(rt_loops(&r), 0);
	rt_free(&r);
}
END_TEST

START_TEST(ftree_rejects_torus)
{
	static const char *const kv[] = {"dims", "4x4", NULL};
	struct rt r = rt_make("torus", kv, 1, 0);
	rt_route(&r, "ftree", "minhop");
	ck_assert_ptr_nonnull(strstr(r.sn->log,
				     "ERR AB03: ftree: switch 'sw1' GUID 0x0000000000200000 port 1 links to 'sw2' GUID 0x0000000000200001 port 2 on level 1"));
	struct ibfs_routing_opts o = {.no_fallback = 1};
	struct ibfs_diag d;
	ck_assert_int_eq(ibfs__routing_run(r.sn, "ftree", &o, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.msg, "routing engine 'ftree' failed: "
					    "ERR AB03: ftree: switch 'sw1'"));
	rt_free(&r);
}
END_TEST

START_TEST(ftree_rejects_incomplete)
{
	/* leaf2 reaches spine1 only. */
	static const int up[][4] = {{0, 3, 2, 1}, {0, 4, 3, 1}, {1, 3, 2, 2}};
	struct ibfs_topology *t;
	struct ibfs_subnet *sn = rt_two_leaves(&t, up, 3);
	struct ibfs_diag d;

	ck_assert_int_eq(ibfs__routing_run(sn, "ftree", NULL, &d), 0);
	ck_assert_str_eq(sn->engine, "minhop");
	ck_assert_ptr_nonnull(strstr(sn->log,
				     "ERR AB06: ftree: leaf 'leaf2' GUID 0x0000000000200001 port 0 is below 1 of the 2 top switches only"));
	ibfs__subnet_free(sn);
	ibfs__topo_free(t);
}
END_TEST

/*
 * Both leaves under spine1, and spine2 with no link at all (the SM keeps
 * the record of a switch its last sweep no longer found): ftree routes the
 * fat tree that is linked, as OpenSM does without the switch, instead of
 * refusing spine2 and leaving the tables to minhop.
 */
START_TEST(ftree_ignores_a_switch_without_links)
{
	static const int up[][4] = {{0, 3, 2, 1}, {1, 3, 2, 2}};
	struct ibfs_topology *t;
	struct ibfs_subnet *sn = rt_two_leaves(&t, up, 2);
	struct ibfs_diag d;

	ck_assert_int_eq(ibfs__routing_run(sn, "ftree", NULL, &d), 0);
	ck_assert_str_eq(sn->engine, "ftree");
	ck_assert_ptr_null(sn->log ? strstr(sn->log, "ERR AB") : NULL);
	/* h2 from leaf1: up port 3 to spine1, down its port 2, to port 1. */
	unsigned lid2 = sn->nodes[5].ports[1].lid;
	ck_assert_int_eq(*ibfs__subnet_lft(sn, sn->nodes[0].sw, lid2), 3);
	ck_assert_int_eq(*ibfs__subnet_lft(sn, sn->nodes[2].sw, lid2), 2);
	ck_assert_int_eq(*ibfs__subnet_lft(sn, sn->nodes[1].sw, lid2), 1);
	ibfs__subnet_free(sn);
	ibfs__topo_free(t);
}
END_TEST

/*
 * Routes a generated fabric with ftree and loads OpenSM's tables for the
 * same fabric with the file engine; from every HCA to every other, both
 * walks must visit the same switches and leave them by the same ports.
 */
static void same_paths_as_opensm(const char *kind, const char *const *kv,
				 const char *file, int pairs)
{
	struct rt a = rt_make(kind, kv, 1, 0);
	struct rt b = rt_make(kind, kv, 1, 0);
	rt_route(&a, "ftree", "ftree");
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/data/sm/%s", IBFS_SRC("."),
		 file);
	struct ibfs_routing_opts o = {.lfts_file = path, .no_fallback = 1};
	struct ibfs_diag d = {{0}};
	ck_assert_msg(ibfs__routing_run(b.sn, "file", &o, &d) == 0, "%s: %s",
		      path, d.msg);
	const struct ibfs_subnet *sn = a.sn;
	int pa[64], pb[64], n = 0;
	for (int src = 0; src < sn->nnodes; src++) {
		const struct ibfs_sn_node *h = &sn->nodes[src];
		if (h->type != IBFS_NODE_HCA)
			continue;
		int leaf = sn->nodes[h->ports[1].peer].sw;
		for (int dst = 0; dst < sn->nnodes; dst++) {
			const struct ibfs_sn_node *g = &sn->nodes[dst];
			if (g->type != IBFS_NODE_HCA || dst == src)
				continue;
			unsigned lid = g->ports[1].lid;
			int na = rt_walk(&a, leaf, lid, pa);
			int nb = rt_walk(&b, leaf, lid, pb);
			ck_assert_msg(na > 0 && na == nb,
				      "%s to %s: %d switches, OpenSM %d",
				      h->name, g->name, na, nb);
			for (int i = 0; i < na; i++) {
				int ours = *ibfs__subnet_lft(sn, pa[i], lid);
				int osm = *ibfs__subnet_lft(b.sn, pb[i], lid);
				ck_assert_msg(pa[i] == pb[i] && ours == osm,
					      "%s to %s: hop %d differs from OpenSM's",
					      h->name, g->name, i);
			}
			n++;
		}
	}
	ck_assert_int_eq(n, pairs);
	rt_free(&a);
	rt_free(&b);
}

START_TEST(ftree_paths_as_opensm)
{
	static const char *const ft[] = {"k", "4", "levels", "3", NULL};
	static const char *const x3[] = {"m", "4,3,2", "w", "1,4,3", NULL};
	static const char *const x2[] = {"m", "4,3", "w", "1,2", NULL};
	/* N HCAs give N (N - 1) ordered pairs: 16, 24 and 12 HCAs. */
	same_paths_as_opensm("fat-tree", ft, "osm-ftree-fat-tree-k4-l3.lfts",
			     16 * 15);
	same_paths_as_opensm("xgft", x3, "osm-ftree-xgft-m4.3.2-w1.4.3.lfts",
			     24 * 23);
	same_paths_as_opensm("xgft", x2, "osm-ftree-xgft-m4.3-w1.2.lfts",
			     12 * 11);
}
END_TEST

/*
 * The ftree tables as the algorithm reads, done the slow way: for every CA
 * LID every switch scans all its ports (the reach and main flags of its up
 * peers, the down ports towards the leaf), and switch LIDs take the lowest
 * port to a neighbour one hop closer by the Floyd-Warshall distances. The
 * engine shares per-leaf work, offers main peers from above, caches each
 * switch's least loaded up port and finds switch routes with bit sets;
 * every entry must equal this one's.
 */
struct ref_ft {
	const struct ibfs_subnet *sn;
	int stride, *level, *reach, pos[16];
	uint32_t *count, *mcount;
	char *main, *anc, *dcand;
};

static int ref_peer(const struct ibfs_subnet *sn, int s, int p)
{
	const struct ibfs_sn_port *pp = &sn->nodes[sn->sw_node[s]].ports[p];
	if (pp->peer < 0 || sn->nodes[pp->peer].type != IBFS_NODE_SWITCH)
		return -1;
	return sn->nodes[pp->peer].sw;
}

static void ref_set(struct ref_ft *f, uint8_t *lft, int s, unsigned lid,
		    int p)
{
	lft[(size_t)s * (f->sn->max_lid + 1) + lid] = (uint8_t)p;
	if (p != IBFS_LFT_NO_PATH)
		f->count[s * f->stride + p]++;
}

static void ref_route_lid(struct ref_ft *f, uint8_t *lft, int l, int hp,
			  unsigned lid, int k, const int *order)
{
	const struct ibfs_subnet *sn = f->sn;
	for (int s = 0; s < sn->nsw; s++) {
		f->main[s] = 0;
		f->reach[s] = f->anc[s] ? f->level[s] : IBFS_DIST_INF;
	}
	ref_set(f, lft, l, lid, hp);
	f->main[l] = 1;
	for (int s = l;;) {
		const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[s]];
		int up[64], nup = 0;
		for (int p = 1; p <= n->nports; p++) {
			int v = ref_peer(sn, s, p);
			if (v >= 0 && f->level[v] == f->level[s] + 1)
				up[nup++] = p;
		}
		if (!nup)
			break;
		int *pos = &f->pos[f->level[s]];
		if (k == 0) {
			uint32_t *mc = &f->mcount[s * f->stride];
			*pos = 0;
			for (int i = 1; i < nup; i++)
				if (mc[up[i]] < mc[up[*pos]])
					*pos = i;
			mc[up[*pos]]++;
		}
		int p = up[(*pos + k) % nup];
		s = ref_peer(sn, s, p);
		ref_set(f, lft, s, lid, n->ports[p].peer_port);
		f->main[s] = 1;
	}
	for (int i = 0; i < sn->nsw; i++) {
		int s = order[i], best = IBFS_LFT_NO_PATH, br = 0, bm = 0;
		const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[s]];
		const uint32_t *cnt = &f->count[s * f->stride];
		if (f->main[s])
			continue;
		for (int p = 1; p <= n->nports; p++) {
			int v = ref_peer(sn, s, p);
			if (f->anc[s]) {
				if (f->dcand[s * f->stride + p] &&
				    (best == IBFS_LFT_NO_PATH ||
				     cnt[p] < cnt[best]))
					best = p;
				continue;
			}
			if (v < 0 || f->level[v] != f->level[s] + 1 ||
			    f->reach[v] >= IBFS_DIST_INF)
				continue;
			int r = f->reach[v], m = f->main[v];
			if (best == IBFS_LFT_NO_PATH || r < br ||
			    (r == br && (m > bm || (m == bm &&
						    cnt[p] < cnt[best])))) {
				best = p;
				br = r;
				bm = m;
			}
		}
		if (!f->anc[s] && best != IBFS_LFT_NO_PATH) {
			f->reach[s] = br;
			f->main[s] = (char)bm;
		}
		ref_set(f, lft, s, lid, best);
	}
}

static void assert_ftree_as_reference(const struct rt *r)
{
	const struct ibfs_subnet *sn = r->sn;
	int ns = sn->nsw, top = 0, nord = 0;
	size_t cells = (size_t)ns * (sn->max_lid + 1);
	struct ref_ft f = {.sn = sn, .stride = 64};
	uint8_t *lft = malloc(cells);
	int *order = malloc(sizeof(int) * (size_t)ns);
	f.level = malloc(sizeof(int) * (size_t)ns);
	f.reach = malloc(sizeof(int) * (size_t)ns);
	f.count = calloc((size_t)ns * 64, sizeof(uint32_t));
	f.mcount = calloc((size_t)ns * 64, sizeof(uint32_t));
	f.main = malloc((size_t)ns);
	f.anc = malloc((size_t)ns);
	f.dcand = malloc((size_t)ns * 64);
	memset(lft, IBFS_LFT_NO_PATH, cells);
	/* Levels: one more than the distance to the nearest leaf. */
	for (int s = 0; s < ns; s++) {
		f.level[s] = 1000;
		for (int t = 0; t < ns; t++) {
			const struct ibfs_sn_node *n =
				&sn->nodes[sn->sw_node[t]];
			for (int p = 1; p <= n->nports; p++)
				if (n->ports[p].peer >= 0 &&
				    sn->nodes[n->ports[p].peer].type !=
					    IBFS_NODE_SWITCH &&
				    r->fw[s * ns + t] + 1 < f.level[s])
					f.level[s] = r->fw[s * ns + t] + 1;
		}
		top = f.level[s] > top ? f.level[s] : top;
	}
	for (int lv = top; lv >= 1; lv--)
		for (int s = 0; s < ns; s++)
			if (f.level[s] == lv)
				order[nord++] = s;
	for (int l = 0; l < ns; l++) {
		if (f.level[l] != 1)
			continue;
		/* Ancestors: switches above l, and their ports towards it. */
		memset(f.anc, 0, (size_t)ns);
		memset(f.dcand, 0, (size_t)ns * 64);
		f.anc[l] = 1;
		for (int i = ns - 1; i >= 0; i--) {
			int x = order[i];
			const struct ibfs_sn_node *n =
				&sn->nodes[sn->sw_node[x]];
			for (int p = 1; p <= n->nports && f.anc[x]; p++) {
				int v = ref_peer(sn, x, p);
				if (v < 0 || f.level[v] != f.level[x] + 1)
					continue;
				f.anc[v] = 1;
				f.dcand[v * 64 + n->ports[p].peer_port] = 1;
			}
		}
		const struct ibfs_sn_node *ln = &sn->nodes[sn->sw_node[l]];
		for (int hp = 1; hp <= ln->nports; hp++) {
			const struct ibfs_sn_port *pp = &ln->ports[hp];
			if (pp->peer < 0 ||
			    sn->nodes[pp->peer].type == IBFS_NODE_SWITCH)
				continue;
			unsigned base =
				sn->nodes[pp->peer].ports[pp->peer_port].lid;
			for (int k = 0; k < 1 << sn->lmc; k++)
				ref_route_lid(&f, lft, l, hp,
					      base + (unsigned)k, k, order);
		}
	}
	for (int t = 0; t < ns; t++) {
		unsigned lid = sn->nodes[sn->sw_node[t]].ports[0].lid;
		for (int s = 0; s < ns; s++) {
			const struct ibfs_sn_node *n =
				&sn->nodes[sn->sw_node[s]];
			uint8_t *e = &lft[(size_t)s * (sn->max_lid + 1) + lid];
			for (int p = 1; p <= n->nports && s != t; p++) {
				int v = ref_peer(sn, s, p);
				if (v >= 0 && r->fw[v * ns + t] + 1 ==
						      r->fw[s * ns + t]) {
					*e = (uint8_t)p;
					break;
				}
			}
			if (s == t)
				*e = 0;
		}
	}
	for (int s = 0; s < ns; s++)
		for (unsigned lid = 1; lid <= sn->max_lid; lid++) {
			int want = lft[(size_t)s * (sn->max_lid + 1) + lid];
			ck_assert_msg(*ibfs__subnet_lft(sn, s, lid) == want,
				      "switch %d LID %u: port %d, reference %d",
				      s, lid, *ibfs__subnet_lft(sn, s, lid),
				      want);
		}
	free(lft);
	free(order);
	free(f.level);
	free(f.reach);
	free(f.count);
	free(f.mcount);
	free(f.main);
	free(f.anc);
	free(f.dcand);
}

/*
 * An irregular three-level tree: leaf i reaches spines i and i+1 (mod 4),
 * so for one leaf another leaf's up peers meet it at different levels
 * (one spine above both, one not), and spine 1 has two links to top 1, so
 * switches below it see two main-path peers of equal load.
 */
static struct rt irregular_tree(int lmc)
{
	struct rt r;
	struct ibfs_diag d;
	r.t = ibfs__topo_new("t");
	int leaf[4], spine[4], top[2];
	char id[16];
	for (int i = 0; i < 4; i++) {
		snprintf(id, sizeof(id), "leaf%d", i + 1);
		leaf[i] = ibfs__topo_add_node(r.t, id, IBFS_NODE_SWITCH, 4, 1,
					      &d);
		snprintf(id, sizeof(id), "spine%d", i + 1);
		spine[i] = ibfs__topo_add_node(r.t, id, IBFS_NODE_SWITCH, 6,
					       1, &d);
	}
	for (int i = 0; i < 2; i++) {
		snprintf(id, sizeof(id), "top%d", i + 1);
		top[i] = ibfs__topo_add_node(r.t, id, IBFS_NODE_SWITCH, 6, 1,
					     &d);
	}
	int lk[32][4], n = 0;
	for (int i = 0; i < 4; i++) {
		for (int h = 0; h < 2; h++) {
			snprintf(id, sizeof(id), "h%d", 2 * i + h + 1);
			int x = ibfs__topo_add_node(r.t, id, IBFS_NODE_HCA, 1,
						    1, &d);
			memcpy(lk[n++], (int[4]){leaf[i], h + 1, x, 1},
			       sizeof(lk[0]));
		}
		memcpy(lk[n++], (int[4]){leaf[i], 3, spine[i], 1},
		       sizeof(lk[0]));
		memcpy(lk[n++], (int[4]){leaf[i], 4, spine[(i + 1) % 4], 2},
		       sizeof(lk[0]));
	}
	int tp[2] = {1, 1};
	for (int i = 0; i < 4; i++) {
		int sp = 3;
		for (int j = 0; j < 2 + (i == 0); j++) {
			int t = j < 2 ? j : 0;
			memcpy(lk[n++], (int[4]){spine[i], sp++, top[t],
						  tp[t]++},
			       sizeof(lk[0]));
		}
	}
	for (int i = 0; i < n; i++)
		ck_assert_int_ge(ibfs__topo_add_link(r.t, lk[i][0], lk[i][1],
						     lk[i][2], lk[i][3],
						     IBFS_SPEED_EDR, 4, 2000,
						     1, &d), 0);
	ibfs__topo_assign_guids(r.t, 0x200000, 0x100000);
	r.sn = ibfs__subnet_from_topo(r.t, &d);
	ck_assert_int_eq(ibfs__subnet_assign_lids(r.sn, lmc, &d), 0);
	int ns = r.sn->nsw;
	r.fw = malloc(sizeof(int) * (size_t)(ns * ns));
	for (int i = 0; i < ns * ns; i++)
		r.fw[i] = i / ns == i % ns ? 0 : 1000;
	for (int a = 0; a < ns; a++)
		for (int p = 1; p <= r.sn->nodes[r.sn->sw_node[a]].nports; p++)
			if (ref_peer(r.sn, a, p) >= 0)
				r.fw[a * ns + ref_peer(r.sn, a, p)] = 1;
	for (int k = 0; k < ns; k++)
		for (int i = 0; i < ns; i++)
			for (int j = 0; j < ns; j++)
				if (r.fw[i * ns + k] + r.fw[k * ns + j] <
				    r.fw[i * ns + j])
					r.fw[i * ns + j] = r.fw[i * ns + k] +
							   r.fw[k * ns + j];
	return r;
}

START_TEST(ftree_tables_as_reference)
{
	static const char *const k4[] = {"k", "4", "levels", "3", NULL};
	static const char *const k8[] = {"k", "8", "levels", "3", "hosts",
					 "6", NULL};
	static const char *const k6[] = {"k", "6", "levels", "3", "hosts",
					 "2", NULL};
	static const char *const x3[] = {"m", "4,3,2", "w", "1,4,3", NULL};
	static const char *const x2[] = {"m", "4,3", "w", "1,2", NULL};
	static const char *const x6[] = {"m", "6,6,4", "w", "1,3,6", NULL};
	const struct {
		const char *kind;
		const char *const *kv;
		int lmc;
	} fab[] = {{"fat-tree", k4, 0}, {"fat-tree", k4, 2},
		   {"fat-tree", k8, 0}, {"fat-tree", k8, 1},
		   {"fat-tree", k6, 1}, {"xgft", x3, 0},
		   {"xgft", x3, 2},     {"xgft", x2, 1},
		   {"xgft", x6, 0}};
	for (size_t i = 0; i < sizeof(fab) / sizeof(fab[0]); i++) {
		struct rt r = rt_make(fab[i].kind, fab[i].kv, 1, fab[i].lmc);
		rt_route(&r, "ftree", "ftree");
		assert_ftree_as_reference(&r);
		rt_free(&r);
	}
	for (int lmc = 0; lmc <= 1; lmc++) {
		struct rt r = irregular_tree(lmc);
		rt_route(&r, "ftree", "ftree");
		assert_ftree_as_reference(&r);
		rt_free(&r);
	}
}
END_TEST

static Suite *route_ftree_suite(void)
{
	Suite *s = suite_create("route_ftree");
	TCase *tc = tcase_create("ftree");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, ftree_k4_l3);
	tcase_add_test(tc, ftree_k8_l2_and_lmc);
	tcase_add_test(tc, ftree_xgft_oversubscribed);
	tcase_add_test(tc, ftree_oversubscribed_three_levels);
	tcase_add_test(tc, ftree_rejects_torus);
	tcase_add_test(tc, ftree_rejects_incomplete);
	tcase_add_test(tc, ftree_ignores_a_switch_without_links);
	tcase_add_test(tc, ftree_paths_as_opensm);
	tcase_add_test(tc, ftree_tables_as_reference);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(route_ftree_suite)
