// SPDX-License-Identifier: MIT
/*
 * Fuzz harness: a partitions.conf through ibfs__partitions_parse against
 * platforms/fat-tree-k4-l2.xml (whose node names and GUIDs the members
 * may name), then a look-up of every P_Key it defined.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fabric/xml_fabric.h"
#include "subnet_manager/partitions.h"
#include "fuzz.h"

static struct ibfs_topology *topo(void)
{
	static struct ibfs_topology *t;
	struct ibfs_diag d;
	char p[4096];

	if (t)
		return t;
	snprintf(p, sizeof(p), "%s/platforms/fat-tree-k4-l2.xml",
		 ibfs_fuzz_srcdir());
	if (!(t = ibfs__fabric_xml_load(p, &d))) {
		fprintf(stderr, "%s\n", d.msg);
		abort();
	}
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibfs_diag d;
	char *text = ibfs_fuzz_string(data, size);
	struct ibfs_partitions *pp =
		ibfs__partitions_parse(text, "partitions.conf", topo(), &d);

	if (pp) {
		for (size_t i = 0; i < pp->n; i++)
			(void)ibfs__partitions_find(pp, pp->p[i].pkey);
		ibfs__partitions_free(pp);
	}
	free(text);
	return 0;
}
