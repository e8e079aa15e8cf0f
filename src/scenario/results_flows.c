/* SPDX-License-Identifier: MIT */
/*
 * Flow completion times of <pattern kind="flows"> (docs/results.md), as
 * the datacenter transport literature reports them (DCQCN, HPCC, IRN).
 * A flow's FCT runs from its arrival (the time its WRITE is posted) to
 * the completion of its last byte at the sender (the ACK of its last
 * packet); its slowdown is FCT / ideal FCT, the time the same WRITE takes
 * alone on the idle fabric (fct_ideal.c), so 1 is the least. A flow has
 * started when it arrived before the run ended, finished when its WRITE
 * completed successfully; the others that started are unfinished (cut by
 * a stop time, or failed), and are listed, not dropped. Reported: those
 * counts, and the slowdown's p50, p95 and p99 (nearest rank) over the
 * finished flows, overall and by size in the literature's buckets (under
 * 100 KB, 100 KB to 1 MB, 1 to 10 MB, 10 MB and more; KB = 1,000 bytes):
 * in the text summary, the JSON's "fct" and fct.csv, a line a flow that
 * started (by sender in topology order, then by arrival; an unfinished
 * flow's FCT and slowdown left empty).
 */
#include <stdlib.h>

#include "scenario/results_int.h"

#define FCT_BUCKETS 4
/* The buckets' lower bounds in bytes; the last has no top. */
static const uint64_t fct_lo[FCT_BUCKETS] = {0, 100000, 1000000, 10000000};
static const char *const fct_name[FCT_BUCKETS] = {"<100KB", "100KB-1MB",
						  "1MB-10MB", ">10MB"};

/* Slowdown percentiles of a set of finished flows. */
struct fct_pcts {
	size_t n;
	double p50, p95, p99;
};

struct fct_stats {
	size_t started, finished, unfinished;
	struct fct_pcts all, by[FCT_BUCKETS];
};

int ibfs__results_has_fct(const struct ibfs_results *r)
{
	/* The ideal FCT is in closed form for the verbs' framing only
	 * (fct_ideal.c): under tcp the flows are messages, without it. */
	if (r->sc->model == IBFS_MODEL_TCP)
		return 0;
	for (size_t i = 0; i < r->sc->npats; i++)
		if (r->sc->pats[i].kind == IBFS_PAT_FLOWS)
			return 1;
	return 0;
}

static int fct_started(const struct ibfs_results *r,
		       const struct ibfs_fct_flow *f)
{
	const struct ibfs_msg_record *m = &r->msgs[f->msg];

	return m->status >= 0 || r->base + f->arrival < r->sim_time;
}

static int fct_finished(const struct ibfs_results *r,
			const struct ibfs_fct_flow *f)
{
	return r->msgs[f->msg].status == 0;
}

static ibfs_time_t fct_of(const struct ibfs_results *r,
			  const struct ibfs_fct_flow *f)
{
	return r->msgs[f->msg].done - (r->base + f->arrival);
}

