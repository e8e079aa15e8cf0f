/* SPDX-License-Identifier: MIT */
/*
 * DCTCP (RFC 8257): the receiver echoes each segment's CE mark (3.2, in
 * tcp_recv.c); the sender keeps alpha, the fraction of marked bytes
 * smoothed over windows: alpha = (1 - g) alpha + g F, g = 1/16 (3.3,
 * 4.2), F the marked fraction of the bytes acknowledged in the window
 * just ended (a window ends when snd_una passes the snd_nxt it began
 * with). On ECE, once a window (the engine's CWR window, RFC 3168 6.1.2),
 * cwnd = cwnd (1 - alpha / 2) (3.3, held at 2 SMSS at least, as Linux's
 * dctcp_ssthresh). alpha starts at 1 (3.3; Linux's dctcp_alpha_on_init
 * default). Growth, losses and timeouts are NewReno's (3.5).
 */
#include "transport/tcp_int.h"

static void dctcp_init(struct ibfs_tcp *tp)
{
	struct ibfs_tcp_dctcp *d = &tp->ccs.dctcp;

	d->alpha = 1.0;
	d->g = 1.0 / 16.0;
	d->acked = 0;
	d->marked = 0;
	d->window_end = tp->snd_nxt;
	d->reno.bytes_acked = 0;
}

static void dctcp_on_ack(struct ibfs_tcp *tp, uint64_t acked, ibfs_time_t rtt)
{
	if (tp->cwnd < tp->ssthresh)
		ibfs__tcp_slow_start(tp, acked);
	else
		ibfs__tcp_reno_avoid(tp, &tp->ccs.dctcp.reno, acked);
}

static void dctcp_ack_ecn(struct ibfs_tcp *tp, uint64_t acked, int ece)
{
	struct ibfs_tcp_dctcp *d = &tp->ccs.dctcp;

	d->acked += acked;
	if (ece)
		d->marked += acked;
	if (tp->snd_una < d->window_end)
		return;
	if (d->acked) {
		double f = (double)d->marked / (double)d->acked;

		d->alpha = (1.0 - d->g) * d->alpha + d->g * f;
	}
	d->acked = 0;
	d->marked = 0;
	d->window_end = tp->snd_nxt;
}

static void dctcp_on_ecn(struct ibfs_tcp *tp)
{
	uint64_t w = (uint64_t)((double)tp->cwnd *
				(1.0 - tp->ccs.dctcp.alpha / 2.0));
	uint64_t min = 2 * (uint64_t)tp->snd_mss;

	tp->ssthresh = w > min ? w : min;
	tp->cwnd = tp->ssthresh;
	tp->ccs.dctcp.reno.bytes_acked = 0;
}

static void dctcp_loss(struct ibfs_tcp *tp)
{
	uint64_t half = (tp->snd_nxt - tp->snd_una) / 2;
	uint64_t min = 2 * (uint64_t)tp->snd_mss;

	tp->ssthresh = half > min ? half : min;
	tp->cwnd = tp->ssthresh;
	tp->ccs.dctcp.reno.bytes_acked = 0;
}

static void dctcp_on_rto(struct ibfs_tcp *tp)
{
	dctcp_loss(tp);
	tp->cwnd = tp->snd_mss;
}

const struct ibfs_tcp_cc_ops ibfs__tcp_dctcp = {
	.name = "dctcp",
	.init = dctcp_init,
	.on_ack = dctcp_on_ack,
	.ack_ecn = dctcp_ack_ecn,
	.enter_recovery = dctcp_loss,
	.on_ecn = dctcp_on_ecn,
	.on_rto = dctcp_on_rto,
	.per_segment_echo = 1,
};
