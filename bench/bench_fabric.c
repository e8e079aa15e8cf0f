/* SPDX-License-Identifier: MIT */
/*
 * Benchmarks of the packet-level fabric (links, credits, switches), run by
 * `make bench`:
 *
 * (a) stream: the walking skeleton of two endpoints and one switch, one
 *     endpoint streaming raw packets back to back to the other; reports
 *     fabric events and packets per second of CPU time.
 * (b) fat tree: 648 endpoints on a two-level fat tree of 36-port switches
 *     (36 leaves, 18 spines; K^2/2 HCAs for L = 2: docs/fabric-format.md),
 *     routed d-mod-k here (up port chosen by destination LID mod 18; the
 *     real routing engines belong to the subnet manager), every endpoint
 *     sending packets back to back to destinations drawn uniformly at
 *     random (seeded).
 *     Reports fabric events per second and packet-hops (packets sent over
 *     a link) per second. Run twice by default: saturated (every endpoint
 *     sends back to back, so head-of-line blocking fills the input
 *     buffers) and at half the link rate (each endpoint starts a packet
 *     every two packet times, below the ~59% where uniform traffic
 *     saturates an input-queued switch, Karol et al., IEEE Trans. Commun.
 *     1987, so queues stay short and the working set small).
 *
 * Both check packet and credit conservation at the end. Times are
 * CLOCK_MONOTONIC around ibfs__eq_run only (set-up excluded).
 * Usage: bench_fabric [stream_packets [fat_tree_packets_per_endpoint
 * [offered_load_percent [radix]]]]; without the third argument the fat tree
 * runs at 100% and at 50%. The radix (even, 4 to 36; 36 by default) makes
 * the same workload on a smaller fat tree, K^2/2 HCAs: at K = 12 (72 HCAs)
 * everything a hop touches fits the L2, which tells what a hop costs
 * without cache misses (docs/performance.md). Like `ibfsim run`, it
 * starts again with glibc's heap on transparent huge pages
 * (src/fabric/huge_pages.c) unless IBFSIM_HUGEPAGES=0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabric/endpoint.h"
#include "fabric/fabric.h"
#include "fabric/huge_pages.h"
#include "fabric/rng.h"
#include "fabric/topo_gen.h"
#include "fabric/topology.h"
#include "switch/switch.h"

static double bench_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double bench_now(void)
{
	return bench_clock(CLOCK_MONOTONIC);
}

static double bench_cpu(void)
{
	return bench_clock(CLOCK_PROCESS_CPUTIME_ID);
}

static int bench_check(const struct ibfs_fabric *f)
{
	char msg[512];

	if (ibfs__fabric_check(f, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "bench_fabric: conservation: %s\n", msg);
		return -1;
	}
	return 0;
}

static uint64_t bench_hops(const struct ibfs_fabric *f)
{
	uint64_t hops = 0;

	for (size_t n = 0; n < f->topo->nnodes; n++)
		for (int i = 0; i <= f->topo->nodes[n].nports; i++)
			hops += f->ports[n][i].cnt.xmit_pkts;
	return hops;
}

static int bench_stream(uint64_t npkts)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new("skeleton");
	int s = ibfs__topo_add_node(t, "sw", IBFS_NODE_SWITCH, 2, 0, &d);
	int a = ibfs__topo_add_node(t, "a", IBFS_NODE_HCA, 1, 0, &d);
	int b = ibfs__topo_add_node(t, "b", IBFS_NODE_HCA, 1, 0, &d);

	if (s < 0 || a < 0 || b < 0 ||
	    ibfs__topo_add_link(t, a, 1, s, 1, IBFS_SPEED_EDR, 4, 2000, 0,
				&d) < 0 ||
	    ibfs__topo_add_link(t, b, 1, s, 2, IBFS_SPEED_EDR, 4, 2000, 0,
				&d) < 0) {
		fprintf(stderr, "bench_fabric: %s\n", d.msg);
		return -1;
	}
	struct ibfs_fabric *f = ibfs__fabric_new(t, 1, 0);
	struct ibfs_switch *sw = ibfs__switch_create(f, s, &d);
	struct ibfs_endpoint *ea = ibfs__endpoint_create(f, a);
	struct ibfs_endpoint *eb = ibfs__endpoint_create(f, b);

	ibfs__endpoint_set_lid(ea, 1, 0);
	ibfs__endpoint_set_lid(eb, 2, 0);
	ibfs__switch_set_lft(sw, 1, 1);
	ibfs__switch_set_lft(sw, 2, 2);
	struct ibfs_ep_flow_spec spec = { .dlid = 2, .payload = 4092,
					  .count = npkts };

	ibfs__endpoint_add_flow(ea, &spec, &d);
	double t0 = bench_now(), c0 = bench_cpu();

	ibfs__eq_run(&f->eq, IBFS_TIME_NEVER);
	double wall = bench_now() - t0, cpu = bench_cpu() - c0;
	uint64_t ev = f->eq.executed;
	int rc = bench_check(f);

	printf("stream: 1 switch, 2 endpoints, %llu packets of 4102 bytes, "
	       "%llu events (%.1f a packet), wall %.3f s, cpu %.3f s: "
	       "%.1f M events/s, %.2f M packets/s (per cpu second)\n",
	       (unsigned long long)ibfs__endpoint_stats(eb)->rx_pkts,
	       (unsigned long long)ev, (double)ev / (double)npkts, wall, cpu,
	       (double)ev / cpu * 1e-6, (double)npkts / cpu * 1e-6);
	ibfs__endpoint_destroy(ea);
	ibfs__endpoint_destroy(eb);
	ibfs__switch_destroy(sw);
	ibfs__fabric_free(f);
	ibfs__topo_free(t);
	return rc;
}

/*
 * A generator's state, kept in the endpoint (ibfs__endpoint_gen_area),
 * whose lines the link layer fetches together when it may send.
 */
