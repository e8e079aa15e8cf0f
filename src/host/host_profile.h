/* SPDX-License-Identifier: MIT */
/*
 * Host CPU profiles for `--model tcp`: what each step of the kernel's
 * TCP/IP path costs a core of the host (docs/tcp.md, "The host CPU").
 * `ideal` costs nothing (the hosts as they were before a CPU was
 * modelled); `linux-xeon` is a current two-socket Xeon server running
 * Linux with a 100 Gb/s NIC. Each figure's source is in host_profile.c.
 */
#ifndef IBFS_HOST_HOST_PROFILE_H
#define IBFS_HOST_HOST_PROFILE_H

#include <stdint.h>

#include "fabric/time.h"

struct ibfs_host_profile {
	const char *name;
	int ideal;               /* no CPU at all: the path as without one */
	int cores;               /* 2: the application's and the softirq's */
	ibfs_time_t syscall;     /* a system call's entry and exit */
	uint32_t copy_tx_ps;     /* copy user to kernel, ps a byte */
	uint32_t copy_rx_ps;     /* copy kernel to user, ps a byte */
	ibfs_time_t tx_seg;      /* TCP/IP transmit, a segment */
	ibfs_time_t tx_tso;      /* TCP/IP transmit, a TSO super-segment */
	ibfs_time_t irq;         /* a receive interrupt, to the softirq */
	ibfs_time_t rx_usecs;    /* ethtool -C rx-usecs */
	uint32_t rx_frames;      /* ethtool -C rx-frames */
	int gro;                 /* GRO on: rx_gro a batch, not rx_pkt each */
	ibfs_time_t rx_pkt;      /* softirq TCP/IP receive, a packet */
	ibfs_time_t rx_gro;      /* the same, a GRO batch */
	ibfs_time_t wakeup;      /* waking a reader or writer that slept */
	uint32_t recv_bytes;     /* the application's recv() buffer */
	uint32_t send_chunk;     /* bytes send() copies before it pushes */
};

/* The profile called name, or NULL. */
const struct ibfs_host_profile *ibfs__host_profile(const char *name);
/* The names, in order, NULL-terminated, and as "a, b, c". */
#define IBFS_HOST_PROFILES 2
extern const char *const ibfs__host_profile_names[];
const char *ibfs__host_profile_list(void);

#endif
