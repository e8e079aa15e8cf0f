# SPDX-License-Identifier: MIT
bin_PROGRAMS += ibfsim
ibfsim_SOURCES = src/cli/commands.h src/cli/main.c src/cli/cmd_run.c \
	src/cli/cmd_validate.c src/cli/cmd_route.c src/cli/cmd_topo.c \
	src/cli/cmd_perftest.c src/cli/cmd_compare.c src/cli/compare_int.h \
	src/cli/compare_html.c src/cli/runs.h src/cli/runs.c src/cli/outputs.c \
	src/cli/sweep.h src/cli/sweep_grid.c src/cli/cmd_sweep.c \
	src/cli/sweep_mpi.h src/cli/sweep_mpi.c src/cli/cmd_explain.c \
	src/cli/route_mcast.c
# The program links the layers' convenience libraries rather than the shared
# libibfsim: calls between layers are then direct, not through the PLT (about
# 1% of a run's instructions). The installed library is unchanged.
ibfsim_LDADD = libibfs_scenario.la libibfs_bridge.la libibfs_sm.la \
	libibfs_hca.la libibfs_switch.la libibfs_fabric.la \
	$(SIMGRID_LIBS) $(LIBXML_LIBS) -lm -ldl

# The huge-page restart: same results with and without it, one restart.
TESTS += tests/hugepages.sh
EXTRA_DIST += tests/hugepages.sh

# `ibfsim topo`: usage errors, every generator's counts, info and export.
TESTS += tests/topo_cli.sh
EXTRA_DIST += tests/topo_cli.sh
# Our .net export through the real ibsim and ibnetdiscover, and back.
TESTS += tests/ibnetdiscover_roundtrip.sh
EXTRA_DIST += tests/ibnetdiscover_roundtrip.sh
# `ibfsim run`'s usage errors and outputs checked before anything runs.
TESTS += tests/run_cli.sh
EXTRA_DIST += tests/run_cli.sh
# What the command tests share (validate.sh, sm_route_cli.sh, topo_cli.sh,
# run_cli.sh).
EXTRA_DIST += tests/cli_check.sh

# `ibfsim route` and `ibfsim topo` as a user runs them: report lines in
# closed form, exit status 2 and FILE:LINE for bad input.
check_PROGRAMS += tests/check_route_cli
tests_check_route_cli_SOURCES = tests/check_route_cli.c
tests_check_route_cli_CFLAGS = $(TEST_CFLAGS)
tests_check_route_cli_LDADD = $(TEST_LIBS)

# ibfsim sweep, end to end (gnuplot for its plot).
TESTS += tests/sweep.sh
EXTRA_DIST += tests/sweep.sh examples/sweep_fat_tree.xml \
	examples/sweep_permutation.xml

# ibfsim explain: one message's steps from a run.
TESTS += tests/explain.sh
EXTRA_DIST += tests/explain.sh
