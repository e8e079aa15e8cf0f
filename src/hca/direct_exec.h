/* SPDX-License-Identifier: MIT */
/*
 * A struct ibfs_exec without SimGrid, for unit tests and for `ibfsim
 * perftest`: the application is either sequential code that blocks by
 * running the event queue until it is woken, or event handlers that call
 * the verbs API from inside the fabric (CQ notify callbacks). Either way
 * the application's time is the event queue's time.
 */
#ifndef IBFS_HCA_DIRECT_EXEC_H
#define IBFS_HCA_DIRECT_EXEC_H

#include "fabric/event_queue.h"
#include "fabric/exec.h"

struct ibfs_direct_exec {
	struct ibfs_eq *eq;
	int woken;
	ibfs_time_t wake_t;
	int waiting;
};

/* An exec whose ctx is d (which must outlive it). */
struct ibfs_exec ibfs__direct_exec(struct ibfs_direct_exec *d,
				   struct ibfs_eq *eq);
/* Runs every event due up to t, then sets the time to t (a sleep). */
void ibfs__direct_exec_advance(struct ibfs_direct_exec *d, ibfs_time_t t);
/*
 * Runs the queue until it is empty, or out of memory (eq.nomem); returns
 * the events run.
 */
uint64_t ibfs__direct_exec_drain(struct ibfs_direct_exec *d);

#endif
