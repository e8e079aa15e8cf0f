/* SPDX-License-Identifier: MIT */
/*
 * The link layer: a packet leaving a port and reaching its peer.
 *
 * Timing model (one direction of a link, rate R, propagation delay P):
 * a packet of W wire bytes started at time s occupies the transmitter until
 * s + ser(W), where ser(n) = n * 8 / R rounded up to the picosecond; its
 * header (the 8-byte LRH, which carries the DLID a switch routes on, IBA
 * 7.7) has fully arrived at the peer at s + P + ser(LRH), and its last byte
 * at s + P + ser(W). The receiving device is told at header arrival (so a
 * switch can cut through) and reads the tail time from p->tail_at. Bytes
 * travel at the line rate with no gaps: IBA packets have no inter-packet gap
 * beyond their start and end delimiters, which sit inside the symbol
 * encoding that the data rate already accounts for (IBA 5.6, 6.3).
 *
 * What the link may carry is decided by the port's flow-control hooks
 * (credits.c for InfiniBand); this file only moves packets and keeps the
 * per-port counters of IBA 16.1.3.5 (PortXmitData, PortRcvData,
 * PortXmitPkts, PortRcvPkts, PortXmitWait). Links going down and up are
 * link_state.c's concern; here a packet that was on a link when it went
 * down is freed on arrival, at the cost of one branch.
 */
#include "fabric/link.h"

#include "fabric/fabric.h"

/*
 * The transmitter of `out`, whose flow control is not InfiniBand's
 * credits, has gone idle: the hooks through the ops table.
 */
static void __attribute__((noinline)) link_tx_done_ops(struct ibfs_port *out)
{
	struct ibfs_device *dev = out->dev;

	out->tx_busy = 0;
	if (out->flow->on_tx_end)
		out->flow->on_tx_end(out);
	if (out->tx_data) {
		out->tx_data = 0;
		if (dev && dev->ops->tx_done)
			dev->ops->tx_done(dev, out);
		if (out->tx_busy)
			return; /* the device started the next packet */
	}
	if (out->flow->on_tx_idle && out->flow->on_tx_idle(out))
		return;
	if (dev && dev->ops->tx_ready)
		dev->ops->tx_ready(dev, out);
}

/*
 * The packet in `arg` has left the transmitter toward `peer`, whose
 * device takes packets at their tail (rx_at_tail: an end node, or a
 * store-and-forward switch, for which these fetches are wasted but
 * harmless): it arrives a propagation delay from now, and the device's
 * receive then reads its own first line (dev->fab, dev->ops), the one it
 * names in rx_dev_line, and the packet's line 1 (the BTH, the payload)
 * besides line 0, which the arrival's event fetches. At scale these
 * lines have left the caches since the send; fetched now, they arrive in
 * time, as a propagation delay (10 ns on 2 m of cable) spans many events
 * of a busy fabric.
 */
static inline __attribute__((always_inline)) void
link_prefetch_tail(const struct ibfs_port *peer, uint64_t arg)
{
	const char *p = (const char *)(uintptr_t)arg;
	/*
	 * A packet was sent, so the link is up and both ends have a device
	 * (link.h), but for tests that raise `up` by hand: a prefetch of
	 * NULL does not fault. (GCC takes a prefetch for no side effect: it
	 * drops all three when the port is chosen by a conditional, and a
	 * call of this function it did not inline early; hence
	 * always_inline.)
	 */
	uintptr_t d = (uintptr_t)peer->dev;

	__builtin_prefetch(p + 64);
	__builtin_prefetch((const void *)d);
	/*
	 * The device's other line it named (line 0 again when none), by
	 * integer arithmetic: an offset added to a null pointer would be
	 * undefined (C11 6.5.6), an address computed from 0 is not.
	 */
	__builtin_prefetch(
		(const void *)(d + 64 * (uintptr_t)peer->rx_dev_line));
}

