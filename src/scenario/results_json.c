/* SPDX-License-Identifier: MIT */
/*
 * The JSON of a run's results (--json FILE, docs/results.md): one object
 * with the scenario, the subnet manager's figures, the messages and their
 * latency, the aggregate throughput, every flow, link and switch, the
 * partition counters, the outages after faults, the optional parts
 * (collectives, congestion control, multicast), the packets and the
 * verdicts (conservation, deadlock, memory). Times in ns, rates in Gb/s.
 */
#include <stdlib.h>

#include "scenario/results_int.h"

/* A JSON string with the escapes RFC 8259 requires. */
void ibfs__results_json_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20)
			fprintf(o, "\\u%04x", c);
		else
			fputc(c, o);
	}
	fputc('"', o);
}

/* {"min": .., "p50": .., "p99": .., "max": .., "mean": ..} in ns. */
void ibfs__results_json_latency(FILE *o, const struct ibfs_latency *l)
{
	fprintf(o,
		"{\"min\": %.3f, \"p50\": %.3f, \"p99\": %.3f, \"max\": %.3f, "
		"\"mean\": %.3f}",
		res_ns(l->min), res_ns(l->p50), res_ns(l->p99), res_ns(l->max),
		l->mean / 1000.0);
}

static void endpoint_str(const struct ibfs_results *r, int node, int port,
			 char *buf, size_t len)
{
	snprintf(buf, len, "%s:%d", res_id(r, node), port);
}

static void json_links(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_topology *t = r->sc->topo;
	fputs("  \"links\": [", o);
	for (size_t i = 0; i < t->nlinks; i++) {
		const struct ibfs_topo_link *l = &t->links[i];
		const struct ibfs_port *a = &r->fab->ports[l->node_a][l->port_a];
		const struct ibfs_port *b = &r->fab->ports[l->node_b][l->port_b];
		char ea[300], eb[300];
		endpoint_str(r, l->node_a, l->port_a, ea, sizeof(ea));
		endpoint_str(r, l->node_b, l->port_b, eb, sizeof(eb));
		double span = r->sim_time ? (double)r->sim_time : 1.0;
		fprintf(o, "%s\n    {\"a\": ", i ? "," : "");
		ibfs__results_json_str(o, ea);
		fputs(", \"b\": ", o);
		ibfs__results_json_str(o, eb);
		fprintf(o,
			", \"tx_bytes_ab\": %llu, \"tx_bytes_ba\": %llu, "
			"\"utilization_ab\": %.6f, \"utilization_ba\": %.6f, "
			"\"xmit_wait_ns_ab\": %.3f, \"xmit_wait_ns_ba\": %.3f",
			(unsigned long long)a->cnt.xmit_data,
			(unsigned long long)b->cnt.xmit_data,
			(double)a->cnt.busy / span, (double)b->cnt.busy / span,
			res_ns(a->cnt.xmit_wait), res_ns(b->cnt.xmit_wait));
		ibfs__results_json_cc_link(r, o, l);
		fputc('}', o);
	}
	fputs(t->nlinks ? "\n  ],\n" : "],\n", o);
}

/*
 * The fullest any input buffer of a switch got, in bytes (64-byte blocks);
 * an Ethernet switch's shared buffer at its fullest, in bytes.
 */
static void json_switches(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_topology *t = r->sc->topo;
	int first = 1;
	fputs("  \"switches\": [", o);
	for (size_t n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].type != IBFS_NODE_SWITCH)
			continue;
		uint64_t peak = 0;

		for (int p = 1; p <= t->nodes[n].nports; p++) {
			uint32_t top = ibfs__results_port_peak(
				&r->fab->ports[n][p]);

			if (top > peak)
				peak = top;
		}
		peak *= IBFS_CREDIT_BLOCK;
		ibfs__results_eth_peak(r, n, &peak);
		fprintf(o, "%s\n    {\"id\": ", first ? "" : ",");
		ibfs__results_json_str(o, t->nodes[n].id);
		fprintf(o, ", \"buffer_peak_bytes\": %llu",
			(unsigned long long)peak);
		ibfs__results_eth_int(r, n, o);
		fputc('}', o);
		first = 0;
	}
	fputs(first ? "],\n" : "\n  ],\n", o);
}

