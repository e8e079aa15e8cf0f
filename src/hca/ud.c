/* SPDX-License-Identifier: MIT */
/*
 * Unreliable Datagram receive (IBA 9.8.4, 10.2.5): every message is one
 * SEND Only packet (at most one path MTU) with a DETH carrying the Q_Key
 * and the source QP. A packet whose Q_Key differs from the QP's, or that
 * finds no receive WQE, is silently dropped. As in verbs, the first 40
 * bytes of the receive buffer are reserved for a GRH, the payload is
 * placed after them, and byte_len counts them; a packet that carried a
 * GRH (a multicast packet always does) has it written there, and its
 * completion says so with IBFS_WC_GRH (IBA 11.4.1.2).
 */
#include "fabric/packet_encode.h"
#include "hca/hca_int.h"

enum { UD_GRH_SPACE = 40 };

void ibfs__ud_rx(struct ibfs_hca_qp *qp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = qp->hca;
	enum ibfs_qp_state s = qp->pub.state;
	if ((s != IBFS_QPS_RTR && s != IBFS_QPS_RTS && s != IBFS_QPS_SQD) ||
	    !(p->xh & IBFS_XH_DETH) || p->deth.qkey != qp->attr.qkey ||
	    ibfs__rq_empty(qp->rq)) {
		h->st.dropped++;
		return;
	}
	/* One packet a message: the WQE is taken and completed at once. */
	const struct ibfs_rwqe *r = &qp->rq->ring[qp->rq->head++ %
						  qp->rq->cap];
	enum ibfs_wc_status st = IBFS_WC_SUCCESS;
	uint32_t len = p->payload_len + UD_GRH_SPACE;
	if (len > r->len)
		st = IBFS_WC_LOC_LEN_ERR;
	else if (ibfs__mr_check_sgl(h, qp->rq->pd,
				    r->sge, r->num_sge,
				    IBFS_ACCESS_LOCAL_WRITE) != IBFS_MR_OK)
		st = IBFS_WC_LOC_PROT_ERR;
	ibfs_time_t vis = 0;
	int grh = !!(p->xh & IBFS_XH_GRH);

	if (st == IBFS_WC_SUCCESS) {
		if (p->payload)
			ibfs__sgl_scatter(r->sge, r->num_sge, UD_GRH_SPACE,
					  p->payload, p->payload_len);
		if (grh && h->dev.fab->data_mode) {
			uint8_t g[IBFS_GRH_BYTES];

			ibfs__packet_put_grh(p, g);
			ibfs__sgl_scatter(r->sge, r->num_sge, 0, g, sizeof(g));
		}
		vis = ibfs__hca_dma_write(h, ibfs__hca_now(h), len);
	}
	struct ibfs_wc wc = {
		.wr_id = r->wr_id,
		.status = st,
		.opcode = IBFS_WC_RECV,
		.byte_len = len,
		.qp_num = qp->pub.qp_num,
		.src_qp = p->deth.src_qp,
		.slid = p->slid,
		.sl = p->sl,
		.dlid_path_bits = p->dlid >= IBFS_MCAST_LID_BASE ? 0 :
			ibfs__hca_dlid_path_bits(&h->hp[qp->port], p->dlid),
		.wc_flags = grh ? IBFS_WC_GRH : 0,
	};
	if (p->xh & IBFS_XH_IMM) {
		wc.imm_data = p->imm;
		wc.wc_flags |= IBFS_WC_WITH_IMM;
	}
	ibfs__cq_push_after((struct ibfs_hca_cq *)qp->pub.recv_cq, &wc, vis);
}
