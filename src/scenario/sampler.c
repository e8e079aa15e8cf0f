/* SPDX-License-Identifier: MIT */
/*
 * The sampler (see sampler.h). A sample at time t writes, for each linked
 * port in the fabric's order, one row of samples_ports.csv: the bytes of
 * each class (an Ethernet switch's egress queue of each priority; an
 * InfiniBand port's input buffer of each VL 0-7, 64-byte blocks as bytes;
 * an RNIC's port 0) and, per priority, 1 while PFC pauses the port's
 * sender at t; and one row of samples_qps.csv per QP of each HCA. To the
 * timeline go counters that changed since the last sample (a counter
 * holds its value until the next).
 *
 * The rows of samples past the run's end (the fabric may run on after the
 * last completion) are cut at the end: each sample's offset in the files
 * is kept, 16 bytes a sample against the rows' hundreds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/partfile.h"
#include "fabric/pfc.h"
#include "hca/qp_rate.h"
#include "scenario/results_int.h"
#include "scenario/sampler.h"
#include "switch/eth_switch.h"

enum { SMP_CLASSES = 8, SMP_VALS = 2 * SMP_CLASSES };
enum { SMP_PORTS, SMP_QPS, SMP_FILES };

static const char *const smp_names[SMP_FILES] = {"samples_ports.csv",
						 "samples_qps.csv"};
static const char *const smp_keys[SMP_CLASSES] = {"0", "1", "2", "3",
						  "4", "5", "6", "7"};

struct smp_port {
	int node, port;
	int traced;                /* 1 once its counters are written */
	uint64_t last[SMP_VALS];   /* the values last written to the trace */
};

/* Per node: the rates last written to the trace, by QP index. */
struct smp_rates {
	uint64_t *bps;
	uint32_t n;
};

struct ibfs_sampler {
	struct ibfs_fabric *f;
	ibfs_time_t interval, next;
	uint64_t first;            /* the first sample's index on the grid */
	uint64_t taken;
	struct ibfs_event *ev;     /* the next sample (quiet), or NULL */
	struct ibfs_event *wake;   /* the revival after idling, or NULL */
	int idle;                  /* waiting for a packet to start */
	struct ibfs_observer obs;
	int files;
	struct ibfs_partfile pf[SMP_FILES];
	uint64_t *off;             /* per sample, the files' offsets */
	size_t off_cap;
	struct ibfs_trace *trace;
	struct smp_port *ports;
	size_t nports;
	struct smp_rates *rates;   /* [nnodes] */
	int err;
};

static void smp_time(FILE *o, ibfs_time_t t)
{
	fprintf(o, "%llu.%03llu,", (unsigned long long)(t / 1000),
		(unsigned long long)(t % 1000));
}

/* The port's bytes per class and pause bits at t (see the top). */
static void smp_port_state(const struct ibfs_sampler *s,
			   const struct smp_port *sp, ibfs_time_t t,
			   uint64_t v[SMP_VALS])
{
	const struct ibfs_port *port = &s->f->ports[sp->node][sp->port];
	const struct ibfs_eth_switch *sw =
		ibfs__eth_switch_of(s->f->devices[sp->node]);
	const struct ibfs_pfc_port *pp = ibfs__pfc_of(port);

	for (int c = 0; c < SMP_CLASSES; c++) {
		if (sw)
			v[c] = ibfs__eth_switch_queue(sw, sp->port, c);
		else if (!pp)
			v[c] = (uint64_t)port->vls[c].buf_used *
			       IBFS_CREDIT_BLOCK;
		else
			v[c] = 0;
		v[SMP_CLASSES + c] = pp && (pp->paused >> c & 1) &&
				     pp->until[c] > t;
	}
}

