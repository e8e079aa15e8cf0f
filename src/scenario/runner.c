/* SPDX-License-Identifier: MIT */
/*
 * Running a scenario. The simulation is assembled (assemble.c); with the
 * in-band subnet manager (the default) an actor on the SM's host waits for
 * the sweep to bring every port to Active, and only then are the traffic's
 * application actors started, the faults and the stop time scheduled:
 * scenario times count from that moment. The run ends when every
 * application actor has ended, at the stop time, or on a deadlock; results
 * are read from the message records, the port counters and the SM.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fabric/capture.h"
#include "fabric/pfc.h"
#include "fabric/progress.h"
#include "fabric/trace.h"
#include "scenario/assemble.h"
#include "scenario/mcast_joins.h"
#include "scenario/runner.h"
#include "scenario/sampler.h"
#include "scenario/traffic.h"
#include "subnet_manager/sm.h"
#include "subnet_manager/subnet.h"

struct run {
	struct ibfs_scenario *sc;
	struct ibfs_assembly as;
	struct ibfs_fabric *fab; /* as.fab */
	struct ibfs_traffic *traffic;
	struct ibfs_capture *cap;
	struct ibfs_trace *trace;
	struct ibfs_sampler *sampler; /* --sample, or NULL */
	struct ibfs_progress *progress;
	/* In-band start: an actor on the SM's host waits for the fabric. */
	struct ibfs_exec exec;
	struct ibfs_waiter *starter;
	int up, data, spawn_failed, timed_failed;
	ibfs_time_t stop;       /* min(<stop at>, --until), from the up time */
	struct ibfs_event *stop_ev; /* pending, or NULL */
	ibfs_time_t first_sweep; /* the sweep that brought the fabric up */
	uint64_t first_smps;
	uint64_t first_lft_blocks;
	uint64_t first_pkey_blocks;
	ibfs_time_t up_at;
	struct ibfs_diag spawn_diag;
	/* The groups the SM starts with, and the joins at run time. */
	struct ibfs_mcast_group *sm_groups;
	int nsm_groups;
	struct ibfs_mjoins *mj;
	/* --model tcp: the traffic's driver (traffic_tcp.c), or NULL. */
	struct ibfs_tcp_traffic *tt;
};

/* The SA's PathRecord answer: the SL the routing engine chose. */
static uint8_t path_sl(void *ctx, uint16_t slid, uint16_t dlid)
{
	return ibfs__assembly_path_sl(ctx, slid, dlid);
}

/* The run whose actors are running (actors receive only argc/argv). */
static struct run *g_run;

static void stop_now(void *obj, uint64_t arg);

/*
 * Scenario times count from when the fabric is up (0 with mode="instant"):
 * the stop time and the faults are scheduled then.
 */
static int schedule_timed(struct run *r, ibfs_time_t base)
{
	const struct ibfs_scenario *sc = r->sc;
	for (size_t i = 0; i < sc->nfaults; i++) {
		const struct ibfs_sc_fault *flt = &sc->faults[i];
		if (ibfs__fabric_fault_at(r->fab, base + flt->at, flt->node,
					  flt->port, flt->up) < 0)
			return -1;
	}
	if (r->mj && ibfs__mjoins_start(r->mj, base) < 0)
		return -1;
	if (r->stop != IBFS_TIME_NEVER &&
	    !(r->stop_ev = ibfs__eq_schedule(&r->fab->eq, base + r->stop,
					      stop_now, r, 0)))
		return -1;
	return 0;
}

/*
 * Every application ended before the stop time: the run ends as it would
 * without one, when what is still in flight has arrived, rather than at
 * the stop time, which would only add idle time to the results (link
 * utilizations are over the run's length).
 */
static void all_done(void *ctx)
{
	struct run *r = ctx;
	if (r->stop_ev) {
		ibfs__eq_cancel(&r->fab->eq, r->stop_ev);
		r->stop_ev = NULL;
	}
}

