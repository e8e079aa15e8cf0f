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
 * shortest port.
 *
 * Cost. What depends only on the leaf (its ancestors and their down ports,
 * the level at which every switch meets them) is found once a leaf, for
 * all its CA LIDs. A LID then costs one step per switch: an ancestor
 * picks among its few down ports; a switch that joins the main path
 * offers itself to the switches below it (instead of each switch reading
 * all its up peers); a switch without a main-path peer takes its least
 * loaded up port, cached between LIDs. The switch LIDs come from bit sets
 * of the switches within d hops (ft_route_switch_lids).
 * tests/check_route_ftree.c compares every entry with the plain
 * algorithm.
 *
 * On the 3-level fat trees of 4- to 16-port switches and the XGFTs of
 * tests/check_route_ftree.c, which keeps OpenSM 3.3.23's tables, every
 * CA-to-CA path is the one OpenSM's ftree takes. OpenSM refuses LMC > 0
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
	int *reach;       /* per leaf: level at which a route meets the
			     leaf's ancestors (the same for all its LIDs) */
	char *full;       /* per leaf: every up peer of this non-ancestor
			     has its lowest reach */
	int *alist, na;   /* per leaf: ancestors, top level first */
	int *nlist, nn;   /* per leaf: the other switches, top level first */
	char *main;       /* per LID: the route joins the main path */
	int *mbest;       /* per LID: best up index to a main peer, -1 */
	int *upmin;       /* per switch: up index of the fewest CA LIDs
			     (lowest port on a tie), -1 when unknown */
	int *pos;         /* main path of a port's base LID: the position of
			     the up port taken at each level */
	char *anc;        /* ancestors of the current leaf */
	char *dcand;      /* down ports towards the current leaf */
	int *dc_start;    /* per leaf: those ports as lists, ascending */
	int *dc_port;
	int *q;
	int *up_start;    /* up ports of switch s: up_port[up_start[s]..] */
	int *up_port;
	int *up_peer;     /* the switch at the far end of up_port[i] */
	int *dn_start;    /* links down from switch v: dn_up[dn_start[v]..] */
	int *dn_sw;       /* the lower switch */
	int *dn_up;       /* the link's up index there */
	int *adj_start;   /* every switch-to-switch link of s, ascending */
	int *adj_peer;    /* the switch at the far end */
	int *adj_port;    /* the port at s */
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

/*
 * Marks the ancestors of leaf l and the down ports leading to it, and lists
 * those ports per ancestor (ascending, as the scan over all ports found
 * them before). Done once a leaf: the leaf's CA LIDs share it.
 */
static int ft_ancestors(struct ft *f, int l)
{
	const struct ibfs_subnet *sn = f->sn;
	memset(f->anc, 0, (size_t)sn->nsw);
	int h = 0, t = 0;
	f->anc[l] = 1;
	f->q[t++] = l;
	while (h < t) {
		int x = f->q[h++];
		for (int i = f->up_start[x]; i < f->up_start[x + 1]; i++) {
			int v = f->up_peer[i];
			const struct ibfs_sn_port *pp =
				&ft_node(f, x)->ports[f->up_port[i]];
			f->dcand[(size_t)v * (size_t)f->stride +
				 pp->peer_port] = 1;
			if (!f->anc[v]) {
				f->anc[v] = 1;
				f->q[t++] = v;
			}
		}
	}
	int k = 0;
	for (int s = 0; s < sn->nsw; s++) {
		f->dc_start[s] = k;
		if (!f->anc[s])
			continue;
		char *dc = &f->dcand[(size_t)s * (size_t)f->stride];
		for (int p = 1; p <= ft_node(f, s)->nports; p++)
			if (dc[p]) {
				f->dc_port[k++] = p;
				dc[p] = 0; /* clear for the next leaf */
			}
	}
	f->dc_start[sn->nsw] = k;
	return t;
}

/*
 * The reach of every switch for leaf l: an ancestor meets the leaf's
 * ancestors at its own level; any other switch at the lowest reach of its
 * up peers (IBFS_DIST_INF if none has one). It depends on the leaf only,
 * not on the LID or the route counts, so every LID of the leaf reuses it.
 * full[s] says that all of s's up peers share that lowest reach, so its
 * choice among them is among all its up ports.
 */
