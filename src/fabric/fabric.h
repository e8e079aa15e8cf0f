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
#include <string.h>

#include "fabric/event_queue.h"
#include "fabric/link.h"
#include "fabric/packet.h"
#include "fabric/pool.h"
#include "fabric/topology.h"

/* Observers see every packet transmission (captures, traces, statistics). */
struct ibfs_observer {
	void (*on_tx)(void *ctx, const struct ibfs_port *out,
		      const struct ibfs_packet *p, ibfs_time_t start);
	/*
	 * Optional (NULL: not called): `out` starts (waiting 1) or stops
	 * (waiting 0) having data to send but no credits, at the current
	 * time: the edges of PortXmitWait (IBA 16.1.3.5). Used by traces.
	 */
	void (*on_wait)(void *ctx, const struct ibfs_port *out, int waiting);
	void *ctx;
	struct ibfs_observer *next;
};

/*
 * Listeners hear of every link going down or coming up (the subnet
 * management agents, which raise trap 128; results). Called once for each
 * end of the link, after both ends are in their new state.
 */
struct ibfs_port_listener {
	void (*port_state)(void *ctx, struct ibfs_port *port, int up);
	void *ctx;
	struct ibfs_port_listener *next;
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

	/*
	 * Conservation: injected + replicated = delivered + dropped + retired
	 * + in flight, where in flight = on a wire (header not yet arrived,
	 * ibfs__fabric_on_wire) + buffered (held by a device between header
	 * arrival and leaving). Replicated counts multicast copies made by
	 * switches; retired counts the originals they were copied from.
	 * Packets on the wires are not counted here: the ports count them
	 * anyway (link.h), and an arrival writes one counter less.
	 */
	uint64_t pkts_injected;
	uint64_t pkts_delivered;
	uint64_t pkts_dropped;
	uint64_t pkts_replicated;
	uint64_t pkts_retired;
	uint64_t pkts_buffered;
	/*
	 * Packets started on any link (the sum of the ports' xmit_pkts,
	 * which ibfs__fabric_check holds it to): the deadlock monitor's
	 * progress marker, read every timeout. Summing the ports there
	 * instead would cost O(ports) every timeout, most of a large run;
	 * a send writes it beside pkts_buffered.
	 */
	uint64_t pkt_sends;
	/*
	 * P_Key tables allocated (fabric/pkey.c): ibfs__fabric_free looks
	 * for them only when there are some. A full 8 bytes, so that the
	 * struct, and the heap layout after it, keep their size.
	 */
	uint64_t pkey_tables;
	uint64_t fcps;                 /* flow-control packets sent */
	/*
	 * Of pkts_dropped: packets that were on a link when it went down
	 * (link_state.c).
	 */
	uint64_t pkts_lost;

	/* Set by a device or monitor that stops the run (e.g. deadlock). */
	int stopped;
	/*
	 * Pending events that do not keep a run alive (a sampler's, which
	 * goes on only while something else does): ibfs__fabric_busy leaves
	 * them out. In the padding after `stopped`: the struct keeps its size.
	 */
	uint32_t quiet_events;

	struct ibfs_observer *observers;
	struct ibfs_port_listener *listeners;
};

/* Builds ports and links for topology t (kept by reference). */
struct ibfs_fabric *ibfs__fabric_new(const struct ibfs_topology *t,
				     uint64_t seed, int data_mode);
void ibfs__fabric_free(struct ibfs_fabric *f);

/*
 * Gives node `node` its device; sets dev->fab, node, nports, ports. Each of
 * its links whose other end has a device comes up, and the port_state hook
 * of each end's device is called (no listener, no tx_ready: devices are
 * attached before the run). Links start down (fabric_new): one set down
 * (ibfs__fabric_link_set) before its second device is attached stays down
 * here, until it is set up.
 */
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

