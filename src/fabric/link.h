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

/*
 * Link-level flow control, kept apart from the devices so that another link
 * kind (Ethernet with PFC and drops) can replace InfiniBand's credits
 * without touching the switch or the HCA. The link layer calls these hooks;
 * credits.c implements them for InfiniBand (ibfs__ib_credit_flow).
 */
struct ibfs_flow_ops {
	const char *name;
	/* Start-up: sets credits and buffers of a freshly connected port. */
	void (*init)(struct ibfs_port *port);
	/* 1 if `out` may start p now as far as flow control is concerned. */
	int (*may_send)(const struct ibfs_port *out,
			const struct ibfs_packet *p);
	/* p starts on `out`: take what it needs (credits). */
	void (*on_send)(struct ibfs_port *out, const struct ibfs_packet *p);
	/*
	 * p's header reached `in`: occupy input buffer. Returns 0 to accept,
	 * -1 to discard (only where the link kind allows it, e.g. VL15).
	 */
	int (*on_arrive)(struct ibfs_port *in, const struct ibfs_packet *p);
	/* The device freed `blocks` of VL `vl` of `in`'s input buffer. */
	void (*on_free)(struct ibfs_port *in, int vl, uint32_t blocks);
	/*
	 * `out`'s transmitter went idle: the hook may use it for a control
	 * packet (returns 1; tx_ready is then called once it is idle again)
	 * or leave it to the device (returns 0).
	 */
	int (*on_tx_idle)(struct ibfs_port *out);
	/*
	 * Optional: `out`'s transmitter has just ended what it was sending,
	 * before anybody looks at it (flow control takes in what it deferred
	 * until then).
	 */
	void (*on_tx_end)(struct ibfs_port *out);
	/*
	 * Optional: the link direction leaving `out` was (re)initialised, at
	 * a link going down or coming up (link_state.c): flow control starts
	 * again from what the peer's input buffer really has free.
	 */
	void (*link_reset)(struct ibfs_port *out);
};

extern const struct ibfs_flow_ops ibfs__ib_credit_flow;

/*
 * VL15 is not flow controlled (IBA 7.9.4) and has its own buffer; IBA asks
 * for room for at least one 256-byte MAD packet. We give it room for four
 * MAD packets of 290 wire bytes (LRH 8 + BTH 12 + DETH 8 + MAD 256 + ICRC 4
 * + VCRC 2), i.e. 4 x 5 blocks: a choice, not an IBA number.
 */
#define IBFS_VL15_BUF_BLOCKS 20

/* What the link layer asks of a device. */
struct ibfs_device_ops {
	const char *kind; /* "switch", "hca" */
	/*
	 * The header of p has arrived on port `in` at p->head_at; its last
	 * byte arrives at p->tail_at. This is called at p->head_at, or later
	 * if the device asked for it (port->rx_delay, port->rx_at_tail). The
	 * packet occupies p->blocks of the input buffer of its VL until the
	 * device calls ibfs__port_consume.
	 */
	void (*receive)(struct ibfs_device *dev, struct ibfs_port *in,
			struct ibfs_packet *p);
	/* Port `out` may now send: its transmitter went idle or got credits. */
	void (*tx_ready)(struct ibfs_device *dev, struct ibfs_port *out);
	/*
	 * Optional: the last byte of the data packet sent on `out` has left,
	 * now. Called before flow control may take the idle transmitter for a
	 * flow-control packet, and before tx_ready.
	 */
	void (*tx_done)(struct ibfs_device *dev, struct ibfs_port *out);
	/*
	 * Optional: the link of `port` went down (up 0) or came up (up 1),
	 * now (ibfs__fabric_link_set). Both ends of the link are already in
	 * their new state. tx_ready follows on an idle transmitter, so a
	 * device needs this only to react otherwise (e.g. an HCA's async
	 * event IBV_EVENT_PORT_ERR).
	 */
	void (*port_state)(struct ibfs_device *dev, struct ibfs_port *port,
			   int up);
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

/*
 * One port and the link direction leaving it. The fields are laid out by
 * how often an event touches them (bench_fabric: the fat tree's cost is
 * mostly cache misses on ports): the first two 64-byte lines hold what
 * every packet hop reads, the third the counters, then the per-VL arrays
 * (entries 0 and 1 of the hot ones are what a fabric of one or two data
 * VLs touches), then what set-up and reports use. The fabric allocates
 * ports 64-byte aligned (fabric.c).
 */
struct ibfs_port {
	/*
	 * Hot, first line: also what the far end of the link reads of this
	 * port (rx_delay and rx_at_tail when it sends to us, wire_pkts when
	 * our packet arrives there, tx_busy, tx_free_at and fc_deferred when
	 * its FCP comes to us).
	 */
	_Alignas(64) struct ibfs_port *peer; /* NULL when unconnected */
	/* Flow control of the link direction leaving this port. */
	const struct ibfs_flow_ops *flow;
	struct ibfs_device *dev; /* NULL until a device is attached */
	ibfs_time_t tx_free_at;  /* the transmitter is idle from then on */
	/*
	 * Set by the receiving device: `receive` is called rx_delay after the
	 * header arrived (a switch's routing latency), or after the tail
	 * arrived when rx_at_tail is set (an end node or a store-and-forward
	 * switch that needs the whole packet), so that the device needs no
	 * timer of its own; p->head_at and p->tail_at still hold the arrival
	 * times. Until then the packet counts as on the wire.
	 */
	ibfs_time_t rx_delay;
	/*
	 * Flow-control packets occupy the transmitter until then; a data
	 * packet sent earlier starts at that time (see ibfs__port_send).
	 */
	ibfs_time_t fcp_until;
	ibfs_time_t prop;
	/* Sender side: packets on the wire, header not yet in. */
	uint32_t wire_pkts;
	/*
	 * Sender side: credits whose FCP has arrived (or will arrive) while
	 * this port's transmitter is busy and ends later; nothing can look
	 * at them before it ends, so they are taken in at link_tx_done
	 * rather than by an event of their own (credits.c). Still counted
	 * in the peer's fc_wire until then.
	 */
	uint16_t fc_deferred;    /* VLs with vls[].fc_defer > 0, a bit each */
	uint8_t tx_busy;
	uint8_t rx_at_tail;

