/* SPDX-License-Identifier: MIT */
/*
 * The HCA port's transmit scheduler (tx_sched.c): many QPs on one port share
 * the link packet by packet, round robin in the order they got work, and
 * a QP that gets work later joins at the tail. Two HCAs back to back with
 * the `ideal` profile (no HCA delays), so packet start times follow from
 * the link alone: 4x EDR carries 100 Gb/s, 80 ps a byte; the 2 m cable
 * takes 10 ns. Wire sizes (IBA 7.7, 9.2-9.4): WRITE First LRH 8 + BTH 12
 * + RETH 16 + payload + ICRC 4 + VCRC 2, Middle and Last without RETH,
 * ACK 8 + 12 + AETH 4 + 4 + 2; a receiver frees a packet's buffer with a
 * 6-byte flow-control packet first (IBA 7.9.4.2).
 */
#include "check_common.h"

#include <string.h>

#include "hca/hca_int.h"
#include "hca/pair.h"

#define PROP (10 * IBFS_NS)
#define MTU 2048
#define FIRST (MTU + 42)
#define MIDDLE (MTU + 26)
#define FCP 6
#define ACK_BYTES 30
#define MAXQ 64
#define MSG (3 * MTU)

static ibfs_time_t ser(uint64_t bytes)
{
	return bytes * 80;
}

static struct ibfs_hca_pair X;
static struct ibfs_hca_end rq[MAXQ], rs[MAXQ];

/* What HCA 0 sends, in order. */
static struct {
	uint32_t dqp[3 * MAXQ + 8], psn[3 * MAXQ + 8];
	ibfs_time_t start[3 * MAXQ + 8];
	int n;
} T;

static void on_tx(void *ctx, const struct ibfs_port *out,
		  const struct ibfs_packet *p, ibfs_time_t start)
{
	(void)ctx;
	if (out->dev != &X.h[0]->dev || p->kind != IBFS_PKT_DATA)
		return;
	ck_assert_int_lt(T.n, 3 * MAXQ + 8);
	T.dqp[T.n] = p->dest_qp;
	T.psn[T.n] = p->psn;
	T.start[T.n++] = start;
}

static ibfs_time_t done_at[MAXQ];

static void on_cqe(void *arg, struct ibfs_hca_cq *cq)
{
	int q = (int)(intptr_t)arg;
	struct ibfs_wc wc;
	ck_assert_int_eq(ibfs_poll_cq(&cq->pub, 1, &wc), 1);
	ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
	ck_assert_uint_eq(wc.wr_id, (uint64_t)q);
	ck_assert_uint_eq(done_at[q], 0);
	done_at[q] = X.f->eq.now;
}

static struct ibfs_observer obs = {.on_tx = on_tx};

/*
 * nq QPs on `vls` data VLs: QP q on SL (and VL) sl[q], or q mod vls when
 * sl is NULL.
 */
static void setup_sls(int nq, int vls, const uint8_t *sl)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg c = {.mtu = 4096, .data_mode = 1,
				      .data_vls = vls};
	ck_assert_msg(ibfs__hca_pair_new(&X, &c, &d) == 0, "%s", d.msg);
	memset(&T, 0, sizeof(T));
	memset(done_at, 0, sizeof(done_at));
	obs.next = NULL;
	ibfs__fabric_observe(X.f, &obs);
	struct ibfs_qp_cap cap = {.max_send_wr = 4, .max_recv_wr = 4,
				  .max_send_sge = 1, .max_recv_sge = 1};
	struct ibfs_hca_conn cn = {.mtu = IBFS_MTU_2048, .timeout = 14,
				   .retry_cnt = 7, .rnr_retry = 7,
				   .rd_atomic = 1};
	for (int q = 0; q < nq; q++) {
		cn.sl = sl ? sl[q] : (uint8_t)(q % vls);
		ck_assert_int_eq(ibfs__hca_end_open(&rq[q], X.h[0],
						    IBFS_QPT_RC, MSG, &cap, 8),
				 0);
		ck_assert_int_eq(ibfs__hca_end_open(&rs[q], X.h[1],
						    IBFS_QPT_RC, MSG, &cap, 8),
				 0);
		ck_assert_int_eq(ibfs__hca_end_connect(&rq[q], 2,
				 rs[q].qp->qp_num, &cn), 0);
		ck_assert_int_eq(ibfs__hca_end_connect(&rs[q], 1,
				 rq[q].qp->qp_num, &cn), 0);
		for (int k = 0; k < MSG; k++)
			rq[q].buf[k] = (uint8_t)(q * 31 + k);
		ibfs__cq_set_notify(rq[q].scq, on_cqe, (void *)(intptr_t)q);
	}
}

