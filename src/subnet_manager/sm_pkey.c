/* SPDX-License-Identifier: MIT */
/*
 * The subnet manager's partition stage, before the LIDs, the forwarding
 * tables and the ports going Active, as OpenSM's osm_pkey_mgr runs in its
 * sweep (osm_state_mgr.c): each end port's P_KeyTable blocks that differ
 * from what the port holds are set (P_KeyTable, IBA 14.2.5.7: the modifier is
 * the block, with the port in bits 31-16 on a switch), and so are those of
 * the switch ports facing CAs, which then enforce partitions (OpenSM's
 * default). What a port holds is what discovery read (ibfs__sm_pkey_get,
 * as OpenSM's PortInfo receiver reads the tables before osm_pkey_mgr
 * programs them), then what the SM set. The switch ports'
 * PartitionEnforcement bits are set in the same stage, by a PortInfo Set
 * where the bits read differ (sm_config.c).
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/pkey.h"
#include "subnet_manager/sm_int.h"

/* The topology index of record i, -1 if it is none of the fabric's. */
static int sm_pkey_topo(const struct ibfs_sm *sm, int i)
{
	long t = sm->dn[i].topo;

	return t >= 0 && (size_t)t < sm->f->topo->nnodes ? (int)t : -1;
}

int ibfs__sm_pkey_plan(struct ibfs_sm *sm)
{
	struct ibfs_diag d;

	if (sm->plan.tab)
		return 0;
	if (!sm->pp) {
		sm->pp_default = ibfs__partitions_default();
		sm->pp = sm->pp_default;
	}
	if (!sm->pp) {
		ibfs__sm_fail(sm, "out of memory for the partitions");
		return -1;
	}
	if (ibfs__pkey_plan_build(&sm->plan, sm->pp, sm->f->topo, sm->sm_node,
				  sm->sm_port, &d) < 0) {
		ibfs__sm_fail(sm, d.msg);
		return -1;
	}
	return 0;
}

/* What the SM believes record i's ports hold: power-up at first. */
static uint16_t *sm_pkey_held(struct ibfs_sm *sm, int i, int cap)
{
	struct sm_dnode *x = &sm->dn[i];

	if (!x->pkeys) {
		size_t np = (size_t)x->nports + 1;

		x->pkeys = calloc(np * (size_t)cap, sizeof(*x->pkeys));
		if (!x->pkeys)
			return NULL;
		for (size_t p = 0; p < np; p++)
			x->pkeys[p * (size_t)cap] = IBFS_PKEY_DEFAULT;
	}
	return x->pkeys;
}

/*
 * Whether discovery reads the table of record x's port p, as OpenSM's
 * PortInfo receiver decides (osm_port_info_rcv.c, osm_pi_rcv_update_self
 * and osm_pi_rcv_update_neighbor): never for a port whose PortState is
 * Down; in the SM's first sweep for every other port; later for a port
 * found in Init (its link came up again) and for a CA port whose switch
 * reports PortStateChange.
 */
static int sm_pkey_reads(const struct ibfs_sm *sm, const struct sm_dnode *x,
			 int p)
{
	uint8_t st = x->ports[p].state;
	int peer = x->ports[p].peer;

	if (st == 0 || st == IBFS_PORT_DOWN)
		return 0;
	if (sm->sweep_no == 1 || st == IBFS_PORT_INIT)
		return 1;
	return x->type != IBFS_NODE_SWITCH && peer >= 0 &&
	       sm->dn[peer].type == IBFS_NODE_SWITCH &&
	       sm->dn[peer].si.port_state_change;
}

