/* SPDX-License-Identifier: MIT */
/*
 * The examples' launcher (see launch.h), on the public API only. The
 * default fabric file is looked for in $IBFSIM_PLATFORMS, else in the
 * source tree's platforms/ when built there (IBFS_PLATFORMS_DIR).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibfsim/simulation.h>

#include "launch.h"

#ifndef IBFS_PLATFORMS_DIR
#define IBFS_PLATFORMS_DIR "platforms"
#endif

static int ex_failed;

void ex_fail(const char *why)
{
	fprintf(stderr, "example: %s\n", why);
	ex_failed = 1;
}

int ex_launch(int argc, char **argv, const struct ex_actor *actors, int n)
{
	char path[4096];
	const char *dir = getenv("IBFSIM_PLATFORMS");
	snprintf(path, sizeof(path), "%s/two-hca.xml",
		 dir ? dir : IBFS_PLATFORMS_DIR);
	if (argc > 2 && !strcmp(argv[1], "--fabric"))
		snprintf(path, sizeof(path), "%s", argv[2]);
	char err[1024];
	struct ibfs_simulation *s =
		ibfs_simulation_create(&argc, argv, path, NULL, err,
				       sizeof(err));
	if (!s) {
		fprintf(stderr, "example: %s\n", err);
		return 2;
	}
	/* SimGrid took its own options (--cfg=...) out of argv: look for
	 * --fabric again to find the first argument of the actors. */
	int first = argc > 2 && !strcmp(argv[1], "--fabric") ? 3 : 1;
	for (int k = 0; k < n; k++) {
		if (ibfs_simulation_spawn(s, actors[k].host, actors[k].name,
					  actors[k].fn, argc - first,
					  argv + first)) {
			fprintf(stderr, "example: cannot start %s on %s\n",
				actors[k].name, actors[k].host);
			ibfs_simulation_destroy(s);
			return 2;
		}
	}
	int rc = ibfs_simulation_run(s);
	ibfs_simulation_destroy(s);
	if (rc) {
		fprintf(stderr, "example: the run did not finish (deadlock)\n");
		return 1;
	}
	return ex_failed ? 1 : 0;
}
