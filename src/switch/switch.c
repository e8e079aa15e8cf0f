/* SPDX-License-Identifier: MIT */
/*
 * The switch as a device: creation, and what happens when a packet's header
 * arrives on an input port.
 *
 * On header arrival the switch looks up the output port (LFT by DLID, IBA
 * 18.2.4.3.2; MFT for multicast DLIDs, IBA 18.2.4.3.3), maps the packet's
 * SL to the output VL with the SL-to-VL table of its (input, output) pair
 * (IBA 7.6.6), and queues it in the FIFO of its input port and VL. It may
 * leave once its routing decision is made, `latency` after its header
 * arrived (virtual cut-through) or after its tail arrived
 * (store-and-forward); crossbar.c decides when it actually goes.
 *
 * Packets the switch cannot route are discarded and counted, as IBA
 * switches do for an LFT entry that is invalid or points back to the input
 * port (IBA 18.2.4.3.2; PortRcvSwitchRelayErrors, IBA 16.1.3.5); those
 * routed to a port whose link is down are discarded and counted in that
 * port's PortXmitDiscards (IBA 16.1.3.5; see port_state.c). VL15
 * packets stay on VL15 (IBA 7.6.6: SL-to-VL does not apply to them).
 */
#include "switch/switch_int.h"

#include "fabric/pkey.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Releases p's input buffer space: it will never be forwarded. */
static void sw_discard(struct ibfs_switch *sw, uint64_t arg,
		       enum ibfs_drop_cause cause)
{
	struct ibfs_packet *p = (struct ibfs_packet *)(uintptr_t)arg;

	ibfs__port_consume(&sw->dev.ports[p->in_port], p);
	ibfs__fabric_drop(sw->dev.fab, p, cause);
	ibfs__packet_free(sw->dev.fab, p);
}

/* The discard's event, one for each cause the switch may have. */
static void sw_no_route_ev(void *obj, uint64_t arg)
{
	sw_discard(obj, arg, IBFS_DROP_NO_ROUTE);
}

static void sw_port_down_ev(void *obj, uint64_t arg)
{
	sw_discard(obj, arg, IBFS_DROP_PORT_DOWN);
}

static void sw_pkey_ev(void *obj, uint64_t arg)
{
	sw_discard(obj, arg, IBFS_DROP_PKEY);
}

/* A packet for the switch itself, its tail now in. */
static void sw_local_ev(void *obj, uint64_t arg)
{
	struct ibfs_switch *sw = obj;
	struct ibfs_packet *p = (struct ibfs_packet *)(uintptr_t)arg;

	ibfs__port_consume(&sw->dev.ports[p->in_port], p);
	if (!sw->local) {
		ibfs__fabric_drop(sw->dev.fab, p, IBFS_DROP_NO_RECEIVER);
		ibfs__packet_free(sw->dev.fab, p);
		return;
	}
	ibfs__fabric_deliver(sw->dev.fab, p);
	sw->local(sw->local_ctx, sw, p);
}

/* When p's tail is in: now or later (the routing latency may be over). */
static ibfs_time_t sw_tail_time(const struct ibfs_switch *sw,
				const struct ibfs_packet *p)
{
	ibfs_time_t now = sw->dev.fab->eq.now;

	return p->tail_at > now ? p->tail_at : now;
}

/*
 * Drops p once its tail is in, so its buffer blocks are really held; `ev`
 * says why (sw_no_route_ev, sw_port_down_ev, sw_pkey_ev).
 */
static void sw_drop_at_tail(struct ibfs_switch *sw, struct ibfs_packet *p,
			    ibfs_event_fn ev)
{
	ibfs__eq_schedule(&sw->dev.fab->eq, sw_tail_time(sw, p), ev, sw,
			  (uint64_t)(uintptr_t)p);
}

