/* SPDX-License-Identifier: MIT */
/*
 * IRN's selective repeat (src/hca/rc_irn.c: Mittal et al., SIGCOMM 2018,
 * section 3) on two RoCEv2 RNICs back to back (roce_pair.h): every RC
 * operation completes with its bytes under drops of every period from 3
 * to 16; only the lost packets are sent again where go-back-N sends the
 * rest of the window; the two timeouts fire at their times; a lost READ
 * response is asked for again; the BDP cap bounds the packets in flight.
 * Times follow in closed form from the frames' wire bytes (roce_pair.h).
 */
#include "roce_pair.h"

/* IRN with the paper's timeouts (section 4.1) and no BDP cap. */
static const struct ibfs_hca_irn_cfg IRN_PAPER = {
	.rto_low = IBFS_IRN_RTO_LOW, .rto_high = IBFS_IRN_RTO_HIGH,
	.rto_n = IBFS_IRN_RTO_N,
};

START_TEST(irn_lossy_every_7th)
{
	IRN = &IRN_PAPER;
	lossy_run(7);
	IRN = NULL;
}
END_TEST

START_TEST(irn_lossy_every_5th)
{
	IRN = &IRN_PAPER;
	lossy_run(5);
	IRN = NULL;
}
END_TEST

/* Every period of drops from 3 to 16 (2, half the frames, defeats
 * go-back-N's retry count too): IRN completes every message. */
START_TEST(irn_lossy_periods)
{
	for (unsigned k = 3; k <= 16; k++) {
		IRN = &IRN_PAPER;
		lossy_run(k);
	}
	IRN = NULL;
}
END_TEST

/*
 * The 64 KiB WRITE of write_64k_closed_form (PSNs 100-115) with its
 * fifth packet (PSN 104, arrival 5: nothing reaches A before packet 6
 * reaches B) dropped.
 * Packet 6's tail reaches B at 335,520 + 5 x 334,240 + 10,000 =
 * 2,016,720 ps and B's answer reaches A at 2,016,720 + 6,880 + 10,000 =
 * 2,033,600, while packet 7 is on the wire (until 2,340,960).
 * Go-back-N: the answer is a sequence error NAK for 104 (B drops 6 and 7)
 * and A goes back to it: the 3 packets it had sent from 104 on (104-106)
 * go again before the rest: 19 packets. (With a round trip longer than
 * the message, every packet from 104 on would go again: 12.)
 * IRN: packets 6 and 7 draw selective NACKs (104, 105) and (104, 106),
 * and only 104 goes again, right after packet 7, before 8-16: 17 packets,
 * one more than without the loss, back to back, so the WRITE completes
 * one packet (334,240 ps) later than write_64k_closed_form: 5,710,240
 * ps.
 */
static void one_drop_run(const struct ibfs_hca_irn_cfg *irn, uint64_t pkts)
{
	struct ibfs_wc wc;

	IRN = irn;
	setup(0);
	IRN = NULL;
	eth.drop_mask = 1u << 4;
	post(&A, 2, IBFS_WR_RDMA_WRITE, 1000, 65536, &B, 3000);
	wait1(A.scq, &wc);
	ck_assert_mem_eq(B.buf + 3000, A.buf + 1000, 65536);
	ck_assert_uint_eq(eth.dropped, 1);
	ck_assert_uint_eq(P.h[0]->st.tx_pkts, pkts);
	/* Every packet beyond the WRITE's 16 was one sent again; the
	 * test's flow control dropped one. */
	ck_assert_uint_eq(P.h[0]->st.retransmitted, pkts - 16);
	ck_assert_uint_eq(P.f->drops[IBFS_DROP_INJECTED], 1);
	if (irn) {
		ck_assert_uint_eq(now(), ser(rwire(16, 4096) +
					     16 * rwire(0, 4096)) +
						 PROP + ser(ACK_WIRE) + PROP);
		ck_assert_uint_eq(now(), 5710240);
		ck_assert_uint_eq(P.h[0]->st.timeouts, 0);
		ck_assert_uint_eq(P.h[0]->st.retransmits, 1);
		/* Packets 6 and 7 were kept and NACKed selectively. */
		ck_assert_uint_eq(P.h[0]->st.seq_naks, 2);
	}
	teardown();
}

