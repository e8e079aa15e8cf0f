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

#include "fabric/eth.h"
#include "fabric/packet_encode.h"
#include "fabric/tcp_frame.h"

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

/* The BTH (IBA 9.2) and the extension headers. */
static uint8_t *put_bth(uint8_t *b, const struct ibfs_packet *p, uint32_t pad)
{
	*b++ = p->opcode;
	*b++ = (uint8_t)((p->se ? 0x80 : 0) | (p->mig ? 0x40 : 0) |
			 (pad << 4) | (p->tver & 0xF));
	b = put16(b, p->pkey);
	/* FECN, BECN (IBA A10.2.2), then 6 reserved bits. */
	*b++ = (uint8_t)((p->fecn ? 0x80 : 0) | (p->becn ? 0x40 : 0));
	b = put24(b, p->dest_qp);
	*b++ = p->ack_req ? 0x80 : 0;
	b = put24(b, p->psn);
	return put_ext(b, p);
}

/* The payload (zeros without a payload buffer) and its pad. */
static uint8_t *put_payload(uint8_t *b, const struct ibfs_packet *p,
			    uint32_t pad)
{
	if (p->payload_len) {
		if (p->payload)
			memcpy(b, p->payload, p->payload_len);
		else
			memset(b, 0, p->payload_len);
		b += p->payload_len;
	}
	memset(b, 0, pad);
	return b + pad;
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
	if (!raw)
		b = put_bth(b, p, pad);
	b = put_payload(b, p, pad);
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

/*
 * RoCEv2 frames (packet_encode.h). Layouts, most significant bit first,
 * big-endian:
 *   Ethernet (802.3 3.1.1): destination MAC 6, source MAC 6, EtherType 2;
 *     an 802.1Q tag (802.1Q 9.6) before it: TPID 0x8100, PCP:3 DEI:1
 *     VID:12.
 *   IPv4 (RFC 791 3.1): Version:4 IHL:4 | DSCP:6 ECN:2 | Total Length:16 |
 *     Identification:16 | Flags:3 Fragment Offset:13 | TTL:8 |
 *     Protocol:8 | Header Checksum:16 | Source:32 | Destination:32.
 *   IPv6 (RFC 8200 3): Version:4 Traffic Class:8 Flow Label:20 | Payload
 *     Length:16 | Next Header:8 | Hop Limit:8 | Source:128 |
 *     Destination:128.
 *   UDP (RFC 768): Source Port:16 | Destination Port:16 | Length:16 |
 *     Checksum:16.
 */

/* 802.1Q: VID 0 marks a priority-tagged frame, the tag carrying only the
 * PCP (802.1Q 9.6), as a RoCE NIC tags without a VLAN. */
#define ETH_VID 0
/* RFC 3168 5: ECN-Capable Transport ECT(0), what RoCEv2 NICs send so that
 * switches can mark congestion (DCQCN). */
#define ECN_ECT0 0x2
/* RFC 3168 5: Congestion Experienced, what a marking switch writes; held
 * in p->fecn under the Ethernet link kind (fabric/eth.h). */
#define ECN_CE 0x3
#define IP_TTL 64
#define IP_PROTO_UDP 17

/*
 * IPv6 addresses of host id h: the unique local prefix fd00::/64 (RFC
 * 4193) with the host's IPv4 address as the low 32 bits of the interface
 * id: a choice of the simulator, as ibfs__eth_ipv4 is.
 */
static uint8_t *put_ipv6_addr(uint8_t *b, uint32_t h)
{
	b = put64(b, 0xFD00000000000000ull);
	return put64(b, ibfs__eth_ipv4(h));
}

/* RFC 1071: the ones' complement of the ones' complement sum of 16-bit
 * words, from a running 32-bit sum. */
static uint32_t csum_add(uint32_t sum, const uint8_t *b, size_t len)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)b[i] << 8 | b[i + 1];
	if (len & 1)
		sum += (uint32_t)b[len - 1] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

uint16_t ibfs__ipv4_checksum(const uint8_t *hdr, size_t len)
{
	return csum_fold(csum_add(0, hdr, len));
}

