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
#include <stdlib.h>
#include <string.h>

#include "fabric/pkey.h"
#include "hca/hca.h"
#include "scenario/routes.h"
#include "subnet_manager/mcast.h"
#include "subnet_manager/pkey_plan.h"
#include "subnet_manager/qos.h"
#include "subnet_manager/routing.h"
#include "subnet_manager/subnet.h"
#include "switch/switch.h"

/*
 * Copies switch s's LFT in 64-LID blocks, the unit of the SM's
 * LinearForwardingTable SMP (IBA 14.2.5.10), as one block write each
 * instead of a call per LID (21.5 million at 11,664 HCAs). The result is
 * what writing each routed LID would give: a LID without a path keeps the
 * switch's entry, a block with no routed LID is not written (so the table
 * grows to the same length), and a block the switch refuses (a port it
 * does not have) is written LID by LID, refusing only those entries.
 */
static void program_lft(struct ibfs_switch *sw, const struct ibfs_subnet *sn,
			int s)
{
	const uint8_t *row = ibfs__subnet_lft(sn, s, 0);
	for (unsigned b = 0; b * 64 <= sn->max_lid; b++) {
		/* A whole block of routed LIDs goes as it is. */
		if (b && b * 64 + 63 <= sn->max_lid &&
		    !memchr(row + b * 64, IBFS_LFT_NO_PATH, 64) &&
		    ibfs__switch_set_lft_block(sw, b, row + b * 64) == 0)
			continue;
		uint8_t ports[64];
		int any = 0;
		for (unsigned i = 0; i < 64; i++) {
			unsigned lid = b * 64 + i;
			uint8_t p = lid >= 1 && lid <= sn->max_lid
					    ? row[lid]
					    : IBFS_LFT_NO_PATH;
			any |= p != IBFS_LFT_NO_PATH;
			ports[i] = p != IBFS_LFT_NO_PATH
					   ? p
					   : ibfs__switch_get_lft(
						     sw, (uint16_t)lid);
		}
		if (!any || ibfs__switch_set_lft_block(sw, b, ports) == 0)
			continue;
		for (unsigned i = 0; i < 64; i++) {
			unsigned lid = b * 64 + i;
			if (lid >= 1 && lid <= sn->max_lid &&
			    row[lid] != IBFS_LFT_NO_PATH)
				ibfs__switch_set_lft(sw, (uint16_t)lid,
						     row[lid]);
		}
	}
}

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
	program_lft(sw, sn, s);
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

int ibfs__routes_apply_qos(struct ibfs_fabric *fab, const struct ibfs_qos *q,
			   struct ibfs_diag *d)
{
	const struct ibfs_topology *t = fab->topo;
	if (!q->given)
		return 0;
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		int bad;
		if (!fab->devices[i])
			continue;
		if (n->type == IBFS_NODE_SWITCH) {
			struct ibfs_switch *sw = ibfs__switch_of(fab->devices[i]);
			bad = ibfs__switch_set_sl2vl(sw, -1, -1, q->sl2vl) < 0 ||
			      ibfs__switch_set_vlarb(sw, -1, q->high, q->nhigh,
						     q->low, q->nlow,
						     q->high_limit) < 0;
		} else {
			struct ibfs_hca *h = ibfs__hca_of_node(fab, (int)i);
			bad = 0;
			for (int p = 1; p <= n->nports && !bad; p++)
				bad = ibfs__hca_set_sl2vl(h, p, q->sl2vl) < 0;
			bad = bad || ibfs__hca_set_vlarb(h, -1, q->high,
							 q->nhigh, q->low,
							 q->nlow,
							 q->high_limit) < 0;
		}
		if (bad)
			return ibfs__diag(d, t->file, 0,
					  "%s: the QoS settings name a VL the "
					  "fabric does not have", n->id);
	}
	return 0;
}

/* The first linked port of HCA node n (the SM's port), -1 if none. */
static int sm_port_of(const struct ibfs_topology *t, int n)
{
	if (n < 0 || (size_t)n >= t->nnodes ||
	    t->nodes[n].type == IBFS_NODE_SWITCH)
		return -1;
	for (int p = 1; p <= t->nodes[n].nports; p++)
		if (t->nodes[n].ports[p].peer_node >= 0)
			return p;
	return -1;
}

