/* SPDX-License-Identifier: MIT */
/*
 * Topology generators. Each builds the switches, HCAs and links of one
 * regular family into a struct ibfs_topology, naming nodes after `prefix`:
 *
 * - xgft / fat-tree: the extended generalized fat tree XGFT(h; m1..mh;
 *   w1..wh) of Ohring et al. ("On generalized fat trees", IPPS 1995). A
 *   fat tree of K-port switches with L levels is the folded Clos
 *   XGFT(L; K/2,..,K/2,K; 1,K/2,..,K/2): K/2 down and K/2 up ports on every
 *   level but the top, whose switches use all K ports downwards. It has
 *   2(K/2)^L HCAs (K^2/2 for L=2, K^3/4 for L=3: docs/fabric-format.md).
 *   Oversubscribed with hosts=H: leaves take H HCAs and K-H up links, i.e.
 *   XGFT(L; H,K/2,..,K/2,K; 1,K-H,K/2,..,K/2), H:(K-H) at the leaves.
 * - mesh / torus / ring: n-dimensional grids; port 2d+1 leads to the next
 *   switch in dimension d, port 2d+2 to the previous one, then the HCAs.
 *   Numbering ports by dimension is what makes OpenSM's dor engine route in
 *   dimension order (it prefers the lowest port among the shortest).
 * - hypercube: 2^n switches; port d+1 flips address bit d; then the HCAs.
 * - dragonfly (Kim et al., ISCA 2008): g groups of a switches, each switch
 *   with p HCAs, a-1 local links (the group is a clique) and h global links;
 *   by default g = a*h+1 so that every pair of groups has one global link.
 * - hyperx, dragonfly-plus: in topo_gen_direct.c; slimfly in
 *   topo_gen_slimfly.c.
 *
 * Parameters come as name/value strings from XML or the command line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_gen.h"
#include "fabric/topo_gen_int.h"
#include "fabric/units.h"

const char *ibfs__gen_get(struct gen *g, const char *name)
{
	for (int i = 0; i < g->np; i++)
		if (g->p[i].name && !strcmp(g->p[i].name, name))
			return g->p[i].value;
	return NULL;
}

/* Rejects any parameter that is not in the NULL-terminated list `known`. */
int ibfs__gen_check_known(struct gen *g, const char *const *known)
{
	for (int i = 0; i < g->np; i++) {
		const char *n = g->p[i].name;
		int ok = !n || !strcmp(n, "topology") || !strcmp(n, "prefix");
		for (int k = 0; !ok && known[k]; k++)
			ok = !strcmp(n, known[k]);
		if (!ok)
			return ibfs__diag(g->d, g->file, g->line,
					  "%s: unknown parameter '%s'",
					  g->kind, n);
	}
	return 0;
}

/* An integer parameter in [lo, hi]; `def` < 0 means it is required. */
int ibfs__gen_int(struct gen *g, const char *name, long def, long lo,
		   long hi, long *out)
{
	const char *s = ibfs__gen_get(g, name);
	if (!s) {
		if (def < 0)
			return ibfs__diag(g->d, g->file, g->line,
					  "%s needs parameter '%s'", g->kind,
					  name);
		*out = def;
		return 0;
	}
	uint64_t v;
	if (ibfs__parse_uint(s, &v) || v < (uint64_t)lo || v > (uint64_t)hi)
		return ibfs__diag(g->d, g->file, g->line,
				  "%s: %s='%s' must be an integer from %ld to %ld",
				  g->kind, name, s, lo, hi);
	*out = (long)v;
	return 0;
}

