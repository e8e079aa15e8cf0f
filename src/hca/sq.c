/* SPDX-License-Identifier: MIT */
/*
 * The requester's send engine: it turns send WQEs into request packets,
 * one path-MTU packet at a time (IBA 9.7.2, segmentation), with each
 * packet's timing:
 *   - the WQE reaches the HCA a doorbell delay after post_send;
 *   - unless the data is inline, the payload is read from host memory by
 *     DMA: the first read waits a PCIe round trip (dma_read), and every
 *     packet occupies the shared PCIe read channel for its length at the
 *     profile's rate, so a stream of packets runs at min(PCIe, wire);
 *   - the send pipeline adds tx_pkt before the packet can take the wire.
 * Only the next packet of a QP is timed ahead (one packet of prefetch);
 * the port's scheduler (tx_sched.c) builds it when it is ready and the link is
 * free. RC rewinds here for go-back-N (IBA 9.7.5.1.4); under IRN the engine
 * visits each lost packet before the next new one (rc_irn.c) and keeps
 * within the BDP cap.
 */
#include <string.h>

#include "hca/hca_int.h"

static int sq_is_rdatomic(uint8_t op)
{
	return op == IBFS_WR_RDMA_READ || op == IBFS_WR_ATOMIC_CMP_AND_SWP ||
	       op == IBFS_WR_ATOMIC_FETCH_AND_ADD;
}

static int sq_has_payload(uint8_t op)
{
	return !sq_is_rdatomic(op);
}

void ibfs__sq_prepare(struct ibfs_hca_qp *qp)
{
	/* SQD finishes the message in progress and starts no other
	 * (IBA 10.3.1, Send Queue Drain). */
	int draining = qp->pub.state == IBFS_QPS_SQD && qp->tx_off;
	if (qp->req_ready_valid ||
	    (qp->pub.state != IBFS_QPS_RTS && !draining))
		return;
	struct ibfs_hca *h = qp->hca;
	/* IRN: a lost packet goes again before any new one (rc_irn.c). */
	int retx = h->irn && qp->pub.qp_type == IBFS_QPT_RC &&
		   ibfs__irn_seek_lost(qp);
	if (!retx && qp->sq_next == qp->sq_tail)
		return;
	struct ibfs_swqe *w = ibfs__sq_at(qp, qp->sq_next);
	if (qp->pub.qp_type == IBFS_QPT_RC && !retx) {
		int depth = qp->attr.max_rd_atomic ? qp->attr.max_rd_atomic : 1;
		if (sq_is_rdatomic(w->opcode) && qp->rd_out >= depth)
			return; /* initiator depth reached (IBA 9.5) */
		if (w->fence && qp->rd_out > 0)
			return; /* fence: wait for READs and atomics */
		if (h->irn && ibfs__irn_window_full(qp))
			return; /* IRN's BDP cap */
	}
	ibfs_time_t now = ibfs__hca_now(h);
	int start = qp->tx_off == 0 || qp->fresh;
	/*
	 * A QP begins a WQE at most every wqe_gap (the profile's message
	 * rate); ibfs__sq_build commits the begin with the first packet.
	 */
	ibfs_time_t begin = w->ready_at;
	if (qp->tx_off == 0) {
		if (begin < qp->wqe_next)
			begin = qp->wqe_next;
		qp->wqe_begin = begin;
	}
	ibfs_time_t t = start ? (begin > now ? begin : now) : now;
	if (sq_has_payload(w->opcode) && !w->inl && w->len) {
		uint32_t plen = w->len - qp->tx_off;
		if (plen > qp->mtu)
			plen = qp->mtu;
		/* The HCA issues a WQE's reads once it holds the WQE, so
		 * consecutive WQEs stream; a retransmission reads anew. */
		ibfs_time_t ds = qp->fresh ? now + h->prof->dma_read :
				 start ? begin + h->prof->dma_read :
					 qp->dma_end;
		if (ds < h->pcie_rd_free)
			ds = h->pcie_rd_free;
		qp->dma_end = ds + ibfs__hca_pcie_ser(h, plen);
		h->pcie_rd_free = qp->dma_end;
		t = qp->dma_end;
	}
	qp->req_ready = t + h->prof->tx_pkt;
	qp->req_ready_valid = 1;
	qp->fresh = 0;
}

static uint32_t sq_npsn(const struct ibfs_hca_qp *qp,
			const struct ibfs_swqe *w)
{
	if (w->opcode == IBFS_WR_ATOMIC_CMP_AND_SWP ||
	    w->opcode == IBFS_WR_ATOMIC_FETCH_AND_ADD || w->len == 0)
		return 1;
	return (w->len + qp->mtu - 1) / qp->mtu;
}