static void setup_vls(int nq, int vls)
{
	setup_sls(nq, vls, NULL);
}

static void setup(int nq)
{
	setup_vls(nq, 1);
}

static void teardown(int nq)
{
	for (int q = 0; q < nq; q++) {
		ibfs__hca_end_close(&rq[q]);
		ibfs__hca_end_close(&rs[q]);
	}
	ibfs__hca_pair_free(&X);
}

static void post_write(int q)
{
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)rq[q].buf,
			      .length = MSG, .lkey = rq[q].mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = (uint64_t)q, .sg_list = &sg,
				  .num_sge = 1, .opcode = IBFS_WR_RDMA_WRITE,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)rs[q].buf;
	wr.wr.rdma.rkey = rs[q].mr->rkey;
	struct ibfs_send_wr *bad;
	ck_assert_int_eq(ibfs_post_send(rq[q].qp, &wr, &bad), 0);
}

/*
 * nq QPs each write 3 packets at time 0: the port sends the first packet
 * of every QP in posting order, then the second ones, then the last.
 * Before the first ACK comes back nothing else uses the link, so the
 * first two rounds go back to back; each last packet's ACK follows the
 * FCP for that packet on the way back.
 */
static void round_robin(int nq)
{
	setup(nq);
	for (int q = 0; q < nq; q++)
		post_write(q);
	ibfs__direct_exec_drain(&X.dx);
	ck_assert_int_eq(T.n, 3 * nq);
	for (int r = 0; r < 3; r++)
		for (int q = 0; q < nq; q++) {
			int i = r * nq + q;
			ck_assert_uint_eq(T.dqp[i], rs[q].qp->qp_num);
			ck_assert_uint_eq(T.psn[i], (uint32_t)r);
			if (r < 2)
				ck_assert_uint_eq(T.start[i],
						  ser((uint64_t)(r ? nq : q) *
							      FIRST +
						      (uint64_t)(r ? q : 0) *
							      MIDDLE));
		}
	/* QP q's last packet starts after 2nq + q packets and any FCPs
	 * HCA 0 sent for the ACKs already back (at most q of them). */
	for (int q = 0; q < nq; q++) {
		ibfs_time_t lo = ser((uint64_t)nq * FIRST +
				     (uint64_t)(nq + q + 1) * MIDDLE) +
				 PROP + ser(FCP) + ser(ACK_BYTES) + PROP;
		ck_assert_uint_ge(done_at[q], lo);
		ck_assert_uint_le(done_at[q], lo + ser((uint64_t)q * FCP));
		ck_assert_mem_eq(rs[q].buf, rq[q].buf, MSG);
	}
	ck_assert_uint_eq(done_at[0],
			  ser((uint64_t)nq * FIRST + (uint64_t)(nq + 1) *
								 MIDDLE) +
				  2 * PROP + ser(FCP + ACK_BYTES));
	ck_assert_uint_eq(X.h[0]->st.tx_pkts, 3 * (uint64_t)nq);
	ck_assert_uint_eq(X.h[1]->st.acks, (uint64_t)nq);
	teardown(nq);
}

START_TEST(round_robin_5)
{
	round_robin(5);
}
END_TEST

START_TEST(round_robin_64)
{
	round_robin(64);
}
END_TEST

/*
 * QPs 0 and 1 write at 0; QP 2 posts while QP 0's first packet is on
 * the wire. Then QP 0 has just sent and waits at the tail behind QP 1,
 * and QP 2 joins behind QP 0: 0 1 0 2 1 0 2 1 2.
 */