/*
 * `out` may send, and its device asked (tx_end_dev 3) that the lines its
 * tx_ready reads be fetched: the device's lines 1 and 2 (the event
 * fetched line 0), all at once rather than one after the other as the
 * device's code reaches them (an end node: its first line, then its flow
 * and its generator's state in the next two, endpoint.c). A tx_end_dev of
 * 2 or above 3 is taken as 3 (link_send_events).
 */
static inline __attribute__((always_inline)) void
link_prefetch_dev(const struct ibfs_port *out)
{
	const char *d = (const char *)out->dev;

	__builtin_prefetch(d + 64);
	__builtin_prefetch(d + 128);
}

/*
 * The transmitter of `out` has gone idle. With the credits (the common
 * case), everything read here is in the port's line 0. The device is read
 * again after each call rather than kept, so that `out` is the one value
 * that lives across a call (one register saved). After a data packet the
 * device exists (ibfs__port_send reads it) and both flags clear in one
 * store.
 */
static inline __attribute__((always_inline)) void
link_tx_end(void *obj, uint64_t arg, int tail, int devl, int owes)
{
	struct ibfs_port *out = obj;
	struct ibfs_device *dev;

	/*
	 * Fetched while the device decides what to send: lines 1 and 2 of
	 * the port, which the next send reads and writes (line 2 also an
	 * FCP sent at this end). The peer's line 0, where that send
	 * only writes peer_free_at now (a store does not wait for its
	 * line), is the line the event fetched ahead unless the device
	 * asked for its own (tx_end_dev): it is not fetched again here.
	 */
	__builtin_prefetch(&out->tx_free_at);
	__builtin_prefetch(&out->cnt.rcv_data);
	if (tail)
		link_prefetch_tail(out->peer, arg);
	if (devl)
		link_prefetch_dev(out);
	if (!ibfs__port_flow_ib(out)) {
		link_tx_done_ops(out);
		return;
	}
	if (out->tx_data) {
		out->tx_busy = 0;
		out->tx_data = 0;
		dev = out->dev;
		if (dev->ops->tx_done) {
			dev->ops->tx_done(dev, out);
			if (__builtin_expect(out->tx_busy, 0)) {
				/*
				 * The device started the next packet, which
				 * link.h's tx_done asks it not to: the
				 * credits owed wait for its end, which its
				 * send scheduled as owing none. (No device
				 * does so: a switch's tx_done leaves its own
				 * output to tx_ready, crossbar.c.)
				 */
				if (out->fc_pending)
					ibfs__link_end_owes(out);
				return;
			}
		}
	} else {
		out->tx_busy = 0;
	}
	/*
	 * Credits owed: freed while the transmitter was busy, which
	 * switched this end to an owing handler (ibfs__link_end_owes). A
	 * buffer freed on this port during tx_done found it idle and sent
	 * its FCP (ibfs__credit_on_free).
	 */
	if (owes)
		ibfs__credit_on_tx_idle(out);
	dev = out->dev;
	if (dev) /* tx_ready is not optional (link.h) */
		dev->ops->tx_ready(dev, out);
}

/*
 * The end of a transmission, one handler for each set of lines to fetch
 * ahead (the packet in arg): link_send_events picks it when it schedules
 * the end, from the port's copies (peer_rx_tail, tx_end_dev), instead of
 * bits in arg that the end would test, which go either way at random in
 * a fat tree. The event and its time are the same.
 */
#define LINK_TX_DONE(name, tail, devl, owes)                          \
	static void name(void *obj, uint64_t arg)                      \
	{                                                              \
		link_tx_end(obj, arg, tail, devl, owes);               \
	}

