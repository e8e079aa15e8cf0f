/* SPDX-License-Identifier: MIT */
/*
 * The runtime fabric built from a topology: one event queue, one port
 * structure per topology port, the link parameters of each direction, the
 * input buffers shared out among the data VLs, the initial credits, the
 * packet and payload pools, and the conservation check of the run.
 *
 * Input buffers: a node's `buffer` bytes (the input buffer of one port,
 * shared out among the data VLs: docs/fabric-format.md) are split into
 * 64-byte blocks (IBA 7.9.4.1) and divided evenly among the data VLs;
 * blocks left over by the division are unused. VL15 has a separate buffer
 * (IBFS_VL15_BUF_BLOCKS).
 * A sender's initial credits on a VL equal the blocks of its peer's input
 * buffer on that VL.
 */
#include "fabric/fabric.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Input buffer when neither the node nor the defaults give one: the same
 * 32 KiB a port as the topology's defaults (topology.c).
 */
#define FABRIC_DEFAULT_BUFFER (32 * 1024)

static int fabric_data_vls(int n)
{
	/* IBA 7.6.1: a port supports 1, 2, 4, 8 or 15 data VLs. */
	if (n == 1 || n == 2 || n == 4 || n == 8 || n == 15)
		return n;
	return 1;
}

static void fabric_init_port(struct ibfs_fabric *f, struct ibfs_port *port,
			     int node, int num, uint64_t buffer, int data_vls)
{
	memset(port, 0, sizeof(*port));
	port->fab = f;
	port->node = node;
	port->num = num;
	port->link = -1;
	port->data_vls = data_vls;
	port->flow = &ibfs__ib_credit_flow;
	uint64_t per_vl = buffer / IBFS_CREDIT_BLOCK / (uint64_t)data_vls;

	if (per_vl > UINT32_MAX / 2)
		per_vl = UINT32_MAX / 2;
	for (int vl = 0; vl < data_vls; vl++)
		port->buf_cap[vl] = (uint32_t)per_vl;
	port->buf_cap[IBFS_VL15] = IBFS_VL15_BUF_BLOCKS;
}

struct ibfs_fabric *ibfs__fabric_new(const struct ibfs_topology *t,
				     uint64_t seed, int data_mode)
{
	struct ibfs_fabric *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	if (ibfs__eq_init(&f->eq) < 0) {
		free(f);
		return NULL;
	}
	f->topo = t;
	f->seed = seed;
	f->data_mode = data_mode;
	f->mtu = t->def.mtu > 0 ? (uint32_t)t->def.mtu : 4096;
	size_t nn = t->nnodes ? t->nnodes : 1;

	f->devices = calloc(nn, sizeof(*f->devices));
	f->ports = calloc(nn, sizeof(*f->ports));
	if (!f->devices || !f->ports)
		goto fail;
	int data_vls = fabric_data_vls(t->def.data_vls);

	for (size_t n = 0; n < t->nnodes; n++) {
		const struct ibfs_topo_node *tn = &t->nodes[n];
		uint64_t buffer = tn->buffer ? tn->buffer :
				  t->def.buffer ? t->def.buffer :
						  FABRIC_DEFAULT_BUFFER;

		/*
		 * Ports are 64-byte aligned (link.h) so that their hot fields
		 * share cache lines; sizeof is then a multiple of 64, as
		 * aligned_alloc wants. fabric_init_port clears each one.
		 */
		f->ports[n] = aligned_alloc(_Alignof(struct ibfs_port),
					    ((size_t)tn->nports + 1) *
						    sizeof(struct ibfs_port));
		if (!f->ports[n])
			goto fail;
		for (int i = 0; i <= tn->nports; i++)
			fabric_init_port(f, &f->ports[n][i], (int)n, i,
					 buffer, data_vls);
	}
	for (size_t l = 0; l < t->nlinks; l++) {
		const struct ibfs_topo_link *tl = &t->links[l];
		struct ibfs_port *a = &f->ports[tl->node_a][tl->port_a];
		struct ibfs_port *b = &f->ports[tl->node_b][tl->port_b];
		struct ibfs_port *ends[2] = { a, b };

		a->peer = b;
		b->peer = a;
		for (int e = 0; e < 2; e++) {
			/* What the other end's device asked (link.h). */
			ends[e]->peer_rx_delay = ends[!e]->rx_delay;
			ends[e]->peer_rx_tail = ends[!e]->rx_at_tail;
			ends[e]->link = (int)l;
			/* Up once both ends have a device (fabric_attach). */
			ends[e]->up = 0;
			ends[e]->rate = tl->rate;
			ends[e]->prop = tl->prop;
			ends[e]->ser_lrh = ibfs__rate_ser_time(tl->rate,
							       IBFS_LRH_BYTES);
			ends[e]->ser_fcp = ibfs__rate_ser_time(tl->rate,
							       IBFS_FCP_BYTES);
		}
	}
	for (size_t n = 0; n < t->nnodes; n++)
		for (int i = 0; i <= t->nodes[n].nports; i++)
			if (f->ports[n][i].peer)
				f->ports[n][i].flow->init(&f->ports[n][i]);
	/*
	 * Slab sizes are a trade-off, not a model figure: packets are small
	 * and many (about 200 KiB a slab), payloads are an MTU each.
	 */
	ibfs__pool_init(&f->packets, sizeof(struct ibfs_packet), 1024);
	ibfs__pool_init(&f->payloads, f->mtu, 64);
	return f;
fail:
	ibfs__fabric_free(f);
	return NULL;
}

