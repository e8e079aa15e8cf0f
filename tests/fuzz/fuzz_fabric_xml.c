// SPDX-License-Identifier: MIT
/*
 * Fuzz harness: a fabric XML file (docs/fabric-format.md) through
 * ibfs__fabric_xml_load, which parses, proves plain generated files valid
 * without the schema (xml_fast.c) or validates them against fabric.rng,
 * and reads the topology.
 */
#include "fabric/xml_fabric.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibfs_diag d;
	const char *path = ibfs_fuzz_file(data, size, "fabric.xml");
	struct ibfs_topology *t = ibfs__fabric_xml_load(path, &d);

	if (t)
		ibfs__topo_free(t);
	return 0;
}
