/* SPDX-License-Identifier: MIT */
/* ibfsim compare: not built yet. */
#include <stdio.h>

#include "cli/commands.h"

int ibfs_cmd_compare(int argc, char **argv)
{
	if (argc > 1 && ibfs_cli_is_help(argv[1])) {
		printf("Usage: ibfsim compare ... (not built yet: the second wave)\n");
		return IBFS_EXIT_OK;
	}
	return ibfs_cli_not_built("'ibfsim compare'", "the second wave");
}
