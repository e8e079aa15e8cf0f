/* SPDX-License-Identifier: MIT */
/*
 * Topology generators: fat tree (k-ary n-tree / folded Clos, XGFT), mesh,
 * torus, dragonfly, hypercube. Used by <generate> in fabric XML and by
 * `ibfsim topo gen`. Parameters arrive as name/value strings so both callers
 * share one parser and one set of messages.
 */
#ifndef IBFS_FABRIC_TOPO_GEN_H
#define IBFS_FABRIC_TOPO_GEN_H

#include "fabric/topology.h"

struct ibfs_gen_param {
	const char *name;
	const char *value;
};

/*
 * Adds the nodes and links of topology `kind` to t, with node ids starting
 * with `prefix`, links taking t->def. Unknown kinds or bad parameters give
 * "file:line: ..." in d and -1.
 */
int ibfs__topo_generate(struct ibfs_topology *t, const char *kind,
			const struct ibfs_gen_param *params, int nparams,
			const char *prefix, const char *file, long line,
			struct ibfs_diag *d);

#endif
