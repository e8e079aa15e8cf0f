# SPDX-License-Identifier: MIT
# Engine core: units, pools, the event queue, random streams, diagnostics,
# link rates.
noinst_LTLIBRARIES += libibfs_fabric.la
libibfs_fabric_la_SOURCES = \
	src/fabric/time.h src/fabric/units.h src/fabric/units.c \
	src/fabric/pool.h src/fabric/pool.c \
	src/fabric/event_queue.h src/fabric/event_queue.c \
	src/fabric/rng.h src/fabric/rng.c \
	src/fabric/diag.h src/fabric/diag.c \
	src/fabric/link_rate.h src/fabric/link_rate.c \
	src/fabric/exec.h
libibfs_fabric_la_LIBADD = $(LIBXML_LIBS) -lm
