/* SPDX-License-Identifier: MIT */
/*
 * Inside the kernel TCP host: its sockets and NIC (tcp_host.c) and the
 * steps its CPU runs (tcp_host_cpu.c), shared by the two.
 */
#ifndef IBFS_HOST_TCP_HOST_INT_H
#define IBFS_HOST_TCP_HOST_INT_H

#include "host/host_cpu.h"
#include "host/host_profile.h"
#include "host/tcp_host.h"

struct ibfs_tcp_sock {
	struct ibfs_tcp_host *host;
	struct ibfs_tcp *tcp;
	uint16_t peer;          /* the remote host id */
	uint16_t lport, rport;
	struct ibfs_event *timer[IBFS_TCP_T_COUNT];
	uint64_t backlog;       /* written, not yet in the send buffer */
	uint64_t user;
	int dead;               /* given up after TCP_RETRIES2 */
	/* With a CPU (tcp_host_cpu.c): */
	uint64_t queued;        /* bytes the send buffer took, in all */
	uint64_t readable;      /* delivered, not yet read */
	uint32_t calls;         /* send() calls not yet charged */
	uint32_t sndbuf;
	int writing, blocked;   /* a copy under way; waiting for room */
	int reading;            /* a recv() under way or queued */
};

struct ibfs_tcp_host {
	struct ibfs_device dev; /* first: the fabric's view */
	struct ibfs_port *port;
	uint16_t id;
	uint8_t prio;
	uint16_t next_port;
	struct ibfs_packet *txq, *txq_tail; /* the NIC's queue, by next */
	struct ibfs_tcp_sock **socks;       /* open addressing, by 4-tuple */
	size_t nsocks, cap;
	const struct ibfs_tcp_app_ops *app;
	void *app_ctx;
	uint64_t frames_out, frames_in;
	/* The CPU: NULL under `ideal`, the path then costing nothing. */
	const struct ibfs_host_profile *prof;  /* &pf or NULL */
	struct ibfs_host_profile pf;
	struct ibfs_cpu_core core[2];
	struct ibfs_cpu_core *app_core, *net_core;
	struct ibfs_packet *ring, *ring_tail; /* received, no interrupt yet */
	uint32_t ring_n;
	struct ibfs_event *coal;            /* the rx-usecs timer */
	uint64_t irqs, syscalls, wakeups, copied;
	/* The engine's cpu hook's counts (enum ibfs_tcp_cpu_work). */
	uint64_t work[3];
};

struct ibfs_tcp_sock *ibfs__tcp_host_find(const struct ibfs_tcp_host *h,
					  uint16_t peer, uint16_t lport,
					  uint16_t rport);
/* Frames of seg (its pieces under TSO) for the NIC, linked by next. */
struct ibfs_packet *ibfs__tcp_host_frames(struct ibfs_tcp_sock *s,
					  const struct ibfs_tcp_seg *seg);
/* frames to the NIC's queue, in order, and the NIC sends what it may. */
void ibfs__tcp_host_nic(struct ibfs_tcp_host *h, struct ibfs_packet *frames);
/* An arrived frame, taken from the ring, handed to its connection. */
void ibfs__tcp_host_segment(struct ibfs_tcp_host *h, struct ibfs_packet *p);

/* The CPU's path (tcp_host_cpu.c), used when h->prof is set. */
void ibfs__tcp_cpu_send(struct ibfs_tcp_sock *s,
			const struct ibfs_tcp_seg *seg);
void ibfs__tcp_cpu_arrived(struct ibfs_tcp_host *h, struct ibfs_packet *p);
void ibfs__tcp_cpu_write(struct ibfs_tcp_sock *s, uint64_t bytes);
void ibfs__tcp_cpu_writable(struct ibfs_tcp_sock *s);
void ibfs__tcp_cpu_deliver(struct ibfs_tcp_sock *s, uint64_t bytes);
void ibfs__tcp_cpu_free(struct ibfs_tcp_host *h);

#endif
