/* SPDX-License-Identifier: MIT */
/*
 * Runs in child processes, a pool of them at a time (compare, sweep).
 *
 * A simulation owns its process (SimGrid's engine is one per process),
 * so each run forks: the child builds its scenario (the caller's load),
 * runs it, computes its figures (scenario/compare.h), may write files of
 * its own (the caller's after), and hands the figures back whole through
 * a pipe. The parent starts up to `jobs` runs and hears of each as it
 * ends (done), in the order they were started.
 */
#ifndef IBFS_CLI_RUNS_H
#define IBFS_CLI_RUNS_H

#include <sys/types.h>

#include "fabric/diag.h"
#include "scenario/compare.h"
#include "scenario/runner.h"

struct ibfs_cli_run {
	int model;              /* enum ibfs_sc_model */
	uint64_t seed;
	size_t index;           /* the caller's: which point or column */
	pid_t pid;
	int fd;
	struct ibfs_cmp_figs f; /* status -1: could not run (f.error) */
};

struct ibfs_cli_pool {
	struct ibfs_run_opts o; /* every run's; its seed is each run's */
	uint64_t jobs;
	/* In the child: run's scenario, ready to run (model set), or NULL
	 * with d filled. */
	struct ibfs_scenario *(*load)(void *arg, const struct ibfs_cli_run *run,
				      struct ibfs_diag *d);
	/* In the child, after a run that completed or failed: 0, or -1
	 * with d filled (the run then counts as not run). May be NULL. */
	int (*after)(void *arg, const struct ibfs_cli_run *run,
		     const struct ibfs_results *r, struct ibfs_diag *d);
	/* In the parent, as each run ends. May be NULL. */
	void (*done)(void *arg, const struct ibfs_cli_run *run);
	void *arg;
};

/* Runs runs[0..n-1]: 0, or -1 after a message when a fork failed. */
int ibfs_cli_runs(const struct ibfs_cli_pool *p, struct ibfs_cli_run *runs,
		  size_t n);

#endif
