/* SPDX-License-Identifier: MIT */
/*
 * DCQCN inside the HCA layer: its parameters' order (the table of
 * cc_dcqcn_params.c, the values a configuration holds) and the
 * constructor the registry calls (cc_dcqcn.c).
 */
#ifndef IBFS_HCA_CC_DCQCN_H
#define IBFS_HCA_CC_DCQCN_H

#include <stdint.h>

struct ibfs_hca;
struct ibfs_hca_cc;

enum ibfs_dcqcn_param {
	IBFS_DCQCN_CNP_INTERVAL,
	IBFS_DCQCN_CNP_PRIO,
	IBFS_DCQCN_G,
	IBFS_DCQCN_ALPHA_INIT,
	IBFS_DCQCN_ALPHA_TIMER,
	IBFS_DCQCN_RATE_TIMER,
	IBFS_DCQCN_BYTE_COUNTER,
	IBFS_DCQCN_FR_STEPS,
	IBFS_DCQCN_RATE_AI,
	IBFS_DCQCN_RATE_HAI,
	IBFS_DCQCN_MIN_RATE,
	IBFS_DCQCN_MIN_DEC_FAC,
	IBFS_DCQCN_RATE_DEC_INTERVAL,
	IBFS_DCQCN_CLAMP_TARGET,
	IBFS_DCQCN_NPARAMS
};

struct ibfs_hca_cc *ibfs__cc_dcqcn_create(struct ibfs_hca *h, const double *v);

/* A QP's reaction point as it stands (tests, reports). */
struct ibfs_dcqcn_state {
	int active;            /* below line rate, timers running */
	uint64_t rc, rt;       /* bit/s */
	double alpha;
	uint32_t t_cnt, b_cnt; /* increase events since the last decrease */
};
struct ibfs_hca_qp;
/* 0 and *out filled if qp's HCA runs DCQCN and qp has state, else -1. */
int ibfs__cc_dcqcn_state(const struct ibfs_hca_qp *qp,
			 struct ibfs_dcqcn_state *out);

#endif