static void ft_reach(struct ft *f)
{
	const struct ibfs_subnet *sn = f->sn;
	f->na = f->nn = 0;
	for (int o = 0; o < sn->nsw; o++) {
		int s = f->order[o];
		if (f->anc[s]) {
			f->reach[s] = f->level[s];
			f->full[s] = 0;
			f->alist[f->na++] = s;
			continue;
		}
		f->nlist[f->nn++] = s;
		int r = IBFS_DIST_INF, all = 1;
		for (int i = f->up_start[s]; i < f->up_start[s + 1]; i++) {
			int rv = f->reach[f->up_peer[i]];
			if (rv != r && i != f->up_start[s])
				all = 0;
			if (rv < r)
				r = rv;
		}
		f->reach[s] = r;
		f->full[s] = (char)(all && r < IBFS_DIST_INF);
	}
}

/* Whether switch s has no linked port. */
static int ft_isolated(const struct ibfs_subnet *sn, int s)
{
	const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[s]];

	for (int p = 1; p <= n->nports; p++)
		if (n->ports[p].peer >= 0)
			return 0;
	return 1;
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
		/*
		 * A switch with no link is not in the fabric: the SM keeps
		 * the records of nodes a later sweep no longer found (a
		 * switch that failed), where OpenSM drops them. Level 0,
		 * below the leaves: no route goes through it.
		 */
		if (ft_isolated(sn, s)) {
			f->level[s] = 0;
			continue;
		}
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
		if (!up && f->level[s] != *top && f->level[s]) {
			ibfs__subnet_log(sn,
					 "ERR AB04: ftree: switch '%s' GUID 0x%016" PRIx64 " port 0 on level %d has no up port but the top level is %d: not a fat tree",
					 n->name, n->guid, f->level[s], *top);
			return -1;
		}
	}
	return 0;
}

/*
 * Lists every switch's up ports once (CSR), so picks scan only them; the
 * same links seen from above (for each switch, its links down, by up index
 * at the lower end); and every switch-to-switch link by ascending port with
 * its port (for the switch LIDs).
 */
static int ft_index_up(struct ft *f)
{
	const struct ibfs_subnet *sn = f->sn;
	size_t total = 0, nsw = (size_t)sn->nsw;
	for (int s = 0; s < sn->nsw; s++)
		total += (size_t)ft_node(f, s)->nports;
	f->up_start = malloc(sizeof(int) * (nsw + 1));
	f->up_port = malloc(sizeof(int) * (total + 1));
	f->up_peer = malloc(sizeof(int) * (total + 1));
	f->dn_start = calloc(nsw + 1, sizeof(int));
	f->dn_sw = malloc(sizeof(int) * (total + 1));
	f->dn_up = malloc(sizeof(int) * (total + 1));
	f->adj_start = malloc(sizeof(int) * (nsw + 1));
	f->adj_peer = malloc(sizeof(int) * (total + 1));
	f->adj_port = malloc(sizeof(int) * (total + 1));
	if (!f->up_start || !f->up_port || !f->up_peer || !f->dn_start ||
	    !f->dn_sw || !f->dn_up || !f->adj_start || !f->adj_peer ||
	    !f->adj_port)
		return -1;
	int k = 0, a = 0;
	for (int s = 0; s < sn->nsw; s++) {
		const struct ibfs_sn_node *n = ft_node(f, s);
		f->up_start[s] = k;
		f->adj_start[s] = a;
		for (int p = 1; p <= n->nports; p++) {
			int v = ft_peer_sw(sn, s, p);
			if (v < 0)
				continue;
			f->adj_peer[a] = v;
			f->adj_port[a++] = p;
			if (f->level[v] == f->level[s] + 1) {
				f->up_peer[k] = v;
				f->up_port[k++] = p;
				f->dn_start[v + 1]++;
			}
		}
	}
	f->up_start[sn->nsw] = k;
	f->adj_start[sn->nsw] = a;
	for (int v = 0; v < sn->nsw; v++)
		f->dn_start[v + 1] += f->dn_start[v];
	int *fill = f->q; /* free until the leaves are routed */
	memcpy(fill, f->dn_start, sizeof(int) * nsw);
	for (int s = 0; s < sn->nsw; s++)
		for (int i = f->up_start[s]; i < f->up_start[s + 1]; i++) {
			int d = fill[f->up_peer[i]]++;
			f->dn_sw[d] = s;
			f->dn_up[d] = i;
		}
	return 0;
}

