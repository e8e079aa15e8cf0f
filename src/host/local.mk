# SPDX-License-Identifier: MIT
# Hosts with a kernel TCP/IP stack on an Ethernet fabric (--model tcp):
# the NIC as a fabric device driving the TCP engine of src/transport.
noinst_LTLIBRARIES += libibfs_host.la
libibfs_host_la_SOURCES = src/host/tcp_host.h src/host/tcp_host.c \
	src/fabric/tcp_frame.h src/host/tcp_host_int.h \
	src/host/host_profile.h src/host/host_profile.c \
	src/host/host_cpu.h src/host/host_cpu.c src/host/tcp_host_cpu.c
libibfs_host_la_LIBADD = libibfs_transport.la

# --model tcp as a user runs it: the one-way latency to the ps, bulk
# goodput, incast with two RTO floors, DCTCP's queue, every example,
# captures under tshark.
TESTS += tests/tcp_scenarios.sh
EXTRA_DIST += tests/tcp_scenarios.sh examples/tcp_incast.xml \
	examples/tcp_incast_rto1ms.xml

# A TCP frame as the captures encode it and the ECMP hash sees it.
check_PROGRAMS += tests/check_tcp_frame
tests_check_tcp_frame_SOURCES = tests/check_tcp_frame.c
tests_check_tcp_frame_CFLAGS = $(TEST_CFLAGS)
tests_check_tcp_frame_LDADD = $(TCP_TEST_LIBS)

# The hosts' CPU under --model tcp: a message's latency as the steps'
# sum to the ps, a bulk transfer bound by the receiver's copy, the CPU
# seconds conserved, ideal unchanged, compare's cpu_s, bad names.
TESTS += tests/host_cpu.sh
EXTRA_DIST += tests/host_cpu.sh
