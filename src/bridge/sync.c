/* SPDX-License-Identifier: MIT */
/*
 * Conservative synchronisation of the fabric with SimGrid's applications.
 *
 * One daemon actor owns the event queue. In its own loop it runs every event
 * due at or before a safe horizon: the earliest simulated time at which an
 * application could next act. An actor blocked in exec.wait acts no earlier
 * than its wake is delivered; one in ibfs_sleep at its wake time; one the
 * bridge cannot see (running, or blocked in SimGrid outside the bridge) at
 * "now". So the horizon is min(next delivery, earliest sleeper, now if any
 * actor runs), and a handler that calls wake_at lowers it while the run is
 * in progress (ibfs__eq_limit). Only then does the fabric yield to SimGrid,
 * sleeping on a doorbell semaphore until its next delivery or event; an
 * application whose actions give it earlier work rings the doorbell. A
 * yield costs about 0.5 us against 20-40 ns for an event in the loop
 * (docs/architecture.md, "The SimGrid bridge"), so the loop is where the
 * time should go.
 *
 * SimGrid's clock is a double in seconds; the fabric's integer picosecond
 * is the truth. When the fabric or a sleeper wakes at a time it chose, the
 * bridge records which picosecond that clock value is; any other clock
 * value is rounded to the nearest picosecond, which is exact while the
 * double's spacing stays below 1 ps, i.e. for the first 2^13 s (8192 s) of
 * simulated time. Later on, the record still gives the exact picosecond to
 * the actors the fabric wakes, but an actor that SimGrid wakes by itself
 * (e.g. after a computation) sees its time rounded to the double's spacing.
 */
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/semaphore.h>

#include "bridge/bridge_int.h"
#include "ibfsim/sim.h"

/* Picoseconds in one second, as a double for SimGrid's clock. */
#define SYNC_PS_PER_S 1e12

/* Binary min-heap on (time, seq), as the event queue orders events. */
static int sync_less(const struct brg_entry *a, const struct brg_entry *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void sync_heap_push(struct brg_heap *h, struct brg_entry e)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		struct brg_entry *v = realloc(h->v, cap * sizeof(*v));

		/* Out of memory in the middle of a simulation: nothing to
		 * report to, and continuing would lose a wake-up. */
		if (!v)
			abort();
		h->v = v;
		h->cap = cap;
	}
	size_t i = h->n++;

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!sync_less(&e, &h->v[p]))
			break;
		h->v[i] = h->v[p];
		i = p;
	}
	h->v[i] = e;
}

