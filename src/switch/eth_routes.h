/* SPDX-License-Identifier: MIT */
/*
 * Forwarding of an Ethernet fabric run as a datacenter L3 fabric: no
 * subnet manager; shortest paths computed at start-up from the topology,
 * and at each switch the set of output ports on a shortest path toward
 * each host (the ECMP next hops). A switch picks one of them per frame by
 * the 5-tuple hash (fabric/eth.h, ibfs__eth_flow_hash, with its own seed)
 * or, when spraying, per packet.
 *
 * Hosts are the HCA ports of the topology, numbered by host id (the
 * Ethernet packet's dlid and slid, fabric/eth.h) from 1 in topology order:
 * node by node, port by port.
 */
#ifndef IBFS_SWITCH_ETH_ROUTES_H
#define IBFS_SWITCH_ETH_ROUTES_H

#include <stdint.h>

#include "fabric/diag.h"
#include "fabric/topology.h"

/*
 * One switch's next hops: toward host h (1..nhosts), the output ports
 * ports[off[h]] .. ports[off[h + 1] - 1], in increasing port order; none
 * when the host cannot be reached. off has nhosts + 2 entries.
 */
struct ibfs_eth_routes {
	uint32_t nhosts;
	uint32_t *off;
	uint8_t *ports;
	uint32_t seed; /* this switch's ECMP hash seed */
};

/* Next hops of switch `sw` toward host h, and their number. */
static inline const uint8_t *
ibfs__eth_next_hops(const struct ibfs_eth_routes *r, uint32_t h,
		    uint32_t *n)
{
	if (h < 1 || h > r->nhosts) {
		*n = 0;
		return r->ports;
	}
	*n = r->off[h + 1] - r->off[h];
	return r->ports + r->off[h];
}

#endif
