/* SPDX-License-Identifier: MIT */
/*
 * PFC deadlock detection on an Ethernet fabric (eth_deadlock.c): the
 * lossless counterpart of InfiniBand's credit-loop monitor (switch.h,
 * deadlock.c), whose verdict and cycle it fills in the same form.
 */
#ifndef IBFS_SWITCH_ETH_DEADLOCK_H
#define IBFS_SWITCH_ETH_DEADLOCK_H

#include "fabric/fabric.h"
#include "switch/switch.h"

struct ibfs_eth_deadlock_monitor;

/*
 * Watches fabric f, whose switches are Ethernet switches (eth_switch.h):
 * every `timeout` of simulated time, if frames sit in the switches'
 * buffers and no frame has started on any link since the last look, the
 * monitor stops the run (ibfs__fabric_stop) and records the verdict with
 * the cycle of (switch, ingress port, priority) buffers that wait on each
 * other through PFC pauses; a cycle element's vl is the priority. PFC
 * frames are not frames started (they are not data). NULL when out of
 * memory or timeout is 0.
 */
struct ibfs_eth_deadlock_monitor *
ibfs__eth_deadlock_monitor_new(struct ibfs_fabric *f, ibfs_time_t timeout);
void ibfs__eth_deadlock_monitor_free(struct ibfs_eth_deadlock_monitor *m);
/* The verdict, printed by ibfs__deadlock_format like InfiniBand's. */
const struct ibfs_deadlock *
ibfs__eth_deadlock_verdict(const struct ibfs_eth_deadlock_monitor *m);

#endif
