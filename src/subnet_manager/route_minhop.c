/* SPDX-License-Identifier: MIT */
/*
 * minhop, the default engine (OpenSM's osm_ucast_mgr.c): every switch
 * forwards each LID through a port on a shortest path, and among the
 * shortest ports through the one that carries the fewest CA LIDs so far
 * (for LMC > 0, preferring a neighbour the port's other LIDs do not use).
 * All routes are shortest on any topology; nothing prevents credit loops.
 */
#include "subnet_manager/routing.h"

static int minhop_build(void *ctx)
{
	struct ibfs_subnet *sn = ctx;
	struct ibfs_route_policy pol = {.ctx = NULL, .dist = ibfs__route_bfs};
	if (ibfs__route_build_tables(sn, &pol)) {
		ibfs__subnet_log(sn, "ERR 5101: minhop: out of memory");
		return -1;
	}
	return 0;
}

int ibfs__route_minhop_setup(struct ibfs_routing_engine *re)
{
	re->ctx = re->sn;
	re->ucast_build_fwd_tables = minhop_build;
	return 0;
}
