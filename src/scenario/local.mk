# SPDX-License-Identifier: MIT
# Scenarios: loading, the assembled simulation, results.
noinst_LTLIBRARIES += libibfs_scenario.la
libibfs_scenario_la_SOURCES = \
	src/scenario/scenario.h src/scenario/scenario_xml.c \
	src/scenario/results.h src/scenario/results.c
