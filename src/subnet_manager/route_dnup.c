/* SPDX-License-Identifier: MIT */
/*
 * dnup (OpenSM's osm_ucast_dnup.c): the mirror of updn. Switches are
 * ranked by hop distance from the switches that have CAs; paths may go
 * down (away from the CA switches) and then up, never up then down. It is
 * the up/down rule with the order reversed, so it shares route_core.c's
 * up/down machinery with ranks negated; it is deadlock-free for the same
 * reason.
 */
#include <stdlib.h>

#include "subnet_manager/routing.h"

static int dnup_build(void *ctx)
{
	struct ibfs_subnet *sn = ctx;
	size_t n = (size_t)(sn->nsw ? sn->nsw : 1);
	char *leaf = calloc(n, 1);
	int *rank = malloc(n * sizeof(int));
	int rc = -1, nleaf = 0;
	if (!leaf || !rank) {
		ibfs__subnet_log(sn, "ERR AE01: dnup: out of memory");
		goto out;
	}
	for (int s = 0; s < sn->nsw; s++) {
		const struct ibfs_sn_node *nd = &sn->nodes[sn->sw_node[s]];
		for (int p = 1; p <= nd->nports; p++) {
			int peer = nd->ports[p].peer;
			if (peer >= 0 &&
			    sn->nodes[peer].type != IBFS_NODE_SWITCH)
				leaf[s] = 1;
		}
		nleaf += leaf[s];
	}
	if (!nleaf) {
		ibfs__subnet_log(sn, "ERR AE02: dnup: no switch has a CA");
		goto out;
	}
	ibfs__route_multi_bfs(sn, leaf, rank);
	/* Reverse the order: the farthest from the CAs are the "roots". */
	for (int s = 0; s < sn->nsw; s++)
		rank[s] = rank[s] >= IBFS_DIST_INF ? 0 : -rank[s];
	struct ibfs_updn_ctx *c = ibfs__updn_ctx_new(sn, rank);
	if (!c) {
		ibfs__subnet_log(sn, "ERR AE01: dnup: out of memory");
		goto out;
	}
	struct ibfs_route_policy pol;
	ibfs__updn_policy(c, &pol);
	rc = ibfs__route_build_tables(sn, &pol);
	ibfs__updn_ctx_free(c);
	/* Switches farthest from the CAs may be several local maxima, and a
	 * down*-up* path need not exist between every pair. */
	if (!rc)
		rc = ibfs__route_check_complete(sn, "AE03", "dnup");
out:
	free(leaf);
	free(rank);
	return rc;
}

int ibfs__route_dnup_setup(struct ibfs_routing_engine *re)
{
	re->ctx = re->sn;
	re->ucast_build_fwd_tables = dnup_build;
	return 0;
}
