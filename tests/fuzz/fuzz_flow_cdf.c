// SPDX-License-Identifier: MIT
/*
 * Fuzz harness: a flow-size CDF file (flow_cdf.c) through
 * ibfs__flow_cdf_load, then the inverse CDF at the ends and inside.
 */
#include "scenario/flow_cdf.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double u[] = { 0.0, 1e-9, 0.25, 0.5, 0.999999, 0.9999999999 };
	struct ibfs_diag d;
	const char *path = ibfs_fuzz_file(data, size, "flows.cdf");
	struct ibfs_flow_cdf *c = ibfs__flow_cdf_load(path, "fuzz", &d);

	if (c) {
		for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
			(void)ibfs__flow_cdf_size(c, u[i]);
		ibfs__flow_cdf_free(c);
	}
	return 0;
}
