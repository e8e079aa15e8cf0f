/* SPDX-License-Identifier: MIT */
/*
 * Two HCAs as RoCEv2 RNICs back to back (check_roce_link.c,
 * check_roce_irn.c): the `ideal` profile (no HCA delays), one Ethernet
 * link of 100 Gb/s (the 4x EDR data rate: n bytes take n x 80 ps) and
 * 2 m (10 ns), under a test flow ops that never pauses and, when asked,
 * drops every Nth frame that reaches a port (as a lossy switch's full
 * buffer would); and a run of WRITEs, SENDs and READs under such drops
 * whose completions and bytes are checked.
 */
#ifndef IBFS_TESTS_ROCE_PAIR_H
#define IBFS_TESTS_ROCE_PAIR_H

#include "check_common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/capture.h"
#include "fabric/eth.h"
#include "hca/hca_int.h"
#include "hca/pair.h"
#include "ibfsim/verbs.h"

#define PROP (10 * IBFS_NS)
#define BUFSZ (256 * 1024)
/* Wire bytes of a RoCEv2 frame besides its extension headers and
 * payload: 8 + 14 + 20 + 8 + 12 + 4 + 4 + 12. */
#define ROCE_OVER 82
/* An ACK: the overhead and an AETH of 4 bytes: 86 bytes, 6,880 ps. */
#define ACK_WIRE (ROCE_OVER + 4)

static inline ibfs_time_t ser(uint64_t bytes)
{
	return bytes * 80;
}

/* Wire bytes of a RoCEv2 frame with `ext` header bytes and a payload. */
static inline uint64_t rwire(uint32_t ext, uint32_t payload)
{
	return ROCE_OVER + ext + payload + ((4 - (payload & 3)) & 3);
}

/* The test flow ops: no pause, every drop_every-th arrival dropped, and
 * the arrivals (counted from 1 over both ports) in drop_mask. */
static struct {
	unsigned drop_every; /* 0: none */
	uint64_t drop_mask;  /* bit k-1: drop arrival k (1-64) */
	uint64_t arrived, dropped;
	uint32_t vls_sent; /* a bit for each priority a frame went on */
	/* The most PSNs A's QP had unacknowledged as a frame left A. */
	uint32_t inflight_max;
} eth;

static struct ibfs_hca_pair P;
static struct ibfs_hca_end A, B;

static inline int eth_may_send(const struct ibfs_port *out,
			       const struct ibfs_packet *p)
{
	(void)out;
	(void)p;
	return 1;
}

static inline void eth_on_send(struct ibfs_port *out,
			       const struct ibfs_packet *p)
{
	eth.vls_sent |= 1u << p->vl;
	if (A.qp && out == ibfs__fabric_port(P.f, 0, 1)) {
		const struct ibfs_hca_qp *q = (const struct ibfs_hca_qp *)A.qp;
		uint32_t n = (uint32_t)ibfs__psn_cmp(q->next_psn, q->una_psn);

		if (n > eth.inflight_max)
			eth.inflight_max = n;
	}
}

static inline int eth_on_arrive(struct ibfs_port *in,
				const struct ibfs_packet *p)
{
	(void)in;
	(void)p;
	++eth.arrived;
	if ((eth.drop_every && eth.arrived % eth.drop_every == 0) ||
	    (eth.arrived <= 64 && (eth.drop_mask >> (eth.arrived - 1)) & 1)) {
		eth.dropped++;
		return -1;
	}
	return 0;
}

static inline void eth_on_free(struct ibfs_port *in, int vl,
			       uint32_t blocks)
{
	(void)in;
	(void)vl;
	(void)blocks;
}

static inline int eth_on_tx_idle(struct ibfs_port *out)
{
	(void)out;
	return 0;
}

static const struct ibfs_flow_ops eth_flow = {
	.name = "test-ethernet",
	.may_send = eth_may_send,
	.on_send = eth_on_send,
	.on_arrive = eth_on_arrive,
	.on_free = eth_on_free,
	.on_tx_idle = eth_on_tx_idle,
};

/* IRN's settings for the next setup (NULL: go-back-N). */
static const struct ibfs_hca_irn_cfg *IRN;

static struct ibfs_hca_conn CONN = {
	.mtu = IBFS_MTU_4096, .timeout = 8, .retry_cnt = 7, .rnr_retry = 7,
	.min_rnr_timer = 1, .rd_atomic = 4, .psn = 100,
};

static inline void open_end(struct ibfs_hca_end *e, struct ibfs_hca *h)
{
	struct ibfs_qp_cap cap = {.max_send_wr = 64, .max_recv_wr = 64,
				  .max_send_sge = 1, .max_recv_sge = 1,
				  .max_inline_data = 64};

	ck_assert_int_eq(ibfs__hca_end_open(e, h, IBFS_QPT_RC, BUFSZ, &cap,
					    256),
			 0);
}

/* Two RNICs with host ids 1 and 2, one RC connection, A's buffer
 * patterned; drop_every as for eth. */
static inline void setup(unsigned drop_every)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1};

	memset(&eth, 0, sizeof(eth));
	eth.drop_every = drop_every;
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(ibfs__hca_set_link(P.h[i],
						    IBFS_HCA_LINK_ROCE, 0, 0),
				 0);
		ck_assert_int_eq(ibfs__hca_set_host_id(P.h[i], 1,
						       (uint16_t)(i + 1)),
				 0);
		if (IRN)
			ck_assert_int_eq(ibfs__hca_set_recovery(
					 P.h[i], IBFS_HCA_RECOVERY_IRN, IRN),
					 0);
		ibfs__fabric_port(P.f, i, 1)->flow = &eth_flow;
	}
	open_end(&A, P.h[0]);
	open_end(&B, P.h[1]);
	ck_assert_int_eq(ibfs__hca_end_connect(&A, 2, B.qp->qp_num, &CONN), 0);
	ck_assert_int_eq(ibfs__hca_end_connect(&B, 1, A.qp->qp_num, &CONN), 0);
	for (int i = 0; i < BUFSZ; i++) {
		A.buf[i] = (uint8_t)(i * 7 + 3);
		B.buf[i] = (uint8_t)(i * 11 + 5);
	}
}

