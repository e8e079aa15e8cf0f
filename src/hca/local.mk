# SPDX-License-Identifier: MIT
# The HCA, the IBA transport and the verbs API (issue 4).
noinst_LTLIBRARIES += libibfs_hca.la
libibfs_hca_la_SOURCES = \
	src/hca/hca.h src/hca/hca_int.h src/hca/mgmt.h src/hca/hca.c \
	src/hca/tx_sched.c src/hca/ib_link.c src/hca/mcast.c \
	src/hca/roce_link.c \
	src/hca/profile.c src/hca/opcodes.c src/hca/mr.c src/hca/cq.c \
	src/hca/qp.c src/hca/srq.c src/hca/sq.c src/hca/rc_requester.c \
	src/hca/rc_responder.c src/hca/rc_retry.c src/hca/ud.c \
	src/hca/rc_irn.c \
	src/hca/verbs.c src/hca/direct_exec.h src/hca/direct_exec.c \
	src/hca/pair.h src/hca/pair.c src/hca/perftest.h src/hca/perftest.c \
	src/hca/cc_int.h src/hca/cc.c src/hca/cc_throttle.c src/hca/sa_mad.h src/hca/sa_mad.c \
	src/hca/sa_client.h src/hca/sa_client.c \
	src/hca/mad_hdr.h
ibfsiminclude_HEADERS += include/ibfsim/verbs.h
# Each QP's sending rate as its congestion control sets it (samples).
libibfs_hca_la_SOURCES += src/hca/qp_rate.h src/hca/qp_rate.c

check_PROGRAMS += tests/check_hca
tests_check_hca_SOURCES = tests/check_hca.c tests/hca_fixture.h
tests_check_hca_CFLAGS = $(TEST_CFLAGS)
tests_check_hca_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

# UD and LIDs with an LMC, on the same back-to-back pair.
check_PROGRAMS += tests/check_hca_ud
tests_check_hca_ud_SOURCES = tests/check_hca_ud.c tests/hca_fixture.h
tests_check_hca_ud_CFLAGS = $(TEST_CFLAGS)
tests_check_hca_ud_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

# Shared receive queues, on the same back-to-back pair.
check_PROGRAMS += tests/check_hca_srq
tests_check_hca_srq_SOURCES = tests/check_hca_srq.c tests/hca_fixture.h
tests_check_hca_srq_CFLAGS = $(TEST_CFLAGS)
tests_check_hca_srq_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

check_PROGRAMS += tests/check_qp
tests_check_qp_SOURCES = tests/check_qp.c
tests_check_qp_CFLAGS = $(TEST_CFLAGS)
tests_check_qp_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

check_PROGRAMS += tests/check_hca_perftest
tests_check_hca_perftest_SOURCES = tests/check_hca_perftest.c
tests_check_hca_perftest_CFLAGS = $(TEST_CFLAGS)
tests_check_hca_perftest_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

check_PROGRAMS += tests/check_hca_switch
tests_check_hca_switch_SOURCES = tests/check_hca_switch.c tests/hca_star.h
tests_check_hca_switch_CFLAGS = $(TEST_CFLAGS)
tests_check_hca_switch_LDADD = libibfs_hca.la libibfs_switch.la \
	libibfs_fabric.la $(TEST_LIBS)

# Multicast at the HCAs through one switch (closed form, attach errors).
check_PROGRAMS += tests/check_mcast_hca
tests_check_mcast_hca_SOURCES = tests/check_mcast_hca.c tests/hca_star.h
tests_check_mcast_hca_CFLAGS = $(TEST_CFLAGS)
tests_check_mcast_hca_LDADD = libibfs_hca.la libibfs_switch.la \
	libibfs_fabric.la $(TEST_LIBS)

# Two HCAs writing to each other at once: ACKs and data share a port.
check_PROGRAMS += tests/check_hca_bidir
tests_check_hca_bidir_SOURCES = tests/check_hca_bidir.c
tests_check_hca_bidir_CFLAGS = $(TEST_CFLAGS)
tests_check_hca_bidir_LDADD = libibfs_hca.la libibfs_switch.la \
	libibfs_fabric.la $(TEST_LIBS)

# The port's transmit scheduler: round robin over many QPs.
check_PROGRAMS += tests/check_hca_sched
tests_check_hca_sched_SOURCES = tests/check_hca_sched.c
tests_check_hca_sched_CFLAGS = $(TEST_CFLAGS)
tests_check_hca_sched_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

