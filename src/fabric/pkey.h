/* SPDX-License-Identifier: MIT */
/*
 * Partition keys (IBA 10.9). A P_Key is 16 bits: the high bit is the
 * membership type (1 full, 0 limited) and the low 15 bits the partition.
 * Every port has a P_KeyTable (IBA 14.2.5.7) that the subnet manager
 * programs; an end port's QPs name one of its entries by index, and their
 * packets carry that P_Key in the BTH. At power-up entry 0 holds the
 * default P_Key 0xFFFF and the others are 0 (invalid), so that a fabric
 * without partitions works as before the SM.
 *
 * The table lives in the port's cold part (link.h) and is allocated on
 * the first write: a port never programmed reads as the power-up table.
 */
#ifndef IBFS_FABRIC_PKEY_H
#define IBFS_FABRIC_PKEY_H

#include <stdint.h>

#include "fabric/link.h"

#define IBFS_PKEY_DEFAULT 0xFFFF
#define IBFS_PKEY_FULL 0x8000   /* membership bit: full member */
#define IBFS_PKEY_BASE 0x7FFF
#define IBFS_PKEY_BLOCK 32      /* entries in a P_KeyTable block */

/* PortInfo PartitionEnforcementInbound and Outbound (IBA 14.2.5.6). */
enum { IBFS_PKEY_ENF_IN = 1, IBFS_PKEY_ENF_OUT = 2 };

/*
 * The P_Key match of IBA 10.9.3: the low 15 bits equal and not 0 (0x0000
 * and 0x8000 are the invalid P_Key and match nothing), and at least one
 * of the two a full member (two limited members cannot talk).
 */
static inline int ibfs__pkey_match(uint16_t a, uint16_t b)
{
	return ((a ^ b) & IBFS_PKEY_BASE) == 0 && (a & IBFS_PKEY_BASE) &&
	       ((a | b) & IBFS_PKEY_FULL);
}

/* The same partition, whatever the memberships (0x0000/0x8000: none). */
static inline int ibfs__pkey_same(uint16_t a, uint16_t b)
{
	return ((a ^ b) & IBFS_PKEY_BASE) == 0 && (a & IBFS_PKEY_BASE);
}

/* Entries of port's table: its device's (0 without a device). */
static inline unsigned ibfs__port_pkey_cap(const struct ibfs_port *port)
{
	return port->dev ? port->dev->ops->pkey_cap : 0;
}

/* Entry i of port's table (0 beyond its size). */
static inline uint16_t ibfs__port_pkey(const struct ibfs_port *port,
				       unsigned i)
{
	if (i >= ibfs__port_pkey_cap(port))
		return 0;
	if (!port->pkeys)
		return i == 0 ? IBFS_PKEY_DEFAULT : 0;
	return port->pkeys[i];
}
/*
 * Entry i, i known to be below the table's size (a QP's pkey_index,
 * checked when it was set): what a packet sent or received reads, without
 * the device's ops.
 */
static inline uint16_t ibfs__port_pkey_at(const struct ibfs_port *port,
					  unsigned i)
{
	if (!port->pkeys)
		return i == 0 ? IBFS_PKEY_DEFAULT : 0;
	return port->pkeys[i];
}

/* Writes entry i; -1 beyond the table's size or out of memory. */
int ibfs__port_pkey_set(struct ibfs_port *port, unsigned i, uint16_t pkey);
/* The first index whose entry is in pkey's partition, -1 if none. */
int ibfs__port_pkey_find(const struct ibfs_port *port, uint16_t pkey);

#endif
