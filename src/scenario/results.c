/* SPDX-License-Identifier: MIT */
/*
 * Results of a run: statistics over message records and port counters, and
 * the three ways they leave the program. Latency of a message is from the
 * post of its work request to its completion at the requester (SPEC). Flows
 * group messages by (src, dst, op): a flow starts at its first post and ends
 * at its last completion. A link's utilization is the time its transmitter
 * was busy over the simulated time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ibfsim/verbs.h>

#include "scenario/results.h"
#include "scenario/results_cc.h"

int ibfs__results_add(struct ibfs_results *r, const struct ibfs_msg_record *m)
{
	if (r->nmsgs == r->msgs_cap) {
		size_t cap = r->msgs_cap ? 2 * r->msgs_cap : 64;
		void *v = realloc(r->msgs, cap * sizeof(*r->msgs));
		if (!v)
			return -1;
		r->msgs = v;
		r->msgs_cap = cap;
	}
	r->msgs[r->nmsgs++] = *m;
	return 0;
}

void ibfs__results_free(struct ibfs_results *r)
{
	free(r->msgs);
	free(r->colls);
	r->colls = NULL;
	r->ncolls = 0;
	free(r->no_route);
	free(r->mc_sends);
	free(r->mc_dels);
	free(r->mc_joins);
	r->mc_joins = NULL;
	r->nmc_joins = 0;
	r->mc_sends = NULL;
	r->mc_dels = NULL;
	r->nmc_sends = r->nmc_dels = 0;
	r->no_route = NULL;
	r->msgs = NULL;
	r->nmsgs = r->msgs_cap = 0;
	if (r->cleanup)
		r->cleanup(r->cleanup_arg);
	r->cleanup = NULL;
}

static int cmp_time(const void *a, const void *b)
{
	ibfs_time_t x = *(const ibfs_time_t *)a, y = *(const ibfs_time_t *)b;
	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted v[0..n-1], n > 0. */
static ibfs_time_t percentile(const ibfs_time_t *v, size_t n, unsigned pct)
{
	size_t rank = (n * pct + 99) / 100;
	return v[rank ? rank - 1 : 0];
}

void ibfs__latency_fill(struct ibfs_latency *out, ibfs_time_t *v, size_t n,
			double sum)
{
	out->count = n;
	if (n) {
		qsort(v, n, sizeof(*v), cmp_time);
		out->min = v[0];
		out->max = v[n - 1];
		out->p50 = percentile(v, n, 50);
		out->p99 = percentile(v, n, 99);
		out->mean = sum / (double)n;
	}
}

void ibfs__results_latency(const struct ibfs_results *r,
			   struct ibfs_latency *out)
{
	memset(out, 0, sizeof(*out));
	ibfs_time_t *v = malloc((r->nmsgs ? r->nmsgs : 1) * sizeof(*v));
	if (!v)
		return;
	size_t n = 0;
	double sum = 0;
	for (size_t i = 0; i < r->nmsgs; i++) {
		if (r->msgs[i].status) {
			if (r->msgs[i].status > 0)
				out->failed++;
			else
				out->incomplete++;
			continue;
		}
		v[n] = r->msgs[i].done - r->msgs[i].post;
		sum += (double)v[n];
		n++;
	}
	ibfs__latency_fill(out, v, n, sum);
	free(v);
}

/*
 * A flow, the messages of one (src, dst, op): bytes of those that completed, from
 * the first post to the last completion, or to the end of the run when
 * some never completed (`unfinished` of them: the flow was still going).
 */
struct flow {
	int src, dst;
	enum ibfs_sc_op op;
	uint64_t bytes;
	ibfs_time_t start, end;
	size_t unfinished;
};

static int cmp_flow_key(const void *a, const void *b)
{
	const struct ibfs_msg_record *x = a, *y = b;
	if (x->src != y->src)
		return x->src - y->src;
	if (x->dst != y->dst)
		return x->dst - y->dst;
	return (int)x->op - (int)y->op;
}

