/* SPDX-License-Identifier: MIT */
/*
 * Management packets on an HCA: the hook through which a subnet management
 * agent (SMA) or a subnet manager (SM) on this HCA receives and sends SMPs,
 * the MADs of QP0 that travel on VL15 (IBA 3.5.1, 13.4). The transport of
 * data QPs never sees them.
 *
 * Receive: a packet of kind IBFS_PKT_MGMT that reaches a port, after the
 * HCA's receive pipeline, goes to the attached receiver, which owns it from
 * then on. The DLID is not checked here: a directed-route SMP carries the
 * permissive LID (IBA 14.2.2), so the agent decides what it accepts.
 *
 * Transmit: a management packet leaves at once if its port's transmitter
 * is idle, else it waits in a FIFO of its port that the port's scheduler
 * (hca.c) empties before it looks at any data packet: VL15 needs no
 * credits and goes ahead of the data VLs (IBA 7.6.9, 7.9.4).
 */
#include <stdlib.h>

#include "hca/hca.h"

struct mgmt_queue {
	struct ibfs_packet *head, *tail;
};

struct ibfs_hca_mgmt {
	ibfs_hca_mgmt_rx_fn rx;
	void *ctx;
	struct mgmt_queue q[]; /* [nports + 1], by port number */
};

int ibfs__hca_mgmt_attach(struct ibfs_hca *h, ibfs_hca_mgmt_rx_fn rx,
			  void *ctx)
{
	if (!h->mgmt) {
		h->mgmt = calloc(1, sizeof(*h->mgmt) +
					    ((size_t)h->dev.nports + 1) *
						    sizeof(struct mgmt_queue));
		if (!h->mgmt)
			return -1;
	}
	h->mgmt->rx = rx;
	h->mgmt->ctx = ctx;
	return 0;
}

void ibfs__hca_mgmt_detach(struct ibfs_hca *h)
{
	if (!h->mgmt)
		return;
	for (int i = 0; i <= h->dev.nports; i++) {
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

int ibfs__hca_mgmt_send(struct ibfs_hca *h, int port, struct ibfs_packet *p)
{
	if (!h->mgmt || port < 1 || port > h->dev.nports)
		return -1;
	struct ibfs_hca_port *hp = &h->hp[port];
	struct mgmt_queue *q = &h->mgmt->q[port];
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
	return 0;
}

int ibfs__hca_mgmt_tx(struct ibfs_hca_port *hp)
{
	struct ibfs_hca *h = hp->hca;
	struct mgmt_queue *q = &h->mgmt->q[hp->num];
	struct ibfs_packet *p = q->head;
	if (!p || !h->lops->can_send(hp, p))
		return 0;
	q->head = p->next;
	if (!q->head)
		q->tail = NULL;
	p->next = NULL;
	h->lops->send(hp, p);
	return 1;
}

int ibfs__hca_mgmt_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = hp->hca;
	if (!h->mgmt || !h->mgmt->rx)
		return 0;
	ibfs__fabric_deliver(h->dev.fab, p);
	h->mgmt->rx(h->mgmt->ctx, h, hp->num, p);
	return 1;
}