/*
 * Faults (link_state.c). Takes the link of node:port down (up 0) or up
 * (up 1), both directions at once, now. Down: the packets on the wire in
 * either direction are lost (counted in pkts_dropped and pkts_lost), the
 * ports stop sending, devices are told. Up: flow control starts afresh
 * from the peers' free buffer (IBA 7.9.4.2) and idle transmitters get
 * tx_ready. Returns 1 if the state changed, 0 if the link was already in
 * that state or cannot come up (an end has no device yet: the link comes
 * up when its second device is attached, ibfs__fabric_attach, unless it
 * was last set down), -1 if node:port does not exist or has no link.
 */
int ibfs__fabric_link_set(struct ibfs_fabric *f, int node, int port, int up);
/*
 * Every linked port of node `node` (a whole switch failing or coming
 * back), in port order. Returns the number of links whose state changed,
 * or -1 if the node does not exist.
 */
int ibfs__fabric_switch_set(struct ibfs_fabric *f, int node, int up);
/*
 * Schedules one of the two at time t (>= now): port 0 means the whole node
 * (ibfs__fabric_switch_set), else the link of node:port. A fault scheduled
 * before the run starts runs ahead of other events due at the same time.
 * Returns 0, or -1 for a node or port that does not exist, a port with
 * no link, or a time in the past.
 */
int ibfs__fabric_fault_at(struct ibfs_fabric *f, ibfs_time_t t, int node,
			  int port, int up);
/* Adds or removes a listener (not owned by the fabric). */
void ibfs__fabric_listen(struct ibfs_fabric *f, struct ibfs_port_listener *l);
void ibfs__fabric_unlisten(struct ibfs_fabric *f,
			   struct ibfs_port_listener *l);

/*
 * Bookkeeping calls for devices. inject: a source device created p and is
 * about to send it (sets p->injected). deliver: p reached its destination
 * device, which frees it afterwards. drop: a device discards p (not for want
 * of buffer on a data VL: InfiniBand never does that). Each of deliver and
 * drop also ends p's stay in an input buffer if it had one. Inline: an end
 * node calls two of them on every packet.
 */
static inline void ibfs__fabric_inject(struct ibfs_fabric *f,
				       struct ibfs_packet *p)
{
	p->injected = f->eq.now;
	f->pkts_injected++;
}
/* p stops being counted as buffered (it leaves a device other than by send). */
static inline void ibfs__fabric_unhold(struct ibfs_fabric *f,
				       struct ibfs_packet *p)
{
	if (p->held) {
		p->held = 0;
		f->pkts_buffered--;
	}
}
static inline void ibfs__fabric_deliver(struct ibfs_fabric *f,
					struct ibfs_packet *p)
{
	ibfs__fabric_unhold(f, p);
	f->pkts_delivered++;
}
static inline void ibfs__fabric_drop(struct ibfs_fabric *f,
				     struct ibfs_packet *p)
{
	ibfs__fabric_unhold(f, p);
	f->pkts_dropped++;
}
/* Stops the run in progress at now (the event queue's horizon). */
void ibfs__fabric_stop(struct ibfs_fabric *f);

/*
 * Checks packet and credit conservation; returns 0, or -1 with a sentence
 * in msg (of size len) naming the first quantity that does not add up:
 * injected + replicated = delivered + dropped + retired + on wire +
 * buffered; the packet pool holds at least the packets in flight; and for
 * every connected port and data VL, credits held by the sender + blocks on
 * the wire + blocks occupied in the receiver's buffer + blocks freed but not
 * yet advertised + blocks advertised in flow-control packets on the wire =
 * the receiver's buffer. (An FCP to a sender busy until after it lands
 * adds its credits at once, credits.c: they count as held, not on the
 * wire.) The credit sum is checked on the link directions whose flow
 * control keeps credits (struct ibfs_flow_ops, keeps_credits).
 */
int ibfs__fabric_check(const struct ibfs_fabric *f, char *msg, size_t len);
/*
 * Packets on the wires (started, header not yet taken off at the far end),
 * from the ports' counts: O(ports), for checks and reports.
 */
