/* SPDX-License-Identifier: MIT */
/*
 * MCMemberRecord (IBA 15.2.5.17) at the SA: joins, leaves and queries of
 * multicast groups, as OpenSM's osm_sa_mcmember_record.c handles them (the
 * rules below are OpenSM's, read from its source; the IBA sections are
 * from memory, unchecked).
 *
 * SubnAdmSet joins the port named by PortGID, which must be the
 * requester's own (no proxy joins), with the JoinState bits given
 * (FullMember 1, SendOnlyNonMember 4; NonMember 2 is refused as not
 * modelled). MGID, PortGID and JoinState are required. A join to an MGID
 * no group has creates the group, which needs Q_Key, TClass, P_Key,
 * FlowLabel and SL as well; an MGID of zeros asks the SA for one, which
 * it makes as OpenSM does: ff1S:a01b, S the scope (2, link-local, unless
 * given), the subnet prefix fe80::, then a 32-bit count. The new group
 * takes the lowest MLID free from 0xC000, and the MTU and rate of the
 * requester's link (selector "exactly"). A join to a group that exists
 * must agree with the group's Q_Key, P_Key, SL, TClass, FlowLabel and
 * MLID where it gives them. A port joining again adds its bits.
 *
 * SubnAdmDelete removes the JoinState bits given from the requester's
 * membership; with none left the port leaves, and a group with no member
 * left is deleted and frees its MLID, as OpenSM does.
 *
 * SubnAdmGet answers the one record (group, member port) that matches
 * the MGID, MLID, PortGID and JoinState components given: none is
 * ERR_NO_RECORDS, more than one ERR_TOO_MANY_RECORDS (IBA 15.4).
 *
 * A join or leave that changes the members has the SM rebuild the tree
 * and reprogram the MFT blocks that change (sm_mcast.c), once the
 * response has left: the response does not wait for them, as OpenSM's
 * does not.
 */
#include <stdlib.h>
#include <string.h>

#include "subnet_manager/sa_int.h"

/* The components a join needs, and a join that creates a group. */
#define MCM_JOIN_MASK (IBFS_MCR_MGID | IBFS_MCR_PORT_GID | IBFS_MCR_JOIN_STATE)
#define MCM_CREATE_MASK                                                    \
	(MCM_JOIN_MASK | IBFS_MCR_QKEY | IBFS_MCR_TCLASS | IBFS_MCR_PKEY | \
	 IBFS_MCR_FLOW | IBFS_MCR_SL)
/* PacketLifeTime of a group: OpenSM's default subnet_timeout, 18. */
#define MCM_LIFE 18

static int mcm_find(const struct ibfs_sm *sm, const uint8_t mgid[16])
{
	for (int i = 0; i < sm->ngroups; i++)
		if (!memcmp(sm->groups[i].mgid, mgid, 16))
			return i;
	return -1;
}

static int mcm_member(const struct ibfs_mcast_group *g, int node, int port)
{
	for (int k = 0; k < g->nmembers; k++)
		if (g->members[k].node == node && g->members[k].port == port)
			return k;
	return -1;
}

static uint8_t mcm_state(const struct ibfs_mcast_member *m)
{
	if (m->join_state)
		return m->join_state;
	return m->send_only ? IBFS_JOIN_SENDONLY : IBFS_JOIN_FULL;
}

static void mcm_set_state(struct ibfs_mcast_member *m, uint8_t st)
{
	m->join_state = st;
	m->send_only = !(st & IBFS_JOIN_FULL);
}

/* The lowest MLID no group has, 0 when all are taken. */
static uint16_t mcm_free_mlid(const struct ibfs_sm *sm)
{
	for (uint32_t mlid = IBFS_MLID_FIRST;
	     mlid < IBFS_MLID_FIRST + IBFS_MLID_COUNT; mlid++) {
		int used = 0;

		for (int i = 0; i < sm->ngroups && !used; i++)
			used = sm->groups[i].mlid == mlid;
		if (!used)
			return (uint16_t)mlid;
	}
	return 0;
}

