/* SPDX-License-Identifier: MIT */
/*
 * Shared receive queues (IBA 10.2.9.5, verbs' ibv_create_srq) on the
 * back-to-back pair of check_hca.c (hca_fixture.h: ideal profile, 80 ps a
 * byte, 10 ns of cable). HCA b has one SRQ and two RC QPs using it, each
 * connected to a QP of its own on HCA a. A receiver takes a WQE from the
 * SRQ when a message's first packet arrives, so two SENDs arriving
 * packet by packet, interleaved, each land whole in their own WQE's
 * buffer.
 */
#include "check_common.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hca/hca_int.h"
#include "hca/pair.h"
#include "ibfsim/verbs.h"

#include "hca_fixture.h"

/* a's two QPs (A and a2) and b's two (b1, b2), all RC; b's share srq. */
static struct side A2;
static struct ibfs_srq *srq;
static struct ibfs_qp *b1, *b2;
static struct ibfs_cq *brcq, *bscq;
static uint8_t *bbuf;
static struct ibfs_mr *bmr;

static struct ibfs_qp *srq_qp(struct ibfs_pd *pd, enum ibfs_qp_type t)
{
	struct ibfs_qp_init_attr ia = {
		.send_cq = bscq, .recv_cq = brcq, .srq = srq, .qp_type = t,
		.cap = {.max_send_wr = 8, .max_send_sge = 1},
	};
	struct ibfs_qp *qp = ibfs_create_qp(pd, &ia);
	ck_assert_ptr_nonnull(qp);
	return qp;
}

/* b's PD, CQs, an SRQ of 4 WQEs and a registered buffer; returns the PD. */
static struct ibfs_pd *srq_open_b(void)
{
	struct ibfs_context *ctx = ibfs__hca_context(P.h[1]);
	struct ibfs_pd *pd = ibfs_alloc_pd(ctx);
	brcq = ibfs_create_cq(ctx, 64, NULL, NULL, 0);
	bscq = ibfs_create_cq(ctx, 64, NULL, NULL, 0);
	struct ibfs_srq_init_attr sa = {.attr = {.max_wr = 4, .max_sge = 1}};
	srq = ibfs_create_srq(pd, &sa);
	ck_assert_ptr_nonnull(srq);
	bbuf = calloc(1, BUFSZ);
	bmr = ibfs_reg_mr(pd, bbuf, BUFSZ, IBFS_ACCESS_LOCAL_WRITE);
	ck_assert_ptr_nonnull(bmr);
	return pd;
}

/* Connects b's QP q to a's end s (both ways), as pair.c does. */
static void srq_connect(struct ibfs_qp *q, struct side *s,
			const struct conn *c)
{
	struct side e = {.qp = q, .port = 1};
	qp_connect(&e, 1, s->qp->qp_num, c);
	qp_connect(s, 2, q->qp_num, c);
}

static void srq_setup(uint32_t mtu, const struct conn *c)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .mtu = mtu,
					.data_mode = 1};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	side_open(&A, P.h[0], IBFS_QPT_RC);
	side_open(&A2, P.h[0], IBFS_QPT_RC);
	struct ibfs_pd *pd = srq_open_b();
	b1 = srq_qp(pd, IBFS_QPT_RC);
	b2 = srq_qp(pd, IBFS_QPT_RC);
	srq_connect(b1, &A, c);
	srq_connect(b2, &A2, c);
	for (int i = 0; i < BUFSZ; i++) {
		A.buf[i] = (uint8_t)(i * 7 + 3);
		A2.buf[i] = (uint8_t)(i * 11 + 5);
	}
}

static void srq_teardown(void)
{
	ibfs__hca_pair_free(&P);
	free(A2.buf);
	free(bbuf);
	memset(&A2, 0, sizeof(A2));
	free(A.buf);
	memset(&A, 0, sizeof(A));
}

static void srq_post(uint64_t id, uint32_t off, uint32_t len)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)(bbuf + off),
			      .length = len, .lkey = bmr->lkey};
	struct ibfs_recv_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *bad = NULL;
	ck_assert_int_eq(ibfs_post_srq_recv(srq, &wr, &bad), 0);
	ck_assert_ptr_null(bad);
}