/* Parses "4x4x2" or "4,4,2" into dims; returns the count or -1. */
int ibfs__gen_list(struct gen *g, const char *name, long lo, long hi,
		    long *out, int max)
{
	const char *s = ibfs__gen_get(g, name);
	if (!s)
		return ibfs__diag(g->d, g->file, g->line,
				  "%s needs parameter '%s'", g->kind, name);
	int n = 0;
	const char *c = s;
	while (*c) {
		char buf[32];
		size_t len = strcspn(c, "x,");
		if (len == 0 || len >= sizeof(buf) || n == max)
			goto bad;
		memcpy(buf, c, len);
		buf[len] = 0;
		uint64_t v;
		if (ibfs__parse_uint(buf, &v) || v < (uint64_t)lo ||
		    v > (uint64_t)hi)
			goto bad;
		out[n++] = (long)v;
		c += len;
		if (*c) {
			c++;
			if (!*c)
				goto bad;
		}
	}
	if (n)
		return n;
bad:
	return ibfs__diag(g->d, g->file, g->line,
			  "%s: %s='%s' must be up to %d integers from %ld to %ld separated by 'x' or ','",
			  g->kind, name, s, max, lo, hi);
}

int ibfs__gen_node(struct gen *g, enum ibfs_node_type ty, int nports,
		    const char *fmt, long a, long b)
{
	char id[256];
	int n = snprintf(id, sizeof(id), "%s", g->prefix);
	snprintf(id + n, sizeof(id) - (size_t)n, fmt, a, b);
	return ibfs__topo_add_node(g->t, id, ty, nports, g->line, g->d);
}

int ibfs__gen_link(struct gen *g, int a, int pa, int b, int pb)
{
	const struct ibfs_topo_defaults *df = &g->t->def;
	return ibfs__topo_add_link(g->t, a, pa, b, pb, df->speed, df->width,
				   df->cable_mm, g->line, g->d) < 0 ? -1 : 0;
}

int ibfs__gen_too_big(struct gen *g, double nodes)
{
	if (nodes <= GEN_MAX_NODES)
		return 0;
	return ibfs__diag(g->d, g->file, g->line,
			  "%s: %.0f nodes is more than the %d this generator makes",
			  g->kind, nodes, GEN_MAX_NODES);
}

/*
 * XGFT(h; m[1..h]; w[1..h]). A node at level i (0 = HCAs) is labelled by h
 * digits: digit j has radix w[j] for j <= i and m[j] for j > i. Its parents
 * are the level i+1 nodes equal to it except in digit i+1, whose value
 * (0..w[i+1]-1) selects the parent: that is the child's up port, after its
 * m[i] down ports. The parent's down port is the child's digit i+1, plus 1.
 */
static long xgft_count(int h, const long *m, const long *w, int lvl)
{
	long n = 1;
	for (int j = 1; j <= h; j++)
		n *= j <= lvl ? w[j] : m[j];
	return n;
}

static void xgft_decode(int h, const long *m, const long *w, int lvl,
			long idx, long *dig)
{
	for (int j = 1; j <= h; j++) {
		long r = j <= lvl ? w[j] : m[j];
		dig[j] = idx % r;
		idx /= r;
	}
}

static long xgft_encode(int h, const long *m, const long *w, int lvl,
			const long *dig)
{
	long idx = 0;
	for (int j = h; j >= 1; j--)
		idx = idx * (j <= lvl ? w[j] : m[j]) + dig[j];
	return idx;
}

static int gen_xgft_build(struct gen *g, int h, const long *m, const long *w,
			  int fat_tree_k)
{
	double total = 0;
	for (int i = 0; i <= h; i++)
		total += (double)xgft_count(h, m, w, i);
	if (ibfs__gen_too_big(g, total))
		return -1;
	static const char *const names[] = {"leaf%ld", "spine%ld", "core%ld"};
	int first[GEN_MAX_LEVELS + 1] = {0};
	/* Switches level by level from the leaves, then the HCAs. */
	for (int i = 1; i <= h; i++) {
		long n = xgft_count(h, m, w, i);
		long up = i < h ? w[i + 1] : 0;
		int nports = fat_tree_k ? fat_tree_k : (int)(m[i] + up);
		for (long k = 0; k < n; k++) {
			int id;
			if (h == 1)
				id = ibfs__gen_node(g, IBFS_NODE_SWITCH, nports,
					      "sw%ld", k + 1, 0);
			else if (h <= 3)
				id = ibfs__gen_node(g, IBFS_NODE_SWITCH, nports,
					      names[i - 1],
					      k + 1, 0);
			else
				id = ibfs__gen_node(g, IBFS_NODE_SWITCH, nports,
					      "l%ld_sw%ld", i, k + 1);
			if (id < 0)
				return -1;
			if (k == 0)
				first[i] = id;
		}
	}
	long nh = xgft_count(h, m, w, 0);
	for (long k = 0; k < nh; k++) {
		int id = ibfs__gen_node(g, IBFS_NODE_HCA, (int)w[1], "node%ld",
				  k + 1, 0);
		if (id < 0)
			return -1;
		if (k == 0)
			first[0] = id;
	}
	long dig[GEN_MAX_LEVELS + 1];
	for (int i = 0; i < h; i++) {
		long n = xgft_count(h, m, w, i);
		long down = i ? m[i] : 0;
		for (long k = 0; k < n; k++) {
			xgft_decode(h, m, w, i, k, dig);
			long a = dig[i + 1];
			for (long b = 0; b < w[i + 1]; b++) {
				dig[i + 1] = b;
				long par = xgft_encode(h, m, w, i + 1, dig);
				if (ibfs__gen_link(g, first[i] + (int)k,
					     (int)(down + b + 1),
					     first[i + 1] + (int)par,
					     (int)(a + 1)))
					return -1;
			}
		}
	}
	return 0;
}

