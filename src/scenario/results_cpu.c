/* SPDX-License-Identifier: MIT */
/*
 * The hosts' CPU spent on the data path (docs/results.md, "cpu"): under
 * tcp the busy time of every host's cores (host/tcp_host.h), in total,
 * per GB delivered and per host with its busy fraction (the busy time
 * over its cores times the simulated time). Under ib and roce the HCA
 * does the data path's work (RDMA) and the figures are 0; the verbs
 * calls themselves are not modelled. Printed, in the JSON and in
 * hosts.csv under every model.
 */
#include <stdio.h>

#include "host/tcp_host.h"
#include "scenario/results_int.h"

struct cpu_host {
	double seconds, busy;
	uint64_t irqs;
};

static void cpu_of(const struct ibfs_results *r, size_t n, struct cpu_host *c)
{
	struct ibfs_fabric *f = (struct ibfs_fabric *)(uintptr_t)r->fab;
	struct ibfs_tcp_host *h = ibfs__tcp_host_of_node(f, (int)n);
	struct ibfs_tcp_host_stats st;

	c->seconds = c->busy = 0;
	c->irqs = 0;
	if (!h)
		return;
	ibfs__tcp_host_stats(h, &st);
	c->irqs = st.irqs;
	c->seconds = (double)st.cpu_busy / 1e12;
	if (st.cores && r->sim_time)
		c->busy = (double)st.cpu_busy /
			  ((double)st.cores * (double)r->sim_time);
}

static int is_host(const struct ibfs_results *r, size_t n)
{
	return r->sc->topo->nodes[n].type == IBFS_NODE_HCA;
}

static double cpu_total(const struct ibfs_results *r)
{
	double s = 0;
	struct cpu_host c;

	for (size_t n = 0; n < r->sc->topo->nnodes; n++)
		if (is_host(r, n)) {
			cpu_of(r, n, &c);
			s += c.seconds;
		}
	return s;
}

/* Seconds of host CPU per 10^9 bytes of completed messages. */
static double cpu_per_gb(const struct ibfs_results *r, double total)
{
	uint64_t bytes = 0;

	for (size_t i = 0; i < r->nmsgs; i++)
		if (!r->msgs[i].status)
			bytes += r->msgs[i].bytes;
	return bytes ? total / ((double)bytes / 1e9) : 0;
}

double ibfs__results_cpu_seconds(const struct ibfs_results *r)
{
	return cpu_total(r);
}

void ibfs__results_print_cpu(const struct ibfs_results *r, FILE *out)
{
	double total = cpu_total(r);

	fprintf(out, "cpu: %.6f s on the hosts' data path, %.6f s per GB "
		"delivered\n", total, cpu_per_gb(r, total));
}

void ibfs__results_json_cpu(const struct ibfs_results *r, FILE *o)
{
	double total = cpu_total(r);
	const char *sep = "";
	struct cpu_host c;

	fprintf(o, "  \"cpu\": {\"host_seconds\": %.12f, \"seconds_per_gb\": "
		"%.12f, \"hosts\": [", total, cpu_per_gb(r, total));
	for (size_t n = 0; n < r->sc->topo->nnodes; n++) {
		if (!is_host(r, n))
			continue;
		cpu_of(r, n, &c);
		fprintf(o, "%s\n    {\"node\": ", sep);
		ibfs__results_json_str(o, res_id(r, (int)n));
		fprintf(o, ", \"cpu_seconds\": %.12f, \"busy\": %.6f, "
			"\"interrupts\": %llu}", c.seconds, c.busy,
			(unsigned long long)c.irqs);
		sep = ",";
	}
	fputs(*sep ? "\n  ]},\n" : "]},\n", o);
}

void ibfs__results_csv_hosts(const struct ibfs_results *r, FILE *o)
{
	struct cpu_host c;

	fputs("node,cpu_seconds,busy,interrupts\n", o);
	for (size_t n = 0; n < r->sc->topo->nnodes; n++) {
		if (!is_host(r, n))
			continue;
		cpu_of(r, n, &c);
		ibfs__results_csv_id(o, res_id(r, (int)n), 0);
		fprintf(o, "%.12f,%.6f,%llu\n", c.seconds, c.busy,
			(unsigned long long)c.irqs);
	}
}