/* p cannot be routed (PortRcvSwitchRelayErrors). */
static void sw_unroutable(struct ibfs_switch *sw, struct ibfs_packet *p)
{
	sw->relay_errors++;
	sw_drop_at_tail(sw, p, sw_no_route_ev);
}

/*
 * Queues p in the FIFO of its input and VL. Inline in both callers, so
 * that a packet's arrival ends in a tail call (ibfs__sw_head_new).
 *
 * The test of an empty FIFO waits for the FIFO's entry, often cold at
 * saturation; a copy of its answer elsewhere would not help, as the
 * append reads the entry's tail and writes the tail packet anyway.
 */
static inline __attribute__((always_inline)) void
sw_enqueue(struct ibfs_switch *sw, int in, struct ibfs_packet *p)
{
	int slot = ibfs__sw_slot(sw, p->in_vl);
	size_t b = ((size_t)in << sw->sshift) + (size_t)slot;
	struct sw_queue *q = &sw->q[b];

	p->ready_at = (sw->store_forward ? p->tail_at : p->head_at) +
		      sw->latency;
	/* From here on p->vl is its VL on the output; in_vl keeps the input. */
	p->vl = p->out_vl;
	p->next = NULL;
	sw->buffered++;
	if (q->tail) {
		q->tail->next = p;
		q->tail = p;
		return;
	}
	q->tail = p;
	q->head = p;
	ibfs__sw_head_new(sw, (uint32_t)b, p);
}

/* Sets p's output VL for output `out`; returns -1 if it is not usable. */
static int sw_map_vl(struct ibfs_switch *sw, struct ibfs_packet *p, int in,
		     int out)
{
	if (p->vl == IBFS_VL15) {
		p->out_vl = IBFS_VL15;
		return 0;
	}
	uint8_t vl = ibfs__sw_sl2vl(sw, in, out, p->sl);

	/* IBA 7.6.6: a VL of 15 or beyond the port's data VLs discards. */
	if (vl >= sw->data_vls)
		return -1;
	p->out_vl = vl;
	return 0;
}

/* Replicates multicast packet p to every MFT port but its input. */
static void sw_multicast(struct ibfs_switch *sw, int in,
			 struct ibfs_packet *p, const uint64_t *mask)
{
	struct ibfs_fabric *f = sw->dev.fab;
	struct ibfs_packet *copies[256];
	int k = 0;

	for (int o = 1; o <= sw->n; o++) {
		if (o == in || !(mask[o / 64] >> (o % 64) & 1))
			continue;
		if (!sw->dev.ports[o].up) {
			/* No copy for a down port (IBA 16.1.3.5). */
			sw->dev.ports[o].xmit_discards++;
			continue;
		}
		if (sw_map_vl(sw, p, in, o) < 0)
			continue;
		struct ibfs_packet *c = ibfs__packet_new(f);

		if (!c)
			break;
		uint64_t id = c->id;

		*c = *p;
		c->id = id;
		c->payload = NULL;
		if (p->payload) {
			c->payload = ibfs__payload_new(f);
			if (c->payload)
				memcpy(c->payload, p->payload,
				       p->payload_len);
		}
		c->out_port = (uint8_t)o;
		c->mc_orig = p;
		c->held = 1;
		f->pkts_buffered++;
		f->pkts_replicated++;
		copies[k++] = c;
	}
	if (!k) {
		sw_unroutable(sw, p);
		return;
	}
	/* The original stays aside until every copy has left. */
	ibfs__fabric_unhold(f, p);
	p->mc_refs = (uint32_t)k;
	for (int i = 0; i < k; i++) {
		struct ibfs_packet *c = copies[i];

		/* As sw_enqueue: ready after the routing latency, on its
		 * output VL; started at once if its output is idle. */
		c->ready_at = (sw->store_forward ? c->tail_at : c->head_at) +
			      sw->latency;
		c->vl = c->out_vl;
		c->next = NULL;
		if (!ibfs__sw_mc_start(sw, in, c))
			sw_enqueue(sw, in, copies[i]);
	}
}

