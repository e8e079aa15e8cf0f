# SPDX-License-Identifier: MIT
noinst_LTLIBRARIES += libibfs_scenario.la
libibfs_scenario_la_SOURCES =
