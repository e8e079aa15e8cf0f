/* SPDX-License-Identifier: MIT */
/*
 * Subnet management packets (SMPs): the 256-byte MADs of the subnet
 * management class that the SM and the agents exchange on QP0 and VL15
 * (IBA 13.4 for the common MAD header, 14.2.1 for the SMP formats).
 *
 * A directed-route SMP (class 0x81) is steered by a list of ports rather
 * than by LIDs: InitialPath[1..HopCount] names the port to leave by at each
 * hop, each hop records the port it came in by in ReturnPath, and the
 * HopPointer and the direction bit D say where on the path it is
 * (IBA 14.2.2). Discovery needs that, since nothing has a LID yet.
 *
 * The SMP is kept decoded in struct ibfs_smp; ibfs__smp_encode and
 * ibfs__smp_decode give the wire bytes (big endian, IBA 13.4.2). The
 * attribute payloads (64 bytes of SMP data) are encoded and decoded by the
 * helpers below, one per attribute.
 */
#ifndef IBFS_SM_MAD_H
#define IBFS_SM_MAD_H

#include <stdint.h>

#include "fabric/packet.h"
#include "ibfsim/verbs.h"

/* Management classes (IBA 13.4.4, Table 119 in 1.2.1). */
#define IBFS_MCLASS_SUBN_LID 0x01
#define IBFS_MCLASS_SUBN_DR 0x81
/* The SMP class's ClassVersion (IBA 14.2.1). */
#define IBFS_SMP_CLASS_VERSION 1

/* Methods of the SMP class (IBA 13.4.5, 14.2.2.1). */
enum ibfs_smp_method {
	IBFS_SMP_GET = 0x01,
	IBFS_SMP_SET = 0x02,
	IBFS_SMP_GETRESP = 0x81,
	IBFS_SMP_TRAP = 0x05,
	IBFS_SMP_TRAPREPRESS = 0x07,
};

/* Attribute IDs (IBA 14.2.5, Table 145 in 1.2.1). */
enum ibfs_smp_attr {
	IBFS_SMP_ATTR_NOTICE = 0x0002,
	IBFS_SMP_ATTR_NODE_DESC = 0x0010,
	IBFS_SMP_ATTR_NODE_INFO = 0x0011,
	IBFS_SMP_ATTR_SWITCH_INFO = 0x0012,
	IBFS_SMP_ATTR_PORT_INFO = 0x0015,
	IBFS_SMP_ATTR_PKEY_TABLE = 0x0016,
	IBFS_SMP_ATTR_SL2VL = 0x0017,
	IBFS_SMP_ATTR_VLARB = 0x0018,
	IBFS_SMP_ATTR_LFT = 0x0019,
	IBFS_SMP_ATTR_MFT = 0x001B,
};

/*
 * The attribute's name as the IBA (and OpenSM's log) writes it, e.g.
 * "NodeInfo", "P_KeyTable"; "unknown" for one this model does not know.
 */
const char *ibfs__smp_attr_str(uint16_t attr);

/* MAD status (IBA 13.4.7): bits 2-4 carry the "invalid field" codes. */
#define IBFS_MAD_STATUS_OK 0x0000
#define IBFS_MAD_STATUS_BAD_METHOD 0x0008        /* method not supported */
#define IBFS_MAD_STATUS_BAD_ATTR 0x000c  /* method/attribute combination */
#define IBFS_MAD_STATUS_BAD_FIELD 0x001c /* attribute or modifier value */

/* Sizes within the 256-byte MAD (IBA 14.2.1.2). */
enum {
	IBFS_SMP_DATA_BYTES = 64,
	IBFS_SMP_MAX_HOPS = 63, /* paths have 64 bytes, entry 0 unused */
	IBFS_LFT_BLOCK = 64,    /* LIDs per LinearForwardingTable block */
};

/*
 * PortState of PortInfo (IBA 14.2.5.6) uses the codes of enum
 * ibfs_port_state (verbs.h, as ibv_port_state): 0 no change (in a Set),
 * 1 Down, 2 Init, 3 Armed, 4 Active. PortPhysicalState codes:
 */
#define IBFS_PHYS_LINKUP 5
#define IBFS_PHYS_DISABLED 3

