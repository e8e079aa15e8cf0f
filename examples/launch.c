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

/*
 * The launcher's own options, first on the command line: --fabric FILE
 * and --model ib|roce, in either order. Returns the index of the first
 * argument after them.
 */
static int ex_options(int argc, char **argv, char *path, size_t len,
		      struct ibfs_simulation_opts *o)
{
	int i = 1;

	while (i + 1 < argc) {
		if (!strcmp(argv[i], "--fabric"))
			snprintf(path, len, "%s", argv[i + 1]);
		else if (!strcmp(argv[i], "--model"))
			o->model = argv[i + 1];
		else
			break;
		i += 2;
	}
	return i;
}

int ex_launch(int argc, char **argv, const struct ex_actor *actors, int n)
{
	char path[4096];
	struct ibfs_simulation_opts o = {0};
	const char *dir = getenv("IBFSIM_PLATFORMS");
	snprintf(path, sizeof(path), "%s/two-hca.xml",
		 dir ? dir : IBFS_PLATFORMS_DIR);
	ex_options(argc, argv, path, sizeof(path), &o);
	char err[1024];
	struct ibfs_simulation *s =
		ibfs_simulation_create(&argc, argv, path, &o, err,
				       sizeof(err));
	if (!s) {
		fprintf(stderr, "example: %s\n", err);
		return 2;
	}
	/* SimGrid took its own options (--cfg=...) out of argv: look for
	 * ours again to find the first argument of the actors. */
	int first = ex_options(argc, argv, path, sizeof(path), &o);
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
