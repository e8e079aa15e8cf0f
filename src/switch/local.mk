# SPDX-License-Identifier: MIT
# The switch: input buffers, crossbar and output arbiters, VL arbitration,
# SL-to-VL, forwarding tables, deadlock detection.
noinst_LTLIBRARIES += libibfs_switch.la
libibfs_switch_la_SOURCES = \
	src/switch/switch.h src/switch/switch_int.h src/switch/switch.c \
	src/switch/eth_routes.h \
	src/switch/crossbar.c src/switch/vlarb.c src/switch/sl2vl.c \
	src/switch/forwarding.c src/switch/lft_file.h src/switch/lft_file.c \
	src/switch/deadlock.c \
	src/switch/port_state.c src/switch/cc_mark.c src/switch/mc_start.c

check_PROGRAMS += tests/check_switch
tests_check_switch_SOURCES = tests/check_switch.c tests/switch_star.h
tests_check_switch_CFLAGS = $(TEST_CFLAGS)
tests_check_switch_LDADD = libibfs_switch.la libibfs_fabric.la $(TEST_LIBS)

check_PROGRAMS += tests/check_switch_paths
tests_check_switch_paths_SOURCES = tests/check_switch_paths.c \
	tests/switch_star.h
tests_check_switch_paths_CFLAGS = $(TEST_CFLAGS)
tests_check_switch_paths_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(TEST_LIBS)

# A switch output whose flow control pauses it (PFC's place).
check_PROGRAMS += tests/check_switch_pause
tests_check_switch_pause_SOURCES = tests/check_switch_pause.c \
	tests/switch_star.h
tests_check_switch_pause_CFLAGS = $(TEST_CFLAGS)
tests_check_switch_pause_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(TEST_LIBS)

check_PROGRAMS += tests/check_switch_tables
tests_check_switch_tables_SOURCES = tests/check_switch_tables.c \
	tests/switch_star.h
tests_check_switch_tables_CFLAGS = $(TEST_CFLAGS)
tests_check_switch_tables_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(TEST_LIBS)

check_PROGRAMS += tests/check_switch_deadlock
tests_check_switch_deadlock_SOURCES = tests/check_switch_deadlock.c
tests_check_switch_deadlock_CFLAGS = $(TEST_CFLAGS)
tests_check_switch_deadlock_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(TEST_LIBS)
EXTRA_DIST += tests/data/switch/ring4.xml

check_PROGRAMS += tests/check_switch_lfts
tests_check_switch_lfts_SOURCES = tests/check_switch_lfts.c
tests_check_switch_lfts_CFLAGS = $(TEST_CFLAGS)
tests_check_switch_lfts_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(TEST_LIBS)
EXTRA_DIST += tests/data/switch/ring4-line.lfts

# Congestion marking (IBA A10.2.1): FECN marks in closed form.
check_PROGRAMS += tests/check_cc_mark
tests_check_cc_mark_SOURCES = tests/check_cc_mark.c tests/switch_star.h
tests_check_cc_mark_CFLAGS = $(TEST_CFLAGS)
tests_check_cc_mark_LDADD = libibfs_switch.la libibfs_fabric.la $(TEST_LIBS)

# Links and switches going down and up (link_state.c, port_state.c).
check_PROGRAMS += tests/check_fault
tests_check_fault_SOURCES = tests/check_fault.c tests/switch_star.h
tests_check_fault_CFLAGS = $(TEST_CFLAGS)
tests_check_fault_LDADD = libibfs_switch.la libibfs_fabric.la $(TEST_LIBS)

# Ethernet: shortest-path ECMP next hops from the topology (eth_routes.h).
libibfs_switch_la_SOURCES += src/switch/eth_routes.c
check_PROGRAMS += tests/check_eth_routes
tests_check_eth_routes_SOURCES = tests/check_eth_routes.c
tests_check_eth_routes_CFLAGS = $(TEST_CFLAGS)
tests_check_eth_routes_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(TEST_LIBS)

# The Ethernet switch: shared buffer, PFC, egress scheduling, ECMP.
libibfs_switch_la_SOURCES += src/switch/eth_switch.h \
	src/switch/eth_switch_int.h src/switch/eth_switch.c \
	src/switch/eth_buffer.c src/switch/eth_egress.c \
	src/switch/eth_int.h src/switch/eth_int.c
check_PROGRAMS += tests/check_eth_switch
tests_check_eth_switch_SOURCES = tests/check_eth_switch.c tests/eth_star.h
tests_check_eth_switch_CFLAGS = $(TEST_CFLAGS)
tests_check_eth_switch_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(TEST_LIBS)
# ECN marking at the Ethernet switch's egress queues (eth_ecn.c).
libibfs_switch_la_SOURCES += src/switch/eth_ecn.h src/switch/eth_ecn.c
check_PROGRAMS += tests/check_eth_ecn
tests_check_eth_ecn_SOURCES = tests/check_eth_ecn.c tests/eth_star.h
tests_check_eth_ecn_CFLAGS = $(TEST_CFLAGS)
tests_check_eth_ecn_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(TEST_LIBS)

# PFC deadlocks: cycles of paused lossless buffers (eth_deadlock.c).
libibfs_switch_la_SOURCES += src/switch/eth_deadlock.h \
	src/switch/eth_deadlock.c
check_PROGRAMS += tests/check_eth_deadlock
tests_check_eth_deadlock_SOURCES = tests/check_eth_deadlock.c \
	tests/eth_star.h
tests_check_eth_deadlock_CFLAGS = $(TEST_CFLAGS)
tests_check_eth_deadlock_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(TEST_LIBS)

# In-band telemetry stamped at the egress (eth_int.c), for HPCC.
check_PROGRAMS += tests/check_eth_int
tests_check_eth_int_SOURCES = tests/check_eth_int.c tests/eth_star.h
tests_check_eth_int_CFLAGS = $(TEST_CFLAGS)
tests_check_eth_int_LDADD = libibfs_switch.la libibfs_fabric.la $(TEST_LIBS)
