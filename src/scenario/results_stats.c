/* SPDX-License-Identifier: MIT */
/*
 * The statistics of a run's results, as docs/results.md defines them.
 * Latency of a message is from the post of its work request to its
 * completion at the requester; percentiles are nearest-rank. Flows group
 * messages by (src, dst, op): a flow starts at its first post and ends at
 * its last completion. Throughput is bytes over that span; a link's
 * utilization (results_json.c) is the time its transmitter was busy over
 * the simulated time.
 */
#include <stdlib.h>
#include <string.h>

#include "scenario/results_int.h"

static int cmp_time(const void *a, const void *b)
{
	ibfs_time_t x = *(const ibfs_time_t *)a, y = *(const ibfs_time_t *)b;
	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted v[0..n-1], n > 0. */
static ibfs_time_t percentile(const ibfs_time_t *v, size_t n, unsigned pct)
{
	size_t rank = (n * pct + 99) / 100;
	return v[rank ? rank - 1 : 0];
}

void ibfs__latency_fill(struct ibfs_latency *out, ibfs_time_t *v, size_t n,
			double sum)
{
	out->count = n;
	if (n) {
		qsort(v, n, sizeof(*v), cmp_time);
		out->min = v[0];
		out->max = v[n - 1];
		out->p50 = percentile(v, n, 50);
		out->p99 = percentile(v, n, 99);
		out->mean = sum / (double)n;
	}
}

void ibfs__results_latency(const struct ibfs_results *r,
			   struct ibfs_latency *out)
{
	memset(out, 0, sizeof(*out));
	ibfs_time_t *v = malloc((r->nmsgs ? r->nmsgs : 1) * sizeof(*v));
	if (!v)
		return;
	size_t n = 0;
	double sum = 0;
	for (size_t i = 0; i < r->nmsgs; i++) {
		if (r->msgs[i].status) {
			if (r->msgs[i].status > 0)
				out->failed++;
			else
				out->incomplete++;
			continue;
		}
		v[n] = r->msgs[i].done - r->msgs[i].post;
		sum += (double)v[n];
		n++;
	}
	ibfs__latency_fill(out, v, n, sum);
	free(v);
}

static int cmp_flow_key(const void *a, const void *b)
{
	const struct ibfs_msg_record *x = a, *y = b;
	if (x->src != y->src)
		return x->src - y->src;
	if (x->dst != y->dst)
		return x->dst - y->dst;
	return (int)x->op - (int)y->op;
}

size_t ibfs__results_flows(const struct ibfs_results *r,
			   struct ibfs_flow **out)
{
	*out = NULL;
	if (!r->nmsgs)
		return 0;
	struct ibfs_msg_record *m = malloc(r->nmsgs * sizeof(*m));
	struct ibfs_flow *f = malloc(r->nmsgs * sizeof(*f));
	if (!m || !f) {
		free(m);
		free(f);
		return 0;
	}
	memcpy(m, r->msgs, r->nmsgs * sizeof(*m));
	qsort(m, r->nmsgs, sizeof(*m), cmp_flow_key);
	size_t n = 0;
	for (size_t i = 0; i < r->nmsgs; i++) {
		if (!n || cmp_flow_key(&m[i], &m[i - 1])) {
			f[n] = (struct ibfs_flow){m[i].src, m[i].dst, m[i].op,
						  0, m[i].post, 0, 0};
			n++;
		}
		struct ibfs_flow *cur = &f[n - 1];
		if (!m[i].status)
			cur->bytes += m[i].bytes;
		if (m[i].post < cur->start)
			cur->start = m[i].post;
		if (m[i].status < 0) {
			cur->unfinished++;
			cur->end = r->sim_time;
		} else if (m[i].done > cur->end && !cur->unfinished) {
			cur->end = m[i].done;
		}
	}
	free(m);
	*out = f;
	return n;
}

double ibfs__results_gbps(uint64_t bytes, ibfs_time_t span)
{
	/* bits per picosecond x 1000 = Gb/s. */
	return span ? (double)bytes * 8.0 * 1000.0 / (double)span : 0.0;
}

double ibfs__results_aggregate_gbps(const struct ibfs_results *r)
{
	uint64_t bytes = 0;
	ibfs_time_t lo = IBFS_TIME_NEVER, hi = 0;
	for (size_t i = 0; i < r->nmsgs; i++) {
		if (r->msgs[i].status)
			continue;
		bytes += r->msgs[i].bytes;
		if (r->msgs[i].post < lo)
			lo = r->msgs[i].post;
		if (r->msgs[i].done > hi)
			hi = r->msgs[i].done;
	}
	return hi > lo ? ibfs__results_gbps(bytes, hi - lo) : 0.0;
}

void ibfs__results_pkey_sums(const struct ibfs_results *r, uint64_t s[3])
{
	const struct ibfs_topology *t = r->sc->topo;

	s[0] = s[1] = s[2] = 0;
	for (size_t n = 0; n < t->nnodes; n++)
		for (int p = 0; p <= t->nodes[n].nports; p++) {
			const struct ibfs_port *pt = &r->fab->ports[n][p];

			s[0] += pt->pkey_violations;
			s[1] += pt->rcv_constraint_errors;
			s[2] += pt->xmit_constraint_errors;
		}
}

uint32_t ibfs__results_port_peak(const struct ibfs_port *pt)
{
	uint32_t peak = 0;

	for (int v = 0; v < IBFS_MAX_VLS; v++)
		if (pt->vls[v].buf_top > peak)
			peak = pt->vls[v].buf_top;
	return peak;
}