void ibfs__sm_pkey_get(struct ibfs_sm *sm, int i, int p)
{
	const struct sm_dnode *x = &sm->dn[i];
	int sw = x->type == IBFS_NODE_SWITCH;
	/* The table's size: NodeInfo PartitionCap for a CA port and a
	 * switch's port 0, SwitchInfo PartitionEnforcementCap for the
	 * others (0: none), in blocks of 32 (get_pkey_table in OpenSM). */
	int cap = sw && p > 0 ? x->si.enforce_cap : x->pkey_cap;

	if (!sm_pkey_reads(sm, x, p))
		return;
	for (int b = 0; b < (cap + IBFS_PKEY_BLOCK - 1) / IBFS_PKEY_BLOCK;
	     b++) {
		uint32_t mod = (uint32_t)b | (sw ? (uint32_t)p << 16 : 0);

		if (!ibfs__sm_push(sm, IBFS_SMP_GET, IBFS_SMP_ATTR_PKEY_TABLE,
				   mod, i, p))
			return;
	}
}

void ibfs__sm_pkey_read(struct ibfs_sm *sm, const struct sm_req *r,
			const uint8_t *data)
{
	int t = sm_pkey_topo(sm, r->node);

	if (t < 0)
		return;
	int cap = ibfs__pkey_plan_cap(&sm->f->topo->nodes[t]);
	uint16_t *held = sm_pkey_held(sm, r->node, cap);
	size_t b = r->mod & 0xffff;

	if (!held) {
		ibfs__sm_fail(sm, "out of memory for P_Key tables");
		return;
	}
	if (r->port > sm->dn[r->node].nports ||
	    (b + 1) * IBFS_PKEY_BLOCK > (size_t)cap)
		return;
	ibfs__smp_get_pkeys(data, held + (size_t)r->port * (size_t)cap +
					  b * IBFS_PKEY_BLOCK);
}

/* Port p of record i: the blocks of `want` that differ from `held`. */
static void sm_pkey_port(struct ibfs_sm *sm, int i, int p, int cap,
			 const uint16_t *want, uint16_t *held)
{
	int sw = sm->dn[i].type == IBFS_NODE_SWITCH;

	for (int b = 0; b < cap / IBFS_PKEY_BLOCK; b++) {
		size_t off = (size_t)b * IBFS_PKEY_BLOCK;

		if (!memcmp(want + off, held + off,
			    IBFS_PKEY_BLOCK * sizeof(*want)))
			continue;
		uint32_t mod = (uint32_t)b | (sw ? (uint32_t)p << 16 : 0);
		struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_SET,
						 IBFS_SMP_ATTR_PKEY_TABLE, mod,
						 i, 0);
		if (!r)
			return;
		ibfs__smp_put_pkeys(r->data, want + off);
		memcpy(held + off, want + off, IBFS_PKEY_BLOCK * sizeof(*want));
		sm->st.pkey_blocks++;
	}
}

void ibfs__sm_pkey_node(struct ibfs_sm *sm, int i)
{
	const struct sm_dnode *x = &sm->dn[i];
	int t = sm_pkey_topo(sm, i);

	if (t < 0)
		return;
	int cap = ibfs__pkey_plan_cap(&sm->f->topo->nodes[t]);
	uint16_t *held = sm_pkey_held(sm, i, cap);

	if (!held) {
		ibfs__sm_fail(sm, "out of memory for P_Key tables");
		return;
	}
	for (int p = 0; p <= x->nports; p++) {
		const uint16_t *want = ibfs__pkey_plan_table(&sm->plan, t, p);

		/* End ports, and switch ports on a link found now. */
		if (want && (p == 0 || x->ports[p].peer >= 0))
			sm_pkey_port(sm, i, p, cap, want,
				     held + (size_t)p * (size_t)cap);
	}
}

uint8_t ibfs__sm_pkey_enf(const struct ibfs_sm *sm, int i, int p)
{
	int t = sm_pkey_topo(sm, i);

	if (t < 0 || !sm->plan.enf || sm->dn[i].type != IBFS_NODE_SWITCH ||
	    p > sm->f->topo->nodes[t].nports)
		return 0;
	return sm->plan.enf[t][p];
}

void ibfs__sm_pkey_free(struct ibfs_sm *sm)
{
	ibfs__pkey_plan_free(&sm->plan);
	ibfs__partitions_free(sm->pp_default);
	sm->pp_default = NULL;
}
