# SPDX-License-Identifier: MIT
# Fabric benchmarks: a packet stream through the two-endpoint, one-switch
# skeleton, and uniform random traffic on a 648-HCA fat tree.
EXTRA_PROGRAMS += bench/bench_fabric
bench_bench_fabric_SOURCES = bench/bench_fabric.c
bench_bench_fabric_LDADD = libibfs_switch.la libibfs_fabric.la \
	$(LIBXML_LIBS) -lm
BENCHES += bench/bench_fabric$(EXEEXT)
BENCH_RUN += bench/bench_fabric
CLEANFILES += bench/bench_fabric$(EXEEXT)
# A/B timing of two bench_fabric builds, and the scale check
# (docs/performance.md, the method).
EXTRA_DIST += bench/ab.sh bench/scale.sh bench/models.sh bench/identity.sh \
	bench/websearch.sh
