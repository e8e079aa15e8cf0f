/* SPDX-License-Identifier: MIT */
/*
 * Generators of the low-diameter topologies cluster architects compare
 * with fat trees: HyperX, Dragonfly+ and Slim Fly. Each builds switches,
 * HCAs and links into a struct ibfs_topology through topo_gen_int.h, with
 * closed-form port numbers so that the same parameters always give the
 * same fabric.
 *
 * - hyperx (Ahn et al., "HyperX: topology, routing, and packaging of
 *   efficient large-scale networks", SC 2009): switches on an L-dimensional
 *   lattice S1 x .. x SL, each linked to every switch that differs from it
 *   in exactly one coordinate (a clique along every dimension), with K
 *   parallel links a pair. Diameter L. Radix K * sum(Si - 1) + HCAs.
 * - dragonfly-plus (Shpiner et al., "Dragonfly+: Low cost topology for
 *   scaling datacenters", HiPINEB 2017): groups that are two-level fat trees
 *   (every leaf linked to every spine of its group), the spines carrying
 *   the global links between groups. Leaf to leaf: 2 switch hops inside a
 *   group, at most 3 across groups when every pair of groups is linked.
 * - slimfly (Besta and Hoefler, "Slim Fly: a cost effective low-diameter
 *   network topology", SC 2014): the McKay-Miller-Siran graph over GF(q),
 *   2q^2 switches of network radix (3q - d)/2, diameter 2; in
 *   topo_gen_slimfly.c with its finite-field arithmetic.
 */

#include "fabric/topo_gen_int.h"

/*
 * HyperX. Switch s (sw<s+1>) has coordinates c[d] = (s / stride[d]) mod
 * S[d], dimension 0 varying fastest. Its ports run dimension by dimension:
 * dimension d starts after base[d] = K * sum over e < d of (S[e] - 1), and
 * the K links to the switch whose coordinate d is y != c[d] take ports
 * base[d] + K * (y < c[d] ? y : y - 1) + 1 .. + K, i.e. the others in
 * coordinate order. HCAs follow on ports K * sum(S[d] - 1) + 1 ..; HCA
 * node<s*N+j+1> hangs on switch s. Numbering ports by dimension as the
 * mesh does lets dimension-order routing pick the lowest port.
 */
int ibfs__gen_hyperx(struct gen *g)
{
	static const char *const known[] = {"dims", "hcas", "width-k", NULL};
	long dims[GEN_MAX_DIMS], hcas, k;
	if (ibfs__gen_check_known(g, known))
		return -1;
	int nd = ibfs__gen_list(g, "dims", 2, 255, dims, GEN_MAX_DIMS);
	if (nd < 0 || ibfs__gen_int(g, "hcas", 1, 0, 64, &hcas) ||
	    ibfs__gen_int(g, "width-k", 1, 1, IBFS_TOPO_MAX_PORTS, &k))
		return -1;
	long base[GEN_MAX_DIMS], stride[GEN_MAX_DIMS], links = 0;
	double total = 1;
	for (int d = 0; d < nd; d++) {
		base[d] = links;
		links += k * (dims[d] - 1);
		stride[d] = d ? stride[d - 1] * dims[d - 1] : 1;
		total *= (double)dims[d];
	}
	if (links + hcas > IBFS_TOPO_MAX_PORTS)
		return ibfs__diag(g->d, g->file, g->line,
				  "hyperx: K*sum(S-1) + hcas = %ld ports is more than %d",
				  links + hcas, IBFS_TOPO_MAX_PORTS);
	if (ibfs__gen_too_big(g, total * (1 + (double)hcas)))
		return -1;
	long n = (long)total;
	int sw0 = ibfs__gen_sw_hcas(g, n, links, hcas);
	if (sw0 < 0)
		return -1;
	/* Each pair once, from the end with the lower coordinate c < y. */
	for (int d = 0; d < nd; d++)
		for (long s = 0; s < n; s++) {
			long c = (s / stride[d]) % dims[d];
			for (long y = c + 1; y < dims[d]; y++)
				for (long j = 0; j < k; j++) {
					long t = s + (y - c) * stride[d];
					long pa = base[d] + k * (y - 1) + j + 1;
					long pb = base[d] + k * c + j + 1;
					if (ibfs__gen_link(g, sw0 + (int)s, (int)pa,
							   sw0 + (int)t, (int)pb))
						return -1;
				}
		}
	return 0;
}

