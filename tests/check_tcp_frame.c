/* SPDX-License-Identifier: MIT */
/*
 * A TCP frame in struct ibfs_packet (src/fabric/tcp_frame.h) as a capture
 * writes it (ibfs__tcp_encode, src/fabric/packet_encode.c) and as an ECMP
 * switch hashes it (ibfs__eth_flow_hash, src/fabric/eth.c). Figures:
 *
 * The SYN of host 2 (10.0.0.2, port 32768) to host 1 (10.0.0.1, port
 * 5001): ISS 1000, window 65,535, MSS 1460, SACK-permitted, timestamps
 * (TSval 7, TSecr 0), window scale 7. Options as Linux writes them
 * (RFC 9293 3.2, RFC 2018, RFC 7323): 02 04 05 B4 (MSS 1460), 04 02
 * (SACK-permitted in the timestamps' NOPs), 08 0A + TSval + TSecr, 01
 * (NOP) 03 03 07 (window scale 7): 20 bytes, so the TCP header is 40
 * (data offset 10), the IP datagram 60, the frame 14 + 60 + FCS 4 = 78,
 * ibfs__tcp_wire_bytes' 98 less preamble 8 and gap 12. IP: version 4,
 * IHL 5, DSCP 0 and ECN ECT(0) (2) as the engine sent it, or CE (3) once
 * a switch marked it (fecn); DF, TTL 64, protocol 6. Checksums: the
 * ones' complement sum (RFC 1071) over the IPv4 header, and over the
 * pseudo-header (source, destination, 0, 6, TCP length) and the segment,
 * both 0xFFFF when right, recomputed here independently of the encoder.
 *
 * An ACK with 2 SACK blocks and 100 bytes of payload: options 12
 * (NOP NOP timestamps) + 4 + 16 = 32, TCP 52, IP 172, frame 190.
 *
 * The hash: a frame's 5-tuple (addresses, protocol, ports), nothing else:
 * the same connection's frames hash alike whatever their sequence numbers;
 * of eight connections between the same two hosts (ports 32768-32775), not
 * all take the same of two next hops.
 */
#include "check_common.h"

#include "fabric/eth.h"
#include "fabric/packet_encode.h"
#include "fabric/tcp_frame.h"
#include "transport/tcp.h"

static uint32_t sum16(const uint8_t *b, size_t n, uint32_t s)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	if (n & 1)
		s += (uint32_t)b[n - 1] << 8;
	return s;
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)s;
}

static void syn(struct ibfs_packet *p, struct ibfs_tcp_frame *f)
{
	memset(p, 0, sizeof(*p));
	memset(f, 0, sizeof(*f));
	f->seq = 1000;
	f->sport = 32768;
	f->dport = 5001;
	f->window = 65535;
	f->mss = 1460;
	f->flags = IBFS_TCP_SYN;
	f->ecn = IBFS_ECN_ECT0;
	f->wscale = 7;
	f->sack_ok = 1;
	f->ts = 1;
	f->tsval = 7;
	ibfs__tcp_frame_put(p, f);
	p->dlid = 1;
	p->slid = 2;
	p->lnh = IBFS_TCP_LNH;
}

/* Both checksums right, the lengths as above; returns the TCP header. */
static const uint8_t *check_ip_tcp(const uint8_t *b, size_t len,
				   size_t ip_len)
{
	const uint8_t *ip = b + 14, *tcp = ip + 20;
	size_t seg = ip_len - 20;
	uint32_t s;

	ck_assert_uint_eq(len, 14 + ip_len + 4);
	ck_assert_uint_eq(b[12] << 8 | b[13], 0x0800);
	ck_assert_uint_eq(ip[0], 0x45);
	ck_assert_uint_eq(ip[2] << 8 | ip[3], ip_len);
	ck_assert_uint_eq(ip[6], 0x40);
	ck_assert_uint_eq(ip[8], 64);
	ck_assert_uint_eq(ip[9], 6);
	ck_assert_uint_eq(fold(sum16(ip, 20, 0)), 0xFFFF);
	s = sum16(ip + 12, 8, 0) + 6 + (uint32_t)seg;
	ck_assert_uint_eq(fold(sum16(tcp, seg, s)), 0xFFFF);
	return tcp;
}

