/* SPDX-License-Identifier: MIT */
/*
 * ibfsim: the command line. Dispatches to one function per subcommand
 * (commands.h); each parses its own options and prints its own --help.
 */
#define _DEFAULT_SOURCE /* setenv */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "cli/commands.h"

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
};

/*
 * Huge pages for the big runs. A large fabric touches tens of megabytes at
 * random (ports, switch queues, forwarding tables, queue pairs, packets,
 * events), and with 4 KiB pages almost every cache miss is a TLB miss as
 * well. Debian's kernels back memory with transparent huge pages only where
 * the program asked for them with madvise(MADV_HUGEPAGE)
 * (/sys/kernel/mm/transparent_hugepage/enabled is "madvise"), which glibc
 * does for its whole heap when the tunable glibc.malloc.hugetlb=1 is set
 * (glibc 2.35 and later; Debian 12 has 2.36). Tunables are read when a
 * program starts, so `run` and `route` execute themselves again, once, with
 * the tunable added. On the 11,664-HCA permutation of bench/README.md this
 * took user time from 42.7 to 28.5 s (back to back, same build), for 1.0 GB
 * of memory instead of 0.65 GB. Results do not depend on it.
 *
 * Not done when IBFSIM_HUGEPAGES=0, on the second start (marked by
 * IBFSIM_HUGEPAGES=restarted, so that an environment that drops the tunable
 * cannot loop), when the tunable is already set, or under valgrind (its
 * preload library would not follow the exec); if the exec fails the
 * command runs on with small pages.
 */
static void main_huge_pages(char **argv)
{
	const char *tun = getenv("GLIBC_TUNABLES");
	const char *pre = getenv("LD_PRELOAD");
	const char *opt = getenv("IBFSIM_HUGEPAGES");
	char buf[1024];

	if ((opt && (!strcmp(opt, "0") || !strcmp(opt, "restarted"))) ||
	    (tun && strstr(tun, "glibc.malloc.hugetlb")) ||
	    (pre && strstr(pre, "vgpreload")))
		return;
	int n = snprintf(buf, sizeof(buf), "%s%sglibc.malloc.hugetlb=1",
			 tun ? tun : "", tun && *tun ? ":" : "");

	if (n < 0 || (size_t)n >= sizeof(buf))
		return;
	/*
	 * Copies of the values to restore: setenv may invalidate what getenv
	 * returned before (POSIX), so tun and opt are not used after it.
	 */
	char *old = tun ? strdup(tun) : NULL;
	char *old_opt = opt ? strdup(opt) : NULL;

	if ((tun && !old) || (opt && !old_opt) ||
	    setenv("GLIBC_TUNABLES", buf, 1) ||
	    setenv("IBFSIM_HUGEPAGES", "restarted", 1)) {
		free(old);
		free(old_opt);
		return;
	}
	execv("/proc/self/exe", argv);
	/* Still here: run on as we are, with the environment as it was. */
	if (old_opt)
		setenv("IBFSIM_HUGEPAGES", old_opt, 1);
	else
		unsetenv("IBFSIM_HUGEPAGES");
	if (old)
		setenv("GLIBC_TUNABLES", old, 1);
	else
		unsetenv("GLIBC_TUNABLES");
	free(old);
	free(old_opt);
}

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
		main_huge_pages(argv);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	ibfs_cli_error("unknown command '%s' (try 'ibfsim --help')", argv[1]);
	return IBFS_EXIT_USAGE;
}
