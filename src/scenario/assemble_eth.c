/* SPDX-License-Identifier: MIT */
/*
 * Assembling the same topology as an Ethernet fabric for RoCEv2 (see
 * assemble.h, `--model roce`): every link Ethernet of the link's data rate
 * with PFC as its flow control (fabric/pfc.h), every switch an Ethernet
 * switch (switch/eth_switch.h) forwarding by ECMP over shortest paths
 * computed from the topology (switch/eth_routes.h, no subnet manager),
 * and every HCA a RoCEv2 RNIC (hca/hca.h, ibfs__hca_set_link) that keeps
 * its timing profile and is addressed by its host id, or under tcp a host
 * with a kernel TCP/IP stack (host/tcp_host.h) addressed the same way. A
 * PFC deadlock monitor (switch/eth_deadlock.h) watches it as InfiniBand's
 * credit-loop monitor watches an InfiniBand fabric; the runner reports its
 * verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/pfc.h"
#include "hca/cc_hpcc.h"
#include "hca/cc_roce.h"
#include "hca/hca.h"
#include "scenario/assemble.h"
#include "scenario/eth_base_rtt.h"
#include "switch/eth_ecn.h"
#include "switch/eth_int.h"

/*
 * Frames held in the switches and none starting on any link for this long
 * is a PFC deadlock: InfiniBand's default (assemble.c). A switch with a
 * frame for an egress that is not paused starts it at once, and a frame
 * of the 9,216-byte MTU takes 7.4 us at 10 Gb/s, so a live fabric does
 * not stay quiet that long; pauses end by XON, not by waiting.
 */
#define ETH_DEADLOCK_TIMEOUT (50 * IBFS_US)

/* The switches' profile, with the run's PFC and ECMP choices. */
static int eth_profile(const struct ibfs_assembly_opts *o,
		       struct ibfs_eth_profile *p, struct ibfs_diag *d,
		       const char *file)
{
	const char *name = o->eth && o->eth->switch_profile ?
				   o->eth->switch_profile : "generic-100g";
	const struct ibfs_eth_profile *base = ibfs__eth_profile(name);

	if (!base)
		return ibfs__diag(d, file, 0, "unknown switch profile '%s'",
				  name);
	*p = *base;
	/* pfc="on": the priorities the traffic uses lossless (every one
	 * without settings); "off": none, the switches drop. */
	p->lossless = !o->eth ? 0xFF : !o->eth->pfc ? 0 :
		      o->eth->lossless ? o->eth->lossless : 0xFF;
	p->pick = o->eth ? (enum ibfs_eth_pick)o->eth->pick :
			   IBFS_ETH_PICK_HASH;
	return 0;
}

/*
 * Switch n's copy of the run's profile with the fabric's settings of that
 * switch (fabric/topology.h): its latency when the file gave one, its
 * shared-buffer, its lossy alpha and store-and-forward. The headroom the
 * switch computes follows its own latency (ibfs__eth_headroom).
 */
static void eth_switch_profile(const struct ibfs_eth_profile *base,
			       const struct ibfs_topo_node *n,
			       struct ibfs_eth_profile *p)
{
	*p = *base;
	if (n->latency_set)
		p->latency = n->latency;
	if (n->eth_buffer)
		p->buffer = n->eth_buffer;
	if (n->alpha_den) {
		p->alpha_num = n->alpha_num;
		p->alpha_den = n->alpha_den;
	}
	if (n->store_forward)
		p->store_forward = 1;
}

/*
 * Builds switch i; a refusal (a buffer that cannot hold the reserves and
 * headroom) is told with the fabric file, the switch's line and its id.
 */
static int eth_switch(struct ibfs_assembly *a, int i,
		      const struct ibfs_eth_profile *base, struct ibfs_diag *d)
{
	const struct ibfs_topology *t = a->topo;
	const struct ibfs_topo_node *n = &t->nodes[i];
	struct ibfs_eth_profile p;
	struct ibfs_diag why = {{0}};

	eth_switch_profile(base, n, &p);
	if (ibfs__eth_switch_create(a->fab, i, &p, &a->eth_routes[i], &why))
		return 0;
	if (n->eth_buffer)
		return ibfs__diag(d, t->file, n->line, "switch '%s' "
				  "(shared-buffer %llu bytes): %s", n->id,
				  (unsigned long long)n->eth_buffer, why.msg);
	return ibfs__diag(d, t->file, n->line, "switch '%s': %s", n->id,
			  why.msg);
}