/* The in-band subnet manager has brought every port to Active at t. */
static void fabric_up(void *ctx, ibfs_time_t t)
{
	struct run *r = ctx;
	if (r->up)
		return; /* a later sweep (after a fault) */
	r->up = 1;
	r->up_at = t;
	struct ibfs_sm_stats st;
	ibfs__sm_stats(r->as.sm, &st);
	r->first_sweep = st.sweep;
	r->first_smps = st.sent;
	r->first_lft_blocks = st.lft_blocks;
	r->first_pkey_blocks = st.pkey_blocks;
	if (schedule_timed(r, t) < 0)
		r->timed_failed = 1;
	if (r->starter)
		r->exec.ops->wake_at(r->exec.ctx, r->starter, t);
}

/*
 * Applications start when their ports are Active: this actor waits for
 * the SM's sweep to end and then starts the traffic, whose start times
 * count from that moment.
 */
static void starter(int argc, char **argv)
{
	struct run *r = g_run;
	(void)argc;
	(void)argv;
	r->starter = r->exec.ops->waiter_get(r->exec.ctx);
	if (!r->up)
		r->exec.ops->wait(r->exec.ctx, r->starter);
	if (ibfs__traffic_spawn(r->traffic, r->as.bridge, r->data, r->up_at,
				&r->spawn_diag) < 0)
		r->spawn_failed = 1;
}

/* The scenario's stop time (or --until) has come. */
static void stop_now(void *obj, uint64_t arg)
{
	(void)arg;
	struct run *r = obj;
	r->stop_ev = NULL;
	if (r->tt)
		ibfs__fabric_stop(r->fab);
	else
		ibfs__bridge_stop(r->as.bridge);
}

/*
 * Per HCA: from the fault until the last switch acknowledged its new
 * forwarding entry for one of the HCA's LIDs (the SM's view of the
 * outage); 0 for HCAs whose routes did not change.
 */
static ibfs_time_t *outages(struct run *r, ibfs_time_t fault)
{
	const struct ibfs_subnet *sn = ibfs__sm_subnet(r->as.sm);
	const struct ibfs_topology *t = r->sc->topo;
	ibfs_time_t *v = calloc(t->nnodes ? t->nnodes : 1, sizeof(*v));
	if (!v || !sn)
		return v;
	unsigned span = 1u << sn->lmc;
	for (int n = 0; n < sn->nnodes && (size_t)n < t->nnodes; n++) {
		if (sn->nodes[n].type != IBFS_NODE_HCA)
			continue;
		for (int p = 1; p <= sn->nodes[n].nports; p++) {
			unsigned base = sn->nodes[n].ports[p].lid;
			for (unsigned k = 0; base && k < span; k++) {
				ibfs_time_t at =
					ibfs__sm_lid_rerouted(r->as.sm, base + k);
				if (at > fault && at - fault > v[n])
					v[n] = at - fault;
			}
		}
	}
	return v;
}

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_free(struct run *r)
{
	ibfs__sampler_free(r->sampler);
	r->sampler = NULL;
	if (r->cap)
		ibfs__capture_abort(r->cap);
	if (r->trace)
		ibfs__trace_abort(r->trace);
	ibfs__progress_end(r->progress);
	r->progress = NULL;
	ibfs__mjoins_free(r->mj);
	r->mj = NULL;
	ibfs__traffic_free(r->traffic);
	ibfs__assembly_free(&r->as);
	ibfs__tcp_traffic_free(r->tt);
	r->tt = NULL;
	free(r->sm_groups);
	r->sm_groups = NULL;
}

/*
 * The groups that exist at bring-up (a group whose members all join at
 * run time does not), with the traffic's Q_Key and the default P_Key, so
 * that joins to them agree with them at the SA.
 */
static int bringup_groups(struct run *r)
{
	const struct ibfs_scenario *sc = r->sc;

	r->sm_groups = calloc(sc->ngroups + 1, sizeof(*r->sm_groups));
	if (!r->sm_groups)
		return -1;
	for (size_t i = 0; i < sc->ngroups; i++) {
		if (!sc->groups[i].nmembers)
			continue;
		struct ibfs_mcast_group *g = &r->sm_groups[r->nsm_groups++];

		*g = sc->groups[i];
		g->qkey = IBFS_TRAFFIC_QKEY;
		g->pkey = 0xffff;
	}
	return 0;
}

static void results_cleanup(void *arg)
{
	struct run *r = arg;
	run_free(r);
	free(r);
}

