/* SPDX-License-Identifier: MIT */
/*
 * One model's column of `ibfsim compare` (cli/cmd_compare.c): the figures
 * a run's results give for the comparison's rows (performance, stability,
 * management, equipment), in a flat record that a run in a child process
 * hands back to the parent whole.
 */
#ifndef IBFS_SCENARIO_COMPARE_H
#define IBFS_SCENARIO_COMPARE_H

#include <stdint.h>

#include "scenario/results.h"

/* A figure the model does not measure (yet) is this. */
#define IBFS_CMP_NONE (-1.0)

struct ibfs_cmp_figs {
	int status;              /* the run's: 0 completed, 1 failed,
				  * -1 could not start (error says why) */
	char error[1024];
	uint64_t seed;
	/* Performance. */
	uint64_t msgs, failed, incomplete;
	double lat_p50_ns, lat_p99_ns, lat_max_ns;
	double aggregate_gbps;
	uint64_t flows;
	double flow_min_gbps;    /* the slowest flow's throughput */
	double jain;             /* Jain's index over the flows' throughputs */
	double coll_ns;          /* the longest collective, or NONE */
	/* Flow workloads (kind="flows"): FCT slowdown p50 and p99, or NONE. */
	double fct_p50, fct_p99;
	/* Host cost: no host CPU model yet, so NONE. */
	double cpu_s;
	/* Stability. */
	uint64_t pkts_sent, pkts_dropped, pkts_retransmitted;
	int deadlock;
	int conserved;
	/* Time senders stood still for flow control, summed over ports:
	 * PortXmitWait (credits) under ib, PFC pause time under roce. */
	double stall_ns;
	/* Management: what the fabric needs configured, and its bring-up
	 * time (the SM's first in-band sweep; NONE when not modelled). */
	char management[32];
	double bringup_ns;
	/* Equipment (the topology's). */
	uint64_t switches, switch_ports, cables, nics;
	double cable_m;          /* all cables' length summed */
	char cable_lengths[48];  /* "N x L m" per length, longest first */
	/* The run. */
	double sim_ns, wall_s;
	uint64_t events;
};

/* The figures of r (a run of sc under its model) into f. */
void ibfs__cmp_figures(const struct ibfs_results *r, struct ibfs_cmp_figs *f);

#endif
