/* SPDX-License-Identifier: MIT */
/*
 * The subnet manager after discovery: the discovered graph becomes a
 * struct ibfs_subnet (nodes in the topology's order, so LIDs are the ones
 * ibfs__subnet_assign_lids gives offline, as OpenSM's guid2lid file pins
 * them), is routed by the chosen engine, and the SM queues the SubnSet
 * requests of each stage, in the order of OpenSM's sweep (do_sweep in
 * osm_state_mgr.c), each sent only where what discovery read differs:
 * - SwitchInfo clearing PortStateChange where a switch reports it
 *   (state_mgr_reset_state_change_bit);
 * - P_KeyTable blocks the ports lack (sm_pkey.c) and the partition
 *   enforcement bits of switch ports facing CAs (osm_pkey_mgr.c);
 * - PortInfo: LID, LMC, MasterSMLID of the SM's port, then of the other
 *   CA ports and switch ports 0 (osm_lid_mgr.c);
 * - in one stage, SwitchInfo: LinearFDBTop, MulticastFDBTop where the
 *   tops read differ (ucast_mgr_set_fwd_top), the LinearForwardingTable
 *   blocks that differ from what a switch holds, and with QoS settings
 *   (qos.h) the SLtoVLMappingTable and VLArbitrationTable of each linked
 *   switch output and HCA port (OpenSM's qos_swe_* and qos_ca_*; without,
 *   none: see sm_tables_due);
 * - the MulticastForwardingTable blocks of the multicast groups' trees
 *   that differ (sm_mcast.c);
 * - PortInfo of every linked port not Active, three times: no change of
 *   state (the operational parameters), Armed, Active (osm_link_mgr.c).
 * Every PortInfo Set writes the whole attribute: an HCA port's carry
 * LimitOfHighPriority (IBA 7.2, 14.2.5), a switch port's facing a CA the
 * partition enforcement bits too. Routing takes no simulated time here.
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

/* VLCap code c: 2^(c-1) data VLs, 15 for code 5 (IBA 14.2.5.6). */
static int sm_vls(uint8_t code)
{
	return code >= 5 ? 15 : 1 << (code - 1);
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
		if (x->vl_cap && sm_vls(x->vl_cap) < vls)
			vls = sm_vls(x->vl_cap);
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

/*
 * VLArbitrationTable block blk (1, 2 low; 3, 4 high) of port p: the
 * modifier holds the block in bits 31-16 and the port in bits 7-0 (IBA
 * 14.2.5.9; OpenSM's vlarb_update_table_block), port 0 on a CA's port
 * reached by the SMP (as OpenSM addresses an end port).
 */
static void sm_vlarb_block(struct ibfs_sm *sm, int i, int p, int blk,
			   const struct ibfs_vlarb_entry *t, int n)
{
	uint8_t vl[32] = { 0 }, w[32] = { 0 };
	int from = blk % 2 ? 0 : 32;
	const struct sm_dnode *x = &sm->dn[i];
	int port = x->type != IBFS_NODE_SWITCH && p == x->entry ? 0 : p;

	for (int k = from; k < n && k < from + 32; k++) {
		vl[k - from] = t[k].vl;
		w[k - from] = t[k].weight;
	}
	struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_SET, IBFS_SMP_ATTR_VLARB,
					 (uint32_t)blk << 16 | (uint32_t)port,
					 i, 0);
	if (r)
		ibfs__smp_put_vlarb(r->data, vl, w);
}

/*
 * Port p's VL arbitration tables, as OpenSM's vlarb_update (osm_qos.c):
 * the blocks its PortInfo says it holds, whatever entries the tables
 * have: block 1 if VLArbitrationLowCap is not 0, block 2 if it is above
 * 32, blocks 3 and 4 alike by VLArbitrationHighCap. A CA port whose
 * PortInfo was not read (not the one reached) has its node's caps.
 */
static void sm_vlarb(struct ibfs_sm *sm, int i, int p, const struct ibfs_qos *q)
{
	const struct sm_dnode *x = &sm->dn[i];
	const struct sm_port *pp = &x->ports[x->ports[p].state ? p : x->entry];

	if (pp->arb_low_cap > 0)
		sm_vlarb_block(sm, i, p, 1, q->low, q->nlow);
	if (pp->arb_low_cap > 32)
		sm_vlarb_block(sm, i, p, 2, q->low, q->nlow);
	if (pp->arb_high_cap > 0)
		sm_vlarb_block(sm, i, p, 3, q->high, q->nhigh);
	if (pp->arb_high_cap > 32)
		sm_vlarb_block(sm, i, p, 4, q->high, q->nhigh);
}

