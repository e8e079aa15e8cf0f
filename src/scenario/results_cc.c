/* SPDX-License-Identifier: MIT */
/*
 * The congestion control counters in the results (IBA A10): FECN marks
 * per switch port (switch/cc_mark.c), and per HCA the FECN-marked packets
 * it received, the BECNs it sent in ACKs and the CNPs it sent, and the
 * BECNs and CNPs it received (hca/cc_throttle.c). They appear in the
 * text summary and the JSON only when the scenario turns CC on, so that
 * the results of other runs do not change; ports.csv always has the
 * fecn_marks column (0 without CC).
 *
 * Under roce, a scenario that names a RoCEv2 control (<transport cc=>,
 * --cc) has its name and parameter set reported, with the CNPs the
 * RNICs sent and received (cc.cnp_sent, cc.cnp_received) and the
 * CE-marked packets they received (cc.ce_received), in the text summary
 * and the JSON's "cc" object.
 */
#include "scenario/results_int.h"

#include "hca/cc_roce.h"
#include "hca/hca.h"
#include "switch/switch.h"

static int cc_on(const struct ibfs_results *r)
{
	return r->sc->cc.enabled;
}

uint64_t ibfs__results_fecn_marks(const struct ibfs_results *r, int node,
				  int port)
{
	struct ibfs_device *dev = r->fab->devices[node];
	const struct ibfs_switch *sw = ibfs__switch_of(dev);

	return sw ? ibfs__switch_fecn_marks(sw, port) : 0;
}

/* The HCA of a node, or NULL. */
static const struct ibfs_hca *cc_hca(const struct ibfs_results *r, int node)
{
	return ibfs__hca_of_node((struct ibfs_fabric *)(uintptr_t)r->fab,
				 node);
}

struct cc_sums {
	uint64_t marks, fecn_rx, becn_tx, cnp_tx, becn_rx, cnp_rx;
	uint64_t rate_min; /* the lowest any RNIC's control set, 0: none */
};

static void cc_sum(const struct ibfs_results *r, struct cc_sums *s)
{
	const struct ibfs_topology *t = r->sc->topo;

	*s = (struct cc_sums){0};
	for (size_t n = 0; n < t->nnodes; n++) {
		const struct ibfs_hca *h = cc_hca(r, (int)n);

		for (int p = 1; p <= t->nodes[n].nports; p++)
			s->marks += ibfs__results_fecn_marks(r, (int)n, p);
		if (!h)
			continue;
		s->fecn_rx += ibfs__hca_stats(h)->fecn_rx;
		s->becn_tx += ibfs__hca_stats(h)->becn_tx;
		s->cnp_tx += ibfs__hca_stats(h)->cnp_tx;
		s->becn_rx += ibfs__hca_stats(h)->becn_rx;
		s->cnp_rx += ibfs__hca_stats(h)->cnp_rx;
		uint64_t m = ibfs__hca_cc_rate_min(h);

		if (m && (!s->rate_min || m < s->rate_min))
			s->rate_min = m;
	}
}

/* A RoCEv2 control named by the scenario or --cc (none included). */
static const struct ibfs_cc_cfg *cc_roce(const struct ibfs_results *r)
{
	const struct ibfs_cc_cfg *c = &r->sc->eth.cc;

	return r->sc->model == IBFS_MODEL_ROCE && c->algo ? c : NULL;
}

static void cc_roce_print(const struct ibfs_results *r, FILE *out)
{
	const struct ibfs_cc_cfg *c = cc_roce(r);
	struct cc_sums s;

	if (!c)
		return;
	cc_sum(r, &s);
	fprintf(out, "cc: %s%s%s%s: %llu CNPs sent, %llu received; %llu "
		"CE-marked packets received", c->algo->name,
		c->set ? " (" : "", c->set ? c->set : "", c->set ? ")" : "",
		(unsigned long long)s.cnp_tx, (unsigned long long)s.cnp_rx,
		(unsigned long long)s.fecn_rx);
	/* HPCC and TIMELY: how far a sender was slowed (W / T, the rate). */
	if (s.rate_min)
		fprintf(out, "; lowest rate %.3f Gb/s",
			(double)s.rate_min / 1e9);
	fputc('\n', out);
}

