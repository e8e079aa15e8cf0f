/* SPDX-License-Identifier: MIT */
/*
 * Running a scenario: assembles the simulation (fabric, switches, HCAs,
 * routes, SimGrid bridge), runs its traffic through the verbs API in
 * application actors, and fills the results.
 */
#ifndef IBFS_SCENARIO_RUNNER_H
#define IBFS_SCENARIO_RUNNER_H

#include "fabric/capture.h"
#include "scenario/results.h"
#include "scenario/scenario.h"

struct ibfs_run_opts {
	uint64_t seed;          /* --seed, default 1 */
	int data;               /* 0 with --no-data: same timing, no bytes */
	ibfs_time_t until;      /* --until; IBFS_TIME_NEVER when absent */
	int quiet;
	const char *pcap;       /* --pcap FILE or NULL */
	struct ibfs_capture_opts pcap_opts; /* --pcap-ports, --pcap-snaplen */
	const char *trace;      /* --trace FILE or NULL */
	const struct ibfs_port_set *trace_ports; /* --trace-ports, or NULL */
	/* Called once the fabric is assembled, before anything moves, to
	 * listen to it (ibfsim explain); NULL: nothing. */
	void (*assembled)(void *arg, struct ibfs_fabric *f);
	void *assembled_arg;
	/* --sample: the interval (0: the scenario's <sample>, if any) and
	 * the directory of its CSV files (--csv, or NULL). */
	ibfs_time_t sample;
	const char *sample_dir;
};

/*
 * Runs sc. Returns 0 when the run completed, 1 when it failed (deadlock,
 * unexpected failed completions), -1 when it could not start (d filled).
 */
int ibfs__scenario_run(struct ibfs_scenario *sc, const struct ibfs_run_opts *o,
		       struct ibfs_results *r, struct ibfs_diag *d);

#endif
