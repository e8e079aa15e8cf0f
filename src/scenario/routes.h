/* SPDX-License-Identifier: MIT */
/*
 * Programming the LIDs, forwarding tables and SL-to-VL tables of a run's
 * devices from a routing engine (see routes.c).
 */
#ifndef IBFS_SCENARIO_ROUTES_H
#define IBFS_SCENARIO_ROUTES_H

#include "fabric/fabric.h"

struct ibfs_subnet;

struct ibfs_routes {
	char engine[16];    /* the engine that built the tables */
	unsigned max_lid;
	/* Set when asked (keep_subnet): the subnet, for path SLs; the caller
	 * frees it with ibfs__subnet_free. */
	int keep_subnet;
	struct ibfs_subnet *sn;
};

/* Returns 0, or -1 with d filled (unknown engine, unroutable fabric). */
/*
 * lfts: for engine "file", the opensm-lfts.dump to load (no fallback to
 * minhop: a bad file is an error, not another routing).
 */
int ibfs__routes_program(struct ibfs_fabric *fab, const char *engine,
			 int lmc, const char *lfts, struct ibfs_routes *out,
			 struct ibfs_diag *d);

/*
 * QoS settings (subnet_manager/qos.h) written at once, as the in-band SM
 * programs them: every switch's SL-to-VL table, every switch output's and
 * HCA port's VL arbitration tables and limit, every HCA port's SL-to-VL
 * table. Nothing when q->given is 0. Returns 0, or -1 with d filled.
 */
struct ibfs_qos;
int ibfs__routes_apply_qos(struct ibfs_fabric *fab, const struct ibfs_qos *q,
			   struct ibfs_diag *d);

/*
 * Writes the P_Key tables of partitions pp (NULL: OpenSM's default) into
 * every port and sets the switch ports facing CAs enforcing, as the
 * in-band SM programs them (subnet_manager/pkey_plan.h), the SM on HCA
 * sm_node (its first linked port is SELF). Returns 0, or -1 with d.
 */
struct ibfs_partitions;
int ibfs__routes_apply_pkeys(struct ibfs_fabric *fab,
			     const struct ibfs_partitions *pp, int sm_node,
			     struct ibfs_diag *d);

/*
 * Multicast groups (subnet_manager/mcast.h) written at once, as the
 * in-band SM programs them: each group's spanning tree on sn (the
 * subnet ibfs__routes_program kept, nodes in the topology's order) into
 * every switch's MFT. Returns 0, or -1 with d filled.
 */
struct ibfs_mcast_group;
int ibfs__routes_apply_mcast(struct ibfs_fabric *fab,
			     const struct ibfs_subnet *sn,
			     const struct ibfs_mcast_group *g, int ngroups,
			     struct ibfs_diag *d);

#endif
