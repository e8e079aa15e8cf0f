/* SPDX-License-Identifier: MIT */
/*
 * perftest's tests (ib_send_lat, ib_write_lat, ib_read_lat, ib_atomic_lat,
 * ib_send_bw, ib_write_bw, ib_read_bw) run on two simulated HCAs. The two
 * programs are written as event handlers on the verbs API (completion
 * callbacks and, for write_lat, the arrival of data in memory, which the
 * real test polls), so a run needs no SimGrid and is exact.
 */
#ifndef IBFS_HCA_PERFTEST_H
#define IBFS_HCA_PERFTEST_H

#include <stdint.h>

#include "fabric/diag.h"
#include "hca/direct_exec.h"
#include "hca/hca.h"

enum ibfs_pt_test {
	IBFS_PT_SEND_LAT,
	IBFS_PT_WRITE_LAT,
	IBFS_PT_READ_LAT,
	IBFS_PT_ATOMIC_LAT,
	IBFS_PT_SEND_BW,
	IBFS_PT_WRITE_BW,
	IBFS_PT_READ_BW,
	IBFS_PT_COUNT
};

/* A test by name, "write_bw" or perftest's "ib_write_bw"; -1 if none. */
int ibfs__pt_test_parse(const char *name);
const char *ibfs__pt_test_name(enum ibfs_pt_test t);
static inline int ibfs__pt_is_bw(enum ibfs_pt_test t)
{
	return t >= IBFS_PT_SEND_BW;
}

/* perftest's limits: -q (MAX_QP_NUM), -t (MAX_TX), -I (MAX_INLINE). */
#define IBFS_PT_MAX_QPS 16384
#define IBFS_PT_MAX_TX 15000
#define IBFS_PT_MAX_INLINE 912

struct ibfs_pt_cfg {
	enum ibfs_pt_test test;
	uint32_t size;         /* message bytes (atomics: 8) */
	uint64_t iters;        /* per QP, as perftest's -n */
	uint32_t tx_depth;     /* bw: WRs in flight a QP (0: perftest's 128) */
	/* perftest -I: inline up to inline_size bytes when have_inline;
	 * else perftest's default: 220 for write_lat, 236 for send_lat (188
	 * over UD), none for the others. */
	int have_inline;
	uint32_t inline_size;
	enum ibfs_qp_type qpt; /* perftest -c: RC (0 means RC), UC, UD */
	uint8_t port;          /* perftest -i: the HCA port; 0 means 1 */
	uint32_t nqps;         /* bw, perftest -q: QPs (0 means 1) */
	int bidir;             /* bw, perftest -b: both sides send */
	uint32_t mtu;          /* perftest -m, bytes; 0: the port's */
};

struct ibfs_pt_result {
	uint32_t size;
	uint64_t iters;
	/* Latency tests, in microseconds (perftest's columns). */
	double t_min, t_max, t_typical, t_avg, t_stdev, p99, p999;
	/* Bandwidth tests. */
	double bw_peak_gbps, bw_avg_gbps, msg_rate_mpps;
	uint64_t elapsed_ps;
};

/*
 * What perftest refuses whatever the HCAs: iterations, sizes, -q/-b/-t
 * outside the bandwidth tests, limits, MTUs, a test over a QP type that
 * lacks its operation, -I on READ or atomics. c as given (0 for what is
 * left to the defaults). 0, or -1 with a sentence in d.
 */
int ibfs__pt_check_usage(const struct ibfs_pt_cfg *c, struct ibfs_diag *d);
/* 0 if port (0: 1) of both HCAs has a LID, else -1 with d filled. */
int ibfs__perftest_port_ok(struct ibfs_hca *a, struct ibfs_hca *b,
			   uint8_t port, struct ibfs_diag *d);
/*
 * Runs test c between HCAs a (client) and b (server), whose exec must be
 * dx; a and b must reach each other (LIDs set, routes programmed). Returns
 * 0, or -1 with a sentence in d (a failed completion, a stall). With
 * c->bidir the bandwidth figures are the sums of both sides', as perftest
 * prints them.
 */
int ibfs__perftest_run(struct ibfs_hca *a, struct ibfs_hca *b,
		       struct ibfs_direct_exec *dx,
		       const struct ibfs_pt_cfg *c, struct ibfs_pt_result *r,
		       struct ibfs_diag *d);

#endif
