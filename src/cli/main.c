/* SPDX-License-Identifier: MIT */
/*
 * ibfsim: the command line. Dispatches to one function per subcommand
 * (commands.h); each parses its own options and prints its own --help.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cli/commands.h"
#include "fabric/huge_pages.h"

static const char usage[] =
	"Usage: ibfsim COMMAND [ARGS]\n"
	"\n"
	"An InfiniBand fabric simulator: packets, credits, queue pairs and the\n"
	"subnet manager, timed to the picosecond.\n"
	"\n"
	"Commands:\n"
	"  run SCENARIO.xml      run a scenario and report its results\n"
	"  route FABRIC.xml      run the subnet manager alone and report routes\n"
	"  topo gen|import|export|info   make, convert and describe topologies\n"
	"  perftest TEST         perftest-style latency and bandwidth tests\n"
	"  validate FILE.xml     check a fabric or scenario file\n"
	"  compare SCENARIO.xml  all transport models side by side\n"
	"  sweep GRID.xml        a grid of runs, a CSV row each\n"
	"  explain               one message's life, step by step\n"
	"\n"
	"Options: --help, --version. 'ibfsim COMMAND --help' for each command.\n"
	"Exit status: 0 success, 1 the run failed, 2 bad usage or input.\n";

void ibfs_cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("ibfsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int ibfs_cli_is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int ibfs_cli_not_built(const char *what, const char *issue)
{
	ibfs_cli_error("%s is not built yet (planned in %s)", what, issue);
	return IBFS_EXIT_USAGE;
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
} commands[] = {
	{"run", ibfs_cmd_run},
	{"route", ibfs_cmd_route},
	{"topo", ibfs_cmd_topo},
	{"perftest", ibfs_cmd_perftest},
	{"validate", ibfs_cmd_validate},
	{"compare", ibfs_cmd_compare},
	{"sweep", ibfs_cmd_sweep},
	{"explain", ibfs_cmd_explain},
};

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return IBFS_EXIT_USAGE;
	}
	if (ibfs_cli_is_help(argv[1])) {
		fputs(usage, stdout);
		return IBFS_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("ibfsim %s\n", PACKAGE_VERSION);
		return IBFS_EXIT_OK;
	}
	if (!strcmp(argv[1], "run") || !strcmp(argv[1], "route"))
		ibfs__huge_pages_restart(argv);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	ibfs_cli_error("unknown command '%s' (try 'ibfsim --help')", argv[1]);
	return IBFS_EXIT_USAGE;
}
