/* SPDX-License-Identifier: MIT */
/*
 * The channel dependency graph and its cycle search (see credit_loop.h).
 * Channels are the switch ports that lead to another switch. The edges out
 * of channel (s, p), whose far end is switch v, are a bit set over v's
 * ports, so the whole graph takes one bit per (channel, port of the next
 * switch): about 216 KiB for the 3-level fat tree of 36-port switches.
 * The search is an iterative depth-first search, O(channels + edges);
 * after adding the routes of one LID only the part reachable from the new
 * edges needs searching, since a new cycle runs through a new edge, and
 * after removing edges a search may resume where it found its cycle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/credit_loop.h"

struct ibfs_cdg {
	const struct ibfs_subnet *sn;
	int stride;        /* max ports + 1 */
	int *chan;         /* (switch, port) -> channel, -1 if none */
	int nchan;
	int *ch_sw, *ch_port, *ch_peer; /* per channel: s, p, next switch */
	uint32_t *base;    /* first bit of each channel's edge set */
	uint8_t *bits;
	uint32_t *mark, epoch; /* search scratch, see cdg_search */
	int *stk, *next, *roots, nroots_cap;
	int next_root;     /* where a resumed whole search goes on */
};

static int cdg_peer_sw(const struct ibfs_subnet *sn, int s, int p)
{
	const struct ibfs_sn_port *pp = &sn->nodes[sn->sw_node[s]].ports[p];
	if (pp->peer < 0 || sn->nodes[pp->peer].type != IBFS_NODE_SWITCH)
		return -1;
	return sn->nodes[pp->peer].sw;
}

struct ibfs_cdg *ibfs__cdg_new(const struct ibfs_subnet *sn)
{
	struct ibfs_cdg *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->sn = sn;
	int maxp = 0, n = 0;
	for (int s = 0; s < sn->nsw; s++) {
		int np = sn->nodes[sn->sw_node[s]].nports;
		maxp = np > maxp ? np : maxp;
	}
	g->stride = maxp + 1;
	size_t cells = (size_t)(sn->nsw ? sn->nsw : 1) * (size_t)g->stride;
	g->chan = malloc(cells * sizeof(int));
	if (!g->chan)
		goto fail;
	for (size_t i = 0; i < cells; i++)
		g->chan[i] = -1;
	for (int s = 0; s < sn->nsw; s++) {
		int *row = &g->chan[(size_t)s * (size_t)g->stride];
		for (int p = 1; p <= sn->nodes[sn->sw_node[s]].nports; p++)
			if (cdg_peer_sw(sn, s, p) >= 0)
				row[p] = n++;
	}
	g->nchan = n;
	size_t nc = (size_t)(n ? n : 1);
	g->ch_sw = malloc(nc * sizeof(int));
	g->ch_port = malloc(nc * sizeof(int));
	g->ch_peer = malloc(nc * sizeof(int));
	g->base = malloc((nc + 1) * sizeof(uint32_t));
	if (!g->ch_sw || !g->ch_port || !g->ch_peer || !g->base)
		goto fail;
	uint64_t bit = 0;
	for (int s = 0; s < sn->nsw; s++)
		for (int p = 1; p <= sn->nodes[sn->sw_node[s]].nports; p++) {
			int c = g->chan[(size_t)s * (size_t)g->stride + p];
			if (c < 0)
				continue;
			int v = cdg_peer_sw(sn, s, p);
			g->ch_sw[c] = s;
			g->ch_port[c] = p;
			g->ch_peer[c] = v;
			g->base[c] = (uint32_t)bit;
			bit += (uint64_t)sn->nodes[sn->sw_node[v]].nports + 1;
		}
	if (bit >= UINT32_MAX)
		goto fail;
	g->base[n] = (uint32_t)bit;
	g->bits = calloc(bit / 8 + 1, 1);
	if (!g->bits)
		goto fail;
	return g;
fail:
	ibfs__cdg_free(g);
	return NULL;
}

void ibfs__cdg_free(struct ibfs_cdg *g)
{
	if (!g)
		return;
	free(g->chan);
	free(g->ch_sw);
	free(g->ch_port);
	free(g->ch_peer);
	free(g->base);
	free(g->bits);
	free(g->mark);
	free(g->stk);
	free(g->next);
	free(g->roots);
	free(g);
}

int ibfs__cdg_next(const struct ibfs_cdg *g, int s, unsigned lid,
		   uint32_t *bit)
{
	const struct ibfs_subnet *sn = g->sn;
	int p = *ibfs__subnet_lft(sn, s, lid);
	if (p == IBFS_LFT_NO_PATH || p == 0 || p >= g->stride)
		return -1;
	int c = g->chan[(size_t)s * (size_t)g->stride + (size_t)p];
	if (c < 0)
		return -1;
	int v = g->ch_peer[c];
	int q = *ibfs__subnet_lft(sn, v, lid);
	if (q == IBFS_LFT_NO_PATH || q == 0 || q >= g->stride ||
	    g->chan[(size_t)v * (size_t)g->stride + (size_t)q] < 0)
		return -1;
	*bit = g->base[c] + (uint32_t)q;
	return v;
}

