/* SPDX-License-Identifier: MIT */
/*
 * Queue pair states and the checks verbs makes at create, modify and post
 * time (IBA 10.3, 11.2.4; ibv_modify_qp(3)), plus memory registration and
 * the _str helpers. Each error path is exercised once.
 */
#include "check_common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hca/hca_int.h"
#include "hca/pair.h"
#include "ibfsim/verbs.h"

static struct ibfs_hca_pair P;
static struct ibfs_context *ctx;
static struct ibfs_pd *pd;
static struct ibfs_cq *cq;
static uint8_t mem[4096];

static void setup(void)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	ctx = ibfs__hca_context(P.h[0]);
	pd = ibfs_alloc_pd(ctx);
	cq = ibfs_create_cq(ctx, 16, NULL, NULL, 0);
	ck_assert_ptr_nonnull(pd);
	ck_assert_ptr_nonnull(cq);
}

static void teardown(void)
{
	ibfs__hca_pair_free(&P);
}

static struct ibfs_qp *mkqp(enum ibfs_qp_type t)
{
	struct ibfs_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .qp_type = t,
		.cap = {.max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1,
			.max_recv_sge = 1, .max_inline_data = 16},
	};
	return ibfs_create_qp(pd, &ia);
}

static int to_init(struct ibfs_qp *qp)
{
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT, .port_num = 1};
	return ibfs_modify_qp(qp, &a, IBFS_QP_STATE | IBFS_QP_PKEY_INDEX |
					      IBFS_QP_PORT |
					      IBFS_QP_ACCESS_FLAGS);
}

static const int RTR_MASK = IBFS_QP_STATE | IBFS_QP_AV | IBFS_QP_PATH_MTU |
			    IBFS_QP_DEST_QPN | IBFS_QP_RQ_PSN |
			    IBFS_QP_MAX_DEST_RD_ATOMIC | IBFS_QP_MIN_RNR_TIMER;
static const int RTS_MASK = IBFS_QP_STATE | IBFS_QP_SQ_PSN | IBFS_QP_TIMEOUT |
			    IBFS_QP_RETRY_CNT | IBFS_QP_RNR_RETRY |
			    IBFS_QP_MAX_QP_RD_ATOMIC;

static struct ibfs_qp_attr rtr_attr(void)
{
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_RTR,
				 .path_mtu = IBFS_MTU_1024,
				 .dest_qp_num = 0x22, .rq_psn = 7,
				 .max_dest_rd_atomic = 2, .min_rnr_timer = 3};
	a.ah_attr.dlid = 2;
	return a;
}

START_TEST(rc_state_walk_and_query)
{
	setup();
	struct ibfs_qp *qp = mkqp(IBFS_QPT_RC);
	ck_assert_ptr_nonnull(qp);
	ck_assert_int_eq(qp->state, IBFS_QPS_RESET);
	ck_assert_uint_eq(qp->qp_num, IBFS_HCA_QPN_BASE);
	ck_assert_int_eq(to_init(qp), 0);
	ck_assert_int_eq(qp->state, IBFS_QPS_INIT);
	struct ibfs_qp_attr a = rtr_attr();
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTR_MASK), 0);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBFS_QPS_RTS;
	a.sq_psn = 0xfffffe;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 6;
	a.max_rd_atomic = 3;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTS_MASK), 0);
	struct ibfs_qp_attr q;
	struct ibfs_qp_init_attr qi;
	ck_assert_int_eq(ibfs_query_qp(qp, &q, 0, &qi), 0);
	ck_assert_int_eq(q.qp_state, IBFS_QPS_RTS);
	ck_assert_int_eq(q.path_mtu, IBFS_MTU_1024);
	ck_assert_uint_eq(q.dest_qp_num, 0x22);
	ck_assert_uint_eq(q.rq_psn, 7);
	ck_assert_uint_eq(q.sq_psn, 0xfffffe);
	ck_assert_uint_eq(q.timeout, 14);
	ck_assert_uint_eq(q.rnr_retry, 6);
	ck_assert_uint_eq(q.max_rd_atomic, 3);
	ck_assert_uint_eq(q.ah_attr.dlid, 2);
	ck_assert_uint_eq(qi.cap.max_send_wr, 4);
	ck_assert_str_eq(ibfs_qp_state_str(q.qp_state), "RTS");
	/* RTS -> SQD -> RTS, then ERR and RESET from anywhere. */
	a.qp_state = IBFS_QPS_SQD;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, IBFS_QP_STATE), 0);
	a.qp_state = IBFS_QPS_RTS;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, IBFS_QP_STATE), 0);
	a.qp_state = IBFS_QPS_ERR;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, IBFS_QP_STATE), 0);
	ck_assert_int_eq(qp->state, IBFS_QPS_ERR);
	a.qp_state = IBFS_QPS_RESET;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, IBFS_QP_STATE), 0);
	ck_assert_int_eq(qp->state, IBFS_QPS_RESET);
	ck_assert_int_eq(ibfs_destroy_qp(qp), 0);
	teardown();
}
END_TEST

