/* SPDX-License-Identifier: MIT */
/*
 * The responder side of RC and UC (IBA 9.7.4, 9.7.5.1): checks the PSN
 * against the expected PSN, places SEND data into receive WQEs and RDMA
 * WRITE data into memory regions, executes READs and atomics, and queues
 * the responses.
 *   - PSN ahead of the expected one: NAK PSN sequence error, once, and
 *     drop until the expected PSN comes (IBA 9.7.5.1.3). UC just drops the
 *     message in progress. Under IRN (rc_irn.c) RC keeps the packet and
 *     NACKs it selectively, and executes it once the gap fills.
 *   - PSN behind: a duplicate (IBA 9.7.5.1.2). SENDs and WRITEs are
 *     re-acknowledged, READs are executed again, an atomic's saved result
 *     is sent again.
 *   - A SEND with no receive WQE posted: RNR NAK with the QP's
 *     min_rnr_timer; the PSN is not consumed (IBA 9.7.5.1.5).
 *   - A bad R_Key, an access out of bounds or without permission: NAK
 *     remote access error; a request too long for its receive WQE or out
 *     of context: NAK invalid request. The responder QP then enters the
 *     error state, once the NAK has left (IBA 9.9.3.1.2).
 * ACKs are coalesced: one pending ACK is kept and updated to the newest
 * PSN until it is sent. READ responses and atomic ACKs are sent in PSN
 * order from a ring of max_dest_rd_atomic entries (responder resources).
 */
#include <string.h>

#include "hca/hca_int.h"

static void rs_error(struct ibfs_hca_qp *qp, uint8_t nak, uint32_t psn)
{
	if (qp->pub.qp_type == IBFS_QPT_UC)
		return; /* UC silently drops (IBA 9.8.3) */
	ibfs__rc_queue_ack(qp, IBFS_AETH_NAK | nak, psn);
	qp->err_pending = 1;
}

void ibfs__rc_queue_ack(struct ibfs_hca_qp *qp, uint8_t syn, uint32_t psn)
{
	if (qp->pub.qp_type != IBFS_QPT_RC)
		return;
	/* A NAK is not replaced by a later ACK: nothing after it counts. */
	if (qp->ack_pending && (qp->ack_syn & 0xe0) != IBFS_AETH_ACK &&
	    (syn & 0xe0) == IBFS_AETH_ACK)
		return;
	if (!qp->ack_pending)
		qp->ack_ready = ibfs__hca_now(qp->hca) + qp->hca->prof->ack_gen;
	qp->ack_pending = 1;
	qp->ack_syn = syn;
	qp->ack_psn = psn;
	ibfs__hca_qp_wake(qp);
}

static int rs_ack_allowed(const struct ibfs_hca_qp *qp)
{
	if (!qp->ack_pending)
		return 0;
	if (!qp->resp_count)
		return 1;
	return ibfs__psn_cmp(qp->ack_psn, qp->resp[qp->resp_head].psn) < 0;
}

int ibfs__rc_resp_pending(const struct ibfs_hca_qp *qp, ibfs_time_t *when)
{
	ibfs_time_t t = IBFS_TIME_NEVER;
	if (rs_ack_allowed(qp))
		t = qp->ack_ready;
	if (qp->resp_count && qp->resp[qp->resp_head].ready < t)
		t = qp->resp[qp->resp_head].ready;
	*when = t;
	return t != IBFS_TIME_NEVER;
}

static struct ibfs_packet *rs_packet(struct ibfs_hca_qp *qp, uint8_t op,
				     uint32_t psn, uint32_t len)
{
	struct ibfs_packet *p = ibfs__hca_packet(qp->hca, len);
	if (!p)
		return NULL;
	p->opcode = IBFS_OP_RC | op;
	p->xh = ibfs__hca_opinfo(p->opcode)->xh;
	p->psn = psn;
	p->dest_qp = qp->attr.dest_qp_num;
	p->aeth.syndrome = IBFS_AETH_ACK | 0x1f; /* credits not limited */
	p->aeth.msn = qp->msn & 0xffffff;
	return p;
}

static void rs_frame(struct ibfs_hca_qp *qp, struct ibfs_packet *p)
{
	qp->hca->lops->frame(&qp->hca->hp[qp->port], p,
			     qp->attr.ah_attr.dlid, qp->attr.ah_attr.sl,
			     qp->attr.ah_attr.src_path_bits, ibfs__qp_pkey(qp));
}