/*
 * With partitions="FILE": the partition counters summed (P_KeyViolations
 * of the end ports, PortRcv/XmitConstraintErrors of the switch ports)
 * and, in JSON, each port where one is not zero. ports.csv has them for
 * every port. Without a file nothing is written: a run's output stays
 * what it was.
 */
static void json_partitions(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_topology *t = r->sc->topo;
	uint64_t s[3];
	int first = 1;

	if (!r->sc->partitions)
		return;
	ibfs__results_pkey_sums(r, s);
	fprintf(o,
		"  \"partitions\": {\"pkey_blocks\": %llu, "
		"\"pkey_violations\": %llu, \"rcv_constraint_errors\": %llu, "
		"\"xmit_constraint_errors\": %llu, \"ports\": [",
		(unsigned long long)r->sm_first_pkey_blocks,
		(unsigned long long)s[0],
		(unsigned long long)s[1], (unsigned long long)s[2]);
	for (size_t n = 0; n < t->nnodes; n++)
		for (int p = 0; p <= t->nodes[n].nports; p++) {
			const struct ibfs_port *pt = &r->fab->ports[n][p];
			char e[300];

			if (!pt->pkey_violations && !pt->rcv_constraint_errors &&
			    !pt->xmit_constraint_errors)
				continue;
			endpoint_str(r, (int)n, p, e, sizeof(e));
			fprintf(o, "%s\n    {\"port\": ", first ? "" : ",");
			ibfs__results_json_str(o, e);
			fprintf(o,
				", \"pkey_violations\": %llu, "
				"\"rcv_constraint_errors\": %llu, "
				"\"xmit_constraint_errors\": %llu}",
				(unsigned long long)pt->pkey_violations,
				(unsigned long long)pt->rcv_constraint_errors,
				(unsigned long long)pt->xmit_constraint_errors);
			first = 0;
		}
	fputs(first ? "]},\n" : "\n  ]},\n", o);
}

static void json_flows(const struct ibfs_results *r, FILE *o)
{
	struct ibfs_flow *f;
	size_t nf = ibfs__results_flows(r, &f);

	fputs("  \"flows\": [", o);
	for (size_t i = 0; i < nf; i++) {
		fprintf(o, "%s\n    {\"src\": ", i ? "," : "");
		ibfs__results_json_str(o, res_id(r, f[i].src));
		fputs(", \"dst\": ", o);
		ibfs__results_json_str(o, res_id(r, f[i].dst));
		fprintf(o,
			", \"op\": \"%s\", \"bytes\": %llu, \"start_ns\": %.3f, "
			"\"end_ns\": %.3f, \"gbps\": %.6f",
			ibfs__sc_op_str(f[i].op),
			(unsigned long long)f[i].bytes, res_ns(f[i].start),
			res_ns(f[i].end),
			ibfs__results_gbps(f[i].bytes, f[i].end - f[i].start));
		if (f[i].unfinished)
			fprintf(o, ", \"unfinished\": %zu", f[i].unfinished);
		fputc('}', o);
	}
	fputs(nf ? "\n  ],\n" : "],\n", o);
	free(f);
}

/* The subnet manager's sweeps, when it ran in band. */
static void json_sm(const struct ibfs_results *r, FILE *o)
{
	if (!r->sm_inband)
		return;
	fprintf(o,
		"  \"subnet_manager\": {\"mode\": \"inband\", "
		"\"state\": \"%s\", \"host\": ",
		r->sm.state > 0 ? "up" : "failed");
	ibfs__results_json_str(o, res_id(r, r->sm.sm_node));
	fprintf(o,
		", \"sweep_ns\": %.3f, \"last_sweep_ns\": %.3f, "
		"\"reroute_ns\": %.3f, \"smps\": %llu, "
		"\"last_sweep_smps_sent\": %llu, "
		"\"last_sweep_smps_received\": %llu, \"lft_blocks\": %llu, "
		"\"last_sweep_lft_blocks\": %llu, "
		"\"traps\": %llu, \"timeouts\": %llu},\n",
		res_ns(r->sm_first_sweep), res_ns(r->sm.sweep),
		res_ns(r->sm_reroute), (unsigned long long)r->sm_first_smps,
		(unsigned long long)r->sm.sent,
		(unsigned long long)r->sm.received,
		(unsigned long long)r->sm_first_lft_blocks,
		(unsigned long long)r->sm.lft_blocks,
		(unsigned long long)r->sm.traps,
		(unsigned long long)r->sm.timeouts);
}

