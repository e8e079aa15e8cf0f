# SPDX-License-Identifier: MIT
# The transport protocols over Ethernet (uses src/fabric only): the TCP
# engine, event-driven, owning neither time nor the network, with its
# congestion controls (docs/tcp.md).
noinst_LTLIBRARIES += libibfs_transport.la
libibfs_transport_la_SOURCES = \
	src/transport/tcp.h src/transport/tcp_int.h src/transport/tcp_cc.h \
	src/transport/tcp_conn.c src/transport/tcp_wire.c \
	src/transport/tcp_send.c src/transport/tcp_ack.c \
	src/transport/tcp_recv.c src/transport/tcp_rto.c \
	src/transport/tcp_recovery.c src/transport/tcp_cc_reno.c \
	src/transport/tcp_cc_cubic.c src/transport/tcp_cc_dctcp.c
libibfs_transport_la_LIBADD = -lm

TCP_TEST_LIBS = libibfs_transport.la libibfs_fabric.la $(TEST_LIBS)

# The engine between two endpoints of a test's own (check_tcp_pair.h): a
# fixed one-way delay, a link rate, chosen drops and CE marks; times to
# the picosecond.
check_PROGRAMS += tests/check_tcp_conn
tests_check_tcp_conn_SOURCES = tests/check_tcp_conn.c tests/check_tcp_pair.h
tests_check_tcp_conn_CFLAGS = $(TEST_CFLAGS)
tests_check_tcp_conn_LDADD = $(TCP_TEST_LIBS)

check_PROGRAMS += tests/check_tcp_send
tests_check_tcp_send_SOURCES = tests/check_tcp_send.c tests/check_tcp_pair.h
tests_check_tcp_send_CFLAGS = $(TEST_CFLAGS)
tests_check_tcp_send_LDADD = $(TCP_TEST_LIBS)

check_PROGRAMS += tests/check_tcp_rto
tests_check_tcp_rto_SOURCES = tests/check_tcp_rto.c tests/check_tcp_pair.h
tests_check_tcp_rto_CFLAGS = $(TEST_CFLAGS)
tests_check_tcp_rto_LDADD = $(TCP_TEST_LIBS)

check_PROGRAMS += tests/check_tcp_recovery
tests_check_tcp_recovery_SOURCES = tests/check_tcp_recovery.c \
	tests/check_tcp_pair.h
tests_check_tcp_recovery_CFLAGS = $(TEST_CFLAGS)
tests_check_tcp_recovery_LDADD = $(TCP_TEST_LIBS)

check_PROGRAMS += tests/check_tcp_cc
tests_check_tcp_cc_SOURCES = tests/check_tcp_cc.c tests/check_tcp_pair.h
tests_check_tcp_cc_CFLAGS = $(TEST_CFLAGS)
tests_check_tcp_cc_LDADD = $(TCP_TEST_LIBS)

check_PROGRAMS += tests/check_tcp_recv
tests_check_tcp_recv_SOURCES = tests/check_tcp_recv.c tests/check_tcp_pair.h
tests_check_tcp_recv_CFLAGS = $(TEST_CFLAGS)
tests_check_tcp_recv_LDADD = $(TCP_TEST_LIBS)
