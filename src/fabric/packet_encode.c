/* SPDX-License-Identifier: MIT */
/*
 * Packet encoding and the two link CRCs (see packet_encode.h for the model
 * and its sources). Header layouts, most significant bit first, big-endian:
 *   LRH (7.7):  VL:4 LVer:4 | SL:4 Rsv:2 LNH:2 | DLID:16 | Rsv:5 PktLen:11 |
 *               SLID:16, PktLen counting 4-byte words from LRH to ICRC.
 *   BTH (9.2):  OpCode:8 | SE:1 M:1 Pad:2 TVer:4 | P_Key:16 | F:1 B:1 Rsv:6 |
 *               DestQP:24 | A:1 Resv7:7 | PSN:24
 *   DETH 9.3.3 Q_Key:32 Rsv:8 SrcQP:24; RETH 9.3.4 VA:64 R_Key:32 Len:32;
 *   AtomicETH 9.3.5 VA:64 R_Key:32 Swap:64 Compare:64; AETH 9.3.6
 *   Syndrome:8 MSN:24; AtomicAckETH 9.5.2 OrigRemData:64; ImmDt 9.3.8.
 * Extension headers follow the BTH in the order DETH, RETH|AtomicETH,
 * AETH, AtomicAckETH, ImmDt|IETH (IBA 9.2, table 35).
 */
#include <string.h>

#include "fabric/packet_encode.h"

static uint32_t crc32_table[256];
static uint16_t crc16_table[256];
static int tables_ready;

/* Reflected table-driven CRCs: 0xEDB88320 is 0x04C11DB7 bit-reversed and
 * 0xD008 is 0x100B bit-reversed. */
static void make_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		uint16_t v = (uint16_t)i;
		for (int k = 0; k < 8; k++) {
			c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
			v = (v & 1) ? (uint16_t)((v >> 1) ^ 0xD008u)
				    : (uint16_t)(v >> 1);
		}
		crc32_table[i] = c;
		crc16_table[i] = v;
	}
	tables_ready = 1;
}

uint32_t ibfs__crc32_ib(const uint8_t *buf, size_t len)
{
	if (!tables_ready)
		make_tables();
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < len; i++)
		c = crc32_table[(c ^ buf[i]) & 0xFF] ^ (c >> 8);
	return ~c;
}

uint16_t ibfs__crc16_vcrc(const uint8_t *buf, size_t len)
{
	if (!tables_ready)
		make_tables();
	uint16_t c = 0xFFFF;
	for (size_t i = 0; i < len; i++)
		c = (uint16_t)(crc16_table[(c ^ buf[i]) & 0xFF] ^ (c >> 8));
	return (uint16_t)~c;
}

uint32_t ibfs__icrc(const uint8_t *pkt, size_t len)
{
	uint8_t masked[IBFS_MAX_WIRE_BYTES];
	if (len > sizeof(masked) || len < IBFS_LRH_BYTES)
		return 0;
	memcpy(masked, pkt, len);
	size_t bth = IBFS_LRH_BYTES;
	if ((masked[1] & 3) == 3) {
		/* Global: LRH ignored, GRH TClass/FlowLabel/HopLmt ones. */
		memset(masked, 0xFF, IBFS_LRH_BYTES);
		masked[8] |= 0x0F;
		masked[9] = masked[10] = masked[11] = 0xFF;
		masked[15] = 0xFF;
		bth += IBFS_GRH_BYTES;
	} else {
		masked[0] |= 0xF0; /* LRH:VL */
	}
	if (bth + 4 < len)
		masked[bth + 4] = 0xFF; /* BTH: FECN, BECN, Resv6 */
	return ibfs__crc32_ib(masked, len);
}

static uint8_t *put16(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
	return b + 2;
}

static uint8_t *put24(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 16);
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)v;
	return b + 3;
}

static uint8_t *put32(uint8_t *b, uint32_t v)
{
	return put16(put16(b, v >> 16), v & 0xFFFF);
}

static uint8_t *put64(uint8_t *b, uint64_t v)
{
	return put32(put32(b, (uint32_t)(v >> 32)), (uint32_t)v);
}