/* An SMP, decoded. Fields of the LID-routed form are a subset. */
struct ibfs_smp {
	uint8_t mgmt_class;  /* IBFS_MCLASS_SUBN_DR or _LID */
	uint8_t method;      /* enum ibfs_smp_method; 0x80 bit = response */
	uint16_t status;     /* 15 bits */
	uint8_t dir;         /* D: 0 outgoing, 1 returning */
	uint8_t hop_ptr, hop_cnt;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
	uint64_t mkey;
	uint16_t dr_slid, dr_dlid;
	uint8_t data[IBFS_SMP_DATA_BYTES];
	uint8_t initial_path[64];
	uint8_t return_path[64];
};

/* Writes the 256 bytes of s; reads them back (-1: not an SMP of ours). */
void ibfs__smp_encode(const struct ibfs_smp *s, uint8_t mad[IBFS_MAD_BYTES]);
int ibfs__smp_decode(const uint8_t mad[IBFS_MAD_BYTES], struct ibfs_smp *s);

/*
 * Directed-route steps (IBA 14.2.2). Each returns the action for the node
 * holding the SMP: IBFS_DR_SEND (send it out of *port), IBFS_DR_LOCAL
 * (the SMP is for this node's SMA, or, returning, for the SM here) or
 * IBFS_DR_DISCARD (the hop pointer or path is not valid here). nports is
 * the node's port count and is_switch whether it may relay.
 *
 * send: the node originates s, or its SMA returns a response.
 * recv: s arrived on port in_port (ReturnPath is recorded outbound).
 */
enum { IBFS_DR_DISCARD = 0, IBFS_DR_SEND = 1, IBFS_DR_LOCAL = 2 };
int ibfs__smp_dr_send(struct ibfs_smp *s, int *port);
int ibfs__smp_dr_recv(struct ibfs_smp *s, int in_port, int nports,
		      int is_switch, int *port);
/* Turns a request that reached its SMA into its GetResp (D set). */
void ibfs__smp_make_resp(struct ibfs_smp *s, uint16_t status);

/* NodeInfo (IBA 14.2.5.3), the fields this model uses. */
struct ibfs_smp_node_info {
	uint8_t node_type;   /* 1 CA, 2 switch (enum ibfs_node_type) */
	uint8_t nports;
	uint64_t sys_guid, node_guid, port_guid;
	uint16_t partition_cap, device_id;
	uint32_t revision;
	uint8_t local_port;  /* the port the SMP came in by */
	uint32_t vendor_id;  /* 24 bits */
};
void ibfs__smp_put_node_info(uint8_t *d, const struct ibfs_smp_node_info *n);
void ibfs__smp_get_node_info(const uint8_t *d, struct ibfs_smp_node_info *n);

/* SwitchInfo (IBA 14.2.5.4), the fields this model uses. */
struct ibfs_smp_switch_info {
	uint16_t lft_cap, mft_cap, lft_top;
	uint8_t port_state_change; /* set by a port changing state */
	uint16_t enforce_cap;      /* PartitionEnforcementCap */
	uint16_t mft_top;          /* MulticastFDBTop (IBA 1.2.1 on) */
};
void ibfs__smp_put_switch_info(uint8_t *d,
			       const struct ibfs_smp_switch_info *w);
void ibfs__smp_get_switch_info(const uint8_t *d,
			       struct ibfs_smp_switch_info *w);

/*
 * PortInfo's attribute modifier: the port number in bits 7-0, and bit 31,
 * SMSupportExtendedSpeeds (IBA 14.2.5.6), which an SM sets in a Set whose
 * LinkSpeedExtEnabled it means (OpenSM: its link manager's Set of a link
 * whose ends both have IsExtendedSpeedsSupported; its Gets have none).
 */
#define IBFS_SMP_PI_PORT_MASK 0xffu
#define IBFS_SMP_PI_EXT_SPEEDS 0x80000000u

/* CapabilityMask bits of PortInfo (IBA 14.2.5.6): those this model has. */
#define IBFS_PORT_CAP_IS_SM 0x00000002u
#define IBFS_PORT_CAP_SL_MAP 0x00000040u     /* IsSLMappingSupported */
#define IBFS_PORT_CAP_EXT_SPEEDS 0x00004000u /* IsExtendedSpeedsSupported */

/* The link-local GID prefix fe80::/64, OpenSM's default subnet_prefix. */
#define IBFS_GID_PREFIX_LINK_LOCAL 0xfe80000000000000ull

