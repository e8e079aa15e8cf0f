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
struct ibfs_hca_cc;
struct ibfs_hca_qp;

/* The registry's parameters (cc_timely_params.c), in this order. */
enum ibfs_timely_param {
	IBFS_TIMELY_ALPHA,
	IBFS_TIMELY_BETA,
	IBFS_TIMELY_T_LOW,
	IBFS_TIMELY_T_HIGH,
	IBFS_TIMELY_MIN_RTT,
	IBFS_TIMELY_DELTA,
	IBFS_TIMELY_HAI_AFTER,
	IBFS_TIMELY_HAI_N,
	IBFS_TIMELY_MIN_RATE,
	IBFS_TIMELY_NPARAMS
};

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
/* TIMELY with settings c: NULL on a bad setting or out of memory. */
struct ibfs_hca_cc *ibfs__cc_timely_new(const struct ibfs_timely_cfg *c);
/* The same from the registry's values (cc_roce.h's create). */
struct ibfs_hca_cc *ibfs__cc_timely_create(struct ibfs_hca *h,
					   const double *v);
/* Makes TIMELY h's control (every RC QP): 0, or -1. */
int ibfs__hca_set_timely(struct ibfs_hca *h, const struct ibfs_timely_cfg *c);
/* qp's rate in bit/s (before any sample: its port's); -1 when h's
 * control is not TIMELY. */
double ibfs__timely_rate(const struct ibfs_hca_qp *qp);
/* qp's smoothed RTT difference (ps) and last RTT sample (ps). */
double ibfs__timely_rtt_diff(const struct ibfs_hca_qp *qp);
ibfs_time_t ibfs__timely_last_rtt(const struct ibfs_hca_qp *qp);

#endif
