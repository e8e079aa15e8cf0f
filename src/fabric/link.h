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

#include <stddef.h>
#include <stdint.h>

#include "fabric/event_queue.h"
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
	 * p's header reached `in`: occupy input buffer (the credits count
	 * it in the VL's buf_used and buf_top, which results report as the
	 * buffer's peak). Returns 0 to accept, -1 to discard (only where the
	 * link kind allows it, e.g. VL15).
	 */
	int (*on_arrive)(struct ibfs_port *in, const struct ibfs_packet *p);
	/*
	 * The device freed `blocks` of VL `vl` of `in`'s input buffer: what
	 * on_arrive occupied (the credits: buf_used) is free again.
	 */
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
	/*
	 * 1 when the hooks keep IBA's credit state in the ports' per-VL
	 * fields (credits, buf_used, fc_unsent and the FCPs on the wire):
	 * ibfs__fabric_check then holds each link direction to credit
	 * conservation. A link kind without credits (drops, pause frames)
	 * leaves it 0 and is held to packet conservation only.
	 */
	int keeps_credits;
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
	/*
	 * Port `out` may now send: its transmitter went idle or got credits.
	 * Not optional (every device has one; the link layer calls it
	 * without testing).
	 */
	void (*tx_ready)(struct ibfs_device *dev, struct ibfs_port *out);
	/*
	 * Optional: the last byte of the data packet sent on `out` has left,
	 * now. Called before flow control may take the idle transmitter for a
	 * flow-control packet, and before tx_ready. A device sends its next
	 * packet on `out` from tx_ready, not from here: one started here would
	 * go ahead of the FCPs owed on `out`, which IBA 7.9.4 sends at the
	 * first gap between packets (link.c copes, sending them after it).
	 */
	void (*tx_done)(struct ibfs_device *dev, struct ibfs_port *out);
	/*
	 * Optional: the link of `port` went down (up 0) or came up (up 1),
	 * now: called at every change of port->up, on both ends, which are
	 * already in their new state. During a run (ibfs__fabric_link_set)
	 * tx_ready follows on an idle transmitter, so a device needs this
	 * only to react otherwise (e.g. an HCA's async event
	 * IBV_EVENT_PORT_ERR, or a switch's copy of its outputs' state);
	 * at set-up, when the second device of a link is attached
	 * (ibfs__fabric_attach), nothing follows.
	 */
	void (*port_state)(struct ibfs_device *dev, struct ibfs_port *port,
			   int up);
	/*
	 * P_Key table entries of each port of the device (IBA 14.2.5.7;
	 * NodeInfo PartitionCap), 0 for none (fabric/pkey.h).
	 */
	uint16_t pkey_cap;
};

struct ibfs_device {
	const struct ibfs_device_ops *ops;
	struct ibfs_fabric *fab;
	int node;                /* index in the topology */
	int nports;
	struct ibfs_port *ports; /* [0..nports], owned by the fabric */
};

/*
 * PortCounters (IBA 16.1.3.5), kept in bytes and picoseconds. The order
 * serves struct ibfs_port's lines: busy, xmit_wait and xmit_data end the
 * sender's line (line 1), the three others begin line 2, which an arrival
 * and a send touch anyway. The two a send counts are not neighbours, nor
 * the two an arrival counts: side by side, GCC's SLP vectorizer made each
 * pair a 16-byte add built in a vector register, four instructions where
 * two adds do.
 */
struct ibfs_port_counters {
	ibfs_time_t busy;        /* time the transmitter was sending */
	ibfs_time_t xmit_wait;   /* data waiting, no credits (PortXmitWait) */
	/* Bytes sent, VCRC included; PortXmitData in IBA's words is
	 * derived from it and xmit_pkts (results.c, ports.csv). */
	uint64_t xmit_data;
	uint64_t rcv_data;
	uint64_t xmit_pkts;
	uint64_t rcv_pkts;
};

/*
 * Per-VL state of a port, in 64-byte blocks: both what the port does as a
 * sender on the link leaving it and as a receiver on the link coming in.
 * Everything a packet hop reads or writes on one data VL of a port is
 * here, so a hop on VL v touches vls[v] and nothing else per VL; it is 32
 * bytes, so VL 0 shares a line with the counters a hop writes and the
 * other VLs sit two a line.
 * Blocks on the wire are not counted by one side: the sender counts the
 * blocks it started, the receiver those whose header came off the wire,
 * and their difference is what is on the wire (ibfs__port_wire_blocks), so
 * an arrival writes only the receiving port. Credits in FCPs on the wire
 * are counted the same way, the other way round: the receiver counts
 * those it sent in an FCP that travels as an event, the sender those such
 * FCPs brought (ibfs__port_fcp_blocks), so an FCP's arrival writes only
 * the sender's VL.
 */
