/* SPDX-License-Identifier: MIT */
/*
 * Ethernet ECMP tables at scale: the generated 3-level fat tree of
 * 36-port switches (11,664 HCAs, 1,620 switches) given shortest-path next
 * hops at every switch toward every host (switch/eth_routes.c), timed;
 * then one shift permutation (host h sends to h + N/2) walked through the
 * tables, its busiest directed link, and the peak resident memory.
 * `bench_eth_routes K LEVELS` takes another fat tree.
 *
 * The tables hold 272,109,456 next hops there: each of the 648 leaves 1
 * toward its 18 hosts and 18 toward the other 11,646; each of the 648
 * middle switches 1 toward the 324 hosts of its pod and 18 toward the
 * other 11,340; each of the 324 cores 1 toward every host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "fabric/topo_gen.h"
#include "switch/eth_routes.h"

static double clock_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wall time, and the process's CPU time: the machine is shared. */
static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static double cpu(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* Host h sends to h + n/2 (mod n), QP number h: returns the busiest
 * directed link's flow count, or -1. */
static long shift_load(const struct ibfs_topology *t,
		       const struct ibfs_eth_routes *r, uint32_t n,
		       struct ibfs_diag *d)
{
	struct ibfs_eth_flow *f = malloc((n + 1) * sizeof(*f));

	if (!f)
		return -1;
	for (uint32_t h = 1; h <= n; h++)
		f[h - 1] = (struct ibfs_eth_flow){
			h, (h - 1 + n / 2) % n + 1, h};
	long max = ibfs__eth_flows_max_load(t, r, f, n, NULL, d);

	free(f);
	return max;
}

int main(int argc, char **argv)
{
	const char *k = argc > 1 ? argv[1] : "36";
	const char *levels = argc > 2 ? argv[2] : "3";
	struct ibfs_gen_param p[] = {{"k", k}, {"levels", levels}};
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new("bench");

	if (!t || ibfs__topo_generate(t, "fat-tree", p, 2, "", "bench", 0,
				      &d)) {
		fprintf(stderr, "bench_eth_routes: %s\n",
			t ? d.msg : "no memory");
		return 1;
	}
	uint32_t n = ibfs__eth_host_count(t);
	struct ibfs_eth_routes *r = calloc(t->nnodes, sizeof(*r));
	double t0 = now(), c0 = cpu();

	if (!r || ibfs__eth_routes_build(t, 1, r, &d)) {
		fprintf(stderr, "bench_eth_routes: %s\n",
			r ? d.msg : "no memory");
		return 1;
	}
	double t1 = now(), c1 = cpu();
	size_t entries = 0;

	for (size_t i = 0; i < t->nnodes; i++)
		if (r[i].off)
			entries += r[i].off[n + 1];
	printf("fat tree k=%s levels=%s: %zu switches, %u hosts\n", k, levels,
	       ibfs__topo_count(t, IBFS_NODE_SWITCH), n);
	printf("ECMP tables built in %.3f s (CPU %.3f s): %zu next hops\n",
	       t1 - t0, c1 - c0, entries);
	long max = shift_load(t, r, n, &d);
	double t2 = now();

	if (max < 0) {
		fprintf(stderr, "bench_eth_routes: %s\n", d.msg);
		return 1;
	}
	printf("shift by %u: busiest directed link %ld flows (walked in %.3f s)\n",
	       n / 2, max, t2 - t1);
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	printf("peak resident memory: %.1f MiB\n", (double)ru.ru_maxrss / 1024);
	ibfs__eth_routes_free(r, t->nnodes);
	free(r);
	ibfs__topo_free(t);
	return 0;
}
