/* SPDX-License-Identifier: MIT */
/*
 * The results of collectives, with nccl-tests' figures (its
 * doc/PERFORMANCE.md): the algorithm bandwidth is the buffer's size over
 * the time of one run; the bus bandwidth scales it by what each member's
 * link must carry, so that it compares with the links' rate whatever the
 * number of members: 2(n-1)/n for allreduce, (n-1)/n for reduce-scatter,
 * allgather and alltoall, 1 for broadcast. Both in GB/s (10^9 bytes/s), as
 * nccl-tests prints them.
 */
#include <stdlib.h>

#include "scenario/results_int.h"

int ibfs__results_add_coll(struct ibfs_results *r,
			   const struct ibfs_coll_result *c)
{
	struct ibfs_coll_result *v =
		realloc(r->colls, (r->ncolls + 1) * sizeof(*v));
	if (!v)
		return -1;
	r->colls = v;
	v[r->ncolls++] = *c;
	return 0;
}

/* The time of one run, in seconds; 0 when it did not finish. */
static double coll_run_s(const struct ibfs_coll_result *c)
{
	if (c->failed || c->unfinished || c->end <= c->start || !c->count)
		return 0;
	return (double)(c->end - c->start) / (double)c->count * 1e-12;
}

double ibfs__coll_algbw(const struct ibfs_coll_result *c)
{
	double s = coll_run_s(c);
	return s > 0 ? (double)c->size / s / 1e9 : 0;
}

double ibfs__coll_busbw(const struct ibfs_coll_result *c)
{
	double n = c->members;
	switch (c->kind) {
	case IBFS_COLL_ALLREDUCE:
		return ibfs__coll_algbw(c) * 2 * (n - 1) / n;
	case IBFS_COLL_REDUCE_SCATTER:
	case IBFS_COLL_ALLGATHER:
	case IBFS_COLL_ALLTOALL:
		return ibfs__coll_algbw(c) * (n - 1) / n;
	default:
		return ibfs__coll_algbw(c);
	}
}

void ibfs__results_print_colls(const struct ibfs_results *r, FILE *out)
{
	for (size_t i = 0; i < r->ncolls; i++) {
		const struct ibfs_coll_result *c = &r->colls[i];
		fprintf(out, "collective %s (%s), %u HCAs, %llu B x %u: ",
			ibfs__sc_coll_str(c->kind), ibfs__sc_algo_str(c->algo),
			c->members, (unsigned long long)c->size, c->count);
		if (c->failed || c->unfinished) {
			fprintf(out, "%llu of %llu messages failed, %llu not "
				"finished\n", (unsigned long long)c->failed,
				(unsigned long long)c->msgs,
				(unsigned long long)c->unfinished);
			continue;
		}
		fprintf(out, "%.3f us a run, algbw %.3f GB/s, busbw %.3f "
			"GB/s\n", coll_run_s(c) * 1e6, ibfs__coll_algbw(c),
			ibfs__coll_busbw(c));
	}
}

void ibfs__results_json_colls(const struct ibfs_results *r, FILE *o)
{
	if (!r->ncolls)
		return;
	fputs("  \"collectives\": [", o);
	for (size_t i = 0; i < r->ncolls; i++) {
		const struct ibfs_coll_result *c = &r->colls[i];
		fprintf(o,
			"%s\n    {\"kind\": \"%s\", \"algorithm\": \"%s\", "
			"\"hcas\": %u, \"bytes\": %llu, \"count\": %u, "
			"\"start_ns\": %.3f, \"end_ns\": %.3f, "
			"\"messages\": %llu, \"failed\": %llu, "
			"\"unfinished\": %llu, \"algbw_gbytes\": %.6f, "
			"\"busbw_gbytes\": %.6f}",
			i ? "," : "", ibfs__sc_coll_str(c->kind),
			ibfs__sc_algo_str(c->algo), c->members,
			(unsigned long long)c->size, c->count,
			(double)c->start / 1e3, (double)c->end / 1e3,
			(unsigned long long)c->msgs,
			(unsigned long long)c->failed,
			(unsigned long long)c->unfinished, ibfs__coll_algbw(c),
			ibfs__coll_busbw(c));
	}
	fputs("\n  ],\n", o);
}

void ibfs__results_csv_colls(const struct ibfs_results *r, FILE *o)
{
	fputs("kind,algorithm,hcas,bytes,count,start_ps,end_ps,messages,"
	      "failed,unfinished,algbw_gbytes,busbw_gbytes\n", o);
	for (size_t i = 0; i < r->ncolls; i++) {
		const struct ibfs_coll_result *c = &r->colls[i];
		fprintf(o, "%s,%s,%u,%llu,%u,%llu,%llu,%llu,%llu,%llu,%.6f,"
			"%.6f\n", ibfs__sc_coll_str(c->kind),
			ibfs__sc_algo_str(c->algo), c->members,
			(unsigned long long)c->size, c->count,
			(unsigned long long)c->start,
			(unsigned long long)c->end,
			(unsigned long long)c->msgs,
			(unsigned long long)c->failed,
			(unsigned long long)c->unfinished, ibfs__coll_algbw(c),
			ibfs__coll_busbw(c));
	}
}