struct uniform {
	struct ibfs_rng rng;
	uint16_t self;  /* own LID */
	uint32_t nhca;
};
_Static_assert(sizeof(struct uniform) <= IBFS_EP_GEN_BYTES &&
		       _Alignof(struct uniform) <= 16,
	       "struct uniform fits the endpoint's generator area");

static int bench_uniform(void *ctx, struct ibfs_endpoint *ep, uint16_t *dlid,
			 uint8_t *sl)
{
	struct uniform *u = ctx;
	uint64_t r = ibfs__rng_below(&u->rng, u->nhca - 1) + 1;

	(void)ep;
	/* LIDs 1..nhca without our own. */
	*dlid = (uint16_t)(r >= u->self ? r + 1 : r);
	*sl = 0;
	return 0;
}

static int bench_fat_tree(uint64_t per_ep, unsigned load, unsigned radix)
{
	struct ibfs_diag d;
	struct ibfs_topology *t = ibfs__topo_new("ft36");
	char k[16];

	snprintf(k, sizeof(k), "%u", radix);
	const struct ibfs_gen_param params[] = { { "k", k },
						 { "levels", "2" } };

	if (ibfs__topo_generate(t, "fat-tree", params, 2, "ft", "bench", 0,
				&d) < 0) {
		fprintf(stderr, "bench_fabric: %s\n", d.msg);
		return -1;
	}
	struct ibfs_fabric *f = ibfs__fabric_new(t, 1, 0);
	size_t nn = t->nnodes;
	int *lid = calloc(nn, sizeof(*lid));
	struct ibfs_switch **sw = calloc(nn, sizeof(*sw));
	struct ibfs_endpoint **ep = calloc(nn, sizeof(*ep));
	uint32_t nhca = 0, nsw = 0;

	for (size_t n = 0; n < nn; n++)
		if (t->nodes[n].type == IBFS_NODE_HCA)
			lid[n] = (int)++nhca;
	for (size_t n = 0; n < nn; n++) {
		if (t->nodes[n].type == IBFS_NODE_SWITCH) {
			sw[n] = ibfs__switch_create(f, (int)n, &d);
			nsw++;
			continue;
		}
		ep[n] = ibfs__endpoint_create(f, (int)n);
		ibfs__endpoint_set_lid(ep[n], (uint16_t)lid[n], 0);
	}
	/*
	 * d-mod-k: at a switch, a destination below it goes down the port
	 * leading to it; any other goes up port (LID mod up-ports). A leaf
	 * has the HCA itself below it; a spine has the HCA's leaf below it.
	 */
	for (size_t n = 0; n < nn; n++) {
		if (!sw[n])
			continue;
		int np = t->nodes[n].nports;
		int nup = 0, upport[256];

		int is_leaf = 0;

		for (int p = 1; p <= np; p++) {
			int peer = t->nodes[n].ports[p].peer_node;

			if (peer >= 0 && ep[peer])
				is_leaf = 1;
		}
		/* A leaf's ports to switches go up; a spine has none. */
		for (int p = 1; is_leaf && p <= np; p++) {
			int peer = t->nodes[n].ports[p].peer_node;

			if (peer >= 0 && sw[peer])
				upport[nup++] = p;
		}
		for (size_t h = 0; h < nn; h++) {
			if (!ep[h])
				continue;
			int leaf = t->nodes[h].ports[1].peer_node;
			int port = -1;

			if ((size_t)leaf == n)
				port = t->nodes[h].ports[1].peer_port;
			for (int p = 1; port < 0 && p <= np; p++)
				if (t->nodes[n].ports[p].peer_node == leaf)
					port = p;
			if (port < 0 && nup)
				port = upport[lid[h] % nup];
			if (port < 0) {
				fprintf(stderr, "bench_fabric: no route\n");
				return -1;
			}
			ibfs__switch_set_lft(sw[n], (uint16_t)lid[h],
					     (uint8_t)port);
		}
	}
	for (size_t n = 0; n < nn; n++) {
		if (!ep[n])
			continue;
		struct uniform *u = ibfs__endpoint_gen_area(ep[n]);

		ibfs__rng_seed(&u->rng, f->seed, (uint64_t)n);
		u->self = (uint16_t)lid[n];
		u->nhca = nhca;
		/*
		 * A packet of 2058 wire bytes takes 164,640 ps at EDR 4x (80
		 * ps a byte); at load% its starts are 100/load of that apart.
		 */
		struct ibfs_ep_flow_spec spec = {
			.payload = 2048, .count = per_ep,
			.gen = bench_uniform, .gen_ctx = u,
			.gap = load >= 100 ? 0 :
					     (ibfs_time_t)164640 * 100 / load,
		};

		ibfs__endpoint_add_flow(ep[n], &spec, &d);
	}
	double t0 = bench_now(), c0 = bench_cpu();

	ibfs__eq_run(&f->eq, IBFS_TIME_NEVER);
	double wall = bench_now() - t0, cpu = bench_cpu() - c0;
	uint64_t ev = f->eq.executed;
	uint64_t hops = bench_hops(f);
	int rc = bench_check(f);

	if (f->pkts_delivered != (uint64_t)nhca * per_ep) {
		fprintf(stderr, "bench_fabric: delivered %llu of %llu\n",
			(unsigned long long)f->pkts_delivered,
			(unsigned long long)nhca * per_ep);
		rc = -1;
	}
	printf("fat tree k=%u l=2: %u HCAs, %u switches, uniform random at "
	       "%u%% load, "
	       "%llu packets of 2058 bytes, %llu packet-hops, %llu events "
	       "(%.2f a hop), %llu FCPs, simulated %.3f us, wall %.3f s, "
	       "cpu %.3f s: %.1f M events/s, %.2f M packet-hops/s "
	       "(per cpu second)\n",
	       radix, nhca, nsw, load, (unsigned long long)f->pkts_delivered,
	       (unsigned long long)hops, (unsigned long long)ev,
	       hops ? (double)ev / (double)hops : 0.0,
	       (unsigned long long)f->fcps, (double)f->eq.now * 1e-6, wall,
	       cpu, (double)ev / cpu * 1e-6, (double)hops / cpu * 1e-6);
	/* The calendar's shape at the end (event_queue.h), for the record. */
	printf("fat tree: event queue: %llu rebuilds, %zu buckets, day 2^%u "
	       "ps\n",
	       (unsigned long long)f->eq.resizes, f->eq.nbuckets,
	       f->eq.shift);
	for (size_t n = 0; n < nn; n++) {
		ibfs__endpoint_destroy(ep[n]);
		ibfs__switch_destroy(sw[n]);
	}
	free(lid);
	free(sw);
	free(ep);
	ibfs__fabric_free(f);
	ibfs__topo_free(t);
	return rc;
}

int main(int argc, char **argv)
{
	uint64_t stream = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
	uint64_t per_ep = argc > 2 ? strtoull(argv[2], NULL, 10) : 2000;
	unsigned load = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 0;
	unsigned radix = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 10) : 36;

	/* Glibc's heap on huge pages, as `ibfsim run` has it (huge_pages.c;
	 * IBFSIM_HUGEPAGES=0 to measure without). */
	ibfs__huge_pages_restart(argv);
	if (argc > 3 && (load < 1 || load > 100)) {
		fprintf(stderr, "bench_fabric: load must be 1 to 100 (%%)\n");
		return 2;
	}
	if (radix < 4 || radix > 36 || radix % 2) {
		fprintf(stderr, "bench_fabric: radix must be even, 4 to 36\n");
		return 2;
	}
	if (bench_stream(stream) < 0)
		return 1;
	if (load ? bench_fat_tree(per_ep, load, radix) < 0 :
		   bench_fat_tree(per_ep, 100, radix) < 0 ||
			   bench_fat_tree(per_ep, 50, radix) < 0)
		return 1;
	return 0;
}