/* Builds the flows of r (sorted by src, dst, op); returns the count. */
static size_t make_flows(const struct ibfs_results *r, struct flow **out)
{
	*out = NULL;
	if (!r->nmsgs)
		return 0;
	struct ibfs_msg_record *m = malloc(r->nmsgs * sizeof(*m));
	struct flow *f = malloc(r->nmsgs * sizeof(*f));
	if (!m || !f) {
		free(m);
		free(f);
		return 0;
	}
	memcpy(m, r->msgs, r->nmsgs * sizeof(*m));
	qsort(m, r->nmsgs, sizeof(*m), cmp_flow_key);
	size_t n = 0;
	for (size_t i = 0; i < r->nmsgs; i++) {
		if (!n || cmp_flow_key(&m[i], &m[i - 1])) {
			f[n] = (struct flow){m[i].src, m[i].dst, m[i].op, 0,
					     m[i].post, 0, 0};
			n++;
		}
		struct flow *cur = &f[n - 1];
		if (!m[i].status)
			cur->bytes += m[i].bytes;
		if (m[i].post < cur->start)
			cur->start = m[i].post;
		if (m[i].status < 0) {
			cur->unfinished++;
			cur->end = r->sim_time;
		} else if (m[i].done > cur->end && !cur->unfinished) {
			cur->end = m[i].done;
		}
	}
	free(m);
	*out = f;
	return n;
}

static double gbps(uint64_t bytes, ibfs_time_t span)
{
	/* bits per picosecond x 1000 = Gb/s. */
	return span ? (double)bytes * 8.0 * 1000.0 / (double)span : 0.0;
}

/* Aggregate throughput: all bytes over first post to last completion. */
static double aggregate_gbps(const struct ibfs_results *r)
{
	uint64_t bytes = 0;
	ibfs_time_t lo = IBFS_TIME_NEVER, hi = 0;
	for (size_t i = 0; i < r->nmsgs; i++) {
		if (r->msgs[i].status)
			continue;
		bytes += r->msgs[i].bytes;
		if (r->msgs[i].post < lo)
			lo = r->msgs[i].post;
		if (r->msgs[i].done > hi)
			hi = r->msgs[i].done;
	}
	return hi > lo ? gbps(bytes, hi - lo) : 0.0;
}

static const char *node_id(const struct ibfs_results *r, int node)
{
	return r->sc->topo->nodes[node].id;
}

static double ns(ibfs_time_t ps)
{
	return (double)ps / 1000.0;
}

/* The partition counters of every port, summed (json_partitions). */
static void pkey_sums(const struct ibfs_results *r, uint64_t s[3])
{
	const struct ibfs_topology *t = r->sc->topo;

	s[0] = s[1] = s[2] = 0;
	for (size_t n = 0; n < t->nnodes; n++)
		for (int p = 0; p <= t->nodes[n].nports; p++) {
			const struct ibfs_port *pt = &r->fab->ports[n][p];

			s[0] += pt->pkey_violations;
			s[1] += pt->rcv_constraint_errors;
			s[2] += pt->xmit_constraint_errors;
		}
}

/*
 * Why messages failed: how many completed with each error status, by its
 * libibverbs number and words (ibv_wc_status_str's), e.g. a retry counter
 * exceeded after a link went down for good. messages.csv has each one's.
 */
static void print_failures(const struct ibfs_results *r, FILE *out)
{
	enum { NSTATUS = IBFS_WC_TM_RNDV_INCOMPLETE + 1 };
	uint64_t n[NSTATUS] = {0}, other = 0;
	const char *sep = "failed: ";

	for (size_t i = 0; i < r->nmsgs; i++) {
		int st = r->msgs[i].status;

		if (st > 0 && st < NSTATUS)
			n[st]++;
		else if (st >= NSTATUS)
			other++;
	}
	for (int st = 1; st < NSTATUS; st++) {
		if (!n[st])
			continue;
		fprintf(out, "%s%llu %s (status %d)", sep,
			(unsigned long long)n[st],
			ibfs_wc_status_str((enum ibfs_wc_status)st), st);
		sep = ", ";
	}
	if (other)
		fprintf(out, "%s%llu of other statuses", sep,
			(unsigned long long)other);
	fputc('\n', out);
}

