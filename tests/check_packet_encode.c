/* SPDX-License-Identifier: MIT */
/*
 * Packet encoding: header bytes at their IBA offsets, PktLen, pad, and the
 * ICRC/VCRC rules (which fields are masked, the CRC parameters).
 */
#include <string.h>

#include "check_common.h"
#include "fabric/packet_encode.h"

static struct ibfs_packet write_only(void)
{
	struct ibfs_packet p;
	memset(&p, 0, sizeof(p));
	p.kind = IBFS_PKT_DATA;
	p.lnh = 2; /* IBA local: LRH then BTH */
	p.vl = 1;
	p.sl = 3;
	p.dlid = 0x1234;
	p.slid = 0x0056;
	p.opcode = 0x0A; /* RC RDMA WRITE Only (IBA table 35) */
	p.pkey = 0xFFFF;
	p.dest_qp = 0xABCDEF;
	p.psn = 0x123456;
	p.ack_req = 1;
	p.se = 1;
	p.xh = IBFS_XH_RETH;
	p.reth.va = 0x0102030405060708ull;
	p.reth.rkey = 0xCAFEBABE;
	p.reth.dma_len = 30;
	p.payload_len = 30;
	return p;
}

START_TEST(crc32_check_value)
{
	/* The CRC-32 check value of "123456789" (Ethernet's CRC). */
	ck_assert_uint_eq(ibfs__crc32_ib((const uint8_t *)"123456789", 9),
			  0xCBF43926u);
}
END_TEST

START_TEST(crc16_matches_bitwise)
{
	/* Table-driven VCRC equals a bit-at-a-time reflected 0x100B CRC. */
	uint8_t data[37];
	for (unsigned i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 29 + 7);
	uint16_t c = 0xFFFF;
	for (unsigned i = 0; i < sizeof(data); i++) {
		c ^= data[i];
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (uint16_t)((c >> 1) ^ 0xD008)
				    : (uint16_t)(c >> 1);
	}
	ck_assert_uint_eq(ibfs__crc16_vcrc(data, sizeof(data)),
			  (uint16_t)~c);
}
END_TEST

START_TEST(headers_at_their_offsets)
{
	struct ibfs_packet p = write_only();
	uint8_t b[IBFS_MAX_WIRE_BYTES];
	size_t n = ibfs__packet_encode(&p, b, sizeof(b));
	/* LRH 8 + BTH 12 + RETH 16 + 30 payload + 2 pad + ICRC 4 + VCRC 2. */
	ck_assert_uint_eq(n, 74);
	ck_assert_uint_eq(b[0], 0x10);           /* VL 1, LVer 0 */
	ck_assert_uint_eq(b[1], 0x32);           /* SL 3, LNH IBA local */
	ck_assert_uint_eq(b[2] << 8 | b[3], 0x1234);
	ck_assert_uint_eq((b[4] << 8 | b[5]) & 0x7FF, (74 - 2) / 4);
	ck_assert_uint_eq(b[6] << 8 | b[7], 0x0056);
	ck_assert_uint_eq(b[8], 0x0A);           /* opcode */
	ck_assert_uint_eq(b[9], 0x80 | (2 << 4)); /* SE, pad 2, TVer 0 */
	ck_assert_uint_eq(b[10] << 8 | b[11], 0xFFFF);
	ck_assert_uint_eq(b[12], 0);             /* Resv8a */
	ck_assert_uint_eq(b[13] << 16 | b[14] << 8 | b[15], 0xABCDEF);
	ck_assert_uint_eq(b[16], 0x80);          /* AckReq */
	ck_assert_uint_eq(b[17] << 16 | b[18] << 8 | b[19], 0x123456);
	for (int i = 0; i < 8; i++)              /* RETH VA */
		ck_assert_uint_eq(b[20 + i], i + 1);
	ck_assert_uint_eq((uint32_t)b[28] << 24 | b[29] << 16 | b[30] << 8 |
				  b[31],
			  0xCAFEBABEu);
	ck_assert_uint_eq(b[35], 30);            /* DMA length */
}
END_TEST

