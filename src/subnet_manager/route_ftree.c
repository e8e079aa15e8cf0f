/* SPDX-License-Identifier: MIT */
/*
 * ftree, fat-tree routing (after OpenSM's osm_ucast_ftree.c, Zahavi's
 * algorithm). It first checks that the fabric is a fat tree: leaves are
 * the switches with CAs; a switch's level is one more than its distance
 * to the nearest leaf; every switch-to-switch link must join adjacent
 * levels, every switch below the top needs an up link, and every top
 * switch must reach every leaf going only down. k-ary n-trees and XGFTs
 * (complete or with oversubscription) pass; anything else gets an error
 * line naming the switch and port, and the manager falls back to minhop
 * as OpenSM does.
 *
 * Routing, for each CA LID in leaf order (leaves by switch index, CAs by
 * leaf port), as Zahavi's algorithm does it:
 *
 * 1. The main path. From the LID's leaf upwards, each switch picks the up
 *    port that carries the fewest main paths so far (lowest port on a
 *    tie); the switch above routes the LID down through that link. Every
 *    switch counts main paths apart from its other routes, so on a leaf
 *    the i-th CA takes the i-th up port, and on a switch of level 2 the
 *    i-th leaf below it takes its i-th up port: the port taken at each
 *    level follows a different digit of the destination (d-mod-k), which
 *    is what makes shift permutations on complete k-ary n-trees and
 *    XGFTs free of contention (Zahavi et al., "Optimized InfiniBand fat-
 *    tree routing for shift all-to-all communication patterns", CCPE
 *    2010; OpenSM's osm_ucast_ftree.c).
 * 2. The other switches, top level first. A switch above the leaf that is
 *    not on the main path routes down through its least loaded down port
 *    towards the leaf. Any other switch routes up, to a switch from which
 *    the LID is reached at the lowest level (so the route stays
 *    shortest), preferring a switch whose route joins the main path, then
 *    the up port with the fewest CA LIDs. Traffic from everywhere thus
 *    converges on the main path, whose links each carry one destination
 *    of a shift.
 *
 * Going up never leaves a switch farther from the LID than the common
 * ancestor level, so in an XGFT every route is shortest; all are
 * up*-down*, hence deadlock-free, and each switch spreads its up-going
 * LIDs over its up ports to within one. Switch LIDs take the lowest
 * shortest port. Cost per CA LID: one pass over the ports of every
 * switch.
 *
 * On the 3-level fat trees of 4- to 16-port switches and the XGFTs tried,
 * every CA-to-CA path is the one OpenSM 3.3.23's ftree takes
 * (tests/check_route_ftree.c keeps its tables). OpenSM refuses LMC > 0
 * ("LMC > 0 is not supported by fat-tree routing", then minhop); here the
 * k-th LID of a port follows its base LID's main path shifted by k up
 * ports at every level (ft_route_lid).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/routing.h"

struct ft {
	struct ibfs_subnet *sn;
	int *level;
	int stride;
	uint32_t *count;  /* CA LIDs per (switch, port) */
	uint32_t *mcount; /* main paths per (switch, up port) */
	int *order;       /* switches by level, top first */
	int *reach;       /* per LID: level at which a route meets the leaf's
			     ancestors */
	char *main;       /* per LID: the route joins the main path */
	int *pos;         /* main path of a port's base LID: the position of
			     the up port taken at each level */
	char *anc;        /* ancestors of the current leaf */
	char *dcand;      /* down ports towards the current leaf */
	int *q;
	int *up_start;    /* up ports of switch s: up_port[up_start[s]..] */
	int *up_port;
	int *up_peer;     /* the switch at the far end of up_port[i] */
};

static int ft_peer_sw(const struct ibfs_subnet *sn, int s, int p)
{
	const struct ibfs_sn_port *pp = &sn->nodes[sn->sw_node[s]].ports[p];
	if (pp->peer < 0 || sn->nodes[pp->peer].type != IBFS_NODE_SWITCH)
		return -1;
	return sn->nodes[pp->peer].sw;
}

static const struct ibfs_sn_node *ft_node(const struct ft *f, int s)
{
	return &f->sn->nodes[f->sn->sw_node[s]];
}

