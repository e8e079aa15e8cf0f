/* SPDX-License-Identifier: MIT */
/*
 * Connection set-up shared by the example programs, written against the
 * public API only, as a verbs program would do it: open the device, make
 * a PD, a buffer registered as an MR, two CQs and an RC QP, swap QP
 * number, LID, buffer address and rkey with the peer out of band, and
 * bring the QP to RTS.
 */
#ifndef IBFSIM_EXAMPLES_COMMON_H
#define IBFSIM_EXAMPLES_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibfsim/sim.h>
#include <ibfsim/verbs.h>

struct ex_peer {
	uint32_t qpn;
	uint16_t lid;
	uint64_t addr;
	uint32_t rkey;
};

struct ex_conn {
	struct ibfs_context *ctx;
	struct ibfs_pd *pd;
	struct ibfs_cq *scq, *rcq;
	struct ibfs_qp *qp;
	struct ibfs_mr *mr;
	uint8_t *buf;
	size_t len;
	struct ex_peer remote;
};

/* Sets everything up; me/peer name the keys ("client", "server"). */
static inline int ex_connect(struct ex_conn *c, size_t len, const char *me,
			     const char *peer)
{
	memset(c, 0, sizeof(*c));
	c->len = len;
	c->ctx = ibfs_open_device();
	if (!c->ctx)
		return -1;
	c->pd = ibfs_alloc_pd(c->ctx);
	c->buf = calloc(1, len);
	c->mr = ibfs_reg_mr(c->pd, c->buf, len,
			    IBFS_ACCESS_LOCAL_WRITE | IBFS_ACCESS_REMOTE_WRITE |
				    IBFS_ACCESS_REMOTE_READ);
	c->scq = ibfs_create_cq(c->ctx, 256, NULL, NULL, 0);
	c->rcq = ibfs_create_cq(c->ctx, 256, NULL, NULL, 0);
	struct ibfs_qp_init_attr ia = {
		.send_cq = c->scq, .recv_cq = c->rcq, .qp_type = IBFS_QPT_RC,
		.cap = {.max_send_wr = 128, .max_recv_wr = 128,
			.max_send_sge = 1, .max_recv_sge = 1,
			.max_inline_data = 128},
	};
	c->qp = c->mr ? ibfs_create_qp(c->pd, &ia) : NULL;
	if (!c->qp)
		return -1;
	struct ibfs_port_attr pa;
	ibfs_query_port(c->ctx, 1, &pa);
	struct ex_peer mine = {.qpn = c->qp->qp_num, .lid = pa.lid,
			       .addr = (uint64_t)(uintptr_t)c->buf,
			       .rkey = c->mr->rkey};
	if (ibfs_oob_put(me, &mine, sizeof(mine)) ||
	    ibfs_oob_get(peer, &c->remote, sizeof(c->remote)))
		return -1;
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT, .port_num = 1,
				 .qp_access_flags = IBFS_ACCESS_REMOTE_WRITE |
						    IBFS_ACCESS_REMOTE_READ};
	if (ibfs_modify_qp(c->qp, &a, IBFS_QP_STATE | IBFS_QP_PKEY_INDEX |
					      IBFS_QP_PORT |
					      IBFS_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBFS_QPS_RTR;
	a.path_mtu = pa.active_mtu;
	a.dest_qp_num = c->remote.qpn;
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = 12;
	a.ah_attr.dlid = c->remote.lid;
	a.ah_attr.port_num = 1;
	if (ibfs_modify_qp(c->qp, &a, IBFS_QP_STATE | IBFS_QP_AV |
					      IBFS_QP_PATH_MTU |
					      IBFS_QP_DEST_QPN |
					      IBFS_QP_RQ_PSN |
					      IBFS_QP_MAX_DEST_RD_ATOMIC |
					      IBFS_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBFS_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 16;
	return ibfs_modify_qp(c->qp, &a, IBFS_QP_STATE | IBFS_QP_SQ_PSN |
						 IBFS_QP_TIMEOUT |
						 IBFS_QP_RETRY_CNT |
						 IBFS_QP_RNR_RETRY |
						 IBFS_QP_MAX_QP_RD_ATOMIC) ?
		       -1 : 0;
}

static inline int ex_post(struct ex_conn *c, enum ibfs_wr_opcode op,
			  size_t off, uint32_t len, uint64_t raddr,
			  unsigned flags)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)(c->buf + off),
			      .length = len, .lkey = c->mr->lkey};
	struct ibfs_send_wr wr = {.sg_list = &sg, .num_sge = 1, .opcode = op,
				  .send_flags = flags};
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = c->remote.rkey;
	struct ibfs_send_wr *bad;
	return ibfs_post_send(c->qp, &wr, &bad);
}

static inline int ex_post_recv(struct ex_conn *c, size_t off, uint32_t len)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)(c->buf + off),
			      .length = len, .lkey = c->mr->lkey};
	struct ibfs_recv_wr wr = {.sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *bad;
	return ibfs_post_recv(c->qp, &wr, &bad);
}

/* Destroys what ex_connect made, as a verbs program does before exit. */
static inline void ex_close(struct ex_conn *c)
{
	if (c->qp)
		ibfs_destroy_qp(c->qp);
	if (c->mr)
		ibfs_dereg_mr(c->mr);
	if (c->scq)
		ibfs_destroy_cq(c->scq);
	if (c->rcq)
		ibfs_destroy_cq(c->rcq);
	if (c->pd)
		ibfs_dealloc_pd(c->pd);
	free(c->buf);
	memset(c, 0, sizeof(*c));
}

/* Waits for one completion on cq; -1 unless it succeeded. */
static inline int ex_wait(struct ibfs_cq *cq)
{
	struct ibfs_wc wc;
	if (ibfs_wait_cq(cq, 1, &wc) != 1)
		return -1;
	if (wc.status != IBFS_WC_SUCCESS) {
		fprintf(stderr, "completion: %s\n",
			ibfs_wc_status_str(wc.status));
		return -1;
	}
	return 0;
}

#endif