/* p goes to output `out` (a good route): on its VL there, or discarded
 * when its SL maps to none. Inline in both callers (sw_receive's tail). */
static inline __attribute__((always_inline)) void
sw_forward(struct ibfs_switch *sw, int in, struct ibfs_packet *p, uint8_t out)
{
	if (sw_map_vl(sw, p, in, out) < 0) {
		sw_unroutable(sw, p);
		return;
	}
	p->out_port = out;
	sw_enqueue(sw, in, p);
}

/* p is for the switch itself: taken once its tail is in. */
static void sw_local(struct ibfs_switch *sw, struct ibfs_packet *p)
{
	ibfs__eq_schedule(&sw->dev.fab->eq, sw_tail_time(sw, p), sw_local_ev,
			  sw, (uint64_t)(uintptr_t)p);
}

/*
 * A DLID in the multicast range, or the permissive LID (the switch's
 * own). Out of line: sw_receive then makes only tail calls and saves no
 * registers.
 */
static void __attribute__((noinline))
sw_receive_mcast(struct ibfs_switch *sw, int in, struct ibfs_packet *p)
{
	uint16_t dlid = p->dlid;

	if (dlid == IBFS_PERMISSIVE_LID) {
		sw_local(sw, p);
		return;
	}
	const uint64_t *mask = ibfs__sw_mft_get(sw, dlid);

	if (!mask)
		sw_unroutable(sw, p);
	else
		sw_multicast(sw, in, p, mask);
}

/*
 * p's route is not to an output that is up, or is to its input: in the
 * order of the tests, a port a route may not name, the input, or an SL
 * that maps to no VL discards p as unroutable; a good route to a port
 * whose link is down discards it there (IBA 16.1.3.5 counts such packets
 * in PortXmitDiscards of that port).
 */
static void __attribute__((noinline))
sw_receive_bad(struct ibfs_switch *sw, int in, struct ibfs_packet *p,
	       uint8_t out)
{
	if ((unsigned)out - 1 >= sw->route_max || out == in ||
	    sw_map_vl(sw, p, in, out) < 0) {
		sw_unroutable(sw, p);
		return;
	}
	sw->dev.ports[out].xmit_discards++;
	sw_drop_at_tail(sw, p, sw_port_down_ev);
}

/*
 * p's P_Key passes the port: it does not enforce that way, or p's
 * partition is in its table, whatever the membership (which the end
 * ports check, IBA 10.9.3).
 */
static int sw_pkey_pass(const struct ibfs_port *port, int flag,
			const struct ibfs_packet *p)
{
	return !(port->pkey_enf & flag) ||
	       ibfs__port_pkey_find(port, p->pkey) >= 0;
}

/*
 * The arrival at a switch with an enforcing port (IBA 10.9.4): the
 * input's inbound check, the route as sw_receive makes it, the output's
 * outbound check. A packet that fails is dropped once its tail is in and
 * counted in that port's PortRcvConstraintErrors or
 * PortXmitConstraintErrors (IBA 16.1.3.5). Multicast copies are checked
 * inbound only. VL15 packets (SMPs) are exempt, and so is a packet of the
 * default partition while every enforcing port has it in its table
 * (SW_PKEY_DFLT, OpenSM's default configuration): it passes them all, and
 * their tables, in the ports' cold lines, are not read.
 */
