# SPDX-License-Identifier: MIT
# Example programs on the public API, built and run by make check.
EXAMPLE_LDADD = libibfsim.la $(SIMGRID_LIBS) $(LIBXML_LIBS) -lm
check_PROGRAMS += examples/rc_pingpong examples/rdma_write_bw \
	examples/rdma_read
examples_rc_pingpong_SOURCES = examples/rc_pingpong.c examples/launch.c \
	examples/launch.h examples/common.h
examples_rc_pingpong_LDADD = $(EXAMPLE_LDADD)
examples_rdma_write_bw_SOURCES = examples/rdma_write_bw.c examples/launch.c \
	examples/launch.h examples/common.h
examples_rdma_write_bw_LDADD = $(EXAMPLE_LDADD)
examples_rdma_read_SOURCES = examples/rdma_read.c examples/launch.c \
	examples/launch.h examples/common.h
examples_rdma_read_LDADD = $(EXAMPLE_LDADD)
TESTS += examples/run_examples.sh tests/examples_pkgconfig.sh
EXTRA_DIST += examples/run_examples.sh tests/examples_pkgconfig.sh \
	examples/README.md
