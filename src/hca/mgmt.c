/* SPDX-License-Identifier: MIT */
/*
 * Management packets on an HCA: QP0, through which a subnet management
 * agent (SMA) or a subnet manager (SM) on this HCA receives and sends
 * SMPs, the MADs that travel on VL15 (IBA 3.5.1, 13.4), and QP1, the
 * general services interface (GSI, IBA 13.5.1) through which a Subnet
 * Administrator (SA) and its clients exchange GMPs on a data VL. The
 * transport of data QPs never sees them.
 *
 * Receive: a packet of kind IBFS_PKT_MGMT that reaches a port, after the
 * HCA's receive pipeline, goes to QP1 when its BTH names QP 1, else to
 * QP0's receiver, which owns it from then on. For QP0 the DLID is not
 * checked here: a directed-route SMP carries the permissive LID (IBA
 * 14.2.2), so the agent decides what it accepts. QP1 takes a GMP for one
 * of the port's LIDs with the GSI's Q_Key (IBA 13.5.3.2: a wrong Q_Key is
 * dropped) and hands a request (R bit of the method clear, IBA 13.4.5) to
 * the class agent attached as server, a response to the client (the way a
 * host's MAD layer routes by method and TID); what nobody takes is
 * dropped.
 *
 * Transmit: a management packet leaves at once if its port's transmitter
 * is idle and its VL may send, else it waits in a FIFO of its port that
 * the port's scheduler (tx_sched.c) empties before it looks at any data
 * packet: VL15 needs no credits and goes ahead of the data VLs (IBA
 * 7.6.9, 7.9.4). GMPs have a FIFO of their own, served after VL15's, so
 * that a GMP waiting for credits on its data VL holds no SMP; they go
 * ahead of the data QPs' packets rather than through the VL arbiter (a
 * simplification: GSI traffic is a few MADs). A GMP for one of the port's
 * own LIDs (an SA client on the SM's HCA) loops back at once, without
 * the wire, as a QP0 SMP with no hops does (sma.c).
 */
#include <stdlib.h>

#include "hca/hca_int.h"
#include "hca/mgmt.h"
#include "hca/sa_mad.h"

struct mgmt_queue {
	struct ibfs_packet *head, *tail;
};

struct ibfs_hca_mgmt {
	ibfs_hca_mgmt_rx_fn rx;
	void *ctx;
	ibfs_hca_mgmt_rx_fn gsi[2];  /* IBFS_GSI_SERVER, IBFS_GSI_CLIENT */
	void *gsi_ctx[2];
	/* Packets in the queues: tx_run asks on every packet it sends. */
	uint32_t queued;
	/* [2 x (nports + 1)]: VL15's by port number, then the GSI's. */
	struct mgmt_queue q[];
};

static struct ibfs_hca_mgmt *mgmt_get(struct ibfs_hca *h)
{
	if (!h->mgmt)
		h->mgmt = calloc(1, sizeof(*h->mgmt) +
					    2 * ((size_t)h->dev.nports + 1) *
						    sizeof(struct mgmt_queue));
	return h->mgmt;
}

int ibfs__hca_mgmt_attach(struct ibfs_hca *h, ibfs_hca_mgmt_rx_fn rx,
			  void *ctx)
{
	if (!mgmt_get(h))
		return -1;
	h->mgmt->rx = rx;
	h->mgmt->ctx = ctx;
	return 0;
}

int ibfs__hca_gsi_attach(struct ibfs_hca *h, int role, ibfs_hca_mgmt_rx_fn fn,
			 void *ctx)
{
	if ((role != IBFS_GSI_SERVER && role != IBFS_GSI_CLIENT) ||
	    !mgmt_get(h))
		return -1;
	h->mgmt->gsi[role] = fn;
	h->mgmt->gsi_ctx[role] = ctx;
	return 0;
}

static void mgmt_free_all(struct ibfs_hca *h)
{
	for (int i = 0; i < 2 * (h->dev.nports + 1); i++) {
		struct ibfs_packet *p = h->mgmt->q[i].head;
		while (p) {
			struct ibfs_packet *next = p->next;
			ibfs__packet_free(h->dev.fab, p);
			p = next;
		}
	}
	free(h->mgmt);
	h->mgmt = NULL;
}

/* Frees everything once neither QP0 nor QP1 has a receiver left. */
static void mgmt_release(struct ibfs_hca *h)
{
	if (!h->mgmt->rx && !h->mgmt->gsi[0] && !h->mgmt->gsi[1])
		mgmt_free_all(h);
}

void ibfs__hca_mgmt_detach(struct ibfs_hca *h)
{
	if (!h->mgmt)
		return;
	h->mgmt->rx = NULL;
	mgmt_release(h);
}

