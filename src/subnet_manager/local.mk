# SPDX-License-Identifier: MIT
# The subnet manager: the subnet graph with LIDs, the routing engines (one
# file each, as OpenSM), credit-loop analysis and LFT dumps.
noinst_LTLIBRARIES += libibfs_sm.la
libibfs_sm_la_SOURCES = \
	src/subnet_manager/subnet.h src/subnet_manager/subnet.c \
	src/subnet_manager/routing.h src/subnet_manager/routing.c \
	src/subnet_manager/route_core.c \
	src/subnet_manager/route_minhop.c src/subnet_manager/route_dor.c \
	src/subnet_manager/route_updn.c src/subnet_manager/route_dnup.c \
	src/subnet_manager/route_ftree.c src/subnet_manager/route_dfsssp.c \
	src/subnet_manager/route_file.c \
	src/subnet_manager/route_stats.c \
	src/subnet_manager/credit_loop.h src/subnet_manager/credit_loop.c \
	src/subnet_manager/lft_dump.h src/subnet_manager/lft_dump.c
