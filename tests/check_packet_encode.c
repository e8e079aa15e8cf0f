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

/* Big-endian fields read back. */
static uint64_t be(const uint8_t *b, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | b[i];
	return v;
}

START_TEST(ud_send_imm_layout)
{
	struct ibfs_packet p;
	memset(&p, 0, sizeof(p));
	p.lnh = 2;
	p.opcode = 0x65; /* UD SEND Only with Immediate (IBA table 35) */
	p.dest_qp = 0x000101;
	p.xh = IBFS_XH_DETH | IBFS_XH_IMM;
	p.deth.qkey = 0x11223344;
	p.deth.src_qp = 0xABCDEF;
	p.imm = 0xDEADBEEF;
	p.payload_len = 5;
	uint8_t b[IBFS_MAX_WIRE_BYTES];
	size_t n = ibfs__packet_encode(&p, b, sizeof(b));
	/* LRH 8, BTH 12, DETH 8 (9.3.3), ImmDt 4 (9.3.8), 5 + 3 pad, 4 + 2. */
	ck_assert_uint_eq(n, 8 + 12 + 8 + 4 + 8 + 4 + 2);
	ck_assert_uint_eq(b[9] >> 4 & 3, 3);         /* pad count */
	ck_assert_uint_eq(be(b + 20, 4), 0x11223344); /* Q_Key */
	ck_assert_uint_eq(b[24], 0);                  /* reserved */
	ck_assert_uint_eq(be(b + 25, 3), 0xABCDEF);   /* SrcQP */
	ck_assert_uint_eq(be(b + 28, 4), 0xDEADBEEF); /* ImmDt after DETH */
	for (int i = 32; i < 40; i++)                 /* payload, pad */
		ck_assert_uint_eq(b[i], 0);
	ck_assert_uint_eq(be(b + 4, 2) & 0x7FF, (n - 2) / 4);
}
END_TEST

START_TEST(atomic_request_layout)
{
	struct ibfs_packet p;
	memset(&p, 0, sizeof(p));
	p.lnh = 2;
	p.opcode = 0x13; /* RC CmpSwap */
	p.xh = IBFS_XH_ATOMIC;
	p.atomic.va = 0x0102030405060708ull;
	p.atomic.rkey = 0x0A0B0C0D;
	p.atomic.swap_add = 0x1111222233334444ull;
	p.atomic.compare = 0x5555666677778888ull;
	uint8_t b[IBFS_MAX_WIRE_BYTES];
	size_t n = ibfs__packet_encode(&p, b, sizeof(b));
	/* AtomicETH (9.3.5): VA 8, R_Key 4, SwapData 8, CompareData 8. */
	ck_assert_uint_eq(n, 8 + 12 + 28 + 4 + 2);
	ck_assert_uint_eq(be(b + 20, 8), 0x0102030405060708ull);
	ck_assert_uint_eq(be(b + 28, 4), 0x0A0B0C0D);
	ck_assert_uint_eq(be(b + 32, 8), 0x1111222233334444ull);
	ck_assert_uint_eq(be(b + 40, 8), 0x5555666677778888ull);
	ck_assert_uint_eq(b[9] >> 4 & 3, 0); /* no payload, no pad */
}
END_TEST

/*
 * A global packet (LNH 3): the GRH (IBA 8.3) between LRH and BTH, with the
 * link-local GIDs fe80::LID; its ICRC covers neither the LRH nor the
 * GRH's TClass, FlowLabel and HopLmt (IBA 7.8.1), which routers rewrite.
 */
START_TEST(global_packet_grh)
{
	struct ibfs_packet p = write_only();
	p.lnh = 3;
	uint8_t a[IBFS_MAX_WIRE_BYTES], b[IBFS_MAX_WIRE_BYTES];
	size_t n = ibfs__packet_encode(&p, a, sizeof(a));
	/* 40 bytes more than the local packet of headers_at_their_offsets. */
	ck_assert_uint_eq(n, 74 + 40);
	ck_assert_uint_eq(a[1] & 3, 3);                 /* LNH: GRH follows */
	ck_assert_uint_eq(be(a + 4, 2) & 0x7FF, (n - 2) / 4);
	ck_assert_uint_eq(a[8] >> 4, 6);                /* IPVer */
	ck_assert_uint_eq(be(a + 12, 2), n - 8 - 40 - 2); /* PayLen to ICRC */
	ck_assert_uint_eq(a[14], 0x1B);                 /* NxtHdr: BTH */
	ck_assert_uint_eq(a[15], 0xFF);                 /* HopLmt */
	ck_assert_uint_eq(be(a + 16, 8), 0xFE80000000000000ull);
	ck_assert_uint_eq(be(a + 24, 8), 0x0056);       /* SGID: SLID */
	ck_assert_uint_eq(be(a + 32, 8), 0xFE80000000000000ull);
	ck_assert_uint_eq(be(a + 40, 8), 0x1234);       /* DGID: DLID */
	ck_assert_uint_eq(a[48], 0x0A);                 /* BTH opcode */
	ck_assert_uint_eq(be(a + 53, 3), 0xABCDEF);     /* DestQP */
	/* The ICRC: LRH all ones, TClass, FlowLabel, HopLmt, Resv8a too. */
	uint8_t m[IBFS_MAX_WIRE_BYTES];
	memcpy(m, a, n - 6);
	memset(m, 0xFF, 8);
	m[8] |= 0x0F;
	m[9] = m[10] = m[11] = 0xFF;
	m[15] = 0xFF;
	m[48 + 4] = 0xFF;
	ck_assert_uint_eq(stored_icrc(a, n), ibfs__crc32_ib(m, n - 6));
	/* The same packet on another VL and SL through another DLID path:
	 * the LRH changed, the ICRC did not. */
	memcpy(b, a, n);
	b[0] = 0x70;
	b[1] = (uint8_t)(0x50 | 3);
	ck_assert_uint_eq(ibfs__icrc(b, n - 6), stored_icrc(a, n));
	/* The GRH's SGID is covered. */
	b[31] ^= 1;
	ck_assert_uint_ne(ibfs__icrc(b, n - 6), stored_icrc(a, n));
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
	tcase_add_test(tc, ud_send_imm_layout);
	tcase_add_test(tc, atomic_request_layout);
	tcase_add_test(tc, global_packet_grh);
	tcase_add_test(tc, too_small_buffer_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

IBFS_CHECK_MAIN(packet_encode_suite)