/* Local protection checks when a WQE starts (IBA 10.6.3, C10-?). */
static int sq_check_local(struct ibfs_hca_qp *qp, struct ibfs_swqe *w)
{
	if (w->inl)
		return 0;
	int acc = sq_is_rdatomic(w->opcode) ? IBFS_ACCESS_LOCAL_WRITE : 0;
	struct ibfs_hca_pd *pd = (struct ibfs_hca_pd *)qp->pub.pd;
	return ibfs__mr_check_sgl(qp->hca, pd, w->sge, w->num_sge, acc) !=
	       IBFS_MR_OK;
}

struct ibfs_packet *ibfs__sq_build(struct ibfs_hca_qp *qp)
{
	struct ibfs_hca *h = qp->hca;
	struct ibfs_swqe *w = ibfs__sq_at(qp, qp->sq_next);
	enum ibfs_qp_type type = qp->pub.qp_type;
	qp->req_ready_valid = 0;
	if (qp->tx_off == 0 && sq_check_local(qp, w)) {
		w->done = 1;
		w->failed = 1;
		w->status = IBFS_WC_LOC_PROT_ERR;
		ibfs__qp_error(qp, IBFS_WC_LOC_PROT_ERR);
		return NULL;
	}
	uint32_t plen = 0, npsn = 1;
	int first = qp->tx_off == 0, last = 1;
	if (first)
		qp->wqe_next = qp->wqe_begin + h->prof->wqe_gap;
	if (sq_has_payload(w->opcode)) {
		plen = w->len - qp->tx_off;
		if (plen > qp->mtu)
			plen = qp->mtu;
		last = qp->tx_off + plen == w->len;
	} else if (w->opcode == IBFS_WR_RDMA_READ) {
		uint32_t rest = w->len - qp->tx_off;
		npsn = rest ? (rest + qp->mtu - 1) / qp->mtu : 1;
	}
	struct ibfs_packet *p = ibfs__hca_packet(h, plen);
	if (!p) {
		ibfs__qp_error(qp, IBFS_WC_GENERAL_ERR);
		return NULL;
	}
	if (first) {
		w->first_psn = qp->next_psn;
		w->npsn = sq_npsn(qp, w);
	}
	p->opcode = ibfs__hca_req_opcode(type, (enum ibfs_wr_opcode)w->opcode,
					 first, last);
	const struct ibfs_hca_opinfo *oi = ibfs__hca_opinfo(p->opcode);
	p->xh = oi->xh;
	p->psn = qp->next_psn;
	p->dest_qp = type == IBFS_QPT_UD ? w->dqpn : qp->attr.dest_qp_num;
	p->se = w->solicited && last;
	if (p->payload) {
		if (w->inl)
			memcpy(p->payload,
			       qp->inl + (qp->sq_next % qp->sq_cap) *
						 qp->init.cap.max_inline_data +
				       qp->tx_off,
			       plen);
		else
			ibfs__sgl_gather(w->sge, w->num_sge, qp->tx_off,
					 p->payload, plen);
	}
	if (p->xh & IBFS_XH_RETH) {
		p->reth.va = w->raddr + qp->tx_off;
		p->reth.rkey = w->rkey;
		p->reth.dma_len = w->len - qp->tx_off;
	}
	if (p->xh & IBFS_XH_IMM)
		p->imm = w->imm;
	if (p->xh & IBFS_XH_ATOMIC) {
		p->atomic.va = w->raddr;
		p->atomic.rkey = w->rkey;
		p->atomic.swap_add = w->opcode == IBFS_WR_ATOMIC_CMP_AND_SWP ?
					     w->swap : w->cmp_add;
		p->atomic.compare = w->cmp_add;
	}
	uint16_t dlid = qp->attr.ah_attr.dlid;
	uint8_t sl = qp->attr.ah_attr.sl;
	uint8_t path_bits = qp->attr.ah_attr.src_path_bits;
	if (type == IBFS_QPT_UD) {
		p->xh |= IBFS_XH_DETH;
		/* IBA 10.2.5: a WR Q_Key with its high bit set means "use
		 * the QP's own Q_Key". */
		p->deth.qkey = (w->qkey & 0x80000000u) ? qp->attr.qkey
						       : w->qkey;
		p->deth.src_qp = qp->pub.qp_num;
		dlid = w->dlid;
		sl = w->sl;
		path_bits = w->path_bits;
		/* A global AH: a GRH (LNH "IBA global", 40 bytes more on the
		 * wire, packet.c) to the AH's DGID. */
		if (w->global) {
			p->xh |= IBFS_XH_GRH | IBFS_XH_DGID;
			memcpy(p->dgid, w->dgid, 16);
		}
	}
	qp->next_psn = ibfs__psn_add(qp->next_psn, npsn);
	if (type == IBFS_QPT_RC) {
		qp->pkts_since_ack++;
		uint32_t every = h->irn ? ibfs__irn_ack_every(qp)
					: h->ack_every;
		if (last || qp->pkts_since_ack >= every) {
			p->ack_req = 1;
			qp->pkts_since_ack = 0;
		}
		/* Counted on each (re)issue: a rewind recounts the rest. */
		if (sq_is_rdatomic(w->opcode))
			qp->rd_out++;
		if (w->opcode == IBFS_WR_RDMA_READ)
			qp->tx_off = w->len;
	}
	if (type == IBFS_QPT_RC)
		ibfs__cc_stamp(qp, p);
	h->lops->frame(&h->hp[qp->port], p, dlid, sl, path_bits,
		       ibfs__qp_pkey(qp));
	if (sq_has_payload(w->opcode))
		qp->tx_off += plen;
	else
		qp->tx_off = w->len;
	if (last || !sq_has_payload(w->opcode)) {
		qp->sq_next++;
		qp->tx_off = 0;
		if (type != IBFS_QPT_RC) {
			/*
			 * UC and UD complete when the last packet has left:
			 * tx_sched.c completes them once it is on the wire,
			 * at the time its last byte leaves.
			 */
			w->done = 1;
			w->status = IBFS_WC_SUCCESS;
		}
	}
	if (type == IBFS_QPT_RC && h->irn)
		ibfs__irn_built(qp, p);
	if (type == IBFS_QPT_RC)
		ibfs__rc_timer_arm(qp);
	ibfs__sq_prepare(qp);
	return p;
}

