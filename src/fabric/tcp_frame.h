/* SPDX-License-Identifier: MIT */
/*
 * A TCP/IPv4 frame in struct ibfs_packet (the kernel TCP hosts of
 * src/host): the fields of the TCP header and its options that the
 * receiver, the switches' ECMP hash and the captures read, kept where an
 * InfiniBand packet keeps its extension headers (from reth on). A TCP
 * frame names no extension header (xh 0), so nothing else reads that
 * room; the struct keeps its size.
 *
 * The rest is held as for RoCE frames (fabric/eth.h): dlid and slid the
 * destination's and source's host ids, sl and vl the priority, fecn 1
 * when a switch marked the frame CE (RFC 3168 5), wire_bytes the whole
 * frame on the link. lnh is IBFS_TCP_LNH: no BTH follows, the captures
 * write an IPv4 header with protocol 6 and a TCP header.
 */
#ifndef IBFS_FABRIC_TCP_FRAME_H
#define IBFS_FABRIC_TCP_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fabric/packet.h"

/* A value of lnh no InfiniBand or RoCE packet has (those are 0-3). */
#define IBFS_TCP_LNH 4
/* The IP protocol number of TCP (RFC 9293, IANA). */
#define IBFS_IPPROTO_TCP 6

struct ibfs_tcp_frame {
	uint32_t seq, ack;
	uint32_t tsval, tsecr;
	uint32_t len;          /* payload bytes */
	struct {
		uint32_t left, right;
	} sack[4];
	uint16_t sport, dport;
	uint16_t window;       /* the 16-bit field, before scaling */
	uint16_t mss;          /* MSS option; 0 absent */
	uint8_t flags;         /* FIN 0x01 ... CWR 0x80 (RFC 9293 3.1) */
	uint8_t ecn;           /* the IP ECN field as sent (RFC 3168 5) */
	int8_t wscale;         /* window scale option; -1 absent */
	uint8_t sack_ok, ts, nsack;
};

_Static_assert(sizeof(struct ibfs_tcp_frame) <=
		       sizeof(struct ibfs_packet) -
			       offsetof(struct ibfs_packet, reth),
	       "struct ibfs_tcp_frame fits where extension headers go");

static inline int ibfs__is_tcp_frame(const struct ibfs_packet *p)
{
	return p->lnh == IBFS_TCP_LNH;
}

static inline void ibfs__tcp_frame_put(struct ibfs_packet *p,
				       const struct ibfs_tcp_frame *f)
{
	memcpy((char *)p + offsetof(struct ibfs_packet, reth), f,
	       sizeof(*f));
}

static inline void ibfs__tcp_frame_get(const struct ibfs_packet *p,
				       struct ibfs_tcp_frame *f)
{
	memcpy(f, (const char *)p + offsetof(struct ibfs_packet, reth),
	       sizeof(*f));
}

#endif