int ibfs__cdg_add_lid(struct ibfs_cdg *g, unsigned lid, uint32_t *added)
{
	int n = 0;
	for (int s = 0; s < g->sn->nsw; s++) {
		uint32_t b;
		if (ibfs__cdg_next(g, s, lid, &b) < 0 ||
		    g->bits[b >> 3] & (1u << (b & 7)))
			continue;
		g->bits[b >> 3] |= (uint8_t)(1u << (b & 7));
		if (added)
			added[n] = b;
		n++;
	}
	return n;
}

void ibfs__cdg_add_path(struct ibfs_cdg *g, int s, unsigned lid,
			uint32_t *seen, uint32_t stamp)
{
	uint32_t b;
	while (seen[s] != stamp) {
		seen[s] = stamp;
		int v = ibfs__cdg_next(g, s, lid, &b);
		if (v < 0)
			break;
		g->bits[b >> 3] |= (uint8_t)(1u << (b & 7));
		s = v;
	}
}

uint32_t ibfs__cdg_nbits(const struct ibfs_cdg *g)
{
	return g->base[g->nchan];
}

void ibfs__cdg_set(struct ibfs_cdg *g, uint32_t bit, int on)
{
	if (on)
		g->bits[bit >> 3] |= (uint8_t)(1u << (bit & 7));
	else
		g->bits[bit >> 3] &= (uint8_t)~(1u << (bit & 7));
}

int ibfs__cdg_test(const struct ibfs_cdg *g, uint32_t bit)
{
	return (g->bits[bit >> 3] >> (bit & 7)) & 1;
}

int ibfs__cdg_nchan(const struct ibfs_cdg *g)
{
	return g->nchan;
}

int64_t ibfs__cdg_edge(const struct ibfs_cdg *g, int s, int p, int q)
{
	if (s < 0 || s >= g->sn->nsw || p < 1 || p >= g->stride)
		return -1;
	int c = g->chan[(size_t)s * (size_t)g->stride + (size_t)p];
	if (c < 0 || q < 1 ||
	    q > g->sn->nodes[g->sn->sw_node[g->ch_peer[c]]].nports)
		return -1;
	return (int64_t)g->base[c] + q;
}

void ibfs__cdg_remove(struct ibfs_cdg *g, const uint32_t *added, int n)
{
	for (int i = 0; i < n; i++)
		g->bits[added[i] >> 3] &= (uint8_t)~(1u << (added[i] & 7));
}

/*
 * Depth-first search for a cycle from the given root channels (all when
 * roots is NULL). Marks are epoch stamps kept in g, so a search costs
 * only what it visits: mark < epoch - 1 is unvisited, epoch - 1 on the
 * stack, epoch done. A new search takes a new epoch; a resumed one
 * (whole graph only) keeps the marks and the root it stopped at. When a
 * cycle is found, the channels on the stack go back to unvisited: the
 * caller may cut the cycle anywhere.
 */
static int cdg_search(struct ibfs_cdg *g, const int *roots, int nroots,
		      int *sw, int *port, int max, int resume)
{
	int n = g->nchan;
	size_t nc = (size_t)(n ? n : 1);
	if (!g->mark) {
		g->mark = calloc(nc, sizeof(uint32_t));
		g->stk = malloc(nc * sizeof(int));
		g->next = malloc(nc * sizeof(int));
		if (!g->mark || !g->stk || !g->next)
			return -1;
	}
	if (!resume || roots || !g->epoch) {
		if (g->epoch > UINT32_MAX - 4) {
			memset(g->mark, 0, nc * sizeof(uint32_t));
			g->epoch = 0;
		}
		g->epoch += 2;
		g->next_root = 0;
	}
	uint32_t gray = g->epoch - 1, black = g->epoch;
	uint32_t *mark = g->mark;
	int *stk = g->stk, *next = g->next;
	int found = 0;
	int nr = roots ? nroots : n;
	for (int i = roots ? 0 : g->next_root; i < nr && !found; i++) {
		int r = roots ? roots[i] : i;
		if (mark[r] >= gray)
			continue;
		int top = 0;
		stk[0] = r;
		next[0] = 0;
		mark[r] = gray;
		while (top >= 0 && !found) {
			int c = stk[top];
			int v = g->ch_peer[c];
			int np = g->sn->nodes[g->sn->sw_node[v]].nports;
			int q = next[top];
			int succ = -1;
			const int *row =
				&g->chan[(size_t)v * (size_t)g->stride];
			for (q = q + 1; q <= np; q++) {
				uint32_t b = g->base[c] + (uint32_t)q;
				if (g->bits[b >> 3] & (1u << (b & 7))) {
					succ = row[q];
					break;
				}
			}
			next[top] = q;
			if (succ < 0) {
				mark[c] = black;
				top--;
				continue;
			}
			if (mark[succ] == gray) {
				int k = top;
				while (stk[k] != succ)
					k--;
				int len = 0;
				for (int j = k; j <= top && len < max; j++) {
					sw[len] = g->ch_sw[stk[j]];
					port[len] = g->ch_port[stk[j]];
					len++;
				}
				found = len ? len : 1;
				for (int j = 0; j <= top; j++)
					mark[stk[j]] = 0;
				if (!roots)
					g->next_root = i;
			} else if (mark[succ] < gray) {
				mark[succ] = gray;
				stk[++top] = succ;
				next[top] = 0;
			}
		}
	}
	return found;
}

