/* SPDX-License-Identifier: MIT */
/*
 * Partitions at the HCA (IBA 10.9), on the back-to-back pair of
 * hca_fixture.h: which pkey_index a QP may take, the P_Key its packets
 * carry, and the receiver's check (IBA 10.9.3): a packet whose P_Key does
 * not match the receiving QP's is dropped silently and counted in the
 * port's P_KeyViolations, so that an RC requester retries until it gives
 * up, and two limited members cannot talk. The tables are written as
 * the subnet management agent writes them (fabric/pkey.h).
 */
#include "check_common.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/pkey.h"
#include "hca/hca_int.h"
#include "hca/pair.h"
#include "ibfsim/verbs.h"

#include "hca_fixture.h"

static void set_pkey(struct ibfs_hca *h, unsigned i, uint16_t pkey)
{
	ck_assert_int_eq(ibfs__port_pkey_set(h->hp[1].port, i, pkey), 0);
}

static void pair_new(void)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
}

/* RC (or UC) QPs on A's and B's P_Key indices ia and ib, retry_cnt r. */
static void connect_rc(enum ibfs_qp_type t, uint16_t ia, uint16_t ib, int r)
{
	struct conn c = CONN_DEFAULT;
	c.retry_cnt = (uint8_t)r;
	c.timeout = 1; /* 8.192 us */
	side_open(&A, P.h[0], t);
	side_open(&B, P.h[1], t);
	A.pkey_index = ia;
	B.pkey_index = ib;
	qp_connect(&A, 2, B.qp->qp_num, &c);
	qp_connect(&B, 1, A.qp->qp_num, &c);
	for (int i = 0; i < BUFSZ; i++)
		A.buf[i] = (uint8_t)(i * 13 + 5);
}

static uint64_t violations(struct ibfs_hca *h)
{
	return h->hp[1].port->pkey_violations;
}

START_TEST(pkey_index_must_name_a_valid_entry)
{
	pair_new();
	struct ibfs_context *ctx = ibfs__hca_context(P.h[0]);
	struct ibfs_port_attr pa;
	ck_assert_int_eq(ibfs_query_port(ctx, 1, &pa), 0);
	ck_assert_int_eq(pa.pkey_tbl_len, IBFS_HCA_PKEYS);
	uint16_t k = 1;
	/* Power-up table: 0xFFFF at index 0, nothing else. */
	ck_assert_int_eq(ibfs_query_pkey(ctx, 1, 0, &k), 0);
	ck_assert_uint_eq(k, 0xffff);
	ck_assert_int_eq(ibfs_query_pkey(ctx, 1, 127, &k), 0);
	ck_assert_uint_eq(k, 0);
	ck_assert_int_eq(ibfs_query_pkey(ctx, 1, 128, &k), EINVAL);
	ck_assert_int_eq(ibfs_query_pkey(ctx, 1, -1, &k), EINVAL);
	ck_assert_int_eq(ibfs_query_pkey(ctx, 2, 0, &k), EINVAL);
	ck_assert_int_eq(ibfs_query_pkey(NULL, 1, 0, &k), EINVAL);
	ck_assert_int_eq(ibfs_get_pkey_index(ctx, 1, 0xffff), 0);
	ck_assert_int_eq(ibfs_get_pkey_index(ctx, 1, 0x8001), -1);
	set_pkey(P.h[0], 5, 0x8001);
	set_pkey(P.h[0], 7, 0x8000); /* the invalid P_Key */
	ck_assert_int_eq(ibfs_get_pkey_index(ctx, 1, 0x8001), 5);
	ck_assert_int_eq(ibfs_get_pkey_index(ctx, 1, 0x0001), -1);
	ck_assert_int_eq(ibfs_get_pkey_index(ctx, 1, 0x8000), -1);
	ck_assert_int_eq(ibfs__port_pkey_set(P.h[0]->hp[1].port, 128, 1), -1);

	side_open(&A, P.h[0], IBFS_QPT_RC);
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT, .port_num = 1};
	int mask = IBFS_QP_STATE | IBFS_QP_PKEY_INDEX | IBFS_QP_PORT |
		   IBFS_QP_ACCESS_FLAGS;
	const uint16_t bad[] = {1, 7, 127, 128, 0xffff};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		a.pkey_index = bad[i];
		ck_assert_int_eq(ibfs_modify_qp(A.qp, &a, mask), EINVAL);
	}
	a.pkey_index = 5;
	ck_assert_int_eq(ibfs_modify_qp(A.qp, &a, mask), 0);
	struct ibfs_qp_attr q;
	struct ibfs_qp_init_attr qi;
	ck_assert_int_eq(ibfs_query_qp(A.qp, &q, IBFS_QP_PKEY_INDEX, &qi), 0);
	ck_assert_int_eq(q.pkey_index, 5);
	/* INIT to INIT may change it, to a valid entry only. */
	a.pkey_index = 1;
	ck_assert_int_eq(ibfs_modify_qp(A.qp, &a, IBFS_QP_STATE |
					IBFS_QP_PKEY_INDEX), EINVAL);
	a.pkey_index = 0;
	ck_assert_int_eq(ibfs_modify_qp(A.qp, &a, IBFS_QP_STATE |
					IBFS_QP_PKEY_INDEX), 0);
	teardown();
}
END_TEST

