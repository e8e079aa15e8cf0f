/* SPDX-License-Identifier: MIT */
/*
 * Multicast spanning trees, built as OpenSM's multicast manager builds
 * them (osm_mcast_mgr.c, the facts only):
 *   - The root is the switch whose largest hop count to a member port is
 *     the least (OpenSM's "max hops", its default; the average is an
 *     option of one vendor interface), the first such switch by node
 *     GUID; a CA port counts one hop more than the switch it hangs on.
 *   - From the root down, the members still to reach are split by the
 *     port each is reached by: the switch it hangs on, the port to it;
 *     else the lowest-numbered port that starts a shortest path to that
 *     switch (osm_switch_recommend_mcast_path: the first port with the
 *     least hops, never load-balanced, so that one group takes one path).
 *     Hop counts are the fabric's shortest paths between switches (the
 *     min-hop tables OpenSM keeps beside the LFTs).
 *   - Each switch on the tree forwards the group to the ports its subsets
 *     leave by and, but at the root, to the port toward its parent: a
 *     packet entering anywhere on the tree reaches every member, and a
 *     switch never sends it back out of the port it came in on (IBA
 *     18.2.4.3.3), so the sender gets no copy.
 * Members whose port is not linked to a switch are left out.
 */
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/mcast.h"

enum { MT_FAR = 255 };

/* A member as the tree sees it: the switch it hangs on and the port. */
struct mt_member {
	int sw;
	int port;
};

struct mt {
	const struct ibfs_subnet *sn;
	uint8_t *dist;          /* nsw x nsw switch hop counts, MT_FAR none */
	uint64_t *masks;
	int ngroups, gi;
	struct mt_member *scratch; /* one per member, for the subsets */
};

static uint8_t mt_dist(const struct mt *m, int a, int b)
{
	return m->dist[(size_t)a * (size_t)m->sn->nsw + (size_t)b];
}

/* The switch behind port p of node n, or -1. */
static int mt_peer_sw(const struct ibfs_subnet *sn, int n, int p, int *pp)
{
	const struct ibfs_sn_port *x = &sn->nodes[n].ports[p];

	if (x->peer < 0 || sn->nodes[x->peer].sw < 0)
		return -1;
	if (pp)
		*pp = x->peer_port;
	return sn->nodes[x->peer].sw;
}

/* Breadth-first hop counts between switches over the links in sn. */
static int mt_hops(struct mt *m)
{
	const struct ibfs_subnet *sn = m->sn;
	int nsw = sn->nsw;
	int *q = malloc((size_t)(nsw ? nsw : 1) * sizeof(*q));

	m->dist = malloc((size_t)nsw * (size_t)nsw + 1);
	if (!q || !m->dist) {
		free(q);
		return -1;
	}
	memset(m->dist, MT_FAR, (size_t)nsw * (size_t)nsw);
	for (int s = 0; s < nsw; s++) {
		uint8_t *d = m->dist + (size_t)s * (size_t)nsw;
		int qn = 0;

		d[s] = 0;
		q[qn++] = s;
		for (int i = 0; i < qn; i++) {
			int n = sn->sw_node[q[i]];

			for (int p = 1; p <= sn->nodes[n].nports; p++) {
				int t = mt_peer_sw(sn, n, p, NULL);

				if (t >= 0 && d[t] == MT_FAR &&
				    d[q[i]] + 1 < MT_FAR) {
					d[t] = (uint8_t)(d[q[i]] + 1);
					q[qn++] = t;
				}
			}
		}
	}
	free(q);
	return 0;
}

/* Hops from switch s to a member's CA port; MT_FAR + 1 if none. */
static int mt_member_hops(const struct mt *m, int s,
			  const struct mt_member *x)
{
	return mt_dist(m, s, x->sw) + 1;
}

/* The root: least largest hop count, first by node GUID among ties. */
static int mt_root(const struct mt *m, const struct mt_member *mem, int n)
{
	const struct ibfs_subnet *sn = m->sn;
	int best = -1, best_hops = 0;

	for (int s = 0; s < sn->nsw; s++) {
		int worst = 0;

		for (int i = 0; i < n; i++) {
			int h = mt_member_hops(m, s, &mem[i]);

			if (h > worst)
				worst = h;
		}
		uint64_t g = sn->nodes[sn->sw_node[s]].guid;

		if (best < 0 || worst < best_hops ||
		    (worst == best_hops &&
		     g < sn->nodes[sn->sw_node[best]].guid)) {
			best = s;
			best_hops = worst;
		}
	}
	return best;
}

