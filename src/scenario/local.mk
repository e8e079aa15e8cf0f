# SPDX-License-Identifier: MIT
# Scenarios: loading, the assembled simulation, results.
noinst_LTLIBRARIES += libibfs_scenario.la
libibfs_scenario_la_SOURCES = \
	src/scenario/scenario.h src/scenario/scenario_xml.c \
	src/scenario/scenario_xml_int.h src/scenario/scenario_collective.c \
	src/scenario/scenario_sm.c src/scenario/scenario_transport.c \
	src/scenario/scenario_check.h src/scenario/scenario_check.c \
	src/scenario/scenario_pkeys.c src/scenario/scenario_mcast.c \
	src/scenario/scenario_mjoin.c \
	src/scenario/results.h src/scenario/results_int.h \
	src/scenario/results.c src/scenario/results_stats.c \
	src/scenario/results_text.c src/scenario/results_json.c \
	src/scenario/results_csv.c \
	src/scenario/results_collective.c src/scenario/results_mcast.c \
	src/scenario/results_mjoin.c src/scenario/results_cc.c \
	src/scenario/results_eth.c src/scenario/results_cpu.c \
	src/scenario/results_packets.c
# Flows of kind="flows": their sizes, arrivals and completion times.
libibfs_scenario_la_SOURCES += src/scenario/flow_cdf.h \
	src/scenario/flow_cdf.c src/scenario/scenario_flows.c \
	src/scenario/traffic_flows.c src/scenario/fct_ideal.c \
	src/scenario/results_flows.c
libibfs_scenario_la_SOURCES += \
	src/scenario/runner.h src/scenario/runner.c \
	src/scenario/assemble.h src/scenario/assemble.c src/scenario/assemble_eth.c \
	src/scenario/eth_base_rtt.h src/scenario/eth_base_rtt.c \
	src/scenario/simulation.c \
	src/scenario/routes.h src/scenario/routes.c \
	src/scenario/traffic.h src/scenario/traffic_int.h \
	src/scenario/traffic_plan.c src/scenario/traffic_app.c \
	src/scenario/traffic_app_coll.c \
	src/scenario/traffic_collective.c src/scenario/traffic_collective_algos.c \
	src/scenario/traffic_collective_trees.c \
	src/scenario/traffic_mcast.c \
	src/scenario/mcast_joins.h src/scenario/mcast_joins.c
# Example scenarios (examples/*.xml), run with their key numbers asserted.
EXTRA_DIST += examples/rdma_write.xml examples/rdma_read.xml \
	examples/send.xml examples/incast_hol.xml examples/incast_vl.xml \
	examples/incast_cc.xml \
	examples/ring_minhop.xml examples/ring_updn.xml \
	examples/fat_tree_permutation.xml examples/sm_sweep.xml \
	examples/link_failure.xml examples/qos_weights.xml \
	examples/dragonfly_lash.xml examples/collectives.xml \
	examples/collectives_algos.xml examples/collectives_trees.xml \
	examples/collectives_trees_k8.xml \
	examples/partitions.xml examples/partitions.conf \
	examples/multicast.xml \
	examples/roce_incast.xml examples/roce_incast_lossy.xml \
	examples/roce_ring_deadlock.xml \
	examples/roce_incast_irn.xml \
	tests/run_example_scenarios.sh
TESTS += tests/run_example_scenarios.sh
# The same scenarios under --model roce: PFC, lossy recovery, ECMP against
# ftree, what roce refuses, and its capture.
TESTS += tests/roce_scenarios.sh
EXTRA_DIST += tests/roce_scenarios.sh
# ECN marking at the switches (<ecn> in <transport>: scenario_ecn.c,
# results_ecn.c) under roce.
libibfs_scenario_la_SOURCES += src/scenario/scenario_ecn.c \
	src/scenario/results_ecn.c
TESTS += tests/roce_ecn.sh
EXTRA_DIST += tests/roce_ecn.sh examples/roce_ecn.xml
# Time series of a run on request (--sample, <sample>: sampler.c).
libibfs_scenario_la_SOURCES += src/scenario/sampler.h src/scenario/sampler.c
TESTS += tests/samples.sh
EXTRA_DIST += tests/samples.sh
check_PROGRAMS += tests/check_sampler
tests_check_sampler_SOURCES = tests/check_sampler.c tests/eth_star.h
tests_check_sampler_CFLAGS = $(TEST_CFLAGS)
tests_check_sampler_LDADD = libibfsim.la $(TEST_LIBS)
TESTS += tests/collectives.sh tests/collectives_algos.sh \
	tests/collectives_trees.sh
# Flow workloads: the size CDFs, their errors, the arrivals' load; runs
# of examples/websearch_k8.xml and lone flows under ib and roce.
TESTS += tests/flows_scenarios.sh
EXTRA_DIST += tests/flows_scenarios.sh examples/websearch_k8.xml \
	tests/data/flows/fixed64k.cdf tests/data/flows/lone_skeleton.xml \
	tests/data/flows/lone_k8.xml tests/data/flows/load_websearch.xml \
	tests/data/flows/load_hadoop.xml
