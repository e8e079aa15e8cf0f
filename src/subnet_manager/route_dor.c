/* SPDX-License-Identifier: MIT */
/*
 * dor, dimension-order routing as OpenSM does it (osm_ucast_mgr.c with
 * the dor flag): minhop, except that among the shortest ports a switch
 * takes the lowest-numbered one, balancing only over parallel links to
 * the same neighbour. When ports are numbered by dimension (as the mesh,
 * torus and hypercube generators number them) a packet corrects dimension
 * 0 first, then 1, and so on: deadlock-free on meshes and hypercubes; on
 * tori the wrap links close credit loops (the credit-loop check says so).
 */
#include "subnet_manager/routing.h"

static int dor_build(void *ctx)
{
	struct ibfs_subnet *sn = ctx;
	struct ibfs_route_policy pol = {.dist = ibfs__route_bfs,
					.lowest_port = 1};
	if (ibfs__route_build_tables(sn, &pol)) {
		ibfs__subnet_log(sn, "ERR 5201: dor: out of memory");
		return -1;
	}
	return 0;
}

int ibfs__route_dor_setup(struct ibfs_routing_engine *re)
{
	re->ctx = re->sn;
	re->ucast_build_fwd_tables = dor_build;
	return 0;
}
