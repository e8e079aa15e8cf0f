/* SPDX-License-Identifier: MIT */
/*
 * TIMELY (Mittal et al., "TIMELY: RTT-based Congestion Control for the
 * Datacenter", SIGCOMM 2015): a rate per RC QP driven by the round trip
 * time the RNIC measures on each completion event, here each ACK.
 *
 * The RTT of an ACK runs from when the acknowledged packet's last byte
 * left the port to when the ACK arrives: the send time of the segment,
 * less its serialization (section 3: the RTT excludes the segment's own
 * transmission). On each sample (Algorithm 1):
 *
 *   new_rtt_diff = new_rtt - prev_rtt;  prev_rtt = new_rtt
 *   rtt_diff = (1 - alpha) rtt_diff + alpha new_rtt_diff
 *   gradient = rtt_diff / minRTT
 *   new_rtt < T_low:   rate += delta
 *   new_rtt > T_high:  rate *= 1 - beta (1 - T_high / new_rtt)
 *   gradient <= 0:     rate += N delta, N = 5 once the gradient has not
 *                      been positive for 5 completions in a row (HAI),
 *                      else 1
 *   else:              rate *= 1 - beta gradient
 *
 * The first sample has no predecessor: it counts as its own (a
 * difference of 0). HAI's count is of consecutive samples that take the
 * gradient branch with a gradient <= 0; any other branch resets it.
 * T_low is tested first: with T_low above T_high, an RTT between them
 * counts as low. The rate stays between min_bps and the port's rate and
 * starts at the port's. A rate limiter per QP applies it: a request
 * packet of n bytes that starts at t lets the next start at t + 8 n /
 * rate.
 *
 * Parameters: alpha 0.875, beta 0.8, T_low 50 us, T_high 500 us, minRTT
 * 20 us, delta 10 Mb/s on the paper's 10 Gb/s NICs (its evaluation), as
 * HPCC's public simulator keeps them (rdma-hw.cc: TimelyAlpha, TimelyBeta,
 * TimelyTLow, TimelyTHigh, TimelyMinRtt); delta scaled with the port's
 * rate and a floor of 1 Gb/s as its run.py sets them (rate_ai 10 x bw /
 * 10 Mb/s, MIN_RATE 1000 Mb/s).
 */
#include "hca/cc_timely.h"

#include <stdlib.h>

#include "hca/hca_int.h"

/* Send times of the PSNs in flight, by PSN % TIMELY_RING. */
#define TIMELY_RING 512u

struct timely_cc {
	struct ibfs_hca_cc base;
	struct ibfs_timely_cfg cfg;
	double rate_min;           /* the lowest rate set on any QP, 0: none */
};

struct timely_qp {
	double rate, max, delta;   /* bit/s */
	double rtt_diff;           /* ps */
	ibfs_time_t prev_rtt;      /* ps; 0 before the first sample */
	uint32_t neg;              /* HAI: gradient <= 0 in a row */
	ibfs_time_t next_at;
	struct {
		uint32_t psn;
		ibfs_time_t left;
	} ring[TIMELY_RING];
};

static const struct ibfs_hca_cc_ops timely_ops;

static struct timely_cc *timely_of(const struct ibfs_hca *h)
{
	if (!h->cc || h->cc->ops != &timely_ops)
		return NULL;
	return (struct timely_cc *)h->cc;
}

void ibfs__timely_defaults(struct ibfs_timely_cfg *c)
{
	c->alpha = 0.875;
	c->beta = 0.8;
	c->delta_bps = 0;
	c->t_low = 50 * IBFS_US;
	c->t_high = 500 * IBFS_US;
	c->min_rtt = 20 * IBFS_US;
	c->hai_after = 5;
	c->hai_n = 5;
	c->min_bps = 1e9;
}

static struct timely_qp *timely_qp(const struct ibfs_hca_qp *cqp)
{
	struct ibfs_hca_qp *qp = (struct ibfs_hca_qp *)cqp;
	const struct timely_cc *cc = timely_of(qp->hca);
	struct timely_qp *s = qp->cc_qp;

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	const struct ibfs_rate *r = &qp->hca->hp[qp->port].port->rate;

	s->max = r->bits_den ? (double)r->bits_num / (double)r->bits_den : 0;
	s->rate = s->max;
	/* delta: 10 Mb/s per 10 Gb/s of the port's rate. */
	s->delta = cc->cfg.delta_bps > 0 ? cc->cfg.delta_bps : s->max / 1000;
	qp->cc_qp = s;
	return s;
}

struct ibfs_hca_cc *ibfs__cc_timely_new(const struct ibfs_timely_cfg *c)
{
	if (!(c->alpha > 0 && c->alpha <= 1) ||
	    !(c->beta > 0 && c->beta <= 1) || !c->min_rtt || c->delta_bps < 0 ||
	    c->min_bps < 0)
		return NULL;
	struct timely_cc *cc = calloc(1, sizeof(*cc));

	if (!cc)
		return NULL;
	cc->base.ops = &timely_ops;
	cc->cfg = *c;
	return &cc->base;
}

int ibfs__hca_set_timely(struct ibfs_hca *h, const struct ibfs_timely_cfg *c)
{
	struct ibfs_hca_cc *cc = ibfs__cc_timely_new(c);

	if (!cc)
		return -1;
	ibfs__hca_cc_install(h, cc);
	return 0;
}