void ibfs__results_print(const struct ibfs_results *r, FILE *out)
{
	struct ibfs_latency l;
	ibfs__results_latency(r, &l);
	fprintf(out, "scenario %s, model %s, seed %llu", r->sc->name,
		ibfs__sc_model_str(r->sc->model), (unsigned long long)r->seed);
	if (r->sc->hca_profile)
		fprintf(out, ", HCA profile %s", r->sc->hca_profile);
	fputc('\n', out);
	if (r->sm_inband && r->sm.state > 0)
		fprintf(out,
			"subnet manager: %s on %s, in-band sweep %.3f us "
			"(%llu SMPs, %llu LFT blocks)\n",
			r->sm.engine, node_id(r, r->sm.sm_node),
			ns(r->sm_first_sweep) / 1000.0,
			(unsigned long long)r->sm_first_smps,
			(unsigned long long)r->sm_first_lft_blocks);
	else if (r->sm_inband)
		fprintf(out, "subnet manager: the sweep did not finish: %s\n",
			r->sm.error[0] ? r->sm.error : "no answer");
	if (r->routing_fallback)
		fprintf(out, "routing: %s; %s built the tables instead\n",
			r->routing_fallback, r->routing);
	if (r->sm_inband && r->sm.traps)
		fprintf(out,
			"  %llu trap(s); rerouted %.3f us after the first fault "
			"(last sweep %.3f us, %llu SMPs)\n",
			(unsigned long long)r->sm.traps, ns(r->sm_reroute) / 1000.0,
			ns(r->sm.sweep) / 1000.0, (unsigned long long)r->sm.sent);
	if (r->sc->partitions) {
		uint64_t s[3];

		pkey_sums(r, s);
		fprintf(out,
			"partitions: %llu P_KeyViolations, %llu "
			"PortRcvConstraintErrors, %llu PortXmitConstraintErrors\n",
			(unsigned long long)s[0], (unsigned long long)s[1],
			(unsigned long long)s[2]);
	}
	if (r->no_route) {
		size_t n = 0;
		ibfs_time_t worst = 0;
		for (size_t i = 0; i < r->sc->topo->nnodes; i++) {
			n += r->no_route[i] > 0;
			if (r->no_route[i] > worst)
				worst = r->no_route[i];
		}
		fprintf(out, "  %zu destination(s) re-routed; the longest "
			"without a route: %.3f us\n", n, ns(worst) / 1000.0);
	}
	fprintf(out, "simulated %.3f us in %.3f s (%llu events)\n",
		ns(r->sim_time) / 1000.0, r->wall_s,
		(unsigned long long)r->events);
	fprintf(out, "messages: %llu completed, %llu failed",
		(unsigned long long)l.count, (unsigned long long)l.failed);
	if (l.incomplete)
		fprintf(out, ", %llu not finished by the end of the run",
			(unsigned long long)l.incomplete);
	fputc('\n', out);
	if (l.failed)
		print_failures(r, out);
	if (l.count)
		fprintf(out,
			"latency (ns): min %.3f  p50 %.3f  p99 %.3f  max %.3f  "
			"mean %.3f\n",
			ns(l.min), ns(l.p50), ns(l.p99), ns(l.max),
			l.mean / 1000.0);
	ibfs__results_print_mcast(r, out);
	struct flow *f;
	size_t nf = make_flows(r, &f);
	for (size_t i = 0; i < nf && i < 20; i++) {
		fprintf(out, "  %s -> %s %s: %llu B, %.3f -> %.3f ns, %.3f Gb/s",
			node_id(r, f[i].src), node_id(r, f[i].dst),
			ibfs__sc_op_str(f[i].op),
			(unsigned long long)f[i].bytes, ns(f[i].start),
			ns(f[i].end), gbps(f[i].bytes, f[i].end - f[i].start));
		if (f[i].unfinished)
			fprintf(out, " (%zu message%s not finished)",
				f[i].unfinished, f[i].unfinished > 1 ? "s" : "");
		fputc('\n', out);
	}
	if (nf > 20)
		fprintf(out, "  ... %zu flows in all (see --json or --csv)\n",
			nf);
	free(f);
	ibfs__results_print_colls(r, out);
	fprintf(out, "throughput: %.3f Gb/s aggregate\n", aggregate_gbps(r));
	fprintf(out, "packets: %llu sent, %llu dropped\n",
		(unsigned long long)r->fab->pkts_injected,
		(unsigned long long)r->fab->pkts_dropped);
	ibfs__results_cc_print(r, out);
	if (r->deadlock)
		fprintf(out, "DEADLOCK: %s\n", r->deadlock_cycle);
	if (r->fab->eq.nomem)
		fprintf(out, "ERROR: out of memory at %.3f ns: the run "
			"stopped there\n", ns(r->fab->eq.now));
	if (!r->conserved)
		fprintf(out, "INTERNAL ERROR: not conserved: %s\n",
			r->conservation);
}

