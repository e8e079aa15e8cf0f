/* SPDX-License-Identifier: MIT */
/*
 * The HCA as a RoCEv2 RNIC (src/hca/roce_link.c): two HCAs with the
 * `ideal` profile (no HCA delays) back to back over one Ethernet link of
 * 100 Gb/s (the 4x EDR data rate: n bytes take n x 80 ps) and 2 m (10
 * ns), under a test flow ops that never pauses and, when asked, drops
 * every Nth frame that reaches a port (as a lossy switch's full buffer
 * would). Without drops every completion time follows in closed form from
 * the frames' wire bytes (fabric/eth.h):
 *   preamble and SFD 8 + Ethernet header 14 + IPv4 20 + UDP 8 + BTH 12
 *   + extension headers + payload + pad to 4 + ICRC 4 + FCS 4 + gap 12,
 * i.e. 82 bytes + extension headers + padded payload (IEEE 802.3, RFC
 * 791, RFC 768, IBA Annex A17). No flow-control packet crosses the link,
 * so an ACK leaves as soon as the responder has the request's last byte.
 * With drops, the IBA transport recovers every lost frame (IBA 9.7.5:
 * the PSN sequence error NAK, go-back-N, the ACK timeout), or IRN's
 * selective repeat does (src/hca/rc_irn.c: Mittal et al., SIGCOMM 2018,
 * section 3): the IRN cases below count the packets sent again and time
 * its two timeouts.
 */
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

static ibfs_time_t ser(uint64_t bytes)
{
	return bytes * 80;
}

/* Wire bytes of a RoCEv2 frame with `ext` header bytes and a payload. */
static uint64_t rwire(uint32_t ext, uint32_t payload)
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

static int eth_may_send(const struct ibfs_port *out,
			const struct ibfs_packet *p)
{
	(void)out;
	(void)p;
	return 1;
}

static void eth_on_send(struct ibfs_port *out, const struct ibfs_packet *p)
{
	eth.vls_sent |= 1u << p->vl;
	if (A.qp && out == ibfs__fabric_port(P.f, 0, 1)) {
		const struct ibfs_hca_qp *q = (const struct ibfs_hca_qp *)A.qp;
		uint32_t n = (uint32_t)ibfs__psn_cmp(q->next_psn, q->una_psn);

		if (n > eth.inflight_max)
			eth.inflight_max = n;
	}
}

static int eth_on_arrive(struct ibfs_port *in, const struct ibfs_packet *p)
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

static void eth_on_free(struct ibfs_port *in, int vl, uint32_t blocks)
{
	(void)in;
	(void)vl;
	(void)blocks;
}

static int eth_on_tx_idle(struct ibfs_port *out)
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

static void open_end(struct ibfs_hca_end *e, struct ibfs_hca *h)
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
static void setup(unsigned drop_every)
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

static void teardown(void)
{
	ibfs__hca_pair_free(&P);
	free(A.buf);
	free(B.buf);
	memset(&A, 0, sizeof(A));
	memset(&B, 0, sizeof(B));
}

static uint64_t raddr(struct ibfs_hca_end *e, uint32_t off)
{
	return (uint64_t)(uintptr_t)(e->buf + off);
}

static void post(struct ibfs_hca_end *e, uint64_t id, enum ibfs_wr_opcode op,
		 uint32_t off, uint32_t len, struct ibfs_hca_end *r,
		 uint32_t roff)
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

static void post_recv(struct ibfs_hca_end *e, uint64_t id, uint32_t off,
		      uint32_t len)
{
	struct ibfs_sge sg = {.addr = raddr(e, off), .length = len,
			      .lkey = e->mr->lkey};
	struct ibfs_recv_wr wr = {.wr_id = id, .sg_list = &sg, .num_sge = 1};
	struct ibfs_recv_wr *bad = NULL;

	ck_assert_int_eq(ibfs_post_recv(e->qp, &wr, &bad), 0);
}

static void wait1(struct ibfs_cq *cq, struct ibfs_wc *wc)
{
	ck_assert_int_eq(ibfs_wait_cq(cq, 1, wc), 1);
	ck_assert_int_eq(wc->status, IBFS_WC_SUCCESS);
}

static ibfs_time_t now(void)
{
	return P.f->eq.now;
}