/* An SLtoVLMappingTable Set of record i with modifier mod. */
static void sm_sl2vl(struct ibfs_sm *sm, int i, uint32_t mod)
{
	struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_SET, IBFS_SMP_ATTR_SL2VL,
					 mod, i, 0);
	if (r)
		ibfs__smp_put_sl2vl(r->data, sm->sn->sl2vl);
}

/*
 * Whether record x's SL-to-VL and VL arbitration tables are programmed.
 * With QoS settings, always. Without, OpenSM sends neither attribute
 * (osm_qos_setup in osm_qos.c returns at once with qos off): the devices
 * keep their power-up tables, here SL s on VL s mod their data VLs and
 * one entry per VL (fabric/vl_arbiter.c), the SM's defaults for a node
 * with the subnet's data VLs. A node with more data VLs than the
 * subnet's least would spread SLs over VLs the routing engines did not
 * count on: it is programmed (a departure from OpenSM, for fabrics that
 * mix VL counts).
 */
static int sm_tables_due(const struct ibfs_sm *sm, const struct sm_dnode *x)
{
	return sm->qos.given ||
	       (x->vl_cap && sm_vls(x->vl_cap) != sm->sn->data_vls);
}

/*
 * Whether linked port p's tables are set: in the SM's first sweep, later
 * if the port is not Active (its link came up again), as OpenSM forces
 * them where need_update is set and else sends only tables that differ
 * from those it set (osm_qos.c).
 */
static int sm_qos_port_due(const struct ibfs_sm *sm,
			   const struct sm_dnode *x, int p)
{
	const struct sm_port *pp = &x->ports[p];

	return pp->peer >= 0 &&
	       (sm->sweep_no == 1 || pp->state != IBFS_PORT_ACTIVE);
}

/*
 * The QoS stage of record i, in OpenSM's order (osm_qos_setup with
 * use_optimized_slvl off, its default): a switch's arbitration tables of
 * each linked port, then an SL-to-VL table for every pair of an input
 * 0..n and a linked output, modifier input << 8 | output (IBA 14.2.5.8;
 * qos_extports_setup); a CA port's arbitration tables then its SL-to-VL
 * table (qos_endport_setup).
 */
static void sm_qos_node(struct ibfs_sm *sm, int i)
{
	const struct sm_dnode *x = &sm->dn[i];
	struct ibfs_qos def;
	const struct ibfs_qos *q = sm_qos(sm, &def);
	int sw = x->type == IBFS_NODE_SWITCH;

	if (!sm_tables_due(sm, x))
		return;
	for (int p = 1; p <= x->nports; p++) {
		if (!sm_qos_port_due(sm, x, p))
			continue;
		sm_vlarb(sm, i, p, q);
		if (!sw)
			sm_sl2vl(sm, i, p == x->entry ? 0 : (uint32_t)p);
	}
	for (int p = 1; sw && p <= x->nports; p++)
		for (int in = 0; sm_qos_port_due(sm, x, p) && in <= x->nports;
		     in++)
			sm_sl2vl(sm, i, (uint32_t)in << 8 | (uint32_t)p);
}

/* OpenSM's default subnet_timeout: 4.096 us x 2^18, about 1.07 s. */
#define SM_SUBNET_TIMEOUT 18

/*
 * A linked port's operational parameters, as OpenSM's link manager sets
 * them (osm_link_mgr.c, from osm_physp_calc_link_mtu and _op_vls): the
 * NeighborMTU and OperationalVLs that both ends can take, the smaller of
 * the two MTUCaps and VLCaps read (OpenSM's max_op_vls, 5 by default,
 * caps nothing below VL0-14). LinkWidthEnabled and LinkSpeedEnabled are
 * written back as read: OpenSM 3.3.23's Set is the PortInfo it read with
 * its changes, and with its defaults it changes neither (its SMP dump
 * over ibsim).
 */
static void sm_link_params(const struct ibfs_sm *sm, const struct sm_port *pp,
			   struct ibfs_smp_port_info *w)
{
	uint8_t mtu = pp->mtu_cap, vls = pp->vl_cap;

	if (pp->peer >= 0) {
		const struct sm_port *q = &sm->dn[pp->peer].ports[pp->peer_port];

		if (q->mtu_cap && q->mtu_cap < mtu)
			mtu = q->mtu_cap;
		if (q->vl_cap && q->vl_cap < vls)
			vls = q->vl_cap;
	}
	w->neighbor_mtu = mtu;
	w->op_vls = vls;
	w->width_enabled = pp->width_en;
	w->speed_enabled = pp->speed_en;
}