START_TEST(bad_transitions_and_attributes)
{
	setup();
	struct ibfs_qp *qp = mkqp(IBFS_QPT_RC);
	struct ibfs_qp_attr a = rtr_attr();
	/* RESET -> RTR skips INIT. */
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTR_MASK), EINVAL);
	/* RESET -> INIT without the access flags an RC QP requires. */
	struct ibfs_qp_attr i = {.qp_state = IBFS_QPS_INIT, .port_num = 1};
	ck_assert_int_eq(ibfs_modify_qp(qp, &i, IBFS_QP_STATE |
				IBFS_QP_PKEY_INDEX | IBFS_QP_PORT), EINVAL);
	/* A Q_Key is not an RC attribute; port 2 does not exist. */
	ck_assert_int_eq(ibfs_modify_qp(qp, &i, IBFS_QP_STATE |
				IBFS_QP_PKEY_INDEX | IBFS_QP_PORT |
				IBFS_QP_ACCESS_FLAGS | IBFS_QP_QKEY), EINVAL);
	i.port_num = 2;
	ck_assert_int_eq(to_init(qp), 0);
	ck_assert_int_eq(ibfs_modify_qp(qp, &i, IBFS_QP_STATE | IBFS_QP_PORT),
			 EINVAL);
	/* INIT -> RTR missing DEST_QPN; then out-of-range values. */
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTR_MASK & ~IBFS_QP_DEST_QPN),
			 EINVAL);
	a.path_mtu = 6;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTR_MASK), EINVAL);
	a = rtr_attr();
	a.min_rnr_timer = 32;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTR_MASK), EINVAL);
	a = rtr_attr();
	a.ah_attr.dlid = 0;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTR_MASK), EINVAL);
	a = rtr_attr();
	a.rq_psn = 1u << 24;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTR_MASK), EINVAL);
	a = rtr_attr();
	a.max_dest_rd_atomic = 200;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTR_MASK), EINVAL);
	ck_assert_int_eq(qp->state, IBFS_QPS_INIT); /* nothing changed */
	a = rtr_attr();
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTR_MASK), 0);
	struct ibfs_qp_attr r = {.qp_state = IBFS_QPS_RTS, .timeout = 32};
	ck_assert_int_eq(ibfs_modify_qp(qp, &r, RTS_MASK), EINVAL);
	r.timeout = 1;
	r.retry_cnt = 8;
	ck_assert_int_eq(ibfs_modify_qp(qp, &r, RTS_MASK), EINVAL);
	r.retry_cnt = 7;
	r.rnr_retry = 8;
	ck_assert_int_eq(ibfs_modify_qp(qp, &r, RTS_MASK), EINVAL);
	/* CUR_STATE must match. */
	r.rnr_retry = 7;
	r.cur_qp_state = IBFS_QPS_INIT;
	ck_assert_int_eq(ibfs_modify_qp(qp, &r, RTS_MASK | IBFS_QP_CUR_STATE),
			 EINVAL);
	ck_assert_int_eq(ibfs_modify_qp(qp, &r, RTS_MASK), 0);
	/* RTS -> INIT is not a transition. */
	ck_assert_int_eq(ibfs_modify_qp(qp, &i, IBFS_QP_STATE), EINVAL);
	teardown();
}
END_TEST