START_TEST(irn_resends_only_the_lost_packet)
{
	one_drop_run(NULL, 16 + 3);
	one_drop_run(&IRN_PAPER, 16 + 1);
}
END_TEST

/*
 * The same loss with a responder that takes ack_gen = 4 us to answer, so
 * that its first answer (queued when packet 6 arrives, 2,016,720 ps)
 * leaves at 6,016,720, after all 16 packets (the last leaves A at
 * 5,349,120), and reaches A at 6,033,600.
 * Go-back-N: A sends 104-115 again, 12 packets, 4,010,880 ps, the last
 * leaving at 10,044,480; B has it at 10,054,480 and its ACK leaves 4 us
 * later and reaches A at 14,071,360 ps: 28 packets.
 * IRN: the NACK (104, 105) brings 104 alone, which fills B's gap at
 * 6,033,600 + 334,240 + 10,000 = 6,377,840: B executes the 11 packets it
 * kept. Its next answer, queued behind the first for packet 7, leaves 4
 * us after it, at 10,016,720: packet 7 is no longer beyond the gap, so
 * it goes as an ACK of everything (115), which completes the WRITE at
 * 10,033,600 ps: 17 packets.
 */
static void slow_ack_run(const struct ibfs_hca_irn_cfg *irn, uint64_t pkts,
			 ibfs_time_t done)
{
	struct ibfs_hca_profile slow;
	struct ibfs_wc wc;

	IRN = irn;
	setup(0);
	IRN = NULL;
	slow = *P.h[1]->prof;
	slow.ack_gen = 4 * IBFS_US;
	P.h[1]->prof = &slow;
	eth.drop_mask = 1u << 4;
	post(&A, 2, IBFS_WR_RDMA_WRITE, 1000, 65536, &B, 3000);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), done);
	ck_assert_uint_eq(P.h[0]->st.tx_pkts, pkts);
	ck_assert_uint_eq(P.h[0]->st.retransmitted, pkts - 16);
	ck_assert_uint_eq(P.h[0]->st.timeouts, 0);
	ck_assert_mem_eq(B.buf + 3000, A.buf + 1000, 65536);
	teardown();
}

START_TEST(irn_resends_one_where_gbn_resends_12)
{
	slow_ack_run(NULL, 16 + 12, 14071360);
	slow_ack_run(&IRN_PAPER, 16 + 1, 10033600);
}
END_TEST

/*
 * A 4 KiB WRITE whose only packet is lost: nothing follows it, so no
 * NACK; one packet in flight (N <= 3), so RTO_low fires 100 us after it
 * left, at 100,000,000 ps, and the packet goes again: 100,362,400 ps
 * (write_4k_closed_form's 362,400 later). Go-back-N waits the local ACK
 * timeout instead: 4.096 us x 2^8 = 1,048,576,000 ps (IBA 9.7.6.1.3).
 */
START_TEST(irn_tail_loss_rto_low)
{
	struct ibfs_wc wc;

	IRN = &IRN_PAPER;
	setup(0);
	IRN = NULL;
	eth.drop_mask = 1;
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 4096, &B, 100);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), IBFS_IRN_RTO_LOW + 362400);
	ck_assert_uint_eq(now(), 100362400);
	ck_assert_uint_eq(P.h[0]->st.timeouts, 1);
	ck_assert_uint_eq(P.h[0]->st.tx_pkts, 2);
	ck_assert_uint_eq(P.h[0]->st.retransmitted, 1);
	ck_assert_mem_eq(B.buf + 100, A.buf, 4096);
	teardown();
	setup(0);
	eth.drop_mask = 1;
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 4096, &B, 100);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), 1048576000 + 362400);
	ck_assert_uint_eq(P.h[0]->st.retransmitted, 1);
	teardown();
}
END_TEST

