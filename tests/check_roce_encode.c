/* SPDX-License-Identifier: MIT */
/*
 * RoCEv2 and PFC frames byte for byte (src/fabric/packet_encode.c): the
 * Ethernet, 802.1Q, IPv4, IPv6 and UDP fields at their offsets, the
 * transport headers as the InfiniBand encoder writes them, and the three
 * checks computed here independently of the encoder: the IPv4 header
 * checksum (RFC 791, RFC 1071) and the UDP checksum over IPv6 (RFC 8200
 * 8.1) summed word by word, the ICRC (IBA A17.3.3) and the FCS (802.3
 * 3.2.9) with a bit-at-a-time CRC-32 over a masked copy built here.
 */
#include <string.h>

#include "check_common.h"
#include "fabric/eth.h"
#include "fabric/packet_encode.h"

/* RC RDMA WRITE Only, 30 bytes (pad 2), from host 5 to host 0x0102 on
 * priority 3, marked CE by a switch (fecn, fabric/eth.h). */
static struct ibfs_packet write_only(void)
{
	static uint8_t data[30];
	struct ibfs_packet p;

	for (unsigned i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(0xA0 + i);
	memset(&p, 0, sizeof(p));
	p.kind = IBFS_PKT_DATA;
	p.lnh = 2;
	p.vl = p.sl = 3;
	p.dlid = 0x0102;
	p.slid = 5;
	p.opcode = 0x0A;
	p.pkey = 0xFFFF;
	p.dest_qp = 0xABCDEF;
	p.psn = 0x123456;
	p.ack_req = 1;
	p.fecn = 1;
	p.xh = IBFS_XH_RETH;
	p.reth.va = 0x0102030405060708ull;
	p.reth.rkey = 0xCAFEBABE;
	p.reth.dma_len = 30;
	p.payload_len = 30;
	p.payload = data;
	return p;
}

/* CRC-32, reflected 0xEDB88320, initial and final all ones, bit by bit. */
static uint32_t crc32_bits(const uint8_t *b, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < n; i++) {
		c ^= b[i];
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
	}
	return ~c;
}

static uint32_t le32(const uint8_t *b)
{
	return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static uint32_t be16(const uint8_t *b)
{
	return (uint32_t)b[0] << 8 | b[1];
}

/* Ones' complement sum of 16-bit words, folded. */
static uint32_t sum16(uint32_t s, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i += 2)
		s += be16(b + i);
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return s;
}

/* The ICRC of a frame whose IP header starts at ip (iph bytes), from a
 * masked copy made here: 8 bytes of ones, then IP..pad with the variant
 * fields set to ones. */
static uint32_t icrc_ref(const uint8_t *ip, size_t len, size_t iph)
{
	uint8_t m[512];

	ck_assert_uint_le(len + 8, sizeof(m));
	memset(m, 0xFF, 8);
	memcpy(m + 8, ip, len);
	if (iph == 40) {
		m[8] = 0x6F;
		m[9] = m[10] = m[11] = 0xFF;
		m[8 + 7] = 0xFF;
	} else {
		m[8 + 1] = 0xFF;
		m[8 + 8] = 0xFF;
		m[8 + 10] = m[8 + 11] = 0xFF;
	}
	m[8 + iph + 6] = m[8 + iph + 7] = 0xFF;
	m[8 + iph + 8 + 4] = 0xFF;
	return crc32_bits(m, 8 + len);
}

/*
 * IPv4, no tag: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + RETH 16 + 30 +
 * pad 2 + ICRC 4 + FCS 4 = 110 bytes; the IP total length 92, the UDP
 * length 72; DSCP 24 (CS3) and CE (3, RFC 3168 5): TOS 0x63. The BTH's
 * FECN bit is sent 0 (RoCEv2 carries the mark in IP); the same packet
 * unmarked is ECT(0), TOS 0x62, with the same ICRC (both fields masked).
 */
