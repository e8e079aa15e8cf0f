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
struct ibfs_hca_qp;

struct ibfs_hpcc_cfg {
	ibfs_time_t base_rtt;  /* T, ps: the fabric's base round trip */
	double eta;            /* target utilization */
	uint32_t max_stage;    /* additive steps before a multiplicative */
	double wai;            /* W_AI, bytes; 0: from the port's rate */
};

/* eta 0.95, maxStage 5, W_AI from the rate (cc_hpcc.c has the sources);
 * base_rtt 0, which the caller must set. */
void ibfs__hpcc_defaults(struct ibfs_hpcc_cfg *c);
/* Makes HPCC h's control (every RC QP; ACK per packet): 0, or -1 on a
 * bad setting (base_rtt 0, eta outside (0, 1]) or out of memory. */
int ibfs__hca_set_hpcc(struct ibfs_hca *h, const struct ibfs_hpcc_cfg *c);
/* qp's window W and U, bytes and fraction (before its first ACK: the
 * initial ones); -1 when h's control is not HPCC. */
double ibfs__hpcc_window(const struct ibfs_hca_qp *qp);
double ibfs__hpcc_util(const struct ibfs_hca_qp *qp);
/* qp's W_AI in bytes (the setting, or its default from the rate). */
double ibfs__hpcc_wai(const struct ibfs_hca_qp *qp);

#endif
