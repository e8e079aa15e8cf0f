/* SPDX-License-Identifier: MIT */
/*
 * Multicast joins and leaves at run time (<multicast-join>,
 * <multicast-leave>: scenario_mjoin.c), played on the fabric. At each one's
 * time an event has the HCA's SA client (src/hca/sa_client.c) send an
 * MCMemberRecord to the SA on the SM's port: a SubnAdmSet with MGID,
 * PortGID, JoinState, and the Q_Key (the traffic's), P_Key 0xFFFF, SL,
 * TClass and FlowLabel 0 that OpenSM needs to create a group; a
 * SubnAdmDelete with MGID, PortGID and JoinState. When a full member's
 * join is answered with success the application's UD QP for the group
 * (traffic_mcast.c) is attached to the MGID and the MLID the response
 * gives, as an application attaches after its join completes; it
 * detaches at its leave's time, before the Delete leaves. Copies reach
 * it once the SM has reprogrammed the MFTs (after the response), and no
 * more after the detach.
 *
 * The record of each (ibfs_mc_join_rec): when the SA processed it and
 * when its response arrived, from the SM's observer and the client; when
 * every MFT block the changes so far needed was acknowledged.
 */
#include <stdlib.h>
#include <string.h>

#include "hca/sa_client.h"
#include "scenario/mcast_joins.h"
#include "scenario/traffic.h"

struct ibfs_mjoins {
	const struct ibfs_scenario *sc;
	struct ibfs_fabric *f;
	struct ibfs_sm *sm;
	struct ibfs_traffic *t;
	struct ibfs_sa_client **client; /* by node, made when needed */
	struct ibfs_mc_join_rec *rec;   /* as sc->mjoins */
	size_t n;
};

static struct ibfs_sa_client *mj_client(struct ibfs_mjoins *mj, int node)
{
	if (!mj->client[node]) {
		struct ibfs_hca *h = ibfs__hca_of_node(mj->f, node);

		mj->client[node] = h ? ibfs__sa_client_new(h) : NULL;
	}
	return mj->client[node];
}

/* The MCMemberRecord request of record i. */
static void mj_request(const struct ibfs_mjoins *mj, size_t i,
		       struct ibfs_sa_mad *m)
{
	const struct ibfs_mc_join_rec *r = &mj->rec[i];
	const struct ibfs_topology *topo = mj->sc->topo;
	struct ibfs_mcmember_rec mc = { .qkey = IBFS_TRAFFIC_QKEY,
					.pkey = 0xffff,
					.join_state = r->state };

	memset(m, 0, sizeof(*m));
	m->method = r->leave ? IBFS_SA_DELETE : IBFS_SA_SET;
	m->attr_id = IBFS_SA_ATTR_MCMEMBER_RECORD;
	m->attr_offset = ibfs__sa_attr_offset(IBFS_MCMEMBER_BYTES);
	m->comp_mask = IBFS_MCR_MGID | IBFS_MCR_PORT_GID | IBFS_MCR_JOIN_STATE;
	if (!r->leave)
		m->comp_mask |= IBFS_MCR_QKEY | IBFS_MCR_TCLASS |
				IBFS_MCR_PKEY | IBFS_MCR_FLOW | IBFS_MCR_SL;
	memcpy(mc.mgid, mj->sc->groups[r->group].mgid, 16);
	ibfs__sa_port_gid(topo->nodes[r->node].ports[r->port].guid,
			  mc.port_gid);
	ibfs__sa_put_mcmember(m->data, &mc);
}

/* The application's QP for the group (full members only). */
static struct ibfs_qp *mj_qp(const struct ibfs_mjoins *mj,
			     const struct ibfs_mc_join_rec *r)
{
	if (!(r->state & IBFS_JOIN_FULL))
		return NULL;
	return ibfs__traffic_mc_qp(mj->t, r->group, r->node);
}

struct mj_ctx {
	struct ibfs_mjoins *mj;
	size_t i;
};

static void mj_answered(void *ctx, const struct ibfs_sa_mad *resp)
{
	struct ibfs_mjoins *mj = ((struct mj_ctx *)ctx)->mj;
	struct ibfs_mc_join_rec *r = &mj->rec[((struct mj_ctx *)ctx)->i];
	struct ibfs_mcmember_rec mc;
	struct ibfs_qp *qp = mj_qp(mj, r);

	free(ctx);
	ibfs__sa_get_mcmember(resp->data, &mc);
	r->answered = 1;
	r->resp = mj->f->eq.now;
	r->status = resp->status;
	r->mlid = mc.mlid;
	if (!r->leave && !resp->status && qp) {
		union ibfs_gid g;

		memcpy(g.raw, mc.mgid, 16);
		ibfs_attach_mcast(qp, &g, mc.mlid);
	}
}

