/* SPDX-License-Identifier: MIT */
/*
 * A switch output whose link is down.
 *
 * A switch sends nothing on a port whose link is down, and a packet it
 * would send there is discarded and counted in that port's
 * PortXmitDiscards, which IBA 16.1.3.5 defines as outbound packets
 * discarded because the port is down or congested. We discard such a
 * packet as soon as it reaches the head of its input FIFO and its routing
 * decision is made, rather than after the head-of-queue lifetime of
 * PortInfo HOQLife (IBA 14.2.5.6: 4.096 us x 2^HOQLife): the output cannot
 * come back before the subnet manager has swept and rerouted, so holding
 * the head would only block the traffic behind it for other outputs. The
 * HOQLife timer for a head starved of credits on a live port is not
 * modelled. Packets that arrive later for the down port are discarded on
 * arrival (switch.c), with the same count.
 *
 * The input buffer of a discarded packet is released once its tail is in
 * (its blocks are occupied until then) and the credits go back upstream
 * as for a packet sent. The fabric calls tx_ready on the port when the
 * link goes down (src/fabric/link_state.c), so the arbiter of the output
 * finds it down and empties what waits for it; heads that become ready
 * later request the output and are discarded the same way.
 */
#include "switch/switch_int.h"

/* The tail of discarded p is in: free its buffer space and p. */
static void ps_discard_ev(void *obj, uint64_t arg)
{
	struct ibfs_switch *sw = obj;
	struct ibfs_packet *p = (struct ibfs_packet *)(uintptr_t)arg;
	struct ibfs_packet *orig = p->mc_orig;

	/* Multicast copies share the original's blocks: the last frees. */
	if (!orig || --orig->mc_refs == 0)
		ibfs__port_consume(&sw->dev.ports[p->in_port], p);
	if (orig && orig->mc_refs == 0) {
		sw->dev.fab->pkts_retired++;
		ibfs__packet_free(sw->dev.fab, orig);
	}
	ibfs__fabric_drop(sw->dev.fab, p, IBFS_DROP_PORT_DOWN);
	ibfs__packet_free(sw->dev.fab, p);
}

/* The first request of output o from a free input, or -1. */
static int ps_first_request(const struct ibfs_switch *sw, int o, int *os)
{
	const struct sw_out *so = &sw->out[o];

	for (int s = 0; s < sw->nslots; s++) {
		if (!so->slot[s].nreq)
			continue;
		const uint64_t *bits = so->req + (size_t)s * (size_t)sw->nw;

		for (int w = 0; w < sw->nw; w++) {
			uint64_t m = bits[w] & sw->in_free[w];

			if (m) {
				*os = s;
				return w * 64 + __builtin_ctzll(m);
			}
		}
	}
	return -1;
}

void ibfs__sw_out_down(struct ibfs_switch *sw, int o)
{
	struct sw_out *so = &sw->out[o];
	struct ibfs_port *port = &sw->dev.ports[o];
	struct ibfs_fabric *f = sw->dev.fab;

	/* A new head requesting o while we empty it is taken by the loop. */
	if (so->flushing)
		return;
	so->flushing = 1;
	int os, b;

	while (so->nreq && (b = ps_first_request(sw, o, &os)) >= 0) {
		int in = b >> sw->sshift;
		int slot = b & ((1 << sw->sshift) - 1);
		struct sw_queue *q = &sw->q[b];
		struct ibfs_packet *p = q->head;

		q->head = p->next;
		if (!q->head)
			q->tail = NULL;
		sw->buffered--;
		p->next = NULL;
		so->req[(size_t)os * (size_t)sw->nw + (size_t)b / 64] &=
			~(1ULL << (b % 64));
		if (!--so->nreq)
			sw->go[o / 64] &= ~(1ULL << (o % 64));
		so->slot[os].nreq--;
		port->xmit_discards++;
		ibfs__eq_schedule(&f->eq,
				  p->tail_at > f->eq.now ? p->tail_at :
							   f->eq.now,
				  ps_discard_ev, sw, (uint64_t)(uintptr_t)p);
		ibfs__sw_head_changed(sw, in, slot);
	}
	so->flushing = 0;
	ibfs__port_wait_stop(port);
}
