/* SPDX-License-Identifier: MIT */
/*
 * Two HCAs writing to each other at the same time, back to back and
 * through a switch, with the `ideal` profile (no HCA delays). Each HCA has
 * a requester QP writing to the other and a responder QP taking the
 * other's writes, so one port carries its own data and the ACKs for the
 * peer's data: an ACK the responder queues while the port is busy must go
 * as soon as the port frees (a lost wake-up of the port's scheduler once
 * left the ACK of a last packet to the 67 ms local ACK timeout).
 *
 * Timing from first principles: 4x EDR carries 100 Gb/s, 80 ps a byte; a
 * 2 m cable takes 10 ns. Wire sizes from IBA 7.7 and 9.2-9.4: WRITE First
 * LRH 8 + BTH 12 + RETH 16 + payload + ICRC 4 + VCRC 2, Middle and Last
 * without RETH, ACK 8 + 12 + AETH 4 + 4 + 2, flow-control packet 6 bytes
 * (IBA 7.9.4.2). The switch cuts through: a header goes on ser(LRH) + P +
 * L after it started (L = 100 ns routing latency, see check_switch.c).
 */
#include "check_common.h"

#include <stdio.h>
#include <string.h>

#include "hca/hca_int.h"
#include "hca/pair.h"
#include "switch/switch.h"

#define PROP (10 * IBFS_NS)
#define SW_LAT (100 * IBFS_NS)
#define MTU 2048
#define FCP 6
#define ACK_BYTES (8 + 12 + 4 + 4 + 2)
#define NMSG 6
#define MAXMSG (6 * MTU)
#define BUFSZ (NMSG * MAXMSG)

static ibfs_time_t ser(uint64_t bytes)
{
	return bytes * 80;
}

/* Wire bytes of the data packets of one WRITE of len bytes (len > 0). */
static uint64_t write_wire(uint32_t len)
{
	uint32_t n = (len + MTU - 1) / MTU;
	return (uint64_t)len + 26u * n + 16; /* RETH on the first only */
}

/* Packets asking for an ACK in a WRITE of n packets: every ack_every-th
 * and the last (the count restarts with each message). */
static uint32_t ack_reqs(uint32_t n, uint32_t every)
{
	return (n + every - 1) / every;
}

/* Either a cable or a two-port switch between HCA 0 and HCA 1. */
struct rig {
	struct ibfs_topology *t;
	struct ibfs_fabric *f;
	struct ibfs_switch *sw;
	struct ibfs_hca *h[2];
	struct ibfs_direct_exec dx;
	struct ibfs_hca_pair pair;
};

static struct rig R;

static void rig_make(int through_switch)
{
	struct ibfs_diag d;
	memset(&R, 0, sizeof(R));
	if (!through_switch) {
		struct ibfs_hca_pair_cfg c = {.mtu = 4096, .data_mode = 1};
		ck_assert_msg(ibfs__hca_pair_new(&R.pair, &c, &d) == 0, "%s",
			      d.msg);
		R.f = R.pair.f;
		R.h[0] = R.pair.h[0];
		R.h[1] = R.pair.h[1];
		return;
	}
	R.t = ibfs__topo_new("bidir");
	int s = ibfs__topo_add_node(R.t, "sw", IBFS_NODE_SWITCH, 2, 0, &d);
	ck_assert_int_ge(s, 0);
	R.t->nodes[s].latency = SW_LAT;
	int n[2];
	for (int i = 0; i < 2; i++) {
		char id[8];
		snprintf(id, sizeof(id), "h%d", i);
		n[i] = ibfs__topo_add_node(R.t, id, IBFS_NODE_HCA, 1, 0, &d);
		ck_assert_int_ge(n[i], 0);
		ck_assert_int_ge(ibfs__topo_add_link(R.t, n[i], 1, s, i + 1,
						     IBFS_SPEED_EDR, 4, 2000, 0,
						     &d), 0);
	}
	R.f = ibfs__fabric_new(R.t, 1, 1);
	ck_assert_ptr_nonnull(R.f);
	R.sw = ibfs__switch_create(R.f, s, &d);
	ck_assert_msg(R.sw != NULL, "%s", d.msg);
	ibfs__switch_set_lid(R.sw, 100);
	struct ibfs_exec ex = ibfs__direct_exec(&R.dx, &R.f->eq);
	for (int i = 0; i < 2; i++) {
		R.h[i] = ibfs__hca_create(R.f, n[i], "ideal", ex, &d);
		ck_assert_msg(R.h[i] != NULL, "%s", d.msg);
		ck_assert_int_eq(ibfs__hca_set_lid(R.h[i], 1,
						   (uint16_t)(i + 1), 0), 0);
		ck_assert_int_eq(ibfs__switch_set_lft(R.sw, (uint16_t)(i + 1),
						      (uint8_t)(i + 1)), 0);
	}
}