/* The port of switch s a member is reached by, or 0 when none. */
static int mt_port(const struct mt *m, int s, const struct mt_member *x)
{
	if (x->sw == s)
		return x->port;
	uint8_t least = mt_dist(m, s, x->sw);

	if (least == MT_FAR)
		return 0;
	int n = m->sn->sw_node[s];

	for (int p = 1; p <= m->sn->nodes[n].nports; p++) {
		int t = mt_peer_sw(m->sn, n, p, NULL);

		if (t >= 0 && mt_dist(m, t, x->sw) + 1 == least)
			return p;
	}
	return 0;
}

static void mt_set(struct mt *m, int s, int port)
{
	uint64_t *w = ibfs__mcast_mask(m->masks, m->ngroups, s, m->gi);

	w[port / 64] |= 1ULL << (port % 64);
}

/*
 * Switch s reaches members mem[0..n) (a slice of the scratch array, which
 * this call reorders into per-port subsets); up is the port toward its
 * parent, 0 at the root.
 */
static void mt_branch(struct mt *m, int s, struct mt_member *mem, int n,
		      int up, int depth)
{
	const struct ibfs_subnet *sn = m->sn;
	int node = sn->sw_node[s];

	if (up)
		mt_set(m, s, up);
	if (depth > 64) /* IBA 14.2.2: no path is longer than 64 hops */
		return;
	for (int p = 1; p <= sn->nodes[node].nports; p++) {
		int k = 0;

		/* Gather the members reached by port p at the front. */
		for (int i = 0; i < n; i++)
			if (mt_port(m, s, &mem[i]) == p) {
				struct mt_member t = mem[k];

				mem[k++] = mem[i];
				mem[i] = t;
			}
		if (!k)
			continue;
		mt_set(m, s, p);
		int pp, t = mt_peer_sw(sn, node, p, &pp);

		if (t >= 0)
			mt_branch(m, t, mem, k, pp, depth + 1);
		mem += k;
		n -= k;
	}
}

/* The members of group g that hang on a switch, into m->scratch. */
static int mt_members(struct mt *m, const struct ibfs_mcast_group *g,
		      int (*node_of)(void *, int), void *ctx)
{
	const struct ibfs_subnet *sn = m->sn;
	int n = 0;

	for (int i = 0; i < g->nmembers; i++) {
		int c = node_of(ctx, g->members[i].node);
		int p = g->members[i].port, pp;

		if (c < 0 || p < 1 || p > sn->nodes[c].nports)
			continue;
		int s = mt_peer_sw(sn, c, p, &pp);

		if (s >= 0)
			m->scratch[n++] = (struct mt_member){ s, pp };
	}
	return n;
}

int ibfs__mcast_trees(const struct ibfs_subnet *sn,
		      const struct ibfs_mcast_group *g, int ngroups,
		      int (*node_of)(void *ctx, int topo_node), void *ctx,
		      uint64_t *masks)
{
	struct mt m = { .sn = sn, .masks = masks, .ngroups = ngroups };
	int most = 1;

	memset(masks, 0, (size_t)sn->nsw * (size_t)ngroups *
				 IBFS_MCAST_MASK_WORDS * sizeof(*masks));
	for (int gi = 0; gi < ngroups; gi++)
		if (g[gi].nmembers > most)
			most = g[gi].nmembers;
	m.scratch = malloc((size_t)most * sizeof(*m.scratch));
	if (!m.scratch || mt_hops(&m) < 0) {
		free(m.scratch);
		free(m.dist);
		return -1;
	}
	for (int gi = 0; gi < ngroups; gi++) {
		int n = mt_members(&m, &g[gi], node_of, ctx);
		int root = n ? mt_root(&m, m.scratch, n) : -1;

		m.gi = gi;
		if (root >= 0)
			mt_branch(&m, root, m.scratch, n, 0, 0);
	}
	free(m.scratch);
	free(m.dist);
	return 0;
}
