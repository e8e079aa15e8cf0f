/* SPDX-License-Identifier: MIT */
/*
 * The figures of one run for `ibfsim compare` (compare.h), taken from its
 * results as the run's own summary computes them (results_stats.c), so
 * that a column of the comparison and `ibfsim run --json` of the same
 * model and seed agree figure by figure.
 *
 * Fairness is Jain's index, (sum x)^2 / (n sum x^2) over the flows'
 * throughputs (Jain, Chiu and Hawe, DEC-TR-301, 1984): 1 when every flow
 * gets the same, 1/n when one gets everything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/pfc.h"
#include "scenario/compare.h"
#include "scenario/results_int.h"

static void cmp_latency(const struct ibfs_results *r, struct ibfs_cmp_figs *f)
{
	struct ibfs_latency l;

	ibfs__results_latency(r, &l);
	f->msgs = r->nmsgs;
	f->failed = l.failed;
	f->incomplete = l.incomplete;
	f->lat_p50_ns = l.count ? res_ns(l.p50) : IBFS_CMP_NONE;
	f->lat_p99_ns = l.count ? res_ns(l.p99) : IBFS_CMP_NONE;
	f->lat_max_ns = l.count ? res_ns(l.max) : IBFS_CMP_NONE;
	f->aggregate_gbps = ibfs__results_aggregate_gbps(r);
}

static void cmp_flows(const struct ibfs_results *r, struct ibfs_cmp_figs *f)
{
	struct ibfs_flow *fl;
	size_t n = ibfs__results_flows(r, &fl);
	double sum = 0, sq = 0, min = 0;

	for (size_t i = 0; i < n; i++) {
		double g = ibfs__results_gbps(fl[i].bytes,
					      fl[i].end - fl[i].start);

		sum += g;
		sq += g * g;
		if (!i || g < min)
			min = g;
	}
	free(fl);
	f->flows = n;
	f->flow_min_gbps = n ? min : IBFS_CMP_NONE;
	f->jain = n && sq > 0 ? sum * sum / ((double)n * sq) : IBFS_CMP_NONE;
}

static void cmp_colls(const struct ibfs_results *r, struct ibfs_cmp_figs *f)
{
	f->coll_ns = IBFS_CMP_NONE;
	for (size_t i = 0; i < r->ncolls; i++) {
		double t = res_ns(r->colls[i].end - r->colls[i].start);

		if (t > f->coll_ns)
			f->coll_ns = t;
	}
}

/* Flow-control stall summed over every port of the fabric. */
static double cmp_stall(const struct ibfs_results *r, int eth)
{
	ibfs_time_t sum = 0;

	for (size_t n = 0; n < r->sc->topo->nnodes; n++) {
		const struct ibfs_device *d = r->fab->devices[n];

		for (int p = 1; d && p <= d->nports; p++) {
			const struct ibfs_port *pt = &d->ports[p];

			if (!eth) {
				sum += ibfs__port_xmit_wait(pt);
				continue;
			}
			for (int prio = 0; prio < IBFS_ETH_PRIOS; prio++)
				sum += ibfs__pfc_paused_time(pt, prio);
		}
	}
	return res_ns(sum);
}

/*
 * What the fabric needs configured under the run's model, in a table
 * cell: the subnet manager's routing engine; TCP's congestion control;
 * or the lossless priorities
 * (PFC) and where the priority travels, or lossy Ethernet's loss
 * recovery, with the switches' ECN marking and the RNICs' congestion
 * control when set (Ethernet's routes are ECMP's, computed at start-up).
 */
static void cmp_management(const struct ibfs_results *r,
			   struct ibfs_cmp_figs *f)
{
	const struct ibfs_scenario *sc = r->sc;
	size_t n = sizeof(f->management);

	f->bringup_ns = IBFS_CMP_NONE;
	if (sc->model == IBFS_MODEL_TCP) {
		static const char *const tcc[] = {"CUBIC", "NewReno", "DCTCP"};
		snprintf(f->management, n, "TCP %s, %s%s",
			 tcc[sc->eth.tcp_cc % 3], sc->eth.pfc ? "PFC" : "lossy",
			 sc->eth.ecn.line ? ", ECN" : "");
		return;
	}
	if (sc->model != IBFS_MODEL_ROCE) {
		snprintf(f->management, n, "SM, %.14s routing",
			 r->routing ? r->routing : "no");
		if (r->sm_inband && r->sm.state > 0)
			f->bringup_ns = res_ns(r->sm_first_sweep);
		return;
	}
	const struct ibfs_cc_algo *cc = sc->eth.cc.algo;
	const char *ccn = cc && strcmp(cc->name, "none") ? cc->name : "";
	const char *ecn = sc->eth.ecn.line ? ", ECN" : "";