static int fct_bucket(uint64_t bytes)
{
	int b = 0;

	while (b + 1 < FCT_BUCKETS && bytes >= fct_lo[b + 1])
		b++;
	return b;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest rank, as the latencies' (results_stats.c). */
static double fct_rank(const double *v, size_t n, unsigned pct)
{
	size_t rank = (n * pct + 99) / 100;

	return v[rank ? rank - 1 : 0];
}

static void fct_fill(struct fct_pcts *p, double *v, size_t n)
{
	p->n = n;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	p->p50 = fct_rank(v, n, 50);
	p->p95 = fct_rank(v, n, 95);
	p->p99 = fct_rank(v, n, 99);
}

/* The slowdown of each flow (0 for the unfinished), and the statistics. */
static double *fct_compute(const struct ibfs_results *r, struct fct_stats *s)
{
	size_t n = r->nfct ? r->nfct : 1;
	double *sd = calloc(n, sizeof(*sd));
	double *v = calloc(n, sizeof(*v));
	size_t nv = 0;

	*s = (struct fct_stats){0};
	if (!sd || !v) {
		free(sd);
		free(v);
		return NULL;
	}
	for (size_t i = 0; i < r->nfct; i++) {
		const struct ibfs_fct_flow *f = &r->fct[i];
		const struct ibfs_msg_record *m = &r->msgs[f->msg];

		s->started += (size_t)fct_started(r, f);
		if (!fct_finished(r, f))
			continue;
		s->finished++;
		ibfs_time_t ideal = ibfs__fct_ideal(r, m->src, m->dst,
						    m->bytes);
		sd[i] = ideal ? (double)fct_of(r, f) / (double)ideal : 0.0;
		v[nv++] = sd[i];
	}
	s->unfinished = s->started - s->finished;
	fct_fill(&s->all, v, nv);
	for (int b = 0; b < FCT_BUCKETS; b++) {
		nv = 0;
		for (size_t i = 0; i < r->nfct; i++)
			if (fct_finished(r, &r->fct[i]) &&
			    fct_bucket(r->msgs[r->fct[i].msg].bytes) == b)
				v[nv++] = sd[i];
		fct_fill(&s->by[b], v, nv);
	}
	free(v);
	return sd;
}

size_t ibfs__results_fct_slowdown(const struct ibfs_results *r, double *p50,
				  double *p99)
{
	struct fct_stats s;
	double *sd = ibfs__results_has_fct(r) ? fct_compute(r, &s) : NULL;

	free(sd);
	if (!sd || !s.all.n)
		return 0;
	*p50 = s.all.p50;
	*p99 = s.all.p99;
	return s.all.n;
}

static void print_row(FILE *out, const char *name, const struct fct_pcts *p)
{
	if (p->n)
		fprintf(out, "  %-10s %8zu %9.3f %9.3f %9.3f\n", name, p->n,
			p->p50, p->p95, p->p99);
	else
		fprintf(out, "  %-10s %8zu %9s %9s %9s\n", name, p->n, "-",
			"-", "-");
}

void ibfs__results_print_fct(const struct ibfs_results *r, FILE *out)
{
	struct fct_stats s;

	if (!ibfs__results_has_fct(r))
		return;
	free(fct_compute(r, &s));
	fprintf(out, "flows: %zu started, %zu finished, %zu unfinished\n",
		s.started, s.finished, s.unfinished);
	fprintf(out, "  FCT slowdown  flows       p50       p95       p99\n");
	print_row(out, "all", &s.all);
	for (int b = 0; b < FCT_BUCKETS; b++)
		print_row(out, fct_name[b], &s.by[b]);
	fputs("  each flow: fct.csv (--csv DIR); \"fct\" (--json FILE)\n",
	      out);
}

static void json_pcts(FILE *o, const struct fct_pcts *p)
{
	if (p->n)
		fprintf(o, "\"p50\": %.6f, \"p95\": %.6f, \"p99\": %.6f",
			p->p50, p->p95, p->p99);
	else
		fputs("\"p50\": null, \"p95\": null, \"p99\": null", o);
}

void ibfs__results_json_fct(const struct ibfs_results *r, FILE *o)
{
	struct fct_stats s;

	if (!ibfs__results_has_fct(r))
		return;
	free(fct_compute(r, &s));
	fprintf(o, "  \"fct\": {\n    \"flows\": {\"started\": %zu, "
		"\"finished\": %zu, \"unfinished\": %zu},\n"
		"    \"fct_slowdown\": {", s.started, s.finished, s.unfinished);
	json_pcts(o, &s.all);
	fputs(", \"by_size\": [", o);
	for (int b = 0; b < FCT_BUCKETS; b++) {
		fprintf(o, "%s\n      {\"bucket\": \"%s\", "
			"\"min_bytes\": %llu, \"max_bytes\": ",
			b ? "," : "", fct_name[b],
			(unsigned long long)fct_lo[b]);
		if (b + 1 < FCT_BUCKETS)
			fprintf(o, "%llu", (unsigned long long)fct_lo[b + 1]);
		else
			fputs("null", o);
		fprintf(o, ", \"flows\": %zu, ", s.by[b].n);
		json_pcts(o, &s.by[b]);
		fputc('}', o);
	}
	fputs("\n    ]}\n  },\n", o);
}

/* Picoseconds as nanoseconds, exact (three decimals). */
static void csv_ns(FILE *o, ibfs_time_t ps)
{
	fprintf(o, "%llu.%03llu", (unsigned long long)(ps / 1000),
		(unsigned long long)(ps % 1000));
}

void ibfs__results_csv_fct(const struct ibfs_results *r, FILE *o)
{
	struct fct_stats s;
	double *sd = fct_compute(r, &s);

	fputs("src,dst,size,start_ns,fct_ns,ideal_ns,slowdown\n", o);
	for (size_t i = 0; sd && i < r->nfct; i++) {
		const struct ibfs_fct_flow *f = &r->fct[i];
		const struct ibfs_msg_record *m = &r->msgs[f->msg];

		if (!fct_started(r, f))
			continue;
		ibfs__results_csv_id(o, res_id(r, m->src), 0);
		ibfs__results_csv_id(o, res_id(r, m->dst), 0);
		fprintf(o, "%llu,", (unsigned long long)m->bytes);
		csv_ns(o, f->arrival);
		fputc(',', o);
		if (fct_finished(r, f))
			csv_ns(o, fct_of(r, f));
		fputc(',', o);
		csv_ns(o, ibfs__fct_ideal(r, m->src, m->dst, m->bytes));
		if (fct_finished(r, f))
			fprintf(o, ",%.6f\n", sd[i]);
		else
			fputs(",\n", o);
	}
	free(sd);
}
