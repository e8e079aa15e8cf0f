/* SPDX-License-Identifier: MIT */
/*
 * Congestion control as an ops table, as Linux's tcp_congestion_ops: the
 * engine keeps cwnd and ssthresh (bytes) and calls the control on each
 * acknowledgment, on a loss found by duplicate ACKs or SACK, on an ECN
 * echo (once a window, RFC 3168 6.1.2) and on a retransmission timeout.
 * The controls: NewReno (RFC 5681, RFC 3465, RFC 6928), CUBIC (RFC 9438)
 * and DCTCP (RFC 8257).
 */
#ifndef IBFS_TRANSPORT_TCP_CC_H
#define IBFS_TRANSPORT_TCP_CC_H

#include <stdint.h>

#include "fabric/time.h"

struct ibfs_tcp;

struct ibfs_tcp_cc_ops {
	const char *name;
	void (*init)(struct ibfs_tcp *tp);
	/* acked bytes newly acknowledged outside loss recovery; rtt the
	 * sample this ACK gave, 0 without one. */
	void (*on_ack)(struct ibfs_tcp *tp, uint64_t acked, ibfs_time_t rtt);
	/* Every ACK that acknowledges bytes, ece its ECE flag (NULL: not
	 * needed; DCTCP counts marked bytes here). */
	void (*ack_ecn)(struct ibfs_tcp *tp, uint64_t acked, int ece);
	/* Loss found (fast retransmit): set ssthresh, and cwnd to it. */
	void (*enter_recovery)(struct ibfs_tcp *tp);
	/* Congestion echoed by ECE, at most once a window. */
	void (*on_ecn)(struct ibfs_tcp *tp);
	/* The retransmission timer expired. */
	void (*on_rto)(struct ibfs_tcp *tp);
	/* The receiver echoes CE per segment (RFC 8257 3.2), not latched
	 * until CWR (RFC 3168 6.1.3). */
	int per_segment_echo;
};

/* Per-connection state of each control. */
struct ibfs_tcp_reno {
	uint64_t bytes_acked;   /* RFC 3465 2.1 counter in avoidance */
};

struct ibfs_tcp_cubic {
	double w_max;           /* segments, at the last reduction */
	double cwnd_prior;      /* segments, before the last reduction */
	double k;               /* seconds, RFC 9438 eq. 2 */
	double w_est;           /* segments, RFC 9438 4.3 */
	double frac;            /* bytes of growth not yet whole */
	ibfs_time_t epoch;      /* start of avoidance, IBFS_TIME_NEVER: none */
	int fast_convergence;   /* RFC 9438 4.7, on as in Linux */
};

struct ibfs_tcp_dctcp {
	double alpha;           /* RFC 8257 3.3, starts at 1 */
	double g;               /* 1/16 */
	uint64_t acked, marked; /* bytes in the observation window */
	uint64_t window_end;    /* stream offset that ends the window */
	struct ibfs_tcp_reno reno;
};

union ibfs_tcp_cc_state {
	struct ibfs_tcp_reno reno;
	struct ibfs_tcp_cubic cubic;
	struct ibfs_tcp_dctcp dctcp;
};

extern const struct ibfs_tcp_cc_ops ibfs__tcp_newreno;
extern const struct ibfs_tcp_cc_ops ibfs__tcp_cubic;
extern const struct ibfs_tcp_cc_ops ibfs__tcp_dctcp;

/* RFC 9438's constants: C = 0.4, beta = 0.7. */
#define IBFS_CUBIC_C 0.4
#define IBFS_CUBIC_BETA 0.7

/* W_cubic(t) = C (t - K)^3 + W_max (RFC 9438 eq. 1), segments, t in s;
 * K = cbrt(W_max (1 - beta) / C) (eq. 2, cwnd_epoch = beta W_max). */
double ibfs__cubic_k(double w_max);
double ibfs__cubic_w(double w_max, double k, double t);

/* Slow start with RFC 3465's byte counting, L = 2 SMSS; and RFC 3465
 * 2.1's one SMSS a cwnd of bytes acknowledged in avoidance. */
void ibfs__tcp_slow_start(struct ibfs_tcp *tp, uint64_t acked);
void ibfs__tcp_reno_avoid(struct ibfs_tcp *tp, struct ibfs_tcp_reno *r,
			  uint64_t acked);

#endif
