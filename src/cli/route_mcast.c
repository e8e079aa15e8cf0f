/* SPDX-License-Identifier: MIT */
/*
 * ibfsim route --mcast MGID=MEMBERS ... --dump-mfts FILE: the multicast
 * groups' spanning trees on the routed fabric, as the subnet manager
 * builds them (subnet_manager/mcast_tree.c), written as OpenSM's
 * opensm-mfts.dump. MLIDs go from 0xC000 in the order the groups are
 * given, as OpenSM hands them out.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "subnet_manager/mcast.h"

/* The subnet of a topology: node i is topology node i. */
static int rm_same(void *ctx, int node)
{
	(void)ctx;
	return node;
}

static void rm_free(struct ibfs_mcast_group *g, int n)
{
	for (int i = 0; i < n; i++)
		free(g[i].members);
	free(g);
}

/* "MGID=MEMBER,..." into g; 0, or -1 after an error line. */
static int rm_parse(const struct ibfs_topology *t, const char *spec,
		    struct ibfs_mcast_group *g, const struct ibfs_mcast_group *prev,
		    int nprev)
{
	char err[256], mgid[64];
	const char *eq = strchr(spec, '=');

	if (!eq || (size_t)(eq - spec) >= sizeof(mgid)) {
		ibfs_cli_error("route: --mcast '%s': expected MGID=MEMBER,...",
			       spec);
		return -1;
	}
	memcpy(mgid, spec, (size_t)(eq - spec));
	mgid[eq - spec] = '\0';
	if (ibfs__mcast_parse_mgid(mgid, g->mgid, err, sizeof(err)) < 0 ||
	    ibfs__mcast_parse_members(t, eq + 1, g, err, sizeof(err)) < 0) {
		ibfs_cli_error("route: --mcast '%s': %s", spec, err);
		return -1;
	}
	for (int i = 0; i < nprev; i++)
		if (!memcmp(prev[i].mgid, g->mgid, 16)) {
			ibfs_cli_error("route: --mcast '%s': the MGID of "
				       "another --mcast", spec);
			return -1;
		}
	return 0;
}

struct ibfs_mcast_group *ibfs_cli_route_mcast(const struct ibfs_topology *t,
					     const char *const *specs, int n)
{
	struct ibfs_mcast_group *g = calloc((size_t)n + 1, sizeof(*g));

	if (!g) {
		ibfs_cli_error("route: out of memory");
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		g[i].id = specs[i];
		g[i].mlid = (uint16_t)(IBFS_MLID_FIRST + i);
		if (rm_parse(t, specs[i], &g[i], g, i) < 0) {
			rm_free(g, n);
			return NULL;
		}
	}
	return g;
}

int ibfs_cli_route_mfts(const struct ibfs_subnet *sn,
			struct ibfs_mcast_group *g, int n, const char *path)
{
	size_t words = (size_t)sn->nsw * (size_t)n * IBFS_MCAST_MASK_WORDS;
	uint64_t *m = malloc((words ? words : 1) * sizeof(*m));
	int rc = m && ibfs__mcast_trees(sn, g, n, rm_same, NULL, m) == 0 ?
			 IBFS_EXIT_OK :
			 IBFS_EXIT_FAIL;

	if (rc != IBFS_EXIT_OK)
		ibfs_cli_error("route: out of memory");
	if (rc == IBFS_EXIT_OK && path) {
		FILE *f = fopen(path, "w");
		int bad = !f || ibfs__mft_dump(sn, g, n, m, f) != 0;

		if (f)
			bad |= fclose(f) != 0;
		if (bad) {
			ibfs_cli_error("%s: cannot write", path);
			rc = IBFS_EXIT_FAIL;
		}
	}
	if (rc == IBFS_EXIT_OK && n)
		printf("multicast groups: %d (MLIDs 0x%04X-0x%04X)\n", n,
		       IBFS_MLID_FIRST, IBFS_MLID_FIRST + n - 1);
	rm_free(g, n);
	free(m);
	return rc;
}
