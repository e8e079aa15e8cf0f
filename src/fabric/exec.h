/* SPDX-License-Identifier: MIT */
/*
 * How application code meets the fabric. Applications run as SimGrid actors
 * (src/bridge) while the fabric runs its own event loop; code called from an
 * application (the verbs API in src/hca) uses these operations to enter the
 * fabric at the application's current time, to block until the fabric has
 * something for it, and the fabric uses wake_at to deliver that exactly at
 * the simulated picosecond it happens. The bridge provides the operations;
 * tests may provide a simpler harness. The fabric never calls SimGrid.
 */
#ifndef IBFS_FABRIC_EXEC_H
#define IBFS_FABRIC_EXEC_H

#include "fabric/time.h"

struct ibfs_waiter; /* opaque: one per blocking application actor */

struct ibfs_exec_ops {
	/* The calling application enters the fabric: fabric time = its time. */
	void (*enter)(void *ctx);
	/* It leaves: the fabric runs again if it now has earlier work. */
	void (*leave)(void *ctx);
	/* A waiter for the calling actor (created once, kept). */
	struct ibfs_waiter *(*waiter_get)(void *ctx);
	/* Blocks the calling actor until its waiter is woken. */
	void (*wait)(void *ctx, struct ibfs_waiter *w);
	/*
	 * Called from a fabric event: wakes w at simulated time t (>= now).
	 * The fabric will not run past t before the actor has run.
	 */
	void (*wake_at)(void *ctx, struct ibfs_waiter *w, ibfs_time_t t);
	/* The calling actor's current time in ps (exact). */
	ibfs_time_t (*now)(void *ctx);
};

struct ibfs_exec {
	const struct ibfs_exec_ops *ops;
	void *ctx;
};

#endif