/* The scenario, its model and seed, and what routed it. */
static void json_head(const struct ibfs_results *r, FILE *o)
{
	fputs("{\n  \"scenario\": ", o);
	ibfs__results_json_str(o, r->sc->name);
	fprintf(o, ",\n  \"model\": \"%s\",\n  \"seed\": %llu,\n",
		ibfs__sc_model_str(r->sc->model), (unsigned long long)r->seed);
	if (r->sc->hca_profile)
		fprintf(o, "  \"hca_profile\": \"%s\",\n", r->sc->hca_profile);
	if (r->routing)
		fprintf(o, "  \"routing\": \"%s\",\n", r->routing);
	if (r->routing_fallback) {
		fputs("  \"routing_fallback\": ", o);
		ibfs__results_json_str(o, r->routing_fallback);
		fputs(",\n", o);
	}
	json_sm(r, o);
	fprintf(o,
		"  \"sim_time_ns\": %.3f,\n  \"sim_time_ps\": %llu,\n"
		"  \"wall_s\": %.6f,\n  \"events\": %llu,\n",
		res_ns(r->sim_time), (unsigned long long)r->sim_time, r->wall_s,
		(unsigned long long)r->events);
}

/* The messages: how many completed, failed or did not finish; latency. */
static void json_messages(const struct ibfs_results *r, FILE *o)
{
	struct ibfs_latency l;

	ibfs__results_latency(r, &l);
	fprintf(o,
		"  \"messages\": {\"completed\": %llu, \"failed\": %llu, "
		"\"incomplete\": %llu,\n    \"latency_ns\": ",
		(unsigned long long)l.count, (unsigned long long)l.failed,
		(unsigned long long)l.incomplete);
	ibfs__results_json_latency(o, &l);
	fputs("},\n", o);
}

/* After faults: each destination some switch had no route to, how long. */
static void json_outages(const struct ibfs_results *r, FILE *o)
{
	int first = 1;

	if (!r->no_route)
		return;
	fputs("  \"outages\": [", o);
	for (size_t i = 0; i < r->sc->topo->nnodes; i++) {
		if (!r->no_route[i])
			continue;
		fprintf(o, "%s\n    {\"dst\": ", first ? "" : ",");
		ibfs__results_json_str(o, res_id(r, (int)i));
		fprintf(o, ", \"no_route_ns\": %.3f}", res_ns(r->no_route[i]));
		first = 0;
	}
	fputs(first ? "],\n" : "\n  ],\n", o);
}

/* The packets and the verdicts: conservation, deadlock, memory. */
static void json_tail(const struct ibfs_results *r, FILE *o)
{
	ibfs__results_json_packets(r, o);
	ibfs__results_json_eth(r, o);
	ibfs__results_json_cpu(r, o);
	fprintf(o, "  \"conservation\": {\"ok\": %s",
		r->conserved ? "true" : "false");
	if (!r->conserved) {
		fputs(", \"error\": ", o);
		ibfs__results_json_str(o, r->conservation);
	}
	fputs("},\n", o);
	fprintf(o, "  \"deadlock\": %s", r->deadlock ? "true" : "false");
	if (r->deadlock) {
		fputs(",\n  \"deadlock_cycle\": ", o);
		ibfs__results_json_str(o, r->deadlock_cycle);
	}
	/* Only when it happened: the run stopped then (eq.nomem). */
	if (r->fab->eq.nomem)
		fprintf(o, ",\n  \"out_of_memory\": true");
	fputs("\n}\n", o);
}

static void json_body(const struct ibfs_results *r, FILE *o)
{
	json_head(r, o);
	json_messages(r, o);
	fprintf(o, "  \"throughput_gbps\": {\"aggregate\": %.6f},\n",
		ibfs__results_aggregate_gbps(r));
	ibfs__results_json_colls(r, o);
	ibfs__results_json_fct(r, o);
	json_flows(r, o);
	json_links(r, o);
	json_switches(r, o);
	json_partitions(r, o);
	json_outages(r, o);
	ibfs__results_json_cc(r, o);
	ibfs__results_json_mcast(r, o);
	json_tail(r, o);
}

int ibfs__results_write_json(const struct ibfs_results *r, const char *path)
{
	return ibfs__results_write_whole(path, json_body, r);
}