/* <ecn>: switch i marks as the scenario says, from its own stream. */
static void eth_ecn(struct ibfs_assembly *a, int i,
		    const struct ibfs_assembly_opts *o)
{
	const struct ibfs_sc_ecn *s = o->eth ? &o->eth->ecn : NULL;

	if (!s || !s->line)
		return;
	struct ibfs_eth_ecn e = {
		.kmin = s->kmin, .kmax = s->kmax, .pmax = s->pmax,
		.at = s->enqueue ? IBFS_ETH_ECN_ENQUEUE : IBFS_ETH_ECN_DEQUEUE,
		.prios = s->prios,
	};

	ibfs__eth_switch_set_ecn(ibfs__eth_switch_of(a->fab->devices[i]), &e,
				 o->seed);
}

static int eth_switches(struct ibfs_assembly *a,
			const struct ibfs_assembly_opts *o,
			const struct ibfs_eth_profile *prof,
			struct ibfs_diag *d)
{
	const struct ibfs_topology *t = a->topo;

	a->eth_routes = calloc(t->nnodes ? t->nnodes : 1,
			       sizeof(*a->eth_routes));
	if (!a->eth_routes)
		return ibfs__diag(d, t->file, 0, "out of memory");
	if (ibfs__eth_routes_build(t, (uint32_t)o->seed, a->eth_routes,
				   d) < 0) {
		free(a->eth_routes);
		a->eth_routes = NULL;
		return -1;
	}
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].type == IBFS_NODE_SWITCH) {
			if (eth_switch(a, (int)i, prof, d) < 0)
				return -1;
			eth_ecn(a, (int)i, o);
			/* HPCC reads the switches' telemetry (eth_int.c). */
			if (o->eth && o->eth->cc.algo == &ibfs__cc_hpcc &&
			    ibfs__eth_switch_set_int(ibfs__eth_switch_of(
					a->fab->devices[i]), 1) < 0)
				return ibfs__diag(d, t->file, 0,
						  "out of memory");
		}
	return 0;
}

/* Each RNIC port: its host id, and PFC on its link as the switch's. */
static int eth_rnic(struct ibfs_assembly *a, struct ibfs_hca *h, int node,
		    const struct ibfs_assembly_opts *o,
		    const struct ibfs_cc_cfg *cc, uint8_t lossless,
		    struct ibfs_diag *d)
{
	const struct ibfs_topology *t = a->topo;
	int vlan = o->eth && o->eth->pcp, ipv6 = o->eth && o->eth->ipv6;

	if (ibfs__hca_set_link(h, IBFS_HCA_LINK_ROCE, vlan, ipv6) < 0)
		return ibfs__diag(d, t->file, 0, "cannot make HCA '%s' a "
				  "RoCEv2 RNIC", t->nodes[node].id);
	/* IRN's selective repeat (src/hca/rc_irn.c) in place of go-back-N. */
	if (o->eth && o->eth->irn) {
		struct ibfs_hca_irn_cfg irn = {
			.rto_low = IBFS_IRN_RTO_LOW,
			.rto_high = IBFS_IRN_RTO_HIGH,
			.rto_n = IBFS_IRN_RTO_N, .base_rtt = o->eth->irn_rtt,
		};

		if (ibfs__hca_set_recovery(h, IBFS_HCA_RECOVERY_IRN, &irn) < 0)
			return ibfs__diag(d, t->file, 0, "HCA '%s': cannot "
					  "set IRN loss recovery",
					  t->nodes[node].id);
	}
	/* Its congestion control (hca/cc_roce.h; none: no control). */
	if (o->eth && ibfs__hca_cc_roce_install(h, cc) < 0)
		return ibfs__diag(d, t->file, 0, "HCA '%s': cannot install "
				  "congestion control '%s'", t->nodes[node].id,
				  o->eth->cc.algo->name);
	for (int p = 1; p <= t->nodes[node].nports; p++) {
		uint32_t id = ibfs__eth_host_id(&a->eth_hosts, t, node, p);
		struct ibfs_port *port = &a->fab->ports[node][p];

		if (ibfs__hca_set_host_id(h, p, (uint16_t)id) < 0)
			return ibfs__diag(d, t->file, 0, "HCA '%s' port %d: "
					  "host id %u is beyond RoCE's range "
					  "of this model (1-49151)",
					  t->nodes[node].id, p, id);
		if (port->peer && ibfs__pfc_attach(port, lossless, 0) < 0)
			return ibfs__diag(d, t->file, 0, "out of memory");
	}
	return 0;
}