static void rs_next_ready(struct ibfs_hca_qp *qp, struct ibfs_resp *e,
			  ibfs_time_t base)
{
	struct ibfs_hca *h = qp->hca;
	uint32_t plen = e->left < qp->mtu ? e->left : qp->mtu;
	ibfs_time_t ds = base > e->dma_end ? base : e->dma_end;
	if (ds < h->pcie_rd_free)
		ds = h->pcie_rd_free;
	e->dma_end = ds + ibfs__hca_pcie_ser(h, plen);
	h->pcie_rd_free = e->dma_end;
	e->ready = e->dma_end + h->prof->tx_pkt;
}

struct ibfs_packet *ibfs__rc_resp_build(struct ibfs_hca_qp *qp)
{
	ibfs_time_t now = ibfs__hca_now(qp->hca);
	struct ibfs_packet *p;
	if (rs_ack_allowed(qp) && qp->ack_ready <= now) {
		p = rs_packet(qp, IBFS_OP_ACK, qp->ack_psn, 0);
		if (!p)
			return NULL;
		p->aeth.syndrome = qp->ack_syn;
		qp->ack_pending = 0;
		if (qp->irn)
			ibfs__irn_sack_fill(qp, p);
		qp->hca->st.acks++;
		/* A FECN-marked request came: BECN back (IBA A10.3.1). */
		if (qp->cc_becn) {
			p->becn = 1;
			qp->cc_becn = 0;
			qp->hca->st.becn_tx++;
		}
		ibfs__cc_stamp(qp, p);
		rs_frame(qp, p);
		if (qp->err_pending && (qp->ack_syn & 0xe0) == IBFS_AETH_NAK) {
			qp->err_pending = 0;
			ibfs__qp_error(qp, IBFS_WC_WR_FLUSH_ERR);
		}
		return p;
	}
	struct ibfs_resp *e = &qp->resp[qp->resp_head];
	if (e->atomic) {
		p = rs_packet(qp, IBFS_OP_ATOMIC_ACK, e->psn, 0);
		if (!p)
			return NULL;
		p->atomic_ack = e->orig;
		e->left = 0;
	} else {
		uint32_t plen = e->left < qp->mtu ? e->left : qp->mtu;
		int first = e->left == e->total, last = plen == e->left;
		uint8_t op = first && last ? IBFS_OP_READ_RESP_ONLY :
			     first ? IBFS_OP_READ_RESP_FIRST :
			     last ? IBFS_OP_READ_RESP_LAST :
				    IBFS_OP_READ_RESP_MIDDLE;
		p = rs_packet(qp, op, e->psn, plen);
		if (!p)
			return NULL;
		if (p->payload)
			memcpy(p->payload, (const void *)(uintptr_t)e->va,
			       plen);
		e->va += plen;
		e->left -= plen;
		e->psn = ibfs__psn_add(e->psn, 1);
	}
	rs_frame(qp, p);
	if (e->left == 0) {
		qp->resp_head = (qp->resp_head + 1) % qp->resp_cap;
		qp->resp_count--;
		struct ibfs_resp *nx = &qp->resp[qp->resp_head];
		if (qp->resp_count && !nx->atomic &&
		    nx->ready == IBFS_TIME_NEVER)
			rs_next_ready(qp, nx, nx->dma_end);
	} else {
		/* Reads of the next packets stream behind this one. */
		rs_next_ready(qp, e, e->dma_end);
	}
	return p;
}

static struct ibfs_resp *rs_resp_new(struct ibfs_hca_qp *qp)
{
	uint32_t lim = qp->attr.max_dest_rd_atomic ?
			       qp->attr.max_dest_rd_atomic : 1;
	if (lim > qp->resp_cap)
		lim = qp->resp_cap;
	if (qp->resp_count >= lim)
		return NULL;
	struct ibfs_resp *e =
		&qp->resp[(qp->resp_head + qp->resp_count) % qp->resp_cap];
	memset(e, 0, sizeof(*e));
	qp->resp_count++;
	return e;
}

static int rs_access(struct ibfs_hca_qp *qp, uint32_t rkey, uint64_t va,
		     uint64_t len, int acc)
{
	if ((qp->attr.qp_access_flags & acc) != (unsigned)acc)
		return IBFS_MR_ACCESS;
	if (len == 0)
		return IBFS_MR_OK; /* zero-length RDMA needs no key (9.4.3) */
	return ibfs__mr_check(qp->hca, rkey,
			      (struct ibfs_hca_pd *)qp->pub.pd, va, len, acc);
}

