/* SPDX-License-Identifier: MIT */
/*
 * The HCA's unreliable datagrams and its addressing, through the verbs API
 * on the back-to-back pair of check_hca.c (hca_fixture.h: ideal profile,
 * 80 ps a byte, 10 ns of cable): UD SENDs (MTU limit, Q_Key, GRH space,
 * completion when the last byte leaves, a packet held for credits), and
 * LIDs with an LMC (path bits choosing the SLID and the DLID, the default
 * partition). DETH is 8 bytes (IBA 9.8.2); the UD receive buffer starts
 * with 40 bytes of GRH space (IBA 11.4.1.2).
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

static void ud_setup(uint32_t qkey_b)
{
	setup_ud(qkey_b);
}

static int ud_post(struct ibfs_ah *ah, uint32_t len, uint32_t qkey,
		   struct ibfs_send_wr **bad)
{
	struct ibfs_sge sg = {.addr = raddr(&A, 0), .length = len,
			      .lkey = A.mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = 3, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_SEND,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = B.qp->qp_num;
	wr.wr.ud.remote_qkey = qkey;
	return ibfs_post_send(A.qp, &wr, bad);
}

START_TEST(ud_send_mtu_limit_and_qkey)
{
	ud_setup(0x2222);
	struct ibfs_ah_attr aa = {.dlid = 2, .sl = 3, .port_num = 1};
	struct ibfs_ah *ah = ibfs_create_ah(A.pd, &aa);
	ck_assert_ptr_nonnull(ah);
	post_recv(&B, 40, 0, 2048 + 40);
	struct ibfs_send_wr *bad = NULL;
	/* One byte over the MTU is refused at post time. */
	ck_assert_int_eq(ud_post(ah, 2049, 0x2222, &bad), EINVAL);
	ck_assert_ptr_nonnull(bad);
	/* A wrong Q_Key is dropped silently by B. */
	ck_assert_int_eq(ud_post(ah, 100, 0x2223, &bad), 0);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ibfs__direct_exec_drain(&P.dx);
	ck_assert_int_eq(ibfs_poll_cq(B.rcq, 1, &wc), 0);
	ck_assert_uint_eq(P.h[1]->st.dropped, 1);
	/* The right Q_Key, a full MTU: GRH space, then the data. */
	ibfs_time_t t0 = now();
	ck_assert_int_eq(ud_post(ah, 2048, 0x2222, &bad), 0);
	/* The send completes when the packet's last byte has left A... */
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(now() - t0, ser(wire(8, 2048)));
	/* ...and arrives a propagation delay later. */
	wait1(B.rcq, &wc);
	ck_assert_uint_eq(now() - t0, ser(wire(8, 2048)) + PROP);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(wc.byte_len, 2048 + 40);
	ck_assert_uint_eq(wc.src_qp, A.qp->qp_num);
	ck_assert_uint_eq(wc.slid, 1);
	ck_assert_uint_eq(wc.sl, 3);
	ck_assert_mem_eq(B.buf + 40, A.buf, 2048);
	teardown();
}
END_TEST

/*
 * B's input buffer holds one 2048-byte UD packet (33 credits), and A posts
 * two SENDs of 2048 bytes at t0: the second is built when the first has
 * left and is held for credits until B's FCP returns them. Returns t0.
 */
static ibfs_time_t held_setup(void)
{
	ud_setup(0x2222);
	struct ibfs_port *pa = P.h[0]->hp[1].port, *pb = P.h[1]->hp[1].port;
	const uint32_t blocks = (uint32_t)((wire(8, 2048) + 63) / 64);

	ck_assert_uint_eq(blocks, 33);
	pb->buf_cap[0] = blocks;
	pa->vls[0].credits = (int32_t)blocks;
	struct ibfs_ah_attr aa = {.dlid = 2, .port_num = 1};
	struct ibfs_ah *ah = ibfs_create_ah(A.pd, &aa);
	ck_assert_ptr_nonnull(ah);
	post_recv(&B, 40, 0, 2048 + 40);
	post_recv(&B, 41, 0, 2048 + 40);
	struct ibfs_send_wr *bad = NULL;
	ibfs_time_t t0 = now();

	ck_assert_int_eq(ud_post(ah, 2048, 0x2222, &bad), 0);
	ck_assert_int_eq(ud_post(ah, 2048, 0x2222, &bad), 0);
	/* The address handle is read only while posting. */
	ibfs_destroy_ah(ah);
	return t0;
}

