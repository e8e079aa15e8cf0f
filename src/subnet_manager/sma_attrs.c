/* SPDX-License-Identifier: MIT */
/*
 * The attributes a subnet management agent answers (IBA 14.2.5): NodeInfo,
 * NodeDescription, SwitchInfo, PortInfo, the P_Key table, the LFT, SL-to-VL
 * and VL arbitration tables. A Get reads the device (or the state the agent keeps
 * beside it, sma_int.h); a Set writes it through the device's setters at
 * the moment the agent answers, and a value the device refuses is answered
 * with status "invalid field" and leaves the device as it was.
 */
#include <string.h>

#include "fabric/pkey.h"
#include "hca/hca.h"
#include "subnet_manager/sma_int.h"
#include "subnet_manager/subnet.h"

/* LinkWidthActive codes (IBA 14.2.5.6): 1x 1, 4x 2, 8x 4, 12x 8, 2x 16. */
static uint8_t sma_width_code(int lanes)
{
	switch (lanes) {
	case 1: return 1;
	case 2: return 16;
	case 4: return 2;
	case 8: return 4;
	case 12: return 8;
	default: return 0;
	}
}

/* VLCap and OperationalVLs codes (IBA 14.2.5.6): 1 VL0, 2 VL0-1, 3
 * VL0-3, 4 VL0-7, 5 VL0-14. */
static uint8_t sma_vl_code(int data_vls)
{
	uint8_t c = 1;

	while (c < 5 && (1 << (c - 1)) < data_vls)
		c++;
	return c;
}

/* LinkWidthSupported of a port of `lanes` lanes: 1x and its own width,
 * and 4x too for 8x and 12x (the narrower widths such a port trains at
 * when its partner is narrower). */
static uint8_t sma_widths_supported(int lanes)
{
	uint8_t w = (uint8_t)(1 | sma_width_code(lanes));

	return lanes >= 8 ? (uint8_t)(w | 2) : w;
}

/*
 * The speed fields of a port whose link runs at `speed` (IBA 14.2.5.6):
 * the speeds up to its own are supported and enabled (a device here
 * supports no more than its link runs at), LinkSpeedActive is the
 * fastest of SDR, DDR and QDR it has, so QDR for FDR and faster, whose
 * speed is in the Ext fields (ibsim's 4x EDR ports answer OpenSM so:
 * Active QDR, ExtActive EDR), and FDR10 shows as QDR (it is in
 * Mellanox's extended PortInfo, not modelled). XDR has no code in these
 * 4-bit fields: NDR's are the last it reports.
 */
static void sma_speeds(enum ibfs_speed speed, struct ibfs_smp_port_info *pi)
{
	/* LinkSpeedActive, LinkSpeedExtActive, LinkSpeedExtSupported. */
	static const uint8_t code[IBFS_SPEED_COUNT][3] = {
		[IBFS_SPEED_SDR] = {1, 0, 0},  [IBFS_SPEED_DDR] = {2, 0, 0},
		[IBFS_SPEED_QDR] = {4, 0, 0},  [IBFS_SPEED_FDR10] = {4, 0, 0},
		[IBFS_SPEED_FDR] = {4, 1, 1},  [IBFS_SPEED_EDR] = {4, 2, 3},
		[IBFS_SPEED_HDR] = {4, 4, 7},  [IBFS_SPEED_NDR] = {4, 8, 15},
		[IBFS_SPEED_XDR] = {4, 0, 15},
	};
	if ((unsigned)speed >= IBFS_SPEED_COUNT)
		return;
	const uint8_t *c = code[speed];

	pi->speed_active = c[0];
	pi->speed_supported = pi->speed_enabled = (uint8_t)(2 * c[0] - 1);
	pi->speed_ext_active = c[1];
	pi->speed_ext_supported = pi->speed_ext_enabled = c[2];
}

/* Whether port `port` of the node has a link at FDR or faster. */
static int sma_port_ext(const struct sma_node *n, int port)
{
	struct ibfs_fabric *f = n->a->f;
	const struct ibfs_port *pt = ibfs__fabric_port(f, n->node, port);

	return pt->link >= 0 &&
	       f->topo->links[pt->link].speed >= IBFS_SPEED_FDR;
}

