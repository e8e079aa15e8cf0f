/* SPDX-License-Identifier: MIT */
/*
 * The direct exec (see direct_exec.h). wait() runs the event queue; a
 * wake_at(t) from a fabric event lowers the run's horizon to t, so the run
 * stops right after the events due at t and the caller resumes at t
 * exactly. If the queue empties without a wake, wait() returns anyway and
 * the caller sees that nothing will ever come (ibfs_wait_cq: ETIMEDOUT).
 */
#include "hca/direct_exec.h"

struct ibfs_waiter {
	int unused;
};

static struct ibfs_waiter de_waiter;

static void de_nop(void *ctx)
{
	(void)ctx;
}

static struct ibfs_waiter *de_waiter_get(void *ctx)
{
	(void)ctx;
	return &de_waiter;
}

static void de_wait(void *ctx, struct ibfs_waiter *w)
{
	(void)w;
	struct ibfs_direct_exec *d = ctx;
	if (d->woken) {
		/* Woken before blocking (from the caller's own context). */
		d->woken = 0;
		ibfs__direct_exec_advance(d, d->wake_t);
		return;
	}
	d->waiting = 1;
	/* Out of memory, the queue runs no more (eq.nomem): not a wake. */
	while (!d->woken && ibfs__eq_size(d->eq) && !d->eq->nomem)
		ibfs__eq_run(d->eq, IBFS_TIME_NEVER);
	d->waiting = 0;
	if (d->woken) {
		d->woken = 0;
		if (d->eq->now < d->wake_t)
			d->eq->now = d->wake_t;
	}
}

static void de_wake_at(void *ctx, struct ibfs_waiter *w, ibfs_time_t t)
{
	(void)w;
	struct ibfs_direct_exec *d = ctx;
	d->woken = 1;
	d->wake_t = t;
	if (d->waiting)
		ibfs__eq_limit(d->eq, t);
}

static ibfs_time_t de_now(void *ctx)
{
	struct ibfs_direct_exec *d = ctx;
	return d->eq->now;
}

static const struct ibfs_exec_ops de_ops = {
	.enter = de_nop,
	.leave = de_nop,
	.waiter_get = de_waiter_get,
	.wait = de_wait,
	.wake_at = de_wake_at,
	.now = de_now,
};

struct ibfs_exec ibfs__direct_exec(struct ibfs_direct_exec *d,
				   struct ibfs_eq *eq)
{
	d->eq = eq;
	d->woken = 0;
	d->waiting = 0;
	d->wake_t = 0;
	return (struct ibfs_exec){ .ops = &de_ops, .ctx = d };
}

void ibfs__direct_exec_advance(struct ibfs_direct_exec *d, ibfs_time_t t)
{
	if (t < d->eq->now)
		return;
	ibfs__eq_run(d->eq, t);
	if (d->eq->now < t)
		d->eq->now = t;
}

uint64_t ibfs__direct_exec_drain(struct ibfs_direct_exec *d)
{
	uint64_t n = 0;
	while (ibfs__eq_size(d->eq) && !d->eq->nomem)
		n += ibfs__eq_run(d->eq, IBFS_TIME_NEVER);
	return n;
}