/*
 * Each SEND completes when its packet's last byte has left A: the first at
 * W = ser(wire(8, 2048)); the second W later than the credits' return,
 * which is the first's tail arriving at B (W + PROP), B freeing its buffer
 * and sending a 6-byte FCP at once (ideal profile), and that FCP's flight.
 */
START_TEST(ud_send_held_for_credits_completes_when_sent)
{
	ibfs_time_t t0 = held_setup();
	const ibfs_time_t W = ser(wire(8, 2048));
	struct ibfs_wc wc;

	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(now() - t0, W);
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(now() - t0, W + PROP + ser(FCP) + PROP + W);
	for (int k = 0; k < 2; k++) {
		wait1(B.rcq, &wc);
		ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	}
	teardown();
}
END_TEST

/*
 * The same, but A's QP is destroyed while its second SEND is held: the
 * packet still leaves when the credits come (it is the port's now), and
 * nothing completes on the QP that is gone (nor reads it: ASan, valgrind).
 */
START_TEST(ud_qp_destroyed_while_its_packet_is_held)
{
	ibfs_time_t t0 = held_setup();
	const ibfs_time_t W = ser(wire(8, 2048));
	struct ibfs_wc wc;

	wait1(A.scq, &wc);
	ck_assert_uint_eq(now() - t0, W);
	ck_assert_ptr_nonnull(P.h[0]->hp[1].held[0]);
	ck_assert_ptr_eq(P.h[0]->hp[1].held_ends[0], A.qp);
	ck_assert_int_eq(ibfs_destroy_qp(A.qp), 0);
	ck_assert_ptr_null(P.h[0]->hp[1].held_ends[0]);
	A.qp = NULL;
	for (int k = 0; k < 2; k++) {
		wait1(B.rcq, &wc);
		ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	}
	ck_assert_uint_eq(now() - t0, W + PROP + ser(FCP) + PROP + W + PROP);
	ibfs__direct_exec_drain(&P.dx);
	ck_assert_int_eq(ibfs_poll_cq(A.scq, 1, &wc), 0);
	teardown();
}
END_TEST

/* (SLID, DLID) of the last packet each HCA of the pair sent. */
static uint16_t lrh_seen[2][2];

static void note_lids(void *ctx, const struct ibfs_port *out,
		      const struct ibfs_packet *p, ibfs_time_t start)
{
	(void)ctx;
	(void)start;
	if (out->node == 0 || out->node == 1) {
		lrh_seen[out->node][0] = p->slid;
		lrh_seen[out->node][1] = p->dlid;
	}
}

/*
 * With LMC 2, A owns LIDs 4-7 and B 8-11. The address vector's source
 * path bits choose the SLID among the sender's LIDs (bits beyond the LMC
 * ignored), its DLID which of the receiver's; the receive completion
 * reports the SLID and the DLID's path bits. RC: A -> 10 from path bits
 * 7 (SLID 7); B's ACKs -> 5 from path bits 1 (SLID 9).
 */
