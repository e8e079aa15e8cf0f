/* SPDX-License-Identifier: MIT */
/*
 * SMP encoding and the directed-route rules. The byte layout is that of
 * IBA 13.4.2 (the common MAD header, hca/mad_hdr.c's, big endian) and
 * 14.2.1.2 (directed-route SMP): header in bytes 0-23 (D, HopPointer and
 * HopCount in its Status and ClassSpecific), M_Key 24-31, DrSLID 32-33,
 * DrDLID 34-35, SMP data 64-127, InitialPath 128-191, ReturnPath 192-255.
 * The LID-routed form (14.2.1.1) has the same header and data, with bytes
 * 6-7 and 32-63 reserved and no paths.
 */
#include <string.h>

#include "fabric/bytes.h"
#include "fabric/fabric.h"
#include "fabric/pkey.h"
#include "hca/mad_hdr.h"
#include "subnet_manager/mad.h"

void ibfs__smp_encode(const struct ibfs_smp *s, uint8_t mad[IBFS_MAD_BYTES])
{
	int dr = s->mgmt_class == IBFS_MCLASS_SUBN_DR;
	struct ibfs_mad_hdr h = {
		.mgmt_class = s->mgmt_class,
		.class_version = IBFS_SMP_CLASS_VERSION,
		.method = s->method,
		.status = (uint16_t)((dr && s->dir ? 0x8000 : 0) |
				     (s->status & 0x7fff)),
		.class_specific = dr ? (uint16_t)(s->hop_ptr << 8 | s->hop_cnt)
				     : 0,
		.tid = s->tid,
		.attr_id = s->attr_id,
		.attr_mod = s->attr_mod,
	};

	memset(mad, 0, IBFS_MAD_BYTES);
	ibfs__mad_hdr_put(mad, &h);
	ibfs__put64(mad + 24, s->mkey);
	memcpy(mad + 64, s->data, IBFS_SMP_DATA_BYTES);
	if (dr) {
		ibfs__put16(mad + 32, s->dr_slid);
		ibfs__put16(mad + 34, s->dr_dlid);
		memcpy(mad + 128, s->initial_path, 64);
		memcpy(mad + 192, s->return_path, 64);
	}
}

int ibfs__smp_decode(const uint8_t mad[IBFS_MAD_BYTES], struct ibfs_smp *s)
{
	struct ibfs_mad_hdr h;

	memset(s, 0, sizeof(*s));
	if (ibfs__mad_hdr_get(mad, &h) < 0 ||
	    h.class_version != IBFS_SMP_CLASS_VERSION ||
	    (h.mgmt_class != IBFS_MCLASS_SUBN_DR &&
	     h.mgmt_class != IBFS_MCLASS_SUBN_LID))
		return -1;
	int dr = h.mgmt_class == IBFS_MCLASS_SUBN_DR;

	s->mgmt_class = h.mgmt_class;
	s->method = h.method;
	s->status = h.status & 0x7fff;
	s->tid = h.tid;
	s->attr_id = h.attr_id;
	s->attr_mod = h.attr_mod;
	s->mkey = ibfs__get64(mad + 24);
	memcpy(s->data, mad + 64, IBFS_SMP_DATA_BYTES);
	if (dr) {
		s->dir = h.status >> 15;
		s->hop_ptr = (uint8_t)(h.class_specific >> 8);
		s->hop_cnt = (uint8_t)h.class_specific;
		if (s->hop_cnt > IBFS_SMP_MAX_HOPS)
			return -1;
		s->dr_slid = ibfs__get16(mad + 32);
		s->dr_dlid = ibfs__get16(mad + 34);
		memcpy(s->initial_path, mad + 128, 64);
		memcpy(s->return_path, mad + 192, 64);
	}
	return 0;
}

/*
 * Sending, IBA 14.2.2.2 (outgoing) and 14.2.2.4 (returning). Outgoing, the
 * originator moves the hop pointer from 0 to 1 and leaves by
 * InitialPath[1]. Returning, the responder at hop n + 1 moves it back to
 * n and leaves by ReturnPath[n], the port the request came in by. Only
 * the directed part is modelled: DrSLID and DrDLID stay permissive.
 */
int ibfs__smp_dr_send(struct ibfs_smp *s, int *port)
{
	if (!s->dir) {
		if (s->hop_cnt == 0)
			return IBFS_DR_LOCAL;
		if (s->hop_ptr != 0)
			return IBFS_DR_DISCARD;
		s->hop_ptr = 1;
		*port = s->initial_path[1];
		return IBFS_DR_SEND;
	}
	if (s->hop_cnt == 0)
		return IBFS_DR_LOCAL;
	if (s->hop_ptr != s->hop_cnt + 1)
		return IBFS_DR_DISCARD;
	s->hop_ptr--;
	*port = s->return_path[s->hop_ptr];
	return IBFS_DR_SEND;
}

