/* SPDX-License-Identifier: MIT */
/*
 * The verbs entry points that post work and describe the device: open and
 * query, post_send and post_recv, and the _str helpers. Every call made by
 * an application enters the fabric through the HCA's struct ibfs_exec
 * (the application's time becomes the fabric's) and leaves it after.
 *
 * post_send checks what a verbs provider checks at post time (QP state,
 * queue space, SGE count, opcode for the QP type, inline size, UD message
 * size); everything the HCA checks later (keys, remote access) comes back
 * as a completion status. Inline data is copied at post time, as
 * ibv_post_send does, so the buffer may be reused at once.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hca/hca_int.h"

static struct ibfs_hca *(*verbs_locator)(void *arg);
static void *verbs_locator_arg;

void ibfs__verbs_set_locator(struct ibfs_hca *(*fn)(void *arg), void *arg)
{
	verbs_locator = fn;
	verbs_locator_arg = arg;
}

struct ibfs_context *ibfs_open_device(void)
{
	struct ibfs_hca *h = verbs_locator ? verbs_locator(verbs_locator_arg)
					   : NULL;
	if (!h) {
		errno = ENODEV;
		return NULL;
	}
	return &h->ctx;
}

int ibfs_close_device(struct ibfs_context *ctx)
{
	return ctx ? 0 : EINVAL;
}

int ibfs_mtu_to_bytes(enum ibfs_mtu mtu)
{
	if (mtu < IBFS_MTU_256 || mtu > IBFS_MTU_4096)
		return 0;
	return 128 << mtu;
}

static enum ibfs_mtu verbs_mtu_enum(uint32_t bytes)
{
	enum ibfs_mtu m = IBFS_MTU_256;
	while (m < IBFS_MTU_4096 && (uint32_t)(128 << (m + 1)) <= bytes)
		m++;
	return m;
}

int ibfs_query_port(struct ibfs_context *ctx, uint8_t port_num,
		    struct ibfs_port_attr *attr)
{
	if (!ctx || !attr)
		return EINVAL;
	struct ibfs_hca *h = ctx->hca;
	if (port_num < 1 || port_num > h->dev.nports)
		return EINVAL;
	struct ibfs_hca_port *hp = &h->hp[port_num];
	struct ibfs_fabric *f = h->dev.fab;
	memset(attr, 0, sizeof(*attr));
	attr->state = hp->port->peer && hp->port->up ? IBFS_PORT_ACTIVE :
						       IBFS_PORT_DOWN;
	attr->max_mtu = attr->active_mtu = verbs_mtu_enum(f->mtu ? f->mtu
								 : 4096);
	attr->lid = hp->lid;
	attr->lmc = hp->lmc;
	attr->sm_lid = hp->sm_lid;
	attr->max_vl_num = (uint8_t)hp->port->data_vls;
	attr->pkey_tbl_len = (uint16_t)ibfs__port_pkey_cap(hp->port);
	if (hp->port->link >= 0 && (size_t)hp->port->link < f->topo->nlinks)
		attr->active_width =
			(uint8_t)f->topo->links[hp->port->link].width;
	return 0;
}

int ibfs_query_device(struct ibfs_context *ctx, struct ibfs_device_attr *attr)
{
	if (!ctx || !attr)
		return EINVAL;
	struct ibfs_hca *h = ctx->hca;
	const struct ibfs_topo_node *n = &h->dev.fab->topo->nodes[h->dev.node];
	memset(attr, 0, sizeof(*attr));
	snprintf(attr->fw_ver, sizeof(attr->fw_ver), "ibfsim %s",
		 h->prof->name);
	attr->node_guid = attr->sys_image_guid = n->guid;
	attr->vendor_id = h->prof->part_id ? 0x02c9 : 0;
	attr->vendor_part_id = h->prof->part_id;
	attr->max_qp = IBFS_HCA_MAX_QP;
	attr->max_qp_wr = attr->max_srq_wr = IBFS_HCA_MAX_WR;
	attr->max_sge = attr->max_srq_sge = IBFS_HCA_MAX_SGE;
	attr->max_cqe = IBFS_HCA_MAX_CQE;
	attr->max_qp_rd_atom = attr->max_qp_init_rd_atom =
		h->prof->max_rd_atomic;
	/* Every port has the same table (NodeInfo PartitionCap). */
	attr->max_pkeys = (uint16_t)ibfs__port_pkey_cap(h->hp[1].port);
	attr->phys_port_cnt = (uint8_t)h->dev.nports;
	return 0;
}

