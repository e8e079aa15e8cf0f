/* SPDX-License-Identifier: MIT */
/*
 * The HCA transport's error paths and recovery, two HCAs back to back with
 * the `ideal` profile: bad keys and bounds, RNR, retry exhaustion on a
 * cut cable, lost packets and go-back-N, duplicates, responder resources,
 * flushing, and random loss. Times are computed here in closed form from
 * the link alone: 4x EDR carries exactly
 * 4 x 25.78125 Gb/s x 64/66 = 100 Gb/s, so n bytes take n x 80 ps; the
 * 2 m cable takes 10 ns. Wire sizes come from the IBA header sizes: LRH 8,
 * BTH 12, RETH 16, AETH 4, ImmDt 4, AtomicETH 28, AtomicAckETH 8, DETH 8,
 * payload padded to 4 bytes, ICRC 4, VCRC 2 (IBA 7.7, 9.2-9.4). A receiver
 * that frees a packet's buffer first sends a 6-byte flow-control packet on
 * the reverse direction (IBA 7.9.4.2), which delays an ACK by its 480 ps.
 */
#include "check_common.h"

#include <stdlib.h>
#include <string.h>

#include "hca/hca_int.h"
#include "hca/pair.h"
#include "ibfsim/verbs.h"

#include "hca_fixture.h"

START_TEST(bad_rkey_remote_access_error_and_flush)
{
	setup_rc();
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 32, raddr(&B, 0),
		  B.mr->rkey ^ 0x100, IBFS_SEND_SIGNALED);
	post_send(&A, 2, IBFS_WR_RDMA_WRITE, 0, 32, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 1);
	ck_assert_int_eq(wc.status, IBFS_WC_REM_ACCESS_ERR);
	ck_assert_str_eq(ibfs_wc_status_str(wc.status), "remote access error");
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 2);
	ck_assert_int_eq(wc.status, IBFS_WC_WR_FLUSH_ERR);
	ck_assert_int_eq(A.qp->state, IBFS_QPS_ERR);
	/* A WR posted in the error state is flushed too. */
	post_send(&A, 3, IBFS_WR_SEND, 0, 4, 0, 0, IBFS_SEND_SIGNALED);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 3);
	ck_assert_int_eq(wc.status, IBFS_WC_WR_FLUSH_ERR);
	/* Nothing reached B's memory; its QP went to error after the NAK. */
	for (int i = 0; i < 32; i++)
		ck_assert_int_eq(B.buf[i], 0);
	ibfs__direct_exec_drain(&P.dx);
	ck_assert_int_eq(B.qp->state, IBFS_QPS_ERR);
	teardown();
}
END_TEST

START_TEST(out_of_bounds_and_no_permission)
{
	setup_rc();
	/* One byte past the end of B's region. */
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 32, raddr(&B, BUFSZ - 31),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_REM_ACCESS_ERR);
	teardown();

	/* A region without remote read, read from. */
	setup_rc();
	struct ibfs_mr *ro = ibfs_reg_mr(B.pd, B.buf, 64,
					 IBFS_ACCESS_LOCAL_WRITE);
	ck_assert_ptr_nonnull(ro);
	post_send(&A, 5, IBFS_WR_RDMA_READ, 0, 16, raddr(&B, 0), ro->rkey,
		  IBFS_SEND_SIGNALED);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 5);
	ck_assert_int_eq(wc.status, IBFS_WC_REM_ACCESS_ERR);
	teardown();
}
END_TEST

START_TEST(bad_lkey_local_protection_error)
{
	setup_rc();
	struct ibfs_sge sg = {.addr = raddr(&A, 0), .length = 32,
			      .lkey = A.mr->lkey + 1};
	struct ibfs_send_wr wr = {.wr_id = 8, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_RDMA_WRITE,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.rdma.remote_addr = raddr(&B, 0);
	wr.wr.rdma.rkey = B.mr->rkey;
	struct ibfs_send_wr *bad;
	ck_assert_int_eq(ibfs_post_send(A.qp, &wr, &bad), 0);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 8);
	ck_assert_int_eq(wc.status, IBFS_WC_LOC_PROT_ERR);
	ck_assert_int_eq(A.qp->state, IBFS_QPS_ERR);
	/* Nothing left the HCA. */
	ck_assert_uint_eq(P.h[0]->st.tx_pkts, 0);
	teardown();
}
END_TEST