uint64_t ibfs__fabric_on_wire(const struct ibfs_fabric *f);
/*
 * Packets started on any link so far (ibfs__port_send): a progress marker
 * (src/switch/deadlock.c).
 */
static inline uint64_t ibfs__fabric_sends(const struct ibfs_fabric *f)
{
	return f->pkt_sends;
}
/* Packets in flight: on a wire or held in an input buffer. O(ports). */
static inline uint64_t ibfs__fabric_in_flight(const struct ibfs_fabric *f)
{
	return ibfs__fabric_on_wire(f) + f->pkts_buffered;
}

/*
 * 1 while the run has something left to do: a packet in flight, or an
 * event pending other than the quiet ones. The periodic monitors go on
 * only while it is so, lest two of them keep each other alive.
 */
static inline int ibfs__fabric_busy(const struct ibfs_fabric *f)
{
	return ibfs__eq_size(&f->eq) > f->quiet_events ||
	       ibfs__fabric_in_flight(f) > 0;
}

/*
 * Out of memory for a packet or a payload: marks the run (eq.nomem) and
 * stops it now (ibfs__fabric_stop); returns NULL for the caller to pass on.
 * A device that gets no packet gives up what it was doing; the run then
 * ends at once and reports the failure, rather than going on with a flow
 * silently stalled or a packet silently without its bytes.
 */
void *ibfs__fabric_nomem(struct ibfs_fabric *f);
/*
 * A zeroed packet from the pool, with a fresh id; NULL on exhaustion (the
 * run is then stopped, ibfs__fabric_nomem).
 */
struct ibfs_packet *ibfs__packet_new(struct ibfs_fabric *f);
/*
 * The same for a packet that will carry no extension header but ImmDt or
 * IETH (xh flags no other; a raw packet): lines 0 and 1 are zeroed, the
 * rest (RETH, AETH, DETH, AtomicETH, AtomicAckETH) keeps what the pool
 * left there, which nobody reads (they are read only as xh flags them).
 * Writing two lines instead of four spares a saturated fabric's end
 * nodes the write misses on the other two.
 */
static inline struct ibfs_packet *
ibfs__packet_new_raw(struct ibfs_fabric *f)
{
	struct ibfs_packet *p = ibfs__pool_get(&f->packets);

	if (!p)
		return ibfs__fabric_nomem(f);
	/*
	 * A line at a time: GCC makes one memset of 64 bytes four vector
	 * stores, but one of 128 bytes a rep stos, slow to start.
	 */
	memset(p, 0, 64);
	memset((char *)p + 64, 0, IBFS_PKT_HOT_BYTES - 64);
	p->id = f->next_packet_id++;
	return p;
}
/* An MTU-sized payload buffer (data mode only); NULL as packet_new. */
uint8_t *ibfs__payload_new(struct ibfs_fabric *f);
/*
 * A MAD as a packet (IBA 13.4, 13.5): LRH with the BTH next (LNH 2), BTH
 * of a UD SEND Only to QP `qp` with P_Key `pkey`, DETH with `qkey` and
 * source QP `qp`, and a 256-byte payload for the caller to fill before
 * ibfs__packet_finish. Kind IBFS_PKT_MGMT. NULL when a pool ran out.
 */
struct ibfs_packet *ibfs__mad_packet_new(struct ibfs_fabric *f, uint16_t dlid,
					 uint16_t slid, uint8_t sl,
					 uint8_t vl, uint16_t pkey,
					 uint32_t qp, uint32_t qkey);
/* Returns p and its payload to the pools. */
static inline void ibfs__packet_free(struct ibfs_fabric *f,
				     struct ibfs_packet *p)
{
	/* A payload always comes from ibfs__payload_new. */
	if (p->payload)
		ibfs__pool_put(&f->payloads, p->payload);
	ibfs__pool_put(&f->packets, p);
}

#endif