/*
 * B lacks A's partition: every try of A's WRITE is dropped at B and
 * counted, and A completes with RETRY_EXC_ERR after retry_cnt + 1 tries.
 */
static void retry_exceeded(int retries)
{
	pair_new();
	set_pkey(P.h[0], 1, 0x8001);
	set_pkey(P.h[1], 1, 0x8002);
	connect_rc(IBFS_QPT_RC, 1, 1, retries);
	post_send(&A, 9, IBFS_WR_RDMA_WRITE, 0, 100, raddr(&B, 0), B.mr->rkey,
		  IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_RETRY_EXC_ERR);
	ck_assert_uint_eq(wc.wr_id, 9);
	ck_assert_uint_eq(violations(P.h[1]), (uint64_t)retries + 1);
	ck_assert_uint_eq(violations(P.h[0]), 0);
	ck_assert_uint_eq(P.h[0]->st.retransmits, (uint64_t)retries);
	/* Each timeout sent the one packet again; each try was dropped for
	 * its P_Key. */
	ck_assert_uint_eq(P.h[0]->st.retransmitted, (uint64_t)retries);
	ck_assert_uint_eq(P.f->drops[IBFS_DROP_PKEY], (uint64_t)retries + 1);
	ck_assert_uint_eq(P.f->pkts_dropped, (uint64_t)retries + 1);
	ck_assert_uint_eq(B.buf[0], 0);
	teardown();
}

START_TEST(rc_foreign_partition_exhausts_retries)
{
	retry_exceeded(0);
	retry_exceeded(3);
	retry_exceeded(7);
}
END_TEST

START_TEST(limited_members_cannot_talk)
{
	pair_new();
	set_pkey(P.h[0], 2, 0x0001);
	set_pkey(P.h[1], 3, 0x0001);
	connect_rc(IBFS_QPT_RC, 2, 3, 2);
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 64, raddr(&B, 0), B.mr->rkey,
		  IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_RETRY_EXC_ERR);
	ck_assert_uint_eq(violations(P.h[1]), 3);
	teardown();

	/* A limited member and a full one: the WRITE and its ACK pass. */
	pair_new();
	set_pkey(P.h[0], 2, 0x0001);
	set_pkey(P.h[1], 3, 0x8001);
	connect_rc(IBFS_QPT_RC, 2, 3, 2);
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 64, raddr(&B, 0), B.mr->rkey,
		  IBFS_SEND_SIGNALED);
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(violations(P.h[0]) + violations(P.h[1]), 0);
	ck_assert_mem_eq(B.buf, A.buf, 64);
	teardown();
}
END_TEST

/*
 * Data over a partition other than the default, on different indices at
 * the two ends, byte for byte; then the SM takes the partition from B's
 * table (the entry goes invalid) and the next WRITE is dropped there.
 */
