/* SPDX-License-Identifier: MIT */
/*
 * LASH, layered shortest path routing (Skeie, Lysne and Theiss, "Layered
 * Shortest Path (LASH) Routing in Irregular System Area Networks", IPDPS
 * 2002), as OpenSM's osm_ucast_lash.c does it. Every route is a shortest
 * path; deadlock freedom comes from layers ("lanes"), one SL each with
 * SL = VL, each layer's channel dependency graph (CDG) kept acyclic.
 *
 * The model works on switches only. Switches are numbered in GUID order
 * (OpenSM walks its switch table, a map keyed by GUID), each with its
 * links to other switches in port order; of parallel links the first
 * (lowest port) is the one used.
 *
 * Routes: for each switch r in order, a BFS tree from r, each node's
 * children in the order its links find them. In that tree every switch a
 * routes towards each switch d below it through the child on the way to
 * d, unless an earlier root already set a's route to d (OpenSM's
 * generate_routing_func_for_mst sets only entries still NONE). The tree
 * path from a down to d is a shortest a-d path (any shorter one would
 * shorten r's path to d), and each later hop is itself on a shortest path
 * to d, so every route is shortest. LFTs: a CA LID leaves its own switch
 * through the CA's port, any other switch through its link towards the
 * CA's switch; a switch's own LID goes to port 0.
 *
 * Lanes: the switch pairs (i, d), i < d, in order, each with both its
 * paths i->d and d->i, go on the first lane whose CDG stays acyclic with
 * both paths' dependencies added, else on a new lane; needing more lanes
 * than the fabric has data VLs fails (OpenSM's ERR 4D02) and the manager
 * falls back to minhop. OpenSM tests each addition with a depth-first
 * search from the first channel of each path; here the search starts
 * from the edges just added (credit_loop.c), which finds the same cycles,
 * since the lane had none before and a new one runs through a new edge.
 * The SL of a path is the lane of (switch of the source LID, switch of
 * the destination LID), 0 when both are on one switch: sn->src_sl, one
 * row per source switch, so ibfs__subnet_path_sl and the credit-loop
 * check see it.
 *
 * Differences from OpenSM: OpenSM then balances the lanes by moving
 * pairs picked with rand() from the fullest lane to the emptiest while
 * the CDG stays acyclic; that would make runs differ, so it is left out
 * (lane 0 carries the most pairs; the number of lanes and the LFTs are
 * the same). Pairs of switches in different components have no route
 * and no lane (OpenSM would follow a NONE link); the mesh analysis
 * option (do_mesh_analysis, off by default) and lash_start_vl (0) are not
 * modelled. The data VLs come from the fabric (data-vls), where OpenSM
 * reads the ports' OperationalVLs.
 *
 * Against OpenSM 3.3.23 over ibsim (tests/opensm_conformance.sh):
 * the same lanes, the same pairs per lane before its balancing, and
 * identical LFTs on rings of 5 and 8 switches (2 and 4 lanes), 4x4 (2),
 * 4x4x4 (5) and 8x8 (8) tori, the 3-cube (1), the dragonfly a4 p2 h2 (3)
 * and fat trees (1 with 2 levels; 3 with 3 levels, where the paths
 * between top switches turn down then up).
 *
 * Cost: n BFS trees with a walk up from each node, O(n^2 x depth) for n
 * switches; then n(n-1)/2 pairs, each a walk of both paths per lane tried
 * and, when a path adds edges, a cycle search over what they reach in
 * that lane's CDG. Memory: two n x n byte tables and one CDG per lane.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/credit_loop.h"
#include "subnet_manager/routing.h"

#define LASH_LANES_MAX 15

struct lash {
	struct ibfs_subnet *sn;
	int n;
	int *ord;        /* lash id -> switch index, GUID order */
	int *id;         /* switch index -> lash id */
	uint8_t *out;    /* n x n: port towards switch d, 0 = none */
	uint8_t *lane;   /* n x n: lane of the pair */
	int *parent, *queue;
	uint8_t *pport;  /* BFS: the parent's port to each node */
	struct ibfs_cdg *g[LASH_LANES_MAX];
	uint32_t *added; /* edge bits a pair added to a lane */
	int *csw, *cport;
	long pairs[LASH_LANES_MAX];
};

/* The lash id of the switch behind port p of lash switch a, or -1. */
static int lash_peer(const struct lash *L, int a, int p)
{
	const struct ibfs_subnet *sn = L->sn;
	const struct ibfs_sn_port *pp =
		&sn->nodes[sn->sw_node[L->ord[a]]].ports[p];
	if (pp->peer < 0 || sn->nodes[pp->peer].type != IBFS_NODE_SWITCH)
		return -1;
	return L->id[sn->nodes[pp->peer].sw];
}

