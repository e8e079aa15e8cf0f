/* SPDX-License-Identifier: MIT */
/*
 * The HCA transport through the verbs API, two HCAs back to back with the
 * `ideal` profile (no HCA delays), so every completion time is computed
 * here in closed form from the link alone: 4x EDR carries exactly
 * 4 x 25.78125 Gb/s x 64/66 = 100 Gb/s, so n bytes take n x 80 ps; the
 * 2 m cable takes 10 ns. Wire sizes come from the IBA header sizes: LRH 8,
 * BTH 12, RETH 16, AETH 4, ImmDt 4, AtomicETH 28, AtomicAckETH 8, DETH 8,
 * payload padded to 4 bytes, ICRC 4, VCRC 2 (IBA 7.7, 9.2-9.4). A receiver
 * that frees a packet's buffer first sends a 6-byte flow-control packet on
 * the reverse direction (IBA 7.9.4.2), which delays an ACK by its 480 ps.
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

START_TEST(write_one_packet_closed_form)
{
	setup_rc();
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 32, raddr(&B, 100),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	/* WRITE Only: RETH, 32 B. Responder frees its buffer: FCP, ACK. */
	ibfs_time_t t = ser(wire(16, 32)) + PROP + ser(FCP) + ser(ACK_BYTES) +
			PROP;
	ck_assert_uint_eq(now(), t);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_int_eq(wc.opcode, IBFS_WC_RDMA_WRITE);
	ck_assert_uint_eq(wc.wr_id, 1);
	ck_assert_uint_eq(wc.qp_num, A.qp->qp_num);
	ck_assert_uint_eq(wc.byte_len, 32);
	ck_assert_mem_eq(B.buf + 100, A.buf, 32);
	ck_assert_int_eq(B.buf[99], 0);
	ck_assert_int_eq(B.buf[132], 0);
	teardown();
}
END_TEST

START_TEST(send_three_packets_closed_form)
{
	setup_rc_cfg(1, 1024, &(struct conn){.mtu = IBFS_MTU_1024,
		.timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
		.min_rnr_timer = 1, .rd_atomic = 4});
	post_recv(&B, 77, 1000, 4000);
	post_send(&A, 5, IBFS_WR_SEND_WITH_IMM, 10, 2500, 0, 0,
		  IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(B.rcq, &wc);
	/* First and Middle carry 1024 B; Last 452 B and ImmDt. */
	ibfs_time_t t3 = 2 * ser(wire(0, 1024)) + ser(wire(4, 452)) + PROP;
	ck_assert_uint_eq(now(), t3);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_int_eq(wc.opcode, IBFS_WC_RECV);
	ck_assert_uint_eq(wc.wr_id, 77);
	ck_assert_uint_eq(wc.byte_len, 2500);
	ck_assert_uint_eq(wc.qp_num, B.qp->qp_num);
	ck_assert_uint_eq(wc.slid, 1);
	ck_assert_uint_eq(wc.sl, 0);
	ck_assert_uint_eq(wc.wc_flags, IBFS_WC_WITH_IMM);
	ck_assert_uint_eq(wc.imm_data, 0xabcd0005u);
	ck_assert_mem_eq(B.buf + 1000, A.buf + 10, 2500);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), t3 + ser(FCP) + ser(ACK_BYTES) + PROP);
	ck_assert_int_eq(wc.opcode, IBFS_WC_SEND);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	teardown();
}
END_TEST

