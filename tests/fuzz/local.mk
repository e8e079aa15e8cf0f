# SPDX-License-Identifier: MIT
# The fuzz harnesses of ibfsim's parsers (tests/fuzz/, tests/README.md).
# `make check` replays each one's committed corpus and past crashes,
# built with the ordinary compiler and tests/fuzz/replay.c; `make fuzz`
# fuzzes them with clang's libFuzzer (bench/fuzz.sh, bench/README.md).
FUZZ_CFLAGS = $(AM_CFLAGS) -DFUZZ_SRCDIR='"$(abs_top_srcdir)"'
FUZZ_LIBS = libibfs_scenario.la libibfs_bridge.la libibfs_sm.la \
	libibfs_hca.la libibfs_switch.la libibfs_fabric.la \
	$(SIMGRID_LIBS) $(LIBXML_LIBS) -lm
FUZZ_COMMON = tests/fuzz/replay.c tests/fuzz/fuzz_common.c
noinst_HEADERS += tests/fuzz/fuzz.h

check_PROGRAMS += tests/fuzz/replay_units tests/fuzz/replay_qos \
	tests/fuzz/replay_partitions tests/fuzz/replay_netfile \
	tests/fuzz/replay_lft tests/fuzz/replay_flow_cdf \
	tests/fuzz/replay_fabric_xml tests/fuzz/replay_sweep \
	tests/fuzz/replay_scenario
tests_fuzz_replay_units_SOURCES = tests/fuzz/fuzz_units.c $(FUZZ_COMMON)
tests_fuzz_replay_units_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_NAME='"units"'
tests_fuzz_replay_units_LDADD = $(FUZZ_LIBS)
tests_fuzz_replay_qos_SOURCES = tests/fuzz/fuzz_qos.c $(FUZZ_COMMON)
tests_fuzz_replay_qos_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_NAME='"qos"'
tests_fuzz_replay_qos_LDADD = $(FUZZ_LIBS)
tests_fuzz_replay_partitions_SOURCES = tests/fuzz/fuzz_partitions.c \
	$(FUZZ_COMMON)
tests_fuzz_replay_partitions_CFLAGS = $(FUZZ_CFLAGS) \
	-DFUZZ_NAME='"partitions"'
tests_fuzz_replay_partitions_LDADD = $(FUZZ_LIBS)
tests_fuzz_replay_netfile_SOURCES = tests/fuzz/fuzz_netfile.c $(FUZZ_COMMON)
tests_fuzz_replay_netfile_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_NAME='"netfile"'
tests_fuzz_replay_netfile_LDADD = $(FUZZ_LIBS)
tests_fuzz_replay_lft_SOURCES = tests/fuzz/fuzz_lft.c $(FUZZ_COMMON)
tests_fuzz_replay_lft_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_NAME='"lft"'
tests_fuzz_replay_lft_LDADD = $(FUZZ_LIBS)
tests_fuzz_replay_flow_cdf_SOURCES = tests/fuzz/fuzz_flow_cdf.c \
	$(FUZZ_COMMON)
tests_fuzz_replay_flow_cdf_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_NAME='"flow_cdf"'
tests_fuzz_replay_flow_cdf_LDADD = $(FUZZ_LIBS)
tests_fuzz_replay_fabric_xml_SOURCES = tests/fuzz/fuzz_fabric_xml.c \
	$(FUZZ_COMMON)
tests_fuzz_replay_fabric_xml_CFLAGS = $(FUZZ_CFLAGS) \
	-DFUZZ_NAME='"fabric_xml"'
tests_fuzz_replay_fabric_xml_LDADD = $(FUZZ_LIBS)
tests_fuzz_replay_sweep_SOURCES = tests/fuzz/fuzz_sweep.c \
	src/cli/sweep_grid.c $(FUZZ_COMMON)
tests_fuzz_replay_sweep_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_NAME='"sweep"'
tests_fuzz_replay_sweep_LDADD = $(FUZZ_LIBS)
tests_fuzz_replay_scenario_SOURCES = tests/fuzz/fuzz_scenario.c \
	$(FUZZ_COMMON)
tests_fuzz_replay_scenario_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_NAME='"scenario"'
tests_fuzz_replay_scenario_LDADD = $(FUZZ_LIBS)

EXTRA_DIST += bench/fuzz.sh tests/fuzz/corpus tests/fuzz/crashes \
	tests/fuzz/units.dict tests/fuzz/qos.dict tests/fuzz/partitions.dict \
	tests/fuzz/netfile.dict tests/fuzz/lft.dict tests/fuzz/fabric_xml.dict \
	tests/fuzz/sweep.dict tests/fuzz/scenario.dict

.PHONY: fuzz
fuzz:
	cd $(srcdir) && sh bench/fuzz.sh $(FUZZ_SECONDS)

# validate and run agree on mutants of the seed scenarios.
TESTS += tests/fuzz/consistency.sh
EXTRA_DIST += tests/fuzz/consistency.sh
