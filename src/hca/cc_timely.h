/* SPDX-License-Identifier: MIT */
/*
 * TIMELY, the RTT-gradient rate control (cc_timely.c): its parameters,
 * and what tests and reports read of it.
 */
#ifndef IBFS_HCA_CC_TIMELY_H
#define IBFS_HCA_CC_TIMELY_H

#include <stdint.h>

#include "fabric/time.h"

struct ibfs_hca;
struct ibfs_hca_qp;

struct ibfs_timely_cfg {
	double alpha;          /* EWMA weight of the newest RTT difference */
	double beta;           /* multiplicative decrease factor */
	double delta_bps;      /* additive step; 0: from the port's rate */
	ibfs_time_t t_low, t_high, min_rtt; /* ps */
	uint32_t hai_after;    /* completions of gradient <= 0 before HAI */
	uint32_t hai_n;        /* HAI's multiple of delta */
	double min_bps;        /* the rate's floor */
};

/* The paper's settings (cc_timely.c has the sources). */
void ibfs__timely_defaults(struct ibfs_timely_cfg *c);
/* Makes TIMELY h's control (every RC QP): 0, or -1 on a bad setting or
 * out of memory. */
int ibfs__hca_set_timely(struct ibfs_hca *h, const struct ibfs_timely_cfg *c);
/* qp's rate in bit/s (before any sample: its port's); -1 when h's
 * control is not TIMELY. */
double ibfs__timely_rate(const struct ibfs_hca_qp *qp);
/* qp's smoothed RTT difference (ps) and last RTT sample (ps). */
double ibfs__timely_rtt_diff(const struct ibfs_hca_qp *qp);
ibfs_time_t ibfs__timely_last_rtt(const struct ibfs_hca_qp *qp);

#endif
