/* SPDX-License-Identifier: MIT */
/*
 * The HCA transport through one switch (a star of three HCAs), ideal HCA
 * profile. The switch cuts through: a packet's header reaches the switch
 * ser(LRH) + P after it starts, leaves L (routing latency, 100 ns) later
 * and its tail arrives ser(wire) + P after that; 4x EDR is 80 ps a byte,
 * P = 10 ns for 2 m (see check_switch.c for the switch alone).
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>

#include "hca/direct_exec.h"
#include "hca/hca.h"
#include "switch/switch.h"

#include "hca_star.h"

#define P (10 * IBFS_NS)
#define L (100 * IBFS_NS)

static ibfs_time_t ser(uint64_t bytes)
{
	return bytes * 80;
}

static struct hca_star S;

struct end {
	struct ibfs_context *ctx;
	struct ibfs_pd *pd;
	struct ibfs_cq *cq;
	struct ibfs_qp *qp;
	struct ibfs_mr *mr;
	uint8_t buf[65536];
};

static struct end E[4];

static void star_make(void)
{
	hca_star_make(&S, 3, L);
}

static void star_free(void)
{
	hca_star_free(&S);
}

static void end_open(struct end *e, struct ibfs_hca *h)
{
	e->ctx = ibfs__hca_context(h);
	e->pd = ibfs_alloc_pd(e->ctx);
	e->cq = ibfs_create_cq(e->ctx, 512, NULL, NULL, 0);
	e->mr = ibfs_reg_mr(e->pd, e->buf, sizeof(e->buf), 0xf);
	struct ibfs_qp_init_attr ia = {
		.send_cq = e->cq, .recv_cq = e->cq, .qp_type = IBFS_QPT_RC,
		.cap = {.max_send_wr = 64, .max_recv_wr = 64,
			.max_send_sge = 1, .max_recv_sge = 1},
	};
	e->qp = ibfs_create_qp(e->pd, &ia);
	ck_assert_ptr_nonnull(e->qp);
}

static void end_connect(struct end *e, uint16_t dlid, uint32_t dqpn)
{
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT, .port_num = 1,
				 .qp_access_flags = 0xe};
	ck_assert_int_eq(ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE |
				IBFS_QP_PKEY_INDEX | IBFS_QP_PORT |
				IBFS_QP_ACCESS_FLAGS), 0);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBFS_QPS_RTR;
	a.path_mtu = IBFS_MTU_2048;
	a.dest_qp_num = dqpn;
	a.max_dest_rd_atomic = 4;
	a.ah_attr.dlid = dlid;
	ck_assert_int_eq(ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE | IBFS_QP_AV |
				IBFS_QP_PATH_MTU | IBFS_QP_DEST_QPN |
				IBFS_QP_RQ_PSN | IBFS_QP_MAX_DEST_RD_ATOMIC |
				IBFS_QP_MIN_RNR_TIMER), 0);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBFS_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 4;
	ck_assert_int_eq(ibfs_modify_qp(e->qp, &a, IBFS_QP_STATE |
				IBFS_QP_SQ_PSN | IBFS_QP_TIMEOUT |
				IBFS_QP_RETRY_CNT | IBFS_QP_RNR_RETRY |
				IBFS_QP_MAX_QP_RD_ATOMIC), 0);
}

static void post(struct end *e, uint64_t id, enum ibfs_wr_opcode op,
		 uint32_t off, uint32_t len, struct end *peer, uint32_t roff)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)(e->buf + off),
			      .length = len, .lkey = e->mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1,
				  .opcode = op,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)(peer->buf + roff);
	wr.wr.rdma.rkey = peer->mr->rkey;
	struct ibfs_send_wr *bad;
	ck_assert_int_eq(ibfs_post_send(e->qp, &wr, &bad), 0);
}

START_TEST(write_through_switch_closed_form)
{
	star_make();
	end_open(&E[0], S.h[0]);
	end_open(&E[1], S.h[1]);
	end_connect(&E[0], 2, E[1].qp->qp_num);
	end_connect(&E[1], 1, E[0].qp->qp_num);
	for (int i = 0; i < 64; i++)
		E[0].buf[i] = (uint8_t)(200 - i);
	post(&E[0], 1, IBFS_WR_RDMA_WRITE, 0, 64, &E[1], 1000);
	struct ibfs_wc wc;
	ck_assert_int_eq(ibfs_wait_cq(E[0].cq, 1, &wc), 1);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	/* WRITE Only with RETH and 64 B: 106 wire bytes; B's FCP (6 B) then
	 * its ACK (30 B) back through the switch. The switch waits for the
	 * whole LRH, then for its latency, before it sends. */
	ibfs_time_t hop = ser(8) + P + L + P;
	ibfs_time_t t = hop + ser(106) + ser(6) + hop + ser(30);
	ck_assert_uint_eq(S.f->eq.now, t);
	ck_assert_mem_eq(E[1].buf + 1000, E[0].buf, 64);
	star_free();
}
END_TEST

START_TEST(two_senders_one_receiver)
{
	star_make();
	/* h0 -> h2 and h1 -> h2 on two QPs each side. */
	end_open(&E[0], S.h[0]);
	end_open(&E[1], S.h[1]);
	end_open(&E[2], S.h[2]);
	end_open(&E[3], S.h[2]);
	end_connect(&E[0], 3, E[2].qp->qp_num);
	end_connect(&E[2], 1, E[0].qp->qp_num);
	end_connect(&E[1], 3, E[3].qp->qp_num);
	end_connect(&E[3], 2, E[1].qp->qp_num);
	for (int i = 0; i < 65536; i++) {
		E[0].buf[i] = (uint8_t)(i * 3);
		E[1].buf[i] = (uint8_t)(i * 5 + 1);
	}
	for (int k = 0; k < 8; k++) {
		post(&E[0], k, IBFS_WR_RDMA_WRITE, 4000 * k, 4000, &E[2],
		     4000 * k);
		post(&E[1], k, IBFS_WR_RDMA_WRITE, 4000 * k, 4000, &E[3],
		     4000 * k);
	}
	struct ibfs_wc wc;
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < 8; k++) {
			ck_assert_int_eq(ibfs_wait_cq(E[s].cq, 1, &wc), 1);
			ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
			ck_assert_uint_eq(wc.wr_id, k);
		}
	ck_assert_mem_eq(E[2].buf, E[0].buf, 32000);
	ck_assert_mem_eq(E[3].buf, E[1].buf, 32000);
	/* 2 x 32000 B into one 100 Gb/s port: at least the wire time of
	 * their 2 x 16 packets of up to 2048 B. */
	ck_assert_uint_ge(S.f->eq.now, ser(2 * 32000));
	char msg[256];
	ibfs__direct_exec_drain(&S.dx);
	ck_assert_msg(ibfs__fabric_check(S.f, msg, sizeof(msg)) == 0, "%s",
		      msg);
	star_free();
}
END_TEST

static Suite *hca_switch_suite(void)
{
	Suite *s = suite_create("hca_switch");
	TCase *tc = tcase_create("switch");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, write_through_switch_closed_form);
	tcase_add_test(tc, two_senders_one_receiver);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(hca_switch_suite)
