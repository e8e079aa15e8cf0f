/* SPDX-License-Identifier: MIT */
/*
 * Multicast at the HCA (IBA 10.5): UD QPs attached to groups, and the
 * receive of a packet to a multicast DLID. A channel adapter port accepts
 * a packet whose DLID is an MLID it has QPs attached to; it delivers a
 * copy to each UD QP attached to that group on the port (MLID and, from
 * the GRH every multicast packet carries, the MGID), each copy checked
 * against that QP's Q_Key and consuming one of its receive WQEs, as one
 * received UD packet would (ud.c). With none attached the packet is
 * dropped. Only UD QPs may attach: the IBA has no multicast on connected
 * service types.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hca/hca_int.h"

struct ibfs_hca_mcast {
	struct ibfs_hca_qp *qp;
	uint16_t mlid;
	uint8_t mgid[16];
};

/*
 * The attachment of pub to (gid, lid): its index in h->mc, -1 when there
 * is none; -2 for a bad request: a QP that is not UD, a GID that is not
 * multicast (IBA 4.1.1: first byte 0xFF), a LID outside 0xC000-0xFFFE.
 */
static int mc_find(struct ibfs_qp *pub, const union ibfs_gid *gid,
		   uint16_t lid)
{
	if (!pub || !gid || pub->qp_type != IBFS_QPT_UD ||
	    gid->raw[0] != 0xFF || lid < IBFS_MCAST_LID_BASE ||
	    lid == IBFS_PERMISSIVE_LID)
		return -2;
	struct ibfs_hca_qp *qp = (struct ibfs_hca_qp *)pub;
	const struct ibfs_hca *h = qp->hca;

	for (uint32_t i = 0; i < h->nmc; i++)
		if (h->mc[i].qp == qp && h->mc[i].mlid == lid &&
		    !memcmp(h->mc[i].mgid, gid->raw, 16))
			return (int)i;
	return -1;
}

int ibfs_attach_mcast(struct ibfs_qp *pub, const union ibfs_gid *gid,
		      uint16_t lid)
{
	int i = mc_find(pub, gid, lid);

	if (i != -1)
		return i == -2 ? EINVAL : 0;
	struct ibfs_hca_qp *qp = (struct ibfs_hca_qp *)pub;
	struct ibfs_hca *h = qp->hca;

	if (h->nmc == h->mc_cap) {
		uint32_t cap = h->mc_cap ? 2 * h->mc_cap : 4;
		struct ibfs_hca_mcast *m = realloc(h->mc, cap * sizeof(*m));

		if (!m)
			return ENOMEM;
		h->mc = m;
		h->mc_cap = cap;
	}
	struct ibfs_hca_mcast *m = &h->mc[h->nmc++];

	m->qp = qp;
	m->mlid = lid;
	memcpy(m->mgid, gid->raw, 16);
	return 0;
}

int ibfs_detach_mcast(struct ibfs_qp *pub, const union ibfs_gid *gid,
		      uint16_t lid)
{
	int i = mc_find(pub, gid, lid);

	if (i < 0)
		return EINVAL;
	struct ibfs_hca *h = ((struct ibfs_hca_qp *)pub)->hca;

	h->mc[i] = h->mc[--h->nmc];
	return 0;
}

void ibfs__mcast_qp_gone(struct ibfs_hca_qp *qp)
{
	struct ibfs_hca *h = qp->hca;

	for (uint32_t i = 0; i < h->nmc;)
		if (h->mc[i].qp == qp)
			h->mc[i] = h->mc[--h->nmc];
		else
			i++;
}

void ibfs__mcast_free(struct ibfs_hca *h)
{
	free(h->mc);
	h->mc = NULL;
	h->nmc = h->mc_cap = 0;
}

void ibfs__mcast_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = hp->hca;
	struct ibfs_fabric *f = h->dev.fab;
	int copies = 0, refused = 0;

	/* The group's MGID is the GRH's DGID (IBA 8.3.1). Each attached QP
	 * checks the P_Key as for a unicast packet (IBA 10.9.3): a copy it
	 * does not match is dropped and counted in P_KeyViolations. */
	if ((p->xh & IBFS_XH_DGID) && (p->opcode & 0xe0) == IBFS_OP_UD &&
	    hp->lid)
		for (uint32_t i = 0; i < h->nmc; i++) {
			const struct ibfs_hca_mcast *m = &h->mc[i];

			if (m->mlid != p->dlid || m->qp->port != hp->num ||
			    m->qp->destroyed || memcmp(m->mgid, p->dgid, 16))
				continue;
			if (!ibfs__pkey_match(p->pkey, ibfs__qp_pkey(m->qp))) {
				hp->port->pkey_violations++;
				refused++;
				continue;
			}
			if (!copies++)
				ibfs__fabric_deliver(f, p);
			ibfs__ud_rx(m->qp, p);
		}
	/* No member took it: for its P_Key if some member refused it. */
	if (!copies) {
		h->st.dropped++;
		ibfs__fabric_drop(f, p, refused ? IBFS_DROP_PKEY :
						  IBFS_DROP_NO_RECEIVER);
	}
	ibfs__packet_free(f, p);
}