START_TEST(create_qp_checks)
{
	setup();
	struct ibfs_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBFS_QPT_RC,
		.cap = {.max_send_wr = 4, .max_send_sge = 5},
	};
	errno = 0;
	ck_assert_ptr_null(ibfs_create_qp(pd, &ia));
	ck_assert_int_eq(errno, EINVAL);
	ia.cap.max_send_sge = 1;
	ia.cap.max_inline_data = 100000;
	ck_assert_ptr_null(ibfs_create_qp(pd, &ia));
	ia.cap.max_inline_data = 0;
	ia.cap.max_send_wr = 0;
	ck_assert_ptr_null(ibfs_create_qp(pd, &ia));
	ia.cap.max_send_wr = 1;
	ia.recv_cq = NULL;
	ck_assert_ptr_null(ibfs_create_qp(pd, &ia));
	ia.recv_cq = cq;
	ia.qp_type = 99;
	ck_assert_ptr_null(ibfs_create_qp(pd, &ia));
	ia.qp_type = IBFS_QPT_UC;
	struct ibfs_qp *qp = ibfs_create_qp(pd, &ia);
	ck_assert_ptr_nonnull(qp);
	/* The PD is in use. */
	ck_assert_int_eq(ibfs_dealloc_pd(pd), EBUSY);
	ck_assert_int_eq(ibfs_destroy_qp(qp), 0);
	ck_assert_int_eq(ibfs_dealloc_pd(pd), 0);
	teardown();
}
END_TEST

START_TEST(post_checks)
{
	setup();
	struct ibfs_qp *qp = mkqp(IBFS_QPT_RC);
	struct ibfs_mr *mr = ibfs_reg_mr(pd, mem, sizeof(mem),
					 IBFS_ACCESS_LOCAL_WRITE);
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)mem, .length = 8,
			      .lkey = mr->lkey};
	struct ibfs_send_wr w2 = {.wr_id = 2, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_SEND};
	struct ibfs_send_wr w1 = {.wr_id = 1, .next = &w2, .sg_list = &sg,
				  .num_sge = 1, .opcode = IBFS_WR_SEND};
	struct ibfs_send_wr *bad = NULL;
	/* RESET: refused, bad_wr at the first. */
	ck_assert_int_eq(ibfs_post_send(qp, &w1, &bad), EINVAL);
	ck_assert_ptr_eq(bad, &w1);
	struct ibfs_recv_wr r = {.wr_id = 3, .sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *rbad = NULL;
	ck_assert_int_eq(ibfs_post_recv(qp, &r, &rbad), EINVAL);
	ck_assert_int_eq(to_init(qp), 0);
	struct ibfs_qp_attr a = rtr_attr();
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTR_MASK), 0);
	/* Receives may be posted from INIT on; sends only in RTS. */
	for (int k = 0; k < 4; k++)
		ck_assert_int_eq(ibfs_post_recv(qp, &r, &rbad), 0);
	ck_assert_int_eq(ibfs_post_recv(qp, &r, &rbad), ENOMEM);
	ck_assert_int_eq(ibfs_post_send(qp, &w1, &bad), EINVAL);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBFS_QPS_RTS;
	a.timeout = 14;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, RTS_MASK), 0);
	/* The second WR has too many SGEs: the first is posted. */
	w2.num_sge = 2;
	bad = NULL;
	ck_assert_int_eq(ibfs_post_send(qp, &w1, &bad), EINVAL);
	ck_assert_ptr_eq(bad, &w2);
	w2.num_sge = 1;
	/* Inline larger than max_inline_data (16). */
	sg.length = 17;
	w2.send_flags = IBFS_SEND_INLINE;
	ck_assert_int_eq(ibfs_post_send(qp, &w2, &bad), EINVAL);
	/* Atomics need exactly 8 bytes. */
	sg.length = 4;
	w2.send_flags = 0;
	w2.opcode = IBFS_WR_ATOMIC_FETCH_AND_ADD;
	ck_assert_int_eq(ibfs_post_send(qp, &w2, &bad), EINVAL);
	/* Four slots: one taken by w1 above, three more, then full. */
	sg.length = 8;
	w2.opcode = IBFS_WR_SEND;
	w2.next = NULL;
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(ibfs_post_send(qp, &w2, &bad), 0);
	ck_assert_int_eq(ibfs_post_send(qp, &w2, &bad), ENOMEM);
	teardown();
}
END_TEST

