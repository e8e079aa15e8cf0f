/* SPDX-License-Identifier: MIT */
/*
 * A host with a NIC and a kernel TCP/IP stack on an Ethernet fabric
 * (`--model tcp`): a device on the fabric's node of an HCA, whose first
 * port is its NIC, and the kernel's TCP connection endpoints (one
 * struct ibfs_tcp each, src/transport) that it drives with the fabric's
 * time, frames and timers.
 *
 * The NIC sends the frames the engines hand it in the order they came,
 * one at a time as the port's transmitter and its flow control allow
 * (PFC pauses the priority when the scenario turns it on); a super-segment
 * (TSO) goes out as its pieces. Frames are addressed by host id as RoCE's
 * (fabric/eth.h) and carry their TCP header in the packet
 * (fabric/tcp_frame.h). An arriving frame is taken whole and handed to
 * the connection its 4-tuple names, at once.
 *
 * Its CPU (host_profile.h, tcp_host_cpu.c) runs the kernel's steps on
 * the host's cores, each for its cost: the send path's system call and
 * copy, each segment's TCP/IP transmit, the NIC's coalesced interrupts
 * and the softirq's receive processing, the reader's wake-up, recv()
 * and copy. Under the `ideal` profile it costs nothing and is not run.
 */
#ifndef IBFS_HOST_TCP_HOST_H
#define IBFS_HOST_TCP_HOST_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "transport/tcp.h"

struct ibfs_tcp_host;
struct ibfs_tcp_sock;

/* The application above: bytes became readable on s, and were read;
 * s was given up (its peer unreachable: tcp_host.c's TCP_RETRIES2). */
struct ibfs_tcp_app_ops {
	void (*delivered)(void *ctx, struct ibfs_tcp_sock *s, uint64_t bytes);
	void (*aborted)(void *ctx, struct ibfs_tcp_sock *s);
};

/* The connections' counters summed over a host. */
struct ibfs_tcp_host_stats {
	uint64_t retransmits, timeouts, fast_retransmits;
	uint64_t segs_out, acks_out, frames_out, frames_in;
	/* The CPU: its cores (0 under `ideal`), the ps they were busy,
	 * the interrupts, system calls, wake-ups and bytes copied. */
	int cores;
	ibfs_time_t cpu_busy;
	uint64_t irqs, syscalls, wakeups, copied;
};

struct ibfs_host_profile;

/*
 * The host on node `node`, its NIC on port 1 answering to host id `id`,
 * its frames on priority `prio`. NULL when out of memory.
 */
struct ibfs_tcp_host *ibfs__tcp_host_create(struct ibfs_fabric *f, int node,
					    uint16_t id, uint8_t prio,
					    const struct ibfs_tcp_app_ops *app,
					    void *app_ctx);
void ibfs__tcp_host_free(struct ibfs_tcp_host *h);
/* The host on `node`, or NULL when its device is something else. */
struct ibfs_tcp_host *ibfs__tcp_host_of_node(struct ibfs_fabric *f, int node);
uint16_t ibfs__tcp_host_id(const struct ibfs_tcp_host *h);
/* The CPU profile of h's steps (host_profile.h); `ideal` or NULL: none. */
void ibfs__tcp_host_set_profile(struct ibfs_tcp_host *h,
				const struct ibfs_host_profile *prof);
void ibfs__tcp_host_stats(const struct ibfs_tcp_host *h,
			  struct ibfs_tcp_host_stats *st);

/*
 * A connection from a to b: b listens on port `dport`, a takes its next
 * ephemeral port (Linux's ip_local_port_range, 32768 on) and sends its SYN
 * now. Both ends use cfg. *client and *server are the two ends; `user`
 * is kept with each. Returns 0, or -1 when out of memory.
 */
int ibfs__tcp_host_connect(struct ibfs_tcp_host *a, struct ibfs_tcp_host *b,
			   uint16_t dport, const struct ibfs_tcp_config *cfg,
			   uint64_t user, struct ibfs_tcp_sock **client,
			   struct ibfs_tcp_sock **server);

/* The application writes `bytes` (what the send buffer cannot take now
 * waits and goes in as it drains). */
void ibfs__tcp_sock_write(struct ibfs_tcp_sock *s, uint64_t bytes);
uint64_t ibfs__tcp_sock_user(const struct ibfs_tcp_sock *s);
const struct ibfs_tcp *ibfs__tcp_sock_engine(const struct ibfs_tcp_sock *s);

#endif
