# SPDX-License-Identifier: MIT
# Runtime fabric: packets, ports and links, credit-based flow control, and
# the minimal end node used by link and switch tests and benchmarks.
libibfs_fabric_la_SOURCES += \
	src/fabric/packet.h src/fabric/packet.c src/fabric/bytes.h \
	src/fabric/link.h src/fabric/link.c src/fabric/credits.c \
	src/fabric/link_state.c \
	src/fabric/vl_arbiter.h src/fabric/vl_arbiter.c \
	src/fabric/pkey.h src/fabric/pkey.c \
	src/fabric/fabric.h src/fabric/fabric.c \
	src/fabric/endpoint.h src/fabric/endpoint.c \
	src/fabric/eth.h src/fabric/eth.c

check_PROGRAMS += tests/check_packet tests/check_link tests/check_link_fcp \
	tests/check_flow_ops
tests_check_packet_SOURCES = tests/check_packet.c
tests_check_packet_CFLAGS = $(TEST_CFLAGS)
tests_check_packet_LDADD = libibfs_fabric.la $(TEST_LIBS)
tests_check_link_SOURCES = tests/check_link.c tests/link_pair.h
tests_check_link_CFLAGS = $(TEST_CFLAGS)
tests_check_link_LDADD = libibfs_fabric.la $(TEST_LIBS)
tests_check_link_fcp_SOURCES = tests/check_link_fcp.c tests/link_pair.h
tests_check_link_fcp_CFLAGS = $(TEST_CFLAGS)
tests_check_link_fcp_LDADD = libibfs_fabric.la $(TEST_LIBS)
tests_check_flow_ops_SOURCES = tests/check_flow_ops.c tests/link_pair.h
tests_check_flow_ops_CFLAGS = $(TEST_CFLAGS)
tests_check_flow_ops_LDADD = libibfs_fabric.la $(TEST_LIBS)

# Ethernet framing, pause times, addresses and the ECMP hash (eth.c).
check_PROGRAMS += tests/check_eth
tests_check_eth_SOURCES = tests/check_eth.c
tests_check_eth_CFLAGS = $(TEST_CFLAGS)
tests_check_eth_LDADD = libibfs_fabric.la $(TEST_LIBS)

# PFC (IEEE 802.1Qbb): the flow control of an Ethernet link (pfc.c).
libibfs_fabric_la_SOURCES += src/fabric/pfc.h src/fabric/pfc.c
check_PROGRAMS += tests/check_pfc
tests_check_pfc_SOURCES = tests/check_pfc.c tests/eth_star.h
tests_check_pfc_CFLAGS = $(TEST_CFLAGS)
tests_check_pfc_LDADD = libibfs_switch.la libibfs_fabric.la $(TEST_LIBS)
