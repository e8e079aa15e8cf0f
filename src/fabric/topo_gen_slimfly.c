/* SPDX-License-Identifier: MIT */
/*
 * Slim Fly (Besta and Hoefler, "Slim Fly: a cost effective low-diameter
 * network topology", SC 2014): the McKay-Miller-Siran (MMS) graph over the
 * finite field GF(q), q a prime power 4w + d with d in {-1, 0, 1}. It has
 * 2q^2 switches, each of network radix k' = (3q - d)/2, and diameter 2.
 *
 * GF(q), q = p^m, is built here as polynomials over the integers mod p
 * modulo a primitive polynomial of degree m found by search; for a prime q
 * (m = 1) that is the integers mod q and the primitive element is the
 * smallest primitive root. Tables of q entries make each operation O(m).
 */
#include <stdlib.h>

#include "fabric/topo_gen_int.h"

/*
 * An element is the integer whose base-p digits are its coefficients
 * (digit i that of x^i). pw[e] = xi^e for e in 0..q-2, lg its inverse.
 */
struct gf {
	long q, p, m, top; /* top = p^(m-1) */
	long *pw, *lg;
};

static long gf_add(const struct gf *f, long a, long b)
{
	long r = 0;
	for (long s = 1, i = 0; i < f->m; i++, s *= f->p)
		r += (a / s % f->p + b / s % f->p) % f->p * s;
	return r;
}

static long gf_neg(const struct gf *f, long a)
{
	long r = 0;
	for (long s = 1, i = 0; i < f->m; i++, s *= f->p)
		r += (f->p - a / s % f->p) % f->p * s;
	return r;
}

static long gf_mul(const struct gf *f, long a, long b)
{
	if (!a || !b)
		return 0;
	return f->pw[(f->lg[a] + f->lg[b]) % (f->q - 1)];
}

/* v * x modulo x^m + c(x): the x^m term becomes -top * c(x). */
static long gf_times_x(const struct gf *f, long c, long v)
{
	long hi = v / f->top, sh = v % f->top * f->p, r = 0;
	for (long s = 1, i = 0; i < f->m; i++, s *= f->p) {
		long dig = sh / s % f->p - hi * (c / s % f->p);
		r += (dig % f->p + f->p) % f->p * s;
	}
	return r;
}

/*
 * Sets p and m with q = p^m (0 when q is not a prime power), then finds
 * the first c (from q - 1 down, so that m = 1 gives xi = 1, 2, 3, .. in
 * turn) for which x has order q - 1 modulo x^m + c(x): that polynomial is
 * primitive, and xi = x. Returns 0, or -1 when out of memory.
 */
static int gf_init(struct gf *f, long q)
{
	f->q = q;
	f->p = 2;
	while (q % f->p)
		f->p++;
	f->m = 0;
	f->top = 1;
	for (long r = q; r > 1; r /= f->p, f->m++)
		if (r % f->p) {
			f->m = 0;
			return 0;
		}
	for (long i = 1; i < f->m; i++)
		f->top *= f->p;
	f->pw = malloc((size_t)q * sizeof(long));
	f->lg = calloc((size_t)q, sizeof(long));
	if (!f->pw || !f->lg)
		return -1;
	/* A primitive polynomial of every degree exists, so this stops. */
	for (long c = q - 1; c >= 0; c--) {
		long v = 1, e = 0;
		do {
			f->pw[e++] = v;
			v = gf_times_x(f, c, v);
		} while (v > 1 && e < q - 1);
		if (v == 1 && e == q - 1)
			break;
	}
	for (long e = 0; e < q - 1; e++)
		f->lg[f->pw[e]] = e;
	return 0;
}

static void gf_free(struct gf *f)
{
	free(f->pw);
	free(f->lg);
}

/* Appends xi^e for e = from, from + 2, .., to (exponents mod q - 1). */
static long sf_add(long *set, long n, const struct gf *f, long from, long to)
{
	for (long e = from; e <= to; e += 2)
		set[n++] = f->pw[e % (f->q - 1)];
	return n;
}

/*
 * The generator sets of the MMS graph (Besta and Hoefler, section 2.1,
 * after Hafner), q = 4w + d:
 *   d = 1:  X = {1, xi^2, .., xi^(q-3)},  X' = {xi, xi^3, .., xi^(q-2)};
 *   d = 0:  X = {1, xi^2, .., xi^(q-2)},  X' = {xi, xi^3, .., xi^(q-1)};
 *   d = -1: X = {1, xi^2, .., xi^(2w-2)} u {xi^(2w-1), xi^(2w+1), ..,
 *           xi^(4w-3)}, X' = {xi, xi^3, .., xi^(2w-1)} u {xi^(2w),
 *           xi^(2w+2), .., xi^(4w-2)}.
 * Each is closed under negation (-1 = xi^((q-1)/2) for odd q, and -a = a
 * in characteristic 2), so the links are undirected; each has (q - d)/2
 * elements, the size returned.
 */
static long sf_sets(const struct gf *f, long d, long *x, long *xp)
{
	long q = f->q, w = (q - d) / 4, nx, nxp;
	if (d == 1) {
		nx = sf_add(x, 0, f, 0, q - 3);
		nxp = sf_add(xp, 0, f, 1, q - 2);
	} else if (d == 0) {
		nx = sf_add(x, 0, f, 0, q - 2);
		nxp = sf_add(xp, 0, f, 1, q - 1);
	} else {
		nx = sf_add(x, 0, f, 0, 2 * w - 2);
		nx = sf_add(x, nx, f, 2 * w - 1, 4 * w - 3);
		nxp = sf_add(xp, 0, f, 1, 2 * w - 1);
		nxp = sf_add(xp, nxp, f, 2 * w, 4 * w - 2);
	}
	(void)nxp; /* = nx */
	return nx;
}