START_TEST(rnr_retry_exhausted_closed_form)
{
	struct conn c = CONN_DEFAULT;
	c.rnr_retry = 2;
	c.min_rnr_timer = 1; /* 0.01 ms, IBA Table 45 */
	setup_rc_cfg(1, 4096, &c);
	post_send(&A, 1, IBFS_WR_SEND, 0, 64, 0, 0, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_RNR_RETRY_EXC_ERR);
	/* Three tries (the first and two retries), each answered by an RNR
	 * NAK one round trip later, with 10 us of RNR wait between. */
	ibfs_time_t rt = ser(wire(0, 64)) + PROP + ser(FCP) +
			 ser(ACK_BYTES) + PROP;
	ck_assert_uint_eq(now(), 3 * rt + 2 * 10 * IBFS_US);
	ck_assert_uint_eq(P.h[0]->st.rnr_naks, 3);
	ck_assert_int_eq(A.qp->state, IBFS_QPS_ERR);
	teardown();
}
END_TEST

START_TEST(rnr_then_recv_posted_recovers)
{
	setup_rc(); /* rnr_retry 7: retry for ever */
	post_send(&A, 1, IBFS_WR_SEND, 0, 64, 0, 0, IBFS_SEND_SIGNALED);
	ibfs__direct_exec_advance(&P.dx, 25 * IBFS_US);
	post_recv(&B, 2, 0, 64);
	struct ibfs_wc wc;
	wait1(B.rcq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_mem_eq(B.buf, A.buf, 64);
	/* Tries at 0, rt + 10 us, 2 rt + 20 us, 3 rt + 30 us: the fourth
	 * finds the receive posted at 25 us. */
	ibfs_time_t rt = ser(wire(0, 64)) + PROP + ser(FCP) +
			 ser(ACK_BYTES) + PROP;
	ck_assert_uint_eq(now(), 3 * rt + 30 * IBFS_US + ser(wire(0, 64)) +
					 PROP);
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(P.h[0]->st.rnr_naks, 3);
	teardown();
}
END_TEST

START_TEST(cut_link_retry_exhausted)
{
	struct conn c = CONN_DEFAULT;
	c.timeout = 1;   /* 4.096 us x 2 = 8.192 us */
	c.retry_cnt = 2;
	setup_rc_cfg(1, 4096, &c);
	ibfs__fabric_port(P.f, 0, 1)->up = 0;
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 32, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	post_send(&A, 2, IBFS_WR_SEND, 0, 32, 0, 0, 0);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 1);
	ck_assert_int_eq(wc.status, IBFS_WC_RETRY_EXC_ERR);
	/* Sent at 0 and lost; timeouts at T, 2T (retries), 3T (give up). */
	ck_assert_uint_eq(now(), 3 * 8192 * IBFS_NS);
	ck_assert_int_eq(A.qp->state, IBFS_QPS_ERR);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 2);
	ck_assert_int_eq(wc.status, IBFS_WC_WR_FLUSH_ERR);
	ck_assert_uint_eq(P.h[0]->st.timeouts, 3);
	teardown();
}
END_TEST

START_TEST(dropped_packet_seq_nak_go_back_n)
{
	setup_rc_cfg(1, 1024, &(struct conn){.mtu = IBFS_MTU_1024,
		.timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
		.min_rnr_timer = 1, .rd_atomic = 4});
	P.h[1]->drop_next_rx = 1; /* lose the first packet at B */
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 3000, raddr(&B, 100),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_mem_eq(B.buf + 100, A.buf, 3000);
	ck_assert_uint_eq(P.h[0]->st.seq_naks, 1);
	ck_assert_uint_eq(P.h[1]->st.dropped, 1);
	/*
	 * The NAK reaches A after the Last has left (the Last started at
	 * w1 + w2, before nak): the rewind to PSN 100 goes back over First,
	 * Middle and Last, three packets sent again. The fabric's one drop
	 * is the test's.
	 */
	ck_assert_uint_eq(P.h[0]->st.retransmitted, 3);
	ck_assert_uint_eq(P.h[1]->st.retransmitted, 0);
	ck_assert_uint_eq(P.f->pkts_dropped, 1);
	ck_assert_uint_eq(P.f->drops[IBFS_DROP_INJECTED], 1);
	/* The NAK for PSN 100 answers the Middle packet: it leaves B when
	 * the Middle's tail is in, after an FCP. A frees the NAK's buffer
	 * (an FCP once its transmitter is free), then resends First,
	 * Middle and Last back to back. */
	ibfs_time_t w1 = ser(wire(16, 1024)), w2 = ser(wire(0, 1024)),
		    w3 = ser(wire(0, 952));
	ibfs_time_t nak = w1 + w2 + PROP + ser(FCP) + ser(ACK_BYTES) + PROP;
	ibfs_time_t start = (nak > w1 + w2 + w3 ? nak : w1 + w2 + w3) +
			    ser(FCP);
	ibfs_time_t last_in = start + w1 + w2 + w3 + PROP;
	ck_assert_uint_eq(now(), last_in + ser(FCP) + ser(ACK_BYTES) + PROP);
	teardown();
}
END_TEST

