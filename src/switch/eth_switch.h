/* SPDX-License-Identifier: MIT */
/*
 * An Ethernet switch for RoCE fabrics: a shared packet buffer with
 * dynamic thresholds, eight egress queues per port under strict priority
 * or DWRR, cut-through or store-and-forward, PFC (IEEE 802.1Qbb) at
 * ingress for the lossless priorities with headroom computed from the
 * cable, and L3 forwarding by ECMP next hops (eth_routes.h).
 *
 * The switch is a device of the fabric (struct ibfs_device_ops) whose
 * ports use PFC as their link-level flow control (fabric/pfc.h).
 * Files: eth_switch.c (the device, forwarding, profiles), eth_buffer.c
 * (admission, thresholds, headroom), eth_egress.c (queues and scheduler).
 */
#ifndef IBFS_SWITCH_ETH_SWITCH_H
#define IBFS_SWITCH_ETH_SWITCH_H

#include <stdint.h>

#include "fabric/diag.h"
#include "fabric/eth.h"
#include "fabric/fabric.h"
#include "fabric/pfc.h"
#include "switch/eth_routes.h"

/* How a frame's next hop is picked among the ECMP next hops. */
enum ibfs_eth_pick {
	IBFS_ETH_PICK_HASH = 0,  /* the 5-tuple hash: a flow keeps its path */
	IBFS_ETH_PICK_RR,        /* per packet, round robin per destination */
	IBFS_ETH_PICK_RANDOM,    /* per packet, seeded random */
};

struct ibfs_eth_profile {
	const char *name;
	uint64_t buffer;         /* shared packet buffer, bytes */
	/* Pipelines that each have an equal slice of the buffer; a frame
	 * takes from its ingress port's slice (1: one pool). */
	uint32_t pipes;
	ibfs_time_t latency;     /* port to port, header in to header out */
	int store_forward;       /* 0: cut-through */
	uint32_t mtu;            /* largest frame, destination MAC to FCS */
	uint32_t peer_mtu;       /* the peers' (headroom); 0: mtu */
	/* Dynamic threshold of a lossy egress queue: alpha = num / den. */
	uint32_t alpha_num, alpha_den;
	/* Dynamic XOFF threshold of a lossless ingress (port, priority). */
	uint32_t pfc_alpha_num, pfc_alpha_den;
	uint32_t reserved;       /* minimum per ingress port and priority */
	uint32_t resume_offset;  /* XON this far below the XOFF threshold */
	/* The peer's reaction time to a PFC frame, for the headroom only
	 * (802.3 allows up to 394 quanta at 100 Gb/s; ours react at once). */
	ibfs_time_t peer_response;
	/* Headroom per lossless (port, priority): 0 computes it
	 * (ibfs__eth_headroom); else this many bytes. */
	uint64_t headroom;
	uint8_t lossless;        /* priorities with PFC */
	uint16_t quanta;         /* timer of the XOFF frames sent */
	uint8_t strict;          /* priorities under strict priority */
	uint32_t weight[IBFS_ETH_PRIOS]; /* DWRR weights of the others */
	enum ibfs_eth_pick pick;
};

/* Counters of one port and priority. */
struct ibfs_eth_prio_stats {
	uint64_t rx_frames, rx_bytes;  /* arrived on the port */
	uint64_t tx_frames, tx_bytes;  /* sent on the port */
	uint64_t drops;       /* lossy: tail drops at this egress queue */
	uint64_t hdrm_drops;  /* lossless: headroom overflow at ingress */
	uint64_t no_route;    /* arrived here with no next hop */
};

struct ibfs_eth_switch;

/*
 * Profiles: "generic-100g", "sn2700", "tomahawk" (sources in
 * eth_switch.c). NULL for an unknown name.
 */
const struct ibfs_eth_profile *ibfs__eth_profile(const char *name);

/*
 * Creates the switch of node `node` with a copy of `prof` and `routes`
 * (kept by reference), makes its linked ports PFC ports and attaches it.
 * NULL with a sentence in d when the buffer does not hold the reserved
 * minima and headroom, or out of memory.
 */
struct ibfs_eth_switch *ibfs__eth_switch_create(
	struct ibfs_fabric *f, int node, const struct ibfs_eth_profile *prof,
	const struct ibfs_eth_routes *routes, struct ibfs_diag *d);
void ibfs__eth_switch_destroy(struct ibfs_eth_switch *sw);
/* The Ethernet switch that is device dev, or NULL when it is none. */
struct ibfs_eth_switch *ibfs__eth_switch_of(struct ibfs_device *dev);

const struct ibfs_eth_prio_stats *
ibfs__eth_switch_stats(const struct ibfs_eth_switch *sw, int port, int prio);
/* Pause frames sent and received by a port, per priority (pfc.h). */
const struct ibfs_pfc_stats *
ibfs__eth_switch_pfc_stats(const struct ibfs_eth_switch *sw, int port);
/* Bytes in the egress queue of (port, prio) now, the frame on the wire
 * included (eth_egress.c). */
uint64_t ibfs__eth_switch_queue(const struct ibfs_eth_switch *sw, int port,
				int prio);
/* Bytes of the buffer in use now, and the most so far. */
uint64_t ibfs__eth_switch_used(const struct ibfs_eth_switch *sw);
uint64_t ibfs__eth_switch_peak(const struct ibfs_eth_switch *sw);
/* Shared pool of each pipe, bytes (what reserves and headroom leave). */
uint64_t ibfs__eth_switch_shared(const struct ibfs_eth_switch *sw);
/* Headroom of (port, prio), bytes; 0 for a lossy priority. */
uint64_t ibfs__eth_switch_headroom(const struct ibfs_eth_switch *sw,
				   int port, int prio);

/*
 * Headroom for a lossless priority on ingress port `in` (bytes), for the
 * bytes that still arrive once the switch decides XOFF (eth_buffer.c).
 */
uint64_t ibfs__eth_headroom(const struct ibfs_port *in,
			    const struct ibfs_eth_profile *prof);

#endif