static int gen_fat_tree(struct gen *g)
{
	static const char *const known[] = {"k", "levels", "hosts", NULL};
	long k, levels, hosts;
	if (ibfs__gen_check_known(g, known) || ibfs__gen_int(g, "k", -1, 2, 254, &k) ||
	    ibfs__gen_int(g, "levels", 2, 1, GEN_MAX_LEVELS, &levels))
		return -1;
	if (k % 2)
		return ibfs__diag(g->d, g->file, g->line,
				  "fat-tree: k=%ld must be even (half the ports go down, half up)",
				  k);
	if (ibfs__gen_int(g, "hosts", k / 2, 1, k - 1, &hosts))
		return -1;
	if (levels == 1 && hosts != k / 2)
		return ibfs__diag(g->d, g->file, g->line,
				  "fat-tree: hosts applies to fat trees of 2 levels or more");
	long m[GEN_MAX_LEVELS + 1], w[GEN_MAX_LEVELS + 1];
	for (int j = 1; j <= levels; j++) {
		m[j] = j == levels ? k : k / 2;
		w[j] = j == 1 ? 1 : k / 2;
	}
	if (levels > 1) {
		m[1] = hosts;
		w[2] = k - hosts;
	}
	return gen_xgft_build(g, (int)levels, m, w, (int)k);
}

static int gen_xgft(struct gen *g)
{
	static const char *const known[] = {"m", "w", NULL};
	long m[GEN_MAX_LEVELS + 1], w[GEN_MAX_LEVELS + 1];
	if (ibfs__gen_check_known(g, known))
		return -1;
	int hm = ibfs__gen_list(g, "m", 1, 255, m + 1, GEN_MAX_LEVELS);
	if (hm < 0)
		return -1;
	int hw = ibfs__gen_list(g, "w", 1, 255, w + 1, GEN_MAX_LEVELS);
	if (hw < 0)
		return -1;
	if (hm != hw)
		return ibfs__diag(g->d, g->file, g->line,
				  "xgft: m has %d levels but w has %d", hm, hw);
	for (int i = 1; i <= hm; i++)
		if (m[i] + (i < hm ? w[i + 1] : 0) > IBFS_TOPO_MAX_PORTS)
			return ibfs__diag(g->d, g->file, g->line,
					  "xgft: level %d switches would need more than 254 ports",
					  i);
	return gen_xgft_build(g, hm, m, w, 0);
}

/*
 * n switches sw1..sw<n> of links + hcas ports, then `hcas` HCAs on each:
 * node<s*hcas+h+1> on port links + h + 1 of switch s. Returns the index
 * of sw1 or -1. Grids, hypercubes, HyperX and Slim Fly share this layout.
 */
