/* SPDX-License-Identifier: MIT */
/*
 * A link fault under the HCA transport: two HCAs back to back (ideal
 * profile, 4x EDR, 2 m), an RC RDMA WRITE of 16 KiB in four 4 KiB packets
 * while the cable fails (src/fabric/link_state.c). The transport sees only
 * lost packets: its ACK timeout (4.096 us x 2^timeout, IBA 9.7.6.1.3; here
 * timeout 1, 8.192 us) resends, and the write completes once the link is
 * back, or fails with a retry-exceeded error when it never comes back.
 * Figures: 4x EDR moves a byte in 80 ps; a WRITE's first packet carries
 * LRH 8 + BTH 12 + RETH 16 + ICRC 4 + VCRC 2 = 42 header bytes, the
 * others 26 (IBA 7.7, 9.2, 9.3).
 */
#include "check_common.h"

#include <stdlib.h>
#include <string.h>

#include "hca/hca_int.h"
#include "hca/pair.h"
#include "ibfsim/verbs.h"

#define BUFSZ 16384
#define TMO (8192 * IBFS_NS)

static struct ibfs_hca_pair P;
static struct ibfs_hca_end A, B;

static void setup(uint8_t retry_cnt)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = { .profile = "ideal", .mtu = 4096,
					 .data_mode = 1 };
	struct ibfs_qp_cap cap = { .max_send_wr = 16, .max_recv_wr = 16,
				   .max_send_sge = 1, .max_recv_sge = 1 };
	struct ibfs_hca_conn c = {
		.mtu = IBFS_MTU_4096, .timeout = 1, .retry_cnt = retry_cnt,
		.rnr_retry = 7, .min_rnr_timer = 1, .rd_atomic = 4, .psn = 7,
	};

	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	ck_assert_int_eq(ibfs__hca_end_open(&A, P.h[0], IBFS_QPT_RC, BUFSZ,
					    &cap, 256), 0);
	ck_assert_int_eq(ibfs__hca_end_open(&B, P.h[1], IBFS_QPT_RC, BUFSZ,
					    &cap, 256), 0);
	ck_assert_int_eq(ibfs__hca_end_connect(&A, 2, B.qp->qp_num, &c), 0);
	ck_assert_int_eq(ibfs__hca_end_connect(&B, 1, A.qp->qp_num, &c), 0);
	for (int i = 0; i < BUFSZ; i++)
		A.buf[i] = (uint8_t)(i * 13 + 5);
}

static void teardown(void)
{
	ibfs__hca_pair_free(&P);
	free(A.buf);
	free(B.buf);
	memset(&A, 0, sizeof(A));
	memset(&B, 0, sizeof(B));
}

static void write_all(void)
{
	struct ibfs_sge sg = { .addr = (uint64_t)(uintptr_t)A.buf,
			       .length = BUFSZ, .lkey = A.mr->lkey };
	struct ibfs_send_wr wr = { .wr_id = 1, .sg_list = &sg, .num_sge = 1,
				   .opcode = IBFS_WR_RDMA_WRITE,
				   .send_flags = IBFS_SEND_SIGNALED };
	struct ibfs_send_wr *bad = NULL;

	wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)B.buf;
	wr.wr.rdma.rkey = B.mr->rkey;
	ck_assert_int_eq(ibfs_post_send(A.qp, &wr, &bad), 0);
}

/* Starts of the packets A puts on the wire. */
static ibfs_time_t tx_at[16];
static int ntx;

static void on_tx(void *ctx, const struct ibfs_port *out,
		  const struct ibfs_packet *p, ibfs_time_t start)
{
	(void)ctx;
	(void)p;
	if (out->node == 0 && ntx < 16)
		tx_at[ntx++] = start;
}

static struct ibfs_observer obs = { .on_tx = on_tx };

static void conserved(void)
{
	char msg[512] = "";

	ck_assert_msg(ibfs__fabric_check(P.f, msg, sizeof(msg)) == 0, "%s",
		      msg);
}