START_TEST(late_qp_joins_at_tail)
{
	setup(3);
	post_write(0);
	post_write(1);
	ibfs__direct_exec_advance(&X.dx, ser(FIRST) / 2);
	post_write(2);
	ibfs__direct_exec_drain(&X.dx);
	static const int order[9] = {0, 1, 0, 2, 1, 0, 2, 1, 2};
	ck_assert_int_eq(T.n, 9);
	for (int i = 0; i < 9; i++)
		ck_assert_msg(T.dqp[i] == rs[order[i]].qp->qp_num,
			      "packet %d went to QP %u, not QP %d's", i,
			      T.dqp[i], order[i]);
	/* QP 2's first packet starts after 0.1, 1.1 and 0.2. */
	ck_assert_uint_eq(T.start[3], ser(2 * FIRST + MIDDLE));
	for (int q = 0; q < 3; q++)
		ck_assert_mem_eq(rs[q].buf, rq[q].buf, MSG);
	teardown(3);
}
END_TEST

/*
 * A VL without credits holds its packet, not the port: VL 0's buffer at
 * HCA 1 takes one 2,090-byte packet (33 credits). QP 0 (VL 0) writes at
 * 0; its first packet goes, its second is built at ser(FIRST) and held
 * until the FCP comes back (ser(FIRST) + 2 PROP + ser(FCP)). QP 1 (VL 1),
 * which posted while the first was on the wire, sends at ser(FIRST), and
 * the held packet follows it at 2 ser(FIRST). Before, the held packet
 * kept the port: QP 1 waited for VL 0's credits.
 */
START_TEST(vl_without_credits_does_not_stop_another)
{
	setup_vls(2, 2);
	struct ibfs_port *a = X.h[0]->hp[1].port, *b = X.h[1]->hp[1].port;
	const uint32_t blocks = (FIRST + 63) / 64;

	ck_assert_uint_eq(blocks, 33);
	b->buf_cap[0] = blocks;
	a->vls[0].credits = (int32_t)blocks;
	post_write(0);
	ibfs__direct_exec_advance(&X.dx, ser(FIRST) / 2);
	post_write(1);
	ibfs__direct_exec_drain(&X.dx);
	ck_assert_int_eq(T.n, 6);
	ck_assert_uint_eq(T.dqp[0], rs[0].qp->qp_num);
	ck_assert_uint_eq(T.dqp[1], rs[1].qp->qp_num);
	ck_assert_uint_eq(T.psn[1], 0);
	ck_assert_uint_eq(T.start[1], ser(FIRST));
	ck_assert_uint_eq(T.dqp[2], rs[0].qp->qp_num);
	ck_assert_uint_eq(T.psn[2], 1);
	ck_assert_uint_eq(T.start[2], 2 * ser(FIRST));
	for (int q = 0; q < 2; q++) {
		ck_assert_uint_gt(done_at[q], 0);
		ck_assert_mem_eq(rs[q].buf, rq[q].buf, MSG);
	}
	teardown(2);
}
END_TEST

/* A UD SEND of len bytes from ud[0] to ud[1] on service level sl. */
static void ud_send(struct ibfs_hca_end *ud, uint64_t id, uint8_t sl,
		    uint32_t len)
{
	struct ibfs_ah_attr aa = {.dlid = 2, .sl = sl, .port_num = 1};
	struct ibfs_ah *ah = ibfs_create_ah(ud[0].pd, &aa);
	ck_assert_ptr_nonnull(ah);
	struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)ud[0].buf,
			      .length = len, .lkey = ud[0].mr->lkey};
	struct ibfs_send_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBFS_WR_SEND,
				  .send_flags = IBFS_SEND_SIGNALED};
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = ud[1].qp->qp_num;
	wr.wr.ud.remote_qkey = 0x11;
	struct ibfs_send_wr *bad;
	ck_assert_int_eq(ibfs_post_send(ud[0].qp, &wr, &bad), 0);
	ibfs_destroy_ah(ah);
}

/*
 * A UD QP's packets leave in order whatever VL each takes: with VL 0's
 * buffer at HCA 1 taking one packet, SENDs on SL 0, SL 0 and SL 1 go in
 * that order, the third behind the second, which waits for VL 0's FCP,
 * although VL 1 has credits (UD packets: LRH 8 + BTH 12 + DETH 8 +
 * payload + ICRC 4 + VCRC 2).
 */