START_TEST(flush_recv_on_error_transition)
{
	setup_rc();
	post_recv(&B, 1, 0, 10);
	post_recv(&B, 2, 10, 10);
	struct ibfs_qp_attr a = {.qp_state = IBFS_QPS_ERR};
	ck_assert_int_eq(ibfs_modify_qp(B.qp, &a, IBFS_QP_STATE), 0);
	struct ibfs_wc wc[2];
	ck_assert_int_eq(ibfs_wait_cq(B.rcq, 2, wc), 2);
	ck_assert_uint_eq(wc[0].wr_id, 1);
	ck_assert_uint_eq(wc[1].wr_id, 2);
	ck_assert_int_eq(wc[0].status, IBFS_WC_WR_FLUSH_ERR);
	ck_assert_int_eq(wc[1].opcode, IBFS_WC_RECV);
	teardown();
}
END_TEST

START_TEST(recv_too_small_length_error)
{
	setup_rc();
	post_recv(&B, 1, 0, 16);
	post_send(&A, 1, IBFS_WR_SEND, 0, 17, 0, 0, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(B.rcq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_LOC_LEN_ERR);
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_REM_INV_REQ_ERR);
	teardown();
}
END_TEST

START_TEST(recv_bad_lkey_remote_operational_error)
{
	setup_rc();
	struct ibfs_sge sg = {.addr = raddr(&B, 0), .length = 64,
			      .lkey = B.mr->lkey ^ 0x300};
	struct ibfs_recv_wr rw = {.wr_id = 6, .sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *rbad;
	ck_assert_int_eq(ibfs_post_recv(B.qp, &rw, &rbad), 0);
	post_send(&A, 1, IBFS_WR_SEND, 0, 16, 0, 0, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(B.rcq, &wc);
	ck_assert_uint_eq(wc.wr_id, 6);
	ck_assert_int_eq(wc.status, IBFS_WC_LOC_PROT_ERR);
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_REM_OP_ERR);
	for (int i = 0; i < 64; i++)
		ck_assert_int_eq(B.buf[i], 0);
	teardown();
}
END_TEST

START_TEST(lost_ack_write_reacked)
{
	struct conn c = CONN_DEFAULT;
	c.timeout = 1; /* 8.192 us */
	setup_rc_cfg(1, 4096, &c);
	P.h[0]->drop_next_resp = 1;
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 32, raddr(&B, 0), B.mr->rkey,
		  IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	/* The timer fires 8.192 us after the WRITE left; the resent WRITE
	 * is a duplicate at B, which ACKs it again. */
	ck_assert_uint_eq(now(), 8192 * IBFS_NS + ser(wire(16, 32)) + PROP +
					 ser(FCP) + ser(ACK_BYTES) + PROP);
	ck_assert_uint_eq(P.h[1]->st.duplicates, 1);
	ck_assert_uint_eq(P.h[0]->st.timeouts, 1);
	/* One packet sent again, the WRITE; one drop, the lost ACK. */
	ck_assert_uint_eq(P.h[0]->st.retransmitted, 1);
	ck_assert_uint_eq(P.f->drops[IBFS_DROP_INJECTED], 1);
	ck_assert_uint_eq(P.f->pkts_dropped, 1);
	ck_assert_mem_eq(B.buf, A.buf, 32);
	teardown();
}
END_TEST

START_TEST(lost_atomic_ack_replayed_not_redone)
{
	struct conn c = CONN_DEFAULT;
	c.timeout = 1;
	setup_rc_cfg(1, 4096, &c);
	uint64_t v = 1000;
	memcpy(B.buf + 128, &v, 8);
	P.h[0]->drop_next_resp = 1;
	post_atomic(&A, 1, IBFS_WR_ATOMIC_FETCH_AND_ADD, 0, raddr(&B, 128),
		    B.mr->rkey, 234, 0);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(now(), 8192 * IBFS_NS + ser(wire(28, 0)) + PROP +
					 ser(FCP) + ser(wire(12, 0)) + PROP);
	uint64_t got, mem;
	memcpy(&got, A.buf, 8);
	memcpy(&mem, B.buf + 128, 8);
	/* The duplicate gets the saved result; the add happened once. */
	ck_assert_uint_eq(got, 1000);
	ck_assert_uint_eq(mem, 1234);
	ck_assert_uint_eq(P.h[1]->st.duplicates, 1);
	teardown();
}
END_TEST

START_TEST(lost_read_response_read_again)
{
	struct conn c = CONN_DEFAULT;
	c.timeout = 1;
	setup_rc_cfg(1, 4096, &c);
	for (int i = 0; i < 5000; i++)
		B.buf[i] = (uint8_t)(i * 11);
	P.h[0]->drop_next_resp = 1; /* the First response */
	post_send(&A, 1, IBFS_WR_RDMA_READ, 6000, 5000, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_mem_eq(A.buf + 6000, B.buf, 5000);
	/* The Last response came out of order and was dropped too; the
	 * timer resends the READ, which B executes again. */
	ck_assert_uint_eq(now(), 8192 * IBFS_NS + ser(wire(16, 0)) + PROP +
					 ser(FCP) + ser(wire(4, 4096)) +
					 ser(wire(4, 904)) + PROP);
	ck_assert_uint_eq(P.h[1]->st.duplicates, 1);
	/*
	 * The READ of two response PSNs goes again as one request packet.
	 * The fabric dropped the First response only: A took the Last and
	 * discarded it itself (out of order, st.duplicates).
	 */
	ck_assert_uint_eq(P.h[0]->st.retransmitted, 1);
	ck_assert_uint_eq(P.f->pkts_dropped, 1);
	ck_assert_uint_eq(P.f->drops[IBFS_DROP_INJECTED], 1);
	teardown();
}
END_TEST

START_TEST(responder_resources_exceeded)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	side_open(&A, P.h[0], IBFS_QPT_RC);
	side_open(&B, P.h[1], IBFS_QPT_RC);
	struct conn ca = CONN_DEFAULT, cb = CONN_DEFAULT;
	cb.rd_atomic = 1; /* B serves one READ at a time */
	qp_connect(&A, 2, B.qp->qp_num, &ca);
	qp_connect(&B, 1, A.qp->qp_num, &cb);
	/* The second READ arrives while the first one's two responses are
	 * still going out. */
	post_send(&A, 1, IBFS_WR_RDMA_READ, 0, 8192, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	post_send(&A, 2, IBFS_WR_RDMA_READ, 8192, 8192, raddr(&B, 0),
		  B.mr->rkey, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 1);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(wc.wr_id, 2);
	ck_assert_int_eq(wc.status, IBFS_WC_REM_INV_REQ_ERR);
	ibfs__direct_exec_drain(&P.dx);
	ck_assert_int_eq(B.qp->state, IBFS_QPS_ERR);
	teardown();
}
END_TEST

/*
 * Loss everywhere: request packets lost at B and responses lost at A at
 * random (rates in parts per million, the HCAs' seeded streams), over a
 * mix of SENDs, WRITEs, READs and FETCH_ADDs of several packets each.
 * Every WR must complete, in order, with the right bytes, and each
 * FETCH_ADD must have added exactly once.
 */
static const uint32_t loss[][2] = {
	{50000, 50000}, {100000, 0}, {0, 100000}, {20000, 80000},
	{80000, 20000}, {150000, 0}, {0, 150000}, {100000, 100000},
};

START_TEST(lossy_mixed_workload)
{
	struct conn c = CONN_DEFAULT;
	c.mtu = IBFS_MTU_1024;
	c.timeout = 1;
	c.retry_cnt = 7;
	setup_rc_cfg(1, 1024, &c);
	P.h[1]->drop_ppm_rx = loss[_i][0];
	P.h[0]->drop_ppm_resp = loss[_i][1];
	for (int i = 0; i < BUFSZ; i++)
		B.buf[i] = (uint8_t)(i * 29 + 5);
	uint64_t zero = 0;
	memcpy(B.buf + 15000, &zero, 8);
	enum { N = 60 };
	for (int k = 0; k < N / 4; k++)
		post_recv(&B, 1000 + k, 4000 + 0, 3000);
	struct ibfs_send_wr *bad;
	for (int k = 0; k < N; k++) {
		struct ibfs_sge sg = {.lkey = A.mr->lkey};
		struct ibfs_send_wr wr = {.wr_id = k, .sg_list = &sg,
					  .num_sge = 1,
					  .send_flags = IBFS_SEND_SIGNALED};
		switch (k % 4) {
		case 0: /* SEND 2999 B from A[0..) */
			wr.opcode = IBFS_WR_SEND;
			sg.addr = raddr(&A, 0);
			sg.length = 2999;
			break;
		case 1: /* WRITE 5000 B to B[8000..) */
			wr.opcode = IBFS_WR_RDMA_WRITE;
			sg.addr = raddr(&A, 3000);
			sg.length = 5000;
			wr.wr.rdma.remote_addr = raddr(&B, 8000);
			wr.wr.rdma.rkey = B.mr->rkey;
			break;
		case 2: /* READ 3500 B of B[0..) into A[9000 + ..) */
			wr.opcode = IBFS_WR_RDMA_READ;
			sg.addr = raddr(&A, 9000 + (k / 4 % 2) * 3500);
			sg.length = 3500;
			wr.wr.rdma.remote_addr = raddr(&B, 0);
			wr.wr.rdma.rkey = B.mr->rkey;
			break;
		default: /* FETCH_ADD 1 on B[15000] */
			wr.opcode = IBFS_WR_ATOMIC_FETCH_AND_ADD;
			sg.addr = raddr(&A, 16000 + 8 * (k / 4));
			sg.length = 8;
			wr.wr.atomic.remote_addr = raddr(&B, 15000);
			wr.wr.atomic.rkey = B.mr->rkey;
			wr.wr.atomic.compare_add = 1;
			break;
		}
		ck_assert_int_eq(ibfs_post_send(A.qp, &wr, &bad), 0);
	}
	struct ibfs_wc wc;
	for (int k = 0; k < N; k++) {
		wait1(A.scq, &wc);
		ck_assert_msg(wc.wr_id == (uint64_t)k &&
				      wc.status == IBFS_WC_SUCCESS,
			      "WR %d: got %llu %s", k,
			      (unsigned long long)wc.wr_id,
			      ibfs_wc_status_str(wc.status));
	}
	for (int k = 0; k < N / 4; k++) {
		wait1(B.rcq, &wc);
		ck_assert_uint_eq(wc.wr_id, 1000 + k);
		ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
		ck_assert_uint_eq(wc.byte_len, 2999);
	}
	ck_assert_mem_eq(B.buf + 4000, A.buf, 2999);
	ck_assert_mem_eq(B.buf + 8000, A.buf + 3000, 5000);
	ck_assert_mem_eq(A.buf + 9000, B.buf, 3500);
	ck_assert_mem_eq(A.buf + 12500, B.buf, 3500);
	uint64_t sum;
	memcpy(&sum, B.buf + 15000, 8);
	ck_assert_uint_eq(sum, N / 4);
	/* Each FETCH_ADD saw the count before it: 0, 1, 2, ... */
	for (int k = 0; k < N / 4; k++) {
		uint64_t got;
		memcpy(&got, A.buf + 16000 + 8 * k, 8);
		ck_assert_uint_eq(got, k);
	}
	ck_assert_uint_gt(P.h[0]->st.retransmits, 0);
	teardown();
}
END_TEST

static Suite *hca_errors_suite(void)
{
	Suite *s = suite_create("hca_errors");
	TCase *tc = tcase_create("hca_errors");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, bad_rkey_remote_access_error_and_flush);
	tcase_add_test(tc, out_of_bounds_and_no_permission);
	tcase_add_test(tc, bad_lkey_local_protection_error);
	tcase_add_test(tc, rnr_retry_exhausted_closed_form);
	tcase_add_test(tc, rnr_then_recv_posted_recovers);
	tcase_add_test(tc, cut_link_retry_exhausted);
	tcase_add_test(tc, dropped_packet_seq_nak_go_back_n);
	tcase_add_test(tc, flush_recv_on_error_transition);
	tcase_add_test(tc, recv_too_small_length_error);
	tcase_add_test(tc, recv_bad_lkey_remote_operational_error);
	tcase_add_test(tc, lost_ack_write_reacked);
	tcase_add_test(tc, lost_atomic_ack_replayed_not_redone);
	tcase_add_test(tc, lost_read_response_read_again);
	tcase_add_test(tc, responder_resources_exceeded);
	tcase_add_loop_test(tc, lossy_mixed_workload, 0,
			    sizeof(loss) / sizeof(loss[0]));
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(hca_errors_suite)