/* The arithmetic of the header comment, checked once against eth.c. */
START_TEST(frame_sizes)
{
	setup(0);
	struct ibfs_hca *h = P.h[0];
	struct ibfs_packet *p = ibfs__hca_packet(h, 4096);

	ck_assert_ptr_nonnull(p);
	p->xh = IBFS_XH_RETH;
	h->lops->frame(&h->hp[1], p, 2, 3, 1, 0x8001);
	/* 4096 + RETH 16 + 82 = 4194; path bits ignored; SL 3 on
	 * priority 3; the frame without preamble and gap 4174 bytes, 66
	 * blocks of 64. */
	ck_assert_uint_eq(p->wire_bytes, 4194);
	ck_assert_uint_eq(p->wire_bytes, rwire(16, 4096));
	ck_assert_uint_eq(p->blocks, 66);
	ck_assert_uint_eq(p->slid, 1);
	ck_assert_uint_eq(p->dlid, 2);
	ck_assert_uint_eq(p->sl, 3);
	ck_assert_uint_eq(p->vl, 3);
	ck_assert_uint_eq(p->pkey, 0x8001);
	/* SL 11 on priority 11 mod 8 = 3; a table of the port's own. */
	ck_assert_uint_eq(h->hp[1].sl2vl[11], 3);
	uint8_t prio[16] = {7, 6, 5, 4, 3, 2, 1, 0};
	ck_assert_int_eq(ibfs__hca_set_sl2vl(h, 1, prio), 0);
	h->lops->frame(&h->hp[1], p, 2, 1, 0, 0xffff);
	ck_assert_uint_eq(p->vl, 6);
	ck_assert_uint_eq(p->sl, 6);
	prio[3] = 8; /* 802.1Qbb has eight priorities */
	ck_assert_int_eq(ibfs__hca_set_sl2vl(h, 1, prio), -1);
	/* An ACK: 86 bytes; with an 802.1Q tag and IPv6 4 + 20 more. */
	p->payload_len = 0;
	p->xh = IBFS_XH_AETH;
	h->lops->frame(&h->hp[1], p, 2, 0, 0, 0xffff);
	ck_assert_uint_eq(p->wire_bytes, ACK_WIRE);
	h->eth_vlan = h->eth_ipv6 = 1;
	h->lops->frame(&h->hp[1], p, 2, 0, 0, 0xffff);
	ck_assert_uint_eq(p->wire_bytes, ACK_WIRE + 4 + 20);
	ibfs__packet_free(P.f, p);
	/* The port takes frames to its host id only. */
	struct ibfs_packet q = {.dlid = 1};
	ck_assert_int_eq(h->lops->accept(&h->hp[1], &q), 1);
	q.dlid = 3;
	ck_assert_int_eq(h->lops->accept(&h->hp[1], &q), 0);
	teardown();
}
END_TEST

START_TEST(set_link_errors)
{
	setup(0);
	struct ibfs_hca *h = P.h[0];

	ck_assert_int_eq(ibfs__hca_link(h), IBFS_HCA_LINK_ROCE);
	/* Too late: the HCA has a QP. */
	ck_assert_int_eq(ibfs__hca_set_link(h, IBFS_HCA_LINK_IB, 0, 0), -1);
	ck_assert_int_eq(ibfs__hca_set_link(h, (enum ibfs_hca_link)7, 0, 0),
			 -1);
	ck_assert_int_eq(ibfs__hca_set_host_id(h, 1, 0), -1);
	ck_assert_int_eq(ibfs__hca_set_host_id(h, 1, 0xc000), -1);
	ck_assert_int_eq(ibfs__hca_set_host_id(h, 2, 5), -1);
	ck_assert_int_eq(ibfs__hca_link(h), IBFS_HCA_LINK_ROCE);
	/* Eight priorities on the port. */
	ck_assert_int_eq(ibfs__fabric_port(P.f, 0, 1)->data_vls, 8);
	teardown();
	/* The default stays InfiniBand. */
	struct ibfs_diag d;
	struct ibfs_hca_pair_cfg cfg = {.profile = "ideal"};
	ck_assert_int_eq(ibfs__hca_pair_new(&P, &cfg, &d), 0);
	ck_assert_int_eq(ibfs__hca_link(P.h[0]), IBFS_HCA_LINK_IB);
	ck_assert_ptr_eq(P.h[0]->lops, &ibfs__ib_link_ops);
	ibfs__hca_pair_free(&P);
}
END_TEST

/*
 * RDMA WRITE Only of 4 KiB: the request 4,194 bytes (82 + RETH 16 +
 * 4,096) x 80 ps = 335,520 ps, 10 ns of cable, the ACK 86 x 80 = 6,880
 * ps, 10 ns back: 362,400 ps.
 */
START_TEST(write_4k_closed_form)
{
	struct ibfs_wc wc;

	setup(0);
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 4096, &B, 100);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), ser(rwire(16, 4096)) + PROP + ser(ACK_WIRE) +
					 PROP);
	ck_assert_uint_eq(now(), 362400);
	ck_assert_int_eq(wc.opcode, IBFS_WC_RDMA_WRITE);
	ck_assert_mem_eq(B.buf + 100, A.buf, 4096);
	ck_assert_uint_eq(P.h[0]->st.retransmits, 0);
	ck_assert_uint_eq(eth.vls_sent, 1u << 0);
	teardown();
}
END_TEST

