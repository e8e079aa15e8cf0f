/* SPDX-License-Identifier: MIT */
/*
 * Congestion control at the HCA: the seam every control plugs into
 * (struct ibfs_hca_cc_ops, hca_int.h), and the CNP queue they share.
 *
 * A control paces each QP's request packets (until, told of each packet
 * by sent), learns of congestion from what arrives (rx: FECN or an ECN
 * mark, a CNP, an ACK's timestamps or telemetry) and may answer with
 * CNPs, which wait in a FIFO per port and leave ahead of data packets
 * (tx_sched.c). Without a control, the IBA's FECN, BECN and CNP are
 * still counted (cc_throttle.c's ibfs__cc_ib_rx), as an HCA's counters
 * do whether or not CC is enabled.
 */
#include "hca/hca_int.h"

void ibfs__hca_cc_install(struct ibfs_hca *h, struct ibfs_hca_cc *cc)
{
	ibfs__hca_cc_free(h);
	h->cc = cc;
}

void ibfs__hca_cc_free(struct ibfs_hca *h)
{
	if (h->cc)
		h->cc->ops->free(h);
	h->cc = NULL;
}

int ibfs__cc_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	const struct ibfs_hca_cc *cc = hp->hca->cc;

	if (cc)
		return cc->ops->rx(hp, p);
	/* An RNIC without a control counts CE marks and CNPs, and sends
	 * none (InfiniBand's BECN and CNP are not RoCEv2's). */
	if (hp->hca->lops == &ibfs__roce_link_ops) {
		if (p->opcode == IBFS_OP_ROCE_CNP) {
			hp->hca->st.cnp_rx++;
			return 1;
		}
		hp->hca->st.fecn_rx += p->fecn;
		return 0;
	}
	return ibfs__cc_ib_rx(hp, p);
}

void ibfs__cc_sent(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp,
		   const struct ibfs_cc_tx *tx, ibfs_time_t left)
{
	const struct ibfs_hca_cc *cc = hp->hca->cc;

	if (cc)
		cc->ops->sent(hp, qp, tx, left);
}

void ibfs__cc_cnp_queue(struct ibfs_hca_port *hp, struct ibfs_packet *c)
{
	c->next = NULL;
	if (hp->cnp_tail)
		hp->cnp_tail->next = c;
	else
		hp->cnp_head = c;
	hp->cnp_tail = c;
	ibfs__hca_port_run_at(hp, ibfs__hca_now(hp->hca));
}

int ibfs__cc_cnp_tx(struct ibfs_hca_port *hp)
{
	struct ibfs_hca *h = hp->hca;
	struct ibfs_packet *c = hp->cnp_head;

	if (!c || !h->lops->can_send(hp, c))
		return 0;
	hp->cnp_head = c->next;
	if (!hp->cnp_head)
		hp->cnp_tail = NULL;
	c->next = NULL;
	h->st.cnp_tx++;
	h->st.tx_pkts++;
	h->lops->send(hp, c);
	return 1;
}

void ibfs__cc_cnp_flush(struct ibfs_hca_port *hp)
{
	struct ibfs_packet *c = hp->cnp_head;

	while (c) {
		struct ibfs_packet *next = c->next;

		ibfs__packet_free(hp->hca->dev.fab, c);
		c = next;
	}
	hp->cnp_head = hp->cnp_tail = NULL;
}
