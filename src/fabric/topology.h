/* SPDX-License-Identifier: MIT */
/*
 * The static description of a fabric: nodes (HCAs and switches), their
 * ports, and the links between ports, as loaded from a fabric XML file,
 * generated, or imported from an ibnetdiscover/.net file. Nothing here
 * moves packets: the runtime (fabric.h) is built from a topology.
 *
 * Ports are numbered from 1 as in the IBA; a switch's port 0 is its
 * management port and has no link. Node indices are dense from 0.
 */
#ifndef IBFS_FABRIC_TOPOLOGY_H
#define IBFS_FABRIC_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/diag.h"
#include "fabric/link_rate.h"
#include "fabric/time.h"

enum ibfs_node_type { IBFS_NODE_HCA = 1, IBFS_NODE_SWITCH = 2 };

struct ibfs_topo_port {
	int peer_node;  /* -1 when the port has no link */
	int peer_port;
	int link;       /* index into topo->links, -1 when none */
	uint64_t guid;  /* port GUID (switch ports share the node GUID) */
};

struct ibfs_topo_node {
	char *id;               /* unique name, e.g. "leaf1" */
	char *desc;             /* NodeDescription; defaults to id */
	enum ibfs_node_type type;
	int nports;
	uint64_t guid;          /* node GUID */
	ibfs_time_t latency;    /* switch: routing latency (default 100 ns) */
	/* The file gave latency (here or in <defaults>): under roce it then
	 * replaces the Ethernet profile's port-to-port latency. */
	int latency_set;
	/* InfiniBand: input buffer of one port, bytes (not used under roce) */
	uint64_t buffer;
	int store_forward;      /* switch: 1 = store-and-forward */
	/*
	 * Under roce only, a switch's overrides of its Ethernet profile
	 * (switch/eth_switch.h): the shared packet buffer in bytes (0: the
	 * profile's) and the dynamic threshold of its lossy egress queues,
	 * alpha = alpha_num / alpha_den (alpha_den 0: the profile's).
	 */
	uint64_t eth_buffer;
	uint32_t alpha_num, alpha_den;
	char *profile;          /* HCA: timing profile name */
	long line;              /* source line, for diagnostics */
	struct ibfs_topo_port *ports; /* [0..nports]; [0] unused for HCAs */
};

struct ibfs_topo_link {
	int node_a, port_a, node_b, port_b;
	enum ibfs_speed speed;
	int width;              /* lanes */
	struct ibfs_rate rate;  /* data rate after encoding */
	uint64_t cable_mm;      /* cable length */
	ibfs_time_t prop;       /* propagation delay, 5 ns per metre */
	long line;
};

struct ibfs_topo_defaults {
	enum ibfs_speed speed;  /* EDR */
	int width;              /* 4 */
	int mtu;                /* 4096 */
	int data_vls;           /* 1, 2, 4, 8 or 15; default 1 */
	uint64_t cable_mm;      /* 2 m */
	ibfs_time_t latency;    /* switch routing latency: 100 ns */
	int latency_set;        /* latency given (overrides roce profiles) */
	uint64_t buffer;        /* per-port input buffer: 32 KiB (IB only) */
	/* Switches' Ethernet overrides under roce, as in ibfs_topo_node. */
	uint64_t eth_buffer;
	uint32_t alpha_num, alpha_den;
	char *profile;          /* HCA profile: "ideal" */
};

struct ibfs_topology {
	char *name;
	char *file;             /* where it was loaded from (for messages) */
	struct ibfs_topo_defaults def;
	struct ibfs_topo_node *nodes;
	size_t nnodes, nodes_cap;
	struct ibfs_topo_link *links;
	size_t nlinks, links_cap;
	struct ibfs_topo_index *index; /* id -> node, private */
	int guids_pinned;       /* GUIDs come from the source (an imported
				 * .net file): XML output writes them */
};

struct ibfs_topology *ibfs__topo_new(const char *name);
void ibfs__topo_free(struct ibfs_topology *t);
void ibfs__topo_set_defaults(struct ibfs_topo_defaults *d);
/*
 * The least input buffer (bytes) of a port whose data_vls data VLs each
 * have room for one packet of the largest size an MTU of `mtu` allows
 * (topology.c).
 */
uint64_t ibfs__topo_min_buffer(int mtu, int data_vls);

/* Adds a node; returns its index, or -1 (duplicate id -> diag). */
int ibfs__topo_add_node(struct ibfs_topology *t, const char *id,
			enum ibfs_node_type type, int nports, long line,
			struct ibfs_diag *d);
/* Index of node `id`, or -1. O(1) average. */
int ibfs__topo_find(const struct ibfs_topology *t, const char *id);
/*
 * Connects node_a:port_a to node_b:port_b with the given speed, width and
 * cable; checks ports are in range and free. Returns the link index or -1.
 */
int ibfs__topo_add_link(struct ibfs_topology *t, int node_a, int port_a,
			int node_b, int port_b, enum ibfs_speed speed,
			int width, uint64_t cable_mm, long line,
			struct ibfs_diag *d);
/* Parses "node:port" against t; returns 0 or -1 with diag. */
int ibfs__topo_parse_endpoint(const struct ibfs_topology *t, const char *s,
			      int *node, int *port, const char *file,
			      long line, struct ibfs_diag *d);
/*
 * Assigns GUIDs the way ibsim does to nodes that have none (guid == 0),
 * in node order: switches take consecutive GUIDs from switch_base and every
 * switch port (0 included) shares its node GUID; an HCA's port i has GUID
 * node GUID + i and the next HCA's node GUID is this one + nports + 1.
 * Port GUIDs still 0 are derived from their node's GUID the same way.
 */
void ibfs__topo_assign_guids(struct ibfs_topology *t, uint64_t switch_base,
			     uint64_t ca_base);
/* ibsim's default GUID bases (ibsim/sim_net.c, guids[] per node type). */
#define IBFS_TOPO_CA_GUID_BASE ((uint64_t)0x100000)
#define IBFS_TOPO_SWITCH_GUID_BASE ((uint64_t)0x200000)
/* Ports a node may have: 1..254 (port 255 marks "no route" in an LFT). */
#define IBFS_TOPO_MAX_PORTS 254

/* Counts by type. */
size_t ibfs__topo_count(const struct ibfs_topology *t, enum ibfs_node_type ty);

#endif
