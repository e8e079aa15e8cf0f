/* SPDX-License-Identifier: MIT */
/*
 * Assembling a simulation from a topology, bottom up: the runtime fabric,
 * a switch device on every switch node, the SimGrid bridge (one host per
 * HCA), an HCA device on every HCA node served by the bridge, then LIDs and
 * forwarding tables from a routing engine, and the deadlock monitor. Used
 * by `ibfsim run` and by the public ibfs_simulation_* calls.
 */
#ifndef IBFS_SCENARIO_ASSEMBLE_H
#define IBFS_SCENARIO_ASSEMBLE_H

#include "bridge/bridge.h"
#include "fabric/fabric.h"
#include "subnet_manager/cc_config.h"
#include "subnet_manager/qos.h"
#include "scenario/scenario.h"
#include "host/tcp_host.h"
#include "switch/eth_deadlock.h"
#include "switch/eth_routes.h"
#include "switch/eth_switch.h"
#include "switch/switch.h"

struct ibfs_assembly {
	const struct ibfs_topology *topo;
	struct ibfs_fabric *fab;
	struct ibfs_bridge *bridge;
	struct ibfs_deadlock_monitor *monitor;
	char engine[16];        /* the engine that built the tables */
	struct ibfs_sm *sm;     /* the in-band SM, or NULL */
	struct ibfs_subnet *sn; /* instant mode: the routed subnet */
	/* An Ethernet fabric (assemble_eth.c): its hosts and ECMP tables. */
	int eth;
	struct ibfs_eth_hosts eth_hosts;
	struct ibfs_eth_routes *eth_routes; /* [node] */
	/* Its PFC deadlock monitor (monitor stays NULL). */
	struct ibfs_eth_deadlock_monitor *eth_monitor;
};

/*
 * The SL for a path (what the SA answers a PathRecord query with): the
 * engine's choice, e.g. dfsssp's layer; 0 before the fabric is up.
 */
uint8_t ibfs__assembly_path_sl(const struct ibfs_assembly *a, uint16_t slid,
			       uint16_t dlid);

struct ibfs_assembly_opts {
	uint64_t seed;
	int data;               /* 1: memory regions move real bytes */
	const char *routing;    /* OpenSM engine name; NULL: minhop */
	const char *lfts;       /* the file engine's opensm-lfts.dump */
	int lmc;
	const struct ibfs_qos *qos;   /* NULL or not given: no QoS */
	/* NULL or not enabled: no congestion control (set at time 0). */
	const struct ibfs_cc_config *cc;
	/* Partitions (borrowed); NULL: OpenSM's default. */
	const struct ibfs_partitions *partitions;
	/* Multicast groups the SM creates at bring-up (borrowed). */
	const struct ibfs_mcast_group *groups;
	int ngroups;
	ibfs_time_t deadlock_timeout; /* 0: the default (50 us) */
	/*
	 * In-band: the subnet manager runs on HCA sm_node and programs the
	 * fabric with SMPs that take simulated time; up(up_ctx, t) is called
	 * when the fabric is up. Otherwise the tables are written at once.
	 */
	int inband;
	int sm_node;
	void (*up)(void *ctx, ibfs_time_t t);
	void *up_ctx;
	/*
	 * roce: the topology as an Ethernet fabric of RoCEv2 RNICs
	 * (assemble_eth.c) with these settings (NULL: the defaults); the
	 * subnet manager's options above then do not apply.
	 */
	int roce;
	const struct ibfs_sc_eth *eth;
	/*
	 * tcp (with roce): every HCA a host with a kernel TCP/IP stack
	 * (host/tcp_host.h) instead of an RNIC, whose applications are
	 * tcp_app with tcp_ctx.
	 */
	int tcp;
	const struct ibfs_tcp_app_ops *tcp_app;
	void *tcp_ctx;
};

/*
 * Builds everything for topology t (kept by reference). SimGrid must have
 * been initialised (ibfs__bridge_init). Returns 0, or -1 with d filled and
 * nothing left allocated.
 */
int ibfs__assemble(struct ibfs_assembly *a, const struct ibfs_topology *t,
		   const struct ibfs_assembly_opts *o, struct ibfs_diag *d);
void ibfs__assembly_free(struct ibfs_assembly *a);

/* The Ethernet half of ibfs__assemble and ibfs__assembly_free. */
int ibfs__assemble_eth(struct ibfs_assembly *a,
		       const struct ibfs_assembly_opts *o, struct ibfs_diag *d);
void ibfs__assembly_eth_free(struct ibfs_assembly *a);

#endif