/*
 * The same WRITE on SL 13: priority 13 mod 8 = 5 for the request and the
 * ACK alike, through the port's scheduler for that priority; the same
 * 362,400 ps.
 */
START_TEST(write_on_priority_5)
{
	struct ibfs_wc wc;

	CONN.sl = 13;
	setup(0);
	CONN.sl = 0;
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 4096, &B, 100);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), 362400);
	ck_assert_uint_eq(eth.vls_sent, 1u << 5);
	ck_assert_mem_eq(B.buf + 100, A.buf, 4096);
	teardown();
}
END_TEST

static uint32_t rd32(const uint8_t *b)
{
	return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

/*
 * An Ethernet capture of the 4 KiB WRITE, each record cut at 100 bytes:
 * the pcap header names LINKTYPE_ETHERNET (1); the WRITE's record starts
 * at 0 and keeps 100 of its 4,174 bytes (4,194 less preamble and gap),
 * the ACK's at 345,520 ps (the WRITE's tail at B) keeps its 66; a PFC
 * frame of 64 bytes follows. An InfiniBand capture records no PFC frame.
 */
START_TEST(capture_eth_records)
{
	struct ibfs_capture_opts o = {.link = IBFS_CAPTURE_ETH,
				      .snaplen = 100};
	const uint16_t q[8] = {1};
	char path[] = "/tmp/roce_link_XXXXXX";
	struct ibfs_capture *c;
	struct ibfs_wc wc;
	uint8_t b[512];

	ck_assert_int_ge(mkstemp(path), 0);
	setup(0);
	c = ibfs__capture_open(P.f, path, &o);
	ck_assert_ptr_nonnull(c);
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 4096, &B, 100);
	wait1(A.scq, &wc);
	ck_assert_int_eq(ibfs__capture_pfc(c, ibfs__fabric_port(P.f, 1, 1),
					   now(), 1, q),
			 0);
	ck_assert_uint_eq(ibfs__capture_count(c), 3);
	ck_assert_int_eq(ibfs__capture_close(c), 0);
	FILE *in = fopen(path, "rb");
	ck_assert_ptr_nonnull(in);
	size_t n = fread(b, 1, sizeof(b), in);
	fclose(in);
	unlink(path);
	/* 24 + (16 + 100) + (16 + 66) + (16 + 64) bytes. */
	ck_assert_uint_eq(n, 24 + 116 + 82 + 80);
	ck_assert_uint_eq(rd32(b + 16), 100);  /* snaplen */
	ck_assert_uint_eq(rd32(b + 20), 1);    /* LINKTYPE_ETHERNET */
	const uint8_t *r = b + 24;
	ck_assert_uint_eq(rd32(r + 4), 0);
	ck_assert_uint_eq(rd32(r + 8), 100);
	ck_assert_uint_eq(rd32(r + 12), 4174);
	ck_assert_uint_eq(r[16 + 12], 0x08); /* IPv4 */
	r += 116;
	ck_assert_uint_eq(rd32(r + 4), 345); /* ns: 345,520 ps */
	ck_assert_uint_eq(rd32(r + 8), 66);
	ck_assert_uint_eq(rd32(r + 12), 66);
	ck_assert_uint_eq(r[16 + 5], 1);  /* to host 1 */
	ck_assert_uint_eq(r[16 + 11], 2); /* from host 2 */
	r += 82;
	ck_assert_uint_eq(rd32(r + 12), 64);
	ck_assert_uint_eq(r[16 + 11], 2); /* host 2's MAC */
	ck_assert_uint_eq(r[16 + 12], 0x88);
	/* InfiniBand: ERF records, no PFC frame. */
	c = ibfs__capture_open(P.f, path, NULL);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(ibfs__capture_pfc(c, ibfs__fabric_port(P.f, 1, 1),
					   now(), 1, q),
			 0);
	ck_assert_uint_eq(ibfs__capture_count(c), 0);
	ibfs__capture_abort(c);
	teardown();
}
END_TEST

/*
 * RDMA WRITE of 64 KiB, 16 packets back to back: First 4,194 bytes (with
 * RETH), then 15 of 4,178 (82 + 4,096); the last one's tail reaches B at
 * (4,194 + 15 x 4,178) x 80 ps + 10 ns = 66,864 x 80 ps + 10 ns =
 * 5,359,120 ps; its ACK takes 6,880 ps and 10 ns: 5,376,000 ps. (The
 * `ideal` profile asks for an ACK every 16 packets, so only the last.)
 */
