/* SPDX-License-Identifier: MIT */
/*
 * Import of ibnetdiscover output and ibsim .net files (the same format).
 * Node names (the quoted ids) are kept; the NodeDescription in a trailing
 * '# "desc"' comment becomes the node's description. GUIDs follow ibsim
 * (sim_net.c), as checked against ibsim 0.12 with ibnetdiscover: a
 * 'switchguid=' or 'caguid=' line sets the next GUID of that node type;
 * without one switches start at 0x200000 and CAs at 0x100000; each switch
 * takes the next GUID, every switch port shares it; a CA's port i is its
 * node GUID + i, and the next CA's node GUID is this one + nports + 1.
 * Link widths: ibsim's "w=N" codes, or ibnetdiscover's "4xEDR" tokens.
 */
#ifndef IBFS_FABRIC_TOPO_NETFILE_H
#define IBFS_FABRIC_TOPO_NETFILE_H

#include <stdio.h>

#include "fabric/topology.h"

/* Reads a .net/ibnetdiscover file. NULL with "file:line: ..." in d. */
struct ibfs_topology *ibfs__netfile_load(const char *path,
					 struct ibfs_diag *d);
/* The same from an open stream; `name` is used in messages. */
struct ibfs_topology *ibfs__netfile_read(FILE *f, const char *name,
					 struct ibfs_diag *d);

#endif