static inline void teardown(void)
{
	ibfs__hca_pair_free(&P);
	free(A.buf);
	free(B.buf);
	memset(&A, 0, sizeof(A));
	memset(&B, 0, sizeof(B));
}

static inline uint64_t raddr(struct ibfs_hca_end *e, uint32_t off)
{
	return (uint64_t)(uintptr_t)(e->buf + off);
}

static inline void post(struct ibfs_hca_end *e, uint64_t id,
			enum ibfs_wr_opcode op, uint32_t off, uint32_t len,
			struct ibfs_hca_end *r, uint32_t roff)
{
	struct ibfs_sge sg = {.addr = raddr(e, off), .length = len,
			      .lkey = e->mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1,
				  .opcode = op,
				  .send_flags = IBFS_SEND_SIGNALED,
				  .imm_data = 0x5eed0000u + (uint32_t)id};
	struct ibfs_send_wr *bad = NULL;

	if (r) {
		wr.wr.rdma.remote_addr = raddr(r, roff);
		wr.wr.rdma.rkey = r->mr->rkey;
	}
	ck_assert_int_eq(ibfs_post_send(e->qp, &wr, &bad), 0);
}

static inline void post_recv(struct ibfs_hca_end *e, uint64_t id,
			     uint32_t off, uint32_t len)
{
	struct ibfs_sge sg = {.addr = raddr(e, off), .length = len,
			      .lkey = e->mr->lkey};
	struct ibfs_recv_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *bad = NULL;

	ck_assert_int_eq(ibfs_post_recv(e->qp, &wr, &bad), 0);
}

static inline void wait1(struct ibfs_cq *cq, struct ibfs_wc *wc)
{
	ck_assert_int_eq(ibfs_wait_cq(cq, 1, wc), 1);
	ck_assert_int_eq(wc->status, IBFS_WC_SUCCESS);
}

static inline ibfs_time_t now(void)
{
	return P.f->eq.now;
}

/*
 * Every Nth frame reaching either port is dropped (requests, responses
 * and ACKs alike): WRITEs, SENDs and READs in both directions all
 * complete, in order, with the right bytes, and the lost frames were
 * sent again (go-back-N after a sequence error NAK or an ACK timeout).
 */
static inline void lossy_run(unsigned n)
{
	enum { MSGS = 12, LEN = 12000 };
	struct ibfs_wc wc;

	setup(n);
	for (int i = 0; i < MSGS / 3; i++)
		post_recv(&B, 100 + (uint64_t)i, 150000 + (uint32_t)i * LEN,
			  LEN);
	for (int i = 0; i < MSGS; i++) {
		uint32_t off = (uint32_t)i * LEN;
		static const enum ibfs_wr_opcode op[3] = {
			IBFS_WR_RDMA_WRITE, IBFS_WR_SEND, IBFS_WR_RDMA_READ,
		};
		/* READs land in A's buffer from 160,000 on. */
		if (op[i % 3] == IBFS_WR_RDMA_READ)
			post(&A, (uint64_t)i, op[2],
			     160000 + (uint32_t)(i / 3) * LEN, LEN, &B, off);
		else
			post(&A, (uint64_t)i, op[i % 3], off, LEN - 1 - i,
			     op[i % 3] == IBFS_WR_SEND ? NULL : &B, off);
	}
	for (int i = 0; i < MSGS; i++) {
		wait1(A.scq, &wc);
		ck_assert_uint_eq(wc.wr_id, (uint64_t)i); /* in order */
	}
	for (int i = 0; i < MSGS / 3; i++) {
		wait1(B.rcq, &wc);
		ck_assert_uint_eq(wc.wr_id, 100 + (uint64_t)i);
	}
	for (int i = 0; i < MSGS; i++) {
		uint32_t off = (uint32_t)i * LEN, len = LEN - 1 - (uint32_t)i;

		if (i % 3 == 0)
			ck_assert_mem_eq(B.buf + off, A.buf + off, len);
		else if (i % 3 == 1)
			ck_assert_mem_eq(B.buf + 150000 + (uint32_t)(i / 3) *
							      LEN,
					 A.buf + off, len);
		else
			ck_assert_mem_eq(A.buf + 160000 + (uint32_t)(i / 3) *
							      LEN,
					 B.buf + off, LEN);
	}
	const struct ibfs_hca_stats *sa = ibfs__hca_stats(P.h[0]);
	ck_assert_uint_gt(eth.dropped, 0);
	ck_assert_uint_gt(sa->retransmits, 0);
	ck_assert_uint_gt(sa->seq_naks + sa->timeouts, 0);
	/* Every frame sent was delivered or counted as dropped, or is still
	 * on the wire (IRN: an ACK or NACK may be when the last WQE
	 * completes). */
	char msg[256];
	ck_assert_msg(ibfs__fabric_check(P.f, msg, sizeof(msg)) == 0, "%s",
		      msg);
	if (!IRN)
		ck_assert_uint_eq(P.f->pkts_injected,
				  P.f->pkts_delivered + P.f->pkts_dropped);
	teardown();
}

#endif
