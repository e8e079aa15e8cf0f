# SPDX-License-Identifier: MIT
noinst_LTLIBRARIES += libibfs_bridge.la
libibfs_bridge_la_SOURCES =
