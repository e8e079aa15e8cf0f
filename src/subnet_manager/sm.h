/* SPDX-License-Identifier: MIT */
/*
 * The in-band subnet manager. It runs on an HCA port of a fabric whose
 * devices (switches, HCAs) are attached, as events of the fabric's queue
 * (no SimGrid): it puts an agent on every device (sma.h), discovers the
 * subnet with directed-route SMPs, assigns LIDs and routes it with the
 * offline machinery (subnet.h, routing.h), programs every device with
 * SubnSet and brings the ports to Active. Every SMP is a packet on VL15
 * crossing the simulated links and switches, so the time the sweep takes
 * comes out of the model; the SM reports it, with counts of SMPs.
 *
 * Use: sm = ibfs__sm_start(...) at the fabric's current time, run the event
 * queue; `up` is called when every port is Active. ibfs__sm_free detaches
 * the agents and frees everything.
 */
#ifndef IBFS_SM_SM_H
#define IBFS_SM_SM_H

#include <stdint.h>

#include "fabric/diag.h"
#include "fabric/fabric.h"
#include "subnet_manager/routing.h"
#include "subnet_manager/subnet.h"

/*
 * SMPs the SM keeps outstanding at once: OpenSM's default max_wire_smps
 * is 4 (opensm.conf, "max_wire_smps 4").
 */
#define IBFS_SM_MAX_WIRE_SMPS 4
/*
 * An SMP without an answer is sent again after 200 ms, at most 3 times,
 * then given up: OpenSM's defaults (transaction_timeout 200 ms,
 * transaction_retries 3). Discovery goes on without what it would have
 * found; a Set given up counts as an error.
 */
#define IBFS_SM_TRANS_TIMEOUT (200 * IBFS_MS)
#define IBFS_SM_TRANS_RETRIES 3

struct ibfs_sm;

/*
 * SMP requests counted by attribute: IDs 0x10 (NodeDescription) to
 * 0x2F, the SM's attributes (IBA 14.2.5, Table 145 in 1.2.1).
 */
#define IBFS_SM_ATTR_BASE 0x10
#define IBFS_SM_ATTR_SLOTS 32

/* What the sweep did (ibfs__sm_stats). */
struct ibfs_sm_stats {
	int state;              /* 0 sweeping, 1 up, -1 failed */
	ibfs_time_t start;      /* when the SM started */
	ibfs_time_t discovered; /* last discovery response */
	ibfs_time_t up;         /* last PortState Active response */
	ibfs_time_t sweep;      /* up - start */
	uint64_t sent;          /* SMP requests the SM sent */
	uint64_t received;      /* responses it received */
	uint64_t disc_sent;     /* of the requests: discovery (Get) */
	uint64_t cfg_sent;      /* configuration (Set) */
	uint64_t lft_blocks;    /* LinearForwardingTable blocks set */
	uint64_t pkey_blocks;   /* P_KeyTable blocks set */
	uint64_t mft_blocks;    /* MulticastForwardingTable blocks set */
	/* Requests sent (retries too, as OpenSM's log shows them), by
	 * method [0] Get, [1] Set, and attribute ID - IBFS_SM_ATTR_BASE. */
	uint32_t by_attr[2][IBFS_SM_ATTR_SLOTS];
	/* Of the PortInfo Sets: those with SMSupportExtendedSpeeds (mad.h). */
	uint32_t pi_ext_sets;
	uint64_t errors;        /* responses with a non-zero status */
	/* The agents' counters, all sweeps together (sma.h). */
	uint64_t agent_answered, agent_relayed, agent_discarded;
	uint64_t traps;         /* traps received, all sweeps together */
	uint64_t retries;       /* SMPs sent again after a timeout */
	uint64_t timeouts;      /* SMPs given up after the last retry */
	int sm_node, sm_port;   /* where the SM runs */
	int nodes, switches, cas, links;
	unsigned max_lid;
	char engine[16];        /* engine whose tables were programmed */
	char fallback[200];     /* why not the engine asked for ("" if it) */
	char error[256];        /* why the sweep failed */
};

/*
 * Starts the SM on HCA node `sm_node` (its first linked port) at the
 * fabric's current time, routing with `engine` (OpenSM's names) and LID
 * mask control `lmc`. up(ctx, t) is called at the simulated time t the
 * last port became Active. Returns NULL with d filled on bad input
 * (not an HCA, no linked port, unknown engine, LMC out of 0..7).
 */
struct ibfs_sm *ibfs__sm_start(struct ibfs_fabric *f, int sm_node,
			       const char *engine, int lmc,
			       void (*up)(void *ctx, ibfs_time_t t), void *ctx,
			       struct ibfs_diag *d);
/*
 * QoS settings (qos.h) for every sweep from the first: the SL-to-VL table
 * for switch and HCA ports, the VL arbitration tables and
 * LimitOfHighPriority for switch outputs. Call before the queue runs.
 */