START_TEST(data_over_a_partition_byte_for_byte)
{
	pair_new();
	set_pkey(P.h[0], 4, 0x8123);
	set_pkey(P.h[1], 9, 0x0123);
	connect_rc(IBFS_QPT_RC, 4, 9, 1);
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, BUFSZ, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_mem_eq(B.buf, A.buf, BUFSZ);
	ck_assert_uint_eq(violations(P.h[0]) + violations(P.h[1]), 0);
	set_pkey(P.h[1], 9, 0);
	post_send(&A, 2, IBFS_WR_RDMA_WRITE, 0, 8, raddr(&B, 0), B.mr->rkey,
		  IBFS_SEND_SIGNALED);
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_RETRY_EXC_ERR);
	ck_assert_uint_eq(violations(P.h[1]), 2);
	teardown();
}
END_TEST

/* UC: nothing retries; the dropped packet is counted once. */
START_TEST(uc_drop_is_silent)
{
	pair_new();
	set_pkey(P.h[0], 1, 0x8001);
	connect_rc(IBFS_QPT_UC, 1, 0, 0);
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 64, raddr(&B, 0), B.mr->rkey,
		  IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS); /* it left */
	ibfs__eq_run(&P.f->eq, IBFS_TIME_NEVER);
	ck_assert_uint_eq(violations(P.h[1]), 1);
	ck_assert_uint_eq(B.buf[0], 0);
	teardown();
}
END_TEST

/* UD: checked against the receiving QP's own P_Key. */
static void ud_send(uint16_t ia, uint16_t ib)
{
	side_open(&A, P.h[0], IBFS_QPT_UD);
	side_open(&B, P.h[1], IBFS_QPT_UD);
	A.pkey_index = ia;
	B.pkey_index = ib;
	ck_assert_int_eq(ibfs__hca_end_connect_ud(&A, 0x11), 0);
	ck_assert_int_eq(ibfs__hca_end_connect_ud(&B, 0x11), 0);
	post_recv(&B, 7, 0, 1024);
	struct ibfs_ah_attr aa = {.dlid = 2, .port_num = 1};
	struct ibfs_ah *ah = ibfs_create_ah(A.pd, &aa);
	ck_assert_ptr_nonnull(ah);
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)A.buf,
			      .length = 100, .lkey = A.mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = 1, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_SEND,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = B.qp->qp_num;
	wr.wr.ud.remote_qkey = 0x11;
	struct ibfs_send_wr *bad = NULL;
	ck_assert_int_eq(ibfs_post_send(A.qp, &wr, &bad), 0);
	ibfs__eq_run(&P.f->eq, IBFS_TIME_NEVER);
}

START_TEST(ud_foreign_partition_dropped)
{
	pair_new();
	set_pkey(P.h[0], 1, 0x8005);
	set_pkey(P.h[1], 1, 0x8006);
	set_pkey(P.h[1], 2, 0x8005);
	ud_send(1, 1);
	struct ibfs_wc wc;
	ck_assert_int_eq(ibfs_poll_cq(B.rcq, 1, &wc), 0);
	ck_assert_uint_eq(violations(P.h[1]), 1);
	teardown();

	/* The same send to a QP on the index that holds 0x8005. */
	pair_new();
	set_pkey(P.h[0], 1, 0x8005);
	set_pkey(P.h[1], 1, 0x8006);
	set_pkey(P.h[1], 2, 0x8005);
	ud_send(1, 2);
	ck_assert_int_eq(ibfs_poll_cq(B.rcq, 1, &wc), 1);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(wc.byte_len, 100 + 40);
	ck_assert_uint_eq(violations(P.h[1]), 0);
	teardown();
}
END_TEST

static Suite *hca_pkey_suite(void)
{
	Suite *s = suite_create("hca_pkey");
	TCase *tc = tcase_create("pkey");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, pkey_index_must_name_a_valid_entry);
	tcase_add_test(tc, rc_foreign_partition_exhausts_retries);
	tcase_add_test(tc, limited_members_cannot_talk);
	tcase_add_test(tc, data_over_a_partition_byte_for_byte);
	tcase_add_test(tc, uc_drop_is_silent);
	tcase_add_test(tc, ud_foreign_partition_dropped);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(hca_pkey_suite)