START_TEST(read_two_packets_closed_form)
{
	setup_rc();
	for (int i = 0; i < 5000; i++)
		B.buf[2000 + i] = (uint8_t)(i ^ 0x5a);
	/* Read B[2000..7000) into A[8000..). */
	struct ibfs_sge sg = {.addr = raddr(&A, 8000), .length = 5000,
			      .lkey = A.mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = 9, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_RDMA_READ,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.rdma.remote_addr = raddr(&B, 2000);
	wr.wr.rdma.rkey = B.mr->rkey;
	struct ibfs_send_wr *bad;
	ck_assert_int_eq(ibfs_post_send(A.qp, &wr, &bad), 0);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	/* Request (RETH), FCP, Response First 4096 B and Last 904 B, each
	 * with an AETH. */
	ibfs_time_t t = ser(wire(16, 0)) + PROP + ser(FCP) +
			ser(wire(4, 4096)) + ser(wire(4, 904)) + PROP;
	ck_assert_uint_eq(now(), t);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_int_eq(wc.opcode, IBFS_WC_RDMA_READ);
	ck_assert_uint_eq(wc.byte_len, 5000);
	ck_assert_mem_eq(A.buf + 8000, B.buf + 2000, 5000);
	teardown();
}
END_TEST

START_TEST(atomics_on_real_bytes)
{
	setup_rc();
	uint64_t v = 1000;
	memcpy(B.buf + 64, &v, 8);
	post_atomic(&A, 1, IBFS_WR_ATOMIC_FETCH_AND_ADD, 0, raddr(&B, 64),
		    B.mr->rkey, 234, 0);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_int_eq(wc.opcode, IBFS_WC_FETCH_ADD);
	/* AtomicETH request, FCP, Atomic ACK with AETH and AtomicAckETH. */
	ck_assert_uint_eq(now(), ser(wire(28, 0)) + PROP + ser(FCP) +
					 ser(wire(12, 0)) + PROP);
	uint64_t got, mem;
	memcpy(&got, A.buf, 8);
	memcpy(&mem, B.buf + 64, 8);
	ck_assert_uint_eq(got, 1000);
	ck_assert_uint_eq(mem, 1234);
	/* Compare and swap: a miss leaves memory, a hit swaps. */
	post_atomic(&A, 2, IBFS_WR_ATOMIC_CMP_AND_SWP, 8, raddr(&B, 64),
		    B.mr->rkey, 1, 77);
	post_atomic(&A, 3, IBFS_WR_ATOMIC_CMP_AND_SWP, 16, raddr(&B, 64),
		    B.mr->rkey, 1234, 77);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 2);
	ck_assert_int_eq(wc.opcode, IBFS_WC_COMP_SWAP);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 3);
	memcpy(&got, A.buf + 8, 8);
	ck_assert_uint_eq(got, 1234);
	memcpy(&got, A.buf + 16, 8);
	ck_assert_uint_eq(got, 1234);
	memcpy(&mem, B.buf + 64, 8);
	ck_assert_uint_eq(mem, 77);
	teardown();
}
END_TEST

