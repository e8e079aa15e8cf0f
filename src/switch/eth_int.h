/* SPDX-License-Identifier: MIT */
/*
 * In-band network telemetry at the Ethernet switch (eth_int.c): with it
 * on, every frame that carries a telemetry field (IBFS_XH_INT, set by an
 * RNIC under HPCC) gets a record of its egress port as it is dequeued.
 */
#ifndef IBFS_SWITCH_ETH_INT_H
#define IBFS_SWITCH_ETH_INT_H

#include "switch/eth_switch.h"

/* Turns the stamping on (1) or off (0): 0, or -1 out of memory. */
int ibfs__eth_switch_set_int(struct ibfs_eth_switch *sw, int on);
/* The bytes queued behind the frames it stamped, summed, and (stamps)
 * how many it stamped: their mean is the queue the telemetry saw. */
uint64_t ibfs__eth_switch_int_queue(const struct ibfs_eth_switch *sw,
				    uint64_t *stamps);

#endif