check_PROGRAMS += tests/check_flows
tests_check_flows_SOURCES = tests/check_flows.c
tests_check_flows_CFLAGS = $(TEST_CFLAGS)
tests_check_flows_LDADD = libibfs_scenario.la libibfs_bridge.la \
	$(SM_INBAND_LIBS)
# The double binary tree's shapes against NCCL's rule for the children.
check_PROGRAMS += tests/check_coll_trees
tests_check_coll_trees_SOURCES = tests/check_coll_trees.c
tests_check_coll_trees_CFLAGS = $(TEST_CFLAGS)
tests_check_coll_trees_LDADD = libibfs_scenario.la libibfs_bridge.la \
	$(SM_INBAND_LIBS)
EXTRA_DIST += tests/collectives.sh tests/collectives_algos.sh \
	tests/collectives_trees.sh tests/collectives_lib.sh
TESTS += tests/run_scenarios.sh
# Congestion control attributes: refusals, defaults, both SM modes.
TESTS += tests/cc_scenarios.sh
EXTRA_DIST += tests/cc_scenarios.sh
EXTRA_DIST += tests/run_scenarios.sh \
	tests/data/scenario/bad_pkey_conf.xml \
	tests/data/scenario/bad_pkey_default.xml \
	tests/data/scenario/bad_pkey_limited.xml \
	tests/data/scenario/bad_pkey_member.xml \
	tests/data/scenario/bad_pkey_nofile.xml \
	tests/data/scenario/bad_pkey_pattern.xml \
	tests/data/scenario/bad_pkey_ud.xml \
	tests/data/scenario/bad_pkey_value.xml \
	tests/data/scenario/bad_pkey_without.xml \
	tests/data/scenario/pkeys/tenants.conf \
	tests/data/scenario/pkeys/bad_member.conf \
	tests/data/scenario/bad_attr.xml \
	tests/data/scenario/bad_mcast_pkey.xml \
	tests/data/scenario/mc_fault.xml \
	tests/data/scenario/bad_mc_attr.xml \
	tests/data/scenario/bad_mc_dup.xml \
	tests/data/scenario/bad_mc_dup_mgid.xml \
	tests/data/scenario/bad_mc_empty.xml \
	tests/data/scenario/bad_mc_gid.xml \
	tests/data/scenario/bad_mc_group.xml \
	tests/data/scenario/bad_mc_member.xml \
	tests/data/scenario/bad_mc_mgid.xml \
	tests/data/scenario/bad_mc_nomgid.xml \
	tests/data/scenario/bad_mc_op.xml \
	tests/data/scenario/bad_mc_port.xml \
	tests/data/scenario/bad_mc_size.xml \
	tests/data/scenario/bad_mc_switch.xml \
	tests/data/scenario/bad_mc_twice.xml \
	tests/data/scenario/bad_mc_unlinked.xml \
	tests/data/scenario/bad_element.xml \
	tests/data/scenario/bad_fabric_missing.xml \
	tests/data/scenario/bad_fault.xml \
	tests/data/scenario/bad_incast.xml \
	tests/data/scenario/bad_inline_fabric.xml \
	tests/data/scenario/bad_inline_version.xml \
	tests/data/scenario/bad_inline_width.xml \
	tests/data/scenario/bad_lfts.xml \
	tests/data/scenario/bad_lfts_guid.xml \
	tests/data/scenario/bad_lmc.xml \
	tests/data/scenario/bad_version.xml \
	tests/data/scenario/bad_profile.xml \
	tests/data/scenario/bad_routing.xml \
	tests/data/scenario/bad_malformed.xml \
	tests/data/scenario/bad_node.xml \
	tests/data/scenario/bad_op.xml \
	tests/data/scenario/bad_sl.xml \
	tests/data/scenario/bad_qps.xml \
	tests/data/scenario/bad_rate.xml \
	tests/data/scenario/rate.xml \
	tests/data/scenario/qps1.xml \
	tests/data/scenario/qps2.xml \
	tests/data/scenario/lmc_paths.xml \
	tests/data/scenario/qos_high.xml \
	tests/data/scenario/qos_alone.xml \
	tests/data/scenario/qos_low.xml \
	tests/data/scenario/qos_low_dfsssp.xml \
	tests/data/scenario/qos_low_lash.xml \
	tests/data/scenario/hca_qos.xml \
	tests/data/scenario/hca_qos_instant.xml \
	tests/data/scenario/hca_qos_alone.xml \
	tests/data/scenario/hca_qos_none.xml \
	tests/data/scenario/bad_qos_vl.xml \
	tests/data/scenario/bad_qos_starve.xml \
	tests/data/scenario/bad_qos_dfsssp.xml \
	tests/data/scenario/bad_qos_lash.xml \
	tests/data/scenario/bad_file_nolfts.xml \
	tests/data/scenario/route_file.xml \
	tests/data/scenario/route_ftree.xml \
	tests/data/scenario/bad_switch_dst.xml \
	tests/data/scenario/bad_time.xml \
	tests/data/scenario/bad_ud_read.xml \
	tests/data/scenario/bad_ud_size.xml \
	tests/data/scenario/bad_unit.xml \
	tests/data/scenario/good_inline.xml \
	tests/data/scenario/ring5x2.xml \
	tests/data/scenario/ring_minhop.xml \
	tests/data/scenario/ring_updn.xml \
	tests/data/scenario/ring_ftree_fallback.xml \
	tests/data/scenario/vls8.xml \
	tests/data/scenario/ud_send.xml \
	tests/data/scenario/deep_queues.xml \
	tests/data/scenario/resweep_lft.xml \
	tests/data/scenario/hca_link_down.xml \
	tests/data/scenario/spine_down_ftree.xml \
	tests/data/scenario/spine_down_updn.xml \
	tests/data/scenario/bad_sm_host.xml \
	tests/data/scenario/bad_message_nosrc.xml \
	tests/data/scenario/bad_fault_both.xml \
	tests/data/scenario/bad_fault_neither.xml \
	tests/data/scenario/bad_stop_noat.xml \
	tests/data/scenario/bad_sm_twice.xml \
	tests/data/scenario/bad_fault_in_traffic.xml \
	tests/data/scenario/bad_text_in_traffic.xml \
	tests/data/scenario/bad_stop_content.xml \
	tests/data/scenario/ring5x2v2.xml \
	tests/data/scenario/ring_dfsssp.xml \
	tests/data/scenario/ring_dfsssp_sl0.xml \
	tests/data/scenario/torus4x4x2v4.xml \
	tests/data/scenario/torus_dfsssp.xml \
	tests/data/scenario/torus_dfsssp_sl0.xml \
	tests/data/scenario/ring_lash.xml \
	tests/data/scenario/ring_lash_sl0.xml \
	tests/data/scenario/torus_lash.xml \
	tests/data/scenario/torus_lash_sl0.xml \
	tests/data/scenario/stop.xml \
	tests/data/scenario/stop_late.xml \
	tests/data/scenario/port2.xml \
	tests/data/scenario/dual_port.xml \
	tests/data/scenario/sm_default_host.xml \
	tests/data/scenario/csv_ids.xml \
	tests/data/scenario/bad_unlinked.xml \
	tests/data/scenario/bad_unlinked_pattern.xml \
	tests/data/scenario/skeleton_one.xml