/* Writes the entries of port that differ from tab (cap of them). */
static int write_table(struct ibfs_port *port, const uint16_t *tab)
{
	for (unsigned i = 0; i < ibfs__port_pkey_cap(port); i++)
		if (ibfs__port_pkey(port, i) != tab[i] &&
		    ibfs__port_pkey_set(port, i, tab[i]) < 0)
			return -1;
	return 0;
}

int ibfs__routes_apply_pkeys(struct ibfs_fabric *fab,
			     const struct ibfs_partitions *pp, int sm_node,
			     struct ibfs_diag *d)
{
	const struct ibfs_topology *t = fab->topo;
	struct ibfs_partitions *own = pp ? NULL : ibfs__partitions_default();
	struct ibfs_pkey_plan pl;
	int rc = 0;

	if (!pp && !own)
		return ibfs__diag(d, t->file, 0, "out of memory");
	if (ibfs__pkey_plan_build(&pl, pp ? pp : own, t, sm_node,
				  sm_port_of(t, sm_node), d) < 0) {
		ibfs__partitions_free(own);
		return -1;
	}
	for (size_t n = 0; n < t->nnodes && !rc; n++) {
		if (!fab->devices[n])
			continue;
		struct ibfs_switch *sw = ibfs__switch_of(fab->devices[n]);

		for (int p = 0; p <= t->nodes[n].nports && !rc; p++) {
			const uint16_t *tab =
				ibfs__pkey_plan_table(&pl, (int)n, p);
			unsigned cap = ibfs__port_pkey_cap(&fab->ports[n][p]);

			if (tab && sw)
				rc = ibfs__switch_set_pkeys(sw, p, 0, tab, cap);
			else if (tab)
				rc = write_table(&fab->ports[n][p], tab);
			if (!rc && pl.enf[n][p])
				rc = ibfs__switch_set_pkey_enf(sw, p,
							       pl.enf[n][p]);
		}
	}
	ibfs__pkey_plan_free(&pl);
	ibfs__partitions_free(own);
	if (rc)
		return ibfs__diag(d, t->file, 0,
				  "out of memory for the P_Key tables");
	return 0;
}

/* The subnet of ibfs__subnet_from_topo: node i is topology node i. */
static int routes_same_node(void *ctx, int topo_node)
{
	(void)ctx;
	return topo_node;
}

/* Switch s's ports in words w into the switch's MFT entry for mlid. */
static int routes_set_mft(struct ibfs_switch *sw, uint16_t mlid,
			  const uint64_t *w)
{
	uint8_t ports[IBFS_MCAST_MASK_WORDS * 64];
	int n = 0;

	for (int p = 0; p < IBFS_MCAST_MASK_WORDS * 64; p++)
		if (w[p / 64] >> (p % 64) & 1)
			ports[n++] = (uint8_t)p;
	return n ? ibfs__switch_set_mft(sw, mlid, ports, n) : 0;
}

int ibfs__routes_apply_mcast(struct ibfs_fabric *fab,
			     const struct ibfs_subnet *sn,
			     const struct ibfs_mcast_group *g, int ngroups,
			     struct ibfs_diag *d)
{
	if (!ngroups)
		return 0;
	size_t n = (size_t)sn->nsw * (size_t)ngroups * IBFS_MCAST_MASK_WORDS;
	uint64_t *m = malloc((n ? n : 1) * sizeof(*m));
	int rc = !m || ibfs__mcast_trees(sn, g, ngroups, routes_same_node,
					 NULL, m) < 0 ?
			 ibfs__diag(d, fab->topo->file, 0, "out of memory") :
			 0;

	for (int s = 0; s < sn->nsw && !rc; s++) {
		struct ibfs_switch *sw =
			ibfs__switch_of(fab->devices[sn->sw_node[s]]);

		for (int k = 0; k < ngroups && !rc; k++)
			if (routes_set_mft(sw, g[k].mlid,
					   ibfs__mcast_mask(m, ngroups, s, k)) <
			    0)
				rc = ibfs__diag(d, fab->topo->file, 0,
						"%s: cannot set the MFT entry "
						"of MLID 0x%04x",
						sn->nodes[sn->sw_node[s]].name,
						g[k].mlid);
	}
	free(m);
	return rc;
}
