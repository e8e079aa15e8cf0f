/* SPDX-License-Identifier: MIT */
/*
 * An InfiniBand packet as it crosses the fabric: the fields of its headers
 * (LRH, BTH and the extension headers, IBA chapters 7 and 9), its payload,
 * its size on the wire and in credits, and simulation bookkeeping.
 * Headers are kept as decoded fields; capture code encodes them into bytes.
 *
 * Wire size (IBA 7.7, 9.2): LRH 8 (+ GRH 40) + BTH 12 + extension headers +
 * payload + pad to 4 bytes + ICRC 4 + VCRC 2. Credits count 64-byte blocks
 * of the receiver's input buffer (IBA 7.9.4), rounded up.
 */
#ifndef IBFS_FABRIC_PACKET_H
#define IBFS_FABRIC_PACKET_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/time.h"

/* Unicast LIDs end below the multicast range 0xC000-0xFFFE (IBA 4.1.2). */
#define IBFS_MCAST_LID_BASE 0xC000
#define IBFS_PERMISSIVE_LID 0xFFFF

/* Header and trailer sizes in bytes (IBA 7.7, 9.2-9.4). */
enum {
	IBFS_LRH_BYTES = 8,
	IBFS_GRH_BYTES = 40,
	IBFS_BTH_BYTES = 12,
	IBFS_RDETH_BYTES = 4,
	IBFS_DETH_BYTES = 8,
	IBFS_RETH_BYTES = 16,
	IBFS_AETH_BYTES = 4,
	IBFS_IMMDT_BYTES = 4,
	IBFS_ATOMICETH_BYTES = 28,
	IBFS_ATOMICACKETH_BYTES = 8,
	IBFS_ICRC_BYTES = 4,
	IBFS_VCRC_BYTES = 2,
	IBFS_MAD_BYTES = 256,
	IBFS_CREDIT_BLOCK = 64,
	/* A link-level flow control packet (IBA 7.9.4): 4 bytes + 2 LPCRC. */
	IBFS_FCP_BYTES = 6,
	IBFS_VL15 = 15,
	IBFS_MAX_VLS = 16,
};

/* Which extension headers a packet carries (bit set). */
enum ibfs_xh {
	IBFS_XH_GRH = 1 << 0,
	IBFS_XH_DETH = 1 << 1,
	IBFS_XH_RETH = 1 << 2,
	IBFS_XH_AETH = 1 << 3,
	IBFS_XH_IMM = 1 << 4,
	IBFS_XH_ATOMIC = 1 << 5,
	IBFS_XH_ATOMICACK = 1 << 6,
	IBFS_XH_IETH = 1 << 7,
	/* Not a header: the GRH's DGID is dgid below (an HCA's, from its
	 * address handle: a multicast group's MGID), not the DLID's. */
	IBFS_XH_DGID = 1 << 8,
	/* RoCEv2 only: the packet carries in-band network telemetry (intr
	 * below; fabric/eth.h sizes it, switch/eth_int.c stamps it). */
	IBFS_XH_INT = 1 << 9,
};

/*
 * In-band network telemetry as HPCC uses it (Li et al., SIGCOMM 2019,
 * section 3): each switch on the path appends a record for the egress
 * port at the frame's dequeue, up to IBFS_INT_MAX_HOPS. A record holds
 * what the sender's utilization needs, in picoseconds modulo 2^32: when
 * the frame left (ts), the time the port has spent serializing frames
 * so far (busy: the paper's txBytes over the link rate B) and the time
 * the bytes queued behind the frame take at B (qdrain: qLen / B). Time
 * stands in for bytes so that U is exact in integers and needs no rate
 * field; the bytes it occupies on the wire are the paper's (eth.h).
 * nhop counts the records; IBFS_INT_ECHO set in it marks a copy a
 * receiver echoes back (in an ACK), which switches leave alone.
 */
enum { IBFS_INT_MAX_HOPS = 5, IBFS_INT_ECHO = 0x80 };
struct ibfs_int_hop {
	uint32_t ts, busy, qdrain;
};
struct ibfs_int {
	uint8_t nhop;
	struct ibfs_int_hop hop[IBFS_INT_MAX_HOPS];
};

/* What a packet is for, so devices and observers can tell them apart. */
enum ibfs_pkt_kind {
	IBFS_PKT_DATA = 0,  /* transport packet between HCAs */
	IBFS_PKT_MGMT = 1,  /* subnet management (SMP on VL15, QP0) */
	IBFS_PKT_RAW = 2,   /* a test or skeleton packet with no transport */
};