int ibfs_query_pkey(struct ibfs_context *ctx, uint8_t port_num, int index,
		    uint16_t *pkey)
{
	struct ibfs_hca *h = ctx ? ctx->hca : NULL;
	if (!h || !pkey || port_num < 1 || port_num > h->dev.nports)
		return EINVAL;
	const struct ibfs_port *port = h->hp[port_num].port;
	if (index < 0 || (unsigned)index >= ibfs__port_pkey_cap(port))
		return EINVAL;
	*pkey = ibfs__port_pkey(port, (unsigned)index);
	return 0;
}

int ibfs_get_pkey_index(struct ibfs_context *ctx, uint8_t port_num,
			uint16_t pkey)
{
	struct ibfs_hca *h = ctx ? ctx->hca : NULL;
	if (!h || port_num < 1 || port_num > h->dev.nports)
		return -1;
	const struct ibfs_port *port = h->hp[port_num].port;
	for (unsigned i = 0; i < ibfs__port_pkey_cap(port); i++)
		if (ibfs__port_pkey(port, i) == pkey && (pkey & IBFS_PKEY_BASE))
			return (int)i;
	return -1;
}

static void verbs_enter(struct ibfs_hca *h)
{
	if (h->exec.ops && h->exec.ops->enter)
		h->exec.ops->enter(h->exec.ctx);
}

static void verbs_leave(struct ibfs_hca *h)
{
	if (h->exec.ops && h->exec.ops->leave)
		h->exec.ops->leave(h->exec.ctx);
}

static void verbs_flush_cqe(struct ibfs_cq *cq, struct ibfs_hca_qp *qp,
			    uint64_t wr_id, enum ibfs_wc_opcode op)
{
	struct ibfs_wc wc = {
		.wr_id = wr_id,
		.status = IBFS_WC_WR_FLUSH_ERR,
		.opcode = op,
		.qp_num = qp->pub.qp_num,
	};
	ibfs__cq_push((struct ibfs_hca_cq *)cq, &wc);
}

static int verbs_op_ok(enum ibfs_qp_type t, enum ibfs_wr_opcode op)
{
	switch (op) {
	case IBFS_WR_SEND:
	case IBFS_WR_SEND_WITH_IMM:
		return 1;
	case IBFS_WR_RDMA_WRITE:
	case IBFS_WR_RDMA_WRITE_WITH_IMM:
		return t != IBFS_QPT_UD;
	case IBFS_WR_RDMA_READ:
	case IBFS_WR_ATOMIC_CMP_AND_SWP:
	case IBFS_WR_ATOMIC_FETCH_AND_ADD:
		return t == IBFS_QPT_RC;
	default:
		return 0;
	}
}