/* READ and atomic requests, new or duplicate. Returns 0 or -1 (NAKed). */
static int rs_read(struct ibfs_hca_qp *qp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = qp->hca;
	if (rs_access(qp, p->reth.rkey, p->reth.va, p->reth.dma_len,
		      IBFS_ACCESS_REMOTE_READ) != IBFS_MR_OK) {
		rs_error(qp, IBFS_NAK_REM_ACCESS, p->psn);
		return -1;
	}
	struct ibfs_resp *e = rs_resp_new(qp);
	if (!e) {
		rs_error(qp, IBFS_NAK_INV_REQ, p->psn);
		return -1;
	}
	ibfs_time_t base = ibfs__hca_now(h) + h->prof->mem_xlate +
			   h->prof->read_resp + h->prof->dma_read;
	uint32_t n = p->reth.dma_len ? (p->reth.dma_len + qp->mtu - 1) / qp->mtu
				     : 1;
	e->psn = p->psn;
	e->last_psn = ibfs__psn_add(p->psn, n - 1);
	e->va = p->reth.va;
	e->left = e->total = p->reth.dma_len;
	/* Only the response at the head reads memory; the others wait
	 * (with their earliest start) so they do not hold the PCIe read
	 * channel out of order. */
	e->dma_end = base;
	if (qp->resp_count == 1)
		rs_next_ready(qp, e, base);
	else
		e->ready = IBFS_TIME_NEVER;
	return 0;
}

static int rs_atomic(struct ibfs_hca_qp *qp, struct ibfs_packet *p, int dup)
{
	struct ibfs_hca *h = qp->hca;
	uint64_t orig = 0;
	if (dup) {
		int k = 0;
		while (k < IBFS_AT_HIST && !(qp->at_hist[k].valid &&
					     qp->at_hist[k].psn == p->psn))
			k++;
		if (k == IBFS_AT_HIST)
			return 0; /* too old to replay: ignore it */
		orig = qp->at_hist[k].orig;
	} else {
		if (p->atomic.va & 7) {
			rs_error(qp, IBFS_NAK_INV_REQ, p->psn);
			return -1;
		}
		if (rs_access(qp, p->atomic.rkey, p->atomic.va, 8,
			      IBFS_ACCESS_REMOTE_ATOMIC) != IBFS_MR_OK) {
			rs_error(qp, IBFS_NAK_REM_ACCESS, p->psn);
			return -1;
		}
	}
	struct ibfs_resp *e = rs_resp_new(qp);
	if (!e) {
		rs_error(qp, IBFS_NAK_INV_REQ, p->psn);
		return -1;
	}
	if (!dup && h->dev.fab->data_mode) {
		uint64_t *m = (uint64_t *)(uintptr_t)p->atomic.va;
		orig = *m;
		if ((p->opcode & 0x1f) == IBFS_OP_CMP_SWAP) {
			if (orig == p->atomic.compare)
				*m = p->atomic.swap_add;
		} else {
			*m = orig + p->atomic.swap_add;
		}
	}
	if (!dup) {
		uint32_t k = qp->at_next++ % IBFS_AT_HIST;
		qp->at_hist[k].valid = 1;
		qp->at_hist[k].psn = p->psn;
		qp->at_hist[k].orig = orig;
	}
	e->atomic = 1;
	e->psn = e->last_psn = p->psn;
	e->orig = orig;
	/* Read-modify-write through PCIe, then the response. */
	e->ready = ibfs__hca_now(h) + h->prof->mem_xlate + h->prof->read_resp +
		   h->prof->dma_read + h->prof->tx_pkt;
	return 0;
}

/* Takes the next receive WQE into qp->cur_rwqe (srq.c); -1 if none. */
static int rs_take_rwqe(struct ibfs_hca_qp *qp)
{
	if (qp->rwqe_kept) {
		qp->rwqe_kept = 0;
		return 0;
	}
	if (ibfs__rq_empty(qp->rq))
		return -1;
	qp->cur_rwqe = qp->rq->ring[qp->rq->head % qp->rq->cap];
	qp->rq->head++;
	return 0;
}

