// SPDX-License-Identifier: MIT
/*
 * Fuzz harness: a sweep grid (platforms/sweep.rng) through
 * ibfs_cli_sweep_load, and every point's value of every dimension.
 */
#include "cli/sweep.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibfs_diag d;
	struct ibfs_sweep s;
	const char *path = ibfs_fuzz_file(data, size, "sweep.xml");

	if (ibfs_cli_sweep_load(path, &s, &d) == 0) {
		/* Bounded: a grid may name millions of points. */
		for (size_t p = 0; p < s.npoints && p < 1000; p++)
			for (size_t k = 0; k < s.ndims; k++)
				(void)ibfs_cli_sweep_value(&s, p, k);
		ibfs_cli_sweep_free(&s);
	}
	return 0;
}