int ibfs__gen_sw_hcas(struct gen *g, long n, long links, long hcas)
{
	int sw0 = -1;
	for (long s = 0; s < n; s++) {
		int id = ibfs__gen_node(g, IBFS_NODE_SWITCH, (int)(links + hcas),
					"sw%ld", s + 1, 0);
		if (id < 0)
			return -1;
		if (s == 0)
			sw0 = id;
	}
	for (long s = 0; s < n; s++)
		for (long h = 0; h < hcas; h++) {
			int id = ibfs__gen_node(g, IBFS_NODE_HCA, 1, "node%ld",
						s * hcas + h + 1, 0);
			if (id < 0 || ibfs__gen_link(g, sw0 + (int)s,
						     (int)(links + h + 1), id,
						     1))
				return -1;
		}
	return sw0;
}

/* Meshes, tori and rings: dims[0] varies fastest in the switch index. */
static int gen_grid(struct gen *g, int wrap, const long *dims, int nd,
		    long hcas)
{
	double total = 1;
	for (int i = 0; i < nd; i++)
		total *= (double)dims[i];
	if (ibfs__gen_too_big(g, total * (1 + (double)hcas)))
		return -1;
	long n = (long)total;
	int sw0 = ibfs__gen_sw_hcas(g, n, 2 * nd, hcas);
	if (sw0 < 0)
		return -1;
	long stride = 1;
	for (int d = 0; d < nd; d++) {
		for (long s = 0; s < n; s++) {
			long c = (s / stride) % dims[d];
			long nb;
			if (c + 1 < dims[d])
				nb = s + stride;
			else if (wrap && dims[d] > 2)
				nb = s - c * stride;
			else
				continue;
			if (ibfs__gen_link(g, sw0 + (int)s, 2 * d + 1,
				     sw0 + (int)nb, 2 * d + 2))
				return -1;
		}
		stride *= dims[d];
	}
	return 0;
}

static int gen_mesh_torus(struct gen *g, int wrap)
{
	static const char *const known[] = {"dims", "hcas", NULL};
	long dims[GEN_MAX_DIMS], hcas;
	if (ibfs__gen_check_known(g, known))
		return -1;
	int nd = ibfs__gen_list(g, "dims", 1, 1024, dims, GEN_MAX_DIMS);
	if (nd < 0 || ibfs__gen_int(g, "hcas", 1, 0, 64, &hcas))
		return -1;
	return gen_grid(g, wrap, dims, nd, hcas);
}

static int gen_ring(struct gen *g)
{
	static const char *const known[] = {"n", "hcas", NULL};
	long n, hcas;
	if (ibfs__gen_check_known(g, known) || ibfs__gen_int(g, "n", -1, 3, 4096, &n) ||
	    ibfs__gen_int(g, "hcas", 1, 0, 64, &hcas))
		return -1;
	return gen_grid(g, 1, &n, 1, hcas);
}

static int gen_hypercube(struct gen *g)
{
	static const char *const known[] = {"dim", "hcas", NULL};
	long dim, hcas;
	if (ibfs__gen_check_known(g, known) || ibfs__gen_int(g, "dim", -1, 1, 16, &dim) ||
	    ibfs__gen_int(g, "hcas", 1, 0, 64, &hcas))
		return -1;
	long n = 1L << dim;
	if (ibfs__gen_too_big(g, (double)n * (1 + (double)hcas)))
		return -1;
	int sw0 = ibfs__gen_sw_hcas(g, n, dim, hcas);
	if (sw0 < 0)
		return -1;
	for (long s = 0; s < n; s++)
		for (int d = 0; d < dim; d++)
			if (!(s & (1L << d)) &&
			    ibfs__gen_link(g, sw0 + (int)s, d + 1,
				     sw0 + (int)(s | (1L << d)), d + 1))
				return -1;
	return 0;
}

