/* SPDX-License-Identifier: MIT */
/*
 * The runtime fabric: the event queue, the ports and links built from a
 * topology, packet and payload pools, and the devices that upper layers
 * (switch, HCA) attach to its nodes. The fabric knows devices only through
 * struct ibfs_device_ops; it never calls up into a layer above.
 */
#ifndef IBFS_FABRIC_FABRIC_H
#define IBFS_FABRIC_FABRIC_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/event_queue.h"
#include "fabric/link.h"
#include "fabric/packet.h"
#include "fabric/pool.h"
#include "fabric/topology.h"

/* Observers see every packet transmission (captures, traces, statistics). */
struct ibfs_observer {
	void (*on_tx)(void *ctx, const struct ibfs_port *out,
		      const struct ibfs_packet *p, ibfs_time_t start);
	void *ctx;
	struct ibfs_observer *next;
};

struct ibfs_fabric {
	struct ibfs_eq eq;
	const struct ibfs_topology *topo;
	uint64_t seed;
	int data_mode;                 /* 1: payloads carry real bytes */
	uint32_t mtu;

	struct ibfs_device **devices;  /* by node index; NULL until attached */
	struct ibfs_port **ports;      /* ports[node][0..nports] */

	struct ibfs_pool packets;      /* struct ibfs_packet */
	struct ibfs_pool payloads;     /* MTU-sized payload buffers */
	uint64_t next_packet_id;

	/* Conservation (issue: injected = delivered + in flight). */
	uint64_t pkts_injected;
	uint64_t pkts_delivered;
	uint64_t pkts_dropped;

	struct ibfs_observer *observers;
};

/* Builds ports and links for topology t (kept by reference). */
struct ibfs_fabric *ibfs__fabric_new(const struct ibfs_topology *t,
				     uint64_t seed, int data_mode);
void ibfs__fabric_free(struct ibfs_fabric *f);

/* Gives node `node` its device; sets dev->fab, node, nports, ports. */
void ibfs__fabric_attach(struct ibfs_fabric *f, int node,
			 struct ibfs_device *dev);
static inline struct ibfs_port *ibfs__fabric_port(struct ibfs_fabric *f,
						  int node, int port)
{
	return &f->ports[node][port];
}
static inline ibfs_time_t ibfs__fabric_now(const struct ibfs_fabric *f)
{
	return f->eq.now;
}
void ibfs__fabric_observe(struct ibfs_fabric *f, struct ibfs_observer *o);

/* A zeroed packet from the pool, with a fresh id; NULL on exhaustion. */
struct ibfs_packet *ibfs__packet_new(struct ibfs_fabric *f);
/* An MTU-sized payload buffer (data mode only). */
uint8_t *ibfs__payload_new(struct ibfs_fabric *f);
/* Returns p and its payload to the pools. */
void ibfs__packet_free(struct ibfs_fabric *f, struct ibfs_packet *p);

#endif
