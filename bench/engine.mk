# SPDX-License-Identifier: MIT
# Engine benchmarks: the bare event queue under the hold model.
EXTRA_PROGRAMS += bench/bench_queue
bench_bench_queue_SOURCES = bench/bench_queue.c
bench_bench_queue_LDADD = libibfs_fabric.la $(LIBXML_LIBS) -lm
BENCHES += bench/bench_queue$(EXEEXT)
BENCH_RUN += bench/bench_queue
CLEANFILES += bench/bench_queue$(EXEEXT)
EXTRA_DIST += bench/README.md
