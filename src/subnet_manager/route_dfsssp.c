/* SPDX-License-Identifier: MIT */
/*
 * dfsssp, deadlock-free single-source shortest paths (Domke, Hoefler and
 * Nagel, "Deadlock-free oblivious routing for arbitrary topologies",
 * IPDPS 2011; OpenSM's osm_ucast_dfsssp.c). Paths: for each destination
 * LID, Dijkstra towards its switch over channel weights that grow by the
 * number of CA sources routed through each channel, so later destinations
 * avoid loaded links (global balancing). Unlike OpenSM, whose weights may
 * make paths longer than shortest, a weight here is 2^32 per hop plus the
 * load: paths stay shortest and the load only breaks ties, which keeps
 * fat trees on one layer.
 *
 * Deadlock freedom (dfsssp_layers.c): as OpenSM, every (source LID,
 * destination LID) path gets a virtual layer; all start on layer 0 and
 * the paths through the weakest edge of each cycle of a layer's channel
 * dependency graph move up one layer. A layer is an SL, mapped 1:1 to a
 * VL (SL2VL); sn->src_sl holds them and ibfs__subnet_path_sl answers. The
 * engine fails (and the manager falls back to minhop) when the data VLs
 * of the fabric do not suffice. What differs from OpenSM is listed in
 * dfsssp_layers.c; the layers it needs against OpenSM 3.3.23's (over
 * ibsim): 4x4x4 torus 5 (OpenSM 7), 8x8 torus 7 (8), 4x4 torus 2 (3),
 * fat trees 1 (1). Cost: one Dijkstra per LID, then the layering.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/routing.h"

/* One hop outweighs any load (at most 2^24 CA ports x 2^7 LIDs). */
#define DFS_HOP ((uint64_t)1 << 32)

struct dfs {
	struct ibfs_subnet *sn;
	int stride;
	uint64_t *w;      /* weight of channel (switch, port) */
	uint64_t *dist;
	int *via, *order, *casw;
	uint64_t *cnt;
	struct { uint64_t d; int s; } *heap;
	size_t hn, hcap;
};

static int dfs_peer_sw(const struct ibfs_subnet *sn, int s, int p)
{
	const struct ibfs_sn_port *pp = &sn->nodes[sn->sw_node[s]].ports[p];
	if (pp->peer < 0 || sn->nodes[pp->peer].type != IBFS_NODE_SWITCH)
		return -1;
	return sn->nodes[pp->peer].sw;
}

static int dfs_push(struct dfs *f, uint64_t d, int s)
{
	if (f->hn == f->hcap) {
		size_t cap = f->hcap ? f->hcap * 2 : 64;
		void *h = realloc(f->heap, cap * sizeof(*f->heap));
		if (!h)
			return -1;
		f->heap = h;
		f->hcap = cap;
	}
	size_t i = f->hn++;
	while (i > 0) {
		size_t up = (i - 1) / 2;
		if (f->heap[up].d < d || (f->heap[up].d == d &&
					  f->heap[up].s <= s))
			break;
		f->heap[i] = f->heap[up];
		i = up;
	}
	f->heap[i].d = d;
	f->heap[i].s = s;
	return 0;
}

static void dfs_pop(struct dfs *f, uint64_t *d, int *s)
{
	*d = f->heap[0].d;
	*s = f->heap[0].s;
	uint64_t ld = f->heap[--f->hn].d;
	int ls = f->heap[f->hn].s;
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= f->hn)
			break;
		if (c + 1 < f->hn &&
		    (f->heap[c + 1].d < f->heap[c].d ||
		     (f->heap[c + 1].d == f->heap[c].d &&
		      f->heap[c + 1].s < f->heap[c].s)))
			c++;
		if (ld < f->heap[c].d ||
		    (ld == f->heap[c].d && ls <= f->heap[c].s))
			break;
		f->heap[i] = f->heap[c];
		i = c;
	}
	f->heap[i].d = ld;
	f->heap[i].s = ls;
}

