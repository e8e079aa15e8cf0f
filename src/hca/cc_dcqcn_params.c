/* SPDX-License-Identifier: MIT */
/*
 * DCQCN's parameters (Zhu et al., "Congestion Control for Large-Scale
 * RDMA Deployments", SIGCOMM 2015; the control is cc_dcqcn.c) and its
 * named sets, each from a public source (docs/congestion-control.md has
 * the table with the ConnectX firmware's names beside the model's).
 *
 * Notification point (the receiving RNIC): cnp-interval, cnp-prio.
 * Reaction point (the sending RNIC): the rest.
 */
#include "hca/cc_dcqcn.h"
#include "hca/cc_roce.h"

#define PS_S 1e12
#define MBPS 1e6
#define TBPS 1e12

/* In the order of enum ibfs_dcqcn_param (cc_dcqcn.h). */
static const struct ibfs_cc_param dcqcn_params[IBFS_DCQCN_NPARAMS] = {
	{"cnp-interval", IBFS_CC_TIME, 0, PS_S,
	 "least time between two CNPs to one QP (paper 3.2: N)"},
	{"cnp-prio", IBFS_CC_COUNT, 0, 7,
	 "Ethernet priority the CNPs take (DSCP 8 x it)"},
	{"g", IBFS_CC_FRACTION, 0, 1,
	 "gain of the alpha average (paper 3.1: g)"},
	{"alpha-init", IBFS_CC_FRACTION, 0, 1,
	 "alpha when a QP first slows down"},
	{"alpha-timer", IBFS_CC_TIME, 1000, PS_S,
	 "alpha decays when no CNP came for this long (paper: K)"},
	{"rate-timer", IBFS_CC_TIME, 1000, PS_S,
	 "period of the timer's rate increase events (paper: T)"},
	{"byte-counter", IBFS_CC_BYTES, 0, TBPS,
	 "bytes sent between byte counter increase events, 0 none "
	 "(paper: B)"},
	{"fr-steps", IBFS_CC_COUNT, 0, 1000,
	 "fast recovery steps before additive increase (paper: F)"},
	{"rate-ai", IBFS_CC_RATE, 0, TBPS,
	 "additive increase of the target rate (paper: R_AI)"},
	{"rate-hai", IBFS_CC_RATE, 0, TBPS,
	 "hyper increase of the target rate (paper: R_HAI)"},
	{"min-rate", IBFS_CC_RATE, 1, TBPS, "the rate never goes below"},
	{"min-dec-fac", IBFS_CC_FRACTION, 0, 1,
	 "one decrease leaves at least this fraction of the rate"},
	{"rate-dec-interval", IBFS_CC_TIME, 0, PS_S,
	 "least time between two decreases of one QP, 0 at each CNP"},
	{"clamp-target", IBFS_CC_BOOL, 0, 1,
	 "on: every decrease sets R_T = R_C; off: only one after an "
	 "increase event"},
};

/*
 * The sets (docs/congestion-control.md gives each value's source).
 * paper: the values of the DCQCN authors' public ns-3 simulator
 * (bobzhuyb/ns3-rdma, mix/config.txt), with the paper's N, K, g, F and
 * R_AI; a decrease on each CNP, as the paper's reaction point does.
 * hpcc-ns3: the DCQCN runs of HPCC's public ns-3 simulator
 * (alibaba-edu/High-Precision-Congestion-Control, run.py, cc "dcqcn")
 * for a 100 Gb/s NIC (R_AI = 5 x bw / 25 Mb/s, R_HAI = 50 x bw / 25).
 * connectx: the firmware defaults mlxconfig reports (RPG_*, DCE_TCP_*).
 */
static const struct ibfs_cc_set dcqcn_sets[] = {
	{"paper",
	 "cnp-interval=50us cnp-prio=6 g=1/256 alpha-init=1 "
	 "alpha-timer=55us rate-timer=60us byte-counter=300000B fr-steps=5 "
	 "rate-ai=40Mbps rate-hai=200Mbps min-rate=1Mbps min-dec-fac=0 "
	 "rate-dec-interval=0us clamp-target=on",
	 "Zhu et al. SIGCOMM 2015; bobzhuyb/ns3-rdma mix/config.txt"},
	{"hpcc-ns3",
	 "cnp-interval=0us alpha-timer=1us rate-timer=300us "
	 "byte-counter=0B fr-steps=1 rate-ai=20Mbps rate-hai=200Mbps "
	 "min-rate=1000Mbps rate-dec-interval=4us clamp-target=off",
	 "alibaba-edu/High-Precision-Congestion-Control run.py, mix/"
	 "config_doc.txt"},
	{"connectx",
	 "cnp-interval=2us cnp-prio=6 g=5/1024 alpha-init=1 alpha-timer=1us "
	 "rate-timer=300us byte-counter=32767B fr-steps=1 rate-ai=5Mbps "
	 "rate-hai=50Mbps min-rate=1Mbps min-dec-fac=0.5 "
	 "rate-dec-interval=4us clamp-target=off",
	 "mlxconfig query of a ConnectX adapter's defaults"},
};

const struct ibfs_cc_algo ibfs__cc_dcqcn = {
	.name = "dcqcn",
	.what = "DCQCN (Zhu et al., SIGCOMM 2015)",
	.params = dcqcn_params,
	.nparams = (int)(sizeof(dcqcn_params) / sizeof(dcqcn_params[0])),
	.sets = dcqcn_sets,
	.nsets = (int)(sizeof(dcqcn_sets) / sizeof(dcqcn_sets[0])),
	.create = ibfs__cc_dcqcn_create,
};
