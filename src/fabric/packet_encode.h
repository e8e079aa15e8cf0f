/* SPDX-License-Identifier: MIT */
/*
 * Encoding a packet into the bytes that cross the wire (IBA 7.7, 9.2-9.4):
 * LRH, GRH, BTH, extension headers, payload, pad, ICRC and VCRC; or, for a
 * RoCEv2 run, the Ethernet frame that carries the same transport packet
 * (IBA Annex A17), and PFC frames (IEEE 802.1Qbb). Used by captures; the
 * simulation itself keeps headers as decoded fields.
 *
 * ICRC (IBA 7.8.1): CRC-32 as Ethernet's (polynomial 0x04C11DB7, reflected,
 * initial value all ones, result complemented), over LRH..payload with the
 * variant fields replaced by ones: LRH:VL and BTH:Resv8a for local packets;
 * for global packets the whole LRH and GRH:TClass, FlowLabel and HopLmt.
 * Sent least significant byte first, as Ethernet's FCS.
 * VCRC (IBA 7.8.2): CRC-16 with polynomial 0x100B over LRH..ICRC, all
 * fields included, computed in the same reflected form with initial value
 * all ones and the result complemented.
 */
#ifndef IBFS_FABRIC_PACKET_ENCODE_H
#define IBFS_FABRIC_PACKET_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/packet.h"

/* Largest encoded packet: headers and trailers (126 B) plus a 4 KiB MTU. */
#define IBFS_MAX_WIRE_BYTES (126 + 4096)

/*
 * Writes p into buf (at least p->wire_bytes bytes); returns the number of
 * bytes written (p->wire_bytes) or 0 if p cannot be encoded. Without a
 * payload buffer (data off) the payload is written as zeros.
 */
size_t ibfs__packet_encode(const struct ibfs_packet *p, uint8_t *buf,
			   size_t len);

/*
 * The 40 bytes of p's GRH (IBA 8.3) into b: what a capture shows and what
 * a UD receive places at the start of its buffer (IBA 11.4.1.2).
 */
void ibfs__packet_put_grh(const struct ibfs_packet *p, uint8_t *b);

/*
 * RoCEv2 (IBA Annex A17): p as the Ethernet frame that carries it, from
 * destination MAC to FCS (no preamble, no gap): Ethernet with an 802.1Q
 * tag when vlan (its PCP the priority p->vl, VID 0), IPv4 or, when ipv6,
 * IPv6 (DSCP the priority's class selector, p->vl x 8; ECN ECT(0); TTL or
 * Hop Limit 64; IPv4 with DF and its header checksum), UDP from
 * ibfs__roce_udp_sport to 4791 (checksum 0 over IPv4, computed over
 * IPv6), then BTH, extension headers, payload and pad as
 * ibfs__packet_encode writes them, the ICRC, padding to the 64-byte
 * minimum and the FCS. Addresses from the host ids p->slid and p->dlid
 * (fabric/eth.h; IPv6: fd00::/64 with the IPv4 address in the low 32
 * bits). Returns the frame's bytes, or 0 if p has no BTH or buf is too
 * small.
 */
#define IBFS_MAX_ETH_FRAME (14 + 4 + 40 + 8 + 12 + 64 + 4096 + 4 + 4)
size_t ibfs__roce_encode(const struct ibfs_packet *p, int vlan, int ipv6,
			 uint8_t *buf, size_t len);
/*
 * A PFC frame (IEEE 802.1Qbb 36.1.3, a MAC control frame of 802.3 31B):
 * to 01-80-C2-00-00-01 from src_mac, EtherType 0x8808, opcode 0x0101,
 * the priority-enable vector, eight pause times in quanta, padded to 64
 * bytes with the FCS. Returns 64, or 0 if buf is shorter.
 */
size_t ibfs__pfc_encode(const uint8_t src_mac[6], uint8_t enable,
			const uint16_t quanta[8], uint8_t *buf, size_t len);
/*
 * RoCEv2's ICRC (IBA A17.3.3): CRC-32 as the IB ICRC's over 8 bytes of
 * ones (standing for the LRH), then the IP header, UDP header, BTH,
 * extension headers, payload and pad (`len` bytes from ip), with the
 * fields a router may change masked to ones: IPv4 DSCP/ECN, TTL and
 * header checksum, or IPv6 Traffic Class, Flow Label and Hop Limit; the
 * UDP checksum; the BTH's FECN, BECN and Resv6.
 */
uint32_t ibfs__roce_icrc(const uint8_t *ip, size_t len, int ipv6);
/*
 * A TCP frame (fabric/tcp_frame.h) as Ethernet (an 802.1Q tag when vlan),
 * IPv4 (DF, TTL 64, the priority's class selector and the ECN field) and
 * TCP with its options and a payload of zeros, the IPv4 and TCP checksums
 * valid, padded with the FCS. Returns its length, or 0 if buf is shorter
 * or p is no TCP frame. IBFS_MAX_TCP_FRAME bytes hold any (9,000-byte MTU).
 */
#define IBFS_MAX_TCP_FRAME (14 + 4 + 9000 + 4)
size_t ibfs__tcp_encode(const struct ibfs_packet *p, int vlan, uint8_t *buf,
			size_t len);
/* RFC 791's header checksum: 0 over a header whose checksum is right. */
uint16_t ibfs__ipv4_checksum(const uint8_t *hdr, size_t len);

uint32_t ibfs__crc32_ib(const uint8_t *buf, size_t len);
uint16_t ibfs__crc16_vcrc(const uint8_t *buf, size_t len);
/* ICRC of an encoded packet of `len` bytes ending before ICRC/VCRC. */
uint32_t ibfs__icrc(const uint8_t *pkt, size_t len_before_icrc);

#endif