void ibfs__fabric_free(struct ibfs_fabric *f)
{
	if (!f)
		return;
	if (f->ports)
		for (size_t n = 0; n < f->topo->nnodes; n++) {
			for (int i = 0; f->pkey_tables && f->ports[n] &&
					i <= f->topo->nodes[n].nports; i++)
				free(f->ports[n][i].pkeys);
			free(f->ports[n]);
		}
	free(f->ports);
	free(f->devices);
	if (f->packets.obj_size)
		ibfs__pool_destroy(&f->packets);
	if (f->payloads.obj_size)
		ibfs__pool_destroy(&f->payloads);
	ibfs__eq_destroy(&f->eq);
	free(f);
}

/* Tells port's device, if it has the hook, that its link came up. */
static void fabric_port_up(struct ibfs_port *port)
{
	struct ibfs_device *dev = port->dev;

	if (dev->ops->port_state)
		dev->ops->port_state(dev, port, 1);
}

void ibfs__fabric_attach(struct ibfs_fabric *f, int node,
			 struct ibfs_device *dev)
{
	dev->fab = f;
	dev->node = node;
	dev->nports = f->topo->nodes[node].nports;
	dev->ports = f->ports[node];
	for (int i = 0; i <= dev->nports; i++)
		dev->ports[i].dev = dev;
	f->devices[node] = dev;
	/*
	 * A link trains only with a port at each end: it comes up when the
	 * second of its two devices is attached, so that no packet is sent
	 * to a port with no device to take it and return its credits (and
	 * ibfs__fabric_link_set does not raise it before), unless it was
	 * set down meanwhile (admin_down): then it waits to be set up.
	 * Both devices' port_state hooks hear of it, as of any change of
	 * `up` (a switch keeps its own copy of its outputs' state,
	 * src/switch); devices are attached before the run, so nothing is
	 * waiting to be sent: neither listeners nor tx_ready are called.
	 */
	for (int i = 0; i <= dev->nports; i++) {
		struct ibfs_port *port = &dev->ports[i];

		if (!port->peer || !port->peer->dev || port->admin_down)
			continue;
		port->up = port->peer->up = 1;
		fabric_port_up(port);
		fabric_port_up(port->peer);
	}
}

void ibfs__fabric_observe(struct ibfs_fabric *f, struct ibfs_observer *o)
{
	o->next = f->observers;
	f->observers = o;
}

struct ibfs_packet *ibfs__packet_new(struct ibfs_fabric *f)
{
	struct ibfs_packet *p = ibfs__pool_get(&f->packets);

	if (!p)
		return ibfs__fabric_nomem(f);
	memset(p, 0, sizeof(*p));
	p->id = f->next_packet_id++;
	return p;
}

uint8_t *ibfs__payload_new(struct ibfs_fabric *f)
{
	uint8_t *b = ibfs__pool_get(&f->payloads);

	return b ? b : ibfs__fabric_nomem(f);
}

struct ibfs_packet *ibfs__mad_packet_new(struct ibfs_fabric *f, uint16_t dlid,
					 uint16_t slid, uint8_t sl,
					 uint8_t vl, uint16_t pkey,
					 uint32_t qp, uint32_t qkey)
{
	struct ibfs_packet *p = ibfs__packet_new(f);

	if (!p)
		return NULL;
	p->payload = ibfs__payload_new(f);
	if (!p->payload) {
		ibfs__packet_free(f, p);
		return NULL;
	}
	p->kind = IBFS_PKT_MGMT;
	p->dlid = dlid;
	p->slid = slid;
	p->sl = sl;
	p->vl = vl;
	p->lnh = 2;          /* BTH follows the LRH (IBA 7.7.1) */
	p->opcode = 0x64;    /* UD SEND Only (IBA 9.2, Table 38) */
	p->pkey = pkey;
	p->dest_qp = qp;
	p->xh = IBFS_XH_DETH;
	p->deth.qkey = qkey;
	p->deth.src_qp = qp;
	p->payload_len = IBFS_MAD_BYTES;
	return p;
}

void *__attribute__((cold)) ibfs__fabric_nomem(struct ibfs_fabric *f)
{
	f->eq.nomem = 1;
	ibfs__fabric_stop(f);
	return NULL;
}

void ibfs__fabric_stop(struct ibfs_fabric *f)
{
	f->stopped = 1;
	ibfs__eq_limit(&f->eq, f->eq.now);
}