check_PROGRAMS += tests/check_simulation
tests_check_simulation_SOURCES = tests/check_simulation.c
tests_check_simulation_CFLAGS = $(TEST_CFLAGS)
tests_check_simulation_LDADD = libibfsim.la $(TEST_LIBS)
# Multicast joins and leaves at run time through the SA: their timing,
# the copies delivered between them, their MADs as tshark dissects them.
TESTS += tests/mcast_join.sh
EXTRA_DIST += tests/mcast_join.sh tests/data/scenario/mcast_join.xml \
	tests/data/scenario/mcast_join_sm.xml \
	tests/data/scenario/bad_mjoin_group.xml \
	tests/data/scenario/bad_mjoin_node.xml \
	tests/data/scenario/bad_mjoin_state.xml \
	tests/data/scenario/bad_mjoin_twice.xml \
	tests/data/scenario/bad_mjoin_leave.xml \
	tests/data/scenario/bad_mjoin_member.xml \
	tests/data/scenario/bad_mjoin_instant.xml \
	tests/data/scenario/bad_mjoin_noat.xml
# The RNICs' congestion control of a scenario (<transport cc=>, --cc),
# and DCQCN's examples (tests/roce_scenarios.sh).
libibfs_scenario_la_SOURCES += src/scenario/scenario_cc.c
EXTRA_DIST += examples/roce_incast_dcqcn.xml examples/roce_dcqcn_fairness.xml \
	examples/compare_latency.xml

# One model's column of ibfsim compare.
libibfs_scenario_la_SOURCES += src/scenario/compare.h src/scenario/compare.c

# ibfsim compare, end to end.
TESTS += tests/compare.sh
EXTRA_DIST += tests/compare.sh
TESTS += tests/compare_html.sh
EXTRA_DIST += tests/compare_html.sh

# HPCC and TIMELY end to end: a 16:1 incast under each, against PFC alone.
TESTS += tests/roce_cc.sh
EXTRA_DIST += tests/run_lib.sh
EXTRA_DIST += tests/roce_cc.sh examples/roce_incast_hpcc.xml \
	examples/roce_incast_timely.xml
check_PROGRAMS += tests/check_eth_base_rtt
tests_check_eth_base_rtt_SOURCES = tests/check_eth_base_rtt.c
tests_check_eth_base_rtt_CFLAGS = $(TEST_CFLAGS)
tests_check_eth_base_rtt_LDADD = libibfsim.la $(TEST_LIBS)

# The web search workload under each RoCEv2 congestion control.
TESTS += tests/websearch_cc.sh
EXTRA_DIST += tests/websearch_cc.sh examples/websearch_k8_cc.xml

# --model tcp: the traffic as writes on kernel TCP connections between the
# hosts of src/host, driven from the fabric's event queue.
libibfs_scenario_la_SOURCES += src/scenario/traffic_tcp.c
libibfs_scenario_la_LIBADD = libibfs_host.la