START_TEST(write_with_imm_consumes_recv)
{
	setup_rc();
	post_recv(&B, 31, 0, 0);
	post_send(&A, 4, IBFS_WR_RDMA_WRITE_WITH_IMM, 0, 6000,
		  raddr(&B, 5000), B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(B.rcq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_int_eq(wc.opcode, IBFS_WC_RECV_RDMA_WITH_IMM);
	ck_assert_uint_eq(wc.wr_id, 31);
	ck_assert_uint_eq(wc.imm_data, 0xabcd0004u);
	ck_assert_uint_eq(wc.wc_flags, IBFS_WC_WITH_IMM);
	/* WRITE First (RETH, 4096 B) then Last with ImmDt (1904 B). */
	ck_assert_uint_eq(now(), ser(wire(16, 4096)) + ser(wire(4, 1904)) +
					 PROP);
	ck_assert_mem_eq(B.buf + 5000, A.buf, 6000);
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	teardown();
}
END_TEST

START_TEST(inline_send_and_unsignaled)
{
	setup_rc();
	post_recv(&B, 1, 0, 100);
	post_recv(&B, 2, 100, 100);
	post_send(&A, 10, IBFS_WR_SEND, 0, 40, 0, 0, IBFS_SEND_INLINE);
	/* Inline data is copied at post time: changing it is harmless. */
	uint8_t keep[40];
	memcpy(keep, A.buf, 40);
	memset(A.buf, 0xee, 40);
	post_send(&A, 11, IBFS_WR_SEND, 0, 40, 0, 0,
		  IBFS_SEND_SIGNALED | IBFS_SEND_INLINE);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	/* Only the signaled WR completes. */
	ck_assert_uint_eq(wc.wr_id, 11);
	ck_assert_int_eq(ibfs_poll_cq(A.scq, 1, &wc), 0);
	ck_assert_mem_eq(B.buf, keep, 40);
	memset(keep, 0xee, 40);
	ck_assert_mem_eq(B.buf + 100, keep, 40);
	teardown();
}
END_TEST

START_TEST(rc_ordering)
{
	setup_rc();
	for (int i = 0; i < 20; i++)
		post_recv(&B, 100 + i, 8000 + 100 * i, 100);
	for (int i = 0; i < 40; i++) {
		if (i % 2)
			post_send(&A, i, IBFS_WR_SEND, 50 * i, 50, 0, 0,
				  IBFS_SEND_SIGNALED);
		else
			post_send(&A, i, IBFS_WR_RDMA_WRITE, 50 * i, 50,
				  raddr(&B, 50 * i), B.mr->rkey,
				  IBFS_SEND_SIGNALED);
	}
	struct ibfs_wc wc;
	for (int i = 0; i < 40; i++) {
		wait1(A.scq, &wc);
		ck_assert_uint_eq(wc.wr_id, i);
		ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	}
	for (int i = 0; i < 20; i++) {
		wait1(B.rcq, &wc);
		ck_assert_uint_eq(wc.wr_id, 100 + i);
		ck_assert_mem_eq(B.buf + 8000 + 100 * i,
				 A.buf + 50 * (2 * i + 1), 50);
	}
	for (int i = 0; i < 40; i += 2)
		ck_assert_mem_eq(B.buf + 50 * i, A.buf + 50 * i, 50);
	teardown();
}
END_TEST

/* Times of every completion of a mixed workload. */
static void mixed_run(int data_mode, ibfs_time_t *times, int n)
{
	setup_rc_cfg(data_mode, 1024, &(struct conn){.mtu = IBFS_MTU_1024,
		.timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
		.min_rnr_timer = 1, .rd_atomic = 4});
	post_recv(&B, 50, 0, 8000);
	post_send(&A, 0, IBFS_WR_SEND, 0, 7000, 0, 0, IBFS_SEND_SIGNALED);
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 3333, raddr(&B, 8000),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	post_send(&A, 2, IBFS_WR_RDMA_READ, 8000, 2222, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	for (int i = 0; i < n; i++) {
		wait1(A.scq, &wc);
		ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
		times[i] = now();
	}
	if (data_mode)
		ck_assert_mem_eq(A.buf + 8000, B.buf, 2222);
	teardown();
}

START_TEST(data_on_off_same_times)
{
	ibfs_time_t on[3], off[3];
	mixed_run(1, on, 3);
	mixed_run(0, off, 3);
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(on[i], off[i]);
	ck_assert_uint_gt(on[2], on[1]);
}
END_TEST

START_TEST(outstanding_read_limit)
{
	struct conn c = CONN_DEFAULT;
	c.rd_atomic = 1;
	setup_rc_cfg(1, 4096, &c);
	post_send(&A, 1, IBFS_WR_RDMA_READ, 0, 16, raddr(&B, 0), B.mr->rkey,
		  IBFS_SEND_SIGNALED);
	post_send(&A, 2, IBFS_WR_RDMA_READ, 16, 16, raddr(&B, 0), B.mr->rkey,
		  IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	ibfs_time_t rt = ser(wire(16, 0)) + PROP + ser(FCP) +
			 ser(wire(4, 16)) + PROP;
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), rt);
	/* The second READ waits for the first response (depth 1); A frees
	 * that response's buffer first, so its FCP goes ahead. */
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 2);
	ck_assert_uint_eq(now(), rt + ser(FCP) + rt);
	teardown();
}
END_TEST


static uint64_t acks_seen;

static void count_acks(void *ctx, const struct ibfs_port *out,
		       const struct ibfs_packet *p, ibfs_time_t start)
{
	(void)ctx;
	(void)start;
	if (out->node == 1 && p->opcode == (IBFS_OP_RC | IBFS_OP_ACK))
		acks_seen++;
}

START_TEST(ack_coalescing_every_n_packets)
{
	setup_rc_cfg(1, 1024, &(struct conn){.mtu = IBFS_MTU_1024,
		.timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
		.min_rnr_timer = 1, .rd_atomic = 4});
	struct ibfs_observer o = {.on_tx = count_acks};
	ibfs__fabric_observe(P.f, &o);
	/* 16 packets, AckReq on the last only (every 16 by default). */
	acks_seen = 0;
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 16384, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_uint_eq(acks_seen, 1);
	/* AckReq every 4 packets: four ACKs. */
	P.h[0]->ack_every = 4;
	acks_seen = 0;
	post_send(&A, 2, IBFS_WR_RDMA_WRITE, 0, 16384, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ibfs__direct_exec_drain(&P.dx);
	ck_assert_uint_eq(acks_seen, 4);
	teardown();
}
END_TEST

START_TEST(uc_lost_packet_loses_the_message_only)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1,
					.mtu = 1024};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	side_open(&A, P.h[0], IBFS_QPT_UC);
	side_open(&B, P.h[1], IBFS_QPT_UC);
	struct side *s[2] = {&A, &B};
	for (int i = 0; i < 2; i++) {
		struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_INIT,
					 .port_num = 1,
					 .qp_access_flags = 0xf};
		ck_assert_int_eq(ibfs_modify_qp(s[i]->qp, &a, IBFS_QP_STATE |
				IBFS_QP_PKEY_INDEX | IBFS_QP_PORT |
				IBFS_QP_ACCESS_FLAGS), 0);
		a.qp_state = IBFS_QPS_RTR;
		a.path_mtu = IBFS_MTU_1024;
		a.dest_qp_num = s[1 - i]->qp->qp_num;
		a.ah_attr.dlid = (uint16_t)(2 - i);
		ck_assert_int_eq(ibfs_modify_qp(s[i]->qp, &a, IBFS_QP_STATE |
				IBFS_QP_AV | IBFS_QP_PATH_MTU |
				IBFS_QP_DEST_QPN | IBFS_QP_RQ_PSN), 0);
		a.qp_state = IBFS_QPS_RTS;
		ck_assert_int_eq(ibfs_modify_qp(s[i]->qp, &a, IBFS_QP_STATE |
				IBFS_QP_SQ_PSN), 0);
	}
	for (int i = 0; i < BUFSZ; i++)
		A.buf[i] = (uint8_t)(i + 9);
	post_recv(&B, 1, 0, 4000);
	post_recv(&B, 2, 4000, 4000);
	P.h[1]->drop_next_rx = 1;
	ibfs_time_t t0 = now();
	post_send(&A, 1, IBFS_WR_SEND, 0, 3000, 0, 0, IBFS_SEND_SIGNALED);
	post_send(&A, 2, IBFS_WR_SEND, 3000, 3000, 0, 0, IBFS_SEND_SIGNALED);
	post_send(&A, 3, IBFS_WR_RDMA_WRITE, 0, 2500, raddr(&B, 9000),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	/*
	 * The packets go back to back from t0 (1024-byte MTU); a message
	 * completes when its last packet has left, lost on the way or not:
	 * a SEND of 3000 bytes is 1024 + 1024 + 952, the WRITE of 2500
	 * 1024 (with its RETH) + 1024 + 452.
	 */
	const ibfs_time_t send3000 =
		ser(2 * wire(0, 1024) + wire(0, 952));
	const ibfs_time_t done[4] = {
		0, send3000, 2 * send3000,
		2 * send3000 + ser(wire(16, 1024) + wire(0, 1024) +
				   wire(0, 452))};
	struct ibfs_wc wc;
	for (int k = 1; k <= 3; k++) {
		wait1(A.scq, &wc);
		ck_assert_uint_eq(wc.wr_id, k);
		ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
		ck_assert_uint_eq(now() - t0, done[k]);
	}
	/* The first SEND lost its First packet: B drops the message and
	 * the first receive WQE takes the second SEND. */
	wait1(B.rcq, &wc);
	ck_assert_uint_eq(wc.wr_id, 1);
	ck_assert_uint_eq(wc.byte_len, 3000);
	ck_assert_mem_eq(B.buf, A.buf + 3000, 3000);
	ibfs__direct_exec_drain(&P.dx);
	ck_assert_int_eq(ibfs_poll_cq(B.rcq, 1, &wc), 0);
	ck_assert_mem_eq(B.buf + 9000, A.buf, 2500);
	teardown();
}
END_TEST