struct ibfs_port_vl {
	/* Sender: credits held for the peer's input buffer. */
	int32_t credits;
	/* Sender: blocks started on the link, modulo 2^32. */
	uint32_t tx_blocks;
	/*
	 * Sender: credits that FCP events brought, modulo 2^32 (credits an
	 * FCP adds at once, to a sender busy until after it arrives, are
	 * counted neither here nor in the peer's fc_sent).
	 */
	uint32_t fc_got;
	/* Receiver: blocks whose header came off the wire, modulo 2^32. */
	uint32_t rx_blocks;
	uint32_t buf_used;    /* receiver: input buffer in use */
	uint32_t buf_top;     /* receiver: the largest buf_used so far */
	uint32_t fc_unsent;   /* receiver: freed, not yet advertised */
	/* Receiver: credits sent in FCP events, modulo 2^32. */
	uint32_t fc_sent;
};

/*
 * One port and the link direction leaving it. The fields are laid out by
 * which event touches them (in a large fabric a hop's cost is mostly
 * cache misses on ports), one 64-byte line each:
 * - line 0, the port: what every event at the port reads (peer, flow,
 *   device, the fc_state word), what the far end writes when it sends to
 *   us (peer_free_at), and the transmitter's state that a flow-control
 *   packet (FCP) reads and writes besides (fcp_until, prop, ser_fcp);
 * - line 1, the sender's: what a send reads and writes besides, with
 *   copies of what the receiving end asked for (peer_rx_delay,
 *   peer_rx_tail), so that a send reads nothing of the peer's port, and
 *   the first three PortCounters;
 * - line 2, the other three PortCounters (an arrival counts two, a send
 *   one), the arrival's rx_lost, fcp_sent, and the state of VL 0;
 * - then VLs 1 on, two a line, then what set-up and reports use.
 * So on VL 0 an arrival touches lines 0 and 2 of the receiving port and
 * nothing of the sender's; a send lines 0-2 of the sender and writes
 * peer_free_at in line 0 of the receiver; the end of a transmission line
 * 0; a buffer freed and its FCP lines 0 and 2 of the receiver (not line
 * 1, which a receiver's sends leave cold), and of the sender nothing or,
 * when its transmitter is busy until after the FCP arrives, line 2. On
 * another VL the VL's own line is touched besides. The fabric allocates
 * ports 64-byte aligned (fabric.c).
 *
 * The device's fabric is read as dev->fab on the hot paths (the device's
 * first line, which an arrival reads anyway for dev->ops), so that the
 * port's own copy, `fab`, can stay with the cold fields.
 */
struct ibfs_port {
	/* Line 0. */
	_Alignas(64) struct ibfs_port *peer; /* NULL when unconnected */
	/* Flow control of the link direction leaving this port. */
	const struct ibfs_flow_ops *flow;
	struct ibfs_device *dev; /* NULL until a device is attached */
	/*
	 * A copy of the peer's tx_free_at, written when the peer occupies
	 * its transmitter: an FCP this port sends tells from it whether the
	 * peer's transmitter is busy until after the FCP arrives (credits.c)
	 * without reading the peer's port: a transmitter idle only from
	 * peer_free_at on is busy while peer_free_at > now.
	 */
	ibfs_time_t peer_free_at;
	/*
	 * Flow-control packets occupy the transmitter until then; a data
	 * packet sent earlier starts at that time (see ibfs__port_send).
	 */
	ibfs_time_t fcp_until;
	ibfs_time_t prop;
	/* Cached serialization time of an FCP on this port. */
	ibfs_time_t ser_fcp;
	/*
	 * What a buffer freed asks before its FCP may go at once (idle, up,
	 * owing nothing else): one word, so that the test is one compare
	 * with IBFS_FC_READY (ibfs__port_fcp_ready). up and tx_busy are 0
	 * or 1, and up is 1 only on a linked port (peer set) whose two ends
	 * have a device (ibfs__fabric_attach).
	 */
	union {
		struct {
			/* VLs with vls[].fc_unsent > 0, a bit each. */
			uint16_t fc_pending;
			uint8_t up;      /* 1 when the link carries packets */
			uint8_t tx_busy;
		};
		/* up and tx_busy as one (ibfs__port_idle_up). */
		struct {
			uint8_t fc_pending_bytes[2];
			uint16_t up_busy;
		};
		uint32_t fc_state;
	};
	uint8_t tx_data;         /* the transmitter is sending a data packet */
	/*
	 * Set by a device that takes packets at their tail: a line of the
	 * device (counted in 64 bytes from dev) that its receive reads
	 * besides the first, which the end of the transmission toward this
	 * port fetches with the first (link.c); 0 for none. A hint only.
	 */
	uint8_t rx_dev_line;
	uint16_t num;            /* port number, under 256 (p->in_port) */

