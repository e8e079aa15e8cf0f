/* SPDX-License-Identifier: MIT */
/*
 * The Subnet Administrator (IBA chapter 15) on the SM's port: the class
 * agent of management class 0x03 at QP1 of the SM's HCA (the GSI's
 * server side, src/hca/mgmt.c). A request is answered IBFS_SA_PROC_TIME
 * after its last byte arrived, from QP1 back to the requester's LID and
 * QP1, on the SL and with the P_Key it came with (the VL the SM's port
 * maps that SL to), with SM_Key 0 as OpenSM answers: a Get or a Set with
 * a GetResp, a Delete with a DeleteResp (IBA 15.4, from memory:
 * unchecked). Until the SM has brought the subnet up the SA answers
 * "busy" (MAD status bit 0, IBA 13.4.7).
 *
 * Attributes: MCMemberRecord (Set join, Delete leave, Get) in
 * sa_mcmember.c, PathRecord (Get) in sa_path.c; any other attribute or
 * method gets the status "method/attribute combination not supported".
 * Not modelled: GetTable and RMPP, SM_Key checks (every requester is
 * trusted), InformInfo and the traps it forwards (Report), ServiceRecord
 * and the other records, redirection.
 */
#include <stdlib.h>
#include <string.h>

#include "hca/hca.h"
#include "hca/mgmt.h"
#include "subnet_manager/sa_int.h"

/* A request's sender, from its SLID. */
int ibfs__sa_lid_port(const struct ibfs_sa *sa, uint16_t lid, int *node,
		      int *port, uint64_t *port_guid)
{
	const struct ibfs_sm *sm = sa->sm;
	const struct ibfs_subnet *sn = sm->sn;

	if (!sn || lid == 0 || lid > sn->max_lid || sn->lid_node[lid] < 0)
		return -1;
	for (int i = 0; i < sm->ndn; i++) {
		const struct sm_dnode *x = &sm->dn[i];

		if (x->sn != sn->lid_node[lid] || x->seen != sm->sweep_no ||
		    x->topo < 0 || (size_t)x->topo >= sm->f->topo->nnodes)
			continue;
		const struct ibfs_topo_node *tn = &sm->f->topo->nodes[x->topo];

		*node = (int)x->topo;
		*port = sn->lid_port[lid];
		if (*port < 0 || *port > tn->nports)
			return -1;
		*port_guid = tn->ports[*port].guid;
		return 0;
	}
	return -1;
}

int ibfs__sa_guid_port(const struct ibfs_sa *sa, uint64_t guid, int *node,
		       int *port)
{
	const struct ibfs_topology *t = sa->sm->f->topo;

	for (size_t i = 0; i < t->nnodes; i++)
		for (int p = 1; t->nodes[i].type == IBFS_NODE_HCA &&
				p <= t->nodes[i].nports;
		     p++)
			if (t->nodes[i].ports[p].guid == guid) {
				*node = (int)i;
				*port = p;
				return 0;
			}
	return -1;
}

uint16_t ibfs__sa_port_lid(const struct ibfs_sa *sa, int node, int port)
{
	const struct ibfs_sm *sm = sa->sm;

	if (!sm->sn)
		return 0;
	for (int i = 0; i < sm->ndn; i++)
		if (sm->dn[i].topo == node && sm->dn[i].seen == sm->sweep_no) {
			const struct ibfs_sn_node *n =
				&sm->sn->nodes[sm->dn[i].sn];

			return port >= 0 && port <= n->nports
				       ? n->ports[port].lid
				       : 0;
		}
	return 0;
}

uint8_t ibfs__sa_rate_code(enum ibfs_speed speed, int width)
{
	/* Nominal lane rates in 100 Mb/s: SDR .. XDR. */
	static const unsigned lane[IBFS_SPEED_COUNT] = { 25,  50,  100,
							 100, 140, 250,
							 500, 1000, 2000 };
	/* The rate enum's values, code 2 first, in 100 Mb/s. */
	static const unsigned code[] = { 25,   100,  300,  50,   200,  400,
					 600,  800,  1200, 140,  560,  1120,
					 1680, 250,  1000, 2000, 3000, 280,
					 500,  4000, 6000, 8000, 12000 };
	unsigned want = (unsigned)speed < IBFS_SPEED_COUNT && width > 0
				? lane[speed] * (unsigned)width
				: 0;
	unsigned best = 0;
	uint8_t c = 0;

	for (unsigned i = 0; i < sizeof(code) / sizeof(code[0]); i++)
		if (code[i] <= want && code[i] > best) {
			best = code[i];
			c = (uint8_t)(i + 2);
		}
	return c;
}