/* The least loaded of switch s's down ports towards the current leaf. */
static int ft_pick_down(const struct ft *f, int s)
{
	const uint32_t *cnt = &f->count[(size_t)s * (size_t)f->stride];
	int best = IBFS_LFT_NO_PATH;
	for (int i = f->dc_start[s]; i < f->dc_start[s + 1]; i++) {
		int p = f->dc_port[i];
		if (best == IBFS_LFT_NO_PATH || cnt[p] < cnt[best])
			best = p;
	}
	return best;
}

/* Up index of switch s's up port with the fewest CA LIDs, lowest first. */
static int ft_upmin(struct ft *f, int s)
{
	const uint32_t *cnt = &f->count[(size_t)s * (size_t)f->stride];
	if (f->upmin[s] < 0) {
		int b = f->up_start[s];
		for (int i = b + 1; i < f->up_start[s + 1]; i++)
			if (cnt[f->up_port[i]] < cnt[f->up_port[b]])
				b = i;
		f->upmin[s] = b;
	}
	return f->upmin[s];
}

/*
 * Up index i of switch s now carries one more CA LID. If it was the
 * fewest, the next is the first later port with its old count (earlier
 * ones carry more), else unknown until asked.
 */
static void ft_up_taken(struct ft *f, int s, int i)
{
	if (f->upmin[s] != i)
		return;
	const uint32_t *cnt = &f->count[(size_t)s * (size_t)f->stride];
	uint32_t c = cnt[f->up_port[i]] - 1;
	f->upmin[s] = -1;
	for (int j = i + 1; j < f->up_start[s + 1]; j++)
		if (cnt[f->up_port[j]] == c) {
			f->upmin[s] = j;
			break;
		}
}

/*
 * Switch v has joined the main path: each non-ancestor below it for which
 * v is among the peers of lowest reach now has a main peer to prefer; keep
 * the one with the fewest CA LIDs, lowest port on a tie. The counts of the
 * switch below do not change before it picks (only its own picks do).
 */
static void ft_push_main(struct ft *f, int v)
{
	int rv = f->reach[v];
	for (int d = f->dn_start[v]; d < f->dn_start[v + 1]; d++) {
		int s = f->dn_sw[d], i = f->dn_up[d];
		if (f->anc[s] || f->reach[s] != rv)
			continue;
		const uint32_t *cnt =
			&f->count[(size_t)s * (size_t)f->stride];
		int b = f->mbest[s];
		if (b < 0 || cnt[f->up_port[i]] < cnt[f->up_port[b]] ||
		    (cnt[f->up_port[i]] == cnt[f->up_port[b]] && i < b))
			f->mbest[s] = i;
	}
}

static void ft_set(struct ft *f, int s, unsigned lid, int p)
{
	*ibfs__subnet_lft(f->sn, s, lid) = (uint8_t)p;
	if (p != IBFS_LFT_NO_PATH)
		f->count[(size_t)s * (size_t)f->stride + p]++;
}

/*
 * The up port of a switch off the main path: one to a peer of the lowest
 * reach (so the route stays shortest), preferring a peer on the way to the
 * main path, then the fewest CA LIDs, then the lowest port. The reach is
 * the leaf's (ft_reach); main peers were offered by ft_push_main; when all
 * up peers share the reach the rest is the switch's cached least loaded up
 * port. Returns the up index, or -1 when no peer reaches the leaf.
 */