START_TEST(sqd_finishes_the_message_in_progress)
{
	struct conn c = CONN_DEFAULT;
	c.mtu = IBFS_MTU_1024;
	setup_rc_cfg(1, 1024, &c);
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 3000, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	post_send(&A, 2, IBFS_WR_RDMA_WRITE, 3000, 3000, raddr(&B, 3000),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	/* The first packet of WR 1 is on the wire: drain the SQ. */
	ibfs__direct_exec_advance(&P.dx, 1 * IBFS_NS);
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_SQD};
	ck_assert_int_eq(ibfs_modify_qp(A.qp, &a, IBFS_QP_STATE), 0);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 1);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_mem_eq(B.buf, A.buf, 3000);
	ibfs__direct_exec_drain(&P.dx);
	ck_assert_int_eq(ibfs_poll_cq(A.scq, 1, &wc), 0);
	ck_assert_int_eq(B.buf[3000], 0);
	/* Back to RTS: WR 2 goes. */
	a.qp_state = IBFS_QPS_RTS;
	ck_assert_int_eq(ibfs_modify_qp(A.qp, &a, IBFS_QP_STATE), 0);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 2);
	ck_assert_mem_eq(B.buf + 3000, A.buf + 3000, 3000);
	teardown();
}
END_TEST

/*
 * QPs, HCAs and HCA ports start a 64-byte line: their fields are laid out
 * by the lines a packet touches (hca.h), which holds only if they do.
 */
