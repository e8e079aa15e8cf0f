# SPDX-License-Identifier: MIT
# Engine core: units, pools, the event queue, random streams, diagnostics,
# link rates.
noinst_LTLIBRARIES += libibfs_fabric.la
libibfs_fabric_la_SOURCES = \
	src/fabric/time.h src/fabric/units.h src/fabric/units.c \
	src/fabric/pool.h src/fabric/pool.c \
	src/fabric/event_queue.h src/fabric/event_queue.c \
	src/fabric/event_queue_int.h src/fabric/eq_far.c \
	src/fabric/eq_day.c src/fabric/eq_resize.c \
	src/fabric/rng.h src/fabric/rng.c \
	src/fabric/diag.h src/fabric/diag.c \
	src/fabric/link_rate.h src/fabric/link_rate.c \
	src/fabric/huge_pages.h src/fabric/huge_pages.c \
	src/fabric/exec.h
libibfs_fabric_la_LIBADD = $(LIBXML_LIBS) -lm

# Engine tests (Check, fork mode).
check_PROGRAMS += tests/check_pool tests/check_rng tests/check_event_queue
tests_check_pool_SOURCES = tests/check_pool.c
tests_check_pool_CFLAGS = $(TEST_CFLAGS)
tests_check_pool_LDADD = libibfs_fabric.la $(TEST_LIBS)
tests_check_rng_SOURCES = tests/check_rng.c
tests_check_rng_CFLAGS = $(TEST_CFLAGS)
tests_check_rng_LDADD = libibfs_fabric.la $(TEST_LIBS)
tests_check_event_queue_SOURCES = tests/check_event_queue.c \
	tests/eq_fixture.h
tests_check_event_queue_CFLAGS = $(TEST_CFLAGS)
tests_check_event_queue_LDADD = libibfs_fabric.la $(TEST_LIBS)
check_PROGRAMS += tests/check_event_queue_cal
tests_check_event_queue_cal_SOURCES = tests/check_event_queue_cal.c \
	tests/eq_fixture.h
tests_check_event_queue_cal_CFLAGS = $(TEST_CFLAGS)
tests_check_event_queue_cal_LDADD = libibfs_fabric.la $(TEST_LIBS)
check_PROGRAMS += tests/check_event_queue_ref
tests_check_event_queue_ref_SOURCES = tests/check_event_queue_ref.c \
	tests/eq_fixture.h
tests_check_event_queue_ref_CFLAGS = $(TEST_CFLAGS)
tests_check_event_queue_ref_LDADD = libibfs_fabric.la $(TEST_LIBS)
check_PROGRAMS += tests/check_units
tests_check_units_SOURCES = tests/check_units.c
tests_check_units_CFLAGS = $(TEST_CFLAGS)
tests_check_units_LDADD = libibfs_fabric.la $(TEST_LIBS)
check_PROGRAMS += tests/check_link_rate
tests_check_link_rate_SOURCES = tests/check_link_rate.c
tests_check_link_rate_CFLAGS = $(TEST_CFLAGS)
tests_check_link_rate_LDADD = libibfs_fabric.la $(TEST_LIBS)