	/* Line 1. */
	ibfs_time_t tx_free_at;  /* the transmitter is idle from then on */
	/*
	 * Cached serialization time of the LRH on this port: 8 bytes take
	 * under 2^32 ps at any rate above 15 kb/s (32 bits, so that tx_end
	 * fits this line).
	 */
	uint32_t ser_lrh;
	/*
	 * One-entry cache of ibfs__port_ser (a switch's arbiter asks it for
	 * each candidate): a size and its time, kept when both fit 32 bits.
	 */
	uint32_t ser_memo_bytes;
	uint32_t ser_memo;
	uint8_t waiting;         /* PortXmitWait: data waits for credits */
	uint8_t peer_rx_tail;
	/*
	 * Set by the device: 1 asks that the end of a transmission fetch
	 * ahead the device's first line (which holds ops) rather than the
	 * peer's line 0 (link.c), 3 its first three lines, for a device
	 * whose lines do not stay cached (an end node among many) and
	 * whose tx_ready reads them. A hint only.
	 */
	uint8_t tx_end_dev;
	/*
	 * While the transmitter is busy (tx_busy), the event of its end,
	 * with the index of its handler among link.c's four in the low bits
	 * (events are 64-byte slots): a buffer freed meanwhile switches
	 * that event to the handler that sends the owed FCPs
	 * (ibfs__link_end_owes). Stale when idle.
	 */
	uintptr_t tx_end;
	/*
	 * The peer's rx_delay and rx_at_tail (below), copied here by
	 * ibfs__port_set_rx, which is how a device sets them: a send
	 * computes when to tell the receiving device from its own line,
	 * not from the peer's line 0, which is cold at saturation.
	 */
	ibfs_time_t peer_rx_delay;
	/*
	 * Lines 1-2: the counters. Packets started on the link are
	 * cnt.xmit_pkts, and those taken off it at the far end
	 * ibfs__port_rx_pkts, so the packets on the wire are their
	 * difference (ibfs__port_wire_pkts) and no other count is kept.
	 */
	_Alignas(8) struct ibfs_port_counters cnt;
	/*
	 * Line 2. Packets still travelling toward this port that were on
	 * the wire when the link went down: they are already counted as
	 * dropped, and the next rx_lost arrivals are freed unseen
	 * (link_state.c). Zero but after a fault, so the arrival tests it
	 * in one branch.
	 */
	uint32_t rx_lost;
	/* Flow-control packets sent, modulo 2^32 (tests read it). */
	uint32_t fcp_sent;

	/* Line 2 (VL 0) on: the per-VL state, two VLs a line after VL 0. */
	struct ibfs_port_vl vls[IBFS_MAX_VLS];

