/* SPDX-License-Identifier: MIT */
/*
 * Programming a run's fabric from the subnet manager's tables: LIDs (with
 * LMC) on every HCA port and switch, forwarding tables from the routing
 * engine, and the engine's SL-to-VL table on every switch port. This is
 * what the SM writes with SubnSet(PortInfo), SubnSet(LinearForwardingTable)
 * and SubnSet(SLtoVLMappingTable) (IBA 14.2.5); here it is written directly,
 * before traffic starts, and the in-band sweep that takes simulated time is
 * the subnet manager's own job.
 */
#include <stdio.h>
#include <string.h>

#include "hca/hca.h"
#include "scenario/routes.h"
#include "subnet_manager/routing.h"
#include "subnet_manager/subnet.h"
#include "switch/switch.h"

static int program_switch(struct ibfs_fabric *fab,
			  const struct ibfs_subnet *sn, int s,
			  struct ibfs_diag *d)
{
	int node = sn->sw_node[s];
	struct ibfs_switch *sw =
		fab->devices[node] ? ibfs__switch_of(fab->devices[node]) : NULL;
	if (!sw)
		return ibfs__diag(d, fab->topo->file, 0,
				  "switch %s has no device", sn->nodes[node].name);
	ibfs__switch_set_lid(sw, sn->nodes[node].ports[0].lid);
	for (unsigned lid = 1; lid <= sn->max_lid; lid++) {
		uint8_t port = *ibfs__subnet_lft(sn, s, lid);
		if (port != IBFS_LFT_NO_PATH)
			ibfs__switch_set_lft(sw, lid, port);
	}
	if (ibfs__switch_set_sl2vl(sw, -1, -1, sn->sl2vl) < 0)
		return ibfs__diag(d, fab->topo->file, 0,
				  "switch %s: the engine's SL-to-VL table uses "
				  "more VLs than the fabric has",
				  sn->nodes[node].name);
	return 0;
}

int ibfs__routes_program(struct ibfs_fabric *fab, const char *engine,
			 int lmc, const char *lfts, struct ibfs_routes *out,
			 struct ibfs_diag *d)
{
	struct ibfs_subnet *sn = ibfs__subnet_from_topo(fab->topo, d);
	if (!sn)
		return -1;
	struct ibfs_routing_opts opts = {.lfts_file = lfts,
					 .no_fallback = lfts != NULL};
	int rc = 0;
	if (ibfs__subnet_assign_lids(sn, lmc, d) < 0 ||
	    ibfs__routing_run(sn, engine, &opts, d) < 0) {
		rc = -1;
		goto out;
	}
	for (int s = 0; s < sn->nsw && rc == 0; s++)
		rc = program_switch(fab, sn, s, d);
	for (int n = 0; n < sn->nnodes && rc == 0; n++) {
		if (sn->nodes[n].type != IBFS_NODE_HCA)
			continue;
		struct ibfs_hca *h = ibfs__hca_of_node(fab, n);
		for (int p = 1; p <= sn->nodes[n].nports; p++)
			if (sn->nodes[n].ports[p].lid &&
			    ibfs__hca_set_lid(h, p, sn->nodes[n].ports[p].lid,
					      (uint8_t)lmc) < 0)
				rc = ibfs__diag(d, fab->topo->file, 0,
						"cannot set the LID of %s:%d",
						sn->nodes[n].name, p);
	}
	if (out) {
		int keep = out->keep_subnet;
		memset(out, 0, sizeof(*out));
		snprintf(out->engine, sizeof(out->engine), "%s", sn->engine);
		out->max_lid = sn->max_lid;
		if (keep && rc == 0) {
			out->sn = sn;
			return 0;
		}
	}
out:
	ibfs__subnet_free(sn);
	return rc;
}
