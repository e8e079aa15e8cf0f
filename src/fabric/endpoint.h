/* SPDX-License-Identifier: MIT */
/*
 * A minimal end node for tests and benchmarks of links and switches: a
 * device with one port and no processing time. It injects raw packets from
 * flows (destination LID, SL, payload size, count, start time, either back
 * to back at line rate or one every `gap`) and sinks whatever it receives,
 * recording when heads and tails arrived. It is not an HCA: no transport,
 * no queue pairs (src/hca models those).
 */
#ifndef IBFS_FABRIC_ENDPOINT_H
#define IBFS_FABRIC_ENDPOINT_H

#include <stdint.h>

#include "fabric/fabric.h"

struct ibfs_endpoint;

/*
 * Draws the next packet of a generated flow (e.g. uniform random traffic):
 * fills *dlid and *sl. Returns 0, or -1 to end the flow early.
 */
typedef int (*ibfs_ep_gen_fn)(void *ctx, struct ibfs_endpoint *ep,
			      uint16_t *dlid, uint8_t *sl);

struct ibfs_ep_flow_spec {
	uint16_t dlid;
	uint8_t sl;
	uint8_t lnh;          /* LRH LNH: 0 raw (default), 2 IBA local */
	uint32_t payload;     /* bytes, at most the fabric MTU */
	uint64_t count;       /* packets */
	ibfs_time_t start;    /* absolute time of the first packet */
	ibfs_time_t gap;      /* between packet starts; 0: back to back */
	ibfs_ep_gen_fn gen;   /* optional: draws dlid and sl per packet */
	void *gen_ctx;
};

/*
 * What a send writes first, then what an arrival writes (endpoint.c). The
 * two send counts are not neighbours: GCC's SLP vectorizer made them one
 * 16-byte add built in a vector register, more instructions than two adds.
 */
struct ibfs_ep_stats {
	uint64_t tx_pkts;
	ibfs_time_t last_tx_end;            /* transmitter idle after last */
	uint64_t tx_payload;
	uint64_t rx_pkts, rx_payload, rx_wire;
	ibfs_time_t first_head, first_tail; /* of the first packet received */
	ibfs_time_t last_head, last_tail;   /* of the last packet received */
	uint64_t misrouted;   /* DLID not ours */
	uint64_t data_errors; /* payload bytes not as sent */
};

/*
 * Bytes, 16-byte aligned, inside the endpoint for the state of a flow's
 * generator (ibfs__endpoint_gen_area): kept there, the state is in a line
 * that the link layer fetches with the endpoint's own when the endpoint
 * may send, while a separate block would be fetched only once the pump
 * reads gen_ctx (endpoint.c).
 */
#define IBFS_EP_GEN_BYTES 40

struct ibfs_endpoint *ibfs__endpoint_create(struct ibfs_fabric *f, int node);
void ibfs__endpoint_destroy(struct ibfs_endpoint *ep);

/* Base LID and LMC (IBA 7.11.1): the port answers to 2^lmc LIDs. */
void ibfs__endpoint_set_lid(struct ibfs_endpoint *ep, uint16_t lid,
			    uint8_t lmc);
/* SL-to-VL of the endpoint's port (default: VL = SL mod data VLs). */
void ibfs__endpoint_set_sl2vl(struct ibfs_endpoint *ep, int sl, int vl);
/*
 * Adds a flow; it starts at spec->start (not before the current time).
 * Returns 0, or -1 with a sentence in d for bad parameters.
 */
int ibfs__endpoint_add_flow(struct ibfs_endpoint *ep,
			    const struct ibfs_ep_flow_spec *spec,
			    struct ibfs_diag *d);
/*
 * Records, for the next `cap` packets received, their source LID and head
 * and tail arrival times, and counts packets per source LID up to max_lid.
 */
int ibfs__endpoint_track(struct ibfs_endpoint *ep, uint32_t max_lid,
			 uint32_t cap);

const struct ibfs_ep_stats *
ibfs__endpoint_stats(struct ibfs_endpoint *ep);
/* Packets received from source LID `slid` (needs ibfs__endpoint_track). */
uint64_t ibfs__endpoint_rx_from(const struct ibfs_endpoint *ep, uint16_t slid);
/* The i-th recorded arrival; returns -1 when i is out of range. */
int ibfs__endpoint_arrival(const struct ibfs_endpoint *ep, uint32_t i,
			   uint16_t *slid, ibfs_time_t *head,
			   ibfs_time_t *tail);
struct ibfs_port *ibfs__endpoint_port(struct ibfs_endpoint *ep);
/*
 * IBFS_EP_GEN_BYTES zeroed bytes that the endpoint keeps for a generator's
 * state (its gen_ctx may point there), for as long as the endpoint lives.
 */
void *ibfs__endpoint_gen_area(struct ibfs_endpoint *ep);

#endif