	/* Hot, second line: this port's own state. */
	struct ibfs_fabric *fab;
	/* Cached serialization times of the LRH and of an FCP on this port. */
	ibfs_time_t ser_lrh, ser_fcp;
	/* One-entry cache of ibfs__port_ser: bytes and their time. */
	uint64_t ser_memo_bytes;
	ibfs_time_t ser_memo;
	int tx_data;             /* the transmitter is sending a data packet */
	int up;                  /* 1 when the link carries packets */
	int waiting;             /* PortXmitWait: data waits for credits */
	int num;
	uint16_t fc_pending;     /* VLs with vls[].fc_unsent > 0, a bit each */
	/*
	 * Packets still travelling toward this port that were on the wire
	 * when the link went down: they are already counted as dropped, and
	 * the next rx_lost arrivals are freed unseen (link_state.c). Zero
	 * but after a fault, so the arrival tests it in one branch.
	 */
	uint32_t rx_lost;

	struct ibfs_port_counters cnt;
	uint64_t fcp_sent;       /* flow-control packets sent */
	/* PortXmitWait bookkeeping: since when data has waited for credits. */
	ibfs_time_t wait_since;

	/*
	 * Per-VL state that only the link layer reads, one small struct per
	 * VL so that what a hop touches on a VL shares one cache line (the
	 * arrays below are read by reports and tests and keep their shape).
	 * All counts are in 64-byte blocks.
	 */
	struct ibfs_port_vl {
		uint32_t buf_used;    /* this port's input buffer in use */
		uint32_t buf_top;     /* the largest buf_used so far */
		uint32_t wire_blocks; /* sender: on the wire, header not in */
		uint32_t fc_unsent;   /* receiver: freed, not yet advertised */
		/*
		 * Sender: credits that came while the transmitter was busy
		 * and will be taken in when it ends (fc_deferred above).
		 */
		uint32_t fc_defer;
	} vls[IBFS_MAX_VLS];
	/* Credits held for the peer's input buffer, per VL, in blocks. */
	int32_t credits[IBFS_MAX_VLS];
	/*
	 * Receiver side: blocks advertised in flow-control packets still on
	 * the wire.
	 */
	uint32_t fc_wire[IBFS_MAX_VLS];
	/* This port's input buffer, per VL, in blocks: its size and the
	 * largest use so far (a copy of vls[].buf_top, written when it
	 * grows). */
	uint32_t buf_peak[IBFS_MAX_VLS];
	uint32_t buf_cap[IBFS_MAX_VLS];

	/* Cold: set-up, reports, management. */
	int node;                /* topology node index */
	int link;                /* topology link index, -1 when none */
	int data_vls;
	struct ibfs_rate rate;
	uint64_t vl15_dropped;   /* VL15 packets discarded for want of room */
	/*
	 * PortXmitDiscards (IBA 16.1.3.5): packets a device discarded
	 * instead of sending them on this port because it was down.
	 */
	uint64_t xmit_discards;
	/* Times the link of this port went down (LinkDownedCounter). */
	uint32_t link_downed;
};

/* 1 if `out` is idle, up, and holds credits for p on p->vl. */
int ibfs__port_can_send(const struct ibfs_port *out,
			const struct ibfs_packet *p);
/*
 * Starts sending p on `out` (the caller checked can_send): now, or when
 * the flow-control packets the transmitter is sending end (fcp_until, at
 * most a few FCP times later). Takes the credits, occupies the transmitter
 * for ser(wire_bytes), and schedules the arrival of p's header at the
 * peer: start + prop + ser(LRH). Calls the device's tx_done and tx_ready
 * when the transmitter is idle again.
 */
void ibfs__port_send(struct ibfs_port *out, struct ibfs_packet *p);
/*
 * The device on `in` is done with p's buffer space (p left the input
 * buffer): frees the blocks and returns the credits to the sender in a
 * flow-control packet on the reverse direction.
 */
void ibfs__port_consume(struct ibfs_port *in, const struct ibfs_packet *p);
/*
 * The same with the input VL and block count given explicitly, for devices
 * that rewrote p->vl (SL-to-VL at a switch output) before freeing the input.
 */
void ibfs__port_consume_blocks(struct ibfs_port *in, int vl, uint32_t blocks);
/* PortXmitWait: the device has data for `out` but no credits / stops so. */
void ibfs__port_wait_start(struct ibfs_port *out);
void ibfs__port_wait_stop(struct ibfs_port *out);
/* PortXmitWait so far, including a wait still in progress at now. */
ibfs_time_t ibfs__port_xmit_wait(const struct ibfs_port *out);
/* Serialization time of `bytes` on the port's link. */
static inline ibfs_time_t ibfs__port_ser(struct ibfs_port *port,
					 uint64_t bytes)
{
	if (bytes != port->ser_memo_bytes) {
		port->ser_memo_bytes = bytes;
		port->ser_memo = ibfs__rate_ser_time(port->rate, bytes);
	}
	return port->ser_memo;
}
/*
 * Occupies `out`'s transmitter for `dur` from now without a data packet
 * (flow-control packets); tx_ready follows when it is idle again.
 */
void ibfs__port_occupy(struct ibfs_port *out, ibfs_time_t dur);

#endif