START_TEST(ud_qp_keeps_its_order_across_vls)
{
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg c = {.mtu = 2048, .data_mode = 1,
				      .data_vls = 2};
	struct ibfs_hca_end ud[2];
	struct ibfs_qp_cap cap = {.max_send_wr = 4, .max_recv_wr = 4,
				  .max_send_sge = 1, .max_recv_sge = 1};
	const uint32_t len = 2048, wire = 8 + 12 + 8 + len + 4 + 2;

	ck_assert_msg(ibfs__hca_pair_new(&X, &c, &d) == 0, "%s", d.msg);
	memset(&T, 0, sizeof(T));
	obs.next = NULL;
	ibfs__fabric_observe(X.f, &obs);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(ibfs__hca_end_open(&ud[i], X.h[i], IBFS_QPT_UD,
						    len + 40, &cap, 8), 0);
		ck_assert_int_eq(ibfs__hca_end_connect_ud(&ud[i], 0x11), 0);
	}
	for (int k = 0; k < 3; k++) {
		struct ibfs_sge sg = {.addr = (uint64_t)(uintptr_t)ud[1].buf,
				      .length = len + 40,
				      .lkey = ud[1].mr->lkey};
		struct ibfs_recv_wr wr = {.wr_id = (uint64_t)k,
					  .sg_list = &sg, .num_sge = 1};
		struct ibfs_recv_wr *bad;
		ck_assert_int_eq(ibfs_post_recv(ud[1].qp, &wr, &bad), 0);
	}
	struct ibfs_port *a = X.h[0]->hp[1].port, *b = X.h[1]->hp[1].port;
	const uint32_t blocks = (wire + 63) / 64;
	b->buf_cap[0] = blocks;
	a->vls[0].credits = (int32_t)blocks;
	ud_send(ud, 0, 0, len);
	ud_send(ud, 1, 0, len);
	ud_send(ud, 2, 1, len);
	ibfs__direct_exec_drain(&X.dx);
	ck_assert_int_eq(T.n, 3);
	ck_assert_uint_eq(T.start[0], 0);
	/* The second waits for VL 0's credits, the third for the second. */
	ck_assert_uint_eq(T.start[1], ser(wire) + 2 * PROP + ser(FCP));
	ck_assert_uint_eq(T.start[2], T.start[1] + ser(wire));
	for (int i = 0; i < 2; i++)
		ibfs__hca_end_close(&ud[i]);
	ibfs__hca_pair_free(&X);
}
END_TEST

/*
 * VL arbitration at the HCA port (IBA 7.6.9), as at a switch output
 * (fabric/vl_arbiter.c): the arbiter picks the data VL, and within a VL
 * the QPs take turns. QP q writes 3 packets (PSN 0, 1, 2: WRITE First of
 * FIRST wire bytes, then Middle and Last of MIDDLE) on SL and VL sl[q],
 * all posted at 0 in order of q; HCA 0 then sends them back to back until
 * ACKs come back (nothing else uses its link). want[i] is the QP of the
 * i-th packet; its PSN follows from how many of that QP's came before.
 */
static void vl_order(int nq, const uint8_t *sl,
		     const struct ibfs_vlarb_entry *high, int nhigh,
		     const struct ibfs_vlarb_entry *low, int nlow,
		     uint8_t limit, const int *want)
{
	setup_sls(nq, 2, sl);
	if (high || low)
		ck_assert_int_eq(ibfs__hca_set_vlarb(X.h[0], 1, high, nhigh,
						     low, nlow, limit), 0);
	for (int q = 0; q < nq; q++)
		post_write(q);
	ibfs__direct_exec_drain(&X.dx);
	ck_assert_int_eq(T.n, 3 * nq);
	uint32_t sent[MAXQ] = {0};
	uint64_t bytes = 0;
	for (int i = 0; i < 3 * nq; i++) {
		int q = want[i];
		ck_assert_msg(T.dqp[i] == rs[q].qp->qp_num &&
				      T.psn[i] == sent[q],
			      "packet %d: QP %u PSN %u, want QP %d's PSN %u",
			      i, T.dqp[i], T.psn[i], q, sent[q]);
		/* Back to back while no last packet has gone (no ACK). */
		if (i < nq)
			ck_assert_uint_eq(T.start[i], ser(bytes));
		bytes += sent[q]++ ? MIDDLE : FIRST;
	}
	for (int q = 0; q < nq; q++) {
		ck_assert_uint_gt(done_at[q], 0);
		ck_assert_mem_eq(rs[q].buf, rq[q].buf, MSG);
	}
	teardown(nq);
}