/* JSON string output with the escapes RFC 8259 requires. */
static void json_str(FILE *o, const char *s)
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

void ibfs__results_json_str(FILE *o, const char *s)
{
	json_str(o, s);
}

static void endpoint_str(const struct ibfs_results *r, int node, int port,
			 char *buf, size_t len)
{
	snprintf(buf, len, "%s:%d", node_id(r, node), port);
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
		json_str(o, ea);
		fputs(", \"b\": ", o);
		json_str(o, eb);
		fprintf(o,
			", \"tx_bytes_ab\": %llu, \"tx_bytes_ba\": %llu, "
			"\"utilization_ab\": %.6f, \"utilization_ba\": %.6f, "
			"\"xmit_wait_ns_ab\": %.3f, \"xmit_wait_ns_ba\": %.3f",
			(unsigned long long)a->cnt.xmit_data,
			(unsigned long long)b->cnt.xmit_data,
			(double)a->cnt.busy / span, (double)b->cnt.busy / span,
			ns(a->cnt.xmit_wait), ns(b->cnt.xmit_wait));
		ibfs__results_cc_json_link(r, o, l);
		fputc('}', o);
	}
	fputs(t->nlinks ? "\n  ],\n" : "],\n", o);
}

/* The fullest any input buffer of a switch got, in bytes (64-byte blocks). */
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
			const struct ibfs_port *pt = &r->fab->ports[n][p];

			for (int v = 0; v < IBFS_MAX_VLS; v++)
				if (pt->vls[v].buf_top > peak)
					peak = pt->vls[v].buf_top;
		}
		fprintf(o, "%s\n    {\"id\": ", first ? "" : ",");
		json_str(o, t->nodes[n].id);
		fprintf(o, ", \"buffer_peak_bytes\": %llu}",
			(unsigned long long)peak * IBFS_CREDIT_BLOCK);
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
	pkey_sums(r, s);
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
			json_str(o, e);
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
	struct flow *f;
	size_t nf = make_flows(r, &f);
	ibfs__results_json_colls(r, o);
	fputs("  \"flows\": [", o);
	for (size_t i = 0; i < nf; i++) {
		fprintf(o, "%s\n    {\"src\": ", i ? "," : "");
		json_str(o, node_id(r, f[i].src));
		fputs(", \"dst\": ", o);
		json_str(o, node_id(r, f[i].dst));
		fprintf(o,
			", \"op\": \"%s\", \"bytes\": %llu, \"start_ns\": %.3f, "
			"\"end_ns\": %.3f, \"gbps\": %.6f",
			ibfs__sc_op_str(f[i].op),
			(unsigned long long)f[i].bytes, ns(f[i].start),
			ns(f[i].end), gbps(f[i].bytes, f[i].end - f[i].start));
		if (f[i].unfinished)
			fprintf(o, ", \"unfinished\": %zu", f[i].unfinished);
		fputc('}', o);
	}
	fputs(nf ? "\n  ],\n" : "],\n", o);
	free(f);
}

