/* SPDX-License-Identifier: MIT */
/*
 * Figures of a routed subnet, read off the LFTs as a packet would follow
 * them: hop counts between CA ports, (switch, LID) pairs without a path or
 * whose path loops, and the CA LIDs each switch-to-switch port forwards
 * (OpenSM balances minhop on that count). One walk per LID with memoized
 * hop counts: O(switches x LIDs).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/subnet.h"

#define ST_UNKNOWN -1
#define ST_BUSY -2
#define ST_NONE -3

/*
 * Where each switch port leads, so a walk reads one int a hop: the switch
 * index (>= 0), ST_NONE for a port that is absent or not linked, or for a
 * CA port st_ca(node, port) (<= -4).
 */
static int st_ca(int node, int port)
{
	return -4 - (node * 256 + port);
}

/* Hops from switch s to lid; memo[] per switch for this LID. */
static int st_hops(const struct ibfs_subnet *sn, const int *nx,
		   size_t stride, unsigned lid, int s, int *memo, int *path,
		   int *looped)
{
	int n = 0, h;
	int cur = s;
	for (;;) {
		if (memo[cur] != ST_UNKNOWN) {
			h = memo[cur];
			if (h == ST_BUSY) {
				*looped = 1;
				h = ST_NONE;
			}
			break;
		}
		memo[cur] = ST_BUSY;
		path[n++] = cur;
		int p = *ibfs__subnet_lft(sn, cur, lid);
		int to = (size_t)p < stride ? nx[(size_t)cur * stride + p]
					    : ST_NONE;
		if (p == 0) {
			h = sn->lid_node[lid] == sn->sw_node[cur] ? 0 : ST_NONE;
			memo[cur] = h;
			n--;
			break;
		}
		if (to < 0) {
			h = to == st_ca(sn->lid_node[lid], sn->lid_port[lid])
				    ? 1
				    : ST_NONE;
			memo[cur] = h;
			n--;
			break;
		}
		cur = to;
	}
	while (n > 0) {
		n--;
		if (h >= 0)
			h++;
		memo[path[n]] = h;
	}
	return memo[s];
}