/*
 * Default tables (one entry of weight 1, 64 bytes, per data VL): each
 * packet uses up its entry, so the VLs alternate while both have
 * packets. QPs 0-2 on VL 0, QP 3 on VL 1: VL 1 sends every other packet
 * (QP 3's three packets 2nd, 4th and 6th), not one in four as when QPs
 * took turns whatever their VL.
 */
START_TEST(default_tables_alternate_vls)
{
	static const uint8_t sl[4] = {0, 0, 0, 1};
	static const int want[12] = {0, 3, 1, 3, 2, 3, 0, 1, 2, 0, 1, 2};
	vl_order(4, sl, NULL, 0, NULL, 0, 0, want);
}
END_TEST

/*
 * Low table 0:64, 1:192 (4,096 and 12,288 bytes). Even QPs on VL 0, odd
 * on VL 1, 12 packets each, each VL's QPs in turn. An entry sends while
 * what remains of its weight is above 0, a packet whole (the remainder
 * going negative), then the table moves on with the next entry's full
 * weight (fabric/vl_arbiter.c):
 *   VL 0: 4096 - 2 x 2090 = -84             -> 2 packets (QPs 0, 2)
 *   VL 1: 12288 - 4 x 2090 - 2 x 2074 = -220 -> 6 (1, 3, 5, 7, 1, 3)
 *   VL 0: again -84                          -> 2 (4, 6)
 *   VL 1: 12288 - 6 x 2074 = -156            -> 6 (5, 7, 1, 3, 5, 7)
 * and VL 0's last 8 alone: VL 1 has 3/4 of the packets while both send.
 */
START_TEST(low_weights_share_the_link)
{
	static const struct ibfs_vlarb_entry low[2] = {{0, 64}, {1, 192}};
	static const int want[24] = {0, 2, 1, 3, 5, 7, 1, 3, 4, 6, 5, 7,
				     1, 3, 5, 7, 0, 2, 4, 6, 0, 2, 4, 6};
	ck_assert_int_eq(4096 - 2 * FIRST, -84);
	ck_assert_int_eq(12288 - 4 * FIRST - 2 * MIDDLE, -220);
	ck_assert_int_eq(12288 - 6 * MIDDLE, -156);
	vl_order(8, NULL, NULL, 0, low, 2, 255, want);
}
END_TEST

/*
 * VL 1 in the high-priority table, limit 255 (no bound): it takes every
 * turn while it has packets, whatever its weight (1: each packet uses up
 * the entry, and the table comes back to it), then VL 0 goes.
 */
START_TEST(high_priority_goes_first)
{
	static const struct ibfs_vlarb_entry high[1] = {{1, 1}};
	static const struct ibfs_vlarb_entry low[1] = {{0, 1}};
	static const int want[12] = {1, 3, 1, 3, 1, 3, 0, 2, 0, 2, 0, 2};
	vl_order(4, NULL, high, 1, low, 1, 255, want);
}
END_TEST

/*
 * LimitOfHighPriority 0: one high-priority packet, then one low-priority
 * packet that is ready goes (its count of high-priority bytes restarts),
 * so VL 1 (high, weight 255) and VL 0 (low) alternate, VL 1 first.
 */
START_TEST(high_limit_zero_lets_low_through)
{
	static const struct ibfs_vlarb_entry high[1] = {{1, 255}};
	static const struct ibfs_vlarb_entry low[1] = {{0, 1}};
	static const int want[12] = {1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2};
	vl_order(4, NULL, high, 1, low, 1, 0, want);
}
END_TEST