static void json_body(const struct ibfs_results *r, FILE *o)
{
	struct ibfs_latency l;
	ibfs__results_latency(r, &l);
	fputs("{\n  \"scenario\": ", o);
	json_str(o, r->sc->name);
	fprintf(o, ",\n  \"model\": \"%s\",\n  \"seed\": %llu,\n",
		ibfs__sc_model_str(r->sc->model), (unsigned long long)r->seed);
	if (r->sc->hca_profile)
		fprintf(o, "  \"hca_profile\": \"%s\",\n", r->sc->hca_profile);
	if (r->routing)
		fprintf(o, "  \"routing\": \"%s\",\n", r->routing);
	if (r->routing_fallback) {
		fputs("  \"routing_fallback\": ", o);
		json_str(o, r->routing_fallback);
		fputs(",\n", o);
	}
	if (r->sm_inband) {
		fprintf(o,
			"  \"subnet_manager\": {\"mode\": \"inband\", "
			"\"state\": \"%s\", \"host\": ",
			r->sm.state > 0 ? "up" : "failed");
		json_str(o, node_id(r, r->sm.sm_node));
		fprintf(o,
			", \"sweep_ns\": %.3f, \"last_sweep_ns\": %.3f, "
			"\"reroute_ns\": %.3f, \"smps\": %llu, "
			"\"last_sweep_smps_sent\": %llu, "
			"\"last_sweep_smps_received\": %llu, \"lft_blocks\": %llu, "
			"\"last_sweep_lft_blocks\": %llu, "
			"\"traps\": %llu, \"timeouts\": %llu},\n",
			ns(r->sm_first_sweep), ns(r->sm.sweep),
			ns(r->sm_reroute), (unsigned long long)r->sm_first_smps,
			(unsigned long long)r->sm.sent,
			(unsigned long long)r->sm.received,
			(unsigned long long)r->sm_first_lft_blocks,
			(unsigned long long)r->sm.lft_blocks,
			(unsigned long long)r->sm.traps,
			(unsigned long long)r->sm.timeouts);
	}
	fprintf(o,
		"  \"sim_time_ns\": %.3f,\n  \"sim_time_ps\": %llu,\n"
		"  \"wall_s\": %.6f,\n  \"events\": %llu,\n",
		ns(r->sim_time), (unsigned long long)r->sim_time, r->wall_s,
		(unsigned long long)r->events);
	fprintf(o,
		"  \"messages\": {\"completed\": %llu, \"failed\": %llu, "
		"\"incomplete\": %llu,\n"
		"    \"latency_ns\": {\"min\": %.3f, \"p50\": %.3f, \"p99\": "
		"%.3f, \"max\": %.3f, \"mean\": %.3f}},\n",
		(unsigned long long)l.count, (unsigned long long)l.failed,
		(unsigned long long)l.incomplete,
		ns(l.min), ns(l.p50), ns(l.p99), ns(l.max), l.mean / 1000.0);
	fprintf(o, "  \"throughput_gbps\": {\"aggregate\": %.6f},\n",
		aggregate_gbps(r));
	json_flows(r, o);
	json_links(r, o);
	json_switches(r, o);
	json_partitions(r, o);
	if (r->no_route) {
		int first = 1;
		fputs("  \"outages\": [", o);
		for (size_t i = 0; i < r->sc->topo->nnodes; i++) {
			if (!r->no_route[i])
				continue;
			fprintf(o, "%s\n    {\"dst\": ", first ? "" : ",");
			json_str(o, node_id(r, (int)i));
			fprintf(o, ", \"no_route_ns\": %.3f}",
				ns(r->no_route[i]));
			first = 0;
		}
		fputs(first ? "],\n" : "\n  ],\n", o);
	}
	ibfs__results_cc_json(r, o);
	ibfs__results_json_mcast(r, o);
	fprintf(o, "  \"packets\": {\"sent\": %llu, \"dropped\": %llu},\n",
		(unsigned long long)r->fab->pkts_injected,
		(unsigned long long)r->fab->pkts_dropped);
	fprintf(o, "  \"conservation\": {\"ok\": %s",
		r->conserved ? "true" : "false");
	if (!r->conserved) {
		fputs(", \"error\": ", o);
		json_str(o, r->conservation);
	}
	fputs("},\n", o);
	fprintf(o, "  \"deadlock\": %s", r->deadlock ? "true" : "false");
	if (r->deadlock) {
		fputs(",\n  \"deadlock_cycle\": ", o);
		json_str(o, r->deadlock_cycle);
	}
	/* Only when it happened: the run stopped then (eq.nomem). */
	if (r->fab->eq.nomem)
		fprintf(o, ",\n  \"out_of_memory\": true");
	fputs("\n}\n", o);
}