LINK_TX_DONE(link_tx_done, 0, 0, 0)
LINK_TX_DONE(link_tx_done_tail, 1, 0, 0)
LINK_TX_DONE(link_tx_done_dev, 0, 1, 0)
LINK_TX_DONE(link_tx_done_both, 1, 1, 0)
/* The same, sending the FCPs owed (ibfs__link_end_owes, link.h). */
LINK_TX_DONE(link_tx_done_owes, 0, 0, 1)
LINK_TX_DONE(link_tx_done_owes_tail, 1, 0, 1)
LINK_TX_DONE(link_tx_done_owes_dev, 0, 1, 1)
LINK_TX_DONE(link_tx_done_owes_both, 1, 1, 1)

const ibfs_event_fn ibfs__link_tx_done_owes[4] = {
	link_tx_done_owes, link_tx_done_owes_tail, link_tx_done_owes_dev,
	link_tx_done_owes_both
};

/*
 * By (tx_end_dev > 1) << 1 | peer_rx_tail: the handlers a send schedules,
 * owing no FCPs (their owing counterparts: ibfs__link_tx_done_owes).
 */
static const ibfs_event_fn link_tx_done_fn[4] = {
	link_tx_done, link_tx_done_tail, link_tx_done_dev, link_tx_done_both
};

/*
 * Where tx_end points when the end's event could not be scheduled (out of
 * memory: the run stops then, eq.nomem), so that a buffer freed before it
 * does has an event to switch (ibfs__link_end_owes) that nothing runs.
 */
static _Alignas(64) struct ibfs_event link_lost_end;

static inline uintptr_t link_end_of(struct ibfs_event *ev)
{
	return (uintptr_t)(ev ? ev : &link_lost_end);
}

/* Occupies out's transmitter until now + dur; `q` is its fabric's queue. */
static inline void link_occupy(struct ibfs_eq *q, struct ibfs_port *out,
			       ibfs_time_t dur)
{
	out->tx_busy = 1;
	out->tx_free_at = q->now + dur;
	if (out->peer)
		out->peer->peer_free_at = out->tx_free_at;
	/* Owing: it may follow a free on a port that is down. */
	out->tx_end = link_end_of(ibfs__eq_schedule(q, out->tx_free_at,
						    link_tx_done_owes, out, 0));
}

void ibfs__port_occupy(struct ibfs_port *out, ibfs_time_t dur)
{
	link_occupy(&out->fab->eq, out, dur);
}

void ibfs__port_may_send_again(struct ibfs_port *out)
{
	if (!out->tx_busy && out->dev)
		out->dev->ops->tx_ready(out->dev, out);
}

/*
 * p comes off the wire at `in` and the device does not get it: it was lost
 * when the link went down (in->rx_lost), or `in` has no device, or flow
 * control refused it. Rare; out of line so the arrival's common path stays
 * short.
 */
static void __attribute__((noinline, cold))
link_arrive_other(struct ibfs_port *in, struct ibfs_packet *p, int counted)
{
	struct ibfs_fabric *f = in->fab;

	if (in->rx_lost != 0) {
		/*
		 * The link went down while p was on it: it was counted as
		 * lost then (link_state.c); arrivals keep their order, so
		 * the next rx_lost ones are exactly those packets.
		 */
		in->rx_lost--;
		ibfs__packet_free(f, p);
		return;
	}
	/* Off the wire: counted here, not at the sender (link.h). */
	if (!counted)
		in->vls[p->vl].rx_blocks += p->blocks;
	/*
	 * Only VL15 may be discarded for want of room (IBA 7.9.4). Such a
	 * packet was received all the same: PortRcvPkts and PortRcvData
	 * count every packet received from any VL, those with errors
	 * included (IBA 16.1.3.5), and VL15Dropped counts the discard. A
	 * port with no device discards everything (its link is never up,
	 * so only a test that sets `up` by hand sends there, and no credit
	 * returns), as does a flow control that drops (flow_ops): those
	 * packets count as taken off the wire only. The cause: no receiver
	 * for a port without a device; VL15's full buffer; else a test's
	 * flow control (credits refuse VL15 only, PFC nothing).
	 */
	if (p->vl == IBFS_VL15) {
		in->vl15_dropped++;
		in->cnt.rcv_pkts++;
		in->cnt.rcv_data += p->wire_bytes;
	} else {
		in->rx_other++;
	}
	f->pkts_dropped++;
	if (!in->dev)
		f->drops[IBFS_DROP_NO_RECEIVER]++;
	else if (p->vl == IBFS_VL15)
		f->drops[IBFS_DROP_VL15]++;
	else
		f->drops[IBFS_DROP_INJECTED]++;
	ibfs__packet_free(f, p);
}

