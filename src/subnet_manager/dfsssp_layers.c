/* SPDX-License-Identifier: MIT */
/*
 * dfsssp's virtual layers, per path as OpenSM's dfsssp_remove_deadlocks
 * assigns them. Every path from a CA LID to a CA LID starts on layer 0;
 * while the channel dependency graph of layer l has a cycle, the edge of
 * the cycle that the fewest paths of layer l induce (the first such edge
 * from where the search entered the cycle) is cut: every path of layer l
 * through it moves to layer l + 1. A cycle left on the last layer the
 * data VLs allow is a failure. A layer is an SL, mapped 1:1 to a VL.
 *
 * A path is named by its first switch and its destination LID: the paths
 * from every LID on one switch (the 2^LMC LIDs of each CA port on it) to
 * one LID take the same channels, so OpenSM always moves them together.
 * The layers go to sn->src_sl, one row per switch like the LFTs, instead
 * of OpenSM's (source LID x destination LID) table, and each edge counts
 * the (source LID, destination LID) pairs through it, OpenSM's figure for
 * the weakest edge.
 *
 * Differences from OpenSM: switch LIDs are neither sources nor
 * destinations of layered paths (traffic to them is VL15 management, see
 * credit_loop.h; OpenSM layers the paths to switch port 0 too, which
 * takes nothing away here); an edge leaves the graph as soon as no path
 * of the layer induces it, where OpenSM cuts it when a cycle meets it;
 * the search visits channels in switch and port order, not OpenSM's tree
 * of channel numbers; and spare VLs are left unused, where OpenSM spreads
 * the paths of a layer over them at random for each PathRecord query
 * (that would make runs differ).
 *
 * Cost: one pass over every (switch, CA LID) to weigh layer 0, one cycle
 * search per layer resumed after each cut (see credit_loop.h), and per
 * cut one scan of the CA LIDs plus a walk up the routing tree of each
 * LID whose routes use the cut edge. Memory: a 32-bit count per edge bit
 * of the two layers in work (7 MB each for the 3-level fat tree of
 * 36-port switches) besides src_sl.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/credit_loop.h"
#include "subnet_manager/routing.h"

#define LAYERS_MAX 15

struct lay {
	struct ibfs_subnet *sn;
	size_t row;                   /* max_lid + 1 */
	struct ibfs_cdg *g[LAYERS_MAX];
	uint32_t *cnt[LAYERS_MAX];    /* pairs per edge bit */
	uint64_t paths[LAYERS_MAX];   /* pairs per layer */
	uint32_t *w;                  /* CA LIDs on each switch */
	uint64_t *acc;
	int *nx, *indeg, *queue;
	uint32_t *mark, stamp;
	int *csw, *cport;             /* the cycle being cut */
};

/* The switch that s forwards lid to, or -1. */
static int lay_hop(const struct ibfs_subnet *sn, int s, unsigned lid)
{
	const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[s]];
	int p = *ibfs__subnet_lft(sn, s, lid);
	if (p < 1 || p > n->nports || n->ports[p].peer < 0 ||
	    sn->nodes[n->ports[p].peer].type != IBFS_NODE_SWITCH)
		return -1;
	return sn->nodes[n->ports[p].peer].sw;
}

static int lay_is_ca_lid(const struct ibfs_subnet *sn, unsigned lid)
{
	return sn->lid_node[lid] >= 0 &&
	       sn->nodes[sn->lid_node[lid]].type != IBFS_NODE_SWITCH &&
	       ibfs__subnet_lid_switch(sn, lid, NULL) >= 0;
}

static int lay_open(struct lay *L, int l)
{
	if (L->g[l])
		return 0;
	L->g[l] = ibfs__cdg_new(L->sn);
	if (!L->g[l])
		return -1;
	L->cnt[l] = calloc((size_t)ibfs__cdg_nbits(L->g[l]) + 1,
			   sizeof(uint32_t));
	return L->cnt[l] ? 0 : -1;
}

static void lay_close(struct lay *L, int l)
{
	ibfs__cdg_free(L->g[l]);
	free(L->cnt[l]);
	L->g[l] = NULL;
	L->cnt[l] = NULL;
}

/* Adds (up) or takes (!up) n pairs on edge b of layer l. */
static void lay_weigh(struct lay *L, int l, uint32_t b, uint32_t n, int up)
{
	uint32_t *c = &L->cnt[l][b];
	*c = up ? *c + n : *c > n ? *c - n : 0;
	ibfs__cdg_set(L->g[l], b, *c != 0);
}

