/* SPDX-License-Identifier: MIT */
/*
 * updn, up*-down* routing (OpenSM's osm_ucast_updn.c). Switches are ranked
 * by hop distance from the root switches; a move towards a lower rank (for
 * equal ranks, towards the lower GUID) is "up". Legal paths go up zero or
 * more times and then down: never down then up, which leaves the channel
 * dependency graph without cycles, so the routes are deadlock-free on any
 * topology with one VL.
 *
 * Roots: the given GUID list, else OpenSM's own rule
 * (updn_find_root_nodes_by_min_hop): a switch is a root when, in the
 * histogram of its hop counts to all CAs, exactly one bar holds more than
 * 90% of the CAs and no other bar more than 5% (the top of a fat tree).
 * Two departures, both logged. Where no switch passes (rings, tori),
 * OpenSM gives up on updn and uses minhop; we take the switch of least
 * eccentricity towards the CAs (lowest GUID on ties) as the single root,
 * so updn stays deadlock-free there too. And where the rule passes
 * switches of several levels (in the 3-level fat tree of 36-port switches
 * a pod holds 2.8% of the CAs, under the 5% bar, so leaves, spines and
 * cores all pass), ranks tie everywhere, GUIDs decide up and down, and
 * some pairs are left without a legal path; so of the switches that pass
 * we keep those farthest from their nearest CA (the cores).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/routing.h"

struct updn {
	struct ibfs_subnet *sn;
	const struct ibfs_routing_opts *opts;
};

/* OpenSM's histogram rule, else the least-eccentric switch. */
static int updn_auto_roots(struct ibfs_subnet *sn, char *is_root)
{
	int nsw = sn->nsw;
	int *cas = calloc((size_t)nsw, sizeof(int));
	int *dist = malloc((size_t)nsw * sizeof(int));
	char *src = calloc((size_t)nsw, 1);
	int *ecc = malloc((size_t)nsw * sizeof(int));
	int *near = malloc((size_t)nsw * sizeof(int));
	int rc = -1, ncas = 0, nroots = 0;
	if (!cas || !dist || !src || !ecc || !near)
		goto out;
	for (int i = 0; i < sn->nnodes; i++) {
		const struct ibfs_sn_node *n = &sn->nodes[i];
		if (n->type == IBFS_NODE_SWITCH)
			continue;
		for (int p = 1; p <= n->nports; p++) {
			int peer = n->ports[p].peer;
			if (peer >= 0 &&
			    sn->nodes[peer].type == IBFS_NODE_SWITCH) {
				cas[sn->nodes[peer].sw]++;
				ncas++;
			}
		}
	}
	double thd1 = ncas * 0.9, thd2 = ncas * 0.05;
	for (int s = 0; s < nsw; s++) {
		int hist[64] = {0};
		src[s] = 1;
		ibfs__route_multi_bfs(sn, src, dist);
		src[s] = 0;
		ecc[s] = 0;
		near[s] = 63;
		/*
		 * Over the CAs it reaches: a switch the SM's last sweep no
		 * longer found is kept without links (sm.c), reaches none,
		 * and must be neither a root nor the least eccentric (OpenSM
		 * has no such switch: it drops the node).
		 */
		int reached = 0;
		for (int t = 0; t < nsw; t++) {
			if (!cas[t] || dist[t] >= IBFS_DIST_INF)
				continue;
			int h = dist[t] + 1;
			hist[h < 63 ? h : 63] += cas[t];
			reached = 1;
			if (h > ecc[s])
				ecc[s] = h;
			if (h < near[s])
				near[s] = h;
		}
		if (!reached) {
			ecc[s] = 64;
			continue;
		}
		int over1 = 0, over2 = 0;
		for (int h = 0; h < 64; h++) {
			over1 += hist[h] > thd1;
			over2 += hist[h] > thd2;
		}
		if (over1 == 1 && over2 == 1) {
			is_root[s] = 1;
			nroots++;
		}
	}
	int far = 0;
	for (int s = 0; s < nsw; s++)
		if (is_root[s] && near[s] > far)
			far = near[s];
	int dropped = 0;
	for (int s = 0; s < nsw; s++)
		if (is_root[s] && near[s] < far) {
			is_root[s] = 0;
			dropped++;
		}
	if (dropped)
		ibfs__subnet_log(sn,
				 "updn: %d of the %d switches that pass OpenSM's root rule are nearer the CAs than the others and are not roots",
				 dropped, nroots);
	if (!nroots && nsw) {
		int best = 0;
		for (int s = 1; s < nsw; s++)
			if (ecc[s] < ecc[best] ||
			    (ecc[s] == ecc[best] &&
			     sn->nodes[sn->sw_node[s]].guid <
				     sn->nodes[sn->sw_node[best]].guid))
				best = s;
		is_root[best] = 1;
		ibfs__subnet_log(sn,
				 "updn: no switch passes OpenSM's root rule; root is '%s' (GUID 0x%016" PRIx64 "), the least eccentric",
				 sn->nodes[sn->sw_node[best]].name,
				 sn->nodes[sn->sw_node[best]].guid);
	}
	rc = 0;
out:
	free(cas);
	free(dist);
	free(src);
	free(ecc);
	free(near);
	return rc;
}

static int updn_build(void *ctx)
{
	struct updn *u = ctx;
	struct ibfs_subnet *sn = u->sn;
	char *is_root = calloc((size_t)(sn->nsw ? sn->nsw : 1), 1);
	int *rank = malloc(sizeof(int) * (size_t)(sn->nsw ? sn->nsw : 1));
	int rc = -1;
	if (!is_root || !rank) {
		ibfs__subnet_log(sn, "ERR AA01: updn: out of memory");
		goto out;
	}
	if (u->opts->root_guids
		    ? ibfs__route_parse_roots(sn, u->opts->root_guids, is_root,
					      "AA02")
		    : updn_auto_roots(sn, is_root))
		goto out;
	ibfs__route_multi_bfs(sn, is_root, rank);
	struct ibfs_updn_ctx *c = ibfs__updn_ctx_new(sn, rank);
	if (!c) {
		ibfs__subnet_log(sn, "ERR AA01: updn: out of memory");
		goto out;
	}
	struct ibfs_route_policy pol;
	ibfs__updn_policy(c, &pol);
	rc = ibfs__route_build_tables(sn, &pol);
	if (rc)
		ibfs__subnet_log(sn, "ERR AA01: updn: out of memory");
	ibfs__updn_ctx_free(c);
	/* Roots that are not adjacent can leave pairs without a legal
	 * path; OpenSM's connect_roots option exists for that case. */
	if (!rc)
		rc = ibfs__route_check_complete(sn, "AA03", "updn");
out:
	free(is_root);
	free(rank);
	return rc;
}

static void updn_destroy(void *ctx)
{
	free(ctx);
}

int ibfs__route_updn_setup(struct ibfs_routing_engine *re)
{
	struct updn *u = calloc(1, sizeof(*u));
	if (!u)
		return -1;
	u->sn = re->sn;
	u->opts = re->opts;
	re->ctx = u;
	re->ucast_build_fwd_tables = updn_build;
	re->destroy = updn_destroy;
	return 0;
}