static void sync_heap_pop(struct brg_heap *h)
{
	struct brg_entry last = h->v[--h->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && sync_less(&h->v[c + 1], &h->v[c]))
			c++;
		if (!sync_less(&h->v[c], &last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n > 0)
		h->v[i] = last;
}

ibfs_time_t ibfs__bridge_clock_ps(struct ibfs_bridge *b)
{
	double c = simgrid_get_clock();

	if (c == b->map_clock)
		return b->map_ps;
	return (ibfs_time_t)(c * SYNC_PS_PER_S + 0.5);
}

void ibfs__bridge_clock_set(struct ibfs_bridge *b, ibfs_time_t t)
{
	b->map_clock = simgrid_get_clock();
	b->map_ps = t;
}

/* Wake time of the earliest sleeper; drops entries of woken actors. */
static ibfs_time_t sync_sleeper_min(struct ibfs_bridge *b)
{
	struct brg_heap *h = &b->sleepers;

	while (h->n > 0) {
		struct brg_entry *e = &h->v[0];

		if (e->w->state == BRG_SLEEPING && e->w->sleep_gen == e->gen)
			return e->time;
		sync_heap_pop(h);
	}
	return IBFS_TIME_NEVER;
}

static ibfs_time_t sync_delivery_min(const struct ibfs_bridge *b)
{
	return b->deliveries.n ? b->deliveries.v[0].time : IBFS_TIME_NEVER;
}

static ibfs_time_t sync_min(ibfs_time_t a, ibfs_time_t b)
{
	return a < b ? a : b;
}

/* The latest time up to which the fabric may run events (inclusive). */
static ibfs_time_t sync_horizon(struct ibfs_bridge *b, ibfs_time_t now)
{
	ibfs_time_t h = sync_min(sync_delivery_min(b), sync_sleeper_min(b));

	return b->running ? sync_min(h, now) : h;
}

/*
 * When the fabric next has something to do: a delivery, or its next event
 * once that event is within the horizon. With an application running, the
 * horizon follows the clock and reaches the next event at its time.
 */
static ibfs_time_t sync_need(struct ibfs_bridge *b)
{
	ibfs_time_t d = sync_delivery_min(b);
	ibfs_time_t e = ibfs__eq_next_time(b->eq);

	if (b->running || e <= sync_min(d, sync_sleeper_min(b)))
		return sync_min(d, e);
	return d;
}

void ibfs__bridge_notify(struct ibfs_bridge *b)
{
	if (!b->fabric_sleeping || b->rung)
		return;
	ibfs_time_t need = sync_need(b);

	/* Ring also when no one is left to act: the fabric reports the
	 * deadlock before SimGrid would. */
	if (need >= b->sleep_until &&
	    (need != IBFS_TIME_NEVER || b->running || !b->live ||
	     sync_sleeper_min(b) != IBFS_TIME_NEVER))
		return;
	b->rung = 1;
	b->st.rings++;
	sg_sem_release(b->doorbell);
}

void ibfs__bridge_block(struct ibfs_waiter *w, enum brg_state s)
{
	if (w->state == BRG_RUNNING)
		w->b->running--;
	w->state = s;
}

void ibfs__bridge_unblock(struct ibfs_waiter *w)
{
	w->state = BRG_RUNNING;
	w->b->running++;
	sg_sem_release(w->sem);
}

/* Delivers the earliest pending wake (due now). */
static void sync_deliver(struct ibfs_bridge *b)
{
	struct ibfs_waiter *w = b->deliveries.v[0].w;

	sync_heap_pop(&b->deliveries);
	b->st.deliveries++;
	if (w->state == BRG_WAITING) {
		b->st.yields++;
		ibfs__bridge_unblock(w);
	} else if (w->state != BRG_DONE) {
		w->tokens++;
	}
}

/* Ends every application actor still alive. */
static void sync_kill_all(struct ibfs_bridge *b)
{
	for (size_t i = 0; i < b->nactors; i++) {
		struct ibfs_waiter *w = b->actors[i];

		if (w->state == BRG_DONE)
			continue;
		w->state = BRG_DONE;
		b->live--;
		sg_actor_kill(w->actor);
	}
}

/*
 * Every application left alive waits for something no one can give: end
 * the run instead of letting SimGrid report its own deadlock.
 */
static void sync_deadlock(struct ibfs_bridge *b, ibfs_time_t now)
{
	size_t n = b->live;

	b->deadlock = 1;
	ibfs__diag(b->diag, NULL, 0,
		   "deadlock at %llu ps: %zu application actor(s) wait for a "
		   "completion or an out-of-band key that never comes",
		   (unsigned long long)now, n);
	sync_kill_all(b);
}

void ibfs__bridge_stop(struct ibfs_bridge *b)
{
	b->stop = 1;
	/* No later event of the run in progress may run. */
	ibfs__eq_limit(b->eq, b->eq->now);
}

void ibfs__bridge_on_done(struct ibfs_bridge *b, void (*fn)(void *ctx),
			  void *ctx)
{
	b->on_done = fn;
	b->on_done_ctx = ctx;
}

void ibfs__bridge_watch(struct ibfs_bridge *b, const int *flag)
{
	b->watch = flag;
}

void ibfs__bridge_fabric_main(int argc, char **argv)
{
	struct ibfs_bridge *b = ibfs__bridge_the;
	struct ibfs_eq *eq = b->eq;

	/* SimGrid ends the run when the last application actor ends. */
	sg_actor_daemonize(sg_actor_self());
	for (;;) {
		ibfs_time_t now = ibfs__bridge_clock_ps(b);

		/* Out of memory, the fabric runs no more (eq.nomem). */
		if (b->stop || (b->watch && *b->watch) || eq->nomem) {
			b->stopped = 1;
			sync_kill_all(b);
			break;
		}

		if (sync_delivery_min(b) <= now) {
			sync_deliver(b);
			continue;
		}
		ibfs_time_t h = sync_horizon(b, now);
		ibfs_time_t e = ibfs__eq_next_time(eq);

		if (e != IBFS_TIME_NEVER && e <= h) {
			b->st.events += ibfs__eq_run(eq, h);
			continue;
		}
		ibfs_time_t need = sync_need(b);

		if (need == IBFS_TIME_NEVER && !b->running && b->live &&
		    sync_sleeper_min(b) == IBFS_TIME_NEVER) {
			sync_deadlock(b, now);
			break;
		}
		b->fabric_sleeping = 1;
		b->rung = 0;
		b->sleep_until = need;
		b->st.sleeps++;
		b->st.yields++;
		int timed_out = 0;

		if (need == IBFS_TIME_NEVER) {
			sg_sem_acquire(b->doorbell);
		} else {
			/* An absolute target keeps rounding from adding up. */
			double dt = (double)need / SYNC_PS_PER_S -
				    simgrid_get_clock();

			timed_out = sg_sem_acquire_timeout(b->doorbell,
							   dt > 0 ? dt : 0);
		}
		b->fabric_sleeping = 0;
		if (timed_out)
			ibfs__bridge_clock_set(b, need);
	}
	b->fabric_done = 1;
}

/* The execution interface of src/fabric/exec.h. */

static void sync_enter(void *ctx)
{
	struct ibfs_bridge *b = ctx;
	struct ibfs_eq *eq = b->eq;
	ibfs_time_t now = ibfs__bridge_clock_ps(b);

	if (eq->now > now) {
		/* The fabric ran past an application: a bridge bug that the
		 * tests count and require to be zero. */
		b->st.early_entries++;
		return;
	}
	if (ibfs__eq_next_time(eq) < now) {
		/* Events left in the application's past (also a bug): run
		 * them rather than let time go backwards. */
		uint64_t n = ibfs__eq_run(eq, now - 1);

		b->st.late_events += n;
		b->st.events += n;
	}
	eq->now = now;
}

static void sync_leave(void *ctx)
{
	ibfs__bridge_notify(ctx);
}

static struct ibfs_waiter *sync_waiter_get(void *ctx)
{
	return ibfs__bridge_self();
}

static void sync_wait(void *ctx, struct ibfs_waiter *w)
{
	struct ibfs_bridge *b = ctx;

	/* Only the waiter's own actor may block on it. */
	if (!w || w != ibfs__bridge_self())
		return;
	if (w->tokens) {
		w->tokens--;
		return;
	}
	ibfs__bridge_block(w, BRG_WAITING);
	ibfs__bridge_notify(b);
	sg_sem_acquire(w->sem);
}

static void sync_wake_at(void *ctx, struct ibfs_waiter *w, ibfs_time_t t)
{
	struct ibfs_bridge *b = ctx;

	if (t < b->eq->now)
		t = b->eq->now;
	sync_heap_push(&b->deliveries, (struct brg_entry){
		.time = t, .seq = b->next_seq++, .w = w });
	ibfs__eq_limit(b->eq, t);
}

static ibfs_time_t sync_now(void *ctx)
{
	return ibfs__bridge_clock_ps(ctx);
}

static const struct ibfs_exec_ops sync_ops = {
	.enter = sync_enter,
	.leave = sync_leave,
	.waiter_get = sync_waiter_get,
	.wait = sync_wait,
	.wake_at = sync_wake_at,
	.now = sync_now,
};

struct ibfs_exec ibfs__bridge_exec(struct ibfs_bridge *b)
{
	return (struct ibfs_exec){ .ops = &sync_ops, .ctx = b };
}

/* The public time functions of include/ibfsim/sim.h. */

ibfs_time_ps ibfs_now(void)
{
	struct ibfs_bridge *b = ibfs__bridge_the;

	return b ? ibfs__bridge_clock_ps(b) : 0;
}

int ibfs_sleep(ibfs_time_ps ps)
{
	struct ibfs_waiter *w = ibfs__bridge_self();

	if (!w)
		return -1;
	if (ps == 0)
		return 0;
	struct ibfs_bridge *b = w->b;
	ibfs_time_t now = ibfs__bridge_clock_ps(b);

	if (ps >= IBFS_TIME_NEVER - now)
		return -1;
	ibfs_time_t until = now + ps;

	w->wake_time = until;
	w->sleep_gen++;
	sync_heap_push(&b->sleepers, (struct brg_entry){
		.time = until, .seq = b->next_seq++, .w = w,
		.gen = w->sleep_gen });
	ibfs__bridge_block(w, BRG_SLEEPING);
	ibfs__bridge_notify(b);
	sg_actor_sleep_until((double)until / SYNC_PS_PER_S);
	w->state = BRG_RUNNING;
	b->running++;
	ibfs__bridge_clock_set(b, until);
	return 0;
}