/*
 * CapabilityMask: on a CA port and a switch's port 0 (the switch's
 * external ports have none), IsSLMappingSupported (both take SL-to-VL
 * tables), IsSM on the SM's own port, IsExtendedSpeedsSupported where a
 * link (any of a switch's) runs at FDR or faster. Traps, notices, M_Key
 * and the other optional classes are not modelled, so not announced.
 */
static uint32_t sma_cap_mask(const struct sma_node *n, int port)
{
	uint32_t m = IBFS_PORT_CAP_SL_MAP;
	int ext = 0;

	if (n->sw && port > 0)
		return 0;
	if (n->sm_fn && (n->sw || port == n->sm_port))
		m |= IBFS_PORT_CAP_IS_SM;
	for (int p = n->sw ? 1 : port; p <= (n->sw ? n->nports : port); p++)
		ext |= sma_port_ext(n, p);
	return ext ? m | IBFS_PORT_CAP_EXT_SPEEDS : m;
}

static void sma_port_info(struct sma_node *n, int port, int in_port,
			  struct ibfs_smp_port_info *pi)
{
	struct ibfs_fabric *f = n->a->f;
	struct ibfs_port *pt = ibfs__fabric_port(f, n->node, port);

	memset(pi, 0, sizeof(*pi));
	if (n->sw) {
		pi->lid = ibfs__switch_get_lid(n->sw);
		pi->lmc = n->lmc;
	} else {
		pi->lid = ibfs__hca_port_lid(n->hca, port);
		pi->lmc = ibfs__hca_port_lmc(n->hca, port);
	}
	if (!n->sw || port == 0) {
		pi->gid_prefix = n->pp[port].gid_prefix;
		pi->cap_mask = sma_cap_mask(n, port);
		pi->subnet_timeout = n->pp[port].timeout;
	}
	pi->sm_lid = n->sm_lid;
	pi->local_port = (uint8_t)in_port;
	if (pt->link >= 0) {
		const struct ibfs_topo_link *l = &f->topo->links[pt->link];

		pi->width_active = sma_width_code(l->width);
		pi->width_supported = pi->width_enabled =
			sma_widths_supported(l->width);
		sma_speeds(l->speed, pi);
	}
	if (port > 0) {
		pi->mtu_cap = ibfs__mad_mtu_code(f->mtu);
		pi->neighbor_mtu = n->pp[port].nbr_mtu;
	}
	pi->state = n->state[port];
	pi->phys_state = port == 0 || (pt->peer && pt->up) ?
				 IBFS_PHYS_LINKUP :
				 2; /* Polling: no partner */
	pi->vl_cap = pi->op_vls = sma_vl_code(pt->data_vls);
	pi->vlarb_high_cap = pi->vlarb_low_cap = 64;
	pi->vl_high_limit = n->arb[port].limit;
	pi->part_enf = pt->pkey_enf;
	pi->pkey_violations = pt->pkey_violations > 0xffff ?
				      0xffff :
				      (uint16_t)pt->pkey_violations;
}

static int sma_arb_len(const struct ibfs_vlarb_entry *t)
{
	int n = 0;

	for (int i = 0; i < 64; i++)
		if (t[i].weight)
			n = i + 1;
	return n;
}

/* Programs switch output or HCA port `port` with its tables and limit. */
static int sma_arb_apply(struct sma_node *n, int port)
{
	const struct ibfs_vlarb *a = &n->arb[port];
	int nh = sma_arb_len(a->high), nl = sma_arb_len(a->low);

	if (n->hca)
		return ibfs__hca_set_vlarb(n->hca, port, a->high, nh, a->low,
					   nl, a->limit);
	return ibfs__switch_set_vlarb(n->sw, port, a->high, nh, a->low, nl,
				      a->limit);
}

/*
 * The operational parameters of a PortInfo Set, checked before anything
 * changes (IBA 14.2.5.6; a 0 in either, which no SM here sends, changes
 * nothing): a NeighborMTU above MTUCap, or OperationalVLs above VLCap,
 * is an invalid field. So is
 * OperationalVLs below the port's VLs: a port's data VLs are the
 * fabric's, set at start (fabric.c), and changing them at run time is
 * not modelled. LinkWidthEnabled, LinkSpeedEnabled and, with
 * SMSupportExtendedSpeeds, LinkSpeedExtEnabled are taken and not acted on
 * (a link trains once, at its given speed and width).
 */