START_TEST(roce_ipv4_frame)
{
	struct ibfs_packet p = write_only();
	uint8_t f[256], ib[256];
	size_t n = ibfs__roce_encode(&p, 0, 0, f, sizeof(f));

	ck_assert_uint_eq(n, 110);
	static const uint8_t eth[14] = {2, 0, 0, 0, 1, 2, 2, 0,
					0, 0, 0, 5, 0x08, 0x00};
	ck_assert_mem_eq(f, eth, 14);
	const uint8_t *ip = f + 14;
	static const uint8_t ip4[20] = {
		0x45, 0x63, 0, 92, 0, 0, 0x40, 0, 64, 17, 0, 0,
		10, 0, 0, 5, 10, 0, 1, 2,
	};
	ck_assert_mem_eq(ip, ip4, 10);
	ck_assert_mem_eq(ip + 12, ip4 + 12, 8);
	/* The header checksum sums with the rest to all ones. */
	ck_assert_uint_eq(sum16(0, ip, 20), 0xFFFF);
	ck_assert_uint_eq(ibfs__ipv4_checksum(ip, 20), 0);
	const uint8_t *udp = ip + 20;
	ck_assert_uint_eq(be16(udp), ibfs__roce_udp_sport(&p));
	ck_assert_uint_ge(be16(udp), 0xC000);
	ck_assert_uint_eq(be16(udp + 2), 4791);
	ck_assert_uint_eq(be16(udp + 4), 72);
	ck_assert_uint_eq(be16(udp + 6), 0);
	/* BTH, RETH, payload and pad: the InfiniBand encoder's bytes after
	 * its LRH (8 bytes), up to its ICRC. */
	ck_assert_uint_eq(ibfs__packet_encode(&p, ib, sizeof(ib)),
			  8 + 12 + 16 + 32 + 4 + 2);
	ck_assert_mem_eq(udp + 8, ib + 8, 4);
	ck_assert_uint_eq(ib[8 + 4], 0x80); /* InfiniBand's FECN */
	ck_assert_uint_eq(udp[8 + 4], 0);   /* RoCEv2's: 0 */
	ck_assert_mem_eq(udp + 8 + 5, ib + 8 + 5, 12 + 16 + 32 - 5);
	/* ICRC and FCS, least significant byte first. */
	ck_assert_uint_eq(le32(f + 102), icrc_ref(ip, 88, 20));
	ck_assert_uint_eq(le32(f + 102), ibfs__roce_icrc(ip, 88, 0));
	ck_assert_uint_eq(le32(f + 106), crc32_bits(f, 106));
	/* The masked fields leave the ICRC alone: another TTL, TOS, header
	 * checksum, UDP checksum or FECN gives the same one. */
	uint8_t g[256];
	memcpy(g, f, n);
	g[14 + 1] = 0x03;
	g[14 + 8] = 1;
	g[14 + 10] ^= 0x5A;
	g[34 + 6] = 0x12;
	g[42 + 4] = 0x40;
	ck_assert_uint_eq(ibfs__roce_icrc(g + 14, 88, 0), le32(f + 102));
	/* ... and a field it covers changes it: the PSN's last byte. */
	g[42 + 11] ^= 1;
	ck_assert_uint_ne(ibfs__roce_icrc(g + 14, 88, 0), le32(f + 102));
	/* Unmarked: ECT(0), its own header checksum, the same ICRC. */
	p.fecn = 0;
	ck_assert_uint_eq(ibfs__roce_encode(&p, 0, 0, g, sizeof(g)), 110);
	ck_assert_uint_eq(g[14 + 1], 0x62);
	ck_assert_uint_eq(sum16(0, g + 14, 20), 0xFFFF);
	ck_assert_uint_eq(be16(g + 14 + 10), be16(ip + 10) + 1);
	ck_assert_uint_eq(le32(g + 102), le32(f + 102));
	p.fecn = 1;
	/* A buffer one byte short is refused, as a raw packet is. */
	ck_assert_uint_eq(ibfs__roce_encode(&p, 0, 0, f, 109), 0);
	p.lnh = 0;
	ck_assert_uint_eq(ibfs__roce_encode(&p, 0, 0, f, sizeof(f)), 0);
}
END_TEST

/* An 802.1Q tag: TPID 0x8100, PCP 3 and VID 0 (0x6000), then the
 * EtherType; 114 bytes in all, the rest 4 bytes on. */
START_TEST(roce_vlan_frame)
{
	struct ibfs_packet p = write_only();
	uint8_t f[256], u[256];
	size_t n = ibfs__roce_encode(&p, 1, 0, f, sizeof(f));

	ck_assert_uint_eq(n, 114);
	static const uint8_t tag[6] = {0x81, 0x00, 0x60, 0x00, 0x08, 0x00};
	ck_assert_mem_eq(f + 12, tag, 6);
	ck_assert_uint_eq(ibfs__roce_encode(&p, 0, 0, u, sizeof(u)), 110);
	ck_assert_mem_eq(f + 18, u + 14, 110 - 14 - 4);
	ck_assert_uint_eq(le32(f + 110), crc32_bits(f, 110));
}
END_TEST