static void smp_port_trace(struct ibfs_sampler *s, struct smp_port *sp,
			   ibfs_time_t t, const uint64_t v[SMP_VALS])
{
	char name[48];
	int eth = ibfs__pfc_of(&s->f->ports[sp->node][sp->port]) != NULL;

	if (!s->trace || (sp->traced && !memcmp(sp->last, v, sizeof(sp->last))))
		return;
	snprintf(name, sizeof(name), "port %d %s", sp->port,
		 eth ? "queue bytes" : "buffer bytes");
	ibfs__trace_counter(s->trace, sp->node, name, t, smp_keys, v,
			    SMP_CLASSES);
	if (eth) {
		snprintf(name, sizeof(name), "port %d paused", sp->port);
		ibfs__trace_counter(s->trace, sp->node, name, t, smp_keys,
				    v + SMP_CLASSES, SMP_CLASSES);
	}
	memcpy(sp->last, v, sizeof(sp->last));
	sp->traced = 1;
}

static void smp_port_row(struct ibfs_sampler *s, struct smp_port *sp,
			 ibfs_time_t t)
{
	uint64_t v[SMP_VALS];
	FILE *o = s->pf[SMP_PORTS].out;

	smp_port_state(s, sp, t, v);
	smp_port_trace(s, sp, t, v);
	if (!s->files)
		return;
	smp_time(o, t);
	ibfs__results_csv_id(o, s->f->topo->nodes[sp->node].id, 0);
	fprintf(o, "%d", sp->port);
	for (int i = 0; i < SMP_VALS; i++)
		fprintf(o, ",%llu", (unsigned long long)v[i]);
	fputc('\n', o);
}

struct smp_qp_ctx {
	struct ibfs_sampler *s;
	int node;
	uint32_t i;
	ibfs_time_t t;
};

/* The rate of QP c->i of the node was bps at c->t: written if changed. */
static void smp_qp_trace(struct smp_qp_ctx *c, uint32_t qpn, uint64_t bps)
{
	struct smp_rates *r = &c->s->rates[c->node];
	static const char *const key[1] = {"bps"};
	char name[32];

	if (c->i >= r->n) {
		uint32_t n = c->i + 16;
		uint64_t *b = realloc(r->bps, n * sizeof(*b));

		if (!b) {
			c->s->err = ENOMEM;
			return;
		}
		for (uint32_t k = r->n; k < n; k++)
			b[k] = UINT64_MAX;
		r->bps = b;
		r->n = n;
	}
	if (r->bps[c->i] == bps)
		return;
	r->bps[c->i] = bps;
	snprintf(name, sizeof(name), "QP %u rate", (unsigned)qpn);
	ibfs__trace_counter(c->s->trace, c->node, name, c->t, key, &bps, 1);
}

static void smp_qp_row(void *ctx, uint32_t qpn, int port, uint64_t bps)
{
	struct smp_qp_ctx *c = ctx;
	struct ibfs_sampler *s = c->s;
	FILE *o = s->pf[SMP_QPS].out;

	if (s->trace)
		smp_qp_trace(c, qpn, bps);
	c->i++;
	if (!s->files)
		return;
	smp_time(o, c->t);
	ibfs__results_csv_id(o, s->f->topo->nodes[c->node].id, 0);
	fprintf(o, "%u,%d,%llu\n", (unsigned)qpn, port,
		(unsigned long long)bps);
}

/* Notes where sample number `taken` starts in each file. */
static void smp_mark(struct ibfs_sampler *s)
{
	if (!s->files)
		return;
	if (2 * (s->taken + 1) > s->off_cap) {
		size_t cap = s->off_cap ? 2 * s->off_cap : 1024;
		uint64_t *o = realloc(s->off, cap * sizeof(*o));

		if (!o) {
			s->err = ENOMEM;
			return;
		}
		s->off = o;
		s->off_cap = cap;
	}
	for (int k = 0; k < SMP_FILES; k++)
		s->off[2 * s->taken + (size_t)k] =
			(uint64_t)ftell(s->pf[k].out);
}

