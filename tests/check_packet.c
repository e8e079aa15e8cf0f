/* SPDX-License-Identifier: MIT */
/*
 * Packet sizes on the wire and in credits, each expected value written out
 * from the IBA header sizes: LRH 8, GRH 40, BTH 12, DETH 8, RETH 16, AETH 4,
 * ImmDt/IETH 4, AtomicETH 28, AtomicAckETH 8, ICRC 4, VCRC 2 (IBA 7.7, 9.2,
 * 9.3), pad to 4 bytes, 64-byte credit blocks (IBA 7.9.4.1).
 */
#include "check_common.h"

#include <string.h>

#include "fabric/packet.h"

static struct ibfs_packet mk(uint8_t lnh, uint16_t xh, uint32_t len)
{
	struct ibfs_packet p;

	memset(&p, 0, sizeof(p));
	p.lnh = lnh;
	p.xh = xh;
	p.payload_len = len;
	ibfs__packet_finish(&p);
	return p;
}

START_TEST(ext_bytes_each_header)
{
	ck_assert_uint_eq(ibfs__packet_ext_bytes(0), 0);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_GRH), 0);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_DETH), 8);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_RETH), 16);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_AETH), 4);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_IMM), 4);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_IETH), 4);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_ATOMIC), 28);
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_ATOMICACK), 8);
	/* RDMA WRITE Only with Immediate: RETH + ImmDt. */
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_RETH | IBFS_XH_IMM),
			  20);
	/* Atomic acknowledge: AETH + AtomicAckETH. */
	ck_assert_uint_eq(ibfs__packet_ext_bytes(IBFS_XH_AETH |
						 IBFS_XH_ATOMICACK), 12);
}
END_TEST

START_TEST(raw_packets)
{
	struct ibfs_packet p = mk(0, 0, 0);

	ck_assert_uint_eq(p.wire_bytes, 8 + 2);
	ck_assert_uint_eq(p.blocks, 1);
	p = mk(0, 0, 1000);
	ck_assert_uint_eq(p.wire_bytes, 1010);
	ck_assert_uint_eq(p.blocks, 16); /* 1010 / 64 = 15.8 */
	p = mk(0, 0, 1001);
	ck_assert_uint_eq(p.wire_bytes, 8 + 1001 + 3 + 2);
	ck_assert_uint_eq(p.pad, 0); /* no BTH to carry a pad count */
	/* Raw IPv6 (LNH 1) carries a GRH. */
	p = mk(1, 0, 100);
	ck_assert_uint_eq(p.wire_bytes, 8 + 40 + 100 + 2);
	ck_assert_uint_eq(p.xh & IBFS_XH_GRH, IBFS_XH_GRH);
}
END_TEST

START_TEST(transport_packets)
{
	/* RC SEND Only, 4096 bytes, local. */
	struct ibfs_packet p = mk(2, 0, 4096);

	ck_assert_uint_eq(p.wire_bytes, 8 + 12 + 4096 + 4 + 2);
	ck_assert_uint_eq(p.blocks, 65); /* 4122 / 64 = 64.4 */
	ck_assert_uint_eq(p.pad, 0);
	/* RDMA WRITE First with a GRH, 1 byte: pad 3. */
	p = mk(3, IBFS_XH_RETH, 1);
	ck_assert_uint_eq(p.wire_bytes, 8 + 40 + 12 + 16 + 1 + 3 + 4 + 2);
	ck_assert_uint_eq(p.pad, 3);
	/* UD SEND with a GRH flag on a local LNH: LNH becomes global. */
	p = mk(2, IBFS_XH_GRH | IBFS_XH_DETH, 2);
	ck_assert_uint_eq(p.lnh, 3);
	ck_assert_uint_eq(p.wire_bytes, 8 + 40 + 12 + 8 + 2 + 2 + 4 + 2);
	ck_assert_uint_eq(p.pad, 2);
	/* Compare-and-swap request and its acknowledge. */
	p = mk(2, IBFS_XH_ATOMIC, 0);
	ck_assert_uint_eq(p.wire_bytes, 8 + 12 + 28 + 4 + 2);
	ck_assert_uint_eq(p.blocks, 1);
	p = mk(2, IBFS_XH_AETH | IBFS_XH_ATOMICACK, 0);
	ck_assert_uint_eq(p.wire_bytes, 8 + 12 + 4 + 8 + 4 + 2);
	/* An SMP: BTH + DETH + 256-byte MAD = 290 bytes, 5 blocks. */
	p = mk(2, IBFS_XH_DETH, IBFS_MAD_BYTES);
	ck_assert_uint_eq(p.wire_bytes, 290);
	ck_assert_uint_eq(p.blocks, 5);
}
END_TEST

START_TEST(block_boundaries)
{
	/* Raw: 8 + 52 + 2 = 62 bytes, one block; 8 + 56 + 2 = 66, two. */
	ck_assert_uint_eq(mk(0, 0, 52).blocks, 1);
	ck_assert_uint_eq(mk(0, 0, 56).blocks, 2);
	/* 8 + 2036 + 2 = 2046 bytes: 32 blocks; 8 + 2040 + 2: 33. */
	ck_assert_uint_eq(mk(0, 0, 2036).blocks, 32);
	ck_assert_uint_eq(mk(0, 0, 2040).blocks, 33);
}
END_TEST

static Suite *packet_suite(void)
{
	Suite *s = suite_create("packet");
	TCase *tc = tcase_create("sizes");

	tcase_set_timeout(tc, 5);
	tcase_add_test(tc, ext_bytes_each_header);
	tcase_add_test(tc, raw_packets);
	tcase_add_test(tc, transport_packets);
	tcase_add_test(tc, block_boundaries);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(packet_suite)
