/* SPDX-License-Identifier: MIT */
/*
 * InfiniBand credit-based link-level flow control (IBA 7.9.4), as the
 * flow-control hooks of struct ibfs_flow_ops.
 *
 * - Each data VL of a receiving port has its own share of the port's input
 *   buffer, counted in 64-byte blocks (IBA 7.9.4.1). At start-up the sender
 *   holds as many credits as the receiver has blocks on that VL (the
 *   initial FCCL of IBA 7.9.4.2, exchanged during link initialisation).
 * - A sender starts a packet on a data VL only when it holds credits for
 *   every block of the packet, and takes them when it starts. Nothing is
 *   ever discarded for want of buffer on a data VL.
 * - When a device frees blocks of its input buffer it owes the sender that
 *   many credits. They travel back in a flow-control packet (FCP, 6 bytes:
 *   IBA 7.9.4.2) on the reverse direction of the link, one FCP per VL. An
 *   FCP is sent as soon as the reverse transmitter is idle: at once if it
 *   is idle, else at the end of the packet it is sending, ahead of the next
 *   data packet (IBA sends FCPs between packets). While an FCP waits, later
 *   frees on the same VL join it: the real FCP carries absolute counts
 *   (FCCL, FCTBS), so one FCP always tells everything freed so far. The
 *   FCP occupies the reverse transmitter for ser(6 bytes) (a data packet
 *   the device starts meanwhile begins after it, port->fcp_until) and its
 *   credits reach the sender after that plus the propagation delay.
 * - IBA also sends FCPs periodically (at least every 65,536 symbol times,
 *   IBA 7.9.4.2) so that a corrupted FCP is repaired by the next one. The
 *   simulator corrupts nothing, so a refresh would repeat counts the sender
 *   already has: it is not modelled, and its bandwidth (6 bytes per 65,536
 *   symbols, under 0.01%) is neglected.
 * - VL15 is not flow controlled (IBA 7.9.4): it needs no credits, it has a
 *   small buffer of its own (IBFS_VL15_BUF_BLOCKS), and a VL15 packet that
 *   finds no room is discarded, as IBA allows for management packets.
 */
#include "fabric/fabric.h"
#include "fabric/link.h"

static void credit_init(struct ibfs_port *port)
{
	for (int vl = 0; vl < IBFS_MAX_VLS; vl++) {
		struct ibfs_port_vl *v = &port->vls[vl];

		v->credits = 0;
		if (vl < port->data_vls && port->peer)
			v->credits = (int32_t)port->peer->buf_cap[vl];
	}
}

/* Credits advertised by an FCP reach the data sender `obj`. */
static void credit_fcp_arrive(void *obj, uint64_t arg)
{
	struct ibfs_port *sender = obj;
	int vl = (int)(arg & 0xff);
	uint32_t n = (uint32_t)(arg >> 8);

	struct ibfs_device *dev = sender->dev;

	sender->vls[vl].credits += (int32_t)n;
	sender->vls[vl].fc_got += n;
	if (!sender->tx_busy && dev) {
		/*
		 * Its second and third lines, which the device's tx_ready
		 * reads after its first at an end node (its flow and its
		 * generator's state: endpoint.c), fetched with the first
		 * rather than after it (a switch's stay cached: harmless).
		 */
		__builtin_prefetch((const char *)dev + 64);
		__builtin_prefetch((const char *)dev + 128);
		/*
		 * What a send then reads of the port besides lines 0 and 2
		 * (which the event fetched): line 1, and the cold line's
		 * wait_since, which ends the PortXmitWait of a sender that
		 * waited for these credits (ibfs__port_wait_end).
		 */
		__builtin_prefetch(&sender->tx_free_at);
		__builtin_prefetch(&sender->wait_since);
		dev->ops->tx_ready(dev, sender);
	}
}

/*
 * Sends the FCP of VL `vl`, n credits, from `port`, whose transmitter is
 * not sending data. An FCP keeps the transmitter until fcp_until without
 * an event of its own: a data packet sent meanwhile starts after it.
 * Scheduling the arrival comes last, so that a caller whose last step
 * this is makes it a tail call (no registers to save).
 */
