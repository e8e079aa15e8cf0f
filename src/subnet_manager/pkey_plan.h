/* SPDX-License-Identifier: MIT */
/*
 * The P_Key tables a partition configuration (partitions.h) gives every
 * port of a fabric, laid out as OpenSM's osm_pkey_mgr lays them out on a
 * fabric fresh from power-up, and the switch ports that enforce
 * partitions (OpenSM's default, no_partition_enforcement FALSE):
 *
 * - an end port (a CA port with a link, a switch's port 0) holds one
 *   P_Key per partition it is a member of, bit 15 set for a full member;
 * - a P_Key whose partition is already in the table (power-up: 0xFFFF at
 *   index 0) keeps that entry; the others take the free entries from
 *   index 0 on, in OpenSM's order of partitions (its map is keyed by the
 *   P_Key in network byte order: by low byte, then high byte);
 * - a switch port facing a CA port copies the blocks the CA uses and
 *   enforces inbound and outbound, unless they do not fit its table.
 *
 * The in-band SM sends the blocks that differ from what each port holds
 * (sm_config.c); mode="instant" writes the same tables at time 0.
 */
#ifndef IBFS_SM_PKEY_PLAN_H
#define IBFS_SM_PKEY_PLAN_H

#include <stdint.h>
#include <stdio.h>

#include "fabric/diag.h"
#include "fabric/topology.h"
#include "subnet_manager/partitions.h"

struct ibfs_pkey_plan {
	const struct ibfs_topology *t;
	uint16_t **tab;   /* [node][port * cap + i] */
	uint8_t **set;    /* [node][port]: 1 programmed, 0 left alone */
	uint8_t **enf;    /* [node][port]: IBFS_PKEY_ENF_* (switch ports) */
};

/* Table entries of a node's ports: 128 for a CA, 32 for a switch. */
int ibfs__pkey_plan_cap(const struct ibfs_topo_node *n);
/*
 * Lays out every table for configuration pp on fabric t, the SM on
 * sm_node:sm_port. Returns 0, or -1 with "FILE:LINE: ..." in d when a
 * port is in more partitions than its table holds.
 */
int ibfs__pkey_plan_build(struct ibfs_pkey_plan *pl,
			  const struct ibfs_partitions *pp,
			  const struct ibfs_topology *t, int sm_node,
			  int sm_port, struct ibfs_diag *d);
void ibfs__pkey_plan_free(struct ibfs_pkey_plan *pl);
/* The table of node:port (cap entries), NULL if the SM leaves it. */
const uint16_t *ibfs__pkey_plan_table(const struct ibfs_pkey_plan *pl,
				      int node, int port);
/*
 * Writes one line per programmed port, "CA|SW LID PORT P_KEY..." with the
 * LIDs of sn (a switch's: its port 0's) and the table without its
 * trailing unused entries, for comparison with `smpquery pkeys`. Returns
 * 0, or -1 on a write error.
 */
struct ibfs_subnet;
int ibfs__pkey_plan_dump(const struct ibfs_pkey_plan *pl,
			 const struct ibfs_subnet *sn, FILE *f);
/* The entry of pkey's partition in node:port's table, 0 if none. */
uint16_t ibfs__pkey_plan_member(const struct ibfs_pkey_plan *pl, int node,
				int port, uint16_t pkey);

#endif