START_TEST(write_survives_link_flap)
{
	/*
	 * The cable fails at 500 ns, while A sends the second packet (the
	 * first ends at 80 ps x (4096 + 42) = 331.04 ns), and comes back at
	 * 20 us.
	 * The resends at the first two timeouts (about 8.2 and 16.4 us)
	 * find it down; the third (about 24.6 us) gets through, so the
	 * write completes after 3 timeouts and before a fourth, with every
	 * byte in place.
	 */
	setup(7);
	ibfs__fabric_observe(P.f, &obs);
	ck_assert_int_eq(ibfs__fabric_fault_at(P.f, 500 * IBFS_NS, 0, 1, 0),
			 0);
	ck_assert_int_eq(ibfs__fabric_fault_at(P.f, 20000 * IBFS_NS, 1, 1,
					       1), 0);
	write_all();
	struct ibfs_wc wc;

	ck_assert_int_eq(ibfs_wait_cq(A.scq, 1, &wc), 1);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(P.h[0]->st.timeouts, 3);
	ck_assert_uint_gt(P.f->eq.now, 3 * TMO);
	ck_assert_uint_lt(P.f->eq.now, 4 * TMO);
	ck_assert_int_eq(memcmp(A.buf, B.buf, BUFSZ), 0);
	/*
	 * The HCA takes a packet at its header (no rx_at_tail), so the
	 * second packet, whose header was in at 331.04 + 10 + 0.64 ns, was
	 * received, not lost. Packets 3 and 4 and the two resends of all
	 * four found the port down: the HCA dropped them (10). The third
	 * resend starts exactly at 3 timeouts (the timer runs from the
	 * first send), back to back.
	 */
	ck_assert_uint_eq(P.f->pkts_lost, 0);
	ck_assert_uint_eq(P.h[0]->st.dropped, 10);
	ck_assert_uint_eq(P.f->pkts_dropped, 10);
	ck_assert_int_eq(ntx, 6);
	ck_assert_uint_eq(tx_at[0], 0);
	ck_assert_uint_eq(tx_at[1], (4096 + 42) * 80);
	ck_assert_uint_eq(tx_at[2], 3 * TMO);
	ck_assert_uint_eq(tx_at[3], 3 * TMO + (4096 + 42) * 80);
	ck_assert_uint_eq(tx_at[4], 3 * TMO + (4096 + 42 + 4096 + 26) * 80);
	ck_assert_uint_eq(tx_at[5],
			  3 * TMO + (4096 + 42 + 2 * (4096 + 26)) * 80);
	ck_assert_uint_eq(ibfs__fabric_port(P.f, 0, 1)->link_downed, 1);
	ck_assert_int_eq(ibfs__fabric_port(P.f, 0, 1)->up, 1);
	ibfs__direct_exec_drain(&P.dx);
	conserved();
	teardown();
}
END_TEST

START_TEST(write_fails_when_link_stays_down)
{
	/* retry_cnt 2: the first send and two resends, then the error. */
	setup(2);
	ck_assert_int_eq(ibfs__fabric_fault_at(P.f, 500 * IBFS_NS, 0, 1, 0),
			 0);
	write_all();
	struct ibfs_wc wc;

	ck_assert_int_eq(ibfs_wait_cq(A.scq, 1, &wc), 1);
	ck_assert_int_eq(wc.status, IBFS_WC_RETRY_EXC_ERR);
	ck_assert_uint_eq(P.h[0]->st.timeouts, 3);
	ck_assert_int_eq(A.qp->state, IBFS_QPS_ERR);
	ibfs__direct_exec_drain(&P.dx);
	conserved();
	teardown();
}
END_TEST

static Suite *fault_hca_suite(void)
{
	Suite *s = suite_create("fault_hca");
	TCase *tc = tcase_create("rc");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, write_survives_link_flap);
	tcase_add_test(tc, write_fails_when_link_stays_down);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(fault_hca_suite)
