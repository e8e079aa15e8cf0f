/* SPDX-License-Identifier: MIT */
/*
 * The RC requester's receive side (IBA 9.7.5.1-9.7.5.2): ACKs, NAKs, READ
 * responses and atomic acknowledgements. ACKs are cumulative: an ACK for
 * PSN a acknowledges every request up to a. A READ or atomic completes
 * only with its response data; a response also acknowledges every earlier
 * PSN. Responses must arrive in PSN order: one that skips a PSN means a
 * packet was lost, and is dropped (the local ACK timer resends from the
 * oldest unacknowledged PSN; IRN asks again at once, rc_irn.c). Send WQEs
 * complete in order (IBA 10.8.3), under IRN too.
 */
#include <string.h>

#include "hca/hca_int.h"

static int rq_rdatomic(const struct ibfs_swqe *w)
{
	return w->opcode == IBFS_WR_RDMA_READ ||
	       w->opcode == IBFS_WR_ATOMIC_CMP_AND_SWP ||
	       w->opcode == IBFS_WR_ATOMIC_FETCH_AND_ADD;
}

static int rq_in(uint32_t psn, uint32_t first, uint32_t n)
{
	return ibfs__psn_cmp(psn, first) >= 0 &&
	       ibfs__psn_cmp(psn, ibfs__psn_add(first, n)) < 0;
}

/* Index just past the WQEs that have had packets sent. */
static uint64_t rq_sent_end(const struct ibfs_hca_qp *qp)
{
	uint64_t end = qp->sq_next + (qp->tx_off ? 1 : 0);
	return end > qp->sq_tail ? qp->sq_tail : end;
}

static void rq_progress(struct ibfs_hca_qp *qp, uint32_t una)
{
	if (ibfs__psn_cmp(una, qp->una_psn) <= 0)
		return;
	if (qp->irn)
		ibfs__irn_acked(qp, qp->una_psn, una);
	qp->una_psn = una;
	qp->retry_left = qp->attr.retry_cnt;
	qp->rnr_left = qp->attr.rnr_retry;
	ibfs__rc_timer_stop(qp);
	ibfs__rc_timer_arm(qp);
}

/*
 * Acknowledges every PSN up to and including a: SENDs and WRITEs whose
 * last PSN is covered are done. Stops at the first READ or atomic still
 * waiting for its response; returns it (or NULL).
 */
static struct ibfs_swqe *rq_ack_upto(struct ibfs_hca_qp *qp, uint32_t a)
{
	uint64_t end = rq_sent_end(qp);
	uint32_t una = ibfs__psn_add(a, 1);
	struct ibfs_swqe *stop = NULL;
	for (uint64_t i = qp->sq_head; i < end; i++) {
		struct ibfs_swqe *w = ibfs__sq_at(qp, i);
		if (w->done)
			continue;
		uint32_t last = ibfs__psn_add(w->first_psn, w->npsn - 1);
		if (rq_rdatomic(w)) {
			stop = w;
			/* una cannot pass a READ whose data is missing. */
			uint32_t lim = rq_in(qp->una_psn, w->first_psn,
					     w->npsn) ? qp->una_psn :
							w->first_psn;
			if (ibfs__psn_cmp(una, lim) > 0)
				una = lim;
			break;
		}
		if (ibfs__psn_cmp(last, a) > 0)
			break;
		w->done = 1;
		w->status = IBFS_WC_SUCCESS;
	}
	rq_progress(qp, una);
	return stop;
}

static void rq_finish(struct ibfs_hca_qp *qp, ibfs_time_t not_before)
{
	ibfs__qp_complete_sq(qp, not_before);
	if (qp->una_psn == qp->next_psn)
		ibfs__rc_timer_stop(qp);
	ibfs__sq_prepare(qp);
	ibfs__hca_qp_wake(qp);
}