/*
 * Receiving. Outgoing with 1 <= HopPointer < HopCount the node is a relay
 * (switches only): it records ReturnPath[HopPointer] = the input port,
 * advances the pointer and leaves by InitialPath of the new pointer. With
 * HopPointer = HopCount it is the destination: it records the input port
 * and the pointer becomes HopCount + 1. Returning with 2 <= HopPointer <=
 * HopCount the node is a relay: it moves the pointer down and leaves by
 * ReturnPath[pointer]; with HopPointer = 1 the SMP has reached the
 * originator (pointer 0). Anything else is discarded (IBA 14.2.2.3).
 */
int ibfs__smp_dr_recv(struct ibfs_smp *s, int in_port, int nports,
		      int is_switch, int *port)
{
	int h = s->hop_ptr, n = s->hop_cnt;

	if (!s->dir) {
		if (h >= 1 && h < n) {
			if (!is_switch)
				return IBFS_DR_DISCARD;
			s->return_path[h] = (uint8_t)in_port;
			s->hop_ptr++;
			*port = s->initial_path[s->hop_ptr];
			if (*port < 1 || *port > nports || *port == in_port)
				return IBFS_DR_DISCARD;
			return IBFS_DR_SEND;
		}
		if (h == n && n > 0) {
			s->return_path[h] = (uint8_t)in_port;
			s->hop_ptr++;
			return IBFS_DR_LOCAL;
		}
		return IBFS_DR_DISCARD;
	}
	if (h >= 2 && h <= n) {
		if (!is_switch)
			return IBFS_DR_DISCARD;
		s->hop_ptr--;
		*port = s->return_path[s->hop_ptr];
		if (*port < 1 || *port > nports || *port == in_port)
			return IBFS_DR_DISCARD;
		return IBFS_DR_SEND;
	}
	if (h == 1) {
		s->hop_ptr = 0;
		return IBFS_DR_LOCAL;
	}
	return IBFS_DR_DISCARD;
}

void ibfs__smp_make_resp(struct ibfs_smp *s, uint16_t status)
{
	s->method = IBFS_SMP_GETRESP;
	s->status = status;
	if (s->mgmt_class == IBFS_MCLASS_SUBN_DR)
		s->dir = 1;
}

const char *ibfs__smp_attr_str(uint16_t attr)
{
	switch (attr) {
	case IBFS_SMP_ATTR_NOTICE: return "Notice";
	case IBFS_SMP_ATTR_NODE_DESC: return "NodeDescription";
	case IBFS_SMP_ATTR_NODE_INFO: return "NodeInfo";
	case IBFS_SMP_ATTR_SWITCH_INFO: return "SwitchInfo";
	case IBFS_SMP_ATTR_PORT_INFO: return "PortInfo";
	case IBFS_SMP_ATTR_PKEY_TABLE: return "P_KeyTable";
	case IBFS_SMP_ATTR_SL2VL: return "SLtoVLMappingTable";
	case IBFS_SMP_ATTR_VLARB: return "VLArbitrationTable";
	case IBFS_SMP_ATTR_LFT: return "LinearForwardingTable";
	case IBFS_SMP_ATTR_MFT: return "MulticastForwardingTable";
	default: return "unknown";
	}
}

/* NodeInfo: 40 bytes (IBA 14.2.5.3, Table 146 in 1.2.1). */
void ibfs__smp_put_node_info(uint8_t *d, const struct ibfs_smp_node_info *n)
{
	memset(d, 0, IBFS_SMP_DATA_BYTES);
	d[0] = 1; /* BaseVersion */
	d[1] = 1; /* ClassVersion */
	d[2] = n->node_type;
	d[3] = n->nports;
	ibfs__put64(d + 4, n->sys_guid);
	ibfs__put64(d + 12, n->node_guid);
	ibfs__put64(d + 20, n->port_guid);
	ibfs__put16(d + 28, n->partition_cap);
	ibfs__put16(d + 30, n->device_id);
	ibfs__put32(d + 32, n->revision);
	ibfs__put32(d + 36, (uint32_t)n->local_port << 24 |
				  (n->vendor_id & 0xffffff));
}