/* The MTU and rate codes of a topology port's link. */
static void mcm_link(const struct ibfs_sa *sa, int node, int port,
		     uint8_t *mtu, uint8_t *rate)
{
	const struct ibfs_topology *t = sa->sm->f->topo;
	int l = t->nodes[node].ports[port].link;

	*mtu = ibfs__mad_mtu_code((uint32_t)t->def.mtu);
	*rate = l >= 0 ? ibfs__sa_rate_code(t->links[l].speed,
					    t->links[l].width)
		       : 0;
}

/* The record of group g for member port (node, port) in state st. */
static void mcm_record(const struct ibfs_sa *sa,
		       const struct ibfs_mcast_group *g, int node, int port,
		       uint8_t st, struct ibfs_mcmember_rec *r)
{
	const struct ibfs_topology *t = sa->sm->f->topo;

	memset(r, 0, sizeof(*r));
	memcpy(r->mgid, g->mgid, 16);
	if (node >= 0)
		ibfs__sa_port_gid(t->nodes[node].ports[port].guid,
				  r->port_gid);
	r->qkey = g->qkey;
	r->mlid = g->mlid;
	r->mtu_sel = r->rate_sel = r->life_sel = 2; /* exactly */
	r->mtu = g->mtu;
	r->rate = g->rate;
	/* A group given at bring-up: its first member's link, the default
	 * partition. */
	if (!g->mtu && g->nmembers)
		mcm_link(sa, g->members[0].node, g->members[0].port, &r->mtu,
			 &r->rate);
	r->life = MCM_LIFE;
	r->tclass = g->tclass;
	r->pkey = g->pkey ? g->pkey : 0xffff;
	r->sl = g->sl;
	r->flow = g->flow;
	r->hop_limit = g->hop_limit;
	r->scope = g->scope;
	r->join_state = st;
}

static uint16_t mcm_answer(const struct ibfs_sa *sa,
			   const struct ibfs_mcast_group *g, int node,
			   int port, uint8_t st, struct ibfs_sa_mad *resp)
{
	struct ibfs_mcmember_rec r;

	mcm_record(sa, g, node, port, st, &r);
	ibfs__sa_put_mcmember(resp->data, &r);
	resp->attr_offset = ibfs__sa_attr_offset(IBFS_MCMEMBER_BYTES);
	return 0;
}

/* A join to an existing group must agree with what it gives. */
static int mcm_agrees(const struct ibfs_mcast_group *g,
		      const struct ibfs_mcmember_rec *r, uint64_t c)
{
	return (!(c & IBFS_MCR_QKEY) || r->qkey == g->qkey) &&
	       (!(c & IBFS_MCR_PKEY) || r->pkey == g->pkey) &&
	       (!(c & IBFS_MCR_SL) || r->sl == g->sl) &&
	       (!(c & IBFS_MCR_TCLASS) || r->tclass == g->tclass) &&
	       (!(c & IBFS_MCR_FLOW) || r->flow == g->flow) &&
	       (!(c & IBFS_MCR_MLID) || r->mlid == g->mlid);
}

/* An MGID of zeros: the SA makes one (see the top of the file). */
static void mcm_new_mgid(struct ibfs_sa *sa, const struct ibfs_mcmember_rec *r,
			 uint64_t c, uint8_t mgid[16])
{
	uint8_t scope = c & IBFS_MCR_SCOPE ? r->scope : 2;

	do {
		uint32_t n = ++sa->mgid_seq;

		memset(mgid, 0, 16);
		mgid[0] = 0xff;
		mgid[1] = (uint8_t)(0x10 | (scope & 0xf));
		mgid[2] = 0xa0;
		mgid[3] = 0x1b;
		mgid[4] = 0xfe;
		mgid[5] = 0x80;
		mgid[12] = (uint8_t)(n >> 24);
		mgid[13] = (uint8_t)(n >> 16);
		mgid[14] = (uint8_t)(n >> 8);
		mgid[15] = (uint8_t)n;
	} while (mcm_find(sa->sm, mgid) >= 0);
}