/* The response's header: the request's, as its response. */
static void sa_resp_init(const struct ibfs_sa_mad *q, struct ibfs_sa_mad *r)
{
	memset(r, 0, sizeof(*r));
	r->method = q->method == IBFS_SA_DELETE ? IBFS_SA_DELETERESP
						: IBFS_SA_GETRESP;
	r->tid = q->tid;
	r->attr_id = q->attr_id;
	r->attr_mod = q->attr_mod;
	r->comp_mask = q->comp_mask;
}

static uint16_t sa_dispatch(struct ibfs_sa *sa, const struct sa_req *rq,
			    struct ibfs_sa_mad *resp)
{
	const struct ibfs_sm *sm = sa->sm;

	if (sm->st.state != 1 || !sm->sn)
		return IBFS_SA_STATUS_BUSY;
	if (rq->m->method != IBFS_SA_GET && rq->m->method != IBFS_SA_SET &&
	    rq->m->method != IBFS_SA_DELETE)
		return IBFS_SA_STATUS_BAD_METHOD;
	switch (rq->m->attr_id) {
	case IBFS_SA_ATTR_MCMEMBER_RECORD:
		return ibfs__sa_mcmember(sa, rq, resp);
	case IBFS_SA_ATTR_PATH_RECORD:
		return ibfs__sa_path(sa, rq, resp);
	default:
		return IBFS_SA_STATUS_BAD_ATTR;
	}
}

/* Sends the response to the requester, as the request came. */
static void sa_respond(struct ibfs_sa *sa, const struct ibfs_packet *q,
		       const struct ibfs_sa_mad *resp)
{
	uint16_t lid = ibfs__hca_port_lid(sa->hca, sa->port);
	const uint8_t *sl2vl = ibfs__hca_port_sl2vl(sa->hca, sa->port);
	struct ibfs_packet *p = ibfs__sa_packet(sa->sm->f, resp, q->slid,
						lid, q->sl,
						sl2vl[q->sl & 15], q->pkey);

	if (!p || ibfs__hca_gsi_send(sa->hca, sa->port, p) < 0) {
		if (p)
			ibfs__packet_free(sa->sm->f, p);
		return;
	}
	sa->st.answered++;
	if (resp->status)
		sa->st.errors++;
}

static void sa_answer_ev(void *obj, uint64_t arg)
{
	struct ibfs_sa *sa = obj;
	struct ibfs_packet *p = (struct ibfs_packet *)(uintptr_t)arg;
	struct ibfs_sa_mad m, resp;
	struct sa_req rq = { .m = &m, .slid = p->slid, .node = -1 };

	if (ibfs__sa_mad_decode(p->payload, &m) == 0) {
		sa_resp_init(&m, &resp);
		if (ibfs__sa_lid_port(sa, p->slid, &rq.node, &rq.port,
				      &rq.port_guid) < 0 &&
		    sa->sm->st.state == 1)
			resp.status = IBFS_SA_ERR_REQ_INVALID;
		else
			resp.status = sa_dispatch(sa, &rq, &resp);
		sa_respond(sa, p, &resp);
	}
	if (sa->changed) {
		sa->changed = 0;
		ibfs__sm_mcast_changed(sa->sm, sa->changed_gi);
	}
	ibfs__packet_free(sa->sm->f, p);
}

static void sa_rx(void *ctx, struct ibfs_hca *h, int port,
		  struct ibfs_packet *p)
{
	struct ibfs_sa *sa = ctx;

	(void)h;
	if (port != sa->port) {
		ibfs__packet_free(sa->sm->f, p);
		return;
	}
	sa->st.requests++;
	ibfs__eq_after(&sa->sm->f->eq, IBFS_SA_PROC_TIME, sa_answer_ev, sa,
		       (uint64_t)(uintptr_t)p);
}

struct ibfs_sa *ibfs__sa_new(struct ibfs_sm *sm)
{
	struct ibfs_sa *sa = calloc(1, sizeof(*sa));

	if (!sa)
		return NULL;
	sa->sm = sm;
	sa->hca = ibfs__hca_of_node(sm->f, sm->sm_node);
	sa->port = sm->sm_port;
	if (!sa->hca ||
	    ibfs__hca_gsi_attach(sa->hca, IBFS_GSI_SERVER, sa_rx, sa) < 0) {
		free(sa);
		return NULL;
	}
	return sa;
}

void ibfs__sa_free(struct ibfs_sa *sa)
{
	if (!sa)
		return;
	ibfs__hca_gsi_detach(sa->hca, IBFS_GSI_SERVER);
	free(sa);
}

void ibfs__sm_sa_stats(const struct ibfs_sm *sm, struct ibfs_sa_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (sm->sa)
		*st = sm->sa->st;
	st->mft_blocks = sm->mc_blocks;
}
