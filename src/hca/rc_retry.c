/* SPDX-License-Identifier: MIT */
/*
 * RC reliability at the requester (IBA 9.7.5.2, 9.7.6): the local ACK
 * timer, NAKs and the retry counters.
 *   - Local ACK timeout: 4.096 us x 2^timeout (IBA 9.7.6.1.3; timeout 0
 *     disables it). It runs while any PSN is unacknowledged and restarts on
 *     progress. On expiry the requester goes back to the oldest
 *     unacknowledged PSN; after retry_cnt retries the WQE completes with
 *     IBFS_WC_RETRY_EXC_ERR and the QP enters the error state.
 *   - RNR NAK: wait the responder's RNR timer (Table 45), then resend
 *     from the NAKed PSN; rnr_retry 7 means "retry for ever", otherwise
 *     exhaustion gives IBFS_WC_RNR_RETRY_EXC_ERR.
 *   - NAK PSN sequence error: go back N to the NAKed PSN.
 *   - Under IRN (rc_irn.c) the timer runs RTO_low or RTO_high instead
 *     (ibfs__irn_timer_arm) and its expiry resends selectively.
 *   - NAK invalid request / remote access / remote operational error:
 *     the WQE completes with REM_INV_REQ_ERR / REM_ACCESS_ERR /
 *     REM_OP_ERR and the QP enters the error state (IBA 9.9.3.1).
 */
#include "hca/hca_int.h"

/* IBA 9.7.5.2.8 Table 45: RNR timer codes, in units of 10 us. */
static const uint32_t rnr_10us[32] = {
	65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
	256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192,
	12288, 16384, 24576, 32768, 49152,
};

ibfs_time_t ibfs__rnr_time(uint8_t code)
{
	return (ibfs_time_t)rnr_10us[code & 31] * 10 * IBFS_US;
}

ibfs_time_t ibfs__ack_timeout(uint8_t t)
{
	if (t == 0)
		return IBFS_TIME_NEVER;
	return (4096 * IBFS_NS) << (t & 31);
}

static void rc_timer_ev(void *obj, uint64_t arg)
{
	(void)arg;
	struct ibfs_hca_qp *qp = obj;
	qp->timer = NULL;
	if (qp->pub.state != IBFS_QPS_RTS && qp->pub.state != IBFS_QPS_SQD)
		return;
	if (qp->irn)
		ibfs__irn_unseek(qp);
	if (qp->una_psn == qp->next_psn)
		return;
	qp->hca->st.timeouts++;
	if (qp->retry_left == 0) {
		ibfs__qp_error(qp, IBFS_WC_RETRY_EXC_ERR);
		return;
	}
	qp->retry_left--;
	qp->hca->st.retransmits++;
	if (qp->hca->irn) {
		ibfs__irn_timeout(qp);
		return;
	}
	ibfs__sq_rewind(qp, qp->una_psn);
}

/*
 * IRN's timer (rc_irn.c): RTO_low from its start while at most N packets
 * are in flight, RTO_high from its start once more are; restarted on
 * progress as the IBA timer.
 */
void ibfs__irn_timer_arm(struct ibfs_hca_qp *qp)
{
	const struct ibfs_hca_irn_cfg *c = qp->hca->irn;
	struct ibfs_irn *r = ibfs__irn_get(qp);
	struct ibfs_eq *q = &qp->hca->dev.fab->eq;
	uint32_t next = ibfs__irn_next_psn(qp);
	int low;

	if (!r || qp->una_psn == next)
		return;
	low = (uint32_t)ibfs__psn_cmp(next, qp->una_psn) <= c->rto_n;
	if (qp->timer) {
		if (!r->t_low || low)
			return;
		ibfs__eq_cancel(q, qp->timer);
	} else {
		r->t_start = q->now;
	}
	r->t_low = (uint8_t)low;
	qp->timer_at = r->t_start + (low ? c->rto_low : c->rto_high);
	qp->timer = ibfs__eq_schedule(q, qp->timer_at, rc_timer_ev, qp, 0);
}

void ibfs__rc_timer_arm(struct ibfs_hca_qp *qp)
{
	if (qp->hca->irn) {
		ibfs__irn_timer_arm(qp);
		return;
	}
	if (qp->timer || qp->una_psn == qp->next_psn)
		return;
	ibfs_time_t t = ibfs__ack_timeout(qp->attr.timeout);
	if (t == IBFS_TIME_NEVER)
		return;
	struct ibfs_eq *q = &qp->hca->dev.fab->eq;
	qp->timer_at = q->now + t;
	qp->timer = ibfs__eq_schedule(q, qp->timer_at, rc_timer_ev, qp, 0);
}

void ibfs__rc_timer_stop(struct ibfs_hca_qp *qp)
{
	if (!qp->timer)
		return;
	ibfs__eq_cancel(&qp->hca->dev.fab->eq, qp->timer);
	qp->timer = NULL;
}

static void rc_mark_failed(struct ibfs_hca_qp *qp, uint32_t psn,
			   enum ibfs_wc_status st)
{
	for (uint64_t i = qp->sq_head; i != qp->sq_tail; i++) {
		struct ibfs_swqe *w = ibfs__sq_at(qp, i);
		if (ibfs__psn_cmp(psn, w->first_psn) >= 0 &&
		    ibfs__psn_cmp(psn, ibfs__psn_end(w)) < 0) {
			w->failed = 1;
			w->done = 1;
			w->status = st;
			return;
		}
	}
}

void ibfs__rc_nak(struct ibfs_hca_qp *qp, uint8_t syn, uint32_t psn)
{
	struct ibfs_hca *h = qp->hca;
	ibfs__rc_timer_stop(qp);
	if ((syn & 0xe0) == IBFS_AETH_RNR) {
		h->st.rnr_naks++;
		if (qp->rnr_left == 0) {
			rc_mark_failed(qp, psn, IBFS_WC_RNR_RETRY_EXC_ERR);
			ibfs__qp_error(qp, IBFS_WC_RNR_RETRY_EXC_ERR);
			return;
		}
		if (qp->rnr_left != 7)
			qp->rnr_left--;
		qp->hold_until = ibfs__hca_now(h) + ibfs__rnr_time(syn & 0x1f);
		h->st.retransmits++;
		ibfs__sq_rewind(qp, psn);
		return;
	}
	enum ibfs_wc_status st;
	switch (syn & 0x1f) {
	case IBFS_NAK_PSN_SEQ:
		h->st.seq_naks++;
		h->st.retransmits++;
		ibfs__sq_rewind(qp, psn);
		return;
	case IBFS_NAK_INV_REQ:
		st = IBFS_WC_REM_INV_REQ_ERR;
		break;
	case IBFS_NAK_REM_ACCESS:
		st = IBFS_WC_REM_ACCESS_ERR;
		break;
	case IBFS_NAK_REM_OP:
		st = IBFS_WC_REM_OP_ERR;
		break;
	default:
		st = IBFS_WC_BAD_RESP_ERR;
		break;
	}
	rc_mark_failed(qp, psn, st);
	ibfs__qp_error(qp, st);
}
