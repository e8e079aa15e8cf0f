/* SPDX-License-Identifier: MIT */
/*
 * Sizes of an InfiniBand packet on the wire and in credits. A packet is
 * LRH (8 bytes, IBA 7.7), then a GRH (40 bytes, IBA 8.3) when the LRH's
 * Link Next Header says so, then for IBA transport packets a BTH (12 bytes,
 * IBA 9.2) and the extension headers the opcode calls for (IBA 9.3), the
 * payload, a pad of 0-3 bytes to a 4-byte boundary (BTH PadCnt, IBA 9.2.5),
 * the ICRC (4 bytes, IBA 7.8.1) and the VCRC (2 bytes, IBA 7.8.2).
 * Raw packets (LNH 0 or 1, IBA 5.3) carry no BTH and no ICRC.
 * The receiver's buffer is counted in 64-byte blocks (IBA 7.9.4.1), so a
 * packet takes its wire size rounded up to whole blocks.
 */
#include "fabric/packet.h"

uint32_t ibfs__packet_ext_bytes(uint16_t xh)
{
	uint32_t n = 0;

	/* The GRH is not an extension header: the LNH field selects it. */
	if (xh & IBFS_XH_DETH)
		n += IBFS_DETH_BYTES;
	if (xh & IBFS_XH_RETH)
		n += IBFS_RETH_BYTES;
	if (xh & IBFS_XH_ATOMIC)
		n += IBFS_ATOMICETH_BYTES;
	if (xh & IBFS_XH_AETH)
		n += IBFS_AETH_BYTES;
	if (xh & IBFS_XH_ATOMICACK)
		n += IBFS_ATOMICACKETH_BYTES;
	/* ImmDt and IETH are both 4 bytes (IBA 9.3.6, 9.3.7). */
	if (xh & IBFS_XH_IMM)
		n += IBFS_IMMDT_BYTES;
	if (xh & IBFS_XH_IETH)
		n += IBFS_IMMDT_BYTES;
	return n;
}

void ibfs__packet_finish(struct ibfs_packet *p)
{
	/*
	 * LNH (IBA 7.7.3): 0 raw, 1 raw with IPv6 header (GRH), 2 IBA local
	 * (BTH follows the LRH), 3 IBA global (GRH then BTH). An IBFS_XH_GRH
	 * flag on a local packet is honoured by switching LNH to global.
	 */
	if ((p->xh & IBFS_XH_GRH) && !(p->lnh & 1))
		p->lnh |= 1;
	if (p->lnh & 1)
		p->xh |= IBFS_XH_GRH;

	uint32_t bytes = IBFS_LRH_BYTES;

	if (p->lnh & 1)
		bytes += IBFS_GRH_BYTES;
	uint32_t pad = (4 - (p->payload_len & 3)) & 3;

	if (p->lnh & 2) {
		bytes += IBFS_BTH_BYTES + ibfs__packet_ext_bytes(p->xh);
		bytes += p->payload_len + pad + IBFS_ICRC_BYTES;
		p->pad = (uint8_t)pad;
	} else {
		/* Raw packets are a whole number of 4-byte words (IBA 5.3). */
		bytes += p->payload_len + pad;
		p->pad = 0;
	}
	bytes += IBFS_VCRC_BYTES;
	p->wire_bytes = bytes;
	p->blocks = (uint16_t)((bytes + IBFS_CREDIT_BLOCK - 1) /
			       IBFS_CREDIT_BLOCK);
}