static int ft_pick_up(struct ft *f, int s)
{
	if (f->reach[s] >= IBFS_DIST_INF)
		return -1;
	int b = f->mbest[s];
	if (b >= 0) {
		f->mbest[s] = -1; /* ready for the next LID */
		f->main[s] = 1;
		if (f->dn_start[s] < f->dn_start[s + 1]) /* not a leaf */
			ft_push_main(f, s);
		return b;
	}
	if (f->full[s])
		return ft_upmin(f, s);
	const uint32_t *cnt = &f->count[(size_t)s * (size_t)f->stride];
	int best = -1;
	for (int i = f->up_start[s]; i < f->up_start[s + 1]; i++)
		if (f->reach[f->up_peer[i]] == f->reach[s] &&
		    (best < 0 || cnt[f->up_port[i]] < cnt[f->up_port[best]]))
			best = i;
	return best;
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
	memset(f->main, 0, (size_t)sn->nsw);
	ft_set(f, l, lid, hp);
	f->main[l] = 1;
	ft_push_main(f, l);
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
		ft_push_main(f, s);
	}
	/*
	 * Ancestors route down, reading only their own counts; then the
	 * others, top level first, so that a switch's up peers have picked
	 * (and offered main peers) before it.
	 */
	for (int o = 0; o < f->na; o++) {
		int s = f->alist[o];
		if (!f->main[s])
			ft_set(f, s, lid, ft_pick_down(f, s));
	}
	for (int o = 0; o < f->nn; o++) {
		int s = f->nlist[o];
		int i = ft_pick_up(f, s);
		if (i < 0) {
			ft_set(f, s, lid, IBFS_LFT_NO_PATH);
			continue;
		}
		ft_set(f, s, lid, f->up_port[i]);
		ft_up_taken(f, s, i);
	}
}

/*
 * Switch LIDs, all destinations at once with bit sets: within[d] holds,
 * for every switch v, the set of switches at most d hops from v (one bit
 * a switch, nw words a set): within[0] is {v}, within[d] adds the sets
 * within[d - 1] of v's neighbours. Switch s then forwards to t, at distance
 * d (the first d with t in within[d] of s), through its lowest port to a
 * neighbour u with t in within[d - 1] of u, one hop closer: taking the
 * ports in ascending order, each claims those of the remaining
 * destinations. The entries are those of a breadth-first search per
 * destination with the lowest port one hop closer (as minhop gives switch
 * LIDs), for about nsw x ports x distance x nsw / 64 word operations
 * instead of nsw x ports x nsw steps. Returns 0 or -1 (out of memory).
 */
static int ft_route_switch_lids(struct ft *f)
{
	struct ibfs_subnet *sn = f->sn;
	size_t nsw = (size_t)sn->nsw, nw = (nsw + 63) / 64, set = nsw * nw;
	if (!nsw)
		return 0;
	uint64_t **within = NULL, *rem = malloc(nw * sizeof(uint64_t));
	unsigned *lid = malloc(nsw * sizeof(unsigned));
	int depth = 0, rc = -1;
	if (!rem || !lid || !(within = calloc(nsw + 1, sizeof(*within))) ||
	    !(within[0] = calloc(set, sizeof(uint64_t))))
		goto out;
	for (size_t v = 0; v < nsw; v++) {
		within[0][v * nw + v / 64] = 1ull << (v % 64);
		lid[v] = ft_node(f, (int)v)->ports[0].lid;
	}
	for (int grew = 1; grew && depth < (int)nsw; depth++) {
		uint64_t *prev = within[depth], *next;
		if (!(next = malloc(set * sizeof(uint64_t))))
			goto out;
		within[depth + 1] = next;
		grew = 0;
		for (size_t v = 0; v < nsw; v++) {
			uint64_t *nv = &next[v * nw];
			memcpy(nv, &prev[v * nw], nw * sizeof(uint64_t));
			for (int a = f->adj_start[v]; a < f->adj_start[v + 1];
			     a++) {
				const uint64_t *pu =
					&prev[(size_t)f->adj_peer[a] * nw];
				for (size_t w = 0; w < nw; w++)
					nv[w] |= pu[w];
			}
			for (size_t w = 0; w < nw && !grew; w++)
				grew = nv[w] != prev[v * nw + w];
		}
	}
	/* within[depth] == within[depth - 1]: every distance is known. */
	for (size_t s = 0; s < nsw; s++) {
		*ibfs__subnet_lft(sn, (int)s, lid[s]) = 0;
		size_t left = 0;
		for (size_t w = 0; w < nw; w++) {
			rem[w] = within[depth][s * nw + w] &
				 ~within[0][s * nw + w];
			left += rem[w] != 0;
		}
		for (int a = f->adj_start[s]; left && a < f->adj_start[s + 1];
		     a++) {
			size_t u = (size_t)f->adj_peer[a];
			left = 0;
			for (size_t w = 0; w < nw; w++) {
				uint64_t cover = 0;
				for (int d = 1; d <= depth; d++)
					cover |= within[d][s * nw + w] &
						 ~within[d - 1][s * nw + w] &
						 within[d - 1][u * nw + w];
				cover &= rem[w];
				rem[w] &= ~cover;
				left += rem[w] != 0;
				for (; cover; cover &= cover - 1) {
					size_t t = w * 64 + (size_t)
						__builtin_ctzll(cover);
					*ibfs__subnet_lft(sn, (int)s, lid[t]) =
						(uint8_t)f->adj_port[a];
				}
			}
		}
	}
	rc = 0;
out:
	for (int d = 0; within && d <= depth; d++)
		free(within[d]);
	free(within);
	free(rem);
	free(lid);
	return rc;
}