static int gen_dragonfly(struct gen *g)
{
	static const char *const known[] = {"a", "p", "h", "g", NULL};
	long a, p, h, ng;
	if (ibfs__gen_check_known(g, known) || ibfs__gen_int(g, "a", -1, 1, 128, &a) ||
	    ibfs__gen_int(g, "p", -1, 0, 128, &p) || ibfs__gen_int(g, "h", -1, 1, 128, &h))
		return -1;
	if (a + p + h - 1 > IBFS_TOPO_MAX_PORTS)
		return ibfs__diag(g->d, g->file, g->line,
				  "dragonfly: a+p+h-1 = %ld ports is more than %d",
				  a + p + h - 1, IBFS_TOPO_MAX_PORTS);
	if (ibfs__gen_int(g, "g", a * h + 1, 2, a * h + 1, &ng))
		return -1;
	/* Group i's global link l goes to group i+1+(l mod (g-1)). */
	if ((a * h) % (ng - 1))
		return ibfs__diag(g->d, g->file, g->line,
				  "dragonfly: a*h = %ld global links per group must be a multiple of g-1 = %ld",
				  a * h, ng - 1);
	if (ibfs__gen_too_big(g, (double)ng * (double)a * (1 + (double)p)))
		return -1;
	int nports = (int)(p + a - 1 + h);
	int sw0 = -1;
	for (long s = 0; s < ng * a; s++) {
		int id = ibfs__gen_node(g, IBFS_NODE_SWITCH, nports, "g%ld_sw%ld",
				  s / a + 1, s % a + 1);
		if (id < 0)
			return -1;
		if (s == 0)
			sw0 = id;
	}
	for (long s = 0; s < ng * a; s++)
		for (long k = 0; k < p; k++) {
			int id = ibfs__gen_node(g, IBFS_NODE_HCA, 1, "node%ld",
					  s * p + k + 1, 0);
			if (id < 0 || ibfs__gen_link(g, sw0 + (int)s, (int)k + 1, id,
					       1))
				return -1;
		}
	/* Local clique: switch x reaches switch y (y != x) on port
	 * p + 1 + (y < x ? y : y - 1), counting y among the others. */
	for (long gr = 0; gr < ng; gr++)
		for (long x = 0; x < a; x++)
			for (long y = x + 1; y < a; y++)
				if (ibfs__gen_link(g, sw0 + (int)(gr * a + x),
					     (int)(p + y),
					     sw0 + (int)(gr * a + y),
					     (int)(p + x + 1)))
					return -1;
	long gl = a * h, per = ng - 1;
	for (long i = 0; i < ng; i++)
		for (long l = 0; l < gl; l++) {
			long r = l % per, q = l / per;
			long j = (i + 1 + r) % ng;
			if (j < i)
				continue; /* made from the other side */
			long rj = ((i - j - 1) % ng + ng) % ng;
			long lj = q * per + rj;
			if (ibfs__gen_link(g, sw0 + (int)(i * a + l / h),
				     (int)(p + a - 1 + l % h + 1),
				     sw0 + (int)(j * a + lj / h),
				     (int)(p + a - 1 + lj % h + 1)))
				return -1;
		}
	return 0;
}

static const struct {
	const char *kind;
	int (*fn)(struct gen *g);
} gen_kinds[] = {
	{"fat-tree", gen_fat_tree},
	{"xgft", gen_xgft},
	{"hypercube", gen_hypercube},
	{"dragonfly", gen_dragonfly},
	{"ring", gen_ring},
	{"hyperx", ibfs__gen_hyperx},
	{"dragonfly-plus", ibfs__gen_dragonfly_plus},
	{"slimfly", ibfs__gen_slimfly},
};

int ibfs__topo_generate(struct ibfs_topology *t, const char *kind,
			const struct ibfs_gen_param *params, int nparams,
			const char *prefix, const char *file, long line,
			struct ibfs_diag *d)
{
	struct gen g = {t, params, nparams, prefix ? prefix : "", file, line,
			d, kind ? kind : ""};
	if (!kind)
		return ibfs__diag(d, file, line, "generate needs a topology");
	if (!strcmp(kind, "mesh"))
		return gen_mesh_torus(&g, 0);
	if (!strcmp(kind, "torus"))
		return gen_mesh_torus(&g, 1);
	for (size_t i = 0; i < sizeof(gen_kinds) / sizeof(gen_kinds[0]); i++)
		if (!strcmp(kind, gen_kinds[i].kind))
			return gen_kinds[i].fn(&g);
	return ibfs__diag(d, file, line,
			  "unknown topology '%s' (fat-tree, xgft, mesh, torus, ring, hypercube, dragonfly, hyperx, dragonfly-plus, slimfly)",
			  kind);
}
