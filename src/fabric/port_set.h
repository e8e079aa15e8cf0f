/* SPDX-License-Identifier: MIT */
/*
 * A set of a fabric's ports, as a user names them on the command line
 * (--pcap-ports, --trace-ports): comma-separated NODE:PORT, NODE (every
 * port of it) or "all". Captures and timelines record what leaves the
 * ports of the set. A flag per (node, port), found in O(1).
 */
#ifndef IBFS_FABRIC_PORT_SET_H
#define IBFS_FABRIC_PORT_SET_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/topology.h"

struct ibfs_port_set {
	size_t *base;  /* [node]: index of its port 0 in `in` */
	uint8_t *in;   /* [base[node] + port]: 1 if in the set */
};

/*
 * Reads `list` against t into s. Returns 0, or -1 with why in err (an
 * unknown node, a port the node does not have, an empty name) and s
 * left empty.
 */
int ibfs__port_set_parse(struct ibfs_port_set *s,
			 const struct ibfs_topology *t, const char *list,
			 char *err, size_t errlen);
void ibfs__port_set_free(struct ibfs_port_set *s);

static inline int ibfs__port_set_has(const struct ibfs_port_set *s, int node,
				     int port)
{
	return s->in[s->base[node] + (size_t)port];
}

#endif