/*
 * The MTU code of PortInfo (MTUCap, NeighborMTU) and of the SA's path and
 * member records (IBA 14.2.5.6, 15.2.5.16): 1 256, 2 512, 3 1024, 4 2048,
 * 5 4096, for the largest of those not above `mtu` (1 below 512).
 */
uint8_t ibfs__mad_mtu_code(uint32_t mtu);

/* PortInfo (IBA 14.2.5.6), the fields this model uses. */
struct ibfs_smp_port_info {
	uint64_t gid_prefix;   /* GidPrefix */
	uint16_t lid, sm_lid;
	uint32_t cap_mask;     /* CapabilityMask: IBFS_PORT_CAP_* */
	uint8_t local_port;
	/* LinkWidth codes, a bit each: 1 1x, 2 4x, 4 8x, 8 12x, 16 2x. */
	uint8_t width_enabled, width_supported;
	uint8_t width_active;  /* LinkWidthActive code: 1 1x, 2 4x, ... */
	/* LinkSpeed codes, a bit each: 1 SDR, 2 DDR, 4 QDR; Enabled 0 is
	 * "no change" in a Set, 15 "set to Supported". */
	uint8_t speed_supported, speed_active, speed_enabled;
	/* LinkSpeedExt codes, a bit each: 1 FDR, 2 EDR, 4 HDR, 8 NDR. */
	uint8_t speed_ext_supported, speed_ext_active, speed_ext_enabled;
	/* MTU codes: 1 256, 2 512, 3 1024, 4 2048, 5 4096. */
	uint8_t neighbor_mtu, mtu_cap;
	uint8_t subnet_timeout; /* SubnetTimeOut: 4.096 us x 2^value */
	uint8_t state;         /* enum ibfs_port_state */
	uint8_t phys_state;    /* IBFS_PHYS_* */
	uint8_t lmc;
	uint8_t vl_cap;        /* 1: VL0, 2: VL0-1, 3: VL0-3, 4: VL0-7 ... */
	uint8_t op_vls;
	uint8_t vl_high_limit; /* LimitOfHighPriority: 4 KiB units, 255 none */
	uint8_t vlarb_high_cap, vlarb_low_cap;
	/* PartitionEnforcementInbound and Outbound: IBFS_PKEY_ENF_* */
	uint8_t part_enf;
	uint16_t pkey_violations; /* P_KeyViolations */
};
void ibfs__smp_put_port_info(uint8_t *d, const struct ibfs_smp_port_info *p);
void ibfs__smp_get_port_info(const uint8_t *d, struct ibfs_smp_port_info *p);

/* P_KeyTable block (IBA 14.2.5.7): 32 P_Keys of 16 bits. */
void ibfs__smp_put_pkeys(uint8_t *d, const uint16_t pkeys[32]);
void ibfs__smp_get_pkeys(const uint8_t *d, uint16_t pkeys[32]);

/* SLtoVLMappingTable (IBA 14.2.5.8): 16 SLs, 4 bits each. */
void ibfs__smp_put_sl2vl(uint8_t *d, const uint8_t vls[16]);
void ibfs__smp_get_sl2vl(const uint8_t *d, uint8_t vls[16]);
/* VLArbitrationTable block (IBA 14.2.5.9): 32 (VL, weight) entries. */
void ibfs__smp_put_vlarb(uint8_t *d, const uint8_t vl[32],
			 const uint8_t weight[32]);
void ibfs__smp_get_vlarb(const uint8_t *d, uint8_t vl[32],
			 uint8_t weight[32]);

/*
 * An SMP as a packet (IBA 14.2.1): VL15, SL 0, LRH + BTH + DETH + MAD +
 * ICRC + VCRC (290 bytes on the wire, from ibfs__packet_finish), the MAD
 * bytes in a payload buffer, BTH destination QP 0 and DETH source QP 0
 * with Q_Key 0 (IBA 13.5.3.2). Directed-route SMPs carry the permissive
 * DLID and SLID 0xFFFF until they leave the directed part. Returns NULL
 * when the pools are exhausted.
 */
struct ibfs_fabric;
struct ibfs_packet *ibfs__smp_packet(struct ibfs_fabric *f,
				     const struct ibfs_smp *s, uint16_t dlid,
				     uint16_t slid);

#endif