/*
 * Under roce the fabric is up at time 0 (no subnet manager: ECMP tables
 * written at once); what only InfiniBand's SM gives is refused when the
 * traffic needs it (multicast groups and joins, congestion control by
 * FECN and BECN) and ignored otherwise (partitions, QoS, the routing
 * engine), which the results say.
 */
static int roce_check(struct ibfs_scenario *sc, struct ibfs_diag *d)
{
	int pkeys = 0;

	for (size_t i = 0; i < sc->nmsgs; i++)
		pkeys |= sc->msgs[i].pkey != 0xFFFF;
	for (size_t i = 0; i < sc->npats; i++)
		pkeys |= sc->pats[i].pkey != 0xFFFF;
	const char *what = sc->ngroups ? "multicast groups are" :
			   sc->nmjoins ? "multicast joins are" :
			   sc->cc.enabled ? "InfiniBand congestion control is" :
			   pkeys ? "traffic in partitions other than the "
				   "default is" :
				   NULL;

	const char *model = ibfs__sc_model_str(sc->model);
	long line = 0;

	if (what)
		return ibfs__diag(d, sc->file, 0, "%s not modelled under %s "
				  "(InfiniBand only); run it with --model ib",
				  what, model);
	if (sc->model == IBFS_MODEL_TCP &&
	    (what = ibfs__tcp_traffic_refuse(sc, &line)))
		return ibfs__diag(d, sc->file, line, "%s not modelled under tcp "
				  "(verbs only); run it with --model ib or "
				  "roce", what);
	/* The hosts' frames are IPv4 without a tag; TCP recovers losses. */
	what = sc->eth.ipv6 ? "ip=\"v6\"" :
	       sc->eth.pcp ? "priority-source=\"pcp\"" :
	       sc->eth.irn ? "loss-recovery=\"irn\"" : NULL;
	if (sc->model == IBFS_MODEL_TCP && what)
		return ibfs__diag(d, sc->file, sc->eth.line, "%s is not "
				  "modelled under tcp (the hosts send IPv4 "
				  "frames without an 802.1Q tag and TCP "
				  "recovers its own losses)", what);
	if (sc->model == IBFS_MODEL_TCP && sc->eth.cc.algo &&
	    sc->eth.cc.algo != &ibfs__cc_none)
		return ibfs__diag(d, sc->file, sc->eth.cc_line, "cc=\"%s\" is "
				  "a RoCEv2 congestion control; under tcp cc "
				  "is cubic, newreno or dctcp",
				  sc->eth.cc.algo->name);
	/* Under tcp the switches drop unless pfc="on" says otherwise. */
	if (sc->model == IBFS_MODEL_TCP && !sc->eth.pfc_given)
		sc->eth.pfc = 0;
	sc->instant = 1;
	sc->eth.lossless = 0;
	for (size_t i = 0; i < sc->nmsgs; i++)
		sc->eth.lossless |= (uint8_t)(1u << (sc->msgs[i].sl & 7));
	for (size_t i = 0; i < sc->npats; i++)
		sc->eth.lossless |= (uint8_t)(1u << (sc->pats[i].sl & 7));
	for (size_t i = 0; i < sc->ncolls; i++)
		sc->eth.lossless |= (uint8_t)(1u << (sc->colls[i].sl & 7));
	/* The TCP hosts send on priority 0 whatever the traffic's SLs. */
	if (!sc->eth.lossless || sc->model == IBFS_MODEL_TCP)
		sc->eth.lossless = 1;
	return 0;
}

/* What the scenario sets that roce leaves aside, for the results. */
static void roce_ignored(const struct ibfs_scenario *sc, char *buf,
			 size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s",
		 strcmp(sc->routing, "minhop") ? "routing engine, " : "",
		 sc->lmc ? "LMC, " : "", sc->partitions ? "partitions, " : "",
		 sc->qos.given ? "QoS, " : "", sc->lfts ? "LFT file, " : "");
	size_t n = strlen(buf);

	if (n >= 2)
		buf[n - 2] = 0;
}

/* The capture records the PFC frames the ports send. */
static void capture_pfc(void *ctx, const struct ibfs_port *out,
			ibfs_time_t start, uint8_t enable,
			const uint16_t quanta[IBFS_ETH_PRIOS])
{
	ibfs__capture_pfc(ctx, out, start, enable, quanta);
}