START_TEST(opcode_per_qp_type)
{
	setup();
	struct ibfs_qp *qp = mkqp(IBFS_QPT_UC);
	ck_assert_int_eq(to_init(qp), 0);
	struct ibfs_qp_attr a = rtr_attr();
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, IBFS_QP_STATE | IBFS_QP_AV |
				IBFS_QP_PATH_MTU | IBFS_QP_DEST_QPN |
				IBFS_QP_RQ_PSN), 0);
	a.qp_state = IBFS_QPS_RTS;
	ck_assert_int_eq(ibfs_modify_qp(qp, &a, IBFS_QP_STATE |
				IBFS_QP_SQ_PSN), 0);
	struct ibfs_mr *mr = ibfs_reg_mr(pd, mem, 64, IBFS_ACCESS_LOCAL_WRITE);
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)mem, .length = 8,
			      .lkey = mr->lkey};
	struct ibfs_send_wr w = {.sg_list = &sg, .num_sge = 1,
				 .opcode = IBFS_WR_RDMA_READ};
	struct ibfs_send_wr *bad;
	/* UC has no READ and no atomics (IBA Table 38). */
	ck_assert_int_eq(ibfs_post_send(qp, &w, &bad), EINVAL);
	w.opcode = IBFS_WR_ATOMIC_CMP_AND_SWP;
	ck_assert_int_eq(ibfs_post_send(qp, &w, &bad), EINVAL);
	w.opcode = IBFS_WR_RDMA_WRITE;
	ck_assert_int_eq(ibfs_post_send(qp, &w, &bad), 0);
	teardown();
}
END_TEST

START_TEST(memory_registration)
{
	setup();
	/* Remote write needs local write (IBA 10.6.3.1). */
	ck_assert_ptr_null(ibfs_reg_mr(pd, mem, 64, IBFS_ACCESS_REMOTE_WRITE));
	ck_assert_ptr_null(ibfs_reg_mr(NULL, mem, 64, 0));
	struct ibfs_mr *a = ibfs_reg_mr(pd, mem, 64, IBFS_ACCESS_LOCAL_WRITE);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->lkey, a->rkey);
	ck_assert_ptr_eq(a->addr, mem);
	ck_assert_uint_eq(a->length, 64);
	struct ibfs_hca *h = P.h[0];
	struct ibfs_hca_pd *hp = (struct ibfs_hca_pd *)pd;
	uint64_t base = (uint64_t)(uintptr_t)mem;
	ck_assert_int_eq(ibfs__mr_check(h, a->lkey, hp, base, 64, 0),
			 IBFS_MR_OK);
	ck_assert_int_eq(ibfs__mr_check(h, a->lkey, hp, base + 1, 64, 0),
			 IBFS_MR_BOUNDS);
	ck_assert_int_eq(ibfs__mr_check(h, a->lkey, hp, base - 1, 1, 0),
			 IBFS_MR_BOUNDS);
	ck_assert_int_eq(ibfs__mr_check(h, a->lkey, hp, base, 8,
					IBFS_ACCESS_REMOTE_READ),
			 IBFS_MR_ACCESS);
	ck_assert_int_eq(ibfs__mr_check(h, 0, hp, base, 8, 0),
			 IBFS_MR_BAD_KEY);
	/* Another PD may not use the key. */
	struct ibfs_pd *pd2 = ibfs_alloc_pd(ctx);
	ck_assert_int_eq(ibfs__mr_check(h, a->lkey, (struct ibfs_hca_pd *)pd2,
					base, 8, 0),
			 IBFS_MR_BAD_KEY);
	/* A stale key does not reach the region that reuses its slot. */
	uint32_t old = a->lkey;
	ck_assert_int_eq(ibfs_dereg_mr(a), 0);
	struct ibfs_mr *b = ibfs_reg_mr(pd, mem, 64, IBFS_ACCESS_LOCAL_WRITE);
	ck_assert_uint_ne(b->lkey, old);
	ck_assert_int_eq(ibfs__mr_check(h, old, hp, base, 8, 0),
			 IBFS_MR_BAD_KEY);
	ck_assert_int_eq(ibfs__mr_check(h, b->lkey, hp, base, 8, 0),
			 IBFS_MR_OK);
	teardown();
}
END_TEST