static int sma_port_params_ok(const struct sma_node *n, int port,
			      const struct ibfs_smp_port_info *w)
{
	const struct ibfs_port *pt = ibfs__fabric_port(n->a->f, n->node, port);

	if (port == 0)
		return 1;
	if (w->neighbor_mtu > ibfs__mad_mtu_code(n->a->f->mtu))
		return 0;
	return !w->op_vls || w->op_vls == sma_vl_code(pt->data_vls);
}

/* PortInfo Set: LID, LMC, SM LID, PortState, a switch output's or HCA
 * port's VLHighLimit (IBA 14.2.5.6, 7.2), GidPrefix, NeighborMTU and
 * SubnetTimeOut. */
static uint16_t sma_port_set(struct sma_node *n, int port,
			     const struct ibfs_smp_port_info *w)
{
	if (!sma_port_params_ok(n, port, w))
		return IBFS_MAD_STATUS_BAD_FIELD;
	if (port > 0 && w->vl_high_limit != n->arb[port].limit) {
		uint8_t old = n->arb[port].limit;

		n->arb[port].limit = w->vl_high_limit;
		if (sma_arb_apply(n, port) < 0) {
			n->arb[port].limit = old;
			return IBFS_MAD_STATUS_BAD_FIELD;
		}
	}
	if (w->state != IBFS_PORT_NOP && (port > 0 || !n->sw)) {
		uint8_t cur = n->state[port];
		int ok = (w->state == IBFS_PORT_ARMED &&
			  (cur == IBFS_PORT_INIT || cur == IBFS_PORT_ARMED)) ||
			 (w->state == IBFS_PORT_ACTIVE &&
			  (cur == IBFS_PORT_ARMED || cur == IBFS_PORT_ACTIVE));
		if (!ok)
			return IBFS_MAD_STATUS_BAD_FIELD;
	}
	if (w->lid && n->hca &&
	    ibfs__hca_set_lid(n->hca, port, w->lid, w->lmc) < 0)
		return IBFS_MAD_STATUS_BAD_FIELD;
	if (w->lid && n->sw && port == 0) {
		if (w->lid >= IBFS_MCAST_LID_BASE)
			return IBFS_MAD_STATUS_BAD_FIELD;
		ibfs__switch_set_lid(n->sw, w->lid);
		ibfs__switch_set_lmc(n->sw, w->lmc);
		n->lmc = w->lmc;
	}
	if (n->sw && port > 0 &&
	    w->part_enf != ibfs__fabric_port(n->a->f, n->node, port)->pkey_enf)
		ibfs__switch_set_pkey_enf(n->sw, port, w->part_enf);
	if (w->sm_lid) {
		n->sm_lid = w->sm_lid;
		if (n->hca)
			ibfs__hca_set_sm_lid(n->hca, port, w->sm_lid);
	}
	if (w->state != IBFS_PORT_NOP && (port > 0 || !n->sw))
		n->state[port] = w->state;
	if (port > 0 && w->neighbor_mtu)
		n->pp[port].nbr_mtu = w->neighbor_mtu;
	if (!n->sw || port == 0) {
		n->pp[port].gid_prefix = w->gid_prefix;
		n->pp[port].timeout = w->subnet_timeout;
	}
	return IBFS_MAD_STATUS_OK;
}

static uint16_t sma_lft(struct sma_node *n, struct ibfs_smp *s, int set)
{
	uint32_t block = s->attr_mod;

	if (block > IBFS_MAX_UCAST_LID / IBFS_LFT_BLOCK)
		return IBFS_MAD_STATUS_BAD_FIELD;
	if (set && ibfs__switch_set_lft_block(n->sw, block, s->data) < 0)
		return IBFS_MAD_STATUS_BAD_FIELD;
	for (uint32_t i = 0; i < IBFS_LFT_BLOCK; i++) {
		uint32_t lid = block * IBFS_LFT_BLOCK + i;

		s->data[i] = ibfs__switch_get_lft(n->sw, (uint16_t)lid);
	}
	return IBFS_MAD_STATUS_OK;
}