/*
 * The 64 KiB WRITE with its last packet (arrival 16) lost: B has 1-15 in
 * order and acknowledges nothing (only the last packet asks). The timer
 * started with the first packet under RTO_low and took RTO_high once a
 * fourth packet was in flight: it fires at 320 us. Nothing was reported,
 * so every packet is presumed lost; the first goes again (the First, 4,194
 * bytes) with AckReq, B answers the duplicate with an ACK for 114, which
 * reaches A at 320,000,000 + 335,520 + 10,000 + 6,880 + 10,000 =
 * 320,362,400 ps while the second (4,178 bytes) is on the wire; then only
 * PSN 115 is left: it follows, its tail leaves A at 320,000,000 + (4,194 +
 * 2 x 4,178) x 80 = 321,004,000 and its ACK is back at 321,030,880 ps.
 * Three packets sent again.
 */
START_TEST(irn_tail_loss_rto_high)
{
	struct ibfs_wc wc;

	IRN = &IRN_PAPER;
	setup(0);
	IRN = NULL;
	eth.drop_mask = 1u << 15;
	post(&A, 2, IBFS_WR_RDMA_WRITE, 1000, 65536, &B, 3000);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), IBFS_IRN_RTO_HIGH +
					 ser(rwire(16, 4096) +
					     2 * rwire(0, 4096)) +
					 PROP + ser(ACK_WIRE) + PROP);
	ck_assert_uint_eq(now(), 321030880);
	ck_assert_uint_eq(P.h[0]->st.timeouts, 1);
	ck_assert_uint_eq(P.h[0]->st.tx_pkts, 16 + 3);
	ck_assert_uint_eq(P.h[0]->st.retransmitted, 3);
	ck_assert_mem_eq(B.buf + 3000, A.buf + 1000, 65536);
	teardown();
}
END_TEST

/*
 * A READ of 5,000 bytes (read_closed_form) whose first response is lost:
 * the Last arrives beyond the expected PSN, so A asks again for the READ
 * from the missing packet (here its start) at once, at 441,600 ps, and
 * the exchange repeats: 883,200 ps, two requests sent.
 */
START_TEST(irn_read_response_lost)
{
	struct ibfs_wc wc;

	IRN = &IRN_PAPER;
	setup(0);
	IRN = NULL;
	eth.drop_mask = 1u << 1;
	post(&A, 4, IBFS_WR_RDMA_READ, 8000, 5000, &B, 2000);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), 2 * 441600);
	ck_assert_uint_eq(P.h[0]->st.tx_pkts, 2);
	ck_assert_uint_eq(P.h[0]->st.retransmitted, 1);
	ck_assert_uint_eq(P.h[0]->st.timeouts, 0);
	ck_assert_mem_eq(A.buf + 8000, B.buf + 2000, 5000);
	teardown();
}
END_TEST

/*
 * BDP-FC: a base RTT of 600 ns at 100 Gb/s over 4,096-byte packets
 * (327,680 ps each) caps the window at ceil(600,000 / 327,680) = 2
 * packets, and A asks for an ACK every packet (half the window). Each
 * ACK is back 26,880 ps (10 ns, 6,880 ps, 10 ns) after its packet's tail
 * left, while the next packet is still on the wire, so the window of 2
 * never stalls: the WRITE takes write_64k_closed_form's 5,376,000 ps,
 * with 16 ACKs and never more than 2 PSNs unacknowledged. A base RTT of
 * 1 ps makes the window 1 packet: each packet waits for the ACK of the
 * one before, 5,349,120 ps of packets and 16 x 26,880 = 5,779,200 ps.
 */
