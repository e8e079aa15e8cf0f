/* SPDX-License-Identifier: MIT */
/*
 * Ethernet framing and addressing shared by the Ethernet switch, the
 * RoCEv2 RNIC and the captures (eth.h): a RoCEv2 frame's size on the wire,
 * pause times, host addresses, the UDP source port and the ECMP hash.
 */
#include "fabric/eth.h"
#include "fabric/tcp_frame.h"

void ibfs__roce_finish(struct ibfs_packet *p, int vlan, int ipv6)
{
	uint32_t pad = (4 - (p->payload_len & 3)) & 3;
	uint32_t frame = IBFS_ETH_HDR + (vlan ? IBFS_ETH_VLAN : 0) +
			 (ipv6 ? IBFS_IPV6_HDR : IBFS_IPV4_HDR) +
			 IBFS_UDP_HDR + IBFS_BTH_BYTES +
			 ibfs__packet_ext_bytes(p->xh) + p->payload_len + pad +
			 IBFS_ICRC_BYTES + IBFS_ETH_FCS;

	if (p->xh & IBFS_XH_INT)
		frame += IBFS_INT_BYTES;

	p->pad = (uint8_t)pad;
	p->wire_bytes = ibfs__eth_wire_bytes(frame);
	p->blocks = (uint16_t)((ibfs__eth_frame_bytes(p) +
				IBFS_CREDIT_BLOCK - 1) / IBFS_CREDIT_BLOCK);
}

uint64_t ibfs__pfc_quanta_ps(uint16_t quanta, uint64_t bps)
{
	/* quanta x 512 bits at bps: x 10^12 ps a second, rounded up. */
	uint64_t bits = (uint64_t)quanta * IBFS_PFC_QUANTUM_BITS;
	unsigned __int128 ps = (unsigned __int128)bits * 1000000000000ull;

	return (uint64_t)((ps + bps - 1) / bps);
}

void ibfs__eth_mac(uint32_t h, uint8_t mac[6])
{
	mac[0] = 0x02; /* locally administered, unicast (IEEE 802 8.2.2) */
	mac[1] = 0;
	mac[2] = 0;
	mac[3] = (uint8_t)(h >> 16);
	mac[4] = (uint8_t)(h >> 8);
	mac[5] = (uint8_t)h;
}

/* A 32-bit finaliser (MurmurHash3's fmix32): every input bit reaches
 * every output bit, so nearby QP numbers spread over the next hops. */
static uint32_t eth_mix(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85EBCA6Bu;
	h ^= h >> 13;
	h *= 0xC2B2AE35u;
	h ^= h >> 16;
	return h;
}

uint16_t ibfs__roce_udp_sport(const struct ibfs_packet *p)
{
	uint32_t h = eth_mix(((uint32_t)p->slid << 16 | p->dlid) ^
			     eth_mix(p->dest_qp));

	return (uint16_t)(0xC000u | (h & 0x3FFFu));
}

/* A TCP frame's 5-tuple: protocol 6 and the connection's ports. */
static uint32_t eth_tcp_hash(const struct ibfs_packet *p, uint32_t h)
{
	struct ibfs_tcp_frame f;

	ibfs__tcp_frame_get(p, &f);
	h = eth_mix(h ^ IBFS_IPPROTO_TCP);
	return eth_mix(h ^ ((uint32_t)f.sport << 16 | f.dport));
}

uint32_t ibfs__eth_flow_hash(const struct ibfs_packet *p, uint32_t seed)
{
	uint32_t h = eth_mix(seed ^ ibfs__eth_ipv4(p->slid));

	h = eth_mix(h ^ ibfs__eth_ipv4(p->dlid));
	if (ibfs__is_tcp_frame(p))
		return eth_tcp_hash(p, h);
	h = eth_mix(h ^ 17u); /* IP protocol: UDP */
	h = eth_mix(h ^ ((uint32_t)ibfs__roce_udp_sport(p) << 16 |
			 IBFS_ROCE_UDP_PORT));
	return h;
}