/* UDP over IPv6: its checksum is mandatory (RFC 8200 8.1), over the
 * pseudo-header of source, destination, length and next header. */
static uint16_t udp6_checksum(const uint8_t *ip6, const uint8_t *udp,
			      size_t len)
{
	uint32_t sum = csum_add(0, ip6 + 8, 32);
	uint16_t c;

	sum += (uint32_t)len + IP_PROTO_UDP;
	c = csum_fold(csum_add(sum, udp, len));
	return c ? c : 0xFFFF; /* 0 means no checksum (RFC 768) */
}

uint32_t ibfs__roce_icrc(const uint8_t *ip, size_t len, int ipv6)
{
	uint8_t m[8 + IBFS_MAX_ETH_FRAME];
	size_t iph = ipv6 ? IBFS_IPV6_HDR : IBFS_IPV4_HDR;
	uint8_t *h = m + 8;

	if (len > IBFS_MAX_ETH_FRAME || len < iph + IBFS_UDP_HDR +
						    IBFS_BTH_BYTES)
		return 0;
	memset(m, 0xFF, 8); /* in the place of an LRH */
	memcpy(h, ip, len);
	if (ipv6) {
		h[0] |= 0x0F; /* Traffic Class and Flow Label */
		h[1] = h[2] = h[3] = 0xFF;
		h[7] = 0xFF; /* Hop Limit */
	} else {
		h[1] = 0xFF;  /* DSCP and ECN */
		h[8] = 0xFF;  /* TTL */
		h[10] = h[11] = 0xFF; /* Header Checksum */
	}
	h[iph + 6] = h[iph + 7] = 0xFF; /* UDP Checksum */
	h[iph + IBFS_UDP_HDR + 4] = 0xFF; /* BTH: FECN, BECN, Resv6 */
	return ibfs__crc32_ib(m, 8 + len);
}

/* Destination and source MAC, the 802.1Q tag if any, the EtherType. */
static uint8_t *put_eth(uint8_t *b, uint32_t dst, uint32_t src, int vlan,
			uint8_t prio, uint16_t type)
{
	ibfs__eth_mac(dst, b);
	ibfs__eth_mac(src, b + 6);
	b += 12;
	if (vlan) {
		b = put16(b, 0x8100);
		b = put16(b, (uint32_t)(prio & 7) << 13 | ETH_VID);
	}
	return put16(b, type);
}

/* The IP header for `l4` bytes of UDP datagram. */
static uint8_t *put_ip(uint8_t *b, const struct ibfs_packet *p, int ipv6,
		       uint32_t l4)
{
	/* DSCP: the class selector of the priority (RFC 2474 4.2.2.1). */
	uint8_t tos = (uint8_t)((p->vl & 7) << 5 |
				(p->fecn ? ECN_CE : ECN_ECT0));

	if (ipv6) {
		b = put32(b, 6u << 28 | (uint32_t)tos << 20);
		b = put16(b, l4);
		*b++ = IP_PROTO_UDP;
		*b++ = IP_TTL;
		b = put_ipv6_addr(b, p->slid);
		return put_ipv6_addr(b, p->dlid);
	}
	uint8_t *h = b;
	*b++ = 0x45; /* version 4, 5 words */
	*b++ = tos;
	b = put16(b, IBFS_IPV4_HDR + l4);
	b = put16(b, 0);      /* Identification: unused with DF (RFC 6864) */
	b = put16(b, 0x4000); /* DF: RoCE frames are never fragmented */
	*b++ = IP_TTL;
	*b++ = IP_PROTO_UDP;
	b = put16(b, 0);
	b = put32(b, ibfs__eth_ipv4(p->slid));
	b = put32(b, ibfs__eth_ipv4(p->dlid));
	put16(h + 10, ibfs__ipv4_checksum(h, IBFS_IPV4_HDR));
	return b;
}