START_TEST(srq_two_qps_interleaved_sends)
{
	struct conn c = CONN_DEFAULT;
	c.mtu = IBFS_MTU_1024;
	srq_setup(1024, &c);
	srq_post(1, 0, 4096);
	srq_post(2, 4096, 4096);
	/* Two SENDs of 3000 B (1024 + 1024 + 952) from a's two QPs: a's
	 * port takes its QPs in turn, so b receives First of A's, First of
	 * A2's, then their Middles and Lasts, interleaved. */
	post_send(&A, 7, IBFS_WR_SEND, 0, 3000, 0, 0, IBFS_SEND_SIGNALED);
	post_send(&A2, 8, IBFS_WR_SEND, 0, 3000, 0, 0, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc[2];
	wait1(brcq, &wc[0]);
	wait1(brcq, &wc[1]);
	/* A's First came first: b1 took WQE 1, b2 WQE 2. */
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(wc[k].status, IBFS_WC_SUCCESS);
		ck_assert_uint_eq(wc[k].byte_len, 3000);
		ck_assert_uint_eq(wc[k].qp_num, k ? b2->qp_num : b1->qp_num);
		ck_assert_uint_eq(wc[k].wr_id, (uint64_t)k + 1);
	}
	ck_assert_mem_eq(bbuf, A.buf, 3000);
	ck_assert_mem_eq(bbuf + 4096, A2.buf, 3000);
	srq_teardown();
}
END_TEST

START_TEST(srq_empty_is_rnr)
{
	/* min_rnr_timer 1: 0.01 ms (IBA Table 45); rnr_retry 7: forever. */
	srq_setup(4096, &CONN_DEFAULT);
	post_send(&A, 1, IBFS_WR_SEND, 0, 100, 0, 0, IBFS_SEND_SIGNALED);
	ibfs__direct_exec_advance(&P.dx, 5 * IBFS_US);
	struct ibfs_wc wc;
	ck_assert_int_eq(ibfs_poll_cq(brcq, 1, &wc), 0);
	srq_post(9, 0, 100);
	wait1(brcq, &wc);
	ck_assert_uint_eq(wc.wr_id, 9);
	ck_assert_uint_eq(wc.qp_num, b1->qp_num);
	/* The SEND came back after the RNR NAK's 10 us, not at once. */
	ck_assert_uint_ge(now(), 10 * IBFS_US);
	ck_assert_mem_eq(bbuf, A.buf, 100);
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	srq_teardown();
}
END_TEST

START_TEST(srq_rnr_retries_exhausted)
{
	struct conn c = CONN_DEFAULT;
	c.rnr_retry = 0;
	srq_setup(4096, &c);
	post_send(&A, 1, IBFS_WR_SEND, 0, 100, 0, 0, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_RNR_RETRY_EXC_ERR);
	srq_teardown();
}
END_TEST

START_TEST(srq_wqes_outlive_a_qp_in_error)
{
	srq_setup(4096, &CONN_DEFAULT);
	srq_post(1, 0, 200);
	srq_post(2, 200, 200);
	/* b1 enters the error state: the SRQ's WQEs are not b1's to flush
	 * (its receive CQ gets nothing), and b2 still takes them. */
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_ERR};
	ck_assert_int_eq(ibfs_modify_qp(b1, &a, IBFS_QP_STATE), 0);
	ibfs__direct_exec_drain(&P.dx);
	struct ibfs_wc wc;
	ck_assert_int_eq(ibfs_poll_cq(brcq, 1, &wc), 0);
	post_send(&A2, 1, IBFS_WR_SEND, 0, 150, 0, 0, IBFS_SEND_SIGNALED);
	wait1(brcq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(wc.qp_num, b2->qp_num);
	ck_assert_uint_eq(wc.wr_id, 1);
	ck_assert_mem_eq(bbuf, A2.buf, 150);
	srq_teardown();
}
END_TEST