void ibfs__hca_gsi_detach(struct ibfs_hca *h, int role)
{
	if (!h->mgmt || (role != IBFS_GSI_SERVER && role != IBFS_GSI_CLIENT))
		return;
	h->mgmt->gsi[role] = NULL;
	mgmt_release(h);
}

void ibfs__hca_mgmt_free(struct ibfs_hca *h)
{
	if (h->mgmt)
		mgmt_free_all(h);
}

static int mgmt_queue_send(struct ibfs_hca *h, int port, int gsi,
			   struct ibfs_packet *p)
{
	if (!h->mgmt || port < 1 || port > h->dev.nports)
		return -1;
	struct ibfs_hca_port *hp = &h->hp[port];
	struct mgmt_queue *q =
		&h->mgmt->q[port + (gsi ? h->dev.nports + 1 : 0)];
	p->next = NULL;
	h->st.tx_pkts++;
	if (!q->head && h->lops->can_send(hp, p)) {
		h->lops->send(hp, p);
		return 0;
	}
	if (q->tail)
		q->tail->next = p;
	else
		q->head = p;
	q->tail = p;
	h->mgmt->queued++;
	return 0;
}

int ibfs__hca_mgmt_send(struct ibfs_hca *h, int port, struct ibfs_packet *p)
{
	return mgmt_queue_send(h, port, 0, p);
}

/* A GMP to the port's own LID, handed over without the wire. */
static void mgmt_loop_ev(void *obj, uint64_t arg)
{
	struct ibfs_hca_port *hp = obj;
	struct ibfs_hca *h = hp->hca;
	struct ibfs_packet *p = (struct ibfs_packet *)(uintptr_t)arg;
	int role = p->payload[3] & 0x80 ? IBFS_GSI_CLIENT : IBFS_GSI_SERVER;

	if (!h->mgmt || !h->mgmt->gsi[role]) {
		ibfs__packet_free(h->dev.fab, p);
		return;
	}
	h->mgmt->gsi[role](h->mgmt->gsi_ctx[role], h, hp->num, p);
}

int ibfs__hca_gsi_send(struct ibfs_hca *h, int port, struct ibfs_packet *p)
{
	if (h->mgmt && port >= 1 && port <= h->dev.nports &&
	    h->lops->accept(&h->hp[port], p)) {
		p->in_port = (uint8_t)port;
		ibfs__eq_after(&h->dev.fab->eq, 0, mgmt_loop_ev, &h->hp[port],
			       (uint64_t)(uintptr_t)p);
		return 0;
	}
	return mgmt_queue_send(h, port, 1, p);
}

static int mgmt_queue_tx(struct ibfs_hca_port *hp, struct mgmt_queue *q)
{
	struct ibfs_hca *h = hp->hca;
	struct ibfs_packet *p = q->head;
	if (!p || !h->lops->can_send(hp, p))
		return 0;
	q->head = p->next;
	if (!q->head)
		q->tail = NULL;
	p->next = NULL;
	h->mgmt->queued--;
	h->lops->send(hp, p);
	return 1;
}

int ibfs__hca_mgmt_tx(struct ibfs_hca_port *hp)
{
	struct ibfs_hca_mgmt *m = hp->hca->mgmt;
	if (!m->queued)
		return 0;
	return mgmt_queue_tx(hp, &m->q[hp->num]) ||
	       mgmt_queue_tx(hp, &m->q[hp->num + hp->hca->dev.nports + 1]);
}

/* QP1: a GMP for this port with the GSI's Q_Key, to its taker (1). */
static int mgmt_gsi_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = hp->hca;
	if (!p->payload || p->payload_len != IBFS_MAD_BYTES ||
	    !(p->xh & IBFS_XH_DETH) || p->deth.qkey != IBFS_GSI_QKEY ||
	    !h->lops->accept(hp, p))
		return 0;
	int role = p->payload[3] & 0x80 ? IBFS_GSI_CLIENT : IBFS_GSI_SERVER;
	if (!h->mgmt->gsi[role])
		return 0;
	ibfs__fabric_deliver(h->dev.fab, p);
	h->mgmt->gsi[role](h->mgmt->gsi_ctx[role], h, hp->num, p);
	return 1;
}

int ibfs__hca_mgmt_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = hp->hca;
	if (!h->mgmt)
		return 0;
	if (p->dest_qp == IBFS_GSI_QP)
		return mgmt_gsi_rx(hp, p);
	if (!h->mgmt->rx)
		return 0;
	ibfs__fabric_deliver(h->dev.fab, p);
	h->mgmt->rx(h->mgmt->ctx, h, hp->num, p);
	return 1;
}
