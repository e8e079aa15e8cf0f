/* SPDX-License-Identifier: MIT */
/*
 * The fixture shared by check_hca.c and check_hca_errors.c: two HCAs back
 * to back with the ideal profile (src/hca/pair.h), one RC connection, the
 * closed-form link figures (4x EDR: 80 ps a byte; 2 m: 10 ns) and helpers
 * to post and wait. Each test program has its own copy of the state.
 */
#ifndef IBFS_TESTS_HCA_FIXTURE_H
#define IBFS_TESTS_HCA_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "hca/pair.h"
#include "ibfsim/verbs.h"

#define PROP (10 * IBFS_NS)
#define FCP 6
#define ACK_BYTES (8 + 12 + 4 + 4 + 2)
#define BUFSZ 16384

static inline ibfs_time_t ser(uint64_t bytes)
{
	return bytes * 80; /* 100 Gb/s: 80 ps a byte */
}

/* Wire bytes of a transport packet with `ext` header bytes and a payload. */
static inline uint64_t wire(uint32_t ext, uint32_t payload)
{
	return 8 + 12 + ext + payload + ((4 - (payload & 3)) & 3) + 4 + 2;
}

/* One end of a connection: PD, CQs, a 16 KiB buffer, a QP (pair.h). */
#define side ibfs_hca_end

static struct ibfs_hca_pair P;
static struct side A, B;

static inline void side_open(struct side *s, struct ibfs_hca *h,
		      enum ibfs_qp_type type)
{
	struct ibfs_qp_cap cap = {.max_send_wr = 64, .max_recv_wr = 64,
				  .max_send_sge = 2, .max_recv_sge = 2,
				  .max_inline_data = 64};
	ck_assert_int_eq(ibfs__hca_end_open(s, h, type, BUFSZ, &cap, 256), 0);
}

#define conn ibfs_hca_conn

static inline void qp_connect(struct side *s, uint16_t dlid, uint32_t dqpn,
		       const struct conn *c)
{
	ck_assert_int_eq(ibfs__hca_end_connect(s, dlid, dqpn, c), 0);
}

static const struct conn CONN_DEFAULT = {
	.mtu = IBFS_MTU_4096, .timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
	.min_rnr_timer = 1, .rd_atomic = 4, .psn = 100,
};

static inline void setup_rc_cfg(int data_mode, uint32_t mtu, const struct conn *c)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .mtu = mtu,
					.data_mode = data_mode};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	side_open(&A, P.h[0], IBFS_QPT_RC);
	side_open(&B, P.h[1], IBFS_QPT_RC);
	qp_connect(&A, 2, B.qp->qp_num, c);
	qp_connect(&B, 1, A.qp->qp_num, c);
	for (int i = 0; i < BUFSZ; i++)
		A.buf[i] = (uint8_t)(i * 7 + 3);
}

static inline void setup_rc(void)
{
	setup_rc_cfg(1, 4096, &CONN_DEFAULT);
}

/*
 * UD QPs at both ends, in RTS, path MTU 2048, real bytes: A's Q_Key
 * 0x1111, B's qkey_b; A's buffer patterned.
 */
static inline void setup_ud(uint32_t qkey_b)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1,
					.mtu = 2048};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	side_open(&A, P.h[0], IBFS_QPT_UD);
	side_open(&B, P.h[1], IBFS_QPT_UD);
	struct side *s[2] = {&A, &B};
	for (int i = 0; i < 2; i++) {
		struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT,
					 .port_num = 1,
					 .qkey = i ? qkey_b : 0x1111};
		ck_assert_int_eq(ibfs_modify_qp(s[i]->qp, &a, IBFS_QP_STATE |
				IBFS_QP_PKEY_INDEX | IBFS_QP_PORT |
				IBFS_QP_QKEY), 0);
		a.qp_state = IBFS_QPS_RTR;
		ck_assert_int_eq(ibfs_modify_qp(s[i]->qp, &a, IBFS_QP_STATE),
				 0);
		a.qp_state = IBFS_QPS_RTS;
		a.sq_psn = 0;
		ck_assert_int_eq(ibfs_modify_qp(s[i]->qp, &a, IBFS_QP_STATE |
				IBFS_QP_SQ_PSN), 0);
	}
	for (int i = 0; i < BUFSZ; i++)
		A.buf[i] = (uint8_t)(i * 13 + 1);
}

static inline void post_send(struct side *s, uint64_t id, enum ibfs_wr_opcode op,
		      uint32_t off, uint32_t len, uint64_t raddr,
		      uint32_t rkey, unsigned flags)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)(s->buf + off),
			      .length = len, .lkey = s->mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1,
				  .opcode = op, .send_flags = flags,
				  .imm_data = 0xabcd0000u + (uint32_t)id};
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	struct ibfs_send_wr *bad = NULL;
	ck_assert_int_eq(ibfs_post_send(s->qp, &wr, &bad), 0);
	ck_assert_ptr_null(bad);
}

/* A signaled atomic of 8 bytes from s at off into remote raddr/rkey. */
static inline void post_atomic(struct side *s, uint64_t id,
			       enum ibfs_wr_opcode op, uint32_t off,
			       uint64_t raddr, uint32_t rkey,
			       uint64_t compare_add, uint64_t swap)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)(s->buf + off),
			      .length = 8, .lkey = s->mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1,
				  .opcode = op,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.atomic.remote_addr = raddr;
	wr.wr.atomic.rkey = rkey;
	wr.wr.atomic.compare_add = compare_add;
	wr.wr.atomic.swap = swap;
	struct ibfs_send_wr *bad = NULL;
	ck_assert_int_eq(ibfs_post_send(s->qp, &wr, &bad), 0);
	ck_assert_ptr_null(bad);
}

static inline void post_recv(struct side *s, uint64_t id, uint32_t off,
		      uint32_t len)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)(s->buf + off),
			      .length = len, .lkey = s->mr->lkey};
	struct ibfs_recv_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *bad = NULL;
	ck_assert_int_eq(ibfs_post_recv(s->qp, &wr, &bad), 0);
}

static inline uint64_t raddr(struct side *s, uint32_t off)
{
	return (uint64_t)(uintptr_t)(s->buf + off);
}

static inline void wait1(struct ibfs_cq *cq, struct ibfs_wc *wc)
{
	ck_assert_int_eq(ibfs_wait_cq(cq, 1, wc), 1);
}

static inline ibfs_time_t now(void)
{
	return P.f->eq.now;
}

static inline void teardown(void)
{
	/* Freeing the HCAs frees their PDs, CQs, QPs and MRs; the buffers
	 * are the test's. */
	ibfs__hca_pair_free(&P);
	free(A.buf);
	free(B.buf);
	memset(&A, 0, sizeof(A));
	memset(&B, 0, sizeof(B));
}

#endif