void ibfs__smp_get_node_info(const uint8_t *d, struct ibfs_smp_node_info *n)
{
	n->node_type = d[2];
	n->nports = d[3];
	n->sys_guid = ibfs__get64(d + 4);
	n->node_guid = ibfs__get64(d + 12);
	n->port_guid = ibfs__get64(d + 20);
	n->partition_cap = ibfs__get16(d + 28);
	n->device_id = ibfs__get16(d + 30);
	n->revision = ibfs__get32(d + 32);
	n->local_port = d[36];
	n->vendor_id = ibfs__get32(d + 36) & 0xffffff;
}

/* SwitchInfo (IBA 14.2.5.4): the caps and top as 16-bit words, then the
 * PortStateChange bit (bit 2 of byte 11), MulticastFDBTop at byte 18. */
void ibfs__smp_put_switch_info(uint8_t *d,
			       const struct ibfs_smp_switch_info *w)
{
	memset(d, 0, IBFS_SMP_DATA_BYTES);
	ibfs__put16(d + 0, w->lft_cap);
	ibfs__put16(d + 4, w->mft_cap);
	ibfs__put16(d + 6, w->lft_top);
	d[11] = (uint8_t)(w->port_state_change ? 1 << 2 : 0);
	ibfs__put16(d + 14, w->enforce_cap);
	ibfs__put16(d + 18, w->mft_top);
}

void ibfs__smp_get_switch_info(const uint8_t *d,
			       struct ibfs_smp_switch_info *w)
{
	w->lft_cap = ibfs__get16(d + 0);
	w->mft_cap = ibfs__get16(d + 4);
	w->lft_top = ibfs__get16(d + 6);
	w->port_state_change = d[11] >> 2 & 1;
	w->enforce_cap = ibfs__get16(d + 14);
	w->mft_top = ibfs__get16(d + 18);
}

uint8_t ibfs__mad_mtu_code(uint32_t mtu)
{
	uint8_t c = 1;

	while (c < 5 && (256u << c) <= mtu)
		c++;
	return c;
}

/*
 * PortInfo (IBA 14.2.5.6): GidPrefix at 8, LID at 16, MasterSMLID at 18,
 * CapabilityMask at 20, LocalPortNum 28, LinkWidthEnabled 29, Supported
 * 30, Active 31; LinkSpeedSupported in the high nibble of 32 and
 * PortState in the low, PortPhysicalState in the high nibble of 33, LMC
 * in the low 3 bits of 34, LinkSpeedActive in the high nibble of 35 and
 * LinkSpeedEnabled in the low, NeighborMTU in the high nibble of 36
 * (MasterSMSL below it), VLCap in the high nibble of 37, VLHighLimit 38,
 * VLArbitrationHighCap 39, LowCap 40, MTUCap in the low nibble of 41,
 * OperationalVLs in the high nibble of 43 with the partition enforcement
 * bits below it, P_KeyViolations at 46, SubnetTimeOut in the low 5 bits
 * of 51, LinkSpeedExtActive in the high nibble of 62 and
 * LinkSpeedExtSupported in the low, LinkSpeedExtEnabled in the low 5 bits
 * of 63 (OpenSM's ib_port_info_t has the same layout).
 */
void ibfs__smp_put_port_info(uint8_t *d, const struct ibfs_smp_port_info *p)
{
	memset(d, 0, IBFS_SMP_DATA_BYTES);
	ibfs__put64(d + 8, p->gid_prefix);
	ibfs__put16(d + 16, p->lid);
	ibfs__put16(d + 18, p->sm_lid);
	ibfs__put32(d + 20, p->cap_mask);
	d[28] = p->local_port;
	d[29] = p->width_enabled;
	d[30] = p->width_supported;
	d[31] = p->width_active;
	d[32] = (uint8_t)(p->speed_supported << 4 | (p->state & 0x0f));
	d[33] = (uint8_t)(p->phys_state << 4);
	d[34] = p->lmc & 7;
	d[35] = (uint8_t)(p->speed_active << 4 | (p->speed_enabled & 0x0f));
	d[36] = (uint8_t)(p->neighbor_mtu << 4);
	d[37] = (uint8_t)(p->vl_cap << 4);
	d[38] = p->vl_high_limit;
	d[39] = p->vlarb_high_cap;
	d[40] = p->vlarb_low_cap;
	d[41] = p->mtu_cap & 0x0f;
	/* OperationalVLs, PartitionEnforcementInbound (bit 3), Outbound
	 * (bit 2), the raw filters (unmodelled) in one byte. */
	d[43] = (uint8_t)(p->op_vls << 4 |
			  (p->part_enf & IBFS_PKEY_ENF_IN ? 8 : 0) |
			  (p->part_enf & IBFS_PKEY_ENF_OUT ? 4 : 0));
	ibfs__put16(d + 46, p->pkey_violations);
	d[51] = p->subnet_timeout & 0x1f;
	d[62] = (uint8_t)(p->speed_ext_active << 4 |
			  (p->speed_ext_supported & 0x0f));
	d[63] = p->speed_ext_enabled & 0x1f;
}

