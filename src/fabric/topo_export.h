/* SPDX-License-Identifier: MIT */
/*
 * Writing a topology out: as fabric XML (docs/fabric-format.md, what `topo
 * gen` and `topo import` produce), as an ibnetdiscover/.net file that ibsim
 * loads (every record preceded by its switchguid=/caguid= line so GUIDs
 * stay exactly ours), and as a Graphviz dot graph.
 */
#ifndef IBFS_FABRIC_TOPO_EXPORT_H
#define IBFS_FABRIC_TOPO_EXPORT_H

#include <stdio.h>

#include "fabric/topology.h"

/* Each returns 0, or -1 on a write error. */
int ibfs__topo_write_xml(const struct ibfs_topology *t, FILE *f);
/*
 * 0 if every node's id and description can be written in the .net format,
 * which quotes them with '"' and has no escape: else -1, with the node's
 * line in d.
 */
int ibfs__topo_netfile_check(const struct ibfs_topology *t,
			     struct ibfs_diag *d);
int ibfs__topo_write_netfile(const struct ibfs_topology *t, FILE *f);
int ibfs__topo_write_dot(const struct ibfs_topology *t, FILE *f);

#endif