/*
 * MulticastForwardingTable (IBA 14.2.5.12): the modifier's bits 31-28 are
 * the position (ports 16 x position .. + 15), bits 8-0 the block of 32
 * MLIDs from 0xC000 + 32 x block; the data 32 big-endian 16-bit port
 * masks. A Set naming a port the switch lacks changes nothing.
 */
static uint16_t sma_mft(struct sma_node *n, struct ibfs_smp *s, int set)
{
	int pos = (int)(s->attr_mod >> 28);
	uint32_t block = s->attr_mod & 0x0fffffff;

	if (block > IBFS_MLID_COUNT / 32 || pos * 16 > n->nports)
		return IBFS_MAD_STATUS_BAD_FIELD;
	uint16_t mlid0 = (uint16_t)(IBFS_MLID_FIRST + block * 32);
	int last = n->nports - pos * 16; /* the last port bit it has */
	unsigned ok = last >= 15 ? 0xffffu : (1u << (last + 1)) - 1;

	for (int i = 0; set && i < 32; i++)
		if ((unsigned)(s->data[2 * i] << 8 | s->data[2 * i + 1]) & ~ok)
			return IBFS_MAD_STATUS_BAD_FIELD;
	for (int i = 0; i < 32; i++) {
		uint16_t mlid = (uint16_t)(mlid0 + i);
		uint16_t bits;

		if (mlid == IBFS_PERMISSIVE_LID)
			continue;
		if (set) {
			bits = (uint16_t)(s->data[2 * i] << 8 |
					  s->data[2 * i + 1]);
			if (ibfs__switch_set_mft16(n->sw, mlid, pos, bits) < 0)
				return IBFS_MAD_STATUS_BAD_FIELD;
		}
		bits = ibfs__switch_get_mft16(n->sw, mlid, pos);
		s->data[2 * i] = (uint8_t)(bits >> 8);
		s->data[2 * i + 1] = (uint8_t)bits;
	}
	memset(s->data + 64, 0, IBFS_SMP_DATA_BYTES - 64);
	return IBFS_MAD_STATUS_OK;
}

/* SL2VL of a switch: modifier bits 15-8 input port, 7-0 output port; an
 * input of 0xff stands for every input (an ibfsim convention, so that the
 * SM sends one SMP per output as the engines give one table). */
static uint16_t sma_sl2vl(struct sma_node *n, struct ibfs_smp *s, int set)
{
	int in = (int)(s->attr_mod >> 8 & 0xff);
	int out = (int)(s->attr_mod & 0xff);

	if (in == 0xff)
		in = -1;
	if (in > n->nports || out > n->nports)
		return IBFS_MAD_STATUS_BAD_FIELD;
	if (set) {
		uint8_t vls[16];

		ibfs__smp_get_sl2vl(s->data, vls);
		if (ibfs__switch_set_sl2vl(n->sw, in, out, vls) < 0)
			return IBFS_MAD_STATUS_BAD_FIELD;
		memcpy(n->sl2vl, vls, 16);
	}
	ibfs__smp_put_sl2vl(s->data, n->sl2vl);
	return IBFS_MAD_STATUS_OK;
}

/* SL2VL of an HCA port: the modifier names the port, 0 the one the SMP
 * came in on (IBA 14.2.5.8). */
static uint16_t sma_ca_sl2vl(struct sma_node *n, struct ibfs_smp *s, int set,
			     int in_port)
{
	int port = (int)(s->attr_mod & 0xff);

	if (port == 0)
		port = in_port;
	if (port > n->nports)
		return IBFS_MAD_STATUS_BAD_FIELD;
	if (set) {
		uint8_t vls[16];

		ibfs__smp_get_sl2vl(s->data, vls);
		if (ibfs__hca_set_sl2vl(n->hca, port, vls) < 0)
			return IBFS_MAD_STATUS_BAD_FIELD;
	}
	ibfs__smp_put_sl2vl(s->data, ibfs__hca_port_sl2vl(n->hca, port));
	return IBFS_MAD_STATUS_OK;
}

/* VLArb: modifier bits 31-16 the output port (an HCA's: 0 is the one the
 * SMP came in on, as for SL2VL), 15-0 the block: 1 and 2 the low-priority
 * entries 0-31 and 32-63, 3 and 4 the high (14.2.5.9). */