/* One sample of the state at t. */
static void smp_take(struct ibfs_sampler *s, ibfs_time_t t)
{
	const struct ibfs_topology *topo = s->f->topo;

	smp_mark(s);
	for (size_t i = 0; i < s->nports; i++)
		smp_port_row(s, &s->ports[i], t);
	for (size_t n = 0; n < topo->nnodes; n++) {
		struct ibfs_hca *h = ibfs__hca_of_node(s->f, (int)n);
		struct smp_qp_ctx c = {.s = s, .node = (int)n, .t = t};

		if (h)
			ibfs__hca_qp_rates(h, smp_qp_row, &c);
	}
	s->taken++;
}

static void smp_ev(void *obj, uint64_t arg);

static void smp_arm(struct ibfs_sampler *s)
{
	s->ev = ibfs__eq_schedule(&s->f->eq, s->next, smp_ev, s, 0);
	if (s->ev)
		s->f->quiet_events++;
	else
		s->err = ENOMEM;
}

static void smp_unobserve(struct ibfs_sampler *s)
{
	for (struct ibfs_observer **o = &s->f->observers; *o;
	     o = &(*o)->next)
		if (*o == &s->obs) {
			*o = s->obs.next;
			break;
		}
	s->idle = 0;
}

/* The first packet after idling: the samples missed, all alike, then
 * the grid again (outside the observers' loop, which this changes). */
static void smp_wake_ev(void *obj, uint64_t arg)
{
	struct ibfs_sampler *s = obj;
	ibfs_time_t now = s->f->eq.now;

	(void)arg;
	s->wake = NULL;
	smp_unobserve(s);
	for (; s->next < now; s->next += s->interval)
		smp_take(s, s->next);
	smp_arm(s);
}

static void smp_on_tx(void *ctx, const struct ibfs_port *out,
		      const struct ibfs_packet *p, ibfs_time_t start)
{
	struct ibfs_sampler *s = ctx;

	(void)out;
	(void)p;
	(void)start;
	if (s->wake)
		return;
	s->wake = ibfs__eq_schedule(&s->f->eq, s->f->eq.now, smp_wake_ev, s,
				    0);
	if (!s->wake)
		s->err = ENOMEM;
}

static void smp_ev(void *obj, uint64_t arg)
{
	struct ibfs_sampler *s = obj;

	(void)arg;
	s->ev = NULL;
	s->f->quiet_events--;
	smp_take(s, s->next);
	s->next += s->interval;
	if (ibfs__fabric_busy(s->f)) {
		smp_arm(s);
		return;
	}
	s->idle = 1;
	s->obs = (struct ibfs_observer){.on_tx = smp_on_tx, .ctx = s};
	ibfs__fabric_observe(s->f, &s->obs);
}

static int smp_ports(struct ibfs_sampler *s)
{
	const struct ibfs_topology *t = s->f->topo;
	size_t n = 0;

	for (size_t i = 0; i < t->nnodes; i++)
		for (int p = 1; p <= t->nodes[i].nports; p++)
			n += t->nodes[i].ports[p].peer_node >= 0;
	s->ports = calloc(n ? n : 1, sizeof(*s->ports));
	s->rates = calloc(t->nnodes ? t->nnodes : 1, sizeof(*s->rates));
	if (!s->ports || !s->rates)
		return -1;
	for (size_t i = 0; i < t->nnodes; i++)
		for (int p = 1; p <= t->nodes[i].nports; p++)
			if (t->nodes[i].ports[p].peer_node >= 0)
				s->ports[s->nports++] = (struct smp_port){
					.node = (int)i, .port = p};
	return 0;
}