/*
 * Dragonfly+. G groups; group i has A leaves g<i>_leaf<x> and A spines
 * g<i>_spine<s> (the canonical group of Shpiner et al. takes A = radix/2).
 * Leaf x: HCAs on ports 1..P, spine s on port P + s + 1. Spine s: leaf x on
 * port x + 1, global links on ports A + 1 .. A + H.
 *
 * Global links, absolute (consecutive) arrangement: group i numbers its
 * A*H global ports l = s*H + j (spine s, its j-th global port) and sends
 * port l to the r-th other group in order, r = l mod (G-1): group r when
 * r < i, else r + 1. Port l and port l + (G-1) go to the same group, so
 * every pair of groups has A*H/(G-1) links; the default G = A*H + 1 gives
 * one. At the far end group j uses its port q*(G-1) + r', r' the rank of
 * i among j's other groups and q = l / (G-1), which makes the wiring
 * symmetric.
 */
int ibfs__gen_dragonfly_plus(struct gen *g)
{
	static const char *const known[] = {"a", "p", "h", "g", NULL};
	long a, p, h, ng;
	if (ibfs__gen_check_known(g, known) ||
	    ibfs__gen_int(g, "a", -1, 1, IBFS_TOPO_MAX_PORTS, &a) ||
	    ibfs__gen_int(g, "p", -1, 0, IBFS_TOPO_MAX_PORTS, &p) ||
	    ibfs__gen_int(g, "h", -1, 1, IBFS_TOPO_MAX_PORTS, &h))
		return -1;
	if (p + a > IBFS_TOPO_MAX_PORTS || a + h > IBFS_TOPO_MAX_PORTS)
		return ibfs__diag(g->d, g->file, g->line,
				  "dragonfly-plus: leaves need p+a = %ld ports and spines a+h = %ld, more than %d",
				  p + a, a + h, IBFS_TOPO_MAX_PORTS);
	if (ibfs__gen_int(g, "g", a * h + 1, 2, a * h + 1, &ng))
		return -1;
	if ((a * h) % (ng - 1))
		return ibfs__diag(g->d, g->file, g->line,
				  "dragonfly-plus: a*h = %ld global links per group must be a multiple of g-1 = %ld",
				  a * h, ng - 1);
	if (ibfs__gen_too_big(g, (double)ng * (double)a * (2 + (double)p)))
		return -1;
	/* Group i: leaves at sw0 + 2*a*i, spines at sw0 + 2*a*i + a. */
	int sw0 = -1;
	for (long i = 0; i < ng; i++)
		for (long x = 0; x < 2 * a; x++) {
			int leaf = x < a;
			int id = ibfs__gen_node(g, IBFS_NODE_SWITCH,
						(int)(leaf ? p + a : a + h),
						leaf ? "g%ld_leaf%ld"
						     : "g%ld_spine%ld",
						i + 1, (leaf ? x : x - a) + 1);
			if (id < 0)
				return -1;
			if (sw0 < 0)
				sw0 = id;
		}
	for (long i = 0; i < ng; i++)
		for (long x = 0; x < a; x++) {
			int leaf = sw0 + (int)(2 * a * i + x);
			for (long c = 0; c < p; c++) {
				long num = (i * a + x) * p + c + 1;
				int id = ibfs__gen_node(g, IBFS_NODE_HCA, 1,
							"node%ld", num, 0);
				if (id < 0 ||
				    ibfs__gen_link(g, leaf, (int)c + 1, id, 1))
					return -1;
			}
			for (long s = 0; s < a; s++)
				if (ibfs__gen_link(g, leaf, (int)(p + s + 1),
						   leaf - (int)x + (int)(a + s),
						   (int)x + 1))
					return -1;
		}
	long gl = a * h, per = ng - 1;
	for (long i = 0; i < ng; i++)
		for (long l = 0; l < gl; l++) {
			long r = l % per, q = l / per;
			long j = r < i ? r : r + 1;
			if (j < i)
				continue; /* made from the other side */
			long rj = i < j ? i : i - 1;
			long lj = q * per + rj;
			if (ibfs__gen_link(g,
					   sw0 + (int)(2 * a * i + a + l / h),
					   (int)(a + l % h + 1),
					   sw0 + (int)(2 * a * j + a + lj / h),
					   (int)(a + lj % h + 1)))
				return -1;
		}
	return 0;
}