/* --pcap: Ethernet frames under roce (the RNICs' framing), else IB. */
static int open_capture(struct run *r, const struct ibfs_run_opts *o)
{
	struct ibfs_capture_opts co = o->pcap_opts;
	const struct ibfs_topology *t = r->sc->topo;

	if (r->as.eth) {
		co.link = IBFS_CAPTURE_ETH;
		co.vlan = (uint8_t)r->sc->eth.pcp;
		co.ipv6 = (uint8_t)r->sc->eth.ipv6;
	}
	r->cap = ibfs__capture_open(r->fab, o->pcap, &co);
	if (!r->cap)
		return -1;
	for (size_t n = 0; r->as.eth && n < t->nnodes; n++)
		for (int p = 1; p <= t->nodes[n].nports; p++)
			if (ibfs__pfc_of(&r->fab->ports[n][p]))
				ibfs__pfc_observe(&r->fab->ports[n][p],
						  capture_pfc, r->cap);
	return 0;
}

/* --sample (or <sample>): into --csv's directory and the timeline. */
static int start_sampler(struct run *r, const struct ibfs_run_opts *o,
			 struct ibfs_diag *d)
{
	ibfs_time_t every = o->sample ? o->sample : r->sc->sample_interval;

	if (!every)
		return 0;
	if (o->sample_dir && mkdir(o->sample_dir, 0777) != 0 &&
	    errno != EEXIST)
		return ibfs__diag(d, o->sample_dir, 0, "cannot make the "
				  "directory: %s", strerror(errno));
	r->sampler = ibfs__sampler_start(r->fab, every, o->sample_dir,
					 r->trace, d);
	return r->sampler ? 0 : -1;
}

/* The samples up to the run's end, before the timeline closes. */
static int finish_sampler(struct run *r, const struct ibfs_run_opts *o,
			  struct ibfs_results *res, struct ibfs_diag *d)
{
	if (!r->sampler)
		return 0;
	res->sample_interval = o->sample ? o->sample :
					   r->sc->sample_interval;
	res->sample_dir = o->sample_dir;
	res->sample_trace = r->trace != NULL;
	if (ibfs__sampler_finish(r->sampler, res->sim_time) < 0)
		return ibfs__diag(d, o->sample_dir, 0, "cannot write the "
				  "samples: %s", strerror(errno));
	res->samples = ibfs__sampler_count(r->sampler);
	return 0;
}

static int setup(struct run *r, const struct ibfs_run_opts *o,
		 struct ibfs_diag *d)
{
	struct ibfs_scenario *sc = r->sc;
	int tcp = sc->model == IBFS_MODEL_TCP;
	int roce = sc->model == IBFS_MODEL_ROCE || tcp;

