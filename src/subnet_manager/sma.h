/* SPDX-License-Identifier: MIT */
/*
 * Subnet management agents (SMAs, IBA 14.2): one on every switch (behind
 * its management port 0) and one on every HCA (QP0). An agent answers the
 * SMPs addressed to its node after a processing time, applies SubnSet to
 * the device through its setters, and relays directed-route SMPs along
 * their path (switches only, IBA 14.2.2). The SM on an HCA sends through
 * ibfs__sma_send and receives the responses that come back to its node.
 */
#ifndef IBFS_SM_SMA_H
#define IBFS_SM_SMA_H

#include "fabric/diag.h"
#include "fabric/fabric.h"
#include "subnet_manager/mad.h"

/*
 * Time an agent takes to answer one SMP (Get or Set), from the arrival of
 * its tail to the response leaving: 1 us. A guess of the order of
 * magnitude of embedded management firmware handling one MAD; no
 * published per-MAD figure was found to cite.
 */
#define IBFS_SMA_PROC_TIME (1 * IBFS_US)
/*
 * Time a switch's agent takes to relay a directed-route SMP to its next
 * hop (update the hop pointer and the return path): 200 ns. Also a guess,
 * below the answer time since the attribute is not touched.
 */
#define IBFS_SMA_RELAY_TIME (200 * IBFS_NS)

struct ibfs_sma;

/* What arrives for the SM on its node: a response or a trap, decoded. */
typedef void (*ibfs_sma_sm_fn)(void *ctx, const struct ibfs_smp *s);

/* Counters of all agents together. */
struct ibfs_sma_stats {
	uint64_t answered;  /* requests answered (Get and Set) */
	uint64_t sets;      /* of which Sets */
	uint64_t relayed;   /* directed-route hops relayed by switches */
	uint64_t to_sm;     /* responses handed to the SM */
	uint64_t discarded; /* SMPs dropped: bad path, undecodable */
	uint64_t errors;    /* responses with a non-zero status */
	uint64_t traps;     /* traps sent */
};

/*
 * Puts an agent on every device attached to f (switches and HCAs; other
 * nodes are left alone). Returns NULL with d filled on out of memory.
 */
struct ibfs_sma *ibfs__sma_new(struct ibfs_fabric *f, struct ibfs_diag *d);
/* Detaches the agents from their devices and frees them. */
void ibfs__sma_free(struct ibfs_sma *a);
/*
 * Responses and traps reaching HCA node `node` go to fn; the SM there
 * uses port `port` (what the node's agent reports as the local port of
 * SMPs with no hops).
 */
void ibfs__sma_set_sm(struct ibfs_sma *a, int node, int port,
		      ibfs_sma_sm_fn fn, void *ctx);
/*
 * The SM on node `node` sends s: hop count 0 goes to the node's own agent
 * (no wire), else out of InitialPath[1]. Returns 0, or -1 (no agent on
 * that node, bad first port, packet pool exhausted).
 */
int ibfs__sma_send(struct ibfs_sma *a, int node, const struct ibfs_smp *s);
/*
 * The link of node:port went down or came up: the agent sets PortState to
 * Down or Init and, on a switch that knows its SM's LID, sets
 * PortStateChange and sends trap 128 (IBA 14.2.5.1) to the SM, LID-routed
 * through the LFTs. The trap is sent once (no TrapRepress handshake yet):
 * if its route crosses the failed link it is lost.
 */
void ibfs__sma_port_changed(struct ibfs_sma *a, int node, int port);
/* PortState the agent of node holds for port (enum ibfs_port_state). */
int ibfs__sma_port_state(const struct ibfs_sma *a, int node, int port);
void ibfs__sma_stats(const struct ibfs_sma *a, struct ibfs_sma_stats *st);

#endif
