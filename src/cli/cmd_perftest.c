/* SPDX-License-Identifier: MIT */
/* ibfsim perftest: not built yet. */
#include <stdio.h>

#include "cli/commands.h"

int ibfs_cmd_perftest(int argc, char **argv)
{
	if (argc > 1 && ibfs_cli_is_help(argv[1])) {
		printf("Usage: ibfsim perftest ... (not built yet: issue 4)\n");
		return IBFS_EXIT_OK;
	}
	return ibfs_cli_not_built("'ibfsim perftest'", "issue 4");
}
