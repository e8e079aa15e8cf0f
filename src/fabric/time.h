/* SPDX-License-Identifier: MIT */
/*
 * Simulated time. Everything inside the fabric counts time as an unsigned
 * 64-bit number of picoseconds: 2^64 ps is about 213 days of simulated time,
 * and integer arithmetic keeps runs exact and deterministic.
 */
#ifndef IBFS_FABRIC_TIME_H
#define IBFS_FABRIC_TIME_H

#include <stdint.h>

typedef uint64_t ibfs_time_t;

#define IBFS_PS ((ibfs_time_t)1)
#define IBFS_NS ((ibfs_time_t)1000)
#define IBFS_US ((ibfs_time_t)1000000)
#define IBFS_MS ((ibfs_time_t)1000000000)
#define IBFS_S ((ibfs_time_t)1000000000000)

/* The end of time: "never" for a timer, "empty" for a queue. */
#define IBFS_TIME_NEVER UINT64_MAX

/* Propagation delay of a cable: 5 ns per metre, i.e. 5 ps per millimetre. */
#define IBFS_PROP_PS_PER_MM 5

#endif