struct ibfs_qos;
void ibfs__sm_set_qos(struct ibfs_sm *sm, const struct ibfs_qos *q);
/*
 * Partitions (partitions.h, borrowed: keep pp until ibfs__sm_free) to
 * program into the P_Key tables; without, OpenSM's default (every end
 * port a full member of 0x7fff). Call before the queue runs.
 */
struct ibfs_partitions;
void ibfs__sm_set_partitions(struct ibfs_sm *sm,
			     const struct ibfs_partitions *pp);

/*
 * Multicast groups (mcast.h; copied, but the ids are borrowed: keep them
 * until ibfs__sm_free) the SM builds a spanning tree for and programs
 * into the switches' MFTs on every sweep, as if their members' SA joins
 * had arrived before it. Call before the queue runs; -1 out of memory.
 * Joins and leaves at run time go through the SA (sa.c) on the SM's port.
 */
struct ibfs_mcast_group;
int ibfs__sm_set_mcast(struct ibfs_sm *sm, const struct ibfs_mcast_group *g,
		       int ngroups);
/*
 * Multicast membership changes made by the SA at run time (sa_mcmember.c),
 * as an observer hears them: a join or leave processed (its node, port,
 * the group's MLID and MGID, the SA status it was answered with), and
 * IBFS_SM_MC_PROGRAMMED when every MFT block the changes so far needed
 * has been acknowledged by its switch (at once when none was needed).
 */
enum ibfs_sm_mc_kind {
	IBFS_SM_MC_JOIN, IBFS_SM_MC_LEAVE, IBFS_SM_MC_PROGRAMMED,
};
struct ibfs_sm_mc_event {
	enum ibfs_sm_mc_kind kind;
	int node, port;           /* topology node and port (join, leave) */
	uint16_t mlid, status;
	uint8_t join_state;
	uint8_t mgid[16];
	ibfs_time_t at;
};
typedef void (*ibfs_sm_mcast_fn)(void *ctx, const struct ibfs_sm_mc_event *e);
void ibfs__sm_set_mcast_observer(struct ibfs_sm *sm, ibfs_sm_mcast_fn fn,
				 void *ctx);
/* The SM's groups as they are now (joins and leaves included). */
const struct ibfs_mcast_group *ibfs__sm_groups(const struct ibfs_sm *sm,
					       int *ngroups);
/* SA requests answered and MFT blocks sent for run-time changes. */
struct ibfs_sa_stats {
	uint64_t requests, answered, errors, mft_blocks;
};
void ibfs__sm_sa_stats(const struct ibfs_sm *sm, struct ibfs_sa_stats *st);

/* SMPs kept outstanding (1..64); call before the queue runs. */
void ibfs__sm_set_max_wire(struct ibfs_sm *sm, int n);
/* Options of the routing engine (copied; its strings are borrowed). */
void ibfs__sm_set_routing_opts(struct ibfs_sm *sm,
			       const struct ibfs_routing_opts *o);
void ibfs__sm_free(struct ibfs_sm *sm);
void ibfs__sm_stats(const struct ibfs_sm *sm, struct ibfs_sm_stats *st);
/*
 * The subnet as discovered, with LIDs and the tables programmed (nodes in
 * the topology's order, see sm.c); NULL before routing.
 */
const struct ibfs_subnet *ibfs__sm_subnet(const struct ibfs_sm *sm);
/* PortState of a port as its agent holds it (enum ibfs_port_state). */
int ibfs__sm_port_state(const struct ibfs_sm *sm, int node, int port);
/*
 * Routes later sweeps with another engine. Returns 0, or -1 for an
 * unknown name (the engine stays as it was).
 */
int ibfs__sm_set_engine(struct ibfs_sm *sm, const char *engine);
/*
 * Asks for a new sweep (what a trap such as PortStateChange will do):
 * rediscovers, reroutes and sends only the LFT blocks that differ from
 * what the switches hold. Returns 0, or -1 while a sweep is running.
 */
int ibfs__sm_resweep(struct ibfs_sm *sm);
/*
 * Tells the agent of `node` that the link of `port` went down or came up
 * (what a fault does): its PortState becomes Down or Init and a switch
 * sends trap 128 (link state change) to the SM's LID, on which the SM
 * sweeps again. LIDs stay as they were; only changed LFT blocks are sent.
 */
void ibfs__sm_port_changed(struct ibfs_sm *sm, int node, int port);
/*
 * The last time a re-sweep changed some switch's forwarding entry for
 * `lid` (when that switch acknowledged the new block), 0 if no re-sweep
 * ever changed it: after a fault, the end of that destination's outage
 * as far as routing goes.
 */
ibfs_time_t ibfs__sm_lid_rerouted(const struct ibfs_sm *sm, unsigned lid);

#endif
