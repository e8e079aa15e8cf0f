/* SPDX-License-Identifier: MIT */
/*
 * Running a scenario. The simulation is assembled bottom up, each layer
 * from the one below it: the runtime fabric from the topology, a switch
 * device on every switch node, the SimGrid bridge (one host per HCA), an
 * HCA device on every HCA node served by the bridge's execution interface,
 * then LIDs and forwarding tables from the subnet manager's routing engine,
 * and last the traffic's application actors. The run ends when every
 * application actor has ended; results are read from the message records
 * and the port counters.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bridge/bridge.h"
#include "fabric/capture.h"
#include "fabric/fabric.h"
#include "hca/hca.h"
#include "scenario/runner.h"
#include "scenario/traffic.h"
#include "scenario/routes.h"
#include "switch/switch.h"

/*
 * Packets buffered in switches with no packet starting on any link for this
 * long is a deadlock (IBA never drops for want of credits, so nothing else
 * would end it). Far above any legitimate pause on a live fabric: a 4 KiB
 * packet at SDR 1x takes 2 us.
 */
#define DEADLOCK_TIMEOUT (50 * IBFS_US)

struct run {
	struct ibfs_scenario *sc;
	struct ibfs_fabric *fab;
	struct ibfs_bridge *bridge;
	struct ibfs_traffic *traffic;
	struct ibfs_capture *cap;
	struct ibfs_deadlock_monitor *monitor;
};

/* The scenario's stop time (or --until) has come. */
static void stop_now(void *obj, uint64_t arg)
{
	(void)arg;
	ibfs__bridge_stop(obj);
}

/* ibfs_open_device's locator: the HCA on the calling actor's host. */
static struct ibfs_hca *locate_hca(void *arg)
{
	int node = ibfs__bridge_current_node();
	return node < 0 ? NULL : ibfs__hca_of_node(arg, node);
}

static int make_devices(struct run *r, struct ibfs_diag *d)
{
	const struct ibfs_topology *t = r->sc->topo;
	struct ibfs_exec exec = ibfs__bridge_exec(r->bridge);
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		if (n->type == IBFS_NODE_SWITCH) {
			if (!ibfs__switch_create(r->fab, (int)i, d))
				return -1;
		} else if (!ibfs__hca_create(r->fab, (int)i, n->profile, exec,
					     d)) {
			return -1;
		}
	}
	ibfs__verbs_set_locator(locate_hca, r->fab);
	return 0;
}

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_free(struct run *r)
{
	if (r->cap)
		ibfs__capture_abort(r->cap);
	ibfs__deadlock_monitor_free(r->monitor);
	ibfs__traffic_free(r->traffic);
	if (r->bridge)
		ibfs__bridge_free(r->bridge);
	if (r->fab) {
		const struct ibfs_topology *t = r->sc->topo;
		for (size_t i = 0; i < t->nnodes; i++) {
			if (!r->fab->devices[i])
				continue;
			if (t->nodes[i].type == IBFS_NODE_SWITCH)
				ibfs__switch_destroy(
					ibfs__switch_of(r->fab->devices[i]));
			else
				ibfs__hca_free(ibfs__hca_of_node(r->fab,
								 (int)i));
		}
		ibfs__fabric_free(r->fab);
	}
}

static void results_cleanup(void *arg)
{
	struct run *r = arg;
	run_free(r);
	free(r);
}

static int setup(struct run *r, const struct ibfs_run_opts *o,
		 struct ibfs_diag *d)
{
	struct ibfs_scenario *sc = r->sc;
	r->fab = ibfs__fabric_new(sc->topo, o->seed, o->data);
	if (!r->fab)
		return ibfs__diag(d, sc->file, 0, "out of memory building "
				  "the fabric");
	static char arg0[] = "ibfsim";
	char *argv[] = {arg0, NULL};
	int argc = 1;
	ibfs__bridge_init(&argc, argv);
	r->bridge = ibfs__bridge_new(&r->fab->eq, sc->topo, d);
	if (!r->bridge || make_devices(r, d) < 0)
		return -1;
	if (ibfs__routes_program(r->fab, sc->routing, sc->lmc, NULL, d) < 0)
		return -1;
	r->traffic = ibfs__traffic_plan(sc, o->seed, d);
	if (!r->traffic || ibfs__traffic_spawn(r->traffic, r->bridge, o->data,
					       d) < 0)
		return -1;
	if (o->pcap && !(r->cap = ibfs__capture_open(r->fab, o->pcap, NULL)))
		return ibfs__diag(d, o->pcap, 0, "cannot write the capture");
	r->monitor = ibfs__deadlock_monitor_new(r->fab, DEADLOCK_TIMEOUT);
	ibfs__bridge_watch(r->bridge, &r->fab->stopped);
	ibfs_time_t stop = sc->stop_at < o->until ? sc->stop_at : o->until;
	if (stop != IBFS_TIME_NEVER &&
	    !ibfs__eq_schedule(&r->fab->eq, stop, stop_now, r->bridge, 0))
		return ibfs__diag(d, sc->file, 0, "out of memory");
	return 0;
}

int ibfs__scenario_run(struct ibfs_scenario *sc, const struct ibfs_run_opts *o,
		       struct ibfs_results *res, struct ibfs_diag *d)
{
	struct run *r = calloc(1, sizeof(*r));
	if (!r)
		return ibfs__diag(d, sc->file, 0, "out of memory");
	r->sc = sc;
	if (setup(r, o, d) < 0) {
		run_free(r);
		free(r);
		return -1;
	}
	double t0 = wall_seconds();
	int rc = ibfs__bridge_run(r->bridge);
	memset(res, 0, sizeof(*res));
	res->sc = sc;
	res->fab = r->fab;
	res->seed = o->seed;
	res->wall_s = wall_seconds() - t0;
	res->sim_time = r->fab->eq.now;
	res->events = r->fab->eq.executed;
	res->cleanup = results_cleanup;
	res->cleanup_arg = r;
	if (ibfs__traffic_collect(r->traffic, res) < 0)
		return ibfs__diag(d, sc->file, 0, "out of memory");
	if (r->cap) {
		struct ibfs_capture *c = r->cap;
		r->cap = NULL;
		if (ibfs__capture_close(c) < 0)
			return ibfs__diag(d, o->pcap, 0,
					  "cannot write the capture");
	}
	const struct ibfs_deadlock *v = ibfs__deadlock_verdict(r->monitor);
	if (v->deadlock) {
		res->deadlock = 1;
		ibfs__deadlock_format(r->fab, v, res->deadlock_cycle,
				      sizeof(res->deadlock_cycle));
	}
	/* Messages cut short by a stop time are incomplete, not failed. */
	int failed = res->deadlock || (rc < 0);
	for (size_t i = 0; i < res->nmsgs; i++)
		failed |= res->msgs[i].status > 0;
	return failed ? 1 : 0;
}