# `ibfsim perftest` from the command line (src/cli/cmd_perftest.c).
TESTS += tests/data/hca/perftest_cli.sh
EXTRA_DIST += tests/data/hca/perftest_cli.sh tests/data/hca/port2_fabric.xml

check_PROGRAMS += tests/check_hca_errors
tests_check_hca_errors_SOURCES = tests/check_hca_errors.c tests/hca_fixture.h
tests_check_hca_errors_CFLAGS = $(TEST_CFLAGS)
tests_check_hca_errors_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

# The verbs API from SimGrid actors (needs the whole library).
check_PROGRAMS += tests/check_verbs_actors
tests_check_verbs_actors_SOURCES = tests/check_verbs_actors.c
tests_check_verbs_actors_CFLAGS = $(TEST_CFLAGS)
tests_check_verbs_actors_LDADD = libibfsim.la $(TEST_LIBS)

# Congestion control at the HCAs (IBA A10.3): CCTI, gaps, BECN, CNP.
check_PROGRAMS += tests/check_cc_throttle
tests_check_cc_throttle_SOURCES = tests/check_cc_throttle.c \
	tests/hca_fixture.h
tests_check_cc_throttle_CFLAGS = $(TEST_CFLAGS)
tests_check_cc_throttle_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

# Partitions at the HCA (IBA 10.9): P_Key tables and checks.
check_PROGRAMS += tests/check_hca_pkey
tests_check_hca_pkey_SOURCES = tests/check_hca_pkey.c tests/hca_fixture.h
tests_check_hca_pkey_CFLAGS = $(TEST_CFLAGS)
tests_check_hca_pkey_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

# The same faults under the HCA transport (RC resends until the link is back).
check_PROGRAMS += tests/check_fault_hca
tests_check_fault_hca_SOURCES = tests/check_fault_hca.c
tests_check_fault_hca_CFLAGS = $(TEST_CFLAGS)
tests_check_fault_hca_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

# RoCEv2 under the HCA transport (roce_link.c): closed-form times of two
# RNICs back to back over a test flow ops, and recovery from dropped frames.
check_PROGRAMS += tests/check_roce_link
tests_check_roce_link_SOURCES = tests/check_roce_link.c tests/roce_pair.h
tests_check_roce_link_CFLAGS = $(TEST_CFLAGS)
tests_check_roce_link_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)
# IRN's selective repeat (rc_irn.c) on the same pair.
check_PROGRAMS += tests/check_roce_irn
tests_check_roce_irn_SOURCES = tests/check_roce_irn.c tests/roce_pair.h
tests_check_roce_irn_CFLAGS = $(TEST_CFLAGS)
tests_check_roce_irn_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

# RoCEv2 congestion controls: the registry (cc_roce.h, cc_params.c) and
# DCQCN (cc_dcqcn.c, its parameters in cc_dcqcn_params.c).
libibfs_hca_la_SOURCES += src/hca/cc_roce.h src/hca/cc_params.c \
	src/hca/cc_dcqcn.h src/hca/cc_dcqcn.c src/hca/cc_dcqcn_params.c

# DCQCN on the back-to-back RNIC pair, and the registry's parse.
check_PROGRAMS += tests/check_cc_dcqcn
tests_check_cc_dcqcn_SOURCES = tests/check_cc_dcqcn.c tests/roce_pair.h
tests_check_cc_dcqcn_CFLAGS = $(TEST_CFLAGS)
tests_check_cc_dcqcn_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)

# RoCEv2 congestion controls: HPCC (window from in-band telemetry) and
# TIMELY (rate from the RTT gradient).
libibfs_hca_la_SOURCES += src/hca/cc_hpcc.h src/hca/cc_hpcc.c \
	src/hca/cc_hpcc_params.c src/hca/cc_timely.h src/hca/cc_timely.c \
	src/hca/cc_timely_params.c
check_PROGRAMS += tests/check_cc_hpcc
tests_check_cc_hpcc_SOURCES = tests/check_cc_hpcc.c tests/roce_pair.h
tests_check_cc_hpcc_CFLAGS = $(TEST_CFLAGS)
tests_check_cc_hpcc_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)
check_PROGRAMS += tests/check_cc_timely
tests_check_cc_timely_SOURCES = tests/check_cc_timely.c tests/roce_pair.h
tests_check_cc_timely_CFLAGS = $(TEST_CFLAGS)
tests_check_cc_timely_LDADD = libibfs_hca.la libibfs_fabric.la $(TEST_LIBS)