static int ft_build(void *ctx)
{
	struct ft *f = ctx;
	struct ibfs_subnet *sn = f->sn;
	size_t nsw = (size_t)(sn->nsw ? sn->nsw : 1);
	int maxp = 0, top;
	for (int s = 0; s < sn->nsw; s++)
		if (ft_node(f, s)->nports > maxp)
			maxp = ft_node(f, s)->nports;
	f->stride = maxp + 1;
	f->level = malloc(nsw * sizeof(int));
	f->count = calloc(nsw * (size_t)f->stride, sizeof(uint32_t));
	f->mcount = calloc(nsw * (size_t)f->stride, sizeof(uint32_t));
	f->order = malloc(nsw * sizeof(int));
	f->reach = malloc(nsw * sizeof(int));
	f->full = malloc(nsw);
	f->alist = malloc(nsw * sizeof(int));
	f->nlist = malloc(nsw * sizeof(int));
	f->main = malloc(nsw);
	f->mbest = malloc(nsw * sizeof(int));
	f->upmin = malloc(nsw * sizeof(int));
	f->dc_start = malloc((nsw + 1) * sizeof(int));
	f->pos = malloc((nsw + 1) * sizeof(int));
	f->anc = malloc(nsw);
	f->dcand = calloc(nsw * (size_t)f->stride, 1);
	f->dc_port = malloc(nsw * (size_t)f->stride * sizeof(int));
	f->q = malloc(nsw * sizeof(int));
	if (!f->level || !f->count || !f->anc || !f->dcand || !f->q ||
	    !f->mcount || !f->order || !f->reach || !f->main || !f->pos ||
	    !f->full || !f->alist || !f->nlist || !f->mbest || !f->upmin ||
	    !f->dc_start || !f->dc_port) {
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
	/* Top down, and last the switches without a link (level 0). */
	for (int lv = top; lv >= 0; lv--)
		for (int s = 0; s < sn->nsw; s++)
			if (f->level[s] == lv)
				f->order[nord++] = s;
	memset(f->upmin, 0xff, nsw * sizeof(int));
	/* Offers are taken back as they are used (ft_pick_up): every switch
	 * offered one picks in the same LID. */
	memset(f->mbest, 0xff, nsw * sizeof(int));
	unsigned step = 1u << sn->lmc;
	for (int l = 0; l < sn->nsw; l++) {
		if (f->level[l] != 1)
			continue;
		ft_ancestors(f, l);
		ft_reach(f);
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
	if (ft_route_switch_lids(f)) {
		ibfs__subnet_log(sn, "ERR AB05: ftree: out of memory");
		return -1;
	}
	return 0;
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
	free(f->full);
	free(f->alist);
	free(f->nlist);
	free(f->mbest);
	free(f->upmin);
	free(f->dc_start);
	free(f->dc_port);
	free(f->dn_start);
	free(f->dn_sw);
	free(f->dn_up);
	free(f->adj_start);
	free(f->adj_peer);
	free(f->adj_port);
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