START_TEST(names_and_port)
{
	setup();
	ck_assert_str_eq(ibfs_wc_status_str(IBFS_WC_SUCCESS), "success");
	ck_assert_str_eq(ibfs_wc_status_str(IBFS_WC_RETRY_EXC_ERR),
			 "transport retry counter exceeded");
	ck_assert_int_eq(IBFS_WC_TM_RNDV_INCOMPLETE, 23);
	/* libibverbs' ibv_wc_status_str names the last status so. */
	ck_assert_str_eq(ibfs_wc_status_str(IBFS_WC_TM_RNDV_INCOMPLETE),
			 "TM software rendezvous");
	ck_assert_str_eq(ibfs_wc_status_str(24), "unknown");
	ck_assert_str_eq(ibfs_wc_opcode_str(IBFS_WC_RECV), "RECV");
	ck_assert_str_eq(ibfs_wr_opcode_str(IBFS_WR_RDMA_READ), "RDMA_READ");
	ck_assert_str_eq(ibfs_qp_state_str(IBFS_QPS_ERR), "ERR");
	ck_assert_int_eq(ibfs_mtu_to_bytes(IBFS_MTU_4096), 4096);
	ck_assert_int_eq(ibfs_mtu_to_bytes(0), 0);
	struct ibfs_port_attr pa;
	ck_assert_int_eq(ibfs_query_port(ctx, 1, &pa), 0);
	ck_assert_uint_eq(pa.lid, 1);
	ck_assert_int_eq(pa.state, IBFS_PORT_ACTIVE);
	ck_assert_int_eq(pa.active_mtu, IBFS_MTU_4096);
	ck_assert_uint_eq(pa.active_width, 4);
	ck_assert_int_eq(ibfs_query_port(ctx, 2, &pa), EINVAL);
	/* No locator: no device for the caller. */
	ibfs__verbs_set_locator(NULL, NULL);
	errno = 0;
	ck_assert_ptr_null(ibfs_open_device());
	ck_assert_int_eq(errno, ENODEV);
	/* Unknown profile: a sentence, no crash. */
	struct ibfs_diag d;
	struct ibfs_exec ex = {0};
	ck_assert_ptr_null(ibfs__hca_create(P.f, 0, "connectx-9", ex, &d));
	ck_assert_ptr_nonnull(
		strstr(d.msg, "unknown HCA profile 'connectx-9'"));
	ck_assert_int_eq(ibfs__hca_set_lid(P.h[0], 1, 0xc000, 0), -1);
	ck_assert_int_eq(ibfs__hca_set_lid(P.h[0], 2, 5, 0), -1);
	teardown();
}
END_TEST

/* The P_Key table length port 1 reports (ibfs_query_port). */
static int pa_pkeys(void)
{
	struct ibfs_port_attr pa;
	ck_assert_int_eq(ibfs_query_port(ctx, 1, &pa), 0);
	ck_assert_int_gt(pa.pkey_tbl_len, 1);
	return pa.pkey_tbl_len;
}

START_TEST(query_device)
{
	setup();
	struct ibfs_device_attr da;
	ck_assert_int_eq(ibfs_query_device(ctx, &da), 0);
	ck_assert_str_eq(da.fw_ver, "ibfsim ideal");
	ck_assert_uint_eq(da.vendor_id, 0);
	ck_assert_uint_eq(da.node_guid, P.t->nodes[P.h[0]->dev.node].guid);
	ck_assert_int_eq(da.phys_port_cnt, 1);
	ck_assert_int_eq(da.max_qp_rd_atom, P.h[0]->prof->max_rd_atomic);
	ck_assert_int_eq(da.max_qp_init_rd_atom, da.max_qp_rd_atom);
	ck_assert_int_eq(da.max_pkeys, pa_pkeys());
	/* Each limit reported is the one enforced. */
	struct ibfs_qp_init_attr ia = {.send_cq = cq, .recv_cq = cq,
				       .qp_type = IBFS_QPT_RC,
				       .cap = {.max_send_wr = (uint32_t)
							da.max_qp_wr,
					       .max_send_sge = (uint32_t)
							da.max_sge}};
	struct ibfs_qp *qp = ibfs_create_qp(pd, &ia);
	ck_assert_ptr_nonnull(qp);
	ck_assert_int_eq(ibfs_destroy_qp(qp), 0);
	ia.cap.max_send_wr++;
	ck_assert_ptr_null(ibfs_create_qp(pd, &ia));
	ia.cap.max_send_wr--;
	ia.cap.max_send_sge++;
	ck_assert_ptr_null(ibfs_create_qp(pd, &ia));
	ck_assert_ptr_null(ibfs_create_cq(ctx, da.max_cqe + 1, NULL, NULL, 0));
	struct ibfs_srq_init_attr sa = {.attr = {
		.max_wr = (uint32_t)da.max_srq_wr + 1, .max_sge = 1}};
	ck_assert_ptr_null(ibfs_create_srq(pd, &sa));
	sa.attr.max_wr--;
	struct ibfs_srq *srq = ibfs_create_srq(pd, &sa);
	ck_assert_ptr_nonnull(srq);
	ck_assert_int_eq(ibfs_destroy_srq(srq), 0);
	ck_assert_int_eq(ibfs_query_device(NULL, &da), EINVAL);
	teardown();
	/* A ConnectX profile names its part, as ibv_devinfo does. */
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "connectx-4-edr"};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	ck_assert_int_eq(ibfs_query_device(ibfs__hca_context(P.h[1]), &da), 0);
	ck_assert_str_eq(da.fw_ver, "ibfsim connectx-4-edr");
	ck_assert_uint_eq(da.vendor_id, 0x02c9);
	ck_assert_uint_eq(da.vendor_part_id, 4115);
	ck_assert_int_eq(da.max_qp_rd_atom, 16);
	teardown();
}
END_TEST

