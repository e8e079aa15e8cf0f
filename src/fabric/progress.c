/* SPDX-License-Identifier: MIT */
/*
 * The progress line (see progress.h). The text reads, for example:
 *   "ibfsim: 1.250 ms simulated, 3.20 M events/s, 12.5% done, ETA 0:07"
 * The event rate is measured over the interval since the previous redraw;
 * the estimate extrapolates the whole run's average pace, wall time spent
 * per simulated picosecond, to the simulated time still to go.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabric/fabric.h"
#include "fabric/progress.h"

struct progress_obs {
	struct ibfs_observer obs;
	struct ibfs_progress *p;
	struct ibfs_fabric *f;
};

static double progress_wall(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct ibfs_progress *ibfs__progress_new(FILE *err, int enabled,
					 ibfs_time_t stop_at)
{
	struct ibfs_progress *p = calloc(1, sizeof(*p));

	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	p->err = err;
	p->enabled = enabled && err;
	p->stop_at = stop_at;
	p->countdown = IBFS_PROGRESS_STRIDE;
	ibfs__progress_set_clock(p, progress_wall, NULL);
	return p;
}

void ibfs__progress_set_clock(struct ibfs_progress *p,
			      ibfs_progress_clock_fn clock, void *ctx)
{
	p->clock = clock;
	p->clock_ctx = ctx;
	p->t_start = p->t_last = clock(ctx);
}

/* Simulated time with three decimals in the largest unit below it. */
static int progress_sim(char *s, size_t n, ibfs_time_t t)
{
	static const struct {
		ibfs_time_t unit;
		const char *name;
	} u[] = {{IBFS_S, "s"}, {IBFS_MS, "ms"}, {IBFS_US, "us"},
		 {IBFS_NS, "ns"}};
	size_t i = 0;

	while (i < 3 && t < u[i].unit)
		i++;
	/* Integer parts and thousandths, so the figure is exact. */
	uint64_t whole = t / u[i].unit;
	uint64_t milli = t % u[i].unit / (u[i].unit / 1000);

	return snprintf(s, n, "%llu.%03llu %s", (unsigned long long)whole,
			(unsigned long long)milli, u[i].name);
}

static int progress_rate(char *s, size_t n, double r)
{
	if (r >= 1e6)
		return snprintf(s, n, "%.2f M events/s", r / 1e6);
	if (r >= 1e3)
		return snprintf(s, n, "%.1f k events/s", r / 1e3);
	return snprintf(s, n, "%.0f events/s", r);
}

/* Wall seconds left as "S s", "M:SS" or "H:MM:SS". */
static int progress_eta(char *s, size_t n, double left)
{
	unsigned long long sec = (unsigned long long)(left + 0.5);

	if (sec < 60)
		return snprintf(s, n, "ETA %llu s", sec);
	if (sec < 3600)
		return snprintf(s, n, "ETA %llu:%02llu", sec / 60, sec % 60);
	return snprintf(s, n, "ETA %llu:%02llu:%02llu", sec / 3600,
			sec / 60 % 60, sec % 60);
}

void ibfs__progress_poll(struct ibfs_progress *p, ibfs_time_t sim_now,
			 uint64_t events)
{
	p->countdown = IBFS_PROGRESS_STRIDE;
	if (!p->enabled)
		return;
	double now = p->clock(p->clock_ctx);
	double dt = now - p->t_last;

	if (dt < IBFS_PROGRESS_PERIOD)
		return;
	char *l = p->line;
	size_t n = sizeof(p->line);
	int k = snprintf(l, n, "ibfsim: ");

	k += progress_sim(l + k, n - (size_t)k, sim_now);
	k += snprintf(l + k, n - (size_t)k, " simulated, ");
	k += progress_rate(l + k, n - (size_t)k,
			   (double)(events - p->ev_last) / dt);
	if (p->stop_at != IBFS_TIME_NEVER && p->stop_at > 0 && sim_now > 0 &&
	    sim_now <= p->stop_at) {
		double done = (double)sim_now / (double)p->stop_at;
		double left = (now - p->t_start) *
			      (double)(p->stop_at - sim_now) / (double)sim_now;

		k += snprintf(l + k, n - (size_t)k, ", %.1f%% done, ",
			      100.0 * done);
		progress_eta(l + k, n - (size_t)k, left);
	}
	fprintf(p->err, "\r%s\033[K", l);
	fflush(p->err);
	p->drawn = 1;
	p->draws++;
	p->t_last = now;
	p->ev_last = events;
}

static void progress_on_tx(void *ctx, const struct ibfs_port *out,
			   const struct ibfs_packet *pkt, ibfs_time_t start)
{
	struct progress_obs *o = ctx;

	(void)out;
	(void)pkt;
	(void)start;
	ibfs__progress_tick(o->p, o->f->eq.now, o->f->eq.executed);
}

int ibfs__progress_observe(struct ibfs_progress *p, struct ibfs_fabric *f)
{
	if (!p || !p->enabled || p->obs)
		return 0;
	struct progress_obs *o = calloc(1, sizeof(*o));

	if (!o)
		return -1;
	o->p = p;
	o->f = f;
	o->obs = (struct ibfs_observer){.on_tx = progress_on_tx, .ctx = o};
	ibfs__fabric_observe(f, &o->obs);
	p->obs = o;
	return 0;
}

void ibfs__progress_end(struct ibfs_progress *p)
{
	if (!p)
		return;
	struct progress_obs *po = p->obs;

	if (po)
		for (struct ibfs_observer **o = &po->f->observers; *o;
		     o = &(*o)->next)
			if (*o == &po->obs) {
				*o = po->obs.next;
				break;
			}
	free(po);
	if (p->drawn) {
		fputs("\r\033[K", p->err);
		fflush(p->err);
	}
	free(p);
}

uint64_t ibfs__progress_draws(const struct ibfs_progress *p)
{
	return p->draws;
}

const char *ibfs__progress_text(const struct ibfs_progress *p)
{
	return p->line;
}
