# SPDX-License-Identifier: MIT
# Routing at scale: ftree and minhop on the 3-level fat tree of 36-port
# switches (11,664 HCAs, 1,620 switches).
EXTRA_PROGRAMS += bench/bench_route
bench_bench_route_SOURCES = bench/bench_route.c
bench_bench_route_LDADD = libibfs_sm.la libibfs_fabric.la \
	$(LIBXML_LIBS) -lm
BENCHES += bench/bench_route$(EXEEXT)
BENCH_RUN += bench/bench_route
CLEANFILES += bench/bench_route$(EXEEXT)

# Ethernet ECMP tables (switch/eth_routes.c) of the same fat tree.
EXTRA_PROGRAMS += bench/bench_eth_routes
bench_bench_eth_routes_SOURCES = bench/bench_eth_routes.c
bench_bench_eth_routes_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(LIBXML_LIBS) -lm
BENCHES += bench/bench_eth_routes$(EXEEXT)
BENCH_RUN += bench/bench_eth_routes
CLEANFILES += bench/bench_eth_routes$(EXEEXT)
