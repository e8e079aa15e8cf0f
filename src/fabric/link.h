/* SPDX-License-Identifier: MIT */
/*
 * Ports, links and the device interface: the link layer.
 *
 * A device (HCA or switch, defined in upper layers) owns ports; a link joins
 * two ports, one per direction, each with a data rate and a propagation
 * delay. Sending a packet occupies the transmitter for its serialization
 * time; the receiving device is told when the packet's header has arrived
 * (cut-through) and learns when its tail will arrive.
 *
 * Flow control is a separate concern behind struct ibfs_flow_ops: InfiniBand
 * uses credits per data VL (credits.c, IBA 7.9.4); an Ethernet link will use
 * PFC and drops instead, without the devices changing.
 */
#ifndef IBFS_FABRIC_LINK_H
#define IBFS_FABRIC_LINK_H

#include <stdint.h>

#include "fabric/link_rate.h"
#include "fabric/packet.h"
#include "fabric/time.h"

struct ibfs_fabric;
struct ibfs_device;
struct ibfs_port;

/* What the link layer asks of a device. */
struct ibfs_device_ops {
	const char *kind; /* "switch", "hca" */
	/*
	 * The header of p has arrived on port `in` at now (p->head_at); its last
	 * byte arrives at p->tail_at. The packet occupies p->blocks of the input
	 * buffer of its VL until the device calls ibfs__port_consume.
	 */
	void (*receive)(struct ibfs_device *dev, struct ibfs_port *in,
			struct ibfs_packet *p);
	/* Port `out` may now send: its transmitter went idle or got credits. */
	void (*tx_ready)(struct ibfs_device *dev, struct ibfs_port *out);
};

struct ibfs_device {
	const struct ibfs_device_ops *ops;
	struct ibfs_fabric *fab;
	int node;                /* index in the topology */
	int nports;
	struct ibfs_port *ports; /* [0..nports], owned by the fabric */
};

/* PortCounters (IBA 16.1.3.5), kept in bytes and picoseconds. */
struct ibfs_port_counters {
	uint64_t xmit_data;      /* bytes sent (PortXmitData counts words) */
	uint64_t rcv_data;
	uint64_t xmit_pkts;
	uint64_t rcv_pkts;
	ibfs_time_t xmit_wait;   /* data waiting, no credits (PortXmitWait) */
	ibfs_time_t busy;        /* time the transmitter was sending */
};

struct ibfs_port {
	struct ibfs_device *dev;
	int num;
	struct ibfs_port *peer; /* NULL when unconnected */
	int link;               /* topology link index, -1 when none */
	int up;                 /* link state: 1 when the link carries packets */
	struct ibfs_rate rate;
	ibfs_time_t prop;
	int data_vls;

	/* Transmitter. */
	ibfs_time_t tx_free_at;   /* the transmitter is idle from then on */
	int tx_busy;

	/* Credits held for the peer's input buffer, per VL, in blocks. */
	int32_t credits[IBFS_MAX_VLS];
	/* This port's input buffer, per VL, in blocks. */
	uint32_t buf_cap[IBFS_MAX_VLS];
	uint32_t buf_used[IBFS_MAX_VLS];
	uint32_t buf_peak[IBFS_MAX_VLS];

	/* PortXmitWait bookkeeping: since when data has waited for credits. */
	ibfs_time_t wait_since;
	int waiting;

	struct ibfs_port_counters cnt;
};

/* 1 if `out` is idle, up, and holds credits for p on p->vl. */
int ibfs__port_can_send(const struct ibfs_port *out,
			const struct ibfs_packet *p);
/*
 * Starts sending p on `out` now (the caller checked can_send). Takes the
 * credits, occupies the transmitter for ser(wire_bytes), and schedules the
 * arrival of p's header at the peer: now + prop + ser(LRH). Calls the
 * device's tx_ready when the transmitter is idle again.
 */
void ibfs__port_send(struct ibfs_port *out, struct ibfs_packet *p);
/*
 * The device on `in` is done with p's buffer space (p left the input
 * buffer): frees the blocks and returns the credits to the sender in a
 * flow-control packet on the reverse direction.
 */
void ibfs__port_consume(struct ibfs_port *in, const struct ibfs_packet *p);
/* PortXmitWait: the device has data for `out` but no credits / stops so. */
void ibfs__port_wait_start(struct ibfs_port *out);
void ibfs__port_wait_stop(struct ibfs_port *out);

#endif
