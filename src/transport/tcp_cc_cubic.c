/* SPDX-License-Identifier: MIT */
/*
 * CUBIC (RFC 9438), Linux's default: after a reduction the window follows
 * W_cubic(t) = C (t - K)^3 + W_max (4.2, eq. 1) toward the window it had
 * at the loss, reaching it K seconds later, then probes beyond it; each
 * ACK moves cwnd by (target - cwnd) / cwnd segments per segment acked,
 * target being W_cubic(t + SRTT) held within [cwnd, 1.5 cwnd]. Where
 * Reno would be faster (the Reno-friendly region, 4.3), cwnd follows
 * W_est, which grows by alpha = 3 (1 - beta) / (1 + beta) segments an RTT
 * until it passes the window before the reduction, then by 1. On a
 * congestion event (4.6) ssthresh = cwnd beta, beta = 0.7 (Linux applies
 * beta to cwnd, as RFC 9438 allows, rather than to FlightSize); with fast
 * convergence (4.7) W_max = cwnd (1 + beta) / 2 when the window did not
 * reach the last W_max. A timeout (4.8) reduces likewise and sets cwnd
 * to one segment. Slow start is Reno's; HyStart (Linux's exit from slow
 * start on delay) is not modelled.
 *
 * Windows are in segments (doubles) inside, cwnd in bytes outside; the
 * fraction of a byte each ACK earns is carried to the next.
 */
#include "transport/tcp_int.h"

#include <math.h>

double ibfs__cubic_k(double w_max)
{
	return cbrt(w_max * (1.0 - IBFS_CUBIC_BETA) / IBFS_CUBIC_C);
}

double ibfs__cubic_w(double w_max, double k, double t)
{
	double d = t - k;

	return IBFS_CUBIC_C * d * d * d + w_max;
}

static void cubic_init(struct ibfs_tcp *tp)
{
	struct ibfs_tcp_cubic *c = &tp->ccs.cubic;

	c->w_max = 0;
	c->cwnd_prior = 0;
	c->k = 0;
	c->w_est = 0;
	c->frac = 0;
	c->epoch = IBFS_TIME_NEVER;
	c->fast_convergence = 1;
}

/* The start of a congestion-avoidance epoch (RFC 9438 4.2, eq. 2). */
static void cubic_epoch(struct ibfs_tcp *tp, double cw)
{
	struct ibfs_tcp_cubic *c = &tp->ccs.cubic;

	c->epoch = ibfs__tcp_now(tp);
	if (cw < c->w_max) {
		c->k = cbrt((c->w_max - cw) / IBFS_CUBIC_C);
	} else {
		c->k = 0;
		c->w_max = cw;
	}
	c->w_est = cw;
	c->frac = 0;
}

static void cubic_on_ack(struct ibfs_tcp *tp, uint64_t acked, ibfs_time_t rtt)
{
	struct ibfs_tcp_cubic *c = &tp->ccs.cubic;
	double mss = tp->snd_mss, cw, t, srtt, target, alpha, inc;

	if (tp->cwnd < tp->ssthresh) {
		ibfs__tcp_slow_start(tp, acked);
		return;
	}
	cw = (double)tp->cwnd / mss;
	if (c->epoch == IBFS_TIME_NEVER)
		cubic_epoch(tp, cw);
	t = (double)(ibfs__tcp_now(tp) - c->epoch) / (double)IBFS_S;
	srtt = (double)(tp->srtt ? tp->srtt : rtt) / (double)IBFS_S;
	target = ibfs__cubic_w(c->w_max, c->k, t + srtt);
	if (target < cw)
		target = cw;
	if (target > 1.5 * cw)
		target = 1.5 * cw;
	alpha = c->w_est >= c->cwnd_prior ?
		1.0 : 3.0 * (1.0 - IBFS_CUBIC_BETA) / (1.0 + IBFS_CUBIC_BETA);
	c->w_est += alpha * ((double)acked / mss) / cw;
	if (ibfs__cubic_w(c->w_max, c->k, t) < c->w_est) {
		uint64_t w = (uint64_t)(c->w_est * mss);

		if (w > tp->cwnd)
			tp->cwnd = w;
		return;
	}
	inc = (target - cw) / cw * (double)acked + c->frac;
	tp->cwnd += (uint64_t)inc;
	c->frac = inc - floor(inc);
}

static void cubic_reduce(struct ibfs_tcp *tp)
{
	struct ibfs_tcp_cubic *c = &tp->ccs.cubic;
	double cw = (double)tp->cwnd / tp->snd_mss;
	uint64_t min = 2 * (uint64_t)tp->snd_mss;
	uint64_t ss = tp->cwnd * 7 / 10; /* beta = 0.7, in integers */

	if (c->fast_convergence && cw < c->w_max)
		c->w_max = cw * (1.0 + IBFS_CUBIC_BETA) / 2.0;
	else
		c->w_max = cw;
	c->cwnd_prior = cw;
	c->epoch = IBFS_TIME_NEVER;
	tp->ssthresh = ss > min ? ss : min;
}

static void cubic_enter_recovery(struct ibfs_tcp *tp)
{
	cubic_reduce(tp);
	tp->cwnd = tp->ssthresh;
}

static void cubic_on_rto(struct ibfs_tcp *tp)
{
	cubic_reduce(tp);
	tp->cwnd = tp->snd_mss;
}

const struct ibfs_tcp_cc_ops ibfs__tcp_cubic = {
	.name = "cubic",
	.init = cubic_init,
	.on_ack = cubic_on_ack,
	.enter_recovery = cubic_enter_recovery,
	.on_ecn = cubic_enter_recovery, /* a congestion event (4.6) */
	.on_rto = cubic_on_rto,
};