/*
 * Writes through a temporary file in the same directory and renames it into
 * place, so a reader never sees half a file.
 */
static int write_whole(const char *path,
		       void (*body)(const struct ibfs_results *, FILE *),
		       const struct ibfs_results *r)
{
	size_t len = strlen(path) + 16;
	char *tmp = malloc(len);
	if (!tmp)
		return -1;
	snprintf(tmp, len, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	FILE *o = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!o) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		errno = e;
		return -1;
	}
	body(r, o);
	int bad = ferror(o);
	bad |= fclose(o) != 0;
	if (bad || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		free(tmp);
		errno = e ? e : EIO;
		return -1;
	}
	free(tmp);
	return 0;
}

int ibfs__results_write_json(const struct ibfs_results *r, const char *path)
{
	return write_whole(path, json_body, r);
}

/*
 * A node id (":PORT" after it when port > 0) as a CSV field and a comma:
 * quoted, with its quotes doubled, when it holds a comma, a quote or a
 * line break (RFC 4180), which ids may.
 */
static void csv_id(FILE *o, const char *id, int port)
{
	int quote = id[strcspn(id, ",\"\r\n")] != 0;
	if (quote)
		fputc('"', o);
	for (const char *c = id; *c; c++) {
		if (*c == '"')
			fputc('"', o);
		fputc(*c, o);
	}
	if (port > 0)
		fprintf(o, ":%d", port);
	fputs(quote ? "\"," : ",", o);
}

static void csv_messages(const struct ibfs_results *r, FILE *o)
{
	fputs("src,dst,op,bytes,post_ps,done_ps,latency_ps,status,"
	      "arrived_ps\n", o);
	for (size_t i = 0; i < r->nmsgs; i++) {
		const struct ibfs_msg_record *m = &r->msgs[i];
		csv_id(o, node_id(r, m->src), 0);
		csv_id(o, node_id(r, m->dst), 0);
		fprintf(o, "%s,%llu,%llu,%llu,%llu,%d,%llu\n",
			ibfs__sc_op_str(m->op), (unsigned long long)m->bytes,
			(unsigned long long)m->post,
			(unsigned long long)m->done,
			(unsigned long long)(m->done - m->post), m->status,
			(unsigned long long)m->arrived);
	}
}

static void csv_flows(const struct ibfs_results *r, FILE *o)
{
	struct flow *f;
	size_t nf = make_flows(r, &f);
	fputs("src,dst,op,bytes,start_ps,end_ps,gbps,unfinished\n", o);
	for (size_t i = 0; i < nf; i++) {
		csv_id(o, node_id(r, f[i].src), 0);
		csv_id(o, node_id(r, f[i].dst), 0);
		fprintf(o, "%s,%llu,%llu,%llu,%.6f,%zu\n",
			ibfs__sc_op_str(f[i].op),
			(unsigned long long)f[i].bytes,
			(unsigned long long)f[i].start,
			(unsigned long long)f[i].end,
			gbps(f[i].bytes, f[i].end - f[i].start),
			f[i].unfinished);
	}
	free(f);
}

/*
 * PortXmitData and PortRcvData as IBA 16.1.3.5 counts them: data octets
 * divided by 4, from the LRH to the ICRC, so without the 2-byte VCRC of
 * each packet (link packets excluded). The port keeps its counts in wire
 * bytes, VCRC included (the `*_data_bytes` columns), and the packets
 * counted with them, so the words follow exactly: every transport packet
 * is a whole number of words before its VCRC (IBA 9.2: pad to 4 bytes).
 */
