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
 * the PSN sequence error NAK, go-back-N, the ACK timeout); IRN's
 * selective repeat is tested in check_roce_irn.c. The pair and the lossy
 * run are in roce_pair.h.
 */
#include "roce_pair.h"

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
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(roce_link_suite)
