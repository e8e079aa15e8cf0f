/* SPDX-License-Identifier: MIT */
/* ibfsim route: not built yet. */
#include <stdio.h>

#include "cli/commands.h"

int ibfs_cmd_route(int argc, char **argv)
{
	if (argc > 1 && ibfs_cli_is_help(argv[1])) {
		printf("Usage: ibfsim route ... (not built yet: issue 5)\n");
		return IBFS_EXIT_OK;
	}
	return ibfs_cli_not_built("'ibfsim route'", "issue 5");
}