/* The FCS of the frame [buf, b), after padding it to the minimum. */
static size_t put_fcs(uint8_t *buf, uint8_t *b)
{
	size_t n = (size_t)(b - buf);

	if (n < IBFS_ETH_MIN_FRAME - IBFS_ETH_FCS) {
		memset(b, 0, IBFS_ETH_MIN_FRAME - IBFS_ETH_FCS - n);
		n = IBFS_ETH_MIN_FRAME - IBFS_ETH_FCS;
	}
	uint32_t fcs = ibfs__crc32_ib(buf, n);

	for (int i = 0; i < 4; i++)
		buf[n++] = (uint8_t)(fcs >> (8 * i));
	return n;
}

size_t ibfs__roce_encode(const struct ibfs_packet *p, int vlan, int ipv6,
			 uint8_t *buf, size_t len)
{
	uint32_t pad = (4 - p->payload_len % 4) % 4;
	uint32_t l4 = IBFS_UDP_HDR + IBFS_BTH_BYTES +
		      ibfs__packet_ext_bytes(p->xh) + p->payload_len + pad +
		      IBFS_ICRC_BYTES;
	size_t l2 = IBFS_ETH_HDR + (vlan ? IBFS_ETH_VLAN : 0);
	size_t iph = ipv6 ? IBFS_IPV6_HDR : IBFS_IPV4_HDR;
	size_t total = l2 + iph + l4 + IBFS_ETH_FCS;

	if (total < IBFS_ETH_MIN_FRAME)
		total = IBFS_ETH_MIN_FRAME;
	if (!(p->lnh & 2) || total > len || total > IBFS_MAX_ETH_FRAME)
		return 0;
	uint8_t *b = put_eth(buf, p->dlid, p->slid, vlan, p->vl,
			     ipv6 ? 0x86DD : 0x0800);
	uint8_t *ip = b;

	b = put_ip(b, p, ipv6, l4);
	uint8_t *udp = b;

	b = put16(b, ibfs__roce_udp_sport(p));
	b = put16(b, IBFS_ROCE_UDP_PORT);
	b = put16(b, l4);
	b = put16(b, 0); /* none over IPv4 (RoCEv2 allows it, RFC 768) */
	uint8_t *bth = b;

	b = put_bth(b, p, pad);
	/* RoCEv2 signals congestion in IP's ECN field (IBA Annex A17's
	 * congestion management); the BTH's FECN bit goes out 0. */
	bth[4] &= 0x7F;
	b = put_payload(b, p, pad);
	uint32_t icrc = ibfs__roce_icrc(ip, (size_t)(b - ip), ipv6);

	for (int i = 0; i < 4; i++)
		*b++ = (uint8_t)(icrc >> (8 * i));
	if (ipv6)
		put16(udp + 6, udp6_checksum(ip, udp, l4));
	return put_fcs(buf, b);
}

/*
 * The TCP options as Linux writes them (tcp_options_write), in the order
 * and with the NOPs that ibfs__tcp_opt_bytes counts (RFC 9293 3.2, RFC
 * 2018, RFC 7323): MSS; SACK-permitted with the timestamps in place of
 * two NOPs, or NOP NOP timestamps, or NOP NOP SACK-permitted; NOP window
 * scale; NOP NOP SACK blocks.
 */
static uint8_t *put_tcp_opts(uint8_t *b, const struct ibfs_tcp_frame *f)
{
	if (f->mss) {
		*b++ = 2;
		*b++ = 4;
		b = put16(b, f->mss);
	}
	if (f->ts) {
		if (f->sack_ok) {
			*b++ = 4;
			*b++ = 2;
		} else {
			*b++ = 1;
			*b++ = 1;
		}
		*b++ = 8;
		*b++ = 10;
		b = put32(b, f->tsval);
		b = put32(b, f->tsecr);
	} else if (f->sack_ok) {
		*b++ = 1;
		*b++ = 1;
		*b++ = 4;
		*b++ = 2;
	}
	if (f->wscale >= 0) {
		*b++ = 1;
		*b++ = 3;
		*b++ = 3;
		*b++ = (uint8_t)f->wscale;
	}
	if (f->nsack) {
		*b++ = 1;
		*b++ = 1;
		*b++ = 5;
		*b++ = (uint8_t)(2 + 8 * f->nsack);
		for (int i = 0; i < f->nsack && i < 4; i++) {
			b = put32(b, f->sack[i].left);
			b = put32(b, f->sack[i].right);
		}
	}
	return b;
}