/* p is accepted at `in`: it is the device's now. */
static inline void link_accept(struct ibfs_fabric *f, struct ibfs_port *in,
			       struct ibfs_device *dev, struct ibfs_packet *p)
{
	p->in_port = (uint8_t)in->num;
	p->held = 1;
	f->pkts_buffered++;
	in->cnt.rcv_pkts++;
	in->cnt.rcv_data += p->wire_bytes;
	dev->ops->receive(dev, in, p);
}

/* link_head_arrive for a port whose flow control is not the credits. */
static void __attribute__((noinline))
link_arrive_ops(struct ibfs_port *in, struct ibfs_packet *p)
{
	struct ibfs_device *dev = in->dev;
	struct ibfs_fabric *f = dev->fab;

	in->vls[p->vl].rx_blocks += p->blocks;
	if (in->flow->on_arrive(in, p) < 0) {
		link_arrive_other(in, p, 1);
		return;
	}
	p->in_vl = p->vl;
	link_accept(f, in, dev, p);
}

/*
 * The header of the packet in `arg` has arrived at port `obj` (or its tail,
 * or later: as the receiving device asked with rx_delay and rx_at_tail).
 * The common case reads the port's line 0 and writes the line of VL 0
 * (counters and VL state); it makes no call but tail calls, so it saves
 * no registers.
 */
static inline __attribute__((always_inline)) void
link_arrive(void *obj, uint64_t arg)
{
	struct ibfs_port *in = obj;
	struct ibfs_packet *p = (struct ibfs_packet *)(uintptr_t)arg;
	struct ibfs_device *dev = in->dev;

	if (__builtin_expect(in->rx_lost != 0 || !dev, 0)) {
		link_arrive_other(in, p, 0);
		return;
	}
	if (!ibfs__port_flow_ib(in)) {
		link_arrive_ops(in, p);
		return;
	}
	struct ibfs_fabric *f = dev->fab;
	size_t vl = p->vl;
	uint32_t blocks = p->blocks;
	struct ibfs_port_vl *v = &in->vls[vl];

	/*
	 * Written before the VL15 test (a refused packet is freed), apart
	 * from link_accept's byte stores: merged with in_port, it cost a
	 * register saved.
	 */
	p->in_vl = (uint8_t)vl;
	/* Off the wire: counted here, not at the sender (link.h). */
	v->rx_blocks += blocks;
	if (ibfs__credit_arrive(in, v, vl, blocks) < 0) {
		link_arrive_other(in, p, 1);
		return;
	}
	link_accept(f, in, dev, p);
}

/*
 * The arrival, in two copies that differ only in the device's receive
 * they call: one for ports whose device takes packets at their tail (end
 * nodes, most often), one for the others (switches), picked at the send
 * from the sender's copy of rx_at_tail (peer_rx_tail), so that each call
 * site of dev->ops->receive mostly sees one target, which the indirect
 * branch predictor then gets right.
 */
static void __attribute__((no_icf)) link_head_arrive(void *obj, uint64_t arg)
{
	link_arrive(obj, arg);
}

/* (no_icf: GCC would otherwise merge the two identical copies.) */
static void __attribute__((no_icf)) link_tail_arrive(void *obj, uint64_t arg)
{
	link_arrive(obj, arg);
}