static inline __attribute__((always_inline)) void
sw_receive_enforced(struct ibfs_switch *sw, int in, struct ibfs_packet *p)
{
	struct ibfs_port *inp = &sw->dev.ports[in];
	uint16_t dlid = p->dlid;
	int pass = p->vl == IBFS_VL15 ||
		   ((sw->pkey_enf & SW_PKEY_DFLT) &&
		    (p->pkey & IBFS_PKEY_BASE) == IBFS_PKEY_BASE);

	if (!pass && !sw_pkey_pass(inp, IBFS_PKEY_ENF_IN, p)) {
		inp->rcv_constraint_errors++;
		sw_drop_at_tail(sw, p, sw_pkey_ev);
		return;
	}
	if (ibfs__sw_own_lid(sw, dlid)) {
		sw_local(sw, p);
		return;
	}
	if (dlid >= IBFS_MCAST_LID_BASE) {
		sw_receive_mcast(sw, in, p);
		return;
	}
	uint8_t out = ibfs__sw_route(sw, in, dlid);

	if (!(sw->out_ok[out / 64] >> (out % 64) & 1) || out == in) {
		sw_receive_bad(sw, in, p, out);
		return;
	}
	if (!pass && !sw_pkey_pass(&sw->dev.ports[out], IBFS_PKEY_ENF_OUT, p)) {
		sw->dev.ports[out].xmit_constraint_errors++;
		sw_drop_at_tail(sw, p, sw_pkey_ev);
		return;
	}
	sw_forward(sw, in, p, out);
}

/* sw_receive's first test passed: p is for the switch, or it enforces. */
static void __attribute__((noinline))
sw_receive_local(struct ibfs_switch *sw, int in, struct ibfs_packet *p)
{
	if (sw->pkey_enf)
		sw_receive_enforced(sw, in, p);
	else
		sw_local(sw, p);
}

/*
 * The switch's receive (struct ibfs_device_ops): p's header reached input
 * `inp` a routing latency ago (the port's rx_delay). The switch's own
 * LIDs, and every packet while some port enforces partitions, go the
 * local way; multicast DLIDs go through the MFT, unicast ones through the
 * LFT, to an output that must be up and not the input.
 */
static void sw_receive(struct ibfs_device *dev, struct ibfs_port *inp,
		       struct ibfs_packet *p)
{
	struct ibfs_switch *sw = (struct ibfs_switch *)dev;
	int in = inp->num;
	uint16_t dlid = p->dlid;

	/*
	 * The permissive LID is the switch's too: tested with multicast.
	 * Every packet passes here while the switch enforces partitions.
	 */
	if ((dlid & sw->lid_mask) == sw->lid_local) {
		sw_receive_local(sw, in, p);
		return;
	}
	if (__builtin_expect(dlid >= IBFS_MCAST_LID_BASE, 0)) {
		sw_receive_mcast(sw, in, p);
		return;
	}
	uint8_t out = ibfs__sw_route(sw, in, dlid);

	/*
	 * A route to a port that may be named and is up (out_ok), not the
	 * input: one bit of the switch's line, the output port unread.
	 */
	if (__builtin_expect(!(sw->out_ok[out / 64] >> (out % 64) & 1) |
				     (out == in),
			     0)) {
		sw_receive_bad(sw, in, p, out);
		return;
	}
	sw_forward(sw, in, p, out);
}

/*
 * The link layer hands a packet over once its routing decision is made:
 * the routing latency after its header arrived (cut-through) or after its
 * tail arrived (store-and-forward). The switch then needs no timer.
 */
static void sw_set_rx_delay(struct ibfs_switch *sw)
{
	for (int i = 0; i <= sw->n; i++)
		ibfs__port_set_rx(&sw->dev.ports[i], sw->latency,
				  sw->store_forward);
}

/* The first line of an output holds its header and slots 0 and 1. */
_Static_assert(offsetof(struct sw_out, slot[2]) == 64,
	       "struct sw_out: header and first slots in one line");
_Static_assert(sizeof(struct sw_queue) == 32, "struct sw_queue: 32 bytes");
_Static_assert(offsetof(struct ibfs_switch, in_free) + 8 <= 128 &&
		       offsetof(struct ibfs_switch, go[1]) <= 192 &&
		       offsetof(struct ibfs_switch, out_ok) == 192 &&
		       sizeof(struct ibfs_switch) == 768,
	       "struct ibfs_switch: hot fields in its first four lines, "
	       "768 bytes (switch_int.h)");