/* Whether switch x comes before switch y: lower GUID, then index. */
static int lash_before(const struct ibfs_subnet *sn, int x, int y)
{
	uint64_t a = sn->nodes[sn->sw_node[x]].guid;
	uint64_t b = sn->nodes[sn->sw_node[y]].guid;
	return a != b ? a < b : x < y;
}

/*
 * Switches in GUID order (ties by index). An insertion sort: n is the
 * number of switches, and the topologies number them in GUID order
 * already, which makes it linear.
 */
static void lash_order(struct lash *L)
{
	for (int i = 0; i < L->n; i++) {
		int x = i, j = i;
		for (; j > 0 && lash_before(L->sn, x, L->ord[j - 1]); j--)
			L->ord[j] = L->ord[j - 1];
		L->ord[j] = x;
	}
	for (int i = 0; i < L->n; i++)
		L->id[L->ord[i]] = i;
}

/*
 * The BFS tree from root r (parent[], and pport[] the parent's first port
 * to the node), then for each node d the walk up to r: every ancestor a
 * whose route to d is unset takes the port to the child on the way.
 */
static void lash_tree(struct lash *L, int r)
{
	const struct ibfs_subnet *sn = L->sn;
	int n = L->n, qn = 0;
	for (int i = 0; i < n; i++)
		L->parent[i] = -2; /* not reached */
	L->parent[r] = -1;
	L->queue[qn++] = r;
	for (int i = 0; i < qn; i++) {
		int a = L->queue[i];
		int np = sn->nodes[sn->sw_node[L->ord[a]]].nports;
		for (int p = 1; p <= np; p++) {
			int c = lash_peer(L, a, p);
			if (c < 0 || L->parent[c] != -2)
				continue;
			L->parent[c] = a;
			L->pport[c] = (uint8_t)p;
			L->queue[qn++] = c;
		}
	}
	for (int i = 1; i < qn; i++) {
		int d = L->queue[i];
		for (int x = d; L->parent[x] >= 0; x = L->parent[x]) {
			uint8_t *o = &L->out[(size_t)L->parent[x] * n + d];
			if (!*o)
				*o = L->pport[x];
		}
	}
}

/*
 * Adds the dependencies of the path from lash switch s to d to lane l,
 * the bits not set before going to L->added from *na on.
 */
static void lash_add_path(struct lash *L, int l, int s, int d, int *na)
{
	int n = L->n;
	while (s != d) {
		int p = L->out[(size_t)s * n + d];
		int v = lash_peer(L, s, p);
		if (v == d)
			break;
		int q = L->out[(size_t)v * n + d];
		int64_t b = ibfs__cdg_edge(L->g[l], L->ord[s], p, q);
		if (b >= 0 && !ibfs__cdg_test(L->g[l], (uint32_t)b)) {
			ibfs__cdg_set(L->g[l], (uint32_t)b, 1);
			L->added[(*na)++] = (uint32_t)b;
		}
		s = v;
	}
}

/*
 * Puts the pair (i, d) on lane l if its CDG stays acyclic. Returns 1 if
 * it did, 0 if not (the lane as before), -1 when out of memory.
 */
static int lash_try(struct lash *L, int l, int i, int d)
{
	int na = 0;
	lash_add_path(L, l, i, d, &na);
	lash_add_path(L, l, d, i, &na);
	if (!na)
		return 1;
	int max = ibfs__cdg_nchan(L->g[l]) + 1;
	int c = ibfs__cdg_find_cycle_added(L->g[l], L->added, na, L->csw,
					   L->cport, max);
	if (c < 0)
		return -1;
	if (c > 0)
		ibfs__cdg_remove(L->g[l], L->added, na);
	return c == 0;
}

/* The pair (i, d) needs a lane more than the data VLs: ERR 4D02. */
static void lash_fail(struct lash *L, int i, int d, int maxl)
{
	struct ibfs_subnet *sn = L->sn;
	const struct ibfs_sn_node *a = &sn->nodes[sn->sw_node[L->ord[i]]];
	const struct ibfs_sn_node *b = &sn->nodes[sn->sw_node[L->ord[d]]];
	ibfs__subnet_log(sn,
			 "ERR 4D02: lash: lane requirements (%d) exceed the %d data VL%s of this fabric, at the paths between '%s' (GUID 0x%016" PRIx64 ") and '%s' (GUID 0x%016" PRIx64 "): more are needed (set data-vls)",
			 maxl + 1, maxl, maxl > 1 ? "s" : "", a->name,
			 a->guid, b->name, b->guid);
}

/*
 * The lanes, first fit (OpenSM's lash_core). Returns how many, -1 when
 * out of memory or -2 when the data VLs do not suffice.
 */
