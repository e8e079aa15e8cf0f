# SPDX-License-Identifier: MIT
# Packet encoding (LRH..VCRC, ICRC and VCRC) and pcap/ERF captures.
libibfs_fabric_la_SOURCES += \
	src/fabric/packet_encode.h src/fabric/packet_encode.c \
	src/fabric/capture.h src/fabric/capture.c \
	src/fabric/port_set.h src/fabric/port_set.c \
	src/fabric/partfile.h src/fabric/partfile.c

check_PROGRAMS += tests/check_packet_encode tests/check_capture
tests_check_packet_encode_SOURCES = tests/check_packet_encode.c
tests_check_packet_encode_CFLAGS = $(TEST_CFLAGS)
tests_check_packet_encode_LDADD = libibfs_fabric.la $(TEST_LIBS)
tests_check_capture_SOURCES = tests/check_capture.c
tests_check_capture_CFLAGS = $(TEST_CFLAGS)
tests_check_capture_LDADD = libibfs_fabric.la $(TEST_LIBS)
TESTS += tests/capture_tshark.sh
EXTRA_DIST += tests/capture_tshark.sh

# RoCEv2 and PFC frames byte for byte, checked against sums and CRCs
# computed in the test; tshark dissects a RoCEv2 run's Ethernet capture.
check_PROGRAMS += tests/check_roce_encode
# roce_tshark.sh's capture writer, a program the script runs (not a test).
noinst_PROGRAMS += tests/roce_capture
tests_check_roce_encode_SOURCES = tests/check_roce_encode.c
tests_check_roce_encode_CFLAGS = $(TEST_CFLAGS)
tests_check_roce_encode_LDADD = libibfs_fabric.la $(TEST_LIBS)
tests_roce_capture_SOURCES = tests/roce_capture.c
tests_roce_capture_CFLAGS = $(TEST_CFLAGS)
tests_roce_capture_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)
TESTS += tests/roce_tshark.sh
EXTRA_DIST += tests/roce_tshark.sh