START_TEST(srq_verbs_errors)
{
	srq_setup(4096, &CONN_DEFAULT);
	struct ibfs_srq_attr at;
	ck_assert_int_eq(ibfs_query_srq(srq, &at), 0);
	ck_assert_uint_eq(at.max_wr, 4);
	ck_assert_uint_eq(at.max_sge, 1);
	ck_assert_int_eq(ibfs_query_srq(NULL, &at), EINVAL);
	/* max_wr WQEs at most; the fifth is refused with bad_wr on it. */
	for (int i = 0; i < 4; i++)
		srq_post((uint64_t)i, 0, 16);
	struct ibfs_sge sg[2] = {{.addr = (uint64_t)(uintptr_t)bbuf,
				  .length = 8, .lkey = bmr->lkey},
				 {.addr = (uint64_t)(uintptr_t)bbuf,
				  .length = 8, .lkey = bmr->lkey}};
	struct ibfs_recv_wr wr = {.wr_id = 5, .sg_list = sg, .num_sge = 1};
	struct ibfs_recv_wr *bad = NULL;
	ck_assert_int_eq(ibfs_post_srq_recv(srq, &wr, &bad), ENOMEM);
	ck_assert_ptr_eq(bad, &wr);
	wr.num_sge = 2; /* more than max_sge */
	ck_assert_int_eq(ibfs_post_srq_recv(srq, &wr, &bad), EINVAL);
	ck_assert_int_eq(ibfs_post_srq_recv(NULL, &wr, &bad), EINVAL);
	/* A QP with an SRQ has no receive queue of its own. */
	wr.num_sge = 1;
	ck_assert_int_eq(ibfs_post_recv(b1, &wr, &bad), EINVAL);
	/* Bad attributes. */
	struct ibfs_srq_init_attr sa = {.attr = {.max_wr = 0, .max_sge = 1}};
	errno = 0;
	ck_assert_ptr_null(ibfs_create_srq(b1->pd, &sa));
	ck_assert_int_eq(errno, EINVAL);
	sa.attr = (struct ibfs_srq_attr){.max_wr = 4, .max_sge = 5};
	ck_assert_ptr_null(ibfs_create_srq(b1->pd, &sa));
	sa.attr = (struct ibfs_srq_attr){.max_wr = 4, .max_sge = 1,
					 .srq_limit = 5};
	ck_assert_ptr_null(ibfs_create_srq(b1->pd, &sa));
	ck_assert_ptr_null(ibfs_create_srq(NULL, &sa));
	/* In use: the SRQ by its QPs, the PD by the SRQ. */
	ck_assert_int_eq(ibfs_destroy_srq(srq), EBUSY);
	struct ibfs_pd *pd = b1->pd;
	ck_assert_int_eq(ibfs_destroy_qp(b1), 0);
	ck_assert_int_eq(ibfs_destroy_srq(srq), EBUSY);
	ck_assert_int_eq(ibfs_destroy_qp(b2), 0);
	ck_assert_int_eq(ibfs_dereg_mr(bmr), 0);
	ck_assert_int_eq(ibfs_dealloc_pd(pd), EBUSY);
	ck_assert_int_eq(ibfs_destroy_srq(srq), 0);
	ck_assert_int_eq(ibfs_dealloc_pd(pd), 0);
	ck_assert_int_eq(ibfs_destroy_srq(NULL), EINVAL);
	srq_teardown();
}
END_TEST

