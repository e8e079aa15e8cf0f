/* SPDX-License-Identifier: MIT */
/*
 * Each QP's sending rate (see qp_rate.h): the control's figure, else the
 * data rate of the QP's port (fabric/link_rate.h), rounded to the bit.
 */
#include "hca/hca_int.h"
#include "hca/qp_rate.h"

static uint64_t qp_line_rate(const struct ibfs_hca *h, int port)
{
	const struct ibfs_port *p = &h->dev.ports[port];

	if (!p->rate.bits_den)
		return 0;
	return (p->rate.bits_num + p->rate.bits_den / 2) / p->rate.bits_den;
}

void ibfs__hca_qp_rates(const struct ibfs_hca *h, ibfs_qp_rate_fn fn,
			void *ctx)
{
	const struct ibfs_hca_cc *cc = h->cc;

	for (uint32_t i = 0; i < h->nqps; i++) {
		const struct ibfs_hca_qp *qp = h->qps[i];
		uint64_t bps = 0;

		if (!qp)
			continue;
		if (cc && cc->ops->rate)
			bps = cc->ops->rate(qp);
		if (!bps)
			bps = qp_line_rate(h, qp->port);
		fn(ctx, qp->pub.qp_num, qp->port, bps);
	}
}
