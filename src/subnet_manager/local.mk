# SPDX-License-Identifier: MIT
# The subnet manager: the subnet graph with LIDs, the routing engines (one
# file each, as OpenSM), credit-loop analysis and LFT dumps.
noinst_LTLIBRARIES += libibfs_sm.la
libibfs_sm_la_SOURCES = \
	src/subnet_manager/subnet.h src/subnet_manager/subnet.c \
	src/subnet_manager/routing.h src/subnet_manager/routing.c \
	src/subnet_manager/route_core.c \
	src/subnet_manager/route_minhop.c src/subnet_manager/route_dor.c \
	src/subnet_manager/route_updn.c src/subnet_manager/route_dnup.c \
	src/subnet_manager/route_ftree.c src/subnet_manager/route_dfsssp.c \
	src/subnet_manager/dfsssp_layers.c src/subnet_manager/route_lash.c \
	src/subnet_manager/route_file.c \
	src/subnet_manager/route_stats.c \
	src/subnet_manager/credit_loop.h src/subnet_manager/credit_loop.c \
	src/subnet_manager/lft_dump.h src/subnet_manager/lft_dump.c \
	src/subnet_manager/mad.h src/subnet_manager/mad.c \
	src/subnet_manager/sma.h src/subnet_manager/sma_int.h \
	src/subnet_manager/sma.c src/subnet_manager/sma_attrs.c \
	src/subnet_manager/sm.h src/subnet_manager/sm_int.h \
	src/subnet_manager/sm.c src/subnet_manager/sm_config.c \
	src/subnet_manager/sm_pkey.c \
	src/subnet_manager/partitions.h src/subnet_manager/partitions.c \
	src/subnet_manager/pkey_plan.h src/subnet_manager/pkey_plan.c \
	src/subnet_manager/mcast.h src/subnet_manager/mcast_tree.c \
	src/subnet_manager/mcast_spec.c src/subnet_manager/mft_dump.c \
	src/subnet_manager/sm_mcast.c \
	src/subnet_manager/sa_int.h src/subnet_manager/sa.c \
	src/subnet_manager/sa_mcmember.c src/subnet_manager/sa_path.c \
	src/subnet_manager/qos.h src/subnet_manager/qos.c \
	src/subnet_manager/cc_config.h src/subnet_manager/cc_config.c

# The HCA's management hook (QP0/VL15) the SM and its agents use; it lives
# with the HCA but is listed here, by the SM that needs it.
libibfs_hca_la_SOURCES += src/hca/mgmt.c

SM_TEST_LIBS = libibfs_sm.la libibfs_switch.la libibfs_fabric.la $(TEST_LIBS)
noinst_HEADERS += tests/check_route_util.h
check_PROGRAMS += tests/check_route_minhop
tests_check_route_minhop_SOURCES = tests/check_route_minhop.c
tests_check_route_minhop_CFLAGS = $(TEST_CFLAGS)
tests_check_route_minhop_LDADD = $(SM_TEST_LIBS)
check_PROGRAMS += tests/check_route_updn
tests_check_route_updn_SOURCES = tests/check_route_updn.c
tests_check_route_updn_CFLAGS = $(TEST_CFLAGS)
tests_check_route_updn_LDADD = $(SM_TEST_LIBS)
check_PROGRAMS += tests/check_route_ftree
tests_check_route_ftree_SOURCES = tests/check_route_ftree.c
tests_check_route_ftree_CFLAGS = $(TEST_CFLAGS)
tests_check_route_ftree_LDADD = $(SM_TEST_LIBS)
check_PROGRAMS += tests/check_route_dor
tests_check_route_dor_SOURCES = tests/check_route_dor.c
tests_check_route_dor_CFLAGS = $(TEST_CFLAGS)
tests_check_route_dor_LDADD = $(SM_TEST_LIBS)
check_PROGRAMS += tests/check_route_dfsssp
tests_check_route_dfsssp_SOURCES = tests/check_route_dfsssp.c
tests_check_route_dfsssp_CFLAGS = $(TEST_CFLAGS)
tests_check_route_dfsssp_LDADD = $(SM_TEST_LIBS)
check_PROGRAMS += tests/check_route_lash
tests_check_route_lash_SOURCES = tests/check_route_lash.c
tests_check_route_lash_CFLAGS = $(TEST_CFLAGS)
tests_check_route_lash_LDADD = $(SM_TEST_LIBS)
check_PROGRAMS += tests/check_route_file
tests_check_route_file_SOURCES = tests/check_route_file.c
tests_check_route_file_CFLAGS = $(TEST_CFLAGS)
tests_check_route_file_LDADD = $(SM_TEST_LIBS)
check_PROGRAMS += tests/check_qos
tests_check_qos_SOURCES = tests/check_qos.c
tests_check_qos_CFLAGS = $(TEST_CFLAGS)
tests_check_qos_LDADD = $(SM_TEST_LIBS)
check_PROGRAMS += tests/check_credit_loop
tests_check_credit_loop_SOURCES = tests/check_credit_loop.c
tests_check_credit_loop_CFLAGS = $(TEST_CFLAGS)
tests_check_credit_loop_LDADD = $(SM_TEST_LIBS)

