# SPDX-License-Identifier: MIT
# The timeline (--trace: Chrome/Perfetto trace-event JSON) and the progress
# line of long runs, with their tests.
libibfs_fabric_la_SOURCES += \
	src/fabric/trace.h src/fabric/trace.c \
	src/fabric/progress.h src/fabric/progress.c

check_PROGRAMS += tests/check_trace tests/check_progress
tests_check_trace_SOURCES = tests/check_trace.c tests/check_trace_json.h \
	tests/link_pair.h
tests_check_trace_CFLAGS = $(TEST_CFLAGS)
tests_check_trace_LDADD = libibfs_fabric.la $(TEST_LIBS)
tests_check_progress_SOURCES = tests/check_progress.c
tests_check_progress_CFLAGS = $(TEST_CFLAGS)
tests_check_progress_LDADD = libibfs_fabric.la $(TEST_LIBS)

TESTS += tests/trace.sh
EXTRA_DIST += tests/trace.sh
# tests/trace.sh reads the timeline this program writes (not a test by
# itself, so not in check_PROGRAMS, which all run as tests).
noinst_PROGRAMS += tests/trace_demo
tests_trace_demo_SOURCES = tests/trace_demo.c
tests_trace_demo_LDADD = libibfs_fabric.la
