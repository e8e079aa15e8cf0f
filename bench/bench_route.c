/* SPDX-License-Identifier: MIT */
/*
 * Routing at scale: a generated 3-level fat tree of 36-port
 * switches (11,664 HCAs, 1,620 switches, 13,284 LIDs) routed with ftree
 * and with minhop, timing each phase as `ibfsim route` runs it: LID
 * assignment, the engine, the route statistics (a walk of every
 * (switch, LID) pair) and the credit-loop search; then the peak resident
 * memory of the process. `bench_route K LEVELS` takes another fabric.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "fabric/topo_gen.h"
#include "subnet_manager/credit_loop.h"
#include "subnet_manager/routing.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_engine(const struct ibfs_topology *t, const char *engine)
{
	struct ibfs_diag d;
	double t0 = now();
	struct ibfs_subnet *sn = ibfs__subnet_from_topo(t, &d);
	if (!sn || ibfs__subnet_assign_lids(sn, 0, &d)) {
		fprintf(stderr, "bench_route: %s\n", d.msg);
		return 1;
	}
	double t1 = now();
	if (ibfs__routing_run(sn, engine, NULL, &d) ||
	    strcmp(sn->engine, engine)) {
		fprintf(stderr, "bench_route: %s failed: %s %s\n", engine,
			d.msg, sn->log ? sn->log : "");
		return 1;
	}
	double t2 = now();
	struct ibfs_route_stats st;
	if (ibfs__route_stats(sn, &st, NULL))
		return 1;
	double t3 = now();
	char verdict[1024];
	if (ibfs__credit_loops(sn, verdict, sizeof(verdict)) < 0)
		return 1;
	double t4 = now();
	printf("%-7s LIDs %.3f s, routing %.3f s, stats %.3f s, credit loops %.3f s, total %.3f s\n",
	       engine, t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0);
	printf("        hops max %d mean %.3f; CA LIDs per switch port %ld-%ld; unroutable %d; %s\n",
	       st.hop_max, st.hop_mean, st.routes_min, st.routes_max,
	       st.unreachable, verdict);
	int bad = st.unreachable || st.loops || strncmp(verdict, "deadlock-free", 13);
	ibfs__subnet_free(sn);
	return bad;
}

int main(int argc, char **argv)
{
	const char *k = argc > 1 ? argv[1] : "36";
	const char *levels = argc > 2 ? argv[2] : "3";
	struct ibfs_gen_param p[] = {{"k", k}, {"levels", levels}};
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new("bench");
	double t0 = now();
	if (!t || ibfs__topo_generate(t, "fat-tree", p, 2, "", "bench", 0, &d)) {
		fprintf(stderr, "bench_route: %s\n", t ? d.msg : "no memory");
		return 1;
	}
	ibfs__topo_assign_guids(t, IBFS_TOPO_SWITCH_GUID_BASE,
				IBFS_TOPO_CA_GUID_BASE);
	printf("fat tree k=%s levels=%s: %zu switches, %zu HCAs; generated in %.3f s\n",
	       k, levels, ibfs__topo_count(t, IBFS_NODE_SWITCH),
	       ibfs__topo_count(t, IBFS_NODE_HCA), now() - t0);
	int bad = bench_engine(t, "ftree") | bench_engine(t, "minhop");
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak resident memory: %.1f MiB\n", (double)ru.ru_maxrss / 1024);
	ibfs__topo_free(t);
	return bad;
}