struct ibfs_hca_cc *ibfs__cc_timely_create(struct ibfs_hca *h,
					   const double *v)
{
	struct ibfs_timely_cfg c = {
		.alpha = v[IBFS_TIMELY_ALPHA],
		.beta = v[IBFS_TIMELY_BETA],
		.t_low = (ibfs_time_t)v[IBFS_TIMELY_T_LOW],
		.t_high = (ibfs_time_t)v[IBFS_TIMELY_T_HIGH],
		.min_rtt = (ibfs_time_t)v[IBFS_TIMELY_MIN_RTT],
		.delta_bps = v[IBFS_TIMELY_DELTA],
		.hai_after = (uint32_t)v[IBFS_TIMELY_HAI_AFTER],
		.hai_n = (uint32_t)v[IBFS_TIMELY_HAI_N],
		.min_bps = v[IBFS_TIMELY_MIN_RATE],
	};

	(void)h;
	return ibfs__cc_timely_new(&c);
}

static void timely_free(struct ibfs_hca *h)
{
	for (uint32_t i = 0; i < h->nqps; i++) {
		if (h->qps[i]) {
			free(h->qps[i]->cc_qp);
			h->qps[i]->cc_qp = NULL;
		}
	}
	free(timely_of(h));
}

static void timely_qp_gone(struct ibfs_hca_qp *qp)
{
	free(qp->cc_qp);
	qp->cc_qp = NULL;
}

static ibfs_time_t timely_until(const struct ibfs_hca_qp *qp)
{
	const struct timely_qp *s = qp->cc_qp;

	return s ? s->next_at : 0;
}

static void timely_sent(struct ibfs_hca_port *hp, struct ibfs_hca_qp *qp,
			const struct ibfs_cc_tx *tx, ibfs_time_t left)
{
	if (!qp || !tx->request || qp->pub.qp_type != IBFS_QPT_RC)
		return;
	struct timely_qp *s = timely_qp(qp);

	if (!s)
		return;
	s->ring[tx->psn % TIMELY_RING].psn = tx->psn;
	s->ring[tx->psn % TIMELY_RING].left = left;
	ibfs_time_t ser = ibfs__port_ser(hp->port, tx->wire);
	double gap = (double)tx->wire * 8 * 1e12 / s->rate;

	s->next_at = left - ser + (ibfs_time_t)gap;
}

/* Algorithm 1 on the RTT sample rtt (ps). */
static void timely_sample(const struct ibfs_timely_cfg *c,
			  struct timely_qp *s, ibfs_time_t rtt)
{
	double diff = s->prev_rtt ? (double)rtt - (double)s->prev_rtt : 0;

	s->prev_rtt = rtt;
	s->rtt_diff = (1 - c->alpha) * s->rtt_diff + c->alpha * diff;
	double g = s->rtt_diff / (double)c->min_rtt;

	if (rtt < c->t_low) {
		s->neg = 0;
		s->rate += s->delta;
	} else if (rtt > c->t_high) {
		s->neg = 0;
		s->rate *= 1 - c->beta * (1 - (double)c->t_high / (double)rtt);
	} else if (g <= 0) {
		s->neg++;
		s->rate += (s->neg >= c->hai_after ? c->hai_n : 1) * s->delta;
	} else {
		s->neg = 0;
		s->rate *= 1 - c->beta * g;
	}
	if (s->rate > s->max)
		s->rate = s->max;
	if (s->rate < c->min_bps)
		s->rate = c->min_bps;
}

static int timely_rx(struct ibfs_hca_port *hp, struct ibfs_packet *p)
{
	struct ibfs_hca *h = hp->hca;

	if (p->opcode != IBFS_OP_ACK || p->kind != IBFS_PKT_DATA ||
	    (p->aeth.syndrome & 0xe0) != IBFS_AETH_ACK ||
	    !h->lops->accept(hp, p))
		return 0;
	struct ibfs_hca_qp *qp = ibfs__qp_lookup(h, p->dest_qp);

	if (!qp || qp->port != hp->num || !qp->cc_qp)
		return 0;
	struct timely_qp *s = qp->cc_qp;
	uint32_t slot = p->psn % TIMELY_RING;
	ibfs_time_t now = ibfs__hca_now(h);

	if (s->ring[slot].psn != p->psn || s->ring[slot].left > now)
		return 0;
	struct timely_cc *cc = timely_of(h);

	timely_sample(&cc->cfg, s, now - s->ring[slot].left);
	if (!cc->rate_min || s->rate < cc->rate_min)
		cc->rate_min = s->rate;
	return 0;
}

static uint64_t timely_rate(const struct ibfs_hca_qp *qp)
{
	const struct timely_qp *s = qp->cc_qp;

	return s && timely_of(qp->hca) ? (uint64_t)s->rate : 0;
}

static uint64_t timely_rate_min(const struct ibfs_hca *h)
{
	return (uint64_t)timely_of(h)->rate_min;
}

double ibfs__timely_rate(const struct ibfs_hca_qp *qp)
{
	if (!timely_of(qp->hca))
		return -1;
	const struct timely_qp *s = timely_qp(qp);

	return s ? s->rate : -1;
}

double ibfs__timely_rtt_diff(const struct ibfs_hca_qp *qp)
{
	const struct timely_qp *s = timely_of(qp->hca) ? qp->cc_qp : NULL;

	return s ? s->rtt_diff : 0;
}

ibfs_time_t ibfs__timely_last_rtt(const struct ibfs_hca_qp *qp)
{
	const struct timely_qp *s = timely_of(qp->hca) ? qp->cc_qp : NULL;

	return s ? s->prev_rtt : 0;
}

static const struct ibfs_hca_cc_ops timely_ops = {
	.name = "timely",
	.until = timely_until,
	.sent = timely_sent,
	.rx = timely_rx,
	.rate = timely_rate,
	.rate_min = timely_rate_min,
	.qp_gone = timely_qp_gone,
	.free = timely_free,
};