/* By peer_rx_tail != 0. */
static const ibfs_event_fn link_arrive_fn[2] = { link_head_arrive,
						  link_tail_arrive };

int ibfs__port_can_send(const struct ibfs_port *out,
			const struct ibfs_packet *p)
{
	return ibfs__port_idle_up(out) && ibfs__port_flow_allows(out, p);
}

/*
 * The two events of a send, in this order (at equal times events run in
 * the order they were scheduled): the transmitter's end, then the arrival
 * at the peer. Apart, so that the sender saves no registers and only
 * what the second needs lives across the first.
 */
/* link_send_events when the event pool is empty: the schedule grows it. */
static void __attribute__((noinline, cold))
link_send_events_grow(struct ibfs_eq *q, struct ibfs_port *out,
		      ibfs_time_t free_at, struct ibfs_port *peer,
		      ibfs_time_t at, struct ibfs_packet *p, unsigned k)
{
	struct ibfs_event *end = ibfs__eq_schedule_pf(
		q, free_at, link_tx_done_fn[k], out, (uint64_t)(uintptr_t)p,
		out->tx_end_dev ? (void *)out->dev : (void *)peer);

	out->tx_end = link_end_of(end) | k;
	ibfs__eq_schedule_pf(q, at, link_arrive_fn[k & 1], peer,
			     (uint64_t)(uintptr_t)p, p);
}

static void __attribute__((noinline))
link_send_events(struct ibfs_eq *q, struct ibfs_port *out, ibfs_time_t free_at,
		 struct ibfs_port *peer, ibfs_time_t at, struct ibfs_packet *p)
{
	/*
	 * Each event names the line its handler reads besides its port's,
	 * fetched while the event before it runs (event_queue.h): the end
	 * of the transmission most often sends the next packet at once,
	 * which writes the peer's line 0 (peer_free_at), or, when the
	 * device asked (tx_end_dev), the device's first line, which the end
	 * reads first (dev->ops) and which at scale has left the caches
	 * during the packet when the device is one of many end nodes (a
	 * switch's device line stays cached); the peer's line 0, which
	 * that send only writes, is then not fetched at all (link_tx_end).
	 * The arrival reads the packet's line 0.
	 */
	/*
	 * The end's arg: the packet; its handler fetches the lines of
	 * the peer that takes it at its tail (link_prefetch_tail), and
	 * those the device asked for beyond its first (tx_end_dev).
	 */
	unsigned k = (out->peer_rx_tail != 0) | (out->tx_end_dev > 1) << 1;
	/*
	 * The end's event, kept before the schedule takes it (link.h's
	 * tx_end), so that nothing more lives across the schedule; an
	 * empty pool, which the schedule grows, takes another path.
	 */
	struct ibfs_event *end = ibfs__eq_next_event(q);

	if (__builtin_expect(!end, 0)) {
		link_send_events_grow(q, out, free_at, peer, at, p, k);
		return;
	}
	out->tx_end = (uintptr_t)end | k;
	ibfs__eq_schedule_pf(q, free_at, link_tx_done_fn[k], out,
			     (uint64_t)(uintptr_t)p,
			     out->tx_end_dev ? (void *)out->dev : (void *)peer);
	ibfs__eq_schedule_pf(q, at, link_arrive_fn[k & 1], peer,
			     (uint64_t)(uintptr_t)p, p);
}

/*
 * ibfs__port_send; `general` is 0 for the common case (the credits, no
 * observers, the serialization time in the port's memo) and 1 otherwise,
 * so that each gets its own copy: the common one calls nothing but its
 * last tail call, so it saves no registers.
 */
static inline void link_send(struct ibfs_fabric *f, struct ibfs_port *out,
			     struct ibfs_packet *p, int general)
{
	struct ibfs_port *peer = out->peer;
	ibfs_time_t now = f->eq.now;
	ibfs_time_t ser = general ? ibfs__port_ser(out, p->wire_bytes) :
				    out->ser_memo;
	ibfs_time_t start = out->fcp_until > now ? out->fcp_until : now;

