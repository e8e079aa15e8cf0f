/* SPDX-License-Identifier: MIT */
/*
 * HPCC, the window control of RoCEv2 RNICs driven by in-band telemetry
 * (cc_hpcc.c): its parameters, and what tests and reports read of it.
 */
#ifndef IBFS_HCA_CC_HPCC_H
#define IBFS_HCA_CC_HPCC_H

#include <stdint.h>

#include "fabric/time.h"

struct ibfs_hca;
struct ibfs_hca_cc;
struct ibfs_hca_qp;

/* The registry's parameters (cc_hpcc_params.c), in this order. */
enum ibfs_hpcc_param {
	IBFS_HPCC_BASE_RTT,
	IBFS_HPCC_ETA,
	IBFS_HPCC_MAX_STAGE,
	IBFS_HPCC_WAI,
	IBFS_HPCC_NPARAMS
};

struct ibfs_hpcc_cfg {
	ibfs_time_t base_rtt;  /* T, ps: the fabric's base round trip */
	double eta;            /* target utilization */
	uint32_t max_stage;    /* additive steps before a multiplicative */
	double wai;            /* W_AI, bytes; 0: from the port's rate */
};

/* eta 0.95, maxStage 5, W_AI from the rate (cc_hpcc.c has the sources);
 * base_rtt 0, which the caller must set. */
void ibfs__hpcc_defaults(struct ibfs_hpcc_cfg *c);
/* HPCC with settings c: NULL on a bad setting (base_rtt 0, eta outside
 * (0, 1], W_AI < 0) or out of memory. */
struct ibfs_hca_cc *ibfs__cc_hpcc_new(const struct ibfs_hpcc_cfg *c);
/* The same from the registry's values (cc_roce.h's create). */
struct ibfs_hca_cc *ibfs__cc_hpcc_create(struct ibfs_hca *h, const double *v);
/* Makes HPCC h's control (every RC QP; an ACK per packet): 0, or -1. */
int ibfs__hca_set_hpcc(struct ibfs_hca *h, const struct ibfs_hpcc_cfg *c);
/* qp's window W and U, bytes and fraction (before its first ACK: the
 * initial ones); -1 when h's control is not HPCC. */
double ibfs__hpcc_window(const struct ibfs_hca_qp *qp);
double ibfs__hpcc_util(const struct ibfs_hca_qp *qp);
/* qp's W_AI in bytes (the setting, or its default from the rate). */
double ibfs__hpcc_wai(const struct ibfs_hca_qp *qp);

#endif
