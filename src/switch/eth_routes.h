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

/*
 * Host ids (eth_routes.c). Every HCA port has one, linked or not, so that
 * ids do not shift when a cable is missing. A multi-port HCA has one host
 * id per port, as a dual-port RNIC has one IP and MAC address per port:
 * its ports are separate hosts to the fabric, each reached only over its
 * own link, and traffic between them goes through a switch.
 */
struct ibfs_eth_hosts {
	uint32_t n;      /* host ids 1..n */
	int *node;       /* [1..n]: topology node of each host id */
	uint8_t *port;   /* [1..n]: its port */
	uint32_t *first; /* [node]: host id of the node's port 1, 0: switch */
};

/* Host ids of t (its HCA ports), without building a table. */
uint32_t ibfs__eth_host_count(const struct ibfs_topology *t);

/* The table both ways; 0, or -1 with d filled (no memory, more hosts than
 * a 16-bit dlid holds). */
int ibfs__eth_hosts_init(struct ibfs_eth_hosts *hs,
			 const struct ibfs_topology *t, struct ibfs_diag *d);
void ibfs__eth_hosts_free(struct ibfs_eth_hosts *hs);

/* Host id of HCA port (node, port) of t, or 0 when it is none. */
uint32_t ibfs__eth_host_id(const struct ibfs_eth_hosts *hs,
			   const struct ibfs_topology *t, int node, int port);

/* Node and port of host id h: 0, or -1 when h is no host id. */
int ibfs__eth_host_port(const struct ibfs_eth_hosts *hs, uint32_t h,
			int *node, int *port);

/* Largest host id: the packet's dlid and slid are 16-bit. */
#define IBFS_ETH_MAX_HOSTS 0xFFFFu

/*
 * Every switch's next hops toward every host (per_switch has t->nnodes
 * entries, indexed by node; an HCA's entry is left empty): the output
 * ports on a shortest path, counting hops over switch-to-switch and
 * switch-to-HCA links, in increasing port order. A port with no peer or
 * no link is not used, nor a link flagged in link_down (t->nlinks flags,
 * or NULL for none): the topology itself has no link state, so a link
 * down at start-up is named there.
 * A switch's seed is derived from `seed` and its node index
 * (ibfs__eth_switch_seed). Returns 0, or -1 with d filled; on error
 * nothing is left allocated.
 */
int ibfs__eth_routes_build(const struct ibfs_topology *t, uint32_t seed,
			   struct ibfs_eth_routes *per_switch,
			   struct ibfs_diag *d);
int ibfs__eth_routes_build_down(const struct ibfs_topology *t, uint32_t seed,
				const uint8_t *link_down,
				struct ibfs_eth_routes *per_switch,
				struct ibfs_diag *d);

/* Frees the tables of per_switch[0..nnodes-1] (not the array). */
void ibfs__eth_routes_free(struct ibfs_eth_routes *per_switch, size_t nnodes);

/* Switch `node`'s hash seed in a run of seed `seed`: distinct switches of
 * one run always get distinct seeds. */
uint32_t ibfs__eth_switch_seed(uint32_t seed, int node);

/*
 * The port a switch with tables r sends packet p out of: one of its next
 * hops toward p->dlid, chosen by the 5-tuple hash with the switch's seed
 * (ibfs__eth_flow_hash) modulo their number, RFC 2992's modulo-N
 * selection; 0 when it has none.
 */
struct ibfs_packet;
int ibfs__eth_route_pick(const struct ibfs_eth_routes *r,
			 const struct ibfs_packet *p);

/*
 * A flow for the analysis below: source and destination host ids and the
 * destination QP, from which the sender derives the UDP source port
 * (ibfs__roce_udp_sport) that the switches hash with the addresses.
 */
struct ibfs_eth_flow {
	uint32_t src, dst;
	uint32_t qp;
};

/*
 * Follows each of the n flows hop by hop from its source's port through
 * the tables (ibfs__eth_route_pick at every switch) to its destination
 * and counts the flows on every directed link; load, when not NULL, gets
 * 2 * t->nlinks counts (link l from its a end at 2l, from its b end at
 * 2l + 1). Returns the largest count, or -1 with d filled when a flow
 * names no host, meets a switch with no next hop or a port with no link,
 * or does not arrive within t->nnodes hops.
 */
long ibfs__eth_flows_max_load(const struct ibfs_topology *t,
			      const struct ibfs_eth_routes *per_switch,
			      const struct ibfs_eth_flow *flows, size_t n,
			      uint32_t *load, struct ibfs_diag *d);

#endif