static void rig_free(void)
{
	if (!R.t) {
		ibfs__hca_pair_free(&R.pair);
		return;
	}
	for (int i = 0; i < 2; i++)
		ibfs__hca_free(R.h[i]);
	ibfs__switch_destroy(R.sw);
	ibfs__fabric_free(R.f);
	ibfs__topo_free(R.t);
}

/* HCA i: rq[i] writes to the peer's rs[1 - i]. */
static struct ibfs_hca_end rq[2], rs[2];
/* When each send completion of rq[i] became visible, in order. */
static ibfs_time_t done_at[2][NMSG];
static int ndone[2];

static void on_send_cqe(void *arg, struct ibfs_hca_cq *cq)
{
	int i = (int)(intptr_t)arg;
	struct ibfs_wc wc;
	while (ibfs_poll_cq(&cq->pub, 1, &wc) == 1) {
		ck_assert_int_eq(wc.status, IBFS_WC_SUCCESS);
		ck_assert_int_eq(wc.opcode, IBFS_WC_RDMA_WRITE);
		ck_assert_int_lt(ndone[i], NMSG);
		ck_assert_uint_eq(wc.wr_id, (uint64_t)ndone[i]);
		done_at[i][ndone[i]++] = R.f->eq.now;
	}
}

/*
 * Every transmission of the two HCAs' ports: the end of each AckReq
 * packet's arrival at the peer (cut-through: tail = start + ser(size) +
 * the path's propagation and switch latency), and for each ACK how long
 * after that arrival it started. The switch's output to an HCA carries
 * that HCA's traffic alone, so the computed arrival is exact up to the
 * flow-control packets the switch sends there.
 */
struct ack_watch {
	ibfs_time_t path;                 /* hop without serialisation */
	ibfs_time_t req_tail[2][256];     /* [requesting HCA][PSN] */
	uint8_t acked[2][256];
	ibfs_time_t max_lag;
	/* Work conservation: the end of HCA k's last transmission and the
	 * longest idle gap before one of its data packets. */
	ibfs_time_t tx_end[2], max_gap[2];
	uint32_t data_left[2];           /* data packets still to send */
	uint64_t bad;                     /* ACKs for no AckReq packet */
	struct ibfs_observer o;
};
static struct ack_watch W;

static void watch_tx(void *ctx, const struct ibfs_port *out,
		     const struct ibfs_packet *p, ibfs_time_t start)
{
	(void)ctx;
	int k = out->dev == &R.h[0]->dev ? 0 : out->dev == &R.h[1]->dev ? 1
									 : -1;
	if (k < 0 || p->kind != IBFS_PKT_DATA || p->psn >= 256)
		return;
	int is_req = (p->opcode & 0x1f) != IBFS_OP_ACK;
	if (is_req && W.data_left[k] && W.tx_end[k] &&
	    start - W.tx_end[k] > W.max_gap[k])
		W.max_gap[k] = start - W.tx_end[k];
	if (is_req && W.data_left[k])
		W.data_left[k]--;
	W.tx_end[k] = start + ser(p->wire_bytes);
	if ((p->opcode & 0x1f) == IBFS_OP_ACK) {
		/* HCA k acknowledges a request of HCA 1 - k. */
		ibfs_time_t t = W.req_tail[1 - k][p->psn];
		if (!t || W.acked[1 - k][p->psn]) {
			W.bad++;
			return;
		}
		W.acked[1 - k][p->psn] = 1;
		if (start - t > W.max_lag)
			W.max_lag = start - t;
	} else if (p->ack_req) {
		W.req_tail[k][p->psn] = start + ser(p->wire_bytes) + W.path;
	}
}

