/* SPDX-License-Identifier: MIT */
/*
 * The subcommands of the ibfsim program. Each takes the arguments after its
 * name (argv[0] is the subcommand) and returns the process exit status:
 * 0 success, 1 the run failed, 2 bad usage or invalid input
 * (docs/results.md).
 */
#ifndef IBFS_CLI_COMMANDS_H
#define IBFS_CLI_COMMANDS_H

#include <stddef.h>

enum { IBFS_EXIT_OK = 0, IBFS_EXIT_FAIL = 1, IBFS_EXIT_USAGE = 2 };

int ibfs_cmd_run(int argc, char **argv);
int ibfs_cmd_route(int argc, char **argv);
int ibfs_cmd_topo(int argc, char **argv);
int ibfs_cmd_perftest(int argc, char **argv);
int ibfs_cmd_validate(int argc, char **argv);
int ibfs_cmd_compare(int argc, char **argv);
int ibfs_cmd_sweep(int argc, char **argv);
int ibfs_cmd_explain(int argc, char **argv);

/* Prints "ibfsim: msg" to stderr (printf format). */
void ibfs_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 if argv[i] is -h or --help. */
int ibfs_cli_is_help(const char *arg);
/* For commands not built yet: says so and returns IBFS_EXIT_USAGE. */
int ibfs_cli_not_built(const char *what, const char *issue);

/* An output a command will write: a file, or a directory (dir 1). */
struct ibfs_cli_output {
	const char *path; /* NULL: not asked for */
	int dir;
};
/*
 * Checks, before any work, that each output can be written (its
 * directory exists and may be written; a file is not a directory, and a
 * directory is one). Returns 0, or -1 after "ibfsim: PATH: cannot write:
 * REASON" for the first that cannot.
 */
int ibfs_cli_outputs_ok(const struct ibfs_cli_output *out, size_t n);

/*
 * route --mcast/--dump-mfts (route_mcast.c): groups "MGID=MEMBER,..." on
 * topology t (NULL after an error line), then their trees on t routed as
 * sn, written to path (NULL: none) as opensm-mfts.dump; this frees g and
 * returns an IBFS_EXIT_* status.
 */
struct ibfs_topology;
struct ibfs_subnet;
struct ibfs_mcast_group;
struct ibfs_mcast_group *ibfs_cli_route_mcast(const struct ibfs_topology *t,
					     const char *const *specs, int n);
int ibfs_cli_route_mfts(const struct ibfs_subnet *sn,
			struct ibfs_mcast_group *g, int n, const char *path);

#endif
