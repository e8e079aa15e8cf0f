/* SPDX-License-Identifier: MIT */
/*
 * Private state of the SimGrid bridge, shared by its files: bridge.c (life
 * cycle and hosts), sync.c (the fabric actor and the execution interface)
 * and oob.c (the out-of-band key/value exchange).
 *
 * Each application actor has one struct ibfs_waiter: it is both the
 * actor's record (state, host, semaphore) and the waiter handed to the
 * fabric by exec.waiter_get. The bridge tracks every actor's state because
 * the fabric may only run ahead of SimGrid's clock up to the earliest time
 * at which an application could next act.
 */
#ifndef IBFS_BRIDGE_BRIDGE_INT_H
#define IBFS_BRIDGE_BRIDGE_INT_H

#include <stddef.h>
#include <stdint.h>

#include <simgrid/actor.h>
#include <simgrid/semaphore.h>

#include "bridge/bridge.h"

enum brg_state {
	BRG_RUNNING,  /* may act now: the bridge cannot see what it does */
	BRG_WAITING,  /* blocked in exec.wait until a delivery */
	BRG_SLEEPING, /* in ibfs_sleep until wake_time */
	BRG_OOB,      /* blocked in ibfs_oob_get until a put */
	BRG_DONE,     /* ended or killed */
};

struct ibfs_waiter {
	struct ibfs_bridge *b;
	sg_actor_t actor;
	sg_sem_t sem;          /* released once to end one blocking state */
	int node;              /* topology node of the actor's HCA */
	enum brg_state state;
	uint64_t tokens;       /* deliveries that found the actor not waiting */
	ibfs_time_t wake_time; /* BRG_SLEEPING: when it wakes */
	uint64_t sleep_gen;    /* tells stale sleeper heap entries apart */
	void (*fn)(int, char **);
	struct ibfs_waiter *oob_next; /* next actor waiting on the same key */
};

/* A heap entry: ordered by (time, seq); gen checks sleeper entries. */
struct brg_entry {
	ibfs_time_t time;
	uint64_t seq;
	struct ibfs_waiter *w;
	uint64_t gen;
};

struct brg_heap {
	struct brg_entry *v;
	size_t n, cap;
};

struct brg_oob_key;

struct ibfs_bridge {
	struct ibfs_eq *eq;
	const struct ibfs_topology *topo;
	struct ibfs_diag *diag;
	int *host_node;         /* per HCA host: its topology node index */
	size_t nhosts;

	/* Application actors, and a map from SimGrid pid to actor. */
	struct ibfs_waiter **actors;
	size_t nactors, actors_cap;
	struct ibfs_waiter **by_pid;
	size_t by_pid_cap;
	size_t running;         /* actors in BRG_RUNNING */
	/* Guarded actors allowed; whether that was decided (stacks.c). */
	size_t guard_budget;
	size_t host_actors;     /* at most, an HCA (default 3) */
	int guard_set;
	size_t live;            /* actors not in BRG_DONE */

	struct brg_heap deliveries; /* pending wake_at, by (time, seq) */
	struct brg_heap sleepers;   /* ibfs_sleep wake times */
	uint64_t next_seq;

	/* The fabric actor and its doorbell. */
	sg_actor_t fabric;
	sg_sem_t doorbell;
	int fabric_sleeping;
	int rung;               /* the doorbell was released for this sleep */
	ibfs_time_t sleep_until; /* IBFS_TIME_NEVER: until the doorbell */
	int deadlock;
	int fabric_done;
	int stop;               /* ibfs__bridge_stop was called */
	int stopped;            /* the run ended on a stop */
	const int *watch;       /* a flag that stops the run when set */
	void (*on_done)(void *ctx); /* the last application actor ended */
	void *on_done_ctx;

	/*
	 * SimGrid's clock is a double in seconds; the integer picosecond is
	 * the truth. Whenever the bridge knows the exact picosecond of the
	 * current clock value (a timed wake), it keeps the pair here, and
	 * other clock values are rounded to the nearest picosecond.
	 */
	double map_clock;
	ibfs_time_t map_ps;

	struct brg_oob_key *oob;
	struct ibfs_bridge_stats st;
};

/* The one bridge of the process, or NULL. */
extern struct ibfs_bridge *ibfs__bridge_the;

/* The calling actor's record, or NULL outside an application actor. */
struct ibfs_waiter *ibfs__bridge_self(void);
/* SimGrid's current time in exact picoseconds (see map_clock). */
ibfs_time_t ibfs__bridge_clock_ps(struct ibfs_bridge *b);
/* Records that SimGrid's current clock value is picosecond t. */
void ibfs__bridge_clock_set(struct ibfs_bridge *b, ibfs_time_t t);

/* State changes of the calling actor, kept in the running count. */
void ibfs__bridge_block(struct ibfs_waiter *w, enum brg_state s);
/* Makes w runnable and releases its semaphore (another actor calls). */
void ibfs__bridge_unblock(struct ibfs_waiter *w);
/* Wakes the fabric actor if it sleeps past work it now has. */
void ibfs__bridge_notify(struct ibfs_bridge *b);

/* The fabric actor's main function (sync.c). */
void ibfs__bridge_fabric_main(int argc, char **argv);

/* Frees the out-of-band store (oob.c). */
void ibfs__bridge_oob_free(struct ibfs_bridge *b);

/*
 * Actor stacks (stacks.c): the budget of guard pages, read at the bridge's
 * creation, and SimGrid's guard size set once before the first actor.
 */
void ibfs__brg_stacks_init(struct ibfs_bridge *b);
void ibfs__brg_stacks_before_actor(struct ibfs_bridge *b);

#endif
