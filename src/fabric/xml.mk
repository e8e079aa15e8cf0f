# SPDX-License-Identifier: MIT
# The static topology and the fabric XML loader, their tests and test data.
libibfs_fabric_la_SOURCES += \
	src/fabric/topology.h src/fabric/topology.c \
	src/fabric/xml_fabric.h src/fabric/xml_fabric.c

check_PROGRAMS += tests/check_topology
tests_check_topology_SOURCES = tests/check_topology.c
tests_check_topology_CFLAGS = $(TEST_CFLAGS)
tests_check_topology_LDADD = libibfs_fabric.la $(TEST_LIBS)
