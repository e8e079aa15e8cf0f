/* SPDX-License-Identifier: MIT */
/*
 * What the fabric XML reader's two halves share: the state of one read
 * and an element's attributes (xml_fabric.c reads the elements,
 * xml_fabric_attrs.c the attribute values with their units and rules).
 */
#ifndef IBFS_FABRIC_XML_FABRIC_INT_H
#define IBFS_FABRIC_XML_FABRIC_INT_H

#include <stdint.h>

#include <libxml/tree.h>

#include "fabric/diag.h"
#include "fabric/time.h"
#include "fabric/topology.h"

/* At most this many attributes on one element (generate has the most). */
#define FX_MAX_ATTRS 32

/* The state of one read: the topology being built and where to complain. */
struct fx {
	struct ibfs_topology *t;
	const char *file;
	struct ibfs_diag *d;
};

/* The attributes of one element, copied out of the tree. */
struct fx_attrs {
	const xmlNode *el;
	int n;
	const char *name[FX_MAX_ATTRS];
	char *value[FX_MAX_ATTRS];
};

void ibfs__fx_attrs_free(struct fx_attrs *a);

/*
 * Copies el's attributes into a, refusing names not in `allowed` (a NULL
 * terminated list; NULL allows any name). Returns 0 or -1 with diag.
 */
int ibfs__fx_attrs_get(struct fx *x, const xmlNode *el,
			const char *const *allowed, struct fx_attrs *a);

const char *ibfs__fx_get(const struct fx_attrs *a, const char *name);

int ibfs__fx_need(struct fx *x, const struct fx_attrs *a, const char *name,
		  const char **out);

/*
 * A buffer the file gives must leave each data VL room for the largest
 * packet of the fabric's MTU (ibfs__topo_min_buffer, which says why): with
 * less, such a packet would wait for credits for ever, with nothing to
 * tell why. The <defaults> come first (fabric.rng), so the MTU and the
 * data VLs are known here.
 */
int ibfs__fx_opt_buffer(struct fx *x, const struct fx_attrs *a,
			uint64_t *out);

/*
 * A switch's settings that its Ethernet profile takes under roce:
 * latency (given here or in <defaults>) replaces the profile's port-to-
 * port latency, shared-buffer its buffer and alpha its lossy alpha. The
 * InfiniBand buffer, the input buffer of one port, plays no part there.
 */
int ibfs__fx_opt_eth(struct fx *x, const struct fx_attrs *a,
		     ibfs_time_t *latency, int *latency_set,
		     uint64_t *eth_buffer, uint32_t *num, uint32_t *den);

int ibfs__fx_opt_length(struct fx *x, const struct fx_attrs *a,
			const char *name, uint64_t *out);

int ibfs__fx_opt_speed(struct fx *x, const struct fx_attrs *a,
			enum ibfs_speed *out);

int ibfs__fx_opt_width(struct fx *x, const struct fx_attrs *a, int *out);

/*
 * A plain count that must be one of `set` (n values), or in [lo, hi] when
 * set is NULL. `rule` completes the sentence of the error.
 */
int ibfs__fx_opt_count(struct fx *x, const struct fx_attrs *a,
			const char *name, const int *set, int n, long lo,
			long hi, const char *rule, int *out);

int ibfs__fx_opt_profile(struct fx *x, const struct fx_attrs *a,
			 char **out);

#endif
