# SPDX-License-Identifier: MIT
# The SimGrid bridge: hosts derived from the fabric's HCAs, application
# actors, conservative synchronisation of the fabric with SimGrid's clock.
noinst_LTLIBRARIES += libibfs_bridge.la
libibfs_bridge_la_SOURCES = \
	src/bridge/bridge.h src/bridge/bridge_int.h \
	src/bridge/bridge.c src/bridge/sync.c src/bridge/oob.c \
	src/bridge/stacks.c
ibfsiminclude_HEADERS += include/ibfsim/sim.h

check_PROGRAMS += tests/check_bridge
tests_check_bridge_SOURCES = tests/check_bridge.c
tests_check_bridge_CFLAGS = $(TEST_CFLAGS)
tests_check_bridge_LDADD = libibfs_bridge.la libibfs_fabric.la $(TEST_LIBS)
check_PROGRAMS += tests/check_bridge_stacks
tests_check_bridge_stacks_SOURCES = tests/check_bridge_stacks.c
tests_check_bridge_stacks_CFLAGS = $(TEST_CFLAGS)
tests_check_bridge_stacks_LDADD = libibfs_bridge.la libibfs_fabric.la \
	$(TEST_LIBS)

# Round trips per second through the bridge (make bench).
EXTRA_PROGRAMS += bench/bench_bridge
bench_bench_bridge_SOURCES = bench/bench_bridge.c
bench_bench_bridge_LDADD = libibfs_bridge.la libibfs_fabric.la \
	$(SIMGRID_LIBS) $(LIBXML_LIBS) -lm
BENCHES += bench/bench_bridge$(EXEEXT)
BENCH_RUN += bench/bench_bridge
CLEANFILES += bench/bench_bridge$(EXEEXT)