# The in-band SM: SMP format and directed routes, and whole sweeps on
# switches and HCAs driven by the event queue alone.
SM_INBAND_LIBS = libibfs_sm.la libibfs_hca.la libibfs_switch.la \
	libibfs_fabric.la $(TEST_LIBS)
check_PROGRAMS += tests/check_sm
tests_check_sm_SOURCES = tests/check_sm.c
tests_check_sm_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_LDADD = $(SM_INBAND_LIBS)
noinst_HEADERS += tests/sm_net.h
check_PROGRAMS += tests/check_sm_mcast
tests_check_sm_mcast_SOURCES = tests/check_sm_mcast.c
tests_check_sm_mcast_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_mcast_LDADD = $(SM_INBAND_LIBS)
check_PROGRAMS += tests/check_sm_mad
tests_check_sm_mad_SOURCES = tests/check_sm_mad.c tests/smp_sample.h
tests_check_sm_mad_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_mad_LDADD = $(SM_INBAND_LIBS)
check_PROGRAMS += tests/check_sma
tests_check_sma_SOURCES = tests/check_sma.c tests/smp_sample.h
tests_check_sma_CFLAGS = $(TEST_CFLAGS)
tests_check_sma_LDADD = $(SM_INBAND_LIBS)
# `ibfsim route --inband` (src/cli/cmd_route.c).
TESTS += tests/sm_route_cli.sh
EXTRA_DIST += tests/sm_route_cli.sh
# PortInfo as the SM reads and sets it, in a capture tshark dissects.
TESTS += tests/sm_port_info.sh
EXTRA_DIST += tests/sm_port_info.sh tests/data/scenario/sm_port_info.xml

# Against the real OpenSM over ibsim (skips, exit 77, without them): its
# tables, and the SMPs of its sweep attribute by attribute.
TESTS += tests/opensm_conformance.sh tests/opensm_smp_counts.sh
EXTRA_DIST += tests/opensm_smp_counts.sh
EXTRA_DIST += tests/opensm_conformance.sh src/subnet_manager/README.md \
	tests/ibsim_lib.sh
# Shift permutations over ftree's tables: at most one flow a link.
check_PROGRAMS += tests/check_route_shift
tests_check_route_shift_SOURCES = tests/check_route_shift.c
tests_check_route_shift_CFLAGS = $(TEST_CFLAGS)
tests_check_route_shift_LDADD = $(SM_TEST_LIBS)
# Shift permutations run by ibfsim over ftree: rates and per-link bytes.
TESTS += tests/ftree_shift.sh
EXTRA_DIST += tests/ftree_shift.sh
# OpenSM 3.3.23's ftree tables check_route_ftree compares our paths with.
EXTRA_DIST += tests/data/sm/osm-ftree-fat-tree-k4-l3.lfts \
	tests/data/sm/bad-entry.lfts \
	tests/data/sm/osm-ftree-xgft-m4.3.2-w1.4.3.lfts \
	tests/data/sm/osm-ftree-xgft-m4.3-w1.2.lfts

# OpenSM's congestion control options (cc_config.c).
check_PROGRAMS += tests/check_cc_config
tests_check_cc_config_SOURCES = tests/check_cc_config.c
tests_check_cc_config_CFLAGS = $(TEST_CFLAGS)
tests_check_cc_config_LDADD = libibfs_sm.la libibfs_switch.la \
	libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

# Partitions: the partitions.conf parser and the SM's P_Key stage.
check_PROGRAMS += tests/check_partitions
tests_check_partitions_SOURCES = tests/check_partitions.c
tests_check_partitions_CFLAGS = $(TEST_CFLAGS)
tests_check_partitions_LDADD = $(SM_INBAND_LIBS)
check_PROGRAMS += tests/check_sm_pkey
tests_check_sm_pkey_SOURCES = tests/check_sm_pkey.c
tests_check_sm_pkey_CFLAGS = $(TEST_CFLAGS)
tests_check_sm_pkey_LDADD = libibfs_scenario.la $(SM_INBAND_LIBS)

# The SA on the SM's port and an HCA's SA client (GMPs on QP1).
check_PROGRAMS += tests/check_sa
tests_check_sa_SOURCES = tests/check_sa.c tests/sm_net.h tests/sa_star.h
tests_check_sa_CFLAGS = $(TEST_CFLAGS)
tests_check_sa_LDADD = $(SM_INBAND_LIBS)
check_PROGRAMS += tests/check_sa_mcmember
tests_check_sa_mcmember_SOURCES = tests/check_sa_mcmember.c tests/sm_net.h \
	tests/sa_star.h
tests_check_sa_mcmember_CFLAGS = $(TEST_CFLAGS)
tests_check_sa_mcmember_LDADD = $(SM_INBAND_LIBS)
# Prints our SA's PathRecords as saquery does, for tests/opensm_sa.sh.
noinst_PROGRAMS += tests/sa_path_dump
tests_sa_path_dump_SOURCES = tests/sa_path_dump.c tests/sm_net.h \
	tests/sa_star.h
tests_sa_path_dump_CFLAGS = $(TEST_CFLAGS)
tests_sa_path_dump_LDADD = $(SM_INBAND_LIBS)
# Our SA's PathRecords against OpenSM's SA (saquery), over ibsim.
TESTS += tests/opensm_sa.sh
EXTRA_DIST += tests/opensm_sa.sh