/* ICRC stored least significant byte first after the pad. */
static uint32_t stored_icrc(const uint8_t *b, size_t n)
{
	const uint8_t *q = b + n - 6;
	return q[0] | q[1] << 8 | q[2] << 16 | (uint32_t)q[3] << 24;
}

START_TEST(icrc_masks_variant_fields_only)
{
	struct ibfs_packet p = write_only();
	uint8_t a[IBFS_MAX_WIRE_BYTES], b[IBFS_MAX_WIRE_BYTES];
	size_t n = ibfs__packet_encode(&p, a, sizeof(a));
	/* The ICRC is CRC-32 over LRH..pad with VL and Resv8a set to ones. */
	uint8_t m[IBFS_MAX_WIRE_BYTES];
	memcpy(m, a, n - 6);
	m[0] |= 0xF0;
	m[12] = 0xFF;
	ck_assert_uint_eq(stored_icrc(a, n), ibfs__crc32_ib(m, n - 6));
	/* A switch changing the VL leaves the ICRC alone... */
	p.vl = 7;
	ibfs__packet_encode(&p, b, sizeof(b));
	ck_assert_uint_eq(stored_icrc(a, n), stored_icrc(b, n));
	/* ...but not the VCRC, which covers everything up to the ICRC. */
	ck_assert(memcmp(a + n - 2, b + n - 2, 2) != 0);
	/* An invariant field (the DLID) changes the ICRC. */
	p.dlid ^= 1;
	ibfs__packet_encode(&p, b, sizeof(b));
	ck_assert_uint_ne(stored_icrc(a, n), stored_icrc(b, n));
}
END_TEST

START_TEST(vcrc_covers_lrh_to_icrc)
{
	struct ibfs_packet p = write_only();
	uint8_t b[IBFS_MAX_WIRE_BYTES];
	size_t n = ibfs__packet_encode(&p, b, sizeof(b));
	uint16_t v = ibfs__crc16_vcrc(b, n - 2);
	ck_assert_uint_eq(b[n - 2] | b[n - 1] << 8, v);
}
END_TEST

START_TEST(ack_and_atomic_layouts)
{
	struct ibfs_packet p;
	memset(&p, 0, sizeof(p));
	p.lnh = 2;
	p.opcode = 0x12; /* RC Atomic Acknowledge */
	p.xh = IBFS_XH_AETH | IBFS_XH_ATOMICACK;
	p.aeth.syndrome = 0x1F;
	p.aeth.msn = 0x000102;
	p.atomic_ack = 0x1122334455667788ull;
	uint8_t b[IBFS_MAX_WIRE_BYTES];
	size_t n = ibfs__packet_encode(&p, b, sizeof(b));
	ck_assert_uint_eq(n, 8 + 12 + 4 + 8 + 4 + 2);
	ck_assert_uint_eq(b[20], 0x1F);
	ck_assert_uint_eq(b[23], 0x02);
	ck_assert_uint_eq(b[24], 0x11);
	ck_assert_uint_eq(b[31], 0x88);
}
END_TEST

START_TEST(too_small_buffer_is_refused)
{
	struct ibfs_packet p = write_only();
	uint8_t b[40];
	ck_assert_uint_eq(ibfs__packet_encode(&p, b, sizeof(b)), 0);
}
END_TEST

static Suite *packet_encode_suite(void)
{
	Suite *s = suite_create("packet_encode");
	TCase *tc = tcase_create("encode");
	tcase_add_test(tc, crc32_check_value);
	tcase_add_test(tc, crc16_matches_bitwise);
	tcase_add_test(tc, headers_at_their_offsets);
	tcase_add_test(tc, icrc_masks_variant_fields_only);
	tcase_add_test(tc, vcrc_covers_lrh_to_icrc);
	tcase_add_test(tc, ack_and_atomic_layouts);
	tcase_add_test(tc, too_small_buffer_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(packet_encode_suite)