int ibfs__route_stats(const struct ibfs_subnet *sn,
		      struct ibfs_route_stats *st, uint8_t *hops)
{
	memset(st, 0, sizeof(*st));
	size_t nsw = (size_t)(sn->nsw ? sn->nsw : 1);
	int *memo = malloc(nsw * sizeof(int));
	int *path = malloc((nsw + 1) * sizeof(int));
	int *casw = calloc(nsw, sizeof(int));
	int maxp = 0;
	for (int s = 0; s < sn->nsw; s++)
		if (sn->nodes[sn->sw_node[s]].nports > maxp)
			maxp = sn->nodes[sn->sw_node[s]].nports;
	size_t stride = (size_t)maxp + 1;
	long *routes = calloc(nsw * stride, sizeof(long));
	int *nx = malloc(nsw * stride * sizeof(int));
	if (!memo || !path || !casw || !routes || !nx) {
		free(memo);
		free(path);
		free(casw);
		free(routes);
		free(nx);
		return -1;
	}
	for (int s = 0; s < sn->nsw; s++) {
		const struct ibfs_sn_node *nd = &sn->nodes[sn->sw_node[s]];
		for (size_t p = 0; p < stride; p++) {
			int *to = &nx[(size_t)s * stride + p];
			int peer = (int)p <= nd->nports ? nd->ports[p].peer : -1;
			*to = ST_NONE;
			if (p == 0 || peer < 0)
				continue;
			*to = sn->nodes[peer].type == IBFS_NODE_SWITCH
				      ? sn->nodes[peer].sw
				      : st_ca(peer, nd->ports[p].peer_port);
		}
	}
	long ncas = 0;
	for (int i = 0; i < sn->nnodes; i++) {
		const struct ibfs_sn_node *n = &sn->nodes[i];
		if (n->type == IBFS_NODE_SWITCH)
			continue;
		for (int p = 1; p <= n->nports; p++) {
			int peer = n->ports[p].peer;
			if (peer < 0)
				continue;
			ncas++;
			if (sn->nodes[peer].type == IBFS_NODE_SWITCH)
				casw[sn->nodes[peer].sw]++;
		}
	}
	double hsum = 0, pairs = 0;
	for (unsigned lid = 1; lid <= sn->max_lid; lid++) {
		int owner = sn->lid_node[lid];
		if (owner < 0)
			continue;
		int is_ca = sn->nodes[owner].type != IBFS_NODE_SWITCH;
		int base = is_ca &&
			   sn->nodes[owner].ports[sn->lid_port[lid]].lid ==
				   lid;
		for (int s = 0; s < sn->nsw; s++)
			memo[s] = ST_UNKNOWN;
		for (int s = 0; s < sn->nsw; s++) {
			int looped = 0;
			int h = st_hops(sn, nx, stride, lid, s, memo, path,
					&looped);
			if (hops)
				hops[(size_t)s * (sn->max_lid + 1) + lid] =
					(uint8_t)(h >= 0 && h < 255 ? h : 255);
			if (looped)
				st->loops++;
			if (h < 0 && is_ca) {
				st->unreachable += !looped;
				if (!st->first_bad[0])
					snprintf(st->first_bad,
						 sizeof(st->first_bad),
						 "switch '%s' %s LID %u",
						 sn->nodes[sn->sw_node[s]].name,
						 looped ? "loops for"
							: "has no path to",
						 lid);
				continue;
			}
			if (!is_ca || h < 0)
				continue;
			size_t p = *ibfs__subnet_lft(sn, s, lid);
			if (nx[(size_t)s * stride + p] >= 0)
				routes[(size_t)s * stride + p]++;
			if (!base || !casw[s])
				continue;
			/* Pairs from the CA ports on s (not the LID's own
			 * port) to this LID: one more link at the source. */
			int src = casw[s] - (h == 1);
			if (src <= 0)
				continue;
			hsum += (double)src * (h + 1);
			pairs += src;
			if (h + 1 > st->hop_max)
				st->hop_max = h + 1;
		}
	}
	if (!sn->nsw && ncas > 1) {
		st->hop_max = 1; /* CAs linked back to back */
		hsum = pairs = 1;
	}
	st->hop_mean = pairs ? hsum / pairs : 0;
	long nports = 0;
	double rsum = 0;
	st->routes_min = -1;
	for (int s = 0; s < sn->nsw; s++) {
		const struct ibfs_sn_node *n = &sn->nodes[sn->sw_node[s]];
		for (int p = 1; p <= n->nports; p++) {
			int peer = n->ports[p].peer;
			if (peer < 0 ||
			    sn->nodes[peer].type != IBFS_NODE_SWITCH)
				continue;
			long r = routes[(size_t)s * stride + (size_t)p];
			if (st->routes_min < 0 || r < st->routes_min)
				st->routes_min = r;
			if (r > st->routes_max)
				st->routes_max = r;
			rsum += (double)r;
			nports++;
		}
	}
	if (st->routes_min < 0)
		st->routes_min = 0;
	st->routes_mean = nports ? rsum / (double)nports : 0;
	st->isw_ports = nports;
	free(memo);
	free(path);
	free(casw);
	free(routes);
	free(nx);
	return 0;
}

static int rs_is_ca_lid(const struct ibfs_subnet *sn, unsigned lid)
{
	return sn->lid_node[lid] >= 0 &&
	       sn->nodes[sn->lid_node[lid]].type != IBFS_NODE_SWITCH;
}

uint16_t ibfs__route_sl_use(const struct ibfs_subnet *sn)
{
	uint16_t use = 0;
	if (!sn->src_sl) {
		for (unsigned d = 1; d <= sn->max_lid; d++)
			if (rs_is_ca_lid(sn, d))
				use |= (uint16_t)(1u << (sn->dst_sl[d] & 15));
		return use ? use : 1;
	}
	/* Per path: a row per source switch, the switches with CAs. */
	char *has_ca = calloc(sn->nsw ? (size_t)sn->nsw : 1, 1);
	if (!has_ca)
		return 0;
	for (unsigned l = 1; l <= sn->max_lid; l++) {
		int s = rs_is_ca_lid(sn, l) ? ibfs__subnet_lid_switch(sn, l, NULL)
					    : -1;
		if (s >= 0)
			has_ca[s] = 1;
	}
	for (int s = 0; s < sn->nsw; s++)
		for (unsigned d = 1; has_ca[s] && d <= sn->max_lid; d++)
			if (rs_is_ca_lid(sn, d))
				use |= (uint16_t)(1u << (sn->src_sl[
					(size_t)s * (sn->max_lid + 1) + d] & 15));
	free(has_ca);
	return use ? use : 1;
}