	/* Cold: set-up, reports, management. */
	_Alignas(64) struct ibfs_fabric *fab;
	/*
	 * PortXmitWait bookkeeping: since when data has waited for credits.
	 * Beside fab, which a wait's start and end read too: one cold line
	 * for both.
	 */
	ibfs_time_t wait_since;
	/*
	 * Receiver side: packets taken off the wire other than by being
	 * counted in cnt.rcv_pkts (lost with a link going down, or
	 * discarded on arrival other than by VL15Dropped: link.c's
	 * link_arrive_other), modulo 2^32 (ibfs__port_rx_pkts).
	 */
	uint32_t rx_other;
	/*
	 * Set by the receiving device with ibfs__port_set_rx, which copies
	 * them into the peer's line 1 for its sends: `receive` is called
	 * rx_delay after the header arrived (a switch's routing latency),
	 * or after the tail arrived when rx_at_tail is set (an end node or
	 * a store-and-forward switch that needs the whole packet), so that
	 * the device needs no timer of its own; p->head_at and p->tail_at
	 * still hold the arrival times. Until then the packet counts as on
	 * the wire.
	 */
	uint8_t rx_at_tail;
	ibfs_time_t rx_delay;
	/*
	 * This port's input buffer, per VL, in blocks (read on a hop only
	 * for VL15, which is not flow controlled).
	 */
	uint32_t buf_cap[IBFS_MAX_VLS];
	int node;                /* topology node index */
	int link;                /* topology link index, -1 when none */
	int data_vls;
	/*
	 * 1 when the link was last set down (ibfs__fabric_link_set), on both
	 * ends: it then stays down when its second device is attached, until
	 * it is set up again (fabric.c, link_state.c).
	 */
	uint8_t admin_down;
	struct ibfs_rate rate;
	uint64_t vl15_dropped;   /* VL15 packets discarded for want of room */
	/*
	 * PortXmitDiscards (IBA 16.1.3.5): packets a device discarded
	 * instead of sending them on this port because it was down.
	 */
	uint64_t xmit_discards;
	/* Times the link of this port went down (LinkDownedCounter). */
	uint32_t link_downed;
	/*
	 * Partitions (fabric/pkey.h): the port's P_KeyTable (IBA 10.9.2,
	 * 14.2.5.7), of as many entries as its device's ops say (pkey_cap);
	 * NULL until an entry is written, and then entry 0 is the
	 * default P_Key 0xFFFF and the others 0, as at power-up. pkey_enf:
	 * a switch port's PortInfo PartitionEnforcementInbound and Outbound
	 * (IBFS_PKEY_ENF_*). The counters: P_KeyViolations (PortInfo, an
	 * end port's packets dropped by the IBA 10.9.3 check),
	 * PortRcvConstraintErrors and PortXmitConstraintErrors (IBA
	 * 16.1.3.5, a switch port's enforcement drops). In the cold part:
	 * a packet's hop reads none of it.
	 */
	uint8_t pkey_enf;
	uint16_t *pkeys;
	uint64_t pkey_violations;
	uint64_t rcv_constraint_errors;
	uint64_t xmit_constraint_errors;
};

/* The layout the comments above describe: what a hop touches on VL 0. */
_Static_assert(offsetof(struct ibfs_port, num) + 2 <= 64 &&
		       offsetof(struct ibfs_port, tx_data) ==
			       offsetof(struct ibfs_port, tx_busy) + 1 &&
		       offsetof(struct ibfs_port, tx_free_at) == 64 &&
		       offsetof(struct ibfs_port, peer_rx_delay) + 8 <= 128 &&
		       offsetof(struct ibfs_port, cnt.xmit_data) + 8 == 128 &&
		       offsetof(struct ibfs_port, cnt.rcv_data) == 128 &&
		       offsetof(struct ibfs_port, vls) == 160 &&
		       sizeof(struct ibfs_port_vl) == 32,
	       "struct ibfs_port: lines 0-1 as above, three counters, "
	       "rx_lost, fcp_sent and vls[0] in line 2, vls[1..2] in line 3");

/*
 * The InfiniBand credit hooks a packet hop runs (credits.c), inline: the
 * link layer calls them directly when a port's flow is
 * ibfs__ib_credit_flow, which saves an indirect call and the tests of
 * optional hooks on every send, arrival, free and end of transmission,
 * and through struct ibfs_flow_ops otherwise (link.c), so that another
 * link kind still plugs in. credits.c's ops table points at these same
 * functions.
 */
void ibfs__credit_send_fcps(struct ibfs_port *port);
void ibfs__credit_send_now(struct ibfs_port *port, int vl, uint32_t blocks);

/* 1 when `port`'s flow control is InfiniBand's credits. */
static inline int ibfs__port_flow_ib(const struct ibfs_port *port)
{
	return __builtin_expect(port->flow == &ibfs__ib_credit_flow, 1);
}

/*
 * With credits, a packet of `blocks` may start on VL15 always (not flow
 * controlled, IBA 7.9.4), on a data VL when the credits held cover its
 * blocks. (For a sender that has only the packet's header yet.)
 */
static inline int ibfs__credit_may_send_vl(const struct ibfs_port *out,
					   unsigned vl, uint32_t blocks)
{
	return vl == IBFS_VL15 || out->vls[vl].credits >= (int32_t)blocks;
}

static inline int ibfs__credit_may_send(const struct ibfs_port *out,
					const struct ibfs_packet *p)
{
	return ibfs__credit_may_send_vl(out, p->vl, p->blocks);
}

