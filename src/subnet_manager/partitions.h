/* SPDX-License-Identifier: MIT */
/*
 * Partition configuration in OpenSM's partitions.conf syntax (`man
 * opensm`, PARTITION CONFIGURATION): entries
 *
 *   Name=PKey[,ipoib][,mtu=N][,rate=N][,sl=N][,scope=N]
 *       [,defmember=full|limited|both] : member[=full|limited|both], ... ;
 *
 * with members ALL, ALL_CAS, ALL_SWITCHES, SELF and port GUIDs, '#'
 * comments, entries spanning lines. ibfsim also takes a fabric node id
 * (`node1`: all its end ports) and `node1:2` (one port). Every mistake is
 * refused as "FILE:LINE: what is wrong" before anything runs, where
 * OpenSM logs some and goes on: a P_Key must be given (OpenSM would make
 * one up), membership words and flags must be known, GUIDs and ids must
 * be the fabric's, multicast groups (mgid=) are not modelled.
 *
 * The Default partition (0x7fff) exists always, as in OpenSM: without a
 * file every end port is a full member (`Default=0x7fff : ALL=full;`);
 * with a file that has no rule for it, every end port is a limited member
 * and the SM's port a full one (`ALL=limited, SELF=full`); the SM's port
 * is a full member of it whatever the rule says.
 */
#ifndef IBFS_SM_PARTITIONS_H
#define IBFS_SM_PARTITIONS_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/diag.h"
#include "fabric/topology.h"

/* Who a member names. */
enum ibfs_prtn_who {
	IBFS_PRTN_ALL,          /* every end port */
	IBFS_PRTN_ALL_CAS,      /* every CA port */
	IBFS_PRTN_ALL_SWITCHES, /* every switch's port 0 */
	IBFS_PRTN_SELF,         /* the SM's port */
	IBFS_PRTN_PORT,         /* one port: a GUID or node:port */
	IBFS_PRTN_NODE,         /* every end port of a node (ibfsim) */
};

/* Membership: full (P_Key bit 15 set) or limited; "both" is taken as
 * full, as OpenSM without allow_both_pkeys gives one P_Key a port. */
enum { IBFS_PRTN_LIMITED = 0, IBFS_PRTN_FULL = 1 };

struct ibfs_prtn_member {
	enum ibfs_prtn_who who;
	int node, port;         /* PORT: the port; NODE: the node */
	uint8_t full;
	long line;
};

struct ibfs_prtn {
	char name[64];
	uint16_t pkey;          /* the low 15 bits */
	uint8_t ipoib;
	uint8_t mtu, rate, sl;  /* IBA codes, 0 when not given */
	long line;              /* its first definition */
	struct ibfs_prtn_member *m;
	size_t nm, mcap;
};

struct ibfs_partitions {
	struct ibfs_prtn *p;    /* in the order of their first definition */
	size_t n, cap;
	int from_file;          /* 0: OpenSM's default without a file */
	char *file;
};

/*
 * Parses `text` (the contents of `file`, for messages) against the fabric
 * t. NULL with "FILE:LINE: what is wrong" in d on any mistake.
 */
struct ibfs_partitions *ibfs__partitions_parse(const char *text,
					       const char *file,
					       const struct ibfs_topology *t,
					       struct ibfs_diag *d);
/* Reads and parses a file: NULL with d filled ("FILE: cannot read"
 * without a line when it cannot be read). */
struct ibfs_partitions *ibfs__partitions_load(const char *path,
					      const struct ibfs_topology *t,
					      struct ibfs_diag *d);
/* OpenSM's configuration without a file: Default=0x7fff : ALL=full; */
struct ibfs_partitions *ibfs__partitions_default(void);
void ibfs__partitions_free(struct ibfs_partitions *pp);
/* The partition of P_Key pkey's low 15 bits, NULL if none. */
const struct ibfs_prtn *
ibfs__partitions_find(const struct ibfs_partitions *pp, uint16_t pkey);

#endif
