/* SPDX-License-Identifier: MIT */
/*
 * Subnet Administration MADs (IBA chapter 15): general management packets
 * (GMPs) of management class 0x03 between QP1 of a port (the GSI) and QP1
 * of the SM's port, where the Subnet Administrator (SA) answers them.
 * Unlike SMPs they travel on a data VL, as UD SEND Only packets with a
 * DETH whose Q_Key is the well-known GSI Q_Key 0x80010000 (IBA 13.5.3.2)
 * and a P_Key of the port's table (the default 0xFFFF here).
 *
 * The 256 bytes of an SA MAD (IBA 13.4.2, 13.6.2.1, 15.2.1.1):
 *    0  the common MAD header (mad_hdr.h): MgmtClass 0x03, ClassVersion 2
 *   24  RMPP header: RMPPVersion, RMPPType, RRespTime (5 bits) |
 *       RMPPFlags (3 bits), RMPPStatus, Data1 (32 bits), Data2 (32 bits)
 *   36  SM_Key (64 bits)
 *   44  AttributeOffset (16 bits, in 8-byte words), Reserved (16 bits)
 *   48  ComponentMask (64 bits)
 *   56  SA data, 200 bytes
 * all big endian. The SA answers with SM_Key 0 and the AttributeOffset
 * of the record it returns, as OpenSM does.
 *
 * This file is the codec, shared by the SA (src/subnet_manager/sa*.c) and
 * the client at an HCA (sa_client.c), as libibmad is by OpenSM and
 * saquery. The IBA section numbers here are from memory (1.2.1's
 * numbering) and unchecked; the byte layouts are checked, by tshark 4.0's
 * dissector of these MADs (tests/check_sa.c, tests/mcast_join.sh), and
 * the values OpenSM puts in them by OpenSM itself (tests/opensm_sa.sh).
 */
#ifndef IBFS_HCA_SA_MAD_H
#define IBFS_HCA_SA_MAD_H

#include <stdint.h>

#include "fabric/packet.h"

#define IBFS_MCLASS_SUBN_ADM 0x03
#define IBFS_SA_CLASS_VERSION 2
/* The GSI's well-known Q_Key (IBA 13.5.3.2) and its QP. */
#define IBFS_GSI_QKEY 0x80010000u
#define IBFS_GSI_QP 1

/* SA methods (IBA 15.2.2, Table 187 in 1.2.1; the number unchecked). */
enum ibfs_sa_method {
	IBFS_SA_GET = 0x01,
	IBFS_SA_SET = 0x02,
	IBFS_SA_GETRESP = 0x81,
	IBFS_SA_GETTABLE = 0x12,
	IBFS_SA_GETTABLERESP = 0x92,
	IBFS_SA_DELETE = 0x15,
	IBFS_SA_DELETERESP = 0x95,
};

/* SA attributes modelled (IBA 15.2.5). */
enum ibfs_sa_attr {
	IBFS_SA_ATTR_PATH_RECORD = 0x0035,
	IBFS_SA_ATTR_MCMEMBER_RECORD = 0x0038,
};

/*
 * MAD status: the common codes of IBA 13.4.7 in the low byte, the SA's
 * own in bits 8-15 (IBA 15.2.1.1, Table 184 in 1.2.1; as OpenSM's
 * IB_SA_MAD_STATUS_*).
 */
#define IBFS_SA_STATUS_BUSY 0x0001
#define IBFS_SA_STATUS_BAD_METHOD 0x0008 /* method not supported */
#define IBFS_SA_STATUS_BAD_ATTR 0x000c   /* method/attribute combination */
#define IBFS_SA_ERR_NO_RESOURCES 0x0100
#define IBFS_SA_ERR_REQ_INVALID 0x0200
#define IBFS_SA_ERR_NO_RECORDS 0x0300
#define IBFS_SA_ERR_TOO_MANY_RECORDS 0x0400
#define IBFS_SA_ERR_INSUFFICIENT_COMPONENTS 0x0600

enum {
	IBFS_SA_HDR_BYTES = 56,
	IBFS_SA_DATA_BYTES = 200,
	IBFS_MCMEMBER_BYTES = 52,
	IBFS_PATH_RECORD_BYTES = 64,
};

/* An SA MAD, decoded. */
struct ibfs_sa_mad {
	uint8_t method;      /* enum ibfs_sa_method */
	uint16_t status;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
	uint8_t rmpp_version, rmpp_type, rmpp_flags, rmpp_status;
	uint8_t rresp_time;
	uint32_t rmpp_data1, rmpp_data2;
	uint64_t sm_key;
	uint16_t attr_offset; /* 8-byte words */
	uint64_t comp_mask;
	uint8_t data[IBFS_SA_DATA_BYTES];
};

/* Writes the 256 bytes; reads them back (-1: not an SA MAD of class
 * version 2 and base version 1). */
void ibfs__sa_mad_encode(const struct ibfs_sa_mad *m,
			 uint8_t mad[IBFS_MAD_BYTES]);
int ibfs__sa_mad_decode(const uint8_t mad[IBFS_MAD_BYTES],
			struct ibfs_sa_mad *m);
