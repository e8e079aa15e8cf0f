// SPDX-License-Identifier: MIT
/*
 * Fuzz harness: an ibnetdiscover / ibsim .net file through
 * ibfs__netfile_read, from memory.
 */
#include <stdio.h>

#include "fabric/topo_netfile.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibfs_diag d;
	const char *path = ibfs_fuzz_file(data, size, "fabric.net");
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	struct ibfs_topology *t = ibfs__netfile_read(f, "fabric.net", &d);
	fclose(f);
	if (t)
		ibfs__topo_free(t);
	return 0;
}
