# SPDX-License-Identifier: MIT
noinst_LTLIBRARIES += libibfs_switch.la
libibfs_switch_la_SOURCES =