struct ibfs_packet {
	/*
	 * Line 0: what the link layer and switches touch on every hop, within
	 * one 64-byte cache line.
	 */
	struct ibfs_packet *next; /* queue link: input buffer, send queue */
	ibfs_time_t head_at;         /* header fully arrived at this input */
	ibfs_time_t tail_at;         /* last byte arrived at this input */
	ibfs_time_t ready_at;        /* a switch may forward it from then */
	/* Multicast: a replica points at the original it was copied from. */
	struct ibfs_packet *mc_orig;

	/* Size on the wire and in the receiver's buffer. */
	uint32_t wire_bytes;
	uint16_t blocks;

	/* LRH (IBA 7.7). */
	uint16_t dlid, slid;
	uint8_t vl, sl, lnh;

	uint8_t kind;    /* enum ibfs_pkt_kind */
	uint8_t in_port; /* port it arrived on at the current device */
	/*
	 * State of the device holding the packet, written when its header
	 * arrives: the VL it arrived on, and where a switch will send it.
	 */
	uint8_t in_vl;
	uint8_t out_port;
	uint8_t out_vl;
	uint8_t held;    /* 1 while counted in the fabric's buffered packets */

	uint32_t mc_refs; /* multicast original: replicas not yet sent */

	/*
	 * Line 1: what every packet has besides its LRH, the BTH (zero in a
	 * raw packet), and what its source and destination read: raw
	 * packets (ibfs__packet_new_raw) touch lines 0 and 1 only.
	 */
	/* BTH (IBA 9.2). */
	uint8_t opcode;
	uint8_t se, mig, pad, tver, ack_req, fecn, becn;
	uint16_t pkey;
	/* Extension headers present, a bit each: readers go by these. */
	uint16_t xh;
	uint32_t dest_qp; /* 24 bits */
	uint32_t psn;     /* 24 bits */

	/* Payload: NULL when data is off or the packet has none. */
	uint32_t payload_len;
	uint8_t *payload;

	/* Bookkeeping. */
	uint64_t id;
	ibfs_time_t injected;        /* left its source */
	void *ctx;                   /* owner's context (transport, SM MAD) */
	uint32_t imm; /* ImmDt or IETH (IBFS_XH_IMM, IBFS_XH_IETH) */

	/*
	 * Line 2 on: the other extension headers, present as flagged in xh
	 * (and only then read: raw packets leave them as the pool had them).
	 */
	struct {
		uint64_t va;
		uint32_t rkey;
		uint32_t dma_len;
	} reth;
	struct {
		uint8_t syndrome;
		uint32_t msn; /* 24 bits */
	} aeth;
	/*
	 * An RC request without AtomicETH, or an ACK, never carries the
	 * DETH, AtomicETH, AtomicAckETH or a DGID: under RoCEv2 those bytes
	 * hold its telemetry instead when xh has IBFS_XH_INT.
	 */
	union {
		struct {
			struct {
				uint32_t qkey;
				uint32_t src_qp;
			} deth;
			struct {
				uint64_t va;
				uint32_t rkey;
				uint64_t swap_add;
				uint64_t compare;
			} atomic;
			/* AtomicAckETH: the original remote data */
			uint64_t atomic_ack;
			/* GRH DGID when xh has IBFS_XH_DGID */
			uint8_t dgid[16];
		};
		struct ibfs_int intr;
	};
};

/*
 * The bytes of lines 0 and 1 (a pool gives a packet whole 64-byte lines,
 * pool.h): all of a packet that carries no extension header but ImmDt/IETH.
 */
#define IBFS_PKT_HOT_BYTES 128
_Static_assert(offsetof(struct ibfs_packet, opcode) == 64 &&
		       offsetof(struct ibfs_packet, imm) + 4 <=
			       IBFS_PKT_HOT_BYTES &&
		       offsetof(struct ibfs_packet, reth) == IBFS_PKT_HOT_BYTES,
	       "struct ibfs_packet: lines 0 and 1 as above");
_Static_assert(sizeof(struct ibfs_int) <= 64 &&
		       offsetof(struct ibfs_packet, dgid) + 16 ==
			       sizeof(struct ibfs_packet) &&
		       sizeof(struct ibfs_packet) == 216,
	       "struct ibfs_packet: the telemetry shares the bytes of the "
	       "DETH, AtomicETH, AtomicAckETH and DGID");

/* Bytes of headers after the LRH/GRH and BTH, per the xh flags. */
uint32_t ibfs__packet_ext_bytes(uint16_t xh);
/*
 * Computes wire_bytes, pad and blocks from lnh/xh/payload_len (raw packets:
 * LRH + payload + VCRC). Call after filling the header fields.
 */
void ibfs__packet_finish(struct ibfs_packet *p);

#endif