/*
 * The links inside one half: for every a, (sub, a, y) -- (sub, a, y + D)
 * for D in the set, from port i + 1 (D = set[i]) to port j + 1 (-D =
 * set[j]). Each pair comes from both ends; it is made from the end with
 * the lower index, or, when D = -D (characteristic 2), the lower y.
 */
static int sf_local(struct gen *g, const struct gf *f, int sw0, long sub,
		    const long *set, long n)
{
	long q = f->q;
	long *pos = malloc((size_t)q * sizeof(long));
	if (!pos)
		return ibfs__diag(g->d, g->file, g->line, "out of memory");
	for (long v = 0; v < q; v++)
		pos[v] = -1;
	for (long i = 0; i < n; i++)
		pos[set[i]] = i;
	int rc = 0;
	for (long a = 0; a < q && !rc; a++)
		for (long y = 0; y < q && !rc; y++)
			for (long i = 0; i < n && !rc; i++) {
				long j = pos[gf_neg(f, set[i])];
				long y2 = gf_add(f, y, set[i]);
				if (j < i || (j == i && y2 < y))
					continue;
				long row = sub + a * q;
				rc = ibfs__gen_link(g, sw0 + (int)(row + y),
						    (int)i + 1,
						    sw0 + (int)(row + y2),
						    (int)j + 1);
			}
	free(pos);
	return rc;
}

/*
 * Switch (0, x, y) is sw<x*q + y + 1>, switch (1, m, c) is
 * sw<q^2 + m*q + c + 1>, x, y, m, c in GF(q) numbered as above. Links:
 *   (0,x,y) -- (0,x,y')  when y - y' is in X,
 *   (1,m,c) -- (1,m,c')  when c - c' is in X',
 *   (0,x,y) -- (1,m,c)   when y = m*x + c.
 * Ports: (0,x,y) reaches (0,x,y + X[i]) on port i + 1 and (1,m,y - m*x)
 * on port |X| + m + 1; (1,m,c) reaches (1,m,c + X'[i]) on port i + 1 and
 * (0,x,m*x + c) on port |X| + x + 1. HCAs follow on ports k' + 1 ..
 * (default ceil(k'/2) a switch, the paper's choice for full global
 * bandwidth).
 */
static int sf_build(struct gen *g, const struct gf *f, long d, long kp,
		    long hcas)
{
	long q = f->q;
	long *x = malloc(2 * (size_t)q * sizeof(long));
	if (!x)
		return ibfs__diag(g->d, g->file, g->line, "out of memory");
	long nx = sf_sets(f, d, x, x + q);
	int rc = -1;
	int sw0 = ibfs__gen_sw_hcas(g, 2 * q * q, kp, hcas);
	if (sw0 < 0 || sf_local(g, f, sw0, 0, x, nx) ||
	    sf_local(g, f, sw0, q * q, x + q, nx))
		goto out;
	for (long xx = 0; xx < q; xx++)
		for (long y = 0; y < q; y++)
			for (long m = 0; m < q; m++) {
				long mx = gf_mul(f, m, xx);
				long c = gf_add(f, y, gf_neg(f, mx));
				long b = q * q + m * q + c;
				if (ibfs__gen_link(g, sw0 + (int)(xx * q + y),
						   (int)(nx + m + 1),
						   sw0 + (int)b,
						   (int)(nx + xx + 1)))
					goto out;
			}
	rc = 0;
out:
	free(x);
	return rc;
}

int ibfs__gen_slimfly(struct gen *g)
{
	static const char *const known[] = {"q", "hcas", NULL};
	long q, hcas;
	if (ibfs__gen_check_known(g, known) ||
	    ibfs__gen_int(g, "q", -1, 3, IBFS_TOPO_MAX_PORTS, &q))
		return -1;
	struct gf f = {0};
	if (gf_init(&f, q)) {
		gf_free(&f);
		return ibfs__diag(g->d, g->file, g->line, "out of memory");
	}
	int rc = -1;
	/* q = 2 is the one prime power that is 2 mod 4; it is below 3. */
	long d = q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0;
	long kp = (3 * q - d) / 2;
	if (!f.m)
		ibfs__diag(g->d, g->file, g->line,
			   "slimfly: q=%ld is not a prime power; the MMS graph needs the field GF(q)",
			   q);
	else if (!ibfs__gen_int(g, "hcas", (kp + 1) / 2, 0,
				IBFS_TOPO_MAX_PORTS, &hcas)) {
		/* With k' + hcas <= 254, 2q^2 (1 + hcas) nodes peak near
		 * q = 113 at 2.2 million: under GEN_MAX_NODES. */
		if (kp + hcas > IBFS_TOPO_MAX_PORTS)
			ibfs__diag(g->d, g->file, g->line,
				   "slimfly: k' + hcas = %ld + %ld ports is more than %d",
				   kp, hcas, IBFS_TOPO_MAX_PORTS);
		else
			rc = sf_build(g, &f, d, kp, hcas);
	}
	gf_free(&f);
	return rc;
}