int ibfs__cdg_find_cycle(struct ibfs_cdg *g, int *sw, int *port, int max)
{
	return cdg_search(g, NULL, 0, sw, port, max, 0);
}

int ibfs__cdg_find_cycle_resume(struct ibfs_cdg *g, int *sw, int *port,
				int max)
{
	return cdg_search(g, NULL, 0, sw, port, max, 1);
}

int ibfs__cdg_find_cycle_added(struct ibfs_cdg *g, const uint32_t *added,
			       int n, int *sw, int *port, int max)
{
	if (n > g->nroots_cap) {
		int *r = realloc(g->roots, sizeof(int) * (size_t)n);
		if (!r)
			return -1;
		g->roots = r;
		g->nroots_cap = n;
	}
	for (int i = 0; i < n; i++) {
		/* The channel owning bit added[i]: base[] is ascending. */
		int lo = 0, hi = g->nchan - 1;
		while (lo < hi) {
			int mid = (lo + hi + 1) / 2;
			if (g->base[mid] <= added[i])
				lo = mid;
			else
				hi = mid - 1;
		}
		int q = (int)(added[i] - g->base[lo]);
		g->roots[i] = g->chan[(size_t)g->ch_peer[lo] *
					      (size_t)g->stride +
				      (size_t)q];
	}
	return cdg_search(g, g->roots, n, sw, port, max, 0);
}

/*
 * The routes on VL vl into g: every CA LID's tree when the SLs are per
 * destination, else the path from each switch with CAs (ca[s]) whose SL
 * maps to vl. Returns whether any route is on vl.
 */
static int cdg_add_vl(struct ibfs_cdg *g, int vl, const char *ca,
		      uint32_t *seen, uint32_t *stamp)
{
	const struct ibfs_subnet *sn = g->sn;
	size_t row = (size_t)sn->max_lid + 1;
	int any = 0;
	for (unsigned lid = 1; lid <= sn->max_lid; lid++) {
		if (sn->lid_node[lid] < 0 ||
		    sn->nodes[sn->lid_node[lid]].type == IBFS_NODE_SWITCH)
			continue;
		if (!sn->src_sl) {
			if (sn->sl2vl[sn->dst_sl[lid] & 15] == vl) {
				ibfs__cdg_add_lid(g, lid, NULL);
				any = 1;
			}
			continue;
		}
		++*stamp;
		for (int s = 0; s < sn->nsw; s++)
			if (ca[s] &&
			    sn->sl2vl[sn->src_sl[(size_t)s * row + lid] & 15] ==
				    vl) {
				ibfs__cdg_add_path(g, s, lid, seen, *stamp);
				any = 1;
			}
	}
	return any;
}

int ibfs__credit_loops(const struct ibfs_subnet *sn, char *buf, size_t len)
{
	int vls = sn->data_vls > 0 ? sn->data_vls : 1;
	size_t nsw = (size_t)(sn->nsw ? sn->nsw : 1);
	char *ca = calloc(nsw, 1);
	uint32_t *seen = calloc(nsw, sizeof(uint32_t)), stamp = 0;
	int rc = 0;
	if (!ca || !seen) {
		rc = -1;
		goto out;
	}
	for (unsigned lid = 1; lid <= sn->max_lid; lid++) {
		int s = ibfs__subnet_lid_switch(sn, lid, NULL);
		if (s >= 0 && sn->nodes[sn->lid_node[lid]].type !=
				      IBFS_NODE_SWITCH)
			ca[s] = 1;
	}
	for (int vl = 0; vl < vls && !rc; vl++) {
		struct ibfs_cdg *g = ibfs__cdg_new(sn);
		if (!g) {
			rc = -1;
			break;
		}
		int sw[64], port[64];
		int n = cdg_add_vl(g, vl, ca, seen, &stamp)
				? ibfs__cdg_find_cycle(g, sw, port, 64)
				: 0;
		ibfs__cdg_free(g);
		if (n < 0) {
			rc = -1;
			break;
		}
		if (n == 0)
			continue;
		size_t o = (size_t)snprintf(buf, len, "credit loop on VL %d: ",
					    vl);
		for (int i = 0; i <= n && o < len; i++) {
			int k = i % n;
			const char *name = sn->nodes[sn->sw_node[sw[k]]].name;
			o += (size_t)snprintf(buf + o, len - o, "%s%s:%d",
					      i ? " -> " : "", name, port[k]);
		}
		rc = 1;
	}
	if (!rc)
		snprintf(buf, len, "deadlock-free (no credit loop on %d VL%s)",
			 vls, vls > 1 ? "s" : "");
out:
	free(ca);
	free(seen);
	return rc;
}
