/* SPDX-License-Identifier: MIT */
/*
 * HPCC's parameters in the registry of RoCEv2 controls (cc_roce.h; the
 * control is cc_hpcc.c) and its set, from the paper (Li et al., SIGCOMM
 * 2019) as HPCC's public simulator keeps them
 * (alibaba-edu/High-Precision-Congestion-Control: rdma-hw.cc TargetUtil
 * and MiThresh, run.py's rate_ai for "hp").
 */
#include "hca/cc_hpcc.h"
#include "hca/cc_roce.h"

#define PS_S 1e12

/* In the order of enum ibfs_hpcc_param (cc_hpcc.h). */
static const struct ibfs_cc_param hpcc_params[IBFS_HPCC_NPARAMS] = {
	{"base-rtt", IBFS_CC_TIME, 0, PS_S,
	 "T, the fabric's base round trip; 0: computed from the fabric "
	 "(its longest path's, docs/fidelity.md)"},
	{"eta", IBFS_CC_FRACTION, 0.01, 1,
	 "target utilization of the bottleneck (paper: eta)"},
	{"max-stage", IBFS_CC_COUNT, 0, 1000,
	 "additive rounds before a multiplicative one (paper: maxStage)"},
	{"wai", IBFS_CC_BYTES, 0, 1e9,
	 "additive step of the window (paper: W_AI); 0: R_AI x T with "
	 "R_AI = 10 Mb/s per 25 Gb/s of the port"},
};

static const struct ibfs_cc_set hpcc_sets[] = {
	{"paper", "base-rtt=0us eta=0.95 max-stage=5 wai=0B",
	 "Li et al. SIGCOMM 2019; alibaba-edu/High-Precision-Congestion-"
	 "Control rdma-hw.cc, run.py"},
};

const struct ibfs_cc_algo ibfs__cc_hpcc = {
	.name = "hpcc",
	.what = "HPCC (Li et al., SIGCOMM 2019)",
	.params = hpcc_params,
	.nparams = IBFS_HPCC_NPARAMS,
	.sets = hpcc_sets,
	.nsets = (int)(sizeof(hpcc_sets) / sizeof(hpcc_sets[0])),
	.create = ibfs__cc_hpcc_create,
};
