# SPDX-License-Identifier: MIT
# The SimGrid bridge: hosts derived from the fabric's HCAs, application
# actors, conservative synchronisation of the fabric with SimGrid's clock.
noinst_LTLIBRARIES += libibfs_bridge.la
libibfs_bridge_la_SOURCES = \
	src/bridge/bridge.h src/bridge/bridge_int.h \
	src/bridge/bridge.c src/bridge/sync.c src/bridge/oob.c
ibfsiminclude_HEADERS += include/ibfsim/sim.h

check_PROGRAMS += tests/check_bridge
tests_check_bridge_SOURCES = tests/check_bridge.c
tests_check_bridge_CFLAGS = $(TEST_CFLAGS)
tests_check_bridge_LDADD = libibfs_bridge.la libibfs_fabric.la $(TEST_LIBS)
