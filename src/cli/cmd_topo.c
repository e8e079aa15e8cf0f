/* SPDX-License-Identifier: MIT */
/* ibfsim topo: not built yet. */
#include <stdio.h>

#include "cli/commands.h"

int ibfs_cmd_topo(int argc, char **argv)
{
	if (argc > 1 && ibfs_cli_is_help(argv[1])) {
		printf("Usage: ibfsim topo ... (not built yet: issue 5)\n");
		return IBFS_EXIT_OK;
	}
	return ibfs_cli_not_built("'ibfsim topo'", "issue 5");
}