/* Marks the ancestors of leaf l and the down ports leading to it. */
static int ft_ancestors(struct ft *f, int l)
{
	const struct ibfs_subnet *sn = f->sn;
	memset(f->anc, 0, (size_t)sn->nsw);
	memset(f->dcand, 0, (size_t)sn->nsw * (size_t)f->stride);
	int h = 0, t = 0;
	f->anc[l] = 1;
	f->q[t++] = l;
	while (h < t) {
		int x = f->q[h++];
		const struct ibfs_sn_node *n = ft_node(f, x);
		for (int p = 1; p <= n->nports; p++) {
			int v = ft_peer_sw(sn, x, p);
			if (v < 0 || f->level[v] != f->level[x] + 1)
				continue;
			f->dcand[(size_t)v * (size_t)f->stride +
				 n->ports[p].peer_port] = 1;
			if (!f->anc[v]) {
				f->anc[v] = 1;
				f->q[t++] = v;
			}
		}
	}
	return t;
}

static int ft_check(struct ft *f, int *top)
{
	struct ibfs_subnet *sn = f->sn;
	char *leaf = calloc((size_t)sn->nsw, 1);
	int nleaf = 0;
	if (!leaf)
		return -1;
	for (int s = 0; s < sn->nsw; s++) {
		const struct ibfs_sn_node *n = ft_node(f, s);
		for (int p = 1; p <= n->nports; p++) {
			int peer = n->ports[p].peer;
			if (peer >= 0 &&
			    sn->nodes[peer].type != IBFS_NODE_SWITCH)
				leaf[s] = 1;
		}
		nleaf += leaf[s];
	}
	ibfs__route_multi_bfs(sn, leaf, f->level);
	free(leaf);
	if (!nleaf) {
		ibfs__subnet_log(sn,
				 "ERR AB01: ftree: no switch has a CA: not a fat tree");
		return -1;
	}
	*top = 0;
	for (int s = 0; s < sn->nsw; s++) {
		const struct ibfs_sn_node *n = ft_node(f, s);
		if (f->level[s] >= IBFS_DIST_INF) {
			ibfs__subnet_log(sn,
					 "ERR AB02: ftree: switch '%s' GUID 0x%016" PRIx64 " port 0 cannot reach any CA: not a fat tree",
					 n->name, n->guid);
			return -1;
		}
		f->level[s]++;
		if (f->level[s] > *top)
			*top = f->level[s];
	}
	for (int s = 0; s < sn->nsw; s++) {
		const struct ibfs_sn_node *n = ft_node(f, s);
		int up = 0;
		for (int p = 1; p <= n->nports; p++) {
			int v = ft_peer_sw(sn, s, p);
			if (v < 0)
				continue;
			int dl = f->level[v] - f->level[s];
			if (dl != 1 && dl != -1) {
				const struct ibfs_sn_node *m = ft_node(f, v);
				ibfs__subnet_log(sn,
						 "ERR AB03: ftree: switch '%s' GUID 0x%016" PRIx64 " port %d links to '%s' GUID 0x%016" PRIx64 " port %d on level %d, not an adjacent level (%d): not a fat tree",
						 n->name, n->guid, p, m->name,
						 m->guid, n->ports[p].peer_port,
						 f->level[v], f->level[s]);
				return -1;
			}
			up += dl == 1;
		}
		if (!up && f->level[s] != *top) {
			ibfs__subnet_log(sn,
					 "ERR AB04: ftree: switch '%s' GUID 0x%016" PRIx64 " port 0 on level %d has no up port but the top level is %d: not a fat tree",
					 n->name, n->guid, f->level[s], *top);
			return -1;
		}
	}
	return 0;
}

/* Lists every switch's up ports once (CSR), so picks scan only them. */
static int ft_index_up(struct ft *f)
{
	const struct ibfs_subnet *sn = f->sn;
	size_t total = 0;
	for (int s = 0; s < sn->nsw; s++)
		total += (size_t)ft_node(f, s)->nports;
	f->up_start = malloc(sizeof(int) * (size_t)(sn->nsw + 1));
	f->up_port = malloc(sizeof(int) * (total + 1));
	f->up_peer = malloc(sizeof(int) * (total + 1));
	if (!f->up_start || !f->up_port || !f->up_peer)
		return -1;
	int k = 0;
	for (int s = 0; s < sn->nsw; s++) {
		f->up_start[s] = k;
		for (int p = 1; p <= ft_node(f, s)->nports; p++) {
			int v = ft_peer_sw(sn, s, p);
			if (v >= 0 && f->level[v] == f->level[s] + 1) {
				f->up_peer[k] = v;
				f->up_port[k++] = p;
			}
		}
	}
	f->up_start[sn->nsw] = k;
	return 0;
}

