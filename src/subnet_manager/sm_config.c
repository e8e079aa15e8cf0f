/* SPDX-License-Identifier: MIT */
/*
 * The subnet manager after discovery: the discovered graph becomes a
 * struct ibfs_subnet (nodes in the topology's order, so LIDs are the ones
 * ibfs__subnet_assign_lids gives offline, as OpenSM's guid2lid file pins
 * them), is routed by the chosen engine, and the SM queues the SubnSet
 * requests of each stage: PortInfo (LID, LMC, SM LID), the P_KeyTable
 * blocks the ports lack (sm_pkey.c), SwitchInfo (LinearFDBTop,
 * MulticastFDBTop), the LinearForwardingTable blocks that differ from what
 * a switch holds, the MulticastForwardingTable blocks of the multicast
 * groups' trees likewise (sm_mcast.c), SLtoVLMappingTable and
 * VLArbitrationTable of each linked
 * switch output (with QoS settings, qos.h, those of the linked HCA ports
 * too, as OpenSM's qos_ca_*), then PortState Armed and Active on every
 * linked port, with LimitOfHighPriority (IBA 7.2, 14.2.5), which an HCA
 * port's PortInfo Sets all carry, and on a switch port facing a CA the
 * partition enforcement bits. Routing takes no simulated time here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/routing.h"
#include "subnet_manager/sm_int.h"

/* From discovery to a routed subnet. */

/* Sort keys: topology index, then the record's own index. */
struct sm_key {
	long topo;
	int i;
};

static int sm_cmp(const void *a, const void *b)
{
	const struct sm_key *x = a, *y = b;

	if (x->topo != y->topo)
		return (x->topo > y->topo) - (x->topo < y->topo);
	return (x->i > y->i) - (x->i < y->i);
}

static int sm_route(struct ibfs_sm *sm)
{
	struct ibfs_diag d = { { 0 } };
	int n = 0;
	struct sm_key *order = malloc((size_t)sm->ndn * sizeof(*order));

	if (!order) {
		ibfs__sm_fail(sm, "out of memory building the subnet");
		return -1;
	}
	/* Every node ever found, so that LIDs stay where they were. */
	for (int i = 0; i < sm->ndn; i++)
		order[n++] = (struct sm_key){ sm->dn[i].topo, i };
	qsort(order, (size_t)n, sizeof(*order), sm_cmp);
	ibfs__subnet_free(sm->sn);
	sm->sn = ibfs__subnet_new(n);
	int rc = sm->sn ? 0 : -1;
	int vls = 15;

	for (int j = 0; j < n && !rc; j++) {
		struct sm_dnode *x = &sm->dn[order[j].i];

		x->sn = j;
		rc = ibfs__subnet_set_node(sm->sn, j, x->desc, x->type,
					   x->nports, x->guid);
		if (!rc && x->type != IBFS_NODE_SWITCH && x->entry >= 1 &&
		    x->entry <= x->nports)
			sm->sn->nodes[j].ports[x->entry].guid = x->port_guid;
		/* VLCap code c means 2^(c-1) VLs, 15 for code 5. */
		if (x->vl_cap) {
			int v = x->vl_cap >= 5 ? 15 : 1 << (x->vl_cap - 1);

			if (v < vls)
				vls = v;
		}
	}
	for (int j = 0; j < n && !rc; j++) {
		struct sm_dnode *x = &sm->dn[order[j].i];

		for (int p = 1; p <= x->nports; p++) {
			const struct sm_port *pp = &x->ports[p];

			if (pp->epeer >= 0 && sm->dn[pp->epeer].sn > j)
				ibfs__subnet_connect(sm->sn, j, p,
						     sm->dn[pp->epeer].sn,
						     pp->eport);
			else if (pp->epeer >= 0 && sm->dn[pp->epeer].sn == j &&
				 pp->eport > p)
				ibfs__subnet_connect(sm->sn, j, p, j,
						     pp->eport);
		}
	}
	free(order);
	if (rc) {
		ibfs__sm_fail(sm, "out of memory building the subnet");
		return -1;
	}
	sm->sn->data_vls = vls;
	ibfs__subnet_index(sm->sn);
	if (ibfs__subnet_assign_lids(sm->sn, sm->lmc, &d) < 0) {
		ibfs__sm_fail(sm, d.msg);
		return -1;
	}
	/* The engines and the credit-loop check see the table programmed. */
	if (sm->qos.given)
		memcpy(sm->sn->sl2vl, sm->qos.sl2vl, 16);
	/* Route on the links found in this sweep only. */
	for (int i = 0; i < sm->ndn; i++) {
		struct sm_dnode *x = &sm->dn[i];
		struct ibfs_sn_node *sx = &sm->sn->nodes[x->sn];

		for (int p = 1; p <= x->nports; p++)
			if (x->seen != sm->sweep_no || x->ports[p].peer < 0)
				sx->ports[p].peer = -1;
	}
	if (ibfs__routing_run(sm->sn, sm->engine, &sm->opts, &d) < 0) {
		ibfs__sm_fail(sm, d.msg);
		return -1;
	}
	if (ibfs__sm_pkey_plan(sm) < 0 || ibfs__sm_mcast_route(sm) < 0)
		return -1;
	for (int i = 0; i < sm->ndn; i++)
		sm->st.nodes += sm->dn[i].seen == sm->sweep_no;
	sm->st.max_lid = sm->sn->max_lid;
	snprintf(sm->st.engine, sizeof(sm->st.engine), "%s", sm->sn->engine);
	snprintf(sm->st.fallback, sizeof(sm->st.fallback), "%s",
		 sm->sn->fallback);
	return 0;
}