	if (roce && roce_check(sc, d) < 0)
		return -1;
	static char arg0[] = "ibfsim";
	char *argv[] = {arg0, NULL};
	int argc = 1;
	ibfs__bridge_init(&argc, argv);
	struct ibfs_assembly_opts ao = {.seed = o->seed, .data = o->data,
					.routing = sc->routing,
					.lfts = sc->lfts,
					.lmc = sc->lmc,
					.qos = &sc->qos,
					.cc = &sc->cc,
					.partitions = sc->partitions,
					.groups = r->sm_groups,
					.ngroups = r->nsm_groups,
					.inband = !sc->instant,
					.sm_node = sc->sm_node,
					.up = fabric_up,
					.up_ctx = r,
					.roce = roce,
					.eth = &sc->eth,
					.tcp = tcp,
					.tcp_app = &ibfs__tcp_traffic_app};
	r->data = o->data;
	if (bringup_groups(r) < 0)
		return ibfs__diag(d, sc->file, 0, "out of memory");
	ao.groups = r->sm_groups;
	ao.ngroups = r->nsm_groups;
	r->traffic = ibfs__traffic_plan(sc, o->seed, d);
	if (r->traffic && tcp &&
	    !(ao.tcp_ctx = r->tt = ibfs__tcp_traffic_new(r->traffic)))
		return ibfs__diag(d, sc->file, 0, "out of memory");
	if (!r->traffic || ibfs__assemble(&r->as, sc->topo, &ao, d) < 0)
		return -1;
	r->fab = r->as.fab;
	if (tcp && ibfs__tcp_traffic_start(r->tt, r->fab, d) < 0)
		return -1;
	if (sc->nmjoins && r->as.sm &&
	    !(r->mj = ibfs__mjoins_new(sc, r->fab, r->as.sm, r->traffic)))
		return ibfs__diag(d, sc->file, 0, "out of memory");
	r->exec = ibfs__bridge_exec(r->as.bridge);
	ibfs__bridge_on_done(r->as.bridge, all_done, r);
	ibfs__traffic_set_path_sl(r->traffic, path_sl, &r->as);
	ibfs__bridge_set_host_actors(r->as.bridge,
				     ibfs__traffic_host_actors(r->traffic));
	g_run = r;
	if (tcp) {
		/* The hosts' stacks run on the fabric's events alone. */
	} else if (sc->instant) {
		if (ibfs__traffic_spawn(r->traffic, r->as.bridge, o->data, 0,
					d) < 0)
			return -1;
	} else {
		static char name[] = "ibfsim-start";
		char *sargv[] = {name, NULL};
		if (ibfs__bridge_spawn(r->as.bridge,
				       sc->topo->nodes[sc->sm_node].id, name,
				       starter, 1, sargv) < 0)
			return ibfs__diag(d, sc->file, 0, "cannot start the "
					  "applications");
	}
	if (o->pcap && open_capture(r, o) < 0)
		return ibfs__diag(d, o->pcap, 0, "cannot write the capture");
	if (o->trace) {
		r->trace = ibfs__trace_open(r->fab, o->trace, o->trace_ports);
		if (!r->trace)
			return ibfs__diag(d, o->trace, 0,
					  "cannot write the timeline");
		ibfs__traffic_set_trace(r->traffic, r->trace);
	}
	if (start_sampler(r, o, d) < 0)
		return -1;
	if (o->assembled)
		o->assembled(o->assembled_arg, r->fab);
	r->stop = sc->stop_at < o->until ? sc->stop_at : o->until;
	/* The progress line: only for a person watching a terminal. */
	r->progress = ibfs__progress_new(stderr, !o->quiet && isatty(2),
					 r->stop);
	if (r->progress && ibfs__progress_observe(r->progress, r->fab) < 0)
		return ibfs__diag(d, sc->file, 0, "out of memory");
	if (sc->instant && schedule_timed(r, 0) < 0)
		return ibfs__diag(d, sc->file, 0, "cannot schedule the faults "
				  "and the stop time");
	return 0;
}

/*
 * Under tcp the fabric's event queue runs alone: until nothing is left
 * (every connection idle, its timers done) or the stop time. 1 when
 * stopped (a stop time, a deadlock, no memory), as ibfs__bridge_run.
 */
static int tcp_run(struct run *r)
{
	ibfs__eq_run(&r->fab->eq, IBFS_TIME_NEVER);
	return r->fab->stopped || r->fab->eq.nomem ? 1 : 0;
}

