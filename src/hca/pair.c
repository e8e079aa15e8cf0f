/* SPDX-License-Identifier: MIT */
/*
 * Two HCAs back to back (see pair.h). The defaults are the setup the HCA
 * profiles are calibrated on (profile.c; docs/fidelity.md, "Reference
 * figures"): 4x EDR, a 2 m cable, 4096-byte MTU. Also the set-up of one
 * connection end through the verbs API, shared by perftest and the
 * tests.
 */
#include <stdlib.h>
#include <string.h>

#include "hca/pair.h"

int ibfs__hca_pair_new(struct ibfs_hca_pair *x,
		       const struct ibfs_hca_pair_cfg *c, struct ibfs_diag *d)
{
	memset(x, 0, sizeof(*x));
	x->t = ibfs__topo_new("back-to-back");
	if (!x->t)
		return ibfs__diag(d, "back-to-back", 0, "out of memory");
	x->t->def.mtu = c->mtu ? (int)c->mtu : 4096;
	if (c->data_vls)
		x->t->def.data_vls = c->data_vls;
	int a = ibfs__topo_add_node(x->t, "hca0", IBFS_NODE_HCA, 1, 0, d);
	int b = ibfs__topo_add_node(x->t, "hca1", IBFS_NODE_HCA, 1, 0, d);
	if (a < 0 || b < 0 ||
	    ibfs__topo_add_link(x->t, a, 1, b, 1,
				c->have_speed ? c->speed : IBFS_SPEED_EDR,
				c->width ? c->width : 4,
				c->cable_mm ? c->cable_mm : 2000, 0, d) < 0)
		goto fail;
	x->f = ibfs__fabric_new(x->t, 1, c->data_mode);
	if (!x->f) {
		ibfs__diag(d, "back-to-back", 0, "out of memory");
		goto fail;
	}
	struct ibfs_exec ex = ibfs__direct_exec(&x->dx, &x->f->eq);
	for (int i = 0; i < 2; i++) {
		x->h[i] = ibfs__hca_create(x->f, i, c->profile ? c->profile :
								"ideal",
					   ex, d);
		if (!x->h[i])
			goto fail;
		ibfs__hca_set_lid(x->h[i], 1, (uint16_t)(i + 1), 0);
	}
	return 0;
fail:
	ibfs__hca_pair_free(x);
	return -1;
}

int ibfs__hca_end_open(struct ibfs_hca_end *e, struct ibfs_hca *h,
		       enum ibfs_qp_type type, size_t len,
		       const struct ibfs_qp_cap *cap, int cqe)
{
	memset(e, 0, sizeof(*e));
	e->ctx = ibfs__hca_context(h);
	e->len = len;
	e->pd = ibfs_alloc_pd(e->ctx);
	e->scq = ibfs_create_cq(e->ctx, cqe, NULL, NULL, 0);
	e->rcq = ibfs_create_cq(e->ctx, cqe, NULL, NULL, 0);
	e->buf = calloc(1, len ? len : 1);
	if (e->pd && e->buf)
		e->mr = ibfs_reg_mr(e->pd, e->buf, len,
				    IBFS_ACCESS_LOCAL_WRITE |
					    IBFS_ACCESS_REMOTE_WRITE |
					    IBFS_ACCESS_REMOTE_READ |
					    IBFS_ACCESS_REMOTE_ATOMIC);
	struct ibfs_qp_init_attr ia = {
		.send_cq = e->scq, .recv_cq = e->rcq, .cap = *cap,
		.qp_type = type,
	};
	if (e->mr && e->scq && e->rcq)
		e->qp = ibfs_create_qp(e->pd, &ia);
	if (!e->qp) {
		ibfs__hca_end_close(e);
		return -1;
	}
	return 0;
}

static uint8_t end_port(const struct ibfs_hca_end *e)
{
	return e->port ? e->port : 1;
}

int ibfs__hca_end_connect(struct ibfs_hca_end *e, uint16_t dlid,
			  uint32_t dqpn, const struct ibfs_hca_conn *c)
{
	int rc_qp = e->qp->qp_type == IBFS_QPT_RC;
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT, .port_num = end_port(e),
				 .pkey_index = e->pkey_index,
				 .qp_access_flags = IBFS_ACCESS_REMOTE_WRITE |
						    IBFS_ACCESS_REMOTE_READ |
						    IBFS_ACCESS_REMOTE_ATOMIC};
	int r = ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE | IBFS_QP_PKEY_INDEX |
						  IBFS_QP_PORT |
						  IBFS_QP_ACCESS_FLAGS);
	if (r)
		return r;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBFS_QPS_RTR;
	a.path_mtu = c->mtu;
	a.dest_qp_num = dqpn;
	a.rq_psn = c->psn;
	a.max_dest_rd_atomic = c->rd_atomic;
	a.min_rnr_timer = c->min_rnr_timer;
	a.ah_attr.dlid = dlid;
	a.ah_attr.src_path_bits = c->src_path_bits;
	a.ah_attr.sl = c->sl;
	a.ah_attr.port_num = end_port(e);
	int rc_rtr = IBFS_QP_MAX_DEST_RD_ATOMIC | IBFS_QP_MIN_RNR_TIMER;
	r = ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE | IBFS_QP_AV |
					      IBFS_QP_PATH_MTU |
					      IBFS_QP_DEST_QPN |
					      IBFS_QP_RQ_PSN |
					      (rc_qp ? rc_rtr : 0));
	if (r)
		return r;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBFS_QPS_RTS;
	a.sq_psn = c->psn;
	a.timeout = c->timeout;
	a.retry_cnt = c->retry_cnt;
	a.rnr_retry = c->rnr_retry;
	a.max_rd_atomic = c->rd_atomic;
	int rc_rts = IBFS_QP_TIMEOUT | IBFS_QP_RETRY_CNT | IBFS_QP_RNR_RETRY |
		     IBFS_QP_MAX_QP_RD_ATOMIC;
	return ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE | IBFS_QP_SQ_PSN |
						 (rc_qp ? rc_rts : 0));
}

int ibfs__hca_end_connect_ud(struct ibfs_hca_end *e, uint32_t qkey)
{
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT, .port_num = end_port(e),
				 .pkey_index = e->pkey_index, .qkey = qkey};
	int r = ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE | IBFS_QP_PKEY_INDEX |
						  IBFS_QP_PORT | IBFS_QP_QKEY);
	if (r)
		return r;
	a.qp_state = IBFS_QPS_RTR;
	r = ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE);
	if (r)
		return r;
	a.qp_state = IBFS_QPS_RTS;
	a.sq_psn = 0;
	return ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE | IBFS_QP_SQ_PSN);
}

void ibfs__hca_end_close(struct ibfs_hca_end *e)
{
	if (e->qp)
		ibfs_destroy_qp(e->qp);
	if (e->mr)
		ibfs_dereg_mr(e->mr);
	if (e->scq)
		ibfs_destroy_cq(e->scq);
	if (e->rcq)
		ibfs_destroy_cq(e->rcq);
	if (e->pd)
		ibfs_dealloc_pd(e->pd);
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

void ibfs__hca_pair_free(struct ibfs_hca_pair *x)
{
	for (int i = 0; i < 2; i++)
		ibfs__hca_free(x->h[i]);
	ibfs__fabric_free(x->f);
	ibfs__topo_free(x->t);
	memset(x, 0, sizeof(*x));
}
