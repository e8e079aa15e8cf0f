/* SPDX-License-Identifier: MIT */
/*
 * Encoding a packet into the bytes that cross the wire (IBA 7.7, 9.2-9.4):
 * LRH, GRH, BTH, extension headers, payload, pad, ICRC and VCRC. Used by
 * captures; the simulation itself keeps headers as decoded fields.
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

uint32_t ibfs__crc32_ib(const uint8_t *buf, size_t len);
uint16_t ibfs__crc16_vcrc(const uint8_t *buf, size_t len);
/* ICRC of an encoded packet of `len` bytes ending before ICRC/VCRC. */
uint32_t ibfs__icrc(const uint8_t *pkt, size_t len_before_icrc);

#endif
