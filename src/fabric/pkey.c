/* SPDX-License-Identifier: MIT */
/*
 * P_KeyTables of ports (pkey.h): read, written by the subnet management
 * agents, searched by the verbs and by switch partition enforcement.
 */
#include "fabric/pkey.h"

#include <stdlib.h>

#include "fabric/fabric.h"

int ibfs__port_pkey_set(struct ibfs_port *port, unsigned i, uint16_t pkey)
{
	unsigned cap = ibfs__port_pkey_cap(port);

	if (i >= cap)
		return -1;
	if (!port->pkeys) {
		port->pkeys = calloc(cap, sizeof(*port->pkeys));
		if (!port->pkeys)
			return -1;
		port->pkeys[0] = IBFS_PKEY_DEFAULT;
		port->fab->pkey_tables++;
	}
	port->pkeys[i] = pkey;
	return 0;
}

int ibfs__port_pkey_find(const struct ibfs_port *port, uint16_t pkey)
{
	for (unsigned i = 0; i < ibfs__port_pkey_cap(port); i++)
		if (ibfs__pkey_same(ibfs__port_pkey(port, i), pkey))
			return (int)i;
	return -1;
}
