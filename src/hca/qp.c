/* SPDX-License-Identifier: MIT */
/*
 * Queue pairs: creation, the state machine with verbs' transitions and
 * attribute checks (IBA 10.3, 11.2.4; the table in ibv_modify_qp(3)),
 * query and destroy, and the two ways WQEs leave a QP: in-order
 * completion of the send queue, and the move to the error state that
 * completes the failed WQE with its status and flushes every other one
 * with IBFS_WC_WR_FLUSH_ERR (IBA 10.3.1 "Error" state, 11.4.2.1).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hca/hca_int.h"

/*
 * The layout of struct ibfs_hca_qp by 64-byte line (hca_int.h): what a
 * packet touches starts where the comment there says.
 */
#define QP_LINE(f) (offsetof(struct ibfs_hca_qp, f) / 64)
_Static_assert(QP_LINE(rr_next) == 1 && QP_LINE(resp_count) == 1,
	       "scheduler fields in line 1");
_Static_assert(QP_LINE(sq) == 2 && QP_LINE(pkts_since_ack) == 2,
	       "requester fields in line 2");
_Static_assert(QP_LINE(attr.dest_qp_num) == 4 &&
		       QP_LINE(attr.ah_attr.sl) == 4 &&
		       QP_LINE(attr.max_rd_atomic) == 4,
	       "header attributes in line 4");
_Static_assert(QP_LINE(epsn) == 5 && QP_LINE(in_send) == 5,
	       "responder fields in line 5");


/* The QP's receive queue: its own of max_recv_wr WQEs, or ia->srq's. */
static int qp_rq_init(struct ibfs_hca_qp *qp, struct ibfs_pd *pd,
		      const struct ibfs_qp_init_attr *ia)
{
	if (ia->srq) {
		qp->rq = &((struct ibfs_hca_srq *)ia->srq)->rq;
		return 0;
	}
	uint32_t cap = ia->cap.max_recv_wr ? ia->cap.max_recv_wr : 1;
	qp->own_rq = (struct ibfs_hca_rq){
		.ring = calloc(cap, sizeof(struct ibfs_rwqe)), .cap = cap,
		.max_wr = ia->cap.max_recv_wr, .max_sge = ia->cap.max_recv_sge,
		.pd = (struct ibfs_hca_pd *)pd,
	};
	qp->rq = &qp->own_rq;
	return qp->own_rq.ring ? 0 : -1;
}

