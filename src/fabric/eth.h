/* SPDX-License-Identifier: MIT */
/*
 * Ethernet as a link kind: the sizes of what Ethernet puts on the wire
 * (IEEE 802.3, 802.1Q, 802.1Qbb), RoCEv2's encapsulation of the IBA
 * transport in IP/UDP (IBA Annex A17), and the addresses a RoCE fabric
 * gives its hosts. The switch (src/switch), the RNIC's framing (src/hca)
 * and the captures all take their figures from here.
 *
 * How an Ethernet packet is held in struct ibfs_packet (the same struct
 * as InfiniBand's, so that the transport, pools and queues are shared):
 * - wire_bytes: everything the frame occupies the link for, preamble and
 *   SFD, the minimum-size padding, FCS and inter-frame gap included, so
 *   that serialization is wire_bytes at the link's data rate;
 * - sl and vl: the frame's priority (802.1p class, 0-7); per-priority
 *   state of a port lives in its per-VL fields;
 * - dlid and slid: the destination and source host ids (one a host port,
 *   numbered as InfiniBand numbers LIDs), from which the IPv4 and MAC
 *   addresses follow (ibfs__eth_ipv4, ibfs__eth_mac);
 * - the BTH and extension headers as for InfiniBand; the UDP source port
 *   is not stored but derived (ibfs__roce_udp_sport);
 * - fecn: the IP header's ECN field, 1 for Congestion Experienced (CE,
 *   RFC 3168 5) as a marking switch leaves it (switch/eth_ecn.h), 0 for
 *   ECT(0), what RoCEv2 transport packets are sent with. RoCEv2 carries
 *   congestion in IP, not in the BTH, whose FECN bit the captures write
 *   0 (ibfs__roce_encode).
 */
#ifndef IBFS_FABRIC_ETH_H
#define IBFS_FABRIC_ETH_H

#include <stdint.h>

#include "fabric/packet.h"

/* IEEE 802.3 clause 3 and 4: a frame's overhead on the wire, in bytes. */
enum {
	IBFS_ETH_PREAMBLE = 8, /* preamble 7 and start frame delimiter 1 */
	IBFS_ETH_HDR = 14,     /* destination and source MAC, EtherType */
	IBFS_ETH_VLAN = 4,     /* 802.1Q tag, present when PCP is used */
	IBFS_ETH_FCS = 4,      /* frame check sequence (CRC-32) */
	IBFS_ETH_IFG = 12,     /* minimum inter-frame gap, 96 bit times */
	/* Smallest frame, destination MAC to FCS: shorter ones are padded. */
	IBFS_ETH_MIN_FRAME = 64,
	IBFS_IPV4_HDR = 20,    /* RFC 791, no options */
	IBFS_IPV6_HDR = 40,    /* RFC 8200 */
	IBFS_UDP_HDR = 8,      /* RFC 768 */
	/* IANA's port for RoCEv2 (IBA Annex A17.2.3). */
	IBFS_ROCE_UDP_PORT = 4791,
	/* 802.1Qbb: eight priorities. */
	IBFS_ETH_PRIOS = 8,
	/* A PFC frame is a minimum-size MAC control frame (802.1Qbb 36.1.3):
	 * EtherType 0x8808, opcode 0x0101, class-enable vector, 8 timers. */
	IBFS_PFC_FRAME = 64,
	IBFS_ETH_MAC_CONTROL = 0x8808,
	IBFS_PFC_OPCODE = 0x0101,
	/* A pause quantum is 512 bit times (802.3 annex 31B). */
	IBFS_PFC_QUANTUM_BITS = 512,
	/* In-band telemetry (IBFS_XH_INT, packet.h): HPCC's 8 bytes per
	 * hop (Li et al., SIGCOMM 2019) for IBFS_INT_MAX_HOPS hops and a
	 * 2-byte hop count, reserved in full by the sender as HPCC's
	 * public simulator does (int-header.h: IntHop of 8 bytes, maxHop
	 * 5, nhop 16 bits), so that a frame keeps one size on its path. */
	IBFS_INT_HOP_BYTES = 8,
	IBFS_INT_BYTES = IBFS_INT_HOP_BYTES * IBFS_INT_MAX_HOPS + 2,
};

/* Bytes a frame of `frame` bytes (destination MAC to FCS, before padding)
 * occupies the link for: padded to the minimum, plus preamble and gap. */
static inline uint32_t ibfs__eth_wire_bytes(uint32_t frame)
{
	if (frame < IBFS_ETH_MIN_FRAME)
		frame = IBFS_ETH_MIN_FRAME;
	return frame + IBFS_ETH_PREAMBLE + IBFS_ETH_IFG;
}

/*
 * Sets p->wire_bytes (and p->pad, p->blocks) for p as a RoCEv2 frame:
 * Ethernet (with an 802.1Q tag when vlan), IPv4 or IPv6, UDP, BTH and the
 * extension headers p->xh names (with IBFS_XH_INT, the telemetry's
 * IBFS_INT_BYTES), the payload padded to 4 bytes, ICRC and FCS, then
 * ibfs__eth_wire_bytes. p->blocks counts 64-byte units of the
 * frame from destination MAC to FCS, as a switch buffer holds it.
 */
void ibfs__roce_finish(struct ibfs_packet *p, int vlan, int ipv6);

/* The frame's bytes from destination MAC to FCS (what a buffer holds). */
static inline uint32_t ibfs__eth_frame_bytes(const struct ibfs_packet *p)
{
	return p->wire_bytes - IBFS_ETH_PREAMBLE - IBFS_ETH_IFG;
}

/* Pause time of `quanta` quanta at `bps` bits a second, in ps, rounded
 * up (802.1Qbb: a timer of 0 resumes at once). */
uint64_t ibfs__pfc_quanta_ps(uint16_t quanta, uint64_t bps);

/*
 * Addresses of host id h (a host port, numbered as LIDs): IPv4
 * 10.0.0.0/8 with h in the low 24 bits; a locally administered unicast
 * MAC 02:00:00 followed by h in 24 bits. ARP is not modelled: every host
 * knows every other's MAC.
 */
static inline uint32_t ibfs__eth_ipv4(uint32_t h)
{
	return 0x0A000000u | (h & 0xFFFFFFu);
}

void ibfs__eth_mac(uint32_t h, uint8_t mac[6]);

/*
 * RoCEv2's UDP source port (IBA Annex A17.2.3 leaves it to the sender as
 * flow entropy; ConnectX hashes the QP numbers): one per (source,
 * destination, destination QP), within 49152-65535 (RFC 6335's dynamic
 * range), so that the packets of one QP take one ECMP path.
 */
uint16_t ibfs__roce_udp_sport(const struct ibfs_packet *p);

/*
 * The hash an ECMP switch computes over a frame's 5-tuple (source and
 * destination IPv4, protocol UDP, source and destination port; for a TCP
 * frame, fabric/tcp_frame.h, protocol TCP and the connection's ports), mixed
 * with the switch's seed so that two switches do not make the same
 * choice: a 32-bit value to reduce modulo the number of next hops.
 */
uint32_t ibfs__eth_flow_hash(const struct ibfs_packet *p, uint32_t seed);

#endif
