/* SPDX-License-Identifier: MIT */
/*
 * The SimGrid bridge: application programs run as SimGrid actors on hosts
 * derived from the fabric's HCAs, while the packet-level fabric runs in one
 * daemon actor under the same clock. The bridge implements the execution
 * interface of src/fabric/exec.h, so the verbs code in src/hca can enter the
 * fabric, block an application until a completion, and have the fabric wake
 * it at the exact picosecond the completion happens.
 *
 * Synchronisation is conservative with lookahead: the fabric actor runs
 * events in its own loop up to the earliest time at which any application
 * could next act, and only then yields to SimGrid (docs/architecture.md,
 * "The SimGrid bridge").
 *
 * One process holds one SimGrid simulation, hence at most one bridge.
 */
#ifndef IBFS_BRIDGE_BRIDGE_H
#define IBFS_BRIDGE_BRIDGE_H

#include <stdint.h>

#include "fabric/diag.h"
#include "fabric/event_queue.h"
#include "fabric/exec.h"
#include "fabric/topology.h"

struct ibfs_bridge;

/* What the bridge has done so far (tests and benchmarks). */
struct ibfs_bridge_stats {
	uint64_t events;        /* fabric events run by the bridge */
	uint64_t yields;        /* times the fabric actor gave up the CPU */
	uint64_t sleeps;        /* of which: waits on the doorbell */
	uint64_t deliveries;    /* wake_at deliveries made */
	uint64_t rings;         /* doorbell rings by applications */
	uint64_t late_events;   /* events found in an application's past */
	uint64_t early_entries; /* entries while the fabric was ahead */
};

/*
 * Initialises SimGrid once per process (later calls do nothing) from the
 * program's arguments, which may carry --cfg and --log options, and lowers
 * SimGrid's timing precision so that sub-nanosecond waits are exact.
 */
void ibfs__bridge_init(int *argc, char **argv);

/*
 * Creates the bridge for event queue eq and topology t (both kept by
 * reference): one SimGrid host per HCA, named by the HCA's id. Must follow
 * ibfs__bridge_init. Returns NULL with a message in d when t has no HCA,
 * SimGrid is not initialised, a bridge already exists, or the host list
 * cannot be written.
 */
struct ibfs_bridge *ibfs__bridge_new(struct ibfs_eq *eq,
				     const struct ibfs_topology *t,
				     struct ibfs_diag *d);
void ibfs__bridge_free(struct ibfs_bridge *b);

/* The execution interface of src/fabric/exec.h, served by b. */
struct ibfs_exec ibfs__bridge_exec(struct ibfs_bridge *b);

/*
 * Starts application actor `name` running fn(argc, argv) on the host of
 * HCA hca_id (argv is copied), now or, before ibfs__bridge_run, at time 0.
 * Every actor that uses the fabric must be started here: the bridge keeps
 * the fabric behind the actors it knows, and an actor created directly
 * with SimGrid could find the fabric ahead of its clock. Returns 0, or -1
 * with a message in the bridge's diag when there is no such HCA.
 */
int ibfs__bridge_spawn(struct ibfs_bridge *b, const char *hca_id,
		       const char *name, void (*fn)(int, char **), int argc,
		       char **argv);

/*
 * At most `actors` actors of b's run get guard pages (stacks.c; by default
 * vm.max_map_count / 4): called before the first actor starts, as tests
 * do to try a small budget.
 */
void ibfs__bridge_set_guard_budget(struct ibfs_bridge *b, size_t actors);
/* Each HCA of b's run starts at most n actors (default 3: a scenario's
 * poster, completer and collective poster); called before the first. */
void ibfs__bridge_set_host_actors(struct ibfs_bridge *b, size_t n);
/* 1 while SimGrid gives new actors guard pages (contexts/guard-size). */
int ibfs__bridge_stacks_guarded(void);

/* Topology node index of the calling actor's HCA; -1 outside an actor. */
int ibfs__bridge_current_node(void);

/*
 * Runs the simulation until every application actor has ended. Returns 0;
 * 1 when the run was stopped (ibfs__bridge_stop or a watched flag); or -1
 * with a message in the bridge's diag when the applications still alive
 * all wait for something that can never come (a deadlock): they are then
 * killed so that the run ends.
 */
int ibfs__bridge_run(struct ibfs_bridge *b);

/*
 * Ends the run at the current fabric time: called from a fabric event (a
 * stop time), it makes the fabric actor end every application actor still
 * alive before any later event runs. ibfs__bridge_run then returns 1.
 */
void ibfs__bridge_stop(struct ibfs_bridge *b);
/*
 * Watches `flag` (e.g. the fabric's "stopped" flag, set by the deadlock
 * monitor): once it reads non-zero the run ends as with ibfs__bridge_stop.
 */
void ibfs__bridge_watch(struct ibfs_bridge *b, const int *flag);
/*
 * Calls fn(ctx) when the last application actor ends, before the fabric
 * runs what is left in its queue (e.g. to cancel a stop time that would
 * otherwise keep the run going to it).
 */
void ibfs__bridge_on_done(struct ibfs_bridge *b, void (*fn)(void *ctx),
			  void *ctx);

void ibfs__bridge_stats(const struct ibfs_bridge *b,
			struct ibfs_bridge_stats *s);

#endif
