/* SPDX-License-Identifier: MIT */
/*
 * The text summary of a run's results, on stdout (docs/results.md): the
 * scenario, the subnet manager's sweep, the messages and their latency,
 * the first 20 flows, the optional parts (multicast, collectives,
 * congestion control), the aggregate throughput and the packets, and
 * what went wrong (deadlock, memory, conservation). Times in us for the
 * run and the sweeps, in ns for messages and flows.
 */
#include <stdlib.h>

#include <ibfsim/verbs.h>

#include "scenario/results_int.h"

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

/* The subnet manager's sweeps and the engine that built the tables. */
static void print_sm(const struct ibfs_results *r, FILE *out)
{
	if (r->sm_inband && r->sm.state > 0)
		fprintf(out,
			"subnet manager: %s on %s, in-band sweep %.3f us "
			"(%llu SMPs, %llu LFT blocks)\n",
			r->sm.engine, res_id(r, r->sm.sm_node),
			res_ns(r->sm_first_sweep) / 1000.0,
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
			(unsigned long long)r->sm.traps,
			res_ns(r->sm_reroute) / 1000.0,
			res_ns(r->sm.sweep) / 1000.0,
			(unsigned long long)r->sm.sent);
}

/* With partitions="FILE": the partition counters summed. */
static void print_partitions(const struct ibfs_results *r, FILE *out)
{
	uint64_t s[3];

	if (!r->sc->partitions)
		return;
	ibfs__results_pkey_sums(r, s);
	fprintf(out,
		"partitions: %llu P_KeyViolations, %llu "
		"PortRcvConstraintErrors, %llu PortXmitConstraintErrors\n",
		(unsigned long long)s[0], (unsigned long long)s[1],
		(unsigned long long)s[2]);
}

/* After faults: the destinations re-routed and the longest outage. */
static void print_outages(const struct ibfs_results *r, FILE *out)
{
	size_t n = 0;
	ibfs_time_t worst = 0;

	if (!r->no_route)
		return;
	for (size_t i = 0; i < r->sc->topo->nnodes; i++) {
		n += r->no_route[i] > 0;
		if (r->no_route[i] > worst)
			worst = r->no_route[i];
	}
	fprintf(out, "  %zu destination(s) re-routed; the longest "
		"without a route: %.3f us\n", n, res_ns(worst) / 1000.0);
}

/* The messages: how many completed, failed and why, their latency. */
static void print_messages(const struct ibfs_results *r, FILE *out)
{
	struct ibfs_latency l;

	ibfs__results_latency(r, &l);
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
			res_ns(l.min), res_ns(l.p50), res_ns(l.p99),
			res_ns(l.max), l.mean / 1000.0);
}

/* The first 20 flows; the JSON and flows.csv have them all. */
static void print_flows(const struct ibfs_results *r, FILE *out)
{
	struct ibfs_flow *f;
	size_t nf = ibfs__results_flows(r, &f);

	for (size_t i = 0; i < nf && i < 20; i++) {
		fprintf(out, "  %s -> %s %s: %llu B, %.3f -> %.3f ns, %.3f Gb/s",
			res_id(r, f[i].src), res_id(r, f[i].dst),
			ibfs__sc_op_str(f[i].op),
			(unsigned long long)f[i].bytes, res_ns(f[i].start),
			res_ns(f[i].end),
			ibfs__results_gbps(f[i].bytes, f[i].end - f[i].start));
		if (f[i].unfinished)
			fprintf(out, " (%zu message%s not finished)",
				f[i].unfinished, f[i].unfinished > 1 ? "s" : "");
		fputc('\n', out);
	}
	if (nf > 20)
		fprintf(out, "  ... %zu flows in all (see --json or --csv)\n",
			nf);
	free(f);
}

/* The samples (--sample) and where they went. */
static void print_samples(const struct ibfs_results *r, FILE *out)
{
	if (!r->sample_interval)
		return;
	fprintf(out, "samples: %llu, every %.3f ns:",
		(unsigned long long)r->samples, res_ns(r->sample_interval));
	if (r->sample_dir)
		fprintf(out, " %s/samples_ports.csv, %s/samples_qps.csv",
			r->sample_dir, r->sample_dir);
	if (r->sample_trace)
		fprintf(out, "%s counters in the timeline",
			r->sample_dir ? "," : "");
	if (!r->sample_dir && !r->sample_trace)
		fputs(" not written (no --csv DIR, no --trace FILE)", out);
	fputc('\n', out);
}

void ibfs__results_print(const struct ibfs_results *r, FILE *out)
{
	fprintf(out, "scenario %s, model %s, seed %llu", r->sc->name,
		ibfs__sc_model_str(r->sc->model), (unsigned long long)r->seed);
	if (r->sc->hca_profile)
		fprintf(out, ", HCA profile %s", r->sc->hca_profile);
	fputc('\n', out);
	print_sm(r, out);
	print_partitions(r, out);
	print_outages(r, out);
	fprintf(out, "simulated %.3f us in %.3f s (%llu events)\n",
		res_ns(r->sim_time) / 1000.0, r->wall_s,
		(unsigned long long)r->events);
	print_messages(r, out);
	ibfs__results_print_mcast(r, out);
	print_flows(r, out);
	ibfs__results_print_fct(r, out);
	ibfs__results_print_colls(r, out);
	fprintf(out, "throughput: %.3f Gb/s aggregate\n",
		ibfs__results_aggregate_gbps(r));
	ibfs__results_print_packets(r, out);
	ibfs__results_print_cc(r, out);
	ibfs__results_print_eth(r, out);
	ibfs__results_print_cpu(r, out);
	print_samples(r, out);
	if (r->deadlock)
		fprintf(out, "DEADLOCK: %s\n", r->deadlock_cycle);
	if (r->fab->eq.nomem)
		fprintf(out, "ERROR: out of memory at %.3f ns: the run "
			"stopped there\n", res_ns(r->fab->eq.now));
	if (!r->conserved)
		fprintf(out, "INTERNAL ERROR: not conserved: %s\n",
			r->conservation);
}