static uint16_t sma_vlarb(struct sma_node *n, struct ibfs_smp *s, int set,
			  int in_port)
{
	/* The block in bits 31-16, the port in 7-0 (IBA 14.2.5.9). */
	int port = (int)(s->attr_mod & 0xff), blk = (int)(s->attr_mod >> 16);

	if (n->hca && port == 0)
		port = in_port;
	if (port > n->nports || blk < 1 || blk > 4)
		return IBFS_MAD_STATUS_BAD_FIELD;
	struct ibfs_vlarb *a = &n->arb[port];
	struct ibfs_vlarb_entry *t = (blk <= 2 ? a->low : a->high) +
				     (blk % 2 ? 0 : 32);
	uint8_t vl[32], w[32];

	if (set) {
		struct ibfs_vlarb save = *a;

		ibfs__smp_get_vlarb(s->data, vl, w);
		for (int i = 0; i < 32; i++)
			t[i] = (struct ibfs_vlarb_entry){ vl[i], w[i] };
		if (sma_arb_apply(n, port) < 0) {
			*a = save;
			return IBFS_MAD_STATUS_BAD_FIELD;
		}
	}
	for (int i = 0; i < 32; i++) {
		vl[i] = t[i].vl;
		w[i] = t[i].weight;
	}
	ibfs__smp_put_vlarb(s->data, vl, w);
	return IBFS_MAD_STATUS_OK;
}

/*
 * P_KeyTable (IBA 14.2.5.7): the modifier's low 16 bits are the block of
 * 32 entries; a switch's bits 31-16 name the port (0 its own), a CA's
 * table is that of the port the SMP came in on. A Set writes the whole
 * block; a block beyond the table is an invalid field.
 */
static uint16_t sma_pkeys(struct sma_node *n, struct ibfs_smp *s, int set,
			  int in_port)
{
	int port = n->sw ? (int)(s->attr_mod >> 16) : in_port;
	unsigned blk = s->attr_mod & 0xffff;

	if (port > n->nports || (!n->sw && s->attr_mod >> 16))
		return IBFS_MAD_STATUS_BAD_FIELD;
	struct ibfs_port *pt = ibfs__fabric_port(n->a->f, n->node, port);
	uint16_t k[IBFS_PKEY_BLOCK];

	if ((blk + 1) * IBFS_PKEY_BLOCK > ibfs__port_pkey_cap(pt))
		return IBFS_MAD_STATUS_BAD_FIELD;
	if (set) {
		ibfs__smp_get_pkeys(s->data, k);
		for (unsigned i = 0; !n->sw && i < IBFS_PKEY_BLOCK; i++)
			if (ibfs__port_pkey_set(pt, blk * IBFS_PKEY_BLOCK + i,
						k[i]) < 0)
				return IBFS_MAD_STATUS_BAD_FIELD;
		if (n->sw && ibfs__switch_set_pkeys(n->sw, port,
						    blk * IBFS_PKEY_BLOCK, k,
						    IBFS_PKEY_BLOCK) < 0)
			return IBFS_MAD_STATUS_BAD_FIELD;
	}
	for (unsigned i = 0; i < IBFS_PKEY_BLOCK; i++)
		k[i] = ibfs__port_pkey(pt, blk * IBFS_PKEY_BLOCK + i);
	ibfs__smp_put_pkeys(s->data, k);
	return IBFS_MAD_STATUS_OK;
}

