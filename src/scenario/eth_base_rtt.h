/* SPDX-License-Identifier: MIT */
/*
 * The base round trip of an Ethernet fabric's longest host-to-host path
 * (eth_base_rtt.c), for the congestion controls that need one (HPCC's
 * T) when the scenario does not give it.
 */
#ifndef IBFS_SCENARIO_ETH_BASE_RTT_H
#define IBFS_SCENARIO_ETH_BASE_RTT_H

#include "fabric/time.h"
#include "fabric/topology.h"
#include "switch/eth_switch.h"

/*
 * The round trip of an MTU data packet and its ACK, both with HPCC's
 * telemetry field, over the longest shortest path between two HCAs of t
 * under switches of profile prof: 0 when t has fewer than two HCAs
 * connected, or out of memory.
 */
ibfs_time_t ibfs__eth_base_rtt(const struct ibfs_topology *t,
			       const struct ibfs_eth_profile *prof);

#endif