static int notified;

static void on_notify(void *arg, struct ibfs_hca_cq *c)
{
	(void)arg;
	(void)c;
	notified++;
}

START_TEST(destroy_cq_with_pending_notify)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "connectx-4-edr",
					.data_mode = 1};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	struct ibfs_hca_end a, b;
	struct ibfs_qp_cap cap = {.max_send_wr = 4, .max_recv_wr = 4,
				  .max_send_sge = 1, .max_recv_sge = 1};
	ck_assert_int_eq(ibfs__hca_end_open(&a, P.h[0], IBFS_QPT_RC, 64, &cap,
					    8), 0);
	ck_assert_int_eq(ibfs__hca_end_open(&b, P.h[1], IBFS_QPT_RC, 64, &cap,
					    8), 0);
	struct ibfs_hca_conn c = {.mtu = IBFS_MTU_1024, .timeout = 14,
				  .retry_cnt = 7, .rnr_retry = 7,
				  .rd_atomic = 1};
	ck_assert_int_eq(ibfs__hca_end_connect(&a, 2, b.qp->qp_num, &c), 0);
	ck_assert_int_eq(ibfs__hca_end_connect(&b, 1, a.qp->qp_num, &c), 0);
	ibfs__cq_set_notify(a.scq, on_notify, NULL);
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)a.buf, .length = 8,
			      .lkey = a.mr->lkey};
	struct ibfs_send_wr wr = {.sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_RDMA_WRITE,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)b.buf;
	wr.wr.rdma.rkey = b.mr->rkey;
	struct ibfs_send_wr *bad;
	ck_assert_int_eq(ibfs_post_send(a.qp, &wr, &bad), 0);
	/* Run until the CQE is written but not yet visible. */
	struct ibfs_hca_cq *hcq = (struct ibfs_hca_cq *)a.scq;
	while (!hcq->count)
		ibfs__direct_exec_advance(&P.dx, P.f->eq.now + IBFS_NS);
	struct ibfs_wc wc;
	ck_assert_int_eq(ibfs_poll_cq(a.scq, 1, &wc), 0);
	ck_assert_uint_eq(hcq->notify_pending, 1);
	/* Destroyed with its notify event pending: freed by that event. */
	ck_assert_int_eq(ibfs_destroy_cq(a.scq), 0);
	ibfs__direct_exec_drain(&P.dx);
	ck_assert_int_eq(notified, 0);
	teardown();
	free(a.buf);
	free(b.buf);
}
END_TEST

static Suite *qp_suite(void)
{
	Suite *s = suite_create("qp");
	TCase *tc = tcase_create("qp");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, rc_state_walk_and_query);
	tcase_add_test(tc, bad_transitions_and_attributes);
	tcase_add_test(tc, create_qp_checks);
	tcase_add_test(tc, post_checks);
	tcase_add_test(tc, opcode_per_qp_type);
	tcase_add_test(tc, memory_registration);
	tcase_add_test(tc, query_device);
	tcase_add_test(tc, names_and_port);
	tcase_add_test(tc, destroy_cq_with_pending_notify);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(qp_suite)