START_TEST(syn_encoded)
{
	static const uint8_t opts[20] = {
		2, 4, 0x05, 0xB4, 4, 2, 8, 10, 0, 0, 0, 7, 0, 0, 0, 0,
		1, 3, 3, 7};
	struct ibfs_packet p;
	struct ibfs_tcp_frame f;
	struct ibfs_tcp_seg g;
	uint8_t buf[IBFS_MAX_TCP_FRAME];
	size_t n;
	const uint8_t *tcp;

	syn(&p, &f);
	n = ibfs__tcp_encode(&p, 0, buf, sizeof(buf));
	tcp = check_ip_tcp(buf, n, 60);
	ck_assert_uint_eq(buf[14 + 1], 2); /* ECT(0) */
	ck_assert_uint_eq(tcp[0] << 8 | tcp[1], 32768);
	ck_assert_uint_eq(tcp[2] << 8 | tcp[3], 5001);
	ck_assert_uint_eq((uint32_t)tcp[4] << 24 | tcp[5] << 16 |
				  tcp[6] << 8 | tcp[7], 1000);
	ck_assert_uint_eq(tcp[12], 10 << 4);
	ck_assert_uint_eq(tcp[13], IBFS_TCP_SYN);
	ck_assert_uint_eq(tcp[14] << 8 | tcp[15], 65535);
	ck_assert_mem_eq(tcp + 20, opts, sizeof(opts));
	/* The engine's size of the same segment, preamble and gap less. */
	memset(&g, 0, sizeof(g));
	g.mss = 1460;
	g.sack_ok = 1;
	g.ts = 1;
	g.wscale = 7;
	ck_assert_uint_eq(ibfs__tcp_wire_bytes(&g), n + 8 + 12);
	/* Marked by a switch: CE, and the IP checksum still right. */
	p.fecn = 1;
	n = ibfs__tcp_encode(&p, 0, buf, sizeof(buf));
	check_ip_tcp(buf, n, 60);
	ck_assert_uint_eq(buf[14 + 1], 3);
	/* Not a TCP frame, or a buffer too short: nothing written. */
	ck_assert_uint_eq(ibfs__tcp_encode(&p, 0, buf, 77), 0);
	p.lnh = 2;
	ck_assert_uint_eq(ibfs__tcp_encode(&p, 0, buf, sizeof(buf)), 0);
}
END_TEST

START_TEST(sack_encoded)
{
	struct ibfs_packet p;
	struct ibfs_tcp_frame f;
	uint8_t buf[IBFS_MAX_TCP_FRAME];
	const uint8_t *tcp, *o;
	size_t n;

	syn(&p, &f);
	f.flags = IBFS_TCP_ACK;
	f.mss = 0;
	f.wscale = -1;
	f.sack_ok = 0;
	f.len = 100;
	f.nsack = 2;
	f.sack[0].left = 3000;
	f.sack[0].right = 4448;
	f.sack[1].left = 6000;
	f.sack[1].right = 7448;
	ibfs__tcp_frame_put(&p, &f);
	n = ibfs__tcp_encode(&p, 0, buf, sizeof(buf));
	tcp = check_ip_tcp(buf, n, 172);
	ck_assert_uint_eq(tcp[12], 13 << 4);
	o = tcp + 20;
	ck_assert_uint_eq(o[0], 1);
	ck_assert_uint_eq(o[1], 1);
	ck_assert_uint_eq(o[2], 8);
	ck_assert_uint_eq(o[12], 1);
	ck_assert_uint_eq(o[13], 1);
	ck_assert_uint_eq(o[14], 5);
	ck_assert_uint_eq(o[15], 18);
	ck_assert_uint_eq((uint32_t)o[16] << 24 | o[17] << 16 | o[18] << 8 |
				  o[19], 3000);
	ck_assert_uint_eq((uint32_t)o[28] << 24 | o[29] << 16 | o[30] << 8 |
				  o[31], 7448);
}
END_TEST

START_TEST(ecmp_hash)
{
	struct ibfs_packet p, q;
	struct ibfs_tcp_frame f;
	uint32_t seed = 12345;
	int first = -1, differ = 0;

	syn(&p, &f);
	q = p;
	f.seq = 99999;
	f.flags = IBFS_TCP_ACK;
	ibfs__tcp_frame_put(&q, &f);
	ck_assert_uint_eq(ibfs__eth_flow_hash(&p, seed),
			  ibfs__eth_flow_hash(&q, seed));
	for (uint16_t port = 32768; port < 32776; port++) {
		int hop;

		f.sport = port;
		ibfs__tcp_frame_put(&q, &f);
		hop = (int)(ibfs__eth_flow_hash(&q, seed) % 2);
		if (first < 0)
			first = hop;
		differ |= hop != first;
	}
	ck_assert(differ);
}
END_TEST

static Suite *tcp_frame_suite(void)
{
	Suite *s = suite_create("tcp_frame");
	TCase *tc = tcase_create("frame");

	tcase_add_test(tc, syn_encoded);
	tcase_add_test(tc, sack_encoded);
	tcase_add_test(tc, ecmp_hash);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(tcp_frame_suite)