/* Configuration stages. */

/* LFT blocks of switch record i that differ from what it holds. */
static void sm_lft_blocks(struct ibfs_sm *sm, int i)
{
	struct sm_dnode *x = &sm->dn[i];
	unsigned max = sm->sn->max_lid;
	size_t nb = max / IBFS_LFT_BLOCK + 1;
	int s = sm->sn->nodes[x->sn].sw;

	if (nb > x->lft_blocks) {
		uint8_t *l = realloc(x->lft, nb * IBFS_LFT_BLOCK);
		uint8_t *ok = l ? realloc(x->lft_ok, nb) : NULL;

		if (l)
			x->lft = l;
		if (!ok) {
			ibfs__sm_fail(sm, "out of memory for LFT blocks");
			return;
		}
		x->lft_ok = ok;
		memset(ok + x->lft_blocks, 0, nb - x->lft_blocks);
		x->lft_blocks = nb;
	}
	for (size_t b = 0; b < nb; b++) {
		uint8_t blk[IBFS_LFT_BLOCK];

		for (unsigned k = 0; k < IBFS_LFT_BLOCK; k++) {
			unsigned lid = (unsigned)b * IBFS_LFT_BLOCK + k;

			blk[k] = lid && lid <= max ?
					 *ibfs__subnet_lft(sm->sn, s, lid) :
					 IBFS_LFT_NO_PATH;
		}
		if (x->lft_ok[b] &&
		    !memcmp(x->lft + b * IBFS_LFT_BLOCK, blk, IBFS_LFT_BLOCK))
			continue;
		struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_SET,
						 IBFS_SMP_ATTR_LFT,
						 (uint32_t)b, i, 0);

		if (!r)
			return;
		memcpy(r->data, blk, IBFS_LFT_BLOCK);
		sm->st.lft_blocks++;
	}
}

/* The QoS settings programmed: the given ones, or the defaults. */
static const struct ibfs_qos *sm_qos(struct ibfs_sm *sm,
				     struct ibfs_qos *def)
{
	if (sm->qos.given)
		return &sm->qos;
	ibfs__qos_default(def, sm->sn->data_vls);
	return def;
}

/* VLArbitrationTable block blk (1, 2 low; 3, 4 high) of port p. */
static void sm_vlarb_block(struct ibfs_sm *sm, int i, int p, int blk,
			   const struct ibfs_vlarb_entry *t, int n)
{
	uint8_t vl[32] = { 0 }, w[32] = { 0 };
	int from = blk % 2 ? 0 : 32;

	for (int k = from; k < n && k < from + 32; k++) {
		vl[k - from] = t[k].vl;
		w[k - from] = t[k].weight;
	}
	struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_SET, IBFS_SMP_ATTR_VLARB,
					 (uint32_t)p << 16 | (uint32_t)blk, i,
					 0);
	if (r)
		ibfs__smp_put_vlarb(r->data, vl, w);
}

/*
 * Port p's SL-to-VL table, in the SL2VL phase (modifier `mod`: see
 * sma.c), or its VL arbitration tables: low-priority block 1 always
 * (without QoS settings one entry of weight 1 per data VL, the ports'
 * default, fabric/vl_arbiter.c), the other blocks when the tables have
 * entries there.
 */
static void sm_port_tables(struct ibfs_sm *sm, int i, int p, uint32_t mod)
{
	struct ibfs_qos def;
	const struct ibfs_qos *q = sm_qos(sm, &def);

	if (sm->phase == PH_SL2VL) {
		struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_SET,
						 IBFS_SMP_ATTR_SL2VL, mod, i,
						 0);
		if (r)
			ibfs__smp_put_sl2vl(r->data, sm->sn->sl2vl);
		return;
	}
	sm_vlarb_block(sm, i, p, 1, q->low, q->nlow);
	if (q->nlow > 32)
		sm_vlarb_block(sm, i, p, 2, q->low, q->nlow);
	if (q->nhigh > 0)
		sm_vlarb_block(sm, i, p, 3, q->high, q->nhigh);
	if (q->nhigh > 32)
		sm_vlarb_block(sm, i, p, 4, q->high, q->nhigh);
}