uint64_t ibfs__fabric_on_wire(const struct ibfs_fabric *f)
{
	uint64_t n = 0;

	for (size_t node = 0; node < f->topo->nnodes; node++)
		for (int i = 0; i <= f->topo->nodes[node].nports; i++)
			n += ibfs__port_wire_pkts(&f->ports[node][i]);
	return n;
}

/* Packets the ports started, from their counts. */
static uint64_t fabric_port_sends(const struct ibfs_fabric *f)
{
	uint64_t n = 0;

	for (size_t node = 0; node < f->topo->nnodes; node++)
		for (int i = 0; i <= f->topo->nodes[node].nports; i++)
			n += f->ports[node][i].cnt.xmit_pkts;
	return n;
}

const char *ibfs__drop_cause_str(enum ibfs_drop_cause c)
{
	static const char *const name[IBFS_DROP_CAUSES] = {
		[IBFS_DROP_LINK_DOWN] = "link_down",
		[IBFS_DROP_PORT_DOWN] = "port_down",
		[IBFS_DROP_NO_ROUTE] = "no_route",
		[IBFS_DROP_PKEY] = "pkey",
		[IBFS_DROP_SWITCH_BUFFER] = "switch_buffer",
		[IBFS_DROP_HEADROOM] = "headroom",
		[IBFS_DROP_VL15] = "vl15_overflow",
		[IBFS_DROP_NO_RECEIVER] = "no_receiver",
		[IBFS_DROP_INJECTED] = "injected",
	};

	return (unsigned)c < IBFS_DROP_CAUSES ? name[c] : "?";
}

/* Every drop has exactly one cause: the causes sum to pkts_dropped. */
static int fabric_drops_check(const struct ibfs_fabric *f, char *msg,
			      size_t len)
{
	uint64_t sum = 0;

	for (int c = 0; c < IBFS_DROP_CAUSES; c++)
		sum += f->drops[c];
	if (sum == f->pkts_dropped)
		return 0;
	snprintf(msg, len,
		 "packets: the drops by cause sum to %" PRIu64
		 ", not to dropped %" PRIu64,
		 sum, f->pkts_dropped);
	return -1;
}

int ibfs__fabric_check(const struct ibfs_fabric *f, char *msg, size_t len)
{
	uint64_t on_wire = ibfs__fabric_on_wire(f);
	uint64_t in = f->pkts_injected + f->pkts_replicated;
	uint64_t out = f->pkts_delivered + f->pkts_dropped + f->pkts_retired +
		       on_wire + f->pkts_buffered;

	if (in != out) {
		snprintf(msg, len,
			 "packets: injected %" PRIu64 " + replicated %" PRIu64
			 " != delivered %" PRIu64 " + dropped %" PRIu64
			 " + retired %" PRIu64 " + on wire %" PRIu64
			 " + buffered %" PRIu64,
			 f->pkts_injected, f->pkts_replicated,
			 f->pkts_delivered, f->pkts_dropped, f->pkts_retired,
			 on_wire, f->pkts_buffered);
		return -1;
	}
	if (fabric_drops_check(f, msg, len) < 0)
		return -1;
	uint64_t sends = fabric_port_sends(f);

	if (sends != f->pkt_sends) {
		snprintf(msg, len,
			 "packets: the ports sent %" PRIu64
			 " but the fabric counted %" PRIu64,
			 sends, f->pkt_sends);
		return -1;
	}
	if (f->packets.in_use < ibfs__fabric_in_flight(f)) {
		snprintf(msg, len,
			 "packets: %zu allocated but %" PRIu64 " in flight",
			 f->packets.in_use, ibfs__fabric_in_flight(f));
		return -1;
	}
	const struct ibfs_topology *t = f->topo;

	for (size_t n = 0; n < t->nnodes; n++) {
		for (int i = 0; i <= t->nodes[n].nports; i++) {
			const struct ibfs_port *rx = &f->ports[n][i];
			const struct ibfs_port *tx = rx->peer;

			/* The credits of this direction, where it has them. */
			if (!tx || !tx->flow->keeps_credits ||
			    !rx->flow->keeps_credits)
				continue;
			for (int vl = 0; vl < rx->data_vls; vl++) {
				const struct ibfs_port_vl *tv = &tx->vls[vl];
				const struct ibfs_port_vl *rv = &rx->vls[vl];
				uint32_t wb = ibfs__port_wire_blocks(tx, vl);
				uint32_t fw = ibfs__port_fcp_blocks(rx, vl);
				int64_t sum = (int64_t)tv->credits + wb +
					      rv->buf_used + rv->fc_unsent + fw;

				if (sum == (int64_t)rx->buf_cap[vl])
					continue;
				snprintf(msg, len,
					 "credits: %s:%d -> %s:%d VL%d: "
					 "credits %d + on wire %u + occupied "
					 "%u + unsent %u + in FCPs %u != "
					 "buffer %u",
					 t->nodes[tx->node].id, tx->num,
					 t->nodes[n].id, i, vl,
					 (int)tv->credits, wb, rv->buf_used,
					 rv->fc_unsent, fw,
					 rx->buf_cap[vl]);
				return -1;
			}
		}
	}
	return 0;
}