/* The leave's QP stops receiving: detached from the MLID its last
 * answered join gave it. */
static void mj_detach(const struct ibfs_mjoins *mj,
		      const struct ibfs_mc_join_rec *r, struct ibfs_qp *qp)
{
	uint16_t mlid = 0;
	ibfs_time_t last = 0;
	union ibfs_gid g;

	for (size_t k = 0; k < mj->n; k++) {
		const struct ibfs_mc_join_rec *j = &mj->rec[k];

		if (!j->leave && j->node == r->node && j->group == r->group &&
		    j->answered && !j->status && j->resp >= last) {
			last = j->resp;
			mlid = j->mlid;
		}
	}
	memcpy(g.raw, mj->sc->groups[r->group].mgid, 16);
	if (mlid)
		ibfs_detach_mcast(qp, &g, mlid);
}

static void mj_event(void *obj, uint64_t i)
{
	struct ibfs_mjoins *mj = obj;
	struct ibfs_mc_join_rec *r = &mj->rec[i];
	struct ibfs_sa_client *c = mj_client(mj, r->node);
	struct ibfs_qp *qp = mj_qp(mj, r);
	struct mj_ctx *ctx = malloc(sizeof(*ctx));
	struct ibfs_sa_mad m;

	if (r->leave && qp)
		mj_detach(mj, r, qp);
	mj_request(mj, i, &m);
	if (!c || !ctx)
		goto fail;
	*ctx = (struct mj_ctx){ mj, i };
	if (ibfs__sa_client_send(c, r->port, &m, mj_answered, ctx) == 0)
		return;
fail:
	free(ctx);
	r->status = 0xffff; /* never sent */
}

/* The SM's observer: which request the SA took, and the MFTs' end. */
static void mj_heard(void *ctx, const struct ibfs_sm_mc_event *e)
{
	struct ibfs_mjoins *mj = ctx;

	for (size_t i = 0; i < mj->n; i++) {
		struct ibfs_mc_join_rec *r = &mj->rec[i];

		if (e->kind == IBFS_SM_MC_PROGRAMMED) {
			if (r->processed && !r->mft)
				r->mft = e->at;
			continue;
		}
		if (!r->processed && r->at && r->node == e->node &&
		    r->port == e->port &&
		    r->leave == (e->kind == IBFS_SM_MC_LEAVE) &&
		    !memcmp(mj->sc->groups[r->group].mgid, e->mgid, 16)) {
			r->processed = e->at;
			return;
		}
	}
}

struct ibfs_mjoins *ibfs__mjoins_new(const struct ibfs_scenario *sc,
				     struct ibfs_fabric *f, struct ibfs_sm *sm,
				     struct ibfs_traffic *t)
{
	struct ibfs_mjoins *mj = calloc(1, sizeof(*mj));

	if (!mj)
		return NULL;
	*mj = (struct ibfs_mjoins){ .sc = sc, .f = f, .sm = sm, .t = t,
				    .n = sc->nmjoins };
	mj->client = calloc(sc->topo->nnodes, sizeof(*mj->client));
	mj->rec = calloc(mj->n ? mj->n : 1, sizeof(*mj->rec));
	if (!mj->client || !mj->rec) {
		ibfs__mjoins_free(mj);
		return NULL;
	}
	for (size_t i = 0; i < mj->n; i++) {
		const struct ibfs_sc_mjoin *j = &sc->mjoins[i];

		mj->rec[i] = (struct ibfs_mc_join_rec){
			.group = j->group, .node = j->node, .port = j->port,
			.leave = j->leave, .state = j->state,
		};
	}
	ibfs__sm_set_mcast_observer(sm, mj_heard, mj);
	return mj;
}

int ibfs__mjoins_start(struct ibfs_mjoins *mj, ibfs_time_t base)
{
	for (size_t i = 0; i < mj->n; i++) {
		mj->rec[i].at = base + mj->sc->mjoins[i].at;
		if (!ibfs__eq_schedule(&mj->f->eq, mj->rec[i].at, mj_event, mj,
				       i))
			return -1;
	}
	return 0;
}

int ibfs__mjoins_collect(const struct ibfs_mjoins *mj,
			 struct ibfs_results *r)
{
	free(r->mc_joins);
	r->mc_joins = malloc((mj->n ? mj->n : 1) * sizeof(*r->mc_joins));
	if (!r->mc_joins)
		return -1;
	memcpy(r->mc_joins, mj->rec, mj->n * sizeof(*mj->rec));
	r->nmc_joins = mj->n;
	return 0;
}

void ibfs__mjoins_free(struct ibfs_mjoins *mj)
{
	if (!mj)
		return;
	for (size_t i = 0; mj->client && i < mj->sc->topo->nnodes; i++)
		ibfs__sa_client_free(mj->client[i]);
	free(mj->client);
	free(mj->rec);
	free(mj);
}