/* AttributeOffset for a record of `bytes`: 8-byte words, rounded up. */
static inline uint16_t ibfs__sa_attr_offset(unsigned bytes)
{
	return (uint16_t)((bytes + 7) / 8);
}

/* MCMemberRecord component mask bits (IBA 15.2.5.17, as OpenSM's). */
enum {
	IBFS_MCR_MGID = 1 << 0,
	IBFS_MCR_PORT_GID = 1 << 1,
	IBFS_MCR_QKEY = 1 << 2,
	IBFS_MCR_MLID = 1 << 3,
	IBFS_MCR_MTU_SEL = 1 << 4,
	IBFS_MCR_MTU = 1 << 5,
	IBFS_MCR_TCLASS = 1 << 6,
	IBFS_MCR_PKEY = 1 << 7,
	IBFS_MCR_RATE_SEL = 1 << 8,
	IBFS_MCR_RATE = 1 << 9,
	IBFS_MCR_LIFE_SEL = 1 << 10,
	IBFS_MCR_LIFE = 1 << 11,
	IBFS_MCR_SL = 1 << 12,
	IBFS_MCR_FLOW = 1 << 13,
	IBFS_MCR_HOP = 1 << 14,
	IBFS_MCR_SCOPE = 1 << 15,
	IBFS_MCR_JOIN_STATE = 1 << 16,
	IBFS_MCR_PROXY = 1 << 17,
};

/* JoinState bits (IBA 15.2.5.17). */
enum {
	IBFS_JOIN_FULL = 1,
	IBFS_JOIN_NON = 2,
	IBFS_JOIN_SENDONLY = 4,
};

/*
 * MCMemberRecord (IBA 15.2.5.17), 52 bytes: MGID 0, PortGID 16, Q_Key 32,
 * MLID 36, MTUSelector (2 bits) | MTU (6) 38, TClass 39, P_Key 40,
 * RateSelector | Rate 42, PacketLifeTimeSelector | PacketLifeTime 43,
 * SL (4) | FlowLabel (20) | HopLimit (8) 44, Scope (4) | JoinState (4)
 * 48, ProxyJoin (1 bit) 49.
 */
struct ibfs_mcmember_rec {
	uint8_t mgid[16], port_gid[16];
	uint32_t qkey;
	uint16_t mlid;
	uint8_t mtu_sel, mtu, tclass;
	uint16_t pkey;
	uint8_t rate_sel, rate, life_sel, life;
	uint8_t sl;
	uint32_t flow;       /* 20 bits */
	uint8_t hop_limit, scope, join_state, proxy;
};
void ibfs__sa_put_mcmember(uint8_t *d, const struct ibfs_mcmember_rec *r);
void ibfs__sa_get_mcmember(const uint8_t *d, struct ibfs_mcmember_rec *r);

/* PathRecord component mask bits (IBA 15.2.5.16, as OpenSM's). */
enum {
	IBFS_PR_DGID = 1 << 2,
	IBFS_PR_SGID = 1 << 3,
	IBFS_PR_DLID = 1 << 4,
	IBFS_PR_SLID = 1 << 5,
	IBFS_PR_PKEY = 1 << 13,
	IBFS_PR_SL = 1 << 15,
};

/*
 * PathRecord (IBA 15.2.5.16), 64 bytes: ServiceID 0 (reserved before
 * 1.2), DGID 8, SGID 24, DLID 40, SLID 42, RawTraffic (1 bit) |
 * FlowLabel (20) | HopLimit (8) 44, TClass 48, Reversible (1) |
 * NumbPath (7) 49, P_Key 50, QoSClass (12) | SL (4) 52, MTUSelector |
 * MTU 54, RateSelector | Rate 55, PacketLifeTimeSelector |
 * PacketLifeTime 56, Preference 57.
 */
struct ibfs_path_rec {
	uint8_t dgid[16], sgid[16];
	uint16_t dlid, slid;
	uint8_t raw, hop_limit, tclass, reversible, numb_path;
	uint32_t flow;
	uint16_t pkey, qos_class;
	uint8_t sl, mtu_sel, mtu, rate_sel, rate, life_sel, life, preference;
};
void ibfs__sa_put_path(uint8_t *d, const struct ibfs_path_rec *r);
void ibfs__sa_get_path(const uint8_t *d, struct ibfs_path_rec *r);

/* A port's GID: the link-local prefix fe80::/64 and its port GUID. */
void ibfs__sa_port_gid(uint64_t port_guid, uint8_t gid[16]);
uint64_t ibfs__sa_gid_guid(const uint8_t gid[16]);

/*
 * An SA MAD as a packet from QP1 to QP1: LRH (LNH 2, the SL given, VL
 * `vl`), BTH (UD SEND Only, P_Key, destination QP 1), DETH (Q_Key
 * 0x80010000, source QP 1), the 256 bytes, ICRC, VCRC: 290 bytes on the
 * wire, as an SMP, but on a data VL. NULL when the pools are exhausted.
 */
struct ibfs_fabric;
struct ibfs_packet *ibfs__sa_packet(struct ibfs_fabric *f,
				    const struct ibfs_sa_mad *m, uint16_t dlid,
				    uint16_t slid, uint8_t sl, uint8_t vl,
				    uint16_t pkey);

#endif
