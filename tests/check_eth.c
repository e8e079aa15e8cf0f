/* SPDX-License-Identifier: MIT */
/*
 * Ethernet framing and addressing (src/fabric/eth.c), each expected value
 * written out from the header sizes: preamble and SFD 8, Ethernet 14,
 * 802.1Q 4, IPv4 20, IPv6 40, UDP 8, BTH 12, RETH 16, AETH 4, ICRC 4,
 * FCS 4, inter-frame gap 12 (IEEE 802.3, RFC 791, 8200, 768; IBA 9.2 and
 * Annex A17), a 64-byte minimum frame, and pause quanta of 512 bit times
 * (IEEE 802.1Qbb).
 */
#include "check_common.h"

#include <string.h>

#include "fabric/eth.h"

static struct ibfs_packet roce(uint16_t xh, uint32_t len, int vlan, int v6)
{
	struct ibfs_packet p;

	memset(&p, 0, sizeof(p));
	p.lnh = 2;
	p.xh = xh;
	p.payload_len = len;
	ibfs__roce_finish(&p, vlan, v6);
	return p;
}

START_TEST(roce_write_only_4k)
{
	/* 14 + 20 + 8 + 12 + 16 + 4096 + 4 + 4 = 4174, + 8 + 12 = 4194. */
	struct ibfs_packet p = roce(IBFS_XH_RETH, 4096, 0, 0);

	ck_assert_uint_eq(ibfs__eth_frame_bytes(&p), 4174);
	ck_assert_uint_eq(p.wire_bytes, 4194);
	ck_assert_uint_eq(p.blocks, 66); /* ceil(4174 / 64) */
	ck_assert_uint_eq(p.pad, 0);
	/* With a VLAN tag 4 more, over IPv6 20 more. */
	ck_assert_uint_eq(roce(IBFS_XH_RETH, 4096, 1, 0).wire_bytes, 4198);
	ck_assert_uint_eq(roce(IBFS_XH_RETH, 4096, 0, 1).wire_bytes, 4214);
	ck_assert_uint_eq(roce(IBFS_XH_RETH, 4096, 1, 1).wire_bytes, 4218);
}
END_TEST

START_TEST(roce_ack_and_minimum)
{
	/* ACK: 14 + 20 + 8 + 12 + 4 + 4 + 4 = 66, above the minimum: 86. */
	ck_assert_uint_eq(roce(IBFS_XH_AETH, 0, 0, 0).wire_bytes, 86);
	/* A SEND of nothing: 62 bytes, padded to 64: 84 on the wire. */
	struct ibfs_packet p = roce(0, 0, 0, 0);

	ck_assert_uint_eq(ibfs__eth_frame_bytes(&p), 64);
	ck_assert_uint_eq(p.wire_bytes, 84);
	/* One byte of payload: 3 of pad, 66 bytes. */
	p = roce(0, 1, 0, 0);
	ck_assert_uint_eq(p.pad, 3);
	ck_assert_uint_eq(p.wire_bytes, 86);
	ck_assert_uint_eq(ibfs__eth_wire_bytes(IBFS_PFC_FRAME), 84);
	ck_assert_uint_eq(ibfs__eth_wire_bytes(1518), 1538);
}
END_TEST

START_TEST(pause_quanta)
{
	/* 100 Gb/s: a quantum is 512 bits = 5.12 ns. */
	ck_assert_uint_eq(ibfs__pfc_quanta_ps(1, 100000000000ull), 5120);
	/* The longest pause, 65535 quanta: 335.5392 us. */
	ck_assert_uint_eq(ibfs__pfc_quanta_ps(0xFFFF, 100000000000ull),
			  335539200);
	ck_assert_uint_eq(ibfs__pfc_quanta_ps(0, 100000000000ull), 0);
	/* 25 Gb/s: 20.48 ns; 3 b/s rounds 170.67 s up to the picosecond. */
	ck_assert_uint_eq(ibfs__pfc_quanta_ps(1, 25000000000ull), 20480);
	ck_assert_uint_eq(ibfs__pfc_quanta_ps(1, 3), 170666666666667ull);
}
END_TEST

START_TEST(addresses)
{
	uint8_t mac[6];

	ck_assert_uint_eq(ibfs__eth_ipv4(1), 0x0A000001u);
	ck_assert_uint_eq(ibfs__eth_ipv4(0x1234), 0x0A001234u);
	ibfs__eth_mac(0x012345, mac);
	ck_assert_uint_eq(mac[0], 0x02);
	ck_assert_uint_eq(mac[1], 0);
	ck_assert_uint_eq(mac[2], 0);
	ck_assert_uint_eq(mac[3], 0x01);
	ck_assert_uint_eq(mac[4], 0x23);
	ck_assert_uint_eq(mac[5], 0x45);
}
END_TEST

START_TEST(sport_and_hash)
{
	struct ibfs_packet p;
	int distinct = 0, buckets[4] = { 0 };
	uint16_t first;

	memset(&p, 0, sizeof(p));
	p.slid = 1;
	p.dlid = 2;
	first = ibfs__roce_udp_sport(&p);
	/* Every QP's port in the dynamic range, the same for one QP. */
	for (uint32_t qp = 0; qp < 1000; qp++) {
		p.dest_qp = qp;
		uint16_t s = ibfs__roce_udp_sport(&p);

		ck_assert_uint_ge(s, 49152);
		ck_assert_uint_eq(s, ibfs__roce_udp_sport(&p));
		distinct += s != first;
		buckets[ibfs__eth_flow_hash(&p, 7) % 4]++;
	}
	ck_assert_int_ge(distinct, 990);
	/* 1000 flows over 4 next hops: each within 20% of 250. */
	for (int i = 0; i < 4; i++) {
		ck_assert_int_ge(buckets[i], 200);
		ck_assert_int_le(buckets[i], 300);
	}
	/* Another seed, another choice for most flows. */
	int moved = 0;

	for (uint32_t qp = 0; qp < 1000; qp++) {
		p.dest_qp = qp;
		moved += ibfs__eth_flow_hash(&p, 7) % 4 !=
			 ibfs__eth_flow_hash(&p, 8) % 4;
	}
	ck_assert_int_ge(moved, 600);
}
END_TEST

static Suite *eth_suite(void)
{
	Suite *s = suite_create("eth");
	TCase *tc = tcase_create("eth");

	tcase_add_test(tc, roce_write_only_4k);
	tcase_add_test(tc, roce_ack_and_minimum);
	tcase_add_test(tc, pause_quanta);
	tcase_add_test(tc, addresses);
	tcase_add_test(tc, sport_and_hash);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(eth_suite)