/* Completes qp->cur_rwqe. */
static void rs_recv_cqe(struct ibfs_hca_qp *qp, struct ibfs_packet *p,
			enum ibfs_wc_status st, enum ibfs_wc_opcode op,
			uint32_t len)
{
	const struct ibfs_rwqe *r = &qp->cur_rwqe;
	struct ibfs_wc wc = {
		.wr_id = r->wr_id,
		.status = st,
		.opcode = op,
		.byte_len = len,
		.qp_num = qp->pub.qp_num,
		.slid = p->slid,
		.sl = p->sl,
		.dlid_path_bits = ibfs__hca_dlid_path_bits(
			&qp->hca->hp[qp->port], p->dlid),
	};
	if (p->xh & IBFS_XH_IMM) {
		wc.imm_data = p->imm;
		wc.wc_flags |= IBFS_WC_WITH_IMM;
	}
	ibfs__cq_push_after((struct ibfs_hca_cq *)qp->pub.recv_cq, &wc,
			    qp->last_data_vis);
}

static int rs_send(struct ibfs_hca_qp *qp, struct ibfs_packet *p,
		   const struct ibfs_hca_opinfo *oi)
{
	struct ibfs_hca *h = qp->hca;
	if (oi->flags & IBFS_OPF_FIRST) {
		if (rs_take_rwqe(qp) < 0) {
			if (qp->pub.qp_type == IBFS_QPT_RC)
				ibfs__rc_queue_ack(qp, IBFS_AETH_RNR |
						   qp->attr.min_rnr_timer,
						   p->psn);
			return -1;
		}
		qp->in_send = 1;
		qp->recv_off = 0;
		qp->recv_err = IBFS_WC_SUCCESS;
	} else if (!qp->in_send) {
		rs_error(qp, IBFS_NAK_INV_REQ, p->psn);
		return -1;
	}
	const struct ibfs_rwqe *r = &qp->cur_rwqe;
	if (qp->recv_err == IBFS_WC_SUCCESS) {
		if (qp->recv_off + p->payload_len > r->len)
			qp->recv_err = IBFS_WC_LOC_LEN_ERR;
		else if ((oi->flags & IBFS_OPF_FIRST) &&
			 ibfs__mr_check_sgl(h, qp->rq->pd,
					    r->sge, r->num_sge,
					    IBFS_ACCESS_LOCAL_WRITE) !=
				 IBFS_MR_OK)
			qp->recv_err = IBFS_WC_LOC_PROT_ERR;
	}
	if (qp->recv_err == IBFS_WC_SUCCESS) {
		if (p->payload)
			ibfs__sgl_scatter(r->sge, r->num_sge, qp->recv_off,
					  p->payload, p->payload_len);
		qp->last_data_vis = ibfs__hca_dma_write(h, ibfs__hca_now(h),
							p->payload_len);
	}
	qp->recv_off += p->payload_len;
	if (oi->flags & IBFS_OPF_LAST) {
		qp->in_send = 0;
		qp->msn++;
		int st = qp->recv_err;
		rs_recv_cqe(qp, p, st, IBFS_WC_RECV, qp->recv_off);
		if (st != IBFS_WC_SUCCESS) {
			/* IBA 9.9.3.1.2: a length error is an invalid
			 * request; a protection error a remote operational
			 * error. */
			rs_error(qp, st == IBFS_WC_LOC_LEN_ERR ?
					     IBFS_NAK_INV_REQ : IBFS_NAK_REM_OP,
				 p->psn);
			return -1;
		}
	}
	return 0;
}

static int rs_write(struct ibfs_hca_qp *qp, struct ibfs_packet *p,
		    const struct ibfs_hca_opinfo *oi)
{
	struct ibfs_hca *h = qp->hca;
	ibfs_time_t t = ibfs__hca_now(h);
	if ((oi->flags & IBFS_OPF_LAST) && (oi->flags & IBFS_OPF_IMM) &&
	    ibfs__rq_empty(qp->rq) && !qp->rwqe_kept) {
		if (qp->pub.qp_type == IBFS_QPT_RC)
			ibfs__rc_queue_ack(qp, IBFS_AETH_RNR |
					   qp->attr.min_rnr_timer, p->psn);
		return -1;
	}
	if (oi->flags & IBFS_OPF_FIRST) {
		if (rs_access(qp, p->reth.rkey, p->reth.va, p->reth.dma_len,
			      IBFS_ACCESS_REMOTE_WRITE) != IBFS_MR_OK) {
			rs_error(qp, IBFS_NAK_REM_ACCESS, p->psn);
			return -1;
		}
		qp->in_write = 1;
		qp->w_va = p->reth.va;
		qp->w_rkey = p->reth.rkey;
		qp->w_left = p->reth.dma_len;
		t += h->prof->mem_xlate;
	} else if (!qp->in_write) {
		rs_error(qp, IBFS_NAK_INV_REQ, p->psn);
		return -1;
	}
	if (p->payload_len > qp->w_left ||
	    ((oi->flags & IBFS_OPF_LAST) && p->payload_len != qp->w_left)) {
		rs_error(qp, IBFS_NAK_INV_REQ, p->psn);
		return -1;
	}
	if (p->payload && p->payload_len)
		memcpy((void *)(uintptr_t)qp->w_va, p->payload, p->payload_len);
	ibfs_time_t vis = ibfs__hca_dma_write(h, t, p->payload_len);
	qp->last_data_vis = vis;
	if (h->write_hook && p->payload_len)
		h->write_hook(h->write_hook_arg, qp, qp->w_va, p->payload_len,
			      vis);
	qp->w_va += p->payload_len;
	qp->w_left -= p->payload_len;
	if (oi->flags & IBFS_OPF_LAST) {
		qp->in_write = 0;
		qp->msn++;
		if ((oi->flags & IBFS_OPF_IMM) && rs_take_rwqe(qp) == 0)
			rs_recv_cqe(qp, p, IBFS_WC_SUCCESS,
				    IBFS_WC_RECV_RDMA_WITH_IMM, 0);
	}
	return 0;
}