/*
 * The request packets sent from PSN psn on (psn in WQE i; end: just past
 * the WQEs begun), which a rewind to psn sends again: one per PSN, but
 * one for a READ or an atomic whatever its PSNs (a READ's request asks
 * for all its responses from the PSN it names; IBA 9.7.5.1.3).
 */
static uint64_t sq_sent_since(struct ibfs_hca_qp *qp, uint64_t i,
			      uint64_t end, uint32_t psn)
{
	uint64_t n = 0;

	for (; i < end; i++) {
		const struct ibfs_swqe *w = ibfs__sq_at(qp, i);
		uint32_t end_psn = ibfs__psn_end(w);
		uint32_t from = ibfs__psn_cmp(psn, w->first_psn) > 0 ?
					psn : w->first_psn;
		uint32_t to = ibfs__psn_cmp(end_psn, qp->next_psn) < 0 ?
				      end_psn : qp->next_psn;

		if (ibfs__psn_cmp(to, from) <= 0)
			continue;
		n += sq_is_rdatomic(w->opcode) ?
			     1 : (uint32_t)ibfs__psn_cmp(to, from);
	}
	return n;
}

/*
 * Go-back-N: the send pointer goes back to psn and passes once more over
 * every packet between, each then sent again; a packet is sent once, plus
 * once for each rewind that jumped back over it. So the packets are
 * counted here, at the rewind, and building a packet costs nothing more.
 * A QP that leaves RTS, or a run that ends, before the pointer is back
 * where it was leaves the packets not sent again counted all the same.
 */
void ibfs__sq_rewind(struct ibfs_hca_qp *qp, uint32_t psn)
{
	uint64_t end = qp->sq_next + (qp->tx_off ? 1 : 0);
	if (end > qp->sq_tail)
		end = qp->sq_tail;
	for (uint64_t i = qp->sq_head; i < end; i++) {
		struct ibfs_swqe *w = ibfs__sq_at(qp, i);
		if (ibfs__psn_cmp(psn, w->first_psn) < 0 ||
		    ibfs__psn_cmp(psn, ibfs__psn_end(w)) >= 0)
			continue;
		uint32_t k = (uint32_t)ibfs__psn_cmp(psn, w->first_psn);
		qp->hca->st.retransmitted += sq_sent_since(qp, i, end, psn);
		qp->sq_next = i;
		qp->tx_off = sq_is_rdatomic(w->opcode) &&
					     w->opcode != IBFS_WR_RDMA_READ ?
				     0 : k * qp->mtu;
		if (k == 0)
			qp->tx_off = 0;
		qp->next_psn = psn;
		qp->rd_out = 0;
		for (uint64_t j = qp->sq_head; j < i; j++) {
			struct ibfs_swqe *x = ibfs__sq_at(qp, j);
			if (sq_is_rdatomic(x->opcode) && !x->done)
				qp->rd_out++;
		}
		qp->req_ready_valid = 0;
		qp->fresh = 1;
		qp->pkts_since_ack = 0;
		ibfs__sq_prepare(qp);
		ibfs__hca_qp_wake(qp);
		return;
	}
}
