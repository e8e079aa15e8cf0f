# SPDX-License-Identifier: MIT
noinst_LTLIBRARIES += libibfs_sm.la
libibfs_sm_la_SOURCES =
