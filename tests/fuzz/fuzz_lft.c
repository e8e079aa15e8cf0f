// SPDX-License-Identifier: MIT
/*
 * Fuzz harness: an opensm-lfts.dump, first through ibfs__lft_file_read
 * with callbacks that take every line, then through ibfs__lft_load
 * against the subnet of platforms/fat-tree-k4-l2.xml (its GUIDs, LIDs and
 * ports decide what is in range), as routing="file" reads it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fabric/xml_fabric.h"
#include "subnet_manager/lft_dump.h"
#include "subnet_manager/subnet.h"
#include "switch/lft_file.h"
#include "fuzz.h"

static int any_block(void *arg, const struct ibfs_lft_block *b,
		     const char *file, long line, struct ibfs_diag *d)
{
	return 0;
}

static int any_entry(void *arg, unsigned long lid, unsigned long port,
		     const char *file, long line, struct ibfs_diag *d)
{
	return 0;
}

static struct ibfs_subnet *subnet(void)
{
	/* Both kept for the whole process, which frees them at exit. */
	static struct ibfs_topology *t;
	static struct ibfs_subnet *sn;
	struct ibfs_diag d;
	char p[4096];

	if (sn)
		return sn;
	snprintf(p, sizeof(p), "%s/platforms/fat-tree-k4-l2.xml",
		 ibfs_fuzz_srcdir());
	t = ibfs__fabric_xml_load(p, &d);
	if (!t || !(sn = ibfs__subnet_from_topo(t, &d)) ||
	    ibfs__subnet_assign_lids(sn, 0, &d)) {
		fprintf(stderr, "%s\n", d.msg);
		abort();
	}
	return sn;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ibfs_lft_file_ops ops = { any_block, any_entry };
	struct ibfs_subnet *sn = subnet();
	struct ibfs_diag d;
	const char *path = ibfs_fuzz_file(data, size, "opensm-lfts.dump");

	ibfs__lft_file_read(path, &ops, NULL, &d);
	ibfs__lft_load(sn, path, &d);
	return 0;
}