/* The PortInfo record i's port p must hold, in a Set asking for state. */
static void sm_port_info(struct ibfs_sm *sm, int i, int p, uint8_t state,
			 struct ibfs_smp_port_info *w)
{
	const struct sm_dnode *x = &sm->dn[i];
	const struct ibfs_sn_node *sn = &sm->sn->nodes[x->sn];
	const struct sm_dnode *me = &sm->dn[sm->root];

	*w = (struct ibfs_smp_port_info){ .state = state,
					  .subnet_timeout = SM_SUBNET_TIMEOUT };
	if (x->type != IBFS_NODE_SWITCH || p == 0) {
		w->gid_prefix = IBFS_GID_PREFIX_LINK_LOCAL;
		w->lid = sn->ports[p].lid;
		w->lmc = x->type == IBFS_NODE_SWITCH ? 0 : (uint8_t)sm->lmc;
		w->sm_lid = sm->sn->nodes[me->sn].ports[sm->sm_port].lid;
	}
	if (p > 0) {
		struct ibfs_qos def;

		w->vl_high_limit = sm_qos(sm, &def)->high_limit;
		w->part_enf = ibfs__sm_pkey_enf(sm, i, p);
		sm_link_params(sm, &x->ports[p], w);
	}
}

/* Whether record i's port p has IsExtendedSpeedsSupported (sm_int.h). */
static int sm_port_ext(const struct ibfs_sm *sm, int i, int p)
{
	const struct sm_dnode *x = &sm->dn[i];

	return x->ports[x->type == IBFS_NODE_SWITCH ? 0 : p].ext;
}

/*
 * OpenSM's link manager, in its pass with no change of state, enables the
 * extended speeds of a link whose ends both support them: the Set's
 * LinkSpeedExtEnabled 31, "set to LinkSpeedExtSupported" (its default
 * force_link_speed_ext), and SMSupportExtendedSpeeds in the modifier
 * (seen in its SMP dump over ibsim). Its other PortInfo Sets have neither.
 */
static uint32_t sm_link_ext(const struct ibfs_sm *sm, int i, int p,
			    struct ibfs_smp_port_info *w)
{
	const struct sm_port *pp = &sm->dn[i].ports[p];

	if (sm->phase != PH_LINK || p == 0 || pp->peer < 0 ||
	    !sm_port_ext(sm, i, p) || !sm_port_ext(sm, pp->peer, pp->peer_port))
		return 0;
	w->speed_ext_enabled = 31;
	return IBFS_SMP_PI_EXT_SPEEDS;
}

static void sm_set_port(struct ibfs_sm *sm, int i, int p, uint8_t state)
{
	struct ibfs_smp_port_info w;

	sm_port_info(sm, i, p, state, &w);
	uint32_t mod = (uint32_t)p | sm_link_ext(sm, i, p, &w);
	struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_SET,
					 IBFS_SMP_ATTR_PORT_INFO, mod, i, 0);

	if (r)
		ibfs__smp_put_port_info(r->data, &w);
}

/*
 * The LID stage's Set of record i's port p, as osm_lid_mgr.c decides
 * (lid_mgr_set_physp_pi): always in the SM's first sweep (its first as
 * master); later where the port's PortInfo was not read or its LID, LMC
 * or MasterSMLID differ from what it must hold.
 */
static void sm_set_lid(struct ibfs_sm *sm, int i, int p)
{
	const struct sm_port *pp = &sm->dn[i].ports[p];
	struct ibfs_smp_port_info w;

	sm_port_info(sm, i, p, IBFS_PORT_NOP, &w);
	if (sm->sweep_no == 1 || !pp->state || pp->lid != w.lid ||
	    pp->lmc != w.lmc || pp->sm_lid != w.sm_lid)
		sm_set_port(sm, i, p, IBFS_PORT_NOP);
}

/*
 * A switch port facing a CA whose partition enforcement bits, as read,
 * are not those it must have: a PortInfo Set of its own, as OpenSM's
 * osm_pkey_mgr.c sends it (pkey_mgr_enforce_partition), in the P_Key
 * stage. The PortInfo Sets that arm and activate the port carry the
 * same bits.
 */
static void sm_pkey_enforce(struct ibfs_sm *sm, int i, int p)
{
	struct sm_port *pp = &sm->dn[i].ports[p];
	uint8_t want = ibfs__sm_pkey_enf(sm, i, p);

	if (pp->peer < 0 || pp->enf == want)
		return;
	sm_set_port(sm, i, p, IBFS_PORT_NOP);
	pp->enf = want;
}

