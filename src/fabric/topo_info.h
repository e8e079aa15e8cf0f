/* SPDX-License-Identifier: MIT */
/*
 * Figures of a topology for `ibfsim topo info`: counts, diameter (links on
 * the longest shortest path between two HCA ports) and, for the families
 * `topo gen` names, the bisection width in links by its closed form.
 */
#ifndef IBFS_FABRIC_TOPO_INFO_H
#define IBFS_FABRIC_TOPO_INFO_H

#include "fabric/packet.h"
#include "fabric/topology.h"

/* The unicast LIDs of a subnet, 0x0001-0xBFFF: 49,151. */
#define IBFS_UCAST_LIDS (IBFS_MCAST_LID_BASE - 1)

struct ibfs_topo_info {
	size_t switches, hcas, links;
	size_t hca_ports;      /* linked HCA ports */
	size_t lids;           /* ibfs__topo_lids_needed */
	int diameter;          /* -1: some HCA ports cannot reach others */
	long bisection;        /* links; -1 when not known */
	const char *family;    /* the family the bisection is for, or NULL */
};

/*
 * The unicast LIDs a subnet manager gives t at LMC 0: one a switch (its
 * port 0) and one a linked HCA port (2^LMC each with LMC). Past
 * IBFS_UCAST_LIDS the fabric is too large for one subnet: the SM stops
 * where they run out, as OpenSM does (ERR 5001).
 */
size_t ibfs__topo_lids_needed(const struct ibfs_topology *t);
/* Fills in. Returns 0, or -1 when out of memory. */
int ibfs__topo_info(const struct ibfs_topology *t, struct ibfs_topo_info *in);
/*
 * The bisection width of a generated fabric from its name as `topo gen`
 * writes it ("fat-tree-k36-l3", "torus-4x4", "mesh-3x2", "hypercube-d3",
 * "ring-n4", "dragonfly-a4-p2-h2"); -1 for any other name. Names of the
 * families without a closed form here ("hyperx-..", "dragonfly-plus-..",
 * "slimfly-q..") give -1 with *family set.
 */
long ibfs__topo_bisection_by_name(const char *name, const char **family);

#endif