	if (sc->eth.pfc)
		snprintf(f->management, n, "PFC 0x%02x (%s)%s%s%s",
			 sc->eth.lossless, sc->eth.pcp ? "PCP" : "DSCP", ecn,
			 *ccn ? ", " : "", ccn);
	else
		snprintf(f->management, n, "lossy, %s%s%s%s",
			 sc->eth.irn ? "IRN" : "go-back-N", ecn,
			 *ccn ? ", " : "", ccn);
}

/*
 * The cables by length, as a bill of materials counts them: "64 x 2 m",
 * or "32 x 10 m, 32 x 2 m", the longest first (at most four lengths,
 * then "...").
 */
static void cmp_cable_lengths(const struct ibfs_topology *t,
			      struct ibfs_cmp_figs *f)
{
	uint64_t len[5];
	size_t cnt[5], n = 0, more = 0;

	for (size_t i = 0; i < t->nlinks; i++) {
		uint64_t mm = t->links[i].cable_mm;
		size_t k = 0;

		while (k < n && len[k] != mm)
			k++;
		if (k == n && n == 4) {
			more = 1;
			continue;
		}
		if (k == n) {
			len[n] = mm;
			cnt[n++] = 0;
		}
		cnt[k]++;
	}
	size_t used = 0;
	f->cable_lengths[0] = 0;
	for (size_t done = 0; done < n; done++) {
		size_t best = 0;
		for (size_t k = 1; k < n; k++)
			if (len[k] > len[best])
				best = k;
		int w = snprintf(f->cable_lengths + used,
				 sizeof(f->cable_lengths) - used, "%s%zu x %g m",
				 done ? ", " : "", cnt[best],
				 (double)len[best] / 1000.0);
		if (w < 0 || used + (size_t)w >= sizeof(f->cable_lengths))
			break;
		used += (size_t)w;
		len[best] = 0;
		cnt[best] = 0;
	}
	if (more && used + 5 < sizeof(f->cable_lengths))
		snprintf(f->cable_lengths + used,
			 sizeof(f->cable_lengths) - used, ", ...");
}

static void cmp_equipment(const struct ibfs_topology *t,
			  struct ibfs_cmp_figs *f)
{
	for (size_t n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].type == IBFS_NODE_SWITCH)
			f->switches++;
		else
			f->nics++;
	}
	cmp_cable_lengths(t, f);
	for (size_t i = 0; i < t->nlinks; i++) {
		const struct ibfs_topo_link *l = &t->links[i];

		f->cables++;
		f->cable_m += (double)l->cable_mm / 1000.0;
		f->switch_ports +=
			(t->nodes[l->node_a].type == IBFS_NODE_SWITCH) +
			(t->nodes[l->node_b].type == IBFS_NODE_SWITCH);
	}
}

void ibfs__cmp_figures(const struct ibfs_results *r, struct ibfs_cmp_figs *f)
{
	int eth = r->sc->model == IBFS_MODEL_ROCE ||
		  r->sc->model == IBFS_MODEL_TCP;

	f->seed = r->seed;
	cmp_latency(r, f);
	cmp_flows(r, f);
	cmp_colls(r, f);
	f->fct_p50 = f->fct_p99 = IBFS_CMP_NONE;
	ibfs__results_fct_slowdown(r, &f->fct_p50, &f->fct_p99);
	/* The hosts' CPU on the data path, 0 under ib and roce (RDMA). */
	f->cpu_s = ibfs__results_cpu_seconds(r);
	f->pkts_sent = r->fab->pkts_injected;
	f->pkts_dropped = r->fab->pkts_dropped;
	f->pkts_retransmitted = ibfs__results_retransmitted(r);
	f->deadlock = r->deadlock;
	f->conserved = r->conserved;
	f->stall_ns = cmp_stall(r, eth);
	cmp_management(r, f);
	cmp_equipment(r->sc->topo, f);
	f->sim_ns = res_ns(r->sim_time);
	f->wall_s = r->wall_s;
	f->events = r->events;
}