/* The least loaded of switch s's down ports towards the current leaf. */
static int ft_pick_down(struct ft *f, int s)
{
	const uint32_t *cnt = &f->count[(size_t)s * (size_t)f->stride];
	const char *dc = &f->dcand[(size_t)s * (size_t)f->stride];
	int best = IBFS_LFT_NO_PATH;
	for (int p = 1; p <= ft_node(f, s)->nports; p++)
		if (dc[p] && (best == IBFS_LFT_NO_PATH || cnt[p] < cnt[best]))
			best = p;
	return best;
}

/*
 * The up port of a switch off the main path: the lowest meeting level,
 * then a peer on the way to the main path, then the fewest CA LIDs.
 */
static int ft_pick_up(struct ft *f, int s)
{
	const uint32_t *cnt = &f->count[(size_t)s * (size_t)f->stride];
	int best = IBFS_LFT_NO_PATH, br = 0, bm = 0, bv = -1;
	for (int i = f->up_start[s]; i < f->up_start[s + 1]; i++) {
		int p = f->up_port[i];
		int v = f->up_peer[i];
		int r = f->reach[v], m = f->main[v];
		if (r >= IBFS_DIST_INF)
			continue;
		if (best == IBFS_LFT_NO_PATH || r < br ||
		    (r == br && (m > bm || (m == bm && cnt[p] < cnt[best])))) {
			best = p;
			br = r;
			bm = m;
			bv = v;
		}
	}
	if (bv >= 0) {
		f->reach[s] = br;
		f->main[s] = (char)bm;
	}
	return best;
}

static void ft_set(struct ft *f, int s, unsigned lid, int p)
{
	*ibfs__subnet_lft(f->sn, s, lid) = (uint8_t)p;
	if (p != IBFS_LFT_NO_PATH)
		f->count[(size_t)s * (size_t)f->stride + p]++;
}

/*
 * Routes one CA LID on leaf l (port hp), the k-th of its port (LMC): the
 * main path up from l, then every other switch, top level first. The base
 * LID (k = 0) picks its up ports by main-path counts; LID k takes, at each
 * level, the up port k positions further along, so each of the 2^LMC
 * classes of LIDs is spread d-mod-k on its own and the LIDs of one port
 * leave by different up ports (multipath).
 */
static void ft_route_lid(struct ft *f, int l, int hp, unsigned lid, int k)
{
	struct ibfs_subnet *sn = f->sn;
	for (int s = 0; s < sn->nsw; s++) {
		f->main[s] = 0;
		f->reach[s] = f->anc[s] ? f->level[s] : IBFS_DIST_INF;
	}
	ft_set(f, l, lid, hp);
	f->main[l] = 1;
	for (int s = l; f->up_start[s] < f->up_start[s + 1];) {
		int a = f->up_start[s], nup = f->up_start[s + 1] - a;
		int *pos = &f->pos[f->level[s]];
		if (k == 0) {
			uint32_t *mc =
				&f->mcount[(size_t)s * (size_t)f->stride];
			*pos = 0;
			for (int i = 1; i < nup; i++)
				if (mc[f->up_port[a + i]] <
				    mc[f->up_port[a + *pos]])
					*pos = i;
			mc[f->up_port[a + *pos]]++;
		}
		int i = a + (*pos + k) % nup;
		const struct ibfs_sn_port *pp =
			&ft_node(f, s)->ports[f->up_port[i]];
		s = f->up_peer[i];
		ft_set(f, s, lid, pp->peer_port);
		f->main[s] = 1;
	}
	for (int i = 0; i < sn->nsw; i++) {
		int s = f->order[i];
		if (f->main[s])
			continue;
		ft_set(f, s, lid, f->anc[s] ? ft_pick_down(f, s)
					    : ft_pick_up(f, s));
	}
}

