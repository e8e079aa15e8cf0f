# SPDX-License-Identifier: MIT
# Topology generators and interchange formats.
libibfs_fabric_la_SOURCES += \
	src/fabric/topo_gen.h src/fabric/topo_gen.c

check_PROGRAMS += tests/check_topo_gen
tests_check_topo_gen_SOURCES = tests/check_topo_gen.c
tests_check_topo_gen_CFLAGS = $(TEST_CFLAGS)
tests_check_topo_gen_LDADD = libibfs_fabric.la $(TEST_LIBS)
