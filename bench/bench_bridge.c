/* SPDX-License-Identifier: MIT */
/*
 * Benchmark of the SimGrid bridge: post/complete round trips per second of
 * wall-clock time. Application actors post to a fake device that completes
 * each request 1 ns later through exec.wake_at, then wait for it, as a
 * latency test does with one outstanding request. Two shapes: one actor
 * alone (every round trip crosses SimGrid), and 16 actors on 4 hosts (the
 * fabric serves several actors per yield). A third figure is the run-ahead
 * rate: one request whose completion takes a chain of 10^6 events, which
 * the fabric runs in its own loop without yielding.
 *
 * Each shape needs its own SimGrid simulation, and a process holds only
 * one, so each runs in a child process and reports through a pipe.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bridge/bridge.h"
#include "ibfsim/sim.h"

static struct ibfs_topo_node nodes[] = {
	{ .id = "n0", .type = IBFS_NODE_HCA, .nports = 1 },
	{ .id = "n1", .type = IBFS_NODE_HCA, .nports = 1 },
	{ .id = "n2", .type = IBFS_NODE_HCA, .nports = 1 },
	{ .id = "n3", .type = IBFS_NODE_HCA, .nports = 1 },
};
static struct ibfs_topology topo = { .name = "bench", .nodes = nodes,
				     .nnodes = 4 };

static struct ibfs_eq eq;
static struct ibfs_exec ex;
static long per_actor;
static uint64_t chain_left;

static void fake_complete(void *obj, uint64_t arg)
{
	ex.ops->wake_at(ex.ctx, obj, eq.now);
}

static void fake_chain(void *obj, uint64_t arg)
{
	if (arg == 0)
		ex.ops->wake_at(ex.ctx, obj, eq.now);
	else
		ibfs__eq_after(&eq, 10, fake_chain, obj, arg - 1);
}

static void app_round_trips(int argc, char **argv)
{
	struct ibfs_waiter *w = ex.ops->waiter_get(ex.ctx);

	for (long i = 0; i < per_actor; i++) {
		ex.ops->enter(ex.ctx);
		ibfs__eq_after(&eq, IBFS_NS, fake_complete, w, 0);
		ex.ops->leave(ex.ctx);
		ex.ops->wait(ex.ctx, w);
	}
}

static void app_chain(int argc, char **argv)
{
	struct ibfs_waiter *w = ex.ops->waiter_get(ex.ctx);

	ex.ops->enter(ex.ctx);
	ibfs__eq_after(&eq, 10, fake_chain, w, chain_left - 1);
	ex.ops->leave(ex.ctx);
	ex.ops->wait(ex.ctx, w);
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs one shape in this (child) process; writes a result line to fd. */
static int run_shape(int fd, int actors, long each, uint64_t chain)
{
	static char prog[] = "bench_bridge";
	static char *argv[] = { prog, NULL };
	int argc = 1;
	struct ibfs_diag d;

	ibfs__bridge_init(&argc, argv);
	if (ibfs__eq_init(&eq) < 0)
		return 1;
	struct ibfs_bridge *b = ibfs__bridge_new(&eq, &topo, &d);

	if (!b) {
		fprintf(stderr, "bench_bridge: %s\n", d.msg);
		return 1;
	}
	ex = ibfs__bridge_exec(b);
	per_actor = each;
	chain_left = chain;
	for (int i = 0; i < actors; i++) {
		char name[16];

		snprintf(name, sizeof(name), "a%d", i);
		ibfs__bridge_spawn(b, nodes[i % 4].id, name,
				   chain ? app_chain : app_round_trips, 0,
				   NULL);
	}
	double t0 = wall();

	if (ibfs__bridge_run(b) < 0) {
		fprintf(stderr, "bench_bridge: %s\n", d.msg);
		return 1;
	}
	double dt = wall() - t0;
	struct ibfs_bridge_stats st;

	ibfs__bridge_stats(b, &st);
	char line[256];
	int n;

	if (chain)
		n = snprintf(line, sizeof(line),
			     "run-ahead   1 request, %" PRIu64 " events: "
			     "%.1f M events/s, %" PRIu64 " yields\n",
			     st.events, (double)st.events / dt / 1e6,
			     st.yields);
	else
		n = snprintf(line, sizeof(line),
			     "round trip  %2d actor(s) x %ld: %.2f M/s, "
			     "%.2f yields per round trip\n",
			     actors, each,
			     (double)actors * (double)each / dt / 1e6,
			     (double)st.yields / ((double)actors * each));
	ibfs__bridge_free(b);
	ibfs__eq_destroy(&eq);
	return write(fd, line, (size_t)n) == n ? 0 : 1;
}

static int shape(int actors, long each, uint64_t chain)
{
	int p[2];

	if (pipe(p) < 0)
		return 1;
	/* The child must not inherit (and print again) buffered output. */
	fflush(stdout);
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(p[0]);
		_exit(run_shape(p[1], actors, each, chain));
	}
	close(p[1]);
	char buf[256];
	ssize_t n = read(p[0], buf, sizeof(buf) - 1);
	int status;

	close(p[0]);
	waitpid(pid, &status, 0);
	if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 1;
	buf[n] = '\0';
	fputs(buf, stdout);
	return 0;
}

int main(void)
{
	int bad = 0;

	bad |= shape(1, 500000, 0);
	bad |= shape(16, 50000, 0);
	bad |= shape(1, 0, 1000000);
	return bad;
}
