/* SPDX-License-Identifier: MIT */
/*
 * A TCP segment's size on an Ethernet link, and TSO's cutting of a
 * super-segment into pieces the size of the MSS (what the NIC does: every
 * piece gets the headers and options of the super-segment, its own
 * sequence number; FIN and PSH only on the last piece, CWR only on the
 * first, as Linux's GSO leaves them).
 */
#include "transport/tcp_int.h"

#include "fabric/eth.h"

/*
 * Options as Linux lays them out (tcp_options_write), each aligned to 4
 * with NOPs (RFC 9293 3.2 lets options start anywhere; aligning is what
 * stacks do): MSS 4; timestamps 10 + 2 NOPs = 12, with SACK-permitted in
 * the NOPs' place on a SYN; SACK-permitted alone 2 + 2 NOPs = 4; window
 * scale 3 + 1 NOP = 4; n SACK blocks 2 + 8n + 2 NOPs.
 */
uint32_t ibfs__tcp_opt_bytes(const struct ibfs_tcp_seg *seg)
{
	uint32_t b = 0;

	if (seg->mss)
		b += 4;
	if (seg->ts)
		b += IBFS_TCP_TS_BYTES;
	if (seg->sack_ok && !seg->ts)
		b += 4;
	if (seg->wscale >= 0)
		b += 4;
	if (seg->nsack)
		b += 4 + 8 * (uint32_t)seg->nsack;
	return b;
}

static uint32_t tcp_piece_wire(uint32_t opt, uint32_t len)
{
	return ibfs__eth_wire_bytes(IBFS_ETH_HDR + IBFS_IPV4_HDR +
				    IBFS_TCP_HDR + opt + len + IBFS_ETH_FCS);
}

uint32_t ibfs__tcp_tso_count(const struct ibfs_tcp_seg *seg)
{
	if (!seg->tso_mss || seg->len <= seg->tso_mss)
		return 1;
	return (seg->len + seg->tso_mss - 1) / seg->tso_mss;
}

uint32_t ibfs__tcp_wire_bytes(const struct ibfs_tcp_seg *seg)
{
	uint32_t opt = ibfs__tcp_opt_bytes(seg);
	uint32_t n = ibfs__tcp_tso_count(seg);

	if (n == 1)
		return tcp_piece_wire(opt, seg->len);
	return (n - 1) * tcp_piece_wire(opt, seg->tso_mss) +
	       tcp_piece_wire(opt, seg->len - (n - 1) * seg->tso_mss);
}

void ibfs__tcp_tso_piece(const struct ibfs_tcp_seg *seg, uint32_t i,
			 struct ibfs_tcp_seg *out)
{
	uint32_t n = ibfs__tcp_tso_count(seg);
	uint32_t off;

	*out = *seg;
	out->tso_mss = 0;
	if (n == 1)
		return;
	off = i * seg->tso_mss;
	out->seq = seg->seq + off;
	out->len = i + 1 < n ? seg->tso_mss : seg->len - off;
	if (seg->data)
		out->data = seg->data + off;
	if (i + 1 < n)
		out->flags &= (uint8_t)~(IBFS_TCP_FIN | IBFS_TCP_PSH);
	if (i > 0)
		out->flags &= (uint8_t)~IBFS_TCP_CWR;
}