/*
 * The link of `port` came up or went down (the fabric calls this at every
 * change of port->up, on both ends): keeps out_ok in step. What waits for
 * a down output is discarded at the tx_ready that follows (port_state.c).
 */
static void sw_port_state(struct ibfs_device *dev, struct ibfs_port *port,
			  int up)
{
	struct ibfs_switch *sw = (struct ibfs_switch *)dev;
	unsigned o = port->num;
	uint64_t bit = 1ULL << (o % 64);

	(void)up; /* the same as port->up, which is what out_ok copies */
	if (o < 1 || o > sw->route_max || !port->up)
		sw->out_ok[o / 64] &= ~bit;
	else
		sw->out_ok[o / 64] |= bit;
}

const struct ibfs_device_ops ibfs__switch_ops = {
	.kind = "switch",
	.receive = sw_receive,
	.tx_ready = ibfs__sw_tx_ready,
	.tx_done = ibfs__sw_tx_done,
	.port_state = sw_port_state,
	.pkey_cap = IBFS_SWITCH_PKEYS,
};

/*
 * Keeps lid_mask and lid_local, which sw_receive tests, in step with the
 * LID and LMC: the 2^lmc LIDs from lid (its low lmc bits ignored), or,
 * without a LID, the permissive LID only (which is the switch's anyway).
 */
static void sw_lid_update(struct ibfs_switch *sw)
{
	if (sw->pkey_enf) {
		sw->lid_mask = 0;
		sw->lid_local = 0;
		return;
	}
	if (!sw->lid) {
		sw->lid_mask = IBFS_PERMISSIVE_LID;
		sw->lid_local = IBFS_PERMISSIVE_LID;
		return;
	}
	sw->lid_mask = (uint16_t)~((1u << sw->lmc) - 1);
	sw->lid_local = sw->lid;
}

struct ibfs_switch *ibfs__switch_create(struct ibfs_fabric *f, int node,
					struct ibfs_diag *d)
{
	const struct ibfs_topology *t = f->topo;

	if (node < 0 || (size_t)node >= t->nnodes) {
		ibfs__diag(d, t->file ? t->file : "fabric", 0,
			   "switch node %d does not exist", node);
		return NULL;
	}
	const struct ibfs_topo_node *tn = &t->nodes[node];

	if (tn->type != IBFS_NODE_SWITCH || f->devices[node]) {
		ibfs__diag(d, t->file ? t->file : "fabric", tn->line,
			   "node '%s' is %s", tn->id,
			   tn->type != IBFS_NODE_SWITCH ? "not a switch" :
							  "already attached");
		return NULL;
	}
	/* Aligned as struct ibfs_switch asks: its hot lines, switch_int.h. */
	struct ibfs_switch *sw = aligned_alloc(_Alignof(struct ibfs_switch),
					       sizeof(*sw));

	if (!sw)
		goto oom;
	memset(sw, 0, sizeof(*sw));
	sw->dev.fab = f;
	sw->n = tn->nports;
	sw->data_vls = (uint8_t)f->ports[node][0].data_vls;
	sw->nslots = (uint8_t)(sw->data_vls + 1);
	sw->in_bits = (uint16_t)((1u << sw->nslots) - 1);
	sw->route_max = (uint8_t)(sw->n < IBFS_LFT_NONE ? sw->n :
						      IBFS_LFT_NONE - 1);
	while ((1 << sw->sshift) < sw->nslots)
		sw->sshift++;
	sw->nw = (uint8_t)((((sw->n + 1) << sw->sshift) + 63) / 64);
	sw_lid_update(sw);
	sw->latency = tn->latency;
	sw->store_forward = !!tn->store_forward;
	/*
	 * Queues: 32-byte entries, an input's slots at a power-of-two
	 * stride from a 64-byte boundary, so that they share as few lines
	 * as they can (one with a single data VL).
	 */
	size_t nq = ((size_t)sw->n + 1) << sw->sshift;
	size_t qbytes = (nq * sizeof(struct sw_queue) + 63) / 64 * 64;
	size_t nreqw = (size_t)sw->nslots * (size_t)sw->nw;
	/*
	 * The request words of every output, when they do not fit inside
	 * each: one allocation, out[0].req (freed there, switch_destroy).
	 */
	uint64_t *req_ext = NULL;

