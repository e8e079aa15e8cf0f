/* SPDX-License-Identifier: MIT */
/*
 * RoCEv2 under the HCA transport (IBA Annex A17): the same QPs, PSNs,
 * ACKs and retries as over InfiniBand, carried in Ethernet, IPv4 or IPv6
 * and UDP to port 4791 instead of an LRH (fabric/eth.h has the sizes).
 *
 * Addressing: the DLID and SLID of a packet are the destination's and the
 * source's host ids (fabric/eth.h), from which the IP and MAC addresses
 * follow; a port answers to its own host id only, since an IP address has
 * no LMC path bits.
 *
 * Priority: an Ethernet frame has one of eight priorities (802.1Qbb), and
 * the packet's sl and vl both hold it. The SL of the address vector (as
 * the traffic class a RoCE NIC is given) maps to a priority through the
 * port's SL-to-VL table, which under RoCE is the SL-to-priority table: SL
 * s on priority s mod 8 unless ibfs__hca_set_sl2vl sets it otherwise.
 * The priority travels in the IP header's DSCP (class selector: priority
 * x 8, RFC 2474 4.2.2.1, which a NIC that trusts DSCP maps back by
 * dividing by 8) and, on a port with an 802.1Q tag, in its PCP too.
 *
 * Partitions: the link checks no P_Key (an Ethernet port has no
 * P_KeyTable); the BTH still carries the QP's, which the receiving QP
 * checks as under InfiniBand (IBA 10.9.3).
 *
 * Flow control and loss: the port's flow ops decide when a frame may go
 * (pause frames under PFC) and whether an arriving frame is dropped (a
 * lossy switch's full buffer); a dropped frame is lost without a word,
 * and the IBA transport recovers it (PSN sequence error NAK, go-back-N,
 * the ACK timeout: IBA 9.7.5).
 */
#include "fabric/eth.h"
#include "hca/hca_int.h"

static void roce_frame(struct ibfs_hca_port *hp, struct ibfs_packet *p,
		       uint16_t dlid, uint8_t sl, uint8_t path_bits,
		       uint16_t pkey)
{
	(void)path_bits; /* no LMC: a host has one address per port */
	p->dlid = dlid;
	p->slid = hp->lid;
	p->sl = p->vl = hp->sl2vl[sl & 15];
	p->lnh = 2; /* a BTH follows the network header */
	p->pkey = pkey;
	ibfs__roce_finish(p, hp->hca->eth_vlan, hp->hca->eth_ipv6);
}

static int roce_accept(struct ibfs_hca_port *hp, const struct ibfs_packet *p)
{
	return hp->lid && p->dlid == hp->lid;
}

const struct ibfs_hca_link_ops ibfs__roce_link_ops = {
	.frame = roce_frame,
	.can_send = ibfs__hca_port_can_send,
	.send = ibfs__hca_port_send,
	.consume = ibfs__hca_port_consume,
	.accept = roce_accept,
};