/*
 * The PortState the link stages ask for. OpenSM's link manager runs three
 * times (osm_link_mgr_process in do_sweep, osm_state_mgr.c): with no
 * change of state, to set a port's operational parameters (NeighborMTU,
 * OperationalVLs, timeouts: sm_link_params), then to
 * Armed, then to Active. In each it sets every linked port whose values
 * or state differ; a port 0 only for a new LID or MasterSMLID, which the
 * LID stage has set. Here: every linked port not yet Active, the ports
 * found in Init in a later sweep (their link came up again).
 */
static uint8_t sm_link_state(enum sm_phase ph)
{
	return ph == PH_ARM ? IBFS_PORT_ARMED :
	       ph == PH_ACTIVE ? IBFS_PORT_ACTIVE : IBFS_PORT_NOP;
}

/*
 * A SwitchInfo Set of switch record i with these tops; psc 1 clears its
 * PortStateChange (IBA 14.2.5.4: written as 1, the bit is reset).
 */
static void sm_switch_info(struct ibfs_sm *sm, int i, uint16_t lft_top,
			   uint16_t mft_top, int psc)
{
	struct ibfs_smp_switch_info w = {
		.lft_top = lft_top,
		.mft_top = mft_top,
		.port_state_change = (uint8_t)psc,
	};
	struct sm_req *r = ibfs__sm_push(sm, IBFS_SMP_SET,
					 IBFS_SMP_ATTR_SWITCH_INFO, 0, i, 0);
	if (r)
		ibfs__smp_put_switch_info(r->data, &w);
}

/* The requests of the current phase for record i. */
static void sm_phase_node(struct ibfs_sm *sm, int i)
{
	struct sm_dnode *x = &sm->dn[i];
	const struct ibfs_sn_node *sn = &sm->sn->nodes[x->sn];
	int sw = x->type == IBFS_NODE_SWITCH;

	switch (sm->phase) {
	case PH_PSC:
		if (sw && x->si.port_state_change)
			sm_switch_info(sm, i, x->si.lft_top, x->si.mft_top, 1);
		break;
	case PH_PKEY:
		ibfs__sm_pkey_node(sm, i);
		for (int p = 1; sw && p <= x->nports; p++)
			sm_pkey_enforce(sm, i, p);
		break;
	case PH_SM_LID:
		if (i == sm->root)
			sm_set_lid(sm, i, sm->sm_port);
		break;
	case PH_LID:
		if (sw)
			sm_set_lid(sm, i, 0);
		for (int p = 1; !sw && p <= x->nports; p++)
			if (sn->ports[p].lid &&
			    (i != sm->root || p != sm->sm_port))
				sm_set_lid(sm, i, p);
		break;
	case PH_SWINFO:
		if (sw && (x->si.lft_top != sm->sn->max_lid ||
			   x->si.mft_top != ibfs__sm_mft_top(sm)))
			sm_switch_info(sm, i, (uint16_t)sm->sn->max_lid,
				       ibfs__sm_mft_top(sm), 0);
		break;
	case PH_LFT:
		if (sw)
			sm_lft_blocks(sm, i);
		break;
	case PH_QOS:
		sm_qos_node(sm, i);
		break;
	case PH_MFT:
		if (sw)
			ibfs__sm_mft_blocks(sm, i);
		break;
	case PH_LINK:
	case PH_ARM:
	case PH_ACTIVE:
		/* Ports already Active (a later sweep) stay so. */
		for (int p = 1; p <= x->nports; p++)
			if (x->ports[p].peer >= 0 &&
			    x->ports[p].state != IBFS_PORT_ACTIVE)
				sm_set_port(sm, i, p, sm_link_state(sm->phase));
		break;
	default:
		break;
	}
}

/*
 * Phases queued together, as one stage: do_sweep (osm_state_mgr.c) waits
 * for all answers after each manager, but runs osm_ucast_mgr_process (the
 * tops of every switch, then their LFT blocks) and osm_qos_setup before
 * one wait.
 */
static int sm_same_stage(int phase)
{
	return phase == PH_LFT || phase == PH_QOS;
}

void ibfs__sm_next_phase(struct ibfs_sm *sm)
{
	if (sm->phase == PH_DISCOVER && sm_route(sm) < 0)
		return;
	do {
		sm->phase++;
		for (int i = 0; i < sm->ndn && sm->phase != PH_DONE; i++)
			if (sm->dn[i].seen == sm->sweep_no)
				sm_phase_node(sm, i);
	} while (sm_same_stage(sm->phase + 1));
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
