/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "cli/commands.h"

int ibfs_cmd_validate(int argc, char **argv)
{
	return ibfs_cli_not_built("'ibfsim validate'", "issue 2");
}
