/* SPDX-License-Identifier: MIT */
/*
 * <pattern kind="flows"> expanded into messages: the open-loop flow
 * arrivals of the datacenter transport literature (DCTCP, pFabric, DCQCN,
 * HPCC, IRN). Each sending HCA starts flows at the times of a Poisson
 * process whose rate makes the offered load on its link `load` x the
 * link's data rate: the mean gap between arrivals is mean flow size x 8 /
 * (load x rate). Each flow's size is drawn from the pattern's CDF
 * (flow_cdf.c), its destination uniformly among the other HCAs
 * (all-to-all) or the pattern's dst (incast). Draws per HCA in topology
 * order and, per flow, in the order gap, size, destination, all from the
 * pattern's stream of the run's seed: one seed, one set of flows.
 *
 * A flow is one RDMA WRITE on a connection of its own: flow k of a sender
 * takes connection lane k to its destination, as the literature's
 * simulators give each flow its own queue pair, which the sending HCA
 * serves packet by packet in turn with its other active queue pairs
 * (src/hca/tx_sched.c). Queueing a pair's flows on one QP would instead
 * hold a small flow behind every large one before it (head-of-line
 * blocking no datacenter transport has between its connections), and
 * its slowdown would measure that queue, not the fabric. A sender's
 * lanes are numbered modulo 2^16 (struct tr_conn): a sender that starts
 * more than 65,536 flows in one run queues its flows k and k + 65,536
 * when they go to the same HCA.
 */
#include <math.h>
#include <stdlib.h>

#include "fabric/rng.h"
#include "scenario/flow_cdf.h"
#include "scenario/traffic_int.h"

/* The data rate of node h's first linked port in bit/s; 0 if none. */
static double flows_host_bps(const struct ibfs_topology *topo, int h)
{
	const struct ibfs_topo_node *n = &topo->nodes[h];

	for (int p = 1; p <= n->nports; p++) {
		int l = n->ports[p].link;

		if (l >= 0 && topo->links[l].rate.bits_den)
			return (double)topo->links[l].rate.bits_num /
			       (double)topo->links[l].rate.bits_den;
	}
	return 0.0;
}

static int flows_push(struct ibfs_traffic *t, size_t rec, uint32_t pat)
{
	if (t->nflows == t->flows_cap) {
		size_t cap = t->flows_cap ? 2 * t->flows_cap : 64;
		struct tr_flow *v = realloc(t->flows, cap * sizeof(*v));

		if (!v)
			return -1;
		t->flows = v;
		t->flows_cap = cap;
	}
	t->flows[t->nflows++] = (struct tr_flow){rec, pat};
	return 0;
}

/* One sender's flows: h[i]'s arrivals from start until start + duration. */
static int flows_sender(struct ibfs_traffic *t,
			const struct ibfs_sc_pattern *p, uint32_t pat,
			const int *h, size_t n, size_t i, struct ibfs_rng *r)
{
	double bps = flows_host_bps(t->sc->topo, h[i]);
	struct tr_spec sp = {IBFS_SC_WRITE, p->qp, p->sl, p->sl_given, 0,
			     0, 1, 0, p->pkey};
	double at = (double)p->start;
	double end = (double)p->start + (double)p->duration;
	uint16_t lane = 0;

	if (bps <= 0.0)
		return 0;
	/* Mean gap in ps: mean bytes x 8 / (load x rate) seconds. */
	double gap = p->cdf->mean * 8.0 / (p->load * bps) * 1e12;

	for (;;) {
		/* An exponential gap by inversion: 1 - u is in (0, 1]. */
		at += -log(1.0 - ibfs__rng_double(r)) * gap;
		if (at >= end)
			return 0;
		sp.size = ibfs__flow_cdf_size(p->cdf, ibfs__rng_double(r));
		int dst = p->dst;

		if (!p->incast) {
			size_t j = (size_t)ibfs__rng_below(r, n - 1);

			dst = h[j >= i ? j + 1 : j];
		}
		size_t rec = t->nrecs;

		if (ibfs__tr_add_lane(t, h[i], dst, &sp, lane++, 1,
				      (ibfs_time_t)llround(at), 0) < 0 ||
		    flows_push(t, rec, pat) < 0)
			return -1;
	}
}

int ibfs__tr_expand_flows(struct ibfs_traffic *t,
			  const struct ibfs_sc_pattern *p, uint32_t pat,
			  const int *h, size_t n, struct ibfs_rng *r)
{
	for (size_t i = 0; i < n; i++) {
		if (p->incast && h[i] == p->dst)
			continue;
		if (flows_sender(t, p, pat, h, n, i, r) < 0)
			return -1;
	}
	return 0;
}

int ibfs__tr_flows_collect(const struct ibfs_traffic *t,
			   struct ibfs_results *r)
{
	if (!t->nflows)
		return 0;
	r->fct = calloc(t->nflows, sizeof(*r->fct));
	if (!r->fct)
		return -1;
	for (size_t i = 0; i < t->nflows; i++)
		r->fct[i] = (struct ibfs_fct_flow){
			.msg = t->flows[i].rec,
			.arrival = t->planned[t->flows[i].rec],
			.pattern = t->flows[i].pat};
	r->nfct = t->nflows;
	return 0;
}
