/* SPDX-License-Identifier: MIT */
/*
 * Counts, diameter and known bisection widths (see topo_info.h). The
 * diameter takes one BFS over the switch graph from each switch that has
 * HCAs: O(switches x links).
 *
 * Bisection widths (links cut by the best balanced cut):
 * - folded-Clos fat tree of K-port switches: full bisection, N/2 links for
 *   N HCAs (Leiserson, "Fat-trees", IEEE TC 1985; N = 2(K/2)^L);
 * - k-ary torus with largest dimension d: 2N/d for d > 2 (each of the N/d
 *   rings along d is cut twice), N/d when d = 2 (no wrap link); a mesh N/d;
 * - hypercube of dimension n: 2^(n-1); a ring: 2;
 * - dragonfly with g = a*h+1 groups and one global link per group pair:
 *   floor(g/2)*ceil(g/2) global links between the two halves of the groups
 *   (Kim et al., ISCA 2008), local links staying inside a group.
 * HyperX, Dragonfly+ and Slim Fly are named but get no figure: the
 * obvious cuts only bound their bisection from above.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_info.h"

long ibfs__topo_bisection_by_name(const char *name, const char **family)
{
	long k, l, a, p, h, n;
	int used = 0;
	*family = NULL;
	if (!name)
		return -1;
	if (sscanf(name, "fat-tree-k%ld-l%ld%n", &k, &l, &used) == 2 &&
	    !name[used] && k >= 2 && l >= 1 && l <= 8) {
		long x = 1;
		for (int i = 0; i < l; i++)
			x *= k / 2;
		*family = "fat tree";
		return x; /* N/2 = (k/2)^l */
	}
	if (sscanf(name, "hypercube-d%ld%n", &n, &used) == 1 && !name[used] &&
	    n >= 1 && n < 40) {
		*family = "hypercube";
		return 1L << (n - 1);
	}
	if (sscanf(name, "ring-n%ld%n", &n, &used) == 1 && !name[used]) {
		*family = "ring";
		return 2;
	}
	if (sscanf(name, "dragonfly-a%ld-p%ld-h%ld%n", &a, &p, &h, &used) ==
		    3 &&
	    !name[used]) {
		long g = a * h + 1;
		*family = "dragonfly";
		return (g / 2) * ((g + 1) / 2);
	}
	/* Generated, with no bisection formula here: the cut between halves
	 * of the lattice, of the groups or of the MMS graph is an upper
	 * bound only. The family is still named. */
	static const char *const direct[][2] = {
		{"hyperx-", "HyperX"},
		{"dragonfly-plus-", "Dragonfly+"},
		{"slimfly-q", "Slim Fly"},
	};
	for (size_t i = 0; i < sizeof(direct) / sizeof(direct[0]); i++)
		if (!strncmp(name, direct[i][0], strlen(direct[i][0]))) {
			*family = direct[i][1];
			return -1;
		}
	int torus = !strncmp(name, "torus-", 6);
	if (torus || !strncmp(name, "mesh-", 5)) {
		const char *c = name + (torus ? 6 : 5);
		long prod = 1, max = 0;
		while (*c) {
			char *e;
			long d = strtol(c, &e, 10);
			if (e == c || d < 1 || (*e && *e != 'x'))
				return -1;
			prod *= d;
			max = d > max ? d : max;
			c = *e ? e + 1 : e;
		}
		if (max < 2)
			return -1;
		*family = torus ? "torus" : "mesh";
		return (torus && max > 2 ? 2 : 1) * (prod / max);
	}
	return -1;
}

size_t ibfs__topo_lids_needed(const struct ibfs_topology *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *node = &t->nodes[i];

		if (node->type == IBFS_NODE_SWITCH) {
			n++;
			continue;
		}
		for (int p = 1; p <= node->nports; p++)
			n += node->ports[p].peer_node >= 0;
	}
	return n;
}

int ibfs__topo_info(const struct ibfs_topology *t, struct ibfs_topo_info *in)
{
	memset(in, 0, sizeof(*in));
	in->switches = ibfs__topo_count(t, IBFS_NODE_SWITCH);
	in->hcas = ibfs__topo_count(t, IBFS_NODE_HCA);
	in->links = t->nlinks;
	in->bisection = ibfs__topo_bisection_by_name(t->name, &in->family);
	in->lids = ibfs__topo_lids_needed(t);
	size_t nn = t->nnodes ? t->nnodes : 1;
	int *cas = calloc(nn, sizeof(int));  /* HCA ports on each switch */
	int *dist = malloc(nn * sizeof(int));
	int *q = malloc(nn * sizeof(int));
	if (!cas || !dist || !q) {
		free(cas);
		free(dist);
		free(q);
		return -1;
	}
	int direct = 0, comps_ok = 1;
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		if (n->type != IBFS_NODE_HCA)
			continue;
		for (int p = 1; p <= n->nports; p++) {
			int peer = n->ports[p].peer_node;
			if (peer < 0)
				continue;
			in->hca_ports++;
			if (t->nodes[peer].type == IBFS_NODE_SWITCH)
				cas[peer]++;
			else
				direct = 1;
		}
	}
	int diam = direct ? 1 : 0;
	for (size_t s = 0; s < t->nnodes; s++) {
		if (!cas[s])
			continue;
		if (cas[s] > 1 && diam < 2)
			diam = 2;
		for (size_t i = 0; i < t->nnodes; i++)
			dist[i] = -1;
		int hd = 0, tl = 0;
		dist[s] = 0;
		q[tl++] = (int)s;
		while (hd < tl) {
			int x = q[hd++];
			const struct ibfs_topo_node *n = &t->nodes[x];
			for (int p = 1; p <= n->nports; p++) {
				int v = n->ports[p].peer_node;
				if (v < 0 || dist[v] >= 0 ||
				    t->nodes[v].type != IBFS_NODE_SWITCH)
					continue;
				dist[v] = dist[x] + 1;
				q[tl++] = v;
			}
		}
		for (size_t v = 0; v < t->nnodes; v++) {
			if (!cas[v] || v == s)
				continue;
			if (dist[v] < 0)
				comps_ok = 0;
			else if (dist[v] + 2 > diam)
				diam = dist[v] + 2;
		}
	}
	in->diameter = comps_ok ? diam : -1;
	free(cas);
	free(dist);
	free(q);
	return 0;
}
