/* SPDX-License-Identifier: MIT */
/*
 * Packet captures that Wireshark and tshark read: a pcap file with link
 * type LINKTYPE_ERF (197), each record an ERF record of type 21
 * (InfiniBand) holding the packet as it crossed the wire, LRH to VCRC.
 * The capture observes transmissions on chosen ports (by default every
 * port of an HCA and every port facing one), each packet whole or its
 * first snaplen bytes (as tcpdump -s: the record keeps the wire length).
 * It is written to FILE.part and renamed to FILE when closed, so no
 * half-written capture is left.
 *
 * A capture of an Ethernet run (RoCEv2, IBA Annex A17) is of link type
 * LINKTYPE_ETHERNET (1) instead, one file one link type: each record a
 * frame from destination MAC to FCS (packet_encode.h), and the PFC frames
 * that the link's flow control sends (ibfs__capture_pfc).
 */
#ifndef IBFS_FABRIC_CAPTURE_H
#define IBFS_FABRIC_CAPTURE_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/port_set.h"

struct ibfs_capture;

/* What the file holds: InfiniBand packets in ERF records, or Ethernet
 * frames. */
enum ibfs_capture_link {
	IBFS_CAPTURE_IB = 0,
	IBFS_CAPTURE_ETH = 1,
};

struct ibfs_capture_opts {
	const struct ibfs_port_set *ports; /* NULL: the default above */
	uint32_t snaplen;                  /* bytes kept; 0: all */
	enum ibfs_capture_link link;       /* 0: InfiniBand */
	/* Ethernet: the RNICs' framing (ibfs__hca_set_link): an 802.1Q
	 * tag, IPv6 rather than IPv4. */
	uint8_t vlan, ipv6;
};

/*
 * Opens a capture of f's traffic into path, with o (NULL: defaults).
 * Returns NULL with errno set on failure.
 */
struct ibfs_capture *ibfs__capture_open(struct ibfs_fabric *f,
					const char *path,
					const struct ibfs_capture_opts *o);

/* Writes the rest, renames into place; returns 0 or -1 with errno. */
int ibfs__capture_close(struct ibfs_capture *c);
/* Drops the capture without leaving a file. */
void ibfs__capture_abort(struct ibfs_capture *c);
uint64_t ibfs__capture_count(const struct ibfs_capture *c);
/*
 * Records a PFC frame (IEEE 802.1Qbb) that `out` starts sending at
 * `start`: priority-enable vector `enable`, pause times `quanta`. The
 * source MAC is the host's (fabric/eth.h) on an HCA port, else
 * 02-01-NN-NN-NN-PP for port PP of node NNNNNN. Nothing for an
 * InfiniBand capture or a port not captured. Returns 0, or -1 after a
 * write error (which the close reports).
 */
int ibfs__capture_pfc(struct ibfs_capture *c, const struct ibfs_port *out,
		      ibfs_time_t start, uint8_t enable,
		      const uint16_t quanta[8]);

#endif