/*
 * Layer 0 holds every path: for each CA LID, the pairs through each edge
 * of its routing tree are the CA LIDs upstream of it, summed from the
 * leaves of the tree in (Kahn's) topological order. O(nsw) a LID.
 */
static void lay_fill(struct lay *L)
{
	struct ibfs_subnet *sn = L->sn;
	uint64_t total = 0;
	for (int s = 0; s < sn->nsw; s++)
		total += L->w[s];
	for (unsigned lid = 1; lid <= sn->max_lid; lid++) {
		if (!lay_is_ca_lid(sn, lid))
			continue;
		L->paths[0] += total - (1u << sn->lmc);
		for (int s = 0; s < sn->nsw; s++) {
			L->acc[s] = L->w[s];
			L->indeg[s] = 0;
		}
		for (int s = 0; s < sn->nsw; s++) {
			L->nx[s] = lay_hop(sn, s, lid);
			if (L->nx[s] >= 0)
				L->indeg[L->nx[s]]++;
		}
		int qn = 0;
		for (int s = 0; s < sn->nsw; s++)
			if (!L->indeg[s])
				L->queue[qn++] = s;
		for (int i = 0; i < qn; i++) {
			int s = L->queue[i], v = L->nx[s];
			uint32_t b;
			if (L->acc[s] &&
			    ibfs__cdg_next(L->g[0], s, lid, &b) >= 0)
				lay_weigh(L, 0, b, (uint32_t)L->acc[s], 1);
			if (v < 0)
				continue;
			L->acc[v] += L->acc[s];
			if (--L->indeg[v] == 0)
				L->queue[qn++] = v;
		}
	}
}

/* Moves the path from switch s to lid from layer l to l + 1. */
static void lay_move(struct lay *L, int l, int s, unsigned lid)
{
	struct ibfs_subnet *sn = L->sn;
	uint32_t n = L->w[s], b;
	sn->src_sl[(size_t)s * L->row + lid] = (uint8_t)(l + 1);
	L->paths[l] -= n;
	L->paths[l + 1] += n;
	for (int hops = 0, v = s; hops < sn->nsw; hops++) {
		v = ibfs__cdg_next(L->g[l], v, lid, &b);
		if (v < 0)
			break;
		lay_weigh(L, l, b, n, 0);
		lay_weigh(L, l + 1, b, n, 1);
	}
}

/*
 * Moves the paths of layer l to lid from switch s and from every switch
 * upstream of it (whose route to lid runs through s), walking the routing
 * tree back from s: a neighbour u is upstream when its LFT entry for lid
 * points at the switch in hand. O(switches upstream x ports).
 */
static void lay_move_upstream(struct lay *L, int l, int s, unsigned lid)
{
	struct ibfs_subnet *sn = L->sn;
	uint32_t stamp = ++L->stamp;
	int qn = 0;
	L->queue[qn++] = s;
	L->mark[s] = stamp;
	for (int i = 0; i < qn; i++) {
		int x = L->queue[i];
		if (L->w[x] && sn->src_sl[(size_t)x * L->row + lid] == l)
			lay_move(L, l, x, lid);
		const struct ibfs_sn_node *nd = &sn->nodes[sn->sw_node[x]];
		for (int r = 1; r <= nd->nports; r++) {
			int peer = nd->ports[r].peer;
			if (peer < 0 ||
			    sn->nodes[peer].type != IBFS_NODE_SWITCH)
				continue;
			int u = sn->nodes[peer].sw;
			if (L->mark[u] != stamp &&
			    *ibfs__subnet_lft(sn, u, lid) ==
				    nd->ports[r].peer_port) {
				L->mark[u] = stamp;
				L->queue[qn++] = u;
			}
		}
	}
}

/*
 * Cuts the cycle of n channels in L->csw/cport on layer l: the edge with
 * the fewest pairs (the first of them) loses every path of layer l, which
 * go to l + 1. The paths through it are those to the CA LIDs that s
 * routes through p and v through q, from s and the switches upstream.
 * Returns 0, or -1 if the edge was not cleared (the counts disagree with
 * the LFTs, which cannot happen).
 */