static void ends_open(void)
{
	struct ibfs_qp_cap cap = {.max_send_wr = 16, .max_recv_wr = 16,
				  .max_send_sge = 1, .max_recv_sge = 1};
	struct ibfs_hca_conn c = {.mtu = IBFS_MTU_2048, .timeout = 14,
				  .retry_cnt = 7, .rnr_retry = 7,
				  .rd_atomic = 1, .psn = 0};
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(ibfs__hca_end_open(&rq[i], R.h[i],
						    IBFS_QPT_RC, BUFSZ, &cap,
						    64), 0);
		ck_assert_int_eq(ibfs__hca_end_open(&rs[i], R.h[i],
						    IBFS_QPT_RC, BUFSZ, &cap,
						    64), 0);
		for (size_t k = 0; k < BUFSZ; k++)
			rq[i].buf[k] = (uint8_t)(k * (i ? 7 : 13) + i);
		ibfs__cq_set_notify(rq[i].scq, on_send_cqe,
				    (void *)(intptr_t)i);
		ndone[i] = 0;
	}
	for (int i = 0; i < 2; i++) {
		uint16_t peer = (uint16_t)(2 - i);
		ck_assert_int_eq(ibfs__hca_end_connect(&rq[i], peer,
				 rs[1 - i].qp->qp_num, &c), 0);
		ck_assert_int_eq(ibfs__hca_end_connect(&rs[i], peer,
				 rq[1 - i].qp->qp_num, &c), 0);
	}
}

static void ends_close(void)
{
	for (int i = 0; i < 2; i++) {
		ibfs__hca_end_close(&rq[i]);
		ibfs__hca_end_close(&rs[i]);
	}
}

static void post_writes(int i, const uint32_t *len)
{
	for (int k = 0; k < NMSG; k++) {
		struct ibfs_sge sg = {
			.addr = (uint64_t)(uintptr_t)(rq[i].buf + k * MAXMSG),
			.length = len[k], .lkey = rq[i].mr->lkey};
		struct ibfs_send_wr wr = {
			.wr_id = (uint64_t)k, .sg_list = &sg, .num_sge = 1,
			.opcode = IBFS_WR_RDMA_WRITE,
			.send_flags = IBFS_SEND_SIGNALED};
		wr.wr.rdma.remote_addr =
			(uint64_t)(uintptr_t)(rs[1 - i].buf + k * MAXMSG);
		wr.wr.rdma.rkey = rs[1 - i].mr->rkey;
		struct ibfs_send_wr *bad;
		ck_assert_int_eq(ibfs_post_send(rq[i].qp, &wr, &bad), 0);
	}
}