START_TEST(srq_ud_receives)
{
	/* A UD QP with an SRQ: the payload lands after the 40 bytes of
	 * GRH space of its WQE's buffer. */
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	side_open(&A, P.h[0], IBFS_QPT_UD);
	b1 = srq_qp(srq_open_b(), IBFS_QPT_UD);
	struct ibfs_qp *q[2] = {A.qp, b1};
	for (int i = 0; i < 2; i++) {
		struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT,
					 .port_num = 1, .qkey = 0x77};
		ck_assert_int_eq(ibfs_modify_qp(q[i], &a, IBFS_QP_STATE |
				IBFS_QP_PKEY_INDEX | IBFS_QP_PORT |
				IBFS_QP_QKEY), 0);
		a.qp_state = IBFS_QPS_RTR;
		ck_assert_int_eq(ibfs_modify_qp(q[i], &a, IBFS_QP_STATE), 0);
		a.qp_state = IBFS_QPS_RTS;
		ck_assert_int_eq(ibfs_modify_qp(q[i], &a, IBFS_QP_STATE |
				IBFS_QP_SQ_PSN), 0);
	}
	for (int i = 0; i < BUFSZ; i++)
		A.buf[i] = (uint8_t)(i * 3 + 2);
	srq_post(4, 1000, 40 + 500);
	struct ibfs_ah_attr aa = {.dlid = 2, .port_num = 1};
	struct ibfs_ah *ah = ibfs_create_ah(A.pd, &aa);
	struct ibfs_sge sg = {.addr = raddr(&A, 0), .length = 500,
			      .lkey = A.mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = 1, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_SEND};
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = b1->qp_num;
	wr.wr.ud.remote_qkey = 0x77;
	struct ibfs_send_wr *bad;
	ck_assert_int_eq(ibfs_post_send(A.qp, &wr, &bad), 0);
	struct ibfs_wc wc;
	wait1(brcq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(wc.wr_id, 4);
	ck_assert_uint_eq(wc.byte_len, 540);
	ck_assert_uint_eq(wc.src_qp, A.qp->qp_num);
	ck_assert_mem_eq(bbuf + 1040, A.buf, 500);
	srq_teardown();
}
END_TEST

START_TEST(uc_gap_keeps_the_wqe_for_the_next_send)
{
	/* UC without an SRQ: a SEND that loses its Middle packet is lost;
	 * the WQE it had taken at its First serves the next SEND. */
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1,
					.mtu = 1024};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	side_open(&A, P.h[0], IBFS_QPT_UC);
	side_open(&B, P.h[1], IBFS_QPT_UC);
	struct conn c = CONN_DEFAULT;
	c.mtu = IBFS_MTU_1024;
	qp_connect(&A, 2, B.qp->qp_num, &c);
	qp_connect(&B, 1, A.qp->qp_num, &c);
	for (int i = 0; i < BUFSZ; i++)
		A.buf[i] = (uint8_t)(i + 9);
	post_recv(&B, 1, 0, 4000);
	post_recv(&B, 2, 4000, 4000);
	post_send(&A, 1, IBFS_WR_SEND, 0, 3000, 0, 0, IBFS_SEND_SIGNALED);
	post_send(&A, 2, IBFS_WR_SEND, 3000, 3000, 0, 0, IBFS_SEND_SIGNALED);
	/* The First has arrived (1024 B + headers, then 10 ns); drop the
	 * next packet b receives, the Middle. */
	ibfs__direct_exec_advance(&P.dx, ser(wire(0, 1024)) + PROP + 1);
	P.h[1]->drop_next_rx = 1;
	struct ibfs_wc wc;
	wait1(B.rcq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(wc.wr_id, 1);
	ck_assert_uint_eq(wc.byte_len, 3000);
	ck_assert_mem_eq(B.buf, A.buf + 3000, 3000);
	ibfs__direct_exec_drain(&P.dx);
	ck_assert_int_eq(ibfs_poll_cq(B.rcq, 1, &wc), 0);
	/* In the error state, the WQE left is flushed. */
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_ERR};
	ck_assert_int_eq(ibfs_modify_qp(B.qp, &a, IBFS_QP_STATE), 0);
	wait1(B.rcq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_WR_FLUSH_ERR);
	ck_assert_uint_eq(wc.wr_id, 2);
	ck_assert_int_eq(ibfs_poll_cq(B.rcq, 1, &wc), 0);
	teardown();
}
END_TEST

static Suite *hca_srq_suite(void)
{
	Suite *s = suite_create("hca_srq");
	TCase *tc = tcase_create("srq");
	tcase_add_test(tc, srq_two_qps_interleaved_sends);
	tcase_add_test(tc, srq_empty_is_rnr);
	tcase_add_test(tc, srq_rnr_retries_exhausted);
	tcase_add_test(tc, srq_wqes_outlive_a_qp_in_error);
	tcase_add_test(tc, srq_verbs_errors);
	tcase_add_test(tc, srq_ud_receives);
	tcase_add_test(tc, uc_gap_keeps_the_wqe_for_the_next_send);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(hca_srq_suite)
