/* SPDX-License-Identifier: MIT */
/*
 * ECN marking at the Ethernet switch's egress queues, RED-style as
 * DCQCN's switches do it (Zhu et al., "Congestion Control for Large-Scale
 * RDMA Deployments", SIGCOMM 2015, section 3.1 and figure 5; the WRED/ECN
 * profile of a datacenter switch): a frame is marked with probability
 *   0                                      q <= kmin
 *   pmax x (q - kmin) / (kmax - kmin)      kmin < q <= kmax
 *   1                                      q > kmax
 * where q is the bytes of its egress queue (its port and priority) other
 * than itself: those behind it as it leaves (at dequeue, the default,
 * which tells of a queue as soon as it has built) or those ahead of it as
 * it joins (at enqueue). Only ECN-capable frames are marked: RoCEv2's
 * transport packets, all sent ECT(0). A marked frame carries CE, held in
 * p->fecn under the Ethernet link kind (fabric/eth.h). The draws come
 * from a stream of the switch's own, seeded from the run's seed, so that
 * a run repeats and marking changes no other draw.
 */
#ifndef IBFS_SWITCH_ETH_ECN_H
#define IBFS_SWITCH_ETH_ECN_H

#include <stdint.h>

#include "switch/eth_switch.h"

/* Where the queue is looked at. */
enum ibfs_eth_ecn_at {
	IBFS_ETH_ECN_DEQUEUE = 0,
	IBFS_ETH_ECN_ENQUEUE = 1,
};

/* A switch's marking settings; prios 0 is no marking (the default). */
struct ibfs_eth_ecn {
	uint64_t kmin, kmax;     /* bytes, kmin <= kmax */
	double pmax;             /* 0 to 1 */
	enum ibfs_eth_ecn_at at;
	uint8_t prios;           /* the priorities marked, a bit each */
};

/* The marking probability of a frame that sees q bytes (above). */
double ibfs__eth_ecn_prob(const struct ibfs_eth_ecn *e, uint64_t q);

/*
 * Marks with `e` from now on at switch sw, drawing from the stream of
 * the run's seed `seed` that belongs to this switch.
 */
void ibfs__eth_switch_set_ecn(struct ibfs_eth_switch *sw,
			      const struct ibfs_eth_ecn *e, uint64_t seed);

/* Frames marked CE at egress port `port` on priority `prio`. */
uint64_t ibfs__eth_switch_ecn_marks(const struct ibfs_eth_switch *sw,
				    int port, int prio);

#endif