static int ft_route_switch_lids(struct ft *f)
{
	struct ibfs_subnet *sn = f->sn;
	int *dist = malloc(sizeof(int) * (size_t)sn->nsw);
	if (!dist)
		return -1;
	for (int t = 0; t < sn->nsw; t++) {
		unsigned lid = ft_node(f, t)->ports[0].lid;
		ibfs__route_bfs(NULL, sn, t, dist);
		for (int s = 0; s < sn->nsw; s++) {
			uint8_t *e = ibfs__subnet_lft(sn, s, lid);
			if (s == t) {
				*e = 0;
				continue;
			}
			const struct ibfs_sn_node *n = ft_node(f, s);
			for (int p = 1; p <= n->nports; p++) {
				int v = ft_peer_sw(sn, s, p);
				if (v >= 0 && dist[s] < IBFS_DIST_INF &&
				    dist[v] + 1 == dist[s]) {
					*e = (uint8_t)p;
					break;
				}
			}
		}
	}
	free(dist);
	return 0;
}

static int ft_build(void *ctx)
{
	struct ft *f = ctx;
	struct ibfs_subnet *sn = f->sn;
	size_t nsw = (size_t)(sn->nsw ? sn->nsw : 1);
	int maxp = 0, top, rc = -1;
	for (int s = 0; s < sn->nsw; s++)
		if (ft_node(f, s)->nports > maxp)
			maxp = ft_node(f, s)->nports;
	f->stride = maxp + 1;
	f->level = malloc(nsw * sizeof(int));
	f->count = calloc(nsw * (size_t)f->stride, sizeof(uint32_t));
	f->mcount = calloc(nsw * (size_t)f->stride, sizeof(uint32_t));
	f->order = malloc(nsw * sizeof(int));
	f->reach = malloc(nsw * sizeof(int));
	f->main = malloc(nsw);
	f->pos = malloc((nsw + 1) * sizeof(int));
	f->anc = malloc(nsw);
	f->dcand = malloc(nsw * (size_t)f->stride);
	f->q = malloc(nsw * sizeof(int));
	if (!f->level || !f->count || !f->anc || !f->dcand || !f->q ||
	    !f->mcount || !f->order || !f->reach || !f->main || !f->pos) {
		ibfs__subnet_log(sn, "ERR AB05: ftree: out of memory");
		return -1;
	}
	if (ft_check(f, &top))
		return -1;
	if (ft_index_up(f)) {
		ibfs__subnet_log(sn, "ERR AB05: ftree: out of memory");
		return -1;
	}
	int ntop = 0, nord = 0;
	for (int s = 0; s < sn->nsw; s++)
		ntop += f->level[s] == top;
	for (int lv = top; lv >= 1; lv--)
		for (int s = 0; s < sn->nsw; s++)
			if (f->level[s] == lv)
				f->order[nord++] = s;
	unsigned step = 1u << sn->lmc;
	for (int l = 0; l < sn->nsw; l++) {
		if (f->level[l] != 1)
			continue;
		ft_ancestors(f, l);
		int reach = 0;
		for (int s = 0; s < sn->nsw; s++)
			reach += f->anc[s] && f->level[s] == top;
		if (reach != ntop) {
			const struct ibfs_sn_node *n = ft_node(f, l);
			ibfs__subnet_log(sn,
					 "ERR AB06: ftree: leaf '%s' GUID 0x%016" PRIx64 " port 0 is below %d of the %d top switches only: not a complete fat tree",
					 n->name, n->guid, reach, ntop);
			return -1;
		}
		const struct ibfs_sn_node *ln = ft_node(f, l);
		for (int hp = 1; hp <= ln->nports; hp++) {
			const struct ibfs_sn_port *pp = &ln->ports[hp];
			if (pp->peer < 0 ||
			    sn->nodes[pp->peer].type == IBFS_NODE_SWITCH)
				continue;
			unsigned base =
				sn->nodes[pp->peer].ports[pp->peer_port].lid;
			for (unsigned k = 0; base && k < step; k++)
				ft_route_lid(f, l, hp, base + k, (int)k);
		}
	}
	rc = ft_route_switch_lids(f);
	return rc;
}

static void ft_destroy(void *ctx)
{
	struct ft *f = ctx;
	free(f->level);
	free(f->count);
	free(f->mcount);
	free(f->order);
	free(f->reach);
	free(f->main);
	free(f->pos);
	free(f->anc);
	free(f->dcand);
	free(f->q);
	free(f->up_start);
	free(f->up_port);
	free(f->up_peer);
	free(f);
}

int ibfs__route_ftree_setup(struct ibfs_routing_engine *re)
{
	struct ft *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	f->sn = re->sn;
	re->ctx = f;
	re->ucast_build_fwd_tables = ft_build;
	re->destroy = ft_destroy;
	return 0;
}