/* A switch output: one SL2VL SMP for every input of output p. */
static void sm_switch_port(struct ibfs_sm *sm, int i, int p)
{
	sm_port_tables(sm, i, p, 0xffu << 8 | (uint32_t)p);
}

/* With QoS settings, an HCA port's tables (qos_ca_sl2vl, qos_ca_vlarb). */
static void sm_ca_port(struct ibfs_sm *sm, int i, int p)
{
	if (sm->qos.given)
		sm_port_tables(sm, i, p, (uint32_t)p);
}

static void sm_set_port(struct ibfs_sm *sm, int i, int p, uint8_t state)
{
	const struct sm_dnode *x = &sm->dn[i];
	const struct ibfs_sn_node *sn = &sm->sn->nodes[x->sn];
	const struct sm_dnode *me = &sm->dn[sm->root];
	struct ibfs_smp_port_info w = { .state = state };
	struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_SET,
					 IBFS_SMP_ATTR_PORT_INFO,
					 (uint32_t)p, i, 0);

	if (!r)
		return;
	if (x->type != IBFS_NODE_SWITCH || p == 0) {
		w.lid = sn->ports[p].lid;
		w.lmc = x->type == IBFS_NODE_SWITCH ? 0 : (uint8_t)sm->lmc;
		w.sm_lid = sm->sn->nodes[me->sn].ports[sm->sm_port].lid;
	}
	if (p > 0) {
		struct ibfs_qos def;

		w.vl_high_limit = sm_qos(sm, &def)->high_limit;
		w.part_enf = ibfs__sm_pkey_enf(sm, i, p);
	}
	ibfs__smp_put_port_info(r->data, &w);
}

void ibfs__sm_next_phase(struct ibfs_sm *sm)
{
	if (sm->phase == PH_DISCOVER && sm_route(sm) < 0)
		return;
	sm->phase++;
	for (int i = 0; i < sm->ndn; i++) {
		struct sm_dnode *x = &sm->dn[i];
		const struct ibfs_sn_node *sn;
		int sw = x->type == IBFS_NODE_SWITCH;

		if (x->seen != sm->sweep_no)
			continue;
		sn = &sm->sn->nodes[x->sn];
		switch (sm->phase) {
		case PH_LID:
			if (sw)
				sm_set_port(sm, i, 0, IBFS_PORT_NOP);
			for (int p = 1; !sw && p <= x->nports; p++)
				if (sn->ports[p].lid)
					sm_set_port(sm, i, p, IBFS_PORT_NOP);
			break;
		case PH_PKEY:
			ibfs__sm_pkey_node(sm, i);
			break;
		case PH_SWINFO:
			if (sw) {
				struct ibfs_smp_switch_info w = {
					.lft_top = (uint16_t)sm->sn->max_lid,
					.mft_top = ibfs__sm_mft_top(sm),
				};
				struct sm_req *r = ibfs__sm_push(
					sm, IBFS_SMP_SET,
					IBFS_SMP_ATTR_SWITCH_INFO, 0, i, 0);
				if (r)
					ibfs__smp_put_switch_info(r->data, &w);
			}
			break;
		case PH_LFT:
			if (sw)
				sm_lft_blocks(sm, i);
			break;
		case PH_MFT:
			if (sw)
				ibfs__sm_mft_blocks(sm, i);
			break;
		case PH_SL2VL:
		case PH_VLARB:
			for (int p = 1; p <= x->nports; p++)
				if (x->ports[p].peer >= 0 && sw)
					sm_switch_port(sm, i, p);
				else if (x->ports[p].peer >= 0)
					sm_ca_port(sm, i, p);
			break;
		case PH_ARM:
		case PH_ACTIVE:
			/* Ports already Active (a later sweep) stay so. */
			for (int p = 1; p <= x->nports; p++)
				if (x->ports[p].peer >= 0 &&
				    x->ports[p].state != IBFS_PORT_ACTIVE)
					sm_set_port(sm, i, p,
						    sm->phase == PH_ARM ?
							    IBFS_PORT_ARMED :
							    IBFS_PORT_ACTIVE);
			break;
		default:
			break;
		}
	}
	if (sm->phase == PH_DONE) {
		if (!sm->st.up)
			sm->st.up = sm->f->eq.now;
		sm->st.state = 1;
		sm->st.sweep = sm->st.up - sm->st.start;
		if (sm->up)
			sm->up(sm->ctx, sm->st.up);
		if (sm->resweep_pending) {
			sm->resweep_pending = 0;
			ibfs__sm_resweep(sm);
		} else if (sm->mc_dirty) {
			ibfs__sm_mcast_changed(sm, -1);
		}
	}
}