static size_t tcp_opt_len(const struct ibfs_tcp_frame *f)
{
	return (f->mss ? 4 : 0) + (f->ts ? 12 : f->sack_ok ? 4 : 0) +
	       (f->wscale >= 0 ? 4 : 0) + (f->nsack ? 4 + 8u * f->nsack : 0);
}

/* The TCP checksum over the IPv4 pseudo-header (RFC 9293 3.1). */
static uint16_t tcp4_checksum(const uint8_t *ip, const uint8_t *tcp,
			      size_t len)
{
	uint32_t sum = csum_add(0, ip + 12, 8);

	sum += IBFS_IPPROTO_TCP + (uint32_t)len;
	return csum_fold(csum_add(sum, tcp, len));
}

size_t ibfs__tcp_encode(const struct ibfs_packet *p, int vlan, uint8_t *buf,
			size_t len)
{
	struct ibfs_tcp_frame f;

	ibfs__tcp_frame_get(p, &f);
	size_t opt = tcp_opt_len(&f);
	size_t l4 = 20 + opt + f.len;
	size_t total = IBFS_ETH_HDR + (vlan ? IBFS_ETH_VLAN : 0) +
		       IBFS_IPV4_HDR + l4 + IBFS_ETH_FCS;
	/* The IP ECN field: CE where a switch marked an ECN-capable frame. */
	uint8_t ecn = p->fecn && f.ecn ? ECN_CE : f.ecn;

	if (!ibfs__is_tcp_frame(p) || total > len || total < l4)
		return 0;
	uint8_t *b = put_eth(buf, p->dlid, p->slid, vlan, p->vl, 0x0800);
	uint8_t *ip = b;

	*b++ = 0x45; /* version 4, 5 words */
	*b++ = (uint8_t)((p->vl & 7) << 5 | ecn);
	b = put16(b, (uint32_t)(IBFS_IPV4_HDR + l4));
	b = put16(b, 0);      /* Identification: unused with DF (RFC 6864) */
	b = put16(b, 0x4000); /* DF: path MTU discovery, as Linux */
	*b++ = IP_TTL;
	*b++ = IBFS_IPPROTO_TCP;
	b = put16(b, 0);
	b = put32(b, ibfs__eth_ipv4(p->slid));
	b = put32(b, ibfs__eth_ipv4(p->dlid));
	put16(ip + 10, ibfs__ipv4_checksum(ip, IBFS_IPV4_HDR));
	uint8_t *tcp = b;

	b = put16(b, f.sport);
	b = put16(b, f.dport);
	b = put32(b, f.seq);
	b = put32(b, f.ack);
	*b++ = (uint8_t)(((20 + opt) / 4) << 4);
	*b++ = f.flags;
	b = put16(b, f.window);
	b = put16(b, 0); /* checksum, below */
	b = put16(b, 0); /* urgent pointer */
	b = put_tcp_opts(b, &f);
	memset(b, 0, f.len); /* the payload: lengths only */
	b += f.len;
	put16(tcp + 16, tcp4_checksum(ip, tcp, l4));
	return put_fcs(buf, b);
}

size_t ibfs__pfc_encode(const uint8_t src_mac[6], uint8_t enable,
			const uint16_t quanta[IBFS_ETH_PRIOS], uint8_t *buf,
			size_t len)
{
	/* 802.3 31B.1: MAC control frames go to the reserved multicast
	 * address 01-80-C2-00-00-01. */
	static const uint8_t dst[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
	uint8_t *b = buf;

	if (len < IBFS_PFC_FRAME)
		return 0;
	memcpy(b, dst, 6);
	memcpy(b + 6, src_mac, 6);
	b = put16(b + 12, IBFS_ETH_MAC_CONTROL);
	b = put16(b, IBFS_PFC_OPCODE);
	b = put16(b, enable); /* priority-enable vector, priority 0 in bit 0 */
	for (int i = 0; i < IBFS_ETH_PRIOS; i++)
		b = put16(b, quanta[i]);
	return put_fcs(buf, b);
}