static void cc_roce_json(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_cc_cfg *c = cc_roce(r);
	struct cc_sums s;

	if (!c)
		return;
	cc_sum(r, &s);
	fputs("  \"cc\": {\"control\": ", o);
	ibfs__results_json_str(o, c->algo->name);
	fputs(", \"params\": ", o);
	if (c->set)
		ibfs__results_json_str(o, c->set);
	else
		fputs("null", o);
	fprintf(o, ", \"cnp_sent\": %llu, \"cnp_received\": %llu, "
		"\"ce_received\": %llu", (unsigned long long)s.cnp_tx,
		(unsigned long long)s.cnp_rx, (unsigned long long)s.fecn_rx);
	if (s.rate_min)
		fprintf(o, ", \"rate_min_bps\": %llu",
			(unsigned long long)s.rate_min);
	fputs("},\n", o);
}

void ibfs__results_print_cc(const struct ibfs_results *r, FILE *out)
{
	struct cc_sums s;

	cc_roce_print(r, out);
	if (!cc_on(r))
		return;
	cc_sum(r, &s);
	fprintf(out,
		"congestion control: %llu FECN marks; %llu BECNs in ACKs and "
		"%llu CNPs sent, %llu BECNs received\n",
		(unsigned long long)s.marks, (unsigned long long)s.becn_tx,
		(unsigned long long)s.cnp_tx, (unsigned long long)s.becn_rx);
}

void ibfs__results_json_cc_link(const struct ibfs_results *r, FILE *o,
				const struct ibfs_topo_link *l)
{
	if (!cc_on(r))
		return;
	fprintf(o, ", \"fecn_marks_ab\": %llu, \"fecn_marks_ba\": %llu",
		(unsigned long long)ibfs__results_fecn_marks(r, l->node_a,
							     l->port_a),
		(unsigned long long)ibfs__results_fecn_marks(r, l->node_b,
							     l->port_b));
}

void ibfs__results_json_cc(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_topology *t = r->sc->topo;
	struct cc_sums s;
	int first = 1;

	cc_roce_json(r, o);
	if (!cc_on(r))
		return;
	cc_sum(r, &s);
	fprintf(o,
		"  \"congestion_control\": {\"fecn_marks\": %llu, "
		"\"becn_tx\": %llu, \"cnp_tx\": %llu, \"becn_rx\": %llu, "
		"\"cnp_rx\": %llu,\n    \"hcas\": [",
		(unsigned long long)s.marks, (unsigned long long)s.becn_tx,
		(unsigned long long)s.cnp_tx, (unsigned long long)s.becn_rx,
		(unsigned long long)s.cnp_rx);
	for (size_t n = 0; n < t->nnodes; n++) {
		const struct ibfs_hca *h = cc_hca(r, (int)n);

		if (!h)
			continue;
		const struct ibfs_hca_stats *st = ibfs__hca_stats(h);

		fprintf(o, "%s\n      {\"hca\": ", first ? "" : ",");
		ibfs__results_json_str(o, t->nodes[n].id);
		fprintf(o,
			", \"fecn_rx\": %llu, \"becn_tx\": %llu, "
			"\"cnp_tx\": %llu, \"becn_rx\": %llu, \"cnp_rx\": %llu}",
			(unsigned long long)st->fecn_rx,
			(unsigned long long)st->becn_tx,
			(unsigned long long)st->cnp_tx,
			(unsigned long long)st->becn_rx,
			(unsigned long long)st->cnp_rx);
		first = 0;
	}
	fputs(first ? "]},\n" : "\n    ]},\n", o);
}
