/* SPDX-License-Identifier: MIT */
/*
 * The InfiniBand link under the HCA transport: the Local Route Header
 * (IBA 7.7: DLID, SLID, SL, VL, LNH), the packet's wire size, and sending
 * through a fabric port with its credits (IBA 7.9). The VL is the port's
 * SL-to-VL table's (hca.c: SL s on data VL s mod the number of data VLs
 * until a subnet manager with QoS settings programs it). A port whose
 * link is down accepts packets and loses them, as a real port that is not
 * Active does not transmit: the transport's timers then see the loss.
 */
#include "hca/hca_int.h"

/* The port's LIDs differ in their low LMC bits, the path bits. */
static uint16_t ibl_path_mask(const struct ibfs_hca_port *hp)
{
	return (uint16_t)((1u << hp->lmc) - 1);
}

static void ibl_frame(struct ibfs_hca_port *hp, struct ibfs_packet *p,
		      uint16_t dlid, uint8_t sl, uint8_t path_bits,
		      uint16_t pkey)
{
	p->dlid = dlid;
	/* Source path bits beyond the LMC are ignored, as a ConnectX
	 * masks them (IBA 7.11.1: the SLID is one of the port's LIDs). */
	p->slid = (uint16_t)(hp->lid | (path_bits & ibl_path_mask(hp)));
	p->sl = sl;
	p->vl = hp->sl2vl[sl & 15];
	p->lnh = 2; /* IBA local: BTH follows the LRH (IBA 7.7.1) */
	p->pkey = pkey; /* the QP's (IBA 9.2, 10.9.1) */
	ibfs__packet_finish(p);
}

/*
 * Through the fabric port, whatever the link: its flow control (credits,
 * or PFC on Ethernet) decides; shared with roce_link.c.
 */
int ibfs__hca_port_can_send(struct ibfs_hca_port *hp,
			    const struct ibfs_packet *p)
{
	struct ibfs_port *port = hp->port;
	if (!port->peer || !port->up)
		return 1; /* the packet will be lost */
	if (!p)
		return !port->tx_busy;
	return ibfs__port_can_send(port, p);
}

ibfs_time_t ibfs__hca_port_send(struct ibfs_hca_port *hp,
				struct ibfs_packet *p)
{
	struct ibfs_port *port = hp->port;
	struct ibfs_fabric *f = hp->hca->dev.fab;
	ibfs__fabric_inject(f, p);
	if (!port->peer || !port->up) {
		hp->hca->st.dropped++;
		ibfs__fabric_drop(f, p, IBFS_DROP_PORT_DOWN);
		ibfs__packet_free(f, p);
		return f->eq.now;
	}
	ibfs__port_send(port, p);
	return port->tx_free_at; /* the end of its transmission (link.c) */
}

void ibfs__hca_port_consume(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	ibfs__port_consume(hp->port, p);
}

static int ibl_accept(struct ibfs_hca_port *hp, const struct ibfs_packet *p)
{
	/* With LMC l the port answers to 2^l LIDs from its base LID (IBA
	 * 7.11.1). The P_Key is checked against the QP's (hca.c). */
	uint16_t mask = (uint16_t)~ibl_path_mask(hp);
	return hp->lid && (p->dlid & mask) == hp->lid;
}

const struct ibfs_hca_link_ops ibfs__ib_link_ops = {
	.frame = ibl_frame,
	.can_send = ibfs__hca_port_can_send,
	.send = ibfs__hca_port_send,
	.consume = ibfs__hca_port_consume,
	.accept = ibl_accept,
};
