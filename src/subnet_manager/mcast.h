/* SPDX-License-Identifier: MIT */
/*
 * Multicast groups and their spanning trees (mcast_tree.c). A group is an
 * MGID (IBA 4.1.1: a GID whose first byte is 0xFF), the MLID the subnet
 * manager gave it and its member ports, as the SA's MCMemberRecord joins
 * (IBA 15.2.5.17) would have made them: the SM then builds one tree per
 * group over the subnet and writes each switch's multicast forwarding
 * table (IBA 18.2.4.3.3) with it.
 */
#ifndef IBFS_SM_MCAST_H
#define IBFS_SM_MCAST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "subnet_manager/subnet.h"

/* The first MLID OpenSM hands out (IBA 4.1.2: 0xC000-0xFFFE). */
#define IBFS_MLID_FIRST 0xC000
/* MLIDs 0xC000-0xFFFE: what a switch's MFT may hold. */
#define IBFS_MLID_COUNT 0x3FFF
/* Words of a tree's port mask per switch: ports 0-255. */
#define IBFS_MCAST_MASK_WORDS 4

struct ibfs_mcast_member {
	int node;   /* an HCA: topology node index */
	int port;   /* its port */
	/* A SendOnly member (IBA 15.2.5.17 JoinState): in the tree, so that
	 * its packets reach the group, but it attaches no QP. */
	int send_only;
	/* JoinState bits (IBA 15.2.5.17) of an SA join; 0: full member, or
	 * SendOnly with send_only (groups given at bring-up). */
	uint8_t join_state;
};

struct ibfs_mcast_group {
	const char *id;          /* the scenario's name for it (or NULL) */
	uint8_t mgid[16];
	uint16_t mlid;
	int nmembers;
	struct ibfs_mcast_member *members;
	/*
	 * What the SA's MCMemberRecord says of the group (IBA 15.2.5.17),
	 * set when a join creates it; zero for groups given at bring-up but
	 * P_Key, MTU and rate (sa_mcmember.c fills them in).
	 */
	uint32_t qkey, flow;
	uint16_t pkey;
	uint8_t mtu, rate, sl, tclass, hop_limit, scope;
};

/*
 * Builds the spanning tree of every group as OpenSM's multicast manager
 * does (see mcast_tree.c) on sn as routed, with members given by their
 * node index in sn (node_of maps a topology index to it, -1 when the
 * subnet lacks it: such members are left out, as ports the SM did not
 * find). masks receives nsw x ngroups x IBFS_MCAST_MASK_WORDS words:
 * switch s's ports for group g. Returns 0 or -1 (no memory).
 */
int ibfs__mcast_trees(const struct ibfs_subnet *sn,
		      const struct ibfs_mcast_group *g, int ngroups,
		      int (*node_of)(void *ctx, int topo_node), void *ctx,
		      uint64_t *masks);

/*
 * Groups as users write them (mcast_spec.c). Each returns 0, or -1 with
 * what is wrong in err: an MGID in IPv6 form, first byte 0xFF (IBA
 * 4.1.1); members "HCA" (its first linked port) or "HCA:PORT", separated
 * by commas, appended to g->members (free it).
 */
int ibfs__mcast_parse_mgid(const char *v, uint8_t mgid[16], char *err,
			   size_t n);
int ibfs__mcast_parse_members(const struct ibfs_topology *t, const char *list,
			      struct ibfs_mcast_group *g, char *err, size_t n);
/* The first linked port of topology node `node`, 0 if none. */
int ibfs__mcast_first_linked(const struct ibfs_topology *t, int node);
/* Adds a member: 0, 1 if it already is one, -1 out of memory. */
int ibfs__mcast_add_member(struct ibfs_mcast_group *g, int node, int port,
			   int send_only);
/*
 * Writes switch tables as OpenSM's opensm-mfts.dump (mft_dump.c): for
 * each switch by GUID with an entry, "Switch 0x<GUID>" and "LID    : Out
 * Port(s)", then "0x<MLID> : 0x<port> ..." a line. Returns 0 or -1.
 */
struct ibfs_subnet;
int ibfs__mft_dump(const struct ibfs_subnet *sn,
		   const struct ibfs_mcast_group *g, int ngroups,
		   const uint64_t *masks, FILE *f);

/* The words of switch s's mask for group gi in a masks array. */
static inline uint64_t *ibfs__mcast_mask(uint64_t *masks, int ngroups, int s,
					 int gi)
{
	return masks + ((size_t)s * (size_t)ngroups + (size_t)gi) *
			       IBFS_MCAST_MASK_WORDS;
}

#endif