	if (!general || ibfs__port_flow_ib(out))
		ibfs__credit_on_send(out, p);
	else
		out->flow->on_send(out, p);
	f->pkt_sends++;
	if (p->held) {
		p->held = 0;
		f->pkts_buffered--;
	}
	out->vls[p->vl].tx_blocks += p->blocks;
	out->cnt.xmit_pkts++;
	out->cnt.xmit_data += p->wire_bytes;
	out->cnt.busy += ser;
	if (general)
		for (struct ibfs_observer *o = f->observers; o; o = o->next)
			o->on_tx(o->ctx, out, p, start);
	p->head_at = start + out->prop + out->ser_lrh;
	p->tail_at = start + out->prop + ser;
	/* The receiving device's wishes, from our copy (link.h). */
	ibfs_time_t at = (out->peer_rx_tail ? p->tail_at : p->head_at) +
			 out->peer_rx_delay;

	/* link_occupy's work, the peer known to exist. */
	out->tx_data = 1;
	out->tx_busy = 1;
	out->tx_free_at = start + ser;
	peer->peer_free_at = out->tx_free_at;
	link_send_events(&f->eq, out, out->tx_free_at, peer, at, p);
}

static void __attribute__((noinline))
link_send_general(struct ibfs_fabric *f, struct ibfs_port *out,
		  struct ibfs_packet *p)
{
	link_send(f, out, p, 1);
}

void ibfs__port_send(struct ibfs_port *out, struct ibfs_packet *p)
{
	struct ibfs_fabric *f = out->dev->fab;

	if (__builtin_expect(!ibfs__port_flow_ib(out) || f->observers ||
				     p->wire_bytes != out->ser_memo_bytes,
			     0)) {
		link_send_general(f, out, p);
		return;
	}
	link_send(f, out, p, 0);
}

void ibfs__port_set_rx(struct ibfs_port *port, ibfs_time_t delay, int at_tail)
{
	port->rx_delay = delay;
	port->rx_at_tail = at_tail != 0;
	if (port->peer) {
		port->peer->peer_rx_delay = delay;
		port->peer->peer_rx_tail = at_tail != 0;
	}
}

void ibfs__port_consume(struct ibfs_port *in, const struct ibfs_packet *p)
{
	ibfs__port_consume_blocks(in, p->in_vl, p->blocks);
}

/* Tells the observers that ask for it that a PortXmitWait span starts/ends. */
static void link_wait_notify(struct ibfs_fabric *f, struct ibfs_port *out,
			     int waiting)
{
	for (struct ibfs_observer *o = f->observers; o; o = o->next)
		if (o->on_wait)
			o->on_wait(o->ctx, out, waiting);
}

/*
 * A wait's start and end are asked by the device on its own port, so the
 * fabric is read as dev->fab (the device's line, which its caller has
 * just read) rather than from the port's cold line, whose load then need
 * not come before the time's.
 */
void ibfs__port_wait_start(struct ibfs_port *out)
{
	if (out->waiting)
		return;
	struct ibfs_fabric *f = out->dev->fab;

	out->waiting = 1;
	out->wait_since = f->eq.now;
	link_wait_notify(f, out, 1);
}

/* The out-of-line part of ibfs__port_wait_stop (link.h): a wait ends. */
void ibfs__port_wait_end(struct ibfs_port *out)
{
	if (!out->waiting)
		return;
	struct ibfs_fabric *f = out->dev->fab;

	out->waiting = 0;
	out->cnt.xmit_wait += f->eq.now - out->wait_since;
	link_wait_notify(f, out, 0);
}

ibfs_time_t ibfs__port_xmit_wait(const struct ibfs_port *out)
{
	ibfs_time_t w = out->cnt.xmit_wait;

	if (out->waiting)
		w += out->fab->eq.now - out->wait_since;
	return w;
}