/*
 * The flow control's consent to send p, for a caller that has already
 * checked that `out` is up and idle (ibfs__port_can_send checks all three).
 */
static inline int ibfs__port_flow_allows(const struct ibfs_port *out,
					 const struct ibfs_packet *p)
{
	if (!ibfs__port_flow_ib(out))
		return out->flow->may_send(out, p);
	return ibfs__credit_may_send(out, p);
}

static inline void ibfs__credit_on_send(struct ibfs_port *out,
					const struct ibfs_packet *p)
{
	if (p->vl != IBFS_VL15)
		out->vls[p->vl].credits -= p->blocks;
}

/*
 * `blocks` of VL `vl` (whose state is v) reached `in`'s input buffer:
 * taken in (0), or, on VL15 only, refused for want of room (-1). The VL
 * and size come as values, so that a caller that has read them from the
 * packet does not read them again after writing the port.
 */
static inline int ibfs__credit_arrive(struct ibfs_port *in,
				      struct ibfs_port_vl *v, size_t vl,
				      uint32_t blocks)
{
	uint32_t used = v->buf_used + blocks;

	if (__builtin_expect(vl == IBFS_VL15, 0) &&
	    used > in->buf_cap[IBFS_VL15])
		return -1;
	v->buf_used = used;
	if (used > v->buf_top)
		v->buf_top = used;
	return 0;
}

static inline int ibfs__credit_on_arrive(struct ibfs_port *in,
					 const struct ibfs_packet *p)
{
	return ibfs__credit_arrive(in, &in->vls[p->vl], p->vl, p->blocks);
}

/* port->fc_state of a port that is up, idle and owes no credits. */
#define IBFS_FC_READY                                                        \
	(((const union {                                                     \
		struct {                                                     \
			uint16_t fc_pending;                                 \
			uint8_t up, tx_busy;                                 \
		};                                                           \
		uint32_t w;                                                  \
	}){ { 0, 1, 0 } }).w)

/* 1 when `port` is up and its transmitter idle: one compare. */
static inline int ibfs__port_idle_up(const struct ibfs_port *port)
{
	return port->up_busy == (uint16_t)(((const union {
						   struct {
							   uint8_t up, tx_busy;
						   };
						   uint16_t w;
					   }){ { 1, 0 } }).w);
}

/* 1 when `port` is up (so linked), idle and owes no credits. */
static inline int ibfs__port_fcp_ready(const struct ibfs_port *port)
{
	return port->fc_state == IBFS_FC_READY;
}

/*
 * The end of a transmission has two sets of handlers (link.c): those that
 * send the FCPs owed once the device's tx_done is over and those that do
 * not (a test for it in every end would go either way at saturation). A
 * send schedules one that does not; a buffer freed while the transmitter is
 * busy owes credits at its end and switches the end's event to its
 * counterpart here, by the event and the handler's index that the send
 * kept in tx_end. By index among the four of link.c's link_tx_done_fn.
 * The event stays valid while the transmitter is busy: nothing cancels
 * the end of a transmission (a link going down lets it run, link_state.c).
 */
extern const ibfs_event_fn ibfs__link_tx_done_owes[4];

static inline void ibfs__link_end_owes(struct ibfs_port *out)
{
	uintptr_t e = out->tx_end;

	((struct ibfs_event *)(e & ~(uintptr_t)63))->fn =
		ibfs__link_tx_done_owes[e & 3];
}

/*
 * A buffer freed: its FCP goes now, or waits for the transmitter's end
 * (IBA 7.9.4: credits are returned in flow-control packets). Two tests,
 * idle and busy, each random at saturation: a branch-free form costs
 * more instructions than its mispredictions.
 */
static inline void ibfs__credit_on_free(struct ibfs_port *in, int vl,
					uint32_t blocks)
{
	in->vls[vl].buf_used -= blocks;
	if (vl == IBFS_VL15)
		return;
	/*
	 * An idle transmitter that is up rarely owes credits (they go as
	 * soon as it is idle, the device's tx_done aside): when it owes
	 * none, the FCP goes at once with these blocks, which fc_unsent
	 * and fc_pending would only pass through.
	 */
	if (ibfs__port_fcp_ready(in)) {
		ibfs__credit_send_now(in, vl, blocks);
		return;
	}
	if (!in->peer)
		return;
	in->vls[vl].fc_unsent += blocks;
	in->fc_pending |= (uint16_t)(1u << vl);
	if (in->tx_busy)
		ibfs__link_end_owes(in);
	else if (in->up)
		ibfs__credit_send_fcps(in);
}

