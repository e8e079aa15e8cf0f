# SPDX-License-Identifier: MIT
# Hosts with a kernel TCP/IP stack on an Ethernet fabric (--model tcp):
# the NIC as a fabric device driving the TCP engine of src/transport.
noinst_LTLIBRARIES += libibfs_host.la
libibfs_host_la_SOURCES = src/host/tcp_host.h src/host/tcp_host.c \
	src/fabric/tcp_frame.h
libibfs_host_la_LIBADD = libibfs_transport.la
