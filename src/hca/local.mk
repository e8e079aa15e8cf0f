# SPDX-License-Identifier: MIT
noinst_LTLIBRARIES += libibfs_hca.la
libibfs_hca_la_SOURCES =
