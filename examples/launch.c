/* SPDX-License-Identifier: MIT */
/*
 * The examples' launcher (see launch.h): loads the fabric, creates the
 * fabric runtime, the SimGrid bridge and one HCA per HCA node, gives the
 * HCAs LIDs 1, 2, ... in node order, and runs the actors. Fabrics with
 * switches need the subnet manager to program forwarding tables, which
 * this launcher does not run: it accepts switchless fabrics only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/bridge.h"
#include "fabric/fabric.h"
#include "fabric/xml_fabric.h"
#include "hca/hca.h"
#include "launch.h"

static struct ibfs_fabric *ex_fab;
static int ex_failed;

void ex_fail(const char *why)
{
	fprintf(stderr, "example: %s\n", why);
	ex_failed = 1;
}

static struct ibfs_hca *ex_locate(void *arg)
{
	(void)arg;
	return ibfs__hca_of_node(ex_fab, ibfs__bridge_current_node());
}

int ex_launch(int argc, char **argv, const struct ex_actor *actors, int n)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/two-hca.xml", ibfs__platforms_dir());
	ibfs__bridge_init(&argc, argv);
	int first = 1;
	if (argc > 2 && !strcmp(argv[1], "--fabric")) {
		snprintf(path, sizeof(path), "%s", argv[2]);
		first = 3;
	}
	struct ibfs_diag d = {{0}};
	struct ibfs_topology *t = ibfs__fabric_xml_load(path, &d);
	if (!t) {
		fprintf(stderr, "example: %s\n", d.msg);
		return 2;
	}
	if (ibfs__topo_count(t, IBFS_NODE_SWITCH)) {
		fprintf(stderr, "example: %s: fabrics with switches need the "
				"subnet manager; use a back-to-back fabric\n",
			path);
		ibfs__topo_free(t);
		return 2;
	}
	ex_fab = ibfs__fabric_new(t, 1, 1);
	struct ibfs_bridge *b = ex_fab ? ibfs__bridge_new(&ex_fab->eq, t, &d)
				       : NULL;
	if (!b) {
		fprintf(stderr, "example: %s\n", ex_fab ? d.msg : "no memory");
		return 2;
	}
	struct ibfs_hca **hcas = calloc(t->nnodes, sizeof(*hcas));
	uint16_t lid = 1;
	int rc = 0;
	for (size_t i = 0; i < t->nnodes && hcas; i++) {
		hcas[i] = ibfs__hca_create(ex_fab, (int)i, NULL,
					   ibfs__bridge_exec(b), &d);
		if (!hcas[i]) {
			fprintf(stderr, "example: %s\n", d.msg);
			rc = 2;
			goto out;
		}
		ibfs__hca_set_lid(hcas[i], 1, lid++, 0);
	}
	ibfs__verbs_set_locator(ex_locate, NULL);
	for (int k = 0; k < n; k++) {
		if (ibfs__bridge_spawn(b, actors[k].host, actors[k].name,
				       actors[k].fn, argc - first + 1,
				       argv + first - 1)) {
			fprintf(stderr, "example: cannot start %s on %s\n",
				actors[k].name, actors[k].host);
			rc = 2;
			goto out;
		}
	}
	if (ibfs__bridge_run(b)) {
		fprintf(stderr, "example: the run did not finish (deadlock)\n");
		rc = 1;
	} else if (ex_failed) {
		rc = 1;
	}
out:
	for (size_t i = 0; hcas && i < t->nnodes; i++)
		ibfs__hca_free(hcas[i]);
	free(hcas);
	ibfs__bridge_free(b);
	ibfs__fabric_free(ex_fab);
	ibfs__topo_free(t);
	return rc;
}