static inline void credit_fcp(struct ibfs_port *port, int vl, uint32_t n)
{
	struct ibfs_fabric *f = port->dev->fab;
	struct ibfs_port *sender = port->peer;
	struct ibfs_port_vl *v = &port->vls[vl];
	ibfs_time_t now = f->eq.now;
	ibfs_time_t start = port->fcp_until > now ? port->fcp_until : now;

	port->fcp_sent++;
	f->fcps++;
	port->fcp_until = start + port->ser_fcp;
	ibfs_time_t at = port->fcp_until + port->prop;

	/*
	 * A sender busy until after the FCP arrives cannot use the credits
	 * before its transmitter ends, and the arrival would not call
	 * tx_ready: the FCP needs no event, and the credits are the
	 * sender's at once. Nothing reads a busy port's credits (a device
	 * asks for them only when the transmitter is idle; the deadlock
	 * monitor counts them as arrived, as they will have when it looks
	 * again), so the run is the same to the picosecond as if they came
	 * at `at` or at the transmitter's end, and the sender's line 0 is
	 * not touched again.
	 * The time must be strictly earlier: at tx_free_at the
	 * transmitter's own end (scheduled first) runs first. peer_free_at
	 * is the sender's tx_free_at, kept on this port (link.h), and a
	 * transmitter idle from a time after `at` (which is not before
	 * now) is busy now.
	 * The add to the sender's VL line waits for that line, which is
	 * cold at saturation; parking the credits elsewhere only moves
	 * the miss to the transmitter's end.
	 */
	if (port->peer_free_at > at) {
		sender->vls[vl].credits += (int32_t)n;
		return;
	}
	v->fc_sent += n;
	/* The arrival adds to the sender's VL state, fetched ahead with its
	 * line 0 (event_queue.h). */
	ibfs__eq_schedule_pf(&f->eq, at, credit_fcp_arrive, sender,
			     (uint64_t)vl | ((uint64_t)n << 8),
			     &sender->vls[vl]);
}

/* The FCP of VL `vl`, with the credits it owes (fc_unsent). */
static inline void credit_send_fcp(struct ibfs_port *port, int vl)
{
	uint32_t n = port->vls[vl].fc_unsent;

	port->vls[vl].fc_unsent = 0;
	credit_fcp(port, vl, n);
}

/*
 * The FCP of VL `vl` for `blocks` just freed, from an idle transmitter
 * with no other credits owed (ibfs__credit_on_free, link.h).
 */
void ibfs__credit_send_now(struct ibfs_port *port, int vl, uint32_t blocks)
{
	credit_fcp(port, vl, blocks);
}

/* Several VLs owe credits: one FCP each, back to back, lowest VL first. */
static void __attribute__((noinline)) credit_send_all(struct ibfs_port *port)
{
	while (port->fc_pending) {
		int vl = __builtin_ctz(port->fc_pending);

		port->fc_pending &= (uint16_t)~(1u << vl);
		credit_send_fcp(port, vl);
	}
}

/*
 * Sends one FCP per VL with credits owed. The common case, one VL (a
 * fabric with one data VL has no other), is a straight line ending in a
 * tail call.
 */
void ibfs__credit_send_fcps(struct ibfs_port *port)
{
	unsigned pending = port->fc_pending;

	if (pending & (pending - 1)) {
		credit_send_all(port);
		return;
	}
	if (!pending)
		return;
	port->fc_pending = 0;
	credit_send_fcp(port, __builtin_ctz(pending));
}

/*
 * The transmitter of `out` has ended: nothing to take in, since credits
 * that reached it while busy were added at once (credit_fcp_arrive, or
 * credit_fcp when the FCP lands before the end). The hook stays for
 * callers of the ops table.
 */
static void credit_on_tx_end(struct ibfs_port *out)
{
	(void)out;
}

/*
 * Link (re)initialisation of the direction leaving `out` (a link going down
 * or coming up): the peer advertises afresh what its input buffer has free
 * (IBA 7.9.4.2: the initial FCCL is exchanged during link initialisation,
 * and FCCL is an absolute count, so nothing freed before is forgotten).
 * Blocks freed but not yet advertised are included; blocks in FCPs still
 * on the wire reach the sender when those arrive, as they would have, so
 * credits + occupied + in FCPs = buffer holds at every instant, down or
 * up. Packets that were on the wire when it went down were lost
 * (link_state.c takes them off the wire first): their blocks were never
 * occupied at the peer and count as free.
 */
static void credit_link_reset(struct ibfs_port *out)
{
	struct ibfs_port *rx = out->peer;

	for (int vl = 0; vl < out->data_vls && rx; vl++) {
		rx->vls[vl].fc_unsent = 0;
		out->vls[vl].credits =
			(int32_t)rx->buf_cap[vl] -
			(int32_t)rx->vls[vl].buf_used -
			(int32_t)ibfs__port_fcp_blocks(rx, vl) -
			(int32_t)ibfs__port_wire_blocks(out, vl);
	}
	if (rx)
		rx->fc_pending = 0;
}

const struct ibfs_flow_ops ibfs__ib_credit_flow = {
	.name = "ib-credits",
	.init = credit_init,
	.may_send = ibfs__credit_may_send,
	.on_send = ibfs__credit_on_send,
	.on_arrive = ibfs__credit_on_arrive,
	.on_free = ibfs__credit_on_free,
	.on_tx_idle = ibfs__credit_on_tx_idle,
	.on_tx_end = credit_on_tx_end,
	.link_reset = credit_link_reset,
	.keeps_credits = 1,
};
