# SPDX-License-Identifier: MIT
# Topology generators and interchange formats.
libibfs_fabric_la_SOURCES += \
	src/fabric/topo_gen.h src/fabric/topo_gen.c \
	src/fabric/topo_gen_int.h src/fabric/topo_gen_direct.c \
	src/fabric/topo_gen_slimfly.c \
	src/fabric/topo_netfile.h src/fabric/topo_netfile.c \
	src/fabric/topo_export.h src/fabric/topo_export.c \
	src/fabric/topo_info.h src/fabric/topo_info.c

check_PROGRAMS += tests/check_topo_gen
tests_check_topo_gen_SOURCES = tests/check_topo_gen.c tests/topo_gen_test.h
tests_check_topo_gen_CFLAGS = $(TEST_CFLAGS)
tests_check_topo_gen_LDADD = libibfs_fabric.la $(TEST_LIBS)
check_PROGRAMS += tests/check_topo_gen_direct
tests_check_topo_gen_direct_SOURCES = tests/check_topo_gen_direct.c \
	tests/topo_gen_test.h
tests_check_topo_gen_direct_CFLAGS = $(TEST_CFLAGS)
tests_check_topo_gen_direct_LDADD = libibfs_fabric.la $(TEST_LIBS)
check_PROGRAMS += tests/check_netfile
tests_check_netfile_SOURCES = tests/check_netfile.c
tests_check_netfile_CFLAGS = $(TEST_CFLAGS)
tests_check_netfile_LDADD = libibfs_fabric.la $(TEST_LIBS)
EXTRA_DIST += tests/data/sm/fat-tree-k4-l2.ibnetdiscover