	sw->q = aligned_alloc(64, qbytes);
	if (sw->q)
		memset(sw->q, 0, qbytes);
	/* Aligned as struct sw_out asks (its size is a multiple of that). */
	sw->out = aligned_alloc(_Alignof(struct sw_out),
				((size_t)sw->n + 1) * sizeof(*sw->out));
	if (sw->out)
		memset(sw->out, 0, ((size_t)sw->n + 1) * sizeof(*sw->out));
	if (nreqw > SW_REQ_INLINE && sw->out) {
		req_ext = calloc(((size_t)sw->n + 1) * nreqw, sizeof(uint64_t));
		sw->out[0].req = req_ext;
	}
	if (!sw->q || !sw->out || (nreqw > SW_REQ_INLINE && !req_ext))
		goto oom;
	for (int i = 0; i <= sw->n; i++) {
		struct sw_out *o = &sw->out[i];

		o->req = req_ext ? req_ext + (size_t)i * nreqw : o->req_in;
		o->wake_at = IBFS_TIME_NEVER;
		ibfs__vlarb_default(&o->arb, sw->data_vls);
		ibfs__sw_vlarb_one_update(sw, i);
	}
	sw->in_free = sw->nw > SW_FREE_INLINE ?
			      calloc((size_t)sw->nw, sizeof(uint64_t)) :
			      sw->free_in;
	if (!sw->in_free || ibfs__sw_fwd_init(sw) < 0 ||
	    ibfs__sw_sl2vl_init(sw) < 0)
		goto oom;
	ibfs__sw_in_free_init(sw);
	sw->dev.ops = &ibfs__switch_ops;
	ibfs__fabric_attach(f, node, &sw->dev);

	sw_set_rx_delay(sw);
	return sw;
oom:
	ibfs__switch_destroy(sw);
	ibfs__diag(d, t->file ? t->file : "fabric", tn->line,
		   "out of memory creating switch '%s'", tn->id);
	return NULL;
}

void ibfs__switch_destroy(struct ibfs_switch *sw)
{
	if (!sw)
		return;
	for (int i = 0; sw->q && i <= sw->n; i++) {
		for (int s = 0; s < sw->nslots; s++) {
			struct ibfs_packet *p = ibfs__sw_queue(sw, i, s)->head;

			while (p) {
				struct ibfs_packet *next = p->next;

				if (p->mc_orig && --p->mc_orig->mc_refs == 0)
					ibfs__packet_free(sw->dev.fab,
							  p->mc_orig);
				ibfs__packet_free(sw->dev.fab, p);
				p = next;
			}
		}
	}
	if (sw->dev.fab && sw->dev.fab->devices[sw->dev.node] == &sw->dev)
		sw->dev.fab->devices[sw->dev.node] = NULL;
	if (sw->dev.ops)
		ibfs__sw_cc_free(sw);
	free(sw->q);
	if (sw->out && sw->out[0].req != sw->out[0].req_in)
		free(sw->out[0].req);
	free(sw->out);
	if (sw->in_free != sw->free_in)
		free(sw->in_free);
	ibfs__sw_fwd_free(sw);
	free(sw->sl2vl);
	free(sw);
}

void ibfs__switch_set_lid(struct ibfs_switch *sw, uint16_t lid)
{
	sw->lid = lid;
	sw_lid_update(sw);
}