static int lay_cut(struct lay *L, int l, int n)
{
	struct ibfs_subnet *sn = L->sn;
	int best = -1;
	uint32_t bb = 0;
	for (int j = 0; j < n; j++) {
		int64_t b = ibfs__cdg_edge(L->g[l], L->csw[j], L->cport[j],
					   L->cport[(j + 1) % n]);
		if (b < 0)
			return -1;
		if (best < 0 || L->cnt[l][b] < L->cnt[l][bb]) {
			best = j;
			bb = (uint32_t)b;
		}
	}
	int s = L->csw[best], p = L->cport[best];
	int q = L->cport[(best + 1) % n];
	const struct ibfs_sn_port *pp = &sn->nodes[sn->sw_node[s]].ports[p];
	int v = sn->nodes[pp->peer].sw;
	for (unsigned lid = 1; lid <= sn->max_lid; lid++)
		if (*ibfs__subnet_lft(sn, s, lid) == p &&
		    *ibfs__subnet_lft(sn, v, lid) == q &&
		    lay_is_ca_lid(sn, lid))
			lay_move_upstream(L, l, s, lid);
	return L->cnt[l][bb] ? -1 : 0;
}

/* The loop left on the last layer, for the error line. */
static void lay_fail(struct lay *L, int nl)
{
	struct ibfs_subnet *sn = L->sn;
	const struct ibfs_sn_node *o = &sn->nodes[sn->sw_node[L->csw[0]]];
	ibfs__subnet_log(sn,
			 "ERR AD01: dfsssp: the paths through '%s' (GUID 0x%016" PRIx64 ") port %d still close a credit loop on the last of the %d data VL%s this fabric has: more are needed (set data-vls)",
			 o->name, o->guid, L->cport[0], nl,
			 nl > 1 ? "s" : "");
}

static void lay_free(struct lay *L)
{
	for (int l = 0; l < LAYERS_MAX; l++)
		lay_close(L, l);
	free(L->w);
	free(L->acc);
	free(L->nx);
	free(L->indeg);
	free(L->queue);
	free(L->mark);
	free(L->csw);
	free(L->cport);
}

int ibfs__dfsssp_layers(struct ibfs_subnet *sn)
{
	int nl = sn->data_vls < 1 ? 1 : sn->data_vls;
	nl = nl > LAYERS_MAX ? LAYERS_MAX : nl;
	size_t nsw = (size_t)(sn->nsw ? sn->nsw : 1);
	struct lay L = {.sn = sn, .row = (size_t)sn->max_lid + 1};
	int rc = -1;
	L.w = calloc(nsw, sizeof(*L.w));
	L.acc = malloc(nsw * sizeof(*L.acc));
	L.nx = malloc(nsw * sizeof(int));
	L.indeg = malloc(nsw * sizeof(int));
	L.queue = malloc(nsw * sizeof(int));
	L.mark = calloc(nsw, sizeof(*L.mark));
	if (!L.w || !L.acc || !L.nx || !L.indeg || !L.queue || !L.mark ||
	    ibfs__subnet_alloc_src_sl(sn) || lay_open(&L, 0))
		goto out;
	size_t nc = (size_t)ibfs__cdg_nchan(L.g[0]) + 1;
	L.csw = malloc(nc * sizeof(int));
	L.cport = malloc(nc * sizeof(int));
	if (!L.csw || !L.cport)
		goto out;
	for (unsigned lid = 1; lid <= sn->max_lid; lid++)
		if (lay_is_ca_lid(sn, lid))
			L.w[ibfs__subnet_lid_switch(sn, lid, NULL)]++;
	lay_fill(&L);
	int used = 1;
	for (int l = 0; l < nl && L.g[l]; l++) {
		int n = ibfs__cdg_find_cycle(L.g[l], L.csw, L.cport, (int)nc);
		while (n > 0) {
			if (l + 1 == nl) {
				lay_fail(&L, nl);
				rc = -2;
				goto out;
			}
			if (lay_open(&L, l + 1))
				goto out;
			used = l + 2;
			if (lay_cut(&L, l, n)) {
				ibfs__subnet_log(sn,
						 "ERR AD03: dfsssp: internal error: a cut edge of layer %d still has paths",
						 l);
				rc = -2;
				goto out;
			}
			n = ibfs__cdg_find_cycle_resume(L.g[l], L.csw, L.cport,
							(int)nc);
		}
		if (n < 0)
			goto out;
		lay_close(&L, l);
	}
	char list[LAYERS_MAX * 22] = "";
	size_t o = 0;
	for (int l = 0; l < used && o < sizeof(list); l++)
		o += (size_t)snprintf(list + o, sizeof(list) - o,
				      "%s%" PRIu64, l ? ", " : "", L.paths[l]);
	ibfs__subnet_log(sn, "dfsssp: %d of %d VLs used (%s: %s)", used, nl,
			 "CA-to-CA paths per VL", list);
	rc = 0;
out:
	lay_free(&L);
	return rc;
}
