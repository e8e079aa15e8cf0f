/* SPDX-License-Identifier: MIT */
/*
 * The sending rate of each QP of an HCA as its congestion control sets
 * it (struct ibfs_hca_cc_ops' rate, hca_int.h), for samples and reports:
 * a QP that no control limits (no control, or one without a rate, or one
 * that returns 0) may send at its port's line rate, and that is given.
 */
#ifndef IBFS_HCA_QP_RATE_H
#define IBFS_HCA_QP_RATE_H

#include <stdint.h>

#include "hca/hca.h"

/* Called once a QP: its number, its port and its rate in bit/s. */
typedef void (*ibfs_qp_rate_fn)(void *ctx, uint32_t qpn, int port,
				uint64_t bps);

/* Calls fn for every QP h holds, in the order they were created. */
void ibfs__hca_qp_rates(const struct ibfs_hca *h, ibfs_qp_rate_fn fn,
			void *ctx);

#endif