void ibfs__smp_get_port_info(const uint8_t *d, struct ibfs_smp_port_info *p)
{
	p->gid_prefix = ibfs__get64(d + 8);
	p->lid = ibfs__get16(d + 16);
	p->sm_lid = ibfs__get16(d + 18);
	p->cap_mask = ibfs__get32(d + 20);
	p->local_port = d[28];
	p->width_enabled = d[29];
	p->width_supported = d[30];
	p->width_active = d[31];
	p->speed_supported = d[32] >> 4;
	p->state = d[32] & 0x0f;
	p->phys_state = d[33] >> 4;
	p->lmc = d[34] & 7;
	p->speed_active = d[35] >> 4;
	p->speed_enabled = d[35] & 0x0f;
	p->neighbor_mtu = d[36] >> 4;
	p->vl_cap = d[37] >> 4;
	p->vl_high_limit = d[38];
	p->vlarb_high_cap = d[39];
	p->vlarb_low_cap = d[40];
	p->mtu_cap = d[41] & 0x0f;
	p->op_vls = d[43] >> 4;
	p->part_enf = (uint8_t)((d[43] & 8 ? IBFS_PKEY_ENF_IN : 0) |
				(d[43] & 4 ? IBFS_PKEY_ENF_OUT : 0));
	p->pkey_violations = ibfs__get16(d + 46);
	p->subnet_timeout = d[51] & 0x1f;
	p->speed_ext_active = d[62] >> 4;
	p->speed_ext_supported = d[62] & 0x0f;
	p->speed_ext_enabled = d[63] & 0x1f;
}

void ibfs__smp_put_pkeys(uint8_t *d, const uint16_t pkeys[32])
{
	for (int i = 0; i < 32; i++)
		ibfs__put16(d + 2 * i, pkeys[i]);
}

void ibfs__smp_get_pkeys(const uint8_t *d, uint16_t pkeys[32])
{
	for (int i = 0; i < 32; i++)
		pkeys[i] = ibfs__get16(d + 2 * i);
}

/* SL2VL: byte i holds SL 2i in its high nibble and SL 2i+1 in its low. */
void ibfs__smp_put_sl2vl(uint8_t *d, const uint8_t vls[16])
{
	memset(d, 0, IBFS_SMP_DATA_BYTES);
	for (int i = 0; i < 8; i++)
		d[i] = (uint8_t)((vls[2 * i] & 0xf) << 4 |
				 (vls[2 * i + 1] & 0xf));
}

void ibfs__smp_get_sl2vl(const uint8_t *d, uint8_t vls[16])
{
	for (int i = 0; i < 8; i++) {
		vls[2 * i] = d[i] >> 4;
		vls[2 * i + 1] = d[i] & 0xf;
	}
}

/* VLArb: 32 entries of two bytes, the VL in the low nibble of the first
 * and the weight in the second. */
void ibfs__smp_put_vlarb(uint8_t *d, const uint8_t vl[32],
			 const uint8_t weight[32])
{
	for (int i = 0; i < 32; i++) {
		d[2 * i] = vl[i] & 0xf;
		d[2 * i + 1] = weight[i];
	}
}

void ibfs__smp_get_vlarb(const uint8_t *d, uint8_t vl[32], uint8_t weight[32])
{
	for (int i = 0; i < 32; i++) {
		vl[i] = d[2 * i] & 0xf;
		weight[i] = d[2 * i + 1];
	}
}

struct ibfs_packet *ibfs__smp_packet(struct ibfs_fabric *f,
				     const struct ibfs_smp *s, uint16_t dlid,
				     uint16_t slid)
{
	/* VL15, SL 0, the default partition's full P_Key, QP0, Q_Key 0. */
	struct ibfs_packet *p = ibfs__mad_packet_new(f, dlid, slid, 0,
						     IBFS_VL15, 0xffff, 0, 0);

	if (!p)
		return NULL;
	ibfs__smp_encode(s, p->payload);
	ibfs__packet_finish(p);
	return p;
}