/*
 * IPv6: 14 + 40 + 72 + 4 = 130 bytes; version 6 and traffic class 0x63
 * (CS3 and CE: 0x66 0x30 ...), payload length 72, next header UDP, hop
 * limit 64, fd00::10.0.0.5 to fd00::10.0.1.2; the UDP checksum is set and
 * sums with the pseudo-header to all ones.
 */
START_TEST(roce_ipv6_frame)
{
	struct ibfs_packet p = write_only();
	uint8_t f[256];
	size_t n = ibfs__roce_encode(&p, 0, 1, f, sizeof(f));

	ck_assert_uint_eq(n, 130);
	ck_assert_uint_eq(be16(f + 12), 0x86DD);
	const uint8_t *ip = f + 14, *udp = ip + 40;
	static const uint8_t ip6[40] = {
		0x66, 0x30, 0, 0, 0, 72, 17, 64,
		0xFD, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 5,
		0xFD, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 1, 2,
	};
	ck_assert_mem_eq(ip, ip6, 40);
	ck_assert_uint_eq(be16(udp + 2), 4791);
	ck_assert_uint_eq(be16(udp + 4), 72);
	ck_assert_uint_ne(be16(udp + 6), 0);
	uint8_t ph[4] = {0, 72, 0, 17};
	uint32_t s = sum16(0, ip + 8, 32);
	s = sum16(s, ph, 4);
	ck_assert_uint_eq(sum16(s, udp, 72), 0xFFFF);
	ck_assert_uint_eq(le32(f + 122), icrc_ref(ip, 108, 40));
	ck_assert_uint_eq(le32(f + 126), crc32_bits(f, 126));
}
END_TEST

/*
 * The smallest RoCEv2 frame, a SEND Only of no payload: 14 + 20 + 8 + 12
 * + 4 + 4 = 62 bytes, padded with 2 zeros to the 64-byte minimum, which
 * the FCS covers.
 */
START_TEST(roce_short_frame_padded)
{
	struct ibfs_packet p = write_only();
	uint8_t f[128];

	p.opcode = 0x04;
	p.xh = 0;
	p.payload_len = 0;
	memset(f, 0xEE, sizeof(f));
	ck_assert_uint_eq(ibfs__roce_encode(&p, 0, 0, f, sizeof(f)), 64);
	ck_assert_uint_eq(be16(f + 14 + 2), 20 + 8 + 12 + 4);
	ck_assert_uint_eq(f[58], 0);
	ck_assert_uint_eq(f[59], 0);
	ck_assert_uint_eq(le32(f + 54), icrc_ref(f + 14, 40, 20));
	ck_assert_uint_eq(le32(f + 60), crc32_bits(f, 60));
	ck_assert_uint_eq(f[64], 0xEE);
}
END_TEST

/*
 * PFC: to 01-80-C2-00-00-01, EtherType 0x8808, opcode 0x0101, enable
 * vector 0x0009 (priorities 0 and 3), times 0xFFFF and 0x1234 there and
 * 0 elsewhere: 34 bytes, zeros to 60, FCS: 64.
 */
START_TEST(pfc_frame)
{
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 7};
	const uint16_t q[8] = {0xFFFF, 0, 0, 0x1234, 0, 0, 0, 0};
	uint8_t f[80];

	memset(f, 0xEE, sizeof(f));
	ck_assert_uint_eq(ibfs__pfc_encode(mac, 0x09, q, f, 63), 0);
	ck_assert_uint_eq(ibfs__pfc_encode(mac, 0x09, q, f, sizeof(f)), 64);
	static const uint8_t hdr[34] = {
		0x01, 0x80, 0xC2, 0, 0, 0x01, 2, 0, 0, 0, 0, 7,
		0x88, 0x08, 0x01, 0x01, 0x00, 0x09,
		0xFF, 0xFF, 0, 0, 0, 0, 0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	ck_assert_mem_eq(f, hdr, 34);
	for (int i = 34; i < 60; i++)
		ck_assert_uint_eq(f[i], 0);
	ck_assert_uint_eq(le32(f + 60), crc32_bits(f, 60));
	ck_assert_uint_eq(f[64], 0xEE);
}
END_TEST

static Suite *roce_encode_suite(void)
{
	Suite *s = suite_create("roce_encode");
	TCase *tc = tcase_create("encode");

	tcase_add_test(tc, roce_ipv4_frame);
	tcase_add_test(tc, roce_vlan_frame);
	tcase_add_test(tc, roce_ipv6_frame);
	tcase_add_test(tc, roce_short_frame_padded);
	tcase_add_test(tc, pfc_frame);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(roce_encode_suite)
