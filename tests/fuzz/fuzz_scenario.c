// SPDX-License-Identifier: MIT
/*
 * Fuzz harness: a scenario XML file (docs/scenario-format.md) through
 * ibfs__scenario_load, with its inline fabric or its references to the
 * platforms, partitions files and LFT dumps of the source tree.
 */
#include "scenario/scenario.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibfs_diag d;
	const char *path = ibfs_fuzz_file(data, size, "scenario.xml");
	struct ibfs_scenario *s = ibfs__scenario_load(path, &d);

	if (s)
		ibfs__scenario_free(s);
	return 0;
}