/* Creates a group from a join: its index, or -1 with *status. */
static int mcm_create(struct ibfs_sa *sa, const struct sa_req *rq,
		      const struct ibfs_mcmember_rec *r, uint16_t *status)
{
	struct ibfs_sm *sm = sa->sm;
	uint64_t c = rq->m->comp_mask;
	uint16_t mlid = mcm_free_mlid(sm);

	*status = IBFS_SA_ERR_INSUFFICIENT_COMPONENTS;
	if ((c & MCM_CREATE_MASK) != MCM_CREATE_MASK)
		return -1;
	*status = IBFS_SA_ERR_NO_RESOURCES;
	if (!mlid)
		return -1;
	if (sm->ngroups == sm->gcap) {
		int cap = sm->gcap ? 2 * sm->gcap : 8;
		struct ibfs_mcast_group *v =
			realloc(sm->groups, (size_t)cap * sizeof(*v));

		if (!v)
			return -1;
		sm->groups = v;
		sm->gcap = cap;
	}
	struct ibfs_mcast_group *g = &sm->groups[sm->ngroups];

	memset(g, 0, sizeof(*g));
	memcpy(g->mgid, r->mgid, 16);
	if (!memcmp(g->mgid, (uint8_t[16]){ 0 }, 16))
		mcm_new_mgid(sa, r, c, g->mgid);
	g->mlid = mlid;
	g->qkey = r->qkey;
	g->pkey = r->pkey;
	g->sl = r->sl;
	g->tclass = r->tclass;
	g->flow = r->flow;
	g->hop_limit = r->hop_limit;
	g->scope = g->mgid[1] & 0xf;
	mcm_link(sa, rq->node, rq->port, &g->mtu, &g->rate);
	return sm->ngroups++;
}

static void mcm_event(struct ibfs_sa *sa, enum ibfs_sm_mc_kind kind,
		      const struct sa_req *rq, const struct ibfs_mcast_group *g,
		      uint8_t st, uint16_t status)
{
	struct ibfs_sm_mc_event e = { .kind = kind, .node = rq->node,
				      .port = rq->port, .status = status,
				      .join_state = st,
				      .at = sa->sm->f->eq.now };

	if (g) {
		e.mlid = g->mlid;
		memcpy(e.mgid, g->mgid, 16);
	}
	ibfs__sm_mc_notify(sa->sm, &e);
}

static uint16_t mcm_join(struct ibfs_sa *sa, const struct sa_req *rq,
			 struct ibfs_sa_mad *resp)
{
	struct ibfs_sm *sm = sa->sm;
	struct ibfs_mcmember_rec r;
	uint64_t c = rq->m->comp_mask;
	uint16_t st = 0;

	ibfs__sa_get_mcmember(rq->m->data, &r);
	if ((c & MCM_JOIN_MASK) != MCM_JOIN_MASK)
		return IBFS_SA_ERR_INSUFFICIENT_COMPONENTS;
	if (ibfs__sa_gid_guid(r.port_gid) != rq->port_guid ||
	    !r.join_state || (r.join_state & ~(IBFS_JOIN_FULL |
					       IBFS_JOIN_SENDONLY)) ||
	    (r.mgid[0] != 0xff && memcmp(r.mgid, (uint8_t[16]){ 0 }, 16)))
		return IBFS_SA_ERR_REQ_INVALID;
	int gi = mcm_find(sm, r.mgid), fresh = gi < 0;

	if (fresh && (gi = mcm_create(sa, rq, &r, &st)) < 0)
		return st;
	struct ibfs_mcast_group *g = &sm->groups[gi];

	if (!fresh && !mcm_agrees(g, &r, c))
		return IBFS_SA_ERR_REQ_INVALID;
	int k = mcm_member(g, rq->node, rq->port);
	uint8_t before = k >= 0 ? mcm_state(&g->members[k]) : 0;

	if (k < 0 && ibfs__mcast_add_member(g, rq->node, rq->port, 0) < 0) {
		if (fresh)
			sm->ngroups--;
		return IBFS_SA_ERR_NO_RESOURCES;
	}
	if (k < 0)
		k = g->nmembers - 1;
	mcm_set_state(&g->members[k], (uint8_t)(before | r.join_state));
	mcm_event(sa, IBFS_SM_MC_JOIN, rq, g, r.join_state, 0);
	mcm_answer(sa, g, rq->node, rq->port, mcm_state(&g->members[k]), resp);
	ibfs__sa_changed(sa, fresh ? -1 : gi);
	return 0;
}

/* Removes group gi, which has no member left. */
static void mcm_delete(struct ibfs_sm *sm, int gi)
{
	free(sm->groups[gi].members);
	memmove(&sm->groups[gi], &sm->groups[gi + 1],
		(size_t)(sm->ngroups - gi - 1) * sizeof(*sm->groups));
	sm->ngroups--;
}