/* Answers request s that arrived on in_port; s becomes the response. */
void ibfs__sma_process(struct sma_node *n, struct ibfs_smp *s, int in_port)
{
	const struct ibfs_topo_node *tn = &n->a->f->topo->nodes[n->node];
	int set = s->method == IBFS_SMP_SET;
	uint16_t st = IBFS_MAD_STATUS_OK;

	switch (s->method != IBFS_SMP_GET && !set ? 0 : s->attr_id) {
	case 0:
		st = IBFS_MAD_STATUS_BAD_METHOD;
		break;
	case IBFS_SMP_ATTR_NODE_INFO: {
		struct ibfs_smp_node_info ni = {
			.node_type = (uint8_t)tn->type,
			.nports = (uint8_t)tn->nports,
			.sys_guid = tn->guid,
			.node_guid = tn->guid,
			.port_guid = n->sw ? tn->guid :
					     tn->ports[in_port].guid,
			/* The size of the P_Key table (14.2.5.3): a
			 * switch's is that of its port 0. */
			.partition_cap = n->sw ? IBFS_SWITCH_PKEYS :
						 IBFS_HCA_PKEYS,
			.local_port = (uint8_t)in_port,
		};
		if (set)
			st = IBFS_MAD_STATUS_BAD_ATTR;
		else
			ibfs__smp_put_node_info(s->data, &ni);
		break;
	}
	case IBFS_SMP_ATTR_NODE_DESC: {
		const char *desc = tn->desc ? tn->desc : tn->id;

		if (set) {
			st = IBFS_MAD_STATUS_BAD_ATTR;
			break;
		}
		memset(s->data, 0, IBFS_SMP_DATA_BYTES);
		memcpy(s->data, desc, strnlen(desc, IBFS_SMP_DATA_BYTES));
		break;
	}
	case IBFS_SMP_ATTR_SWITCH_INFO: {
		struct ibfs_smp_switch_info w;

		if (!n->sw) {
			st = IBFS_MAD_STATUS_BAD_ATTR;
			break;
		}
		if (set) {
			ibfs__smp_get_switch_info(s->data, &w);
			if (w.lft_top > IBFS_MAX_UCAST_LID) {
				st = IBFS_MAD_STATUS_BAD_FIELD;
				break;
			}
			n->lft_top = w.lft_top;
			n->mft_top = w.mft_top;
		}
		/* Writing PortStateChange as 1 clears it (14.2.5.4). */
		if (set && w.port_state_change)
			n->psc = 0;
		w = (struct ibfs_smp_switch_info){
			.lft_cap = IBFS_MAX_UCAST_LID + 1,
			.lft_top = n->lft_top,
			.mft_cap = IBFS_MLID_COUNT,
			.mft_top = n->mft_top,
			.port_state_change = n->psc,
			.enforce_cap = IBFS_SWITCH_PKEYS,
		};
		ibfs__smp_put_switch_info(s->data, &w);
		break;
	}
	case IBFS_SMP_ATTR_PORT_INFO: {
		int port = (int)(s->attr_mod & IBFS_SMP_PI_PORT_MASK);
		uint32_t rsv = ~(IBFS_SMP_PI_PORT_MASK | IBFS_SMP_PI_EXT_SPEEDS);
		struct ibfs_smp_port_info pi;

		if (!n->sw && port == 0)
			port = in_port;
		if ((s->attr_mod & rsv) || port > n->nports ||
		    (!n->sw && port < 1)) {
			st = IBFS_MAD_STATUS_BAD_FIELD;
			break;
		}
		if (set) {
			ibfs__smp_get_port_info(s->data, &pi);
			st = sma_port_set(n, port, &pi);
		}
		sma_port_info(n, port, in_port, &pi);
		ibfs__smp_put_port_info(s->data, &pi);
		break;
	}
	case IBFS_SMP_ATTR_PKEY_TABLE:
		st = sma_pkeys(n, s, set, in_port);
		break;
	case IBFS_SMP_ATTR_LFT:
		st = n->sw ? sma_lft(n, s, set) : IBFS_MAD_STATUS_BAD_ATTR;
		break;
	case IBFS_SMP_ATTR_MFT:
		st = n->sw ? sma_mft(n, s, set) : IBFS_MAD_STATUS_BAD_ATTR;
		break;
	case IBFS_SMP_ATTR_SL2VL:
		st = n->sw ? sma_sl2vl(n, s, set) : sma_ca_sl2vl(n, s, set,
								 in_port);
		break;
	case IBFS_SMP_ATTR_VLARB:
		st = sma_vlarb(n, s, set, in_port);
		break;
	default:
		st = IBFS_MAD_STATUS_BAD_ATTR;
	}
	n->a->st.answered++;
	if (set)
		n->a->st.sets++;
	if (st != IBFS_MAD_STATUS_OK)
		n->a->st.errors++;
	ibfs__smp_make_resp(s, st);
}