START_TEST(write_64k_closed_form)
{
	struct ibfs_wc wc;

	setup(0);
	post(&A, 2, IBFS_WR_RDMA_WRITE, 1000, 65536, &B, 3000);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), ser(rwire(16, 4096) + 15 * rwire(0, 4096)) +
					 PROP + ser(ACK_WIRE) + PROP);
	ck_assert_uint_eq(now(), 5376000);
	ck_assert_mem_eq(B.buf + 3000, A.buf + 1000, 65536);
	ck_assert_uint_eq(P.h[1]->st.acks, 1);
	ck_assert_uint_eq(P.h[0]->st.tx_pkts, 16);
	teardown();
}
END_TEST

/*
 * SEND Only with immediate of 2,501 bytes (padded by 3): 82 + ImmDt 4 +
 * 2,504 = 2,590 bytes x 80 ps = 207,200 ps, + 10 ns: B's receive
 * completes at 217,200 ps; the ACK 6,880 ps and 10 ns later, at 234,080
 * ps, A's send.
 */
START_TEST(send_closed_form)
{
	struct ibfs_wc wc;

	setup(0);
	post_recv(&B, 7, 500, 4000);
	post(&A, 3, IBFS_WR_SEND_WITH_IMM, 20, 2501, NULL, 0);
	wait1(B.rcq, &wc);
	ck_assert_uint_eq(now(), ser(rwire(4, 2501)) + PROP);
	ck_assert_uint_eq(now(), 217200);
	ck_assert_int_eq(wc.opcode, IBFS_WC_RECV);
	ck_assert_uint_eq(wc.byte_len, 2501);
	ck_assert_uint_eq(wc.wc_flags, IBFS_WC_WITH_IMM);
	ck_assert_uint_eq(wc.imm_data, 0x5eed0003u);
	ck_assert_uint_eq(wc.slid, 1);
	ck_assert_mem_eq(B.buf + 500, A.buf + 20, 2501);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), 217200 + ser(ACK_WIRE) + PROP);
	ck_assert_uint_eq(now(), 234080);
	ck_assert_int_eq(wc.opcode, IBFS_WC_SEND);
	teardown();
}
END_TEST

/*
 * RDMA READ of 5,000 bytes: the request 82 + RETH 16 = 98 bytes, 7,840
 * ps, and 10 ns; Response First 82 + AETH 4 + 4,096 = 4,182 bytes and
 * Last 82 + 4 + 904 = 990 bytes back to back, 5,172 x 80 = 413,760 ps,
 * and 10 ns: 441,600 ps.
 */
START_TEST(read_closed_form)
{
	struct ibfs_wc wc;

	setup(0);
	post(&A, 4, IBFS_WR_RDMA_READ, 8000, 5000, &B, 2000);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), ser(rwire(16, 0)) + PROP +
					 ser(rwire(4, 4096) + rwire(4, 904)) +
					 PROP);
	ck_assert_uint_eq(now(), 441600);
	ck_assert_int_eq(wc.opcode, IBFS_WC_RDMA_READ);
	ck_assert_uint_eq(wc.byte_len, 5000);
	ck_assert_mem_eq(A.buf + 8000, B.buf + 2000, 5000);
	teardown();
}
END_TEST

/*
 * Every Nth frame reaching either port is dropped (requests, responses
 * and ACKs alike): WRITEs, SENDs and READs in both directions all
 * complete, in order, with the right bytes, and the lost frames were
 * sent again (go-back-N after a sequence error NAK or an ACK timeout).
 */
static void lossy_run(unsigned n)
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

START_TEST(lossy_every_7th)
{
	lossy_run(7);
}
END_TEST

START_TEST(lossy_every_5th)
{
	lossy_run(5);
}
END_TEST

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
	ck_assert_mem_eq(B.buf + 100, A.buf, 4096);
	teardown();
	setup(0);
	eth.drop_mask = 1;
	post(&A, 1, IBFS_WR_RDMA_WRITE, 0, 4096, &B, 100);
	wait1(A.scq, &wc);
	ck_assert_uint_eq(now(), 1048576000 + 362400);
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

static Suite *roce_link_suite(void)
{
	Suite *s = suite_create("roce_link");
	TCase *tc = tcase_create("roce_link");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, frame_sizes);
	tcase_add_test(tc, set_link_errors);
	tcase_add_test(tc, write_4k_closed_form);
	tcase_add_test(tc, write_on_priority_5);
	tcase_add_test(tc, capture_eth_records);
	tcase_add_test(tc, write_64k_closed_form);
	tcase_add_test(tc, send_closed_form);
	tcase_add_test(tc, read_closed_form);
	tcase_add_test(tc, lossy_every_7th);
	tcase_add_test(tc, lossy_every_5th);
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

IBFS_CHECK_MAIN(roce_link_suite)
