// SPDX-License-Identifier: MIT
/*
 * Fuzz harness: a fabric XML file (docs/fabric-format.md) through
 * ibfs__fabric_xml_load, which parses, proves plain generated files valid
 * without the schema (xml_fast.c) or validates them against fabric.rng,
 * and reads the topology. The fast path is also held to its promise:
 * whatever it proves valid, libxml2's validator must accept too.
 */
#include <stdio.h>
#include <stdlib.h>

#include <libxml/tree.h>

#include "fabric/xml_fabric.h"
#include "fuzz.h"

static void check_fast_path(const char *path)
{
	struct ibfs_diag d;
	xmlDoc *doc = ibfs__xml_parse_file(path, &d);

	if (!doc)
		return;
	xmlNode *root = xmlDocGetRootElement(doc);
	if (ibfs__fabric_xml_plainly_valid(doc, root, path) == 1 &&
	    ibfs__xml_check_schema(doc, "fabric.rng", path, &d) != 0) {
		fprintf(stderr, "xml_fast.c proved valid what fabric.rng "
			"refuses: %s\n", d.msg);
		abort();
	}
	xmlFreeDoc(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibfs_diag d;
	const char *path = ibfs_fuzz_file(data, size, "fabric.xml");
	struct ibfs_topology *t = ibfs__fabric_xml_load(path, &d);

	if (t)
		ibfs__topo_free(t);
	check_fast_path(path);
	return 0;
}