/* Routes one LID whose port hangs on switch t at port tport. */
static int dfs_route_lid(struct dfs *f, unsigned lid, int t, int tport)
{
	struct ibfs_subnet *sn = f->sn;
	int n = 0;
	for (int s = 0; s < sn->nsw; s++) {
		f->dist[s] = UINT64_MAX;
		f->via[s] = IBFS_LFT_NO_PATH;
	}
	f->dist[t] = 0;
	f->hn = 0;
	if (dfs_push(f, 0, t))
		return -1;
	while (f->hn) {
		uint64_t d;
		int x;
		dfs_pop(f, &d, &x);
		if (d != f->dist[x])
			continue;
		f->order[n++] = x;
		const struct ibfs_sn_node *nd = &sn->nodes[sn->sw_node[x]];
		for (int q = 1; q <= nd->nports; q++) {
			int s = dfs_peer_sw(sn, x, q);
			if (s < 0)
				continue;
			int ps = nd->ports[q].peer_port; /* s's port to x */
			uint64_t nd2 = d + f->w[(size_t)s * (size_t)f->stride +
						(size_t)ps];
			if (nd2 < f->dist[s] ||
			    (nd2 == f->dist[s] && ps < f->via[s] &&
			     f->via[s] != IBFS_LFT_NO_PATH &&
			     dfs_peer_sw(sn, s, f->via[s]) == x)) {
				if (nd2 < f->dist[s] && dfs_push(f, nd2, s))
					return -1;
				f->dist[s] = nd2;
				f->via[s] = ps;
			}
		}
	}
	for (int s = 0; s < sn->nsw; s++)
		*ibfs__subnet_lft(sn, s, lid) =
			(uint8_t)(s == t ? tport : f->via[s]);
	/* Weights grow by the CA sources whose paths use each channel:
	 * accumulate subtree counts from the farthest switch in. */
	for (int s = 0; s < sn->nsw; s++)
		f->cnt[s] = (uint64_t)f->casw[s];
	for (int i = n - 1; i > 0; i--) {
		int s = f->order[i];
		int p = f->via[s];
		f->w[(size_t)s * (size_t)f->stride + (size_t)p] += f->cnt[s];
		f->cnt[dfs_peer_sw(sn, s, p)] += f->cnt[s];
	}
	return 0;
}

static int dfs_build(void *ctx)
{
	struct dfs *f = ctx;
	struct ibfs_subnet *sn = f->sn;
	size_t nsw = (size_t)(sn->nsw ? sn->nsw : 1);
	int maxp = 0;
	for (int s = 0; s < sn->nsw; s++)
		if (sn->nodes[sn->sw_node[s]].nports > maxp)
			maxp = sn->nodes[sn->sw_node[s]].nports;
	f->stride = maxp + 1;
	f->w = malloc(nsw * (size_t)f->stride * sizeof(uint64_t));
	f->dist = malloc(nsw * sizeof(uint64_t));
	f->cnt = malloc(nsw * sizeof(uint64_t));
	f->via = malloc(nsw * sizeof(int));
	f->order = malloc(nsw * sizeof(int));
	f->casw = calloc(nsw, sizeof(int));
	if (!f->w || !f->dist || !f->cnt || !f->via || !f->order || !f->casw)
		goto oom;
	for (size_t i = 0; i < nsw * (size_t)f->stride; i++)
		f->w[i] = DFS_HOP;
	for (int i = 0; i < sn->nnodes; i++) {
		const struct ibfs_sn_node *n = &sn->nodes[i];
		if (n->type == IBFS_NODE_SWITCH)
			continue;
		for (int p = 1; p <= n->nports; p++) {
			int peer = n->ports[p].peer;
			if (peer >= 0 &&
			    sn->nodes[peer].type == IBFS_NODE_SWITCH)
				f->casw[sn->nodes[peer].sw]++;
		}
	}
	for (unsigned lid = 1; lid <= sn->max_lid; lid++) {
		int tport, t = ibfs__subnet_lid_switch(sn, lid, &tport);
		if (t >= 0 && dfs_route_lid(f, lid, t, tport))
			goto oom;
	}
	int rc = ibfs__dfsssp_layers(sn);
	if (rc == -1)
		goto oom;
	return rc < 0 ? -1 : 0;
oom:
	ibfs__subnet_log(sn, "ERR AD02: dfsssp: out of memory");
	return -1;
}

static void dfs_destroy(void *ctx)
{
	struct dfs *f = ctx;
	free(f->w);
	free(f->dist);
	free(f->cnt);
	free(f->via);
	free(f->order);
	free(f->casw);
	free(f->heap);
	free(f);
}

int ibfs__route_dfsssp_setup(struct ibfs_routing_engine *re)
{
	struct dfs *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	f->sn = re->sn;
	re->ctx = f;
	re->ucast_build_fwd_tables = dfs_build;
	re->destroy = dfs_destroy;
	return 0;
}
