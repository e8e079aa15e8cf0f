/* SPDX-License-Identifier: MIT */
/*
 * The subnet management agents' state, shared by the agents' transport
 * (sma.c: SMPs in, relayed and answered) and their attributes
 * (sma_attrs.c: what a Get reads and a Set writes).
 */
#ifndef IBFS_SMA_INT_H
#define IBFS_SMA_INT_H

#include "subnet_manager/mad.h"
#include "subnet_manager/mcast.h"
#include "subnet_manager/sma.h"
#include "switch/switch.h"

struct sma_txq {
	struct ibfs_packet *head, *tail;
	struct ibfs_event *retry;
};

struct sma_node {
	struct ibfs_sma *a;
	int node, nports;
	struct ibfs_switch *sw;
	struct ibfs_hca *hca;
	uint8_t *state;         /* [nports + 1] PortState */
	/*
	 * [nports + 1] what a PortInfo Set stored and nothing else reads:
	 * NeighborMTU (the data plane runs at the fabric's MTU whatever it
	 * holds) and SubnetTimeOut (the SA clients' timeouts are not
	 * modelled), GidPrefix (the HCAs' GIDs are link-local, sa_mad.h).
	 * A switch's are in its port 0's, but for NeighborMTU.
	 */
	struct sma_pparam {
		uint64_t gid_prefix;
		uint8_t nbr_mtu, timeout;
	} *pp;
	uint16_t sm_lid;
	uint8_t lmc;            /* switch port 0 */
	uint16_t lft_top;
	uint16_t mft_top;       /* SwitchInfo MulticastFDBTop, as set */
	uint8_t psc;            /* SwitchInfo PortStateChange */
	uint8_t sl2vl[16];
	/* [nports + 1]: each switch output's or HCA port's VL arbitration
	 * tables (IBA 7.6.9) and PortInfo VLHighLimit (limit); entries past
	 * the last with a weight are zero, their state fields unused. */
	struct ibfs_vlarb *arb;
	struct sma_txq *txq;    /* switches: [nports + 1] */
	ibfs_sma_sm_fn sm_fn;   /* the SM on this node, if any */
	void *sm_ctx;
	int sm_port;
};

struct ibfs_sma {
	struct ibfs_fabric *f;
	int nnodes;
	struct sma_node *nodes;
	struct ibfs_sma_stats st;
	/* Told of every link going down or up (a fault): see port_state. */
	struct ibfs_port_listener listener;
};

/* Answers request s that arrived on in_port; s becomes the response. */
void ibfs__sma_process(struct sma_node *n, struct ibfs_smp *s, int in_port);

#endif
