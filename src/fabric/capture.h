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
 */
#ifndef IBFS_FABRIC_CAPTURE_H
#define IBFS_FABRIC_CAPTURE_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/port_set.h"

struct ibfs_capture;

struct ibfs_capture_opts {
	const struct ibfs_port_set *ports; /* NULL: the default above */
	uint32_t snaplen;                  /* bytes kept; 0: all */
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

#endif