static void rs_rx(struct ibfs_hca_qp *qp, struct ibfs_packet *p, int uc)
{
	enum ibfs_qp_state s = qp->pub.state;
	if (s != IBFS_QPS_RTR && s != IBFS_QPS_RTS && s != IBFS_QPS_SQD)
		return;
	if (qp->err_pending)
		return;
	const struct ibfs_hca_opinfo *oi = ibfs__hca_opinfo(p->opcode);
	int32_t d = ibfs__psn_cmp(p->psn, qp->epsn);
	if (uc && d != 0) {
		/* UC: a gap loses the message in progress (IBA 9.8.3);
		 * its receive WQE serves the next SEND. */
		if (qp->in_send)
			qp->rwqe_kept = 1;
		qp->in_send = qp->in_write = 0;
		if (d < 0)
			return;
		qp->epsn = p->psn;
		if (!(oi->flags & IBFS_OPF_FIRST)) {
			qp->epsn = ibfs__psn_add(p->psn, 1);
			return;
		}
		d = 0;
	}
	if (d > 0 && !uc && qp->hca->irn) {
		ibfs__irn_ooo(qp, p); /* kept and NACKed selectively */
		return;
	}
	if (d > 0) {
		if (!qp->nak_sent) {
			qp->nak_sent = 1;
			ibfs__rc_queue_ack(qp, IBFS_AETH_NAK | IBFS_NAK_PSN_SEQ,
					   qp->epsn);
		}
		return;
	}
	if (d < 0) {
		qp->hca->st.duplicates++;
		if (oi->flags & IBFS_OPF_READ)
			rs_read(qp, p);
		else if (oi->flags & IBFS_OPF_ATOMIC)
			rs_atomic(qp, p, 1);
		else if (p->ack_req)
			ibfs__rc_queue_ack(qp, IBFS_AETH_ACK | 0x1f,
					   ibfs__psn_add(qp->epsn, -1u));
		ibfs__hca_qp_wake(qp);
		return;
	}
	qp->nak_sent = 0;
	uint32_t npsn = 1;
	int r;
	if (oi->flags & IBFS_OPF_SEND) {
		r = rs_send(qp, p, oi);
	} else if (oi->flags & IBFS_OPF_WRITE) {
		r = rs_write(qp, p, oi);
	} else if (oi->flags & IBFS_OPF_READ) {
		r = rs_read(qp, p);
		if (p->reth.dma_len)
			npsn = (p->reth.dma_len + qp->mtu - 1) / qp->mtu;
		if (!r)
			qp->msn++;
	} else {
		r = rs_atomic(qp, p, 0);
		if (!r)
			qp->msn++;
	}
	if (r)
		return;
	qp->epsn = ibfs__psn_add(qp->epsn, npsn);
	if (!uc && p->ack_req && (oi->flags & (IBFS_OPF_SEND | IBFS_OPF_WRITE)))
		ibfs__rc_queue_ack(qp, IBFS_AETH_ACK | 0x1f, p->psn);
	ibfs__hca_qp_wake(qp);
	if (!uc && qp->irn)
		ibfs__irn_drain(qp);
}

void ibfs__rc_resp_rx(struct ibfs_hca_qp *qp, struct ibfs_packet *p)
{
	rs_rx(qp, p, 0);
}

void ibfs__uc_rx(struct ibfs_hca_qp *qp, struct ibfs_packet *p)
{
	rs_rx(qp, p, 1);
}
