/* SPDX-License-Identifier: MIT */
/*
 * TIMELY's parameters in the registry of RoCEv2 controls (cc_roce.h;
 * the control is cc_timely.c) and its set, from the paper (Mittal et
 * al., SIGCOMM 2015) as HPCC's public simulator keeps them
 * (alibaba-edu/High-Precision-Congestion-Control: rdma-hw.cc's Timely*
 * attributes; run.py's rate_ai and MIN_RATE for "timely").
 */
#include "hca/cc_roce.h"
#include "hca/cc_timely.h"

#define PS_S 1e12
#define TBPS 1e12

/* In the order of enum ibfs_timely_param (cc_timely.h). */
static const struct ibfs_cc_param timely_params[IBFS_TIMELY_NPARAMS] = {
	{"alpha", IBFS_CC_FRACTION, 0.001, 1,
	 "EWMA weight of the newest RTT difference (paper: alpha)"},
	{"beta", IBFS_CC_FRACTION, 0.001, 1,
	 "multiplicative decrease factor (paper: beta)"},
	{"t-low", IBFS_CC_TIME, 0, PS_S,
	 "below this RTT the rate rises by delta (paper: T_low)"},
	{"t-high", IBFS_CC_TIME, 0, PS_S,
	 "above this RTT the rate falls (paper: T_high)"},
	{"min-rtt", IBFS_CC_TIME, 1, PS_S,
	 "the gradient's normalization (paper: minRTT)"},
	{"delta", IBFS_CC_RATE, 0, TBPS,
	 "additive step (paper: delta); 0: 10 Mb/s per 10 Gb/s of the "
	 "port"},
	{"hai-after", IBFS_CC_COUNT, 1, 1000,
	 "completions without a positive gradient before HAI (paper: 5)"},
	{"hai-n", IBFS_CC_COUNT, 1, 1000,
	 "HAI's multiple of delta (paper: N = 5)"},
	{"min-rate", IBFS_CC_RATE, 1, TBPS, "the rate never goes below"},
};

static const struct ibfs_cc_set timely_sets[] = {
	{"paper",
	 "alpha=0.875 beta=0.8 t-low=50us t-high=500us min-rtt=20us "
	 "delta=0Mbps hai-after=5 hai-n=5 min-rate=1000Mbps",
	 "Mittal et al. SIGCOMM 2015; alibaba-edu/High-Precision-"
	 "Congestion-Control rdma-hw.cc, run.py"},
};

const struct ibfs_cc_algo ibfs__cc_timely = {
	.name = "timely",
	.what = "TIMELY (Mittal et al., SIGCOMM 2015)",
	.params = timely_params,
	.nparams = IBFS_TIMELY_NPARAMS,
	.sets = timely_sets,
	.nsets = (int)(sizeof(timely_sets) / sizeof(timely_sets[0])),
	.create = ibfs__cc_timely_create,
};
