/* SPDX-License-Identifier: MIT */
/*
 * The subnet as the subnet manager sees it: nodes with GUIDs and numbered
 * ports, links, LIDs, and one linear forwarding table (LFT) per switch.
 * Routing engines work on this graph only, never on XML, so a subnet found
 * by in-band discovery (SMPs) can later feed the same engines: build it with
 * ibfs__subnet_new/ibfs__subnet_set_node/ibfs__subnet_connect as discovery
 * proceeds, or from a static topology with ibfs__subnet_from_topo.
 *
 * LIDs follow IBA vol. 1, chapter 4 (addressing): unicast LIDs are
 * 0x0001-0xBFFF; with LID Mask Control (LMC) every CA port owns 2^LMC
 * consecutive LIDs starting at a multiple of 2^LMC. As OpenSM does by default (lmc_esp0 off), a switch has
 * a single LID on its port 0. An LFT entry is the egress port for a DLID;
 * 255 marks "no path", OpenSM's OSM_NO_PATH.
 */
#ifndef IBFS_SM_SUBNET_H
#define IBFS_SM_SUBNET_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/diag.h"
#include "fabric/topology.h"

#define IBFS_LFT_NO_PATH 255
#define IBFS_MAX_UCAST_LID 0xBFFF
#define IBFS_MAX_LMC 7

struct ibfs_sn_port {
	int peer;          /* peer node index, -1 when not linked */
	int peer_port;
	uint16_t lid;      /* base LID of this port (0: none) */
	uint64_t guid;     /* port GUID */
};

struct ibfs_sn_node {
	const char *name;  /* borrowed; NodeDescription for dumps */
	enum ibfs_node_type type;
	int nports;
	uint64_t guid;
	int sw;            /* index among switches, -1 for CAs */
	struct ibfs_sn_port *ports; /* [0..nports] */
};

struct ibfs_subnet {
	int nnodes;
	struct ibfs_sn_node *nodes;
	int nsw;
	int *sw_node;      /* switch index -> node index */
	int lmc;
	unsigned max_lid;  /* highest LID assigned */
	int *lid_node;     /* [0..max_lid]: owning node, -1 unused */
	uint8_t *lid_port; /* [0..max_lid]: its port (0 for a switch) */
	uint8_t *lft;      /* nsw rows of max_lid+1 entries */
	uint8_t *dst_sl;   /* [0..max_lid]: SL the engine gives paths to it */
	/*
	 * NULL, or (dfsssp, lash) one SL a path: nsw rows of max_lid+1, row s
	 * for the paths from the LIDs on switch s (its CAs' and its own) to
	 * each LID. Paths from one switch to one LID share every channel, so
	 * this is as fine as OpenSM's (source LID, destination LID) table
	 * and the size of the LFTs. When set, it overrides dst_sl.
	 */
	uint8_t *src_sl;
	uint8_t sl2vl[16]; /* one SL-to-VL table for every switch port */
	int data_vls;      /* VLs usable for data (1..15) */
	char engine[16];   /* name of the engine that built the LFTs */
	/*
	 * Why the engine asked for did not build them, when it fell back to
	 * minhop ("ftree failed: ERR AB03: ..."); "" when it did.
	 */
	char fallback[200];
	char *log;         /* error and notice lines, for the caller to show */
	size_t log_len, log_cap;
};

/* An empty subnet of n nodes; fill with set_node and connect. */
struct ibfs_subnet *ibfs__subnet_new(int nnodes);
void ibfs__subnet_free(struct ibfs_subnet *sn);
/* Sets node i. Returns 0, or -1 when out of memory. */
int ibfs__subnet_set_node(struct ibfs_subnet *sn, int i, const char *name,
			  enum ibfs_node_type type, int nports, uint64_t guid);
/* Links a:pa and b:pb (both must be free). Returns 0 or -1. */
int ibfs__subnet_connect(struct ibfs_subnet *sn, int a, int pa, int b,
			 int pb);