/* The hosts' TCP counters summed, for the results. */
static void tcp_results(struct run *r, struct ibfs_results *res)
{
	const struct ibfs_topology *t = r->sc->topo;

	res->tcp = 1;
	for (size_t i = 0; i < t->nnodes; i++) {
		struct ibfs_tcp_host *h = ibfs__tcp_host_of_node(r->fab, (int)i);
		struct ibfs_tcp_host_stats st;

		if (!h)
			continue;
		ibfs__tcp_host_stats(h, &st);
		res->tcp_retransmits += st.retransmits;
		res->tcp_timeouts += st.timeouts;
		res->tcp_fast_retransmits += st.fast_retransmits;
	}
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
	int rc = r->tt ? tcp_run(r) : ibfs__bridge_run(r->as.bridge);
	memset(res, 0, sizeof(*res));
	res->sc = sc;
	res->fab = r->fab;
	res->seed = o->seed;
	res->routing = r->as.engine;
	if (r->as.eth)
		roce_ignored(sc, res->eth_ignored, sizeof(res->eth_ignored));
	if (r->tt)
		tcp_results(r, res);
	if (r->as.sn && r->as.sn->fallback[0])
		res->routing_fallback = r->as.sn->fallback;
	if (r->as.sm) {
		res->sm_inband = 1;
		ibfs__sm_stats(r->as.sm, &res->sm);
		/* The engine the SM's last sweep routed with. */
		if (res->sm.engine[0])
			res->routing = res->sm.engine;
		if (res->sm.fallback[0])
			res->routing_fallback = res->sm.fallback;
		res->sm_first_sweep = r->up ? r->first_sweep : res->sm.sweep;
		res->sm_first_smps = r->up ? r->first_smps : res->sm.sent;
		res->sm_first_lft_blocks =
			r->up ? r->first_lft_blocks : res->sm.lft_blocks;
		res->sm_first_pkey_blocks =
			r->up ? r->first_pkey_blocks : res->sm.pkey_blocks;
		/* After a fault: from the first fault to the end of the
		 * re-sweep that reprogrammed the fabric around it. */
		ibfs_time_t first_fault = IBFS_TIME_NEVER;
		for (size_t i = 0; i < sc->nfaults; i++)
			if (sc->faults[i].at < first_fault)
				first_fault = sc->faults[i].at;
		if (r->up && res->sm.traps && first_fault != IBFS_TIME_NEVER &&
		    res->sm.up > r->up_at + first_fault)
			res->sm_reroute = res->sm.up - (r->up_at + first_fault);
		if (res->sm_reroute)
			res->no_route = outages(r, r->up_at + first_fault);
	}
	res->wall_s = wall_seconds() - t0;
	res->sim_time = r->fab->eq.now; /* refined below */
	res->events = r->fab->eq.executed;
	res->cleanup = results_cleanup;
	res->cleanup_arg = r;
	res->base = r->up_at;
	if (ibfs__traffic_mc_drain(r->traffic) < 0 ||
	    ibfs__traffic_collect(r->traffic, res) < 0 ||
	    (r->mj && ibfs__mjoins_collect(r->mj, res) < 0))
		return ibfs__diag(d, sc->file, 0, "out of memory");
	ibfs__progress_end(r->progress);
	r->progress = NULL;
	if (r->cap) {
		struct ibfs_capture *c = r->cap;
		r->cap = NULL;
		if (ibfs__capture_close(c) < 0)
			return ibfs__diag(d, o->pcap, 0,
					  "cannot write the capture");
	}
	static const struct ibfs_deadlock none;
	const struct ibfs_deadlock *v =
		r->as.monitor ? ibfs__deadlock_verdict(r->as.monitor) : &none;
	if (r->as.eth_monitor)
		v = ibfs__eth_deadlock_verdict(r->as.eth_monitor);
	if (v->deadlock) {
		res->deadlock = 1;
		ibfs__deadlock_format(r->fab, v, res->deadlock_cycle,
				      sizeof(res->deadlock_cycle));
	}
	/*
	 * The simulated time of the run: a stop's or a deadlock's time, else
	 * the last completion (the fabric may have run idle timers past it).
	 */
	if (v->deadlock) {
		res->sim_time = v->at;
	} else if (rc != 1 && res->nmsgs) {
		res->sim_time = 0;
		for (size_t i = 0; i < res->nmsgs; i++)
			if (res->msgs[i].status >= 0 &&
			    res->msgs[i].done > res->sim_time)
				res->sim_time = res->msgs[i].done;
	}
	if (finish_sampler(r, o, res, d) < 0)
		return -1;
	if (r->trace) {
		struct ibfs_trace *t = r->trace;
		r->trace = NULL;
		if (ibfs__trace_close(t) < 0)
			return ibfs__diag(d, o->trace, 0,
					  "cannot write the timeline");
	}
	/* IBA: packets injected = delivered + in flight; credits balance. */
	res->conserved = ibfs__fabric_check(r->fab, res->conservation,
					    sizeof(res->conservation)) == 0;
	/* Messages cut short by a stop time are incomplete, not failed. */
	int failed = res->deadlock || (rc < 0) || !res->conserved ||
		     r->fab->eq.nomem ||
		     r->timed_failed ||
		     r->spawn_failed || ibfs__traffic_setup_failed(r->traffic) ||
		     (res->sm_inband && res->sm.state < 0);
	for (size_t i = 0; i < res->nmsgs; i++)
		failed |= res->msgs[i].status > 0;
	return failed ? 1 : 0;
}