static inline int ibfs__credit_on_tx_idle(struct ibfs_port *out)
{
	/*
	 * Not one compare of fc_state (above IBFS_FC_READY exactly when up
	 * and owing, the transmitter being idle): link_tx_done has just
	 * cleared tx_busy with a byte store, which a 4-byte load of the word
	 * that holds it cannot take from the store buffer (an end node's
	 * port, with no tx_done between them, would wait for the store).
	 */
	if (out->fc_pending && out->up)
		ibfs__credit_send_fcps(out);
	return 0; /* the FCPs need no event: the device may send at once */
}

/*
 * Packets that came off the wire at `in`, modulo 2^32: those it received
 * and the others (discarded, lost).
 */
static inline uint32_t ibfs__port_rx_pkts(const struct ibfs_port *in)
{
	return (uint32_t)in->cnt.rcv_pkts + in->rx_other;
}

/* Packets on the wire leaving `out` (sent, not yet taken off at the peer). */
static inline uint32_t ibfs__port_wire_pkts(const struct ibfs_port *out)
{
	return out->peer ? (uint32_t)out->cnt.xmit_pkts -
				   ibfs__port_rx_pkts(out->peer) :
			   0;
}

/*
 * Credits of VL `vl` advertised by `in` in FCPs still on the wire (toward
 * its peer, the sender of the data).
 */
static inline uint32_t ibfs__port_fcp_blocks(const struct ibfs_port *in,
					     int vl)
{
	return in->peer ? in->vls[vl].fc_sent - in->peer->vls[vl].fc_got : 0;
}

/* Blocks of VL `vl` on the wire leaving `out`. */
static inline uint32_t ibfs__port_wire_blocks(const struct ibfs_port *out,
					      int vl)
{
	return out->peer ? out->vls[vl].tx_blocks -
				   out->peer->vls[vl].rx_blocks :
			   0;
}

/*
 * The device on `port` asks that its `receive` be called `delay` after a
 * packet's header arrived, or after its tail when at_tail is set (struct
 * ibfs_port's rx_delay and rx_at_tail). Sets both and their copies in the
 * peer's line 1, which the peer's sends read; a device sets them only so,
 * at any time (a switch's latency may change during a run).
 */
void ibfs__port_set_rx(struct ibfs_port *port, ibfs_time_t delay, int at_tail);
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
static inline void ibfs__port_consume_blocks(struct ibfs_port *in, int vl,
					     uint32_t blocks)
{
	if (ibfs__port_flow_ib(in))
		ibfs__credit_on_free(in, vl, blocks);
	else
		in->flow->on_free(in, vl, blocks);
}
/* PortXmitWait: the device has data for `out` but no credits / stops so. */
void ibfs__port_wait_start(struct ibfs_port *out);
void ibfs__port_wait_end(struct ibfs_port *out);
/* Every grant stops a wait that is rarely there: the test is inline. */
static inline void ibfs__port_wait_stop(struct ibfs_port *out)
{
	if (out->waiting)
		ibfs__port_wait_end(out);
}
/* PortXmitWait so far, including a wait still in progress at now. */
ibfs_time_t ibfs__port_xmit_wait(const struct ibfs_port *out);
/* Serialization time of `bytes` on the port's link. */
static inline ibfs_time_t ibfs__port_ser(struct ibfs_port *port,
					 uint64_t bytes)
{
	if (bytes != port->ser_memo_bytes) {
		ibfs_time_t t = ibfs__rate_ser_time(port->rate, bytes);

		/* The memo keeps 32 bits: larger values are not kept. */
		if (bytes <= UINT32_MAX && t <= UINT32_MAX) {
			port->ser_memo_bytes = (uint32_t)bytes;
			port->ser_memo = (uint32_t)t;
		}
		return t;
	}
	return port->ser_memo;
}
/*
 * Occupies `out`'s transmitter for `dur` from now without a data packet
 * (flow-control packets); tx_ready follows when it is idle again.
 */
void ibfs__port_occupy(struct ibfs_port *out, ibfs_time_t dur);
/*
 * A flow control other than the credits lets `out` send again (a pause
 * ended, room came back): its device's tx_ready is called now if the
 * transmitter is idle, as an FCP's arrival does for the credits.
 */
void ibfs__port_may_send_again(struct ibfs_port *out);

#endif
