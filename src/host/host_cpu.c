/* SPDX-License-Identifier: MIT */
/*
 * A core as a FIFO server of jobs (host_cpu.h): one job at a time, in
 * the order submitted, each holding the core for the cost it names as it
 * starts; its end is a fabric event.
 */
#include "host/host_cpu.h"

static void core_start(struct ibfs_cpu_core *c);

static void core_done_ev(void *obj, uint64_t arg)
{
	struct ibfs_cpu_core *c = obj;
	struct ibfs_cpu_job *j = c->cur;

	(void)arg;
	c->cur = NULL;
	j->done(j);
	if (!c->cur)
		core_start(c);
}

static void core_start(struct ibfs_cpu_core *c)
{
	struct ibfs_cpu_job *j = c->head;
	ibfs_time_t now = ibfs__fabric_now(c->fab), cost;

	if (!j)
		return;
	c->head = j->next;
	if (!c->head)
		c->tail = NULL;
	j->next = NULL;
	c->cur = j;
	cost = j->start(j, now);
	c->busy += cost;
	c->jobs++;
	if (!ibfs__eq_schedule(&c->fab->eq, now + cost, core_done_ev, c, 0))
		ibfs__fabric_nomem(c->fab);
}

void ibfs__cpu_core_init(struct ibfs_cpu_core *c, struct ibfs_fabric *f)
{
	memset(c, 0, sizeof(*c));
	c->fab = f;
}

void ibfs__cpu_submit(struct ibfs_cpu_core *c, struct ibfs_cpu_job *j)
{
	j->next = NULL;
	if (c->tail)
		c->tail->next = j;
	else
		c->head = j;
	c->tail = j;
	if (!c->cur)
		core_start(c);
}