/*
 * A VL whose packet waits for credits is not ready, and the arbiter
 * serves another: low table 0:64, 1:64 (4,096 bytes each, two packets a
 * turn), VL 0's buffer at HCA 1 taking one packet (33 credits), QP 0 on
 * VL 0 and QP 1 on VL 1 writing at 0. QP 0's first packet goes; at
 * ser(FIRST) VL 0's entry still has 2,006 bytes, so QP 0's second packet
 * is built, but VL 0's credits come back only with the FCP (2 PROP +
 * ser(FCP) later): it is held, and VL 1 sends QP 1's first packet then.
 */
START_TEST(held_vl_lets_the_arbiter_serve_another)
{
	static const struct ibfs_vlarb_entry low[2] = {{0, 64}, {1, 64}};
	setup_vls(2, 2);
	struct ibfs_port *a = X.h[0]->hp[1].port, *b = X.h[1]->hp[1].port;
	b->buf_cap[0] = (FIRST + 63) / 64;
	a->vls[0].credits = (int32_t)b->buf_cap[0];
	ck_assert_int_eq(ibfs__hca_set_vlarb(X.h[0], 1, NULL, 0, low, 2, 255),
			 0);
	post_write(0);
	post_write(1);
	ibfs__direct_exec_advance(&X.dx, ser(FIRST) + 1);
	ck_assert_int_eq(T.n, 2);
	ck_assert_uint_eq(T.dqp[0], rs[0].qp->qp_num);
	ck_assert_uint_eq(T.dqp[1], rs[1].qp->qp_num);
	ck_assert_uint_eq(T.start[1], ser(FIRST));
	ck_assert_uint_eq(X.h[0]->hp[1].held_mask, 1);
	ibfs__direct_exec_drain(&X.dx);
	ck_assert_int_eq(T.n, 6);
	ck_assert_uint_eq(X.h[0]->hp[1].held_mask, 0);
	for (int q = 0; q < 2; q++) {
		ck_assert_uint_gt(done_at[q], 0);
		ck_assert_mem_eq(rs[q].buf, rq[q].buf, MSG);
	}
	teardown(2);
}
END_TEST

/* The setter refuses bad ports and tables, as the switch's does. */
START_TEST(set_vlarb_checks)
{
	static const struct ibfs_vlarb_entry ok[1] = {{1, 1}};
	static const struct ibfs_vlarb_entry vl15[1] = {{15, 1}};
	setup_vls(1, 2);
	ck_assert_int_eq(ibfs__hca_set_vlarb(X.h[0], 0, NULL, 0, ok, 1, 0),
			 -1);
	ck_assert_int_eq(ibfs__hca_set_vlarb(X.h[0], 2, NULL, 0, ok, 1, 0),
			 -1);
	ck_assert_int_eq(ibfs__hca_set_vlarb(X.h[0], 1, vl15, 1, ok, 1, 0),
			 -1);
	ck_assert_int_eq(ibfs__hca_set_vlarb(X.h[0], 1, ok, 65, ok, 1, 0),
			 -1);
	ck_assert_int_eq(X.h[0]->hp[1].arb.nlow, 2);
	ck_assert_int_eq(X.h[0]->hp[1].arb.limit, 255);
	ck_assert_int_eq(ibfs__hca_set_vlarb(X.h[0], -1, ok, 1, ok, 1, 9),
			 0);
	ck_assert_int_eq(X.h[0]->hp[1].arb.nhigh, 1);
	ck_assert_int_eq(X.h[0]->hp[1].arb.limit, 9);
	teardown(1);
}
END_TEST

static Suite *hca_sched_suite(void)
{
	Suite *s = suite_create("hca_sched");
	TCase *tc = tcase_create("sched");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, round_robin_5);
	tcase_add_test(tc, round_robin_64);
	tcase_add_test(tc, late_qp_joins_at_tail);
	tcase_add_test(tc, vl_without_credits_does_not_stop_another);
	tcase_add_test(tc, ud_qp_keeps_its_order_across_vls);
	tcase_add_test(tc, default_tables_alternate_vls);
	tcase_add_test(tc, low_weights_share_the_link);
	tcase_add_test(tc, high_priority_goes_first);
	tcase_add_test(tc, high_limit_zero_lets_low_through);
	tcase_add_test(tc, held_vl_lets_the_arbiter_serve_another);
	tcase_add_test(tc, set_vlarb_checks);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(hca_sched_suite)