void ibfs__switch_set_lmc(struct ibfs_switch *sw, uint8_t lmc)
{
	sw->lmc = lmc > 7 ? 7 : lmc;
	sw_lid_update(sw);
}

uint16_t ibfs__switch_get_lid(const struct ibfs_switch *sw)
{
	return sw->lid;
}

void ibfs__switch_set_latency(struct ibfs_switch *sw, ibfs_time_t latency)
{
	sw->latency = latency;
	sw_set_rx_delay(sw);
}

void ibfs__switch_set_store_forward(struct ibfs_switch *sw, int on)
{
	sw->store_forward = !!on;
	sw_set_rx_delay(sw);
}

void ibfs__switch_set_xbar_fast(struct ibfs_switch *sw, int on)
{
	sw->xbar_general = !on;
	for (int i = 0; i <= sw->n; i++)
		ibfs__sw_vlarb_one_update(sw, i);
}

void ibfs__switch_set_local(struct ibfs_switch *sw, ibfs_switch_local_fn fn,
			    void *ctx)
{
	sw->local = fn;
	sw->local_ctx = ctx;
}

int ibfs__switch_counters(const struct ibfs_switch *sw, int port,
			  struct ibfs_port_counters *c)
{
	if (port < 0 || port > sw->n)
		return -1;
	const struct ibfs_port *p = &sw->dev.ports[port];

	*c = p->cnt;
	c->xmit_wait = ibfs__port_xmit_wait(p);
	return 0;
}

/*
 * Keeps sw->pkey_enf: SW_PKEY_ON while a port enforces, with SW_PKEY_DFLT
 * while every enforcing port's table holds the default partition.
 */
static void sw_pkey_update(struct ibfs_switch *sw)
{
	int on = 0, dflt = SW_PKEY_DFLT;

	for (int i = 1; i <= sw->n; i++) {
		const struct ibfs_port *pt = &sw->dev.ports[i];

		if (!pt->pkey_enf)
			continue;
		on = SW_PKEY_ON;
		if (ibfs__port_pkey_find(pt, IBFS_PKEY_DEFAULT) < 0)
			dflt = 0;
	}
	sw->pkey_enf = (uint8_t)(on ? on | dflt : 0);
	sw_lid_update(sw);
}

int ibfs__switch_set_pkey_enf(struct ibfs_switch *sw, int port, int flags)
{
	if (port < 1 || port > sw->n || (flags & ~3))
		return -1;
	sw->dev.ports[port].pkey_enf = (uint8_t)flags;
	sw_pkey_update(sw);
	return 0;
}

int ibfs__switch_set_pkeys(struct ibfs_switch *sw, int port, unsigned first,
			   const uint16_t *pkeys, unsigned n)
{
	if (port < 0 || port > sw->n)
		return -1;
	struct ibfs_port *pt = &sw->dev.ports[port];
	int rc = first + n > ibfs__port_pkey_cap(pt) ? -1 : 0;

	/* An entry as it is is not written: a table at power-up stays
	 * unallocated (pkey.h). */
	for (unsigned i = 0; i < n && !rc; i++)
		if (ibfs__port_pkey(pt, first + i) != pkeys[i])
			rc = ibfs__port_pkey_set(pt, first + i, pkeys[i]);
	sw_pkey_update(sw);
	return rc;
}

uint64_t ibfs__switch_relay_errors(const struct ibfs_switch *sw)
{
	return sw->relay_errors;
}

uint64_t ibfs__switch_buffered(const struct ibfs_switch *sw)
{
	return sw->buffered;
}

struct ibfs_device *ibfs__switch_device(struct ibfs_switch *sw)
{
	return &sw->dev;
}

struct ibfs_switch *ibfs__switch_of(struct ibfs_device *dev)
{
	/* A switch with CC has its own copy of the operations (cc_mark.c). */
	if (!dev || dev->ops->tx_ready != ibfs__sw_tx_ready)
		return NULL;
	return (struct ibfs_switch *)dev;
}
