/* SPDX-License-Identifier: MIT */
/*
 * The simulated world as an application program sees it. Programs written
 * against the ibfsim API run as SimGrid actors, one or more on each HCA's
 * host; this header gives them the time, a sleep that the fabric knows
 * about, and the out-of-band channel that real RDMA programs open over TCP
 * sockets to swap queue pair numbers, LIDs and rkeys before they start.
 *
 * Times are counts of simulated picoseconds, exact: a completion that the
 * fabric computes for picosecond t is observed by ibfs_now() as t. Only
 * fixed-width integer types appear here.
 */
#ifndef IBFSIM_SIM_H
#define IBFSIM_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Simulated time: picoseconds since the start of the run. */
typedef uint64_t ibfs_time_ps;

#define IBFS_TIME_PS_PER_NS ((ibfs_time_ps)1000)
#define IBFS_TIME_PS_PER_US ((ibfs_time_ps)1000000)
#define IBFS_TIME_PS_PER_S ((ibfs_time_ps)1000000000000)

/* The calling actor's current simulated time, in picoseconds. */
ibfs_time_ps ibfs_now(void);

/*
 * Suspends the calling actor for `ps` picoseconds of simulated time. The
 * fabric knows the wake-up time, so it keeps simulating while the actor
 * sleeps. A zero sleep returns at once. Returns 0, or -1 when the caller is
 * not an ibfsim application actor or now + ps overflows.
 */
int ibfs_sleep(ibfs_time_ps ps);

/*
 * Out-of-band exchange, taking no simulated time. ibfs_oob_put publishes a
 * copy of `len` bytes under `key` (at most 255 characters); a key is
 * published once. Returns 0, or -1 when the key is already published, the
 * key is empty or too long, memory is exhausted, or the caller is not an
 * application actor.
 */
int ibfs_oob_put(const char *key, const void *buf, size_t len);

/*
 * Copies the value published under `key` into buf, blocking the calling
 * actor until some actor publishes it. Returns 0 when the value is exactly
 * `len` bytes long; -1 (copying nothing) when its length differs, when the
 * key is invalid, or when the caller is not an application actor.
 */
int ibfs_oob_get(const char *key, void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