START_TEST(lmc_path_bits_rc)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	ck_assert_int_eq(ibfs__hca_set_lid(P.h[0], 1, 4, 2), 0);
	ck_assert_int_eq(ibfs__hca_set_lid(P.h[1], 1, 8, 2), 0);
	struct ibfs_observer o = {.on_tx = note_lids};
	ibfs__fabric_observe(P.f, &o);
	side_open(&A, P.h[0], IBFS_QPT_RC);
	side_open(&B, P.h[1], IBFS_QPT_RC);
	struct conn ca = CONN_DEFAULT, cb = CONN_DEFAULT;
	ca.src_path_bits = 7;
	cb.src_path_bits = 1;
	qp_connect(&A, 10, B.qp->qp_num, &ca);
	qp_connect(&B, 5, A.qp->qp_num, &cb);
	A.buf[0] = 0x5c;
	post_recv(&B, 9, 100, 64);
	post_send(&A, 1, IBFS_WR_SEND, 0, 1, 0, 0, IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(B.rcq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(wc.slid, 7);
	ck_assert_uint_eq(wc.dlid_path_bits, 2);
	ck_assert_int_eq(B.buf[100], 0x5c);
	ck_assert_uint_eq(lrh_seen[0][0], 7);
	ck_assert_uint_eq(lrh_seen[0][1], 10);
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(lrh_seen[1][0], 9); /* the ACK */
	ck_assert_uint_eq(lrh_seen[1][1], 5);
	teardown();
}
END_TEST

/* UD: the AH's path bits and DLID, the same way (A 4-7, B 8-11). */
START_TEST(lmc_path_bits_ud)
{
	ud_setup(0x2222);
	ck_assert_int_eq(ibfs__hca_set_lid(P.h[0], 1, 4, 2), 0);
	ck_assert_int_eq(ibfs__hca_set_lid(P.h[1], 1, 8, 2), 0);
	struct ibfs_observer o = {.on_tx = note_lids};
	ibfs__fabric_observe(P.f, &o);
	struct ibfs_ah_attr aa = {.dlid = 11, .src_path_bits = 2,
				  .port_num = 1};
	struct ibfs_ah *ah = ibfs_create_ah(A.pd, &aa);
	ck_assert_ptr_nonnull(ah);
	post_recv(&B, 40, 0, 256 + 40);
	struct ibfs_send_wr *bad = NULL;
	ck_assert_int_eq(ud_post(ah, 256, 0x2222, &bad), 0);
	ibfs_destroy_ah(ah);
	struct ibfs_wc wc;
	wait1(B.rcq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(wc.slid, 6);
	ck_assert_uint_eq(wc.dlid_path_bits, 3);
	ck_assert_mem_eq(B.buf + 40, A.buf, 256);
	ck_assert_uint_eq(lrh_seen[0][0], 6);
	ck_assert_uint_eq(lrh_seen[0][1], 11);
	teardown();
}
END_TEST

START_TEST(lmc_lids_and_partition)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal", .data_mode = 1};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	/* B owns LIDs 2 and 3 (LMC 1); A writes to LID 3. */
	ck_assert_int_eq(ibfs__hca_set_lid(P.h[1], 1, 2, 1), 0);
	side_open(&A, P.h[0], IBFS_QPT_RC);
	side_open(&B, P.h[1], IBFS_QPT_RC);
	qp_connect(&A, 3, B.qp->qp_num, &CONN_DEFAULT);
	qp_connect(&B, 1, A.qp->qp_num, &CONN_DEFAULT);
	A.buf[0] = 0x5c;
	post_send(&A, 1, IBFS_WR_RDMA_WRITE, 0, 1, raddr(&B, 7), B.mr->rkey,
		  IBFS_SEND_SIGNALED);
	struct ibfs_wc wc;
	wait1(A.scq, &wc);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_int_eq(B.buf[7], 0x5c);
	struct ibfs_hca_port *hp = &P.h[1]->hp[1];
	struct ibfs_packet p = {.dlid = 3, .pkey = 0xffff};
	ck_assert_int_eq(P.h[1]->lops->accept(hp, &p), 1);
	p.dlid = 4;
	ck_assert_int_eq(P.h[1]->lops->accept(hp, &p), 0);
	/* The link checks the LID only: the P_Key is the QP's to check
	 * (hca.c; check_hca_pkey.c). */
	p.dlid = 2;
	p.pkey = 0x8001;
	ck_assert_int_eq(P.h[1]->lops->accept(hp, &p), 1);
	teardown();
}
END_TEST

static Suite *hca_ud_suite(void)
{
	Suite *s = suite_create("hca_ud");
	TCase *tc = tcase_create("ud");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, ud_send_mtu_limit_and_qkey);
	tcase_add_test(tc, ud_send_held_for_credits_completes_when_sent);
	tcase_add_test(tc, ud_qp_destroyed_while_its_packet_is_held);
	tcase_add_test(tc, lmc_lids_and_partition);
	tcase_add_test(tc, lmc_path_bits_rc);
	tcase_add_test(tc, lmc_path_bits_ud);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(hca_ud_suite)