static void rq_read_resp(struct ibfs_hca_qp *qp, struct ibfs_packet *p,
			 const struct ibfs_hca_opinfo *oi)
{
	struct ibfs_hca *h = qp->hca;
	struct ibfs_swqe *w = rq_ack_upto(qp, ibfs__psn_add(p->psn, -1u));
	if (!w || !rq_in(p->psn, w->first_psn, w->npsn) ||
	    p->psn != qp->una_psn) {
		h->st.duplicates++;
		/* IRN: responses before this one were lost. */
		if (h->irn && w && rq_in(p->psn, w->first_psn, w->npsn) &&
		    ibfs__psn_cmp(p->psn, qp->una_psn) > 0)
			ibfs__irn_read_gap(qp, p->psn);
		return;
	}
	int is_atomic = p->opcode == (IBFS_OP_RC | IBFS_OP_ATOMIC_ACK);
	if (is_atomic != (w->opcode != IBFS_WR_RDMA_READ)) {
		ibfs__qp_error(qp, IBFS_WC_BAD_RESP_ERR);
		return;
	}
	ibfs_time_t now = ibfs__hca_now(h);
	uint32_t k = (uint32_t)ibfs__psn_cmp(p->psn, w->first_psn);
	int last;
	if (is_atomic) {
		if (h->dev.fab->data_mode) {
			uint8_t b[8];
			memcpy(b, &p->atomic_ack, 8);
			ibfs__sgl_scatter(w->sge, w->num_sge, 0, b, 8);
		}
		qp->last_data_vis = ibfs__hca_dma_write(h, now, 8);
		last = 1;
	} else {
		uint32_t off = k * qp->mtu;
		uint32_t want = w->len - off < qp->mtu ? w->len - off : qp->mtu;
		last = k == w->npsn - 1;
		if (p->payload_len != want || !!(oi->flags & IBFS_OPF_LAST) !=
						      last) {
			ibfs__qp_error(qp, IBFS_WC_BAD_RESP_ERR);
			return;
		}
		if (p->payload)
			ibfs__sgl_scatter(w->sge, w->num_sge, off, p->payload,
					  p->payload_len);
		qp->last_data_vis = ibfs__hca_dma_write(h, now, p->payload_len);
		ibfs__hca_step(h, IBFS_STEP_DMA_WRITE, now, qp->last_data_vis,
			       p);
	}
	rq_progress(qp, ibfs__psn_add(p->psn, 1));
	if (last) {
		w->done = 1;
		w->status = IBFS_WC_SUCCESS;
		qp->rd_out--;
		/* The ACKs and data of the WQEs behind it may be in already. */
		rq_ack_upto(qp, ibfs__psn_add(qp->una_psn, -1u));
	}
	rq_finish(qp, qp->last_data_vis);
}

void ibfs__rc_req_rx(struct ibfs_hca_qp *qp, struct ibfs_packet *p)
{
	if (qp->pub.state != IBFS_QPS_RTS && qp->pub.state != IBFS_QPS_SQD)
		return;
	const struct ibfs_hca_opinfo *oi = ibfs__hca_opinfo(p->opcode);
	/* IRN: read the new packets' position, not a retransmission's. */
	if (qp->irn)
		ibfs__irn_unseek(qp);
	/* A response for a PSN never sent is a ghost: ignore it. */
	if (ibfs__psn_cmp(p->psn, qp->next_psn) >= 0) {
		qp->hca->st.dropped++;
		return;
	}
	if ((p->opcode & 0x1f) == IBFS_OP_ACK) {
		uint8_t syn = p->aeth.syndrome;
		if ((syn & 0xe0) == IBFS_AETH_ACK) {
			if (qp->irn)
				ibfs__irn_cum(qp, ibfs__psn_add(p->psn, 1));
			rq_ack_upto(qp, p->psn);
			rq_finish(qp, 0);
			return;
		}
		/* IRN's selective NACK: q and the PSN it received. */
		if (qp->hca->irn && syn == (IBFS_AETH_NAK | IBFS_NAK_PSN_SEQ)) {
			if (ibfs__psn_cmp(p->psn, qp->una_psn) >= 0) {
				rq_ack_upto(qp, ibfs__psn_add(p->psn, -1u));
				ibfs__qp_complete_sq(qp, 0);
			}
			ibfs__irn_nack(qp, p->psn, p->imm);
			return;
		}
		/* A NAK for PSN q acknowledges everything before q. */
		if (ibfs__psn_cmp(p->psn, qp->una_psn) < 0)
			return; /* stale */
		rq_ack_upto(qp, ibfs__psn_add(p->psn, -1u));
		ibfs__qp_complete_sq(qp, 0);
		ibfs__rc_nak(qp, syn, p->psn);
		return;
	}
	if ((oi->flags & IBFS_OPF_DATA) ||
	    (p->opcode & 0x1f) == IBFS_OP_ATOMIC_ACK) {
		if ((oi->xh & IBFS_XH_AETH) &&
		    (p->aeth.syndrome & 0xe0) != IBFS_AETH_ACK) {
			ibfs__qp_error(qp, IBFS_WC_BAD_RESP_ERR);
			return;
		}
		rq_read_resp(qp, p, oi);
	}
}