static int smp_open(struct ibfs_sampler *s, const char *dir)
{
	static const char *const head[SMP_FILES] = {
		"time_ns,node,port,bytes_0,bytes_1,bytes_2,bytes_3,bytes_4,"
		"bytes_5,bytes_6,bytes_7,paused_0,paused_1,paused_2,paused_3,"
		"paused_4,paused_5,paused_6,paused_7\n",
		"time_ns,node,qp,port,rate_bps\n"};
	char path[4096];

	for (int k = 0; k < SMP_FILES; k++) {
		snprintf(path, sizeof(path), "%s/%s", dir, smp_names[k]);
		if (ibfs__partfile_open(&s->pf[k], path) < 0) {
			for (int j = 0; j < k; j++)
				ibfs__partfile_abort(&s->pf[j]);
			return -1;
		}
		fputs(head[k], s->pf[k].out);
	}
	s->files = 1;
	return 0;
}

struct ibfs_sampler *ibfs__sampler_start(struct ibfs_fabric *f,
					 ibfs_time_t interval, const char *dir,
					 struct ibfs_trace *trace,
					 struct ibfs_diag *d)
{
	struct ibfs_sampler *s = calloc(1, sizeof(*s));

	if (s)
		s->f = f;
	if (!s || smp_ports(s) < 0) {
		ibfs__sampler_free(s);
		ibfs__diag(d, NULL, 0, "out of memory");
		return NULL;
	}
	s->interval = interval;
	s->trace = trace;
	s->first = f->eq.now / interval + 1;
	s->next = s->first * interval;
	if (dir && smp_open(s, dir) < 0) {
		ibfs__diag(d, dir, 0, "cannot write %s/%s: %s", dir,
			   smp_names[0], strerror(errno));
		ibfs__sampler_free(s);
		return NULL;
	}
	smp_arm(s);
	return s;
}

/* Stops the sampling: no event pending, no observer. */
static void smp_stop(struct ibfs_sampler *s)
{
	if (s->ev) {
		ibfs__eq_cancel(&s->f->eq, s->ev);
		s->ev = NULL;
		s->f->quiet_events--;
	}
	if (s->wake) {
		ibfs__eq_cancel(&s->f->eq, s->wake);
		s->wake = NULL;
	}
	if (s->idle)
		smp_unobserve(s);
}

/* Drops the samples after `keep` from the files. */
static void smp_cut(struct ibfs_sampler *s, uint64_t keep)
{
	for (int k = 0; s->files && k < SMP_FILES; k++) {
		FILE *o = s->pf[k].out;
		off_t at = (off_t)s->off[2 * keep + (size_t)k];

		if (fflush(o) || ftruncate(fileno(o), at) ||
		    fseeko(o, at, SEEK_SET))
			s->err = errno ? errno : EIO;
	}
	s->taken = keep;
	s->next = (s->first + keep) * s->interval;
}

int ibfs__sampler_finish(struct ibfs_sampler *s, ibfs_time_t end)
{
	uint64_t last = end / s->interval;
	uint64_t keep = last >= s->first ? last - s->first + 1 : 0;
	int rc = 0;

	smp_stop(s);
	if (s->taken > keep)
		smp_cut(s, keep);
	for (; s->next <= end; s->next += s->interval)
		smp_take(s, s->next);
	for (int k = 0; s->files && k < SMP_FILES; k++) {
		int err = s->err ? s->err : ferror(s->pf[k].out) ? EIO : 0;

		if (ibfs__partfile_commit(&s->pf[k], err) < 0 && !rc) {
			rc = -1;
			s->err = errno;
		}
	}
	s->files = 0;
	if (rc < 0)
		errno = s->err;
	return rc;
}

uint64_t ibfs__sampler_count(const struct ibfs_sampler *s)
{
	return s ? s->taken : 0;
}

void ibfs__sampler_free(struct ibfs_sampler *s)
{
	if (!s)
		return;
	if (s->f)
		smp_stop(s);
	for (int k = 0; s->files && k < SMP_FILES; k++)
		ibfs__partfile_abort(&s->pf[k]);
	for (size_t n = 0; s->rates && n < s->f->topo->nnodes; n++)
		free(s->rates[n].bps);
	free(s->rates);
	free(s->ports);
	free(s->off);
	free(s);
}
