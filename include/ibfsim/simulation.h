/* SPDX-License-Identifier: MIT */
/*
 * Building and running a simulation from a program's main(): load a fabric
 * file, let the subnet manager's routing engine assign LIDs and forwarding
 * tables, start application actors (functions written against verbs.h and
 * sim.h) on the hosts of chosen HCAs, and run until they have all ended.
 *
 *	int main(int argc, char **argv)
 *	{
 *		char err[512];
 *		struct ibfs_simulation *s = ibfs_simulation_create(
 *			&argc, argv, "fabric.xml", NULL, err, sizeof(err));
 *		if (!s) { fprintf(stderr, "%s\n", err); return 2; }
 *		ibfs_simulation_spawn(s, "node1", "server", server, 0, NULL);
 *		ibfs_simulation_spawn(s, "node2", "client", client, 0, NULL);
 *		int rc = ibfs_simulation_run(s);
 *		ibfs_simulation_destroy(s);
 *		return rc;
 *	}
 *
 * One process holds one simulation (SimGrid's rule).
 */
#ifndef IBFSIM_SIMULATION_H
#define IBFSIM_SIMULATION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibfs_simulation;

struct ibfs_simulation_opts {
	const char *routing;  /* OpenSM engine name; NULL: "minhop" */
	int lmc;              /* LIDs per port: 2^lmc */
	uint64_t seed;        /* 0: 1 */
	int no_data;          /* 1: move no real bytes (same timing) */
	/*
	 * NULL or "ib": InfiniBand; "roce": the same fabric as Ethernet
	 * with PFC on every priority, ECMP routes and RoCEv2 RNICs (as
	 * `ibfsim run --model roce`; routing and lmc then do not apply).
	 */
	const char *model;
};

/*
 * Initialises SimGrid from the program's arguments (which may carry its
 * --cfg options) and builds the fabric of `fabric_xml`. opts may be NULL.
 * Returns NULL with "FILE:LINE: what is wrong" in err on bad input.
 */
struct ibfs_simulation *ibfs_simulation_create(int *argc, char **argv,
					       const char *fabric_xml,
					       const struct ibfs_simulation_opts
						       *opts,
					       char *err, size_t errlen);

/*
 * Starts actor `name` running fn(argc, argv) on the host of HCA `hca`
 * (argv[0] is the actor's name; the array is copied). Returns 0 or -1.
 */
int ibfs_simulation_spawn(struct ibfs_simulation *s, const char *hca,
			  const char *name, void (*fn)(int, char **),
			  int argc, char **argv);

/*
 * Runs until every actor has ended. Returns 0; 1 when the run ended on a
 * deadlock (of the fabric, or of actors waiting for what never comes).
 */
int ibfs_simulation_run(struct ibfs_simulation *s);

/* Simulated time reached, in picoseconds. */
uint64_t ibfs_simulation_time(const struct ibfs_simulation *s);

void ibfs_simulation_destroy(struct ibfs_simulation *s);

#ifdef __cplusplus
}
#endif

#endif