/* Indexes switches once all nodes are set. */
void ibfs__subnet_index(struct ibfs_subnet *sn);
/* The subnet of a static topology; names are borrowed from t. */
struct ibfs_subnet *ibfs__subnet_from_topo(const struct ibfs_topology *t,
					   struct ibfs_diag *d);

/*
 * Assigns LIDs in node order: a switch takes the next LID, each linked CA
 * port the next block of 2^lmc aligned LIDs. Allocates LFTs filled with
 * IBFS_LFT_NO_PATH. Returns 0 or -1 (too many LIDs) with d filled.
 */
int ibfs__subnet_assign_lids(struct ibfs_subnet *sn, int lmc,
			     struct ibfs_diag *d);
/* Entry of switch s (switch index) for lid. */
static inline uint8_t *ibfs__subnet_lft(const struct ibfs_subnet *sn, int s,
					unsigned lid)
{
	return &sn->lft[(size_t)s * (sn->max_lid + 1) + lid];
}
/*
 * Clears every LFT to IBFS_LFT_NO_PATH and every SL to 0, and frees the
 * per-path SL table.
 */
void ibfs__subnet_clear_routes(struct ibfs_subnet *sn);
/*
 * Allocates sn->src_sl (all SL 0), for an engine that gives SLs per path.
 * Returns 0, or -1 when out of memory.
 */
int ibfs__subnet_alloc_src_sl(struct ibfs_subnet *sn);
/* The switch a LID's port hangs on (itself for a switch), or -1. */
int ibfs__subnet_lid_switch(const struct ibfs_subnet *sn, unsigned lid,
			    int *port);
/*
 * The SL for a path from slid to dlid, as the SA would answer a PathRecord
 * query: dfsssp's or lash's layer of the path (src_sl, by the switch
 * slid is on), else the SL of the destination (0 for the other engines).
 * Senders must use it for the routes to be as deadlock-free as the
 * credit-loop check says.
 */
static inline uint8_t ibfs__subnet_path_sl(const struct ibfs_subnet *sn,
					   unsigned slid, unsigned dlid)
{
	if (dlid > sn->max_lid)
		return 0;
	if (sn->src_sl) {
		int s = ibfs__subnet_lid_switch(sn, slid, NULL);
		return s < 0 ? 0 : sn->src_sl[(size_t)s * (sn->max_lid + 1) +
					      dlid];
	}
	return sn->dst_sl[dlid];
}
/* Appends a line to sn->log (printf format). */
void ibfs__subnet_log(struct ibfs_subnet *sn, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Figures of a routed subnet (route_stats.c). */
struct ibfs_route_stats {
	int unreachable;      /* (switch, CA LID) pairs with no path */
	int loops;            /* (switch, LID) pairs whose path loops */
	int hop_max;          /* CA to CA, in links, over all CA pairs */
	double hop_mean;
	long routes_min, routes_max; /* CA LIDs per inter-switch port */
	double routes_mean;
	long isw_ports;       /* switch ports linked to switches */
	char first_bad[256];  /* the first unreachable or looping pair */
};
/*
 * Follows the LFTs from every switch to every CA LID. hop counts are links
 * from a source CA port to a destination CA port; routes per port count
 * the CA LIDs each switch-to-switch port forwards. If hops is not NULL it
 * receives nsw x (max_lid+1) switch-to-LID hop counts (255 = none).
 */
int ibfs__route_stats(const struct ibfs_subnet *sn,
		      struct ibfs_route_stats *st, uint8_t *hops);
/*
 * The SLs the paths from CA LIDs to CA LIDs take (ibfs__subnet_path_sl),
 * a bit each: 1 (SL 0 only) for engines that give no SLs. Returns 0 when
 * out of memory.
 */
uint16_t ibfs__route_sl_use(const struct ibfs_subnet *sn);

#endif
