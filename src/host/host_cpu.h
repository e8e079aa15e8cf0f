/* SPDX-License-Identifier: MIT */
/*
 * A host's cores as FIFO servers: a step of the kernel's or the
 * application's work is a job that waits for its core, holds it for its
 * cost, then takes effect. A job's cost is fixed when it starts (a recv()
 * reads what is readable then), so that a step queued behind a busy core
 * sees the state it will find.
 */
#ifndef IBFS_HOST_HOST_CPU_H
#define IBFS_HOST_HOST_CPU_H

#include <stdint.h>

#include "fabric/fabric.h"

struct ibfs_cpu_job {
	struct ibfs_cpu_job *next;
	/* Its cost, as it starts at `now`. */
	ibfs_time_t (*start)(struct ibfs_cpu_job *j, ibfs_time_t now);
	/* Its effect, at its end; may free j and submit more. */
	void (*done)(struct ibfs_cpu_job *j);
};

struct ibfs_cpu_core {
	struct ibfs_fabric *fab;
	struct ibfs_cpu_job *head, *tail, *cur;
	ibfs_time_t busy;       /* ps of work done or under way */
	uint64_t jobs;
};

void ibfs__cpu_core_init(struct ibfs_cpu_core *c, struct ibfs_fabric *f);
/* j waits behind what c holds, or starts now when c is idle. */
void ibfs__cpu_submit(struct ibfs_cpu_core *c, struct ibfs_cpu_job *j);

#endif