/* HCA 0 posts at 0, HCA 1 at `lag`; both post NMSG writes of len[]. */
static void run_bidir(int through_switch, ibfs_time_t lag, uint32_t every,
		      const uint32_t *len)
{
	rig_make(through_switch);
	ends_open();
	R.h[0]->ack_every = R.h[1]->ack_every = every;
	memset(&W, 0, sizeof(W));
	W.path = through_switch ? 2 * PROP + SW_LAT : PROP;
	W.o.on_tx = watch_tx;
	ibfs__fabric_observe(R.f, &W.o);
	uint32_t npkts = 0;
	for (int k = 0; k < NMSG; k++)
		npkts += (len[k] + MTU - 1) / MTU;
	W.data_left[0] = W.data_left[1] = npkts;
	post_writes(0, len);
	ibfs__direct_exec_advance(through_switch ? &R.dx : &R.pair.dx, lag);
	if (W.tx_end[1] < lag)
		W.tx_end[1] = lag;
	post_writes(1, len);
	ibfs__direct_exec_drain(through_switch ? &R.dx : &R.pair.dx);

	uint64_t data = 0, acks = 0, pkts = 0;
	for (int k = 0; k < NMSG; k++) {
		uint32_t n = (len[k] + MTU - 1) / MTU;
		data += write_wire(len[k]);
		acks += ack_reqs(n, every);
		pkts += n;
	}
	/* A hop: the header crosses the cable, or the cable, the switch
	 * and the second cable. */
	ibfs_time_t hop = through_switch ? ser(8) + PROP + SW_LAT + PROP :
					   PROP;
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(ndone[i], NMSG);
		for (int k = 0; k < NMSG; k++)
			ck_assert_mem_eq(rs[1 - i].buf + k * MAXMSG,
					 rq[i].buf + k * MAXMSG, len[k]);
		const struct ibfs_hca_stats *st = &R.h[i]->st;
		ck_assert_uint_eq(st->timeouts, 0);
		ck_assert_uint_eq(st->retransmits, 0);
		ck_assert_uint_eq(st->dropped, 0);
		/* Every AckReq answered by its own ACK: the ACK waits at
		 * most for one packet on the port, and AckReqs come at
		 * least `every` packets apart, so none coalesce. */
		ck_assert_uint_eq(st->acks, acks);
		ck_assert_uint_eq(st->tx_pkts, pkts + acks);
		uint32_t nacked = 0;
		for (int k = 0; k < 256; k++)
			nacked += W.acked[1 - i][k];
		ck_assert_uint_eq(nacked, acks);
		/*
		 * Bound: HCA i's port sends its data, its ACKs and at most
		 * one FCP per packet it receives, never idle while data is
		 * ready (ideal profile, credits never short here); the last
		 * packet's ACK then waits for at most one full packet and
		 * its FCPs on the peer's port, and crosses two hops with
		 * their serialisation.
		 */
		ibfs_time_t start = i ? lag : 0;
		ibfs_time_t bound = start +
				    ser(data + acks * ACK_BYTES +
					(pkts + acks) * FCP) +
				    ser(2 * (MTU + 42 + 2 * FCP)) + 2 * hop +
				    ser(26) + ser(ACK_BYTES);
		ck_assert_msg(done_at[i][NMSG - 1] <= bound,
			      "HCA %d last completion at %llu ps, bound %llu",
			      i, (unsigned long long)done_at[i][NMSG - 1],
			      (unsigned long long)bound);
	}
	/* Each ACK starts once the port has finished the packet it was
	 * sending and at most one more data packet (round robin between
	 * the two QPs), with a few flow-control packets. */
	ck_assert_uint_eq(W.bad, 0);
	for (int i = 0; i < 2; i++) {
		/* Data is always ready (ideal profile): the port never
		 * idles before its last data packet, but for flow-control
		 * packets between two packets. */
		ck_assert_uint_eq(W.data_left[i], 0);
		ck_assert_uint_le(W.max_gap[i], ser(2 * FCP));
	}
	ck_assert_uint_le(W.max_lag, ser(2 * (MTU + 42) + 4 * FCP));
	ends_close();
	rig_free();
}

static const uint32_t len_full[NMSG] = {
	4 * MTU, 4 * MTU, 4 * MTU, 4 * MTU, 4 * MTU, 4 * MTU};
/* Packet counts of 3 or 6 with AckReq every 3rd: AckReqs stay 3 packets
 * apart; short last packets keep at least half an MTU. */
static const uint32_t len_mixed[NMSG] = {
	6 * MTU - 1000, 3 * MTU, 3 * MTU - 600, 6 * MTU, 2 * MTU + 1024,
	3 * MTU - 4};

/* Runs run_bidir at every lag of B behind A from 0 to two MTUs' time in
 * steps of an eighth of an MTU's. */
static void run_lags(int through_switch, uint32_t every, const uint32_t *len)
{
	for (ibfs_time_t lag = 0; lag <= ser(2 * MTU); lag += ser(MTU / 8))
		run_bidir(through_switch, lag, every, len);
}

START_TEST(bidir_b2b)
{
	run_lags(0, 2, len_full);
}
END_TEST

START_TEST(bidir_b2b_mixed)
{
	run_lags(0, 3, len_mixed);
}
END_TEST

START_TEST(bidir_switch)
{
	run_lags(1, 2, len_full);
}
END_TEST

START_TEST(bidir_switch_mixed)
{
	run_lags(1, 3, len_mixed);
}
END_TEST

static Suite *hca_bidir_suite(void)
{
	Suite *s = suite_create("hca_bidir");
	TCase *tc = tcase_create("bidir");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, bidir_b2b);
	tcase_add_test(tc, bidir_b2b_mixed);
	tcase_add_test(tc, bidir_switch);
	tcase_add_test(tc, bidir_switch_mixed);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(hca_bidir_suite)
