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
 *   2q^2 switches of network radix (3q - d)/2, diameter 2.
 */
#include <stdlib.h>

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
					int pa = (int)(base[d] + k * (y - 1) + j + 1);
					int pb = (int)(base[d] + k * c + j + 1);
					if (ibfs__gen_link(g, sw0 + (int)s, pa,
							   sw0 + (int)t, pb))
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

static int sf_is_prime(long q)
{
	if (q < 2)
		return 0;
	for (long f = 2; f * f <= q; f++)
		if (q % f == 0)
			return 0;
	return 1;
}

/* The smallest primitive element of GF(q), q prime: order q - 1. */
static long sf_primitive(long q)
{
	for (long x = 2; x < q; x++) {
		long v = x, ord = 1;
		while (v != 1) {
			v = v * x % q;
			ord++;
		}
		if (ord == q - 1)
			return x;
	}
	return 1; /* q = 2 or 3 with x = 2 found above; unreachable */
}

/*
 * The generator sets of the MMS graph (Besta and Hoefler, section 2.1,
 * after Hafner): with xi primitive and q = 4w + d,
 *   d = 1:  X = {xi^0, xi^2, .., xi^(q-3)},  X' = {xi^1, xi^3, .., xi^(q-2)};
 *   d = -1: X = {xi^0, xi^2, .., xi^(2w-2)} u {xi^(2w-1), xi^(2w+1), ..,
 *           xi^(4w-3)}, X' = {xi^1, xi^3, .., xi^(2w-1)} u {xi^(2w),
 *           xi^(2w+2), .., xi^(4w-2)}.
 * Both are closed under negation (-1 = xi^((q-1)/2)), so the links are
 * undirected; each has (q - d)/2 elements. Fills x and xp, returns the size
 * (-1 when out of memory).
 */
/* Appends xi^e for e = from, from + 2, .., to (exponents mod q - 1). */
static long sf_add(long *set, long n, const long *pw, long q, long from,
		   long to)
{
	for (long e = from; e <= to; e += 2)
		set[n++] = pw[e % (q - 1)];
	return n;
}

static long sf_sets(long q, long *x, long *xp)
{
	long xi = sf_primitive(q), d = q % 4 == 1 ? 1 : -1, w = (q - d) / 4;
	long *pw = malloc((size_t)q * sizeof(long));
	if (!pw)
		return -1;
	pw[0] = 1;
	for (long e = 1; e < q; e++)
		pw[e] = pw[e - 1] * xi % q;
	long nx, nxp;
	if (d == 1) {
		nx = sf_add(x, 0, pw, q, 0, q - 3);
		nxp = sf_add(xp, 0, pw, q, 1, q - 2);
	} else {
		nx = sf_add(x, 0, pw, q, 0, 2 * w - 2);
		nx = sf_add(x, nx, pw, q, 2 * w - 1, 4 * w - 3);
		nxp = sf_add(xp, 0, pw, q, 1, 2 * w - 1);
		nxp = sf_add(xp, nxp, pw, q, 2 * w, 4 * w - 2);
	}
	free(pw);
	return nx == nxp ? nx : -1;
}

/*
 * Slim Fly. Switch (0, x, y) is sw<x*q + y + 1>, switch (1, m, c) is
 * sw<q^2 + m*q + c + 1>, x, y, m, c in GF(q) = {0..q-1}. Links:
 *   (0,x,y) -- (0,x,y')  when y - y' is in X,
 *   (1,m,c) -- (1,m,c')  when c - c' is in X',
 *   (0,x,y) -- (1,m,c)   when y = m*x + c.
 * Ports: (0,x,y) reaches (0,x,y + X[i]) on port i + 1 and (1,m,y - m*x)
 * on port |X| + m + 1; (1,m,c) reaches (1,m,c + X'[i]) on port i + 1 and
 * (0,x,m*x + c) on port |X| + x + 1. HCAs follow on ports k' + 1 ..
 * (default ceil(k'/2) a switch, the paper's choice for full global
 * bandwidth). Only prime q: GF(q) is then the integers mod q; prime powers
 * need polynomial arithmetic, not written here.
 */
static int sf_local(struct gen *g, int sw0, long q, long sub, const long *set,
		    long n)
{
	long *pos = malloc((size_t)q * sizeof(long));
	if (!pos)
		return ibfs__diag(g->d, g->file, g->line, "out of memory");
	for (long v = 0; v < q; v++)
		pos[v] = -1;
	for (long i = 0; i < n; i++)
		pos[set[i]] = i;
	int rc = 0;
	/* The pair y, y + delta comes twice, as delta from y and as -delta
	 * from y + delta; it is made from the end whose index is lower. */
	for (long a = 0; a < q && !rc; a++)
		for (long y = 0; y < q && !rc; y++)
			for (long i = 0; i < n && !rc; i++) {
				long j = pos[(q - set[i]) % q];
				if (j <= i)
					continue;
				long y2 = (y + set[i]) % q;
				rc = ibfs__gen_link(
					g, sw0 + (int)(sub + a * q + y),
					(int)i + 1, sw0 + (int)(sub + a * q + y2),
					(int)j + 1);
			}
	free(pos);
	return rc;
}

int ibfs__gen_slimfly(struct gen *g)
{
	static const char *const known[] = {"q", "hcas", NULL};
	long q, hcas;
	if (ibfs__gen_check_known(g, known) ||
	    ibfs__gen_int(g, "q", -1, 3, IBFS_TOPO_MAX_PORTS, &q))
		return -1;
	if (!sf_is_prime(q))
		return ibfs__diag(g->d, g->file, g->line,
				  "slimfly: q=%ld is not a prime; only prime q are supported (GF(q) as the integers mod q; prime powers such as 4, 8, 9 need polynomial arithmetic)",
				  q);
	long kp = (3 * q - (q % 4 == 1 ? 1 : -1)) / 2;
	if (ibfs__gen_int(g, "hcas", (kp + 1) / 2, 0, IBFS_TOPO_MAX_PORTS,
			  &hcas))
		return -1;
	if (kp + hcas > IBFS_TOPO_MAX_PORTS)
		return ibfs__diag(g->d, g->file, g->line,
				  "slimfly: k' + hcas = %ld + %ld ports is more than %d",
				  kp, hcas, IBFS_TOPO_MAX_PORTS);
	/* With k' + hcas <= 254 the node count 2q^2 (1 + hcas) peaks near
	 * q = 113 at 2.2 million: under GEN_MAX_NODES, no check needed. */
	long n = 2 * q * q;
	long *x = malloc(2 * (size_t)q * sizeof(long));
	if (!x)
		return ibfs__diag(g->d, g->file, g->line, "out of memory");
	long nx = sf_sets(q, x, x + q);
	int rc = -1, sw0 = -1;
	if (nx < 0) {
		ibfs__diag(g->d, g->file, g->line, "out of memory");
		goto out;
	}
	sw0 = ibfs__gen_sw_hcas(g, n, kp, hcas);
	if (sw0 < 0)
		goto out;
	if (sf_local(g, sw0, q, 0, x, nx) ||
	    sf_local(g, sw0, q, q * q, x + q, nx))
		goto out;
	for (long xx = 0; xx < q; xx++)
		for (long y = 0; y < q; y++)
			for (long m = 0; m < q; m++) {
				long c = ((y - m * xx) % q + q) % q;
				if (ibfs__gen_link(g, sw0 + (int)(xx * q + y),
						   (int)(nx + m + 1),
						   sw0 + (int)(q * q + m * q + c),
						   (int)(nx + xx + 1)))
					goto out;
			}
	rc = 0;
out:
	free(x);
	return rc;
}
