/* SPDX-License-Identifier: MIT */
/*
 * PathRecord (IBA 15.2.5.16) at the SA: SubnAdmGet of the path between
 * two end ports, as OpenSM's osm_sa_path_record.c answers it (fields and
 * their values as saquery shows OpenSM's; IBA section numbers from
 * memory, unchecked).
 *
 * The source is the port of SGID or SLID when given, else the requester;
 * the destination the port of DGID or DLID, which one of them must name
 * (else ERR_INSUFFICIENT_COMPONENTS). A LID given is kept (one of a
 * port's 2^LMC LIDs), else the base LID. The answer: the ports' GIDs
 * (link-local prefix and port GUID), DLID and SLID, the SL the routing
 * engine gives that path (subnet.h: dfsssp's layer, lash's lane, else
 * 0), the fabric's MTU and the slowest link on the route the switches'
 * LFTs take, each with the selector "exactly" (2), PacketLifeTime 18
 * (OpenSM's default subnet_timeout) with the same selector, Reversible
 * set and NumbPath 0, P_Key 0xFFFF, HopLimit, FlowLabel, TClass and
 * Preference 0. A P_Key given must be 0xFFFF (partitions in path
 * queries are not modelled).
 */
#include <string.h>

#include "subnet_manager/sa_int.h"

/* The port a GID or LID component names: 0, or -1 if none does. */
static int pr_end(const struct ibfs_sa *sa, const uint8_t gid[16],
		  int gid_given, uint16_t *lid, int lid_given, int *node,
		  int *port)
{
	uint64_t guid;

	if (lid_given)
		return ibfs__sa_lid_port(sa, *lid, node, port, &guid);
	if (!gid_given ||
	    ibfs__sa_guid_port(sa, ibfs__sa_gid_guid(gid), node, port) < 0)
		return -1;
	*lid = ibfs__sa_port_lid(sa, *node, *port);
	return *lid ? 0 : -1;
}

/* The rate code of the slowest link from (node, port) to dlid. */
static uint8_t pr_rate(const struct ibfs_sa *sa, int node, int port,
		       uint16_t dlid)
{
	const struct ibfs_topology *t = sa->sm->f->topo;
	const struct ibfs_subnet *sn = sa->sm->sn;
	uint8_t best = 0xff;

	for (int hops = 0; hops < 64; hops++) {
		int l = t->nodes[node].ports[port].link;

		if (l < 0)
			break;
		uint8_t r = ibfs__sa_rate_code(t->links[l].speed,
					       t->links[l].width);

		if (r < best)
			best = r;
		int next = t->nodes[node].ports[port].peer_node;
		int s = -1;

		for (int i = 0; i < sa->sm->ndn; i++)
			if (sa->sm->dn[i].topo == next &&
			    sa->sm->dn[i].seen == sa->sm->sweep_no)
				s = sn->nodes[sa->sm->dn[i].sn].sw;
		if (s < 0 || dlid > sn->max_lid)
			break;
		node = next;
		port = *ibfs__subnet_lft(sn, s, dlid);
		if (port < 1 || port > t->nodes[node].nports)
			break;
	}
	return best == 0xff ? 0 : best;
}

uint16_t ibfs__sa_path(struct ibfs_sa *sa, const struct sa_req *rq,
		       struct ibfs_sa_mad *resp)
{
	const struct ibfs_topology *t = sa->sm->f->topo;
	uint64_t c = rq->m->comp_mask;
	struct ibfs_path_rec q, r;
	int sn_, sp, dn_, dp;

	if (rq->m->method != IBFS_SA_GET)
		return IBFS_SA_STATUS_BAD_ATTR;
	ibfs__sa_get_path(rq->m->data, &q);
	if (!(c & (IBFS_PR_DGID | IBFS_PR_DLID)))
		return IBFS_SA_ERR_INSUFFICIENT_COMPONENTS;
	memset(&r, 0, sizeof(r));
	r.slid = q.slid;
	r.dlid = q.dlid;
	if (!(c & (IBFS_PR_SGID | IBFS_PR_SLID))) {
		sn_ = rq->node;
		sp = rq->port;
		r.slid = rq->slid;
	} else if (pr_end(sa, q.sgid, c & IBFS_PR_SGID, &r.slid,
			  c & IBFS_PR_SLID, &sn_, &sp) < 0) {
		return IBFS_SA_ERR_NO_RECORDS;
	}
	if (pr_end(sa, q.dgid, c & IBFS_PR_DGID, &r.dlid, c & IBFS_PR_DLID,
		   &dn_, &dp) < 0 ||
	    t->nodes[sn_].type != IBFS_NODE_HCA ||
	    t->nodes[dn_].type != IBFS_NODE_HCA)
		return IBFS_SA_ERR_NO_RECORDS;
	if ((c & IBFS_PR_PKEY) && (q.pkey & 0x7fff) != 0x7fff)
		return IBFS_SA_ERR_NO_RECORDS;
	ibfs__sa_port_gid(t->nodes[sn_].ports[sp].guid, r.sgid);
	ibfs__sa_port_gid(t->nodes[dn_].ports[dp].guid, r.dgid);
	r.reversible = 1;
	r.pkey = 0xffff;
	r.sl = ibfs__subnet_path_sl(sa->sm->sn, r.slid, r.dlid);
	r.mtu_sel = r.rate_sel = r.life_sel = 2;
	r.mtu = ibfs__mad_mtu_code((uint32_t)t->def.mtu);
	r.rate = pr_rate(sa, sn_, sp, r.dlid);
	r.life = 18;
	if ((c & IBFS_PR_SL) && q.sl != r.sl)
		return IBFS_SA_ERR_NO_RECORDS;
	ibfs__sa_put_path(resp->data, &r);
	resp->attr_offset = ibfs__sa_attr_offset(IBFS_PATH_RECORD_BYTES);
	return 0;
}