START_TEST(irn_bdp_cap)
{
	struct ibfs_hca_irn_cfg c = IRN_PAPER;
	struct ibfs_wc wc;

	c.base_rtt = 600 * IBFS_NS;
	IRN = &c;
	setup(0);
	post(&A, 2, IBFS_WR_RDMA_WRITE, 1000, 65536, &B, 3000);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), 5376000);
	ck_assert_uint_eq(P.h[1]->st.acks, 16);
	ck_assert_uint_eq(eth.inflight_max, 2);
	ck_assert_mem_eq(B.buf + 3000, A.buf + 1000, 65536);
	teardown();
	c.base_rtt = 1;
	setup(0);
	IRN = NULL;
	post(&A, 2, IBFS_WR_RDMA_WRITE, 1000, 65536, &B, 3000);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), ser(rwire(16, 4096) + 15 * rwire(0, 4096)) +
					 16 * (PROP + ser(ACK_WIRE) + PROP));
	ck_assert_uint_eq(now(), 5779200);
	ck_assert_uint_eq(eth.inflight_max, 1);
	teardown();
}
END_TEST

START_TEST(irn_set_recovery_errors)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal"};

	IRN = &IRN_PAPER;
	setup(0);
	IRN = NULL;
	ck_assert_int_eq(ibfs__hca_recovery(P.h[0]), IBFS_HCA_RECOVERY_IRN);
	/* Too late: the HCA has a QP. */
	ck_assert_int_eq(ibfs__hca_set_recovery(P.h[0],
						IBFS_HCA_RECOVERY_GBN, NULL),
			 -1);
	teardown();
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	/* InfiniBand keeps go-back-N; an unknown kind is refused. */
	ck_assert_int_eq(ibfs__hca_recovery(P.h[0]), IBFS_HCA_RECOVERY_GBN);
	ck_assert_int_eq(ibfs__hca_set_recovery(P.h[0],
						IBFS_HCA_RECOVERY_IRN, NULL),
			 -1);
	ck_assert_int_eq(ibfs__hca_set_recovery(
				 P.h[0], (enum ibfs_hca_recovery)2, NULL),
			 -1);
	ck_assert_int_eq(ibfs__hca_set_link(P.h[0], IBFS_HCA_LINK_ROCE, 0, 0),
			 0);
	/* The defaults: the paper's timeouts, no BDP cap. */
	ck_assert_int_eq(ibfs__hca_set_recovery(P.h[0],
						IBFS_HCA_RECOVERY_IRN, NULL),
			 0);
	ck_assert_uint_eq(P.h[0]->irn->rto_low, 100 * IBFS_US);
	ck_assert_uint_eq(P.h[0]->irn->rto_high, 320 * IBFS_US);
	ck_assert_uint_eq(P.h[0]->irn->rto_n, 3);
	ck_assert_uint_eq(P.h[0]->irn->base_rtt, 0);
	ck_assert_int_eq(ibfs__hca_set_recovery(P.h[0],
						IBFS_HCA_RECOVERY_GBN, NULL),
			 0);
	ck_assert_ptr_null(P.h[0]->irn);
	ibfs__hca_pair_free(&P);
}
END_TEST

static Suite *roce_irn_suite(void)
{
	Suite *s = suite_create("roce_irn");
	TCase *tc = tcase_create("roce_irn");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, irn_lossy_every_7th);
	tcase_add_test(tc, irn_lossy_every_5th);
	tcase_add_test(tc, irn_lossy_periods);
	tcase_add_test(tc, irn_resends_only_the_lost_packet);
	tcase_add_test(tc, irn_resends_one_where_gbn_resends_12);
	tcase_add_test(tc, irn_tail_loss_rto_low);
	tcase_add_test(tc, irn_tail_loss_rto_high);
	tcase_add_test(tc, irn_read_response_lost);
	tcase_add_test(tc, irn_bdp_cap);
	tcase_add_test(tc, irn_set_recovery_errors);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(roce_irn_suite)
