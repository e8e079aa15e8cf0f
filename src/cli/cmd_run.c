/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "cli/commands.h"

int ibfs_cmd_run(int argc, char **argv)
{
	return ibfs_cli_not_built("'ibfsim run'", "issue 2");
}