static int lash_lanes(struct lash *L, int maxl)
{
	struct ibfs_subnet *sn = L->sn;
	int n = L->n, lanes = 0;
	for (int i = 0; i < n; i++)
		for (int d = i + 1; d < n; d++) {
			if (!L->out[(size_t)i * n + d])
				continue; /* another component */
			int l = 0, rc = 0;
			while (l < lanes && !(rc = lash_try(L, l, i, d)))
				l++;
			if (rc < 0)
				return -1;
			if (l == lanes) {
				if (lanes == maxl) {
					lash_fail(L, i, d, maxl);
					return -2;
				}
				L->g[lanes] = ibfs__cdg_new(sn);
				if (!L->g[lanes])
					return -1;
				lanes++;
				/* Both paths alone on a lane: acyclic. */
				if (lash_try(L, l, i, d) != 1)
					return -1;
			}
			L->lane[(size_t)i * n + d] = (uint8_t)l;
			L->lane[(size_t)d * n + i] = (uint8_t)l;
			L->pairs[l] += 2;
		}
	return lanes ? lanes : 1;
}

/* The LFTs and the per-path SLs from the switch tables. */
static void lash_fill(struct lash *L)
{
	struct ibfs_subnet *sn = L->sn;
	size_t row = (size_t)sn->max_lid + 1;
	int n = L->n;
	for (unsigned lid = 1; lid <= sn->max_lid; lid++) {
		int tp, t = ibfs__subnet_lid_switch(sn, lid, &tp);
		if (t < 0)
			continue;
		int dt = L->id[t];
		for (int s = 0; s < sn->nsw; s++) {
			int ds = L->id[s];
			if (s == t) {
				*ibfs__subnet_lft(sn, s, lid) = (uint8_t)tp;
				continue;
			}
			uint8_t p = L->out[(size_t)ds * n + dt];
			if (!p)
				continue;
			*ibfs__subnet_lft(sn, s, lid) = p;
			sn->src_sl[(size_t)s * row + lid] =
				L->lane[(size_t)ds * n + dt];
		}
	}
}

static int lash_build(void *ctx)
{
	struct lash *L = ctx;
	struct ibfs_subnet *sn = L->sn;
	int n = L->n = sn->nsw;
	size_t nn = (size_t)(n ? n : 1);
	L->ord = malloc(nn * sizeof(int));
	L->id = malloc(nn * sizeof(int));
	L->parent = malloc(nn * sizeof(int));
	L->queue = malloc(nn * sizeof(int));
	L->pport = malloc(nn);
	L->out = calloc(nn * nn, 1);
	L->lane = calloc(nn * nn, 1);
	L->added = malloc(2 * nn * sizeof(uint32_t));
	if (!L->ord || !L->id || !L->parent || !L->queue || !L->pport ||
	    !L->out || !L->lane || !L->added || ibfs__subnet_alloc_src_sl(sn))
		goto oom;
	/* A cycle is no longer than the channels: at most the ports. */
	size_t nc = 1;
	for (int s = 0; s < n; s++) {
		L->ord[s] = s;
		nc += (size_t)sn->nodes[sn->sw_node[s]].nports;
	}
	L->csw = malloc(nc * sizeof(int));
	L->cport = malloc(nc * sizeof(int));
	if (!L->csw || !L->cport)
		goto oom;
	lash_order(L);
	for (int r = 0; r < n; r++)
		lash_tree(L, r);
	int maxl = sn->data_vls < 1 ? 1 : sn->data_vls;
	maxl = maxl > LASH_LANES_MAX ? LASH_LANES_MAX : maxl;
	int lanes = lash_lanes(L, maxl);
	if (lanes == -1)
		goto oom;
	if (lanes < 0)
		return -1;
	lash_fill(L);
	char list[LASH_LANES_MAX * 22] = "";
	size_t o = 0;
	for (int l = 0; l < lanes && o < sizeof(list); l++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%ld",
				      l ? ", " : "", L->pairs[l]);
	ibfs__subnet_log(sn,
			 "lash: lanes needed: %d of %d data VLs (switch-to-switch paths per lane, not balanced: %s)",
			 lanes, maxl, list);
	return 0;
oom:
	ibfs__subnet_log(sn, "ERR 4D01: lash: out of memory");
	return -1;
}

static void lash_destroy(void *ctx)
{
	struct lash *L = ctx;
	for (int l = 0; l < LASH_LANES_MAX; l++)
		ibfs__cdg_free(L->g[l]);
	free(L->ord);
	free(L->id);
	free(L->parent);
	free(L->queue);
	free(L->pport);
	free(L->out);
	free(L->lane);
	free(L->added);
	free(L->csw);
	free(L->cport);
	free(L);
}

int ibfs__route_lash_setup(struct ibfs_routing_engine *re)
{
	struct lash *L = calloc(1, sizeof(*L));
	if (!L)
		return -1;
	L->sn = re->sn;
	re->ctx = L;
	re->ucast_build_fwd_tables = lash_build;
	re->destroy = lash_destroy;
	return 0;
}