static int verbs_post_one(struct ibfs_hca_qp *qp, struct ibfs_send_wr *wr,
			  ibfs_time_t now)
{
	struct ibfs_hca *h = qp->hca;
	enum ibfs_qp_type t = qp->pub.qp_type;
	if (wr->num_sge < 0 ||
	    (uint32_t)wr->num_sge > qp->init.cap.max_send_sge ||
	    (wr->num_sge && !wr->sg_list) || !verbs_op_ok(t, wr->opcode))
		return EINVAL;
	uint64_t len = 0;
	for (int i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if (len > 0x80000000ull)
		return EINVAL; /* IBA 9.4: messages up to 2^31 bytes */
	int atomic = wr->opcode == IBFS_WR_ATOMIC_CMP_AND_SWP ||
		     wr->opcode == IBFS_WR_ATOMIC_FETCH_AND_ADD;
	if (atomic && len != 8)
		return EINVAL;
	int inl = (wr->send_flags & IBFS_SEND_INLINE) &&
		  wr->opcode != IBFS_WR_RDMA_READ && !atomic;
	if (inl && len > qp->init.cap.max_inline_data)
		return EINVAL;
	uint32_t fab_mtu = h->dev.fab->mtu ? h->dev.fab->mtu : 4096;
	if (t == IBFS_QPT_UD) {
		/* IBA 9.8.4: a UD message is one packet, at most one MTU. */
		if (!wr->wr.ud.ah || len > fab_mtu)
			return EINVAL;
	}
	if (qp->pub.state == IBFS_QPS_ERR) {
		verbs_flush_cqe(qp->pub.send_cq, qp, wr->wr_id,
				wr->opcode == IBFS_WR_RDMA_READ ?
					IBFS_WC_RDMA_READ : IBFS_WC_SEND);
		return 0;
	}
	if (qp->sq_tail - qp->sq_head >= qp->sq_cap)
		return ENOMEM;
	struct ibfs_swqe *w = ibfs__sq_at(qp, qp->sq_tail);
	memset(w, 0, sizeof(*w));
	w->wr_id = wr->wr_id;
	w->opcode = (uint8_t)wr->opcode;
	w->signaled = !!(wr->send_flags & IBFS_SEND_SIGNALED);
	w->fence = !!(wr->send_flags & IBFS_SEND_FENCE);
	w->solicited = !!(wr->send_flags & IBFS_SEND_SOLICITED);
	w->inl = (uint8_t)inl;
	w->num_sge = (uint8_t)wr->num_sge;
	w->len = (uint32_t)len;
	w->imm = wr->imm_data;
	if (wr->num_sge)
		memcpy(w->sge, wr->sg_list, wr->num_sge * sizeof(*w->sge));
	if (atomic) {
		w->raddr = wr->wr.atomic.remote_addr;
		w->rkey = wr->wr.atomic.rkey;
		w->cmp_add = wr->wr.atomic.compare_add;
		w->swap = wr->wr.atomic.swap;
	} else if (t == IBFS_QPT_UD) {
		w->dlid = wr->wr.ud.ah->attr.dlid;
		w->sl = wr->wr.ud.ah->attr.sl;
		w->path_bits = wr->wr.ud.ah->attr.src_path_bits;
		w->global = wr->wr.ud.ah->attr.is_global;
		memcpy(w->dgid, wr->wr.ud.ah->attr.grh.dgid, 16);
		w->dqpn = wr->wr.ud.remote_qpn;
		w->qkey = wr->wr.ud.remote_qkey;
	} else {
		w->raddr = wr->wr.rdma.remote_addr;
		w->rkey = wr->wr.rdma.rkey;
	}
	if (inl && len) {
		uint8_t *dst = qp->inl + (qp->sq_tail % qp->sq_cap) *
						 qp->init.cap.max_inline_data;
		ibfs__sgl_gather(w->sge, w->num_sge, 0, dst, (uint32_t)len);
	}
	w->ready_at = now + h->prof->doorbell;
	ibfs__hca_step(h, IBFS_STEP_DOORBELL, now, w->ready_at, NULL);
	qp->sq_tail++;
	return 0;
}

int ibfs_post_send(struct ibfs_qp *pub, struct ibfs_send_wr *wr,
		   struct ibfs_send_wr **bad_wr)
{
	if (!pub) {
		if (bad_wr)
			*bad_wr = wr;
		return EINVAL;
	}
	struct ibfs_hca_qp *qp = (struct ibfs_hca_qp *)pub;
	struct ibfs_hca *h = qp->hca;
	enum ibfs_qp_state s = pub->state;
	int r = 0;
	verbs_enter(h);
	ibfs_time_t now = ibfs__hca_now(h);
	for (; wr; wr = wr->next) {
		if (s == IBFS_QPS_RESET || s == IBFS_QPS_INIT ||
		    s == IBFS_QPS_RTR)
			r = EINVAL;
		else
			r = verbs_post_one(qp, wr, now);
		if (r)
			break;
	}
	if (r && bad_wr)
		*bad_wr = wr;
	ibfs__sq_prepare(qp);
	ibfs__hca_qp_wake(qp);
	verbs_leave(h);
	return r;
}

int ibfs_post_recv(struct ibfs_qp *pub, struct ibfs_recv_wr *wr,
		   struct ibfs_recv_wr **bad_wr)
{
	if (!pub) {
		if (bad_wr)
			*bad_wr = wr;
		return EINVAL;
	}
	struct ibfs_hca_qp *qp = (struct ibfs_hca_qp *)pub;
	int r = 0;
	verbs_enter(qp->hca);
	for (; wr; wr = wr->next) {
		/* A QP with an SRQ has no receive queue to post to. */
		if (pub->state == IBFS_QPS_RESET || qp->init.srq ||
		    wr->num_sge < 0 ||
		    (uint32_t)wr->num_sge > qp->init.cap.max_recv_sge ||
		    (wr->num_sge && !wr->sg_list)) {
			r = EINVAL;
			break;
		}
		if (pub->state == IBFS_QPS_ERR) {
			verbs_flush_cqe(pub->recv_cq, qp, wr->wr_id,
					IBFS_WC_RECV);
			continue;
		}
		if ((r = ibfs__rq_post(qp->rq, wr)))
			break;
	}
	if (r && bad_wr)
		*bad_wr = wr;
	verbs_leave(qp->hca);
	return r;
}

int ibfs_post_srq_recv(struct ibfs_srq *pub, struct ibfs_recv_wr *wr,
		       struct ibfs_recv_wr **bad_wr)
{
	if (!pub) {
		if (bad_wr)
			*bad_wr = wr;
		return EINVAL;
	}
	struct ibfs_hca_srq *s = (struct ibfs_hca_srq *)pub;
	struct ibfs_hca *h = pub->context->hca;
	int r = 0;
	verbs_enter(h);
	for (; wr; wr = wr->next)
		if ((r = ibfs__rq_post(&s->rq, wr)))
			break;
	if (r && bad_wr)
		*bad_wr = wr;
	verbs_leave(h);
	return r;
}

const char *ibfs_wc_status_str(enum ibfs_wc_status status)
{
	static const char *const s[] = {
		"success", "local length error", "local QP operation error",
		"local EE context operation error", "local protection error",
		"Work Request Flushed Error",
		"memory management operation error",
		"bad response error", "local access error",
		"remote invalid request error", "remote access error",
		"remote operation error", "transport retry counter exceeded",
		"RNR retry counter exceeded", "local RDD violation error",
		"remote invalid RD request", "aborted error",
		"invalid EE context number", "invalid EE context state",
		"fatal error", "response timeout error", "general error",
		"TM error", "TM software rendezvous",
	};
	if ((unsigned)status >= sizeof(s) / sizeof(s[0]))
		return "unknown";
	return s[status];
}

const char *ibfs_wc_opcode_str(enum ibfs_wc_opcode op)
{
	switch (op) {
	case IBFS_WC_SEND: return "SEND";
	case IBFS_WC_RDMA_WRITE: return "RDMA_WRITE";
	case IBFS_WC_RDMA_READ: return "RDMA_READ";
	case IBFS_WC_COMP_SWAP: return "COMP_SWAP";
	case IBFS_WC_FETCH_ADD: return "FETCH_ADD";
	case IBFS_WC_BIND_MW: return "BIND_MW";
	case IBFS_WC_RECV: return "RECV";
	case IBFS_WC_RECV_RDMA_WITH_IMM: return "RECV_RDMA_WITH_IMM";
	}
	return "unknown";
}

const char *ibfs_wr_opcode_str(enum ibfs_wr_opcode op)
{
	static const char *const s[] = {
		"RDMA_WRITE", "RDMA_WRITE_WITH_IMM", "SEND", "SEND_WITH_IMM",
		"RDMA_READ", "ATOMIC_CMP_AND_SWP", "ATOMIC_FETCH_AND_ADD",
	};
	if ((unsigned)op >= sizeof(s) / sizeof(s[0]))
		return "unknown";
	return s[op];
}

const char *ibfs_qp_state_str(enum ibfs_qp_state state)
{
	static const char *const s[] = {
		"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR", "UNKNOWN",
	};
	if ((unsigned)state >= sizeof(s) / sizeof(s[0]))
		return "unknown";
	return s[state];
}