/*
 * A responder keeps the last IBFS_AT_HIST atomic results to answer a
 * duplicate atomic request with the original result (the IBA answers a
 * duplicate atomic from saved results and never executes it again). The QP may have max_dest_rd_atomic of its profile's
 * max_rd_atomic outstanding, so every profile must fit in that history.
 */
START_TEST(profiles_fit_the_atomic_history)
{
	for (int i = 0; ibfs__hca_profile_names[i]; i++) {
		const struct ibfs_hca_profile *pf =
			ibfs__hca_profile(ibfs__hca_profile_names[i]);

		ck_assert_ptr_nonnull(pf);
		ck_assert_uint_ge(pf->max_rd_atomic, 1);
		ck_assert_uint_le(pf->max_rd_atomic, IBFS_AT_HIST);
	}
}
END_TEST

START_TEST(qp_and_hca_start_a_cache_line)
{
	setup_rc();
	ck_assert_uint_eq((uintptr_t)A.qp % 64, 0);
	ck_assert_uint_eq((uintptr_t)B.qp % 64, 0);
	struct ibfs_hca *h = A.qp->context->hca;
	ck_assert_uint_eq((uintptr_t)h % 64, 0);
	ck_assert_uint_eq((uintptr_t)&h->hp[1] % 64, 0);
	/* An HCA port: what tx_run reads for every packet and the SL-to-VL
	 * table the frame reads in line 0; the FIFOs of QPs from line 1
	 * (one data VL: VL 0's alone), then what a VL that waits for
	 * credits holds, then the VL arbiter. */
	ck_assert_uint_eq(sizeof(h->hp[1]) % 64, 0);
	ck_assert_uint_eq(offsetof(struct ibfs_hca_port, kick_at), 40);
	ck_assert_uint_eq(offsetof(struct ibfs_hca_port, sl2vl), 48);
	ck_assert_uint_eq(offsetof(struct ibfs_hca_port, fifo), 64);
	teardown();
}
END_TEST

static void on_nothing(void *obj, uint64_t arg)
{
	(void)obj;
	(void)arg;
}

/*
 * Out of memory (eq.nomem), the queue runs no more: the direct executor's
 * drain and a blocking wait return instead of calling the run again and
 * again with the event still held (the test's timeout fails a spin).
 */
START_TEST(direct_exec_stops_out_of_memory)
{
	struct ibfs_eq q;
	struct ibfs_direct_exec dx;

	ck_assert_int_eq(ibfs__eq_init(&q), 0);
	struct ibfs_exec ex = ibfs__direct_exec(&dx, &q);

	ck_assert_ptr_nonnull(ibfs__eq_schedule(&q, 10, on_nothing, NULL, 0));
	q.nomem = 1;
	ck_assert_uint_eq(ibfs__direct_exec_drain(&dx), 0);
	ex.ops->wait(ex.ctx, ex.ops->waiter_get(ex.ctx));
	ck_assert_uint_eq(ibfs__eq_size(&q), 1);
	ck_assert_uint_eq(q.now, 0);
	ibfs__eq_destroy(&q);
}
END_TEST

static Suite *hca_suite(void)
{
	Suite *s = suite_create("hca");
	TCase *tc = tcase_create("hca");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, write_one_packet_closed_form);
	tcase_add_test(tc, send_three_packets_closed_form);
	tcase_add_test(tc, read_two_packets_closed_form);
	tcase_add_test(tc, atomics_on_real_bytes);
	tcase_add_test(tc, write_with_imm_consumes_recv);
	tcase_add_test(tc, inline_send_and_unsignaled);
	tcase_add_test(tc, rc_ordering);
	tcase_add_test(tc, data_on_off_same_times);
	tcase_add_test(tc, outstanding_read_limit);
	tcase_add_test(tc, sqd_finishes_the_message_in_progress);
	tcase_add_test(tc, ack_coalescing_every_n_packets);
	tcase_add_test(tc, uc_lost_packet_loses_the_message_only);
	tcase_add_test(tc, qp_and_hca_start_a_cache_line);
	tcase_add_test(tc, profiles_fit_the_atomic_history);
	suite_add_tcase(s, tc);
	TCase *tn = tcase_create("nomem");
	tcase_set_timeout(tn, 5);
	tcase_add_test(tn, direct_exec_stops_out_of_memory);
	suite_add_tcase(s, tn);
	return s;
}

IBFS_CHECK_MAIN(hca_suite)