static uint64_t iba_data_words(uint64_t wire_bytes, uint64_t pkts)
{
	return (wire_bytes - (uint64_t)IBFS_VCRC_BYTES * pkts) / 4;
}

static void csv_ports(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_topology *t = r->sc->topo;
	fputs("node,port,peer,xmit_data_bytes,rcv_data_bytes,xmit_pkts,"
	      "rcv_pkts,xmit_wait_ps,busy_ps,peak_buffer_blocks,"
	      "port_xmit_data,port_rcv_data,fecn_marks,pkey_violations,"
	      "rcv_constraint_errors,xmit_constraint_errors\n", o);
	for (size_t n = 0; n < t->nnodes; n++) {
		for (int p = 1; p <= t->nodes[n].nports; p++) {
			const struct ibfs_port *pt = &r->fab->ports[n][p];
			const struct ibfs_topo_port *tp = &t->nodes[n].ports[p];
			if (tp->peer_node < 0)
				continue;
			uint32_t peak = 0;
			for (int v = 0; v < IBFS_MAX_VLS; v++)
				if (pt->vls[v].buf_top > peak)
					peak = pt->vls[v].buf_top;
			csv_id(o, t->nodes[n].id, 0);
			fprintf(o, "%d,", p);
			csv_id(o, t->nodes[tp->peer_node].id, tp->peer_port);
			fprintf(o,
				"%llu,%llu,%llu,%llu,%llu,%llu,%u,%llu,%llu,"
				"%llu,%llu,%llu,%llu\n",
				(unsigned long long)pt->cnt.xmit_data,
				(unsigned long long)pt->cnt.rcv_data,
				(unsigned long long)pt->cnt.xmit_pkts,
				(unsigned long long)pt->cnt.rcv_pkts,
				(unsigned long long)pt->cnt.xmit_wait,
				(unsigned long long)pt->cnt.busy, peak,
				(unsigned long long)iba_data_words(
					pt->cnt.xmit_data, pt->cnt.xmit_pkts),
				(unsigned long long)iba_data_words(
					pt->cnt.rcv_data, pt->cnt.rcv_pkts),
				(unsigned long long)ibfs__results_fecn_marks(
					r, (int)n, p),
				(unsigned long long)pt->pkey_violations,
				(unsigned long long)pt->rcv_constraint_errors,
				(unsigned long long)pt->xmit_constraint_errors);
		}
	}
}

static void csv_links(const struct ibfs_results *r, FILE *o)
{
	const struct ibfs_topology *t = r->sc->topo;
	fputs("a,b,tx_bytes_ab,tx_bytes_ba,busy_ps_ab,busy_ps_ba,"
	      "xmit_wait_ps_ab,xmit_wait_ps_ba\n", o);
	for (size_t i = 0; i < t->nlinks; i++) {
		const struct ibfs_topo_link *l = &t->links[i];
		const struct ibfs_port *a = &r->fab->ports[l->node_a][l->port_a];
		const struct ibfs_port *b = &r->fab->ports[l->node_b][l->port_b];
		csv_id(o, node_id(r, l->node_a), l->port_a);
		csv_id(o, node_id(r, l->node_b), l->port_b);
		fprintf(o, "%llu,%llu,%llu,%llu,%llu,%llu\n",
			(unsigned long long)a->cnt.xmit_data,
			(unsigned long long)b->cnt.xmit_data,
			(unsigned long long)a->cnt.busy,
			(unsigned long long)b->cnt.busy,
			(unsigned long long)a->cnt.xmit_wait,
			(unsigned long long)b->cnt.xmit_wait);
	}
}

int ibfs__results_write_csv(const struct ibfs_results *r, const char *dir)
{
	static const struct {
		const char *name;
		void (*body)(const struct ibfs_results *, FILE *);
	} tables[] = {{"messages.csv", csv_messages},
		      {"collectives.csv", ibfs__results_csv_colls},
		      {"flows.csv", csv_flows},
		      {"links.csv", csv_links},
		      {"ports.csv", csv_ports}};
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return -1;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, tables[i].name);
		if (write_whole(path, tables[i].body, r) < 0)
			return -1;
	}
	return 0;
}