static uint16_t mcm_leave(struct ibfs_sa *sa, const struct sa_req *rq,
			  struct ibfs_sa_mad *resp)
{
	struct ibfs_sm *sm = sa->sm;
	struct ibfs_mcmember_rec r;
	uint64_t c = rq->m->comp_mask;

	ibfs__sa_get_mcmember(rq->m->data, &r);
	if ((c & MCM_JOIN_MASK) != MCM_JOIN_MASK)
		return IBFS_SA_ERR_INSUFFICIENT_COMPONENTS;
	int gi = mcm_find(sm, r.mgid);

	if (gi < 0 || ibfs__sa_gid_guid(r.port_gid) != rq->port_guid)
		return IBFS_SA_ERR_REQ_INVALID;
	struct ibfs_mcast_group *g = &sm->groups[gi];
	int k = mcm_member(g, rq->node, rq->port);

	if (k < 0 || !(mcm_state(&g->members[k]) & r.join_state))
		return IBFS_SA_ERR_REQ_INVALID;
	uint8_t left = mcm_state(&g->members[k]) & (uint8_t)~r.join_state;

	mcm_answer(sa, g, rq->node, rq->port, r.join_state, resp);
	mcm_event(sa, IBFS_SM_MC_LEAVE, rq, g, r.join_state, 0);
	if (left) {
		mcm_set_state(&g->members[k], left);
		ibfs__sa_changed(sa, gi);
		return 0;
	}
	g->members[k] = g->members[--g->nmembers];
	if (g->nmembers) {
		ibfs__sa_changed(sa, gi);
		return 0;
	}
	mcm_delete(sm, gi);
	ibfs__sa_changed(sa, -1);
	return 0;
}

/* Does member k of group g match the query's components? */
static int mcm_matches(const struct ibfs_sa *sa,
		       const struct ibfs_mcast_group *g, int k,
		       const struct ibfs_mcmember_rec *q, uint64_t c)
{
	const struct ibfs_topology *t = sa->sm->f->topo;

	if ((c & IBFS_MCR_MGID) && memcmp(q->mgid, g->mgid, 16))
		return 0;
	if ((c & IBFS_MCR_MLID) && q->mlid != g->mlid)
		return 0;
	const struct ibfs_mcast_member *m = &g->members[k];

	if ((c & IBFS_MCR_PORT_GID) &&
	    ibfs__sa_gid_guid(q->port_gid) !=
		    t->nodes[m->node].ports[m->port].guid)
		return 0;
	return !(c & IBFS_MCR_JOIN_STATE) || q->join_state == mcm_state(m);
}

static uint16_t mcm_get(struct ibfs_sa *sa, const struct sa_req *rq,
			struct ibfs_sa_mad *resp)
{
	const struct ibfs_sm *sm = sa->sm;
	struct ibfs_mcmember_rec q;
	int found = 0, fg = -1, fk = -1;

	ibfs__sa_get_mcmember(rq->m->data, &q);
	for (int gi = 0; gi < sm->ngroups && found < 2; gi++) {
		const struct ibfs_mcast_group *g = &sm->groups[gi];

		for (int k = 0; k < g->nmembers && found < 2; k++)
			if (mcm_matches(sa, g, k, &q, rq->m->comp_mask)) {
				found++;
				fg = gi;
				fk = k;
			}
	}
	if (!found)
		return IBFS_SA_ERR_NO_RECORDS;
	if (found > 1)
		return IBFS_SA_ERR_TOO_MANY_RECORDS;
	const struct ibfs_mcast_group *g = &sm->groups[fg];
	const struct ibfs_mcast_member *m = &g->members[fk];

	return mcm_answer(sa, g, m->node, m->port, mcm_state(m), resp);
}

uint16_t ibfs__sa_mcmember(struct ibfs_sa *sa, const struct sa_req *rq,
			   struct ibfs_sa_mad *resp)
{
	switch (rq->m->method) {
	case IBFS_SA_SET:
		return mcm_join(sa, rq, resp);
	case IBFS_SA_DELETE:
		return mcm_leave(sa, rq, resp);
	default:
		return mcm_get(sa, rq, resp);
	}
}