void ibfs__packet_put_grh(const struct ibfs_packet *p, uint8_t *b)
{
	uint32_t pad = (4 - p->payload_len % 4) % 4;
	/* PayLen: the bytes after the GRH up to the ICRC (none if raw). */
	uint32_t paylen = p->payload_len + pad;

	if (p->lnh & 2)
		paylen += IBFS_BTH_BYTES + ibfs__packet_ext_bytes(p->xh) +
			  IBFS_ICRC_BYTES;

	/* IPVer 6, TClass 0, FlowLabel 0; NxtHdr 0x1B (IBA transport). */
	b = put32(b, 6u << 28);
	b = put16(b, paylen);
	*b++ = 0x1B;
	*b++ = 0xFF; /* HopLmt */
	/* GIDs: link-local prefix fe80::/64 and the LID as interface id,
	 * but a DGID the sender gave (a multicast group's MGID). */
	b = put64(b, 0xFE80000000000000ull);
	b = put64(b, p->slid);
	if (p->xh & IBFS_XH_DGID) {
		memcpy(b, p->dgid, 16);
		return;
	}
	b = put64(b, 0xFE80000000000000ull);
	put64(b, p->dlid);
}

static uint8_t *put_ext(uint8_t *b, const struct ibfs_packet *p)
{
	if (p->xh & IBFS_XH_DETH) {
		b = put32(b, p->deth.qkey);
		*b++ = 0;
		b = put24(b, p->deth.src_qp);
	}
	if (p->xh & IBFS_XH_RETH) {
		b = put64(b, p->reth.va);
		b = put32(b, p->reth.rkey);
		b = put32(b, p->reth.dma_len);
	}
	if (p->xh & IBFS_XH_ATOMIC) {
		b = put64(b, p->atomic.va);
		b = put32(b, p->atomic.rkey);
		b = put64(b, p->atomic.swap_add);
		b = put64(b, p->atomic.compare);
	}
	if (p->xh & IBFS_XH_AETH) {
		*b++ = p->aeth.syndrome;
		b = put24(b, p->aeth.msn);
	}
	if (p->xh & IBFS_XH_ATOMICACK)
		b = put64(b, p->atomic_ack);
	if (p->xh & (IBFS_XH_IMM | IBFS_XH_IETH))
		b = put32(b, p->imm);
	return b;
}

size_t ibfs__packet_encode(const struct ibfs_packet *p, uint8_t *buf,
			   size_t len)
{
	/* LNH (IBA 7.7.3): bit 1 set: a BTH follows; bit 0 set: a GRH. */
	int raw = !(p->lnh & 2);
	int global = (p->lnh & 1) || (p->xh & IBFS_XH_GRH);
	uint32_t pad = (4 - p->payload_len % 4) % 4;
	size_t hdr = IBFS_LRH_BYTES + (global ? IBFS_GRH_BYTES : 0) +
		     (raw ? 0 : IBFS_BTH_BYTES + ibfs__packet_ext_bytes(p->xh));
	size_t body = hdr + p->payload_len + pad + (raw ? 0 : IBFS_ICRC_BYTES);
	size_t total = body + IBFS_VCRC_BYTES;
	if (total > len || total > IBFS_MAX_WIRE_BYTES)
		return 0;
	uint8_t lnh = (uint8_t)((raw ? 0 : 2) | (global ? 1 : 0));
	uint8_t *b = buf;
	*b++ = (uint8_t)((p->vl & 0xF) << 4); /* LVer 0 */
	*b++ = (uint8_t)(((p->sl & 0xF) << 4) | lnh);
	b = put16(b, p->dlid);
	b = put16(b, (uint16_t)((body / 4) & 0x7FF));
	b = put16(b, p->slid);
	if (global) {
		ibfs__packet_put_grh(p, b);
		b += IBFS_GRH_BYTES;
	}
	if (!raw) {
		*b++ = p->opcode;
		*b++ = (uint8_t)((p->se ? 0x80 : 0) | (p->mig ? 0x40 : 0) |
				 (pad << 4) | (p->tver & 0xF));
		b = put16(b, p->pkey);
		/* FECN, BECN (IBA A10.2.2), then 6 reserved bits. */
		*b++ = (uint8_t)((p->fecn ? 0x80 : 0) | (p->becn ? 0x40 : 0));
		b = put24(b, p->dest_qp);
		*b++ = p->ack_req ? 0x80 : 0;
		b = put24(b, p->psn);
		b = put_ext(b, p);
	}
	if (p->payload_len) {
		if (p->payload)
			memcpy(b, p->payload, p->payload_len);
		else
			memset(b, 0, p->payload_len);
		b += p->payload_len;
	}
	memset(b, 0, pad);
	b += pad;
	if (!raw) {
		uint32_t icrc = ibfs__icrc(buf, (size_t)(b - buf));
		for (int i = 0; i < 4; i++)
			*b++ = (uint8_t)(icrc >> (8 * i));
	}
	uint16_t vcrc = ibfs__crc16_vcrc(buf, (size_t)(b - buf));
	*b++ = (uint8_t)vcrc;
	*b++ = (uint8_t)(vcrc >> 8);
	return (size_t)(b - buf);
}