/*
 * Under tcp: a host with a kernel TCP/IP stack, its NIC on port 1 with
 * that port's host id, its frames on priority 0, and PFC on its links as
 * the switch's (off unless the scenario turns it on).
 */
static int eth_tcp_host(struct ibfs_assembly *a, int node,
			const struct ibfs_assembly_opts *o, uint8_t lossless,
			struct ibfs_diag *d)
{
	const struct ibfs_topology *t = a->topo;
	uint32_t id = ibfs__eth_host_id(&a->eth_hosts, t, node, 1);

	if (id > 0xBFFF)
		return ibfs__diag(d, t->file, 0, "host '%s': host id %u is "
				  "beyond this model's range (1-49151)",
				  t->nodes[node].id, id);
	if (!ibfs__tcp_host_create(a->fab, node, (uint16_t)id, 0, o->tcp_app,
				   o->tcp_ctx))
		return ibfs__diag(d, t->file, 0, "out of memory");
	for (int p = 1; p <= t->nodes[node].nports; p++) {
		struct ibfs_port *port = &a->fab->ports[node][p];

		if (port->peer && ibfs__pfc_attach(port, lossless, 0) < 0)
			return ibfs__diag(d, t->file, 0, "out of memory");
	}
	return 0;
}

int ibfs__assemble_eth(struct ibfs_assembly *a,
		       const struct ibfs_assembly_opts *o, struct ibfs_diag *d)
{
	const struct ibfs_topology *t = a->topo;
	struct ibfs_exec exec = ibfs__bridge_exec(a->bridge);
	struct ibfs_eth_profile prof;

	a->eth = 1;
	if (eth_profile(o, &prof, d, t->file) < 0 ||
	    ibfs__eth_hosts_init(&a->eth_hosts, t, d) < 0 ||
	    eth_switches(a, o, &prof, d) < 0)
		return -1;
	struct ibfs_cc_cfg cc = {0};

	if (o->eth)
		cc = o->eth->cc;
	/* HPCC's base-rtt 0: the fabric's longest path's (eth_base_rtt.c). */
	if (o->eth && cc.algo == &ibfs__cc_hpcc && !cc.v[IBFS_HPCC_BASE_RTT])
		cc.v[IBFS_HPCC_BASE_RTT] = (double)ibfs__eth_base_rtt(t, &prof);
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct ibfs_topo_node *n = &t->nodes[i];
		struct ibfs_hca *h;

		if (n->type == IBFS_NODE_SWITCH)
			continue;
		if (o->tcp) {
			if (eth_tcp_host(a, (int)i, o, prof.lossless, d) < 0)
				return -1;
			continue;
		}
		h = ibfs__hca_create(a->fab, (int)i, n->profile, exec, d);
		if (!h || eth_rnic(a, h, (int)i, o, &cc, prof.lossless, d) < 0)
			return -1;
	}
	a->eth_monitor = ibfs__eth_deadlock_monitor_new(
		a->fab, o->deadlock_timeout ? o->deadlock_timeout
					    : ETH_DEADLOCK_TIMEOUT);
	if (!a->eth_monitor)
		return ibfs__diag(d, t->file, 0, "out of memory");
	snprintf(a->engine, sizeof(a->engine), "ecmp");
	return 0;
}

void ibfs__assembly_eth_free(struct ibfs_assembly *a)
{
	const struct ibfs_topology *t = a->topo;

	ibfs__eth_deadlock_monitor_free(a->eth_monitor);
	a->eth_monitor = NULL;
	for (size_t i = 0; a->fab && i < t->nnodes; i++) {
		struct ibfs_device *dev = a->fab->devices[i];

		if (dev && t->nodes[i].type == IBFS_NODE_SWITCH)
			ibfs__eth_switch_destroy(ibfs__eth_switch_of(dev));
		else if (ibfs__tcp_host_of_node(a->fab, (int)i))
			ibfs__tcp_host_free(
				ibfs__tcp_host_of_node(a->fab, (int)i));
		else if (dev)
			ibfs__hca_free(ibfs__hca_of_node(a->fab, (int)i));
		for (int p = 0; a->fab->ports[i] && p <= t->nodes[i].nports;
		     p++)
			if (ibfs__pfc_of(&a->fab->ports[i][p]))
				ibfs__pfc_detach(&a->fab->ports[i][p]);
	}
	if (a->eth_routes)
		ibfs__eth_routes_free(a->eth_routes, t->nnodes);
	free(a->eth_routes);
	ibfs__eth_hosts_free(&a->eth_hosts);
}
