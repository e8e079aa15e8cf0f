/* SPDX-License-Identifier: MIT */
/*
 * Links going down and coming back up: the faults of a scenario (a link, or
 * every link of a switch), at the link layer.
 *
 * Model, one instant for both directions of the link:
 * - Down. The physical link is gone (PortPhysicalState leaves LinkUp,
 *   IBA 5.5 and 7.2): every packet on the wire in either direction is lost
 *   at once. "On the wire" is what the link layer counts so: sent, and not
 *   yet handed to the receiving device (at its header plus the device's
 *   rx_delay, or at its tail for devices that ask for it). A packet the
 *   receiving device already took is not lost even if its tail was still
 *   coming: a simplification (a real cut-through receiver would see the
 *   packet end badly and discard it, IBA 7.8 on bad packet delimiters).
 *   Lost packets are counted in the fabric's pkts_dropped at the fault (and
 *   in pkts_lost, their cause link_down), so conservation balances at
 *   every instant; their arrival events free them unseen (port->rx_lost).
 *   That relies on arrivals keeping their order on a link, which holds
 *   as long as the receiver's rx_delay and rx_at_tail do not change while
 *   packets are on the wire (a new packet starts after the old ones'
 *   transmitter ends).
 *   The transmitters stop: nothing new starts on a down port
 *   (ibfs__port_can_send checks up); a packet being serialised keeps
 *   its transmitter until its scheduled end, so no event need be found
 *   and cancelled, and it is lost with the others. LinkDownedCounter
 *   (IBA 16.1.3.5) counts the event on both ports.
 * - Up. Link training ends (the time it takes is the caller's to choose)
 *   and flow control is initialised again: the sender holds credits for
 *   what the peer's input buffer really has free, as the initial FCCL
 *   exchanged during link initialisation gives (IBA 7.9.4.2), i.e. the
 *   whole buffer once the peer holds nothing. The flow-control hook
 *   link_reset does it (credits.c), at the down too, so credit
 *   conservation holds down or up.
 * - Devices hear of it: their optional port_state hook, then the fabric's
 *   listeners (the subnet management agents raise trap 128 from them),
 *   then tx_ready on each idle transmitter, with which a switch discards
 *   what waits for a down output (src/switch/port_state.c) and an end node
 *   resumes after an up.
 * Nothing here runs unless a fault happens: the hot path pays one branch
 * on port->rx_lost at arrival (link.c).
 */
#include "fabric/fabric.h"

/* The direction leaving tx goes down: its wire's packets are lost. */
static void ls_cut(struct ibfs_port *tx)
{
	struct ibfs_fabric *f = tx->fab;
	struct ibfs_port *rx = tx->peer;
	uint32_t n = ibfs__port_wire_pkts(tx);

	rx->rx_lost += n;
	f->pkts_dropped += n;
	f->pkts_lost += n;
	f->drops[IBFS_DROP_LINK_DOWN] += n;
	/*
	 * Nothing is on the wire any more: the receiver counts as taken off
	 * what the sender started (link.h). The lost packets' arrivals do
	 * not count again (link.c returns before).
	 */
	rx->rx_other = (uint32_t)tx->cnt.xmit_pkts -
		       (uint32_t)rx->cnt.rcv_pkts;
	for (int vl = 0; vl < IBFS_MAX_VLS; vl++)
		rx->vls[vl].rx_blocks = tx->vls[vl].tx_blocks;
	tx->up = 0;
	tx->link_downed++;
	ibfs__port_wait_stop(tx);
}

static void ls_notify(struct ibfs_port *port, int up)
{
	struct ibfs_device *dev = port->dev;

	if (dev && dev->ops->port_state)
		dev->ops->port_state(dev, port, up);
	for (struct ibfs_port_listener *l = port->fab->listeners; l;
	     l = l->next)
		l->port_state(l->ctx, port, up);
}

static void ls_kick(struct ibfs_port *port)
{
	struct ibfs_device *dev = port->dev;

	if (!port->tx_busy && dev && dev->ops->tx_ready)
		dev->ops->tx_ready(dev, port);
}

int ibfs__fabric_link_set(struct ibfs_fabric *f, int node, int port, int up)
{
	if (node < 0 || (size_t)node >= f->topo->nnodes || port < 0 ||
	    port > f->topo->nodes[node].nports)
		return -1;
	struct ibfs_port *a = ibfs__fabric_port(f, node, port);
	struct ibfs_port *b = a->peer;

	if (!b)
		return -1;
	up = !!up;
	/* Kept for a link that waits for a device (fabric_attach). */
	a->admin_down = b->admin_down = (uint8_t)!up;
	/* A link with no device at one end stays down (fabric_attach). */
	if ((a->up == up && b->up == up) || (up && (!a->dev || !b->dev)))
		return 0;
	struct ibfs_port *ends[2] = { a, b };

	for (int e = 0; e < 2; e++) {
		if (up)
			ends[e]->up = 1;
		else
			ls_cut(ends[e]);
	}
	for (int e = 0; e < 2; e++)
		if (ends[e]->flow->link_reset)
			ends[e]->flow->link_reset(ends[e]);
	for (int e = 0; e < 2; e++)
		ls_notify(ends[e], up);
	for (int e = 0; e < 2; e++)
		ls_kick(ends[e]);
	return 1;
}

int ibfs__fabric_switch_set(struct ibfs_fabric *f, int node, int up)
{
	if (node < 0 || (size_t)node >= f->topo->nnodes)
		return -1;
	int changed = 0;

	for (int i = 1; i <= f->topo->nodes[node].nports; i++)
		if (f->ports[node][i].peer &&
		    ibfs__fabric_link_set(f, node, i, up) > 0)
			changed++;
	return changed;
}

void ibfs__fabric_listen(struct ibfs_fabric *f, struct ibfs_port_listener *l)
{
	l->next = f->listeners;
	f->listeners = l;
}

void ibfs__fabric_unlisten(struct ibfs_fabric *f,
			   struct ibfs_port_listener *l)
{
	for (struct ibfs_port_listener **pp = &f->listeners; *pp;
	     pp = &(*pp)->next) {
		if (*pp == l) {
			*pp = l->next;
			l->next = NULL;
			return;
		}
	}
}

/* A scheduled fault: node in the low 32 bits, port in 8, up in 1. */
static void ls_fault_ev(void *obj, uint64_t arg)
{
	struct ibfs_fabric *f = obj;
	int node = (int)(uint32_t)arg;
	int port = (int)(arg >> 32 & 0xff);
	int up = (int)(arg >> 40 & 1);

	if (port)
		ibfs__fabric_link_set(f, node, port, up);
	else
		ibfs__fabric_switch_set(f, node, up);
}

int ibfs__fabric_fault_at(struct ibfs_fabric *f, ibfs_time_t t, int node,
			  int port, int up)
{
	if (node < 0 || (size_t)node >= f->topo->nnodes || port < 0 ||
	    port > f->topo->nodes[node].nports || port > 255 ||
	    t < f->eq.now)
		return -1;
	if (port && !f->ports[node][port].peer)
		return -1;
	uint64_t arg = (uint64_t)(uint32_t)node | (uint64_t)port << 32 |
		       (uint64_t)!!up << 40;

	return ibfs__eq_schedule(&f->eq, t, ls_fault_ev, f, arg) ? 0 : -1;
}