struct ibfs_qp *ibfs_create_qp(struct ibfs_pd *pd,
			       struct ibfs_qp_init_attr *ia)
{
	if (!pd || !ia || !ia->send_cq || !ia->recv_cq) {
		errno = EINVAL;
		return NULL;
	}
	struct ibfs_hca *h = pd->context->hca;
	struct ibfs_qp_cap *c = &ia->cap;
	if (ia->qp_type != IBFS_QPT_RC && ia->qp_type != IBFS_QPT_UC &&
	    ia->qp_type != IBFS_QPT_UD) {
		errno = EINVAL;
		return NULL;
	}
	if (c->max_send_wr < 1 || c->max_send_wr > IBFS_HCA_MAX_WR ||
	    c->max_recv_wr > IBFS_HCA_MAX_WR || c->max_send_sge > IBFS_HCA_MAX_SGE ||
	    c->max_recv_sge > IBFS_HCA_MAX_SGE ||
	    c->max_inline_data > h->prof->max_inline) {
		errno = EINVAL;
		return NULL;
	}
	if (h->nqps >= IBFS_HCA_MAX_QP) {
		errno = ENOMEM;
		return NULL;
	}
	if (h->nqps == h->qps_cap) {
		uint32_t cap = h->qps_cap ? 2 * h->qps_cap : 16;
		void *n = realloc(h->qps, cap * sizeof(*h->qps));
		if (!n) {
			errno = ENOMEM;
			return NULL;
		}
		h->qps = n;
		h->qps_cap = cap;
	}
	struct ibfs_hca_qp *qp = ibfs__hca_zalloc(sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	qp->sq_cap = c->max_send_wr;
	qp->resp_cap = h->prof->max_rd_atomic ? h->prof->max_rd_atomic : 1;
	qp->sq = calloc(qp->sq_cap, sizeof(*qp->sq));
	qp->resp = calloc(qp->resp_cap, sizeof(*qp->resp));
	if (c->max_inline_data)
		qp->inl = calloc(qp->sq_cap, c->max_inline_data);
	if (!qp->sq || qp_rq_init(qp, pd, ia) || !qp->resp ||
	    (c->max_inline_data && !qp->inl)) {
		ibfs__qp_free(qp);
		errno = ENOMEM;
		return NULL;
	}
	qp->hca = h;
	qp->init = *ia;
	qp->pub.context = pd->context;
	qp->pub.qp_context = ia->qp_context;
	qp->pub.pd = pd;
	qp->pub.send_cq = ia->send_cq;
	qp->pub.recv_cq = ia->recv_cq;
	qp->pub.qp_num = IBFS_HCA_QPN_BASE + h->nqps;
	qp->pub.handle = h->nqps;
	qp->pub.state = IBFS_QPS_RESET;
	qp->pub.qp_type = ia->qp_type;
	qp->port = 1;
	/* RC and UC take the path MTU at RTR; a UD message may fill the
	 * port's MTU (IBA 9.8.4). */
	qp->mtu = ia->qp_type == IBFS_QPT_UD && h->dev.fab->mtu ?
			  h->dev.fab->mtu : 256;
	qp->attr.cap = *c;
	if (ia->srq)
		((struct ibfs_hca_srq *)ia->srq)->refs++;
	((struct ibfs_hca_pd *)pd)->refs++;
	h->qps[h->nqps++] = qp;
	return &qp->pub;
}

void ibfs__qp_free(struct ibfs_hca_qp *qp)
{
	ibfs__irn_free(qp);
	if (qp->hca->cc && qp->hca->cc->ops->qp_gone)
		qp->hca->cc->ops->qp_gone(qp);
	free(qp->sq);
	free(qp->own_rq.ring);
	free(qp->resp);
	free(qp->inl);
	free(qp);
}

struct ibfs_hca_qp *ibfs__qp_lookup(struct ibfs_hca *h, uint32_t qpn)
{
	if (qpn < IBFS_HCA_QPN_BASE || qpn - IBFS_HCA_QPN_BASE >= h->nqps)
		return NULL;
	return h->qps[qpn - IBFS_HCA_QPN_BASE];
}

static void qp_stop(struct ibfs_hca_qp *qp)
{
	ibfs__rc_timer_stop(qp);
	ibfs__hca_qp_gone(qp);
	qp->req_ready_valid = 0;
	qp->resp_count = 0;
	qp->ack_pending = 0;
}

int ibfs_destroy_qp(struct ibfs_qp *pub)
{
	if (!pub)
		return EINVAL;
	struct ibfs_hca_qp *qp = (struct ibfs_hca_qp *)pub;
	struct ibfs_hca *h = qp->hca;
	qp_stop(qp);
	qp->destroyed = 1;
	ibfs__mcast_qp_gone(qp);
	/* A held packet of its message no longer completes it (tx_sched.c). */
	for (int v = 0; v < IBFS_HCA_DATA_VLS; v++) {
		if (h->hp[qp->port].held_ends[v] == qp)
			h->hp[qp->port].held_ends[v] = NULL;
		if (h->hp[qp->port].held_qp[v] == qp)
			h->hp[qp->port].held_qp[v] = NULL;
	}
	((struct ibfs_hca_pd *)pub->pd)->refs--;
	if (qp->init.srq)
		((struct ibfs_hca_srq *)qp->init.srq)->refs--;
	h->qps[pub->handle] = NULL;
	ibfs__qp_free(qp);
	return 0;
}

static enum ibfs_wc_opcode qp_wc_opcode(uint8_t wr_op)
{
	switch (wr_op) {
	case IBFS_WR_RDMA_WRITE:
	case IBFS_WR_RDMA_WRITE_WITH_IMM:
		return IBFS_WC_RDMA_WRITE;
	case IBFS_WR_RDMA_READ:
		return IBFS_WC_RDMA_READ;
	case IBFS_WR_ATOMIC_CMP_AND_SWP:
		return IBFS_WC_COMP_SWAP;
	case IBFS_WR_ATOMIC_FETCH_AND_ADD:
		return IBFS_WC_FETCH_ADD;
	default:
		return IBFS_WC_SEND;
	}
}

static void qp_send_cqe(struct ibfs_hca_qp *qp, struct ibfs_swqe *w,
			enum ibfs_wc_status st, ibfs_time_t not_before)
{
	struct ibfs_wc wc = {
		.wr_id = w->wr_id,
		.status = st,
		.opcode = qp_wc_opcode(w->opcode),
		.byte_len = w->len,
		.qp_num = qp->pub.qp_num,
	};
	ibfs__cq_push_after((struct ibfs_hca_cq *)qp->pub.send_cq, &wc,
			    not_before);
}

void ibfs__qp_complete_sq(struct ibfs_hca_qp *qp, ibfs_time_t not_before)
{
	while (qp->sq_head != qp->sq_tail) {
		struct ibfs_swqe *w = ibfs__sq_at(qp, qp->sq_head);
		if (!w->done)
			break;
		if (w->signaled || qp->init.sq_sig_all ||
		    w->status != IBFS_WC_SUCCESS)
			qp_send_cqe(qp, w, w->status, not_before);
		qp->sq_head++;
	}
	if (qp->sq_next < qp->sq_head)
		qp->sq_next = qp->sq_head;
}

static void qp_flush_rwqe(struct ibfs_hca_qp *qp, const struct ibfs_rwqe *r)
{
	struct ibfs_wc wc = {
		.wr_id = r->wr_id,
		.status = IBFS_WC_WR_FLUSH_ERR,
		.opcode = IBFS_WC_RECV,
		.qp_num = qp->pub.qp_num,
	};
	ibfs__cq_push((struct ibfs_hca_cq *)qp->pub.recv_cq, &wc);
}

/* The WQE of a SEND being received, then (own queue) every other. */
static void qp_flush_rq(struct ibfs_hca_qp *qp)
{
	if (qp->in_send || qp->rwqe_kept) {
		qp_flush_rwqe(qp, &qp->cur_rwqe);
		qp->in_send = qp->rwqe_kept = 0;
	}
	if (qp->init.srq)
		return;
	for (; qp->rq->head != qp->rq->tail; qp->rq->head++)
		qp_flush_rwqe(qp, &qp->rq->ring[qp->rq->head % qp->rq->cap]);
}

void ibfs__qp_error(struct ibfs_hca_qp *qp, enum ibfs_wc_status status)
{
	if (qp->pub.state == IBFS_QPS_ERR || qp->pub.state == IBFS_QPS_RESET)
		return;
	qp_stop(qp);
	qp->pub.state = IBFS_QPS_ERR;
	/* The WQE marked failed takes its status; without one, the oldest
	 * takes `status`. Every other WQE is flushed. */
	int marked = 0;
	for (uint64_t i = qp->sq_head; i != qp->sq_tail; i++)
		marked |= ibfs__sq_at(qp, i)->failed;
	enum ibfs_wc_status st = marked ? IBFS_WC_WR_FLUSH_ERR : status;
	while (qp->sq_head != qp->sq_tail) {
		struct ibfs_swqe *w = ibfs__sq_at(qp, qp->sq_head);
		qp_send_cqe(qp, w, w->failed ? w->status : st, 0);
		st = IBFS_WC_WR_FLUSH_ERR;
		qp->sq_head++;
	}
	qp->sq_next = qp->sq_head;
	qp_flush_rq(qp);
}

/*
 * A pkey_index names a valid entry of the QP's port's P_Key table (the
 * port the same modify sets, or the QP's): not beyond the table, and not
 * the invalid P_Key 0x0000/0x8000 of an unused entry (IBA 10.9.1).
 */
static int qp_pkey_ok(const struct ibfs_hca_qp *qp,
		      const struct ibfs_qp_attr *a, int mask)
{
	int port = (mask & IBFS_QP_PORT) ? a->port_num : qp->port;

	if (port < 1 || port > qp->hca->dev.nports)
		return 0;
	return (ibfs__port_pkey(qp->hca->hp[port].port, a->pkey_index) &
		IBFS_PKEY_BASE) != 0;
}

static int qp_mtu_ok(struct ibfs_hca_qp *qp, enum ibfs_mtu m)
{
	int b = ibfs_mtu_to_bytes(m);
	uint32_t fab = qp->hca->dev.fab->mtu ? qp->hca->dev.fab->mtu : 4096;
	return b > 0 && (uint32_t)b <= fab;
}

/*
 * Attributes each transition requires and allows, per QP type
 * (ibv_modify_qp(3), IBA 11.2.4.2 Table 101 abridged).
 */
struct qp_rule {
	enum ibfs_qp_state from, to;
	int req_rc, req_uc, req_ud;
	int opt;
};

#define M(x) IBFS_QP_##x
static const struct qp_rule qp_rules[] = {
	{IBFS_QPS_RESET, IBFS_QPS_INIT,
	 M(PKEY_INDEX) | M(PORT) | M(ACCESS_FLAGS),
	 M(PKEY_INDEX) | M(PORT) | M(ACCESS_FLAGS),
	 M(PKEY_INDEX) | M(PORT) | M(QKEY), 0},
	{IBFS_QPS_INIT, IBFS_QPS_INIT, 0, 0, 0,
	 M(PKEY_INDEX) | M(PORT) | M(ACCESS_FLAGS) | M(QKEY)},
	{IBFS_QPS_INIT, IBFS_QPS_RTR,
	 M(AV) | M(PATH_MTU) | M(DEST_QPN) | M(RQ_PSN) |
		 M(MAX_DEST_RD_ATOMIC) | M(MIN_RNR_TIMER),
	 M(AV) | M(PATH_MTU) | M(DEST_QPN) | M(RQ_PSN), 0,
	 M(PKEY_INDEX) | M(ACCESS_FLAGS) | M(QKEY) | M(ALT_PATH)},
	{IBFS_QPS_RTR, IBFS_QPS_RTS,
	 M(SQ_PSN) | M(TIMEOUT) | M(RETRY_CNT) | M(RNR_RETRY) |
		 M(MAX_QP_RD_ATOMIC),
	 M(SQ_PSN), M(SQ_PSN),
	 M(CUR_STATE) | M(ACCESS_FLAGS) | M(MIN_RNR_TIMER) | M(QKEY) |
		 M(ALT_PATH) | M(PATH_MIG_STATE)},
	{IBFS_QPS_RTS, IBFS_QPS_RTS, 0, 0, 0,
	 M(CUR_STATE) | M(ACCESS_FLAGS) | M(MIN_RNR_TIMER) | M(QKEY) |
		 M(ALT_PATH) | M(PATH_MIG_STATE)},
	{IBFS_QPS_RTS, IBFS_QPS_SQD, 0, 0, 0, M(EN_SQD_ASYNC_NOTIFY)},
	{IBFS_QPS_SQD, IBFS_QPS_RTS, 0, 0, 0,
	 M(CUR_STATE) | M(ACCESS_FLAGS) | M(MIN_RNR_TIMER) | M(QKEY)},
	{IBFS_QPS_SQE, IBFS_QPS_RTS, 0, 0, 0,
	 M(CUR_STATE) | M(ACCESS_FLAGS) | M(QKEY)},
};
#undef M

static const struct qp_rule *qp_rule_find(enum ibfs_qp_state from,
					  enum ibfs_qp_state to)
{
	for (size_t i = 0; i < sizeof(qp_rules) / sizeof(qp_rules[0]); i++)
		if (qp_rules[i].from == from && qp_rules[i].to == to)
			return &qp_rules[i];
	return NULL;
}

static void qp_reset(struct ibfs_hca_qp *qp)
{
	qp_stop(qp);
	qp->sq_head = qp->sq_next = qp->sq_tail = 0;
	if (!qp->init.srq)
		qp->own_rq.head = qp->own_rq.tail = 0;
	qp->tx_off = 0;
	qp->rd_out = 0;
	qp->in_send = qp->in_write = qp->rwqe_kept = 0;
	qp->nak_sent = 0;
	qp->msn = 0;
	qp->resp_head = 0;
	memset(qp->at_hist, 0, sizeof(qp->at_hist));
	qp->at_next = 0;
}

int ibfs__qp_modify(struct ibfs_hca_qp *qp, struct ibfs_qp_attr *a, int mask)
{
	enum ibfs_qp_state cur = qp->pub.state;
	if (mask & IBFS_QP_CUR_STATE) {
		if (a->cur_qp_state != cur)
			return EINVAL;
	}
	enum ibfs_qp_state to = (mask & IBFS_QP_STATE) ? a->qp_state : cur;
	if (to > IBFS_QPS_ERR)
		return EINVAL;
	if (to == IBFS_QPS_RESET || to == IBFS_QPS_ERR) {
		if (mask & ~(IBFS_QP_STATE | IBFS_QP_CUR_STATE))
			return EINVAL;
		if (to == IBFS_QPS_RESET)
			qp_reset(qp);
		else
			ibfs__qp_error(qp, IBFS_WC_WR_FLUSH_ERR);
		qp->pub.state = to;
		return 0;
	}
	const struct qp_rule *r = qp_rule_find(cur, to);
	if (!r)
		return EINVAL;
	int req = qp->pub.qp_type == IBFS_QPT_RC ? r->req_rc :
		  qp->pub.qp_type == IBFS_QPT_UC ? r->req_uc : r->req_ud;
	int allowed = req | r->opt | IBFS_QP_STATE | IBFS_QP_CUR_STATE;
	if ((mask & req) != req || (mask & ~allowed))
		return EINVAL;
	/* UD has no access flags; RC/UC no Q_Key (Table 101). */
	if (qp->pub.qp_type == IBFS_QPT_UD && (mask & IBFS_QP_ACCESS_FLAGS))
		return EINVAL;
	if (qp->pub.qp_type != IBFS_QPT_UD && (mask & IBFS_QP_QKEY))
		return EINVAL;

	/* Range checks before any change. */
	const struct ibfs_hca_profile *pf = qp->hca->prof;
	if ((mask & IBFS_QP_PORT) &&
	    (a->port_num < 1 || a->port_num > qp->hca->dev.nports))
		return EINVAL;
	if ((mask & IBFS_QP_PKEY_INDEX) && !qp_pkey_ok(qp, a, mask))
		return EINVAL;
	if ((mask & IBFS_QP_PATH_MTU) && !qp_mtu_ok(qp, a->path_mtu))
		return EINVAL;
	if ((mask & IBFS_QP_AV) &&
	    (a->ah_attr.dlid == 0 || a->ah_attr.dlid >= 0xc000 ||
	     a->ah_attr.sl > 15 || a->ah_attr.is_global))
		return EINVAL;
	if ((mask & IBFS_QP_DEST_QPN) && a->dest_qp_num > 0xffffff)
		return EINVAL;
	if ((mask & IBFS_QP_RQ_PSN) && a->rq_psn > 0xffffff)
		return EINVAL;
	if ((mask & IBFS_QP_SQ_PSN) && a->sq_psn > 0xffffff)
		return EINVAL;
	if ((mask & IBFS_QP_TIMEOUT) && a->timeout > 31)
		return EINVAL;
	if ((mask & IBFS_QP_RETRY_CNT) && a->retry_cnt > 7)
		return EINVAL;
	if ((mask & IBFS_QP_RNR_RETRY) && a->rnr_retry > 7)
		return EINVAL;
	if ((mask & IBFS_QP_MIN_RNR_TIMER) && a->min_rnr_timer > 31)
		return EINVAL;
	if ((mask & IBFS_QP_MAX_QP_RD_ATOMIC) &&
	    a->max_rd_atomic > pf->max_rd_atomic)
		return EINVAL;
	if ((mask & IBFS_QP_MAX_DEST_RD_ATOMIC) &&
	    a->max_dest_rd_atomic > pf->max_rd_atomic)
		return EINVAL;
	if ((mask & IBFS_QP_ACCESS_FLAGS) &&
	    (a->qp_access_flags & ~0xfu))
		return EINVAL;

	struct ibfs_qp_attr *s = &qp->attr;
	if (mask & IBFS_QP_PORT) {
		s->port_num = a->port_num;
		qp->port = a->port_num;
	}
	if (mask & IBFS_QP_PKEY_INDEX)
		s->pkey_index = a->pkey_index;
	if (mask & IBFS_QP_ACCESS_FLAGS)
		s->qp_access_flags = a->qp_access_flags;
	if (mask & IBFS_QP_QKEY)
		s->qkey = a->qkey;
	if (mask & IBFS_QP_PATH_MTU) {
		s->path_mtu = a->path_mtu;
		qp->mtu = (uint32_t)ibfs_mtu_to_bytes(a->path_mtu);
	}
	if (mask & IBFS_QP_AV)
		s->ah_attr = a->ah_attr;
	if (mask & IBFS_QP_DEST_QPN)
		s->dest_qp_num = a->dest_qp_num;
	if (mask & IBFS_QP_RQ_PSN) {
		s->rq_psn = a->rq_psn;
		qp->epsn = a->rq_psn;
	}
	if (mask & IBFS_QP_SQ_PSN) {
		s->sq_psn = a->sq_psn;
		qp->next_psn = qp->una_psn = a->sq_psn;
	}
	if (mask & IBFS_QP_MAX_DEST_RD_ATOMIC)
		s->max_dest_rd_atomic = a->max_dest_rd_atomic;
	if (mask & IBFS_QP_MIN_RNR_TIMER)
		s->min_rnr_timer = a->min_rnr_timer;
	if (mask & IBFS_QP_TIMEOUT)
		s->timeout = a->timeout;
	if (mask & IBFS_QP_RETRY_CNT) {
		s->retry_cnt = a->retry_cnt;
		qp->retry_left = a->retry_cnt;
	}
	if (mask & IBFS_QP_RNR_RETRY) {
		s->rnr_retry = a->rnr_retry;
		qp->rnr_left = a->rnr_retry;
	}
	if (mask & IBFS_QP_MAX_QP_RD_ATOMIC)
		s->max_rd_atomic = a->max_rd_atomic;
	qp->pub.state = to;
	if (to == IBFS_QPS_RTS) {
		/* Work posted while in SQD or SQE may go now. */
		ibfs__sq_prepare(qp);
		ibfs__hca_qp_wake(qp);
	}
	return 0;
}

int ibfs_modify_qp(struct ibfs_qp *pub, struct ibfs_qp_attr *attr,
		   int attr_mask)
{
	if (!pub || !attr)
		return EINVAL;
	struct ibfs_hca_qp *qp = (struct ibfs_hca_qp *)pub;
	struct ibfs_hca *h = qp->hca;
	if (h->exec.ops && h->exec.ops->enter)
		h->exec.ops->enter(h->exec.ctx);
	int r = ibfs__qp_modify(qp, attr, attr_mask);
	if (h->exec.ops && h->exec.ops->leave)
		h->exec.ops->leave(h->exec.ctx);
	return r;
}

int ibfs_query_qp(struct ibfs_qp *pub, struct ibfs_qp_attr *attr,
		  int attr_mask, struct ibfs_qp_init_attr *init_attr)
{
	(void)attr_mask;
	if (!pub || !attr)
		return EINVAL;
	struct ibfs_hca_qp *qp = (struct ibfs_hca_qp *)pub;
	*attr = qp->attr;
	attr->qp_state = attr->cur_qp_state = pub->state;
	attr->sq_draining = 0;
	if (init_attr)
		*init_attr = qp->init;
	return 0;
}
